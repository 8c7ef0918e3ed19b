"""``python -m bot demo league`` (issue 33): whole seasons through the real league service, table
and SQLite storage, played by the rulesets' demo AI; every match's record passes ``verify``, the
standings, ratings and bracket images are PNGs, and the league's export agrees with the records
(:func:`cogs.league.export.check_records`), which catches a record whose outcome differs."""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.demo import shared_demos
from bot.record import verify
from cogs.league import season
from cogs.league.demo import (
    LeagueDemoError,
    LeagueDemoResult,
    check_request,
    play_league,
    round_robin,
    run,
    tables,
)
from cogs.league.export import ExportMismatch, check_records

ROOT = Path(__file__).resolve().parents[3]


def records_of(result: LeagueDemoResult) -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text("utf-8")) for p in result.records}


def check_season(result: LeagueDemoResult, matches: int) -> dict[str, Any]:
    """What every season must show: its matches all finished and recorded, each record passing
    verify on its own, the images real PNGs, the export agreeing with the records."""
    assert len(result.matches) == matches
    records = records_of(result)
    assert sorted(records) == sorted(result.matches)
    for game_id, record in records.items():
        checks = verify(record)
        assert checks and all(c.ok or c.note for c in checks), game_id
        assert record["result"]["status"] == "finished", game_id
    assert result.verified == matches
    for image in result.images:
        with Image.open(io.BytesIO(image.read_bytes())) as png:
            assert png.format == "PNG" and png.width >= 500 and png.height > 100
    assert result.export is not None
    exported: dict[str, Any] = json.loads(result.export.read_text("utf-8"))
    assert check_records(exported, records) == matches == result.checked
    assert [m["game_id"] for m in exported["matches"]] == result.matches
    assert all(m["status"] == season.FINISHED for m in exported["matches"])
    assert result.transcript is not None and result.transcript.read_text("utf-8").strip()
    assert result.boards and all(b.exists() for b in result.boards)
    return exported


def test_the_round_robin_schedule_meets_every_pair_once() -> None:
    for n in (2, 3, 4, 5, 8):
        players = [str(i) for i in range(n)]
        rounds = round_robin(players)
        met = [frozenset(p) for r in rounds for p in r]
        assert len(met) == len(set(met)) == n * (n - 1) // 2
        for r in rounds:  # nobody twice in a round
            seated = [p for pair in r for p in pair]
            assert len(seated) == len(set(seated))


async def test_a_tactics_round_robin_season_with_draft_masters_and_antes(tmp_path: Path) -> None:
    result = await play_league(
        "tactics", players=4, fmt=season.ROUND_ROBIN, rounds=2, out=tmp_path, seed=3
    )
    exported = check_season(result, matches=4)
    assert exported["league_format"] == season.ROUND_ROBIN and exported["rounds"] == []
    kinds = {e["kind"] for e in exported["ledger"]}
    assert {"draft_pick", "master_set"} <= kinds
    # every decided first-round match opened an ante the AI declared; the winner's next match
    # locked it and the unit moved (a drawn match opens none)
    decided = [m for m in exported["matches"] if m["winner"] is not None]
    if decided:
        assert exported["antes"] and all(a["pick"] for a in exported["antes"])
        assert {"ante_gain", "ante_loss"} <= kinds or all(
            a["status"] == "open" for a in exported["antes"]
        )
    assert sorted(p.name for p in result.images) == ["ratings-en.png", "standings-en.png"]
    ratings = exported["ratings"]
    assert set(ratings) == {p["id"] for p in exported["players"]}
    assert sum(r["games"] for r in ratings.values()) == 2 * 4


async def test_a_tactics_swiss_season_in_japanese_and_a_tampered_record(tmp_path: Path) -> None:
    result = await play_league(
        "tactics", players=4, fmt=season.SWISS, rounds=2, out=tmp_path, seed=5, lang="ja"
    )
    exported = check_season(result, matches=4)
    assert [r["number"] for r in exported["rounds"]] == [1, 2]
    met = [frozenset((p["first"], p["second"])) for r in exported["rounds"] for p in r["pairings"]]
    assert len(met) == len(set(met)) == 4, "no pair meets twice"
    assert sorted(g for r in exported["rounds"] for p in r["pairings"] for g in p["games"]) == (
        sorted(result.matches)
    )
    assert (tmp_path / "transcript-ja.txt").read_text("utf-8").startswith("リーグのデモ")
    # A record whose outcome differs from the league's result is caught, by game.
    records = records_of(result)
    match = exported["matches"][0]
    seats = match["seats"]
    forged = copy.deepcopy(records)
    other = next(s for s, p in seats.items() if p != match["winner"])
    forged[match["game_id"]]["result"]["winner"] = other
    with pytest.raises(ExportMismatch) as caught:
        check_records(exported, forged)
    assert caught.value.problems and match["game_id"] in caught.value.problems[0]
    missing = {k: v for k, v in records.items() if k != match["game_id"]}
    with pytest.raises(ExportMismatch):
        check_records(exported, missing)


