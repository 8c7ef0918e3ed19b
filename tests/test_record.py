"""Match records (spec/match-record.md): ``replay`` and ``verify``, on hand-made records built from
the Arena digest and on records the offline demo exports."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import dice as dicelib
from bot.__main__ import main
from bot.i18n import t
from bot.record import RecordError, replay, verify
from bot.storage import SqliteRepository
from bot.table import Player, Table

ROOT = Path(__file__).resolve().parent.parent
STAY = {"A": "stay none", "B": "stay none"}


def record(turns: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "format": "pbp-match/1",
        "game_id": "g-0001",
        "ruleset": "arena",
        "options": {},
        "seats": ["A", "B"],
        "setup": {"inputs": {}, "rolls": []},
        "turns": turns,
    }
    base.update(extra)
    return base


def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: Any) -> tuple[int, str, str]:
    """Run ``python -m bot`` in-process; a dict argument is written to a file first."""
    argv = []
    for arg in args:
        if isinstance(arg, dict | list):
            path = tmp_path / "record.json"
            path.write_text(json.dumps(arg, ensure_ascii=False), "utf-8")
            arg = path
        argv.append(str(arg))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(code: int, out: str, err: str) -> str:
    assert code != 0
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# --- replay: the digest by hand ----------------------------------------------------------------

# The spec's example: A front-right then turn left, B forward. A's dice (4, 6, 1), B's (2, 3, 5).
SPEC_EXAMPLE = record(
    [
        {"inputs": {"A": "右前 左回転", "B": "前 向きを変えない"}, "rolls": [4, 6, 1, 2, 3, 5]},
        {"inputs": {"A": "stay none"}, "rolls": [1, 1, 1, 6, 6, 6]},
    ]
)


def test_replay_the_spec_example(capsys, tmp_path) -> None:
    code, out, err = cli(capsys, tmp_path, "replay", SPEC_EXAMPLE)
    assert code == 0, err
    result = json.loads(out)
    assert set(result) == {"ruleset", "turns_resolved", "finished", "winner", "summary"}
    assert result["ruleset"] == "arena"
    assert result["turns_resolved"] == 2
    assert result["finished"] is False and result["winner"] is None
    # A: (0, 2) facing N, front-right is NE: (1, 1), then turns left to NW.
    # B: (0, -2) facing S, forward: (0, -1). Two turns of stamina loss. Turn 1: A higher in two
    # pairs (4>2, 6>3) may charge; turn 2 (1,1,1) vs (6,6,6): only B may.
    assert result["summary"] == {
        "fighters": {
            "A": {
                "hex": [1, 1],
                "facing": "NW",
                "stamina": 13,
                "may_charge": False,
                "no_retreat": False,
            },
            "B": {
                "hex": [0, -1],
                "facing": "S",
                "stamina": 13,
                "may_charge": True,
                "no_retreat": False,
            },
        }
    }


def test_combat_uses_a_dice_then_b_dice(capsys, tmp_path) -> None:
    """Draw order: A's three dice, then B's. Head-on combat, A's 6s beat B's 1s: B takes 1 and
    is pushed back along A's facing."""
    rec = record(
        [
            {"inputs": {"A": "forward none", "B": "forward none"}, "rolls": [3, 3, 3, 3, 3, 3]},
            {"inputs": {"A": "forward none", "B": "stay none"}, "rolls": [6, 6, 6, 1, 1, 1]},
        ]
    )
    code, out, err = cli(capsys, tmp_path, "replay", rec)
    assert code == 0, err
    fighters = json.loads(out)["summary"]["fighters"]
    assert fighters["A"]["hex"] == [0, -1] and fighters["B"]["hex"] == [0, -2]
    assert fighters["A"]["stamina"] == 13 and fighters["B"]["stamina"] == 12
    assert fighters["A"]["may_charge"] and not fighters["B"]["may_charge"]
    # swap the dice: now B wins and pushes A back south
    rec["turns"][1]["rolls"] = [1, 1, 1, 6, 6, 6]
    fighters = replay(rec).result()["summary"]["fighters"]
    assert fighters["A"]["hex"] == [0, 1] and fighters["B"]["hex"] == [0, 0]
    assert fighters["A"]["stamina"] == 12 and fighters["B"]["stamina"] == 13


