"""``python -m bot demo league``: a whole league season between the rulesets' AI players, offline.

The season runs through the real :class:`~cogs.league.service.LeagueService`, the real table and
a real SQLite file, as ``python -m bot demo RULESET`` plays one game (:mod:`bot.demo`): players
join, the entry draft is picked by the AI where the ruleset has rosters (the dearest unit it may
take; the draft's automatic pick where it may take none), masters come from the ruleset's demo
player (``league_master(rng)``), each round's matches are opened (``/league round`` for a Swiss
or a cup; the circle method's pairs for a round robin) and played to their end by the demo AI,
each winner's ante is declared by the AI (the dearest unit offered), and the results go into
the standings and the server's ratings. Written to ``--out``: every match's boards and record
(``records/<game>.json``, what ``/game export`` gives; each passes ``verify``), the standings,
ratings and (for a cup) bracket images, the transcript of every channel post and DM, and the
league's export (``league.json``, :mod:`cogs.league.export`) checked against the records.

The framework finds this demo through ``DEMOS`` in :mod:`cogs.league`
(:func:`bot.demo.shared_demos`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import re
import sys
import tempfile
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot import registry
from bot.config import cli_language
from bot.demo import DEMO_PLAYERS, MAX_TURNS, FileSink, clear_earlier, demo_entropy, unwritable
from bot.i18n import t
from bot.leagues import DP
from bot.record import verify
from bot.ruleset import RuleError
from bot.storage import SqliteRepository
from bot.table import Player, Table
from cogs.league import draft as drafts
from cogs.league import season
from cogs.league.board import render_standings
from cogs.league.bracket import render_bracket
from cogs.league.export import check_records, collect
from cogs.league.ratings_board import render_ratings, table_rows
from cogs.league.season import LeagueError, Options
from cogs.league.service import LeagueService

GUILD, CHANNEL, MODERATOR = 1, 10, 999
FIRST_USER = 1000
LEAGUE_FILES = ("standings-*.png", "ratings-*.png", "bracket-*.png", "league-*.json")
MAX_ROUNDS = 64  # a cup of 64 players has 6; a round robin of them 63
# A league of many-seat games (Esper) plays two rounds unless asked: the second's refusals read
# the first's characters (the league's season).
MANY_SEAT_ROUNDS = 2


class LeagueDemoError(RuleError):
    """A league demo that cannot be played as asked (one line, no traceback)."""


@dataclass
class LeagueDemoResult:
    league_id: str
    matches: list[str]
    rounds: int
    boards: list[Path] = field(default_factory=list)
    records: list[Path] = field(default_factory=list)
    images: list[Path] = field(default_factory=list)
    transcript: Path | None = None
    export: Path | None = None
    verified: int = 0  # records that passed verify
    checked: int = 0  # finished matches the export was checked against
    champion: str | None = None  # a cup's winner (a player id)
    champion_name: str | None = None
    cleared: int = 0


def default_out(ruleset: str, fmt: str, seed: int | None, lang: str) -> Path:
    name = f"league-{ruleset}-{fmt}" + (f"-seed{seed}" if seed is not None else "") + f"-{lang}"
    return Path("demo-out") / name


def _clear(out: Path) -> int:
    cleared = clear_earlier(out)
    for pattern in LEAGUE_FILES:
        for path in out.glob(pattern) if out.is_dir() else ():
            path.unlink(missing_ok=True)
            cleared += 1
    records = out / "records"
    for path in records.glob("*.json") if records.is_dir() else ():
        path.unlink(missing_ok=True)
        cleared += 1
    return cleared


def round_robin(players: list[str]) -> list[list[tuple[str, str]]]:
    """Every round of a round robin by the circle method (an odd field: one bye a round)."""
    field_ = [*players, ""] if len(players) % 2 else list(players)
    n = len(field_)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = field_[i], field_[n - 1 - i]
            if a and b:
                pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        field_ = [field_[0], field_[-1], *field_[1:-1]]
    return rounds


def tables(players: list[str], counts: Collection[int], number: int) -> list[list[str]]:
    """Round ``number``'s games (0 first) of a league whose games seat more than two: the field
    turned by ``number`` (so seats and tablemates change from round to round), split into as few
    games as the largest allows, as even as possible. Refused when no split seats everyone."""
    n = len(players)
    games = math.ceil(n / max(counts))
    sizes = [n // games + (1 if i < n % games else 0) for i in range(games)]
    if any(size not in counts for size in sizes):
        raise LeagueDemoError("league.demo.tables", players=n, seats=season.seat_counts(counts))
    turned = players[number % n :] + players[: number % n]
    starts = [sum(sizes[:i]) for i in range(games)]
    return [turned[start : start + size] for start, size in zip(starts, sizes, strict=True)]


def check_request(ruleset: str, players: int, fmt: str) -> None:
    """Refuse, before anything is played, a ruleset without leagues or demo players, a format
    its games cannot be paired in (Swiss and cups pair two) and a field it cannot take."""
    spec = registry.get(ruleset)
    counts = spec.seats.allowed()
    if spec.league is None:
        raise LeagueDemoError("league.demo.no_league", ruleset=ruleset)
    if spec.demo_player is None:
        raise LeagueDemoError("league.demo.no_players", ruleset=ruleset)
    if fmt not in season.FORMATS:
        raise LeagueDemoError("league.demo.format", format=fmt)
    if fmt != season.ROUND_ROBIN and set(counts) != {2}:
        raise LeagueDemoError(
            "league.format.two_seats", format=fmt, seats=season.seat_counts(counts)
        )
    low = min(counts)
    if not low <= players <= MAX_ROUNDS:
        raise LeagueDemoError("league.demo.players", players=players, low=low, high=MAX_ROUNDS)


async def play_league(
    ruleset: str,
    *,
    players: int,
    fmt: str,
    out: Path,
    rounds: int | None = None,
    seed: int | None = None,
    lang: str = "en",
    db: Path | None = None,
) -> LeagueDemoResult:
    """Play a whole season and write its files to ``out``; ``rounds``: a Swiss's rounds (default:
    enough to find a winner, ceil(log2 players)) or how many rounds of a round robin (default:
    all of them; of many-seat games, :data:`MANY_SEAT_ROUNDS`, each seating the whole field); a
    cup plays until its final."""
    check_request(ruleset, players, fmt)
    spec = registry.get(ruleset)
    assert spec.league is not None and spec.demo_player is not None
    ai = spec.demo_player.load()
    rules = spec.league.rosters
    master_of: Callable[[random.Random], dict[str, Any]] | None = getattr(ai, "league_master", None)
    if rules is not None and rules.has_masters and master_of is None:
        raise LeagueDemoError("league.demo.no_masters", ruleset=ruleset)
    cleared = _clear(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "records").mkdir(exist_ok=True)
    rng = random.Random(seed)
    clock_now = [1_800_000_000.0]

    def clock() -> float:
        return clock_now[0]

    with tempfile.TemporaryDirectory() as tmp:
        repo = SqliteRepository(db or Path(tmp) / "league-demo.sqlite3")
        await repo.open()
        try:
            table = Table(repo, clock=clock, default_language=lang, entropy=demo_entropy(seed))
            svc = LeagueService(repo, table)
            sink = FileSink(table, out, lang)
            names = DEMO_PLAYERS.get(lang, DEMO_PLAYERS["en"])
            people = [
                Player(FIRST_USER + i, names[i % len(names)] + ("" if i < len(names) else f"{i}"))
                for i in range(players)
            ]
            swiss_rounds = 0
            if fmt == season.SWISS:
                swiss_rounds = rounds or max(1, math.ceil(math.log2(players)))
            # The draft makes the league's usual rounds, or at least the rounds the ruleset's
            # draft needs (Apeiron's: a deck) and one more a possible loss (an ante takes a card).
            wins = {
                season.SWISS: swiss_rounds,
                season.CUP: math.ceil(math.log2(players)),
                season.ROUND_ROBIN: rounds or players - 1 + players % 2,
            }[fmt]
            # A loser gives a unit a loss: where the draft has a least (a deck to make), it
            # drafts that many more, so that no collection falls short of a match.
            least = int(getattr(spec.league, "draft_rounds", None) or 0)
            draft_rounds = least + wins if least else drafts.DEFAULT_ROUNDS
            if rules is not None:  # every pick is a card of the pool: it must last the draft
                pool = len(rules.pool())
                if pool // players < max(least, 1):
                    raise LeagueDemoError(
                        "league.demo.pool", pool=pool, players=players, rounds=max(least, 1)
                    )
                draft_rounds = min(draft_rounds, pool // players)
            league = await svc.create(
                guild_id=GUILD,
                channel_id=CHANNEL,
                name=t(lang, "league.demo.name"),
                ruleset=ruleset,
                season_name=t(lang, "league.demo.season"),
                # the draft's rounds only where there is a draft (a league without refuses them)
                options=(
                    Options(turn_minutes=0, rounds=draft_rounds)
                    if rules
                    else Options(turn_minutes=0)
                ),
                by=MODERATOR,
                format=fmt,
                swiss_rounds=swiss_rounds,
            )
            for p in people:
                league = await svc.join(league.id, p.user_id, p.name)
            await sink.drain()
            if rules is not None:
                await _draft(svc, league.id, rng, clock_now)
                await sink.drain()
                if rules.has_masters and master_of is not None:
                    for p in people:
                        await svc.submit_master(league.id, p.user_id, master_of(rng))
                    await sink.drain()

            async def play(game_id: str) -> None:
                await _play_match(svc, game_id, ai, rng, clock_now, sink)

            played = 0
            counts = spec.seats.allowed()
            if set(counts) != {2}:  # games of many seats: every round seats the whole field
                by_id = {str(p.user_id): p for p in people}
                for number in range(rounds or MANY_SEAT_ROUNDS):
                    played += 1
                    for seated in tables([str(p.user_id) for p in people], counts, number):
                        league, game_id = await svc.pair(
                            league.id, *(by_id[p] for p in seated), by=0
                        )
                        await sink.drain()
                        await play(game_id)
                        await _antes(svc, league.id, rng, sink)
            elif fmt == season.ROUND_ROBIN:
                schedule = round_robin([str(p.user_id) for p in people])
                by_id = {str(p.user_id): p for p in people}
                for pairs in schedule[: rounds or len(schedule)]:
                    played += 1
                    for a, b in pairs:
                        league, game_id = await svc.pair(league.id, by_id[a], by_id[b], by=0)
                        await sink.drain()
                        await play(game_id)
                        await _antes(svc, league.id, rng, sink)
            else:
                for _ in range(MAX_ROUNDS):
                    try:
                        league, ids = await svc.start_round(league.id, by=MODERATOR)
                    except LeagueError as exc:
                        if exc.key in ("league.round.done", "league.round.cup_over"):
                            break
                        raise
                    played += 1
                    await sink.drain()
                    for game_id in ids:
                        await play(game_id)
                    await _antes(svc, league.id, rng, sink)
            await svc.tick()
            await sink.drain()
            league = await svc.league(league.id)
            result = LeagueDemoResult(
                league.id, [m.id for m in league.matches], played, cleared=cleared
            )
            await _write_files(svc, league, out, lang, result)
            result.boards = list(sink.boards)
            transcript = out / f"transcript-{lang}.txt"
            header = t(
                lang,
                "league.demo.header",
                league=league.name,
                ruleset=spec.presenter.title(lang),
                format=t(lang, f"league.demo.format.{fmt}"),
            )
            lines = readable(sink.lines, {str(p.user_id): p.name for p in people})
            transcript.write_text(header + "\n\n" + "\n".join(lines), "utf-8")
            result.transcript = transcript
            return result
        finally:
            await repo.close()


MENTION = re.compile(r"<@(\d+)>")
TIMESTAMP = re.compile(r"<t:(\d+):[a-zA-Z]>")
DM_HEADER = re.compile(r"^--- DM → (\d+) ---$")


def readable(lines: list[str], names: dict[str, str]) -> list[str]:
    """The transcript as a reader reads Discord: a mention is the player's name, a timestamp
    its UTC time, a DM is headed with whom it went to."""

    def name(found: re.Match[str]) -> str:
        return "@" + names.get(found.group(1), found.group(1))

    def when(found: re.Match[str]) -> str:
        moment = datetime.fromtimestamp(int(found.group(1)), tz=UTC)
        return moment.strftime("%Y-%m-%d %H:%M UTC")

    shown = []
    for line in lines:
        header = DM_HEADER.match(line)
        if header:
            line = f"--- DM → {names.get(header.group(1), header.group(1))} ---"
        shown.append(TIMESTAMP.sub(when, MENTION.sub(name, line)))
    return shown


async def _draft(
    svc: LeagueService, league_id: str, rng: random.Random, clock_now: list[float]
) -> None:
    """The entry draft: each pick the AI's (the dearest unit the rules let it take, ties by
    chance); where the rules let it take none, the draft's own automatic pick at the deadline."""
    league = await svc.start_draft(league_id)
    while league.draft is not None and not league.draft.over:
        draft = league.draft
        picker = draft.current
        assert picker is not None
        options = list(dict.fromkeys(draft.available()))
        rng.shuffle(options)
        options.sort(key=lambda u: -draft.costs.get(u, 0))
        for unit in options:
            clock_now[0] += 30
            try:
                league = await svc.draft_pick(league_id, int(picker), unit, draft.number)
                break
            except RuleError:  # a pick the league or the ruleset refuses: the next dearest
                continue
        else:
            deadline = draft.deadline_at
            clock_now[0] = (deadline if deadline is not None else clock_now[0]) + 1
            await svc.tick()
            league = await svc.league(league_id)


