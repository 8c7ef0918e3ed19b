"""The only reader of the environment (and of ``.env``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

DEFAULT_DATABASE_URL = "sqlite:///data/bot.sqlite3"


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Config:
    token: str | None
    database_url: str
    dev_guild_id: int | None
    default_language: str
    api_base: str | None
    gateway_url: str | None
    log_level: str
    # Test-only switches (tests/e2e, bench/faults.py, bench/load.py); never set in production.
    fault_point: str | None = None  # PBP_FAULT_POINT: see bot/faults.py
    test_entropy_seed: str | None = None  # PBP_TEST_ENTROPY_SEED: deterministic seeds and salts

    @classmethod
    def from_env(cls, env_file: str | Path | None = ".env") -> Config:
        if env_file is not None and Path(env_file).exists():
            load_dotenv(env_file, override=False)
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError("DEV_GUILD_ID must be a server id (digits only)")
        language = os.environ.get("LOCALE", "en").strip().lower() or "en"
        if language not in ("en", "ja"):
            raise ConfigError("LOCALE must be 'en' or 'ja'")
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_url=os.environ.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            dev_guild_id=int(guild) if guild else None,
            default_language=language,
            api_base=os.environ.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=os.environ.get("DISCORD_GATEWAY_URL", "").strip() or None,
            log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            fault_point=os.environ.get("PBP_FAULT_POINT", "").strip() or None,
            test_entropy_seed=os.environ.get("PBP_TEST_ENTROPY_SEED", "").strip() or None,
        )
