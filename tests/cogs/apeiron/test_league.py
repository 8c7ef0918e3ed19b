"""Apeiron's league declaration (issue 33): rosters of unit and chest cards drafted from one pack,
each match's deck drawn from its player's collection, results with the units and H left, and the
options a league may fix."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from bot.i18n import catalogue, t
from bot.leagues import FixedOption
from bot.ruleset import OptionRefused, Outcome, RuleError
from cogs.apeiron import RULESET, ai, rules
from cogs.apeiron import league as lg
from cogs.apeiron import pack as packlib
from tests.cogs.apeiron.test_games import MAX_STEPS, RandomDice
from tests.cogs.apeiron.test_hostile_packs import renamed

LANGS = ("en", "ja")
DICE = RandomDice(random.Random(1))


@dataclass(frozen=True)
class Held:
    """A roster as the league hands it over: entries in the order acquired, copies repeated."""

    units: tuple[str, ...]


def entries(pack: packlib.Pack, units: list[str], chest: list[str]) -> tuple[str, ...]:
    return tuple(lg.card(lg.UNIT, u) for u in units) + tuple(lg.card(lg.CHEST, c) for c in chest)


# A server pack whose ids read as squares, order words, numbers and the league's own words, some
# 32 characters long, with Japanese names in both languages' fields.
LONG = "x" * 31 + "1"
HOSTILE_IDS = {
    "u01": "a" * 32,
    "u02": "unit",  # not an order word: only ``chest`` is, and units may not use it
    "u03": "u-chest-i01",
    "i01": "a1",  # a chest id may read as a square: orders name it only after ``chest``
    "i02": "chest",
    "i03": "keep",
    "i04": "p4",
    "e01": "7",
    "e02": LONG,
    "e03": "unit-u01",
}
HOSTILE = renamed(HOSTILE_IDS).replace('name_en = "Stalwart"', 'name_en = "守衛長"', 1)


@pytest.fixture(scope="module")
def hostile() -> packlib.Pack:
    return packlib.loads(HOSTILE)


# --- the pool ------------------------------------------------------------------------------------


def test_the_pool_of_the_built_in_pack() -> None:
    rosters = lg.ApeironRosters()
    pack = packlib.starter()
    pool = rosters.pool()
    cards = [lg.card(lg.UNIT, u) for u in pack.units] + [lg.card(lg.CHEST, c) for c in pack.chest]
    assert [c for c, _ in pool] == cards * lg.POOL_COPIES
    assert all(cost >= 1 for _, cost in pool)
    costs = dict(pool)
    knight = pack.units["u01"]
    assert costs["unit:u01"] == (
        knight.hp
        + knight.power
        + knight.move
        + knight.range
        - 1
        + 2 * knight.flying
        + (1 if knight.grave_turns else 0)
        + len(knight.abilities)
    )
    assert not rosters.has_masters
    for lang in LANGS:
        assert rosters.unit_name("unit:u01", lang) == pack.units["u01"].name(lang)
        assert rosters.unit_name("chest:i01", lang) == pack.chest["i01"].name(lang)
    # an entry that is no card of the pack is shown as stored, never mistaken for one
    assert rosters.unit_name("u01", "en") == "u01"
    assert rosters.unit_name("chest:u01", "en") == "chest:u01"
    assert rosters.unit_name("unit:", "en") == "unit:"


def test_the_pool_of_a_hostile_server_pack(hostile: packlib.Pack) -> None:
    rosters = lg.ApeironRosters.for_pack(hostile)
    assert rosters.source == hostile.source and rosters.pack.hash == hostile.hash
    pool = [c for c, _ in rosters.pool()]
    assert len(pool) == lg.POOL_COPIES * (len(hostile.units) + len(hostile.chest))
    unit_entries = {c for c in pool if c.startswith(lg.UNIT)}
    chest_entries = {c for c in pool if c.startswith(lg.CHEST)}
    assert len(unit_entries) == len(hostile.units) and len(chest_entries) == len(hostile.chest)
    # every entry reads back as its own card and table, whatever the id looks like
    for entry in pool:
        found = lg.split(entry)
        assert found is not None
        kind, card_id = found
        assert card_id in (hostile.units if kind == "units" else hostile.chest)
        assert lg.card(lg.UNIT if kind == "units" else lg.CHEST, card_id) == entry
    assert lg.split("chest:unit") == ("chest", "unit")
    assert lg.split("chest:unit-u01") == ("chest", "unit-u01")
    assert lg.split("unit:u-chest-i01") == ("units", "u-chest-i01")
    assert "chest:a1" in chest_entries and f"unit:{'a' * 32}" in unit_entries
    assert f"chest:{LONG}" in chest_entries and len(f"chest:{LONG}") <= 100  # a select's value
    stalwart = next(u for u in hostile.units.values() if u.name_en == "守衛長")
    for lang in LANGS:
        assert rosters.unit_name(f"unit:{stalwart.id}", lang) == stalwart.name(lang)
        assert rosters.unit_name("chest:chest", lang) == hostile.chest["chest"].name(lang)
    assert rosters.unit_name("unit:chest", "en") == "unit:chest"  # a chest id, not a unit's
    # the league's roster of a later pack upload: the rosters keep the pack they were made with
    assert lg.ApeironRosters.for_pack(packlib.starter()).source is None


def test_no_masters() -> None:
    rosters = lg.ApeironRosters()
    with pytest.raises(RuleError) as refused:
        rosters.master({"preset": "u01"})
    assert refused.value.key == lg.E_NO_MASTERS
    assert rosters.master_id({}, "unit:u01") == "unit:u01"


# --- collections and decks -------------------------------------------------------------------


def test_check_deck_against_a_collection(hostile: packlib.Pack) -> None:
    units = list(hostile.units)[:10]
    chest = list(hostile.chest)[:7]
    held = lg.Collection.of(entries(hostile, units, chest) + entries(hostile, units[:2], []))
    assert held.units == tuple(units) and held.chest == tuple(chest)  # copies count once
    lg.check_collection(hostile, held)
    lg.check_deck(held, units[:8], chest[:6])
    lg.check_deck(held, units[2:], chest[1:])
    cases = [
        (units[:7], chest[:6], "apeiron.league.deck.units"),
        ([*units[:7], units[0]], chest[:6], "apeiron.league.deck.units"),
        (units[:8], chest[:5], "apeiron.league.deck.chest"),
        (units[:8], [*chest[:5], chest[0]], "apeiron.league.deck.chest"),
        ([*units[:7], list(hostile.units)[12]], chest[:6], lg.E_NOT_HELD),
        (units[:8], [*chest[:5], list(hostile.chest)[9]], lg.E_NOT_HELD),
        # a chest card's id among the units is no unit held
        ([*units[:7], chest[6]], chest[:6], lg.E_NOT_HELD),
    ]
    for deck_units, deck_chest, key in cases:
        with pytest.raises(lg.CollectionError) as refused:
            lg.check_deck(held, deck_units, deck_chest)
        assert refused.value.key == key
        for lang in LANGS:
            assert key in catalogue(lang)
            assert "{" not in t(lang, key, **refused.value.params)


def test_a_collection_too_small_for_a_deck_is_refused(hostile: packlib.Pack) -> None:
    units, chest = list(hostile.units), list(hostile.chest)
    for held, key in (
        (entries(hostile, units[:7], chest[:6]), "apeiron.league.short.units"),
        (entries(hostile, units[:9], chest[:5]), "apeiron.league.short.chest"),
    ):
        rosters = lg.ApeironRosters.for_pack(hostile)
        full = Held(entries(hostile, units[:8], chest[:6]))
        with pytest.raises(lg.CollectionError) as refused:
            rosters.match_options({}, {"A": (full, {}), "B": (Held(held), {})})
        assert refused.value.key == key
        for lang in LANGS:
            assert "{" not in t(lang, key, **refused.value.params)
    other = packlib.starter()
    with pytest.raises(lg.CollectionError) as refused:
        # a starter card a hostile league never had
        lg.check_collection(hostile, lg.Collection(("u01", *units[:8]), tuple(chest[:6])))
    assert refused.value.key == lg.E_NOT_HELD and "u01" in other.units


def test_default_deck_prefers_the_first_preset_then_the_order_acquired() -> None:
    pack = packlib.starter()
    first = pack.presets[0]
    extra_units = [u for u in pack.units if u not in first.units][:3]
    held = lg.Collection((*extra_units, *first.units[2:]), tuple(pack.chest)[::-1])
    units, chest = lg.default_deck(pack, held)
    assert units == (*first.units[2:], *extra_units[:2])
    assert chest[: len(first.chest)] == first.chest
    lg.check_deck(held, units, chest)
    # a collection holding a whole preset is offered it after its default
    whole = lg.Collection((*extra_units, *first.units), tuple(pack.chest))
    offers = lg.deck_offers(pack, whole)
    assert offers[0] == lg.default_deck(pack, whole) == (first.units, first.chest)
    assert len(offers) == len(set(offers))


# --- a league match ------------------------------------------------------------------------------


def play_out(options: dict[str, Any], seed: int) -> rules.ApeironState:
    rng = random.Random(seed)
    secret = RandomDice(random.Random(seed * 7 + 1))
    state = rules.new_game("g", rules.SEATS, options, RandomDice(rng), secret)
    for _ in range(MAX_STEPS):
        state, _ = rules.start_step(state, RandomDice(rng), secret)
        if state.ended is not None:
            break
        orders = {s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.awaiting(state)}
        state, _ = rules.resolve(state, orders, RandomDice(rng), secret)
        if state.ended is not None:
            break
    assert state.ended is not None, "the game did not end"
    return state


def league_rosters(pack: packlib.Pack) -> dict[str, tuple[Held, dict[str, Any]]]:
    units, chest = list(pack.units), list(pack.chest)
    a = entries(pack, units[0:11:1], chest[0:8])  # more than a deck: the player chooses
    b = entries(pack, units[11:22], chest[8:16]) + entries(pack, units[11:13], [])
    return {"A": (Held(a), {}), "B": (Held(b), {})}


@pytest.mark.parametrize("which", ["starter", "hostile"])
def test_a_league_match_plays_to_its_end_with_decks_from_the_collections(
    which: str, hostile: packlib.Pack
) -> None:
    pack = packlib.starter() if which == "starter" else hostile
    rosters = lg.ApeironRosters.for_pack(pack)
    held = league_rosters(pack)
    fixed = lg.LEAGUE.fixed({"time_control": "tournament", "turn_limit": 30})
    options = {**rosters.match_options(fixed, held), "league": "lg-1"}
    assert options["minutes"] == lg.TOURNAMENT_MINUTES and options["turn_limit"] == 30
    assert ("pack" in options) == (which == "hostile")
    if which == "hostile":
        assert options["pack_hash"] == hostile.hash
    rules.check_options(options)
    collections = {s: lg.Collection.of(r.units) for s, (r, _) in held.items()}
    for seed in (1, 2):
        state = play_out(dict(options), seed)
        assert state.winner in rules.SEATS
        for seat in rules.SEATS:
            lg.check_deck(collections[seat], state.decks[seat]["units"], state.decks[seat]["chest"])
    # the record keeps the collections, and the state loads back
    loaded = rules.from_json(rules.to_json(state))
    assert loaded.options["collections"] == options["collections"]


def test_the_deck_step_of_a_league_match(hostile: packlib.Pack) -> None:
    rosters = lg.ApeironRosters.for_pack(hostile)
    held = league_rosters(hostile)
    options = rosters.match_options(lg.LEAGUE.fixed({}), held)
    assert "minutes" not in options and "turn_limit" not in options
    state = rules.new_game(
        "g", rules.SEATS, options, RandomDice(random.Random(0)), RandomDice(random.Random(1))
    )
    state, _ = rules.start_step(state, RandomDice(random.Random(0)))
    mine = lg.Collection.of(held["A"][0].units)
    theirs = lg.Collection.of(held["B"][0].units)
    # the deadline's deck and the buttons come from the seat's own collection
    default = rules.default_order(state, "A")
    assert (default.units, default.chest) == lg.default_deck(hostile, mine)
    (group,) = rules.choices(state, "A")
    for choice in group.choices:
        order = rules.parse(state, "A", choice.token)
        lg.check_deck(mine, order.units, order.chest)
    view = rules.view(state, "A")
    assert view["you"]["presets"][0] == {"units": list(default.units), "chest": list(default.chest)}
    assert "presets" not in rules.view(state, None).get("you", {})
    for card_id in (*mine.units, *theirs.chest):
        assert card_id in rules.view(state, None)["cards"]
    # a typed deck: any 8 + 6 of the collection, nothing else
    typed = f"deck {' '.join(mine.units[3:])} chest {' '.join(mine.chest[2:])}"
    assert rules.parse(state, "A", typed).units == mine.units[3:]
    taken = f"deck {' '.join(mine.units[:7])} {theirs.units[0]} chest {' '.join(mine.chest[:6])}"
    with pytest.raises(RuleError) as refused:
        rules.parse(state, "A", taken)
    assert refused.value.key == lg.E_NOT_HELD
    # a game outside a league is unchanged: the pack's presets
    free = rules.new_game(
        "f",
        rules.SEATS,
        {"pack": hostile.source},
        RandomDice(random.Random(0)),
        RandomDice(random.Random(1)),
    )
    free, _ = rules.start_step(free, RandomDice(random.Random(0)))
    first = hostile.presets[0]
    assert (rules.default_order(free, "A").units, rules.default_order(free, "A").chest) == (
        first.units,
        first.chest,
    )


@pytest.mark.parametrize(
    "collections",
    [
        "A",
        {"C": {"units": [], "chest": []}},
        {"A": {"units": ["u01"]}},
        {"A": {"units": ["u01"] * 8, "chest": ["i01", "i02", "i03", "i04", "i05", "i06"]}},
        {"A": {"units": [f"u{n:02d}" for n in range(1, 9)], "chest": ["i01"]}},
        {
            "A": {
                "units": [f"u{n:02d}" for n in range(1, 9)],
                "chest": [f"u{n:02d}" for n in (9, 10, 11, 12, 13, 14)],
            }
        },
    ],
)
def test_check_options_refuses_a_bad_collection(collections: Any) -> None:
    with pytest.raises(RuleError) as refused:
        rules.check_options({"collections": collections})
    assert refused.value.key.startswith("apeiron.league.")


# --- results -------------------------------------------------------------------------------------

PLAYERS = {"A": "111", "B": "222"}


def test_the_result_of_a_finished_match(hostile: packlib.Pack) -> None:
    rosters = lg.ApeironRosters.for_pack(hostile)
    options = rosters.match_options(lg.LEAGUE.fixed({"turn_limit": 12}), league_rosters(hostile))
    for seed in range(4):
        state = play_out(dict(options), seed)
        stored = rules.to_json(state)
        found = lg.LEAGUE.result(stored, rules.outcome(state), PLAYERS)
        winner, loser = state.winner, rules.other(state.winner)
        assert found.winner == PLAYERS[winner]
        assert found.places == {PLAYERS[winner]: 1, PLAYERS[loser]: 2}
        for seat in rules.SEATS:
            living = [u for u in state.units[seat] if u.square is not None and u.hp > 0]
            assert found.figure(PLAYERS[seat], lg.UNITS_LEFT) == len(living)
            assert found.figure(PLAYERS[seat], lg.HP_LEFT) == sum(u.hp for u in living)
        if state.ended == "annihilation":
            assert found.figure(PLAYERS[loser], lg.UNITS_LEFT) == 0
        if state.ended == "turn_limit":  # the tie-break the figures are
            w, lo = (
                (found.figure(PLAYERS[s], lg.UNITS_LEFT), found.figure(PLAYERS[s], lg.HP_LEFT))
                for s in (winner, loser)
            )
            assert w >= lo


def test_the_result_of_a_resignation_and_a_moderators_ruling(hostile: packlib.Pack) -> None:
    rosters = lg.ApeironRosters.for_pack(hostile)
    options = rosters.match_options(lg.LEAGUE.fixed({}), league_rosters(hostile))
    rng = random.Random(5)
    secret = RandomDice(random.Random(6))
    state = rules.new_game("g", rules.SEATS, options, RandomDice(rng), secret)
    while state.turn < 3 or state.step != rules.PLAY:
        state, _ = rules.start_step(state, RandomDice(rng), secret)
        orders = {s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.awaiting(state)}
        state, _ = rules.resolve(state, orders, RandomDice(rng), secret)
        assert state.ended is None
    stored = rules.to_json(state)
    # A resigns: B wins, each side's figures as the field stands
    gave_up, _ = rules.resign(state, "A")
    assert rules.outcome(gave_up) == Outcome.win("B", reason="resign")
    resigned = lg.LEAGUE.result(rules.to_json(gave_up), rules.outcome(gave_up), PLAYERS)
    assert resigned.places == {"111": 2, "222": 1} and resigned.winner == "222"
    for seat in rules.SEATS:
        assert resigned.figure(PLAYERS[seat], lg.UNITS_LEFT) == sum(
            1 for u in state.units[seat] if u.square is not None and u.hp > 0
        )
        assert resigned.figure(PLAYERS[seat], lg.HP_LEFT) > 0
    # before deployment (a resignation at the deck step): nobody has units on the field
    early = rules.new_game("h", rules.SEATS, options, RandomDice(rng), secret)
    found = lg.LEAGUE.result(rules.to_json(early), Outcome.win("A", reason="resign"), PLAYERS)
    assert found.places == {"111": 1, "222": 2}
    assert found.figure("111", lg.UNITS_LEFT) == found.figure("222", lg.HP_LEFT) == 0
    # a moderator's ruling goes by the tie-break: more units, more H, the first player
    ruled, _ = rules.adjudicate(state)
    by_rule = lg.LEAGUE.result(rules.to_json(ruled), rules.outcome(ruled), PLAYERS)
    figures = {
        s: (by_rule.figure(PLAYERS[s], lg.UNITS_LEFT), by_rule.figure(PLAYERS[s], lg.HP_LEFT))
        for s in rules.SEATS
    }
    winner = ruled.winner
    assert by_rule.winner == PLAYERS[winner]
    loser = rules.other(winner)
    assert figures[winner] > figures[loser] or (
        figures[winner] == figures[loser] and ruled.first == winner
    )
    # Apeiron has no draw, but an outcome without a winner places both first
    assert lg.LEAGUE.result(stored, Outcome.drawn(), PLAYERS).places == {"111": 1, "222": 1}


# --- the declaration and the options ------------------------------------------------------------


def test_the_declaration_and_its_fixed_options() -> None:
    assert RULESET.league is lg.LEAGUE
    assert lg.LEAGUE.rosters is not None and not lg.LEAGUE.rosters.has_masters
    assert lg.LEAGUE.master_options is None
    assert lg.LEAGUE.figures == (lg.UNITS_LEFT, lg.HP_LEFT)
    assert lg.LEAGUE.fixed({}) == {"time_control": "standard", "turn_limit": 0}
    time_control = lg.LEAGUE.option("time_control")
    assert isinstance(time_control, FixedOption)
    assert time_control.values == ("standard", "tournament")
    for _, key in time_control.choices:
        for lang in LANGS:
            assert key in catalogue(lang)
    assert "2" in t("en", "apeiron.league.time_control.tournament")
    assert "2" in t("ja", "apeiron.league.time_control.tournament")
    for given in ({"time_control": "blitz"}, {"turn_limit": -1}, {"turn_limit": 100}):
        with pytest.raises(OptionRefused) as refused:
            lg.LEAGUE.fixed(given)
        for lang in LANGS:
            assert refused.value.key in catalogue(lang)
            assert "{" not in t(lang, refused.value.key, **refused.value.params)
    # what each choice makes of a match's options
    rosters = lg.ApeironRosters()
    held = league_rosters(packlib.starter())
    for given, minutes in (({}, rules.DEFAULT_MINUTES), ({"time_control": "tournament"}, 2)):
        options = rosters.match_options(lg.LEAGUE.fixed(given), held)
        game = rules.new_game("g", rules.SEATS, options, RandomDice(random.Random(0)), DICE)
        assert rules.step_seconds(game) == minutes * 60
    limited = rosters.match_options(lg.LEAGUE.fixed({"turn_limit": 8}), held)
    assert limited["turn_limit"] == 8


# --- what the league side reads: its pack fixed in its options, the draft's picks -----------


def test_rosters_from_a_leagues_stored_pack(hostile: packlib.Pack) -> None:
    fixed = lg.ApeironRosters.from_options({"pack": hostile.source, "pack_hash": hostile.hash})
    assert fixed.pack.hash == hostile.hash
    assert [c for c, _ in fixed.pool()] == [
        c for c, _ in lg.ApeironRosters.for_pack(hostile).pool()
    ]
    assert lg.ApeironRosters.from_options({}).pack.hash == packlib.starter().hash
    with pytest.raises(RuleError) as refused:
        lg.ApeironRosters.from_options({"pack": hostile.source, "pack_hash": "0" * 64})
    assert refused.value.key == lg.E_OPTION


def test_check_pick_keeps_a_deck_within_reach(hostile: packlib.Pack) -> None:
    units, chest = list(hostile.units), list(hostile.chest)
    assert lg.DRAFT_PICKS == 14
    # 14 picks for 8 units and 6 chest cards: with 7 units held and 7 picks to come, a chest
    # card, or the eighth unit, is fine; after 8 units, only chest cards until 6 are held
    held = entries(hostile, units[:7], [])
    lg.check_pick(hostile, held, f"unit:{units[7]}", 6)
    lg.check_pick(hostile, held, f"chest:{chest[0]}", 6)
    held = entries(hostile, units[:8], [])
    with pytest.raises(lg.CollectionError) as refused:
        lg.check_pick(hostile, held, f"unit:{units[8]}", 5)
    assert refused.value.key == "apeiron.league.pick.chest"
    assert refused.value.params == {"need": 6, "left": 6}
    lg.check_pick(hostile, held, f"chest:{chest[0]}", 5)
    # a copy of a unit held adds no different unit
    held = entries(hostile, units[:7], chest[:6])
    with pytest.raises(lg.CollectionError) as refused:
        lg.check_pick(hostile, held, f"unit:{units[0]}", 0)
    assert refused.value.key == "apeiron.league.pick.units"
    lg.check_pick(hostile, held, f"unit:{units[9]}", 0)
    # with picks to spare anything of the pool goes; a card not in it never does
    lg.check_pick(hostile, (), f"chest:{chest[0]}", 20)
    for entry in (f"unit:{chest[0]}", "u01", f"chest:{units[0]}"):
        with pytest.raises(lg.CollectionError) as refused:
            lg.check_pick(hostile, (), entry, 20)
        assert refused.value.key == lg.E_NOT_HELD
    for key in (*lg.E_PICK.values(), *lg.E_SHORT.values(), *lg.E_DECK.values()):
        for lang in LANGS:
            assert key in catalogue(lang)
            assert "{" not in t(lang, key, need=1, left=2, have=3, size=8)


def test_the_deck_prompt_of_a_league_seat(hostile: packlib.Pack) -> None:
    from cogs.apeiron.present import question

    rosters = lg.ApeironRosters.for_pack(hostile)
    held = league_rosters(hostile)
    options = rosters.match_options(lg.LEAGUE.fixed({}), held)
    state = rules.new_game("g", rules.SEATS, options, RandomDice(random.Random(0)), DICE)
    state, _ = rules.start_step(state, RandomDice(random.Random(0)))
    mine = lg.Collection.of(held["B"][0].units)
    offers = rules.deck_offers(state, "B")
    for lang in LANGS:
        lines = question(rules.view(state, "B"), "B", lang)
        text = "\n".join(lines)
        # every card of the collection by name, and the numbered offers are the buttons' decks
        for card_id in mine.units:
            assert hostile.units[card_id].name(lang) in text
        for card_id in mine.chest:
            assert hostile.chest[card_id].name(lang) in text
        numbered = [line for line in lines if line.startswith("**")][2:]
        assert len(numbered) == len(offers)
        first_unit = hostile.units[offers[0][0][0]].name(lang)
        assert first_unit in numbered[0]
    # outside a league the prompt is as before: the pack's presets, no collection
    free = rules.new_game("f", rules.SEATS, {"pack": hostile.source}, DICE, DICE)
    free, _ = rules.start_step(free, DICE)
    lines = question(rules.view(free, "B"), "B", "en")
    assert "collection" not in "\n".join(lines)
    assert len(lines) == 1 + len(hostile.presets[: rules.PRESET_BUTTONS])


def test_find_a_typed_card(hostile: packlib.Pack) -> None:
    rosters = lg.ApeironRosters.for_pack(hostile)
    assert rosters.find("chest:a1") == ["chest:a1"]
    assert rosters.find(" A1 ") == ["chest:a1"]  # an id shaped like a square is still a card
    assert rosters.find("CHEST") == ["chest:chest"]
    stalwart = next(u for u in hostile.units.values() if u.name_en == "守衛長")
    assert rosters.find("守衛長") == [f"unit:{stalwart.id}"]
    assert rosters.find(stalwart.name_ja) == [f"unit:{stalwart.id}"]
    tonic = hostile.chest["keep"]
    assert rosters.find(tonic.name_en.upper()) == ["chest:keep"]
    assert rosters.find("unit:keep") == [] and rosters.find("") == []
    # a unit and a chest card with one name: both, for the caller to ask which
    shared = packlib.loads(HOSTILE.replace(f'name_en = "{tonic.name_en}"', 'name_en = "守衛長"', 1))
    both = lg.ApeironRosters.for_pack(shared).find("守衛長")
    assert sorted(both) == sorted([f"unit:{stalwart.id}", "chest:keep"])
