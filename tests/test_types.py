"""mypy is clean on its configured scope (``[tool.mypy]`` in pyproject.toml).

The scope is the framework (``bot/``), every ruleset's pure engine (``cogs/*/rules.py``) and each
ruleset's spec (``cogs/*/__init__.py``), whose ``RulesetSpec(engine=rules, ...)`` makes mypy hold
the ``rules`` module to the ``Engine[State, Order]`` protocol: an engine function whose signature
drifts from the contract fails here. With its cache (``.mypy_cache/``, ignored by git) a
run takes well under a second; a cold one about ten seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_is_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the config's ``files`` are relative to the repository root
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, f"mypy reports problems (exit {status}):\n{stdout}{stderr}"
