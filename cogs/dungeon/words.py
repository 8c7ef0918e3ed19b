"""The dungeon's small phrases, shared by the presenter and the engine's buttons (pure: i18n only).

A figure by its seat and player (``A · Aurora``) or its type and standee number (``Guard #3`` /
``衛兵#3``), a card and what it does, and the way from one hex to another as a player reads it
on the board (an arrow and a count: ``↗2``). The engine's choices word their buttons with these
in every language (a :class:`bot.ruleset.Choice` carries one label per language), so they live
below both :mod:`.rules` and :mod:`.present`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from cogs.dungeon.hexes import Hex, distance

SEATS = ("A", "B", "C", "D")

# The eight arrows by the angle of the way on the board (row numbers grow up the page), starting
# east and turning counter-clockwise: a phone's reader finds "↗2" on the picture at a glance.
_ARROWS = ("→", "↗", "↑", "↖", "←", "↙", "↓", "↘")


def figure_name(fid: Any, lang: str, names: Mapping[str, str]) -> str:
    text = str(fid)
    if text in SEATS:
        return (
            f"{text} · {names.get(text, text)}"
            if lang == "en"
            else f"{text}・{names.get(text, text)}"
        )
    if "-" in text:
        mtype, number = text.rsplit("-", 1)
        return t(
            lang,
            "dungeon.board.monster_name",
            name=t(lang, f"dungeon.monster.{mtype}"),
            number=number,
        )
    return text


def card_effects(card: Mapping[str, Any], lang: str) -> str:
    """``move 3 (jump) · attack 3``: what a card does, without its name."""
    # Japanese joins the parts with 、 (the attack's own details already take ・)
    sep = " · " if lang == "en" else "、"
    parts = [t(lang, "dungeon.card_text.move", move=card.get("move", 0))]
    if card.get("jump"):
        parts[-1] += t(lang, "dungeon.card_text.jump")
    if card.get("flying"):
        parts[-1] += t(lang, "dungeon.card_text.flying")
    if card.get("attack"):
        attack = t(lang, "dungeon.card_text.attack", attack=card["attack"])
        if card.get("range"):
            attack += t(lang, "dungeon.card_text.range", range=card["range"])
        if card.get("targets", 1) > 1:
            attack += t(lang, "dungeon.card_text.targets", targets=card["targets"])
        if card.get("push"):
            attack += t(lang, "dungeon.card_text.push", push=card["push"])
        if card.get("pull"):
            attack += t(lang, "dungeon.card_text.pull", pull=card["pull"])
        parts.append(attack)
    if card.get("heal"):
        heal = t(lang, "dungeon.card_text.heal", heal=card["heal"])
        if card.get("heal_range"):
            heal += t(lang, "dungeon.card_text.range", range=card["heal_range"])
        parts.append(heal)
    return sep.join(parts)


def card_text(card: Mapping[str, Any], lang: str, *, bold: bool = True) -> str:
    """``**Trample** (72): move 3 (jump) · attack 3``, the card's name and what it does (a
    button's label has no bold)."""
    return t(
        lang,
        "dungeon.card_text.line" if bold else "dungeon.card_text.plain",
        name=t(lang, f"dungeon.card.{card['id']}"),
        initiative=card.get("initiative", 0),
        text=card_effects(card, lang),
    )


def centre(h: Hex) -> tuple[float, float]:
    """A hex's centre on the board's page (x right, y up), flat-topped axial hexes."""
    q, r = h
    return 1.5 * q, math.sqrt(3.0) * (r + q / 2)


def way(start: Hex, end: Hex) -> str:
    """``↗2``: the arrow of the way from ``start`` to ``end`` as the board shows it, and the
    hexes between them (empty for the same hex)."""
    if start == end:
        return ""
    (x0, y0), (x1, y1) = centre(start), centre(end)
    angle = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360
    return f"{_ARROWS[round(angle / 45) % 8]}{distance(start, end)}"
