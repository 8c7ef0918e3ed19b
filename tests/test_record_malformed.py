"""Malformed records and files: options of the wrong type, JSON nested too deeply, numbers too
long to read, a folder or an oversized file given as FILE. ``python -m bot replay|verify`` answers
each with one clear line and a non-zero exit, never a traceback, and ``replay``/``verify`` raise
:class:`RecordError` (which ``/verify record`` shows), never anything else."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import dice as dicelib
from bot import registry
from bot.__main__ import main
from bot.i18n import t
from bot.record import MAX_RECORD_BYTES, RecordError, load_record, replay, verify
from bot.record.read import reason_of as record_reason
from bot.ruleset import RuleError
from cogs.apeiron import rules as apeiron
from cogs.arena import rules as arena
from cogs.dungeon import rules as dungeon
from cogs.esper import rules as esper
from cogs.tactics import rules as tactics

RECORDS = Path(__file__).parent / "data" / "records"


def fixture(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{name}.json").read_text("utf-8"))


def one_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the command line in-process: exit 1, nothing on stdout, one line on stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 1, out
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def both(capsys: pytest.CaptureFixture[str], path: Path) -> list[str]:
    """``replay`` and ``verify`` of the same file, each one line; the lines without the prefix."""
    replayed = one_line(capsys, "replay", str(path))
    verified = one_line(capsys, "verify", str(path))
    assert replayed.startswith("replay: ") and verified.startswith("verify: ")
    return [replayed.removeprefix("replay: "), verified.removeprefix("verify: ")]


def write(tmp_path: Path, rec: Any) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(rec, ensure_ascii=False), "utf-8")
    return path


def in_both_languages(key: str) -> None:
    assert t("en", key) != key and t("ja", key) != key and t("ja", key) != t("en", key)


# --- options of the wrong type -------------------------------------------------------------------

BAD_OPTIONS = [
    ("tactics", {"rosters": {"A": 1, "B": 2}}, "tactics.option.roster_entry", {"seat": "A"}),
    ("tactics", {"rosters": {"A": [], "B": []}}, "tactics.option.roster_entry", {"seat": "A"}),
    (
        "tactics",
        {"rosters": {s: {"master": "oracle", "units": 5} for s in "AB"}},
        "tactics.option.roster_units",
        {"seat": "A"},
    ),
    (
        "tactics",
        {"rosters": {s: {"master": "oracle", "units": [["bard"]]} for s in "AB"}},
        "tactics.option.roster_units",
        {"seat": "A"},
    ),
    ("dungeon", {"classes": {"A": ["brute"]}}, "dungeon.option.class_type", {"seat": "A"}),
    ("dungeon", {"classes": {"B": {"brute": 1}}}, "dungeon.option.class_type", {"seat": "B"}),
    ("dungeon", {"classes": [["A", "brute"]]}, "dungeon.option.classes", {}),
    ("arena", {"obstacles": [[1, {}]]}, "arena.option.invalid", {"option": "obstacles"}),
]


@pytest.mark.parametrize(("ruleset", "options", "key", "params"), BAD_OPTIONS)
def test_check_options_refuses_wrong_types(ruleset, options, key, params) -> None:
    rules = {"tactics": tactics, "dungeon": dungeon, "arena": arena}[ruleset]
    with pytest.raises(rules.OptionError) as caught:
        rules.check_options(options)
    assert (caught.value.key, caught.value.params) == (key, params)
    in_both_languages(key)
    # and a new game checks its options first
    with pytest.raises(rules.OptionError):
        rules.new_game("g-1", ["A", "B"], options, dicelib.ScriptedDice([1] * 20))


@pytest.mark.parametrize(("ruleset", "options", "key", "params"), BAD_OPTIONS)
def test_a_record_with_wrong_option_types(ruleset, options, key, params, capsys, tmp_path):
    rec = fixture(ruleset)
    rec["options"] = options
    path = write(tmp_path, rec)
    replayed = one_line(capsys, "replay", str(path))
    assert replayed == f"replay: setup: {t('en', key, **params)}"
    code = main(["verify", str(path)])
    out = capsys.readouterr().out
    assert code == 1
    assert f"FAILED  replay: setup: {t('en', key, **params)}" in out.splitlines()


def test_every_option_value_of_any_type_is_refused_with_a_rule_error() -> None:
    """Whatever JSON an option holds, the ruleset says what is wrong (no TypeError)."""
    values: list[Any] = [None, True, 3, -1, 1.5, "x", [], [1], [[1]], {}, {"A": 1}, {"A": [1]}]
    names = {
        tactics: ["map", "cost_cap", "tie_break", "turns", "rosters"],
        dungeon: ["scenario", "level", "rules", "classes"],
        arena: ["obstacles"],
    }
    for rules, keys in names.items():
        for key in keys:
            for value in values:
                try:
                    rules.check_options({key: value})
                except RuleError as exc:
                    assert t("en", exc.key, **exc.params) != exc.key
                    assert t("ja", exc.key, **exc.params) != exc.key


# --- JSON the engine cannot walk ---------------------------------------------------------------


def test_json_nested_too_deeply(capsys, tmp_path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    assert both(capsys, path) == [t("en", "record.load.too_deep")] * 2
    in_both_languages("record.load.too_deep")


def test_nesting_that_parses_but_is_too_deep_to_replay() -> None:
    """Deep enough to copy or print past the recursion limit, not to fail parsing."""
    rec = fixture("tactics")
    deep: Any = []
    for _ in range(sys.getrecursionlimit() - 100):
        deep = [deep]
    rec["options"]["notes"] = deep
    for check in (replay, verify):
        with pytest.raises(RecordError) as caught:
            check(rec)
        assert str(caught.value) == t("en", "record.load.too_deep")


def test_a_number_of_five_thousand_digits(capsys, tmp_path) -> None:
    path = tmp_path / "huge.json"
    path.write_text('{"format": "pbp-match/1", "game_id": ' + "9" * 5000 + "}", "utf-8")
    digits = sys.get_int_max_str_digits()
    assert both(capsys, path) == [t("en", "record.load.long_number", digits=digits)] * 2


def test_a_huge_number_handed_to_the_python_api() -> None:
    rec = fixture("arena")
    rec["turns"][0]["drawn"]["pre"] = [10**5000]
    for check in (replay, verify):
        with pytest.raises(RecordError):
            check(rec)


@pytest.mark.parametrize("order", ["card " + "9" * 5000, "card ²", "9" * 5000])
def test_an_order_with_a_number_too_long_to_read(order: str, capsys, tmp_path) -> None:
    rec = fixture("dungeon")
    rec["turns"][0]["inputs"]["A"] = order
    with pytest.raises(RecordError) as caught:
        replay(rec)
    assert caught.value.turn == 1
    line = one_line(capsys, "replay", str(write(tmp_path, rec)))
    assert line.startswith("replay: turn 1")


def test_the_dungeon_reads_small_numbers_as_before() -> None:
    rec = {**fixture("dungeon"), "turns": []}
    del rec["result"]  # the setup alone: a game still going on
    state, _ = dungeon.start_step(replay(rec).state, dicelib.ScriptedDice([]))
    hand = state.heroes["A"].hand
    assert dungeon.parse(state, "A", "card 1").card == hand[0]
    assert dungeon.parse(state, "A", "card １").card == hand[0]  # full-width
    with pytest.raises(RuleError):
        dungeon.parse(state, "A", f"card {len(hand) + 1}")


# --- the file itself -----------------------------------------------------------------------------


def test_a_folder_as_file(capsys, tmp_path) -> None:
    assert both(capsys, tmp_path) == [t("en", "record.load.folder", path=tmp_path)] * 2
    in_both_languages("record.load.folder")


def test_a_file_over_the_cap_is_refused_before_it_is_read(capsys, tmp_path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as file:
        file.truncate(MAX_RECORD_BYTES + 1)  # sparse: its size says enough
    size = MAX_RECORD_BYTES + 1
    expected = t("en", "record.load.too_big", path=path, size=size, limit=MAX_RECORD_BYTES)
    assert both(capsys, path) == [expected] * 2
    in_both_languages("record.load.too_big")


def test_the_cap_is_the_bots() -> None:
    from cogs.game import cog

    assert cog.MAX_RECORD_BYTES == MAX_RECORD_BYTES == 2_000_000


def test_a_file_at_the_cap_is_read(capsys, tmp_path) -> None:
    rec = json.dumps(fixture("arena"))
    path = tmp_path / "padded.json"
    path.write_text(rec + " " * (MAX_RECORD_BYTES - len(rec)), "utf-8")
    assert main(["verify", str(path)]) == 0
    capsys.readouterr()


def test_not_utf8_and_not_json(capsys, tmp_path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"game_id": "\xe9"}')
    assert both(capsys, path) == [t("en", "record.load.not_utf8")] * 2
    path.write_text('{"turns": [', "utf-8")
    line = both(capsys, path)[0]
    assert line.startswith(t("en", "record.load.not_json", reason=""))


def test_load_record_names_the_catalogue_message() -> None:
    with pytest.raises(RecordError) as caught:
        load_record("[" * 100_000)
    assert caught.value.key == "record.load.too_deep"
    with pytest.raises(RecordError) as caught:
        load_record("1" * 5000)
    assert caught.value.key == "record.load.long_number"
    assert load_record(b'{"a": 1}') == {"a": 1}


# --- options a ruleset reads later: checked before use (issue 31, finding 10) -----------------

ESPER_OPENING = Path(__file__).parent / "data" / "esper-opening.json"
ROOT = Path(__file__).resolve().parent.parent


def esper_opening(options: dict[str, Any]) -> dict[str, Any]:
    """The first step (the deal) of a seeded five-player Esper demo (``python -m bot demo esper
    --players 5 --seed 1 --record …``, cut after turn 1, its ``result`` dropped), with
    ``options``: the deal's parser reads each seat's ``history``."""
    rec = json.loads(ESPER_OPENING.read_text("utf-8"))
    rec["options"] = options
    return rec


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("LOCALE",)}
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_esper_opening_verifies_untouched(capsys, tmp_path) -> None:
    assert main(["verify", str(write(tmp_path, esper_opening({})))]) == 0
    assert "FAILED" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("history", "seat"),
    [
        ({"A": 5}, "A"),
        ({"B": [1, 2]}, "B"),
        ({"A": {"season": 5}}, "A"),
        ({"C": {"season": [1, {}]}}, "C"),
        ({"A": {"previous": ["c01"]}}, "A"),
    ],
)
def test_an_esper_history_of_the_wrong_shape_is_refused_in_one_line(
    history: dict[str, Any], seat: str, tmp_path: Path
) -> None:
    """``python -m bot verify|replay`` once ended in an AttributeError or a TypeError."""
    path = write(tmp_path, esper_opening({"history": history}))
    said = t("en", "esper.error.option", option="history", value=seat)
    replayed = cli("replay", str(path))
    assert replayed.returncode == 1 and "Traceback" not in replayed.stderr, replayed.stderr
    assert replayed.stderr.splitlines() == [f"replay: setup: {said}"]
    verified = cli("verify", str(path))
    assert verified.returncode == 1 and "Traceback" not in verified.stderr, verified.stderr
    assert f"FAILED  replay: setup: {said}" in verified.stdout.splitlines()


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"players": [1]}, "players"),
        ({"players": True}, "players"),
        ({"season": {"x": 1}}, "season"),
        ({"minutes": True}, "minutes"),
        ({"turn_limit": "9"}, "turn_limit"),
        ({"minutes": "1\n2\x1b[2J"}, "minutes"),  # a line break, a terminal's control
        ({"history": {"A\nB": 5}}, "history"),
    ],
)
def test_other_esper_options_of_the_wrong_type(options, option, capsys, tmp_path) -> None:
    line = one_line(capsys, "replay", str(write(tmp_path, esper_opening(options))))
    assert line.startswith(f"replay: setup: The option {option} is not valid"), line


# Every option each ruleset reads; a ruleset added to the registry is added here.
OPTION_NAMES: dict[str, list[str]] = {
    "arena": ["obstacles"],
    "tactics": ["map", "cost_cap", "tie_break", "turns", "rosters"],
    "dungeon": ["scenario", "level", "rules", "classes"],
    "esper": list(esper.OPTION_KEYS),
    "apeiron": list(apeiron.OPTION_KEYS),
}
NAMES_SEEN = ["A", "B", "C", "c01", "s01", "poison", "grass-1", "knight", "oracle", "hp", "brute"]
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(NAMES_SEEN),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from([*NAMES_SEEN, "season", "previous", "master", "units", "preset"])
            | st.text(max_size=3),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def test_every_ruleset_is_swept() -> None:
    assert set(OPTION_NAMES) == set(registry.rulesets())


@pytest.mark.parametrize("ruleset", sorted(OPTION_NAMES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_options_check_options_accepts_never_crash_the_engine(ruleset: str, data) -> None:
    """Whatever JSON a record's options hold, ``check_options`` refuses it with a sentence in
    both languages, or the engine reads it without an exception: a new game, four steps of
    every choice parsed and the default orders resolved, the state saved and loaded."""
    spec = registry.get(ruleset)
    rules = spec.engine
    options = data.draw(st.dictionaries(st.sampled_from(OPTION_NAMES[ruleset]), JSON_VALUES))
    try:
        rules.check_options(options)
    except RuleError as exc:
        for lang in ("en", "ja"):
            assert t(lang, exc.key, **exc.params) != exc.key
        # As replay and verify say it: one line, whatever the option quoted holds.
        assert "\n" not in record_reason(exc) and record_reason(exc).isprintable()
        return
    secret = dicelib.DiceStream(b"s" * 32, "secret")
    try:
        state = rules.new_game("g-1", list(spec.seats.for_demo()), options, _dice(0), secret)
        for step in range(4):
            if rules.outcome(state).finished:
                break
            state, _ = rules.start_step(state, _dice(step + 1), secret)
            orders = {}
            for seat in rules.awaiting(state):
                for group in rules.choices(state, seat):
                    for choice in group.choices:
                        with contextlib.suppress(RuleError):
                            rules.parse(state, seat, choice.token)
                orders[seat] = rules.default_order(state, seat)
            state, _ = rules.resolve(state, orders, _dice(step + 50), secret)
            state = rules.from_json(rules.to_json(state))
    except RuleError:
        pass  # refused as the game goes (a field no unit fits), never a crash


def _dice(n: int) -> dicelib.DiceStream:
    return dicelib.DiceStream(bytes([n]) * 32, f"step {n}")
