"""A player's own data (issue 37): what ``/privacy export`` hands them and what ``/privacy
forget`` erases, each inside one transaction given by the caller (no discord here).

**Export** (:func:`collect`): one JSON object, keys a person can read, ``format``
(:data:`EXPORT_FORMAT`) and the date: preferences (language, reminders, time zone, DM channel),
seasons started, leagues (their names there, the ledger lines naming them), ratings, seats in
games (game, ruleset, seat, status, and the text of every order they sealed themselves: their
own, so theirs to read whether revealed or not; never another seat's), handovers, absences,
missed deadlines and seat offers.

**Forget** (:func:`forget`): refused while the user sits in a running game (a lobby, or a game
not over whose seat they have not left or handed on): they resign, leave, or a moderator hands
the seat to a substitute first. Otherwise, in one transaction:

- erased outright: their language, reminder settings and marks, absences, seat offers, ratings,
  their DMs in the outbox (sent or pending: the DM channel id is kept nowhere else) and the
  ``/roll`` chains of their DM channel;
- kept for the others' sake, with the user id replaced by a **pseudonym**: seats, orders,
  handovers, missed deadlines (a league's misses column), games created, seasons started, the
  roster ledger, and the league documents (players, names, matches, draft, antes …). The
  pseudonym is a random negative number, one per forgetting: never a Discord id (those are
  positive), not derived from the user id (a hash of a known id could be recomputed to find
  them), and still read as an id by the code that reads league players (standings stay
  consistent: the same player, wins and losses, under ``Player 1a2b3c``);
- in every game they played, their name is replaced by a label, ``Player A`` for the seat's
  first player (``Player A (2)`` for its second, a substitute), in the seats and in the
  handovers, and the game's players digest as its first post published it is kept
  (``forgotten_players``), so its match record still verifies: see :mod:`bot.record.forgotten`.

Forgetting twice changes nothing the second time (nothing names the user any more). Channel
posts already on Discord are Discord's messages, not the bot's rows: they stay as posted.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.record import RUNNING_STATUSES, STATUSES, original_players, players_digest
from bot.storage.privacy_store import ForgottenRow

if TYPE_CHECKING:
    from bot.storage.base import GameRow, Transaction
    from bot.storage.handovers_store import HandoverRow

EXPORT_FORMAT = "pbp-privacy-export/1"


def iso(when: float | None) -> str | None:
    """A time as ISO 8601 in UTC (None stays None)."""
    return None if when is None else datetime.fromtimestamp(when, UTC).isoformat()


def seat_label(seat: str, holder: int) -> str:
    """A forgotten player's name in a game: ``Player A`` for the seat's first player,
    ``Player A (2)`` for the one who took it over next, …"""
    return f"Player {seat}" if holder == 0 else f"Player {seat} ({holder + 1})"


def league_label(pseudonym: int) -> str:
    """A forgotten player's name in a league: short, and apart from any other forgotten one."""
    return f"Player {abs(pseudonym) % 0x1000000:06x}"


def new_pseudonym(randbits: Callable[[int], int] = secrets.randbits) -> int:
    """A random negative id (fits PostgreSQL's BIGINT): never a Discord user's."""
    return -(randbits(62) + 1)


def replace_id(obj: Any, old: str, new: str) -> Any:
    """``obj`` (plain JSON) with every string equal to ``old`` (a key or a value) replaced by
    ``new``. A league stores players as the id's digits, and an id is unique across Discord, so
    an exact match is always that player."""
    if isinstance(obj, str):
        return new if obj == old else obj
    if isinstance(obj, list):
        return [replace_id(v, old, new) for v in obj]
    if isinstance(obj, dict):
        return {(new if k == old else k): replace_id(v, old, new) for k, v in obj.items()}
    return obj


# --- export ---------------------------------------------------------------------------------


