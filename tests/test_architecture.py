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
    """Nor the catalogue: the engine returns values (an ``Outcome``, a ``Refusal``, a
    ``Moment``); their words live with whoever shows them (``bot/words``, the renderer)."""
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


def test_the_storage_imports_no_feature_nor_anything_built_on_it() -> None:
    """The storage is below the service and every feature: a feature's tables and the
    vocabularies of their columns are the storage's (``bot/storage/tournament_tables.py``),
    and the feature's rows import them, never the other way."""
    above = ("bot.service", "bot.readers", "bot.words", "bot.commands", *FEATURES)
    assert_imports_nothing_of("bot/storage", above)


def test_the_words_serve_the_adapters_and_import_none_of_them() -> None:
    """``bot/words`` turns the service's replies into sentences for every surface; it knows
    the service's values, never an adapter (and the service never knows it:
    ``tests/bot/service/test_speaking_at_the_edge.py``)."""
    assert_imports_nothing_of("bot/words", ("bot.discord", "bot.console", "bot.workers"))


# -- the import graph: no circles, and every import runs down the layers ------------------

GRAPHED = ("engine", "renderer", "shax_i18n", "bot")


def module_paths() -> dict[str, Path]:
    """Every module of the graphed packages by its dotted name (a package by its own)."""
    modules: dict[str, Path] = {}
    for package in GRAPHED:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement: at module level, inside functions and classes, and under
    ``if TYPE_CHECKING:`` (a type named there is still a dependency of the module)."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


def import_graph() -> dict[str, set[str]]:
    """Each module and the modules of the graphed packages it imports.

    ``from package import name`` depends on ``package.name`` when that is a module, else
    on the package itself; ``import a.b.c`` on the nearest module it names."""
    modules = module_paths()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                named = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    stem = here[: len(here) - node.level + 1]
                    base = ".".join([*stem, base] if base else stem)
                named = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for target in named:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of ``graph`` with more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            part = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.append(member)
                if member == module:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return circles


def test_the_import_graph_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_circles(graph) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_reads_every_kind_of_import() -> None:
    graph = import_graph()
    assert "bot.service.kernel" in graph["bot.service.turns"]  # from a.b import c
    assert "bot.words" in graph["bot.discord.components"]  # from bot import words (a module)
    assert "engine" in graph["renderer.text"]  # from engine import Color (a name)


def test_no_module_imports_itself_round_a_circle() -> None:
    """No module imports, through others, a module that imports it: each layer and each
    module of one can be read, tested and loaded on its own. Imports inside functions
    count (a local import that dodges a circle still makes one), and so do those under
    ``if TYPE_CHECKING:`` (the types of a circle are still a circle)."""
    circles = import_circles(import_graph())
    assert not circles, "import circles: " + "; ".join(" <-> ".join(c) for c in circles)


LAYERS: tuple[tuple[str, ...], ...] = (
    ("engine", "shax_i18n"),
    ("renderer",),
    ("bot.config",),
    ("bot.standings", "bot.workers"),
    ("bot.storage",),
    ("bot.service",),
    ("bot.readers", "bot.words"),
    ("bot.commands",),
    ("bot.discord", "bot.console"),
    ("bot", "bot.__main__"),
)
"""The packages from the bottom up: a module imports only from its own package and from
the layers below its own; packages side by side in one layer never import each other."""

FEATURES: dict[str, dict[str, str]] = {
    "bot.tournaments": {
        "": "bot.standings",
        "pairing": "bot.standings",
        "scoring": "bot.standings",
        "rows": "bot.storage",
        "store": "bot.storage",
        "notices": "bot.service",
        "rules": "bot.service",
        "standings": "bot.service",
        "service": "bot.service",
        "words": "bot.words",
        "commands": "bot.commands",
    },
}
"""The folders that hold one feature whole (its rules, rows, service, words and commands):
each module of one does the job of a layer, and stands in that layer as if it were a module
of its package (the pure pairing with the standings' arithmetic, the repository with the
storage, and so on up)."""


def layer_of(module: str) -> tuple[int, str]:
    """The layer (its height) and the package of a module (a feature's module: the package
    of the layer whose job it does)."""
    parts = module.split(".")
    package = parts[0] if parts[0] != "bot" or len(parts) == 1 else ".".join(parts[:2])
    if package in FEATURES:
        jobs = FEATURES[package]
        job = ".".join(parts[2:3])
        assert job in jobs, f"{module} does no job FEATURES names for {package}"
        package = jobs[job]
    for height, layer in enumerate(LAYERS):
        if package in layer:
            return height, package
    raise AssertionError(f"{module} is in no layer of LAYERS")


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import of ``graph`` that leaves its package for one not below it."""
    upward = []
    for module, targets in sorted(graph.items()):
        height, package = layer_of(module)
        for target in sorted(targets):
            their_height, theirs = layer_of(target)
            if theirs != package and their_height >= height:
                upward.append(f"{module} imports {target}")
    return upward


def test_every_import_runs_down_the_layers() -> None:
    """The storage never imports the service; the service never imports the words, the
    commands or an adapter; the words never import an adapter; and so on down."""
    upward = upward_imports(import_graph())
    assert not upward, "\n".join(upward)


def test_an_import_up_or_across_the_layers_is_found() -> None:
    graph = {
        "bot.storage.store": {"bot.service.kernel", "bot.standings"},
        "bot.service.turns": {"bot.words.games", "bot.service.kernel", "engine"},
        "bot.words.voice": {"bot.readers", "bot.discord.render", "bot.service.replies"},
        "bot.readers": set(),
        "engine.position": {"shax_i18n"},
    }
    assert upward_imports(graph) == [
        "bot.service.turns imports bot.words.games",
        "bot.storage.store imports bot.service.kernel",
        "bot.words.voice imports bot.discord.render",
        "bot.words.voice imports bot.readers",
        "engine.position imports shax_i18n",
    ]


# -- file sizes ---------------------------------------------------------------------------

MOST_LINES = {"bot": 450, "engine": 800, "renderer": 800}
"""The longest a file may grow: a file past it holds more than one thing to find."""


@pytest.mark.parametrize("package", sorted(MOST_LINES))
def test_no_file_is_too_long_to_find_things_in(package: str) -> None:
    limit = MOST_LINES[package]
    long = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / package).rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > limit
    }
    assert not long, f"files over {limit} lines: {long}"


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
