"""The console (``python -m bot local``) keeps the keyboard where it belongs and remembers
who sits at it:

* a move typed bare (``a1``, ``a1-a2``, ``xg1``) is played as ``/shax move``;
* a draw offer hands the keyboard to the player who must answer it;
* after a restart the game in progress here is shown, with the bot's move if it was its
  turn; a bot move that was still pending in another channel's game is announced with
  the channel and the players' names, and the keyboard stays here;
* the name is asked once, in a terminal, and remembered in the user's configuration
  folder; ``--name`` plays one start under another name and changes nothing there.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from tests.bot.console.test_session import run_console
from tests.bot.console.test_terminal import Terminal

ROOT = Path(__file__).resolve().parents[3]
LOCAL = ("-m", "bot", "--env-file", "none.env", "local", "--db", "local.db", "--out", "boards")
"""``python -m bot local`` as :func:`run_console` runs it, in the test's folder."""
WAIT = 120.0
"""How long a console run may take before the test gives up (a limit, not a measurement)."""


def play(tmp_path: Path, lines: str, *options: str, name: str | None = "amina") -> str:
    """Pipe ``lines`` into the console; everything it wrote."""
    done = run_console(tmp_path, lines, *options, name=name)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout


def typed_by(out: str) -> list[tuple[str, str]]:
    """(who, line) for every line the console read, as it echoes them."""
    return re.findall(r"^\[([^\]]+)\] (.*)$", out, re.MULTILINE)


def test_a_bare_move_is_played_as_shax_move(tmp_path: Path) -> None:
    lines = "/shax challenge @bashir variant:jar\n/shax accept\na1\nB2\na4\n"
    out = play(tmp_path, lines)
    assert "amina placed a stone on a1." in out, out
    assert "bashir placed a stone on b2." in out, out
    assert "'a4' is not a point on the jar board" in out, out  # refused as a move
    assert "Commands start with /shax" not in out


def test_a_draw_offer_hands_the_keyboard_to_the_player_who_answers(tmp_path: Path) -> None:
    lines = (
        "/shax challenge @bashir variant:jar\n/shax accept\na1\nb1\n"
        "/shax draw\n/shax decline-draw\n/shax move a2\n"
    )
    out = play(tmp_path, lines)
    assert typed_by(out)[-3:] == [
        ("amina", "/shax draw"),
        ("bashir", "/shax decline-draw"),
        ("amina", "/shax move a2"),
    ], out
    assert "bashir declined the draw." in out and "amina placed a stone on a2." in out, out


def stopped_while_the_bot_thinks(tmp_path: Path) -> None:
    """Amina starts a game against the master in channel 1; the console dies while the
    bot thinks about its first move."""
    first = subprocess.Popen(
        [sys.executable, *LOCAL, "--name", "amina"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SHAX_BUILD_TABLES": "off"},
        cwd=tmp_path,
    )
    assert first.stdin is not None and first.stdout is not None
    first.stdin.write("/shax play-bot level:master first:bot\n")
    first.stdin.flush()
    for line in first.stdout:
        if "is thinking" in line:
            break
    first.send_signal(signal.SIGKILL)
    first.wait(WAIT)


def test_a_pending_bot_move_is_announced_in_its_channel_after_a_restart(tmp_path: Path) -> None:
    stopped_while_the_bot_thinks(tmp_path)
    # Cawo starts the console in channel 2: the bot's move is made and said there as
    # being about channel 1, with Amina's name; Cawo keeps the keyboard.
    out = play(tmp_path, "/shax streak\n/shax leaderboard\n", "--channel", "2", name="cawo")
    announced = [line for line in out.splitlines() if "placed a stone" in line]
    assert len(announced) == 1, out
    assert announced[0].startswith("In channel #1: Shax bot (master) placed a stone on"), out
    assert "@amina — your turn" in announced[0], out
    assert not re.search(r"@\d{5,}", out), out  # nobody by a raw id
    assert [who for who, _ in typed_by(out)] == ["cawo", "cawo"], out
    assert "Board image" not in out  # the board is channel 1's, not shown here


def test_a_restart_shows_the_game_in_progress_and_the_bot_moves_at_once(tmp_path: Path) -> None:
    stopped_while_the_bot_thinks(tmp_path)
    # Amina starts the console again and types nothing: the game is shown, with the move
    # the bot owed, and it is her turn.
    out = play(tmp_path, "")
    assert typed_by(out) == [], out
    assert "Shax bot (master) placed a stone on" in out, out
    assert "@amina — your turn (black ●)" in out, out
    assert "Board image:" in out and "Legal:" in out, out


def test_a_restart_shows_the_game_in_progress(tmp_path: Path) -> None:
    play(tmp_path, "/shax play-bot level:easy variant:jar first:me\n")
    out = play(tmp_path, "")
    assert "@amina — your turn (white ○): place a stone (3 in hand)" in out, out
    assert out.count("Board image:") == 1 and "Legal: a1" in out, out


def test_the_name_is_asked_once_and_remembered_outside_the_checkout(tmp_path: Path) -> None:
    terminal = Terminal(list(LOCAL), tmp_path)
    try:
        terminal.wait_prompt("Your name [someone]:")
        terminal.send("Amina\r")
        terminal.wait_prompt("Amina>")
        terminal.send("\x04")  # Ctrl-D
        assert terminal.wait_exit() == 0
    finally:
        terminal.close()
    assert "Traceback" not in terminal.text, terminal.text
    # In the user's configuration folder, not beside the database in the working folder.
    assert (tmp_path / ".config" / "shax" / "console-name").read_text().strip() == "Amina"
    assert sorted(p.name for p in tmp_path.glob("local.db*")) == ["local.db"]

    # --name in another console plays under that name and leaves the remembered one alone.
    assert typed_by(play(tmp_path, "/shax rules variant:jar\n", name="Cawo")) == [
        ("Cawo", "/shax rules variant:jar")
    ]
    # The next start asks nothing: in a terminal, and from a pipe.
    out = play(tmp_path, "/shax rules variant:jar\n", name=None)
    assert typed_by(out) == [("Amina", "/shax rules variant:jar")], out
    terminal = Terminal(list(LOCAL), tmp_path)
    try:
        terminal.wait_prompt("Amina>")
        terminal.send("\x04")
        assert terminal.wait_exit() == 0
    finally:
        terminal.close()
    assert "Your name" not in terminal.text, terminal.text
