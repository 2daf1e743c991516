"""The shapes of puzzles: the board's symmetries, a position's canonical form under them,
and the themes a puzzle's solution shows (:class:`~engine.tables.puzzles.PuzzleTheme`).

Two puzzles are the same puzzle when one position is the other's image under a symmetry
of the board (a rotation, a reflection, or on the boards of squares swapping the inner
and the outer ring, which keeps every line and every join) with the colours swapped or
not: the solver is whoever acts. :func:`canonical` names that class of positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.moments import has_irmaan, lines_completed
from engine.position import Phase, Position, Step
from engine.tables.puzzles import PuzzleTheme, StepActions, after
from engine.variants import Color, Variant, get_variant, iter_bits

Permutation = tuple[int, ...]
"""A symmetry: ``p[i]`` is the point that point ``i`` goes to."""


def _candidates(v: Variant) -> list[Permutation]:
    """The square's eight symmetries, each with and without the rings swapped, as maps of
    the grid; those that are not maps of the board's points are left out here."""
    centre = (v.grid - 1) // 2
    at = {v.coords(i): i for i in range(v.size)}
    rings = sorted({max(abs(x - centre), abs(y - centre)) for x, y in at})
    found = []
    for swap in (False, True):
        ring_of = dict(zip(rings, reversed(rings), strict=True)) if swap else {}
        for turns in range(4):
            for mirror in (False, True):
                image = []
                for i in range(v.size):
                    x, y = v.coords(i)
                    dx, dy = x - centre, y - centre
                    if swap:
                        r = max(abs(dx), abs(dy))
                        if r == 0 or ring_of[r] == 0:
                            break
                        dx, dy = dx * ring_of[r] // r, dy * ring_of[r] // r
                    if mirror:
                        dx = -dx
                    for _ in range(turns):
                        dx, dy = -dy, dx
                    target = at.get((centre + dx, centre + dy))
                    if target is None:
                        break
                    image.append(target)
                else:
                    found.append(tuple(image))
    return found


def map_mask(permutation: Permutation, mask: int) -> int:
    out = 0
    for i in iter_bits(mask):
        out |= 1 << permutation[i]
    return out


@cache
def symmetries(variant: str) -> tuple[Permutation, ...]:
    """Every symmetry of the board: the maps of its points onto themselves that keep its
    lines of three and its adjacency (the identity first)."""
    v = get_variant(variant)
    lines = set(v.lines)
    edges = {frozenset(e) for e in v.edges}
    kept: list[Permutation] = []
    for p in _candidates(v):
        if len(set(p)) != v.size:
            continue
        if {map_mask(p, line) for line in lines} != lines:
            continue
        if {frozenset((p[a], p[b])) for a, b in v.edges} != edges:
            continue
        if p not in kept:
            kept.append(p)
    return tuple(kept)


Canonical = tuple[str, str, str, int, int, int, int, int]


def canonical(position: Position) -> Canonical:
    """The position up to the board's symmetries and the colours: the board's stones
    (the solver's, then the other side's) least under every symmetry, with the phase,
    the step, the stones in hand and who made the first jare (none, the solver, the
    other), all seen from the player who acts."""
    me = position.turn
    mine, theirs = position.stones(me), position.stones(1 - me)
    board = min((map_mask(p, mine), map_mask(p, theirs)) for p in symmetries(position.variant.id))
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
        answered = after(start, first)
        if answered.outcome is None and len(threats(answered, solver)) >= 2:
            found.add(PuzzleTheme.DOUBLE_THREAT)
    had_irmaan = has_irmaan(start, solver)
    position = start
    for step in line:
        mine = position.turn == me
        if mine and position.step is Step.FREE and lines_completed(position, step[0]):
            found.add(PuzzleTheme.OODAN)
        if not mine and len(step) == 2:
            found.add(PuzzleTheme.SACRIFICE)
        position = after(position, step)
        if mine and position.blocked is solver.other and position.outcome is None:
            found.add(PuzzleTheme.XADHIG)
        if mine and not had_irmaan and has_irmaan(position, solver):
            found.add(PuzzleTheme.IRMAAN)
    return tuple(t for t in PuzzleTheme if t in found)
