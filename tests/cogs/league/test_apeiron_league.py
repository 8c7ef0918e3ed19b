"""An Apeiron league through the league service, on a real database and the real table (SQLite
and PostgreSQL, ``tests/storage/backends.py``): created with the server's pack (copied whole: a
later upload changes nothing for it), its fixed options, a 14-pick draft whose lapsed picks the
bot makes within the pick check, two matches played to their end by the demo AI with decks from
the collections, an ante of a chest card, standings with Apeiron's figures, and a restart."""

from __future__ import annotations

import random

import pytest

from bot import packs
from bot.ruleset import RuleError
from bot.storage.base import PackRow
from bot.table import Player, Table
from cogs.apeiron import ai, rules
from cogs.apeiron import league as lg
from cogs.apeiron import pack as packlib
from cogs.league import season
from cogs.league import service as service_module
from cogs.league.rulesets import rosters
from cogs.league.season import FINISHED, Options
from cogs.league.service import LeagueService
from tests.cogs.apeiron.test_league import HOSTILE
from tests.cogs.league.test_service import Clock
from tests.storage.backends import Backend, backend

__all__ = ["backend"]

ALICE, BOB = Player(101, "Alice"), Player(102, "Bob")
GUILD = 7


@pytest.fixture
async def service(backend: Backend):
    repo = await backend.open()  # closed by the backend fixture
    clock = Clock()
    yield LeagueService(repo, Table(repo, clock=clock)), clock, backend


async def upload(svc: LeagueService, pack: packlib.Pack, at: float) -> None:
    row = PackRow(GUILD, "apeiron", packs.canonical_json(pack.source), pack.hash, 1, at)
    async with svc.repo.transaction() as tx:
        await tx.set_server_pack(row)


async def play_out(svc: LeagueService, clock: Clock, game_id: str, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3000):
        game = await svc.table.game(game_id)
        if game.status != "active":
            break
        state = rules.from_json(game.state)
        for seat in rules.awaiting(state):
            await svc.table.submit(game_id, game.user_of(seat), ai.choose(state, seat, rng))
        clock.now += 1
    assert (await svc.table.game(game_id)).status == "finished"


