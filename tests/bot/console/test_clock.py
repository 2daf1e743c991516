"""The console's clock in a real terminal: with a turn of two seconds the warning and the
end of the game are printed by themselves while the prompt waits, and the console reads
and answers on (it used to print nothing, and then read no more)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot.console.test_terminal import Terminal

QUICK = "SHAX_TURN_TIMEOUT_SECONDS=2\nSHAX_TICK_SECONDS=1\n"


@pytest.fixture
def quick_terminal(tmp_path: Path) -> Iterator[Terminal]:
    (tmp_path / "quick.env").write_text(QUICK)
    args = ["-m", "bot", "--env-file", "quick.env", "local", "--db", "local.db", "--name", "Cali"]
    term = Terminal(args, tmp_path)
    yield term
    term.close()


def test_a_turn_running_out_is_printed_while_the_console_waits(
    quick_terminal: Terminal,
) -> None:
    term = quick_terminal
    term.wait_prompt("Cali>")
    term.send("/shax challenge opponent:@Faarax variant:shax-small\r")
    term.wait_prompt("Faarax>")
    term.send("/as Faarax\r")
    term.wait_for("Now typing: Faarax")
    term.send("/shax accept\r")
    term.wait_for("Faarax accepted Cali's challenge")
    # Nothing typed: the clock's notices come by themselves.
    term.wait_for("Make your first move within 1 second, or the game is aborted.")
    term.wait_for("Game aborted: a first move did not come in time")
    term.send("/shax board\r")
    term.wait_for("There is no game in this channel")
    term.send("/quit\r")
    assert term.wait_exit() == 0
    assert "Traceback" not in term.text, term.text
