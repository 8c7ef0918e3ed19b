"""Substitutes: a seat handed to another member mid-game (``/game substitute``), and a seat its
player offers for one (``/game replace-me``). Issue 34.

One transaction hands the seat over: the seat's row in ``seats`` names the newcomer (every later
prompt, reminder and DM of the seat goes to them, as the table always reads the seat's player
there), the handover is stored (numbered, with the digest that chains it to the game's players
digest: :mod:`bot.record.handovers`), the game's DMs still waiting for the former player are
superseded (never sent), the channel is told who took the seat and never what it holds, and the
newcomer is sent by DM what the seat is entitled to know, and nothing more:

- the seat's private events of the game so far (every stored event addressed to the seat: what
  its DMs told it, as the presenter words them);
- the order the seat has already sealed for the open step, if any: it stays (it was accepted when
  it was sent, and the dice of a resolve stream are bound to the receipts as they stand); the
  newcomer may replace it while the step is open, as the former player could have;
- the seat's private view now (the presenter's private lines, and its private board where the
  ruleset draws one), and, when the seat is awaited, the step's prompt with its buttons, so the
  newcomer can answer at once (by DM or ``/order``).

A former player's orders, clicks and DM texts are refused afterwards with the reason
(``handover.not_yours_now``: :func:`bot.reads.not_seated`). The game's rules never see any of
it: engines know seats, not players, so a handover changes no state and replays as nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot import messages
from bot.i18n import t
from bot.posting import outbox_nonce
from bot.reads import TableError, not_seated, require
from bot.record import handover_digest, original_players, players_digest
from bot.ruleset import addressees
from bot.storage import ACTIVE_STATUSES
from bot.tablepart import TablePart

if TYPE_CHECKING:
    from bot.loaded import LoadedGame
    from bot.lobby import Player
    from bot.storage.base import GameRow, Transaction
    from bot.storage.handovers_store import HandoverRow, SeatOffer


class Substitutes(TablePart):
    """The table's handovers and seat offers (``Table.substitutes``)."""

    # --- the handover ---------------------------------------------------------------------

    async def substitute(
        self, game_id: str, seat: str, new: Player, *, by: int | None = None
    ) -> HandoverRow:
        """Hand ``seat`` to ``new`` (a member of the server, not a bot: the cog checks that)."""
        async with self.repo.transaction() as tx:
            game = await require(tx, game_id)
            if game.status not in ACTIVE_STATUSES or game.state is None:
                raise TableError("handover.not_running", game=game.id)
            row = next((s for s in game.seats if s.seat.upper() == seat.strip().upper()), None)
            if row is None:
                seats = ", ".join(game.seat_order)
                raise TableError("handover.no_such_seat", game=game.id, seat=seat, seats=seats)
            if row.left_turn is not None:
                raise TableError("handover.seat_left", game=game.id, seat=row.seat)
            if game.seat_of(new.user_id) is not None:
                raise TableError("handover.already_seated", game=game.id, user=f"<@{new.user_id}>")
            old_user, old_name = row.user_id, row.name
            stored = await tx.handovers(game.id)
            previous = (
                stored[-1].digest
                if stored
                else players_digest(game.id, game.seat_order, original_players(game))
            )
            now = self.clock()
            digest = handover_digest(game.id, previous, game.step, row.seat, old_name, new.name)
            handover = await tx.hand_seat(
                game_id=game.id,
                step=game.step,
                seat=row.seat,
                from_user=old_user,
                from_name=old_name,
                to_user=new.user_id,
                to_name=new.name,
                by_user=by,
                digest=digest,
                now=now,
            )
            row.user_id, row.name, row.dm_open = new.user_id, new.name, None
            # What was queued for the former player (a prompt, a private event) is the seat's:
            # it must not reach them now. The newcomer's briefing below tells the seat's all.
            await tx.supersede_dms(game.id, old_user)
            loaded = self.states.load(game)
            await self._announce(tx, game, handover)
            await self._brief(tx, loaded, handover)
        self.notify()
        return handover

    async def _announce(self, tx: Transaction, game: GameRow, handover: HandoverRow) -> None:
        """The channel: who took which seat from whom, and the handover's digest (what the
        match record's entry is checked against). Pings the newcomer only."""
        lang = await self.languages.of_guild(tx, game.guild_id)
        text = t(
            lang,
            "handover.notice",
            game=game.id,
            seat=handover.seat,
            new=f"<@{handover.to_user}>",
            old=f"<@{handover.from_user}>",
            digest=messages.short(handover.digest),
        )
        payload = {"lang": lang, "content": text, "mentions": [handover.to_user]}
        await tx.enqueue(
            game_id=game.id,
            kind="channel",
            target_id=game.channel_id,
            payload=payload,
            nonce=outbox_nonce(game.id, "handover", handover.seq),
            now=handover.at,
        )

    async def _brief(self, tx: Transaction, loaded: LoadedGame, handover: HandoverRow) -> None:
        """The newcomer's DMs: what the seat knows, then the open prompt if the seat owes it."""
        game, seat, user = loaded.game, handover.seat, handover.to_user
        lang = await self.languages.of_user(
            tx, user, await self.languages.of_guild(tx, game.guild_id)
        )
        told = [e for _, e in await tx.events(game.id) if seat in (addressees(e) or ())]
        sealed = (await tx.orders_for_turn(game.id, game.step)).get(seat)
        awaited = game.status in ("active", "paused") and seat in loaded.awaiting()
        payload = briefing(loaded, handover, lang=lang, told=told, sealed=sealed, awaited=awaited)
        dms = [("brief", payload)]
        if awaited and (prompt := messages.seat_dm(loaded, seat, lang=lang, awaited=True)):
            dms.append(("prompt", prompt))
        for part, dm in dms:
            await tx.enqueue(
                game_id=game.id,
                kind="dm",
                target_id=user,
                payload=dm,
                nonce=outbox_nonce(game.id, "handover", handover.seq, part),
                now=handover.at,
            )

    # --- offers and reads -------------------------------------------------------------------

    async def offer(self, game_id: str, user_id: int) -> str:
        """``user_id`` offers their seat for a substitute; the channel is told (pinging nobody).
        Returns the seat."""
        async with self.repo.transaction() as tx:
            game = await require(tx, game_id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise TableError("table.not_your_game", game=game.id)
            if game.status not in ACTIVE_STATUSES:
                raise TableError("handover.not_running", game=game.id)
            if not await tx.offer_seat(game.id, seat, user_id, self.clock()):
                raise TableError("handover.already_offered", game=game.id, seat=seat)
            lang = await self.languages.of_guild(tx, game.guild_id)
            text = t(lang, "handover.offered", game=game.id, seat=seat)
            payload = {"lang": lang, "content": text}
            await tx.enqueue(
                game_id=game.id,
                kind="channel",
                target_id=game.channel_id,
                payload=payload,
                nonce=outbox_nonce(game.id, "offer", seat, self.clock()),
                now=self.clock(),
            )
        self.notify()
        return seat

    async def refusal(self, game: GameRow, user_id: int) -> TableError:
        """Why ``user_id`` may not act for a seat of ``game`` (a former player is told who has
        their seat now)."""
        async with self.repo.read() as tx:
            return await not_seated(tx, game, user_id)

    async def offers(self, game_id: str) -> list[SeatOffer]:
        async with self.repo.read() as tx:
            return await tx.seat_offers(game_id)

    async def of_game(self, game_id: str) -> list[HandoverRow]:
        async with self.repo.read() as tx:
            return await tx.handovers(game_id)

    async def of_games(self, game_ids: Sequence[str]) -> list[HandoverRow]:
        async with self.repo.read() as tx:
            return await tx.handovers_of_games(game_ids)

    async def handed_away(self, user_id: int) -> list[HandoverRow]:
        """The running games whose seat ``user_id`` was handed away from (and sits in no more)."""
        async with self.repo.read() as tx:
            return await tx.handed_away_running(user_id)

    async def league_role(self, game: GameRow) -> int | None:
        """The moderator role of the league a league match belongs to (None: none, or not a
        league match): its moderators may substitute in its matches."""
        league_id = game.options.get("league")
        if not league_id:
            return None
        async with self.repo.read() as tx:
            league = await tx.get_league(str(league_id))
        role = None if league is None else league.data.get("moderator_role")
        return int(role) if role is not None else None


def briefing(
    loaded: LoadedGame,
    handover: HandoverRow,
    *,
    lang: str,
    told: Sequence[dict[str, Any]],
    sealed: Any,
    awaited: bool,
) -> dict[str, Any]:
    """The newcomer's first DM: the seat they hold now, its private events so far, the order it
    has sealed for the open step, its sheet, and (when it owes no order now: otherwise the
    prompt that follows carries it) its private board. Only the seat's own facts: ``told``
    holds the events addressed to it, and the view is the engine's view for the seat."""
    game, present, seat = loaded.game, loaded.presenter, handover.seat
    channel = f"<#{game.channel_id}>" if game.channel_id else ""
    lines = [
        t(
            lang,
            "handover.dm.header",
            ruleset=present.title(lang),
            game=game.id,
            seat=seat,
            channel=channel,
            old=f"<@{handover.from_user}>",
            step=messages.step_name(loaded, lang),
        )
    ]
    history = present.event_lines(told, lang, game.names)
    if history:
        lines += [t(lang, "handover.dm.history"), *history]
    if sealed is not None:
        text = present.order_text(sealed.text, lang)
        lines.append(
            t(lang, "handover.dm.sealed", order=text, receipt=messages.short(sealed.receipt))
        )
    payload: dict[str, Any] = {"lang": lang}
    # The seat's sheet, whether or not a prompt follows: a prompt keeps it behind its 📋
    # button, and a newcomer needs it at once.
    view = loaded.view(seat)
    private = present.private_lines(view, seat, lang)
    if private:
        lines += [t(lang, "handover.dm.view"), *private]
    if awaited:
        lines.append(t(lang, "handover.dm.prompt_follows"))
    elif present.private_board(view, seat):  # (a prompt that follows carries the board)
        payload["board"] = {
            "version": game.version,
            "seat": seat,
            "names": game.names,
            "view": view,
        }
    payload["content"] = "\n".join(lines)
    return payload
