"""A seat of an Esper war handed to a substitute in the middle of a combat (issue 34), in SimCord.

Six users play the war of :mod:`tests.cogs.esper.test_game_dm` to a three-way combat (as
:mod:`tests.cogs.esper.test_combat_dm` does: the hands stacked once the combat has started) until
the third fighter is asked for its defence by DM. A moderator then hands that seat to grace, a
member who was not playing, with ``/game substitute``:

- the channel says who took the seat from whom, and nothing the seat holds;
- grace is sent by DM the seat's private events so far, its character and hand, and the pending
  defence prompt, and answers it at once by DM; the damage is rolled once;
- a privacy scan: everything grace receives names nothing another seat knows alone (their
  character lines, their hands, their C cards), before and after she answers;
- the former player receives no DM at all from the game afterwards (the combat played out by
  defaults and the steps after it), and an order they send is refused with the reason;
- ``/game status`` lists the substitution, ``/game replace-me`` offers a seat, and the export of
  the game verifies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.i18n import catalogue, t
from bot.record import verify
from bot.ruleset import addressees
from cogs.esper import combat as combats
from cogs.esper import present, rules
from tests.cogs.esper.test_combat_dm import rig
from tests.cogs.esper.test_game_dm import (
    CLOSED,
    MINUTES,
    TICK,
    Table,
    lang_of,
    make_bot,
    order,
    play_defaults,
    posts_since,
    settle,
    start,
    state,
    table,
    text_of,
)
from tests.cogs.game.sim import dms

__all__ = ["make_bot", "table"]

NEWCOMER = "grace"  # not in the game: takes a seat mid-combat (an English reader)
PRINTED = {text.strip() for text in catalogue("en").values() if "{" not in text}


def dm_text(message: discord.Message) -> str:
    """All a DM shows: its text, its embeds, and the labels of its buttons and menus."""
    parts = [text_of(message)]
    for row in message.components:
        for item in row.children if isinstance(row, discord.ActionRow) else ():
            parts.append(str(getattr(item, "label", "") or ""))
            for option in getattr(item, "options", ()) or ():
                parts.append(f"{option.label} {option.description or ''}")
    return "\n".join(parts)


def private_to(s: rules.EsperState, seat: str) -> set[str]:
    """What the engine lets ``seat`` alone know now, as its DMs word it (English): its status
    lines (character, card, hand, sheets seen) and its C cards' lines."""
    lines = set(present.private_lines(rules.view(s, seat), seat, "en"))
    for card in s.seats[seat].c_hand:
        lines.add("- " + present.ccard_line(combats.ccard_info(s.pack.ccards[card]), "en"))
    return {line.strip() for line in lines if line.strip()}


async def told(table: Table, seat: str) -> str:
    """Every private event addressed to ``seat`` so far, as its DMs word them (English)."""
    game = await table.bot.table.game(table.game_id)
    async with table.bot.table.repo.read() as tx:
        events = [e for _, e in await tx.events(table.game_id)]
    mine = [e for e in events if seat in (addressees(e) or ())]
    return "\n".join(present.PRESENTER.event_lines(mine, "en", game.names))


def leaks(s: rules.EsperState, seat: str, texts: list[str], history: str) -> list[str]:
    """Lines another seat knows alone that ``texts`` hold. Lines ``seat`` may know too are left
    out: its own, and what its private events told it (a C card dealt to it before the test
    stacked the hands, since passed on)."""
    own = private_to(s, seat) | PRINTED  # a heading the catalogue prints tells nothing
    found = []
    for other in s.order:
        if other == seat:
            continue
        for line in private_to(s, other) - own:
            if line not in history and any(line in text for text in texts):
                found.append(f"{other}: {line}")
    return found


async def to_the_defence(table: Table) -> tuple[str, rules.EsperState]:
    """Play to a three-way combat whose third fighter (open DMs, English) owes its defence."""
    await start(table)
    await play_defaults(table, until=lambda st: st.step == rules.START)
    s = await state(table)
    for index, seat in enumerate(rules.awaiting(s)):
        if rules.side_of(s, seat) == rules.DEFENDER:
            await order(table, seat, "pass")
        else:
            await order(table, seat, f"start P{1 + index}")
    await play_defaults(table, until=lambda st: st.step == rules.TURN)
    s = await state(table)
    active = s.active
    assert active is not None
    # the defender-to-be: an English reader with open DMs; one more to fill the fight
    open_en = [x for x in s.order if x != active and lang_of(table.seats[x]) == "en"]
    third = next(x for x in open_en if table.seats[x] != CLOSED)
    other = next(x for x in s.order if x not in (active, third))
    spot = s.seats[active].spot

    def gather(st: rules.EsperState) -> None:
        for seat in (third, other):
            st.seats[seat].spot = spot

    await rig(table, gather)
    await order(table, active, "pass; fight")
    await table.env.advance_time(MINUTES * 60 + TICK)  # nobody says they were away
    await table.bot.table.tick()
    await settle(table)
    s = await state(table)
    assert s.combat is not None and s.step == combats.CTURN
    first = s.combat.order[0]
    if first == third:  # the defender must not be the one to attack
        third, other = other, third
        if table.seats[third] == CLOSED or lang_of(table.seats[third]) != "en":
            third, other = other, third
    helper = next(x for x in s.combat.order if x not in (first, third))

    def stack(st: rules.EsperState) -> None:
        st.seats[first].c_hand = ["k05", "k14"]  # Kinetic Lance: level 3, 8 E, sync
        st.seats[helper].c_hand = ["k01", "k22"]  # Psi Bolt: level 1, 3 E, sync
        st.seats[third].c_hand = ["k22"]  # a Dodge

    await rig(table, stack)
    await order(table, first, f"card k05 {third}")
    await order(table, helper, "sync k01")
    s = await state(table)
    assert s.step == combats.DEFEND and rules.awaiting(s) == [third], (s.step, third)
    return third, s


