"""The league service over every ruleset that declares a league (issue 33), on SQLite and on
PostgreSQL (``tests/storage/backends.py``): a league is created and joined; its entry draft runs
where the ruleset has rosters (and is refused where it has none); the service opens a match whose
game carries the league's fixed options; the finished game's result reaches the standings and the
server's ratings exactly once; the winner's ante is offered, declared and moved in the ledger
where there are rosters (none otherwise); and a restart mid-draft and mid-match (a new service
and table over the same database) ends where an uninterrupted league does.

The rulesets come from the registry, so a new one with league support joins by itself; what the
suite cannot read from its spec is in its driver (``tests/cogs/league/drivers.py``), and a league
ruleset without one fails here. A match ends by resignation (a real outcome, cheap to reach), or
where a game plays on without the resigned (Esper) by a moderator's ruling after them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import pytest

from bot.i18n import t
from bot.leagues import DP
from bot.ruleset import RuleError
from bot.storage import Repository
from bot.table import Player, Table
from cogs.league import season
from cogs.league.ledger import ANTE_GAIN, ANTE_LOSS, DRAFT_PICK
from cogs.league.ratings import Rating
from cogs.league.rulesets import league_rulesets, support
from cogs.league.season import FINISHED, PLAYING, League
from cogs.league.service import LeagueService
from cogs.league.standings import DRAW_POINTS, WIN_POINTS
from tests.cogs.league.drivers import DRIVERS, Driver, driver
from tests.cogs.league.test_service import Clock
from tests.storage.backends import Backend, backend

__all__ = ["backend"]

RULESETS = league_rulesets()
MODERATOR = 1
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Ken")
PLAYERS = tuple(Player(101 + i, name) for i, name in enumerate(NAMES))

every_ruleset = pytest.mark.parametrize("ruleset", RULESETS)


def test_every_league_ruleset_has_a_driver() -> None:
    missing = sorted(set(RULESETS) - set(DRIVERS))
    assert not missing, (
        f"league rulesets without a driver in tests/cogs/league/drivers.py: {missing}"
    )
    stale = sorted(set(DRIVERS) - set(RULESETS))
    assert not stale, f"drivers of rulesets that declare no league: {stale}"


@dataclass
class Run:
    """One process of the bot on the test's database: its league service and table. A restart
    replaces them with new ones over a new connection to the same database."""

    db: Backend
    clock: Clock
    svc: LeagueService

    @classmethod
    async def start(cls, db: Backend) -> Run:
        clock = Clock()
        repo = await db.open()  # closed by the backend fixture
        return cls(db, clock, LeagueService(repo, table(repo, clock)))

    async def restart(self) -> LeagueService:
        """A new process; returns the old one's service (it may still be running)."""
        old = self.svc
        repo = await self.db.open()
        self.svc = LeagueService(repo, table(repo, self.clock))
        return old


def table(repo: Repository, clock: Clock) -> Table:
    """A table whose dice are drawn from what they are for, not the game's id: the first match of
    one league rolls what the first match of another does, however often the bot restarts."""

    def entropy(size: int, key: str) -> bytes:
        kind, _game, *rest = key.split(":")
        return hashlib.sha256(":".join(["league-suite", kind, *rest]).encode()).digest()[:size]

    return Table(repo, clock=clock, keyed_entropy=entropy)


@pytest.fixture
async def run(backend: Backend) -> Run:
    return await Run.start(backend)


def seated(d: Driver) -> list[Player]:
    return list(PLAYERS[: d.seats])


