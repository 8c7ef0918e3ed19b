"""Drive the real ``python -m bot`` process through the fake Discord, as players would.

- :class:`BotProcess` starts the bot (a subprocess with ``DISCORD_TOKEN=fake``, the fake's URLs,
  a temporary SQLite file, deterministic test entropy), kills it with SIGKILL, restarts it, and
  can arm a named crash point (``PBP_FAULT_POINT``, see ``bot/faults.py``) for the next start.
- :class:`Script` is what a ruleset needs to be played: the slash command that challenges, and a
  *scripted player*: a small function from the DM prompt (its text and buttons) to order text.
  Arena's is :func:`arena_player`; a new ruleset adds its own ``Script`` to ``SCRIPTS``.
- :class:`Table` plays games: challenge (slash interaction), accept (button interaction), then
  each seat waits for its DM prompt, sends its order as a DM (MESSAGE_CREATE) and waits for the
  bot's reply. When the bot dies before replying, the player waits for the restart and asks
  ``/game orders`` (as a person would) whether the order is in before sending it again.
- :func:`dump` reads the bot's database (the parts that must not depend on crashes), for
  comparing a crashed run with an uninterrupted one.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import os
import random
import re
import signal
import sqlite3
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.i18n import t
from tests.fakediscord import FakeDiscord, Interaction, Message

ROOT = Path(__file__).resolve().parents[2]
# An order button or menu (``pbp:o:…``, ``pbp:s:…``, its picks: each the chosen choice's place
# in its group) or a ruleset's sheet-builder button (``pbp:b:…``).
ORDER_BUTTON = re.compile(
    r"^pbp:(?:[os]:(?P<game>[^:]+):(?P<turn>\d+):(?P<picks>[^:]*)|b:(?P<bgame>[^:]+):(?P<bturn>\d+))$"
)
ACK = re.compile(
    r"Order (sealed|replaced) for (?P<game>\S+), turn (?P<turn>\d+)"
    r".*?Receipt: `(?P<receipt>[0-9a-f]+)`",
    re.S,
)
ORDERS_LINE = re.compile(
    r"^(?P<game>g-\d+) \(turn (?P<turn>\d+), seat (?P<seat>\w+)\): (?P<rest>.*)$"
)
GAME_OVER = re.compile(r"^Game (?P<game>\S+) is over", re.M)


def carries_prompt(message: Message) -> bool:
    """A bot DM that is (or carries) a prompt or a notice, not only the answer to a player's DM:
    the acknowledgement of an order that completed a step rides on the next prompt, as a reply
    to the order, the acknowledgement first and the prompt after a blank line."""
    return message.reference_id is None or "\n\n" in message.content


def prompt_part(message: Message) -> str:
    """A prompt DM's content without the acknowledgement it may carry (who completed a step,
    and so whose prompt carries one, depends on timing, not on the game)."""
    if message.reference_id is None:
        return message.content
    return message.content.split("\n\n", 1)[-1]


def normalized(key: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A dump's rows without what timing decides: the acknowledgement a DM carries."""
    if key != "outbox":
        return rows
    out = []
    for row in rows:
        payload = row.get("payload")
        if isinstance(payload, str):  # every row re-serialized alike, with or without an ack
            data = json.loads(payload)
            data.pop("ack", None)
            row = {**row, "payload": json.dumps(data, sort_keys=True)}
        out.append(row)
    return out


class BotDied(Exception):
    """The bot process died while a player was waiting for it."""


# --- the bot process -----------------------------------------------------------------------------


