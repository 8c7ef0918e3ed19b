"""A cup's bracket as an image: a :class:`~cogs.league.cup.Cup` in, PNG bytes out (pure).

No discord and no storage here. The bracket is drawn in the house frame of the standings table
(:mod:`cogs.league.board`: its width, header, fonts and gold leader band), rounds as columns
from left to right, each headed by its name ("Round 1", "Round 2"…, then "Quarter-final",
"Semi-final", "Final"). A tie is a box of two slots, the upper player above the lower; a slot
shows the player's seed number and name (glyphs the font lacks dropped, truncated with an
ellipsis to the box), the winner of a game on a gold band, the loser greyed, "forfeit" by a
player who lost a tie by walkover, "bye" in the empty slot of a first-round tie. A line joins
each tie to the slot its winner takes in the next round, gold once decided. Under the final a
card names the champion once there is one.

Where players see it, Discord shows an image about 550 px wide, so a bracket never has more than
:data:`MAX_COLUMNS` columns: each keeps room for a readable name. A cup of more rounds (over 16
players) is cut into sections of :data:`MAX_COLUMNS` rounds, stacked (section A, B…: each the
part of the bracket that makes one player of the rounds after it), followed by the finals, whose
first slots say which section's winner comes there. A larger cup makes a taller image, never a
wider one.

Layout numbers are in output pixels; the canvas is ``board.SS`` times larger and shrunk at the end.
:func:`layout` gives every box's place (the tests read it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from PIL import ImageDraw

from bot.i18n import t
from bot.render import draw as prim
from bot.render.canvas import CARD_BG, GOLD, HEADER_RULE, METER_RIM, MUTED, TEXT, display_names
from bot.render.fonts import fit, fit_sized
from cogs.league.cup import BYE, WALKOVER, Cup, Tie, champion
from cogs.league.images import (
    CANVAS,
    HEADER_H,
    LABEL_SIZE,
    LEADER_BG,
    MARGIN,
    STRIPE,
    WIDTH,
    header,
)

__all__ = [
    "MAX_COLUMNS",
    "WIDTH",
    "Block",
    "Layout",
    "blocks",
    "layout",
    "letter",
    "render_bracket",
    "round_name",
]

Box = tuple[float, float, float, float]

MAX_COLUMNS = 4  # rounds side by side: at 550 px a column then still shows ~15 characters
_s, _sp, _f = CANVAS.s, CANVAS.sp, CANVAS.font

# Layout (output pixels). 15 px is the smallest text: 15 × 550 / 880 = 9.4 px on Discord.
TOP = HEADER_H + 10  # the first block's top
BOTTOM = 18
SECTION_H = 34  # a section's title line
HEADINGS_H = 28  # the row of round names
SLOT_H = 26  # one player's line in a tie's box
BOX_H = 2 * SLOT_H
PITCH = BOX_H + 12  # first-round ties, top to top
GAP = 28  # between two columns: the joining lines
MAX_COLUMN_W = 260  # a column is never wider (a small cup is centred)
SEED_W = 30  # the seed number's cell at a slot's left
PAD = 8
CHAMPION_GAP = 16  # between the final's box and the champion's card
CHAMPION_H = 62
BLOCK_GAP = 14  # between two blocks
SECTION_SIZE = 18
NAME_SIZE = 16
SMALL_SIZE = LABEL_SIZE  # seeds, marks, round names: 15
CHAMPION_SIZES = (20, 17)  # the champion's name: the larger when it fits
RADIUS = 6

FORFEIT = (236, 120, 104)  # the "forfeit" mark: a warm red, apart from the gold of winners
LINE = METER_RIM  # a joining line still waiting for its winner
LINE_WON = prim.shade(GOLD, 0.8)
LOSER = prim.shade(MUTED, 0.85)


@dataclass(frozen=True)
class Block:
    """A part of the bracket drawn as one grid: ``columns`` rounds from round ``first_round``
    (0-based), whose first column holds the ties ``first_tie`` to ``first_tie + ties - 1`` of
    that round. ``section`` is its index among the sections (None: the whole bracket, or the
    finals after the sections); ``feeders``: its first slots are filled by the sections' winners;
    ``shift``: columns left empty on its left (the finals stand under the sections' last
    rounds)."""

    first_round: int
    columns: int
    first_tie: int
    ties: int
    section: int | None = None
    feeders: bool = False
    shift: int = 0

    def ties_by_column(self) -> Iterator[tuple[int, int, int, int]]:
        """``(column, local, round, index)`` of each of its ties: ``local`` counts down its
        column, ``round`` and ``index`` place it in the cup (0-based)."""
        for column in range(self.columns):
            for local in range(self.ties >> column):
                yield column, local, self.first_round + column, (self.first_tie >> column) + local


@dataclass(frozen=True)
class Layout:
    """Where everything goes (output pixels) in a bracket of ``rounds`` rounds: the image's
    height, the column width and the first column's left edge, each block with its top, each
    tie's box by ``(round, index)`` (0-based) and the champion's card under the final."""

    rounds: int
    height: int
    column_w: float
    left: float
    blocks: tuple[tuple[Block, float], ...]
    boxes: dict[tuple[int, int], Box]
    champion: Box

    def column_x(self, block: Block, column: int) -> float:
        return self.left + (block.shift + column) * (self.column_w + GAP)


def blocks(rounds: int) -> list[Block]:
    """The bracket of ``rounds`` rounds as the blocks it is drawn in: itself when it has
    :data:`MAX_COLUMNS` rounds or fewer, else its sections and then the finals."""
    if rounds <= MAX_COLUMNS:
        return [Block(0, rounds, 0, 1 << (rounds - 1))]
    per = 1 << (MAX_COLUMNS - 1)  # first-round ties in a section
    sections = [
        Block(0, MAX_COLUMNS, s * per, per, section=s) for s in range(1 << (rounds - MAX_COLUMNS))
    ]
    finals = rounds - MAX_COLUMNS
    last = Block(
        MAX_COLUMNS, finals, 0, 1 << (finals - 1), feeders=True, shift=MAX_COLUMNS - finals
    )
    return [*sections, last]


def layout(rounds: int) -> Layout:
    """Every box's place in a bracket of ``rounds`` rounds."""
    columns = min(rounds, MAX_COLUMNS)
    room = WIDTH - 2 * MARGIN - (columns - 1) * GAP
    width = min(room / columns, MAX_COLUMN_W)
    left = (WIDTH - columns * width - (columns - 1) * GAP) / 2  # a narrow bracket is centred
    placed: list[tuple[Block, float]] = []
    boxes: dict[tuple[int, int], Box] = {}
    champion_box: Box = (0.0, 0.0, 0.0, 0.0)
    y = float(TOP)
    for block in blocks(rounds):
        placed.append((block, y))
        area = y + (SECTION_H if block.section is not None else 0) + HEADINGS_H
        bottom = area + block.ties * PITCH
        for column, local, r, i in block.ties_by_column():
            x0 = left + (block.shift + column) * (width + GAP)
            # a tie centres over its two feeders: ``PITCH << column`` apart
            middle = area + (PITCH << column) * (local + 0.5)
            boxes[r, i] = (x0, middle - BOX_H / 2, x0 + width, middle + BOX_H / 2)
        if (rounds - 1, 0) in boxes and champion_box[3] == 0:  # the final's block
            fx0, _, fx1, fy1 = boxes[rounds - 1, 0]
            champion_box = (fx0, fy1 + CHAMPION_GAP, fx1, fy1 + CHAMPION_GAP + CHAMPION_H)
            bottom = max(bottom, champion_box[3] + 6)
        y = bottom + BLOCK_GAP
    height = round(y - BLOCK_GAP + BOTTOM)
    return Layout(rounds, height, width, left, tuple(placed), boxes, champion_box)


