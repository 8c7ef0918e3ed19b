"""The application-command tree: one place that turns errors into replies for every cog."""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from bot import replies
from bot.checks import reader_lang
from bot.i18n import t
from bot.ruleset import RuleError

log = logging.getLogger(__name__)


class RefereeTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        lang = reader_lang(interaction)
        original = getattr(error, "original", error)
        # A refusal on purpose (not your game, bad order…) is an answer, not an error: the user
        # gets the reason and nothing is logged.
        if isinstance(original, RuleError):
            await replies.refuse(interaction, original, lang)
            return
        if isinstance(error, app_commands.CheckFailure):
            await replies.send_private(interaction, "⚠️ " + t(lang, "error.not_allowed"))
            return
        # A bug: log it with a short reference the user can quote to the bot's operators.
        ref = secrets.token_hex(3)
        log.error("command failed [%s]", ref, exc_info=original)
        try:
            await replies.send_private(interaction, "⚠️ " + t(lang, "error.unexpected", ref=ref))
        except discord.HTTPException:
            log.warning("could not tell the user about error %s", ref)
