"""Esper war, part 2: what a combat shows the channel depends on public facts only
(``../shared/rules/esper.md``, "What the channel may depend on").

Who a reaction step asks (sync, block, [戦闘前]) is every seat the rules make eligible by public
facts, whatever its hand or sheet holds (a seat with nothing to play gets ``pass`` alone); a
[戦闘前] ability is used without its name in public; the "actually there" roll posts its dice and
result, its sheet bonus only to the roller; an order the seat cannot pay for is refused at
submission, and a planned action that no longer holds is skipped in its seat's DM only (a combat
turn's order is withheld: its words may name an ability or a card)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.i18n import t
from bot.ruleset import Event, RuleError
from cogs.esper import ai, cog, rules
from cogs.esper import combat as combats
from cogs.esper import pack as packlib
from cogs.esper.present import PRESENTER
from tests.cogs.esper.test_combat import FIVE, fighting, play
from tests.cogs.esper.test_rules import PACK, RandomDice, of, one, opened, rejected, table

NAMES = {s: f"Player {s}" for s in rules.SEATS}
LANGS = ("en", "ja")


def public_text(events: Sequence[Event]) -> str:
    shown = [e.to_json() for e in events if e.to is None]
    return "\n".join(line for lang in LANGS for line in PRESENTER.event_lines(shown, lang, NAMES))


def asks(state: rules.EsperState, seat: str, lang: str = "en") -> list[str]:
    """The prompt's question (its sheet is behind 📋)."""
    return PRESENTER.question(rules.view(state, seat), seat, lang)


def stem(lang: str, key: str) -> str:
    return t(lang, key).split("{")[0]


def asked(state: rules.EsperState, seat: str, key: str) -> bool:
    """Whether the seat's prompt says ``key`` (its words before the first blank), both languages."""
    return all(any(stem(lang, key) in line for line in asks(state, seat, lang)) for lang in LANGS)


def tokens(state: rules.EsperState, seat: str) -> list[str]:
    return [c.token for group in rules.choices(state, seat) for c in group.choices]


def names(*ids: str) -> list[str]:
    found = rules.names_of(PACK, list(ids))
    return [name for both in found.values() for name in both.values()]


# --- who is asked ---------------------------------------------------------------------------------


def test_a_block_step_with_one_card_holder_asks_every_eligible_seat() -> None:
    # A attacks C (Mind Spike: no sync); C escapes by teleport (Phase Shift, level 4). Only B
    # holds a teleport card, yet A (who acted) and D are asked too: the escape may be blocked
    # "with syncs even from those who acted", and asking B alone would tell everyone B holds one
    state = fighting(
        seats=("A", "B", "C", "D"), hands={"A": ["k02"], "B": ["k24"], "C": ["k25"], "D": []}
    )
    state, _ = play(state, {"A": "card k02 C"})
    assert state.step == combats.DEFEND and state.waiting == ["C"]
    state, _ = play(state, {"C": "escape k25 left"})
    state = opened(state)
    assert state.step == combats.BLOCK
    assert rules.awaiting(state) == ["A", "B", "D"]
    # a seat with nothing to play gets the prompt with `pass` only, and a card it lacks is refused
    for seat in ("A", "D"):
        assert tokens(state, seat) == ["pass"]
        assert asked(state, seat, "esper.ask.block_none")
    assert rejected(state, "A", "block k24") == combats.R_CARD
    assert tokens(state, "B") == ["pass", "block k24"]
    # the step closes as any other: all answered (here A and D by default), the block resolved
    state, events = play(state, {"B": "block k24"}, rolls=[2])
    block = one(events, "block").data
    assert (block["by"], block["level"], block["blocked"]) == (["B"], 2, False)
    assert state.seats["C"].spot == "P1-6" and state.combat is not None
    assert "C" not in state.combat.seats


def test_a_sync_step_asks_everyone_yet_to_act_whatever_they_hold() -> None:
    # A's Psi Bolt (sync) on C: B and D are yet to act; only D holds a lower sync card (none is
    # lower than level 1: nobody can add one) - both are asked all the same
    state = fighting(
        seats=("A", "B", "C", "D"), hands={"A": ["k03"], "B": ["k22"], "C": [], "D": ["k01"]}
    )
    state, _ = play(state, {"A": "card k03 C"})
    state = opened(state)
    assert state.step == combats.SYNC and rules.awaiting(state) == ["B", "D"]
    assert tokens(state, "B") == ["pass"]
    assert asked(state, "B", "esper.ask.sync_none")
    assert tokens(state, "D") == ["pass", "sync k01"]
    state, events = play(state, {"B": "pass", "D": "sync k01"})
    assert one(events, "sync_total").data["helpers"] == ["D"]
    assert state.step == combats.DEFEND and state.waiting == ["C"]


