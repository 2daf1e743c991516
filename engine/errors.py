"""The engine's exceptions: each carries what is wrong as a value (:mod:`engine.verdicts`)
and what is legal instead; its message is that value in English, for scripts and
tracebacks (:mod:`engine.english`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.english import malformed_text, refusal_text, summarize
from engine.verdicts import Malformed, Refusal


class ShaxError(ValueError):
    """Base class of every error the engine raises for bad input."""


class NotationError(ShaxError):
    """Text that is not an action on this board (malformed, or an unknown point);
    ``malformed`` says why, ``params`` its values."""

    def __init__(
        self, text: str, malformed: Malformed, *, params: Mapping[str, object] | None = None
    ) -> None:
        self.text = text
        self.malformed = malformed
        self.params: dict[str, object] = dict(params or {})
        super().__init__(f"{text!r}: {self.reason}")

    @property
    def reason(self) -> str:
        """Why, in English (for scripts and tracebacks)."""
        return malformed_text(self.malformed, self.params)


class IllegalActionError(ShaxError):
    """A well-formed action that the rules do not allow now: ``refusal`` names the rule,
    ``params`` the points and colours it is about, ``legal`` the actions legal instead."""

    def __init__(
        self,
        action: str,
        refusal: Refusal,
        legal: Sequence[str],
        *,
        params: Mapping[str, object] | None = None,
    ) -> None:
        self.action = action
        self.refusal = refusal
        self.params: dict[str, object] = dict(params or {})
        self.legal = list(legal)
        message = f"{action}: {self.reason}"
        if legal:
            message += f". Legal now: {summarize(legal)}"
        super().__init__(message)

    @property
    def reason(self) -> str:
        """Why, in English (for scripts and tracebacks)."""
        return refusal_text(self.refusal, self.params)


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
