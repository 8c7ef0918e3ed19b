"""``python -m bot`` runs the bot; ``demo``, ``replay`` and ``verify`` work offline.

Everything the command line says (its ``--help`` included) is in the operator's language: ``LOCALE``
from the environment or ``.env`` (:func:`bot.config.cli_language`). A mistake the user can fix (a
setting, a path) is one line on stderr and a non-zero exit, never a traceback.

python -m bot                         run the bot (needs DISCORD_TOKEN; SQLite by default)
python -m bot demo RULESET [--out DIR] [--seed N] [--lang en|ja] [--record FILE] [--players N]
python -m bot demo NAME …             a shared cog's demo (``demo league``: a whole season)
python -m bot replay FILE [--events]
python -m bot verify FILE
python -m bot view FILE [-o FILE] [--lang en|ja]
python -m bot migrate-db --from URL --to URL [--force]
python -m bot <command> …             a ruleset's own tools (``--help`` lists them)
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import logging
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot import registry
from bot.config import Config, ConfigError, cli_language
from bot.i18n import t
from bot.record import MAX_RECORD_BYTES, RecordError, load_record, replay, verify
from bot.storage import DatabaseUnavailable, open_repository
from bot.viewer import cli as viewer_cli


def _run_bot(lang: str) -> int:
    try:
        config = Config.from_env()
    except ConfigError as exc:
        reason = t(lang, exc.key, **exc.params)
        print(t(lang, "cli.config_error", reason=reason), file=sys.stderr)
        return 2
    if not config.token:
        # In the operator's language (LOCALE=ja in .env or the shell), pointing at a demo.
        # Arena's demo is the shortest first look; another ruleset's if it is not installed.
        playable = [k for k, s in registry.rulesets().items() if s.demo_player]
        demo = "arena" if "arena" in playable else next(iter(playable), "RULESET")
        print(t(config.default_language, "cli.no_token", ruleset=demo), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from bot import faults
    from bot.client import create_bot
    from bot.http import configure_endpoints, pacing

    faults.arm(config.fault_point)
    configure_endpoints(config)
    try:
        # Before Discord is contacted: a database that cannot be opened is one clear line, and
        # the pending migrations are applied here once.
        asyncio.run(_check_database(config.database_url))
    except DatabaseUnavailable as exc:
        print(t(lang, "cli.database_unavailable", reason=str(exc)), file=sys.stderr)
        return 1
    # Boards render beside the event loop's GIL; every REST request is paced under the token's
    # global limit, shared with the other shard processes through PostgreSQL.
    bot = create_bot(config, render_processes=1, http_trace=pacing(config))
    bot.run(config.token, log_handler=None)
    return 0


async def _check_database(url: str) -> None:
    repo = open_repository(url)
    await repo.open()
    await repo.close()


def _demo(args: argparse.Namespace) -> int:
    from bot.demo import DemoError, default_out, play, unwritable

    lang = args.cli_lang
    out = args.out if args.out is not None else default_out(args.ruleset, args.seed, args.lang)
    # Checked before a game is played for nothing: where the files go must be a folder and a file.
    if out.exists() and not out.is_dir():
        print(t(lang, "cli.demo.out_not_folder", path=out), file=sys.stderr)
        return 1
    if args.record is not None and args.record.is_dir():
        print("demo: " + t(lang, "record.load.folder", path=args.record), file=sys.stderr)
        return 1
    try:
        result = asyncio.run(
            play(
                args.ruleset,
                out=out,
                seed=args.seed,
                lang=args.lang,
                record=args.record,
                players=args.players,
            )
        )
    except DemoError as exc:
        print(t(lang, exc.key, **exc.params), file=sys.stderr)
        return 1
    except OSError as exc:  # no permission, a full disk, a name too long…
        print(unwritable(lang, exc, out), file=sys.stderr)
        return 1
    if result.cleared:
        print(t(lang, "cli.demo.cleared", count=result.cleared, path=out), file=sys.stderr)
    print(
        json.dumps(
            {
                "game_id": result.game_id,
                "turns": result.turns,
                "winner": result.winner,
                "boards": len(result.boards),
                "out": str(out),
                "transcript": str(result.transcript),
                "record": str(result.record) if result.record else None,
            },
            ensure_ascii=False,
        )
    )
    return 0


def _load_record(path: Path) -> Any:
    """The file's JSON, unchecked: ``replay`` and ``verify`` refuse what is not a record.

    The size is capped as ``/verify record`` caps it: checked with a stat before reading, and
    the read itself stops one byte past the cap (a device or a growing file has no honest size).
    """
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise RecordError.keyed("record.load.folder", path=path)
        if info.st_size > MAX_RECORD_BYTES:
            raise RecordError.keyed(
                "record.load.too_big", path=path, size=info.st_size, limit=MAX_RECORD_BYTES
            )
        with path.open("rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise RecordError.keyed("record.load.no_file", path=path) from None
    except IsADirectoryError:
        raise RecordError.keyed("record.load.folder", path=path) from None
    except OSError as exc:  # no permission, a broken link, a name too long…
        reason = exc.strerror or type(exc).__name__
        raise RecordError.keyed("record.load.unreadable", path=path, reason=reason) from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError.keyed(
            "record.load.too_big", path=path, size=f"> {MAX_RECORD_BYTES}", limit=MAX_RECORD_BYTES
        )
    return load_record(data)


def _refused(command: str, exc: RecordError, lang: str) -> int:
    """A record the command cannot use: one line, in the operator's language where the reason
    has a catalogue message (reading the file), else the checker's English sentence."""
    reason = t(lang, exc.key, **exc.params) if exc.key else str(exc)
    print(f"{command}: {reason}", file=sys.stderr)
    return 1