async def test_an_arena_cup_plays_to_its_champion_with_a_bracket(tmp_path: Path) -> None:
    result = await play_league("arena", players=4, fmt=season.CUP, out=tmp_path, seed=1)
    exported = check_season(result, matches=len(result.matches))
    assert len(result.matches) >= 3, "two semi-finals and a final (a drawn tie is replayed)"
    assert "bracket-en.png" in [p.name for p in result.images]
    final = exported["rounds"][-1]["pairings"]
    assert len(final) == 1 and final[0]["winner"] == exported["champion"] == result.champion
    assert exported["champion"] in {p["id"] for p in exported["players"]}


def test_the_league_demo_is_a_shared_demo_and_refuses_leagues_that_do_not_exist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "league" in shared_demos()
    args = argparse.Namespace(
        ruleset="dungeon",
        players=4,
        fmt=season.ROUND_ROBIN,
        rounds=None,
        out=tmp_path / "dungeon",
        seed=None,
        lang="en",
        cli_lang="ja",
    )
    assert run(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "dungeon" in err
    assert "ない" in err or "ありません" in err, "in the operator's language"
    assert not (tmp_path / "dungeon").exists(), "refused before anything is written"
    with pytest.raises(LeagueDemoError) as refused:
        check_request("esper", 6, season.SWISS)
    assert (
        refused.value.key == "league.format.two_seats" and refused.value.params["seats"] == "5–11"
    )
    with pytest.raises(LeagueDemoError) as few:
        check_request("esper", 4, season.ROUND_ROBIN)
    assert few.value.key == "league.demo.players" and few.value.params["low"] == 5


def test_many_seat_rounds_seat_everyone_in_even_games_and_turn_the_seats() -> None:
    field = [str(n) for n in range(12)]
    first, second = tables(field, range(5, 12), 0), tables(field, range(5, 12), 1)
    assert [len(g) for g in first] == [6, 6]
    assert sorted(p for g in first for p in g) == sorted(field)
    assert second[0][0] == "1" and sorted(p for g in second for p in g) == sorted(field)
    assert [len(g) for g in tables(field[:11], range(5, 12), 0)] == [11]
    with pytest.raises(LeagueDemoError) as refused:
        tables(field[:9], (4,), 0)  # 9 players cannot sit at games of exactly four
    assert refused.value.key == "league.demo.tables"


async def test_an_esper_league_seats_everyone_and_reads_its_own_season(tmp_path: Path) -> None:
    result = await play_league("esper", players=5, fmt=season.ROUND_ROBIN, out=tmp_path, seed=1)
    exported = check_season(result, matches=2)
    first, second = exported["matches"]
    assert first["players"] == list(first["seats"].values()) and len(first["players"]) == 5
    assert second["players"] == [*first["players"][1:], first["players"][0]], "seats turn"
    assert sorted(first["points"].values()) != [0] * 5 and "dp" not in first
    history = records_of(result)[second["game_id"]]["options"]["history"]
    assert first["game_id"] not in records_of(result)[first["game_id"]]["options"]["history"]
    for seat in second["seats"]:
        season_, previous = history[seat]["season"], history[seat]["previous"]
        assert season_ == [previous], "the league's first match is its season and the last game"
    assert len({h["previous"] for h in history.values()}) == 5, "five characters were dealt"
    standings = {p["player"]: p for p in exported["standings"]}
    assert all(row["played"] == 2 for row in standings.values())
    assert sum(row["points"] for row in standings.values()) == sum(
        sum(m["points"].values()) for m in exported["matches"]
    )


def test_the_command_line_plays_an_arena_swiss_season(tmp_path: Path) -> None:
    env = {**os.environ, "LOCALE": "en"}
    line = [sys.executable, "-m", "bot", "demo", "league", "--ruleset", "arena"]
    line += ["--players", "4", "--format", "swiss", "--rounds", "2", "--seed", "7"]
    done = subprocess.run(
        [*line, "--out", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["matches"] == summary["verified"] == summary["checked"] == 4
    assert summary["images"] == ["standings-en.png", "ratings-en.png"]
    record = next((tmp_path / "records").glob("g-*.json"))
    checked = subprocess.run(
        [sys.executable, "-m", "bot", "verify", str(record)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0 and " 0 failed" in checked.stdout


async def test_an_apeiron_cup_drafts_collections_and_plays_its_decks(tmp_path: Path) -> None:
    result = await play_league("apeiron", players=4, fmt=season.CUP, out=tmp_path, seed=2)
    exported = check_season(result, matches=len(result.matches))
    picks = [e for e in exported["ledger"] if e["kind"] == "draft_pick"]
    assert len(picks) == 4 * (14 + 2), "a deck's fourteen cards and one for each cup round"
    assert exported["champion"] == result.champion is not None
    assert result.champion_name in {p["name"] for p in exported["players"]}


async def test_a_draft_pool_too_small_for_the_field_is_refused_before_play(tmp_path: Path) -> None:
    # Apeiron's starter pool: two copies of 52 cards; eight players need 14 each (112).
    with pytest.raises(LeagueDemoError) as refused:
        await play_league("apeiron", players=8, fmt=season.SWISS, rounds=3, out=tmp_path)
    assert refused.value.key == "league.demo.pool"
    assert refused.value.params == {"pool": 104, "players": 8, "rounds": 14}
    assert not list((tmp_path / "records").glob("*.json"))
