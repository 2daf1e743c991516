"""Hints and the review in the console (``python -m bot local``), against the real AI."""

from __future__ import annotations

from pathlib import Path

from bot.words import EN, REVIEWING, hints_used
from tests.bot.console.test_session import run_console

SCRIPT = """\
/shax hint
/shax play-bot level:easy variant:jar first:me
/shax hint
/shax move b2
/shax hint
/shax resign
/shax hint
/shax review
/quit
"""


def test_hints_and_the_review_in_the_console(tmp_path: Path) -> None:
    done = run_console(tmp_path, SCRIPT)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    before_the_game = out.split("[Amina] /shax play-bot")[0]
    assert "✗ There is no game in this channel" in before_the_game
    assert "(only you see this) Hint 1 of 3: " in out
    assert "(only you see this) Hint 2 of 3: " in out
    assert hints_used(EN, 2, 3) in out  # in the game's summary
    assert out.count("✗") == 2  # no game yet; no game after the resignation
    assert REVIEWING in out
    assert "(only you see this) Review of Amina vs Shax bot (easy) (2 actions)" in out
    pictures = {p.name for p in (tmp_path / "boards").iterdir()}
    assert {"game1-ply0-hint.png", "game1-ply2-hint.png"} <= pictures
    assert "game1-review.png" in pictures
    assert "Traceback" not in done.stderr


def test_a_hint_asked_again_is_shown_again_without_spending_another(tmp_path: Path) -> None:
    script = "/shax play-bot level:easy variant:jar first:me\n" + "/shax hint\n" * 3
    done = run_console(tmp_path, script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("(only you see this) Hint 1 of 3: ") == 3
    assert "Hint 2 of 3" not in out and "✗" not in out


def test_the_review_of_a_game_in_play_is_refused_before_anything_else(tmp_path: Path) -> None:
    script = "/shax play-bot level:easy variant:jar first:me\n/shax review\n"
    done = run_console(tmp_path, script)
    assert done.returncode == 0, done.stderr
    answer = done.stdout.split("[Amina] /shax review\n", 1)[1]
    assert answer.startswith("✗ ")
    assert REVIEWING not in done.stdout
