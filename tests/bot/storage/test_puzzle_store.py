"""Puzzles in the database, on both engines: seeding, choosing by rating, one open try a
player, and what two connections (two bot processes) do at the same moment: the same
answer twice applies once, two players ending the same puzzle both move its rating, and
a server's puzzle of the day is claimed once."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.storage import NewPuzzle, Rating, Solver, Storage

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
START = Rating(1500.0, 350.0, 0.06)


def new_puzzle(n: int, rating: float) -> NewPuzzle:
    return NewPuzzle(
        variant="shax-small",
        record=f"a{n} b{n}",
        solution="c2-c1 xa5",
        moves=1,
        depth=1,
        tempting=0,
        glicko=Rating(rating, 200.0, 0.06),
    )


def counting(before: Solver, puzzle: Rating, solved: bool) -> tuple[Solver, Rating]:
    """A rating rule whose sums show that every rated try was counted: the player's
    rating and the puzzle's each move by 10 a try."""
    sign = 1 if solved else -1
    assert before.glicko is not None or before.rated_at is None
    mine = before.glicko or START
    after = replace(
        before,
        glicko=replace(mine, rating=mine.rating + 10 * sign),
        solved=before.solved + solved,
        failed=before.failed + (not solved),
        streak=before.streak + 1 if solved else 0,
        best=max(before.best, before.streak + 1 if solved else 0),
    )
    return after, replace(puzzle, rating=puzzle.rating - 10 * sign)


async def seeded(storage: Storage) -> list[int]:
    added = await storage.puzzles.seed_puzzles([new_puzzle(n, 1000 + 100 * n) for n in range(1, 6)])
    assert added == 5
    return await storage.puzzles.puzzle_ids("shax-small")


async def test_seeding_adds_only_the_puzzles_not_yet_stored(storage: Storage) -> None:
    ids = await seeded(storage)
    first = await storage.puzzles.get_puzzle(ids[0])
    assert first is not None and first.record == ("a1", "b1")
    assert first.solution == ("c2-c1", "xa5") and first.glicko.rating == 1100
    again = await storage.puzzles.seed_puzzles([new_puzzle(1, 9999), new_puzzle(6, 1700)])
    assert again == 1
    kept = await storage.puzzles.get_puzzle(ids[0])
    assert kept is not None and kept.glicko.rating == 1100  # its rating is its own now


async def test_puzzles_near_a_rating_come_nearest_first_and_never_tried_ones(
    storage: Storage,
) -> None:
    ids = await seeded(storage)
    near = await storage.puzzles.puzzles_near("shax-small", 1320, 11, 3)
    assert [p.glicko.rating for p in near] == [1300, 1400, 1200]
    tried = await storage.puzzles.start_attempt(11, "Amina", near[0].id, NOW, start=START)
    assert tried is not None
    after = await storage.puzzles.puzzles_near("shax-small", 1320, 11, 3)
    assert near[0].id not in {p.id for p in after}
    assert [p.id for p in await storage.puzzles.puzzles_near("shax-small", 1320, 12, 1)] == [
        near[0].id
    ]
    assert await storage.puzzles.puzzles_near("shax", 1320, 11, 3) == []
    assert len(ids) == 5


async def test_a_player_has_one_open_puzzle_and_only_a_first_try_is_rated(
    storage: Storage,
) -> None:
    ids = await seeded(storage)
    first = await storage.puzzles.start_attempt(11, "Amina", ids[0], NOW, start=START)
    assert first is not None and first.rated and first.open
    assert await storage.puzzles.start_attempt(11, "Amina", ids[1], NOW, start=START) is None
    assert await storage.puzzles.open_attempt(11) == first
    ended = await storage.puzzles.end_attempt(
        first.id, 0, solved=False, played=[], wrong="a1-a2", now=NOW, rate=counting
    )
    assert ended is not None and ended.attempt.wrong == "a1-a2" and not ended.attempt.open
    again = await storage.puzzles.start_attempt(11, "Amina", ids[0], NOW, start=START)
    assert again is not None and not again.rated
    unrated = await storage.puzzles.end_attempt(again.id, 0, solved=True, played=["c2-c1", "xa5"],
                                        now=NOW, rate=counting)  # fmt: skip
    assert unrated is not None and unrated.puzzle is None
    solver = await storage.puzzles.solver(11)
    assert solver is not None and solver.failed == 1 and solver.solved == 0


