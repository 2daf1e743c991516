"""The C core and the Python side write down the same constants: read from ``_core.c``.

Sizes, scores, the codes of phases, steps, kinds, outcomes, terminations and table
entries, the evaluation's feature names, the ctypes mirrors of the C structs, and the
compiler flags (one place for ``setup.py`` and the core's own build).
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pytest

from engine import build_flags
from engine import position as rules
from engine.ai import common, core, python_board, python_search
from engine.position import Kind, Phase, Step
from engine.verdicts import Termination

SOURCE = core.SOURCE.read_text()
ROOT = Path(__file__).resolve().parents[3]


def defines() -> dict[str, int]:
    """Every ``#define NAME <integer>`` of the C source."""
    return {m[1]: int(m[2]) for m in re.finditer(r"^#define (\w+) (-?\d+)\s*$", SOURCE, re.M)}


def enums() -> dict[str, int]:
    """Every enumerator of the C source's enums, with its value."""
    values: dict[str, int] = {}
    for body in re.findall(r"\benum\s*\{([^}]*)\}", SOURCE):
        body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
        nxt = 0
        for item in filter(None, (part.strip() for part in body.split(","))):
            name, _, value = (x.strip() for x in item.partition("="))
            nxt = int(value) if value else nxt
            values[name] = nxt
            nxt += 1
    return values


def c_struct(name: str) -> list[tuple[str, str, str]]:
    """(C type, field, array suffix) of each field of ``typedef struct {...} name;`` (a
    pointer's type is ``void *``)."""
    match = re.search(r"typedef struct \{([^}]*)\} " + name + ";", SOURCE)
    assert match, name
    body = re.sub(r"/\*.*?\*/", "", match[1], flags=re.S)
    fields = []
    for decl in filter(None, (d.strip() for d in body.split(";"))):
        ctype, _, names = re.sub(r"^const\s+", "", decl).partition(" ")
        for field in names.split(","):
            m = re.fullmatch(r"(\*?)(\w+)((?:\[\w+\])*)", field.strip())
            assert m, decl
            fields.append(("void *" if m[1] else ctype, m[2], m[3]))
    return fields


C_TYPES = {
    "int8_t": ctypes.c_int8,
    "int16_t": ctypes.c_int16,
    "int32_t": ctypes.c_int32,
    "int64_t": ctypes.c_int64,
    "uint32_t": ctypes.c_uint32,
    "uint64_t": ctypes.c_uint64,
    "void *": ctypes.c_void_p,
}


def test_sizes_and_scores_agree() -> None:
    c = defines()
    assert c["CORE_ABI"] == core.CORE_ABI
    for name in (
        "MAXP",
        "MAXLINES",
        "MAXTHROUGH",
        "MAXMOVES",
        "MATE",
        "MATE_BOUND",
        "INF",
        "NW",
        "FSCALE",
        "MAXPLY",
        "KEYSTACK",
        "RFP_MARGIN",
        "RFP_DEPTH",
        "IIR_DEPTH",
        "LMP_DEPTH",
    ):
        assert c[name] == getattr(common, name), name
    assert c["MOVE_LIMIT"] == rules.MOVE_LIMIT
    assert c["REPETITIONS"] == rules.REPETITIONS


def test_codes_agree() -> None:
    e = enums()
    assert [e[n] for n in ("PLACEMENT", "REMOVAL", "MOVEMENT")] == [
        common.PHASE_CODE[p] for p in (Phase.PLACEMENT, Phase.REMOVAL, Phase.MOVEMENT)
    ]
    assert [e[n] for n in ("S_PLACE", "S_REMOVE", "S_MOVE", "S_FREE")] == [
        common.STEP_CODE[s] for s in (Step.PLACE, Step.REMOVE, Step.MOVE, Step.FREE)
    ]
    assert [e[n] for n in ("K_PLACE", "K_MOVE", "K_REMOVE")] == [
        Kind.PLACE,
        Kind.MOVE,
        Kind.REMOVE,
    ]
    assert [e[n] for n in ("O_NONE", "O_WHITE", "O_BLACK", "O_DRAW")] == [
        common.OUTCOME_NONE,
        common.OUTCOME_WHITE,
        common.OUTCOME_BLACK,
        common.OUTCOME_DRAW,
    ]
    terminations = {
        "T_NONE": None,
        "T_TWO": Termination.TWO_PIECES,
        "T_THREE": Termination.THREE_IN_A_ROW,
        "T_MUTUAL": Termination.MUTUAL_BLOCKADE,
        "T_REP": Termination.THREEFOLD_REPETITION,
        "T_LIMIT": Termination.MOVE_LIMIT,
    }
    for name, termination in terminations.items():
        assert common.TERMINATIONS[e[name]] == termination, name
    assert len(common.TERMINATIONS) == len(terminations)
    assert (e["F_SHAX"], e["F_JAR"]) == (common.FAMILY_SHAX, common.FAMILY_JAR)


@pytest.mark.parametrize(
    "name",
    ["PLACEMENT", "MOVEMENT", "S_FREE", "K_REMOVE", "T_REP", "T_LIMIT", "TT_EXACT", "TT_UPPER"],
)
def test_the_python_search_uses_the_same_codes(name: str) -> None:
    module = python_search if name.startswith("TT_") else python_board
    assert getattr(module, name) == enums()[name]


def test_weight_names_follow_the_feature_enums() -> None:
    e = enums()
    movement = sorted((v, k) for k, v in e.items() if k.startswith("M_"))
    placement = sorted((v, k) for k, v in e.items() if k.startswith("P_"))
    assert [k.removeprefix("M_").lower() for _, k in movement] == list(common.MOVEMENT_FEATURES)
    assert [k.removeprefix("P_").lower() for _, k in placement] == list(common.PLACEMENT_FEATURES)
    assert (e["NM"], e["NP"]) == (python_board.NM, python_board.NP)
    assert len(common.WEIGHT_NAMES) == python_board.NF <= common.NW
    assert re.search(r"#define NF \(NM \+ 2 \* NP\)", SOURCE)


@pytest.mark.parametrize(
    ("c_name", "mirror"),
    [
        ("Board", core.CoreBoard),
        ("Node", core.CoreNode),
        ("Params", core.CoreParams),
        ("Result", core.CoreResult),
    ],
)
def test_ctypes_structs_mirror_the_c_structs(c_name: str, mirror: type[ctypes.Structure]) -> None:
    c = defines()
    expected = []
    for ctype, field, dims in c_struct(c_name):
        t: type = C_TYPES[ctype]
        for dim in reversed(re.findall(r"\[(\w+)\]", dims)):
            t = t * (int(dim) if dim.isdigit() else c[dim])
        expected.append((field, ctypes.sizeof(t), getattr(t, "_type_", t)))
    got = [(f, ctypes.sizeof(t), getattr(t, "_type_", t)) for f, t in mirror._fields_]
    assert got == expected


def test_compile_flags_are_written_down_once() -> None:
    assert core.compile_flags() == [
        *build_flags.optimisation_flags(),
        *build_flags.SHARED_LIBRARY_FLAGS,
    ]
    setup = (ROOT / "setup.py").read_text()
    assert "build_flags.py" in setup
    assert not re.search(r"""["']-(O\d|std=|D_POSIX|mpopcnt)""", setup)
