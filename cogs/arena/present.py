"""How Arena Duel reads and looks: event sentences, tallies, the DM's private lines, the board.

Pure (i18n and the renderer only). Hexes read as ``q,r`` like the labels on the board, dice as
``6·5·3``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import alttext
from bot.alttext import BoardScene
from bot.i18n import t
from bot.ruleset import OrderRejected, Presenter
from cogs.arena import board
from cogs.arena.rules import START_STAMINA, parse_text

FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def _param(value: Any, lang: str) -> Any:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"{value[0]},{value[1]}"  # a hex
    if isinstance(value, list | tuple):
        return "·".join(str(v) for v in value) if value else "—"  # dice
    if isinstance(value, str) and value in FACINGS:
        return t(lang, f"arena.facing.{value}")
    return value


class ArenaPresenter(Presenter):
    def accepted_text(self, lang: str, **params: Any) -> str:
        return t(lang, "arena.challenge.accepted", **params)  # the dice wait in the DMs

    def order_text(self, text: str, lang: str) -> str:
        """The order in the reader's words (``前進 右を向く``: the labels of its buttons, which
        the parser reads back), or its canonical English tokens; text that does not read as an
        order stays as sent."""
        try:
            order = parse_text(text)
        except OrderRejected:
            return text
        if lang == "en":
            return order.canonical()
        move = t(lang, "arena.move." + order.move.replace("-", "_"))
        return f"{move} {t(lang, 'arena.turn.' + order.turn)}"

    def event_key(self, event: Mapping[str, Any]) -> str | None:
        if event["type"] in ("turn_started", "dice"):
            # The turn header says the first; the dice show in the charge check and the combat.
            return None
        return f"arena.event.{event['type']}"

    def event_lines(
        self, events: Sequence[Mapping[str, Any]], lang: str, names: Mapping[str, str]
    ) -> list[str]:
        """The events, with both fighters' stamina losses of a turn on one line (a post read on
        a phone: one line per thing that happened)."""
        lines: list[str] = []
        losses: list[Mapping[str, Any]] = []
        for event in [*events, {"type": "end"}]:
            if event["type"] == "stamina_loss":
                losses.append(event)
                continue
            if len(losses) > 1:
                each = " · ".join(
                    t(lang, "arena.event.stamina_each", **self.event_params(e, lang, names))
                    for e in losses
                )
                lines.append("• " + t(lang, "arena.event.stamina_losses", each=each))
            elif losses:
                lines += super().event_lines(losses, lang, names)
            losses = []
            if event["type"] != "end":
                lines += super().event_lines([event], lang, names)
        return lines

    def event_params(
        self, event: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> dict[str, Any]:
        params = {k: _param(v, lang) for k, v in event.items() if k != "type"}
        # ``move_key="arena.move.front_right"`` shows ``move`` in the reader's language.
        for name, key in event.items():
            if name.endswith("_key") and isinstance(key, str):
                params[name.removesuffix("_key")] = t(lang, key)
        return params

    def tallies(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]
    ) -> list[tuple[str, str]]:
        fields = []
        for seat in ("A", "B"):
            f = view["fighters"][seat]
            marks = []
            if f["may_charge"]:
                marks.append(t(lang, "arena.tally.may_charge"))
            if f["no_retreat"]:
                marks.append(t(lang, "arena.tally.no_retreat"))
            value = t(
                lang,
                "arena.tally.fighter",
                stamina=max(f["stamina"], 0),
                max=START_STAMINA,
                facing=t(lang, f"arena.facing.{f['facing']}"),
                hex=_param(f["hex"], lang),
            )
            if marks:
                value += "\n" + " · ".join(marks)
            fields.append((f"{seat} · {names.get(seat, seat)}", value))
        return fields

    def private_lines(self, view: Mapping[str, Any], seat: str, lang: str) -> list[str]:
        dice = view.get("dice", {}).get(seat)
        lines = []
        if dice:
            faces = " ".join(f"{DIE_FACES[d - 1]} **{d}**" for d in dice)
            lines.append(t(lang, "arena.dm.dice", dice=faces))
        me = view["fighters"][seat]
        if me["may_charge"]:
            lines.append(t(lang, "arena.dm.may_charge"))
        if me["no_retreat"]:
            lines.append(t(lang, "arena.dm.no_retreat"))
        return lines

    def render_board(self, view: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> bytes:
        return board.render(view, lang, dict(names))

    def board_description(
        self, view: Mapping[str, Any], lang: str, names: Mapping[str, str], scene: BoardScene
    ) -> str:
        """Who moved where, whose stamina and facing changed, and where both fighters stand."""
        return alttext.describe(
            self.title(lang),
            lang,
            names,
            scene,
            _pieces(view, lang, names),
            _pieces(scene.before, lang, names),
        )


def _pieces(
    view: Mapping[str, Any] | None, lang: str, names: Mapping[str, str]
) -> dict[str, alttext.Piece]:
    """Each fighter as a description names it: where, stamina, facing, and its marks."""
    pieces = {}
    for seat, f in ((view or {}).get("fighters") or {}).items():
        state = [
            (t(lang, "arena.alt.stamina"), f"{max(f['stamina'], 0)}/{START_STAMINA}"),
            (t(lang, "arena.alt.facing"), t(lang, f"arena.facing.{f['facing']}")),
        ]
        for mark in ("may_charge", "no_retreat"):
            if f.get(mark):
                state.append((t(lang, f"arena.alt.{mark}"), ""))
        label = alttext.seat_label(seat, names)
        pieces[seat] = alttext.Piece(label, _param(f["hex"], lang), tuple(state))
    return pieces


PRESENTER = ArenaPresenter("arena")
