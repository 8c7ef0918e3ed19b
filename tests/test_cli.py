"""The command line, as a user runs it: ``python -m bot`` without a token, ``demo``, ``replay`` and
``verify`` on what the demo wrote. Real subprocesses, from a clean working directory."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.i18n import t
from cogs.arena import board

ROOT = Path(__file__).resolve().parent.parent
# Anything the bot reads from the environment: the test decides each one.
BOT_ENV = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "LOCALE",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "LOG_LEVEL",
)
KANA = re.compile(r"[\u3040-\u30ff]")
ESPER_SEED = 0  # a seven-player demo that reaches the base in 135 steps


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in BOT_ENV}
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environ.get("PYTHONPATH")]))
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# --- no token ----------------------------------------------------------------------------------


def test_no_token_explains_what_to_do(tmp_path: Path) -> None:
    assert not (tmp_path / ".env").exists()
    proc = run([], tmp_path)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    text = proc.stderr + proc.stdout
    assert "DISCORD_TOKEN" in text
    assert ".env" in text
    assert "python -m bot demo arena" in text
    # a paragraph, not a one-word error
    assert len(text.strip().splitlines()) >= 3


def test_no_token_in_japanese_when_locale_is_ja(tmp_path: Path) -> None:
    proc = run([], tmp_path, LOCALE="ja")
    assert proc.returncode != 0
    assert KANA.search(proc.stderr) and "DISCORD_TOKEN" in proc.stderr
    assert "python -m bot demo arena" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) >= 3


def test_blank_token_is_no_token(tmp_path: Path) -> None:
    proc = run([], tmp_path, DISCORD_TOKEN="   ")
    assert proc.returncode != 0 and "python -m bot demo arena" in proc.stderr


def test_dotenv_in_the_working_directory_is_read(tmp_path: Path) -> None:
    # A setting only .env holds changes the outcome: a bad LOCALE is refused before the token.
    (tmp_path / ".env").write_text("LOCALE=fr\n", "utf-8")
    proc = run([], tmp_path)
    assert proc.returncode != 0
    assert "LOCALE" in proc.stderr and "DISCORD_TOKEN" not in proc.stderr


# --- demo --------------------------------------------------------------------------------------

SEED = 11


def demo(out: Path, lang: str, seed: int = SEED) -> dict[str, Any]:
    record = out / "match.json"
    args = ["demo", "arena", "--seed", str(seed), "--lang", lang]
    proc = run([*args, "--out", "out", "--record", str(record)], out)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    summary["dir"] = out / "out"
    summary["transcript"] = out / summary["transcript"]  # printed relative to the demo's cwd
    summary["record_path"] = record
    return summary


@pytest.fixture(scope="module")
def demo_en(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return demo(tmp_path_factory.mktemp("demo-en"), "en")


@pytest.fixture(scope="module")
def demo_ja(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return demo(tmp_path_factory.mktemp("demo-ja"), "ja")


def test_demo_summary(demo_en) -> None:
    assert demo_en["game_id"] and demo_en["turns"] > 0
    assert demo_en["winner"] in ("A", "B", "draw")  # the demo plays to the end
    assert Path(demo_en["transcript"]).name == "transcript-en.txt"


def test_demo_boards_are_pngs(demo_en) -> None:
    boards = sorted(demo_en["dir"].glob("*.png"))
    assert len(boards) == demo_en["boards"] > demo_en["turns"] - 1
    for path in boards:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        with Image.open(path) as img:
            img.verify()  # checks the chunks' CRCs, not only the header
        with Image.open(path) as img:
            assert img.format == "PNG"
            assert img.size == (board.WIDTH, board.HEIGHT)
            img.load()
            # not a blank canvas
            assert len(img.getcolors(maxcolors=1 << 16) or range(1 << 16)) > 10


def test_transcripts_in_both_languages(demo_en, demo_ja) -> None:
    en = Path(demo_en["transcript"]).read_text("utf-8")
    ja = Path(demo_ja["transcript"]).read_text("utf-8")
    assert Path(demo_ja["transcript"]).name == "transcript-ja.txt"
    for text, lang, summary in ((en, "en", demo_en), (ja, "ja", demo_ja)):
        title = t(lang, "arena.title")
        header = t(lang, "demo.header", ruleset=title, game=summary["game_id"])
        assert text.splitlines()[0] == header
        # every board the transcript names was written
        named = re.findall(r"\(board: ([^)]+\.png)\)", text)
        assert named and all((summary["dir"] / n).is_file() for n in named)
    assert "Aurora" in en and "アウローラ" in ja
    assert t("ja", "arena.title") in ja and t("en", "arena.title") not in ja
    # Japanese in the English transcript only inside `example orders`, never in the prose
    assert not [line for line in en.splitlines() if KANA.search(re.sub(r"`[^`]*`", "", line))]
    assert len(KANA.findall(ja)) > 100


def test_replay_reproduces_the_demo(demo_en, demo_ja) -> None:
    for summary in (demo_en, demo_ja):
        proc = run(["replay", str(summary["record_path"])], summary["dir"])
        assert proc.returncode == 0, proc.stderr
        result = json.loads(proc.stdout)
        assert result["turns_resolved"] == summary["turns"]
        assert result["winner"] == summary["winner"]
        assert result["finished"] is True


def test_verify_passes_on_the_demo(demo_en) -> None:
    proc = run(["verify", str(demo_en["record_path"])], demo_en["dir"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.fullmatch(r"\d+ passed, 0 failed", proc.stdout.strip().splitlines()[-1])


def test_same_seed_same_game(demo_en, tmp_path: Path) -> None:
    again = demo(tmp_path, "en")
    assert (again["turns"], again["winner"]) == (demo_en["turns"], demo_en["winner"])
    first = json.loads(demo_en["record_path"].read_text("utf-8"))
    second = json.loads(again["record_path"].read_text("utf-8"))
    assert first == second


def test_replay_error_exit_code(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", "utf-8")
    proc = run(["replay", str(bad)], tmp_path)
    assert proc.returncode != 0 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("name", "body", "says"),
    [
        ("deep.json", "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("huge.json", '{"game_id": ' + "9" * 5000 + "}", "longer than"),
        ("folder", None, "is a folder"),
    ],
)
def test_unreadable_records_are_one_line(tmp_path: Path, name: str, body, says: str) -> None:
    """JSON nested past the parser's limit, a number too long to read, a folder: each command
    says so in one line, without a traceback, and exits non-zero."""
    path = tmp_path / name
    if body is None:
        path.mkdir()
    else:
        path.write_text(body, "utf-8")
    for command in ("replay", "verify"):
        proc = run([command, str(path)], tmp_path)
        assert proc.returncode == 1 and proc.stdout == "", proc.stdout
        assert "Traceback" not in proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{command}: ") and says in lines[0]


def test_verify_fails_a_forged_result(tmp_path: Path) -> None:
    rec = json.loads((ROOT / "tests/data/records/arena.json").read_text("utf-8"))
    rec["result"]["winner"] = "B"
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(rec), "utf-8")
    proc = run(["verify", str(path)], tmp_path)
    assert proc.returncode == 1
    assert "FAILED  result winner B (the replay's winner is A)" in proc.stdout.splitlines()


def test_unknown_command_is_refused(tmp_path: Path) -> None:
    proc = run(["dance"], tmp_path)
    assert proc.returncode != 0 and "invalid choice" in proc.stderr


# --- tactics -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_tactics_demo_replays_and_verifies_with_its_summary(tmp_path: Path, lang: str) -> None:
    from cogs.tactics import board as tactics_board

    record = tmp_path / "match.json"
    args = ["demo", "tactics", "--seed", "5", "--lang", lang, "--out", "out"]
    proc = run([*args, "--record", str(record)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["winner"] in ("A", "B", "draw")
    boards = sorted((tmp_path / "out").glob("*.png"))
    assert len(boards) == summary["boards"] >= 4  # roster, deployment, turns…
    with Image.open(boards[-1]) as img:
        assert img.size == (tactics_board.WIDTH, tactics_board.HEIGHT)
    text = (tmp_path / summary["transcript"]).read_text("utf-8")
    if lang == "en":
        prose = [re.sub(r"`[^`]*`", "", line) for line in text.splitlines()]
        assert not [line for line in prose if KANA.search(line)]
    else:
        assert "フェイズ" in text and "ターン 1/10" in text

    replayed = run(["replay", str(record)], tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    result = json.loads(replayed.stdout)
    assert result["ruleset"] == "tactics" and result["turns_resolved"] == summary["turns"]
    assert result["winner"] == summary["winner"]
    assert set(result["summary"]) == {"turn", "dp", "mana", "units"}
    assert set(result["summary"]["dp"]) == {"A", "B"}
    checked = run(["verify", str(record)], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


# --- dungeon -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_dungeon_demo_replays_and_verifies_with_its_summary(tmp_path: Path, lang: str) -> None:
    record = tmp_path / "match.json"
    args = ["demo", "dungeon", "--seed", "7", "--lang", lang, "--out", "out"]
    proc = run([*args, "--record", str(record)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["winner"] in ("party", "monsters")  # co-operative: the party or the monsters
    boards = sorted((tmp_path / "out").glob("*.png"))
    assert len(boards) == summary["boards"] >= 4  # picks, turns, monster turns…
    with Image.open(boards[0]) as img:
        assert img.width > 900
    text = (tmp_path / summary["transcript"]).read_text("utf-8")
    if lang == "en":
        prose = [re.sub(r"`[^`]*`", "", line) for line in text.splitlines()]
        assert not [line for line in prose if KANA.search(line)]
        assert "the cards are revealed" in text and "Round 1" in text
    else:
        assert "ラウンド1のカード：" in text  # the round's cards, revealed

    replayed = run(["replay", str(record)], tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    result = json.loads(replayed.stdout)
    assert result["ruleset"] == "dungeon" and result["turns_resolved"] == summary["turns"]
    assert result["winner"] == summary["winner"]
    # the digest's summary: round, figures with side, hex and HP, open doors
    assert set(result["summary"]) == {"round", "figures", "doors"}
    for figure in result["summary"]["figures"]:
        assert set(figure) == {"id", "side", "hex", "hp"}
        assert figure["side"] in ("character", "monster")
    checked = run(["verify", str(record)], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


# --- one clear line for each mistake -------------------------------------------------------------

# A bot that got past its checks would try to reach Discord: nothing listens here.
NOWHERE = {"DISCORD_TOKEN": "x", "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    """A refusal: a non-zero exit, no traceback, exactly one line on stderr (and none on stdout)."""
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.mark.parametrize("level", ["verbose", "debug2"])
def test_an_unknown_log_level_is_one_line(tmp_path: Path, level: str) -> None:
    line = one_line(run([], tmp_path, LOG_LEVEL=level, **NOWHERE))
    assert "LOG_LEVEL" in line and level in line and "DEBUG" in line and "INFO" in line


def test_a_known_log_level_in_lower_case_is_accepted(tmp_path: Path) -> None:
    # lower case passes the check: without a token the next thing said is the token paragraph
    proc = run([], tmp_path, LOG_LEVEL="debug")
    assert (
        proc.returncode != 0 and "DISCORD_TOKEN" in proc.stderr and "LOG_LEVEL" not in proc.stderr
    )


@pytest.mark.parametrize(
    "url", ["postgres://bot:hunter2@127.0.0.1:9/bot", "postgresql://bot:hunter2@127.0.0.1:9/bot"]
)
def test_a_postgres_server_that_does_not_answer_is_one_line(tmp_path: Path, url: str) -> None:
    """A PostgreSQL URL is accepted; a server that cannot be reached is said before Discord is
    contacted, naming where (never the password)."""
    line = one_line(run([], tmp_path, DATABASE_URL=url, **NOWHERE))
    assert line.startswith("Cannot open the database: PostgreSQL at 127.0.0.1:9/bot")
    assert "DATABASE_URL" in line and "hunter2" not in line


def test_an_sqlite_file_that_cannot_be_created_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file where the folder should be")
    line = one_line(run([], tmp_path, DATABASE_URL="sqlite:///taken/bot.sqlite3", **NOWHERE))
    assert line.startswith("Cannot open the database: SQLite file taken/bot.sqlite3")


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://bot@db/bot", "“mysql”"),
        ("postgresql+asyncpg://bot:hunter2@db/bot", "“postgresql+asyncpg”"),
        ("data/bot.sqlite3", "sqlite:///data/bot.sqlite3"),
    ],
)
def test_other_database_urls_are_one_line(tmp_path: Path, url: str, says: str) -> None:
    line = one_line(run([], tmp_path, DATABASE_URL=url, **NOWHERE))
    assert "DATABASE_URL" in line and says in line


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://bot:hunter2@[::1/bot", "IPv6"),
        ("postgresql://[::1", "IPv6"),
        ("postgresql://bot:hunter2@db:notaport/bot", "“notaport”"),
        ("postgres://bot@db:" + "9" * 5000 + "/bot", "is not a port number"),
        ("postgresql://bot@::1:5432/bot", "IPv6"),
        ("[::1", "not a path"),
        ("host:notaport", "not a path"),
        ("sqlite:///", "names no SQLite file"),
        ("postgresql://bot@db/b\tot", "control character"),
    ],
)
def test_a_malformed_database_url_is_one_line_at_start(tmp_path: Path, url: str, says: str) -> None:
    """Issue 31: an unclosed bracket or a port that is not a number gave a traceback (urlsplit's
    ValueError); ``sqlite:///`` ran the bot on a temporary database."""
    line = one_line(run([], tmp_path, DATABASE_URL=url, **NOWHERE))
    assert line.startswith("Configuration error: DATABASE_URL") and says in line, line
    assert "hunter2" not in line and len(line) < 400


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bot@127.0.0.1:9/bot?password=hunter2",
        "postgresql://bot@127.0.0.1:9/bot?sslmode=disable&PASSWORD=hunter2",
        "postgresql://bot:hunter2@127.0.0.1:9/bot?sslpassword=hunter2",
    ],
)
def test_a_password_in_the_query_is_never_printed(tmp_path: Path, url: str) -> None:
    """A guard, not a bug seen here: the start names where the server is from the one parser's
    ``where`` (migrate-db printed such a password: tests/test_migrate_db.py)."""
    line = one_line(run([], tmp_path, DATABASE_URL=url, **NOWHERE))
    assert line.startswith("Cannot open the database: PostgreSQL at 127.0.0.1:9/bot")
    assert "hunter2" not in line


