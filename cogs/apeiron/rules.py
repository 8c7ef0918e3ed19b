"""Apeiron (``../shared/rules/apeiron.md``): the pure rules engine the spec names.

Steps (each one framework turn): ``deck`` (both seats), ``deploy`` (both seats, withheld), then
one ``play`` step per activation (the active seat only), and within an activation the drawer's
follow-up steps: ``place`` (a drawn item: own zone, the opponent's, or discard), ``option`` (an
event's choice, one piece at a time) and ``move`` (a draw made the order's move illegal).

The rules: the secret field, decks and chest orders from the secret stream, deployment, the
first-player dice, alternating activations with the marker, movement (terrain, flying, poison,
bombs, stop squares, arrow and gravity panels), attacks (contact, back attacks, ranged lines,
lawless panels and their strike back), the effect catalogue (:mod:`.effects`: damage, heal, push,
pull, place, remove, stat, panel rotate/move/change/remove, summon) behind ★ abilities with
costs, start/end-of-activation abilities, passives, items, events and special units; treasure
and Apeiron chance draws, side zones, graves, the extra-turn count, annihilation, the turn limit
and the moderator's ruling.

This module holds the engine's functions (:class:`bot.ruleset.Engine`): the options and a new
game, the step lifecycle (``start_step``, ``resolve`` and its step handlers), ``parse``, the
default order and the buttons, resigning and the ruling, the views and storage. The rest is cut
at its seams, each module importing only those before it: :mod:`.state` (the types, constants,
refusal keys and small reads), :mod:`.orders` (the order types and the grammar), :mod:`.targets`
(what an attack or an effect may aim at), :mod:`.effects` (what happens) and :mod:`.legality`
(what a seat may order, the checks at submission). The bot, the demo AI, the builder and the
tests read what they need of them here (``__all__``).

Pure: no discord, no storage, no clock; randomness only from the dice it is handed.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import packs
from bot.dice import NO_SECRET, Dice, shuffle
from bot.render.squaregrid import label
from bot.ruleset import (
    INPUTS_REVEALED,
    Choice,
    ChoiceGroup,
    Event,
    OrderRejected,
    Outcome,
    RuleError,
    StateError,
    closed_step,
)
from cogs.apeiron import field as fld
from cogs.apeiron import labels, league
from cogs.apeiron import pack as packlib
from cogs.apeiron.effects import (
    annihilation,
    do_action,
    end_activation,
    extra_count,
    finish,
    flying_at_end,
    open_activation,
    option_list,
    resolve_option,
    resolve_place,
    tie_break,
    walk_path,
)
from cogs.apeiron.field import Slot, Square
from cogs.apeiron.legality import (
    action_candidates,
    action_texts,
    boxed_in,
    check_option,
    check_play,
    move_legal,
    reachable,
)
from cogs.apeiron.orders import (
    DeckOrder,
    DeployOrder,
    OptionOrder,
    Order,
    Placement,
    PlaceOrder,
    PlayOrder,
    drop_unit,
    normalized,
    parse_deck,
    parse_deploy,
    parse_option,
    parse_place,
    parse_play,
    reads_as,
)
from cogs.apeiron.pack import Pack
from cogs.apeiron.state import (
    DECK,
    DEPLOY,
    DEPLOY_STEP,
    FACING_OF,
    MID_STEPS,
    MOVE,
    OBJECT_CAP,
    OPTION,
    OVER,
    PLACE,
    PLAY,
    R_ARGS,
    R_ARROW,
    R_BLOCKED,
    R_CHANCE_USED,
    R_CHEST_EMPTY,
    R_DEPLOY_SQUARE,
    R_EMPTY,
    R_FINISHED,
    R_LINE,
    R_MOVE_ONLY,
    R_NO_ABILITY,
    R_NO_TREASURE,
    R_NOT_BOXED,
    R_NOT_YOURS,
    R_NOTHING,
    R_OPTION,
    R_OUT_OF_RANGE,
    R_PICK,
    R_STEP,
    R_STOP,
    R_SYNTAX,
    R_TARGET,
    R_TOO_FAR,
    R_WHEN,
    R_ZONE,
    SEATS,
    TREASURE_CAP,
    ApeironState,
    Grave,
    UnitState,
    acting_unit,
    flying,
    living,
    move_points,
    off_field,
    other,
    poisoned,
    power,
    read_square,
    unit_at,
    unit_card,
    zone_open,
)
from cogs.apeiron.targets import placed_count

NAME = "apeiron"
SCHEMA_VERSION = 1
DEFAULT_MINUTES = 10
# ``collections`` (a league match: each seat's cards, its deck drawn from them; .league) and
# ``league`` (the league's id, which changes nothing in play).
OPTION_KEYS = (
    "pack",
    "pack_hash",
    "field",
    "events",
    "turn_limit",
    "minutes",
    "collections",
    "league",
)
E_OPTION = "apeiron.option.invalid"


# --- options and a new game ----------------------------------------------------------------------


def _pack_of(options: Mapping[str, Any]) -> Pack:
    return packs.from_options(options, packlib.starter, packlib.from_json, E_OPTION)


def check_options(options: Mapping[str, Any]) -> None:
    for key in options:
        if key not in OPTION_KEYS:
            raise RuleError(E_OPTION, option=str(key)[:32], value="")
    pack = _pack_of(options)
    if "field" in options:
        fld.from_option(pack, options["field"])
    events = options.get("events", [])
    if not isinstance(events, list) or not all(e in packlib.EVENT_KINDS for e in events):
        raise RuleError(E_OPTION, option="events", value=str(events)[:40])
    for kind in events:
        if pack.event_panel(kind) is None:
            raise RuleError(fld.E_EVENTS, kind=kind)
    raw = options.get("collections")
    if raw is not None:
        if not isinstance(raw, Mapping) or not set(raw) <= set(SEATS):
            raise RuleError(league.E_COLLECTION)
        for held in raw.values():
            league.check_collection(pack, league.Collection.from_json(held))
    for key, low in (("turn_limit", 1), ("minutes", 1)):
        value = options.get(key)
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < low
        ):
            raise RuleError(E_OPTION, option=key, value=str(value)[:16])


def new_game(
    game_id: str,
    seats: Sequence[str],
    options: Mapping[str, Any],
    dice: Dice,
    secret: Dice,
) -> ApeironState:
    """The field from the secret stream (or the option ``field``); the deck step comes first."""
    if tuple(seats) != SEATS:
        raise RuleError("apeiron.error.seats", seats=list(seats))
    options = dict(options or {})
    check_options(options)
    pack = _pack_of(options)
    if "field" in options:
        layout = fld.from_option(pack, options["field"])
    else:
        layout = fld.shuffled(pack, secret, options.get("events", []))
    state = ApeironState(str(game_id), pack, options, layout)
    state.objects = fld.initial_objects(pack, layout)
    return state


# --- the framework's calls -----------------------------------------------------------------------


def step_number(state: ApeironState) -> int:
    return state.steps


def step_label(state: ApeironState) -> str:
    if state.step in (DECK, DEPLOY_STEP, OVER):
        return state.step
    if state.step in MID_STEPS:
        return f"turn {state.turn} {state.active} {state.step}"
    return f"turn {state.turn} {state.active}"


def awaiting(state: ApeironState) -> list[str]:
    if not state.open or state.ended is not None:
        return []
    if state.step in (DECK, DEPLOY_STEP):
        return list(SEATS)
    return [state.active] if state.active else []


def withheld(state: ApeironState, seat: str) -> bool:
    """Deployments stay private until both are in; the chest half of a deck until the end.
    The table withholds a whole order, so the deck order stays withheld and its unit list is
    made public by the ``decks`` event."""
    return state.step in (DECK, DEPLOY_STEP)


def step_seconds(state: ApeironState) -> int | None:
    minutes = state.options.get("minutes", DEFAULT_MINUTES)
    return int(minutes) * 60


def start_step(
    state: ApeironState, dice: Dice, secret: Dice = NO_SECRET
) -> tuple[ApeironState, list[Event]]:
    if state.ended is not None:
        raise RuleError("apeiron.error.finished")
    if state.open:
        raise RuleError("apeiron.error.step_open", step=state.step)
    state = copy.deepcopy(state)
    state.steps += 1
    state.open = True
    events: list[Event] = []
    if state.step == DECK:
        return state, _named(state, events)
    if state.step == DEPLOY_STEP:
        for seat, positions in fld.ROWS.items():
            events.append(Event("own_row", {"panels": _panels(state, positions)}, to=(seat,)))
        return state, _named(state, events)
    if state.step in MID_STEPS:
        return state, _named(
            state, events
        )  # the activation's follow-up step: the same seat answers
    if state.ahead:
        state.ahead = False  # opened by the resolve that ended the last activation
    else:
        events += open_activation(state)
    return state, _named(state, events)


# Events name units and cards by id; the presenter words them in the reader's language with the
# names of the game's own pack (a server's pack, embedded in the state), so each event carries the
# names of the ids it mentions (all public once the event is: a drawn card, a deck's units).
_NAMED = ("unit", "victim", "card", "replaced")
_NAMED_LISTS = ("cards", "units", "A", "B")


def card_name(pack: Pack, card_id: str) -> dict[str, str] | None:
    """A unit's, chest card's or special unit's name in both languages (None: not in the pack)."""
    card: Any = pack.units.get(card_id) or pack.chest.get(card_id) or pack.specials.get(card_id)
    return None if card is None else {"en": card.name_en, "ja": card.name_ja}


