"""An Esper war of six users in SimCord, played by DM in English and Japanese.

The issue's scenario, through the bot's own doors only (slash commands, DM text, DM buttons, the
table's clock): ``/esper start`` with five others, all accept; two players have Japanese clients;
one player's DMs are closed (Discord answers 403) and plays by ``/order``; one player refuses the
character dealt (this season, the server's finished games show that player with every character
of the pack, so whatever the deal, refusing is allowed) and the channel names the refusal by seat,
never the sheet; nobody picks a silhouette, the deadline passes and the defaults are revealed; the
start step; turns by DM text, a DM button and ``/order`` until someone declares; the objection
question reaches every other living player by DM; the bot restarts in the middle of the objection
window and keeps the answers given; one objection, named in the channel; play goes on.

Seeds and salts derive from :data:`SEED` (as ``PBP_TEST_ENTROPY_SEED`` does), so the deal and the
rolls are the same every run; the assertions read the state, not this seed's particular deal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.client import deterministic_entropy
from bot.i18n import t
from bot.storage.base import GameRow, SeatRow
from cogs.esper import pack as packlib
from cogs.esper import present, rules
from tests.cogs.game.sim import dms, last_dm

SEED = "esper-simcord-dm"
MINUTES = 5  # each step's deadline
TICK = 30.0  # the maintenance loop's interval here (each tick costs real time to settle)
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")  # seats A to F, in join order
JAPANESE = ("carol", "dave")  # Japanese clients: their DMs, buttons and answers are in Japanese
CLOSED = "frank"  # DMs closed: plays by /order
REFUSER = "carol"
PACK = packlib.sample()
MAX_TURNS = 12
# An order as a Japanese player types it (the parser reads either language).
JA_WORDS = {
    "keep": "確定",
    "silhouette": "シルエット",
    "refuse": "拒否",
    "start": "開始",
    "ambush": "待ち伏せ",
    "runner": "担当",
    "move": "移動",
    "left": "左",
    "right": "右",
    "pass": "パス",
    "end": "終了",
    "open": "公開",
    "declare": "勝利宣言",
    "object": "反対",
    "accept": "賛成",
}


@pytest.fixture
def make_bot(make_bot: Callable[..., Any]) -> Callable[..., Any]:
    """The conftest's bots, with seeds and salts derived from :data:`SEED`: the first bot and
    the restarted one draw what one uninterrupted bot would."""

    def factory(**kwargs: Any) -> Any:
        bot = make_bot(**kwargs)
        bot.table._keyed_entropy = deterministic_entropy(SEED)
        return bot

    return factory


@dataclass
class Table:
    env: Any
    guild: Any
    channel: Any
    members: dict[str, Any]  # name -> MemberActor
    game_id: str = ""
    seats: dict[str, str] = field(default_factory=dict)  # seat -> name

    @property
    def bot(self) -> Any:
        return self.env.bot


@pytest.fixture
def table(simcord_env: Any, sim_clock: Any, discord_locale: Any) -> Table:
    sim_clock.env = simcord_env
    simcord_env.bot.maintenance.change_interval(seconds=TICK)
    guild = simcord_env.create_guild(name="Esper Club")
    channel = guild.create_text_channel("esper")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in NAMES}
    for name in JAPANESE:
        discord_locale(members[name], "ja")
    return Table(simcord_env, guild, channel, members)


# --- helpers -------------------------------------------------------------------------------------


def lang_of(name: str) -> str:
    return "ja" if name in JAPANESE else "en"


def japanese(text: str) -> str:
    """``move right; end`` -> ``移動 右；終了``; ``start P2`` -> ``開始 惑星2``."""
    parts = text.replace(" P", " 惑星").split(";")
    return "；".join(" ".join(JA_WORDS.get(w, w) for w in part.split()) for part in parts)


def close_dms(table: Table, name: str) -> None:
    """Discord refuses every DM to ``name``, as it does to a user whose DMs are closed."""
    table.env.inject_error(
        "POST",
        f"/channels/{table.members[name].user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


def finished_game(table: Table, number: int, user: int, sheet: str, when: float) -> GameRow:
    """A finished esper game of this server in which ``user`` played ``sheet``, as stored."""
    return GameRow(
        id=f"h-{number:02d}",
        ruleset="esper",
        guild_id=table.guild.id,
        channel_id=table.channel.id + 1000,  # another channel: not a game of this one
        status="finished",
        options={},
        seats=[SeatRow("A", user, "player", 0, accepted=True)],
        state={"seats": {"A": {"sheet": sheet, "alive": True}}},
        created_at=when,
        updated_at=when + 10,
    )


def channel_posts(table: Table) -> list[discord.Message]:
    return [m for m in table.channel.history() if m.author.bot]


def text_of(message: discord.Message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def posts_since(table: Table, count: int) -> str:
    return "\n".join(text_of(m) for m in channel_posts(table)[count:])


def buttons(message: discord.Message) -> dict[str, bool]:
    """The message's buttons: label -> disabled."""
    found: dict[str, bool] = {}
    for row in message.components:
        for item in row.children if isinstance(row, discord.ActionRow) else ():
            if isinstance(item, discord.Button) and item.label:
                found[item.label] = item.disabled
    return found


