"""Another build of the compiled core, loaded beside the process's own (benchmarks compare
a revision's core with this one): it searches through the same binding, and a library of
another ABI, or no core at all, is refused with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.ai import core
from engine.ai.levels import weights_for
from engine.build_flags import compile_cached
from engine.record import replay


def build(source_text: str, folder: Path) -> Path:
    source = folder / "_core.c"
    source.write_text(source_text)
    return compile_cached(source, core.compile_flags(), "shax-test-core")


def test_another_build_searches_as_the_process_core(tmp_path: Path) -> None:
    other = core.load_core(build(core.SOURCE.read_text(), tmp_path))
    position = replay("shax", ["d7", "a7", "g7", "a4", "d6", "b6"])
    params = core.make_params(weights_for("shax"), max_depth=5)
    assert core.c_search(position, params, other) == core.c_search(position, params)


def test_a_core_of_another_abi_is_refused(tmp_path: Path) -> None:
    text = core.SOURCE.read_text().replace(
        f"#define CORE_ABI {core.CORE_ABI}", f"#define CORE_ABI {core.CORE_ABI + 1}"
    )
    path = build(text, tmp_path)
    with pytest.raises(core.CoreUnavailableError, match=f"ABI {core.CORE_ABI + 1}"):
        core.load_core(path)


def test_a_library_that_is_no_core_is_refused(tmp_path: Path) -> None:
    path = build("int core_abi(void) { return 0; }\n", tmp_path)
    with pytest.raises(core.CoreUnavailableError, match="not an AI core"):
        core.load_core(path)
