"""The Discord side of rock-paper-scissors: ``/rps challenge`` and ``/rps rules``, nothing more.

Orders (DM text, buttons, ``/order``), the board post, deadlines, ``/game …`` and the match record
all belong to the shared table, which drives the pure engine in ``rules.py``. This module is the
spec's ``extension``: the bot loads it with ``load_extension`` and calls :func:`setup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import reader_lang
from bot.i18n.translator import localized_params, ls
from bot.views import post_challenge

from . import RULESET

if TYPE_CHECKING:
    from bot.client import RefereeBot

DEFAULT_TURN_HOURS = 24.0


class RpsCog(commands.Cog):
    # Each name and description is English plus a catalogue key: Discord shows the Japanese one
    # to Japanese clients (bot.i18n.translator).
    rps = app_commands.Group(
        name=ls("rps", "cmd.rps"),
        description=ls("Rock-paper-scissors, best of three", "cmd.rps.desc"),
        guild_only=True,
    )

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @rps.command(
        name=ls("challenge", "cmd.rps.challenge"),
        description=ls(
            "Challenge a player to rock-paper-scissors in this channel", "cmd.rps.challenge.desc"
        ),
    )
    @app_commands.describe(
        opponent=ls("Who you challenge", "cmd.opt.opponent"),
        hours=ls("Time per turn in hours (0 = no deadline)", "cmd.opt.turn_hours"),
    )
    @localized_params
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member,
        hours: app_commands.Range[float, 0.0, 168.0] = DEFAULT_TURN_HOURS,
    ) -> None:
        # The shared lobby: the invitation (the presenter's challenge_text) with Accept/Decline.
        await post_challenge(
            interaction,
            RULESET.key,
            [opponent],
            options=None,
            turn_seconds=round(hours * 3600) or None,
        )

    @rps.command(
        name=ls("rules", "cmd.rps.rules"),
        description=ls("How to play and how to send your throw", "cmd.rps.rules.desc"),
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        await interaction.response.send_message(RULESET.presenter.how_to_play(lang), ephemeral=True)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(RpsCog(bot))
