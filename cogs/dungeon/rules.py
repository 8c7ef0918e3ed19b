"""The hex dungeon's pure engine (``shared/rules/dungeon.md``): a co-operative round of secret card
picks, figures acting in initiative order, characters moved and attacking by their players'
orders, monsters run by :mod:`cogs.dungeon.ai`.

One table "turn" is one step that needs players' input:

* ``pick``: every character still in play secretly picks a card; revealed together. Monsters then
  draw one ability card per type, and the round's order is set.
* ``act``: the character whose turn it is sends a move and attacks.
* ``tie``: the AI found several equally good outcomes for a monster; the players vote (the most
  votes wins, a tie in votes goes to the lowest option; the default is option 1).

Between steps the engine runs every monster turn it can by itself. Dice (in draw order within a
step): setting a room up draws the standee numbers of each monster type (one shuffle per type,
types in the order they appear in the room); the picks step draws one ability card per monster
type on the board (types sorted by name) from what is left of its deck (a roll of the number left;
the deck is refilled when empty); each attack rolls one d6 modifier per target.

It is built of modules that each import only those listed before them (no import cycle):

- :mod:`.state`: the types (:class:`DungeonState`, :class:`Hero`, :class:`Monster`), the reads
  every module makes and the ground;
- :mod:`.orders`: a seat's orders, read and checked;
- :mod:`.resolution`: a step resolved and the monster turns that follow it;
- this module, over them all: the options and the set-up, the table's hooks, the views and the
  storage. Its users (the spec, the demo party, the presenter, the tests) name the engine's
  types, words and reads through it (:data:`__all__`).

No discord, no storage, no clock, no randomness but the dice it is handed.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from bot.dice import NO_SECRET, Dice
from bot.i18n import LANGS, t
from bot.ruleset import Choice, ChoiceGroup, Event, RuleError, StateError, counted_step
from bot.ruleset import Outcome as GameOutcome
from cogs.dungeon import content, plans, words
from cogs.dungeon.ai import RULES, Outcome
from cogs.dungeon.content import Card, Scenario, label, parse_label
from cogs.dungeon.hexes import Hex, to_offset
from cogs.dungeon.movement import paths
from cogs.dungeon.orders import Order, default_order, hero_mover, in_range, parse, split_words
from cogs.dungeon.resolution import monster_path, outcome_labels, resolve, set_up_room, situation
from cogs.dungeon.state import (
    DEFAULT_SCENARIO,
    MONSTERS,
    PARTY,
    DungeonState,
    Hero,
    Monster,
    ai_map,
    awaiting,
    card_of,
    ground,
    initiative,
    monster_card,
    order_key,
    revealed_hexes,
    terrain_now,
    visible_doors,
)

NAME = "dungeon"
SEATS = ("A", "B", "C", "D")
SCHEMA_VERSION = 1
DEFAULT_CLASSES = ("brute", "scout", "mender", "rogue")


class OptionError(RuleError):
    """Options that would not start a game."""


# --- options and setup ---------------------------------------------------------------------------


def check_options(options: Mapping[str, Any]) -> None:
    sid = str(options.get("scenario", DEFAULT_SCENARIO))
    scen = content.scenario(sid)  # ContentError for an unknown scenario
    level = options.get("level", scen.level)
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 7:
        raise OptionError("dungeon.option.level", value=level)
    if options.get("rules", scen.rules) not in RULES:
        raise OptionError("dungeon.option.rules", value=options.get("rules"))
    chosen = options.get("classes")
    if chosen is not None:
        if not isinstance(chosen, Mapping):
            raise OptionError("dungeon.option.classes")
        for seat, cls in chosen.items():
            if not isinstance(cls, str):  # a record's options are any JSON
                raise OptionError("dungeon.option.class_type", seat=seat)
            if seat not in SEATS or cls not in content.classes():
                raise OptionError("dungeon.option.unknown_class", seat=seat, cls=cls)


def parse_party(text: str, players: int) -> dict[str, str]:
    """``"rogue mender"`` (class ids or names, either language), one per player in seat order,
    as the ``classes`` option; OptionError when a word is no class or the count is wrong."""
    words = split_words(text)
    if len(words) != players:
        raise OptionError("dungeon.option.party_size", players=players, given=len(words))
    chosen = {}
    for seat, word in zip(SEATS, words, strict=False):
        found = next(
            (
                cid
                for cid in content.classes()
                if word.lower() == cid
                or word in {t(lang, f"dungeon.class.{cid}") for lang in LANGS}
                or word.lower() == t("en", f"dungeon.class.{cid}").lower()
            ),
            None,
        )
        if found is None:
            raise OptionError("dungeon.option.unknown_class", seat=seat, cls=word)
        chosen[seat] = found
    return chosen


def new_game(
    game_id: str,
    seats: Sequence[str],
    options: Mapping[str, Any],
    dice: Dice,
    secret: Dice = NO_SECRET,
) -> DungeonState:
    seats = list(seats)
    if not 1 <= len(seats) <= len(SEATS) or seats != list(SEATS[: len(seats)]):
        raise OptionError("dungeon.option.seats", max=len(SEATS))
    check_options(options)
    state = DungeonState(str(game_id), dict(options), seats)
    scen = state.scenario
    chosen = dict(options.get("classes") or {})
    for i, seat in enumerate(seats):
        cls = content.classes()[chosen.get(seat, DEFAULT_CLASSES[i % len(DEFAULT_CLASSES)])]
        state.heroes[seat] = Hero(
            seat, cls.id, scen.starts[i], cls.hp, cls.hp, [c.id for c in cls.cards]
        )
    first = scen.rooms[0]
    state.revealed.append(first.id)
    set_up_room(state, first.id, scen.starts[0], dice)
    return state


# --- the table's hooks ---------------------------------------------------------------------------


def start_step(
    state: DungeonState, dice: Dice, secret: Dice = NO_SECRET
) -> tuple[DungeonState, list[Event]]:
    return counted_step(state)


def step_number(state: DungeonState) -> int:
    return state.step_no


def step_label(state: DungeonState) -> str:
    """``round 2 pick``, ``round 2 A`` (a character's turn), ``round 2 tie`` (the vote)."""
    current = state.current()
    if state.phase == "act" and current is not None:
        return f"round {state.round} {current}"
    return f"round {state.round} {state.phase}"


def outcome(state: DungeonState) -> GameOutcome:
    if state.outcome is None:
        return GameOutcome.ongoing()
    return GameOutcome.cooperative(state.outcome)


def choices(state: DungeonState, seat: str) -> list[ChoiceGroup]:
    """One group a step, each choice a whole order: a card of the hand (named with what it
    does), a monster tie's options (where it goes and whom it attacks), and a turn's whole
    orders in a menu (:mod:`.plans`)."""
    if seat not in awaiting(state):
        return []
    if state.phase == "pick":
        hero = state.heroes[seat]
        cards = {c.id: c for c in content.classes()[hero.cls].cards}
        return [
            ChoiceGroup(
                "card",
                "dungeon.choice.card",
                [
                    Choice(
                        f"card {cid}",
                        "dungeon.choice.card_label",
                        params={
                            "text": {
                                lang: words.card_text(cards[cid].to_json(), lang, bold=False)
                                for lang in LANGS
                            }
                        },
                    )
                    for cid in hero.hand
                ],
            )
        ]
    if state.phase == "tie":
        options = [
            outcome_labels(_from_json_outcome(o)) for o in (state.pending or {}).get("options", [])
        ]
        return [
            ChoiceGroup(
                "option",
                "dungeon.choice.option",
                [
                    Choice(
                        f"option {i}",
                        "dungeon.choice.option_label",
                        params={
                            "number": i,
                            "text": {lang: _tie_words(state, o, lang) for lang in LANGS},
                        },
                    )
                    for i, o in enumerate(options, start=1)
                ],
            )
        ]
    return [ChoiceGroup("act", "dungeon.choice.act", plans.act_choices(state, seat), select=True)]


def _tie_words(state: DungeonState, option: Mapping[str, Any], lang: str) -> str:
    """``to B2, attacking A`` (the characters it would attack, by seat)."""
    attacked = []
    for hex_label in option.get("attacks") or []:
        h = parse_label(str(hex_label))
        figure = state.figure_at(h) if h is not None else None
        attacked.append(figure.seat if isinstance(figure, Hero) else str(hex_label))
    if attacked:
        sep = t(lang, "dungeon.dm.list_sep")
        return t(
            lang, "dungeon.option_text.attack", hex=option["move_to"], targets=sep.join(attacked)
        )
    return t(lang, "dungeon.option_text.move", hex=option["move_to"])


def resign(state: DungeonState, seat: str) -> tuple[DungeonState, list[Event]]:
    """Co-operative play has no opponent to hand the game to: a player who resigns takes the
    party out of the dungeon, and the scenario is lost for everyone."""
    new = copy.deepcopy(state)
    hero = new.heroes[seat]
    if hero.status == "active":
        hero.status, hero.hex = "exhausted", None
    new.phase, new.outcome = "over", MONSTERS
    return new, [Event("resigned", {"seat": seat}), Event("lost", {"round": new.round})]


# --- views ---------------------------------------------------------------------------------------


def view(state: DungeonState, seat: str | None) -> dict[str, Any]:
    scen = state.scenario
    shown = revealed_hexes(state)
    picks_public = state.phase != "pick"
    heroes = []
    for s in state.seats:
        hero = state.heroes[s]
        card = card_of(state, hero)
        heroes.append(
            {
                "seat": s,
                "class": hero.cls,
                "hex": label(hero.hex) if hero.hex else None,
                "hp": hero.hp,
                "max_hp": hero.max_hp,
                "status": hero.status,
                "hand": len(hero.hand),
                "lost": len(hero.lost),
                "card": card.to_json() if card and picks_public else None,
                "kills": hero.kills,
                "log": copy.deepcopy(hero.log),
            }
        )
    monsters = []
    for m in state.living_monsters():
        card = monster_card(state, m.type)
        monsters.append(
            {
                "id": m.id,
                "type": m.type,
                "number": m.number,
                "hex": label(m.hex),
                "hp": m.hp,
                "max_hp": m.max_hp,
                "card": card.to_json() if card else None,
                "flying": content.monster_types()[m.type].flying,
            }
        )
    current = state.current() if state.phase in ("act", "tie") else None
    out: dict[str, Any] = {
        "scenario": scen.id,
        "level": state.level,
        "rules": state.rules_variant,
        "round": state.round,
        "phase": state.phase,
        "hexes": sorted(label(h) for h in shown),
        # the whole map's size (not what is in it), so the board keeps its scale as rooms open
        "extent": _extent(scen),
        "rooms": list(state.revealed),
        "terrain": {label(h): k for h, k in sorted(terrain_now(state).items())},
        "doors": {
            "open": sorted(label(h) for h in state.open_doors),
            "closed": sorted(label(h) for h in visible_doors(state)),
        },
        "thin_walls": sorted(
            sorted(label(h) for h in pair)
            for pair in scen.thin_walls
            if all(h in shown for h in pair)
        ),
        "heroes": heroes,
        "monsters": monsters,
        "order": [[a, initiative(state, a)] for a in state.order] if picks_public else [],
        "current": current,
        "tie": copy.deepcopy(state.pending),
        "tie_labels": [outcome_labels(_from_json_outcome(o)) for o in state.pending["options"]]
        if state.pending
        else [],
        "last": copy.deepcopy(state.last),
        "outcome": state.outcome,
    }
    if seat is not None and seat in state.heroes:
        hero = state.heroes[seat]
        cards = content.classes()[hero.cls].cards
        out["you"] = {
            "seat": seat,
            "hand": [c.to_json() for c in cards if c.id in hero.hand],
            "discard": list(hero.discard),
            "lost": list(hero.lost),
            "picked": hero.card,
        }
        if state.phase == "act" and state.current() == seat:
            out["you"]["reach"] = hints(state, seat)
    return out


def _extent(scen: Scenario) -> dict[str, int]:
    offsets = [to_offset(h) for h in scen.all_hexes]
    return {
        "cols": max(c for c, _ in offsets) + 1,
        "rows": max(r for _, r in offsets) + 1,
    }


def _from_json_outcome(raw: Mapping[str, Any]) -> Outcome:
    return Outcome(
        (int(raw["move_to"][0]), int(raw["move_to"][1])),
        tuple((int(a), int(b)) for a, b in raw["attacks"]),
    )


def hints(state: DungeonState, seat: str) -> dict[str, Any]:
    """For the acting character: where it can end its move, and whom it can attack from where it
    stands (the DM lists them; the demo's players choose from them)."""
    hero = state.heroes[seat]
    card = card_of(state, hero)
    if card is None or hero.hex is None:
        return {"moves": [], "targets": []}
    reach = paths(ground(state), hero_mover(state, hero, card), card.move) if card.move else {}
    return {
        "moves": [label(h) for h in content.sort_hexes(list(reach))],
        "targets": [label(m.hex) for m in attackable(state, hero, card, hero.hex)],
    }


def attackable(state: DungeonState, hero: Hero, card: Card, source: Hex) -> list[Monster]:
    if card.attack <= 0:
        return []
    return [m for m in state.living_monsters() if in_range(state, source, m.hex, card.range)]


def summary(state: DungeonState) -> dict[str, Any]:
    """The digest's replay summary."""
    figures = [
        {"id": s, "side": "character", "hex": list(h.hex), "hp": h.hp}
        for s, h in state.heroes.items()
        if h.in_play and h.hex is not None
    ] + [
        {"id": m.id, "side": "monster", "hex": list(m.hex), "hp": m.hp}
        for m in state.living_monsters()
    ]
    return {
        "round": state.round,
        "figures": figures,
        "doors": {"open": [list(h) for h in state.open_doors]},
    }


# --- storage -------------------------------------------------------------------------------------


def to_json(state: DungeonState) -> dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "game_id": state.game_id,
        "options": state.options,
        "seats": list(state.seats),
        "phase": state.phase,
        "round": state.round,
        "step_no": state.step_no,
        "resolved": state.resolved,
        "heroes": [
            {
                "seat": h.seat,
                "class": h.cls,
                "hex": list(h.hex) if h.hex else None,
                "hp": h.hp,
                "max_hp": h.max_hp,
                "hand": list(h.hand),
                "discard": list(h.discard),
                "lost": list(h.lost),
                "card": h.card,
                "status": h.status,
                "kills": h.kills,
                "log": copy.deepcopy(h.log),
            }
            for h in state.heroes.values()
        ],
        "monsters": [
            {
                "id": m.id,
                "type": m.type,
                "number": m.number,
                "hex": list(m.hex),
                "hp": m.hp,
                "max_hp": m.max_hp,
                "alive": m.alive,
            }
            for m in state.monsters
        ],
        "revealed": list(state.revealed),
        "open_doors": [list(h) for h in state.open_doors],
        "sprung": [list(h) for h in state.sprung],
        "used_cards": {k: list(v) for k, v in state.used_cards.items()},
        "round_cards": dict(state.round_cards),
        "order": list(state.order),
        "position": state.position,
        "pending": copy.deepcopy(state.pending),
        "last": copy.deepcopy(state.last),
        "outcome": state.outcome,
    }


