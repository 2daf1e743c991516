"""Scores and places worked out by hand: a Swiss player's record, the standings with
Buchholz and Sonneborn–Berger, and lichess's arena streak."""

from __future__ import annotations

from fractions import Fraction

from bot.tournaments.scoring import (
    ArenaResult,
    Bye,
    Entrant,
    Game,
    arena_points,
    swiss_players,
    swiss_standings,
)

PLAYERS = [Entrant(1, 1900.0), Entrant(2, 1800.0), Entrant(3, 1700.0), Entrant(4, 1600.0)]

# Three rounds of four players:
#   round 1: 1 beats 3, 2 draws with 4
#   round 2: 1 draws with 2, 3 beats 4
#   round 3: 4 beats 1, 2 beats 3
# Points: 1 = 1½, 2 = 2, 3 = 1, 4 = 1½.
TABLE = [
    Game(1, 1, 3, "white"),
    Game(1, 2, 4, "draw"),
    Game(2, 2, 1, "draw"),
    Game(2, 3, 4, "white"),
    Game(3, 1, 4, "black"),
    Game(3, 3, 2, "black"),
]


def test_the_standings_of_a_small_table_match_the_hand_worked_ones() -> None:
    rows = swiss_standings(PLAYERS, TABLE, [])
    # Buchholz: 1 met 3, 2, 4 = 1 + 2 + 1½ = 4½; 2 met 4, 1, 3 = 1½ + 1½ + 1 = 4;
    # 3 met 1, 4, 2 = 1½ + 1½ + 2 = 5; 4 met 2, 3, 1 = 2 + 1 + 1½ = 4½.
    # Sonneborn–Berger: 1 beat 3 (1), drew 2 (½ of 2) = 2; 2 drew 4 and 1 (¾ + ¾), beat
    # 3 (1) = 2½; 3 beat 4 = 1½; 4 drew 2 (1), beat 1 (1½) = 2½.
    # 1 and 4 tie on points and Buchholz; 4's Sonneborn–Berger puts 4 ahead.
    table = [(r.rank, r.id, r.points, r.buchholz, r.sonneborn_berger) for r in rows]
    half = Fraction(1, 2)
    assert table == [
        (1, 2, 2, 4, 2 + half),
        (2, 4, 1 + half, 4 + half, 2 + half),
        (3, 1, 1 + half, 4 + half, 2),
        (4, 3, 1, 5, 1 + half),
    ]


def test_players_equal_in_every_tie_break_share_a_rank_and_keep_the_seed_order() -> None:
    # 1 beats 2; 3 has the bye. A bye adds nothing to Buchholz: 1 met a player with no
    # points, 3 met nobody, so both have 1 point, Buchholz 0 and Sonneborn–Berger 0.
    entrants = [Entrant(3, 1700.0), Entrant(2, 1800.0), Entrant(1, 1900.0)]
    rows = swiss_standings(entrants, [Game(1, 1, 2, "white")], [Bye(1, 3)])
    one, none = Fraction(1), Fraction(0)
    assert [(r.rank, r.id, r.points, r.buchholz) for r in rows] == [
        (1, 1, one, none),
        (1, 3, one, none),
        (3, 2, none, one),
    ]


def test_a_game_still_played_counts_as_met_but_adds_no_points() -> None:
    games = [Game(1, 1, 3, "white"), Game(1, 2, 4, None)]
    rows = {r.id: r for r in swiss_standings(PLAYERS, games, [])}
    assert rows[2].points == 0 and rows[4].points == 0 and rows[4].buchholz == 0
    players = {p.id: p for p in swiss_players(PLAYERS, games, [])}
    assert players[2].opponents == (4,) and players[4].colours == ("black",)


def test_a_players_record_comes_in_round_order_with_the_bye_as_no_colour() -> None:
    entrants = [*PLAYERS, Entrant(5, 1500.0, withdrawn=True)]
    games = [Game(2, 5, 1, "white"), Game(1, 2, 5, "draw"), Game(3, 3, 5, "black")]
    players = {p.id: p for p in swiss_players(entrants, games, [Bye(4, 5)])}
    five = players[5]
    assert five.opponents == (2, 1, 3)
    assert five.colours == ("black", "white", "black", None)
    assert five.score == 1 + 2 + 2 + 2 and five.had_bye and five.withdrawn
    assert five.seed == 1500.0
    assert players[1].score == 0 and players[1].colours == ("black",)


def test_the_arena_streak_doubles_points_after_two_wins_in_a_row() -> None:
    # lichess's own example: two wins and a draw are 2 + 2 + (2 x 1) = 6.
    results: list[ArenaResult] = ["win", "win", "draw", "win", "win", "win", "win", "loss", "win"]
    expected = [2, 2, 2, 2, 2, 4, 4, 0, 2]
    streak, points = 0, []
    streaks = []
    for result in results:
        gained, streak = arena_points(result, streak)
        points.append(gained)
        streaks.append(streak)
    assert points == expected
    assert sum(points[:3]) == 6
    assert streaks == [1, 2, 0, 1, 2, 3, 4, 0, 1]


def test_a_draw_on_fire_is_doubled_and_ends_the_streak() -> None:
    assert arena_points("draw", 2) == (2, 0)
    assert arena_points("draw", 1) == (1, 0)
    assert arena_points("loss", 5) == (0, 0)
    assert arena_points("win", 0) == (2, 1)
