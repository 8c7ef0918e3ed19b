"""Esper war (``../shared/rules/esper.md``): the deal, the silhouettes, the planet stage (D1),
ESP combat and the secret base (D2), for 5–11 players with hidden alignments.

This module is the engine (:class:`bot.ruleset.Engine` over :class:`EsperState` and
:class:`EsperOrder`): the framework's calls, each step's orders read and resolved by the module
that plays it, the views and the storage. Pure: no discord, no storage, no clock; hidden random
facts (the deals, the 52-card deck, the planet layout, the ability deck) come from the game's
secret stream, public rolls (ESP level checks, teleports, the first player) from each step's
resolve stream.

It is built of modules that each import only those listed before them (no import cycle):

- :mod:`.state`: the types (:class:`EsperState`, :class:`EsperOrder`, …), the words (steps,
  stages, sides, refusal keys) and the small reads every other module makes;
- :mod:`.effects`: what an action or a card does (a move, damage, an ESP level check, an ability);
- :mod:`.base`: the secret base (D2): its field, its set-up steps, its moves and squares;
- :mod:`.orders`: a normal turn's orders, read and checked;
- :mod:`.combat`: an ESP combat's steps, orders and views (D2); :mod:`.combat_play` plays it out;
- :mod:`.turns`: the normal turns, the planet stage's end and the game's, with the grades;
- :mod:`.opening`: the set-up, from the deal to the first turn;
- this module, over them all. Its users (the spec, the AI, the presenter's tests) name the
  engine's types, words and reads through it (:data:`__all__`).

One framework step is one of these (``state.step``):

- ``deal``: every seat (then only the ``refuse-last`` ones) answers ``keep``, ``refuse`` or
  ``refuse-last``;
- ``silhouette``, ``repick``: secret picks, revealed together; of the same picks one keeps
  it (bound by an Ace, else drawn), the others pick again;
- ``balance``, ``balance_card``: the larger side may change, then must follow a new playing card;
- ``start``: ambush votes (EVIL silhouettes, withheld) and start planets (the others);
- ``turn``: the active seat's supports and main action (and, optionally, what it does after the
  square: ``…; end``); ``direction`` after a successful teleport without one; ``party`` for the
  named characters' answers; ``after`` for the supports after the square and ``end``;
- ``objection``: every other living character answers a declaration;
- ``see``: at the stage's end, info holders choose EVIL silhouettes' sheets to see (withheld);
- ``over``.

A combat's steps are :mod:`cogs.esper.combat`'s, the base's set-up steps and a teleport's
``path`` :mod:`cogs.esper.base`'s; the base's turns are ``turn`` steps like the planets'.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot import packs
from bot.dice import NO_SECRET, Dice, DiceError
from bot.ruleset import (
    Choice,
    ChoiceGroup,
    Event,
    OrderRejected,
    Outcome,
    RuleError,
    StateError,
    closed_step,
)
from cogs.esper import base as base_stage
from cogs.esper import combat as combats
from cogs.esper import pack as packlib
from cogs.esper.opening import (
    allowed_silhouettes,
    check_deal,
    deal,
    default_silhouette,
    draw_defaults,
    parse_silhouette,
    parse_start,
    resolve_balance,
    resolve_deal,
    resolve_silhouettes,
    resolve_start,
)
from cogs.esper.orders import (
    ENDS,
    MAINS,
    SUPPORTS,
    WORDS,
    check_phase,
    normal,
    parse_turn,
    parts_of,
    seat_word,
    single,
)
from cogs.esper.pack import Ability, Pack
from cogs.esper.state import (
    ADJUDICATED,
    AFTER,
    ALL_DOWN,
    BALANCE,
    BALANCE_CARD,
    BASE_STAGE,
    DEAL,
    DECLARED,
    DEFENDER,
    DIRECTION,
    E_OPTION,
    E_PLAYERS,
    EVIL,
    EVIL_SURVIVAL,
    EVIL_SURVIVAL_TURNS,
    GOOD,
    INFO_TO_END,
    INVADER,
    KEYS_DESTROYED,
    OBJECTION,
    OVER,
    PARTY,
    PLANET_STAGE,
    PLANETS,
    PLAYER_COUNTS,
    R_ABILITY,
    R_ACE,
    R_AFTER_DECLARE,
    R_CHECK_FIRST,
    R_CONVERT_SPECIAL,
    R_CONVERT_TRIED,
    R_COST,
    R_DEAD,
    R_DECLARED,
    R_EMPTY,
    R_FIGHT,
    R_FIGHT_ALONE,
    R_FINISHED,
    R_FULL,
    R_KEEP_CARD,
    R_MOVE,
    R_NO_MAIN,
    R_NOT_NOW,
    R_PARTY,
    R_PLANET,
    R_REFUSE_LAST,
    R_REFUSE_SEASON,
    R_REFUSE_USED,
    R_RUNNER,
    R_SAME_SPOT,
    R_SEAT,
    R_SEE,
    R_SELF,
    R_SILHOUETTE,
    R_SOLO,
    R_SPECIAL_DECLARE,
    R_SPOT,
    R_TAKEN,
    R_TARGET,
    R_TELEPORT,
    R_TEN,
    R_TIMING,
    R_TWO_MAINS,
    R_UNKNOWN,
    R_USED,
    RAFNOR,
    RANKS,
    REPICK,
    RING,
    SEATS,
    SEE,
    SETUP_STEPS,
    SILHOUETTE,
    SOLO,
    SPECIAL,
    SPENT,
    STAGE_END,
    START,
    SUITS,
    TURN,
    TURN_LIMIT,
    TURN_STEPS,
    Action,
    Combat,
    EsperOrder,
    EsperState,
    SeatState,
    Streams,
    abilities_of,
    can_act,
    card_spots,
    check_bonus,
    composition,
    durability,
    history,
    key_here,
    living,
    mind,
    party_info,
    party_members,
    rank,
    ring,
    secret_of,
    sheet_of,
    side_of,
    sides,
    spot_name,
)
from cogs.esper.turns import (
    all_down,
    base_step,
    combat_step,
    defeated,
    finish,
    land_on_path,
    next_turn,
    open_base,
    resolve_objection,
    resolve_party,
    resolve_see,
    run_after,
    run_turn,
    square_then_after,
    teleport_land,
    withdraw,
)

# The engine's public names: its own (what the spec calls), then what its users (the AI, the
# presenter, the cog, the tests) name through ``rules`` from the modules it is built of.
__all__ = [
    "ADJUDICATED",
    "AFTER",
    "ALL_DOWN",
    "ANSWERS",
    "BALANCE",
    "BALANCE_CARD",
    "BASE_STAGE",
    "DEAL",
    "DECLARED",
    "DEFAULT_MINUTES",
    "DEFAULT_OBJECTION_MINUTES",
    "DEFAULT_REACTION_MINUTES",
    "DEFENDER",
    "DIRECTION",
    "EVIL",
    "EVIL_SURVIVAL",
    "EVIL_SURVIVAL_TURNS",
    "E_OPTION",
    "E_PLAYERS",
    "GOOD",
    "INFO_TO_END",
    "INVADER",
    "KEYS_DESTROYED",
    "MAINS",
    "MAX_MINUTES",
    "OBJECTION",
    "OPTION_KEYS",
    "OVER",
    "PARTY",
    "PLANETS",
    "PLANET_STAGE",
    "PLAYER_COUNTS",
    "RAFNOR",
    "RANKS",
    "REPICK",
    "RING",
    "R_ABILITY",
    "R_ACE",
    "R_AFTER_DECLARE",
    "R_CHECK_FIRST",
    "R_CONVERT_SPECIAL",
    "R_CONVERT_TRIED",
    "R_COST",
    "R_DEAD",
    "R_DECLARED",
    "R_EMPTY",
    "R_FIGHT",
    "R_FIGHT_ALONE",
    "R_FINISHED",
    "R_FULL",
    "R_KEEP_CARD",
    "R_MOVE",
    "R_NOT_NOW",
    "R_NO_MAIN",
    "R_PARTY",
    "R_PLANET",
    "R_REFUSE_LAST",
    "R_REFUSE_SEASON",
    "R_REFUSE_USED",
    "R_RUNNER",
    "R_SAME_SPOT",
    "R_SEAT",
    "R_SEE",
    "R_SELF",
    "R_SILHOUETTE",
    "R_SOLO",
    "R_SPECIAL_DECLARE",
    "R_SPOT",
    "R_TAKEN",
    "R_TARGET",
    "R_TELEPORT",
    "R_TEN",
    "R_TIMING",
    "R_TWO_MAINS",
    "R_UNKNOWN",
    "R_USED",
    "SCHEMA_VERSION",
    "SEATS",
    "SEE",
    "SETUP_STEPS",
    "SILHOUETTE",
    "SOLO",
    "SPECIAL",
    "SPENT",
    "STAGE_END",
    "START",
    "SUITS",
    "TURN",
    "TURN_LIMIT",
    "TURN_STEPS",
    "Action",
    "Combat",
    "EsperOrder",
    "EsperState",
    "SeatState",
    "Streams",
    "abilities_of",
    "ability_info",
    "adjudicate",
    "allowed_silhouettes",
    "awaiting",
    "can_act",
    "card_spots",
    "check_bonus",
    "check_options",
    "check_phase",
    "choices",
    "composition",
    "default_order",
    "default_silhouette",
    "defeated",
    "durability",
    "from_json",
    "history",
    "key_here",
    "living",
    "main_choices",
    "mind",
    "names_of",
    "new_game",
    "outcome",
    "parse",
    "party_info",
    "party_members",
    "post_group",
    "rank",
    "reads_as",
    "resign",
    "resolve",
    "ring",
    "secret_of",
    "sheet_info",
    "sheet_of",
    "side_of",
    "sides",
    "spot_name",
    "start_step",
    "step_label",
    "step_number",
    "step_seconds",
    "summary",
    "to_json",
    "view",
    "withheld",
]

SCHEMA_VERSION = 1
DEFAULT_MINUTES = 10
DEFAULT_OBJECTION_MINUTES = 3
# A combat's reactions (sync, block, defence, [戦闘前]) ask every eligible seat, card or not: a
# short deadline of their own keeps a round moving (README, Esper war: how long a round takes).
DEFAULT_REACTION_MINUTES = 3
# The longest a step or an answer may be given (a week): play-by-post servers count in hours
# (``/config deadlines``), and an objection window may be as long as a step.
MAX_MINUTES = 10080


# --- options and a new game ----------------------------------------------------------------------


def _pack_of(options: Mapping[str, Any]) -> Pack:
    return packs.from_options(options, packlib.sample, packlib.from_json, E_OPTION)


OPTION_KEYS = (
    "pack",
    "pack_hash",
    "minutes",
    "objection_minutes",
    "reaction_minutes",
    "history",
    "turn_limit",
    "players",
    "season",
    "league",  # a league match's league id: read by the league, nothing in play
)


def check_options(options: Mapping[str, Any]) -> None:
    """A record's options are any JSON: every option this engine reads later is checked here,
    shape included (``history`` of the wrong shape once crashed verify and replay)."""
    for key in options:
        if key not in OPTION_KEYS:
            raise RuleError(E_OPTION, option=str(key)[:32], value="?")
    for key, low, high in (
        ("minutes", 1, MAX_MINUTES),
        ("objection_minutes", 1, MAX_MINUTES),
        ("reaction_minutes", 1, MAX_MINUTES),
        ("turn_limit", 0, None),
        ("players", 0, None),
        ("season", 1, None),
    ):
        value = options.get(key)
        if value is not None and (
            not isinstance(value, int)
            or isinstance(value, bool)
            or value < low
            or (high is not None and value > high)
        ):
            raise RuleError(E_OPTION, option=key, value=str(value)[:16])
    history = options.get("history", {})
    if not isinstance(history, Mapping):
        raise RuleError(E_OPTION, option="history", value="?")
    for seat, entry in history.items():
        if not _history_entry(entry):
            raise RuleError(E_OPTION, option="history", value=str(seat)[:16])
    pack = _pack_of(options)
    players = options.get("players")
    if players is not None:
        reason = packlib.dealable(pack, players)
        if reason is not None:
            raise RuleError(reason, players=players)


def _history_entry(entry: Any) -> bool:
    """One seat's ``history`` as the cog writes it (cog.build_history): ``{"season": [sheet
    ids], "previous": a sheet id or null}``; none at all reads as empty (:func:`history`)."""
    if entry is None:
        return True
    if not isinstance(entry, Mapping):
        return False
    season, previous = entry.get("season"), entry.get("previous")
    listed = season is None or (
        isinstance(season, list) and all(isinstance(sheet, str) for sheet in season)
    )
    return listed and (previous is None or isinstance(previous, str))


def new_game(
    game_id: str,
    seats: Sequence[str],
    options: Mapping[str, Any],
    dice: Dice,
    secret: Dice,
) -> EsperState:
    seats = list(seats)
    if len(seats) not in PLAYER_COUNTS or seats != list(SEATS[: len(seats)]):
        raise RuleError(E_PLAYERS, players=len(seats))
    options = dict(options or {})
    check_options({**options, "players": len(seats)})
    pack = _pack_of(options)
    state = EsperState(str(game_id), pack, options, seats, {s: SeatState() for s in seats})
    deal(state, secret, [])
    state.waiting = list(seats)
    return state


# --- the framework's calls -----------------------------------------------------------------------


def step_number(state: EsperState) -> int:
    return state.steps


def step_label(state: EsperState) -> str:
    if state.step in (*SETUP_STEPS, OVER, SEE, base_stage.KEYS, base_stage.PLACE):
        return state.step
    if state.combat is not None and state.step in combats.STEPS:
        who = ",".join(state.waiting[:3])
        return (
            f"turn {state.turn + 1} {state.active} combat {state.combat.round} {state.step} {who}"
        )
    if state.step == OBJECTION:
        return f"turn {state.turn + 1} {state.active} objection"
    if state.step == TURN:
        return f"turn {state.turn + 1} {state.active}"
    return f"turn {state.turn + 1} {state.active} {state.step}"


def awaiting(state: EsperState) -> list[str]:
    if not state.open or state.ended is not None:
        return []
    return [s for s in state.waiting if not state.seats[s].resigned]


def withheld(state: EsperState, seat: str) -> bool:
    """Ambush votes and the info holders' views stay private (only their receipts are public)."""
    if state.step == START:
        return side_of(state, seat) == DEFENDER
    if state.step in combats.STEPS:
        return combats.withheld(state, seat)
    return state.step in (SEE, base_stage.KEYS)


