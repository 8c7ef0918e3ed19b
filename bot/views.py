"""Persistent, stateless components: every button carries what it needs in its ``custom_id``.

``pbp:o:<game>:<turn>:<pick>/<pick>…`` builds an order one choice group at a time (buttons work
after a restart: nothing lives in memory; ``pbp:s:…`` is the same for a group offered as a select
menu, the chosen pick being the option's value). A pick is a choice's place in its group, never
its token: a token may hold a pack's ids (an Apeiron deck order lists fourteen), and Discord
refuses a ``custom_id`` or an option's value over 100 characters; the click reads the tokens
back from the engine's choices (:func:`chosen_tokens`). ``pbp:c:<game>:<accept|decline>`` answers a
challenge, ``pbp:b:<game>:<turn>`` opens a ruleset's own order builder, and
``pbp:p:<game>:<turn>`` (under every turn post) shows that step's proofs in full;
``pbp:p:<game>:<turn>:<since>`` those of the steps ``since``…``turn`` (a post that a run of steps
edited: :attr:`bot.ruleset.RulesetSpec.post_group`).
The handlers only translate clicks into :class:`bot.table.Table` calls.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, Self

import discord

from bot import limits, messages, registry, replies
from bot.checks import can_read, reader_lang
from bot.i18n import t
from bot.ruleset import ChoiceGroup, RuleError
from bot.table import Player, SubmitResult, Table, TableError

if TYPE_CHECKING:
    from bot.storage import GameRow


class Host(Protocol):
    """What a click's handler needs of ``interaction.client`` (``bot.client.RefereeBot``): its
    table. Named by its shape so that the views do not import the client (the client imports
    the views, and the outbox sender that builds them)."""

    table: Table


def order_custom_id(game_id: str, turn: int, picks: Sequence[int], kind: str = "o") -> str:
    """An order button's (``o``) or menu's (``s``) id: the game, the turn, and each group's pick
    so far (the chosen choice's place in its group)."""
    return f"pbp:{kind}:{game_id}:{turn}:{'/'.join(str(pick) for pick in picks)}"


MAX_PICK = 999  # no group offers more choices (a message holds 25 buttons, a menu 25 options)


def parse_picks(text: str) -> list[int] | None:
    """``0/3/1`` -> [0, 3, 1]; None for anything an order id never carries (a token of an id
    from before picks, a forged word, a number no group reaches)."""
    picks = []
    for part in text.split("/") if text else ():
        if not (part.isascii() and part.isdigit()) or int(part) > MAX_PICK:
            return None
        picks.append(int(part))
    return picks


def parse_order_id(custom_id: str) -> tuple[str, str, int | None, list[int] | None] | None:
    """An order button's or menu's id: (``o`` or ``s``, game, turn, picks: the turn or the picks
    None when they do not parse); None when it is no order id at all."""
    match = ORDER_ID.fullmatch(custom_id)
    if match is None:
        return None
    return match["kind"], *_order_id(match)


def chosen_tokens(groups: Sequence[ChoiceGroup], picks: Sequence[int] | None) -> list[str]:
    """The tokens the picks stand for in the groups the engine offers now. A pick no group
    offers, or a disabled one (no button of ours sends either: an id of an older form, a forged
    one), is refused as out of date."""
    if picks is None or len(picks) > len(groups):
        raise RuleError("order.out_of_date")
    tokens: list[str] = []
    for group, pick in zip(groups, picks, strict=False):
        if not 0 <= pick < len(group.choices) or not group.choices[pick].enabled:
            raise RuleError("order.out_of_date")
        if tokens and complete(groups, picks[: len(tokens)]):  # a pick after a whole order
            raise RuleError("order.out_of_date")
        tokens.append(group.choices[pick].token)
    return tokens


def complete(groups: Sequence[ChoiceGroup], picks: Sequence[int]) -> bool:
    """Whether the picks make a whole order: one per group, or a choice that is an order on its
    own (:attr:`bot.ruleset.Choice.final`) as the last."""
    if len(picks) >= len(groups):
        return True
    return bool(picks) and groups[len(picks) - 1].choices[picks[-1]].final


def _buttons_for(
    game_id: str, turn: int, prefix: list[int], group: dict[str, Any], room: int = limits.COMPONENTS
) -> list[discord.ui.Item[Any]]:
    """A group's buttons (at most ``room``), or its select menu."""
    if group.get("select"):
        select = OrderSelect.make(game_id, turn, prefix, group)
        return [select] if select is not None else []
    items: list[discord.ui.Item[Any]] = []
    for pick, choice in limits.choices(enumerate(group["choices"]), room):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=limits.clip(choice["label"], limits.BUTTON_LABEL),
            style=discord.ButtonStyle.primary
            if choice["enabled"]
            else discord.ButtonStyle.secondary,
            disabled=not choice["enabled"],
            custom_id=order_custom_id(game_id, turn, [*prefix, pick]),
        )
        items.append(OrderButton(button, game_id, turn, [*prefix, pick]))
    return items


