"""The teacher: hints in games against the bot, and the review of a finished game.

* :meth:`Teacher.hint` — the best action for the player on turn, drawn on the board with
  one line of why (from :func:`engine.explain.explain_assessed`). Only in games against the bot,
  at most :data:`HINTS_PER_GAME` a game, counted in the storage (shown in the game's
  summary at the end). A hint asked for again at the same position is the same hint,
  shown again without spending another.
* :meth:`Teacher.review` — every action of a finished game scored beside the best one
  (:mod:`engine.analysis`), the evaluation over the game as a plot, and the three
  turning points (the actions that lost the most), each a picture of the better action
  with one line of why.

The searches run off the event loop through an :class:`Analyser` (the AI worker
processes, :meth:`bot.workers.ai.AIPool.assess`); a review is split into chunks that
each take one worker in turn, so bot games keep being answered meanwhile.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import renderer
from bot.service import messages
from bot.service.compose import BoardRenderer, board_picture, read_name
from bot.service.kernel import GameKernel, names, side
from bot.service.replies import (
    Attachment,
    GameOver,
    NoGameHere,
    Offload,
    Picture,
    Place,
    Reader,
    Reply,
    Said,
    Saying,
    Thinking,
    User,
    UserError,
    not_thinking,
)
from bot.storage import GameRow
from engine.analysis import (
    POSITION_SECONDS,
    REVIEW_DEPTH,
    Assessment,
    MoveReview,
    assess_record,
    evaluation_curve,
    review_moves,
    turning_points,
)
from engine.explain import Explanation, explain_assessed, explain_turning_point
from engine.record import iter_positions

HINTS_PER_GAME = 3
HINT_SECONDS = 1.5
"""A hint's search time at most (it is as deep as a review's, or as time allows)."""
REVIEW_CHUNKS = 10
"""Jobs a review is split into: each holds one AI worker, so other games' moves get a
worker between them, and two workers share a review evenly."""
HINT_FILENAME = "hint.png"
HINTS_KEPT = 1000
"""The last hint of this many games is kept, to be shown again at the same position."""

HINT_LINE: Saying[[str, Said, int, int]] = Saying("hint_line")
"""A hint: the action, why (:data:`REASON_WORDS`), the hints used and the limit."""
NO_HINTS_LEFT: Saying[[int]] = Saying("no_hints_left")
HINTS_USED: Saying[[int, int]] = Saying("hints_used")
REVIEW_HEADING: Saying[[str, str, int]] = Saying("review_heading")
"""White's and black's names, and the number of actions."""
TURNING_POINT: Saying[[int, int, str, str, Said, str, Said]] = Saying("turning_point")
"""A turning point: its number, the action's, the mover's name, the action played, what it
lost (:data:`LOSS_WORDS`), the better action and why (:data:`REASON_WORDS`,
:data:`ANSWER_WORDS`)."""
TURNING_POINT_CAPTION: Saying[[int, int, str, str]] = Saying("turning_point_caption")
ANSWER_WORDS: Saying[[str, str, Said]] = Saying("answer_words")
"""Why the action played was worse: it, the answer it allows, and what that answer does."""
REASON_WORDS: Saying[[str, Sequence[str], int]] = Saying("reason_words")
"""Why an action is good: an :class:`engine.explain.Reason` value, its points, and for a
proven win its moves."""
LOSS_WORDS: Saying[[int, bool, bool]] = Saying("loss_words")
"""What an action lost: the evaluation, and whether it gave a win away or walked into a loss."""


class HintRefused(UserError):
    """No hint now: a game between people, or none left."""


@dataclass(frozen=True)
class _Given:
    """The last hint given in a game: at which position, what it found, its number."""

    record: tuple[str, ...]
    found: Assessment
    used: int


class Analyser(Protocol):
    """Scores positions off the event loop (``bot.workers.ai.AIPool`` is one)."""

    async def assess(
        self,
        variant: str,
        record: Sequence[str],
        plies: Sequence[int],
        depth: int,
        seconds: float | None,
        *,
        review: bool = False,
    ) -> list[Assessment]:
        """:func:`engine.analysis.assess_record` of those plies; a ``review``'s part
        waits for the bots' moves and the hints."""
        ...


