"""Esper packs share Apeiron's rule through the one set of checks (bot.packs.Checks, issue 31):
a silhouette, an ability or a C card, which orders name by id or either name, may not be named
like a spot, a planet, an order word (either language), a number or a seat."""

from __future__ import annotations

import pytest

from bot.i18n import t
from cogs.esper import pack as packlib
from cogs.esper import rules

SAMPLE = packlib.SAMPLE.read_text("utf-8")


def changed(old: str, new: str) -> str:
    assert old in SAMPLE, old
    return SAMPLE.replace(old, new)


@pytest.mark.parametrize(
    ("text", "reading", "where", "en", "ja"),
    [
        (changed('"c01"', '"pass"'), "word", "sheet pass", "order word", "命令の言葉"),
        (changed('id = "k01"', 'id = "p3"'), "place", "ccard p3", "spot or a planet", "惑星"),
        (changed('id = "c04a"', 'id = "b2"'), "place", "ability b2", "spot or a planet", "惑星"),
        (changed('id = "k01"', 'id = "42"'), "number", "ccard 42", "a number", "数として"),
        (changed('id = "k01"', 'id = "k"'), "seat", "ccard k", "a seat", "席"),
        (changed('"Psi Bolt"', '"Use"'), "word", "ccard k01", "order word", "命令の言葉"),
        (changed('"念動弾"', '"移動"'), "word", "ccard k01", "order word", "命令の言葉"),
        (changed('"Psi Bolt"', '"P3-2"'), "place", "ccard k01", "spot or a planet", "惑星"),
        (changed('"念動弾"', '"惑星3の弾"'), "place", "ccard k01", "spot or a planet", "惑星"),
    ],
)
def test_a_name_orders_would_read_otherwise_is_refused(text, reading, where, en, ja):
    with pytest.raises(packlib.PackError) as caught:
        packlib.loads(text)
    errors = [e for e in caught.value.all if e.key == f"esper.pack.reserved.{reading}"]
    assert errors, [(e.key, e.params) for e in caught.value.all]
    error = errors[0]
    assert str(error.params["where"]).endswith(where), error.params
    for lang, expected in (("en", en), ("ja", ja)):
        line = t(lang, error.key, **error.params)
        assert expected in line and "\n" not in line, line


def test_the_sample_pack_passes_and_reads_as_is_the_grammars():
    packlib.loads(SAMPLE)
    for word in ("pass", "パス", "use", "card", "カード", "sync", "left", "keep", "確定", "see"):
        assert rules.reads_as(word) == "word", word
    for word in ("P1", "p6-0", "P3-2", "A1", "a1>b1", "惑星2"):
        assert rules.reads_as(word) == "place", word
    for word in ("c01", "c01a", "k01", "key1", "Psi Bolt", "念動弾", "P7", "L"):
        assert rules.reads_as(word) is None, word
