"""The match viewer in a real headless Chromium (issue 36): for a seeded demo of every ruleset the
page opens with no console error, every step verifies ✓ in the browser, the keys step through the
boards and logs, ``#step-N`` opens at step N, and a finished game's page offers each seat's
private view; tampered records are marked ✗ on the step ``python -m bot verify`` fails; a
mid-game export's page shows no private view; screenshots at 390 px and 1280 px.

One browser for the module (``browser``), each page built once (``pages``).
"""

from __future__ import annotations

import asyncio
import base64
import copy
import hashlib
import io
import json
import re
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.i18n import t
from bot.record import verify
from bot.viewer import build, record_language
from bot.viewer.pictures import Drawn, Patch, apply_patch
from tests.viewer.conftest import DEMOS, SUBSTITUTE, exports_of

SHOTS = Path("/tmp/pbp-viewer-shots")


@pytest.fixture(scope="module")
def drawn() -> dict[str, Drawn]:
    """Each game's boards, drawn once for all its pages (a tampered copy draws only the boards
    that differ)."""
    return defaultdict(Drawn)


@pytest.fixture(scope="module")
def pages(
    demo_records: dict[str, dict[str, Any]],
    drawn: dict[str, Drawn],
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("viewers")
    made = {}
    for ruleset, record in demo_records.items():
        path = out / f"{ruleset}.html"
        path.write_text(build(record, "en", drawn[ruleset]).html, "utf-8")
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
    board_at(page, step or 0)
    return page


def board_at(page: Any, step: int) -> str | None:
    """The board's picture once step ``step``'s is on show (a patched board is put together
    first)."""
    page.wait_for_selector(f'#board[data-step="{step}"]', state="attached")
    src: str | None = page.get_attribute("#board", "src")
    return src


def shown_pixels(page: Any) -> str:
    """A digest of the RGB pixels of the board on show, as the browser draws it."""
    rgba = page.evaluate(
        """async () => {
          const img = document.getElementById("board");
          await img.decode();
          const c = document.createElement("canvas");
          c.width = img.naturalWidth; c.height = img.naturalHeight;
          const ctx = c.getContext("2d");
          ctx.drawImage(img, 0, 0);
          const d = ctx.getImageData(0, 0, c.width, c.height).data;
          let out = "";
          for (let i = 0; i < d.length; i += 4)
            out += String.fromCharCode(d[i], d[i + 1], d[i + 2]);
          return [c.width, c.height, btoa(out)];
        }"""
    )
    width, height, data = rgba
    return f"{width}x{height}:" + hashlib.sha256(base64.b64decode(data)).hexdigest()


def pixels_of(page: Any, step: int) -> str:
    """The same digest of step ``step``'s board, put together in Python from the page's data."""
    data = page.evaluate("JSON.parse(document.getElementById('viewer-data').textContent)")
    images, patches = data["images"], data["patches"]

    def picture(name: str) -> Image.Image:
        raw = base64.b64decode(images[name].split(",", 1)[1])
        return Image.open(io.BytesIO(raw)).convert("RGB")

    def board(name: str) -> Image.Image:
        if name not in patches:
            return picture(name)
        p = patches[name]
        patch = Patch(tuple(p["size"]), p["split"], p["shift"], p["tiles"])
        return apply_patch(board(p["base"]), picture(p["strip"]), patch)

    image = board(data["frames"][step]["board"])
    digest = hashlib.sha256(image.tobytes()).hexdigest()
    return f"{image.width}x{image.height}:{digest}"


def marks(page: Any) -> tuple[int, list[int]]:
    """How many steps the page marks, and which fail (✗)."""
    texts = page.eval_on_selector_all("#marks a", "els => els.map(e => e.textContent)")
    return len(texts), [int(t.split()[0]) for t in texts if t.endswith("✗")]


def step_checks(page: Any, step: int) -> str:
    page.evaluate(f"location.hash = '#step-{step}'")
    page.wait_for_function(f"document.getElementById('slider').value === '{step}'")
    checks: str = page.inner_text("#checks")
    return checks


@pytest.mark.parametrize("ruleset", list(DEMOS))
def test_a_demo_opens_verifies_and_steps(
    ruleset: str, pages: dict[str, Path], demo_records: dict[str, dict[str, Any]], browser: Any
) -> None:
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
        before = board_at(page, middle), page.inner_text("#log")
        page.locator("body").press("ArrowRight")
        assert page.input_value("#slider") == str(middle + 1)
        assert page.evaluate("location.hash") == f"#step-{middle + 1}"
        after = board_at(page, middle + 1), page.inner_text("#log")
        assert after != before
        page.locator("body").press("ArrowLeft")
        assert (board_at(page, middle), page.inner_text("#log")) == before
        # the board on show is the one the page was built with, a patched one put together
        # in the browser as bot.viewer.pictures puts it together
        assert shown_pixels(page) == pixels_of(page, middle)
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
        # a handover's line names its step; the page marks it there
        found = re.match(r"turn (\d+)|handovers: .* at step (\d+)", check.what)
        step = (
            0
            if check.what.startswith(("setup", "players"))
            else int(found[1] or found[2])
            if found
            else last
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


def fails_where_verify_does(
    browser: Any, path: Path, record: dict[str, Any], step: int, word: str, drawn: Drawn
) -> str:
    """The page of ``record`` fails exactly the steps verify fails, ``step`` among them with a
    reason saying ``word``: that step's checks as the page shows them."""
    expected = verify_steps(record)
    assert step in expected  # the tampering is one verify notices, on that step
    assert any(word in line for line in expected[step])
    path.write_text(build(record, "en", drawn).html, "utf-8")
    page = open_page(browser, path)
    try:
        assert page.errors == []
        assert page.evaluate("document.body.dataset.verified") == "failed"
        _, failed = marks(page)
        assert failed == sorted(expected), (failed, expected)
        checks = step_checks(page, step)
        assert "✗" in checks and word in checks, checks
        return checks
    finally:
        page.close()


@pytest.mark.parametrize("ruleset", list(DEMOS))
@pytest.mark.parametrize("kind", ["roll", "order", "receipt", "seed", "winner"])
def test_a_tampered_record_fails_where_verify_does(
    ruleset: str,
    kind: str,
    demo_records: dict[str, dict[str, Any]],
    drawn: dict[str, Drawn],
    browser: Any,
    tmp_path: Path,
) -> None:
    record, step, word = tamper(demo_records[ruleset], kind)
    fails_where_verify_does(browser, tmp_path / "tampered.html", record, step, word, drawn[ruleset])


# --- a mid-game export shows only what was public ------------------------------------------------


@pytest.fixture(scope="module")
def apeiron_exports() -> tuple[dict[str, Any], dict[str, Any]]:
    """An Apeiron game through the table: its export after 6 steps, and its export at the end
    (seat B handed to a substitute after 10 steps)."""
    # In a thread of its own: the browser's driver runs an event loop in this one.
    game = exports_of("apeiron", 7, after=6, hand_over=10)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, game).result()


def test_a_midgame_export_has_no_private_view(
    apeiron_exports: tuple[dict[str, Any], dict[str, Any]], browser: Any, tmp_path: Path
) -> None:
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


# --- a seat handed to a substitute ------------------------------------------------------------


def test_a_handover_shows_at_its_step_and_its_digest_chain_verifies(
    apeiron_exports: tuple[dict[str, Any], dict[str, Any]],
    drawn: dict[str, Drawn],
    browser: Any,
    tmp_path: Path,
) -> None:
    _, record = apeiron_exports
    [handover] = record["handovers"]
    step, seat, old, new = (handover[k] for k in ("step", "seat", "from", "to"))
    assert (seat, new) == ("B", SUBSTITUTE.name) and record["players"]["B"] == old
    assert [c for c in verify(record) if not c.ok] == []
    path = tmp_path / "handover.html"
    path.write_text(build(record, "en", drawn["apeiron-table"]).html, "utf-8")
    page = open_page(browser, path, step=step)
    try:
        assert page.errors == []
        assert page.evaluate("document.body.dataset.verified") == "ok"
        took_over = t("en", "viewer.handover", seat=seat, old=old, new=new)
        assert took_over in page.inner_text("#log")
        checks = page.inner_text("#checks")
        params = {"seat": seat, "from": old, "to": new, "step": step}
        assert "✓ " + t("en", "viewer.check.handover", **params) in checks
        page.locator("body").press("ArrowLeft")  # the step before: not handed over yet
        assert took_over not in page.inner_text("#log")
    finally:
        page.close()
    # a handover edited after the fact: its digest fails on its step, as verify says
    tampered = copy.deepcopy(record)
    tampered["handovers"][0]["to"] = "Mallory"
    checks = fails_where_verify_does(
        browser, tmp_path / "tampered.html", tampered, step, "B", drawn["apeiron-table"]
    )
    assert "✗ " + t("en", "viewer.check.handover_bad", **{**params, "to": "Mallory"}) in checks


# --- the Japanese page -------------------------------------------------------------------------


def test_a_japanese_demo_shows_the_japanese_interface(
    japanese_demo: dict[str, Any], browser: Any, tmp_path: Path
) -> None:
    record = japanese_demo
    lang = record_language(record, "en")
    assert lang == "ja"  # the players' names are Japanese
    path = tmp_path / "ja.html"
    path.write_text(build(record, lang).html, "utf-8")
    page = open_page(browser, path, step=1)
    try:
        assert page.errors == []
        assert page.evaluate("document.body.dataset.verified") == "ok"
        assert page.get_attribute("html", "lang") == "ja"
        ja = {key: t("ja", f"viewer.{key}") for key in ("board", "log", "orders", "checks")}
        for key, text in ja.items():
            assert page.inner_text(f"#{key}-heading") == text
            assert text != t("en", f"viewer.{key}")
        assert page.inner_text("#verify-heading") == t("ja", "viewer.verify.title")
        assert t("ja", "viewer.prev") in page.inner_text("#prev")
        assert t("ja", "viewer.next") in page.inner_text("#next")
        assert page.inner_text("#verify-again") == t("ja", "viewer.verify.button")
        assert page.inner_text("#private-seats button >> nth=0") == t("ja", "viewer.private.hide")
        steps = len(record["turns"]) + 1
        assert page.inner_text("#verify-summary") == t("ja", "viewer.verify.ok", count=steps)
        checks = page.inner_text("#checks").splitlines()
        seats = sorted(record["turns"][0]["receipts"])
        assert [f"✓ {t('ja', 'viewer.check.receipt', seat=s)}" for s in seats] == [
            line for line in checks if "席" in line
        ]
        assert "✓ " + t("ja", "viewer.check.digest") in checks
        assert all(line.startswith("✓ ") for line in checks), checks
        assert page.errors == []
    finally:
        page.close()


# --- screenshots -----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["esper", "tactics"])
def test_screenshots_at_phone_and_desktop_widths(
    ruleset: str, pages: dict[str, Path], browser: Any
) -> None:
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
