"""The ruleset contract: one registered, typed value per game.

A ruleset is one folder, ``cogs/<name>/``, whose ``__init__.py`` exports ``RULESET``, a
:class:`RulesetSpec`: the key, the pure engine (an :class:`Engine` over the ruleset's own state
and order types: an instance of a :class:`BaseEngine` subclass, whose defaults do what most
rulesets do, or a module of functions), the presenter (a :class:`Presenter` subclass), the
seats, and the optional parts (the cog's extension, a sheet builder, the demo players,
command-line subcommands, stored view kinds, the hooks of hidden-information games, and what a
league may do with it: :class:`LeagueSupport`, over :mod:`bot.leagues`).
:mod:`bot.registry` discovers the specs; the framework never names a game.

Engines are pure: no discord, no storage, no clock, no randomness except the :class:`bot.dice.Dice`
they are handed. Errors carry a message key (``"arena.reject.wall"``) and parameters; the i18n
layer turns them into a sentence in the reader's language. Events likewise are data that the
presenter words.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from bot import alttext, state_json
from bot.alttext import BoardScene
from bot.dice import NO_SECRET, Dice
from bot.i18n import t
from bot.leagues import FixedOption, LeagueResult, RosterRules

JSON = dict[str, Any]
DRAW = "draw"  # the legacy ``winner`` of a drawn game in records and replay output


class RuleError(ValueError):
    """Base of every error a rules engine raises on purpose. ``key`` names the message."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key if not params else f"{key} {params}")
        self.key = key
        self.params = params


class OrderRejected(RuleError):
    """An order that cannot be accepted now (malformed, illegal, not your turn…)."""


class StateError(RuleError):
    """A stored state or record the engine cannot load."""


class UnknownRuleset(RuleError):
    pass


# Where a private event's addressees are kept in its JSON (events store their data at the top
# level, where a plain ``"to"`` is already a field: a tactics move's destination square).
EVENT_TO = "_to"


@dataclass(frozen=True)
class Event:
    """Something that happened, as data: ``type`` picks the sentence, ``data`` fills it.

    ``to`` addresses a private event to some seats only: each of them reads it by DM in its own
    language, the channel never sees it, and the game keeps it (replay reproduces it). ``None``:
    public.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: tuple[str, ...] | None = None

    def to_json(self) -> JSON:
        obj: JSON = {"type": self.type, **self.data}
        if self.to is not None:
            obj[EVENT_TO] = list(self.to)
        return obj

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Event:
        data = {k: v for k, v in obj.items() if k not in ("type", EVENT_TO)}
        to = obj.get(EVENT_TO)
        return cls(str(obj["type"]), data, None if to is None else tuple(to))

    @property
    def public(self) -> bool:
        return self.to is None


def addressees(event: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The seats a stored event is addressed to (None: public)."""
    to = event.get(EVENT_TO)
    return None if to is None else tuple(to)


# An event a ruleset emits to make earlier withheld orders public before the end:
# ``Event(INPUTS_REVEALED, {"steps": [3, 4]})`` reveals every withheld order of those steps.
INPUTS_REVEALED = "inputs_revealed"


@dataclass(frozen=True)
class Choice:
    """One option a button or select offers. ``token`` is order text the parser accepts."""

    token: str
    label_key: str
    enabled: bool = True
    reason_key: str | None = None  # why it is disabled, if it is
    # A whole order on its own: the groups after it are not asked (a vote's "no vote", chosen
    # in the first of the vote's groups).
    final: bool = False
    # Filled into the label's sentence. A value given per language (a name from the game's own
    # pack, ``{"name": {"en": "Kael", "ja": "カエル"}}``) is read in the reader's language.
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def label(self, lang: str) -> str:
        params = {
            k: (v.get(lang) or v.get("en", "")) if isinstance(v, Mapping) else v
            for k, v in self.params.items()
        }
        return t(lang, self.label_key, **params)


@dataclass(frozen=True)
class ChoiceGroup:
    """A set of mutually exclusive choices; one token per group makes an order. ``select``:
    offered as a select menu (a list of cards, say) rather than as buttons; its disabled
    choices are left out (a menu's options cannot be greyed)."""

    name: str
    label_key: str
    choices: Sequence[Choice]
    select: bool = False


@runtime_checkable
class Order(Protocol):
    def canonical(self) -> str:
        """The text that, parsed again, gives the same order (stored and sealed)."""
        ...


def prepared_orders(
    seats: Iterable[str],
    orders: Mapping[str, Any],
    parse: Callable[[str, str], OrderT],
    default: Callable[[str], OrderT],
) -> dict[str, OrderT]:
    """The awaited ``seats``' orders as ``resolve`` plays them: each as given (parsed when it is
    still text), else the seat's default (its deadline passed)."""
    prepared: dict[str, OrderT] = {}
    for seat in seats:
        order = orders.get(seat)
        if order is None:
            prepared[seat] = default(seat)
        elif isinstance(order, str):
            prepared[seat] = parse(seat, order)
        else:
            prepared[seat] = order
    return prepared