# The steps of one normal turn that wait on its active seat alone (esper.md, Stage 1: the
# turn, a teleport's direction or path, after the square).
ONE_SEAT_STEPS = (TURN, AFTER, DIRECTION, base_stage.PATH)


def post_group(state: EsperState) -> str | None:
    """One channel post per combat round: its steps (the entries, each combat turn, sync,
    defence and block) edit the post the round began with. Likewise one post per normal turn:
    the steps that wait on its active seat alone, one after another (its check phase, the turn,
    the teleport's direction or path, after the square), edit the post the turn began with.
    Only public facts name the group (the step, the active seat, the turns played)."""
    combat = state.combat
    if combat is not None:
        return f"combat {combat.number} round {combat.round}"
    if state.step in ONE_SEAT_STEPS and state.active is not None:
        return f"turn {state.turn} {state.active}"
    return None


def step_seconds(state: EsperState) -> int | None:
    if state.step == OBJECTION:
        return int(state.options.get("objection_minutes", DEFAULT_OBJECTION_MINUTES)) * 60
    if state.combat is not None and state.step in combats.REACTIONS:
        return int(state.options.get("reaction_minutes", DEFAULT_REACTION_MINUTES)) * 60
    return int(state.options.get("minutes", DEFAULT_MINUTES)) * 60


