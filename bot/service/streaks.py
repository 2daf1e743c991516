"""Scoring stones, streaks, gal and gabad (RULES.md, "Series and streaks"; source 004).

Pure arithmetic, no I/O. A win adds a stone, consecutive wins add stones, a loss
wipes the loser's stones, a draw breaks nobody's streak. Four wins in a row are a
**gal**, five a **gabad**; each is counted once, when the streak reaches it.

Two things are kept (their values, :mod:`bot.standings`, are stored as they are handed
over: the kernel computes them here, the storage writes them):

* a :class:`Tally` per (server, player, opponent kind): the player's record and
  streak against people (``"human"``) or against one bot level (``"bot:hard"``);
* a :class:`Series` per pair of opponents: who holds the scoring stones in the
  central square, how many, and who places first next.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Literal

from bot.standings import Series, Standings, Tally

__all__ = [
    "GABAD",
    "GAL",
    "HUMAN",
    "Result",
    "Series",
    "Tally",
    "bot_kind",
    "first_to_place",
    "series_after",
    "standings_after",
    "tally_after",
]

GAL = 4
GABAD = 5
HUMAN = "human"

Result = Literal["win", "loss", "draw"]


def bot_kind(level: str) -> str:
    """The opponent kind of a bot level: ``"bot:hard"``."""
    return f"bot:{level}"


def tally_after(tally: Tally, result: Result) -> Tally:
    """The tally after one more game."""
    if result == "draw":
        return replace(tally, draws=tally.draws + 1)
    if result == "loss":
        return replace(tally, losses=tally.losses + 1, streak=0)
    streak = tally.streak + 1
    return replace(
        tally,
        wins=tally.wins + 1,
        streak=streak,
        best=max(tally.best, streak),
        gal=tally.gal + (streak == GAL),
        gabad=tally.gabad + (streak == GABAD),
    )


def series_after(series: Series, white: str, black: str, winner: str | None) -> Series:
    """The series after a game between ``white`` and ``black``."""
    if winner is None:
        return replace(series, last_white=white, last_winner=None, games=series.games + 1)
    stones = series.stones + 1 if winner == series.holder else 1
    return Series(winner, stones, white, winner, series.games + 1)


def first_to_place(series: Series, challenger: str, other: str) -> str:
    """Who places first next: the last winner; after a draw, whoever placed second last
    time; in a new series, the challenger."""
    if series.last_white is None or series.last_white not in (challenger, other):
        return challenger
    if series.last_winner is not None:
        return series.last_winner
    return other if series.last_white == challenger else challenger


def standings_after(
    before: Standings,
    results: Mapping[int, Result],
    white: str,
    black: str,
    winner: str | None,
) -> Standings:
    """The standings after a game: each person's tally by their result (by user id), and
    the series between ``white`` and ``black`` (the winner's key, ``None`` for a draw)."""
    return Standings(
        {user: tally_after(before.tallies[user], result) for user, result in results.items()},
        series_after(before.series, white, black, winner),
    )
