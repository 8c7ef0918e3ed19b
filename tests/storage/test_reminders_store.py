"""Reminders each player chooses, on both backends (issue 34): the stored settings, the marks
that make a reminder go out once, the digest's compare-and-set, the plans the due-game claim
reads; and a four-player game (Sealed Bids) whose players chose differently, its deadline
worker run by two processes at once: each player reminded at their own times, once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from bot import registry
from bot.reminding import Changes, change_settings, load_settings
from bot.storage.base import GameRow, OutboxRow, Repository, SeatRow
from bot.storage.reminders_store import ReminderSettingsRow
from bot.table import Player, Table
from tests.hidden_ruleset import RULESET as BIDS
from tests.hidden_ruleset import rules as bids
from tests.storage.backends import Backend
from tests.storage.test_table_on_both import CHANNEL, GUILD, Clock, entropy

SEATS = ("A", "B", "C", "D")
USERS = {seat: 1_152_921_504_606_846_976 + i for i, seat in enumerate(SEATS)}
NOW = 1_900_000_000.0


@pytest.fixture
def registered() -> Iterator[None]:
    registry.register(BIDS)
    yield
    registry.unregister(BIDS.key)


def settings_row(user_id: int, **kw: object) -> ReminderSettingsRow:
    values: dict[str, object] = {
        "leads": "50% 10%",
        "via": "channel",
        "digest": False,
        "digest_hour": 9,
        "zone": None,
        "quiet_start": None,
        "quiet_end": None,
        "digest_next": None,
        "updated_at": NOW,
    }
    values.update(kw)
    return ReminderSettingsRow(user_id=user_id, **values)  # type: ignore[arg-type]


async def insert_game(repo: Repository, game_id: str, *, step: int = 1) -> None:
    async with repo.transaction() as tx:
        await tx.insert_game(
            GameRow(
                game_id, "arena", GUILD, CHANNEL, "active", {},
                [SeatRow("A", USERS["A"], "a", 0, accepted=True),
                 SeatRow("B", USERS["B"], "b", 1, accepted=True)],
                step=step, step_seconds=600, turn_seconds=600,
                deadline_at=NOW + 600, created_at=NOW, updated_at=NOW,
            )
        )  # fmt: skip


async def test_settings_are_stored_and_a_change_drops_the_plans_of_the_players_games(
    backend: Backend,
) -> None:
    repo = await backend.open()
    await insert_game(repo, "g-1")
    async with repo.transaction() as tx:
        assert await tx.reminder_settings([USERS["A"]]) == {}
        await tx.plan_reminders("g-1", 1, NOW + 300, NOW)
    settings = await change_settings(
        repo,
        USERS["A"],
        Changes(times="24h 10m", via="dm", zone="asia/tokyo", quiet="23-7", digest=True),
        NOW,
    )
    assert settings.zone == "Asia/Tokyo" and settings.quiet == (1380, 420)
    async with repo.read() as tx:
        (row,) = (await tx.reminder_settings([USERS["A"], USERS["B"]])).values()
        assert await tx.reminder_plans() == {}, "replanned with the new settings"
    assert (row.user_id, row.leads, row.via, row.digest, row.zone) == (
        USERS["A"], "24h 10m", "dm", True, "Asia/Tokyo",
    )  # fmt: skip
    assert (row.quiet_start, row.quiet_end) == (1380, 420)
    assert row.digest_next is not None and row.digest_next > NOW
    assert await load_settings(repo, USERS["A"]) == settings
    # A later change keeps what it does not name; a digest turned off has no next time.
    again = await change_settings(repo, USERS["A"], Changes(digest=False), NOW)
    assert again.leads == settings.leads and again.via == "dm"
    async with repo.read() as tx:
        assert (await tx.reminder_settings([USERS["A"]]))[USERS["A"]].digest_next is None
        assert await tx.next_digest_at() is None


async def test_a_reminder_is_marked_sent_by_one_process_only(backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    await insert_game(one, "g-1")

    async def mark(repo: Repository) -> set[str]:
        async with repo.transaction() as tx:
            return await tx.mark_reminders("g-1", 1, USERS["A"], ["50%", "10%"], NOW)

    first, second = await asyncio.gather(mark(one), mark(two))
    assert sorted([first, second], key=len) == [set(), {"50%", "10%"}]
    async with one.transaction() as tx:
        assert await tx.reminder_marks("g-1", 1) == {USERS["A"]: {"50%", "10%"}}
        # Planning the next step forgets the marks of the earlier ones.
        await tx.plan_reminders("g-1", 2, NOW + 900, NOW)
        assert await tx.reminder_marks("g-1", 1) == {}
        await tx.mark_reminders("g-1", 2, USERS["A"], ["10%"], NOW)
        await tx.forget_reminders("g-1", 2)
        assert await tx.reminder_marks("g-1", 2) == {}


async def test_a_digest_is_taken_by_one_process_only(backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    async with one.transaction() as tx:
        await tx.save_reminder_settings(settings_row(USERS["A"], digest=True, digest_next=NOW - 5))
        await tx.save_reminder_settings(settings_row(USERS["B"], digest=True, digest_next=NOW + 5))
    async with one.read() as tx:
        assert [r.user_id for r in await tx.digests_due(NOW)] == [USERS["A"]]
        assert await tx.next_digest_at() == NOW - 5

    async def advance(repo: Repository) -> bool:
        async with repo.transaction() as tx:
            return await tx.advance_digest(USERS["A"], NOW - 5, NOW + 86_395)

    assert sorted(await asyncio.gather(advance(one), advance(two))) == [False, True]
    async with one.read() as tx:
        assert await tx.digests_due(NOW) == []


async def test_the_claim_finds_a_game_when_its_step_is_unplanned_or_its_next_reminder_is_due(
    backend: Backend,
) -> None:
    repo = await backend.open()
    for game_id in ("g-unplanned", "g-later", "g-due", "g-old-plan", "g-handed"):
        await insert_game(repo, game_id, step=2)
    async with repo.transaction() as tx:
        await tx.plan_reminders("g-later", 2, NOW + 300, NOW)
        # Planned, then a seat handed to a substitute: planned again for the newcomer.
        await tx.plan_reminders("g-handed", 2, NOW + 300, NOW)
        await tx.hand_seat(
            game_id="g-handed", step=2, seat="B", from_user=USERS["B"], from_name="b",
            to_user=USERS["C"], to_name="c", by_user=None, digest="d", now=NOW + 5,
        )  # fmt: skip
        await tx.plan_reminders("g-due", 2, NOW + 30, NOW)
        await tx.plan_reminders("g-old-plan", 1, NOW + 300, NOW)  # the step before's plan

    async def claim(now: float) -> list[str]:
        async with repo.transaction() as tx:
            claimed = await tx.claim_due_games("p1", now, now + 60, 100)
            await tx.release_games("p1", [g.id for g in claimed])
        return sorted(g.id for g in claimed)

    assert await claim(NOW - 1) == [], "no step has begun yet"
    assert await claim(NOW + 10) == ["g-handed", "g-old-plan", "g-unplanned"]
    assert await claim(NOW + 30) == ["g-due", "g-handed", "g-old-plan", "g-unplanned"]
    assert await claim(NOW + 600) == ["g-due", "g-handed", "g-later", "g-old-plan", "g-unplanned"]
    async with repo.transaction() as tx:
        await tx.plan_reminders("g-handed", 2, NOW + 300, NOW + 20)
    assert "g-handed" not in await claim(NOW + 30), "planned after the handover"


def reminders(rows: list[OutboxRow]) -> list[OutboxRow]:
    return [r for r in rows if str(r.payload.get("content", "")).startswith("⏰")]


async def test_two_workers_remind_each_player_at_their_own_times_once(
    registered: None, backend: Backend
) -> None:
    one, two = await backend.open(), await backend.open()
    clock = Clock()
    tables = [Table(repo, clock=clock, entropy=entropy()) for repo in (one, two)]
    # A: 80 % of the time left, by DM. B: the defaults. C: quiet all day (only the final one).
    # D: a daily digest instead (the final one still comes per game).
    await change_settings(one, USERS["A"], Changes(times="80%", via="dm"), clock.now)
    await change_settings(one, USERS["C"], Changes(quiet="00:00-23:59"), clock.now)
    await change_settings(one, USERS["D"], Changes(digest=True, digest_hour=0), clock.now)
    players = [Player(USERS[s], f"player {s}") for s in SEATS]
    game = await tables[0].challenge(
        "bids", guild_id=GUILD, channel_id=CHANNEL, players=players, turn_seconds=600
    )
    for seat in SEATS[1:]:
        game = await tables[0].accept(game.id, USERS[seat])
    assert game.step_seconds == bids.FIRST_ROUND_SECONDS == 120 and game.deadline_at is not None
    start = game.deadline_at - 120

    async def at(offset: float) -> list[OutboxRow]:
        clock.now = start + offset
        for _ in range(2):
            await asyncio.gather(*(table.tick() for table in tables))
        async with one.read() as tx:
            return reminders(await tx.outbox_for_game(game.id))

    # Before the first tick the open step is unplanned: the worker wakes at once.
    assert await tables[0].deadlines.next_wakeup() == start
    assert await at(1) == []
    assert await tables[1].deadlines.next_wakeup() == start + 24, "A's 80 %, the next one"
    async with one.transaction() as tx:
        assert await tx.claim_due_games("p9", start + 10, start + 20) == [], "planned: not due"
    (dm,) = await at(25)  # A's 80 %: 96 s before the deadline
    assert (dm.kind, dm.target_id) == ("dm", USERS["A"])
    assert "Last reminder" in dm.payload["content"], "A's only reminder is the final one"
    assert f"<t:{int(game.deadline_at)}:f>" in dm.payload["content"]
    dm, half = await at(61)  # half time: only B (C is in quiet hours, D takes a digest)
    assert (half.kind, half.payload["mentions"]) == ("channel", [USERS["B"]])
    dm, half, last = await at(109)  # a tenth left: the final one, for B, C and D in one post
    assert last.kind == "channel" and last.payload["mentions"] == [USERS[s] for s in "BCD"]
    assert len(await at(119)) == 3


async def test_a_player_whose_dms_are_closed_is_pinged_in_the_channel_instead(
    registered: None, backend: Backend
) -> None:
    repo = await backend.open()
    clock = Clock()
    table = Table(repo, clock=clock, entropy=entropy())
    await change_settings(repo, USERS["A"], Changes(times="1m", via="dm"), clock.now)
    players = [Player(USERS[s], f"player {s}") for s in SEATS]
    game = await table.challenge(
        "bids", guild_id=GUILD, channel_id=CHANNEL, players=players, turn_seconds=600
    )
    for seat in SEATS[1:]:
        game = await table.accept(game.id, USERS[seat])
    async with repo.transaction() as tx:
        await tx.set_dm_open(game.id, "A", False)  # a DM to A failed earlier
    assert game.deadline_at is not None
    clock.now = game.deadline_at - 59
    await table.tick()
    async with repo.read() as tx:
        rows = reminders(await tx.outbox_for_game(game.id))
    # One post: A's final reminder, and the others' (all theirs came due at this first tick).
    (ping,) = rows
    assert ping.kind == "channel" and ping.payload["mentions"] == [USERS[s] for s in SEATS]