def test_a_malformed_database_url_is_said_in_japanese(tmp_path: Path) -> None:
    env = {"LOCALE": "ja", "DATABASE_URL": "postgresql://bot:hunter2@db:notaport/bot", **NOWHERE}
    line = one_line(run([], tmp_path, **env))
    assert line.startswith("設定エラー：DATABASE_URL") and KANA.search(line)
    assert "notaport" in line and "hunter2" not in line


def test_configuration_errors_follow_locale(tmp_path: Path) -> None:
    line = one_line(run([], tmp_path, LOCALE="ja", LOG_LEVEL="verbose", **NOWHERE))
    assert line.startswith("設定エラー：LOG_LEVEL") and KANA.search(line)
    line = one_line(run([], tmp_path, LOCALE="ja", DATABASE_URL="mysql://x@y/z", **NOWHERE))
    assert "PostgreSQL" in line and "SQLite" in line and KANA.search(line)


def test_a_folder_given_to_replay_is_one_line_in_the_operators_language(tmp_path: Path) -> None:
    (tmp_path / "demo-out").mkdir()
    for command in ("replay", "verify"):
        line = one_line(run([command, "demo-out"], tmp_path))
        assert line == f"{command}: demo-out is a folder: give the match record's file."
        line = one_line(run([command, "demo-out"], tmp_path, LOCALE="ja"))
        assert line == f"{command}: " + t("ja", "record.load.folder", path="demo-out")


def test_verify_says_which_rolls_were_expected(tmp_path: Path) -> None:
    rec = json.loads((ROOT / "tests/data/records/arena.json").read_text("utf-8"))
    drawn = rec["turns"][0]["drawn"]["pre"]
    was = list(drawn)
    drawn[0] = drawn[0] % 6 + 1
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(rec), "utf-8")
    proc = run(["verify", str(path)], tmp_path)
    assert proc.returncode == 1
    failed = [line for line in proc.stdout.splitlines() if line.startswith("FAILED")]
    assert failed == [
        f"FAILED  turn 1 pre rolls {drawn} (expected {was}: the rolls its seed gives)"
    ]


# --- help and the README's commands --------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_help_reads_as_plain_text_with_every_option_explained(tmp_path: Path, lang: str) -> None:
    main = run(["--help"], tmp_path, LOCALE=lang)
    assert main.returncode == 0, main.stderr
    demo_help = run(["demo", "--help"], tmp_path, LOCALE=lang)
    assert demo_help.returncode == 0, demo_help.stderr
    for text in (main.stdout, demo_help.stdout):
        assert "``" not in text and ":func:" not in text  # no reST
    assert "python -m bot replay demo-out/match.json --events" in main.stdout
    assert "[--events]" not in main.stdout
    explained = {
        "--out": t(lang, "cli.help.demo.out")[:8],
        "--seed": t(lang, "cli.help.demo.seed")[:8],
        "--lang": t(lang, "cli.help.demo.lang")[:8],
        "--record": t(lang, "cli.help.demo.record")[:8],
    }
    options = demo_help.stdout.split("options:", 1)[1]
    for option, start in explained.items():
        assert option in options and start in options, option
    if lang == "ja":
        assert KANA.search(main.stdout) and KANA.search(demo_help.stdout)


