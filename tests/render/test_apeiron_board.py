"""The Apeiron board: a PNG of the expected size for every step of a demo game, the face-down
panels drawn as such (no layout of a hidden panel reaches the public board), a seat's private
deployment board showing its own row, the last move and attack drawn, in both languages."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.dice import DiceStream
from cogs.apeiron import ai, board, rules

NAMES = {"A": "Aurora", "B": "ボレアリス"}


def _game(seed: int = 5) -> list[tuple[str, dict]]:
    secret = DiceStream(bytes([seed]) * 32, "secret")
    state = rules.new_game(
        "g", rules.SEATS, {"events": ["arrow", "poison"]}, DiceStream(b"\x07" * 32, "n"), secret
    )
    state, _ = rules.start_step(state, DiceStream(b"\x01" * 32, "p"), secret)
    rng = random.Random(seed)
    views = []
    for step in range(1, 300):
        if state.step == rules.DEPLOY_STEP:
            views.append(("deploy-A", rules.view(state, "A")))
            views.append(("deploy-public", rules.view(state, None)))
        orders = {s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.awaiting(state)}
        state, _ = rules.resolve(
            state, orders, DiceStream(bytes([step % 256, 2]) * 16, "r"), secret
        )
        views.append((f"step{step}", rules.view(state, None)))
        if rules.outcome(state).finished:
            break
        state, _ = rules.start_step(state, DiceStream(bytes([step % 256, 3]) * 16, "p"), secret)
    return views


def _pixel(png: bytes, x: float, y: float) -> tuple[int, int, int]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.getpixel((round(x), round(y)))  # type: ignore[return-value]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_boards_of_a_whole_game(lang: str) -> None:
    views = _game()
    for name, view in views[:: max(1, len(views) // 8)] + views[-1:]:
        png = board.render(view, lang, NAMES)
        image = Image.open(io.BytesIO(png))
        assert image.size == board.board_size(), name


def test_face_down_panels_show_no_terrain_and_the_own_row_does() -> None:
    views = dict(_game())
    public, private = views["deploy-public"], views["deploy-A"]
    assert public["panels"][2] is None  # position 3: A's row, face down
    # Position 3 is the top-left panel: its middle square is hidden-grey on the public board,
    # and the panel's own terrain colour on A's private board.
    x, y = board.centre((1, 1))
    hidden = _pixel(board.render(public, "en", NAMES), x, y + 20)
    shown = _pixel(board.render(private, "en", NAMES), x, y + 20)
    kind = private["you"]["row"][0]["kind"]
    assert hidden != shown
    assert max(abs(a - b) for a, b in zip(shown, board.KIND_COLOUR[kind], strict=True)) < 40 or (
        private["you"]["row"][0]["cells"][1][1] != "."
    )


def test_the_last_move_and_attack_are_drawn() -> None:
    views = [v for _, v in _game() if (v.get("trail") or {}).get("attacks")]
    assert views, "the demo game has an attack"
    view = views[0]
    without = dict(view)
    without["trail"] = {"seat": view["trail"]["seat"], "moves": [], "attacks": []}
    assert board.render(view, "en", NAMES) != board.render(without, "en", NAMES)