def test_a_game_played_to_the_end(capsys, tmp_path) -> None:
    # Nobody moves: 15 turns of stamina loss and both die together.
    turns = [{"inputs": dict(STAY), "rolls": [1, 2, 3, 4, 5, 6]} for _ in range(15)]
    code, out, err = cli(capsys, tmp_path, "replay", record(turns))
    assert code == 0, err
    result = json.loads(out)
    assert result["turns_resolved"] == 15
    assert result["finished"] is True and result["winner"] == "draw"
    assert result["summary"]["fighters"]["A"]["stamina"] == 0
    # one turn more than the game has
    turns.append({"inputs": dict(STAY), "rolls": [1, 2, 3, 4, 5, 6]})
    line = one_error_line(*cli(capsys, tmp_path, "replay", record(turns)))
    assert "turn 16" in line and "over" in line


def test_a_missing_seat_takes_the_default_order() -> None:
    rec = record([{"inputs": {}, "rolls": [1, 2, 3, 4, 5, 6]}])
    result = replay(rec)
    assert result.orders == [{"A": "stay none", "B": "stay none"}]
    assert result.result()["summary"]["fighters"]["A"]["hex"] == [0, 2]


def _is(line: dict[str, Any], kind: str) -> bool:
    return line["event"]["type"] == kind


def test_events_come_before_the_result(capsys, tmp_path) -> None:
    code, out, err = cli(capsys, tmp_path, "replay", SPEC_EXAMPLE, "--events")
    assert code == 0, err
    lines = [json.loads(line) for line in out.strip().splitlines()]
    *events, result = lines
    assert result["turns_resolved"] == 2
    assert events and all(set(e) == {"turn", "event"} and "type" in e["event"] for e in events)
    assert [e["turn"] for e in events] == sorted(e["turn"] for e in events)
    assert {e["turn"] for e in events} == {1, 2}
    dice = [(e["turn"], e["event"]["seat"], e["event"]["dice"]) for e in events if _is(e, "dice")]
    assert dice == [
        (1, "A", [4, 6, 1]),
        (1, "B", [2, 3, 5]),
        (2, "A", [1, 1, 1]),
        (2, "B", [6, 6, 6]),
    ]
    # An order event has a field of its own called "turn" (the facing change): both survive.
    orders = [
        (e["turn"], e["event"]["move"], e["event"]["turn"]) for e in events if _is(e, "order")
    ]
    assert orders == [
        (1, "front-right", "left"),
        (1, "forward", "none"),
        (2, "stay", "none"),
        (2, "stay", "none"),  # B did not submit: the default order
    ]
    # without --events only the result is printed
    code, out, _ = cli(capsys, tmp_path, "replay", SPEC_EXAMPLE)
    assert len(out.strip().splitlines()) == 1


def test_several_inputs_as_a_list() -> None:
    rec = record([{"inputs": {"A": ["右前", "左回転"]}, "rolls": [1, 2, 3, 4, 5, 6]}])
    assert replay(rec).orders[0]["A"] == "front-right left"


# --- replay: real seeds ------------------------------------------------------------------------


def seeded_record(game_id: str = "g-0042") -> tuple[dict[str, Any], list[list[int]]]:
    seeds = [bytes([n]) * 32 for n in (1, 2, 3)]
    turns, expected = [], []
    for n, seed in enumerate(seeds, start=1):
        stream = dicelib.DiceStream(seed, dicelib.stream_label(game_id, n, "pre"))
        expected.append([stream.roll(6) for _ in range(6)])
        turns.append({"inputs": dict(STAY), "seeds": {"pre": seed.hex()}})
    return record(turns, game_id=game_id), expected


