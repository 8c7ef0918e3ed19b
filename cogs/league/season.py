"""A league season as one value, pure: players, the entry draft, master units, matches and antes.

:class:`League` is what is stored (as JSON, with a version) beside the append-only roster ledger.
Every step is a function ``(league, ledger, …) -> Step``: the new league, the ledger entries it
appends, and :class:`Notice` values saying what people should be told (the service turns them
into channel posts and DMs). Nothing here reads a clock, a database or Discord.

Players are Discord user ids as strings (the ledger's ``player``); ``by`` names who acted
(a user id, ``draft`` for an automatic pick, ``system``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot import absences as away
from bot.leagues import DP, AnteChecked, LeagueResult, PickChecked, RosterRules
from bot.ruleset import LeagueSupport, RuleError
from cogs.league import ante as antes
from cogs.league import cup as cups
from cogs.league import draft as drafts
from cogs.league import swiss as swisses
from cogs.league.ledger import (
    MASTER_SET,
    MODERATOR_ADD,
    MODERATOR_REMOVE,
    Entry,
    Roster,
    append,
    roster_at,
)
from cogs.league.ratings import Rating, seed_order
from cogs.league.standings import (
    DRAW_POINTS,
    WIN_POINTS,
    Result,
    Row,
    full_result_from_json,
    full_result_json,
    standings,
)

SCHEMA = 1
# Names typed by a moderator; the slash options carry the same maxima. Short, because they head
# every embed and post of the league (a title holds 256 characters).
NAME_MAX = 40
SEASON_MAX = 40
PENDING, APPROVED, REJECTED = "pending", "approved", "rejected"
PLAYING, FINISHED, FORFEIT, ABANDONED = "playing", "finished", "forfeit", "abandoned"
# A league's format: matches paired by a moderator one at a time (round robin by hand), or by
# round (``/league round``) as a Swiss of a fixed number of rounds or a single-elimination cup.
ROUND_ROBIN, SWISS, CUP = "round_robin", "swiss", "cup"
FORMATS = (ROUND_ROBIN, SWISS, CUP)
SWISS_ROUNDS_MAX = 15
ROUNDS_MAX = 30  # an entry draft's rounds (a ruleset may need more than the default nine)


DEFAULT_TURN_MINUTES = 10  # a league's minutes a step where nothing says otherwise


class LeagueError(RuleError):
    """A league action refused (``league.*``)."""


@dataclass(frozen=True)
class Options:
    """A league's options. ``cost_cap`` and ``tie_break`` are game options a ruleset may let a
    league fix (:class:`bot.leagues.FixedOption`; the ruleset checks their values); the draft,
    master and ante options are for rulesets with rosters."""

    # per step in a league match; 0: no deadline. /league create takes the server's
    # (/config deadlines; live: DEFAULT_TURN_MINUTES) when its minutes are left out.
    turn_minutes: int = DEFAULT_TURN_MINUTES
    cost_cap: int = 18
    tie_break: str = "none"
    master_approval: bool = False
    ante: bool = True
    pick_minutes: int = 720  # per draft pick
    rounds: int = drafts.DEFAULT_ROUNDS
    # Absences and missed deadlines (issue 34; bot.absences reads them by these names): whether
    # a deadline inside a player's absence waits or plays the defaults, the most days one absence
    # and a season's absences may last, and the unexcused misses after which the moderators are
    # told (0: no limit).
    absences: str = away.WAIT
    away_days: int = away.DEFAULT_MAX_DAYS
    away_season_days: int = away.DEFAULT_SEASON_DAYS
    miss_limit: int = 0
    # The ruleset's own fixed options (named by its FixedOptions) and what it fixed at the
    # league's creation (LeagueSupport.at_creation: a pack); stored beside the others.
    game: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0 <= self.turn_minutes <= 10080:
            raise LeagueError("league.option.turn_minutes", value=self.turn_minutes)
        if not 1 <= self.pick_minutes <= 10080:
            raise LeagueError("league.option.pick_minutes", value=self.pick_minutes)
        if not 1 <= self.rounds <= ROUNDS_MAX:
            raise LeagueError("league.option.rounds", value=self.rounds, max=ROUNDS_MAX)
        away.Policy(self.away_days, self.absences, self.away_season_days, self.miss_limit)
        clash = set(self.game) & set(self.__dataclass_fields__)
        if clash:
            raise ValueError(f"game options named as the league's own: {sorted(clash)}")

    def to_json(self) -> dict[str, Any]:
        """One flat object: the league's options, then the ruleset's (a league without any
        stores what it stored before they came)."""
        own = {k: v for k, v in self.__dict__.items() if k != "game"}
        # Absence options at their defaults are left out: a league stores what it stored before
        # they came.
        for name in AWAY_OPTIONS:
            if own[name] == Options.__dataclass_fields__[name].default:
                del own[name]
        return {**own, **self.game}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Options:
        known = cls.__dataclass_fields__
        game = {k: v for k, v in obj.items() if k not in known}
        return cls(**{k: v for k, v in obj.items() if k in known and k != "game"}, game=game)

    def check_for(self, support: LeagueSupport) -> None:
        """Refuse what the ruleset does not take: a value its fixed options refuse, a game
        option it does not let a league fix, a roster option without rosters, master approval
        without masters (each set to anything but its default), a draft shorter than its
        rosters need."""
        support.fixed(self.to_json())
        if support.rosters is not None and self.rounds < (support.draft_rounds or 1):
            raise LeagueError(
                "league.option.rounds_min", value=self.rounds, min=support.draft_rounds
            )
        unused = [name for name in GAME_OPTIONS if support.option(name) is None]
        if support.rosters is None:
            unused += ROSTER_OPTIONS
        elif not support.rosters.has_masters:  # Apeiron's collections: nothing to approve
            unused.append("master_approval")
        default = Options()
        for name in unused:
            if getattr(self, name) != getattr(default, name):
                raise LeagueError("league.option.not_in_ruleset", option=name)


# The options above that are the game's (fixed for every match where the ruleset declares them)
# and those only a league with rosters has.
GAME_OPTIONS = ("cost_cap", "tie_break")
ROSTER_OPTIONS = ("master_approval", "ante", "pick_minutes", "rounds")
AWAY_OPTIONS = away.LEAGUE_KEYS


@dataclass(frozen=True)
class Master:
    player: str
    spec: Mapping[str, Any]  # {"preset": id} or a full design
    unit: str  # the master's id
    summary: str
    status: str
    submitted_at: float
    decided_by: str = ""
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "spec": dict(self.spec)}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Master:
        return cls(**obj)


@dataclass(frozen=True)
class Match:
    """A league match: the game ``id`` of ``a`` (seat A), ``b`` (seat B) and, in a game of more
    seats (Esper's 5–11), ``rest`` (seats C, D… in order).

    A two-seat match's result is its ``winner`` (None: a draw) and DP. A match whose ruleset
    grades every seat (:attr:`bot.leagues.LeagueResult.points`) keeps the full result instead:
    each player's place, points and whether they won (``winners``: a side may win together).
    """

    id: str  # the game's id
    a: str
    b: str
    started_at: float
    status: str = PLAYING
    winner: str | None = None
    dp_a: int = 0
    dp_b: int = 0
    ended_at: float | None = None
    by: str = ""  # the moderator who recorded a forfeit
    # The ruleset's other tie-break figures (LeagueSupport.figures but DP) each player scored.
    figures: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    rest: tuple[str, ...] = ()
    places: Mapping[str, int] = field(default_factory=dict)
    points: Mapping[str, int] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    # The league's players the match was paired with, in seat order, kept only when a seat was
    # handed to a substitute (issue 34): the result is the final players', but a Swiss or a cup
    # goes on with its own field.
    entrants: tuple[str, ...] = ()

    def players(self) -> tuple[str, ...]:
        """Every player, in seat order."""
        return self.a, self.b, *self.rest

    def entrant(self, player: str) -> str:
        """The league player who was paired in ``player``'s seat (``player`` itself unless the
        seat was handed to a substitute)."""
        if not self.entrants or player not in self.players():
            return player
        return self.entrants[self.players().index(player)]

    @property
    def graded(self) -> bool:
        """Whether the match's result gives every player points of its own (not win-draw-loss)."""
        return bool(self.points)

    def to_json(self) -> dict[str, Any]:
        """A two-seat match is stored as before figures and more seats came (no keys added)."""
        out = {k: v for k, v in self.__dict__.items() if k not in _MATCH_OPTIONAL}
        if self.figures:
            out["figures"] = {p: dict(f) for p, f in self.figures.items()}
        if self.entrants:
            out["entrants"] = list(self.entrants)
        return {**out, **full_result_json(self.rest, self.places, self.points, self.winners)}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Match:
        fields = {k: v for k, v in obj.items() if k not in _MATCH_OPTIONAL}
        figures = {str(p): dict(f) for p, f in obj.get("figures", {}).items()}
        entrants = tuple(str(p) for p in obj.get("entrants", ()))
        return cls(**fields, figures=figures, entrants=entrants, **full_result_from_json(obj))


