"""discord.py's app-command Translator backed by our catalogues (localized names/descriptions)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import catalogue

_LOCALES = {discord.Locale.japanese: "ja"}


class CatalogueTranslator(app_commands.Translator):
    """Strings declared as ``locale_str("english", key="cmd.…")`` are looked up by key."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = _LOCALES.get(locale)
        key = string.extras.get("key")
        if lang is None or key is None:
            return None
        return catalogue(lang).get(key)


def ls(text: str, key: str) -> app_commands.locale_str:
    """A translatable command string: English default plus its catalogue key."""
    return app_commands.locale_str(text, key=key)


F = TypeVar("F", bound=Callable[..., Any])


def localized_params(func: F) -> F:
    """Give every option of a slash command a translatable name (``cmd.param.<name>``).

    discord.py translates an option's name only when it was renamed with a ``locale_str``; this
    does that for each parameter after ``interaction``, keeping the English name as it is. Put it
    directly above the ``def`` (below ``@….command`` and ``@describe``).
    """
    names = list(inspect.signature(func).parameters)
    start = names.index("interaction") + 1
    renames = {name: ls(name, f"cmd.param.{name}") for name in names[start:]}
    return app_commands.rename(**renames)(func) if renames else func
