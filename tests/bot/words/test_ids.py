"""Where two places must agree: every id the service and the adapters say is a sentence
of :mod:`bot.words` or a message of the catalogue, and every sentence is said somewhere.

The service names what to say by id (:class:`~bot.service.replies.Said`); the words are
looked up only at the edge. A scan of the source with ``ast`` finds every ``Said(...)``
and ``Said.message(...)`` in ``bot/``, so an id nobody wrote words for fails here, not in
front of a player."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import bot.service.messages
from bot.service.replies import JOIN, MESSAGE
from bot.words.registry import SENTENCES, sentence
from shax_i18n.catalogue import template_path

ROOT = Path(__file__).resolve().parents[3]


def calls(package: str) -> Iterator[tuple[str, ast.Call]]:
    """(module name, call) of every ``Said(...)`` and ``Said.message(...)`` in a package."""
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                yield module, node


def is_said(call: ast.Call) -> bool:
    """``Said("id", …)``, or ``Saying("id")``: a sentence the service says with typed values."""
    return isinstance(call.func, ast.Name) and call.func.id in ("Said", "Saying")


def is_message(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "message"
        and isinstance(func.value, ast.Name)
        and func.value.id == "Said"
    )


def said_ids(package: str) -> dict[str, list[str]]:
    """Each sentence id said in ``package``, with where."""
    found: dict[str, list[str]] = {}
    for module, call in calls(package):
        if is_said(call):
            first = call.args[0]
            if module == "bot.service.said" and ast.unparse(first) == "self.id":
                continue  # Saying's own call: its ids are found where each is declared
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                f"{module}:{call.lineno}: a Said's id is written out, so this scan sees it"
            )
            found.setdefault(first.value, []).append(f"{module}:{call.lineno}")
    return found


def catalogue_ids() -> set[str]:
    with template_path().open("rb") as pot:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(pot) if m.id}


def test_every_sentence_the_service_says_is_in_the_words_package() -> None:
    said = said_ids("bot.service") | said_ids("bot.tournaments")
    assert said, "the scan found the service's sentences"
    missing = {name: where for name, where in said.items() if name not in SENTENCES}
    assert not missing, f"said, but no sentence of bot.words has the name: {missing}"


def test_every_sentence_the_adapters_say_is_in_the_words_package() -> None:
    for package in ("bot.discord", "bot.console", "bot.commands"):
        missing = {n: where for n, where in said_ids(package).items() if n not in SENTENCES}
        assert not missing, f"{package} says what bot.words cannot: {missing}"


def test_every_sentence_of_the_words_package_is_said() -> None:
    said = set(said_ids("bot"))
    unsaid = set(SENTENCES) - said - {MESSAGE, JOIN}
    assert not unsaid, f"registered, but never said: {sorted(unsaid)}"


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
    """Ids are function names, so two sentences of one name would say each other's words."""
    first = SENTENCES["rules_text"]

    def rules_text() -> str:
        return "another"

    with pytest.raises(ValueError, match="two sentences are named rules_text"):
        sentence(rules_text)
    assert SENTENCES["rules_text"] is first