async def _games_of(tx: Transaction, user_id: int) -> list[GameRow]:
    """Every game the user sits in, or sat in before handing the seat on, oldest first."""
    games = {g.id: g for g in await tx.games_for_user(user_id, STATUSES)}
    for h in await tx.handovers_naming(user_id):
        if h["game"] not in games and (game := await tx.get_game(h["game"])) is not None:
            games[game.id] = game
    return sorted(games.values(), key=lambda g: (g.created_at, g.id))


async def collect(tx: Transaction, user_id: int, now: float) -> dict[str, Any]:
    """Everything stored about ``user_id``, as ``/privacy export`` attaches it."""
    reminders = (await tx.reminder_settings([user_id])).get(user_id)
    orders: dict[str, list[dict[str, Any]]] = {}
    for o in await tx.orders_of_user(user_id):
        orders.setdefault(o.game_id, []).append(
            {
                "step": o.step,
                "seat": o.seat,
                "text": o.text,
                "receipt": o.receipt,
                "revisions": o.revisions,
                "withheld_from_others": o.withheld,
                "submitted_at": iso(o.submitted_at),
            }
        )
    games = []
    for g in await _games_of(tx, user_id):
        seat = g.seat_of(user_id)
        games.append(
            {
                "game": g.id,
                "ruleset": g.ruleset,
                "server": g.guild_id,
                "channel": g.channel_id,
                "status": g.status,
                "seat": seat,
                "name": g.names.get(seat) if seat else None,
                "created_by_you": g.created_by == user_id,
                "created_at": iso(g.created_at),
                "your_orders": orders.pop(g.id, []),
            }
        )
    key = str(user_id)
    leagues = []
    for league_id, _, data in await tx.leagues_naming(user_id):
        leagues.append(
            {
                "league": league_id,
                "server": data.get("guild_id"),
                "name": data.get("name"),
                "season": data.get("season"),
                "ruleset": data.get("ruleset"),
                "joined": key in data.get("players", []),
                "your_name": data.get("names", {}).get(key),
                "created_by_you": data.get("created_by") == key,
            }
        )
    return {
        "format": EXPORT_FORMAT,
        "exported_at": iso(now),
        "user_id": key,
        "preferences": {
            "language": await tx.user_locale(user_id),
            "reminders": None if reminders is None else _reminders(reminders),
            "time_zone": None if reminders is None else reminders.zone,
            "dm_channel": await tx.dm_channel(user_id),
        },
        "seasons_started": [
            {"server": guild, "ruleset": ruleset, "number": number, "started_at": iso(at)}
            for guild, ruleset, number, at in await tx.seasons_started_by(user_id)
        ],
        "leagues": leagues,
        "ledger_lines": [
            {**line, "at": iso(line["at"])} for line in await tx.ledger_lines_of(user_id)
        ],
        "ratings": [
            {
                "server": r.guild_id,
                "ruleset": r.ruleset,
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
                "updated_at": iso(r.updated_at),
            }
            for r in await tx.ratings_of(user_id)
        ],
        "games": games,
        "handovers": [{**h, "at": iso(h["at"])} for h in await tx.handovers_naming(user_id)],
        "absences": [
            {
                "number": a.seq,
                "server": a.guild_id,
                "starts_at": iso(a.starts_at),
                "ends_at": iso(a.ends_at),
                "ended_at": iso(a.ended_at),
                "reason": a.reason,
            }
            for a in await tx.absences_started(user_id, 0.0)
        ],
        "missed_deadlines": [
            {**m, "deadline_at": iso(m["deadline_at"]), "waited_until": iso(m["waited_until"])}
            for m in await tx.misses_of_user(user_id)
        ],
        "seat_offers": [
            {"game": game, "seat": seat, "offered_at": iso(at)}
            for game, seat, at in await tx.offers_of_user(user_id)
        ],
    }


def _reminders(row: Any) -> dict[str, Any]:
    return {
        "times": row.leads,
        "via": row.via,
        "daily_digest": bool(row.digest),
        "digest_hour": row.digest_hour,
        "quiet_hours": (None if row.quiet_start is None else [row.quiet_start, row.quiet_end]),
    }