class _OpenState(Protocol):
    open: bool
    step: Any


class _CountedState(Protocol):
    step_no: int


OpenStateT = TypeVar("OpenStateT", bound=_OpenState)
CountedStateT = TypeVar("CountedStateT", bound=_CountedState)


def closed_step(
    state: OpenStateT,
    orders: Mapping[str, Any],
    *,
    ended: bool,
    refusals: tuple[str, str],
    awaiting: Callable[[OpenStateT], list[str]],
    parse: Callable[[OpenStateT, str, str], OrderT],
    default: Callable[[OpenStateT, str], OrderT],
) -> tuple[OpenStateT, dict[str, OrderT]]:
    """The start of a module engine's ``resolve`` over a mutable state with an ``open`` flag
    (Apeiron, Esper), what :meth:`BaseEngine.resolve` does for a class engine: refuse a game
    that ``ended`` and a step not open (``refusals``: the two message keys, ``step`` their
    parameter), then a copy of the state with its step closed, and the awaited seats' orders
    (:func:`prepared_orders`: the table hands them parsed, a test may hand text or fewer)."""
    finished, not_open = refusals
    if ended:
        raise RuleError(finished)
    if not state.open:
        raise RuleError(not_open, step=state.step)
    prepared = prepared_orders(
        awaiting(state),
        orders,
        lambda seat, text: parse(state, seat, text),
        lambda seat: default(state, seat),
    )
    closed = copy.deepcopy(state)
    closed.open = False
    return closed, prepared


def counted_step(state: CountedStateT) -> tuple[CountedStateT, list[Event]]:
    """A whole ``start_step`` for a module engine whose steps open with no event and are
    counted by ``step_no`` (tactics, the dungeon): a copy, one step on."""
    opened = copy.deepcopy(state)
    opened.step_no += 1
    return opened, []


