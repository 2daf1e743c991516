"""Glicko-2 ratings, as Mark Glickman's paper "Example of the Glicko-2 system" describes them
and as lichess applies them: every rated game is a rating period of its own, and a
player's deviation grows again with the days they did not play.

A :class:`~bot.standings.Rating` is an immutable value on the familiar scale (1500 for a newcomer, a
deviation of 350); :func:`rate` gives the rating after a period's games. Nothing here
stores anything or knows who played: the service decides which games count and keeps
both the ratings and each game's before and after.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.standings import PROVISIONAL_DEVIATION as PROVISIONAL_DEVIATION
from bot.standings import START_DEVIATION as START_DEVIATION
from bot.standings import START_RATING as START_RATING
from bot.standings import START_VOLATILITY as START_VOLATILITY
from bot.standings import Rating as Rating

SCALE = 173.7178
"""Glicko-2's internal scale: rating points per unit (``400 / ln 10``)."""
TAU = 0.75
"""How much the volatility may change over time (lichess's choice; the paper suggests
0.3 to 1.2). Smaller values make ratings steadier against upsets."""
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
PERIODS_PER_DAY = 0.21436
"""How many rating periods a day without a game counts for, for the deviation's growth
(lichess's constant: a deviation of 60 grows back to 350 over about a year idle)."""
CONVERGENCE = 1e-6
"""The volatility iteration stops once its bracket is narrower than this (the paper's ε)."""


@dataclass(frozen=True)
class Result:
    """One game of a rating period: the opponent's rating then, and the score (1 a win,
    0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if self.score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a score is 0, 0.5 or 1, not {self.score}")


def idle(rating: Rating, days: float) -> Rating:
    """The rating after ``days`` without a game: the deviation grows (step 6 of the paper
    for a fraction of a period per day), never beyond :data:`MAX_DEVIATION` nor above a
    newcomer's."""
    if days <= 0:
        return rating
    phi = rating.deviation / SCALE
    periods = days * PERIODS_PER_DAY
    grown = math.sqrt(phi * phi + periods * rating.volatility**2) * SCALE
    return replace(rating, deviation=min(grown, max(rating.deviation, START_DEVIATION)))


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``results`` (steps 2 to 8 of the
    paper). With no games, only the deviation grows by one period."""
    mu = (player.rating - START_RATING) / SCALE
    phi, sigma = player.deviation / SCALE, player.volatility
    if not results:
        grown = math.sqrt(phi * phi + sigma * sigma)
        return replace(player, deviation=_bounded(grown * SCALE))
    # Step 3 and 4: the estimated variance v and the improvement Δ.
    inverse_v = 0.0
    gain = 0.0
    for result in results:
        mu_j = (result.opponent.rating - START_RATING) / SCALE
        g_j = _g(result.opponent.deviation / SCALE)
        e_j = _expected(mu, mu_j, g_j)
        inverse_v += g_j * g_j * e_j * (1 - e_j)
        gain += g_j * (result.score - e_j)
    v = 1 / inverse_v
    delta = v * gain
    # Step 5: the new volatility.
    new_sigma = _volatility(phi, sigma, v, delta, tau)
    # Steps 6 and 7: the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating(
        rating=new_mu * SCALE + START_RATING,
        deviation=_bounded(new_phi * SCALE),
        volatility=new_sigma,
    )


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent (the paper's E)."""
    mu = (player.rating - START_RATING) / SCALE
    mu_j = (opponent.rating - START_RATING) / SCALE
    return _expected(mu, mu_j, _g(opponent.deviation / SCALE))


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1 / (1 + math.exp(-g_j * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm, as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def _bounded(deviation: float) -> float:
    return min(max(deviation, MIN_DEVIATION), MAX_DEVIATION)
