"""Leagues on Discord: ``/league …`` commands, and the DM select menus of the draft and the ante.

Thin: every handler finds the league, checks who may act, makes one :class:`LeagueService` call
and answers. Refusals are :class:`bot.ruleset.RuleError` values, answered in the reader's
language by the command tree's error handler (or :func:`bot.replies.refuse` for components).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import io
import json
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import absences as away
from bot import alttext, deadline_defaults, limits, replies
from bot.checks import is_moderator, reader_lang
from bot.i18n import has, t
from bot.i18n.translator import localized_params, ls
from bot.leagues import DP
from bot.messages import when
from bot.ruleset import RuleError
from bot.table import Player
from bot.views import VIEW_KINDS, build_view, out_of_date
from cogs.league import board, season
from cogs.league.ante import open_antes
from cogs.league.bracket import render_bracket
from cogs.league.export import collect
from cogs.league.ratings_board import render_ratings, table_rows
from cogs.league.rulesets import every_rosters, league_rulesets, rosters, support, typed_unit
from cogs.league.season import League, LeagueError, Options
from cogs.league.service import (
    MAX_MENU,
    MENUS_PER_PAGE,
    LeagueService,
    master_name,
    roster_lines,
)

if TYPE_CHECKING:
    from bot.client import RefereeBot

log = logging.getLogger(__name__)
LEAGUE_OPTION = ls("Which league (default: this channel's)", "cmd.opt.league")
COLOUR = 0x7A5CC4
FOOTER_ROOM = 100  # what an embed keeps for the footer that says what was left out
# /league match's seats after A and B, for a game of more seats (Esper's 5–11).
MORE_SEATS = ("c", "d", "e", "f", "g", "h", "i", "j", "k")


def is_league_moderator(interaction: discord.Interaction[Any], league: League) -> bool:
    """Manage Server, or the league's moderator role."""
    return is_moderator(interaction, roles=[league.moderator_role])


