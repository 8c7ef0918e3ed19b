"""A game added with no framework edit: rock-paper-scissors, in ``tests/example_ruleset``.

It is found through ``PBP_RULESETS`` alone, its engine plays best of three, two people play it on
(simulated) Discord through the shared table, its ``/game export`` record replays and verifies,
and ``python -m bot demo rps`` plays it offline. The registry and the catalogues are put back
after each test: other tests enumerate the rulesets.
"""

from __future__ import annotations

import json
import os
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import i18n, registry
from bot.__main__ import main as cli
from bot.dice import ScriptedDice
from bot.i18n import t
from bot.ruleset import OrderRejected, Outcome, RuleError, RulesetSpec, UnknownRuleset
from tests.cogs.game.sim import dms, last_dm, setup_duel, turn_posts
from tests.example_ruleset import RULESET, rules
from tests.example_ruleset import board as rps_board
from tests.example_ruleset.rules import RPS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "tests.example_ruleset"
LOCALES = ROOT / "tests" / "example_ruleset" / "locales"
NO_DICE = ScriptedDice([])


@pytest.fixture
def rps(monkeypatch: pytest.MonkeyPatch) -> Iterator[RulesetSpec[Any, Any]]:
    """The example found the way a ruleset in development is: ``PBP_RULESETS``."""
    monkeypatch.setenv(registry.ENV_VARIABLE, PACKAGE)
    registry.reset()
    yield registry.get("rps")
    registry.reset()  # its catalogues go too; rediscovered lazily once the env is restored


# --- (a) discovery -------------------------------------------------------------------------------


def test_discovered_through_pbp_rulesets(rps: RulesetSpec[Any, Any]) -> None:
    assert rps is RULESET and "rps" in registry.rulesets()
    assert f"{PACKAGE}.cog" in registry.extensions()
    # its catalogues came with it, in both languages
    assert t("en", "rps.title") == "Rock-paper-scissors"
    assert t("ja", "rps.title") == "じゃんけん"


def test_absent_without_pbp_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(registry.ENV_VARIABLE, raising=False)
    registry.reset()
    assert "rps" not in registry.rulesets()
    assert f"{PACKAGE}.cog" not in registry.extensions()
    with pytest.raises(UnknownRuleset):
        registry.get("rps")


