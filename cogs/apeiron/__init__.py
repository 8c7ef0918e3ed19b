"""Apeiron (``../shared/rules/apeiron.md``): the panel-field unit game.

The data pack format (:mod:`.pack`), the starter pack (``data/starter.toml``), the field geometry
(:mod:`.field`), the rules engine (:mod:`.rules`, cut at its seams: :mod:`.state`, :mod:`.orders`,
:mod:`.targets`, :mod:`.effects`, :mod:`.legality`), the demo AI (:mod:`.ai`), the presenter
(:mod:`.present`), board (:mod:`.board`) and league part (:mod:`.league`) import no discord;
the cog (``cog.py``, the spec's extension) and the order builder (``builder.py``, behind the DM's
one button) are loaded by the bot only.
"""

from __future__ import annotations

from bot.ruleset import Ref, RulesetSpec, SeatSpec
from cogs.apeiron import rules, twin
from cogs.apeiron.league import LEAGUE
from cogs.apeiron.present import PRESENTER
from cogs.apeiron.rules import ApeironState, Order

RULESET: RulesetSpec[ApeironState, Order] = RulesetSpec(
    key="apeiron",
    engine=rules,
    presenter=PRESENTER,
    seats=SeatSpec(rules.SEATS),
    extension="cogs.apeiron.cog",
    # An activation (unit, square and path, facing, action with its targets) is too rich for one
    # row of buttons: the DM's button opens a step-by-step builder, each step checked by the engine.
    sheet_builder=Ref("cogs.apeiron.builder:open_builder"),
    demo_player=Ref("cogs.apeiron.ai"),
    private_view_fields=frozenset({"you"}),
    secret_stream=True,
    withheld=rules.withheld,
    step_seconds=rules.step_seconds,
    adjudicate=rules.adjudicate,
    hidden_twin=twin.hidden_twin,
    # Leagues of card collections drafted from one pack, each match's deck drawn from them
    # (cogs/apeiron/league.py).
    league=LEAGUE,
)
