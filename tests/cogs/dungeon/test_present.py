"""The dungeon's words: every event the engine emits reads as a whole sentence in both languages
(no placeholder left unfilled), the tallies and the DM lines of each step, the co-op outcome."""

from __future__ import annotations

import random
import re

import pytest

from bot.dice import DiceStream
from bot.i18n import has
from bot.ruleset import Outcome
from cogs.dungeon import players, present, rules

NAMES = {"A": "Aurora", "B": "ボレアリス", "C": "Cirrus"}
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def games(count: int = 12):
    """Steps of demo-player games: (state before, events) for each."""
    for seed in range(count):
        rng = random.Random(seed)
        scenario = ("crypt", "frozen-gallery")[seed % 2]
        state = rules.new_game(
            "g",
            ["A", "B", "C"][: 1 + seed % 3],
            {"scenario": scenario},
            DiceStream(bytes([seed]) * 32, "s"),
        )
        for step in range(1, 200):
            if rules.outcome(state).finished:
                break
            state, _ = rules.start_step(state, DiceStream(bytes([seed, step % 256]) * 16, "p"))
            before = state
            orders = {
                s: rules.parse(state, s, players.choose(state, s, rng))
                for s in rules.awaiting(state)
            }
            state, events = rules.resolve(
                state, orders, DiceStream(bytes([seed, step % 256, 3]) * 11, "r")
            )
            yield before, state, [e.to_json() for e in events]


@pytest.fixture(scope="module")
def played():
    return list(games())


def test_every_event_reads_whole_in_both_languages(played) -> None:
    kinds = set()
    for _, _, events in played:
        for lang in ("en", "ja"):
            for line in present.PRESENTER.event_lines(events, lang, NAMES):
                assert not PLACEHOLDER.search(line), line
        kinds |= {e["type"] for e in events}
    # the games did show the interesting things
    assert {
        "picks",
        "moved",
        "attack",
        "killed",
        "door_opened",
        "monster_tie",
        "tie_chosen",
    } <= kinds
    spoken = {k for k in kinds if k == "picks" or has(f"dungeon.event.{k}")}
    assert spoken == kinds


def test_dm_lines_for_each_step(played) -> None:
    seen = set()
    for before, _, _ in played:
        for seat in rules.awaiting(before):
            lines = present.PRESENTER.private_lines(rules.view(before, seat), seat, "ja")
            assert lines and not any(PLACEHOLDER.search(x) for x in lines)
            seen.add(before.phase)
    assert seen == {"pick", "act", "tie"}


def test_tallies_and_step_names(played) -> None:
    _, after, _ = played[5]
    view = rules.view(after, None)
    fields = present.PRESENTER.tallies(view, "en", NAMES)
    assert fields[0][0].startswith("A · Aurora")
    assert "Round" in present.PRESENTER.step_name(view, "en", 1)
    assert "ラウンド" in present.PRESENTER.step_name(view, "ja", 1)


def test_the_outcome_is_the_partys_not_a_seats() -> None:
    words = present.PRESENTER.outcome_text
    assert "party" in words(Outcome.cooperative("party"), "en", {}, "rules")
    assert "モンスター" in words(Outcome.cooperative("monsters"), "ja", {}, "rules")
    assert "leaves" in words(Outcome.cooperative("monsters"), "en", {}, "resign")
