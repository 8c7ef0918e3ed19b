"""Discord-shaped message payloads (plain JSON) for the outbox, composed in the reader's language.

The table decides *what* to say; this module decides how it reads. Payloads are stored in the
outbox and turned into discord.py objects by ``bot/outbox.py``; the board image is rendered there
(off the event loop) from the view the payload carries.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from bot import limits
from bot.i18n import t
from bot.record import players_digest
from bot.ruleset import addressees

if TYPE_CHECKING:
    from bot.match import Match
    from bot.storage.base import GameRow, OrderRow, StreamRow

EMBED_COLOUR = 0xC8A24A
FINISHED_COLOUR = 0x5B8C5A
# Discord's limits are enforced by bot.limits when a message is posted (content split, embeds
# fitted); these leave a turn's description and fields room for the progress field and the rest.
DESCRIPTION_LIMIT = 3800
FIELD_LIMIT = 1000


def _clip(text: str, limit: int) -> str:
    return limits.clip(text, limit)


def player_line(game: GameRow) -> str:
    return " · ".join(f"**{s.seat}** <@{s.user_id}>" for s in game.seats)


def outcome_text(match: Match, lang: str) -> str:
    """The result line of a game that has ended ("" while it goes on)."""
    game = match.game
    if game.status == "abandoned":
        return t(lang, "game.outcome.abandoned")
    outcome = match.outcome()
    if not outcome.finished:
        return ""
    users = {s.seat: s.user_id for s in game.seats}
    return match.presenter.outcome_text(outcome, lang, users, game.end_reason)


def step_name(match: Match, lang: str) -> str:
    """What this step of the game is called ("Turn 3", or a ruleset's own: "Deployment")."""
    return match.presenter.step_name(match.view(None), lang, match.game.turn)


def turn_message(
    match: Match,
    *,
    lang: str,
    events: list[dict[str, Any]],
    revealed_streams: Iterable[StreamRow],
    revealed_orders: Mapping[str, OrderRow],
    commitments: Iterable[StreamRow],
    first: bool,
    later_orders: Iterable[OrderRow] = (),
) -> dict[str, Any]:
    """The one channel message of a turn: what happened, the board, and the next prompt.

    Hidden information stays out of it: private events (``Event.to``) go to their seats' DMs,
    a withheld order shows its receipt only, and ``later_orders`` are earlier withheld orders
    made public now (a reveal event, or the end of the game).
    """
    game, present = match.game, match.presenter
    view = match.view(None)
    names = game.names
    lines = present.event_lines([e for e in events if addressees(e) is None], lang, names)
    if first:
        lines.insert(0, t(lang, "game.started", players=player_line(game)))
    finished = game.status in ("finished", "abandoned")
    if finished:
        lines.append("**" + outcome_text(match, lang) + "**")
    fields: list[dict[str, Any]] = [
        {"name": name, "value": _clip(value, FIELD_LIMIT), "inline": True}
        for name, value in present.tallies(view, lang, names)
    ]
    if revealed_orders:
        order_lines = [
            t(lang, "game.withheld_order", seat=seat, receipt=row.receipt[:12])
            if row.withheld
            else _order_line(row, lang)
            for seat, row in sorted(revealed_orders.items())
        ]
        fields.append(
            {
                "name": t(lang, "game.field.orders"),
                "value": _clip("\n".join(order_lines), FIELD_LIMIT),
            }
        )
    later = [
        t(lang, "game.later_order", step=row.turn) + " " + _order_line(row, lang)
        for row in sorted(later_orders, key=lambda r: (r.turn, r.seat))
    ]
    if later:
        fields.append(
            {
                "name": t(lang, "game.field.later_orders"),
                "value": _clip("\n".join(later), FIELD_LIMIT),
            }
        )
    seeds = [f"{s.phase} `{s.seed}`" for s in revealed_streams]
    if seeds:
        fields.append({"name": t(lang, "game.field.seeds"), "value": "\n".join(seeds)})
    committed = [f"{s.phase} `{s.commitment}`" for s in commitments]
    if first:
        # Binds the players to their seats from the start: an export's players map is checked
        # against it (bot.record.players_digest), so nobody can swap who played which seat later.
        players = {s.seat: s.name for s in game.seats}
        committed.insert(0, f"players `{players_digest(game.id, game.seat_order, players)}`")
    if committed:
        fields.append(
            {
                "name": t(lang, "game.field.commitments", game=game.id, turn=game.turn),
                "value": "\n".join(committed),
            }
        )
    if not finished and game.deadline_at is not None:
        deadline = int(game.deadline_at)
        fields.append(
            {
                "name": t(lang, "game.field.deadline"),
                "value": f"<t:{deadline}:f> (<t:{deadline}:R>)",
            }
        )
    title_key = "game.title.finished" if finished else "game.title.turn"
    embed = {
        "title": t(
            lang,
            title_key,
            ruleset=present.title(lang),
            game=game.id,
            step=step_name(match, lang),
        ),
        "description": _clip("\n".join(lines), DESCRIPTION_LIMIT) or None,
        "color": FINISHED_COLOUR if finished else EMBED_COLOUR,
        "fields": fields,
        "image": {"url": "attachment://board.png"},
        "footer": {"text": t(lang, "game.footer", game=game.id)},
    }
    awaited = match.awaiting() if game.status == "active" else []
    payload: dict[str, Any] = {
        "lang": lang,
        "content": player_line(game) if first else None,
        "mentions": [s.user_id for s in game.seats] if first else [],
        "embed": embed,
        # The render worker draws the view computed here: it needs no state, only the presenter.
        "board": {"version": game.version, "seat": None, "names": names, "view": view},
        "progress": {"in": [], "awaited": awaited, "receipts": {}} if awaited else None,
    }
    # A step every player answers with the same public buttons (the dungeon's vote on a monster
    # tie) gets them under the channel post too; each click orders for the clicker's own seat.
    if awaited and present.channel_choices(view):
        payload["view"] = {
            "kind": "orders",
            "game": game.id,
            "turn": game.turn,
            "seat": None,
            "groups": _groups(match, awaited[0], lang),
            "builder": None,
        }
    return payload


def _order_line(row: OrderRow, lang: str) -> str:
    return t(
        lang,
        "game.revealed_order",
        seat=row.seat,
        order=row.text,
        salt=row.salt,
        defaulted=t(lang, "game.defaulted") if row.defaulted else "",
    )


def _groups(match: Match, seat: str, lang: str) -> list[dict[str, Any]]:
    """A seat's choice groups with their labels in ``lang`` (an order view's buttons)."""
    return [
        {
            "name": g.name,
            "label": t(lang, g.label_key),
            "choices": [
                {"token": c.token, "label": t(lang, c.label_key), "enabled": c.enabled}
                for c in g.choices
            ],
        }
        for g in match.engine.choices(match.state, seat)
    ]


def progress_field(progress: Mapping[str, Any], lang: str) -> dict[str, Any]:
    awaited = list(progress.get("awaited", []))
    done = list(progress.get("in", []))
    receipts = progress.get("receipts", {})
    marks = [f"✅ {seat} `{receipts[seat]}`" if seat in done else f"⌛ {seat}" for seat in awaited]
    return {
        "name": t(lang, "game.field.progress", done=len(done), total=len(awaited)),
        "value": " · ".join(marks) or "—",
        "inline": False,
    }


def compose(
    payload: Mapping[str, Any], progress: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The final content and embed of a channel message, with the latest order progress.

    The embed is fitted to Discord's limits (:func:`bot.limits.embed`); the content is left
    whole: the outbox posts a long one as several messages (:func:`bot.limits.message_parts`).
    """
    embed = dict(payload["embed"]) if payload.get("embed") else None
    progress = progress if progress is not None else payload.get("progress")
    if embed is not None and progress:
        embed["fields"] = [*embed.get("fields", []), progress_field(progress, payload["lang"])]
    return {"content": payload.get("content"), "embed": limits.embed(embed)}


def seat_dm(
    match: Match,
    seat: str,
    *,
    lang: str,
    awaited: bool,
    private_events: list[dict[str, Any]] | None = None,
) -> dict[str, Any] | None:
    """The DM a seat gets each turn: the events addressed to it alone, its private information
    and, if it owes one, the order view (with a board of its own view where the ruleset asks)."""
    game, present = match.game, match.presenter
    guild = f"<#{game.channel_id}>" if game.channel_id else ""
    told = present.event_lines(private_events or [], lang, game.names)
    if game.status in ("finished", "abandoned"):
        over = t(
            lang, "dm.game_over", game=game.id, channel=guild, result=outcome_text(match, lang)
        )
        return {"lang": lang, "content": "\n".join([*told, over])}
    if not awaited:
        if not told:
            return None
        header = t(lang, "dm.private_events", game=game.id, channel=guild)
        return {"lang": lang, "content": "\n".join([header, *told])}
    view = match.view(seat)
    lines = [
        *told,
        t(
            lang,
            "dm.turn_header",
            ruleset=present.title(lang),
            game=game.id,
            step=step_name(match, lang),
            seat=seat,
            channel=guild,
        ),
        *present.private_lines(view, seat, lang),
    ]
    if game.deadline_at is not None:
        lines.append(t(lang, "dm.deadline", deadline=f"<t:{int(game.deadline_at)}:R>"))
    lines.append(present.order_help(lang))
    groups = _groups(match, seat, lang)
    payload: dict[str, Any] = {
        "lang": lang,
        # A long DM is posted as several messages (bot.limits), its buttons under the last.
        "content": "\n".join(lines),
        "view": {
            "kind": "orders",
            "game": game.id,
            "turn": game.turn,
            "seat": seat,
            "groups": groups,
            # A ruleset whose orders are too rich for one row of buttons (a whole action sheet)
            # offers a step-by-step builder behind one button; its cog registers the builder.
            "builder": t(lang, "order.builder") if match.spec.sheet_builder else None,
        },
    }
    if present.private_board(view, seat):  # drawn from this seat's own view, for its eyes only
        payload["board"] = {
            "version": game.version,
            "seat": seat,
            "names": game.names,
            "view": view,
        }
    return payload


def reminder(match: Match, missing: list[str], *, lang: str) -> dict[str, Any]:
    game = match.game
    users = [game.user_of(s) for s in missing]
    return {
        "lang": lang,
        "content": t(
            lang,
            "game.reminder",
            users=" ".join(f"<@{u}>" for u in users),
            game=game.id,
            step=step_name(match, lang),
            deadline=f"<t:{int(game.deadline_at or 0)}:R>",
        ),
        "mentions": users,
    }


def notice(game: GameRow, key: str, *, lang: str, **params: Any) -> dict[str, Any]:
    if "deadline" in params and params["deadline"] is not None:
        params["deadline"] = f"<t:{int(params['deadline'])}:R>"
    return {"lang": lang, "content": t(lang, key, game=game.id, **params)}


def dm_closed(game: GameRow, user_id: int, *, lang: str) -> dict[str, Any]:
    return {
        "lang": lang,
        "content": t(lang, "game.dm_closed", user=f"<@{user_id}>", game=game.id),
        "mentions": [user_id],
    }
