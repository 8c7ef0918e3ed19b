"""Esper war, part 1: scenario tests of the rules engine against the digest
(``../shared/rules/esper.md``, D1): the deal and its refusals, silhouettes and the balance, the
start, moves and teleports, square effects, conversion, parties, declarations, the stage's end,
the grades and the other ends of a game (combat and the base: test_combat.py, test_base.py).

States come from a real game advanced to the step in question (every seat answering by default),
then adjusted; exact rolls come from :class:`bot.dice.ScriptedDice`, and every scripted roll must
be used (a test fails if the engine rolls more or fewer dice than the rule asks for)."""

from __future__ import annotations

import collections
import math
import random
from collections.abc import Mapping, Sequence

import pytest

from bot.dice import Dice, ScriptedDice
from bot.ruleset import Event, OrderRejected, RuleError
from cogs.esper import opening, rules
from cogs.esper import pack as packlib
from cogs.esper.rules import DEFENDER, EVIL, GOOD, INVADER, SPECIAL, EsperState

PACK = packlib.sample()
CARD_SPOTS = rules.card_spots()
GOODS = [i for i, s in PACK.sheets.items() if s.alignment == GOOD]  # c01 (L) … c06
EVILS = [i for i, s in PACK.sheets.items() if s.alignment == EVIL]  # c07 (L) … c12
SPECIALS = [i for i, s in PACK.sheets.items() if s.alignment == SPECIAL]  # c13 … c16
LOCKS = [i for i, s in PACK.sheets.items() if s.lock]
# sample-pack facts the scenarios below lean on: if the pack changes, fix the scenarios
assert LOCKS == ["c01", "c07"] and len(GOODS) == len(EVILS) == 6 and len(SPECIALS) == 4


