"""A game as the table works on it: its stored row, its ruleset, and its state decoded once.

Decoding a state (``from_json``) and computing its views are the costly parts of handling an
order; a DM order used to decode the same state three times (finding the game, sealing the order,
resolving the turn). A state at a given version never changes, so a process keeps the last few
decoded states by ``(game id, version)`` and every step of the path reuses them. Engines are pure
and return new states (the conformance test checks that no engine call mutates its input), so a
cached state is safe to share.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot import registry
from bot.ruleset import JSON, Engine, Outcome, Presenter, RulesetSpec

if TYPE_CHECKING:
    from bot.storage.base import GameRow, OrderRow

CACHED_STATES = 512


@dataclass
class LoadedGame:
    """A running (or finished) game: ``game`` is the row, ``state`` the engine's decoded state."""

    game: GameRow
    spec: RulesetSpec[Any, Any]
    state: Any
    # Withheld orders this change made public (a reveal event, or the end), for the post.
    later_orders: list[OrderRow] = field(default_factory=list)
    _views: dict[str | None, JSON] = field(default_factory=dict, repr=False)

    @property
    def engine(self) -> Engine[Any, Any]:
        return self.spec.engine

    @property
    def presenter(self) -> Presenter:
        return self.spec.presenter

    def view(self, seat: str | None = None) -> JSON:
        """``engine.view(state, seat)``, computed once per state."""
        if seat not in self._views:
            self._views[seat] = self.engine.view(self.state, seat)
        return self._views[seat]

    def awaiting(self) -> list[str]:
        return self.engine.awaiting(self.state) if self.state is not None else []

    def outcome(self) -> Outcome:
        return self.engine.outcome(self.state) if self.state is not None else Outcome.ongoing()

    def post_group(self) -> str | None:
        """The run of steps the open step's channel post belongs to (``RulesetSpec.post_group``):
        None when the game is over or the ruleset posts every step on its own."""
        if self.spec.post_group is None or self.state is None or self.game.status != "active":
            return None
        return self.spec.post_group(self.state)

    def advance(self, state: Any) -> None:
        """Move on to the engine's next state (its views are computed afresh)."""
        self.state = state
        self._views.clear()


class StateCache:
    """Decoded states of the last games handled, by ``(game id, version)``."""

    def __init__(self, size: int = CACHED_STATES) -> None:
        self.size = size
        self._states: OrderedDict[tuple[str, int], Any] = OrderedDict()

    def load(self, game: GameRow) -> LoadedGame:
        spec = registry.get(game.ruleset)
        if game.state is None:
            return LoadedGame(game, spec, None)
        key = (game.id, game.version)
        state = self._states.get(key)
        if state is None:
            state = spec.engine.from_json(game.state)
            self._states[key] = state
            if len(self._states) > self.size:
                self._states.popitem(last=False)
        else:
            self._states.move_to_end(key)
        return LoadedGame(game, spec, state)

    def remember(self, game: GameRow, state: Any) -> None:
        """The state just stored as ``game.version`` (no need to decode what we encoded)."""
        self._states[(game.id, game.version)] = state
        self._states.move_to_end((game.id, game.version))
        if len(self._states) > self.size:
            self._states.popitem(last=False)
