"""The dungeon's movement and round rules (``shared/rules/dungeon.md``) as scenario tests: each
overlay tile, jump and flying, forced movement, doors opening mid-round with the new monsters'
turns, ties the players break, the round's end, win and loss."""

from __future__ import annotations

import json

import pytest

from bot.dice import ScriptedDice
from bot.ruleset import OrderRejected
from cogs.dungeon import rules
from cogs.dungeon.content import label
from cogs.dungeon.hexes import distance
from cogs.dungeon.movement import Mover, paths
from tests.cogs.dungeon.helpers import acting, corridor, h, new, put_monster, use_scenario

# Modifier die faces (data/modifiers.toml): 1 miss, 2 -1, 3 +0, 4 +0, 5 +1, 6 x2.
PLUS0 = 3


def events_of(events, kind):
    return [e.data for e in events if e.type == kind]


def test_normal_move_pays_two_for_difficult_terrain(monkeypatch) -> None:
    use_scenario(monkeypatch, corridor(difficult=["C1", "D1"]))
    state = acting(new(classes={"A": "brute"}), "A", "sprint", "A1")  # move 5
    put_monster(state, "guard-1", "L1")
    # A1 → B1 (1) → C1 (2) → D1 (2) = 5: E1 would be 6
    rules.parse(state, "A", "move D1")
    with pytest.raises(OrderRejected) as refused:
        rules.parse(state, "A", "move E1")
    assert refused.value.key == "dungeon.reject.cannot_reach"
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "move D1")}, ScriptedDice([])
    )
    assert after.heroes["A"].hex == h("D1")
    assert events_of(events, "moved")[0]["path"] == ["B1", "C1", "D1"]


def test_normal_move_passes_allies_not_enemies_and_never_ends_on_a_figure(monkeypatch) -> None:
    use_scenario(monkeypatch, corridor())
    state = new(seats=("A", "B"), classes={"A": "brute", "B": "scout"})
    state.heroes["B"].hex = h("B1")
    acting(state, "A", "sprint", "A1")
    put_monster(state, "guard-1", "E1")
    assert rules.parse(state, "A", "move C1").move == (h("C1"),)  # through the ally on B1
    for where in ("B1", "E1", "F1"):  # on the ally, on the enemy, behind the enemy
        with pytest.raises(OrderRejected):
            rules.parse(state, "A", f"move {where}")


def test_obstacles_stop_walking_a_jump_passes_them_flying_may_end_on_one(monkeypatch) -> None:
    # obstacles on C1 and C2: walking round them by C3 to D1 costs 4
    use_scenario(
        monkeypatch,
        {**open_room(), "rooms": [{"id": "r", "area": ["A1:G5"], "obstacles": ["C1", "C2"]}]},
    )
    state = acting(new(classes={"A": "rogue"}), "A", "backstab", "B1")  # move 3, walking
    put_monster(state, "guard-1", "G5")
    for where in ("C1", "D1"):
        with pytest.raises(OrderRejected):
            rules.parse(state, "A", f"move {where}")
    acting(state, "A", "vault")  # move 4, jump
    assert rules.parse(state, "A", "move D1").move == (h("D1"),)
    with pytest.raises(OrderRejected):
        rules.parse(state, "A", "move C1")  # a jump may not end on the obstacle
    acting(state, "A", "shadow-step")  # move 3, flying
    assert rules.parse(state, "A", "move C1").move == (h("C1"),)


def test_jump_passes_enemies_and_ignores_the_traps_it_passes_but_not_the_last_hex(
    monkeypatch,
) -> None:
    use_scenario(monkeypatch, corridor(traps=["C1", "E1"], level=1))
    state = acting(new(classes={"A": "rogue"}), "A", "vault", "A1")  # jump 4
    put_monster(state, "guard-1", "B1")
    put_monster(state, "guard-2", "L1")
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "move E1")}, ScriptedDice([])
    )
    hero = after.heroes["A"]
    assert hero.hex == h("E1")
    # only the last hex's trap: level 1 + 2 = 3 damage, and that trap is gone
    assert [e["hex"] for e in events_of(events, "trap")] == ["E1"]
    assert hero.hp == hero.max_hp - 3
    assert h("E1") in after.sprung and h("C1") not in after.sprung


