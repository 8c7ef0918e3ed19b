"""``python -m bot migrate-db``: a community moves from SQLite to PostgreSQL with nothing lost.

An SQLite database is filled through the real table, as the bot fills it: finished and running
games of every ruleset (Arena, Tactics as league matches, the Dungeon, and Sealed Bids with its
secret stream and withheld orders), a lobby, an abandoned game, a league with its roster ledger,
a ``/roll`` chain, settings, a server's season, posted and pending outbox rows. The command
copies it into a fresh PostgreSQL schema; its per-table counts and checksums agree with an
independent summary of both databases; then the running games play to the end on PostgreSQL, the
league records its match, the server's next season is numbered after the copied one, and every
export verifies (the finished games' exports are byte for byte what SQLite gave).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot import registry
from bot.record import verify
from bot.storage import SqliteRepository
from bot.storage.migrate import TableSummary, migrate_repositories, schema, summarize
from bot.table import Player, Table
from cogs.league.season import FINISHED, Options
from cogs.league.service import LeagueService
from tests.hidden_ruleset import RULESET as BIDS
from tests.storage.backends import Backend, backend

__all__ = ["backend"]

ROOT = Path(__file__).resolve().parent.parent
ON_POSTGRES = pytest.mark.parametrize("backend", ["postgres"], indirect=True)
GUILD = 1_100_000_000_000_000_001
# Discord ids beyond 2**60: PostgreSQL's BIGINT, SQLite's 64-bit INTEGER.
USERS = [1_152_921_504_606_846_976 + i for i in range(6)]
ALICE, BOB = Player(USERS[0], "Alice 札"), Player(USERS[1], "Bob")
MAX_STEPS = 300


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


def entropy(prefix: str) -> Callable[[int], bytes]:
    drawn = itertools.count()

    def derived(size: int) -> bytes:
        return hashlib.sha256(f"{prefix}:{next(drawn)}".encode()).digest()[:size]

    return derived


class Community:
    """What one server's bot keeps: games of every ruleset in every state, a league, settings."""

    def __init__(self, table: Table, clock: Clock) -> None:
        self.table = table
        self.clock = clock
        self.league = LeagueService(table.repo, table)
        self.rng = random.Random(21)
        self.channels = itertools.count(1_100_000_000_000_001_000)
        self.finished: list[str] = []
        self.running: list[str] = []
        self.league_id = ""

    async def start(self, ruleset: str) -> str:
        seats = registry.get(ruleset).seats.for_demo()
        players = [Player(USERS[i], f"player {i} 札") for i in range(len(seats))]
        game = await self.table.challenge(
            ruleset,
            guild_id=GUILD,
            channel_id=next(self.channels),
            players=players,
            turn_seconds=3600,
        )
        for player in players[1:] or players:
            game = await self.table.accept(game.id, player.user_id)
        assert game.status == "active", ruleset
        return game.id

    async def play(self, game_id: str, *, steps: int = MAX_STEPS) -> str:
        """Play ``steps`` rounds of orders (or to the end) with the rulesets' own AI players."""
        for _ in range(steps):
            game = await self.table.game(game_id)
            if game.status != "active":
                break
            spec = registry.get(game.ruleset)
            assert spec.demo_player is not None
            ai = spec.demo_player.load()
            state = spec.engine.from_json(game.state or {})
            for seat in spec.engine.awaiting(state):
                self.clock.now += 7.25
                order = ai.choose(state, seat, self.rng)
                await self.table.submit(game_id, game.user_of(seat), order, source="demo")
            self.clock.now += 60
        return (await self.table.game(game_id)).status

    async def fill(self) -> None:
        for ruleset in ("arena", "dungeon", "bids"):
            done = await self.start(ruleset)
            assert await self.play(done) == "finished", ruleset
            self.finished.append(done)
            running = await self.start(ruleset)
            assert await self.play(running, steps=2) == "active", ruleset
            self.running.append(running)
        await self.table.resign(self.running[-1], USERS[3])  # the others play on
        # A lobby still waiting for its invitee, and a game a moderator abandoned.
        await self.table.challenge(
            "arena",
            guild_id=GUILD,
            channel_id=next(self.channels),
            players=[ALICE, BOB],
            turn_seconds=None,
        )
        await self.table.abandon(await self.start("arena"))
        await self.fill_league()
        await self.table.roll_stream(next(self.channels))
        await self.table.roll_stream(next(self.channels))
        await self.table.set_language(GUILD, "ja")
        await self.table.remember_locale(USERS[2], "ja")
        async with self.table.repo.transaction() as tx:  # a moderator's /esper season start
            await tx.start_season(GUILD, "esper", USERS[0], self.clock.now)
        # Half of what is waiting went out (as if the bot stopped mid-drain).
        async with self.table.repo.transaction() as tx:
            rows = await tx.pending_outbox(float("inf"), limit=10_000)
            for row in rows[: len(rows) // 2]:
                await tx.mark_sent(row.id, 9_000_000_000_000_000_000 + row.id, row.target_id, 1.5)

    async def fill_league(self) -> None:
        svc, clock = self.league, self.clock
        league = await svc.create(
            guild_id=GUILD,
            channel_id=next(self.channels),
            name="リーグ 1",
            ruleset="tactics",
            season_name="S1",
            options=Options(rounds=2, pick_minutes=5, cost_cap=30, turn_minutes=0),
            by=ALICE.user_id,
        )
        self.league_id = league.id
        for p in (ALICE, BOB):
            await svc.join(league.id, p.user_id, p.name)
        await svc.start_draft(league.id)
        picks = [(ALICE, "knight"), (BOB, "archer"), (BOB, "mage"), (ALICE, "cleric")]
        for number, (player, unit) in enumerate(picks, start=1):
            clock.now += 30
            await svc.draft_pick(league.id, player.user_id, unit, number)
        await svc.submit_master(league.id, ALICE.user_id, {"preset": "warlord"})
        await svc.submit_master(league.id, BOB.user_id, {"preset": "archmage"})
        _, first = await svc.pair(league.id, ALICE, BOB, by=ALICE.user_id)
        assert await self.play(first) == "finished"
        assert await svc.tick() >= 1  # the result reaches the standings
        self.finished.append(first)
        clock.now += 30
        _, second = await svc.pair(league.id, BOB, ALICE, by=ALICE.user_id)
        assert await self.play(second, steps=2) == "active"
        self.running.append(second)


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("LOCALE", "DATABASE_URL")}
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


