"""Apeiron (``../shared/rules/apeiron.md``): the pure rules engine's core.

Steps (each one framework turn): ``deck`` (both seats), ``deploy`` (both seats, withheld), then
one ``play`` step per activation (the active seat only), and within an activation the drawer's
follow-up steps: ``place`` (a drawn item: own zone, the opponent's, or discard), ``option`` (an
event's choice, one piece at a time) and ``move`` (a draw made the order's move illegal).

The rules: the secret field, decks and chest orders from the secret stream, deployment, the
first-player dice, alternating activations with the marker, movement (terrain, flying, poison,
bombs, stop squares, arrow and gravity panels), attacks (contact, back attacks, ranged lines,
lawless panels and their strike back), the effect catalogue (:func:`_apply`: damage, heal, push,
pull, place, remove, stat, panel rotate/move/change/remove, summon) behind ★ abilities with
costs, start/end-of-activation abilities, passives, items, events and special units; treasure
and Apeiron chance draws, side zones, graves, the extra-turn count, annihilation, the turn limit
and the moderator's ruling.

Pure: no discord, no storage, no clock; randomness only from the dice it is handed.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
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
    prepared_orders,
)
from cogs.apeiron import field as fld
from cogs.apeiron import pack as packlib
from cogs.apeiron.field import Slot, Square
from cogs.apeiron.orders import (
    Action,
    DeckOrder,
    DeployOrder,
    OptionOrder,
    Order,
    Placement,
    PlaceOrder,
    PlayOrder,
    RawPlay,
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
    BOMB_DAMAGE,
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
    R_NO_PATH,
    R_NO_TREASURE,
    R_NOT_BOXED,
    R_NOT_YOURS,
    R_NOTHING,
    R_OPTION,
    R_OUT_OF_RANGE,
    R_PICK,
    R_SAME_SQUARE,
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
    all_units,
    attack_range,
    find,
    flying,
    kind_at,
    living,
    move_points,
    obstacle,
    occupied,
    off_field,
    other,
    poisoned,
    power,
    read_square,
    star_ability,
    unit_at,
    unit_card,
    zone_item,
    zone_open,
)
from cogs.apeiron.targets import attack_victim, pieces, placed_count, unit_targets, usable

NAME = "apeiron"
SCHEMA_VERSION = 1
DEFAULT_MINUTES = 10
OPTION_KEYS = ("pack", "pack_hash", "field", "events", "turn_limit", "minutes")
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


def turn(state: ApeironState) -> int:
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


def start_turn(
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
        events += _open_activation(state)
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


def _next_unit(state: ApeironState, seat: str) -> UnitState | None:
    """The unit at or after the marker (wrapping), skipping the dead."""
    units = sorted(state.units[seat], key=lambda u: u.order)
    count = len(units)
    start = state.marker[seat]
    for i in range(count):
        order = (start - 1 + i) % count + 1
        unit = find(state, seat, order)
        if unit.alive:
            return unit
    return None


def _open_activation(state: ApeironState) -> list[Event]:
    """Whose activation, which unit; graves due return; a special unit fires at its owner's
    round start; gravity is read; start abilities fire. A unit its own start ability removes
    has had its activation: the next one opens."""
    events: list[Event] = []
    assert state.first is not None
    for _ in range(4 * len(SEATS) * (DEPLOY + 1)):
        if state.half == 0:
            state.turn += 1
            state.active = state.first
        else:
            state.active = other(state.first)
        seat = state.active
        events.append(Event("activation", {"seat": seat, "turn": state.turn}))
        events += _graves_return(state, seat)
        unit = _next_unit(state, seat)
        if unit is not None and (state.last[seat] == 0 or unit.order <= state.last[seat]):
            _round_start(state, seat, events)
            if _annihilation(state, events):
                return events
            unit = _next_unit(state, seat)
        if unit is None:  # nothing left: the end check already ran; be safe
            state.acting = None
            return events
        state.acting = unit.order
        state.marker[seat] = unit.order
        assert unit.square is not None
        state.gravity = kind_at(state, unit.square) == "gravity"
        events.append(
            Event("acting", {"seat": seat, "unit": unit.id, "square": label(unit.square)})
        )
        _fire_timed(state, unit, "start", events)
        if state.ended is not None or _annihilation(state, events):
            return events
        if unit.alive:
            return events
        _end_activation(state, seat, events)
        if _over(state):  # (a helper: mypy has narrowed ``state.ended`` above)
            return events
    return events


def _over(state: ApeironState) -> bool:
    return state.ended is not None


def _graves_return(state: ApeironState, seat: str) -> list[Event]:
    events = []
    for square, grave in sorted(state.graves.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if grave.seat != seat or grave.returns > state.turn:
            continue
        del state.graves[square]
        unit = next(u for u in state.units[seat] if u.id == grave.unit)
        spot = square if not _blocked_for_return(state, square) else _nearest_free(state, square)
        if spot is None:
            continue
        unit.square, unit.hp, unit.died = spot, unit_card(state, unit).hp, None
        events.append(Event("returned", {"seat": seat, "unit": unit.id, "square": label(spot)}))
    return events


def _blocked_for_return(state: ApeironState, square: Square) -> bool:
    return off_field(state, square) or occupied(state, square) or obstacle(state, square)


def _nearest_free(state: ApeironState, start: Square) -> Square | None:
    candidates = [
        (abs(x - start[0]) + abs(y - start[1]), y, x)
        for y in range(fld.SIZE)
        for x in range(fld.SIZE)
        if not _blocked_for_return(state, (x, y))
    ]
    if not candidates:
        return None
    _, y, x = min(candidates)
    return x, y


# --- orders --------------------------------------------------------------------------------------


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
        return parse_deck(state, seat, word)
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


# --- checking a play -----------------------------------------------------------------------------


def check_option(state: ApeironState, order: OptionOrder) -> OptionOrder:
    """The number is one of the ``option`` step's list (:func:`option_list`)."""
    if not 1 <= order.number <= len(option_list(state)):
        raise OrderRejected(R_OPTION, count=len(option_list(state)))
    return order


