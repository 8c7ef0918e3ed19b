"""Short replies to a player (acknowledgements and refusals) in the reader's language."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot import limits, registry
from bot.i18n import t
from bot.ruleset import ChoiceGroup, RuleError
from bot.table import SubmitResult

# An echoed parameter (a word the player typed) is cut short so a huge input still gets its reason
# back, readably. Discord's own limits are bot.limits' business: a long reply is split.
ECHO_LIMIT = 80
log = logging.getLogger(__name__)


class _Keep:
    """Leave that part of an edited message as it is."""


KEEP = _Keep()


def _clip(value: object) -> object:
    if isinstance(value, str) and len(value) > ECHO_LIMIT:
        return value[: ECHO_LIMIT - 1] + "…"
    return value


def reason(exc: RuleError, lang: str) -> str:
    return t(lang, exc.key, **{k: _clip(v) for k, v in exc.params.items()})


def order_ack(result: SubmitResult, lang: str) -> str:
    key = "order.replaced" if result.replaced else "order.sealed"
    text = t(
        lang,
        key,
        game=result.game.id,
        turn=result.game.step,
        order=registry.get(result.game.ruleset).presenter.order_text(result.text, lang),
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
        labels.append(choice.label(lang) if choice else token)
    return " / ".join(labels)


async def send_private(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, as the first response or as a follow-up (several when it is long)."""
    await respond(interaction, text, ephemeral=True)


async def respond(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    ephemeral: bool = False,
    view: discord.ui.View | None = None,
    files: Sequence[discord.File] = (),
    allowed_mentions: discord.AllowedMentions | None = None,
) -> None:
    """Answer an interaction within Discord's limits (:func:`bot.limits.message_parts`): every
    interaction answer the bot makes goes through here or :func:`edit`.

    A content over 2,000 characters goes out as several messages (the first as the response,
    the others as follow-ups), the embed, fitted, the files and the view on the last. Mentions
    ping no one unless ``allowed_mentions`` names them.
    """
    parts = limits.message_parts(content, embed.to_dict() if embed is not None else None)
    mentions = allowed_mentions or discord.AllowedMentions.none()
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        fitted = discord.Embed.from_dict(part.embed) if part.embed is not None else None
        items = view if last else None
        attached = list(files) if last else []
        text = part.content
        if text is None and fitted is None and items is None and not attached:
            text = limits.ELLIPSIS  # Discord refuses an empty message
        extra: dict[str, Any] = {}
        if fitted is not None:
            extra["embed"] = fitted
        if items is not None:
            extra["view"] = items
        if attached:
            extra["files"] = attached
        if not interaction.response.is_done():
            await interaction.response.send_message(
                text, ephemeral=ephemeral, allowed_mentions=mentions, **extra
            )
        else:
            await interaction.followup.send(
                text or discord.utils.MISSING,
                ephemeral=ephemeral,
                allowed_mentions=mentions,
                **extra,
            )


async def edit(
    interaction: discord.Interaction[Any],
    content: str | _Keep | None = KEEP,
    *,
    embed: discord.Embed | _Keep | None = KEEP,
    view: discord.ui.View | _Keep | None = KEEP,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> None:
    """Answer a component click by editing its message, within Discord's limits.

    An edited message stays one message: its content is clipped (:func:`bot.limits.clip`), its
    embed fitted. A part given as ``None`` is removed (``view=None``: no more buttons); a part
    left out is kept.
    """
    extra: dict[str, Any] = {}
    if not isinstance(content, _Keep):
        extra["content"] = limits.clip(content, limits.CONTENT) if content is not None else None
    if isinstance(embed, discord.Embed):
        extra["embed"] = discord.Embed.from_dict(limits.embed(embed.to_dict()) or {})
    elif embed is None:
        extra["embed"] = None
    if not isinstance(view, _Keep):
        extra["view"] = view
    await interaction.response.edit_message(
        allowed_mentions=allowed_mentions or discord.AllowedMentions.none(), **extra
    )


async def answer_dm(message: discord.Message, text: str) -> None:
    """Answer a player's DM (as a reply, several when it is long). The order (if any) is already
    stored, so a failed answer loses nothing: the player can see it with ``/game orders``, and the
    channel's progress goes via the outbox."""
    try:
        for part in limits.split_content(text):
            await message.reply(
                part, mention_author=False, allowed_mentions=discord.AllowedMentions.none()
            )
    except discord.HTTPException as exc:
        log.warning("could not answer DM %s of user %s: %s", message.id, message.author.id, exc)


async def refuse(interaction: discord.Interaction[Any], exc: RuleError, lang: str) -> None:
    """Answer an interaction with the localized reason, privately."""
    await send_private(interaction, "⚠️ " + reason(exc, lang))