TABLE_LINE = re.compile(
    r"^(\w+)\s*: (\d+) rows, checksum ([0-9a-f]+) → (\d+) rows, checksum ([0-9a-f]+)  (ok|\w+)$"
)


def printed_tables(stdout: str) -> dict[str, tuple[int, str, int, str, str]]:
    found = {}
    for line in stdout.splitlines():
        if match := TABLE_LINE.match(line):
            name, a, x, b, y, verdict = match.groups()
            found[name] = (int(a), x, int(b), y, verdict)
    return found


def target_url(backend: Backend) -> str:
    assert backend.url is not None and backend.schema is not None
    joiner = "&" if "?" in backend.url else "?"
    return f"{backend.url}{joiner}search_path={backend.schema}"


async def exports(table: Table, game_ids: list[str]) -> dict[str, str]:
    return {
        g: json.dumps(await table.export(g), ensure_ascii=False, sort_keys=True) for g in game_ids
    }


@ON_POSTGRES
async def test_a_community_moves_to_postgresql_and_plays_on(
    registered: None, backend: Backend, tmp_path: Path
) -> None:
    source_path = tmp_path / "bot.sqlite3"
    source = SqliteRepository(source_path)
    await source.open()
    clock = Clock()
    community = Community(Table(source, clock=clock, entropy=entropy("sqlite")), clock)
    await community.fill()
    before = await summarize(source)
    finished_exports = await exports(community.table, community.finished)
    async with source.read() as tx:
        ledger_before = await tx.ledger(community.league_id)
        top_outbox = max(r.id for r in await tx.outbox_for_game(community.running[0]))
    await source.close()
    assert all(before[t].rows for t in ("games", "seats", "orders", "dice_streams", "events"))
    assert all(before[t].rows for t in ("states", "outbox", "leagues", "league_matches"))
    assert all(before[t].rows for t in ("roster_ledger", "roll_streams", "guild_settings"))
    assert before["seasons"].rows == 1

    target = await backend.open()  # an empty, migrated schema the command fills
    proc = run_cli("--from", f"sqlite:///{source_path}", "--to", target_url(backend))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    printed = printed_tables(proc.stdout)
    assert set(printed) == set(before)
    for name, summary in before.items():
        assert printed[name] == (
            summary.rows,
            summary.checksum,
            summary.rows,
            summary.checksum,
            "ok",
        ), name
    assert f"{sum(s.rows for s in before.values())} rows" in proc.stdout

    # Independently of what the command printed: the two databases hold the same rows.
    after = await summarize(target)
    assert {n: (s.rows, s.total) for n, s in after.items()} == {
        n: (s.rows, s.total) for n, s in before.items()
    }

    # The same exports, byte for byte, from PostgreSQL.
    table = Table(target, clock=clock, entropy=entropy("postgres"))
    assert await exports(table, community.finished) == finished_exports
    async with target.read() as tx:
        assert await tx.ledger(community.league_id) == ledger_before
    async with target.transaction() as tx:  # the server's seasons go on where they were
        season = await tx.start_season(GUILD, "esper", USERS[1], clock.now)
    assert (season.guild_id, season.number) == (GUILD, 2)
    with pytest.raises(backend.integrity_error, match="append-only"):
        await backend.execute("DELETE FROM roster_ledger")

    # The running games play to the end on PostgreSQL; the league records its match.
    moved = Community(table, clock)
    for game_id in community.running:
        assert await moved.play(game_id) == "finished", game_id
    assert await moved.league.tick() >= 1
    league = await moved.league.league(community.league_id)
    assert {m.id for m in league.matches if m.status == FINISHED} == {
        community.finished[-1],
        community.running[-1],
    }
    for game_id in community.finished + community.running:
        record = await table.export(game_id)
        checks = verify(record)
        assert checks and all(c.ok for c in checks), (game_id, [c.what for c in checks if not c.ok])

    # New rows continue after the copied ids: a new game's number, a new outbox row's id.
    fresh = await moved.start("arena")
    numbers = sorted(int(g.removeprefix("g-")) for g in community.finished + community.running)
    assert int(fresh.removeprefix("g-")) > numbers[-1]
    async with target.read() as tx:
        assert min(r.id for r in await tx.outbox_for_game(fresh)) > top_outbox


