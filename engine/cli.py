"""``python -m engine``: a scriptable command line over standard input and output.

``status`` answers each record (one per line) with one line of JSON, flushed at
once, so another program can converse with it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

from engine.errors import RecordError, ShaxError
from engine.position import Position
from engine.variants import VARIANT_IDS, Variant, get_variant


class RecordCache:
    """Replays records incrementally: a line that extends the previous one costs only its tail."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.tokens: list[str] = []
        self.positions: list[Position] = [Position.initial(variant)]

    def position(self, tokens: list[str]) -> Position:
        """The position after ``tokens``; raises :class:`RecordError` at a bad action."""
        shared = 0
        limit = min(len(tokens), len(self.tokens))
        while shared < limit and tokens[shared] == self.tokens[shared]:
            shared += 1
        del self.tokens[shared:]
        del self.positions[shared + 1 :]
        position = self.positions[-1]
        for index in range(shared, len(tokens)):
            text = tokens[index]
            try:
                position = position.apply(position.parse(text))
            except ShaxError as exc:
                raise RecordError(index, text, exc) from exc
            self.tokens.append(text)
            self.positions.append(position)
        return position


def status_json(position: Position) -> dict[str, Any]:
    """The answer of ``status`` for one position."""
    outcome = position.outcome
    to_move = position.to_move
    blocked = position.blocked
    first = position.first_jare
    return {
        "to_move": to_move.label if to_move else None,
        "result": outcome.result if outcome else None,
        "legal": position.legal_notations(),
        "phase": position.phase.value,
        "step": None if outcome else position.step.value,
        "termination": outcome.termination.value if outcome else None,
        "blocked": blocked.label if blocked else None,
        "first_jare": first.label if first else None,
        "pieces": {"white": position.count(0), "black": position.count(1)},
        "in_hand": {"white": position.in_hand(0), "black": position.in_hand(1)},
        "moves_without_capture": position.clock,
        "board": position.to_fen(),
    }


def serve(
    lines: Iterable[str], out: IO[str], answer: Callable[[list[str]], dict[str, Any]]
) -> None:
    """Answer each input line with one line of JSON, flushed at once."""
    for line in lines:
        tokens = line.split()
        try:
            reply = answer(tokens)
        except RecordError as exc:
            reply = {"error": str(exc), "index": exc.index, "action": exc.action}
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()


def _status(args: argparse.Namespace) -> int:
    cache = RecordCache(get_variant(args.variant))
    serve(sys.stdin, sys.stdout, lambda tokens: status_json(cache.position(tokens)))
    return 0


def _bestmove(args: argparse.Namespace) -> int:
    from engine.ai.cli import run_bestmove

    return run_bestmove(args)


def _analyse(args: argparse.Namespace) -> int:
    from engine.analysis_cli import run_analyse

    return run_analyse(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Shax engine: reads game records from standard input, one per line.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    status = sub.add_parser("status", help="legal actions and result of each record")
    status.add_argument("--variant", choices=VARIANT_IDS, default="shax")
    status.set_defaults(run=_status)
    best = sub.add_parser("bestmove", help="the AI's action for each record")
    best.add_argument("--variant", choices=VARIANT_IDS, default="shax")
    best.add_argument("--level", default="hard", help="easy, medium, hard or master")
    best.add_argument("--movetime", type=float, default=None, help="seconds per move")
    best.add_argument("--seed", type=int, default=None)
    best.add_argument("--depth", type=int, default=None, help="fixed search depth")
    best.set_defaults(run=_bestmove)
    analyse = sub.add_parser("analyse", help="each action's score and the best alternative")
    analyse.add_argument("file", nargs="?", default=None, help="records, one a line (stdin)")
    analyse.add_argument("--variant", choices=VARIANT_IDS, default="shax")
    analyse.add_argument("--depth", type=int, default=None, help="plies searched per position")
    analyse.add_argument(
        "--movetime", type=float, default=None, help="seconds at most per position"
    )
    analyse.add_argument("--text", action="store_true", help="plain lines instead of JSON")
    analyse.set_defaults(run=_analyse)
    from engine.tables.puzzle_set import add_parser as add_puzzles

    add_puzzles(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