async def test_the_same_answer_from_two_connections_applies_once(
    two: tuple[Storage, Storage],
) -> None:
    a, b = two
    ids = await seeded(a)
    attempt = await a.puzzles.start_attempt(11, "Amina", ids[0], NOW, start=START)
    assert attempt is not None
    moved = await asyncio.gather(
        a.puzzles.advance_attempt(attempt.id, 0, ["c2-c1"]),
        b.puzzles.advance_attempt(attempt.id, 0, ["c2-c1"]),
    )
    assert sum(m is not None for m in moved) == 1
    ended = await asyncio.gather(
        *(
            s.puzzles.end_attempt(
                attempt.id, 1, solved=True, played=["c2-c1", "xa5"], now=NOW, rate=counting
            )
            for s in (a, b, a, b)
        )
    )
    assert sum(e is not None for e in ended) == 1
    solver = await b.puzzles.solver(11)
    puzzle = await b.puzzles.get_puzzle(ids[0])
    assert (
        solver is not None and solver.solved == 1 and solver.glicko == replace(START, rating=1510)
    )
    assert puzzle is not None and puzzle.glicko.rating == 1090 and puzzle.tries == 1


async def test_two_players_ending_the_same_puzzle_at_once_both_move_its_rating(
    two: tuple[Storage, Storage],
) -> None:
    a, b = two
    ids = await seeded(a)
    players = range(11, 19)
    tries = []
    for user in players:
        attempt = await a.puzzles.start_attempt(user, f"p{user}", ids[2], NOW, start=START)
        assert attempt is not None
        tries.append(attempt)
    ended = await asyncio.gather(
        *(
            (a, b)[i % 2].puzzles.end_attempt(
                t.id, 0, solved=i % 4 != 0, played=[], now=NOW, rate=counting
            )
            for i, t in enumerate(tries)
        )
    )
    assert all(e is not None for e in ended)
    puzzle = await a.puzzles.get_puzzle(ids[2])
    solved = sum(i % 4 != 0 for i in range(len(tries)))
    assert puzzle is not None and puzzle.tries == len(tries) and puzzle.solves == solved
    failed = len(tries) - solved
    assert puzzle.glicko.rating == 1300 - 10 * solved + 10 * failed


async def test_a_puzzle_of_the_day_is_claimed_once_across_connections(
    two: tuple[Storage, Storage],
) -> None:
    a, b = two
    ids = await seeded(a)
    claims = await asyncio.gather(
        *((a, b)[i % 2].puzzles.claim_daily(1, "2026-11-26", 70, ids[0], NOW) for i in range(6))
    )
    won = [c for c in claims if c is not None]
    assert len(won) == 1
    assert await b.puzzles.daily(1, "2026-11-26") == won[0]
    assert (
        await a.puzzles.claim_daily(2, "2026-11-26", 80, ids[0], NOW) is not None
    )  # another server


async def test_an_unposted_claim_is_taken_again_once_after_a_while(
    two: tuple[Storage, Storage],
) -> None:
    a, b = two
    ids = await seeded(a)
    claim = await a.puzzles.claim_daily(1, "2026-11-26", 70, ids[0], NOW)
    assert claim is not None
    later = NOW + timedelta(minutes=5)
    assert await a.puzzles.reclaim_daily(claim.id, NOW - timedelta(minutes=1), later) is None
    again = await asyncio.gather(
        a.puzzles.reclaim_daily(claim.id, NOW, later), b.puzzles.reclaim_daily(claim.id, NOW, later)
    )
    assert sum(r is not None for r in again) == 1
    await b.puzzles.daily_posted(claim.id, 5555)
    assert await a.puzzles.reclaim_daily(claim.id, later, later + timedelta(hours=1)) is None
    posted = await a.puzzles.get_daily(claim.id)
    assert posted is not None and posted.message_id == 5555


async def test_the_results_of_a_puzzle_of_the_day_name_the_first_to_solve_it(
    storage: Storage,
) -> None:
    ids = await seeded(storage)
    daily = await storage.puzzles.claim_daily(1, "2026-11-26", 70, ids[1], NOW)
    assert daily is not None
    assert (await storage.puzzles.daily_results(daily.id)).tried == 0
    for minute, (user, solved) in enumerate([(11, False), (12, True), (13, True), (14, None)]):
        attempt = await storage.puzzles.start_attempt(
            user, f"p{user}", ids[1], NOW, start=START, daily_id=daily.id
        )
        assert attempt is not None
        if solved is not None:
            when = NOW + timedelta(minutes=minute)
            await storage.puzzles.end_attempt(
                attempt.id, 0, solved=solved, played=[], now=when, rate=counting
            )
    results = await storage.puzzles.daily_results(daily.id)
    assert (results.tried, results.solved) == (3, 2)
    assert results.first is not None and results.first.user_id == 12
    assert results.first.name == "p12"
