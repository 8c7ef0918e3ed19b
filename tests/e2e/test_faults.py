"""The bot under fire: SIGKILLed at random points of turns, Discord answering 429 and 500, the
gateway dropping mid-turn. Nothing accepted is lost, nothing is resolved or posted twice, and the
game ends exactly as the same game played without a single fault.

The long version: ``python bench/faults.py --kills 200``.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.conftest import FAST_LIMITS, ID_START
from tests.e2e.harness import SCRIPTS, chaos_run, check, reference_run

ARENA = SCRIPTS["arena"]
FAKE = {"id_start": ID_START, "rate_limits": FAST_LIMITS}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """Two Arena games played without a fault (the run every crashed run must equal)."""
    return asyncio.run(
        reference_run(
            tmp_path_factory.mktemp("reference"), games=2, seed=11, script=ARENA, fake_options=FAKE
        )
    )


@pytest.mark.parametrize("named_share", [1.0, 0.0], ids=["crash-points", "random-kills"])
async def test_killed_mid_turn_loses_nothing_and_posts_everything_once(
    tmp_path, reference, named_share
):
    result = await chaos_run(
        tmp_path,
        games=2,
        seed=11,
        kills=6,
        script=ARENA,
        fake_options=FAKE,
        named_share=named_share,
    )
    report = check(result.table, result.db, result.seen, reference.db, reference.seen)
    assert report.kills >= 6 or all(r.finished for r in result.runs)
    assert report.orders_lost == []
    assert report.double_resolutions == []
    assert report.duplicate_posts == []
    assert report.missing_posts == []
    assert report.state_differences == []
    assert all(r.finished for r in result.runs)
