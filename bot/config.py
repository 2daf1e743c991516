"""Settings from the environment and ``.env``; a bad one stops start-up with one clear sentence.

``load_settings`` never puts the token in a message, a repr or a log line.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from shax_i18n import LANGUAGES

DEFAULT_API_BASE_URL = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg"
DEFAULT_DB_PATH = "./shax.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
GAME_THREADS = ("busy", "always", "never")
SYNC_MODES = ("auto", "always", "never")
BUILD_TABLES = ("on", "small", "off")
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
# A bot token is three dot-separated base64url parts; checking the alphabet and
# length catches pasted quotes, spaces and "Bot " prefixes without echoing anything.
_TOKEN_RE = re.compile(r"[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+")


class ConfigError(Exception):
    """A missing or malformed setting; the message is one sentence, safe to print."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment (see ``.env.example``)."""

    discord_token: str | None = field(default=None, repr=False)
    db_path: Path = Path(DEFAULT_DB_PATH)
    """The SQLite file: the bot's database unless ``database_url`` is set; the console's."""
    database_url: str | None = field(default=None, repr=False)
    """A PostgreSQL server's URL (``SHAX_DATABASE_URL``); never printed, it may hold a
    password."""
    backup_dir: Path | None = None
    """Where the bot puts a daily backup of its SQLite file (``SHAX_BACKUP_DIR``)."""
    backup_keep: int = 7
    """How many daily backups are kept (``SHAX_BACKUP_KEEP``)."""
    dev_guild_id: int | None = None
    api_base_url: str = DEFAULT_API_BASE_URL
    gateway_url: str = DEFAULT_GATEWAY_URL
    challenge_expiry_seconds: int = 600
    turn_timeout_seconds: int = 86_400
    tick_seconds: float = 30.0
    """How often the clock looks for expired challenges and turns (``SHAX_TICK_SECONDS``)."""
    ai_workers: int = 2
    picture_workers: int = 2
    """Processes drawing board pictures (``SHAX_PICTURE_WORKERS``)."""
    replay_workers: int = 1
    """Processes drawing the replays of finished games (``SHAX_REPLAY_WORKERS``)."""
    shards: int | None = None
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``SHAX_SHARD_IDS``); ``None``: all of them."""
    sync_commands: str = "auto"
    """When to register the slash commands globally: ``auto`` — when they changed since
    the last start (a stored hash; never while a development server is set), ``always``
    — at every start, ``never``."""
    log_level: str = "INFO"
    game_threads: str = "busy"
    """Where new games go: ``busy`` — in a thread of their own when the channel already
    has a game; ``always`` — always in a thread; ``never`` — refuse in a busy channel."""
    language: str = "en"
    """The server's language (``SHAX_LANGUAGE``): public messages, and replies to players
    who chose none and whose Discord app is in no language of ours."""
    build_tables: str = "on"
    """At start, build the endgame tables and full-board values master lacks, in the
    background at the lowest priority (``SHAX_BUILD_TABLES``): ``on``, ``small`` (jar and
    shax-small only) or ``off``."""

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of a server (DMs belong to shard 0): the
        clock of a game runs in exactly one process."""
        if self.shards is None or self.shard_ids is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shards
        return shard in self.shard_ids

    @property
    def database(self) -> str | Path:
        """What the bot opens: the PostgreSQL URL if there is one, else the SQLite file."""
        return self.database_url or self.db_path

    @property
    def has_token(self) -> bool:
        return bool(self.discord_token)

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]


