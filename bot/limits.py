"""Discord's size limits, enforced in one place: nothing the bot builds is ever answered 400.

Every message the bot posts goes through here: the outbox (:mod:`bot.outbox`) plans its posts
with :func:`message_parts`, :func:`bot.messages.compose` fits its embeds with :func:`embed`, and
the ephemeral replies (:mod:`bot.replies`) split with :func:`split_content`.

- A message's content over 2,000 characters is **split** into several messages
  (:func:`split_content`): at a line break where there is one, else at a space, else at a
  character boundary that cuts no grapheme (an accent, an emoji sequence) and no ``<@…>`` token.
  No text is lost: the parts are slices of the text in order, and only the whitespace at the split
  points is dropped (Discord trims each message's ends anyway).
- An embed is **clipped** (:func:`embed`): each text to its own limit, 25 fields at most, then the
  whole under 6,000 characters by clipping the longest texts first. A clipped text ends in "…".
  An embed stays one message, so the edits that update it in place keep working.
- Lists of options and choices are cut to 25 (:func:`choices`).

Discord counts characters as Unicode code points (its API is in Python): ``len``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

CONTENT = 2000  # a message's content
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25  # fields of one embed
FIELD_NAME = 256
FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000  # title, description, field names and values, footer and author together
CHOICES = 25  # options of a select menu, choices of a command option or an autocomplete
MENTION_USERS = 100  # user ids in allowed_mentions.users
COMPONENTS = 25  # buttons in one message (five rows of five)
BUTTON_LABEL = 80
SELECT_OPTION = 100  # a select option's label and value
SELECT_PLACEHOLDER = 150
CUSTOM_ID = 100  # a component's custom_id
# A number a component's id carries (a turn, a place in a list) is at most this: no game gets
# near it, and a forged one beyond it (2**63 overflows the database's integers) is no id of ours.
ID_NUMBER = 10**9

ELLIPSIS = "…"
BLANK = "\u200b"  # a field's name and value must not be empty: a zero-width space stands in

# How far back a split or a clip looks for a better place to cut before giving up on it.
_GRAPHEME_LOOKBACK = 32
_TOKEN_LOOKBACK = 100
# <@123>, <@!123>, <@&123>, <#123>, <:name:123>, <a:name:123>, <t:123:R>, </command:123>
_TOKEN_START = re.compile(r"<(?:@[!&]?|#|a?:|t:|/)")
_FENCE = "```"


# --- cutting text -----------------------------------------------------------------------------


def _continues(char: str) -> bool:
    """Whether ``char`` belongs to the grapheme before it (a cut must not come before it)."""
    code = ord(char)
    return (
        unicodedata.combining(char) != 0
        or unicodedata.category(char) in ("Mn", "Me", "Mc")
        or code == 0x200D  # zero-width joiner
        or 0xFE00 <= code <= 0xFE0F  # variation selectors
        or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        or 0xE0020 <= code <= 0xE007F  # tags (flags of regions)
        or 0xE0100 <= code <= 0xE01EF  # variation selectors supplement
    )


def _safe_cut(text: str, start: int, end: int) -> int:
    """A cut at or before ``end`` (and after ``start``) that splits no grapheme and no token."""
    cut = end
    floor = max(start + 1, end - _GRAPHEME_LOOKBACK)
    while cut > floor and cut < len(text) and (_continues(text[cut]) or text[cut - 1] == "\u200d"):
        cut -= 1
    if cut < len(text) and (_continues(text[cut]) or text[cut - 1] == "\u200d"):
        cut = end  # a run of combining marks longer than the lookback: cut it anyway
    # Not inside a mention, a channel link, a custom emoji or a timestamp.
    opening = text.rfind("<", max(start + 1, cut - _TOKEN_LOOKBACK), cut)
    if opening != -1 and text.find(">", opening, cut) == -1 and _TOKEN_START.match(text, opening):
        cut = opening
    return cut


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in "…" when it was cut."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return ELLIPSIS[:limit] if limit > 0 else ""
    cut = _safe_cut(text, 0, limit - len(ELLIPSIS))
    return text[:cut].rstrip() + ELLIPSIS


def log_tail(lines: list[str], limit: int) -> list[str]:
    """A log's lines that fit in ``limit`` characters joined: all of them, or its first line
    (what the log is about), "…" for those left out, and as many of its latest as fit."""
    if len("\n".join(lines)) <= limit or len(lines) < 2:
        return list(lines)
    kept: list[str] = []
    room = limit - len(lines[0]) - len(ELLIPSIS) - 2
    for line in reversed(lines[1:]):
        if line == ELLIPSIS or len(line) + 1 > room:
            break  # an earlier cut, or no room left
        kept.insert(0, line)
        room -= len(line) + 1
    return [lines[0], ELLIPSIS, *kept]


def _fences_balanced(text: str, start: int, end: int) -> bool:
    return text.count(_FENCE, start, end) % 2 == 0


def _break(text: str, start: int, limit: int) -> tuple[int, int]:
    """Where the part starting at ``start`` ends, and where the next one starts."""
    end = start + limit
    half = start + limit // 2
    # A line break outside a code block, then any line break, then a space.
    newline = text.rfind("\n", half, end + 1)
    probe = newline
    while probe != -1 and not _fences_balanced(text, start, probe):
        probe = text.rfind("\n", start + limit // 4, probe)
    if probe > start:
        return probe, probe + 1
    if newline > start:
        return newline, newline + 1
    for index in range(end, half, -1):
        if index < len(text) and text[index].isspace():
            return index, index + 1
    cut = _safe_cut(text, start, end)
    return cut, cut


def split_content(text: str | None, limit: int = CONTENT) -> list[str]:
    """``text`` as messages of at most ``limit`` characters, each with something to show.

    The parts are slices of ``text`` in order; between two of them (and before the first, after
    the last) there is nothing but whitespace. Empty or blank text gives no part at all.
    """
    if not text or text.isspace():
        return []
    parts = []
    start = 0
    while len(text) - start > limit:
        end, following = _break(text, start, limit)
        part = text[start:end]
        if part and not part.isspace():
            parts.append(part)
        start = following
    last = text[start:]
    if last and not last.isspace():
        parts.append(last)
    return parts


# --- embeds -----------------------------------------------------------------------------------


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _required(value: Any, limit: int) -> str:
    """A field's name or value: never blank (Discord requires one), never too long."""
    text = _text(value)
    return clip(text, limit) if text.strip() else BLANK


def embed_length(data: Mapping[str, Any]) -> int:
    """The characters Discord counts against an embed's 6,000."""
    total = len(_text(data.get("title"))) + len(_text(data.get("description")))
    for f in data.get("fields") or []:
        total += len(_text(f.get("name"))) + len(_text(f.get("value")))
    total += len(_text((data.get("footer") or {}).get("text")))
    total += len(_text((data.get("author") or {}).get("name")))
    return total


def _fit_total(slots: list[str], budget: int) -> int:
    """The largest length cap under which the slots together fit the budget."""
    if sum(len(s) for s in slots) <= budget:
        return max((len(s) for s in slots), default=0)
    low, high = 1, max(len(s) for s in slots)
    while low < high:
        middle = (low + high + 1) // 2
        if sum(min(len(s), middle) for s in slots) <= budget:
            low = middle
        else:
            high = middle - 1
    return low


def embed(data: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A copy of the embed (``discord.Embed.to_dict`` shape) within every limit of Discord's.

    Over 25 fields, the first 24 and the last are kept (a message's last field is its live
    progress). Over 6,000 characters in all, the longest texts are clipped first.
    """
    if data is None:
        return None
    out = dict(data)
    title = _text(out.get("title"))
    description = _text(out.get("description"))
    fields = [dict(f) for f in out.get("fields") or []]
    if len(fields) > EMBED_FIELDS:
        fields = [*fields[: EMBED_FIELDS - 1], fields[-1]]
    names = [_required(f.get("name"), FIELD_NAME) for f in fields]
    values = [_required(f.get("value"), FIELD_VALUE) for f in fields]
    footer = dict(out["footer"]) if isinstance(out.get("footer"), Mapping) else None
    author = dict(out["author"]) if isinstance(out.get("author"), Mapping) else None
    footer_text = _text(footer.get("text")) if footer else ""
    author_name = _text(author.get("name")) if author else ""

    slots = [
        clip(title, EMBED_TITLE),
        clip(description, EMBED_DESCRIPTION),
        clip(footer_text, EMBED_FOOTER),
        clip(author_name, EMBED_AUTHOR),
        *names,
        *values,
    ]
    cap = _fit_total(slots, EMBED_TOTAL)
    # A name or a value must keep at least one character; at most 54 slots share 6,000 anyway.
    fitted = [clip(s, cap) if len(s) > cap else s for s in slots]
    title, description, footer_text, author_name = fitted[:4]
    names, values = fitted[4 : 4 + len(fields)], fitted[4 + len(fields) :]

    for key, value in (("title", title), ("description", description)):
        if value.strip():
            out[key] = value
        else:
            out.pop(key, None)
    if fields or "fields" in out:
        out["fields"] = [
            {**f, "name": name or BLANK, "value": value or BLANK}
            for f, name, value in zip(fields, names, values, strict=True)
        ]
    for key, section, text, text_key in (
        ("footer", footer, footer_text, "text"),
        ("author", author, author_name, "name"),
    ):
        if section is None:
            continue
        if text.strip():
            out[key] = {**section, text_key: text}
        else:
            out.pop(key, None)
    return out


# --- messages ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One message to post: its content (``None``: none) and its embed (on the last part)."""

    content: str | None
    embed: dict[str, Any] | None = None


def message_parts(content: str | None, embed_data: Mapping[str, Any] | None = None) -> list[Part]:
    """The messages that carry ``content`` and ``embed_data``: always at least one.

    The content is split (:func:`split_content`); the embed, fitted (:func:`embed`), rides on the
    last part, and so should anything else the message carries (a file, buttons).
    """
    fitted = embed(embed_data)
    texts = split_content(content)
    if not texts:
        return [Part(None, fitted)]
    return [*(Part(text) for text in texts[:-1]), Part(texts[-1], fitted)]


def pack(items: Iterable[str], limit: int, sep: str = "\n") -> list[str]:
    """``items`` joined by ``sep`` into as few chunks of at most ``limit`` characters as fit, in
    order (a long list of mentions over several fields); an item longer than ``limit`` is
    clipped to it."""
    chunks: list[str] = []
    current = ""
    for item in items:
        item = clip(item, limit)
        joined = f"{current}{sep}{item}" if current else item
        if len(joined) <= limit:
            current = joined
        else:
            chunks.append(current)
            current = item
    if current:
        chunks.append(current)
    return chunks


def id_number(text: str | None, most: int = ID_NUMBER) -> int | None:
    """A number read from a component's ``custom_id`` or a menu's value: ASCII digits, at most
    ``most``; None for anything else, which the component answers as out of date."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > len(str(most)):
        return None
    value = int(text)
    return value if value <= most else None


def choices(items: Iterable[T], limit: int = CHOICES) -> list[T]:
    """The first 25 options (a select menu's, a command option's choices, an autocomplete's)."""
    out: list[T] = []
    for item in items:
        if len(out) == limit:
            break
        out.append(item)
    return out


def mention_users(ids: Iterable[int]) -> list[int]:
    """The users a message may ping: each once, 100 at most (Discord refuses more)."""
    return choices(dict.fromkeys(int(i) for i in ids), MENTION_USERS)


def violations(content: str | None, embed_data: Mapping[str, Any] | None = None) -> list[str]:
    """What Discord would refuse in a message ([] when it is within every limit)."""
    found = []
    if content is not None and len(content) > CONTENT:
        found.append(f"content: {len(content)} > {CONTENT}")
    if content is not None and not content.strip() and embed_data is None:
        found.append("content: blank")
    if embed_data is None:
        return found
    checks: list[tuple[str, str, int]] = [
        ("title", _text(embed_data.get("title")), EMBED_TITLE),
        ("description", _text(embed_data.get("description")), EMBED_DESCRIPTION),
        ("footer.text", _text((embed_data.get("footer") or {}).get("text")), EMBED_FOOTER),
        ("author.name", _text((embed_data.get("author") or {}).get("name")), EMBED_AUTHOR),
    ]
    fields: Sequence[Mapping[str, Any]] = embed_data.get("fields") or []
    if len(fields) > EMBED_FIELDS:
        found.append(f"fields: {len(fields)} > {EMBED_FIELDS}")
    for i, f in enumerate(fields):
        name, value = _text(f.get("name")), _text(f.get("value"))
        checks += [
            (f"fields[{i}].name", name, FIELD_NAME),
            (f"fields[{i}].value", value, FIELD_VALUE),
        ]
        if not name.strip():
            found.append(f"fields[{i}].name: blank")
        if not value.strip():
            found.append(f"fields[{i}].value: blank")
    found += [f"{path}: {len(text)} > {limit}" for path, text, limit in checks if len(text) > limit]
    total = embed_length(embed_data)
    if total > EMBED_TOTAL:
        found.append(f"embed: {total} > {EMBED_TOTAL}")
    return found
