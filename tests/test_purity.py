"""Rules, renderers, dice and records are pure: they import neither discord nor aiosqlite nor the
storage layer, directly or through any of the project's own modules they import."""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_TOP = {"discord", "aiosqlite"}
FORBIDDEN_PREFIX = ("bot.storage",)

PURE_FILES = sorted(
    {
        *ROOT.glob("cogs/*/rules.py"),
        # Apeiron's engine behind its rules.py (a lazy import in one of them would be missed)
        ROOT / "cogs/apeiron/state.py",
        ROOT / "cogs/apeiron/orders.py",
        ROOT / "cogs/apeiron/targets.py",
        ROOT / "cogs/apeiron/effects.py",
        ROOT / "cogs/apeiron/legality.py",
        # the dungeon's engine behind its rules.py
        ROOT / "cogs/dungeon/state.py",
        ROOT / "cogs/dungeon/orders.py",
        ROOT / "cogs/dungeon/resolution.py",
        *ROOT.glob("cogs/*/board.py"),
        # the Esper board's parts, drawn by its board.py
        ROOT / "cogs/esper/board_kit.py",
        ROOT / "cogs/esper/base_board.py",
        ROOT / "cogs/esper/combat_board.py",
        *ROOT.glob("cogs/*/present.py"),  # "Pure (i18n and the renderer only)"
        *ROOT.glob("cogs/*/league.py"),  # what a league reads of a ruleset (bot/leagues.py)
        *ROOT.glob("bot/render/*.py"),
        ROOT / "bot/dice.py",
        ROOT / "bot/rollexpr.py",
        ROOT / "bot/ruleset.py",
        ROOT / "bot/leagues.py",
        *ROOT.glob("bot/record/*.py"),  # its docstring says pure; storage only for type hints
        ROOT / "bot/i18n/__init__.py",
    }
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A source file's syntax tree, parsed once per run: the import closures of a hundred pure
    files read the same modules again and again (the trees are only read)."""
    return ast.parse(path.read_text("utf-8"), str(path))


def module_path(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST, package: str, *, nested: bool) -> Iterator[str]:
    """Absolute names imported under ``node``; ``nested`` also looks inside function bodies.
    ``if TYPE_CHECKING:`` blocks never run, so they are skipped."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            yield from (n for stmt in child.orelse for n in _imports(stmt, package, nested=nested))
            continue
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) and not nested:
            continue
        if isinstance(child, ast.Import):
            yield from (alias.name for alias in child.names)
        elif isinstance(child, ast.ImportFrom):
            if child.level:
                anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                base = ".".join([*anchor, child.module] if child.module else anchor)
            else:
                base = child.module or ""
            yield base
            yield from (f"{base}.{alias.name}" for alias in child.names)  # submodules, if any
        yield from _imports(child, package, nested=nested)


def _with_parents(name: str) -> Iterator[str]:
    parts = name.split(".")
    for i in range(1, len(parts) + 1):
        yield ".".join(parts[:i])


def forbidden(name: str) -> bool:
    return name.split(".")[0] in FORBIDDEN_TOP or name.startswith(FORBIDDEN_PREFIX)


def import_closure(path: Path) -> dict[str, str]:
    """Every module that importing ``path`` loads, mapped to the project module that imports it.

    The file itself is read whole (a lazy import inside a pure function still counts); the modules
    it pulls in are followed through what runs at import time (their module level)."""
    seen: dict[str, str] = {}
    start = module_name(path)
    todo = [(start, path, True)]
    for parent in list(_with_parents(start))[:-1]:
        if (p := module_path(parent)) is not None:
            todo.append((parent, p, False))
    while todo:
        name, file, whole = todo.pop()
        package = name if file.name == "__init__.py" else name.rpartition(".")[0]
        tree = parsed(file)
        for imported in _imports(tree, package, nested=whole):
            for mod in _with_parents(imported):
                if mod in seen:
                    continue
                target = module_path(mod)
                if target is None and not forbidden(mod) and mod.split(".")[0] in ("bot", "cogs"):
                    continue  # ``from pkg import name``: a name, not a submodule
                seen[mod] = name
                if target is not None:
                    todo.append((mod, target, False))
    return seen


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_module_imports_no_discord_nor_storage(path: Path) -> None:
    closure = import_closure(path)
    bad = {mod: via for mod, via in closure.items() if forbidden(mod)}
    assert bad == {}, f"{module_name(path)} pulls in {bad} (module: imported by)"