class RandomDice:
    """A seeded secret or resolve stream (its draws recorded like a real stream's)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rolls: list[int] = []

    def roll(self, sides: int) -> int:
        value = self.rng.randint(1, sides)
        self.rolls.append(value)
        return value


def none() -> ScriptedDice:
    """Dice of a step that must not roll: any draw fails the test (dice.missing)."""
    return ScriptedDice([])


def new(players: int = 7, seed: int = 0, **options: object) -> tuple[EsperState, RandomDice]:
    secret = RandomDice(seed * 7 + 1)
    state = rules.new_game("g", rules.SEATS[:players], options, none(), secret)
    return state, secret


def opened(state: EsperState) -> EsperState:
    """The state's next step, open for orders (a step that is open stays as it is); a
    silhouette step draws its defaults from a seeded secret stream."""
    if state.open:
        return state
    state, _ = rules.start_step(state, none(), RandomDice(99))
    return state


def step(
    state: EsperState,
    orders: Mapping[str, str] | None = None,
    rolls: Sequence[int] = (),
    secret: Dice | None = None,
) -> tuple[EsperState, list[Event]]:
    """Open the step, send ``orders`` (text; the others default), resolve it with exactly
    ``rolls`` from the resolve stream."""
    state = opened(state)
    dice = ScriptedDice(list(rolls))
    state, events = rules.resolve(state, dict(orders or {}), dice, secret or none())
    assert dice.remaining == 0, f"{dice.remaining} scripted roll(s) unused"
    return state, events


def rejected(state: EsperState, seat: str, text: str) -> str:
    """The refusal key of ``text`` from ``seat`` in the open step."""
    with pytest.raises(OrderRejected) as caught:
        rules.parse(opened(state), seat, text)
    return caught.value.key


def of(events: Sequence[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


def one(events: Sequence[Event], kind: str) -> Event:
    found = of(events, kind)
    assert len(found) == 1, f"{kind}: {[e.type for e in events]}"
    return found[0]


def has(events: Sequence[Event], kind: str) -> bool:
    return len(of(events, kind)) == 1


def mentions_pack_ids(event: Event) -> set[str]:
    found: list[str] = []
    rules._ids_in(dict(event.data), rules._all_ids(PACK), found)
    return set(found)


def advanced(players: int, wanted: str, seed: int = 0) -> tuple[EsperState, RandomDice]:
    """A game every seat plays by default up to (not opening) its first ``wanted`` step."""
    state, secret = new(players, seed)
    for _ in range(20):
        if state.step == wanted:
            return state, secret
        state, _ = rules.start_step(state, none(), secret)
        state, _ = rules.resolve(state, {}, RandomDice(seed), secret)
    raise AssertionError(f"no {wanted} step")


def table(
    *sheets: str,
    active: str = "A",
    spots: Mapping[str, str | None] | None = None,
) -> EsperState:
    """A game at ``active``'s normal turn (not open): seats A, B, … hold ``sheets`` (their
    printed alignment), each shows its own silhouette; invaders stand on P1-1 unless ``spots``
    says otherwise, EVIL silhouettes have no piece. Every planet card is "none" (p01) face down,
    no ambush, nobody holds anything."""
    state, _ = advanced(len(sheets), rules.TURN)
    for seat, sheet_id in zip(state.order, sheets, strict=True):
        s = state.seats[seat]
        s.sheet, s.alignment, s.silhouette = sheet_id, PACK.sheets[sheet_id].alignment, sheet_id
        s.spot = None if s.alignment == EVIL else "P1-1"
        s.hand, s.info, s.damage, s.card = [], 0, 0, "5♣"
    for seat, spot in (spots or {}).items():
        state.seats[seat].spot = spot
    state.planets = {p: "p01" for p in CARD_SPOTS}
    state.face_up, state.spent = [], []
    state.ambush, state.ambush_runner, state.rafnor = None, None, None
    state.active, state.step, state.waiting, state.pending = active, rules.TURN, [active], {}
    state.turn = 0
    return state


# GOOD c04 (ESP 5, durability 5), GOOD c02, SPECIAL c13 (converts), EVIL c08, EVIL c10: five seats
FIVE = ("c04", "c02", "c13", "c08", "c10")


# --- the deal ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", rules.PLAYER_COUNTS)
def test_the_deal_follows_the_composition_with_exactly_one_lock(players: int) -> None:
    want = dict(zip((GOOD, EVIL, SPECIAL), PACK.counts[players], strict=True))
    assert want[GOOD] == want[EVIL] >= want[SPECIAL]
    locks_by_alignment: collections.Counter[str] = collections.Counter()
    deals = set()
    for seed in range(40):
        state, secret = new(players, seed)
        dealt = [state.seats[s].sheet for s in state.order]
        assert len(set(dealt)) == players  # every seat a different character
        printed = collections.Counter(PACK.sheets[i].alignment for i in dealt)
        assert dict(printed) == {k: v for k, v in want.items() if v}
        locks = [i for i in dealt if PACK.sheets[i].lock]
        assert len(locks) == 1
        locks_by_alignment[PACK.sheets[locks[0]].alignment] += 1
        assert all(
            state.seats[s].alignment == PACK.sheets[state.seats[s].sheet].alignment
            for s in state.order
        )
        # what is left for refuse-last: the other (L) sheets, and per alignment the non-(L) rest
        undealt = [i for queue in state.undealt.values() for i in queue]
        assert sorted(undealt + dealt) == sorted(PACK.sheets)
        assert all(PACK.sheets[i].lock for i in state.undealt["L"])
        for alignment in (GOOD, EVIL, SPECIAL):
            assert all(
                PACK.sheets[i].alignment == alignment and not PACK.sheets[i].lock
                for i in state.undealt[alignment]
            )
        assert state.step == rules.DEAL and state.waiting == list(state.order)
        assert secret.rolls  # drawn from the secret stream
        deals.add(tuple(dealt))
    # the lock is of the alignment it prints, either one; and seats get different deals
    assert set(locks_by_alignment) == {GOOD, EVIL} and len(deals) > 30


def test_a_deal_opens_with_each_sheet_told_to_its_seat_alone() -> None:
    state, _ = new(5)
    state, events = rules.start_step(state, none(), none())
    told = of(events, "your_sheet")
    assert {e.to for e in told} == {(s,) for s in state.order}
    for event in told:
        assert event.to is not None and event.data["sheet"] == state.seats[event.to[0]].sheet


# --- 拒否 (refuse) -------------------------------------------------------------------------------


def test_refuse_only_for_a_character_of_the_season_and_once_per_game() -> None:
    state, _ = new(7)
    a_sheet = state.seats["A"].sheet
    state.options["history"] = {"A": {"season": [a_sheet]}, "B": {"season": ["c99"]}}
    state = opened(state)
    assert rules.parse(state, "A", "refuse").verb == "refuse"
    assert rules.parse(state, "A", "拒否").verb == "refuse"
    assert rejected(state, "B", "refuse") == rules.R_REFUSE_SEASON  # another character's history
    assert rejected(state, "C", "refuse") == rules.R_REFUSE_SEASON  # no history at all
    # now A refuses: A may never refuse again in this game, even a season character
    state, _ = step(state, {"A": "refuse"}, secret=RandomDice(5))
    state.options["history"]["A"]["season"] = list(PACK.sheets)
    assert rejected(state, "A", "refuse") == rules.R_REFUSE_USED
    state.options["history"]["B"] = {"season": list(PACK.sheets)}
    assert rules.parse(opened(state), "B", "refuse").verb == "refuse"  # B has not refused yet


def test_a_valid_refuse_redeals_everyone_from_the_secret_stream_and_all_answer_again() -> None:
    state, _ = new(7)
    before = {s: state.seats[s].sheet for s in state.order}
    state.options["history"] = {s: {"season": list(PACK.sheets)} for s in state.order}
    state.options["history"]["F"]["previous"] = before["F"]
    secret = RandomDice(99)
    state, events = step(state, {"C": "refuse", "E": "refuse", "F": "refuse-last"}, secret=secret)
    # a new deal: 1 draw for the two (L) sheets, 4, 4 and 3 for the 5, 5 and 4 other sheets
    # of each alignment, 6 to shuffle the seven dealt sheets onto the seats
    assert len(secret.rolls) == 1 + 4 + 4 + 3 + 6
    replay, _ = new(7)
    opening.deal(replay, ScriptedDice(secret.rolls), [])
    after = {s: state.seats[s].sheet for s in state.order}
    assert after == {s: replay.seats[s].sheet for s in state.order} and after != before
    assert state.step == rules.DEAL and state.waiting == list(state.order)  # all answer again
    refused = one(events, "refused")
    assert refused.to is None and dict(refused.data) == {"seats": ["C", "E"]}  # public, by seat
    assert not mentions_pack_ids(refused)  # never the sheet
    assert not of(events, "refused_last")  # the redeal overrides refuse-last this step
    summary = rules.summary(state)
    assert [summary["seats"][s]["refusals"] for s in "CEF"] == [1, 1, 0]
    assert "sheet" not in summary["seats"]["C"]
    # a refused sheet may now be refused last (直前拒否 after 拒否)
    state.seats["C"].sheet = before["C"]
    assert rules.parse(opened(state), "C", "refuse-last").verb == "refuse-last"


# --- 直前拒否 (refuse-last) ---------------------------------------------------------------------


def _two_plain_of_one_alignment(state: EsperState) -> tuple[str, str, str]:
    """Two seats holding non-(L) sheets of the same alignment, and that alignment (the one
    whose (L) sheet was dealt: three of its plain sheets are left)."""
    lock = next(
        state.seats[s].alignment for s in state.order if PACK.sheets[state.seats[s].sheet].lock
    )
    for alignment in (lock,):
        seats = [
            s
            for s in state.order
            if state.seats[s].alignment == alignment and not PACK.sheets[state.seats[s].sheet].lock
        ]
        if len(seats) >= 2:
            return seats[0], seats[1], alignment
    raise AssertionError("no two plain sheets of one alignment")


def test_refuse_last_needs_the_previous_games_character_or_one_refused_here() -> None:
    state, _ = new(7)
    state.options["history"] = {"A": {"previous": state.seats["A"].sheet}, "B": {"previous": "c99"}}
    state = opened(state)
    assert rules.parse(state, "A", "直前拒否").verb == "refuse-last"
    assert rejected(state, "B", "refuse-last") == rules.R_REFUSE_LAST
    assert rejected(state, "C", "refuse-last") == rules.R_REFUSE_LAST
    state.seats["C"].refused_sheets = [state.seats["C"].sheet]  # refused earlier in this game
    assert rules.parse(state, "C", "refuse-last").verb == "refuse-last"


def test_refuse_last_gives_that_seat_alone_the_next_undealt_sheet_in_seat_order() -> None:
    state, _ = new(7)
    first, second, alignment = _two_plain_of_one_alignment(state)
    old = {s: state.seats[s].sheet for s in state.order}
    queue = list(state.undealt[alignment])
    assert len(queue) >= 3
    state.options["history"] = {first: {"previous": old[first]}, second: {"previous": old[second]}}
    # the later seat sends first: the seat order decides, not the order of sending
    state, events = step(state, {second: "refuse-last", first: "refuse-last"})
    assert state.seats[first].sheet == queue[0] and state.seats[second].sheet == queue[1]
    assert all(PACK.sheets[state.seats[s].sheet].alignment == alignment for s in (first, second))
    assert not any(PACK.sheets[state.seats[s].sheet].lock for s in (first, second))
    assert state.undealt[alignment] == queue[2:]
    others = [s for s in state.order if s not in (first, second)]
    assert all(state.seats[s].sheet == old[s] for s in others)  # nobody else is redealt
    assert state.step == rules.DEAL and state.waiting == [first, second]  # only they answer again
    lines = of(events, "refused_last")
    assert [dict(e.data) for e in lines] == [{"seat": first}, {"seat": second}]
    assert all(e.to is None and not mentions_pack_ids(e) for e in lines)  # public, no sheet
    # repeated any number of times: the bot's history now names the new sheet as the last one
    state.options["history"][first]["previous"] = queue[0]
    state, _ = step(state, {first: "refuse-last"})
    assert state.seats[first].sheet == queue[2] and state.waiting == [first]
    assert state.seats[first].refusals == 2 and not state.seats[first].refused
    assert state.seats[first].refused_sheets == [old[first], queue[0]]
    state, events = step(state, secret=RandomDice(3))  # all keep: fixed
    assert has(events, "sheets_fixed") and state.step == rules.SILHOUETTE


def test_refuse_last_with_no_sheet_left_is_refused_and_the_deal_stands() -> None:
    state, _ = new(7)
    lock_seat = next(s for s in state.order if PACK.sheets[state.seats[s].sheet].lock)
    lock = state.seats[lock_seat].sheet
    assert state.undealt["L"] == [i for i in LOCKS if i != lock]  # the other (L) is of the other
    first, _, alignment = _two_plain_of_one_alignment(state)
    plain = state.seats[first].sheet
    state.undealt[alignment] = []  # that shuffle has nothing left
    state.options["history"] = {lock_seat: {"previous": lock}, first: {"previous": plain}}
    state, events = step(
        state, {lock_seat: "refuse-last", first: "refuse-last"}, secret=RandomDice(3)
    )
    assert state.seats[lock_seat].sheet == lock and state.seats[first].sheet == plain
    failed = of(events, "refuse_last_failed")
    assert {e.data["seat"] for e in failed} == {lock_seat, first}
    # told only to the seat: in public a failed refusal looks like any other (the seat answers
    # again), or which shuffle ran out would tell the table its alignment
    assert all(e.to == (e.data["seat"],) for e in failed)
    assert {e.data["seat"] for e in of(events, "refused_last")} == {lock_seat, first}
    assert sorted(state.waiting) == sorted([lock_seat, first])
    state, events = step(state, secret=RandomDice(3))  # both keep what they have
    assert has(events, "sheets_fixed") and state.step == rules.SILHOUETTE


def test_when_all_keep_each_seat_gets_a_playing_card_from_the_shuffled_deck() -> None:
    state, secret = new(7)
    drawn = len(secret.rolls)
    state, _ = step(state, secret=secret)
    assert state.step == rules.SILHOUETTE
    cards = [state.seats[s].card for s in state.order]
    assert len(set(cards)) == 7 and len(state.deck) == 45
    assert set(cards) | set(state.deck) == {r + s for s in rules.SUITS for r in rules.RANKS}
    # the secret stream: 51 draws for the 52 cards, then the planet layout and the ability deck
    assert len(secret.rolls) - drawn == 51 + (len(PACK.planet_deck()) - 1) + (
        len(PACK.ability_deck()) - 1
    )
    assert sorted(state.planets) == sorted(CARD_SPOTS)
    state, events = rules.start_step(state, none(), RandomDice(0))
    assert {(e.to, e.data["card"]) for e in of(events, "your_card")} == {
        ((s,), state.seats[s].card) for s in state.order
    }


# --- silhouettes ---------------------------------------------------------------------------------


def silhouettes(cards: Mapping[str, str] | None = None) -> EsperState:
    """A 7-seat game at its (open) silhouette step, every card "5♣" but those given."""
    state, _ = advanced(7, rules.SILHOUETTE)
    for seat in state.order:
        state.seats[seat].card = (cards or {}).get(seat, "5♣")
    return opened(state)


def test_ace_binds_to_the_own_character_and_ten_to_the_own_alignment() -> None:
    state = silhouettes({"A": "A♠", "B": "10♥"})
    a, b = state.seats["A"], state.seats["B"]
    other = next(i for i in PACK.sheets if i != a.sheet)
    assert rejected(state, "A", f"silhouette {other}") == rules.R_ACE
    assert rules.parse(state, "A", f"silhouette {a.sheet}").actions[0].args == (a.sheet,)
    assert rules.allowed_silhouettes(state, "A") == [a.sheet]
    same = [i for i in PACK.sheets if PACK.sheets[i].alignment == b.alignment]
    assert rules.allowed_silhouettes(state, "B") == same
    wrong = next(i for i in PACK.sheets if PACK.sheets[i].alignment != b.alignment)
    assert rejected(state, "B", f"silhouette {wrong}") == rules.R_TEN
    name_ja = PACK.sheets[same[-1]].name_ja
    assert rules.parse(state, "B", f"シルエット {name_ja}").actions[0].args == (same[-1],)
    # the 10 follows the current alignment, a converted one included
    b.alignment = SPECIAL if b.alignment != SPECIAL else GOOD
    assert all(
        PACK.sheets[i].alignment == b.alignment for i in rules.allowed_silhouettes(state, "B")
    )
    # any other card: any silhouette, the own character's or not
    assert rules.allowed_silhouettes(state, "C") == list(PACK.sheets)


def test_same_picks_pick_again_among_the_rest_but_an_ace_keeps_its_own() -> None:
    state = silhouettes({"A": "A♠"})
    own = {s: state.seats[s].sheet for s in state.order}
    # A (Ace) and B both show A's character; C, D and E show E's (nobody bound to it by an Ace:
    # the secret stream draws its keeper, here D)
    orders = {
        "A": f"silhouette {own['A']}",
        "B": f"silhouette {own['A']}",
        "C": f"silhouette {own['E']}",
        "D": f"silhouette {own['E']}",
        "E": f"silhouette {own['E']}",
        "F": f"silhouette {own['F']}",
        "G": f"silhouette {own['G']}",
    }
    state, events = step(state, orders, secret=ScriptedDice([2]))
    assert one(events, "silhouettes").to is None  # revealed together, publicly
    assert state.step == rules.REPICK and state.waiting == ["B", "C", "E"]
    assert dict(one(events, "repick").data) == {"seats": ["B", "C", "E"]}  # who, never why
    assert state.seats["A"].silhouette == own["A"]  # bound by the Ace: keeps it
    assert state.seats["D"].silhouette == own["E"]  # drawn
    state = opened(state)
    # among the rest: never one another seat keeps
    for taken in (own["A"], own["E"], own["F"]):
        assert rejected(state, "C", f"silhouette {taken}") == rules.R_TAKEN
        assert taken not in rules.allowed_silhouettes(state, "C")
    # the defaults were drawn among what is left
    for seat in ("B", "C", "E"):
        assert rules.default_silhouette(state, seat) in rules.allowed_silhouettes(state, seat)
    free = [i for i in PACK.sheets if i not in (own["A"], own["E"], own["F"], own["G"])]
    orders = {
        "B": f"silhouette {free[0]}",
        "C": f"silhouette {free[1]}",
        "E": f"silhouette {free[2]}",
    }
    state, _ = step(state, orders)
    picked = [state.seats[s].silhouette for s in state.order]
    assert len(set(picked)) == 7 and state.step != rules.REPICK


def test_a_clash_without_an_ace_is_kept_by_a_seat_drawn_and_the_channel_names_no_reason() -> None:
    """B and C pick the same silhouette, neither bound to it by an Ace: the secret stream draws
    the keeper (not the earlier seat, not the own character's holder); the channel says only
    who picks again. A clash again in a re-pick is settled the same way."""
    from cogs.esper import present

    for draw, keeper, loser in ((1, "B", "C"), (2, "C", "B")):
        state = silhouettes({"B": "7♠", "C": "Q♦"})
        own = {s: state.seats[s].sheet for s in state.order}
        orders = {s: f"silhouette {own[s]}" for s in state.order}
        orders["B"] = orders["C"]  # C's own character: C would have kept it by the old rule
        state, events = step(state, orders, secret=ScriptedDice([draw]))
        assert state.seats[keeper].silhouette == own["C"] and state.seats[loser].silhouette is None
        assert state.step == rules.REPICK and state.waiting == [loser]
        public = [dict(e.data, type=e.type) for e in events if e.to is None]
        for lang in ("en", "ja"):
            text = " ".join(present.event_lines(public, lang, {}))
            for word in ("Ace", "エース", "A♠", "draw", "kept", "keeps"):
                assert word not in text, (word, text)
    # a clash in a re-pick: drawn too, and every round settles a seat
    state = silhouettes({})
    own = {s: state.seats[s].sheet for s in state.order}
    orders = {s: f"silhouette {own[s]}" for s in state.order}
    orders["B"] = orders["A"]
    state, _ = step(state, orders, secret=ScriptedDice([2]))  # B keeps A's character
    assert state.waiting == ["A"] and state.seats["B"].silhouette == own["A"]
    free = rules.allowed_silhouettes(opened(state), "A")
    orders = {"A": f"silhouette {free[0]}"}
    state, _ = step(state, orders)
    assert state.step != rules.REPICK and state.seats["A"].silhouette == free[0]


def test_a_default_silhouette_is_drawn_among_those_the_card_allows() -> None:
    """No answer by the deadline: one drawn from the secret stream among the silhouettes the
    seat's card allows and nobody keeps, posted like any pick (its order text is a pick)."""
    state = silhouettes({"C": "10♦", "D": "A♥"})
    c, d = state.seats["C"], state.seats["D"]
    defaults = {s: rules.default_silhouette(state, s) for s in state.order}
    for seat, sil in defaults.items():
        assert sil in rules.allowed_silhouettes(state, seat)
        assert rules.default_order(state, seat).canonical() == f"silhouette {sil}"
    assert PACK.sheets[defaults["C"]].alignment == c.alignment  # a 10: its alignment's
    assert defaults["D"] == d.sheet  # an Ace: its own character, as any pick of it
    # the same step opened with another secret stream draws other defaults
    again = rules.start_step(silhouettes_closed({"C": "10♦", "D": "A♥"}), none(), RandomDice(5))[0]
    others = {s: rules.default_silhouette(again, s) for s in state.order}
    assert others != defaults
    state, events = step(state, secret=RandomDice(1))  # defaults may clash: a keeper is drawn
    assert one(events, "silhouettes").data["picks"] == defaults  # posted like any pick


def silhouettes_closed(cards: Mapping[str, str]) -> EsperState:
    state, _ = advanced(7, rules.SILHOUETTE)
    for seat in state.order:
        state.seats[seat].card = cards.get(seat, "5♣")
    return state


def test_no_seats_default_is_its_own_character_more_often_than_chance() -> None:
    """A whole-seat sweep over many seeded deals (5–11 players, every seat): a seat's default
    silhouette equals its own character about as often as a draw among what its card allows
    would (1 in the number allowed; an Ace always), never the near-certainty of a default that
    names the character."""
    hits: collections.Counter[str] = collections.Counter()
    expected: collections.Counter[str] = collections.Counter()
    variance: collections.Counter[str] = collections.Counter()
    deals = 0
    for seed in range(240):
        players = rules.PLAYER_COUNTS[seed % len(rules.PLAYER_COUNTS)]
        state, secret = advanced(players, rules.SILHOUETTE, seed)
        state, _ = rules.start_step(state, none(), secret)
        deals += 1
        for seat in state.order:
            allowed = rules.allowed_silhouettes(state, seat)
            own = state.seats[seat].sheet
            drawn = rules.default_silhouette(state, seat)
            assert drawn in allowed
            p = (1 / len(allowed)) if own in allowed else 0.0
            hits[seat] += drawn == own
            expected[seat] += p
            variance[seat] += p * (1 - p)
    assert deals == 240
    for seat in hits.keys() | expected.keys():
        bound = expected[seat] + 4 * math.sqrt(variance[seat]) + 2
        assert hits[seat] <= bound, (seat, hits[seat], expected[seat])
    total, mean = sum(hits.values()), sum(expected.values())
    assert total <= mean + 4 * math.sqrt(sum(variance.values())) + 2, (total, mean)


# --- the balance ---------------------------------------------------------------------------------


def _all_invaders(state: EsperState) -> dict[str, str]:
    """Orders giving every seat a GOOD or SPECIAL silhouette (no defender at all)."""
    invaders = GOODS + SPECIALS
    return {s: f"silhouette {invaders[i]}" for i, s in enumerate(state.order)}


def test_a_short_side_lets_the_larger_change_then_follow_a_new_card_then_stands() -> None:
    state = silhouettes()
    state, events = step(state, _all_invaders(state))
    # 7 players: 3 EVIL sheets dealt; 0 defenders: every invader may change
    assert state.step == rules.BALANCE and state.waiting == list(state.order)
    assert dict(one(events, "balance").data) == {"side": INVADER, "seats": list(state.order)}
    state = opened(state)
    assert rules.parse(state, "A", "keep").verb == "keep"
    taken = state.seats["B"].silhouette
    assert rejected(state, "A", f"silhouette {taken}") == rules.R_TAKEN
    # still bound by the card in this step: an Ace whose own character nobody shows
    bound = next(s for s in state.order if state.seats[s].sheet not in _shown(state, s))
    state.seats[bound].card = "A♣"
    other = next(i for i in EVILS if i != state.seats[bound].sheet)
    assert rejected(state, bound, f"silhouette {other}") == rules.R_ACE
    state.seats[bound].card = "5♣"
    # two change to EVIL silhouettes (B and C ask for the same: the earlier seat gets it)
    state.deck[:6] = ["A♠", "10♥", "7♦", "J♣", "Q♣", "K♣"]
    orders = {
        "A": f"silhouette {EVILS[1]}",
        "B": f"silhouette {EVILS[2]}",
        "C": f"silhouette {EVILS[2]}",
    }
    state, events = step(state, orders)
    assert one(events, "silhouettes_changed").data["picks"] == {"A": EVILS[1], "B": EVILS[2]}
    assert dict(one(events, "silhouette_kept").data) == {"seat": "C"}
    # still short (2 < 3): each of the larger side gets the deck's next card, in seat order
    larger = ["C", "D", "E", "F", "G"]
    assert state.step == rules.BALANCE_CARD and state.waiting == larger
    assert [state.seats[s].card for s in larger] == ["A♠", "10♥", "7♦", "J♣", "Q♣"]
    assert state.deck[0] == "K♣"
    state, events = rules.start_step(state, none(), RandomDice(0))
    assert {e.to for e in of(events, "your_card")} == {(s,) for s in larger}  # privately
    # the new card must be followed: an Ace, its own character (an EVIL one nobody shows)
    ace = next(
        s
        for s in larger
        if state.seats[s].alignment == EVIL and state.seats[s].sheet not in _shown(state, s)
    )
    own = state.seats[ace].sheet
    state.seats[ace].card = "A♠"
    assert rules.allowed_silhouettes(state, ace) == [own]
    assert rejected(state, ace, "keep") == rules.R_KEEP_CARD
    assert rules.default_order(state, ace).actions[0].args == (own,)
    ten = next(s for s in larger if s != ace)
    state.seats[ten].card = "10♥"
    mine = state.seats[ten].alignment
    assert {PACK.sheets[i].alignment for i in rules.allowed_silhouettes(state, ten)} == {mine}
    # followed by default, the Ace brings a third defender: the sides are even, the start opens
    even, _ = step(state)
    assert even.seats[ace].silhouette == own and even.step == rules.START
    # everyone keeps (free cards): still short, it stands
    for seat in larger:
        state.seats[seat].card = "5♣"
    state, events = step(state)
    assert has(events, "balance_stands") and state.step == rules.START
    assert [rules.side_of(state, s) for s in state.order].count(DEFENDER) == 2


def _shown(state: EsperState, seat: str) -> set[str]:
    shown = (state.seats[o].silhouette for o in state.order if o != seat)
    return {sil for sil in shown if sil is not None}


def test_a_balance_that_evens_the_sides_goes_straight_to_the_start() -> None:
    state = silhouettes()
    state, _ = step(state, _all_invaders(state))
    orders = {s: f"silhouette {EVILS[i + 1]}" for i, s in enumerate("ABC")}
    state, events = step(state, orders)
    assert not of(events, "balance_cards") and state.step == rules.START
    assert [rules.side_of(state, s) for s in state.order].count(DEFENDER) == 3


def test_no_balance_when_both_sides_reach_the_evil_count() -> None:
    state = silhouettes()
    orders = {s: f"silhouette {state.seats[s].sheet}" for s in state.order}
    state, events = step(state, orders)  # own silhouettes: 3 defenders, 4 invaders
    assert not of(events, "balance") and state.step == rules.START


# --- the start -----------------------------------------------------------------------------------


def start_state() -> EsperState:
    """7 seats at the open start step: A, E and G show EVIL silhouettes."""
    state = silhouettes()
    picks = {
        "A": EVILS[1],
        "B": GOODS[1],
        "C": GOODS[2],
        "D": SPECIALS[0],
        "E": EVILS[2],
        "F": GOODS[3],
        "G": EVILS[3],
    }
    state, _ = step(state, {s: f"silhouette {p}" for s, p in picks.items()})
    assert state.step == rules.START
    return opened(state)


def test_ambush_is_the_most_voted_spot_and_runner_ties_to_the_earliest_seat() -> None:
    state = start_state()
    assert rules.withheld(state, "A") and not rules.withheld(state, "B")  # EVIL votes are withheld
    assert rejected(state, "A", "ambush P2-0 runner E") == rules.R_SPOT  # not a card's spot
    assert rejected(state, "A", "ambush P2-3 runner B") == rules.R_RUNNER  # not an EVIL silhouette
    displaced = state.planets["P4-1"]
    orders = {
        "A": "ambush P2-3 runner E",
        "E": "待ち伏せ 惑星4-1 担当 G",
        "G": "ambush P4-1 runner E",
        "B": "start P3",
        "C": "開始 惑星6",
    }
    state, events = step(state, orders, rolls=[3])
    assert (state.ambush, state.ambush_runner) == ("P4-1", "E")  # 2 votes each
    assert state.rafnor == displaced  # the displaced card becomes Rafnor's
    ambush = one(events, "ambush_set")
    assert ambush.to == ("A", "E", "G")  # told to the EVIL silhouettes only
    # pieces: GOOD/SPECIAL silhouettes at their spaceports (default P1), EVIL ones none
    assert {s: state.seats[s].spot for s in state.order} == {
        "A": None,
        "B": "P3-0",
        "C": "P6-0",
        "D": "P1-0",
        "E": None,
        "F": "P1-0",
        "G": None,
    }
    # first player: a d4 among the invaders B, C, D, F in seat order; 3 -> D
    assert dict(one(events, "first_player").data) == {"seat": "D", "of": 4}
    assert state.step == rules.TURN and state.active == "D" and state.first == "D"
    summary = rules.summary(state)
    assert summary["ambush"] is None and summary["rafnor"] is None  # nobody else sees them


def test_the_ambush_vote_has_buttons_planet_spot_and_runner() -> None:
    """36 spots fit no menu: the planet, the spot on it and the runner are three picks, whose
    tokens joined are an order the parser reads (``ambush P4 1 runner E``)."""
    state = start_state()
    groups = rules.choices(state, "A")
    assert [g.name for g in groups] == ["ambush_planet", "ambush_spot", "ambush_runner"]
    assert [c.token for c in groups[2].choices] == ["runner A", "runner E", "runner G"]
    assert groups[0].choices[3].label("en") == "Ambush on planet 4"
    assert groups[2].choices[1].label("ja") == "担当：E"
    picked = " ".join([groups[0].choices[3].token, groups[1].choices[0].token, "runner E"])
    assert picked == "ambush P4 1 runner E"
    order = rules.parse(state, "A", picked)
    assert order.canonical() == rules.parse(state, "A", "ambush P4-1 runner E").canonical()
    assert rules.choices(state, "B")[0].name == "start"  # an invader picks its spaceport
    state, _ = step(state, {"A": picked, "E": picked, "G": "pass"}, rolls=[1])
    assert (state.ambush, state.ambush_runner) == ("P4-1", "E")


def test_no_ambush_and_no_key_vote_are_buttons_that_end_the_order() -> None:
    """ "No ambush" among the planets (and "no vote" among the first key's columns) is a whole
    order on its own: the groups after it are not asked, and a pick after it is refused."""
    from bot.ruleset import RuleError
    from bot.views import chosen_tokens, complete

    state = start_state()
    groups = rules.choices(state, "A")
    pick = next(i for i, c in enumerate(groups[0].choices) if c.final)
    assert groups[0].choices[pick].label("en") == "No ambush"
    assert groups[0].choices[pick].label("ja") == "待ち伏せしない"
    assert complete(groups, [pick]) and not complete(groups, [0])
    assert chosen_tokens(groups, [pick]) == ["pass"]
    assert (
        rules.parse(state, "A", "pass").canonical() == rules.parse(state, "A", "パス").canonical()
    )
    with pytest.raises(RuleError):
        chosen_tokens(groups, [pick, 0])  # nothing is asked after a whole order
    assert [c.final for c in groups[1].choices] == [False] * len(groups[1].choices)


def test_the_board_after_a_step_shows_that_steps_moves() -> None:
    """The moves a step made stay in the view when the next step opens (the board drawn then
    shows them), and go when that step resolves."""
    state = start_state()
    state, _ = step(state, {"B": "start P3", "C": "start P6"}, rolls=[3])
    moved = [(m["seat"], m["to"]) for m in rules.view(state, None)["last"]]
    assert ("B", "P3-0") in moved and ("C", "P6-0") in moved
    assert rules.post_group(state) == f"turn {state.turn} {state.active}"  # one seat's turn


def test_ambush_ties_go_to_the_earliest_seats_vote_and_no_vote_means_no_ambush() -> None:
    state = start_state()
    orders = {"A": "ambush P5-5 runner G", "E": "ambush P2-2 runner E", "G": "ambush P3-3 runner A"}
    state, _ = step(state, orders, rolls=[1])
    assert (state.ambush, state.ambush_runner) == ("P5-5", "G")
    state = start_state()
    state, events = step(state, {}, rolls=[4])  # nobody votes
    assert state.ambush is None and state.rafnor is None and not of(events, "ambush_set")
    assert state.active == "F"


# --- moves and teleports -------------------------------------------------------------------------


def test_moves_round_the_ring_and_between_spaceports() -> None:
    state = table(*FIVE, spots={"A": "P2-6"})
    state, _ = step(state, {"A": "move right; end"})
    assert state.seats["A"].spot == "P2-0"  # Pn-6's right is the spaceport
    assert state.active == "B"
    state.active, state.waiting = "A", ["A"]
    state, _ = step(state, {"A": "移動 左; 終了"})
    assert state.seats["A"].spot == "P2-6"  # the spaceport's left is Pn-6
    state.seats["A"].spot = "P2-0"
    state.active, state.waiting = "A", ["A"]
    assert rejected(state, "A", "move P2; end") == rules.R_MOVE  # its own spaceport
    state, _ = step(state, {"A": "move 惑星5; end"})
    assert state.seats["A"].spot == "P5-0"
    state.seats["A"].spot = "P5-3"
    state.active, state.waiting = "A", ["A"]
    assert rejected(state, "A", "move P2; end") == rules.R_MOVE  # only from a spaceport
    state.seats["A"].spot = rules.RAFNOR
    assert rejected(state, "A", "move left; end") == rules.R_MOVE  # R is off the rings
    state, _ = step(state, {"A": "move P4; end"})
    assert state.seats["A"].spot == "P4-0"  # from R to any spaceport


def test_teleport_level_is_capped_by_esp_and_a_lower_roll_moves_that_many_spots() -> None:
    state = table(*FIVE, spots={"A": "P3-5"})  # A: c04, ESP 5
    assert rejected(state, "A", "teleport 6; end") == rules.R_TELEPORT
    assert rejected(state, "A", "teleport 0; end") == rules.R_TELEPORT
    state, events = step(state, {"A": "teleport 5 right; end"}, rolls=[4])
    assert dict(one(events, "teleport").data) == {
        "seat": "A",
        "level": 5,
        "roll": 4,
        "success": True,
    }
    assert state.seats["A"].spot == "P3-2"  # 5 + 4 = 9: round the ring, skipping those between
    assert [m["to"] for m in state.last] == ["P3-2"]
    state.active, state.waiting = "A", ["A"]
    state, events = step(state, {"A": "テレポート 5 左; 終了"}, rolls=[3])
    assert state.seats["A"].spot == "P3-6"  # 2 - 3 wraps to 6


def test_a_teleport_without_direction_asks_for_it_and_a_failed_one_stays() -> None:
    state = table(*FIVE, spots={"A": "P3-1"})
    state, _ = step(state, {"A": "teleport 3; end"}, rolls=[2])
    assert state.step == rules.DIRECTION and state.waiting == ["A"]
    assert state.seats["A"].spot == "P3-1"
    state, _ = step(state, {"A": "left"})
    assert state.seats["A"].spot == "P3-6" and state.active == "B"  # the planned end followed
    # the default direction is right
    state.active, state.waiting, state.step = "A", ["A"], rules.TURN
    state, _ = step(state, {"A": "teleport 3; end"}, rolls=[1])
    state, _ = step(state)
    assert state.seats["A"].spot == "P3-0"
    # a roll not lower than the level fails: no move (a roll equal to the level included)
    state.active, state.waiting = "A", ["A"]
    state, events = step(state, {"A": "teleport 3 right; end"}, rolls=[3])
    assert not one(events, "teleport").data["success"] and state.seats["A"].spot == "P3-0"
    assert state.active == "B"


# --- square effects ------------------------------------------------------------------------------


def square(
    card: str, *, spot: str = "P2-2", sheets: Sequence[str] = FIVE
) -> tuple[EsperState, list[Event]]:
    """A passes on ``spot`` holding ``card``; the state after its turn and the events."""
    state = table(*sheets, spots={"A": spot})
    state.planets[spot] = card
    return step(state, {"A": "pass; end"})


def test_every_turn_spent_there_fires_the_card_and_once_cards_are_spent() -> None:
    state, events = square("p09")  # damage 1, not once
    assert state.seats["A"].damage == 1 and "P2-2" in state.face_up and "P2-2" not in state.spent
    assert rules.summary(state)["planets"] == {"P2-2": "p09"}
    state.active, state.waiting = "A", ["A"]
    state, _ = step(state, {"A": "recover mind; end"})  # whatever the main action
    assert state.seats["A"].damage == 2
    state, events = square("p06")  # white card, once: one ability card, then spent
    assert len(state.seats["A"].hand) == 1 and "P2-2" in state.spent
    assert dict(one(events, "abilities").data) == {"seat": "A", "n": 1}
    assert one(events, "ability_drawn").to == ("A",)  # which card: the seat alone
    assert rules.summary(state)["planets"] == {"P2-2": rules.SPENT}
    state.active, state.waiting = "A", ["A"]
    state, events = step(state, {"A": "pass; end"})
    assert not of(events, "square") and len(state.seats["A"].hand) == 1


def test_an_ability_card_comes_from_the_top_of_the_ability_deck() -> None:
    state = table(*FIVE, spots={"A": "P2-2"})
    state.planets["P2-2"] = "p08"  # two ability cards
    deck = list(state.ability_deck)
    state, _ = step(state, {"A": "pass; end"})
    assert state.seats["A"].hand == deck[:2] and state.ability_deck == deck[2:]


def test_info_is_always_once() -> None:
    for card in ("p03", "p05"):  # without and with `once`
        state, _ = square(card)
        assert state.seats["A"].info == 1 and "P2-2" in state.spent
        state.active, state.waiting = "A", ["A"]
        state, _ = step(state, {"A": "pass; end"})
        assert state.seats["A"].info == 1


def test_damage_above_the_durability_kills_and_the_dead_take_no_turns() -> None:
    state = table(*FIVE, spots={"A": "P2-2"})  # c04: durability 5
    state.seats["A"].damage = 4
    state.planets["P2-2"] = "p09"  # 1: exactly the durability, alive
    state, events = step(state, {"A": "pass; end"})
    assert state.seats["A"].alive and not of(events, "died")
    state.active, state.waiting = "A", ["A"]
    state, events = step(state, {"A": "pass; end"})
    assert not state.seats["A"].alive and one(events, "died").data["seat"] == "A"
    assert state.active == "B"
    state, _ = step(state, {"B": "pass; end"})
    state, _ = step(state, {"C": "pass; end"})
    assert state.active == "B"  # A is skipped (D and E show EVIL silhouettes)


def test_recovery_and_treatment_never_go_above_the_sheet() -> None:
    state, _ = square("p12")  # recover 2 with 0 damage
    assert state.seats["A"].damage == 0
    state = table(*FIVE, spots={"A": "P2-2"})
    state.planets["P2-2"] = "p12"
    state.seats["A"].damage = 1
    state, events = step(state, {"A": "pass; end"})
    assert state.seats["A"].damage == 0 and one(events, "recovered").data["n"] == 1
    state = table(*FIVE, spots={"A": "P2-3", "B": "P2-3", "C": "P2-4"})
    state.seats["A"].mind_lost = 1
    assert rejected(state, "A", "treat C; end") == rules.R_SAME_SPOT
    assert rejected(state, "A", "treat A; end") == rules.R_SELF
    state.seats["B"].damage = 1
    state, _ = step(state, {"A": "treat B; end"})
    assert state.seats["B"].damage == 0
    state.active, state.waiting = "A", ["A"]
    state, _ = step(state, {"A": "treat B; end"})
    assert state.seats["B"].damage == 0  # not below 0: never above the sheet
    state.active, state.waiting = "A", ["A"]
    state, _ = step(state, {"A": "recover mind; end"})
    assert rules.mind(state, "A") == PACK.sheets["c04"].mind
    state.active, state.waiting = "A", ["A"]
    state, _ = step(state, {"A": "recover mind; end"})
    assert rules.mind(state, "A") == PACK.sheets["c04"].mind


def test_rafnor_sends_to_R_whose_card_fires_like_any_spots() -> None:
    state = table(*FIVE, spots={"A": "P2-2"})
    state.planets["P2-2"] = "p13"  # to Rafnor
    state.rafnor = "p10"  # the card the ambush displaced: 2 damage
    state, _ = step(state, {"A": "pass; end"})
    assert state.seats["A"].spot == rules.RAFNOR and state.seats["A"].damage == 0
    state.active, state.waiting = "A", ["A"]
    state, _ = step(state, {"A": "pass; end"})
    assert state.seats["A"].damage == 2 and rules.summary(state)["rafnor"] == "p10"
    state.active, state.waiting = "A", ["A"]
    assert rejected(state, "A", "teleport 3 left; end") == rules.R_MOVE


def test_a_black_hole_skips_turns_until_freed_and_to_spaceport_moves_home() -> None:
    state = table(*FIVE, spots={"A": "P2-2", "B": "P5-4"})
    state.planets["P2-2"] = "p14"
    state.planets["P5-4"] = "p16"  # to this planet's spaceport
    state, events = step(state, {"A": "pass; end"})
    assert state.seats["A"].black_hole and has(events, "black_hole")
    state, _ = step(state, {"B": "pass; end"})
    assert state.seats["B"].spot == "P5-0"
    state, _ = step(state, {"C": "pass; end"})
    assert state.active == "B"  # A is skipped
    state.seats["B"].hand = ["a08"]  # free: A leaves its black hole
    state, events = step(state, {"B": "use a08 A; end"})
    assert not state.seats["A"].black_hole and state.seats["A"].spot == "P2-2"
    assert one(events, "freed").data == {"seat": "A", "by": "B"}
    state, _ = step(state, {"C": "pass; end"})
    assert state.active == "A"


# --- conversion ----------------------------------------------------------------------------------


def converting() -> EsperState:
    """A (c04 GOOD, ESP 5) shares P2-2 with C (c13 SPECIAL) and D (c08 EVIL, convertible by
    GOOD, silhouette GOOD so it has a piece); B (c02) stands elsewhere."""
    state = table(*FIVE, spots={"A": "P2-2", "B": "P6-6", "C": "P2-2"})
    state.seats["D"].silhouette, state.seats["D"].spot = "c05", "P2-2"
    return state


def test_conversion_is_a_public_check_whose_result_only_the_two_learn() -> None:
    state = converting()
    assert rejected(state, "A", "convert B; pass; end") == rules.R_SAME_SPOT
    state, events = step(state, {"A": "改心 D; pass; end"}, rolls=[3, 2])
    assert state.seats["A"].open and one(events, "opened").to is None  # the converter opens
    assert dict(one(events, "convert").data) == {"seat": "A", "target": "D"}
    check = one(events, "check")
    assert check.to is None and check.data["dice"] == [3, 2] and check.data["success"]
    assert one(events, "check_target").to == ("A",)  # the target: the roller's own business
    result = one(events, "conversion_result")
    assert result.to == ("A", "D") and result.data["changed"]
    assert state.seats["D"].alignment == GOOD
    assert all(
        e.to is None or e.to == ("A", "D") for e in events if e.type not in ("turn", "check_target")
    )
    assert state.seats["D"].told == state.seats["A"].told == [dict(result.data)]
    assert rules.summary(state)["seats"]["D"]["open"] is None  # the target stays closed


def test_a_failed_check_tells_nothing_and_each_side_tries_once() -> None:
    state = converting()
    state, events = step(state, {"A": "convert D; pass; end"}, rolls=[4, 2])  # 6 > 5
    assert not one(events, "check").data["success"] and not of(events, "conversion_result")
    assert state.seats["D"].alignment == EVIL and state.seats["D"].tried_by == [GOOD]
    state.active, state.waiting = "A", ["A"]
    assert rejected(state, "A", "convert D; pass; end") == rules.R_CONVERT_TRIED
    state.seats["B"].spot = "P2-2"  # another GOOD may not try it either: once per side
    state.active, state.waiting = "B", ["B"]
    assert rejected(state, "B", "convert D; pass; end") == rules.R_CONVERT_TRIED
    # the SPECIAL side has its own try (c13's sheet lets it convert)
    state.active, state.waiting = "C", ["C"]
    state, events = step(state, {"C": "convert D; pass; end"}, rolls=[1, 1])
    assert one(events, "conversion_result").data["changed"] is False  # c08: GOOD converters only
    assert state.seats["D"].alignment == EVIL


def test_a_check_adds_the_bonus_and_a_special_converts_only_if_its_sheet_can() -> None:
    state = table("c03", "c02", "c16", "c08", "c10", spots={"A": "P2-2", "C": "P2-2"})
    state.active, state.waiting = "C", ["C"]
    assert rejected(state, "C", "convert A; pass; end") == rules.R_CONVERT_SPECIAL  # c16 cannot
    state.seats["C"].sheet = "c13"  # c13 (ESP 4) can; +2 from its own ability first
    state, events = step(state, {"C": "use c13a; convert A; pass; end"}, rolls=[3, 3])
    assert one(events, "check").data["success"]
    assert one(events, "check_target").data["target"] == 6
    assert state.seats["A"].alignment == SPECIAL  # c03 admits SPECIAL converters
    assert state.seats["C"].bonus == 0  # the bonus was for that one check


def test_an_esp_check_posts_its_dice_and_result_and_only_the_roller_learns_the_target() -> None:
    """ESP 7 or 8 names a sheet, other levels narrow it to two or three: the channel shows the
    dice and whether the check passed (``2D6 3+2 = 5: success``), the target goes to the
    roller's DM (esper.md, What the channel may depend on)."""
    from cogs.esper import present

    state = converting()
    state.seats["A"].bonus = 1  # a private bonus (Steady Breath used earlier) on top of ESP 5
    state, events = step(state, {"A": "convert D; pass; end"}, rolls=[3, 2])
    check = one(events, "check")
    assert check.to is None and set(check.data) == {"seat", "dice", "success", "why"}
    told = one(events, "check_target")
    assert told.to == ("A",) and told.data["target"] == 6
    public = [dict(e.data, type=e.type) for e in events if e.to is None]
    for lang, word in (("en", "success"), ("ja", "成功")):
        line = next(x for x in present.event_lines(public, lang, {}) if "2D6" in x)
        assert "3+2 = 5" in line and word in line, line
        rest = line.replace("2D6", "")
        assert "6" not in rest and "≤" not in rest and ">" not in rest, line
        dm = present.event_lines([dict(told.data, type=told.type)], lang, {})
        assert len(dm) == 1 and "6" in dm[0] and "🔒" in dm[0], dm


def test_a_check_ability_fires_only_when_ordered_first_in_the_turn() -> None:
    """Steady Breath (c04a, [check]) is on one sheet only: used unordered at every turn start it
    named A's character and spent its mind unasked. It fires when A orders it: at the head of
    the turn's order, or alone (the turn is asked again for the rest), never later."""
    state = table(*FIVE, active="C", spots={"A": "P2-2", "C": "P2-2"})
    state.seats["D"].silhouette, state.seats["D"].spot = "c05", "P2-2"
    state, events = step(state, {"C": "pass; end"})
    assert state.active == "D"
    state, events = step(state, {"D": "pass; end"})
    assert state.active == "A" and state.step == rules.TURN
    assert not of(events, "used") and state.seats["A"].mind_lost == 0
    assert state.seats["A"].bonus == 0
    # offered by DM and as a button, in the check phase only
    opened_a = opened(state)
    assert "c04a" in [a["id"] for a in rules.view(opened_a, "A")["you"]["usable"]]
    tokens = [c.token for g in rules.choices(opened_a, "A") for c in g.choices]
    assert tokens[0] == "use c04a" and "pass; end" in tokens
    assert rejected(state, "A", "open; use c04a; pass; end") == rules.R_CHECK_FIRST
    assert rejected(state, "A", "pass; use c04a; end") == rules.R_CHECK_FIRST
    state, events = step(state, {"A": "use c04a"})  # alone: the rest is asked next
    assert one(events, "used").data["ability"] == "c04a" and state.seats["A"].mind_lost == 1
    assert state.step == rules.TURN and state.waiting == ["A"] and state.active == "A"
    assert rejected(state, "A", "use c04a; pass; end") == rules.R_CHECK_FIRST  # phase over
    assert "use c04a" not in [c.token for g in rules.choices(opened(state), "A") for c in g.choices]
    state, events = step(state, {"A": "convert D; pass; end"}, rolls=[3, 3])
    assert one(events, "check_target").data["target"] == 6 and one(events, "check").data["success"]
    assert state.active != "A"
    # in one order, at its head
    state = converting()
    state, events = step(state, {"A": "use c04a; convert D; pass; end"}, rolls=[3, 3])
    assert [e.type for e in events].index("used") < [e.type for e in events].index("check")
    assert one(events, "check_target").data["target"] == 6


def test_a_twin_combat_needs_a_silhouette_of_the_name_and_the_current_alignment() -> None:
    """Meeting someone who shows one's own silhouette starts a combat ("俺は俺だが、お前はだれだ"),
    but only while the character still has the alignment the silhouette shows
    ("同名かつ同アライメント"): a converted character no longer meets its own silhouette."""
    state = table(*FIVE, spots={"A": "P1-1", "B": "P1-2"})
    state.seats["A"].silhouette, state.seats["B"].silhouette = "c05", "c04"  # B shows A's
    twin, events = step(state, {"A": "move right; end"}, secret=RandomDice(2))
    start = one(events, "combat_start").data
    assert start["why"] == "twin" and start["seats"] == ["A", "B"] and twin.combat is not None
    state.seats["A"].alignment = EVIL  # converted: the same meeting is no twin
    state, events = step(state, {"A": "move right; end"}, secret=RandomDice(2))
    assert not of(events, "combat_start") and state.combat is None and state.active != "A"


# --- parties -------------------------------------------------------------------------------------


def partying() -> EsperState:
    """A (c04, 2 info), B (c02, 1 info) and C (c13) on P2-2."""
    state = table(*FIVE, spots={"A": "P2-2", "B": "P2-2", "C": "P2-2"})
    state.seats["A"].info, state.seats["B"].info = 2, 1
    return state


def test_a_party_forms_with_those_who_join_and_pools_info_for_the_stages_end() -> None:
    state = partying()
    assert rejected(state, "A", "party D; end") == rules.R_SAME_SPOT  # D has no piece
    state, events = step(state, {"A": "パーティー B C; end"})
    assert state.step == rules.PARTY and state.waiting == ["B", "C"]
    assert dict(one(events, "party_proposed").data) == {"seat": "A", "named": ["B", "C"]}
    state, events = step(state, {"B": "参加"})  # C declines by default
    assert dict(one(events, "party").data) == {"seat": "A", "joined": ["B"], "declined": ["C"]}
    assert state.seats["A"].party == state.seats["B"].party is not None
    assert state.seats["C"].party is None
    # 2 + 1 info in one party: the stage ends after this turn; each member gains an ability
    # card and may see as many EVIL silhouettes' sheets as the party's info (D and E: 2)
    assert has(events, "stage_end")
    assert {e.data["seat"] for e in of(events, "abilities")} == {"A", "B"}
    assert state.step == rules.SEE and state.waiting == ["A", "B"]
    assert state.pending["see"] == {
        "A": {"n": 2, "of": ["D", "E"]},
        "B": {"n": 2, "of": ["D", "E"]},
    }


def test_a_declined_party_pools_nothing_and_a_dead_members_info_no_longer_counts() -> None:
    state = partying()
    state, events = step(state, {"A": "party B; end"})
    state, events = step(state, {"B": "decline"})
    assert one(events, "party").data["joined"] == [] and state.seats["A"].party is None
    assert not of(events, "stage_end") and state.active == "B"
    state = partying()
    state.seats["A"].party = state.seats["B"].party = 1
    state.seats["B"].alive = False
    assert rules.party_info(state, "A") == 2
    state, events = step(state, {"A": "pass; end"})
    assert not of(events, "stage_end") and state.active == "C"


# --- declarations --------------------------------------------------------------------------------


def test_an_objected_declaration_lets_play_go_on_with_the_sheet_open() -> None:
    state = table(*FIVE, spots={"A": "P2-2"})
    state.seats["C"].alive = False  # the dead cannot object
    state, events = step(state, {"A": "勝利宣言"})
    assert dict(one(events, "declared").data) == {
        "seat": "A",
        "alignment": GOOD,
        "voters": ["B", "D", "E"],
    }
    assert state.step == rules.OBJECTION and state.waiting == ["B", "D", "E"]
    assert rules.summary(state)["declaration"] == "A"
    assert rules.step_seconds(opened(state)) == rules.DEFAULT_OBJECTION_MINUTES * 60
    state, events = step(state, {"D": "反対"})
    assert dict(one(events, "declaration_opposed").data) == {"seat": "A", "objectors": ["D"]}
    assert state.ended is None and state.seats["A"].open
    assert state.step == rules.TURN and state.waiting == ["A"]  # A's turn goes on
    state, _ = step(state, {"A": "move right; end"})
    assert state.seats["A"].spot == "P2-3" and state.active == "B"
    assert rules.summary(state)["seats"]["A"]["open"] == "c04"  # stays open


def test_a_declarer_may_declare_again_on_a_later_turn_once_a_turn() -> None:
    """Seed 3.3: a player deals with those who object to its declaration; once they are dealt
    with it declares again, on a later turn of its own (never twice in one turn)."""
    state = table(*FIVE, spots={"A": "P2-2"})
    state, _ = step(state, {"A": "declare"})
    state, _ = step(state, {"D": "object"})
    assert state.step == rules.TURN and state.waiting == ["A"]
    assert rejected(state, "A", "pass; declare") == rules.R_DECLARED  # once a turn
    state, _ = step(state, {"A": "pass; end"})
    state.seats["D"].alive = False  # the objector, dealt with
    while state.active != "A":
        state, _ = step(state, {str(state.active): "pass; end"})
    assert rules.summary(state)["seats"]["A"]["declared"]
    state, events = step(state, {"A": "declare"})
    assert one(events, "declared").data["voters"] == ["B", "C", "E"]
    assert state.step == rules.OBJECTION and state.seats["A"].declared_turn == 0
    state, events = step(state)  # nobody objects now
    assert has(events, "declaration_unopposed") and state.declared_by == GOOD


def test_an_unopposed_declaration_ends_the_game_with_grades() -> None:
    # A GOOD c04, B GOOD c03 (loses if c02 dies: not dealt), C SPECIAL c16 (loses with fewer
    # than 2 info: has 2), D, E EVIL
    state = table("c04", "c03", "c16", "c08", "c10", spots={"A": "P2-2"})
    state.seats["C"].info = 2
    state.seats["B"].alive = False
    state, events = step(state, {"A": "pass; declare"})  # after the square, before the end
    assert state.step == rules.OBJECTION
    state, events = step(state)  # everyone accepts by default
    assert has(events, "declaration_unopposed")
    assert state.ended == rules.DECLARED and state.declared_by == GOOD
    # GOOD win (B dead: B); EVIL lose to a non-EVIL declaration; SPECIAL plays for itself
    assert state.grades == {"A": "A", "B": "B", "C": "A", "D": "C", "E": "C"}
    out = rules.outcome(state)
    assert out.finished and out.winners == ("A", "B", "C") and out.reason == rules.DECLARED
    revealed = one(events, "revealed")
    assert revealed.to is None and set(revealed.data["seats"]) == set(state.order)  # all sheets


def test_an_evil_declaration_and_the_thousand_turn_survival() -> None:
    # D: EVIL c08 behind a GOOD silhouette (it has a piece and turns); C: SPECIAL c14 loses
    # when EVIL's declaration ends the game
    state = table("c04", "c02", "c14", "c08", "c10", active="D", spots={"D": "P2-2"})
    state.seats["D"].silhouette = "c05"
    state, _ = step(state, {"D": "declare"})
    state, _ = step(state)
    assert state.declared_by == EVIL
    assert state.grades == {"A": "C", "B": "C", "C": "C", "D": "A", "E": "A"}
    # the same declaration objected: 1000 normal turns later, the declarer alive, EVIL wins
    state = table("c04", "c02", "c14", "c08", "c10", active="D", spots={"D": "P2-2"})
    state.seats["D"].silhouette = "c05"
    state, _ = step(state, {"D": "declare"})
    state, _ = step(state, {"A": "object"})
    assert state.seats["D"].declared_turn == 0
    state, _ = step(state, {"D": "pass; end"})
    state.turn = rules.EVIL_SURVIVAL_TURNS - 1
    state, _ = step(state, {state.active or "": "pass; end"})
    assert state.ended == rules.EVIL_SURVIVAL and state.declared_by is None
    assert state.grades == {"A": "C", "B": "C", "C": "A", "D": "A", "E": "A"}


def test_the_evil_survival_clock_follows_the_public_claim_not_a_later_conversion() -> None:
    """Whether the game ends 1000 turns after an EVIL declaration depends on the claim, said
    aloud, not on the declarer's current alignment: a conversion's result is told only to the
    two concerned, and the game's end would tell it to everyone."""
    state = table("c04", "c02", "c14", "c08", "c10", active="D", spots={"D": "P2-2"})
    state.seats["D"].silhouette = "c05"
    state, _ = step(state, {"D": "declare"})
    state, _ = step(state, {"A": "object"})
    state, _ = step(state, {"D": "pass; end"})
    state.seats["D"].alignment = GOOD  # converted since, in secret
    state.turn = rules.EVIL_SURVIVAL_TURNS - 1
    state, _ = step(state, {state.active or "": "pass; end"})
    assert state.ended == rules.EVIL_SURVIVAL
    # a GOOD declarer converted to EVIL afterwards starts no clock
    state = table(*FIVE, spots={"A": "P2-2"})
    state, _ = step(state, {"A": "declare"})
    state, _ = step(state, {"D": "object"})
    state, _ = step(state, {"A": "pass; end"})
    state.seats["A"].alignment = EVIL
    state.turn = rules.EVIL_SURVIVAL_TURNS + 5
    state, _ = step(state, {state.active or "": "pass; end"})
    assert state.ended is None


def test_solo_declaration_only_for_a_special_when_all_others_are_down() -> None:
    state = table(*FIVE, active="C", spots={"C": "P2-2"})
    assert rejected(state, "C", "declare-solo") == rules.R_SOLO  # others alive
    for seat in "ABD":
        state.seats[seat].alive = False
    state.seats["E"].black_hole = True
    state.active, state.waiting = "A", ["A"]
    state.seats["A"].alive = True
    assert rejected(state, "A", "単独勝利宣言") == rules.R_SOLO  # GOOD may not
    state.seats["A"].alive = False
    state.active, state.waiting = "C", ["C"]
    state.seats["C"].info = 0  # c13 would lose alone: a solo win ignores its defeat conditions
    state, events = step(state, {"C": "declare-solo"})
    assert has(events, "declared_solo") and state.waiting == ["E"]  # alive in its black hole
    state, events = step(state, {"E": "accept"})
    assert state.ended == rules.SOLO
    assert state.grades == {"A": "D", "B": "D", "C": "A", "D": "D", "E": "C"}


def test_a_special_cannot_declare_an_alignment_victory() -> None:
    state = table(*FIVE, active="C", spots={"C": "P2-2"})
    with pytest.raises(OrderRejected):
        rules.parse(opened(state), "C", "declare")


def test_an_order_is_checked_whole_at_submission_and_refused_privately() -> None:
    """What follows the main action is checked when the order is sent, against the seat's own
    sheet, hand and mind: a SPECIAL's ``pass; declare`` is refused then (no public "C:
    `declare` is skipped", which showed C SPECIAL), as are a conversion its sheet forbids, an
    ability it does not hold or cannot pay for, and ``fight`` after a main action that allows
    none. Only what the move changes (who stands where) is left to the moment it acts."""
    # C: SPECIAL c16 (cannot convert) on P2-2 with A; B elsewhere
    state = table("c04", "c02", "c16", "c08", "c10", active="C", spots={"A": "P2-2", "C": "P2-2"})
    assert rejected(state, "C", "pass; declare") == rules.R_SPECIAL_DECLARE
    assert rejected(state, "C", "move right; convert B; end") == rules.R_CONVERT_SPECIAL
    assert rejected(state, "C", "pass; use c13a; end") == rules.R_ABILITY
    state.seats["C"].sheet = "c13"  # SPECIAL, converts, +2 for 2 mind (of 2 left)
    state.seats["C"].mind_lost = rules.sheet_of(state, "C").mind - 2
    assert rules.parse(opened(state), "C", "move right; use c13a; end")
    assert rejected(state, "C", "use c13a; pass; use c13a; end") == rules.R_USED
    state.seats["C"].mind_lost += 1
    assert rejected(state, "C", "move right; use c13a; end") == rules.R_COST
    assert rejected(state, "C", "recover durability; fight") == rules.R_FIGHT
    state.seats["C"].mind_lost -= 1
    # what the move changes is checked when C acts, in public: B is not on P2-3
    state, events = step(state, {"C": "move right; convert B; end"})
    assert one(events, "skipped").data == {"seat": "C", "action": "convert B"}
    assert one(events, "skipped_why").data["why"] == rules.R_SAME_SPOT
    assert state.active != "C"


def test_living_characters_in_a_black_hole_answer_a_solo_declaration() -> None:
    state = table(*FIVE, active="C", spots={"C": "P2-2"})
    for seat in "ABD":
        state.seats[seat].alive = False
    state.seats["E"].black_hole = True
    state, _ = step(state, {"C": "declare-solo"})
    assert state.ended is None and state.step == rules.OBJECTION and state.waiting == ["E"]
    state, _ = step(state, {"E": "object"})
    assert state.ended is None


# --- the stage's end -----------------------------------------------------------------------------


def test_the_stage_ends_when_all_36_cards_are_face_up() -> None:
    state = table(*FIVE, spots={"A": "P2-2"})
    state.face_up = [s for s in CARD_SPOTS if s != "P2-2"]
    state, events = step(state, {"A": "pass; end"}, secret=RandomDice(3))
    assert has(events, "stage_end") and not of(events, "flipped")  # nothing left face down
    # part 2: the secret base follows, its key installations voted by the EVIL silhouettes
    assert state.ended is None and state.stage == rules.BASE_STAGE
    assert state.step == "keys" and state.waiting == ["D", "E"]
    assert len(state.base) == 36 and all(s.spot is None for s in state.seats.values())
    # graded now (a moderator's ruling): c13 (C) loses alone; nobody else meets a defeat
    state, _ = rules.adjudicate(state)
    assert state.grades == {"A": "A", "B": "A", "C": "C", "D": "A", "E": "A"}


def flipping(displaced: str | None = None) -> tuple[EsperState, list[Event]]:
    """One EVIL silhouette (D) and four invaders (E shows GOOD c05); A on P1-1 (an info card)
    holds 2 info; 15 other cards face up, so 20 stay face down: D flips ⌈20 / 2 / 4⌉ = 3, the
    first three face-down ones in spot order (P3-5, P3-6, P4-1), two of them white. With
    ``displaced``, P3-5 holds the ambush, which displaced that card."""
    state = table(*FIVE, spots={"A": "P1-1", "E": "P6-6"})
    state.seats["E"].silhouette = "c05"
    state.seats["A"].info = 2
    state.planets["P1-1"] = "p03"
    state.face_up = CARD_SPOTS[1:16]
    assert CARD_SPOTS[16:19] == ["P3-5", "P3-6", "P4-1"]
    state.planets.update({"P3-5": "p06", "P3-6": "p02", "P4-1": "p08"})
    if displaced is not None:
        state.planets["P3-5"] = displaced
        state.ambush, state.ambush_runner, state.rafnor = "P3-5", "D", displaced
    return step(state, {"A": "pass; end"})


def test_evil_silhouettes_flip_face_down_cards_and_white_ones_give_ability_cards() -> None:
    state, events = flipping()
    flipped = one(events, "flipped")
    assert flipped.to is None
    assert dict(flipped.data["spots"]) == {"P3-5": "p06", "P3-6": "p02", "P4-1": "p08"}
    assert flipped.data["n"] == 2 == len(state.seats["D"].hand)  # one per white card
    assert math.ceil(20 / 2 / 4) == 3
    assert [e.to for e in of(events, "ability_drawn")] == [("D",), ("A",)]  # privately
    assert all(s in state.face_up for s in ("P3-5", "P3-6", "P4-1"))
    # A holds 3 info: an ability card, then it sees D's sheet (one EVIL silhouette)
    assert len(state.seats["A"].hand) == 1
    assert state.step == rules.SEE and state.pending["see"] == {"A": {"n": 1, "of": ["D"]}}


def test_a_flipped_ambush_is_the_ambush_not_the_card_it_displaced() -> None:
    state, events = flipping(displaced="p07")  # white; no other p07 on the board
    assert len(state.seats["D"].hand) == 1  # p08 only
    assert "p07" not in mentions_pack_ids(one(events, "flipped"))
    assert rules.summary(state)["planets"].get("P3-5") in (None, rules.SPENT)


def test_info_holders_see_at_most_as_many_evil_sheets_as_info_withheld() -> None:
    # seven seats: D, E, F, G show EVIL silhouettes; A reaches 3 info
    state = table("c04", "c02", "c13", "c08", "c10", "c12", "c09", spots={"A": "P1-1"})
    state.seats["A"].info = 2
    state.planets["P1-1"] = "p03"
    state, _ = step(state, {"A": "pass; end"})
    assert state.step == rules.SEE and state.pending["see"] == {"A": {"n": 3, "of": list("DEFG")}}
    state = opened(state)
    assert rules.withheld(state, "A")
    assert rejected(state, "A", "see D E F G") == rules.R_SEE  # more than the info held
    assert rejected(state, "A", "see B") == rules.R_SEE  # not an EVIL silhouette
    assert rules.parse(state, "A", "閲覧 D F").actions[0].args == ("D", "F")
    state, events = step(state, {"A": "see D F"}, secret=RandomDice(4))
    seen = one(events, "seen")
    assert seen.to == ("A",) and dict(seen.data["sheets"]) == {"D": "c08", "F": "c12"}
    assert state.ended is None and state.step == "keys"  # then the secret base
    assert [v["seat"] for v in rules.view(state, "A")["you"]["seen"]] == ["D", "F"]
    assert rules.view(state, "B")["you"]["seen"] == []


# --- grades, defeat conditions and the other ends ------------------------------------------------


@pytest.mark.parametrize(
    ("sheets", "dead", "seat", "defeated"),
    [
        (("c04", "c02", "c13", "c08", "c10"), "", "A", False),
        (("c04", "c02", "c13", "c08", "c10"), "A", "A", True),  # dead (itself)
        (("c03", "c02", "c13", "c08", "c10"), "B", "A", True),  # dead: who = c02
        (("c03", "c06", "c13", "c08", "c10"), "", "A", False),  # c02 not dealt: not dead
        (("c02", "c04", "c13", "c07", "c10"), "", "A", True),  # alive: c07 dealt and alive
        (("c02", "c04", "c13", "c07", "c10"), "D", "A", False),  # c07 dead
        (("c02", "c04", "c13", "c08", "c10"), "", "A", False),  # c07 not dealt
        (("c05", "c04", "c13", "c08", "c10"), "", "A", True),  # info below 1
        (("c04", "c02", "c13", "c08", "c10"), "", "C", True),  # alone
        (("c04", "c02", "c14", "c08", "c10"), "", "C", False),  # declared: nobody declared
    ],
)
def test_defeat_conditions(sheets: tuple[str, ...], dead: str, seat: str, defeated: bool) -> None:
    state = table(*sheets)
    for other in dead:
        state.seats[other].alive = False
    assert rules.defeated(state, seat) is defeated


def test_info_below_counts_the_party_and_alone_ends_in_a_party() -> None:
    state = table("c05", "c04", "c13", "c08", "c10")
    assert rules.defeated(state, "A") and rules.defeated(state, "C")
    state.seats["A"].party = state.seats["B"].party = state.seats["C"].party = 1
    state.seats["B"].info = 1
    assert not rules.defeated(state, "A") and not rules.defeated(state, "C")
    state.seats["B"].alive = False  # a dead member's info no longer counts
    assert rules.defeated(state, "A")


def test_declared_defeat_and_the_lock_rule_and_all_dead() -> None:
    state = table("c01", "c02", "c14", "c07", "c10")  # two (L) characters (not a real deal)
    state, _ = rules.adjudicate(state)
    assert state.ended == rules.ADJUDICATED and state.declared_by is None
    # A (c01, L) and D (c07, L) lose while the other lives; B: c07 alive; C: no EVIL declaration
    assert state.grades == {"A": "C", "B": "C", "C": "A", "D": "C", "E": "A"}
    state = table("c01", "c02", "c14", "c07", "c10")
    state.seats["D"].alive = False
    state, _ = rules.adjudicate(state)
    assert state.grades == {"A": "A", "B": "A", "C": "A", "D": "D", "E": "A"}
    state = table("c01", "c02", "c14", "c07", "c10")
    for s in state.seats.values():
        s.alive = False
    state, _ = rules.adjudicate(state)
    assert set(state.grades.values()) == {"D"} and state.winners == []
    state = table("c01", "c02", "c14", "c08", "c10")
    state.declared_by = EVIL  # as when an EVIL declaration went unopposed
    assert rules.defeated(state, "C")


def test_a_special_loses_dead_even_without_a_defeat_condition() -> None:
    # C: SPECIAL c16 with its 2 info; B: GOOD c03 (defeated only by c02's death, not dealt)
    state = table("c04", "c03", "c16", "c08", "c10")
    state.seats["C"].info = 2
    for seat in "ABC":
        state.seats[seat].alive = False
    state, _ = rules.adjudicate(state)
    # A (c04) dies by its own condition; B wins dead; a dead SPECIAL loses
    assert state.grades == {"A": "D", "B": "B", "C": "D", "D": "A", "E": "A"}


def test_resign_keeps_the_game_going_and_adjudicate_ends_it() -> None:
    state = opened(table(*FIVE, spots={"A": "P2-2"}))
    state, events = rules.resign(state, "C")
    assert dict(one(events, "resigned").data) == {"seat": "C"}
    assert state.ended is None and state.seats["C"].resigned and not state.seats["C"].alive
    assert state.step == rules.TURN and rules.awaiting(state) == ["A"]
    state, _ = step(state, {"A": "declare"})
    assert state.waiting == ["B", "D", "E"]  # the resigned seat does not answer
    state, _ = rules.resign(state, "A")  # the declarer leaves: its declaration lapses
    assert state.ended is None and state.declaration is None and state.active == "B"
    state, _ = rules.adjudicate(state)
    assert (
        state.ended == rules.ADJUDICATED and state.grades["C"] == "D" and state.grades["A"] == "D"
    )
    assert rules.outcome(state).finished and set(rules.outcome(state).grades) == set(state.order)
    with pytest.raises(RuleError):
        rules.adjudicate(state)


def test_all_characters_down_ends_the_game() -> None:
    state = table(*FIVE, spots={"A": "P2-2"})
    state.planets["P2-2"] = "p14"
    for seat in "BCDE":
        state.seats[seat].alive = False
    state, _ = step(state, {"A": "pass; end"})
    assert state.ended == rules.ALL_DOWN
    assert state.grades["A"] == "A"  # in a black hole but alive, nothing defeats c04
