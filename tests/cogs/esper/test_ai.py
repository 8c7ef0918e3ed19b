"""The Esper demo AI: whole games of 5, 7 and 11 AI players end, every order it sends parses, it
decides only from what its seat may know, and each alignment plays to its interest."""

from __future__ import annotations

import collections
import copy
import random
from collections.abc import Callable

import pytest

from bot.dice import ScriptedDice
from cogs.esper import ai, rules
from cogs.esper.rules import EVIL, GOOD, SPECIAL, EsperState

MAX_STEPS = 600  # framework steps; in 1400 seeded games of 5–11 AI players the longest took 187
CARD_SPOTS = rules.card_spots()
Check = Callable[[EsperState, str, str], None]
NO_ROLLS = ScriptedDice([])  # the secret stream of a step that draws nothing from it


class RandomDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.rolls: list[int] = []

    def roll(self, sides: int) -> int:
        value = self.rng.randint(1, sides)
        self.rolls.append(value)
        return value


def new(players: int, seed: int, **options: object) -> tuple[EsperState, random.Random, RandomDice]:
    rng = random.Random(seed)
    secret = RandomDice(random.Random(seed * 7 + 1))
    state = rules.new_game("g", rules.SEATS[:players], options, RandomDice(rng), secret)
    return state, rng, secret


def step(
    state: EsperState, rng: random.Random, secret: RandomDice, check: Check | None = None
) -> EsperState:
    """One framework step: open it, let the AI answer for every awaited seat, resolve."""
    state, _ = rules.start_turn(state, RandomDice(rng), secret)
    orders = {}
    for seat in rules.awaiting(state):
        text = ai.choose(state, seat, rng)
        order = rules.parse(state, seat, text)  # every order the AI sends parses
        assert rules.parse(state, seat, order.canonical()).canonical() == order.canonical()
        if check is not None:
            check(state, seat, text)
        orders[seat] = order
    state, _ = rules.resolve(state, orders, RandomDice(rng), secret)
    return state


def play(players: int, seed: int, check: Check | None = None, **options: object) -> EsperState:
    state, rng, secret = new(players, seed, **options)
    for _ in range(MAX_STEPS):
        state = step(state, rng, secret, check)
        if rules.outcome(state).finished:
            return state
    raise AssertionError(f"{players} players, seed {seed}: no end in {MAX_STEPS} steps")


def until(players: int, seed: int, wanted: str) -> EsperState:
    """A game played by the AI up to the opening of the first ``wanted`` step."""
    state, rng, secret = new(players, seed)
    for _ in range(MAX_STEPS):
        opened, _ = rules.start_turn(state, RandomDice(rng), secret)
        if opened.step == wanted:
            return opened
        state = step(state, rng, secret)
        assert not rules.outcome(state).finished
    raise AssertionError(f"no {wanted} step")


