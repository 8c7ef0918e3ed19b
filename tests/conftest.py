"""Shared fixtures: a real RefereeBot on a real SQLite file, driven by SimCord's offline Discord."""

from __future__ import annotations

import gc
import logging
import os
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import simcord.interactions
from hypothesis import settings

from bot.config import Config
from bot.ruleset import RuleError
from bot.storage import SqliteRepository

if TYPE_CHECKING:
    from tests.seeded_demos import SeededDemos

# With PYTHONDONTWRITEBYTECODE=1 (set on this project's development machine) every worker, and every
# ``python -m bot`` the tests start (each CLI demo, each end-to-end start and restart, its board
# renderer), would compile every module of the project from source again: 6 of a worker's 8 s of
# collection, 0.3 s of each bot's start. The suite still writes nothing beside the sources: it keeps
# the bytecode in .pytest_cache/pycache (ignored by git; deleting it costs one slower run) and hands
# that place on to the processes it starts, the workers of ``-n auto`` included (they start after
# this file is imported). A developer who writes bytecode as usual is left alone.
if sys.dont_write_bytecode and sys.pycache_prefix is None:
    sys.pycache_prefix = str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache")
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# CI is repeatable: the same examples every run (.ci/run sets HYPOTHESIS_PROFILE=ci). A developer's
# run explores at random, and a counterexample it finds is fixed before anything else.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# Tests marked ``slow`` (every step of the whole-game conformance runs, whole AI games…) are
# skipped by the default run, which then takes minutes; PBP_RUN_SLOW=1 runs them too (.ci/run sets
# it), and so does choosing tests by marker (``-m slow``, ``-m "slow or not slow"``).
RUN_SLOW = "PBP_RUN_SLOW"


# The longest files first (seconds, measured on two cores), so that side by side (``-n auto``,
# ``--dist loadfile --no-loadscope-reorder``) no worker starts a minute-long file last while the
# others sit idle; the rest follow in collection order. A stale figure costs only balance.
LONGEST_FILES = {
    "tests/e2e/test_faults.py": 86,
    "tests/test_ruleset_whole_games.py": 75,
    "tests/e2e/test_shards.py": 65,
    "tests/test_cli.py": 57,
    "tests/e2e/test_discord_faults.py": 57,
    "tests/test_ruleset_conformance.py": 48,
    "tests/cogs/esper/test_privacy.py": 41,
    "tests/e2e/test_load.py": 38,
    "tests/test_migrate_db.py": 33,
    "tests/cogs/apeiron/test_flow.py": 32,
    "tests/cogs/league/test_league_demo.py": 27,
    "tests/e2e/test_shards_rulesets.py": 26,
    "tests/test_record_fixtures.py": 23,
    "tests/cogs/apeiron/test_server_pack.py": 23,
    "tests/test_post_length.py": 22,
    "tests/cogs/league/test_flow.py": 21,
    "tests/cogs/esper/test_ai.py": 20,
    "tests/test_purity.py": 20,
    "tests/test_limits.py": 20,
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: -LONGEST_FILES.get(item.nodeid.split("::")[0], 0))  # stable
    if os.environ.get(RUN_SLOW, "").strip() not in ("", "0") or config.option.markexpr:
        return
    skip = pytest.mark.skip(reason=f"slow: {RUN_SLOW}=1 or -m slow runs it (CI does)")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers more than the cores. The end-to-end tests spend much of their time
    waiting on the bot's processes and sockets; on two cores four workers ran the suite in 376 s,
    three in 389, two in 543 (README, Development)."""
    return (os.cpu_count() or 1) + 2


class LostTaskErrors(logging.Handler):
    """asyncio's "Task exception was never retrieved": a task of the bot failed and nobody awaited
    it (an outbox drain outliving its database, say). Such a log line is emitted whenever the
    garbage collector finds the task, often inside an unrelated test, and on Python 3.11 inside
    an ``ast.parse`` it even breaks that test (cpython#106905: the traceback's formatting parses
    again); so each worker collects them and fails its session at the end, naming the tasks."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lost: list[str] = []
        self.test = "(before the first test)"  # the test running, a clue to whose task it was

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("Task exception was never retrieved"):
            error = (
                f"\n{record.exc_info[0].__name__}: {record.exc_info[1]}" if record.exc_info else ""
            )
            self.lost.append(f"{message}{error}\n(found during {self.test})")