def _walk_ok(state: ApeironState, unit: UnitState, square: Square, *, last: bool) -> str | None:
    """Why ``unit`` may not enter ``square`` on its move (None: it may)."""
    if off_field(state, square):
        return R_BLOCKED
    blocked = occupied(state, square) or state.objects.get(square) == "obstacle"
    if not blocked:
        return None
    if flying(state, unit) and not last:
        return None
    return R_BLOCKED


def boxed_in(state: ApeironState, unit: UnitState) -> bool:
    return not reachable(state, unit)


def reachable(state: ApeironState, unit: UnitState) -> dict[Square, tuple[Square, ...]]:
    """Every square the unit may end its move on, with the path the engine walks to it: the
    shortest; ties: fewest poison squares entered, then square by square the lower row, then
    column."""
    assert unit.square is not None
    start, limit = unit.square, move_points(state, unit)
    flies = flying(state, unit)
    best: dict[Square, tuple[int, int, tuple[tuple[int, int], ...], tuple[Square, ...]]] = {}
    frontier: list[tuple[Square, tuple[Square, ...], int]] = [(start, (), 0)]
    for steps in range(1, limit + 1):
        nxt: dict[Square, tuple[Square, tuple[Square, ...], int]] = {}
        for square, path, poison in frontier:
            if path and not flies and state.objects.get(path[-1]) == "stop":
                continue  # a stop square ends the move
            for _, step in fld.neighbours(square):
                if step == start or step in path:
                    continue
                if off_field(state, step):
                    continue
                blocked = occupied(state, step) or state.objects.get(step) == "obstacle"
                if blocked and not flies:
                    continue
                new_path = (*path, step)
                new_poison = poison + (0 if flies else int(poisoned(state, step)))
                key = (steps, new_poison, tuple((s[1], s[0]) for s in new_path))
                if not blocked and (step not in best or key < best[step][:3]):
                    best[step] = (*key, new_path)
                old = nxt.get(step)
                if old is None or (new_poison, tuple((s[1], s[0]) for s in new_path)) < (
                    old[2],
                    tuple((s[1], s[0]) for s in old[1]),
                ):
                    nxt[step] = (step, new_path, new_poison)
        frontier = list(nxt.values())
    return {square: entry[3] for square, entry in best.items()}


def _check_path(state: ApeironState, unit: UnitState, path: Sequence[Square]) -> None:
    assert unit.square is not None
    if len(path) > move_points(state, unit):
        raise OrderRejected(R_TOO_FAR, move=move_points(state, unit))
    flies = flying(state, unit)
    cur = unit.square
    for index, square in enumerate(path):
        if not fld.adjacent(cur, square):
            raise OrderRejected(R_STEP, square=label(square))
        last = index == len(path) - 1
        if _walk_ok(state, unit, square, last=last) is not None:
            raise OrderRejected(R_BLOCKED, square=label(square))
        if not flies and not last and state.objects.get(square) == "stop":
            raise OrderRejected(R_STOP, square=label(square))
        cur = square
    if path and path[-1] == unit.square:
        raise OrderRejected(R_SAME_SQUARE)


def _resolve_path(state: ApeironState, unit: UnitState, raw: RawPlay) -> tuple[Square, ...]:
    assert unit.square is not None
    path = raw.path
    if not path:
        if not boxed_in(state, unit):
            raise OrderRejected(R_NOT_BOXED)
        return ()
    if raw.only_end:
        options = reachable(state, unit)
        if path[-1] not in options or len(path) != 1:
            raise OrderRejected(R_NO_PATH, square=label(path[-1]))
        return options[path[-1]]
    if path[0] == unit.square:
        path = path[1:]
        if not path:
            raise OrderRejected(R_SAME_SQUARE)
    _check_path(state, unit, path)
    return path


def check_play(state: ApeironState, seat: str, raw: RawPlay | PlayOrder) -> PlayOrder:
    """The order checked whole, each part on the board the earlier parts leave. A draw is not
    simulated (its card is secret): the move after it is checked on the board before it, and if
    the card makes it illegal the player is asked again (step ``move``)."""
    trial = copy.deepcopy(state)
    unit = acting_unit(trial)
    if isinstance(raw, PlayOrder):
        raw = RawPlay(raw.path, raw.facing, False, raw.action, raw.action_first)
    if raw.action_first and raw.action is not None:
        _check_action(trial, seat, unit, raw.action)
        _do_action(trial, seat, unit, raw.action, [], trial_run=True)
        if not unit.alive or trial.ended is not None:
            return PlayOrder(() if raw.only_end else raw.path, raw.facing, raw.action, True)
    path = _resolve_path(trial, unit, raw)
    end = path[-1] if path else unit.square
    assert end is not None
    forced = fld.arrow(trial.pack, trial.field, end)
    if forced is not None and raw.facing not in (None, forced):
        raise OrderRejected(R_ARROW, facing=forced)
    if raw.action is not None and not raw.action_first:
        _walk(trial, unit, path, raw.facing, [])
        if unit.alive:
            _check_action(trial, seat, unit, raw.action)
    return PlayOrder(path, raw.facing, raw.action, raw.action_first)


