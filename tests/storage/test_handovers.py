"""Substitutes on both backends (issue 34): a seat of a game of hidden information (Sealed Bids,
``tests/hidden_ruleset``) handed to another member mid-game, in one transaction: the seats row
names the newcomer, the handover is stored, the former player's waiting DMs are superseded, the
channel names who took the seat (never what it holds), and the newcomer is sent the seat's
private events, its sealed order and its prompt, nothing of another seat's. The former player's
orders are refused with the reason; the refusals (a seated member, no such seat, a seat that
left, a finished game, an offer made twice) hold; the export keeps the original players (its
players digest verifies) and the handover chain, replays and verifies, and a tampered handover
fails both.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot import registry
from bot.i18n import t
from bot.record import RecordError, replay, verify
from bot.ruleset import addressees
from bot.storage.base import OutboxRow, Repository
from bot.table import Player, Table, TableError
from tests.hidden_ruleset import RULESET as BIDS
from tests.hidden_ruleset import ai
from tests.hidden_ruleset import rules as bids
from tests.hidden_ruleset.present import PRESENTER
from tests.storage.backends import Backend
from tests.storage.test_table_on_both import CHANNEL, GUILD, Clock, entropy

SEATS = ("A", "B", "C", "D")
USERS = {seat: 1_152_921_504_606_846_976 + i for i, seat in enumerate(SEATS)}
NEWCOMER = Player(1_152_921_504_606_846_990, "newcomer 交代")
SECOND = Player(1_152_921_504_606_846_991, "second")


@pytest.fixture
def registered() -> Iterator[None]:
    registry.register(BIDS)
    yield
    registry.unregister(BIDS.key)


async def rows(repo: Repository, game_id: str) -> list[OutboxRow]:
    async with repo.read() as tx:
        return await tx.outbox_for_game(game_id)


def dm_text(row: OutboxRow) -> str:
    return str(row.payload.get("content") or "")


async def refused(key: str, call: object) -> None:
    with pytest.raises(TableError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.key == key


async def test_a_seat_is_handed_over_mid_game_and_the_record_verifies(
    registered: None, backend: Backend
) -> None:
    repo = await backend.open()
    clock = Clock()
    table = Table(repo, clock=clock, entropy=entropy())
    players = [Player(USERS[s], f"player {s}") for s in SEATS]
    game = await table.challenge(
        "bids", guild_id=GUILD, channel_id=CHANNEL, players=players, turn_seconds=600
    )
    for seat in SEATS[1:]:
        game = await table.accept(game.id, USERS[seat])
    rng = random.Random(5)
    state = bids.from_json(game.state or {})
    for seat in bids.awaiting(state):  # round 1: everyone plays, B's play is private to B
        clock.now += 1
        await table.submit(game.id, USERS[seat], ai.choose(state, seat, rng))
    game = await table.game(game.id)
    state = bids.from_json(game.state or {})
    assert state.round == 2 and "B" in bids.awaiting(state)
    sealed = ai.choose(state, "B", rng)
    await table.submit(game.id, USERS["B"], sealed)  # B's order for round 2, sealed before
    before = max(r.id for r in await rows(repo, game.id))
    waiting_for_b = [
        r
        for r in await rows(repo, game.id)
        if r.kind == "dm" and r.target_id == USERS["B"] and r.status == "pending"
    ]
    assert waiting_for_b, "the round's prompt to B is still waiting (no sender runs here)"

    # --- refusals --------------------------------------------------------------------------
    subs = table.substitutes
    await refused("handover.already_seated", subs.substitute(game.id, "B", players[0]))
    await refused("handover.no_such_seat", subs.substitute(game.id, "Z", NEWCOMER))
    await refused("table.not_your_game", subs.offer(game.id, NEWCOMER.user_id))
    assert await subs.offer(game.id, USERS["B"]) == "B"
    await refused("handover.already_offered", subs.offer(game.id, USERS["B"]))
    assert [o.seat for o in await subs.offers(game.id)] == ["B"]
    offered = [r for r in await rows(repo, game.id) if r.id > before]
    assert [r.kind for r in offered] == ["channel"] and not offered[0].payload.get("mentions")
    assert "B" in dm_text(offered[0])
    before = offered[0].id

    # --- the handover ------------------------------------------------------------------------
    clock.now += 5
    handover = await subs.substitute(game.id, "b", NEWCOMER, by=77)  # the seat, any case
    game = await table.game(game.id)
    assert game.user_of("B") == NEWCOMER.user_id and game.names["B"] == NEWCOMER.name
    assert (handover.seq, handover.step, handover.seat) == (1, game.step, "B")
    assert (handover.from_user, handover.to_user, handover.by_user) == (
        USERS["B"],
        NEWCOMER.user_id,
        77,
    )
    assert await subs.offers(game.id) == [], "the offer is filled"
    assert [h.seq for h in await subs.of_game(game.id)] == [1]
    after = await rows(repo, game.id)
    statuses = {r.id: r.status for r in after}
    assert all(statuses[r.id] == "superseded" for r in waiting_for_b)
    new = [r for r in after if r.id > before]
    assert not [r for r in new if r.kind == "dm" and r.target_id == USERS["B"]]
    notices = [r for r in new if r.kind == "channel"]
    assert len(notices) == 1
    notice = dm_text(notices[0])
    assert f"<@{NEWCOMER.user_id}>" in notice and f"<@{USERS['B']}>" in notice and " B " in notice
    assert notices[0].payload["mentions"] == [NEWCOMER.user_id]
    hand = state.hands["B"]
    secret_lines = PRESENTER.private_lines(bids.view(state, "B"), "B", "en")
    assert not [line for line in secret_lines if line in notice] and sealed not in notice
    briefing, prompt = [r for r in new if r.kind == "dm" and r.target_id == NEWCOMER.user_id]
    told = dm_text(briefing) + "\n" + dm_text(prompt)
    async with repo.read() as tx:
        events = [e for _, e in await tx.events(game.id)]
    mine = PRESENTER.event_lines(
        [e for e in events if "B" in (addressees(e) or ())], "en", game.names
    )
    assert mine and all(line in told for line in mine), "B's private events so far"
    others = PRESENTER.event_lines(
        [e for e in events if (addressees(e) or ("B",)) != ("B",)], "en", game.names
    )
    assert others and not [line for line in others if line in told and line not in mine]
    assert sealed in dm_text(briefing), "the order B sealed stands and is told"
    view = bids.view(state, "B")
    for line in PRESENTER.private_lines(view, "B", "en"):
        assert line in told, "the seat's private view (its team and hand)"
    for seat in ("A", "C", "D"):
        if sorted(state.hands[seat]) != sorted(hand):
            other = t("en", "bids.dm.hand", hand=" · ".join(map(str, state.hands[seat])))
            assert other not in told, f"nothing of seat {seat}'s hand"
    assert prompt.payload["view"]["seat"] == "B", "the prompt, with its buttons"

    # --- the former player is refused with the reason; the newcomer plays ------------------
    with pytest.raises(TableError) as caught:
        await table.submit(game.id, USERS["B"], sealed)
    assert caught.value.key == "handover.not_yours_now"
    assert caught.value.params["user"] == f"<@{NEWCOMER.user_id}>"
    with pytest.raises(TableError) as caught:
        await table.reads.seat_for_click(game.id, USERS["B"], game.step)
    assert caught.value.key == "handover.not_yours_now"
    assert [h.game_id for h in await subs.handed_away(USERS["B"])] == [game.id]
    assert await subs.handed_away(USERS["A"]) == []
    await table.submit(game.id, NEWCOMER.user_id, sealed)  # the newcomer replaces it

    # a second handover of the same seat chains on the first
    await table.resign(game.id, USERS["D"])  # D leaves; the others play on
    await refused("handover.seat_left", subs.substitute(game.id, "D", SECOND))
    await subs.substitute(game.id, "B", SECOND)
    while (game := await table.game(game.id)).status == "active":
        state = bids.from_json(game.state or {})
        for seat in bids.awaiting(state):
            clock.now += 1
            await table.submit(game.id, game.user_of(seat), ai.choose(state, seat, rng))
    assert game.status == "finished"
    await refused("handover.not_running", subs.substitute(game.id, "A", NEWCOMER))
    assert not [
        r
        for r in await rows(repo, game.id)
        if r.kind == "dm" and r.target_id == USERS["B"] and r.id > before
    ], "nothing more reached the first player"

    # --- the record ------------------------------------------------------------------------
    record = await table.export(game.id)
    assert record["players"]["B"] == "player B", "the players the first post bound"
    assert [(h["seat"], h["from"], h["to"]) for h in record["handovers"]] == [
        ("B", "player B", NEWCOMER.name),
        ("B", NEWCOMER.name, SECOND.name),
    ]
    checks = verify(record)
    assert all(c.ok for c in checks), [c.what for c in checks if not c.ok]
    assert sum("handover" in c.what for c in checks) == 2
    replay(record)
    proofs = await table.reads.proofs(game.id, 0)
    assert proofs.players_digest == record["players_digest"], "setup proofs bind the first seating"

    edits: list[Callable[[dict[str, Any]], object]] = [
        lambda r: r["handovers"][0].update(to="someone else"),
        lambda r: r["handovers"][1].update(step=r["handovers"][0]["step"] - 1),
        lambda r: r["handovers"].pop(0),
        lambda r: r["handovers"][0].update(seat="A"),
    ]
    for edit in edits:
        tampered = copy.deepcopy(record)
        edit(tampered)
        assert [c for c in verify(tampered) if not c.ok and "handover" in c.what]
        with pytest.raises(RecordError, match="handover"):
            replay(tampered)
