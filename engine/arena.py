"""``python -m engine.arena``: games between two AI levels (or a level and a random player).

Games come in pairs from the same random opening (the first few placements), with the
colours swapped, so each side places first equally often. Openings are drawn at random
and kept only when a shallow search finds them balanced. Prints wins, draws and losses
of ``--a``, its score and the Elo difference with a 95% error bar, counted by games and
by pairs (a pair scores 0 to 2 points; when the colour decides most games, the pairs
are the independent samples and their interval is the one to quote).

    python -m engine.arena --a hard --b medium --games 40 --variant shax --movetime 0.5
    python -m engine.arena --a master --b baseline@3a13e0e --movetime 0.3 --games 40
    python -m engine.arena --a master --b hard --games 20 --records /tmp/games.jsonl

``--tables-a DIR`` and ``--tables-b DIR`` give a side its own endgame tables and
full-board values (``SHAX_TABLES_DIR`` for its moves; an empty folder: none), so that
two installs can be compared as each would play.

``--records`` appends each game to a file as a line of JSON (players by colour, winner,
termination, record); ``jq -r .record /tmp/games.jsonl | python -m engine analyse``
then scores every move of them.

``baseline@REV`` (or ``baseline@REV:LEVEL``, default level ``master``) is the engine as
it was at git revision REV: the arena extracts that revision into a temporary directory,
builds its C core there and plays it in a separate process, which answers one line of
JSON (variant, record, level, time) with one line of JSON (the action).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path

from engine.ai import DEFAULT_MOVETIME, LEVELS, choose_action, core
from engine.ai.levels import weights_for
from engine.position import Position
from engine.tables import TABLES_ENV
from engine.variants import VARIANT_IDS, Color

RANDOM = "random"
BASELINE = "baseline"
BALANCE = 80
"""Centi-stones: an opening is kept when a shallow search scores it within this."""


@dataclass(frozen=True)
class Player:
    """One side of a match: a level (or ``random``), with an optional fixed time or depth.

    ``revision`` names a git revision to play instead of the current code (a baseline);
    ``tree`` is the directory it was extracted and built in. ``tables`` is the folder of
    endgame tables and full-board values it plays with (default: ``SHAX_TABLES_DIR`` as
    the arena found it).
    """

    level: str
    movetime: float | None = None
    depth: int | None = None
    revision: str | None = None
    tree: str | None = None
    tables: str | None = None

    @property
    def label(self) -> str:
        if self.level == RANDOM:
            return RANDOM
        name = self.level if self.revision is None else f"{BASELINE}@{self.revision}:{self.level}"
        if self.depth is not None:
            return f"{name}@d{self.depth}"
        return f"{name}@{self.movetime or DEFAULT_MOVETIME[self.level]:g}s"


def parse_player(text: str) -> Player:
    """``easy`` .. ``master``, ``random``, or ``baseline@REV[:LEVEL]``."""
    if text in (*LEVELS, RANDOM):
        return Player(text)
    if text.startswith(BASELINE + "@"):
        rev, _, level = text[len(BASELINE) + 1 :].partition(":")
        level = level or "master"
        if rev and level in LEVELS:
            return Player(level, revision=rev)
    raise argparse.ArgumentTypeError(
        f"unknown player {text!r}; choose one of: {', '.join((*LEVELS, RANDOM))}, "
        f"or {BASELINE}@REV[:LEVEL] for the engine at a git revision"
    )


# -- a baseline: the engine at a pinned git revision, in its own process ----------

SERVER = """
import json, sys
from engine.ai import choose_action, warm_up
warm_up()
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    q = json.loads(line)
    try:
        r = choose_action(q["variant"], q["record"], q["level"], movetime=q["movetime"],
                          seed=q["seed"], depth=q["depth"])
        print(json.dumps({"action": r.action, "depth": r.depth}), flush=True)
    except Exception as exc:
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
"""


def repository_root() -> Path:
    here = Path(__file__).resolve().parent
    out = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], cwd=here, capture_output=True, text=True
    )
    if out.returncode != 0:
        raise RuntimeError(f"a baseline needs the git repository: {out.stderr.strip()}")
    return Path(out.stdout.strip())


def resolve_revision(revision: str) -> str:
    """The full commit hash of ``revision`` (a ``RuntimeError`` naming it if unknown)."""
    out = subprocess.run(
        ["git", "rev-parse", "--verify", f"{revision}^{{commit}}"],
        cwd=repository_root(),
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(f"unknown git revision {revision!r}")
    return out.stdout.strip()


@contextlib.contextmanager
def baseline_tree(revision: str) -> Iterator[Path]:
    """The source at ``revision`` in a temporary directory, its C core built; removed after."""
    commit = resolve_revision(revision)
    tmp = Path(tempfile.mkdtemp(prefix=f"shax-baseline-{commit[:10]}-"))
    try:
        archive = subprocess.run(
            ["git", "archive", "--format=tar", commit],
            cwd=repository_root(),
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive.stdout, check=True)
        build = subprocess.run(  # the revision's own builder compiles its core in the tree
            [sys.executable, "-c", "from engine.ai import core; core.library()"],
            cwd=tmp,
            env=dict(os.environ, PYTHONPATH=str(tmp)),
            capture_output=True,
            text=True,
        )
        if build.returncode != 0:
            raise RuntimeError(f"building the baseline at {commit[:10]} failed:\n{build.stderr}")
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def tables_folder(folder: str | None) -> Iterator[None]:
    """``SHAX_TABLES_DIR`` is ``folder`` inside (unchanged for ``None``), for one side's move."""
    if folder is None:
        yield
        return
    before = os.environ.get(TABLES_ENV)
    os.environ[TABLES_ENV] = folder
    try:
        yield
    finally:
        if before is None:
            del os.environ[TABLES_ENV]
        else:
            os.environ[TABLES_ENV] = before


