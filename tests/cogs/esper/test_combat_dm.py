"""A three-way ESP combat in SimCord, answered by DM in English and Japanese.

The issue's scenario through the bot's doors (DM text, ``/order``, the table's clock): six users
play an Esper war (:mod:`tests.cogs.esper.test_game_dm`'s table) to the first normal turn; three
characters share a spot and the active one starts a ``fight``; the others' "actually there"
question reaches them by DM and nobody answers: the deadline passes in the middle of the combat
and they stay away. The first to act attacks with a sync card, the next one joins the sync by DM
(from the select menu of its cards; in Japanese when that player reads Japanese), the third is
asked for its defence by DM; the bot
restarts while the damage roll waits on that answer, and the roll is made and posted once.

The C cards dealt come from the game's secret stream, so the test stacks the three hands once
the combat has started (as the engine tests script dice): a sync attack for the first, a lower
sync card for the second, nothing for the third."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import t
from cogs.esper import combat as combats
from cogs.esper import rules
from tests.cogs.esper.test_game_dm import (
    CLOSED,
    JAPANESE,
    MINUTES,
    TICK,
    Table,
    channel_posts,
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
from tests.cogs.game.sim import dms, last_dm


def components(message: Any) -> list[dict[str, Any]]:
    found = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        found += [c if isinstance(c, dict) else c.to_dict() for c in children]
    return found


def turn_posts(table: Table) -> list[Any]:
    """The game's turn posts (not its reminders): an embed each."""
    return [m for m in channel_posts(table) if m.embeds]


def stem(lang: str, key: str) -> str:
    """A question's words before its first blank (what every DM of it starts with)."""
    return t(lang, key).split("{")[0]


__all__ = ["make_bot", "table"]  # the fixtures, shared with the six-player game


async def rig(table: Table, change: Callable[[rules.EsperState], None]) -> None:
    """Rewrite the stored state of the game (a test's stacked deck): load, change, store."""
    async with table.bot.table.repo.transaction() as tx:
        game = await tx.get_game(table.game_id)
        assert game is not None and game.state is not None
        s = rules.from_json(game.state)
        change(s)
        game.state = rules.to_json(s)
        version = game.version
        game.version += 1  # a new version: no cached copy of the old state stands for it
        await tx.update_game(game, expect_version=version)
        await tx.put_state(game.id, game.version, game.step, game.state)