class ThreadAnalyser:
    """An :class:`Analyser` in a thread of this process (tests, and services without a pool)."""

    async def assess(
        self,
        variant: str,
        record: Sequence[str],
        plies: Sequence[int],
        depth: int,
        seconds: float | None,
        *,
        review: bool = False,
    ) -> list[Assessment]:
        return await asyncio.to_thread(
            assess_record, variant, list(record), list(plies), depth=depth, seconds=seconds
        )


class Teacher:
    """Hints and reviews."""

    def __init__(
        self,
        kernel: GameKernel,
        analyser: Analyser,
        theme_of: Callable[[int | None, int | None], Awaitable[str]],
        *,
        run_picture: Offload = asyncio.to_thread,
        render_board: BoardRenderer = renderer.render_board,
        hints_per_game: int = HINTS_PER_GAME,
        depth: int = REVIEW_DEPTH,
        seconds: float | None = POSITION_SECONDS,
    ) -> None:
        self.kernel = kernel
        self.analyser = analyser
        self._run_picture = run_picture
        self._render_board = render_board
        self.hints_per_game = hints_per_game
        self.depth = depth
        self.seconds = seconds
        self.theme_of = theme_of
        """The theme of a player's boards (theirs, else their server's)."""
        self._given: OrderedDict[int, _Given] = OrderedDict()
        self._hinting: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    # -- hints -----------------------------------------------------------------------------

    async def hint(self, user: User, place: Place, *, thinking: Thinking = not_thinking) -> Reply:
        """The best action for ``user``, on turn in the bot game in ``place``'s channel."""
        k = self.kernel
        row = await k.find_game(place)
        if row.ai_level is None:
            raise HintRefused(Said.message(messages.HINTS_ONLY_AGAINST_THE_BOT))
        k.check_turn(row, user, None)
        limit = self.hints_per_game
        lock = self._hinting.setdefault(row.id, asyncio.Lock())
        async with lock:  # a second ask while the first searches waits for its answer
            given = self._given.get(row.id)
            if given is None or given.record != row.record:
                given = await self._new_hint(row, limit, thinking)
        why = explain_assessed(k.position(row), given.found)
        found, used = given.found, given.used
        white, black = names(row)
        view = renderer.BoardView(
            white_name=white,
            black_name=black,
            suggestion=found.best,
            theme=await self._theme(user, place),
        )
        picture = self._picture(HINT_FILENAME, row.variant, row.record, view)
        reason = _why(why)
        text = HINT_LINE(found.best, reason, used, limit)
        return Reply(text=text, ephemeral=True, attachments=(picture,))

    async def _new_hint(self, row: GameRow, limit: int, thinking: Thinking) -> _Given:
        """Search the position for a hint and spend one (refused when none are left)."""
        storage = self.kernel.storage
        if await storage.games.hints_used(row.id) >= limit:
            raise HintRefused(NO_HINTS_LEFT(limit))
        thinking()
        seconds = None if self.seconds is None else max(self.seconds, HINT_SECONDS)
        [found] = await self.analyser.assess(
            row.variant, row.record, [len(row.record)], self.depth, seconds
        )
        used = await storage.games.use_hint(row.id, limit)
        if used is None:  # another hint was taken meanwhile
            raise HintRefused(NO_HINTS_LEFT(limit))
        given = self._given[row.id] = _Given(row.record, found, used)
        self._given.move_to_end(row.id)
        if len(self._given) > HINTS_KEPT:
            self._given.popitem(last=False)
        return given

    def _picture(
        self,
        filename: str,
        variant: str,
        record: Sequence[str],
        view: renderer.BoardView,
        caption: Said | None = None,
    ) -> Picture:
        """A board drawn in the language of whoever reads it (and its caption too)."""
        return board_picture(
            filename, self._run_picture, self._render_board, variant, record, view, caption
        )

    async def hints_summary(self, row: GameRow) -> Said | None:
        """The hints line of a finished bot game's summary (``None`` when none were taken)."""
        if row.ai_level is None:
            return None
        used = await self.kernel.storage.games.hints_used(row.id)
        return HINTS_USED(used, self.hints_per_game) if used else None

    # -- reviews ---------------------------------------------------------------------------

    async def review(
        self,
        user: User,
        place: Place,
        game_id: int | None = None,
        *,
        thinking: Thinking = not_thinking,
    ) -> Reply:
        """The review of a finished game: the clicked one, or the newest in the channel."""
        k = self.kernel
        if game_id is not None:
            row = await k.game(game_id)
        else:
            found = await k.storage.games.last_game_in_channel(place.channel_id)
            if found is None:
                raise NoGameHere(Said.message(messages.NOTHING_TO_REVIEW))
            row = found
        if row.active:
            raise GameOver(Said.message(messages.REVIEW_WHEN_OVER))
        if not row.record:
            raise NoGameHere(Said.message(messages.EMPTY_GAME))
        thinking()
        reviews = await self.analyse(row.variant, row.record)
        return await self._review_reply(row, reviews, await self._theme(user, place))

    async def analyse(self, variant: str, record: Sequence[str]) -> list[MoveReview]:
        """Every action of ``record`` beside the best one (:func:`analyse_game`)."""
        return await analyse_game(self.analyser, variant, record, self.depth, self.seconds)

    async def _theme(self, user: User, place: Place) -> str:
        """The theme of the boards ``user`` asks for at ``place``."""
        return await self.theme_of(user.id, place.guild_id)

    async def _review_reply(self, row: GameRow, reviews: list[MoveReview], theme: str) -> Reply:
        turning = turning_points(reviews)
        by_ply = {r.ply: r for r in reviews}
        values = evaluation_curve(reviews)
        index = {r.ply: i for i, r in enumerate(reviews)}
        marks = [index[ply] + 1 for ply in turning]  # where the curve shows the loss
        white, black = names(row)

        async def plot(reader: Reader) -> bytes:
            drawn: bytes = await self._run_picture(
                _plot,
                values,
                marks,
                read_name(reader, white),
                read_name(reader, black),
                reader.language,
            )
            return drawn

        lines = [REVIEW_HEADING(white, black, len(row.record))]
        attachments: list[Attachment | Picture] = [Picture(renderer.PLOT_FILENAME, plot)]
        before = [p for p, _ in iter_positions(row.variant, row.record)]
        for number, ply in enumerate(turning, start=1):
            r = by_ply[ply]
            position = before[ply]
            why, answer = explain_turning_point(position, r)
            name = side(row, r.mover).name
            lines.append(
                TURNING_POINT(
                    number,
                    ply + 1,
                    name,
                    r.played,
                    _lost(r),
                    r.best,
                    _why(why)
                    if answer is None or r.reply is None
                    else ANSWER_WORDS(r.played, r.reply, _why(answer)),
                )
            )
            view = renderer.BoardView(
                white_name=white, black_name=black, suggestion=r.best, theme=theme
            )
            caption = TURNING_POINT_CAPTION(number, ply + 1, r.played, r.best)
            attachments.append(
                self._picture(
                    f"turning-point-{number}.png", row.variant, row.record[:ply], view, caption
                )
            )
        if not turning:
            lines.append(Said.message(messages.NO_TURNING_POINTS))
        return Reply(text=Said.join(lines, "\n"), ephemeral=True, attachments=tuple(attachments))