def load_settings(
    env: Mapping[str, str] | None = None, dotenv_path: str | Path | None = ".env"
) -> Settings:
    """Read the settings. With ``env=None`` the process environment is read, over the
    values of ``dotenv_path`` (the environment wins); raises :class:`ConfigError`."""
    values: dict[str, str] = {}
    if dotenv_path is not None and Path(dotenv_path).is_file():
        values.update({k: v for k, v in dotenv_values(dotenv_path).items() if v is not None})
    values.update(os.environ if env is None else env)
    # An empty value means "not set", as in most .env files.
    values = {k: v.strip() for k, v in values.items() if v is not None and v.strip()}
    database_url, db_path = _database(values)
    return Settings(
        discord_token=_token(values.get("DISCORD_TOKEN")),
        db_path=db_path,
        database_url=database_url,
        backup_dir=_backup_dir(values.get("SHAX_BACKUP_DIR")),
        backup_keep=_positive_int("SHAX_BACKUP_KEEP", values.get("SHAX_BACKUP_KEEP"), 7, 10_000),
        dev_guild_id=_snowflake("SHAX_DEV_GUILD_ID", values.get("SHAX_DEV_GUILD_ID")),
        api_base_url=_url(
            "DISCORD_API_BASE_URL",
            values.get("DISCORD_API_BASE_URL", DEFAULT_API_BASE_URL),
            ("http://", "https://"),
        ),
        gateway_url=_url(
            "DISCORD_GATEWAY_URL",
            values.get("DISCORD_GATEWAY_URL", DEFAULT_GATEWAY_URL),
            ("ws://", "wss://"),
        ),
        challenge_expiry_seconds=_positive_int(
            "SHAX_CHALLENGE_EXPIRY_SECONDS", values.get("SHAX_CHALLENGE_EXPIRY_SECONDS"), 600
        ),
        turn_timeout_seconds=_positive_int(
            "SHAX_TURN_TIMEOUT_SECONDS", values.get("SHAX_TURN_TIMEOUT_SECONDS"), 86_400
        ),
        tick_seconds=_positive_seconds("SHAX_TICK_SECONDS", values.get("SHAX_TICK_SECONDS"), 30.0),
        ai_workers=_positive_int("SHAX_AI_WORKERS", values.get("SHAX_AI_WORKERS"), 2, high=64),
        picture_workers=_positive_int(
            "SHAX_PICTURE_WORKERS", values.get("SHAX_PICTURE_WORKERS"), 2, high=64
        ),
        replay_workers=_positive_int(
            "SHAX_REPLAY_WORKERS", values.get("SHAX_REPLAY_WORKERS"), 1, high=64
        ),
        shards=(shards := _optional_positive_int("SHAX_SHARDS", values.get("SHAX_SHARDS"))),
        shard_ids=_shard_ids(values.get("SHAX_SHARD_IDS"), shards),
        sync_commands=_sync_mode(values.get("SHAX_SYNC_COMMANDS")),
        game_threads=_choice(
            "SHAX_GAME_THREADS", values.get("SHAX_GAME_THREADS"), GAME_THREADS, "busy"
        ),
        log_level=_log_level(values.get("SHAX_LOG_LEVEL", "INFO")),
        language=_choice("SHAX_LANGUAGE", values.get("SHAX_LANGUAGE"), tuple(LANGUAGES), "en"),
        build_tables=_choice(
            "SHAX_BUILD_TABLES", values.get("SHAX_BUILD_TABLES"), BUILD_TABLES, "on"
        ),
    )


def _token(raw: str | None) -> str | None:
    if raw is None:
        return None
    if raw.lower().startswith("bot "):
        raise ConfigError(
            "DISCORD_TOKEN should be the bare token from the Developer Portal, "
            'without the "Bot " prefix.'
        )
    if not _TOKEN_RE.fullmatch(raw):
        raise ConfigError(
            "DISCORD_TOKEN is malformed: paste the bot token from the Discord Developer Portal "
            "(Bot → Reset Token) without quotes or spaces."
        )
    return raw


def _database(values: Mapping[str, str]) -> tuple[str | None, Path]:
    """``SHAX_DATABASE_URL`` (a PostgreSQL URL, or ``sqlite:///path``) and the SQLite file
    (the URL's, else ``SHAX_DB_PATH``). The URL is never echoed: it may hold a password."""
    db_path = values.get("SHAX_DB_PATH", DEFAULT_DB_PATH)
    raw = values.get("SHAX_DATABASE_URL")
    if raw is None:
        return None, _db_path(db_path)
    scheme = raw.split("://", 1)[0].lower()
    if scheme in ("postgresql", "postgres") and len(raw) > len(scheme) + 3:
        return raw, _db_path(db_path)
    if raw.lower().startswith("sqlite:///") and len(raw) > len("sqlite:///"):
        return None, _db_path(raw[len("sqlite:///") :], "SHAX_DATABASE_URL")
    raise ConfigError(
        "SHAX_DATABASE_URL must be postgresql://user:password@host/database (a PostgreSQL "
        f"server) or sqlite:///path (a file), not a URL starting with {scheme[:20]!r}."
    )


