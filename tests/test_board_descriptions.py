"""Every board the seeded demos post carries its description (the attachment's alt text): in
the channel's language, naming the step it shows (or that the game is over), within Discord's
1,024 characters. One seeded demo per ruleset and language below, played once for the run;
the posts are read back from the demo's outbox (the payloads the outbox sender posts)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import Any

import pytest

from bot import alttext, registry
from bot.i18n import t
from tests.seeded_demos import SeededDemos

# Every ruleset in English; the quicker ones in Japanese too (Esper's game is the longest).
RUNS = [
    *((r, "en") for r in ("arena", "tactics", "dungeon", "apeiron", "esper")),
    *((r, "ja") for r in ("arena", "tactics", "dungeon", "apeiron")),
]
PLAYERS = {"esper": 5}  # the seeded demo fixture's count (tests/data/demo-seed7.sha256.json)


@pytest.fixture(scope="module")
def played(seeded_demos: SeededDemos) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Each run's outbox rows (kind, payload) that carry a board (the run's one play of each
    demo: tests/seeded_demos.py)."""
    found = {}
    for ruleset, lang in RUNS:
        db = seeded_demos(ruleset, lang, PLAYERS.get(ruleset)).db
        with contextlib.closing(sqlite3.connect(db)) as con:
            rows = con.execute("SELECT kind, payload FROM outbox ORDER BY id").fetchall()
        posts = []
        for kind, text in rows:
            payload = json.loads(text)
            payload = payload.get("refresh", payload)  # an edit's next version of the post
            if payload.get("board"):
                posts.append({"kind": kind, **payload})
        found[(ruleset, lang)] = posts
    return found


def _step(title: str) -> str:
    """The step a turn post's title names (``Arena Duel · g-0001 · Turn 3``: ``Turn 3``)."""
    return title.split("g-0001", 1)[1].removeprefix(" · ").removeprefix("・")


@pytest.mark.parametrize(("ruleset", "lang"), RUNS)
def test_every_board_post_has_a_description(
    played: dict[tuple[str, str], list[dict[str, Any]]], ruleset: str, lang: str
) -> None:
    posts = played[(ruleset, lang)]
    assert len([p for p in posts if p["kind"] != "dm"]) >= 5
    title = registry.get(ruleset).presenter.title(lang)
    over = {t(lang, "board.alt.over"), t(lang, "board.alt.won", winners="")[:4]}
    for post in posts:
        description = post["board"].get("description")
        assert description, post["embed"]["title"] if "embed" in post else post["kind"]
        assert len(description) <= alttext.LIMIT == 1024
        assert description.startswith(title), description  # the channel's language
        assert post["lang"] == lang
        if post["kind"] == "dm":  # a seat's own board: says whose
            assert f"{post['board']['seat']}" in description
            continue
        heading = post["embed"]["title"]
        if heading.endswith(t(lang, "game.title.finished", ruleset="", game="g").split("g")[-1]):
            assert any(mark in description for mark in over), description
        else:
            assert _step(heading) in description, (heading, description)


def test_japanese_descriptions_are_japanese(
    played: dict[tuple[str, str], list[dict[str, Any]]],
) -> None:
    english = t("en", "board.alt.to_move", seats="").split(":")[0]  # "To move"
    for (ruleset, lang), posts in played.items():
        if lang == "ja":
            assert all(english not in p["board"]["description"] for p in posts), ruleset


def test_a_resolution_says_what_changed(
    played: dict[tuple[str, str], list[dict[str, Any]]],
) -> None:
    """Each ruleset's posts after a resolution tell what changed (a piece moved, a count went
    down), not only where things stand."""
    for (ruleset, lang), posts in played.items():
        said = t(lang, "board.alt.what_changed", changes="").rstrip(".。")
        assert any(said in p["board"]["description"] for p in posts), (ruleset, lang)


def test_the_description_is_clipped_at_discords_limit() -> None:
    long = "x" * 600
    text = alttext.compose("en", [long, long, "🏳️‍🌈" * 10])
    assert len(text) == alttext.LIMIT and text.endswith("…")
    assert alttext.compose("ja", ["一。", "二。"]) == "一。二。"
    assert alttext.compose("en", ["One.", "", "Two."]) == "One. Two."


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_changes_between_two_views(lang: str) -> None:
    before = {
        "a": alttext.Piece("A-1", "C3", (("HP", "5/5"),)),
        "b": alttext.Piece("B-1", "D4", (("HP", "4/4"),)),
        "c": alttext.Piece("B-2", None, (("HP", "3/3"),)),
    }
    after = {
        "a": alttext.Piece("A-1", "C4", (("HP", "3/5"),)),
        "b": alttext.Piece("B-1", None, (("HP", "0/4"),)),
        "c": alttext.Piece("B-2", "E5", (("HP", "3/3"),)),
    }
    lines = alttext.changes(before, after, lang)
    assert len(lines) == 3
    assert all(label in line for label, line in zip(("A-1", "B-1", "B-2"), lines, strict=True))
    assert "C3" in lines[0] and "C4" in lines[0] and "3/5" in lines[0]
    assert "D4" in lines[1] and "E5" in lines[2]
    assert alttext.changes(before, before, lang) == []
