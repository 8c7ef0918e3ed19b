"""``python -m bot demo <ruleset>``: a whole game between built-in AI players, offline.

The demo drives the real table on a real SQLite file: challenge, accept, sealed orders, committed
dice, resolution, the outbox. Instead of Discord, a file sink "posts" each outbox message: channel
messages go to the transcript with their board PNG written beside it, DMs to the transcript of the
seat they were sent to. The match record it can write is the same ``/game export`` produces.

Each run starts from a clean folder: the boards and transcripts an earlier demo left in it are
removed first (a shorter game would otherwise leave the longer one's last boards beside its own),
and the command line says how many. Without ``--out`` every ruleset, seed and language has its
own folder under ``demo-out/`` (:func:`default_out`).
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import itertools
import json
import random
import secrets
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import messages, registry
from bot.i18n import t
from bot.ruleset import CliCommand, DemoPlayer
from bot.storage import OutboxRow, SqliteRepository
from bot.table import Player, Table

# The first two play every two-seat demo (records pinned by the tests name them); the rest seat
# the demos of larger tables (Esper's 5 to 11).
DEMO_PLAYERS = {
    "en": (
        "Aurora", "Borealis", "Cirrus", "Delta", "Ember", "Fjord",
        "Gale", "Harbor", "Iris", "Juniper", "Kestrel",
    ),
    "ja": (
        "アウローラ", "ボレアリス", "シーラス", "デルタ", "エンバー", "フィヨルド",
        "ゲイル", "ハーバー", "アイリス", "ジュニパー", "ケストレル",
    ),
}  # fmt: skip
MAX_TURNS = (
    2000  # table steps; an Esper game with its combats and base: 1459 at most in 210 AI games
)
DEMO_ROOT = Path("demo-out")
# What a demo writes into its folder (a board per posted version, a transcript per language):
# the only files a later demo removes there.
BOARD_GLOB = "*-v[0-9][0-9][0-9].png"
TRANSCRIPT_GLOB = "transcript-*.txt"


def shared_demos() -> dict[str, CliCommand]:
    """The demos a shared cog adds beside the rulesets' games (``python -m bot demo league``).

    A package of the ``cogs`` folder that discord.py loads (:func:`bot.registry.extensions`) may
    export ``DEMOS``, a tuple of :class:`~bot.ruleset.CliCommand`: each is ``demo <name>``, its
    ``module`` offering ``add_arguments(parser)`` and ``run(args) -> int`` as a ruleset's tools
    do. The framework names none of them (it imports no ``cogs`` module by name)."""
    found: dict[str, CliCommand] = {}
    games = set(registry.rulesets())  # a ruleset's own demo keeps its name
    for name in registry.extensions():
        for command in getattr(importlib.import_module(name), "DEMOS", ()):
            if isinstance(command, CliCommand) and command.name not in games:
                found.setdefault(command.name, command)
    return found


def default_out(ruleset: str, seed: int | None, lang: str) -> Path:
    """The folder of a demo run without ``--out``: one per ruleset, seed and language, so that
    games of different rulesets (all ``g-0001``) never share a folder."""
    return DEMO_ROOT / (f"{ruleset}-seed{seed}-{lang}" if seed is not None else f"{ruleset}-{lang}")


def clear_earlier(out: Path) -> int:
    """Remove the boards and transcripts of an earlier demo from ``out``; how many were removed.
    Nothing else in the folder is touched (a record written there, the user's own files)."""
    if not out.is_dir():
        return 0
    stale = [*out.glob(BOARD_GLOB), *out.glob(TRANSCRIPT_GLOB)]
    for path in stale:
        path.unlink(missing_ok=True)
    return len(stale)


def unwritable(lang: str, exc: OSError, out: Path) -> str:
    """The one line a demo says when it cannot write its files (no permission, a full disk, a
    name too long…): where, and the system's reason."""
    where = exc.filename or out
    return t(lang, "cli.demo.unwritable", path=where, reason=exc.strerror or type(exc).__name__)


@dataclass
class DemoResult:
    game_id: str
    turns: int
    winner: str | list[str] | None  # a seat, "draw", a co-op result, or several seats
    boards: list[Path] = field(default_factory=list)
    transcript: Path | None = None
    record: Path | None = None
    cleared: int = 0  # files of an earlier demo removed from the folder first
    # What the players read, as sent (for bench/player_side.py's figures): each DM as
    # (recipient's user id, its text), and each channel post's description (its last version).
    dms: list[tuple[int, str]] = field(default_factory=list)
    posts: list[str] = field(default_factory=list)


class FileSink:
    """Posts outbox rows to files instead of Discord (same payloads, same rendering).

    The transcript reads as the channel would: a post a run of steps edited (a combat round)
    shows its last version, where the post first appeared, marked with how often it changed;
    every version's board is written."""

    def __init__(self, table: Table, out: Path, lang: str) -> None:
        self.table = table
        self.out = out
        self.lang = lang
        self.blocks: list[list[str]] = []
        self._posts: dict[int, int] = {}  # outbox id of a channel post -> its block
        self._edits: dict[int, int] = {}  # outbox id of a channel post -> refreshes seen
        self.boards: list[Path] = []
        self.dms: list[tuple[int, str]] = []
        self.descriptions: dict[int, str] = {}  # outbox id of a channel post -> its description

    @property
    def lines(self) -> list[str]:
        return [line for block in self.blocks for line in block]

    async def drain(self) -> None:
        while True:
            async with self.table.repo.transaction() as tx:
                rows = await tx.pending_outbox(float("inf"))
            if not rows:
                return
            for row in rows:
                await self._post(row)
                async with self.table.repo.transaction() as tx:
                    await tx.mark_sent(row.id, row.id, row.target_id, self.table.clock())

    async def _post(self, row: OutboxRow) -> None:
        payload = row.payload
        if row.kind == "edit":
            if "refresh" in payload and row.ref_id in self._posts:
                # A refresh (the post's next version) replaces its block; progress edits matter
                # on Discord, not in a transcript.
                self._edits[row.ref_id] = self._edits.get(row.ref_id, 0) + 1
                block = await self._channel_block(row, payload["refresh"], self._edits[row.ref_id])
                self.blocks[self._posts[row.ref_id]] = block
            return
        if row.kind == "dm":
            # composed as the outbox sends it: an acknowledgement it carries reads first
            text = str(messages.compose(payload)["content"] or "")
            self.dms.append((int(row.target_id or 0), text))
            self.blocks.append([f"--- DM → {row.target_id} ---", text, ""])
            return
        self._posts[row.id] = len(self.blocks)
        self.blocks.append(await self._channel_block(row, payload, 0))

    async def _channel_block(
        self, row: OutboxRow, payload: dict[str, Any], edits: int
    ) -> list[str]:
        composed = messages.compose(payload)
        title = (composed["embed"] or {}).get("title", "#channel")
        edited = f" ({t(self.lang, 'demo.edited', count=edits)})" if edits else ""
        lines = [f"=== {title} ==={edited}"]
        if composed["content"]:
            lines.append(composed["content"])
        embed = composed["embed"] or {}
        self.descriptions[row.ref_id if row.kind == "edit" and row.ref_id else row.id] = str(
            embed.get("description") or ""
        )
        if embed.get("description"):
            lines.append(embed["description"])
        for f in embed.get("fields", []):
            lines.append(f"[{f['name']}] {f['value']}")
        board = payload.get("board")
        if board and row.game_id:
            game = await self.table.game(row.game_id)
            present = registry.get(game.ruleset).presenter
            png = await asyncio.to_thread(
                present.render_board, board["view"], payload["lang"], board["names"]
            )
            path = self.out / f"{row.game_id}-v{board['version']:03d}.png"
            path.write_bytes(png)
            self.boards.append(path)
            lines.append(f"(board: {path.name})")
        lines.append("")
        return lines


def demo_entropy(seed: int | None) -> Callable[[int], bytes]:
    """Seeds and salts for the demo: secret as in a real game, or derived from ``--seed``.

    Derived seeds are still committed before use and revealed after, so ``verify`` checks a
    seeded demo exactly like a real game; they only make the dice (and so the game) repeatable.
    """
    if seed is None:
        return secrets.token_bytes
    drawn = itertools.count()

    def derived(size: int) -> bytes:
        return hashlib.sha256(f"pbp-demo:{seed}:{next(drawn)}".encode()).digest()[:size]

    return derived


class DemoError(ValueError):
    """A demo that cannot be played as asked (``key``: the message, ``params``: its values)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = key, params


def _counts(spec: Any) -> str:
    counts = spec.seats.allowed()
    return str(counts[0]) if len(counts) == 1 else f"{min(counts)}–{max(counts)}"


async def play(
    ruleset: str,
    *,
    out: Path,
    seed: int | None = None,
    lang: str = "en",
    record: Path | None = None,
    db: Path | None = None,
    players: int | None = None,
) -> DemoResult:
    """``players``: how many seats, where the ruleset takes several counts (its demo's default
    otherwise)."""
    spec = registry.get(ruleset)
    if spec.demo_player is None:
        raise ValueError(f"the {ruleset} ruleset has no demo players")
    seats = spec.seats.for_demo() if players is None else spec.seats.names[:players]
    if len(seats) not in spec.seats.allowed() and players is not None:
        raise DemoError("cli.demo.players", players=players, allowed=_counts(spec))
    ai: DemoPlayer = spec.demo_player.load()
    cleared = clear_earlier(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    clock_now = [1_800_000_000.0]  # a fixed fake clock keeps the transcript reproducible

    def clock() -> float:
        return clock_now[0]

    with tempfile.TemporaryDirectory() as tmp:
        repo = SqliteRepository(db or Path(tmp) / "demo.sqlite3")
        await repo.open()
        try:
            table = Table(repo, clock=clock, default_language=lang, entropy=demo_entropy(seed))
            sink = FileSink(table, out, lang)
            names = DEMO_PLAYERS.get(lang, DEMO_PLAYERS["en"])
            seated = [Player(1000 + i, names[i % len(names)]) for i in range(len(seats))]
            game = await table.challenge(
                ruleset, guild_id=None, channel_id=1, players=seated, turn_seconds=None
            )
            for player in seated[1:] or seated:  # everyone invited accepts (alone: oneself)
                game = await table.accept(game.id, player.user_id)
            await sink.drain()
            for _ in range(MAX_TURNS):
                game = await table.game(game.id)
                if game.status != "active":
                    break
                state = spec.engine.from_json(game.state or {})
                for seat in spec.engine.awaiting(state):
                    text = ai.choose(state, seat, rng)
                    await table.submit(game.id, game.user_of(seat), text, source="demo")
                clock_now[0] += 60
                await sink.drain()
            game = await table.game(game.id)
            transcript = out / f"transcript-{lang}.txt"
            header = t(lang, "demo.header", ruleset=spec.presenter.title(lang), game=game.id)
            transcript.write_text(header + "\n\n" + "\n".join(sink.lines), "utf-8")
            winner = table.outcome(game).winner
            result = DemoResult(
                game.id,
                game.step,
                winner,
                sink.boards,
                transcript,
                cleared=cleared,
                dms=sink.dms,
                posts=list(sink.descriptions.values()),
            )
            if record is not None:
                exported = await table.export(game.id)
                record.parent.mkdir(parents=True, exist_ok=True)
                record.write_text(json.dumps(exported, ensure_ascii=False, indent=1), "utf-8")
                result.record = record
            return result
        finally:
            await repo.close()
