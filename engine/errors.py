"""The engine's exceptions: each says what is wrong and what is legal instead."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


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
    """A well-formed action that the rules do not allow now.

    ``reason`` is the explanation in English; ``template`` and ``params`` are the same
    explanation as a message with named placeholders and their values (the words a
    translation of the reason needs): ``reason == template.format(**params)``.
    """

    def __init__(
        self,
        action: str,
        template: str,
        legal: Sequence[str],
        *,
        params: Mapping[str, str] | None = None,
    ) -> None:
        self.template = template
        self.params: dict[str, str] = dict(params or {})
        reason = template.format(**self.params)
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
