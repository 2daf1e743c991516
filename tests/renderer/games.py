"""Random legal games for the renderer tests: a seeded walk over legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import Action, Position, get_variant, iter_positions


def random_record(variant: str, seed: int, max_actions: int = 400) -> list[str]:
    """A legal record: actions picked by a seeded ``random.Random`` until the game ends."""
    rng = random.Random(seed)
    v = get_variant(variant)
    position = Position.initial(v)
    record: list[str] = []
    while not position.is_over and len(record) < max_actions:
        action = rng.choice(position.legal_actions())
        record.append(action.notation(v))
        position = position.play(action)
    return record


Found = tuple[list[str], Position, Action, Position]


def find_record(
    variant: str,
    wanted: Callable[[Position, Action, Position], bool],
    seeds: range = range(500),
) -> Found:
    """The shortest prefix of some random game whose last step satisfies ``wanted``
    (called with the position, the action that led to it, and the one before)."""
    for seed in seeds:
        record = random_record(variant, seed)
        previous: Position | None = None
        for k, (position, action) in enumerate(iter_positions(variant, record)):
            if action is not None and previous is not None and wanted(position, action, previous):
                return record[:k], position, action, previous
            previous = position
    raise LookupError(f"no random {variant} game reaches the wanted step")
