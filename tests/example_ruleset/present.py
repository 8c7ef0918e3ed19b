"""How rock-paper-scissors reads and looks. Pure (i18n and the renderer only).

The :class:`bot.ruleset.Presenter` defaults already read this ruleset's catalogue by convention
(``rps.title``, ``rps.how_to_play``, ``rps.challenge``, ``rps.dm.help``, ``rps.event.<type>``), so
this subclass overrides only what this game says differently: throws in the reader's language,
the score, and the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from bot.ruleset import Presenter

from . import board

THROW_FIELDS = ("winning", "losing", "throw")  # event fields that hold a throw token


class RpsPresenter(Presenter):
    def event_params(
        self, event: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> dict[str, Any]:
        # Events store the English token ("rock"); a reader sees "グー" in Japanese.
        params = super().event_params(event, lang, names)
        for name in THROW_FIELDS:
            if name in params:
                params[name] = t(lang, f"{self.key}.choice.{params[name]}")
        return params

    def tallies(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        """The score, one embed field per seat."""
        return [
            (
                f"{seat} · {names.get(seat, seat)}",
                t(lang, f"{self.key}.tally.wins", wins=wins, needed=view["needed"]),
            )
            for seat, wins in view["wins"].items()
        ]

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        return board.render(view, lang, names)


PRESENTER = RpsPresenter("rps")