def _named(state: ApeironState, events: list[Event]) -> list[Event]:
    out = []
    for event in events:
        ids = {v for k in _NAMED if isinstance(v := event.data.get(k), str)}
        for key in _NAMED_LISTS:
            for item in event.data.get(key) or ():
                if isinstance(item, str):
                    ids.add(item)
                elif isinstance(item, Mapping) and isinstance(item.get("unit"), str):
                    ids.add(item["unit"])
        names = {i: n for i in sorted(ids) if (n := card_name(state.pack, i)) is not None}
        out.append(Event(event.type, {**event.data, "names": names}, event.to) if names else event)
    return out


def _panels(state: ApeironState, positions: Sequence[int]) -> list[dict[str, Any]]:
    out = []
    for pos in positions:
        slot = state.field[pos]
        entry: dict[str, Any] = {"pos": pos, **(slot.to_json() if slot else {"panel": "off"})}
        if slot is not None:
            entry["cells"] = panel_cells(state, slot)
        out.append(entry)
    return out


def panel_cells(state: ApeironState, slot: Slot) -> list[str]:
    """The panel's three rows of layout characters as it lies now (the boards draw them: a
    private board has no objects yet, and arrows are no objects). A changed panel keeps no
    arrows: its kind, not its card, says what it is."""
    cells = fld.layout_at(state.pack, slot)
    rows = ["".join(cells[(x, y)] for x in range(3)) for y in range(3)]
    if slot.kind != "arrow":
        rows = [re.sub(r"[\^><v]", ".", row) for row in rows]
    return rows


