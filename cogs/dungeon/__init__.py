"""Hex dungeon (``dungeon``): a co-operative hex dungeon crawler whose monsters the bot runs.

``hexes`` (coordinates, distance, line of sight) and ``ai`` (monster focus and movement) are pure:
no discord, no storage, no randomness, no clock. ``scenario`` reads the shared reference situations
(``monster-ai-scenarios.json``) into the AI's own types; ``cli`` is ``python -m bot monster-ai``.
``content`` loads the data packs (scenarios, classes, monster decks), ``movement`` moves figures,
``rules`` is the co-op engine (over ``state``, ``orders`` and ``resolution``, its seams),
``board`` draws it and ``present`` words it; the cog
(``cog.py``, the spec's extension) is loaded by the bot only, so importing the engine never
pulls in discord.py.
"""

from __future__ import annotations

from bot.ruleset import CliCommand, Ref, RulesetSpec, SeatSpec
from cogs.dungeon import rules
from cogs.dungeon.present import PRESENTER
from cogs.dungeon.rules import DungeonState, Order

# The annotation makes mypy hold the ``rules`` module to ``Engine[DungeonState, Order]``.
RULESET: RulesetSpec[DungeonState, Order] = RulesetSpec(
    key="dungeon",
    engine=rules,
    presenter=PRESENTER,
    # A party of 1 to 4; the demo plays a party of two.
    seats=SeatSpec(rules.SEATS, counts=(1, 2, 3, 4), demo=("A", "B")),
    extension="cogs.dungeon.cog",
    # The built-in party (``ai`` is the monsters' own AI).
    demo_player=Ref("cogs.dungeon.players"),
    cli=(CliCommand("monster-ai", "solve dungeon monster-AI situations", Ref("cogs.dungeon.cli")),),
    private_view_fields=frozenset({"you"}),  # the seat's own hand and reach
)
