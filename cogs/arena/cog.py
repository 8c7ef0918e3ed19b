"""Arena Duel's Discord adapter: ``/arena challenge`` and ``/arena rules``. Everything else (orders,
buttons, the board, deadlines) is the shared table's, driven by the pure engine in ``rules.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import reader_lang
from bot.i18n.translator import localized_params, ls
from bot.views import post_challenge
from cogs.arena import RULESET
from cogs.arena import rules as arena_rules

if TYPE_CHECKING:
    from bot.client import RefereeBot

DEFAULT_TURN_HOURS = 24.0


class ArenaCog(commands.Cog):
    arena = app_commands.Group(
        name=ls("arena", "cmd.arena"),
        description=ls(
            "HEXSYSTEM Arena Duel: two gladiators, secret moves, dice", "cmd.arena.desc"
        ),
        guild_only=True,
    )

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @arena.command(
        name=ls("challenge", "cmd.arena.challenge"),
        description=ls("Challenge a player to a duel in this channel", "cmd.arena.challenge.desc"),
    )
    @app_commands.describe(
        opponent=ls("Who you challenge", "cmd.opt.opponent"),
        hours=ls("Time per turn in hours (0 = no deadline)", "cmd.opt.turn_hours"),
        obstacles=ls(
            "Obstacle hexes as q,r pairs, e.g. 0,0 1,-1 (default: none)", "cmd.opt.obstacles"
        ),
    )
    @localized_params
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member,
        hours: app_commands.Range[float, 0.0, 168.0] = DEFAULT_TURN_HOURS,
        obstacles: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        await post_challenge(
            interaction,
            "arena",
            [opponent],
            options={"obstacles": arena_rules.parse_obstacles(obstacles)} if obstacles else None,
            turn_seconds=round(hours * 3600) or None,
        )

    @arena.command(
        name=ls("rules", "cmd.arena.rules"),
        description=ls("How to play and how to write orders", "cmd.arena.rules.desc"),
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        await replies.respond(interaction, RULESET.presenter.how_to_play(lang), ephemeral=True)


async def setup(bot: RefereeBot) -> None:
    """The extension's entry point (the spec names this module, not the package: unloading an
    extension drops its modules, and the engine the registry holds must stay the one in use)."""
    await bot.add_cog(ArenaCog(bot))
