"""An Apeiron league in SimCord, in Japanese, through the real commands, DMs and menus: created
with its fixed options (the draft's rounds defaulting to a deck's 14), the snake draft by DM menus
in pages (chest cards on later pages, reached with the page buttons), one pick left to run out, a
match played from the collections and resigned, the standings with Apeiron's figures."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.i18n import t
from cogs.apeiron import league as lg
from cogs.league import season
from cogs.league import service as service_module
from cogs.league.draft import auto_pick
from cogs.league.rulesets import rosters
from tests.cogs.forge import forge_click
from tests.cogs.league.test_flow import Season, last_dm, season_env

__all__ = ["season_env"]

PAGE = 20  # the starter's 52 cards: three pages


def selects(message: discord.Message) -> dict[str, list[str]]:
    """Each select menu's custom id and option values under a DM."""
    return {
        child.custom_id or "": [o.value for o in child.options]
        for row in message.components
        for child in row.children
        if isinstance(child, discord.components.SelectMenu)
    }


def buttons(message: discord.Message) -> list[Any]:
    return [
        child
        for row in message.components
        for child in row.children
        if isinstance(child, discord.components.Button)
    ]


async def pick_by_menu(s: Season, name: str, entry: str, turned: list[int]) -> Any:
    """Turn the DM's pages until ``entry`` is offered, then choose it (``turned``: one more
    for each page turned)."""
    message = last_dm(s, name)
    for _ in range(10):
        for custom_id, values in selects(message).items():
            if entry in values:
                assert len(custom_id) < 100 and len(values) <= 25
                return await s.users[name].select(message, [entry], custom_id=custom_id)
        forward = next(b for b in buttons(message) if b.label == "▶")
        assert not forward.disabled, f"{entry} never offered"
        clicked = await s.users[name].click(message, custom_id=forward.custom_id)
        assert not clicked.ephemeral
        turned.append(1)
        message = last_dm(s, name)  # the same message, edited to the next page
    raise AssertionError(f"{entry} not found in the menus")


@pytest.fixture
def paged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module, "PAGE", PAGE)


