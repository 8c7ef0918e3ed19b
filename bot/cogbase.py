"""The base of a ruleset's cog: ``/<key>``, ``/<key> rules`` and ``/<key> challenge`` made from
the ruleset's spec, so that a cog writes only the commands that are its own.

::

    class ArenaCog(RulesetCog, spec=RULESET, about="…", rules_about="…", guild_only=True):
        @challenge_command("Challenge a player to a duel in this channel")
        @app_commands.describe(hours=TURN_HOURS, obstacles=ls("…", "cmd.opt.obstacles"))
        async def challenge(self, interaction, hours: … = 24.0, obstacles: … = None) -> Challenge:
            return Challenge(options=…, turn_seconds=hours_seconds(hours))

    class RpsCog(RulesetCog, spec=RULESET, about="…", rules_about="…", guild_only=True):
        challenge = ChallengeCommand("Challenge a player to rock-paper-scissors in this channel")

For the spec whose key is ``arena`` the base makes:

- the group ``/arena`` (name and description under ``cmd.arena`` and ``cmd.arena.desc``),
  guild-only when the class says so;
- ``/arena rules`` (``cmd.arena.rules``): the presenter's ``how_to_play``, privately, in the
  reader's language;
- ``/arena challenge`` (``cmd.arena.challenge``), when the class declares ``challenge`` as a
  :class:`ChallengeCommand`: first one option per opponent the seats allow (``opponent``, or
  ``opponent1``… for a table of more than two, the first one required), then the options of the
  ruleset's settings function, which returns the game's :class:`Challenge`; the lobby is then
  :func:`bot.views.post_challenge`'s. Naming fewer opponents than the seats need is refused with
  ``<key>.challenge.too_few`` (``{needed}``: the fewest players).

The cog's own commands are declared with ``@app_commands.command`` (a sub-group as an
``app_commands.Group`` without a parent) and join the group in the order the class declares
them, after the command that opens a game (the challenge, or the cog's own first command, such as
a ``start``) and ``rules``. Every option of a generated command is renamed for translation as
:func:`bot.i18n.translator.localized_params` does.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import reader_lang
from bot.i18n.translator import localized_params, ls
from bot.ruleset import RuleError, RulesetSpec
from bot.views import post_challenge

if TYPE_CHECKING:
    from bot.client import RefereeBot

DEFAULT_TURN_HOURS = 24.0
OPPONENT = ls("Who you challenge", "cmd.opt.opponent")
TURN_HOURS = ls("Time per turn in hours (0 = no deadline)", "cmd.opt.turn_hours")


def _no_words(lang: str) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class Challenge:
    """What a challenge opens: the game's options, its time per step (None: no deadline), and
    the invitation's own words in the channel's language (``post_challenge``'s
    ``text_params``)."""

    options: dict[str, Any] | None
    turn_seconds: int | None
    text_params: Callable[[str], dict[str, Any]] = _no_words


# ``async def settings(cog, interaction, <the ruleset's options>) -> Challenge``
Settings = Callable[..., Awaitable[Challenge]]


def hours_seconds(hours: float) -> int | None:
    """A time per turn given in hours, in seconds (0: no deadline)."""
    return round(hours * 3600) or None


@app_commands.describe(hours=TURN_HOURS)
async def by_hours(
    cog: Any,
    interaction: discord.Interaction[Any],
    hours: app_commands.Range[float, 0.0, 168.0] = DEFAULT_TURN_HOURS,
) -> Challenge:
    """The settings of a game whose only option is the time per turn, in hours."""
    return Challenge(options=None, turn_seconds=hours_seconds(hours))


@dataclass(frozen=True)
class ChallengeCommand:
    """A ruleset's ``challenge``, as its cog declares it: the command's description (English; the
    catalogue has the Japanese under ``cmd.<key>.challenge.desc``), the settings function, and
    descriptions of the opponents' options beyond the default ``opponent``'s."""

    about: str
    settings: Settings = by_hours
    describe: Mapping[str, app_commands.locale_str] = field(default_factory=dict)


def challenge_command(about: str) -> Callable[[Settings], ChallengeCommand]:
    """Declare a settings function (decorated with its options' ``describe``, ``choices``,
    ``autocomplete``…) as the cog's ``challenge``."""
    return lambda settings: ChallengeCommand(about, settings)


