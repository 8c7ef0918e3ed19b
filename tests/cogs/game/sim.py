"""Helpers for SimCord tests of a two-player game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord


@dataclass
class Duel:
    env: Any
    guild: Any
    channel: Any
    alice: Any  # MemberActor: acts in the guild (slash commands, channel buttons)
    bob: Any
    alice_dm: Any  # UserHandle: acts in DMs (DM buttons, DM slash commands)
    bob_dm: Any
    game_id: str = ""

    @property
    def bot(self) -> Any:
        return self.env.bot


def setup_duel(env: Any, clock: Any) -> Duel:
    clock.env = env
    guild = env.create_guild(name="Arena Club")
    channel = guild.create_text_channel("duels")
    alice_user = env.create_user("alice")
    bob_user = env.create_user("bob")
    alice = guild.add_member(alice_user)
    bob = guild.add_member(bob_user)
    return Duel(env, guild, channel, alice, bob, alice_user, bob_user)


async def start_duel(duel: Duel, hours: float = 24.0) -> Duel:
    result = await duel.alice.slash(duel.channel, "arena challenge", opponent=duel.bob, hours=hours)
    invite = result.response
    await duel.bob.click(duel.channel.last_message, label="Accept")
    games = await duel.bot.table.games_here(duel.channel.id)
    duel.game_id = games[0].id
    assert invite is not None
    return duel


def dms(actor: Any) -> list[discord.Message]:
    return [m for m in actor.user.dm_channel.history() if m.author.bot]


def last_dm(actor: Any) -> discord.Message:
    return dms(actor)[-1]


def turn_posts(duel: Duel) -> list[discord.Message]:
    """The bot's channel messages that carry a board (one per turn)."""
    return [m for m in duel.channel.history() if m.author.bot and m.embeds and m.attachments]


def field(message: discord.Message, startswith: str) -> discord.embeds.EmbedProxy | None:
    for f in message.embeds[0].fields:
        if f.name and f.name.startswith(startswith):
            return f
    return None
