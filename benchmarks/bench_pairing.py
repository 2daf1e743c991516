"""Benchmark of tournament pairing: Swiss rounds and arena waves of growing size.

    python benchmarks/bench_pairing.py                  # 16, 32, 64 and 128 players
    python benchmarks/bench_pairing.py --players 200    # one size

A Swiss of each size is played for seven rounds (the higher seed wins, every third board
drawn), each round paired from the games so far (``swiss_players`` then ``swiss_round``,
as the service does); the slowest round and the whole event are timed. An arena wave pairs
all the players at once, each with a last opponent, as at an arena's start. The matching is
pure Python (networkx), so a large event's pairing belongs off the event loop.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.tournaments.pairing import ArenaPlayer, arena_pairs, swiss_round
from bot.tournaments.scoring import Bye, Entrant, Game, GameResult, swiss_players

ROUNDS = 7


def swiss(n: int) -> tuple[float, float]:
    """The slowest round's seconds and the whole event's."""
    people = [Entrant(i, 2000.0 - i) for i in range(1, n + 1)]
    games: list[Game] = []
    byes: list[Bye] = []
    slowest = 0.0
    start = time.perf_counter()
    for number in range(1, ROUNDS + 1):
        began = time.perf_counter()
        paired = swiss_round(swiss_players(people, games, byes))
        slowest = max(slowest, time.perf_counter() - began)
        if paired.bye is not None:
            byes.append(Bye(number, paired.bye))
        for board, (white, black) in enumerate(paired.pairs):
            won: GameResult = "white" if white < black else "black"
            result: GameResult = "draw" if board % 3 == 2 else won
            games.append(Game(number, white, black, result))
    return slowest, time.perf_counter() - start


def arena(n: int) -> float:
    free = [ArenaPlayer(i, (i * 7) % 23, seed=1500.0 + i, last_opponent=i ^ 1) for i in range(n)]
    began = time.perf_counter()
    arena_pairs(free)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, action="append")
    sizes = parser.parse_args().players or [16, 32, 64, 128]
    print(f"{'players':>8} {'swiss round max':>16} {'7 rounds':>10} {'arena wave':>11}")
    for n in sizes:
        slowest, total = swiss(n)
        print(f"{n:>8} {slowest:>15.3f}s {total:>9.2f}s {arena(n):>10.3f}s")


if __name__ == "__main__":
    main()