def build_view(spec: dict[str, Any]) -> discord.ui.View:
    """The view an outbox payload describes (``{"kind": "orders", ...}``, or a kind a cog
    registered in :data:`VIEW_KINDS`)."""
    view = discord.ui.View(timeout=None)
    orders = spec.get("kind") == "orders"
    # The prompt's own buttons keep their places: 25 choices (an Apeiron event's options) and
    # the builder made 26 components, and the prompt was never sent.
    extras = [spec.get(name) for name in ("builder", "mine", "help")] if orders else []
    if orders and spec.get("groups"):
        room = limits.COMPONENTS - sum(1 for extra in extras if extra)
        for item in _buttons_for(spec["game"], spec["turn"], [], spec["groups"][0], room):
            view.add_item(item)
    if orders and spec.get("builder"):
        view.add_item(BuilderButton.make(spec["game"], spec["turn"], spec["builder"]))
    if orders and spec.get("mine"):
        view.add_item(MineButton.make(spec["game"], spec["mine"]))
    if orders and spec.get("help"):
        view.add_item(HelpButton.make(spec["game"], spec["help"]))
    make_items = view_kind(str(spec.get("kind")))
    if make_items is not None:
        for item in make_items(spec):
            view.add_item(item)
    proofs = spec.get("proofs")
    if proofs and len(view.children) < limits.COMPONENTS:  # after the orders: they matter more
        since = proofs.get("since")
        view.add_item(
            ProofsButton.make(
                proofs["game"],
                int(proofs["turn"]),
                proofs["label"],
                since=None if since is None else int(since),
            )
        )
    return view


ViewItems = Callable[[dict[str, Any]], list[discord.ui.Item[Any]]]

# Other kinds of stored components, by the ``kind`` of their payload: the shared cogs register how
# their persistent items are made from the spec (a league's draft and ante menus, say); a ruleset
# names its own in its spec's ``view_kinds``.
VIEW_KINDS: dict[str, ViewItems] = {}


def view_kind(kind: str) -> ViewItems | None:
    if kind in VIEW_KINDS:
        return VIEW_KINDS[kind]
    for spec in registry.rulesets().values():
        if kind in spec.view_kinds:
            made: ViewItems = spec.view_kinds[kind].load()
            return made
    return None


def _localized_groups(groups: list[ChoiceGroup], lang: str) -> list[dict[str, Any]]:
    return [
        {
            "name": g.name,
            "label": t(lang, g.label_key),
            "select": g.select,
            "choices": [
                {"token": c.token, "label": c.label(lang), "enabled": c.enabled} for c in g.choices
            ],
        }
        for g in groups
    ]


# An order button's (``o``) or menu's (``s``) id; the picks are parsed apart (parse_picks), so
# that an id of an older form or a forged one is answered "out of date" rather than ignored.
ORDER_ID = re.compile(r"pbp:(?P<kind>[os]):(?P<game>[^:]+):(?P<turn>\d+):(?P<picks>[^:]*)")


def _order_id(match: re.Match[str]) -> tuple[str, int | None, list[int] | None]:
    """An order button's or menu's id: its game, its turn (None past any game's: a forged id)
    and the picks made so far."""
    return match["game"], limits.id_number(match["turn"]), parse_picks(match["picks"])


class OrderButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pbp:o:(?P<game>[^:]+):(?P<turn>\d+):(?P<picks>[^:]*)",
):
    def __init__(
        self, item: discord.ui.Button[Any], game_id: str, turn: int | None, picks: list[int] | None
    ) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.turn = turn
        self.picks = picks

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> OrderButton:
        assert isinstance(item, discord.ui.Button)  # the template matches only our buttons' ids
        return cls(item, *_order_id(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await answer_choice(interaction, self.game_id, self.turn, self.picks)


class OrderSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"pbp:s:(?P<game>[^:]+):(?P<turn>\d+):(?P<picks>[^:]*)",
):
    """A choice group as a select menu: the picks made so far in its id, the group's enabled
    choices as its options, each valued by its pick."""

    def __init__(
        self, item: discord.ui.Select[Any], game_id: str, turn: int | None, prefix: list[int] | None
    ) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.turn = turn
        self.prefix = prefix

    @classmethod
    def make(
        cls, game_id: str, turn: int, prefix: list[int], group: dict[str, Any]
    ) -> OrderSelect | None:
        enabled = ((p, c) for p, c in enumerate(group["choices"]) if c["enabled"])
        options = [
            discord.SelectOption(
                label=limits.clip(choice["label"], limits.SELECT_OPTION), value=str(pick)
            )
            for pick, choice in limits.choices(enabled)
        ]
        if not options:
            return None
        select: discord.ui.Select[Any] = discord.ui.Select(
            placeholder=limits.clip(group["label"], limits.SELECT_PLACEHOLDER),
            options=options,
            custom_id=order_custom_id(game_id, turn, prefix, "s"),
        )
        return cls(select, game_id, turn, prefix)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> OrderSelect:
        assert isinstance(item, discord.ui.Select)  # the template matches only our menus' ids
        return cls(item, *_order_id(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        chosen = parse_picks("/".join(str(v) for v in self.item.values[:1]))
        picks = None if self.prefix is None or chosen is None else [*self.prefix, *chosen]
        await answer_choice(interaction, self.game_id, self.turn, picks)


async def answer_choice(
    interaction: discord.Interaction[Any], game_id: str, turn: int | None, picks: list[int] | None
) -> None:
    """A button pressed or an option chosen: the next group, or the order sealed (and the turn
    resolved if it was the last one awaited, after the player has the acknowledgement)."""
    bot: Host = interaction.client
    if turn is None:  # a number no game reaches: no button of ours carries it
        await out_of_date(interaction)
        return
    async with bot.table.foreground.serving():
        result = await _answer(interaction, bot, game_id, turn, picks)
    if result is not None and result.complete:  # the player does not wait for the resolution
        await bot.table.resolve_if_ready(game_id)


async def _answer(
    interaction: discord.Interaction[Any],
    bot: Host,
    game_id: str,
    turn: int,
    picks: list[int] | None,
) -> SubmitResult | None:
    """The next choice group's buttons, or the sealed order's acknowledgement (its result)."""
    lang = reader_lang(interaction)
    await bot.table.remember_locale(interaction.user.id, str(interaction.locale))
    try:
        game, seat = await bot.table.reads.seat_for_click(game_id, interaction.user.id, turn)
        loaded = bot.table.states.load(game)
        groups = loaded.engine.choices(loaded.state, seat)
        tokens = chosen_tokens(groups, picks)
        if picks is not None and not complete(groups, picks):
            view = discord.ui.View(timeout=None)
            spec = _localized_groups(groups, lang)[len(tokens)]
            for item in _buttons_for(game_id, turn, picks, spec):
                view.add_item(item)
            chosen = replies.chosen_so_far(groups, tokens, lang)
            text = t(lang, "order.pick_next", chosen=chosen, group=spec["label"])
            if len(tokens) > 1:
                await replies.edit(interaction, text, view=view)
            else:
                await replies.respond(interaction, text, view=view, ephemeral=True)
            return None
        result = await bot.table.submit(
            game_id,
            interaction.user.id,
            " ".join(tokens),
            source="button",
            resolve=False,
            turn=turn,  # checked again where it is stored: the deadline may have passed
        )
    except RuleError as exc:
        await replies.refuse(interaction, exc, lang)
        return None
    text = replies.order_ack(result, lang)
    if len(tokens) > 1:
        await replies.edit(interaction, text, view=None)
    else:
        await replies.send_private(interaction, text)
    return result


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pbp:c:(?P<game>[^:]+):(?P<action>accept|decline)",
):
    def __init__(self, item: discord.ui.Button[Any], game_id: str, action: str) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.action = action

    @classmethod
    def make(cls, game_id: str, action: str, lang: str) -> ChallengeButton:
        style = discord.ButtonStyle.success if action == "accept" else discord.ButtonStyle.danger
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=t(lang, f"challenge.{action}"), style=style, custom_id=f"pbp:c:{game_id}:{action}"
        )
        return cls(button, game_id, action)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ChallengeButton:
        assert isinstance(item, discord.ui.Button)  # the template matches only our buttons' ids
        return cls(item, match["game"], match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: Host = interaction.client
        lang = reader_lang(interaction)
        channel_lang = await bot.table.language(interaction.guild_id)
        await bot.table.remember_locale(interaction.user.id, str(interaction.locale))
        try:
            if self.action == "accept":
                game = await bot.table.accept(self.game_id, interaction.user.id)
                waiting = game.awaiting_acceptance()
                if waiting:  # a party: the invitation stays, with who is still to answer
                    invitation = interaction.message.content if interaction.message else ""
                    status = t(
                        channel_lang,
                        "challenge.accepted_waiting",
                        game=game.id,
                        user=interaction.user.mention,
                        waiting=" ".join(f"<@{s.user_id}>" for s in waiting),
                    )
                    await replies.edit(
                        interaction, f"{invitation.split(chr(10))[0]}\n{status}".strip()
                    )
                    return
                # A ruleset may word the start its own way (a dungeon has no dice in the DMs).
                present = registry.get(game.ruleset).presenter
                text = present.accepted_text(
                    channel_lang, game=game.id, user=interaction.user.mention
                )
            else:
                game = await bot.table.decline(self.game_id, interaction.user.id)
                text = t(
                    channel_lang, "challenge.declined", game=game.id, user=interaction.user.mention
                )
        except RuleError as exc:
            await replies.refuse(interaction, exc, lang)
            return
        await replies.edit(interaction, text, view=None)


async def post_challenge(
    interaction: discord.Interaction[Any],
    ruleset: str,
    opponents: Sequence[discord.Member],
    *,
    options: dict[str, Any] | None,
    turn_seconds: int | None,
    text_params: Callable[[str], dict[str, Any]] = lambda lang: {},
) -> GameRow:
    """A ``/<ruleset> challenge``: open the lobby for the caller and ``opponents`` (one, or a
    party: the game starts when every one of them has pressed Accept; one Decline calls it off)
    and post the invitation with Accept/Decline.

    The invitation is the presenter's ``challenge_text`` (``opponent``: every one invited);
    ``text_params(lang)`` fills the parts of it that depend on the channel's language (a map's
    name, say); its ``deadline``, when given, is a line of its own below the invitation
    (:func:`bot.deadline_defaults.note`).
    """
    bot: Host = interaction.client
    await bot.table.remember_locale(interaction.user.id, str(interaction.locale))
    if any(m.bot for m in opponents):
        raise RuleError("challenge.no_bots")
    game = await bot.table.challenge(
        ruleset,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        players=[
            Player(interaction.user.id, interaction.user.display_name),
            *(Player(m.id, m.display_name) for m in opponents),
        ],
        options=options,
        turn_seconds=turn_seconds,
    )
    lang = await bot.table.language(interaction.guild_id)
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton.make(game.id, "accept", lang))
    view.add_item(ChallengeButton.make(game.id, "decline", lang))
    params = text_params(lang)
    text = registry.get(ruleset).presenter.challenge_text(
        lang,
        challenger=interaction.user.mention,
        opponent=" ".join(m.mention for m in opponents),
        game=game.id,
        **params,
    )
    if params.get("deadline"):  # the time a step, and whether it is the server's default
        text += "\n" + str(params["deadline"])
    await replies.respond(
        interaction,
        text,
        view=view,
        allowed_mentions=discord.AllowedMentions(users=list(opponents)),
    )
    return game


# A ruleset's order builder: called with the click, the game and the clicking player's seat.
SheetBuilder = Callable[[discord.Interaction[Any], Any, str], Awaitable[None]]


class _GameTurnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # Each subclass has its own template; this one (never registered) only names the groups.
    template=r"pbp:[a-z]:(?P<game>[^:]+):(?P<turn>\d+)",
):
    """A persistent button whose custom id carries a game id and a turn (``game``, ``turn``).
    ``turn`` is None when the id's number is none a game reaches (a forged one): the click is
    answered as out of date (:func:`out_of_date`)."""

    def __init__(self, item: discord.ui.Button[Any], game_id: str, turn: int | None) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        assert isinstance(item, discord.ui.Button)  # the template matches only our buttons' ids
        return cls(item, match["game"], limits.id_number(match["turn"]))


