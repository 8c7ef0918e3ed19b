"""What the DM order builders share (a ruleset's ``sheet_builder``: Apeiron's, tactics').

A builder is one ephemeral message that holds the draft order in a code block. Each menu adds a
pick, the engine checks the draft after every one, and **Seal** submits it exactly as if it had
been typed. Nothing lives in memory: the draft is the message's own text and every component's
``custom_id`` says what it picks (``<prefix>:<game>:<turn>:<what>[:<arg>]``), so a builder left
open survives a restart. A click on the builder of an earlier turn is refused as stale, and one
whose id or values the builder would not offer now (a forged one) is answered 'out of date'.

A ruleset's builder is a :class:`Flow`, what it offers at each pick, and its two component
classes, which its cog registers::

    FLOW = orderbuilder.Flow("tb", "tactics", _Context, _main_view, …)

    class BuilderSelect(orderbuilder.Menu, flow=FLOW): ...
    class BuilderButton(orderbuilder.Button, flow=FLOW): ...
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

import discord

from bot import limits, replies
from bot.checks import reader_lang
from bot.i18n import t
from bot.ruleset import RuleError
from bot.storage import GameRow
from bot.views import Host, out_of_date

MAX_OPTIONS = 25  # Discord's limit per select
BUTTONS = ("seal", "undo", "clear", "back")
DRAFT = re.compile(r"```text\n(?P<body>.*?)```", re.DOTALL)
NEVER = r"(?!)"  # the template of the base classes, which are never registered


def draft_of(content: str | None) -> list[str]:
    """The draft lines kept in the builder message (empty if there is none)."""
    match = DRAFT.search(content or "")
    if not match:
        return []
    return [line for line in match["body"].splitlines() if line.strip()]


def numbered(lines: Sequence[str]) -> str:
    """``1. …`` a line."""
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))


def message(
    header: str, lines: Sequence[str], note: str, help_text: str, shown: Sequence[str] = ()
) -> str:
    """The builder's message: the header, the draft as the reader reads it (``shown``, numbered,
    if the builder words it), the draft itself, the note (a refusal, say) and the step's help.
    The builder edits this one message in place: it is clipped, not split."""
    body = "\n".join(lines) + "\n" if lines else ""
    parts = [header]
    if shown:
        parts.append(numbered(shown))
    parts.append(f"```text\n{body}```")
    if note:
        parts.append(note)
    parts.append(help_text)
    return limits.clip("\n".join(parts), limits.CONTENT)


class Context(Protocol):
    """The game as the clicking player sees it, loaded fresh for every click."""

    game: GameRow
    lang: str
    step: str  # the step the builder's help and the order's wording depend on

    def header(self) -> str:
        """The message's first line (which game, which step)."""
        ...


C = TypeVar("C", bound=Context)


@dataclass(frozen=True)
class Flow(Generic[C]):
    """One ruleset's builder: its ids' ``prefix``, the ``ruleset``'s key (its words are
    ``<ruleset>.builder.…``: the buttons' labels ``….seal``…, each step's help
    ``….help.<step>``), and what it offers:

    - ``context(game, seat, lang)``: the game as the clicking player sees it;
    - ``main_view(ctx, lines)``: the menus that add the next line, and Seal/Undo/Clear;
    - ``offered(ctx, what, arg, lines)``: the values the menu ``what`` with ``arg`` offers now
      (rebuilt from the step, the draft and the picks ``arg`` carries); None where there is no
      such menu. A click is taken only for values found here;
    - ``pick(ctx, what, arg, values, lines)``: the next question (a view), or the draft with the
      pick added;
    - ``check(ctx, what, lines)``: raise the engine's refusal of the draft after a pick;
    - ``order_text(step, lines)``: the order the draft stands for, as if typed (a RuleError: the
      draft stands for none and cannot be sealed);
    - ``shown(ctx, lines)``: the draft's lines as the reader reads them, numbered above the draft
      and in the sealed answer (None: the draft as it is).
    """

    prefix: str
    ruleset: str
    context: Callable[[GameRow, str, str], C]
    main_view: Callable[[C, list[str]], discord.ui.View]
    offered: Callable[[C, str, str, list[str]], set[str] | None]
    pick: Callable[[C, str, str, list[str], list[str]], discord.ui.View | list[str]]
    check: Callable[[C, str, list[str]], None]
    order_text: Callable[[str, list[str]], str]
    shown: Callable[[C, list[str]], list[str]] | None = None

    def custom_id(self, game: str, turn: int, *parts: str) -> str:
        return ":".join((self.prefix, game, str(turn), *parts))

    def message(self, ctx: C, lines: list[str], note: str = "") -> str:
        help_text = t(ctx.lang, f"{self.ruleset}.builder.help.{ctx.step}")
        shown = self.shown(ctx, lines) if self.shown else ()
        return message(ctx.header(), lines, note, help_text, shown)

    async def open(self, interaction: discord.Interaction[Any], game: GameRow, seat: str) -> None:
        """The prompt's button: a fresh builder for this seat's current step."""
        ctx = self.context(game, seat, reader_lang(interaction))
        text = self.message(ctx, [])
        await replies.respond(interaction, text, view=self.main_view(ctx, []), ephemeral=True)

    async def click(
        self,
        interaction: discord.Interaction[Any],
        game_id: str,
        turn: int | None,
        what: str,
        arg: str,
        values: list[str],
    ) -> None:
        """A pick or a button of the builder ``interaction.message`` holds."""
        bot: Host = interaction.client
        lang = reader_lang(interaction)
        if turn is None:  # a number no game reaches: no builder of ours carries it
            await out_of_date(interaction)
            return
        try:
            game, seat = await bot.table.reads.seat_for_click(game_id, interaction.user.id, turn)
        except RuleError as exc:
            await replies.edit(interaction, content="⚠️ " + replies.reason(exc, lang), view=None)
            return
        ctx = self.context(game, seat, lang)
        lines = draft_of(interaction.message.content if interaction.message else "")
        if what not in BUTTONS:
            offered = self.offered(ctx, what, arg, lines)
            if offered is None or not values or not set(values) <= offered:
                await out_of_date(interaction)
                return
        if what == "seal":
            await self._seal(interaction, bot, ctx, lines)
            return
        if what == "undo":
            lines = lines[:-1]
        elif what == "clear":
            lines = []
        result = self.pick(ctx, what, arg, values, lines)
        if isinstance(result, discord.ui.View):
            await replies.edit(interaction, content=self.message(ctx, lines), view=result)
            return
        note = ""
        try:
            self.check(ctx, what, result)
            lines = result
        except RuleError as exc:  # the draft stays as it was, with the engine's reason
            note = "⚠️ " + replies.reason(exc, lang)
        text = self.message(ctx, lines, note)
        await replies.edit(interaction, content=text, view=self.main_view(ctx, lines))

    async def _seal(
        self, interaction: discord.Interaction[Any], bot: Host, ctx: C, lines: list[str]
    ) -> None:
        async with bot.table.foreground.serving():
            try:
                result = await bot.table.submit(
                    ctx.game.id,
                    interaction.user.id,
                    self.order_text(ctx.step, lines),
                    source="builder",
                    resolve=False,
                    turn=ctx.game.step,  # the turn the click was checked for; a deadline may pass
                )
            except RuleError as exc:
                await replies.edit(
                    interaction,
                    content=self.message(ctx, lines, "⚠️ " + replies.reason(exc, ctx.lang)),
                    view=self.main_view(ctx, lines),
                )
                return
            shown = numbered(self.shown(ctx, lines)) if self.shown else "\n".join(lines)
            await replies.edit(
                interaction,
                content=(shown + "\n" if shown else "") + replies.order_ack(result, ctx.lang),
                view=None,
            )
        if result.complete:  # acknowledged first: the player does not wait for the resolution
            await bot.table.resolve_if_ready(ctx.game.id)


