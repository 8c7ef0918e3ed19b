"""Sealed Bids (``tests/hidden_ruleset``), engine and presenter only: the hidden-information parts
of the ruleset contract, exercised by a small game whose rules are in ``rules.py``.

The deal comes from the secret stream alone; hands and teams stay private; plays are withheld and
revealed one round late; private events reach their seat only; a resignation leaves the game going
on for the others; a team left empty forfeits; several winners are graded; a moderator may
adjudicate; round 1 has a deadline of its own. (The table's side is tested with SimCord elsewhere.)
"""

from __future__ import annotations

import io
import json
import random
import string
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import registry
from bot.dice import NO_SECRET, DiceStream, NoDice, ScriptedDice, stream_label
from bot.i18n import t
from bot.ruleset import INPUTS_REVEALED, Event, OrderRejected, Outcome, RuleError, StateError
from tests.hidden_ruleset import RULESET, ai, rules
from tests.hidden_ruleset import board as bids_board
from tests.hidden_ruleset.rules import BidsState, Play

LOCALES = Path(__file__).resolve().parent / "hidden_ruleset" / "locales"
NO_DICE = NoDice()  # the public streams: this game never draws from them
PRESENTER = RULESET.presenter


@pytest.fixture(autouse=True)
def bids_catalogues() -> Iterator[None]:
    """The ruleset's sentences, for this module's tests only (other tests enumerate rulesets)."""
    known = "bids" in registry.rulesets()
    if not known:
        registry.register(RULESET)
    yield
    if not known:
        registry.unregister(RULESET.key)


def identity_secret(players: int) -> ScriptedDice:
    """A secret stream whose shuffles swap nothing (``roll(i + 1) = i + 1``): the sun team is the
    first ceil(n/2) seats, and seat i holds cards 3i+1…3i+3."""
    seats = range(players, 1, -1)
    deck = range(3 * players, 1, -1)
    return ScriptedDice([*seats, *deck])


def dealt(players: int) -> BidsState:
    return rules.new_game("g-1", rules.SEATS[:players], {}, NO_DICE, identity_secret(players))


def hand_made() -> BidsState:
    """Four seats, teams alternating, hands chosen so that rounds can tie."""
    return BidsState(
        "g-1",
        ("A", "B", "C", "D"),
        {"A": "sun", "B": "moon", "C": "sun", "D": "moon"},
        {"A": (1, 8, 12), "B": (2, 7, 11), "C": (3, 6, 10), "D": (4, 5, 9)},
    )


def opened(state: BidsState) -> BidsState:
    state, events = rules.start_step(state, NO_DICE, NO_SECRET)
    assert events == []
    return state


def play_round(state: BidsState, cards: dict[str, Any]) -> tuple[BidsState, list[Event]]:
    """Open a round and resolve it with these cards (as order text, like a player)."""
    state = opened(state)
    orders = {seat: rules.parse(state, seat, str(card)) for seat, card in cards.items()}
    return rules.resolve(state, orders, NO_DICE, NO_SECRET)


def public_types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events if e.public]


def refused(call: Any, *args: Any) -> str:
    with pytest.raises(OrderRejected) as caught:
        call(*args)
    key = caught.value.key
    for lang in ("en", "ja"):  # the reader gets a sentence, never the key
        sentence = t(lang, key, **caught.value.params)
        assert sentence != key and "{" not in sentence, (lang, key)
    return key


# --- the spec ------------------------------------------------------------------------------------


def test_spec() -> None:
    assert RULESET.key == "bids" and RULESET.engine is rules
    assert RULESET.seats.names == tuple("ABCDEFGHIJK")
    assert RULESET.seats.allowed() == tuple(range(3, 12))
    assert RULESET.seats.for_demo() == tuple("ABCDE")
    assert RULESET.private_view_fields == frozenset({"you"})
    assert RULESET.secret_stream
    assert RULESET.withheld is rules.withheld and RULESET.step_seconds is rules.step_seconds
    assert RULESET.adjudicate is rules.adjudicate
    assert t("en", "bids.title") == "Sealed Bids" and t("ja", "bids.title") == "封印入札"