async def out_of_date(interaction: discord.Interaction[Any]) -> None:
    """The answer to a component whose id does not parse back to anything the bot offers (a
    number out of the game's range, a step that does not exist): short, private."""
    await replies.refuse(interaction, RuleError("component.out_of_date"), reader_lang(interaction))


class BuilderButton(
    _GameTurnButton,
    template=r"pbp:b:(?P<game>[^:]+):(?P<turn>\d+)",
):
    """Opens the ruleset's own order builder (its spec's ``sheet_builder``)."""

    @classmethod
    def make(cls, game_id: str, turn: int, label: str) -> BuilderButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label[:80],
            emoji="📝",
            style=discord.ButtonStyle.primary,
            custom_id=f"pbp:b:{game_id}:{turn}",
        )
        return cls(button, game_id, turn)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: Host = interaction.client
        lang = reader_lang(interaction)
        await bot.table.remember_locale(interaction.user.id, str(interaction.locale))
        if self.turn is None:
            await out_of_date(interaction)
            return
        try:
            game, seat = await bot.table.reads.seat_for_click(
                self.game_id, interaction.user.id, self.turn
            )
            ref = registry.get(game.ruleset).sheet_builder
            if ref is None:
                raise RuleError("order.no_builder")
            builder: SheetBuilder = ref.load()
        except RuleError as exc:
            await replies.refuse(interaction, exc, lang)
            return
        await builder(interaction, game, seat)