async def _antes(svc: LeagueService, league_id: str, rng: random.Random, sink: FileSink) -> None:
    """Record what has finished, then each open ante's winner declares the dearest unit offered
    (ties by chance): it settles when the winner's next match starts."""
    await svc.record_finished()
    league = await svc.league(league_id)
    found = registry.get(league.ruleset).league
    if found is None or found.rosters is None:
        return
    costs = dict(found.rosters.pool())
    for ante in league.antes:
        if not ante.open or ante.pick is not None or not ante.candidates:
            continue
        candidates = list(ante.candidates)
        rng.shuffle(candidates)
        candidates.sort(key=lambda u: -costs.get(u, 0))
        for unit in candidates:
            try:
                await svc.declare_ante(league_id, ante.match, int(ante.winner), unit)
                break
            except RuleError:
                continue
    await sink.drain()


async def _play_match(
    svc: LeagueService,
    game_id: str,
    ai: Any,
    rng: random.Random,
    clock_now: list[float],
    sink: FileSink,
) -> None:
    """Every seat plays the ruleset's demo AI until the game ends."""
    table = svc.table
    for _ in range(MAX_TURNS):
        game = await table.game(game_id)
        if game.status != "active":
            break
        spec = registry.get(game.ruleset)
        state = spec.engine.from_json(game.state or {})
        for seat in spec.engine.awaiting(state):
            await table.submit(
                game_id, game.user_of(seat), ai.choose(state, seat, rng), source="demo"
            )
        clock_now[0] += 60
        await sink.drain()
    await sink.drain()