def menu(message: discord.Message) -> list[str]:
    """The labels of the message's select menus' options."""
    found: list[str] = []
    for row in message.components:
        for item in row.children if isinstance(row, discord.ActionRow) else ():
            if isinstance(item, discord.SelectMenu):
                found += [option.label for option in item.options]
    return found


def seat_label(table: Table, seat: str, lang: str = "en") -> str:
    return t(lang, "esper.seat", seat=seat, player=table.seats[seat])


async def state(table: Table) -> rules.EsperState:
    game = await table.bot.table.game(table.game_id)
    return rules.from_json(game.state)


async def settle(table: Table) -> None:
    await table.bot.outbox.idle()


async def order(table: Table, seat: str, text: str) -> str:
    """``seat`` sends ``text`` as its player would: by ``/order`` in the channel (DMs closed; the
    answer is seen by that player only), else by DM, in Japanese for a Japanese player. Returns
    the bot's acknowledgement, checked to be a sealed order in the player's language."""
    name = table.seats[seat]
    member = table.members[name]
    lang = lang_of(name)
    if name == CLOSED:
        result = await member.slash(table.channel, "order", text=text)
        assert result.ephemeral, "an /order answer is for its sender only"
        answer = str(result.response.content)
    else:
        seen = len(dms(member))
        await member.send_dm(japanese(text) if lang == "ja" else text)
        answer = dms(member)[seen].content  # the answer comes before the step's next prompt
    sealed = "命令を封印しました" if lang == "ja" else "Order sealed for"
    assert answer.startswith("🔒") and sealed in answer, (name, text, answer)
    await settle(table)
    return answer


async def click(table: Table, seat: str, key: str) -> None:
    """The seat's player presses the button labelled ``key`` (in their language) on the bot's
    last DM."""
    name = table.seats[seat]
    member = table.members[name]
    label = t(lang_of(name), key)
    assert buttons(last_dm(member)).get(label) is False, (label, buttons(last_dm(member)))
    await member.user.click(last_dm(member), label=label)
    await settle(table)


async def play_defaults(table: Table, until: Callable[[rules.EsperState], bool]) -> None:
    """Every seat asked sends its default order until ``until`` holds (a follow-up step the
    seed's deal may need: a repick, a balance, a teleport's direction)."""
    for _ in range(20):
        s = await state(table)
        if until(s) or s.ended is not None:
            return
        for seat in rules.awaiting(s):
            await order(table, seat, rules.default_order(s, seat).canonical())
    raise AssertionError("the game did not get there")


async def start(table: Table) -> None:
    role = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = table.guild.add_member(table.env.create_user("mod"), roles=[role])
    await mod.slash(table.channel, "esper season start")
    # This season the refuser played every character of the pack (a finished game each), so
    # refusing is allowed whatever the deal gives (esper.md, Setup 1: "a character that player
    # played this season").
    now = table.bot.table.clock()
    refuser = table.members[REFUSER].id
    async with table.bot.table.repo.transaction() as tx:
        for number, sheet in enumerate(PACK.sheets, 1):
            await tx.insert_game(finished_game(table, number, refuser, sheet, now + number))
    await table.env.advance_time(60)
    close_dms(table, CLOSED)
    alice, *others = (table.members[n] for n in NAMES)
    invited = {f"player{i}": m for i, m in enumerate(others, 1)}
    result = await alice.slash(table.channel, "esper start", **invited, minutes=MINUTES)
    assert not result.ephemeral
    invitation = table.channel.last_message
    for member in others:
        await member.click(invitation, label="Accept")  # the channel's language: English
    await settle(table)
    (game,) = await table.bot.table.games_here(table.channel.id)
    assert game.status == "active" and len(game.seats) == len(NAMES)
    table.game_id = game.id
    by_id = {table.members[n].id: n for n in NAMES}
    table.seats = {s.seat: by_id[s.user_id] for s in game.seats}
    assert list(table.seats) == list("ABCDEF") and list(table.seats.values()) == list(NAMES)


# --- the game ------------------------------------------------------------------------------------