def test_flying_ignores_traps_hazards_and_difficult_terrain(monkeypatch) -> None:
    use_scenario(monkeypatch, corridor(traps=["B1"], hazardous=["C1"], difficult=["D1"]))
    state = acting(new(classes={"A": "scout"}), "A", "glide", "A1")  # flying 3
    put_monster(state, "guard-1", "L1")
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "move D1")}, ScriptedDice([])
    )
    assert after.heroes["A"].hex == h("D1")
    assert after.heroes["A"].hp == after.heroes["A"].max_hp
    assert not events_of(events, "trap") and not events_of(events, "hazardous")


def test_a_trap_hurts_level_plus_two_once_and_is_removed(monkeypatch) -> None:
    use_scenario(monkeypatch, corridor(traps=["B1"], level=3))
    state = acting(new(classes={"A": "brute"}), "A", "sprint", "A1")
    put_monster(state, "guard-1", "L1")
    # the only way on passes the trap: it is taken, since nothing else reaches C1
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "move C1")}, ScriptedDice([])
    )
    assert events_of(events, "trap") == [{"figure": "A", "hex": "B1", "damage": 5, "by": "A"}]
    assert after.heroes["A"].hp == 14 - 5
    assert "B1" not in rules.view(after, None)["terrain"]
    again = acting(after, "A", "sprint", "A1")
    later, events = rules.resolve(
        again, {"A": rules.parse(again, "A", "move C1")}, ScriptedDice([])
    )
    assert not events_of(events, "trap") and later.heroes["A"].hp == 14 - 5


def test_hazardous_terrain_hurts_half_on_every_entry_and_stays(monkeypatch) -> None:
    use_scenario(monkeypatch, corridor(hazardous=["B1", "C1"], level=2))
    state = acting(new(classes={"A": "brute"}), "A", "sprint", "A1")
    put_monster(state, "guard-1", "L1")
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "move D1")}, ScriptedDice([])
    )
    assert [e["damage"] for e in events_of(events, "hazardous")] == [2, 2]  # (2 + 2) // 2 each
    assert after.heroes["A"].hp == 14 - 4
    assert rules.view(after, None)["terrain"]["B1"] == "hazardous"


def test_terrain_acts_on_entering_not_on_starting_or_leaving(monkeypatch) -> None:
    use_scenario(monkeypatch, corridor(hazardous=["A1"]))
    state = acting(new(classes={"A": "brute"}), "A", "sprint", "A1")
    put_monster(state, "guard-1", "L1")
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "move B1")}, ScriptedDice([])
    )
    assert not events_of(events, "hazardous") and after.heroes["A"].hp == 14


def test_walking_onto_ice_slides_on_for_one_point(monkeypatch) -> None:
    # A1, B1, C2, D2 lie on one straight line of hexes
    use_scenario(
        monkeypatch, {**open_room(), "rooms": [{"id": "r", "area": ["A1:G5"], "icy": ["B1", "C2"]}]}
    )
    state = acting(new(classes={"A": "brute"}), "A", "heavy-swing", "A1")  # move 1
    put_monster(state, "guard-1", "G5")
    assert "C2" not in rules.hints(state, "A")["moves"]  # the ice carries it past
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "move D2")}, ScriptedDice([])
    )
    assert after.heroes["A"].hex == h("D2")
    assert events_of(events, "moved")[0]["path"] == ["B1", "C2", "D2"]


def test_push_ignores_difficult_terrain_and_a_trap_kill_is_the_pushers(monkeypatch) -> None:
    use_scenario(monkeypatch, corridor(difficult=["C1"], traps=["D1"], level=1))
    state = acting(new(classes={"A": "brute"}), "A", "shield-bash", "A1")  # attack 2, push 2
    guard = put_monster(state, "guard-1", "B1", hp=4)
    put_monster(state, "guard-2", "L1")
    order = rules.parse(state, "A", "attack B1")
    after, events = rules.resolve(state, {"A": order}, ScriptedDice([PLUS0]))
    # 2 damage, then pushed B1 → C1 (difficult: still one hex) → D1 (trap: 3 more)
    assert events_of(events, "pushed")[0]["path"] == ["C1", "D1"]
    assert events_of(events, "killed") == [{"figure": guard.id, "by": "A"}]
    assert after.heroes["A"].kills == 1
    assert after.monster(guard.id) is not None and not after.monster(guard.id).alive


def test_pull_brings_the_target_closer(monkeypatch) -> None:
    use_scenario(monkeypatch, open_room())
    state = acting(new(classes={"A": "rogue"}), "A", "hook", "A1")  # range 3, pull 2
    put_monster(state, "guard-1", "D1", hp=9)
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "attack D1")}, ScriptedDice([PLUS0])
    )
    assert len(events_of(events, "pulled")[0]["path"]) == 2
    assert distance(after.monster("guard-1").hex, h("A1")) == 1


def test_a_door_opens_when_a_character_enters_and_the_move_ends_there(monkeypatch) -> None:
    use_scenario(monkeypatch, two_rooms())
    state = acting(new(classes={"A": "brute"}), "A", "sprint", "D3")
    put_monster(state, "guard-1", "A1")
    with pytest.raises(OrderRejected):
        rules.parse(state, "A", "move E3 F3 G3")  # beyond the door is unknown
    dice = ScriptedDice([1] * 20)
    after, events = rules.resolve(state, {"A": rules.parse(state, "A", "move F3")}, dice)
    opened = events_of(events, "door_opened")[0]
    assert opened["door"] == "F3" and opened["rooms"] == ["east"]
    assert after.open_doors == [h("F3")] and "east" in after.revealed
    assert {m.type for m in after.living_monsters()} >= {"hound"}


def test_monsters_are_placed_nearest_the_opener_first_in_standee_order(monkeypatch) -> None:
    use_scenario(monkeypatch, two_rooms())
    state = acting(new(classes={"A": "brute"}), "A", "sprint", "D3")
    put_monster(state, "guard-1", "A1")
    order = rules.parse(state, "A", "move F3")
    # the hounds' free standees [1, 2, 3, 4] are shuffled by rolls 4, 3, 2 (no swaps): 1, 2, …
    # nearest F3 first: G3 (1 step) gets the first number drawn, J3 (4 steps) the next
    _, events = rules.resolve(state, {"A": order}, ScriptedDice([4, 3, 2] + [PLUS0] * 10))
    assert events_of(events, "door_opened")[0]["monsters"] == [["hound-1", "G3"], ["hound-2", "J3"]]
    # rolls 1, 1, 1 swap each time: [2, 3, 4, 1]
    _, events = rules.resolve(state, {"A": order}, ScriptedDice([1, 1, 1] + [PLUS0] * 10))
    assert events_of(events, "door_opened")[0]["monsters"] == [["hound-2", "G3"], ["hound-3", "J3"]]


def test_a_revealed_monster_with_lower_initiative_acts_right_after_the_opener(
    monkeypatch,
) -> None:
    use_scenario(monkeypatch, two_rooms())
    state = new(seats=("A", "B"), classes={"A": "brute", "B": "scout"})
    state.heroes["B"].hex = h("A2")
    put_monster(state, "guard-1", "A1")
    state.heroes["A"].card, state.heroes["B"].card = "heavy-swing", "fall-back"  # 40 and 70
    state.round_cards = {"guard": "guard-brace"}  # 50
    state.order = ["A", "guard-1", "B"]
    acting_now = acting(state, "A", "heavy-swing", "E3")
    state.order, state.position = ["A", "guard-1", "B"], 0
    # setup of the room: hound numbers (3 rolls), then the hounds' card: roll 2 of 4 = maul (58)?
    # deck order pounce 24, maul 58, lope 41, howl 88; roll 1 → pounce (24 < 40): acts next
    dice = ScriptedDice([4, 3, 2, 1] + [PLUS0] * 10)
    after, events = rules.resolve(acting_now, {"A": rules.parse(acting_now, "A", "move F3")}, dice)
    joined = events_of(events, "joined_round")[0]
    assert joined["next"] == ["hound-1", "hound-2"]  # both before the guard (50) and B (70)
    assert after.order[:4] == ["A", "hound-1", "hound-2", "guard-1"]
    # the hounds and the guard have acted already; it is B's turn now
    acted = []
    for e in events:
        who = e.data.get("figure") if e.type == "moved" else e.data.get("attacker")
        if e.type in ("moved", "attack") and who not in acted:
            acted.append(who)
    assert acted[0] == "A" and acted.index("hound-1") < acted.index("guard-1")
    assert "B" not in acted
    assert rules.awaiting(after) == [] and after.phase == "act" and after.current() == "B"