def placeholders(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def test_every_sentence_in_both_languages() -> None:
    en = json.loads((LOCALES / "bids.en.json").read_text("utf-8"))
    ja = json.loads((LOCALES / "bids.ja.json").read_text("utf-8"))
    assert en.keys() == ja.keys()
    assert {k for k in en if placeholders(en[k]) != placeholders(ja[k])} == set()
    events = {
        "your_play",
        "cards_revealed",
        "round_scored",
        "round_tied",
        "resigned",
        "team_forfeits",
        "teams_revealed",
        "team_won",
        "teams_tied",
        "adjudicated",
    }
    assert {f"bids.event.{e}" for e in events} <= en.keys()
    assert {f"bids.card.{c}" for c in range(1, rules.MAX_CARD + 1)} <= en.keys()
    # the challenge's options have translatable names (``localized_params``)
    assert {f"cmd.param.opponent{i}" for i in range(1, 11)} <= en.keys()


# --- setup ---------------------------------------------------------------------------------------


def test_the_deal_follows_the_secret_stream() -> None:
    state = dealt(5)
    assert dict(state.teams) == {"A": "sun", "B": "sun", "C": "sun", "D": "moon", "E": "moon"}
    assert dict(state.hands) == {
        "A": (1, 2, 3),
        "B": (4, 5, 6),
        "C": (7, 8, 9),
        "D": (10, 11, 12),
        "E": (13, 14, 15),
    }
    # one swap in each shuffle: seats E<->A (roll(5) = 1), cards 15<->1 (roll(15) = 1)
    secret = ScriptedDice([1, 4, 3, 2, 1, *range(14, 1, -1)])
    state = rules.new_game("g-1", rules.SEATS[:5], {}, NO_DICE, secret)
    assert dict(state.teams) == {"A": "moon", "B": "sun", "C": "sun", "D": "moon", "E": "sun"}
    assert state.hands["A"] == (2, 3, 15) and state.hands["E"] == (1, 13, 14)
    assert secret.remaining == 0


@pytest.mark.parametrize("players", [3, 4, 7, 11])
def test_a_committed_deal(players: int) -> None:
    label = stream_label("g-7", 0, "secret")
    secret = DiceStream(b"s" * 32, label)
    state = rules.new_game("g-7", rules.SEATS[:players], {}, NO_DICE, secret)
    again = rules.new_game("g-7", rules.SEATS[:players], {}, NO_DICE, DiceStream(b"s" * 32, label))
    assert state == again  # the stream decides everything
    cards = sorted(c for hand in state.hands.values() for c in hand)
    assert cards == list(range(1, 3 * players + 1))
    assert all(len(hand) == 3 for hand in state.hands.values())
    suns = [s for s in state.seats if state.teams[s] == "sun"]
    assert len(suns) == (players + 1) // 2
    # one draw per step of each shuffle: n-1 for the seats, 3n-1 for the deck
    assert len(secret.rolls) == (players - 1) + (3 * players - 1)


def test_new_game_needs_the_secret_stream() -> None:
    with pytest.raises(RuleError) as caught:
        rules.new_game("g-1", rules.SEATS[:4], {}, NO_DICE, NO_SECRET)
    assert caught.value.key == "bids.error.no_secret"
    for seats in (rules.SEATS[:2], (*rules.SEATS, "L")):
        with pytest.raises(RuleError) as caught:
            rules.new_game("g-1", seats, {}, NO_DICE, identity_secret(3))
        assert caught.value.key == "bids.error.seats"
    with pytest.raises(RuleError):
        rules.new_game("g-1", ("B", "C", "D"), {}, NO_DICE, identity_secret(3))
    with pytest.raises(RuleError):
        rules.check_options({"rounds": 5})


# --- privacy -------------------------------------------------------------------------------------


def test_hands_and_teams_are_private() -> None:
    state = opened(dealt(5))
    public = rules.view(state, None)
    assert "you" not in public and public["teams"] is None
    assert public["cards_left"] == dict.fromkeys("ABCDE", 3)
    text = json.dumps(public)
    assert '"hand' not in text and '"team"' not in text  # no hand, no seat's team
    mine = rules.view(state, "A")
    assert mine["you"] == {"seat": "A", "team": "sun", "hand": [1, 2, 3]}
    assert {k: v for k, v in mine.items() if k != "you"} == public
    for other in "BCDE":  # nothing of another seat's hand in A's view
        assert not set(state.hands[other]) & set(mine["you"]["hand"])
        assert rules.view(state, other)["you"]["hand"] == list(state.hands[other])
    assert "you" not in rules.view(state, "K")  # not seated: the public view
    assert PRESENTER.private_lines(mine, "A", "en") == ["Your team: Sun", "Your hand: 1 · 2 · 3"]
    assert PRESENTER.private_lines(public, "A", "en") == []
    assert PRESENTER.private_lines(rules.view(state, "D"), "D", "ja")[0] == "あなたのチーム：月"


def test_teams_are_public_at_the_end() -> None:
    state = dealt(3)
    for _ in range(3):
        state, _ = play_round(state, {s: min(state.hands[s]) for s in "ABC"})
    public = rules.view(state, None)
    assert public["teams"] == {"A": "sun", "B": "sun", "C": "moon"}
    assert [r["round"] for r in public["revealed"]] == [1, 2, 3]
    assert rules.summary(state)["teams"] == public["teams"]


# --- orders --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["7", "play 7", "Play 7", "7を出す", "７を出す", "ｐｌａｙ　７", " 7 "]
)
def test_order_text(text: str) -> None:
    state = opened(dealt(5))  # C holds 7, 8, 9
    assert rules.parse(state, "C", text) == Play(7)
    assert Play(7).canonical() == "play 7"
    assert rules.parse(state, "C", Play(7).canonical()) == Play(7)


