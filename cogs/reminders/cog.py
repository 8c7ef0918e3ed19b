"""``/reminders`` (private; in a server and in DMs): show or change one's reminder settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import reminders as plan
from bot import replies
from bot.checks import reader_lang
from bot.i18n import t
from bot.i18n.translator import localized_params, ls
from bot.reminding import Changes, change_settings, load_settings

if TYPE_CHECKING:
    from bot.client import RefereeBot


def describe(settings: plan.Settings, lang: str, now: float) -> str:
    """The settings as ``/reminders`` shows them (and confirms a change)."""
    times = (
        t(lang, "reminders.times_default")
        if settings.leads == plan.DEFAULT_LEADS
        else plan.format_leads(settings.leads)
    )
    zone = settings.zone or "UTC"
    quiet = (
        t(lang, "reminders.quiet_value", hours=plan.format_quiet(settings.quiet), zone=zone)
        if settings.quiet
        else t(lang, "reminders.quiet_none")
    )
    digest = (
        t(
            lang,
            "reminders.digest_on",
            hour=f"{settings.digest_hour:02d}:00",
            zone=zone,
            next=f"<t:{int(plan.next_digest(settings, now))}:f>",
        )
        if settings.digest
        else t(lang, "reminders.digest_off")
    )
    return t(
        lang,
        "reminders.show",
        times=times,
        via=t(lang, f"reminders.via.{settings.via}"),
        zone=zone,
        quiet=quiet,
        digest=digest,
    )


class RemindersCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        # Reminder DMs follow the player's language, as the game's DMs do.
        await self.bot.table.remember_locale(interaction.user.id, str(interaction.locale))
        return True

    @app_commands.command(
        name=ls("reminders", "cmd.reminders"),
        description=ls(
            "When and how you are reminded before a deadline (only you see it)",
            "cmd.reminders.desc",
        ),
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(
        times=ls("Before each deadline, e.g. 24h 1h 10m, or 50% 10%, or default", "cmd.opt.times"),
        via=ls("By DM or by a ping in the game's channel", "cmd.opt.via"),
        digest=ls(
            "One DM a day listing your moves instead of a reminder per game", "cmd.opt.digest"
        ),
        digest_hour=ls("The hour of your daily digest (0-23, your time)", "cmd.opt.digest_hour"),
        timezone=ls("Your time zone, e.g. Asia/Tokyo", "cmd.opt.timezone"),
        quiet=ls("Quiet hours, e.g. 23:00-07:00 (off: none)", "cmd.opt.quiet"),
    )
    @app_commands.choices(
        via=[
            app_commands.Choice(name=ls("by DM", "reminders.choice.dm"), value="dm"),
            app_commands.Choice(
                name=ls("ping in the game's channel", "reminders.choice.channel"), value="channel"
            ),
        ]
    )
    @localized_params
    async def reminders(
        self,
        interaction: discord.Interaction[Any],
        times: str | None = None,
        via: str | None = None,
        digest: bool | None = None,
        digest_hour: app_commands.Range[int, 0, 23] | None = None,
        timezone: str | None = None,
        quiet: str | None = None,
    ) -> None:
        lang = reader_lang(interaction)
        now = self.bot.table.clock()
        changes = Changes(times, via, digest, digest_hour, timezone, quiet)
        if changes.empty():
            settings = await load_settings(self.bot.repo, interaction.user.id)
            text = describe(settings, lang, now)
        else:
            settings = await change_settings(self.bot.repo, interaction.user.id, changes, now)
            text = t(lang, "reminders.saved") + "\n" + describe(settings, lang, now)
        await replies.respond(interaction, text, ephemeral=True)

    @reminders.autocomplete("timezone")
    async def _zones(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in plan.zone_choices(current)]