# --- outcomes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How a game stands, as data (python-chess's ``Outcome(termination, winner)``).

    ``finished`` is False while the game goes on. A finished game has ``winners`` (one seat, or
    several), or is a ``draw``, or ends with a co-operative result (``coop``: the dungeon's
    ``"party"`` or ``"monsters"``). ``reason`` is the termination (``"annihilation"``, ``"dp"``,
    ``"resign"``…), ``grades`` per seat where a ruleset grades every player (Esper's A–D).
    """

    finished: bool = False
    winners: tuple[str, ...] = ()
    draw: bool = False
    coop: str | None = None
    reason: str | None = None
    grades: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def ongoing(cls) -> Outcome:
        return cls()

    @classmethod
    def win(cls, *seats: str, reason: str | None = None, **grades: str) -> Outcome:
        return cls(True, tuple(seats), reason=reason, grades=dict(grades))

    @classmethod
    def drawn(cls, reason: str | None = None) -> Outcome:
        return cls(True, draw=True, reason=reason)

    @classmethod
    def cooperative(cls, result: str, reason: str | None = None) -> Outcome:
        return cls(True, coop=result, reason=reason)

    @property
    def winner(self) -> str | list[str] | None:
        """The record's ``winner``: a seat, ``"draw"``, a co-op result, several seats as a list,
        or None while the game goes on (``shared/spec/match-record.md``)."""
        if not self.finished:
            return None
        if self.draw:
            return DRAW
        if self.coop is not None:
            return self.coop
        if len(self.winners) == 1:
            return self.winners[0]
        return list(self.winners) if self.winners else None

    def to_json(self) -> JSON:
        obj: JSON = {"finished": self.finished}
        if self.winners:
            obj["winners"] = list(self.winners)
        if self.draw:
            obj["draw"] = True
        if self.coop is not None:
            obj["coop"] = self.coop
        if self.reason is not None:
            obj["reason"] = self.reason
        if self.grades:
            obj["grades"] = dict(self.grades)
        return obj

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | None) -> Outcome:
        if not obj:
            return cls()
        return cls(
            bool(obj.get("finished")),
            tuple(obj.get("winners") or ()),
            bool(obj.get("draw")),
            obj.get("coop"),
            obj.get("reason"),
            dict(obj.get("grades") or {}),
        )

    @classmethod
    def from_winner(cls, winner: str | None, seats: Sequence[str] = ()) -> Outcome:
        """Read a stored legacy ``winner`` (a seat, ``"draw"`` or a co-op word)."""
        if winner is None:
            return cls()
        if winner == DRAW:
            return cls.drawn()
        if winner in seats:
            return cls.win(winner)
        return cls.cooperative(winner)


# --- the engine ----------------------------------------------------------------------------------

StateT = TypeVar("StateT")
OrderT = TypeVar("OrderT", bound=Order)


class Engine(Protocol[StateT, OrderT]):
    """What a ruleset's pure engine offers: an instance of a :class:`BaseEngine` subclass (which
    writes only what is about its game), or a module of functions (``cogs/<name>/rules.py``).

    ``StateT`` is the ruleset's state, ``OrderT`` its order type. ``dice`` is the step's
    committed stream (``pre`` in :meth:`start_step`, ``resolve`` in :meth:`resolve`); ``secret``
    is the handle for the game's secret stream (hidden random facts, revealed only at the end,
    ``shared/spec/dice-and-receipts.md``). An engine whose spec does not ask for one
    (``secret_stream``) is handed :data:`bot.dice.NO_SECRET`, on which a draw is an error.
    """

    SCHEMA_VERSION: int

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise a RuleError if ``options`` would not start a game (checked at the challenge)."""
        ...

    def new_game(
        self,
        game_id: str,
        seats: Sequence[str],
        options: Mapping[str, Any],
        dice: Dice,
        secret: Dice,
    ) -> StateT: ...
    def start_step(self, state: StateT, dice: Dice, secret: Dice) -> tuple[StateT, list[Event]]: ...
    def awaiting(self, state: StateT) -> list[str]: ...
    def parse(self, state: StateT, seat: str, text: str) -> OrderT: ...
    def choices(self, state: StateT, seat: str) -> list[ChoiceGroup]: ...
    def default_order(self, state: StateT, seat: str) -> OrderT: ...
    def resolve(
        self, state: StateT, orders: Mapping[str, OrderT], dice: Dice, secret: Dice
    ) -> tuple[StateT, list[Event]]:
        """Play the open step. The table and ``replay`` hand one parsed order for each seat
        :meth:`awaiting` names, the :meth:`default_order` of a seat whose deadline passed
        included: no order is parsed twice. (Tests that call an engine directly may hand fewer:
        :func:`prepared_orders` fills them.)"""
        ...

    def resign(self, state: StateT, seat: str) -> tuple[StateT, list[Event]]: ...
    def view(self, state: StateT, seat: str | None) -> JSON: ...
    def outcome(self, state: StateT) -> Outcome: ...
    def summary(self, state: StateT) -> JSON: ...
    def step_number(self, state: StateT) -> int: ...
    def step_label(self, state: StateT) -> str:
        """The ruleset's name for the step now open (``"turn 3"``, ``"deploy"``, ``"round 2
        pick"``), in no language: match records and ``replay`` name steps by it."""
        ...

    def to_json(self, state: StateT) -> JSON: ...
    def from_json(self, obj: Mapping[str, Any]) -> StateT: ...


# --- the engine base class -----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GameState:
    """What :class:`BaseEngine`'s defaults read of a state. A ruleset's state subclasses it (a
    frozen dataclass too) and adds the game's own fields.

    ``step`` counts the steps opened so far (the table's turn number); ``open`` is True between
    ``start_step`` and ``resolve``, while the step awaits orders; ``result`` is the game's
    :class:`Outcome`, ongoing until the rules (or a resignation) end it.
    """

    game_id: str
    seats: tuple[str, ...]
    step: int = 0
    open: bool = False
    result: Outcome = Outcome()


GameStateT = TypeVar("GameStateT", bound=GameState)


