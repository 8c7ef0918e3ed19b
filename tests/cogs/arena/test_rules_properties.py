"""Arena Duel invariants under random games, random dice and random text (Hypothesis)."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.dice import NoDice, ScriptedDice
from bot.ruleset import OrderRejected
from cogs.arena import rules
from cogs.arena.rules import ArenaState, Fighter, Order

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_TURNS = 20
STARTS = {(0, 2), (0, -2)}
FREE_HEXES = [h for h in rules.ARENA_HEXES if h not in STARTS]

obstacle_sets = st.lists(st.sampled_from(FREE_HEXES), max_size=5, unique=True)
order_picks = st.lists(
    st.tuples(st.integers(0, 9), st.integers(0, 2)), min_size=2 * MAX_TURNS, max_size=2 * MAX_TURNS
)
dice_scripts = st.lists(st.integers(1, 6), min_size=6 * MAX_TURNS, max_size=6 * MAX_TURNS)

Check = Callable[[ArenaState, ArenaState | None], None]


def play_random_game(
    picks: list[tuple[int, int]],
    obstacles: list[tuple[int, int]],
    script: list[int],
    check: Check,
) -> ArenaState:
    """Play legal orders picked from the enabled buttons until the game ends; ``check`` each state
    (with the state before it, if any). ``picks`` index the enabled move and turn buttons (drawn
    up front: one Hypothesis draw per game instead of four per turn keeps the test fast)."""
    state = rules.new_game(
        "prop", ["A", "B"], {"obstacles": [list(h) for h in obstacles]}, NoDice()
    )
    check(state, None)
    for turn in range(MAX_TURNS):
        before = state
        state, _ = rules.start_step(state, ScriptedDice(script[6 * turn : 6 * turn + 6]))
        check(state, before)
        orders: dict[str, Order] = {}
        for i, seat in enumerate(rules.awaiting(state)):
            move_group, turn_group = rules.choices(state, seat)
            moves = [c.token for c in move_group.choices if c.enabled]
            turns = [c.token for c in turn_group.choices if c.enabled]
            pick_move, pick_turn = picks[2 * turn + i]
            text = f"{moves[pick_move % len(moves)]} {turns[pick_turn % len(turns)]}"
            orders[seat] = rules.parse(state, seat, text)
        before = state
        frozen = rules.to_json(before)
        state, events = rules.resolve(state, orders, NoDice())
        assert rules.to_json(before) == frozen  # the input state is never mutated
        for event in events:
            json.dumps(event.to_json())
        check(state, before)
        if rules.outcome(state).finished:
            return state
    raise AssertionError("the game did not end")


def check_valid(state: ArenaState, before: ArenaState | None) -> None:
    a, b = state.fighters["A"], state.fighters["B"]
    for f in (a, b):
        assert rules.in_arena(f.hex)
        assert f.hex not in state.obstacles
        assert 0 <= f.facing <= 5
        assert 0 <= f.stamina <= rules.START_STAMINA
    assert a.hex != b.hex
    if state.winner is not None:
        assert rules.awaiting(state) == []
        assert state.winner == "draw" or state.fighters[state.winner].stamina > 0
    if before is not None and state.last_turn is not before.last_turn:  # a turn was resolved
        for seat in rules.SEATS:
            old = before.fighters[seat].stamina
            assert state.fighters[seat].stamina <= old - 1 or state.fighters[seat].stamina == 0
        dead = [s for s in rules.SEATS if state.fighters[s].stamina == 0]
        assert (state.winner is not None) == bool(dead)
        assert state.turn <= rules.START_STAMINA  # stamina drops by 1 at least every turn


def check_round_trip(state: ArenaState, before: ArenaState | None) -> None:
    obj = rules.to_json(state)
    assert json.loads(json.dumps(obj)) == obj
    assert rules.from_json(obj) == state
    assert rules.to_json(rules.from_json(obj)) == obj


def check_views(state: ArenaState, before: ArenaState | None) -> None:
    public = rules.view(state, None)
    assert public["dice"] == {}
    text = json.dumps(public)
    assert json.loads(text) == public
    for seat in rules.SEATS:
        own = rules.view(state, seat)
        assert set(own["dice"]) <= {seat}
        assert own["dice"] == ({seat: list(state.dice[seat])} if seat in state.dice else {})
        # Apart from the asking seat's own dice, a seat sees exactly what the public sees.
        assert {**own, "dice": {}} == public
    assert "dice" not in (public["last_turn"] or {})
    assert set(rules.summary(state)["fighters"]) == set(rules.SEATS)


@SETTINGS
@given(order_picks, obstacle_sets, dice_scripts)
def test_random_games_keep_a_valid_state(picks, obstacles, script) -> None:
    final = play_random_game(picks, obstacles, script, check_valid)
    assert rules.outcome(final).winner in ("A", "B", "draw")


@SETTINGS
@given(order_picks, obstacle_sets, dice_scripts)
def test_json_round_trip_at_every_step(picks, obstacles, script) -> None:
    play_random_game(picks, obstacles, script, check_round_trip)


@SETTINGS
@given(order_picks, obstacle_sets, dice_scripts)
def test_views_never_leak_the_current_dice(picks, obstacles, script) -> None:
    play_random_game(picks, obstacles, script, check_views)


# --- parsing arbitrary text ----------------------------------------------------------------------


def _open_center() -> ArenaState:
    fighters = {"A": Fighter((0, 0), 0, may_charge=True), "B": Fighter((2, -2), 3)}
    state = ArenaState("prop", 0, fighters)
    return rules.start_step(state, ScriptedDice([1] * 6))[0]


CENTER = _open_center()
WORDS = sorted({*rules._EN_VOCAB, *rules._JA_VOCAB, "4", "ほげ", "jump"})
SEPARATORS = [" ", "", "　", "、", "・", "\t", "「", "」", "-", ","]

vocabulary_text = st.lists(
    st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=5
).map(lambda pairs: "".join(w + s for w, s in pairs))
any_text = st.one_of(
    st.text(),
    st.text(max_size=400),
    st.text(alphabet=st.characters(min_codepoint=0x3000, max_codepoint=0x9FFF), max_size=50),
    st.text(alphabet="abcdefghijklmnoprstuvwxyz- ", max_size=30),
    vocabulary_text,
    st.builds(lambda a, b: a * 50 + b, vocabulary_text, st.text()),  # huge strings
)


@settings(max_examples=500, deadline=None)
@given(any_text)
def test_parse_only_rejects_or_round_trips(text: str) -> None:
    try:
        order = rules.parse(CENTER, "A", text)
    except OrderRejected as err:
        assert err.key.startswith("arena.reject.")
        return
    assert rules.parse(CENTER, "A", order.canonical()) == order
    assert rules.parse_text(order.canonical()) == order


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(rules.MOVES)), st.sampled_from(sorted(rules.TURNS)), st.data())
def test_every_order_survives_its_own_spelling(move: str, turn: str, data) -> None:
    order = Order(move, turn)
    sep = data.draw(st.sampled_from([" ", "  ", "　", "\t", " 、"]))
    text = order.canonical().replace(" ", sep)
    if data.draw(st.booleans()):
        text = text.upper()
    assert rules.parse(CENTER, "A", text) == order