class RulesetCog(commands.Cog):
    """A ruleset's cog (see the module's docstring); its class keywords: ``spec``, ``about`` (the
    group's description), ``rules_about`` (``rules``' description), ``guild_only`` (the group's).
    ``dynamic_items``: the persistent components the cog registers while it is loaded (an order
    builder's)."""

    spec: ClassVar[RulesetSpec[Any, Any]]
    group: ClassVar[app_commands.Group]
    dynamic_items: ClassVar[tuple[type[discord.ui.DynamicItem[Any]], ...]] = ()

    def __init_subclass__(
        cls,
        *,
        spec: RulesetSpec[Any, Any],
        about: str,
        rules_about: str,
        guild_only: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        cls.spec = spec
        key = spec.key
        own = [
            value
            for value in vars(cls).values()
            if isinstance(value, app_commands.Command | app_commands.Group) and value.parent is None
        ]
        made: dict[str, app_commands.Command[Any, ..., Any]] = {}
        declared = vars(cls).get("challenge")
        if isinstance(declared, ChallengeCommand):
            made["challenge"] = _challenge(cls, declared)
        made["rules"] = _rules(cls, rules_about)
        children: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = list(own)
        if "challenge" in made:
            children.insert(0, made["challenge"])
        children.insert(1, made["rules"])  # after the command that opens a game
        group = app_commands.Group(
            name=ls(key, f"cmd.{key}"),
            description=ls(about, f"cmd.{key}.desc"),
            guild_only=guild_only,
        )
        for child in children:
            group.add_command(child)
        attrs: dict[str, app_commands.Command[Any, ..., Any] | app_commands.Group] = {
            **made,
            "group": group,
        }
        for attr, item in attrs.items():
            # The cog module's, as the commands it declares are (an extension's go with it).
            item.module = cls.__module__
            setattr(cls, attr, item)
            item.__set_name__(cls, attr)

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        if self.dynamic_items:
            bot.add_dynamic_items(*self.dynamic_items)

    async def cog_unload(self) -> None:
        if self.dynamic_items:
            self.bot.remove_dynamic_items(*self.dynamic_items)


def _as_method(func: Callable[..., Any], cls: type, name: str) -> None:
    """Name ``func`` as a method of ``cls``: discord.py hands a method's callback the cog."""
    func.__name__ = name
    func.__qualname__ = f"{cls.__qualname__}.{name}"
    func.__module__ = cls.__module__


def _rules(cls: type[RulesetCog], about: str) -> app_commands.Command[Any, ..., Any]:
    spec = cls.spec

    async def rules(self: RulesetCog, interaction: discord.Interaction[Any]) -> None:
        lang = reader_lang(interaction)
        await replies.respond(interaction, spec.presenter.how_to_play(lang), ephemeral=True)

    _as_method(rules, cls, "rules")
    return app_commands.Command(
        name=ls("rules", f"cmd.{spec.key}.rules"),
        description=ls(about, f"cmd.{spec.key}.rules.desc"),
        callback=rules,
    )


def _opponents(spec: RulesetSpec[Any, Any]) -> tuple[list[inspect.Parameter], int]:
    """The opponents' options (as keyword parameters) and how many must be named at least."""
    counts = spec.seats.allowed()
    most, fewest = max(counts) - 1, min(counts) - 1
    keyword = inspect.Parameter.KEYWORD_ONLY
    if most == 1:
        return [inspect.Parameter("opponent", keyword, annotation=discord.Member)], fewest
    first = inspect.Parameter("opponent1", keyword, annotation=discord.Member)
    others = [
        inspect.Parameter(f"opponent{n}", keyword, annotation=discord.Member | None, default=None)
        for n in range(2, most + 1)
    ]
    return [first, *others], fewest


def _challenge(
    cls: type[RulesetCog], declared: ChallengeCommand
) -> app_commands.Command[Any, ..., Any]:
    spec, settings = cls.spec, declared.settings
    opponents, fewest = _opponents(spec)
    names = [p.name for p in opponents]
    # The settings' options, their annotations resolved where they were written (discord.py
    # reads them from the callback below, whose module does not know those names).
    hints = typing.get_type_hints(settings)
    own = [  # after ``cog`` and ``interaction``
        p.replace(annotation=hints[p.name], kind=inspect.Parameter.KEYWORD_ONLY)
        for p in [*inspect.signature(settings).parameters.values()][2:]
    ]

    @functools.wraps(settings)  # its describe, choices, autocomplete and guild_only
    async def challenge(
        self: RulesetCog, interaction: discord.Interaction[Any], **values: Any
    ) -> None:
        named = [values.pop(name) for name in names]
        invited = [member for member in named if member is not None]
        if len(invited) < fewest:
            raise RuleError(f"{spec.key}.challenge.too_few", needed=fewest + 1)
        made = await settings(self, interaction, **values)
        await post_challenge(
            interaction,
            spec.key,
            invited,
            options=made.options,
            turn_seconds=made.turn_seconds,
            text_params=made.text_params,
        )

    _as_method(challenge, cls, "challenge")
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    challenge.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("self", keyword),
            inspect.Parameter("interaction", keyword, annotation=discord.Interaction),
            *opponents,
            *own,
        ],
        return_annotation=None,
    )
    described = getattr(settings, "__discord_app_commands_param_description__", {})
    challenge.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        **({"opponent": OPPONENT} if names == ["opponent"] else {}),
        **declared.describe,
        **described,
    }
    return app_commands.Command(
        name=ls("challenge", f"cmd.{spec.key}.challenge"),
        description=ls(declared.about, f"cmd.{spec.key}.challenge.desc"),
        callback=localized_params(challenge),
    )