_MATCH_OPTIONAL = frozenset({"figures", "rest", "places", "points", "winners", "entrants"})


@dataclass(frozen=True)
class League:
    id: str
    guild_id: int
    channel_id: int
    name: str
    ruleset: str
    season: str
    options: Options
    created_by: str
    created_at: float
    moderator_role: int | None = None
    players: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)
    draft: drafts.DraftState | None = None
    masters: Mapping[str, Master] = field(default_factory=dict)
    masters_revealed: bool = False
    matches: tuple[Match, ...] = ()
    antes: tuple[antes.Ante, ...] = ()
    format: str = ROUND_ROBIN
    swiss_rounds: int = 0  # a Swiss league's number of rounds
    swiss: swisses.Swiss | None = None  # paired from the first /league round on
    cup: cups.Cup | None = None  # seeded at the first /league round

    @property
    def started(self) -> bool:
        """Whether a Swiss or a cup has made its first round (its field is then fixed)."""
        return self.swiss is not None or self.cup is not None

    @property
    def draft_over(self) -> bool:
        return self.draft is not None and self.draft.over

    def match(self, match_id: str) -> Match:
        found = next((m for m in self.matches if m.id == match_id), None)
        if found is None:
            raise LeagueError("league.match.unknown", match=match_id)
        return found

    def ante_of(self, match_id: str) -> antes.Ante:
        found = next((a for a in self.antes if a.match == match_id), None)
        if found is None:
            raise LeagueError("league.ante.unknown", match=match_id)
        return found

    def playing(self) -> list[Match]:
        return [m for m in self.matches if m.status == PLAYING]

    def results(self) -> list[Result]:
        return [
            Result(
                m.id,
                m.a,
                m.b,
                m.winner,
                m.dp_a,
                m.dp_b,
                m.ended_at or 0.0,
                m.status == FORFEIT,
                m.figures,
                rest=m.rest,
                places=m.places,
                points=m.points,
                winners=m.winners,
            )
            for m in self.matches
            if m.status in (FINISHED, FORFEIT)
        ]

    def standings(self) -> list[Row]:
        return standings(self.players, self.results())

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "id": self.id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "name": self.name,
            "ruleset": self.ruleset,
            "season": self.season,
            "options": self.options.to_json(),
            "created_by": self.created_by,
            "created_at": self.created_at,
            "moderator_role": self.moderator_role,
            "players": list(self.players),
            "names": dict(self.names),
            "draft": self.draft.to_json() if self.draft else None,
            "masters": {p: m.to_json() for p, m in self.masters.items()},
            "masters_revealed": self.masters_revealed,
            "matches": [m.to_json() for m in self.matches],
            "antes": [a.to_json() for a in self.antes],
            # A round-robin league's document is as before formats came (no keys added).
            **(
                {}
                if self.format == ROUND_ROBIN
                else {
                    "format": self.format,
                    "swiss_rounds": self.swiss_rounds,
                    "swiss": self.swiss.to_json() if self.swiss else None,
                    "cup": self.cup.to_json() if self.cup else None,
                }
            ),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> League:
        return cls(
            id=str(obj["id"]),
            guild_id=int(obj["guild_id"]),
            channel_id=int(obj["channel_id"]),
            name=str(obj["name"]),
            ruleset=str(obj["ruleset"]),
            season=str(obj["season"]),
            options=Options.from_json(obj["options"]),
            created_by=str(obj["created_by"]),
            created_at=float(obj["created_at"]),
            moderator_role=obj.get("moderator_role"),
            players=tuple(obj.get("players", ())),
            names=dict(obj.get("names", {})),
            draft=drafts.DraftState.from_json(obj["draft"]) if obj.get("draft") else None,
            masters={p: Master.from_json(m) for p, m in obj.get("masters", {}).items()},
            masters_revealed=bool(obj.get("masters_revealed", False)),
            matches=tuple(Match.from_json(m) for m in obj.get("matches", ())),
            antes=tuple(antes.Ante.from_json(a) for a in obj.get("antes", ())),
            format=str(obj.get("format", ROUND_ROBIN)),  # stored before formats: round robin
            swiss_rounds=int(obj.get("swiss_rounds", 0)),
            swiss=swisses.Swiss.from_json(obj["swiss"]) if obj.get("swiss") else None,
            cup=cups.Cup.from_json(obj["cup"]) if obj.get("cup") else None,
        )