def test_refused_orders() -> None:
    state = dealt(5)
    assert refused(rules.parse, state, "A", "1") == "bids.reject.not_open"
    state = opened(state)
    assert refused(rules.parse, state, "A", "7") == "bids.reject.not_in_hand"
    with pytest.raises(OrderRejected) as caught:
        rules.parse(state, "A", "7")
    assert "7" in t("en", caught.value.key, **caught.value.params)
    assert "7" in t("ja", caught.value.key, **caught.value.params)
    assert refused(rules.parse, state, "A", "seven") == "bids.reject.unknown"
    assert refused(rules.parse, state, "A", "  ") == "bids.reject.empty"
    assert refused(rules.parse, state, "K", "1") == "bids.reject.not_seated"
    assert refused(rules.parse, state, "A", "99") == "bids.reject.not_in_hand"
    with pytest.raises(OrderRejected):  # a Play built by hand must be in the hand too
        rules.resolve(state, {"A": Play(7)}, NO_DICE, NO_SECRET)


def test_choices_and_default() -> None:
    state = opened(dealt(4))
    (group,) = rules.choices(state, "B")
    assert [c.token for c in group.choices] == ["play 4", "play 5", "play 6"]
    assert [t("en", c.label_key) for c in group.choices] == ["4", "5", "6"]
    assert [rules.parse(state, "B", c.token) for c in group.choices] == [Play(4), Play(5), Play(6)]
    assert rules.default_order(state, "B") == Play(4)
    # a seat that sends nothing plays its lowest card
    state, events = rules.resolve(state, {"A": Play(3)}, NO_DICE, NO_SECRET)
    plays = {e.to[0]: e.data["card"] for e in events if e.type == "your_play" and e.to}
    assert plays == {"A": 3, "B": 4, "C": 7, "D": 10}
    assert rules.choices(state, "B") == []  # no round open


def test_the_demo_player_plays_from_its_hand() -> None:
    state = opened(dealt(6))
    rng = random.Random(4)
    for seat in rules.awaiting(state):
        for _ in range(5):
            assert rules.parse(state, seat, ai.choose(state, seat, rng)).card in state.hands[seat]


# --- resolution ----------------------------------------------------------------------------------


def test_scoring_and_a_draw_on_rounds() -> None:
    state = hand_made()
    state, events = play_round(state, {"A": 1, "B": 2, "C": 6, "D": 5})  # 7 : 7
    assert public_types(events) == ["round_tied"]
    assert events[-1].to_json() == {"type": "round_tied", "round": 1}
    state, events = play_round(state, {"A": 8, "B": 11, "C": 3, "D": 4})  # 11 : 15
    assert public_types(events)[-1] == "round_scored"
    assert events[-1].to_json() == {"type": "round_scored", "round": 2, "team": "moon"}
    assert rules.view(state, None)["scored"] == {"sun": 0, "moon": 1}
    assert rules.outcome(state) == Outcome.ongoing()
    state, events = play_round(state, {"A": 12, "B": 7, "C": 10, "D": 9})  # 22 : 16
    assert public_types(events) == [
        INPUTS_REVEALED,
        "cards_revealed",
        "round_scored",
        "cards_revealed",
        "teams_revealed",
        "teams_tied",
    ]
    assert rules.outcome(state) == Outcome.drawn(reason="rounds")
    assert rules.outcome(state).winner == "draw"
    assert rules.awaiting(state) == [] and rules.view(state, None)["results"] == [
        "tie",
        "moon",
        "sun",
    ]
    with pytest.raises(RuleError):
        rules.start_step(state, NO_DICE, NO_SECRET)  # no fourth round


