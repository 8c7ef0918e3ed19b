"""The ruleset contract: one registered, typed value per game.

A ruleset is one folder, ``cogs/<name>/``, whose ``__init__.py`` exports ``RULESET``, a
:class:`RulesetSpec`: the key, the pure engine (an :class:`Engine` over the ruleset's own state
and order types), the presenter (a :class:`Presenter` subclass), the seats, and the optional parts
(the cog's extension, a sheet builder, the demo players, command-line subcommands, stored view
kinds, and the hooks of hidden-information games). :mod:`bot.registry` discovers the specs; the
framework never names a game.

Engines are pure: no discord, no storage, no clock, no randomness except the :class:`bot.dice.Dice`
they are handed. Errors carry a message key (``"arena.reject.wall"``) and parameters; the i18n
layer turns them into a sentence in the reader's language. Events likewise are data that the
presenter words.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from bot.dice import Dice
from bot.i18n import t

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
    """What a ruleset's pure engine offers (``cogs/<name>/rules.py``: module-level functions).

    ``StateT`` is the ruleset's state, ``OrderT`` its order type. ``dice`` is the step's
    committed stream (``pre`` in :meth:`start_turn`, ``resolve`` in :meth:`resolve`); ``secret``
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
    def start_turn(self, state: StateT, dice: Dice, secret: Dice) -> tuple[StateT, list[Event]]: ...
    def awaiting(self, state: StateT) -> list[str]: ...
    def parse(self, state: StateT, seat: str, text: str) -> OrderT: ...
    def choices(self, state: StateT, seat: str) -> list[ChoiceGroup]: ...
    def default_order(self, state: StateT, seat: str) -> OrderT: ...
    def resolve(
        self, state: StateT, orders: Mapping[str, OrderT], dice: Dice, secret: Dice
    ) -> tuple[StateT, list[Event]]: ...
    def resign(self, state: StateT, seat: str) -> tuple[StateT, list[Event]]: ...
    def view(self, state: StateT, seat: str | None) -> JSON: ...
    def outcome(self, state: StateT) -> Outcome: ...
    def summary(self, state: StateT) -> JSON: ...
    def turn(self, state: StateT) -> int: ...
    def step_label(self, state: StateT) -> str:
        """The ruleset's name for the step now open (``"turn 3"``, ``"deploy"``, ``"round 2
        pick"``), in no language: match records and ``replay`` name steps by it."""
        ...

    def to_json(self, state: StateT) -> JSON: ...
    def from_json(self, obj: Mapping[str, Any]) -> StateT: ...


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

    # the seat's DM
    def private_lines(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return []

    def order_help(self, lang: str) -> str:
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
