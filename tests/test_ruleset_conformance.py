"""Every ruleset the registry finds keeps the ruleset contract of ``bot/ruleset.py``.

The tests are parametrised over :func:`bot.registry.rulesets` as it stands at collection time, so
a ruleset in ``cogs/``, installed as a plugin, or registered by a test module collected earlier is
held to the same checks without being named here, and so are the README's example ruleset
(``tests/example_ruleset``) and the hidden-information one (``tests/hidden_ruleset``). Nothing
below knows a game:

1. the spec: the engine has every member of :class:`~bot.ruleset.Engine`, with the protocol's
   parameters; the presenter is a :class:`~bot.ruleset.Presenter`; the seats are consistent;
   every :class:`~bot.ruleset.Ref` loads; the extension has an async ``setup``;
2. states: games played by the ruleset's demo players on committed dice, driven as the table and
   the record replay drive them, round-trip through JSON, and no engine call changes the state
   it is handed;
3. privacy: a seat's view differs from the public one only in ``private_view_fields``, and no
   other seat (nor the public) is shown that seat's private part;
4. words: every event has a sentence in both catalogues, and the presenter's texts render in both
   languages with no ``{placeholder}`` and no bare catalogue key left;
5. outcomes: always an :class:`~bot.ruleset.Outcome`; finished only when nobody is awaited; a
   finished game's ``winner`` is a seat, ``"draw"``, a co-operative result or a list of seats;
6. noninterference (``tests/test_noninterference.py``, on this module's ``play`` machinery): a
   ruleset that defines ``hidden_twin`` behaves alike in public in two games that differ only in
   hidden facts.

Short games (Hypothesis draws the seed and the number of players) check one property per test,
so a failure's name says which ruleset and which property; a few whole games then check the end
of the game, with every property on a sample of the steps on the way (``every-step``, marked
``slow`` and run in CI, on all of them): those are in ``tests/test_ruleset_whole_games.py``, a file
of their own so that a second test worker plays them beside the rest.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import itertools
import json
import marshal
import random
import re
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import dice as dicelib
from bot import registry
from bot.i18n import LANGS, catalogue, t
from bot.ruleset import (
    DRAW,
    ChoiceGroup,
    DemoPlayer,
    Engine,
    Event,
    Order,
    Outcome,
    Presenter,
    RuleError,
    RulesetSpec,
)
from tests.example_ruleset import RULESET as RPS_RULESET
from tests.hidden_ruleset import RULESET as BIDS_RULESET

# The README's minimal example and the hidden-information test ruleset (Sealed Bids), registered
# for these tests only, keep the contract too.
EXAMPLE_RULESET: list[RulesetSpec[Any, Any]] = [RPS_RULESET, BIDS_RULESET]
EXAMPLES = [spec for spec in EXAMPLE_RULESET if spec.key not in registry.rulesets()]
RULESETS = [
    pytest.param(spec, id=key)
    for key, spec in sorted(
        {**registry.rulesets(), **{spec.key: spec for spec in EXAMPLE_RULESET}}.items()
    )
]
per_ruleset = pytest.mark.parametrize("spec", RULESETS)


@pytest.fixture(autouse=True, scope="module")
def _example_registered() -> Iterator[None]:
    for spec in EXAMPLES:
        registry.register(spec)
    yield
    for spec in EXAMPLES:
        registry.unregister(spec.key)


SHORT_GAME_STEPS = 6  # table steps (start_step + resolve) per Hypothesis example
WHOLE_GAME_STEPS = 400  # a whole game stops here if it has not finished
WHOLE_GAME_SEEDS = (1, 2, 3)  # the whole games of tests/test_ruleset_whole_games.py and others
SHORT = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SALT = b"conformance"
NAMES = {
    "en": {s: f"Player {s}" for s in "ABCDEFGH"},
    "ja": {s: f"プレイヤー{s}" for s in "ABCDEFGH"},
}
USERS = {s: 1000 + i for i, s in enumerate("ABCDEFGH")}
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
NOTHING: Any = type("Nothing", (), {"__repr__": lambda self: "<nothing>"})()


# --- playing a game as the table does -------------------------------------------------------------


def committed(seed: int, game_id: str, turn: int, phase: str, digest: str | None = None) -> Any:
    """A committed dice stream (``bot.dice``) whose secret seed follows from ``seed``."""
    secret = hashlib.sha256(f"conformance:{seed}:{turn}:{phase}".encode()).digest()
    return dicelib.DiceStream(secret, dicelib.stream_label(game_id, turn, phase), digest)


@dataclass(frozen=True)
class Step:
    """A state the table would store, with the events that led to it."""

    kind: str  # "setup", "opened" (after start_step) or "resolved"
    turn: int
    state: Any
    events: Sequence[Event]

    @property
    def where(self) -> str:
        return "setup" if self.kind == "setup" else f"turn {self.turn} {self.kind}"


def seats_for(spec: RulesetSpec[Any, Any], players: int) -> tuple[str, ...]:
    return tuple(spec.seats.names[:players])  # the table seats players in the spec's order


def demo_order(spec: RulesetSpec[Any, Any], engine: Any, state: Any, seat: str, rng: Any) -> str:
    """The demo player's order text (on a decoded copy, as the demo hands it), or the default."""
    if spec.demo_player is None:
        return engine.default_order(state, seat).canonical()
    player: DemoPlayer = spec.demo_player.load()
    return player.choose(engine.from_json(engine.to_json(state)), seat, rng)


