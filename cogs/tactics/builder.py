"""The DM sheet builder, for players who would rather click than type a sheet.

The prompt's 📝 button opens an ephemeral message that holds the draft sheet in a code block; each
select adds one line (a unit, where it moves, what it does), the whole draft is checked by the
engine after every step, and **Seal** submits it exactly as if it had been typed. Nothing lives in
memory (:mod:`bot.orderbuilder`, shared with Apeiron's builder): the draft is the message's own
text and every component's ``custom_id`` says what it is for (``tb:<game>:<turn>:<what>[:<arg>…]``),
so a builder left open survives a restart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import orderbuilder
from bot.i18n import t
from bot.orderbuilder import MAX_OPTIONS, menu_values
from cogs.tactics import master, rules, units
from cogs.tactics.present import PRESENTER, unit_label

if TYPE_CHECKING:
    from bot.storage import GameRow


def sheet_text(step: str, lines: Sequence[str]) -> str:
    """The order text the draft stands for (deployments are one comma-separated line)."""
    if step == "deploy":
        return ", ".join(lines)
    return "\n".join(lines) if lines else "wait"


# --- what the message shows ------------------------------------------------------------------


def _unit_option(unit: Mapping[str, Any], lang: str) -> discord.SelectOption:
    where = unit.get("square") or t(lang, "tactics.builder.reserve")
    return discord.SelectOption(
        label=unit_label(unit, lang)[:100],
        value=str(unit["id"]),
        description=t(
            lang,
            "tactics.builder.unit_option",
            square=where,
            hp=unit.get("hp"),
            max=unit.get("max_hp"),
            cost=unit.get("cost"),
        )[:100],
    )


def _square_options(squares: Sequence[str]) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=sq, value=sq) for sq in squares[:MAX_OPTIONS]]


def _columns(squares: Sequence[str]) -> list[str]:
    return sorted({re.match(r"[A-Z]+", sq)[0] for sq in squares})  # type: ignore[index]


# --- the game as the clicking player sees it -----------------------------------------------------


class _Context:
    """The game as the clicking player sees it, loaded fresh for every click."""

    def __init__(self, game: GameRow, seat: str, lang: str) -> None:
        self.game = game
        self.seat = seat
        self.lang = lang
        self.rules = rules
        self.state = self.rules.from_json(game.state or {})
        self.view = self.rules.view(self.state, seat)
        self.step = str(self.view["step"])
        self.units = {str(u["id"]): u for u in self.view["units"]}

    def header(self) -> str:
        step = PRESENTER.step_name(self.view, self.lang, self.game.step)
        return t(self.lang, "tactics.builder.header", game=self.game.id, step=step)

    def check(self, lines: Sequence[str]) -> None:
        """Raise the engine's own rejection if the draft would not be accepted."""
        if lines:
            self.rules.parse(self.state, self.seat, sheet_text(self.step, lines))


def _pretty(ctx: _Context, line: str) -> str:
    """A draft line as the reader reads it: unit ids shown as names (``A2`` → ``Knight A-2``),
    and in Japanese the keywords and unit kinds as typed in Japanese (``デッキ 覇王 剣士``,
    ``剣士 A-2 →D7 攻撃 D6``), as the sealed order's acknowledgement shows it."""
    words = line.split()
    named = " ".join(unit_label(ctx.units[w], ctx.lang) if w in ctx.units else w for w in words)
    return PRESENTER.order_text(named, ctx.lang)


def _shown(ctx: _Context, lines: list[str]) -> list[str]:
    return [_pretty(ctx, line) for line in lines]


