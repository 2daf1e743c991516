"""The service says what to say, never in which language nor with which markup: no
``ContextVar``, no language state, no Discord syntax in ``bot/service``
(docs/ARCHITECTURE.md, "Where a reply becomes words")."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from bot.service.replies import Notice, Reply, Result
from bot.service.server_settings import ServerSettings

SERVICE = Path(__file__).resolve().parents[3] / "bot" / "service"
SENTENCES = ("texts/", "settings_texts.py", "board_words.py")
"""The sentences: functions of a translator the adapter hands them."""


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
    translators = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "translator"
    ]
    if name == "texts/words.py":
        # EN: the language of a sentence asked for without a reader (tests), never chosen.
        [english] = translators
        assert [ast.literal_eval(a) for a in english.args] == ["en"]
    else:
        assert not translators, f"{name} makes a translator"
    if not name.startswith(SENTENCES) and name != "replies.py":
        speaking = {"shax_i18n.translator", "shax_i18n.Translator", "shax_i18n.pick_language"}
        assert not names & speaking, f"{name} picks a language"


@pytest.mark.parametrize(("name", "tree"), modules(), ids=[name for name, _ in modules()])
def test_the_service_writes_no_discord_markup(name: str, tree: ast.Module) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            for markup in ("<@", "<#", "<t:"):
                assert markup not in node.value, f"{name} writes Discord's {markup}…>"
    assert "discord" not in {n.split(".")[0] for n in imported(tree)}


def test_replies_name_no_language_and_no_surface() -> None:
    for value in (Reply, Notice, Result, ServerSettings):
        fields = {f.name for f in dataclasses.fields(value)}
        if value is not ServerSettings:
            assert not fields & {"language", "surface", "locale"}, value
    kernel = (SERVICE / "kernel.py").read_text(encoding="utf-8")
    facade = (SERVICE / "facade.py").read_text(encoding="utf-8")
    assert "Surface" not in kernel and "Surface" not in facade
