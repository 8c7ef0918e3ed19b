"""The Discord side of rock-paper-scissors: ``/rps challenge`` and ``/rps rules``, nothing more
(:class:`bot.cogbase.RulesetCog` makes both from the spec).

Orders (DM text, buttons, ``/order``), the board post, deadlines, ``/game …`` and the match record
all belong to the shared table, which drives the pure engine in ``rules.py``. This module is the
spec's ``extension``: the bot loads it with ``load_extension`` and calls :func:`setup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogbase import ChallengeCommand, RulesetCog

from . import RULESET

if TYPE_CHECKING:
    from bot.client import RefereeBot


# /rps rules shows the presenter's how_to_play; /rps challenge takes an opponent and the time per
# turn in hours, and opens the shared lobby (the presenter's challenge_text, Accept/Decline). Each
# description is English; Discord shows Japanese clients the catalogue's, under cmd.rps.desc,
# cmd.rps.rules.desc and cmd.rps.challenge.desc.
class RpsCog(
    RulesetCog,
    spec=RULESET,
    about="Rock-paper-scissors, best of three",
    rules_about="How to play and how to send your throw",
    guild_only=True,
):
    challenge = ChallengeCommand("Challenge a player to rock-paper-scissors in this channel")


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(RpsCog(bot))
