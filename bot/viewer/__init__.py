"""The match viewer (``python -m bot view``): one self-contained HTML file per game.

Every step's board as the channel saw it, its public log, tallies and orders; after the end each
seat's private view; and the dice and receipts checked in the reader's browser with WebCrypto,
exactly as ``shared/spec/dice-and-receipts.md`` says. Pure (the rules, the presenters and
Pillow): no discord, no storage. One module a job, each importing only those before it:

- :mod:`bot.viewer.play`: the record played step by step (states, die sizes, orders);
- :mod:`bot.viewer.pictures`: the boards, in one palette, a board as a patch of the one before;
- :mod:`bot.viewer.frames`: what the page shows of each step, in the reader's language;
- :mod:`bot.viewer.page`: the HTML file (``assets/page.*``: its template, style and script);
- :mod:`bot.viewer.cli`: the command line's ``view``.
"""

from __future__ import annotations

from bot.viewer.page import Page, build, record_language

__all__ = ["Page", "build", "record_language"]