class BotProcess:
    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        *,
        entropy_seed: str = "e2e",
        extra_env: dict[str, str] | None = None,
        log_level: str = "WARNING",
        shards: tuple[int, ...] | None = None,
        log_name: str = "bot.log",
    ) -> None:
        self.fake = fake
        # One of several shard processes (SHARD_IDS): up when its shards are, and its death
        # ends only their gateway sessions. None: the unsharded bot.
        self.shards = shards
        self.workdir = workdir
        self.db_path = workdir / "bot.sqlite3"
        self.log_path = workdir / log_name
        self.entropy_seed = entropy_seed
        self.extra_env = extra_env or {}
        self.log_level = log_level
        self.proc: asyncio.subprocess.Process | None = None
        self.generation = 0
        self.up = asyncio.Event()
        self.died = asyncio.Event()
        self.starts = 0
        self.deaths = 0  # counts every exit; a waiter remembers it to notice the next one
        self.kills = 0
        self.self_kills = 0  # deaths at an armed PBP_FAULT_POINT
        self.fault: str | None = None
        self._monitor: asyncio.Task[None] | None = None
        self.on_death: Callable[[BotProcess], None] | None = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    async def start(self, fault: str | None = None, timeout: float = 30.0) -> None:
        env = {
            k: v
            for k, v in os.environ.items()
            # METRICS_: a developer's own METRICS_PORT would have every bot bind the same port.
            if not k.startswith(("DISCORD_", "PBP_", "METRICS_"))
            and k not in ("DATABASE_URL", "DEV_GUILD_ID")
        }
        env.update(self.fake.env())
        env.update(
            DATABASE_URL=f"sqlite:///{self.db_path}",
            LOG_LEVEL=self.log_level,
            PBP_TEST_ENTROPY_SEED=self.entropy_seed,
            PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1",
        )
        if fault:
            env["PBP_FAULT_POINT"] = fault
        env.update(self.extra_env)
        self.fault = fault
        ready_event = self.fake.ready
        if self.shards is not None:
            for shard in self.shards:
                self.fake.shard_ready[shard].clear()
        else:
            self.fake.ready.clear()
        self.died.clear()
        log = self.log_path.open("ab")
        log.write(f"\n=== start {self.starts + 1} fault={fault} ===\n".encode())
        log.flush()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=self.workdir,  # no .env there: the environment is all it reads
            env=env,
            stdout=log,
            stderr=log,
        )
        log.close()
        self.starts += 1
        self._monitor = asyncio.create_task(self._watch(self.proc))
        ready = asyncio.ensure_future(
            ready_event.wait()
            if self.shards is None
            else asyncio.gather(*(self.fake.shard_ready[n].wait() for n in self.shards))
        )
        died = asyncio.create_task(self.died.wait())
        done, pending = await asyncio.wait(
            {ready, died}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        for task in pending:
            task.cancel()
        # Dead already, READY or not (a crash point just after READY): ``_watch`` has cleared
        # ``up``, and setting it now would leave a dead bot up, which nobody restarts.
        if self.died.is_set():
            return
        if ready in done:
            self.generation += 1
            self.up.set()
        else:
            raise TimeoutError(f"the bot did not connect in {timeout} s; see {self.log_path}")

    async def _watch(self, proc: asyncio.subprocess.Process) -> None:
        code = await proc.wait()
        if proc is not self.proc:
            return
        self.up.clear()
        self.deaths += 1
        self.fake.bot_gone(self.shards)
        if code == -signal.SIGKILL and self.fault:
            self.self_kills += 1
        self.died.set()
        if self.on_death is not None:
            self.on_death(self)

    async def kill(self) -> None:
        """SIGKILL now (no clean shutdown), and wait until it is gone."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.kills += 1
        self.fault = None
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGKILL)
        await self.died.wait()

    async def stop(self) -> None:
        """A clean stop (SIGTERM) at the end of a test."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.on_death = None
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 10)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        if self._monitor is not None:
            await self._monitor

    def log(self) -> str:
        return self.log_path.read_text("utf-8", "replace") if self.log_path.exists() else ""

    def errors(self) -> list[str]:
        """Logged errors and tracebacks (a crash point's SIGKILL leaves none)."""
        return [
            line
            for line in self.log().splitlines()
            if " ERROR " in line or line.startswith("Traceback")
        ]


# --- scripted players ----------------------------------------------------------------------------


@dataclass
class Prompt:
    """A seat's DM prompt for one turn: what a player reads and the buttons they could press."""

    game: str
    turn: int
    content: str
    buttons: list[tuple[str, str, bool]]  # (custom_id, label, disabled)

    def tokens(self, words: dict[str, str], *, enabled_only: bool = True) -> list[str]:
        """The order words of the order buttons, read from their labels as a player reads them
        (``words``: label -> token; a button's id carries its place in its group, not its
        words)."""
        found = []
        for custom_id, label, disabled in self.buttons:
            match = ORDER_BUTTON.match(custom_id)
            if match and match["picks"] is not None and not (enabled_only and disabled):
                found.append(words[label])
        return found


