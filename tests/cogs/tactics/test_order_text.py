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
    assert RULESET.presenter.order_text("warlord knight archer", "ja") == "warlord knight archer"


def test_other_rulesets_show_the_order_as_sent() -> None:
    assert Presenter("arena").order_text("fr none", "en") == "fr none"