@dataclass(frozen=True)
class Notice:
    """Something to tell: ``key`` and its parameters, to the channel or (``to``) one player by
    DM. ``offer`` names what a DM lets its reader choose (``draft`` or ``ante``)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    to: str | None = None
    offer: str | None = None
    ref: str = ""  # a stable part of the message's identity (pick number, match id…)


def tell(
    key: str, /, *, to: str | None = None, offer: str | None = None, ref: str = "", **params: Any
) -> Notice:
    return Notice(key, params, to, offer, ref)


@dataclass(frozen=True)
class Step:
    league: League
    entries: tuple[Entry, ...] = ()
    notices: tuple[Notice, ...] = ()


# --- players --------------------------------------------------------------------------------


def create(
    league_id: str,
    *,
    guild_id: int,
    channel_id: int,
    name: str,
    ruleset: str,
    support: LeagueSupport,
    season: str,
    options: Options,
    by: str,
    at: float,
    format: str = ROUND_ROBIN,
    swiss_rounds: int = 0,
    counts: Collection[int] = (2,),
) -> League:
    """A new league of ``ruleset`` (``support``: what its spec lets a league do; ``counts``: how
    many players its games seat), in ``format`` (a Swiss plays ``swiss_rounds`` rounds; Swiss
    and cups pair two players, so a game of more seats is played round robin)."""
    name, season = name.strip(), season.strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise LeagueError("league.name.length", max=NAME_MAX)
    if not 1 <= len(season) <= SEASON_MAX:
        raise LeagueError("league.season.length", max=SEASON_MAX)
    if format not in FORMATS:
        raise LeagueError("league.format.unknown", format=format)
    if format != ROUND_ROBIN and set(counts) != {2}:
        raise LeagueError("league.format.two_seats", format=format, seats=seat_counts(counts))
    if format == SWISS and not 1 <= swiss_rounds <= SWISS_ROUNDS_MAX:
        raise LeagueError("league.format.swiss_rounds", max=SWISS_ROUNDS_MAX)
    if format != SWISS:
        swiss_rounds = 0
    options.check_for(support)
    return League(
        league_id,
        guild_id,
        channel_id,
        name,
        ruleset,
        season,
        options,
        by,
        at,
        format=format,
        swiss_rounds=swiss_rounds,
    )


def join(league: League, player: str, name: str) -> League:
    if player in league.players:
        raise LeagueError("league.join.already", league=league.name)
    if league.started:
        raise LeagueError("league.join.format_started", league=league.name)
    if league.draft is not None:
        raise LeagueError("league.join.draft_started", league=league.name)
    return replace(league, players=(*league.players, player), names={**league.names, player: name})


def leave(league: League, player: str) -> League:
    _require_player(league, player)
    if league.draft is not None:
        raise LeagueError("league.leave.draft_started", league=league.name)
    if league.started:
        raise LeagueError("league.leave.format_started", league=league.name)
    names = {p: n for p, n in league.names.items() if p != player}
    return replace(league, players=tuple(p for p in league.players if p != player), names=names)


def _require_player(league: League, player: str) -> None:
    if player not in league.players:
        raise LeagueError("league.not_a_player", league=league.name)


# --- the entry draft --------------------------------------------------------------------------


def start_draft(league: League, rules: RosterRules, at: float) -> Step:
    if league.draft is not None:
        raise LeagueError("league.draft.already_started")
    if len(league.players) < 2:
        raise LeagueError("league.draft.too_few_players", count=len(league.players))
    state = drafts.new_draft(
        league.id,
        league.players,
        rules.pool(),
        rounds=league.options.rounds,
        per_pick=league.options.pick_minutes * 60.0,
        at=at,
    )
    league = replace(league, draft=state)
    order = " → ".join(f"<@{p}>" for p in league.players)
    start = tell(
        "league.draft.started",
        ref="start",
        league=league.name,
        order=order,
        rounds=state.rounds,
        minutes=league.options.pick_minutes,
    )
    return Step(league, notices=(start, *_pick_prompt(league.name, state)))


def _pick_prompt(name: str, state: drafts.DraftState) -> tuple[Notice, ...]:
    if state.over:
        return (tell("league.draft.finished", ref="finished", league=name),)
    return (
        tell(
            "league.draft.your_pick",
            to=state.current,
            offer="draft",
            ref=str(state.number),
            league=name,
            number=state.number,
            total=len(state.sequence),
            deadline=state.deadline_at,
        ),
    )


def _picked(before: drafts.DraftState, after: drafts.DraftState) -> list[Notice]:
    notices = []
    for made in after.picks[len(before.picks) :]:
        key = "league.draft.auto_picked" if made.auto else "league.draft.picked"
        params = {"number": made.number, "player": f"<@{made.player}>", "unit": made.unit}
        notices.append(Notice(key, params, ref=str(made.number)))
    return notices


def pick_check(rules: RosterRules | None) -> drafts.Check | None:
    """The ruleset's judgement of a draft pick, where its rosters have one."""
    return rules.check_pick if isinstance(rules, PickChecked) else None


