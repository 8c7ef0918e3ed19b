"""The shared game commands (every ruleset): status, orders, resign, export, moderation, /order,
orders by DM text, /roll, /verify and /config. Thin: each handler is one Table call and a reply.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import deadline_defaults, limits, registry, replies, rollexpr, viewer
from bot import dice as dicelib
from bot.checks import can_read, is_moderator, reader_lang
from bot.i18n import normalize_lang, t
from bot.i18n.translator import localized_params, ls
from bot.messages import when
from bot.record import MAX_RECORD_BYTES, RecordError, load_record, verify
from bot.ruleset import RuleError
from bot.storage import ACTIVE_STATUSES, GameRow
from bot.table import Player, Table, TableError

if TYPE_CHECKING:
    from bot.client import RefereeBot

log = logging.getLogger(__name__)
# Discord's limit on one message's attachments (bytes): the record and its viewer together.
ATTACHMENT_LIMIT = 10 * 1024 * 1024


def _game_titles(lang: str) -> str:
    """The games one can start here, by their titles in ``lang`` (for "you have no game")."""
    sep = "、" if lang == "ja" else ", "
    return sep.join(spec.presenter.title(lang) for spec in registry.rulesets().values())


def _games_to_pick(lang: str, games: list[GameRow]) -> str:
    """``/game status``'s answer in a DM when the asker plays several games: each with its
    ruleset and channel, to name one with the ``game`` option."""
    lines = [
        t(
            lang,
            "status.pick_line",
            game=g.id,
            ruleset=registry.get(g.ruleset).presenter.title(lang),
            channel=g.channel_id,
        )
        for g in games[:20]
    ]
    return t(lang, "status.pick_game", count=len(games), games="\n".join(lines))


class GameCog(commands.Cog):
    game = app_commands.Group(
        name=ls("game", "cmd.game"),
        description=ls("Your games: status, orders, export, moderation", "cmd.game.desc"),
    )
    verify_group = app_commands.Group(
        name=ls("verify", "cmd.verify"),
        description=ls("Check dice and match records", "cmd.verify.desc"),
    )
    config = app_commands.Group(
        name=ls("config", "cmd.config"),
        description=ls("Server settings for the referee", "cmd.config.desc"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @property
    def table(self) -> Table:
        return self.bot.table

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        await self.table.remember_locale(interaction.user.id, str(interaction.locale))
        return True

    # --- finding the game a command is about --------------------------------------------------

    async def _pick(
        self, interaction: discord.Interaction[Any], game_id: str | None, *, player: bool
    ) -> GameRow:
        if game_id:
            game_id = game_id.strip()
            game = await self.table.game(game_id)
            if not can_read(interaction, game):
                # The very refusal an unknown id gets: an id tried from elsewhere learns nothing.
                raise TableError("table.no_such_game", game=game_id)
            if player and game.seat_of(interaction.user.id) is None:
                raise await self.table.substitutes.refusal(game, interaction.user.id)
            return game
        candidates: list[GameRow] = []
        if interaction.channel_id is not None and interaction.guild_id is not None:
            candidates = await self.table.games_here(
                interaction.channel_id, ("lobby", *ACTIVE_STATUSES)
            )
            if player:
                seated = [g for g in candidates if g.seat_of(interaction.user.id)]
                if not seated and len(candidates) == 1:  # a former player is told why
                    why = await self.table.substitutes.refusal(candidates[0], interaction.user.id)
                    if why.key == "handover.not_yours_now":
                        raise why
                candidates = seated
        elif player or interaction.guild_id is None:
            # In a DM: the asker's own running games (a DM is matched by the player).
            candidates = [g for g, _seat, _order in await self.table.orders_of(interaction.user.id)]
        if not candidates:
            raise TableError("table.no_game_here")
        if len(candidates) > 1:
            raise TableError("table.several_games", games=", ".join(g.id for g in candidates))
        return candidates[0]

    async def _moderated(
        self, interaction: discord.Interaction[Any], game_id: str | None
    ) -> GameRow:
        if not is_moderator(interaction):
            raise TableError("table.moderators_only")
        game = await self._pick(interaction, game_id, player=False)
        if game.guild_id != interaction.guild_id:
            raise TableError("table.not_this_server", game=game.id)
        return game

    async def game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        # Only what ``_pick`` would answer: no game of another server is offered, not even one
        # the asker plays in.
        games = [
            g
            for g, _s, _o in await self.table.orders_of(interaction.user.id)
            if can_read(interaction, g)
        ]
        if interaction.channel_id is not None and interaction.guild_id is not None:
            games += [
                g
                for g in await self.table.games_here(interaction.channel_id)
                if g not in games and can_read(interaction, g)
            ]
        return [
            app_commands.Choice(name=f"{g.id} · {g.ruleset} · {g.status}", value=g.id)
            for g in games
            if current.lower() in g.id.lower()
        ][:25]

    # --- /game --------------------------------------------------------------------------------

    @game.command(
        name=ls("status", "cmd.game.status"),
        description=ls("The board, the tallies and who has ordered", "cmd.game.status.desc"),
    )
    @app_commands.describe(game=ls("Game id (default: the game in this channel)", "cmd.opt.game"))
    @localized_params
    async def status(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        lang = reader_lang(interaction)
        if interaction.guild_id is None and not game:
            mine = [g for g, _seat, _order in await self.table.orders_of(interaction.user.id)]
            if len(mine) > 1:  # which one: the list to choose from, not "name it"
                await replies.respond(interaction, _games_to_pick(lang, mine), ephemeral=True)
                return
        row = await self._pick(interaction, game, player=False)
        await interaction.response.defer(ephemeral=True, thinking=True)
        loaded = self.table.states.load(row)
        present = loaded.presenter
        embed = discord.Embed(
            title=t(lang, "status.title", ruleset=present.title(lang), game=row.id, turn=row.step),
            description=t(lang, f"status.{row.status}"),
        )
        for seat in row.seats:
            embed.add_field(name=seat.seat, value=f"<@{seat.user_id}>", inline=True)
        for name, value in await self._handover_fields(row, lang):
            embed.add_field(name=name, value=value, inline=False)
        for name, value in await self._absence_fields(row, lang):
            embed.add_field(name=name, value=value, inline=False)
        files: list[discord.File] = []
        if loaded.state is not None:
            view = loaded.view(None)
            for name, value in present.tallies(view, lang, row.names):
                embed.add_field(name=name, value=value, inline=True)
            if row.status in ("active", "paused"):
                orders = await self.table.current_orders(row.id)
                awaited = loaded.awaiting()
                marks = [("✅ " if s in orders else "⌛ ") + s for s in awaited]
                embed.add_field(
                    name=t(
                        lang,
                        "game.field.progress",
                        done=sum(s in orders for s in awaited),
                        total=len(awaited),
                    ),
                    value=" · ".join(marks) or "—",
                    inline=False,
                )
            if row.deadline_at is not None:
                embed.add_field(name=t(lang, "game.field.deadline"), value=when(row.deadline_at))
            png = await self.bot.loop.run_in_executor(
                None, present.render_board, view, lang, row.names
            )
            files.append(discord.File(io.BytesIO(png), filename="board.png"))
            embed.set_image(url="attachment://board.png")
        await replies.respond(interaction, embed=embed, files=files, ephemeral=True)

    @game.command(
        name=ls("orders", "cmd.game.orders"),
        description=ls(
            "What you have submitted this turn (only you see it)", "cmd.game.orders.desc"
        ),
    )
    async def orders(self, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        lines = []
        for row, seat, order in await self.table.orders_of(interaction.user.id):
            if order is None:
                lines.append(t(lang, "orders.none", game=row.id, turn=row.step, seat=seat))
            else:
                lines.append(
                    t(
                        lang,
                        "orders.one",
                        game=row.id,
                        turn=row.step,
                        seat=seat,
                        order=order.text,
                        receipt=order.receipt,
                    )
                )
        await replies.respond(
            interaction, "\n".join(lines) or t(lang, "orders.no_games"), ephemeral=True
        )

    @game.command(
        name=ls("resign", "cmd.game.resign"),
        description=ls("Resign a game you are playing", "cmd.game.resign.desc"),
    )
    @app_commands.describe(
        confirm=ls("Type true to confirm", "cmd.opt.confirm"),
        game=ls("Game id (default: the game in this channel)", "cmd.opt.game"),
    )
    @localized_params
    async def resign(
        self, interaction: discord.Interaction[Any], confirm: bool, game: str | None = None
    ) -> None:
        lang = reader_lang(interaction)
        row = await self._pick(interaction, game, player=True)
        if not confirm:
            raise TableError("resign.not_confirmed")
        row = await self.table.resign(row.id, interaction.user.id)
        # In a game of many seats the others may play on without the one who left.
        key = "resign.left" if row.status in ACTIVE_STATUSES else "resign.done"
        await replies.respond(interaction, t(lang, key, game=row.id), ephemeral=True)

    @game.command(
        name=ls("export", "cmd.game.export"),
        description=ls("The match record (JSON) to replay or verify", "cmd.game.export.desc"),
    )
    @app_commands.describe(game=ls("Game id (default: the game in this channel)", "cmd.opt.game"))
    @localized_params
    async def export(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        lang = reader_lang(interaction)
        row = await self._pick(interaction, game, player=False)
        # Drawing every step's board for the viewer takes seconds: answer within Discord's 3.
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.table.export(row.id)
        data = json.dumps(record, ensure_ascii=False, indent=1).encode()
        name = f"{row.id}.json"
        files = [discord.File(io.BytesIO(data), filename=name)]
        # The viewer beside the record (bot/viewer), off the event loop, when both fit one
        # message's attachments; otherwise the way to make it from the record.
        page = (await asyncio.to_thread(viewer.build, record, lang)).html.encode()
        if len(page) + len(data) <= ATTACHMENT_LIMIT:
            viewed = f"{row.id}.html"
            files.append(discord.File(io.BytesIO(page), filename=viewed))
            note = t(lang, "viewer.export.attached", file=viewed)
        else:
            note = t(lang, "viewer.export.too_big", size=f"{len(page) / 2**20:.1f}", file=name)
        done = t(lang, "export.done", game=row.id, turns=len(record["turns"]))
        await replies.respond(interaction, f"{done}\n{note}", files=files, ephemeral=True)

    @game.command(
        name=ls("pause", "cmd.game.pause"),
        description=ls("Moderators: stop the clock of a game", "cmd.game.pause.desc"),
    )
    @app_commands.describe(game=ls("Game id (default: the game in this channel)", "cmd.opt.game"))
    @localized_params
    async def pause(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        row = await self.table.pause((await self._moderated(interaction, game)).id)
        await replies.respond(
            interaction, t(reader_lang(interaction), "mod.paused", game=row.id), ephemeral=True
        )

    @game.command(
        name=ls("resume", "cmd.game.resume"),
        description=ls("Moderators: restart the clock of a paused game", "cmd.game.resume.desc"),
    )
    @app_commands.describe(game=ls("Game id (default: the game in this channel)", "cmd.opt.game"))
    @localized_params
    async def resume(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        row = await self.table.resume((await self._moderated(interaction, game)).id)
        await replies.respond(
            interaction, t(reader_lang(interaction), "mod.resumed", game=row.id), ephemeral=True
        )

    @game.command(
        name=ls("extend", "cmd.game.extend"),
        description=ls("Moderators: give the current turn more time", "cmd.game.extend.desc"),
    )
    @app_commands.describe(
        hours=ls("Hours to add (may be fractional)", "cmd.opt.hours"),
        game=ls("Game id (default: the game in this channel)", "cmd.opt.game"),
    )
    @localized_params
    async def extend(
        self,
        interaction: discord.Interaction[Any],
        hours: app_commands.Range[float, 0.01, 336.0],
        game: str | None = None,
    ) -> None:
        row = await self.table.extend(
            (await self._moderated(interaction, game)).id, round(hours * 3600)
        )
        await replies.respond(
            interaction, t(reader_lang(interaction), "mod.extended", game=row.id), ephemeral=True
        )

    @game.command(
        name=ls("abandon", "cmd.game.abandon"),
        description=ls("Moderators: end a game without a result", "cmd.game.abandon.desc"),
    )
    @app_commands.describe(game=ls("Game id (default: the game in this channel)", "cmd.opt.game"))
    @localized_params
    async def abandon(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        row = await self.table.abandon((await self._moderated(interaction, game)).id)
        await replies.respond(
            interaction, t(reader_lang(interaction), "mod.abandoned", game=row.id), ephemeral=True
        )

    @game.command(
        name=ls("adjudicate", "cmd.game.adjudicate"),
        description=ls(
            "Moderators: end a game now by its rules' tie-break", "cmd.game.adjudicate.desc"
        ),
    )
    @app_commands.describe(game=ls("Game id (default: the game in this channel)", "cmd.opt.game"))
    @localized_params
    async def adjudicate(
        self, interaction: discord.Interaction[Any], game: str | None = None
    ) -> None:
        row = await self.table.adjudicate((await self._moderated(interaction, game)).id)
        await replies.respond(
            interaction, t(reader_lang(interaction), "mod.adjudicated", game=row.id), ephemeral=True
        )

    @game.command(
        name=ls("substitute", "cmd.game.substitute"),
        description=ls(
            "Moderators: hand a seat to another member mid-game", "cmd.game.substitute.desc"
        ),
    )
    @app_commands.describe(
        seat=ls("The seat to hand over (A, B, …)", "cmd.opt.handover_seat"),
        new_player=ls("The member who takes the seat", "cmd.opt.new_player"),
        game=ls("Game id (default: the game in this channel)", "cmd.opt.game"),
    )
    @localized_params
    async def substitute(
        self,
        interaction: discord.Interaction[Any],
        seat: app_commands.Range[str, 1, 8],
        new_player: discord.Member | discord.User,
        game: str | None = None,
    ) -> None:
        row = await self._pick(interaction, game, player=False)
        if row.guild_id is None or row.guild_id != interaction.guild_id:
            raise TableError("table.not_this_server", game=row.id)
        # In a league match the league's own moderator role may do it too.
        role = await self.table.substitutes.league_role(row)
        if not is_moderator(interaction, roles=[role]):
            key = "handover.league_moderators_only" if role else "table.moderators_only"
            raise TableError(key, game=row.id)
        if new_player.bot:
            raise TableError("handover.bot")
        if not isinstance(new_player, discord.Member):  # not (or no longer) in this server
            raise TableError("handover.not_member")
        newcomer = Player(new_player.id, new_player.display_name)
        done = await self.table.substitutes.substitute(
            row.id, seat, newcomer, by=interaction.user.id
        )
        text = t(
            reader_lang(interaction),
            "handover.done",
            game=row.id,
            seat=done.seat,
            user=f"<@{new_player.id}>",
        )
        await replies.respond(interaction, text, ephemeral=True)

    @game.command(
        name=ls("replace-me", "cmd.game.replace_me"),
        description=ls(
            "Offer your seat for a moderator to give to a substitute", "cmd.game.replace_me.desc"
        ),
    )
    @app_commands.describe(game=ls("Game id (default: the game in this channel)", "cmd.opt.game"))
    @localized_params
    async def replace_me(
        self, interaction: discord.Interaction[Any], game: str | None = None
    ) -> None:
        row = await self._pick(interaction, game, player=True)
        seat = await self.table.substitutes.offer(row.id, interaction.user.id)
        text = t(reader_lang(interaction), "handover.offer_done", game=row.id, seat=seat)
        await replies.respond(interaction, text, ephemeral=True)

    async def _handover_fields(self, row: GameRow, lang: str) -> list[tuple[str, str]]:
        """``/game status``: the seats offered for a substitute, and the handovers so far."""
        fields = []
        offers = await self.table.substitutes.offers(row.id)
        if offers:
            seats = ", ".join(f"{o.seat} <@{o.user_id}>" for o in offers)
            fields.append((t(lang, "handover.status.offered"), seats))
        handed = await self.table.substitutes.of_game(row.id)
        if handed:
            lines = [
                t(
                    lang,
                    "handover.line",
                    seat=h.seat,
                    step=h.step,
                    old=f"<@{h.from_user}>",
                    new=f"<@{h.to_user}>",
                )
                for h in handed
            ]
            fields.append((t(lang, "handover.status.handed"), limits.clip("\n".join(lines), 1000)))
        return fields

    async def _absence_fields(self, row: GameRow, lang: str) -> list[tuple[str, str]]:
        """``/game status``: the seats the open step waits for (an absence: the seat and the
        date, nothing else), and each seat's missed deadlines in this game (issue 34)."""
        found = await self.table.absences.of_game(row)
        fields = []
        if found.waiting and row.status in ACTIVE_STATUSES:
            lines = [
                t(lang, "away.status.wait_line", seat=s, until=int(u)) for s, u in found.waiting
            ]
            fields.append((t(lang, "away.status.waiting"), "\n".join(lines)))
        if found.misses:
            lines = [
                t(lang, "away.status.miss_line", seat=s, total=total, unexcused=unexcused)
                for s, (total, unexcused) in sorted(found.misses.items())
            ]
            fields.append((t(lang, "away.status.misses"), limits.clip("\n".join(lines), 1000)))
        return fields

    for _command in (
        status,
        resign,
        export,
        pause,
        resume,
        extend,
        abandon,
        adjudicate,
        substitute,
        replace_me,
    ):
        _command.autocomplete("game")(game_autocomplete)
    del _command

    # --- orders: /order and DM text -------------------------------------------------------------

    @app_commands.command(
        name=ls("order", "cmd.order"),
        description=ls("Send your secret order here (when your DMs are closed)", "cmd.order.desc"),
    )
    @app_commands.describe(
        text=ls("Your order, as you would write it by DM", "cmd.opt.text"),
        game=ls("Game id (default: your game here)", "cmd.opt.game"),
    )
    @localized_params
    async def order(
        self, interaction: discord.Interaction[Any], text: str, game: str | None = None
    ) -> None:
        lang = reader_lang(interaction)
        async with self.table.foreground.serving():
            row = await self._pick(interaction, game, player=True)
            result = await self.table.submit(
                row.id, interaction.user.id, text, source="slash", resolve=False
            )
            await replies.respond(interaction, replies.order_ack(result, lang), ephemeral=True)
        if result.complete:  # acknowledged first: the player does not wait for the resolution
            await self.table.resolve_if_ready(row.id)

    order.autocomplete("game")(game_autocomplete)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.guild is not None or not message.content:
            return
        async with self.table.foreground.serving():
            lang = normalize_lang(await self._dm_locale(message.author.id))
            games = await self.table.games_awaiting(message.author.id)
            handed = [] if games else await self.table.substitutes.handed_away(message.author.id)
            if handed:
                last = handed[-1]  # their seat went to a substitute: say so, not "no game"
                why = t(
                    lang,
                    "handover.not_yours_now",
                    game=last.game_id,
                    seat=last.seat,
                    user=f"<@{last.to_user}>",
                )
                await replies.answer_dm(message, "⚠️ " + why)
                return
            if len(games) != 1:
                text = (
                    t(lang, "dm.several_games", games=", ".join(g.id for g in games))
                    if games
                    else t(lang, "dm.no_game", games=_game_titles(lang))
                )
                await replies.answer_dm(message, text)
                return
            # Their DM channel is known from now on: no request to open it for their prompts.
            self.bot.outbox.remember_dm_channel(message.author.id, message.channel.id)
            try:
                result = await self.table.submit(
                    games[0].id,
                    message.author.id,
                    message.content,
                    source="dm",
                    resolve=False,
                    carry_ack=True,
                    reply_to=message.id,
                )
            except RuleError as exc:
                await replies.answer_dm(message, "⚠️ " + replies.reason(exc, lang))
                return
            if result.carried is not None:
                # The order completed the step: its acknowledgement rides on the next prompt DM
                # (one request, not two), posted now, still ahead of the background posts.
                await self.bot.outbox.send_now(result.carried)
                return
            await replies.answer_dm(message, replies.order_ack(result, lang))
        if result.complete:  # acknowledged first: the player does not wait for the resolution
            await self.table.resolve_if_ready(games[0].id)

    async def _dm_locale(self, user_id: int) -> str:
        async with self.bot.repo.read() as tx:
            return await tx.user_locale(user_id) or self.bot.config.default_language

    # --- /roll and /verify ----------------------------------------------------------------------

    @app_commands.command(
        name=ls("roll", "cmd.roll"),
        description=ls("Roll dice on a committed stream (2d6+1, 4d6kh3 …)", "cmd.roll.desc"),
    )
    @app_commands.describe(
        expression=ls("Dice expression such as 2d6+1, 3d6, 4d6kh3", "cmd.opt.expression")
    )
    @localized_params
    async def roll(self, interaction: discord.Interaction[Any], expression: str) -> None:
        lang = reader_lang(interaction)
        try:
            rollexpr.parse(expression)  # refused before a committed seed is spent on it
        except rollexpr.RollError as exc:
            await replies.respond(
                interaction, "⚠️ " + t(lang, exc.key, **exc.params), ephemeral=True
            )
            return
        scope = interaction.channel_id or interaction.user.id
        stream = await self.table.roll_stream(scope)
        result = rollexpr.roll(expression, dicelib.DiceStream(stream.seed, stream.label))
        channel_lang = (
            await self.table.language(interaction.guild_id) if interaction.guild_id else lang
        )
        # The expression's size is bounded before the seed is taken (rollexpr.parse); these cuts
        # only guard the send, which must not fail once the seed is spent.
        title = t(
            channel_lang,
            "roll.title",
            user=interaction.user.display_name,
            expression=result.expression,
        )
        embed = discord.Embed(
            title=limits.clip(title, limits.EMBED_TITLE),
            description=result.breakdown(limit=limits.EMBED_DESCRIPTION),
        )
        embed.add_field(name=t(channel_lang, "roll.label"), value=f"`{stream.label}`", inline=False)
        committed = "roll.commitment" if stream.committed_before else "roll.commitment_first"
        embed.add_field(
            name=t(channel_lang, committed), value=f"`{stream.commitment}`", inline=False
        )
        embed.add_field(
            name=t(channel_lang, "roll.seed"), value=f"`{stream.seed.hex()}`", inline=False
        )
        embed.add_field(
            name=t(channel_lang, "roll.next_commitment"),
            value=f"`{stream.next_commitment}`",
            inline=False,
        )
        embed.set_footer(text=t(channel_lang, "roll.footer"))
        await replies.respond(interaction, embed=embed)

    @verify_group.command(
        name=ls("roll", "cmd.verify.roll"),
        description=ls("Recompute rolls from a revealed seed", "cmd.verify.roll.desc"),
    )
    @app_commands.describe(
        seed=ls("The revealed seed (hex)", "cmd.opt.seed"),
        commitment=ls("The commitment posted before the roll (hex)", "cmd.opt.commitment"),
        label=ls("The stream label, e.g. g-0001:3:pre", "cmd.opt.label"),
        sides=ls("Sides of each die", "cmd.opt.sides"),
        count=ls("How many dice to recompute", "cmd.opt.count"),
        orders_digest=ls(
            "For a resolve stream: the turn's orders digest (from /game export)",
            "cmd.opt.orders_digest",
        ),
    )
    @localized_params
    async def verify_roll(
        self,
        interaction: discord.Interaction[Any],
        seed: str,
        commitment: str,
        label: str,
        sides: app_commands.Range[int, 2, 1000] = 6,
        count: app_commands.Range[int, 1, 100] = 6,
        orders_digest: str | None = None,
    ) -> None:
        lang = reader_lang(interaction)
        label = label.strip()
        if label.rsplit(":", 1)[-1] == dicelib.RESOLVE and not orders_digest:
            # A resolve stream's key binds the turn's sealed orders: without them no roll is known.
            await replies.respond(
                interaction, "⚠️ " + t(lang, "verify.needs_digest"), ephemeral=True
            )
            return
        try:
            seed_bytes = bytes.fromhex(seed.strip())
            stream = dicelib.DiceStream(
                seed_bytes, label, orders_digest.strip().lower() if orders_digest else None
            )
        except ValueError:
            await replies.respond(interaction, "⚠️ " + t(lang, "verify.bad_input"), ephemeral=True)
            return
        matches = dicelib.commitment(seed_bytes) == commitment.strip().lower()
        rolls = [stream.roll(sides) for _ in range(count)]
        lines = [
            t(lang, "verify.commitment_ok" if matches else "verify.commitment_bad"),
            t(lang, "verify.rolls", sides=sides, rolls=", ".join(map(str, rolls))),
        ]
        await replies.respond(interaction, "\n".join(lines), ephemeral=True)

    @verify_group.command(
        name=ls("record", "cmd.verify.record"),
        description=ls(
            "Check a match record's commitments, receipts and rolls", "cmd.verify.record.desc"
        ),
    )
    @app_commands.describe(record=ls("The JSON file from /game export", "cmd.opt.record"))
    @localized_params
    async def verify_record(
        self, interaction: discord.Interaction[Any], record: discord.Attachment
    ) -> None:
        lang = reader_lang(interaction)
        if record.size > MAX_RECORD_BYTES:
            await replies.respond(interaction, "⚠️ " + t(lang, "verify.too_big"), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            checks = verify(load_record(await record.read()))
        except (ValueError, RecordError, RuleError) as exc:
            # A file that is not a record at all is said in the reader's language.
            if isinstance(exc, RecordError) and exc.key:
                why = t(lang, exc.key, **exc.params)
            else:
                why = str(exc)
            await replies.send_private(
                interaction, "⚠️ " + t(lang, "verify.record_bad", reason=limits.clip(why, 300))
            )
            return
        failed = [c.what for c in checks if not c.ok]
        passed = [c for c in checks if c.ok and not c.note]
        text = (
            t(lang, "verify.record_ok", count=len(passed))
            if not failed
            else t(lang, "verify.record_failed", count=len(failed), items="\n".join(failed[:20]))
        )
        # What a mid-game export withholds (hidden information) is said, not counted.
        notes = [c.what for c in checks if c.note]
        if notes:
            text += "\n" + t(lang, "verify.record_notes", items="\n".join(notes[:5]))
        await replies.send_private(interaction, text)

    # --- /config --------------------------------------------------------------------------------

    @config.command(
        name=ls("language", "cmd.config.language"),
        description=ls("Language of the bot's posts in this server", "cmd.config.language.desc"),
    )
    @app_commands.describe(language=ls("en or ja", "cmd.opt.language"))
    @app_commands.choices(
        language=[
            app_commands.Choice(name=ls("English", "lang.en"), value="en"),
            app_commands.Choice(name=ls("日本語", "lang.ja"), value="ja"),
        ]
    )
    @localized_params
    async def language(
        self, interaction: discord.Interaction[Any], language: app_commands.Choice[str]
    ) -> None:
        if not is_moderator(interaction):
            raise TableError("table.moderators_only")
        assert interaction.guild_id is not None
        await self.table.set_language(interaction.guild_id, language.value)
        await replies.respond(interaction, t(language.value, "config.language_set"))

    @config.command(
        name=ls("deadlines", "cmd.config.deadlines"),
        description=ls(
            "Default deadlines of games and leagues created here without their time options",
            "cmd.config.deadlines.desc",
        ),
    )
    @app_commands.describe(
        pace=ls(
            "play_by_post (hours a step) or live (the rulesets' real-time values)",
            "cmd.opt.deadline_pace",
        ),
        hours=ls("Hours a step for play-by-post (default 24)", "cmd.opt.deadline_hours"),
    )
    @app_commands.choices(
        pace=[
            app_commands.Choice(
                name=ls("play-by-post", "deadlines.choice.play_by_post"),
                value=deadline_defaults.PLAY_BY_POST,
            ),
            app_commands.Choice(
                name=ls("live", "deadlines.choice.live"), value=deadline_defaults.LIVE
            ),
        ]
    )
    @localized_params
    async def deadlines(
        self,
        interaction: discord.Interaction[Any],
        pace: app_commands.Choice[str],
        hours: app_commands.Range[int, 1, deadline_defaults.MAX_STEP_HOURS] | None = None,
    ) -> None:
        if not is_moderator(interaction):
            raise TableError("table.moderators_only")
        assert interaction.guild_id is not None
        lang = await self.table.language(interaction.guild_id)
        live = pace.value == deadline_defaults.LIVE
        if live and hours is not None:
            raise TableError("config.deadlines_hours_live")
        step = (hours or deadline_defaults.DEFAULT_STEP_HOURS) * 60
        await deadline_defaults.set_guild(
            self.table.repo, interaction.guild_id, pace.value, step, self.table.clock()
        )
        text = (
            t(lang, "config.deadlines_live")
            if live
            else t(lang, "config.deadlines_pbp", time=deadline_defaults.duration(lang, step))
        )
        await replies.respond(interaction, text)
