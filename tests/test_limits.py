"""bot.limits: whatever text it is given, nothing it produces is over one of Discord's limits, and
splitting a long content loses none of it.

Two oracles: ``limits.violations`` and SimCord's own validation of a message (an independent
reading of Discord's documented limits: it is what answers 400 in the SimCord tests).
"""

from __future__ import annotations

import io
import re
import unicodedata
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from simcord.components import ComponentValidationError, validate_message_state

from bot import limits, messages

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)

# Any unicode but lone surrogates (a Python str can hold them; no JSON a bot sends can).
UNICODE = st.characters(blacklist_categories=("Cs",))
HOSTILE_PIECES = st.sampled_from(
    [
        "@everyone",
        "@here",
        "<@&123456789012345678>",
        "<@123456789012345678>",
        "<@!123456789012345678>",
        "<#123456789012345678>",
        "<a:dance:123456789012345678>",
        "<t:1700000000:R>",
        "**bold**",
        "__under__",
        "~~strike~~",
        "||spoiler||",
        "> quote\n",
        "```py\ncode = 1\n```",
        "```",
        "`",
        "# heading\n",
        "[link](https://example.com)",
        "https://example.com/" + "a" * 80,
        "e\u0301",  # e + combining acute
        "Z\u0335\u0321\u0322\u0327\u0328\u0334\u0336",  # zalgo
        "👩\u200d👩\u200d👧\u200d👦",  # family: a ZWJ sequence
        "👍🏽",  # skin tone
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # a flag of tags
        "🇯🇵",
        "❤\ufe0f",
        "\u202e",  # right-to-left override
        "\u200b",
        "日本語のテキスト",
        "\n",
        "\n\n\n",
        " ",
        "\t",
        "\r\n",
    ]
)


@st.composite
def hostile_text(draw: st.DrawFn) -> str:
    """Long and hostile: huge runs, many lines, marks, emoji, markdown, mentions."""
    pieces = draw(
        st.lists(
            st.one_of(
                HOSTILE_PIECES,
                st.text(UNICODE, max_size=60),
                st.tuples(st.text(UNICODE, min_size=1, max_size=4), st.integers(1, 3000)).map(
                    lambda pair: pair[0] * pair[1]
                ),
                st.tuples(HOSTILE_PIECES, st.integers(1, 400)).map(lambda p: p[0] * p[1]),
            ),
            max_size=30,
        )
    )
    return "".join(pieces)


def assert_message_ok(content: str | None, embed: dict[str, Any] | None) -> None:
    assert limits.violations(content, embed) == []
    try:
        validate_message_state(
            [],
            flags=0,
            content=content,
            embeds=[embed] if embed is not None else [],
            require_nonempty=True,
        )
    except ComponentValidationError as exc:  # pragma: no cover - the failure message
        pytest.fail(f"SimCord refuses it: {exc}")


def assert_no_text_lost(text: str, parts: list[str]) -> None:
    """The parts are the text, in order, with only whitespace between and around them."""
    position = 0
    for part in parts:
        found = text.find(part, position)
        assert found != -1, "a part that is not a slice of the text, in order"
        assert text[position:found].strip() == "", "text lost between two parts"
        position = found + len(part)
    assert text[position:].strip() == "", "text lost after the last part"


# --- content ------------------------------------------------------------------------------------


@SETTINGS
@given(hostile_text())
@example("x" * 2000)
@example("x" * 2001)
@example("y " * 5000)
@example("\n" * 5000)
@example("a" + "\u0301" * 5000)
@example("x" * 1995 + "<@123456789012345678> and more")
@example("```\n" + "code line\n" * 400 + "```\nafter")
def test_split_content_is_within_the_limit_and_loses_nothing(text: str) -> None:
    parts = limits.split_content(text)
    for part in parts:
        assert 0 < len(part) <= limits.CONTENT
        assert part.strip(), "a blank message (Discord refuses it)"
        assert_message_ok(part, None)
    assert_no_text_lost(text, parts)
    if text.strip() and len(text) <= limits.CONTENT:
        assert parts == [text], "a short text is one message, as it is"
    if not text.strip():
        assert parts == []


