"""HEXSYSTEM Arena Duel: two gladiators, secret moves, dice comparisons.

``rules`` (pure engine) and ``board`` (pure renderer) import no discord; the cog (``cog.py``, the
spec's extension) is loaded by the bot only, so importing the engine never pulls in discord.py.
"""

from __future__ import annotations

from bot.ruleset import LeagueSupport, Ref, RulesetSpec, SeatSpec
from cogs.arena import rules
from cogs.arena.present import PRESENTER
from cogs.arena.rules import ArenaState, Order

# The annotation makes mypy hold the ``rules`` module to ``Engine[ArenaState, Order]``.
RULESET: RulesetSpec[ArenaState, Order] = RulesetSpec(
    key="arena",
    engine=rules,
    presenter=PRESENTER,
    seats=SeatSpec(rules.SEATS),
    extension="cogs.arena.cog",
    demo_player=Ref("cogs.arena.ai"),
    private_view_fields=frozenset({"dice"}),  # each seat sees its own three dice
    # Leagues of standings and ratings only: no rosters, no tie-break figures, no fixed options;
    # the winner of a finished duel wins the league match (a draw is drawn).
    league=LeagueSupport(),
)
