"""``python -m engine.tables missing`` (what full strength lacks), ``python -m
engine.tables build`` (build it; ``--max K``: the tables up to K stones a side),
``python -m engine.tables full`` (and ``ship``: the full-board values the package
carries), ``python -m engine.tables solve`` and ``python -m engine.tables info``.

Every command that builds holds the folder's build lock (waiting while another process,
the bot's background build say, builds there) and stops at once on Ctrl-C or SIGTERM,
keeping every whole file and no part of one."""

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
from engine.tables.lock import BuildStopped, build_lock, signals_stop_builds
from engine.tables.missing import (
    BOARDS,
    SMALL_BOARDS,
    build_missing,
    minutes,
    missing_work,
    size_words,
    time_words,
)
from engine.tables.shipping import read_shipped, ship, ship_words
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


def _directory(args: argparse.Namespace) -> Path:
    return Path(args.dir) if args.dir else tables_dir()


def _build(args: argparse.Namespace) -> int:
    if args.max is None:
        return _build_missing(args)
    directory = _directory(args)
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
    directory = _directory(args)
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
    directory = _directory(args)
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
    if args.depth != DEFAULT_DEPTH or args.no_ship:
        why = "--no-ship" if args.no_ship else f"{args.depth} plies, not {DEFAULT_DEPTH}"
        print(f"not shipped with the package ({why})", file=out)
        return 0
    return _ship_from(args.variant, directory, "full")


def _ship_from(variant: str, directory: Path, command: str) -> int:
    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    try:
        ship_words(ship(variant, directory), say)
    except (FullBoardError, CoreUnavailableError) as exc:
        say(f"python -m engine.tables {command}: {exc}")
        return 1
    except OSError as exc:
        say(
            f"python -m engine.tables {command}: the package's folder cannot be written "
            f"({exc.strerror or exc}); ship them from a checkout of the code"
        )
        return 1
    return 0


def _ship(args: argparse.Namespace) -> int:
    return _ship_from(args.variant, _directory(args), "ship")


def _build_missing(args: argparse.Namespace) -> int:
    directory = _directory(args)
    boards = SMALL_BOARDS if args.small else BOARDS

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    try:
        built = build_missing(directory, boards, say, threads=args.threads)
    except (TablesUnavailableError, CoreUnavailableError, RuntimeError, OSError) as exc:
        say(f"python -m engine.tables build: {exc}")
        return 1
    if missing_work(directory, boards):
        return 1  # no room on the disk: it said so
    if not built:
        say(f"nothing to build: {directory} has every table and value at full strength")
    return 0


def _missing(args: argparse.Namespace) -> int:
    directory = _directory(args)
    work = missing_work(directory, SMALL_BOARDS if args.small else BOARDS)
    if not work:
        print(f"nothing is missing: {directory} has every table and value at full strength")
        return 0
    print(
        f"what master lacks for full strength in {directory}, in the order it is built "
        "(python -m engine.tables build builds it; the bot does at its start, in the "
        "background):"
    )
    for w in work:
        print(
            f"  {w.describe()}: about {size_words(w.bytes_needed)}, "
            f"{minutes(w.seconds)} of processor time"
        )
    size = size_words(sum(w.bytes_needed for w in work))
    print(f"in all about {size}, {time_words(work)}")
    return 0


def _describe_full(i: FullBoardInfo) -> str:
    state = " (stale: searched with another evaluation; build it again)" if i.stale else ""
    return (
        f"{i.variant} full boards: {i.boards:,} up to symmetry ({i.entries:,} entries, "
        f"{i.size / 1e6:.1f} MB), {i.depth} plies, built in {i.seconds:.0f} s; "
        f"the first remover ahead in {i.ahead:,}, level in {i.even:,}, "
        f"behind in {i.behind:,}{state}"
    )