# A whole Discord token: <@123>, <@!123>, <@&123>, <#123>, <:name:123>, <a:name:123>, <t:123:R>,
# </command:123>.
_TOKEN = re.compile(r"<(?:@[!&]?\d+|#\d+|a?:\w+:\d+|t:-?\d+(?::[tTdDfFR])?|/[^<>]+:\d+)>")


def _continues(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me", "Mc") or char in "\u200d\ufe0f"


@SETTINGS
@given(hostile_text())
@example("a" + "e\u0301" * 3000)
@example("👩\u200d👩\u200d👧\u200d👦" * 500)
@example("x" * 1995 + "<@123456789012345678> and more")
@example("00<#" * 501)
@example("00<#1>" * 400)
def test_a_split_cuts_no_grapheme_and_no_mention_when_it_has_a_choice(text: str) -> None:
    parts = limits.split_content(text)
    position = 0
    for part in parts[:-1]:
        position = text.find(part, position) + len(part)
        following = text[position]
        # A hard cut (no space to split at): not before a combining mark, a joiner or a variation
        # selector, nor after a joiner, unless a run of them is longer than any real grapheme.
        if _continues(following) or part[-1] == "\u200d":
            assert all(_continues(c) or c == "\u200d" for c in part[-31:]), part[-40:]
        # A mention is cut in two only where a whole token spans the cut: an unclosed "<#" is no
        # mention, and a token longer than the look-back may be cut.
        for token in _TOKEN.finditer(text, max(0, position - 100), position + 100):
            assert (
                not (token.start() < position < token.end()) or token.end() - token.start() > 100
            ), "a mention cut in two"


def test_a_long_text_is_split_at_line_breaks() -> None:
    lines = [f"{i:04d} " + "word " * 30 for i in range(200)]
    text = "\n".join(lines)
    parts = limits.split_content(text)
    assert len(parts) > 1
    assert "\n".join(parts) == text  # every split point was a line break
    assert all(len(p) <= limits.CONTENT for p in parts)


def test_a_code_block_is_not_split_when_a_line_break_outside_it_will_do() -> None:
    prose = "\n".join(["prose " * 10] * 15)
    code = "```\n" + "\n".join(["x = 1"] * 120) + "\n```"
    parts = limits.split_content(prose + "\n" + code + "\n" + prose)
    assert all(p.count("```") % 2 == 0 for p in parts)


# --- clipping -----------------------------------------------------------------------------------


@SETTINGS
@given(hostile_text(), st.integers(1, 5000))
def test_clip_is_within_its_limit_and_keeps_short_text(text: str, limit: int) -> None:
    clipped = limits.clip(text, limit)
    assert len(clipped) <= limit
    if len(text) <= limit:
        assert clipped == text
    else:
        assert clipped.endswith(limits.ELLIPSIS)
        assert text.startswith(clipped[: -len(limits.ELLIPSIS)].rstrip())


# --- embeds -------------------------------------------------------------------------------------

maybe_text = st.one_of(st.none(), hostile_text())


@st.composite
def hostile_embed(draw: st.DrawFn) -> dict[str, Any]:
    embed: dict[str, Any] = {"color": 0xC8A24A, "image": {"url": "attachment://board.png"}}
    for key in ("title", "description"):
        value = draw(maybe_text)
        if value is not None:
            embed[key] = value
    fields = draw(
        st.lists(
            st.fixed_dictionaries(
                {"name": maybe_text, "value": maybe_text, "inline": st.booleans()}
            ),
            max_size=40,
        )
    )
    if fields or draw(st.booleans()):
        embed["fields"] = fields
    footer = draw(maybe_text)
    if footer is not None:
        embed["footer"] = {"text": footer}
    author = draw(maybe_text)
    if author is not None:
        embed["author"] = {"name": author}
    return embed


@SETTINGS
@given(hostile_embed())
@example(
    {
        "title": "t" * 300,
        "description": "d" * 5000,
        "fields": [{"name": "n" * 300, "value": "v" * 2000} for _ in range(40)],
        "footer": {"text": "f" * 3000},
        "author": {"name": "a" * 300},
    }
)
@example({"fields": [{"name": "", "value": "   "}]})
def test_a_fitted_embed_is_within_every_limit(embed: dict[str, Any]) -> None:
    fitted = limits.embed(embed)
    assert fitted is not None
    assert len(fitted.get("title") or "") <= limits.EMBED_TITLE
    assert len(fitted.get("description") or "") <= limits.EMBED_DESCRIPTION
    assert len(fitted.get("fields") or []) <= limits.EMBED_FIELDS
    for f in fitted.get("fields") or []:
        assert 0 < len(f["name"]) <= limits.FIELD_NAME and f["name"].strip()
        assert 0 < len(f["value"]) <= limits.FIELD_VALUE and f["value"].strip()
    assert len((fitted.get("footer") or {}).get("text") or "") <= limits.EMBED_FOOTER
    assert len((fitted.get("author") or {}).get("name") or "") <= limits.EMBED_AUTHOR
    assert limits.embed_length(fitted) <= limits.EMBED_TOTAL
    assert_message_ok("x", fitted)
    # discord.py builds the same thing from it.
    assert limits.violations(None, discord.Embed.from_dict(fitted).to_dict()) == []
    # An embed already within the limits is left as it is.
    assert limits.embed(fitted) == fitted


def test_an_embed_within_the_limits_is_untouched() -> None:
    embed = {
        "title": "Arena Duel · g-0001 · Turn 2",
        "description": "A ordered: Forward.\nB ordered: Stay.",
        "fields": [{"name": "Orders in: 1/2", "value": "✅ A · ⌛ B", "inline": False}],
        "footer": {"text": "game g-0001"},
    }
    assert limits.embed(embed) == embed


def test_over_25_fields_keep_the_last_one() -> None:
    fields = [{"name": f"f{i}", "value": str(i)} for i in range(30)]
    fitted = limits.embed({"fields": fields})
    assert fitted is not None
    assert [f["name"] for f in fitted["fields"]] == [*(f"f{i}" for i in range(24)), "f29"]


# --- whole messages -----------------------------------------------------------------------------


@SETTINGS
@given(maybe_text, st.one_of(st.none(), hostile_embed()))
def test_every_part_of_a_message_is_within_every_limit(
    content: str | None, embed: dict[str, Any] | None
) -> None:
    parts = limits.message_parts(content, embed)
    assert parts
    assert all(p.embed is None for p in parts[:-1]), "the embed rides on the last part"
    for part in parts:
        if part.content is not None or part.embed is not None:
            assert_message_ok(part.content, part.embed)
    texts = [p.content for p in parts if p.content is not None]
    assert_no_text_lost(content or "", texts)


@SETTINGS
@given(hostile_text(), st.lists(hostile_text(), max_size=30), hostile_text())
def test_composed_turn_embeds_are_within_every_limit(
    description: str, values: list[str], receipt: str
) -> None:
    payload = {
        "lang": "en",
        "content": description,
        "embed": {
            "title": description[:300],
            "description": description,
            "fields": [{"name": v[:300], "value": v} for v in values],
            "footer": {"text": description},
        },
        "progress": {"in": ["A"], "awaited": ["A", "B"], "receipts": {"A": receipt}},
    }
    composed = messages.compose(payload)
    for part in limits.message_parts(composed["content"], composed["embed"]):
        assert_message_ok(part.content, part.embed)


@SETTINGS
@given(
    st.lists(
        st.text(st.characters(blacklist_categories=("Zs", "Cc", "Cs")), min_size=1), max_size=300
    ),
    st.integers(50, 1024),
)
def test_pack_keeps_items_whole_and_in_order(items: list[str], limit: int) -> None:
    chunks = limits.pack(items, limit, " ")
    assert all(len(c) <= limit for c in chunks)
    if all(len(i) <= limit for i in items):
        assert " ".join(chunks).split(" ") == items or not items


def test_choices_and_mentions_are_capped() -> None:
    assert limits.choices(range(100)) == list(range(25))
    assert limits.choices(iter(range(3))) == [0, 1, 2]
    assert limits.mention_users([5, 5, *range(200)]) == [5, *(i for i in range(100) if i != 5)]


# --- ephemeral replies --------------------------------------------------------------------------


class _Response:
    def __init__(self, sent: list[tuple[str, Any, dict[str, Any]]]) -> None:
        self.sent = sent
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: Any = None, **kwargs: Any) -> None:
        assert not self.done
        self.done = True
        self.sent.append(("response", content, kwargs))

    async def edit_message(self, **kwargs: Any) -> None:
        assert not self.done
        self.done = True
        self.sent.append(("edit", kwargs.get("content"), kwargs))