def proofs_steps(turn: str, since: str | None) -> tuple[int | None, int | None]:
    """A Proofs button's ``turn`` and ``since`` as numbers; (None, None) for anything no post of
    ours carries (a number past any game's, ``since`` after ``turn``): out of date."""
    last, first = limits.id_number(turn), None if since is None else limits.id_number(since)
    if last is None or (since is not None and (first is None or first > last)):
        return None, None
    return last, first


class ProofsButton(
    _GameTurnButton,
    template=r"pbp:p:(?P<game>[^:]+):(?P<turn>\d+)(?::(?P<since>\d+))?",
):
    """Under a turn post: that step's seeds, commitments, salts, receipts and digests in full
    (the post shows them short), privately; under a post a run of steps edited, those of each
    step it shows (``since``…``turn``). Only what is public: :meth:`bot.reads.Reads.proofs`
    leaves out an unrevealed seed and a withheld order's text and salt."""

    # A post's log keeps its latest lines; its proofs, those of its latest steps.
    MAX_STEPS = 20

    def __init__(
        self, item: discord.ui.Button[Any], game_id: str, turn: int | None, since: int | None = None
    ) -> None:
        super().__init__(item, game_id, turn)
        self.since = since

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        assert isinstance(item, discord.ui.Button)  # the template matches only our buttons' ids
        return cls(item, match["game"], *proofs_steps(match["turn"], match["since"]))

    @classmethod
    def make(cls, game_id: str, turn: int, label: str, *, since: int | None = None) -> ProofsButton:
        custom_id = f"pbp:p:{game_id}:{turn}" + ("" if since is None else f":{since}")
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=limits.clip(label, limits.BUTTON_LABEL),
            emoji="🔎",
            style=discord.ButtonStyle.secondary,
            custom_id=custom_id,
        )
        return cls(button, game_id, turn, since)

    def steps(self) -> range:
        assert self.turn is not None, "steps() of a parsed id"
        first = self.turn if self.since is None else max(self.since, self.turn - self.MAX_STEPS + 1)
        return range(min(first, self.turn), self.turn + 1)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: Host = interaction.client
        lang = reader_lang(interaction)
        await bot.table.remember_locale(interaction.user.id, str(interaction.locale))
        if self.turn is None:
            await out_of_date(interaction)
            return
        try:
            game = await bot.table.game(self.game_id)
            # As /game export: an id tried from elsewhere gets the answer an unknown one would.
            if not can_read(interaction, game):
                raise TableError("table.no_such_game", game=self.game_id)
            if self.turn > game.step:  # a step the game has not reached: no post carries it
                raise RuleError("component.out_of_date")
            proofs = [await bot.table.reads.proofs(self.game_id, step) for step in self.steps()]
        except RuleError as exc:
            await replies.refuse(interaction, exc, lang)
            return
        await replies.send_private(
            interaction, "\n\n".join(messages.proofs_text(p, lang) for p in proofs)
        )


