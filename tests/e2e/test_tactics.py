"""A whole tactics match through the real process: roster, deployment, ten turns, the result."""

from __future__ import annotations

from tests.e2e.harness import SCRIPTS, dump, settle


async def test_tactics_from_challenge_to_result(fake, bot, table):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await bot.start()
    script = SCRIPTS["tactics"]
    run = await table.start_game(script, fake.default_channel_id, alice, bob, seed=2)
    await table.play(run, script)
    assert run.finished

    posts = [m for m in fake.posted(fake.default_channel_id) if m.embeds]
    titles = [m.embeds[0]["title"] for m in posts]
    assert titles[:3] == [
        f"Tactics · {run.game} · Roster",
        f"Tactics · {run.game} · Deployment",
        f"Tactics · {run.game} · Turn 1/10",
    ]
    assert titles[-1] == f"Tactics · {run.game} · Final"
    assert len(titles) == len(set(titles)) == 2 + 10 + 1
    assert all(m.files and m.files[0][0] == "board.png" for m in posts)
    final = posts[-1].embeds[0]
    assert "Draw" in final["description"]  # nobody attacked: 0 DP each after turn 10
    fields = {f["name"]: f["value"] for f in final["fields"]}
    assert any(name.startswith("A · ") and "DP **0**" in value for name, value in fields.items())
    await settle(bot)
    db = dump(bot.db_path)
    assert db["games"][0]["status"] == "finished"
    assert [r for r in db["outbox"] if r["status"] != "sent"] == []
    assert bot.errors() == []
