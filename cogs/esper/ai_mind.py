"""What one seat of the Esper demo AI knows, and the reads every stage's play shares.

A :class:`Mind` is the seat's view (:func:`rules.view` for the seat), the pack (public data) and
the alignment a declaration claims (said aloud with it): nothing else. Whom a seat fights is what
it suspects (:meth:`Mind.threat`): an alignment it knows (an open or seen sheet, a conversion it
was told of) or, unknown, what the silhouette's side suggests (GOOD suspects the defenders, EVIL
the invaders). The functions below it are the reads and choices the planet stage (:mod:`.ai`),
combat (:mod:`.ai_combat`) and the secret base (:mod:`.ai_base`) all make: how hurt the seat is,
its own abilities, whether to fight where it stands, whether to declare.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from cogs.esper import rules
from cogs.esper.pack import Pack
from cogs.esper.rules import EVIL, GOOD, SPECIAL, EsperState

# spot values shared by the planets and the base (a main action's worth is the value of where
# it leaves the piece)
NOISE = {GOOD: 0.6, SPECIAL: 0.8, EVIL: 3.0}
RECOVER = 6.0  # resting when badly hurt
BLACK_HOLE = 20.0  # entering a black hole (out of play, not dead)
LETHAL = 50.0  # entering a card that would kill
LONG_GAME = 200  # normal turns after which the noise has doubled
DECLARE_EARLY = 0.03  # a GOOD seat declares on the strength of two info cards
# part 2: combat and the base
SUSPECT = 0.5  # a seat whose threat reaches this is a suspected enemy
PARANOIA = 0.6  # an unknown standing character, once all is quiet in the base


@dataclass
class Mind:
    """What one seat knows: its view, the pack, the claimed alignment of a declaration."""

    seat: str
    view: dict[str, Any]
    pack: Pack
    declared: str | None
    rng: random.Random
    _quiet: bool | None = dataclasses.field(default=None, repr=False)

    @property
    def you(self) -> dict[str, Any]:
        you: dict[str, Any] = self.view["you"]
        return you

    @property
    def alignment(self) -> str:
        return str(self.you["alignment"])

    @property
    def seats(self) -> dict[str, dict[str, Any]]:
        seats: dict[str, dict[str, Any]] = self.view["seats"]
        return seats

    @property
    def me(self) -> dict[str, Any]:
        return self.seats[self.seat]

    def known(self, other: str) -> str | None:
        """The other seat's alignment as far as this seat knows it: what a conversion it made
        told it, else the printed alignment of a sheet it saw or that is open."""
        if other == self.seat:
            return self.alignment
        told = None
        for entry in self.you["told"]:
            if entry.get("seat") == self.seat and entry.get("target") == other:
                told = entry.get("alignment")  # the target's alignment after the attempt
            elif entry.get("seat") == other and entry.get("changed"):
                told = entry.get("alignment")  # it converted this seat to its own alignment
        if told is not None:
            return str(told)
        seen = next((s for s in self.you["seen"] if s["seat"] == other), None)
        if seen is not None:
            return self.pack.sheets[seen["sheet"]].alignment
        opened = self.seats[other]["open"]
        if opened is not None:
            return self.pack.sheets[opened].alignment
        return None

    def here(self) -> list[str]:
        """The other living characters on this seat's spot."""
        spot = self.me["spot"]
        return [
            s
            for s, info in self.seats.items()
            if s != self.seat and spot is not None and info["alive"] and info["spot"] == spot
        ]

    def party_info(self, seat: str | None = None) -> int:
        seat = seat or self.seat
        number = self.seats[seat]["party"]
        if number is None:
            return int(self.seats[seat]["info"])
        return sum(
            int(info["info"])
            for info in self.seats.values()
            if info["party"] == number and info["alive"]
        )

    def defeats(self, kind: str) -> bool:
        return any(d.get("kind") == kind for d in self.you["sheet"]["defeat"])

    def seeks_info(self) -> bool:
        return self.alignment != EVIL or self.defeats("info_below")

    def wants_company(self) -> bool:
        return self.defeats("alone") and self.me["party"] is None

    # --- part 2 ---

    @property
    def base(self) -> bool:
        return bool(self.view["stage"] == rules.BASE_STAGE)

    @property
    def combat(self) -> dict[str, Any]:
        combat: dict[str, Any] = self.view["combat"] or {}
        return combat

    @property
    def hand(self) -> list[dict[str, Any]]:
        """The seat's C cards (as the view gives them)."""
        hand: list[dict[str, Any]] = (self.you.get("combat") or {}).get("c_hand", [])
        return hand

    @property
    def power(self) -> int:
        printed = self.pack.sheets[self.you["sheet"]["id"]].power
        return int((self.you.get("combat") or {}).get("power", printed))

    @property
    def esp(self) -> int:
        return int(self.you["sheet"]["esp"])

    def sheet_of(self, other: str) -> str | None:
        """The sheet of another seat, when this seat saw it or it is open."""
        seen = next((s for s in self.you["seen"] if s["seat"] == other), None)
        if seen is not None:
            return str(seen["sheet"])
        opened = self.seats[other]["open"]
        return None if opened is None else str(opened)

    def standing(self, other: str) -> bool:
        """A character that can still act: alive, out of any black hole, and (in the base) in
        it or waiting around it. (A character that came into a base combat with no piece and
        escaped has neither: an engine slip, see the report; it never acts again.)"""
        info = self.seats[other]
        if not info["alive"] or info["black_hole"]:
            return False
        return not self.base or info["spot"] is not None or bool(info.get("outside"))

    def quiet(self) -> bool:
        """In the base, no other standing character this seat suspects: its side has won the
        fight, only its unknowns are left. For SPECIAL: the others standing all look like one
        camp (known alignments, else GOOD for invaders and EVIL for defenders): the war
        between GOOD and EVIL is over."""
        if self._quiet is None:
            others = [s for s in self.seats if s != self.seat and self.standing(s)]
            if not self.base:
                self._quiet = False
            elif self.alignment == SPECIAL:
                camps = {
                    self.known(s) or (GOOD if self.seats[s]["side"] == rules.INVADER else EVIL)
                    for s in others
                }
                self._quiet = len(camps - {SPECIAL}) <= 1
            else:
                self._quiet = not any(self.suspicion(s) >= SUSPECT for s in others)
        return self._quiet

    def threat(self, other: str) -> float:
        """The suspicion, but once all is quiet in the base and this seat has shown its sheet,
        GOOD and EVIL suspect every standing character not known to let their claim stand
        (sheets are opened then; one that stays hidden is taken for a foe), and SPECIAL every
        standing character (they stand between it and its solo claim)."""
        value = self.suspicion(other)
        if value >= SUSPECT or other == self.seat or not self.standing(other):
            return value
        if not self.quiet():
            return value
        if self.alignment == SPECIAL or (self.me["open"] is not None and not self.agreeable(other)):
            return PARANOIA
        return value

    def agreeable(self, other: str) -> bool:
        """Whether ``other`` is known to let this seat's claim stand: the same alignment, or a
        SPECIAL whose open or seen sheet is not defeated by it."""
        known = self.known(other)
        if known == self.alignment:
            return True
        sheet = self.sheet_of(other)
        if known != SPECIAL or sheet is None:
            return False
        return not any(
            d.kind == "declared" and d.alignment == self.alignment
            for d in self.pack.sheets[sheet].defeat
        )

    def suspicion(self, other: str) -> float:
        """How much this seat takes ``other`` for an enemy (0 … 1): a character its defeat
        condition wants dead, an alignment it knows, else what the silhouette's side suggests
        (EVIL hides among the invaders, GOOD never shows an EVIL silhouette)."""
        if other == self.seat:
            return 0.0
        sheet = self.sheet_of(other)
        if sheet is not None:
            for defeat in self.you["sheet"]["defeat"]:
                if defeat.get("kind") == "alive" and defeat.get("who") == sheet:
                    return 1.0
        known = self.known(other)
        mine = self.alignment
        side = self.seats[other]["side"]
        if mine == SPECIAL:
            return 0.3  # it plays alone: it fights back (see _wanted), it does not hunt
        if known is not None:
            if known == mine:
                return 0.0
            return 0.3 if known == SPECIAL else 1.0
        if mine == GOOD:
            return 0.7 if side == rules.DEFENDER else 0.2
        if mine == EVIL:
            if side == rules.INVADER:
                return 0.75 if self.base else 0.55
            return 0.1
        return 0.3

    def wants_keys_down(self) -> bool:
        """Everyone but EVIL gains when the key installations fall (GOOD wins, SPECIAL's game
        ends with it alive)."""
        return self.alignment != EVIL

    def healthy(self) -> bool:
        full = int(self.you["sheet"]["durability"])
        return int(self.you["durability"]) >= max(3, (full + 1) // 2)


def mind_of(state: EsperState, seat: str, rng: Any) -> Mind:
    """The seat's knowledge: its view, the pack and the declared alignment (said aloud)."""
    declared = state.declaration.get("alignment") if state.declaration else None
    return Mind(seat, rules.view(state, seat), state.pack, declared, rng)


# --- shared reads --------------------------------------------------------------------------------


def durability_lost(k: Mind) -> int:
    return int(k.you["sheet"]["durability"]) - int(k.you["durability"])


def badly_hurt(k: Mind) -> bool:
    return durability_lost(k) > 0 and k.you["durability"] <= max(
        2, k.you["sheet"]["durability"] // 3
    )


def _ability(k: Mind, ability_id: str) -> Any:
    """One of the seat's own abilities (its sheet's or a deck card's) as the pack prints it."""
    if ability_id in k.pack.abilities:
        return k.pack.abilities[ability_id]
    sheet = k.pack.sheets[k.you["sheet"]["id"]]
    return next((a for a in sheet.abilities if a.id == ability_id), None)


def own_abilities(k: Mind, *timings: str) -> list[Any]:
    """The seat's abilities of these timings it can pay for; EVIL keeps those printed on its
    sheet (their ids would name it) for when it is badly hurt or in the base, where the war is
    open."""
    printed = [a["id"] for a in k.you["sheet"]["abilities"]]
    ids = [*printed, *(a["id"] for a in k.you["hand"])]
    out = []
    for ability_id in dict.fromkeys(ids):
        ability = _ability(k, ability_id)
        if ability is None or ability.timing not in timings:
            continue
        if ability.cost_mind > int(k.you["mind"]) or ability.cost_power > k.power:
            continue
        shown = badly_hurt(k) or k.base or k.me["open"] is not None
        if k.alignment == EVIL and ability_id in printed and not shown:
            continue
        out.append(ability)
    return out


def declaration_order(k: Mind) -> str | None:
    """``declare-solo`` when SPECIAL may; ``declare`` when every other living character is known
    to share the seat's alignment, or (GOOD, rarely) on the strength of two info cards."""
    others = [s for s in k.seats if s != k.seat]
    if k.alignment == SPECIAL:
        down = all(not k.seats[s]["alive"] or k.seats[s]["black_hole"] for s in others)
        return "declare-solo" if down else None
    living = [s for s in others if k.seats[s]["alive"]]
    if living and all(k.known(s) == k.alignment for s in living):
        return "declare"  # again too, once those who objected are dealt with
    if k.me["declared"]:
        return None
    if k.alignment == GOOD and k.party_info() >= 2 and k.rng.random() < DECLARE_EARLY:
        return "declare"
    return None


def _suspects_at(k: Mind, spot: str) -> list[str]:
    """The suspected enemies standing on ``spot`` (those who could be fought there)."""
    return [
        s
        for s, info in k.seats.items()
        if s != k.seat
        and info["alive"]
        and not info["black_hole"]
        and info["spot"] == spot
        and not info.get("outside")
        and k.threat(s) >= SUSPECT
    ]


def fight_at(k: Mind, spot: str, eager: float, chance: float, least: float = SUSPECT) -> bool:
    """Whether to end the turn with ``fight`` on ``spot``: a suspect (at least ``least``)
    stands there, the seat is healthy, and its eagerness this turn beats the chance times the
    suspicion."""
    suspects = [s for s in _suspects_at(k, spot) if k.threat(s) >= least]
    if not suspects or not k.healthy():
        return False
    return eager < chance * max(k.threat(s) for s in suspects)
