"""Hints and reviews through the real bot against the fake Discord: /shax hint in a game
against the bot (limited, refused between people), the Review button under a finished
game and /shax review, each answered privately, the review announced before it comes."""

from __future__ import annotations

import io

from PIL import Image

from bot.discord.custom_ids import rematch_id, review_id
from bot.service import messages
from bot.service.teacher import HINT_FILENAME, HINTS_PER_GAME
from bot.words import EN, hints_used
from renderer import PLOT_FILENAME
from tests.bot.discord.helpers import button_ids, shown
from tests.e2e.conftest import Live, assert_refused, game_state, game_version, start_game
from tests.fakediscord import FakeMessage, InteractionResult


def assert_png(message: FakeMessage, filename: str) -> None:
    with Image.open(io.BytesIO(message.attachment(filename).data)) as image:
        image.load()
        assert image.format == "PNG"


async def bot_game(live: Live) -> FakeMessage:
    """Amina plays the easy bot at jar and places first; returns the live board."""
    started = await live.fake.slash(
        live.scene.amina,
        live.scene.channel,
        "shax",
        "play-bot",
        {"level": "easy", "variant": "jar", "first": "me"},
    )
    return await shown(live.bot, started)


async def ask_hint(live: Live) -> FakeMessage:
    result = await live.fake.slash(live.scene.amina, live.scene.channel, "shax", "hint")
    return await shown(live.bot, result)


async def bot_answered(live: Live, game_id: int, actions: int) -> tuple[str, ...]:
    """The game's record once it holds ``actions`` actions (the bot has answered)."""

    def answered() -> tuple[str, ...] | None:
        record, _, _ = game_state(live.scene.db_path, game_id)
        return record if len(record) >= actions else None

    return await live.fake.wait_for(answered, timeout=10, what=f"{actions} actions saved")


async def test_hints_in_a_bot_game_are_private_drawn_and_counted(live: Live) -> None:
    board = await bot_game(live)
    game_id, _ = game_version(board)
    for n in range(1, HINTS_PER_GAME + 1):
        hint = await ask_hint(live)
        assert hint.ephemeral
        assert hint.content.startswith(f"Hint {n} of {HINTS_PER_GAME}: **")
        assert_png(hint, HINT_FILENAME)
        again = await ask_hint(live)  # the same position: the same hint, not another spent
        assert again.content == hint.content
        record, _, status = game_state(live.scene.db_path, game_id)
        assert len(record) == 2 * (n - 1) and status == "active"  # hints play nothing
        best = hint.content.split("**")[1]
        played = await live.fake.slash(
            live.scene.amina, live.scene.channel, "shax", "move", {"action": best}
        )
        await shown(live.bot, played)
        await bot_answered(live, game_id, 2 * n)
        assert await live.bot.responder.wait_idle(10)
    # a new position after the last hint: none is left
    refused = await live.fake.slash(live.scene.amina, live.scene.channel, "shax", "hint")
    assert_refused(refused, f"all {HINTS_PER_GAME} hints")

    resigned = await live.fake.slash(live.scene.amina, live.scene.channel, "shax", "resign")
    final = await shown(live.bot, resigned)
    assert hints_used(EN, HINTS_PER_GAME, HINTS_PER_GAME) in final.content


async def test_no_hints_in_a_game_between_people(live: Live) -> None:
    await start_game(live, "jar")
    refused = await live.fake.slash(live.scene.amina, live.scene.channel, "shax", "hint")
    assert_refused(refused, "only for games against the bot")


async def review_shown(live: Live, result: InteractionResult) -> FakeMessage:
    """The review replacing the "Reviewing the game…" notice it was announced with."""
    assert result.response_type == 4 and result.ephemeral  # answered at once, privately
    review = await result.wait_for_edit(timeout=30)
    assert review.ephemeral
    return review


async def test_the_review_button_under_a_finished_game(live: Live) -> None:
    board = await bot_game(live)
    game_id, _ = game_version(board)
    played = await live.fake.slash(
        live.scene.amina, live.scene.channel, "shax", "move", {"action": "b2"}
    )
    await shown(live.bot, played)
    resigned = await live.fake.slash(live.scene.amina, live.scene.channel, "shax", "resign")
    final = await shown(live.bot, resigned)
    assert button_ids(final) == [rematch_id(game_id), review_id(game_id)]

    clicked = await live.fake.click(live.scene.cawo, final, review_id(game_id))
    review = await review_shown(live, clicked)
    assert review.content.startswith("**Review of Amina vs ")
    assert_png(review, PLOT_FILENAME)
    assert review.embeds and review.embeds[0]["image"]["url"].endswith(PLOT_FILENAME)
    assert live.fake.message(final.id).content == final.content  # the final board stays


async def test_shax_review_reviews_the_channels_last_game(live: Live) -> None:
    # A review that cannot start is refused at once, with no "Reviewing the game…" first.
    early = await live.fake.slash(live.scene.amina, live.scene.channel, "shax", "review")
    notice = await early.wait_for_response(timeout=30)
    assert early.response_type == 4
    assert notice.ephemeral and notice.content == messages.NOTHING_TO_REVIEW
    assert not notice.edited

    board = await start_game(live, "jar")
    playing = await live.fake.slash(live.scene.bashir, live.scene.channel, "shax", "review")
    refused = await playing.wait_for_response(timeout=30)
    assert refused.content == messages.REVIEW_WHEN_OVER and not refused.edited

    for user, action in ((live.scene.amina, "a1"), (live.scene.bashir, "b1")):
        played = await live.fake.slash(user, live.scene.channel, "shax", "move", {"action": action})
        board = await shown(live.bot, played)
    resigned = await live.fake.slash(live.scene.amina, live.scene.channel, "shax", "resign")
    await shown(live.bot, resigned)
    asked = await live.fake.slash(live.scene.bashir, live.scene.channel, "shax", "review")
    review = await review_shown(live, asked)
    assert "(2 actions)" in review.content
    assert_png(review, PLOT_FILENAME)
    game_id, _ = game_version(board)
    assert game_state(live.scene.db_path, game_id)[2] == "over"
