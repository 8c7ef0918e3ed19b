"""A dungeon game through the real table (the offline demo: SQLite, sealed orders, committed
dice, the outbox), exported as a match record: replaying the export reproduces the game event for
event and state for state, and verify checks every commitment, receipt and roll."""

from __future__ import annotations

import json
from pathlib import Path

from bot.demo import play
from bot.record import replay, verify
from bot.storage import SqliteRepository
from cogs.dungeon import rules


async def test_the_export_replays_event_for_event(tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite3"
    record = tmp_path / "match.json"
    result = await play("dungeon", out=tmp_path / "out", seed=2, record=record, db=db)
    exported = json.loads(record.read_text("utf-8"))
    assert exported["ruleset"] == "dungeon" and exported["seats"] == ["A", "B"]

    repo = SqliteRepository(db)
    await repo.open()
    try:
        async with repo.transaction() as tx:
            stored = await tx.events(result.game_id)
            game = await tx.get_game(result.game_id)
    finally:
        await repo.close()
    again = replay(exported)
    assert [e.to_json() for _, e in again.events] == [e for _, e in stored]
    assert rules.to_json(again.state) == game.state
    assert again.result()["winner"] == result.winner == game.outcome
    assert all(check.ok for check in verify(exported))
