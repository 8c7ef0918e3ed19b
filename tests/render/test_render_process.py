"""Boards rendered in a worker process (``python -m bot``): the same PNG as in-process, a worker
that outlives a SIGKILLed bot leaves by itself instead of lingering as an orphan, and what a
worker imports to render leaves discord.py out."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from bot.dice import ScriptedDice
from bot.rendering import BoardRenderer, render_board
from cogs.arena import rules

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"A": "Aurora", "B": "ボレアリス"}


def arena_view() -> dict:
    """The public view of an arena game's first turn (what a turn's payload carries)."""
    state = rules.new_game("g-0001", rules.SEATS, {}, ScriptedDice([]))
    state, _ = rules.start_step(state, ScriptedDice([3, 4, 5, 6, 1, 2]))
    return rules.view(state, None)


async def test_a_worker_process_renders_the_same_board_as_a_thread() -> None:
    view = arena_view()
    renderer = BoardRenderer(processes=1)
    try:
        png = await renderer.render("arena", view, "ja", NAMES)
    finally:
        renderer.close()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png == render_board("arena", view, "ja", NAMES)


def test_the_worker_leaves_when_the_bot_is_killed() -> None:
    script = textwrap.dedent(
        """
        import asyncio, multiprocessing
        from bot.rendering import BoardRenderer
        from tests.render.test_render_process import NAMES, arena_view

        async def main():
            renderer = BoardRenderer(processes=1)
            await renderer.render("arena", arena_view(), "en", NAMES)
            print(*(p.pid for p in multiprocessing.active_children()), flush=True)
            await asyncio.sleep(600)

        asyncio.run(main())
        """
    )
    bot = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert bot.stdout is not None
        workers = [int(pid) for pid in bot.stdout.readline().split()]
        assert workers
    finally:
        bot.send_signal(signal.SIGKILL)
        bot.wait()
    deadline = time.monotonic() + 10
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in workers if Path(f"/proc/{pid}").exists() and not _zombie(pid)]
    assert alive == [], "render workers outlived the bot"


def _zombie(pid: int) -> bool:
    try:
        return " Z " in Path(f"/proc/{pid}/stat").read_text().split(")", 1)[1][:4]
    except FileNotFoundError:
        return True


def test_what_a_worker_imports_to_render_leaves_discord_out() -> None:
    """A worker imports bot.rendering to run render_board (and renders through the registry):
    discord.py and aiohttp, a third of a worker's start, stay out."""
    script = (
        "import sys\n"
        "from bot.rendering import render_board\n"
        "from tests.render.test_render_process import NAMES, arena_view\n"
        "render_board('arena', arena_view(), 'en', NAMES)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'discord', 'aiohttp'}))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr
