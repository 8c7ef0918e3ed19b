"""Every component id a ruleset's games make the bot build fits Discord's limits and reads back
(issue 31): the order buttons and menus ``bot/views.py`` builds from ``engine.choices`` at every
step of the conformance games (the machinery of ``tests/test_ruleset_conformance.py``), in both
languages, and the views of Apeiron's order builder. An id carries picks (a choice's place in its
group), never a token: a token may hold a pack's ids (an Apeiron deck order lists fourteen) and
Discord refuses a ``custom_id`` or an option's value over 100 characters, so no pack can push one
past it; each id parses back to the very choices it was built for.

The checks are here; the whole games' test that runs them is in
``tests/test_ruleset_whole_games.py``, which plays those games once for it and the contract.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import views
from bot.i18n import LANGS, t
from bot.ruleset import Choice, ChoiceGroup, RuleError
from cogs.apeiron import builder
from tests.test_ruleset_conformance import (
    _example_registered,  # noqa: F401  (autouse: the example rulesets are registered here too)
)

LIMIT = 100  # Discord's, for a custom_id and for a select option's value
GAME = "g-99999999"  # the table's ids (g-0001), as long as a hundred million games make them
BUILDER_VIEWS = 12  # views of the Apeiron builder walked per seat and step


def items_of(view: discord.ui.View) -> list[dict[str, Any]]:
    """The view's components as Discord receives them."""
    return [c for row in view.to_components() for c in row["components"]]


def check_within_limits(view: discord.ui.View, where: str) -> None:
    for component in items_of(view):
        custom_id = str(component.get("custom_id", ""))
        assert 0 < len(custom_id) <= LIMIT, f"{where}: custom_id {len(custom_id)}: {custom_id!r}"
        for option in component.get("options", ()):
            value = str(option["value"])
            assert 0 < len(value) <= LIMIT, f"{where}: option value {len(value)}: {value!r}"


def longest_prefix(groups: Sequence[ChoiceGroup], upto: int) -> list[int]:
    """For the groups before ``upto``: the pick a button sends that is the longest (the last
    enabled choice that asks for the next group: not one that is a whole order on its own)."""
    picks = []
    for group in groups[:upto]:
        enabled = [i for i, c in enumerate(group.choices) if c.enabled and not c.final]
        picks.append(enabled[-1] if enabled else 0)
    return picks


def check_order_views(
    groups: Sequence[ChoiceGroup], turn: int, where: str, *, has_builder: bool
) -> int:
    """The DM prompt as posted (the first group, the builder's button), then each group's
    buttons or menu after the longest picks before it, in each language: within the limits,
    and every id (with a menu's option) parsing back to the choices it stands for. Returns how
    many components were checked."""
    checked = 0
    for lang in LANGS:
        localized = views._localized_groups(list(groups), lang)
        payload = {"kind": "orders", "game": GAME, "turn": turn, "groups": localized}
        payload["builder"] = t(lang, "order.builder") if has_builder else None
        prompt = views.build_view(payload)
        check_within_limits(prompt, f"{where} prompt {lang}")
        checked += len(items_of(prompt))
        for n, spec in enumerate(localized):
            prefix = longest_prefix(groups, n)
            tokens = [g.choices[p].token for g, p in zip(groups, prefix, strict=False)]
            view = discord.ui.View(timeout=None)
            for item in views._buttons_for(GAME, turn, prefix, spec):
                view.add_item(item)
            check_within_limits(view, f"{where} group {n} {lang}")
            for component in items_of(view):
                parsed = views.parse_order_id(component["custom_id"])
                assert parsed is not None, component["custom_id"]
                kind, game, at, picks = parsed
                assert (game, at) == (GAME, turn) and picks is not None
                if kind == "s":  # a menu: its id holds the picks before, each option one more
                    assert picks == prefix
                    chosen = [[*picks, int(o["value"])] for o in component["options"]]
                else:
                    chosen = [picks]
                for pick in chosen:
                    choice = groups[n].choices[pick[-1]]
                    if component.get("disabled"):  # greyed: it reads back as nothing to send
                        assert not choice.enabled, (where, component)
                        with pytest.raises(RuleError):
                            views.chosen_tokens(groups, pick)
                        continue
                    read = views.chosen_tokens(groups, pick)
                    assert read == [*tokens, choice.token] and choice.enabled, (where, read)
                checked += 1
    return checked