def test_the_checker_sees_through_the_project() -> None:
    """The scan follows project imports: the table (storage) and the cogs (discord) are caught."""
    assert any(forbidden(m) for m in import_closure(ROOT / "bot/table.py"))
    assert "discord" in import_closure(ROOT / "cogs/game/cog.py")
    # bot.record reaches the arena engine only dynamically, the ruleset module statically
    assert "bot.ruleset" in import_closure(ROOT / "bot/record/__init__.py")
    # a TYPE_CHECKING import is not an import
    record = import_closure(ROOT / "bot/record/__init__.py")
    assert not any(m.startswith("bot.storage") for m in record)


def test_importing_the_pure_modules_loads_no_discord() -> None:
    """The same at run time: a fresh interpreter imports every pure module (and replays a record
    through the arena engine) without discord, aiosqlite or bot.storage being loaded."""
    modules = [module_name(p) for p in PURE_FILES]
    script = (
        "import sys, json\n"
        f"for m in {modules!r}: __import__(m)\n"
        "from bot.record import replay\n"
        "replay({'ruleset': 'arena', 'turns': [{'inputs': {}, 'rolls': [1, 2, 3, 4, 5, 6]}]})\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('discord', 'aiosqlite') or m.startswith('bot.storage'))))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


# --- layering: the framework never names a game ------------------------------------------------

FRAMEWORK_FILES = sorted(ROOT.glob("bot/**/*.py"))


@pytest.mark.parametrize("path", FRAMEWORK_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_framework_imports_no_cog(path: Path) -> None:
    """``bot/`` finds rulesets through :mod:`bot.registry` and never imports a ``cogs`` module,
    not even lazily inside a function: a game is added without editing the framework."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = parsed(path)
    cogs = sorted({m for m in _imports(tree, package, nested=True) if m.split(".")[0] == "cogs"})
    assert cogs == [], f"{name} imports {cogs}"


def test_importing_the_framework_loads_no_cog() -> None:
    """At run time too: every ``bot`` module imports without loading a ``cogs`` module (only the
    registry's discovery, when asked, imports the rulesets)."""
    modules = [module_name(p) for p in FRAMEWORK_FILES if p.name != "__main__.py"]
    script = (
        "import sys, json\n"
        f"for m in {modules!r}: __import__(m)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'cogs')))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


# --- one place for what the bot sends -------------------------------------------------------

# Discord's limits and allowed_mentions are enforced where messages leave the bot: interaction
# answers in bot/replies.py (respond, edit), channel posts and DMs in bot/outbox.py.
SENDERS = {"bot/replies.py", "bot/outbox.py"}
SEND_CALLS = {"send_message", "edit_message", "send", "edit", "reply"}


def _direct_sends(path: Path) -> Iterator[tuple[int, str]]:
    """``interaction.response.send_message(…)``, ``interaction.followup.send(…)``,
    ``channel.send(…)``, ``message.edit(…)`` and the like: calls of a send method on anything but
    the project's own modules (``replies.edit`` is the sanctioned path)."""
    for node in ast.walk(parsed(path)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in SEND_CALLS:
            continue
        owner = node.func.value
        if isinstance(owner, ast.Name) and owner.id in {"replies", "self"}:
            continue
        yield node.lineno, ast.unparse(node.func)


def test_every_message_the_bot_sends_goes_through_replies_or_the_outbox() -> None:
    sources = [*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/**/*.py")]
    found = [
        (str(path.relative_to(ROOT)), line, call)
        for path in sources
        if str(path.relative_to(ROOT)) not in SENDERS
        for line, call in _direct_sends(path)
    ]
    assert found == []