def test_nobody_yet_to_act_means_no_sync_step() -> None:
    # the last to act attacks: nobody may sync, a public fact, so the defence comes at once
    state = fighting(seats=("B", "C", "A"), hands={"A": ["k05"], "B": ["k01"], "C": ["k01"]})
    assert state.combat is not None
    state.combat.acted = ["B", "C"]
    state.combat.index = 2
    state.step, state.waiting = combats.CTURN, ["A"]
    state, _ = play(state, {"A": "card k05 C"})
    assert state.step == combats.DEFEND and state.waiting == ["C"]


def test_the_demo_ai_answers_a_pass_only_prompt() -> None:
    state = fighting(
        seats=("A", "B", "C", "D"), hands={"A": ["k02"], "B": [], "C": ["k25"], "D": ["k22"]}
    )
    state, _ = play(state, {"A": "card k02 C"})
    state, _ = play(state, {"C": "escape k25 left"})
    state = opened(state)
    assert state.step == combats.BLOCK
    for seat in rules.awaiting(state):  # nobody holds a teleport card
        text = ai.choose(state, seat, random.Random(seat))
        assert rules.parse(state, seat, text).canonical() == "pass", (seat, text)


# --- [戦闘前] ----------------------------------------------------------------------------------


def precombat_pack() -> packlib.Pack:
    """The sample pack with Echo Twins' (c10) Twin Resonance made a [戦闘前] ability."""
    text = packlib.SAMPLE.read_text("utf-8")
    old = 'id = "c10a"\nname_en = "Twin Resonance"'
    assert old in text, "the sample pack's c10a moved: fix the scenario"
    start = text.index(old)
    end = text.index('timing = "support"', start)
    text = text[:end] + 'timing = "pre-combat"' + text[end + len('timing = "support"') :]
    return packlib.loads(text)


def test_the_precombat_step_asks_every_newcomer_and_names_no_ability() -> None:
    state = table(*FIVE, spots={"A": "P1-1", "B": "P1-2", "E": "P1-2"})
    state.pack = precombat_pack()
    state.options = {k: v for k, v in state.options.items() if k not in ("pack", "pack_hash")}
    state, _ = play(state, {"A": "move right; fight"}, secret=RandomDice(2))
    assert state.combat is not None and state.combat.seats == ["A", "B", "E"]
    state, _ = play(state, {})  # C and D stay away
    state = opened(state)
    # only E (c10) has a [戦闘前] ability; every newcomer is asked
    assert state.step == combats.PRECOMBAT and rules.awaiting(state) == ["A", "B", "E"]
    assert tokens(state, "A") == ["pass"]
    assert asked(state, "A", "esper.ask.precombat_none")
    assert tokens(state, "E") == ["pass", "use c10a"]
    assert rules.withheld(state, "E"), "its answer names the ability"
    bonus = state.seats["E"].bonus
    state, events = rules.resolve(
        state, {"E": rules.parse(state, "E", "use c10a")}, RandomDice(3), RandomDice(4)
    )
    assert state.seats["E"].bonus == bonus + 2
    used = one(events, "precombat_used")
    assert used.to == ("E",) and used.data["ability"] == "c10a"
    text = public_text(events)
    for word in ["c10a", *names("c10a")]:
        assert word not in text, word
    assert not [e for e in events if e.to is None and "c10a" in str(e.data)]
    assert state.step == combats.CTURN


def test_no_precombat_step_when_the_pack_has_no_such_ability() -> None:
    # the sample pack's only [戦闘前] ability is a bonus to the "actually there" roll: no step
    assert not combats.pack_has_precombat(PACK)
    assert combats.pack_has_precombat(precombat_pack())


# --- the "actually there" roll --------------------------------------------------------------------


def test_the_actually_there_post_shows_the_dice_and_result_not_the_bonus() -> None:
    # B (c06, Jax Runner) has "Just in Time": +2 on the roll. 4+5 = 9, with the bonus 11: there
    state = table("c04", "c06", "c13", "c08", "c10", spots={"A": "P1-1", "B": "P3-3", "C": "P1-2"})
    state, _ = play(state, {"A": "move right; fight"}, secret=RandomDice(2))
    assert state.step == combats.ENTRY and "B" in state.waiting
    state, events = play(state, {"B": "join"}, rolls=[4, 5, *[1] * 39], secret=RandomDice(3))
    there = one(events, "there")
    assert there.to is None and there.data == {"seat": "B", "dice": [4, 5], "result": "yes"}
    text = public_text(events)
    line = next(line for line in text.splitlines() if "4+5" in line)
    assert "+2" not in line and "11" not in line, line
    private = one(events, "there_bonus")
    assert private.to == ("B",) and private.data["bonus"] == 2
    for lang in LANGS:
        (dm,) = PRESENTER.event_lines([private.to_json()], lang, NAMES)
        assert "+2" in dm and "11" in dm, dm
    assert state.combat is not None and "B" in state.combat.seats


