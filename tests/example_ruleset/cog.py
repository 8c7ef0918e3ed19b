"""``/rps challenge`` and ``/rps rules``, made by :class:`bot.cogbase.RulesetCog` from the spec
(descriptions in English; Japanese ones in the catalogue, ``cmd.rps…``): the spec's extension."""

from __future__ import annotations

from bot.client import RefereeBot
from bot.cogbase import ChallengeCommand, RulesetCog

from . import RULESET

ABOUT, RULES = "Rock-paper-scissors, best of three", "How to play and how to send your throw"


class RpsCog(RulesetCog, spec=RULESET, about=ABOUT, rules_about=RULES, guild_only=True):
    challenge = ChallengeCommand("Challenge a player to rock-paper-scissors in this channel")


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(RpsCog(bot))