def round_name(lang: str, index: int, rounds: int) -> str:
    """The heading of round ``index`` (0-based) of a cup of ``rounds`` rounds: the last three
    by name, the others by number."""
    from_last = rounds - 1 - index
    if from_last < len(_LAST_ROUNDS):
        return t(lang, _LAST_ROUNDS[from_last])
    return t(lang, "league.cup.bracket.round", number=index + 1)


_LAST_ROUNDS = (
    "league.cup.bracket.final",
    "league.cup.bracket.semi_final",
    "league.cup.bracket.quarter_final",
)


def letter(section: int) -> str:
    """A section's name: A, B… (a number past Z)."""
    return chr(ord("A") + section) if section < 26 else str(section + 1)


# --- drawing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ink:
    """What every part of one render reads: the language, the names drawn, the seed numbers."""

    lang: str
    names: Mapping[str, str]
    seed: Mapping[str, int]


def _block_heads(d: ImageDraw.ImageDraw, lay: Layout, block: Block, top: float, ink: _Ink) -> None:
    """A section's title and rule, and the round names over the block's columns."""
    y = top
    if block.section is not None:
        fnt = _f(SECTION_SIZE, bold=True)
        title = t(ink.lang, "league.cup.bracket.section", letter=letter(block.section))
        title = fit(title, fnt, _s(WIDTH - 2 * MARGIN))
        d.text(_sp((MARGIN, y + SECTION_H / 2 - 2)), title, font=fnt, fill=TEXT, anchor="lm")
        rule_y = _s(y + SECTION_H - 4)
        d.line([(_s(MARGIN), rule_y), (_s(WIDTH - MARGIN), rule_y)], fill=HEADER_RULE, width=_s(1))
        y += SECTION_H
    fnt = _f(SMALL_SIZE, bold=True)
    for column in range(block.columns):
        middle = lay.column_x(block, column) + lay.column_w / 2
        name = fit(
            round_name(ink.lang, block.first_round + column, lay.rounds), fnt, _s(lay.column_w)
        )
        d.text(_sp((middle, y + HEADINGS_H / 2)), name, font=fnt, fill=MUTED, anchor="mm")


