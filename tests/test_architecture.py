"""Imports flow one way: engine <- renderer <- bot; the engine knows no pictures or Discord.

The message catalogue (``shax_i18n``) serves the renderer and the bot; it needs neither
of them, nor the engine, and the engine never needs words."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names)
# The engine may use the AI's own compute library, nothing else from outside.
ENGINE_ALLOWED = STDLIB | {"engine", "numpy", "numba"}


def imported_modules(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize("package", ["engine", "renderer", "bot", "shax_i18n"])
def test_the_package_exists_and_has_modules(package: str) -> None:
    assert imported_modules(package)


def test_the_engine_imports_only_the_standard_library() -> None:
    for path, names in imported_modules("engine").items():
        assert names <= ENGINE_ALLOWED, f"{path} imports {sorted(names - ENGINE_ALLOWED)}"


def test_the_engine_never_imports_the_catalogue() -> None:
    for path, names in imported_modules("engine").items():
        assert "shax_i18n" not in names, path


def test_the_catalogue_imports_nothing_of_the_game() -> None:
    for path, names in imported_modules("shax_i18n").items():
        assert names <= STDLIB | {"shax_i18n", "babel"}, f"{path} imports {sorted(names)}"


def test_the_renderer_never_imports_discord_or_the_bot() -> None:
    for path, names in imported_modules("renderer").items():
        assert not names & {"discord", "bot"}, f"{path} imports {sorted(names)}"


def test_the_engine_imports_neither_renderer_nor_bot() -> None:
    for path, names in imported_modules("engine").items():
        assert not names & {"renderer", "bot", "discord", "PIL"}, path
