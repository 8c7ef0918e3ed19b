"""The Sealed Bids board: the rounds each team scored, one card per seat (cards left, revealed
plays, resigned), and, on a seat's own board, its team and hand.

Pure (Pillow and i18n only): it draws the ``view`` it is handed, never the state. The public view
has no teams (until the end) and no hands, so the channel's board cannot show them; a seat's view
adds ``you``, drawn as a panel of its own at the bottom. House-style pieces come from
:mod:`bot.render.canvas`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import ImageDraw

from bot.i18n import t
from bot.render.canvas import CARD_BG, GOLD, MUTED, TEXT, Supersample, display_names
from bot.render.fonts import fit

WIDTH, HEADER, MARGIN, GAP = 720, 56, 20, 12
SCORE_TOP, SCORE_HEIGHT = HEADER + 16, 52
COLUMNS, CARD_HEIGHT = 4, 84
YOU_HEIGHT = 96
TEAM_COLOUR = {"sun": (244, 141, 30), "moon": (45, 112, 232)}
UNKNOWN = (110, 115, 128)  # a seat whose team the reader does not know
PAPER = (236, 230, 214)
CANVAS = Supersample(2)


def height(view: Mapping[str, Any]) -> int:
    rows = -(-len(view["seats"]) // COLUMNS)
    you = YOU_HEIGHT + GAP if view.get("you") else 0
    return SCORE_TOP + SCORE_HEIGHT + GAP + rows * (CARD_HEIGHT + GAP) + you + MARGIN - GAP


def _card_width() -> float:
    return (WIDTH - 2 * MARGIN - (COLUMNS - 1) * GAP) / COLUMNS


def _scores(d: ImageDraw.ImageDraw, view: Mapping[str, Any], lang: str) -> None:
    c = CANVAS
    width = (WIDTH - 2 * MARGIN - GAP) / 2
    for index, (team, count) in enumerate(view["scored"].items()):
        x0 = MARGIN + index * (width + GAP)
        box = (x0, SCORE_TOP, x0 + width, SCORE_TOP + SCORE_HEIGHT)
        c.side_card(d, box, TEAM_COLOUR[team])
        won = (view.get("outcome") or {}).get("team") == team
        if won:
            c.result_frame(d, box)
        label = t(lang, "bids.board.team_rounds", team=t(lang, f"bids.team.{team}"), count=count)
        middle = SCORE_TOP + SCORE_HEIGHT / 2
        font = c.font(18, bold=True)
        d.text(c.sp((x0 + 22, middle)), label, font=font, fill=TEXT, anchor="lm")
        meter = (x0 + width - 140, middle - 6, x0 + width - 16, middle + 6)
        c.card_meter(d, meter, count, view["rounds"], TEAM_COLOUR[team], segments=view["rounds"])


def _seat_colour(view: Mapping[str, Any], seat: str) -> tuple[int, int, int]:
    teams = view.get("teams") or {}
    you = view.get("you") or {}
    team = teams.get(seat) or (you.get("team") if you.get("seat") == seat else None)
    return TEAM_COLOUR.get(team or "", UNKNOWN)


def _seats(
    d: ImageDraw.ImageDraw, view: Mapping[str, Any], lang: str, names: Mapping[str, str] | None
) -> None:
    c = CANVAS
    seats = view["seats"]
    shown = display_names(names, seats, lambda seat: t(lang, "bids.board.player", seat=seat))
    winners = set((view.get("outcome") or {}).get("winners") or ())
    width, top = _card_width(), SCORE_TOP + SCORE_HEIGHT + GAP
    for index, seat in enumerate(seats):
        row, column = divmod(index, COLUMNS)
        x0 = MARGIN + column * (width + GAP)
        y0 = top + row * (CARD_HEIGHT + GAP)
        box = (x0, y0, x0 + width, y0 + CARD_HEIGHT)
        c.side_card(d, box, _seat_colour(view, seat))
        if seat in winners:
            c.result_frame(d, box)
        left, room = x0 + 18, width - 26
        name_font = c.font(15, bold=True)
        d.text(
            c.sp((left, y0 + 10)),
            fit(f"{seat} · {shown[seat]}", name_font, c.s(room)),
            font=name_font,
            fill=TEXT,
        )
        if seat in view["resigned"]:
            status = t(lang, "bids.board.resigned")
        else:
            status = t(lang, "bids.board.cards_left", count=view["cards_left"][seat])
        d.text(c.sp((left, y0 + 34)), status, font=c.font(13), fill=MUTED)
        plays = [
            t(lang, "bids.board.play", round=shown_round["round"], card=shown_round["plays"][seat])
            for shown_round in view["revealed"]
            if seat in shown_round["plays"]
        ]
        if plays:
            play_font = c.font(13, bold=True)
            d.text(
                c.sp((left, y0 + 56)),
                fit("  ".join(plays), play_font, c.s(room)),
                font=play_font,
                fill=GOLD,
            )


def _you(d: ImageDraw.ImageDraw, view: Mapping[str, Any], lang: str, top: float) -> None:
    c = CANVAS
    you = view["you"]
    box = (MARGIN, top, WIDTH - MARGIN, top + YOU_HEIGHT)
    c.side_card(d, box, TEAM_COLOUR.get(you["team"], UNKNOWN))
    team = t(lang, f"bids.team.{you['team']}")
    label = t(lang, "bids.board.you", seat=you["seat"], team=team)
    d.text(c.sp((MARGIN + 22, top + 14)), label, font=c.font(16, bold=True), fill=TEXT)
    if not you["hand"]:
        d.text(
            c.sp((MARGIN + 22, top + 50)), t(lang, "bids.board.empty"), font=c.font(14), fill=MUTED
        )
        return
    number_font = c.font(22, bold=True)
    for index, card in enumerate(you["hand"]):
        x0 = MARGIN + 22 + index * 56
        face = (x0, top + 40, x0 + 44, top + YOU_HEIGHT - 10)
        d.rounded_rectangle(c.rect(face), radius=c.s(6), fill=PAPER, outline=CARD_BG, width=c.s(2))
        centre = ((face[0] + face[2]) / 2, (face[1] + face[3]) / 2)
        d.text(c.sp(centre), str(card), font=number_font, fill=CARD_BG, anchor="mm")


def render(view: Mapping[str, Any], lang: str, names: Mapping[str, str] | None = None) -> bytes:
    """The board as PNG bytes (its height grows with the number of seats)."""
    c = CANVAS
    total = height(view)
    img = c.new_board(WIDTH, total, HEADER)
    d = ImageDraw.Draw(img)
    if view.get("outcome") is not None:
        status = t(lang, "bids.board.final")
    else:
        status = t(lang, "bids.step.round", round=view["round"], rounds=view["rounds"])
    c.header_text(
        d, t(lang, "bids.title"), status, height=HEADER, right=WIDTH - MARGIN, sizes=(24, 20, 16)
    )
    _scores(d, view, lang)
    _seats(d, view, lang, names)
    if view.get("you"):
        _you(d, view, lang, total - MARGIN - YOU_HEIGHT)
    return c.png(img)
