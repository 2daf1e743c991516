"""The shapes of puzzles: the boards' symmetries, a position's canonical form under them
and the colours, and the themes a solution shows."""

from __future__ import annotations

import random

import pytest

from engine.position import Phase, Position, Step
from engine.tables.native import symmetries
from engine.tables.puzzle_shapes import canonical, map_mask, themes_of, threats
from engine.tables.puzzles import PuzzleTheme, StepActions
from engine.variants import Color, get_variant

COUNTS = {"shax": 16, "shax-small": 16, "jar": 8}
"""The square's eight symmetries, and on the boards of squares the rings swapped too."""


@pytest.mark.parametrize("variant", sorted(COUNTS))
def test_each_board_has_its_symmetries_and_each_keeps_lines_and_joins(variant: str) -> None:
    v = get_variant(variant)
    found = symmetries(v)
    assert len(found) == COUNTS[variant] == len(set(found))
    assert found[0] == tuple(range(v.size))
    edges = {frozenset(e) for e in v.edges}
    for p in found:
        assert sorted(p) == list(range(v.size))
        assert {map_mask(p, line) for line in v.lines} == set(v.lines)
        assert {frozenset((p[a], p[b])) for a, b in v.edges} == edges
        for q in found:  # a group: any two, one after the other, are one of them
            assert tuple(q[p[i]] for i in range(v.size)) in found


def test_swapping_the_rings_of_shax_maps_the_outer_square_on_the_inner() -> None:
    v = get_variant("shax")
    outer = v.lines[v.lines.index(sum(1 << v.point(n) for n in ("a1", "d1", "g1")))]
    images = {map_mask(p, outer) for p in symmetries(v)}
    inner = {sum(1 << v.point(n) for n in names) for names in (("c3", "d3", "e3"),)}
    assert inner <= images


def random_position(variant: str, rng: random.Random) -> Position:
    v = get_variant(variant)
    points = list(v.points)
    rng.shuffle(points)
    n = rng.randint(3, v.pieces)
    m = rng.randint(3, v.pieces)
    return Position.setup(variant, points[:n], points[n : n + m], rng.choice(list(Color)))


def image(position: Position, permutation: tuple[int, ...], swap: bool) -> Position:
    v = position.variant
    white = v.names(map_mask(permutation, position.white))
    black = v.names(map_mask(permutation, position.black))
    turn = Color(position.turn)
    if swap:
        white, black, turn = black, white, turn.other
    return Position.setup(v, white, black, turn)


@pytest.mark.parametrize("variant", sorted(COUNTS))
def test_a_position_and_its_images_are_one_puzzle_and_others_are_not(variant: str) -> None:
    rng = random.Random(variant)
    seen = set()
    for _ in range(30):
        position = random_position(variant, rng)
        if position.step is not Step.MOVE or position.outcome is not None:
            continue
        key = canonical(position)
        moves = len(position.legal_actions())
        for p in symmetries(get_variant(variant)):
            for swap in (False, True):
                other = image(position, p, swap)
                assert canonical(other) == key
                assert len(other.legal_actions()) == moves  # the same game, moved
        seen.add(key)
    assert len(seen) >= 20  # random positions: different ones stay apart


def test_the_canonical_form_tells_placement_and_first_jare_apart() -> None:
    start = Position.initial("shax-small")
    placed = start.apply("a1")
    assert canonical(placed) != canonical(start)
    assert canonical(placed)[1] == Phase.PLACEMENT.value
    corner = start.apply("e5")  # the other corner: the same puzzle up to symmetry
    assert canonical(corner) == canonical(placed)
    assert canonical(start.apply("a3")) != canonical(placed)


def steps_of(position: Position, *texts: str) -> list[StepActions]:
    """The line written as steps (``"a1-a3 xc5"`` a move and its removal)."""
    line = []
    for text in texts:
        step = []
        for action in text.split():
            step.append(position.parse(action))
            position = position.play(step[-1])
        line.append(tuple(step))
    return line


def test_a_jare_that_takes_a_stone_and_a_quiet_move_are_told_apart() -> None:
    position = Position.setup("shax-small", ["a1", "a3", "c5", "e1"], ["b3", "d4", "c1"], "white")
    line = steps_of(position, "c5-a5 xb3")
    assert PuzzleTheme.JARE_WINS_STONE in themes_of(position, line)
    assert PuzzleTheme.QUIET_MOVE not in themes_of(position, line)
    quiet = steps_of(position, "e1-e3")
    assert PuzzleTheme.QUIET_MOVE in themes_of(position, quiet)
    assert PuzzleTheme.JARE_WINS_STONE not in themes_of(position, quiet)


def test_two_threats_at_once_are_a_double_threat() -> None:
    v = get_variant("shax-small")
    position = Position.setup(
        "shax-small", ["e5", "a5", "b4", "d3", "d4"], ["a3", "e3", "a1", "b3"], "white"
    )
    assert threats(position, Color.WHITE) == set()
    # d4-c4 waits to close a5 c5 e5 (c4-c5) and b4 c4 d4 (d3-d4): two points to guard.
    moved = position.apply("d4-c4")
    assert threats(moved, Color.WHITE) == {v.point("c5"), v.point("d4")}
    themes = themes_of(position, steps_of(position, "d4-c4"))
    assert PuzzleTheme.DOUBLE_THREAT in themes and PuzzleTheme.QUIET_MOVE in themes
    # One threat only is not.
    single = themes_of(position, steps_of(position, "b4-c4"))
    assert PuzzleTheme.DOUBLE_THREAT not in single


