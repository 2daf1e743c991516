"""Glicko-2 arithmetic against Glickman's worked example, and the directions a single game
moves the numbers."""

from __future__ import annotations

import math

import pytest

from bot.service.glicko import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    PROVISIONAL_DEVIATION,
    SCALE,
    Rating,
    Result,
    expected_score,
    idle,
    rate,
)

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = (Rating(1400, 30), Rating(1550, 100), Rating(1700, 300))


def test_the_papers_worked_example_to_its_published_decimals() -> None:
    # "Example of the Glicko-2 system" (Glickman, 2013), with τ = 0.5: the player wins
    # against 1400/30 and loses to 1550/100 and 1700/300.
    results = [Result(OPPONENTS[0], 1), Result(OPPONENTS[1], 0), Result(OPPONENTS[2], 0)]
    after = rate(PLAYER, results, tau=0.5)
    # The paper's step 7 on its own scale: μ' = -0.2069, φ' = 0.8722, σ' = 0.05999.
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    assert abs(after.volatility - 0.05999) < 1e-5  # the paper shows 0.059996 cut to 0.05999
    # Step 8: r' = 1464.06 and RD' = 151.52, which the paper converts from the rounded
    # μ' and φ' (unrounded, r' is 1464.0507).
    assert round(SCALE * -0.2069 + 1500, 2) == 1464.06 and abs(after.rating - 1464.06) < 0.01
    assert round(after.deviation, 2) == 151.52


def test_the_papers_expected_scores() -> None:
    # E(μ, μj, φj) for the three opponents: 0.639, 0.432, 0.303.
    assert [round(expected_score(PLAYER, o), 3) for o in OPPONENTS] == [0.639, 0.432, 0.303]


@pytest.mark.parametrize("opponent", [1300.0, 1500.0, 1700.0])
def test_a_win_raises_a_loss_lowers_and_a_draw_moves_towards_the_opponent(
    opponent: float,
) -> None:
    player, other = Rating(1500, 120), Rating(opponent, 120)
    win, draw, loss = (rate(player, [Result(other, s)]) for s in (1.0, 0.5, 0.0))
    assert win.rating > player.rating > loss.rating
    if opponent > player.rating:
        assert draw.rating > player.rating
    elif opponent < player.rating:
        assert draw.rating < player.rating
    else:
        assert math.isclose(draw.rating, player.rating)
    # A game is information: every result narrows the deviation.
    assert all(r.deviation < player.deviation for r in (win, draw, loss))


def test_beating_a_stronger_player_is_worth_more() -> None:
    player = Rating(1500, 100)
    gains = [rate(player, [Result(Rating(o, 100), 1.0)]).rating - 1500 for o in (1300, 1500, 1700)]
    assert gains[0] < gains[1] < gains[2]


def test_a_newcomer_moves_fast_and_is_provisional() -> None:
    newcomer = Rating()
    assert newcomer.provisional and newcomer.shown == "1500?"
    once = rate(newcomer, [Result(Rating(1500, 60), 1.0)])
    assert once.rating - 1500 > 100 and once.provisional
    settled = Rating(1620.4, PROVISIONAL_DEVIATION)
    assert not settled.provisional and settled.shown == "1620"


def test_idle_days_widen_the_deviation_within_bounds() -> None:
    settled = Rating(1700, 60)
    assert idle(settled, 0) == settled
    month, year = idle(settled, 30), idle(settled, 365 * 5)
    assert 60 < month.deviation < year.deviation <= 350
    assert month.rating == settled.rating
    assert rate(Rating(1500, MAX_DEVIATION), []).deviation == MAX_DEVIATION
    sure = Rating(1500, MIN_DEVIATION, 0.0001)
    for _ in range(50):
        sure = rate(sure, [Result(Rating(1500, 50), 0.5)])
    assert sure.deviation == MIN_DEVIATION


def test_a_score_is_a_win_a_draw_or_a_loss() -> None:
    with pytest.raises(ValueError, match=r"a score is 0, 0\.5 or 1"):
        Result(Rating(), 0.7)
