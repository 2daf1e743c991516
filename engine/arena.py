"""``python -m engine.arena``: games between two AI levels (or a level and a random player).

Games come in pairs from the same random opening (the first few placements), with the
colours swapped, so each side places first equally often. Prints wins, draws and losses
of ``--a``, its score and the Elo difference with a 95% error bar.

    python -m engine.arena --a hard --b medium --games 40 --variant shax --movetime 0.5
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from engine.ai import DEFAULT_MOVETIME, LEVELS, choose_action
from engine.position import Position
from engine.variants import VARIANT_IDS, Color

RANDOM = "random"


@dataclass(frozen=True)
class Player:
    """One side of a match: a level (or ``random``), with an optional fixed time or depth."""

    level: str
    movetime: float | None = None
    depth: int | None = None

    @property
    def label(self) -> str:
        if self.level == RANDOM:
            return RANDOM
        if self.depth is not None:
            return f"{self.level}@d{self.depth}"
        return f"{self.level}@{self.movetime or DEFAULT_MOVETIME[self.level]:g}s"


@dataclass(frozen=True)
class GameResult:
    index: int
    a_color: Color
    winner: Color | None
    termination: str
    plies: int
    record: str
    a_time: float
    a_moves: int
    b_time: float
    b_moves: int

    @property
    def a_score(self) -> float:
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner is self.a_color else 0.0


def opening(variant: str, plies: int, rng: random.Random) -> list[str]:
    """Random first placements (the openings the pairs of games start from)."""
    position = Position.initial(variant)
    record: list[str] = []
    for _ in range(plies):
        if position.outcome is not None:
            break
        action = rng.choice(position.legal_actions())
        record.append(action.notation(position.variant))
        position = position.play(action)
        if position.outcome is not None:  # a random start that already decided a jar game
            return record[:-1]
    return record


def play_game(
    variant: str, a: Player, b: Player, a_color: Color, start: Sequence[str], seed: int, index: int
) -> GameResult:
    """One game from ``start``: ``a`` plays ``a_color``."""
    rng = random.Random(seed)
    position = Position.initial(variant)
    record: list[str] = []
    for text in start:
        position = position.apply(text)
        record.append(text)
    times = {a_color: 0.0, a_color.other: 0.0}
    moves = {a_color: 0, a_color.other: 0}
    while position.outcome is None:
        mover = Color(position.turn)
        player = a if mover is a_color else b
        t0 = time.perf_counter()
        if player.level == RANDOM:
            action = rng.choice(position.legal_actions()).notation(position.variant)
        else:
            action = choose_action(
                variant,
                record,
                player.level,
                movetime=player.movetime,
                seed=rng.getrandbits(32),
                depth=player.depth,
            ).action
        times[mover] += time.perf_counter() - t0
        moves[mover] += 1
        position = position.apply(action)
        record.append(action)
    outcome = position.outcome
    return GameResult(
        index,
        a_color,
        outcome.winner,
        outcome.termination.value,
        len(record),
        " ".join(record),
        times[a_color],
        moves[a_color],
        times[a_color.other],
        moves[a_color.other],
    )


def elo(score: float) -> float:
    """Elo difference for an expected score in (0, 1)."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_interval(scores: Sequence[float]) -> tuple[float, float, float]:
    """Elo difference and its 95% interval from per-game scores (1, 0.5, 0).

    The interval is Wilson's for the mean score, which stays finite and honest when one
    side wins every game (draws make it a little wider than it needs to be).
    """
    n = len(scores)
    mean = sum(scores) / n
    z = 1.96
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return elo(mean), elo(centre - half), elo(centre + half)


def summarize(a: Player, b: Player, results: Sequence[GameResult]) -> str:
    wins = sum(1 for r in results if r.a_score == 1.0)
    draws = sum(1 for r in results if r.a_score == 0.5)
    losses = len(results) - wins - draws
    scores = [r.a_score for r in results]
    pct = 100.0 * sum(scores) / len(scores)
    mid, lo, hi = elo_interval(scores)

    def fmt(x: float) -> str:
        return f"{x:+.0f}" if abs(x) < 2000 else (">+2000" if x > 0 else "<-2000")

    a_time = sum(r.a_time for r in results) / max(1, sum(r.a_moves for r in results))
    b_time = sum(r.b_time for r in results) / max(1, sum(r.b_moves for r in results))
    plies = sum(r.plies for r in results) / len(results)
    endings: dict[str, int] = {}
    for r in results:
        endings[r.termination] = endings.get(r.termination, 0) + 1
    ends = ", ".join(f"{k}: {v}" for k, v in sorted(endings.items()))
    return (
        f"{a.label} vs {b.label}: {len(results)} games, +{wins} ={draws} -{losses}, "
        f"score {pct:.1f}%, Elo {fmt(mid)} (95%: {fmt(lo)} .. {fmt(hi)})\n"
        f"  mean plies {plies:.0f}; seconds per move: {a.label} {a_time:.3f}, "
        f"{b.label} {b_time:.3f}; endings: {ends}"
    )


def run_match(
    variant: str,
    a: Player,
    b: Player,
    games: int,
    seed: int,
    workers: int,
    min_open: int,
    max_open: int,
    verbose: bool = True,
) -> list[GameResult]:
    """Play ``games`` games (rounded up to pairs) in a process pool."""
    rng = random.Random(seed)
    tasks = []
    for pair in range((games + 1) // 2):
        start = opening(variant, rng.randint(min_open, max_open), rng)
        for a_color in (Color.WHITE, Color.BLACK):
            index = 2 * pair + (a_color is Color.BLACK)
            tasks.append((variant, a, b, a_color, start, rng.getrandbits(32), index))
    results: list[GameResult] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_game, *t) for t in tasks]
        for fut in as_completed(futures):
            r = fut.result()
            results.append(r)
            if verbose:
                outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[r.a_score]
                print(
                    f"game {r.index + 1:3d}: {a.label} as {r.a_color.label}: {outcome} "
                    f"({r.termination}, {r.plies} plies)",
                    flush=True,
                )
    results.sort(key=lambda r: r.index)
    return results


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.arena", description=__doc__.split("\n")[0]
    )
    choices = [*LEVELS, RANDOM]
    parser.add_argument("--a", default="hard", choices=choices, help="the player scored")
    parser.add_argument("--b", default="medium", choices=choices, help="the opponent")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--variant", choices=VARIANT_IDS, default="shax")
    parser.add_argument("--movetime", type=float, default=None, help="seconds per move, both")
    parser.add_argument("--movetime-a", type=float, default=None)
    parser.add_argument("--movetime-b", type=float, default=None)
    parser.add_argument("--depth-a", type=int, default=None, help="fixed depth for --a")
    parser.add_argument("--depth-b", type=int, default=None, help="fixed depth for --b")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--min-open", type=int, default=2, help="fewest random placements")
    parser.add_argument("--max-open", type=int, default=6, help="most random placements")
    parser.add_argument("--quiet", action="store_true", help="print the summary only")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    a = Player(args.a, args.movetime_a or args.movetime, args.depth_a)
    b = Player(args.b, args.movetime_b or args.movetime, args.depth_b)
    t0 = time.perf_counter()
    results = run_match(
        args.variant,
        a,
        b,
        args.games,
        args.seed,
        args.workers,
        args.min_open,
        args.max_open,
        verbose=not args.quiet,
    )
    print(summarize(a, b, results))
    print(f"  {time.perf_counter() - t0:.0f} s on {args.workers} workers, variant {args.variant}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
