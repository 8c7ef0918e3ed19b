"""Arena Duel's Discord adapter: ``/arena challenge`` and ``/arena rules``. Everything else (orders,
buttons, the board, deadlines) is the shared table's, driven by the pure engine in ``rules.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import deadline_defaults
from bot.cogbase import (
    DEFAULT_TURN_HOURS,
    Challenge,
    RulesetCog,
    challenge_command,
    hours_seconds,
)
from bot.i18n.translator import ls
from cogs.arena import RULESET
from cogs.arena import rules as arena_rules

if TYPE_CHECKING:
    from bot.client import RefereeBot


class ArenaCog(
    RulesetCog,
    spec=RULESET,
    about="HEXSYSTEM Arena Duel: two gladiators, secret moves, dice",
    rules_about="How to play and how to write orders",
    guild_only=True,
):
    @challenge_command("Challenge a player to a duel in this channel")
    @app_commands.describe(
        hours=ls(
            "Hours per turn (0 = no deadline; default: the server's, /config deadlines)",
            "cmd.opt.deadline_turn_hours",
        ),
        obstacles=ls(
            "Obstacle hexes as q,r pairs, e.g. 0,0 1,-1 (default: none)", "cmd.opt.obstacles"
        ),
    )
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        hours: app_commands.Range[float, 0.0, 168.0] | None = None,
        obstacles: app_commands.Range[str, 1, 200] | None = None,
    ) -> Challenge:
        server = await deadline_defaults.of_guild(self.bot.table.repo, interaction.guild_id)
        seconds = (
            hours_seconds(hours)
            if hours is not None
            else server.step(round(DEFAULT_TURN_HOURS * 60)) * 60
        )
        return Challenge(
            options={"obstacles": arena_rules.parse_obstacles(obstacles)} if obstacles else None,
            turn_seconds=seconds,
            text_params=lambda lang: {
                "deadline": deadline_defaults.note(
                    lang, (seconds or 0) // 60, defaulted=hours is None
                )
            },
        )


async def setup(bot: RefereeBot) -> None:
    """The extension's entry point (the spec names this module, not the package: unloading an
    extension drops its modules, and the engine the registry holds must stay the one in use)."""
    await bot.add_cog(ArenaCog(bot))
