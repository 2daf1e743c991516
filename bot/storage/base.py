"""The storage's errors and the names of databases: which engine a target names, and a
URL as it may be printed (without any secret)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from bot.storage.rows import CHALLENGE_ENDINGS, ChallengeStatus
from bot.storage.tables import TABLES

SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SECRET_PARAMETERS = frozenset({"password", "sslpassword"})
"""The parts of a PostgreSQL URL's query that hold a secret (libpq's names)."""
HIDDEN = "***"


class StorageError(Exception):
    """The database cannot be used (a newer schema, a broken or read-only file, a server
    that does not answer, another application's tables); the message is one sentence
    naming it and what to do."""


class ChannelTaken(Exception):
    """A game is already active in the channel (the one-active-game-per-channel index)."""


class ChallengeTaken(Exception):
    """An open challenge already stands between the same two players in the channel, or
    for the same rematch (the challenges' unique indexes)."""


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str | Path) -> Path:
    """The file of a SQLite target: a path, or ``sqlite:///path`` (``sqlite:////abs``)."""
    if isinstance(target, str) and target.lower().startswith(SQLITE_PREFIX):
        return Path(target[len(SQLITE_PREFIX) :]).expanduser()
    return Path(target)


def secrets(url: str) -> list[str]:
    """The secrets a database URL holds: its password, wherever it is written."""
    parts = urlsplit(url)
    found = [] if parts.password is None else [parts.password, unquote(parts.password)]
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key.lower() in SECRET_PARAMETERS and value:
            found.append(value)
    return [s for s in dict.fromkeys(found) if s]


def redacted(url: str) -> str:
    """A database URL without its secrets, safe to print: the password in the user part is
    left out, one in the query (``?password=…``, ``sslpassword``) shown as ``***``."""
    parts = urlsplit(url)
    if parts.password is not None:
        user, host = parts.netloc.rsplit("@", 1)
        parts = parts._replace(netloc=f"{user.split(':', 1)[0]}@{host}")
    query = parse_qsl(parts.query, keep_blank_values=True)
    if any(key.lower() in SECRET_PARAMETERS for key, _ in query):
        hidden = [(k, HIDDEN if k.lower() in SECRET_PARAMETERS else v) for k, v in query]
        parts = parts._replace(query=urlencode(hidden, safe="*/:"))
    return urlunsplit(parts)


def scrubbed(message: str, url: str) -> str:
    """``message`` (a driver's error, say) with every secret of ``url`` hidden."""
    for secret in sorted(secrets(url), key=len, reverse=True):
        message = message.replace(secret, HIDDEN)
    return message


def resolution(status: ChallengeStatus | str) -> ChallengeStatus:
    """The status a challenge is closed with; ``ValueError`` for any other."""
    checked = ChallengeStatus(status)
    if checked not in CHALLENGE_ENDINGS:
        allowed = ", ".join(sorted(CHALLENGE_ENDINGS))
        raise ValueError(f"a challenge is closed as one of {allowed}, not {status!r}")
    return checked


def check_table(table: str) -> str:
    """A table name from the schema's list (names are never taken from input)."""
    if table not in TABLES:
        raise ValueError(f"unknown table {table!r}; the tables are {', '.join(TABLES)}")
    return table