def _main_view(ctx: _Context, lines: Sequence[str]) -> discord.ui.View:
    """The components for "add the next line" at this step, and Seal/Undo/Clear."""
    game, turn, lang = ctx.game.id, ctx.game.step, ctx.lang
    view = discord.ui.View(timeout=None)
    used = {line.split()[0] for line in lines if line.split()}
    if ctx.step == "roster":
        presets = master.presets()
        view.add_item(
            BuilderSelect.make(
                game,
                turn,
                "master",
                [
                    discord.SelectOption(label=p.name.get(lang) or p.name["en"], value=p.id)
                    for p in presets
                ],
                t(lang, "tactics.builder.pick_master"),
            )
        )
        pool = list(units.pool())
        for index in range(0, min(len(pool), 2 * MAX_OPTIONS), MAX_OPTIONS):
            part = pool[index : index + MAX_OPTIONS]
            view.add_item(
                BuilderSelect.make(
                    game,
                    turn,
                    "pool",
                    [
                        discord.SelectOption(
                            label=(u.name.get(lang) or u.name["en"])[:100],
                            value=u.id,
                            description=t(lang, "tactics.builder.cost", cost=u.cost)[:100],
                        )
                        for u in part
                    ],
                    t(lang, "tactics.builder.pick_pool"),
                    arg=str(index),
                    max_values=9,
                )
            )
    elif ctx.step == "deploy":
        mine = [u for uid, u in ctx.units.items() if u["side"] == ctx.seat and uid not in used]
        if mine and len(lines) < 5:
            view.add_item(
                BuilderSelect.make(
                    game,
                    turn,
                    "deploy",
                    [_unit_option(u, lang) for u in mine],
                    t(lang, "tactics.builder.pick_unit"),
                )
            )
    elif ctx.step == "play":
        movable = [uid for uid in ctx.rules.own_units(ctx.state, ctx.seat) if uid not in used]
        if movable:
            view.add_item(
                BuilderSelect.make(
                    game,
                    turn,
                    "unit",
                    [_unit_option(ctx.units[uid], lang) for uid in movable],
                    t(lang, "tactics.builder.pick_unit"),
                )
            )
        reserve = [
            u for u in ctx.units.values() if u["side"] == ctx.seat and u.get("status") == "reserve"
        ]
        if ctx.view.get("summon_turn") and reserve and "summon" not in used:
            view.add_item(
                BuilderSelect.make(
                    game,
                    turn,
                    "summon",
                    [_unit_option(u, lang) for u in reserve],
                    t(lang, "tactics.builder.pick_summon"),
                )
            )
    for what in ("seal", "undo", "clear"):
        view.add_item(BuilderButton.make(game, turn, what, lang))
    return view


def _squares_view(
    ctx: _Context, what: str, arg: str, squares: Sequence[str], placeholder: str
) -> discord.ui.View:
    """A select of squares; more than 25 are chosen column first, then square."""
    view = discord.ui.View(timeout=None)
    game, turn = ctx.game.id, ctx.game.step
    if len(squares) > MAX_OPTIONS:
        view.add_item(
            BuilderSelect.make(
                game,
                turn,
                "col" + what,
                [discord.SelectOption(label=c, value=c) for c in _columns(squares)],
                t(ctx.lang, "tactics.builder.pick_column"),
                arg=arg,
            )
        )
    else:
        view.add_item(
            BuilderSelect.make(game, turn, what, _square_options(squares), placeholder, arg=arg)
        )
    view.add_item(BuilderButton.make(game, turn, "back", ctx.lang))
    return view


def _actions_view(ctx: _Context, uid: str, origin: str, dest: str) -> discord.ui.View:
    lang = ctx.lang
    unit = ctx.units[uid]
    found = ctx.rules.targets(ctx.state, uid, dest)
    occupied = {u["square"] for u in ctx.units.values() if u.get("status", "board") == "board"}
    options = [discord.SelectOption(label=t(lang, "tactics.builder.just_wait"), value="wait")]
    for sq in found.get("attack", []):
        if sq in occupied and sq != dest:
            target = next(u for u in ctx.units.values() if u.get("square") == sq)
            options.append(
                discord.SelectOption(
                    label=t(lang, "tactics.builder.attack", square=sq)[:100],
                    value=f"attack {sq}",
                    description=unit_label(target, lang)[:100],
                )
            )
    ability = unit.get("ability")
    if ability:
        name = ability["name"].get(lang) or ability["name"]["en"]
        for sq in found.get("ability", []):
            options.append(
                discord.SelectOption(
                    label=t(lang, "tactics.builder.ability", name=name, square=sq)[:100],
                    value=f"ability {sq}",
                    description=t(lang, "tactics.builder.mana", mana=ability["mana"])[:100],
                )
            )
    view = discord.ui.View(timeout=None)
    view.add_item(
        BuilderSelect.make(
            ctx.game.id,
            ctx.game.step,
            "act",
            options,
            t(lang, "tactics.builder.pick_action"),
            arg=f"{uid}.{origin}.{dest}",
        )
    )
    view.add_item(BuilderButton.make(ctx.game.id, ctx.game.step, "back", lang))
    return view


def _deploy_free(ctx: _Context, lines: Sequence[str]) -> list[str]:
    """The seat's deployment squares no unit stands on and no draft line took."""
    taken = {line.split()[1] for line in lines if len(line.split()) > 1}
    zone = (ctx.view["map"].get("zones") or {}).get(ctx.seat) or []
    occupied = {u.get("square") for u in ctx.units.values()}
    return [sq for sq in zone if sq not in taken and sq not in occupied]


def _summon_free(ctx: _Context) -> list[str]:
    """The seat's deployment squares no unit on the board stands on (where a summon may go)."""
    zone = (ctx.view["map"].get("zones") or {}).get(ctx.seat) or []
    occupied = {u.get("square") for u in ctx.units.values() if u.get("status") == "board"}
    return [sq for sq in zone if sq not in occupied]


