"""Issue 35, "What it must show": in SimCord, Japanese players play the first real turn of every
ruleset with buttons and select menus only (no typed DM order, no ``/order``), setup steps
included; each sealed order is echoed in Japanese; ❓ under the prompt answers the ruleset's
Japanese help and 📋 the clicker's own sheet in Japanese (never another seat's secret); and a
Japanese ``/game status`` sent from a DM finds the player's game.

Every seat has a Japanese Discord client and a Japanese name (a display name is shown in the
answers, and an English one would read as English showing through), and every seat answers every
step it is asked by clicking, as a player on a phone would: a button or a menu option of each
choice group, the next group arriving as an ephemeral follow-up, until the order is sealed.
Tactics' seat A makes its sheets with the 📝 builder's menus (B presses the prompt's button), and
so would any seat whose prompt offers the builder alone. A step that can only be answered by
typing fails here, naming the ruleset, the step and the prompt: the fix is a button, not a typed
order in this test.

One game per ruleset; the problems of a game (an English word in an acknowledgement, a wrong ❓
or 📋 answer) are gathered and reported together, so one run shows all that is left to do.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot import messages, registry
from bot.client import deterministic_entropy
from bot.i18n import t
from bot.orderbuilder import draft_of
from tests.cogs.buttons_only_ja_helpers import (
    BUILDER,
    ORDER,
    Played,
    Table,
    bot_dms,
    component_text,
    components,
    english_words,
    japanese_table,
    loaded_game,
    order_components,
)

JA = "ja"
# The deal, draws and dice (PBP_BUTTONS_ONLY_SEED=… plays other games, to look for more steps).
SEED = os.environ.get("PBP_BUTTONS_ONLY_SEED", "buttons-only-ja")
NAMES = ("あかり", "ひかる", "かなで", "つばさ", "みのり")  # seats A to E, in join order
MAX_ORDERS = 60  # orders sealed (every seat's setup included) before the first real turn
MAX_CLICKS = 12  # clicks of one order (choice groups, builder menus) before giving up
SEATS = "ABCDEFGHIJ"


# --- starting each ruleset's game, as its own SimCord tests do ------------------------------------


async def accept_all(table: Table, invitation: Any, players: list[Any]) -> None:
    """Every invited player presses Accept (found by its id: its label is the channel's)."""
    for member in players:
        accept = next(c for c in component_text(invitation) if c.endswith(":accept"))
        await member.click(table.channel.last_message, custom_id=accept)


async def start_challenge(table: Table, command: str, **options: Any) -> None:
    alice, bob = table.players[0], table.players[1]
    await alice.slash(table.channel, command, opponent=bob, **options)
    await accept_all(table, table.channel.last_message, [bob])


async def start_dungeon(table: Table) -> None:
    alice, bob = table.players[0], table.players[1]
    await alice.slash(table.channel, "dungeon start", scenario="crypt", player2=bob)
    await accept_all(table, table.channel.last_message, [bob])


async def start_esper(table: Table) -> None:
    alice, *others = table.players
    invited = {f"player{i}": m for i, m in enumerate(others, 1)}
    await alice.slash(table.channel, "esper start", **invited)
    await accept_all(table, table.channel.last_message, others)


# --- what a ruleset's "first real turn" is --------------------------------------------------------


def arena_real(state: Any) -> bool:
    return state is not None  # the first step is a turn: no setup


def tactics_real(state: Any) -> bool:
    return bool(state.step == "play")  # after the rosters and the deployment


def apeiron_real(state: Any) -> bool:
    from cogs.apeiron import rules

    return bool(state.step == rules.PLAY)  # an activation, after the decks and the deployment


def dungeon_real(state: Any) -> bool:
    return bool(
        state.phase == "act"
    )  # a character's turn, after the card picks (and a monster tie)


def esper_real(state: Any) -> bool:
    from cogs.esper import rules

    return bool(state.step == rules.TURN)  # a turn, after the deal, silhouettes, keys and the start


# --- what only a seat knows, for the 📋 check -----------------------------------------------------


def apeiron_secrets(loaded: Any, seat: str) -> list[str]:
    """The seat's chest as its own 📋 lists it, and each card in it."""
    lines = loaded.presenter.private_lines(loaded.view(seat), seat, JA)
    head = t(JA, "apeiron.dm.chest", cards="")
    chest = [line for line in lines if line.startswith(head)]
    state = loaded.state
    return chest + [state.pack.chest[c].name_ja for c in state.decks[seat]["chest"]]


def esper_secrets(loaded: Any, seat: str) -> list[str]:
    """The seat's character: the first line of its own 📋 (name, alignment, card), its name."""
    lines = loaded.presenter.private_lines(loaded.view(seat), seat, JA)
    sheet = loaded.state.pack.sheets[loaded.state.seats[seat].sheet]
    return [*lines[:1], sheet.name(JA)]


def hidden_from(loaded: Any, reader: str, facts: list[str]) -> list[str]:
    """The facts the reader's own view does not hold (a card both chests have, a character a
    defeat condition names or a silhouette shows, is the reader's to know too)."""
    seen = json.dumps(loaded.view(reader), ensure_ascii=False)
    return [fact for fact in facts if fact and fact not in seen]


@dataclass(frozen=True)
class Ruleset:
    key: str
    players: int
    start: Callable[[Table], Awaitable[None]]
    real: Callable[[Any], bool]
    secrets: Callable[[Any, str], list[str]] | None = None
    # Seats that answer with the 📝 builder where the prompt offers one (the others press the
    # prompt's own buttons): tactics' sheets are made with it.
    builder_seats: str = ""


RULESETS = {
    "arena": Ruleset("arena", 2, lambda tb: start_challenge(tb, "arena challenge"), arena_real),
    "tactics": Ruleset(
        "tactics",
        2,
        lambda tb: start_challenge(tb, "tactics challenge"),
        tactics_real,
        builder_seats="A",
    ),
    "apeiron": Ruleset(
        "apeiron",
        2,
        lambda tb: start_challenge(tb, "apeiron challenge"),
        apeiron_real,
        apeiron_secrets,
    ),
    "dungeon": Ruleset("dungeon", 2, start_dungeon, dungeon_real),
    "esper": Ruleset("esper", 5, start_esper, esper_real, esper_secrets),
}


# --- the test -------------------------------------------------------------------------------------


@pytest.fixture
def make_bot(make_bot: Callable[..., Any]) -> Callable[..., Any]:
    """The conftest's bots, with seeds and salts derived from :data:`SEED`: the same deal, draws
    and dice every run, so a step that needs typing fails every run, not one run in some."""

    def factory(**kwargs: Any) -> Any:
        bot = make_bot(**kwargs)
        bot.table._keyed_entropy = deterministic_entropy(SEED)
        return bot

    return factory


@pytest.fixture
def table_of(simcord_env: Any, sim_clock: Any, discord_locale: Any) -> Callable[[int], Table]:
    def make(players: int) -> Table:
        return japanese_table(simcord_env, sim_clock, discord_locale, NAMES[:players])

    return make


@pytest.mark.parametrize("key", list(RULESETS))
async def test_a_japanese_player_plays_a_turn_with_buttons_only(
    key: str, table_of: Callable[[int], Table]
) -> None:
    ruleset = RULESETS[key]
    table = table_of(ruleset.players)
    await ruleset.start(table)
    (game,) = await table.bot.table.games_here(table.channel.id)
    table.game_id = game.id
    problems: list[str] = []

    played = await play_until_real_turn(table, ruleset, problems)
    seat, prompt = played.seat, played.prompt
    player = table.player_of(seat)

    # ❓: the ruleset's help, in Japanese
    help_id = next((c for c in component_text(prompt) if c.startswith("pbp:h:")), None)
    if help_id is None:
        problems.append(f"{key}: no ❓ button under the prompt of the real turn")
    else:
        helped = await player.user.click(prompt, custom_id=help_id)
        present = registry.get(key).presenter
        expected = t(JA, "dm.help.title", ruleset=present.title(JA)) + "\n" + present.order_help(JA)
        answer = helped.response.content if helped.response else ""
        if not helped.ephemeral or answer != expected:
            problems.append(
                f"{key}: ❓ did not answer the Japanese help privately:\n{answer[:400]}"
            )
        if present.order_help(JA) == present.order_help("en"):
            problems.append(f"{key}: the Japanese help is the English one")
        english = english_words(answer)
        if english:
            problems.append(f"{key}: English in ❓: {english}")

    # 📋: the seat's own sheet, in Japanese, and no other seat's secret
    mine_id = next((c for c in component_text(prompt) if c.startswith("pbp:m:")), None)
    if mine_id is None:
        problems.append(f"{key}: no 📋 button under the prompt of the real turn")
    else:
        shown = await player.user.click(prompt, custom_id=mine_id)
        answer = "\n".join(m.content for m in [shown.response, *shown.followups] if m)
        loaded = await loaded_game(table)
        expected = messages.mine_text(loaded, seat, JA)
        if not shown.ephemeral or answer != expected:
            problems.append(f"{key}: 📋 is not seat {seat}'s sheet now:\n{answer[:400]}")
        if not answer.startswith(t(JA, "dm.mine.title", game=table.game_id, seat=seat)):
            problems.append(f"{key}: 📋 does not open with its Japanese title:\n{answer[:200]}")
        english = english_words(answer)
        if english:
            problems.append(f"{key}: English in 📋 of seat {seat}: {english}")
        if ruleset.secrets is not None:
            hidden = {
                other.seat: hidden_from(loaded, seat, ruleset.secrets(loaded, other.seat))
                for other in loaded.game.seats
                if other.seat != seat
            }
            assert any(hidden.values()), f"{key}: no other seat's secret to look for"
            for other_seat, secrets in hidden.items():
                for secret in secrets:
                    if secret in answer:
                        problems.append(f"{key}: 📋 of {seat} shows {other_seat}'s {secret}")
            missing = [s for s in ruleset.secrets(loaded, seat) if s not in answer]
            if missing:
                problems.append(f"{key}: 📋 of {seat} lacks its own {missing}:\n{answer}")

    # /game status from the player's DM: finds the game (the only one), in Japanese
    status = await player.user.slash("game status")
    reply = status.response
    embed = reply.embeds[0] if reply and reply.embeds else None
    title = registry.get(key).presenter.title(JA)
    if not status.ephemeral or embed is None or not (embed.title or "").startswith(title):
        problems.append(
            f"{key}: /game status in a DM did not find the game in Japanese: "
            f"{(reply.content if reply else '')[:200]} {embed.title if embed else ''}"
        )
    elif table.game_id not in (embed.title or ""):
        problems.append(f"{key}: /game status in a DM shows another game: {embed.title}")
    else:
        text = "\n".join(
            [embed.title or "", embed.description or ""]
            + [f"{f.name} {f.value}" for f in embed.fields]
        )
        english = english_words(text)
        if english:
            problems.append(f"{key}: English in /game status: {english}")

    # buttons only: no player typed anything to the bot
    for member in table.players:
        typed = [m.content for m in member.user.dm_channel.history() if not m.author.bot]
        assert typed == [], f"{key}: {member.name} typed {typed}"
    assert not problems, "\n\n".join(problems)


async def play_until_real_turn(table: Table, ruleset: Ruleset, problems: list[str]) -> Played:
    """Every seat asked answers by buttons, step after step, until a seat has sealed its order
    in the ruleset's first real turn: that seat and the prompt it answered."""
    for _ in range(MAX_ORDERS):
        loaded = await loaded_game(table)
        assert loaded.game.status == "active", f"{ruleset.key}: the game is {loaded.game.status}"
        waiting = loaded.awaiting()
        sealed = await table.bot.table.current_orders(table.game_id)
        todo = [seat for seat in waiting if seat not in sealed]
        assert todo, f"{ruleset.key}: nobody to answer at step {loaded.game.step}"
        real = ruleset.real(loaded.state)
        seat = todo[0]
        played = await answer_by_buttons(table, ruleset, seat, loaded)
        ack = played.ack
        if "🔒" not in ack or "封印しました" not in ack:
            raise AssertionError(
                f"{ruleset.key}: seat {seat}'s buttons did not seal an order at step "
                f"{loaded.game.step}; the last answer:\n{ack}"
            )
        english = english_words(ack)
        if english:
            problems.append(
                f"{ruleset.key}: English in seat {seat}'s acknowledgement (by {played.via}) at "
                f"step {loaded.game.step}: {english}\n{ack}"
            )
        await table.bot.outbox.idle()
        await table.env.settle()
        if real:
            return played
    raise AssertionError(f"{ruleset.key}: no real turn within {MAX_ORDERS} orders")


async def answer_by_buttons(table: Table, ruleset: Ruleset, seat: str, loaded: Any) -> Played:
    """The seat's latest prompt for this step, answered with its order buttons and menus, or
    with the ruleset's 📝 builder (where the seat builds, or the prompt has no order button)."""
    key = ruleset.key
    member = table.player_of(seat)
    step = loaded.game.step
    prompt = latest_prompt(member, table.game_id, step)
    if prompt is None:
        stage = getattr(loaded.state, "step", None) or getattr(loaded.state, "phase", "turn")
        dms = bot_dms(member)
        last = dms[-1].content if dms else "(no DM)"
        raise AssertionError(
            f"{key}: seat {seat} is asked at step {step} ({stage}) by a prompt with no order "
            f"button or menu: a typed-only answer. Its last DM:\n{last[:1500]}"
        )
    has_builder = any(BUILDER.fullmatch(c) for c in component_text(prompt))
    builds = has_builder and seat in ruleset.builder_seats
    if order_components(prompt, table.game_id) and not builds:
        ack = await click_through(member.user, prompt, table.game_id, key, seat)
        return Played(seat, prompt, ack, "the prompt's buttons")
    ack = await build_order(table, key, seat, prompt, loaded)
    return Played(seat, prompt, ack, "the 📝 builder: its sealed answer")


def latest_prompt(member: Any, game_id: str, step: int) -> discord.Message | None:
    """The seat's latest DM that carries order components (or a builder) for this step."""
    for message in reversed(bot_dms(member)):
        for custom_id in component_text(message):
            order = ORDER.fullmatch(custom_id)
            builder = BUILDER.fullmatch(custom_id)
            for match in (order, builder):
                if match and match["game"] == game_id and int(match["turn"]) == step:
                    return message
    return None


async def click_through(user: Any, message: Any, game_id: str, key: str, seat: str) -> str:
    """Answer each choice group (a message offers one: its buttons, or its menu), the next group
    arriving privately, until the answer offers no more choices: the acknowledgement.

    Seat A takes the first enabled choice of a group, B the second, and so on (back to the first
    past the last): two seats do not take the same deck (Apeiron's presets: a chest is its
    owner's secret only if the other seat took another preset) nor clash on a silhouette
    (Esper)."""
    place = SEATS.index(seat)
    for _ in range(MAX_CLICKS):
        offered = order_components(message, game_id)
        if not offered:
            return str(message.content)
        menu = offered[0]
        if menu.get("type") == 3:  # a select menu: its options are the enabled choices
            options = menu["options"]
            value = options[place % len(options)]["value"]
            result = await user.select(message, [value], custom_id=menu["custom_id"])
        else:
            button = offered[place % len(offered)]
            result = await user.click(message, custom_id=button["custom_id"])
        if result.response is None:
            raise AssertionError(f"{key}: seat {seat}'s click got no answer")
        # The next group comes privately; a later click edits that private message.
        assert result.response.ephemeral, f"{key}: seat {seat}'s click was answered in public"
        message = result.response
    raise AssertionError(f"{key}: seat {seat} clicked {MAX_CLICKS} times without sealing")


# --- the 📝 builder (tactics: the sheet is built with menus, then sealed) -------------------------


@dataclass
class Builder:
    """The builder's menus and buttons by what they pick (``tb:<game>:<turn>:<what>[:<arg>]``)."""

    message: Any
    by_what: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def of(cls, message: Any) -> Builder:
        found: dict[str, dict[str, Any]] = {}
        for c in components(message):
            parts = str(c.get("custom_id", "")).split(":")
            if len(parts) >= 4:
                found.setdefault(parts[3], c)
        return cls(message, found)


async def build_order(table: Table, key: str, seat: str, prompt: Any, loaded: Any) -> str:
    member = table.player_of(seat)
    builder_id = next(c for c in component_text(prompt) if BUILDER.fullmatch(c))
    opened = await member.user.click(prompt, custom_id=builder_id)
    assert opened.ephemeral and opened.response is not None, f"{key}: the builder did not open"
    message = opened.response
    user = member.user

    async def choose(what: str, values: list[str] | None = None, at: int = 0) -> Any:
        nonlocal message
        menu = Builder.of(message).by_what[what]
        chosen = values or [menu["options"][at]["value"]]
        result = await user.select(message, chosen, custom_id=menu["custom_id"])
        assert result.response is not None, f"{key}: the builder's {what} menu got no answer"
        message = result.response
        return message

    async def choose_square(at: int = 0) -> None:
        """The squares' menu the builder shows now; a column first when more than 25 are
        offered, then the squares of that column. ``at``: which option (-1 the last)."""
        for _ in range(2):
            what = first_square_menu(message)
            await choose(what, at=at)
            if not what.startswith("col"):
                return

    step = loaded.state.step
    for _ in range(MAX_CLICKS):
        menus = Builder.of(message).by_what
        if step == "roster" and "pool" in menus and draft_lines(message) < 1:
            await choose("master")
            pool = [o["value"] for o in Builder.of(message).by_what["pool"]["options"]]
            cheap = [v for v in ("knight", "guardian", "cleric") if v in pool] or pool[:3]
            await choose("pool", cheap)
            continue
        if step == "deploy" and "deploy" in menus and draft_lines(message) < 2:
            await choose("deploy")
            await choose_square()
            continue
        if step == "play" and "unit" in menus and draft_lines(message) < 1:
            await choose("unit")
            await choose_square(-1)  # the last square offered: not where the unit stands
            await choose("act")  # the first action: wait where it ends
            continue
        seal = Builder.of(message).by_what.get("seal")
        assert seal is not None, f"{key}: the builder offers no Seal:\n{message.content[:600]}"
        result = await user.click(message, custom_id=seal["custom_id"])
        assert result.response is not None, f"{key}: Seal got no answer"
        return str(result.response.content)
    raise AssertionError(f"{key}: the builder did not reach Seal")


def draft_lines(message: Any) -> int:
    return len(draft_of(message.content))


def first_square_menu(message: Any) -> str:
    """The menu the builder shows after a unit was chosen (a column's, or the squares')."""
    menus = Builder.of(message).by_what
    for what in menus:
        if what.startswith("col"):
            return what
    return next(what for what in menus if what not in ("back", "seal", "undo", "clear"))
