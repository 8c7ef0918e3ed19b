"""Esper war: a normal turn's orders, read and checked (``../shared/rules/esper.md``).

The words (English and Japanese), the grammar of a turn's order (``[check uses;] [supports;]
main[; supports after the square; end|fight]``) and the checks that refuse what the rules forbid
now, at submission (on a copy of the state: :func:`parse_turn`'s dry run) and again when an
action's time comes (:func:`check_action`). The setup's and a combat's orders have their own
modules (:mod:`.setup`, :mod:`.combat`), which read words with these helpers.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Sequence

from bot.ruleset import Event, OrderRejected
from cogs.esper import base as base_stage
from cogs.esper.effects import do_support, recover, use
from cogs.esper.pack import D1_EFFECTS, Ability
from cogs.esper.state import (
    BASE_STAGE,
    R_ABILITY,
    R_AFTER_DECLARE,
    R_CHECK_FIRST,
    R_CONVERT_SPECIAL,
    R_CONVERT_TRIED,
    R_COST,
    R_DEAD,
    R_DECLARED,
    R_EMPTY,
    R_FIGHT,
    R_MOVE,
    R_NO_MAIN,
    R_PARTY,
    R_PLANET,
    R_SAME_SPOT,
    R_SEAT,
    R_SELF,
    R_SOLO,
    R_SPECIAL_DECLARE,
    R_TARGET,
    R_TELEPORT,
    R_TIMING,
    R_TWO_MAINS,
    R_UNKNOWN,
    R_USED,
    RAFNOR,
    SPECIAL,
    TURN,
    Action,
    EsperOrder,
    EsperState,
    abilities_of,
    mind,
    ring,
    sheet_of,
    spot_name,
)

SUPPORTS = ("open", "convert", "use", "declare", "declare-solo")
MAINS = ("move", "teleport", "recover", "treat", "party", "use", "pass", "infiltrate")
ENDS = ("end", "fight")

# Japanese words (and a few English spellings) -> the canonical English words.
WORDS = {
    "確定": "keep",
    "拒否": "refuse",
    "直前拒否": "refuse-last",
    "refuse_last": "refuse-last",
    "refuselast": "refuse-last",
    "シルエット": "silhouette",
    "待ち伏せ": "ambush",
    "担当": "runner",
    "開始": "start",
    "公開": "open",
    "改心": "convert",
    "テレポート": "teleport",
    "移動": "move",
    "左": "left",
    "右": "right",
    "回復": "recover",
    "耐久力": "durability",
    "精神力": "mind",
    "治療": "treat",
    "パーティー": "party",
    "パーティ": "party",
    "使用": "use",
    "パス": "pass",
    "終了": "end",
    "戦闘": "fight",
    "勝利宣言": "declare",
    "単独勝利宣言": "declare-solo",
    "declare_solo": "declare-solo",
    "反対": "object",
    "賛成": "accept",
    "参加": "join",
    "辞退": "decline",
    "閲覧": "see",
    "なし": "none",
    "重要拠点": "keys",
    "配置": "place",
    "侵入": "infiltrate",
}


def normal(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).strip()
    return text


def tokens(part: str) -> list[str]:
    part = re.sub(r"惑星\s*([1-6])", r"P\1", part)
    words = []
    for raw in part.split():
        low = raw.lower()
        word = WORDS.get(raw, WORDS.get(low, low))
        words.append(word)
    return words


def parts_of(text: str) -> list[list[str]]:
    text = normal(text)
    if not text:
        raise OrderRejected(R_EMPTY)
    parts = [p for p in re.split(r"[;\n、]", text) if p.strip()]
    return [tokens(p) for p in parts]


def seat_word(state: EsperState, word: str) -> str:
    seat = word.upper()
    if seat not in state.seats:
        raise OrderRejected(R_SEAT, seat=word)
    return seat


def planet_word(word: str) -> str:
    m = re.fullmatch(r"p([1-6])(-0)?", word.lower())
    if not m:
        raise OrderRejected(R_PLANET, planet=word)
    return f"P{m.group(1)}"


def single(parts: list[list[str]], allowed: Sequence[str]) -> EsperOrder:
    if len(parts) != 1 or len(parts[0]) != 1 or parts[0][0] not in allowed:
        raise OrderRejected(R_UNKNOWN, text=" ".join(w for p in parts for w in p)[:40])
    return EsperOrder((Action(parts[0][0]),))


def parse_action(state: EsperState, seat: str, words: list[str]) -> Action:
    verb, args = words[0], words[1:]
    if verb in ("open", "declare", "declare-solo", "pass", "end", "fight") and not args:
        return Action(verb)
    if verb == "convert" and len(args) == 1:
        return Action(verb, (seat_word(state, args[0]),))
    if verb == "treat" and len(args) == 1:
        return Action(verb, (seat_word(state, args[0]),))
    if verb == "party" and args:
        return Action(verb, tuple(dict.fromkeys(seat_word(state, a) for a in args)))
    if state.stage == BASE_STAGE:
        if verb == "move" and len(args) == 1:
            return Action(verb, (base_stage.spot_word(args[0]),))
        if verb == "teleport" and len(args) in (1, 2) and args[0].isdigit():
            path = [">".join(base_stage.path_word(args[1]))] if len(args) == 2 else []
            return Action(verb, (args[0], *path))
        if verb == "infiltrate" and len(args) <= 1:
            return Action(verb, tuple(base_stage.spot_word(a) for a in args))
    if verb == "move" and len(args) == 1:
        if args[0] in ("left", "right"):
            return Action(verb, (args[0],))
        return Action(verb, (planet_word(args[0]),))
    if verb == "teleport" and len(args) in (1, 2) and args[0].isdigit():
        if len(args) == 2 and args[1] not in ("left", "right"):
            raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])
        return Action(verb, tuple(args))
    if verb == "recover" and len(args) == 1 and args[0] in ("durability", "mind"):
        return Action(verb, (args[0],))
    if verb == "use" and len(args) in (1, 2):
        ability = args[0].lower()
        if len(args) == 1:
            return Action(verb, (ability,))
        target = args[1]
        if re.fullmatch(r"p[1-6](-0)?", target.lower()):
            return Action(verb, (ability, planet_word(target)))
        return Action(verb, (ability, seat_word(state, target)))
    raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])


def parse_turn(state: EsperState, seat: str, parts: list[list[str]]) -> EsperOrder:
    """``[check uses;] [supports;] main[; supports after the square; end|fight]`` in the
    ``turn`` step; ``[supports;] end|fight`` in the ``after`` step. ``declare`` ends an order:
    what follows waits for the answers. [check] abilities fire only when ordered, at the head
    of the turn's first order; an order of those alone is played in the check phase and the
    ``turn`` step opens again for the rest."""
    actions = [parse_action(state, seat, words) for words in parts if words]
    if not actions:
        raise OrderRejected(R_EMPTY)
    checks = 0
    while checks < len(actions) and is_check_use(state, seat, actions[checks]):
        checks += 1
    for action in actions[checks:]:
        if is_check_use(state, seat, action):
            raise OrderRejected(R_CHECK_FIRST, ability=action.args[0])
    if checks and not check_phase(state, seat):
        raise OrderRejected(R_CHECK_FIRST, ability=actions[0].args[0])
    if checks == len(actions):
        _dry_run(state, seat, actions)
        return EsperOrder(tuple(actions))
    phase = "before" if state.step == TURN else "after"
    for index, action in enumerate(actions[checks:], start=checks):
        if phase == "done":
            raise OrderRejected(R_UNKNOWN, text=action.text()[:40])
        if action.verb in ("declare", "declare-solo") and index != len(actions) - 1:
            raise OrderRejected(R_AFTER_DECLARE)
        if action.verb in ENDS:
            if phase == "before":
                raise OrderRejected(R_NO_MAIN)
            phase = "done"
        elif action.verb == "use" and not is_main(state, seat, action):
            pass  # a support (what the ability allows is checked below)
        elif action.verb == "use" and phase == "before":
            phase = "after"
        elif action.verb in MAINS:
            if phase != "before":
                raise OrderRejected(R_TWO_MAINS)
            phase = "after"
        elif action.verb not in SUPPORTS:
            raise OrderRejected(R_UNKNOWN, text=action.text()[:40])
    if phase == "before" and actions[-1].verb not in ("declare", "declare-solo"):
        raise OrderRejected(R_NO_MAIN)
    _dry_run(state, seat, actions)
    return EsperOrder(tuple(actions))


def _dry_run(state: EsperState, seat: str, actions: Sequence[Action]) -> None:
    """Check the whole order when it is sent, on a copy of the state, so that a refusal goes to
    its seat alone (esper.md, What the channel may depend on): the supports before the main
    action and the main action itself fully; what follows the main action against all but
    where the pieces will stand (the roll and the square decide that, in public). Nothing is
    then skipped in public for a private reason (a sheet that cannot convert or declare, the
    mind it lacks, an ability not held or not of that timing); what the move changes (a target
    no longer on the spot) may still be, for all to see."""
    trial = copy.deepcopy(state)
    events: list[Event] = []
    phase = "before" if state.step == TURN else "after"
    main = state.pending.get("main")  # the ``after`` step: the turn's main action, played
    for action in actions:
        if action.verb in ENDS:
            if action.verb == "fight" and main not in ("move", "teleport", "pass"):
                raise OrderRejected(R_FIGHT)
            return
        main_now = phase == "before" and is_main(trial, seat, action)
        check_action(trial, seat, action, main=main_now, situational=phase != "planned")
        if main_now:
            main, phase = action.verb, "planned"
            _main_effects(trial, seat, action, events)
            continue
        do_support(trial, seat, action, _NoRolls(), events)


def _main_effects(state: EsperState, seat: str, action: Action, events: list[Event]) -> None:
    """What a main action does to the seat's own sheet, for the dry run of what follows it: the
    mind and ESP power an ability costs (and its card spent), a recovery."""
    if action.verb == "use":
        ability = abilities_of(state, seat)[action.args[0]]
        target = action.args[1] if len(action.args) > 1 else None
        use(state, seat, ability, target, _NoRolls(), events)
    elif action.verb == "recover":
        recover(state, seat, action.args[0], 1, events)


class _NoRolls:
    """The dice of a dry run and of rolls nobody sees: an order is checked on a copy of the
    state, before anything is rolled (every die shows its highest face), and what the dry run
    rolls is thrown away with the copy."""

    def __init__(self) -> None:
        self.rolls: list[int] = []

    def roll(self, sides: int) -> int:
        return sides


def is_check_use(state: EsperState, seat: str, action: Action) -> bool:
    """``use ID`` of a [check] ability (the check phase's, never fired unordered)."""
    if action.verb != "use":
        return False
    ability = abilities_of(state, seat).get(action.args[0])
    return ability is not None and ability.timing == "check"


def check_phase(state: EsperState, seat: str) -> bool:
    """Whether the seat's check phase is still to come: its normal turn has opened and no order
    of it has been played yet (a declaration's answers, or a check-phase order, end it)."""
    return state.step == TURN and state.active == seat and not state.pending.get("checked")


def is_main(state: EsperState, seat: str, action: Action) -> bool:
    if action.verb == "use":
        ability = abilities_of(state, seat).get(action.args[0])
        return ability is not None and ability.timing == "main"
    return action.verb in MAINS


def check_action(
    state: EsperState, seat: str, action: Action, *, main: bool, situational: bool = True
) -> None:
    """Refuse what the rules forbid now. ``situational`` False: a support planned after the
    main action, checked at submission against all but where the pieces stand (the spot, who
    shares it, who is around the base), which the main action and the square may change."""
    s = state.seats[seat]
    verb, args = action.verb, action.args
    outside = s.outside and situational  # an infiltration may take it in before it acts
    if outside and verb not in ("infiltrate", "recover", "pass", "open", "declare"):
        raise OrderRejected(base_stage.R_OUTSIDE)  # around the base: infiltrate or recover
    if verb == "infiltrate":
        base_stage.check_infiltrate(state, seat, args)
        return
    if state.stage == BASE_STAGE and verb == "move":
        base_stage.move_target(state, seat, args[0])
        return
    if verb == "convert":
        target = args[0]
        if situational:
            _same_spot(state, seat, target)
        elif target == seat:
            raise OrderRejected(R_SELF)
        if not sheet_of(state, seat).can_convert:
            raise OrderRejected(R_CONVERT_SPECIAL)
        if s.alignment in state.seats[target].tried_by:
            raise OrderRejected(R_CONVERT_TRIED, seat=target)
    elif verb == "declare":
        if s.alignment == SPECIAL:  # "SPECIALキャラクターはアライメントの勝利宣言を行えない" (3.3)
            raise OrderRejected(R_SPECIAL_DECLARE)
        # once a turn; again on a later turn of its own, once its objectors are dealt with
        # (seed 3.3: "自分の勝利宣言に反対するものを処理していくことになる")
        if state.pending.get("declared"):
            raise OrderRejected(R_DECLARED)
    elif verb == "declare-solo":
        if state.pending.get("declared"):
            raise OrderRejected(R_DECLARED)
        if s.alignment != SPECIAL:
            raise OrderRejected(R_SOLO)
        others = [o for o in state.order if o != seat]
        if any(state.seats[o].alive and not state.seats[o].black_hole for o in others):
            raise OrderRejected(R_SOLO)
    elif verb == "use":
        _check_use(state, seat, action, main=main, situational=situational)
    elif verb == "move":
        move_target(state, seat, args[0])
    elif verb == "teleport":
        n = int(args[0])
        if not 1 <= n <= sheet_of(state, seat).esp:
            raise OrderRejected(R_TELEPORT, esp=sheet_of(state, seat).esp)
        if s.spot == RAFNOR:
            raise OrderRejected(R_MOVE)
        if len(args) == 2 and state.stage == BASE_STAGE:
            path = base_stage.path_word(args[1])
            if s.spot is None or not base_stage.path_ok(s.spot, path):
                raise OrderRejected(base_stage.R_PATH, n=len(path))
    elif verb == "treat":
        _same_spot(state, seat, args[0])
    elif verb == "party":
        for target in args:
            _same_spot(state, seat, target)
            own = s.party
            if state.seats[target].party is not None and state.seats[target].party != own:
                raise OrderRejected(R_PARTY, seat=target)
            if own is not None and state.seats[target].party == own:
                raise OrderRejected(R_PARTY, seat=target)


def _same_spot(state: EsperState, seat: str, target: str) -> None:
    if target == seat:
        raise OrderRejected(R_SELF)
    other = state.seats[target]
    if not other.alive:
        raise OrderRejected(R_DEAD, seat=target)
    if other.spot is None or other.spot != state.seats[seat].spot:
        raise OrderRejected(R_SAME_SPOT, seat=target)


def move_target(state: EsperState, seat: str, where: str) -> str:
    spot = state.seats[seat].spot
    assert spot is not None
    if spot == RAFNOR:
        if where in ("left", "right"):
            raise OrderRejected(R_MOVE)
        return f"{where}-0"
    planet, index = ring(spot) or (0, 0)
    if where == "left":
        return spot_name(planet, index - 1)
    if where == "right":
        return spot_name(planet, index + 1)
    if index != 0 or where == f"P{planet}":
        raise OrderRejected(R_MOVE)
    return f"{where}-0"


def _check_use(
    state: EsperState, seat: str, action: Action, *, main: bool, situational: bool = True
) -> Ability:
    ability = abilities_of(state, seat).get(action.args[0])
    if ability is None:
        raise OrderRejected(R_ABILITY, ability=action.args[0])
    timings = ("main",) if main else ("support", "check")  # a check's place: parse_turn
    if ability.timing not in timings or ability.effect not in D1_EFFECTS:
        raise OrderRejected(R_TIMING, ability=ability.id)
    if ability.id in state.seats[seat].used:
        raise OrderRejected(R_USED, ability=ability.id)
    if ability.cost_mind > mind(state, seat):
        raise OrderRejected(R_COST, ability=ability.id)
    if ability.cost_power > sheet_of(state, seat).power - state.seats[seat].power_lost:
        raise OrderRejected(R_COST, ability=ability.id)
    target = action.args[1] if len(action.args) > 1 else None
    effect = ability.effect
    if effect == "to_spaceport":
        if target is None or not target.startswith("P"):
            raise OrderRejected(R_TARGET, ability=ability.id)
    elif effect == "free":
        if target is None or target not in state.seats:
            raise OrderRejected(R_TARGET, ability=ability.id)
        if situational and not state.seats[target].black_hole:
            raise OrderRejected(R_TARGET, ability=ability.id)
    elif effect == "peek" or (effect == "recover" and ability.target == "spot"):
        if target is None or target not in state.seats:
            raise OrderRejected(R_TARGET, ability=ability.id)
        if situational:
            _same_spot(state, seat, target)
    elif target is not None:
        raise OrderRejected(R_TARGET, ability=ability.id)
    return ability
