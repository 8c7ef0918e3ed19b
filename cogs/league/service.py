"""The league service: each league action is one transaction over the league document, its roster
ledger and the outbox; what people are told is posted afterwards by the outbox sender.

The pure steps live in :mod:`cogs.league.season`; this module loads and stores them, turns their
:class:`~cogs.league.season.Notice` values into outbox messages in the reader's language, and
starts league matches on the shared :class:`bot.table.Table` inside the same transaction. No
discord here: the cog adapts interactions to these calls.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from bot.i18n import normalize_lang, t
from bot.leagues import DP, LeagueResult, RosterRules
from bot.lobby import new_game_id
from bot.messages import when
from bot.posting import outbox_nonce
from bot.ruleset import LeagueSupport
from bot.storage import LeagueRow, Repository, VersionConflict
from bot.storage.base import Transaction
from bot.table import Player, Table
from cogs.league import ratings as rating
from cogs.league import season
from cogs.league.ledger import Entry, append, history, roster_at
from cogs.league.ratings import Rating
from cogs.league.rulesets import rosters, seat_counts, support
from cogs.league.season import League, LeagueError, Notice, Options, Step

log = logging.getLogger(__name__)
MAX_MENU = 25  # Discord select menus hold at most 25 options
# A DM's menus: four selects of 25 (one page), and a fifth row for the page buttons.
MENUS_PER_PAGE = 4
PAGE = MAX_MENU * MENUS_PER_PAGE
# League maintenance runs in one process at a time: the holder renews this lease every tick, and
# another process takes over once it lapses (its holder died).
MAINTENANCE_LEASE = "league-maintenance"
MAINTENANCE_LEASE_SECONDS = 60.0

Action = Callable[[League, list[Entry]], Step]


class LeagueService:
    def __init__(self, repo: Repository, table: Table) -> None:
        self.repo = repo
        self.table = table

    @property
    def clock(self) -> Callable[[], float]:
        return self.table.clock

    # --- reading ----------------------------------------------------------------------------

    async def league(self, league_id: str) -> League:
        async with self.repo.transaction() as tx:
            return (await self._load(tx, league_id))[0]

    async def in_guild(self, guild_id: int) -> list[League]:
        async with self.repo.transaction() as tx:
            rows = await tx.leagues_in_guild(guild_id)
        return [_read(r.data) for r in rows]

    async def of_player(self, user_id: int) -> list[League]:
        async with self.repo.transaction() as tx:
            rows = await tx.active_leagues()
        leagues = [_read(r.data) for r in rows]
        return [lg for lg in leagues if str(user_id) in lg.players]

    async def ledger(self, league_id: str) -> list[Entry]:
        async with self.repo.transaction() as tx:
            return (await self._load(tx, league_id))[1]

    # --- actions ----------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        ruleset: str,
        season_name: str,
        options: Options,
        by: int,
        format: str = season.ROUND_ROBIN,
        swiss_rounds: int = 0,
    ) -> League:
        found = support(ruleset)  # refuses a ruleset that declares no league
        for given in options.game:  # the ruleset's own options: only those it declares
            if found.option(given) is None:
                raise LeagueError("league.option.not_in_ruleset", option=given)
        now = self.clock()
        async with self.repo.transaction() as tx:
            if found.at_creation is not None:
                # What the ruleset fixes now from the server's own pack (a copy: the league
                # keeps it whatever the server loads later).
                row = await tx.server_pack(guild_id, ruleset)
                filled = found.at_creation(options.to_json(), row.pack if row else None)
                options = Options.from_json(filled)
            league = season.create(
                f"L{await tx.next_league_number()}",
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                ruleset=ruleset,
                support=found,
                season=season_name,
                options=options,
                by=str(by),
                at=now,
                format=format,
                swiss_rounds=swiss_rounds,
                counts=seat_counts(ruleset),
            )
            row = LeagueRow(league.id, guild_id, league.name, league.to_json())
            try:
                await tx.insert_league(row, now)
            except VersionConflict:
                raise LeagueError("league.name.taken", name=league.name) from None
        return league

    async def join(self, league_id: str, user_id: int, name: str) -> League:
        return await self._act(league_id, lambda lg, _: Step(season.join(lg, str(user_id), name)))

    async def leave(self, league_id: str, user_id: int) -> League:
        return await self._act(league_id, lambda lg, _: Step(season.leave(lg, str(user_id))))

    async def set_moderator_role(self, league_id: str, role_id: int | None) -> League:
        return await self._act(league_id, lambda lg, _: Step(replace(lg, moderator_role=role_id)))

    async def start_draft(self, league_id: str) -> League:
        now = self.clock()
        return await self._act(league_id, lambda lg, _: season.start_draft(lg, rosters(lg), now))

    async def draft_pick(self, league_id: str, user_id: int, unit: str, number: int) -> League:
        now = self.clock()
        return await self._act(
            league_id,
            lambda lg, _: season.draft_pick(lg, str(user_id), unit, number, now, rosters(lg)),
            rosters_only=True,
        )

    async def submit_master(self, league_id: str, user_id: int, spec: Mapping[str, Any]) -> League:
        now = self.clock()
        return await self._act(
            league_id,
            lambda lg, _: season.submit_master(lg, rosters(lg), str(user_id), spec, now),
        )

    async def decide_master(
        self, league_id: str, user_id: int, *, approve: bool, by: int, note: str = ""
    ) -> League:
        now = self.clock()
        return await self._act(
            league_id,
            lambda lg, _: season.decide_master(
                lg, str(user_id), approve=approve, by=str(by), note=note, at=now
            ),
            rosters_only=True,
        )

    async def pair(
        self, league_id: str, a: Player, b: Player, *rest: Player, by: int
    ) -> tuple[League, str]:
        """Start a league match of ``a``, ``b`` and, in a game of more seats, ``rest``, seated
        in that order: settle the players' open antes, then open the game with their rosters as
        they now stand (where the ruleset has rosters), all in one transaction."""
        await self.record_finished()  # a result still unrecorded must offer its ante first
        now = self.clock()
        async with self.repo.transaction() as tx:
            league, ledger, version = await self._load(tx, league_id)
            if league.format != season.ROUND_ROBIN:
                raise LeagueError("league.pair.by_round", league=league.name)
            step, game_id = await self._open_match(tx, league, ledger, (a, b, *rest), by, now)
            await self._save(tx, step, ledger, version)
        self.table.outbox_ready()
        return step.league, game_id

    async def _open_match(
        self,
        tx: Transaction,
        league: League,
        ledger: Sequence[Entry],
        players: Sequence[Player],
        by: int,
        now: float,
    ) -> tuple[Step, str]:
        """One league match inside the caller's transaction: the season's step (antes settled,
        the match added) and the game opened on the table, seated in the order given."""
        game_id = await new_game_id(tx)
        found = support(league.ruleset)
        a, b, *rest = (str(p.user_id) for p in players)
        step, options = season.start_match(
            league,
            ledger,
            found,
            a,
            b,
            game_id,
            now,
            rest=rest,
            counts=seat_counts(league.ruleset),
        )
        if found.season_options is not None:
            # What the players' earlier games give this one (Esper: the characters each played
            # in the league's finished games, the season its refusal rule reads).
            earlier = [m.id for m in league.matches if m.status == season.FINISHED]
            users = [p.user_id for p in players]
            hook = found.season_options.load()
            options = {**options, **await hook(tx, league.guild_id, users, earlier)}
        minutes = league.options.turn_minutes
        game = await self.table.open_in(
            tx,
            league.ruleset,
            guild_id=league.guild_id,
            channel_id=league.channel_id,
            players=list(players),
            options={**options, "league": league.id},
            turn_seconds=minutes * 60 or None,
            created_by=by,
        )
        assert game.id == game_id
        await tx.add_league_match(league.id, game.id)
        return step, game_id

    async def start_round(self, league_id: str, *, by: int) -> tuple[League, list[str]]:
        """``/league round``: the next Swiss round, or every cup tie that is ready, opened as
        league matches (each as :meth:`pair` opens one, the first player in the first seat) in
        one transaction, with one channel post of the round's pairings and byes. A repeated or
        retried call opens nothing twice: the round it made is then being played (refused with
        ``league.round.playing``), and a cup tie already playing is not opened again."""
        await self.record_finished()  # the last results first: they decide the next round
        now = self.clock()
        async with self.repo.transaction() as tx:
            league, ledger, version = await self._load(tx, league_id)
            known = rating.table_from_json(await tx.ratings(league.guild_id, league.ruleset))
            made = season.next_round(league, known)
            current, entries, notices, ids = made.league, list(ledger), [], []
            for first, second in made.pairs:
                pair = [Player(int(p), current.names.get(p, p)) for p in (first, second)]
                step, game_id = await self._open_match(tx, current, entries, pair, by, now)
                current = step.league
                entries.extend(step.entries)
                # the round's one post names every pairing: not one post per match
                notices.extend(n for n in step.notices if not n.key.startswith("league.match."))
                ids.append(game_id)
            notices.append(season.round_notice(replace(made, league=current), ids))
            step = Step(current, tuple(entries[len(ledger) :]), tuple(notices))
            await self._save(tx, step, ledger, version)
        self.table.outbox_ready()
        return step.league, ids

    async def offer(
        self, league_id: str, what: str, ref: str, lang: str, page: int
    ) -> dict[str, Any]:
        """Page ``page`` of a draft pick's (``ref``: its number) or an ante's (``ref``: the
        match) DM menus, as they stand now (for the menu's page buttons)."""
        async with self.repo.transaction() as tx:
            league = (await self._load(tx, league_id))[0]
        if what == "draft" and league.draft is None:
            raise LeagueError("league.draft.not_started")
        return offer_page(league, rosters(league), what, ref, lang, page)

    async def ratings(self, guild_id: int, ruleset: str) -> dict[str, Rating]:
        """The server's ratings of ``ruleset`` (kept across its leagues)."""
        async with self.repo.transaction() as tx:
            return rating.table_from_json(await tx.ratings(guild_id, ruleset))

    async def forfeit(self, league_id: str, match_id: str, winner: int, *, by: int) -> League:
        """A moderator's forfeit: the result is recorded now, and the game (if still running)
        is abandoned afterwards (its end is then not recorded a second time)."""
        now = self.clock()
        league = await self._act(
            league_id,
            lambda lg, ledger: season.record_result(
                lg,
                ledger,
                support(lg.ruleset),
                match_id,
                str(winner),
                {},
                now,
                status=season.FORFEIT,
                by=str(by),
            ),
            recorded=match_id,
        )
        game = await self.table.game(match_id)
        if game.status in ("lobby", "setup", "active", "paused"):
            await self.table.abandon(match_id)
        return league

    async def edit_roster(
        self, league_id: str, user_id: int, unit: str, *, add: bool, by: int
    ) -> League:
        now = self.clock()
        return await self._act(
            league_id,
            lambda lg, ledger: season.edit_roster(
                lg, ledger, rosters(lg), str(user_id), unit, add=add, by=str(by), at=now
            ),
        )

    async def declare_ante(self, league_id: str, match_id: str, user_id: int, unit: str) -> League:
        now = self.clock()
        return await self._act(
            league_id,
            lambda lg, ledger: season.declare_ante(lg, ledger, str(user_id), match_id, unit, now),
            rosters_only=True,
        )

    async def extend_ante(self, league_id: str, match_id: str, until: float, *, by: int) -> League:
        now = self.clock()
        return await self._act(
            league_id,
            lambda lg, _: season.extend_ante(lg, match_id, str(by), until, now),
            rosters_only=True,
        )

    async def void_ante(self, league_id: str, match_id: str, reason: str, *, by: int) -> League:
        now = self.clock()
        return await self._act(
            league_id,
            lambda lg, _: season.void_ante(lg, match_id, str(by), reason, now),
            rosters_only=True,
        )

    # --- the clock and finished games -------------------------------------------------------

    async def tick(self) -> int:
        """Record finished league games, then run every league whose clock is due (automatic
        draft picks, ante deadlines). Safe after a restart: it catches up on what was missed.

        Of several processes only the holder of the maintenance lease runs it (each league
        action is a compare-and-set anyway; the lease saves the others the work)."""
        now = self.clock()
        async with self.repo.transaction() as tx:
            held = await tx.take_lease(
                MAINTENANCE_LEASE, self.table.worker, now, now + MAINTENANCE_LEASE_SECONDS
            )
        if not held:
            return 0
        done = await self.record_finished()
        now = self.clock()
        async with self.repo.transaction() as tx:
            due = [r.id for r in await tx.due_leagues(now)]
        for league_id in due:
            await self._act(
                league_id, lambda lg, ledger: season.tick(lg, ledger, now, _rosters_or_none(lg))
            )
            done += 1
        return done

    async def record_finished(self) -> int:
        async with self.repo.transaction() as tx:
            pending = await tx.unrecorded_league_games()
        for league_id, game_id in pending:
            game = await self.table.game(game_id)
            found = support(game.ruleset)
            player = {s.seat: str(s.user_id) for s in game.seats}
            winner, dp, result = None, {}, None
            figures: dict[str, dict[str, int]] = {}
            if game.status == "abandoned":
                status = season.ABANDONED
            else:
                # What the ruleset makes of the finished game: the player placed first alone
                # wins (a shared first place is a draw), and the DP it scored where it has them.
                status = season.FINISHED
                result = found.result(game.state or {}, self.table.outcome(game), player)
                winner = result.winner
                if DP in found.figures:
                    dp = {p: result.figure(p, DP) for p in player.values()}
                others = [n for n in found.figures if n != DP]
                if others:
                    figures = {p: {n: result.figure(p, n) for n in others} for p in player.values()}
            graded = result if result is not None and result.points is not None else None
            # seat order, as the match lists its players (a handed seat: its final player)
            seated = [(str(s.user_id), s.name) for s in game.seats]
            record = partial(
                _record_end,
                game_id,
                found,
                winner,
                dp,
                game.updated_at,
                status,
                figures,
                graded,
                seated=seated,
            )
            places = dict(result.places) if result is not None else None
            await self._act(league_id, record, recorded=game_id, rated=places)
        return len(pending)

    async def next_wakeup(self) -> float | None:
        async with self.repo.transaction() as tx:
            rows = await tx.active_leagues()
        times = [r.next_due for r in rows if r.next_due is not None]
        return min(times) if times else None

    # --- one transaction per action ---------------------------------------------------------

    async def _load(self, tx: Transaction, league_id: str) -> tuple[League, list[Entry], int]:
        row = await tx.get_league(league_id)
        if row is None:
            raise LeagueError("league.unknown", league=league_id)
        stored = [Entry.from_json(e) for e in await tx.ledger(league_id)]
        league = League.from_json(row.data)
        league, ledger = season.upgrade(league, stored, support(league.ruleset))
        return league, ledger, row.version

    async def _act(
        self,
        league_id: str,
        action: Action,
        *,
        recorded: str | None = None,
        rosters_only: bool = False,
        rated: Mapping[str, int] | None = None,
    ) -> League:
        """One action in one transaction; ``rosters_only``: refused (``league.no_rosters``) in a
        league whose ruleset has no rosters. ``rated``: the finished game ``recorded``'s ranking
        (player -> place), which updates the server's ratings of the ruleset in this same
        transaction when this action records the game's end (so a game is rated once)."""
        async with self.repo.transaction() as tx:
            league, ledger, version = await self._load(tx, league_id)
            if rosters_only:
                rosters(league)
            step = action(league, ledger)
            await self._save(tx, step, ledger, version)
            if recorded is not None:
                await tx.mark_league_match_recorded(recorded)
                ended = step.league.match(recorded).status == season.FINISHED
                if rated and ended and league.match(recorded).status == season.PLAYING:
                    await self._rate(tx, league, rated)
        self.table.outbox_ready()
        return step.league

    async def _rate(self, tx: Transaction, league: League, ranking: Mapping[str, int]) -> None:
        """One finished game into the server's ratings of the league's ruleset."""
        before = rating.table_from_json(await tx.ratings(league.guild_id, league.ruleset))
        after = rating.rate(before, ranking)
        changed = {p: after[p].to_json() for p in ranking}
        await tx.put_ratings(league.guild_id, league.ruleset, changed, self.clock())

    async def _save(
        self, tx: Transaction, step: Step, ledger: Sequence[Entry], version: int
    ) -> None:
        league = step.league
        append(ledger, *step.entries)  # the ledger's own checks, once more before it is written
        await tx.append_ledger(league.id, [e.to_json() for e in step.entries])
        row = LeagueRow(
            league.id,
            league.guild_id,
            league.name,
            league.to_json(),
            version=version + 1,
            next_due=season.next_due(league),
        )
        now = self.clock()
        await tx.update_league(row, expect_version=version, now=now)
        after = [*ledger, *step.entries]
        for notice in step.notices:
            await self._enqueue(tx, league, after, notice, now)

    async def _enqueue(
        self, tx: Transaction, league: League, ledger: Sequence[Entry], notice: Notice, now: float
    ) -> None:
        rules = _rosters_or_none(league)
        if notice.to is None:
            lang = normalize_lang(await tx.guild_language(league.guild_id) or self._default())
            kind, target = "channel", league.channel_id
        else:
            user = int(notice.to)
            lang = normalize_lang(
                await tx.user_locale(user)
                or await tx.guild_language(league.guild_id)
                or self._default()
            )
            kind, target = "dm", user
        params = _params(notice.params, rules, lang)
        # A long post (ninety players' snake order, twenty masters revealed) is one row: the
        # outbox posts it as several messages, each exactly once (bot.limits, parts_sent).
        payload: dict[str, Any] = {
            "lang": lang,
            "content": t(lang, notice.key, **{"league": league.name, **params}),
        }
        if notice.offer is not None:
            assert rules is not None, "only a league with rosters offers a draft or an ante"
            payload["view"] = _offer_view(league, ledger, notice, rules, lang)
            if notice.offer == "draft" and notice.to is not None:
                payload["undeliverable"] = await self._draft_dm_closed(tx, league, notice, rules)
        await tx.enqueue(
            game_id=None,
            kind=kind,
            target_id=target,
            payload=payload,
            nonce=outbox_nonce("league", league.id, notice.key, notice.ref, notice.to or "ch"),
            now=now,
        )

    async def _draft_dm_closed(
        self, tx: Transaction, league: League, notice: Notice, rules: RosterRules
    ) -> dict[str, Any]:
        """What the outbox posts in the league's channel instead when the pick's DM cannot be
        delivered (closed DMs, bot.outbox): the player is pinged and told how to pick, in the
        channel's language. Only what the channel already knows (whose pick, its number, the
        deadline): never the units the menu would have offered. Its nonce is the pick's, so a
        draft turn says it once however often the DM is tried."""
        assert notice.to is not None
        lang = normalize_lang(await tx.guild_language(league.guild_id) or self._default())
        params = _params(notice.params, rules, lang)
        content = t(
            lang,
            "league.draft.dm_closed",
            **{**params, "league": league.name, "player": f"<@{notice.to}>"},
        )
        return {
            "target_id": league.channel_id,
            "payload": {"lang": lang, "content": content, "mentions": [int(notice.to)]},
            "nonce": outbox_nonce(
                "league", league.id, "league.draft.dm_closed", notice.ref, notice.to
            ),
        }

    def _default(self) -> str:
        return self.table.default_language


def _record_end(
    game_id: str,
    found: LeagueSupport,
    winner: str | None,
    dp: Mapping[str, int],
    at: float,
    status: str,
    figures: Mapping[str, Mapping[str, int]],
    graded: LeagueResult | None,
    league: League,
    ledger: list[Entry],
    *,
    seated: Sequence[tuple[str, str]] = (),
) -> Step:
    if league.match(game_id).status != season.PLAYING:  # a moderator's forfeit came first
        return Step(league)
    league = _reseated(league, game_id, seated)
    return season.record_result(
        league,
        ledger,
        found,
        game_id,
        winner,
        dp,
        at,
        status=status,
        figures=figures,
        graded=graded,
    )


def _reseated(league: League, game_id: str, seated: Sequence[tuple[str, str]]) -> League:
    """The match as its game ended: each seat's final player, (id, name) in seat order. A seat
    handed to a substitute mid-game (``/game substitute``, issue 34) is credited to the
    substitute, who is named in the league (the standings count anyone in a result) but joins
    none of its later pairings; the original player's standing and rating are untouched."""
    match = league.match(game_id)
    final = tuple(player for player, _ in seated)
    if len(final) < 2 or final == match.players():
        return league
    entrants = match.entrants or match.players()
    moved = replace(match, a=final[0], b=final[1], rest=final[2:], entrants=entrants)
    names = {**league.names, **{p: n for p, n in seated if p not in league.names}}
    matches = tuple(moved if m.id == game_id else m for m in league.matches)
    return replace(league, names=names, matches=matches)


def _rosters_or_none(league: League) -> RosterRules | None:
    """The rosters of ``league`` as its stored options fix them; None for a ruleset without."""
    return support(league.ruleset).rosters_for(league.options.to_json())


def _read(data: Mapping[str, Any]) -> League:
    """A stored league as this version reads it (without its ledger: for finding and listing)."""
    league = League.from_json(data)
    return season.upgrade(league, None, support(league.ruleset))[0]


def _params(params: Mapping[str, Any], rules: RosterRules | None, lang: str) -> dict[str, Any]:
    """Notice parameters as the reader reads them: unit and master names (``rules``: the
    ruleset's rosters, None without), Discord timestamps."""
    shown = dict(params)
    if rules is not None and "masters" in shown:
        shown["masters"] = "\n".join(
            f"<@{player}>: **{rules.master_name(spec, lang)}** · {summary}"
            for player, spec, summary in shown["masters"]
        )
    if rules is not None and shown.get("unit"):
        shown["unit"] = rules.unit_name(str(shown["unit"]), lang)
    if shown.get("deadline") is not None:
        shown["deadline"] = when(float(shown["deadline"]))
    return shown


def _offer_view(
    league: League,
    ledger: Sequence[Entry],
    notice: Notice,
    rules: RosterRules,
    lang: str,
    page: int = 0,
) -> dict[str, Any]:
    """A DM's select menus: the units still available to draft, or the ante's candidates, a
    page of :data:`PAGE` at a time (``options``: the page's, which the cog splits into menus of
    25; ``pages``: how many; the cog's page buttons ask for another)."""
    assert notice.offer is not None
    return offer_page(league, rules, notice.offer, notice.ref, lang, page)


def offer_page(
    league: League, rules: RosterRules, what: str, ref: str, lang: str, page: int
) -> dict[str, Any]:
    """Page ``page`` (0 first; past the last: the last) of a draft pick's or an ante's menus."""
    if what == "draft":
        assert league.draft is not None
        units = list(dict.fromkeys(league.draft.available()))
        costs = league.draft.costs
    else:
        units = list(league.ante_of(ref).candidates)
        costs = dict(rules.pool())
    pages = max(1, -(-len(units) // PAGE))
    page = min(max(page, 0), pages - 1)
    return {
        "kind": "league_pick",
        "league": league.id,
        "what": what,
        "ref": ref,
        "placeholder": t(lang, f"league.{what}.placeholder"),
        "page": page,
        "pages": pages,
        "page_label": t(lang, "league.menu.page", page=page + 1, pages=pages),
        "options": [
            {"value": u, "label": f"{rules.unit_name(u, lang)} ({costs.get(u, '?')})"}
            for u in units[page * PAGE : (page + 1) * PAGE]
        ],
    }


def master_name(league: League, player: str, lang: str) -> str | None:
    """``player``'s master as its player named it (None: no master submitted)."""
    master = league.masters.get(player)
    if master is None:
        return None
    return rosters(league).master_name(master.spec, lang)


def roster_lines(
    ledger: Sequence[Entry],
    rules: RosterRules,
    player: str,
    at: float | None,
    lang: str,
    master: str | None = None,
) -> list[str]:
    """A roster (now or as of ``at``) with each unit's provenance, one line per copy; ``master``
    names the master unit (else its id's name)."""
    roster = roster_at(ledger, player, at)
    upto = [e for e in ledger if at is None or e.at <= at]
    lines = []
    if roster.master:
        shown = master or rules.unit_name(roster.master, lang)
        lines.append(t(lang, "league.roster.master", unit=shown))
    for unit, count in roster.counts().items():
        trail = "; ".join(
            t(lang, f"league.ledger.{e.kind}", **_entry_params(e, rules, lang))
            for e in history(upto, player, unit)
        )
        name = rules.unit_name(unit, lang)
        lines.append(t(lang, "league.roster.line", unit=name, count=count, trail=trail))
    return lines


def _entry_params(entry: Entry, rules: RosterRules, lang: str) -> dict[str, Any]:
    by = entry.by if not entry.by.isdigit() else f"<@{entry.by}>"
    return {
        "unit": rules.unit_name(entry.unit, lang),
        "by": t(lang, f"league.by.{by}") if by in ("draft", "system") else by,
        "ref": entry.ref,
        "note": entry.note,
        "at": f"<t:{int(entry.at)}:d>",
    }
