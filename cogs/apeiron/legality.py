"""Apeiron's legality: what a seat may order now, and the checks an order meets when it is
submitted.

Where a unit may move (the squares it may end on and the path the engine walks to each; a path
typed square by square), an order checked whole (:func:`check_play`: each part on the board the
earlier parts leave, played on a copy with :mod:`.effects`; a draw is not simulated, its card
being secret), an option's number, an action's targets (against :mod:`.targets`), and the actions
worth a button or the demo AI's try. It reads :mod:`.state`, :mod:`.orders`, :mod:`.targets` and
:mod:`.effects`; :func:`.rules.parse` reads a text with the grammar, then checks it here.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from bot.render.squaregrid import label
from bot.ruleset import OrderRejected
from cogs.apeiron import field as fld
from cogs.apeiron import pack as packlib
from cogs.apeiron.effects import do_action, option_list, walk_path
from cogs.apeiron.field import Square
from cogs.apeiron.orders import Action, OptionOrder, PlayOrder, RawPlay
from cogs.apeiron.state import (
    R_ARGS,
    R_ARROW,
    R_BLOCKED,
    R_CHANCE_USED,
    R_CHEST_EMPTY,
    R_NO_PATH,
    R_NO_TREASURE,
    R_NOT_BOXED,
    R_NOTHING,
    R_OPTION,
    R_PICK,
    R_SAME_SQUARE,
    R_STEP,
    R_STOP,
    R_TOO_FAR,
    R_WHEN,
    ApeironState,
    UnitState,
    acting_unit,
    all_units,
    flying,
    kind_at,
    move_points,
    occupied,
    off_field,
    poisoned,
    star_ability,
    unit_card,
    zone_item,
)
from cogs.apeiron.targets import attack_victim, pieces

# --- where a unit may move -----------------------------------------------------------------------


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


def move_legal(state: ApeironState, unit: UnitState, path: Sequence[Square]) -> bool:
    try:
        if not path:
            return boxed_in(state, unit)
        _check_path(state, unit, path)
    except OrderRejected:
        return False
    return True


# --- an order checked at submission --------------------------------------------------------------


def check_option(state: ApeironState, order: OptionOrder) -> OptionOrder:
    """The number is one of the ``option`` step's list (:func:`option_list`)."""
    if not 1 <= order.number <= len(option_list(state)):
        raise OrderRejected(R_OPTION, count=len(option_list(state)))
    return order


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
        do_action(trial, seat, unit, raw.action, [], trial_run=True)
        if not unit.alive or trial.ended is not None:
            return PlayOrder(() if raw.only_end else raw.path, raw.facing, raw.action, True)
    path = _resolve_path(trial, unit, raw)
    end = path[-1] if path else unit.square
    assert end is not None
    forced = fld.arrow(trial.pack, trial.field, end)
    if forced is not None and raw.facing not in (None, forced):
        raise OrderRejected(R_ARROW, facing=forced)
    if raw.action is not None and not raw.action_first:
        walk_path(trial, unit, path, raw.facing, [])
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


# --- the actions worth offering ------------------------------------------------------------------


def action_candidates(
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