LOST_TASKS = LostTaskErrors()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    LOST_TASKS.test = item.nodeid


@pytest.fixture(scope="session", autouse=True)
def no_lost_task_errors() -> Iterator[None]:
    handler = LOST_TASKS
    logging.getLogger("asyncio").addHandler(handler)
    yield
    gc.collect()  # the tasks still unreachable now are reported too
    logging.getLogger("asyncio").removeHandler(handler)
    assert handler.lost == [], "tasks failed unawaited:\n" + "\n\n".join(handler.lost)


class SimClock:
    """The table's clock follows SimCord's virtual time once the environment is running."""

    def __init__(self) -> None:
        self.env = None

    def __call__(self) -> float:
        return self.env.now().timestamp() if self.env is not None else time.time()


def make_config(**overrides: object) -> Config:
    values = {
        "token": None,
        "database_url": "sqlite://:memory:",
        "dev_guild_id": None,
        "default_language": "en",
        "api_base": None,
        "gateway_url": None,
        "log_level": "INFO",
    }
    values.update(overrides)
    return Config(**values)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def seeded_demos(tmp_path_factory: pytest.TempPathFactory) -> SeededDemos:
    """The seeded demos (seed 7) of every ruleset, each played once for the run, whichever
    modules and workers read it (tests/seeded_demos.py)."""
    from tests.seeded_demos import SeededDemos, shared_root

    return SeededDemos(shared_root(tmp_path_factory.getbasetemp()))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
def sim_clock() -> SimClock:
    return SimClock()


@pytest.fixture
async def make_bot(db_path: Path, sim_clock: SimClock) -> AsyncIterator[Callable[..., object]]:
    """Bots on the test's database file; each one's repository is closed when the test ends.

    SimCord detaches a bot at shutdown (and at ``restart_bot``) without closing it, so its
    SQLite connections stayed open until the garbage collector found them, often after the
    test's event loop had closed: aiosqlite's threads then died with "Event loop is closed".
    This teardown runs after SimCord's (``simcord_env`` depends on this fixture), once no task
    of the bot can use the repository any more.
    """
    from bot.client import RefereeBot

    bots: list[RefereeBot] = []

    def factory(**kwargs: object):
        bot = RefereeBot(make_config(), repo=SqliteRepository(db_path), clock=sim_clock, **kwargs)
        bots.append(bot)
        return bot

    yield factory
    for bot in bots:
        await bot.outbox.stop()
        bot.outbox.renderer.close()
        await bot.repo.close()


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()


@pytest.fixture
def simcord_env(simcord_env):
    """SimCord's environment, where a refusal (a RuleError answered with its reason) is no failure.

    SimCord reports every exception that reaches the command tree's ``on_error``; ours answers
    RuleErrors with a localized reason on purpose, so only the other errors fail the test.
    """
    yield simcord_env
    unexpected = [
        e for e in simcord_env.errors if not isinstance(getattr(e, "original", e), RuleError)
    ]
    if unexpected:
        raise ExceptionGroup("bot raised unexpected error(s) during the test", unexpected)


@pytest.fixture
def discord_locale(monkeypatch):
    """Give users a Discord client locale (SimCord sends every interaction as en-US)."""
    locales: dict[int, str] = {}
    build = simcord.interactions.base_payload

    def base_payload(backend, **kwargs):
        record, payload = build(backend, **kwargs)
        if kwargs["user_id"] in locales:
            payload["locale"] = locales[kwargs["user_id"]]
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)

    def set_locale(actor, locale: str) -> None:
        locales[actor.id] = locale

    return set_locale
