"""The doctests of bot/ and cogs/ run with the suite.

pytest collects the paths of ``testpaths`` (pyproject.toml) with ``--doctest-modules``: tests/, and
each module of bot/ and cogs/ whose docstrings hold examples, named one by one (collecting all of
bot/ and cogs/ would import every cog and ``bot/__main__``). A module that gains examples and is
not named would have them never run, as seven modules' did: this test names it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = re.compile(r"^\s*>>> ", re.MULTILINE)


def pytest_options() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)["tool"]["pytest"]["ini_options"]  # type: ignore[no-any-return]


def with_examples() -> set[str]:
    found = set()
    for package in ("bot", "cogs"):
        for path in (ROOT / package).rglob("*.py"):
            if EXAMPLE.search(path.read_text("utf-8")):
                found.add(path.relative_to(ROOT).as_posix())
    return found


def test_every_module_with_doctests_is_collected() -> None:
    options = pytest_options()
    assert "--doctest-modules" in str(options["addopts"]).split()
    paths = set(options["testpaths"])  # type: ignore[call-overload]
    modules = with_examples()
    assert modules, "no doctest found in bot/ or cogs/: the search is broken"
    missing = sorted(modules - paths)
    assert not missing, f"doctests never run: add {missing} to testpaths in pyproject.toml"
    stale = sorted(p for p in paths - modules if p != "tests")
    assert not stale, f"testpaths names {stale}, which hold no doctest (moved or renamed?)"
