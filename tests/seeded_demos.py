"""The seeded demos several test modules read, each played once per run of the suite.

``bot.demo.play`` with seed 7 is read by tests/test_record_fixtures.py (its boards and
transcript, byte for byte), tests/test_board_descriptions.py (the outbox's boards),
tests/test_post_length.py (the turn posts as sent, the match record),
tests/test_japanese_transcripts.py and tests/test_japanese_register.py (the Japanese
transcripts). Each (ruleset, language, seat count) was played once per module, some 40 games a
run; a seeded demo is the same game every time, so each is now played once and read by all.

Side by side (``-n auto``) every worker is a process of its own: the games are kept in a folder
of the run's temporary directory that all its workers share (``pytest-N``, the parent of each
worker's ``popen-gwN``), each behind a lock file, so the first worker to ask plays a game while
another that asks for it waits and then reads it. Nothing is kept from one run to the next: a
run always plays the code it tests. Readers must not change what they are handed.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import demo, registry
from bot.storage import OutboxRow

SEED = 7


@dataclass(frozen=True)
class SeededDemo:
    """One seeded demo, played: its files, its database and what its sink posted."""

    ruleset: str
    lang: str
    players: int
    folder: Path  # the demo's ``out``: its boards and its transcript, nothing else

    @property
    def db(self) -> Path:
        """The demo's SQLite database (its outbox, every row's latest payload)."""
        return self.folder.parent / "demo.sqlite3"

    @property
    def transcript(self) -> str:
        return (self.folder / f"transcript-{self.lang}.txt").read_text("utf-8")

    @property
    def record(self) -> dict[str, Any]:
        """The match record, as ``/game export`` writes it."""
        record: dict[str, Any] = json.loads(self._record_path.read_text("utf-8"))
        return record

    @property
    def posted(self) -> list[tuple[str, dict[str, Any]]]:
        """Each outbox row the demo's sink posted, in order, as it was when posted: (kind,
        payload). A post edited later keeps its first version here (the database holds the
        latest)."""
        rows = json.loads(self._posted_path.read_text("utf-8"))
        return [(row["kind"], row["payload"]) for row in rows]

    @property
    def _record_path(self) -> Path:
        return self.folder.parent / "match.json"

    @property
    def _posted_path(self) -> Path:
        return self.folder.parent / "posted.json"


def seat_count(ruleset: str, players: int | None) -> int:
    """How many seats ``bot.demo.play`` seats for ``players`` (None: the ruleset's demo count)."""
    return players if players is not None else len(registry.get(ruleset).seats.for_demo())


class SeededDemos:
    """The seeded demos of one run, kept under ``root`` (a folder all its workers share)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._known: dict[tuple[str, str, int], SeededDemo] = {}

    def __call__(self, ruleset: str, lang: str, players: int | None = None) -> SeededDemo:
        seats = seat_count(ruleset, players)
        key = (ruleset, lang, seats)
        if key not in self._known:
            self._known[key] = self._played(ruleset, lang, seats)
        return self._known[key]

    def _played(self, ruleset: str, lang: str, seats: int) -> SeededDemo:
        self.root.mkdir(parents=True, exist_ok=True)
        name = f"{ruleset}-{lang}-{seats}p-seed{SEED}"
        final = self.root / name
        with _locked(self.root / f"{name}.lock"):
            if not final.exists():  # a folder is renamed into place only once whole
                building = self.root / f"{name}.partial"
                shutil.rmtree(building, ignore_errors=True)
                _play(ruleset, lang, seats, building)
                building.rename(final)
        return SeededDemo(ruleset, lang, seats, final / "out")


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _play(ruleset: str, lang: str, seats: int, folder: Path) -> None:
    """Play the demo into ``folder``: ``out/`` (boards, transcript), the database, the match
    record, and ``posted.json`` (the rows the sink posted, in order, each as it was then)."""
    folder.mkdir(parents=True)
    posted: list[dict[str, Any]] = []
    post = demo.FileSink._post

    async def recording(self: demo.FileSink, row: OutboxRow) -> None:
        posted.append({"kind": row.kind, "payload": json.loads(json.dumps(row.payload))})
        await post(self, row)

    game = demo.play(
        ruleset,
        out=folder / "out",
        seed=SEED,
        lang=lang,
        record=folder / "match.json",
        db=folder / "demo.sqlite3",
        players=seats,
    )
    demo.FileSink._post = recording  # type: ignore[method-assign]
    try:
        # In a thread of its own, so that an async test may ask too (its loop is running here).
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, game).result()
    finally:
        demo.FileSink._post = post  # type: ignore[method-assign]
    (folder / "posted.json").write_text(json.dumps(posted, ensure_ascii=False), "utf-8")


def shared_root(basetemp: Path) -> Path:
    """Where a run keeps its seeded demos: beside the workers' own folders when side by side
    (``pytest-N/popen-gw0``: ``pytest-N``), else in the run's folder."""
    if os.environ.get("PYTEST_XDIST_WORKER") and basetemp.name.startswith("popen-"):
        return basetemp.parent / "seeded-demos"
    return basetemp / "seeded-demos"
