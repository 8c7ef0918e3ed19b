"""Apeiron's Discord adapter: ``/apeiron challenge``, ``/apeiron rules``, ``/apeiron cards``,
``/apeiron pack upload|show|reset``, and the DM order builder behind the prompt's button
(:mod:`.builder`). Orders, deadlines, the board, the DMs and the record are the shared table's,
driven by the pure engine in ``rules.py``.

A server may load its own pack (moderators, ``/apeiron pack upload``): it is checked whole
(``server=True``) before anything is stored, and every bad field is named. Challenges and
``/apeiron cards`` then use it. A challenge embeds the whole pack in the game's options: the
record carries it, so a game replays and verifies after the server's pack changes, and a game
already started keeps the pack it began with.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import deadline_defaults, packs, replies
from bot.checks import is_moderator, reader_lang
from bot.cogbase import Challenge, RulesetCog, challenge_command
from bot.i18n import t
from bot.i18n.translator import localized_params, ls
from bot.storage.base import PackRow
from bot.table import TableError
from cogs.apeiron import RULESET, builder, rules
from cogs.apeiron import pack as packlib
from cogs.apeiron.present import kind_word

if TYPE_CHECKING:
    from bot.client import RefereeBot

log = logging.getLogger(__name__)

PER_PAGE = 8  # cards per page: a page's embed stays far inside Discord's 6,000 characters
SECTIONS = ("units", "chest", "specials", "presets")
MAX_ERROR_LINES = 10  # a refused upload names this many bad fields, then counts the rest
HASH_SHOWN = 12  # hex digits of a pack's hash shown (the record carries it whole)
# The loader's ``expected`` words, said in the reader's language.
EXPECTED = {
    "table": "apeiron.server_pack.expected.table",
    "integer": "apeiron.server_pack.expected.integer",
    "boolean": "apeiron.server_pack.expected.boolean",
    "string": "apeiron.server_pack.expected.string",
    "array of tables": "apeiron.server_pack.expected.array_tables",
    "array of strings": "apeiron.server_pack.expected.array_strings",
    "3 strings of 3": "apeiron.server_pack.expected.layout",
}


def challenge_options(
    pack: packlib.Pack, minutes: int, turn_limit: int, events: list[str]
) -> dict[str, Any]:
    """The game's options: the pack itself (records embed it) and its hash, the step minutes,
    the turn limit (0: none) and the event panels."""
    options: dict[str, Any] = {
        "pack": dict(pack.source),
        "pack_hash": pack.hash,
        "minutes": minutes,
    }
    if turn_limit:
        options["turn_limit"] = turn_limit
    if events:
        options["events"] = events
    rules.check_options(options)
    return options


def error_line(lang: str, error: packlib.PackError) -> str:
    """One bad field of a pack, in the reader's language (where, which field, what is wrong)."""
    params = dict(error.params)
    expected = params.get("expected")
    if isinstance(expected, str) and expected in EXPECTED:
        params["expected"] = t(lang, EXPECTED[expected])
    if lang == "ja" and params.get("kind") in packlib.KIND_NAMES_JA:
        # as Japanese orders name it (English keeps the word the TOML file holds)
        params["kind"] = packlib.KIND_NAMES_JA[str(params["kind"])]
    return t(lang, error.key, **params)


def refusal_text(lang: str, error: packlib.PackError) -> str:
    """A refused upload: each bad field on its own line (the first :data:`MAX_ERROR_LINES`)."""
    errors = error.all
    lines = [t(lang, "apeiron.server_pack.refused", count=len(errors))]
    lines += ["• " + error_line(lang, e) for e in errors[:MAX_ERROR_LINES]]
    if len(errors) > MAX_ERROR_LINES:
        lines.append(t(lang, "apeiron.server_pack.more", count=len(errors) - MAX_ERROR_LINES))
    return "\n".join(lines)