def _sheet_event(state: EsperState, seat: str) -> Event:
    return Event("your_sheet", {"seat": seat, "sheet": state.seats[seat].sheet}, to=(seat,))


def start_step(
    state: EsperState, dice: Dice, secret: Dice = NO_SECRET
) -> tuple[EsperState, list[Event]]:
    if state.ended is not None:
        raise RuleError("esper.error.finished")
    if state.open:
        raise RuleError("esper.error.step_open", step=state.step)
    # A shallow copy: opening a step only rebinds these three (the caller's state is untouched),
    # and a combat round opens a dozen steps.
    state = copy.copy(state)
    state.steps += 1
    state.open = True
    # ``last`` (the moves the board draws) is kept: it holds the step just resolved, whose
    # board is drawn after this step opens; resolve clears it.
    events: list[Event] = []
    if state.step == DEAL:
        events += [_sheet_event(state, s) for s in state.waiting]
    elif state.step == SILHOUETTE:
        for seat in state.order:
            events.append(Event("your_card", {"card": state.seats[seat].card}, to=(seat,)))
    elif state.step == BALANCE_CARD:
        for seat in state.waiting:
            events.append(Event("your_card", {"card": state.seats[seat].card}, to=(seat,)))
    if state.step in (SILHOUETTE, REPICK, BALANCE_CARD):
        # a new dict: the shallow copy above shares the caller's
        state.pending = {**state.pending, "defaults": draw_defaults(state, secret)}
    return state, _named(state, events)


# --- orders --------------------------------------------------------------------------------------


