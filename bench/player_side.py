"""What the players read, measured on the seeded demos (issue 35).

Run: ``python bench/player_side.py``.

For every ruleset in both languages (seed 7, the seat counts the record fixtures pin), one demo is
played through the real table and what its players receive is measured:

1. The median DM, in characters (an acknowledgement a prompt carries included, buttons not).
   Target: under 600, under 900 for Esper (its status and combat say more).
2. Text repeated verbatim across one seat's DMs: the share of the characters a seat receives in
   lines it has already received in an earlier DM of the same game. Target: under 10 %.
3. Channel posts whose first line names an event (rather than a step header such as "Results of
   Turn 3" or an empty description). Target: the median post does, i.e. at least half of them.

Not a test: it prints the figures against the targets and exits non-zero when one is missed.
``--ruleset`` and ``--lang`` measure one of them (a ruleset's helper checks its own).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot import demo, registry
from bot.i18n import t

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "data" / "demo-seed7.sha256.json"
SEED = 7
DM_TARGET = {"esper": 900}
DM_TARGET_DEFAULT = 600
REPEAT_TARGET = 0.10
HEADLINE_TARGET = 0.5
# Lines too short to be "text" (a bullet, a lone emoji, a number) are not counted as repeated.
SHORTEST_REPEAT = 8


@dataclass(frozen=True)
class Figures:
    ruleset: str
    lang: str
    dms: int
    median_dm: float
    repeated: float
    posts: int
    headlined: float

    @property
    def dm_target(self) -> int:
        return DM_TARGET.get(self.ruleset, DM_TARGET_DEFAULT)

    def misses(self) -> list[str]:
        missed = []
        if self.median_dm >= self.dm_target:
            missed.append("median DM")
        if self.repeated >= REPEAT_TARGET:
            missed.append("repeated")
        if self.headlined < HEADLINE_TARGET:
            missed.append("headline")
        return missed


def repeated_share(dms: Sequence[tuple[int, str]]) -> float:
    """The share of the characters each seat receives in lines it already had, over all seats.

    >>> dms = [(1, "hello there\\nA"), (1, "hello there\\nB"), (2, "hello there")]
    >>> round(repeated_share(dms), 3)
    0.314
    """
    seen: dict[int, set[str]] = defaultdict(set)
    total = repeated = 0
    for user, text in dms:
        for line in text.splitlines():
            line = line.strip()
            total += len(line)
            if len(line) >= SHORTEST_REPEAT and line in seen[user]:
                repeated += len(line)
            seen[user].add(line)
    return repeated / total if total else 0.0


def headlined_share(posts: Sequence[str], lang: str) -> float:
    """The share of posts whose first line is a headline: the step's main event in bold (the
    game's first post opens with its start line, and a post before issue 35 with "Results of
    …", neither in bold)."""
    start = t(lang, "game.started", players="")
    named = 0
    for description in posts:
        first = description.split("\n", 1)[0].strip()
        if first.startswith("**") and not first.startswith(start):
            named += 1
    return named / len(posts) if posts else 0.0


async def measure(ruleset: str, lang: str) -> Figures:
    pinned = json.loads(FIXTURE.read_text("utf-8")).get("players", {})
    with tempfile.TemporaryDirectory() as tmp:
        result = await demo.play(
            ruleset, out=Path(tmp), seed=SEED, lang=lang, players=pinned.get(ruleset)
        )
    lengths = [len(text) for _, text in result.dms]
    return Figures(
        ruleset,
        lang,
        len(lengths),
        statistics.median(lengths) if lengths else 0.0,
        repeated_share(result.dms),
        len(result.posts),
        headlined_share(result.posts, lang),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", choices=sorted(registry.rulesets()), action="append")
    parser.add_argument("--lang", choices=("en", "ja"), action="append")
    args = parser.parse_args(argv)
    rulesets = args.ruleset or sorted(
        key for key, spec in registry.rulesets().items() if spec.demo_player is not None
    )
    missed = []
    print(
        f"{'ruleset':9} {'lang':4} {'DMs':>5} {'median DM':>10} {'target':>7} "
        f"{'repeated':>9} {'posts':>6} {'headlined':>10}"
    )
    for ruleset in rulesets:
        for lang in args.lang or ("en", "ja"):
            f = asyncio.run(measure(ruleset, lang))
            print(
                f"{f.ruleset:9} {f.lang:4} {f.dms:5d} {f.median_dm:10.0f} {f.dm_target:7d} "
                f"{f.repeated:9.1%} {f.posts:6d} {f.headlined:10.0%}"
                + (f"  MISSED: {', '.join(f.misses())}" if f.misses() else "")
            )
            missed += f.misses()
    print(
        f"targets: median DM < {DM_TARGET_DEFAULT} chars (< {DM_TARGET['esper']} Esper), "
        f"repeated < {REPEAT_TARGET:.0%}, first line an event in >= {HEADLINE_TARGET:.0%} of posts"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