class Engine:
    """A baseline's process: one JSON line in, one out."""

    def __init__(self, tree: str, tables: str | None = None) -> None:
        env = dict(os.environ, PYTHONPATH=tree)
        if tables is not None:
            env[TABLES_ENV] = tables
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVER],
            cwd=tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._read()
        atexit.register(self.close)

    def _read(self) -> dict[str, object]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the baseline engine stopped")
        answer: dict[str, object] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the baseline engine failed: {answer['error']}")
        return answer

    def choose(
        self,
        variant: str,
        record: Sequence[str],
        level: str,
        movetime: float | None,
        seed: int,
        depth: int | None,
    ) -> str:
        assert self.proc.stdin is not None
        query = {
            "variant": variant,
            "record": " ".join(record),
            "level": level,
            "movetime": movetime,
            "seed": seed,
            "depth": depth,
        }
        self.proc.stdin.write(json.dumps(query) + "\n")
        self.proc.stdin.flush()
        return str(self._read()["action"])

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()


_ENGINES: dict[tuple[str, str | None], Engine] = {}


def engine_for(tree: str, tables: str | None = None) -> Engine:
    """This process's baseline engine for ``tree`` with the tables in ``tables`` (started
    on first use)."""
    key = (tree, tables)
    if key not in _ENGINES:
        _ENGINES[key] = Engine(tree, tables)
    return _ENGINES[key]


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


def balanced_opening(
    variant: str, plies: int, rng: random.Random, depth: int = 4, tries: int = 50
) -> list[str]:
    """A random opening that a depth-``depth`` search scores within :data:`BALANCE`."""
    start: list[str] = []
    for _ in range(tries):
        start = opening(variant, plies, rng)
        position = Position.initial(variant)
        for text in start:
            position = position.apply(text)
        params = core.make_params(weights_for(variant), max_depth=depth, tt_log2=16)
        if abs(core.search(position, params).score) <= BALANCE:
            return start
    return start


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
        elif player.tree is not None:
            action = engine_for(player.tree, player.tables).choose(
                variant, record, player.level, player.movetime, rng.getrandbits(32), player.depth
            )
        else:
            with tables_folder(player.tables):
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


def pair_interval(pair_scores: Sequence[float]) -> tuple[float, float, float]:
    """Elo difference and its 95% interval from the scores of colour-swapped pairs.

    Each pair (the same opening, once with each colour) is one sample of the mean of its
    two games (0, 0.25, 0.5, 0.75 or 1: the "pentanomial" model of engine testing).
    When the colour decides most games, the two games of a pair are far from independent
    and this interval is the honest one; it is narrower than :func:`elo_interval`'s when
    pairs split 1-1 and wider when they do not.
    """
    n = len(pair_scores)
    mean = sum(pair_scores) / n
    if n < 2:
        return elo(mean), elo(0.0), elo(1.0)
    var = sum((s - mean) ** 2 for s in pair_scores) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return elo(mean), elo(max(0.0, mean - half)), elo(min(1.0, mean + half))


