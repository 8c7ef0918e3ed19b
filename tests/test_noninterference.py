"""Noninterference: what the bot does in public depends on public facts only (issue 30).

The ruleset conformance suite's check for hidden-information games, as their servers test
fairness ("unwinding" noninterference). A ruleset that can say which worlds the public cannot tell
apart defines ``RulesetSpec.hidden_twin(state, rng)`` (``bot/ruleset.py``): a state differing from
``state`` only in hidden facts (two seats' sheets or hands swapped, face-down panels permuted),
with the same public view. Every ruleset the registry finds (and the test rulesets) that defines
it is checked here, without being named:

1. a game is played by the ruleset's demo players, as ``tests/test_ruleset_conformance.play``
   plays it (the table's calls on committed dice), and at some of its open steps the state is
   forked: the state and its twin are played on side by side;
2. both get the SAME orders: for each awaited seat the first of (the demo's order in game 1, in
   game 2, game 1's default, game 2's default) that ``parse`` accepts in both (none: the pair
   stops there, as a private refusal is no public fact); now and then a seat sends nothing and
   each game plays its own default, as a deadline does: different defaults stop the pair when
   the seat's options differ (an Ace allows one silhouette), and are a difference when each
   default is legal in both games (the default then depends on a hidden fact, not on what the
   seat may do); the same ``pre`` and ``resolve`` dice; each game's secret stream goes on from
   the same point;
3. after every step the two PUBLIC transcripts are compared: the channel post exactly as the
   table composes it (``bot.messages.turn_message`` and ``compose`` on in-memory rows: the event
   lines, tallies, step name, defaulted and withheld orders, the deadline, the post group's log,
   the channel's buttons, who is awaited), in English and Japanese; the public events of the
   step opened; the dice drawn from the public streams; the step's label, deadline, post group
   and which orders stay withheld; the outcome; the board drawn from the public view (a sample:
   drawing is slow);
4. while the two public views (and replay summaries) agree, all of that must be identical. When
   they differ, a rule made a hidden fact public (a panel turned over, a card shown, a death) and
   the pair stops, provided the step said something different in public (its event lines) or
   the views differ only where the public view before the step showed nothing (the middle row
   of panels, shown once the decks are in): a public view that goes its own way after identical
   public events (other seats asked, a step skipped) is itself a difference, reported as one.
   The end makes every hidden fact public: a pair that reaches it in both games stops there.

The steps compared are counted (a check that compares nothing must not pass), and the negative
controls, Sealed Bids whose log names hand cards, whose awaited seats are listed team by team, or
whose scores move in the public view unsaid, must be caught while the honest one passes. A deeper
run by hand: ``NONINTERFERENCE_DEPTH=10`` (see :data:`DEPTH`).
"""

from __future__ import annotations

import collections
import contextlib
import copy
import hashlib
import json
import os
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from bot import dice as dicelib
from bot import messages, registry
from bot.loaded import LoadedGame
from bot.ruleset import Event, RuleError, RulesetSpec
from bot.steps import revealed_steps
from bot.storage.base import GameRow, OrderRow, SeatRow, StreamRow
from tests.hidden_ruleset import RULESET as BIDS_RULESET
from tests.test_ruleset_conformance import (
    EXAMPLE_RULESET,
    SALT,
    _example_registered,  # noqa: F401  (the module's autouse fixture: the test rulesets' texts)
    committed,
    demo_order,
    seats_for,
)

SHOWN_LANGS = ("en", "ja")
CLOCK = 1_700_000_000  # the table's clock when a step opens (a deadline is this plus its length)
DEFAULT_CHANCE = 0.08  # a seat that sends nothing: the deadline plays its default
PAIR_STEPS = 60  # a pair stops here if nothing made it stop earlier
BOARD_EVERY = 40  # the boards of one compared step in this many are drawn and compared
SHOWN_DIFFERENCES = 12  # mismatches a failure lists
# How far the check looks: forks per game and steps per pair are multiplied by this, for a deeper
# run by hand (NONINTERFERENCE_DEPTH=10 python -m pytest tests/test_noninterference.py); the
# suite's own run stays within its minute.
DEPTH = max(1, int(os.environ.get("NONINTERFERENCE_DEPTH", "1")))


