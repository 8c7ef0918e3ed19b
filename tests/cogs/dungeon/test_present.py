"""The dungeon's words: every event the engine emits reads as a whole sentence in both languages
(no placeholder left unfilled), the tallies and the DM lines of each step, the co-op outcome."""

from __future__ import annotations

import random
import re

import pytest

from bot.dice import DiceStream
from bot.i18n import has
from bot.ruleset import Outcome
from cogs.dungeon import players, present, rules

NAMES = {"A": "Aurora", "B": "ボレアリス", "C": "Cirrus"}
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def games(count: int = 12):
    """Steps of demo-player games: (state before, events) for each."""
    for seed in range(count):
        rng = random.Random(seed)
        scenario = ("crypt", "frozen-gallery")[seed % 2]
        state = rules.new_game(
            "g",
            ["A", "B", "C"][: 1 + seed % 3],
            {"scenario": scenario},
            DiceStream(bytes([seed]) * 32, "s"),
        )
        for step in range(1, 200):
            if rules.outcome(state).finished:
                break
            state, _ = rules.start_step(state, DiceStream(bytes([seed, step % 256]) * 16, "p"))
            before = state
            orders = {
                s: rules.parse(state, s, players.choose(state, s, rng))
                for s in rules.awaiting(state)
            }
            state, events = rules.resolve(
                state, orders, DiceStream(bytes([seed, step % 256, 3]) * 11, "r")
            )
            yield before, state, [e.to_json() for e in events]


@pytest.fixture(scope="module")
def played():
    return list(games())


def test_every_event_reads_whole_in_both_languages(played) -> None:
    kinds = set()
    for _, _, events in played:
        for lang in ("en", "ja"):
            for line in present.PRESENTER.event_lines(events, lang, NAMES):
                assert not PLACEHOLDER.search(line), line
        kinds |= {e["type"] for e in events}
    # the games did show the interesting things
    assert {
        "picks",
        "moved",
        "attack",
        "killed",
        "door_opened",
        "monster_tie",
        "tie_chosen",
    } <= kinds
    spoken = {k for k in kinds if k == "picks" or has(f"dungeon.event.{k}")}
    assert spoken == kinds


def test_dm_lines_for_each_step(played) -> None:
    seen = set()
    for before, _, _ in played:
        for seat in rules.awaiting(before):
            lines = present.PRESENTER.private_lines(rules.view(before, seat), seat, "ja")
            assert lines and not any(PLACEHOLDER.search(x) for x in lines)
            seen.add(before.phase)
    assert seen == {"pick", "act", "tie"}


def test_tallies_and_step_names(played) -> None:
    _, after, _ = played[5]
    view = rules.view(after, None)
    fields = present.PRESENTER.tallies(view, "en", NAMES)
    assert fields[0][0].startswith("A · Aurora")
    assert "Round" in present.PRESENTER.step_name(view, "en", 1)
    assert "ラウンド" in present.PRESENTER.step_name(view, "ja", 1)


def test_the_outcome_is_the_partys_not_a_seats() -> None:
    words = present.PRESENTER.outcome_text
    assert "party" in words(Outcome.cooperative("party"), "en", {}, "rules")
    assert "モンスター" in words(Outcome.cooperative("monsters"), "ja", {}, "rules")
    assert "leaves" in words(Outcome.cooperative("monsters"), "en", {}, "resign")


def test_every_choice_is_a_whole_order_named_apart(played) -> None:
    """A step's buttons or menu: each choice parses as it is (the framework sends one token),
    the labels tell the choices apart in both languages, a menu holds 25 options, a label fits
    a select option (100 characters), and a turn can always be passed."""
    seen = set()
    for before, _, _ in played:
        for seat in rules.awaiting(before):
            groups = rules.choices(before, seat)
            assert len(groups) == 1, "one group: every pick of it is the whole order"
            group = groups[0]
            seen.add(before.phase)
            assert 1 <= len(group.choices) <= 25
            for choice in group.choices:
                assert rules.parse(before, seat, choice.token).canonical() == choice.token
            for lang in ("en", "ja"):
                words = [c.label(lang) for c in group.choices]
                assert len(set(words)) == len(words), words
                assert all(0 < len(w) <= 100 and not PLACEHOLDER.search(w) for w in words)
            if before.phase == "act":
                assert group.select and group.choices[-1].token == "pass"
    assert seen == {"pick", "act", "tie"}


