"""Perft counts (leaf nodes of the game tree to a fixed depth) as regression tests.

The first counts are checked by hand: 24·23·22 placements on the empty shax
board; on jar, 9·8·7·6·5·4 placements (a line made while placing wins nothing), and the
first moves after them agree with the compiled core's count.
"""

from __future__ import annotations

import pytest

from engine import Position, replay

SHAX_BLOCKADE = "d5 d7 a4 d1 f6 f4 e4 d3 g7 c3 e3 b4 e5 b2 c5 b6 a7 f2 d2 g4 c4 d6 a1 g1 xg1 xd2"
SHAX_MIDGAME = (
    "d2 b4 d7 g7 a4 b2 g4 c3 e5 e3 a1 e4 c5 a7 c4 f4 f6 b6 d3 d1 g1 d5 d6 f2 xg1 xf4 "
    "f2-f4 d2-f2 d1-g1 f2-d2 g1-d1 d2-f2 b2-d2 g4-g1 d2-b2 xd3 g1-g4 c3-d3 g4-g1 b2-d2 "
    "xg1 c4-c3 f4-g4 c5-c4 b4-b2 f6-f4 g4-g1 f4-g4 b6-b4 d6-f6 b4-b6 c4-b4 b6-d6 f6-f4 "
    "d5-c5 e5-d5 e4-e5 c3-c4 xe3 e5-e4"
)
SMALL_REMOVALS = "a1 a3 a5 c5 e5 e3 e1 c1 b2 b3 b4 c4 d4 d3 d2 c2"


def perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    actions = position.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft(position.play(a), depth - 1) for a in actions)


@pytest.mark.parametrize(
    ("variant", "record", "counts"),
    [
        ("shax", "", [24, 552, 12144]),
        ("jar", "", [9, 72, 504, 3024, 15120, 60480, 175536]),
        ("shax", SHAX_BLOCKADE, [4, 4, 11, 69, 244]),
        ("shax", SHAX_MIDGAME, [4, 25, 130, 781]),
        ("shax-small", SMALL_REMOVALS, [8, 64, 176, 432]),
    ],
    ids=["shax-start", "jar-start", "shax-blockade", "shax-midgame", "small-removals"],
)
def test_perft_counts(variant: str, record: str, counts: list[int]) -> None:
    position = replay(variant, record)
    assert [perft(position, d) for d in range(1, len(counts) + 1)] == counts