def play(
    spec: RulesetSpec[Any, Any],
    seed: int,
    seats: Sequence[str],
    steps: int,
    engine: Any = None,
) -> Iterator[Step]:
    """Play a new game for up to ``steps`` table steps, yielding every state the table stores.

    The same calls as ``bot/table.py`` and ``bot/record/replayer.py``: ``new_game`` on the setup
    stream; then, while the game goes on, ``start_step`` on the step's ``pre`` stream, an order
    from the demo player for each awaited seat, and ``resolve`` on the ``resolve`` stream bound to
    the sealed orders. A spec that asks for the secret stream gets one (``{game_id}:0:secret``,
    its draws running on over the whole game), every other :data:`~bot.dice.NO_SECRET`.
    ``engine`` stands in for the spec's (a checking wrapper).
    """
    engine = engine or spec.engine
    rng = random.Random(seed)
    game_id = f"conformance-{seed}"
    setup = committed(seed, game_id, 0, dicelib.PRE)
    secret = (
        committed(seed, game_id, 0, dicelib.SECRET) if spec.secret_stream else dicelib.NO_SECRET
    )
    state = engine.new_game(game_id, list(seats), {}, setup, secret)
    yield Step("setup", 0, state, [])
    for _ in range(steps):
        if engine.outcome(state).finished:
            return
        turn = engine.step_number(state) + 1
        pre = committed(seed, game_id, turn, dicelib.PRE)
        state, started = engine.start_step(state, pre, secret)
        yield Step("opened", turn, state, started)
        orders = {
            seat: engine.parse(state, seat, demo_order(spec, engine, state, seat, rng))
            for seat in engine.awaiting(state)
        }
        receipts = (dicelib.receipt(SALT, orders[s].canonical()) for s in seats if s in orders)
        digest = dicelib.orders_digest(receipts)
        stream = committed(seed, game_id, turn, dicelib.RESOLVE, digest)
        state, events = engine.resolve(state, orders, stream, secret)
        yield Step("resolved", turn, state, events)


def games(spec: RulesetSpec[Any, Any]) -> st.SearchStrategy[tuple[int, tuple[str, ...]]]:
    """A seed and the seats of a game with one of the spec's allowed player counts."""
    sizes = st.sampled_from(spec.seats.allowed())
    return st.tuples(st.integers(0, 2**32 - 1), sizes.map(lambda n: seats_for(spec, n)))


def short_game(
    spec: RulesetSpec[Any, Any], data: st.DataObject
) -> tuple[tuple[str, ...], Iterator[Step]]:
    """The seats of a game Hypothesis draws, and its first steps."""
    seed, seats = data.draw(games(spec), label="seed, seats")
    return seats, play(spec, seed, seats, SHORT_GAME_STEPS)


# --- small helpers --------------------------------------------------------------------------------


