"""``.env.example``, written from the declarations: ``python3 -m bot.config > .env.example``."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from bot.config.declared import Settings
from bot.config.fields import _name, allowed

EXAMPLE_HEADER = """\
# Shax bot settings. Copy this file to .env and fill in DISCORD_TOKEN.
# The environment overrides this file; an empty value means the default.
# Every setting the bot reads is here (python3 -m bot.config writes this file).
"""


def _shown(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, Path):
        return value.as_posix() if value.is_absolute() else f"./{value.as_posix()}"
    return str(value)


def env_example() -> str:
    """``.env.example``: each setting's doc, what it takes, and its default."""
    parts = [EXAMPLE_HEADER]
    for field in Settings.model_fields.values():
        doc = f"{field.description} Allowed: {allowed(field)}."
        lines = textwrap.wrap(doc, width=86, break_on_hyphens=False)
        comment = "".join(f"# {line}\n" for line in lines)
        parts.append(f"\n{comment}{_name(field)}={_shown(field.default)}\n")
    return "".join(parts)
