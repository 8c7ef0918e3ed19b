"""Requests per turn at the floor (issue 37), counted in the fake Discord's request log (counts,
not timings: ``bench/load.py`` measures the rates). A two-player turn ordered by DM costs at most
five requests under the global limit: the turn post, two prompt DMs, one acknowledgement (the
other rides on its player's prompt) and at most one progress edit; no DM channel is opened
again once a player has had a DM."""

from __future__ import annotations

import asyncio

from bot.http import EXEMPT_PATHS
from tests.e2e.harness import SCRIPTS, BotProcess, Table, World, carries_prompt, dump, settle
from tests.fakediscord import FakeDiscord

GAMES = 3
TURNS = 3


async def test_a_two_player_turn_costs_at_most_five_paced_requests(tmp_path):
    fake = await FakeDiscord().start()
    bot = BotProcess(fake, tmp_path)
    table = Table(fake, bot, think=(0.0, 0.2), max_turns=TURNS)
    world = World.create(fake, GAMES)
    script = SCRIPTS["arena"]
    try:
        await bot.start()
        runs = await asyncio.gather(
            *(table.start_game(script, c, a, b, seed=i) for i, (a, b, c) in enumerate(world.pairs))
        )
        await settle(bot)  # each game's setup out: turn 1's post and prompts, the DM channels
        counted = len(fake.requests)
        await asyncio.gather(*(table.play(run, script) for run in runs))
        await settle(bot)
        resolved = sum(g["version"] - 1 for g in dump(bot.db_path)["games"])
        assert resolved == GAMES * TURNS
        paced = [r for r in fake.requests[counted:] if not r.path.startswith(EXEMPT_PATHS)]
        routes = [r.route for r in paced]
        assert len(paced) <= 5 * resolved, routes
        assert "POST /users/@me/channels" not in routes  # opened once per player, at setup
        assert routes.count("PATCH /channels/{}/messages/{}") <= resolved  # progress edits
        # Every order acknowledged, half of them on the next prompt instead of on their own.
        dms = [m for c in fake.dm_channels.values() for m in fake.posted(c)]
        own = [m for m in dms if not carries_prompt(m)]
        riding = [m for m in dms if m.reference_id is not None and carries_prompt(m)]
        assert len(table.acks) == 2 * resolved
        assert len(own) == len(riding) == resolved
        assert fake.violations == [] and bot.errors() == []
    finally:
        await bot.stop()
        await fake.stop()