async def _write_files(
    svc: LeagueService, league: season.League, out: Path, lang: str, result: LeagueDemoResult
) -> None:
    """Each match's record (checked with verify), the standings, ratings and bracket images,
    and the league's export (checked against the records)."""
    records: dict[str, dict[str, Any]] = {}
    for game_id in result.matches:
        exported = await svc.table.export(game_id)
        path = out / "records" / f"{game_id}.json"
        path.write_text(json.dumps(exported, ensure_ascii=False, indent=1), "utf-8")
        result.records.append(path)
        records[game_id] = exported
        checks = verify(json.loads(path.read_text("utf-8")))
        if all(c.ok or c.note for c in checks):
            result.verified += 1
    title = t(lang, "league.standings.title", league=league.name, season=league.season)
    found = registry.get(league.ruleset).league
    dp = found is not None and DP in found.figures
    images = [
        (
            f"standings-{lang}.png",
            render_standings(league.standings(), league.names, lang, title=title, dp=dp),
        )
    ]
    rated = await svc.ratings(league.guild_id, league.ruleset)
    ruleset_title = registry.get(league.ruleset).presenter.title(lang)
    title = t(lang, "league.ratings.title", ruleset=ruleset_title)
    images.append(
        (f"ratings-{lang}.png", render_ratings(table_rows(rated), league.names, lang, title=title))
    )
    if league.cup is not None:
        title = t(lang, "league.cup.title", league=league.name, season=league.season)
        images.append(
            (f"bracket-{lang}.png", render_bracket(league.cup, league.names, lang, title=title))
        )
        final = league.cup.rounds[-1]
        result.champion = final[0].winner if len(final) == 1 else None
        if result.champion is not None:
            result.champion_name = league.names.get(result.champion, result.champion)
    for name, png in images:
        path = out / name
        path.write_bytes(png)
        result.images.append(path)
    exported_league = await collect(svc, league.id)
    export = out / f"league-{league.id}.json"
    export.write_text(json.dumps(exported_league, ensure_ascii=False, indent=1), "utf-8")
    result.export = export
    result.checked = check_records(exported_league, records)


