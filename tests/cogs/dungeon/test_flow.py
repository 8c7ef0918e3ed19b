"""A dungeon round by two players in SimCord: /dungeon start, Accept, secret card picks by DM (text
and button), the monster that acts first has two equally good moves and the party settles it by
button (one vote under the channel post, one in a DM), both characters' turns by DM text and
/order, and the next round's picks. A solo run starts without an Accept."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs.dungeon import content, rules
from cogs.dungeon.content import Card, MonsterType, label
from tests.cogs.dungeon.helpers import use_scenario
from tests.cogs.game.sim import field, last_dm, setup_duel, turn_posts

# One guard that always plays the same card (no draw to roll) and stands where the AI finds two
# equally good hexes to attack from: B2 and B3, both next to the character on A3.
ROOM = {
    "level": 1,
    "starts": ["A2", "A3", "A4", "A5"],
    "rooms": [{"id": "r", "area": ["A1:E5"], "monsters": [{"type": "guard", "hex": "D3"}]}],
}


@pytest.fixture
def party(simcord_env, sim_clock, monkeypatch):
    use_scenario(monkeypatch, ROOM)
    types = dict(content.monster_types())
    types["guard"] = MonsterType(
        "guard", 4, 1, 6, False, (Card("guard-advance", 10, move=2, attack=2),)
    )
    monkeypatch.setattr(content, "monster_types", lambda: types)
    return setup_duel(simcord_env, sim_clock)


async def state(party: Any) -> rules.DungeonState:
    game = await party.bot.table.game(party.game_id)
    return rules.from_json(game.state)


def labels(message: Any) -> list[str]:
    return [c.label for row in message.components for c in row.children if hasattr(c, "label")]


def button(message: Any, start: str) -> str:
    """The label of the button whose text begins ``start`` (a card's button also says what the
    card does, a tie option's where the monster goes)."""
    return next(label for label in labels(message) if label and label.startswith(start))


async def test_a_round_with_a_monster_tie_settled_by_the_players_buttons(party) -> None:
    await party.alice.slash(party.channel, "dungeon start", scenario="test", player2=party.bob)
    await party.bob.click(party.channel.last_message, label="Accept")
    party.game_id = (await party.bot.table.games_here(party.channel.id))[0].id

    first = turn_posts(party)[-1]
    assert "Round 1 · card picks" in first.embeds[0].title
    assert first.attachments[0].filename == "board.png"
    pick_dm = last_dm(party.alice)
    assert "choose your card with a button" in pick_dm.content
    assert "Sprint (25): move 5 · attack 1" in labels(pick_dm)

    # secret picks: Alice by text, Bob by the DM's button; nothing is revealed before both
    await party.alice.send_dm("card sprint")
    assert "Order sealed" in last_dm(party.alice).content
    assert (await state(party)).phase == "pick"
    await party.bob_dm.click(last_dm(party.bob), label=button(last_dm(party.bob), "Volley"))

    # the guard (initiative 10) acts first and has two equally good moves: the players choose
    tie_post = turn_posts(party)[-1]
    assert "monster tie" in tie_post.embeds[0].title
    log = tie_post.embeds[0].description
    assert "Cards of round 1: A · alice: Sprint, B · bob: Volley" in log
    assert "has 2 equally good moves: 1. to B2, attacking A3, 2. to B3, attacking A3" in log
    # each option's button says where the guard goes and whom it attacks
    assert labels(tie_post)[:2] == ["1. to B2, attacking B", "2. to B3, attacking B"]
    s = await state(party)
    guard = s.living_monsters()[0]
    assert s.phase == "tie" and rules.awaiting(s) == ["A", "B"]
    assert "2. to B3, attacking B" in labels(last_dm(party.bob))

    # one vote by the button under the channel post, one by the DM's button
    vote = await party.alice.click(tie_post, label="2. to B3, attacking B")
    assert vote.ephemeral and "Order sealed" in vote.response.content
    await party.bob_dm.click(last_dm(party.bob), label="2. to B3, attacking B")

    s = await state(party)
    assert label(s.monster(guard.id).hex) == "B3"
    after_tie = turn_posts(party)[-1]
    log = after_tie.embeds[0].description
    assert "Option 2 for Guard" in log and "(votes 0·2)" in log
    assert "moves D3→" in log and "attacks B · bob" in log
    # Bob's Volley (20) comes before Alice's Sprint (25)
    assert s.phase == "act" and rules.awaiting(s) == ["B"]
    assert "B's turn" in after_tie.embeds[0].title
    turn_dm = last_dm(party.bob)
    # the prompt opens with what befell Bob since his card pick: the guard's blow (or its miss),
    # where it stands (the dice, and the guard's standee number, differ from run to run)
    hurt = r"💔 You have lost \d+ HP since your last prompt \(Guard #\d hit you for \d+\)"
    missed = r"❤ Since your last prompt: Guard #\d's attack did you no harm\. You still have 11/11"
    assert re.match(f"{hurt}|{missed}", turn_dm.content)
    assert re.search(r"Next to you now: Guard #\d \(B3\)", turn_dm.content)
    assert "Your turn, on A3" in turn_dm.content

    # 📋 answers Bob's sheet privately (his card, his hand, every hex he may end on), ❓ the help
    sheet = await party.bob_dm.click(turn_dm, label="Mine")
    assert "**B · Scout** · HP" in sheet.response.content
    assert "This round: **Volley** (20)" in sheet.response.content
    assert "You can end your move on:" in sheet.response.content
    helped = await party.bob_dm.click(turn_dm, label="Help")
    assert "↗2 is the direction on the board" in helped.response.content

    # a refused order keeps the turn open and says why
    await party.bob.send_dm("attack E5")
    assert "No monster stands at E5" in last_dm(party.bob).content
    # the turn with the menu alone: its first option attacks the guard from where Bob stands
    (menu,) = [c for row in turn_dm.components for c in row.children if c.type.value == 3]
    attack = menu.options[0]
    assert re.fullmatch(r"⚔ Guard #\d \(B3\), without moving", attack.label)
    assert menu.options[-1].label == "Pass: stay on A3, no attack"
    sealed = await party.bob_dm.select(turn_dm, [attack.value], custom_id=menu.custom_id)
    assert "attack B3" in sealed.response.content  # the order echoed as the menu made it
    s = await state(party)
    assert s.current() == "A"
    result = await party.alice.slash(party.channel, "order", text="move A1")
    assert result.ephemeral

    # the round is over: the next picks are asked for
    s = await state(party)
    assert s.round == 2 and s.phase == "pick" and rules.awaiting(s) == ["A", "B"]
    post = turn_posts(party)[-1]
    assert "Round 2 · card picks" in post.embeds[0].title
    assert "End of round 1." in post.embeds[0].description
    tally = field(post, "A · alice")
    assert tally is not None and "hand 5" in tally.value
    assert label(s.heroes["A"].hex) == "A1"


async def test_alone_the_run_starts_at_once(party) -> None:
    result = await party.alice.slash(party.channel, "dungeon start", scenario="test", level=3)
    assert "alone" in result.response.content
    games = await party.bot.table.games_here(party.channel.id)
    assert games and games[0].status == "active" and len(games[0].seats) == 1
    party.game_id = games[0].id
    s = await state(party)
    assert s.level == 3 and s.living_monsters()[0].max_hp == 4 + 3  # hp + hp_per_level x level
    assert "choose your card with a button" in last_dm(party.alice).content


async def test_a_bot_cannot_join_the_party(party) -> None:
    robot = party.guild.add_member(party.env.create_user("robot", bot=True))
    result = await party.alice.slash(party.channel, "dungeon start", scenario="test", player2=robot)
    assert result.ephemeral
    assert await party.bot.table.games_here(party.channel.id, ("lobby", "active")) == []


async def test_a_tie_nobody_votes_on_takes_option_one_when_time_is_up(party) -> None:
    await party.alice.slash(
        party.channel, "dungeon start", scenario="test", player2=party.bob, minutes=6
    )
    await party.bob.click(party.channel.last_message, label="Accept")
    party.game_id = (await party.bot.table.games_here(party.channel.id))[0].id
    await party.alice.send_dm("card sprint")
    await party.bob.send_dm("一斉射撃")  # Volley, by its Japanese name
    s = await state(party)
    assert s.phase == "tie"
    guard = s.living_monsters()[0]
    deadline = (await party.bot.table.game(party.game_id)).deadline_at
    assert deadline is not None

    await party.env.advance_time(deadline - party.env.now().timestamp() + 60)
    s = await state(party)
    assert s.phase == "act" and label(s.monster(guard.id).hex) == "B2"  # option 1
    log = turn_posts(party)[-1].embeds[0].description
    assert "Option 1 for Guard" in log and "(votes 2·0)" in log


async def test_the_party_chooses_its_classes(party) -> None:
    refused = await party.alice.slash(
        party.channel, "dungeon start", scenario="test", player2=party.bob, party="rogue"
    )
    assert refused.ephemeral and "one class per player (2), not 1" in refused.response.content
    await party.alice.slash(
        party.channel, "dungeon start", scenario="test", player2=party.bob, party="rogue メンダー"
    )
    await party.bob.click(party.channel.last_message, label="Accept")
    party.game_id = (await party.bot.table.games_here(party.channel.id))[0].id
    s = await state(party)
    assert s.heroes["A"].cls == "rogue" and s.heroes["B"].cls == "mender"
    assert button(last_dm(party.alice), "Backstab")


async def test_a_party_of_three_starts_when_everyone_invited_has_accepted(party) -> None:
    carol = party.guild.add_member(party.env.create_user("carol"))
    await party.alice.slash(
        party.channel, "dungeon start", scenario="test", player2=party.bob, player3=carol
    )
    invitation = party.channel.last_message
    assert "everyone invited has pressed Accept" in invitation.content

    await party.bob.click(invitation, label="Accept")
    games = await party.bot.table.games_here(party.channel.id, ("lobby", "active"))
    assert [g.status for g in games] == ["lobby"]
    party.game_id = games[0].id
    # the invitation stays, its buttons too, and says who is still to answer
    invitation = party.channel.last_message
    assert f"accepted {party.game_id}. Still waiting for: {carol.mention}" in invitation.content
    assert "Accept" in labels(invitation)
    assert turn_posts(party) == [] and not [m for m in party.bob.user.dm_channel.history()]

    again = await party.bob.click(invitation, label="Accept")
    assert again.ephemeral and "already accepted" in again.response.content
    challenger = await party.alice.click(invitation, label="Accept")
    assert challenger.ephemeral and "Only the challenged player" in challenger.response.content

    await carol.click(invitation, label="Accept")
    game = await party.bot.table.game(party.game_id)
    assert game.status == "active" and len(game.seats) == 3
    assert "The party enters" in party.channel.last_message.content or any(
        "The party enters" in (m.content or "") for m in party.channel.history()
    )
    assert "choose your card with a button" in last_dm(party.alice).content


async def test_one_decline_calls_a_party_off(party) -> None:
    carol = party.guild.add_member(party.env.create_user("carol"))
    await party.alice.slash(
        party.channel, "dungeon start", scenario="test", player2=party.bob, player3=carol
    )
    await party.bob.click(party.channel.last_message, label="Accept")
    await carol.click(party.channel.last_message, label="Decline")
    games = await party.bot.table.games_here(party.channel.id, ("lobby", "active", "abandoned"))
    assert [g.status for g in games] == ["abandoned"]
