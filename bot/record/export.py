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

A game some of whose players asked to be forgotten (``/privacy forget``, :mod:`bot.privacy`)
names each of them by a label (``Player A``) in ``players`` and ``handovers``; its
``players_digest`` is then the one the first post published (stored when the name was removed),
no longer the digest of ``players``, and a ``forgotten`` block says which names are labels and
binds the edited seating to that digest (:func:`forgotten_digest`; checked by
:mod:`bot.record.forgotten`).
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
    from bot.storage.privacy_store import ForgottenRow

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


def forgotten_digest(
    game_id: str,
    published: str,
    seats: Sequence[str],
    players: Mapping[str, Any],
    handovers: Sequence[Mapping[str, Any]],
    names: Sequence[str],
) -> str:
    """What binds a forgotten game's seating to the players digest its first post published
    (``forgotten.digest``): sha256 of the canonical JSON (sorted keys, no spaces, UTF-8) of
    ``{"game_id", "players_digest": published, "players": [[seat, name], …] in seat order,
    "handovers": [[step, seat, from, to, digest], …], "forgotten": names sorted}``.

    The forgotten names cannot be hashed again (they are gone), so ``players_digest`` is taken as
    published; this digest turns any other edit of the seating (a name, a label, a handover, the
    published digest itself, the list of labels) into a failed check, as ``players_digest`` does
    for a record whose players are all named. Like it, it is public data: what anchors the record
    is still the first post, whose digest it must show."""
    body = {
        "game_id": game_id,
        "players_digest": published,
        "players": [[seat, players.get(seat)] for seat in seats],
        "handovers": [
            [h.get("step"), h.get("seat"), h.get("from"), h.get("to"), h.get("digest")]
            for h in handovers
        ],
        "forgotten": sorted(names),
    }
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
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
    forgotten: Sequence[ForgottenRow] = (),
) -> dict[str, Any]:
    """The record of everything resolved so far. Secrets of the running turn are never included,
    nor the secret stream's seed before the end, nor a withheld order's text and salt.
    ``forgotten``: the game's forgotten players (their labels and the published digest)."""
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
    if forgotten:
        # The names are gone: the digest is the one the first post showed, and the labels with
        # the rest of the seating are bound to it (bot.record.forgotten checks both).
        record["players_digest"] = forgotten[0].players_digest
        names = sorted({f.label for f in forgotten})
        record["forgotten"] = {
            "names": names,
            "digest": forgotten_digest(
                game.id,
                forgotten[0].players_digest,
                game.seat_order,
                players,
                record.get("handovers", []),
                names,
            ),
        }
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
