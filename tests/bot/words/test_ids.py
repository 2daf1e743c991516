"""Where two places must agree: every sentence the service and the adapters say is
declared as a typed :class:`~bot.service.replies.Saying` with words in :mod:`bot.words`,
every plain message is a message of the catalogue, and every sentence is said somewhere.

mypy checks the values a sentence is said with and that its words take exactly them
(:func:`bot.words.registry.speaks`); what it cannot see is a Saying whose words were never
registered, or an untyped ``Said("id", …)``. A scan of the source with ``ast`` finds every
``Saying(...)`` declared in ``bot/``, every call of one, and every ``Said.message(...)``,
so a sentence nobody wrote words for fails here, not in front of a player."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import bot.service.messages
from bot.service.replies import JOIN, MESSAGE, Saying
from bot.words.registry import SENTENCES, speaks
from shax_i18n import Translator
from shax_i18n.catalogue import template_path

ROOT = Path(__file__).resolve().parents[3]
SAID_MODULE = "bot.service.said"
"""Where :class:`~bot.service.replies.Said` is made: the one module that may call it."""


def trees(package: str) -> Iterator[tuple[str, ast.Module]]:
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        yield module, ast.parse(path.read_text(encoding="utf-8"))


def calls(package: str) -> Iterator[tuple[str, ast.Call]]:
    """(module name, call) of every call in a package."""
    for module, tree in trees(package):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                yield module, node


def is_message(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "message"
        and isinstance(func.value, ast.Name)
        and func.value.id == "Said"
    )


def sayings(package: str) -> dict[str, list[tuple[str, str]]]:
    """Each sentence id declared by a ``NAME: Saying[...] = Saying("id")`` in ``package``,
    with the name it is declared as and where."""
    found: dict[str, list[tuple[str, str]]] = {}
    for module, tree in trees(package):
        for node in ast.walk(tree):
            value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            if not (isinstance(value, ast.Call) and ast.unparse(value.func) == "Saying"):
                continue
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            [first] = value.args
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                f"{module}:{node.lineno}: a Saying's id is written out, so this scan sees it"
            )
            assert isinstance(target, ast.Name), f"{module}:{node.lineno}: a Saying has a name"
            found.setdefault(first.value, []).append((target.id, f"{module}:{node.lineno}"))
    return found


def called_names(package: str) -> set[str]:
    """The names called in ``package`` (``NAME(…)`` and ``module.NAME(…)``)."""
    names = set()
    for _, call in calls(package):
        if isinstance(call.func, ast.Name):
            names.add(call.func.id)
        elif isinstance(call.func, ast.Attribute):
            names.add(call.func.attr)
    return names


def test_every_saying_declared_in_bot_has_its_words() -> None:
    declared = sayings("bot")
    assert len(declared) > 100, "the scan found the sentences"
    missing = {id: where for id, where in declared.items() if id not in SENTENCES}
    assert not missing, f"declared, but bot.words registers no words for: {missing}"


def test_each_sentence_is_declared_once() -> None:
    twice = {id: where for id, where in sayings("bot").items() if len(where) > 1}
    assert not twice, f"two Sayings of one id would share its words: {twice}"


def test_no_sentence_is_said_by_its_name_alone() -> None:
    """An untyped ``Said("id", …)`` is what mypy cannot check: outside the module that
    makes them, every sentence is said through its Saying."""
    untyped = [
        f"{module}:{call.lineno}"
        for module, call in calls("bot")
        if isinstance(call.func, ast.Name) and call.func.id == "Said" and module != SAID_MODULE
    ]
    assert not untyped, f"say these through a Saying: {untyped}"


def test_every_sentence_of_the_words_package_is_declared_and_said() -> None:
    declared = sayings("bot")
    registered = set(SENTENCES) - {MESSAGE, JOIN}
    undeclared = registered - set(declared)
    assert not undeclared, f"words registered for no Saying: {sorted(undeclared)}"
    called = called_names("bot")
    unsaid = sorted(id for id in registered if not any(name in called for name, _ in declared[id]))
    assert not unsaid, f"declared, but never said: {unsaid}"


def catalogue_ids() -> set[str]:
    with template_path().open("rb") as pot:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(pot) if m.id}


def test_the_service_says_plain_messages_by_their_catalogue_ids() -> None:
    """In the service a plain message is one of :mod:`bot.service.messages`, each of
    them a message of the catalogue."""
    constants = {
        name: value
        for name, value in vars(bot.service.messages).items()
        if name.isupper() and isinstance(value, str)
    }
    assert constants
    for module, call in calls("bot.service"):
        if is_message(call):
            [message] = call.args
            assert (
                isinstance(message, ast.Attribute)
                and isinstance(message.value, ast.Name)
                and message.value.id == "messages"
                and message.attr in constants
            ), f"{module}:{call.lineno}: {ast.unparse(message)} is not one of bot.service.messages"
    known = catalogue_ids()
    missing = {name for name, value in constants.items() if value not in known}
    assert not missing, f"not in the catalogue (run pybabel extract): {sorted(missing)}"


def test_every_plain_message_an_adapter_says_is_in_the_catalogue() -> None:
    known = catalogue_ids()
    for package in ("bot.discord", "bot.console"):
        for module, call in calls(package):
            if is_message(call):
                namespace = vars(importlib.import_module(module))
                message = eval(ast.unparse(call.args[0]), dict(namespace))  # N_(…) or a name
                assert message in known, f"{module}:{call.lineno}: {message!r}"


def test_a_second_sentence_with_a_taken_name_is_refused() -> None:
    """One id has one set of words: a second would say the other's."""
    first = SENTENCES["rules_text"]

    def rules_text(t: Translator) -> str:
        return "another"

    with pytest.raises(ValueError, match="two sentences are named rules_text"):
        speaks(Saying[[]]("rules_text"))(rules_text)
    assert SENTENCES["rules_text"] is first