def summary(export: Mapping[str, Any]) -> dict[str, int]:
    """How many of each kind an export holds (the reply says so)."""
    return {
        k: len(export[k])
        for k in (
            "games",
            "leagues",
            "ledger_lines",
            "ratings",
            "seasons_started",
            "handovers",
            "absences",
            "missed_deadlines",
            "seat_offers",
        )
    }


# --- forget ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refused:
    """Not forgotten: the user sits in these running games."""

    games: list[GameRow]


@dataclass(frozen=True)
class Forgotten:
    """Forgotten: the games relabelled, the leagues rewritten, rows changed per table."""

    pseudonym: int
    games: list[str] = field(default_factory=list)
    leagues: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def anything(self) -> bool:
        return bool(self.games or self.leagues or any(self.counts.values()))


def sitting(games: Sequence[GameRow], user_id: int) -> list[GameRow]:
    """The running games in which the user still holds a seat they have not left."""
    return [
        g
        for g in games
        if g.status in RUNNING_STATUSES
        and any(s.user_id == user_id and s.left_turn is None for s in g.seats)
    ]


def label_in(game: GameRow, handovers: Sequence[HandoverRow], user_id: int) -> str | None:
    """The user's label in a game: by the first seat they held, and which of its holders they
    were (None: they held none)."""
    for seat in game.seat_order:
        handed = [h for h in handovers if h.seat == seat]
        first = handed[0].from_user if handed else game.user_of(seat)
        holders = [first, *(h.to_user for h in handed)]
        if user_id in holders:
            return seat_label(seat, holders.index(user_id))
    return None


async def forget(
    tx: Transaction, user_id: int, now: float, pseudonym: int | None = None
) -> Refused | Forgotten:
    """Forget ``user_id`` (see the module's docstring), or refuse while they sit in a running
    game. ``pseudonym``: for tests (a fresh random one otherwise)."""
    games = await _games_of(tx, user_id)
    if running := sitting(games, user_id):
        return Refused(running)
    pseudonym = new_pseudonym() if pseudonym is None else pseudonym
    labelled = []
    for game in games:
        handovers = await tx.handovers(game.id)
        label = label_in(game, handovers, user_id)
        if label is None:
            continue
        kept = await tx.forgotten_players(game.id)
        # Once one name is gone, the digest can no longer be recomputed: keep the first one kept.
        published = (
            kept[0].players_digest
            if kept
            else players_digest(game.id, game.seat_order, original_players(game, handovers))
        )
        await tx.add_forgotten(ForgottenRow(game.id, label, published, now))
        await tx.rename_seats(game.id, user_id, label)
        await tx.rename_in_handovers(game.id, user_id, label)
        labelled.append(game.id)
    leagues = [
        await _forget_in_league(tx, league_id, user_id, pseudonym, now)
        for league_id, *_ in await tx.leagues_naming(user_id)
    ]
    dm = await tx.dm_channel(user_id)
    counts = await tx.erase_personal(user_id, [dm] if dm is not None else [])
    for table, n in (await tx.pseudonymise(user_id, pseudonym)).items():
        counts[table] = counts.get(table, 0) + n
    return Forgotten(pseudonym, labelled, [lg for lg in leagues if lg], counts)


async def _forget_in_league(
    tx: Transaction, league_id: str, user_id: int, pseudonym: int, now: float
) -> str | None:
    row = await tx.get_league(league_id)
    if row is None:
        return None
    data = replace_id(row.data, str(user_id), str(pseudonym))
    names = data.get("names")
    if isinstance(names, dict) and str(pseudonym) in names:
        names[str(pseudonym)] = league_label(pseudonym)
    changed = replace(row, data=data, version=row.version + 1)
    await tx.update_league(changed, expect_version=row.version, now=now)
    return row.id
