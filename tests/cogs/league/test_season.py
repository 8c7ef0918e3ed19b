"""A small season in pure form: four players, a snake draft with one automatic pick, masters set,
three matches recorded, an ante declared, changed and locked at the winner's next match, another
lapsed, a third voided; the refusals; standings and ratings; every unit's history; JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from openskill.models import PlackettLuce

from bot.i18n import catalogue
from bot.ruleset import RuleError
from cogs.league import ante as A
from cogs.league import draft as D
from cogs.league.ledger import (
    ANTE_GAIN,
    ANTE_LOSS,
    DRAFT_PICK,
    MASTER_SET,
    MODERATOR_ADD,
    Entry,
    Roster,
    append,
    history,
    line,
    roster_at,
)
from cogs.league.standings import Result, standings
from cogs.tactics.master import preset
from cogs.tactics.units import pool

LEAGUE = "spring"
PLAYERS = ["alice", "bob", "carol", "dave"]
MOD = "mod"
PER_PICK = 60.0
# the tactics pool with a second knight at the end: a unit two players can both hold
POOL = [*((u.id, u.cost) for u in pool()), ("knight", 3)]
MANUAL = {  # pick number -> (player, unit, at); pick 4 is left to run out
    1: ("alice", "knight", 10.0),
    2: ("bob", "knight", 20.0),
    3: ("carol", "saint", 30.0),
    5: ("dave", "archer", 100.0),
    6: ("carol", "mage", 110.0),
    7: ("bob", "lancer", 120.0),
    8: ("alice", "guardian", 130.0),
    9: ("alice", "cleric", 140.0),
    10: ("bob", "bard", 150.0),
    11: ("carol", "thief", 160.0),
    12: ("dave", "ninja", 170.0),
}
MASTERS = {"alice": "warlord", "bob": "archmage", "carol": "oracle", "dave": "shadow"}


def refused(key: str, call, *args, **kwargs) -> RuleError:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as info:
        call(*args, **kwargs)
    assert info.value.key == key
    return info.value


def run_draft() -> D.DraftState:
    state = D.new_draft(LEAGUE, PLAYERS, POOL, rounds=3, per_pick=PER_PICK, at=0.0)
    for number in range(1, 13):
        if number == 4:
            assert state.current == "dave"
            assert state.deadline_at == 30.0 + PER_PICK
            assert not D.expired(state, 89.9)
            assert D.expired(state, 90.0)
            state = D.run_expired(state, 95.0)  # the bot picks for dave at the deadline
            continue
        player, unit, at = MANUAL[number]
        assert state.current == player
        state = D.pick(state, player, unit, at)
    return state


@dataclass
class Season:
    draft: D.DraftState
    entries: list[Entry]
    antes: list[A.Ante]
    results: list[Result]
    refusals: dict[str, RuleError]


def run_season() -> Season:
    draft = run_draft()
    entries = append([], *D.ledger_entries(draft))
    entries = append(
        entries,
        *(Entry(LEAGUE, p, m, MASTER_SET, 200.0, MOD, note="approved") for p, m in MASTERS.items()),
        Entry(LEAGUE, "alice", "knight", MODERATOR_ADD, 210.0, MOD, note="prize"),
    )
    refusals: dict[str, RuleError] = {}
    results: list[Result] = []

    # match 1: alice beats bob 5-2; alice is offered bob's roster as it stood at the end
    results.append(Result("m1", "alice", "bob", "alice", 5, 2, at=1000.0))
    a1 = A.offer(entries, LEAGUE, "m1", "alice", "bob", 1000.0)
    refusals["not_winner"] = refused(
        "league.ante.not_winner", A.declare, a1, entries, "bob", "lancer", 1001.0
    )
    refusals["master"] = refused(
        "league.ante.master", A.declare, a1, entries, "alice", "archmage", 1002.0
    )
    refusals["held_twice"] = refused(
        "league.ante.held_twice", A.declare, a1, entries, "alice", "knight", 1003.0
    )
    refusals["not_candidate"] = refused(
        "league.ante.not_candidate", A.declare, a1, entries, "alice", "saint", 1004.0
    )
    a1 = A.declare(a1, entries, "alice", "lancer", 1010.0)
    a1 = A.declare(a1, entries, "alice", "bard", 1020.0)  # a change

    # match 2: carol beats dave 4-3; carol never picks
    results.append(Result("m2", "carol", "dave", "carol", 4, 3, at=2000.0))
    a2 = A.offer(entries, LEAGUE, "m2", "carol", "dave", 2000.0)

    # match 3 starts: alice's pick locks and moves, carol's right lapses
    antes, entries = A.on_match_start([a1, a2], entries, ["alice", "carol"], "m3", 3000.0)
    a1, a2 = antes
    refusals["locked"] = refused(
        "league.ante.locked", A.declare, a1, entries, "alice", "lancer", 3001.0
    )
    refusals["lapsed"] = refused(
        "league.ante.lapsed", A.declare, a2, entries, "carol", "archer", 3002.0
    )

    # match 3: carol beats alice 5-4; carol declares, a moderator extends, then voids
    results.append(Result("m3", "alice", "carol", "carol", 4, 5, at=3500.0))
    a3 = A.offer(entries, LEAGUE, "m3", "carol", "alice", 3500.0)
    a3 = A.declare(a3, entries, "carol", "guardian", 3600.0)
    a3 = A.extend(a3, MOD, 9000.0, 3650.0)
    a3 = A.void(a3, MOD, "declared after the agreed waiver", 3700.0)
    refusals["void"] = refused(
        "league.ante.void", A.declare, a3, entries, "carol", "cleric", 3800.0
    )
    return Season(draft, entries, [a1, a2, a3], results, refusals)


SEASON = run_season()


# --- the draft ---------------------------------------------------------------------------------


def test_snake_order() -> None:
    assert D.order(["a", "b", "c"], 3) == ["a", "b", "c", "c", "b", "a", "a", "b", "c"]
    assert SEASON.draft.sequence == [*PLAYERS, *reversed(PLAYERS), *PLAYERS]


def test_the_late_pick_is_made_by_the_bot_at_the_deadline() -> None:
    auto = [p for p in SEASON.draft.picks if p.auto]
    # saint (6) went at pick 3; the highest cost left is 5, and catapult is first in the pool
    assert [(p.number, p.player, p.unit, p.at) for p in auto] == [(4, "dave", "catapult", 90.0)]
    assert SEASON.draft.over and SEASON.draft.current is None and SEASON.draft.deadline_at is None
    assert SEASON.draft.picks_of("dave") == ["catapult", "archer", "ninja"]


def test_auto_pick_breaks_ties_by_pool_order() -> None:
    state = D.new_draft(
        "x", ["a"], [("m", 1), ("q", 5), ("r", 5), ("s", 2)], rounds=2, per_pick=1, at=0
    )
    assert D.auto_pick(state) == "q"
    assert D.auto_pick(D.pick(state, "a", "q", 0.5)) == "r"


def test_run_expired_catches_up_after_a_pause() -> None:
    state = D.new_draft(
        "x", ["a", "b"], [("m", 1), ("q", 5), ("r", 4)], rounds=1, per_pick=10, at=0
    )
    state = D.run_expired(state, 25.0)  # both clocks ran out while the bot was away
    assert [(p.player, p.unit, p.at, p.auto) for p in state.picks] == [
        ("a", "q", 10.0, True),
        ("b", "r", 20.0, True),
    ]


def test_draft_refusals() -> None:
    start = D.new_draft(LEAGUE, PLAYERS, POOL, rounds=3, per_pick=PER_PICK, at=0.0)
    err = refused("league.draft.not_your_turn", D.pick, start, "bob", "knight", 1.0)
    assert err.params == {"player": "alice"}
    refused("league.draft.unknown_unit", D.pick, start, "alice", "dragon", 1.0)
    two_knights = D.pick(D.pick(start, "alice", "knight", 1.0), "bob", "knight", 2.0)
    refused("league.draft.taken", D.pick, two_knights, "carol", "knight", 3.0)
    refused("league.draft.over", D.pick, SEASON.draft, "alice", "militia", 999.0)
    refused("league.draft.over", D.auto_pick, SEASON.draft)


def test_draft_json_round_trip() -> None:
    for state in (SEASON.draft, D.new_draft("x", ["a"], [("m", 1)], rounds=1, per_pick=5, at=3)):
        data = json.loads(json.dumps(state.to_json()))
        assert D.DraftState.from_json(data) == state


# --- ante --------------------------------------------------------------------------------------


def test_candidates_leave_out_the_master_and_units_held_twice() -> None:
    a1, a2, a3 = SEASON.antes
    assert a1.candidates == ("lancer", "bard")  # bob's knight: alice holds two
    assert a1.loser_master == "archmage"
    assert a2.candidates == ("catapult", "archer", "ninja")
    # alice's roster when match 3 ended: bard already won from bob
    assert a3.candidates == ("knight", "guardian", "cleric", "bard")


def test_refusals_carry_a_clear_reason() -> None:
    r = SEASON.refusals
    assert r["not_winner"].params == {"winner": "alice"}
    assert r["master"].params == {"unit": "archmage"}
    assert r["held_twice"].params == {"unit": "knight"}
    assert r["not_candidate"].params == {"unit": "saint"}
    assert r["locked"].params == {"unit": "bard"}
    en, ja = catalogue("en"), catalogue("ja")
    for err in r.values():
        assert en[err.key].format(**err.params) and ja[err.key].format(**err.params)


def test_declared_changed_and_locked_at_the_next_match() -> None:
    a1 = SEASON.antes[0]
    assert a1.status == A.LOCKED and a1.pick == "bard"
    assert [(x.action, x.by, x.at, x.unit) for x in a1.log] == [
        ("offer", "system", 1000.0, ""),
        ("declare", "alice", 1010.0, "lancer"),
        ("change", "alice", 1020.0, "bard"),
        ("lock", "system", 3000.0, "bard"),
    ]
    assert a1.log[-1].note == "m3"


def test_no_pick_lapses_and_a_moderator_voids() -> None:
    _, a2, a3 = SEASON.antes
    assert a2.status == A.LAPSED and a2.pick is None
    assert [(x.action, x.at) for x in a2.log] == [("offer", 2000.0), ("lapse", 3000.0)]
    assert a3.status == A.VOID and a3.pick == "guardian"
    assert [(x.action, x.by) for x in a3.log] == [
        ("offer", "system"),
        ("declare", "carol"),
        ("extend", MOD),
        ("void", MOD),
    ]
    assert a3.log[-1].note == "declared after the agreed waiver" and a3.deadline == 9000.0
    assert A.open_antes(SEASON.antes) == []
    for key in ("league.ante.locked", "league.ante.lapsed", "league.ante.void"):
        closed = next(a for a in SEASON.antes if f"league.ante.{a.status}" == key)
        refused(key, A.void, closed, MOD, "again", 4000.0)
        refused(key, A.extend, closed, MOD, 5000.0, 4000.0)


def test_a_moderator_deadline_replaces_the_next_match() -> None:
    entries = SEASON.entries
    open_ = A.declare(
        A.offer(entries, LEAGUE, "m9", "bob", "dave", 5000.0), entries, "bob", "ninja", 5001.0
    )
    later = A.extend(open_, MOD, 7000.0, 5002.0)
    antes, same = A.on_match_start([later], entries, ["bob", "alice"], "m10", 6000.0)
    assert antes == [later] and same == entries  # still open: the deadline is later
    assert A.open_antes(antes) == [later]
    assert not A.due(later, 6999.0) and A.due(later, 7000.0)
    refused("league.ante.locked", A.declare, later, entries, "bob", "archer", 7000.0)
    settled, moved = A.settle_due(antes, entries, 7500.0)
    assert settled[0].status == A.LOCKED and settled[0].log[-1].at == 7000.0
    assert (
        roster_at(moved, "bob").count("ninja") == 1
        and "ninja" not in roster_at(moved, "dave").units
    )
    # an earlier deadline settles the ante before the match would have
    sooner = A.extend(open_, MOD, 5500.0, 5002.0)
    settled, _ = A.settle_due([sooner], entries, 5600.0)
    assert settled[0].status == A.LOCKED and settled[0].log[-1].at == 5500.0


def test_a_pick_that_can_no_longer_move_lapses_at_the_lock() -> None:
    entries = SEASON.entries
    ante = A.declare(
        A.offer(entries, LEAGUE, "m9", "bob", "dave", 5000.0), entries, "bob", "ninja", 5001.0
    )
    gone = append(entries, Entry(LEAGUE, "dave", "ninja", "moderator_remove", 5100.0, MOD))
    settled, after = A.settle(ante, gone, 5200.0, ref="m10")
    assert settled.status == A.LAPSED and settled.log[-1].note == "not_held" and after == gone


def test_ante_json_round_trip() -> None:
    for ante in SEASON.antes:
        assert A.Ante.from_json(json.loads(json.dumps(ante.to_json()))) == ante


# --- the ledger --------------------------------------------------------------------------------


def test_rosters_now_and_as_of_a_time() -> None:
    e = SEASON.entries
    assert roster_at(e, "alice") == Roster(
        "alice", ("knight", "guardian", "cleric", "knight", "bard"), "warlord"
    )
    assert roster_at(e, "bob") == Roster("bob", ("knight", "lancer"), "archmage")
    assert roster_at(e, "bob", 2999.0).units == ("knight", "lancer", "bard")
    assert roster_at(e, "dave", 95.0) == Roster("dave", ("catapult",), None)
    assert roster_at(e, "carol").units == ("saint", "mage", "thief")  # the void moved nothing
    assert roster_at(e, "nobody") == Roster("nobody")
    assert preset(roster_at(e, "carol").master or "") is not None


def test_the_ledger_tells_each_units_history() -> None:
    e = SEASON.entries
    bard_bob = history(e, "bob", "bard")
    assert [(x.kind, x.at, x.ref) for x in bard_bob] == [
        (DRAFT_PICK, 150.0, "10"),
        (ANTE_LOSS, 3000.0, "m1"),
    ]
    assert [(x.kind, x.ref, x.note) for x in history(e, "alice", "bard")] == [
        (ANTE_GAIN, "m1", "m3")
    ]
    assert [(x.kind, x.by) for x in history(e, "alice", "knight")] == [
        (DRAFT_PICK, "alice"),
        (MODERATOR_ADD, MOD),
    ]
    [auto] = history(e, "dave", "catapult")
    assert (auto.kind, auto.by, auto.ref, auto.note) == (DRAFT_PICK, "draft", "4", "auto")
    en, ja = catalogue("en"), catalogue("ja")
    for entry in e:
        key, params = line(entry)
        assert en[key].format(**params) and ja[key].format(**params)


def test_the_ledger_refuses_impossible_entries() -> None:
    e = SEASON.entries
    refused(
        "league.ledger.not_held", append, e, Entry(LEAGUE, "bob", "bard", ANTE_LOSS, 4000.0, MOD)
    )
    refused(
        "league.ledger.too_many",
        append,
        e,
        Entry(LEAGUE, "alice", "knight", MODERATOR_ADD, 4000.0, MOD),
    )
    refused(
        "league.ledger.bad_kind", append, e, Entry(LEAGUE, "alice", "knight", "gift", 4000.0, MOD)
    )
    early = Entry(LEAGUE, "bob", "saint", MODERATOR_ADD, 5.0, MOD)
    err = refused("league.ledger.backdated", append, e, early)
    assert err.params == {"latest": max(x.at for x in e)} == {"latest": 3000.0}


def test_ledger_json_round_trip() -> None:
    e = SEASON.entries
    assert [Entry.from_json(json.loads(json.dumps(x.to_json()))) for x in e] == e
    roster = roster_at(e, "alice")
    assert Roster.from_json(json.loads(json.dumps(roster.to_json()))) == roster


# --- standings ---------------------------------------------------------------------------------


def test_standings_and_ratings() -> None:
    rows = standings(PLAYERS, SEASON.results)
    table = [
        (r.player, r.played, r.won, r.drawn, r.lost, r.dp_for, r.dp_against, r.points) for r in rows
    ]
    assert table[:2] == [
        ("carol", 2, 2, 0, 0, 9, 7, 6),
        ("alice", 2, 1, 0, 1, 9, 7, 3),
    ]
    assert sorted(table[2:]) == [("bob", 1, 0, 0, 1, 2, 5, 0), ("dave", 1, 0, 0, 1, 3, 4, 0)]
    # the ratings are OpenSkill's, replayed by hand here in the same order
    model = PlackettLuce()
    r = {p: model.rating(name=p) for p in PLAYERS}
    for m in SEASON.results:
        ranks = [1, 2] if m.winner == m.a else [2, 1]
        [[r[m.a]], [r[m.b]]] = model.rate([[r[m.a]], [r[m.b]]], ranks=ranks)
    for row in rows:
        assert row.mu == pytest.approx(r[row.player].mu)
        assert row.sigma == pytest.approx(r[row.player].sigma)
        assert row.rating == pytest.approx(r[row.player].ordinal())
    # bob and dave tie on points: the rating decides
    assert rows[2].rating >= rows[3].rating
    assert rows[0].mu > 25 > rows[3].mu


def test_a_draw_and_results_json() -> None:
    draw = Result("m4", "bob", "dave", None, 3, 3, at=4000.0)
    rows = {r.player: r for r in standings(PLAYERS, [*SEASON.results, draw])}
    assert (rows["bob"].drawn, rows["bob"].points, rows["dave"].points) == (1, 1, 1)
    for result in [*SEASON.results, draw]:
        assert Result.from_json(json.loads(json.dumps(result.to_json()))) == result


def test_a_late_deadline_worker_never_backdates_the_ledger() -> None:
    entries = SEASON.entries
    ante = A.offer(entries, LEAGUE, "m9", "bob", "dave", 5000.0)
    ante = A.extend(A.declare(ante, entries, "bob", "ninja", 5001.0), MOD, 5500.0, 5002.0)
    later = append(entries, Entry(LEAGUE, "carol", "militia", MODERATOR_ADD, 5800.0, MOD))
    [settled], moved = A.settle_due([ante], later, 6000.0)
    assert settled.status == A.LOCKED and moved[-1].at == 5800.0
