"""Swiss rounds and arena games paired against hand-worked examples: score groups, no
rematch, byes, colour balance, withdrawals, the last arena opponent, the same pairs for
the same players."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.tournaments.pairing import (
    ArenaPlayer,
    Colour,
    SwissPlayer,
    arena_pairs,
    bye_order,
    swiss_round,
)
from bot.tournaments.scoring import Bye, Entrant, Game, GameResult, swiss_players

SEEDS = {1: 1900.0, 2: 1800.0, 3: 1700.0, 4: 1600.0, 5: 1500.0, 6: 1400.0}
"""Player 1 is the top seed, and so on down."""
RESULTS: tuple[GameResult, ...] = ("white", "black", "draw")


def entrants(n: int) -> list[Entrant]:
    return [Entrant(i, SEEDS.get(i, 2000.0 - 100 * i)) for i in range(1, n + 1)]


# -- Swiss: score groups ------------------------------------------------------------


def test_a_first_round_pairs_the_top_half_against_the_bottom_half() -> None:
    round_one = swiss_round(swiss_players(entrants(4), [], []))
    assert round_one.bye is None
    assert round_one.pairs == ((1, 3), (2, 4))


def test_after_a_round_the_winners_meet_and_the_losers_meet() -> None:
    # Round 1: 1 beat 3, 2 beat 4: scores 1/1/0/0.
    games = [Game(1, 1, 3, "white"), Game(1, 2, 4, "white")]
    pairs = swiss_round(swiss_players(entrants(4), games, [])).pairs
    assert {frozenset(p) for p in pairs} == {frozenset((1, 2)), frozenset((3, 4))}
    # The top board is the winners' game.
    assert set(pairs[0]) == {1, 2}


def test_no_rematch_even_where_equal_scores_would_ask_for_one() -> None:
    # 1 beat 2, 3 beat 4; then 1 beat 3, 2 drew with 4: scores 2, ½, 1, ½ (in points).
    # Equal scores would pair 1-3 and 2-4 again; the only new round is 1-4 and 2-3.
    games = [
        Game(1, 1, 2, "white"),
        Game(1, 3, 4, "white"),
        Game(2, 3, 1, "black"),
        Game(2, 4, 2, "draw"),
    ]
    pairs = swiss_round(swiss_players(entrants(4), games, [])).pairs
    assert {frozenset(p) for p in pairs} == {frozenset((1, 4)), frozenset((2, 3))}


def test_a_rematch_is_paired_only_when_every_round_needs_one() -> None:
    # Three rounds of four players: everyone has met everyone; a fourth round still pairs.
    games = [
        Game(1, 1, 2, "draw"),
        Game(1, 3, 4, "draw"),
        Game(2, 4, 1, "draw"),
        Game(2, 2, 3, "draw"),
        Game(3, 1, 3, "draw"),
        Game(3, 4, 2, "draw"),
    ]
    round_four = swiss_round(swiss_players(entrants(4), games, []))
    assert len(round_four.pairs) == 2 and round_four.bye is None
    assert sorted(i for pair in round_four.pairs for i in pair) == [1, 2, 3, 4]
    # Two players who have met are still paired: a small event goes on.
    again = swiss_round(swiss_players(entrants(2), [Game(1, 1, 2, "white")], []))
    assert again.pairs == ((2, 1),)


# -- Swiss: byes --------------------------------------------------------------------


def test_an_odd_first_round_gives_the_bye_to_the_lowest_seed() -> None:
    round_one = swiss_round(swiss_players(entrants(5), [], []))
    assert round_one.bye == 5
    assert sorted(i for pair in round_one.pairs for i in pair) == [1, 2, 3, 4]


def test_the_bye_goes_to_the_lowest_score_that_has_not_had_one() -> None:
    # 5 had the bye and has since lost: lowest of all, but the bye goes to 4.
    players = [
        SwissPlayer(1, 4, (3, 4), ("white", "black"), seed=1900),
        SwissPlayer(2, 4, (4, 5), ("black", "white"), seed=1800),
        SwissPlayer(3, 2, (1, 5), ("black", "white"), seed=1700),
        SwissPlayer(4, 0, (2, 1), ("white", "black"), seed=1600),
        SwissPlayer(5, 0, (2, 3), (None, "black", "black"), had_bye=True, seed=1500),
    ]
    assert swiss_round(players).bye == 4
    assert [p.id for p in bye_order(players)][:2] == [4, 3]


def test_the_bye_passes_up_the_order_when_its_first_choice_would_force_a_rematch() -> None:
    # 5 is lowest, but without 5, player 1 (who met 2, 3 and 4) could only play again:
    # the bye goes to the next in the order, 4, and 1 meets 5.
    players = [
        SwissPlayer(1, 6, (2, 3, 4), ("white", "black", "white"), seed=1900),
        SwissPlayer(2, 2, (1,), ("black",), seed=1800),
        SwissPlayer(3, 2, (1,), ("white",), seed=1700),
        SwissPlayer(4, 2, (1,), ("black",), seed=1600),
        SwissPlayer(5, 0, (), (), seed=1500),
    ]
    assert [p.id for p in bye_order(players)][:2] == [5, 4]
    round_four = swiss_round(players)
    assert round_four.bye == 4
    assert {frozenset(p) for p in round_four.pairs} == {frozenset((1, 5)), frozenset((2, 3))}


def test_nobody_gets_a_second_bye_over_a_whole_event() -> None:
    seen = play_swiss(5, rounds=5)
    assert sorted(seen.byes) == [1, 2, 3, 4, 5]


# -- Swiss: colours -----------------------------------------------------------------


def test_a_player_with_two_whites_in_a_row_gets_black_though_the_higher_seed() -> None:
    players = [
        SwissPlayer(1, 2, (5, 6), ("white", "white"), seed=1900),
        SwissPlayer(2, 2, (6, 5), ("white", "black"), seed=1800),
    ]
    assert swiss_round(players).pairs == ((2, 1),)


def test_the_player_who_had_white_more_takes_black() -> None:
    players = [
        SwissPlayer(1, 2, (5, 6, 7), ("black", "white", "white"), seed=1900),
        SwissPlayer(2, 2, (6, 5, 7), ("white", "black", "black"), seed=1800),
    ]
    assert swiss_round(players).pairs == ((2, 1),)


def test_equal_colours_alternate_from_the_last_game_then_the_higher_seed_has_white() -> None:
    alternate = [
        SwissPlayer(1, 2, (5, 6), ("black", "white"), seed=1900),
        SwissPlayer(2, 2, (6, 5), ("white", "black"), seed=1800),
    ]
    assert swiss_round(alternate).pairs == ((2, 1),)
    fresh = [SwissPlayer(1, 0, seed=1800), SwissPlayer(2, 0, seed=1900)]
    assert swiss_round(fresh).pairs == ((2, 1),)


def test_no_third_colour_in_a_row_nor_a_colour_difference_over_two_in_a_whole_event() -> None:
    # Rounds paired one at a time can run out of new opponents near a round robin's length
    # (six players, a fourth round): these events stop short of that.
    for n, rounds in ((6, 3), (7, 5), (8, 6), (10, 7)):
        seen = play_swiss(n, rounds)
        for colours in seen.colours.values():
            played = [c for c in colours if c is not None]
            runs = ["".join(c[0] for c in played[k : k + 3]) for k in range(len(played) - 2)]
            assert "www" not in runs and "bbb" not in runs, (n, colours)
            assert abs(played.count("white") - played.count("black")) <= 2, (n, colours)
        assert not seen.rematches, n


# -- Swiss: withdrawals and determinism ------------------------------------------


def test_a_withdrawn_player_is_never_paired_nor_given_the_bye() -> None:
    people = [*entrants(4), Entrant(5, 1500.0, withdrawn=True)]
    round_one = swiss_round(swiss_players(people, [], []))
    assert round_one.bye is None
    assert sorted(i for pair in round_one.pairs for i in pair) == [1, 2, 3, 4]
    people = [*entrants(3), Entrant(4, 1600.0, withdrawn=True)]
    odd = swiss_round(swiss_players(people, [], []))
    assert odd.bye == 3 and odd.pairs == ((1, 2),)


def test_the_same_players_in_any_order_give_the_same_round() -> None:
    games = [Game(1, 1, 4, "white"), Game(1, 2, 5, "draw"), Game(1, 3, 6, "black")]
    players = list(swiss_players(entrants(7), games, [Bye(1, 7)]))
    first = swiss_round(players)
    for seed in range(5):
        random.Random(seed).shuffle(players)
        assert swiss_round(players) == first


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        swiss_round([SwissPlayer(1, 0), SwissPlayer(1, 2)])
    with pytest.raises(ValueError):
        arena_pairs([ArenaPlayer(1, 0), ArenaPlayer(1, 2)])


def test_nobody_or_one_player_makes_no_game() -> None:
    assert swiss_round([]).pairs == () and swiss_round([]).bye is None
    assert swiss_round([SwissPlayer(1, 0)]).bye == 1
    assert arena_pairs([]).pairs == ()
    assert arena_pairs([ArenaPlayer(1, 0)]).waiting == (1,)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 11), st.integers(1, 6), st.integers(0, 2**32 - 1))
@example(5, 4, 111126384)  # two left with a bye and one without: a rematch, not a second bye
def test_every_round_seats_each_player_still_in_once_and_gives_a_bye_only_when_odd(
    n: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    people = entrants(n)
    games: list[Game] = []
    byes: list[Bye] = []
    for number in range(1, rounds + 1):
        if rng.random() < 0.2:  # someone leaves before the round
            leaving = rng.choice(people)
            people = [Entrant(e.id, e.seed, e.withdrawn or e is leaving) for e in people]
        players = swiss_players(people, games, byes)
        paired = swiss_round(players)
        active = sorted(p.id for p in players if not p.withdrawn)
        seated = [i for pair in paired.pairs for i in pair]
        if paired.bye is not None:
            seated.append(paired.bye)
            had = {b.player for b in byes}
            assert paired.bye not in had or set(active) <= had
        assert sorted(seated) == active
        assert (paired.bye is None) == (len(active) % 2 == 0)
        assert swiss_round(reversed(players)) == paired
        if paired.bye is not None:
            byes.append(Bye(number, paired.bye))
        for white, black in paired.pairs:
            games.append(Game(number, white, black, rng.choice(RESULTS)))


# -- arena --------------------------------------------------------------------------


def test_arena_players_near_in_score_meet() -> None:
    free = [ArenaPlayer(1, 20), ArenaPlayer(2, 2), ArenaPlayer(3, 18), ArenaPlayer(4, 0)]
    pairs = arena_pairs(free).pairs
    assert {frozenset(p) for p in pairs} == {frozenset((1, 3)), frozenset((2, 4))}


def test_an_arena_player_does_not_meet_the_last_opponent_while_anyone_else_is_free() -> None:
    free = [
        ArenaPlayer(1, 10, last_opponent=2),
        ArenaPlayer(2, 10, last_opponent=1),
        ArenaPlayer(3, 0),
    ]
    result = arena_pairs(free)
    assert len(result.pairs) == 1 and frozenset(result.pairs[0]) != frozenset((1, 2))
    assert len(result.waiting) == 1
    # Alone together, they play again rather than wait.
    both = arena_pairs(free[:2])
    assert {frozenset(p) for p in both.pairs} == {frozenset((1, 2))} and both.waiting == ()


def test_an_odd_arena_player_waits() -> None:
    result = arena_pairs([ArenaPlayer(1, 8), ArenaPlayer(2, 6), ArenaPlayer(3, 0)])
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 2))}
    assert result.waiting == (3,)


def test_the_arena_player_with_more_whites_takes_black() -> None:
    free = [ArenaPlayer(1, 4, seed=1900, colour_balance=1), ArenaPlayer(2, 4, seed=1500)]
    assert arena_pairs(free).pairs == ((2, 1),)
    even = [ArenaPlayer(1, 4, seed=1500), ArenaPlayer(2, 4, seed=1900)]
    assert arena_pairs(even).pairs == ((2, 1),)


def test_the_same_free_arena_players_in_any_order_give_the_same_games() -> None:
    free = [ArenaPlayer(i, (i * 7) % 5, seed=1500 + i, last_opponent=i + 1) for i in range(9)]
    first = arena_pairs(free)
    for seed in range(5):
        random.Random(seed).shuffle(free)
        assert arena_pairs(free) == first


# -- a whole Swiss, played by seed ------------------------------------------------


class Played:
    """What a simulated event showed: the byes given, each player's colours, rematches."""

    def __init__(self) -> None:
        self.byes: list[int] = []
        self.colours: dict[int, list[Colour | None]] = {}
        self.rematches: list[tuple[int, int]] = []


def play_swiss(n: int, rounds: int) -> Played:
    """``rounds`` rounds of ``n`` players, each game won by the higher seed except every
    third board drawn, paired by :func:`swiss_round` from the stored games and byes."""
    people = entrants(n)
    games: list[Game] = []
    byes: list[Bye] = []
    seen = Played()
    met: set[frozenset[int]] = set()
    for number in range(1, rounds + 1):
        paired = swiss_round(swiss_players(people, games, byes))
        if paired.bye is not None:
            byes.append(Bye(number, paired.bye))
            seen.byes.append(paired.bye)
        for board, (white, black) in enumerate(paired.pairs):
            if frozenset((white, black)) in met:
                seen.rematches.append((white, black))
            met.add(frozenset((white, black)))
            result: GameResult = (
                "draw" if board % 3 == 2 else ("white" if white < black else "black")
            )
            games.append(Game(number, white, black, result))
    for p in swiss_players(people, games, byes):
        seen.colours[p.id] = list(p.colours)
    return seen
