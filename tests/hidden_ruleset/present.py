"""How Sealed Bids reads and looks. Pure (i18n and the renderer only).

The :class:`bot.ruleset.Presenter` defaults read this ruleset's catalogue by convention
(``bids.title``, ``bids.how_to_play``, ``bids.challenge``, ``bids.dm.help``,
``bids.event.<type>``); this subclass adds the step's name, the score, the log's team names and
card lists, a seat's own team and hand in its DM (and, in round 1, on a board of its own), and the
board. The base class words several winners.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from bot.ruleset import INPUTS_REVEALED, Presenter

from . import board

TEAM_FIELDS = ("team", "winner")  # event fields that hold a team token


def team_name(lang: str, team: Any) -> str:
    return t(lang, f"bids.team.{team}")


def plays_text(plays: Mapping[str, Any]) -> str:
    """``A 3 · B 7 · C 1`` (seats in order)."""
    return " · ".join(f"{seat} {card}" for seat, card in sorted(plays.items()))


class BidsPresenter(Presenter):
    def step_name(self, view: Mapping[str, Any], lang: str, turn: int) -> str:
        return t(
            lang, f"{self.key}.step.round", round=view.get("round", turn), rounds=view["rounds"]
        )

    def tallies(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        """Rounds scored per team (with its seats once the game is over), and who is still in."""
        teams = view.get("teams")
        fields = []
        for team, count in view["scored"].items():
            value = t(lang, f"{self.key}.tally.rounds", count=count)
            if teams:
                seats = [seat for seat in view["seats"] if teams.get(seat) == team]
                value += "\n" + ", ".join(f"{s} · {names.get(s, s)}" for s in seats)
            fields.append((team_name(lang, team), value))
        still_in = ", ".join(
            t(
                lang,
                f"{self.key}.tally.seat",
                seat=s,
                name=names.get(s, s),
                cards=view["cards_left"][s],
            )
            for s in view["active"]
        )
        fields.append((t(lang, f"{self.key}.tally.still_in"), still_in or "—"))
        return fields

    def event_key(self, event: Mapping[str, Any]) -> str | None:
        if event["type"] == INPUTS_REVEALED:
            return None  # the cards_revealed event beside it says it in words
        return super().event_key(event)

    def event_params(
        self, event: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> dict[str, Any]:
        params = super().event_params(event, lang, names)
        for name in TEAM_FIELDS:
            if name in params:
                params[name] = team_name(lang, params[name])
        if isinstance(params.get("plays"), Mapping):
            params["plays"] = plays_text(params["plays"])
        for name, value in params.items():
            if isinstance(value, list):  # teams_revealed: the seats of each team
                params[name] = ", ".join(str(v) for v in value) or "—"
        return params

    def private_lines(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        you = view.get("you")
        if not you:
            return []
        hand = " · ".join(str(card) for card in you["hand"])
        return [
            t(lang, f"{self.key}.dm.team", team=team_name(lang, you["team"])),
            t(lang, f"{self.key}.dm.hand", hand=hand) if hand else t(lang, f"{self.key}.dm.empty"),
        ]

    def seat_memo(self, view: Mapping[str, Any], seat: str) -> dict[str, Any] | None:
        """The hand when the seat was last prompted: its next prompt says what left it."""
        you = view.get("you")
        return {"hand": list(you["hand"])} if you else None

    def seat_news(self, memo: Any, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        you = view.get("you")
        if not memo or not you:
            return []
        gone = [card for card in memo["hand"] if card not in you["hand"]]
        played = " · ".join(str(card) for card in gone)
        return (
            [t(lang, f"{self.key}.dm.news", played=played, left=len(you["hand"]))] if gone else []
        )

    def question(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        return [t(lang, f"{self.key}.dm.question")]

    def private_board(self, view: Mapping[str, Any], seat: str) -> bool:
        """Round 1's DM shows the seat its own team and hand on a board of its own."""
        return view.get("round") == 1 and bool(view.get("open")) and view.get("outcome") is None

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        return board.render(view, lang, names)


PRESENTER = BidsPresenter("bids")