def button_words(tokens: dict[str, str]) -> dict[str, str]:
    """label (English) -> token, from token -> the label's catalogue key."""
    return {t("en", key): token for token, key in tokens.items()}


@functools.cache
def arena_moves() -> dict[str, str]:
    from cogs.arena import rules as arena

    return button_words({m: arena._label_key("move", m) for m in arena.MOVES})


@functools.cache
def dungeon_choices() -> dict[str, str]:
    """A card's button (what the card does, ``dungeon.choice.card_label``) and a monster tie's
    option (``N. …``), as English labels, to their order words. A turn is a select menu, whose
    options the scripted player does not read: it passes (the bot runs the monsters)."""
    from cogs.dungeon import content, words

    words_of: dict[str, str] = {}
    for cls in content.classes().values():
        for card in cls.cards:
            text = words.card_text(card.to_json(), "en", bold=False)
            words_of[t("en", "dungeon.choice.card_label", text=text)] = f"card {card.id}"
    return words_of


def dungeon_token(label: str, words_of: dict[str, str]) -> str:
    """A dungeon button's order words: a card's, or a tie's ``option N`` (its label's number)."""
    if label in words_of:
        return words_of[label]
    clipped = label.removesuffix("…")  # a label past Discord's 80 characters is cut
    for whole, token in words_of.items():
        if label != clipped and whole.startswith(clipped):
            return token
    number = label.split(".", 1)[0]
    return f"option {number}" if number.isdigit() else "pass"


Player = Callable[[Prompt, random.Random, set[str]], str]


def arena_player(prompt: Prompt, rng: random.Random, refused: set[str]) -> str:
    """One move among the enabled move buttons, one turn; never a text refused before."""
    turns = ["none", "left", "right"]
    options = [f"{m} {t}" for m in prompt.tokens(arena_moves()) for t in turns]
    options = [o for o in options if o not in refused] or ["stay none"]
    charges = [o for o in options if o.startswith("charge")]
    return rng.choice(charges if charges and rng.random() < 0.7 else options)


def tactics_player(prompt: Prompt, rng: random.Random, refused: set[str]) -> str:
    """A roster, a lineup in its own zone, then a sheet each turn: the knight steps forward on
    turn 1 and everyone holds after that (a 10-turn game to the DP result)."""
    seat = "A" if "you are **A**" in prompt.content else "B"
    home, front = ("9", "10") if seat == "A" else ("2", "1")
    if "· Roster**" in prompt.content:
        return "warlord knight archer cleric"
    if "· Deployment**" in prompt.content:
        return f"warlord E{home}, knight D{home}, archer F{front}"
    step = f"knight >D{8 if seat == 'A' else 3}"
    options = [o for o in (step, "wait") if o not in refused]
    return options[0] if "Turn 1/" in prompt.content else "wait"


def dungeon_player(prompt: Prompt, rng: random.Random, refused: set[str]) -> str:
    """A co-op party member: a random card of the round's picks (the buttons), then the first
    enabled choice on each step, ``pass`` when nothing else is left; the bot runs the monsters."""
    words_of = dungeon_choices()
    labels = [
        label
        for custom_id, label, disabled in prompt.buttons
        if ORDER_BUTTON.match(custom_id) and not disabled
    ]
    options = [dungeon_token(label, words_of) for label in labels]
    options = [o for o in options if o not in refused]
    if "card picks" in prompt.content:
        return rng.choice(options) if options else "pass"
    return options[0] if options else "pass"


@dataclass(frozen=True)
class Script:
    ruleset: str
    challenge: str  # the slash command's path
    options: Callable[[int], dict[str, Any]]  # the challenge's options, given the opponent
    player: Player


SCRIPTS: dict[str, Script] = {
    "arena": Script(
        "arena",
        "arena challenge",
        lambda opponent: {"opponent": opponent, "hours": 0},
        arena_player,
    ),
    "tactics": Script(
        "tactics",
        "tactics challenge",
        lambda opponent: {"opponent": opponent, "minutes": 0},
        tactics_player,
    ),
    # A party of two (the challenger and ``player2``, who accepts): the bot runs the monsters.
    "dungeon": Script(
        "dungeon",
        "dungeon start",
        lambda friend: {"scenario": "crypt", "player2": friend, "minutes": 0},
        dungeon_player,
    ),
}


