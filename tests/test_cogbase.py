"""The commands ``bot.cogbase.RulesetCog`` makes from a spec, in SimCord, for the two rulesets
outside ``cogs/`` (rock-paper-scissors and Sealed Bids): ``rules`` answers privately with the
presenter's text in the reader's language, and a challenge naming fewer opponents than the seats
need is refused with the ruleset's reason, opening nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot import registry
from bot.i18n import t
from tests.example_ruleset import RULESET as RPS
from tests.hidden_ruleset import RULESET as BIDS


@pytest.fixture
def registered() -> Iterator[None]:
    for spec in (RPS, BIDS):
        registry.register(spec)
    yield
    for spec in (RPS, BIDS):
        registry.unregister(spec.key)


@pytest.fixture
def simcord_bot(registered: None, make_bot: Any) -> Any:
    return make_bot()  # built after the registration: it loads both extensions


@pytest.fixture
def club(simcord_env: Any, sim_clock: Any) -> tuple[Any, Any, list[Any]]:
    sim_clock.env = simcord_env
    guild = simcord_env.create_guild(name="Club")
    channel = guild.create_text_channel("games")
    members = [guild.add_member(simcord_env.create_user(n)) for n in ("ann", "ben", "cy")]
    return simcord_env, channel, members


@pytest.mark.parametrize("spec", [RPS, BIDS], ids=lambda spec: spec.key)
@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_rules_is_the_presenters_how_to_play(
    club: Any, discord_locale: Any, spec: Any, locale: str
) -> None:
    _, channel, (ann, *_) = club
    discord_locale(ann, locale)
    result = await ann.slash(channel, f"{spec.key} rules")
    assert result.ephemeral
    assert result.response.content == spec.presenter.how_to_play("ja" if locale == "ja" else "en")
    assert not [m for m in channel.history() if m.author.bot]


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_a_challenge_with_too_few_opponents_is_refused(
    club: Any, discord_locale: Any, locale: str
) -> None:
    env, channel, (ann, ben, cy) = club
    discord_locale(ann, locale)
    result = await ann.slash(channel, "bids challenge", opponent1=ben)
    assert result.ephemeral
    reason = t("ja" if locale == "ja" else "en", "bids.challenge.too_few", needed=3)
    assert reason in result.response.content
    # Two opponents are enough: the lobby opens for both, the channel's first game.
    opened = await ann.slash(channel, "bids challenge", opponent1=ben, opponent3=cy)
    assert not opened.ephemeral and "(g-0001)" in opened.response.content
    game = await env.bot.table.game("g-0001")
    assert [seat.user_id for seat in game.seats] == [ann.id, ben.id, cy.id]
