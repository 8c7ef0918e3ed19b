"""Discord-shaped message payloads (plain JSON) for the outbox, composed in the reader's language.

The table decides *what* to say; this module decides how it reads. Payloads are stored in the
outbox and turned into discord.py objects by ``bot/outbox.py``; the board image is rendered there
(off the event loop) from the view the payload carries.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from bot import limits
from bot.alttext import BoardScene
from bot.dice import SECRET
from bot.i18n import t
from bot.record import players_digest
from bot.ruleset import addressees

if TYPE_CHECKING:
    from bot.loaded import LoadedGame
    from bot.proofs import Proofs, StreamProof
    from bot.storage.base import GameRow, OrderRow, StreamRow

EMBED_COLOUR = 0xC8A24A
FINISHED_COLOUR = 0x5B8C5A
# Discord's limits are enforced by bot.limits when a message is posted (content split, embeds
# fitted); these leave a turn's description and fields room for the progress field and the rest.
DESCRIPTION_LIMIT = 3800
FIELD_LIMIT = 1000
# A turn post shows this many hex digits of each seed, salt and commitment (enough to match one
# by eye); the full values are behind the post's Proofs button, in /game export and /game orders.
SHORT_HEX = 12


def short(value: str) -> str:
    """A seed, salt, commitment or digest as a turn post shows it: its first digits."""
    return value if len(value) <= SHORT_HEX else value[:SHORT_HEX] + limits.ELLIPSIS


def player_line(game: GameRow) -> str:
    return " · ".join(f"**{s.seat}** <@{s.user_id}>" for s in game.seats)


def outcome_text(loaded: LoadedGame, lang: str) -> str:
    """The result line of a game that has ended ("" while it goes on)."""
    game = loaded.game
    if game.status == "abandoned":
        return t(lang, "game.outcome.abandoned")
    outcome = loaded.outcome()
    if not outcome.finished:
        return ""
    users = {s.seat: s.user_id for s in game.seats}
    return loaded.presenter.outcome_text(outcome, lang, users, game.end_reason)


def step_name(loaded: LoadedGame, lang: str) -> str:
    """What this step of the game is called ("Turn 3", or a ruleset's own: "Deployment")."""
    return loaded.presenter.step_name(loaded.view(None), lang, loaded.game.step)


def turn_message(
    loaded: LoadedGame,
    *,
    lang: str,
    events: list[dict[str, Any]],
    revealed_streams: Iterable[StreamRow],
    revealed_orders: Mapping[str, OrderRow],
    commitments: Iterable[StreamRow],
    first: bool,
    later_orders: Iterable[OrderRow] = (),
    resolved_turn: int | None = None,
    resolved_view: Mapping[str, Any] | None = None,
    group: str | None = None,
    earlier: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The one channel message of a turn: what happened, the board, and the next prompt.

    Hidden information stays out of it: private events (``Event.to``) go to their seats' DMs,
    a withheld order shows its receipt only, and ``later_orders`` are earlier withheld orders
    made public now (a reveal event, or the end of the game).

    ``resolved_turn`` and ``resolved_view`` (the public view before the resolution) name the
    step whose results the post shows: its first line is what happened (the presenter's
    headline, or the result), the title names the step now open, and the tallies show what
    changed since ``resolved_view``. The dice proofs are behind the post's Proofs button; the
    footer keeps the next step's commitments, short (:func:`short`).

    ``group`` is the open step's post group (:meth:`bot.loaded.LoadedGame.post_group`), and
    ``earlier`` the ``group`` record of the post this one replaces when it continues that post
    (the same group): its log of lines grows by this step's (no header: the title names the step
    now open), and its Proofs button covers every step the log shows.
    """
    game, present = loaded.game, loaded.presenter
    view = loaded.view(None)
    names = game.names
    public = [e for e in events if addressees(e) is None]
    finished = game.status in ("finished", "abandoned")
    lines = present.event_lines(public, lang, names)
    # The first line says what happened: the step's main event in words (the result, when the
    # game ended), the other events after it; the title names the step now open.
    headline = outcome_text(loaded, lang) if finished else present.headline(public, lang, names)
    if headline:  # bold on its first line (an event may say more below: a sheet opened)
        head, *tail = headline.split("\n")
        # the event it names is not told twice (compared without the bold it may carry)
        plain = headline.replace("**", "")
        others = [line for line in lines if line.removeprefix("• ").replace("**", "") != plain]
        lines = [f"**{head}**", *tail, *others]
    if first:
        lines.insert(0, t(lang, "game.started", players=player_line(game)))
    if earlier is not None:  # a post the group's earlier steps made: its log goes on
        lines = limits.log_tail([*earlier["log"], *lines], DESCRIPTION_LIMIT)
    # Tallies cut to what changed: since the step before (since the group's first step, for a
    # post a run of steps edits); whole on the first post and the last.
    tallies = present.tallies(view, lang, names)
    before = earlier.get("tallies") if earlier is not None else None
    if before is None and resolved_view is not None:
        before = [list(pair) for pair in present.tallies(resolved_view, lang, names)]
    shown_tallies = tallies
    if not first and not finished and before is not None:
        shown_tallies = [pair for pair in tallies if list(pair) not in before]
    fields: list[dict[str, Any]] = [
        {"name": name, "value": limits.clip(value, FIELD_LIMIT), "inline": True}
        for name, value in shown_tallies
    ]
    # The orders themselves are told by the event lines; their texts and salts (the proofs of
    # the receipts) are behind the Proofs button and in /game export. The post keeps what the
    # events cannot say: an order still withheld, and a seat that sent none (its default).
    order_lines = [
        t(lang, "game.withheld_order", seat=seat, receipt=short(row.receipt))
        if row.withheld
        else t(lang, "game.defaulted_order", seat=seat, order=present.order_text(row.text, lang))
        for seat, row in sorted(revealed_orders.items())
        if row.withheld or row.defaulted
    ]
    if order_lines:
        fields.append(
            {
                "name": t(lang, "game.field.orders"),
                "value": limits.clip("\n".join(order_lines), FIELD_LIMIT),
            }
        )
    later = [
        t(lang, "game.later_order", step=row.turn)
        + " "
        + _order_line(row, lang, present.order_text(row.text, lang), whole=True)
        for row in sorted(later_orders, key=lambda r: (r.turn, r.seat))
    ]
    if later:
        fields.append(
            {
                "name": t(lang, "game.field.later_orders"),
                "value": limits.clip("\n".join(later), FIELD_LIMIT),
            }
        )
    # The dice proofs are behind the Proofs button; the post keeps, small in its footer, the
    # commitments to the next step's dice (published before any of them is rolled) and, on the
    # first post, the players digest that binds players to seats (bot.record.players_digest).
    committed = [f"{s.phase} {short(s.commitment)}" for s in commitments]
    if first:
        players = {s.seat: s.name for s in game.seats}
        digest = players_digest(game.id, game.seat_order, players)
        committed.insert(0, f"players {short(digest)}")
    footer = t(lang, "game.footer", game=game.id)
    if committed:
        footer += "\n🎲 " + t(lang, "game.footer.committed", values=" · ".join(committed))
    if finished:
        # The secret seed is revealed once, at the end, in the result post (shared/spec): whole,
        # as it proves every secret draw of the game.
        seeds = [f"{s.phase} `{s.seed}`" for s in revealed_streams if s.phase == SECRET]
        if seeds:
            fields.append(
                {
                    "name": t(lang, "game.field.dice"),
                    "value": t(lang, "game.dice.revealed", values=" · ".join(seeds)),
                }
            )
    if not finished and game.deadline_at is not None:
        deadline = int(game.deadline_at)
        fields.append(
            {
                "name": t(lang, "game.field.deadline"),
                "value": when(deadline),
            }
        )
    title_key = "game.title.finished" if finished else "game.title.turn"
    embed = {
        "title": t(
            lang,
            title_key,
            ruleset=present.title(lang),
            game=game.id,
            step=step_name(loaded, lang),
        ),
        "description": limits.clip("\n".join(lines), DESCRIPTION_LIMIT) or None,
        "color": FINISHED_COLOUR if finished else EMBED_COLOUR,
        "fields": fields,
        "image": {"url": "attachment://board.png"},
        "footer": {"text": footer},
    }
    awaited = loaded.awaiting() if game.status == "active" else []
    outcome = loaded.outcome() if finished else None
    scene = BoardScene(
        step=step_name(loaded, lang),
        turn=game.step,
        awaited=tuple(awaited),
        before=resolved_view,
        finished=finished,
        winners=tuple(outcome.winners) if outcome is not None else (),
    )
    payload: dict[str, Any] = {
        "lang": lang,
        "content": player_line(game) if first else None,
        "mentions": [s.user_id for s in game.seats] if first else [],
        "embed": embed,
        # The render worker draws the view computed here: it needs no state, only the presenter.
        # The description (alt text) is worded from the same view, in the channel's language.
        "board": {
            "version": game.version,
            "seat": None,
            "names": names,
            "view": view,
            "description": present.board_description(view, lang, names, scene),
        },
        "progress": {"in": [], "awaited": awaited, "receipts": {}} if awaited else None,
    }
    # The full values of what the post shows short: the step it resolved (the setup for the
    # first post, the step before the open one for a post that resolved nothing).
    proof_turn = resolved_turn if resolved_turn is not None else max(game.step - 1, 0)
    proofs: dict[str, Any] = {
        "game": game.id,
        "turn": proof_turn,
        "label": t(lang, "game.proofs.button"),
    }
    if group is not None:
        since = int(earlier["since"]) if earlier is not None else proof_turn
        # The lines the description shows (the next step of the group adds its own), and the
        # tallies its first step began from (what the group's later versions show changed).
        payload["group"] = {"key": group, "since": since, "log": lines, "tallies": before}
        if since < proof_turn:
            proofs["since"] = since
    payload["view"] = {"kind": "proofs", "proofs": proofs}
    # A step every player answers with the same public buttons (the dungeon's vote on a monster
    # tie) gets them under the channel post too; each click orders for the clicker's own seat.
    if awaited and present.channel_choices(view):
        payload["view"] = {
            "kind": "orders",
            "game": game.id,
            "turn": game.step,
            "seat": None,
            "groups": _groups(loaded, awaited[0], lang),
            "builder": None,
            "proofs": proofs,
        }
    return payload


def quiet_step(
    loaded: LoadedGame,
    *,
    lang: str,
    events: Iterable[Mapping[str, Any]],
    revealed_orders: Mapping[str, OrderRow],
    later_orders: Iterable[OrderRow],
    resolved_view: Mapping[str, Any] | None,
) -> bool:
    """Whether a resolved step's post would say nothing public: no public event the log words,
    no order to show (withheld, sent by default, revealed late), no tally changed. Such a step
    gets no post of its own: the latest post is edited to the step now open (its title, board
    and deadline), as a run of grouped steps edits theirs."""
    game, present = loaded.game, loaded.presenter
    if game.status != "active" or resolved_view is None or any(True for _ in later_orders):
        return False
    if any(row.withheld or row.defaulted for row in revealed_orders.values()):
        return False
    public = [e for e in events if addressees(e) is None]
    if present.event_lines(public, lang, game.names):
        return False
    now = present.tallies(loaded.view(None), lang, game.names)
    return now == present.tallies(resolved_view, lang, game.names)


def continued_log(log: Iterable[str], lang: str) -> list[str]:
    """A group's log as a new post takes it over from one that is gone (refused for good, or
    deleted): its first line says so (once, however often the log moves), so that a reader
    who saw the earlier post knows why the steps start again here."""
    mark = t(lang, "game.group.continued")
    lines = list(log)
    if not lines:
        return [mark]
    if not lines[0].startswith(mark):
        # one line, not a line before the log: a long log keeps its first line (limits.log_tail)
        lines[0] = f"{mark} {lines[0]}"
    return lines


def continued_post(
    payload: Mapping[str, Any], progress: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A grouped post's latest version (``payload``, with the order ``progress`` its latest
    edit showed) posted anew: its log says it continues (:func:`continued_log`), and it pings
    nobody (the game's first post did)."""
    lang = payload["lang"]
    group = payload["group"]
    log = limits.log_tail(continued_log(group["log"], lang), DESCRIPTION_LIMIT)
    embed = dict(payload["embed"])
    embed["description"] = limits.clip("\n".join(log), DESCRIPTION_LIMIT)
    out = {**payload, "embed": embed, "group": {**group, "log": log}, "mentions": []}
    if progress is not None:
        out["progress"] = dict(progress)
    return out


