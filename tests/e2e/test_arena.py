"""A whole Arena game through the real process: gateway events in, REST requests out."""

from __future__ import annotations

from tests.e2e.harness import SCRIPTS, dump, prompt_part, settle


async def test_arena_from_challenge_to_result(fake, bot, table):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await bot.start()
    run = await table.start_game(SCRIPTS["arena"], fake.default_channel_id, alice, bob, seed=1)
    await table.play(run, SCRIPTS["arena"])
    assert run.finished

    posts = [m for m in fake.posted(fake.default_channel_id) if m.embeds]
    titles = [m.embeds[0]["title"] for m in posts]
    # One post per turn (the prompt of turn 1, then each result with the next prompt), then the
    # final result: each exactly once, each with its board.
    assert titles[0] == f"Arena Duel · {run.game} · Turn 1"
    assert titles[-1] == f"Arena Duel · {run.game} · Final"
    assert len(titles) == len(set(titles)) == run.turns_played + 1
    assert all(m.files and m.files[0][0] == "board.png" for m in posts)
    # each board with its description (alt text), as Discord keeps it on the attachment
    alts = [m.attachments[0].get("description") or "" for m in posts]
    assert all(a.startswith("Arena Duel board: ") and len(a) <= 1024 for a in alts), alts
    final = posts[-1].embeds[0]
    assert "wins" in final["description"] or "draw" in final["description"].lower()
    # Both players were told by DM; every order was acknowledged with its receipt.
    for user in (alice, bob):
        # The last order's acknowledgement may ride on it: the notice follows it.
        assert prompt_part(fake.dms_to(user)[-1]).startswith(f"Game {run.game} is over")
    assert len(table.acks) == 2 * run.turns_played
    await settle(bot)
    db = dump(bot.db_path)
    assert db["games"][0]["status"] == "finished"
    stored = {(o["turn"], o["user_id"]): o["receipt"] for o in db["orders"]}
    assert all(stored[(a.turn, a.user)] == a.receipt for a in table.acks)
    # Every channel message and DM went out with a nonce, once.
    assert [r for r in db["outbox"] if r["status"] != "sent"] == []
    assert fake.violations == []
    assert not any(i.late for i in fake.interactions.values())
    assert bot.errors() == []
