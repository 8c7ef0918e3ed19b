"""The master builder's slash-command options, written once for ``/tactics master`` and
``/league master``.

The option list *is* the signature of :func:`cogs.tactics.master.spec_from`: this decorator gives a
command one option per parameter of it (with the description, choices and type each needs) and
hands the callback the finished design as a single ``design`` argument. A field added to the
builder appears in both commands, described and localised, with no second list to forget.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Awaitable, Callable
from typing import Any

from discord import app_commands

from bot.i18n.translator import ls
from cogs.tactics import master
from cogs.tactics.effects import EFFECTS
from cogs.tactics.units import TARGETS

DESCRIPTIONS = {
    "name_en": ls("English name (one word)", "cmd.opt.name_en"),
    "name_ja": ls("Japanese name", "cmd.opt.name_ja"),
    "hp": ls("Hit points", "cmd.opt.hp"),
    "atk": ls("Attack", "cmd.opt.atk"),
    "defence": ls("Defence", "cmd.opt.defence"),
    "move": ls("Squares per move", "cmd.opt.move"),
    "range_max": ls("Longest attack range", "cmd.opt.range_max"),
    "effect": ls("The ability's effect", "cmd.opt.effect"),
    "power": ls("The ability's power (damage, healing, squares, stat change)", "cmd.opt.power"),
    "reach": ls("The ability's range, min-max (e.g. 1-3)", "cmd.opt.reach"),
    "target": ls("What the ability targets", "cmd.opt.target"),
    "radius": ls("Area radius (area effects)", "cmd.opt.radius"),
    "stat": ls("Stat changed (stat effect)", "cmd.opt.stat"),
    "turns": ls("Turns a stat change lasts", "cmd.opt.turns"),
}
CHOICES = {
    "effect": [app_commands.Choice(name=e, value=e) for e in EFFECTS],
    "target": [app_commands.Choice(name=x, value=x) for x in TARGETS],
    "stat": [app_commands.Choice(name=x, value=x) for x in master.STAT_NAMES],
}

Callback = Callable[..., Awaitable[None]]


def _fields() -> list[inspect.Parameter]:
    """spec_from's parameters with their annotations resolved (discord.py reads them from the
    wrapper, whose module does not know the names a string annotation would need)."""
    hints = typing.get_type_hints(master.spec_from)
    return [
        p.replace(annotation=hints[p.name])
        for p in inspect.signature(master.spec_from).parameters.values()
    ]


def _left_out(field: inspect.Parameter) -> inspect.Parameter:
    """A required field made optional: a number defaults to 0 (which :func:`master.design`
    refuses with its own reason), a name to None (no design at all)."""
    if field.default is not field.empty:
        return field
    if field.annotation is int:
        return field.replace(default=0)
    return field.replace(annotation=field.annotation | None, default=None)


def master_options(*, optional: bool) -> Callable[[Callback], Callback]:
    """Give a command the master builder's options; the callback takes ``design``: the design
    for :func:`master.design`, or None if no name was given (only when ``optional``: the league
    offers a preset instead, so every field may be left out there).

    Put it directly above the ``def``, below ``@localized_params``.
    """
    fields = [_left_out(f) for f in _fields()] if optional else _fields()
    names = [f.name for f in fields]
    defaults = {f.name: f.default for f in fields if f.default is not f.empty}
    if set(names) != set(DESCRIPTIONS):
        odd = sorted(set(names) ^ set(DESCRIPTIONS))
        raise TypeError(f"describe every master field once: {odd}")

    def decorate(func: Callback) -> Callback:
        hints = typing.get_type_hints(func)
        own = [
            p.replace(annotation=hints.get(p.name, p.annotation), kind=p.KEYWORD_ONLY)
            if i >= 2  # after ``self`` and ``interaction``
            else p.replace(annotation=hints.get(p.name, p.annotation))
            for i, p in enumerate(inspect.signature(func).parameters.values())
            if p.name not in ("design", "return")
        ]
        added = [f.replace(kind=inspect.Parameter.KEYWORD_ONLY) for f in fields]

        @functools.wraps(func)
        async def wrapper(self: Any, interaction: Any, **options: Any) -> None:
            given = {**defaults, **{n: options.pop(n) for n in names if n in options}}
            named = given.get("name_en") and given.get("name_ja")
            design = master.spec_from(**given) if named else None
            await func(self, interaction, design=design, **options)

        wrapper.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [*own, *added], return_annotation=None
        )
        app_commands.describe(**DESCRIPTIONS)(wrapper)
        app_commands.choices(**CHOICES)(wrapper)
        return wrapper

    return decorate


PRESET = ls("A ready-made master (or leave empty and design one)", "cmd.opt.preset")


def league_master_options(func: Callback) -> Callback:
    """``/league master``'s options (tactics' ``master_options`` in its ``league``): a preset
    master from the list, or a design with every builder field (all optional); the callback
    takes ``spec``: ``{"preset": id}``, the design, or None when neither was given.

    The callback's own options (after ``self`` and ``interaction``) come after ``preset``."""
    own = [p for p in inspect.signature(func).parameters.values() if p.name != "spec"]
    preset = inspect.Parameter(
        "preset", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=str | None
    )

    @functools.wraps(func)
    async def with_preset(
        self: Any, interaction: Any, preset: str | None = None, **options: Any
    ) -> None:
        design = options.pop("design", None)
        spec = {"preset": preset} if preset else design
        await func(self, interaction, spec=spec, **options)

    hints = typing.get_type_hints(func)
    with_preset.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [*own[:2], preset, *own[2:]], return_annotation=None
    )
    with_preset.__annotations__ = {
        **{name: hint for name, hint in hints.items() if name not in ("spec", "return")},
        "preset": str | None,
    }
    decorated = master_options(optional=True)(with_preset)
    app_commands.describe(preset=PRESET)(decorated)
    app_commands.choices(
        preset=[app_commands.Choice(name=p.name["en"], value=p.id) for p in master.presets()]
    )(decorated)
    return decorated