class _Followup:
    def __init__(self, sent: list[tuple[str, Any, dict[str, Any]]]) -> None:
        self.sent = sent

    async def send(self, content: Any = discord.utils.MISSING, **kwargs: Any) -> None:
        self.sent.append(("followup", content, kwargs))


class _Interaction:
    def __init__(self) -> None:
        self.sent: list[tuple[str, Any, dict[str, Any]]] = []
        self.response = _Response(self.sent)
        self.followup = _Followup(self.sent)


async def test_a_long_private_reply_is_split_into_a_response_and_follow_ups() -> None:
    from bot import replies

    text = "@everyone " + "\n".join(f"line {i}: " + "word " * 20 for i in range(100))
    interaction = _Interaction()
    await replies.send_private(interaction, text)  # type: ignore[arg-type]
    assert [where for where, _, _ in interaction.sent] == ["response"] + ["followup"] * (
        len(interaction.sent) - 1
    )
    contents = [content for _, content, _ in interaction.sent]
    assert len(contents) > 1 and all(len(c) <= limits.CONTENT for c in contents)
    assert "\n".join(contents) == text
    for _, _, kwargs in interaction.sent:
        assert kwargs["ephemeral"] is True
        assert kwargs["allowed_mentions"].to_dict() == {"parse": []}


