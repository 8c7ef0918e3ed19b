"""Short replies to a player (acknowledgements and refusals) in the reader's language."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.ruleset import ChoiceGroup, RuleError
from bot.table import SubmitResult

# Discord refuses messages over 2,000 characters; an echoed parameter (a word the player typed)
# is cut well before that so a huge input still gets its reason back.
ECHO_LIMIT = 80
MESSAGE_LIMIT = 2000


def _clip(value: object) -> object:
    if isinstance(value, str) and len(value) > ECHO_LIMIT:
        return value[: ECHO_LIMIT - 1] + "…"
    return value


def clip_message(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def reason(exc: RuleError, lang: str) -> str:
    return t(lang, exc.key, **{k: _clip(v) for k, v in exc.params.items()})


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
    if result.complete:
        return text + "\n" + t(lang, "order.resolved")
    if result.submitted == result.awaited and result.game.status == "paused":
        # Every order is in, yet nothing resolves until a moderator resumes: say so, or the
        # last player waits for a result that is not coming.
        done = t(lang, "order.paused", done=result.submitted, total=result.awaited)
        return text + "\n" + done
    return text + "\n" + t(lang, "order.progress", done=result.submitted, total=result.awaited)


def chosen_so_far(groups: list[ChoiceGroup], tokens: list[str], lang: str) -> str:
    labels = []
    for group, token in zip(groups, tokens, strict=False):
        choice = next((c for c in group.choices if c.token == token), None)
        labels.append(t(lang, choice.label_key) if choice else token)
    return " / ".join(labels)


async def send_private(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, as the first response or as a follow-up."""
    text = clip_message(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def refuse(interaction: discord.Interaction[Any], exc: RuleError, lang: str) -> None:
    """Answer an interaction with the localized reason, privately."""
    await send_private(interaction, "⚠️ " + reason(exc, lang))