def _twinned() -> list[Any]:
    specs = {**registry.rulesets(), **{s.key: s for s in EXAMPLE_RULESET}}
    return [
        pytest.param(spec, id=key)
        for key, spec in sorted(specs.items())
        if spec.hidden_twin is not None
    ]


TWINNED = _twinned()


# --- one game as the table drives it --------------------------------------------------------------


def seat_names(spec: RulesetSpec[Any, Any]) -> dict[str, str]:
    return {s: f"Player {s}" for s in spec.seats.names}


def user_ids(spec: RulesetSpec[Any, Any]) -> dict[str, int]:
    return {s: 1000 + i for i, s in enumerate(spec.seats.names)}


@dataclass
class Context:
    """What the post of the step now open shows besides the state: the events of the resolution
    that opened it, the public view before that resolution, its orders as the table stored them,
    and the withheld orders made public by it."""

    events: list[Event] = field(default_factory=list)
    opened: list[Event] = field(default_factory=list)  # start_step's
    resolved_turn: int | None = None
    resolved_view: Mapping[str, Any] | None = None
    rows: dict[str, OrderRow] = field(default_factory=dict)
    later: list[OrderRow] = field(default_factory=list)
    first: bool = False


@dataclass
class Side:
    """One game: its state, its secret stream where it stands, its demo players' generator, and
    what the table keeps between steps (the version, the withheld orders by step, the last
    channel payload per language: a post group's log goes on in it)."""

    spec: RulesetSpec[Any, Any]
    seed: int
    game_id: str
    seats: tuple[str, ...]
    state: Any
    secret: Any
    rng: random.Random
    version: int = 1
    hidden: dict[int, dict[str, OrderRow]] = field(default_factory=dict)
    posted: dict[str, dict[str, Any]] = field(default_factory=dict)
    context: Context = field(default_factory=Context)
    rolls: dict[str, list[int]] = field(default_factory=dict)  # the step's public dice

    @property
    def engine(self) -> Any:
        return self.spec.engine

    def fork(self, state: Any) -> Side:
        """This game at this point, with ``state`` (the same, or its twin) and copies of the
        rest: its secret stream resumes at the same block."""
        secret = self.secret
        if isinstance(secret, dicelib.DiceStream):
            secret = dicelib.DiceStream(secret.seed, secret.label, start_block=secret.blocks)
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return replace(
            self,
            state=state,
            secret=secret,
            rng=rng,
            hidden=copy.deepcopy(self.hidden),
            posted=copy.deepcopy(self.posted),
            context=copy.copy(self.context),
            rolls={},
        )


def new_side(spec: RulesetSpec[Any, Any], seed: int, players: int) -> Side:
    """A new game, its first step open (as ``play`` and the table begin one)."""
    seats = seats_for(spec, players)
    game_id = f"conformance-{seed}"
    setup = committed(seed, game_id, 0, dicelib.PRE)
    secret = (
        committed(seed, game_id, 0, dicelib.SECRET) if spec.secret_stream else dicelib.NO_SECRET
    )
    state = spec.engine.new_game(game_id, list(seats), {}, setup, secret)
    side = Side(spec, seed, game_id, seats, state, secret, random.Random(seed))
    pre = committed(seed, game_id, spec.engine.step_number(state) + 1, dicelib.PRE)
    side.state, opened = spec.engine.start_step(state, pre, secret)
    side.context = Context(opened=opened, first=True)
    side.rolls = {"pre": list(pre.rolls)}
    return side


Orders = dict[str, tuple[Any, bool]]  # seat -> (order text, or the order it parsed to; defaulted)