# --- orders: read and checked, by default, on the buttons ----------------------------------------


def parse(state: ApeironState, seat: str, text: str) -> Order:
    """The text read by the grammar (:mod:`.orders`), then checked on the board
    (:mod:`.legality`)."""
    if state.ended is not None:
        raise OrderRejected(R_FINISHED)
    if seat not in awaiting(state):
        raise OrderRejected(R_NOT_YOURS)
    word = normalized(text)
    if not word:
        raise OrderRejected(R_EMPTY)
    if state.step == DECK:
        deck = parse_deck(state, seat, word)
        held = collection(state, seat)
        if held is not None:
            league.check_deck(held, deck.units, deck.chest)
        return deck
    if state.step == DEPLOY_STEP:
        return parse_deploy(state, seat, word)
    if state.step == PLACE:
        return parse_place(state, seat, word)
    if state.step == OPTION:
        return check_option(state, parse_option(word))
    raw = parse_play(drop_unit(state, word))
    if state.step == MOVE and raw.action is not None:
        raise OrderRejected(R_MOVE_ONLY)
    return check_play(state, seat, raw)


def default_order(state: ApeironState, seat: str) -> Order:
    if state.step == DECK:
        return DeckOrder(*deck_offers(state, seat)[0])
    if state.step == DEPLOY_STEP:
        deck = state.decks[seat]["units"]
        free = [s for s in own_squares_reading(seat) if state.objects.get(s) != "obstacle"]
        return DeployOrder(
            tuple(
                Placement(u, s, FACING_OF[seat]) for u, s in zip(deck[:DEPLOY], free, strict=False)
            )
        )
    if state.step == PLACE:
        return PlaceOrder("own" if state.side[seat] is None else "discard")
    if state.step == OPTION:
        return OptionOrder(1)
    unit = acting_unit(state)
    assert unit.square is not None
    if boxed_in(state, unit):
        return PlayOrder((), None)
    options = reachable(state, unit)
    steps = [s for _, s in fld.neighbours(unit.square) if s in options and options[s] == (s,)]
    clean = [
        s for s in steps if not poisoned(state, s) and state.objects.get(s) not in ("bomb", "stop")
    ]
    step = (clean or steps or [min(options, key=lambda s: (len(options[s]), s[1], s[0]))])[0]
    return PlayOrder(options[step], None)


def collection(state: ApeironState, seat: str) -> league.Collection | None:
    """A league match seat's collection (its deck is drawn from it); None outside a league."""
    raw = (state.options.get("collections") or {}).get(seat)
    return None if raw is None else league.Collection.from_json(raw)


def deck_offers(state: ApeironState, seat: str) -> list[league.Deck]:
    """The decks the deck step offers ``seat`` (the first is its deadline default): the pack's
    presets, or in a league match the collection's default deck and the presets it holds."""
    held = collection(state, seat)
    if held is None:
        return [(p.units, p.chest) for p in state.pack.presets]
    return league.deck_offers(state.pack, held)


def own_squares_reading(seat: str) -> list[Square]:
    rows = range(0, 3) if seat == "A" else range(6, 9)
    return [(x, y) for y in rows for x in range(fld.SIZE)]


MAX_CHOICES = 25  # a message's buttons


