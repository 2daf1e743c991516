"""Every reason the engine gives for an action has its own words, in every language, and
a proven win says in how many moves."""

from __future__ import annotations

import pytest

from bot.service.teacher import REASON_WORDS
from bot.words.teacher import BALANCED, answer_words, reason_words
from engine.explain import Reason
from shax_i18n import LANGUAGES, translator
from tests.services import voice

EN = translator("en")


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_reason_but_the_general_one_has_words_of_its_own(language: str) -> None:
    t = translator(language)
    general = t.gettext(BALANCED)
    for reason in Reason:
        words = reason_words(t, reason.value, ("a1", "a4", "a7"), 3)
        assert (words == general) is (reason is Reason.KEEPS_BALANCE), reason


def test_a_proven_win_says_its_moves() -> None:
    assert reason_words(EN, "table_win", ("a1", "a3"), 4) == (
        "it wins in 4 moves with perfect play, by the endgame tables"
    )
    assert reason_words(EN, "forced_win", ("a1", "a3"), 1) == ("it forces a win in at most 1 move")


def test_a_turning_point_can_say_the_answer_the_move_allowed() -> None:
    why = REASON_WORDS("closes_jare", ("c3", "d3", "e3"), 0)
    assert answer_words(voice(), "a7-d7", "d2-d3", why) == (
        "after a7-d7 they answer **d2-d3**, and it closes a jare on c3 d3 e3: one of their "
        "stones comes off"
    )
