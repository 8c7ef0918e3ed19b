"""Prompts that ask one thing and posts that start with what happened (issue 35), on the table
and both backends, with Sealed Bids (``tests/hidden_ruleset``, whose presenter keeps a memo of a
seat's hand):

- a seat's first prompt carries the ruleset's help, later ones do not (it is behind ❓); every
  prompt asks its question and offers 📋 and ❓, and none shows the seat's sheet (behind 📋);
- a later prompt opens with what changed for the seat since its last one (its memo, stored with
  the seat on both backends);
- a post's tallies are cut to what changed since the step before (whole on the first post);
- a step whose post would say nothing public edits the latest post instead of posting again.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot import registry
from bot.i18n import t
from bot.storage.base import OutboxRow, Repository
from bot.table import Player, Table
from tests.hidden_ruleset import RULESET as BIDS
from tests.hidden_ruleset import ai
from tests.hidden_ruleset import rules as bids
from tests.hidden_ruleset.present import PRESENTER, BidsPresenter
from tests.storage.backends import Backend
from tests.storage.test_table_on_both import CHANNEL, GUILD, Clock, entropy

SEATS = ("A", "B", "C")
USERS = {seat: 1_152_921_504_606_847_100 + i for i, seat in enumerate(SEATS)}


@pytest.fixture
def registered() -> Iterator[None]:
    registry.register(BIDS)
    yield
    registry.unregister(BIDS.key)


async def rows(repo: Repository, game_id: str) -> list[OutboxRow]:
    async with repo.read() as tx:
        return await tx.outbox_for_game(game_id)


def prompts_to(all_rows: list[OutboxRow], seat: str) -> list[dict[str, Any]]:
    return [
        r.payload
        for r in all_rows
        if r.kind == "dm" and r.target_id == USERS[seat] and r.payload.get("view")
    ]


async def start(repo: Repository, clock: Clock) -> tuple[Table, str]:
    table = Table(repo, clock=clock, entropy=entropy())
    players = [Player(USERS[s], f"player {s}") for s in SEATS]
    game = await table.challenge(
        "bids", guild_id=GUILD, channel_id=CHANNEL, players=players, turn_seconds=600
    )
    for seat in SEATS[1:]:
        game = await table.accept(game.id, USERS[seat])
    return table, game.id


async def play_round(
    table: Table, game_id: str, clock: Clock, rng: random.Random
) -> dict[str, str]:
    game = await table.game(game_id)
    state = bids.from_json(game.state or {})
    played = {}
    for seat in bids.awaiting(state):
        clock.now += 1
        played[seat] = ai.choose(state, seat, rng)
        await table.submit(game_id, USERS[seat], played[seat])
    return played


async def test_prompts_ask_one_thing_and_open_with_what_changed(
    registered: None, backend: Backend
) -> None:
    repo = await backend.open()
    clock = Clock()
    table, game_id = await start(repo, clock)
    help_text = t("en", "bids.dm.help")
    for seat in SEATS:
        (first,) = prompts_to(await rows(repo, game_id), seat)
        assert help_text in first["content"], "the first prompt says how to answer"
        assert t("en", "bids.dm.question") in first["content"]
        assert "Your team:" not in first["content"], "the sheet is behind 📋"
        assert first["view"]["mine"] == "Mine" and first["view"]["help"] == "Help"
    async with repo.read() as tx:
        memos = await tx.seat_memos(game_id)
    state = bids.from_json((await table.game(game_id)).state or {})
    assert memos == {s: {"memo": {"hand": list(state.hands[s])}} for s in SEATS}

    before = bids.from_json((await table.game(game_id)).state or {})
    await play_round(table, game_id, clock, random.Random(3))
    state = bids.from_json((await table.game(game_id)).state or {})
    for seat in SEATS:
        first, second = prompts_to(await rows(repo, game_id), seat)
        assert help_text not in second["content"], "the help is sent once, then behind ❓"
        (gone,) = set(before.hands[seat]) - set(state.hands[seat])
        news = t("en", "bids.dm.news", played=gone, left=len(state.hands[seat]))
        lines = second["content"].split("\n")
        header = next(i for i, line in enumerate(lines) if line.startswith("**Sealed Bids"))
        # what changed, before the step's header (after the seat's own private events)
        assert news in lines[:header], "the prompt opens with what changed"
    async with repo.read() as tx:
        memos = await tx.seat_memos(game_id)
    assert memos["A"] == {"memo": {"hand": list(state.hands["A"])}}
    await repo.close()


def channel_posts(all_rows: list[OutboxRow]) -> list[OutboxRow]:
    return [r for r in all_rows if r.kind == "channel" and r.payload.get("embed")]


async def test_tallies_are_cut_to_what_changed(
    registered: None, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    def tallies(self: BidsPresenter, view: Any, lang: str, names: Any) -> list[tuple[str, str]]:
        return [("Table", "the same"), ("Round", str(view.get("round")))]

    monkeypatch.setattr(BidsPresenter, "tallies", tallies)
    repo = await backend.open()
    clock = Clock()
    table, game_id = await start(repo, clock)
    await play_round(table, game_id, clock, random.Random(3))
    first, second = channel_posts(await rows(repo, game_id))
    names = [f["name"] for f in first.payload["embed"]["fields"]]
    assert "Table" in names and "Round" in names, "the first post shows every tally"
    names = [f["name"] for f in second.payload["embed"]["fields"]]
    assert "Round" in names and "Table" not in names, "only what changed"
    await repo.close()


@pytest.fixture
def open_plays() -> Iterator[None]:
    """Sealed Bids with its plays public (none withheld): a post would show no receipt."""
    registry.register(dataclasses.replace(BIDS, withheld=None))
    yield
    registry.unregister(BIDS.key)


async def test_a_step_that_says_nothing_public_edits_the_latest_post(
    open_plays: None, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(BidsPresenter, "event_lines", lambda self, events, lang, names: [])
    monkeypatch.setattr(BidsPresenter, "tallies", lambda self, view, lang, names: [])
    repo = await backend.open()
    clock = Clock()
    table, game_id = await start(repo, clock)
    (post,) = channel_posts(await rows(repo, game_id))
    await play_round(table, game_id, clock, random.Random(3))
    all_rows = await rows(repo, game_id)
    assert [p.id for p in channel_posts(all_rows)] == [post.id], "no post of its own"
    (refresh,) = [r for r in all_rows if r.kind == "edit" and "refresh" in r.payload]
    assert refresh.ref_id == post.id
    shown = refresh.payload["refresh"]
    game = await table.game(game_id)
    assert game.prompt_outbox_id == post.id, "the next step's progress edits that post"
    assert (
        shown["embed"]["title"]
        == t("en", "game.title.turn", ruleset="Sealed Bids", game=game_id, step="Round 2/3")
        or "Round 2" in shown["embed"]["title"]
    )
    # its Proofs button covers the steps the post now shows
    assert shown["view"]["proofs"]["turn"] == 1 and shown["view"]["proofs"].get("since") == 0
    # the prompts still went out, each to its own seat
    for seat in SEATS:
        assert len(prompts_to(all_rows, seat)) == 2
    await repo.close()


def test_the_default_headline_is_the_first_worded_event() -> None:
    events = [{"type": "round_won", "team": "sun", "round": 1}]
    lines = PRESENTER.event_lines(events, "en", {})
    assert PRESENTER.headline(events, "en", {}) == (lines[0].removeprefix("• ") if lines else None)
    assert PRESENTER.headline([], "en", {}) is None