def pack_counts(pack: packlib.Pack, lang: str) -> str:
    return t(
        lang,
        "apeiron.server_pack.counts",
        units=len(pack.units),
        chest=len(pack.chest),
        specials=len(pack.specials),
        panels=len(pack.panels),
        presets=len(pack.presets),
    )


# By hash: a stored pack in use is parsed once, and the packs of servers no longer asking go.
_server_packs: packs.PackCache[packlib.Pack] = packs.PackCache()


def stored_pack(row: PackRow) -> packlib.Pack:
    """The pack a server stored (it passed a server pack's checks when it was uploaded)."""
    return _server_packs.get(row.hash, lambda: packlib.from_json(json.loads(row.pack)))


def _ability_text(card: Any, lang: str) -> str:
    return str(card.text_ja if lang == "ja" else card.text_en)


def _name(card: Any, lang: str) -> str:
    return str(card.name_ja if lang == "ja" else card.name_en)


def card_lines(pack: packlib.Pack, section: str, lang: str) -> list[tuple[str, str]]:
    """(title, text) per card of a section of the pack."""
    out: list[tuple[str, str]] = []
    if section == "units":
        for unit in pack.units.values():
            stats = t(
                lang,
                "apeiron.cards.unit",
                hp=unit.hp,
                power=unit.power,
                move=unit.move,
                range=unit.range,
                grave=unit.grave_turns,
            )
            if unit.flying:
                stats += " · " + t(lang, "apeiron.dm.flying")
            out.append(
                (f"`{unit.id}` {_name(unit, lang)}", stats + "\n" + _ability_text(unit, lang))
            )
    elif section == "chest":
        for card in pack.chest.values():
            kind = t(lang, f"apeiron.cards.kind.{card.kind}")
            out.append((f"`{card.id}` {_name(card, lang)} ({kind})", _ability_text(card, lang)))
    elif section == "specials":
        for special in pack.specials.values():
            out.append((f"`{special.id}` {_name(special, lang)}", _ability_text(special, lang)))
    else:
        for i, preset in enumerate(pack.presets, 1):
            units = ", ".join(_name(pack.units[u], lang) for u in preset.units)
            chest = ", ".join(_name(pack.chest[c], lang) for c in preset.chest)
            out.append(
                (
                    t(lang, "apeiron.cards.preset", n=i, id=preset.id),
                    t(lang, "apeiron.cards.preset_text", units=units, chest=chest),
                )
            )
    return out


