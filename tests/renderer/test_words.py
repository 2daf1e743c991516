"""The words on the pictures follow ``BoardView.language``; a named moment is cried on the
picture and in each frame of the replay that shows it."""

from __future__ import annotations

from dataclasses import replace

import pytest

import renderer
from engine import Position, Termination, replay
from engine.moments import Moment
from engine.verdicts import Outcome
from renderer import board as board_module
from renderer.panel import moment_word
from renderer.text import status_lines, status_text
from shax_i18n import translator

EN, SO = translator("en"), translator("so")


def test_status_words_are_english_by_default_and_somali_when_asked() -> None:
    p = replay("shax", ["d7"])
    assert status_lines(p) == ("Black to place", "12 stones in hand")
    assert status_lines(p, t=SO) == ("Madow: dhig", "12 dhagax ayaa gacanta ku jira")
    assert status_text(p, t=SO) == "Madow: dhig (12 gacanta)"
    over = Outcome(None, Termination.AGREEMENT)
    assert status_lines(p, over) == ("Draw", "both players agreed")
    assert status_lines(p, over, SO) == ("Barbaro", "labada ciyaartoy ayaa isku raacay")


def test_a_somali_picture_differs_from_the_english_one() -> None:
    record = ["d7", "a7", "g7"]
    english = renderer.render_board("shax", record)
    somali = renderer.render_board("shax", record, renderer.BoardView(language="so"))
    assert english != somali
    assert somali == renderer.render_board("shax", record, renderer.BoardView(language="so"))


@pytest.mark.parametrize(
    ("moment", "en", "so"),
    [
        (Moment.IRMAAN, "Irmaan!", "Irmaan!"),
        (Moment.LABA_QAAD, "Laba-qaad!", "Laba-qaad!"),
        (Moment.HAARIG, "Haarig!", "Xadhig!"),
        (Moment.OODAN, "Oodan!", "Oodan!"),
    ],
)
def test_each_moment_has_its_cry(moment: Moment, en: str, so: str) -> None:
    assert moment_word(moment, EN) == en and moment_word(moment, SO) == so


def test_the_picture_cries_a_moment_the_last_action_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = Position.setup("shax", "a7 d7 g7 b6 f4", "c3 e3 d1")
    action = before.parse("f4-f6")
    after = before.apply(action)
    assert board_module._moments(before, action, after) == (Moment.IRMAAN,)
    view = renderer.BoardView(language="so")
    with_cry = renderer.render_position(after, action, before, view)
    monkeypatch.setattr(board_module, "SHOWN_MOMENTS", ())
    without = renderer.render_position(after, action, before, view)
    assert with_cry != without
    quiet = Position.setup("shax", "a7 d7 g7 b6 f4", "d5 c3 e3")  # d5 can block: no irmaan
    move = quiet.parse("f4-f6")
    assert board_module._moments(quiet, move, quiet.apply(move)) == ()


def test_the_replay_draws_in_the_views_language() -> None:
    record = ["a1", "b1", "c2", "a2", "b3", "c3"]
    view = renderer.BoardView()
    assert renderer.render_replay("jar", record, view) != renderer.render_replay(
        "jar", record, replace(view, language="so")
    )
