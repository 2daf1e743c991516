"""Installing on a machine without a C compiler: ``pip install -e .`` succeeds (the compiled
core is optional), and the AI then plays with its Python search and says how to get the
fast one. A real install of a copy of the project into a fresh virtual environment, with
the compiler hidden (``CC`` names no program, for setuptools and for the core's own build).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

from engine import replay
from engine.ai import BACKEND_ENV

ROOT = Path(__file__).resolve().parents[1]
PROJECT_FILES = ("setup.py", "pyproject.toml", "README.md")
PACKAGES = ("engine", "renderer", "bot", "shax_i18n")

RECORD = ["d7", "a7", "g7"]
PLAY = """
import json
import engine.ai
result = engine.ai.choose_action("shax", {record!r}, "hard", depth=2)
print(json.dumps({{
    "backend": engine.ai.backend(),
    "advice": engine.ai.fast_core_advice(),
    "action": result.action,
    "module": engine.ai.__file__,
}}))
"""


def copy_project(target: Path) -> None:
    target.mkdir()
    for name in PROJECT_FILES:
        shutil.copy2(ROOT / name, target / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.db*", "*.egg-info")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, target / package, ignore=ignore)


def test_editable_install_without_a_c_compiler_plays_with_the_python_search(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    copy_project(project)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    no_compiler = {**os.environ, "CC": str(tmp_path / "no-such-compiler")}
    no_compiler.pop("PYTHONPATH", None)
    no_compiler.pop(BACKEND_ENV, None)

    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-v", "--no-deps", "-e", str(project)],
        env=no_compiler,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    output = install.stdout + install.stderr
    assert "the AI's compiled core was not built" in output
    assert "install a C compiler" in output
    assert "the endgame-table library was not built" in output
    assert not list((project / "engine").glob("**/*.so"))

    played = subprocess.run(
        [str(python), "-c", PLAY.format(record=RECORD)],
        env=no_compiler,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    answer = json.loads(played.stdout)
    assert Path(answer["module"]).is_relative_to(project)  # the installed copy, not this tree
    assert answer["backend"] == "python"
    assert "install a C compiler" in answer["advice"]
    assert answer["action"] in replay("shax", RECORD).legal_notations()