def cards_embed(pack: packlib.Pack, section: str, page: int, lang: str) -> discord.Embed:
    """One page of ``/apeiron cards``: at most :data:`PER_PAGE` cards, fitted to the limits."""
    lines = card_lines(pack, section, lang)
    pages = max(1, -(-len(lines) // PER_PAGE))
    page = min(max(page, 1), pages)
    embed = discord.Embed(
        title=t(
            lang,
            "apeiron.cards.title",
            pack=pack.name_ja if lang == "ja" else pack.name_en,
            section=t(lang, f"apeiron.cards.section.{section}"),
        )[:256],
        colour=0x7A5CC4,
    )
    for title, text in lines[(page - 1) * PER_PAGE : page * PER_PAGE]:
        embed.add_field(name=title[:256], value=(text or "—")[:1024], inline=False)
    embed.set_footer(text=t(lang, "apeiron.cards.footer", page=page, pages=pages))
    return embed


def _panels_line(pack: packlib.Pack, lang: str) -> str:
    counts: dict[str, int] = {}
    for panel in pack.panels.values():
        counts[panel.kind] = counts.get(panel.kind, 0) + 1
    return ", ".join(f"{kind_word(lang, k)} {n}" for k, n in counts.items())


EVENT_CHOICES = [
    app_commands.Choice(name=ls("None", "cmd.apeiron.choice.events.none"), value="none"),
    app_commands.Choice(name=ls("All four", "cmd.apeiron.choice.events.all"), value="all"),
    app_commands.Choice(name=ls("Poison", "cmd.apeiron.choice.events.poison"), value="poison"),
    app_commands.Choice(name=ls("Gravity", "cmd.apeiron.choice.events.gravity"), value="gravity"),
    app_commands.Choice(name=ls("Arrow", "cmd.apeiron.choice.events.arrow"), value="arrow"),
    app_commands.Choice(name=ls("Lawless", "cmd.apeiron.choice.events.lawless"), value="lawless"),
]
SECTION_CHOICES = [
    app_commands.Choice(name=ls("Units", "cmd.apeiron.choice.section.units"), value="units"),
    app_commands.Choice(name=ls("Chest cards", "cmd.apeiron.choice.section.chest"), value="chest"),
    app_commands.Choice(
        name=ls("Special units", "cmd.apeiron.choice.section.specials"), value="specials"
    ),
    app_commands.Choice(
        name=ls("Preset decks", "cmd.apeiron.choice.section.presets"), value="presets"
    ),
]


class ApeironCog(
    RulesetCog,
    spec=RULESET,
    about="Apeiron: units on a field of hidden panels",
    rules_about="How a game runs and how to write orders",
):
    dynamic_items = builder.DYNAMIC_ITEMS

    async def _stored(self, guild_id: int | None) -> PackRow | None:
        if guild_id is None:
            return None
        async with self.bot.table.repo.read() as tx:
            return await tx.server_pack(guild_id, RULESET.key)

    async def server_pack(self, guild_id: int | None) -> packlib.Pack:
        """The server's own pack, or the starter pack (in DMs, or where none is loaded)."""
        row = await self._stored(guild_id)
        return packlib.starter() if row is None else stored_pack(row)

    @challenge_command("Challenge a player to Apeiron here")
    @app_commands.guild_only()
    @app_commands.describe(
        minutes=ls(
            "Minutes per step (default: the server's, /config deadlines)",
            "cmd.opt.deadline_minutes_required",
        ),
        turn_limit=ls("Game turns before the tie-break (0 = none)", "cmd.apeiron.opt.turn_limit"),
        events=ls("Event panels shuffled into the field", "cmd.apeiron.opt.events"),
    )
    @app_commands.choices(events=EVENT_CHOICES)
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        minutes: app_commands.Range[int, 1, 10080] | None = None,
        turn_limit: app_commands.Range[int, 0, 99] = 0,
        events: str = "none",
    ) -> Challenge:
        chosen = (
            list(packlib.EVENT_KINDS) if events == "all" else ([] if events == "none" else [events])
        )
        pack = await self.server_pack(interaction.guild_id)
        server = await deadline_defaults.of_guild(self.bot.table.repo, interaction.guild_id)
        step = server.step(rules.DEFAULT_MINUTES) if minutes is None else minutes
        return Challenge(
            options=challenge_options(pack, step, turn_limit, chosen),
            turn_seconds=step * 60,
            text_params=lambda lang: {
                "minutes": step,
                "deadline": deadline_defaults.note(lang, step, defaulted=minutes is None),
            },
        )

    @app_commands.command(
        name=ls("cards", "cmd.apeiron.cards"),
        description=ls("This server's pack's cards, a page at a time", "cmd.apeiron.cards.desc"),
    )
    @app_commands.describe(
        section=ls("Which cards", "cmd.apeiron.opt.section"),
        page=ls("Page number", "cmd.apeiron.opt.page"),
    )
    @app_commands.choices(section=SECTION_CHOICES)
    @localized_params
    async def cards(
        self,
        interaction: discord.Interaction[Any],
        section: str = "units",
        page: app_commands.Range[int, 1, 99] = 1,
    ) -> None:
        lang = reader_lang(interaction)
        pack = await self.server_pack(interaction.guild_id)
        embed = cards_embed(pack, section if section in SECTIONS else "units", page, lang)
        if section == "units" and page == 1:
            embed.description = t(lang, "apeiron.cards.panels", panels=_panels_line(pack, lang))
        await replies.respond(interaction, embed=embed, ephemeral=True)

    # --- /apeiron pack ---------------------------------------------------------------------------

    pack_group = app_commands.Group(
        name=ls("pack", "cmd.apeiron.pack"),
        description=ls("This server's own card pack", "cmd.apeiron.pack.desc"),
        guild_only=True,
    )

    @pack_group.command(
        name=ls("upload", "cmd.apeiron.pack.upload"),
        description=ls(
            "Load this server's own card pack from a TOML file (moderators)",
            "cmd.apeiron.pack.upload.desc",
        ),
    )
    @app_commands.describe(
        file=ls("The pack: one UTF-8 TOML file (256 KB at most)", "cmd.apeiron.opt.file")
    )
    @localized_params
    async def pack_upload(
        self, interaction: discord.Interaction[Any], file: discord.Attachment
    ) -> None:
        lang = reader_lang(interaction)
        if not is_moderator(interaction):
            raise TableError("table.moderators_only")
        assert interaction.guild_id is not None
        if file.size > packlib.MAX_BYTES:  # said before a byte of it is fetched
            raise packlib.PackError(packlib.E_TOO_BIG, limit=packlib.MAX_BYTES // 1024)
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await file.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            await replies.send_private(interaction, "⚠️ " + t(lang, "apeiron.server_pack.encoding"))
            return
        try:
            pack = packlib.loads(text, server=True)
        except packlib.PackError as error:
            # Nothing is stored: the server's pack stays what it was.
            await replies.send_private(interaction, refusal_text(lang, error))
            return
        row = PackRow(
            interaction.guild_id,
            RULESET.key,
            packlib.canonical_json(pack.source),
            pack.hash,
            interaction.user.id,
            self.bot.table.clock(),
        )
        async with self.bot.table.repo.transaction() as tx:
            await tx.set_server_pack(row)
        log.info("guild %s loaded Apeiron pack %s (%s)", row.guild_id, pack.id, pack.hash[:12])
        text = t(
            lang, "apeiron.server_pack.loaded", name=pack.name(lang), hash=pack.hash[:HASH_SHOWN]
        )
        await replies.send_private(interaction, text + "\n" + pack_counts(pack, lang))

    @pack_group.command(
        name=ls("show", "cmd.apeiron.pack.show"),
        description=ls("Which pack this server's games use", "cmd.apeiron.pack.show.desc"),
    )
    async def pack_show(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        row = await self._stored(interaction.guild_id)
        pack = packlib.starter() if row is None else stored_pack(row)
        if row is None:
            text = t(
                lang,
                "apeiron.server_pack.starter",
                name=pack.name(lang),
                hash=pack.hash[:HASH_SHOWN],
            )
        else:
            text = t(
                lang,
                "apeiron.server_pack.custom",
                name=pack.name(lang),
                id=pack.id,
                version=pack.version,
                hash=pack.hash[:HASH_SHOWN],
            )
            text += "\n" + t(
                lang,
                "apeiron.server_pack.by",
                user=f"<@{row.set_by}>",
                when=f"<t:{int(row.set_at)}:f>",
            )
        embed = discord.Embed(
            title=t(lang, "apeiron.server_pack.title"),
            description=text + "\n" + pack_counts(pack, lang),
            colour=0x7A5CC4,
        )
        await replies.respond(interaction, embed=embed, ephemeral=True)

    @pack_group.command(
        name=ls("reset", "cmd.apeiron.pack.reset"),
        description=ls("Go back to the starter pack (moderators)", "cmd.apeiron.pack.reset.desc"),
    )
    async def pack_reset(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        if not is_moderator(interaction):
            raise TableError("table.moderators_only")
        assert interaction.guild_id is not None
        async with self.bot.table.repo.transaction() as tx:
            cleared = await tx.clear_server_pack(interaction.guild_id, RULESET.key)
        key = "apeiron.server_pack.reset" if cleared else "apeiron.server_pack.reset_none"
        await replies.respond(interaction, t(lang, key), ephemeral=True)


async def setup(bot: RefereeBot) -> None:
    """The extension's entry point (the spec names this module, not the package)."""
    await bot.add_cog(ApeironCog(bot))