def _check_action(state: ApeironState, seat: str, unit: UnitState, action: Action) -> None:
    """Refuse an action the acting unit cannot take where it stands now."""
    assert unit.square is not None
    if action.kind == "attack":
        attack_victim(state, unit, action.target)
    elif action.kind == "ability":
        ability = star_ability(state, unit, action.index)
        if ability.when is not None and kind_at(state, unit.square) != ability.when:
            raise OrderRejected(R_WHEN, kind=ability.when)
        # the cost is paid first: the targets are read on the board it leaves (the same board)
        check_args(state, seat, unit, ability.effect, action.args)
    elif action.kind == "item":
        card = zone_item(state, seat)
        if card.when is not None and kind_at(state, unit.square) != card.when:
            raise OrderRejected(R_WHEN, kind=card.when)
        assert card.effect is not None
        check_args(state, seat, unit, card.effect, action.args)
    elif action.kind == "treasure":
        if state.objects.get(unit.square) != "treasure":
            raise OrderRejected(R_NO_TREASURE, square=label(unit.square))
        if not state.chest.get(seat):
            raise OrderRejected(R_CHEST_EMPTY)
    elif action.kind == "chance":
        if state.chance_used[seat]:
            raise OrderRejected(R_CHANCE_USED)
        if not state.chest.get(seat):
            raise OrderRejected(R_CHEST_EMPTY)


