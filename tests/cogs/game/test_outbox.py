"""The outbox within Discord's limits (SimCord): a long content goes out as several messages, each
exactly once across failures and restarts; no text pings @everyone or a role; a 400 for a message
the bot built is an error logged once, not a fault retried."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import pytest

from bot import faults, limits
from tests.cogs.game.sim import setup_duel, start_duel

CHANNEL_POSTS = "/channels/*/messages"


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


async def enqueue(
    bot: Any,
    target: int,
    payload: dict[str, Any],
    key: str,
    kind: str = "channel",
    game_id: str | None = None,
):
    async with bot.repo.transaction() as tx:
        row_id = await tx.enqueue(
            game_id=game_id,
            kind=kind,
            target_id=target,
            payload=payload,
            nonce=key,
            now=bot.table.clock(),
        )
    return row_id


async def drain(bot: Any) -> None:
    bot.outbox.wake()
    await bot.outbox.idle()


async def row(bot: Any, row_id: int) -> Any:
    async with bot.repo.read() as tx:
        return await tx.get_outbox(row_id)


def bot_posts(duel: Any) -> list[discord.Message]:
    return [m for m in duel.channel.history() if m.author.bot]


def posts_to(env: Any, channel_id: int) -> list[Any]:
    return [
        r
        for r in env.http_requests
        if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"
    ]


def long_text(lines: int = 120) -> str:
    return "\n".join(f"line {i:03d}: " + "word " * 7 for i in range(lines))


# --- 1. a long content goes out as several messages ----------------------------------------------


async def test_a_long_content_is_posted_as_several_messages_the_embed_on_the_last(duel):
    bot = duel.bot
    text = long_text()
    assert len(text) > 2 * limits.CONTENT
    embed = {"title": "Turn 2", "description": "d" * 5000, "fields": [{"name": "n", "value": ""}]}
    row_id = await enqueue(
        bot, duel.channel.id, {"lang": "en", "content": text, "embed": embed}, "long-1"
    )
    await drain(bot)

    posts = bot_posts(duel)
    assert len(posts) == 3
    assert all(len(m.content) <= limits.CONTENT for m in posts)
    assert "\n".join(m.content for m in posts) == text  # split at line breaks, nothing lost
    assert [len(m.embeds) for m in posts] == [0, 0, 1]
    assert len(posts[-1].embeds[0].description or "") <= limits.EMBED_DESCRIPTION
    stored = await row(bot, row_id)
    assert stored.status == "sent" and stored.parts_sent == 2
    assert stored.message_id == posts[-1].id, "the row's message is the last part (edits go there)"


async def test_a_split_row_resumes_after_a_failure_and_a_restart_without_reposting(
    duel, make_bot, monkeypatch
):
    bot = duel.bot
    text = long_text(180)
    expected = limits.split_content(text)
    assert len(expected) >= 3
    arm = {"left": 1}
    real_point = faults.point

    def point(name: str) -> None:
        # Discord accepted the first part; it answers 500 to the next post.
        if name == "outbox-posted" and arm["left"]:
            arm["left"] -= 1
            duel.env.inject_error("POST", CHANNEL_POSTS, status=500, times=1)
        real_point(name)

    monkeypatch.setattr(faults, "point", point)
    row_id = await enqueue(bot, duel.channel.id, {"lang": "en", "content": text}, "split-retry")
    await drain(bot)
    assert [m.content for m in bot_posts(duel)] == expected[:1]
    stored = await row(bot, row_id)
    assert (stored.status, stored.parts_sent, stored.attempts) == ("pending", 1, 1)

    # A restart, then the retry: it starts at the second part.
    await duel.env.restart_bot(make_bot())
    await duel.env.advance_time(30)
    await duel.bot.outbox.idle()
    assert [m.content for m in bot_posts(duel)] == expected, "each part exactly once, in order"
    stored = await row(duel.bot, row_id)
    assert (stored.status, stored.parts_sent) == ("sent", len(expected) - 1)

    await duel.env.restart_bot(make_bot())
    await duel.env.advance_time(30)
    await duel.bot.outbox.idle()
    assert [m.content for m in bot_posts(duel)] == expected


async def test_each_part_has_its_own_nonce_and_the_last_keeps_the_rows(duel):
    bot = duel.bot
    await enqueue(bot, duel.channel.id, {"lang": "en", "content": long_text()}, "nonces")
    await drain(bot)
    from bot.outbox import discord_nonce

    nonces = [r.json["nonce"] for r in posts_to(duel.env, duel.channel.id)]
    assert len(nonces) == 3 and len(set(nonces)) == 3
    assert nonces[-1] == discord_nonce("nonces")
    assert all(r.json.get("enforce_nonce") for r in posts_to(duel.env, duel.channel.id))


# --- 2. no text pings @everyone, @here or a role ---------------------------------------------


async def test_everyone_and_roles_in_the_text_never_ping_the_named_players_do(duel):
    bot = duel.bot
    role = duel.guild.create_role("Raiders", mentionable=True)
    text = (
        f"@everyone @here <@&{role.id}> ordered by <@{duel.alice.id}>, "
        f"who mentions <@{duel.bob.id}>"
    )
    channel = bot.get_channel(duel.channel.id)
    # The control: the same text sent allowing everything pings everyone and the role.
    control = await channel.send(text, allowed_mentions=discord.AllowedMentions.all())
    pinged = duel.env.backend.get_message(duel.channel.id, control.id)
    assert pinged.mention_everyone and pinged.ping_role_ids == [role.id]

    await enqueue(
        bot, duel.channel.id, {"lang": "en", "content": text, "mentions": [duel.alice.id]}, "pings"
    )
    await drain(bot)
    posted = bot_posts(duel)[-1]
    assert posted.content == text
    message = duel.env.backend.get_message(duel.channel.id, posted.id)
    assert not message.mention_everyone
    assert message.ping_role_ids == []
    assert message.ping_user_ids == [duel.alice.id], "the named player only"
    sent = posts_to(duel.env, duel.channel.id)[-1].json["allowed_mentions"]
    assert sent["parse"] == [] and [int(u) for u in sent["users"]] == [duel.alice.id]
    assert "roles" not in sent or sent["roles"] == []


async def test_the_bot_wide_default_pings_no_one(duel):
    bot = duel.bot
    assert bot.allowed_mentions.to_dict() == {"parse": []}  # replied_user: False
    role = duel.guild.create_role("Raiders", mentionable=True)
    channel = bot.get_channel(duel.channel.id)
    # Any send that names no one (a cog's reply, say) inherits it.
    plain = await channel.send(f"@everyone <@&{role.id}> <@{duel.alice.id}>")
    message = duel.env.backend.get_message(duel.channel.id, plain.id)
    assert not message.mention_everyone
    assert message.ping_role_ids == [] and message.ping_user_ids == []
    assert posts_to(duel.env, duel.channel.id)[-1].json["allowed_mentions"]["parse"] == []


async def test_a_split_message_pings_the_named_players_in_every_part(duel):
    bot = duel.bot
    text = f"@everyone <@{duel.alice.id}>\n" + long_text() + f"\n@here <@{duel.alice.id}>"
    await enqueue(
        bot, duel.channel.id, {"lang": "en", "content": text, "mentions": [duel.alice.id]}, "s"
    )
    await drain(bot)
    for posted in bot_posts(duel):
        message = duel.env.backend.get_message(duel.channel.id, posted.id)
        assert not message.mention_everyone
    for request in posts_to(duel.env, duel.channel.id):
        assert request.json["allowed_mentions"]["parse"] == []


# --- 3. a 400 is a bug: logged once, not retried ---------------------------------------------


async def test_a_400_fails_the_row_at_once_and_is_logged_as_an_error(duel, caplog):
    bot = duel.bot
    duel.env.inject_error(
        "POST",
        CHANNEL_POSTS,
        status=400,
        code=50035,
        message="Invalid Form Body (injected)",
        times=None,
    )
    with caplog.at_level(logging.WARNING, logger="bot.outbox"):
        row_id = await enqueue(bot, duel.channel.id, {"lang": "en", "content": "hi"}, "bad")
        await drain(bot)
        stored = await row(bot, row_id)
        assert (stored.status, stored.attempts) == ("failed", 1)
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 1
        assert str(row_id) in errors[0].getMessage()
        assert "Invalid Form Body (injected)" in errors[0].getMessage()

        # Nothing tries it again, however long we wait.
        await duel.env.advance_time(120)  # retries would come after 2, 10, 30 s
        await duel.bot.outbox.idle()
    stored = await row(bot, row_id)
    assert (stored.status, stored.attempts) == ("failed", 1)
    assert [r for r in caplog.records if r.levelno == logging.ERROR] == errors


async def test_a_500_is_still_retried(duel):
    bot = duel.bot
    duel.env.inject_error("POST", CHANNEL_POSTS, status=500, times=1)
    row_id = await enqueue(bot, duel.channel.id, {"lang": "en", "content": "hello"}, "flaky")
    await drain(bot)
    assert (await row(bot, row_id)).status == "pending"
    await duel.env.advance_time(30)
    await bot.outbox.idle()
    assert (await row(bot, row_id)).status == "sent"
    assert [m.content for m in bot_posts(duel)] == ["hello"]


# --- 5. a closing bot stops its sender before the database closes -------------------------------


async def test_stop_lets_the_post_in_flight_finish_and_claims_nothing_more(duel, monkeypatch):
    bot = duel.bot
    await drain(bot)  # what the duel's setup queued
    # one game's posts: they go out in order, one at a time (games go side by side)
    game_id = (await start_duel(duel)).game_id
    await drain(bot)
    ids = [
        await enqueue(
            bot, duel.channel.id, {"lang": "en", "content": f"p{i}"}, f"s{i}", game_id=game_id
        )
        for i in range(3)
    ]
    started, release = asyncio.Event(), asyncio.Event()
    real_send = bot.outbox.send

    async def slow_send(r: Any) -> bool:
        started.set()
        await release.wait()
        return await real_send(r)

    monkeypatch.setattr(bot.outbox, "send", slow_send)
    bot.outbox.wake()
    await started.wait()
    stopping = asyncio.create_task(bot.outbox.stop())
    await asyncio.sleep(0)
    assert not stopping.done()  # it waits for the post in flight
    release.set()
    await stopping
    assert [(await row(bot, i)).status for i in ids] == ["sent", "pending", "pending"]
    bot.outbox.wake()  # a stopped sender starts no drain
    assert bot.outbox._task is None


async def test_stop_cancels_a_post_that_outlasts_its_grace(duel, monkeypatch):
    bot = duel.bot
    await drain(bot)
    row_id = await enqueue(bot, duel.channel.id, {"lang": "en", "content": "stuck"}, "stuck")
    started = asyncio.Event()

    async def stuck_send(r: Any) -> bool:
        started.set()
        await asyncio.Event().wait()
        return True

    monkeypatch.setattr(bot.outbox, "send", stuck_send)
    bot.outbox.wake()
    await started.wait()
    await bot.outbox.stop(grace=0.05)
    assert (await row(bot, row_id)).status == "pending"  # sent at the next start, under its nonce
