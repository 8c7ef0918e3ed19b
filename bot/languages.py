"""Which language the table speaks, and remembering it.

A channel post is in its server's language (chosen with ``/game language``; the bot's default
where none was chosen, and in DMs); a player's DMs are in their Discord locale, which every
interaction carries and :meth:`Languages.remember_locale` keeps, or else in the server's
language. The lookups run inside the caller's transaction; the preferences are written in
transactions of their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import normalize_lang

if TYPE_CHECKING:
    from bot.storage.base import Repository, Transaction


class Languages:
    """The servers' chosen languages and the players' locales, over ``default``."""

    def __init__(self, repo: Repository, default: str) -> None:
        self.repo = repo
        self.default = default

    async def of_guild(self, tx: Transaction, guild_id: int | None) -> str:
        """The language of a server's channel posts (a DM's: the default)."""
        if guild_id is None:
            return self.default
        return await tx.guild_language(guild_id) or self.default

    async def of_user(self, tx: Transaction, user_id: int, guild_lang: str) -> str:
        """The language of a player's DMs: their locale, else ``guild_lang`` (their game's)."""
        return normalize_lang(await tx.user_locale(user_id) or guild_lang)

    async def language(self, guild_id: int | None) -> str:
        async with self.repo.read() as tx:
            return await self.of_guild(tx, guild_id)

    async def remember_locale(self, user_id: int, locale: str | None) -> None:
        if not locale:
            return
        # Read beside the writer; write only when it changed (it rarely does).
        async with self.repo.read() as tx:
            known = await tx.user_locale(user_id)
        if known != str(locale):
            async with self.repo.transaction() as tx:
                await tx.set_user_locale(user_id, str(locale))

    async def set_language(self, guild_id: int, language: str) -> None:
        async with self.repo.transaction() as tx:
            await tx.set_guild_language(guild_id, normalize_lang(language))
