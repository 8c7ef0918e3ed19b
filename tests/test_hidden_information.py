"""Hidden information at the table, with Sealed Bids (``tests/hidden_ruleset``): secret teams and
hands dealt from the secret stream, withheld plays revealed a round late, private events, a
private board, a step deadline of its own, a seat that resigns while the game goes on.

Privacy is tested like correctness: every outbox payload (channel posts, progress edits, DMs) and
every mid-game export is scanned for the facts the ruleset keeps private (the secret seed, a
withheld order's salt and text, a seat's private lines and private events) before they are
public; after the end, ``verify`` recomputes every secret draw and ``replay`` gives the game
event for event.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot import dice as dicelib
from bot import registry
from bot.demo import demo_entropy
from bot.record import replay, verify
from bot.storage.base import OutboxRow
from bot.table import Player, Table
from tests.hidden_ruleset import RULESET as BIDS
from tests.hidden_ruleset import ai
from tests.hidden_ruleset import rules as bids
from tests.storage.backends import Backend, backend

__all__ = ["backend"]

SEATS = ("A", "B", "C", "D", "E")
SIMCORD_DEAL = 3  # a deal where the sun, playing high, wins with two seats or more
USERS = {seat: 100 + i for i, seat in enumerate(SEATS)}
LANGS = ("en", "ja")


@pytest.fixture
def registered() -> Iterator[None]:
    registry.register(BIDS)
    yield
    registry.unregister(BIDS.key)


class Clock:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def table(registered: None, backend: Backend) -> Any:
    """The table on SQLite and on PostgreSQL (``tests/storage/backends.py``): every table-level
    test runs on both; the repository is closed by the backend fixture."""
    return Table(await backend.open(), clock=Clock())


async def start(table: Table, *, turn_seconds: int | None = 600) -> str:
    players = [Player(USERS[s], f"player {s}") for s in SEATS]
    game = await table.challenge(
        "bids", guild_id=1, channel_id=10, players=players, turn_seconds=turn_seconds
    )
    for seat in SEATS[1:]:
        game = await table.accept(game.id, USERS[seat])
    assert game.status == "active"
    return game.id


async def state_of(table: Table, game_id: str) -> bids.BidsState:
    game = await table.game(game_id)
    return bids.from_json(game.state or {})


async def outbox(table: Table, game_id: str) -> list[OutboxRow]:
    async with table.repo.read() as tx:
        return await tx.outbox_for_game(game_id)


def text_of(row: OutboxRow) -> str:
    return json.dumps(row.payload, ensure_ascii=False)


def lines_of(value: Any) -> set[str]:
    """Every line of every string in a payload (a private line is matched whole: "Your hand: 1"
    is not in "Your hand: 11")."""
    if isinstance(value, str):
        return {line.strip() for line in value.splitlines()}
    if isinstance(value, dict):
        return set().union(*(lines_of(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(lines_of(v) for v in value)) if value else set()
    return set()


def shows(payload: Any, fact: str) -> bool:
    """A hex secret anywhere in the payload, or a whole private line."""
    hex_secret = all(c in "0123456789abcdef" for c in fact)
    if hex_secret:
        return fact in json.dumps(payload, ensure_ascii=False)
    return fact in lines_of(payload)


class Secrets:
    """What must stay private, gathered as the game goes: per seat (None: nobody may see it
    before the end), each with the step after which it may be public."""

    def __init__(self) -> None:
        self.by_seat: dict[str | None, set[str]] = {}

    def add(self, seat: str | None, *facts: str) -> None:
        self.by_seat.setdefault(seat, set()).update(f for f in facts if f)

    def forbidden_for(self, reader: str | None) -> set[str]:
        """Facts a reader (a seat's DMs, or None: the channel and exports) must not see: the
        others' (a line two seats share, "Your team: Sun", is the reader's own too)."""
        own = self.by_seat.get(reader, set()) if reader is not None else set()
        return {f for seat, facts in self.by_seat.items() if seat != reader for f in facts} - own


async def gather_private_facts(table: Table, game_id: str, known: Secrets) -> None:
    """The private facts of the game as it stands: each seat's private lines (team, hand) in
    both languages and the salts and texts of the withheld orders; the secret seed."""
    state = await state_of(table, game_id)
    for seat in SEATS:
        view = bids.view(state, seat)
        for lang in LANGS:
            known.add(seat, *BIDS.presenter.private_lines(view, seat, lang))
    async with table.repo.read() as tx:
        secret = next(s for s in await tx.streams(game_id, 0) if s.phase == dicelib.SECRET)
        orders = await tx.all_orders(game_id)
    known.add(None, secret.seed)
    for order in orders:
        if order.withheld:
            known.add(order.seat, order.salt)


def scan(rows: list[OutboxRow], known: Secrets, export: dict[str, Any] | None = None) -> None:
    for row in rows:
        reader = next(
            (s for s, u in USERS.items() if row.kind == "dm" and row.target_id == u), None
        )
        leaked = {f for f in known.forbidden_for(reader) if shows(row.payload, f)}
        assert not leaked, f"{row.kind} to {row.target_id} shows {leaked}"
        board = row.payload.get("board")
        if board is not None:
            shown = board.get("view") or {}
            if row.kind == "dm":  # a private board: drawn from the reader's own view only
                assert shown.get("you", {}).get("seat") == reader
            else:
                assert "you" not in shown, "the channel's board is drawn from a seat's view"
    if export is not None:
        leaked = {f for f in known.forbidden_for(None) if shows(export, f)}
        assert not leaked, f"a mid-game export shows {leaked}"


async def play_step(table: Table, game_id: str, rng: random.Random) -> None:
    state = await state_of(table, game_id)
    for seat in bids.awaiting(state):
        await table.submit(game_id, USERS[seat], ai.choose(state, seat, rng))


async def test_nothing_private_reaches_anyone_else_before_the_end(table: Table) -> None:
    game_id = await start(table)
    rng = random.Random(5)
    while (await table.game(game_id)).status == "active":
        # What is private now was private when every earlier message was posted too.
        known = Secrets()
        await gather_private_facts(table, game_id, known)
        scan(await outbox(table, game_id), known, await table.export(game_id))
        await play_step(table, game_id, rng)
    game = await table.game(game_id)
    assert game.status == "finished"

    # After the end: the secret seed is in the last post, and the record checks and replays.
    rows = await outbox(table, game_id)
    final = next(r for r in reversed(rows) if r.kind == "channel")
    async with table.repo.read() as tx:
        secret = next(s for s in await tx.streams(game_id, 0) if s.phase == dicelib.SECRET)
        stored = [event for _turn, event in await tx.events(game_id)]
    assert secret.revealed and secret.seed in text_of(final)
    record = await table.export(game_id)
    assert record["secret"]["seed"] == secret.seed
    checks = verify(record)
    assert checks and all(c.ok for c in checks), [c.what for c in checks if not c.ok]
    replayed = replay(record)
    assert [e.to_json() for _turn, e in replayed.events] == stored


async def test_withheld_orders_show_receipts_until_revealed_a_round_late(table: Table) -> None:
    game_id = await start(table)
    rng = random.Random(11)
    await play_step(table, game_id, rng)  # round 1: every card withheld
    async with table.repo.read() as tx:
        first = await tx.orders_for_turn(game_id, 1)
    assert all(o.withheld for o in first.values())
    post = next(r for r in reversed(await outbox(table, game_id)) if r.kind == "channel")
    shown = text_of(post)
    for order in first.values():
        assert order.receipt[:12] in shown and order.salt not in shown

    await play_step(table, game_id, rng)  # round 2 reveals round 1's cards
    async with table.repo.read() as tx:
        assert not any(o.withheld for o in (await tx.orders_for_turn(game_id, 1)).values())
        assert all(o.withheld for o in (await tx.orders_for_turn(game_id, 2)).values())
    post = next(r for r in reversed(await outbox(table, game_id)) if r.kind == "channel")
    shown = text_of(post)
    for order in first.values():  # now public, with the salt that proves the receipt
        assert order.salt in shown and order.text in shown


async def test_private_events_and_the_private_board_go_to_their_seat_only(table: Table) -> None:
    game_id = await start(table)
    first_dms = [r for r in await outbox(table, game_id) if r.kind == "dm"]
    assert {r.target_id for r in first_dms} == set(USERS.values())
    for row in first_dms:  # round 1's prompt carries the seat's own hand, drawn
        seat = next(s for s, u in USERS.items() if u == row.target_id)
        assert row.payload["board"]["view"]["you"]["seat"] == seat
    before = len(await outbox(table, game_id))
    await play_step(table, game_id, random.Random(3))
    new = (await outbox(table, game_id))[before:]
    state = await state_of(table, game_id)
    for seat in SEATS:
        (dm,) = [r for r in new if r.kind == "dm" and r.target_id == USERS[seat]]
        card = state.plays[0][seat]
        told = BIDS.presenter.event_lines(
            [{"type": "your_play", "card": card, "round": 1}], dm.payload["lang"], {}
        )
        assert told[0] in dm.payload["content"]
        assert "board" not in dm.payload  # round 2: no private board any more
    channel = [r for r in new if r.kind == "channel"]
    assert channel and all("your_play" not in text_of(r) for r in channel)


async def test_round_one_has_a_deadline_of_its_own(table: Table) -> None:
    game_id = await start(table, turn_seconds=600)
    game = await table.game(game_id)
    assert game.step_seconds == bids.FIRST_ROUND_SECONDS
    assert game.deadline_at == pytest.approx(table.clock() + bids.FIRST_ROUND_SECONDS)
    table.clock.now += bids.FIRST_ROUND_SECONDS + 1  # type: ignore[attr-defined]
    assert await table.tick() >= 1  # the deadline passed: defaults (each lowest card) played
    game = await table.game(game_id)
    assert game.step == 2 and game.step_seconds == 600


async def test_a_seat_resigns_and_the_others_play_on_to_several_winners(table: Table) -> None:
    game_id = await start(table, turn_seconds=None)
    rng = random.Random(7)
    await play_step(table, game_id, rng)
    state = await state_of(table, game_id)
    # C leaves in the middle of round 2, after A has played: the round waits for the rest only.
    await table.submit(game_id, USERS["A"], ai.choose(state, "A", rng))
    await table.resign(game_id, USERS["C"])
    game = await table.game(game_id)
    assert game.status == "active" and game.end_reason is None and game.step == 2
    assert next(s.left_turn for s in game.seats if s.seat == "C") == 2
    state = await state_of(table, game_id)
    assert "C" not in bids.awaiting(state)
    while (await table.game(game_id)).status == "active":
        await play_step(table, game_id, rng)
    game = await table.game(game_id)
    outcome = table.outcome(game)
    assert game.result == outcome.to_json()
    final = await state_of(table, game_id)
    if not outcome.draw:
        team = final.teams[outcome.winners[0]]
        assert set(outcome.winners) == {s for s in bids.active(final) if final.teams[s] == team}
        assert outcome.grades["C"] == bids.OTHER_GRADE
    record = await table.export(game_id)
    checks = verify(record)
    assert checks and all(c.ok for c in checks), [c.what for c in checks if not c.ok]
    assert replay(record).result()["winner"] == outcome.winner


async def test_adjudicate_ends_the_game_by_the_rules_tie_break_once(table: Table) -> None:
    game_id = await start(table)
    await play_step(table, game_id, random.Random(2))
    game = await table.adjudicate(game_id)
    assert (game.status, game.end_reason) == ("finished", "adjudicated")
    assert table.outcome(game).reason == bids.ADJUDICATED
    with pytest.raises(Exception) as again:
        await table.adjudicate(game_id)
    assert getattr(again.value, "key", "") == "table.not_running"
    record = await table.export(game_id)
    assert record["end"] == {"adjudicated": True} and "seed" in record["secret"]
    assert all(c.ok for c in verify(record))
    assert replay(record).result()["winner"] == table.outcome(game).winner


async def test_a_resignation_that_ends_the_game_replays(table: Table) -> None:
    """Three players: teams of two and one. The lone seat leaves in round 2: its team forfeits,
    the other two win together, and the record says who left when."""
    seats = ("A", "B", "C")
    players = [Player(USERS[s], f"player {s}") for s in seats]
    game = await table.challenge("bids", guild_id=1, channel_id=12, players=players)
    for seat in seats[1:]:
        game = await table.accept(game.id, USERS[seat])
    await play_step(table, game.id, random.Random(4))
    state = await state_of(table, game.id)
    (alone,) = [s for s in seats if bids.members(state, state.teams[s]) == [s]]
    await table.resign(game.id, USERS[alone])
    game = await table.game(game.id)
    outcome = table.outcome(game)
    assert game.status == "finished" and outcome.reason == bids.FORFEIT
    assert sorted(outcome.winners) == sorted(s for s in seats if s != alone)
    record = await table.export(game.id)
    assert record["end"] == {"resigned": alone}
    assert record["result"]["winner"] == list(outcome.winners)
    assert all(c.ok for c in verify(record))
    assert replay(record).result()["winner"] == outcome.winner


async def test_an_abandoned_game_gives_its_secrets_away(table: Table) -> None:
    game_id = await start(table)
    await play_step(table, game_id, random.Random(6))
    assert "seed" not in (await table.export(game_id))["secret"]
    await table.abandon(game_id)
    record = await table.export(game_id)
    assert "seed" in record["secret"]
    assert all(not isinstance(v, dict) for t in record["turns"] for v in t["inputs"].values())
    assert all(c.ok for c in verify(record))


async def test_eleven_seats_play_to_the_end(table: Table) -> None:
    seats = bids.SEATS  # A…K
    users = {seat: 500 + i for i, seat in enumerate(seats)}
    players = [Player(users[s], f"player {s}") for s in seats]
    game = await table.challenge("bids", guild_id=1, channel_id=11, players=players)
    for seat in seats[1:]:
        game = await table.accept(game.id, users[seat])
    rng = random.Random(1)
    while (game := await table.game(game.id)).status == "active":
        state = bids.from_json(game.state or {})
        assert sorted(bids.awaiting(state)) == list(seats)
        for seat in bids.awaiting(state):
            await table.submit(game.id, users[seat], ai.choose(state, seat, rng))
    outcome = table.outcome(game)
    assert outcome.finished and game.step == bids.ROUNDS
    assert outcome.draw or len(outcome.winners) in (5, 6)  # a whole team wins together
    rows = await outbox(table, game.id)
    assert all(len(r.payload.get("content") or "") <= 2000 for r in rows)
    record = await table.export(game.id)
    assert all(c.ok for c in verify(record))


def test_the_scan_finds_a_leak() -> None:
    """The scanner is no rubber stamp: a private line in the channel, another seat's hand in a DM,
    a salt in an export and a seat's view under the channel's board are all caught."""
    known = Secrets()
    known.add("A", "Your hand: 1, 5, 9", "0123456789abcdef0123456789abcdef")
    known.add("B", "Your hand: 2, 6, 10")

    def row(kind: str, target: int, payload: dict[str, Any]) -> OutboxRow:
        return OutboxRow(1, "g", kind, target, None, payload, "n", "pending", None, None, 0, 0, 0)

    fine = [
        row("dm", USERS["A"], {"content": "Your hand: 1, 5, 9"}),
        row("channel", 10, {"content": "Your hand: 1, 5, 91"}),
    ]
    scan(fine, known, {"turns": []})
    for leaky, export in [
        ([row("channel", 10, {"embed": {"description": "x\nYour hand: 1, 5, 9"}})], None),
        ([row("dm", USERS["B"], {"content": "Your hand: 1, 5, 9"})], None),
        ([], {"salts": {"A": "0123456789abcdef0123456789abcdef"}}),
        ([row("channel", 10, {"board": {"view": {"you": {"seat": "A"}}}})], None),
    ]:
        with pytest.raises(AssertionError):
            scan(leaky, known, export)


# --- on (simulated) Discord: five players, one leaves, the others play on -------------------------


@pytest.fixture
def simcord_bot(registered: None, make_bot: Any) -> Any:
    """The bot is built once Sealed Bids is registered: it loads the bids commands too."""
    return make_bot()


@pytest.fixture
def five(simcord_env: Any, sim_clock: Any) -> Any:
    sim_clock.env = simcord_env
    guild = simcord_env.create_guild(name="Bid Club")
    channel = guild.create_text_channel("bids")
    members = [
        guild.add_member(simcord_env.create_user(n)) for n in ("ann", "ben", "cy", "dee", "eve")
    ]
    return simcord_env, guild, channel, members


def bot_dms(member: Any) -> list[Any]:
    return [m for m in member.user.dm_channel.history() if m.author.bot]


async def test_five_players_one_resigns_and_the_rest_win_together(five: Any) -> None:
    env, _guild, channel, (ann, ben, cy, dee, eve) = five
    table = env.bot.table
    # Seeds and salts derived from a number (as the demo's), so the deal is the same every run.
    table._entropy = demo_entropy(SIMCORD_DEAL)
    await ann.slash(
        channel, "bids challenge", opponent1=ben, opponent2=cy, opponent3=dee, opponent4=eve
    )
    invitation = channel.last_message
    for member in (ben, cy, dee, eve):
        await member.click(invitation, label="Accept")
    (game,) = await table.games_here(channel.id)
    assert game.status == "active" and len(game.seats) == 5
    seat_of = {m.id: game.seat_of(m.id) for m in (ann, ben, cy, dee, eve)}
    # Each prompt comes with that seat's private board; its 📋 button answers with the seat's
    # own team and hand, and only the clicker's: never another seat's.
    for member in (ann, ben, cy, dee, eve):
        prompt = bot_dms(member)[-1]
        assert prompt.attachments and "Your team:" not in prompt.content
        mine = await member.user.click(prompt, label="Mine")
        state = await state_of(table, game.id)
        seat = seat_of[member.id]
        assert mine.ephemeral and "Your team:" in mine.response.content
        assert f"seat **{seat}**" in mine.response.content
        hand = " · ".join(str(card) for card in state.hands[seat])
        assert hand in mine.response.content

    async def play_round(players: list[Any]) -> None:
        state = await state_of(table, game.id)
        for member in players:
            seat = seat_of[member.id]
            hand = state.hands[seat]  # the sun plays high, the moon low
            await member.send_dm(str(hand[-1] if state.teams[seat] == bids.SUN else hand[0]))
            # the acknowledgement (the last card also resolves the round: the next DMs follow)
            assert any("Order sealed" in m.content for m in bot_dms(member)[-3:])

    await play_round([ann, ben, cy, dee, eve])
    left = await cy.slash(channel, "game resign", confirm=True)
    assert "it goes on for the others" in left.response.content
    assert (await table.game(game.id)).status == "active"
    await play_round([ann, ben, dee, eve])
    await play_round([ann, ben, dee, eve])
    game = await table.game(game.id)
    outcome = table.outcome(game)
    assert game.status == "finished"
    final = [m for m in channel.history() if m.author.bot and m.embeds][-1].embeds[0]
    state = await state_of(table, game.id)
    sun = {s for s in bids.active(state) if state.teams[s] == bids.SUN}
    assert set(outcome.winners) == sun and len(sun) >= 2  # several winners, together
    assert seat_of[cy.id] not in outcome.winners and outcome.grades[seat_of[cy.id]] == "C"
    assert all(f"<@{game.user_of(s)}>" in final.description for s in outcome.winners)
    # The secret seed is public now, in the final post.
    async with table.repo.read() as tx:
        secret = next(s for s in await tx.streams(game.id, 0) if s.phase == dicelib.SECRET)
    assert secret.seed in " ".join(f.value for f in final.fields)


async def test_adjudicate_on_discord_refused_for_players_applied_once(five: Any) -> None:
    env, guild, channel, (ann, ben, cy, *_rest) = five
    await ann.slash(channel, "bids challenge", opponent1=ben, opponent2=cy)
    for member in (ben, cy):
        await member.click(channel.last_message, label="Accept")
    (game,) = await env.bot.table.games_here(channel.id)
    refused = await ann.slash(channel, "game adjudicate")
    assert refused.ephemeral and "Only moderators" in refused.response.content
    role = guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[role])
    done = await mod.slash(channel, "game adjudicate")
    assert done.response.content == f"Game {game.id} was ended by its rules' tie-break."
    assert (await env.bot.table.game(game.id)).end_reason == "adjudicated"
    again = await mod.slash(channel, "game adjudicate", game=game.id)
    assert again.ephemeral and "is over" in again.response.content