def default_order(state: ApeironState, seat: str) -> Order:
    if state.step == DECK:
        preset = state.pack.presets[0]
        return DeckOrder(preset.units, preset.chest)
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
                        DeckOrder(p.units, p.chest).canonical(), f"apeiron.choice.preset.{i + 1}"
                    )
                    for i, p in enumerate(state.pack.presets[:PRESET_BUTTONS])
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
        count = min(len(option_list(state)), MAX_CHOICES)
        return [
            ChoiceGroup(
                "option",
                "apeiron.group.option",
                [Choice(f"option {n}", f"apeiron.choice.n.{n}") for n in range(1, count + 1)],
            )
        ]
    unit = acting_unit(state)
    assert unit.square is not None
    paths = _button_paths(state, unit)
    groups = [
        ChoiceGroup("unit", "apeiron.group.unit", [Choice(unit.id, "apeiron.choice.acting")]),
        ChoiceGroup(
            "move",
            "apeiron.group.move",
            [
                Choice(text, "apeiron.choice.stay" if text == "stay" else f"apeiron.sq.{end}")
                for text, end in paths
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
        for text in _action_candidates(state, seat, unit, ends):
            if all(_parses(state, seat, f"{move} keep {text}") for move, _ in paths):
                kind = text.split()[0]
                actions.append(Choice(text, f"apeiron.choice.{kind}"))
            if len(actions) == MAX_CHOICES:
                break
        groups.append(ChoiceGroup("action", "apeiron.group.action", actions))
    return groups


PRESET_BUTTONS = 9


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


def _action_candidates(
    state: ApeironState, seat: str, unit: UnitState, ends: Sequence[Square]
) -> list[str]:
    """Action texts worth a button: those legal from at least the first reachable end."""
    trial = copy.deepcopy(state)
    me = acting_unit(trial)
    me.square = ends[0] if ends else me.square
    return action_texts(trial, seat, me)


def action_texts(state: ApeironState, seat: str, unit: UnitState, limit: int = 8) -> list[str]:
    """The actions ``unit`` could take where it stands (targets from :func:`pieces`); the demo
    AI reads them too."""
    assert unit.square is not None
    out = []
    for victim in all_units(state):
        if victim is unit:
            continue
        try:
            attack_victim(state, unit, victim.square)  # type: ignore[arg-type]
        except OrderRejected:
            continue
        out.append(f"attack {label(victim.square)}")  # type: ignore[arg-type]
    stars = [a for a in unit_card(state, unit).abilities if a.timing == "star"]
    for index, ability in enumerate(stars, 1):
        if ability.when is not None and kind_at(state, unit.square) != ability.when:
            continue
        head = "ability" if index == 1 else f"ability {index}"
        out += [
            f"{head} {args}".strip()
            for args in _arg_texts(state, seat, unit, ability.effect, limit)
        ]
    zone = state.side.get(seat)
    card = None if zone is None else state.pack.chest.get(zone["card"])
    if (
        card is not None
        and card.kind == "item"
        and card.effect is not None
        and (card.when is None or kind_at(state, unit.square) == card.when)
    ):
        out += [
            f"item {args}".strip() for args in _arg_texts(state, seat, unit, card.effect, limit)
        ]
    if state.objects.get(unit.square) == "treasure" and state.chest.get(seat):
        out.append("treasure")
    if not state.chance_used[seat] and state.chest.get(seat):
        out.append("chance")
    return out


def _arg_texts(
    state: ApeironState,
    seat: str,
    unit: UnitState,
    effect: packlib.Effect,
    limit: int,
) -> list[str]:
    """Up to ``limit`` complete target lists, depth first."""
    found: list[str] = []

    def walk(args: list[str]) -> None:
        if len(found) >= limit:
            return
        options = pieces(state, seat, unit, effect, args)
        if options is None:
            found.append(" ".join(args))
            return
        for token in options[:limit]:
            walk([*args, token])
            if len(found) >= limit:
                return

    walk([])
    return found


# --- the effect catalogue ------------------------------------------------------------------------


def check_args(
    state: ApeironState,
    seat: str,
    actor: UnitState | None,
    effect: packlib.Effect,
    args: Sequence[str],
) -> None:
    """Refuse targets that are not, piece by piece, among :func:`pieces`."""
    got: list[str] = []
    for token in args:
        options = pieces(state, seat, actor, effect, got)
        if options is None:
            raise OrderRejected(R_ARGS, expected=" ".join(got) or "—")
        if not options:
            raise OrderRejected(R_NOTHING)
        if token not in options:
            raise OrderRejected(R_PICK, token=token, options=" ".join(options[:12]))
        got.append(token)
    options = pieces(state, seat, actor, effect, got)
    if options == []:
        raise OrderRejected(R_NOTHING)
    if options is not None:
        raise OrderRejected(R_PICK, token="—", options=" ".join(options[:12]))


def _apply(
    state: ApeironState,
    seat: str,
    actor: UnitState | None,
    effect: packlib.Effect,
    args: Sequence[str],
    events: list[Event],
) -> None:
    """One effect of the catalogue, its targets already checked."""
    name = effect.effect
    if name in packlib.PANEL_EFFECTS:
        _panel_effect(state, effect, args, events)
        return
    if name == "place":
        for token in args:
            state.objects[read_square(token)] = effect.object or "obstacle"
        events.append(Event("placed", {"object": effect.object, "squares": list(args)}))
        return
    if name == "remove":
        for token in args:
            removed = state.objects.pop(read_square(token), None)
            events.append(Event("removed", {"object": removed, "square": token}))
        return
    if name == "summon":
        assert effect.special is not None
        _zone_put(state, seat, seat, effect.special, events)
        return
    targets = unit_targets(state, seat, actor, effect, args)
    if name in ("push", "pull"):
        assert actor is not None and actor.square is not None
        here = actor.square

        def distance(u: UnitState) -> int:
            assert u.square is not None
            return abs(u.square[0] - here[0]) + abs(u.square[1] - here[1])

        # the far one first when pushing, the near one first when pulling: nobody blocks a
        # unit of the same effect that would have moved out of the way
        targets.sort(key=distance, reverse=name == "push")
        for target in targets:
            if target.alive and actor.square is not None:
                _shove(state, actor, target, effect.steps or 1, name == "push", events)
        return
    for target in targets:
        if not target.alive:
            continue
        if name == "damage":
            _damage(state, target, effect.amount or 0, events, actor)
        elif name == "heal":
            _heal(state, target, effect.amount or 0, events)
        elif name == "stat":
            value = effect.delta if effect.stat != "flying" else int(bool(effect.value))
            assert effect.stat is not None and value is not None and effect.turns is not None
            target.mods.append((effect.stat, value, state.turn + effect.turns - 1))
            events.append(
                Event(
                    "stat",
                    {
                        "seat": target.seat,
                        "unit": target.id,
                        "stat": effect.stat,
                        "value": value,
                        "turns": effect.turns,
                    },
                )
            )


def _heal(state: ApeironState, unit: UnitState, amount: int, events: list[Event]) -> None:
    top = unit_card(state, unit).hp
    healed = max(min(unit.hp + amount, top) - unit.hp, 0)
    unit.hp += healed
    events.append(
        Event("heal", {"seat": unit.seat, "unit": unit.id, "amount": healed, "hp": unit.hp})
    )


def _shove(
    state: ApeironState,
    actor: UnitState,
    target: UnitState,
    steps: int,
    away: bool,
    events: list[Event],
) -> None:
    """Straight away from / toward the actor on their shared row or column; a unit, grave,
    obstacle or off-field square stops it on the last free square. Squares passed do nothing;
    the final square's poison, bomb or arrow applies (a unit not on the actor's row or column
    is not moved)."""
    assert actor.square is not None and target.square is not None
    facing = fld.direction(actor.square, target.square)
    if facing is None:
        return
    if not away:
        facing = fld.turn_facing(facing, 2)
    dx, dy = fld.STEP[facing]
    start = cur = target.square
    for _ in range(steps):
        nxt = (cur[0] + dx, cur[1] + dy)
        if off_field(state, nxt) or occupied(state, nxt) or obstacle(state, nxt):
            break
        cur = nxt
    if cur == start:
        return
    target.square = cur
    kind = "pushed" if away else "pulled"
    events.append(
        Event(
            kind, {"seat": target.seat, "unit": target.id, "from": label(start), "to": label(cur)}
        )
    )
    _land(state, target, events)


def _land(state: ApeironState, unit: UnitState, events: list[Event]) -> None:
    """A unit moved by an effect: the final square's arrow, poison and bomb (flying units:
    only the arrow)."""
    assert unit.square is not None
    end = unit.square
    forced = fld.arrow(state.pack, state.field, end)
    if forced is not None:
        unit.facing = forced
    if flying(state, unit):
        return
    if poisoned(state, end):
        _damage(state, unit, 1, events, None)
    if unit.alive and state.objects.get(end) == "bomb":
        del state.objects[end]
        events.append(Event("bomb", {"square": label(end)}))
        _damage(state, unit, BOMB_DAMAGE, events, None)


# --- panels on the live board --------------------------------------------------------------------


def _remap(state: ApeironState, mapping: Mapping[Square, Square], quarters: int) -> None:
    """Units, graves and objects go (and units turn) with their squares."""
    for seat in SEATS:
        for unit in state.units.get(seat, []):
            if unit.square is not None and unit.square in mapping:
                unit.square = mapping[unit.square]
                unit.facing = fld.turn_facing(unit.facing, quarters)
    state.graves = {mapping.get(s, s): g for s, g in state.graves.items()}
    state.objects = {mapping.get(s, s): k for s, k in state.objects.items()}


def _panel_effect(
    state: ApeironState, effect: packlib.Effect, args: Sequence[str], events: list[Event]
) -> None:
    pos = int(args[0][1:])
    slot = state.field[pos]
    assert slot is not None
    squares = fld.squares_of(pos)
    x0, y0 = fld.origin(pos)
    if effect.effect == "rotate":
        quarters = (effect.quarters or 1) if args[1] == "cw" else (4 - (effect.quarters or 1)) % 4
        mapping = {}
        for sq in squares:
            x, y = fld.rotate_local((sq[0] - x0, sq[1] - y0), quarters)
            mapping[sq] = (x0 + x, y0 + y)
        _remap(state, mapping, quarters)
        state.field[pos] = Slot(slot.panel, slot.kind, (slot.rot + 90 * quarters) % 360)
        events.append(
            Event("panel_rotated", {"pos": pos, "direction": args[1], "quarters": effect.quarters})
        )
    elif effect.effect == "move_panel":
        dest = int(args[1][1:])
        d0 = fld.origin(dest)
        mapping = {}
        for sq in squares:
            mapping[sq] = (d0[0] + sq[0] - x0, d0[1] + sq[1] - y0)
            mapping[mapping[sq]] = sq
        _remap(state, mapping, 0)
        state.field[pos], state.field[dest] = state.field[dest], slot
        events.append(Event("panel_moved", {"from": pos, "to": dest}))
    elif effect.effect == "change":
        into = args[1] if effect.into == "choice" else effect.into
        assert into is not None
        state.field[pos] = Slot(slot.panel, into, slot.rot)
        # all its obstacles go, other objects stay (no new layout)
        for sq in squares:
            if state.objects.get(sq) == "obstacle":
                del state.objects[sq]
        events.append(Event("panel_changed", {"pos": pos, "kind": into}))
    else:  # remove_panel
        events.append(Event("panel_removed", {"pos": pos}))
        for sq in squares:
            victim = unit_at(state, sq)
            if victim is not None:
                _dies(state, victim, events, grave=False)
            state.graves.pop(sq, None)
            state.objects.pop(sq, None)
        state.field[pos] = None


# --- chest, side zones, special units ------------------------------------------------------------


def _zone_put(
    state: ApeironState, placer: str, zone_seat: str, card: str, events: list[Event]
) -> None:
    held = state.side[zone_seat]
    state.side[zone_seat] = {"card": card, "owner": placer}
    events.append(
        Event(
            "zone",
            {
                "seat": placer,
                "zone": zone_seat,
                "card": card,
                "replaced": None if held is None else held["card"],
            },
        )
    )


def _draw(state: ApeironState, seat: str, unit: UnitState, via: str, events: list[Event]) -> None:
    card_id = state.chest[seat].pop(0)
    events.append(
        Event("drawn", {"seat": seat, "card": card_id, "via": via, "left": len(state.chest[seat])})
    )
    card = state.pack.chest[card_id]
    if card.kind == "item":
        state.pick = {"kind": "place", "seat": seat, "card": card_id}
        state.step = PLACE
        return
    _fire_event(state, seat, unit, card, events)


def _fire_event(
    state: ApeironState,
    seat: str,
    unit: UnitState,
    card: packlib.ChestCard,
    events: list[Event],
) -> None:
    """An event acts at once; a choice it needs opens the ``option`` step."""
    actor = unit if unit.alive else None
    here = kind_at(state, unit.square) if unit.square is not None else None
    if card.when is not None and here != card.when:
        events.append(Event("fizzled", {"seat": seat, "card": card.id}))
        return
    if card.options:
        if not any(usable(state, seat, actor, e) for e in card.options):
            events.append(Event("fizzled", {"seat": seat, "card": card.id}))
            return
        state.pick = {"kind": "option", "seat": seat, "card": card.id, "opt": None, "args": []}
        state.step = OPTION
        return
    assert card.effect is not None
    _start_effect(state, seat, actor, card.id, 0, card.effect, events)


def _start_effect(
    state: ApeironState,
    seat: str,
    actor: UnitState | None,
    card: str,
    opt: int,
    effect: packlib.Effect,
    events: list[Event],
) -> None:
    if not usable(state, seat, actor, effect):
        events.append(Event("fizzled", {"seat": seat, "card": card}))
        return
    if pieces(state, seat, actor, effect, []) is None:
        _apply(state, seat, actor, effect, [], events)
        return
    state.pick = {"kind": "option", "seat": seat, "card": card, "opt": opt, "args": []}
    state.step = OPTION


def _pick_effect(state: ApeironState) -> packlib.Effect | None:
    pick = state.pick
    assert pick is not None and pick["kind"] == "option"
    card = state.pack.chest[pick["card"]]
    if pick["opt"] is None:
        return None
    return card.options[pick["opt"]] if card.options else card.effect


def option_list(state: ApeironState) -> list[str]:
    """The ``option`` step's numbered list: the card's usable options (``1``, ``2`` …), then the
    legal tokens of each piece of its targets in turn."""
    pick = state.pick
    if pick is None or pick["kind"] != "option":
        return []
    actor = _actor_of_pick(state)
    effect = _pick_effect(state)
    if effect is None:
        card = state.pack.chest[pick["card"]]
        return [
            str(i + 1) for i, e in enumerate(card.options) if usable(state, pick["seat"], actor, e)
        ]
    return pieces(state, pick["seat"], actor, effect, pick["args"]) or []


def _actor_of_pick(state: ApeironState) -> UnitState | None:
    unit = acting_unit(state)
    return unit if unit.alive else None


def _resolve_option(state: ApeironState, order: OptionOrder, events: list[Event]) -> None:
    pick = state.pick
    assert pick is not None
    token = option_list(state)[order.number - 1]
    actor = _actor_of_pick(state)
    seat = pick["seat"]
    events.append(Event("option", {"seat": seat, "card": pick["card"], "choice": token}))
    if pick["opt"] is None:
        opt = int(token) - 1
        state.pick = None
        card = state.pack.chest[pick["card"]]
        _start_effect(state, seat, actor, card.id, opt, card.options[opt], events)
        return
    pick["args"] = [*pick["args"], token]
    effect = _pick_effect(state)
    assert effect is not None
    if pieces(state, seat, actor, effect, pick["args"]) is None:
        state.pick = None
        _apply(state, seat, actor, effect, pick["args"], events)


def _resolve_place(state: ApeironState, order: PlaceOrder, events: list[Event]) -> None:
    pick = state.pick
    assert pick is not None
    seat, card = pick["seat"], pick["card"]
    state.pick = None
    if order.where == "discard" or (
        order.where == "opponent" and not zone_open(state, seat, other(seat))
    ):
        events.append(Event("discarded", {"seat": seat, "card": card}))
        return
    _zone_put(state, seat, seat if order.where == "own" else other(seat), card, events)


def _round_start(state: ApeironState, seat: str, events: list[Event]) -> None:
    """A special unit in the seat's zone fires when the seat's round starts."""
    held = state.side[seat]
    if held is None or held["card"] not in state.pack.specials:
        return
    special = state.pack.specials[held["card"]]
    events.append(Event("special", {"seat": seat, "card": special.id}))
    _apply(state, seat, None, special.effect, [], events)


def _fire_timed(state: ApeironState, unit: UnitState, timing: str, events: list[Event]) -> None:
    """Start (行動開始時) or end (行動終了時) abilities: self or each, nothing chosen."""
    for ability in unit_card(state, unit).abilities:
        if ability.timing != timing or not unit.alive or state.ended is not None:
            continue
        assert unit.square is not None
        if ability.when is not None and kind_at(state, unit.square) != ability.when:
            continue
        events.append(Event("ability", {"seat": unit.seat, "unit": unit.id, "timing": timing}))
        _apply(state, unit.seat, unit, ability.effect, [], events)


# --- actions -------------------------------------------------------------------------------------


def _do_action(
    state: ApeironState,
    seat: str,
    unit: UnitState,
    action: Action,
    events: list[Event],
    *,
    trial_run: bool = False,
) -> None:
    """The action, checked already. ``trial_run``: a draw only takes its treasure (the card is
    secret, so an order is never checked against it)."""
    assert unit.square is not None
    if action.kind == "attack":
        _attack(state, unit, action.target, events)
    elif action.kind == "ability":
        ability = star_ability(state, unit, action.index)
        unit.hp = max(unit.hp - ability.cost, 0)  # paid first; 0 H: removed at activation end
        events.append(
            Event(
                "ability",
                {
                    "seat": seat,
                    "unit": unit.id,
                    "timing": "star",
                    "cost": ability.cost,
                    "hp": unit.hp,
                    "args": list(action.args),
                },
            )
        )
        _apply(state, seat, unit, ability.effect, action.args, events)
    elif action.kind == "item":
        card = zone_item(state, seat)
        state.side[seat] = None
        events.append(
            Event(
                "item", {"seat": seat, "unit": unit.id, "card": card.id, "args": list(action.args)}
            )
        )
        assert card.effect is not None
        _apply(state, seat, unit, card.effect, action.args, events)
    elif action.kind == "treasure":
        del state.objects[unit.square]
        if not trial_run:
            _draw(state, seat, unit, "treasure", events)
    elif action.kind == "chance":
        state.chance_used[seat] = True
        if not trial_run:
            _draw(state, seat, unit, "chance", events)


# --- resolution ----------------------------------------------------------------------------------


def resolve(
    state: ApeironState, orders: Mapping[str, Any], dice: Dice, secret: Dice = NO_SECRET
) -> tuple[ApeironState, list[Event]]:
    if state.ended is not None:
        raise RuleError("apeiron.error.finished")
    if not state.open:
        raise RuleError("apeiron.error.step_not_open", step=state.step)
    prepared = prepared_orders(
        awaiting(state),
        orders,
        lambda seat, text: parse(state, seat, text),
        lambda seat: default_order(state, seat),
    )
    state = copy.deepcopy(state)
    state.open = False
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
            _resolve_place(state, order, events)
            state.step = PLAY
            _continue(state, active, events)
        elif state.step == OPTION and isinstance(order, OptionOrder):
            _resolve_option(state, order, events)
            state.step = PLAY if state.pick is None else state.step
            _continue(state, active, events)
        elif state.step == MOVE and isinstance(order, PlayOrder) and order.action is None:
            order = check_play(state, active, order)
            state.step, state.pending_move = PLAY, None
            unit = acting_unit(state)
            _walk(state, unit, order.path, order.facing, events)
            _continue(state, active, events)
        elif state.step == PLAY and isinstance(order, PlayOrder):
            state.trail = {"seat": active, "moves": [], "attacks": []}
            _resolve_play(state, active, check_play(state, active, order), events)
        else:
            raise RuleError("apeiron.error.order_type")
    # The next activation opens here, not in the next ``start_turn``: its opening (graves, a
    # special unit at the round's start, start abilities) may end the game, and a game ends in
    # the step whose record replays it (a record's last step is a resolved one). It draws no
    # dice, so nothing but the events' place changes.
    if state.ended is None and state.step == PLAY:
        events += _open_activation(state)
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
        _do_action(state, seat, unit, order.action, events)
    else:
        _walk(state, unit, order.path, order.facing, events)
        if order.action is not None and unit.alive and not _annihilation(state, events):
            _do_action(state, seat, unit, order.action, events)
    _continue(state, seat, events)


def _continue(state: ApeironState, seat: str, events: list[Event]) -> None:
    """After an action or a follow-up step: the next follow-up step, the action-first order's
    move (or a ``move`` step if the board changed under it), then the activation's end."""
    if state.ended is not None:
        return
    if _annihilation(state, events):
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
            if _move_legal(state, unit, path):
                _walk(state, unit, path, pending["facing"], events)
            else:
                state.pending_move = pending
                state.step = MOVE
                events.append(Event("move_again", {"seat": seat, "unit": unit.id}))
                return
    _end_activation(state, seat, events)


def _move_legal(state: ApeironState, unit: UnitState, path: Sequence[Square]) -> bool:
    try:
        if not path:
            return boxed_in(state, unit)
        _check_path(state, unit, path)
    except OrderRejected:
        return False
    return True


def _damage(
    state: ApeironState, victim: UnitState, amount: int, events: list[Event], by: UnitState | None
) -> None:
    if amount <= 0 or not victim.alive:
        return
    victim.hp = max(victim.hp - amount, 0)
    events.append(
        Event("damage", {"seat": victim.seat, "unit": victim.id, "amount": amount, "hp": victim.hp})
    )
    if by is not None and by.seat != victim.seat and living(state, by.seat) == [by]:
        # only the last remaining unit's damage resets the extra-turn count (End): damage its
        # side dealt before it dropped to one unit, even in the same activation, does not
        state.extra_hit[by.seat] = True
    if victim.hp == 0:
        _dies(state, victim, events)


def _dies(
    state: ApeironState, victim: UnitState, events: list[Event], *, grave: bool = True
) -> None:
    assert victim.square is not None
    square = victim.square
    victim.square, victim.hp, victim.died, victim.mods = None, 0, state.turn, []
    turns = unit_card(state, victim).grave_turns
    if grave and turns:
        state.graves[square] = Grave(victim.seat, victim.id, state.turn + turns)
    events.append(
        Event(
            "death",
            {
                "seat": victim.seat,
                "unit": victim.id,
                "square": label(square),
                "grave": bool(grave and turns),
            },
        )
    )


def flying_at_end(state: ApeironState, unit: UnitState, end: Square) -> bool:
    """Whether ``unit``, flying as it starts its move, is still flying where the move ends (a
    gravity panel grounds it there); the demo AI reads it too."""
    return flying(state, unit) and kind_at(state, end) != "gravity"


def _walk(
    state: ApeironState,
    unit: UnitState,
    path: Sequence[Square],
    facing: str | None,
    events: list[Event],
) -> None:
    assert unit.square is not None
    start = unit.square
    flies = flying(state, unit)
    end = path[-1] if path else start
    # a flier whose move ends on a gravity panel is grounded there: the end square's poison and
    # bomb apply to it (the squares it passed over do nothing)
    lands_flying = flying_at_end(state, unit, end)
    poison = sum(
        1
        for i, square in enumerate(path)
        if not (lands_flying if i == len(path) - 1 else flies) and poisoned(state, square)
    )
    unit.square = end
    if state.trail is not None and path:
        state.trail["moves"].append([label(start), *(label(s) for s in path)])
    new_facing = fld.arrow(state.pack, state.field, end) or facing or unit.facing
    unit.facing = new_facing
    events.append(
        Event(
            "move",
            {
                "seat": unit.seat,
                "unit": unit.id,
                "from": label(start),
                "to": label(end),
                "path": [label(s) for s in path],
                "facing": new_facing,
            },
        )
    )
    if poison:
        _damage(state, unit, poison, events, None)
    if unit.alive and not lands_flying and path and state.objects.get(end) == "bomb":
        del state.objects[end]
        events.append(Event("bomb", {"square": label(end)}))
        _damage(state, unit, BOMB_DAMAGE, events, None)


def _attack(state: ApeironState, attacker: UnitState, target: Square, events: list[Event]) -> None:
    victim = attack_victim(state, attacker, target)
    assert attacker.square is not None and victim.square is not None
    contact = attack_range(state, attacker) == 1
    back = contact and fld.behind(victim.square, victim.facing) == attacker.square
    amount = power(state, attacker) + int(back)
    if state.trail is not None:
        state.trail["attacks"].append([label(attacker.square), label(target)])
    events.append(
        Event(
            "attack",
            {
                "seat": attacker.seat,
                "unit": attacker.id,
                "from": label(attacker.square),
                "target": label(target),
                "victim": victim.id,
                "back": back,
            },
        )
    )
    _damage(state, victim, amount, events, attacker)
    # lawless panel: a unit that survives a contact attack strikes back for 1
    if (
        contact
        and victim.alive
        and attacker.alive
        and kind_at(state, victim.square) == "lawless"
        and _in_attack_range(state, victim, attacker)
    ):
        events.append(
            Event(
                "strike_back",
                {"seat": victim.seat, "unit": victim.id, "target": label(attacker.square)},
            )
        )
        _damage(state, attacker, 1, events, victim)


def _in_attack_range(state: ApeironState, unit: UnitState, other_unit: UnitState) -> bool:
    assert unit.square is not None and other_unit.square is not None
    reach = attack_range(state, unit)
    if reach == 1:
        return fld.adjacent(unit.square, other_unit.square)
    if fld.direction(unit.square, other_unit.square) is None:
        return False
    distance = max(
        abs(unit.square[0] - other_unit.square[0]), abs(unit.square[1] - other_unit.square[1])
    )
    return distance <= reach and not any(
        obstacle(state, s) for s in fld.between(unit.square, other_unit.square)
    )


def _end_activation(state: ApeironState, seat: str, events: list[Event]) -> None:
    unit = acting_unit(state)
    state.step, state.pick, state.pending_move = PLAY, None, None
    if unit.alive and unit.hp <= 0:
        _dies(state, unit, events)  # brought to 0 by a cost: removed now
    elif unit.alive:
        _fire_timed(state, unit, "end", events)
    state.last[seat] = unit.order
    # the marker moves past the acting unit
    count = len(state.units[seat])
    state.marker[seat] = unit.order % count + 1
    state.gravity = False
    state.half = 1 - state.half
    if _annihilation(state, events):
        return
    _extra_turn(state, seat, events)
    if state.ended is None and state.half == 0:
        limit = state.options.get("turn_limit")
        if limit is not None and state.turn >= int(limit):
            _tie_break(state, "turn_limit", events)


def _annihilation(state: ApeironState, events: list[Event]) -> bool:
    empty = [s for s in SEATS if not living(state, s)]
    if not empty:
        return False
    if len(empty) == 2:
        _tie_break(state, "annihilation", events)
    else:
        _finish(state, other(empty[0]), "annihilation", events)
    return True


def _extra_turn(state: ApeironState, seat: str, events: list[Event]) -> None:
    """``extra[s]``: the game turn that is count turn 1 for seat ``s`` (None: no count). The game
    turn a player drops to one unit is count turn 1; damage that unit deals to an enemy makes the
    next game turn count turn 1; at the end of its activation in count turn 3 its player loses."""
    for s in SEATS:
        if len(living(state, s)) != 1:
            state.extra[s] = None
            state.extra_hit[s] = False
            continue
        if state.extra[s] is None:
            state.extra[s] = state.turn
            events.append(Event("extra_turn", {"seat": s, "count": 1}))
        if state.extra_hit[s]:
            state.extra_hit[s] = False
            state.extra[s] = state.turn + 1
            events.append(Event("extra_turn_reset", {"seat": s}))
    base = state.extra[seat]
    if base is not None and state.turn - base + 1 >= 3:
        events.append(Event("extra_turn_lost", {"seat": seat}))
        _finish(state, other(seat), "extra_turn", events)


def extra_count(state: ApeironState, seat: str) -> int | None:
    """The seat's extra-turn count turn now (None: no count running)."""
    base = state.extra[seat]
    return None if base is None else max(state.turn - base + 1, 1)


def _tie_break(state: ApeironState, reason: str, events: list[Event]) -> None:
    """More surviving units, then more total H, then the first player."""
    alive = {s: len(living(state, s)) for s in SEATS}
    hp = {s: sum(u.hp for u in living(state, s)) for s in SEATS}
    if alive["A"] != alive["B"]:
        winner, by = max(SEATS, key=alive.__getitem__), "units"
    elif hp["A"] != hp["B"]:
        winner, by = max(SEATS, key=hp.__getitem__), "hp"
    else:
        winner, by = state.first or "A", "first"
    events.append(Event("tie_break", {"units": alive, "hp": hp, "by": by, "seat": winner}))
    _finish(state, winner, reason, events)


def _finish(state: ApeironState, winner: str, reason: str, events: list[Event]) -> None:
    state.ended, state.winner, state.step, state.open = reason, winner, OVER, False
    events.append(Event("chests_revealed", {s: list(state.chest.get(s, [])) for s in SEATS}))
    events.append(Event("end", {"seat": winner, "reason": reason}))


def adjudicate(state: ApeironState) -> tuple[ApeironState, list[Event]]:
    if state.ended is not None:
        raise RuleError("apeiron.error.finished")
    state = copy.deepcopy(state)
    events: list[Event] = []
    _tie_break(state, "adjudicated", events)
    return state, _named(state, events)


def resign(state: ApeironState, seat: str) -> tuple[ApeironState, list[Event]]:
    if state.ended is not None:
        raise OrderRejected(R_FINISHED)
    state = copy.deepcopy(state)
    events = [Event("resigned", {"seat": seat})]
    _finish(state, other(seat), "resign", events)
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
        for preset in state.pack.presets[:PRESET_BUTTONS]:
            for card_id in (*preset.units, *preset.chest):
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
    "start_turn",
    "step_label",
    "step_seconds",
    "summary",
    "to_json",
    "turn",
    "unit_at",
    "view",
    "withheld",
    "zone_open",
]
