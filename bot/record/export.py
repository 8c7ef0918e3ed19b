"""What ``/game export`` and the demo write: the match record (``shared/spec/match-record.md``)
of a game, built from its stored rows.

Beyond the spec's example, an export carries: ``turns[i].step`` (the ruleset's label of the step),
``turns[i].left`` (seats that resigned during that step while the game went on; the replay
resigns them there), a top-level ``secret`` block (``commitment``; once the game is over also
``seed``, ``drawn`` and ``blocks``), a withheld order as ``{"receipt": hex}`` in ``inputs``
(its salt left out of ``salts``), ``players`` (seat → display name) with ``players_digest``
(:func:`players_digest`: what binds them to the seats; the players the game started with, as its
first post bound them), ``handovers`` (seats handed to substitutes since, chained to that digest:
:mod:`bot.record.handovers`), and ``result`` (``status``, ``winner``,
``end_reason``, ``turns_resolved``): ``verify`` compares the result with the game the record
replays to, so a forged winner or a record cut short (``truncated``) fails.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot import dice as dicelib
from bot.ruleset import DRAW, Outcome

if TYPE_CHECKING:
    from bot.storage.base import GameRow, OrderRow, StreamRow
    from bot.storage.handovers_store import HandoverRow

FORMAT = "pbp-match/1"
WITHHELD_KEY = "receipt"  # a withheld input is exported as {"receipt": hex}, nothing more

# ``result.status`` of a game that goes on, and every status a record may claim.
RUNNING_STATUSES = ("lobby", "setup", "active", "paused")
STATUSES = (*RUNNING_STATUSES, "finished", "abandoned")


def players_digest(game_id: str, seats: Sequence[str], players: Mapping[str, Any]) -> str:
    """What binds the players to their seats in a record (``players_digest``): sha256 of the
    canonical JSON (sorted keys, no spaces, UTF-8) of ``{"game_id": id, "players": [[seat, name],
    …]}`` in seat order. It is public data, so it proves nothing on its own: it is the value to
    compare with the game's first post (which names the players by seat beside the first
    commitments), and it turns a players map edited without it into a failed check."""
    seating = {"game_id": game_id, "players": [[seat, players.get(seat)] for seat in seats]}
    canonical = json.dumps(seating, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def original_players(game: GameRow, handovers: Iterable[HandoverRow] = ()) -> dict[str, str]:
    """Seat → the name of the player the game started with (what its first post bound): the
    seat's player now, unless a handover took the seat from someone (its first one says who)."""
    players = {s.seat: s.name for s in game.seats}
    handed: set[str] = set()
    for h in handovers:
        if h.seat not in handed:
            handed.add(h.seat)
            players[h.seat] = h.from_name
    return players


