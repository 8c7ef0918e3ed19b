"""The operator's figures (issue 37, ``bot.metrics``), on both backends: games by status in one
grouped query, the outbox rows not yet posted and the oldest of them, and the health ping."""

from __future__ import annotations

from dataclasses import replace

from bot.storage.base import Repository
from bot.storage.figures_store import Figures
from tests.storage.test_repository import game_row


async def _enqueue(repo: Repository, nonce: str, now: float) -> int:
    async with repo.transaction() as tx:
        return await tx.enqueue(
            game_id=None, kind="channel", target_id=20, payload={"content": nonce}, nonce=nonce,
            now=now,
        )  # fmt: skip


async def test_an_empty_database_has_no_games_and_no_backlog(repo: Repository) -> None:
    async with repo.read() as tx:
        await tx.ping()
        assert await tx.figures() == Figures({}, 0, None)


async def test_games_by_status_and_the_oldest_pending_row(repo: Repository) -> None:
    async with repo.transaction() as tx:
        for number, status in enumerate(["active", "active", "finished", "lobby", "paused"]):
            await tx.insert_game(replace(game_row(f"g-{number:04d}"), status=status))
    first = await _enqueue(repo, "a", 100.0)
    await _enqueue(repo, "b", 150.0)
    given_up = await _enqueue(repo, "c", 170.0)
    async with repo.transaction() as tx:
        await tx.mark_sent(first, 1, 20, 101.0)  # posted: no longer the oldest pending
        await tx.mark_failed(given_up, "boom", retry_at=None)  # given up: not pending either
    async with repo.read() as tx:
        figures = await tx.figures()
    assert figures.games == {"active": 2, "finished": 1, "lobby": 1, "paused": 1}
    assert figures.outbox_pending == 1
    assert figures.oldest_pending_at == 150.0
