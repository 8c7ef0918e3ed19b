"""Records made before a change keep replaying the same: one real export of each ruleset (a
seeded demo game) and the exact ``python -m bot replay --events`` output it gave when it was made;
and a seeded demo draws byte-identical boards and writes the same transcript as it did then.

If a ruleset's rules or looks change on purpose, the fixture is regenerated in the same commit and
the commit says why; otherwise a difference here is a regression.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bot.__main__ import main
from tests.seeded_demos import SEED, SeededDemos

RECORDS = Path(__file__).parent / "data" / "records"
FIXTURES = sorted(p.stem for p in RECORDS.glob("*.json"))


@pytest.mark.parametrize("name", FIXTURES)
def test_replay_output_is_unchanged(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / f"{name}.json"), "--events"]) == 0
    expected = (RECORDS / f"{name}.replay.jsonl").read_text("utf-8")
    assert capsys.readouterr().out == expected


@pytest.mark.parametrize("name", FIXTURES)
def test_record_still_verifies(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(RECORDS / f"{name}.json")]) == 0
    assert "FAILED" not in capsys.readouterr().out


def test_every_ruleset_has_a_fixture() -> None:
    rulesets = {json.loads((RECORDS / f"{n}.json").read_text("utf-8"))["ruleset"] for n in FIXTURES}
    assert {"arena", "tactics", "dungeon", "apeiron", "esper"} <= rulesets


DEMO_OUTPUTS = json.loads((RECORDS.parent / "demo-seed7.sha256.json").read_text("utf-8"))


@pytest.mark.parametrize(
    ("ruleset", "lang"),
    [(r, lang) for r, by_lang in sorted(DEMO_OUTPUTS["outputs"].items()) for lang in by_lang],
)
def test_a_seeded_demo_draws_the_same_boards(
    ruleset: str, lang: str, seeded_demos: SeededDemos
) -> None:
    """The demo's own folder, byte for byte (the run's one play of it: tests/seeded_demos.py)."""
    assert DEMO_OUTPUTS["seed"] == SEED
    players = DEMO_OUTPUTS.get("players", {}).get(ruleset)  # a ruleset's count, where pinned
    folder = seeded_demos(ruleset, lang, players).folder
    made = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}
    assert made == DEMO_OUTPUTS["outputs"][ruleset][lang]
