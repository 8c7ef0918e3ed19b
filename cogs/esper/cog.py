"""Esper war's Discord adapter: ``/esper start`` (a lobby of 5 to 11 in this channel),
``/esper rules``, ``/esper characters`` and, for moderators, ``/esper season start|show``. Orders,
deadlines, the board, the DMs and the record are the shared table's, driven by the pure engine in
``rules.py``.

Refusing a character (拒否) depends on what each player played this season, and refusing the last
one (直前拒否) on what they played in their previous game (``../shared/rules/esper.md``, Setup 1).
The bot keeps no separate history: it is read from the server's finished esper games (each
state's ``seats[seat]["sheet"]``) when a lobby opens, and frozen into the game's options
(``history``), so the record replays without the database and a later season changes nothing in a
game already started.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import deadline_defaults, limits, packs, replies
from bot.checks import is_moderator, reader_lang
from bot.cogbase import RulesetCog
from bot.i18n import t
from bot.i18n.translator import localized_params, ls
from bot.ruleset import RuleError
from bot.storage.base import ACTIVE_STATUSES, GameRow, SeasonRow
from bot.table import TableError
from bot.views import post_challenge
from cogs.esper import RULESET, rules
from cogs.esper import pack as packlib
from cogs.esper.history import build_history, finished_games, sheets_of

if TYPE_CHECKING:
    from bot.client import RefereeBot

PER_PAGE = 8  # characters per page: a page's embed stays far inside Discord's 6,000 characters
MAX_INVITED = max(rules.PLAYER_COUNTS) - 1  # the caller is seat A
COLOUR = 0x3B6FB6
E_PLAYERS = "esper.cog.players"
E_SERVER_ONLY = "esper.cog.server_only"
E_NOT_MEMBER = "esper.cog.not_member"


def start_options(
    pack: packlib.Pack,
    minutes: int,
    objection_minutes: int,
    history: Mapping[str, Any],
    season: int | None,
    players: int,
    reaction_minutes: int = rules.DEFAULT_REACTION_MINUTES,
) -> dict[str, Any]:
    """The game's options: the pack itself (records embed it) and its hash, the deadlines, the
    players' history and the season number (for the record); checked as the engine will."""
    options: dict[str, Any] = {
        "pack": dict(pack.source),
        "pack_hash": pack.hash,
        "minutes": minutes,
        "objection_minutes": objection_minutes,
        "reaction_minutes": reaction_minutes,
        "history": dict(history),
    }
    if season is not None:
        options["season"] = season
    # ``players`` only for the check (the pack must deal that many); the table knows the seats.
    rules.check_options({**options, "players": players})
    return options


# --- what the commands show (pure but for discord.Embed) ----------------------------------------

# By hash: each game embeds its pack; one in use is parsed once, and those no longer asked for go.
_packs: packs.PackCache[packlib.Pack] = packs.PackCache()


def pack_of(game: GameRow) -> packlib.Pack:
    """The pack ``game`` was played with (its options embed it; none: the sample pack)."""
    source = game.options.get("pack")
    if source is None:
        return packlib.sample()
    digest = str(game.options.get("pack_hash") or packlib.pack_hash(source))
    return _packs.get(digest, lambda: packlib.from_json(source))


def sheet_name(pack: packlib.Pack, sheet_id: str, lang: str) -> str:
    sheet = pack.sheets.get(sheet_id)
    return sheet.name(lang) if sheet is not None else sheet_id


def alignment_word(alignment: str, lang: str) -> str:
    return t(lang, f"esper.alignment.{alignment}")  # the presenter's words (GOOD, 善（GOOD）…)


def character_fields(pack: packlib.Pack, lang: str) -> list[tuple[str, str]]:
    """(title, text) per character of the pack: only what its silhouette and a revealed sheet
    show anyway (no defeat conditions, no conversion rules: the sheet tells those in the DM)."""
    out: list[tuple[str, str]] = []
    for sheet in pack.sheets.values():
        title = t(
            lang,
            "esper.cog.characters.head",
            id=sheet.id,
            name=sheet.name(lang),
            alignment=alignment_word(sheet.alignment, lang),
        )
        if sheet.lock:
            title += " (L)"
        stats = t(
            lang,
            "esper.cog.characters.stats",
            esp=sheet.esp,
            durability=sheet.durability,
            mind=sheet.mind,
        )
        names = t(lang, "esper.list_sep").join(a.name(lang) for a in sheet.abilities)
        abilities = (
            t(lang, "esper.cog.characters.abilities", names=names)
            if names
            else t(lang, "esper.cog.characters.no_abilities")
        )
        out.append((title, stats + "\n" + abilities))
    return out


