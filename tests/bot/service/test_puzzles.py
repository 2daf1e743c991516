"""Puzzles through the service: a puzzle near the player's puzzle rating, shown to them
alone; the defence answers each right action until the win; a wrong one changes nothing
but the ratings and shows the winning line; ``/shax move`` answers the puzzle only where
the player is not playing the channel's game."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.service import glicko
from bot.service.facade import ShaxService
from bot.service.puzzle_standings import START, rated
from bot.service.puzzles import Try
from bot.service.replies import (
    IllegalAction,
    Place,
    PuzzleControls,
    Reply,
    StaleBoard,
    User,
    UserError,
)
from bot.storage import PuzzleRow, Rating, Solver
from engine import Color, Phase, replay
from engine.tables.puzzles import Puzzle, answer
from tests.bot.conftest import AMINA, BASHIR, CAWO, ELSEWHERE, HERE, ServiceFactory, start_game
from tests.services import Drawn, files, refused, words


async def open_try(service: ShaxService, user_id: int = AMINA.id) -> Try:
    found = await service.puzzles.desk.open_try(user_id)
    assert found is not None
    return found


def controls(reply: Reply) -> PuzzleControls:
    assert isinstance(reply.controls, PuzzleControls)
    return reply.controls


def wrong_first(found: Try) -> str:
    """A legal first action of the puzzle that is not its winning one."""
    return next(a for a in found.position.legal_notations() if a != found.puzzle.solution[0])


async def solve(service: ShaxService, user: User = AMINA, place: Place = ELSEWHERE) -> list[Reply]:
    """Answer each action of the solution with ``/shax move`` until the puzzle is over."""
    replies = []
    while (current := await service.puzzles.desk.open_try(user.id)) is not None:
        action = current.puzzle.solution[len(current.attempt.played)]
        replies.append(await service.play(user, place, action))
    return replies


async def test_a_puzzle_is_one_rated_near_the_player_and_only_they_see_it(
    make_service: ServiceFactory,
) -> None:
    drawn = Drawn()
    service = await make_service(render_board=drawn, puzzle_rng=random.Random(1))
    reply = await service.puzzles.puzzle(AMINA, HERE, "shax-small")
    assert reply.ephemeral
    found = await open_try(service)
    assert found.puzzle.variant == "shax-small" and not found.attempt.played
    choices = controls(reply).choices
    assert sorted(c.value for c in choices) == sorted(found.position.legal_notations())
    text = words(reply.text)
    assert f"**Puzzle {found.puzzle.id}**" in text and "win" in text
    assert "Your puzzle rating: 1500?" in text
    await files(reply)
    caption = drawn.views[-1].caption or ""
    in_movement = found.position.phase is Phase.MOVEMENT
    asked = "to play and win in" if in_movement else "to play: only one move keeps the win"
    assert asked in caption
    assert drawn.views[-1].flip == (found.solver.value == 1)
    # Among the nearest to a newcomer's 1500 that the player never tried.
    all_ratings = sorted(
        abs(p.glicko.rating - 1500)
        for p in await service.storage.puzzles.puzzles_near("shax-small", 1500, CAWO.id, 1000)
    )
    assert abs(found.puzzle.glicko.rating - 1500) <= all_ratings[7]
    # Asked again, the open puzzle is shown again.
    again = await service.puzzles.puzzle(AMINA, HERE, "shax")
    assert controls(again).attempt_id == found.attempt.id
    assert "still open" in words(again.text)


async def test_solving_plays_the_tables_defence_and_moves_both_ratings(
    service: ShaxService,
) -> None:
    await service.puzzles.puzzle(AMINA, ELSEWHERE, "shax")
    found = await open_try(service)
    replies = await solve(service)
    assert all(r.ephemeral for r in replies)
    assert controls(replies[-1]).over
    end = words(replies[-1].text)
    assert "Solved!" in end and "1 solved in a row" in end
    # Each side as shown, provisional on both, the change as under a game's result.
    assert re.search(r"Puzzle rating: 1500\? → 1[5-9]\d\d\? \(\+\d+\)\.", end), end
    solver = await service.storage.puzzles.solver(AMINA.id)
    puzzle = await service.storage.puzzles.get_puzzle(found.puzzle.id)
    assert solver is not None and solver.glicko is not None and solver.glicko.rating > 1500
    assert puzzle is not None and puzzle.glicko.rating < found.puzzle.glicko.rating
    assert (puzzle.tries, puzzle.solves, solver.streak) == (1, 1, 1)
    stored = await service.storage.puzzles.last_attempt(AMINA.id, found.puzzle.id)
    assert stored is not None and stored.played == found.puzzle.solution
    for reply in replies[:-1]:  # each right step names the defence's answer
        text = words(reply.text)
        assert "is right" in text


async def test_a_wrong_answer_changes_nothing_but_the_ratings(service: ShaxService) -> None:
    game = await start_game(service)  # Amina and Bashir play here
    await service.puzzles.puzzle(CAWO, HERE, "shax")
    found = await open_try(service, CAWO.id)
    before_game = await service.storage.games.get_game(game.game_id or 0)
    wrong = wrong_first(found)
    reply = await service.play(CAWO, HERE, wrong)  # Cawo is not playing here: her puzzle
    text = words(reply.text)
    assert f"**{wrong}** lets the win go" in text and f"**{found.puzzle.solution[0]}**" in text
    assert "solved in a row" not in text and "run of" not in text  # there was no streak
    assert controls(reply).over
    ended = await service.storage.puzzles.last_attempt(CAWO.id, found.puzzle.id)
    assert ended is not None and ended.played == () and ended.wrong == wrong
    assert await service.storage.games.get_game(game.game_id or 0) == before_game
    assert await service.storage.standings.tallies(HERE.guild_id, CAWO.id) == {}
    solver = await service.storage.puzzles.solver(CAWO.id)
    puzzle = await service.storage.puzzles.get_puzzle(found.puzzle.id)
    assert solver is not None and solver.glicko is not None and solver.glicko.rating < 1500
    assert puzzle is not None and puzzle.glicko.rating > found.puzzle.glicko.rating
    assert (solver.failed, solver.streak, puzzle.tries, puzzle.solves) == (1, 0, 1, 0)


async def test_move_plays_in_the_players_own_game_here_and_answers_the_puzzle_elsewhere(
    service: ShaxService,
) -> None:
    game = await start_game(service)  # Amina plays white here
    reply = await service.puzzles.puzzle(AMINA, HERE, "shax")
    assert "`/shax move` plays there" in words(reply.text)
    found = await open_try(service)
    here = await service.legal_choices(AMINA, HERE, "")
    assert {c.value for c in here} != {c.value for c in await service.puzzles.choices(found, "")}
    moved = await service.play(AMINA, HERE, "d7")  # a placement in her game
    assert moved.game_id == game.game_id and not moved.ephemeral
    assert (await open_try(service)).attempt.played == ()  # the puzzle is untouched
    elsewhere = await service.legal_choices(AMINA, ELSEWHERE, "")
    assert {c.value for c in elsewhere} == set(found.position.legal_notations())
    await service.play(AMINA, ELSEWHERE, found.puzzle.solution[0])
    assert (await open_try(service)).attempt.played[:1] == found.puzzle.solution[:1] or (
        await service.storage.puzzles.open_attempt(AMINA.id) is None
    )


async def test_an_action_that_is_not_legal_is_refused_and_changes_nothing(
    service: ShaxService,
) -> None:
    await service.puzzles.puzzle(AMINA, HERE)
    found = await open_try(service)
    v = found.position.variant
    legal = set(found.position.legal_notations())
    illegal = next(  # well written, and not legal here
        f"{v.points[a]}-{v.points[b]}"
        for a in range(len(v.points))
        for b in range(len(v.points))
        if v.adjacent[a] >> b & 1 and f"{v.points[a]}-{v.points[b]}" not in legal
    )
    for text in ("zz9", illegal):
        with refused(IllegalAction, "is not an action you can take in this puzzle"):
            await service.play(AMINA, HERE, text)
    assert await open_try(service) == found
    assert (await service.storage.puzzles.solver(AMINA.id)).glicko is None  # type: ignore[union-attr]


async def test_the_same_answer_twice_at_once_applies_once(service: ShaxService) -> None:
    await service.puzzles.puzzle(AMINA, HERE)
    found = await open_try(service)
    a = found.attempt
    first = found.puzzle.solution[0]
    results = await asyncio.gather(
        *(service.puzzles.answer(AMINA, HERE, first, a.id, a.version) for _ in range(3)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Reply) for r in results) == 1
    assert all(isinstance(r, StaleBoard) for r in results if not isinstance(r, Reply))
    if (after := await service.storage.puzzles.open_attempt(AMINA.id)) is not None:
        assert after.version == a.version + 1


async def test_a_puzzle_is_its_players_own(service: ShaxService) -> None:
    await service.puzzles.puzzle(AMINA, HERE)
    found = await open_try(service)
    with refused(UserError, "someone else's"):
        await service.puzzles.answer(BASHIR, HERE, found.puzzle.solution[0], found.attempt.id)
    with refused(UserError, "no puzzle open"):
        await service.puzzles.give_up(BASHIR, HERE)
    assert await open_try(service) == found


async def test_giving_up_shows_the_solution_and_counts_as_a_failure(service: ShaxService) -> None:
    await service.puzzles.puzzle(AMINA, HERE, "shax-small")
    await solve(service, place=HERE)
    await service.puzzles.puzzle(AMINA, HERE, "shax-small")
    found = await open_try(service)
    reply = await service.puzzles.give_up(AMINA, HERE)
    text = words(reply.text)
    assert f"The win was **{found.puzzle.solution[0]}**" in text
    assert "Your run of 1 solved puzzle ends (best: 1)." in text
    assert re.search(r"Puzzle rating: \d+\? → \d+\? \(\u2212\d+\)\.", text), text
    solver = await service.storage.puzzles.solver(AMINA.id)
    assert solver is not None and (solver.solved, solver.failed, solver.streak) == (1, 1, 0)
    nxt = await service.puzzles.next_puzzle(AMINA, HERE, found.attempt.id)
    newer = await open_try(service)
    assert newer.puzzle.id != found.puzzle.id and newer.puzzle.variant == "shax-small"
    assert controls(nxt).attempt_id == newer.attempt.id


def test_ratings_move_the_right_way() -> None:
    now = datetime(2026, 11, 26, tzinfo=UTC)
    newcomer = Solver(1, "Amina")
    easy, hard = Rating(1100, 200, 0.06), Rating(1700, 200, 0.06)
    won_easy, easy_after = rated(newcomer, easy, True, now)
    won_hard, hard_after = rated(newcomer, hard, True, now)
    lost_easy, easy_up = rated(newcomer, easy, False, now)
    assert won_easy.glicko and won_hard.glicko and lost_easy.glicko
    assert 1500 < won_easy.glicko.rating < won_hard.glicko.rating
    assert lost_easy.glicko.rating < 1500
    assert easy_after.rating < easy.rating < easy_up.rating and hard_after.rating < hard.rating
    assert won_easy.glicko.deviation < START.deviation
    assert (won_easy.streak, won_easy.best, lost_easy.streak) == (1, 1, 0)
    # A long absence makes the next result count for more.
    seasoned = replace(won_easy, rated_at=now)
    soon, _ = rated(seasoned, easy, True, now + timedelta(days=1))
    late, _ = rated(seasoned, easy, True, now + timedelta(days=300))
    assert soon.glicko and late.glicko and soon.glicko.deviation < late.glicko.deviation
    assert late.glicko.deviation <= glicko.START_DEVIATION


@pytest.mark.parametrize("variant", ["shax", "shax-small"])
async def test_every_shipped_puzzle_is_stored_once(service: ShaxService, variant: str) -> None:
    from engine.tables.puzzles import shipped

    await service.puzzles.desk.ready()
    await service.puzzles.desk.ready()
    ids = await service.storage.puzzles.puzzle_ids(variant)
    assert len(ids) == len(shipped(variant))
    assert (await service.puzzles.desk.start(BASHIR, variant))[1]


def slip_after_first_step(puzzle: PuzzleRow) -> str | None:
    """A legal action of the solver's second step that ``answer`` judges wrong, if the
    puzzle's first step is a move and its removal and has one."""
    if puzzle.moves < 2 or not puzzle.solution[1].startswith("x"):
        return None
    line = Puzzle(puzzle.variant, puzzle.record, puzzle.solution, puzzle.moves, 0, 0, 0)
    played = puzzle.solution[:3]
    position = replay(puzzle.variant, (*puzzle.record, *played))
    for action in position.legal_notations():
        if answer(line, played, action).verdict == "wrong":
            return action
    return None