def test_a_revealed_monster_with_higher_initiative_waits_its_turn(monkeypatch) -> None:
    use_scenario(monkeypatch, two_rooms())
    state = new(seats=("A", "B"), classes={"A": "brute", "B": "scout"})
    state.heroes["B"].hex = h("A2")
    put_monster(state, "guard-1", "A1")
    state.heroes["B"].card = "fall-back"  # 70
    state.round_cards = {"guard": "guard-brace"}  # 50
    acting(state, "A", "shield-bash", "E3")  # 15
    state.order, state.position = ["A", "guard-1", "B"], 0
    dice = ScriptedDice([4, 3, 2, 4] + [PLUS0] * 10)  # hound card: roll 4 → howl (88)
    after, events = rules.resolve(state, {"A": rules.parse(state, "A", "move F3")}, dice)
    assert events_of(events, "joined_round")[0]["next"] == []
    assert after.order == ["A", "guard-1", "B", "hound-1", "hound-2"]
    assert after.current() == "B"  # the hounds (88) act after B (70)


def test_monsters_never_enter_a_closed_door(monkeypatch) -> None:
    use_scenario(monkeypatch, two_rooms())
    state = new(classes={"A": "brute"})
    g = rules.ground(state)
    mover = Mover(h("E3"), "flying", frozenset(), frozenset(), opens_doors=False)
    assert h("F3") not in paths(g, mover, 5)
    assert "F3" not in rules.ai_map(state).hexes or rules.ai_map(state).terrain[h("F3")] == "wall"


def test_a_monster_tie_waits_for_the_players_vote_and_the_majority_decides(monkeypatch) -> None:
    use_scenario(monkeypatch, open_room())
    state = new(seats=("A", "B", "C"), classes={"A": "brute", "B": "scout", "C": "mender"})
    # a melee guard two steps from A with two equally good attack hexes
    _place(state, {"A": "C3", "B": "A1", "C": "A2"})
    put_monster(state, "guard-1", "E3")
    state.round_cards = {"guard": "guard-advance"}
    for seat in "ABC":
        state.heroes[seat].card = {"A": "sprint", "B": "glide", "C": "stride"}[seat]
    state.order, state.position, state.phase = ["A", "B", "C", "guard-1"], 2, "act"
    state.step_no = state.resolved + 1
    after, events = rules.resolve(state, {"C": rules.parse(state, "C", "pass")}, ScriptedDice([]))
    after.step_no += 1  # the table starts the next step
    assert after.phase == "tie" and rules.awaiting(after) == ["A", "B", "C"]
    options = events_of(events, "monster_tie")[0]["options"]
    assert len(options) >= 2
    assert [c.token for c in rules.choices(after, "A")[0].choices][:2] == ["option 1", "option 2"]
    votes = {s: rules.parse(after, s, t) for s, t in (("A", "2"), ("B", "選択 2"), ("C", "1"))}
    done, events = rules.resolve(after, votes, ScriptedDice([PLUS0] * 3))
    assert events_of(events, "tie_chosen")[0] == {
        "monster": "guard-1",
        "option": 2,
        "votes": [1, 2] + [0] * (len(options) - 2),
    }
    assert label(done.monster("guard-1").hex) == options[1]["move_to"]


def test_a_tie_with_no_votes_takes_option_one(monkeypatch) -> None:
    use_scenario(monkeypatch, open_room())
    state = new(classes={"A": "brute"})
    state.phase = "tie"
    state.pending = {"monster": "guard-1", "options": [{"move_to": [4, 0], "attacks": []}] * 2}
    assert rules.default_order(state, "A").canonical() == "option 1"