def placeholders(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def test_every_sentence_in_both_languages() -> None:
    en = json.loads((LOCALES / "rps.en.json").read_text("utf-8"))
    ja = json.loads((LOCALES / "rps.ja.json").read_text("utf-8"))
    assert en.keys() == ja.keys()
    assert {k for k in en if placeholders(en[k]) != placeholders(ja[k])} == set()
    events = {"round_won", "round_drawn", "match_won", "resigned"}
    assert {f"rps.event.{e}" for e in events} <= en.keys()
    assert {f"rps.choice.{c}" for c in rules.THROWS} <= en.keys()


# --- (b) the engine ------------------------------------------------------------------------------


def opened(state: rules.RpsState | None = None) -> rules.RpsState:
    state = state or RPS.new_game("g-1", rules.SEATS, {}, NO_DICE)
    state, events = RPS.start_step(state, NO_DICE)
    assert events == [] and RPS.awaiting(state) == ["A", "B"]
    return state


def play(state: rules.RpsState, a: str, b: str) -> tuple[rules.RpsState, list[str]]:
    """One round: open it, both throw (as text, like a player), resolve."""
    state = opened(state)
    orders = {"A": RPS.parse(state, "A", a), "B": RPS.parse(state, "B", b)}
    state, events = RPS.resolve(state, orders, NO_DICE)
    assert RPS.awaiting(state) == []
    return state, [e.type for e in events]


def test_best_of_three() -> None:
    state = RPS.new_game("g-1", rules.SEATS, {}, NO_DICE)
    state, events = play(state, "rock", "scissors")
    assert events == ["round_won"] and dict(state.wins) == {"A": 1, "B": 0}
    assert RPS.outcome(state) == Outcome.ongoing()
    state, _ = play(state, "rock", "paper")
    assert dict(state.wins) == {"A": 1, "B": 1} and not RPS.outcome(state).finished
    state, events = play(state, "scissors", "paper")
    assert events == ["round_won", "match_won"]
    assert RPS.outcome(state) == Outcome.win("A", reason="score")
    assert RPS.outcome(state).winner == "A"
    assert RPS.summary(state) == {"wins": {"A": 2, "B": 1}, "rounds": 3}
    with pytest.raises(RuleError):
        RPS.start_step(state, NO_DICE)  # the match is over: no fourth round


def test_a_drawn_round_is_thrown_again() -> None:
    state = RPS.new_game("g-1", rules.SEATS, {}, NO_DICE)
    for throw in rules.THROWS:
        state, events = play(state, throw, throw)
        assert events == ["round_drawn"]
    assert dict(state.wins) == {"A": 0, "B": 0} and RPS.step_number(state) == 3
    state, _ = play(state, "paper", "rock")
    state, _ = play(state, "paper", "rock")
    assert RPS.outcome(state).winners == ("A",) and RPS.step_number(state) == 5


def test_resign() -> None:
    state, _ = play(RPS.new_game("g-1", rules.SEATS, {}, NO_DICE), "rock", "scissors")
    state = opened(state)
    state, events = RPS.resign(state, "A")
    assert [e.to_json() for e in events] == [{"type": "resigned", "seat": "A", "winner": "B"}]
    assert RPS.outcome(state) == Outcome.win("B", reason="resign")
    assert RPS.awaiting(state) == []
    with pytest.raises(OrderRejected) as refused:
        RPS.resign(state, "B")
    assert refused.value.key == "rps.reject.finished"


def test_default_order() -> None:
    state = opened()
    default = RPS.default_order(state, "B")
    assert default.canonical() == "rock"
    assert RPS.parse(state, "B", default.canonical()) == default  # it is a legal order
    # a seat with no order (the deadline passed) throws the default
    state, events = RPS.resolve(state, {"A": rules.Throw("paper")}, NO_DICE)
    assert events[0].to_json() == {
        "type": "round_won",
        "round": 1,
        "winner": "A",
        "loser": "B",
        "winning": "paper",
        "losing": "rock",
    }


@pytest.mark.parametrize(
    ("seat", "text", "key"),
    [
        ("A", "lizard", "rps.reject.unknown"),
        ("A", "   ", "rps.reject.empty"),
        ("C", "rock", "rps.reject.not_seated"),
    ],
)
def test_a_rejected_order_names_its_reason(
    rps: RulesetSpec[Any, Any], seat: str, text: str, key: str
) -> None:
    with pytest.raises(OrderRejected) as refused:
        RPS.parse(opened(), seat, text)
    assert refused.value.key == key
    for lang in ("en", "ja"):  # the reader gets a sentence, never the key
        sentence = t(lang, key, **refused.value.params)
        assert sentence != key and "{" not in sentence
    if key == "rps.reject.unknown":
        assert "lizard" in t("en", key, **refused.value.params)


def test_state_round_trips_and_buttons_parse() -> None:
    state, _ = play(RPS.new_game("g-1", rules.SEATS, {}, NO_DICE), "rock", "paper")
    state = opened(state)
    assert RPS.from_json(json.loads(json.dumps(RPS.to_json(state)))) == state
    assert RPS.view(state, "A") == RPS.view(state, None)  # nothing private
    (group,) = RPS.choices(state, "A")
    assert [RPS.parse(state, "A", c.token).canonical() for c in group.choices] == list(rules.THROWS)
    with pytest.raises(RuleError):
        RPS.check_options({"rounds": 5})


# --- (c) a match on Discord, (d) its record ------------------------------------------------------


@pytest.fixture
def simcord_bot(rps: RulesetSpec[Any, Any], make_bot: Any) -> Any:
    """The bot is built after the example is registered: it loads the extensions it finds."""
    return make_bot()


@pytest.fixture
def duel(simcord_env: Any, sim_clock: Any) -> Any:
    return setup_duel(simcord_env, sim_clock)


async def throw(duel: Any, alice: str, bob: str) -> None:
    for player, text in ((duel.alice, alice), (duel.bob, bob)):
        before = len(dms(player))
        await player.send_dm(text)
        # the acknowledgement; the second order also resolves the round (the next DM follows)
        assert "Order sealed" in dms(player)[before].content, text


async def test_a_match_on_discord_exports_a_record_that_replays(
    duel: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = await duel.alice.slash(duel.channel, "rps challenge", opponent=duel.bob, hours=0)
    assert "rock-paper-scissors" in result.response.content
    await duel.bob.click(duel.channel.last_message, label="Accept")
    assert any("check your DMs for what to send" in m.content for m in duel.channel.history())
    (game,) = await duel.bot.table.games_here(duel.channel.id)

    prompt = last_dm(duel.bob)
    assert "reply with `rock`" in prompt.content
    # the throws, then the prompt's own buttons: the seat's sheet and the ruleset's help
    assert [c.label for row in prompt.components for c in row.children] == [
        "Rock",
        "Paper",
        "Scissors",
        "Mine",
        "Help",
    ]
    await duel.bob.send_dm("lizard")
    assert "is not a throw" in last_dm(duel.bob).content

    await throw(duel, "rock", "scissors")  # A 1-0
    await throw(duel, "paper", "paper")  # a draw: thrown again
    await throw(duel, "グー", "p")  # B 1-1
    await throw(duel, "scissors", "paper")  # A 2-1

    posts = turn_posts(duel)
    assert len(posts) == 5  # the first prompt, then one post per round
    assert all(p.attachments[0].filename == "board.png" for p in posts)
    final = posts[-1].embeds[0]
    assert "Final" in final.title
    assert "Round 4: A's Scissors beats B's Paper." in final.description
    assert "A wins the match 2–1." in final.description
    assert f"A (<@{duel.alice.id}>) wins!" in final.description
    assert "🏆 2/2 rounds won" in [f.value for f in final.fields]
    assert "Round 2: both threw Paper." in posts[2].embeds[0].description
    game = await duel.bot.table.game(game.id)
    assert (game.status, game.outcome, game.step) == ("finished", "A", 4)

    exported = await duel.bob.slash(duel.channel, "game export", game=game.id)
    files = {a.filename.rsplit(".", 1)[-1]: a for a in exported.response.attachments}
    assert sorted(files) == ["html", "json"], "the record and its viewer"
    attachment = files["json"]
    record = json.loads(await attachment.read())
    assert record["ruleset"] == "rps" and len(record["turns"]) == 4
    assert record["turns"][2]["inputs"] == {"A": "rock", "B": "paper"}  # canonical, sealed
    assert record["result"]["winner"] == "A"

    path = tmp_path / attachment.filename
    path.write_text(json.dumps(record), "utf-8")
    capsys.readouterr()
    assert cli(["replay", str(path)]) == 0
    replayed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert replayed == {
        "ruleset": "rps",
        "turns_resolved": 4,
        "finished": True,
        "winner": "A",
        "summary": {"wins": {"A": 2, "B": 1}, "rounds": 4},
    }
    assert cli(["verify", str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith(" passed, 0 failed")


# --- (e) the offline demo ------------------------------------------------------------------------


def test_demo_plays_a_match_offline(rps: RulesetSpec[Any, Any], tmp_path: Path) -> None:
    """``python -m bot demo rps`` in a fresh process that knows the game from PBP_RULESETS."""
    env = {**os.environ, registry.ENV_VARIABLE: PACKAGE, "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    record = tmp_path / "match.json"
    args = ["demo", "rps", "--seed", "3", "--lang", "ja", "--out", "out", "--record", str(record)]
    proc = subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["winner"] in ("A", "B") and summary["turns"] >= 2
    boards = sorted((tmp_path / "out").glob("*.png"))
    assert len(boards) == summary["boards"] > summary["turns"]
    with Image.open(boards[-1]) as img:
        assert img.format == "PNG" and img.size == (rps_board.WIDTH, rps_board.HEIGHT)
    transcript = (tmp_path / "out" / "transcript-ja.txt").read_text("utf-8")
    assert "じゃんけん" in transcript and "勝負に勝ちました" in transcript
    # the demo's record is a real one: it replays and verifies here too
    assert cli(["replay", str(record)]) == 0
    assert cli(["verify", str(record)]) == 0


def test_the_example_is_gone_after_its_tests() -> None:
    """Last in the file: the fixtures put the registry and the catalogues back."""
    if PACKAGE in os.environ.get(registry.ENV_VARIABLE, ""):
        pytest.skip("PBP_RULESETS names the example in this environment")
    assert "rps" not in registry.rulesets()
    assert LOCALES.resolve() not in i18n._SOURCES and not i18n.has("rps.title")
