"""Reading the settings from the environment and ``.env`` (see :mod:`bot.config`)."""

from __future__ import annotations

import difflib
import logging
import os
from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

from dotenv import dotenv_values
from dotenv.parser import parse_stream
from pydantic import ValidationError
from pydantic_core import ErrorDetails
from pydantic_settings import EnvSettingsSource
from pydantic_settings.sources.utils import parse_env_vars

from bot.config.declared import PREFIXES, Settings
from bot.config.fields import _extra, _name, _Refused, _sentence

log = logging.getLogger("bot.config")


class ConfigError(Exception):
    """Missing or malformed settings: one sentence a line, safe to print."""


def _problem(error: ErrorDetails) -> str:
    """One sentence for one of pydantic's errors."""
    if error["type"] == "value_error" and isinstance(
        refused := error.get("ctx", {}).get("error"), _Refused
    ):
        return str(refused)
    by_name = {_name(f): f for f in Settings.model_fields.values()} | Settings.model_fields
    field = by_name.get(str(error["loc"][0])) if error["loc"] else None
    if field is None:  # not one of ours: pydantic's words are the best there are
        return error["msg"] + "."
    return _sentence(field, error["input"])


class _Variables(EnvSettingsSource):
    """The settings among ``NAME=value`` pairs (the environment, or a file's lines),
    matched to the declarations as pydantic-settings does; blank values are unset."""

    def __init__(self, variables: Mapping[str, str | None]) -> None:
        self.variables = {k: v.strip() for k, v in variables.items() if v is not None}
        super().__init__(Settings)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return parse_env_vars(self.variables, self.case_sensitive, ignore_empty=True)


def names() -> tuple[str, ...]:
    """Every setting's name, in the order of the declarations."""
    return tuple(_name(f) for f in Settings.model_fields.values())


def read_env_file(path: Path) -> tuple[dict[str, str | None], dict[str, int]]:
    """A settings file's values, and the line of each name; raises :class:`ConfigError`
    naming the file and the lines that are not ``NAME=value`` (never echoing them: one
    may hold the token)."""
    try:
        with path.open(encoding="utf-8") as stream:
            bindings = list(parse_stream(stream))
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
        raise ConfigError(f"The settings file {path} cannot be read: {reason}.") from None
    bad = [b.original.line for b in bindings if b.error]
    if bad:
        where = (
            f"Line {bad[0]} of {path} is"
            if len(bad) == 1
            else (f"Lines {', '.join(map(str, bad[:-1]))} and {bad[-1]} of {path} are")
        )
        raise ConfigError(
            f"{where} not NAME=value: write each setting as NAME=value (quote a value with "
            "spaces), and start a comment with #."
        )
    lines = {b.key: b.original.line for b in bindings if b.key is not None}
    return dict(dotenv_values(path, interpolate=True)), lines


def unknown_names(
    variables: Mapping[str, Any], where: str, lines: Mapping[str, int] | None = None
) -> list[str]:
    """A warning for each name that looks like a setting and is none, with the nearest
    real name. In the environment only ``SHAX_`` names count (``DISCORD_`` ones may be
    another program's); in a settings file both do."""
    known = names()
    prefixes = PREFIXES if lines is not None else ("SHAX_",)
    warnings = []
    for key in variables:
        name = key.upper()
        if not name.startswith(prefixes) or name in known:
            continue
        place = where if lines is None else f"{where}, line {lines.get(key, '?')}"
        near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        hint = f"did you mean {near[0]}?" if near else "the settings are listed in .env.example."
        warnings.append(f"{key} ({place}) is not a setting of this bot; {hint}")
    return warnings


def load_settings(
    env: Mapping[str, str] | None = None,
    dotenv_path: str | Path | None = ".env",
    warn: Callable[[str], None] = log.warning,
) -> Settings:
    """Read the settings from ``env`` (``None``: the process environment) over the file
    ``dotenv_path`` (ignored when there is none); raises :class:`ConfigError` with one
    sentence a bad value. Unknown ``SHAX_*`` names go to ``warn``.

    Reading the process environment, the engine's settings found in the file are put
    into it, for the engine here and in the worker processes started later."""
    environment = os.environ if env is None else env
    from_file: dict[str, str | None] = {}
    if dotenv_path is not None and Path(dotenv_path).is_file():
        path = Path(dotenv_path).absolute()
        from_file, lines = read_env_file(path)
        for warning in unknown_names(from_file, str(path), lines):
            warn(warning)
    for warning in unknown_names(environment, "in the environment"):
        warn(warning)
    values = _Variables(from_file)() | _Variables(environment)()
    try:
        settings = Settings(**values)
    except ValidationError as exc:
        raise ConfigError("\n".join(_problem(e) for e in exc.errors())) from None
    if env is None:
        export_engine_settings(settings, os.environ)
    return settings


def export_engine_settings(settings: Settings, environ: MutableMapping[str, str]) -> None:
    """Put the engine's settings into ``environ`` (the process environment), where the
    engine reads them; worker processes started afterwards inherit them."""
    for key, field in Settings.model_fields.items():
        value = getattr(settings, key)
        if _extra(field)["engine"] and value is not None:
            environ[_name(field)] = str(value)