def draft_pick(
    league: League,
    player: str,
    unit: str,
    number: int,
    at: float,
    rules: RosterRules | None = None,
) -> Step:
    """``player`` takes ``unit`` with the menu of pick ``number`` (an older menu is refused);
    ``rules``' pick check (if any) judges it."""
    state = league.draft
    if state is None:
        raise LeagueError("league.draft.not_started")
    if not state.over and number != state.number and player == state.current:
        raise LeagueError("league.draft.stale_menu", number=number, current=state.number)
    after = drafts.pick(state, player, unit, at, check=pick_check(rules))
    return _after_picks(league, state, after)


def _after_picks(league: League, before: drafts.DraftState, after: drafts.DraftState) -> Step:
    new = drafts.ledger_entries(after)[len(before.picks) :]
    notices = [*_picked(before, after), *_pick_prompt(league.name, after)]
    return Step(replace(league, draft=after), tuple(new), tuple(notices))


# --- master units -----------------------------------------------------------------------------


def submit_master(
    league: League, rules: RosterRules, player: str, spec: Mapping[str, Any], at: float
) -> Step:
    _require_player(league, player)
    if not rules.has_masters:
        raise LeagueError("league.master.none_in_ruleset", ruleset=league.ruleset)
    if league.masters_revealed:
        raise LeagueError("league.master.revealed")
    unit, summary = rules.master(spec)
    status = PENDING if league.options.master_approval else APPROVED
    master = Master(player, dict(spec), unit, summary, status, at)
    league = replace(league, masters={**league.masters, player: master})
    notices: list[Notice] = []
    if status == PENDING:
        notices.append(
            tell(
                "league.master.awaiting_approval",
                ref=f"{player}:{at}",
                league=league.name,
                player=f"<@{player}>",
            )
        )
    step = _reveal_if_ready(league, at)
    return Step(step.league, step.entries, (*notices, *step.notices))


