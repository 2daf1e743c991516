"""Points and places: a Swiss player's record from the games, the standings with their
tie-breaks, and an arena game's points with the winning streak.

Pure arithmetic, no I/O. Swiss scores are counted in half-points (a win 2, a draw 1, a
loss 0, a bye 2), so no score is ever a float; :class:`StandingRow` gives the tie-breaks
as exact fractions of a point.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from bot.tournaments.pairing import Colour, PlayerId, SwissPlayer

__all__ = [
    "BYE",
    "DRAW",
    "ON_FIRE",
    "WIN",
    "ArenaResult",
    "Bye",
    "Entrant",
    "Game",
    "GameResult",
    "StandingRow",
    "arena_points",
    "swiss_players",
    "swiss_standings",
]

WIN = 2
DRAW = 1
BYE = WIN
"""Half-points: a bye is worth a win."""
ON_FIRE = 2
"""Wins in a row after which an arena game's points are doubled."""

GameResult = Literal["white", "black", "draw"]
"""Who won a finished game (a forfeit is a win for the one who stayed)."""
ArenaResult = Literal["win", "draw", "loss"]


@dataclass(frozen=True)
class Entrant:
    """A player of a Swiss as the event knows them."""

    id: PlayerId
    seed: float = 0.0
    """The rating at the start (higher first among equals)."""
    withdrawn: bool = False


@dataclass(frozen=True)
class Game:
    """A Swiss game: its round (from 1), its players, and its result (``None`` while it
    is played)."""

    round: int
    white: PlayerId
    black: PlayerId
    result: GameResult | None = None


@dataclass(frozen=True)
class Bye:
    """A round a player sat out for a bye."""

    round: int
    player: PlayerId


@dataclass(frozen=True)
class StandingRow:
    """A player's place. ``rank`` is shared by players equal in points and every
    tie-break (two players third, then fifth)."""

    rank: int
    id: PlayerId
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    seed: float


def _half_points(game: Game, player: PlayerId) -> int:
    if game.result is None:
        return 0
    if game.result == "draw":
        return DRAW
    winner = game.white if game.result == "white" else game.black
    return WIN if winner == player else 0


def swiss_players(
    entrants: Iterable[Entrant], games: Iterable[Game], byes: Iterable[Bye]
) -> tuple[SwissPlayer, ...]:
    """Each entrant as the next round's pairing sees them (:class:`SwissPlayer`): score
    from finished games and byes, opponents and colours in round order, whether they had a
    bye. A game still played counts as met, with its colours, and no points yet."""
    rounds: dict[PlayerId, list[tuple[int, PlayerId | None, Colour | None]]] = {}
    scores: dict[PlayerId, int] = {}
    people = {e.id: e for e in entrants}
    for e in people.values():
        rounds[e.id] = []
        scores[e.id] = 0
    for game in games:
        if game.white in people:
            rounds[game.white].append((game.round, game.black, "white"))
            scores[game.white] += _half_points(game, game.white)
        if game.black in people:
            rounds[game.black].append((game.round, game.white, "black"))
            scores[game.black] += _half_points(game, game.black)
    had_bye: set[PlayerId] = set()
    for bye in byes:
        if bye.player in people:
            rounds[bye.player].append((bye.round, None, None))
            scores[bye.player] += BYE
            had_bye.add(bye.player)
    out = []
    for e in sorted(people.values(), key=lambda e: e.id):
        played = sorted(rounds[e.id], key=lambda r: r[0])
        out.append(
            SwissPlayer(
                id=e.id,
                score=scores[e.id],
                opponents=tuple(them for _, them, _ in played if them is not None),
                colours=tuple(colour for _, _, colour in played),
                had_bye=e.id in had_bye,
                seed=e.seed,
                withdrawn=e.withdrawn,
            )
        )
    return tuple(out)


def swiss_standings(
    entrants: Iterable[Entrant], games: Iterable[Game], byes: Iterable[Bye]
) -> tuple[StandingRow, ...]:
    """The standings: points, then Buchholz, then Sonneborn–Berger, then seed (then id,
    so the order is the same every time); equal in the first three, equal in rank.

    * **Buchholz**: the sum of the final scores of everyone the player met. A bye met
      nobody and adds 0 (the simple rule; FIDE's "virtual opponent" is not used), so a
      bye's point helps the player's own score but not their Buchholz.
    * **Sonneborn–Berger**: the final scores of the opponents the player beat, plus half
      the scores of those they drew with; a bye adds 0 here too.

    Only finished games count; a game still played adds nothing yet.
    """
    people = {e.id: e for e in entrants}
    games = list(games)
    scores = {p.id: p.score for p in swiss_players(people.values(), games, byes)}
    buchholz = dict.fromkeys(people, 0)
    sonneborn = dict.fromkeys(people, 0)  # quarter-points: half-points times half-points
    for game in games:
        if game.result is None:
            continue
        for me, them in ((game.white, game.black), (game.black, game.white)):
            if me in people and them in scores:
                buchholz[me] += scores[them]
                sonneborn[me] += _half_points(game, me) * scores[them]
    ordered = sorted(
        people.values(),
        key=lambda e: (-scores[e.id], -buchholz[e.id], -sonneborn[e.id], -e.seed, e.id),
    )
    rows: list[StandingRow] = []
    for k, e in enumerate(ordered):
        key = (scores[e.id], buchholz[e.id], sonneborn[e.id])
        rank = k + 1
        if rows:
            last = rows[-1]
            if key == (scores[last.id], buchholz[last.id], sonneborn[last.id]):
                rank = last.rank
        rows.append(
            StandingRow(
                rank=rank,
                id=e.id,
                points=Fraction(scores[e.id], 2),
                buchholz=Fraction(buchholz[e.id], 2),
                sonneborn_berger=Fraction(sonneborn[e.id], 4),
                seed=e.seed,
            )
        )
    return tuple(rows)


def arena_points(result: ArenaResult, streak_before: int) -> tuple[int, int]:
    """An arena game's points and the player's winning streak after it, as lichess counts
    them (lichess.org/tournament/help, "How are scores calculated?"): a win 2 points, a
    draw 1, a loss 0; after two wins in a row the player is *on fire* and every game's
    points are doubled (a win 4, a draw 2) until a game is not won. ``streak_before`` is
    the player's wins in a row before this game; a draw or a loss sets it to 0.

    Two rules of lichess's that hang on a game's length are left out: a draw in the first
    ten moves, and a draw of under thirty moves right after a draw, which lichess scores 0.
    """
    doubled = 2 if streak_before >= ON_FIRE else 1
    if result == "win":
        return WIN * doubled, streak_before + 1
    if result == "draw":
        return DRAW * doubled, 0
    return 0, 0
