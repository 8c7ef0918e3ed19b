"""Whole Apeiron games of the demo AI on random fields and decks (Hypothesis), with the
invariants checked at every step, and the DM buttons (``choices``)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.dice import ScriptedDice
from bot.ruleset import Event
from cogs.apeiron import ai, rules
from cogs.apeiron import field as fld
from cogs.apeiron import pack as packlib

from .helpers import card, play, situation, special, star, tiny_pack, unit

MAX_STEPS = 900


class RandomDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, sides: int) -> int:
        return self.rng.randint(1, sides)


def hidden_facts(state: rules.ApeironState) -> list[str]:
    """Facts no public view may show yet: face-down panels' ids (before the reveal), chest
    cards not drawn (before the end) and the chests' order."""
    facts: list[str] = []
    if not state.revealed:
        for pos in fld.POSITIONS:
            slot = state.field[pos]
            if pos not in fld.MIDDLE and slot is not None:
                middle = {state.field[p].panel for p in fld.MIDDLE if state.field[p]}  # type: ignore[union-attr]
                if slot.panel not in middle:
                    facts.append(f'"{slot.panel}"')
    if state.ended is None:
        # a card drawn by either seat is public (both decks may hold the same card)
        drawn = {
            c
            for seat in rules.SEATS
            for c in state.decks.get(seat, {}).get("chest", [])
            if c not in state.chest.get(seat, [])
        }
        for seat in rules.SEATS:
            facts += [f'"{c}"' for c in state.chest.get(seat, []) if c not in drawn]
    return facts


def check_invariants(state: rules.ApeironState, events: list[Event]) -> None:
    seen: set[Any] = set()
    for seat in rules.SEATS:
        for u in state.units.get(seat, []):
            card = state.pack.units[u.id]
            assert u.hp <= card.hp, f"{u.id} H {u.hp} above printed {card.hp}"
            if not u.alive:
                continue
            assert u.square not in seen, "two units on one square"
            seen.add(u.square)
            assert fld.on_board(u.square) and not rules.off_field(state, u.square)  # type: ignore[arg-type]
            assert state.objects.get(u.square) != "obstacle", f"{u.id} on an obstacle"  # type: ignore[arg-type]
            assert u.square not in state.graves
            if u.hp == 0:  # only the acting unit, brought to 0 by a cost, until its end
                assert state.step in rules.MID_STEPS
    for kind in packlib.OBJECTS:
        cap = rules.TREASURE_CAP if kind == "treasure" else rules.OBJECT_CAP
        assert rules.placed_count(state, kind) <= cap, f"more than {cap} {kind}"
    fld.check_caps(state.field)
    # JSON round trip
    obj = json.loads(json.dumps(rules.to_json(state)))
    assert rules.to_json(rules.from_json(obj)) == rules.to_json(state)
    # no private fact in the public view or a public event
    public = json.dumps(rules.view(state, None), ensure_ascii=False)
    said = json.dumps([e.to_json() for e in events if e.public], ensure_ascii=False)
    for fact in hidden_facts(state):
        assert fact not in public, f"{fact} in the public view"
        assert fact not in said, f"{fact} in a public event"
    if state.ended is None:
        for seat in rules.SEATS:
            mine = rules.view(state, seat)
            assert "chest" not in json.dumps(mine.get("you", {})) or mine["you"].get("chest") == (
                state.decks.get(seat, {}).get("chest")
            )


def whole_game(seed: int, options: dict[str, Any]) -> rules.ApeironState:
    rng = random.Random(seed)
    secret = RandomDice(random.Random(seed * 7 + 1))
    state = rules.new_game("g", rules.SEATS, options, RandomDice(rng), secret)
    check_invariants(state, [])
    for _ in range(MAX_STEPS):
        state, events = rules.start_step(state, RandomDice(rng), secret)
        check_invariants(state, events)
        if state.ended is not None:
            break
        awaited = rules.awaiting(state)
        assert awaited, f"nobody awaited at {rules.step_label(state)}"
        orders = {seat: rules.parse(state, seat, ai.choose(state, seat, rng)) for seat in awaited}
        for seat, order in orders.items():
            assert rules.parse(state, seat, order.canonical()).canonical() == order.canonical()
        state, events = rules.resolve(state, orders, RandomDice(rng), secret)
        check_invariants(state, events)
        if state.ended is not None:
            break
    assert state.ended is not None, "the game did not end"
    return state


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    events=st.lists(st.sampled_from(packlib.EVENT_KINDS), unique=True),
    limit=st.integers(6, 30),
)
def test_whole_games_keep_every_invariant(seed: int, events: list[str], limit: int) -> None:
    state = whole_game(seed, {"events": events, "turn_limit": limit})
    assert state.winner in rules.SEATS


