"""Tactics' presenter (issue 35): the prompt's news, the 📋 sheet, the headline, the tallies."""

from __future__ import annotations

from cogs.tactics import rules
from cogs.tactics.present import PRESENTER
from tests.cogs.tactics.test_rules_scenarios import board, next_turn, play


def test_the_news_says_what_the_seat_lost_and_where_the_enemy_went() -> None:
    state = next_turn(board({"warlord": "E9", "archer": "E7"}, {"archmage": "E2", "knight": "E5"}))
    memo_a = PRESENTER.seat_memo(rules.view(state, "A"), "A")
    memo_b = PRESENTER.seat_memo(rules.view(state, "B"), "B")
    state, _ = play(state, "archer attack E5", "knight >E6 attack E7")
    state = next_turn(state)
    news_a = PRESENTER.seat_news(memo_a, rules.view(state, "A"), "A", "en")
    assert news_a[0] == "📣 After turn 1, DP unchanged: yours 0, B's 0."
    assert news_a[1] == "🩸 Your units: Archer A-2 −4 (HP 3/7)."
    assert news_a[2] == "👣 B's units: Knight B-2 E5 → E6."
    news_b = PRESENTER.seat_news(memo_b, rules.view(state, "B"), "B", "ja")
    assert news_b[1] == "🩸 あなたのユニット：剣士 B-2 −2（HP 8/10）。"
    assert len(news_b) == 2  # nothing of A's moved or fell: no line about them


def test_the_sheet_shows_both_sides_with_their_stats() -> None:
    state = next_turn(board({"warlord": "E9", "archer": None}, {"archmage": "E2"}, turn=3))
    sheet = PRESENTER.private_lines(rules.view(state, "A"), "A", "en")
    assert sheet[0] == "Mana for this sheet: 3."
    assert sheet[2].startswith("Warlord A-1 on E9 · HP 18/18 · ATK 6 DEF 3 MOV 2 RNG 1 · ✨")
    assert sheet[2].endswith("👑")
    assert sheet[3].startswith("Archer A-2, not deployed (cost 3) · HP 7/7")
    assert "RNG 2–4" in sheet[3]
    assert sheet[4] == "**Enemy units**" and sheet[5].startswith("Archmage B-1 on E2")
    ja = PRESENTER.private_lines(rules.view(state, "A"), "A", "ja")
    assert "射程2〜4" in ja[3]
    question = PRESENTER.question(rules.view(state, "A"), "A", "en")
    assert question[1] == "✨ Summon turn: one line may summon Archer A-2."


def test_the_headline_puts_a_master_unit_first_and_a_stat_change_keeps_its_sign() -> None:
    events = [
        {
            "type": "attack",
            "unit": "A2",
            "target_unit": "B2",
            "square": "E5",
            "damage": 3,
            "hp": 7,
            "names": {"A2": {"en": "Archer"}, "B2": {"en": "Knight"}},
        },
        {
            "type": "death",
            "unit": "B1",
            "killer": "A1",
            "friendly": False,
            "dp_to": "A",
            "points": 2,
            "names": {"B1": {"en": "Archmage"}, "A1": {"en": "Warlord"}},
        },
    ]
    assert PRESENTER.headline(events, "en", {}) == (
        "👑 Master unit Archmage B-1 is destroyed (by Warlord A-1) — +2 DP to A."
    )
    blow = PRESENTER.headline(events[:1], "en", {})
    assert blow is not None and blow.startswith("⚔️ Archer A-2 attacks Knight B-2")
    stat = {
        "type": "stat",
        "unit": "A2",
        "stat": "def",
        "delta": -1,
        "turns": 2,
        "names": {"A2": {"en": "Archer", "ja": "弓兵"}},
    }
    assert PRESENTER.event_lines([stat], "ja", {}) == ["• 弓兵 A-2：防御力 −1（2ターン）。"]


def test_tallies_are_one_field_per_side_then_the_mana() -> None:
    state = next_turn(board({"warlord": "E9"}, {"archmage": "E2"}, turn=3))
    fields = PRESENTER.tallies(rules.view(state, None), "en", {"A": "alice", "B": "bob"})
    assert [name for name, _ in fields] == ["A · alice", "B · bob", "Mana", "Summon"]