async def test_an_apeiron_league_from_its_pack_to_its_standings(service):
    svc, clock, db = service
    hostile = packlib.loads(HOSTILE)
    await upload(svc, hostile, clock.now)
    with pytest.raises(RuleError) as short:
        await svc.create(
            guild_id=GUILD,
            channel_id=70,
            name="Short",
            ruleset="apeiron",
            season_name="S1",
            options=Options(rounds=9),
            by=1,
        )
    assert short.value.key == "league.option.rounds_min"
    with pytest.raises(RuleError) as foreign:
        await svc.create(
            guild_id=GUILD,
            channel_id=70,
            name="Foreign",
            ruleset="apeiron",
            season_name="S1",
            options=Options(rounds=14, game={"nope": 1}),
            by=1,
        )
    assert foreign.value.key == "league.option.not_in_ruleset"
    league = await svc.create(
        guild_id=GUILD,
        channel_id=70,
        name="Apeiron Cup",
        ruleset="apeiron",
        season_name="S1",
        options=Options(
            rounds=lg.DRAFT_PICKS + 2,  # two spare cards each: an ante leaves a deck
            pick_minutes=1,
            turn_minutes=7,
            game={"time_control": "standard", "turn_limit": 4},
        ),
        by=1,
    )
    assert league.options.game["pack_hash"] == hostile.hash
    # A later upload (the starter's cards renamed) changes nothing for this league.
    other = packlib.loads(HOSTILE.replace('name_en = "守衛長"', 'name_en = "Other"', 1))
    assert other.hash != hostile.hash
    await upload(svc, other, clock.now + 1)
    league = await svc.league(league.id)
    assert league.options.game["pack_hash"] == hostile.hash
    assert rosters(league).pool() == lg.ApeironRosters.for_pack(hostile).pool()

    for p in (ALICE, BOB):
        await svc.join(league.id, p.user_id, p.name)
    await svc.start_draft(league.id)
    # Eight rounds by hand: each takes a chest card (two more than a deck needs).
    chests = [lg.card(lg.CHEST, c) for c in hostile.chest]
    for number in range(1, 17):
        clock.now += 10
        current = (await svc.league(league.id)).draft.current
        await svc.draft_pick(league.id, int(current), chests[number - 1], number)
    # A ninth would leave eight units to find in the seven picks left: refused.
    current = (await svc.league(league.id)).draft.current
    with pytest.raises(RuleError) as refused:
        await svc.draft_pick(league.id, int(current), chests[20], 17)
    assert refused.value.key == "apeiron.league.pick.units"
    # Every other pick lapses: the bot takes the costliest card the pick check accepts.
    clock.now += 60 * 60
    await svc.tick()
    league = await svc.league(league.id)
    total = 2 * (lg.DRAFT_PICKS + 2)
    assert league.draft_over and len(league.draft.picks) == total
    assert sum(p.auto for p in league.draft.picks) == total - 16
    costs = league.draft.costs
    for player in (ALICE, BOB):
        held = lg.Collection.of(league.draft.picks_of(str(player.user_id)))
        assert len(held.units) == packlib.DECK_UNITS and len(held.chest) == 8
    first_auto = league.draft.picks[16]
    assert first_auto.auto and costs[first_auto.unit] == max(costs.values())

    # Two matches, played to their end by the demo AI with decks from the collections.
    _, game_id = await svc.pair(league.id, ALICE, BOB, by=1)
    game = await svc.table.game(game_id)
    assert game.options["pack_hash"] == hostile.hash and game.options["turn_limit"] == 4
    assert game.options["minutes"] == 7, "the league's minutes are the game's step deadline"
    await play_out(svc, clock, game_id, seed=3)
    await svc.tick()
    league = await svc.league(league.id)
    match = league.match(game_id)
    assert match.status == FINISHED and match.winner is not None
    scored = lg.figures_of((await svc.table.game(game_id)).state)
    by_seat = {"A": str(ALICE.user_id), "B": str(BOB.user_id)}
    assert match.figures == {by_seat[s]: f for s, f in scored.items()}
    assert scored[{v: k for k, v in by_seat.items()}[match.winner]][lg.UNITS_LEFT] > 0
    loser = match.b if match.winner == match.a else match.a
    ante = league.ante_of(game_id)
    chest = next(c for c in ante.candidates if c.startswith(lg.CHEST))
    await svc.declare_ante(league.id, game_id, int(match.winner), chest)

    # A restart: a new service and table over the same database.
    repo = await db.open()
    svc = LeagueService(repo, Table(repo, clock=clock))
    clock.now += 10
    _, second = await svc.pair(league.id, ALICE, BOB, by=1)
    ledger = await svc.ledger(league.id)
    assert chest in season.roster(ledger, match.winner).units
    game = await svc.table.game(second)
    assert game.options["pack_hash"] == hostile.hash
    collections = game.options["collections"]
    seat_of = {str(ALICE.user_id): "A", str(BOB.user_id): "B"}
    assert chest.split(":", 1)[1] in collections[seat_of[match.winner]]["chest"]
    await play_out(svc, clock, second, seed=5)
    clock.now += 120  # the old process's maintenance lease has lapsed
    await svc.tick()
    league = await svc.league(league.id)
    assert league.match(second).status == FINISHED
    rows = {r.player: r for r in league.standings()}
    assert sum(r.won for r in rows.values()) == 2
    assert loser in rows
    for player, row in rows.items():  # the figures of both matches, totalled
        total = {n: sum(m.figures[player][n] for m in league.matches) for n in ("units", "hp")}
        assert dict(row.figures) == total


async def test_the_draft_menu_offers_every_card_by_pages(service, monkeypatch):
    svc, clock, _ = service
    monkeypatch.setattr(service_module, "PAGE", 20)  # the starter's 52 cards: three pages
    hostile = packlib.loads(HOSTILE)
    await upload(svc, hostile, clock.now)
    league = await svc.create(
        guild_id=GUILD,
        channel_id=70,
        name="Paged",
        ruleset="apeiron",
        season_name="S1",
        options=Options(rounds=lg.DRAFT_PICKS),
        by=1,
    )
    for p in (ALICE, BOB):
        await svc.join(league.id, p.user_id, p.name)
    await svc.start_draft(league.id)
    everything = list(dict.fromkeys(e for e, _ in rosters(league).pool()))
    seen: list[str] = []
    first = await svc.offer(league.id, "draft", "1", "ja", 0)
    for page in range(first["pages"]):
        spec = await svc.offer(league.id, "draft", "1", "ja", page)
        assert spec["page"] == page and len(spec["options"]) <= 20
        seen += [o["value"] for o in spec["options"]]
    assert first["pages"] == 3
    assert seen == everything and any(e.startswith(lg.CHEST) for e in seen)
    past = await svc.offer(league.id, "draft", "1", "en", 99)
    assert past["page"] == first["pages"] - 1
