"""The renderer imports the engine, Pillow and the message catalogue (the words on its
pictures), never discord (STYLE.md: one direction)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import renderer

PACKAGE = Path(renderer.__file__).resolve().parent


def test_renderer_modules_import_only_engine_pillow_and_the_standard_library() -> None:
    allowed = {"engine", "PIL", "renderer", "shax_i18n"}
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in allowed or top in sys.stdlib_module_names, (path.name, name)


def test_importing_the_renderer_does_not_load_discord() -> None:
    code = "import sys, renderer; print('discord' in sys.modules or 'bot' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=PACKAGE.parent,
        check=True,
    )
    assert out.stdout.strip() == "False"


def test_the_public_api() -> None:
    for name in (
        "BoardView",
        "render_board",
        "render_position",
        "render_replay",
        "board_geometry",
        "REPLAY_FILENAME",
    ):
        assert hasattr(renderer, name)
