"""``python -m bot`` runs the bot; ``demo``, ``replay`` and ``verify`` work offline.

python -m bot                         run the bot (needs DISCORD_TOKEN; SQLite by default)
python -m bot demo RULESET [--out DIR] [--seed N] [--lang en|ja] [--record FILE]
python -m bot replay FILE [--events]
python -m bot verify FILE
python -m bot <command> …             a ruleset's own tools (``--help`` lists them)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import stat
import sys
from pathlib import Path
from typing import Any

from bot import registry
from bot.config import Config, ConfigError
from bot.i18n import t
from bot.record import MAX_RECORD_BYTES, RecordError, load_record, replay, verify


def _run_bot() -> int:
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    if not config.token:
        # In the operator's language (LOCALE=ja in .env or the shell), pointing at a demo.
        demo = next((k for k, s in registry.rulesets().items() if s.demo_player), "RULESET")
        print(t(config.default_language, "cli.no_token", ruleset=demo), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from bot import faults
    from bot.client import RefereeBot
    from bot.http import configure_endpoints

    faults.arm(config.fault_point)
    configure_endpoints(config)
    bot = RefereeBot(config, render_processes=1)  # boards render beside the event loop's GIL
    bot.run(config.token, log_handler=None)
    return 0


def _demo(args: argparse.Namespace) -> int:
    from bot.demo import play

    result = asyncio.run(
        play(args.ruleset, out=args.out, seed=args.seed, lang=args.lang, record=args.record)
    )
    print(
        json.dumps(
            {
                "game_id": result.game_id,
                "turns": result.turns,
                "winner": result.winner,
                "boards": len(result.boards),
                "out": str(args.out),
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


def _replay(args: argparse.Namespace) -> int:
    try:
        result = replay(_load_record(args.file))
    except RecordError as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 1
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
        print(f"verify: {exc}", file=sys.stderr)
        return 1
    for check in checks:
        print(("note    " if check.note else "ok      " if check.ok else "FAILED  ") + check.what)
    # A note (what a mid-game export withholds) is neither passed nor failed.
    checked = [c for c in checks if not c.note]
    failed = sum(not c.ok for c in checked)
    print(f"{len(checked) - failed} passed, {failed} failed")
    return 1 if failed or not checked else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="play a whole game between built-in AI players, offline")
    playable = [key for key, spec in registry.rulesets().items() if spec.demo_player]
    demo.add_argument("ruleset", choices=playable)
    demo.add_argument(
        "--out", type=Path, default=Path("demo-out"), help="folder for boards and transcript"
    )
    demo.add_argument(
        "--seed",
        type=int,
        default=None,
        help="repeat the same game: AI choices, dice and salts derive from N",
    )
    demo.add_argument("--lang", choices=("en", "ja"), default="en")
    demo.add_argument("--record", type=Path, default=None, help="also write the match record here")
    rep = sub.add_parser("replay", help="replay a match record and print its result")
    rep.add_argument("file", type=Path)
    rep.add_argument("--events", action="store_true", help="also print every event, one per line")
    ver = sub.add_parser("verify", help="check a record's commitments, receipts and rolls")
    ver.add_argument("file", type=Path)
    commands = {"demo": _demo, "replay": _replay, "verify": _verify}
    # Each ruleset may add tools of its own (the dungeon's monster-AI solver).
    for spec in registry.rulesets().values():
        for command in spec.cli:
            module = command.module.load()
            module.add_arguments(sub.add_parser(command.name, help=command.help))
            commands[command.name] = module.run
    args = parser.parse_args(argv)
    if args.command is None:
        return _run_bot()
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