def _backup_dir(raw: str | None) -> Path | None:
    if raw is None:
        return None
    path = Path(raw).expanduser()
    if path.exists() and not path.is_dir():
        raise ConfigError(f"SHAX_BACKUP_DIR is {raw!r}, which is a file; name a folder instead.")
    if not path.exists() and not path.parent.is_dir():
        raise ConfigError(
            f"SHAX_BACKUP_DIR is {raw!r}, but {str(path.parent)!r} does not exist; "
            "create it or choose another folder."
        )
    return path


def _db_path(raw: str, name: str = "SHAX_DB_PATH") -> Path:
    path = Path(raw).expanduser()
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ConfigError(
            f"{name} is {raw!r}, but the directory {str(parent)!r} does not exist; "
            "create it or choose another path."
        )
    if path.is_dir():
        raise ConfigError(f"{name} is {raw!r}, which is a directory; name a file instead.")
    return path


def _snowflake(name: str, raw: str | None) -> int | None:
    if raw is None:
        return None
    if not raw.isdigit() or int(raw) <= 0:
        raise ConfigError(f"{name} must be a Discord server id (a number), not {raw!r}.")
    return int(raw)


def _url(name: str, raw: str, schemes: tuple[str, ...]) -> str:
    if not raw.lower().startswith(schemes) or len(raw) <= len(raw.split("//")[0]) + 2:
        allowed = " or ".join(schemes)
        raise ConfigError(f"{name} must be a URL starting with {allowed}, not {raw!r}.")
    return raw.rstrip("/")


def _positive_int(name: str, raw: str | None, default: int, high: int | None = None) -> int:
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}.") from None
    if value <= 0 or (high is not None and value > high):
        bound = f"between 1 and {high}" if high is not None else "greater than 0"
        raise ConfigError(f"{name} must be {bound}, not {value}.")
    return value


def _positive_seconds(name: str, raw: str | None, default: float) -> float:
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(
            f"{name} must be a number of seconds, such as 30 or 0.5, not {raw!r}."
        ) from None
    if not 0 < value <= 3600:
        raise ConfigError(f"{name} must be more than 0 and at most 3600 seconds, not {raw}.")
    return value


def _optional_positive_int(name: str, raw: str | None) -> int | None:
    return None if raw is None else _positive_int(name, raw, 1)


def _bool(name: str, raw: str | None, default: bool) -> bool:
    if raw is None:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ConfigError(f"{name} must be true or false (1/0, yes/no, on/off), not {raw!r}.")


def _sync_mode(raw: str | None) -> str:
    """``auto``/``always``/``never``; true and false (the older spelling) mean always, never."""
    if raw is None or not raw.strip():
        return "auto"
    value = raw.strip().lower()
    if value in SYNC_MODES:
        return value
    if value in _TRUE or value in _FALSE:
        return "always" if value in _TRUE else "never"
    raise ConfigError(f"SHAX_SYNC_COMMANDS must be one of auto, always, never, not {raw!r}.")


def _log_level(raw: str) -> str:
    level = raw.upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"SHAX_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw!r}.")
    return level


def _choice(name: str, raw: str | None, choices: tuple[str, ...], default: str) -> str:
    if raw is None:
        return default
    value = raw.strip().lower()
    if value not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, not {raw!r}.")
    return value


def _shard_ids(raw: str | None, shards: int | None) -> tuple[int, ...] | None:
    if raw is None or not raw.strip():
        return None
    if shards is None:
        raise ConfigError("SHAX_SHARD_IDS needs SHAX_SHARDS (the total number of shards).")
    try:
        ids = tuple(sorted({int(part) for part in raw.split(",") if part.strip()}))
    except ValueError:
        raise ConfigError(
            f"SHAX_SHARD_IDS must be shard numbers separated by commas, such as 0,1 — not {raw!r}."
        ) from None
    if not ids or ids[0] < 0 or ids[-1] >= shards:
        raise ConfigError(f"SHAX_SHARD_IDS must name shards from 0 to {shards - 1}, not {raw!r}.")
    return ids