def _stream_lines(streams: Iterable[StreamProof], lang: str) -> list[str]:
    lines = []
    for s in streams:
        if s.seed is not None:
            lines.append(t(lang, "proofs.seed", phase=s.phase, seed=s.seed))
        lines.append(t(lang, "proofs.commitment", phase=s.phase, commitment=s.commitment))
        if s.orders_digest:
            lines.append(t(lang, "proofs.orders_digest", digest=s.orders_digest))
    return lines


def proofs_text(proofs: Proofs, lang: str) -> str:
    """The Proofs button's private answer: the full seeds, commitments, salts, receipts and
    digests a turn post shows short. ``proofs`` holds only what is public (the table saw to it)."""
    game, turn = proofs.game_id, proofs.turn
    if turn == 0:
        title = t(lang, "proofs.title.setup", game=game)
    elif proofs.step and proofs.step != f"turn {turn}":  # the label says more than the index
        title = t(lang, "proofs.title.labelled", game=game, turn=turn, label=proofs.step)
    else:
        title = t(lang, "proofs.title", game=game, turn=turn)
    lines = [title]
    if proofs.players_digest:
        lines.append(t(lang, "proofs.players", digest=proofs.players_digest))
    lines += _stream_lines(proofs.streams, lang)
    for order in proofs.orders:
        if order.text is None or order.salt is None:
            lines.append(t(lang, "proofs.order_sealed", seat=order.seat, receipt=order.receipt))
        else:
            defaulted = " " + t(lang, "game.defaulted") if order.defaulted else ""
            lines.append(
                t(
                    lang,
                    "proofs.order",
                    seat=order.seat,
                    order=order.text,
                    defaulted=defaulted,
                    salt=order.salt,
                    receipt=order.receipt,
                )
            )
    if proofs.next_streams:
        lines.append(t(lang, "proofs.next", game=game, turn=turn + 1))
        lines += _stream_lines(proofs.next_streams, lang)
    if proofs.secret is not None:
        lines.append(t(lang, "proofs.secret", game=game))
        lines += _stream_lines([proofs.secret], lang)
    lines.append(t(lang, "proofs.how"))
    return "\n".join(lines)


