"""Rock-paper-scissors, best of three: the complete minimal ruleset, to copy when adding a game.

A ruleset is one folder whose ``__init__`` exports ``RULESET``, a :class:`bot.ruleset.RulesetSpec`:

- ``rules.py``   the pure engine (the module is the :class:`bot.ruleset.Engine`);
- ``present.py`` the :class:`bot.ruleset.Presenter` subclass (sentences, score, board);
- ``board.py``   the board renderer (Pillow);
- ``cog.py``     the Discord commands (``/rps challenge``, ``/rps rules``): the spec's extension;
- ``ai.py``      the demo player (``python -m bot demo rps``);
- ``locales/``   every sentence in English and Japanese.

It lives in ``tests/`` to prove that a game needs no edit of the framework: the tests find it
through ``PBP_RULESETS=tests.example_ruleset``. The folder imports its own modules relatively and
names them from ``__name__``, so it works unchanged wherever it is put (``cogs/rps/``, or a
package of its own). Importing it imports no discord: only the extension does.
"""

from __future__ import annotations

from bot.registry import locales_of
from bot.ruleset import Ref, RulesetSpec, SeatSpec

from . import rules
from .present import PRESENTER

# The annotation makes mypy hold the ``rules`` module to ``Engine[RpsState, Throw]``.
RULESET: RulesetSpec[rules.RpsState, rules.Throw] = RulesetSpec(
    key="rps",  # the catalogue prefix, the record's "ruleset" and the demo's name
    engine=rules,
    presenter=PRESENTER,
    seats=SeatSpec(rules.SEATS),
    extension=f"{__name__}.cog",  # loaded lazily by the bot: the module with ``setup``
    demo_player=Ref(f"{__name__}.ai"),
    locales=locales_of(__file__),  # outside cogs/, the catalogues must be named
)
