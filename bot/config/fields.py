"""How a setting is declared and judged: :func:`setting` makes a declaration, and a bad
value is refused in one sentence naming the setting and what it takes (:func:`allowed`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from pydantic import Field
from pydantic.config import JsonDict
from pydantic.fields import FieldInfo


class _Refused(ValueError):
    """A validator's sentence about a bad value, passed on as it is."""


def setting(
    name: str,
    default: Any,
    doc: str,
    *,
    allowed: str | None = None,
    choices: tuple[str, ...] | None = None,
    synonyms: Mapping[str, str] | None = None,
    secret: bool = False,
    engine: bool = False,
    ge: int | None = None,
    gt: int | None = None,
    le: int | None = None,
) -> Any:
    """A setting's declaration: ``name`` (the variable), its default, one line of doc,
    and what is allowed: ``choices`` (case-insensitive; ``synonyms`` are older spellings),
    numeric ``limits`` (``ge``, ``gt``, ``le``) or, for the rest, an ``allowed`` phrase.
    A ``secret`` is never printed; an ``engine`` setting is read by the engine from the
    process environment, where :func:`load_settings` puts it."""
    extra: dict[str, Any] = {"secret": secret, "engine": engine}
    if choices is not None:
        extra["enum"] = list(choices)
        extra["synonyms"] = dict(synonyms or {})
    if allowed is not None:
        extra["allowed"] = allowed
    return Field(
        default,
        validation_alias=name,
        description=doc,
        repr=not secret,
        json_schema_extra=cast(JsonDict, extra),
        ge=ge,
        gt=gt,
        le=le,
    )


def _extra(field: FieldInfo) -> dict[str, Any]:
    return cast(dict[str, Any], field.json_schema_extra)


def _name(field: FieldInfo) -> str:
    return cast(str, field.validation_alias)


def _sqlite_file(raw: str, name: str) -> Path:
    path = Path(raw).expanduser()
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise _Refused(
            f"{name} is {raw!r}, but the directory {str(parent)!r} does not exist; "
            "create it or choose another path."
        )
    if path.is_dir():
        raise _Refused(f"{name} is {raw!r}, which is a directory; name a file instead.")
    return path


def allowed(field: FieldInfo) -> str:
    """What a setting takes, in words: its choices, its range, or its phrase."""
    extra = _extra(field)
    if "allowed" in extra:
        return cast(str, extra["allowed"])
    if "enum" in extra:
        return "one of " + ", ".join(extra["enum"])
    limits: dict[str, Any] = {}
    for item in field.metadata:
        for key in ("ge", "gt", "le"):
            if getattr(item, key, None) is not None:
                limits[key] = getattr(item, key)
    if "gt" in limits:
        return f"a number more than {limits['gt']} and at most {limits['le']}"
    return f"a whole number from {limits['ge']} to {limits['le']}"


def _sentence(field: FieldInfo, raw: Any) -> str:
    """``NAME must be <allowed>, not <raw>.``; a secret's value is left out."""
    if _extra(field)["secret"]:
        return f"{_name(field)} must be {allowed(field)}."
    return f"{_name(field)} must be {allowed(field)}, not {str(raw)!r}."