def test_a_step_that_leaves_the_defence_no_move_is_xadhig() -> None:
    position = Position.setup(
        "shax-small", ["c4", "d3", "b3", "e3", "c2"], ["c5", "d2", "e5", "a5"], "white"
    )
    blocking = position.apply("b3-a3")
    assert blocking.blocked is Color.BLACK and blocking.step is Step.FREE
    assert PuzzleTheme.XADHIG in themes_of(position, steps_of(position, "b3-a3"))
    assert PuzzleTheme.XADHIG not in themes_of(position, steps_of(position, "c2-c1"))


def test_a_placement_answer_has_the_placement_themes() -> None:
    position = Position.initial("shax-small")
    for point in ("a1", "b2", "a3", "b3", "c1", "d2"):
        position = position.apply(point)
    # White (a1 a3 c1) closes a1 a3 a5 with a5, the first jare of the game.
    themes = themes_of(position, steps_of(position, "a5"))
    assert PuzzleTheme.PLACEMENT_RACE in themes and PuzzleTheme.FIRST_JARE in themes
    assert PuzzleTheme.LABA_QAAD not in themes
    # e1 closes a1 c1 e1 the same way; a stone that closes nothing is the race alone.
    assert themes_of(position, steps_of(position, "e3")) == (PuzzleTheme.PLACEMENT_RACE,)


def test_a_later_quiet_step_that_forks_is_a_double_threat() -> None:
    """The fork may come after the answer: white's c2-c1, black's a3-a1, and white's
    c1-c2 back leaves two points to guard."""
    position = Position.setup(
        "shax-small", ["b2", "e3", "c2", "c5", "e1", "d3"], ["b3", "b4", "d4", "c4", "a3"], "white"
    )
    line = steps_of(position, "c2-c1", "a3-a1", "c1-c2")
    assert len(threats(after_line(position, line[:1]), Color.WHITE)) < 2
    assert len(threats(after_line(position, line), Color.WHITE)) >= 2
    assert PuzzleTheme.DOUBLE_THREAT not in themes_of(position, line[:2])
    assert PuzzleTheme.DOUBLE_THREAT in themes_of(position, line)


def after_line(position: Position, line: list[StepActions]) -> Position:
    for step in line:
        for action in step:
            position = position.play(action)
    return position


def test_a_freeing_move_that_closes_a_line_is_oodan_whoever_makes_it() -> None:
    """White's a5-c5 leaves black no move (xadhig); white must open a way, and b3-b2
    closes b2 c2 d2 while doing it: oodan, it takes nothing."""
    position = Position.setup(
        "shax-small", ["d2", "b3", "e3", "a5", "d4", "c2"], ["d3", "b4", "c4"], "white"
    )
    line = steps_of(position, "a5-c5", "b3-b2")
    freed = after_line(position, line)
    assert freed.turn == Color.BLACK.value and freed.step is Step.MOVE  # no removal due
    assert freed.stones(Color.BLACK) == position.stones(Color.BLACK)
    themes = themes_of(position, line)
    assert PuzzleTheme.OODAN in themes and PuzzleTheme.XADHIG in themes
    other = [f for f in position.play(position.parse("a5-c5")).legal_actions()]
    quiet = next(f for f in other if f.notation(position.variant) != "b3-b2")
    plain = themes_of(position, [line[0], (quiet,)])
    assert PuzzleTheme.OODAN not in plain and PuzzleTheme.XADHIG in plain
    # Black solves; white, the defence, blocks black and its freeing c5-c4 closes
    # b4 c4 d4: the defence's jare that takes nothing is oodan too.
    solving = Position.setup(
        "shax-small", ["c2", "b4", "c5", "d2", "d4", "c1"], ["a1", "a5", "b2", "b3"], "black"
    )
    defended = steps_of(solving, "a1-a3", "c1-a1", "c5-c4")
    assert PuzzleTheme.OODAN in themes_of(solving, defended)
    assert PuzzleTheme.XADHIG not in themes_of(solving, defended)  # the solver was blocked


def test_a_placement_that_closes_two_lines_at_once_is_laba_qaad() -> None:
    """White's a1 closes a1 a3 a5 and a1 c1 e1 at once (two jare, laba-qaad); a
    placement that closes one is not."""
    position = Position.initial("shax-small")
    for point in ("a3", "b2", "a5", "b3", "c1", "d2", "e1", "d3"):
        position = position.apply(point)
    assert position.turn == Color.WHITE.value and position.first_jare is None
    themes = themes_of(position, steps_of(position, "a1"))
    assert PuzzleTheme.LABA_QAAD in themes and PuzzleTheme.FIRST_JARE in themes
    one = themes_of(position, steps_of(position, "e5"))  # e5 closes a5 c5 e5? no: c5 empty
    assert PuzzleTheme.LABA_QAAD not in one
