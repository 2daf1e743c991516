"""The shapes of puzzles: a position's canonical form under the board's symmetries
(:func:`~engine.tables.native.symmetries`), and the themes a puzzle's solution shows
(:class:`~engine.tables.puzzles.PuzzleTheme`).

Two puzzles are the same puzzle when one position is the other's image under a symmetry
of the board (a rotation, a reflection, or on the boards of squares swapping the inner
and the outer ring, which keeps every line and every join) with the colours swapped or
not: the solver is whoever acts. :func:`canonical` names that class of positions.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.moments import has_irmaan, lines_completed
from engine.position import Phase, Position, Step
from engine.tables.native import symmetries
from engine.tables.puzzles import PuzzleTheme, StepActions, after
from engine.variants import Color, iter_bits


def map_mask(permutation: tuple[int, ...], mask: int) -> int:
    """The image of the points ``mask`` under a symmetry (``permutation[i]``: where point
    ``i`` goes)."""
    out = 0
    for i in iter_bits(mask):
        out |= 1 << permutation[i]
    return out


Canonical = tuple[str, str, str, int, int, int, int, int]


def canonical(position: Position) -> Canonical:
    """The position up to the board's symmetries and the colours: the board's stones
    (the solver's, then the other side's) least under every symmetry, with the phase,
    the step, the stones in hand and who made the first jare (none, the solver, the
    other), all seen from the player who acts."""
    me = position.turn
    mine, theirs = position.stones(me), position.stones(1 - me)
    board = min((map_mask(p, mine), map_mask(p, theirs)) for p in symmetries(position.variant))
    first = position.first_jare
    whose = 0 if first is None else 1 if first.value == me else 2
    return (
        position.variant.id,
        position.phase.value,
        position.step.value,
        position.in_hand(me),
        position.in_hand(1 - me),
        whose,
        *board,
    )


# -- themes ----------------------------------------------------------------------------


def threats(position: Position, color: Color) -> set[int]:
    """The empty points where a move of ``color`` would complete a jare now: a point on a
    line whose other two points are ``color``'s, next to another stone of ``color``."""
    v = position.variant
    own = position.stones(color)
    found = set()
    for q in iter_bits(position.empty):
        for line in v.lines_through[q]:
            rest = line & ~(1 << q)
            if own & rest == rest and v.adjacent[q] & own & ~line:
                found.add(q)
    return found


def themes_of(start: Position, line: Sequence[StepActions]) -> tuple[PuzzleTheme, ...]:
    """The themes of the puzzle at ``start`` solved by ``line`` (the solver's steps and
    the defence's between them), in :class:`PuzzleTheme` order."""
    me = start.turn
    solver = Color(me)
    found: set[PuzzleTheme] = set()
    first = line[0]
    made = lines_completed(start, first[0])
    if start.phase is Phase.PLACEMENT:
        found.add(PuzzleTheme.PLACEMENT_RACE)
        if len(made) >= 2:
            found.add(PuzzleTheme.LABA_QAAD)
        if made and start.first_jare is None:
            found.add(PuzzleTheme.FIRST_JARE)
    elif start.phase is Phase.REMOVAL:
        found.add(PuzzleTheme.OPENING_REMOVAL)
    else:
        moved = start.play(first[0])
        if moved.outcome is not None and moved.outcome.winner is solver:
            found.add(PuzzleTheme.THREE_IN_A_ROW)
        if len(first) == 2:
            found.add(PuzzleTheme.JARE_WINS_STONE)
        if not made:
            found.add(PuzzleTheme.QUIET_MOVE)
    had_irmaan = has_irmaan(start, solver)
    position = start
    for index, step in enumerate(line):
        mine = position.turn == me
        if position.step is Step.FREE and lines_completed(position, step[0]):
            found.add(PuzzleTheme.OODAN)  # whoever frees: the jare takes nothing
        if not mine and len(step) == 2:
            found.add(PuzzleTheme.SACRIFICE)
        position = after(position, step)
        forks = (index == 0 or len(step) == 1) and start.phase is Phase.MOVEMENT
        if mine and forks and position.outcome is None and len(threats(position, solver)) >= 2:
            found.add(PuzzleTheme.DOUBLE_THREAT)
        if mine and position.blocked is solver.other and position.outcome is None:
            found.add(PuzzleTheme.XADHIG)
        if mine and not had_irmaan and has_irmaan(position, solver):
            found.add(PuzzleTheme.IRMAAN)
    return tuple(t for t in PuzzleTheme if t in found)
