"""Rules-engine speed: legal-action generation and random playouts, per variant.

Run: python benchmarks/bench_engine.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import VARIANT_IDS, Position


def sample_positions(variant: str, count: int, rng: random.Random) -> list[Position]:
    """Positions from seeded random games, every phase represented."""
    positions: list[Position] = []
    while len(positions) < count:
        p = Position.initial(variant)
        while not p.is_over:
            positions.append(p)
            p = p.play(rng.choice(p.legal_actions()))
    return positions[:count]


def bench_legal(variant: str, rng: random.Random) -> tuple[float, float]:
    positions = sample_positions(variant, 5000, rng)
    actions = 0
    start = time.perf_counter()
    for _ in range(3):
        for p in positions:
            actions += len(p.legal_actions())
    elapsed = time.perf_counter() - start
    return 3 * len(positions) / elapsed, actions / elapsed


def bench_playouts(variant: str, games: int, rng: random.Random) -> tuple[float, float]:
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        p = Position.initial(variant)
        while not p.is_over:
            p = p.play(rng.choice(p.legal_actions()))
            plies += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, plies / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    print(f"{'variant':<11} {'positions/s':>12} {'actions/s':>12} {'games/s':>9} {'plies/s':>10}")
    for variant in VARIANT_IDS:
        rng = random.Random(2026)
        pos_rate, act_rate = bench_legal(variant, rng)
        game_rate, ply_rate = bench_playouts(variant, args.games, rng)
        print(
            f"{variant:<11} {pos_rate:>12,.0f} {act_rate:>12,.0f} {game_rate:>9,.1f} "
            f"{ply_rate:>10,.0f}"
        )


if __name__ == "__main__":
    main()
