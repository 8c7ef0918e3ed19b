"""What tests/cogs/test_buttons_only_ja.py reads of SimCord's messages: a table of Japanese
players, the components of a DM (``discord.Message``) or of an ephemeral answer (raw dicts), the
order components a prompt offers, and the English-word check of the Japanese transcripts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.loaded import LoadedGame
from tests.test_japanese_transcripts import english_words

__all__ = [
    "BUILDER",
    "ORDER",
    "Played",
    "Table",
    "bot_dms",
    "component_text",
    "components",
    "english_words",
    "japanese_table",
    "loaded_game",
    "order_components",
]

# An order button's (o) or menu's (s) id, and the 📝 builder's (b): bot/views.py.
ORDER = re.compile(r"pbp:[os]:(?P<game>[^:]+):(?P<turn>\d+):[^:]*")
BUILDER = re.compile(r"pbp:b:(?P<game>[^:]+):(?P<turn>\d+)")


@dataclass
class Table:
    env: Any
    guild: Any
    channel: Any
    players: list[Any]  # MemberActor, in join order (seat A first)
    game_id: str = ""
    seat_users: dict[str, int] = field(default_factory=dict)

    @property
    def bot(self) -> Any:
        return self.env.bot

    def player_of(self, seat: str) -> Any:
        user_id = self.seat_users[seat]
        return next(m for m in self.players if m.id == user_id)


@dataclass(frozen=True)
class Played:
    """A seat's order sealed by buttons: the prompt it answered and the acknowledgement."""

    seat: str
    prompt: Any
    ack: str
    via: str  # the prompt's buttons, or the builder


def japanese_table(env: Any, clock: Any, set_locale: Any, names: tuple[str, ...]) -> Table:
    """A server and a channel with ``names`` as members, every one with a Japanese client."""
    clock.env = env
    guild = env.create_guild(name="卓")
    channel = guild.create_text_channel("game")
    players = [guild.add_member(env.create_user(name)) for name in names]
    for member in players:
        set_locale(member, "ja")
    return Table(env, guild, channel, players)


async def loaded_game(table: Table) -> LoadedGame:
    game = await table.bot.table.game(table.game_id)
    if not table.seat_users:
        table.seat_users = {s.seat: s.user_id for s in game.seats}
    loaded: LoadedGame = table.bot.table.states.load(game)
    return loaded


def bot_dms(member: Any) -> list[discord.Message]:
    return [m for m in member.user.dm_channel.history() if m.author.bot]


def components(message: Any) -> list[dict[str, Any]]:
    """Every component of a DM (discord.Message) or an ephemeral answer (raw dicts), as dicts."""
    found: list[dict[str, Any]] = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        for c in children:
            found.append(c if isinstance(c, dict) else c.to_dict())
    return found


def component_text(message: Any) -> list[str]:
    """The custom ids of a message's components."""
    return [str(c["custom_id"]) for c in components(message) if c.get("custom_id")]


def order_components(message: Any, game_id: str) -> list[dict[str, Any]]:
    """The message's order buttons (enabled) and menus of this game, in their order."""
    found = []
    for c in components(message):
        match = ORDER.fullmatch(str(c.get("custom_id", "")))
        if match and match["game"] == game_id and not c.get("disabled"):
            found.append(c)
    return found