# --- the Apeiron builder ------------------------------------------------------------------------

BUILDER_TEMPLATES = {
    cls: re.compile(cls.__discord_ui_compiled_template__.pattern)  # type: ignore[attr-defined]
    for cls in builder.DYNAMIC_ITEMS
}


def builder_views(ctx: Any) -> Iterator[discord.ui.View]:
    """The builder's views from its first: each menu's first option, the first view's last one
    too (the draft growing as a pick completes a line), at most :data:`BUILDER_VIEWS`."""
    todo: list[tuple[list[str], discord.ui.View, int]] = [([], builder._main_view(ctx, []), 0)]
    walked = 0
    while todo and walked < BUILDER_VIEWS:
        lines, view, depth = todo.pop(0)
        walked += 1
        yield view
        for item in view.children:
            if not isinstance(item, builder.BuilderSelect):
                continue
            options = item.item.options
            chosen = {options[0].value, options[-1].value} if depth == 0 else {options[0].value}
            for value in sorted(chosen):
                result = builder._next(ctx, item.what, item.arg, value, list(lines))
                if isinstance(result, discord.ui.View):
                    todo.append((lines, result, depth + 1))
                elif result != lines:
                    todo.append((result, builder._main_view(ctx, result), depth + 1))


def check_builder(state_json: Any, turn: int, seat: str, where: str) -> int:
    """The builder's ids say what each pick is and where (squares, facings, places in a list):
    no language changes them, so they are walked in one."""
    checked = 0
    for lang in LANGS[:1]:
        game = SimpleNamespace(id=GAME, step=turn, state=state_json)
        ctx = builder._Context(game, seat, lang)  # type: ignore[arg-type]
        for view in builder_views(ctx):
            check_within_limits(view, f"{where} builder {lang}")
            for item in view.children:
                template = BUILDER_TEMPLATES[type(item)]
                match = template.fullmatch(str(item.custom_id))  # type: ignore[attr-defined]
                assert match is not None, item.custom_id  # type: ignore[attr-defined]
                read = (match["game"], int(match["turn"]), match["what"])
                assert read == (GAME, turn, item.what), (where, read)  # type: ignore[attr-defined]
                assert (match.groupdict().get("arg") or "") == getattr(item, "arg", "")
                checked += 1
    return checked


def test_a_pick_no_group_offers_is_out_of_date() -> None:
    """What a click reads back: picks into the groups the engine offers now; anything else (an
    id of the earlier token form, a forged place) is refused as out of date, never an error."""
    groups = [
        ChoiceGroup("a", "k", [Choice("x", "k"), Choice("y", "k", enabled=False)]),
        ChoiceGroup("b", "k", [Choice("z", "k")]),
    ]
    assert views.chosen_tokens(groups, [0, 0]) == ["x", "z"]
    for picks in (None, [1], [2], [0, 1], [0, 0, 0]):
        with pytest.raises(RuleError) as caught:
            views.chosen_tokens(groups, picks)
        assert caught.value.key == "order.out_of_date"
    for text, picks in (("0/3", [0, 3]), ("", []), ("deck u01 chest i01", None), ("1/x", None)):
        assert views.parse_picks(text) == picks, text
    assert views.parse_picks("1/" + "9" * 40) is None  # no group reaches it
    assert views.parse_order_id("pbp:o:g-0001:7:0/3") == ("o", "g-0001", 7, [0, 3])
    assert views.parse_order_id("pbp:s:g-0001:7:") == ("s", "g-0001", 7, [])
    assert views.parse_order_id("pbp:c:g-0001:accept") is None
