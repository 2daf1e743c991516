"""Ratings in the console: a rated hot-seat game says each change, ``/shax rating`` prints
the figures and saves the picture, ``/shax leaderboard table:`` prints the rating table;
in English and in Somali."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.console.test_session import run_console

# Amina (white) and Bashir each place a stone on the small board; Amina resigns.
SCRIPT = """\
/shax challenge opponent:@Bashir variant:shax-small
/shax accept
/shax move a1
/shax move e5
/shax resign
/shax rating user:@Bashir
/shax rating user:@Cawo
/shax leaderboard table:both
/shax leaderboard table:elo
/quit
"""


def test_a_rated_game_the_rating_and_the_table_in_the_console(tmp_path: Path) -> None:
    result = run_console(tmp_path, SCRIPT)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    changes = re.search(r"Ratings: Amina (\d+)\? \(−(\d+)\) · Bashir (\d+)\? \(\+(\d+)\)\.", out)
    assert changes, out
    amina, down, bashir, up = map(int, changes.groups())
    assert amina == 1500 - down and bashir == 1500 + up
    assert "Bashir — rating on this server (shax and shax-small)" in out
    assert f"Rating {bashir}? ± " in out and "· 1 rated game · no best yet" in out
    pictures = re.findall(r"(\S+rating\.png)", out)
    assert pictures and Path(pictures[0]).read_bytes().startswith(b"\x89PNG")
    assert "Cawo has no rating here yet" in out
    assert "Leaderboard" in out and "Ratings — established ratings on this server" in out
    assert "✗ Unknown table 'elo' — choose streaks, ratings, both or puzzles." in out


def test_ratings_in_somali_in_the_console(tmp_path: Path) -> None:
    result = run_console(tmp_path, SCRIPT, "--lang", "so")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert re.search(r"Darajooyinka: Amina \d+\? \(−\d+\) · Bashir \d+\? \(\+\d+\)\.", out)
    assert "Bashir — darajadiisa server-kan (shax iyo shaxda yar)" in out
    assert "1 ciyaar oo darajo leh" in out
    assert "Cawo weli darajo halkan kuma laha" in out
    assert "Darajooyinka — darajooyinka la xaqiijiyay ee server-kan" in out
    assert "Rating" not in out and "rated game" not in out