def test_several_winners_with_grades() -> None:
    state = hand_made()
    state, _ = play_round(state, {"A": 12, "B": 2, "C": 10, "D": 4})  # sun
    state, _ = play_round(state, {"A": 8, "B": 11, "C": 6, "D": 9})  # 14 : 20 moon
    state, events = play_round(state, {"A": 1, "B": 7, "C": 3, "D": 5})  # 4 : 12 moon
    outcome = rules.outcome(state)
    assert outcome == Outcome.win("B", "D", reason="rounds", A="C", B="A", C="C", D="A")
    assert outcome.winner == ["B", "D"]
    assert events[-1].to_json() == {"type": "team_won", "team": "moon", "sun": 1, "moon": 2}
    text = PRESENTER.outcome_text(outcome, "en", {"B": 2, "D": 4}, "rules")
    assert "B (<@2>)" in text and "D (<@4>)" in text


def test_cards_are_revealed_one_round_late() -> None:
    state = hand_made()
    state, events = play_round(state, {"A": 1, "B": 2, "C": 6, "D": 5})
    assert INPUTS_REVEALED not in [e.type for e in events]
    assert rules.view(state, None)["revealed"] == []  # round 1's cards are still secret
    assert "plays" not in json.dumps(rules.view(state, "A"))
    state, events = play_round(state, {"A": 8, "B": 11, "C": 3, "D": 4})
    revealed = [e.to_json() for e in events if e.type in (INPUTS_REVEALED, "cards_revealed")]
    assert revealed == [
        {"type": INPUTS_REVEALED, "steps": [1]},
        {"type": "cards_revealed", "round": 1, "plays": {"A": 1, "B": 2, "C": 6, "D": 5}},
    ]
    assert rules.view(state, None)["revealed"] == [
        {"round": 1, "plays": {"A": 1, "B": 2, "C": 6, "D": 5}}
    ]
    (line,) = PRESENTER.event_lines([revealed[1]], "en", {})
    assert line == "• Round 1 cards revealed: A 1 · B 2 · C 6 · D 5."
    assert PRESENTER.event_lines([revealed[0]], "en", {}) == []  # bookkeeping: not worded
    state, events = play_round(state, {"A": 12, "B": 7, "C": 10, "D": 9})
    steps = [e.data["steps"] for e in events if e.type == INPUTS_REVEALED]
    rounds = [e.data["round"] for e in events if e.type == "cards_revealed"]
    assert steps == [[2]] and rounds == [2, 3]  # the last round's at the end
    assert [r["round"] for r in rules.view(state, None)["revealed"]] == [1, 2, 3]


def test_private_events_are_addressed_to_their_seat() -> None:
    _, events = play_round(dealt(4), {"A": 2, "B": 6, "C": 7, "D": 12})
    private = [e for e in events if not e.public]
    assert [(e.to, e.type, dict(e.data)) for e in private] == [
        (("A",), "your_play", {"card": 2, "round": 1}),
        (("B",), "your_play", {"card": 6, "round": 1}),
        (("C",), "your_play", {"card": 7, "round": 1}),
        (("D",), "your_play", {"card": 12, "round": 1}),
    ]
    stored = private[0].to_json()
    assert stored == {"type": "your_play", "card": 2, "round": 1, "_to": ["A"]}
    assert Event.from_json(stored) == private[0]
    # no public event names a card of the round just played
    assert all("card" not in e.data and "plays" not in e.data for e in events if e.public)
    assert PRESENTER.event_lines([stored], "ja", {}) == ["• 第1ラウンドにあなたは 2 を出しました。"]


# --- resignation, forfeit, adjudication ----------------------------------------------------------