# --- playing -------------------------------------------------------------------------------------


@dataclass
class Ack:
    game: str
    turn: int
    user: int
    receipt: str
    latency: float  # seconds from the DM's MESSAGE_CREATE to the bot's reply


@dataclass
class GameRun:
    game: str
    channel: int
    players: tuple[int, int]
    seed: int
    turns_played: int = 0
    finished: bool = False


@dataclass
class Table:
    """Players on the fake Discord, playing against the bot process ``bot``."""

    fake: FakeDiscord
    bot: BotProcess
    acks: list[Ack] = field(default_factory=list)
    resends: int = 0
    refusals: int = 0
    unanswered: int = 0  # DMs or commands the bot never saw while it was up
    timeout: float = 60.0
    reply_timeout: float = 10.0
    think: tuple[float, float] = (0.0, 0.0)  # seconds a player waits before answering a prompt
    max_turns: int | None = None  # players stop ordering after this turn (games stay active)

    def __post_init__(self) -> None:
        self._dm_events: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self._reply_waiters: dict[int, asyncio.Future[Message]] = {}
        self.fake.on_message(self._seen)

    def _seen(self, message: Message) -> None:
        if message.reference_id is not None:
            waiter = self._reply_waiters.pop(message.reference_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(message)
        channel = self.fake.channels.get(message.channel_id, {})
        if channel.get("type") == 1:
            recipient = int(channel["recipients"][0]["id"])
            self._dm_events[recipient].set()

    # -- waiting on the bot, surviving its deaths --

    async def _until_up(self) -> int:
        """Wait until the bot is connected; returns a token for :meth:`_or_death`."""
        # Up when this task reads the deaths, not only when it was woken: a death in between
        # (``up`` cleared, ``died`` set) would count in the token, and :meth:`_generation_over`
        # would spin on that ``died`` without ever yielding, hanging the whole test.
        async with asyncio.timeout(self.timeout):
            while not self.bot.up.is_set():
                await self.bot.up.wait()
        return self.bot.deaths

    async def _or_death(self, awaitable: Any, generation: int, timeout: float) -> Any:
        """Await ``awaitable``; raise BotDied if the bot of ``generation`` dies first."""
        task = asyncio.ensure_future(awaitable)
        died = asyncio.ensure_future(self._generation_over(generation))
        try:
            done, _ = await asyncio.wait(
                {task, died}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if task in done:
                return task.result()
            if died in done:
                raise BotDied
            raise TimeoutError("the bot did not answer in time")
        finally:
            for t in (task, died):
                t.cancel()

    async def _generation_over(self, deaths: int) -> None:
        # Not ``died.is_set()``: a restart clears it again before this task may look.
        while self.bot.deaths == deaths:
            await self.bot.died.wait()

    async def interact(self, make: Callable[[], Interaction]) -> Interaction:
        """Run a slash command or a click until the bot answers it (again after a crash)."""
        while True:
            generation = await self._until_up()
            record = make()
            try:
                await self._or_death(record.answered.wait(), generation, self.reply_timeout)
            except BotDied:
                continue
            except TimeoutError:
                self.unanswered += 1
                if self.unanswered > 20:
                    raise
                continue
            # Follow-ups (after a defer) come shortly after the first response.
            if record.responses[0][0] == 5:
                await self.fake.wait_for(lambda r=record: len(r.messages) > 1, self.timeout)
            return record

    # -- the game --

    async def start_game(
        self, script: Script, channel: int, challenger: int, opponent: int, seed: int
    ) -> GameRun:
        reply = await self.interact(
            lambda: self.fake.slash(
                challenger, channel, script.challenge, **script.options(opponent)
            )
        )
        invite = reply.messages[0]
        game = re.search(r"\((g-\d+)\)", invite.content)
        assert game is not None, invite.content
        accept = next(cid for cid, _label, _d in invite.custom_ids() if cid.endswith(":accept"))
        await self.interact(lambda: self.fake.click(opponent, invite, accept))
        return GameRun(game[1], channel, (challenger, opponent), seed)

    async def next_prompt(self, user: int, game: str, after_turn: int) -> Prompt | None:
        """The user's DM prompt for a turn after ``after_turn``; None once the game is over."""
        event = self._dm_events[user]
        deadline = time.monotonic() + self.timeout
        while True:
            event.clear()
            for message in reversed(self.fake.dms_to(user)):
                if not carries_prompt(message):
                    continue
                over = GAME_OVER.search(message.content)
                if over and over["game"] == game:
                    return None
                buttons = message.custom_ids()
                turns = {
                    int(m["turn"] or m["bturn"])
                    for cid, _l, _d in buttons
                    if (m := ORDER_BUTTON.match(cid)) and (m["game"] or m["bgame"]) == game
                }
                if turns and max(turns) > after_turn:
                    return Prompt(game, max(turns), message.content, buttons)
                if turns:
                    break  # the newest prompt of this game is an old one: wait for the next
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no DM prompt after turn {after_turn} of {game} for {user}")
            # Every DM to the user sets the event (it was cleared before the scan above, so none
            # is missed): no polling, which with 4,000 waiting players would cost the load
            # driver more CPU than the bot it measures (both share the machine's cores).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def order_status(self, user: int, game: str, channel: int) -> tuple[int, bool] | None:
        """``/game orders``: (current turn, whether the user's order is in); None: game over."""
        reply = await self.interact(lambda: self.fake.slash(user, channel, "game orders"))
        for line in reply.text().splitlines():
            match = ORDERS_LINE.match(line.strip())
            if match and match["game"] == game:
                return int(match["turn"]), "no order yet" not in match["rest"]
        return None

    async def submit(self, run: GameRun, user: int, prompt: Prompt, player: Player) -> None:
        rng = random.Random(f"{run.seed}:{run.game}:{prompt.turn}:{run.players.index(user)}")
        refused: set[str] = set()
        text = player(prompt, rng, refused)
        while True:
            generation = await self._until_up()
            loop = asyncio.get_running_loop()
            waiter: asyncio.Future[Message] = loop.create_future()
            dm = self.fake.user_dm(user, text)
            self._reply_waiters[dm.id] = waiter
            try:
                reply = await self._or_death(waiter, generation, self.reply_timeout)
            except (BotDied, TimeoutError) as exc:
                # Dead, or alive but the DM never reached it (an invalidated gateway session
                # drops events, as Discord's does): a player would look, then write again.
                if isinstance(exc, TimeoutError):
                    self.unanswered += 1
                    if self.unanswered > 20:
                        raise TimeoutError(
                            f"no reply to DM {dm.id} of {user} ({text!r}) in {run.game} "
                            f"turn {prompt.turn}"
                        ) from None
                self._reply_waiters.pop(dm.id, None)
                answered = self.fake.replies_to(dm)  # it may have answered just before dying
                reply = answered[0] if answered else None
            if reply is None:
                # Did the order get in before the bot died? Ask, as a player would.
                status = await self.order_status(user, run.game, run.channel)
                if status is None or status[0] > prompt.turn or status[1]:
                    return
                self.resends += 1
                continue
            ack = ACK.search(reply.content)
            if ack:
                assert ack["game"] == run.game and int(ack["turn"]) == prompt.turn, reply.content
                self.acks.append(
                    Ack(run.game, prompt.turn, user, ack["receipt"], reply.created - dm.created)
                )
                return
            assert reply.content.startswith("⚠️"), reply.content
            self.refusals += 1
            refused.add(text)
            text = player(prompt, rng, refused)  # a re-send after a crash repeats; this re-thinks
            if text in refused:
                # a script that offers the refused order again would loop until the run's
                # timeout: fail here, with the bot's reason
                raise AssertionError(
                    f"{run.game} turn {prompt.turn}: the player repeats {text!r}, refused with "
                    f"{reply.content!r}"
                )

    async def play_seat(self, run: GameRun, user: int, player: Player) -> None:
        turn = 0
        while True:
            prompt = await self.next_prompt(user, run.game, turn)
            if prompt is None:
                run.finished = True
                return
            if self.max_turns is not None and prompt.turn > self.max_turns:
                return
            if self.think[1]:
                await asyncio.sleep(random.uniform(*self.think))
            await self.submit(run, user, prompt, player)
            turn = prompt.turn
            run.turns_played = max(run.turns_played, turn)

    async def play(self, run: GameRun, script: Script) -> GameRun:
        await asyncio.gather(*(self.play_seat(run, user, script.player) for user in run.players))
        return run


# --- checking ------------------------------------------------------------------------------------


def discord_nonce(key: str) -> str:
    """The nonce the outbox sends for an outbox key (as bot/outbox.py computes it)."""
    return hashlib.sha256(key.encode()).hexdigest()[:24]


def pending_outbox(db_path: Path) -> int:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT COUNT(*) FROM outbox WHERE status = 'pending'").fetchone()[0]
    finally:
        conn.close()


async def settle(bot: BotProcess, timeout: float = 30.0) -> None:
    """Wait until the bot has nothing left to post (its outbox is empty)."""
    deadline = time.monotonic() + timeout
    while pending_outbox(bot.db_path):
        if time.monotonic() > deadline:
            raise TimeoutError("the outbox did not drain")
        await asyncio.sleep(0.05)


def dump(db_path: Path) -> dict[str, Any]:
    """What must be identical between a crashed run and an uninterrupted one with the same inputs.

    Left out on purpose: timestamps, order revision counts (a player re-sends after a crash),
    message ids and the progress edits (their number depends on re-sends), attempts and errors.
    """
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        return {
            key: normalized(key, [dict(r) for r in conn.execute(sql)])
            for key, sql in DUMP_QUERIES.items()
        }
    finally:
        conn.close()


# What :func:`dump` reads (the same SQL on PostgreSQL: tests/e2e/shards.py).
DUMP_QUERIES = {
    "games": "SELECT id, ruleset, status, state, version, turn, outcome, end_reason "
    "FROM games ORDER BY id",
    "states": "SELECT game_id, version, turn, state FROM states ORDER BY 1, 2",
    "orders": "SELECT game_id, turn, seat, text, salt, receipt, user_id, defaulted "
    "FROM orders ORDER BY 1, 2, 3",
    "streams": "SELECT * FROM dice_streams ORDER BY 1, 2, 3",
    "events": "SELECT game_id, turn, seq, data FROM events ORDER BY 1, 2, 3",
    # Each game's rows in the order stored. How two games' rows interleave is not the state of
    # either: it follows which player answered first, and the outbox posts independent games
    # concurrently.
    "outbox": "SELECT game_id, kind, target_id, payload, nonce, status FROM outbox "
    "WHERE kind != 'edit' ORDER BY game_id, id",
}


PROGRESS_FIELD = re.compile(
    "|".join(
        re.escape(t(lang, "game.field.progress", done="DONE", total="TOTAL"))
        .replace("DONE", r"\d+")
        .replace("TOTAL", r"\d+")
        for lang in ("en", "ja")
    )
)


def without_progress(embed: dict[str, Any]) -> dict[str, Any]:
    """A post's embed without its order progress: whether a step's last progress edit went out
    before the step resolved (and its next post superseded it) is timing, not the game."""
    fields = embed.get("fields")
    if not fields:
        return embed
    kept = [f for f in fields if not PROGRESS_FIELD.fullmatch(str(f.get("name", "")))]
    return {**embed, "fields": kept}


def posted_view(fake: FakeDiscord, channels: list[int], users: list[int]) -> dict[str, Any]:
    """What the players saw: every channel post and prompt DM (final form, after edits)."""

    def view(m: Message) -> dict[str, Any]:
        return {
            "content": prompt_part(m),
            "embeds": [without_progress(e) for e in m.embeds],
            "components": m.components,
            "files": m.files,
            "nonce": m.nonce,
        }

    return {
        "channels": {
            c: [view(m) for m in fake.posted(c) if m.interaction_id is None] for c in channels
        },
        "dms": {u: [view(m) for m in fake.dms_to(u) if carries_prompt(m)] for u in users},
    }


@dataclass
class Report:
    kills: int
    orders_lost: list[str]
    double_resolutions: list[str]
    duplicate_posts: list[str]
    missing_posts: list[str]
    state_differences: list[str]

    @property
    def ok(self) -> bool:
        return not (
            self.orders_lost
            or self.double_resolutions
            or self.duplicate_posts
            or self.missing_posts
            or self.state_differences
        )

    def lines(self) -> list[str]:
        return [
            f"kills                 {self.kills}",
            f"orders lost           {len(self.orders_lost)}",
            f"double resolutions    {len(self.double_resolutions)}",
            f"duplicate posts       {len(self.duplicate_posts)}",
            f"missing posts         {len(self.missing_posts)}",
            f"state differences     {len(self.state_differences)}",
        ]


def check(
    table: Table,
    db: dict[str, Any],
    seen: dict[str, Any],
    reference_db: dict[str, Any] | None = None,
    reference_seen: dict[str, Any] | None = None,
) -> Report:
    """The invariants of a run with crashes, and its equality with the uninterrupted run."""
    fake = table.fake
    orders = {(o["game_id"], o["turn"], o["user_id"]): o for o in db["orders"]}
    lost = [
        f"{a.game} turn {a.turn} user {a.user}: acknowledged {a.receipt[:12]}, stored "
        f"{(orders.get((a.game, a.turn, a.user)) or {}).get('receipt', 'nothing')[:12]}"
        for a in table.acks
        if (orders.get((a.game, a.turn, a.user)) or {}).get("receipt") != a.receipt
    ]
    double = []
    for game in db["games"]:
        versions = [s["version"] for s in db["states"] if s["game_id"] == game["id"]]
        if versions != list(range(1, game["version"] + 1)):
            double.append(f"{game['id']}: state versions {versions}")
        per_turn: dict[int, list[int]] = defaultdict(list)
        for e in db["events"]:
            if e["game_id"] == game["id"]:
                per_turn[e["turn"]].append(e["seq"])
        for turn, seqs in per_turn.items():
            if seqs != list(range(len(seqs))):
                double.append(f"{game['id']} turn {turn}: event seqs {seqs}")
        titles = [
            m.embeds[0].get("title")
            for channel in list(fake.by_channel)
            for m in fake.posted(channel)
            if m.embeds and f"· {game['id']} ·" in (m.embeds[0].get("title") or "")
        ]
        repeated = {t for t in titles if titles.count(t) > 1}
        if repeated:
            double.append(f"{game['id']}: posted twice: {sorted(repeated)}")
    by_nonce: dict[str, int] = defaultdict(int)
    for message in fake.messages.values():
        if message.author_id == fake.bot_id and message.nonce:
            by_nonce[message.nonce] += 1
    duplicates = [f"nonce {n}: {c} messages" for n, c in by_nonce.items() if c > 1]
    missing = [
        f"outbox {row['kind']} {row['nonce']}: {row['status']}"
        for row in db["outbox"]
        if row["status"] != "sent" or by_nonce.get(discord_nonce(row["nonce"]), 0) != 1
    ]
    differences: list[str] = []
    if reference_db is not None:
        for key, rows in db.items():
            if rows != reference_db[key]:
                first = next(
                    (
                        i
                        for i, (a, b) in enumerate(zip(rows, reference_db[key], strict=False))
                        if a != b
                    ),
                    min(len(rows), len(reference_db[key])),
                )
                differences.append(
                    f"db {key}: {len(rows)} rows vs {len(reference_db[key])}, first difference "
                    f"at {first}"
                )
    if reference_seen is not None and seen != reference_seen:
        for kind in ("channels", "dms"):
            for key, messages in seen[kind].items():
                other = reference_seen[kind].get(key)
                if messages != other:
                    differences.append(
                        f"posted {kind} {key}: {len(messages)} vs {len(other or [])} messages"
                    )
    return Report(
        table.bot.kills + table.bot.self_kills, lost, double, duplicates, missing, differences
    )


def jsonable(report: Report) -> str:
    return json.dumps(report.__dict__, indent=1, default=str)


# --- whole runs: the world, an uninterrupted reference, a run under fire -------------------------


@dataclass
class World:
    """Players and channels, created in the same order in every run (so their ids match)."""

    pairs: list[tuple[int, int, int]]  # (challenger, opponent, channel)

    @classmethod
    def create(cls, fake: FakeDiscord, games: int) -> World:
        pairs = []
        for i in range(games):
            a, b = fake.add_user(f"p{i}a"), fake.add_user(f"p{i}b")
            channel = fake.default_channel_id if i == 0 else fake.add_channel(f"duels-{i}")
            pairs.append((a, b, channel))
        return cls(pairs)

    @property
    def users(self) -> list[int]:
        return [u for a, b, _c in self.pairs for u in (a, b)]

    @property
    def channels(self) -> list[int]:
        return [c for _a, _b, c in self.pairs]


async def start_games(table: Table, world: World, script: Script, seed: int) -> list[GameRun]:
    runs = []
    for i, (a, b, channel) in enumerate(world.pairs):
        runs.append(await table.start_game(script, channel, a, b, seed=seed * 1000 + i))
    return runs


@dataclass
class RunResult:
    table: Table
    runs: list[GameRun]
    db: dict[str, Any]
    seen: dict[str, Any]
    seconds: float

    @classmethod
    def collect(
        cls,
        table: Table,
        runs: list[GameRun],
        bot: BotProcess,
        fake: FakeDiscord,
        world: World,
        started: float,
    ) -> RunResult:
        """What a finished run left: the database and everything the fake saw posted."""
        return cls(
            table,
            runs,
            dump(bot.db_path),
            posted_view(fake, world.channels, world.users),
            time.monotonic() - started,
        )


async def reference_run(
    workdir: Path, *, games: int, seed: int, script: Script, fake_options: dict[str, Any]
) -> RunResult:
    """The same games, never interrupted."""
    started = time.monotonic()
    fake = await FakeDiscord(**fake_options).start()
    bot = BotProcess(fake, workdir, entropy_seed=str(seed))
    try:
        world = World.create(fake, games)
        table = Table(fake, bot)
        await bot.start()
        runs = await start_games(table, world, script, seed)
        await asyncio.gather(*(table.play(run, script) for run in runs))
        await settle(bot)
        return RunResult.collect(table, runs, bot, fake, world, started)
    finally:
        await bot.stop()
        await fake.stop()


def named_fault(rng: random.Random) -> str:
    from bot.faults import POINTS

    return f"{rng.choice(POINTS)}@{rng.randint(1, 3)}"


async def chaos_run(
    workdir: Path,
    *,
    games: int,
    seed: int,
    kills: int,
    script: Script,
    fake_options: dict[str, Any],
    named_share: float = 0.5,
    max_delay: float = 0.4,
    progress: Callable[[str], None] | None = None,
    log_level: str = "WARNING",
) -> RunResult:
    """The same games while the bot is SIGKILLed ``kills`` times and restarted each time.

    Each death is followed by a restart that is either armed at a random named crash point
    (``PBP_FAULT_POINT``, the ``n``-th time it is reached) or unarmed with a SIGKILL from outside
    after a random delay (0 to ``max_delay`` s: mid-order, mid-resolution, mid-post, anywhere).
    """
    started = time.monotonic()
    rng = random.Random(f"chaos:{seed}")
    fake = await FakeDiscord(**fake_options).start()
    bot = BotProcess(fake, workdir, entropy_seed=str(seed), log_level=log_level)
    done = asyncio.Event()
    deaths = 0
    timers: set[asyncio.Future[None]] = set()

    async def timer_kill(generation: int) -> None:
        await asyncio.sleep(rng.uniform(0.0, max_delay))
        if bot.generation == generation and bot.up.is_set() and not done.is_set():
            await bot.kill()

    async def supervise() -> None:
        nonlocal deaths
        while not done.is_set():
            await bot.died.wait()
            if done.is_set():
                return
            deaths += 1
            if progress and deaths % 10 == 0:
                progress(f"{deaths} kills, {time.monotonic() - started:.0f} s")
            if deaths < kills and rng.random() < named_share:
                await bot.start(fault=named_fault(rng))
            else:
                await bot.start()
                if deaths < kills:
                    timers.add(asyncio.ensure_future(timer_kill(bot.generation)))

    try:
        world = World.create(fake, games)
        table = Table(fake, bot)
        await bot.start()
        runs = await start_games(table, world, script, seed)
        supervisor = asyncio.create_task(supervise())
        if kills:
            timers.add(asyncio.ensure_future(timer_kill(bot.generation)))
        await asyncio.gather(*(table.play(run, script) for run in runs))
        done.set()
        supervisor.cancel()
        if not bot.up.is_set():
            await bot.start()
        await settle(bot)
        return RunResult.collect(table, runs, bot, fake, world, started)
    finally:
        done.set()
        await bot.stop()
        await fake.stop()