def _info(args: argparse.Namespace) -> int:
    directory = _directory(args)
    infos = read_info(directory)
    print(f"tables in {directory}")
    fulls = [f for v in VARIANT_IDS if (f := read_full_board_info(directory, v)) is not None]
    for full in fulls:
        print(_describe_full(full))
    shipped = [s for v in VARIANT_IDS if (s := read_shipped(v)) is not None]
    for one in shipped:
        print(one.describe())
    if not fulls and not shipped:
        print("no full-board values yet; search them with: python -m engine.tables full")
    for board in SOLVED_BOARDS:
        solved = read_solved_info(directory, board)
        if solved is not None:
            print(solved.describe())
    if not infos:
        print("no endgame tables yet; build what master uses with: python -m engine.tables build")
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
    b = sub.add_parser(
        "build",
        help="build what full strength lacks (what missing lists, what the bot builds at its "
        "start); with --max, the tables of one board up to so many stones a side",
    )
    b.add_argument(
        "--max", type=int, default=None, help="stones a side, 3 or more, on --variant's board"
    )
    b.add_argument(
        "--small", action="store_true", help="without --max: only the boards that take seconds"
    )
    b.add_argument(
        "--max-total",
        type=int,
        default=None,
        help="stones on the board at most (--max 6 --max-total 11: six against five, not "
        "six against six)",
    )
    b.add_argument("--variant", choices=VARIANT_IDS, default="shax", help="with --max")
    b.add_argument("--dir", default=None, help="where to write (default: $SHAX_TABLES_DIR)")
    b.add_argument("--threads", type=int, default=None, help="default: every core")
    b.set_defaults(run=_build)
    f = sub.add_parser(
        "full",
        help="search every full board (the end of the placement) into the folder and, at "
        "the default depth, ship the values with the package",
    )
    f.add_argument(
        "--depth",
        type=int,
        default=DEFAULT_DEPTH,
        help=f"plies searched from each board (default {DEFAULT_DEPTH})",
    )
    f.add_argument("--variant", choices=("shax", "shax-small"), default="shax")
    f.add_argument("--dir", default=None, help="where to write (default: $SHAX_TABLES_DIR)")
    f.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    f.add_argument(
        "--no-ship",
        action="store_true",
        help=f"do not ship them with the package (at {DEFAULT_DEPTH} plies they are, in "
        "engine/tables/shipped)",
    )
    f.set_defaults(run=_full)
    sh = sub.add_parser(
        "ship",
        help="ship the full-board values a finished search wrote into a folder with the "
        "package (engine/tables/shipped), checking them against today's search",
    )
    sh.add_argument("--variant", choices=("shax", "shax-small"), default="shax")
    sh.add_argument(
        "--from",
        dest="dir",
        default=None,
        help="the folder the search wrote into (default: $SHAX_TABLES_DIR)",
    )
    sh.set_defaults(run=_ship)
    s = sub.add_parser(
        "solve", help="solve a small board whole: every placement position and opening removal"
    )
    s.add_argument("--variant", choices=tuple(SOLVED_BOARDS), default="shax-small")
    s.add_argument("--dir", default=None, help="where to write (default: $SHAX_TABLES_DIR)")
    s.add_argument("--threads", type=int, default=None, help="default: every core")
    s.set_defaults(run=_solve)
    m = sub.add_parser(
        "missing",
        help="list what full strength needs that is not built yet, with its size and time "
        "(what build, and the bot at its start, builds)",
    )
    m.add_argument("--small", action="store_true", help="only the boards that take seconds")
    m.add_argument("--dir", default=None, help="where to look (default: $SHAX_TABLES_DIR)")
    m.set_defaults(run=_missing)
    i = sub.add_parser("info", help="the tables built so far")
    i.add_argument("--dir", default=None, help="where to look (default: $SHAX_TABLES_DIR)")
    i.set_defaults(run=_info)
    return parser


BUILDERS = ("build", "full", "solve")
"""The commands that write into the folder (and hold its build lock)."""


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "build" and args.max is not None and args.max < 3:
        print("python -m engine.tables build: --max must be 3 or more", file=sys.stderr)
        return 2
    if args.command not in BUILDERS:
        return int(args.run(args))
    directory = _directory(args)

    def waiting() -> None:
        print(
            f"another process is building in {directory} (the bot's background build, or "
            "another of these commands); waiting for it to finish, so that nothing is built "
            "twice (Ctrl-C stops waiting)",
            file=sys.stderr,
            flush=True,
        )

    with signals_stop_builds():
        try:
            with build_lock(directory, waiting=waiting):
                return int(args.run(args))
        except OSError as exc:  # the lock: the folder cannot be made or written to
            print(
                f"python -m engine.tables {args.command}: cannot build in {directory}: "
                f"{exc.strerror or exc}; choose a folder you can write to (--dir, or "
                "SHAX_TABLES_DIR)",
                file=sys.stderr,
            )
            return 1
        except KeyboardInterrupt as exc:
            print(
                ("\n" if sys.stderr.isatty() else "")
                + f"python -m engine.tables {args.command}: stopped; every file finished is "
                "kept (none is left part way), and the same command goes on from there",
                file=sys.stderr,
            )
            return 143 if isinstance(exc, BuildStopped) else 130


if __name__ == "__main__":
    raise SystemExit(main())
