"""Turn posts that read on a phone: over the offline demo of each ruleset (``bot/demo.py``, the
game ``python -m bot demo <ruleset>`` plays), the median turn post stays under 700 characters,
while the full proofs the posts show short are in the export, and ``verify`` checks them."""

from __future__ import annotations

import json
import re
import statistics
from typing import Any

import pytest

from bot import messages, registry
from bot.record import verify
from tests.seeded_demos import SeededDemos

MEDIAN_LIMIT = 700
# A value shown short: in the footer's commitments (bare) or a withheld order's receipt (quoted).
SHORT = re.compile(rf"(?<![0-9a-f])([0-9a-f]{{{messages.SHORT_HEX}}})…")


def post_length(composed: dict[str, Any]) -> int:
    """What a reader scrolls past: content, and the embed's title, description, fields, footer."""
    embed = composed["embed"] or {}
    parts = [
        composed.get("content") or "",
        embed.get("title") or "",
        embed.get("description") or "",
    ]
    parts += [f"{f['name']}{f['value']}" for f in embed.get("fields", [])]
    parts.append((embed.get("footer") or {}).get("text") or "")
    return sum(len(p) for p in parts)


Played = tuple[list[dict[str, Any]], dict[str, Any]]


def play_demo(seeded_demos: SeededDemos, ruleset: str, lang: str) -> Played:
    """The demo's turn posts as composed for Discord, as first posted, and its match record
    (the run's one play of the demo: tests/seeded_demos.py)."""
    played = seeded_demos(ruleset, lang)
    posts = [
        messages.compose(payload)
        for kind, payload in played.posted
        if kind == "channel" and payload.get("embed") and payload.get("board")
    ]
    return posts, played.record


def full_values(record: dict[str, Any]) -> set[str]:
    """Every seed, commitment, salt, receipt and digest the record holds, whole."""
    values = {record["players_digest"]}
    for block in [record["setup"], *record["turns"]]:
        for name in ("seeds", "commitments", "salts", "receipts"):
            values.update(block.get(name, {}).values())
        if block.get("orders_digest"):
            values.add(block["orders_digest"])
    for name in ("seed", "commitment"):
        if name in record.get("secret", {}):
            values.add(record["secret"][name])
    return values


RULESETS = sorted(k for k, spec in registry.rulesets().items() if spec.demo_player is not None)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_median_turn_post_is_short_and_the_proofs_stay_whole(
    ruleset: str, lang: str, seeded_demos: SeededDemos
) -> None:
    posts, record = play_demo(seeded_demos, ruleset, lang)
    assert len(posts) >= 3
    lengths = [post_length(p) for p in posts]
    median = statistics.median(lengths)
    assert median < MEDIAN_LIMIT, f"{ruleset} ({lang}): median turn post {median} characters"

    # Every value a post shows short is the start of a full value in the export…
    whole = full_values(record)
    shown = {m for p in posts for m in SHORT.findall(json.dumps(p, ensure_ascii=False))}
    assert shown, "the posts show their proofs"
    assert all(any(v.startswith(s) for v in whole) for s in shown)
    # … and verify checks them all (commitments, receipts, digests, rolls).
    checks = verify(record)
    assert checks and all(c.ok for c in checks), [c.what for c in checks if not c.ok]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_post_after_the_first_starts_with_what_happened(
    ruleset: str, seeded_demos: SeededDemos
) -> None:
    """A post's first line is the step's main event in bold (the result on the last post), never
    a step header: the title names the step now open."""
    posts, record = play_demo(seeded_demos, ruleset, "en")
    first, *later = [p["embed"]["description"].splitlines()[0] for p in posts]
    assert first.startswith("The game begins")
    assert later and all(line.startswith("**") and line.endswith("**") for line in later)
    assert not [line for line in later if line.startswith("**Results of ")]
    # the last post opens with the result; none before it does
    assert any(word in later[-1] for word in ("wins", "draw", "win", "defeat", "escape", "lose"))
    assert all(p["embed"]["title"] != posts[-1]["embed"]["title"] for p in posts[:-1])
    # no commitment, seed or salt in a post's description: the proofs are behind the button
    assert not [p for p in posts if SHORT.search(p["embed"]["description"])]
    assert record["turns"], "the game went on past its setup"