def decide_master(
    league: League, player: str, *, approve: bool, by: str, note: str, at: float
) -> Step:
    if league.masters_revealed:
        raise LeagueError("league.master.revealed")
    master = league.masters.get(player)
    if master is None or master.status != PENDING:
        raise LeagueError("league.master.nothing_pending", player=league.names.get(player, player))
    decided = replace(master, status=APPROVED if approve else REJECTED, decided_by=by, note=note)
    league = replace(league, masters={**league.masters, player: decided})
    key = "league.master.approved" if approve else "league.master.rejected"
    told = tell(key, to=player, ref=f"{player}:{at}", note=note, league=league.name)
    step = _reveal_if_ready(league, at)
    return Step(step.league, step.entries, (told, *step.notices))


def _reveal_if_ready(league: League, at: float) -> Step:
    """Every player's master is fixed: reveal them all together and set them in the ledger."""
    fixed = [league.masters.get(p) for p in league.players]
    if league.masters_revealed or not all(m and m.status == APPROVED for m in fixed):
        return Step(league)
    entries = tuple(
        Entry(league.id, m.player, m.unit, MASTER_SET, at, "system") for m in fixed if m
    )
    # (player, spec, summary) each: the service writes the lines, names in the reader's language
    shown = tuple((m.player, dict(m.spec), m.summary) for m in fixed if m)
    notice = tell("league.master.revealed_all", ref="masters", league=league.name, masters=shown)
    return Step(replace(league, masters_revealed=True), entries, (notice,))


# --- matches ------------------------------------------------------------------------------------


def check_pairing(
    league: League,
    rules: RosterRules | None,
    players: Sequence[str],
    counts: Collection[int] = (2,),
) -> None:
    """Whether ``players`` (in seat order) may start a league match now (``rules``: the
    ruleset's rosters; None: a league without, whose players may be paired as soon as they have
    joined; ``counts``: how many players a game of the ruleset seats)."""
    if len(set(players)) != len(players):
        raise LeagueError("league.match.same_player")
    if len(players) not in counts:
        raise LeagueError("league.match.seats", count=len(players), seats=seat_counts(counts))
    for p in players:
        _require_player(league, p)
    if rules is not None and not league.draft_over:
        raise LeagueError("league.match.draft_not_over")
    if rules is not None and rules.has_masters and not league.masters_revealed:
        raise LeagueError("league.match.masters_not_revealed")
    for m in league.playing():
        busy = set(players) & set(m.players())
        if busy:
            raise LeagueError("league.match.busy", player=f"<@{min(busy)}>", match=m.id)


def seat_counts(counts: Collection[int]) -> str:
    """How many players a game seats, as a person reads it: ``2``, ``5–11``, ``2, 4``."""
    ordered = sorted(counts)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}–{ordered[-1]}"
    return ", ".join(str(n) for n in ordered)


def start_match(
    league: League,
    ledger: Sequence[Entry],
    support: LeagueSupport,
    a: str,
    b: str,
    match_id: str,
    at: float,
    *,
    rest: Sequence[str] = (),
    counts: Collection[int] = (2,),
) -> tuple[Step, dict[str, Any]]:
    """A league match ``match_id`` between ``a``, ``b`` and, in a game of more seats, ``rest``
    (seats C…) starts: the open antes of its players settle (their next match is starting), then
    the game options are made from the league's fixed options and the rosters as they now stand
    (without rosters: the fixed options alone). The caller creates the game with those options
    in the same transaction."""
    rules = support.rosters_for(league.options.to_json())
    players = (a, b, *rest)
    check_pairing(league, rules, players, counts)
    fixed = support.fixed(league.options.to_json())
    if rules is None:
        settled, after, options = list(league.antes), list(ledger), fixed
    else:
        settled, after = antes.on_match_start(league.antes, ledger, players, match_id, at)
        rosters = {
            seat: (roster_at(after, p, at), league.masters[p].spec if rules.has_masters else {})
            for seat, p in zip(SEAT_LETTERS, players, strict=False)
        }
        options = rules.match_options(fixed, rosters)
    minutes = league.options.turn_minutes
    if support.minutes_option is not None and minutes and support.minutes_option not in options:
        options = {**options, support.minutes_option: minutes}
    if rest:
        started = tell(
            "league.match.started_many",
            ref=match_id,
            league=league.name,
            players=", ".join(f"<@{p}>" for p in players),
            match=match_id,
        )
    else:
        started = tell(
            "league.match.started" if rules is not None else "league.match.started_plain",
            ref=match_id,
            league=league.name,
            a=f"<@{a}>",
            b=f"<@{b}>",
            match=match_id,
        )
    notices = (*_ante_changes(league.antes, settled), started)
    match = Match(match_id, a, b, at, rest=tuple(rest))
    league = replace(league, antes=tuple(settled), matches=(*league.matches, match))
    return Step(league, tuple(after[len(ledger) :]), notices), options


# The seats of a game in order, as the table names them (bot.ruleset.SeatSpec): A, B, C…
SEAT_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _ante_changes(before: Sequence[antes.Ante], after: Sequence[antes.Ante]) -> list[Notice]:
    was = {a.match: a for a in before}
    notices = []
    for ante in after:
        if was.get(ante.match) != ante and ante.status in (antes.LOCKED, antes.LAPSED):
            notices.append(
                Notice(
                    f"league.ante.{ante.status}_notice",
                    {
                        "winner": f"<@{ante.winner}>",
                        "loser": f"<@{ante.loser}>",
                        "unit": ante.pick or "",
                        "match": ante.match,
                    },
                    ref=f"{ante.match}:{ante.status}",
                )
            )
    return notices


