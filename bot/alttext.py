"""A board image's description (its alt text) as a screen reader reads it: which step it shows,
whose move it is, what changed and where everything stands, in the reader's language.

Discord carries it as the attachment's ``description`` (at most :data:`LIMIT` characters). A
presenter (:meth:`bot.ruleset.Presenter.board_description`) words it from the view the board is
drawn from (the public one in a channel, a seat's own in its DM), so it tells nothing the picture
does not. The pieces here are what every ruleset's description is made of: the header
(:func:`header`), the changes between two views (:func:`changes`, over :class:`Piece`), and a
list of where things stand (:func:`standing`). Pure (the catalogues only).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot import limits
from bot.i18n import t

# Discord's limit on an attachment's description.
LIMIT = 1024


@dataclass(frozen=True)
class BoardScene:
    """What a board's description needs beside its view: the moment the post shows.

    ``step``: the open step's name as the post's title says it; ``turn``: the table's step
    number; ``awaited``: the seats whose orders the step waits for; ``before``: the view (of
    the same reader) before the step that just resolved, when the post shows a resolution;
    ``winners`` and ``finished``: how the game ended; ``seat``: the reader's seat, for a board
    drawn from a seat's own view (its DM).
    """

    step: str
    turn: int
    awaited: tuple[str, ...] = ()
    before: Mapping[str, object] | None = None
    finished: bool = False
    winners: tuple[str, ...] = ()
    seat: str | None = None


@dataclass(frozen=True)
class Piece:
    """One thing on a board as a description names it: ``label`` (``"A-1 Oracle"``), ``place``
    (a square or hex as the board labels it; None: off the board) and ``state``, pairs of a
    worded figure and its value (``("HP", "6/8")``), each already in the reader's language."""

    label: str
    place: str | None
    state: tuple[tuple[str, str], ...] = ()


def seat_label(seat: str, names: Mapping[str, str]) -> str:
    """``"A Aurora"``: a seat as the board shows it, its letter and its player's name."""
    name = names.get(seat)
    return f"{seat} {name}" if name and name != seat else seat


def header(title: str, lang: str, names: Mapping[str, str], scene: BoardScene) -> list[str]:
    """The first sentences of every description: the ruleset, the step and its number, and
    whose move it is (or how the game ended)."""
    key = "board.alt.private" if scene.seat is not None else "board.alt.header"
    lines = [t(lang, key, ruleset=title, step=scene.step, turn=scene.turn, seat=scene.seat or "")]
    if scene.finished:
        winners = listed(lang, [seat_label(s, names) for s in scene.winners])
        lines.append(
            t(lang, "board.alt.won", winners=winners) if winners else t(lang, "board.alt.over")
        )
    elif scene.awaited:
        seats = listed(lang, [seat_label(s, names) for s in scene.awaited])
        lines.append(t(lang, "board.alt.to_move", seats=seats))
    return lines


def listed(lang: str, items: Iterable[str]) -> str:
    """Items in a row, as the language separates them."""
    return t(lang, "board.alt.sep").join(i for i in items if i)


def _figures(lang: str, figures: Iterable[str]) -> str:
    return t(lang, "board.alt.comma").join(figures)


def _state(lang: str, state: Sequence[tuple[str, str]]) -> str:
    """A piece's figures; a figure without a value is a mark (``"may charge"``)."""
    return _figures(
        lang, [t(lang, "board.alt.figure", name=n, value=v) if v else n for n, v in state]
    )


def changes(before: Mapping[str, Piece], after: Mapping[str, Piece], lang: str) -> list[str]:
    """What changed between two views' pieces (keyed alike): moves, arrivals, departures and
    changed figures, in the order of ``after`` (then the pieces gone from it)."""
    lines = []
    for key, now in after.items():
        was = before.get(key)
        if was is None or (was.place is None and now.place is not None):
            if now.place is not None:
                lines.append(t(lang, "board.alt.entered", piece=now.label, place=now.place))
            continue
        if now.place is None and was.place is not None:
            lines.append(t(lang, "board.alt.left", piece=now.label, place=was.place))
            continue
        old = dict(was.state)
        figures = [
            t(lang, "board.alt.changed", name=name, old=old[name], new=value)
            for name, value in now.state
            if name in old and old[name] != value
        ]
        what = (
            t(lang, "board.alt.moved", piece=now.label, old=was.place, new=now.place)
            if now.place != was.place
            else now.label
        )
        if figures:
            lines.append(t(lang, "board.alt.with", what=what, figures=_figures(lang, figures)))
        elif what != now.label:
            lines.append(what)
    for key, was in before.items():
        if key not in after and was.place is not None:
            lines.append(t(lang, "board.alt.left", piece=was.label, place=was.place))
    return lines


def standing(lang: str, pieces: Iterable[Piece]) -> str:
    """Where every piece on the board stands, and its figures (one sentence)."""
    items = []
    for piece in pieces:
        if piece.place is None:
            continue
        # a count at zero says nothing a reader needs (what changed still says it went to 0)
        state = _state(lang, [(n, v) for n, v in piece.state if v != "0"])
        key = "board.alt.at_state" if state else "board.alt.at"
        items.append(t(lang, key, piece=piece.label, place=piece.place, state=state))
    return t(lang, "board.alt.standing", pieces=listed(lang, items)) if items else ""


def compose(lang: str, sentences: Iterable[str]) -> str:
    """The description: the sentences in a row, clipped to Discord's limit (at a character
    boundary, never inside a surrogate pair or a combining sequence)."""
    text = ""
    for sentence in sentences:
        if sentence:
            # the language says how sentences follow each other (a space, or none in Japanese)
            text = t(lang, "board.alt.join", first=text, then=sentence) if text else sentence
    return limits.clip(text, LIMIT)


def what_changed(lang: str, lines: Sequence[str]) -> str:
    """The changes as one sentence: ``Changed: …`` (empty when nothing changed)."""
    return t(lang, "board.alt.what_changed", changes=listed(lang, lines)) if lines else ""


def describe(
    title: str,
    lang: str,
    names: Mapping[str, str],
    scene: BoardScene,
    now: Mapping[str, Piece],
    before: Mapping[str, Piece],
    notes: Sequence[str] = (),
) -> str:
    """A board's whole description: the header, the ruleset's ``notes`` (a phase, a tie…), what
    changed since ``before`` (the pieces of ``scene.before``: nothing when the post shows no
    resolution) and where ``now``'s pieces stand."""
    changed = changes(before, now, lang) if scene.before is not None else []
    return compose(
        lang,
        [
            *header(title, lang, names, scene),
            *notes,
            what_changed(lang, changed),
            standing(lang, now.values()),
        ],
    )
