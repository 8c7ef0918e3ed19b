"""The match viewer in a real headless Chromium (issue 36): for a seeded demo of every ruleset the
page opens with no console error, every step verifies ✓ in the browser, the keys step through the
boards and logs, ``#step-N`` opens at step N, and a finished game's page offers each seat's
private view; tampered records are marked ✗ on the step ``python -m bot verify`` fails; a
mid-game export's page shows no private view; screenshots at 390 px and 1280 px.

One browser for the module (``browser``), each page built once (``pages``).
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.record import verify
from bot.viewer import build
from tests.viewer.conftest import DEMOS, exports_of

SHOTS = Path("/tmp/pbp-viewer-shots")


@pytest.fixture(scope="module")
def pages(demo_records: dict[str, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("viewers")
    made = {}
    for ruleset, record in demo_records.items():
        path = out / f"{ruleset}.html"
        path.write_text(build(record, "en").html, "utf-8")
        made[ruleset] = path
    return made


def open_page(browser: Any, path: Path, step: int | None = None, width: int = 1280) -> Any:
    """The page at ``path`` (at ``#step-N``), once its check in the browser has finished; the
    console's errors and the page's uncaught errors are kept in ``page.errors``."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(path.as_uri() + (f"#step-{step}" if step is not None else ""))
    page.wait_for_function("document.body.dataset.verified", timeout=120_000)
    return page


def marks(page: Any) -> tuple[int, list[int]]:
    """How many steps the page marks, and which fail (✗)."""
    texts = page.eval_on_selector_all("#marks a", "els => els.map(e => e.textContent)")
    return len(texts), [int(t.split()[0]) for t in texts if t.endswith("✗")]


def step_checks(page: Any, step: int) -> str:
    page.evaluate(f"location.hash = '#step-{step}'")
    page.wait_for_function(f"document.getElementById('slider').value === '{step}'")
    return page.inner_text("#checks")


@pytest.mark.parametrize("ruleset", list(DEMOS))
def test_a_demo_opens_verifies_and_steps(ruleset: str, pages, demo_records, browser) -> None:
    record = demo_records[ruleset]
    steps = len(record["turns"]) + 1
    middle = steps // 2
    page = open_page(browser, pages[ruleset], step=middle)
    try:
        assert page.errors == []
        assert page.evaluate("document.body.dataset.verified") == "ok"
        assert marks(page) == (steps, [])
        assert "✓" in page.inner_text("#verify-summary")
        # #step-N opened at step N
        assert page.input_value("#slider") == str(middle)
        assert page.inner_text("#step-heading").startswith(f"Step {middle}:")
        # the arrow keys move the board and the log along
        before = page.get_attribute("#board", "src"), page.inner_text("#log")
        page.locator("body").press("ArrowRight")
        assert page.input_value("#slider") == str(middle + 1)
        assert page.evaluate("location.hash") == f"#step-{middle + 1}"
        after = page.get_attribute("#board", "src"), page.inner_text("#log")
        assert after != before
        page.locator("body").press("ArrowLeft")
        assert (page.get_attribute("#board", "src"), page.inner_text("#log")) == before
        assert page.get_attribute("#board", "alt")  # every board says what it shows
        # a finished game: a toggle per seat shows that seat's private view
        assert page.is_visible("#private")
        seats = record["seats"]
        buttons = page.locator("#private-seats button")
        assert buttons.count() == len(seats) + 1
        buttons.nth(1).click()
        assert buttons.nth(1).get_attribute("aria-pressed") == "true"
        assert seats[0] in page.inner_text("#private-view")
        assert page.errors == []
    finally:
        page.close()


# --- tampered records: the page fails the step verify fails --------------------------------------


def verify_steps(record: dict[str, Any]) -> dict[int, list[str]]:
    """The steps ``verify`` fails, each with its failed lines (the result's: the last step)."""
    last = len(record["turns"])
    failed: dict[int, list[str]] = {}
    for check in verify(record):
        if check.ok or check.note:
            continue
        found = re.match(r"turn (\d+)", check.what)
        step = (
            0 if check.what.startswith(("setup", "players")) else int(found[1]) if found else last
        )
        failed.setdefault(step, []).append(check.what)
    return failed


def _rolled(record: dict[str, Any]) -> tuple[int, str]:
    for n, turn in enumerate(record["turns"], start=1):
        for phase in ("pre", "resolve"):
            if turn["drawn"].get(phase):
                return n, phase
    raise AssertionError("no rolls")


def flip(text: str, at: int = 0) -> str:
    return text[:at] + ("0" if text[at] != "0" else "1") + text[at + 1 :]


def tamper(record: dict[str, Any], kind: str) -> tuple[dict[str, Any], int, str]:
    """``record`` with one thing edited: the step it is in, and a word the reason must say."""
    rec = copy.deepcopy(record)
    turns = rec["turns"]
    if kind == "roll":
        n, phase = _rolled(rec)
        drawn = turns[n - 1]["drawn"][phase]
        drawn[-1] = drawn[-1] % 6 + 1
        return rec, n, "rolls"
    if kind == "order":
        n = 3
        seat = sorted(turns[n - 1]["inputs"])[0]
        mine = turns[n - 1]["inputs"][seat]
        others = [t["inputs"][seat] for t in turns if t["inputs"].get(seat, mine) != mine]
        turns[n - 1]["inputs"][seat] = others[0]
        return rec, n, "receipt"
    if kind == "receipt":
        seat = sorted(turns[1]["receipts"])[-1]
        turns[1]["receipts"][seat] = flip(turns[1]["receipts"][seat])
        return rec, 2, "receipt"
    if kind == "seed":
        n = len(turns) // 2
        turns[n - 1]["seeds"]["pre"] = flip(turns[n - 1]["seeds"]["pre"])
        return rec, n, "commitment"
    assert kind == "winner"
    seats = rec["seats"]
    rec["result"]["winner"] = next(s for s in seats if s != rec["result"]["winner"])
    return rec, len(turns), "winner"


@pytest.mark.parametrize("ruleset", ["arena", "tactics"])
@pytest.mark.parametrize("kind", ["roll", "order", "receipt", "seed", "winner"])
def test_a_tampered_record_fails_where_verify_does(
    ruleset: str, kind: str, demo_records, browser, tmp_path
) -> None:
    record, step, word = tamper(demo_records[ruleset], kind)
    expected = verify_steps(record)
    assert step in expected  # the tampering is one verify notices, on that step
    path = tmp_path / "tampered.html"
    path.write_text(build(record, "en").html, "utf-8")
    page = open_page(browser, path)
    try:
        assert page.errors == []
        assert page.evaluate("document.body.dataset.verified") == "failed"
        _, failed = marks(page)
        assert failed == sorted(expected), (failed, expected)
        checks = step_checks(page, step)
        assert "✗" in checks and word in checks, checks
        assert any(word in line for line in expected[step])
    finally:
        page.close()


# --- a mid-game export shows only what was public ------------------------------------------------


@pytest.fixture(scope="module")
def apeiron_exports() -> tuple[dict[str, Any], dict[str, Any]]:
    # In a thread of its own: the browser's driver runs an event loop in this one.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, exports_of("apeiron", 7, after=6)).result()


def test_a_midgame_export_has_no_private_view(apeiron_exports, browser, tmp_path) -> None:
    midgame, finished = apeiron_exports
    assert midgame["result"]["status"] == "active" and "seed" not in midgame["secret"]
    html = build(midgame, "en").html
    data = json.loads(
        re.search(r'id="viewer-data">(.*?)</script>', html, re.S)[1]  # type: ignore[index]
    )
    assert data["midgame"] is True and data["private"] is False
    assert all(frame["private"] == {} for frame in data["frames"])
    # nothing the end reveals is in it: the secret seed, the salts of withheld orders
    secrets = [finished["secret"]["seed"]]
    for mid, end in zip(midgame["turns"], finished["turns"], strict=False):
        secrets += [
            end["salts"][s] for s, given in mid["inputs"].items() if isinstance(given, dict)
        ]
    assert len(secrets) > 1  # the mid-game export withholds some order
    assert [s for s in secrets if s in html] == []
    path = tmp_path / "midgame.html"
    path.write_text(html, "utf-8")
    page = open_page(browser, path)
    try:
        assert page.errors == []
        assert not page.is_visible("#private")
        assert "public" in page.inner_text("#status")
        assert marks(page)[1] == []  # what it holds still checks out
    finally:
        page.close()


# --- screenshots -----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["esper", "tactics"])
def test_screenshots_at_phone_and_desktop_widths(ruleset: str, pages, browser) -> None:
    """Written under /tmp/pbp-viewer-shots for a look by eye; at 390 px nothing is wider than
    the screen (no sideways scrolling)."""
    SHOTS.mkdir(exist_ok=True)
    for width in (390, 1280):
        page = open_page(browser, pages[ruleset], step=3, width=width)
        try:
            page.screenshot(path=str(SHOTS / f"{ruleset}-{width}.png"), full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        finally:
            page.close()