async def analyse_game(
    analyser: Analyser,
    variant: str,
    record: Sequence[str],
    depth: int = REVIEW_DEPTH,
    seconds: float | None = POSITION_SECONDS,
) -> list[MoveReview]:
    """Every action of ``record`` beside the best one, the searches shared out in
    :data:`REVIEW_CHUNKS` jobs (every few plies to each, so each gets a fair mix)."""
    positions = [p for p, _ in iter_positions(variant, record)]
    plies = [i for i in range(len(record)) if positions[i].outcome is None]
    chunks = [plies[i::REVIEW_CHUNKS] for i in range(REVIEW_CHUNKS)]
    found = await asyncio.gather(
        *(
            analyser.assess(variant, record, chunk, depth, seconds, review=True)
            for chunk in chunks
            if chunk
        )
    )
    return review_moves(variant, record, [a for part in found for a in part])


def _plot(values: list[int], marks: list[int], white: str, black: str, language: str) -> bytes:
    """The review's plot, its words in ``language`` (top-level, so it pickles into a
    picture worker)."""
    return renderer.render_evaluation(
        values, marks, white_name=white, black_name=black, language=language
    )


def _why(why: Explanation) -> Said:
    return REASON_WORDS(why.reason.value, why.points, why.moves)


def _lost(r: MoveReview) -> Said:
    return LOSS_WORDS(r.loss, r.gave_away_win, r.walked_into_loss)
