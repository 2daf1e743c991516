"""Random movement-phase positions for the table tests."""

from __future__ import annotations

from engine.position import Position
from engine.tables import verify

MATERIALS: dict[str, list[tuple[int, int]]] = {
    "jar": [(3, 3)],
    "shax-small": [(a, b) for a in range(3, 9) for b in range(3, 9) if a + b < 16],
    "shax": [(3, 3), (4, 3), (3, 4), (4, 4)],
}


def random_positions(variant: str, count: int, seed: int) -> list[Position]:
    """Positions in the built tables, not over."""
    return verify.random_positions(variant, MATERIALS[variant], count, seed)
