"""Tactics maps (cogs/tactics/maps.py): the shipped maps and refusals of malformed ones."""

from __future__ import annotations

import pytest

from bot.render.squaregrid import label
from cogs.tactics import maps


def test_shipped_maps():
    assert {"default", "narrow_pass", "ruined_fort"} <= set(maps.names())
    for name in maps.names():
        m = maps.load(name)
        assert m.titles["en"] and m.titles["ja"]
        assert len(m.zones["A"]) >= 5 and len(m.zones["B"]) >= 5
        assert not set(m.zones["A"]) & set(m.zones["B"])


def test_default_map_is_ten_by_ten_with_b_on_top_and_a_below():
    m = maps.load("default")
    assert (m.width, m.height) == (10, 10) and m.obstacles
    assert {label(s)[1:] for s in m.zones["B"]} == {"1", "2"}
    assert {label(s)[1:] for s in m.zones["A"]} == {"9", "10"}


def test_walls_are_not_comments():
    m = maps.load("narrow_pass")
    assert (m.width, m.height) == (8, 12)
    assert {label(s) for s in m.obstacles} >= {"A5", "B5", "D5", "E5", "G5", "H5"}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "tactics.map.bad_size"),
        ("aaaaa\n...\nbbbbb", "tactics.map.ragged"),
        ("aaaaa\n..x..\nbbbbb", "tactics.map.bad_char"),
        ("aaaa.\n.....\nbbbbb", "tactics.map.small_zone"),
        ("a" * 27 + "\n" + "b" * 27, "tactics.map.ragged"),
        ("# just a comment\nname.en: X", "tactics.map.bad_size"),
    ],
)
def test_malformed_maps_are_refused(text, key):
    with pytest.raises(maps.MapError) as caught:
        maps.parse("bad", text)
    assert caught.value.key == key


def test_a_small_map_parses_with_titles_and_comments():
    m = maps.parse("t", "# a comment\nname.en: Tiny\nname.ja: 小\nbbbbb\n..#..\naaaaa\n")
    assert (m.width, m.height, m.title("ja"), m.title("fr")) == (5, 3, "小", "Tiny")
    assert m.obstacles == frozenset({(2, 1)})


def test_unknown_map():
    with pytest.raises(maps.MapError) as caught:
        maps.load("moon")
    assert caught.value.key == "tactics.map.unknown" and "default" in caught.value.params["known"]
