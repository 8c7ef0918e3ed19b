"""A tactics league stored before leagues read their ruleset's ``RULESET.league`` (issue 33) loads
unchanged. ``data/stored_tactics_league.json`` is what the code of 3477fbc stored (written by it
through its own service: two players, a 2-round draft, a preset and a designed master, two
finished matches with DP, one ante lapsed and one open) with the standings it computed; this
version reads the same document, ledger and standings, and plays on from them. On SQLite and on
PostgreSQL (``tests/storage/backends.py``)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.storage import LeagueRow
from cogs.league import season
from cogs.league.rulesets import support
from tests.cogs.league.test_service import backend, service

__all__ = ["backend", "service"]

STORED = json.loads((Path(__file__).parent / "data/stored_tactics_league.json").read_text("utf-8"))


async def test_a_league_stored_before_reads_unchanged_and_plays_on(service):
    svc, clock, _ = service
    data, ledger = STORED["league"], STORED["ledger"]
    clock.now = max(m["ended_at"] for m in data["matches"]) + 600  # after what was stored
    async with svc.repo.transaction() as tx:
        await tx.insert_league(LeagueRow(data["id"], 1, data["name"], data), clock.now)
        await tx.append_ledger(data["id"], ledger)

    league = await svc.league(data["id"])
    assert league.to_json() == data, "read and written back as stored"
    assert [r.to_json() for r in league.standings()] == STORED["standings"]
    assert [e.to_json() for e in await svc.ledger(data["id"])] == ledger
    assert [lg.id for lg in await svc.in_guild(1)] == [data["id"]]

    # The open ante is declared, and locks when the winner's next match starts, whose options
    # are made from the league's fixed options and the rosters as they now stand.
    declared = await svc.declare_ante(data["id"], "g-0002", 101, "mage")
    assert declared.ante_of("g-0002").pick == "mage"
    entries = await svc.ledger(data["id"])
    step, options = season.start_match(
        declared, entries, support("tactics"), "101", "102", "g-0003", clock.now + 60
    )
    assert step.league.ante_of("g-0002").status == "locked"
    assert (options["cost_cap"], options["tie_break"]) == (30, "hp")
    assert options["rosters"]["A"] == {"master": "warlord", "units": ["knight", "cleric", "mage"]}
    assert options["rosters"]["B"]["units"] == ["archer"]
    assert options["rosters"]["B"]["master"] == data["masters"]["102"]["spec"]
