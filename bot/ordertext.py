"""Orders shown in the reader's language: a stored order's words swapped for the reader's (pure).

An order is stored as sent (its receipt and the proofs are of that text), and buttons, builders
and defaults send canonical English words (``forward right``, ``deploy u06 E1 S``). A presenter's
``order_text`` shows it to a Japanese reader in the words that reader would type: each word a
ruleset's grammar knows is swapped for its Japanese spelling, ids, squares and numbers stay, so
the echo can be typed back as it reads.

>>> reword("deploy u06 E1 S, u08 G2 S", {"deploy": "配置", "S": "下"}, {",": "、"})
'配置 u06 E1 下、 u08 G2 下'
>>> japanese_spellings({"移動": "move", "m": "move", "移": "move", "攻撃": "attack"})
{'move': '移動', 'attack': '攻撃'}
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# Spaces, and the punctuation orders use between their parts: kept (or swapped) as they are.
_PIECES = re.compile(r"(\s+|[;,>、；，→])")


def reword(text: str, words: Mapping[str, str], separators: Mapping[str, str] | None = None) -> str:
    """``text`` with every word found in ``words`` (as written, else lower-cased) replaced, and
    every separator found in ``separators`` replaced; everything else as it was."""
    out = []
    for piece in _PIECES.split(text):
        if not piece:
            continue
        if _PIECES.fullmatch(piece):
            out.append((separators or {}).get(piece, piece))
        else:
            out.append(words.get(piece, words.get(piece.lower(), piece)))
    return "".join(out)


def japanese_spellings(*readings: Mapping[str, str]) -> dict[str, str]:
    """Canonical word -> the first spelling with Japanese in it, from grammars' reading tables
    (spelling -> canonical word), the first table first. A reading table lists a word's main
    Japanese spelling before its variants."""
    found: dict[str, str] = {}
    for table in readings:
        for spelling, word in table.items():
            if word not in found and not spelling.isascii():
                found[word] = spelling
    return found
