"""Master-unit tactics: secret action sheets, mana and DP on a square grid.

``rules`` (pure engine), ``board`` (pure renderer), ``present`` and ``league`` (what a league
reads of tactics) import no discord; the cog (``cog.py``, the spec's extension) is loaded by the
bot only, so importing the engine never pulls in discord.py.
"""

from __future__ import annotations

from bot.ruleset import Ref, RulesetSpec, SeatSpec
from cogs.tactics import rules
from cogs.tactics.league import LEAGUE
from cogs.tactics.present import PRESENTER
from cogs.tactics.sheet import Order
from cogs.tactics.state import TacticsState

# The annotation makes mypy hold the ``rules`` module to ``Engine[TacticsState, Order]``.
RULESET: RulesetSpec[TacticsState, Order] = RulesetSpec(
    key="tactics",
    engine=rules,
    presenter=PRESENTER,
    seats=SeatSpec(rules.SEATS),
    extension="cogs.tactics.cog",
    # A sheet is too rich for one row of buttons: the DM's 📝 opens a step-by-step builder.
    sheet_builder=Ref("cogs.tactics.builder:open_builder"),
    demo_player=Ref("cogs.tactics.ai"),
    # Leagues: rosters (entry draft, master units, ante), DP in the standings (league.py).
    league=LEAGUE,
)
