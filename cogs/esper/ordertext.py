"""Esper orders in the reader's words (pure): what :meth:`EsperPresenter.order_text` shows.

Buttons, defaults and the stored canonical text use English words (``keep``, ``ambush P1-3
runner A``, ``card k06 D``); a Japanese reader sees the Japanese spellings the grammar reads
(:data:`cogs.esper.orders.WORDS`, :data:`cogs.esper.combat.WORDS`), so an echo can be typed back.
"""

from __future__ import annotations

from bot.ordertext import japanese_spellings, reword
from cogs.esper import combat
from cogs.esper.orders import WORDS

# A normal turn's and the setup's words first (their first Japanese spelling is the main one),
# then a combat's. ``keep`` is both: the deal's 確定 (the whole order) and a combat's 維持 (a C
# card kept, one part of a combat turn).
_JA = {**japanese_spellings(combat.WORDS), **japanese_spellings(WORDS)}
_JA["keep"] = "維持"
_DEAL_KEEP = japanese_spellings(WORDS)["keep"]


def order_text(text: str, lang: str) -> str:
    """``text`` (an order as stored) as ``lang``'s reader would write it.

    >>> order_text("ambush P1-3 runner A", "ja")
    '待ち伏せ P1-3 担当 A'
    >>> order_text("keep; card k06 D", "ja"), order_text("keep", "ja")
    ('維持、カード k06 D', '確定')
    >>> order_text("keep; card k06 D", "en")
    'keep; card k06 D'
    """
    if lang == "en":
        return text
    if text.strip().lower() == "keep":
        return _DEAL_KEEP
    return reword(text, _JA, {";": "、"}).replace("、 ", "、")
