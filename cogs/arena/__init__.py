"""HEXSYSTEM Arena Duel: two gladiators, secret moves, dice comparisons.

``rules`` (pure engine) and ``board`` (pure renderer) import no discord; the cog is loaded lazily so
that importing the engine never pulls in discord.py.
"""

from __future__ import annotations

from typing import Any

from bot.ruleset import Ref, RulesetSpec, SeatSpec
from cogs.arena import rules
from cogs.arena.present import PRESENTER
from cogs.arena.rules import ArenaState, Order


async def setup(bot: Any) -> None:
    from cogs.arena.cog import ArenaCog

    await bot.add_cog(ArenaCog(bot))


# The annotation makes mypy hold the ``rules`` module to ``Engine[ArenaState, Order]``.
RULESET: RulesetSpec[ArenaState, Order] = RulesetSpec(
    key="arena",
    engine=rules,
    presenter=PRESENTER,
    seats=SeatSpec(rules.SEATS),
    extension=__name__,
    demo_player=Ref("cogs.arena.ai"),
    private_view_fields=frozenset({"dice"}),  # each seat sees its own three dice
)