class BaseEngine(ABC, Generic[GameStateT, OrderT]):
    """An engine as a class, whose defaults do what most rulesets do: subclass it, name the
    state's class (a :class:`GameState` subclass), and write what is about the game.

    A subclass must give ``state_type`` and three methods: :meth:`parse` (order text to an
    order), :meth:`default_order` (what a seat whose deadline passed plays) and :meth:`play` (one
    step's orders played out). Everything else has a default it may override:

    - :meth:`new_game` checks the options and builds ``state_type(game_id=…, seats=…)``, its
      other fields at their defaults; :meth:`start_step` opens the next step;
      :meth:`awaiting` names every seat while a step is open (they all answer at once);
    - :meth:`resolve` refuses a finished game or a step not open, prepares the orders (text
      parsed, a missing one the seat's default) and hands :meth:`play` a copy of the state with
      the step closed;
    - :meth:`resign` ends the game: the other seats win; :meth:`outcome` is ``state.result``;
    - :meth:`check_options` refuses every option not named in ``OPTIONS``;
    - :meth:`choices` offers no buttons (orders are typed); :meth:`view` shows the whole state
      to everyone, and :meth:`summary` is the public view (a ruleset with hidden facts in its
      state must override :meth:`view`);
    - :meth:`turn` is ``state.step``, :meth:`step_label` ``"<STEP_NAME> <step>"``;
    - :meth:`to_json` and :meth:`from_json` store the state through its dataclass fields (their
      type hints check what is read back), under ``SCHEMA_VERSION``: bump it when the fields
      change, and a stored state of another schema is refused with a :class:`StateError`.

    The refusals' message keys are class attributes (the framework's generic sentences; a
    ruleset may name its own). The hidden-information hooks of :class:`RulesetSpec` are members
    here too (None, off or empty by default): an engine that defines one, as a method or
    attribute, need not name it again in its spec, which takes them from a class engine.

    An instance satisfies the :class:`Engine` protocol, so the spec's ``engine`` is the instance
    (``RulesetSpec(engine=Rps(), …)``).
    """

    SCHEMA_VERSION: int = 1
    STEP_NAME: ClassVar[str] = "turn"  # what step_label calls a step, in no language
    OPTIONS: ClassVar[frozenset[str]] = frozenset()  # the options new_game accepts
    state_type: type[GameStateT]

    # Message keys of the defaults' refusals.
    FINISHED: ClassVar[str] = "engine.finished"
    NOT_SEATED: ClassVar[str] = "engine.not_seated"
    NOT_OPEN: ClassVar[str] = "engine.not_open"
    STILL_OPEN: ClassVar[str] = "engine.still_open"
    UNKNOWN_OPTION: ClassVar[str] = "engine.unknown_option"
    BAD_SCHEMA: ClassVar[str] = "engine.bad_schema"
    BAD_STATE: ClassVar[str] = "engine.bad_state"

    # The hidden-information hooks (RulesetSpec's fields of the same names say what each does).
    private_view_fields: frozenset[str] = frozenset()
    secret_stream: bool = False
    withheld: Callable[[GameStateT, str], bool] | None = None
    step_seconds: Callable[[GameStateT], int | None] | None = None
    adjudicate: Callable[[GameStateT], tuple[GameStateT, list[Event]]] | None = None
    post_group: Callable[[GameStateT], str | None] | None = None
    hidden_twin: Callable[[GameStateT, random.Random], GameStateT | None] | None = None

    # --- what a subclass writes: the game ------------------------------------------------------

    @abstractmethod
    def parse(self, state: GameStateT, seat: str, text: str) -> OrderT:
        """Order text (typed, or a button's token) to an order; :class:`OrderRejected` if it is
        not one."""

    @abstractmethod
    def default_order(self, state: GameStateT, seat: str) -> OrderT:
        """What the table plays for an awaited seat that sent nothing: always legal."""

    @abstractmethod
    def play(
        self, state: GameStateT, orders: Mapping[str, OrderT], dice: Dice, secret: Dice
    ) -> tuple[GameStateT, list[Event]]:
        """Play one step: ``orders`` has one order for each awaited seat; ``state`` is a copy
        of the state, the step already closed (``open=False``), which this may change or
        :func:`dataclasses.replace`. Returns the new state and the events; a game ends here,
        with ``result`` set."""

    # --- the defaults --------------------------------------------------------------------------

    def check_seat(self, state: GameStateT, seat: str) -> None:
        """Refuse a seat that is not in the game (``NOT_SEATED``)."""
        if seat not in state.seats:
            raise OrderRejected(self.NOT_SEATED, seat=str(seat)[:32])

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse any option the class does not declare in ``OPTIONS``, so that a misspelt one
        never starts another game than the one asked for."""
        unknown = sorted(str(name) for name in options if name not in self.OPTIONS)
        if unknown:
            raise RuleError(self.UNKNOWN_OPTION, option=unknown[0][:32])

    def new_game(
        self,
        game_id: str,
        seats: Sequence[str],
        options: Mapping[str, Any],
        dice: Dice,
        secret: Dice = NO_SECRET,
    ) -> GameStateT:
        """The state before the first step: ``state_type`` with the game's id and seats, every
        other field at its default (override for a set-up that deals or places)."""
        self.check_options(options or {})
        return self.state_type(game_id=str(game_id), seats=tuple(seats))

    def start_step(
        self, state: GameStateT, dice: Dice, secret: Dice = NO_SECRET
    ) -> tuple[GameStateT, list[Event]]:
        """Open the next step (no event: the channel post says which step it is)."""
        if self.outcome(state).finished:
            raise RuleError(self.FINISHED)
        if state.open:
            raise RuleError(self.STILL_OPEN, step=state.step)
        return dataclasses.replace(state, step=state.step + 1, open=True), []

    def awaiting(self, state: GameStateT) -> list[str]:
        """Every seat while a step is open (simultaneous orders); nobody otherwise."""
        return list(state.seats) if state.open and not self.outcome(state).finished else []

    def choices(self, state: GameStateT, seat: str) -> list[ChoiceGroup]:
        """No buttons: orders are typed (override to offer them; each token must parse)."""
        return []

    def resolve(
        self,
        state: GameStateT,
        orders: Mapping[str, OrderT | str],
        dice: Dice,
        secret: Dice = NO_SECRET,
    ) -> tuple[GameStateT, list[Event]]:
        """Play the open step (the preamble every engine needs, then :meth:`play`): refuse a
        finished game and a step not open; each awaited seat's order, parsed if it is still
        text, its default if it is missing (orders of seats not awaited are not played)."""
        if self.outcome(state).finished:
            raise RuleError(self.FINISHED)
        if not state.open:
            raise RuleError(self.NOT_OPEN, step=state.step)
        prepared = prepared_orders(
            self.awaiting(state),
            orders,
            lambda seat, text: self.parse(state, seat, text),
            lambda seat: self.default_order(state, seat),
        )
        closed = dataclasses.replace(copy.deepcopy(state), open=False)
        return self.play(closed, prepared, dice, secret)

    def resign(self, state: GameStateT, seat: str) -> tuple[GameStateT, list[Event]]:
        """``seat`` gives up and the game ends: the other seat wins (every other seat, in a game
        of more). The event: ``resigned`` with ``seat`` and ``winner`` (``winners``, a list,
        when several win)."""
        self.check_seat(state, seat)
        if self.outcome(state).finished:
            raise OrderRejected(self.FINISHED)
        others = [s for s in state.seats if s != seat]
        data: JSON = {"seat": seat}
        data.update({"winner": others[0]} if len(others) == 1 else {"winners": others})
        result = Outcome.win(*others, reason="resign")
        return dataclasses.replace(state, open=False, result=result), [Event("resigned", data)]

    def outcome(self, state: GameStateT) -> Outcome:
        return state.result

    def view(self, state: GameStateT, seat: str | None) -> JSON:
        """The whole state to every reader (its JSON but the schema and the game's id): right
        for a game with no hidden facts in its state. Override it otherwise, naming the fields
        a seat's view may add in ``private_view_fields``."""
        obj = self.to_json(state)
        del obj["schema"], obj["game_id"]
        return obj

    def summary(self, state: GameStateT) -> JSON:
        """What ``python -m bot replay`` prints as the game's result: the public view."""
        return self.view(state, None)

    def step_number(self, state: GameStateT) -> int:
        return state.step

    def step_label(self, state: GameStateT) -> str:
        """``"turn 3"``: ``STEP_NAME`` and the step's number."""
        return f"{self.STEP_NAME} {self.step_number(state)}"

    def to_json(self, state: GameStateT) -> JSON:
        """The state's fields as plain JSON (new objects: nothing shared with the state), with
        ``schema``: ``SCHEMA_VERSION``."""
        return {"schema": self.SCHEMA_VERSION, **state_json.encode(state)}

    def from_json(self, obj: Mapping[str, Any]) -> GameStateT:
        """Load a stored state: of another schema (``BAD_SCHEMA``), with a field missing, of
        another type or unknown, or refused by the state's own checks (``BAD_STATE``), it is a
        :class:`StateError` rather than a game that quietly plays by other rules."""
        if not isinstance(obj, Mapping):
            raise StateError(self.BAD_STATE, reason="not an object")
        schema = obj.get("schema")
        if schema != self.SCHEMA_VERSION or isinstance(schema, bool):
            raise StateError(self.BAD_SCHEMA, found=repr(schema), expected=self.SCHEMA_VERSION)
        fields = {k: v for k, v in obj.items() if k != "schema"}
        try:
            state: GameStateT = state_json.decode_fields(self.state_type, fields, "")
        except state_json.Malformed as error:
            raise StateError(self.BAD_STATE, reason=str(error.args[0])[:80]) from None
        return state


# --- the presenter -------------------------------------------------------------------------------


class Presenter:
    """How a ruleset reads and looks (pure: i18n and its renderer).

    The defaults read the ruleset's catalogue by convention (``<key>.title``,
    ``<key>.event.<type>``, ``<key>.dm.help``, ``<key>.challenge``, ``<key>.how_to_play``); a
    ruleset overrides what it words differently, as d20's ``Stringifier`` subclasses do.
    """

    def __init__(self, key: str) -> None:
        self.key = key

    # the game as a whole
    def title(self, lang: str) -> str:
        return t(lang, f"{self.key}.title")

    def how_to_play(self, lang: str) -> str:
        return t(lang, f"{self.key}.how_to_play")

    def challenge_text(self, lang: str, **params: Any) -> str:
        """The invitation posted with Accept/Decline."""
        return t(lang, f"{self.key}.challenge", **params)

    def accepted_text(self, lang: str, **params: Any) -> str:
        """The line that replaces the invitation when the game starts."""
        return t(lang, "challenge.accepted", **params)

    def step_name(self, view: Mapping[str, Any], lang: str, turn: int) -> str:
        """What this step is called ("Turn 3", or the ruleset's own: "Deployment")."""
        return t(lang, "game.step.turn", turn=turn)

    def outcome_text(
        self, outcome: Outcome, lang: str, users: Mapping[str, int], end_reason: str | None
    ) -> str:
        """The result line. ``users``: each seat's Discord user id (for a mention)."""
        if outcome.draw:
            return t(lang, "game.outcome.draw")
        if outcome.coop is not None:
            return t(lang, f"{self.key}.outcome.{outcome.coop}")
        if len(outcome.winners) == 1:
            seat = outcome.winners[0]
            key = "game.outcome.resigned" if end_reason == "resign" else "game.outcome.winner"
            return t(lang, key, seat=seat, user=f"<@{users.get(seat, 0)}>")
        if outcome.winners:
            winners = " ".join(f"{s} (<@{users.get(s, 0)}>)" for s in outcome.winners)
            return t(lang, "game.outcome.winners", winners=winners)
        return t(lang, "game.outcome.nobody")

    # the channel post
    def tallies(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        return []

    def event_key(self, event: Mapping[str, Any]) -> str | None:
        """The catalogue key that words ``event``; None for bookkeeping the log leaves out."""
        return f"{self.key}.event.{event['type']}"

    def event_params(
        self, event: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> dict[str, Any]:
        return {k: v for k, v in event.items() if k != "type"}

    def event_lines(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> list[str]:
        lines = []
        for event in events:
            key = self.event_key(event)
            if key is not None:
                lines.append("• " + t(lang, key, **self.event_params(event, lang, names)))
        return lines

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        raise NotImplementedError(f"{type(self).__name__} draws no board")

    def channel_choices(self, view: Mapping[str, Any]) -> bool:
        """Whether the awaited seats' buttons also go under the channel post (a step every
        player answers with the same public choices, such as a vote)."""
        return False

    def headline(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> str | None:
        """The step's main event in words: the channel post's first line (plain form, no
        bullet). ``events`` are the step's public events; None when none is worth a line. Here
        the first event the log words; a ruleset picks what matters most (a knockout over a
        move)."""
        lines = self.event_lines(events, lang, names)
        return lines[0].removeprefix("• ") if lines else None

    # the seat's DM: what changed for it, then the question; its sheet behind 📋, help behind ❓
    def seat_memo(self, view: Mapping[str, Any], seat: str) -> JSON | None:
        """What the seat's next prompt compares against to say what changed since this one
        (small: its hit points, its cards, who stands near it), from the seat's own view. It is
        stored with the seat each time the seat is prompted."""
        return None

    def seat_news(self, memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        """What changed for ``seat`` since its last prompt (``memo``: :meth:`seat_memo` then;
        None at its first prompt): the prompt's first lines, in です・ます form in Japanese."""
        return []

    def question(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        """What the prompt asks of the seat now, in a line or two (its buttons are the
        answers): after the news and the step's header."""
        return []

    def private_lines(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        """The seat's own sheet (its hand, keys, stats): the private answer of the prompt's
        📋 button."""
        return []

    def order_help(self, lang: str) -> str:
        """How to order, with every term the buttons use explained: sent with the seat's first
        prompt of a game, then behind the prompt's ❓ button."""
        return t(lang, f"{self.key}.dm.help")

    def order_text(self, text: str, lang: str) -> str:
        """An order as players read it in acknowledgements and posts. The stored text stays as
        sent (its receipt and the proofs are of that text); a ruleset may show it in the words
        its logs use (tactics shows unit ids ``A4`` as ``A-4``)."""
        return text

    def private_board(self, view: Mapping[str, Any], seat: str) -> bool:
        """Whether this step's DM carries a board drawn from the seat's own view (hidden
        information the channel's board cannot show, such as one's own face-down panels)."""
        return False

    def board_description(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str], scene: BoardScene
    ) -> str:
        """The board image's description (its alt text, :data:`bot.alttext.LIMIT` characters at
        most), worded from the view the board is drawn from: here the ruleset, the step and its
        number, and whose move it is; a ruleset adds what changed and where things stand."""
        return alttext.compose(lang, alttext.header(self.title(lang), lang, names, scene))


# --- the spec ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    """A lazily imported object, ``"package.module:attribute"`` (or a whole module).

    Specs name the parts that import discord (a cog's builder) or are heavy (the demo players)
    this way, so that reading the registry imports neither.
    """

    path: str

    def load(self) -> Any:
        module_name, _, attribute = self.path.partition(":")
        module = importlib.import_module(module_name)
        return getattr(module, attribute) if attribute else module


@dataclass(frozen=True)
class SeatSpec:
    """Seat names in order, the player counts a game may start with, and the demo's seats."""

    names: tuple[str, ...]
    counts: tuple[int, ...] = ()
    demo: tuple[str, ...] = ()

    def allowed(self) -> tuple[int, ...]:
        return self.counts or (len(self.names),)

    def for_demo(self) -> tuple[str, ...]:
        return self.demo or self.names


class DemoPlayer(Protocol):
    def choose(self, state: Any, seat: str, rng: Any) -> str:
        """An order text for ``seat`` (the demo's built-in players, and the tests')."""
        ...


@dataclass(frozen=True)
class CliCommand:
    """A ``python -m bot <name>`` subcommand a ruleset adds: ``module`` offers
    ``add_arguments(parser)`` and ``run(args) -> int``."""

    name: str
    help: str
    module: Ref


# --- leagues ---------------------------------------------------------------------------------


class OptionRefused(RuleError):
    """A league's fixed option the ruleset does not take (its :class:`FixedOption`'s key)."""


def places_by_outcome(outcome: Outcome, players: Mapping[str, str]) -> dict[str, int]:
    """Each player's place (``players``: seat -> player): the winners first, everyone else
    second; a draw, or an end without a winner, places everyone first."""
    if not outcome.winners:
        return dict.fromkeys(players.values(), 1)
    return {player: 1 if seat in outcome.winners else 2 for seat, player in players.items()}


def result_by_outcome(
    state: Mapping[str, Any], outcome: Outcome, players: Mapping[str, str]
) -> LeagueResult:
    """A league result from the outcome alone (a ruleset without tie-break figures)."""
    return LeagueResult(places_by_outcome(outcome, players))


ResultOf = Callable[[Mapping[str, Any], Outcome, Mapping[str, str]], LeagueResult]


@dataclass(frozen=True)
class LeagueSupport:
    """What a league may do with a ruleset (a spec without it cannot be played in a league).

    ``rosters``: the ruleset's :class:`~bot.leagues.RosterRules` (draft pool, ante, masters, a
    match's options from the rosters), or None: its leagues keep standings and ratings only.
    ``result(state, outcome, players)``: a finished game's :class:`~bot.leagues.LeagueResult`,
    from its stored state (JSON), its :class:`Outcome` and seat -> player; by default the
    outcome's winners first (:func:`result_by_outcome`). ``figures``: the names of the tie-break
    figures its results carry (:data:`bot.leagues.DP`: the standings show DP for and against).
    ``options``: the game options a league may fix for its matches; a league match's options
    are these (with the league's values), the rosters' where there are rosters, and ``league``
    (the league's id, which changes nothing in play: the engine's ``check_options`` must take
    it). ``master_options``: with masters, a :class:`Ref` to the decorator that gives
    ``/league master`` the ruleset's options (discord; loaded by the league's cog only): the
    decorated callback is handed ``spec``, what ``rosters.master`` reads, or None.

    A league may fix more than its options when it is created: ``at_creation(options, pack)``
    (pure) gives the league's stored options from those the moderator chose and the server's
    current data pack of the ruleset (its canonical JSON text as stored, None: none), so the
    league keeps that pack whatever the server loads later; ``rosters_of(options)`` then gives
    the rosters of a league from its stored options (None: ``rosters`` for every league; see
    :meth:`rosters_for`). ``draft_rounds``: the fewest rounds the entry draft may have (and its
    default), where the rosters need them to reach a match (None: the league's own default).
    ``minutes_option``: the game option that reads the league's minutes per turn (None: the
    table's turn deadline does), set in each match unless the league's options already set it.

    A ruleset whose every seat scores points of its own (``result`` gives
    :attr:`~bot.leagues.LeagueResult.points`, Esper's grades) says how in ``points_key``, the
    catalogue key ``/league info`` shows (None: 3 for a win, 1 for a draw). ``season_options``:
    a :class:`Ref` to ``async (transaction, guild id, users in seat order, the ids of the
    league's finished games) -> options`` a match takes from its players' earlier games (Esper:
    the characters each played in the league's season, which its refusal rule reads; loaded by
    the league's service only, so it may read storage).
    """

    rosters: RosterRules | None = None
    result: ResultOf = result_by_outcome
    figures: tuple[str, ...] = ()
    options: tuple[FixedOption, ...] = ()
    master_options: Ref | None = None
    at_creation: Callable[[Mapping[str, Any], str | None], dict[str, Any]] | None = None
    rosters_of: Callable[[Mapping[str, Any]], RosterRules] | None = None
    draft_rounds: int | None = None
    minutes_option: str | None = None
    points_key: str | None = None
    season_options: Ref | None = None

    def __post_init__(self) -> None:
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"a fixed option declared twice: {names}")
        if self.master_options is not None and not (self.rosters and self.rosters.has_masters):
            raise ValueError("master_options need rosters with masters")

    def option(self, name: str) -> FixedOption | None:
        return next((o for o in self.options if o.name == name), None)

    def rosters_for(self, options: Mapping[str, Any]) -> RosterRules | None:
        """The rosters of a league whose stored options are ``options`` (None: it has none)."""
        if self.rosters is None or self.rosters_of is None:
            return self.rosters
        return self.rosters_of(options)

    def fixed(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Each declared option with its value in ``given`` (a league's options), else its
        default; :class:`OptionRefused` for a value it cannot take."""
        chosen = {o.name: given.get(o.name, o.default) for o in self.options}
        for option in self.options:
            if not option.allows(chosen[option.name]):
                raise OptionRefused(option.refused, value=chosen[option.name])
        return chosen


@dataclass(frozen=True)
class RulesetSpec(Generic[StateT, OrderT]):
    """One ruleset, whole: what the framework needs to run, show and test its games.

    ``private_view_fields`` names the top-level fields of ``view(state, seat)`` that may differ
    from the public view ``view(state, None)``: a seat's own dice or hand. The conformance test
    holds every ruleset to it, so a field added to a view cannot leak a private fact unnoticed.

    Hidden information (``shared/spec/dice-and-receipts.md``): ``secret_stream`` asks for the
    game's secret stream (the engine's ``secret`` dice); ``withheld(state, seat)`` says, before a
    step resolves, whether that seat's order stays private after it (only its receipt is shown
    until an :data:`INPUTS_REVEALED` event or the end). ``step_seconds(state)`` gives the step
    now open a deadline of its own (None: the game's). ``adjudicate(state)`` ends the game now by
    the ruleset's documented tie-break (a moderator's ruling); None: the ruleset has none.

    ``post_group(state)`` names the run of steps one channel post follows (None: a post of its
    own, the default): while the open step's key stays the same, the table edits that post (its
    log grows, its board and prompt move on) instead of posting again, so a run of quick steps
    (a combat round answered seat by seat) is one message in a busy channel, not ten.

    ``hidden_twin(state, rng)`` (optional, for a ruleset with hidden facts; the bot never calls
    it) gives a state that differs from ``state`` only in hidden facts the public cannot tell
    apart: its public view ``view(…, None)`` the same, and so is every hidden number the rules
    make public through a roll's result (two seats' secret hands swapped, face-down cards
    permuted), drawn with ``rng`` (a :class:`random.Random`); None when there is none. It must
    not change ``state``. The conformance suite's noninterference check
    (``tests/test_noninterference.py``) plays both on with the same orders and dice and requires
    the same public transcript (channel posts, boards, buttons, who is awaited, when steps
    close) while their public views agree: what the bot does may depend on public facts and on
    what the players chose to do, never on a hidden fact.

    These seven (:data:`ENGINE_HOOKS`) a :class:`BaseEngine` declares as its own members, once:
    for a class engine the spec takes each one it leaves unset (None, False or empty) from the
    engine. A module engine's spec names them.

    ``league`` (:class:`LeagueSupport`) says what a league may do with the ruleset; None: it
    cannot be played in a league.
    """

    key: str
    engine: Engine[StateT, OrderT]
    presenter: Presenter
    seats: SeatSpec
    extension: str | None = None  # the discord.py extension with the ruleset's commands
    sheet_builder: Ref | None = None  # an order builder behind one DM button (a whole sheet)
    demo_player: Ref | None = None  # a DemoPlayer (module or object)
    cli: tuple[CliCommand, ...] = ()
    view_kinds: Mapping[str, Ref] = field(default_factory=dict)
    locales: Path | None = None  # the ruleset's catalogues (default: its package's locales/)
    private_view_fields: frozenset[str] = frozenset()
    secret_stream: bool = False
    withheld: Callable[[StateT, str], bool] | None = None
    step_seconds: Callable[[StateT], int | None] | None = None
    adjudicate: Callable[[StateT], tuple[StateT, list[Event]]] | None = None
    post_group: Callable[[StateT], str | None] | None = None
    hidden_twin: Callable[[StateT, random.Random], StateT | None] | None = None
    league: LeagueSupport | None = None  # what a league may do with it (None: no leagues)

    def __post_init__(self) -> None:
        # A class engine declares its hidden-information hooks as its own members (BaseEngine's):
        # the spec takes each one it does not set itself, so the table reads them here alike.
        if isinstance(self.engine, BaseEngine):
            for name in ENGINE_HOOKS:
                if not getattr(self, name):
                    object.__setattr__(self, name, getattr(self.engine, name))


# The RulesetSpec fields a BaseEngine may declare instead.
ENGINE_HOOKS = (
    "private_view_fields",
    "secret_stream",
    "withheld",
    "step_seconds",
    "adjudicate",
    "post_group",
    "hidden_twin",
)