def test_a_turn_menu_names_the_targets_the_hex_and_the_way(monkeypatch) -> None:
    """A Brute with Sprint (move 5, attack 1) on an open floor, a guard and an archer apart: the
    menu offers each attack from the nearest hex that reaches it (with the arrow and count from
    where the Brute stands), the moves, and the pass last; the question names the card."""
    from tests.cogs.dungeon.helpers import acting, new, put_monster, use_scenario

    hall = [{"id": "hall", "area": ["A1:L8"]}]
    use_scenario(monkeypatch, {"level": 1, "starts": ["A1", "A2", "A3", "B1"], "rooms": hall})
    state = acting(new(classes={"A": "brute"}), "A", "sprint", "C3")
    put_monster(state, "guard-6", "E3")
    put_monster(state, "archer-4", "C7")
    group = rules.choices(state, "A")[0]
    labels = [c.label("en") for c in group.choices]
    assert group.select and len(labels) == 25  # more hexes than a menu holds: cut to 25
    assert labels[0] == "⚔ Guard #6 (E3) from D3 ↗1"  # the nearer, and the weaker first
    assert labels[1].startswith("⚔ Archer #4 (C7) from C6 ↑3")
    assert labels[-1] == "Pass: stay on C3, no attack"
    assert any(re.fullmatch(r"Move to [A-L]\d [↑↗→↘↓↙←↖]\d", label) for label in labels)
    ja = [c.label("ja") for c in group.choices]
    assert ja[0] == "⚔ D3（↗1）から衛兵#6（E3）を攻撃"
    view = rules.view(state, "A")
    question = present.PRESENTER.question(view, "A", "en")
    assert question[0].startswith("⚔ Your turn, on C3, with **Sprint** (25)")
    assert "more than the menu holds" in question[1]  # the rest are typed
    assert "あなたの手番です" in present.PRESENTER.question(view, "A", "ja")[0]


def test_news_say_what_befell_the_character_since_its_last_prompt(played) -> None:
    """Between two prompts of a seat: the hit points lost and who dealt them; nothing at the
    first prompt; Japanese in です・ます."""
    memos: dict[str, object] = {}
    worded = []
    for before, _, _ in played:
        if before.game_id != "g" or len(before.seats) < 2:
            continue
        for seat in rules.awaiting(before):
            view = rules.view(before, seat)
            news = present.PRESENTER.seat_news(memos.get(seat), view, seat, "en")
            ja = present.PRESENTER.seat_news(memos.get(seat), view, seat, "ja")
            assert len(news) == len(ja)
            assert all(re.search("(です|ます|ました)。", line) for line in ja), ja
            worded += news
            memos[seat] = present.PRESENTER.seat_memo(view, seat)
    hurt = [line for line in worded if line.startswith("💔")]
    assert hurt and any(
        re.search(r"(Guard|Archer|Imp|Hound) #\d+ hit you for \d+", h) for h in hurt
    )


def test_the_headline_is_the_steps_main_event() -> None:
    names = {"A": "Aurora", "B": "Borealis"}
    move = {"type": "moved", "figure": "A", "from": "A2", "path": ["B2"]}
    blow = {
        "type": "attack",
        "attacker": "guard-2",
        "target": "A",
        "value": 2,
        "modifier": 1,
        "damage": 3,
        "hp": 5,
    }
    down = {"type": "killed", "figure": "guard-2", "by": "A"}
    headline = present.PRESENTER.headline
    assert headline([move], "en", names) == "A · Aurora moves A2→B2."
    assert headline([move, blow], "en", names).startswith("Guard #2 attacks A · Aurora")
    assert headline([move, blow, down], "en", names) == "Guard #2 is defeated by A · Aurora."
    assert headline([move, blow, down], "ja", names) == "衛兵#2はA・Auroraに倒された。"
    picks = {"type": "picks", "round": 2, "cards": {"A": "trample"}, "order": [["A", 72]]}
    assert headline([picks], "en", names) == "Round 2: the cards are revealed"


def test_the_help_explains_every_term_the_buttons_use() -> None:
    for lang, terms in (
        ("en", ("initiative", "jump", "flying", "range", "targets", "push", "pull", "heal")),
        ("ja", ("行動順位", "跳躍", "飛行", "射程", "対象", "押出し", "牽引", "回復")),
    ):
        help_text = present.PRESENTER.order_help(lang)
        for term in (*terms, "⚔", "🚪", "⚠", "↗2", "📋", "❓"):
            assert term in help_text, (lang, term)
