"""``python -m bot view RECORD [-o FILE] [--lang en|ja]``: a match record's viewer, one HTML file.

Registered beside ``replay`` and ``verify`` (``bot/__main__.py``) as a ruleset's own tools are:
:func:`add_arguments` and :func:`run`. A record the viewer cannot read is one line and exit 1,
as ``verify`` says it; a tampered record still gets its viewer (its page marks the steps that
fail), since showing where a record was altered is part of the viewer's job.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.i18n import t
from bot.record import RecordError
from bot.viewer.page import build, record_language


def add_arguments(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("file", type=Path, help=t(lang, "cli.help.record_file"))
    parser.add_argument(
        "-o", "--out", type=Path, default=None, metavar="FILE", help=t(lang, "viewer.cli.out")
    )
    parser.add_argument(
        "--lang", choices=("en", "ja"), default=None, help=t(lang, "viewer.cli.lang")
    )


def run(
    args: argparse.Namespace,
    *,
    load: Callable[[Path], Any],
    refused: Callable[[str, RecordError, str], int],
) -> int:
    """``load`` reads a record file as ``replay`` and ``verify`` do (its size capped), and
    ``refused`` says a record that cannot be read in one line: both are the command line's."""
    cli_lang = args.cli_lang
    try:
        record = load(args.file)
        lang = args.lang or record_language(record, cli_lang)
        page = build(record, lang)
    except RecordError as exc:
        return refused("view", exc, cli_lang)
    out: Path = args.out if args.out is not None else args.file.with_suffix(".html")
    data = page.html.encode("utf-8")
    try:
        out.write_bytes(data)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        print(t(cli_lang, "viewer.cli.unwritable", path=out, reason=reason), file=sys.stderr)
        return 1
    print(
        t(
            cli_lang,
            "viewer.cli.written",
            path=out,
            size=len(data),
            steps=page.steps,
            boards=page.pictures,
        )
    )
    return 0
