"""Every reason the engine gives for an action has its own words, in every language, and
a proven win says in how many moves."""

from __future__ import annotations

import pytest

from bot.service.texts.teacher import BALANCED, reason_words
from engine.explain import Reason
from shax_i18n import LANGUAGES, translator


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_reason_but_the_general_one_has_words_of_its_own(language: str) -> None:
    t = translator(language)
    general = t.gettext(BALANCED)
    for reason in Reason:
        words = reason_words(reason.value, ("a1", "a4", "a7"), t, moves=3)
        assert (words == general) is (reason is Reason.KEEPS_BALANCE), reason


def test_a_proven_win_says_its_moves() -> None:
    assert reason_words("table_win", ("a1", "a3"), moves=4) == (
        "it wins in 4 moves with perfect play, by the endgame tables"
    )
    assert reason_words("forced_win", ("a1", "a3"), moves=1) == (
        "it forces a win in at most 1 move"
    )
