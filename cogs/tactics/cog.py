"""Tactics' Discord adapter: ``/tactics challenge``, ``/tactics rules``, ``/tactics units``,
``/tactics maps``, and the DM sheet builder behind the prompt's button. Orders, deadlines, the board
and the log are the shared table's, driven by the pure engine in ``rules.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import deadline_defaults, replies
from bot.checks import reader_lang
from bot.cogbase import Challenge, RulesetCog, challenge_command
from bot.i18n import t
from bot.i18n.translator import localized_params, ls
from cogs.tactics import RULESET, builder, maps, master, units
from cogs.tactics.master_options import master_options

if TYPE_CHECKING:
    from bot.client import RefereeBot

DEFAULT_TURN_MINUTES = 10  # the digest's time limit per sheet
DEFAULT_COST_CAP = 18

TIE_BREAK_CHOICES = [
    app_commands.Choice(name=ls("Draw", "cmd.choice.tie_break.none"), value="none"),
    app_commands.Choice(name=ls("Remaining HP", "cmd.choice.tie_break.hp"), value="hp"),
]


async def map_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    lang = reader_lang(interaction)
    found = []
    for name in maps.names():
        shown = maps.load(name).title(lang)
        if current.lower() in name.lower() or current in shown:
            found.append(app_commands.Choice(name=f"{shown} ({name})"[:100], value=name))
    return found[:25]


class TacticsCog(
    RulesetCog,
    spec=RULESET,
    about="Master-unit tactics: secret action sheets, mana and DP",
    rules_about="How a match runs and how to write a sheet",
):
    dynamic_items = builder.DYNAMIC_ITEMS

    @challenge_command("Challenge a player to a friendly tactics match here")
    @app_commands.guild_only()
    @app_commands.describe(
        map=ls("The map (default: the 10×10 standard map)", "cmd.opt.map"),
        minutes=ls(
            "Minutes per step (0 = no deadline; default: the server's, /config deadlines)",
            "cmd.opt.deadline_minutes",
        ),
        cost_cap=ls("Highest total cost of a starting lineup", "cmd.opt.cost_cap"),
        tie_break=ls("How equal DP after the last turn is decided", "cmd.opt.tie_break"),
    )
    @app_commands.choices(tie_break=TIE_BREAK_CHOICES)
    @app_commands.autocomplete(map=map_autocomplete)
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        map: str | None = None,
        minutes: app_commands.Range[int, 0, 10080] | None = None,
        cost_cap: app_commands.Range[int, 1, 60] = DEFAULT_COST_CAP,
        tie_break: str = "none",
    ) -> Challenge:
        chosen = map or maps.DEFAULT
        server = await deadline_defaults.of_guild(self.bot.table.repo, interaction.guild_id)
        step = server.step(DEFAULT_TURN_MINUTES) if minutes is None else minutes
        return Challenge(
            options={"map": chosen, "cost_cap": cost_cap, "tie_break": tie_break},
            turn_seconds=step * 60 or None,
            text_params=lambda lang: {
                "map": maps.load(chosen).title(lang),
                "minutes": step or "∞",
                "cap": cost_cap,
                "deadline": deadline_defaults.note(lang, step, defaulted=minutes is None),
            },
        )

    @app_commands.command(
        name=ls("units", "cmd.tactics.units"),
        description=ls(
            "The starter pool: every unit's cost, stats and ability", "cmd.tactics.units.desc"
        ),
    )
    async def units_command(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        embed = discord.Embed(title=t(lang, "tactics.units.title"), colour=0x4A90D9)
        lines = [units_line(unit, lang) for unit in units.pool()]
        # Embed descriptions hold 4,096 characters; the pool is listed in as many as it needs.
        chunk: list[str] = []
        for line in lines:
            if sum(len(x) + 1 for x in chunk) + len(line) > 1000:
                embed.add_field(name="\u200b", value="\n".join(chunk), inline=False)
                chunk = []
            chunk.append(line)
        if chunk:
            embed.add_field(name="\u200b", value="\n".join(chunk), inline=False)
        embed.set_footer(text=t(lang, "tactics.units.footer"))
        await replies.respond(interaction, embed=embed, ephemeral=True)

    @app_commands.command(
        name=ls("maps", "cmd.tactics.maps"),
        description=ls("The maps a match can be played on", "cmd.tactics.maps.desc"),
    )
    async def maps_command(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        lines = []
        for name in maps.names():
            board_map = maps.load(name)
            lines.append(
                t(
                    lang,
                    "tactics.maps.line",
                    name=name,
                    title=board_map.title(lang),
                    width=board_map.width,
                    height=board_map.height,
                )
            )
        await replies.respond(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(
        name=ls("master", "cmd.tactics.master"),
        description=ls(
            "Design a master unit: its cost and mana by the published formulas",
            "cmd.tactics.master.desc",
        ),
    )
    @localized_params
    @master_options(optional=False)
    async def master_command(
        self, interaction: discord.Interaction[Any], design: dict[str, Any]
    ) -> None:
        lang = reader_lang(interaction)
        designed = master.design(design)  # a MasterError is answered with its reason
        embed = discord.Embed(
            title=t(lang, "tactics.master.title", name=designed.name.get(lang) or design["en"]),
            description=units_line(designed, lang),
            colour=0xF6C63E,
        )
        embed.add_field(
            name=t(lang, "tactics.master.formula_title"),
            value=t(lang, "tactics.master.formula", max=master.max_cost()),
            inline=False,
        )
        await replies.respond(interaction, embed=embed, ephemeral=True)


def units_line(unit: Any, lang: str) -> str:
    """One pool unit on one line: name, cost, stats, ability."""
    ability = ""
    if unit.ability is not None:
        ability = t(
            lang,
            "tactics.units.ability",
            name=unit.ability.name.get(lang) or unit.ability.name["en"],
            mana=unit.ability.mana,
        )
    return t(
        lang,
        "tactics.units.line",
        name=unit.name.get(lang) or unit.name["en"],
        id=unit.id,
        cost=unit.cost,
        hp=unit.hp,
        atk=unit.atk,
        defence=unit.defence,
        move=unit.move,
        range=f"{unit.range[0]}-{unit.range[1]}",
        ability=ability,
    )


async def setup(bot: RefereeBot) -> None:
    """The extension's entry point (the spec names this module, not the package: unloading an
    extension drops its modules, and the engine the registry holds must stay the one in use)."""
    await bot.add_cog(TacticsCog(bot))
