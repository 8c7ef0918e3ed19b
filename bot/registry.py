"""Where the rulesets are found: the framework asks here and never names a game.

A ruleset is discovered from
- every package of the project's ``cogs`` folder whose ``__init__`` exports ``RULESET``;
- the entry points of installed packages in the group ``pbp_referee.rulesets`` (each pointing at
  a :class:`~bot.ruleset.RulesetSpec`), so a community can add a game with ``pip install``;
- ``PBP_RULESETS=module[:attr],…``: modules outside both, for a ruleset in development;
- :func:`register`, for tests and embedding programs.

The shared cogs of the ``cogs`` folder that are not rulesets (the game and league commands) are
extensions too: every package there with a ``setup`` function is loaded.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from bot import i18n
from bot.ruleset import Ref, RulesetSpec, UnknownRuleset

COGS_PACKAGE = "cogs"  # the project's own cogs; a string, so bot/ imports no cogs module
ENTRY_POINT_GROUP = "pbp_referee.rulesets"
ENV_VARIABLE = "PBP_RULESETS"

_discovered: dict[str, RulesetSpec[Any, Any]] | None = None
_registered: dict[str, RulesetSpec[Any, Any]] = {}


def _cog_packages() -> list[str]:
    package = importlib.import_module(COGS_PACKAGE)
    return sorted(
        f"{COGS_PACKAGE}.{info.name}"
        for info in pkgutil.iter_modules(package.__path__)
        if info.ispkg
    )


def _spec_of(obj: Any, where: str) -> RulesetSpec[Any, Any]:
    spec = getattr(obj, "RULESET", obj)
    if not isinstance(spec, RulesetSpec):
        raise TypeError(f"{where} is not a RulesetSpec (got {type(spec).__name__})")
    return spec


def _discover() -> dict[str, RulesetSpec[Any, Any]]:
    found: dict[str, RulesetSpec[Any, Any]] = {}

    def add(spec: RulesetSpec[Any, Any], where: str) -> None:
        if spec.key in found:
            raise ValueError(f"two rulesets are called {spec.key!r} (the second in {where})")
        found[spec.key] = spec

    for name in _cog_packages():
        module = importlib.import_module(name)
        if hasattr(module, "RULESET"):
            add(_spec_of(module, name), name)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        add(_spec_of(point.load(), f"entry point {point.name}"), point.value)
    for path in filter(None, (p.strip() for p in os.environ.get(ENV_VARIABLE, "").split(","))):
        add(_spec_of(Ref(path).load(), path), path)
    return found


def _specs() -> dict[str, RulesetSpec[Any, Any]]:
    global _discovered
    if _discovered is None:
        _discovered = _discover()
        for spec in _discovered.values():
            _add_locales(spec)
    return {**_discovered, **_registered}


def _add_locales(spec: RulesetSpec[Any, Any]) -> None:
    if spec.locales is not None:
        i18n.add_source(spec.locales)


def rulesets() -> dict[str, RulesetSpec[Any, Any]]:
    """Every known ruleset by key, in key order."""
    return dict(sorted(_specs().items()))


def keys() -> tuple[str, ...]:
    return tuple(rulesets())


def get(key: str) -> RulesetSpec[Any, Any]:
    """The ruleset called ``key``; :class:`UnknownRuleset` (``ruleset.unknown``) otherwise."""
    spec = _specs().get(key)
    if spec is None:
        raise UnknownRuleset("ruleset.unknown", name=key)
    return spec


def register(spec: RulesetSpec[Any, Any]) -> None:
    """Add a ruleset by hand (tests, programs embedding the bot). Its catalogues come with it."""
    _registered[spec.key] = spec
    _add_locales(spec)


def unregister(key: str) -> None:
    """Remove a ruleset added by :func:`register`, and its catalogues."""
    spec = _registered.pop(key, None)
    if spec is not None and spec.locales is not None:
        i18n.remove_source(spec.locales)


def reset() -> None:
    """Forget what discovery found, catalogues included: the next call looks again (tests that
    change ``PBP_RULESETS``). Rulesets added by :func:`register` stay until :func:`unregister`."""
    global _discovered
    for spec in (_discovered or {}).values():
        if spec.locales is not None:
            i18n.remove_source(spec.locales)
    _discovered = None


def extensions() -> list[str]:
    """The discord.py extensions to load: the ``cogs`` packages that have a ``setup`` (rulesets
    and shared cogs alike), then the extensions of rulesets found elsewhere."""
    names = [n for n in _cog_packages() if hasattr(importlib.import_module(n), "setup")]
    for spec in rulesets().values():
        if spec.extension and spec.extension not in names:
            names.append(spec.extension)
    return names


def locales_of(package_file: str) -> Path:
    """The ``locales/`` folder beside a package's ``__init__.py`` (for a spec's ``locales``)."""
    return Path(package_file).resolve().parent / "locales"
