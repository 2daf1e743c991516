"""Everything a player may get wrong is answered privately and changes nothing.

Each refusal is checked three ways: the answer is ephemeral and polite (never the generic
failure), the database file holds exactly the same rows before and after, and Discord
(the fake) saw nothing it would refuse.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, cast

from bot.commands.table import MAX_ACTION_LENGTH
from bot.discord.custom_ids import accept_id, decline_id, draw_id, resign_id
from engine import replay
from tests.bot.discord.helpers import act_select, live_boards, option_values, shown
from tests.e2e.conftest import (
    Live,
    assert_refused,
    challenge_of,
    challenge_statuses,
    db_rows,
    game_state,
    game_version,
    post_challenge,
    stale_click,
    start_game,
)
from tests.fakediscord import InteractionResult
from tests.fakediscord.models import PERMISSION

if TYPE_CHECKING:
    from bot.discord.cogs.notices import Notices


async def refused_and_unchanged(
    live: Live, interaction: Awaitable[InteractionResult], *words: str
) -> str:
    """Run ``interaction``: it must be refused privately, with ``words`` in the answer, and
    leave every row of the database as it was. Returns the answer."""
    assert await live.bot.responder.wait_idle(10)
    before = db_rows(live.scene.db_path)
    result = await interaction
    await shown(live.bot, result)
    text = assert_refused(result, *words)
    assert db_rows(live.scene.db_path) == before, f"{result.label} changed the database"
    return text


async def test_a_declined_challenge_is_closed_and_cannot_be_accepted(live: Live) -> None:
    scene, fake = live.scene, live.fake
    posted = await post_challenge(live)
    challenge_id = challenge_of(posted)
    # Someone else's Decline (and Accept) is not theirs to press.
    await refused_and_unchanged(
        live, fake.click(scene.cawo, posted, decline_id(challenge_id)), "for Bashir"
    )
    await refused_and_unchanged(
        live, fake.click(scene.cawo, posted, accept_id(challenge_id)), "for Bashir"
    )
    declined = await fake.click(scene.bashir, posted, decline_id(challenge_id))
    closed = await shown(live.bot, declined)
    assert closed.id == posted.id and "declined" in closed.content and closed.components == []
    assert db_rows(scene.db_path)["games"] == []
    assert challenge_statuses(scene.db_path) == ["declined"]
    # A client still showing the buttons: Accept now is refused, nothing starts.
    await refused_and_unchanged(
        live, stale_click(fake, scene.bashir, posted, accept_id(challenge_id)), "no longer open"
    )
    assert live_boards(fake, scene.channel) == []


async def test_an_expired_challenge_cannot_be_accepted(live: Live) -> None:
    scene, fake = live.scene, live.fake
    posted = await post_challenge(live)
    challenge_id = challenge_of(posted)
    live.clock.advance(minutes=11)  # challenges last 10 minutes
    assert await live.bot.responder.wait_idle(10)
    before = db_rows(scene.db_path)
    late = await fake.click(scene.bashir, posted, accept_id(challenge_id))
    await shown(live.bot, late)
    assert_refused(late, "expired", "/shax challenge")
    after = db_rows(scene.db_path)
    # No game, no tally, no series, and the challenge itself is left to the next tick.
    assert after == before and after["games"] == []
    assert challenge_statuses(scene.db_path) == ["open"]
    # Pressing again changes nothing at all.
    await refused_and_unchanged(
        live, stale_click(fake, scene.bashir, posted, accept_id(challenge_id)), "expired"
    )
    assert live_boards(fake, scene.channel) == []


async def test_a_challenge_accepted_too_late_is_closed_for_everyone(live: Live) -> None:
    scene, fake = live.scene, live.fake
    posted = await post_challenge(live)
    live.clock.advance(minutes=11)
    late = await fake.click(scene.bashir, posted, accept_id(challenge_of(posted)))
    await shown(live.bot, late)
    # The extension's own module (load_extension imports a fresh copy, hence no isinstance).
    notices = cast("Notices", live.bot.get_cog("Notices"))
    assert notices is not None
    for notice in await live.service.tick():  # what the next round of the loop shows
        await notices.show(notice)
    assert fake.message(posted.id).components == [], "a dead challenge still offers Accept"
    assert challenge_statuses(live.scene.db_path) == ["expired"]


async def test_a_bystander_cannot_touch_the_game(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live)
    game_id, version = game_version(board)
    select = act_select(board)
    for interaction in (
        fake.select(scene.cawo, board, select["custom_id"], [option_values(select)[0]]),
        fake.click(scene.cawo, board, resign_id(game_id, version)),
        fake.click(scene.cawo, board, draw_id(game_id, version)),
    ):
        await refused_and_unchanged(live, interaction, "Amina", "Bashir")
    for command in ("resign", "draw"):
        await refused_and_unchanged(
            live, fake.slash(scene.cawo, scene.channel, "shax", command), "Amina", "Bashir"
        )
    await refused_and_unchanged(
        live, fake.slash(scene.cawo, scene.channel, "shax", "move", {"action": "d7"})
    )
    assert fake.message(board.id).data == board.data, "the board changed"


async def test_the_wrong_player_cannot_move(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live)  # Amina places first
    select = act_select(board)
    await refused_and_unchanged(
        live,
        fake.select(scene.bashir, board, select["custom_id"], [option_values(select)[0]]),
        "Amina's turn",
    )
    await refused_and_unchanged(
        live,
        fake.slash(scene.bashir, scene.channel, "shax", "move", {"action": "d7"}),
        "Amina's turn",
    )
    assert fake.message(board.id).data == board.data


async def test_malformed_and_illegal_notation_is_explained(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live)
    played = await fake.select(scene.amina, board, act_select(board)["custom_id"], ["d7"])
    board = await shown(live.bot, played)
    game_id, _ = game_version(board)
    record, _, _ = game_state(scene.db_path, game_id)
    legal = replay("shax", record).legal_notations()
    assert record == ("d7",) and "a7" in legal
    cases = {
        "zz9": "can't read",  # not a point of this board
        "h1": "can't read",
        "a7-": "can't read",
        "x": "can't read",
        "?!": "can't read",
        "d7": "not allowed",  # taken
        "a7-d7": "not allowed",  # no moves while placing
        "xd7": "not allowed",  # nothing to remove
    }
    for action, words in cases.items():
        text = await refused_and_unchanged(
            live,
            fake.slash(scene.bashir, scene.channel, "shax", "move", {"action": action}),
            words,
        )
        assert "Legal now:" in text and "a7" in text, text  # and what to do instead


async def test_absurdly_long_values_are_refused_kindly(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live)
    game_id, version = game_version(board)
    # Discord's client stops at the option's max_length; a stale command definition or
    # another client may not. The bot checks again.
    for action in ("d7" * 3000, "d" * (MAX_ACTION_LENGTH + 1), "🀄" * 500):
        await refused_and_unchanged(
            live,
            fake.slash(scene.amina, scene.channel, "shax", "move", {"action": action}),
            "too long",
        )
    # Autocomplete on an absurd prefix offers nothing (and answers in time).
    assert (
        await fake.autocomplete(
            scene.amina, scene.channel, "shax", "move", {"action": "a" * 6000}, focused="action"
        )
        == []
    )
    # A tampered client sends select values the select never offered, up to very long ones.
    select = act_select(board)
    for value in ("a" * 100, "d7 " * 1500, "a7-d7", "xg1"):
        text = await refused_and_unchanged(
            live, stale_click(fake, scene.amina, board, select["custom_id"], [value])
        )
        assert len(text) <= 2000
    assert game_state(scene.db_path, game_id)[1] == version
    assert fake.message(board.id).data == board.data


async def test_a_channel_where_the_bot_cannot_post_boards_says_which_permission(
    live: Live,
) -> None:
    scene, fake = live.scene, live.fake
    locked = fake.add_channel("no-pictures")
    locked.bot_permissions &= ~(PERMISSION["ATTACH_FILES"] | PERMISSION["EMBED_LINKS"])
    challenge = fake.slash(scene.amina, locked, "shax", "challenge", {"opponent": scene.bashir})
    text = await refused_and_unchanged(live, challenge, "Attach Files", "Embed Links")
    assert "another channel" in text
    play = fake.slash(scene.amina, locked, "shax", "play-bot", {"level": "easy"})
    await refused_and_unchanged(live, play, "Attach Files")
    assert fake.messages(locked) == []
    # Given the permissions back, the same command starts the game.
    locked.bot_permissions |= PERMISSION["ATTACH_FILES"] | PERMISSION["EMBED_LINKS"]
    result = await fake.slash(scene.amina, locked, "shax", "play-bot", {"level": "easy"})
    assert not result.ephemeral and result.attachments
    fake.assert_clean()