async def test_a_three_way_combat_with_a_sync_by_dm_a_deadline_and_a_restart(
    table: Table, make_bot: Callable[..., Any]
) -> None:
    await start(table)
    await play_defaults(table, until=lambda st: st.step == rules.START)
    s = await state(table)
    for index, seat in enumerate(rules.awaiting(s)):  # each on a planet of its own
        if rules.side_of(s, seat) == rules.DEFENDER:
            await order(table, seat, "pass")
        else:
            await order(table, seat, f"start P{1 + index}")
    await play_defaults(table, until=lambda st: st.step == rules.TURN)
    s = await state(table)
    active = s.active
    assert active is not None
    # two others on the active's spot: a Japanese reader among them
    others = sorted(
        (seat for seat in s.order if seat != active and table.seats[seat] != CLOSED),
        key=lambda seat: table.seats[seat] not in JAPANESE,
    )[:2]
    fighters = [active, *others]
    assert {lang_of(table.seats[seat]) for seat in fighters} == {"en", "ja"}, "both languages"
    spot = s.seats[active].spot

    def gather(st: rules.EsperState) -> None:
        for seat in others:
            st.seats[seat].spot = spot

    await rig(table, gather)

    # --- the fight: the others are asked whether they were actually there ----------------------
    before = len(channel_posts(table))
    fought = len(turn_posts(table))
    await order(table, active, "pass; fight")
    s = await state(table)
    assert s.combat is not None and sorted(s.combat.seats) == sorted(fighters)
    assert s.step == combats.ENTRY
    away = rules.awaiting(s)
    assert sorted(away) == sorted(seat for seat in s.order if seat not in fighters)
    for seat in away:
        name = table.seats[seat]
        if name == CLOSED:
            continue
        asked = stem(lang_of(name), "esper.ask.entry")
        assert any(asked in m.content for m in dms(table.members[name])), name

    # --- nobody answers: the deadline passes in the middle of the combat ----------------------
    await table.env.advance_time(MINUTES * 60 + TICK)
    await table.bot.table.tick()
    await settle(table)
    s = await state(table)
    assert s.combat is not None and sorted(s.combat.seats) == sorted(fighters), "they stayed away"
    assert s.step == combats.CTURN
    first, *rest = s.combat.order
    assert rules.awaiting(s) == [first]
    # the two yet to act: the one asked for a defence by DM (open DMs, an English reader if
    # there is one), the other one helps the attack (a Japanese reader if there is one)
    third = sorted(
        rest, key=lambda seat: (table.seats[seat] == CLOSED, lang_of(table.seats[seat]))
    )[0]
    (second,) = [seat for seat in rest if seat != third]
    opened = posts_since(table, before)
    for seat in fighters:  # the initiative post names the order
        assert s.combat.cards[seat] in opened

    def stack(st: rules.EsperState) -> None:
        st.seats[first].c_hand = ["k05", "k14"]  # Kinetic Lance: level 3, 8 E, sync
        st.seats[second].c_hand = ["k01", "k22"]  # Psi Bolt: level 1, 3 E, sync
        st.seats[third].c_hand = ["k22"]  # a Dodge (level 1): too low for a level 4 attack

    await rig(table, stack)

    # --- the attack and the sync, by DM ---------------------------------------------------------
    await order(table, first, f"card k05 {third}")
    s = await state(table)
    assert s.step == combats.SYNC and rules.awaiting(s) == [second]
    helper = table.seats[second]
    if helper == CLOSED:
        await order(table, second, "sync k01")
    else:  # from the select menu of its cards in the DM that asks it
        asked = last_dm(table.members[helper])
        (menu,) = [c for c in components(asked) if c.get("type") == 3]
        # the options' values are the choices' places in the group, never a card's id
        assert [o["value"] for o in menu["options"]] == ["0", "1"]
        name = "念動弾" if lang_of(helper) == "ja" else "Psi Bolt"
        (card,) = [o for o in menu["options"] if name in o["label"]]
        result = await table.members[helper].user.select(
            asked, [card["value"]], custom_id=menu["custom_id"]
        )
        sealed = "命令を封印しました" if lang_of(helper) == "ja" else "Order sealed for"
        assert sealed in str(result.response.content), result.response.content
        await settle(table)
    s = await state(table)
    assert s.step == combats.DEFEND and rules.awaiting(s) == [third]
    assert s.combat is not None and s.combat.attack is not None
    assert (s.combat.attack["level"], s.combat.attack["firepower"]) == (4, 11)
    target = table.seats[third]
    asked = stem(lang_of(target), "esper.ask.defend")
    assert any(asked in m.content for m in dms(table.members[target]))

    # --- a restart while the damage roll waits on the defence ---------------------------------
    await table.env.restart_bot(make_bot())
    await settle(table)
    s = await state(table)
    assert s.step == combats.DEFEND, "still waiting on the defence after the restart"
    before = len(turn_posts(table))
    declared = max(1, rules.durability(s, third))
    await order(table, third, f"durability {declared}")
    s = await state(table)
    async with table.bot.table.repo.read() as tx:
        stored = [e for _, e in await tx.events(table.game_id)]
    rolls = [e for e in stored if e.get("type") == "damage_roll"]
    assert len(rolls) == 1, "rolled once"
    column = rolls[0]["column"]
    posts = turn_posts(table)
    assert len(posts) == before, "the round's steps edit the round's post"
    assert f"{column}" in text_of(posts[-1]) and posts[-1].edited_at is not None
    assert (
        rules.sheet_of(s, third).durability - rules.durability(s, third) == (rolls[0]["damage"])
        or not s.seats[third].alive
    )

    # --- to the combat's end: everyone's defaults ----------------------------------------------
    rounds = 1
    for _ in range(30):
        s = await state(table)
        if s.combat is None:
            break
        rounds = s.combat.round
        for seat in rules.awaiting(s):
            await order(table, seat, rules.default_order(s, seat).canonical())
    s = await state(table)
    assert s.combat is None and s.ended is None
    async with table.bot.table.repo.read() as tx:
        stored = [e for _, e in await tx.events(table.game_id)]
    assert sum(1 for e in stored if e.get("type") == "damage_roll") == 1, "posted once"
    # one post per round (the first one also tells the fight), and one for the step after it
    assert len(turn_posts(table)) - fought == rounds + 1
