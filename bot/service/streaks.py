"""Scoring stones, streaks, gal and gabad (RULES.md, "Series and streaks"; source 004).

Pure arithmetic, no I/O. A win adds a stone, consecutive wins add stones, a loss
wipes the loser's stones, a draw breaks nobody's streak. Four wins in a row are a
**gal**, five a **gabad**; each is counted once, when the streak reaches it.

Two things are kept:

* a :class:`Tally` per (server, player, opponent kind): the player's record and
  streak against people (``"human"``) or against one bot level (``"bot:hard"``);
* a :class:`Series` per pair of opponents: who holds the scoring stones in the
  central square, how many, and who places first next.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

GAL = 4
GABAD = 5
HUMAN = "human"

Result = Literal["win", "loss", "draw"]


def bot_kind(level: str) -> str:
    """The opponent kind of a bot level: ``"bot:hard"``."""
    return f"bot:{level}"


@dataclass(frozen=True)
class Tally:
    """A player's record against one kind of opponent."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0
    """Wins in a row now (draws do not break it)."""
    best: int = 0
    """The longest streak ever."""
    gal: int = 0
    gabad: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def after(self, result: Result) -> Tally:
        """The tally after one more game."""
        if result == "draw":
            return replace(self, draws=self.draws + 1)
        if result == "loss":
            return replace(self, losses=self.losses + 1, streak=0)
        streak = self.streak + 1
        return replace(
            self,
            wins=self.wins + 1,
            streak=streak,
            best=max(self.best, streak),
            gal=self.gal + (streak == GAL),
            gabad=self.gabad + (streak == GABAD),
        )


@dataclass(frozen=True)
class Series:
    """Games between two opponents (players, or a player and a bot level), each
    named by a key such as ``"u:123"`` or ``"bot:hard"``."""

    holder: str | None = None
    """Who has the scoring stones in the central square."""
    stones: int = 0
    last_white: str | None = None
    """Who placed first in the last game."""
    last_winner: str | None = None
    """Who won the last game (``None`` after a draw)."""
    games: int = 0

    def after(self, white: str, black: str, winner: str | None) -> Series:
        """The series after a game between ``white`` and ``black``."""
        if winner is None:
            return replace(self, last_white=white, last_winner=None, games=self.games + 1)
        stones = self.stones + 1 if winner == self.holder else 1
        return Series(winner, stones, white, winner, self.games + 1)

    def first_to_place(self, challenger: str, other: str) -> str:
        """Who places first next: the last winner; after a draw, whoever placed
        second last time; in a new series, the challenger."""
        if self.last_white is None or self.last_white not in (challenger, other):
            return challenger
        if self.last_winner is not None:
            return self.last_winner
        return other if self.last_white == challenger else challenger
