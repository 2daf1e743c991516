"""``python -m engine.tables build --max K``, ``python -m engine.tables full``,
``python -m engine.tables solve``, ``python -m engine.tables missing`` and
``python -m engine.tables info``."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import IO

from engine.ai.core import CoreUnavailableError
from engine.tables import TablesUnavailableError, build, read_info, tables_dir
from engine.tables.fullboard import (
    DEFAULT_DEPTH,
    FullBoardError,
    FullBoardInfo,
    build_full_board,
    read_full_board_info,
)
from engine.tables.missing import BOARDS, SMALL_BOARDS, build_missing, missing_work
from engine.tables.solved import SOLVED_BOARDS, read_solved_info, solve
from engine.variants import VARIANT_IDS


class Meter:
    """Progress on one line (rewritten in place on a terminal, every few seconds otherwise)."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.tty = out.isatty()
        self.last = 0.0
        self.name = ""

    def __call__(self, name: str, level: int, done: int, total: int) -> None:
        now = time.monotonic()
        if name == self.name and now - self.last < (0.2 if self.tty else 10.0):
            return
        self.name, self.last = name, now
        if level == 0:
            text = f"{name}: reading moves {done:,}/{total:,} ({100 * done // max(total, 1)}%)"
        else:
            text = f"{name}: {done:,} positions decided, distance {level}"
        if self.tty:
            self.out.write("\r\033[K" + text)
        else:
            self.out.write(text + "\n")
        self.out.flush()

    def built(self, name: str, seconds: float) -> None:
        self.line(f"{name}: built in {seconds:.1f} s")

    def line(self, text: str) -> None:
        self.out.write(("\r\033[K" if self.tty else "") + text + "\n")
        self.out.flush()


def _build(args: argparse.Namespace) -> int:
    directory = Path(args.dir) if args.dir else tables_dir()
    meter = Meter(sys.stderr)
    cap = f", {args.max_total} in all" if args.max_total else ""
    meter.line(f"building {args.variant} tables up to {args.max} stones a side{cap} in {directory}")
    try:
        built = build(
            args.variant, args.max, directory, args.threads, meter, meter.built, args.max_total
        )
    except TablesUnavailableError as exc:
        print(f"python -m engine.tables: {exc}", file=sys.stderr)
        return 1
    except (RuntimeError, OSError) as exc:
        meter.line(f"python -m engine.tables: {exc}")
        return 1
    if not built:
        meter.line("nothing to build: every table is already there")
    return 0


def _solve(args: argparse.Namespace) -> int:
    directory = Path(args.dir) if args.dir else tables_dir()
    meter = Meter(sys.stderr)
    meter.line(f"solving {args.variant} whole (its tables, then every placement) in {directory}")
    try:
        info = solve(args.variant, directory, args.threads, meter)
    except (TablesUnavailableError, RuntimeError, OSError) as exc:
        meter.line(f"python -m engine.tables solve: {exc}")
        return 1
    meter.line(info.describe())
    return 0


def _full(args: argparse.Namespace) -> int:
    directory = Path(args.dir) if args.dir else tables_dir()
    out = sys.stderr
    tty = out.isatty()
    last = 0.0
    start = time.monotonic()
    first: int | None = None

    def progress(done: int, total: int) -> None:
        nonlocal last, first
        now = time.monotonic()
        if first is None:  # where the build starts (a resumed one part way)
            first = done
            return
        if done < total and now - last < (0.2 if tty else 10.0):
            return
        last = now
        left = (now - start) / max(done - first, 1) * (total - done)
        share = 100 * done // total
        text = f"full boards: {done:,}/{total:,} searched ({share}%), {left:.0f} s left"
        out.write(("\r\033[K" + text) if tty else text + "\n")
        out.flush()

    print(
        f"searching every full {args.variant} board to {args.depth} plies into {directory}",
        file=out,
    )
    try:
        info = build_full_board(args.variant, args.depth, directory, args.workers, progress)
    except (FullBoardError, CoreUnavailableError, OSError) as exc:
        print(f"python -m engine.tables full: {exc}", file=out)
        return 1
    if tty:
        out.write("\n")
    print(f"{_describe_full(info)}; written to {info.path}", file=out)
    return 0


def _missing(args: argparse.Namespace) -> int:
    directory = Path(args.dir) if args.dir else tables_dir()
    boards = SMALL_BOARDS if args.small else BOARDS

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    try:
        built = build_missing(directory, boards, say, threads=args.threads)
    except (TablesUnavailableError, CoreUnavailableError, RuntimeError, OSError) as exc:
        say(f"python -m engine.tables missing: {exc}")
        return 1
    if not built and not missing_work(directory, boards):
        say(f"nothing to build: {directory} has every table and value at full strength")
    return 0


