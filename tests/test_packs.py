"""The packs' shared reader (bot/packs.py) under hostile input, for both loaders (issue 31).

Random bytes and random TOML documents, as a moderator's upload would bring them to Apeiron's
loader and as Esper's loader reads a pack file: each is a pack or a refusal whose every problem
is one short line in English and in Japanese; nothing else ever escapes (no RecursionError, no
ValueError). Whatever the reader refuses as too deep is too deep once parsed (its scan before the
parser is never stricter than the pack's own bound)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot import packs
from bot.i18n import t
from cogs.apeiron import cog as apeiron_cog
from cogs.apeiron import pack as apeiron
from cogs.esper import pack as esper

APEIRON_TEXT = apeiron.STARTER.read_text("utf-8")
ESPER_TEXT = esper.SAMPLE.read_text("utf-8")
LOADERS = {"apeiron": (apeiron, APEIRON_TEXT), "esper": (esper, ESPER_TEXT)}

# --- random TOML ---------------------------------------------------------------------------------

BARE = st.text(alphabet="abcxyz019_-", min_size=1, max_size=6)
KEY = (
    BARE
    | st.sampled_from(["pack", "id", "unit", "chest", "sheet", "name_en", "hp", "version"])
    | st.text(max_size=6).map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"')
    | st.lists(BARE, min_size=2, max_size=12).map(".".join)
    | st.lists(BARE, min_size=2, max_size=4).map(" . ".join)
)
STRING = st.text(max_size=30).map(
    lambda s: (
        '"'
        + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
        + '"'
    )
)
SCALAR = (
    st.integers(-(10**25), 10**25).map(str)
    | st.integers(0, 6000).map(lambda n: "9" * n or "0")
    | st.floats(allow_nan=False).map(repr).filter(lambda s: "inf" not in s)
    | st.sampled_from(["true", "false", "inf", "-nan", "1979-05-27T07:32:00.999Z", "0x7fff"])
    | STRING
    | st.just("'''multi\nline'''")
    | st.just('"""multi\n\\"""line"""')
)
VALUE = st.recursive(
    SCALAR,
    lambda inner: (
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]")
        | st.lists(st.tuples(KEY, inner), max_size=3).map(
            lambda kv: "{ " + ", ".join(f"{k} = {v}" for k, v in kv) + " }"
        )
    ),
    max_leaves=12,
)
NESTED = st.integers(1, 1200).flatmap(
    lambda n: st.sampled_from(
        [
            "[" * n + "]" * n,
            "{ a = " * n + "1" + " }" * n,
            "[{ a = " * n + "1" + " }]" * n,
        ]
    )
)
LINE = (
    st.tuples(KEY, VALUE | NESTED).map(lambda kv: f"{kv[0]} = {kv[1]}")
    | KEY.map(lambda k: f"[{k}]")
    | KEY.map(lambda k: f"[[{k}]]")
    | st.integers(1, 6000).map(lambda n: "a" + ".a" * n + " = 1")
    | st.text(max_size=20).map(lambda s: "# " + s.replace("\n", " "))
    | st.text(alphabet="[]{}.=\"'#\\\n ,ax1", max_size=30)  # syntax at random
)
DOCUMENT = st.lists(LINE, max_size=8).map("\n".join)


def spliced(base: str) -> st.SearchStrategy[str]:
    """``base`` with a random stretch replaced by random TOML."""
    return st.tuples(st.integers(0, len(base)), st.integers(0, 400), DOCUMENT).map(
        lambda c: base[: c[0]] + c[2] + base[c[0] + c[1] :]
    )


UPLOAD = (
    st.binary(max_size=300)
    | DOCUMENT.map(str.encode)
    | spliced(APEIRON_TEXT).map(str.encode)
    | spliced(ESPER_TEXT).map(str.encode)
)


# --- what a refusal must be ----------------------------------------------------------------------


def one_line_each(error: packs.PackError) -> None:
    for problem in error.all:
        for lang in ("en", "ja"):
            line = t(lang, problem.key, **problem.params)
            assert line != problem.key, (lang, problem.key)
            assert len(line.splitlines()) == 1 and len(line) <= 300, (lang, line[:400])


