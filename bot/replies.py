"""Short replies to a player (acknowledgements and refusals) in the reader's language."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.ruleset import ChoiceGroup, RuleError
from bot.table import SubmitResult


def reason(exc: RuleError, lang: str) -> str:
    return t(lang, exc.key, **exc.params)


def order_ack(result: SubmitResult, lang: str) -> str:
    key = "order.replaced" if result.replaced else "order.sealed"
    text = t(
        lang,
        key,
        game=result.game.id,
        turn=result.game.turn,
        order=result.text,
        receipt=result.receipt,
    )
    if result.resolved:
        return text + "\n" + t(lang, "order.resolved")
    return text + "\n" + t(lang, "order.progress", done=result.submitted, total=result.awaited)


def chosen_so_far(groups: list[ChoiceGroup], tokens: list[str], lang: str) -> str:
    labels = []
    for group, token in zip(groups, tokens, strict=False):
        choice = next((c for c in group.choices if c.token == token), None)
        labels.append(t(lang, choice.label_key) if choice else token)
    return " / ".join(labels)


async def refuse(interaction: discord.Interaction[Any], exc: RuleError, lang: str) -> None:
    """Answer an interaction with the localized reason, privately."""
    text = "⚠️ " + reason(exc, lang)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