def _replay(args: argparse.Namespace) -> int:
    try:
        result = replay(_load_record(args.file))
    except RecordError as exc:
        return _refused("replay", exc, args.cli_lang)
    if args.events:
        for turn, event in result.events:
            # Nested, not merged: an event's own fields may be called "turn" (Arena's order
            # events carry the order's turn token), which would overwrite the turn number.
            print(json.dumps({"turn": turn, "event": event.to_json()}, ensure_ascii=False))
    print(json.dumps(result.result(), ensure_ascii=False))
    return 0


def _verify(args: argparse.Namespace) -> int:
    try:
        checks = verify(_load_record(args.file))
    except RecordError as exc:
        return _refused("verify", exc, args.cli_lang)
    for check in checks:
        print(("note    " if check.note else "ok      " if check.ok else "FAILED  ") + check.what)
    # A note (what a mid-game export withholds) is neither passed nor failed.
    checked = [c for c in checks if not c.note]
    failed = sum(not c.ok for c in checked)
    print(f"{len(checked) - failed} passed, {failed} failed")
    return 1 if failed or not checked else 0


def _migrate_db(args: argparse.Namespace) -> int:
    """Copy a whole database to another backend (bot/storage/migrate.py), with the per-table
    counts and checksums of both sides; any refusal is one line and exit 1."""
    from bot.storage.migrate import MigrateError, migrate
    from bot.storage.urls import mask

    lang = args.cli_lang
    print(t(lang, "cli.migrate.copying", source=mask(args.source), target=mask(args.target)))
    try:
        report = asyncio.run(migrate(args.source, args.target, force=args.force))
    except MigrateError as exc:
        if exc.report is not None:
            _print_tables(lang, exc.report)
        reason = t(lang, exc.key, **exc.params)
        # A URL's own reason (bot/storage/urls.py) names the option, not the command.
        prefix = "migrate-db: " if exc.key.startswith("db_url.") else ""
        print(prefix + reason, file=sys.stderr)
        return 1
    if report.replaced:
        print(t(lang, "cli.migrate.replaced"))
    _print_tables(lang, report)
    print(t(lang, "cli.migrate.done", rows=report.rows, tables=len(report.tables)))
    return 0


def _print_tables(lang: str, report: Any) -> None:
    width = max((len(row.table) for row in report.tables), default=0)
    for row in report.tables:
        print(
            t(
                lang,
                "cli.migrate.table.ok" if row.ok else "cli.migrate.table.differs",
                table=row.table.ljust(width),
                source_rows=row.source.rows,
                source_sum=row.source.checksum,
                target_rows=row.target.rows,
                target_sum=row.target.checksum,
            )
        )


Command = Callable[[argparse.Namespace], int]