async def test_a_step_counts_once_its_removal_is_made_and_a_later_slip_is_named_so(
    service: ShaxService,
) -> None:
    await service.puzzles.desk.ready()
    for puzzle_id in await service.storage.puzzles.puzzle_ids("shax-small"):
        chosen = await service.storage.puzzles.get_puzzle(puzzle_id)
        assert chosen is not None
        if (slip := slip_after_first_step(chosen)) is not None:
            break
    else:
        raise AssertionError("no shipped puzzle has a wrong second step")
    found = await service.puzzles.desk.start_puzzle(AMINA, chosen.id, None)
    assert found.moves_left == chosen.moves and found.first_step
    moved = await service.play(AMINA, HERE, chosen.solution[0])
    assert "now the removal it earns" in words(moved.text)
    pending = await open_try(service)
    assert pending.moves_left == chosen.moves and not pending.first_step
    assert {c.value for c in controls(moved).choices} == set(pending.position.legal_notations())
    removed = await service.play(AMINA, HERE, chosen.solution[1])
    assert f"now win in {chosen.moves - 1} move" in words(removed.text)
    later = await open_try(service)
    assert later.moves_left == chosen.moves - 1 and later.attempt.played == chosen.solution[:3]
    reply = await service.play(AMINA, HERE, slip)
    assert f"**{slip}** misses the quickest win" in words(reply.text)