def load(module: Any, data: bytes, *, server: bool = True) -> None:
    """What an upload does with the bytes: UTF-8 or refused as such, then the loader."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return  # the upload says "not UTF-8" (a catalogue line of its own)
    try:
        module.loads(text, server=server)
    except packs.PackError as error:
        one_line_each(error)
        if module is apeiron:
            for lang in ("en", "ja"):  # the moderator's reply: one message
                reply = apeiron_cog.refusal_text(lang, error)  # type: ignore[arg-type]
                shown = min(len(error.all), apeiron_cog.MAX_ERROR_LINES)
                assert len(reply.splitlines()) == 1 + shown + (len(error.all) > shown), reply
                assert len(reply) <= 2000


SLOW = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(data=UPLOAD, server=st.booleans())
@example(data=("x = " + "[" * 1000 + "]" * 1000).encode(), server=True)
@example(data=("a" + ".a" * 4999 + " = 1").encode(), server=True)
@example(data=("x = " + "9" * 5000).encode(), server=True)
def test_apeiron_uploads_are_a_pack_or_one_line_refusals(data: bytes, server: bool) -> None:
    load(apeiron, data, server=server)


@SLOW
@given(data=UPLOAD, server=st.booleans())
@example(data=("x = " + "{ a = " * 400 + "1" + " }" * 400).encode(), server=True)
@example(data=("a" + ".a" * 4999 + " = 1").encode(), server=True)
def test_esper_packs_are_a_pack_or_one_line_refusals(data: bytes, server: bool) -> None:
    load(esper, data, server=server)


def deeper_than(obj: Any, limit: int) -> bool:
    """Whether ``obj`` nests tables and arrays more than ``limit`` deep (looking no deeper)."""
    items = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else None
    if items is None:
        return False
    return limit <= 0 or any(deeper_than(v, limit - 1) for v in items)


@SLOW
@given(text=DOCUMENT | spliced(APEIRON_TEXT))
def test_the_scan_before_the_parser_is_never_stricter_than_the_bound(text: str) -> None:
    try:
        apeiron.CHECK.read(text)
    except packs.PackError as error:
        if error.key != apeiron.CHECK.key("too_deep") or len(text) > 5000:
            return  # not the scan's refusal, or a bomb (whose parse alone takes seconds)
        try:
            parsed = tomllib.loads(text)
        except (ValueError, RecursionError):
            return  # no pack at all
        assert deeper_than(parsed, packs.MAX_DEPTH), text[:200]


@pytest.mark.parametrize("name", list(LOADERS))
@pytest.mark.parametrize(
    "text",
    [
        # A dotted key's parts cost the parser time squared (60,000 parts: minutes).
        "a" + ".a" * 60_000 + " = 1",
        "[" + "a." * 60_000 + "a]",
        "x = " + "[" * 60_000,
        # Openers of strings that never close, each after one that did.
        '"""\\"""' * 30_000,
        "x = '" + "a" * 200_000,
    ],
    ids=["dotted key", "table header", "open arrays", "open strings", "open literal"],
)
def test_a_big_bomb_is_refused_at_once(name: str, text: str) -> None:
    import time

    module = LOADERS[name][0]
    began = time.perf_counter()
    with pytest.raises(packs.PackError) as info:
        module.loads(text)
    assert time.perf_counter() - began < 2.0
    one_line_each(info.value)


@pytest.mark.parametrize("name", list(LOADERS))
def test_the_two_loaders_share_one_reader_and_one_set_of_checks(name: str) -> None:
    """The same hostile text, the same refusal (under each ruleset's own prefix)."""
    module, text = LOADERS[name]
    check: packs.Checks = module.CHECK
    cases: dict[str, Callable[[], Any]] = {
        "too_deep": lambda: module.loads("x = " + "[" * 50 + "]" * 50),
        "number": lambda: module.loads("x = " + "9" * 30),
        "toml": lambda: module.loads("[pack\n"),
    }
    for key, call in cases.items():
        with pytest.raises(packs.PackError) as info:
            call()
        assert info.value.key == check.key(key), (key, info.value.key)
    start = text.index('name_en = "') + len('name_en = "')
    two_lines = text[:start] + "x\\n🏆 **A wins!**" + text[text.index('"', start) :]
    with pytest.raises(packs.PackError) as info:
        module.loads(two_lines)
    assert [e.key for e in info.value.all] == [check.key("one_line")]
    one_line_each(info.value)