def test_a_resignation_leaves_the_game_going_on() -> None:
    state = opened(dealt(5))  # sun A B C, moon D E
    state, events = rules.resign(state, "B")
    assert [e.to_json() for e in events] == [{"type": "resigned", "seat": "B"}]
    assert rules.outcome(state) == Outcome.ongoing()
    assert rules.awaiting(state) == ["A", "C", "D", "E"]
    assert rules.view(state, None)["active"] == ["A", "C", "D", "E"]
    assert rules.view(state, None)["cards_left"]["B"] == 0
    assert rules.view(state, "B")["you"]["hand"] == []
    assert rules.choices(state, "B") == []
    assert refused(rules.parse, state, "B", "4") == "bids.reject.resigned"
    assert refused(rules.resign, state, "B") == "bids.reject.resigned"
    # an order B sealed before resigning is dropped; the others play
    orders = {s: rules.default_order(state, s) for s in rules.awaiting(state)}
    state, events = rules.resolve(state, {**orders, "B": Play(4)}, NO_DICE, NO_SECRET)
    assert [e.to for e in events if e.type == "your_play"] == [("A",), ("C",), ("D",), ("E",)]
    assert state.plays[0] == {"A": 1, "C": 7, "D": 10, "E": 13}
    state = opened(state)
    assert rules.awaiting(state) == ["A", "C", "D", "E"]


def test_a_team_with_nobody_left_forfeits() -> None:
    state, _ = play_round(dealt(5), {"A": 1, "B": 4, "C": 7, "D": 10, "E": 13})  # moon 23 : 12
    state = opened(state)
    state, events = rules.resign(state, "D")
    assert not rules.outcome(state).finished
    state, events = rules.resign(state, "E")
    outcome = rules.outcome(state)
    grades = {"A": "A", "B": "A", "C": "A", "D": "C", "E": "C"}
    assert outcome == Outcome.win("A", "B", "C", reason="forfeit", **grades)
    assert public_types(events) == ["resigned", "cards_revealed", "teams_revealed", "team_forfeits"]
    assert events[-1].to_json() == {"type": "team_forfeits", "team": "moon", "winner": "sun"}
    assert rules.awaiting(state) == [] and not state.open
    assert rules.view(state, None)["revealed"][0]["round"] == 1  # the end reveals round 1
    assert refused(rules.resign, state, "A") == "bids.reject.finished"
    lines = PRESENTER.event_lines([e.to_json() for e in events], "en", {})
    assert lines[-2:] == [
        "• The teams were Sun: A, B, C; Moon: D, E.",
        "• Moon has nobody left: Sun wins by forfeit.",
    ]


def test_a_resigned_winner_is_no_winner() -> None:
    state = opened(dealt(5))
    state, _ = rules.resign(state, "A")  # sun: B, C left
    for _ in range(3):
        if not state.open:
            state = opened(state)
        orders = {s: Play(max(state.hands[s])) for s in rules.awaiting(state)}
        state, _ = rules.resolve(state, orders, NO_DICE, NO_SECRET)
    outcome = rules.outcome(state)
    assert outcome.finished and outcome.reason == "rounds"
    assert set(outcome.winners) <= {"B", "C", "D", "E"}
    assert outcome.grades["A"] == "C" and "A" not in outcome.winners


def test_adjudicate() -> None:
    state, _ = play_round(hand_made(), {"A": 1, "B": 2, "C": 3, "D": 4})  # moon
    state = opened(state)
    ruled, events = rules.adjudicate(state)
    assert rules.outcome(ruled) == Outcome.win(
        "B", "D", reason="adjudicated", A="C", B="A", C="C", D="A"
    )
    assert events[0].to_json() == {"type": "adjudicated", "sun": 0, "moon": 1}
    assert public_types(events) == [
        "adjudicated",
        "cards_revealed",
        "teams_revealed",
        "team_won",
    ]
    assert rules.awaiting(ruled) == [] and not ruled.open
    with pytest.raises(RuleError):
        rules.adjudicate(ruled)
    # equal rounds: a draw (here before any round)
    ruled, events = rules.adjudicate(hand_made())
    assert rules.outcome(ruled) == Outcome.drawn(reason="adjudicated")
    assert public_types(events) == ["adjudicated", "teams_revealed", "teams_tied"]
    for lang in ("en", "ja"):
        for line in PRESENTER.event_lines([e.to_json() for e in events], lang, {}):
            assert "{" not in line and "bids." not in line


# --- the hooks, labels, storage ------------------------------------------------------------------


