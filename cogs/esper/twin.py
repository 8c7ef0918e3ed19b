"""Hidden twins of an Esper state, for the noninterference check (``RulesetSpec.hidden_twin``).

A twin differs from the state only in facts the public cannot tell apart: its public view is the
same, and so is every hidden number the rules make public through a roll's result or a count (an
ESP level check's target, a sheet's hand size and henchmen). The check plays the state and its
twin on with the same orders and dice and requires the same channel posts
(``tests/test_noninterference.py``); this module only says which worlds the public cannot tell
apart (``esper.md``, "What the channel and DMs see"). Pure: the state handed in is not changed.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cogs.esper import combat as combats
from cogs.esper import rules
from cogs.esper.pack import Sheet
from cogs.esper.rules import EsperState

# What travels with a character when two seats' sheets are swapped: its current alignment and
# what it has lost of its mind and ESP power (both private; the damage taken is public and stays).
CHARACTER = ("sheet", "alignment", "mind_lost", "power_lost")


Maker = Callable[[EsperState, random.Random, list[str]], bool]


def hidden_twin(state: EsperState, rng: random.Random) -> EsperState | None:
    """A state the public cannot tell from ``state``, drawn with ``rng`` (None: there is none).

    One of: two seats' sheets swapped (seats whose sheets agree on every number the rules
    publish: ESP level, passive check bonus, hand size, henchmen; across alignments when it can);
    two seats' C hands, ability cards or playing cards swapped (equal counts); the face-down
    planet or base cards permuted; the secret decks' orders shuffled. The kinds the open step
    works on come first (a combat's hands, a setup step's playing cards, a turn's sheets), and
    the seats it concerns (the combat's, the active one's) are preferred, so that what the bot
    does next has a hidden fact to depend on; now and then any kind, any seats."""
    if state.ended is not None:
        return None
    first: list[Maker]
    if state.combat is not None and state.step in combats.STEPS:
        first = [_swap_c_hands, _swap_sheets]
    elif state.step in rules.SETUP_STEPS:
        first = [_swap_playing_cards, _swap_sheets]
    else:
        first = [_swap_sheets, _swap_ability_cards, _swap_c_hands]
    rest = [
        m
        for m in (_swap_sheets, _swap_c_hands, _swap_ability_cards, _swap_playing_cards)
        if m not in first
    ]
    makers: list[Maker] = [*first, *rest, _permute_face_down, _shuffle_decks]
    if rng.random() < 0.25:
        rng.shuffle(makers)
    focus = _focus(state) if rng.random() < 0.75 else []
    for make in makers:
        twin = rules.from_json(rules.to_json(state))
        if make(twin, rng, focus):
            return twin
    return None


def _focus(state: EsperState) -> list[str]:
    """The seats the open step concerns: a combat's participants, else the active seat and
    those it waits for."""
    if state.combat is not None:
        return list(state.combat.seats)
    return [s for s in [state.active, *state.waiting] if s is not None]


def _pick(pairs: list[tuple[str, str]], focus: list[str], rng: random.Random) -> tuple[str, str]:
    """A pair, one of those with a seat in ``focus`` if there is one."""
    near = [p for p in pairs if p[0] in focus or p[1] in focus]
    return rng.choice(near or pairs)


def published_numbers(sheet: Sheet) -> tuple[int, ...]:
    """The sheet's numbers the public may learn from rolls and counts: the ESP level and passive
    check bonus (a check's success), the hand-size bonus (hands trimmed to the limit), the
    henchmen a combat declares, the "actually there" bonus (whether the roll found it there) and
    the durability (a defender that sends nothing declares its true durability: the digest's
    deadline default, so a rule, not a leak)."""
    bonus = sum(a.n for a in sheet.abilities if a.effect == "check_bonus" and a.timing == "always")
    henchmen = sum(a.n for a in sheet.abilities if a.effect == "henchmen" and a.timing == "always")
    there = sum(a.n for a in sheet.abilities if a.effect == "there_bonus")
    return (sheet.esp, bonus, sheet.hand, sheet.henchmen + henchmen, there, sheet.durability)


def _swappable_sheet(state: EsperState, seat: str) -> bool:
    """A sheet nobody may know for certain from the public record: unopened, its alignment the
    printed one (a conversion's result is known to two seats), not a declaration's, not about to
    be seen at the stage's end."""
    s = state.seats[seat]
    if s.open or not s.sheet or s.alignment != state.pack.sheets[s.sheet].alignment:
        return False
    if state.declaration is not None and state.declaration.get("seat") == seat:
        return False
    return "see" not in state.pending


def _swap_sheets(state: EsperState, rng: random.Random, focus: list[str]) -> bool:
    pack = state.pack
    pairs = []
    for i, x in enumerate(state.order):
        for y in state.order[i + 1 :]:
            a, b = state.seats[x], state.seats[y]
            if a.sheet == b.sheet or not (
                _swappable_sheet(state, x) and _swappable_sheet(state, y)
            ):
                continue
            sx, sy = pack.sheets[a.sheet], pack.sheets[b.sheet]
            if published_numbers(sx) != published_numbers(sy):
                continue
            # a living character's public damage must stay within the other sheet's durability
            if (a.alive and a.damage > sy.durability) or (b.alive and b.damage > sx.durability):
                continue
            pairs.append((x, y, sx.alignment != sy.alignment))
    if not pairs:
        return False
    across = [(x, y) for x, y, other_side in pairs if other_side]
    x, y = _pick(across or [(x, y) for x, y, _ in pairs], focus, rng)
    a, b = state.seats[x], state.seats[y]
    for name in CHARACTER:
        va, vb = getattr(a, name), getattr(b, name)
        setattr(a, name, vb)
        setattr(b, name, va)
    # what others saw of these characters (a peek) is of the sheet they hold now
    for other in state.seats.values():
        for seat in (x, y):
            if seat in other.seen:
                other.seen[seat] = state.seats[seat].sheet
    return True


def _swap_lists(state: EsperState, rng: random.Random, focus: list[str], name: str) -> bool:
    """Two seats' private lists of the same length swapped (their counts are public)."""
    pairs = [
        (x, y)
        for i, x in enumerate(state.order)
        for y in state.order[i + 1 :]
        if len(getattr(state.seats[x], name)) == len(getattr(state.seats[y], name)) > 0
        and sorted(getattr(state.seats[x], name)) != sorted(getattr(state.seats[y], name))
    ]
    if not pairs:
        return False
    x, y = _pick(pairs, focus, rng)
    a, b = state.seats[x], state.seats[y]
    va, vb = getattr(a, name), getattr(b, name)
    setattr(a, name, vb)
    setattr(b, name, va)
    return True


def _swap_c_hands(state: EsperState, rng: random.Random, focus: list[str]) -> bool:
    return _swap_lists(state, rng, focus, "c_hand")


def _swap_ability_cards(state: EsperState, rng: random.Random, focus: list[str]) -> bool:
    return _swap_lists(state, rng, focus, "hand")


def _swap_playing_cards(state: EsperState, rng: random.Random, focus: list[str]) -> bool:
    held = [s for s in state.order if state.seats[s].card is not None]
    pairs = [
        (x, y)
        for i, x in enumerate(held)
        for y in held[i + 1 :]
        if state.seats[x].card != state.seats[y].card
    ]
    if not pairs:
        return False
    x, y = _pick(pairs, focus, rng)
    a, b = state.seats[x], state.seats[y]
    a.card, b.card = b.card, a.card
    return True


def _permute(cards: dict[str, str], spots: list[str], rng: random.Random) -> bool:
    values = [cards[s] for s in spots]
    if len(set(values)) < 2:
        return False
    shuffled = list(values)
    while shuffled == values:
        rng.shuffle(shuffled)
    cards.update(zip(spots, shuffled, strict=True))
    return True


def _permute_face_down(state: EsperState, rng: random.Random, focus: list[str]) -> bool:
    """The face-down planet cards (the ambush's spot aside: its card is Rafnor's), or the secret
    base's face-down cards, dealt to other spots."""
    planets = [
        s
        for s in rules.card_spots()
        if s in state.planets
        and s not in state.face_up
        and s not in state.spent
        and s != state.ambush
    ]
    base = [s for s in state.base if s not in state.base_up and s not in state.base_spent]
    options = [(state.planets, planets), (state.base, base)]
    rng.shuffle(options)
    return any(_permute(cards, spots, rng) for cards, spots in options)


def _shuffle_decks(state: EsperState, rng: random.Random, focus: list[str]) -> bool:
    """The secret orders of the C deck, the ability deck and the playing cards left."""
    changed = False
    for deck in (state.c_deck, state.ability_deck, state.deck):
        before = list(deck)
        rng.shuffle(deck)
        changed = changed or deck != before
    return changed
