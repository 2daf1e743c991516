"""``python -m engine analyse``: every action of each record read, scored beside the best.

Records come one per line from a file or standard input. Each action is answered by
one line of JSON, flushed at once::

    {"record": 0, "ply": 4, "side": "white", "action": "a4", "score": -12,
     "best": "c4", "best_score": 35, "loss": 47, "depth": 6,
     "why": {"reason": "stops_jare", "points": ["a1", "a4", "a7"]}}

``why`` says, as a value, what makes the best action good (see :mod:`engine.explain`;
``moves`` for a proven win); ``loss`` is what the curve confirms (see
:mod:`engine.analysis`).
After a record's actions a line ``{"record": 0, "end": true, "turning_points": [...]}``
lists the plies that lost the most. A bad record is answered with ``{"record": n,
"error": ..., "index": ..., "action": ...}`` and the command goes on. ``--text`` prints
the same as plain lines for people.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from engine.analysis import REVIEW_DEPTH, analyse_record, turning_points
from engine.errors import RecordError
from engine.explain import explain_assessed
from engine.record import iter_positions
from engine.variants import get_variant


def analyse_lines(args: argparse.Namespace, inp: IO[str], out: IO[str]) -> None:
    """Answer every record of ``inp`` (see the module's docstring)."""
    v = get_variant(args.variant)
    for number, line in enumerate(inp):
        record = line.split()
        try:
            positions = [p for p, _ in iter_positions(v, record)]
            reviews = analyse_record(v, record, depth=args.depth, seconds=args.movetime)
        except RecordError as exc:
            _emit(
                out,
                args.text,
                {"record": number, "error": str(exc), "index": exc.index, "action": exc.action},
            )
            continue
        for r in reviews:
            why = explain_assessed(positions[r.ply], r)
            _emit(
                out,
                args.text,
                {
                    "record": number,
                    "ply": r.ply,
                    "side": r.mover.label,
                    "action": r.played,
                    "score": r.score,
                    "best": r.best,
                    "best_score": r.best_score,
                    "loss": r.loss,
                    "depth": r.depth,
                    "why": {
                        "reason": why.reason.value,
                        "points": list(why.points),
                        **({"moves": why.moves} if why.moves else {}),
                    },
                },
            )
        _emit(
            out,
            args.text,
            {"record": number, "end": True, "turning_points": turning_points(reviews)},
        )


def _emit(out: IO[str], text: bool, reply: dict[str, Any]) -> None:
    if not text:
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
    elif "error" in reply:
        out.write(f"record {reply['record']}: {reply['error']}\n")
    elif reply.get("end"):
        points = " ".join(str(p + 1) for p in reply["turning_points"]) or "none"
        out.write(f"record {reply['record']}: turning points at actions {points}\n")
    else:
        why = reply["why"]
        shown = f"{why['reason']} {' '.join(why['points'])}".strip()
        out.write(
            f"{reply['ply'] + 1:>4} {reply['side']:<5} {reply['action']:<6} {reply['score']:>+6}"
            f"   best {reply['best']:<6} {reply['best_score']:>+6}   loss {reply['loss']:>5}"
            f"   ({shown})\n"
        )
    out.flush()


def run_analyse(
    args: argparse.Namespace, stdin: IO[str] | None = None, stdout: IO[str] | None = None
) -> int:
    """Serve ``analyse`` until the input ends; returns the exit status."""
    out = sys.stdout if stdout is None else stdout
    if args.depth is None:
        args.depth = REVIEW_DEPTH
    if args.depth < 1:
        print("python -m engine analyse: --depth must be at least 1", file=sys.stderr)
        return 2
    if args.movetime is not None and args.movetime <= 0:
        print("python -m engine analyse: --movetime must be more than 0", file=sys.stderr)
        return 2
    if args.file is not None:
        try:
            with open(args.file, encoding="utf-8") as f:
                analyse_lines(args, f, out)
        except OSError as exc:
            print(
                f"python -m engine analyse: cannot read {args.file}: {exc.strerror}",
                file=sys.stderr,
            )
            return 2
        return 0
    analyse_lines(args, sys.stdin if stdin is None else stdin, out)
    return 0