def choices(state: ApeironState, seat: str) -> list[ChoiceGroup]:
    """The DM's buttons. The table sends one token per group, joined by spaces, so every mix of
    enabled tokens must be an order: in an activation the groups are the unit, the path to each
    reachable square (the path the engine walks), the facing, then the actions legal after
    every one of those paths (the others are typed: they depend on where the unit ends)."""
    if seat not in awaiting(state):
        return []
    if state.step == DECK:
        return [
            ChoiceGroup(
                "deck",
                "apeiron.group.deck",
                [
                    Choice(
                        DeckOrder(*deck).canonical(),
                        "apeiron.choice.preset_named",
                        params={"n": i + 1, "units": _listed(state, deck[0])},
                    )
                    for i, deck in enumerate(deck_offers(state, seat)[:PRESET_BUTTONS])
                ],
            )
        ]
    if state.step == DEPLOY_STEP:
        order = default_order(state, seat)
        return [
            ChoiceGroup(
                "deploy",
                "apeiron.group.deploy",
                [Choice(order.canonical(), "apeiron.choice.deploy_default")],
            )
        ]
    if state.step == PLACE:
        open_zone = zone_open(state, seat, other(seat))
        return [
            ChoiceGroup(
                "place",
                "apeiron.group.place",
                [
                    Choice("place own", "apeiron.choice.place_own"),
                    Choice(
                        "place opponent",
                        "apeiron.choice.place_opponent",
                        open_zone,
                        None if open_zone else R_ZONE,
                    ),
                    Choice("discard", "apeiron.choice.discard"),
                ],
            )
        ]
    if state.step == OPTION:
        listed = option_list(state)[:MAX_CHOICES]
        return [
            ChoiceGroup(
                "option",
                "apeiron.group.option",
                [_option_choice(state, n, token) for n, token in enumerate(listed, 1)],
            )
        ]
    unit = acting_unit(state)
    assert unit.square is not None
    paths = _button_paths(state, unit)
    groups = [
        ChoiceGroup(
            "unit",
            "apeiron.group.unit",
            [
                Choice(
                    unit.id,
                    "apeiron.choice.acting",
                    params={
                        "unit": _name(state, unit.id),
                        "label": f"{unit.seat}{unit.order}",
                        "square": label(unit.square),
                    },
                )
            ],
        ),
        ChoiceGroup(
            "move",
            "apeiron.group.move",
            [
                Choice(text, "apeiron.choice.stay")
                if text == "stay"
                else Choice(text, "apeiron.choice.path", params={"path": text.replace(">", "→")})
                for text, _ in paths
            ],
        ),
    ]
    ends = [unit.square if text == "stay" else read_square(end) for text, end in paths]
    arrows = {fld.arrow(state.pack, state.field, end) for end in ends} - {None}
    facings = [Choice("keep", "apeiron.choice.keep")]
    for facing in fld.FACINGS:
        ok = arrows <= {facing}
        facings.append(
            Choice(facing, f"apeiron.choice.facing.{facing}", ok, None if ok else R_ARROW)
        )
    groups.append(ChoiceGroup("facing", "apeiron.group.facing", facings))
    if state.step == PLAY:
        actions = [Choice("none", "apeiron.choice.none")]
        for text in action_candidates(state, seat, unit, ends):
            if all(_parses(state, seat, f"{move} keep {text}") for move, _ in paths):
                actions.append(action_choice(state, seat, unit, text))
            if len(actions) == MAX_CHOICES:
                break
        groups.append(ChoiceGroup("action", "apeiron.group.action", actions))
    return groups


PRESET_BUTTONS = 9


def _name(state: ApeironState, card_id: str) -> dict[str, str]:
    """A card's name in both languages (its id when the pack does not name it)."""
    return card_name(state.pack, card_id) or {lang: card_id for lang in labels.LANGS}


def _listed(state: ApeironState, card_ids: Sequence[str]) -> dict[str, str]:
    """Cards' names joined, per language (a preset button's units, cut to fit its label)."""
    sep = {"en": ", ", "ja": "、"}
    return {
        lang: labels.clipped(sep[lang].join(_name(state, c)[lang] for c in card_ids), 64)
        for lang in labels.LANGS
    }


def _targets(state: ApeironState, tokens: Sequence[str]) -> dict[str, str]:
    """`` → D6 Archer``: an action's targets with the units on their squares named, per
    language (nothing when it takes none)."""
    if not tokens:
        return {lang: "" for lang in labels.LANGS}

    def who(lang: str) -> Callable[[str], str | None]:
        def name(token: str) -> str | None:
            square = fld.parse_square(token)
            unit = unit_at(state, square) if square is not None else None
            return _name(state, unit.id)[lang] if unit is not None else None

        return name

    return {
        lang: labels.clipped(" → " + labels.targets(tokens, lang, who(lang)), 48)
        for lang in labels.LANGS
    }


def action_choice(state: ApeironState, seat: str, unit: UnitState, text: str) -> Choice:
    """An action's button, named: the attack's square and target, the ★ ability's name (from
    the card's text) with its targets and H cost, the item's name; treasure and chance as
    they are."""
    words = text.split()
    kind = words[0]
    if kind == "attack" and len(words) > 1:
        square = fld.parse_square(words[1])
        victim = unit_at(state, square) if square is not None else None
        target = _name(state, victim.id) if victim is not None else {"en": "?", "ja": "?"}
        return Choice(
            text, "apeiron.choice.attack_at", params={"square": words[1], "target": target}
        )
    if kind == "ability":
        index, args = 1, words[1:]
        if args and args[0].isdigit():
            index, args = int(args[0]), args[1:]
        card = unit_card(state, unit)
        stars = [a for a in card.abilities if a.timing == "star"]
        ability = stars[index - 1] if 0 < index <= len(stars) else None
        names = {
            "en": (labels.star_names(card.text_en)[index - 1 : index] or [card.name_en])[0],
            "ja": (labels.star_names(card.text_ja)[index - 1 : index] or [card.name_ja])[0],
        }
        cost = ability.cost if ability is not None else 0
        key = "apeiron.choice.ability_cost" if cost else "apeiron.choice.ability_named"
        params: dict[str, Any] = {"ability": names, "args": _targets(state, args), "cost": cost}
        return Choice(text, key, params=params)
    if kind == "item":
        zone = state.side.get(seat)
        card_id = zone["card"] if zone else ""
        return Choice(
            text,
            "apeiron.choice.item_named",
            params={"card": _name(state, card_id), "args": _targets(state, words[1:])},
        )
    return Choice(text, f"apeiron.choice.{kind}")