# --- refusals, --force, the other direction ---------------------------------------------------


async def small_sqlite(path: Path, *, games: int = 1) -> SqliteRepository:
    """A small database: arena games, a posted outbox row whose successor was deleted."""
    repo = SqliteRepository(path)
    await repo.open()
    clock = Clock()
    community = Community(Table(repo, clock=clock, entropy=entropy("small")), clock)
    for _ in range(games):
        await community.play(await community.start("arena"), steps=3)
    return repo


def summaries(found: dict[str, TableSummary]) -> dict[str, tuple[int, int]]:
    return {name: (s.rows, s.total) for name, s in found.items()}


@ON_POSTGRES
async def test_a_target_with_rows_is_refused_and_force_replaces_it(
    backend: Backend, tmp_path: Path
) -> None:
    first = await small_sqlite(tmp_path / "one.sqlite3", games=2)
    first_summary = await summarize(first)
    await first.close()
    second = await small_sqlite(tmp_path / "two.sqlite3", games=1)
    second_summary = await summarize(second)
    await second.close()
    await backend.open()
    url = target_url(backend)

    assert run_cli("--from", f"sqlite:///{tmp_path / 'one.sqlite3'}", "--to", url).returncode == 0
    refused = run_cli("--from", f"sqlite:///{tmp_path / 'two.sqlite3'}", "--to", url)
    assert refused.returncode == 1
    [line] = refused.stderr.splitlines()
    assert line.startswith("migrate-db: the target already holds rows (games 2,")
    assert "--force" in line
    check = backend.make()
    await check.open()
    assert summaries(await summarize(check)) == summaries(first_summary), "left as it was"

    forced = run_cli("--from", f"sqlite:///{tmp_path / 'two.sqlite3'}", "--to", url, "--force")
    assert forced.returncode == 0, forced.stderr
    assert "dropped and rebuilt empty (--force)" in forced.stdout
    assert summaries(await summarize(check)) == summaries(second_summary), "replaced, not mixed"
    await backend.execute(
        "INSERT INTO leagues (id, guild_id, name, data, created_at, updated_at) "
        "VALUES ('l-1', 1, 'x', '{}', 1, 1)"
    )
    await backend.execute(
        "INSERT INTO roster_ledger (league_id, player, unit, kind, at, by) "
        "VALUES ('l-1', 'p', 'u', 'k', 1, 's')"
    )
    with pytest.raises(backend.integrity_error, match="append-only"):  # the triggers are back
        await backend.execute("UPDATE roster_ledger SET unit = 'v'")