def reads_as(word: str) -> str | None:
    """What an order would read ``word`` as besides a card: ``place`` (a spot, a planet, a base
    spot or path), ``word`` (one of the grammar's words, either language), ``number`` or
    ``seat``; None when it can only name a card. Orders name a silhouette, an ability or a C card
    by its id or either name, so the pack loader refuses ids and names with a reading
    (:class:`bot.packs.Checks`). A word with a space or a separator is never one token."""
    token = normal(word)
    if not token or re.search(r"[\s;、]", token):
        return None
    if re.search(r"惑星\s*[1-6]", token):  # read as the planet wherever it stands in a word
        return "place"
    low = token.lower()
    spots = [w for w in low.replace("→", ">").split(">") if w]
    if (
        ring(token.upper()) is not None
        or re.fullmatch(r"p[1-6](-0)?", low)
        or (spots and all(base_stage.coords(w.upper()) is not None for w in spots))
    ):
        return "place"
    words = {*WORDS, *WORDS.values(), *combats.WORDS, *combats.WORDS.values()}
    words |= {*SUPPORTS, *MAINS, *ENDS, *combats.MAIN_VERBS, *combats.SUPPORT_VERBS}
    if token in words or low in words:
        return "word"
    if re.fullmatch(r"[+-]?[0-9]+", low):
        return "number"
    if token.upper() in SEATS:
        return "seat"
    return None


def parse(state: EsperState, seat: str, text: str) -> EsperOrder:
    try:
        return _parse(state, seat, text)
    except OrderRejected as refused:
        # "Not understood" quotes what the player wrote, not the grammar's English rewrite of
        # it (``移動 惑星3`` read as ``move P3``), unless it names the one word it could not read.
        quoted = refused.params.get("text")
        if refused.key == R_UNKNOWN and isinstance(quoted, str) and quoted not in normal(text):
            raise OrderRejected(R_UNKNOWN, text=normal(text)[:40]) from None
        raise


def _parse(state: EsperState, seat: str, text: str) -> EsperOrder:
    if state.ended is not None:
        raise OrderRejected(R_FINISHED)
    if seat not in awaiting(state):
        raise OrderRejected(R_NOT_NOW)
    step = state.step
    if step in (SILHOUETTE, REPICK, BALANCE, BALANCE_CARD):
        return parse_silhouette(state, seat, text)
    parts = parts_of(text)
    if step in combats.STEPS:
        return combats.parse(state, seat, parts)
    if step in base_stage.STEPS:
        return base_stage.parse(state, seat, parts)
    if step == DEAL:
        return check_deal(state, seat, single(parts, ("keep", "refuse", "refuse-last")))
    if step == START:
        return parse_start(state, seat, parts)
    if step == DIRECTION:
        return single(parts, ("left", "right"))
    if step == PARTY:
        return single(parts, ("join", "decline"))
    if step == OBJECTION:
        return single(parts, ("object", "accept"))
    if step == SEE:
        return _parse_see(state, seat, parts)
    if step in (TURN, AFTER):
        return parse_turn(state, seat, parts)
    raise OrderRejected(R_NOT_NOW)


def _parse_see(state: EsperState, seat: str, parts: list[list[str]]) -> EsperOrder:
    words = [w for p in parts for w in p]
    if words in (["pass"], ["none"], ["see"]):
        return EsperOrder((Action("see"),))
    if not words or words[0] != "see":
        raise OrderRejected(R_UNKNOWN, text=" ".join(words)[:40])
    targets = tuple(dict.fromkeys(seat_word(state, w) for w in words[1:]))
    allowed = state.pending.get("see", {}).get(seat, {})
    if len(targets) > int(allowed.get("n", 0)):
        raise OrderRejected(R_SEE, n=allowed.get("n", 0))
    for target in targets:
        if target not in allowed.get("of", []):
            raise OrderRejected(R_SEE, n=allowed.get("n", 0))
    return EsperOrder((Action("see", targets),))


# --- choices and defaults ------------------------------------------------------------------------


def default_order(state: EsperState, seat: str) -> EsperOrder:
    step = state.step
    if step in combats.STEPS:
        return combats.default_order(state, seat)
    if step in base_stage.STEPS:
        return base_stage.default_order(state, seat)
    if step == DEAL:
        return EsperOrder((Action("keep"),))
    if step in (SILHOUETTE, REPICK):
        return EsperOrder((Action("silhouette", (default_silhouette(state, seat),)),))
    if step == BALANCE:
        return EsperOrder((Action("keep"),))
    if step == BALANCE_CARD:
        current = state.seats[seat].silhouette
        if current in allowed_silhouettes(state, seat):
            return EsperOrder((Action("keep"),))
        return EsperOrder((Action("silhouette", (default_silhouette(state, seat),)),))
    if step == START:
        if side_of(state, seat) == DEFENDER:
            return EsperOrder((Action("pass"),))
        return EsperOrder((Action("start", ("P1",)),))
    if step == TURN:
        return EsperOrder((Action("pass"), Action("end")))
    if step == AFTER:
        return EsperOrder((Action("end"),))
    if step == DIRECTION:
        return EsperOrder((Action("right"),))
    if step == PARTY:
        return EsperOrder((Action("decline"),))
    if step == OBJECTION:
        return EsperOrder((Action("accept"),))
    if step == SEE:
        return EsperOrder((Action("see"),))
    raise OrderRejected(R_NOT_NOW)


