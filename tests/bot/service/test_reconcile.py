"""ShaxService.reconcile: every board the players have not seen is shown once.

A board is seen once the adapter reports it with ``posted`` (a new message, or an edit
of the live one). A move committed but never reported — the bot died, or Discord
refused every answer, in between — comes back from ``reconcile`` as a notice that posts
the game's current board, pinging the player on turn; once that is reported, it does
not come back.
"""

from __future__ import annotations

from bot.service.facade import ShaxService
from bot.service.replies import Notice, Reply
from tests.bot.conftest import (
    AMINA,
    BASHIR,
    GUILD,
    HERE,
    ServiceFactory,
    board_controls,
    on_turn,
    start_game,
)
from tests.services import words


async def play_first(service: ShaxService, reply: Reply) -> Reply:
    """The player on turn plays the first legal action of ``reply``'s board."""
    controls = board_controls(reply)
    action = controls.actions[0].value
    return await service.play(on_turn(reply), HERE, action, controls.game_id, controls.version)


async def only_notice(service: ShaxService) -> Notice:
    notices = await service.boards.reconcile()
    assert len(notices) == 1, notices
    return notices[0]


async def test_a_committed_move_nobody_saw_is_shown_once(service: ShaxService) -> None:
    board = await start_game(service)
    await service.posted(board, 1000)
    moved = await play_first(service, board)  # committed; its reply never placed

    notice = await only_notice(service)
    assert notice.channel_id == HERE.channel_id and notice.edit_message_id is None
    reply = notice.reply
    assert reply.live_board and reply.game_id == board.game_id and reply.version == 1
    assert reply.board_message_id == 1000  # the stale board, deleted once this is posted
    assert reply.mentions == (BASHIR.id,) and on_turn(reply) == BASHIR
    assert words(reply.text) == words(moved.text)
    assert [a.filename for a in reply.attachments] == [a.filename for a in moved.attachments]

    await service.posted(reply, 1001)
    assert await service.boards.reconcile() == []


async def test_boards_posted_or_edited_in_place_are_not_shown_again(
    service: ShaxService,
) -> None:
    board = await start_game(service)
    await service.posted(board, 1000)
    for _ in range(3):
        board = await play_first(service, board)
        await service.posted(board, 1000)  # the live board edited in place
    assert await service.boards.reconcile() == []


async def test_a_board_recorded_as_shown_without_a_message_is_not_shown_again(
    service: ShaxService,
) -> None:
    board = await start_game(service)
    moved = await play_first(service, board)
    assert (await only_notice(service)).reply.version == 1
    await service.shown(moved)  # the console printed it, or its channel is gone
    assert await service.boards.reconcile() == []


async def test_a_final_board_nobody_saw_is_shown_with_the_result(service: ShaxService) -> None:
    board = await start_game(service)
    await service.posted(board, 1000)
    controls = board_controls(board)
    await service.turns.resign(BASHIR, HERE, controls.game_id, controls.version)

    notice = await only_notice(service)
    assert notice.reply.result is not None and board_controls(notice.reply).rematch
    assert set(notice.reply.mentions) == {AMINA.id, BASHIR.id}
    await service.posted(notice.reply, 1001)
    assert await service.boards.reconcile() == []


async def test_a_game_being_changed_is_left_to_its_own_answer(service: ShaxService) -> None:
    board = await start_game(service)
    await play_first(service, board)
    assert board.game_id is not None
    async with service.kernel.lock(board.game_id):
        assert await service.boards.reconcile() == []
    assert (await only_notice(service)).reply.game_id == board.game_id


async def test_each_process_shows_only_its_own_servers_games(
    make_service: ServiceFactory,
) -> None:
    service = await make_service(owns=lambda guild_id: guild_id != GUILD)
    await play_first(service, await start_game(service))
    assert await service.boards.reconcile() == []


async def test_a_board_is_no_longer_unseen_once_its_game_moved_on_or_was_shown(
    service: ShaxService,
) -> None:
    board = await start_game(service)
    moved = await play_first(service, board)
    notice = await only_notice(service)
    assert await service.boards.unseen(notice.reply)
    await play_first(service, moved)  # an answer that began meanwhile: it shows its own
    assert not await service.boards.unseen(notice.reply)
    newer = await only_notice(service)
    await service.posted(newer.reply, 1002)
    assert not await service.boards.unseen(newer.reply)
