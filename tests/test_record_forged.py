"""Forged records: the real exports under ``tests/data/records`` with their ``result`` edited,
their players swapped, or their last steps cut off, fail ``verify`` (exit 1, naming what does not
match) and are refused by ``replay``; a seed that does not match its commitment is reported as
that, never as the illegal move the other dice lead to; a missing orders digest is called
missing. Untouched, the fixtures still pass (``tests/test_record_fixtures.py``)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.record import RecordError, players_digest, replay, verify
from bot.record.read import label_of, where

RECORDS = Path(__file__).parent / "data" / "records"
FIXTURES = sorted(p.stem for p in RECORDS.glob("*.json"))


def step_of(rec: dict, n: int) -> str:
    """How verify and replay name turn ``n`` of ``rec``: with its step's label where the ruleset
    gives one (``turn 2 (deploy)``)."""
    return where(n, label_of(rec["turns"][n - 1]))


def fixture(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{name}.json").read_text("utf-8"))


def run(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, rec: Any) -> tuple:
    path = tmp_path / f"{command}.json"
    path.write_text(json.dumps(rec, ensure_ascii=False), "utf-8")
    code = main([command, str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def failed(capsys: pytest.CaptureFixture[str], tmp_path: Path, rec: Any) -> list[str]:
    """``verify`` fails the record: exit status 1, its FAILED lines (no traceback)."""
    code, out, err = run(capsys, tmp_path, "verify", rec)
    assert code == 1, out
    assert err == "", err
    assert out.strip().splitlines()[-1].endswith(" failed")
    return [line for line in out.splitlines() if line.startswith("FAILED")]


def refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, rec: Any) -> str:
    """``replay`` refuses the record: exit status 1, one line on stderr."""
    code, out, err = run(capsys, tmp_path, "replay", rec)
    assert code == 1 and out == "", out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def flip(hex_text: str, at: int = 0) -> str:
    digit = "0" if hex_text[at] != "0" else "1"
    return hex_text[:at] + digit + hex_text[at + 1 :]


def bound(rec: dict[str, Any]) -> dict[str, Any]:
    """The record as exported since players are bound to seats: with its ``players_digest``."""
    rec["players_digest"] = players_digest(rec["game_id"], rec["seats"], rec["players"])
    return rec


# --- the untouched fixtures: the new checks run, and pass --------------------------------------


@pytest.mark.parametrize("name", FIXTURES)
def test_untouched_fixtures_check_their_players_and_result(name: str, capsys, tmp_path) -> None:
    rec = fixture(name)
    code, out, _ = run(capsys, tmp_path, "verify", rec)
    assert code == 0, out
    lines = out.splitlines()
    winner = rec["result"]["winner"]
    assert "ok      result status finished (the replay's game is over)" in lines
    assert f"ok      result winner {winner}" in lines
    assert "ok      result end_reason rules" in lines
    assert any(
        line.startswith("ok      players one per seat: A Aurora, B Borealis") for line in lines
    )
    # bound to the seats as a new export is, it passes as well
    code, out, _ = run(capsys, tmp_path, "verify", bound(rec))
    assert code == 0, out
    assert "ok      players bound to their seats (players_digest)" in out.splitlines()
    assert replay(rec).turns_resolved == len(rec["turns"])


# --- a forged result ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", FIXTURES)
def test_a_forged_winner(name: str, capsys, tmp_path) -> None:
    rec = fixture(name)
    real = rec["result"]["winner"]
    rec["result"]["winner"] = "B" if real != "B" else "A"
    forged = rec["result"]["winner"]
    assert failed(capsys, tmp_path, rec) == [
        f"FAILED  result winner {forged} (the replay's winner is {real})"
    ]
    assert refused(capsys, tmp_path, rec) == (
        f"replay: result winner {forged} (the replay's winner is {real})"
    )


@pytest.mark.parametrize("name", FIXTURES)
def test_a_finished_game_that_claims_to_go_on(name: str, capsys, tmp_path) -> None:
    rec = fixture(name)
    winner = rec["result"]["winner"]
    rec["result"].update(status="active", winner=None, end_reason=None)
    assert failed(capsys, tmp_path, rec) == [
        f"FAILED  result status active (the replay's game is over: winner {winner})"
    ]
    assert refused(capsys, tmp_path, rec).startswith("replay: result status active")


def test_a_forged_end_reason(capsys, tmp_path) -> None:
    rec = fixture("arena")
    rec["result"]["end_reason"] = "resign"
    assert failed(capsys, tmp_path, rec) == [
        "FAILED  result end_reason resign (the replay's game ended by rules)"
    ]


def test_an_unknown_status(capsys, tmp_path) -> None:
    rec = fixture("arena")
    rec["result"]["status"] = "won"
    [line] = failed(capsys, tmp_path, rec)
    assert line.startswith("FAILED  result status won (not a game status")


# --- a record cut short ------------------------------------------------------------------------


@pytest.mark.parametrize("name", FIXTURES)
def test_a_record_with_its_last_turn_deleted(name: str, capsys, tmp_path) -> None:
    rec = fixture(name)
    winner = rec["result"]["winner"]
    # a record exported before exports counted their steps claims no count: cut it first
    claimed = rec["result"].pop("turns_resolved", None)
    del rec["turns"][-1]
    n = len(rec["turns"])
    truncated = (
        f"truncated: the record claims a finished game (winner {winner}) but its {n} turn(s)"
        " replay to a game still going on"
    )
    assert failed(capsys, tmp_path, rec) == [f"FAILED  {truncated}"]
    assert refused(capsys, tmp_path, rec) == f"replay: {truncated}"
    # an export says how many steps it holds: fewer is a truncated record too
    assert claimed in (None, n + 1)
    rec["result"]["turns_resolved"] = n + 1
    lines = failed(capsys, tmp_path, rec)
    assert f"FAILED  truncated: the record claims {n + 1} resolved turns but holds {n}" in lines


def test_a_resigned_game_cut_short_is_truncated(capsys, tmp_path) -> None:
    """A game that ended by a resignation still ends so when its last steps are cut off: only
    the number of steps the export claims tells."""
    rec = fixture("arena")
    rec["turns"] = rec["turns"][:4]
    rec["end"] = {"resigned": "B"}
    rec["result"] = {"status": "finished", "winner": "A", "end_reason": "resign"}
    assert all(c.ok for c in verify(rec))
    rec["result"]["turns_resolved"] = 4
    assert all(c.ok for c in verify(rec))
    del rec["turns"][-1]
    assert failed(capsys, tmp_path, rec) == [
        "FAILED  truncated: the record claims 4 resolved turns but holds 3"
    ]
    assert refused(capsys, tmp_path, rec).startswith("replay: truncated: ")


def test_a_finished_game_that_withholds_a_step_is_truncated() -> None:
    """A finished game's export holds everything: an order withheld in it is a cut record."""
    rec = fixture("arena")
    last = rec["turns"][-1]
    last["inputs"]["A"] = {"receipt": last["receipts"]["A"]}
    del last["salts"]["A"]
    bad = [c.what for c in verify(rec) if not c.ok]
    assert bad == ["truncated: the record claims a finished game but withholds part of it"]


