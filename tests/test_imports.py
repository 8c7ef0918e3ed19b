"""No import cycles: the static import graph of every module under ``bot/`` and ``cogs/`` has none,
but for the ruleset cycles listed in :data:`ALLOWED_CYCLES`, which are being taken apart.

Every import counts, wherever it is written: at the top, inside a function (an import put off to
run time is still a dependency, only a hidden one) and under ``if TYPE_CHECKING:`` (two modules
that name each other's types cannot be read, typed or split one without the other).
``from x import y`` depends on ``x.y`` when that is a module of ours, else on ``x``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs")

# The imports that still close a cycle, each as (importer, imported): nothing may be added (a new
# module or a new import joining a loop fails), and each goes when its ruleset's engine is cut at
# its seams (``cogs/<game>/state.py``, imported by the others instead of each other). Remove an
# entry when its import no longer closes a cycle: a stale entry fails too. None is left: the
# tactics rules and action sheet, the last, both read the state from ``cogs/tactics/state.py``.
ALLOWED_CYCLE_IMPORTS: frozenset[tuple[str, str]] = frozenset()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of ours, by its dotted name."""
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _base(path: Path, name: str, level: int) -> str:
    """The absolute name a (possibly relative) ``from`` import names."""
    if level == 0:
        return name
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    package = package[: len(package) - (level - 1)]
    return ".".join([*package, name] if name else package)


def imported(path: Path, known: set[str]) -> Iterator[str]:
    """The modules of ours that ``path`` imports, anywhere in it."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _base(path, node.module or "", node.level)
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        yield from (name for name in names if name in known)


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: set(imported(path, known)) - {name} for name, path in found.items()}


def strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """The graph's strongly connected parts of more than one module (Tarjan's algorithm): each
    is one or more cycles, and every module in it reaches every other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    parts: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.add(top)
                if top == node:
                    break
            if len(part) > 1:
                parts.append(part)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return parts


def cycle_imports(edges: dict[str, set[str]]) -> dict[tuple[str, str], list[str]]:
    """Every import that closes a cycle, with the shortest cycle it closes (``a, b, …, a``)."""
    found: dict[tuple[str, str], list[str]] = {}
    for part in strongly_connected(edges):
        for a in sorted(part):
            for b in sorted(edges[a] & part):
                # The shortest way back from b to a, inside the part (breadth first).
                came_from: dict[str, str] = {b: b}
                queue = [b]
                while a not in came_from:
                    node = queue.pop(0)
                    for other in sorted(edges[node] & part):
                        if other not in came_from:
                            came_from[other] = node
                            queue.append(other)
                path = [a]
                while path[-1] != b:
                    path.append(came_from[path[-1]])
                found[(a, b)] = [a, *reversed(path)]
    return found


def _named(cycles: dict[tuple[str, str], list[str]]) -> str:
    return "; ".join(" -> ".join(cycle) for _, cycle in sorted(cycles.items()))


def test_graph_sees_the_imports() -> None:
    """The graph is read the way the docstring says (a check on the checker: a graph that saw
    no edge would find no cycle)."""
    edges = graph()
    assert "bot.table" in edges["bot.client"]  # from bot.table import Table
    assert "bot.dice" in edges["bot.table"]  # from bot import dice as dicelib
    assert "bot.storage.base" in edges["bot.table"]  # from bot.storage.base import …
    assert "bot.views" in edges["bot.outbox"]  # an import inside a function
    assert "bot.loaded" in edges["bot.messages"]  # an import under TYPE_CHECKING
    assert "cogs.esper.rules" in edges["cogs.esper"]  # from . import rules


def test_cycles_are_found() -> None:
    """A check on the checker: every import that closes a loop, with the loop it closes."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d", "a"}, "f": {"a"}}
    assert cycle_imports(edges) == {
        ("a", "b"): ["a", "b", "c", "a"],
        ("b", "c"): ["b", "c", "a", "b"],
        ("c", "a"): ["c", "a", "b", "c"],
        ("d", "e"): ["d", "e", "d"],
        ("e", "d"): ["e", "d", "e"],
    }


def test_no_import_cycles() -> None:
    found = cycle_imports(graph())
    new = {edge: cycle for edge, cycle in found.items() if edge not in ALLOWED_CYCLE_IMPORTS}
    assert not new, "import cycles: " + _named(new)
    gone = sorted(ALLOWED_CYCLE_IMPORTS - set(found))
    assert not gone, "these imports close no cycle any more, remove them from " + (
        "ALLOWED_CYCLE_IMPORTS: " + "; ".join(f"{a} -> {b}" for a, b in gone)
    )


def test_only_rulesets_are_allowed_a_cycle() -> None:
    """The framework is allowed none: the list names ruleset packages only."""
    assert all(m.startswith("cogs.") for edge in ALLOWED_CYCLE_IMPORTS for m in edge)
    assert not any(
        m.startswith("cogs.game") or m.startswith("cogs.league")
        for edge in ALLOWED_CYCLE_IMPORTS
        for m in edge
    )
