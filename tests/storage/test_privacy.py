"""A player's own data on both backends (issue 37): ``bot.privacy.collect`` and ``forget``.

A game of Sealed Bids (``tests/hidden_ruleset``) is played to the end by four players, seat B
handed to a substitute half-way; a league names player A (document, ledger, ratings), and A has
a language, reminders, an absence, a missed deadline, a season and a DM. The export holds all
of it and nothing of another player's orders; forgetting is refused while the user sits in the
running game; once it is over, forgetting A (and B's first player) leaves the game's record
verifying, a tampered forgotten record failing, the league consistent under a pseudonym, the
ledger append-only for anything else, and a second forget changing nothing.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot import privacy, registry
from bot.record import verify
from bot.storage.absences_store import MissRow
from bot.storage.base import LeagueRow, Repository
from bot.storage.reminders_store import ReminderSettingsRow
from bot.table import Player, Table
from tests.hidden_ruleset import RULESET as BIDS
from tests.hidden_ruleset import ai
from tests.hidden_ruleset import rules as bids
from tests.storage.backends import Backend
from tests.storage.test_table_on_both import CHANNEL, GUILD, USERS, Clock, entropy

SEATS = ("A", "B", "C", "D")
SUB = Player(1_152_921_504_606_846_990, "newcomer 交代")
A = USERS["A"]
PSEUDONYM = -4_242_424_242


@pytest.fixture
def registered() -> Iterator[None]:
    registry.register(BIDS)
    yield
    registry.unregister(BIDS.key)


def failed(record: dict[str, Any]) -> list[str]:
    return [c.what for c in verify(record) if not c.ok]


async def play(table: Table, game_id: str, clock: Clock, rng: random.Random, rounds: int) -> None:
    for _ in range(rounds):
        game = await table.game(game_id)
        if game.status != "active":
            return
        state = bids.from_json(game.state or {})
        for seat in bids.awaiting(state):
            clock.now += 1
            await table.submit(game_id, game.user_of(seat), ai.choose(state, seat, rng))


async def personal_rows(repo: Repository, clock: Clock, game_id: str) -> None:
    """What A keeps beside the game: preferences, a season, a league, an absence, a miss, a DM."""
    async with repo.transaction() as tx:
        await tx.set_user_locale(A, "ja")
        await tx.save_reminder_settings(
            ReminderSettingsRow(A, "24h", "dm", False, 9, "Asia/Tokyo", 23, 7, None, clock.now)
        )
        await tx.add_absence(A, GUILD, clock.now, clock.now + 3600, "秘密の旅")
        await tx.record_miss(MissRow(game_id, 1, "A", clock.now - 50, A, False, at=clock.now))
        await tx.start_season(GUILD, "bids", A, clock.now)
        document = {
            "id": "L-1",
            "guild_id": GUILD,
            "name": "Bids League",
            "season": "S1",
            "ruleset": "bids",
            "created_by": str(A),
            "players": [str(A), str(USERS["C"])],
            "names": {str(A): "player A 札", str(USERS["C"]): "player C"},
            "matches": [{"id": game_id, "a": str(A), "b": str(USERS["C"]), "winner": str(A)}],
        }
        await tx.insert_league(LeagueRow("L-1", GUILD, "Bids League", document), clock.now)
        await tx.append_ledger(
            "L-1",
            [
                {"player": str(A), "unit": "x", "kind": "draft", "at": clock.now, "by": str(A)},
                {"player": str(USERS["C"]), "unit": "y", "kind": "draft", "at": 1.0, "by": "sys"},
            ],
        )
        await tx.put_ratings(
            GUILD, "bids", {str(A): {"mu": 27.0, "sigma": 7.0, "games": 1}}, clock.now
        )
        sent = await tx.enqueue(
            game_id=None, kind="dm", target_id=A, payload={"content": "hi"}, nonce="p-dm", now=1
        )
        await tx.mark_sent(sent, 5, 777_000, clock.now)
        await tx.enqueue(
            game_id=None, kind="dm", target_id=A, payload={"content": "later"}, nonce="p-dm2", now=1
        )


async def test_export_and_forget_a_player(registered: None, backend: Backend) -> None:
    repo = await backend.open()
    clock = Clock()
    table = Table(repo, clock=clock, entropy=entropy())
    players = [Player(USERS[s], f"player {s} 札") for s in SEATS]
    game = await table.challenge(
        "bids", guild_id=GUILD, channel_id=CHANNEL, players=players, turn_seconds=600
    )
    for seat in SEATS[1:]:
        game = await table.accept(game.id, USERS[seat])
    rng = random.Random(11)
    await play(table, game.id, clock, rng, 2)
    await table.substitutes.substitute(game.id, "B", SUB, by=77)
    await personal_rows(repo, clock, game.id)

    # --- refused while the game runs; B's first player has handed the seat on --------------
    async with repo.transaction() as tx:
        refused = await privacy.forget(tx, A, clock.now)
    assert isinstance(refused, privacy.Refused) and [g.id for g in refused.games] == [game.id]
    async with repo.read() as tx:
        assert (await tx.user_locale(A)) == "ja", "a refusal erases nothing"

    await play(table, game.id, clock, rng, 200)
    game = await table.game(game.id)
    assert game.status == "finished"
    record = await table.export(game.id)
    assert not failed(record) and "forgotten" not in record

    # --- the export ------------------------------------------------------------------------
    async with repo.read() as tx:
        export = await privacy.collect(tx, A, clock.now)
    json.dumps(export)  # plain JSON
    assert export["format"] == privacy.EXPORT_FORMAT and export["user_id"] == str(A)
    prefs = export["preferences"]
    assert prefs["language"] == "ja" and prefs["time_zone"] == "Asia/Tokyo"
    assert prefs["reminders"]["quiet_hours"] == [23, 7] and prefs["dm_channel"] == 777_000
    assert [s["number"] for s in export["seasons_started"]] == [1]
    (league,) = export["leagues"]
    assert league["joined"] and league["your_name"] == "player A 札" and league["created_by_you"]
    assert [line["unit"] for line in export["ledger_lines"]] == ["x"]
    assert [r["mu"] for r in export["ratings"]] == [27.0]
    (seat,) = export["games"]
    assert (seat["game"], seat["seat"], seat["status"]) == (game.id, "A", "finished")
    async with repo.read() as tx:
        all_orders = await tx.all_orders(game.id)
    mine = [o for o in all_orders if o.user_id == A]
    assert mine and [o["text"] for o in seat["your_orders"]] == [o.text for o in mine]
    others = {o.text for o in all_orders if o.user_id != A} - {o.text for o in mine}
    assert not any(o["text"] in others for o in seat["your_orders"])
    assert [a["reason"] for a in export["absences"]] == ["秘密の旅"]
    assert [m["seat"] for m in export["missed_deadlines"]] == ["A"]
    async with repo.read() as tx:
        b_export = await privacy.collect(tx, USERS["B"], clock.now)
    assert [h["role"] for h in b_export["handovers"]] == ["gave"]
    assert [g["seat"] for g in b_export["games"]] == [None], "handed on: no seat now"
    assert privacy.summary(export)["games"] == 1

    # --- forget A, then B's first player ---------------------------------------------------
    async with repo.read() as tx:
        dms = [r for r in await tx.outbox_for_game(game.id) if r.target_id == A]
    async with repo.transaction() as tx:
        done = await privacy.forget(tx, A, clock.now, pseudonym=PSEUDONYM)
    assert isinstance(done, privacy.Forgotten) and done.games == [game.id]
    assert done.leagues == ["L-1"] and done.counts["outbox"] == len(dms) + 2
    async with repo.transaction() as tx:
        other = await privacy.forget(tx, USERS["B"], clock.now, pseudonym=PSEUDONYM - 1)
    assert isinstance(other, privacy.Forgotten) and other.games == [game.id]

    game = await table.game(game.id)
    assert game.names["A"] == "Player A" and game.user_of("A") == PSEUDONYM
    assert game.names["B"] == SUB.name, "the substitute was not forgotten"
    forgotten = await table.export(game.id)
    assert forgotten["players"]["A"] == "Player A" and forgotten["players"]["B"] == "Player B"
    assert forgotten["players_digest"] == record["players_digest"], "as the first post showed"
    assert forgotten["handovers"][0]["from"] == "Player B"
    assert forgotten["forgotten"]["names"] == ["Player A", "Player B"]
    text = json.dumps(forgotten, ensure_ascii=False)
    assert "player A 札" not in text and str(A) not in text
    checks = verify(forgotten)
    assert checks and all(c.ok for c in checks), [c.what for c in checks if not c.ok]
    assert any("as published" in c.what for c in checks)
    for path, value in (
        (("players", "C"), "mallory"),  # a name the first post bound
        (("players_digest",), "0" * 64),
        (("forgotten", "names"), ["Player A"]),
        (("handovers", 0, "to"), "mallory"),
        (("turns", 0, "salts", "C"), "00" * 16),  # an order's salt: its receipt fails
    ):
        tampered = copy.deepcopy(forgotten)
        *parents, last = path
        node: Any = tampered
        for key in parents:
            node = node[key]
        node[last] = value
        assert failed(tampered), path
    proofs = await table.reads.proofs(game.id, 0)
    assert proofs.players_digest == record["players_digest"]

    # --- what is left of A -----------------------------------------------------------------
    async with repo.read() as tx:
        after = await privacy.collect(tx, A, clock.now)
        league_row = await tx.get_league("L-1")
        ledger = await tx.ledger("L-1")
        assert await tx.dm_channel(A) is None
        misses = await tx.misses(game.id)
        season = await tx.current_season(GUILD, "bids")
    assert privacy.summary(after) == dict.fromkeys(privacy.summary(after), 0)
    assert after["preferences"] == {
        "language": None,
        "reminders": None,
        "time_zone": None,
        "dm_channel": None,
    }
    assert league_row is not None and league_row.version == 2
    doc = league_row.data
    assert doc["players"] == [str(PSEUDONYM), str(USERS["C"])]
    assert doc["names"][str(PSEUDONYM)] == privacy.league_label(PSEUDONYM)
    assert doc["matches"][0]["winner"] == str(PSEUDONYM) and doc["created_by"] == str(PSEUDONYM)
    assert [(e["player"], e["by"]) for e in ledger] == [
        (str(PSEUDONYM), str(PSEUDONYM)),
        (str(USERS["C"]), "sys"),
    ]
    assert [m.user_id for m in misses] == [PSEUDONYM]
    assert season is not None and season.started_by == PSEUDONYM

    # the ledger still refuses anything but forgetting
    for sql in (
        "UPDATE roster_ledger SET unit = 'z'",
        f"UPDATE roster_ledger SET player = '{PSEUDONYM - 5}' WHERE player = '{PSEUDONYM}'",
        "DELETE FROM roster_ledger",
    ):
        with pytest.raises(Exception, match="append-only"):  # each backend raises its own error
            async with repo.transaction() as tx:
                await tx._exec(sql)  # type: ignore[attr-defined]

    # --- forgetting again changes nothing --------------------------------------------------
    async with repo.transaction() as tx:
        again = await privacy.forget(tx, A, clock.now)
    assert isinstance(again, privacy.Forgotten) and not again.anything
    assert await table.export(game.id) == forgotten