async def refused(action: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        await action
    return caught.value


# --- the steps of a league, as a moderator and its players take them -----------------------------


async def created(run: Run, d: Driver, guild: int = 1) -> League:
    league = await run.svc.create(
        guild_id=guild,
        channel_id=10 * guild,
        name=f"{d.ruleset} league",
        ruleset=d.ruleset,
        season_name="S1",
        options=d.options,
        by=MODERATOR,
    )
    for player in seated(d):
        league = await run.svc.join(league.id, player.user_id, player.name)
    return league


async def drafted(run: Run, d: Driver, league_id: str, *, restart_after: int = 0) -> League:
    """The entry draft to its end with the driver's picks (``restart_after``: a restart after that
    many picks), then each player's master where the rosters have masters."""
    svc = run.svc
    league = await svc.start_draft(league_id)
    rules = support(d.ruleset).rosters_for(league.options.to_json())
    assert rules is not None and league.draft is not None
    while not league.draft.over:
        if restart_after and len(league.draft.picks) == restart_after:
            await run.restart()
            svc = run.svc
            assert await svc.league(league_id) == league, "the new process reads the draft as left"
        run.clock.now += 30
        state = league.draft
        assert state.current is not None
        league = await svc.draft_pick(
            league_id, int(state.current), d.pick(league, rules), state.number
        )
        assert league.draft is not None
    if rules.has_masters:
        assert d.master is not None, f"{d.ruleset}'s rosters have masters: its driver gives none"
        for i, player in enumerate(seated(d)):
            league = await svc.submit_master(league_id, player.user_id, d.master(i))
        assert league.masters_revealed
    return league


async def ready(run: Run, d: Driver, guild: int = 1) -> str:
    """A league whose first match may be paired: joined, and drafted where it has rosters."""
    league = await created(run, d, guild)
    if support(d.ruleset).rosters_for(league.options.to_json()) is not None:
        await drafted(run, d, league.id)
    return league.id


async def pair(svc: LeagueService, league_id: str, players: list[Player]) -> str:
    """A league match of ``players`` (in seat order) opened by the service."""
    _, game_id = await svc.pair(league_id, *players, by=MODERATOR)
    return game_id


async def played(run: Run, d: Driver, game_id: str, *, restart: bool = False) -> dict[str, int]:
    """The driver's first steps of the match played with every seat's default order (the game
    is then under way), a restart there if asked, and the driver's end; each player's expected
    place."""
    for _ in range(d.steps):
        assert await run.svc.table.resolve_if_ready(game_id, fill_defaults=True)
    if restart:
        await run.restart()
    game = await run.svc.table.game(game_id)
    assert game.status == "active", "the first steps do not end a match"
    places = await d.finish(run.svc.table, game, seated(d))
    assert (await run.svc.table.game(game_id)).status == "finished"
    return places


def winner_of(places: dict[str, int]) -> str | None:
    first = [p for p, place in places.items() if place == 1]
    return first[0] if len(first) == 1 else None


# --- the tests -----------------------------------------------------------------------------------


@every_ruleset
async def test_a_league_is_created_and_joined(run: Run, ruleset: str) -> None:
    d = driver(ruleset)
    league = await created(run, d)
    assert league.ruleset == ruleset and league.draft is None and league.matches == ()
    assert league.players == tuple(str(p.user_id) for p in seated(d))
    assert dict(league.names) == {str(p.user_id): p.name for p in seated(d)}
    stored = league.options.to_json()
    assert {k: stored[k] for k in d.options.to_json()} == d.options.to_json()
    again = await refused(run.svc.join(league.id, PLAYERS[0].user_id, "Alice"))
    assert again.key == "league.join.already"
    await run.restart()
    assert [lg.to_json() for lg in await run.svc.in_guild(1)] == [league.to_json()]


@every_ruleset
async def test_the_entry_draft_where_there_are_rosters(run: Run, ruleset: str) -> None:
    d = driver(ruleset)
    league = await created(run, d)
    players = seated(d)
    rules = support(ruleset).rosters_for(league.options.to_json())
    if rules is None:
        for action in (
            run.svc.start_draft(league.id),
            run.svc.draft_pick(league.id, players[0].user_id, "any", 1),
        ):
            no = await refused(action)
            assert no.key == "league.no_rosters"
            assert no.params == {"league": league.name, "ruleset": ruleset}
        assert (await run.svc.league(league.id)).draft is None
        assert await run.svc.ledger(league.id) == []
        return
    early = await refused(pair(run.svc, league.id, players))
    assert early.key == "league.match.draft_not_over"
    league = await drafted(run, d, league.id)
    assert league.draft is not None and league.draft.over
    assert len(league.draft.picks) == league.options.rounds * len(players)
    assert not any(p.auto for p in league.draft.picks)
    ledger = await run.svc.ledger(league.id)
    for player in players:
        me = str(player.user_id)
        picks = league.draft.picks_of(me)
        assert [e.unit for e in ledger if e.player == me and e.kind == DRAFT_PICK] == picks
        assert sorted(season.roster(ledger, me).units) == sorted(picks)
    first = league.draft.picks_of(str(players[0].user_id))[0]
    late = await refused(run.svc.draft_pick(league.id, players[0].user_id, first, 1))
    assert late.key == "league.draft.over"


@every_ruleset
async def test_a_match_from_its_pairing_to_standings_ratings_and_ante(
    run: Run, ruleset: str
) -> None:
    d = driver(ruleset)
    svc, players = run.svc, seated(d)
    found = support(ruleset)
    league_id = await ready(run, d)
    game_id = await pair(svc, league_id, players)

    # The game the service opened: the league's players in seat order, its fixed options.
    game = await svc.table.game(game_id)
    assert game.ruleset == ruleset and game.status == "active"
    assert [s.user_id for s in game.seats] == [p.user_id for p in players]
    assert game.options["league"] == league_id
    assert {k: game.options.get(k) for k in d.in_game} == dict(d.in_game)
    assert (await svc.league(league_id)).match(game_id).status == PLAYING
    busy = await refused(pair(svc, league_id, players))
    assert busy.key == "league.match.busy"

    places = await played(run, d, game_id)
    assert await svc.record_finished() == 1
    assert await svc.record_finished() == 0, "recorded once"
    league = await svc.league(league_id)
    game = await svc.table.game(game_id)
    by_seat = {s.seat: str(s.user_id) for s in game.seats}
    # The ruleset's own reading of the finished game places the players as the driver ended it.
    result = found.result(game.state or {}, svc.table.outcome(game), by_seat)
    assert dict(result.places) == places
    winner = winner_of(places)
    match = league.match(game_id)
    assert match.status == FINISHED
    if result.points is None:
        assert match.winner == winner
    else:  # graded: every player's points, and the side that won
        assert dict(match.points) == dict(result.points)
        assert set(match.winners) == set(result.won)

    # The standings: the result, and the figures the finished game's state holds.
    figures = d.figures(game.state or {}, by_seat)
    rows = {r.player: r for r in league.standings()}
    for player in places:
        row = rows[player]
        assert row.played == 1
        if result.points is not None:
            assert row.points == result.points[player]
            assert (row.won, row.lost) == ((1, 0) if player in result.won else (0, 1))
        elif winner is None:
            assert (row.drawn, row.points) == (1, DRAW_POINTS)
        elif player == winner:
            assert (row.won, row.points) == (1, WIN_POINTS)
        else:
            assert (row.lost, row.points) == (1, 0)
        scored = dict(figures.get(player, {}))
        assert row.dp_for == scored.pop(DP, 0)
        assert dict(row.figures) == scored
    assert set(found.figures) >= {n for f in figures.values() for n in f}

    # The server's ratings of the ruleset: every player of the match, the better placed higher.
    rated: dict[str, Rating] = await svc.ratings(1, ruleset)
    assert set(rated) == set(places)
    for a, b in ((a, b) for a in places for b in places if places[a] < places[b]):
        assert rated[a].mu > rated[b].mu
    async with svc.repo.read() as tx:
        posts = await tx.pending_outbox(float("inf"), limit=500)
    texts = [r.payload.get("content") or "" for r in posts if r.game_id is None]
    ended = [text for text in texts if "🏁" in text and game_id in text]
    assert len(ended) == 1, "the result is posted once"

    # The ante: offered to the winner where there are rosters, and moved when they play next.
    rules = found.rosters_for(league.options.to_json())
    if rules is None:
        assert league.antes == ()
        await no_roster_actions(svc, league, game_id, players[-1].user_id)
        return
    assert winner is not None
    loser = next(p for p in places if p != winner)
    ante = league.ante_of(game_id)
    assert (ante.winner, ante.loser, ante.status) == (winner, loser, "open") and ante.candidates
    unit = ante.candidates[0]
    ledger = await svc.ledger(league_id)
    before = {p: season.roster(ledger, p).count(unit) for p in (winner, loser)}
    declared = await svc.declare_ante(league_id, game_id, int(winner), unit)
    assert declared.ante_of(game_id).pick == unit
    run.clock.now += 60
    await pair(svc, league_id, players)  # the winner's next match: the ante locks
    league = await svc.league(league_id)
    assert league.ante_of(game_id).status == "locked"
    ledger = await svc.ledger(league_id)
    moved = [(e.kind, e.player, e.unit) for e in ledger if e.kind in (ANTE_GAIN, ANTE_LOSS)]
    assert sorted(moved) == sorted([(ANTE_GAIN, winner, unit), (ANTE_LOSS, loser, unit)])
    after = {p: season.roster(ledger, p).count(unit) for p in (winner, loser)}
    assert after == {winner: before[winner] + 1, loser: before[loser] - 1}


async def no_roster_actions(svc: LeagueService, league: League, game_id: str, user: int) -> None:
    """Every roster action is refused in a league without rosters, and changes nothing."""
    actions = {
        "draft": svc.start_draft(league.id),
        "pick": svc.draft_pick(league.id, user, "knight", 1),
        "master": svc.submit_master(league.id, user, {"preset": "warlord"}),
        "approve": svc.decide_master(league.id, user, approve=True, by=MODERATOR),
        "roster edit": svc.edit_roster(league.id, user, "knight", add=True, by=MODERATOR),
        "ante": svc.declare_ante(league.id, game_id, user, "knight"),
        "ante extend": svc.extend_ante(league.id, game_id, 0.0, by=MODERATOR),
        "ante void": svc.void_ante(league.id, game_id, "no", by=MODERATOR),
    }
    params = {"league": league.name, "ruleset": league.ruleset}
    for what, action in actions.items():
        no = await refused(action)
        assert (no.key, no.params) == ("league.no_rosters", params), what
    en, ja = (t(lang, "league.no_rosters", **params) for lang in ("en", "ja"))
    assert league.name in en and league.name in ja and en != ja and "ドラフト" in ja
    after = await svc.league(league.id)
    assert after.to_json() == league.to_json(), "nothing changed"
    assert await svc.ledger(league.id) == []


async def league_so_far(svc: LeagueService, league_id: str) -> dict[str, Any]:
    """What a league has come to, whichever server it is in: the standings, each player's
    roster, the matches' results and the antes."""
    league = await svc.league(league_id)
    ledger = await svc.ledger(league_id)
    return {
        "standings": [r.to_json() for r in league.standings()],
        "figures": {r.player: dict(r.figures) for r in league.standings()},
        "rosters": {p: sorted(season.roster(ledger, p).units) for p in league.players},
        "results": [
            (m.status, m.winner, dict(m.places), dict(m.points), m.winners) for m in league.matches
        ],
        "antes": [(a.winner, a.loser, a.pick, a.status) for a in league.antes],
    }


async def whole_league(run: Run, d: Driver, guild: int, *, restarts: bool) -> dict[str, Any]:
    """A league from its creation to its first match recorded (and, with rosters, its ante
    moved), restarting mid-draft and mid-match when ``restarts``."""
    league = await created(run, d, guild)
    rules = support(d.ruleset).rosters_for(league.options.to_json())
    if rules is not None:
        half = league.options.rounds * d.seats // 2
        await drafted(run, d, league.id, restart_after=half if restarts else 0)
    players = seated(d)
    game_id = await pair(run.svc, league.id, players)
    places = await played(run, d, game_id, restart=restarts)
    if restarts:
        old = await run.restart()
        assert await run.svc.record_finished() == 1
        assert await old.record_finished() == 0, "the old process records it no second time"
    else:
        assert await run.svc.record_finished() == 1
    winner = winner_of(places)
    if rules is not None and winner is not None:
        ante = (await run.svc.league(league.id)).ante_of(game_id)
        await run.svc.declare_ante(league.id, game_id, int(winner), ante.candidates[0])
        run.clock.now += 60
        await pair(run.svc, league.id, players)
    ratings = await run.svc.ratings(guild, d.ruleset)
    return {
        **await league_so_far(run.svc, league.id),
        "ratings": {p: r.to_json() for p, r in sorted(ratings.items())},
    }


@every_ruleset
async def test_a_restart_mid_draft_and_mid_match_ends_where_no_restart_does(
    run: Run, ruleset: str
) -> None:
    d = driver(ruleset)
    straight = await whole_league(run, d, guild=1, restarts=False)
    restarted = await whole_league(run, d, guild=2, restarts=True)
    assert restarted == straight
    assert sum(row["played"] for row in straight["standings"]) == d.seats
