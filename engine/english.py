"""The engine's verdicts in English, for scripts and tracebacks: the command lines'
output (``python -m engine``) and the messages of the engine's exceptions.

Players never read these: their words are :mod:`bot.words`' (and the renderer's
captions), in their own language, from the same values (:mod:`engine.verdicts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.variants import Color
from engine.verdicts import Malformed, Outcome, Refusal, Termination

WRITE_AN_ACTION = "write a point (d7), a move (a7-d7) or a removal (xg1)"

MALFORMED: dict[Malformed, str] = {
    Malformed.EMPTY: "empty action; " + WRITE_AN_ACTION,
    Malformed.TOO_LONG: "far too long for an action; " + WRITE_AN_ACTION,
    Malformed.UNKNOWN_POINT: "{point!r} is not a point on the {variant} board; points are {points}",
    Malformed.MOVE_FORM: "a move is written from-to, like a7-d7",
    Malformed.NOT_AN_ACTION: "not an action; " + WRITE_AN_ACTION,
}

REFUSALS: dict[Refusal, str] = {
    Refusal.GAME_OVER: "the game is over ({outcome})",
    Refusal.STILL_PLACING: "stones are still being placed: {player} places a stone on an "
    "empty point",
    Refusal.POINT_TAKEN: "{point} is already taken; place on an empty point",
    Refusal.OPENING_REMOVAL_DUE: "the opening removal: {player} must first remove one of "
    "{opponent}'s stones (x + its point)",
    Refusal.JARE_REMOVAL_DUE: "{player} formed a jare: {player} must first remove one of "
    "{opponent}'s stones (x + its point)",
    Refusal.OWN_STONE: "{point} is {player}'s own stone; remove one of {opponent}'s",
    Refusal.NOTHING_TO_REMOVE: "{point} is empty; remove one of {opponent}'s stones",
    Refusal.ALL_PLACED: "all stones are placed: {player} moves a stone to an adjacent empty "
    "point (from-to)",
    Refusal.NO_REMOVAL_DUE: "no removal is due: {player} moves a stone to an adjacent empty "
    "point (from-to)",
    Refusal.OPPONENTS_STONE: "{point} is {opponent}'s stone; {player} moves one of "
    "{player}'s own stones",
    Refusal.NOTHING_TO_MOVE: "{point} is empty; {player} moves one of {player}'s own stones",
    Refusal.NOT_ADJACENT: "{src} and {dst} are not adjacent (next to {src}: {near})",
    Refusal.OCCUPIED: "{point} is occupied",
    Refusal.MUST_FREE: "{opponent} is blocked (jid i sii aan jar aheyn): {player} must make "
    "a move that frees {opponent}",
    Refusal.NOT_ALLOWED: "that move is not allowed now",
}

OUTCOME_REASONS: dict[Termination, str] = {
    Termination.TWO_PIECES: "{loser} has only two stones left",
    Termination.THREE_IN_A_ROW: "three in a row",
    Termination.RESIGNATION: "{loser} resigned",
    Termination.TIMEOUT: "{loser} ran out of time",
    Termination.MUTUAL_BLOCKADE: "neither player can move",
    Termination.THREEFOLD_REPETITION: "the same position occurred three times",
    Termination.MOVE_LIMIT: "100 moves without a capture",
    Termination.AGREEMENT: "both players agreed",
    Termination.ABORTED: "a first move did not come in time",
}


def headline(outcome: Outcome) -> str:
    """``'White wins'``, ``'Black wins'``, ``'Draw'`` or ``'Aborted'``."""
    if outcome.termination is Termination.ABORTED:
        return "Aborted"
    return f"{outcome.winner.label.capitalize()} wins" if outcome.winner else "Draw"


def outcome_text(outcome: Outcome) -> str:
    """The ending: ``'White wins: black has only two stones left'``."""
    loser = outcome.winner.other.label if outcome.winner else ""
    reason = OUTCOME_REASONS[outcome.termination].format(loser=loser)
    return f"{headline(outcome)}: {reason}"


def _word(value: object) -> str:
    if isinstance(value, Color):
        return value.label
    if isinstance(value, Outcome):
        return outcome_text(value)
    if isinstance(value, tuple | list):
        return " ".join(str(v) for v in value)
    return str(value)


def malformed_text(malformed: Malformed, params: Mapping[str, object]) -> str:
    """Why a text is not an action: ``"'d4' is not a point on the shax board; points …"``."""
    words = {key: value if key == "point" else _word(value) for key, value in params.items()}
    return MALFORMED[malformed].format(**words)


def refusal_text(refusal: Refusal, params: Mapping[str, object]) -> str:
    """Why the rules refuse an action: ``'a1 is already taken; place on an empty point'``."""
    return REFUSALS[refusal].format(**{key: _word(value) for key, value in params.items()})


def summarize(actions: Sequence[str], limit: int = 12) -> str:
    """A short list of actions for a message: the first few and how many in all."""
    if not actions:
        return "none"
    shown = ", ".join(actions[:limit])
    return shown if len(actions) <= limit else f"{shown}, … ({len(actions)} in all)"
