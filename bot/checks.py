"""Who may do what, and in which language they read: small helpers every cog shares.

In the spirit of RoboDanny's ``cogs/utils/checks.py``: one place decides what a moderator is, so a
command cannot forget the administrator or a league's own moderator role.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import normalize_lang

if TYPE_CHECKING:
    from bot.storage import GameRow


def reader_lang(interaction: discord.Interaction[Any]) -> str:
    """The catalogue language of the person who used a command or pressed a button."""
    return normalize_lang(str(interaction.locale))


def is_moderator(
    interaction: discord.Interaction[Any], *, roles: Iterable[int | None] = ()
) -> bool:
    """Manage Server, administrator, or one of ``roles`` (a league's moderator role, say)."""
    perms = interaction.permissions
    if perms.manage_guild or perms.administrator:
        return True
    wanted = {r for r in roles if r is not None}
    held = getattr(interaction.user, "roles", ())  # a Member has roles; a DM's User has none
    return bool(wanted) and any(role.id in wanted for role in held)


def can_read(interaction: discord.Interaction[Any], game: GameRow) -> bool:
    """Whether the asker may see ``game`` at all (its status, export, proofs): anyone in the
    game's own server; in a DM, only its players. Elsewhere its id must answer as an unknown one
    would."""
    if interaction.guild_id is not None:
        return interaction.guild_id == game.guild_id
    return game.seat_of(interaction.user.id) is not None
