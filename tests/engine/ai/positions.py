"""Hand-built positions for the AI's tests: stones by point name, and who is to act."""

from __future__ import annotations

from engine.position import Phase, Position, Step, _begin_turn
from engine.variants import Color, get_variant


def mask(variant: str, points: str) -> int:
    v = get_variant(variant)
    out = 0
    for name in points.split():
        out |= 1 << v.point(name)
    return out


def movement(
    variant: str,
    white: str,
    black: str,
    due: Color,
    clock: int = 0,
    history: tuple[int, ...] = (),
) -> Position:
    """The movement-phase position where ``due`` is to move (or, if blocked, is being freed)."""
    v = get_variant(variant)
    return _begin_turn(
        v, mask(variant, white), mask(variant, black), (0, 0), due.value, -1, clock, history
    )


def capture(variant: str, white: str, black: str, remover: Color) -> Position:
    """``remover`` has just formed a jare and removes an opponent stone."""
    v = get_variant(variant)
    return Position(
        v,
        mask(variant, white),
        mask(variant, black),
        (0, 0),
        remover.value,
        Phase.MOVEMENT,
        Step.REMOVE,
    )


def placement(variant: str, white: str, black: str, first_jare: Color | None = None) -> Position:
    """A placement position; the player with fewer stones placed is to place (white on a tie)."""
    v = get_variant(variant)
    w, b = mask(variant, white), mask(variant, black)
    nw, nb = w.bit_count(), b.bit_count()
    turn = 0 if nw == nb else 1
    first = -1 if first_jare is None else first_jare.value
    return Position(
        v, w, b, (v.pieces - nw, v.pieces - nb), turn, Phase.PLACEMENT, Step.PLACE, first
    )


def key(position: Position) -> int:
    return position.key
