"""How rock-paper-scissors reads and looks. The :class:`bot.ruleset.Presenter` defaults read the
catalogue (``rps.title``, ``rps.how_to_play``, ``rps.event.<type>``…); this words the throws in
the reader's language, gives the score and draws the board. Pure (i18n and the renderer)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from bot.ruleset import Presenter

from . import board
from .rules import THROWS, WINS_NEEDED


class RpsPresenter(Presenter):
    def event_params(
        self, event: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> dict[str, Any]:
        """Events keep a throw's token (``rock``): a reader sees ``グー`` in Japanese."""
        params = super().event_params(event, lang, names)
        return {k: t(lang, f"rps.choice.{v}") if v in THROWS else v for k, v in params.items()}

    def tallies(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        """The score, one embed field per seat."""
        return [
            (f"{s} · {names.get(s, s)}", t(lang, "rps.tally.wins", wins=n, needed=WINS_NEEDED))
            for s, n in view["wins"].items()
        ]

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        return board.render(view, lang, names)


PRESENTER = RpsPresenter("rps")
