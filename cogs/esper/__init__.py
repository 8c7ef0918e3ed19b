"""Esper war (``../shared/rules/esper.md``): 5–11 players with hidden alignments.

The data pack (:mod:`.pack`, ``data/sample.toml``), the rules engine (:mod:`.rules`, the entry
point over :mod:`.state`, :mod:`.effects`, :mod:`.base`, :mod:`.orders`, :mod:`.combat`,
:mod:`.combat_play`, :mod:`.turns` and :mod:`.opening`), the demo AI (:mod:`.ai`, over
:mod:`.ai_mind`, :mod:`.ai_combat` and :mod:`.ai_base`), the presenter (:mod:`.present`), the
board (:mod:`.board`, over :mod:`.board_kit`, :mod:`.base_board` and :mod:`.combat_board`) and
the hidden twin of a state (:mod:`.twin`) and what a league may do with it (:mod:`.league`) import
no discord; the cog (``cog.py``: ``/esper start|rules|characters|season``) is loaded by the bot
only. Both parts are played: the deal and the planet stage (D1), then ESP combat and the secret
base (D2).
"""

from __future__ import annotations

from bot.ruleset import Ref, RulesetSpec, SeatSpec
from cogs.esper import rules, twin
from cogs.esper.league import LEAGUE
from cogs.esper.present import PRESENTER
from cogs.esper.rules import EsperOrder, EsperState

RULESET: RulesetSpec[EsperState, EsperOrder] = RulesetSpec(
    key="esper",
    engine=rules,
    presenter=PRESENTER,
    seats=SeatSpec(rules.SEATS, counts=rules.PLAYER_COUNTS, demo=rules.SEATS[:7]),
    extension="cogs.esper.cog",
    demo_player=Ref("cogs.esper.ai"),
    private_view_fields=frozenset({"you"}),
    secret_stream=True,
    withheld=rules.withheld,
    step_seconds=rules.step_seconds,
    adjudicate=rules.adjudicate,
    hidden_twin=twin.hidden_twin,
    post_group=rules.post_group,
    league=LEAGUE,
)
