"""Every board stays readable where players see it: Discord shows an image about 550 px wide, so
the smallest text a renderer draws, scaled to that width, must be at least 9 px high.

Each ruleset the registry finds plays a seeded game with its demo players; its first board and a
late one are drawn in both languages while :func:`bot.render.fonts.recording` notes every font
size used. The league standings table is checked the same way.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

import pytest

from bot import registry
from bot.dice import NO_SECRET, DiceStream
from bot.render import fonts
from tests.render.pngs import open_png

SHOWN_WIDTH = 550  # what Discord gives an image in a channel
MIN_PX = 9
LANGS = ("en", "ja")
NAMES = {"A": "Aurora", "B": "ボレアリス", "C": "Cassiopeia", "D": "Dana"}
# Options and seats that put the most on a board (the dungeon with a full party).
OPTIONS: dict[str, dict[str, Any]] = {"dungeon": {"scenario": "crypt"}}
# Renderers being reworked elsewhere, e.g. {"tactics": "tactics board being reworked"}.
WIP: dict[str, str] = {}


def _uncached(module_name: str) -> None:
    """Forget every cached drawing in the renderer's module (its fonts would go unrecorded)."""
    module = sys.modules.get(module_name)
    for value in vars(module).values() if module else ():
        clear = getattr(value, "cache_clear", None)
        if callable(clear) and getattr(value, "__module__", None) == module_name:
            clear()


def _views(key: str) -> list[tuple[str, dict[str, Any]]]:
    """The first board of a seeded demo game and its last one (or one 30 steps in)."""
    spec = registry.get(key)
    engine = spec.engine
    assert spec.demo_player is not None
    ai = spec.demo_player.load()
    seats = list(spec.seats.names)
    rng = random.Random(7)
    secret = DiceStream(b"\x05" * 32, "secret") if spec.secret_stream else NO_SECRET
    state = engine.new_game("g", seats, OPTIONS.get(key, {}), DiceStream(b"\x07" * 32, "n"), secret)
    state, _ = engine.start_step(state, DiceStream(b"\x01" * 32, "p0"), secret)
    views = [("early", engine.view(state, None))]
    for step in range(1, 31):
        orders = {
            s: engine.parse(state, s, ai.choose(state, s, rng)) for s in engine.awaiting(state)
        }
        state, _ = engine.resolve(state, orders, DiceStream(bytes([step, 2]) * 16, "r"), secret)
        if engine.outcome(state).finished:
            break
        state, _ = engine.start_step(state, DiceStream(bytes([step, 3]) * 16, "p"), secret)
    views.append(("late", engine.view(state, None)))
    return views


def _board_cases() -> list[Any]:
    cases = []
    for key in sorted(registry.keys()):
        marks = [pytest.mark.xfail(reason=WIP[key], strict=False)] if key in WIP else []
        cases.append(pytest.param(key, id=key, marks=marks))
    return cases


def _assert_legible(draw: Callable[[], bytes], what: str) -> None:
    with fonts.recording() as log:
        png = draw()
    assert log.sizes and log.widths, f"{what}: drew no text through bot.render.fonts"
    assert open_png(png).width > 0
    shown = log.at_width(SHOWN_WIDTH)
    assert shown >= MIN_PX, (
        f"{what}: smallest font {log.smallest()} canvas px on a {max(log.widths)} px canvas "
        f"is {shown:.1f} px at {SHOWN_WIDTH} px wide (at least {MIN_PX})"
    )


@pytest.mark.parametrize("key", _board_cases())
def test_every_board_is_legible_at_discord_width(key: str) -> None:
    spec = registry.get(key)
    for moment, view in _views(key):
        for lang in LANGS:
            _uncached(type(spec.presenter).__module__.rsplit(".", 1)[0] + ".board")
            _assert_legible(
                lambda view=view, lang=lang: spec.presenter.render_board(view, lang, NAMES),
                f"{key} {moment} {lang}",
            )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rows", [1, 8])
def test_league_standings_are_legible(lang: str, rows: int) -> None:
    from cogs.league.board import render_standings
    from cogs.league.standings import Row

    table = [Row(str(i), 6, 3, 1, 2, 60, 52, 10, 27.0, 2.4) for i in range(rows)]
    names = {str(i): f"Player {i}" if lang == "en" else f"プレイヤー{i}" for i in range(rows)}
    _uncached("cogs.league.board")
    _assert_legible(
        lambda: render_standings(table, names, lang, title="Standings", subtitle="Season 3"),
        f"league {rows} rows {lang}",
    )


def test_the_recorder_sees_a_small_font() -> None:
    """The check can fail: a render with an 8 px label on a 550 px board is caught."""
    import io

    from PIL import Image, ImageDraw

    def tiny() -> bytes:
        fonts.record_canvas(550)
        img = Image.new("RGB", (550, 100))
        ImageDraw.Draw(img).text((5, 5), "A6", font=fonts.font(8))
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        return buf.getvalue()

    with pytest.raises(AssertionError, match="smallest font 8"):
        _assert_legible(tiny, "tiny")
