"""The Somali rules page follows the English one; the named moments have their words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engine.moments import Moment
from shax_i18n import translator
from shax_i18n.catalogue import catalogue_path

DOCS = Path(__file__).resolve().parents[2] / "docs"
ENGLISH = (DOCS / "RULES.md").read_text(encoding="utf-8")
SOMALI = (DOCS / "RULES.so.md").read_text(encoding="utf-8")


def headings(text: str) -> list[str]:
    return re.findall(r"^(#+) ", text, flags=re.M)


def blocks(text: str) -> list[str]:
    return re.findall(r"^```.*?^```", text, flags=re.M | re.S)


def table_rows(text: str) -> int:
    return len(re.findall(r"^\|", text, flags=re.M))


def numbered(text: str) -> list[str]:
    return re.findall(r"^(\d+)\. ", text, flags=re.M)


def bullets(text: str) -> int:
    return len(re.findall(r"^\s*- ", text, flags=re.M))


def code_spans(text: str) -> list[str]:
    return sorted(re.findall(r"`[^`\n]+`", text))


@pytest.mark.parametrize("shape", [headings, blocks, table_rows, numbered, bullets, code_spans])
def test_the_somali_rules_page_matches_the_english_section_for_section(shape: object) -> None:
    assert shape(SOMALI) == shape(ENGLISH)  # type: ignore[operator]


def test_both_rules_pages_list_the_same_lines_of_three() -> None:
    lines = re.findall(r"[a-g]\d [a-g]\d [a-g]\d", ENGLISH)
    assert "a7 d7 g7" in lines and "d2 c2 b2" in lines
    assert re.findall(r"[a-g]\d [a-g]\d [a-g]\d", SOMALI) == lines


SOMALI_WORD = {Moment.HAARIG: "xadhig"}
"""The sources' hārig/hādig writes Somali x as h: in Somali spelling the word is xadhig."""


@pytest.mark.parametrize("moment", list(Moment))
def test_every_named_moment_has_its_word_in_both_languages(moment: Moment) -> None:
    word = moment.value.capitalize() + "!"
    assert translator("en").pgettext("moment", word) == word
    # The Somali word is the game's own name, spelt as Somali spells it.
    somali = SOMALI_WORD.get(moment, moment.value)
    assert translator("so").pgettext("moment", word) == somali.capitalize() + "!"
    assert somali in SOMALI and moment.value in ENGLISH


OTHER_BLOCKADE_WORDS = ("haarig", "xannibaad", "xayiraad", "xiritaan")


def test_the_somali_rules_page_names_the_blockade_with_one_word() -> None:
    for other in OTHER_BLOCKADE_WORDS:
        assert other not in SOMALI.lower()
    assert "xadhig" in SOMALI


def test_the_somali_catalogue_names_the_blockade_with_one_word() -> None:
    with catalogue_path("so").open("rb") as po:
        catalog = read_po(po, locale="so")
    said = [
        text
        for m in catalog
        if m.id
        for text in ([m.string] if isinstance(m.string, str) else list(m.string))
    ]
    for other in OTHER_BLOCKADE_WORDS:
        assert not [text for text in said if other in text.lower()], other
    assert sum("xadhig" in text.lower() for text in said) >= 4


RULES_PAGES_SAY = {
    "a series": ("A **series** is the games", "**Taxane**\nwaa ciyaaraha"),
    "no diagonals": ("No board\nhas diagonal lines", "Shaxna xariiq janjeera ma leh"),
    "the joins make no jare": (
        "The joins are for moving only: they make no line of three",
        "Isku xirka dhaqaaq oo keliya ayay u yihiin",
    ),
    "the opening removal takes the opponent's piece": (
        "removes any one of the first-jare player's pieces",
        "ka qaada kuwa kii\n   jaraha koowaad yeeshay",
    ),
    "a jare formed again captures": ("re-formed by moving a piece out and back", "dib loo celiyay"),
    "the opponent moves on until a way opens": ("until a way opens", "ilaa jid furmo"),
    "who places first in a series": (
        "the winner of the last game places first in the next",
        "kii ciyaartii u dambeysay\nguuleystay ayaa marka hore dhiga",
    ),
}


@pytest.mark.parametrize("point", list(RULES_PAGES_SAY))
def test_both_rules_pages_say_what_players_asked_about(point: str) -> None:
    english, somali = RULES_PAGES_SAY[point]
    assert english in ENGLISH
    assert somali in SOMALI


def test_the_readme_says_what_a_series_is_and_its_stones_beside_the_streaks_and_ratings() -> None:
    """The board picture and the results speak of a series and its stones: the README
    says what they are where it explains streaks and ratings."""
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Playing on Discord") : readme.index("### Puzzles")]
    explained = section[section.index("**Series and streaks.**") : section.index("**Ratings.**")]
    for said in ("A *series* is", "*stone*", "places first", "*gal*", "*gabad*"):
        assert said in explained
