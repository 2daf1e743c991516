"""The local console through standard input: a whole hot-seat jar game from a pipe, the
player's name, the pictures folder, resuming from the database."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from bot.console import local_user, text_board
from engine import replay
from tests.bot.console.test_terminal import Terminal

ROOT = Path(__file__).resolve().parents[3]

# Amina (white) places a3 b2 c2, Bashir a2 a1 c3; they move until Amina's a3-b3 makes
# three in a row on the b-file. Nobody types /as: the keyboard follows the game. A
# taken point, bad notation and a wrong turn are refused.
SCRIPT = """\
/help
/shax challenge opponent:@Bashir variant:jar
/shax accept
/shax move action:a3
/shax move a2
/shax move a2
/shax move b2
/shax move zz
/shax move a1
/shax move c1
/shax move c3
/shax move action:c3-c2
/shax move c1-b1
/as Amina
/shax move b1-c1
/as Bashir
/shax move c2-c3
/shax move a3-b3
/shax move c1-c2
/shax rules variant:jar
/shax streak user:@Amina
/shax leaderboard
/quit
"""


def run_console(
    tmp_path: Path,
    script: str,
    *options: str,
    name: str | None = "Amina",
    login: str = "someone",
) -> subprocess.CompletedProcess[str]:
    """``python -m bot local`` over a pipe; ``login`` is the login name it finds."""
    named = ["--name", name] if name is not None else []
    if "--out" not in options:
        options = (*options, "--out", str(tmp_path / "boards"))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "--env-file",
            str(tmp_path / "none.env"),
            "local",
            "--db",
            str(tmp_path / "local.db"),
            *named,
            *options,
        ],
        input=script,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": "/usr/bin:/bin",
            "PYTHONIOENCODING": "utf-8",
            "LOGNAME": login,
            "XDG_CONFIG_HOME": str(tmp_path / ".config"),  # the remembered name: the test's own
            "SHAX_BUILD_TABLES": "off",
        },
        timeout=60,
    )


def test_a_hot_seat_jar_game_through_standard_input(tmp_path: Path) -> None:
    result = run_console(tmp_path, SCRIPT)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "/shax play-bot" in out  # the help
    assert "[Amina] /shax challenge opponent:@Bashir variant:jar" in out
    assert "@Bashir, Amina challenges you to a game of Jar" in out
    assert "[Bashir] /shax accept" in out  # the challenged player answers
    assert "Bashir accepted Amina's challenge. @Amina — your turn (white ○)" in out
    assert "[Amina] /shax move action:a3" in out
    assert "[Amina] /shax move a2\n✗ a2 is not allowed now: a2 is already taken" in out
    assert "[Bashir] /shax move zz\n✗ I can't read 'zz' as an action: write a point (b2)" in out
    assert "Bashir moved c3-c2. @Amina — your turn (white ○): move a stone" in out
    assert "[Amina] /shax move b1-c1\n✗ It's Bashir's turn — wait for their move." in out
    assert "Amina moved a3-b3. Amina wins: three in a row. Amina: 1 in a row" in out
    assert "**" not in out and "you's" not in out
    assert "Amina: 1 in a row — three more for a gal." in out
    assert "Game over — /shax rematch to play again." in out
    assert "[Amina] /shax move c1-c2\n✗ There is no game in this channel." in out
    # Every move printed a board and saved a PNG under a unique name.
    paths = re.findall(r"Board image: (\S+)", out)
    assert len(paths) == 11 and len(set(paths)) == len(paths)  # the start, 10 actions
    assert all(Path(path).parent == tmp_path / "boards" for path in paths)
    for path in paths:
        assert Path(path).is_file() and Path(path).read_bytes().startswith(b"\x89PNG")
    replays = re.findall(r"Replay: (\S+)", out)
    assert len(replays) == 1 and Path(replays[0]).read_bytes().startswith(b"GIF8")
    assert out.count("   a   b   c") == 11
    assert "Against people: 1 won, 0 lost, 0 drawn" in out
    assert "1. Amina — 1 in a row" in out


def test_the_local_player_is_named_after_the_login(tmp_path: Path) -> None:
    result = run_console(
        tmp_path,
        "/shax challenge opponent:@Bashir variant:jar\n/shax accept\n/shax move b2\n",
        name=None,
        login="amina",
    )
    out = result.stdout
    assert "[amina] /shax challenge" in out
    assert "@Bashir, amina challenges you to a game of Jar" in out
    assert "Bashir accepted amina's challenge. @amina — your turn (white ○)" in out
    assert "amina placed a stone on b2. @Bashir — your turn" in out


def test_pictures_go_to_one_folder_in_the_working_directory(tmp_path: Path) -> None:
    script = "/shax play-bot level:easy variant:jar first:me\n/shax rules variant:jar\n"
    first = run_console(tmp_path, script, "--out", "shax-pictures")
    assert "pictures in shax-pictures/." in first.stdout
    run_console(tmp_path, "/shax move b2\n/shax rules variant:jar\n", "--out", "shax-pictures")
    folder = tmp_path / "shax-pictures"
    names = sorted(p.name for p in folder.iterdir())
    assert names == [
        "game1-ply0-v0-board.png",
        "game1-ply2-v2-board.png",
        "rules-jar-board-points.png",
    ]
    assert [p.name for p in tmp_path.iterdir() if p.is_dir()] == ["shax-pictures"]


def test_the_console_resumes_from_its_database(tmp_path: Path) -> None:
    run_console(tmp_path, "/as Amina\n/shax play-bot level:easy variant:jar first:me\n")
    result = run_console(tmp_path, "/as Amina\n/shax board\n")
    assert "Shax bot (easy) placed a stone" not in result.stdout  # no bot move yet: Amina's turn
    assert "@Amina — your turn (white ○): place a stone (3 in hand)" in result.stdout


def test_text_board_draws_the_lines_and_stones() -> None:
    board = text_board(replay("jar", ["a1", "b2"]))
    assert board.splitlines() == [
        " 3 ┌───┬───┐",
        "   │   │   │",
        " 2 ├───●───┤",
        "   │   │   │",
        " 1 ○───┴───┘",
        "   a   b   c",
    ]
    shax = text_board(replay("shax", []))
    assert shax.splitlines()[0] == " 7 ┌───────────┬───────────┐"
    assert shax.splitlines()[6] == " 4 ├───┼───┤       ├───┼───┤"


def test_local_players_have_stable_ids() -> None:
    assert local_user("Amina") == local_user("Amina")
    assert local_user("Amina").id == local_user("amina").id
    assert local_user("Amina").id != local_user("Bashir").id


def test_the_console_never_imports_discord() -> None:
    code = "import sys, bot.__main__, bot.console; assert 'discord' not in sys.modules"
    result = subprocess.run(
        [sys.executable, "-c", code], env={"PYTHONPATH": str(ROOT)}, capture_output=True
    )
    assert result.returncode == 0, result.stderr


def test_the_main_command_without_a_token_explains_and_starts_the_console(
    tmp_path: Path,
) -> None:
    term = Terminal(["-m", "bot", "--env-file", str(tmp_path / "none.env")], tmp_path)
    try:
        term.wait_prompt("Your name [someone]:")
        term.send("Amina\r")
        term.wait_prompt("Amina>")
        term.send("/shax play-bot level:easy variant:jar first:me\r")
        term.wait_for("@Amina — your turn (white ○): place a stone (3 in hand)")
        term.wait_prompt("Amina>")
        term.send("/quit\r")
        assert term.wait_exit() == 0
    finally:
        term.close()
    assert "No Discord token is configured" in term.text
    assert f"copy .env.example to {tmp_path / 'none.env'} and set DISCORD_TOKEN" in term.text
    assert "python -m bot local" in term.text