def test_step_seconds_withheld_and_labels() -> None:
    state = dealt(3)
    assert rules.step_seconds(state) is None and rules.step_number(state) == 0
    state = opened(state)
    assert rules.step_seconds(state) == 120
    assert rules.step_label(state) == "round 1" and rules.step_number(state) == 1
    assert all(rules.withheld(state, seat) for seat in "ABC")
    state, _ = rules.resolve(state, {}, NO_DICE, NO_SECRET)
    assert rules.step_seconds(state) is None
    state = opened(state)
    assert rules.step_seconds(state) is None and rules.step_label(state) == "round 2"
    assert PRESENTER.step_name(rules.view(state, None), "en", 2) == "Round 2/3"
    assert PRESENTER.step_name(rules.view(state, None), "ja", 2) == "第2/3ラウンド"


def game_states(players: int, seed: int) -> Iterator[BidsState]:
    """Every state a table would store in a game of the demo players on a committed deal."""
    secret = DiceStream(seed.to_bytes(32, "big"), stream_label("g-9", 0, "secret"))
    state = rules.new_game("g-9", rules.SEATS[:players], {}, NO_DICE, secret)
    rng = random.Random(seed)
    yield state
    while not rules.outcome(state).finished:
        state = opened(state)
        yield state
        orders = {s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.awaiting(state)}
        state, _ = rules.resolve(state, orders, NO_DICE, secret)
        yield state


@pytest.mark.parametrize("players", [3, 8, 11])
def test_states_round_trip_through_json(players: int) -> None:
    count = 0
    for state in game_states(players, seed=players):
        obj = json.loads(json.dumps(rules.to_json(state)))
        assert rules.from_json(obj) == state
        count += 1
    assert count == 7  # setup, then each of 3 rounds opened and resolved
    resigned, _ = rules.resign(state_after_round_one(), "A")
    assert rules.from_json(json.loads(json.dumps(rules.to_json(resigned)))) == resigned
    with pytest.raises(StateError):
        rules.from_json({**rules.to_json(resigned), "schema": 2})
    with pytest.raises(StateError):
        rules.from_json({**rules.to_json(resigned), "teams": {"A": "stars"}})


def state_after_round_one() -> BidsState:
    state, _ = play_round(dealt(5), {s: min(dealt(5).hands[s]) for s in "ABCDE"})
    return state


# --- the presenter -------------------------------------------------------------------------------


def test_tallies() -> None:
    state = state_after_round_one()
    state, _ = rules.resign(state, "C")
    names = {"A": "Alice", "B": "Bob"}
    tallies = PRESENTER.tallies(rules.view(state, None), "en", names)
    assert tallies == [
        ("Sun", "Rounds scored: 0"),
        ("Moon", "Rounds scored: 1"),
        ("Still in (cards left)", "A · Alice (2), B · Bob (2), D · D (2), E · E (2)"),
    ]
    ruled, _ = rules.adjudicate(state)
    (sun, _moon, _still) = PRESENTER.tallies(rules.view(ruled, None), "ja", names)
    assert sun == ("太陽", "取ったラウンド：0\nA · Alice, B · Bob, C · C")


def test_private_board_in_round_one_only() -> None:
    state = opened(dealt(4))
    assert PRESENTER.private_board(rules.view(state, "A"), "A")
    state, _ = rules.resolve(state, {}, NO_DICE, NO_SECRET)
    assert not PRESENTER.private_board(rules.view(state, "A"), "A")
    assert not PRESENTER.private_board(rules.view(opened(state), "A"), "A")


@pytest.mark.parametrize(("players", "seat"), [(3, None), (5, "A"), (11, "K"), (11, None)])
def test_the_board_is_a_png(players: int, seat: str | None) -> None:
    *_, last = game_states(players, seed=1)
    opened_state = opened(dealt(players))
    for state in (opened_state, last):
        view = rules.view(state, seat)
        for lang in ("en", "ja"):
            png = PRESENTER.render_board(view, lang, {"A": "Alice"})
            with Image.open(io.BytesIO(png)) as img:
                assert img.format == "PNG"
                assert img.size == (bids_board.WIDTH, bids_board.height(view))
    # a seat's own board is taller: it shows its team and hand
    assert bids_board.height(rules.view(opened_state, "A")) > bids_board.height(
        rules.view(opened_state, None)
    )