def _order_line(row: OrderRow, lang: str, shown: str, *, whole: bool = False) -> str:
    """A revealed order with its salt: short in the turn's own post, ``whole`` for an order
    revealed late (the one place its receipt, posted steps ago, is proved). ``shown``: the order
    in the reader's words (the presenter's ``order_text``; as stored for an English reader of
    every ruleset but tactics, whose ids read ``A-4``); the stored text, which the salt and
    receipt are of, is in ``/game export``."""
    return t(
        lang,
        "game.revealed_order",
        seat=row.seat,
        order=shown,
        salt=row.salt if whole else short(row.salt),
        defaulted=" " + t(lang, "game.defaulted") if row.defaulted else "",
    )


def _groups(loaded: LoadedGame, seat: str, lang: str) -> list[dict[str, Any]]:
    """A seat's choice groups with their labels in ``lang`` (an order view's buttons, or its
    select menu when the group asks for one)."""
    return [
        {
            "name": g.name,
            "label": t(lang, g.label_key),
            "select": g.select,
            "choices": [
                {"token": c.token, "label": c.label(lang), "enabled": c.enabled} for c in g.choices
            ],
        }
        for g in loaded.engine.choices(loaded.state, seat)
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
    content = payload.get("content")
    ack = payload.get("ack")
    if ack:  # an order's acknowledgement carried by this DM: it reads first, then the prompt
        content = ack["text"] + ("\n\n" + content if content else "")
    return {"content": content, "embed": limits.embed(embed)}


def carried_ack(loaded: LoadedGame, ack: Mapping[str, Any], lang: str) -> str:
    """The acknowledgement of the order that completed a step (``ack``: the table's ``replaced``,
    ``order``, ``receipt`` and ``turn``), as the player would have had it on its own: sealed or
    replaced, the order, its receipt, and that every order is in."""
    key = "order.replaced" if ack["replaced"] else "order.sealed"
    text = t(
        lang,
        key,
        game=loaded.game.id,
        turn=ack["turn"],
        order=loaded.presenter.order_text(ack["order"], lang),
        receipt=ack["receipt"],
    )
    return text + "\n" + t(lang, "order.resolved")


def with_ack(
    dm: dict[str, Any] | None, text: str, ack: Mapping[str, Any], lang: str
) -> dict[str, Any]:
    """A seat's DM carrying an order's acknowledgement (``text``) before its own content, as a
    reply to the player's message (``reply_to``) when there was one; a DM of its own when the
    seat had none due."""
    carried: dict[str, Any] = dict(dm) if dm is not None else {"lang": lang, "content": ""}
    carried["ack"] = {"text": text, "reply_to": ack.get("reply_to")}
    return carried


def seat_dm(
    loaded: LoadedGame,
    seat: str,
    *,
    lang: str,
    awaited: bool,
    private_events: list[dict[str, Any]] | None = None,
    prompted: Mapping[str, Any] | None = None,
) -> dict[str, Any] | None:
    """The DM a seat gets each turn: the events addressed to it alone and, if it owes an order,
    the prompt, which asks one thing. It opens with what changed for the seat since its last
    prompt (``prompted``: the stored ``{"memo": …}`` of that prompt, :func:`seat_memo`; None
    before its first), then the step and its deadline in one line, then the question; its
    answers are the buttons. The seat's sheet is behind the 📋 button, the ruleset's help behind
    ❓ (and in the seat's first prompt of the game only), so that no prompt repeats them."""
    game, present = loaded.game, loaded.presenter
    guild = f"<#{game.channel_id}>" if game.channel_id else ""
    told = present.event_lines(private_events or [], lang, game.names)
    if game.status in ("finished", "abandoned"):
        over = t(
            lang, "dm.game_over", game=game.id, channel=guild, result=outcome_text(loaded, lang)
        )
        return {"lang": lang, "content": "\n".join([*told, over])}
    if not awaited:
        if not told:
            return None
        header = t(lang, "dm.private_events", game=game.id, channel=guild)
        return {"lang": lang, "content": "\n".join([header, *told])}
    view = loaded.view(seat)
    memo = prompted.get("memo") if prompted is not None else None
    header = t(
        lang,
        "dm.turn_header",
        ruleset=present.title(lang),
        game=game.id,
        step=step_name(loaded, lang),
        seat=seat,
        channel=guild,
    )
    if game.deadline_at is not None:
        header += " " + t(lang, "dm.deadline", deadline=when(game.deadline_at))
    lines = [
        *told,
        *present.seat_news(memo, view, seat, lang),
        header,
        *present.question(view, seat, lang),
    ]
    if prompted is None:  # the seat's first prompt of the game: how to answer, once
        lines += ["", present.order_help(lang)]
    groups = _groups(loaded, seat, lang)
    payload: dict[str, Any] = {
        "lang": lang,
        # A long DM is posted as several messages (bot.limits), its buttons under the last.
        "content": "\n".join(lines),
        "view": {
            "kind": "orders",
            "game": game.id,
            "turn": game.step,
            "seat": seat,
            "groups": groups,
            # A ruleset whose orders are too rich for one row of buttons (a whole action sheet)
            # offers a step-by-step builder behind one button; its cog registers the builder.
            "builder": t(lang, "order.builder") if loaded.spec.sheet_builder else None,
            # the seat's sheet and the ruleset's help, each answered privately on a click
            "mine": t(lang, "dm.mine.button"),
            "help": t(lang, "dm.help.button"),
        },
    }
    if present.private_board(view, seat):  # drawn from this seat's own view, for its eyes only
        scene = BoardScene(step_name(loaded, lang), game.step, awaited=(seat,), seat=seat)
        payload["board"] = {
            "version": game.version,
            "seat": seat,
            "names": game.names,
            "view": view,
            "description": present.board_description(view, lang, game.names, scene),
        }
    return payload


def seat_memo(loaded: LoadedGame, seat: str) -> dict[str, Any]:
    """What is stored with a seat when it is prompted, for its next prompt's news: the
    presenter's memo of the seat's own view, wrapped (a ruleset's memo may be None)."""
    return {"memo": loaded.presenter.seat_memo(loaded.view(seat), seat)}


def mine_text(loaded: LoadedGame, seat: str, lang: str) -> str:
    """The 📋 button's private answer: the seat's own sheet (hand, keys, stats) as it is now."""
    lines = loaded.presenter.private_lines(loaded.view(seat), seat, lang)
    title = t(lang, "dm.mine.title", game=loaded.game.id, seat=seat)
    return "\n".join([title, *lines]) if lines else t(lang, "dm.mine.nothing", game=loaded.game.id)


def when(at: float) -> str:
    """A moment in Discord's timestamp markup, date and time and how far off (``<t:…:f>
    (<t:…:R>)``): every reader sees it in their own time zone and language."""
    return f"<t:{int(at)}:f> (<t:{int(at)}:R>)"


def reminder(loaded: LoadedGame, missing: list[str], *, lang: str) -> dict[str, Any]:
    """A ping in the game's channel to the ``missing`` seats' players (those whose reminders
    come that way and are due now)."""
    game = loaded.game
    users = list(dict.fromkeys(game.user_of(s) for s in missing))
    return {
        "lang": lang,
        "content": t(
            lang,
            "game.reminder",
            users=" ".join(f"<@{u}>" for u in users),
            game=game.id,
            step=step_name(loaded, lang),
            deadline=when(game.deadline_at or 0),
        ),
        "mentions": users,
    }


def reminder_dm(loaded: LoadedGame, *, lang: str, final: bool) -> dict[str, Any]:
    """A reminder by DM (the player's choice, ``/reminders``); ``final``: the step's last."""
    game = loaded.game
    return {
        "lang": lang,
        "content": t(
            lang,
            "reminders.dm_final" if final else "reminders.dm",
            ruleset=loaded.presenter.title(lang),
            game=game.id,
            step=step_name(loaded, lang),
            channel=f"<#{game.channel_id}>" if game.channel_id else "",
            deadline=when(game.deadline_at or 0),
        ),
    }


def digest(games: list[LoadedGame], *, lang: str) -> dict[str, Any]:
    """The daily digest DM: the games awaiting the player's order, the nearest deadline first."""
    lines = [t(lang, "reminders.digest", count=len(games))]
    for loaded in sorted(games, key=lambda g: (g.game.deadline_at or 0, g.game.id)):
        game = loaded.game
        lines.append(
            t(
                lang,
                "reminders.digest_line",
                ruleset=loaded.presenter.title(lang),
                game=game.id,
                step=step_name(loaded, lang),
                channel=f"<#{game.channel_id}>" if game.channel_id else "",
                deadline=when(game.deadline_at or 0),
            )
        )
    return {"lang": lang, "content": "\n".join(lines)}


def notice(game: GameRow, key: str, *, lang: str, **params: Any) -> dict[str, Any]:
    if "deadline" in params and params["deadline"] is not None:
        params["deadline"] = when(params["deadline"])
    return {"lang": lang, "content": t(lang, key, game=game.id, **params)}


def dm_closed(game: GameRow, user_id: int, *, lang: str) -> dict[str, Any]:
    return {
        "lang": lang,
        "content": t(lang, "game.dm_closed", user=f"<@{user_id}>", game=game.id),
        "mentions": [user_id],
    }