def test_seeds_are_drawn_as_in_the_dice_spec() -> None:
    rec, expected = seeded_record()
    result = replay(rec)
    assert [d["pre"] for d in result.drawn] == expected
    shown = [list(e.data["dice"]) for _, e in result.events if e.type == "dice"]
    assert shown == [half for six in expected for half in (six[:3], six[3:])]
    # the label binds the game id: the same seeds in another game give other dice
    other, other_expected = seeded_record("g-0043")
    assert other_expected != expected
    assert [d["pre"] for d in replay(other).drawn] == other_expected


def test_a_seed_that_is_not_hex(capsys, tmp_path) -> None:
    rec, _ = seeded_record()
    rec["turns"][1]["seeds"]["pre"] = "not hex"
    line = one_error_line(*cli(capsys, tmp_path, "replay", rec))
    assert line.startswith("replay: turn 2") and "hex" in line


# --- replay: refusals --------------------------------------------------------------------------


def test_unknown_ruleset(capsys, tmp_path) -> None:
    line = one_error_line(*cli(capsys, tmp_path, "replay", record([], ruleset="chess")))
    assert "unknown ruleset" in line and "chess" in line


def test_malformed_json(capsys, tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "pbp-match/1", "turns": [', "utf-8")
    line = one_error_line(*cli(capsys, tmp_path, "replay", path))
    assert "JSON" in line


def test_missing_file(capsys, tmp_path) -> None:
    line = one_error_line(*cli(capsys, tmp_path, "replay", tmp_path / "nope.json"))
    assert "nope.json" in line


@pytest.mark.parametrize("body", [[], "text", 5])
def test_not_an_object(capsys, tmp_path, body) -> None:
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(body), "utf-8")
    one_error_line(*cli(capsys, tmp_path, "replay", path))
    one_error_line(*cli(capsys, tmp_path, "verify", path))


def test_rejected_order_names_turn_seat_and_reason(capsys, tmp_path) -> None:
    rec = record(
        [
            {"inputs": dict(STAY), "rolls": [1, 2, 3, 4, 5, 6]},
            # B stands at (0, -2) facing S: its back hex (0, -3) is wall
            {"inputs": {"A": "stay none", "B": "後退 なし"}, "rolls": [1, 2, 3, 4, 5, 6]},
        ]
    )
    line = one_error_line(*cli(capsys, tmp_path, "replay", rec))
    assert line.startswith("replay: turn 2, seat B: ")
    assert line.endswith(t("en", "arena.reject.wall", move_key="arena.move.back"))


def test_unreadable_order_names_the_seat(capsys, tmp_path) -> None:
    rec = record([{"inputs": {"A": "dance wildly"}, "rolls": [1, 2, 3, 4, 5, 6]}])
    line = one_error_line(*cli(capsys, tmp_path, "replay", rec))
    assert "turn 1, seat A:" in line and "dance" in line


def test_input_for_a_seat_that_does_not_exist(capsys, tmp_path) -> None:
    rec = record([{"inputs": {"A": "stay none", "b": "forward none"}, "rolls": [1] * 6}])
    line = one_error_line(*cli(capsys, tmp_path, "replay", rec))
    assert line.startswith("replay: turn 1, seat b: ")


def test_die_out_of_range(capsys, tmp_path) -> None:
    rec = record([{"inputs": dict(STAY), "rolls": [1, 2, 3, 7, 5, 6]}])
    line = one_error_line(*cli(capsys, tmp_path, "replay", rec))
    assert line.startswith("replay: turn 1")
    assert line.endswith(t("en", "dice.out_of_range", index=4, value=7, sides=6))


def test_missing_dice(capsys, tmp_path) -> None:
    rec = record(
        [
            {"inputs": dict(STAY), "rolls": [1, 2, 3, 4, 5, 6]},
            {"inputs": dict(STAY), "rolls": [1, 2, 3]},
        ]
    )
    line = one_error_line(*cli(capsys, tmp_path, "replay", rec))
    assert line.startswith("replay: turn 2")
    assert line.endswith(t("en", "dice.missing", index=4, sides=6))
    # no dice at all for a turn: neither rolls nor seeds
    rec["turns"][1] = {"inputs": dict(STAY)}
    line = one_error_line(*cli(capsys, tmp_path, "replay", rec))
    assert line.startswith("replay: turn 2") and "dice ran out" in line


def test_rolls_left_over(capsys, tmp_path) -> None:
    rec = record([{"inputs": dict(STAY), "rolls": [1, 2, 3, 4, 5, 6, 1]}])
    line = one_error_line(*cli(capsys, tmp_path, "replay", rec))
    assert "turn 1" in line and "1 roll(s) left unused" in line


@pytest.mark.parametrize(
    "turn",
    [
        {"inputs": dict(STAY), "rolls": 6},
        {"inputs": dict(STAY), "rolls": "123456"},
        {"inputs": ["stay none", "stay none"], "rolls": [1, 2, 3, 4, 5, 6]},
        {"inputs": dict(STAY), "seeds": {"pre": 12}},
        {"inputs": dict(STAY), "seeds": ["00" * 32]},
        "stay",
    ],
)
def test_malformed_turns_are_one_line_errors(capsys, tmp_path, turn) -> None:
    line = one_error_line(*cli(capsys, tmp_path, "replay", record([turn])))
    assert line.startswith("replay: turn 1")


@pytest.mark.parametrize("resigned", ["C", ["A", "B"]])
def test_bad_resignation_is_a_one_line_error(capsys, tmp_path, resigned) -> None:
    rec = record([{"inputs": dict(STAY), "rolls": [1, 2, 3, 4, 5, 6]}], end={"resigned": resigned})
    one_error_line(*cli(capsys, tmp_path, "replay", rec))


def test_resignation_ends_the_game() -> None:
    rec = record([{"inputs": dict(STAY), "rolls": [1, 2, 3, 4, 5, 6]}], end={"resigned": "A"})
    result = replay(rec).result()
    assert result["finished"] is True and result["winner"] == "B"


# Any JSON at all, shaped a little like a record so that the fuzzing reaches deep into it.
_KEYS = ["A", "B", "pre", "resolve", "rolls", "seeds", "inputs", "resigned", "receipt", "x"]
_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 9),
    st.text(max_size=4),
    st.sampled_from(["A", "stay none", "forward left", "後退", "ab" * 32, "pbp-match/1"]),
)
_json = st.recursive(
    _leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(_KEYS), inner, max_size=4)
    ),
    max_leaves=10,
)
_block = st.fixed_dictionaries(
    {},
    optional={
        "inputs": st.one_of(_json, st.dictionaries(st.sampled_from(["A", "B", "C"]), _json)),
        "rolls": st.one_of(_json, st.lists(st.integers(0, 7), max_size=8)),
        "seeds": st.one_of(_json, st.dictionaries(st.sampled_from(["pre", "resolve"]), _json)),
        **{k: _json for k in ("receipts", "salts", "commitments", "drawn", "orders_digest")},
        **{k: _json for k in ("step", "left")},
    },
)
_secret = st.fixed_dictionaries(
    {}, optional={k: _json for k in ("commitment", "seed", "drawn", "blocks")}
)
_result = st.fixed_dictionaries(
    {},
    optional={
        "status": st.sampled_from(["finished", "active", "abandoned", "won"]),
        "winner": st.one_of(_json, st.sampled_from(["A", "B", "draw"])),
        "end_reason": st.one_of(_json, st.sampled_from(["rules", "resign", "adjudicated"])),
        "turns_resolved": _json,
        "grades": _json,
    },
)
_records = st.fixed_dictionaries(
    {"ruleset": st.sampled_from(["arena", "chess"])},
    optional={
        **{k: _json for k in ("format", "game_id", "options", "end", "players_digest")},
        "players": st.one_of(_json, st.dictionaries(st.sampled_from(["A", "B", "C"]), _json)),
        "result": st.one_of(_json, _result),
        "seats": st.one_of(_json, st.just(["A", "B"])),
        "setup": st.one_of(_json, _block),
        "turns": st.one_of(_json, st.lists(_block, max_size=3)),
        "secret": st.one_of(_json, _secret),
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_records)
def test_any_json_is_replayed_or_refused_with_a_record_error(rec) -> None:
    """Never a traceback: whatever the file holds, replay and verify answer or name the problem."""
    for check in (replay, verify):
        try:
            check(rec)
        except RecordError as exc:
            assert "\n" not in str(exc)


def test_record_error_reads_as_one_line() -> None:
    assert str(RecordError("why", turn=3, seat="B")) == "turn 3, seat B: why"
    assert str(RecordError("why", turn=0)) == "setup: why"
    assert str(RecordError("why")) == "why"
    # a step is named by its index and by the ruleset's label, when the label says more
    assert (
        str(RecordError("why", turn=3, seat="B", step="deploy")) == "turn 3 (deploy), seat B: why"
    )
    assert str(RecordError("why", turn=3, step="turn 3")) == "turn 3: why"
    assert RecordError("why", turn=3, step="deploy").reason == "why"


def sealed(texts: dict[str, str], canonical: dict[str, str]) -> dict[str, Any]:
    """A hand-written turn whose receipts seal the canonical orders (the table seals those)."""
    salts = {seat: bytes([i + 1]) * 16 for i, seat in enumerate(canonical)}
    receipts = {seat: dicelib.receipt(salts[seat], text) for seat, text in canonical.items()}
    return {
        "inputs": texts,
        "rolls": [1, 2, 3, 4, 5, 6],
        "receipts": receipts,
        "salts": {seat: salt.hex() for seat, salt in salts.items()},
        "orders_digest": dicelib.orders_digest(receipts[s] for s in ("A", "B")),
    }


def test_receipts_seal_the_canonical_order(capsys, tmp_path) -> None:
    """An input as a player typed it (Japanese) checks against the receipt of its canonical
    text: only the replay, which parses it, can tell, so the check waits for its turn."""
    turn = sealed({"A": "右前 左回転"}, {"A": "front-right left", "B": "stay none"})
    rec = record([turn])
    assert replay(rec).orders == [{"A": "front-right left", "B": "stay none"}]
    checks = verify(rec)
    assert [c.what for c in checks if "receipt" in c.what] == [
        "turn 1 seat A receipt",
        "turn 1 seat B receipt",  # B defaulted: its default order was sealed
    ]
    assert all(c.ok for c in checks)
    # another order in Japanese is another canonical text: refused on its own turn
    turn["inputs"]["A"] = "右前 右回転"
    line = one_error_line(*cli(capsys, tmp_path, "replay", rec))
    assert line == "replay: turn 1, seat A: the order (with its salt) does not match its receipt"
    code, out, _ = cli(capsys, tmp_path, "verify", rec)
    assert code == 1 and "FAILED  turn 1 seat A receipt" in out.splitlines()


# --- the demo's records ------------------------------------------------------------------------


def run_demo(out: Path, seed: int, lang: str = "en") -> dict[str, Any]:
    rec = out / "record.json"
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "bot", "demo", "arena", "--seed", str(seed), "--lang", lang),
            *("--record", str(rec), "--out", str(out)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    summary["record_data"] = json.loads(rec.read_text("utf-8"))
    return summary


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_demo(tmp_path_factory.mktemp("demo"), seed=7)


def test_demo_record_has_the_spec_shape(demo) -> None:
    rec = demo["record_data"]
    assert rec["format"] == "pbp-match/1"
    assert rec["ruleset"] == "arena" and rec["seats"] == ["A", "B"]
    assert rec["game_id"] == demo["game_id"]
    assert len(rec["turns"]) == demo["turns"] > 0
    for turn in rec["turns"]:
        assert set(turn["seeds"]) == {"pre", "resolve"}
        assert "rolls" not in turn  # real exports carry seeds, not scripted rolls
        for phase, seed in turn["seeds"].items():
            assert dicelib.commitment(bytes.fromhex(seed)) == turn["commitments"][phase]


def test_replay_reproduces_the_demo(demo, capsys, tmp_path) -> None:
    code, out, err = cli(capsys, tmp_path, "replay", demo["record_data"])
    assert code == 0, err
    result = json.loads(out)
    assert result["turns_resolved"] == demo["turns"]
    assert result["winner"] == demo["winner"]
    assert result["finished"] is (demo["winner"] is not None)


def test_verify_passes_on_the_demo(demo, capsys, tmp_path) -> None:
    code, out, err = cli(capsys, tmp_path, "verify", demo["record_data"])
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[-1].endswith(" passed, 0 failed")
    assert not any(line.startswith("FAILED") for line in lines)
    # every turn's receipts, digest and both dice streams were checked, and the setup's dice
    n = demo["turns"]
    assert sum("receipt" in line for line in lines) == 2 * n
    assert sum("orders digest" in line for line in lines) == n
    assert sum(" rolls " in line for line in lines) == 2 * n + 1
    assert "ok      setup pre rolls []" in lines


def _failed(capsys, tmp_path, rec: dict[str, Any]) -> list[str]:
    code, out, _ = cli(capsys, tmp_path, "verify", rec)
    assert code != 0, out
    return [line for line in out.splitlines() if line.startswith("FAILED")]


def test_verify_detects_a_tampered_seed(demo, capsys, tmp_path) -> None:
    rec = copy.deepcopy(demo["record_data"])
    last = rec["turns"][-1]
    last["seeds"]["pre"] = "%064x" % (int(last["seeds"]["pre"], 16) ^ 1)
    failed = _failed(capsys, tmp_path, rec)
    n = len(rec["turns"])
    assert f"FAILED  turn {n} pre commitment sha256(seed)" in failed
    assert any(line.startswith(f"FAILED  turn {n} pre rolls") for line in failed)


def test_verify_detects_a_swapped_seed_and_commitment(demo, capsys, tmp_path) -> None:
    """A forger who replaces the seed and its commitment together still changes the dice."""
    rec = copy.deepcopy(demo["record_data"])
    last = rec["turns"][-1]
    forged = bytes(32)
    last["seeds"]["pre"], last["commitments"]["pre"] = forged.hex(), dicelib.commitment(forged)
    failed = _failed(capsys, tmp_path, rec)
    assert [line for line in failed if " rolls " in line]
    assert not [line for line in failed if "commitment" in line]


def test_verify_detects_a_tampered_order(demo, capsys, tmp_path) -> None:
    rec = copy.deepcopy(demo["record_data"])
    last = rec["turns"][-1]
    n = len(rec["turns"])
    was = last["inputs"].get("A", "stay none")
    last["inputs"]["A"] = "stay right" if was != "stay right" else "stay left"
    assert f"FAILED  turn {n} seat A receipt" in _failed(capsys, tmp_path, rec)


def test_verify_detects_a_tampered_receipt(demo, capsys, tmp_path) -> None:
    rec = copy.deepcopy(demo["record_data"])
    first = rec["turns"][0]
    receipt = first["receipts"]["B"]
    first["receipts"]["B"] = ("0" if receipt[0] != "0" else "1") + receipt[1:]
    failed = _failed(capsys, tmp_path, rec)
    assert "FAILED  turn 1 seat B receipt" in failed
    assert "FAILED  turn 1 orders digest" in failed


def test_verify_detects_a_tampered_salt(demo, capsys, tmp_path) -> None:
    rec = copy.deepcopy(demo["record_data"])
    rec["turns"][0]["salts"]["A"] = "00" * 16
    assert "FAILED  turn 1 seat A receipt" in _failed(capsys, tmp_path, rec)


def test_verify_detects_a_tampered_roll(demo, capsys, tmp_path) -> None:
    rec = copy.deepcopy(demo["record_data"])
    drawn = rec["turns"][0]["drawn"]["pre"]
    was = list(drawn)
    drawn[0] = drawn[0] % 6 + 1
    failed = _failed(capsys, tmp_path, rec)
    # what the record says and what was expected, side by side
    assert failed == [
        f"FAILED  turn 1 pre rolls {drawn} (expected {was}: the rolls its seed gives)"
    ]


def test_verify_python_api_matches_cli(demo) -> None:
    checks = verify(demo["record_data"])
    assert checks and all(c.ok for c in checks)


def test_verify_with_nothing_to_check_fails(capsys, tmp_path) -> None:
    code, out, _ = cli(capsys, tmp_path, "verify", SPEC_EXAMPLE)
    assert code != 0 and out.strip().endswith("0 passed, 0 failed")


def test_verify_unknown_ruleset_is_one_clear_line(capsys, tmp_path) -> None:
    line = one_error_line(*cli(capsys, tmp_path, "verify", record([], ruleset="chess")))
    assert "unknown ruleset" in line and "chess" in line


# --- an export with a deadline default and a resignation ---------------------------------------


async def test_export_with_default_and_resignation_replays_and_verifies(tmp_path) -> None:
    repo = SqliteRepository(tmp_path / "bot.sqlite3")
    await repo.open()
    now = [1_800_000_000.0]
    try:
        table = Table(repo, clock=lambda: now[0])
        players = [Player(1, "Aurora"), Player(2, "Borealis")]
        game = await table.challenge(
            "arena", guild_id=None, channel_id=5, players=players, turn_seconds=3600
        )
        game = await table.accept(game.id, 2)
        await table.submit(game.id, 1, "forward none")
        await table.submit(game.id, 2, "前 左回転")
        await table.submit(game.id, 1, "stay right")  # B lets the deadline pass
        now[0] += 7200
        assert await table.tick() == 1
        await table.resign(game.id, 2)
        rec = await table.export(game.id)
        async with repo.transaction() as tx:
            played = await tx.events(game.id)
    finally:
        await repo.close()

    assert [turn["defaulted"] for turn in rec["turns"]] == [[], ["B"]]
    assert rec["turns"][1]["inputs"] == {"A": "stay right"}
    assert rec["end"] == {"resigned": "B"}
    result = replay(rec)
    assert result.result()["winner"] == "A" and result.result()["finished"] is True
    assert result.turns_resolved == 2
    assert result.orders[1] == {"A": "stay right", "B": "stay none"}
    # The resolved turns replay event for event. (The resignation itself happened in turn 3,
    # whose dice were drawn but never revealed, so the replay places it after turn 2.)
    replayed = [(turn, event.to_json()) for turn, event in result.events]
    assert replayed[:-1] == [(turn, event) for turn, event in played if turn <= 2]
    assert replayed[-1][1] == played[-1][1] == {"type": "resigned", "seat": "B", "winner": "A"}
    checks = verify(rec)
    assert checks and [c.what for c in checks if not c.ok] == []
    assert any("seat B receipt" in c.what for c in checks)  # the default order was sealed too
    # the export binds the players to their seats and says how the game ended
    assert rec["players"] == {"A": "Aurora", "B": "Borealis"}
    assert rec["result"] == {
        "status": "finished",
        "winner": "A",
        "end_reason": "resign",
        "turns_resolved": 2,
    }
    oks = [c.what for c in checks if c.ok and not c.note]
    assert "players bound to their seats (players_digest)" in oks
    assert {"result winner A", "result end_reason resign", "result turns_resolved 2"} <= set(oks)
    swapped = {**rec, "players": {"A": "Borealis", "B": "Aurora"}}
    assert [c.what for c in verify(swapped) if not c.ok] == [
        "players digest: the players A Borealis, B Aurora are not the ones the record's"
        " players_digest binds to the seats"
    ]
    with pytest.raises(RecordError, match="players_digest"):
        replay(swapped)
    cut = {**rec, "turns": rec["turns"][:1]}  # still ends by B's resignation, one step early
    assert [c.what for c in verify(cut) if not c.ok] == [
        "truncated: the record claims 2 resolved turns but holds 1"
    ]