def test_cards_are_revealed_together_and_hidden_until_then(monkeypatch) -> None:
    use_scenario(monkeypatch, open_room())
    state = new(seats=("A", "B"), classes={"A": "brute", "B": "scout"})
    put_monster(state, "guard-1", "E5")
    state.step_no = 1
    assert rules.awaiting(state) == ["A", "B"]
    picks = {"A": rules.parse(state, "A", "踏み潰し"), "B": rules.parse(state, "B", "card volley")}
    public = rules.view(state, None)
    assert all(hero["card"] is None for hero in public["heroes"])
    _, events = rules.resolve(state, picks, ScriptedDice([1]))  # guard card: roll 1 of 4
    revealed = events_of(events, "picks")[0]
    assert revealed["cards"] == {"A": "trample", "B": "volley"}
    assert revealed["monster_cards"] == {"guard": "guard-advance"}
    # volley 20, guard 30, trample 72; ties would put characters first
    assert [a for a, _ in revealed["order"]] == ["B", "guard-1", "A"]


def test_initiative_ties_put_characters_first_then_by_seat(monkeypatch) -> None:
    use_scenario(monkeypatch, open_room())
    state = new(seats=("A", "B"), classes={"A": "rogue", "B": "rogue"})
    put_monster(state, "guard-2", "E5")
    put_monster(state, "guard-1", "E4")
    state.heroes["A"].card = state.heroes["B"].card = "darts"  # 33
    state.round_cards = {"guard": "guard-advance"}  # 30
    keys = sorted(["guard-2", "B", "A", "guard-1"], key=lambda a: rules.order_key(state, a))
    assert keys == ["guard-1", "guard-2", "A", "B"]
    state.round_cards = {"guard": "guard-brace"}  # 50
    state.heroes["A"].card = "hook"  # 48 < 50
    keys = sorted(["guard-2", "B", "A", "guard-1"], key=lambda a: rules.order_key(state, a))
    assert keys == ["B", "A", "guard-1", "guard-2"]


def test_the_round_ends_with_cards_discarded_then_rest_then_exhaustion(monkeypatch) -> None:
    use_scenario(monkeypatch, open_room())
    state = new(classes={"A": "brute"})
    put_monster(state, "guard-1", "E5")
    hero = state.heroes["A"]
    hero.hand, hero.discard = ["sprint"], ["trample", "grab"]
    acting(state, "A", "sprint")
    after, events = rules.resolve(state, {"A": rules.parse(state, "A", "pass")}, ScriptedDice([]))
    rested = events_of(events, "rested")[0]
    assert rested == {"seat": "A", "lost": "sprint"}
    assert after.heroes["A"].hand == ["trample", "grab"] and after.heroes["A"].lost == ["sprint"]
    hero = after.heroes["A"]
    hero.hand, hero.discard = ["grab"], []
    acting(after, "A", "grab")
    final, events = rules.resolve(after, {"A": rules.parse(after, "A", "pass")}, ScriptedDice([]))
    assert events_of(events, "exhausted") == [{"seat": "A"}]
    assert rules.outcome(final).winner == rules.MONSTERS


def test_killing_the_last_monster_with_every_room_open_wins(monkeypatch) -> None:
    use_scenario(monkeypatch, open_room())
    state = acting(new(classes={"A": "brute"}), "A", "heavy-swing", "C3")
    put_monster(state, "guard-1", "D3", hp=4)
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "attack D3")}, ScriptedDice([PLUS0])
    )
    assert rules.outcome(after).winner == rules.PARTY and events_of(events, "won")
    assert rules.awaiting(after) == []


def test_a_closed_room_keeps_the_scenario_going(monkeypatch) -> None:
    use_scenario(monkeypatch, two_rooms())
    state = acting(new(classes={"A": "brute"}), "A", "heavy-swing", "A2")
    put_monster(state, "guard-1", "B2", hp=4)
    after, _ = rules.resolve(
        state, {"A": rules.parse(state, "A", "attack B2")}, ScriptedDice([PLUS0])
    )
    assert not rules.outcome(after).finished and after.phase == "pick"


