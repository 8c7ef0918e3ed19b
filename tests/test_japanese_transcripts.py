"""Japanese the whole way through (issue 35): the Japanese transcript of every seeded demo (the
channel posts and every seat's DMs) has no English word of three letters or more, outside ids,
squares, digests, the dice proofs and the few words listed here with the reason each stays."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.seeded_demos import SEED, SeededDemos

FIXTURE = json.loads((Path(__file__).parent / "data" / "demo-seed7.sha256.json").read_text("utf-8"))
RULESETS = ("arena", "tactics", "dungeon", "apeiron", "esper")

# What must stay in English, and why.
ALLOWED = {
    # The Esper seed's own words: its sides are GOOD, EVIL and SPECIAL, its powers ESP.
    "GOOD": "esper seed",
    "EVIL": "esper seed",
    "SPECIAL": "esper seed",
    "ESP": "esper seed",
}
# Text that shows English input on purpose: the order help says English orders are read too.
ENGLISH_EXAMPLES = (
    "`forward left`",  # arena: 「…`forward left` のように文章で返信してください」
    "English: `move C4 attack #6`.",  # the dungeon's help, its English form
)
# The dice proofs (a field and its continuation lines), and the demo's own marks (not the bot's).
PROOFS = re.compile(r"^(\[ダイスの証明\]|次 |シード |\(board: )")
DIGEST = re.compile(r"[0-9a-f]{6,}…?")  # seeds, salts, receipts, commitments
ID = re.compile(r"\b(?:[a-z]{1,2}\d{2,}|g-\d{4}|P\d(?:-\d)?)\b")  # u06, i02, k06, g-0001, P3-2


@pytest.fixture(scope="module")
def transcripts(seeded_demos: SeededDemos) -> dict[str, str]:
    """One Japanese demo per ruleset (seed 7, the fixture's player counts), played once for the
    run (tests/seeded_demos.py)."""
    assert FIXTURE["seed"] == SEED
    players = FIXTURE.get("players", {})
    return {r: seeded_demos(r, "ja", players.get(r)).transcript for r in RULESETS}


def english_words(transcript: str) -> dict[str, str]:
    """Each English word of three letters or more, with the first line it is on."""
    found: dict[str, str] = {}
    for line in transcript.splitlines():
        if PROOFS.match(line):
            continue
        text = line
        for example in ENGLISH_EXAMPLES:
            text = text.replace(example, "")
        text = ID.sub("", DIGEST.sub("", text))
        for word in re.findall(r"[A-Za-z]{3,}", text):
            if word not in ALLOWED:
                found.setdefault(word, line[:160])
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_english_shows_through(transcripts: dict[str, str], ruleset: str) -> None:
    assert english_words(transcripts[ruleset]) == {}


def test_the_check_finds_english() -> None:
    assert english_words("命令を封印しました：`forward right`") == {
        "forward": "命令を封印しました：`forward right`",
        "right": "命令を封印しました：`forward right`",
    }
    assert english_words("[ダイスの証明] 次 players `a00f10d300e7…`\nu06 E1 g-0001 P3-2 EVIL") == {}
