"""The builder's components answer any id or value a forged click carries (issue 31, finding
8): a preset the deck step never listed (``99``, ``abc``), a destination or a facing offered in
another step, an action id without its dot, a deployment facing without its square, a row of
99, a turn past any game's. Each is answered privately "out of date"; nothing raises, the
builder keeps its draft and never shows an empty menu (Discord refuses one)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from tests.cogs.apeiron.test_flow import (
    build_setup,
    handle,
    open_builder,
    pick,
    select_of,
    start,
)
from tests.cogs.forge import forge_click, forge_select
from tests.cogs.game.sim import setup_duel

OUT_OF_DATE = "⚠️ " + t("en", "component.out_of_date")


@pytest.fixture
def duel(simcord_env, sim_clock):
    return setup_duel(simcord_env, sim_clock)


def head(builder: Any) -> str:
    """``ab:<game>:<turn>`` of the builder's own components."""
    return ":".join(select_of(builder)["custom_id"].split(":")[:3])


async def refused(duel: Any, seat: str, builder: Any, custom_id: str, value: str) -> None:
    """Answered with a new private message: the builder is not edited (each test then picks on
    it for real, so its menu is still there and still works)."""
    result = await forge_select(handle(duel, seat), builder, custom_id, [value])
    assert result.acknowledged, (custom_id, value)
    assert result.ephemeral and result.response.content == OUT_OF_DATE, (custom_id, value)
    assert result.response.id != builder.id


async def test_forged_picks_in_the_deck_step(duel):
    await start(duel)
    builder = await open_builder(duel, "A", "en")
    ab = head(builder)
    presets = [o["value"] for o in select_of(builder)["options"]]
    for what, value in [
        ("deck", "99"),
        ("deck", "0"),
        ("deck", "abc"),
        ("deck", "9" * 90),
        ("dest", "A1"),  # a destination: the play step's
        ("col", "A"),
        ("face:A1", "N"),
        ("act:x", "0"),  # an action's id without its dot
        ("act:A1.N", "0"),
        ("unit", "0"),  # the deployment's
        ("row:0", "1"),
        ("place:0", "A1"),
        ("dface:0", "N"),  # a facing without its square
        ("pick", "option 1"),
        ("zzz", "1"),
    ]:
        await refused(duel, "A", builder, f"{ab}:{what}", value)
    # The real menu still works, and a turn past any game's is out of date too.
    game, turn = ab.split(":")[1:3]
    await refused(duel, "A", builder, f"ab:{game}:{2**63}:deck", presets[0])
    await refused(duel, "A", builder, f"ab:{game}:{int(turn) + 10**30}:deck", presets[0])
    chosen = await pick(duel, "A", builder, presets[0])
    assert "deck u01" in chosen.content


async def test_forged_picks_in_the_deployment(duel):
    await start(duel)
    for seat in "AB":
        await build_setup(duel, seat, "en")
    builder = await open_builder(duel, "A", "en")
    ab = head(builder)
    places = [o["value"] for o in select_of(builder)["options"]]
    for what, value in [
        ("unit", "99"),
        ("unit", "x"),
        ("row:0", "99"),  # a row of 99: an empty menu once
        ("row:99", "1"),
        ("place:99", "A1"),
        ("place:0", "Z99"),
        ("place:0", "A9"),  # the other seat's rows
        ("dface:0", "N"),  # without its square
        ("dface:0.A1.B2", "N"),
        ("dface:99.A1", "N"),
        ("dface:0.A1", "up"),
        ("dest", "A1"),
        ("deck", "1"),  # the deck step is over
    ]:
        await refused(duel, "A", builder, f"{ab}:{what}", value)
    chosen = await pick(duel, "A", builder, places[0])
    assert select_of(chosen)["custom_id"].startswith(f"{ab}:")


async def test_a_forged_button_turn(duel):
    await start(duel)
    builder = await open_builder(duel, "A", "en")
    game = head(builder).split(":")[1]
    for turn in (2**63, 2**64 + 1, 10**40):
        result = await forge_click(handle(duel, "A"), builder, f"ab:{game}:{turn}:seal")
        assert result.ephemeral and result.response.content == OUT_OF_DATE