def test_a_long_game_uses_abilities_treasure_and_items() -> None:
    """Across a few seeded games the AI draws, places items, uses them and its ★ abilities."""
    kinds: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        secret = RandomDice(random.Random(seed + 99))
        state = rules.new_game("g", rules.SEATS, {"turn_limit": 25}, RandomDice(rng), secret)
        for _ in range(MAX_STEPS):
            state, events = rules.start_step(state, RandomDice(rng), secret)
            kinds |= {e.type for e in events}
            if state.ended is not None:
                break
            orders = {s: ai.choose(state, s, rng) for s in rules.awaiting(state)}
            state, events = rules.resolve(state, orders, RandomDice(rng), secret)
            kinds |= {e.type for e in events}
            if state.ended is not None:
                break
    assert {"drawn", "zone", "item", "ability"} <= kinds, kinds


# --- the DM buttons ------------------------------------------------------------------------------


def test_choices_make_orders_and_show_the_walked_path() -> None:
    hit = unit("hit", abilities=[star("damage", target="each", reach="range:2", amount=1)])
    pack = tiny_pack(hit, unit("sol"), unit("tank", hp=9, power=1, move=1))
    state = situation([("hit", "B2", "S")], [("tank", "H8", "N")], pack=pack)
    groups = rules.choices(state, "A")
    assert [g.name for g in groups] == ["unit", "move", "facing", "action"]
    moves = {c.token for c in groups[1].choices}
    assert "B3>B4" in moves and "B1" in moves  # the path the engine walks to B4
    actions = [c.token for c in groups[3].choices]
    assert actions[0] == "none" and "ability" in actions
    for move in list(moves)[:5]:
        for action in actions:
            rules.parse(state, "A", f"hit {move} S {action}")
    state2, _ = play(state, "hit B3>B4 keep none")
    assert rules.unit_at(state2, (1, 3)) is not None
    assert rules.choices(state, "B") == []


def test_choices_of_the_follow_up_steps_and_their_defaults() -> None:
    chest = [
        card("pot", "item", effect="heal", target="self", amount=3),
        card("quake", "event", effect="rotate", target="panel", reach="adjacent-panel", quarters=1),
    ]
    spec = [special("sp1", effect="heal", target="each", hits="allies", reach="field", amount=1)]
    pack = tiny_pack(unit("sol"), unit("tank", hp=9), chest=chest, specials=spec)
    state = situation(
        [("sol", "B2", "S")],
        [("tank", "H8", "N")],
        pack=pack,
        chest={"A": ["pot", "quake"]},
        objects={"B3": "treasure"},
    )
    state, _ = play(state, "B2>B3 S treasure")
    state.side["B"] = {"card": "sp1", "owner": "B"}
    (group,) = rules.choices(state, "A")
    assert [(c.token, c.enabled) for c in group.choices] == [
        ("place own", True),
        ("place opponent", False),
        ("discard", True),
    ]
    assert rules.default_order(state, "A").canonical() == "place own"
    state.side["A"] = {"card": "pot", "owner": "A"}
    assert rules.default_order(state, "A").canonical() == "discard"
    state, _ = rules.resolve(state, {}, ScriptedDice([]))  # the deadline passed
    state, _ = rules.start_step(state, ScriptedDice([]))
    state, _ = play(state, "H8>H7 N")
    state, _ = play(state, "chance; B3>B4 S")
    # the rotate event: panels by position, then cw first
    assert rules.option_list(state) == ["P2", "P3", "P4"]
    (group,) = rules.choices(state, "A")
    assert [c.token for c in group.choices] == ["option 1", "option 2", "option 3"]
    state, _ = play(state, "option 1")
    assert rules.option_list(state) == ["cw", "ccw"]
    assert rules.default_order(state, "A").canonical() == "option 1"
    state, events = rules.resolve(state, {}, ScriptedDice([]))
    assert any(e.type == "panel_rotated" and e.data["direction"] == "cw" for e in events)


def test_deck_and_deploy_buttons() -> None:
    state = rules.new_game("g", rules.SEATS, {}, ScriptedDice([]), RandomDice(random.Random(3)))
    state, _ = rules.start_step(state, ScriptedDice([]))
    (group,) = rules.choices(state, "A")
    assert len(group.choices) == len(state.pack.presets)
    for choice in group.choices:
        rules.parse(state, "A", choice.token)