def advance(side: Side, orders: Orders) -> None:
    """Resolve the open step with ``orders`` (each sent or defaulted) and open the next, as
    ``Table._resolve`` does: orders sealed and withheld on the state they were given in, withheld
    orders revealed by ``inputs_revealed`` and at the end."""
    engine, state = side.engine, side.state
    turn = engine.step_number(state)
    parsed = {
        seat: engine.parse(state, seat, order) if isinstance(order, str) else order
        for seat, (order, _) in orders.items()
    }
    withheld = {s for s in parsed if side.spec.withheld and side.spec.withheld(state, s)}
    rows = {}
    for seat, order in parsed.items():
        text = order.canonical()
        rows[seat] = OrderRow(
            side.game_id,
            turn,
            seat,
            text=text,
            salt=SALT.hex(),  # play's (the table draws one per order: the same for equal orders)
            receipt=dicelib.receipt(SALT, text),
            user_id=None if orders[seat][1] else 1,
            defaulted=orders[seat][1],
            revisions=1,
            submitted_at=0.0,
            withheld=seat in withheld,
        )
    digest = dicelib.orders_digest(rows[s].receipt for s in side.seats if s in rows)
    stream = committed(side.seed, side.game_id, turn, dicelib.RESOLVE, digest)
    resolved_view = engine.view(state, None)
    state, events = engine.resolve(state, parsed, stream, side.secret)
    if withheld:
        side.hidden[turn] = {s: rows[s] for s in withheld}
    later: list[OrderRow] = []
    for step in revealed_steps(events):
        later += side.hidden.pop(step, {}).values()
    opened: list[Event] = []
    side.rolls = {"resolve": list(stream.rolls)}
    if engine.outcome(state).finished:  # the end makes every withheld order public
        for step in sorted(side.hidden):
            later += side.hidden[step].values()
        side.hidden.clear()
    else:
        pre = committed(side.seed, side.game_id, engine.step_number(state) + 1, dicelib.PRE)
        state, opened = engine.start_step(state, pre, side.secret)
        side.rolls["pre"] = list(pre.rolls)
    still = side.hidden.get(turn, {})
    rows = {s: replace(r, withheld=s in still) for s, r in rows.items()}
    side.state = state
    side.version += 1
    side.context = Context(events, opened, turn, resolved_view, rows, later)


def demo_orders(side: Side) -> Orders:
    return {
        seat: (demo_order(side.spec, side.engine, side.state, seat, side.rng), False)
        for seat in side.engine.awaiting(side.state)
    }


# --- what the public sees of a step ---------------------------------------------------------------


def streams(side: Side, turn: int, *, revealed: bool) -> list[StreamRow]:
    rows = []
    for phase in (dicelib.PRE, dicelib.RESOLVE):
        # the seed does not depend on the orders digest (a resolve stream's key does)
        seed = committed(side.seed, side.game_id, turn, phase, "0" * 64).seed
        rows.append(
            StreamRow(
                side.game_id,
                turn,
                phase,
                seed.hex(),
                dicelib.commitment(seed),
                revealed=revealed,
            )
        )
    return rows


def secret_row(side: Side, *, revealed: bool) -> StreamRow | None:
    if not side.spec.secret_stream:
        return None
    seed = committed(side.seed, side.game_id, 0, dicelib.SECRET).seed
    return StreamRow(
        side.game_id, 0, dicelib.SECRET, seed.hex(), dicelib.commitment(seed), revealed=revealed
    )


def game_row(side: Side) -> GameRow:
    engine, state, spec = side.engine, side.state, side.spec
    finished = engine.outcome(state).finished
    names, users = seat_names(spec), user_ids(spec)
    seconds = spec.step_seconds(state) if spec.step_seconds and not finished else None
    return GameRow(
        id=side.game_id,
        ruleset=spec.key,
        guild_id=1,
        channel_id=2,
        status="finished" if finished else "active",
        options={},
        seats=[
            SeatRow(s, users[s], names[s], i, dm_open=True, accepted=True)
            for i, s in enumerate(side.seats)
        ],
        version=side.version,
        step=engine.step_number(state),
        end_reason="rules" if finished else None,
        deadline_at=None if seconds is None else float(CLOCK + seconds),
    )