def choices(state: EsperState, seat: str) -> list[ChoiceGroup]:
    if seat not in awaiting(state):
        return []
    step = state.step
    if step in combats.STEPS:
        return combats.choices(state, seat)
    if step == base_stage.PLACE:
        return [
            ChoiceGroup(
                "place",
                "esper.group.place",
                [
                    Choice(f"place {o}", "esper.choice.place", params={"spot": o})
                    for o in base_stage.outer_spots()
                ],
            )
        ]
    if step == DEAL:
        opts = [Choice("keep", "esper.choice.keep")]
        for verb in ("refuse", "refuse-last"):
            try:
                check_deal(state, seat, EsperOrder((Action(verb),)))
                opts.append(Choice(verb, f"esper.choice.{verb}"))
            except OrderRejected as error:
                opts.append(Choice(verb, f"esper.choice.{verb}", False, error.key))
        return [ChoiceGroup("deal", "esper.group.deal", opts)]
    if step in (SILHOUETTE, REPICK, BALANCE, BALANCE_CARD):
        sils = allowed_silhouettes(state, seat)
        opts = []
        current = state.seats[seat].silhouette
        if step == BALANCE or (step == BALANCE_CARD and current in sils):
            opts.append(Choice("keep", "esper.choice.keep_silhouette"))
        names = names_of(state.pack, sils)
        opts += [
            Choice(f"silhouette {i}", "esper.choice.name", params={"name": names[i]}) for i in sils
        ]
        # a select menu: sixteen names and more are too many buttons for a phone
        return [ChoiceGroup("silhouette", "esper.group.silhouette", opts[:25], select=True)]
    if step == base_stage.KEYS:
        return key_vote_choices(state)
    if step == START:
        if side_of(state, seat) == DEFENDER:
            return ambush_choices(state)
        return [
            ChoiceGroup(
                "start",
                "esper.group.start",
                [Choice(f"start P{p}", f"esper.planet.P{p}") for p in range(1, PLANETS + 1)],
            )
        ]
    if step in ANSWERS:
        group, words = ANSWERS[step]
        return [
            ChoiceGroup(
                group, f"esper.group.{group}", [Choice(w, f"esper.choice.{w}") for w in words]
            )
        ]
    if step == AFTER:
        after = [Choice("end", "esper.choice.end")]
        try:
            parse_turn(state, seat, [["fight"]])
            after.append(Choice("fight", "esper.choice.fight"))
        except OrderRejected:
            pass
        return [ChoiceGroup("after", "esper.group.after", after)]
    if step == TURN:
        return [ChoiceGroup("main", "esper.group.main", main_choices(state, seat))]
    return []


def ambush_choices(state: EsperState) -> list[ChoiceGroup]:
    """The ambush vote as three picks: the planet, the spot on it, the runner (36 spots do not
    fit one menu); "no ambush" (``pass``) is a whole order among the planets."""
    runners = [s for s in state.order if side_of(state, s) == DEFENDER and state.seats[s].alive]
    return [
        ChoiceGroup(
            "ambush_planet",
            "esper.group.ambush_planet",
            [
                *(
                    Choice(f"ambush P{p}", "esper.choice.ambush_planet", params={"planet": p})
                    for p in range(1, PLANETS + 1)
                ),
                Choice("pass", "esper.choice.no_ambush", final=True),
            ],
        ),
        ChoiceGroup(
            "ambush_spot",
            "esper.group.ambush_spot",
            [Choice(str(i), "esper.choice.ambush_spot", params={"n": i}) for i in range(1, RING)],
        ),
        ChoiceGroup(
            "ambush_runner",
            "esper.group.ambush_runner",
            [
                Choice(f"runner {r}", "esper.choice.ambush_runner", params={"seat": r})
                for r in runners
            ],
        ),
    ]


def key_vote_choices(state: EsperState) -> list[ChoiceGroup]:
    """The key installations' vote as a column and a row for each (36 spots do not fit one
    menu): ``keys B 2 D 5 E 1``, read as ``keys B2 D5 E1``; "no vote" (``pass``) is a whole
    order among the first key's columns."""
    groups = []
    for n in range(1, state.pack.keys_placed + 1):
        head = "keys " if n == 1 else ""
        groups.append(
            ChoiceGroup(
                f"key{n}_column",
                "esper.group.key_column",
                [
                    *(
                        Choice(
                            f"{head}{c}", "esper.choice.key_column", params={"n": n, "column": c}
                        )
                        for c in base_stage.COLUMNS
                    ),
                    *([Choice("pass", "esper.choice.no_keys", final=True)] if n == 1 else []),
                ],
            )
        )
        groups.append(
            ChoiceGroup(
                f"key{n}_row",
                "esper.group.key_row",
                [
                    Choice(str(r), "esper.choice.key_row", params={"n": n, "row": r})
                    for r in range(1, base_stage.ROWS + 1)
                ],
            )
        )
    return groups


# The sub-steps answered with one word: the group and its words, the default first.
ANSWERS = {
    DIRECTION: ("direction", ("left", "right")),
    PARTY: ("party", ("join", "decline")),
    OBJECTION: ("objection", ("accept", "object")),
}


def main_choices(state: EsperState, seat: str) -> list[Choice]:
    """The main actions one button can send (each followed by ``end``); richer turns are typed.
    First, in the check phase, each [check] ability the seat can use now: its button orders it
    alone, and the turn's buttons come again for the rest."""
    out: list[Choice] = []
    if check_phase(state, seat):
        for ability in abilities_of(state, seat).values():
            if ability.timing != "check":
                continue
            try:
                parse_turn(state, seat, [["use", ability.id]])
            except OrderRejected:
                continue
            name = {"en": ability.name_en, "ja": ability.name_ja}
            out.append(Choice(f"use {ability.id}", "esper.choice.use_check", params={"name": name}))
    spot = state.seats[seat].spot or ""
    if state.stage == BASE_STAGE:
        # the base: one spot orthogonally (each neighbour a button), or in from around it
        candidates = [f"move {n}" for n in base_stage.neighbours(spot)] if spot else []
        candidates.append("infiltrate")
    else:
        candidates = ["move left", "move right"]
    if spot.endswith("-0") or spot == RAFNOR:
        candidates += [f"move P{p}" for p in range(1, PLANETS + 1)]
    candidates += [f"teleport {n}" for n in range(2, sheet_of(state, seat).esp + 1)]
    if state.seats[seat].damage:
        candidates.append("recover durability")
    if state.seats[seat].mind_lost:
        candidates.append("recover mind")
    candidates.append("pass")
    for text in candidates:
        token = f"{text}; end"
        try:
            parse_turn(state, seat, parts_of(token))
        except OrderRejected:
            continue
        if text.startswith("move ") and base_stage.coords(text[5:]) is not None:
            out.append(Choice(token, "esper.choice.move_to", params={"spot": text[5:]}))
            continue
        key = "esper.choice." + text.replace(" ", "_")
        out.append(Choice(token, key))
    return out[:22]  # a view holds 25 components: the framework adds ❓ and 📋


