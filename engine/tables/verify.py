"""The tables checked against the compiled search: every win or loss a deep search proves
in a random position must be the tables' result, no further away than the search says.

The test suite checks the tables it builds (shax to four stones a side, the small boards
whole); ``python benchmarks/bench_tables.py --check N`` checks every material of a built
folder, six stones included.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.position import Position
from engine.tables import Tables
from engine.variants import Color, Variant, get_variant


def random_position(
    variant: str | Variant, rng: random.Random, material: tuple[int, int]
) -> Position:
    """White and black stones on random points (``material`` = white, black), either to move."""
    v = get_variant(variant)
    white, black = material
    points = rng.sample(v.points, white + black)
    to_move = rng.choice([Color.WHITE, Color.BLACK])
    return Position.setup(v, points[:white], points[white:], to_move)


def random_positions(
    variant: str, materials: list[tuple[int, int]], count: int, seed: int
) -> list[Position]:
    """``count`` positions of the ``materials`` that are not over (a board filled so that
    nobody can move is a draw on the spot)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        p = random_position(variant, rng, rng.choice(materials))
        if p.outcome is None:
            out.append(p)
    return out


@dataclass
class Agreement:
    """What a check found: the results the search proved, and any position where the
    tables said otherwise."""

    wins: int = 0
    losses: int = 0
    unproved: int = 0
    disagreements: list[Position] = field(default_factory=list)


def check_against_search(tables: Tables, positions: list[Position], depth: int) -> Agreement:
    """Search each position ``depth`` plies (without the tables) and compare every win or
    loss it proves with the tables: the same result, in no more moves (the search counts
    a removal as a ply of its own, so its distance is never shorter)."""
    from engine.ai import core
    from engine.ai.levels import weights_for

    params = core.make_params(weights_for(tables.variant.id), max_depth=depth, tt_log2=18)
    found = Agreement()
    for position in positions:
        score = core.search(position, params).score
        if abs(score) <= core.MATE_BOUND:
            found.unproved += 1
            continue
        value = tables.probe(position)
        result = "win" if score > 0 else "loss"
        if value is None or value.result != result or value.moves > core.MATE - abs(score):
            found.disagreements.append(position)
        elif result == "win":
            found.wins += 1
        else:
            found.losses += 1
    return found