async def test_an_apeiron_league_in_japanese_from_creation_to_the_standings(
    season_env: Season, discord_locale: Any, paged: None
) -> None:
    s = season_env
    async with s.bot.table.repo.transaction() as tx:
        await tx.set_guild_language(s.guild.id, "ja")
    for name in ("alice", "bob"):
        discord_locale(s.players[name], "ja")
        discord_locale(s.users[name], "ja")
    created = await s.mod.slash(
        s.channel,
        "league create",
        name="アペイロン杯",
        season_name="2026秋",
        ruleset="apeiron",
        pick_minutes=5,
        minutes=3,
        time_control="standard",
        turn_limit=5,
    )
    assert "アペイロン杯" in created.response.content
    info = "\n".join(f.value for f in created.response.embeds[0].fields)
    standard = t("ja", "apeiron.league.time_control.standard")
    assert f"持ち時間：{standard}・ターン制限：5" in info and "ドラフト：14巡" in info
    assert "スタメン" not in info and "マスター" not in info, "no options it does not have"
    s.league_id = (await s.bot.leagues.in_guild(s.guild.id))[0].id
    league = await s.league()
    assert league.options.rounds == lg.DRAFT_PICKS
    assert league.options.game == {"time_control": "standard", "turn_limit": 5}
    for name in ("alice", "bob"):
        await s.players[name].slash(s.channel, "league join")
    await s.mod.slash(s.channel, "league draft")
    await s.settle()

    first = last_dm(s, "alice")
    assert first.content.startswith("📋 **アペイロン杯**：あなたの指名です（28指名中1番目）")
    page_label = t("ja", "league.menu.page", page=1, pages=3)
    assert any(b.label == page_label for b in buttons(first))
    assert sum(len(v) for v in selects(first).values()) == PAGE

    check = season.pick_check(rosters(league))
    turned: list[int] = []
    for number in range(1, 2 * lg.DRAFT_PICKS + 1):
        league = await s.league()
        name = "alice" if league.draft.current == s.uid("alice") else "bob"
        if number == 5:  # this one runs out: the bot takes the costliest card the check allows
            await s.env.advance_time(5 * 60 + 1)
            await s.bot.leagues.tick()
            await s.settle()
            after = (await s.league()).draft
            assert after.picks[4].auto and after.picks[4].unit == auto_pick(league.draft, check)
            continue
        wanted = auto_pick(league.draft, check)
        unit_name = rosters(league).unit_name(wanted, "ja")
        if number == 3:  # by command, the card typed by its Japanese name
            result = await s.players[name].slash(s.channel, "league pick", unit=unit_name)
            assert result.ephemeral and (await s.league()).draft.picks[2].unit == wanted
        else:
            result = await pick_by_menu(s, name, wanted, turned)
        assert result.response.content == f"**{unit_name}**を指名しました（アペイロン杯）。"
        await s.settle()
    league = await s.league()
    assert league.draft_over and turned, "chest cards were reached on a later page"
    assert sum(1 for p in league.draft.picks if p.unit.startswith(lg.CHEST)) == 12
    for name in ("alice", "bob"):
        held = lg.Collection.of(league.draft.picks_of(s.uid(name)))
        assert len(held.units) == 8 and len(held.chest) == 6

    started = await s.mod.slash(s.channel, "league match", a=s.players["alice"], b=s.players["bob"])
    match_id = next(w for w in started.response.content.split() if w.startswith("g"))
    game = await s.bot.table.game(match_id)
    assert game.ruleset == "apeiron" and game.options["turn_limit"] == 5
    assert game.options["minutes"] == 3
    await s.players["bob"].slash(s.channel, "game resign", confirm=True, game=match_id)
    await s.bot.leagues.tick()
    await s.settle()
    league = await s.league()
    assert league.match(match_id).winner == s.uid("alice")
    # Bob holds just a deck: nothing to spare, so no ante (and the channel says so, once).
    assert league.antes == ()
    spare = t("ja", "league.ante.nothing_to_spare", match=match_id, loser=f"<@{s.uid('bob')}>")
    assert s.channel_texts().count(spare) == 1

    standings = await s.players["alice"].slash(s.channel, "league standings")
    lines = standings.response.embeds[0].description.splitlines()
    assert lines[0].startswith(f"1位 <@{s.uid('alice')}>・1試合 1勝0分0敗・残りユニット")
    assert "残りH" in lines[0] and "DP" not in lines[0]


async def test_forged_page_buttons_are_out_of_date_or_refused(
    season_env: Season, paged: None
) -> None:
    s = season_env
    await s.mod.slash(
        s.channel, "league create", name="Forged", season_name="S1", ruleset="apeiron"
    )
    s.league_id = (await s.bot.leagues.in_guild(s.guild.id))[0].id
    for name in ("alice", "bob"):
        await s.players[name].slash(s.channel, "league join")
    await s.mod.slash(s.channel, "league draft")
    await s.settle()
    prompt = last_dm(s, "alice")
    head = f"pbp:lpg:{s.league_id}:draft:1"
    out_of_date = "⚠️ " + t("en", "component.out_of_date")
    for page in ("abc", "9" * 40, "-1"):
        forged = await forge_click(s.users["alice"], prompt, f"{head}:{page}", like="pbp:lpg:")
        assert forged.ephemeral and forged.response.content == out_of_date, page
    unknown = await forge_click(
        s.users["alice"], prompt, f"pbp:lpg:{s.league_id}:ante:g999:0", like="pbp:lpg:"
    )
    assert unknown.ephemeral and unknown.response.content.startswith("⚠️")
    last = await forge_click(s.users["alice"], prompt, f"{head}:999", like="pbp:lpg:")
    assert not last.ephemeral, "a page past the last shows the last"
    assert any(
        b.label == t("en", "league.menu.page", page=3, pages=3)
        for b in buttons(last_dm(s, "alice"))
    )
    assert (await s.league()).draft.number == 1, "nothing was picked"