@ON_POSTGRES
async def test_postgresql_back_to_sqlite_keeps_ids_and_counters(
    backend: Backend, tmp_path: Path
) -> None:
    source = await small_sqlite(tmp_path / "one.sqlite3")
    async with source.transaction() as tx:
        top = await tx.enqueue(
            game_id=None, kind="channel", target_id=5, payload={"content": "x"}, nonce="n", now=1
        )
    raw_delete = f"DELETE FROM outbox WHERE id = {top}"
    await source.conn.execute(raw_delete)  # the newest row gone: its id is still used up
    original = await summarize(source)
    target = await backend.open()
    report = await migrate_repositories(source, target)
    assert report.ok and summaries(await summarize(target)) == summaries(original)
    async with target.transaction() as tx:
        next_id = await tx.enqueue(
            game_id=None, kind="dm", target_id=6, payload={}, nonce="m", now=2
        )
    assert next_id == top + 1, "PostgreSQL's identity continues after the source's counter"

    back = SqliteRepository(tmp_path / "back.sqlite3")
    await back.open()
    try:
        report = await migrate_repositories(target, back)
        assert report.ok and summaries(await summarize(back)) == summaries(await summarize(target))
        async with back.transaction() as tx:
            again = await tx.enqueue(
                game_id=None, kind="dm", target_id=6, payload={}, nonce="o", now=3
            )
        assert again == next_id + 1
    finally:
        await back.close()
        await source.close()


async def test_a_table_the_schema_does_not_know_stops_the_move_before_writing(
    tmp_path: Path,
) -> None:
    source = await small_sqlite(tmp_path / "one.sqlite3")
    await source.conn.execute("CREATE TABLE plugin_notes (id INTEGER PRIMARY KEY, note TEXT)")
    await source.close()
    proc = run_cli(
        "--from",
        f"sqlite:///{tmp_path / 'one.sqlite3'}",
        "--to",
        f"sqlite:///{tmp_path / 'two.sqlite3'}",
    )
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "migrate-db: --from has tables this version of the bot does not know (plugin_notes): "
        "nothing was copied. Run migrate-db from the bot version that made them."
    ]
    target = SqliteRepository(tmp_path / "two.sqlite3")
    await target.open()
    try:
        assert all(s.rows == 0 for s in (await summarize(target)).values())
    finally:
        await target.close()


async def test_a_value_the_target_cannot_store_rolls_the_whole_copy_back(tmp_path: Path) -> None:
    source = await small_sqlite(tmp_path / "one.sqlite3")
    # SQLite keeps 1.5 in an INTEGER column; the move refuses it rather than round it.
    await source.conn.execute("UPDATE games SET turn_seconds = 1.5")
    target = SqliteRepository(tmp_path / "two.sqlite3")
    await target.open()
    try:
        from bot.storage.migrate import MigrateError

        with pytest.raises(MigrateError) as refused:
            await migrate_repositories(source, target)
        assert refused.value.key == "cli.migrate.odd_value"
        assert all(s.rows == 0 for s in (await summarize(target)).values())
    finally:
        await target.close()
        await source.close()


