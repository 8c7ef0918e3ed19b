"""``python -m bot monster-ai FILE [--rules gloomhaven|frosthaven|jotl] [--id N] [--check]``.

Without ``--check``: one JSON object per scenario and line, ``{"id": 6, "outcomes": [{"move_to":
[3, 0], "attacks": [[4, -1]]}, ...]}`` (the file's axial coordinates; outcomes sorted), under the
given rules (Gloomhaven by default).

With ``--check``: compares every answer with the scenario's ``expected`` set, under the given rules
or all three, prints each mismatch and the pass count per variant, and exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import sys

from bot.ruleset import RuleError
from cogs.dungeon.ai import DEFAULT_RULES, RULES, solve
from cogs.dungeon.scenario import Scenario, load


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a monster-ai-scenarios/1 JSON file")
    parser.add_argument("--rules", choices=RULES, default=None, help="rules variant")
    parser.add_argument("--id", type=int, default=None, help="only this scenario")
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare with the expected outcomes; exit 1 if any differ",
    )


_MESSAGES = {
    "dungeon.scenario.no_file": "no such file: {path}",
    "dungeon.scenario.not_json": "not JSON: {detail}",
    "dungeon.scenario.format": "not a {expected} file",
}


def _explain(exc: RuleError) -> str:
    template = _MESSAGES.get(exc.key)
    return template.format(**exc.params) if template else str(exc)


def _outcomes_json(outcomes) -> list[dict]:
    return [o.to_json() for o in outcomes]


def run(args: argparse.Namespace) -> int:
    try:
        scenarios: tuple[Scenario, ...] = load(args.file)
    except RuleError as exc:
        print(f"monster-ai: {_explain(exc)}", file=sys.stderr)
        return 1
    if args.id is not None:
        scenarios = tuple(s for s in scenarios if s.id == args.id)
        if not scenarios:
            print(f"monster-ai: no scenario {args.id}", file=sys.stderr)
            return 1
    if not args.check:
        rules = args.rules or DEFAULT_RULES
        for sc in scenarios:
            outcomes = solve(sc.situation, rules)
            print(json.dumps({"id": sc.id, "outcomes": _outcomes_json(outcomes)}))
        return 0
    failed_any = False
    for rules in [args.rules] if args.rules else list(RULES):
        passed, failed, total = 0, [], 0
        for sc in scenarios:
            expected = sc.expected.get(rules)
            if expected is None:
                continue
            total += 1
            got = solve(sc.situation, rules)
            if got == expected:
                passed += 1
                continue
            failed.append(sc.id)
            print(
                json.dumps(
                    {
                        "rules": rules,
                        "id": sc.id,
                        "outcomes": _outcomes_json(got),
                        "expected": _outcomes_json(expected),
                    }
                )
            )
        failed_any = failed_any or bool(failed) or total == 0
        tail = f" (failed: {', '.join(map(str, failed))})" if failed else ""
        print(f"{rules}: {passed}/{total} passed{tail}")
    return 1 if failed_any else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="monster-ai", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))
