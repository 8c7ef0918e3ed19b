"""Discord misbehaving: 429 bursts (route and global), 500s, slow answers, the gateway dropping
or asking to reconnect mid-turn, an invalidated session. The bot waits as told, retries, resumes,
and the game ends with everything posted exactly once."""

from __future__ import annotations

import asyncio

from tests.e2e.conftest import ID_START
from tests.e2e.harness import SCRIPTS, BotProcess, Table, World, check, dump, posted_view, settle
from tests.fakediscord import FakeDiscord

ARENA = SCRIPTS["arena"]


async def _play(fake, bot, table, world, seed=5):
    await bot.start()
    ((a, b, channel),) = world.pairs
    run = await table.start_game(ARENA, channel, a, b, seed=seed)
    await table.play(run, ARENA)
    assert run.finished or run.turns_played == table.max_turns
    await settle(bot)
    return run


def _assert_clean(fake, bot, table, world):
    report = check(table, dump(bot.db_path), posted_view(fake, world.channels, world.users))
    assert report.ok, report.lines()
    assert bot.errors() == []
    assert not any(i.late for i in fake.interactions.values())


def _waited_out(fake, route_pattern: str) -> list[str]:
    """Each 429 answered: the next request to the same path came after its Retry-After."""
    problems = []
    for i, request in enumerate(fake.requests):
        if request.status != 429 or not request.injected or route_pattern not in request.route:
            continue
        later = next((r for r in fake.requests[i + 1 :] if r.path == request.path), None)
        if later is not None and later.started - request.finished < 0.3 * 0.95:
            problems.append(f"{request.path} retried after {later.started - request.finished:.3f}s")
    return problems


async def test_429_bursts_500s_and_slow_answers(tmp_path):
    fake = await FakeDiscord(id_start=ID_START).start()  # Discord's own per-channel buckets
    bot = BotProcess(fake, tmp_path)
    table = Table(fake, bot, max_turns=4)  # with real buckets a whole game takes ~20 s
    world = World.create(fake, 1)
    try:
        # A burst of 429s on channel posts (every outbox message and every acknowledgement),
        # 500s, a global 429, slow answers to DMs and interaction callbacks.
        fake.fail(r"^/channels/\d+/messages$", method="POST", status=429, times=6, retry_after=0.3)
        fake.fail(r"^/channels/\d+/messages$", method="POST", status=500, times=3)
        # (No 502 on an edit here: the scripted players order together, so each step resolves
        # before its progress edit would go, and the new turn post supersedes it: issue 37.)
        fake.fail(r"^/users/@me/channels$", status=429, times=1, retry_after=0.3, global_=True)
        fake.slow(r"^/channels/\d+/messages$", 0.5, method="POST", times=3)
        fake.slow(r"^/interactions/", 1.0, times=2)
        run = await _play(fake, bot, table, world)
        assert all(f.hits == (f.times or 0) for f in fake.faults)
        assert _waited_out(fake, "/messages") == []
        # Discord's buckets (5 per 5 s per channel) were respected: no 429 the bot earned.
        assert fake.violations == []
        assert len(table.acks) == 2 * run.turns_played
        _assert_clean(fake, bot, table, world)
    finally:
        await bot.stop()
        await fake.stop()


async def test_gateway_drops_reconnects_and_invalid_session_mid_turn(tmp_path):
    fake = await FakeDiscord(
        id_start=ID_START,
        rate_limits={"POST /channels/{}/messages": (50, 1.0)},
        heartbeat_interval_ms=1000,
    ).start()
    bot = BotProcess(fake, tmp_path)
    table = Table(fake, bot, reply_timeout=3.0)
    world = World.create(fake, 1)

    async def trouble() -> None:
        # Mid-turn: after one player's order is in and before the other's.
        await fake.wait_for(lambda: len(table.acks) >= 3, 30)
        await fake.drop_connection()  # a network blip: RESUME, missed events replayed
        await fake.wait_for(lambda: fake.resumes >= 1, 30)
        await fake.wait_for(lambda: len(table.acks) >= 7, 30)
        await fake.send_reconnect()  # op 7: close and RESUME
        await fake.wait_for(lambda: fake.resumes >= 2, 30)
        await fake.wait_for(lambda: len(table.acks) >= 11, 30)
        await fake.send_invalid_session(resumable=False)  # op 9: IDENTIFY again
        await fake.wait_for(lambda: fake.identifies >= 2, 30)

    try:
        side = asyncio.create_task(trouble())
        run = await _play(fake, bot, table, world)
        await asyncio.wait_for(side, 30)
        assert fake.resumes >= 2 and fake.identifies == 2
        assert bot.starts == 1  # one process throughout
        assert len(table.acks) + table.unanswered >= 2 * run.turns_played
        _assert_clean(fake, bot, table, world)
    finally:
        await bot.stop()
        await fake.stop()
