"""Rock-paper-scissors, best of three: the complete minimal ruleset, to copy when adding a game
(README, "Adding a ruleset"). It lives in ``tests/`` to show that a game needs no edit of the
framework: ``PBP_RULESETS=tests.example_ruleset`` finds it. Importing it imports no discord."""

from __future__ import annotations

from bot.registry import locales_of
from bot.ruleset import Ref, RulesetSpec, SeatSpec

from .present import PRESENTER
from .rules import RPS, SEATS, RpsState, Throw

RULESET: RulesetSpec[RpsState, Throw] = RulesetSpec(  # mypy holds RPS to the Engine protocol
    key="rps",  # the catalogue prefix, the record's "ruleset" and the demo's name
    engine=RPS,
    presenter=PRESENTER,
    seats=SeatSpec(SEATS),
    extension=f"{__name__}.cog",  # the module with ``setup``, loaded by the bot alone
    demo_player=Ref(f"{__name__}.ai"),
    locales=locales_of(__file__),  # outside cogs/, the catalogues must be named
)
