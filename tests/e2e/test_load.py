"""A CI-size load run (``bench/load.py`` is the full one): many games at once through the fake
Discord, with Discord's own per-channel buckets. Checks counts, not timings: one channel message
per resolved turn, one prompt DM per seat per turn, one acknowledgement per order (the order that
completes a turn has its own on the next prompt), no 429 earned."""

from __future__ import annotations

import asyncio

from tests.e2e.harness import SCRIPTS, BotProcess, Table, World, carries_prompt, dump, settle
from tests.fakediscord import FakeDiscord

GAMES = 40
TURNS = 2


async def test_many_games_at_once_post_one_message_per_turn(tmp_path):
    fake = await FakeDiscord().start()
    bot = BotProcess(fake, tmp_path)
    table = Table(fake, bot, think=(0.0, 0.3), max_turns=TURNS)
    world = World.create(fake, GAMES)
    script = SCRIPTS["arena"]
    try:
        await bot.start()
        runs = await asyncio.gather(
            *(table.start_game(script, c, a, b, seed=i) for i, (a, b, c) in enumerate(world.pairs))
        )
        await asyncio.gather(*(table.play(run, script) for run in runs))
        await settle(bot)
        resolved = sum(g["version"] - 1 for g in dump(bot.db_path)["games"])
        assert resolved == GAMES * TURNS
        channel_posts = sum(
            1 for c in world.channels for m in fake.posted(c) if m.interaction_id is None
        )
        assert channel_posts == GAMES + resolved  # turn 1's prompt, then one per resolved turn
        dms = [m for c in fake.dm_channels.values() for m in fake.posted(c)]
        prompts = [m for m in dms if carries_prompt(m)]
        assert len(prompts) == 2 * GAMES + 2 * resolved  # one per seat per turn
        assert len(table.acks) == 2 * GAMES * TURNS  # every order acknowledged…
        assert len(dms) - len(prompts) == GAMES * TURNS  # …the completing one on a prompt
        # A DM channel is looked up once per player, not once per message.
        assert fake.count("GET /users/{}") <= 2 * GAMES
        assert fake.count("POST /users/@me/channels") == 2 * GAMES
        assert fake.violations == []
        assert bot.errors() == []
    finally:
        await bot.stop()
        await fake.stop()
