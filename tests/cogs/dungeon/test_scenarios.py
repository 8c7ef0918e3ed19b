"""The shared reference situations (``monster-ai-scenarios.json``, 182 of them) under each rules
variant: the AI must produce exactly the listed set of outcomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.__main__ import main as bot_main
from bot.ruleset import RuleError
from cogs.dungeon.ai import RULES, MonsterAIError, Outcome, solve
from cogs.dungeon.scenario import ScenarioError, load, parse

ROOT = Path(__file__).resolve().parents[3]
# A copy of ../shared/data/monster-ai-scenarios.json (MIT, licence beside it), so a fresh clone
# runs every situation.
FILE = ROOT / "tests" / "data" / "monster-ai-scenarios.json"

# Pass counts per variant, as recorded: Gloomhaven is the project's default and must be perfect;
# the other two are recorded so that a regression shows.
RECORDED_PASSES = {"gloomhaven": 182, "frosthaven": 182, "jotl": 182}


@pytest.fixture(scope="module")
def scenarios():
    return load(FILE)


@pytest.mark.parametrize("rules", RULES)
def test_whole_file(scenarios, rules: str) -> None:
    assert len(scenarios) == 182
    failed = [sc.id for sc in scenarios if solve(sc.situation, rules) != sc.expected[rules]]
    passed = len(scenarios) - len(failed)
    assert passed == RECORDED_PASSES[rules], f"{rules}: {passed}/182, failing ids {failed}"
    if rules == "gloomhaven":
        assert failed == []


def test_answers_are_sorted_and_unique(scenarios) -> None:
    for sc in scenarios[:40]:
        got = solve(sc.situation)
        assert list(got) == sorted(set(got))
        assert all(list(o.attacks) == sorted(o.attacks) for o in got)


def test_solving_is_repeatable_and_the_default_is_gloomhaven(scenarios) -> None:
    sc = next(s for s in scenarios if s.id == 131)  # the heaviest: walls, 16 characters, AoE
    first = solve(sc.situation)
    assert solve(sc.situation, "gloomhaven") == first
    fresh = next(s for s in load(FILE) if s.id == 131)
    assert fresh.situation == sc.situation
    assert solve(fresh.situation) == first  # cold caches, same answer


def test_variants_differ_where_the_file_says(scenarios) -> None:
    sc = next(s for s in scenarios if s.id == 6)  # JotL ignores proximity in focus ties
    assert solve(sc.situation, "gloomhaven") == (
        Outcome((3, 0), ((4, -1),)),
        Outcome((5, -1), ((4, -1),)),
    )
    assert solve(sc.situation, "jotl") == (Outcome((6, -1), ((7, -2),)),)


def test_unknown_rules_is_a_rule_error(scenarios) -> None:
    with pytest.raises(MonsterAIError) as err:
        solve(scenarios[0].situation, "descent")
    assert err.value.key == "dungeon.ai.unknown_rules"
    assert isinstance(err.value, RuleError)


def test_loader_rejects_bad_documents() -> None:
    with pytest.raises(ScenarioError) as err:
        parse({"format": "something-else"})
    assert err.value.key == "dungeon.scenario.format"
    bad_hex = {
        "format": "monster-ai-scenarios/1",
        "scenarios": [
            {
                "id": 1,
                "monster": [1, "x"],
                "characters": [],
                "action": {"move": 1},
            }
        ],
    }
    with pytest.raises(ScenarioError) as err:
        parse(bad_hex)
    assert err.value.key == "dungeon.scenario.bad_hex"
    with pytest.raises(ScenarioError) as err:
        load(ROOT / "no-such-file.json")
    assert err.value.key == "dungeon.scenario.no_file"


# --- the CLI -------------------------------------------------------------------------------------


def test_cli_prints_one_json_object_per_scenario(capsys) -> None:
    assert bot_main(["monster-ai", str(FILE), "--id", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in lines] == [
        {
            "id": 6,
            "outcomes": [
                {"move_to": [3, 0], "attacks": [[4, -1]]},
                {"move_to": [5, -1], "attacks": [[4, -1]]},
            ],
        }
    ]
    assert bot_main(["monster-ai", str(FILE), "--id", "6", "--rules", "jotl"]) == 0
    assert json.loads(capsys.readouterr().out)["outcomes"] == [
        {"move_to": [6, -1], "attacks": [[7, -2]]}
    ]


def test_cli_check_counts_per_variant(capsys) -> None:
    assert bot_main(["monster-ai", str(FILE), "--check", "--id", "64"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "gloomhaven: 1/1 passed",
        "frosthaven: 1/1 passed",
        "jotl: 1/1 passed",
    ]


def test_cli_check_fails_on_a_wrong_expectation(tmp_path: Path, capsys) -> None:
    document = json.loads(FILE.read_text("utf-8"))
    document["scenarios"] = document["scenarios"][:3]
    document["scenarios"][1]["expected"]["frosthaven"] = [{"move_to": [0, 0], "attacks": []}]
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(document), "utf-8")
    assert bot_main(["monster-ai", str(wrong), "--check", "--rules", "frosthaven"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "frosthaven: 2/3 passed (failed: 2)"
    assert json.loads(out[0])["id"] == 2
    assert bot_main(["monster-ai", str(wrong), "--check", "--rules", "gloomhaven"]) == 0


def test_cli_reports_a_missing_file(capsys) -> None:
    assert bot_main(["monster-ai", "/no/such/file.json"]) == 1
    assert "no such file" in capsys.readouterr().err
