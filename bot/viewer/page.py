"""The viewer's one HTML file: the template (``assets/``) with its style, its script and the
game's data inlined, so that it opens from a disk or a Discord attachment with no server and no
network. A Content-Security-Policy in the page allows nothing but its own inline style and
script (by their hashes) and its ``data:`` pictures.

The data is one JSON object in a ``<script type="application/json">``: the record itself (the
browser checks its dice and receipts from it), the frames (:mod:`bot.viewer.frames`), the
pictures, the result the rules reached and the page's texts in its language. The record a
mid-game export gives holds only what is public, and the page adds no private view to it: a
seat's private views are built only for a game that is over.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from PIL import features

from bot.i18n import catalogue, t
from bot.record.export import STATUSES
from bot.viewer.frames import FrameMaker, names_at
from bot.viewer.pictures import (
    IMAGE_BUDGET,
    SMALL_PALETTE,
    STRIP_ACROSS,
    TILE,
    Drawn,
    Images,
)
from bot.viewer.play import Played, play

ENDED = ("finished", "abandoned")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


@cache
def _asset(name: str) -> str:
    return resources.files("bot.viewer").joinpath("assets", name).read_text("utf-8")


def record_language(record: Any, fallback: str) -> str:
    """The language a record was played in, as far as it shows: Japanese where its players'
    names or its orders are written in Japanese, else ``fallback``."""
    if not isinstance(record, Mapping):
        return fallback
    players = record.get("players")
    names = " ".join(map(str, players.values())) if isinstance(players, Mapping) else ""
    turns = record.get("turns")
    first = turns[:20] if isinstance(turns, list) else []
    orders = json.dumps(first, ensure_ascii=False)
    return "ja" if _CJK.search(names) or _CJK.search(orders) else fallback


def shows_private(record: Mapping[str, Any], played: Played) -> bool:
    """Whether the page may show each seat's private views: only once the game is over and its
    export holds everything (the secret seed, every order), never a mid-game export's."""
    result = record.get("result")
    status = result.get("status") if isinstance(result, Mapping) else None
    secret = record.get("secret")
    sealed = played.rec.spec.secret_stream and not (
        isinstance(secret, Mapping) and isinstance(secret.get("seed"), str)
    )
    held = played.stopped is not None and played.stopped.withheld
    return status in ENDED and not sealed and not held


def _texts(lang: str) -> dict[str, str]:
    """The page's own texts (``viewer.*``) in ``lang``: the script fills their ``{names}``."""
    return {
        key[len("viewer.") :]: t(lang, key) for key in catalogue("en") if key.startswith("viewer.")
    }


def _embedded(value: Any) -> str:
    """JSON that cannot end its ``<script>`` element early, whatever a record's text holds."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@dataclass(frozen=True)
class Page:
    """A viewer: its HTML, how many steps it shows and how many pictures it holds."""

    html: str
    steps: int
    pictures: int


def build(record: Any, lang: str, drawn: Drawn | None = None) -> Page:
    """The viewer of ``record`` in ``lang`` (``en`` or ``ja``), as one HTML document.
    :class:`bot.record.RecordError` for what is not a record. ``drawn``: boards already drawn
    (by an earlier page of the same game), to draw only the others."""
    played = play(record)
    spec = played.rec.spec
    private = shows_private(record, played)
    images = Images(webp=bool(features.check("webp")), drawn=drawn or Drawn())
    frames = FrameMaker(played, record, lang, private, images).frames()
    pictures = images.pictures()
    if pictures.size > IMAGE_BUDGET:
        pictures = images.pictures(SMALL_PALETTE)
    result = record.get("result")
    status = result.get("status") if isinstance(result, Mapping) else None
    final = played.final
    outcome = spec.engine.outcome(final) if final is not None else None
    data = {
        "lang": lang,
        "text": _texts(lang),
        "ruleset": spec.key,
        "seats": played.rec.seats,
        "names": names_at(record, played.rec.seats, len(played.rec.turns)),
        "midgame": status not in ENDED,
        "private": private,
        "record": record,
        "frames": frames,
        "images": pictures.uris,
        "patches": pictures.patches,
        "tiles": [TILE, STRIP_ACROSS],
        "replay": {
            "complete": played.stopped is None,
            "stopped": None
            if played.stopped is None
            else {
                "index": played.stopped.index,
                "reason": played.stopped.reason,
                "withheld": played.stopped.withheld,
            },
            "finished": bool(outcome and outcome.finished),
            "winner": outcome.winner if outcome is not None else None,
            "grades": dict(outcome.grades) if outcome is not None else {},
            "ended_by": played.ended_by,
            "statuses": list(STATUSES),
        },
    }
    title = t(lang, "viewer.title", ruleset=spec.presenter.title(lang), game=played.rec.game_id)
    css, js = _asset("page.css"), _asset("page.js")
    csp = (
        f"default-src 'none'; img-src data:; style-src {_csp_hash(css)}; "
        f"script-src {_csp_hash(js)}; base-uri 'none'; form-action 'none'"
    )
    values = {
        "lang": lang,
        "csp": csp,
        "title": _escape(title),
        "noscript": _escape(t(lang, "viewer.noscript")),
        "css": css,
        "js": js,
        "data": _embedded(data),
    }
    # One pass over the template: a value (a record's text) is never read for placeholders.
    html = re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], _asset("page.html"))
    return Page(html, len(frames), len(pictures.uris))


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )
