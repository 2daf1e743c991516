"""The console's waits as a person meets them: ``python benchmarks/bench_console.py [--runs N]``.

Each run starts ``python -m bot local`` in a fresh folder on a pseudo-terminal, as a
person does, and times:

* ``prompt``: from the start to the first prompt;
* ``first board``: ``/shax play-bot`` typed as soon as the prompt shows, until its board
  is on the screen (the worker processes are still starting then);
* ``later board``: ``/shax board`` typed next, until its board is on the screen;
* ``first reply``: a move typed next, until the bot's answer is on the screen (its
  first search, in a worker process);
* ``later reply``: another move, until the bot's answer is on the screen;
* ``Ctrl-C at start``: a fresh console, Ctrl-C as soon as the prompt shows, until the
  process has ended;
* ``Ctrl-C thinking``: Ctrl-C while master thinks about its first move, until the
  process has ended.

Each figure is the median of the runs, with the worst in brackets.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bot.console.test_terminal import Terminal  # noqa: E402

ARGS = ["-m", "bot", "--env-file", "none.env", "local", "--db", "local.db", "--name", "Amina"]
PROMPT = "Amina>"


def legal(text: str) -> str:
    """The first legal action the screen offers last."""
    return text.rsplit("Legal: ", 1)[1].split()[0]


def timed(step: Callable[[], object]) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def boards(folder: Path) -> dict[str, float]:
    term = Terminal(ARGS, folder)
    try:
        figures = {"prompt": timed(lambda: term.wait_prompt(PROMPT))}
        term.send("/shax play-bot level:easy first:me\r")
        figures["first board"] = timed(lambda: term.wait_for("Board image:"))
        term.wait_prompt(PROMPT)
        term.send("/shax board\r")
        figures["later board"] = timed(lambda: term.wait_for("Board image:", count=2))
        term.wait_prompt(PROMPT)
        for name, count in (("first reply", 3), ("later reply", 4)):
            term.send(f"/shax move {legal(term.text)}\r")
            figures[name] = timed(functools.partial(term.wait_for, "Board image:", count))
            term.wait_prompt(PROMPT)
        term.send("\x04")
        term.wait_exit()
        return figures
    finally:
        term.close()


def ctrl_c(folder: Path, *, thinking: bool) -> float:
    """Seconds from Ctrl-C to the console's exit: at its first prompt, or while the
    master bot thinks over its answer to a move."""
    term = Terminal(ARGS, folder)
    try:
        term.wait_prompt(PROMPT)
        if thinking:
            term.send("/shax play-bot level:master first:me\r")
            term.wait_for("your turn (white ○)")
            term.wait_prompt(PROMPT)
            term.send("/shax move d7\r")
            term.wait_for("Shax bot is thinking…")
        term.send("\x03")
        return timed(term.wait_exit)
    finally:
        term.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    figures: dict[str, list[float]] = {}
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            for name, seconds in boards(Path(tmp)).items():
                figures.setdefault(name, []).append(seconds)
        for name, thinking in (("Ctrl-C at start", False), ("Ctrl-C thinking", True)):
            with tempfile.TemporaryDirectory() as tmp:
                figures.setdefault(name, []).append(ctrl_c(Path(tmp), thinking=thinking))
    for name, values in figures.items():
        print(f"{name:>16}: {statistics.median(values):5.2f} s  (worst {max(values):.2f} s)")


if __name__ == "__main__":
    main()
