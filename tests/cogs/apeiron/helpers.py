"""Small hand-made Apeiron situations: a tiny pack of the tests' own and a fixed field."""

from __future__ import annotations

from typing import Any

from bot.dice import ScriptedDice
from bot.render.squaregrid import parse
from cogs.apeiron import rules
from cogs.apeiron.rules import ApeironState, UnitState


def unit(uid: str, hp: int = 4, power: int = 2, move: int = 2, **extra: Any) -> dict[str, Any]:
    return {
        "id": uid,
        "name_en": uid.capitalize(),
        "name_ja": "ユニット" + uid,
        "hp": hp,
        "power": power,
        "move": move,
        "flying": extra.pop("flying", False),
        "range": extra.pop("range", 1),
        "grave_turns": extra.pop("grave_turns", 0),
        "text_en": "A test unit.",
        "text_ja": "テスト用ユニット。",
        "abilities": extra.pop("abilities", []),
    }


EMPTY = ["...", "...", "..."]


def card(cid: str, kind: str = "item", **effect: Any) -> dict[str, Any]:
    """A chest card: ``effect=`` fields, or ``options=[…]`` for an event with options."""
    out: dict[str, Any] = {
        "id": cid,
        "kind": kind,
        "name_en": cid.capitalize(),
        "name_ja": "カード" + cid,
        "text_en": "A test card.",
        "text_ja": "テスト用カード。",
    }
    if "options" in effect:
        out["options"] = effect.pop("options")
    else:
        out["effect"] = effect
    return out


def special(sid: str, **effect: Any) -> dict[str, Any]:
    return {
        "id": sid,
        "name_en": sid.capitalize(),
        "name_ja": "特殊" + sid,
        "text_en": "A test special unit.",
        "text_ja": "テスト用特殊ユニット。",
        "effect": effect,
    }


def tiny_pack(
    *units: dict[str, Any],
    panels: list[dict[str, Any]] | None = None,
    chest: list[dict[str, Any]] | None = None,
    specials: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Units as given (default: a soldier, an archer, a bird, a ghost); grass panels g1–g9 plus
    the panels given; the chest cards and special units given."""
    if not units:
        units = (
            unit("sol"),
            unit("arc", hp=3, power=2, range=3),
            unit("bird", hp=3, power=1, move=3, flying=True),
            unit("ghost", hp=2, power=1, grave_turns=2),
            unit("tank", hp=9, power=1, move=1),
        )
    grass = [{"id": f"g{i}", "kind": "grass", "layout": EMPTY} for i in range(1, 5)]
    more = [
        {"id": "r1", "kind": "rock", "layout": ["#..", "...", "..#"]},
        {"id": "s1", "kind": "sea", "layout": ["...", ".#.", "..."]},
        {"id": "f1", "kind": "forest", "layout": ["#..", ".T.", "..."]},
        {"id": "pz", "kind": "poison", "layout": EMPTY},
        {"id": "gv", "kind": "gravity", "layout": EMPTY},
        {"id": "ar", "kind": "arrow", "layout": [">>>", ">>>", ">>>"]},
        {"id": "lw", "kind": "lawless", "layout": EMPTY},
        {"id": "s2", "kind": "sea", "layout": [*["...", "...", "..."][:0], "#..", "...", "..."]},
        {"id": "s3", "kind": "sea", "layout": ["..#", "...", "..."]},
        {"id": "s4", "kind": "sea", "layout": ["...", "...", "#.."]},
    ]
    out = {
        "pack": {"id": "tiny", "version": 1, "name_en": "Tiny", "name_ja": "小さなパック"},
        "unit": list(units),
        "panel": grass + more + (panels or []),
    }
    if chest:
        out["chest"] = chest
    if specials:
        out["special"] = specials
    return out


def grass_field(**at: str) -> list[str]:
    """Positions 1..9: ``p<N>="panel@rot"`` where given, else g1–g4, then sea and forest panels
    (their obstacles at the panel edges) in that order."""
    fill = ["g1@0", "g2@0", "g3@0", "g4@0", "s2@0", "s3@0", "s4@0", "s1@0", "f1@0"]
    out: list[str] = []
    given = {int(k[1:]): v for k, v in at.items()}
    used = {v.split("@")[0] for v in given.values()}
    pool = [f for f in fill if f.split("@")[0] not in used]
    for pos in range(1, 10):
        out.append(given[pos] if pos in given else pool.pop(0))
    return out


def situation(
    a: list[tuple[str, str, str]],
    b: list[tuple[str, str, str]],
    *,
    pack: dict[str, Any] | None = None,
    field: list[str] | None = None,
    first: str = "A",
    objects: dict[str, str] | None = None,
    clear: bool = True,
    options: dict[str, Any] | None = None,
    chest: dict[str, list[str]] | None = None,
) -> ApeironState:
    """A game in play: units ``(id, square, facing)`` in action order, ``first`` to act; the
    activation is opened (``start_step``). ``clear``: no layout objects (a plain board)."""
    opts = {"pack": pack or tiny_pack(), "field": field or grass_field(), **(options or {})}
    state = rules.new_game("t", ("A", "B"), opts, ScriptedDice([]), ScriptedDice([]))
    if clear:
        state.objects = {}
    for square, kind in (objects or {}).items():
        state.objects[parse(square)] = kind
    for seat, units in (("A", a), ("B", b)):
        state.units[seat] = [
            UnitState(uid, seat, i + 1, parse(sq), facing, state.pack.units[uid].hp)
            for i, (uid, sq, facing) in enumerate(units)
        ]
        cards = (chest or {}).get(seat, [])
        state.decks[seat] = {"units": [u[0] for u in units], "chest": list(cards)}
        state.chest[seat] = list(cards)
    state.step, state.revealed, state.first = rules.PLAY, True, first
    state.steps = 2
    state, _ = rules.start_step(state, ScriptedDice([]))
    return state


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def star(effect: str, **params: Any) -> dict[str, Any]:
    return {"timing": "star", "effect": effect, **params}


def play(state: ApeironState, text: str) -> tuple[ApeironState, list[dict[str, Any]]]:
    """The active seat's order, resolved, and the next activation opened (if the game goes on)."""
    seat = state.active
    assert seat is not None
    order = rules.parse(state, seat, text)
    state, events = rules.resolve(state, {seat: order}, ScriptedDice([]))
    out = [e.to_json() for e in events]
    if state.ended is None:
        state, more = rules.start_step(state, ScriptedDice([]))
        out += [e.to_json() for e in more]
    return state, out


def at(state: ApeironState, square: str) -> UnitState | None:
    return rules.unit_at(state, parse(square))
