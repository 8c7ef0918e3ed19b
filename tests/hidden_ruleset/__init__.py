"""Sealed Bids: a small hidden-information ruleset for the tests (key ``bids``).

Two secret teams bid cards from secret hands over three rounds; every play stays withheld and is
revealed one round late (the rules in full: :mod:`.rules`). It exercises every hidden-information
part of the contract (``bot/ruleset.py``): the secret stream (``secret_stream``), private view
fields (``you``), withheld orders and ``inputs_revealed``, private events (``Event(…, to=…)``),
private boards, a step deadline of its own (``step_seconds``), a moderator's ruling
(``adjudicate``), several graded winners, and a resignation that does not end the game.

Laid out like ``tests/example_ruleset`` (``rules.py``, ``present.py``, ``board.py``, ``cog.py``,
``ai.py``, ``locales/``), and found the same way: ``PBP_RULESETS=tests.hidden_ruleset``, or
:func:`bot.registry.register`. Importing it imports no discord: only the extension does.
"""

from __future__ import annotations

from bot.registry import locales_of
from bot.ruleset import Ref, RulesetSpec, SeatSpec

from . import rules
from .present import PRESENTER

RULESET: RulesetSpec[rules.BidsState, rules.Play] = RulesetSpec(
    key="bids",
    engine=rules,
    presenter=PRESENTER,
    seats=SeatSpec(
        rules.SEATS,
        counts=tuple(range(rules.MIN_PLAYERS, len(rules.SEATS) + 1)),
        demo=rules.SEATS[:5],
    ),
    extension=f"{__name__}.cog",
    demo_player=Ref(f"{__name__}.ai"),
    locales=locales_of(__file__),
    private_view_fields=frozenset({"you"}),
    secret_stream=True,
    withheld=rules.withheld,
    step_seconds=rules.step_seconds,
    adjudicate=rules.adjudicate,
    hidden_twin=rules.hidden_twin,
)
