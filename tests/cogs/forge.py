"""Forged component interactions: a click or a menu choice carrying a ``custom_id`` (and values)
the bot never made, as a modified client can send them.

discord.py answers a component only if the message it came from carries it, and SimCord's
``click``/``select`` only press what is there; so the bot's own message is given the forged
component first (a button's or menu's id rewritten, a menu's options widened to the forged
values), then it is pressed the ordinary way, through the same dispatch as a real click; the
message's own component is put back afterwards, as the forger's client never changed it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simcord.actors import _visible_message
from simcord.components import walk_components
from simcord.enums import ComponentType


def _component(
    actor: Any, message: Any, types: tuple[int, ...], like: str, custom_id: str
) -> dict[str, Any]:
    """The component to forge from: the one that has ``custom_id`` already (only its values are
    forged then), else the first whose id starts with ``like``."""
    stored = _visible_message(actor, message)
    found = [c for c in walk_components(stored.components) if c.get("type") in types]
    for component in found:
        if component.get("custom_id") == custom_id:
            return component
    for component in found:
        if str(component.get("custom_id", "")).startswith(like):
            return component
    raise AssertionError(f"no component {like!r} on the message to forge from")


async def forge_click(actor: Any, message: Any, custom_id: str, *, like: str = "") -> Any:
    """Press a button whose id is ``custom_id``: the message's first button (whose id starts
    with ``like``) is given that id."""
    button = _component(actor, message, (ComponentType.BUTTON,), like, custom_id)
    kept = dict(button)
    button["custom_id"] = custom_id
    button.pop("disabled", None)
    try:
        return await actor.click(message, custom_id=custom_id)
    finally:
        button.clear()
        button.update(kept)


async def forge_select(
    actor: Any, message: Any, custom_id: str, values: Sequence[str], *, like: str = ""
) -> Any:
    """Choose ``values`` in a menu whose id is ``custom_id``: the message's first menu (whose id
    starts with ``like``) is given that id, and those values among its options."""
    menu = _component(actor, message, (ComponentType.STRING_SELECT,), like, custom_id)
    kept = dict(menu)
    menu["custom_id"] = custom_id
    have = {option["value"] for option in menu.get("options") or []}
    menu["options"] = [
        *(menu.get("options") or []),
        *({"label": value[:100] or "?", "value": value} for value in values if value not in have),
    ]
    try:
        return await actor.select(message, list(values), custom_id=custom_id)
    finally:
        menu.clear()
        menu.update(kept)