# --- resolving -----------------------------------------------------------------------------------


def resolve(
    state: EsperState, orders: Mapping[str, Any], dice: Dice, secret: Dice = NO_SECRET
) -> tuple[EsperState, list[Event]]:
    state, prepared = closed_step(
        state,
        orders,
        ended=state.ended is not None,
        refusals=("esper.error.finished", "esper.error.step_not_open"),
        awaiting=awaiting,
        parse=parse,
        default=default_order,
    )
    events: list[Event] = []
    state.last = []  # this step's moves only (the board drawn after it shows them)
    _resolve_step(state, prepared, Streams(dice, secret), secret, events)
    return state, _named(state, events)


def _resolve_step(
    state: EsperState,
    orders: Mapping[str, EsperOrder],
    dice: Dice,
    secret: Dice,
    events: list[Event],
) -> None:
    step = state.step
    if step in combats.STEPS:
        combat_step(state, orders, dice, secret, events)
    elif step == base_stage.PATH:
        active = state.active
        assert active is not None
        land_on_path(state, active, _order_of(state, orders, active), dice, events)
    elif step in base_stage.STEPS:
        base_step(state, orders, dice, secret, events)
    elif step == DEAL:
        resolve_deal(state, orders, secret, events)
    elif step in (SILHOUETTE, REPICK):
        resolve_silhouettes(state, orders, secret, events)
    elif step in (BALANCE, BALANCE_CARD):
        resolve_balance(state, orders, events)
    elif step == START:
        resolve_start(state, orders, dice, events)
    elif step == TURN:
        active = state.active
        assert active is not None
        run_turn(state, active, list(_order_of(state, orders, active).actions), dice, events)
    elif step == AFTER:
        active = state.active
        assert active is not None
        run_after(state, active, list(_order_of(state, orders, active).actions), dice, events)
    elif step == DIRECTION:
        active = state.active
        assert active is not None
        teleport_land(state, active, _order_of(state, orders, active).verb, events)
        square_then_after(state, active, dice, events)
    elif step == PARTY:
        resolve_party(state, orders, dice, events)
    elif step == OBJECTION:
        resolve_objection(state, orders, dice, events)
    elif step == SEE:
        resolve_see(state, orders, events)
        open_base(state, dice, secret, events)
    else:
        raise RuleError("esper.error.step_not_open", step=step)


def _order_of(state: EsperState, orders: Mapping[str, EsperOrder], seat: str) -> EsperOrder:
    """The seat's order; its default when it sent none (it resigned while the step waited on
    it alone, and the step is resolved without it)."""
    return orders.get(seat) or default_order(state, seat)


# --- the end, a ruling, a resignation ------------------------------------------------------------


def outcome(state: EsperState) -> Outcome:
    if state.ended is None:
        return Outcome.ongoing()
    return Outcome(True, tuple(state.winners), reason=state.ended, grades=dict(state.grades))


def adjudicate(state: EsperState) -> tuple[EsperState, list[Event]]:
    """A moderator's ruling ends the game now, graded as at the stage's end (no declaration)."""
    if state.ended is not None:
        raise RuleError("esper.error.finished")
    state = copy.deepcopy(state)
    events: list[Event] = []
    finish(state, ADJUDICATED, events)
    return state, _named(state, events)


def resign(state: EsperState, seat: str) -> tuple[EsperState, list[Event]]:
    """The seat's character leaves the game (as dead, graded D); the others play on. When
    going on at once would need the step's dice (a combat's initiative, the base's layout), the
    step stays open, awaiting the others or nobody: the table then resolves it (``resolve`` with
    no orders), as it does a step whose seats have all answered."""
    try:
        return _resign(state, seat)
    except DiceError:
        state = copy.deepcopy(state)
        s = state.seats[seat]
        s.resigned, s.alive = True, False
        if seat in state.waiting:
            state.waiting.remove(seat)
        if state.combat is not None and seat in state.combat.seats:
            state.combat.seats.remove(seat)
            state.combat.maintained.pop(seat, None)
        return state, _named(state, [Event("resigned", {"seat": seat})])


def _resign(state: EsperState, seat: str) -> tuple[EsperState, list[Event]]:
    if state.ended is not None:
        raise OrderRejected(R_FINISHED)
    if seat not in state.seats or state.seats[seat].resigned:
        raise OrderRejected(R_NOT_NOW)
    state = copy.deepcopy(state)
    events = [Event("resigned", {"seat": seat})]
    s = state.seats[seat]
    s.resigned, s.alive = True, False
    if seat in state.waiting:
        state.waiting.remove(seat)
    in_combat = state.combat is not None and seat in state.combat.seats
    if in_combat and withdraw(state, seat, events):
        state.open = state.ended is None
        return state, _named(state, events)
    if state.step in SETUP_STEPS or state.step == OVER:
        if not awaiting(state) and state.open:
            _resolve_step(state, {}, NO_SECRET, NO_SECRET, events)
            state.open = state.ended is None
        return state, _named(state, events)
    if all_down(state):
        finish(state, ALL_DOWN, events)
    elif state.active == seat and state.step in TURN_STEPS:
        next_turn(state, NO_SECRET, events)
    elif state.declaration is not None and state.declaration["seat"] == seat:
        state.declaration = None
        next_turn(state, NO_SECRET, events)
    elif state.open and not awaiting(state):
        _resolve_step(state, {}, NO_SECRET, NO_SECRET, events)
    state.open = state.ended is None
    return state, _named(state, events)


