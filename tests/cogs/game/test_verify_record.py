"""``/verify record`` with a record whose options the ruleset reads later (issue 31, finding 10):
an Esper ``history`` of the wrong shape once answered "Something went wrong"; now the reader is
told, privately and in their language, which option is not valid."""

from __future__ import annotations

import json

import pytest

from bot.i18n import t
from tests.cogs.game.sim import setup_duel
from tests.test_record_malformed import esper_opening


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_record_with_a_malformed_history_is_refused_privately(
    duel, discord_locale, lang: str
) -> None:
    data = json.dumps(esper_opening({"history": {"A": 5}})).encode()
    discord_locale(duel.alice, lang if lang == "ja" else "en-US")
    result = await duel.alice.slash(duel.channel, "verify record", record=("esper.json", data))
    said = result.response.content
    assert result.ephemeral
    reason = t("en", "esper.error.option", option="history", value="A")
    # The checks' lines are the checker's English sentences, as verify prints them.
    failed = t(lang, "verify.record_failed", count=1, items=f"replay: setup: {reason}")
    assert said.startswith(failed + "\n"), said
    assert t(lang, "error.unexpected", ref="")[:10] not in said


async def test_the_same_record_untouched_verifies(duel) -> None:
    data = json.dumps(esper_opening({})).encode()
    result = await duel.alice_dm.slash("verify record", record=("esper.json", data))
    assert result.ephemeral
    assert result.response.content.startswith(t("en", "verify.record_ok", count=17) + "\n")
