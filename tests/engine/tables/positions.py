"""Random movement-phase positions for the table tests."""

from __future__ import annotations

import random

from engine.position import Position
from engine.variants import Color, Variant, get_variant

MATERIALS: dict[str, list[tuple[int, int]]] = {
    "jar": [(3, 3)],
    "shax-small": [(a, b) for a in range(3, 9) for b in range(3, 9) if a + b < 16],
    "shax": [(3, 3), (4, 3), (3, 4), (4, 4)],
}


def random_position(
    variant: str | Variant, rng: random.Random, material: tuple[int, int]
) -> Position:
    """White and black stones on random points (``material`` = white, black), either to move."""
    v = get_variant(variant)
    white, black = material
    points = rng.sample(v.points, white + black)
    to_move = rng.choice([Color.WHITE, Color.BLACK])
    return Position.setup(v, points[:white], points[white:], to_move)


def random_positions(variant: str, count: int, seed: int) -> list[Position]:
    """Positions in the built tables, not over (a board filled so that nobody can move
    is a draw on the spot)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        p = random_position(variant, rng, rng.choice(MATERIALS[variant]))
        if p.outcome is None:
            out.append(p)
    return out