# --- names, views, summary ---------------------------------------------------------------------


def _ids_in(value: Any, ids: set[str], out: list[str]) -> None:
    if isinstance(value, str):
        if value in ids and value not in out:
            out.append(value)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _ids_in(k, ids, out)
            _ids_in(v, ids, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _ids_in(v, ids, out)


def _all_ids(pack: Pack) -> set[str]:
    ids = set(pack.sheets) | set(pack.planets) | set(pack.abilities)
    ids |= set(pack.ccards) | set(pack.base_cards) | set(pack.keys)
    for sheet in pack.sheets.values():
        ids |= {a.id for a in sheet.abilities}
    return ids


def names_of(pack: Pack, ids: Sequence[str]) -> dict[str, dict[str, str]]:
    out = {}
    for card_id in ids:
        card = pack.card(card_id)
        out[card_id] = {"en": card.name_en, "ja": card.name_ja}
    return out


def _named(state: EsperState, events: list[Event]) -> list[Event]:
    """Each event carries the names (both languages) of the pack ids it mentions: the presenter
    words it from the event alone, whatever pack the game uses."""
    ids = _all_ids(state.pack)
    out = []
    for event in events:
        found: list[str] = []
        _ids_in(dict(event.data), ids, found)
        data = dict(event.data)
        if found:
            data["names"] = names_of(state.pack, found)
        if event.type in ("your_sheet", "opened", "peek"):
            sheet_id = data.get("sheet")
            if isinstance(sheet_id, str):
                data["detail"] = sheet_info(state.pack, sheet_id)
        if event.type == "seen":
            data["detail"] = {i: sheet_info(state.pack, i) for i in data["sheets"].values()}
        if event.type == "ability_drawn":
            data["detail"] = {c: ability_info(state.pack.abilities[c]) for c in data["cards"]}
        if event.type == "c_drawn":
            data["detail"] = {c: combats.ccard_info(state.pack.ccards[c]) for c in data["cards"]}
        if event.type == "revealed":
            data["detail"] = {
                info["sheet"]: sheet_info(state.pack, info["sheet"])
                for info in data["seats"].values()
            }
        out.append(Event(event.type, data, event.to))
    return out


def ability_info(ability: Ability) -> dict[str, Any]:
    return {
        "id": ability.id,
        "name": {"en": ability.name_en, "ja": ability.name_ja},
        "timing": ability.timing,
        "effect": ability.effect,
        "n": ability.n,
        "cost_mind": ability.cost_mind,
        "lasting": ability.lasting,
        "text": {"en": ability.text_en, "ja": ability.text_ja},
    }


def _defeat_info(pack: Pack, defeat: packlib.Defeat) -> dict[str, Any]:
    info = {k: v for k, v in dataclasses.asdict(defeat).items() if v not in (None, 0)}
    if defeat.who is not None:
        info["name"] = names_of(pack, [defeat.who])[defeat.who]
    return info


def sheet_info(pack: Pack, sheet_id: str) -> dict[str, Any]:
    """A sheet's printed contents (what opening it shows)."""
    sheet = pack.sheets[sheet_id]
    return {
        "id": sheet.id,
        "name": {"en": sheet.name_en, "ja": sheet.name_ja},
        "alignment": sheet.alignment,
        "lock": sheet.lock,
        "esp": sheet.esp,
        "durability": sheet.durability,
        "mind": sheet.mind,
        "convertible_by": list(sheet.convertible_by),
        "can_convert": sheet.can_convert,
        "defeat": [_defeat_info(pack, d) for d in sheet.defeat],
        "abilities": [ability_info(a) for a in sheet.abilities],
    }


def summary(state: EsperState) -> dict[str, Any]:
    """The replay summary (esper.md): public facts only."""
    planets: dict[str, str] = {}
    for spot in card_spots():
        if spot in state.spent:
            planets[spot] = SPENT
        elif spot in state.face_up:
            planets[spot] = state.planets[spot]
    seats = {}
    for seat in state.order:
        s = state.seats[seat]
        seats[seat] = {
            "silhouette": s.silhouette,
            "side": side_of(state, seat),
            "spot": s.spot,
            "alive": s.alive,
            "open": s.sheet if s.open else None,
            "damage": s.damage,
            "info": s.info,
            "abilities": len(s.hand) + len(s.face_up),
            "party": s.party,
            "black_hole": s.black_hole,
            "refusals": s.refusals,
            "declared": s.declared_turn is not None,
            "resigned": s.resigned,
        }
    for seat in state.order:
        seats[seat]["c_hand"] = len(state.seats[seat].c_hand)
        seats[seat]["outside"] = state.seats[seat].outside
    stage = state.stage if state.step not in SETUP_STEPS else "setup"
    return {
        "stage": "over" if state.ended else stage,
        "base": base_stage.public(state),
        "combat": combats.public(state),
        "step": state.step,
        "turn": state.turn,
        "active": state.active,
        "seats": seats,
        "planets": planets,
        "rafnor": state.rafnor if state.rafnor_up else None,
        "ambush": state.ambush if state.ambush_revealed else None,
        "declaration": state.declaration["seat"] if state.declaration else None,
    }


def view(state: EsperState, seat: str | None) -> dict[str, Any]:
    out = summary(state)
    out["players"] = len(state.order)
    out["composition"] = list(composition(state.pack, len(state.order)))
    out["waiting"] = awaiting(state)
    # What a declaration announced in public (its ``declared`` event): the side it claims, or a
    # solo victory. The objection prompt names it.
    declared = state.declaration
    out["declared_for"] = (
        None if declared is None else ("solo" if declared.get("solo") else declared["alignment"])
    )
    out["last"] = copy.deepcopy(state.last)
    out["pack"] = {"id": state.pack.id, "hash": state.pack.hash}
    shown: list[str] = []
    for info in out["seats"].values():
        for key in ("silhouette", "open"):
            if info[key] is not None and info[key] not in shown:
                shown.append(info[key])
    for seat_state in state.seats.values():
        shown += [c for c in seat_state.face_up if c not in shown]
    shown += [c for c in out["planets"].values() if c != SPENT and c not in shown]
    if out["rafnor"]:
        shown.append(out["rafnor"])
    if out["base"]:
        shown += [c for c in out["base"]["up"].values() if c not in shown]
        shown += [k["id"] for k in out["base"]["keys"].values() if k["id"] not in shown]
    if out["combat"]:
        attack = out["combat"]["attack"] or {}
        shown += [c for c in [attack.get("card")] if c and c not in shown]
        shown += [h["card"] for h in out["combat"]["maintained"].values() if h["card"] not in shown]
    out["sheets"] = {
        state.seats[s].sheet: sheet_info(state.pack, state.seats[s].sheet)
        for s in state.order
        if state.seats[s].open or state.ended
    }
    if state.ended:
        out["grades"] = dict(state.grades)
        out["winners"] = list(state.winners)
        out["reason"] = state.ended
        out["reveal"] = {
            s: {
                "sheet": state.seats[s].sheet,
                "alignment": state.seats[s].alignment,
                "card": state.seats[s].card,
            }
            for s in state.order
        }
        shown += [state.seats[s].sheet for s in state.order if state.seats[s].sheet not in shown]
    out["names"] = names_of(state.pack, shown)
    if seat is not None and seat in state.seats:
        out["you"] = _you(state, seat)
    return out


def _you(state: EsperState, seat: str) -> dict[str, Any]:
    s = state.seats[seat]
    you: dict[str, Any] = {
        "seat": seat,
        "sheet": sheet_info(state.pack, s.sheet),
        "alignment": s.alignment,
        "durability": durability(state, seat),
        "mind": mind(state, seat),
        "card": s.card,
        "hand": [ability_info(state.pack.abilities[c]) for c in s.hand],
        # a list, not a map by seat: a seat's view files nothing under another seat's name
        "seen": [
            {"seat": other, "sheet": sheet_id, "name": names_of(state.pack, [sheet_id])[sheet_id]}
            for other, sheet_id in sorted(s.seen.items())
        ],
        "told": copy.deepcopy(s.told),
        "refuse": not s.refused and s.sheet in history(state, seat)[0],
        "refuse_last": s.sheet == history(state, seat)[1] or s.sheet in s.refused_sheets,
    }
    if side_of(state, seat) == DEFENDER and state.ambush is not None:
        you["ambush"] = {"spot": state.ambush, "runner": state.ambush_runner}
    if state.step in (SILHOUETTE, REPICK, BALANCE, BALANCE_CARD) and seat in state.waiting:
        allowed = allowed_silhouettes(state, seat)
        you["silhouettes"] = allowed
        you["silhouette_names"] = names_of(state.pack, allowed)
    if state.step == SEE and seat in state.pending.get("see", {}):
        you["see"] = copy.deepcopy(state.pending["see"][seat])
    if state.combat is not None or s.c_hand:
        you["combat"] = combats.you(state, seat)
    if side_of(state, seat) == DEFENDER and state.keys:
        you["keys"] = {spot: k["id"] for spot, k in state.keys.items()}
        you["key_names"] = names_of(state.pack, [k["id"] for k in state.keys.values()])
    if s.outside:
        you["infiltration"] = s.infiltration
    if state.step == base_stage.PATH and seat in state.waiting:
        you["path"] = int(state.pending.get("distance", 0))
    if state.step in TURN_STEPS and state.active == seat:
        timings = ("check", "support", "main") if check_phase(state, seat) else ("support", "main")
        you["usable"] = [
            ability_info(a)
            for a in abilities_of(state, seat).values()
            if a.timing in timings and a.effect in packlib.D1_EFFECTS
        ]
    return you


# --- storage -------------------------------------------------------------------------------------


def _fields_of(value: Any) -> dict[str, Any]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


def to_json(state: EsperState) -> dict[str, Any]:
    obj = _fields_of(state)
    del obj["pack"]
    obj["combat"] = None if state.combat is None else _fields_of(state.combat)
    obj["seats"] = {s: _fields_of(v) for s, v in state.seats.items()}
    obj["options"] = {k: v for k, v in state.options.items() if k != "pack"}
    obj["schema"] = SCHEMA_VERSION
    # A deep copy in JSON's own terms (the state's lists and dicts are JSON's already), in a
    # fraction of copy.deepcopy's time: it runs at every step.
    copied: dict[str, Any] = json.loads(json.dumps(obj, ensure_ascii=False))
    copied["pack"] = json.loads(state.pack.source_text)
    return copied


def from_json(obj: Mapping[str, Any]) -> EsperState:
    if not isinstance(obj, Mapping) or obj.get("schema") != SCHEMA_VERSION:
        raise StateError("esper.state.invalid", reason="schema")
    try:
        text = json.dumps(obj["pack"], ensure_ascii=False)
        pack = packlib.decoded(text)
        names = {f.name for f in dataclasses.fields(EsperState)}
        fields = {
            k: copy.deepcopy(v)
            for k, v in obj.items()
            if k in names and k not in ("pack", "seats", "options", "combat")
        }
        if obj.get("combat") is not None:
            fields["combat"] = Combat.from_json(copy.deepcopy(obj["combat"]))
        seats = {s: SeatState(**copy.deepcopy(v)) for s, v in obj["seats"].items()}
        options = {**copy.deepcopy(obj["options"]), "pack": json.loads(text)}
        return EsperState(pack=pack, seats=seats, options=options, **fields)
    except (KeyError, TypeError, ValueError) as error:
        raise StateError("esper.state.invalid", reason=str(error)[:80]) from error
