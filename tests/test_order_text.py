"""Every echoed order in the reader's language (issue 35): each ruleset's ``order_text`` shows a
stored order (canonical English from buttons, builders and defaults, or as typed) in Japanese
words its grammar reads back, and leaves the English as it was."""

from __future__ import annotations

import pytest

from bot import registry
from cogs.apeiron import orders as apeiron_orders
from cogs.arena import rules as arena_rules
from cogs.esper.orders import tokens as esper_tokens

RULESETS = ("arena", "tactics", "dungeon", "apeiron", "esper")


def shown(ruleset: str, text: str, lang: str = "ja") -> str:
    return registry.get(ruleset).presenter.order_text(text, lang)


@pytest.mark.parametrize(
    ("ruleset", "text"),
    [
        ("arena", "forward right"),
        ("arena", "charge-fr left"),
        ("tactics", "A4 >D9 wait"),
        ("dungeon", "move C4 attack #6"),
        ("apeiron", "deploy u04 B2 S, u01 D3 S"),
        ("esper", "ambush P1-3 runner A"),
    ],
)
def test_english_readers_see_the_order_as_stored_and_japanese_readers_do_not(
    ruleset: str, text: str
) -> None:
    english = shown(ruleset, text, "en")
    assert english == text or (ruleset == "tactics" and english == "A-4 >D9 wait")
    assert shown(ruleset, text) != english
    assert shown(ruleset, "xyzzy") == "xyzzy"  # what is no order stays as sent


def test_arena_shows_the_buttons_labels_and_reads_them_back() -> None:
    for move in arena_rules.MOVES:
        for turn in arena_rules.TURNS:
            order = arena_rules.Order(move, turn)
            japanese = shown("arena", order.canonical())
            assert japanese.isascii() is False
            assert arena_rules.parse_text(japanese) == order
            assert shown("arena", japanese, "en") == order.canonical()  # typed in Japanese


def test_apeiron_words_are_the_grammars() -> None:
    assert shown("apeiron", "C4>C5>D5 S attack D6") == "C4→C5→D5 下 攻撃 D6"
    assert shown("apeiron", "attack D6; C4>C5 S") == "攻撃 D6；C4→C5 下"
    assert shown("apeiron", "deck u02 u04 chest i02 e01") == "デッキ u02 u04 チェスト i02 e01"
    assert shown("apeiron", "deploy u04 B2 S, u01 D3 N") == "配置 u04 B2 下、u01 D3 上"
    assert shown("apeiron", "stay keep none") == "待機 そのまま なし"
    assert shown("apeiron", "ability 2 P4 ccw") == "能力 2 P4 左回り"
    assert shown("apeiron", "place opponent") == "相手に置く"
    for text in ("C4>C5>D5 S attack D6", "deck u02 chest i02", "stay keep none", "item P2 grass"):
        for word in apeiron_orders.normalized(shown("apeiron", text)).replace(">", " ").split():
            assert apeiron_orders.reads_as(word) is not None or word.startswith(("u", "i")), word


def test_esper_words_are_the_grammars() -> None:
    assert shown("esper", "keep") == "確定"  # the deal
    assert shown("esper", "keep; card k06 D") == "維持、カード k06 D"  # a combat turn
    assert shown("esper", "move P3; end") == "移動 P3、終了"
    for text in ("move P3; end", "ambush P1-3 runner A", "declare-solo", "refuse-last"):
        parts = [esper_tokens(p) for p in shown("esper", text).split("、")]
        assert [w for p in parts for w in p] == [
            w.lower() for p in text.split(";") for w in p.split()
        ]


def test_esper_not_understood_quotes_what_the_player_wrote() -> None:
    from bot.dice import ScriptedDice
    from bot.i18n import t
    from bot.ruleset import OrderRejected
    from cogs.esper import rules as esper
    from tests.cogs.esper.test_rules import RandomDice

    state = esper.new_game("g", esper.SEATS[:5], {}, ScriptedDice([]), RandomDice(1))
    state, _ = esper.start_step(state, ScriptedDice([]), RandomDice(99))  # the deal
    with pytest.raises(OrderRejected) as refused:
        esper.parse(state, "A", "移動 惑星3")  # read as "move P3": no answer to the deal
    assert refused.value.key == "esper.reject.unknown"
    assert refused.value.params["text"] == "移動 惑星3"
    assert "`移動 惑星3`" in t("ja", refused.value.key, **refused.value.params)