def record_result(
    league: League,
    ledger: Sequence[Entry],
    support: LeagueSupport,
    match_id: str,
    winner: str | None,
    dp: Mapping[str, int],
    at: float,
    *,
    status: str = FINISHED,
    by: str = "",
    figures: Mapping[str, Mapping[str, int]] | None = None,
    graded: LeagueResult | None = None,
) -> Step:
    """A match ends (``winner`` None: a draw; ``status`` ABANDONED records no result;
    ``figures``: the ruleset's other tie-break figures each player scored; ``graded``: the
    result of a ruleset that gives every player points of their own, kept whole: places,
    points and winners). The winner of a match with a winner is offered the ante when the league
    plays with it (and its ruleset has rosters). The result's post says the DP where the ruleset
    scores them, or each player's points in a graded game."""
    match = league.match(match_id)
    if match.status != PLAYING:
        raise LeagueError("league.match.already_recorded", match=match_id)
    if winner is not None and winner not in match.players():
        raise LeagueError("league.match.winner_not_playing", match=match_id)
    if status == FORFEIT and match.rest:  # no one player can take a game of many seats
        raise LeagueError("league.forfeit.many_seats", match=match_id)
    if graded is not None and status == FINISHED:
        if set(graded.places) != set(match.players()) or graded.points is None:
            raise ValueError(f"a graded result places every player with points: {graded}")
        return _record_graded(league, match, graded, at)
    ended = replace(
        match,
        status=status,
        winner=winner,
        dp_a=int(dp.get(match.a, 0)),
        dp_b=int(dp.get(match.b, 0)),
        ended_at=at,
        by=by,
        figures=dict(figures or {}),
    )
    matches = tuple(ended if m.id == match_id else m for m in league.matches)
    league = _advance(replace(league, matches=matches), match, winner, status)
    if status == ABANDONED:
        notice = tell(
            "league.match.abandoned", ref=f"{match_id}:end", league=league.name, match=match_id
        )
        return Step(league, notices=(notice,))
    plain = "" if DP in support.figures else "_plain"
    key = "league.match.forfeit" if status == FORFEIT else f"league.match.recorded{plain}"
    params = {
        "league": league.name,
        "match": match_id,
        "a": f"<@{match.a}>",
        "b": f"<@{match.b}>",
        "winner": f"<@{winner}>" if winner else "",
        "dp_a": ended.dp_a,
        "dp_b": ended.dp_b,
    }
    drawn = f"league.match.drawn{plain}"
    notices = [Notice(key if winner else drawn, params, ref=f"{match_id}:end")]
    rules = support.rosters_for(league.options.to_json())
    if winner is not None and league.options.ante and rules is not None:
        # Rosters are the league players': a seat handed to a substitute played its entrant's
        # roster, so the ante moves between the entrants.
        loser = match.entrant(match.b if winner == match.a else match.a)
        winner = match.entrant(winner)
        spare = rules.can_lose if isinstance(rules, AnteChecked) else None
        offer = antes.offer(ledger, league.id, match_id, winner, loser, at, spare=spare)
        if not offer.candidates:  # nothing the loser can spare: no ante, and the channel hears
            notices.append(
                tell(
                    "league.ante.nothing_to_spare",
                    ref=f"{match_id}:ante",
                    match=match_id,
                    loser=f"<@{loser}>",
                )
            )
            return _with_champion(league, notices)
        league = replace(league, antes=(*league.antes, offer))
        notices.append(
            tell(
                "league.ante.offered",
                to=winner,
                offer="ante",
                ref=match_id,
                league=league.name,
                match=match_id,
                loser=f"<@{loser}>",
            )
        )
    return _with_champion(league, notices)


def _record_graded(league: League, match: Match, result: LeagueResult, at: float) -> Step:
    """A graded game's end (Esper's A–D): every player's place and points kept whole, and one
    post listing them best first. Such a league has no rosters, so no ante."""
    points = dict(result.points or {})
    ended = replace(
        match,
        status=FINISHED,
        ended_at=at,
        places=dict(result.places),
        points=points,
        winners=tuple(p for p in match.players() if p in result.won),
    )
    matches = tuple(ended if m.id == match.id else m for m in league.matches)
    order = sorted(match.players(), key=lambda p: (result.places[p], match.players().index(p)))
    lines = "\n".join(f"<@{p}>: {points.get(p, 0)}" for p in order)
    notice = tell(
        "league.match.recorded_graded",
        ref=f"{match.id}:end",
        league=league.name,
        match=match.id,
        points=lines,
    )
    return Step(replace(league, matches=matches), notices=(notice,))


def _with_champion(league: League, notices: list[Notice]) -> Step:
    """The result's step, with the cup's champion announced once it has one."""
    if league.cup is not None and cups.champion(league.cup) is not None:
        champion = cups.champion(league.cup)
        notices.append(
            tell("league.cup.champion", ref="champion", league=league.name, player=f"<@{champion}>")
        )
    return Step(league, notices=tuple(notices))