def readme_commands() -> list[str]:
    """Every ``python -m bot …`` line of the README's shell blocks, as a newcomer copies it."""
    text = (ROOT / "README.md").read_text("utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    lines = [line.split("#", 1)[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.startswith("python -m bot ")]


def test_the_readmes_commands_are_commands_as_written() -> None:
    """No ``[--events]`` to copy literally: each README line parses as the command line reads it."""
    from bot.__main__ import build_parser

    parser, _ = build_parser("en")
    commands = readme_commands()
    assert any(c.endswith("replay demo-out/match.json --events") for c in commands)
    for command in commands:
        args = parser.parse_args(command.removeprefix("python -m bot ").split())
        assert args.command, command


# --- demo folders --------------------------------------------------------------------------------


def test_demo_without_out_gets_a_folder_of_its_own_and_clears_an_earlier_run(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "demo-out" / "arena-seed3-en"
    folder.mkdir(parents=True)
    # what an earlier, longer demo left there, and a file of the user's own
    for stale in ("g-0001-v099.png", "g-0002-v001.png", "transcript-ja.txt"):
        (folder / stale).write_bytes(b"old")
    (folder / "notes.txt").write_text("mine", "utf-8")
    (tmp_path / "demo-out" / "g-0001-v001.png").write_bytes(b"elsewhere")
    proc = run(["demo", "arena", "--seed", "3"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert Path(summary["out"]) == Path("demo-out/arena-seed3-en")
    assert Path(summary["transcript"]).parent == Path("demo-out/arena-seed3-en")
    assert proc.stderr.strip().splitlines() == [
        t("en", "cli.demo.cleared", count=3, path=Path("demo-out/arena-seed3-en"))
    ]
    boards = sorted(p.name for p in folder.glob("*.png"))
    assert len(boards) == summary["boards"] and "g-0001-v099.png" not in boards
    assert not (folder / "g-0002-v001.png").exists() and not (folder / "transcript-ja.txt").exists()
    assert (folder / "notes.txt").read_text("utf-8") == "mine"  # nothing else is touched
    assert (tmp_path / "demo-out" / "g-0001-v001.png").read_bytes() == b"elsewhere"


def test_demo_refuses_a_file_for_out_and_a_folder_for_record_before_playing(
    tmp_path: Path,
) -> None:
    (tmp_path / "afile").write_text("mine", "utf-8")
    (tmp_path / "records").mkdir()
    line = one_line(run(["demo", "arena", "--out", "afile"], tmp_path))
    assert line.startswith("demo: afile is a file, not a folder")
    line = one_line(run(["demo", "arena", "--out", "o", "--record", "records"], tmp_path))
    assert line == "demo: records is a folder: give the match record's file."
    assert not (tmp_path / "o").exists(), "no game was played"
    assert (tmp_path / "afile").read_text("utf-8") == "mine"


def test_each_ruleset_seed_and_language_has_its_own_demo_folder() -> None:
    from bot.demo import default_out

    folders = {
        default_out(ruleset, seed, lang)
        for ruleset in ("arena", "tactics", "dungeon")
        for seed in (None, 1, 2)
        for lang in ("en", "ja")
    }
    assert len(folders) == 3 * 3 * 2
    assert all(folder.parent == Path("demo-out") for folder in folders)


@pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout"
)
def test_gitignore_covers_every_demo_folder_the_readme_names() -> None:
    ignored = (ROOT / ".gitignore").read_text("utf-8")
    folders = set(re.findall(r"--out (\S+)", (ROOT / "README.md").read_text("utf-8")))
    assert folders >= {"demo-out", "demo-ja", "demo-tactics", "demo-dungeon"}
    proc = subprocess.run(
        ["git", "check-ignore", "--no-index", *(f"{f}/x.png" for f in sorted(folders))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and len(proc.stdout.splitlines()) == len(folders), ignored


# --- esper ---------------------------------------------------------------------------------------


def test_a_seven_player_esper_demo_ends_in_the_secret_base_with_grades(tmp_path: Path) -> None:
    record = tmp_path / "esper.json"
    args = ["demo", "esper", "--players", "7", "--seed", str(ESPER_SEED), "--out", "out"]
    proc = run([*args, "--record", str(record)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["boards"] >= 4
    replayed = run(["replay", str(record)], tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    result = json.loads(replayed.stdout)
    assert result["ruleset"] == "esper" and result["summary"]["stage"] == "over"
    from bot.record import replay
    from cogs.esper import rules as esper_rules

    final = replay(json.loads(record.read_text("utf-8"))).state
    assert final.stage == esper_rules.BASE_STAGE and final.ended is not None
    assert set(final.grades) == set("ABCDEFG") and set(final.grades.values()) <= set("ABCD")
    checked = run(["verify", str(record)], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize(
    "argv", [[], ["migrate-db", "--from", "sqlite:///a.sqlite3", "--to", "sqlite:///a.sqlite3"]]
)
def test_a_command_that_names_no_ruleset_imports_none(tmp_path: Path, argv: list[str]) -> None:
    """Reading the bot's settings or a migration's command line loads no ruleset, so a mistake is
    answered at once; ``demo`` still offers every ruleset."""
    script = (
        "import sys\n"
        "from bot.__main__ import main\n"
        f"code = main({argv!r})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'cogs'))\n"
    )
    environ = {k: v for k, v in os.environ.items() if k not in BOT_ENV}
    environ["PYTHONPATH"] = str(ROOT)
    environ["LOG_LEVEL"] = "verbose"  # the bot's own run stops at its settings
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.stdout.splitlines()[-1] == "[]", proc.stdout + proc.stderr
    demo = run(["demo", "--help"], tmp_path)
    assert "{apeiron,arena,dungeon,esper,tactics}" in demo.stdout