def channel_post(side: Side, lang: str) -> dict[str, Any]:
    """The channel payload of the step now open, as ``bot.posting.Posting.step_post`` composes
    it (the rows it reads from storage built in memory), and the message it makes
    (``compose``)."""
    game, ctx = game_row(side), side.context
    loaded = LoadedGame(game, side.spec, side.state, later_orders=list(ctx.later))
    finished = game.status == "finished"
    revealed = streams(side, ctx.resolved_turn, revealed=True) if ctx.resolved_turn else []
    secret = secret_row(side, revealed=finished)
    if secret is not None and finished:
        revealed.append(secret)
    commitments = [] if finished else streams(side, game.step, revealed=False)
    if ctx.first and secret is not None:
        commitments.insert(0, secret)
    group = loaded.post_group()
    last = side.posted.get(lang)
    continued = (
        last
        if group is not None and last is not None and (last.get("group") or {}).get("key") == group
        else None
    )
    payload = messages.turn_message(
        loaded,
        lang=lang,
        events=[e.to_json() for e in ctx.events],
        revealed_streams=revealed,
        revealed_orders=ctx.rows,
        commitments=commitments,
        first=ctx.first,
        later_orders=loaded.later_orders,
        resolved_turn=ctx.resolved_turn,
        resolved_view=ctx.resolved_view,
        group=group,
        earlier=None if continued is None else continued["group"],
    )
    if not finished:
        side.posted[lang] = payload
    return {"payload": payload, "message": messages.compose(payload)}


def public_lines(spec: RulesetSpec[Any, Any], events: Sequence[Event], lang: str) -> list[str]:
    shown = [e.to_json() for e in events if e.public]
    return spec.presenter.event_lines(shown, lang, seat_names(spec))


def published(side: Side) -> dict[str, Any]:
    """What the step said in public in words: its resolution's and its opening's event lines."""
    ctx = side.context
    return {
        lang: [public_lines(side.spec, ctx.events, lang), public_lines(side.spec, ctx.opened, lang)]
        for lang in SHOWN_LANGS
    }


def public_state(side: Side) -> dict[str, Any]:
    """The public view and the replay summary (public facts only, both)."""
    return {
        "view": side.engine.view(side.state, None),
        "summary": side.engine.summary(side.state),
    }


def behaviour(side: Side) -> dict[str, Any]:
    """How the bot behaves at the step now open, besides its post."""
    engine, spec, state = side.engine, side.spec, side.state
    awaited = engine.awaiting(state)
    return {
        "awaited": awaited,
        "turn": engine.step_number(state),
        "step label": engine.step_label(state),
        "outcome": engine.outcome(state).to_json(),
        "deadline": spec.step_seconds(state) if spec.step_seconds else None,
        "post group": spec.post_group(state) if spec.post_group else None,
        "withheld": {s: bool(spec.withheld and spec.withheld(state, s)) for s in awaited},
        "dice drawn": side.rolls,
    }


def transcript(side: Side, board: str | None) -> dict[str, Any]:
    """Everything public about the step now open, by name (the board drawn in ``board``'s
    language, if one is given)."""
    out = behaviour(side)
    for lang in SHOWN_LANGS:
        out[f"post[{lang}]"] = channel_post(side, lang)
        out[f"opened events[{lang}]"] = public_lines(side.spec, side.context.opened, lang)
    if board is not None:
        view = side.engine.view(side.state, None)
        with contextlib.suppress(NotImplementedError):  # a ruleset that draws no board
            out[f"board[{board}]"] = side.spec.presenter.render_board(
                view, board, seat_names(side.spec)
            )
    return out


# --- comparing -----------------------------------------------------------------------------------

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "<missing>"})()


Path = tuple[Any, ...]
LINES = "(lines)"  # a path's last part: the lines of a text that differ


