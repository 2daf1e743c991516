"""Streak arithmetic: stones, gal and gabad, draws, series (RULES.md "Series and streaks")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.service.streaks import (
    GABAD,
    GAL,
    Series,
    Tally,
    bot_kind,
    first_to_place,
    series_after,
    tally_after,
)
from bot.words import EN, change_text, streak_phrase


def tally_of(results: str) -> Tally:
    """``"wwlwd"`` → the tally after those games."""
    t = Tally()
    for r in results:
        t = tally_after(t, {"w": "win", "l": "loss", "d": "draw"}[r])  # type: ignore[arg-type]
    return t


def test_a_win_adds_a_stone_and_consecutive_wins_add_more() -> None:
    assert tally_of("w").streak == 1
    assert tally_of("www").streak == 3


def test_a_loss_wipes_the_streak_but_not_the_best() -> None:
    t = tally_of("wwwl")
    assert (t.streak, t.best, t.wins, t.losses) == (0, 3, 3, 1)


def test_a_draw_breaks_nobodys_streak() -> None:
    t = tally_of("wwdw")
    assert (t.streak, t.draws, t.best) == (3, 1, 3)
    assert tally_of("d").streak == 0


def test_gal_is_counted_once_when_the_streak_reaches_four() -> None:
    assert tally_of("www").gal == 0
    assert tally_of("wwww").gal == 1
    assert tally_of("wwwwww").gal == 1
    assert tally_of("wwwwlwwww").gal == 2


def test_gabad_is_counted_once_when_the_streak_reaches_five() -> None:
    t = tally_of("wwwww")
    assert (t.gal, t.gabad) == (1, 1)
    assert tally_of("wwwwwwwww").gabad == 1
    assert tally_of("wwwwwlwwwww").gabad == 2


def test_draws_inside_a_run_still_reach_a_gal() -> None:
    t = tally_of("wwdwdw")
    assert (t.streak, t.gal) == (4, 1)


@given(st.text(alphabet="wld", max_size=40))
def test_tally_invariants(results: str) -> None:
    t = tally_of(results)
    assert t.games == len(results)
    assert t.wins == results.count("w") and t.losses == results.count("l")
    assert 0 <= t.streak <= t.best
    assert t.streak == results.split("l")[-1].count("w")  # wins since the last loss
    assert t.gabad <= t.gal


def test_streak_phrases() -> None:
    assert streak_phrase(1, EN) == "1 in a row — three more for a gal"
    assert streak_phrase(3, EN) == "3 in a row — one more for a gal"
    assert streak_phrase(GAL, EN) == "4 in a row: a gal!"
    assert streak_phrase(GABAD, EN) == "5 in a row: a gabad!"
    assert "7 in a row" in streak_phrase(7, EN)


def test_change_text_names_the_winner_and_the_ended_run() -> None:
    text = change_text(EN, "Amina", tally_of("www"), "Bashir", tally_of("ww"))
    assert text == "Amina: 3 in a row — one more for a gal. Bashir's run of 2 ends."
    assert change_text(EN, "Amina", tally_of("w"), "Bashir", Tally()) == (
        "Amina: 1 in a row — three more for a gal."
    )
    assert change_text(EN, None, None, None, None) == "A draw breaks nobody's streak."


def test_series_stones_go_to_the_winner_and_a_loss_wipes_them() -> None:
    s = series_after(Series(), "u:1", "u:2", "u:1")
    assert (s.holder, s.stones) == ("u:1", 1)
    s = series_after(s, "u:1", "u:2", "u:1")
    assert (s.holder, s.stones) == ("u:1", 2)
    s = series_after(s, "u:1", "u:2", None)  # a draw keeps the stones
    assert (s.holder, s.stones) == ("u:1", 2)
    s = series_after(s, "u:2", "u:1", "u:2")
    assert (s.holder, s.stones, s.games) == ("u:2", 1, 4)


def test_who_places_first_in_a_series() -> None:
    assert first_to_place(Series(), "u:1", "u:2") == "u:1"  # the challenger, in a new series
    won = series_after(Series(), "u:1", "u:2", "u:2")
    assert first_to_place(won, "u:1", "u:2") == "u:2"  # the winner
    drawn = series_after(Series(), "u:1", "u:2", None)
    assert first_to_place(drawn, "u:1", "u:2") == "u:2"  # who placed second last time
    assert first_to_place(drawn, "u:2", "u:1") == "u:2"


def test_bot_kind_names_the_level() -> None:
    assert bot_kind("hard") == "bot:hard"