def _option_choice(state: ApeironState, n: int, token: str) -> Choice:
    """An event's choice, numbered as ``option N`` answers it and named: its square (and the
    unit there), panel or word; a card's own numbered options keep their number."""
    if token.isdigit():
        return Choice(f"option {n}", f"apeiron.choice.n.{n}")
    shown = _targets(state, [token])
    choice = {lang: shown[lang].removeprefix(" → ") for lang in shown}
    return Choice(f"option {n}", "apeiron.choice.option_named", params={"n": n, "choice": choice})


def _button_paths(state: ApeironState, unit: UnitState) -> list[tuple[str, str]]:
    """(path text, destination) for the move buttons, nearest first (at most 25)."""
    if boxed_in(state, unit):
        return [("stay", "stay")]
    options = reachable(state, unit)
    ends = sorted(options, key=lambda s: (len(options[s]), s[1], s[0]))[:MAX_CHOICES]
    return [(">".join(label(s) for s in options[end]), label(end)) for end in ends]


def _parses(state: ApeironState, seat: str, text: str) -> bool:
    try:
        parse(state, seat, text)
    except RuleError:
        return False
    return True


# --- resolution ----------------------------------------------------------------------------------


def resolve(
    state: ApeironState, orders: Mapping[str, Any], dice: Dice, secret: Dice = NO_SECRET
) -> tuple[ApeironState, list[Event]]:
    state, prepared = closed_step(
        state,
        orders,
        ended=state.ended is not None,
        refusals=("apeiron.error.finished", "apeiron.error.step_not_open"),
        awaiting=awaiting,
        parse=parse,
        default=default_order,
    )
    events: list[Event] = []
    if state.step == DECK:
        _resolve_deck(state, prepared, secret, events)
    elif state.step == DEPLOY_STEP:
        _resolve_deploy(state, prepared, dice, events)
    else:
        active = state.active
        assert active is not None
        order = prepared[active]
        if state.step == PLACE and isinstance(order, PlaceOrder):
            resolve_place(state, order, events)
            state.step = PLAY
            _continue(state, active, events)
        elif state.step == OPTION and isinstance(order, OptionOrder):
            resolve_option(state, order, events)
            state.step = PLAY if state.pick is None else state.step
            _continue(state, active, events)
        elif state.step == MOVE and isinstance(order, PlayOrder) and order.action is None:
            order = check_play(state, active, order)
            state.step, state.pending_move = PLAY, None
            unit = acting_unit(state)
            walk_path(state, unit, order.path, order.facing, events)
            _continue(state, active, events)
        elif state.step == PLAY and isinstance(order, PlayOrder):
            state.trail = {"seat": active, "moves": [], "attacks": []}
            _resolve_play(state, active, check_play(state, active, order), events)
        else:
            raise RuleError("apeiron.error.order_type")
    # The next activation opens here, not in the next ``start_step``: its opening (graves, a
    # special unit at the round's start, start abilities) may end the game, and a game ends in
    # the step whose record replays it (a record's last step is a resolved one). It draws no
    # dice, so nothing but the events' place changes.
    if state.ended is None and state.step == PLAY:
        events += open_activation(state)
        state.ahead = True
    return state, _named(state, events)


def _resolve_deck(
    state: ApeironState, orders: Mapping[str, Any], secret: Dice, events: list[Event]
) -> None:
    for seat in SEATS:
        order = orders[seat]
        state.decks[seat] = {"units": list(order.units), "chest": list(order.chest)}
    events.append(Event("decks", {s: list(state.decks[s]["units"]) for s in SEATS}))
    for seat in SEATS:
        chest = list(state.decks[seat]["chest"])
        shuffle(secret, chest)
        state.chest[seat] = chest
        events.append(Event("chest_list", {"cards": list(state.decks[seat]["chest"])}, to=(seat,)))
    state.step = DEPLOY_STEP


