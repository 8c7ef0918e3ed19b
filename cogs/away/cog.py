"""``/away until``, ``/away end``, ``/away show`` and ``/away limit``: thin, each one call of
``Table.absences`` (:mod:`bot.away`) and a private reply."""

from __future__ import annotations

from datetime import UTC, tzinfo
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord
from discord import app_commands
from discord.ext import commands

from bot import absences as rules
from bot import replies
from bot.checks import is_moderator, reader_lang
from bot.i18n import t
from bot.i18n.translator import localized_params, ls
from bot.table import TableError

if TYPE_CHECKING:
    from bot.away import Absences
    from bot.client import RefereeBot


class AwayCog(commands.Cog):
    away = app_commands.Group(
        name=ls("away", "cmd.away"),
        description=ls("Your absences: your games wait for you, within bounds", "cmd.away.desc"),
    )

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @property
    def absences(self) -> Absences:
        return self.bot.table.absences

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        await self.bot.table.remember_locale(interaction.user.id, str(interaction.locale))
        return True

    async def _zone(self, user_id: int) -> tuple[tzinfo, str]:
        """The player's time zone as ``/reminders`` stored it, else UTC."""
        name = await self.absences.zone_name(user_id)
        try:
            return (ZoneInfo(name), name) if name else (UTC, "UTC")
        except (ZoneInfoNotFoundError, ValueError):
            return UTC, "UTC"

    @away.command(
        name=ls("until", "cmd.away.until"),
        description=ls("Go away until a date: your games wait for you", "cmd.away.until.desc"),
    )
    @app_commands.describe(
        date=ls("YYYY-MM-DD or YYYY-MM-DD HH:MM (your time zone)", "cmd.opt.away_date"),
        reason=ls("Only you see it", "cmd.opt.away_reason"),
    )
    @localized_params
    async def until(
        self,
        interaction: discord.Interaction[Any],
        date: app_commands.Range[str, 1, 40],
        reason: app_commands.Range[str, 0, rules.REASON_MAX] = "",
    ) -> None:
        lang = reader_lang(interaction)
        zone, name = await self._zone(interaction.user.id)
        ends = rules.parse_until(date, zone)
        row = await self.absences.set_away(interaction.user.id, interaction.guild_id, ends, reason)
        text = t(lang, "away.set", until=int(row.ends_at), zone=name)
        await replies.respond(interaction, text, ephemeral=True)

    @away.command(
        name=ls("end", "cmd.away.end"),
        description=ls("Back early: end your absence now", "cmd.away.end.desc"),
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.absences.end_away(interaction.user.id)
        text = t(reader_lang(interaction), "away.ended")
        await replies.respond(interaction, text, ephemeral=True)

    @away.command(
        name=ls("show", "cmd.away.show"),
        description=ls("Your absence now, if any (only you see it)", "cmd.away.show.desc"),
    )
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        row = await self.absences.current(interaction.user.id)
        if row is None:
            text = t(lang, "away.show.none")
        elif row.reason:
            text = t(lang, "away.show.reason", until=int(row.end), reason=row.reason)
        else:
            text = t(lang, "away.show", until=int(row.end))
        await replies.respond(interaction, text, ephemeral=True)

    @away.command(
        name=ls("limit", "cmd.away.limit"),
        description=ls(
            "Moderators: the server's bound on absences outside leagues", "cmd.away.limit.desc"
        ),
    )
    @app_commands.describe(
        days=ls("Most days one absence may last", "cmd.opt.away_days"),
        mode=ls("Deadlines in an absence wait, or the defaults play", "cmd.opt.away_mode"),
    )
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=ls("wait", "away.mode.wait"), value=rules.WAIT),
            app_commands.Choice(name=ls("defaults", "away.mode.defaults"), value=rules.DEFAULTS),
        ]
    )
    @app_commands.guild_only()
    @localized_params
    async def limit(
        self,
        interaction: discord.Interaction[Any],
        days: app_commands.Range[int, 1, rules.MAX_DAYS_BOUND] | None = None,
        mode: str | None = None,
    ) -> None:
        lang = reader_lang(interaction)
        assert interaction.guild_id is not None
        setting = await self.absences.setting(interaction.guild_id)
        if days is not None or mode is not None:
            if not is_moderator(interaction):
                raise TableError("table.moderators_only")
            setting = await self.absences.set_setting(
                interaction.guild_id, days or setting.max_days, mode or setting.mode
            )
        text = t(
            lang,
            "away.limit.show",
            days=setting.max_days,
            mode=t(lang, f"away.mode.{setting.mode}"),
        )
        await replies.respond(interaction, text, ephemeral=True)
