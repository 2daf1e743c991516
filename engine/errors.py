"""The engine's exceptions: each says what is wrong and what is legal instead."""

from __future__ import annotations

from collections.abc import Sequence


class ShaxError(ValueError):
    """Base class of every error the engine raises for bad input."""


class NotationError(ShaxError):
    """Text that is not an action on this board (malformed, or an unknown point)."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{text!r}: {reason}")
        self.text = text
        self.reason = reason


def summarize(actions: Sequence[str], limit: int = 12) -> str:
    """A short list of actions for a message: the first few and how many in all."""
    if not actions:
        return "none"
    shown = ", ".join(actions[:limit])
    return shown if len(actions) <= limit else f"{shown}, … ({len(actions)} in all)"


class IllegalActionError(ShaxError):
    """A well-formed action that the rules do not allow now."""

    def __init__(self, action: str, reason: str, legal: Sequence[str]) -> None:
        message = f"{action}: {reason}"
        if legal:
            message += f". Legal now: {summarize(legal)}"
        super().__init__(message)
        self.action = action
        self.reason = reason
        self.legal = list(legal)


class GameOverError(IllegalActionError):
    """An action after the game has ended."""


class RecordError(ShaxError):
    """A game record with a bad action; ``index`` counts from 0."""

    def __init__(self, index: int, action: str, cause: ShaxError) -> None:
        detail = cause.reason if isinstance(cause, NotationError | IllegalActionError) else cause
        legal = getattr(cause, "legal", None)
        message = f"action {index + 1} ({action!r}) is not playable: {detail}"
        if legal:
            message += f". Legal there: {summarize(legal)}"
        super().__init__(message)
        self.index = index
        self.action = action
        self.cause = cause