# --- formats: Swiss and cup rounds ---------------------------------------------------------------


@dataclass(frozen=True)
class Round:
    """A round ``/league round`` opens: the league with its Swiss or cup stepped, the pairings
    to start (first player first), and the players through without a game (byes)."""

    league: League
    number: int
    pairs: tuple[tuple[str, str], ...]
    byes: tuple[str, ...] = ()


def next_round(league: League, ratings: Mapping[str, Rating]) -> Round:
    """The next round of a Swiss (paired over the results so far) or every cup tie that is ready
    (the cup seeded from ``ratings`` at its first round). Refused while a round's games are still
    being played, when the rounds are done, and in a round-robin league."""
    if league.format == ROUND_ROBIN:
        raise LeagueError("league.round.round_robin", league=league.name)
    if len(league.players) < 2:
        raise LeagueError("league.round.too_few_players", count=len(league.players))
    seeds = seed_order(ratings, league.players)
    if league.format == SWISS:
        swiss = league.swiss or swisses.new(seeds, win=WIN_POINTS, draw=DRAW_POINTS)
        if swisses.round_open(swiss):
            raise LeagueError("league.round.playing", league=league.name)
        if len(swiss.rounds) >= league.swiss_rounds:
            raise LeagueError("league.round.done", league=league.name, rounds=league.swiss_rounds)
        swiss = swisses.pair_next(swiss)
        games = swiss.rounds[-1]
        pairs = tuple((g.first, g.second) for g in games if g.second is not None)
        byes = tuple(g.first for g in games if g.second is None)
        return Round(replace(league, swiss=swiss), len(swiss.rounds), pairs, byes)
    new = league.cup is None
    cup = league.cup or cups.new(seeds)
    if cups.champion(cup) is not None:
        raise LeagueError("league.round.cup_over", league=league.name)
    playing = [set(m.players()) for m in league.playing()]
    ready = [(r, tie) for r, _, tie in cups.ready(cup) if set(tie.players()) not in playing]
    if not ready:
        raise LeagueError("league.round.playing", league=league.name)
    pairs = tuple((tie.a, tie.b) for _, tie in ready if tie.a is not None and tie.b is not None)
    byes = tuple(cups.byes(cup)) if new else ()
    return Round(replace(league, cup=cup), min(r for r, _ in ready), pairs, byes)


def round_notice(step: Round, match_ids: Sequence[str]) -> Notice:
    """The one channel post of a round: its pairings (first player first) and byes."""
    lines = "\n".join(
        f"<@{a}> – <@{b}> ({m})" for (a, b), m in zip(step.pairs, match_ids, strict=True)
    )
    byes = ", ".join(f"<@{p}>" for p in step.byes)
    key = "league.round.started_byes" if step.byes else "league.round.started"
    return tell(
        key,
        ref=f"{step.league.format}:{step.number}:{','.join(match_ids)}",
        league=step.league.name,
        round=step.number,
        pairings=lines,
        byes=byes,
    )


def _advance(league: League, match: Match, winner: str | None, status: str) -> League:
    """A Swiss or cup game's end steps the format: the Swiss records it in its round (an
    abandoned game as forfeited by both); the cup's tie goes to the winner (by a walkover on a
    forfeit). A drawn or abandoned cup game leaves the tie open: the next round replays it. A
    seat handed to a substitute counts for the league player paired in it (the format's field).
    A game of more seats is in neither (round robin only)."""
    if match.rest:
        return league
    a, b = match.entrant(match.a), match.entrant(match.b)
    winner = None if winner is None else match.entrant(winner)
    if league.swiss is not None and league.swiss.rounds:
        last = league.swiss.rounds[-1]
        if any(g.second is not None and {g.first, g.second} == {a, b} for g in last):
            gone = status in (FORFEIT, ABANDONED)
            won = None if status == ABANDONED else winner
            swiss = swisses.record(league.swiss, a, b, won, forfeit=gone)
            league = replace(league, swiss=swiss)
    ties = cups.ready(league.cup) if league.cup is not None else []
    if (
        league.cup is not None
        and winner is not None
        and status != ABANDONED
        and any({t.a, t.b} == {a, b} for *_, t in ties)
    ):
        cup = cups.record(league.cup, a, b, winner, walkover=status == FORFEIT)
        league = replace(league, cup=cup)
    return league


def edit_roster(
    league: League,
    ledger: Sequence[Entry],
    rules: RosterRules,
    player: str,
    unit: str,
    *,
    add: bool,
    by: str,
    at: float,
) -> Step:
    """A moderator's roster edit, logged in the ledger like every other change."""
    _require_player(league, player)
    if unit not in dict(rules.pool()):
        raise LeagueError("league.roster.unknown_unit", unit=unit)
    entry = Entry(league.id, player, unit, MODERATOR_ADD if add else MODERATOR_REMOVE, at, by)
    append(ledger, entry)  # refuses a third copy, or removing a unit not held
    notice = tell(
        "league.roster.edited_add" if add else "league.roster.edited_remove",
        ref=f"{player}:{unit}:{at}",
        league=league.name,
        player=f"<@{player}>",
        unit=unit,
        by=f"<@{by}>",
    )
    return Step(league, (entry,), (notice,))