def characters_embed(pack: packlib.Pack, page: int, lang: str) -> discord.Embed:
    """One page of ``/esper characters``: at most :data:`PER_PAGE` characters, fitted."""
    fields = character_fields(pack, lang)
    pages = max(1, -(-len(fields) // PER_PAGE))
    page = min(max(page, 1), pages)
    embed = discord.Embed(
        title=limits.clip(
            t(
                lang,
                "esper.cog.characters.title",
                pack=pack.name_ja if lang == "ja" else pack.name_en,
            ),
            limits.EMBED_TITLE,
        ),
        colour=COLOUR,
    )
    for title, text in fields[(page - 1) * PER_PAGE : page * PER_PAGE]:
        embed.add_field(
            name=limits.clip(title, limits.FIELD_NAME),
            value=limits.clip(text, limits.FIELD_VALUE),
            inline=False,
        )
    embed.set_footer(text=t(lang, "esper.cog.characters.footer", page=page, pages=pages))
    # Within every limit whatever a pack's names are (bot.limits; replies.respond fits it too).
    return discord.Embed.from_dict(limits.embed(embed.to_dict()) or {})


def season_text(season: SeasonRow | None, games: Iterable[GameRow], lang: str) -> str:
    """``/esper season show``: the season and, per player, the characters played in the season's
    finished games (in the reader's language). A running game's sheets are secret: such a game
    is only counted, never opened."""
    if season is None:
        return t(lang, "esper.cog.season.none")
    games = [g for g in games if g.created_at >= season.started_at]
    done = finished_games(games)
    lines = [
        t(
            lang,
            "esper.cog.season.head",
            number=season.number,
            when=f"<t:{int(season.started_at)}:f>",
            user=f"<@{season.started_by}>",
            games=len(done),
        )
    ]
    played: dict[int, list[str]] = {}  # user -> character names, in the order played
    for game in done:
        pack = pack_of(game)
        for user, sheet in sheets_of(game).items():
            played.setdefault(user, []).append(sheet_name(pack, sheet, lang))
    for user, names in played.items():
        counted = {name: names.count(name) for name in names}  # first played first
        shown = [name if n == 1 else f"{name} ×{n}" for name, n in counted.items()]
        names_text = t(lang, "esper.list_sep").join(shown)
        lines.append(t(lang, "esper.cog.season.line", user=f"<@{user}>", names=names_text))
    if not played:
        lines.append(t(lang, "esper.cog.season.empty"))
    running = sum(1 for g in games if g.status in ACTIVE_STATUSES)
    if running:
        lines.append(t(lang, "esper.cog.season.running", count=running))
    return "\n".join(lines)


# --- the commands ------------------------------------------------------------------------------


def _server(interaction: discord.Interaction[Any]) -> int:
    """The server the command was used in; refused in DMs (games and seasons belong to one)."""
    if interaction.guild_id is None:
        raise RuleError(E_SERVER_ONLY)
    return interaction.guild_id


PLAYER_OPTION = ls("A player you invite (4 to 10 in all)", "cmd.esper.opt.player")


class EsperCog(
    RulesetCog,
    spec=RULESET,
    about="Esper war: 5 to 11 players, hidden alignments",
    rules_about="How a game runs and how to write orders",
):
    @app_commands.command(
        name=ls("start", "cmd.esper.start"),
        description=ls("Open an Esper war lobby here for 5 to 11 players", "cmd.esper.start.desc"),
    )
    @app_commands.describe(
        **{f"player{i}": PLAYER_OPTION for i in range(1, MAX_INVITED + 1)},
        minutes=ls(
            "Minutes per step (default: the server's, /config deadlines)",
            "cmd.opt.deadline_minutes_required",
        ),
        objection_minutes=ls(
            "Minutes to object to a declaration (default: a step's length; live: 3)",
            "cmd.opt.deadline_objection_minutes",
        ),
        reaction_minutes=ls(
            "Minutes to sync, defend, block or use a pre-combat ability (default: a step's "
            "length; live: 3)",
            "cmd.opt.deadline_reaction_minutes",
        ),
    )
    @localized_params
    async def start(
        self,
        interaction: discord.Interaction[Any],
        player1: discord.Member | discord.User,
        player2: discord.Member | discord.User | None = None,
        player3: discord.Member | discord.User | None = None,
        player4: discord.Member | discord.User | None = None,
        player5: discord.Member | discord.User | None = None,
        player6: discord.Member | discord.User | None = None,
        player7: discord.Member | discord.User | None = None,
        player8: discord.Member | discord.User | None = None,
        player9: discord.Member | discord.User | None = None,
        player10: discord.Member | discord.User | None = None,
        minutes: app_commands.Range[int, 1, rules.MAX_MINUTES] | None = None,
        objection_minutes: app_commands.Range[int, 1, rules.MAX_MINUTES] | None = None,
        reaction_minutes: app_commands.Range[int, 1, rules.MAX_MINUTES] | None = None,
    ) -> None:
        guild_id = _server(interaction)
        server = await deadline_defaults.of_guild(self.bot.table.repo, guild_id)
        defaulted = minutes is None
        minutes = server.step(rules.DEFAULT_MINUTES) if minutes is None else minutes
        # Play-by-post, an answer may wait as long as a step: a declaration made while the
        # others sleep must not win by their silence.
        if objection_minutes is None:
            objection_minutes = server.answer(rules.DEFAULT_OBJECTION_MINUTES, minutes)
        if reaction_minutes is None:
            reaction_minutes = server.answer(rules.DEFAULT_REACTION_MINUTES, minutes)
        given = [player1, player2, player3, player4, player5]
        given += [player6, player7, player8, player9, player10]
        invited: list[discord.Member] = []
        for user in given:
            # A user, not a member, is someone outside this server (in a DM every player would
            # be one: the options take both, or discord.py fails before the command answers).
            if isinstance(user, discord.Member):
                invited.append(user)
            elif user is not None:
                raise RuleError(E_NOT_MEMBER, name=user.display_name)
        players = len(invited) + 1
        if players not in rules.PLAYER_COUNTS:
            raise RuleError(
                E_PLAYERS,
                count=len(invited),
                low=min(rules.PLAYER_COUNTS) - 1,
                high=MAX_INVITED,
            )
        async with self.bot.table.repo.read() as tx:
            season = await tx.current_season(guild_id, RULESET.key)
            games = await tx.games_of_ruleset(guild_id, RULESET.key)
        users = [interaction.user.id, *(m.id for m in invited)]
        history = build_history(users, games, season.started_at if season else None)
        number = season.number if season else None
        options = start_options(
            packlib.sample(),
            minutes,
            objection_minutes,
            history,
            number,
            players,
            reaction_minutes=reaction_minutes,
        )
        await post_challenge(
            interaction,
            RULESET.key,
            invited,
            options=options,
            turn_seconds=minutes * 60,
            text_params=lambda lang: {
                "minutes": minutes,
                "objection_minutes": objection_minutes,
                "reaction_minutes": reaction_minutes,
                "players": players,
                "season": number if number is not None else "—",
                "deadline": deadline_defaults.note(
                    lang,
                    minutes,
                    defaulted=defaulted,
                    objection=objection_minutes,
                    reaction=reaction_minutes,
                ),
            },
        )

    @app_commands.command(
        name=ls("characters", "cmd.esper.characters"),
        description=ls("The characters of the pack, a page at a time", "cmd.esper.characters.desc"),
    )
    @app_commands.describe(page=ls("Page number", "cmd.esper.opt.page"))
    @localized_params
    async def characters(
        self, interaction: discord.Interaction[Any], page: app_commands.Range[int, 1, 99] = 1
    ) -> None:
        lang = reader_lang(interaction)
        embed = characters_embed(packlib.sample(), page, lang)
        await replies.respond(interaction, embed=embed, ephemeral=True)

    # --- /esper season ---------------------------------------------------------------------------

    season_group = app_commands.Group(
        name=ls("season", "cmd.esper.season"),
        description=ls("This server's esper seasons (moderators)", "cmd.esper.season.desc"),
    )

    def _moderator_here(self, interaction: discord.Interaction[Any]) -> int:
        guild_id = _server(interaction)  # first: in a DM nobody is a moderator of anything
        if not is_moderator(interaction):
            raise TableError("table.moderators_only")
        return guild_id

    @season_group.command(
        name=ls("start", "cmd.esper.season.start"),
        description=ls("Start this server's next esper season", "cmd.esper.season.start.desc"),
    )
    async def season_start(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = self._moderator_here(interaction)
        async with self.bot.table.repo.transaction() as tx:
            season = await tx.start_season(
                guild_id, RULESET.key, interaction.user.id, self.bot.table.clock()
            )
        # An announcement for the channel, in the channel's language.
        lang = await self.bot.table.language(guild_id)
        text = t(
            lang,
            "esper.cog.season.started",
            number=season.number,
            user=interaction.user.mention,
        )
        await replies.respond(interaction, text)

    @season_group.command(
        name=ls("show", "cmd.esper.season.show"),
        description=ls(
            "The current season: who played which character", "cmd.esper.season.show.desc"
        ),
    )
    async def season_show(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = self._moderator_here(interaction)
        lang = reader_lang(interaction)
        async with self.bot.table.repo.read() as tx:
            season = await tx.current_season(guild_id, RULESET.key)
            games = (
                await tx.games_of_ruleset(guild_id, RULESET.key, season.started_at)
                if season is not None
                else []
            )
        await replies.respond(interaction, season_text(season, games, lang), ephemeral=True)


async def setup(bot: RefereeBot) -> None:
    """The extension's entry point (the spec names this module, not the package)."""
    await bot.add_cog(EsperCog(bot))