def differences(a: Any, b: Any, path: Path = ()) -> list[tuple[Path, Any, Any]]:
    """Where two JSON-like values differ: (path, one, other), the deepest places first found
    (a text of several lines: the lines each has that the other has not)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        out = []
        for key in sorted(set(a) | set(b), key=str):
            out += differences(a.get(key, MISSING), b.get(key, MISSING), (*path, key))
        return out
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += differences(x, y, (*path, i))
        return out
    if isinstance(a, str) and isinstance(b, str) and a != b and ("\n" in a or "\n" in b):
        la, lb = a.split("\n"), b.split("\n")
        only_a = [line for line in la if line not in lb]
        only_b = [line for line in lb if line not in la]
        return [((*path, LINES), only_a, only_b)]
    if a != b:
        return [(path, a, b)]
    return []


def dotted(path: Path) -> str:
    return "".join(
        f"[{p}]" if isinstance(p, int) else f" {p}" if p == LINES else f".{p}" for p in path
    )


def shown_before(before: Any, path: Path) -> bool:
    """Whether the public state ``before`` the step showed something at ``path`` (not None, not
    missing, at every level on the way)."""
    value = before
    for part in path:
        if value is None or part == LINES:
            break
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list | tuple) and isinstance(part, int) and part < len(value):
            value = value[part]
        else:
            return False
    return value is not None


def short(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else repr(value)
    if isinstance(value, bytes):
        text = f"<{len(value)} bytes {hashlib.sha256(value).hexdigest()[:12]}>"
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass
class Mismatch:
    """A public difference between a state and its twin, played alike."""

    where: str  # the game and the step
    part: str  # the transcript's part ("post[en]", "awaited", "public view"…)
    path: str  # where inside it
    one: Any
    other: Any
    twin: str  # how the twin differs from the state (state JSON paths)

    def __str__(self) -> str:
        return (
            f"{self.where}: {self.part}{self.path}\n    game 1: {short(self.one)}\n"
            f"    game 2: {short(self.other)}\n    twin: {self.twin}"
        )


@dataclass
class Report:
    """What the check did: pairs played, steps compared, why pairs stopped, and mismatches."""

    forks: int = 0
    pairs: int = 0
    compared: int = 0
    boards: int = 0
    stops: collections.Counter[str] = field(default_factory=collections.Counter)
    mismatches: list[Mismatch] = field(default_factory=list)

    def failure(self) -> str:
        kinds = collections.Counter(m.part for m in self.mismatches)
        shown = "\n".join(str(m) for m in self.mismatches[:SHOWN_DIFFERENCES])
        return (
            f"{len(self.mismatches)} public difference(s) between twins played alike "
            f"({dict(kinds)}; {self.pairs} pairs, {self.compared} steps compared):\n{shown}"
        )


def twin_paths(spec: RulesetSpec[Any, Any], state: Any, twin: Any) -> str:
    engine = spec.engine
    paths = [dotted(p) for p, _, _ in differences(engine.to_json(state), engine.to_json(twin))]
    return ", ".join(paths[:8]) + (f" (+{len(paths) - 8})" if len(paths) > 8 else "")


def make_twin(spec: RulesetSpec[Any, Any], state: Any, rng: random.Random) -> Any:
    """The ruleset's twin of ``state``, checked: the state is unchanged, and the twin differs
    from it while its public view and summary are the same (else the hook is wrong)."""
    engine = spec.engine
    assert spec.hidden_twin is not None
    before = json.dumps(engine.to_json(state), sort_keys=True)
    twin = spec.hidden_twin(state, rng)
    assert json.dumps(engine.to_json(state), sort_keys=True) == before, (
        f"{spec.key}: hidden_twin changed the state it was handed"
    )
    if twin is None:
        return None
    assert json.dumps(engine.to_json(twin), sort_keys=True) != before, (
        f"{spec.key}: hidden_twin gave the same state"
    )
    public = differences(engine.view(state, None), engine.view(twin, None))
    public += differences(engine.summary(state), engine.summary(twin))
    assert not public, f"{spec.key}: hidden_twin's public view differs: {public[:3]}"
    return twin


def candidate_orders(one: Side, other: Side, seat: str) -> Iterator[str]:
    """The seat's orders to try, in turn (module, 2.). Asked lazily: the demo players are the
    slow part, and game 2's is needed only when game 1's order is refused there (each game's
    players draw from their own generator)."""
    engine = one.engine
    yield demo_order(one.spec, engine, one.state, seat, one.rng)
    yield demo_order(other.spec, engine, other.state, seat, other.rng)
    yield engine.default_order(one.state, seat).canonical()
    yield engine.default_order(other.state, seat).canonical()


def legal(side: Side, seat: str, text: str) -> str | None:
    """The order ``text`` parses to for ``seat`` (its canonical text), None if refused."""
    try:
        return str(side.engine.parse(side.state, seat, text).canonical())
    except RuleError:
        return None


def common_orders(
    one: Side, other: Side, rng: random.Random
) -> tuple[Orders, Orders] | str | tuple[str, str, str]:
    """The orders both games get, as each parsed them (see the module's 2.); else why there are
    none, or (the seat, its two defaults) when the games default differently though each default
    is legal in both: the default then depends on a hidden fact where the seat's options do not
    (with other options, as an Ace's one silhouette, the pair just stops)."""
    awaited = one.engine.awaiting(one.state)
    mine: Orders = {}
    theirs: Orders = {}
    engine = one.engine
    for seat in awaited:
        if rng.random() < DEFAULT_CHANCE:  # nothing sent: each game plays its own default
            a = engine.default_order(one.state, seat)
            b = engine.default_order(other.state, seat)
            if a.canonical() != b.canonical():
                withheld = one.spec.withheld and one.spec.withheld(one.state, seat)
                texts = (a.canonical(), b.canonical())
                if withheld or not all(legal(g, seat, t) == t for g in (one, other) for t in texts):
                    return "defaults differ"
                return (seat, *texts)
            mine[seat], theirs[seat] = (a, True), (b, True)
            continue
        tried: set[str] = set()
        for text in candidate_orders(one, other, seat):
            if text in tried:
                continue
            tried.add(text)
            try:
                a = engine.parse(one.state, seat, text)
                b = engine.parse(other.state, seat, text)
            except RuleError:
                continue
            if a.canonical() == b.canonical():
                mine[seat], theirs[seat] = (a, False), (b, False)
                break
        else:
            return "no common order"
    return mine, theirs


def compare(
    one: Side, other: Side, before: Any, where: str, twin: str, board: str | None
) -> tuple[list[Mismatch], bool]:
    """The mismatches of the step now open in both games, and whether the pair goes on.

    When the two public views differ, a rule made a hidden fact public if the step said so in
    public (its event lines differ) or the views differ only where the public view ``before`` it
    showed nothing (a face-down panel now shown): the pair stops. Otherwise the public view went
    its own way on a hidden fact (a step asked of other seats, a step skipped): a mismatch."""
    mine, theirs = public_state(one), public_state(other)
    if mine != theirs:
        views = differences(mine, theirs)
        if published(one) != published(other):
            return [], False
        unexplained = [d for d in views if before is None or shown_before(before, d[0])]
        if not unexplained:
            return [], False
        return [
            Mismatch(where, "public view (nothing said)", dotted(p), a, b, twin)
            for p, a, b in unexplained[:4]
        ], False
    mine, theirs = transcript(one, board), transcript(other, board)
    found = [
        Mismatch(where, name, dotted(p), a, b, twin)
        for name in mine
        if mine[name] != theirs.get(name, MISSING)
        for p, a, b in differences(mine[name], theirs.get(name, MISSING))
    ]
    return found, not found


def run_pair(
    base: Side, twin_state: Any, rng: random.Random, report: Report, steps: int = PAIR_STEPS
) -> None:
    """Play ``base`` and its twin on alike and compare them at every step (module, 3.–4.)."""
    spec, engine = base.spec, base.engine
    one, other = base.fork(base.state), base.fork(twin_state)
    twin = twin_paths(spec, base.state, twin_state)
    label = f"{spec.key} {len(base.seats)} players seed {base.seed}"
    label += f" forked at {engine.step_label(base.state)!r}"
    report.pairs += 1
    before = None
    for n in range(steps + 1):
        where = f"{label}, {n} steps on at {engine.step_label(one.state)!r}"
        if engine.outcome(one.state).finished and engine.outcome(other.state).finished:
            report.stops["end"] += 1  # the end makes every hidden fact public
            return
        drawn = report.compared % BOARD_EVERY == 0
        board = SHOWN_LANGS[report.boards % len(SHOWN_LANGS)] if drawn else None
        found, going = compare(one, other, before, where, twin, board)
        before = public_state(one)
        report.mismatches += found
        if not going:
            report.stops["mismatch" if found else "views differ"] += 1
            return
        report.compared += 1
        report.boards += drawn
        if n == steps:
            break
        orders = common_orders(one, other, rng)
        if isinstance(orders, str):
            report.stops[orders] += 1
            return
        if len(orders) == 3:  # a seat's default depends on a hidden fact
            seat, mine, theirs = orders
            where = f"{where}, {seat} sent nothing"
            report.mismatches.append(Mismatch(where, "default order", "", mine, theirs, twin))
            report.stops["mismatch"] += 1
            return
        advance(one, orders[0])
        advance(other, orders[1])
    report.stops["step limit"] += 1


def check_game(
    spec: RulesetSpec[Any, Any],
    seed: int,
    players: int,
    *,
    forks: int,
    every: int,
    pair_steps: int = PAIR_STEPS,
    max_steps: int = 2000,
    report: Report | None = None,
) -> Report:
    """Play one game with the demo players; fork it at about every ``every``-th open step (at
    most ``forks`` times) and run each pair (counted in ``report``, or a new one)."""
    report = report or Report()
    forks = forks * DEPTH + report.forks
    every = max(1, every // DEPTH)
    pair_steps *= DEPTH
    rng = random.Random(f"noninterference:{spec.key}:{seed}:{players}")
    side = new_side(spec, seed, players)
    next_fork = rng.randrange(every)
    for step in range(max_steps):
        if spec.engine.outcome(side.state).finished or report.forks >= forks:
            break
        if step >= next_fork:
            twin = make_twin(spec, side.state, rng)
            if twin is not None:
                report.forks += 1
                run_pair(side, twin, rng, report, pair_steps)
                next_fork = step + 1 + rng.randrange(every) + every // 2
        advance(side, demo_orders(side))
    return report


# --- the hook ------------------------------------------------------------------------------------


def opened_states(
    spec: RulesetSpec[Any, Any], seed: int, players: int, steps: int
) -> Iterator[Any]:
    side = new_side(spec, seed, players)
    for _ in range(steps):
        yield side.state
        if spec.engine.outcome(side.state).finished:
            return
        advance(side, demo_orders(side))


@pytest.mark.parametrize("spec", TWINNED)
def test_hidden_twin_differs_only_in_hidden_facts(spec: RulesetSpec[Any, Any]) -> None:
    """The hook keeps its contract along a game: the state handed in unchanged, a twin that
    differs from it and whose public view does not, and one often enough to check anything."""
    rng = random.Random(7)
    made = total = 0
    for state in opened_states(spec, 5, spec.seats.allowed()[0], 16):
        total += 1
        twin = make_twin(spec, state, rng)
        if twin is not None:
            made += 1
            encoded = json.dumps(spec.engine.to_json(twin))
            assert spec.engine.to_json(spec.engine.from_json(json.loads(encoded))) == (
                spec.engine.to_json(twin)
            ), f"{spec.key}: the twin does not round-trip"
    assert made >= total // 2, f"{spec.key}: a twin for {made} of {total} states"


# --- the check over games -------------------------------------------------------------------------

# (seed, players, forks, every, pair steps) per ruleset in the default run: short, but every pair
# kind gets a chance; the whole games follow (slow).
SHORT_RUNS: Mapping[str, Sequence[tuple[int, int, int, int, int]]] = {
    "apeiron": [(1, 2, 4, 5, 10)],  # the deck step, deployment and the first activations
    "esper": [(1, 5, 4, 20, 10)],  # the deal, the silhouettes, the start and the planets
    # three rounds a game: a fork at each, in games of every size
    "bids": [(seed, 3 + seed % 9, 3, 1, 3) for seed in range(1, 13)],
}
MIN_COMPARED = 20  # steps compared in aggregate by a run: the check must not pass vacuously


def runs_for(spec: RulesetSpec[Any, Any]) -> Sequence[tuple[int, int, int, int, int]]:
    """A ruleset not listed above (a future one) gets a few short pairs of its demo game."""
    players = spec.seats.for_demo()
    return SHORT_RUNS.get(spec.key, [(1, len(players), 4, 10, 20)])


def check(spec: RulesetSpec[Any, Any], runs: Sequence[tuple[int, int, int, int, int]]) -> Report:
    report = Report()
    for seed, players, forks, every, steps in runs:
        check_game(spec, seed, players, forks=forks, every=every, pair_steps=steps, report=report)
    return report


@pytest.mark.parametrize("spec", TWINNED)
def test_twins_look_alike_in_public(spec: RulesetSpec[Any, Any]) -> None:
    report = check(spec, runs_for(spec))
    assert not report.mismatches, report.failure()
    assert report.compared >= MIN_COMPARED, (
        f"{spec.key}: only {report.compared} steps compared ({report.pairs} pairs, stops "
        f"{dict(report.stops)})"
    )


# (key, seed, players, every): whole games forked about every ``every`` open steps, 15 times,
# each pair played on for up to 5 steps (a game that goes on past 800 steps stops there). The
# Esper deals hold sheets the twins may swap (the same published numbers), across alignments: a
# [check] ability's, a [戦闘前] ability's, and others.
WHOLE_GAMES = [
    # 76 open steps, a combat; c04/c08, c13/c10
    pytest.param("esper", 15, 5, 5, id="esper-5"),
    # 173 open steps, 3 combats; c06/c11, c13/c10/c05
    pytest.param("esper", 27, 7, 11, id="esper-7"),
    # 206 open steps, 8 combats, the base; c04/c08, c10/c13/c05, c15/c02
    pytest.param("esper", 33, 11, 13, id="esper-11"),
    pytest.param("apeiron", 11, 2, 3, id="apeiron"),  # 45 open steps
]


@pytest.mark.slow
@pytest.mark.parametrize(("key", "seed", "players", "every"), WHOLE_GAMES)
def test_twins_look_alike_over_whole_games(key: str, seed: int, players: int, every: int) -> None:
    """Whole AI games, forked all along (Esper: the deal, the planets, combats and the base;
    Apeiron: the deck step, deployment and play)."""
    spec = registry.get(key)
    report = check_game(spec, seed, players, forks=15, every=every, pair_steps=5, max_steps=800)
    assert not report.mismatches, report.failure()
    assert report.compared >= 2 * MIN_COMPARED, (report.compared, dict(report.stops))


# --- the negative control -------------------------------------------------------------------------


class _NamesHandCards:
    """Sealed Bids whose public log names the lowest card left in every seat's hand."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def resolve(self, state: Any, orders: Any, dice: Any, secret: Any) -> Any:
        new, events = self.engine.resolve(state, orders, dice, secret)
        low = {s: min(h) for s, h in new.hands.items() if h}
        return new, [*events, Event("cards_revealed", {"round": new.round, "plays": low})]


class _AwaitsByTeam:
    """Sealed Bids that lists the awaited seats team by team (sun first)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def awaiting(self, state: Any) -> list[str]:
        seats = self.engine.awaiting(state)
        return sorted(seats, key=lambda s: (state.teams[s] != "sun", s))


class _ScoresUnsaid:
    """Sealed Bids that scores its rounds in the public view without a word in the log: the
    public view moves on the teams (hidden) after identical public events."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def resolve(self, state: Any, orders: Any, dice: Any, secret: Any) -> Any:
        new, events = self.engine.resolve(state, orders, dice, secret)
        return new, [e for e in events if e.type not in ("round_scored", "round_tied")]


CONTROL_RUNS = [(seed, 3 + seed % 9, 3, 1, 3) for seed in range(21, 31)]


@pytest.mark.parametrize(
    ("leaky", "caught"),
    [
        pytest.param(_NamesHandCards, "post[", id="log-names-hand-cards"),
        pytest.param(_AwaitsByTeam, "awaited", id="awaited-by-team"),
        pytest.param(_ScoresUnsaid, "public view", id="view-moves-unsaid"),
    ],
)
def test_the_check_catches_a_leak(leaky: Callable[[Any], Any], caught: str) -> None:
    honest = check(BIDS_RULESET, CONTROL_RUNS)
    assert not honest.mismatches, honest.failure()
    assert honest.compared >= MIN_COMPARED // 2, honest.compared
    spec = replace(BIDS_RULESET, engine=leaky(BIDS_RULESET.engine))
    report = check(spec, CONTROL_RUNS)
    assert report.mismatches, f"the leak went unseen ({report.compared} steps compared)"
    assert any(m.part.startswith(caught) for m in report.mismatches), report.failure()
