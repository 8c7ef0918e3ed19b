"""``/privacy export`` and ``/privacy forget`` (private; in a server and in DMs): the player's own
data as a JSON file, and erasing it after a confirmation (:mod:`bot.privacy`).

The cog keeps no locale of its own (no ``interaction_check`` remembering it): a user who has
just asked to be forgotten would otherwise be stored again by the very click that confirms it.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import privacy as own
from bot import replies
from bot.checks import reader_lang
from bot.i18n import t
from bot.i18n.translator import ls
from bot.record import RUNNING_STATUSES

if TYPE_CHECKING:
    from bot.client import RefereeBot

CONFIRM_SECONDS = 300.0


def exported_text(lang: str, export: dict[str, Any], filename: str) -> str:
    counts = own.summary(export)
    return t(
        lang,
        "privacy.export.done",
        file=filename,
        format=export["format"],
        date=export["exported_at"][:10],
        games=counts["games"],
        leagues=counts["leagues"],
        ledger=counts["ledger_lines"],
        ratings=counts["ratings"],
        seasons=counts["seasons_started"],
        handovers=counts["handovers"],
        absences=counts["absences"],
        misses=counts["missed_deadlines"],
        offers=counts["seat_offers"],
    )


class ForgetView(discord.ui.View):
    """The confirmation of ``/privacy forget``: only its asker may press it, once."""

    def __init__(self, cog: PrivacyCog, user_id: int, lang: str) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.cog, self.user_id, self.lang = cog, user_id, lang
        forget = discord.ui.Button[ForgetView](
            label=t(lang, "privacy.forget.button"), style=discord.ButtonStyle.danger
        )
        cancel = discord.ui.Button[ForgetView](
            label=t(lang, "privacy.forget.cancel_button"), style=discord.ButtonStyle.secondary
        )
        forget.callback = self._forget  # type: ignore[method-assign]
        cancel.callback = self._cancel  # type: ignore[method-assign]
        self.add_item(forget)
        self.add_item(cancel)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.user.id == self.user_id:
            return True
        text = t(reader_lang(interaction), "privacy.forget.not_yours")
        await replies.respond(interaction, text, ephemeral=True)
        return False

    async def _forget(self, interaction: discord.Interaction[Any]) -> None:
        self.stop()
        text = await self.cog.forget_now(self.user_id, reader_lang(interaction))
        await replies.edit(interaction, text, view=None)

    async def _cancel(self, interaction: discord.Interaction[Any]) -> None:
        self.stop()
        await replies.edit(
            interaction, t(reader_lang(interaction), "privacy.forget.cancelled"), view=None
        )


class PrivacyCog(commands.Cog):
    privacy = app_commands.Group(
        name=ls("privacy", "cmd.privacy"),
        description=ls("Your own data: take a copy, or have it erased", "cmd.privacy.desc"),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
    )

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    def _running(self, lang: str, refused: own.Refused) -> str:
        games = ", ".join(
            f"{g.id} (<#{g.channel_id}>)" if g.channel_id else g.id for g in refused.games
        )
        return "⚠️ " + t(lang, "privacy.forget.refused", games=games)

    @privacy.command(
        name=ls("export", "cmd.privacy.export"),
        description=ls(
            "A file of everything the referee stores about you (only you see it)",
            "cmd.privacy.export.desc",
        ),
    )
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        async with self.bot.repo.read() as tx:
            export = await own.collect(tx, interaction.user.id, self.bot.table.clock())
        data = json.dumps(export, ensure_ascii=False, indent=1).encode()
        filename = f"privacy-{interaction.user.id}.json"
        file = discord.File(io.BytesIO(data), filename=filename)
        text = exported_text(lang, export, filename)
        await replies.respond(interaction, text, files=[file], ephemeral=True)

    @privacy.command(
        name=ls("forget", "cmd.privacy.forget"),
        description=ls(
            "Erase what the referee stores about you (asks you to confirm)",
            "cmd.privacy.forget.desc",
        ),
    )
    async def forget(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        user_id = interaction.user.id
        async with self.bot.repo.read() as tx:
            games = await tx.games_for_user(user_id, RUNNING_STATUSES)
        refused = own.sitting(games, user_id)
        if refused:  # asked again when confirmed: a game may start in between
            await replies.respond(
                interaction, self._running(lang, own.Refused(refused)), ephemeral=True
            )
            return
        view = ForgetView(self, user_id, lang)
        await replies.respond(interaction, t(lang, "privacy.forget.ask"), view=view, ephemeral=True)

    async def forget_now(self, user_id: int, lang: str) -> str:
        async with self.bot.repo.transaction() as tx:
            result = await own.forget(tx, user_id, self.bot.table.clock())
        if isinstance(result, own.Refused):
            return self._running(lang, result)
        if not result.anything:
            return t(lang, "privacy.forget.nothing")
        return t(lang, "privacy.forget.done", games=len(result.games), leagues=len(result.leagues))
