"""The DM order builder: an activation picked step by step, each step checked by the engine.

The framework's buttons send one token per group and never tell :func:`rules.choices` what was
already picked, so an attack whose target depends on where the unit ends cannot be a button. The
prompt's button opens this builder instead (an ephemeral message): the destination (each option
shows the path the engine will walk), then the facing, then the action with its targets, listed
from the square the unit will stand on, after or before the move. Every option offered has been
parsed by the engine with the picks before it, so the draft is always an order it accepts; **Seal**
submits it exactly as if it had been typed. The deck step offers the presets; deployment is five
picks of unit, square and facing; an item drawn or an event's choice, their few options.

Nothing lives in memory (:mod:`bot.orderbuilder`, shared with tactics' builder): the draft is the
message's own text and every component's ``custom_id`` says what it picks
(``ab:<game>:<turn>:<what>[:<arg>]``), so a builder left open survives a restart, and a click on
a builder of an earlier step is refused as stale. Ids and option values carry squares, facings
and places in a list (a preset's number, a unit's place in the seat's deck), never a pack's ids:
whatever a pack's ids, none passes Discord's 100 characters.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import orderbuilder
from bot.i18n import t
from bot.orderbuilder import MAX_OPTIONS, menu_values
from bot.render.squaregrid import label
from bot.ruleset import RuleError
from cogs.apeiron import field as fld
from cogs.apeiron import rules
from cogs.apeiron.present import PRESENTER, facing_word

if TYPE_CHECKING:
    from bot.storage import GameRow


def order_text(step: str, lines: Sequence[str]) -> str:
    """The order the draft stands for (a deployment is one comma-separated line); an empty draft
    stands for none, and is not sealed."""
    if not lines:
        raise RuleError("apeiron.builder.nothing")
    if step == rules.DEPLOY_STEP:
        return "deploy " + ", ".join(lines)
    return "\n".join(lines)


# --- the game as the clicking player sees it -----------------------------------------------------


class _Context:
    def __init__(self, game: GameRow, seat: str, lang: str) -> None:
        self.game, self.seat, self.lang = game, seat, lang
        self.state = rules.from_json(game.state or {})
        self.view = rules.view(self.state, seat)
        self.step = self.state.step
        self.cards = self.view.get("cards") or {}

    def name(self, card_id: str) -> str:
        entry = self.cards.get(card_id) or {}
        names = entry.get("name") or {}
        return str(names.get(self.lang) or names.get("en") or card_id)

    def parses(self, text: str) -> bool:
        try:
            rules.parse(self.state, self.seat, text)
        except RuleError:
            return False
        return True

    def header(self) -> str:
        step = PRESENTER.step_name(self.view, self.lang, self.game.step)
        return t(self.lang, "apeiron.builder.header", game=self.game.id, step=step)

    def awaited(self) -> bool:
        return self.seat in rules.awaiting(self.state)


def _select(
    ctx: _Context, what: str, options: list[discord.SelectOption], key: str, arg: str = ""
) -> BuilderSelect:
    return BuilderSelect.make(ctx.game.id, ctx.game.step, what, options, t(ctx.lang, key), arg=arg)


def _add(view: discord.ui.View, select: BuilderSelect) -> None:
    """A menu, unless it has nothing to offer (Discord refuses a select without options)."""
    if select.item.options:
        view.add_item(select)


def _buttons(ctx: _Context, view: discord.ui.View, *names: str) -> discord.ui.View:
    for what in names:
        view.add_item(BuilderButton.make(ctx.game.id, ctx.game.step, what, ctx.lang))
    return view


# --- the play step -------------------------------------------------------------------------------


def _paths(ctx: _Context) -> list[tuple[str, str, str]]:
    """(order text of the move, destination, the path shown) for every legal destination."""
    unit = rules.acting_unit(ctx.state)
    assert unit.square is not None
    if rules.boxed_in(ctx.state, unit):
        return [("stay", "stay", label(unit.square))]
    options = rules.reachable(ctx.state, unit)
    ends = sorted(options, key=lambda s: (len(options[s]), s[1], s[0]))
    start = label(unit.square)
    return [
        (
            ">".join(label(s) for s in options[end]),
            label(end),
            "→".join([start, *(label(s) for s in options[end])]),
        )
        for end in ends
    ]


def _move_of(ctx: _Context, dest: str) -> str | None:
    for text, end, _ in _paths(ctx):
        if end == dest:
            return text
    return None


def _dest_view(ctx: _Context, column: str = "") -> discord.ui.View:
    """The destinations (more than 25: a column first)."""
    view = discord.ui.View(timeout=None)
    paths = _paths(ctx)
    if len(paths) > MAX_OPTIONS and not column:
        columns = sorted({end[0] for _, end, _ in paths})
        options = [discord.SelectOption(label=c, value=c) for c in columns]
        _add(view, _select(ctx, "col", options, "apeiron.builder.pick_column"))
        return _buttons(ctx, view, "clear")
    chosen = [p for p in paths if not column or p[1][0] == column]
    options = [
        discord.SelectOption(
            label=(t(ctx.lang, "apeiron.choice.stay") if end == "stay" else end)[:100],
            value=end,
            description=shown[:100],
        )
        for _, end, shown in chosen[:MAX_OPTIONS]
    ]
    _add(view, _select(ctx, "dest", options, "apeiron.builder.pick_dest"))
    return _buttons(ctx, view, "back" if column else "clear")


def _facing_view(ctx: _Context, dest: str) -> discord.ui.View:
    move = _move_of(ctx, dest) or "stay"
    options = []
    for facing in ("keep", *fld.FACINGS):
        if not ctx.parses(f"{move} {facing}"):
            continue  # an arrow square allows its own facing only
        shown = (
            t(ctx.lang, "apeiron.choice.keep")
            if facing == "keep"
            else facing_word(ctx.lang, facing)
        )
        options.append(discord.SelectOption(label=shown[:100], value=facing))
    view = discord.ui.View(timeout=None)
    _add(view, _select(ctx, "face", options, "apeiron.builder.pick_facing", arg=dest))
    return _buttons(ctx, view, "back")


def _action_label(ctx: _Context, text: str, unit: rules.UnitState) -> str:
    """The action as its button names it (its target, the ★ ability's name and cost)."""
    return rules.action_choice(ctx.state, ctx.seat, unit, text).label(ctx.lang)


def _action_options(ctx: _Context, dest: str, facing: str) -> list[tuple[str, str]]:
    """(whole order line, label) for every action the engine accepts with this move: none, the
    actions from the destination, then the actions taken before the move."""
    move = _move_of(ctx, dest) or "stay"
    unit = rules.acting_unit(ctx.state)
    found = [(f"{move} {facing}", t(ctx.lang, "apeiron.choice.none"))]
    if ctx.step != rules.PLAY:
        return found
    trial = copy.deepcopy(ctx.state)
    moved = rules.acting_unit(trial)
    if dest != "stay":
        moved.square = fld.parse_square(dest)
    seen = set()
    for text in rules.action_texts(trial, ctx.seat, moved):
        line = f"{move} {facing} {text}"
        if text not in seen and ctx.parses(line):
            seen.add(text)
            found.append((line, _action_label(ctx, text, moved)))
    for text in rules.action_texts(ctx.state, ctx.seat, unit):
        line = f"{text}; {move} {facing}"
        if ctx.parses(line):
            found.append(
                (line, t(ctx.lang, "apeiron.builder.first", action=_action_label(ctx, text, unit)))
            )
    return found[:MAX_OPTIONS]


def _action_view(ctx: _Context, dest: str, facing: str) -> discord.ui.View:
    options = [
        discord.SelectOption(
            label=shown[:100],
            value=str(i),
            # the whole order line in the reader's words (``C4→C5 下 攻撃 D6``)
            description=PRESENTER.order_text(line, ctx.lang)[:100],
        )
        for i, (line, shown) in enumerate(_action_options(ctx, dest, facing))
    ]
    view = discord.ui.View(timeout=None)
    _add(view, _select(ctx, "act", options, "apeiron.builder.pick_action", arg=f"{dest}.{facing}"))
    return _buttons(ctx, view, "back")


# --- the other steps -----------------------------------------------------------------------------


def _main_view(ctx: _Context, lines: Sequence[str]) -> discord.ui.View:
    """What to pick next at this step, and Seal / Undo / Clear."""
    view = discord.ui.View(timeout=None)
    lang = ctx.lang
    if not ctx.awaited():
        return view
    if ctx.step == rules.DECK and not lines:
        options = [
            discord.SelectOption(
                label=t(lang, f"apeiron.choice.preset.{i}")[:100],
                value=str(i),
                description=", ".join(ctx.name(u) for u in preset["units"])[:100],
            )
            for i, preset in enumerate(_offers(ctx), 1)
        ]
        _add(view, _select(ctx, "deck", options, "apeiron.builder.pick_deck"))
    elif ctx.step == rules.DEPLOY_STEP and len(lines) < rules.DEPLOY:
        used = {line.split()[0] for line in lines}
        options = [
            discord.SelectOption(label=ctx.name(u)[:100], value=str(i), description=u[:100])
            for i, u in enumerate(_deck(ctx))
            if u not in used
        ]
        _add(view, _select(ctx, "unit", options, "apeiron.builder.pick_unit"))
    elif ctx.step in (rules.PLAY, rules.MOVE) and not lines:
        return _dest_view(ctx)
    elif ctx.step in (rules.PLACE, rules.OPTION) and not lines:
        groups = rules.choices(ctx.state, ctx.seat)
        listed = (ctx.view.get("pick") or {}).get("options") or []
        options = []
        for choice in groups[0].choices if groups else ():
            if not choice.enabled:
                continue
            shown = choice.label(lang)
            if choice.token.startswith("option "):
                n = int(choice.token.split()[1])
                shown = f"{n}. {listed[n - 1]}" if n <= len(listed) else shown
            options.append(discord.SelectOption(label=shown[:100], value=choice.token))
        _add(view, _select(ctx, "pick", options, "apeiron.builder.pick_option"))
    return _buttons(ctx, view, "seal", "undo", "clear")


def _offers(ctx: _Context) -> list[dict[str, Any]]:
    """The decks the deck step offers: a league seat's own (drawn from its collection), else
    the pack's presets."""
    return list((ctx.view.get("you") or {}).get("presets") or ctx.view.get("presets") or ())


def _deck(ctx: _Context) -> list[str]:
    """The seat's units, in its deck's order: a deployment pick names one by its place here."""
    return list((ctx.view.get("decks") or {}).get(ctx.seat) or [])


def _deck_unit(ctx: _Context, place: str) -> str | None:
    """The unit at ``place`` (``"3"``) in the seat's deck; None for a place it has not."""
    deck = _deck(ctx)
    if not (place.isascii() and place.isdigit() and int(place) < len(deck)):
        return None
    return deck[int(place)]


def _free_squares(ctx: _Context, lines: Sequence[str]) -> list[str]:
    """The own rows' squares without an obstacle that no earlier line took, in reading order."""
    taken = {line.split()[1] for line in lines if len(line.split()) > 1}
    rows = range(0, 3) if ctx.seat == "A" else range(6, 9)
    squares = [label((x, y)) for y in rows for x in range(fld.SIZE)]
    return [sq for sq in squares if sq not in taken and _square_ok(ctx, sq)]


def _square_ok(ctx: _Context, square: str) -> bool:
    """A free square of the own rows (no obstacle), read from the seat's own row of panels."""
    where = fld.parse_square(square)
    if where is None:
        return False
    pos = fld.position(where)
    for panel in (ctx.view.get("you") or {}).get("row") or ():
        if panel.get("pos") == pos and panel.get("cells"):
            x0, y0 = fld.origin(pos)
            return bool(panel["cells"][where[1] - y0][where[0] - x0] != "#")
    return False


def _deploy_squares_view(
    ctx: _Context, place: str, lines: Sequence[str], row: str = ""
) -> discord.ui.View:
    """The squares for the unit at ``place`` in the seat's deck (more than 25: a row first)."""
    squares = _free_squares(ctx, lines)
    view = discord.ui.View(timeout=None)
    if len(squares) > MAX_OPTIONS and not row:
        rows = sorted({sq[1:] for sq in squares})
        options = [discord.SelectOption(label=r, value=r) for r in rows]
        _add(view, _select(ctx, "row", options, "apeiron.builder.pick_row", arg=place))
        return _buttons(ctx, view, "back")
    chosen = [sq for sq in squares if not row or sq[1:] == row]
    options = [discord.SelectOption(label=sq, value=sq) for sq in chosen[:MAX_OPTIONS]]
    _add(view, _select(ctx, "place", options, "apeiron.builder.pick_square", arg=place))
    return _buttons(ctx, view, "back")


def _deploy_facing_view(ctx: _Context, place: str, square: str) -> discord.ui.View:
    options = [
        discord.SelectOption(label=facing_word(ctx.lang, f)[:100], value=f) for f in fld.FACINGS
    ]
    view = discord.ui.View(timeout=None)
    _add(
        view, _select(ctx, "dface", options, "apeiron.builder.pick_facing", arg=f"{place}.{square}")
    )
    return _buttons(ctx, view, "back")


# --- the picks ---------------------------------------------------------------------------------


def _next(
    ctx: _Context, what: str, arg: str, value: str, lines: list[str]
) -> discord.ui.View | list[str]:
    """The next question (a view), or the draft with the pick added."""
    if what in ("undo", "clear", "back"):
        return lines
    if what == "deck":
        preset = _offers(ctx)[int(value) - 1]
        return [f"deck {' '.join(preset['units'])} chest {' '.join(preset['chest'])}"]
    if what == "unit":
        return _deploy_squares_view(ctx, value, lines)
    if what == "row":
        return _deploy_squares_view(ctx, arg, lines, value)
    if what == "place":
        return _deploy_facing_view(ctx, arg, value)
    if what == "dface":
        place, square = arg.split(".")
        unit = _deck_unit(ctx, place)
        return lines if unit is None else [*lines, f"{unit} {square} {value}"]
    if what == "col":
        return _dest_view(ctx, value)
    if what == "dest":
        return _facing_view(ctx, value)
    if what == "face":
        return _action_view(ctx, arg, value)
    if what == "act":
        dest, facing = arg.split(".")
        options = _action_options(ctx, dest, facing)
        return [options[int(value)][0]] if value.isdigit() and int(value) < len(options) else lines
    if what == "pick":
        return [value]
    return lines


def _offered(ctx: _Context, what: str, arg: str, lines: Sequence[str]) -> set[str] | None:
    """What the builder offers now in its menu ``what`` with ``arg``, rebuilt from the step, the
    draft and the picks the arg carries; None when no menu of this step has that id. A click is
    taken only for a value found here: a forged id or value (a preset 99, a destination in the
    deck step, an action id without its dot, a row of 99) is out of date, never an error."""
    if not ctx.awaited():
        return None
    if what in ("deck", "unit", "pick"):
        return menu_values(_main_view(ctx, lines), what, arg)
    if ctx.step == rules.DEPLOY_STEP:
        place, dot, square = arg.partition(".")
        units = menu_values(_main_view(ctx, lines), "unit", "") or set()
        if place not in units:
            return None
        free = set(_free_squares(ctx, lines))
        if what == "row" and not dot:
            return menu_values(_deploy_squares_view(ctx, place, lines), "row", place)
        if what == "place" and not dot:
            return free
        if what == "dface" and dot and square in free:
            return set(fld.FACINGS)
        return None
    if ctx.step in (rules.PLAY, rules.MOVE) and not lines:
        ends = {end for _, end, _ in _paths(ctx)}
        if what == "col" and not arg:
            return menu_values(_dest_view(ctx), "col", "")
        if what == "dest" and not arg:
            return ends
        dest, dot, facing = arg.partition(".")
        if dest not in ends:
            return None
        facings = menu_values(_facing_view(ctx, dest), "face", dest) or set()
        if what == "face" and not dot:
            return facings
        if what == "act" and dot and facing in facings:
            return menu_values(_action_view(ctx, dest, facing), "act", arg)
    return None


def _check(ctx: _Context, what: str, lines: list[str]) -> None:
    """The engine's own check of the whole draft (a deployment once it is whole)."""
    if lines and (ctx.step != rules.DEPLOY_STEP or len(lines) == rules.DEPLOY):
        rules.parse(ctx.state, ctx.seat, order_text(ctx.step, lines))


def _pick(
    ctx: _Context, what: str, arg: str, values: list[str], lines: list[str]
) -> discord.ui.View | list[str]:
    """Every menu picks one value: :func:`_next` with it."""
    return _next(ctx, what, arg, values[0] if values else "", lines)


# --- the builder ---------------------------------------------------------------------------------

# The hooks in the order orderbuilder.Flow lists them.
FLOW = orderbuilder.Flow("ab", "apeiron", _Context, _main_view, _offered, _pick, _check, order_text)


class BuilderSelect(orderbuilder.Menu, flow=FLOW):
    """The builder's menus: ``ab:<game>:<turn>:<what>[:<arg>]``."""


class BuilderButton(orderbuilder.Button, flow=FLOW):
    """Seal, Undo, Clear and Back."""


DYNAMIC_ITEMS = (BuilderSelect, BuilderButton)
open_builder = FLOW.open  # the spec's sheet_builder
