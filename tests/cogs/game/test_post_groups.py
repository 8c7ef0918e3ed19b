"""A run of steps edits one channel post (``RulesetSpec.post_group``), in SimCord.

Sealed Bids (``tests/hidden_ruleset``) with a post group for its last two rounds: round 1's
result opens round 2 in a new post; round 2's result edits that post (its log grows, its board,
title, progress and Proofs button move on) instead of posting again; the end, in no group, is a
post of its own. The post's Proofs button answers for every step its log shows."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import registry
from bot.storage import SqliteRepository
from bot.table import Player, Table
from tests.hidden_ruleset import RULESET as BIDS
from tests.hidden_ruleset import rules as bids


def late_rounds(state: bids.BidsState) -> str | None:
    return "late rounds" if state.round >= 2 else None


GROUPED = dataclasses.replace(BIDS, post_group=late_rounds)
# How a post that takes over a group's log from one that is gone begins.
CONTINUED = "↪️ *Continued"


@pytest.fixture
def registered() -> Iterator[None]:
    registry.register(GROUPED)
    yield
    registry.unregister(GROUPED.key)


@pytest.fixture
def simcord_bot(registered: None, make_bot: Any) -> Any:
    return make_bot()


@pytest.fixture
def three(simcord_env: Any, sim_clock: Any) -> Any:
    sim_clock.env = simcord_env
    guild = simcord_env.create_guild(name="Bid Club")
    channel = guild.create_text_channel("bids")
    members = [guild.add_member(simcord_env.create_user(n)) for n in ("ann", "ben", "cy")]
    return simcord_env, channel, members


def turn_posts(channel: Any) -> list[Any]:
    return [m for m in channel.history() if m.author.bot and m.embeds and m.attachments]


def custom_ids(message: Any) -> list[str]:
    return [c.custom_id for row in message.components for c in row.children]


async def test_a_post_group_edits_one_post_through_its_steps(three: Any, make_bot: Any) -> None:
    env, channel, members = three
    ann = members[0]
    await ann.slash(channel, "bids challenge", opponent1=members[1], opponent2=members[2])
    invitation = channel.last_message
    for member in members[1:]:
        await member.click(invitation, label="Accept")
    table = env.bot.table
    (game,) = await table.games_here(channel.id)

    async def play(member: Any) -> None:
        state = bids.from_json((await table.game(game.id)).state or {})
        await member.send_dm(str(state.hands[game.seat_of(member.id)][0]))
        await env.bot.outbox.idle()

    for member in members:  # round 1: its result opens round 2, in a group: a new post
        await play(member)
    posts = turn_posts(channel)
    grouped = posts[-1]
    assert "Round 2/3" in grouped.embeds[0].title and grouped.edited_at is None
    board = grouped.attachments[0].id

    await play(members[0])  # a progress edit of the grouped post
    (grouped,) = [m for m in turn_posts(channel) if m.id == grouped.id]
    assert any("1/3" in f.name for f in grouped.embeds[0].fields)

    for member in members[1:]:  # round 2 resolves: the same post, edited, not a new one
        await play(member)
    after = turn_posts(channel)
    assert [m.id for m in after] == [m.id for m in posts]
    (grouped,) = [m for m in after if m.id == grouped.id]
    embed = grouped.embeds[0]
    assert "Round 3/3" in embed.title and grouped.edited_at is not None
    description = embed.description or ""
    assert "Round 1" in description and "Round 2" in description, description
    assert description.index("Round 1") < description.index("Round 2")
    assert any("0/3" in f.name for f in embed.fields), "the progress is round 3's"
    assert len(grouped.attachments) == 1 and grouped.attachments[0].id != board, "a new board"
    assert f"pbp:p:{game.id}:2:1" in custom_ids(grouped)

    # Its Proofs button answers for both steps its log shows.
    answer = await ann.click(grouped, label="Proofs")
    text = "\n".join(m.content for m in [answer.response, *answer.followups])
    assert "step 1 (" in text and "step 2 (" in text and "step 3 (" not in text, text

    # The stored post holds its latest version; each edit carries the version it showed.
    async with table.repo.read() as tx:
        rows = await tx.outbox_for_game(game.id)
    original = next(r for r in rows if r.message_id == grouped.id and r.kind == "channel")
    refreshes = [r for r in rows if r.kind == "edit" and "refresh" in r.payload]
    assert len(refreshes) == 1 and refreshes[0].ref_id == original.id
    assert refreshes[0].payload["refresh"] == original.payload

    for member in members:  # the end is in no group: a post of its own
        await play(member)
    final = turn_posts(channel)
    assert len(final) == len(posts) + 1 and final[-1].id != grouped.id

    # After a restart the edited post's Proofs button still answers for both steps.
    await env.restart_bot(make_bot())
    await env.bot.outbox.idle()
    again = await ann.click(grouped, label="Proofs")
    assert "step 1" in str(again.response.content)


@pytest.mark.parametrize("lost", [False, True])
async def test_a_group_whose_post_failed_for_good_gets_a_post_of_its_own(
    registered: None, tmp_path: Path, lost: bool
) -> None:
    """A post Discord refused for good cannot be edited: the next step of its group posts anew
    (with the whole log), rather than editing nothing."""
    repo = SqliteRepository(tmp_path / "bids.sqlite3")
    await repo.open()
    try:
        table = Table(repo, clock=lambda: 1_800_000_000.0)
        players = [Player(1000 + i, name) for i, name in enumerate(("ann", "ben", "cy"))]
        game = await table.challenge(
            GROUPED.key, guild_id=None, channel_id=1, players=players, turn_seconds=None
        )
        for player in players[1:]:
            game = await table.accept(game.id, player.user_id)

        async def play_round() -> None:
            state = bids.from_json((await table.game(game.id)).state or {})
            for player in players:
                card = state.hands[game.seat_of(player.user_id)][0]
                await table.submit(game.id, player.user_id, str(card), source="test")

        await play_round()
        grouped = (await table.game(game.id)).prompt_outbox_id
        assert grouped is not None
        async with repo.read() as tx:
            before = (await tx.get_outbox(grouped)).payload["group"]["log"]  # type: ignore[union-attr]
        if lost:
            async with repo.transaction() as tx:
                await tx.mark_failed(grouped, "403 Forbidden", retry_at=None)
        await play_round()
        async with repo.read() as tx:
            rows = await tx.outbox_for_game(game.id)
        posts = [r for r in rows if r.kind == "channel"]
        refreshes = [r for r in rows if r.kind == "edit" and "refresh" in r.payload]
        if lost:
            assert posts[-1].id != grouped and not refreshes
            log = posts[-1].payload["group"]["log"]
            # the log goes on in the new post, which says it continues one that is gone
            assert log[0].startswith(CONTINUED) and log[0].endswith(before[0]), log
            assert log[1 : len(before)] == before[1:]
            assert len(log) > len(before)
        else:
            assert posts[-1].id == grouped and [r.ref_id for r in refreshes] == [grouped]
        assert (await table.game(game.id)).prompt_outbox_id == posts[-1].id
    finally:
        await repo.close()


@pytest.mark.parametrize("deleted", ["before the round's first answer", "before its last answer"])
async def test_a_deleted_grouped_post_goes_on_in_a_new_post(three: Any, deleted: str) -> None:
    """A moderator cleaning the channel mid-round deleted the grouped post: every later edit of it
    failed (404) and was dropped, so the round's plays and its end never reached the channel."""
    env, channel, members = three
    ann = members[0]
    await ann.slash(channel, "bids challenge", opponent1=members[1], opponent2=members[2])
    invitation = channel.last_message
    for member in members[1:]:
        await member.click(invitation, label="Accept")
    table = env.bot.table
    (game,) = await table.games_here(channel.id)
    role = channel.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = channel.guild.add_member(env.create_user("mod"), roles=[role])

    async def play(member: Any) -> None:
        state = bids.from_json((await table.game(game.id)).state or {})
        await member.send_dm(str(state.hands[game.seat_of(member.id)][0]))
        await env.bot.outbox.idle()

    for member in members:  # round 1: its result opens round 2 in a grouped post
        await play(member)
    grouped = turn_posts(channel)[-1]
    assert "Round 2/3" in grouped.embeds[0].title
    answers = members if deleted.startswith("before the round's first") else members[2:]
    for member in members[: len(members) - len(answers)]:
        await play(member)
    await mod.delete(grouped)

    for member in answers:  # the rest of round 2: its result reaches the channel all the same
        await play(member)
    posts = turn_posts(channel)
    assert grouped.id not in [m.id for m in posts]
    new = posts[-1]
    embed = new.embeds[0]
    description = embed.description or ""
    assert "Round 3/3" in embed.title, embed.title
    assert description.startswith(CONTINUED), description
    assert "Round 1" in description and "Round 2" in description, description
    assert any("0/3" in f.name for f in embed.fields), "the progress is round 3's"
    assert f"pbp:p:{game.id}:2:1" in custom_ids(new), "its Proofs cover the whole log"
    async with table.repo.read() as tx:
        rows = await tx.outbox_for_game(game.id)
    (row,) = [r for r in rows if r.message_id == new.id and r.kind == "channel"]
    assert (await table.game(game.id)).prompt_outbox_id == row.id

    await play(ann)  # the group goes on editing the new post
    (again,) = [m for m in turn_posts(channel) if m.id == new.id]
    assert any("1/3" in f.name for f in again.embeds[0].fields)
    assert [m.id for m in turn_posts(channel)] == [m.id for m in posts], "no third post"