def _resolve_deploy(
    state: ApeironState, orders: Mapping[str, Any], dice: Dice, events: list[Event]
) -> None:
    for seat in SEATS:
        order = orders[seat]
        state.units[seat] = [
            UnitState(p.unit, seat, i + 1, p.square, p.facing, state.pack.units[p.unit].hp)
            for i, p in enumerate(order.placements)
        ]
        events.append(
            Event(
                "deployed",
                {
                    "seat": seat,
                    "units": [
                        {"unit": p.unit, "square": label(p.square), "facing": p.facing}
                        for p in order.placements
                    ],
                },
            )
        )
    state.revealed = True
    # the deployments are public now (the deck orders stay withheld: they name the chests)
    events.append(Event(INPUTS_REVEALED, {"steps": [state.steps]}))
    events.append(Event("field_revealed", {"panels": _panels(state, fld.POSITIONS)}))
    rolls: dict[str, list[int]] = {"A": [], "B": []}
    while True:
        a, b = dice.roll(6), dice.roll(6)
        rolls["A"].append(a)
        rolls["B"].append(b)
        if a != b:
            break
    state.first = "A" if a > b else "B"
    events.append(Event("first", {"dice": rolls, "seat": state.first}))
    state.step = PLAY
    state.half = 0


def _resolve_play(state: ApeironState, seat: str, order: PlayOrder, events: list[Event]) -> None:
    unit = acting_unit(state)
    if order.action_first and order.action is not None:
        state.pending_move = {"path": [label(s) for s in order.path], "facing": order.facing}
        do_action(state, seat, unit, order.action, events)
    else:
        walk_path(state, unit, order.path, order.facing, events)
        if order.action is not None and unit.alive and not annihilation(state, events):
            do_action(state, seat, unit, order.action, events)
    _continue(state, seat, events)


def _continue(state: ApeironState, seat: str, events: list[Event]) -> None:
    """After an action or a follow-up step: the next follow-up step, the action-first order's
    move (or a ``move`` step if the board changed under it), then the activation's end."""
    if state.ended is not None:
        return
    if annihilation(state, events):
        state.pick = state.pending_move = None
        return
    if state.pick is not None:
        return  # a place or option step is open
    pending = state.pending_move
    unit = acting_unit(state)
    if pending is not None:
        state.pending_move = None
        if unit.alive:
            path = tuple(read_square(s) for s in pending["path"])
            if move_legal(state, unit, path):
                walk_path(state, unit, path, pending["facing"], events)
            else:
                state.pending_move = pending
                state.step = MOVE
                events.append(Event("move_again", {"seat": seat, "unit": unit.id}))
                return
    end_activation(state, seat, events)


def adjudicate(state: ApeironState) -> tuple[ApeironState, list[Event]]:
    if state.ended is not None:
        raise RuleError("apeiron.error.finished")
    state = copy.deepcopy(state)
    events: list[Event] = []
    tie_break(state, "adjudicated", events)
    return state, _named(state, events)


def resign(state: ApeironState, seat: str) -> tuple[ApeironState, list[Event]]:
    if state.ended is not None:
        raise OrderRejected(R_FINISHED)
    state = copy.deepcopy(state)
    events = [Event("resigned", {"seat": seat})]
    finish(state, other(seat), "resign", events)
    return state, _named(state, events)


def outcome(state: ApeironState) -> Outcome:
    if state.ended is None or state.winner is None:
        return Outcome.ongoing()
    return Outcome.win(state.winner, reason=state.ended)


# --- views, summary, storage ---------------------------------------------------------------------


def _unit_view(unit: UnitState) -> dict[str, Any]:
    return {
        "id": unit.id,
        "square": None if unit.square is None else label(unit.square),
        "facing": unit.facing,
        "hp": unit.hp,
        "order": unit.order,
    }


