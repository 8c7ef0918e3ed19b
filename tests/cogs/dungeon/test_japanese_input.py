"""Japanese as players type and read it: full-width letters and digits read as tactics and
Apeiron read them (NFKC), and an order echoed to a Japanese reader in the words it would type,
which read back as the same order."""

from __future__ import annotations

import pytest

from cogs.dungeon import RULESET, rules
from tests.cogs.dungeon.helpers import acting, corridor, h, new, put_monster, use_scenario


def test_full_width_hexes_and_keywords_read_as_half_width(monkeypatch: pytest.MonkeyPatch) -> None:
    use_scenario(monkeypatch, corridor())
    state = acting(new(classes={"A": "brute"}), "A", "sprint", "A1")
    put_monster(state, "guard-1", "L1")
    assert rules.parse(state, "A", "移動　Ｃ１") == rules.parse(state, "A", "移動 C1")
    assert rules.parse(state, "A", "ｍｏｖｅ Ｄ１").move == (h("D1"),)


def test_an_order_reads_in_japanese_and_back(monkeypatch: pytest.MonkeyPatch) -> None:
    use_scenario(monkeypatch, corridor())
    state = acting(new(classes={"A": "brute"}), "A", "sprint", "A1")
    put_monster(state, "guard-1", "L1")
    present = RULESET.presenter
    for text in ("move C1", "pass", "move B1 C1"):
        order = rules.parse(state, "A", text)
        shown = present.order_text(order.canonical(), "ja")
        assert not shown.isascii()
        assert rules.parse(state, "A", shown) == order
        assert present.order_text(order.canonical(), "en") == order.canonical()
    assert present.order_text("move C4 attack #6 heal B", "ja") == "移動 C4 攻撃 #6 回復 B"
    assert present.order_text("card trample", "ja") == "カード 踏み潰し"
    assert present.order_text("option 2", "ja") == "選択 2"