class _GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # Each subclass has its own template; this one (never registered) only names the group.
    template=r"pbp:[a-z]:(?P<game>[^:]+)",
):
    """A persistent button of a prompt whose custom id carries only its game: what it answers
    is read when it is clicked, so an old prompt's button answers with the game as it is."""

    EMOJI = ""
    KIND = ""

    def __init__(self, item: discord.ui.Button[Any], game_id: str) -> None:
        super().__init__(item)
        self.game_id = game_id

    @classmethod
    def make(cls, game_id: str, label: str) -> Self:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=limits.clip(label, limits.BUTTON_LABEL),
            emoji=cls.EMOJI,
            style=discord.ButtonStyle.secondary,
            custom_id=f"pbp:{cls.KIND}:{game_id}",
        )
        return cls(button, game_id)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        assert isinstance(item, discord.ui.Button)  # the template matches only our buttons' ids
        return cls(item, match["game"])


class MineButton(_GameButton, template=r"pbp:m:(?P<game>[^:]+)"):
    """📋 under a prompt: the clicker's own sheet (hand, keys, stats) in the game as it is now,
    privately. Only ever the clicker's seat: a player whose seat was handed on is refused."""

    EMOJI, KIND = "📋", "m"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: Host = interaction.client
        lang = reader_lang(interaction)
        await bot.table.remember_locale(interaction.user.id, str(interaction.locale))
        try:
            loaded, seat = await bot.table.reads.own_seat(self.game_id, interaction.user.id)
        except RuleError as exc:
            await replies.refuse(interaction, exc, lang)
            return
        await replies.send_private(interaction, messages.mine_text(loaded, seat, lang))


class HelpButton(_GameButton, template=r"pbp:h:(?P<game>[^:]+)"):
    """❓ under a prompt: how to answer in this game's ruleset (its help, every term its
    buttons use), privately, in the clicker's language."""

    EMOJI, KIND = "❓", "h"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: Host = interaction.client
        lang = reader_lang(interaction)
        await bot.table.remember_locale(interaction.user.id, str(interaction.locale))
        try:
            game = await bot.table.game(self.game_id)
        except RuleError as exc:
            await replies.refuse(interaction, exc, lang)
            return
        present = registry.get(game.ruleset).presenter
        title = t(lang, "dm.help.title", ruleset=present.title(lang))
        await replies.send_private(interaction, title + "\n" + present.order_help(lang))


DYNAMIC_ITEMS = (
    OrderButton,
    OrderSelect,
    ChallengeButton,
    BuilderButton,
    ProofsButton,
    MineButton,
    HelpButton,
)
