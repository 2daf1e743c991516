"""``python -m engine bestmove``: the AI's action for each record read from standard input.

Each line is answered at once with one line of JSON (flushed), so another program can
converse with it: ``{"action": ..., "score": ..., "depth": ..., "nodes": ..., "source": ...,
"table_hits": ...}`` (``source`` is ``"table"`` when the endgame tables gave the
answer, ``"search"`` otherwise), or
``{"error": ...}`` for a bad record or a finished game; the command goes on.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from engine.ai import check_level, choose_action
from engine.errors import RecordError, ShaxError


def answer(args: argparse.Namespace, line: str) -> dict[str, Any]:
    """The JSON reply for one input line."""
    try:
        result = choose_action(
            args.variant,
            line.split(),
            level=args.level,
            movetime=args.movetime,
            seed=args.seed,
            depth=args.depth,
        )
    except RecordError as exc:
        return {"error": str(exc), "index": exc.index, "action": exc.action}
    except ShaxError as exc:
        return {"error": str(exc)}
    return {
        "action": result.action,
        "score": result.score,
        "depth": result.depth,
        "nodes": result.nodes,
        "source": result.source,
        "table_hits": result.table_hits,
    }


def run_bestmove(
    args: argparse.Namespace, stdin: IO[str] | None = None, stdout: IO[str] | None = None
) -> int:
    """Serve ``bestmove`` until standard input ends; returns the exit status."""
    inp = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    try:
        check_level(args.level)
        if args.depth is not None and args.depth < 1:
            raise ValueError("--depth must be at least 1")
    except ValueError as exc:
        print(f"python -m engine bestmove: {exc}", file=sys.stderr)
        return 2
    for line in inp:
        out.write(json.dumps(answer(args, line), ensure_ascii=False) + "\n")
        out.flush()
    return 0
