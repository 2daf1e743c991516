"""Choosing the AI's backend: the compiled core when it loads, else the Python search, which
says once how to get the fast one; ``SHAX_AI_BACKEND`` forces either."""

from __future__ import annotations

import ctypes
import logging
from collections.abc import Iterator

import pytest

import engine.ai
from engine.ai import core


@pytest.fixture(autouse=True)
def fresh_choice() -> Iterator[None]:
    """Every test chooses anew, and leaves no choice behind for the next."""
    core.backend_choice.cache_clear()
    core.announce_backend.cache_clear()
    yield
    core.backend_choice.cache_clear()
    core.announce_backend.cache_clear()


@pytest.fixture
def no_compiled_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core is neither installed nor buildable, as on a machine without a C compiler."""

    def unavailable() -> ctypes.CDLL:
        raise core.CoreUnavailableError("it is not built and no C compiler was found")

    monkeypatch.setattr(core, "library", unavailable)
    monkeypatch.delenv(core.BACKEND_ENV, raising=False)


def test_the_compiled_core_is_used_where_it_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(core.BACKEND_ENV, raising=False)
    assert engine.ai.backend() == "c"
    assert engine.ai.fast_core_advice() is None


def test_without_the_core_the_python_search_plays(no_compiled_core: None) -> None:
    assert engine.ai.backend() == "python"
    result = engine.ai.choose_action("shax", ["d7", "a7", "g7"], "hard", depth=2)
    assert result.action in engine.replay("shax", ["d7", "a7", "g7"]).legal_notations()


def test_the_advice_names_the_compiler_and_the_reinstall(no_compiled_core: None) -> None:
    advice = engine.ai.fast_core_advice()
    assert advice is not None
    assert "no C compiler was found" in advice  # why
    assert "install a C compiler" in advice and "pip install -e ." in advice  # what to do


def test_the_advice_is_logged_once_per_process(
    no_compiled_core: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="engine.ai"):
        first = engine.ai.announce_backend()
        second = engine.ai.announce_backend()
    assert first is not None and first == second
    assert [r.getMessage() for r in caplog.records] == [first]


@pytest.mark.parametrize("value", ["python", " Python "])
def test_the_python_search_can_be_forced_without_advice(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, value: str
) -> None:
    monkeypatch.setenv(core.BACKEND_ENV, value)
    assert engine.ai.backend() == "python"
    with caplog.at_level(logging.WARNING, logger="engine.ai"):
        assert engine.ai.announce_backend() is None
    assert caplog.records == []


def test_forcing_the_compiled_core_where_it_cannot_build_says_why(
    no_compiled_core: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(core.BACKEND_ENV, "c")
    with pytest.raises(core.CoreUnavailableError, match="SHAX_AI_BACKEND=c, but"):
        engine.ai.backend()


def test_an_unknown_backend_names_the_choices(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(core.BACKEND_ENV, "rust")
    with pytest.raises(ValueError, match="choose one of: c, python"):
        engine.ai.backend()
    with caplog.at_level(logging.ERROR, logger="engine.ai"):
        message = engine.ai.announce_backend()
    assert message is not None and "'rust'" in message
    assert [r.levelno for r in caplog.records] == [logging.ERROR]