# --- players -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FIXTURES)
def test_swapped_players(name: str, capsys, tmp_path) -> None:
    rec = bound(fixture(name))
    players = rec["players"]
    rec["players"] = {**players, "A": players["B"], "B": players["A"]}
    named = ", ".join(f"{seat} {rec['players'][seat]}" for seat in rec["seats"])
    why = f"the players {named} are not the ones the record's players_digest binds to the seats"
    assert failed(capsys, tmp_path, rec) == [f"FAILED  players digest: {why}"]
    assert refused(capsys, tmp_path, rec) == f"replay: {why}"


def test_a_renamed_player(capsys, tmp_path) -> None:
    rec = bound(fixture("tactics"))
    rec["players"]["A"] = "Mallory"
    assert [line[:24] for line in failed(capsys, tmp_path, rec)] == ["FAILED  players digest: "]


@pytest.mark.parametrize(
    ("players", "line"),
    [
        ({"A": "Aurora"}, "FAILED  players one per seat (no player for seat B)"),
        (
            {"A": "Aurora", "B": "Borealis", "C": "Mallory"},
            "FAILED  players one per seat (C not a seat of this game)",
        ),
        ({"A": "Aurora", "B": 7}, "FAILED  players (not an object from seat to player name)"),
        (["Aurora", "Borealis"], "FAILED  players (not an object from seat to player name)"),
    ],
)
def test_players_must_name_one_player_per_seat(players, line, capsys, tmp_path) -> None:
    rec = fixture("arena")
    rec["players"] = players
    assert failed(capsys, tmp_path, rec) == [line]
    assert refused(capsys, tmp_path, rec).startswith("replay: players")


