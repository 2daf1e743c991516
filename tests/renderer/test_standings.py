"""The standings picture: a PNG that opens, grows a line a player, draws English and
Somali words and names of any script alike, and says each score the way players write
it."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from PIL import Image, ImageChops

from renderer.standings import (
    MARKS_SHOWN,
    MIN_WIDTH,
    Mark,
    StandingLine,
    points_text,
    render_standings,
)

WIN, DRAW, LOSS, BYE = Mark("win"), Mark("draw"), Mark("loss"), Mark("bye")
HALF = Fraction(1, 2)
LINES = [
    StandingLine(1, "Bashir", 2, (4, 2 + HALF), (DRAW, DRAW, WIN)),
    StandingLine(2, "Xaliimo Cabdiraxmaan", 1 + HALF, (4 + HALF, 2 + HALF), (DRAW, LOSS, WIN)),
    StandingLine(2, "عبد الله", 1 + HALF, (4 + HALF, 2 + HALF), (WIN, DRAW, LOSS)),
    StandingLine(4, "Cawo", 1, (5, 1 + HALF), (LOSS, WIN, BYE)),
]
ENGLISH = ("Swiss · round 3 of 5", "Points, then Buchholz, then Sonneborn–Berger")
SOMALI = ("Tartanka Swiss · wareegga 3 ee 5", "Dhibcaha, kadibna Buchholz")
HEADINGS_EN = ("Points", "Buchholz", "SB")
HEADINGS_SO = ("Dhibco", "Buchholz", "SB")


def open_png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_the_standings_are_a_png_that_opens() -> None:
    img = open_png(render_standings(LINES, *ENGLISH, HEADINGS_EN))
    assert img.format == "PNG" and img.mode == "RGB"
    width, height = img.size
    assert width >= MIN_WIDTH and 150 < height < 600


def test_more_players_make_a_taller_picture_of_the_same_width() -> None:
    few = open_png(render_standings(LINES[:2], *ENGLISH, HEADINGS_EN))
    more = open_png(render_standings(LINES, *ENGLISH, HEADINGS_EN))
    assert more.width == few.width
    assert more.height > few.height


def test_somali_words_draw_like_english_ones_and_change_only_the_words() -> None:
    english = open_png(render_standings(LINES, *ENGLISH, HEADINGS_EN))
    somali = open_png(render_standings(LINES, *SOMALI, HEADINGS_SO))
    # A heading may widen its column; the lines stay as many and as high.
    assert somali.height == english.height
    assert abs(somali.width - english.width) < 40
    band = (0, 0, MIN_WIDTH, 60)
    title = ImageChops.difference(english.crop(band), somali.crop(band)).getbbox()
    assert title is not None
    # The names' column is the same in both languages.
    names = (0, 130, 200, english.height)
    assert ImageChops.difference(english.crop(names), somali.crop(names)).getbbox() is None


def test_the_same_standings_make_the_same_bytes_and_the_theme_changes_them() -> None:
    sand = render_standings(LINES, *ENGLISH, HEADINGS_EN)
    assert render_standings(LINES, *ENGLISH, HEADINGS_EN) == sand
    assert render_standings(LINES, *ENGLISH, HEADINGS_EN, theme="night") != sand


def test_no_players_yet_still_makes_a_picture() -> None:
    img = open_png(render_standings([], "Arena", "", ("Points",)))
    assert img.width == MIN_WIDTH


def test_an_arenas_long_run_of_games_keeps_only_its_last_marks() -> None:
    games = tuple(Mark("win", "4") for _ in range(MARKS_SHOWN))
    some = open_png(render_standings([StandingLine(1, "Dahir", 80, (), games)], "Arena"))
    many = render_standings([StandingLine(1, "Dahir", 80, (), games * 3)], "Arena")
    assert open_png(many).size == some.size


def test_tie_breaks_that_do_not_match_the_headings_or_an_unknown_theme_are_refused() -> None:
    with pytest.raises(ValueError):
        render_standings(LINES, *ENGLISH, ("Points", "Buchholz"))
    with pytest.raises(ValueError):
        render_standings(LINES, *ENGLISH, HEADINGS_EN, theme="neon")


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (0, "0"),
        (2, "2"),
        (HALF, "½"),
        (Fraction(3, 2), "1½"),
        (Fraction(15, 4), "3¾"),
        (Fraction(1, 4), "¼"),
        (Fraction(-1, 2), "-½"),
        (Fraction(1, 3), "0.33"),
    ],
)
def test_a_score_is_written_in_whole_points_and_quarters(value: Fraction, written: str) -> None:
    assert points_text(value) == written