def _empty_slot(d: ImageDraw.ImageDraw, box: Box, middle: float, words: str, indent: float) -> None:
    """A slot without a player: the words say why ("bye", "Winner of section A"), or none;
    ``indent`` from the box's left edge."""
    if words:
        small = _f(SMALL_SIZE)
        x0, _, x1, _ = box
        shown = fit(words, small, _s(x1 - x0 - indent - PAD))
        d.text(_sp((x0 + indent, middle)), shown, font=small, fill=MUTED, anchor="lm")


def _slot(d: ImageDraw.ImageDraw, box: Box, top: float, player: str, tie: Tie, ink: _Ink) -> None:
    """One player's line in a tie's box: the seed number, the name; the winner on a gold band
    (not for a bye: no game was won), the loser greyed and marked when they forfeited."""
    x0, _, x1, _ = box
    middle = top + SLOT_H / 2
    won = tie.winner == player and tie.how != BYE
    lost = tie.decided and tie.winner != player
    if won:
        d.rectangle(CANVAS.rect((x0 + 1, top + 1, x1 - 1, top + SLOT_H - 1)), fill=LEADER_BG)
        d.rectangle(CANVAS.rect((x0 + 1, top + 1, x0 + 1 + STRIPE, top + SLOT_H - 1)), fill=GOLD)
    small = _f(SMALL_SIZE, bold=won)
    seed = str(ink.seed[player])
    d.text(
        _sp((x0 + SEED_W - 4, middle)), seed, font=small, fill=GOLD if won else MUTED, anchor="rm"
    )
    right = x1 - PAD
    if lost and tie.how == WALKOVER:
        mark = t(ink.lang, "league.cup.bracket.forfeit")
        d.text(_sp((right, middle)), mark, font=small, fill=FORFEIT, anchor="rm")
        right -= small.getlength(mark) / CANVAS.factor + PAD
    fnt = _f(NAME_SIZE, bold=won)
    shown = fit(ink.names[player], fnt, _s(right - (x0 + SEED_W + PAD)))
    fill = LOSER if lost else TEXT
    d.text(_sp((x0 + SEED_W + PAD, middle)), shown, font=fnt, fill=fill, anchor="lm")


def _tie(d: ImageDraw.ImageDraw, box: Box, tie: Tie, ink: _Ink, waiting: tuple[str, str]) -> None:
    """A tie's box: its two slots, the upper above the lower."""
    x0, y0, x1, _ = box
    played = tie.decided and tie.how != BYE
    outline = prim.shade(GOLD, 0.6) if played else HEADER_RULE
    d.rounded_rectangle(
        CANVAS.rect(box), radius=_s(RADIUS), fill=CARD_BG, outline=outline, width=_s(1)
    )
    for player, top, words in ((tie.a, y0, waiting[0]), (tie.b, y0 + SLOT_H, waiting[1])):
        if player is None and tie.how == BYE:  # in line with the names
            bye = t(ink.lang, "league.cup.bracket.bye")
            _empty_slot(d, box, top + SLOT_H / 2, bye, SEED_W + PAD)
        elif player is None:
            _empty_slot(d, box, top + SLOT_H / 2, words, PAD)
        else:
            _slot(d, box, top, player, tie, ink)
    rule_y = _s(y0 + SLOT_H)
    d.line([(_s(x0 + 1), rule_y), (_s(x1 - 1), rule_y)], fill=HEADER_RULE, width=_s(1))


