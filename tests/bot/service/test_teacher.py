"""Hints and reviews (bot/service/teacher.py) through the service, with a scripted bot."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.commands import Asked, command_named
from bot.service import messages
from bot.service.facade import ShaxService
from bot.service.replies import GameOver, NoGameHere, NotYourGame, Reply
from bot.service.teacher import HINTS_PER_GAME, HintRefused, analyse_game
from bot.words.teacher import hints_used, no_hints_left
from bot.words.terms import EN
from engine.analysis import Assessment
from renderer import PLOT_FILENAME
from tests.bot.conftest import AMINA, BASHIR, HERE, ServiceFactory, board_controls, start_game
from tests.services import files, words

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DEPTH = 4

# Jar against the bot: Amina (white) places a1, a2 and b3; the scripted bot places b2, c1
# and c2 (c3 was better) and, nobody having made a line, moves first: b2-b1 leaves Amina
# b3-a3, which forms a1 a2 a3 and wins.
SCRIPT = {1: "b2", 3: "c1", 5: "c2", 6: "b2-b1"}


def scripted(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    return SCRIPT[len(record)]


@pytest.fixture
async def teaching(make_service: ServiceFactory) -> ShaxService:
    return await make_service(scripted, review_depth=DEPTH)


async def bot_game(service: ShaxService, *moves: str) -> Reply:
    reply = await service.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    for move in moves:
        reply = await service.play(AMINA, HERE, move)
    return reply


async def test_a_hint_draws_the_best_action_and_says_why(teaching: ShaxService) -> None:
    await bot_game(teaching, "a1", "a2", "b3")
    hint = await teaching.teacher.hint(AMINA, HERE)
    assert hint.ephemeral and hint.game_id is None
    assert words(hint.text) == "Hint 1 of 3: **b3-a3** — it wins the game."
    [picture] = await files(hint)
    assert picture.filename == "hint.png" and picture.data.startswith(PNG_MAGIC)


async def test_hints_are_counted_and_refused_when_none_are_left(teaching: ShaxService) -> None:
    reply = await bot_game(teaching)
    game_id = board_controls(reply).game_id
    for n, move in enumerate(("a1", "a2", "b3"), start=1):
        hint = await teaching.teacher.hint(AMINA, HERE)
        assert words(hint.text).startswith(f"Hint {n} of {HINTS_PER_GAME}:")
        await teaching.play(AMINA, HERE, move)
    with pytest.raises(HintRefused) as refused:
        await teaching.teacher.hint(AMINA, HERE)
    assert words(refused.value.message) == no_hints_left(EN, HINTS_PER_GAME)
    assert await teaching.storage.games.hints_used(game_id) == HINTS_PER_GAME


async def test_a_hint_asked_again_at_the_same_position_is_shown_again_free(
    teaching: ShaxService,
) -> None:
    reply = await bot_game(teaching, "a1")
    game_id = board_controls(reply).game_id
    thought: list[bool] = []
    first = await teaching.teacher.hint(AMINA, HERE, thinking=lambda: thought.append(True))
    again = [await teaching.teacher.hint(AMINA, HERE, thinking=lambda: thought.append(True))]
    again += await asyncio.gather(
        teaching.teacher.hint(AMINA, HERE), teaching.teacher.hint(AMINA, HERE)
    )
    assert [words(hint.text) for hint in again] == [words(first.text)] * 3
    assert words(first.text).startswith(f"Hint 1 of {HINTS_PER_GAME}:")
    assert thought == [True]  # searched once
    assert await teaching.storage.games.hints_used(game_id) == 1
    # At the next position, both asked at once: one hint is spent, and both show it.
    await teaching.play(AMINA, HERE, "a2")
    both = await asyncio.gather(
        teaching.teacher.hint(AMINA, HERE), teaching.teacher.hint(AMINA, HERE)
    )
    assert {words(hint.text)[:11] for hint in both} == {f"Hint 2 of {HINTS_PER_GAME}"}
    assert await teaching.storage.games.hints_used(game_id) == 2


async def test_no_hints_in_a_game_between_people(teaching: ShaxService) -> None:
    reply = await start_game(teaching, "jar")
    with pytest.raises(HintRefused) as refused:
        await teaching.teacher.hint(AMINA, HERE)
    assert words(refused.value.message) == messages.HINTS_ONLY_AGAINST_THE_BOT
    assert await teaching.storage.games.hints_used(board_controls(reply).game_id) == 0


async def test_a_hint_is_for_the_player_on_turn_in_their_own_game(teaching: ShaxService) -> None:
    with pytest.raises(NoGameHere):
        await teaching.teacher.hint(AMINA, HERE)
    await bot_game(teaching, "a1")
    with pytest.raises(NotYourGame):
        await teaching.teacher.hint(BASHIR, HERE)


async def test_the_hints_taken_are_in_the_games_summary(teaching: ShaxService) -> None:
    await bot_game(teaching)
    await teaching.teacher.hint(AMINA, HERE)
    await teaching.play(AMINA, HERE, "a1")
    await teaching.teacher.hint(AMINA, HERE)
    final = await teaching.turns.resign(AMINA, HERE)
    assert board_controls(final).rematch
    assert hints_used(EN, 2, HINTS_PER_GAME) in words(final.text)


async def test_a_game_without_hints_says_nothing_of_them(teaching: ShaxService) -> None:
    final = await bot_game(teaching, "a1", "a2", "b3", "b3-a3")
    assert board_controls(final).rematch and "Hints" not in words(final.text)


async def test_the_review_plots_the_game_and_shows_its_turning_points(
    teaching: ShaxService,
) -> None:
    final = await bot_game(teaching, "a1", "a2", "b3", "b3-a3")  # the bot's c2 loses
    thought: list[bool] = []
    review = await teaching.teacher.review(
        BASHIR, HERE, board_controls(final).game_id, thinking=lambda: thought.append(True)
    )
    assert thought == [True] and review.ephemeral
    lines = words(review.text).splitlines()
    assert lines[0].startswith("**Review of Amina vs ")
    assert any(
        line.startswith("1. Action 6: ") and "**c2**" in line and "better **c3**" in line
        for line in lines
    ), lines
    assert "let a won game go" in words(review.text)
    names = [a.filename for a in review.attachments]
    assert names[0] == PLOT_FILENAME and "turning-point-1.png" in names
    assert all(a.data.startswith(PNG_MAGIC) for a in await files(review))
    # The curve's axes are titled in the language of whoever reads the review.
    english, somali = [(await files(review, language))[0] for language in ("en", "so")]
    assert english.filename == somali.filename == PLOT_FILENAME
    assert english.data != somali.data


async def test_the_review_without_a_game_id_is_of_the_channels_newest_game(
    teaching: ShaxService,
) -> None:
    with pytest.raises(NoGameHere) as none:
        await teaching.teacher.review(AMINA, HERE)
    assert words(none.value.message) == messages.NOTHING_TO_REVIEW
    await bot_game(teaching, "a1")
    with pytest.raises(GameOver) as playing:
        await teaching.teacher.review(AMINA, HERE)
    assert words(playing.value.message) == messages.REVIEW_WHEN_OVER
    await teaching.turns.resign(AMINA, HERE)
    review = await teaching.teacher.review(AMINA, HERE)
    assert words(review.text).startswith("**Review of")


async def test_the_review_command_says_it_works_only_once_the_game_is_accepted(
    teaching: ShaxService,
) -> None:
    """A surface says "Reviewing the game…" when the service calls ``thinking``: never
    before a refusal, always before the work."""
    review = command_named("review")
    assert review is not None
    thought: list[bool] = []
    asked = Asked(teaching, AMINA, HERE, thinking=lambda: thought.append(True))
    await bot_game(teaching, "a1")
    with pytest.raises(GameOver):
        await review.run(asked)
    assert thought == []
    await teaching.turns.resign(AMINA, HERE)
    await review.run(asked)
    assert thought == [True]


async def test_a_game_that_ended_before_its_first_action_has_nothing_to_review(
    teaching: ShaxService,
) -> None:
    reply = await teaching.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    await teaching.turns.resign(AMINA, HERE)
    with pytest.raises(NoGameHere) as empty:
        await teaching.teacher.review(AMINA, HERE, board_controls(reply).game_id)
    assert words(empty.value.message) == messages.EMPTY_GAME


async def test_a_review_of_well_played_actions_has_no_turning_points(
    make_service: ServiceFactory,
) -> None:
    service = await make_service(scripted, review_depth=DEPTH)
    await bot_game(service, "a1")
    final = await service.turns.resign(AMINA, HERE)
    review = await service.teacher.review(AMINA, HERE, board_controls(final).game_id)
    assert messages.NO_TURNING_POINTS in words(review.text)
    assert [a.filename for a in review.attachments] == [PLOT_FILENAME]


async def test_no_hint_once_the_game_is_over(teaching: ShaxService) -> None:
    await bot_game(teaching, "a1", "a2", "b3", "b3-a3")
    with pytest.raises(NoGameHere):
        await teaching.teacher.hint(AMINA, HERE)


async def test_a_review_asks_for_its_parts_as_a_review_a_hint_as_a_hint(
    teaching: ShaxService,
) -> None:
    """The workers serve the bots' moves first, then hints, then reviews' parts."""
    asked: list[bool] = []
    analyser = teaching.teacher.analyser

    class Recording:
        async def assess(self, *args: Any, review: bool = False) -> list[Assessment]:
            asked.append(review)
            return await analyser.assess(*args, review=review)

    await analyse_game(Recording(), "jar", ["a1", "b2", "c3"], depth=1, seconds=None)
    assert asked and all(asked)
    teaching.teacher.analyser = Recording()
    await bot_game(teaching, "a1")
    asked.clear()
    await teaching.teacher.hint(AMINA, HERE)
    assert asked == [False]
