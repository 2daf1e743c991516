"""A table build stopped part way goes on from its checkpoint: the same tables, byte for
byte, with fewer levels solved after the restart."""

from __future__ import annotations

import collections
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from engine import tables
from engine.tables import HEADER, build, checkpoint_path, native, read_info, table_path
from engine.tables.lock import PARTIAL_SUFFIX
from engine.variants import get_variant

SMALL = get_variant("shax-small")
SYSTEM = "5v4+4v5"
"""A system of shax-small with some seventy levels (its smaller ones solve first)."""
STOP_AT = 20
"""The level after which the build is stopped."""


def levels_seen() -> tuple[dict[str, list[int]], tables.Progress]:
    """What a build reports, by system: 0 for each step of its first pass, then each level."""
    seen: dict[str, list[int]] = collections.defaultdict(list)

    def progress(name: str, level: int, done: int, total: int) -> None:
        seen[name].append(level)

    return seen, progress


def without_seconds(path: Path) -> bytes:
    """A table file without its build time (the one thing two builds write differently)."""
    raw = path.read_bytes()
    seconds_at = HEADER.size - 40 - 8
    return raw[:seconds_at] + raw[seconds_at + 8 :]


def stopping_at(level: int, handles: list[int]) -> tables.Progress:
    """A progress callback that raises the library's stop flag once the system's
    ``level`` is done, as Ctrl-C does."""

    def progress(name: str, at: int, done: int, total: int) -> None:
        if name == SYSTEM and at == level:
            native.library().tables_stop(handles[-1], 1)

    return progress


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stopped_table_build_resumes_from_its_checkpoint_and_writes_the_same_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threads: int
) -> None:
    whole = tmp_path / "whole"
    seen_whole, progress = levels_seen()
    build(SMALL, 5, whole, threads=1, progress=progress, max_total=9)
    assert max(seen_whole[SYSTEM]) > 2 * STOP_AT

    handles: list[int] = []
    real: Callable[..., int] = native.stoppable

    def stoppable(run: Callable[..., int], handle: int, *args: object) -> int:
        handles.append(handle)
        return real(run, handle, *args)

    monkeypatch.setattr(native, "stoppable", stoppable)
    parted = tmp_path / "parted"
    with pytest.raises(RuntimeError, match=re.escape(f"{SYSTEM} failed: stopped")):
        build(
            SMALL,
            5,
            parted,
            threads=threads,
            progress=stopping_at(STOP_AT, handles),
            max_total=9,
            checkpoint_seconds=0,
        )
    saved = checkpoint_path(parted, SMALL, 5, 4)
    assert saved.exists()
    assert not table_path(parted, SMALL, 5, 4).exists()
    assert not list(parted.rglob(f"*{PARTIAL_SUFFIX}"))
    assert {i.material for i in read_info(parted)} == {"3v3", "4v3", "3v4", "4v4", "5v3", "3v5"}

    seen_again, progress = levels_seen()
    build(SMALL, 5, parted, threads=3 - threads, progress=progress, max_total=9)
    again = seen_again[SYSTEM]
    assert 0 not in again, "the first pass was done again"
    assert again[0] == STOP_AT + 1
    assert len(again) < len(seen_whole[SYSTEM]) - STOP_AT
    assert not saved.exists()
    for due, other in ((5, 4), (4, 5)):
        assert without_seconds(table_path(parted, SMALL, due, other)) == without_seconds(
            table_path(whole, SMALL, due, other)
        )


def test_a_checkpoint_of_another_library_is_not_taken_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    handles: list[int] = []
    real: Callable[..., int] = native.stoppable

    def stoppable(run: Callable[..., int], handle: int, *args: object) -> int:
        handles.append(handle)
        return real(run, handle, *args)

    monkeypatch.setattr(native, "stoppable", stoppable)
    with pytest.raises(RuntimeError, match="stopped"):
        build(
            SMALL,
            5,
            tmp_path,
            threads=1,
            progress=stopping_at(STOP_AT, handles),
            max_total=9,
            checkpoint_seconds=0,
        )
    assert checkpoint_path(tmp_path, SMALL, 5, 4).exists()
    monkeypatch.setattr(native, "library_key", lambda: 12345)
    seen, progress = levels_seen()
    build(SMALL, 5, tmp_path, threads=1, progress=progress, max_total=9)
    assert seen[SYSTEM][0] == 0  # from its first pass
    assert not checkpoint_path(tmp_path, SMALL, 5, 4).exists()