def pair_scores(results: Sequence[GameResult]) -> list[float]:
    """The mean score of ``--a`` in each complete colour-swapped pair."""
    by_pair: dict[int, list[float]] = {}
    for r in results:
        by_pair.setdefault(r.index // 2, []).append(r.a_score)
    return [sum(s) / 2 for s in by_pair.values() if len(s) == 2]


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
    white = sum(
        1.0 if r.winner is Color.WHITE else 0.5 if r.winner is None else 0.0 for r in results
    )
    pairs = pair_scores(results)
    by_pairs = ""
    if len(pairs) >= 2:
        p_mid, p_lo, p_hi = pair_interval(pairs)
        counts = " ".join(f"{sum(1 for s in pairs if s == k / 4)}" for k in range(5))
        by_pairs = (
            f"\n  by pairs: {len(pairs)} pairs (0, 1/2, 1, 3/2, 2 points: {counts}), "
            f"Elo {fmt(p_mid)} (95%: {fmt(p_lo)} .. {fmt(p_hi)})"
        )
    return (
        f"{a.label} vs {b.label}: {len(results)} games, +{wins} ={draws} -{losses}, "
        f"score {pct:.1f}%, Elo {fmt(mid)} (95%: {fmt(lo)} .. {fmt(hi)})\n"
        f"  mean plies {plies:.0f}; seconds per move: {a.label} {a_time:.3f}, "
        f"{b.label} {b_time:.3f}; endings: {ends}; white scored {100 * white / len(results):.0f}%"
        f"{by_pairs}"
    )


def write_records(
    path: str, variant: str, a: Player, b: Player, results: Sequence[GameResult]
) -> None:
    """Each game as a JSON line: the players by colour, the result and the record (for
    ``python -m engine analyse`` or tuning on the games)."""
    with open(path, "a") as fh:
        for r in results:
            white, black = (a, b) if r.a_color is Color.WHITE else (b, a)
            line = {
                "game": r.index + 1,
                "variant": variant,
                "white": white.label,
                "black": black.label,
                "winner": None if r.winner is None else r.winner.label,
                "termination": r.termination,
                "record": r.record,
            }
            fh.write(json.dumps(line) + "\n")


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
        start = balanced_opening(variant, rng.randint(min_open, max_open), rng)
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


@contextlib.contextmanager
def baselines(*players: Player) -> Iterator[tuple[Player, ...]]:
    """The players, each baseline with its revision extracted and built (removed after)."""
    out: list[Player] = []
    with contextlib.ExitStack() as stack:
        for p in players:
            if p.revision is not None and p.tree is None:
                tree = stack.enter_context(baseline_tree(p.revision))
                short = resolve_revision(p.revision)[:10]
                p = replace(p, revision=short, tree=str(tree))
            out.append(p)
        yield tuple(out)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.arena", description=__doc__.split("\n")[0]
    )
    who = f"{', '.join((*LEVELS, RANDOM))} or {BASELINE}@REV[:LEVEL]"
    parser.add_argument("--a", default="hard", type=parse_player, help=f"the player scored: {who}")
    parser.add_argument("--b", default="medium", type=parse_player, help=f"the opponent: {who}")
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
    parser.add_argument("--records", metavar="FILE", help="append each game's record as JSON")
    for side in ("a", "b"):
        parser.add_argument(
            f"--tables-{side}",
            metavar="DIR",
            default=None,
            help=f"the endgame tables and full-board values --{side} plays with "
            f"(default ${TABLES_ENV}; an empty folder for none)",
        )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    for side, folder in (("a", args.tables_a), ("b", args.tables_b)):
        if folder is not None and not os.path.isdir(folder):
            parser.error(f"--tables-{side}: {folder} is not a folder")
    a = replace(
        args.a, movetime=args.movetime_a or args.movetime, depth=args.depth_a, tables=args.tables_a
    )
    b = replace(
        args.b, movetime=args.movetime_b or args.movetime, depth=args.depth_b, tables=args.tables_b
    )
    if args.records:
        try:  # before hours of games, not after
            with open(args.records, "a"):
                pass
        except OSError as exc:
            parser.error(f"--records: cannot write {args.records}: {exc.strerror}")
    t0 = time.perf_counter()
    try:
        with baselines(a, b) as (a, b):
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
    except RuntimeError as exc:
        parser.error(str(exc))
    if args.records:
        write_records(args.records, args.variant, a, b, results)
    print(summarize(a, b, results))
    print(f"  {time.perf_counter() - t0:.0f} s on {args.workers} workers, variant {args.variant}")
    for p in (a, b):
        if p.tables is not None:
            print(f"  {p.label} played with the tables in {p.tables}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