# --- wording: a seed that does not match, a digest that is missing -------------------------------


def _seed_cases() -> list[tuple[str, int, str]]:
    """Tampered seeds whose other dice make a later order illegal or end the game early."""
    return [("arena", 2, "pre"), ("arena", 6, "pre"), ("dungeon", 1, "resolve")]


@pytest.mark.parametrize(("name", "n", "phase"), _seed_cases())
def test_a_seed_that_does_not_match_is_a_commitment_mismatch(
    name: str, n: int, phase: str, capsys, tmp_path
) -> None:
    rec = fixture(name)
    seeds = rec["turns"][n - 1]["seeds"]
    seeds[phase] = flip(seeds[phase], 17)
    lines = failed(capsys, tmp_path, rec)
    assert f"FAILED  {step_of(rec, n)} {phase} commitment sha256(seed)" in lines
    # the orders are what they were: the replay stopping later is not an illegal move of theirs
    assert not [line for line in lines if line.startswith("FAILED  replay")], lines
    _, out, _ = run(capsys, tmp_path, "verify", rec)
    stopped = [line for line in out.splitlines() if "not replayed from here on" in line]
    assert len(stopped) == 1
    assert stopped[0].endswith(
        f"({step_of(rec, n)}: the {phase} seed does not match its commitment sha256(seed))"
    )
    assert "charge" not in out and "already over" not in out
    assert refused(capsys, tmp_path, rec) == (
        f"replay: {step_of(rec, n)}: the {phase} seed does not match its commitment sha256(seed)"
    )


@pytest.mark.parametrize("name", FIXTURES)
def test_a_missing_orders_digest_is_called_missing(name: str, capsys, tmp_path) -> None:
    rec = fixture(name)
    first = rec["turns"][0]
    for key in ("orders_digest", "receipts", "salts"):
        del first[key]
    line = refused(capsys, tmp_path, rec)
    assert line.startswith(f"replay: {step_of(rec, 1)}: the orders digest is missing")
    assert "not hex" not in line
    lines = failed(capsys, tmp_path, rec)
    assert lines == [f"FAILED  {step_of(rec, 1)} orders digest (missing)"]
    with pytest.raises(RecordError) as caught:
        replay(rec)
    assert caught.value.turn == 1 and "hex" not in str(caught.value)


def test_a_seed_that_is_not_hex_is_still_called_so(capsys, tmp_path) -> None:
    rec = fixture("arena")
    rec["turns"][0]["seeds"]["resolve"] = "zz" * 32
    assert refused(capsys, tmp_path, rec) == "replay: turn 1: the resolve seed is not hex"


# --- the export --------------------------------------------------------------------------------


def test_an_edited_copy_of_a_bound_record_names_every_mismatch(capsys, tmp_path) -> None:
    """Several forgeries at once: each is its own FAILED line."""
    rec = bound(copy.deepcopy(fixture("tactics")))
    rec["players"] = {"A": "Borealis", "B": "Aurora"}
    rec["result"]["winner"] = "B"
    lines = failed(capsys, tmp_path, rec)
    assert [line.split(":")[0].split(" (")[0] for line in lines] == [
        "FAILED  players digest",
        "FAILED  result winner B",
    ]