def _join(d: ImageDraw.ImageDraw, feeder: Box, target: Box, upper: bool, won: bool) -> None:
    """The line from a tie to the slot its winner takes in the next round."""
    _, fy0, fx1, fy1 = feeder
    tx0, ty0, _, _ = target
    start = (fx1, (fy0 + fy1) / 2)
    end_y = ty0 + (SLOT_H / 2 if upper else SLOT_H * 1.5)
    bend = (fx1 + tx0) / 2
    points = [start, (bend, start[1]), (bend, end_y), (tx0, end_y)]
    d.line([_sp(p) for p in points], fill=LINE_WON if won else LINE, width=_s(2), joint="curve")


def _champion(d: ImageDraw.ImageDraw, box: Box, winner: str | None, ink: _Ink) -> None:
    """The card under the final: its label alone until the cup is won, then the champion's name
    on gold."""
    x0, y0, x1, y1 = box
    middle = (x0 + x1) / 2
    label_font = _f(SMALL_SIZE, bold=True)
    label = fit(t(ink.lang, "league.cup.bracket.champion"), label_font, _s(x1 - x0 - 2 * PAD))
    if winner is None:
        d.rounded_rectangle(CANVAS.rect(box), radius=_s(10), outline=HEADER_RULE, width=_s(1))
        d.text(_sp((middle, (y0 + y1) / 2)), label, font=label_font, fill=MUTED, anchor="mm")
        return
    CANVAS.result_frame(d, box, fill=LEADER_BG)
    d.text(_sp((middle, y0 + 16)), label, font=label_font, fill=GOLD, anchor="mm")
    sizes = tuple(_s(size) for size in CHAMPION_SIZES)
    shown, fnt = fit_sized(ink.names[winner], sizes, _s(x1 - x0 - 2 * PAD), bold=True)
    d.text(_sp((middle, y1 - 20)), shown, font=fnt, fill=TEXT, anchor="mm")


def render_bracket(
    cup: Cup,
    names: Mapping[str, str],
    lang: str,
    *,
    title: str,
    subtitle: str = "",
) -> bytes:
    """PNG bytes (``WIDTH`` × ``layout(len(cup.rounds)).height``) of ``cup``'s bracket in
    ``lang``.

    ``names`` maps a player (a user id) to a display name (the id itself when missing or
    undrawable). ``title`` goes on the left of the header, ``subtitle`` (season, date) on its
    right.
    """
    lay = layout(len(cup.rounds))
    img = CANVAS.new_board(WIDTH, lay.height, HEADER_H)
    d = ImageDraw.Draw(img)
    header(d, title, subtitle, WIDTH)
    shown = display_names(names, cup.seeds, lambda player: player)
    ink = _Ink(lang, shown, {p: n for n, p in enumerate(cup.seeds, 1)})
    from_section = "league.cup.bracket.section_winner"
    for block, top in lay.blocks:
        _block_heads(d, lay, block, top, ink)
        ties = list(block.ties_by_column())
        for column, _, r, i in ties:  # the lines first: the boxes cover their ends
            if column + 1 < block.columns:
                feeder, target = lay.boxes[r, i], lay.boxes[r + 1, i // 2]
                _join(d, feeder, target, i % 2 == 0, cup.rounds[r][i].decided)
        for column, _, r, i in ties:
            waiting = ("", "")
            if block.feeders and column == 0:
                waiting = (
                    t(lang, from_section, letter=letter(2 * i)),
                    t(lang, from_section, letter=letter(2 * i + 1)),
                )
            _tie(d, lay.boxes[r, i], cup.rounds[r][i], ink, waiting)
    _champion(d, lay.champion, champion(cup), ink)
    return CANVAS.png(img)
