"""Arena's presenter (issue 35): the prompt's news and question, the headline, dice in words."""

from __future__ import annotations

from typing import Any

from bot.dice import ScriptedDice
from cogs.arena import rules
from cogs.arena.present import PRESENTER, _bearing


def fighter(hex_: list[int], facing: str, stamina: int = 15) -> dict[str, Any]:
    return {
        "hex": hex_,
        "facing": facing,
        "stamina": stamina,
        "may_charge": False,
        "no_retreat": False,
    }


def test_a_two_dice_fight_does_not_read_as_a_hex() -> None:
    event = {
        "type": "combat",
        "dice_A": [3, 1],
        "dice_B": [4],
        "winner": "B",
        "loser": "A",
        "damage": 1,
    }
    line = PRESENTER.event_lines([event], "en", {})[0]
    assert "A uses 3·1," in line and "3,1" not in line
    ja = PRESENTER.event_lines([event], "ja", {})[0]
    assert "Aの目 3・1" in ja
    none = {**event, "dice_A": []}
    assert "A uses no dice" in PRESENTER.event_lines([none], "en", {})[0]


def test_where_the_opponent_stands_is_named_from_the_seat_s_facing() -> None:
    me = fighter([0, 2], "N")
    assert _bearing(me, [0, -2]) == "front"
    assert _bearing(me, [1, 1]) == "front_right"
    assert _bearing(me, [-1, 2]) == "front_left"  # NW of a fighter facing N
    assert _bearing(fighter([0, 0], "N"), [-1, 1]) == "back_left"
    assert _bearing(fighter([0, 0], "S"), [0, -1]) == "back"


def test_the_prompt_says_what_changed_and_what_the_dice_are_for() -> None:
    state = rules.new_game("g", rules.SEATS, {}, ScriptedDice([]))
    state, _ = rules.start_step(state, ScriptedDice([6, 6, 2, 4, 1, 6]))
    view = rules.view(state, "A")
    assert PRESENTER.seat_news(None, view, "A", "en") == []
    question = "\n".join(PRESENTER.question(view, "A", "en"))
    assert "You stand at 0,2, facing N. B is 4 hexes away, in front of you." in question
    assert "die 2 decides a passing, die 3 a collision" in question
    memo = PRESENTER.seat_memo(view, "A")
    orders = {"A": rules.parse(state, "A", "forward none"), "B": rules.parse(state, "B", "forward")}
    state, _ = rules.resolve(state, orders, ScriptedDice([]))
    state, _ = rules.start_step(state, ScriptedDice([1, 2, 3, 4, 5, 6]))
    view = rules.view(state, "A")
    news = PRESENTER.seat_news(memo, view, "A", "en")
    assert news == [
        "❤️ Turn 1: your stamina 15 → 14, B's 15 → 14.",
        "👣 B moved 0,-2 → 0,-1 and now faces S.",
    ]
    ja = PRESENTER.seat_news(memo, view, "A", "ja")
    assert ja[0].endswith("になりました。") and ja[1].endswith("向いています。")
    # the sheet behind 📋: the dice and both fighters
    sheet = PRESENTER.private_lines(view, "A", "en")
    assert sheet[0].startswith("🎲 Your dice") and sheet[1].startswith("❤️ You (A)")


def test_the_headline_is_the_turn_s_main_event() -> None:
    fight: list[dict[str, Any]] = [
        {"type": "move", "seat": "A", "from_hex": [0, 1], "to_hex": [0, 0]},
        {
            "type": "combat",
            "dice_A": [6, 2, 2],
            "dice_B": [5, 3, 2],
            "winner": "A",
            "loser": "B",
            "damage": 2,
        },
        {"type": "cornered", "seat": "A", "target": "B", "damage": 1},
    ]
    assert PRESENTER.headline(fight, "en", {}) == "A wins the fight: B takes 3 damage."
    moves: list[dict[str, Any]] = [
        {"type": "order", "seat": "A", "move": "charge"},
        {"type": "order", "seat": "B", "move": "stay"},
        {"type": "move", "seat": "A", "from_hex": [0, 2], "to_hex": [0, 1]},
        {"type": "move", "seat": "A", "from_hex": [0, 1], "to_hex": [0, 0]},
    ]
    assert PRESENTER.headline(moves, "en", {}) == "A charges 0,2 → 0,0 · B stays put"
    assert PRESENTER.headline(moves, "ja", {}) == "Aは0,2→0,0へ突進、Bは留まる"
    over = [*fight, {"type": "death", "seat": "B"}, {"type": "game_over", "winner": "A"}]
    assert PRESENTER.headline(over, "ja", {}) == "Aが決闘に勝利した。"