def _describe_full(i: FullBoardInfo) -> str:
    state = " (stale: searched with other weights; build it again)" if i.stale else ""
    return (
        f"{i.variant} full boards: {i.boards:,} up to symmetry ({i.entries:,} entries, "
        f"{i.size / 1e6:.1f} MB), {i.depth} plies, built in {i.seconds:.0f} s; "
        f"the first remover ahead in {i.ahead:,}, level in {i.even:,}, "
        f"behind in {i.behind:,}{state}"
    )


def _info(args: argparse.Namespace) -> int:
    directory = Path(args.dir) if args.dir else tables_dir()
    infos = read_info(directory)
    print(f"tables in {directory}")
    fulls = [f for v in VARIANT_IDS if (f := read_full_board_info(directory, v)) is not None]
    for full in fulls:
        print(_describe_full(full))
    if not fulls:
        print("no full-board values yet; search them with: python -m engine.tables full")
    for board in SOLVED_BOARDS:
        solved = read_solved_info(directory, board)
        if solved is not None:
            print(solved.describe())
    if not infos:
        print("no endgame tables yet; build them with: python -m engine.tables build --max 5")
        return 0
    print(
        f"{'board':<11} {'material':>8} {'positions':>13} {'MB':>8} {'wins':>12} "
        f"{'draws':>12} {'losses':>12} {'longest':>8} {'build s':>8}"
    )
    for i in infos:
        longest = max(i.longest_win, i.longest_loss)
        print(
            f"{i.variant:<11} {i.material:>8} {i.positions:>13,} {i.size / 1e6:>8.1f} "
            f"{i.wins:>12,} {i.draws:>12,} {i.losses:>12,} {longest:>8} {i.seconds:>8.1f}"
        )
    total = sum(i.size for i in infos)
    print(f"{len(infos)} tables, {total / 1e6:.1f} MB")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.tables",
        description=(
            "Endgame tables of the movement phase, the values of the full boards that "
            "end the placement, and the small boards solved whole: build them, or see what "
            "is built."
        ),
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="solve every material up to --max stones a side")
    b.add_argument("--max", type=int, required=True, help="stones a side, 3 or more")
    b.add_argument(
        "--max-total",
        type=int,
        default=None,
        help="stones on the board at most (--max 6 --max-total 11: six against five, not "
        "six against six)",
    )
    b.add_argument("--variant", choices=VARIANT_IDS, default="shax")
    b.add_argument("--dir", default=None, help="where to write (default: $SHAX_TABLES_DIR)")
    b.add_argument("--threads", type=int, default=None, help="default: every core")
    b.set_defaults(run=_build)
    f = sub.add_parser("full", help="search every full board (the end of the placement)")
    f.add_argument(
        "--depth",
        type=int,
        default=DEFAULT_DEPTH,
        help=f"plies searched from each board (default {DEFAULT_DEPTH})",
    )
    f.add_argument("--variant", choices=("shax", "shax-small"), default="shax")
    f.add_argument("--dir", default=None, help="where to write (default: $SHAX_TABLES_DIR)")
    f.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    f.set_defaults(run=_full)
    s = sub.add_parser(
        "solve", help="solve a small board whole: every placement position and opening removal"
    )
    s.add_argument("--variant", choices=tuple(SOLVED_BOARDS), default="shax-small")
    s.add_argument("--dir", default=None, help="where to write (default: $SHAX_TABLES_DIR)")
    s.add_argument("--threads", type=int, default=None, help="default: every core")
    s.set_defaults(run=_solve)
    m = sub.add_parser(
        "missing",
        help="build every table and value full strength needs that is not there yet "
        "(what the bot does in the background at its first start)",
    )
    m.add_argument("--small", action="store_true", help="only the boards that take seconds")
    m.add_argument("--dir", default=None, help="where to write (default: $SHAX_TABLES_DIR)")
    m.add_argument("--threads", type=int, default=None, help="default: every core")
    m.set_defaults(run=_missing)
    i = sub.add_parser("info", help="the tables built so far")
    i.add_argument("--dir", default=None, help="where to look (default: $SHAX_TABLES_DIR)")
    i.set_defaults(run=_info)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "build" and args.max < 3:
        print("python -m engine.tables build: --max must be 3 or more", file=sys.stderr)
        return 2
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
