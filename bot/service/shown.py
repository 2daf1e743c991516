"""Which boards the players have seen, and showing the ones they have not.

Every game stores the version its shown board displays (``shown_version``; −1 until its
first board is posted). A board posted or edited records its version (:meth:`posted`),
and so does one a surface showed without a message (:meth:`shown`). A game whose stored
version is newer — the bot died, or Discord refused every answer, between the commit
and the post — gets its board shown anew by :meth:`reconcile`. A board shown while the
database did not answer (PostgreSQL died between the commit and the post) is recorded
when it answers again, first thing in :meth:`reconcile`, so that later edits and notices
find the board the players see, and it is not shown twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.service.bot_turns import BotPlayer
from bot.service.clock import everything
from bot.service.compose import Composer
from bot.service.kernel import GameKernel, other, side
from bot.service.replies import ChallengeControls, Notice, Reply, Said, Saying
from bot.storage import GameRow
from engine import Action, Color, Position, replay

log = logging.getLogger(__name__)

DESCRIBE_ACTION: Saying[[Position, Action, Position, str, str]] = Saying("describe_action")
"""The last action alone, as :data:`~bot.service.bot_turns.ACTION_LINE` has it."""


class BoardNotRecorded(Exception):
    """A board was shown but the database did not take its message; it is recorded when
    the database answers again (:meth:`ShownBoards.reconcile`)."""


class ShownBoards:
    """Records the boards shown, and composes the ones still to show."""

    def __init__(
        self,
        kernel: GameKernel,
        composer: Composer,
        bots: BotPlayer,
        *,
        owns: Callable[[int | None], bool] = everything,
    ) -> None:
        self.kernel = kernel
        self.composer = composer
        self.bots = bots
        self.owns = owns
        self._unrecorded: dict[int, tuple[int | None, int | None]] = {}
        """Per game, the board message (``None``: unchanged) and version shown but not
        yet recorded, the database not answering."""

    async def posted(self, reply: Reply, message_id: int) -> None:
        """Remember the message that now shows ``reply``: a game's new live board (later
        edits and notices find it there) or a challenge (edited when it expires). Raises
        :class:`BoardNotRecorded` when the database does not answer: the board is kept
        to be recorded later."""
        if reply.live_board and reply.game_id is not None:
            changed = message_id != reply.board_message_id
            board = (message_id if changed else None, reply.version)
            self._unrecorded.pop(reply.game_id, None)  # this board is newer
            try:
                await self.kernel.storage.games.set_board_message(reply.game_id, *board)
            except Exception as error:
                self._unrecorded[reply.game_id] = board
                raise BoardNotRecorded(
                    f"Could not record board message {message_id} of game {reply.game_id} "
                    f"({type(error).__name__})"
                ) from error
        if isinstance(reply.controls, ChallengeControls):
            await self.kernel.storage.challenges.set_challenge_message(
                reply.controls.challenge_id, message_id
            )

    async def shown(self, reply: Reply) -> None:
        """Record that ``reply``'s board needs no showing any more: a surface without
        messages (the console) showed it, or its channel is gone or closed to the bot."""
        if reply.live_board and reply.game_id is not None and reply.version is not None:
            await self.kernel.storage.games.mark_shown(reply.game_id, reply.version)

    async def reconcile(self) -> list[Notice]:
        """The boards the players have not seen, to show now (the adapter calls this on
        every start and reconnect, and after an answer could not be delivered).

        A game needs one when its stored version is newer than the board last shown (the
        bot died, or Discord refused every answer, between the commit and the post).
        Each comes as a notice that posts the game's current board anew in its channel,
        pinging the player on turn (the old board message is then deleted). Showing it
        records its version (:meth:`posted`, or :meth:`shown` when its channel is gone),
        so each board is shown once. Games being changed right now (their lock is held,
        or the bot is thinking) are left to that call's own answer, and with several
        processes each shows only the games of its own servers.
        """
        await self._record_unrecorded()
        rows = await self.kernel.storage.games.unshown_games()
        notices: list[Notice] = []
        for row in rows:
            if self._busy(row.id) or not self.owns(row.guild_id):
                continue
            try:
                events = [last_action(row)] if row.active and row.record else []
                reply = await self.composer.board_reply(row, events=events)
            except Exception:  # one broken game must not keep the others' boards hidden
                log.exception("Could not compose the unshown board of game %s", row.id)
                continue
            notices.append(Notice(row.channel_id, reply, guild_id=row.guild_id))
        return notices

    async def _record_unrecorded(self) -> None:
        """Record the boards shown while the database did not answer (it may still not)."""
        for game_id, (message_id, version) in list(self._unrecorded.items()):
            await self.kernel.storage.games.set_board_message(game_id, message_id, version)
            if self._unrecorded.get(game_id) == (message_id, version):
                del self._unrecorded[game_id]
            log.info("Recorded board message %s of game %s", message_id, game_id)

    async def unseen(self, reply: Reply) -> bool:
        """Whether a board from :meth:`reconcile` is still to be shown: its game is still
        at that version, no board of it was shown meanwhile, and nobody is changing it
        right now (an answer that began since shows its own board)."""
        if reply.game_id is None or reply.version is None:
            return False
        busy = self._busy(reply.game_id)
        row = await self.kernel.storage.games.get_game(reply.game_id)
        if busy or row is None:
            return False
        return row.version == reply.version and row.shown_version < row.version

    def _busy(self, game_id: int) -> bool:
        """Whether a call is changing the game right now (its answer shows its board)."""
        return self.bots.is_thinking(game_id) or self.kernel.lock(game_id).locked()


def last_action(row: GameRow) -> Said:
    """The game's last action (what the player now on turn has not seen)."""
    before = replay(row.variant, row.record[:-1])
    action = before.parse(row.record[-1])
    mover = side(row, Color(before.turn))
    them = other(row, mover).name
    return DESCRIBE_ACTION(before, action, before.apply(action), mover.name, them)