def build_record(
    game: GameRow,
    orders: Iterable[OrderRow],
    streams: Iterable[StreamRow],
    handovers: Sequence[HandoverRow] = (),
) -> dict[str, Any]:
    """The record of everything resolved so far. Secrets of the running turn are never included,
    nor the secret stream's seed before the end, nor a withheld order's text and salt."""
    by_turn: dict[int, dict[str, StreamRow]] = {}
    secret: StreamRow | None = None
    for s in streams:
        if s.phase == dicelib.SECRET:
            secret = s
        else:
            by_turn.setdefault(s.turn, {})[s.phase] = s
    orders_by_turn: dict[int, dict[str, OrderRow]] = {}
    for o in orders:
        orders_by_turn.setdefault(o.turn, {})[o.seat] = o
    # Seats that resigned, by the step they left in: within an exported step (the game went on
    # for the others) its entry says so; in the step the game ended in, ``end`` does.
    left: dict[int, list[str]] = {}
    for seat in sorted(game.seats, key=lambda s: s.position):
        if seat.left_turn is not None:
            left.setdefault(seat.left_turn, []).append(seat.seat)

    def dice_block(turn_streams: Mapping[str, StreamRow]) -> dict[str, Any]:
        shown = {p: s for p, s in turn_streams.items() if s.revealed}
        return {
            "seeds": {p: s.seed for p, s in shown.items()},
            "commitments": {p: s.commitment for p, s in shown.items()},
            "drawn": {p: s.drawn for p, s in shown.items()},
        }

    def labelled(turn_streams: Mapping[str, StreamRow]) -> dict[str, Any]:
        label = next((s.step for s in turn_streams.values() if s.step), None)
        return {"step": label} if label else {}

    setup_streams = by_turn.get(0, {})
    setup = {**labelled(setup_streams), "inputs": {}, **dice_block(setup_streams)}
    turns = []
    for turn in sorted(k for k in by_turn if k > 0):
        phases = by_turn[turn]
        if not all(s.revealed for s in phases.values()):
            continue  # the running turn: its seeds are still secret
        turn_orders = sorted(orders_by_turn.get(turn, {}).items())
        entry: dict[str, Any] = {
            **labelled(phases),
            **({"left": left[turn]} if turn in left else {}),
            # A withheld order (a defaulted one too) shows its receipt only, as in the channel.
            "inputs": {
                s: {WITHHELD_KEY: o.receipt} if o.withheld else o.text
                for s, o in turn_orders
                if o.withheld or not o.defaulted
            },
            **dice_block(phases),
            "receipts": {s: o.receipt for s, o in turn_orders},
            "salts": {s: o.salt for s, o in turn_orders if not o.withheld},
            "defaulted": sorted(s for s, o in turn_orders if o.defaulted),
        }
        if (resolve := phases.get(dicelib.RESOLVE)) and resolve.orders_digest:
            entry["orders_digest"] = resolve.orders_digest
        turns.append(entry)
    players = original_players(game, handovers)
    record: dict[str, Any] = {
        "format": FORMAT,
        "game_id": game.id,
        "ruleset": game.ruleset,
        "options": game.options,
        "seats": game.seat_order,
        "players": players,
        # binds each player to a seat: nothing else in the record does (see check_players)
        "players_digest": players_digest(game.id, game.seat_order, players),
        "setup": setup,
    }
    if handovers:
        record["handovers"] = [
            {"step": h.step, "seat": h.seat, "from": h.from_name, "to": h.to_name}
            | {"digest": h.digest}
            for h in handovers
        ]
    if secret is not None:
        # Its commitment is public from the first post; its seed and rolls only at the end.
        record["secret"] = {"commitment": secret.commitment}
        if secret.revealed:
            record["secret"].update(
                seed=secret.seed, drawn=list(secret.drawn), blocks=secret.blocks
            )
    record["turns"] = turns
    outcome = Outcome.from_json(game.result) if game.result else None
    record["result"] = {
        "status": game.status,
        # a seat, "draw", a co-op result, or several seats (the typed outcome's legacy form)
        "winner": outcome.winner if outcome is not None else game.outcome,
        "end_reason": game.end_reason,
        # the steps exported: a record cut short says fewer than it claims (``truncated``)
        "turns_resolved": len(turns),
    }
    if outcome is not None and outcome.grades:
        record["result"]["grades"] = dict(outcome.grades)
    exported = {t for t in by_turn if t > 0 and all(s.revealed for s in by_turn[t].values())}
    end: dict[str, Any] = {}
    last = [s for t, seats in sorted(left.items()) if t not in exported for s in seats]
    if last:
        end["resigned"] = last[0] if len(last) == 1 else last
    elif game.end_reason == "resign" and game.outcome and game.outcome != DRAW:
        # A game stored before departures were: the loser is whoever did not win.
        losers = [s for s in game.seat_order if s != game.outcome]
        end["resigned"] = losers[0] if len(losers) == 1 else losers
    if game.end_reason == "adjudicated":
        end["adjudicated"] = True
    if end:
        record["end"] = end
    return record
