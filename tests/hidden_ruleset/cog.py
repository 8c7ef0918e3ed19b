"""The Discord side of Sealed Bids: ``/bids challenge`` (a table of 3 to 11) and ``/bids rules``.

Orders, the withheld receipts, the DMs (private events, the round-1 board), deadlines, ``/game …``
and the record belong to the shared table. The challenge names up to ten opponents
(:class:`bot.cogbase.RulesetCog` makes an option for each from the seats): the lobby is open for
all of them, and the game starts when every one has pressed Accept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogbase import ChallengeCommand, RulesetCog
from bot.i18n.translator import ls

from . import RULESET

if TYPE_CHECKING:
    from bot.client import RefereeBot

MORE = ls("Another opponent (optional)", "cmd.bids.opt.more")


class BidsCog(
    RulesetCog,
    spec=RULESET,
    about="Sealed Bids: secret teams, secret cards",
    rules_about="How to play and how to send your card",
    guild_only=True,
):
    # Opponents 1 to 10 (the seats' most but the challenger), at least two (bids.challenge.too_few).
    challenge = ChallengeCommand(
        "Challenge 2 to 10 players to Sealed Bids in this channel",
        describe={
            "opponent1": ls("An opponent", "cmd.bids.opt.opponent1"),
            "opponent2": ls("Another opponent (3 players at least)", "cmd.bids.opt.opponent2"),
            **{f"opponent{n}": MORE for n in range(3, len(RULESET.seats.names))},
        },
    )


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(BidsCog(bot))
