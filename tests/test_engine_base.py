"""``bot.ruleset.BaseEngine``: each default on a small engine of its own, the ``resolve``
preamble's refusals, the JSON through the state's dataclass fields, and the hidden-information
hooks a spec takes from a class engine.

The engine here, "first to five": each step every seat picks 1, 2 or 3 (the default is 1); the
picks are added to the seats' totals and the first total to reach five wins.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import pytest

from bot import state_json
from bot.dice import ScriptedDice
from bot.i18n import LANGS, t
from bot.ruleset import (
    ENGINE_HOOKS,
    BaseEngine,
    Engine,
    Event,
    GameState,
    OrderRejected,
    Outcome,
    Presenter,
    RuleError,
    RulesetSpec,
    SeatSpec,
    StateError,
)
from cogs.arena import RULESET as ARENA
from cogs.esper import RULESET as ESPER

NO_DICE = ScriptedDice([])
TARGET = 5


@dataclass(frozen=True)
class Pick:
    n: int

    def canonical(self) -> str:
        return str(self.n)


@dataclass(frozen=True)
class CountState(GameState):
    totals: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if any(total < 0 for total in self.totals.values()):
            raise ValueError("a negative total")


class FirstToFive(BaseEngine[CountState, Pick]):
    state_type = CountState
    played: list[tuple[CountState, dict[str, Pick]]]

    def __init__(self) -> None:
        self.played = []  # what play was handed, call by call

    def parse(self, state: CountState, seat: str, text: str) -> Pick:
        self.check_seat(state, seat)
        if text.strip() not in ("1", "2", "3"):
            raise OrderRejected("count.reject.pick", word=text)  # (no catalogue: a test engine)
        return Pick(int(text))

    def default_order(self, state: CountState, seat: str) -> Pick:
        return Pick(1)

    def play(
        self, state: CountState, orders: Mapping[str, Pick], dice: Any, secret: Any
    ) -> tuple[CountState, list[Event]]:
        self.played.append((state, dict(orders)))
        totals = {
            s: state.totals.get(s, 0) + (orders[s].n if s in orders else 0) for s in state.seats
        }
        winners = [s for s in state.seats if totals[s] >= TARGET]
        result = Outcome.win(*winners, reason="count") if winners else state.result
        return replace(state, totals=totals, result=result), [Event("added", totals)]


ENGINE = FirstToFive()


def opened(seats: tuple[str, ...] = ("A", "B"), engine: FirstToFive = ENGINE) -> CountState:
    state, events = engine.start_step(engine.new_game("g", seats, {}, NO_DICE), NO_DICE)
    assert events == []
    return state


def refused(error: pytest.ExceptionInfo[RuleError], key: str, **params: Any) -> None:
    assert (error.value.key, error.value.params) == (key, params)


# --- the lifecycle ---------------------------------------------------------------------------


def test_new_game_builds_the_state_type_with_its_defaults() -> None:
    state = ENGINE.new_game("g-1", ["A", "B", "C"], {}, NO_DICE)
    assert state == CountState(game_id="g-1", seats=("A", "B", "C"))
    assert (state.step, state.open, state.result, state.totals) == (0, False, Outcome(), {})
    assert ENGINE.outcome(state) == Outcome.ongoing() and ENGINE.awaiting(state) == []


def test_check_options_refuses_what_the_class_does_not_declare() -> None:
    ENGINE.check_options({})
    with pytest.raises(RuleError) as error:
        ENGINE.check_options({"target": 7, "bonus": 1})
    refused(error, "engine.unknown_option", option="bonus")  # the first, in order
    with pytest.raises(RuleError):
        ENGINE.new_game("g", ["A", "B"], {"target": 7}, NO_DICE)

    class WithTarget(FirstToFive):
        OPTIONS = frozenset({"target"})

    WithTarget().check_options({"target": 7})


def test_start_step_opens_the_next_step_and_refuses_twice_or_after_the_end() -> None:
    state = opened()
    assert (state.step, state.open) == (1, True)
    assert ENGINE.awaiting(state) == ["A", "B"]  # every seat, at once
    with pytest.raises(RuleError) as error:
        ENGINE.start_step(state, NO_DICE)
    refused(error, "engine.still_open", step=1)
    over = replace(state, open=False, result=Outcome.win("A"))
    with pytest.raises(RuleError) as error:
        ENGINE.start_step(over, NO_DICE)
    refused(error, "engine.finished")
    assert ENGINE.awaiting(replace(state, result=Outcome.win("A"))) == []


def test_turn_and_step_label() -> None:
    state = opened()
    assert (ENGINE.step_number(state), ENGINE.step_label(state)) == (1, "turn 1")

    class Rounds(FirstToFive):
        STEP_NAME = "round"

    assert Rounds().step_label(replace(state, step=4)) == "round 4"


# --- resolve: the preamble, then play ----------------------------------------------------------


def test_resolve_parses_text_and_plays_the_default_for_a_missing_order() -> None:
    engine = FirstToFive()
    state = opened(("A", "B", "C"), engine)
    new, events = engine.resolve(state, {"A": "3", "B": Pick(2)}, NO_DICE)
    ((handed, orders),) = engine.played
    assert orders == {"A": Pick(3), "B": Pick(2), "C": Pick(1)}  # C sent nothing: its default
    assert handed.open is False and handed.step == 1  # the step is closed before play
    assert new.totals == {"A": 3, "B": 2, "C": 1} and [e.type for e in events] == ["added"]
    assert state.open is True and state.totals == {}  # the state handed in is unchanged
    with pytest.raises(OrderRejected):
        engine.resolve(state, {"A": "7"}, NO_DICE)  # text is parsed: and refused


def test_resolve_plays_only_the_awaited_seats() -> None:
    class OneAtATime(FirstToFive):
        def awaiting(self, state: CountState) -> list[str]:
            return [state.seats[(state.step - 1) % len(state.seats)]] if state.open else []

    engine = OneAtATime()
    engine.resolve(opened(engine=engine), {"A": "2", "B": "3"}, NO_DICE)
    assert engine.played[0][1] == {"A": Pick(2)}  # B's order, for a seat not awaited, is not


def test_resolve_hands_play_a_copy_it_may_change() -> None:
    class Mutating(FirstToFive):
        def play(
            self, state: CountState, orders: Mapping[str, Pick], dice: Any, secret: Any
        ) -> tuple[CountState, list[Event]]:
            state.totals["A"] = 99  # a nested container, changed in place
            return state, []

    engine = Mutating()
    state = replace(opened(engine=engine), totals={"A": 1, "B": 0})
    new, _ = engine.resolve(state, {}, NO_DICE)
    assert new.totals["A"] == 99 and state.totals == {"A": 1, "B": 0}


def test_resolve_refuses_a_finished_game_and_a_step_not_open() -> None:
    state = opened()
    with pytest.raises(RuleError) as error:
        ENGINE.resolve(replace(state, open=False), {}, NO_DICE)
    refused(error, "engine.not_open", step=1)
    with pytest.raises(RuleError) as error:
        ENGINE.resolve(replace(state, result=Outcome.drawn()), {}, NO_DICE)
    refused(error, "engine.finished")


def test_a_game_ends_in_play() -> None:
    state = opened()
    for _ in range(2):
        state, _ = ENGINE.resolve(state, {"A": "3", "B": "1"}, NO_DICE)
        if not ENGINE.outcome(state).finished:
            state, _ = ENGINE.start_step(state, NO_DICE)
    assert ENGINE.outcome(state) == Outcome.win("A", reason="count")
    assert ENGINE.awaiting(state) == []


# --- resign ---------------------------------------------------------------------------------


def test_resign_the_other_seat_wins() -> None:
    state, events = ENGINE.resign(opened(), "A")
    assert [e.to_json() for e in events] == [{"type": "resigned", "seat": "A", "winner": "B"}]
    assert ENGINE.outcome(state) == Outcome.win("B", reason="resign")
    assert ENGINE.awaiting(state) == [] and not state.open


def test_resign_in_a_game_of_more_the_others_win() -> None:
    state, events = ENGINE.resign(opened(("A", "B", "C")), "B")
    assert events[0].to_json() == {"type": "resigned", "seat": "B", "winners": ["A", "C"]}
    assert ENGINE.outcome(state).winners == ("A", "C")


def test_resign_refuses_a_finished_game_and_a_stranger() -> None:
    state, _ = ENGINE.resign(opened(), "A")
    with pytest.raises(OrderRejected) as error:
        ENGINE.resign(state, "B")
    refused(error, "engine.finished")
    with pytest.raises(OrderRejected) as error:
        ENGINE.resign(opened(), "Z")
    refused(error, "engine.not_seated", seat="Z")


# --- views, summary, choices ------------------------------------------------------------------


def test_view_is_the_whole_state_to_everyone_and_summary_the_public_view() -> None:
    state, _ = ENGINE.resolve(opened(), {"A": "2"}, NO_DICE)
    public = ENGINE.view(state, None)
    assert public == {
        "seats": ["A", "B"],
        "step": 1,
        "open": False,
        "result": {"finished": False},
        "totals": {"A": 2, "B": 1},
    }
    assert ENGINE.view(state, "A") == ENGINE.view(state, "B") == public
    assert ENGINE.summary(state) == public
    assert ENGINE.choices(state, "A") == []  # no buttons: orders are typed


# --- JSON -------------------------------------------------------------------------------------


def test_state_round_trips_through_json_sharing_nothing() -> None:
    state, _ = ENGINE.resign(ENGINE.resolve(opened(), {"A": "3"}, NO_DICE)[0], "B")
    obj = ENGINE.to_json(state)
    assert obj["schema"] == ENGINE.SCHEMA_VERSION and obj["seats"] == ["A", "B"]
    again = ENGINE.from_json(json.loads(json.dumps(obj)))
    assert again == state and isinstance(again.seats, tuple)
    obj["totals"]["A"] = 50  # the JSON is new objects: the state does not move with it
    assert state.totals["A"] == 3
    loaded = ENGINE.from_json(ENGINE.to_json(state))
    assert loaded.totals is not state.totals


def test_from_json_refuses_another_schema() -> None:
    obj = ENGINE.to_json(opened())
    for schema in (2, None, True, "1"):
        with pytest.raises(StateError) as error:
            ENGINE.from_json({**obj, "schema": schema})
        refused(error, "engine.bad_schema", found=repr(schema), expected=1)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"totals": {"A": "3"}}, "totals.A"),  # of another type
        ({"step": True}, "step"),  # a bool is not a count
        ({"seats": "AB"}, "seats"),
        ({"result": "won"}, "result"),
        ({"extra": 1}, "extra"),  # a field the state does not have
        ({"totals": {"A": -1}}, "CountState"),  # the state's own check
    ],
)
def test_from_json_refuses_a_malformed_state(change: dict[str, Any], reason: str) -> None:
    obj = {**ENGINE.to_json(opened()), **change}
    with pytest.raises(StateError) as error:
        ENGINE.from_json(obj)
    refused(error, "engine.bad_state", reason=reason)
    missing = ENGINE.to_json(opened())
    del missing["open"]
    with pytest.raises(StateError) as error:
        ENGINE.from_json(missing)
    refused(error, "engine.bad_state", reason="open")


@dataclass(frozen=True)
class Inner:
    at: tuple[int, int]
    side: Literal["light", "dark"] = "light"


@dataclass(frozen=True)
class Everything:
    units: tuple[Inner, ...]
    by_turn: Mapping[int, float]
    tags: frozenset[str]
    note: str | None
    anything: Any


def test_state_json_types() -> None:
    value = Everything(
        (Inner((1, 2)), Inner((3, 4), "dark")), {3: 1.5, 10: 2}, frozenset({"b", "a"}), None, [1]
    )
    obj = state_json.encode(value)
    assert obj == {
        "units": [{"at": [1, 2], "side": "light"}, {"at": [3, 4], "side": "dark"}],
        "by_turn": {"3": 1.5, "10": 2},
        "tags": ["a", "b"],
        "note": None,
        "anything": [1],
    }
    again = state_json.decode_fields(Everything, json.loads(json.dumps(obj)))
    assert again == value and again.by_turn == {3: 1.5, 10: 2.0}
    bad = {**obj, "units": [{"at": [1, 2], "side": "grey"}]}
    with pytest.raises(state_json.Malformed, match=r"units\.0\.side"):
        state_json.decode_fields(Everything, bad)
    with pytest.raises(state_json.Malformed, match=r"units\.0\.at"):
        state_json.decode_fields(Everything, {**obj, "units": [{"at": [1], "side": "dark"}]})
    with pytest.raises(state_json.Malformed, match=r"by_turn\.x"):
        state_json.decode_fields(Everything, {**obj, "by_turn": {"x": 1}})


# --- the contract, the words, the hooks ---------------------------------------------------------


def test_an_engine_lacking_the_game_cannot_be_made() -> None:
    class NoPlay(BaseEngine[CountState, Pick]):
        state_type = CountState

        def parse(self, state: CountState, seat: str, text: str) -> Pick:
            return Pick(1)

        def default_order(self, state: CountState, seat: str) -> Pick:
            return Pick(1)

    with pytest.raises(TypeError, match="play"):
        NoPlay()


def test_an_instance_has_every_member_of_the_protocol() -> None:
    engine: Engine[CountState, Pick] = ENGINE  # mypy holds it to the protocol too
    members = {n for n in vars(Engine) if not n.startswith("_")} | {"SCHEMA_VERSION"}
    assert all(callable(getattr(engine, n)) for n in members - {"SCHEMA_VERSION"})
    assert engine.SCHEMA_VERSION == 1


def test_every_refusal_reads_in_both_languages() -> None:
    params = {
        "engine.finished": {},
        "engine.not_seated": {"seat": "Z"},
        "engine.not_open": {"step": 3},
        "engine.still_open": {"step": 3},
        "engine.unknown_option": {"option": "bonus"},
        "engine.bad_schema": {"found": "2", "expected": 1},
        "engine.bad_state": {"reason": "step"},
    }
    keys = {getattr(BaseEngine, n) for n in dir(BaseEngine) if n.isupper() and n != "STEP_NAME"}
    assert keys - {BaseEngine.OPTIONS, BaseEngine.SCHEMA_VERSION} == set(params)
    for key, given in params.items():
        for lang in LANGS:
            sentence = t(lang, key, **given)
            assert sentence != key and "{" not in sentence, (lang, key)


class Hidden(FirstToFive):
    secret_stream = True
    private_view_fields = frozenset({"you"})

    def withheld(self, state: CountState, seat: str) -> bool:
        return seat == "A"

    def step_seconds(self, state: CountState) -> int | None:
        return 60

    def post_group(self, state: CountState) -> str | None:
        return "round"

    def adjudicate(self, state: CountState) -> tuple[CountState, list[Event]]:
        return replace(state, result=Outcome.drawn("adjudicated")), []

    def hidden_twin(self, state: CountState, rng: random.Random) -> CountState | None:
        return None


def spec_of(engine: FirstToFive, **fields: Any) -> RulesetSpec[CountState, Pick]:
    return RulesetSpec("count", engine, Presenter("count"), SeatSpec(("A", "B")), **fields)


def test_hooks_default_to_none_off_or_empty() -> None:
    spec = spec_of(ENGINE)
    assert (spec.secret_stream, spec.private_view_fields) == (False, frozenset())
    assert all(getattr(ENGINE, name) in (None, False, frozenset()) for name in ENGINE_HOOKS)
    assert [getattr(spec, n) for n in ENGINE_HOOKS[2:]] == [None] * 5


def test_the_spec_takes_the_hooks_a_class_engine_declares() -> None:
    engine = Hidden()
    spec = spec_of(engine)
    state = opened(engine=engine)
    assert spec.secret_stream and spec.private_view_fields == {"you"}
    assert spec.withheld is not None and spec.withheld(state, "A") and not spec.withheld(state, "B")
    assert spec.step_seconds is not None and spec.step_seconds(state) == 60
    assert spec.post_group is not None and spec.post_group(state) == "round"
    assert spec.adjudicate is not None and spec.adjudicate(state)[0].result.draw
    assert spec.hidden_twin is not None and spec.hidden_twin(state, random.Random(1)) is None
    # what the spec sets itself stays
    own = spec_of(engine, step_seconds=lambda state: 5, private_view_fields=frozenset({"hand"}))
    assert own.step_seconds is not None and own.step_seconds(state) == 5
    assert own.private_view_fields == {"hand"}
    assert replace(spec, key="count2").withheld == spec.withheld


def test_module_engines_specs_are_as_they_were() -> None:
    # The five bundled rulesets' engines are modules: their specs name their hooks themselves.
    assert not isinstance(ARENA.engine, BaseEngine) and ARENA.withheld is None
    assert ARENA.private_view_fields == {"dice"} and not ARENA.secret_stream
    assert ESPER.withheld is ESPER.engine.withheld
    assert ESPER.post_group is not None and ESPER.secret_stream
