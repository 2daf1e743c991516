"""The table files: a byte per position where every distance fits, two otherwise, and the
materials a build covers."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

from engine.tables import HEADER, Tables, materials_up_to, read_header, table_path
from engine.tables.missing import DEFAULT_STONES, missing_work
from engine.variants import get_variant
from tests.engine.tables.positions import random_positions

SHAX = get_variant("shax")


def test_a_table_whose_distances_fit_takes_a_byte_a_position(tables_root: Path) -> None:
    path = table_path(tables_root, SHAX, 4, 4)
    info = read_header(path, "shax")
    assert info is not None and max(info.longest_win, info.longest_loss) < 128
    version = struct.unpack_from("<I", path.read_bytes(), 8)[0]
    assert version == 2
    assert info.size == HEADER.size + info.entries


def as_two_bytes(path: Path) -> None:
    """Rewrite a one-byte table as the two-byte files of earlier versions."""
    raw = bytearray(path.read_bytes())
    body = raw[HEADER.size :]
    wide = bytearray()
    for b in body:
        wide += struct.pack("<H", 0x8000 | (b & 0x7F) if b & 0x80 else b)
    raw[8:12] = struct.pack("<I", 1)
    path.write_bytes(bytes(raw[: HEADER.size]) + bytes(wide))


def test_a_two_byte_table_of_an_earlier_build_reads_the_same(
    tables_root: Path, tmp_path: Path, small_tables: dict[str, Tables]
) -> None:
    shutil.copytree(tables_root / "shax", tmp_path / "shax")
    as_two_bytes(table_path(tmp_path, SHAX, 4, 4))
    as_two_bytes(table_path(tmp_path, SHAX, 3, 4))
    old = Tables(SHAX, tmp_path)
    assert {(4, 4), (3, 4)} <= old.materials
    for position in random_positions("shax", 300, seed=41):
        assert old.probe(position) == small_tables["shax"].probe(position), position


def test_the_default_build_is_six_against_at_most_five() -> None:
    stones, total = DEFAULT_STONES["shax"]
    pairs = materials_up_to(SHAX, stones, total)
    assert (6, 5) in pairs and (6, 3) in pairs and (5, 5) in pairs
    assert (6, 6) not in pairs
    assert (6, 6) in materials_up_to(SHAX, 6)  # on request


def test_the_default_shax_tables_fit_in_300_mb(tmp_path: Path) -> None:
    work = {(w.variant, w.kind): w for w in missing_work(tmp_path)}
    assert work["shax", "tables"].bytes_needed < 300e6
