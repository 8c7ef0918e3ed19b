"""The tactics builder's components answer any id or value a forged click carries, as the
Apeiron builder's do (issue 31, finding 8): an action id without its squares, a destination of
a unit that is not there, a column or a square no menu offered, a master no preset has. Each
was an error (ValueError, KeyError) or went into the draft; now each is answered privately "out
of date", nothing raises, and the builder still works."""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.cogs.forge import forge_click, forge_select
from tests.cogs.game.sim import setup_duel
from tests.cogs.tactics.test_flow import (
    custom_id,
    open_builder,
    pick,
    start_match,
    through_setup,
)

OUT_OF_DATE = "⚠️ " + t("en", "component.out_of_date")


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


async def refused(duel, builder, custom_id: str, values: list[str]) -> None:
    result = await forge_select(duel.bob_dm, builder, custom_id, values)
    assert result.acknowledged, (custom_id, values)
    assert result.ephemeral and result.response.content == OUT_OF_DATE, (custom_id, values)
    assert result.response.id != builder.id


async def test_forged_picks_in_the_roster_step(duel):
    await start_match(duel)
    builder = await open_builder(duel)
    head = ":".join(custom_id(builder, "master").split(":")[:3])
    for what, values in [
        ("master", ["zzz"]),
        ("pool:0", ["knight", "zzz"]),
        ("pool:99", ["knight"]),
        ("unit", ["B1"]),
        ("act:x", ["wait"]),
        ("coldest:B1", ["Z"]),
        ("deploy", ["B1"]),
        ("summonto:B1", ["A1"]),
    ]:
        await refused(duel, builder, f"{head}:{what}", values)
    game = head.split(":")[1]
    await refused(duel, builder, f"tb:{game}:{2**63}:master", ["archmage"])
    result = await forge_click(duel.bob_dm, builder, f"tb:{game}:{2**63}:seal")
    assert result.ephemeral and result.response.content == OUT_OF_DATE
    builder = await pick(duel, builder, "master", ["archmage"])
    assert "roster archmage" in builder.content


async def test_forged_picks_in_the_play_step(duel):
    await start_match(duel)
    await through_setup(duel)
    builder = await open_builder(duel)
    head = ":".join(custom_id(builder, "unit").split(":")[:3])
    for what, values in [
        ("unit", ["Q9"]),
        ("unit", ["A1"]),  # the other side's unit
        ("dest:Q9", ["C4"]),
        ("dest:B2", ["Z99"]),
        ("dest:B2.D2", ["C4"]),
        ("coldest:B2", ["Z"]),
        ("act:x", ["wait"]),
        ("act:B2.D2", ["wait"]),
        ("act:B2.A1.C4", ["wait"]),  # not where the unit stands
        ("act:B2.D2.Z99", ["wait"]),
        ("act:B2.D2.C4", ["attack Z99"]),
        ("master", ["archmage"]),
        ("place:B1", ["E2"]),
    ]:
        await refused(duel, builder, f"{head}:{what}", values)
    builder = await pick(duel, builder, "unit", ["B2"])
    builder = await pick(duel, builder, "dest", ["C4"])
    builder = await pick(duel, builder, "act", ["wait"])
    assert "B2 D2>C4" in builder.content