# --- the command line -----------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    lang = cli_language()
    parser.description = t(lang, "league.demo.help")
    choices = [k for k, s in registry.rulesets().items() if s.league is not None or s.demo_player]
    parser.add_argument(
        "--ruleset", required=True, choices=choices, help=t(lang, "league.demo.help.ruleset")
    )
    parser.add_argument(
        "--players", type=int, default=4, metavar="N", help=t(lang, "league.demo.help.players")
    )
    parser.add_argument(
        "--format",
        dest="fmt",
        choices=season.FORMATS,
        default=season.ROUND_ROBIN,
        help=t(lang, "league.demo.help.format"),
    )
    parser.add_argument(
        "--rounds", type=int, default=None, metavar="K", help=t(lang, "league.demo.help.rounds")
    )
    parser.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help=t(lang, "cli.help.demo.out")
    )
    parser.add_argument(
        "--seed", type=int, default=None, metavar="N", help=t(lang, "cli.help.demo.seed")
    )
    parser.add_argument(
        "--lang", choices=("en", "ja"), default="en", help=t(lang, "cli.help.demo.lang")
    )


def run(args: argparse.Namespace) -> int:
    lang = getattr(args, "cli_lang", None) or cli_language()
    out = (
        args.out
        if args.out is not None
        else default_out(args.ruleset, args.fmt, args.seed, args.lang)
    )
    if out.exists() and not out.is_dir():
        print(t(lang, "cli.demo.out_not_folder", path=out), file=sys.stderr)
        return 1
    try:
        result = asyncio.run(
            play_league(
                args.ruleset,
                players=args.players,
                fmt=args.fmt,
                out=out,
                rounds=args.rounds,
                seed=args.seed,
                lang=args.lang,
            )
        )
    except RuleError as exc:  # the demo's own refusals and a league's (a ruleset not ready)
        print("demo league: " + t(lang, exc.key, **exc.params), file=sys.stderr)
        return 1
    except OSError as exc:
        print(unwritable(lang, exc, out), file=sys.stderr)
        return 1
    if result.cleared:
        print(t(lang, "cli.demo.cleared", count=result.cleared, path=out), file=sys.stderr)
    print(
        json.dumps(
            {
                "league": result.league_id,
                "rounds": result.rounds,
                "matches": len(result.matches),
                "verified": result.verified,
                "checked": result.checked,
                "boards": len(result.boards),
                "images": [p.name for p in result.images],
                "champion": result.champion_name,
                "out": str(out),
                "transcript": str(result.transcript),
                "export": str(result.export),
            },
            ensure_ascii=False,
        )
    )
    return 0 if result.verified == len(result.records) else 1