async def test_the_picture_shows_the_task_from_the_solvers_side_and_then_the_winning_move(
    make_service: ServiceFactory,
) -> None:
    drawn = Drawn()
    service = await make_service(render_board=drawn)
    await service.puzzles.puzzle(AMINA, HERE, "shax")
    found = await open_try(service)
    await files(await service.puzzles.puzzle(AMINA, HERE, "shax"), "so")
    view = drawn.views[-1]
    assert view.flip == (found.solver is Color.BLACK) and view.language == "so"
    assert view.caption is not None and view.caption.startswith(("Cad:", "Madow:"))
    assert view.suggestion is None
    reply = await service.play(AMINA, HERE, wrong_first(found))
    await files(reply)
    view = drawn.views[-1]
    assert view.caption is None and view.suggestion == found.puzzle.solution[0]


async def test_an_answer_sent_again_after_it_was_played_is_answered_already(
    service: ShaxService,
) -> None:
    await service.puzzles.puzzle(AMINA, HERE, "shax")
    found = await open_try(service)
    first = found.puzzle.solution[0]
    await service.play(AMINA, HERE, first)
    after = await service.storage.puzzles.last_attempt(AMINA.id, found.puzzle.id)
    with refused(StaleBoard, "answered already"):
        await service.play(AMINA, HERE, first)
    assert await service.storage.puzzles.last_attempt(AMINA.id, found.puzzle.id) == after


async def test_every_board_has_puzzles_jar_too(service: ShaxService) -> None:
    """Jar's puzzles ship beside the others: ``/shax puzzle variant:jar`` opens one."""
    reply = await service.puzzles.puzzle(AMINA, HERE, "jar")
    found = await open_try(service)
    assert found.puzzle.variant == "jar" and reply.ephemeral
    assert "Jar" in words(reply.text)


async def test_a_player_who_tried_every_puzzle_of_a_board_is_sent_to_another(
    service: ShaxService,
) -> None:
    desk = service.puzzles.desk
    await desk.ready()
    for _ in await service.storage.puzzles.puzzle_ids("shax-small"):
        await desk.start(AMINA, "shax-small")
        await desk.give_up(AMINA)
    pattern = r"tried every puzzle of Shax \(small board\).*`/shax puzzle variant:shax`"
    with refused(UserError, pattern):
        await service.puzzles.puzzle(AMINA, HERE, "shax-small")
    assert await desk.open_try(AMINA.id) is None
    reply = await service.puzzles.puzzle(AMINA, HERE, "shax")
    assert (await open_try(service)).puzzle.variant == "shax" and reply.ephemeral