def _hex(value: Any) -> Hex:
    return (int(value[0]), int(value[1]))


def from_json(obj: Mapping[str, Any]) -> DungeonState:
    try:
        if obj.get("schema") != SCHEMA_VERSION:
            raise StateError("dungeon.error.schema", found=obj.get("schema"))
        state = DungeonState(
            game_id=str(obj["game_id"]),
            options=dict(obj["options"]),
            seats=[str(s) for s in obj["seats"]],
            phase=str(obj["phase"]),
            round=int(obj["round"]),
            step_no=int(obj["step_no"]),
            resolved=int(obj["resolved"]),
            revealed=[str(r) for r in obj["revealed"]],
            open_doors=[_hex(h) for h in obj["open_doors"]],
            sprung=[_hex(h) for h in obj["sprung"]],
            used_cards={str(k): [str(c) for c in v] for k, v in obj["used_cards"].items()},
            round_cards={str(k): str(v) for k, v in obj["round_cards"].items()},
            order=[str(a) for a in obj["order"]],
            position=int(obj["position"]),
            pending=copy.deepcopy(obj.get("pending")),
            last=[dict(x) for x in copy.deepcopy(obj.get("last", []))],
            outcome=obj.get("outcome"),
        )
        for h in obj["heroes"]:
            state.heroes[str(h["seat"])] = Hero(
                seat=str(h["seat"]),
                cls=str(h["class"]),
                hex=_hex(h["hex"]) if h.get("hex") else None,
                hp=int(h["hp"]),
                max_hp=int(h["max_hp"]),
                hand=[str(c) for c in h["hand"]],
                discard=[str(c) for c in h["discard"]],
                lost=[str(c) for c in h["lost"]],
                card=h.get("card"),
                status=str(h["status"]),
                kills=int(h.get("kills", 0)),
                # a game stored before the log began has none
                log=[list(x) for x in h.get("log") or []],
            )
        for m in obj["monsters"]:
            state.monsters.append(
                Monster(
                    id=str(m["id"]),
                    type=str(m["type"]),
                    number=int(m["number"]),
                    hex=_hex(m["hex"]),
                    hp=int(m["hp"]),
                    max_hp=int(m["max_hp"]),
                    alive=bool(m["alive"]),
                )
            )
        if state.phase not in ("pick", "act", "tie", "over"):
            raise StateError("dungeon.error.phase", phase=state.phase)
        return state
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise StateError("dungeon.error.state", detail=str(exc)) from exc


# The engine's face: the functions the spec names, and what the demo party, the cog and the tests
# read through ``rules`` (defined in the modules below it: :mod:`.state`, :mod:`.orders`,
# :mod:`.resolution`).
__all__ = [
    "DEFAULT_CLASSES",
    "DEFAULT_SCENARIO",
    "MONSTERS",
    "NAME",
    "PARTY",
    "SCHEMA_VERSION",
    "SEATS",
    "DungeonState",
    "Hero",
    "Monster",
    "OptionError",
    "Order",
    "ai_map",
    "attackable",
    "awaiting",
    "card_of",
    "check_options",
    "choices",
    "default_order",
    "from_json",
    "ground",
    "hero_mover",
    "hints",
    "initiative",
    "monster_card",
    "monster_path",
    "new_game",
    "order_key",
    "outcome",
    "parse",
    "parse_party",
    "resign",
    "resolve",
    "revealed_hexes",
    "situation",
    "start_step",
    "step_label",
    "step_number",
    "summary",
    "terrain_now",
    "to_json",
    "view",
    "visible_doors",
]