def test_unreachable_server_missing_file_and_bad_urls_are_one_line_each(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    cases = {
        ("--from", f"sqlite:///{tmp_path / 'none.sqlite3'}", "--to", "sqlite:///x.sqlite3"): (
            "there is no SQLite database at"
        ),
        ("--from", f"sqlite:///{db}", "--to", "postgresql://u:hunter2@127.0.0.1:1/db"): (
            "cannot open the database: PostgreSQL at 127.0.0.1:1/db"
        ),
        ("--from", f"sqlite:///{db}", "--to", "mysql://host/db"): "is not a database URL",
        ("--from", f"sqlite:///{db}", "--to", f"sqlite:///{db}"): "name the same database",
    }
    db.touch()
    for args, said in cases.items():
        proc = run_cli(*args)
        assert proc.returncode == 1, args
        [line] = proc.stderr.splitlines()
        assert line.startswith("migrate-db: ") and said in line, line
        assert "hunter2" not in proc.stderr + proc.stdout


def test_japanese_operators_read_the_command_in_japanese(tmp_path: Path) -> None:
    environ = {**os.environ, "LOCALE": "ja", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", "--help"],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0 and "コピー元のデータベース" in proc.stdout
    assert "--force" in proc.stdout and "混ざる" in proc.stdout


def test_a_flag_checksums_the_same_as_its_integer() -> None:
    # PostgreSQL reads a BOOLEAN back as True; SQLite keeps 1: the same row either way.
    first, second = TableSummary(), TableSummary()
    first.add(("g-0001", True, None, 1.5, 2**62))
    second.add(("g-0001", 1, None, 1.5, 2**62))
    assert (first.total, first.checksum) == (second.total, second.checksum)
    third = TableSummary()
    third.add(("g-0001", 1, None, 1.5, 2**62 + 1))
    assert third.total != first.total


# --- identity, not spelling; one transaction on the target (issue 31) -------------------------


def file_sum(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    [line] = proc.stderr.splitlines()
    assert line.startswith("migrate-db: "), line
    return line


async def test_the_same_sqlite_file_however_written_is_refused_untouched(tmp_path: Path) -> None:
    """``--force`` onto the source itself once dropped every table and said "Copied 0 rows"."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "bot.sqlite3"
    repo = await small_sqlite(db)
    rows = summaries(await summarize(repo))
    await repo.close()
    assert rows["games"][0] == 1 and rows["outbox"][0] > 0
    (folder / "link.sqlite3").symlink_to(db)
    os.link(db, folder / "hard.sqlite3")
    before = file_sum(db)
    source = f"sqlite:///{db}"
    spellings = [
        (f"sqlite:///{folder}/./bot.sqlite3", ROOT),
        (f"sqlite:///{folder}//bot.sqlite3", ROOT),
        (f"sqlite:///{folder}/../data/bot.sqlite3", ROOT),
        ("sqlite:///bot.sqlite3", folder),  # relative to where the command runs
        (f"sqlite:///{folder}/link.sqlite3", ROOT),
        (f"sqlite:///{folder}/hard.sqlite3", ROOT),
    ]
    for target, cwd in spellings:
        for args in (("--from", source, "--to", target), ("--from", target, "--to", source)):
            line = refused_line(run_cli(*args, "--force", cwd=cwd))
            assert "name the same database" in line, (target, line)
            assert file_sum(db) == before, f"{target} touched the database"
    check = SqliteRepository(db)
    await check.open()
    try:
        assert summaries(await summarize(check)) == rows
    finally:
        await check.close()


@pytest.mark.parametrize("target", ["sqlite:///", "sqlite://", "sqlite:////", "sqlite://:memory:"])
def test_a_target_with_no_file_is_refused(tmp_path: Path, target: str) -> None:
    """``--to sqlite:///`` once "succeeded" into a temporary database that vanished at exit."""
    db = tmp_path / "bot.sqlite3"
    db.touch()
    line = refused_line(run_cli("--from", f"sqlite:///{db}", "--to", target))
    assert "--to" in line and ("no SQLite file" in line or "in memory" in line), line


async def odd_source(path: Path) -> dict[str, tuple[int, int]]:
    """A database whose last table (``states``) holds a value no target stores: the copy fails
    after every other table has been written."""
    repo = await small_sqlite(path, games=2)
    await repo.conn.execute("UPDATE states SET version = version + 0.5")
    found = summaries(await summarize(repo))
    await repo.close()
    return found


async def test_a_failure_half_way_leaves_the_target_as_it_was(tmp_path: Path) -> None:
    assert schema()[-1].name == "states", "the failure is meant to come last"
    source = tmp_path / "odd.sqlite3"
    await odd_source(source)

    # A target that did not exist: still none afterwards (no empty database left behind).
    fresh = tmp_path / "new" / "bot.sqlite3"
    line = refused_line(run_cli("--from", f"sqlite:///{source}", "--to", f"sqlite:///{fresh}"))
    assert "a value the schema does not store" in line
    assert not fresh.exists() and not any(fresh.parent.iterdir())

    # An empty target: empty afterwards.
    empty = SqliteRepository(tmp_path / "empty.sqlite3")
    await empty.open()
    await empty.close()
    refused_line(
        run_cli("--from", f"sqlite:///{source}", "--to", f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    )
    empty = SqliteRepository(tmp_path / "empty.sqlite3")
    await empty.open()
    try:
        assert all(rows == 0 for rows, _ in summaries(await summarize(empty)).values())
    finally:
        await empty.close()

    # A target with rows replaced by --force: its old rows, all of them, afterwards.
    held = await small_sqlite(tmp_path / "held.sqlite3", games=1)
    old = summaries(await summarize(held))
    await held.close()
    line = refused_line(
        run_cli(
            "--from",
            f"sqlite:///{source}",
            "--to",
            f"sqlite:///{tmp_path / 'held.sqlite3'}",
            "--force",
        )
    )
    assert "a value the schema does not store" in line
    held = SqliteRepository(tmp_path / "held.sqlite3")
    await held.open()
    try:
        assert summaries(await summarize(held)) == old
    finally:
        await held.close()


def postgres_spellings(backend: Backend) -> list[str]:
    """One schema of the test server, written four ways (host name and its case, default port,
    scheme, an escaped database name, an extra parameter): the same database each time."""
    assert backend.schema is not None
    path = f"/test?search_path={backend.schema}"
    return [
        f"postgresql://postgres@127.0.0.1:5432{path}",
        f"postgresql://postgres@localhost{path}",
        f"postgres://postgres@127.0.0.1{path}&application_name=other",
        f"postgresql://postgres@LOCALHOST:5432/%74est?search_path={backend.schema}",
    ]


@ON_POSTGRES
async def test_the_same_postgresql_schema_however_written_is_refused_untouched(
    backend: Backend, tmp_path: Path
) -> None:
    assert backend.url == "postgresql://postgres@127.0.0.1:5432/test", "the spellings assume it"
    source = await small_sqlite(tmp_path / "one.sqlite3")
    target = await backend.open()
    await migrate_repositories(source, target)
    await source.close()
    before = summaries(await summarize(target))
    assert before["games"][0] == 1
    urls = postgres_spellings(backend)
    for first, second in itertools.permutations(urls, 2):
        line = refused_line(run_cli("--from", first, "--to", second, "--force"))
        assert "name the same database" in line, (first, second, line)
        assert summaries(await summarize(target)) == before, (first, second)


@ON_POSTGRES
async def test_a_failed_replacement_on_postgresql_keeps_the_old_rows(
    backend: Backend, tmp_path: Path
) -> None:
    source = await small_sqlite(tmp_path / "one.sqlite3")
    target = await backend.open()
    await migrate_repositories(source, target)
    await source.close()
    before = summaries(await summarize(target))
    await odd_source(tmp_path / "odd.sqlite3")
    line = refused_line(
        run_cli(
            "--from",
            f"sqlite:///{tmp_path / 'odd.sqlite3'}",
            "--to",
            target_url(backend),
            "--force",
        )
    )
    assert "a value the schema does not store" in line
    assert summaries(await summarize(target)) == before
    [(triggers,)] = await backend.execute(  # the ledger's refusals are still armed
        "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'roster_ledger'::regclass "
        "AND NOT tgisinternal"
    )
    assert triggers > 0


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://user:hunter2@[::1/db", "IPv6"),
        ("postgresql://user:hunter2@[::1", "IPv6"),
        ("postgresql://user:hunter2@host:notaport/db", "“notaport”"),
        ("postgresql://user:hunter2@host:70000/db", "“70000”"),
        ("postgresql://user@127.0.0.1:1/db?password=hunter2&sslmode=disable", "127.0.0.1:1/db"),
        ("postgresql://user@127.0.0.1:1/db?sslpassword=hunter2", "PostgreSQL at 127.0.0.1:1/db"),
        ("host:notaport", "not a path"),
        ("mysql://user:hunter2@host/db", "“mysql”"),
    ],
)
async def test_odd_urls_are_one_line_and_never_show_the_password(
    tmp_path: Path, url: str, says: str
) -> None:
    db = tmp_path / "bot.sqlite3"
    await (await small_sqlite(db)).close()
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    for args in (("--from", f"sqlite:///{db}", "--to", url), ("--from", url, "--to", other)):
        proc = run_cli(*args)
        line = refused_line(proc)
        assert says in line, line
        assert "hunter2" not in proc.stdout + proc.stderr
        if "hunter2" in url:  # the "Copying … → …" line shows where, the password masked
            assert proc.stdout.startswith("Copying ") and "***" in proc.stdout
