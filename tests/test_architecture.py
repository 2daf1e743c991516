"""Imports flow one way: engine <- renderer <- bot; the engine knows no pictures or Discord,
and inside the bot only ``bot/discord/`` (and the entry point that starts it) knows Discord.

The message catalogue (``shax_i18n``) serves the renderer and the bot; it needs neither
of them, nor the engine, and the engine never needs words. Inside the bot, the words
(``bot/words``) serve the adapters, which alone speak."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import renderer

ROOT = Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names)
DISCORD_ROOMS = ("bot/discord/", "bot/__main__.py")


def imported_modules(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (by path) and the top-level packages it imports."""
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
        assert names <= STDLIB | {"engine"}, f"{path} imports {sorted(names - STDLIB)}"


def test_the_catalogue_imports_nothing_of_the_game() -> None:
    for path, names in imported_modules("shax_i18n").items():
        assert names <= STDLIB | {"shax_i18n", "babel"}, f"{path} imports {sorted(names)}"


def test_the_renderer_imports_only_the_engine_pillow_and_the_catalogue() -> None:
    # regex: grapheme clusters (\X) for names in every script; arabic_reshaper: Arabic
    # letter forms where Pillow has no raqm layout.
    allowed = STDLIB | {"engine", "PIL", "renderer", "shax_i18n", "regex", "arabic_reshaper"}
    for path, names in imported_modules("renderer").items():
        assert names <= allowed, f"{path} imports {sorted(names - allowed)}"


def test_only_the_discord_rooms_import_discord() -> None:
    for path, names in imported_modules("bot").items():
        if path.startswith(DISCORD_ROOMS):
            continue
        assert "discord" not in names, f"{path} imports discord"


def assert_imports_nothing_of(folder: str, above: tuple[str, ...]) -> None:
    """No module under ``folder`` imports a module (or a name of one) under ``above``."""
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            for module in modules:
                assert not module.startswith(above), f"{path.relative_to(ROOT)} imports {module}"


def test_the_storage_imports_nothing_above_it() -> None:
    """The storage writes the standings it is handed: the streak rule, like every rule, is
    the service's, and the storage never imports it (nor the adapters above)."""
    assert_imports_nothing_of(
        "bot/storage", ("bot.service", "bot.discord", "bot.console", "bot.workers")
    )


def test_the_words_serve_the_adapters_and_import_none_of_them() -> None:
    """``bot/words`` turns the service's replies into sentences for every surface; it knows
    the service's values, never an adapter (and the service never knows it:
    ``tests/bot/service/test_speaking_at_the_edge.py``)."""
    assert_imports_nothing_of("bot/words", ("bot.discord", "bot.console", "bot.workers"))


@pytest.mark.parametrize(
    "package", ["renderer", "bot.service", "bot.words", "bot.storage", "bot.console"]
)
def test_importing_a_package_does_not_load_discord(package: str) -> None:
    loaded = "sorted(m for m in ('discord', 'bot.discord') if m in sys.modules)"
    code = f"import sys, {package}; print({loaded})"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "[]", (package, out.stdout, out.stderr)


def test_the_renderers_public_api() -> None:
    for name in (
        "BoardView",
        "render_board",
        "render_position",
        "render_replay",
        "board_geometry",
        "REPLAY_FILENAME",
    ):
        assert hasattr(renderer, name)


def test_no_deadline_is_kept_with_wait_for() -> None:
    """``asyncio.wait_for`` on Python 3.11 returns an answer that arrives as its task is
    cancelled and drops the cancellation (Ctrl-C or a shutdown then never ends the wait's
    owner); deadlines are kept with ``asyncio.timeout``."""
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "wait_for":
                owner = node.value
                assert not (isinstance(owner, ast.Name) and owner.id == "asyncio"), (
                    f"{path.relative_to(ROOT)}:{node.lineno} uses asyncio.wait_for"
                )