def test_monster_attacks_can_kill_the_last_character(monkeypatch) -> None:
    use_scenario(monkeypatch, open_room())
    state = new(classes={"A": "scout"})
    _place(state, {"A": "C3"})
    state.heroes["A"].hp = 1
    put_monster(state, "guard-1", "D3")
    state.heroes["A"].card = "aimed-shot"  # 45
    state.round_cards = {"guard": "guard-advance"}  # 30
    state.order, state.position, state.phase = ["guard-1", "A"], -1, "pick"
    state.step_no = state.resolved + 1
    after, events = rules.resolve(
        state, {"A": rules.Order("card", card="aimed-shot")}, ScriptedDice([1, PLUS0])
    )
    assert rules.outcome(after).winner == rules.MONSTERS and events_of(events, "lost")


def test_orders_in_japanese_and_english_mean_the_same(monkeypatch) -> None:
    use_scenario(monkeypatch, open_room())
    state = acting(new(classes={"A": "scout"}), "A", "volley", "A1")
    put_monster(state, "guard-1", "D2")
    put_monster(state, "guard-2", "D3")
    en = rules.parse(state, "A", "move B2 attack D2, D3")
    ja = rules.parse(state, "A", "移動 B2 攻撃 D2、D3")
    assert en == ja and en.canonical() == "move B2 attack D2 D3"
    assert rules.parse(state, "A", en.canonical()) == en
    with pytest.raises(OrderRejected) as refused:
        rules.parse(state, "A", "move B2 attack D2 D3 E3")
    assert refused.value.key == "dungeon.reject.too_many_targets"


def test_state_round_trips_through_json(monkeypatch) -> None:
    use_scenario(monkeypatch, two_rooms())
    state = acting(new(seats=("A", "B")), "A", "sprint", "D3")
    put_monster(state, "guard-1", "A1")
    after, _ = rules.resolve(
        state, {"A": rules.parse(state, "A", "move F3")}, ScriptedDice([1] * 30)
    )
    again = rules.from_json(json.loads(json.dumps(rules.to_json(after))))
    assert rules.to_json(again) == rules.to_json(after)
    summary = rules.summary(after)
    assert summary["doors"] == {"open": [list(h("F3"))]}
    assert {f["side"] for f in summary["figures"]} == {"character", "monster"}


def test_the_shipped_scenarios_start(monkeypatch) -> None:
    for sid in ("crypt", "frozen-gallery"):
        state = rules.new_game("g", ["A", "B"], {"scenario": sid}, ScriptedDice([1] * 40))
        assert state.phase == "pick" and state.living_monsters()
        assert rules.view(state, "A")["you"]["hand"]


# --- maps ----------------------------------------------------------------------------------------


def two_rooms() -> dict:
    """West room A1:E5, a door at F3, east room G1:K5 with two hounds."""
    return {
        "level": 1,
        "starts": ["A2", "A3", "B2", "B3"],
        "rooms": [
            {"id": "west", "area": ["A1:E5"]},
            {
                "id": "east",
                "area": ["G1:K5"],
                "monsters": [{"type": "hound", "hex": "J3"}, {"type": "hound", "hex": "G3"}],
            },
        ],
        "doors": [{"hex": "F3", "rooms": ["west", "east"]}],
    }


def open_room() -> dict:
    return {
        "level": 1,
        "starts": ["A1", "A2", "A3", "A4"],
        "rooms": [{"id": "r", "area": ["A1:G5"]}],
    }


def _place(state, where: dict[str, str]) -> None:
    for seat, spot in where.items():
        state.heroes[seat].hex = h(spot)


def test_flying_may_end_on_an_obstacle_but_landing_there_hurts_and_moves(monkeypatch) -> None:
    use_scenario(
        monkeypatch,
        {**open_room(), "rooms": [{"id": "r", "area": ["A1:G5"], "obstacles": ["C1"]}]},
    )
    state = acting(new(classes={"A": "scout"}), "A", "glide", "A1")  # flying 3, level 1
    put_monster(state, "guard-1", "G5")
    after, events = rules.resolve(
        state, {"A": rules.parse(state, "A", "move C1")}, ScriptedDice([])
    )
    grounded = events_of(events, "grounded")[0]
    assert grounded["hex"] == "C1" and grounded["damage"] == 3
    hero = after.heroes["A"]
    assert hero.hp == hero.max_hp - 3
    assert distance(hero.hex, h("C1")) == 1 and label(hero.hex) == grounded["to"]


