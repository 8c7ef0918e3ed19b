"""Attack targets by the tag the board shows (``#6``), by kind and number, by the old ``A 6``
form, or by hex as before; a number that fits no monster, or several, is refused."""

from __future__ import annotations

import pytest

from bot.dice import ScriptedDice
from bot.ruleset import OrderRejected
from cogs.dungeon import rules
from tests.cogs.dungeon.helpers import acting, h, new, put_monster, use_scenario

HALL = [{"id": "hall", "area": ["A1:G3"]}]  # open floor: the Scout sees all round


@pytest.fixture
def state(monkeypatch: pytest.MonkeyPatch) -> rules.DungeonState:
    use_scenario(monkeypatch, {"level": 1, "starts": ["A1", "A2", "A3", "B1"], "rooms": HALL})
    # a Scout's Volley: attack 2, range 3, two targets; from E2 both monsters are in range
    s = acting(new(classes={"A": "scout"}), "A", "volley", "E2")
    put_monster(s, "guard-6", "F1")
    put_monster(s, "archer-4", "D1")
    return s


@pytest.mark.parametrize(
    "text",
    [
        "attack #6",
        "attack ＃６",
        "attack 6",
        "a #6",
        "attack F1",
        "attack guard 6",
        "attack Guard #6",
        "attack guard-6",
        "攻撃 衛兵#6",
        "攻撃 衛兵 6",
        "attack G 6",
    ],
)
def test_a_monster_is_named_by_its_tag_its_kind_or_its_hex(state, text) -> None:
    assert rules.parse(state, "A", text).attacks == (h("F1"),)


def test_tags_and_hexes_mix_and_records_keep_hexes(state) -> None:
    order = rules.parse(state, "A", "move E2 attack #6 D1")
    assert order.move == (h("E2"),)
    assert order.attacks == (h("F1"), h("D1"))
    assert order.canonical() == "move E2 attack F1 D1"  # records keep hexes


def test_a_bare_tag_starts_the_attack(state) -> None:
    assert rules.parse(state, "A", "#4").attacks == (h("D1"),)


def test_an_old_letter_tag_names_the_kind(state) -> None:
    # "A 6" on the old board: Archer 6 (here the Archer is number 4)
    assert rules.parse(state, "A", "attack A 4").attacks == (h("D1"),)


def test_a_number_that_fits_no_monster_is_refused(state) -> None:
    with pytest.raises(OrderRejected) as err:
        rules.parse(state, "A", "attack #9")
    assert err.value.key == "dungeon.reject.no_such_monster"
    assert err.value.params["monster"] == "#9"


def test_a_number_two_kinds_share_asks_which(state) -> None:
    put_monster(state, "archer-6", "G3")
    with pytest.raises(OrderRejected) as err:
        rules.parse(state, "A", "attack #6")
    assert err.value.key == "dungeon.reject.which_monster"
    assert err.value.params["hexes"] == "F1 G3"
    assert rules.parse(state, "A", "attack guard 6").attacks == (h("F1"),)
    assert rules.parse(state, "A", "attack archer #6").attacks == (h("G3"),)


# --- what the last step did, for the board -------------------------------------------------------


def test_the_view_notes_each_attack_its_damage_and_a_kill(state) -> None:
    state.monster("guard-6").hp = 2
    # modifier faces are rolled per attack: 3 is +0 (see test_rules.PLUS0)
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "attack #6 #4")}, ScriptedDice([3, 3, 3, 3])
    )
    attacks = [x for x in rules.view(after, None)["last"] if x["kind"] == "attack"]
    assert attacks == [
        {"kind": "attack", "figure": "A", "target": "guard-6", "from": "E2", "to": "F1",
         "damage": 2, "killed": True},
        {"kind": "attack", "figure": "A", "target": "archer-4", "from": "E2", "to": "D1",
         "damage": 2, "killed": False},
    ]  # fmt: skip
    # the facts are the public events' (nothing a player could not read in the channel)
    said = [e.data for e in events if e.type == "attack"]
    assert [(x["target"], x["damage"]) for x in said] == [("guard-6", 2), ("archer-4", 2)]
    assert rules.from_json(rules.to_json(after)).last == after.last


def test_heal_a_names_seat_a_not_the_a_of_attack(monkeypatch: pytest.MonkeyPatch) -> None:
    """``heal A`` heals seat A (``a`` alone is short for attack elsewhere in an order)."""
    use_scenario(monkeypatch, {"level": 1, "starts": ["A1", "A2", "A3", "B1"], "rooms": HALL})
    s = acting(new(("A", "B", "C"), classes={"C": "mender"}), "C", "mend", "C2")
    s.heroes["A"].hp = 3
    put_monster(s, "guard-6", "E2")
    for text in ("attack E2 heal A", "heal a", "回復 A"):
        assert rules.parse(s, "C", text).heal == "A", text
