"""The contract every ruleset's pure engine offers, and the types they share.

A ruleset is a module (``cogs/<name>/rules.py``) with the functions of :class:`Ruleset`; the
framework never knows a particular game. Engines are pure: no discord, no storage, no clock, no
randomness except the :class:`bot.dice.Dice` they are handed.

Errors carry a message key (``"arena.reject.wall"``) and parameters; the i18n layer turns them into
a sentence in the reader's language. Events likewise are data that the i18n layer renders.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from bot.dice import Dice

JSON = dict[str, Any]
DRAW = "draw"


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


@dataclass(frozen=True)
class Event:
    """Something that happened, as data: ``type`` picks the sentence, ``data`` fills it."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"type": self.type, **self.data}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Event:
        data = dict(obj)
        return cls(data.pop("type"), data)


@dataclass(frozen=True)
class Choice:
    """One option a button or select offers. ``token`` is order text the parser accepts."""

    token: str
    label_key: str
    enabled: bool = True
    reason_key: str | None = None  # why it is disabled, if it is


@dataclass(frozen=True)
class ChoiceGroup:
    """A set of mutually exclusive choices; one token per group makes an order."""

    name: str
    label_key: str
    choices: Sequence[Choice]


@runtime_checkable
class Order(Protocol):
    def canonical(self) -> str:
        """The text that, parsed again, gives the same order (stored and sealed)."""
        ...


class Ruleset(Protocol):
    """What ``cogs/<name>/rules.py`` provides (module-level functions and constants)."""

    NAME: str
    SEATS: tuple[str, ...]
    SCHEMA_VERSION: int

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise a RuleError if ``options`` would not start a game (checked at the challenge)."""
        ...

    def new_game(
        self, game_id: str, seats: Sequence[str], options: Mapping[str, Any], dice: Dice
    ) -> Any: ...
    def start_turn(self, state: Any, dice: Dice) -> tuple[Any, list[Event]]: ...
    def awaiting(self, state: Any) -> list[str]: ...
    def parse(self, state: Any, seat: str, text: str) -> Order: ...
    def choices(self, state: Any, seat: str) -> list[ChoiceGroup]: ...
    def default_order(self, state: Any, seat: str) -> Order: ...
    def resolve(
        self, state: Any, orders: Mapping[str, Order], dice: Dice
    ) -> tuple[Any, list[Event]]: ...
    def resign(self, state: Any, seat: str) -> tuple[Any, list[Event]]: ...
    def view(self, state: Any, seat: str | None) -> JSON: ...
    def outcome(self, state: Any) -> str | None: ...
    def summary(self, state: Any) -> JSON: ...
    def turn(self, state: Any) -> int: ...
    def to_json(self, state: Any) -> JSON: ...
    def from_json(self, obj: Mapping[str, Any]) -> Any: ...


# Rulesets the bot knows, by key. The framework loads them by name and knows nothing else of them.
RULESETS: tuple[str, ...] = ("arena", "tactics", "dungeon")


class UnknownRuleset(RuleError):
    pass


def load(name: str) -> Ruleset:
    """The pure engine of a ruleset by its key (``"arena"``)."""
    if name not in RULESETS:
        raise UnknownRuleset("ruleset.unknown", name=name)
    module: Any = importlib.import_module(f"cogs.{name}.rules")
    return module


class Presenter(Protocol):
    """What ``cogs/<name>/present.py`` provides: how a ruleset reads and looks (pure)."""

    def title(self, lang: str) -> str: ...
    def tallies(self, view: JSON, lang: str, names: Mapping[str, str]) -> list[tuple[str, str]]: ...
    def event_lines(
        self, events: Sequence[JSON], lang: str, names: Mapping[str, str]
    ) -> list[str]: ...
    def private_lines(self, view: JSON, seat: str, lang: str) -> list[str]: ...
    def order_help(self, lang: str) -> str: ...
    def render_board(self, view: JSON, lang: str, names: Mapping[str, str]) -> bytes: ...


def load_presenter(name: str) -> Presenter:
    if name not in RULESETS:
        raise UnknownRuleset("ruleset.unknown", name=name)
    module: Any = importlib.import_module(f"cogs.{name}.present")
    return module