async def test_a_six_player_game_by_dm_with_a_refusal_an_objection_and_a_restart(
    table: Table, make_bot: Callable[..., Any]
) -> None:
    await start(table)
    s = await state(table)
    refuser = next(seat for seat, name in table.seats.items() if name == REFUSER)
    assert sorted(rules.history(s, refuser)[0]) == sorted(PACK.sheets), "the lobby froze it"

    # --- the deal: each open DM shows its own sheet, in its reader's language ------------------
    for seat, name in table.seats.items():
        member = table.members[name]
        if name == CLOSED:
            assert not dms(member), "Discord refused every DM to them"
            continue
        prompt = last_dm(member)
        sheet = PACK.sheets[s.seats[seat].sheet]
        heading = t(lang_of(name), "esper.event.your_sheet", sheet="").strip()
        assert heading in prompt.content and f"**{sheet.name(lang_of(name))}**" in prompt.content
        assert ("Your character sheet" in prompt.content) is (lang_of(name) == "en")
        for other in table.seats:  # nobody else's sheet (a defeat condition may name one)
            if other != seat:
                theirs = PACK.sheets[s.seats[other].sheet]
                assert f"**{theirs.name_en}**" not in prompt.content
                assert f"**{theirs.name_ja}**" not in prompt.content
        # Refusing needs a season's history: only the refuser's button is live.
        refuse = buttons(prompt)[t(lang_of(name), "esper.choice.refuse")]
        assert refuse is (name != REFUSER), name
    (closed,) = [m for m in channel_posts(table) if m.content.startswith("📪")]
    assert f"<@{table.members[CLOSED].id}>" in closed.content and "/order" in closed.content

    refused = PACK.sheets[s.seats[refuser].sheet]
    before = len(channel_posts(table))
    for seat in table.seats:
        await order(table, seat, "refuse" if seat == refuser else "keep")
    after = posts_since(table, before)
    assert t("en", "esper.event.refused", seats=seat_label(table, refuser)) in after
    assert refused.name_en not in after and refused.name_ja not in after, "by seat, not sheet"
    s = await state(table)
    assert s.step == rules.DEAL and s.seats[refuser].refused

    # --- the deal again: the refusal is used up; keeps by buttons and text ---------------------
    assert buttons(last_dm(table.members[REFUSER]))["拒否"] is True, "once per game"
    await click(table, "E", "esper.choice.keep")  # erin, English
    await click(table, "D", "esper.choice.keep")  # dave, 確定
    for seat in "ABCF":
        await order(table, seat, "keep")
    s = await state(table)
    assert s.step == rules.SILHOUETTE, s.step

    # --- silhouettes: nobody answers, the deadline passes, the defaults are revealed -----------
    expected = {seat: rules.default_silhouette(s, seat) for seat in s.order}
    for seat, name in table.seats.items():
        if name != CLOSED:  # each open DM offers what the playing card allows, as a menu
            sheet = PACK.sheets[expected[seat]]
            assert sheet.name(lang_of(name)) in menu(last_dm(table.members[name]))
    before = len(channel_posts(table))
    await table.env.advance_time(MINUTES * 60 + TICK)
    await table.bot.table.tick()  # the deadline worker (the maintenance loop may have run it)
    await settle(table)
    s = await state(table)
    assert s.step not in (rules.DEAL, rules.SILHOUETTE), s.step
    # each default was drawn among what the card allows; two that clash keep one of them
    again = s.waiting if s.step == rules.REPICK else []
    for seat in s.order:
        assert s.seats[seat].silhouette == (None if seat in again else expected[seat])
    after = posts_since(table, before)
    picks = [
        t("en", "esper.pick", seat=seat_label(table, seat), name=PACK.sheets[sil].name_en)
        for seat, sil in expected.items()
    ]
    assert "Silhouettes revealed: " + ", ".join(picks) + "." in after
    for seat, sil in expected.items():
        assert t("en", "game.defaulted_order", seat=seat, order=f"silhouette {sil}") in after
    await play_defaults(table, until=lambda st: st.step == rules.START)

    # --- the start step: the ambush vote (withheld) and starting planets -----------------------
    s = await state(table)
    defenders = [seat for seat in s.order if rules.side_of(s, seat) == rules.DEFENDER]
    assert defenders, "EVIL silhouettes set the ambush"
    before = len(channel_posts(table))
    for index, seat in enumerate(rules.awaiting(s)):
        if seat in defenders:
            await order(table, seat, f"ambush P3-2 runner {defenders[0]}")
        else:
            await order(table, seat, f"start P{1 + index % 2}")
    s = await state(table)
    assert s.step == rules.TURN and s.ambush == "P3-2"
    assert "P3-2" not in posts_since(table, before), "the ambush is the EVIL silhouettes' secret"
    for seat in defenders:
        name = table.seats[seat]
        if name != CLOSED:
            lang = lang_of(name)
            runner = seat_label(table, defenders[0], lang)
            told = t(lang, "esper.event.ambush_set", spot="P3-2", runner=runner)
            assert any(told in m.content for m in dms(table.members[name])), name

    # --- turns by DM text, a DM button and /order, until someone declares -----------------------
    ways: set[str] = set()
    declarer = None
    for _ in range(MAX_TURNS):
        s = await state(table)
        assert s.ended is None, s.ended
        if s.step != rules.TURN:
            await play_defaults(table, until=lambda st: st.step == rules.TURN)
            continue
        active = s.active
        assert active is not None
        name = table.seats[active]
        before = len(channel_posts(table))
        if name == CLOSED:
            way = "order"
            await order(table, active, "move right; end")
        elif "text" not in ways:
            way = "text"
            await order(table, active, "move right; end")
        elif "button" not in ways:
            way = "button"
            await click(table, active, "esper.choice.move_right")
        else:
            declarer = active
            break
        ways.add(way)
        assert (await state(table)).steps > s.steps, f"the {way} order was played"
        planet, index = rules.ring(s.seats[active].spot or "") or (0, 0)
        to = rules.spot_name(planet, index + 1)
        moved = t("en", "esper.event.moved.move", seat=seat_label(table, active), to=to)
        assert moved in posts_since(table, before)
    # This seed's turn order gives the closed-DM player a turn before the declaration.
    assert declarer is not None and ways == {"text", "button", "order"}, ways

    # --- a declaration: the question reaches every other living player by DM --------------------
    seen = {name: len(dms(member)) for name, member in table.members.items()}
    before = len(channel_posts(table))
    await order(table, declarer, "open; declare")
    s = await state(table)
    assert s.step == rules.OBJECTION and s.declaration is not None
    assert s.seats[declarer].open
    voters = rules.awaiting(s)
    assert voters == [seat for seat in s.order if seat != declarer and s.seats[seat].alive]
    after = posts_since(table, before)
    declared = t(
        "en",
        "esper.event.declared",
        seat=seat_label(table, declarer),
        alignment=present.alignment_word("en", s.seats[declarer].alignment),
        voters=present.seats_label(voters, table.seats, "en"),
    )
    assert declared in after  # names every voter: the closed-DM player reads it here
    assert PACK.sheets[s.seats[declarer].sheet].name_en in after, "the declarer's sheet opens"
    for seat in s.order:
        name = table.seats[seat]
        member = table.members[name]
        if name == CLOSED:
            assert not dms(member)  # asked in the channel's status, answers by /order
            continue
        lang = lang_of(name)
        # who declared and for which side, as the declaration announced it (issue 35)
        side = present.alignment_word(lang, s.seats[declarer].alignment)
        asked = t(lang, "deadlines.objection", seat=declarer, side=side)
        news = dms(member)[seen[name] :]
        if seat == declarer:
            assert not any(asked in m.content for m in news), "the declarer is not asked"
            continue
        assert any(asked in m.content for m in news), (name, [m.content for m in news])
        answers = {t(lang, "esper.choice.accept"), t(lang, "esper.choice.object")}
        assert answers <= set(buttons(news[-1])), buttons(news[-1])

    # --- the window: two answers, a restart, an objection --------------------------------------
    by_dm = [seat for seat in voters if table.seats[seat] != CLOSED]
    first, second = by_dm[0], by_dm[1]
    await order(table, first, "accept")
    await click(table, second, "esper.choice.accept")
    assert set(await table.bot.table.current_orders(table.game_id)) == {first, second}
    await table.env.restart_bot(make_bot())
    await settle(table)
    s = await state(table)
    assert s.step == rules.OBJECTION, "still in the window after the restart"
    assert set(await table.bot.table.current_orders(table.game_id)) == {first, second}
    rest = [seat for seat in voters if seat not in (first, second)]
    # A Japanese player objects if one is left to answer (反対), else the first one left.
    objector = next((seat for seat in rest if table.seats[seat] in JAPANESE), rest[0])
    before = len(channel_posts(table))
    for seat in rest:
        await order(table, seat, "object" if seat == objector else "accept")
    after = posts_since(table, before)
    assert (
        f"Objections to {seat_label(table, declarer)}'s declaration from "
        f"{seat_label(table, objector)}: play goes on."
    ) in after
    s = await state(table)
    assert s.ended is None and s.declaration is None
    assert s.step == rules.TURN and s.active == declarer, "the declarer's turn goes on"
    assert s.seats[declarer].open and s.seats[declarer].declared_turn is not None

    # --- play goes on: the declarer finishes the turn, the next one opens ----------------------
    turns = s.turn
    await order(table, declarer, "move right; end")
    s = await state(table)
    game = await table.bot.table.game(table.game_id)
    assert game.status == "active" and s.ended is None
    assert s.turn == turns + 1 and s.step == rules.TURN and s.active != declarer
    assert rules.awaiting(s) == [s.active]