# --- whole games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 7, 11])
@pytest.mark.parametrize("seed", range(8))
def test_whole_games_of_ai_players_finish(players: int, seed: int) -> None:
    said: dict[str, list[str]] = collections.defaultdict(list)

    def check(state: EsperState, seat: str, text: str) -> None:
        s = state.seats[seat]
        said[s.alignment].append(text)
        if state.step in (rules.TURN, rules.AFTER) and s.alignment == EVIL:
            # EVIL hides: it never opens its sheet (a conversion would open it) and keeps the
            # abilities printed on it (their ids name it) for when it is badly hurt
            parts = [part.split() for part in text.split(";")]
            assert not any(p[0] in ("open", "convert") for p in parts), text
            printed = {a.id for a in state.pack.sheets[s.sheet].abilities}
            low = max(2, rules.sheet_of(state, seat).durability // 3)
            hurt = rules.durability(state, seat) <= low
            assert hurt or not any(p[0] == "use" and p[1] in printed for p in parts), text

    state = play(players, seed, check)
    out = rules.outcome(state)
    assert out.finished and set(out.grades) == set(state.order)
    assert said[GOOD] and said[EVIL]


def test_ai_games_use_the_whole_turn() -> None:
    """Across a few games the AI moves, teleports, proposes parties, converts, uses abilities,
    declares and answers declarations, the sub-steps included (joining a party depends on what
    the seat saw: test_party_answers_follow_what_the_seat_saw)."""
    verbs: collections.Counter[str] = collections.Counter()

    def check(state: EsperState, seat: str, text: str) -> None:
        for part in text.split(";"):
            verbs[f"{state.step}:{part.split()[0]}"] += 1

    for seed in range(10):
        play(7, seed, check)
        play(11, seed, check)
    for wanted in (
        "turn:move",
        "turn:teleport",
        "turn:party",
        "turn:convert",
        "turn:use",
        "turn:declare",
        "turn:recover",
        "objection:object",
        "start:ambush",
        "start:start",
        "see:see",
    ):
        assert verbs[wanted], f"no {wanted} in {sorted(verbs)}"


# --- what the seat may know ----------------------------------------------------------------------


def scrambled(state: EsperState, seat: str, rng: random.Random) -> EsperState:
    """A copy in which everything ``seat`` may not know is changed: other seats' unopened
    sheets, every other seat's alignment, card, hand, views and mind; face-down cards, the
    decks, Rafnor's card and (unless ``seat`` is a defender) the ambush."""
    other = copy.deepcopy(state)
    sheets = list(other.pack.sheets)
    for name, s in other.seats.items():
        if name == seat:
            continue
        if not s.open:
            s.sheet = rng.choice(sheets)
        s.alignment = rng.choice((GOOD, EVIL, SPECIAL))
        s.card = rng.choice(("A♠", "10♥", "7♦", None))
        s.hand = rng.sample(list(other.pack.abilities), 2)
        s.seen = {seat: other.seats[seat].sheet} if rng.random() < 0.5 else {}
        s.told = []
        s.bonus = rng.randint(0, 3)
        s.mind_lost = rng.randint(0, 3)
        s.refused_sheets = []
    down = [p for p in other.planets if p not in other.face_up and p not in other.spent]
    cards = [other.planets[p] for p in down]
    rng.shuffle(cards)
    other.planets.update(zip(down, cards, strict=True))
    rng.shuffle(other.deck)
    rng.shuffle(other.ability_deck)
    if not other.rafnor_up and other.rafnor is not None:
        other.rafnor = rng.choice(list(other.pack.planets))
    if rules.side_of(other, seat) != rules.DEFENDER and not other.ambush_revealed:
        other.ambush_runner = rng.choice(other.order)
    return other


@pytest.mark.parametrize(("players", "seed"), [(5, 1), (7, 2), (11, 3), (7, 5)])
def test_choices_depend_only_on_what_the_seat_may_know(players: int, seed: int) -> None:
    noise = random.Random(seed + 1000)

    def check(state: EsperState, seat: str, text: str) -> None:
        draw = noise.randrange(10**9)
        mine = ai.choose(state, seat, random.Random(draw))
        for _ in range(2):
            other = scrambled(state, seat, noise)
            assert ai.choose(other, seat, random.Random(draw)) == mine, rules.step_label(state)

    play(players, seed, check)


def test_knowledge_comes_from_views_told_and_open_sheets() -> None:
    state = until(7, 4, rules.TURN)
    seat = state.active
    assert seat is not None
    others = [o for o in state.order if o != seat]
    a, b, c = others[:3]
    me = state.seats[seat]
    me.seen = {a: state.seats[a].sheet}
    me.told = [{"seat": seat, "target": b, "changed": True, "alignment": "SPECIAL"}]
    state.seats[c].open = True
    k = ai.mind_of(state, seat, random.Random(0))
    assert k.known(a) == state.pack.sheets[state.seats[a].sheet].alignment
    assert k.known(b) == "SPECIAL"
    assert k.known(c) == state.pack.sheets[state.seats[c].sheet].alignment
    assert all(k.known(o) is None for o in others[3:])


# --- setup ---------------------------------------------------------------------------------------


def test_deal_keeps_and_rarely_refuses_the_last_character() -> None:
    state, _, _ = new(5, 0)
    state, _ = rules.start_turn(state, RandomDice(random.Random(0)))
    answers = {ai.DemoAI().choose(state, "A", random.Random(i)) for i in range(60)}
    assert answers == {"keep"}  # no history: nothing may be refused
    state.options["history"] = {"A": {"previous": state.seats["A"].sheet}}
    answers_list = [ai.choose(state, "A", random.Random(i)) for i in range(200)]
    assert set(answers_list) == {"keep", "refuse-last"}
    assert answers_list.count("refuse-last") < 40
    for text in set(answers_list):
        rules.parse(state, "A", text)


def silhouette_state(alignment: str, card: str) -> tuple[EsperState, str]:
    state = until(7, 0, rules.SILHOUETTE)
    seat = "A"
    s = state.seats[seat]
    s.sheet = next(i for i, sh in state.pack.sheets.items() if sh.alignment == alignment)
    s.alignment, s.card = alignment, card
    return state, seat


@pytest.mark.parametrize("alignment", [GOOD, EVIL, SPECIAL])
def test_silhouettes_follow_the_card_and_the_alignment(alignment: str) -> None:
    state, seat = silhouette_state(alignment, "5♣")
    picks = []
    for i in range(120):
        text = ai.choose(state, seat, random.Random(i))
        order = rules.parse(state, seat, text)
        picks.append(order.actions[0].args[0])
    printed = collections.Counter(state.pack.sheets[p].alignment for p in picks)
    own = state.seats[seat].sheet
    if alignment == EVIL:  # hides, mostly
        assert printed[GOOD] + printed[SPECIAL] > printed[EVIL] > 0
    elif alignment == GOOD:  # its own, or another GOOD one
        assert printed[EVIL] == 0 and printed[GOOD] > 100 and picks.count(own) > 60
    else:
        assert len(set(picks)) > 8
    state.seats[seat].card = "A♦"
    assert {ai.choose(state, seat, random.Random(i)) for i in range(20)} == {f"silhouette {own}"}
    state.seats[seat].card = "10♥"
    for i in range(20):
        pick = rules.parse(state, seat, ai.choose(state, seat, random.Random(i))).actions[0]
        assert state.pack.sheets[pick.args[0]].alignment == alignment


def test_start_votes_an_ambush_among_defenders_and_picks_a_planet() -> None:
    for seed in range(6):
        state = until(7, seed, rules.START)
        for seat in rules.awaiting(state):
            text = ai.choose(state, seat, random.Random(seed))
            order = rules.parse(state, seat, text)
            if rules.side_of(state, seat) == rules.INVADER:
                assert order.verb == "start"
            elif state.seats[seat].alignment == EVIL:
                assert order.verb == "ambush"
                assert rules.side_of(state, order.actions[0].args[2]) == rules.DEFENDER
            else:
                assert order.verb == "pass"


def test_a_repick_always_leaves_a_silhouette_to_pick() -> None:
    state = until(7, 0, rules.SILHOUETTE)
    others = [o for o in state.order if o != "A"]
    free = [i for i in state.pack.sheets]
    for o, sil in zip(others, free, strict=False):
        state.seats[o].silhouette = sil
    state.seats["A"].silhouette, state.seats["A"].card = None, "5♣"
    state.step, state.waiting = rules.REPICK, ["A"]
    state.pending = {"contested": free[len(others) :]}  # the rest, contested earlier
    rules.parse(state, "A", ai.choose(state, "A", random.Random(0)))


def test_a_balance_card_that_cannot_be_followed_frees_the_choice() -> None:
    """An Ace whose own silhouette another seat holds cannot be followed: any free silhouette,
    or keeping the current one, is an order."""
    state = until(7, 0, rules.SILHOUETTE)
    own = {s: state.seats[s].sheet for s in state.order}
    for s in state.order:  # each seat shows the next seat's character
        state.seats[s].silhouette = own[state.order[(state.order.index(s) + 1) % 7]]
    state.seats["A"].card = "A♠"
    state.step, state.waiting = rules.BALANCE_CARD, ["A"]
    rules.parse(state, "A", ai.choose(state, "A", random.Random(0)))
    rules.parse(state, "A", "keep")


# --- turns ---------------------------------------------------------------------------------------


def turn_state(alignment: str, sheet: str = "c04", spot: str = "P1-1") -> tuple[EsperState, str]:
    """The first turn of a 7-player game, the active seat set to ``alignment`` and ``sheet``,
    alone at ``spot``, every card face up and harmless but those the test turns down."""
    state = until(7, 0, rules.TURN)
    seat = state.active
    assert seat is not None
    s = state.seats[seat]
    s.sheet, s.alignment, s.spot, s.hand, s.info = sheet, alignment, spot, [], 0
    for o in state.order:
        if o != seat and state.seats[o].spot is not None:
            state.seats[o].spot = "P6-0"
    state.planets = {p: "p01" for p in CARD_SPOTS}
    state.face_up, state.spent = list(CARD_SPOTS), []
    state.ambush = None
    return state, seat


def face_down(state: EsperState, *spots: str) -> None:
    state.face_up = [p for p in state.face_up if p not in spots]


def main_of(text: str) -> str:
    parts = [p.strip() for p in text.split(";")]
    return next(p for p in parts if p.split()[0] in rules.MAINS)


def test_good_heads_for_a_face_down_card() -> None:
    state, seat = turn_state(GOOD)
    face_down(state, "P1-2")
    for i in range(10):
        text = ai.choose(state, seat, random.Random(i))
        assert text == "move right; end"


def test_good_walks_round_a_harmful_card() -> None:
    state, seat = turn_state(GOOD, sheet="c06", spot="P2-3")  # ESP 1: no teleport
    state.planets["P2-2"] = "p10"  # Plasma Storm: 2 damage, on the short way
    face_down(state, "P2-1", "P2-6")
    for i in range(10):
        main = main_of(ai.choose(state, seat, random.Random(i)))
        assert main.endswith("right"), main


def test_a_badly_hurt_seat_recovers() -> None:
    state, seat = turn_state(GOOD)
    face_down(state, "P1-2")
    state.seats[seat].damage = state.pack.sheets["c04"].durability - 1
    assert ai.choose(state, seat, random.Random(0)) == "recover durability; end"


def test_good_forms_a_party_with_a_seat_it_saw_to_be_good() -> None:
    state, seat = turn_state(GOOD, spot="P1-0")
    face_down(state, "P1-1", "P1-6")
    other = next(o for o in state.order if o != seat and state.seats[o].spot is not None)
    state.seats[other].spot, state.seats[other].sheet = "P1-0", "c02"
    state.seats[seat].seen = {other: "c02"}
    assert main_of(ai.choose(state, seat, random.Random(0))) == f"party {other}"
    state.seats[seat].seen = {other: "c09"}  # EVIL: no party
    assert not main_of(ai.choose(state, seat, random.Random(0))).startswith("party")


@pytest.mark.parametrize(("printed", "answer"), [("c02", "join"), ("c09", "decline")])
def test_party_answers_follow_what_the_seat_saw(printed: str, answer: str) -> None:
    state, seat = turn_state(GOOD, spot="P1-0")
    other = next(o for o in state.order if o != seat and state.seats[o].spot is not None)
    state.seats[other].spot, state.seats[other].sheet = "P1-0", "c03"
    state.seats[other].alignment = GOOD
    state.seats[other].seen = {seat: printed}
    state, _ = rules.resolve(state, {seat: f"party {other}; end"}, ScriptedDice([]), NO_ROLLS)
    assert state.step == rules.PARTY
    state, _ = rules.start_turn(state, ScriptedDice([]))
    assert ai.choose(state, other, random.Random(0)) == answer


@pytest.mark.parametrize("declarer", [GOOD, EVIL])
def test_objections_oppose_every_other_alignment(declarer: str) -> None:
    state, seat = turn_state(declarer)
    state, _ = rules.resolve(state, {seat: "declare"}, ScriptedDice([]), NO_ROLLS)
    assert state.step == rules.OBJECTION
    state, _ = rules.start_turn(state, ScriptedDice([]))
    for voter in rules.awaiting(state):
        text = ai.choose(state, voter, random.Random(0))
        rules.parse(state, voter, text)
        same = state.seats[voter].alignment == declarer
        assert text == ("accept" if same else "object"), voter


def test_good_declares_when_every_other_living_character_is_known_good() -> None:
    state, seat = turn_state(GOOD)
    face_down(state, "P1-2")
    for o in state.order:
        if o != seat:
            state.seats[o].sheet, state.seats[o].alignment, state.seats[o].open = "c03", GOOD, True
    assert ai.choose(state, seat, random.Random(0)) == "declare"
    state.seats[seat].declared_turn = 0  # declared once already: plays on
    assert ai.choose(state, seat, random.Random(0)) == "move right; end"


def test_special_declares_solo_when_alone_and_never_declares_otherwise() -> None:
    state, seat = turn_state(SPECIAL, sheet="c14")
    face_down(state, "P1-2")
    assert not ai.choose(state, seat, random.Random(0)).startswith("declare")
    for o in state.order:
        if o != seat:
            if rules.side_of(state, o) == rules.INVADER:
                state.seats[o].black_hole = True
            else:
                state.seats[o].alive = False
    assert ai.choose(state, seat, random.Random(0)) == "declare-solo"


def test_evil_keeps_its_printed_abilities_hidden() -> None:
    state, seat = turn_state(EVIL, sheet="c08")  # Madame Noctis: info for 3 mind
    face_down(state, "P1-2")
    assert "c08a" not in ai.choose(state, seat, random.Random(0))
    state, seat = turn_state(GOOD, sheet="c05")  # Sister Ilse: the same for GOOD
    face_down(state, "P1-2")
    assert ai.choose(state, seat, random.Random(0)) == "use c05a; move right; end"


def test_direction_and_after_steps_are_answered() -> None:
    state, seat = turn_state(GOOD, spot="P1-3")
    face_down(state, "P1-5")
    state, _ = rules.resolve(state, {seat: "teleport 3; end"}, ScriptedDice([2]), NO_ROLLS)
    assert state.step == rules.DIRECTION
    state, _ = rules.start_turn(state, ScriptedDice([]))
    assert ai.choose(state, seat, random.Random(0)) == "right"
    state, seat = turn_state(GOOD)
    state, _ = rules.resolve(state, {seat: "move right"}, ScriptedDice([]), NO_ROLLS)
    assert state.step == rules.AFTER
    state, _ = rules.start_turn(state, ScriptedDice([]))
    assert ai.choose(state, seat, random.Random(0)) == "end"