def build_parser(
    lang: str, *, rulesets: bool = True
) -> tuple[argparse.ArgumentParser, dict[str, Command]]:
    """The command line's parser, its texts in ``lang``, and each command's function; without
    ``rulesets``, only the commands that need none (the rulesets' own tools and ``demo``'s
    choices are left out, and no ruleset is imported)."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=t(lang, "cli.help.description"),
        epilog=t(lang, "cli.help.epilog"),
        # The epilog's examples are one command a line, as they are typed.
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help=t(lang, "cli.help.demo"))
    playable = (
        [key for key, spec in registry.rulesets().items() if spec.demo_player] if rulesets else None
    )
    demo.add_argument("ruleset", choices=playable, help=t(lang, "cli.help.demo.ruleset"))
    demo.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help=t(lang, "cli.help.demo.out")
    )
    demo.add_argument(
        "--seed", type=int, default=None, metavar="N", help=t(lang, "cli.help.demo.seed")
    )
    demo.add_argument(
        "--lang", choices=("en", "ja"), default="en", help=t(lang, "cli.help.demo.lang")
    )
    demo.add_argument(
        "--record", type=Path, default=None, metavar="FILE", help=t(lang, "cli.help.demo.record")
    )
    demo.add_argument(
        "--players", type=int, default=None, metavar="N", help=t(lang, "cli.help.demo.players")
    )
    rep = sub.add_parser("replay", help=t(lang, "cli.help.replay"))
    rep.add_argument("file", type=Path, help=t(lang, "cli.help.record_file"))
    rep.add_argument("--events", action="store_true", help=t(lang, "cli.help.replay.events"))
    ver = sub.add_parser("verify", help=t(lang, "cli.help.verify"))
    ver.add_argument("file", type=Path, help=t(lang, "cli.help.record_file"))
    viewer_cli.add_arguments(sub.add_parser("view", help=t(lang, "viewer.cli.help")), lang)
    mig = sub.add_parser("migrate-db", help=t(lang, "cli.help.migrate_db"))
    mig.add_argument(
        "--from",
        dest="source",
        required=True,
        metavar="URL",
        help=t(lang, "cli.help.migrate_db.from"),
    )
    mig.add_argument(
        "--to", dest="target", required=True, metavar="URL", help=t(lang, "cli.help.migrate_db.to")
    )
    mig.add_argument("--force", action="store_true", help=t(lang, "cli.help.migrate_db.force"))
    commands: dict[str, Command] = {
        "demo": _demo,
        "replay": _replay,
        "verify": _verify,
        "view": functools.partial(viewer_cli.run, load=_load_record, refused=_refused),
        "migrate-db": _migrate_db,
    }
    # Each ruleset may add tools of its own (the dungeon's monster-AI solver).
    for spec in registry.rulesets().values() if rulesets else ():
        for command in spec.cli:
            module = command.module.load()
            module.add_arguments(sub.add_parser(command.name, help=command.help))
            commands[command.name] = module.run
    return parser, commands


def _shared_demo(name: str, argv: list[str], lang: str) -> int | None:
    """``demo NAME …`` where a shared cog adds the demo ``NAME`` (:func:`bot.demo.shared_demos`):
    its own parser and run; None where no shared cog adds one (a ruleset's demo, or a mistake
    the ``demo`` parser then words)."""
    from bot.demo import shared_demos

    command = shared_demos().get(name)
    if command is None:
        return None
    parser = argparse.ArgumentParser(prog=f"python -m bot demo {name}", description=command.help)
    module = command.module.load()
    module.add_arguments(parser)
    args = parser.parse_args(argv)
    args.cli_lang = lang
    result: int = module.run(args)
    return result


# Commands whose command line names no ruleset: reading it imports none, so a setting's mistake
# or a migration answers at once (the bot loads its rulesets later, once its settings are good).
NO_RULESET_COMMANDS = ("migrate-db",)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    lang = cli_language()
    if len(argv) >= 2 and argv[0] == "demo" and not argv[1].startswith("-"):
        shared = _shared_demo(argv[1], argv[2:], lang)
        if shared is not None:
            return shared
    plain = not argv or argv[0] in NO_RULESET_COMMANDS
    parser, commands = build_parser(lang, rulesets=not plain)
    args = parser.parse_args(argv)
    args.cli_lang = lang
    if args.command is None:
        return _run_bot(lang)
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
