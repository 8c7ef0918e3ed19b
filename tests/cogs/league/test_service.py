"""The league service on a real database and the real table, without Discord: a league match
plays as a tactics game with the league's rosters and options, to the end, and its result (DP
included) reaches the standings exactly once; the ledger cannot be rewritten. Every test runs on
SQLite and on PostgreSQL (``tests/storage/backends.py``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot import limits
from bot.i18n import t
from bot.ruleset import RuleError
from bot.table import Player, Table
from cogs.league import ante as antes
from cogs.league import season
from cogs.league.ledger import MASTER_SET, Entry
from cogs.league.season import FINISHED, Options
from cogs.league.service import LeagueService
from cogs.tactics import ai
from cogs.tactics import rules as tactics
from tests.storage.backends import Backend, backend

__all__ = ["backend"]

ALICE, BOB = Player(101, "Alice"), Player(102, "Bob")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def service(backend: Backend):
    repo = await backend.open()  # closed by the backend fixture
    clock = Clock()
    table = Table(repo, clock=clock)
    yield LeagueService(repo, table), clock, backend


async def ready_league(service: LeagueService, clock: Clock) -> str:
    """Two players, a 2-round draft, masters set (no approval needed)."""
    league = await service.create(
        guild_id=1,
        channel_id=10,
        name="Test League",
        ruleset="tactics",
        season_name="S1",
        options=Options(rounds=2, pick_minutes=5, cost_cap=30, turn_minutes=0),
        by=1,
    )
    for p in (ALICE, BOB):
        await service.join(league.id, p.user_id, p.name)
    await service.start_draft(league.id)
    picks = [(ALICE, "knight"), (BOB, "archer"), (BOB, "mage"), (ALICE, "cleric")]
    for number, (player, unit) in enumerate(picks, start=1):
        clock.now += 30
        await service.draft_pick(league.id, player.user_id, unit, number)
    await service.submit_master(league.id, ALICE.user_id, {"preset": "warlord"})
    await service.submit_master(league.id, BOB.user_id, {"preset": "archmage"})
    assert (await service.league(league.id)).masters_revealed
    return league.id


async def test_a_league_match_plays_with_the_rosters_and_records_its_dp(service):
    svc, clock, _ = service
    league_id = await ready_league(svc, clock)
    _, game_id = await svc.pair(league_id, ALICE, BOB, by=1)

    game = await svc.table.game(game_id)
    assert game.options["league"] == league_id and game.options["cost_cap"] == 30
    state = tactics.from_json(game.state)
    assert state.step == "deploy", "league rosters skip the roster step"
    types = {seat: sorted(u.type.id for u in state.side_units(seat)) for seat in ("A", "B")}
    assert types == {"A": ["cleric", "knight", "warlord"], "B": ["archer", "archmage", "mage"]}

    rng = random.Random(4)
    for _ in range(40):
        game = await svc.table.game(game_id)
        if game.status != "active":
            break
        state = tactics.from_json(game.state)
        for seat in tactics.awaiting(state):
            await svc.table.submit(game_id, game.user_of(seat), ai.choose(state, seat, rng))
        clock.now += 60
    game = await svc.table.game(game_id)
    assert game.status == "finished"
    dp = tactics.from_json(game.state).dp

    assert await svc.tick() >= 1
    assert await svc.tick() == 0, "recorded once"
    league = await svc.league(league_id)
    match = league.match(game_id)
    assert match.status == FINISHED
    assert (match.dp_a, match.dp_b) == (dp["A"], dp["B"])
    rows = {r.player: r for r in league.standings()}
    assert rows[str(ALICE.user_id)].dp_for == dp["A"] == rows[str(BOB.user_id)].dp_against
    winner = {"A": str(ALICE.user_id), "B": str(BOB.user_id)}.get(game.outcome or "")
    assert match.winner == winner
    if winner is not None:
        assert [a.winner for a in league.antes] == [winner], "the winner is offered the ante"

    async with svc.repo.transaction() as tx:
        rows_out = await tx.pending_outbox(clock.now + 1, limit=500)
    recorded = [r for r in rows_out if r.game_id is None and "🏁" in r.payload["content"]]
    assert len(recorded) == 1, "the result is posted once"


async def test_the_roster_ledger_is_append_only(service):
    svc, clock, db = service
    league_id = await ready_league(svc, clock)
    assert len(await svc.ledger(league_id)) == 6  # four picks and two masters
    # Refused by the database itself, to a connection of its own (as any other client).
    for sql in ("UPDATE roster_ledger SET unit = 'ninja'", "DELETE FROM roster_ledger"):
        with pytest.raises(db.integrity_error, match="append-only"):
            await db.execute(sql)
    assert len(await svc.ledger(league_id)) == 6


async def test_two_leagues_of_one_name_in_a_server_are_refused(service):
    svc, clock, _ = service
    await ready_league(svc, clock)
    with pytest.raises(Exception) as info:
        await svc.create(
            guild_id=1,
            channel_id=11,
            name="Test League",
            ruleset="tactics",
            season_name="S2",
            options=Options(),
            by=1,
        )
    assert getattr(info.value, "key", "") == "league.name.taken"


# --- limits, names and leagues stored by an older version ----------------------------------------


async def create(svc: LeagueService, **changes: object):
    given: dict[str, object] = {
        "guild_id": 1,
        "channel_id": 10,
        "name": "Big League",
        "ruleset": "tactics",
        "season_name": "S1",
        "options": Options(),
        "by": 1,
        **changes,
    }
    return await svc.create(**given)  # type: ignore[arg-type]


async def test_a_300_character_league_or_season_name_is_refused(service):
    svc, _, _ = service
    for option, key in (("name", "league.name.length"), ("season_name", "league.season.length")):
        with pytest.raises(RuleError) as refused:
            await create(svc, **{option: "x" * 300})
        assert refused.value.key == key and refused.value.params == {"max": 40}
        assert t("ja", key, **refused.value.params) != t("en", key, **refused.value.params)
    assert await svc.in_guild(1) == []
    league = await create(svc, name=" " + "n" * 40 + " ", season_name="s" * 40)
    assert (league.name, league.season) == ("n" * 40, "s" * 40)


def long_design(i: int) -> dict[str, object]:
    """A design with the longest names allowed and an ability: a long line when revealed."""
    return {
        "en": f"Longestmastername{i:03d}",
        "ja": f"とても長い名前を持つ将軍様その{i:03d}",
        "hp": 12,
        "atk": 4,
        "def": 2,
        "move": 2,
        "range_max": 2,
        "ability": {"effect": "area_damage", "power": 3, "range": [1, 3], "radius": 1},
    }


async def test_twenty_long_master_designs_are_revealed_in_parts_each_enqueued_once(service):
    svc, clock, _ = service
    league = await create(svc)
    players = [1_400_000_000_000_000_000 + i for i in range(20)]
    for user_id in players:
        await svc.join(league.id, user_id, f"Player {user_id}")
    for i, user_id in enumerate(players):
        clock.now += 1
        await svc.submit_master(league.id, user_id, long_design(i))
    revealed = await svc.league(league.id)
    assert revealed.masters_revealed

    async with svc.repo.transaction() as tx:
        rows = await tx.pending_outbox(clock.now + 1, limit=500)
    # One outbox row: the outbox posts it as several messages, each once (tests/cogs/game/
    # test_outbox.py shows the resuming), so the post is planned here as the outbox will send it.
    [row] = [r for r in rows if r.nonce.startswith(f"league:{league.id}:league.master.revealed")]
    parts = limits.message_parts(row.payload["content"])
    assert len(parts) >= 2, "twenty long designs take more than one post"
    assert all(limits.violations(p.content, p.embed) == [] for p in parts)
    assert parts[0].content is not None and parts[0].content.startswith("👑 **Big League**")
    text = "\n".join(p.content or "" for p in parts)
    for i, user_id in enumerate(players):
        assert text.count(f"<@{user_id}>: **Longestmastername{i:03d}** ·") == 1

    # The same post enqueued again (a retried transaction) adds nothing.
    ledger = await svc.ledger(league.id)
    shown = tuple((p, dict(m.spec), m.summary) for p, m in revealed.masters.items())
    notice = season.tell(
        "league.master.revealed_all", ref="masters", league=revealed.name, masters=shown
    )
    async with svc.repo.transaction() as tx:
        await svc._enqueue(tx, revealed, ledger, notice, clock.now)
        again = await tx.pending_outbox(clock.now + 1, limit=500)
    assert len(again) == len(rows)


async def test_a_stored_master_named_after_a_pool_unit_no_longer_shields_it(service):
    """Before designed masters had ids of their own, Bob's master ``guardian`` had the pool
    Guardian's id: Alice, winning, was never offered Bob's Guardian. A league stored then (its
    ledger is append-only, so the old id stays written) reads with the new id, and the open ante
    offers the Guardian again."""
    svc, clock, _ = service
    league = await create(svc, options=Options(rounds=2, pick_minutes=5, turn_minutes=0))
    for p in (ALICE, BOB):
        await svc.join(league.id, p.user_id, p.name)
    await svc.start_draft(league.id)
    picks = [(ALICE, "knight"), (BOB, "guardian"), (BOB, "mage"), (ALICE, "cleric")]
    for number, (player, unit) in enumerate(picks, start=1):
        clock.now += 30
        await svc.draft_pick(league.id, player.user_id, unit, number)
    a, b = str(ALICE.user_id), str(BOB.user_id)
    legacy = {
        "en": "Guardian",
        "ja": "守護者",
        "hp": 14,
        "atk": 5,
        "def": 2,
        "move": 3,
        "range_max": 1,
    }
    clock.now += 30
    at = clock.now

    def as_stored_before(lg: season.League, _: list[Entry]) -> season.Step:
        masters = {
            a: season.Master(a, {"preset": "warlord"}, "warlord", "", season.APPROVED, at),
            b: season.Master(b, legacy, "guardian", "", season.APPROVED, at),
        }
        match = season.Match("g-old", a, b, at, season.FINISHED, a, 3, 1, at)
        # what the old code offered: Bob's roster without "his master", the Guardian
        ante = antes.Ante(lg.id, "g-old", a, b, at, ("mage",), "guardian")
        entries = (
            Entry(lg.id, a, "warlord", MASTER_SET, at, "system"),
            Entry(lg.id, b, "guardian", MASTER_SET, at, "system"),
        )
        stored = replace(
            lg, masters=masters, masters_revealed=True, matches=(match,), antes=(ante,)
        )
        return season.Step(stored, entries)

    await svc._act(league.id, as_stored_before)
    async with svc.repo.transaction() as tx:
        raw = [e["unit"] for e in await tx.ledger(league.id) if e["kind"] == MASTER_SET]
    assert raw == ["warlord", "guardian"], "the ledger keeps what was written"

    stored = await svc.league(league.id)
    assert stored.masters[b].unit == "master:guardian"
    assert stored.masters[a].unit == "warlord", "a preset keeps its id"
    ledger = await svc.ledger(league.id)
    assert season.roster(ledger, b).master == "master:guardian"
    assert season.roster(ledger, b).units == ("guardian", "mage")
    ante = stored.ante_of("g-old")
    assert ante.loser_master == "master:guardian" and "guardian" in ante.candidates

    declared = await svc.declare_ante(league.id, "g-old", ALICE.user_id, "guardian")
    assert declared.ante_of("g-old").pick == "guardian"
    clock.now += 30
    await svc.pair(league.id, ALICE, BOB, by=1)  # Alice's next match: the ante locks
    ledger = await svc.ledger(league.id)
    assert season.roster(ledger, a).count("guardian") == 1
    assert season.roster(ledger, b).count("guardian") == 0
    again = await svc.league(league.id)
    assert again.ante_of("g-old").status == "locked"
    assert again.masters[b].unit == "master:guardian", "read the same way every time"


async def test_a_draft_dm_carries_its_channel_notice_for_closed_dms(service):
    """Each draft turn's DM carries what the outbox posts instead when it cannot be delivered: in
    the channel's language, pinging that player, with a nonce of that turn (once per turn), and
    nothing of the menu. Other DMs carry none."""
    svc, clock, _ = service
    async with svc.repo.transaction() as tx:
        await tx.set_guild_language(1, "ja")
    league = await svc.create(
        guild_id=1,
        channel_id=10,
        name="Test League",
        ruleset="tactics",
        season_name="S1",
        options=Options(rounds=2, pick_minutes=5, cost_cap=30, turn_minutes=0),
        by=1,
    )
    for p in (ALICE, BOB):
        await svc.join(league.id, p.user_id, p.name)
    await svc.start_draft(league.id)
    clock.now += 30
    await svc.draft_pick(league.id, ALICE.user_id, "knight", 1)
    async with svc.repo.read() as tx:
        rows = await tx.pending_outbox(float("inf"), limit=500)
    prompts = [r for r in rows if r.kind == "dm" and r.payload.get("view")]
    assert [r.target_id for r in prompts] == [ALICE.user_id, BOB.user_id]
    notices = [r.payload["undeliverable"] for r in prompts]
    assert [n["target_id"] for n in notices] == [10, 10]
    assert len({n["nonce"] for n in notices}) == 2, "one per draft turn"
    for row, notice, number in zip(prompts, notices, (1, 2), strict=True):
        content = notice["payload"]["content"]
        assert content.startswith(f"📋 **Test League**：<@{row.target_id}>の指名の番")
        assert f"4指名中{number}番目" in content and "`/リーグ 指名`" in content
        assert notice["payload"]["mentions"] == [row.target_id]
        for option in row.payload["view"]["options"]:  # none of the units offered
            assert option["label"].split(" (")[0] not in content
    assert not [r for r in rows if r.kind != "dm" and "undeliverable" in r.payload]
