"""The only reader of the environment (and of ``.env``)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dotenv import dotenv_values, load_dotenv

from bot.i18n import t
from bot.ratebudget import DISCORD_GLOBAL_LIMIT
from bot.storage.urls import DatabaseUrlError, parse

DEFAULT_DATABASE_URL = "sqlite:///data/bot.sqlite3"
LANGUAGES = ("en", "ja")
# The names ``logging`` knows, in the order an operator reads them (NOTSET logs everything too).
MAX_GLOBAL_LIMIT = 100_000  # a typo's guard, far above any limit Discord grants
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# Metrics answer on loopback unless told otherwise: a scraper elsewhere is a deliberate choice.
DEFAULT_METRICS_HOST = "127.0.0.1"
MAX_PORT = 65535


class ConfigError(ValueError):
    """A setting the bot cannot start with: ``t(lang, key, **params)`` says which and why in the
    operator's language; ``str()`` is the English."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(t("en", key, **params))
        self.key = key
        self.params = params


def cli_language(env_file: str | Path | None = ".env") -> str:
    """The command line's language: ``LOCALE`` from the environment or ``.env`` (as the bot reads
    it), English when unset or not a language we speak (that mistake is reported in English)."""
    value = os.environ.get("LOCALE")
    if value is None and env_file is not None and Path(env_file).exists():
        value = dotenv_values(env_file).get("LOCALE")
    language = (value or "").strip().lower()
    return language if language in LANGUAGES else "en"


def _database_url(value: str) -> str:
    """A URL the bot can open (SQLite, or PostgreSQL for several shard processes), refused before
    anything starts otherwise, in one line (bot/storage/urls.py: the password masked)."""
    url = (value or DEFAULT_DATABASE_URL).strip()
    try:
        parse(url, what="DATABASE_URL")
    except DatabaseUrlError as exc:
        raise ConfigError(exc.key, **exc.params) from None
    return url


def _log_level(value: str) -> str:
    level = value.upper() or "INFO"
    if level not in logging.getLevelNamesMapping():
        raise ConfigError("config.error.log_level", value=value, levels=", ".join(LOG_LEVELS))
    return level


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` as discord.py's AutoShardedBot takes them.

    Neither: one unsharded connection (as always). ``SHARD_COUNT=3`` alone: this process runs
    all three shards. ``SHARD_COUNT=3 SHARD_IDS=1`` (or ``0,2``): this process runs those, and
    other processes (sharing the token and the database) run the rest.
    """
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ConfigError("config.error.shard_ids_without_count")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError("config.error.shard_count", value=count_text)
    count = int(count_text)
    if not ids_text:
        return count, None
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(part.isdigit() and int(part) < count for part in parts):
        raise ConfigError("config.error.shard_ids", value=ids_text, last=count - 1)
    return count, tuple(sorted({int(part) for part in parts}))


def _global_limit(text: str) -> int:
    """``DISCORD_GLOBAL_LIMIT``: the token's requests per second (Discord raises it for large
    bots on request; every process of the bot must be given the same value)."""
    if not text:
        return DISCORD_GLOBAL_LIMIT
    if not text.isdigit() or not 1 <= int(text) <= MAX_GLOBAL_LIMIT:
        raise ConfigError("config.error.global_limit", value=text, most=MAX_GLOBAL_LIMIT)
    return int(text)


def _metrics_port(text: str) -> int | None:
    """``METRICS_PORT``: where ``/metrics`` and ``/healthz`` listen (unset: no server)."""
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= MAX_PORT:
        raise ConfigError("config.error.metrics_port", value=text)
    return int(text)


@dataclass(frozen=True)
class Config:
    token: str | None
    database_url: str
    dev_guild_id: int | None
    default_language: str
    api_base: str | None
    gateway_url: str | None
    log_level: str
    # Several shard processes on one token and one database: SHARD_COUNT, SHARD_IDS (see _shards).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    global_limit: int = DISCORD_GLOBAL_LIMIT  # DISCORD_GLOBAL_LIMIT: REST requests/s per token
    # METRICS_PORT (None: no server) and METRICS_HOST: Prometheus /metrics and /healthz.
    metrics_port: int | None = None
    metrics_host: str = DEFAULT_METRICS_HOST
    # Test-only switches (tests/e2e, bench/faults.py, bench/load.py); never set in production.
    fault_point: str | None = None  # PBP_FAULT_POINT: see bot/faults.py
    test_entropy_seed: str | None = None  # PBP_TEST_ENTROPY_SEED: deterministic seeds and salts

    @classmethod
    def from_env(cls, env_file: str | Path | None = ".env") -> Config:
        if env_file is not None and Path(env_file).exists():
            load_dotenv(env_file, override=False)
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError("config.error.dev_guild_id")
        shard_count, shard_ids = _shards(
            os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", "")
        )
        language = os.environ.get("LOCALE", "en").strip().lower() or "en"
        if language not in LANGUAGES:
            raise ConfigError("config.error.locale", value=language)
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_url=_database_url(os.environ.get("DATABASE_URL", "").strip()),
            dev_guild_id=int(guild) if guild else None,
            default_language=language,
            api_base=os.environ.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=os.environ.get("DISCORD_GATEWAY_URL", "").strip() or None,
            log_level=_log_level(os.environ.get("LOG_LEVEL", "").strip()),
            shard_count=shard_count,
            shard_ids=shard_ids,
            global_limit=_global_limit(os.environ.get("DISCORD_GLOBAL_LIMIT", "").strip()),
            metrics_port=_metrics_port(os.environ.get("METRICS_PORT", "").strip()),
            metrics_host=os.environ.get("METRICS_HOST", "").strip() or DEFAULT_METRICS_HOST,
            fault_point=os.environ.get("PBP_FAULT_POINT", "").strip() or None,
            test_entropy_seed=os.environ.get("PBP_TEST_ENTROPY_SEED", "").strip() or None,
        )