async def test_a_reply_carries_its_fitted_embed_and_its_view_on_the_last_part() -> None:
    from bot import replies

    interaction = _Interaction()
    interaction.response.done = True  # a follow-up
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    view = discord.ui.View()
    board = discord.File(io.BytesIO(b"png"), filename="board.png")
    await replies.respond(interaction, "x " * 1500, embed=embed, view=view, files=[board])  # type: ignore[arg-type]
    assert len(interaction.sent) == 2
    first, last = (kwargs for _, _, kwargs in interaction.sent)
    assert "embed" not in first and "view" not in first and "files" not in first
    assert last["view"] is view and last["files"] == [board]
    assert limits.violations(interaction.sent[-1][1], last["embed"].to_dict()) == []


async def test_an_edit_is_clipped_and_fitted_and_keeps_what_it_is_not_given() -> None:
    from bot import replies

    interaction = _Interaction()
    await replies.edit(interaction, "@here " + "y" * 3000, embed=discord.Embed(title="t" * 300))  # type: ignore[arg-type]
    [(_, content, kwargs)] = interaction.sent
    assert len(content) == limits.CONTENT and content.endswith(limits.ELLIPSIS)
    assert "view" not in kwargs  # left out: the buttons stay
    assert limits.violations(content, kwargs["embed"].to_dict()) == []
    assert kwargs["allowed_mentions"].to_dict() == {"parse": []}

    interaction = _Interaction()
    await replies.edit(interaction, view=None)  # type: ignore[arg-type]
    [(_, _, kwargs)] = interaction.sent
    assert kwargs["view"] is None and "content" not in kwargs and "embed" not in kwargs


@given(
    first=st.text(max_size=40),
    rounds=st.lists(
        st.lists(st.text(min_size=1, max_size=120).filter(lambda s: s != "…"), max_size=12),
        max_size=8,
    ),
    limit=st.integers(min_value=60, max_value=600),
)
def test_a_log_keeps_its_first_line_and_its_latest_within_the_limit(
    first: str, rounds: list[list[str]], limit: int
) -> None:
    """A post a run of steps edits: each step adds its lines to what the post kept."""
    log = [first]
    for added in rounds:
        log = limits.log_tail([*log, *added], limit)
        assert log[0] == first
        assert log.count(limits.ELLIPSIS) <= 1 or first == limits.ELLIPSIS
        if limits.ELLIPSIS in log[1:2]:
            assert len("\n".join(log)) <= limit
        latest = added[-1] if added else None
        if latest is not None and len(first) + len(latest) + 4 <= limit:
            assert log[-1] == latest, "the latest line is always shown"
