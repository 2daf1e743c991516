"""The console in a real terminal (a pseudo-terminal): the name asked once, Tab
completion, history, and Ctrl-D / Ctrl-C ending it cleanly."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")
WAIT = 30.0
"""How long a step may take before the test gives up (a limit, not a measurement)."""


class Terminal:
    """A console process on the far side of a pseudo-terminal."""

    def __init__(self, args: list[str], cwd: Path, *, ctrl_c_ignored: bool = False) -> None:
        env = {
            "PYTHONPATH": str(ROOT),
            "PATH": "/usr/bin:/bin",
            "PYTHONIOENCODING": "utf-8",
            "TERM": "xterm",
            "LOGNAME": "someone",
            "XDG_CONFIG_HOME": str(cwd / ".config"),  # the remembered name: the test's own
            "SHAX_BUILD_TABLES": "off",
            "PROMPT_TOOLKIT_NO_CPR": "1",  # nobody here answers cursor-position requests
        }
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the console
            if ctrl_c_ignored:  # as a job started in the background by a script inherits
                signal.signal(signal.SIGINT, signal.SIG_IGN)
            os.chdir(cwd)
            os.execve(sys.executable, [sys.executable, *args], env)
        self.raw = b""

    @property
    def text(self) -> str:
        """Everything shown so far, without the terminal's control sequences."""
        return ESCAPES.sub(b"", self.raw).decode("utf-8", "replace")

    def _read(self, deadline: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the console has ended and closed the terminal
            return False
        self.raw += data
        return bool(data)

    def wait_for(self, needle: str, count: int = 1) -> None:
        deadline = time.monotonic() + WAIT
        while self.text.count(needle) < count:
            if not self._read(deadline):
                raise AssertionError(f"never saw {needle!r} ×{count}:\n{self.text}")

    def wait_prompt(self, prompt: str) -> None:
        """Wait until ``prompt`` is the last thing shown: the console waits for a line."""
        deadline = time.monotonic() + WAIT
        while not self.text.rstrip().endswith(prompt.rstrip()):
            if not self._read(deadline):
                raise AssertionError(f"never saw the prompt {prompt!r}:\n{self.text}")

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def wait_exit(self) -> int:
        """The console's exit status, once it has ended (and shown all it had to show)."""
        deadline = time.monotonic() + WAIT
        while self._read(deadline):
            pass
        while True:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            if time.monotonic() > deadline:
                raise AssertionError(f"the console never ended:\n{self.text}")
            self._read(time.monotonic() + 0.1)

    def close(self) -> None:
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    args = ["-m", "bot", "--env-file", "none.env", "local", "--db", "local.db"]
    term = Terminal(args, tmp_path)
    yield term
    term.close()


def ends_cleanly(term: Terminal) -> None:
    assert "Traceback" not in term.text and "Error" not in term.text, term.text
    assert term.raw.endswith(b"\r\n")  # the shell's prompt gets a line of its own


def test_name_completion_history_and_ctrl_d(terminal: Terminal, tmp_path: Path) -> None:
    terminal.wait_prompt("Your name [someone]:")
    terminal.send("Amina\r")
    terminal.wait_prompt("Amina>")
    # Tab completes the command, the options and their values.
    for typed, completed in (
        ("/shax pl", "/shax play-bot"),
        (" level:ea", "level:easy"),
        (" variant:j", "variant:jar"),
        (" first:m", "first:me"),
    ):
        terminal.send(typed + "\t")
        terminal.wait_for(completed)
    terminal.send("\r")
    terminal.wait_for("Amina vs Shax bot (easy), Jar (children's game).")
    terminal.wait_for("your turn (white ○): place a stone (3 in hand).")
    terminal.wait_prompt("Amina>")
    terminal.send("/shax rules\r")
    terminal.wait_for("Notation: place b2, move a1-a2.")
    terminal.wait_prompt("Amina>")
    # The up arrow brings back the last line.
    terminal.send("\x1b[A\r")
    terminal.wait_for("Notation: place b2, move a1-a2.", count=2)
    assert "**" not in terminal.text and "\x1b[1mJar (children's game)\x1b[0m" in (
        terminal.raw.decode()
    )  # bold as terminal text
    terminal.wait_prompt("Amina>")
    terminal.send("\x04")  # Ctrl-D
    assert terminal.wait_exit() == 0
    ends_cleanly(terminal)
    assert (tmp_path / "shax-pictures" / "rules-jar-board-points.png").is_file()


def test_ctrl_c_while_the_bot_thinks_ends_every_process_quietly(terminal: Terminal) -> None:
    terminal.wait_prompt("Your name [someone]:")
    terminal.send("\r")  # Enter keeps the login name
    terminal.wait_prompt("someone>")
    terminal.send("/shax play-bot level:master first:me\r")
    terminal.wait_for("your turn (white ○)")
    terminal.wait_prompt("someone>")
    terminal.send("/shax move d7\r")
    terminal.wait_for("Shax bot is thinking…")
    terminal.send("\x03")  # Ctrl-C reaches every process of the terminal's group
    assert terminal.wait_exit() == 130
    ends_cleanly(terminal)


def test_ctrl_c_ends_a_console_started_with_ctrl_c_ignored(tmp_path: Path) -> None:
    """Started by a script in the background (or by ``nohup``), a program inherits Ctrl-C
    ignored; in a terminal the console still ends with it."""
    args = ["-m", "bot", "--env-file", "none.env", "local", "--db", "local.db", "--name", "Amina"]
    term = Terminal(args, tmp_path, ctrl_c_ignored=True)
    try:
        term.wait_prompt("Amina>")
        term.send("/shax play-bot level:master first:me\r")
        term.wait_for("your turn (white ○)")
        term.wait_prompt("Amina>")
        term.send("/shax move d7\r")
        term.wait_for("Shax bot is thinking…")
        term.send("\x03")
        assert term.wait_exit() == 130
        ends_cleanly(term)
        assert "Shax bot (master) placed" not in term.text  # stopped while it thought
    finally:
        term.close()


def test_without_prompt_toolkit_readline_edits_and_completes(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['prompt_toolkit'] = None; from bot.__main__ import main; "
        "sys.exit(main(['--env-file', 'none.env', 'local', '--db', 'local.db', "
        "'--name', 'Amina']))"
    )
    term = Terminal(["-c", code], tmp_path)
    try:
        term.wait_prompt("Amina>")
        term.send("/shax ru\t variant:j\t\r")
        term.wait_for("Notation: place b2, move a1-a2.")
        term.wait_prompt("Amina>")
        term.send("\x04")
        assert term.wait_exit() == 0
        ends_cleanly(term)
    finally:
        term.close()
