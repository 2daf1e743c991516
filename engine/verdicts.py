"""The engine's verdicts as values: how a game ended (:class:`Outcome`, :class:`Termination`)
and why an action is refused (:class:`Malformed`, :class:`Refusal`).

Values only, as in python-chess's ``Outcome(termination, winner)``: the words for them
are their readers'. Players read :mod:`bot.words` (and the renderer's captions) in their
language; scripts and tracebacks read :mod:`engine.english`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.variants import Color


class Termination(Enum):
    TWO_PIECES = "two pieces left"
    THREE_IN_A_ROW = "three in a row"
    RESIGNATION = "resignation"
    MUTUAL_BLOCKADE = "mutual blockade"
    THREEFOLD_REPETITION = "threefold repetition"
    MOVE_LIMIT = "100 moves without a capture"
    AGREEMENT = "agreement"
    TIMEOUT = "timeout"
    ABORTED = "aborted"
    """A side ran out of time before its first move: nobody wins, and the game counts for
    nobody (as on lichess)."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (``None`` for a draw) and why."""

    winner: Color | None
    termination: Termination

    @property
    def result(self) -> str:
        """``'white'``, ``'black'`` or ``'draw'``."""
        return self.winner.label if self.winner else "draw"


class Malformed(Enum):
    """Why a text is not an action on a board (:class:`engine.errors.NotationError`)."""

    EMPTY = "empty"
    TOO_LONG = "too long"
    UNKNOWN_POINT = "unknown point"
    """``point``: the name given; ``variant``: the board's id; ``points``: its points."""
    MOVE_FORM = "not from-to"
    """A move not written from-to (``a7-``, ``a7-d7-g7``)."""
    NOT_AN_ACTION = "not an action"


class Refusal(Enum):
    """Which rule refuses a well-formed action now (:class:`engine.errors.IllegalActionError`).

    Its values (``params``) name what the rule is about: ``player`` (the side to act) and
    ``opponent`` as :class:`Color`, ``point``, ``src`` and ``dst`` as point names, ``near``
    as the points next to ``src``, ``outcome`` as the game's :class:`Outcome`."""

    GAME_OVER = "game over"
    """``outcome``"""
    STILL_PLACING = "still placing"
    """``player``: a move or a removal while stones are being placed."""
    POINT_TAKEN = "point taken"
    """``point``: a placement on an occupied point."""
    OPENING_REMOVAL_DUE = "opening removal due"
    """``player``, ``opponent``: not a removal, during the opening removals."""
    JARE_REMOVAL_DUE = "jare removal due"
    """``player``, ``opponent``: not a removal, after a jare."""
    OWN_STONE = "own stone"
    """``point``, ``player``, ``opponent``: removing one's own stone."""
    NOTHING_TO_REMOVE = "nothing to remove"
    """``point``, ``opponent``: removing from an empty point."""
    ALL_PLACED = "all placed"
    """``player``: a placement in the movement phase."""
    NO_REMOVAL_DUE = "no removal due"
    """``player``: a removal with none due."""
    OPPONENTS_STONE = "opponent's stone"
    """``point``, ``player``, ``opponent``: moving the opponent's stone."""
    NOTHING_TO_MOVE = "nothing to move"
    """``point``, ``player``: moving from an empty point."""
    NOT_ADJACENT = "not adjacent"
    """``src``, ``dst``, ``near``: a step to a point that is not next to it."""
    OCCUPIED = "occupied"
    """``point``: a step onto a stone."""
    MUST_FREE = "must free"
    """``player``, ``opponent``: a move that leaves the blocked opponent blocked."""
    NOT_ALLOWED = "not allowed"
    """Anything else (unreachable with the rules of RULES.md)."""