def test_an_order_that_no_longer_applies_passes_and_says_why(monkeypatch) -> None:
    # a hand-edited record: the order names a hex the card cannot reach
    from cogs.dungeon import present

    use_scenario(monkeypatch, open_room())
    state = acting(new(classes={"A": "brute"}), "A", "heavy-swing", "A1")  # move 1
    put_monster(state, "guard-1", "G5")
    order = rules.Order("act", move=(h("E1"),))
    after, events = rules.resolve(state, {"A": order}, ScriptedDice([]))
    assert after.heroes["A"].hex == h("A1")
    (void,) = events_of(events, "order_void")
    assert void["reason"] == "dungeon.reject.cannot_reach"
    lines = present.PRESENTER.event_lines([e.to_json() for e in events], "en", {"A": "Aurora"})
    assert any("You cannot end your move at E1 with move 1" in line for line in lines)


def _monster_after_a_pass(state, monster_id: str, card: str, dice: list[int]):
    """A passes; then the monster acts with ``card`` (its turn run by the AI)."""
    mtype = monster_id.rsplit("-", 1)[0]
    state.round_cards = {mtype: card}
    acting(state, "A", "sprint", "A1")
    state.order, state.position = ["A", monster_id], 0
    return rules.resolve(state, {"A": rules.parse(state, "A", "pass")}, ScriptedDice(dice))


def hall(**room) -> dict:
    """Two rows, A1:F2. (A one-hex-wide corridor will not do for monsters: with Gloomhaven's
    vertex line of sight, every vertex there touches the rock, so no two of its hexes see each
    other and a monster cannot attack along it; the AI's reference agrees.)"""
    level = room.pop("level", 1)
    return {
        "level": level,
        "starts": ["A1", "A2", "F1", "F2"],
        "rooms": [{"id": "r", "area": ["A1:F2"], **room}],
    }


def test_a_walking_monster_crosses_hazards_only_when_it_must_and_is_hurt(monkeypatch) -> None:
    use_scenario(monkeypatch, hall(hazardous=["C1", "C2"], level=2))  # a hazard wall
    state = new(classes={"A": "brute"})
    put_monster(state, "guard-1", "E1", hp=9)
    after, events = _monster_after_a_pass(state, "guard-1", "guard-rush", [PLUS0] * 4)  # move 3
    guard = after.monster("guard-1")
    assert label(guard.hex) == "B1"  # the only way to A crosses the hazards: once, not twice
    assert [e["hex"] in ("C1", "C2") for e in events_of(events, "hazardous")] == [True]
    assert guard.hp == 9 - 2  # (level 2 + 2) // 2
    assert events_of(events, "attack")[0]["target"] == "A"


def test_a_flying_monster_passes_traps_and_leaves_them(monkeypatch) -> None:
    use_scenario(monkeypatch, hall(traps=["C1", "C2", "D1", "D2"]))
    state = new(classes={"A": "brute"})
    put_monster(state, "imp-1", "E1", hp=3)
    after, events = _monster_after_a_pass(state, "imp-1", "imp-claw", [PLUS0] * 4)  # move 3
    imp = after.monster("imp-1")
    assert label(imp.hex) == "B1" and imp.hp == 3
    assert not events_of(events, "trap") and after.sprung == []
    assert rules.view(after, None)["last"][0]["path"][-1] == "B1"


def test_a_monster_stays_behind_traps_when_another_way_is_longer_but_free(monkeypatch) -> None:
    # a two-row hall: the trap on B1 is avoided by the row above even though that costs the
    # guard its attack this turn (traps count as obstacles unless no focus can be found otherwise)
    use_scenario(monkeypatch, hall(traps=["B1"]))
    state = new(classes={"A": "brute"})
    put_monster(state, "guard-1", "C1", hp=9)
    state.heroes["A"].hex = h("A1")
    after, events = _monster_after_a_pass(state, "guard-1", "guard-brace", [PLUS0] * 4)  # move 1
    assert not events_of(events, "trap")
    assert label(after.monster("guard-1").hex) != "B1"