class LeaguePick(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"pbp:lp:(?P<league>[^:]+):(?P<what>draft|ante):(?P<ref>[^:]+)(?::(?P<part>[1-9]))?",
):
    """The DM menus of a draft pick (``ref`` = the pick's number) or of an ante (``ref`` = the
    match won): a page's entries in menus of 25 (the second and later menus' ids end in their
    place), and page buttons (:class:`LeaguePage`) where there are more. It works after a
    restart: the ids say everything (the value chosen is the entry)."""

    def __init__(self, item: discord.ui.Select[Any], league: str, what: str, ref: str) -> None:
        super().__init__(item)
        self.league_id, self.what, self.ref = league, what, ref

    @classmethod
    def make(cls, spec: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        options = spec["options"]
        league, what, ref = spec["league"], spec["what"], spec["ref"]
        items: list[discord.ui.Item[Any]] = []
        for part, start in enumerate(range(0, len(options), MAX_MENU)):
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=f"pbp:lp:{league}:{what}:{ref}" + (f":{part}" if part else ""),
                placeholder=spec.get("placeholder"),
                options=[
                    discord.SelectOption(label=o["label"][:100], value=o["value"])
                    for o in options[start : start + MAX_MENU]
                ],
                row=part,
            )
            items.append(cls(select, league, what, ref))
        pages, page = int(spec.get("pages", 1)), int(spec.get("page", 0))
        if items and pages > 1:
            label = str(spec.get("page_label", f"{page + 1}/{pages}"))
            for to, text, enabled in (
                (page - 1, "◀", page > 0),
                (page, label[:80], False),
                (page + 1, "▶", page + 1 < pages),
            ):
                button: discord.ui.Button[Any] = discord.ui.Button(
                    label=text,
                    custom_id=f"pbp:lpg:{league}:{what}:{ref}:{to}",
                    disabled=not enabled,
                    row=MENUS_PER_PAGE,
                )
                items.append(LeaguePage(button, league, what, ref, to))
        return items

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Select[Any],
        match: re.Match[str],
        /,
    ) -> LeaguePick:
        return cls(item, match["league"], match["what"], match["ref"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: RefereeBot = interaction.client
        service: LeagueService = bot.leagues
        lang = reader_lang(interaction)
        await bot.table.remember_locale(interaction.user.id, str(interaction.locale))
        unit = interaction.data.get("values", [""])[0]  # type: ignore[union-attr]
        # A draft pick's number, read as every number in an id is (a forged "abc" raised).
        number = limits.id_number(self.ref)
        if self.what == "draft" and number is None:
            await out_of_date(interaction)
            return
        try:
            if number is not None and self.what == "draft":
                league = await service.draft_pick(self.league_id, interaction.user.id, unit, number)
            else:
                league = await service.declare_ante(
                    self.league_id, self.ref, interaction.user.id, unit
                )
        except RuleError as exc:
            await replies.refuse(interaction, with_unit_names(exc, lang), lang)
            return
        name = rosters(league).unit_name(unit, lang)
        if self.what == "draft":
            text = t(lang, "league.draft.you_picked", unit=name, league=league.name)
            await replies.edit(interaction, content=text, view=None)
        else:
            # The menu stays: the pick may change until the winner's next league match.
            text = t(lang, "league.ante.you_declared", unit=name, match=self.ref)
            await replies.respond(interaction, text)


class LeaguePage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pbp:lpg:(?P<league>[^:]+):(?P<what>draft|ante):(?P<ref>[^:]+):(?P<page>[^:]+)",
):
    """A page button of a draft pick's or an ante's DM menus: the message shows that page of
    what is offered now (the page read as every number in an id is; a forged one is out of
    date)."""

    def __init__(
        self, item: discord.ui.Button[Any], league: str, what: str, ref: str, page: int
    ) -> None:
        super().__init__(item)
        self.league_id, self.what, self.ref, self.page = league, what, ref, page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> LeaguePage:
        page = limits.id_number(match["page"])
        return cls(item, match["league"], match["what"], match["ref"], -1 if page is None else page)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: RefereeBot = interaction.client
        service: LeagueService = bot.leagues
        lang = reader_lang(interaction)
        if self.page < 0:
            await out_of_date(interaction)
            return
        try:
            spec = await service.offer(self.league_id, self.what, self.ref, lang, self.page)
        except RuleError as exc:
            await replies.refuse(interaction, with_unit_names(exc, lang), lang)
            return
        await replies.edit(interaction, view=build_view(spec))


LEAGUE = app_commands.Group(
    name=ls("league", "cmd.league"),
    description=ls(
        "Leagues: rosters, the entry draft, ante picks and standings", "cmd.league.desc"
    ),
)


async def league_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The leagues of this server (in DMs, the user's) whose names hold what was typed."""
    bot: RefereeBot = interaction.client
    service: LeagueService = bot.leagues  # type: ignore[attr-defined]
    if interaction.guild_id is None:
        leagues = await service.of_player(interaction.user.id)
    else:
        leagues = await service.in_guild(interaction.guild_id)
    return [
        app_commands.Choice(name=lg.name, value=lg.name)
        for lg in leagues
        if current.casefold() in lg.name.casefold()
    ][:25]


Callback = Callable[..., Awaitable[None]]


def ruleset_choices() -> list[app_commands.Choice[str]]:
    """Every ruleset a league may play, named by its title (``<key>.title``)."""
    return [
        app_commands.Choice(name=ls(t("en", f"{key}.title"), f"{key}.title"), value=key)
        for key in league_rulesets()
    ]


def fixed_choices(name: str) -> dict[str, list[app_commands.Choice[str]]]:
    """``{name: choices}`` for ``app_commands.choices``: the values the league rulesets allow for
    their fixed game option ``name``, each once, named by the option's catalogue keys (nothing
    when no ruleset makes it a choice)."""
    labels: dict[str, str] = {}
    for key in league_rulesets():
        option = support(key).option(name)
        for value, label in option.choices if option is not None else ():
            labels.setdefault(value, label)
    choices = [
        app_commands.Choice(name=ls(t("en", label), label), value=value)
        for value, label in labels.items()
    ]
    return {name: choices} if choices else {}


def format_choices() -> list[app_commands.Choice[str]]:
    """The league formats, named by ``cmd.choice.format.<format>``."""
    return [
        app_commands.Choice(
            name=ls(t("en", f"cmd.choice.format.{key}"), f"cmd.choice.format.{key}"), value=key
        )
        for key in season.FORMATS
    ]


def master_options(func: Callback) -> Callback:
    """``/league master``'s options: those of the ruleset whose league declares them
    (``LeagueSupport.master_options``), handing the callback ``spec``. Slash options are fixed
    when commands sync, so one ruleset's at most: a second ruleset with master options would
    need a command of its own, and is refused here rather than offered the first one's."""
    found = [s.master_options for s in map(support, league_rulesets()) if s.master_options]
    if len(found) > 1:
        raise TypeError(f"two rulesets declare /league master options: {found}")
    if found:
        decorate: Callable[[Callback], Callback] = found[0].load()
        return decorate(func)
    own = [p for p in inspect.signature(func).parameters.values() if p.name != "spec"]

    @functools.wraps(func)
    async def without_spec(self: Any, interaction: Any, **options: Any) -> None:
        await func(self, interaction, spec=None, **options)

    without_spec.__signature__ = inspect.Signature(own)  # type: ignore[attr-defined]
    return without_spec


def subcommand(
    name: str, about: str, /, *, guild_only: bool = False, **describe: app_commands.locale_str
) -> Callable[[Callback], app_commands.Command[Any, ..., None]]:
    """``/league <name>``: named and described in English with the catalogue keys
    ``cmd.league.<name>`` and ``….desc`` (a ``-`` in the name is ``_`` in the key), each option
    described (``describe``) and its name translatable (:func:`localized_params`). A ``league``
    option is described and autocompleted with the leagues the user may name. ``guild_only``:
    Discord offers it in servers only."""
    key = "cmd.league." + name.replace("-", "_")

    def decorate(func: Callback) -> app_commands.Command[Any, ..., None]:
        described = dict(describe)
        if "league" in inspect.signature(func).parameters:
            described["league"] = LEAGUE_OPTION
            func = app_commands.autocomplete(league=league_autocomplete)(func)
        func = localized_params(func)
        if described:
            func = app_commands.describe(**described)(func)
        if guild_only:
            func = app_commands.guild_only()(func)
        return LEAGUE.command(name=ls(name, key), description=ls(about, key + ".desc"))(func)

    return decorate


class LeagueCog(commands.Cog):
    league = LEAGUE

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.service = LeagueService(bot.repo, bot.table)
        bot.leagues = self.service  # type: ignore[attr-defined]
        VIEW_KINDS["league_pick"] = LeaguePick.make
        bot.add_dynamic_items(LeaguePick, LeaguePage)

    async def cog_load(self) -> None:
        # Automatic draft picks, ante deadlines and finished league games ride on the bot's
        # maintenance loop; after a restart its first tick catches up on what fell due.
        self.bot.maintenance_hooks.append(self.service.tick)

    async def cog_unload(self) -> None:
        self.bot.maintenance_hooks.remove(self.service.tick)
        VIEW_KINDS.pop("league_pick", None)
        self.bot.remove_dynamic_items(LeaguePick, LeaguePage)

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Before the tree answers a refusal: units named as the reader knows them."""
        original = getattr(error, "original", error)
        if isinstance(original, RuleError):
            with_unit_names(original, reader_lang(interaction))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        await self.bot.table.remember_locale(interaction.user.id, str(interaction.locale))
        return True

    # --- finding the league -----------------------------------------------------------------

    async def _find(self, interaction: discord.Interaction[Any], name: str | None) -> League:
        """The league named (in this server), the one whose channel this is, or the only one;
        in DMs, the only league the user plays in."""
        if interaction.guild_id is None:
            found = await self.service.of_player(interaction.user.id)
        else:
            found = await self.service.in_guild(interaction.guild_id)
        if name:
            found = [lg for lg in found if lg.name.casefold() == name.strip().casefold()]
            if not found:
                raise LeagueError("league.not_found", name=name)
        here = [lg for lg in found if lg.channel_id == interaction.channel_id]
        if len(here) == 1:
            return here[0]
        if not found:
            raise LeagueError("league.none_here")
        if len(found) > 1:
            raise LeagueError("league.several", names=", ".join(lg.name for lg in found))
        return found[0]

    async def _moderated(self, interaction: discord.Interaction[Any], name: str | None) -> League:
        league = await self._find(interaction, name)
        if not is_league_moderator(interaction, league):
            raise LeagueError("league.moderators_only")
        return league

    async def _say(self, interaction: discord.Interaction[Any], key: str, **params: Any) -> None:
        await replies.respond(
            interaction,
            t(reader_lang(interaction), key, **params),
            ephemeral=True,
        )

    # --- creating and joining ---------------------------------------------------------------

    @subcommand(
        "create",
        "Create a league in this channel (moderators)",
        guild_only=True,
        name=ls("The league's name", "cmd.opt.league_name"),
        season_name=ls("The season (e.g. 2026 Autumn)", "cmd.opt.season"),
        ruleset=ls("The ruleset its matches are played in", "cmd.opt.ruleset"),
        minutes=ls(
            "Minutes per step of its games (default: the server's, /config deadlines)",
            "cmd.opt.deadline_league_minutes",
        ),
        cost_cap=ls("Highest total cost of a starting lineup", "cmd.opt.cost_cap"),
        tie_break=ls("How equal DP after the last turn is decided", "cmd.opt.tie_break"),
        master_approval=ls("Master units need a moderator's approval", "cmd.opt.approval"),
        ante=ls("The winner of a match may take a unit from the loser", "cmd.opt.ante"),
        pick_minutes=ls("Minutes for each draft pick", "cmd.opt.pick_minutes"),
        rounds=ls("Draft rounds (units each player drafts)", "cmd.opt.rounds"),
        format=ls("Round robin, Swiss or a single-elimination cup", "cmd.opt.format"),
        swiss_rounds=ls("Rounds of a Swiss league", "cmd.opt.swiss_rounds"),
        time_control=ls("Time control of every match", "cmd.opt.time_control"),
        turn_limit=ls("Game turns before the tie-break (0 = none)", "cmd.opt.turn_limit"),
        objection_minutes=ls(
            "Minutes to object to a victory declaration", "cmd.opt.objection_minutes"
        ),
        reaction_minutes=ls("Minutes for a combat's reactions", "cmd.opt.reaction_minutes"),
        absences=ls("A deadline in a player's absence: wait, or play defaults", "cmd.opt.absences"),
        away_days=ls("Most days one absence may last", "cmd.opt.away_days"),
        away_season_days=ls("Most days of absence a season", "cmd.opt.away_season_days"),
        miss_limit=ls(
            "Unexcused missed deadlines before moderators are told", "cmd.opt.miss_limit"
        ),
    )
    @app_commands.choices(
        absences=[
            app_commands.Choice(name=ls("wait", "away.mode.wait"), value=away.WAIT),
            app_commands.Choice(name=ls("defaults", "away.mode.defaults"), value=away.DEFAULTS),
        ],
        ruleset=ruleset_choices(),
        format=format_choices(),
        **fixed_choices("tie_break"),
        **fixed_choices("time_control"),
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, season.NAME_MAX],
        season_name: app_commands.Range[str, 1, season.SEASON_MAX],
        ruleset: str,
        minutes: app_commands.Range[int, 0, 10080] | None = None,
        cost_cap: app_commands.Range[int, 1, 60] | None = None,
        tie_break: str | None = None,
        master_approval: bool | None = None,
        ante: bool | None = None,
        pick_minutes: app_commands.Range[int, 1, 10080] | None = None,
        rounds: app_commands.Range[int, 1, season.ROUNDS_MAX] | None = None,
        format: str = season.ROUND_ROBIN,
        swiss_rounds: app_commands.Range[int, 1, season.SWISS_ROUNDS_MAX] | None = None,
        time_control: str | None = None,
        turn_limit: app_commands.Range[int, 0, 99] | None = None,
        objection_minutes: app_commands.Range[int, 1, 10080] | None = None,
        reaction_minutes: app_commands.Range[int, 1, 10080] | None = None,
        absences: str | None = None,
        away_days: app_commands.Range[int, 1, away.MAX_DAYS_BOUND] | None = None,
        away_season_days: app_commands.Range[int, 1, away.MAX_DAYS_BOUND] | None = None,
        miss_limit: app_commands.Range[int, 0, away.MISS_LIMIT_BOUND] | None = None,
    ) -> None:
        """The options left out keep their defaults; one the ruleset does not take (the cost
        cap of a game without lineups, the draft of one without rosters) is refused when set.
        ``format``: round robin (matches paired with /league match), a Swiss of
        ``swiss_rounds`` rounds or a cup (both paired with /league round). ``time_control``
        and ``turn_limit`` are game options a ruleset may let a league fix (refused by one
        that does not); the draft's rounds default to what the ruleset's rosters need."""
        if not is_moderator(interaction):
            raise LeagueError("league.moderators_only")
        assert interaction.guild_id is not None and interaction.channel_id is not None
        given: dict[str, Any] = {
            "cost_cap": cost_cap,
            "tie_break": tie_break,
            "master_approval": master_approval,
            "ante": ante,
            "pick_minutes": pick_minutes,
            "rounds": rounds if rounds is not None else support(ruleset).draft_rounds,
            "absences": absences,
            "away_days": away_days,
            "away_season_days": away_season_days,
            "miss_limit": miss_limit,
        }
        server = await deadline_defaults.of_guild(self.bot.table.repo, interaction.guild_id)
        if minutes is None:
            minutes = server.step(season.DEFAULT_TURN_MINUTES)
        fixed = {
            "time_control": time_control,
            "turn_limit": turn_limit,
            "objection_minutes": objection_minutes,
            "reaction_minutes": reaction_minutes,
        }
        # Play-by-post, a ruleset's short answers (Esper's objections and reactions) left out
        # are as long as a step; live, the ruleset's own defaults stand.
        for answer in ("objection_minutes", "reaction_minutes"):
            taken = support(ruleset).option(answer) is not None
            if fixed[answer] is None and minutes and not server.live and taken:
                fixed[answer] = minutes
        options = Options(
            turn_minutes=minutes,
            **{k: v for k, v in given.items() if v is not None},
            game={k: v for k, v in fixed.items() if v is not None},
        )
        league = await self.service.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            name=name,
            ruleset=ruleset,
            season_name=season_name,
            options=options,
            by=interaction.user.id,
            format=format,
            swiss_rounds=swiss_rounds or 0,
        )
        lang = await self.bot.table.language(interaction.guild_id)
        await replies.respond(
            interaction,
            limits.clip(
                t(lang, "league.created", league=league.name, season=league.season), limits.CONTENT
            ),
            embed=info_embed(league, lang),
        )

    @subcommand("info", "A league's options, players, draft and matches")
    async def info(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        found = await self._find(interaction, league)
        lang = reader_lang(interaction)
        embed = info_embed(found, lang)
        # Seats of its matches handed to substitutes (issue 34): a line each, where room is left.
        handed = await self.bot.table.substitutes.of_games([m.id for m in found.matches])
        lines = [
            t(
                lang,
                "handover.league.line",
                game=h.game_id,
                seat=h.seat,
                step=h.step,
                old=f"<@{h.from_user}>",
                new=f"<@{h.to_user}>",
            )
            for h in handed
        ]
        value = limits.clip("\n".join(lines), limits.FIELD_VALUE)
        name = t(lang, "handover.league.field")
        room = limits.EMBED_TOTAL - len(embed) - FOOTER_ROOM
        if lines and len(embed.fields) < limits.EMBED_FIELDS and len(name) + len(value) <= room:
            embed.add_field(name=name, value=value, inline=False)
        await replies.respond(interaction, embed=embed, ephemeral=True)

    @subcommand("join", "Join a league (before its draft)", guild_only=True)
    async def join(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        found = await self._find(interaction, league)
        user = interaction.user
        joined = await self.service.join(found.id, user.id, user.display_name)
        lang = await self.bot.table.language(interaction.guild_id)
        await replies.respond(
            interaction,
            t(
                lang,
                "league.joined",
                user=user.mention,
                league=joined.name,
                count=len(joined.players),
            ),
        )

    @subcommand("leave", "Leave a league (before its draft)", guild_only=True)
    async def leave(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        found = await self._find(interaction, league)
        left = await self.service.leave(found.id, interaction.user.id)
        await self._say(interaction, "league.left", league=left.name)

    @subcommand(
        "modrole",
        "Set the league's moderator role (Manage Server)",
        guild_only=True,
        role=ls("Members with this role moderate the league", "cmd.opt.role"),
    )
    async def modrole(
        self, interaction: discord.Interaction[Any], role: discord.Role, league: str | None = None
    ) -> None:
        if not is_moderator(interaction):  # the league's role cannot appoint itself
            raise LeagueError("league.manage_server_only")
        found = await self._find(interaction, league)
        await self.service.set_moderator_role(found.id, role.id)
        await self._say(interaction, "league.modrole_set", role=role.mention, league=found.name)

    # --- draft and masters ------------------------------------------------------------------

    @subcommand("draft", "Start the entry draft (moderators)", guild_only=True)
    async def draft(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        found = await self._moderated(interaction, league)
        await self.service.start_draft(found.id)
        await self._say(interaction, "league.draft.start_ack", league=found.name)

    async def pick_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        lang = reader_lang(interaction)
        choices = []
        for found in await self.service.of_player(interaction.user.id):
            if found.draft is None or found.draft.over:
                continue
            rules = rosters(found)
            for unit in dict.fromkeys(found.draft.available()):
                name = f"{rules.unit_name(unit, lang)} ({found.draft.costs[unit]})"
                if current.casefold() in f"{unit} {name}".casefold():
                    choices.append(app_commands.Choice(name=name, value=unit))
        return choices[:25]

    @subcommand(
        "pick",
        "Make your draft pick here (when your DMs are closed)",
        unit=ls("The unit you draft", "cmd.opt.draft_unit"),
    )
    @app_commands.autocomplete(unit=pick_autocomplete)
    async def pick(
        self, interaction: discord.Interaction[Any], unit: str, league: str | None = None
    ) -> None:
        found = await self._find(interaction, league)
        rules = rosters(found)
        if found.draft is None:
            raise LeagueError("league.draft.not_started")
        number = found.draft.number  # the pick due now: a pick made meanwhile is refused
        unit = typed_unit(rules, unit, reader_lang(interaction))
        updated = await self.service.draft_pick(found.id, interaction.user.id, unit, number)
        name = rules.unit_name(unit, reader_lang(interaction))
        await self._say(interaction, "league.draft.you_picked", unit=name, league=updated.name)

    @subcommand("master", "Submit your master unit: a preset, or your own design")
    @master_options
    async def master(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        spec: dict[str, Any] | None = None,
    ) -> None:
        found = await self._find(interaction, league)
        rosters(found)  # refused in a league without rosters, whatever was given
        if spec is None:
            raise LeagueError("league.master.preset_or_design")
        updated = await self.service.submit_master(found.id, interaction.user.id, spec)
        me = str(interaction.user.id)
        mine = updated.masters[me]
        key = "league.master.pending_ack" if mine.status == season.PENDING else "league.master.ack"
        name = master_name(updated, me, reader_lang(interaction))
        await self._say(interaction, key, unit=name, summary=mine.summary, league=found.name)

    @subcommand(
        "approve",
        "Approve a player's master unit (moderators)",
        guild_only=True,
        player=ls("Whose master unit", "cmd.opt.player"),
    )
    async def approve(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member,
        league: str | None = None,
    ) -> None:
        found = await self._moderated(interaction, league)
        await self.service.decide_master(found.id, player.id, approve=True, by=interaction.user.id)
        await self._say(interaction, "league.master.approve_ack", player=player.mention)

    @subcommand(
        "reject",
        "Send a master unit back with a reason (moderators)",
        guild_only=True,
        player=ls("Whose master unit", "cmd.opt.player"),
        reason=ls("Why (the player reads it)", "cmd.opt.reason"),
    )
    async def reject(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member,
        reason: app_commands.Range[str, 1, 300],
        league: str | None = None,
    ) -> None:
        found = await self._moderated(interaction, league)
        await self.service.decide_master(
            found.id, player.id, approve=False, by=interaction.user.id, note=reason
        )
        await self._say(interaction, "league.master.reject_ack", player=player.mention)

    # --- matches ----------------------------------------------------------------------------

    @subcommand(
        "match",
        "Pair two players for a league match (moderators)",
        guild_only=True,
        a=ls("First player (side A)", "cmd.opt.side_a"),
        b=ls("Second player (side B)", "cmd.opt.side_b"),
        **dict.fromkeys(MORE_SEATS, ls("Another player, for games of more seats", "cmd.opt.seat")),
    )
    async def match(
        self,
        interaction: discord.Interaction[Any],
        a: discord.Member,
        b: discord.Member,
        league: str | None = None,
        c: discord.Member | None = None,
        d: discord.Member | None = None,
        e: discord.Member | None = None,
        f: discord.Member | None = None,
        g: discord.Member | None = None,
        h: discord.Member | None = None,
        i: discord.Member | None = None,
        j: discord.Member | None = None,
        k: discord.Member | None = None,
    ) -> None:
        """Seats A and B, and C–K for a game of more seats (Esper: 5–11), in the order given:
        a seat left out closes the gap."""
        found = await self._moderated(interaction, league)
        rest = [m for m in (c, d, e, f, g, h, i, j, k) if m is not None]
        _, game_id = await self.service.pair(
            found.id,
            Player(a.id, a.display_name),
            Player(b.id, b.display_name),
            *(Player(m.id, m.display_name) for m in rest),
            by=interaction.user.id,
        )
        await self._say(interaction, "league.match.pair_ack", match=game_id)

    @subcommand("round", "Pair the next Swiss round or open the cup's ready ties (moderators)")
    async def round_(
        self, interaction: discord.Interaction[Any], league: str | None = None
    ) -> None:
        """The bot opens the round's matches and posts their pairings once in the channel."""
        found = await self._moderated(interaction, league)
        _, ids = await self.service.start_round(found.id, by=interaction.user.id)
        await self._say(interaction, "league.round.ack", count=len(ids))

    @subcommand(
        "forfeit",
        "Record a forfeit: the match goes to the winner (moderators)",
        guild_only=True,
        match=ls("The match (its game id, e.g. g-0003)", "cmd.opt.match"),
        winner=ls("Who wins by forfeit", "cmd.opt.winner"),
    )
    async def forfeit(
        self,
        interaction: discord.Interaction[Any],
        match: str,
        winner: discord.Member,
        league: str | None = None,
    ) -> None:
        found = await self._moderated(interaction, league)
        await self.service.forfeit(found.id, match.strip(), winner.id, by=interaction.user.id)
        await self._say(interaction, "league.match.forfeit_ack", match=match.strip())

    # --- ante --------------------------------------------------------------------------------

    @subcommand(
        "ante",
        "Declare or change your ante pick (winners)",
        unit=ls("The unit you take (its id)", "cmd.opt.unit"),
        match=ls("The match you won (default: your open ante)", "cmd.opt.match"),
    )
    async def ante(
        self,
        interaction: discord.Interaction[Any],
        unit: str,
        match: str | None = None,
        league: str | None = None,
    ) -> None:
        found = await self._find(interaction, league)
        rules = rosters(found)
        me = str(interaction.user.id)
        if match is None:
            mine = [a for a in found.antes if a.open and a.winner == me]
            if not mine:
                raise LeagueError("league.ante.none_open")
            match = mine[-1].match
        unit = typed_unit(rules, unit, reader_lang(interaction))
        await self.service.declare_ante(found.id, match.strip(), interaction.user.id, unit)
        name = rules.unit_name(unit, reader_lang(interaction))
        await self._say(interaction, "league.ante.you_declared", unit=name, match=match)

    @subcommand("antes", "Every open ante, with its pick and log (moderators)", guild_only=True)
    async def antes(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        found = await self._moderated(interaction, league)
        lang = reader_lang(interaction)
        rules = rosters(found)
        embed = discord.Embed(title=t(lang, "league.antes.title", league=found.name), colour=COLOUR)
        still_open = open_antes(found.antes)
        for a in still_open[: limits.EMBED_FIELDS]:
            log_lines = [
                t(
                    lang,
                    f"league.ante.log.{line.action}",
                    by=_who(line.by, lang),
                    unit=rules.unit_name(line.unit, lang) if line.unit else "",
                    note=line.note,
                )
                for line in a.log
            ]
            deadline = when(a.deadline) if a.deadline else t(lang, "league.antes.next_match")
            embed.add_field(
                name=t(lang, "league.antes.field", match=a.match),
                value=t(
                    lang,
                    "league.antes.value",
                    winner=f"<@{a.winner}>",
                    loser=f"<@{a.loser}>",
                    pick=rules.unit_name(a.pick, lang) if a.pick else "—",
                    deadline=deadline,
                    log="\n".join(log_lines),
                ),
                inline=False,
            )
        if not embed.fields:
            embed.description = t(lang, "league.antes.none")
        more = max(len(still_open) - limits.EMBED_FIELDS, 0)
        await replies.respond(
            interaction,
            embed=fitted(embed, lang, more=more),
            ephemeral=True,
        )

    @subcommand(
        "ante-extend",
        "Set an open ante's deadline (moderators)",
        guild_only=True,
        match=ls("The match the ante is for", "cmd.opt.match"),
        hours=ls("Hours from now", "cmd.opt.hours_from_now"),
    )
    async def ante_extend(
        self,
        interaction: discord.Interaction[Any],
        match: str,
        hours: app_commands.Range[float, 0.1, 2000.0],
        league: str | None = None,
    ) -> None:
        found = await self._moderated(interaction, league)
        until = self.bot.table.clock() + hours * 3600
        await self.service.extend_ante(found.id, match.strip(), until, by=interaction.user.id)
        await self._say(interaction, "league.ante.extend_ack", match=match, deadline=when(until))

    @subcommand(
        "ante-void",
        "Void an open ante that breaks a rule (moderators)",
        guild_only=True,
        match=ls("The match the ante is for", "cmd.opt.match"),
        reason=ls("Why (everyone reads it)", "cmd.opt.reason"),
    )
    async def ante_void(
        self,
        interaction: discord.Interaction[Any],
        match: str,
        reason: app_commands.Range[str, 1, 300],
        league: str | None = None,
    ) -> None:
        found = await self._moderated(interaction, league)
        await self.service.void_ante(found.id, match.strip(), reason, by=interaction.user.id)
        await self._say(interaction, "league.ante.void_ack", match=match)

    @subcommand(
        "roster-edit",
        "Add a unit to or remove one from a roster (moderators)",
        guild_only=True,
        player=ls("Which player", "cmd.opt.player"),
        unit=ls("The unit (its id)", "cmd.opt.roster_unit"),
        action=ls("Add or remove", "cmd.opt.roster_action"),
    )
    @app_commands.choices(
        action=[
            app_commands.Choice(name=ls("add", "cmd.choice.roster.add"), value="add"),
            app_commands.Choice(name=ls("remove", "cmd.choice.roster.remove"), value="remove"),
        ]
    )
    async def roster_edit(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member,
        unit: str,
        action: str,
        league: str | None = None,
    ) -> None:
        found = await self._moderated(interaction, league)
        unit = typed_unit(rosters(found), unit, reader_lang(interaction))
        await self.service.edit_roster(
            found.id, player.id, unit, add=action == "add", by=interaction.user.id
        )
        await self._say(interaction, "league.roster.edit_ack", player=player.mention)

    # --- standings and rosters ----------------------------------------------------------------

    @subcommand("standings", "The league table with ratings")
    async def standings(
        self, interaction: discord.Interaction[Any], league: str | None = None
    ) -> None:
        found = await self._find(interaction, league)
        lang = reader_lang(interaction)
        # Each player's unexcused missed deadlines in the league's matches (issue 34).
        missed = await self.bot.table.absences.league_misses(found.id)
        rows = [replace(r, misses=missed.get(int(r.player), 0)) for r in found.standings()]
        title = t(lang, "league.standings.title", league=found.name, season=found.season)
        embed = discord.Embed(title=limits.clip(title, limits.EMBED_TITLE), colour=COLOUR)
        # DP for and against where the ruleset scores them; its other figures' totals
        declared = support(found.ruleset).figures
        dp = DP in declared
        others = [n for n in declared if n != DP]

        def shown(row: Any) -> str:
            return t(lang, "league.sep").join(
                f"{t(lang, f'{found.ruleset}.league.figure.{n}')} {row.figures.get(n, 0)}"
                for n in others
            )

        lines = [
            t(
                lang,
                "league.standings.line"
                if dp
                else "league.standings.line_figures"
                if others
                else "league.standings.line_plain",
                figures=shown(r),
                rank=i,
                player=f"<@{r.player}>",
                played=r.played,
                won=r.won,
                drawn=r.drawn,
                lost=r.lost,
                dp_for=r.dp_for,
                dp_against=r.dp_against,
                points=r.points,
                rating=f"{r.rating:.1f}",
            )
            + (t(lang, "league.standings.misses", count=r.misses) if r.misses else "")
            for i, r in enumerate(rows, start=1)
        ]
        embed.description = head(
            lines, limits.EMBED_DESCRIPTION, lambda n: t(lang, "league.standings.more", count=n)
        ) or t(lang, "league.table.empty")
        embed.set_image(url="attachment://standings.png")
        png = await asyncio.to_thread(
            board.render_standings,
            rows,
            found.names,
            lang,
            title=title,
            dp=dp,
            figures=[(n, f"{found.ruleset}.league.figure.{n}") for n in others],
            misses=True,
        )
        await replies.respond(
            interaction,
            embed=fitted(embed, lang),
            files=[
                discord.File(
                    io.BytesIO(png),
                    filename="standings.png",
                    description=image_description(
                        title,
                        [
                            t(
                                lang,
                                "league.alt.standings_row",
                                rank=i,
                                player=found.names.get(r.player, r.player),
                                points=r.points,
                                played=r.played,
                                rating=f"{r.rating:.1f}",
                            )
                            for i, r in enumerate(rows, start=1)
                        ],
                    ),
                )
            ],
            ephemeral=True,
        )

    @subcommand(
        "ratings",
        "The server's ratings of a ruleset, kept across leagues",
        guild_only=True,
        ruleset=ls(
            "Whose ratings (default: this channel's league's ruleset)", "cmd.opt.ratings_ruleset"
        ),
    )
    @app_commands.choices(ruleset=ruleset_choices())
    async def ratings(
        self, interaction: discord.Interaction[Any], ruleset: str | None = None
    ) -> None:
        assert interaction.guild_id is not None
        if ruleset is None:
            ruleset = (await self._find(interaction, None)).ruleset
        lang = reader_lang(interaction)
        rated = await self.service.ratings(interaction.guild_id, ruleset)
        names: dict[str, str] = {}
        for found in await self.service.in_guild(interaction.guild_id):
            names.update(found.names)
        title = t(lang, "league.ratings.title", ruleset=t(lang, f"{ruleset}.title"))
        ordered = table_rows(rated)
        png = await asyncio.to_thread(render_ratings, ordered, names, lang, title=title)
        rows = [
            t(
                lang,
                "league.alt.ratings_row",
                rank=i,
                player=names.get(player, player),
                rating=f"{r.ordinal:.1f}",
                games=r.games,
            )
            for i, (player, r) in enumerate(ordered, start=1)
        ]
        await self._image(interaction, title, png, "ratings.png", image_description(title, rows))

    @subcommand("bracket", "A cup league's bracket")
    async def bracket(
        self, interaction: discord.Interaction[Any], league: str | None = None
    ) -> None:
        found = await self._find(interaction, league)
        if found.format != season.CUP:
            raise LeagueError("league.cup.not_a_cup", league=found.name)
        if found.cup is None:
            raise LeagueError("league.cup.not_started", league=found.name)
        lang = reader_lang(interaction)
        title = t(lang, "league.cup.title", league=found.name, season=found.season)
        png = await asyncio.to_thread(render_bracket, found.cup, found.names, lang, title=title)

        def name(player: str | None) -> str:
            return found.names.get(player, player) if player else "—"

        ties = [
            t(
                lang,
                "league.alt.bracket_tie" if tie.winner else "league.alt.bracket_open",
                round=number,
                a=name(tie.a),
                b=name(tie.b),
                winner=name(tie.winner),
            )
            for number, ties_ in enumerate(found.cup.rounds, start=1)
            for tie in ties_
        ]
        await self._image(interaction, title, png, "bracket.png", image_description(title, ties))

    @subcommand("export", "The league's history as JSON: rounds, matches, results, the ledger")
    async def export(
        self, interaction: discord.Interaction[Any], league: str | None = None
    ) -> None:
        """Everything the league's channel has seen, as one file a script can check against the
        match records (:func:`cogs.league.export.check_records`): rosters and results are public
        in a league, so anyone who can see it may take it."""
        found = await self._find(interaction, league)
        data = await collect(self.service, found.id)
        text = json.dumps(data, ensure_ascii=False, indent=1)
        await replies.respond(
            interaction,
            content=t(reader_lang(interaction), "league.export.ready", league=found.name),
            files=[discord.File(io.BytesIO(text.encode()), filename=f"league-{found.id}.json")],
            ephemeral=True,
        )

    async def _image(
        self,
        interaction: discord.Interaction[Any],
        title: str,
        png: bytes,
        filename: str,
        description: str,
    ) -> None:
        embed = discord.Embed(title=limits.clip(title, limits.EMBED_TITLE), colour=COLOUR)
        embed.set_image(url=f"attachment://{filename}")
        file = discord.File(io.BytesIO(png), filename=filename, description=description)
        await replies.respond(interaction, embed=embed, files=[file], ephemeral=True)

    @subcommand(
        "roster",
        "A roster now or as of a date, with each unit's history",
        player=ls("Whose roster (default: yours)", "cmd.opt.player"),
        date=ls("As of this date, YYYY-MM-DD (UTC, end of day)", "cmd.opt.date"),
    )
    async def roster(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        date: str | None = None,
        league: str | None = None,
    ) -> None:
        found = await self._find(interaction, league)
        rules = rosters(found)
        lang = reader_lang(interaction)
        who = player or interaction.user
        if str(who.id) not in found.players:
            raise LeagueError("league.not_a_player_named", player=who.display_name)
        at = _end_of_day(date) if date else None
        ledger = await self.service.ledger(found.id)
        master = master_name(found, str(who.id), lang)
        lines = roster_lines(ledger, rules, str(who.id), at, lang, master)
        title_key = "league.roster.title_at" if date else "league.roster.title"
        embed = discord.Embed(
            title=t(lang, title_key, player=who.display_name, date=date or ""),
            description="\n".join(lines) or t(lang, "league.roster.empty"),
            colour=COLOUR,
        )
        await replies.respond(interaction, embed=fitted(embed, lang), ephemeral=True)


def with_unit_names(exc: RuleError, lang: str) -> RuleError:
    """A refusal that names a unit by id (``lancer``) or a ruleset by key (``arena``) names it
    in the reader's language."""
    unit = exc.params.get("unit")
    if isinstance(unit, str) and unit:
        names = (rules.unit_name(unit, lang) for rules in every_rosters())
        exc.params["unit"] = next((n for n in names if n != unit), unit)
    ruleset = exc.params.get("ruleset")
    if isinstance(ruleset, str) and has(f"{ruleset}.title"):
        exc.params["ruleset"] = t(lang, f"{ruleset}.title")
    return exc


def _end_of_day(text: str) -> float:
    try:
        day = datetime.strptime(text.strip(), "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        raise LeagueError("league.bad_date", value=text) from None
    return day.timestamp() + 86400 - 0.001


def _who(by: str, lang: str) -> str:
    return f"<@{by}>" if by.isdigit() else t(lang, f"league.by.{by}")


def head(lines: list[str], limit: int, more: Callable[[int], str]) -> str:
    """As many of ``lines`` as fit in ``limit`` characters, then ``more(n)`` for the ``n`` left
    out."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    for index, line in enumerate(lines):
        tail = more(len(lines) - index)
        if len("\n".join([*kept, line, tail])) > limit:
            return limits.clip("\n".join([*kept, tail]), limit)
        kept.append(line)
    return "\n".join(kept)  # pragma: no cover - the whole text fitted after all


def fitted(embed: discord.Embed, lang: str, *, more: int = 0) -> discord.Embed:
    """``embed`` within Discord's limits, whatever a league's size: title, description, field
    names and values clipped; fields beyond 25, or beyond the 6000 characters an embed holds,
    left out, the footer saying how many (with ``more`` left out before)."""
    if embed.title:
        embed.title = limits.clip(embed.title, limits.EMBED_TITLE)
    if embed.description:
        embed.description = limits.clip(embed.description, limits.EMBED_DESCRIPTION)
    fields = [
        (
            limits.clip(f.name or "\u200b", limits.EMBED_TITLE),
            limits.clip(f.value or "—", limits.FIELD_VALUE),
            f.inline,
        )
        for f in embed.fields
    ]
    embed.clear_fields()
    used = len(embed.title or "") + len(embed.description or "") + FOOTER_ROOM
    for index, (name, value, inline) in enumerate(fields):
        if index >= limits.EMBED_FIELDS or used + len(name) + len(value) > limits.EMBED_TOTAL:
            more += len(fields) - index
            break
        embed.add_field(name=name, value=value, inline=bool(inline))
        used += len(name) + len(value)
    if more:
        embed.set_footer(text=limits.clip(t(lang, "league.embed.more", count=more), FOOTER_ROOM))
    return embed


def info_embed(league: League, lang: str) -> discord.Embed:
    """A league's options, players, draft, masters and matches, fitting Discord's limits for any
    number of players: the players take as many fields as they need, and if even those are too
    many, the last says how many more there are."""
    o = league.options
    title = t(lang, "league.info.title", league=league.name, season=league.season)
    embed = discord.Embed(title=limits.clip(title, limits.EMBED_TITLE), colour=COLOUR)
    playing = ", ".join(m.id for m in league.playing()) or "—"
    declared = support(league.ruleset)
    if declared.rosters is None:  # matches, standings and ratings only
        plain = t(lang, "league.info.options_plain", minutes=o.turn_minutes or "∞")
        plain = t(lang, "league.sep").join([plain, *_fixed_shown(league, lang)])
        points = t(lang, declared.points_key or "league.info.points_default")
        before = [
            (t(lang, "league.info.options"), limits.clip(plain, limits.FIELD_VALUE)),
            (t(lang, "league.info.points"), limits.clip(points, limits.FIELD_VALUE)),
        ]
        after = [(t(lang, "league.info.playing"), limits.clip(playing, limits.FIELD_VALUE))]
        return _info_fields(embed, league, lang, before, after)
    yes, no = t(lang, "league.yes"), t(lang, "league.no")
    if declared.option("cost_cap") is None:  # a ruleset's own fixed options, not lineups
        options = t(
            lang,
            "league.info.options_rosters",
            minutes=o.turn_minutes or "∞",
            fixed=t(lang, "league.sep").join(_fixed_shown(league, lang)),
            ante=yes if o.ante else no,
            pick_minutes=o.pick_minutes,
            rounds=o.rounds,
        )
    else:
        options = t(
            lang,
            "league.info.options_value",
            minutes=o.turn_minutes or "∞",
            cap=o.cost_cap,
            tie_break=t(lang, f"league.tie_break.{o.tie_break}"),
            approval=yes if o.master_approval else no,
            ante=yes if o.ante else no,
            pick_minutes=o.pick_minutes,
            rounds=o.rounds,
        )
    if league.draft is None:
        draft = t(lang, "league.info.draft_not_started")
    elif league.draft.over:
        draft = t(lang, "league.info.draft_over", picks=len(league.draft.picks))
    else:
        draft = t(
            lang,
            "league.info.draft_running",
            number=league.draft.number,
            total=len(league.draft.sequence),
            player=f"<@{league.draft.current}>",
        )
    masters = t(
        lang,
        "league.info.masters_value",
        fixed=sum(1 for m in league.masters.values() if m.status == season.APPROVED),
        total=len(league.players),
        revealed=yes if league.masters_revealed else no,
    )
    before = [(t(lang, "league.info.options"), limits.clip(options, limits.FIELD_VALUE))]
    after = [
        (t(lang, "league.info.draft"), limits.clip(draft, limits.FIELD_VALUE)),
        (t(lang, "league.info.masters"), limits.clip(masters, limits.FIELD_VALUE)),
        (t(lang, "league.info.playing"), limits.clip(playing, limits.FIELD_VALUE)),
    ]
    return _info_fields(embed, league, lang, before, after)


def image_description(title: str, lines: Sequence[str]) -> str:
    """A league image's alt text (Discord's attachment description): its title, then its rows
    in the order the image shows them, clipped to Discord's 1,024 characters."""
    return limits.clip("\n".join([title, *lines]), alttext.LIMIT)


def _fixed_shown(league: League, lang: str) -> list[str]:
    """Each game option the league's ruleset lets it fix, with the league's value, as a phrase
    (``{ruleset}.league.fixed.{option}``; a choice by its name)."""
    declared = support(league.ruleset)
    fixed = declared.fixed(league.options.to_json())
    shown = []
    for option in declared.options:
        value = fixed[option.name]
        label = dict(option.choices).get(str(value))
        text = t(lang, label) if label else str(value)
        shown.append(t(lang, f"{league.ruleset}.league.fixed.{option.name}", value=text))
    return shown


def _info_fields(
    embed: discord.Embed,
    league: League,
    lang: str,
    before: list[tuple[str, str]],
    after: list[tuple[str, str]],
) -> discord.Embed:
    """``embed`` with the fields ``before`` the players, the players, and those ``after``
    (a Swiss or cup league's format first, its absences and missed deadlines last)."""
    if league.format != season.ROUND_ROBIN:
        played = len(league.swiss.rounds) if league.swiss else 0
        shown = t(lang, f"league.format.{league.format}", rounds=league.swiss_rounds, played=played)
        before = [(t(lang, "league.info.format"), limits.clip(shown, limits.FIELD_VALUE)), *before]
    o = league.options
    away = t(
        lang,
        f"league.info.away_{o.absences}",
        days=o.away_days,
        season_days=o.away_season_days,
        limit=o.miss_limit or t(lang, "league.info.no_miss_limit"),
    )
    after = [*after, (t(lang, "league.info.away"), limits.clip(away, limits.FIELD_VALUE))]
    used = len(embed.title or "") + sum(len(n) + len(v) for n, v in [*before, *after])
    players = _player_fields(
        league.players,
        t(lang, "league.info.players", count=len(league.players)),
        room=limits.EMBED_TOTAL - FOOTER_ROOM - used,
        fields=limits.EMBED_FIELDS - len(before) - len(after),
        more=lambda n: t(lang, "league.info.more_players", count=n),
    )
    for name, value in [*before, *players, *after]:
        embed.add_field(name=name, value=value, inline=False)
    return fitted(embed, lang)


def _player_fields(
    players: Sequence[str], name: str, *, room: int, fields: int, more: Callable[[int], str]
) -> list[tuple[str, str]]:
    """The players' mentions in as many fields as they need (the first named ``name``, the
    others blank), within ``room`` characters and ``fields`` fields; a player left out is
    counted in the last field's ``more``."""
    reserve = len(more(len(players))) + 1
    chunks = limits.pack((f"<@{p}>" for p in players), limits.FIELD_VALUE - reserve, " ") or ["—"]
    kept: list[tuple[str, str]] = []
    shown = 0
    for chunk in chunks:
        label = name if not kept else "\u200b"
        if len(kept) >= fields or len(label) + len(chunk) + reserve > room:
            break
        kept.append((label, chunk))
        room -= len(label) + len(chunk)
        shown += len(chunk.split(" ")) if players else 0
    left = len(players) - shown
    if left and kept:
        label, value = kept[-1]
        kept[-1] = (label, f"{value}\n{more(left)}")
    elif left:
        kept = [(name, limits.clip(more(left), limits.FIELD_VALUE))]
    return kept
