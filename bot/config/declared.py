"""Every setting of the bot, declared once (see :mod:`bot.config`)."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any

from pydantic import ValidationInfo, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from bot.config.fields import _extra, _name, _Refused, _sentence, _sqlite_file, setting
from engine.ai import BACKEND_ENV, BACKENDS
from engine.tables import TABLES_ENV
from shax_i18n import LANGUAGES

DEFAULT_API_BASE_URL = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg"
PREFIXES = ("SHAX_", "DISCORD_")
"""Names of this bot's settings start so; an unknown one of them is likely a misspelling."""
# A bot token is three dot-separated base64url parts; checking the alphabet and
# length catches pasted quotes, spaces and "Bot " prefixes without echoing anything.
_TOKEN_RE = re.compile(r"[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+")
_DAY = 86_400


class Settings(BaseSettings):
    """Everything the bot reads from its environment (``.env.example`` lists it).

    ``Settings(...)`` holds the values given (by field name) and the defaults;
    :func:`load_settings` reads the environment and ``.env``."""

    model_config = SettingsConfigDict(
        frozen=True, validate_by_name=True, validate_by_alias=True, extra="ignore"
    )

    discord_token: str | None = setting(
        "DISCORD_TOKEN",
        None,
        "The bot's token (Discord Developer Portal → your application → Bot → Reset Token); "
        "without one, `python -m bot` starts the local console, which needs none.",
        allowed="the bot token from the Discord Developer Portal",
        secret=True,
    )
    db_path: Path = setting(
        "SHAX_DB_PATH",
        Path("./shax.db"),
        "The SQLite database file, created on first start (its directory must exist); "
        "the console (`python -m bot local`) always uses this file.",
        allowed="a file in a directory that exists",
    )
    database_url: str | None = setting(
        "SHAX_DATABASE_URL",
        None,
        "The bot's database when it is not SHAX_DB_PATH: a PostgreSQL server, for several "
        "bot processes sharing one database (postgresql://user:password@host:5432/database), "
        "or a SQLite file (sqlite:///relative/path.db, sqlite:////absolute/path.db); "
        "`python -m bot migrate --to postgresql://…` copies the SQLite file over.",
        allowed="postgresql://user:password@host/database (a PostgreSQL server) "
        "or sqlite:///path (a file)",
        secret=True,
    )
    backup_dir: Path | None = setting(
        "SHAX_BACKUP_DIR",
        None,
        "A folder where the running bot puts a daily backup of its SQLite file "
        "(empty: none; any time: `python -m bot backup PATH`).",
        allowed="a folder, or a new one in a folder that exists",
    )
    backup_keep: int = setting(
        "SHAX_BACKUP_KEEP", 7, "How many daily backups are kept.", ge=1, le=10_000
    )
    dev_guild_id: int | None = setting(
        "SHAX_DEV_GUILD_ID",
        None,
        "While developing: a server id where the slash commands are registered (at once).",
        allowed="a Discord server id (a number)",
        ge=1,
        le=2**63 - 1,
    )
    sync_commands: str = setting(
        "SHAX_SYNC_COMMANDS",
        "auto",
        "When to register the slash commands with Discord: auto, on the first start and "
        "again only when an upgrade changed them (a stored hash; while SHAX_DEV_GUILD_ID is "
        "set, on that server only); always, at every start; never, only with "
        "`python -m bot sync`.",
        choices=("auto", "always", "never"),
        synonyms={word: "always" for word in ("true", "yes", "on", "1")}
        | {word: "never" for word in ("false", "no", "off", "0")},
    )
    api_base_url: str = setting(
        "DISCORD_API_BASE_URL",
        DEFAULT_API_BASE_URL,
        "Discord's REST API; change it only to run against a Discord-compatible server "
        "(such as the test suite's fake).",
        allowed="a URL starting with http:// or https://",
    )
    gateway_url: str = setting(
        "DISCORD_GATEWAY_URL",
        DEFAULT_GATEWAY_URL,
        "Discord's gateway; change it only to run against a Discord-compatible server.",
        allowed="a URL starting with ws:// or wss://",
    )
    challenge_expiry_seconds: int = setting(
        "SHAX_CHALLENGE_EXPIRY_SECONDS",
        600,
        "How long a challenge waits for an answer, in seconds (a server can choose its own "
        "with /shax settings).",
        ge=1,
        le=7 * _DAY,
    )
    turn_timeout_seconds: int = setting(
        "SHAX_TURN_TIMEOUT_SECONDS",
        _DAY,
        "How long a player may take for a turn, in seconds: a warning comes an hour before "
        "(at half time, for short timeouts), then the player forfeits; the bot never times "
        "out (a server can choose its own with /shax settings).",
        ge=1,
        le=30 * _DAY,
    )
    tick_seconds: float = setting(
        "SHAX_TICK_SECONDS",
        30.0,
        "How often, in seconds, the bot looks for expired challenges and turns.",
        gt=0,
        le=3600,
    )
    ai_workers: int = setting(
        "SHAX_AI_WORKERS",
        2,
        "Worker processes computing the bot's moves, per bot process: with P processes on "
        'a machine of C cores, about C / P - 1 each (see "Scaling out" in the README).',
        ge=1,
        le=64,
    )
    picture_workers: int = setting(
        "SHAX_PICTURE_WORKERS",
        2,
        "Worker processes drawing the board pictures (about 6 ms of CPU a move), per bot process.",
        ge=1,
        le=64,
    )
    replay_workers: int = setting(
        "SHAX_REPLAY_WORKERS",
        1,
        "Worker processes drawing the replays of finished games (0.3-0.6 s each), per bot process.",
        ge=1,
        le=64,
    )
    game_threads: str = setting(
        "SHAX_GAME_THREADS",
        "busy",
        "Where a new game goes: busy, in a thread of its own when the channel already has a "
        "game; always, every game in a thread; never, a busy channel refuses new games.",
        choices=("busy", "always", "never"),
    )
    puzzle_hour: int = setting(
        "SHAX_PUZZLE_HOUR",
        9,
        "The hour (UTC, 0 to 23) at which a server's puzzle of the day is posted, for servers "
        "that chose a channel for it but no hour (/shax settings puzzle-channel:).",
        ge=0,
        le=23,
    )
    language: str = setting(
        "SHAX_LANGUAGE",
        "en",
        "The server's language, "
        + ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
        + ": a game's messages speak it unless both players chose another; each player "
        "chooses their own with /shax language for what they ask (else their Discord app's, "
        "if it is one of these).",
        choices=tuple(LANGUAGES),
    )
    shards: int | None = setting(
        "SHAX_SHARDS",
        None,
        "The number of shards; when set, the bot runs as an AutoShardedBot (empty: one "
        "connection).",
        ge=1,
        le=10_000,
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = setting(
        "SHAX_SHARD_IDS",
        None,
        "With several processes sharing one database: the shards this process runs, such as "
        "0,1 (every process has the same SHAX_SHARDS; the others run the rest); each process "
        "keeps the clock of its own servers, and the one with shard 0 also gets direct "
        "messages.",
        allowed="shard numbers separated by commas, such as 0,1",
    )
    log_level: str = setting(
        "SHAX_LOG_LEVEL",
        "INFO",
        "How much the bot logs.",
        choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"),
    )
    tables_dir: Path | None = setting(
        TABLES_ENV,
        None,
        "Where the AI finds the endgame tables (empty: the user's cache folder, "
        "~/.cache/shax/tables); `python -m engine.tables build --dir DIR` builds there what "
        "the bot builds at its start (`python -m engine.tables missing --dir DIR` lists it).",
        allowed="a folder, or a new one in a folder that exists",
        engine=True,
    )
    ai_backend: str | None = setting(
        BACKEND_ENV,
        None,
        "The AI's search: c, the compiled core, or python, the same search in pure Python "
        "(weaker in the same time); empty: the compiled core when it loads or builds, "
        "else Python.",
        choices=BACKENDS,
        engine=True,
    )
    build_tables: str = setting(
        "SHAX_BUILD_TABLES",
        "on",
        "At start, build the endgame tables master lacks, in the background at the lowest "
        "priority (once: about 5 minutes of processor time, measured; the full-board values "
        "ship with the package, and are searched only when they are stale, shax's in about "
        "80 minutes more; master plays better as each file lands, and the log says how far "
        "it is): on, small (jar and shax-small only, seconds) or off.",
        choices=("on", "small", "off"),
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only the values given: :func:`load_settings` reads the environment and the
        file, so that a test's settings never pick up the machine's."""
        return (init_settings,)

    # -- validation: each check is one sentence naming the setting ---------------------

    @field_validator("*", mode="before")
    @classmethod
    def _chosen(cls, value: Any, info: ValidationInfo) -> Any:
        """Trim text; a setting with choices takes one of them, in any case."""
        if not isinstance(value, str):
            return value
        value = value.strip()
        field = cls.model_fields[str(info.field_name)]
        extra = _extra(field)
        if "enum" not in extra:
            return value
        word = extra["synonyms"].get(value.lower(), value)
        for choice in extra["enum"]:
            if choice.lower() == word.lower():
                return choice
        raise _Refused(_sentence(field, value))

    @field_validator("discord_token")
    @classmethod
    def _token(cls, raw: str | None) -> str | None:
        if raw is None:
            return None
        if raw.lower().startswith("bot "):
            raise _Refused(
                "DISCORD_TOKEN should be the bare token from the Developer Portal, "
                'without the "Bot " prefix.'
            )
        if not _TOKEN_RE.fullmatch(raw):
            raise _Refused(
                "DISCORD_TOKEN is malformed: paste the bot token from the Discord Developer "
                "Portal (Bot → Reset Token) without quotes or spaces."
            )
        return raw

    @model_validator(mode="before")
    @classmethod
    def _sqlite_url_names_the_file(cls, data: Any) -> Any:
        """``SHAX_DATABASE_URL=sqlite:///path`` is the SQLite file, in place of
        ``SHAX_DB_PATH``."""
        if not isinstance(data, dict):
            return data
        keys = ("SHAX_DATABASE_URL", "database_url")
        url = next((data[k] for k in keys if isinstance(data.get(k), str)), "").strip()
        if not url.lower().startswith("sqlite:///") or len(url) == len("sqlite:///"):
            return data
        rest = {k: v for k, v in data.items() if k not in (*keys, "SHAX_DB_PATH", "db_path")}
        return rest | {"db_path": _sqlite_file(url[len("sqlite:///") :], "SHAX_DATABASE_URL")}

    @field_validator("database_url")
    @classmethod
    def _postgresql(cls, raw: str | None) -> str | None:
        if raw is None:
            return None
        scheme = raw.split("://", 1)[0].lower()
        if scheme in ("postgresql", "postgres") and len(raw) > len(scheme) + 3:
            return raw
        # The scheme only: the rest may hold a password.
        raise _Refused(
            f"SHAX_DATABASE_URL must be {_extra(cls.model_fields['database_url'])['allowed']}, "
            f"not a URL starting with {scheme[:20]!r}."
        )

    @field_validator("db_path")
    @classmethod
    def _db_file(cls, path: Path) -> Path:
        return _sqlite_file(str(path), "SHAX_DB_PATH")

    @field_validator("backup_dir", "tables_dir")
    @classmethod
    def _folder(cls, raw: Path | None, info: ValidationInfo) -> Path | None:
        if raw is None:
            return None
        name = _name(cls.model_fields[str(info.field_name)])
        path = raw.expanduser()
        if path.exists() and not path.is_dir():
            raise _Refused(f"{name} is {str(raw)!r}, which is a file; name a folder.")
        if not path.exists() and not path.parent.is_dir():
            raise _Refused(
                f"{name} is {str(raw)!r}, but {str(path.parent)!r} does not exist; "
                "create it or choose another folder."
            )
        return path

    @field_validator("api_base_url", "gateway_url")
    @classmethod
    def _url(cls, raw: str, info: ValidationInfo) -> str:
        field = cls.model_fields[str(info.field_name)]
        schemes = tuple(re.findall(r"\w+://", _extra(field)["allowed"]))
        if not raw.lower().startswith(schemes) or len(raw) <= len(raw.split("//")[0]) + 2:
            raise _Refused(_sentence(field, raw))
        return raw.rstrip("/")

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, raw: Any) -> Any:
        if not isinstance(raw, str):
            return raw
        try:
            ids = {int(part) for part in raw.split(",") if part.strip()}
        except ValueError:
            raise _Refused(_sentence(cls.model_fields["shard_ids"], raw)) from None
        return tuple(sorted(ids)) or None

    @model_validator(mode="after")
    def _shards_named(self) -> Settings:
        if self.shard_ids is None:
            return self
        listed = ",".join(map(str, self.shard_ids))
        if self.shards is None:
            raise _Refused("SHAX_SHARD_IDS needs SHAX_SHARDS (the total number of shards).")
        if self.shard_ids[0] < 0 or self.shard_ids[-1] >= self.shards:
            raise _Refused(
                f"SHAX_SHARD_IDS must name shards from 0 to {self.shards - 1}, not {listed!r}."
            )
        return self

    # -- what the rest of the bot asks --------------------------------------------------

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

    @property
    def challenge_expiry(self) -> timedelta:
        return timedelta(seconds=self.challenge_expiry_seconds)

    @property
    def turn_timeout(self) -> timedelta:
        return timedelta(seconds=self.turn_timeout_seconds)


DEFAULTS = Settings()
"""Every setting at its default (the defaults of the service's own parameters)."""
