"""A server's deadline defaults (``/config deadlines``, issue 35): what a game or a league takes
for a time option its command leaves out.

Two presets. ``play_by_post`` (where nothing was set: 24 hours a step) gives every step, Esper's
objections and combat reactions included, the server's hours: players answer when they wake, so
a declaration made while the others sleep does not win by their silence. ``live`` keeps each
ruleset's real-time values of the seeds (10 minutes a step in tactics, Apeiron and Esper, Esper's
3 minutes for objections and reactions, the dungeon's 30, Arena's 24 hours) for a table that
plays at one sitting. An option the command is given always wins over either.

No discord here: the cogs read the setting with :func:`of_guild` and word it with :func:`note`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import t

if TYPE_CHECKING:
    from bot.storage.base import Repository

PLAY_BY_POST = "play_by_post"
LIVE = "live"
PRESETS = (PLAY_BY_POST, LIVE)
DEFAULT_STEP_HOURS = 24
# The longest step a server may choose: a week, the rulesets' own bound on a step's minutes.
MAX_STEP_HOURS = 168


@dataclass(frozen=True)
class ServerDeadlines:
    """A server's preset and, for play-by-post, its minutes a step."""

    preset: str = PLAY_BY_POST
    step_minutes: int = DEFAULT_STEP_HOURS * 60
    chosen: bool = False  # False: the server never set it (the defaults above)

    @property
    def live(self) -> bool:
        return self.preset == LIVE

    def step(self, live_minutes: int) -> int:
        """Minutes a step for a ruleset whose real-time value is ``live_minutes``."""
        return live_minutes if self.live else self.step_minutes

    def answer(self, live_minutes: int, step_minutes: int) -> int:
        """Minutes for a short answer (Esper's objections and reactions): the seeds' real-time
        value live; a step's length (the game's own) play-by-post."""
        return live_minutes if self.live else step_minutes


async def of_guild(repo: Repository, guild_id: int | None) -> ServerDeadlines:
    """The server's setting (a DM or an unset server: play-by-post at 24 hours)."""
    if guild_id is None:
        return ServerDeadlines()
    async with repo.read() as tx:
        found = await tx.guild_deadlines(guild_id)
    if found is None:
        return ServerDeadlines()
    preset, minutes = found
    return ServerDeadlines(preset if preset in PRESETS else PLAY_BY_POST, minutes, chosen=True)


async def set_guild(
    repo: Repository, guild_id: int, preset: str, step_minutes: int, now: float
) -> None:
    async with repo.transaction() as tx:
        await tx.set_guild_deadlines(guild_id, preset, step_minutes, now)


def duration(lang: str, minutes: int) -> str:
    """``24 hours``, ``90 minutes``, ``10 minutes`` (``24時間``, ``90分``)."""
    if minutes and minutes % 60 == 0:
        return t(lang, "deadlines.hours", n=minutes // 60)
    return t(lang, "deadlines.minutes", n=minutes)


def note(
    lang: str,
    minutes: int | None,
    *,
    defaulted: bool,
    objection: int | None = None,
    reaction: int | None = None,
) -> str:
    """The lobby's line on time: a step's length (None or 0: no deadline), Esper's objections'
    and reactions', and whether it is the server's default (``/config deadlines``) or the
    challenger's choice."""
    if not minutes:
        return t(lang, "deadlines.lobby.none")
    text = t(lang, "deadlines.lobby.step", time=duration(lang, minutes))
    if objection is not None:
        text += t(lang, "deadlines.lobby.objection", time=duration(lang, objection))
    if reaction is not None:
        text += t(lang, "deadlines.lobby.reaction", time=duration(lang, reaction))
    if defaulted:
        text += t(lang, "deadlines.lobby.server")
    return text
