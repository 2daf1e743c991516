"""The service says what to say, never in which language nor with which markup: no
``ContextVar``, no language state, no Discord syntax in ``bot/service``, and nothing
imported that knows a language — the sentences are in ``bot/words``, spoken by the
adapters (docs/ARCHITECTURE.md, "Where a reply becomes words")."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from bot.service.replies import Notice, Reply, Result

ROOT = Path(__file__).resolve().parents[3]
SERVICE = ROOT / "bot" / "service"
LANGUAGE_FREE = "shax_i18n.codes"
"""The one part of the catalogue the service may use: language codes and the marker
``N_`` of a message id; it translates nothing."""
SPEAKING = ("shax_i18n", "bot.words", "bot.discord", "bot.console", "gettext", "babel")
"""What knows a language (or a surface): the catalogue, the words, the adapters."""


def modules() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(SERVICE).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(SERVICE.rglob("*.py"))
    ]


def imported(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
    return names


@pytest.mark.parametrize(("name", "tree"), modules(), ids=[name for name, _ in modules()])
def test_the_service_holds_no_language_state(name: str, tree: ast.Module) -> None:
    names = imported(tree)
    assert not any(n.startswith("contextvars") for n in names), f"{name} uses a ContextVar"
    assert not any(isinstance(node, ast.Global) for node in ast.walk(tree)), (
        f"{name} changes a module global"
    )
    called = {
        getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
    }
    translating = {"translator", "gettext", "ngettext", "pgettext", "npgettext"}
    assert not called & translating, f"{name} translates"


@pytest.mark.parametrize(("name", "tree"), modules(), ids=[name for name, _ in modules()])
def test_the_service_imports_nothing_that_knows_a_language(name: str, tree: ast.Module) -> None:
    for module in imported(tree):
        if module == LANGUAGE_FREE or module.startswith(LANGUAGE_FREE + "."):
            continue
        assert not module.startswith(SPEAKING), f"{name} imports {module}"


def test_the_language_free_part_of_the_catalogue_translates_nothing() -> None:
    tree = ast.parse((ROOT / "shax_i18n" / "codes.py").read_text(encoding="utf-8"))
    assert {n.split(".")[0] for n in imported(tree)} <= {"__future__", "collections", "typing"}


@pytest.mark.parametrize(("name", "tree"), modules(), ids=[name for name, _ in modules()])
def test_the_service_writes_no_discord_markup(name: str, tree: ast.Module) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            for markup in ("<@", "<#", "<t:"):
                assert markup not in node.value, f"{name} writes Discord's {markup}…>"
    assert "discord" not in {n.split(".")[0] for n in imported(tree)}


def test_replies_name_no_language_and_no_surface() -> None:
    for value in (Reply, Notice, Result):
        fields = {f.name for f in dataclasses.fields(value)}
        assert not fields & {"language", "surface", "locale"}, value
    for path in SERVICE.rglob("*.py"):
        assert "Surface" not in path.read_text(encoding="utf-8"), path