def encoded(obj: Any) -> str:
    """Canonical JSON text (also proves ``obj`` is JSON-serialisable)."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False)


def scramble(obj: Any) -> None:
    """Empty every dict and list inside ``obj`` (to find objects shared with something else)."""
    children = (
        obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list | tuple) else ()
    )
    for child in list(children):
        scramble(child)
    if isinstance(obj, dict | list):
        obj.clear()


def children(value: Any) -> list[Any]:
    if isinstance(value, Mapping):
        return list(value.values())
    if isinstance(value, list | tuple):
        return list(value)
    return []


def nested_texts(value: Any) -> set[str]:
    """The canonical texts of ``value`` and of every value nested in it."""
    texts = {encoded(value)}
    for child in children(value):
        texts |= nested_texts(child)
    return texts


class Occurs:
    """Whether a needle is a haystack or any value nested in it (equal as JSON: a tuple is the
    list it holds). Each haystack is taken apart once: a whole game asks about the same views
    thousands of times."""

    def __init__(self) -> None:
        self._texts: dict[int, tuple[Any, set[str]]] = {}

    def __call__(self, needle: Any, haystack: Any) -> bool:
        known = self._texts.get(id(haystack))
        if known is None or known[0] is not haystack:
            known = (haystack, nested_texts(haystack))
            self._texts[id(haystack)] = known
        return encoded(needle) in known[1]


def private_part(value: Any, public: Any) -> Any:
    """What a seat's view shows beyond the public view: the dict entries (at any depth) that
    differ from the public view's, or the whole value where it differs otherwise; NOTHING if
    the two are the same."""
    if value == public:
        return NOTHING
    if isinstance(value, Mapping) and isinstance(public, Mapping):
        part = {}
        for key, item in value.items():
            inner = private_part(item, public.get(key, NOTHING))
            if inner is not NOTHING:
                part[key] = inner
        return part or NOTHING
    return value


def shows(value: Any, part: Any) -> bool:
    """Whether ``value`` shows all of ``part`` in the same places (a private part laid over it)."""
    if isinstance(part, Mapping):
        return isinstance(value, Mapping) and all(
            key in value and shows(value[key], inner) for key, inner in part.items()
        )
    return value == part


def renamed(value: Any, old: str, new: str) -> Any:
    """``value`` with every dict key ``old`` (a seat's entry) called ``new``."""
    if isinstance(value, Mapping):
        return {(new if k == old else k): renamed(v, old, new) for k, v in value.items()}
    return value


def pieces(part: Any) -> Iterator[Any]:
    """The values of a private part below its dicts (its lists and single values)."""
    if isinstance(part, Mapping):
        for value in part.values():
            yield from pieces(value)
    elif part is not NOTHING:
        yield part


def dict_keys(value: Any) -> Iterator[Any]:
    if isinstance(value, Mapping):
        yield from value
    for child in children(value):
        yield from dict_keys(child)


_prefixes: dict[tuple[int, ...], frozenset[str]] = {}


def catalogue_prefixes() -> frozenset[str]:
    """The first parts of the catalogue keys (``arena``, ``game``…), for the catalogues in use
    (a ruleset registered later adds its own)."""
    catalogues = tuple(id(catalogue(lang)) for lang in LANGS)
    if catalogues not in _prefixes:
        keys = (key for lang in LANGS for key in catalogue(lang))
        _prefixes[catalogues] = frozenset(k.split(".", 1)[0] for k in keys if "." in k)
    return _prefixes[catalogues]


def readable(text: Any, what: str) -> None:
    """A text a reader sees: a string with no ``{placeholder}`` and no bare catalogue key."""
    assert isinstance(text, str), f"{what}: {text!r} is not a string"
    left = PLACEHOLDER.findall(text)
    assert not left, f"{what}: placeholder(s) {left} left in {text!r}"
    words = re.findall(r"(?<![\w.])([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)(?![\w.])", text)
    prefixes = catalogue_prefixes()
    keys = [w for w in words if w.split(".", 1)[0] in prefixes]
    assert not keys, f"{what}: untranslated catalogue key(s) {keys} in {text!r}"


def in_both_catalogues(key: str, what: str) -> None:
    missing = [lang for lang in LANGS if key not in catalogue(lang)]
    assert not missing, f"{what}: key {key!r} missing from the {'/'.join(missing)} catalogue"


def protocol_members(proto: type) -> set[str]:
    getter = getattr(typing, "get_protocol_members", None)  # Python 3.13+
    if getter is not None:
        return set(getter(proto))
    members: set[str] = set()
    for cls in proto.__mro__:
        if cls in (object, typing.Generic) or cls.__name__ == "Protocol":
            continue
        members |= {n for n in (*vars(cls), *getattr(cls, "__annotations__", {})) if n[0] != "_"}
    return members


def protocol_parameters(proto: type, name: str) -> list[inspect.Parameter]:
    return list(inspect.signature(getattr(proto, name)).parameters.values())[1:]  # no ``self``


def binds(impl: Callable[..., Any], params: Sequence[inspect.Parameter]) -> None:
    """``impl`` takes the protocol's arguments positionally and by name (extra ones optional)."""
    signature = inspect.signature(impl)
    signature.bind(*(p.name for p in params))
    signature.bind(**{p.name: p.name for p in params})


# --- the checks, one per property (the whole-game test runs them all) -----------------------------


class Checked:
    """The spec's engine, each call checked: the state handed in is unchanged after the call
    (``to_json`` before and after, compared as :func:`snapshot` bytes). ``calls`` counts the
    checked calls by name."""

    STATELESS = frozenset({"check_options", "new_game", "from_json", "to_json", "SCHEMA_VERSION"})

    def __init__(self, spec: RulesetSpec[Any, Any]) -> None:
        self.spec = spec
        self.engine = spec.engine
        self.calls: dict[str, int] = {}
        # The last state checked and its snapshot: the next call on it starts from that rather
        # than taking it again. A change made in between, by anyone, still shows as a
        # difference after that call (it is then blamed on it, which is as good a clue).
        self._last: tuple[Any, bytes] | None = None

    def __getattr__(self, name: str) -> Any:
        member = getattr(self.engine, name)
        if name in self.STATELESS or not callable(member):
            return member

        def call(state: Any, *args: Any, **kwargs: Any) -> Any:
            last = self._last
            before = last[1] if last is not None and last[0] is state else None
            if before is None:
                before = snapshot(self.engine.to_json(state))
            result = member(state, *args, **kwargs)
            after = snapshot(self.engine.to_json(state))
            if after != before:
                where = f"{self.spec.key} turn {self.engine.step_number(state)}"
                raise AssertionError(f"{where}: {name}{args[:1]!r} changed the state it was handed")
            self._last = (state, after)
            self.calls[name] = self.calls.get(name, 0) + 1
            return result

        return call


def snapshot(obj: Any) -> bytes:
    """``obj`` (JSON data) as bytes that change with any change to it, its dicts' order included:
    :mod:`marshal` is many times faster than JSON text, and a whole game takes thousands. Its
    version 2 writes no back-references, which would follow the objects' reference counts."""
    try:
        return marshal.dumps(obj, 2)
    except ValueError:  # not plain data: its canonical JSON (a TypeError if not JSON either)
        return encoded(obj).encode()


def check_round_trip(spec: RulesetSpec[Any, Any], step: Step, seats: Sequence[str]) -> None:
    engine, where = spec.engine, f"{spec.key} {step.where}"
    text = encoded(engine.to_json(step.state))  # TypeError if not JSON
    again = engine.from_json(json.loads(text))
    assert encoded(engine.to_json(again)) == text, f"{where}: from_json(to_json(s)) differs"
    # The table caches decoded states and decodes stored ones: both must read the same.
    for seat in [None, *seats]:
        assert engine.view(again, seat) == engine.view(step.state, seat), (
            f"{where}: view(…, {seat!r}) of the decoded state differs"
        )
    assert engine.awaiting(again) == engine.awaiting(step.state), f"{where}: awaiting differs"
    assert engine.outcome(again) == engine.outcome(step.state), f"{where}: outcome differs"
    assert engine.step_number(again) == engine.step_number(step.state), f"{where}: turn differs"
    assert encoded(engine.summary(again)) == encoded(engine.summary(step.state))


def check_no_shared_objects(spec: RulesetSpec[Any, Any], step: Step) -> None:
    """``to_json``, ``from_json`` and ``view`` copy: the table stores the JSON and caches the state
    and its views (``bot/loaded.py``), so a list shared between them would let a change to one
    alter the other. Emptying every dict and list of one must leave the other as it was."""
    engine, where = spec.engine, f"{spec.key} {step.where}"
    text = encoded(engine.to_json(step.state))
    state = engine.from_json(json.loads(text))  # a copy of our own to spoil
    obj = engine.to_json(state)
    scramble(obj)
    assert encoded(engine.to_json(state)) == text, f"{where}: to_json returns parts of the state"
    obj = json.loads(text)
    state = engine.from_json(obj)
    scramble(obj)
    assert encoded(engine.to_json(state)) == text, f"{where}: from_json keeps parts of its input"
    # Views are cached beside the state and handed to presenters and the renderer: a view that
    # shares a list with the state would let a presenter's edit change the game.
    for seat in (None, *engine.awaiting(state)):
        scramble(engine.view(state, seat))
        assert encoded(engine.to_json(state)) == text, (
            f"{where}: view({seat}) shares the state's parts"
        )


def check_pure_calls(
    spec: RulesetSpec[Any, Any], step: Step, seats: Sequence[str], engine: Checked
) -> None:
    """Every read of a state leaves it as it was (the moves are checked while playing)."""
    state = step.state
    engine.awaiting(state)
    engine.outcome(state)
    engine.summary(state)
    engine.step_number(state)
    for seat in [None, *seats]:
        engine.view(state, seat)
    for seat in seats:
        engine.choices(state, seat)
    for seat in engine.awaiting(state):
        engine.parse(state, seat, engine.default_order(state, seat).canonical())
    if not engine.outcome(state).finished:
        for seat in seats:
            engine.resign(state, seat)


def check_orders(spec: RulesetSpec[Any, Any], step: Step, seats: Sequence[str], seed: int) -> None:
    """Orders parse back from their canonical text; choices are worded and make orders."""
    engine, state = spec.engine, step.state
    where = f"{spec.key} {step.where}"
    rng = random.Random(seed)
    for seat in engine.awaiting(state):
        default = engine.default_order(state, seat)
        demo = engine.parse(state, seat, demo_order(spec, engine, state, seat, rng))
        for order in (default, demo):
            assert isinstance(order, Order), f"{where}: {order!r} has no canonical()"
            text = order.canonical()
            assert engine.parse(state, seat, text).canonical() == text, (
                f"{where}: seat {seat}: {text!r} does not parse back to itself"
            )
        groups: list[ChoiceGroup] = engine.choices(state, seat)
        for group in groups:
            in_both_catalogues(group.label_key, f"{where}: choice group {group.name}")
            for choice in group.choices:
                in_both_catalogues(choice.label_key, f"{where}: choice {choice.token!r}")
                if choice.reason_key is not None:
                    in_both_catalogues(choice.reason_key, f"{where}: reason of {choice.token!r}")
        # One enabled token per group is an order (what the buttons send, group by group), or
        # the tokens up to a choice that is a whole order on its own (Choice.final).
        enabled = [[c for c in g.choices if c.enabled] for g in groups]
        for combo in itertools.islice(itertools.product(*enabled), 64) if groups else ():
            ends = next((i for i, c in enumerate(combo) if c.final), len(combo) - 1)
            text = " ".join(c.token for c in combo[: ends + 1])
            try:
                engine.parse(state, seat, text)
            except RuleError as exc:
                raise AssertionError(f"{where}: seat {seat}: choices {text!r} refused") from exc


def check_view_fields(spec: RulesetSpec[Any, Any], step: Step, seats: Sequence[str]) -> None:
    """A seat's view differs from the public view only in the declared private fields."""
    engine, where = spec.engine, f"{spec.key} {step.where}"
    public = engine.view(step.state, None)
    encoded(public)  # the render worker gets views as JSON
    for seat in seats:
        mine = engine.view(step.state, seat)
        encoded(mine)
        differing = {
            field
            for field in public.keys() | mine.keys()
            if public.get(field, NOTHING) != mine.get(field, NOTHING)
        }
        undeclared = differing - spec.private_view_fields
        assert not undeclared, (
            f"{where}: view(…, {seat!r}) differs from the public view in {sorted(undeclared)}, "
            f"not in private_view_fields {sorted(spec.private_view_fields)}"
        )


def private_parts(spec: RulesetSpec[Any, Any], state: Any, seats: Sequence[str]) -> Any:
    """The views by viewer (None: the public), and each seat's private part of each private
    field (only the seats that have one)."""
    views = {seat: spec.engine.view(state, seat) for seat in [None, *seats]}
    parts: dict[str, dict[str, Any]] = {}
    for field in sorted(spec.private_view_fields):
        public = views[None].get(field, NOTHING)
        for seat in seats:
            part = private_part(views[seat].get(field, NOTHING), public)
            if part is not NOTHING:
                parts.setdefault(field, {})[seat] = part
    return views, parts


def check_no_leak(spec: RulesetSpec[Any, Any], step: Step, seats: Sequence[str]) -> None:
    """No viewer is shown another seat's private part.

    A seat's *private part* of a field is what its view shows there beyond the public view: the
    dict entries, at any depth, that differ from the public view's (the arena's ``dice``:
    ``{"A": [6, 5, 3]}``; the dungeon's ``you``: the whole block, absent from the public view).
    Stated without knowing the game, for every other viewer (each other seat, and the public):

    1. its view of the field does not show the owner's part in the same places (the owner's dice
       under the owner's name; a view that ignores which seat asks);
    2. the owner's part does not appear whole anywhere in its view (a block nested elsewhere);
    3. (other seats) no list in the owner's part that the viewer has not got in the same place
       (under its own name) appears in the viewer's own private part (a hand copied elsewhere);

    and the owner's part files nothing under another seat's name. Single values (a die, a card
    id) are not searched for, nor lists found in the public view: a viewer may hold an equal one.
    """
    views, parts = private_parts(spec, step.state, seats)
    where = f"{spec.key} {step.where}"
    occurs = Occurs()
    for field, by_seat in parts.items():
        for owner, part in by_seat.items():
            others = [s for s in seats if s != owner]
            strangers = sorted(set(dict_keys(part)) & set(others))
            assert not strangers, (
                f"{where}: view(…, {owner!r})[{field!r}] shows entries of seat(s) {strangers}"
            )
            for viewer in [None, *others]:
                view = views[viewer]
                assert not shows(view.get(field, NOTHING), part), (
                    f"{where}: view(…, {viewer!r})[{field!r}] shows seat {owner}'s private {part!r}"
                )
                assert not occurs(part, view), (
                    f"{where}: view(…, {viewer!r}) contains seat {owner}'s private {field!r}"
                )
            for viewer in others:
                own = views[viewer].get(field, NOTHING)
                unlike = private_part(renamed(part, owner, viewer), own)  # not the viewer's too
                for value in pieces(unlike):
                    if isinstance(value, list) and value and not occurs(value, views[None]):
                        assert not occurs(value, own), (
                            f"{where}: view(…, {viewer!r})[{field!r}] contains {value!r} "
                            f"from seat {owner}'s private part"
                        )


def check_events(spec: RulesetSpec[Any, Any], step: Step) -> None:
    """Every event has a sentence in both catalogues, and the log renders in both languages."""
    where = f"{spec.key} {step.where}"
    present: Presenter = spec.presenter
    events = []
    for event in step.events:
        assert isinstance(event, Event), f"{where}: {event!r} is not a bot.ruleset.Event"
        events.append(json.loads(encoded(event.to_json())))  # stored as JSON by the table
    for event in events:
        key = present.event_key(event)
        if key is not None:  # None: bookkeeping the log leaves out on purpose
            in_both_catalogues(key, f"{where}: event {event['type']!r}")
    for lang in LANGS:
        for line in present.event_lines(events, lang, NAMES[lang]):
            readable(line, f"{where}: {lang} event line")


def check_state_texts(spec: RulesetSpec[Any, Any], step: Step, seats: Sequence[str]) -> None:
    """What the channel post and the DMs say about this state renders in both languages."""
    engine, present = spec.engine, spec.presenter
    where = f"{spec.key} {step.where}"
    public = engine.view(step.state, None)
    turn = engine.step_number(step.state)
    for lang in LANGS:
        names = NAMES[lang]
        readable(present.step_name(public, lang, turn), f"{where}: {lang} step_name")
        for name, value in present.tallies(public, lang, names):
            readable(name, f"{where}: {lang} tally name")
            readable(value, f"{where}: {lang} tally {name!r}")
        for seat in seats:
            for line in present.private_lines(engine.view(step.state, seat), seat, lang):
                readable(line, f"{where}: {lang} private line of {seat}")
        for seat in engine.awaiting(step.state):
            for group in engine.choices(step.state, seat):
                readable(t(lang, group.label_key), f"{where}: {lang} {group.name} label")
                for choice in group.choices:
                    readable(choice.label(lang), f"{where}: {lang} {choice.token!r} label")


def check_turns(spec: RulesetSpec[Any, Any], steps: Iterator[Step]) -> Iterator[Step]:
    """Each step opened is the next turn (passes the steps on, checked)."""
    previous = 0
    for step in steps:
        turn = spec.engine.step_number(step.state)
        assert isinstance(turn, int), f"{spec.key} {step.where}: turn() gave {turn!r}"
        if step.kind == "opened":
            assert turn == previous + 1, f"{spec.key} {step.where}: turn() is {turn}"
        previous = turn
        yield step


def check_outcome(spec: RulesetSpec[Any, Any], step: Step, seats: Sequence[str]) -> Outcome:
    engine, where = spec.engine, f"{spec.key} {step.where}"
    outcome = engine.outcome(step.state)
    assert isinstance(outcome, Outcome), f"{where}: outcome() gave {outcome!r}"
    assert Outcome.from_json(json.loads(encoded(outcome.to_json()))) == outcome
    awaited = engine.awaiting(step.state)
    assert isinstance(awaited, list), f"{where}: awaiting() gave {awaited!r}"
    assert set(awaited) <= set(seats) and len(set(awaited)) == len(awaited), (
        f"{where}: awaiting() gave {awaited!r} for seats {list(seats)}"
    )
    if outcome.finished:
        assert not awaited, f"{where}: finished, yet {awaited} are awaited"
        check_winner(spec, outcome, seats, where)
    else:
        assert outcome.winner is None, f"{where}: unfinished game with a winner"
        if step.kind == "opened":  # the table waits for the awaited seats: someone must be
            assert awaited, f"{where}: a step opened on a game going on awaits nobody"
    return outcome


def check_winner(
    spec: RulesetSpec[Any, Any], outcome: Outcome, seats: Sequence[str], where: str
) -> None:
    winner = outcome.winner
    if isinstance(winner, list):
        ok = len(winner) > 1 and set(winner) <= set(seats)
    elif outcome.coop is not None:
        ok = winner == outcome.coop and bool(winner) and winner not in (*seats, DRAW)
    else:
        ok = winner == DRAW or winner in seats
    assert ok, f"{where}: a finished game's winner is {winner!r} ({outcome!r})"
    assert set(outcome.winners) <= set(seats), f"{where}: winners {outcome.winners} not seated"
    assert set(outcome.grades) <= set(seats), f"{where}: grades for {set(outcome.grades)}"


def check_outcome_text(
    spec: RulesetSpec[Any, Any], outcome: Outcome, where: str, end_reason: str
) -> None:
    for lang in LANGS:
        text = spec.presenter.outcome_text(outcome, lang, USERS, end_reason)
        readable(text, f"{spec.key} {where}: {lang} outcome_text")
        assert text.strip(), f"{spec.key} {where}: {lang} outcome_text is empty"


def check_resign(spec: RulesetSpec[Any, Any], step: Step, seats: Sequence[str]) -> None:
    """Any seat may resign a game that goes on: the game ends and the ending is worded, or, in a
    game of more than two seats whose ruleset says so, it goes on for the others and the seat
    that left is awaited no more."""
    engine = spec.engine
    if engine.outcome(step.state).finished:
        return
    for seat in seats:
        where = f"{step.where}, {seat} resigned"
        state, events = engine.resign(step.state, seat)
        after = Step("resigned", step.turn, state, events)
        outcome = check_outcome(spec, after, seats)
        check_round_trip(spec, after, seats)
        check_events(spec, after)
        if outcome.finished:
            check_outcome_text(spec, outcome, where, "resign")
            continue
        assert len(seats) > 2, f"{spec.key} {where}: the game goes on"
        assert seat not in engine.awaiting(state), f"{spec.key} {where}: {seat} is still awaited"


# --- 1. the spec ----------------------------------------------------------------------------------


@per_ruleset
def test_engine_has_every_protocol_member(spec: RulesetSpec[Any, Any]) -> None:
    members = protocol_members(Engine)
    assert "resolve" in members and "SCHEMA_VERSION" in members  # the protocol was read
    missing = sorted(m for m in members if not hasattr(spec.engine, m))
    assert not missing, f"{spec.key}: the engine lacks {missing}"
    hints = typing.get_type_hints(Engine)
    for name in sorted(members):
        protocol_member = getattr(Engine, name, None)
        if callable(protocol_member):
            assert callable(getattr(spec.engine, name)), f"{spec.key}: {name} is not callable"
        elif isinstance(hints.get(name), type):
            value = getattr(spec.engine, name)
            assert isinstance(value, hints[name]), f"{spec.key}: {name} = {value!r}"


@per_ruleset
def test_engine_signatures_match_the_protocol(spec: RulesetSpec[Any, Any]) -> None:
    for name in sorted(protocol_members(Engine)):
        if not callable(getattr(Engine, name, None)):
            continue
        params = protocol_parameters(Engine, name)
        impl = getattr(spec.engine, name)
        have = list(inspect.signature(impl).parameters.values())
        assert [p.name for p in have[: len(params)]] == [p.name for p in params], (
            f"{spec.key}: {name}{inspect.signature(impl)} does not take the protocol's "
            f"({', '.join(p.name for p in params)})"
        )
        extra = [p for p in have[len(params) :] if p.default is p.empty]
        extra = [p for p in extra if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        assert not extra, f"{spec.key}: {name} also requires {[p.name for p in extra]}"
        binds(impl, params)


@per_ruleset
def test_presenter_is_a_presenter(spec: RulesetSpec[Any, Any]) -> None:
    assert isinstance(spec.presenter, Presenter), f"{spec.key}: {spec.presenter!r}"
    assert isinstance(spec.key, str) and spec.key
    assert registry.get(spec.key) is spec  # the registry hands out this very spec


@per_ruleset
def test_seat_spec_is_consistent(spec: RulesetSpec[Any, Any]) -> None:
    names, allowed, demo = spec.seats.names, spec.seats.allowed(), spec.seats.for_demo()
    assert names and len(set(names)) == len(names), f"{spec.key}: seat names {names}"
    assert all(isinstance(n, str) and n for n in names), f"{spec.key}: seat names {names}"
    assert allowed and all(1 <= n <= len(names) for n in allowed), (
        f"{spec.key}: allowed player counts {allowed} for {len(names)} seats"
    )
    # The table seats n players in the first n seats: the demo's seats are such a prefix.
    assert demo == names[: len(demo)], f"{spec.key}: demo seats {demo} of {names}"
    assert len(demo) in allowed, f"{spec.key}: {len(demo)} demo seats, allowed {allowed}"
    fields = spec.private_view_fields
    assert isinstance(fields, frozenset) and all(isinstance(f, str) for f in fields), fields


@per_ruleset
def test_refs_load(spec: RulesetSpec[Any, Any]) -> None:
    if spec.demo_player is not None:
        player = spec.demo_player.load()
        assert callable(getattr(player, "choose", None)), f"{spec.key}: demo player lacks choose"
        # bot/demo.py calls it positionally (the third may be named ``dice``, ``rng``…)
        count = len(protocol_parameters(DemoPlayer, "choose"))
        inspect.signature(player.choose).bind(*range(count))
    if spec.sheet_builder is not None:
        assert callable(spec.sheet_builder.load()), f"{spec.key}: sheet_builder is not callable"
    for command in spec.cli:
        assert command.name and command.help, f"{spec.key}: CLI command {command!r}"
        module = command.module.load()
        for hook in ("add_arguments", "run"):
            assert callable(getattr(module, hook, None)), f"{spec.key}: {command.name} lacks {hook}"
    for kind, ref in spec.view_kinds.items():
        assert ref.load() is not None, f"{spec.key}: view kind {kind!r}"
    if spec.locales is not None:
        assert spec.locales.is_dir(), f"{spec.key}: no locales folder {spec.locales}"


@per_ruleset
def test_extension_has_async_setup(spec: RulesetSpec[Any, Any]) -> None:
    if spec.extension is None:
        return  # a ruleset without commands of its own
    setup = getattr(importlib.import_module(spec.extension), "setup", None)
    assert inspect.iscoroutinefunction(setup), f"{spec.key}: {spec.extension}.setup is not async"


@per_ruleset
def test_presenter_texts_render_in_both_languages(spec: RulesetSpec[Any, Any]) -> None:
    present = spec.presenter
    params = {"challenger": "<@1000>", "opponent": "<@1001>", "game": "g1"}
    leftovers = {}
    for lang in LANGS:
        readable(present.title(lang), f"{spec.key} {lang} title")
        readable(present.how_to_play(lang), f"{spec.key} {lang} how_to_play")
        readable(present.order_help(lang), f"{spec.key} {lang} order_help")
        accepted = present.accepted_text(lang, game="g1", user="<@1001>")  # as bot/views.py
        readable(accepted, f"{spec.key} {lang} accepted_text")
        # The invitation may ask for the cog's own ``text_params`` (a map's name): those are
        # left as placeholders here, but they must be the same in both languages.
        text = present.challenge_text(lang, **params)
        leftovers[lang] = set(PLACEHOLDER.findall(text))
        readable(PLACEHOLDER.sub("…", text), f"{spec.key} {lang} challenge_text")
    assert len({frozenset(v) for v in leftovers.values()}) == 1, f"{spec.key}: {leftovers}"


# --- 2-5. short games, one property each ----------------------------------------------------------


@per_ruleset
@SHORT
@given(data=st.data())
def test_states_round_trip_through_json(spec: RulesetSpec[Any, Any], data: st.DataObject) -> None:
    seats, steps = short_game(spec, data)
    for step in steps:
        check_round_trip(spec, step, seats)


@per_ruleset
@SHORT
@given(data=st.data())
def test_json_and_state_share_no_objects(spec: RulesetSpec[Any, Any], data: st.DataObject) -> None:
    _seats, steps = short_game(spec, data)
    for step in steps:
        check_no_shared_objects(spec, step)


@per_ruleset
@SHORT
@given(data=st.data())
def test_engine_calls_do_not_mutate_state(spec: RulesetSpec[Any, Any], data: st.DataObject) -> None:
    seed, seats = data.draw(games(spec), label="seed, seats")
    engine = Checked(spec)
    for step in play(spec, seed, seats, SHORT_GAME_STEPS, engine):
        check_pure_calls(spec, step, seats, engine)
    assert {"start_step", "resolve", "parse", "view"} <= set(engine.calls), engine.calls


@per_ruleset
@SHORT
@given(data=st.data())
def test_orders_and_choices_parse(spec: RulesetSpec[Any, Any], data: st.DataObject) -> None:
    seed, seats = data.draw(games(spec), label="seed, seats")
    for step in play(spec, seed, seats, SHORT_GAME_STEPS):
        check_orders(spec, step, seats, seed)


@per_ruleset
@SHORT
@given(data=st.data())
def test_views_differ_only_in_private_fields(
    spec: RulesetSpec[Any, Any], data: st.DataObject
) -> None:
    seats, steps = short_game(spec, data)
    for step in steps:
        check_view_fields(spec, step, seats)


@per_ruleset
@SHORT
@given(data=st.data())
def test_no_seat_sees_another_seats_private_view(
    spec: RulesetSpec[Any, Any], data: st.DataObject
) -> None:
    seats, steps = short_game(spec, data)
    for step in steps:
        check_no_leak(spec, step, seats)


@per_ruleset
@SHORT
@given(data=st.data())
def test_events_have_sentences_in_both_languages(
    spec: RulesetSpec[Any, Any], data: st.DataObject
) -> None:
    _seats, steps = short_game(spec, data)
    for step in steps:
        check_events(spec, step)


@per_ruleset
@SHORT
@given(data=st.data())
def test_state_texts_render_in_both_languages(
    spec: RulesetSpec[Any, Any], data: st.DataObject
) -> None:
    seats, steps = short_game(spec, data)
    for step in steps:
        check_state_texts(spec, step, seats)


@per_ruleset
@SHORT
@given(data=st.data())
def test_outcome_is_well_formed(spec: RulesetSpec[Any, Any], data: st.DataObject) -> None:
    seats, steps = short_game(spec, data)
    for step in steps:
        check_outcome(spec, step, seats)


@per_ruleset
@SHORT
@given(data=st.data())
def test_any_seat_may_resign(spec: RulesetSpec[Any, Any], data: st.DataObject) -> None:
    seats, steps = short_game(spec, data)
    for step in steps:
        if step.kind != "resolved":  # the table takes a resignation between steps too
            check_resign(spec, step, seats)


@per_ruleset
@SHORT
@given(data=st.data())
def test_turns_advance_one_step_at_a_time(spec: RulesetSpec[Any, Any], data: st.DataObject) -> None:
    """The table labels a step's dice ``turn(state) + 1`` before ``start_step`` and stores
    ``turn(state)`` after it (so does the record replay): the two must agree."""
    _seats, steps = short_game(spec, data)
    for _step in check_turns(spec, steps):
        pass


def test_occurs_finds_a_value_nested_anywhere() -> None:
    occurs = Occurs()
    view = {"a": [1, {"hand": [3, 4]}], "b": (5, 6), "c": "x"}
    for needle in ([3, 4], {"hand": [3, 4]}, [5, 6], (3, 4), "x", view):
        assert occurs(needle, view), needle
    for needle in ([4, 3], {"hand": [3]}, [1, {"hand": [3]}], "y"):
        assert not occurs(needle, view), needle


class _CopiesAHand:
    """Sealed Bids whose public view (and B's) also shows A's private block: a leak."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def view(self, state: Any, seat: str | None) -> Any:
        view = self.engine.view(state, seat)
        if seat in (None, "B"):
            view = {**view, "log": [self.engine.view(state, "A")["you"]]}
        return view


def test_the_leak_check_finds_a_copied_private_block() -> None:
    seats = seats_for(BIDS_RULESET, 3)
    leaky = replace(BIDS_RULESET, engine=_CopiesAHand(BIDS_RULESET.engine))
    step = next(s for s in play(BIDS_RULESET, 1, seats, 4) if s.kind != "resolved")
    check_no_leak(BIDS_RULESET, step, seats)  # the ruleset itself keeps its hands
    with pytest.raises(AssertionError, match="private"):
        check_no_leak(leaky, step, seats)


def test_checked_catches_a_call_that_changes_its_state_even_after_a_clean_one() -> None:
    """Negative control for :class:`Checked`, which reuses the last call's JSON of a state."""

    class Spoiling:
        def to_json(self, state: dict[str, int]) -> dict[str, int]:
            return dict(state)

        def step_number(self, state: dict[str, int]) -> int:
            return 1

        def view(self, state: dict[str, int], seat: str | None) -> dict[str, int]:
            return dict(state)

        def summary(self, state: dict[str, int]) -> dict[str, int]:
            state["hp"] -= 1  # the bug: a read that spends HP
            return dict(state)

    engine = Checked(SimpleNamespace(key="spoiling", engine=Spoiling()))  # type: ignore[arg-type]
    state = {"hp": 3}
    engine.view(state, None)
    engine.view(state, "A")
    with pytest.raises(AssertionError, match=r"summary.*changed the state"):
        engine.summary(state)
    state = {"hp": 3}
    engine.view(state, None)
    state["hp"] = 9  # changed between two checked calls: the next call says so
    with pytest.raises(AssertionError, match="changed the state"):
        engine.view(state, None)
