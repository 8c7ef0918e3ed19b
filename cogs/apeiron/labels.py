"""The words of Apeiron's orders in the reader's language, and the names its buttons carry.

Pure (i18n and the grammar's word lists): the presenter words events with it and the engine's
:func:`cogs.apeiron.rules.choices` names each button's unit, ability and target with it, in
both languages (a :class:`bot.ruleset.Choice` parameter given per language).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from bot.ordertext import japanese_spellings, reword
from cogs.apeiron import orders as grammar

LANGS = ("en", "ja")

# The grammar's words (cogs/apeiron/orders.py) by their first Japanese spelling; facings as the
# canonical text writes them (``S``), directions and panel kinds.
JA_WORDS = {
    **japanese_spellings(grammar.KEYWORDS, grammar.DIRECTION_WORDS, grammar.KIND_WORDS),
    **{facing: word for word, facing in grammar.FACING_WORDS.items() if not word.isascii()},
    grammar.KEEP_WORDS[0]: grammar.KEEP_WORDS[1],
    grammar.NO_ACTION_WORDS[0]: grammar.NO_ACTION_WORDS[1],
}
# A drawn item's fate, a whole order of two English words (``place own`` → ``自分に置く``).
JA_PLACES = {
    english: next(ja for ja, to in grammar.PLACE_WORDS.items() if to == where and not ja.isascii())
    for english, where in grammar.PLACE_WORDS.items()
    if english.isascii()
}
JA_SEPARATORS = {">": "→", ",": "、", ";": "；"}

SQUARE = re.compile(r"^[A-I][1-9]$")
# A ★ ability's name as a card's text gives it: ``★ Shield Bash: …`` / ``★盾打ち：…``.
STAR_NAME = re.compile(r"★\s*([^:：。.★]{1,24})[:：]")


def order_words(text: str, lang: str) -> str:
    """Words of an order (``P3 ccw``) in the reader's language (``P3 左回り``)."""
    return text if lang == "en" else reword(text, JA_WORDS, JA_SEPARATORS)


def star_names(text: str) -> list[str]:
    """The names of the ★ abilities a card's text lists, in order (none when it names none)."""
    return [name.strip() for name in STAR_NAME.findall(text or "")]


def targets(tokens: Sequence[str], lang: str, who: Callable[[str], str | None]) -> str:
    """A target list as a button says it: a square with the unit standing there named
    (``D6 Archer``), panels and words in the reader's language (``P4 右回り``)."""
    shown = []
    for token in tokens:
        name = who(token) if SQUARE.match(token) else None
        shown.append(f"{token} {name}" if name else order_words(token, lang))
    return " ".join(shown)


def clipped(text: str, limit: int = 80) -> str:
    """A button's label within Discord's 80 characters, cut with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
