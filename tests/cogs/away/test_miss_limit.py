"""SimCord: an Arena Duel league with a miss limit (issue 34). Bob lets his match's deadlines pass;
at his second unexcused miss the league's channel pings the league's moderator role once,
naming him and suggesting /game substitute, and not again at the third; /game status counts his
misses and /league standings shows them (embed and image column)."""

from __future__ import annotations

from tests.cogs.league.test_flow import Season, season_env

__all__ = ["season_env"]

TICK = 30.0


async def test_a_player_reaching_the_miss_limit_pings_the_moderators_once(season_env: Season):
    s = season_env
    role = s.guild.create_role("League mods")
    created = await s.mod.slash(
        s.channel,
        "league create",
        name="Sand Pit",
        season_name="S1",
        ruleset="arena",
        minutes=5,
        miss_limit=2,
    )
    assert "Sand Pit" in created.response.content
    await s.mod.slash(s.channel, "league modrole", role=role)
    alice, bob = s.players["alice"], s.players["bob"]
    for player in (alice, bob):
        await player.slash(s.channel, "league join")
    result = await s.mod.slash(s.channel, "league match", a=alice, b=bob)
    match_id = result.response.content.split()[2]

    def pings() -> list[str]:
        return [m for m in s.channel_texts() if m.startswith("⚠️")]

    for miss in range(1, 4):
        game = await s.bot.table.game(match_id)
        assert game.status == "active" and game.deadline_at is not None
        await alice.user.send_dm("stay none")
        await s.env.advance_time(game.deadline_at - s.env.now().timestamp() + 2 * TICK)
        await s.settle()
        assert (await s.bot.table.game(match_id)).step == miss + 1
        assert len(pings()) == (0 if miss < 2 else 1), f"after miss {miss}"
    (ping,) = pings()
    assert ping.startswith(f"⚠️ <@&{role.id}> <@{bob.id}> has let 2 deadlines pass unexcused")
    assert "league Sand Pit" in ping and "/game substitute" in ping
    message = next(m for m in s.channel.history() if m.content == ping)
    assert {r.id for r in message.role_mentions} == {role.id}, "the role is pinged"

    status = await alice.slash(s.channel, "game status", game=match_id)
    fields = {f.name: f.value for f in status.response.embeds[0].fields}
    assert fields["Missed deadlines"] == "B: 3 (3 unexcused)"
    standings = await alice.slash(s.channel, "league standings")
    lines = standings.response.embeds[0].description.splitlines()
    assert any(f"<@{bob.id}>" in line and line.endswith("· 3 missed") for line in lines)
    assert not any(f"<@{alice.id}>" in line and "missed" in line for line in lines)