# --- ante --------------------------------------------------------------------------------------


def declare_ante(
    league: League, ledger: Sequence[Entry], player: str, match_id: str, unit: str, at: float
) -> Step:
    before = league.ante_of(match_id)
    after = antes.declare(before, ledger, player, unit, at)
    league = _with_ante(league, after)
    if after == before:
        return Step(league)
    key = "league.ante.declared" if before.pick is None else "league.ante.changed"
    notice = Notice(
        key, {"winner": f"<@{player}>", "unit": unit, "match": match_id}, ref=f"{match_id}:{at}"
    )
    return Step(league, notices=(notice,))


def extend_ante(league: League, match_id: str, by: str, until: float, at: float) -> Step:
    after = antes.extend(league.ante_of(match_id), by, until, at)
    notice = tell(
        "league.ante.extended_notice", ref=f"{match_id}:{at}", match=match_id, deadline=until
    )
    return Step(_with_ante(league, after), notices=(notice,))


def void_ante(league: League, match_id: str, by: str, reason: str, at: float) -> Step:
    before = league.ante_of(match_id)
    after = antes.void(before, by, reason, at)
    notice = tell(
        "league.ante.voided_notice",
        ref=f"{match_id}:void",
        match=match_id,
        winner=f"<@{before.winner}>",
        reason=reason,
        by=f"<@{by}>",
    )
    return Step(_with_ante(league, after), notices=(notice,))


def _with_ante(league: League, ante: antes.Ante) -> League:
    return replace(league, antes=tuple(ante if a.match == ante.match else a for a in league.antes))


# --- time ----------------------------------------------------------------------------------------


def tick(
    league: League, ledger: Sequence[Entry], now: float, rules: RosterRules | None = None
) -> Step:
    """Whatever the clock has made due: automatic draft picks (each at its own deadline, so a
    restart catches up on every missed one; ``rules``' pick check, if any, limits each) and
    antes whose moderator deadline has passed."""
    entries: list[Entry] = []
    notices: list[Notice] = []
    if league.draft is not None and drafts.expired(league.draft, now):
        done = drafts.run_expired(league.draft, now, pick_check(rules))
        step = _after_picks(league, league.draft, done)
        league = step.league
        entries.extend(step.entries)
        notices.extend(step.notices)
    if any(antes.due(a, now) for a in league.antes):
        settled, after = antes.settle_due(league.antes, [*ledger, *entries], now)
        entries = list(after[len(ledger) :])
        notices.extend(_ante_changes(league.antes, settled))
        league = replace(league, antes=tuple(settled))
    return Step(league, tuple(entries), tuple(notices))


def next_due(league: League) -> float | None:
    """When :func:`tick` next has something to do."""
    times = [a.deadline for a in league.antes if a.open and a.deadline is not None]
    if league.draft is not None and league.draft.deadline_at is not None:
        times.append(league.draft.deadline_at)
    return min(times) if times else None


# --- stored by an older version ----------------------------------------------------------------


def upgrade(
    league: League, ledger: Sequence[Entry] | None, support: LeagueSupport
) -> tuple[League, list[Entry]]:
    """A league (and its ledger) stored by an older version, as this one reads them.

    Designed masters were once stored under ids a pool unit could have (a master named
    ``guardian`` shielded the pool's Guardian from the ante): they get the id the ruleset now gives
    them (:meth:`RosterRules.master_id`) in the league, in the ledger's ``master_set`` entries (as
    read: the ledger is append-only and never rewritten) and in open antes, whose candidates are
    offered again without the shield (only when ``ledger`` is given). Idempotent. A league of a
    ruleset without rosters reads as stored."""
    rules = support.rosters_for(league.options.to_json())
    if rules is None:
        return league, list(ledger or ())
    masters = {
        p: replace(m, unit=rules.master_id(m.spec, m.unit)) for p, m in league.masters.items()
    }
    if ledger is None:
        return replace(league, masters=masters), []

    def now_id(player: str, stored: str | None) -> str | None:
        """The master id ``stored`` stands for, if it is ``player``'s master under an old id."""
        master = masters.get(player)
        if stored is None or master is None or stored == master.unit:
            return None
        return master.unit if rules.master_id(master.spec, stored) == master.unit else None

    entries = []
    for entry in ledger:
        new = now_id(entry.player, entry.unit) if entry.kind == MASTER_SET else None
        entries.append(replace(entry, unit=new) if new else entry)
    settled = []
    for ante in league.antes:
        if ante.open and now_id(ante.loser, ante.loser_master):
            fresh = antes.offer(
                entries, ante.league, ante.match, ante.winner, ante.loser, ante.ended_at
            )
            ante = replace(ante, candidates=fresh.candidates, loser_master=fresh.loser_master)
        settled.append(ante)
    return replace(league, masters=masters, antes=tuple(settled)), entries


def roster(ledger: Sequence[Entry], player: str, at: float | None = None) -> Roster:
    return roster_at(ledger, player, at)