# --- orders checked whole, skips told privately --------------------------------------------------


def test_an_order_that_costs_more_than_the_seat_has_is_refused_at_submission() -> None:
    # C (c13, mind 5) has 2 mind left: Drifter's Luck (2) and a peek card (1) each fit, not both
    state = fighting(seats=("C", "A", "B"), hands={"A": [], "B": [], "C": ["k01"]})
    state.seats["C"].hand = ["a10"]
    state.seats["C"].mind_lost = PACK.sheets["c13"].mind - 2
    state = opened(state)
    assert rules.parse(state, "C", "use c13a; card k01 A")
    assert rules.parse(state, "C", "use a10 A")
    assert rejected(state, "C", "use c13a; use a10 A") == rules.R_COST
    assert rejected(state, "C", "use c13a; card k01 A; use c13a") == rules.R_USED


def test_keeping_a_defence_without_the_power_for_its_upkeep_is_refused_at_submission() -> None:
    state = fighting(seats=("C", "A", "B"), hands={"A": [], "B": [], "C": []})
    assert state.combat is not None
    state.combat.maintained["C"] = {"card": "k18", "level": 4, "blocks": ["E", "M"], "upkeep": 1}
    state.seats["C"].power_lost = PACK.sheets["c13"].power
    state = opened(state)
    assert rejected(state, "C", "keep; pass") == rules.R_COST
    assert rules.parse(state, "C", "drop; pass")


def test_a_support_whose_target_died_is_skipped_in_its_dm_only() -> None:
    # B (c02) attacks C and plans Rally (recover 1 mind) on C after it; C dies of the attack
    state = fighting(seats=("B", "A", "C"), hands={"A": [], "B": ["k05"], "C": []})
    state, _ = play(state, {"B": "card k05 C; use c02a C"})
    state, _ = play(state, {"A": "pass"})  # asked to sync, as everyone yet to act is
    state, events = play(state, {"C": "durability 1"}, rolls=[6, 6])
    assert not state.seats["C"].alive
    why = one(events, "skipped_why")
    assert why.to == ("B",) and why.data["why"] == combats.R_TARGET
    assert not of(events, "skipped")
    text = public_text(events)
    for word in ["c02a", *names("c02a")]:
        assert word not in text, word
    assert state.step == combats.CTURN and state.waiting == ["A"]


# --- the reactions' deadline ----------------------------------------------------------------------


def test_reaction_steps_run_on_their_own_short_deadline() -> None:
    # A's sync attack on C: B is asked to sync, C to defend (reactions); turns keep ``minutes``
    state = fighting(hands={"A": ["k05"], "B": [], "C": []})
    state.options = {**state.options, "minutes": 20, "reaction_minutes": 2}
    assert rules.step_seconds(opened(state)) == 20 * 60
    state, _ = play(state, {"A": "card k05 C"})
    assert state.step == combats.SYNC and rules.step_seconds(opened(state)) == 2 * 60
    state, _ = play(state, {"B": "pass"})
    assert state.step == combats.DEFEND and rules.step_seconds(opened(state)) == 2 * 60
    del state.options["reaction_minutes"]
    assert rules.step_seconds(opened(state)) == rules.DEFAULT_REACTION_MINUTES * 60
    state, _ = play(state, {"C": "pass"}, rolls=[1, 1])
    assert state.step == combats.CTURN and rules.step_seconds(opened(state)) == 20 * 60


def test_the_reaction_deadline_is_an_option_of_the_lobby_checked_as_the_others() -> None:
    history = cog.build_history([1, 2, 3, 4, 5], [], season_start=None)
    options = cog.start_options(PACK, 10, 3, history, None, players=5, reaction_minutes=2)
    assert options["reaction_minutes"] == 2
    assert cog.start_options(PACK, 10, 3, history, None, players=5)["reaction_minutes"] == (
        rules.DEFAULT_REACTION_MINUTES
    )
    for wrong in (0, rules.MAX_MINUTES + 1, "2"):
        with pytest.raises(RuleError):
            rules.check_options({"reaction_minutes": wrong})
