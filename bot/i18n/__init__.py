"""Message catalogues (ja/en) and the one function that turns a key into a sentence.

Catalogues are flat JSON objects ``{"key": "template with {params}"}`` named ``<lang>.json`` or
``<area>.<lang>.json``. The framework's live in ``bot/i18n/locales/``; each ruleset keeps
its own in ``cogs/<name>/locales/`` and they are merged at first use.
Pure: no discord here (the discord.py Translator lives in ``bot/i18n/translator.py``).
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

LANGS = ("en", "ja")
DEFAULT_LANG = "en"
_ROOT = Path(__file__).resolve().parent.parent.parent
_SOURCES = [
    _ROOT / "bot" / "i18n" / "locales",
    *sorted(p for p in (_ROOT / "cogs").glob("*/locales") if p.is_dir()),
]


_BUILT_IN = frozenset(_SOURCES)


def add_source(folder: Path) -> None:
    """Merge the catalogues of ``folder`` too (a ruleset found outside ``cogs/``)."""
    folder = Path(folder).resolve()
    if folder not in _SOURCES:
        _SOURCES.append(folder)
        catalogue.cache_clear()


def remove_source(folder: Path) -> None:
    """Forget the catalogues :func:`add_source` merged from ``folder`` (a ruleset unregistered).
    The framework's and the ``cogs/`` folders stay."""
    folder = Path(folder).resolve()
    if folder in _SOURCES and folder not in _BUILT_IN:
        _SOURCES.remove(folder)
        catalogue.cache_clear()


def normalize_lang(locale: str | None) -> str:
    """Map a Discord locale (``ja``, ``en-US``, ``en-GB``…) to a catalogue language."""
    if not locale:
        return DEFAULT_LANG
    base = str(locale).split("-")[0].split("_")[0].lower()
    return base if base in LANGS else DEFAULT_LANG


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    merged: dict[str, str] = {}
    for folder in _SOURCES:
        # ``en.json`` and any ``<area>.en.json`` beside it (areas keep unrelated keys apart)
        for path in sorted([*folder.glob(f"{lang}.json"), *folder.glob(f"*.{lang}.json")]):
            for key, value in json.loads(path.read_text("utf-8")).items():
                if key in merged:
                    raise ValueError(f"duplicate message key {key!r} in {path}")
                merged[key] = value
    return merged


# Bidi controls (embeddings, overrides, isolates, marks) and zero-width characters. Invisible in a
# message, they let quoted user text reorder or hide what the bot says around it (after a quoted
# right-to-left override the rest of the line reads backwards), so no parameter carries them.
INVISIBLE = frozenset(
    "\u202a\u202b\u202c\u202d\u202e"  # LRE RLE PDF LRO RLO
    "\u2066\u2067\u2068\u2069"  # LRI RLI FSI PDI
    "\u200e\u200f\u061c"  # LRM RLM ALM
    "\u200b\u200c\u200d\u2060\ufeff"  # ZWSP ZWNJ ZWJ WJ BOM
)
_DROP_INVISIBLE = dict.fromkeys(map(ord, INVISIBLE))


def strip_invisible(text: str) -> str:
    """``text`` without bidi controls and zero-width characters (:data:`INVISIBLE`)."""
    return text.translate(_DROP_INVISIBLE)


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def command_name(path: str, lang: str) -> str:
    """A slash command as Discord shows it in ``lang``: ``game.status`` → ``/game status``, or
    ``/ゲーム 状況`` in Japanese (each level's ``cmd.…`` name, as the command tree registers it).
    Messages name commands with ``{cmd:game.status}``, which :func:`t` fills with this."""
    words = path.replace("-", "_").split(".")  # /game replace-me is ``cmd.game.replace_me``
    return "/" + " ".join(t(lang, "cmd." + ".".join(words[: i + 1])) for i in range(len(words)))


class _Commands:
    """The ``cmd`` parameter every message has: formatted with a command's path."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __format__(self, path: str) -> str:
        return command_name(path, self.lang)


def t(lang: str, key: str, /, **params: Any) -> str:
    """The sentence for ``key`` in ``lang`` (falls back to English, then to the key itself)."""
    template = catalogue(normalize_lang(lang)).get(key)
    if template is None:
        template = catalogue(DEFAULT_LANG).get(key, key)
    # String parameters are where user text comes in (a word quoted back in a refusal, a name):
    # cleaned here, once, for every message the bot writes.
    clean = {k: strip_invisible(v) if isinstance(v, str) else v for k, v in params.items()}
    # ``move_key="arena.move.back_left"`` fills ``{move}`` in the reader's language: rules
    # raise refusals without knowing who will read them.
    for name, value in params.items():
        if name.endswith("_key") and isinstance(value, str) and name[:-4] not in clean:
            clean[name[:-4]] = t(lang, value)
    # ``{cmd:game.status}`` names a command as the reader's Discord shows it (/ゲーム 状況).
    clean.setdefault("cmd", _Commands(lang))
    return string.Formatter().vformat(template, (), _Lenient(clean))


def has(key: str) -> bool:
    return key in catalogue(DEFAULT_LANG)


def missing_keys() -> dict[str, set[str]]:
    """Keys present in one language but not the other (a test keeps this empty)."""
    sets = {lang: set(catalogue(lang)) for lang in LANGS}
    everything = set().union(*sets.values())
    return {lang: everything - keys for lang, keys in sets.items() if everything - keys}
