"""Orders read as the logs and the board name units (``A-4``), while the stored text, which the
receipt and the proofs are of, stays as the player sent it."""

from __future__ import annotations

from bot.ruleset import Presenter
from cogs.tactics import RULESET


def test_a_sheet_shows_its_units_as_labels_and_leaves_squares_alone() -> None:
    sheet = "A4 >D9 wait\nA1 >H3 attack B1\nsummon knight A6\nA12 wait"
    shown = RULESET.presenter.order_text(sheet, "en")
    assert shown.splitlines() == [
        "A-4 >D9 wait",
        "A-1 >H3 attack B1",  # the rest of a line may be squares: untouched
        "summon knight A6",
        "A-12 wait",
    ]
    assert RULESET.presenter.order_text("A2 C9, A4 D9", "en") == "A-2 C9, A-4 D9"


def test_japanese_readers_see_the_words_they_would_type() -> None:
    sheet = "A4 >D9 wait\nA1 >H3 attack B1\nsummon knight A6"
    assert RULESET.presenter.order_text(sheet, "ja").splitlines() == [
        "A-4 →D9 待機",
        "A-1 →H3 攻撃 B1",
        "召喚 剣士 A6",
    ]
    shown = RULESET.presenter.order_text("roster warlord knight archer", "ja")
    assert shown == "デッキ 覇王 剣士 弓兵"
    assert RULESET.presenter.order_text("A2 C9, A4 D9", "ja") == "A-2 C9, A-4 D9"


def test_other_rulesets_show_the_order_as_sent() -> None:
    assert Presenter("arena").order_text("fr none", "en") == "fr none"