def _offered(ctx: _Context, what: str, arg: str, lines: Sequence[str]) -> set[str] | None:
    """What the builder offers now in its menu ``what`` with ``arg``, rebuilt from the step, the
    draft and the picks the arg carries; None when no menu of this step has that id. A click is
    taken only for values found here: a forged id or value is out of date, never an error."""
    main = _main_view(ctx, lines)
    if what in ("master", "pool", "deploy", "unit", "summon"):
        return menu_values(main, what, arg)
    uid, dot, rest = arg.partition(".")
    squares: list[str] | None = None
    if what in ("place", "colplace") and uid in (menu_values(main, "deploy", "") or ()):
        squares = _deploy_free(ctx, lines)
    elif what in ("summonto", "colsummonto") and uid in (menu_values(main, "summon", "") or ()):
        squares = _summon_free(ctx)
    elif what in ("dest", "coldest", "act") and uid in (menu_values(main, "unit", "") or ()):
        squares = list(ctx.rules.reachable(ctx.state, uid))
    if squares is None or (dot and what != "act"):
        return None
    if what.startswith("col"):
        return set(_columns(squares))
    if what != "act":
        return set(squares)
    origin, _, dest = rest.partition(".")
    if origin != ctx.units[uid].get("square") or dest not in squares:
        return None
    return menu_values(_actions_view(ctx, uid, origin, dest), "act", arg)


def _next(
    ctx: _Context, what: str, arg: str, values: Sequence[str], lines: list[str]
) -> discord.ui.View | list[str]:
    """Either the next question to ask (a view) or the draft with the picked line added."""
    lang = ctx.lang
    value = values[0] if values else ""
    if what in ("undo", "clear", "back"):
        return lines
    if what == "master":
        rest = lines[0].split()[2:] if lines else []
        return [" ".join(["roster", value, *rest])]
    if what == "pool":
        chosen = lines[0].split()[1:2] if lines else []
        if not chosen:
            chosen = [master.presets()[0].id]
        return [" ".join(["roster", *chosen, *values])]
    if what == "deploy":
        free = _deploy_free(ctx, lines)
        return _squares_view(ctx, "place", value, free, t(lang, "tactics.builder.pick_square"))
    if what in ("place", "colplace"):
        if what == "colplace":
            return _column_pick(ctx, "place", arg, value, lines)
        return [*lines, f"{arg} {value}"]
    if what == "unit":
        squares = ctx.rules.reachable(ctx.state, value)
        return _squares_view(ctx, "dest", value, squares, t(lang, "tactics.builder.pick_dest"))
    if what in ("dest", "coldest"):
        if what == "coldest":
            return _column_pick(ctx, "dest", arg, value, lines)
        origin = ctx.units[arg]["square"]
        return _actions_view(ctx, arg, origin, value)
    if what == "act":
        uid, origin, dest = arg.split(".")
        move = f" {origin}>{dest}" if dest != origin else f" {origin}"
        action = "" if value == "wait" else f" {value}"
        return [*lines, f"{uid}{move}{action}"]
    if what == "summon":
        free = _summon_free(ctx)
        return _squares_view(ctx, "summonto", value, free, t(lang, "tactics.builder.pick_square"))
    if what in ("summonto", "colsummonto"):
        if what == "colsummonto":
            return _column_pick(ctx, "summonto", arg, value, lines)
        return [f"summon {arg} {value}", *lines]
    return lines


def _column_pick(
    ctx: _Context, what: str, arg: str, column: str, lines: list[str]
) -> discord.ui.View | list[str]:
    """After a column was chosen: the squares of that column the earlier question allowed."""
    squares = ctx.rules.reachable(ctx.state, arg) if what == "dest" else _summon_free(ctx)
    in_column = [sq for sq in squares if re.match(r"[A-Z]+", sq)[0] == column]  # type: ignore[index]
    return _squares_view(ctx, what, arg, in_column, t(ctx.lang, "tactics.builder.pick_square"))


def _check(ctx: _Context, what: str, lines: list[str]) -> None:
    if what != "master":  # a master alone is an unfinished roster, not a wrong one
        ctx.check(lines)


# --- the builder --------------------------------------------------------------------------------

# The hooks in the order orderbuilder.Flow lists them.
FLOW = orderbuilder.Flow(
    "tb", "tactics", _Context, _main_view, _offered, _next, _check, sheet_text, _shown
)


class BuilderSelect(orderbuilder.Menu, flow=FLOW):
    """Every select of the builder; ``what`` says which step of a line it picks."""


class BuilderButton(orderbuilder.Button, flow=FLOW):
    """Seal, Undo, Clear and Back."""


DYNAMIC_ITEMS = (BuilderSelect, BuilderButton)
open_builder = FLOW.open  # the spec's sheet_builder (the prompt's 📝 button)