async def test_a_seat_is_handed_to_a_substitute_mid_combat(
    table: Table, make_bot: Callable[..., Any]
) -> None:
    seat, s = await to_the_defence(table)
    old_name = table.seats[seat]
    old = table.members[old_name]
    asked = t("en", "esper.ask.defend").split("{")[0]
    assert any(asked in m.content for m in dms(old)), "the prompt reached the seat's player"
    grace = table.guild.add_member(table.env.create_user(NEWCOMER))
    role = table.guild.create_role("Subs", permissions=discord.Permissions(manage_guild=True))
    mod = table.guild.add_member(table.env.create_user("mod2"), roles=[role])

    # refused: a player who is seated already, a member without Manage Server
    seated = table.members[table.seats[next(x for x in s.order if x != seat)]]
    result = await mod.slash(table.channel, "game substitute", seat=seat, new_player=seated)
    assert "already holds a seat" in str(result.response.content)
    result = await grace.slash(table.channel, "game substitute", seat=seat, new_player=grace)
    assert "moderators" in str(result.response.content).lower()
    # a seated player offers their seat (pinging nobody); /game status shows the offer
    result = await old.slash(table.channel, "game replace-me")
    assert result.ephemeral
    await settle(table)
    assert "offered for a substitute" in table.channel.last_message.content
    assert not table.channel.last_message.mentions

    # --- the handover ----------------------------------------------------------------------
    posts = len([m for m in table.channel.history() if m.author.bot])
    heard = len(dms(old))
    result = await mod.slash(table.channel, "game substitute", seat=seat, new_player=grace)
    assert result.ephemeral and f"<@{grace.id}>" in str(result.response.content)
    await settle(table)
    said = posts_since(table, posts)
    assert f"<@{grace.id}> takes seat {seat}" in said and f"from <@{old.id}>" in said
    mine = private_to(s, seat)
    assert mine and not [line for line in mine if line in said], "never what the seat holds"
    briefing = [dm_text(m) for m in dms(grace)]
    assert len(briefing) == 2, "what the seat knows, then the pending prompt"
    # the seat's character and card: behind the prompt's 📋 button (its sheet is no longer in
    # every prompt), and in the briefing where the framework adds it
    character = present.private_lines(rules.view(s, seat), seat, "en")[0]
    assert character in "\n".join(briefing) or "Mine" in briefing[1]
    assert "Dodge" in briefing[1] and asked in briefing[1], "its hand and the defence asked"
    assert "What the seat was told so far" in briefing[0], "its private events so far"
    history = await told(table, seat)
    assert not leaks(s, seat, briefing, history), leaks(s, seat, briefing, history)

    # --- the newcomer answers the pending defence at once ----------------------------------
    table.seats[seat], table.members[NEWCOMER] = NEWCOMER, grace
    declared = max(1, rules.durability(s, seat))
    await order(table, seat, f"durability {declared}")
    async with table.bot.table.repo.read() as tx:
        stored = [e for _, e in await tx.events(table.game_id)]
    assert sum(1 for e in stored if e.get("type") == "damage_roll") == 1, "rolled once"

    # --- the combat and a few more steps by defaults ------------------------------------------
    for _ in range(40):
        s = await state(table)
        if s.ended is not None or (s.combat is None and s.step == rules.TURN and s.turn > 2):
            break
        for waiting in rules.awaiting(s):
            await order(table, waiting, rules.default_order(s, waiting).canonical())
    s = await state(table)
    assert len(dms(old)) == heard, "the former player hears nothing more of the game"
    received = [dm_text(m) for m in dms(grace)]
    assert len(received) > len(briefing), "the seat's later DMs reach the newcomer"
    history = await told(table, seat)
    assert not leaks(s, seat, received, history), leaks(s, seat, received, history)

    # --- the former player is refused, with the reason; /game status lists the handover ----
    await old.send_dm("pass")  # any order text: it is not theirs to give
    answer = dms(old)[-1].content
    assert answer.startswith("⚠️") and f"was handed to <@{grace.id}>" in answer, answer
    result = await old.slash(table.channel, "order", text="pass")
    assert "was handed to" in str(result.response.content)
    result = await mod.slash(table.channel, "game status")
    shown = text_of(result.response)
    assert f"{seat} at step" in shown and f"<@{old.id}> → <@{grace.id}>" in shown, shown

    record = await table.bot.table.export(table.game_id)
    assert [(h["seat"], h["to"]) for h in record["handovers"]] == [(seat, NEWCOMER)]
    checks = verify(record)
    assert all(c.ok for c in checks), [c.what for c in checks if not c.ok]
