"""Game records: the actions from the start, separated by spaces (RULES.md, move notation)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.errors import RecordError, ShaxError
from engine.position import Action, Position
from engine.variants import Variant, get_variant


def split_record(record: str | Sequence[str]) -> list[str]:
    """The actions of a record given as text (``"d7 a7 …"``) or as a list."""
    if isinstance(record, str):
        return record.split()
    return [a for a in (s.strip() for s in record) if a]


def format_record(actions: Sequence[str | Action], variant: str | Variant | None = None) -> str:
    """A record as text; :class:`Action` values need the variant for point names."""
    v = get_variant(variant) if variant is not None else None
    out = []
    for a in actions:
        if isinstance(a, str):
            out.append(a.strip().lower())
        elif v is None:
            raise TypeError("format_record needs the variant to name Action values")
        else:
            out.append(a.notation(v))
    return " ".join(out)


def iter_positions(
    variant: str | Variant, record: str | Sequence[str]
) -> Iterator[tuple[Position, Action | None]]:
    """Each position of a record from the start, with the action that led to it.

    Yields the initial position first (with ``None``). Raises :class:`RecordError`
    at the first action that is malformed or illegal.
    """
    position = Position.initial(get_variant(variant))
    yield position, None
    for index, text in enumerate(split_record(record)):
        try:
            action = position.parse(text)
            position = position.apply(action)
        except ShaxError as exc:
            raise RecordError(index, text, exc) from exc
        yield position, action


def replay(variant: str | Variant, record: str | Sequence[str]) -> Position:
    """The position at the end of a record; raises :class:`RecordError`."""
    *_, (position, _) = iter_positions(variant, record)
    return position


def normalize_record(variant: str | Variant, record: str | Sequence[str]) -> list[str]:
    """The record's actions in canonical notation (lower case), checked by replaying it."""
    v = get_variant(variant)
    return [a.notation(v) for _, a in iter_positions(v, record) if a is not None]
