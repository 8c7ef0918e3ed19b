"""The league embeds fit Discord's limits (bot.limits) whatever the league's size, and say what
they leave out."""

from __future__ import annotations

import discord
import pytest

from bot import limits
from cogs.league.cog import fitted, head, info_embed
from cogs.league.season import League, Options


def league_of(players: int, *, name: str = "Cup", season: str = "S1") -> League:
    ids = tuple(str(1_400_000_000_000_000_000 + i) for i in range(players))
    return League("L1", 1, 10, name, "tactics", season, Options(), "1", 0.0, players=ids)


def within_limits(embed: discord.Embed) -> None:
    assert len(embed) <= limits.EMBED_TOTAL
    assert len(embed.title or "") <= limits.EMBED_TITLE
    assert len(embed.description or "") <= limits.EMBED_DESCRIPTION
    assert len(embed.fields) <= limits.EMBED_FIELDS
    assert all(0 < len(f.name or "") <= limits.EMBED_TITLE for f in embed.fields)
    assert all(0 < len(f.value or "") <= limits.FIELD_VALUE for f in embed.fields)


@pytest.mark.parametrize("players", [0, 2, 46, 47, 90, 250, 1000])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_league_info_fits_for_any_number_of_players(players, lang):
    league = league_of(players, name="N" * 300, season="S" * 300)  # as stored before the limits
    embed = info_embed(league, lang)
    within_limits(embed)
    text = " ".join(f.value or "" for f in embed.fields)
    shown = [p for p in league.players if f"<@{p}>" in text]
    assert shown == list(league.players[: len(shown)]), "in join order, none twice"
    if len(shown) < players:
        more = "more" if lang == "en" else "ほか"
        assert more in text and str(players - len(shown)) in text
    if players <= 90:
        assert len(shown) == players, "ninety players all fit"


def test_an_embed_of_too_many_long_fields_is_cut_and_says_so():
    embed = discord.Embed(title="T" * 400, description="D" * 5000)
    for i in range(40):
        embed.add_field(name=f"F{i}" * 200, value="v" * 2000)
    embed = fitted(embed, "en")
    within_limits(embed)
    assert embed.footer.text and "more not shown" in embed.footer.text


def test_head_counts_the_lines_left_out():
    lines = [f"{i:03d} " + "x" * 60 for i in range(90)]
    text = head(lines, 4096, lambda n: f"and {n} more")
    assert len(text) <= 4096
    kept = text.splitlines()[:-1]
    assert kept == lines[: len(kept)] and text.endswith(f"and {90 - len(kept)} more")
    assert head(lines[:3], 4096, lambda n: "never") == "\n".join(lines[:3])
