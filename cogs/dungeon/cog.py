"""The dungeon's Discord adapter: ``/dungeon start`` (a party of 1 to 4 in this channel),
``/dungeon rules`` (:class:`bot.cogbase.RulesetCog`'s), ``/dungeon scenarios`` and
``/dungeon classes``. Card picks, turns and the
party's vote on a monster tie are the shared table's orders (DM text, DM buttons, ``/order``, and
the vote's buttons under the channel post), driven by the pure engine in ``rules.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import deadline_defaults, replies
from bot.checks import reader_lang
from bot.cogbase import RulesetCog
from bot.i18n import t
from bot.i18n.translator import localized_params, ls
from bot.table import Player
from bot.views import post_challenge
from cogs.dungeon import RULESET, content, present, rules

if TYPE_CHECKING:
    from bot.client import RefereeBot

DEFAULT_TURN_MINUTES = 30


async def scenario_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    lang = reader_lang(interaction)
    found = []
    for sid in content.scenario_ids():
        shown = t(lang, f"dungeon.scenario.{sid}")
        if current.lower() in sid or current in shown:
            found.append(app_commands.Choice(name=f"{shown} ({sid})"[:100], value=sid))
    return found[:25]


class DungeonCog(
    RulesetCog,
    spec=RULESET,
    about="Hex dungeon: a party against monsters the bot runs",
    rules_about="How a round runs and how to write orders",
    guild_only=True,
):
    @app_commands.command(
        name=ls("start", "cmd.dungeon.start"),
        description=ls("Start a scenario here with up to three friends", "cmd.dungeon.start.desc"),
    )
    @app_commands.describe(
        scenario=ls("The scenario", "cmd.opt.scenario"),
        player2=ls("Second player (optional)", "cmd.opt.player2"),
        player3=ls("Third player (optional)", "cmd.opt.player3"),
        player4=ls("Fourth player (optional)", "cmd.opt.player4"),
        minutes=ls(
            "Minutes per step (0 = no deadline; default: the server's, /config deadlines)",
            "cmd.opt.deadline_minutes",
        ),
        level=ls("Scenario level 0-7 (default: the scenario's)", "cmd.opt.scenario_level"),
        party=ls(
            "Classes in seat order, e.g. rogue mender (default: brute scout mender rogue)",
            "cmd.opt.party",
        ),
    )
    @app_commands.autocomplete(scenario=scenario_autocomplete)
    @localized_params
    async def start(
        self,
        interaction: discord.Interaction[Any],
        scenario: str,
        player2: discord.Member | None = None,
        player3: discord.Member | None = None,
        player4: discord.Member | None = None,
        minutes: app_commands.Range[int, 0, 10080] | None = None,
        level: app_commands.Range[int, 0, 7] | None = None,
        party: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        table = self.bot.table
        server = await deadline_defaults.of_guild(table.repo, interaction.guild_id)
        step = server.step(DEFAULT_TURN_MINUTES) if minutes is None else minutes
        friends = [m for m in (player2, player3, player4) if m is not None]
        options: dict[str, Any] = {"scenario": scenario}
        if level is not None:
            options["level"] = level
        if party:
            options["classes"] = rules.parse_party(party, len(friends) + 1)
        if friends:  # the run starts when everyone invited has accepted
            await post_challenge(
                interaction,
                "dungeon",
                friends,
                options=options,
                turn_seconds=step * 60 or None,
                text_params=lambda lang: {
                    "scenario": t(lang, f"dungeon.scenario.{scenario}"),
                    "deadline": deadline_defaults.note(lang, step, defaulted=minutes is None),
                },
            )
            return
        # Alone: nobody else to accept, the run starts now.
        await table.remember_locale(interaction.user.id, str(interaction.locale))
        game = await table.challenge(
            "dungeon",
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            players=[Player(interaction.user.id, interaction.user.display_name)],
            options=options,
            turn_seconds=step * 60 or None,
        )
        await table.accept(game.id, interaction.user.id)
        lang = await table.language(interaction.guild_id)
        await replies.respond(
            interaction,
            t(
                lang,
                "dungeon.start.solo",
                player=interaction.user.mention,
                scenario=t(lang, f"dungeon.scenario.{scenario}"),
                game=game.id,
            ),
        )

    @app_commands.command(
        name=ls("scenarios", "cmd.dungeon.scenarios"),
        description=ls("The scenarios you can start", "cmd.dungeon.scenarios.desc"),
    )
    async def scenarios(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        lines = []
        for sid in content.scenario_ids():
            scen = content.scenario(sid)
            lines.append(
                t(
                    lang,
                    "dungeon.scenarios.line",
                    name=t(lang, f"dungeon.scenario.{sid}"),
                    id=sid,
                    level=scen.level,
                    rooms=len(scen.rooms),
                    rules=scen.rules,
                )
            )
        await replies.respond(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(
        name=ls("classes", "cmd.dungeon.classes"),
        description=ls("The characters and their cards", "cmd.dungeon.classes.desc"),
    )
    async def classes(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        embed = discord.Embed(title=t(lang, "dungeon.classes.title"), colour=0x8E5C2E)
        for seat, cls in zip("ABCD", content.classes().values(), strict=False):
            cards = "\n".join(present.card_text(c.to_json(), lang) for c in cls.cards)
            embed.add_field(
                name=t(
                    lang,
                    "dungeon.classes.head",
                    name=t(lang, f"dungeon.class.{cls.id}"),
                    hp=cls.hp,
                    seat=seat,
                ),
                value=cards[:1000],
                inline=False,
            )
        await replies.respond(interaction, embed=embed, ephemeral=True)


async def setup(bot: RefereeBot) -> None:
    """The extension's entry point (the spec names this module, not the package: unloading an
    extension drops its modules, and the engine the registry holds must stay the one in use)."""
    await bot.add_cog(DungeonCog(bot))
