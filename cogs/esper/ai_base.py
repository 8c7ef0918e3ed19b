"""The Esper demo AI in the secret base: its set-up steps, its turns and a teleport's path.

EVIL votes its key installations apart on the inner spots and hunts the invaders (the nearer a
key, the sooner); invaders infiltrate, explore the face-down spots, fight every key installation
they find, and teleport along a path now and then. Once all is quiet (:meth:`Mind.quiet`) sheets
are opened and GOOD or EVIL claims its victory. What the seat knows and whom it suspects are
:mod:`.ai_mind`'s; :mod:`.ai` sends the base's steps and turns here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from cogs.esper import base as base_map
from cogs.esper import rules
from cogs.esper.ai_mind import (
    BLACK_HOLE,
    LETHAL,
    LONG_GAME,
    NOISE,
    RECOVER,
    SUSPECT,
    Mind,
    badly_hurt,
    declaration_order,
    durability_lost,
    fight_at,
)
from cogs.esper.rules import EVIL, GOOD, SPECIAL

FIGHT_BASE = 0.7  # … in the base
TELEPORT_BASE = 0.5  # a long way in the base is teleported now and then
DECLARE_CLEAR = 0.5  # GOOD or EVIL declares in the base once every standing one agrees
HUNT_ALL = 150  # from this normal turn EVIL hunts every suspect, not only those near its keys
KEY_NEAR = 2  # EVIL hunts first the invaders this near a key installation
SHUN = 4.0  # what a seeker pays to enter a suspect's spot (a third of it beside one)
KNOWN = 0.9  # a seeker starts a fight with a seat only when it knows it for an enemy
RESTLESS = 0.3  # a hurt defender leaves its spot instead of resting (a hidden trap may be there)


def base_step(k: Mind, step: str) -> list[str]:
    if step == base_map.KEYS:
        return [_keys_vote(k), "pass"]
    if step == base_map.PLACE:
        return [f"place {spot}" for spot in _entry_spots(k)]
    return _path(k)


def _distance(a: str, b: str) -> int:
    xa, ya = base_map.coords(a) or (0, 0)
    xb, yb = base_map.coords(b) or (0, 0)
    return abs(xa - xb) + abs(ya - yb)


def _keys_vote(k: Mind) -> str:
    """EVIL spreads its key installations over the inner spots (the invaders come in on the
    outer ring); a GOOD defender votes them onto the outer ring; SPECIAL stays out of it."""
    n = k.pack.keys_placed
    if k.alignment == EVIL:
        pool = [s for s in base_map.spots() if not base_map.outer(s)]
    elif k.alignment == GOOD:
        pool = base_map.outer_spots()
    else:
        return "pass"
    k.rng.shuffle(pool)
    chosen: list[str] = []
    for apart in (3, 2, 0):
        for spot in pool:
            far = all(_distance(spot, other) >= apart for other in chosen)
            if len(chosen) < n and spot not in chosen and far:
                chosen.append(spot)
    return "keys " + " ".join(chosen)


@dataclass(frozen=True)
class BaseChart:
    """The base as this seat values it: what entering each spot costs beyond the step
    (``hazard``: a face-up card that hurts the seat, the likely harm of a face-down one), the
    spots it heads for (``goals``) and the cheapest way from each spot to one (``togo``)."""

    hazard: Mapping[str, float]
    goals: frozenset[str]
    togo: Mapping[str, float]
    harmful: frozenset[str] = frozenset()  # spots whose card is known to hurt the seat

    def known_safe(self, spot: str) -> bool:
        return spot not in self.harmful

    def enter(self, spot: str) -> float:
        """Entering ``spot`` and going on from it."""
        return 1 + self.hazard[spot] + self.togo[spot]


def _base_harm(k: Mind, card_id: str, evil_side: bool) -> float:
    """What a base card does to this seat each time it fires (a cost, 0 when harmless)."""
    card = k.pack.base_cards[card_id]
    if evil_side and not card.evil:
        return 0.0
    if card.effect == "damage":
        return LETHAL if card.n >= int(k.you["durability"]) else 3.0 * card.n
    if card.effect == "black_hole":
        return BLACK_HOLE
    return 0.0


def _role(k: Mind) -> str:
    """``seeker`` (an invader that wants the key installations down: it explores and fights
    them), or ``hunter`` (EVIL and the defenders, and a seeker left with nothing to find: they
    go for the suspects)."""
    if k.me["side"] == rules.INVADER and k.wants_keys_down() and _findable(k):
        return "seeker"
    return "hunter"


def _findable(k: Mind) -> bool:
    """A face-down card is left that holds nobody in a black hole, or a found key
    installation not on a face-up black hole."""
    up: Mapping[str, str] = (k.view["base"] or {}).get("up", {})
    held = {info["spot"] for info in k.seats.values() if info["alive"] and info["black_hole"]}
    if any(s not in up and s not in held for s in base_map.spots()):
        return True
    return any(k.pack.base_cards[up[key]].effect != "black_hole" for key in _live_keys(k))


def _occupied(k: Mind, spot: str) -> bool:
    return any(
        s != k.seat and info["alive"] and info["spot"] == spot and not info.get("outside")
        for s, info in k.seats.items()
    )


def _live_keys(k: Mind) -> list[str]:
    """Found key installations still standing (public)."""
    keys = (k.view["base"] or {}).get("keys", {})
    return [spot for spot, key in keys.items() if not key["destroyed"]]


def _my_keys(k: Mind) -> list[str]:
    """The key installations EVIL silhouettes know of, but those destroyed."""
    known = (k.view["base"] or {}).get("keys", {})
    mine = k.you.get("keys") or {}
    return [spot for spot in mine if not known.get(spot, {}).get("destroyed")]


def base_chart(k: Mind) -> BaseChart:
    base = k.view["base"] or {}
    up: Mapping[str, str] = base.get("up", {})
    spent = set(base.get("spent", []))
    evil_side = k.me["side"] == rules.DEFENDER
    deck = k.pack.base_deck()
    unknown = sum(_base_harm(k, c, evil_side) for c in deck) / max(len(deck), 1)
    hazard: dict[str, float] = {}
    harmful = set()
    for spot in base_map.spots():
        if spot in up:
            hazard[spot] = 0.0 if spot in spent else _base_harm(k, up[spot], evil_side)
            if hazard[spot]:
                harmful.add(spot)
        else:
            hazard[spot] = unknown
    for s, info in k.seats.items():
        # a character held in a black hole on a face-down card: that card holds anyone (only
        # a card that also works on EVIL silhouettes can hold one face down)
        spot = info["spot"]
        if s != k.seat and info["alive"] and info["black_hole"] and spot in hazard:
            hazard[spot] = hazard[spot] if spot in up else BLACK_HOLE
    if _role(k) == "seeker":
        # a seeker walks round the suspects (it fights key installations, not hunters)
        for spot in _suspect_spots(k):
            hazard[spot] += SHUN
            for n in base_map.neighbours(spot):
                hazard[n] += SHUN / 3
    goals = _goals(k, up, hazard)
    togo = {spot: (0.0 if spot in goals else math.inf) for spot in base_map.spots()}
    changed = bool(goals)
    while changed:
        changed = False
        for spot in base_map.spots():
            if spot in goals:
                continue
            best = min(1 + hazard[n] + togo[n] for n in base_map.neighbours(spot))
            if best < togo[spot]:
                togo[spot], changed = best, True
    if not goals:
        togo = dict.fromkeys(base_map.spots(), 0.0)
    return BaseChart(hazard, frozenset(goals), togo, frozenset(harmful))


def _suspect_spots(k: Mind) -> set[str]:
    """Where the suspects inside the base stand."""
    return {
        str(info["spot"])
        for s, info in k.seats.items()
        if s != k.seat
        and info["alive"]
        and not info["black_hole"]
        and info["spot"] is not None
        and not info.get("outside")
        and k.threat(s) >= SUSPECT
    }


def _goals(k: Mind, up: Mapping[str, str], hazard: Mapping[str, float]) -> set[str]:
    """A seeker's: the found key installations, else the face-down cards. EVIL's: the suspects
    near a key installation, else a key installation no other defender guards (the one it
    stands on), else any suspect. Another hunter's: found key installations (GOOD wants them
    down), else the suspects."""
    keys = [key for key in _live_keys(k) if hazard[key] < BLACK_HOLE]  # reachable
    suspects = _suspect_spots(k)
    if _role(k) == "seeker":
        down = {s for s in base_map.spots() if s not in up and hazard[s] < BLACK_HOLE}
        return set(keys) or down
    if k.alignment != EVIL:
        return set(keys) if keys and k.wants_keys_down() else suspects
    mine = _my_keys(k)
    near = {s for s in suspects if any(_distance(s, key) <= KEY_NEAR for key in mine)}
    if near:
        return near
    if int(k.view["turn"]) >= HUNT_ALL and suspects:
        return suspects
    if k.me["spot"] in mine:
        return {str(k.me["spot"])}
    guarded = {
        str(info["spot"])
        for s, info in k.seats.items()
        if s != k.seat and info["alive"] and info["side"] == rules.DEFENDER
    }
    free = [key for key in mine if key not in guarded]
    return set(free) or suspects


def _fight_tail(k: Mind, spot: str, eager: float, c: BaseChart) -> list[str]:
    """How a turn ending on ``spot`` ends: ``fight`` at a found key installation (a seeker) or
    a suspect; after a step onto a face-down card, ``fight`` when nobody else stands there (it
    starts only if the card hides a key installation), else the ``after`` step decides."""
    seeker = _role(k) == "seeker"
    if seeker and spot in _live_keys(k) and not badly_hurt(k):
        return ["fight"]
    if fight_at(k, spot, eager, FIGHT_BASE, KNOWN if seeker else SUSPECT):
        return ["fight"]
    face_down = spot not in (k.view["base"] or {}).get("up", {})
    if _role(k) == "seeker" and face_down:
        return [] if _occupied(k, spot) else ["fight"]
    return ["end"]


def _route(c: BaseChart, start: str, longest: int) -> list[str]:
    """The cheapest way on from ``start``, a step at a time and never straight back, until it
    reaches a goal or ``longest`` steps."""
    path: list[str] = []
    previous, here = None, start
    while len(path) < longest:
        options = [n for n in base_map.neighbours(here) if n != previous]
        nxt = min(options, key=lambda n: (c.enter(n) if n not in c.goals else 1 + c.hazard[n], n))
        path.append(nxt)
        previous, here = here, nxt
        if nxt in c.goals:
            break
    return path


def _entry_spots(k: Mind) -> list[str]:
    """Outer spots to come in on, best first: near what the seat heads for, apart from the
    others, a little at random."""
    c = base_chart(k)
    worth = {
        spot: -c.togo[spot]
        - c.hazard[spot]
        - (2.0 if _occupied(k, spot) else 0.0)
        + k.rng.random() * 2
        for spot in base_map.outer_spots()
    }
    return sorted(worth, key=lambda s: -worth[s])[:8]


def base_turn(k: Mind) -> list[str]:
    """A normal turn in the base: infiltrate from outside; inside, head for the goals (found key
    installations or face-down cards for a seeker, the suspects for a hunter), fight there, and
    teleport along the way now and then; rest when badly hurt."""
    declaration = declaration_order(k) or _standoff(k)
    texts: list[str] = [declaration] if declaration else []
    show = _show(k)
    if k.me.get("outside") or k.me["spot"] is None:
        waits = ["recover durability; end"] if badly_hurt(k) and k.rng.random() < 0.5 else []
        waits += [f"infiltrate {spot}; end" for spot in _entry_spots(k)[:3]]
        waits += ["infiltrate; end", "pass; end"]
        return [*texts, *(f"{s}; {t}" for s in show for t in waits), *waits]
    spot = str(k.me["spot"])
    c = base_chart(k)
    eager = k.rng.random()
    options: list[tuple[float, str]] = []
    stay = -c.togo[spot] - c.hazard[spot] - 0.5
    here_tail = _fight_tail(k, spot, eager, c)
    if here_tail == ["fight"] and not k.me["black_hole"]:
        stay += 20.0  # the goal is here: fight it
    elif here_tail == []:
        here_tail = ["end"]
    options.append((stay, "; ".join(["pass", *here_tail])))
    for n in base_map.neighbours(spot):
        worth = -(1 + c.hazard[n] + c.togo[n])
        options.append((worth, "; ".join([f"move {n}", *_fight_tail(k, n, eager, c)])))
    if durability_lost(k):
        # resting beats waiting (the card here fires either way), but on a card known to hurt
        # it is undone: better get off it
        rest = (RECOVER if badly_hurt(k) else 0.8) if c.known_safe(spot) else 0.3
        fight = 20.0 if here_tail == ["fight"] else 0.0
        unseen = spot not in (k.view["base"] or {}).get("up", {})
        if k.me["side"] == rules.DEFENDER and unseen and k.rng.random() < RESTLESS:
            # the card under a defender never shows: it may be what keeps hurting it
            rest, stay = 0.0, stay - RECOVER
            options[0] = (stay, options[0][1])
        options.append((stay + rest - fight, "recover durability; end"))
    if k.esp >= 5 and c.togo[spot] >= 3 and k.rng.random() < TELEPORT_BASE:
        route = _route(c, spot, k.esp - 1)
        reach = min(k.esp, len(route) + 1)
        if reach >= 5:  # a roll below it goes that far along the way: worth a step or more
            best = max(worth for worth, _ in options)
            options.append((best + 0.5, f"teleport {reach} {'>'.join(route[: reach - 1])}"))
    noise = NOISE[GOOD] * (1 + int(k.view["turn"]) / LONG_GAME)
    ranked = sorted(((w + noise * k.rng.random(), t) for w, t in options), key=lambda i: -i[0])
    mains = [text for _, text in ranked] + ["pass; end"]
    texts += [f"{s}; {t}" for s in show for t in mains]
    return [*texts, *mains]


def _standoff(k: Mind) -> str | None:
    """In the base GOOD and EVIL claim their victory, now and then, once all is quiet and every
    standing character is known to let the claim stand (those in black holes concede)."""
    if not k.base or k.alignment == SPECIAL or k.me["declared"] or not k.quiet():
        return None
    standing = [s for s in k.seats if s != k.seat and k.standing(s)]
    if not all(k.agreeable(s) for s in standing) or k.rng.random() >= DECLARE_CLEAR:
        return None
    return "declare"


def _show(k: Mind) -> list[str]:
    """Once all is quiet in the base, hiding is over: the sheet is opened, so that the seat's
    allies know it (and a seat that stays hidden is taken for a foe)."""
    return ["open"] if k.quiet() and k.me["open"] is None else []


def base_after(k: Mind) -> list[str]:
    """After the square (a teleport's landing, a step onto a face-down card among others):
    fight a key installation found here or a suspect, else end."""
    spot = k.me["spot"]
    if spot is not None:
        seeker = _role(k) == "seeker"
        if seeker and spot in _live_keys(k) and not badly_hurt(k):
            return ["fight", "end"]
        least = KNOWN if seeker else SUSPECT
        if fight_at(k, str(spot), k.rng.random(), FIGHT_BASE, least):
            return ["fight", "end"]
    declaration = declaration_order(k) or _standoff(k)
    return [declaration, "end"] if declaration else ["end"]


def _path(k: Mind) -> list[str]:
    """A teleport's path when it was not given (the roll decides its length): the way on to
    the goals, every length (only the rolled one is an order)."""
    spot = k.me["spot"]
    if spot is None:
        return []
    route = _route(base_chart(k), str(spot), 6)
    while len(route) < 6:  # on past the goal, never straight back
        previous = route[-2] if len(route) > 1 else str(spot)
        options = [n for n in base_map.neighbours(route[-1]) if n != previous]
        route.append(options[0])
    return [">".join(route[:n]) for n in range(1, 7)]
