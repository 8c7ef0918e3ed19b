"""The Discord side of Sealed Bids: ``/bids challenge`` (a table of 3 to 11) and ``/bids rules``.

Orders, the withheld receipts, the DMs (private events, the round-1 board), deadlines, ``/game …``
and the record belong to the shared table. The challenge names up to ten opponents:
``bot.views.post_challenge`` opens the lobby for all of them, and the game starts when every one
has pressed Accept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import reader_lang
from bot.i18n.translator import localized_params, ls
from bot.ruleset import RuleError
from bot.views import post_challenge

from . import RULESET
from .rules import MIN_PLAYERS

if TYPE_CHECKING:
    from bot.client import RefereeBot

DEFAULT_TURN_HOURS = 24.0


class BidsCog(commands.Cog):
    bids = app_commands.Group(
        name=ls("bids", "cmd.bids"),
        description=ls("Sealed Bids: secret teams, secret cards", "cmd.bids.desc"),
        guild_only=True,
    )

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @bids.command(
        name=ls("challenge", "cmd.bids.challenge"),
        description=ls(
            "Challenge 2 to 10 players to Sealed Bids in this channel", "cmd.bids.challenge.desc"
        ),
    )
    @app_commands.describe(
        opponent1=ls("An opponent", "cmd.bids.opt.opponent1"),
        opponent2=ls("Another opponent (3 players at least)", "cmd.bids.opt.opponent2"),
        opponent3=ls("Another opponent (optional)", "cmd.bids.opt.more"),
        opponent4=ls("Another opponent (optional)", "cmd.bids.opt.more"),
        opponent5=ls("Another opponent (optional)", "cmd.bids.opt.more"),
        opponent6=ls("Another opponent (optional)", "cmd.bids.opt.more"),
        opponent7=ls("Another opponent (optional)", "cmd.bids.opt.more"),
        opponent8=ls("Another opponent (optional)", "cmd.bids.opt.more"),
        opponent9=ls("Another opponent (optional)", "cmd.bids.opt.more"),
        opponent10=ls("Another opponent (optional)", "cmd.bids.opt.more"),
        hours=ls("Time per turn in hours (0 = no deadline)", "cmd.opt.turn_hours"),
    )
    @localized_params
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent1: discord.Member,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        opponent4: discord.Member | None = None,
        opponent5: discord.Member | None = None,
        opponent6: discord.Member | None = None,
        opponent7: discord.Member | None = None,
        opponent8: discord.Member | None = None,
        opponent9: discord.Member | None = None,
        opponent10: discord.Member | None = None,
        hours: app_commands.Range[float, 0.0, 168.0] = DEFAULT_TURN_HOURS,
    ) -> None:
        named: list[discord.Member | None] = [opponent1, opponent2, opponent3, opponent4]
        named += [opponent5, opponent6, opponent7, opponent8, opponent9, opponent10]
        opponents = [m for m in named if m is not None]
        if len(opponents) + 1 < MIN_PLAYERS:
            raise RuleError("bids.challenge.too_few", needed=MIN_PLAYERS)
        await post_challenge(
            interaction,
            RULESET.key,
            opponents,
            options=None,
            turn_seconds=round(hours * 3600) or None,
        )

    @bids.command(
        name=ls("rules", "cmd.bids.rules"),
        description=ls("How to play and how to send your card", "cmd.bids.rules.desc"),
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        await interaction.response.send_message(RULESET.presenter.how_to_play(lang), ephemeral=True)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(BidsCog(bot))