def summary(state: ApeironState) -> dict[str, Any]:
    objects: list[dict[str, Any]] = [
        {"kind": k, "square": label(s)}
        for s, k in sorted(state.objects.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]
    objects += [
        {"kind": "grave", "square": label(s), "unit": g.unit, "returns": g.returns}
        for s, g in sorted(state.graves.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]
    panels: list[dict[str, Any] | str | None] = []
    for pos in fld.POSITIONS:
        slot = state.field[pos]
        if not decks_chosen(state) or (not state.revealed and pos not in fld.MIDDLE):
            panels.append(None)
        elif slot is None:
            panels.append("off")
        else:
            panels.append({"pos": pos, "panel": slot.panel, "kind": slot.kind, "rot": slot.rot})
    return {
        "step": state.step,
        "turn": state.turn,
        "first": state.first,
        "active": state.active,
        "marker": dict(state.marker),
        "units": {s: [_unit_view(u) for u in state.units.get(s, [])] for s in SEATS},
        "objects": objects if state.revealed else [],
        "panels": panels,
        "side": {s: (dict(z) if z else None) for s, z in state.side.items()},
        "chest_left": {s: len(state.chest.get(s, [])) for s in SEATS},
        "chance_used": dict(state.chance_used),
        "extra_turn": {s: extra_count(state, s) for s in SEATS},
    }


def decks_chosen(state: ApeironState) -> bool:
    """Whether the deck step is over: no panel is seen before it (Setup, step 1 before step 2),
    so a deck is chosen without knowing the field, and a game resigned in it never shows one."""
    return all(seat in state.decks for seat in SEATS)


def _public_cards(state: ApeironState) -> dict[str, dict[str, Any]]:
    """Names and printed stats of the cards everyone may see: both decks' units (public from
    the deck step), and the cards in side zones or being placed (drawn cards are public)."""
    ids = [u for d in state.decks.values() for u in d["units"]]
    ids += [z["card"] for z in state.side.values() if z]
    if state.pick is not None and isinstance(state.pick.get("card"), str):
        ids.append(state.pick["card"])
    cards: dict[str, dict[str, Any]] = {}
    for card_id in ids:
        name = card_name(state.pack, card_id)
        if name is None or card_id in cards:
            continue
        entry: dict[str, Any] = {"name": name}
        unit = state.pack.units.get(card_id)
        if unit is not None:
            entry.update(
                hp=unit.hp, power=unit.power, move=unit.move, range=unit.range, flying=unit.flying
            )
            # its printed text, public pack data: a seat's 📋 sheet says what its ★ abilities do
            entry["text"] = {"en": unit.text_en, "ja": unit.text_ja}
        else:
            card: Any = state.pack.chest.get(card_id) or state.pack.specials.get(card_id)
            entry["kind"] = getattr(card, "kind", "special")
            entry["text"] = {"en": card.text_en, "ja": card.text_ja}
        cards[card_id] = entry
    return cards


def view(state: ApeironState, seat: str | None) -> dict[str, Any]:
    out = summary(state)
    out["decks"] = {s: list(d["units"]) for s, d in state.decks.items()}
    out["cards"] = _public_cards(state)
    for entry in out["panels"]:
        if isinstance(entry, dict) and (slot := state.field[entry["pos"]]) is not None:
            entry["cells"] = panel_cells(state, slot)
    if state.step == DECK:  # the pack's preset decks are public pack data
        out["presets"] = [
            {"id": p.id, "units": list(p.units), "chest": list(p.chest)}
            for p in state.pack.presets[:PRESET_BUTTONS]
        ]
        # and a league seat's collection is public (the league's rosters are)
        offered: list[tuple[str, ...]] = [
            (*p.units, *p.chest) for p in state.pack.presets[:PRESET_BUTTONS]
        ]
        for raw in (state.options.get("collections") or {}).values():
            held = league.Collection.from_json(raw)
            offered.append((*held.units, *held.chest))
        for cards in offered:
            for card_id in cards:
                name = card_name(state.pack, card_id)
                if name is not None:
                    out["cards"].setdefault(card_id, {"name": name})
    if state.pick is not None:
        # a drawn card is public, and so is the list of legal choices it offers
        out["pick"] = {**copy.deepcopy(state.pick), "options": option_list(state)}
    if state.pending_move is not None:
        out["pending_move"] = dict(state.pending_move)
    if state.trail is not None and state.revealed:
        out["trail"] = copy.deepcopy(state.trail)
    if state.ended is not None:
        out["chests"] = {s: list(d["chest"]) for s, d in state.decks.items()}
        out["outcome"] = {"seat": state.winner, "reason": state.ended}
    if seat in SEATS:
        you: dict[str, Any] = {"seat": seat}
        if decks_chosen(state) and not state.revealed:
            you["row"] = _panels(state, fld.ROWS[seat])
        own = collection(state, seat) if state.step == DECK else None
        if own is not None:
            # a league seat's cards and own offers (public: the league's rosters are)
            you["collection"] = own.to_json()
            you["presets"] = [
                {"units": list(u), "chest": list(c)}
                for u, c in deck_offers(state, seat)[:PRESET_BUTTONS]
            ]
        if seat in state.decks:
            you["chest"] = list(state.decks[seat]["chest"])
            you["chest_names"] = {c: card_name(state.pack, c) for c in you["chest"]}
        out["you"] = you
    return out


def to_json(state: ApeironState) -> dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "game_id": state.game_id,
        "pack": copy.deepcopy(state.pack.source),
        "options": copy.deepcopy({k: v for k, v in state.options.items() if k != "pack"}),
        "field": {str(p): (s.to_json() if s else None) for p, s in state.field.items()},
        "step": state.step,
        "steps": state.steps,
        "open": state.open,
        "decks": copy.deepcopy(state.decks),
        "chest": copy.deepcopy(state.chest),
        "units": {s: [u.to_json() for u in us] for s, us in state.units.items()},
        "objects": {label(s): k for s, k in sorted(state.objects.items())},
        "graves": {
            label(s): {"seat": g.seat, "unit": g.unit, "returns": g.returns}
            for s, g in sorted(state.graves.items())
        },
        "revealed": state.revealed,
        "turn": state.turn,
        "first": state.first,
        "active": state.active,
        "acting": state.acting,
        "half": state.half,
        "marker": dict(state.marker),
        "gravity": state.gravity,
        "chance_used": dict(state.chance_used),
        "extra": dict(state.extra),
        "extra_hit": dict(state.extra_hit),
        "side": {s: (dict(z) if z else None) for s, z in state.side.items()},
        "last": dict(state.last),
        "pick": copy.deepcopy(state.pick),
        "pending_move": copy.deepcopy(state.pending_move),
        "trail": copy.deepcopy(state.trail),
        "ahead": state.ahead,
        "ended": state.ended,
        "winner": state.winner,
    }


_PACKS: dict[str, Pack] = {}


def _load_pack(obj: Any) -> Pack:
    key = packlib.pack_hash(obj) if isinstance(obj, Mapping) else ""
    if key not in _PACKS:
        _PACKS[key] = packlib.from_json(obj)
    return _PACKS[key]


def from_json(obj: Mapping[str, Any]) -> ApeironState:
    if not isinstance(obj, Mapping):
        raise StateError("apeiron.state.invalid", reason="not an object")
    if obj.get("schema") != SCHEMA_VERSION:
        raise StateError(
            "apeiron.state.schema", found=repr(obj.get("schema")), expected=SCHEMA_VERSION
        )
    try:
        pack = _load_pack(obj["pack"])
        options = copy.deepcopy(dict(obj["options"]))
        if "pack" in options:
            raise StateError("apeiron.state.invalid", reason="options.pack")
        layout: dict[int, Slot | None] = {
            int(p): (None if s is None else Slot(str(s["panel"]), str(s["kind"]), int(s["rot"])))
            for p, s in obj["field"].items()
        }
        return ApeironState(
            game_id=str(obj["game_id"]),
            pack=pack,
            options=options,
            field=layout,
            step=str(obj["step"]),
            steps=int(obj["steps"]),
            open=bool(obj["open"]),
            decks={s: {k: list(v) for k, v in d.items()} for s, d in obj["decks"].items()},
            chest={s: list(c) for s, c in obj["chest"].items()},
            units={s: [UnitState.from_json(u) for u in us] for s, us in obj["units"].items()},
            objects={read_square(s): str(k) for s, k in obj["objects"].items()},
            graves={
                read_square(s): Grave(str(g["seat"]), str(g["unit"]), int(g["returns"]))
                for s, g in obj["graves"].items()
            },
            revealed=bool(obj["revealed"]),
            turn=int(obj["turn"]),
            first=obj["first"],
            active=obj["active"],
            acting=obj["acting"],
            half=int(obj["half"]),
            marker={s: int(v) for s, v in obj["marker"].items()},
            gravity=bool(obj["gravity"]),
            chance_used={s: bool(v) for s, v in obj["chance_used"].items()},
            extra={s: v for s, v in obj["extra"].items()},
            extra_hit={s: bool(v) for s, v in obj["extra_hit"].items()},
            side={
                s: (None if z is None else {str(k): str(v) for k, v in z.items()})
                for s, z in obj["side"].items()
            },
            last={s: int(v) for s, v in obj["last"].items()},
            pick=copy.deepcopy(obj["pick"]),
            pending_move=copy.deepcopy(obj["pending_move"]),
            trail=copy.deepcopy(obj.get("trail")),
            ahead=bool(obj.get("ahead", False)),
            ended=obj["ended"],
            winner=obj["winner"],
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, StateError):
            raise
        raise StateError("apeiron.state.invalid", reason=str(error)[:80]) from None


# The engine's face: the functions the spec names, and what the bot, the demo AI, the builder and
# the tests read through ``rules`` (defined in the modules below it, see :mod:`.state`).
__all__ = [
    "DECK",
    "DEFAULT_MINUTES",
    "DEPLOY",
    "DEPLOY_STEP",
    "FACING_OF",
    "MID_STEPS",
    "MOVE",
    "NAME",
    "OBJECT_CAP",
    "OPTION",
    "OPTION_KEYS",
    "PLACE",
    "PLAY",
    "R_ARGS",
    "R_ARROW",
    "R_BLOCKED",
    "R_CHANCE_USED",
    "R_CHEST_EMPTY",
    "R_DEPLOY_SQUARE",
    "R_LINE",
    "R_MOVE_ONLY",
    "R_NOTHING",
    "R_NOT_BOXED",
    "R_NO_ABILITY",
    "R_NO_TREASURE",
    "R_OPTION",
    "R_OUT_OF_RANGE",
    "R_PICK",
    "R_STEP",
    "R_STOP",
    "R_SYNTAX",
    "R_TARGET",
    "R_TOO_FAR",
    "R_WHEN",
    "R_ZONE",
    "SCHEMA_VERSION",
    "SEATS",
    "TREASURE_CAP",
    "ApeironState",
    "DeckOrder",
    "Grave",
    "Order",
    "UnitState",
    "acting_unit",
    "action_texts",
    "adjudicate",
    "awaiting",
    "boxed_in",
    "check_options",
    "choices",
    "default_order",
    "flying",
    "flying_at_end",
    "from_json",
    "living",
    "move_points",
    "new_game",
    "off_field",
    "option_list",
    "other",
    "outcome",
    "own_squares_reading",
    "parse",
    "placed_count",
    "poisoned",
    "power",
    "reachable",
    "read_square",
    "reads_as",
    "resign",
    "resolve",
    "start_step",
    "step_label",
    "step_number",
    "step_seconds",
    "summary",
    "to_json",
    "unit_at",
    "view",
    "withheld",
    "zone_open",
]