def menu_values(view: discord.ui.View, what: str, arg: str) -> set[str] | None:
    """The values of the view's menu ``what`` with ``arg``; None if it has no such menu."""
    for item in view.children:
        if isinstance(item, Menu) and (item.what, item.arg) == (what, arg):
            return {option.value for option in item.item.options}
    return None


class Menu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=NEVER):
    """A builder's menu (``class BuilderSelect(Menu, flow=FLOW)``): ``what`` says which pick it
    is, ``arg`` the earlier picks it depends on."""

    flow: ClassVar[Flow[Any]]

    def __init_subclass__(cls, *, flow: Flow[Any]) -> None:
        # Every id of the builder but the buttons' (a button's id must not be claimed by a menu).
        buttons = "|".join(BUTTONS)
        super().__init_subclass__(
            template=rf"{flow.prefix}:(?P<game>[^:]+):(?P<turn>\d+)"
            rf":(?P<what>(?!(?:{buttons})$)[a-z]+)(?::(?P<arg>[^ ]*))?"
        )
        cls.flow = flow

    def __init__(
        self, item: discord.ui.Select[Any], game: str, turn: int | None, what: str, arg: str
    ) -> None:
        super().__init__(item)
        self.game_id, self.turn, self.what, self.arg = game, turn, what, arg

    @classmethod
    def make(
        cls,
        game: str,
        turn: int,
        what: str,
        options: list[discord.SelectOption],
        placeholder: str,
        *,
        arg: str = "",
        max_values: int = 1,
    ) -> Self:
        parts = (what, arg) if arg else (what,)
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cls.flow.custom_id(game, turn, *parts),
            placeholder=placeholder[:150],
            options=options[:MAX_OPTIONS],
            min_values=1,
            max_values=min(max_values, len(options[:MAX_OPTIONS])),
        )
        return cls(select, game, turn, what, arg)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> Self:
        turn = limits.id_number(match["turn"])
        return cls(item, match["game"], turn, match["what"], match["arg"] or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        await self.flow.click(interaction, self.game_id, self.turn, self.what, self.arg, values)


class Button(discord.ui.DynamicItem[discord.ui.Button[Any]], template=NEVER):
    """A builder's Seal, Undo, Clear or Back (``class BuilderButton(Button, flow=FLOW)``)."""

    flow: ClassVar[Flow[Any]]
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "seal": discord.ButtonStyle.success,
        "clear": discord.ButtonStyle.danger,
    }

    def __init_subclass__(cls, *, flow: Flow[Any]) -> None:
        buttons = "|".join(BUTTONS)
        super().__init_subclass__(
            template=rf"{flow.prefix}:(?P<game>[^:]+):(?P<turn>\d+):(?P<what>{buttons})"
        )
        cls.flow = flow

    def __init__(
        self, item: discord.ui.Button[Any], game: str, turn: int | None, what: str
    ) -> None:
        super().__init__(item)
        self.game_id, self.turn, self.what = game, turn, what

    @classmethod
    def make(cls, game: str, turn: int, what: str, lang: str) -> Self:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=t(lang, f"{cls.flow.ruleset}.builder.{what}")[:80],
            style=cls.STYLES.get(what, discord.ButtonStyle.secondary),
            custom_id=cls.flow.custom_id(game, turn, what),
        )
        return cls(button, game, turn, what)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> Self:
        return cls(item, match["game"], limits.id_number(match["turn"]), match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.click(interaction, self.game_id, self.turn, self.what, "", [])
