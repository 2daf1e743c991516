"""Puzzles as replies: what ``/shax puzzle``, an answer, giving up and the puzzle of the
day show. The rules are in :mod:`bot.service.puzzles` and :mod:`bot.service.daily`; this
part builds the messages: the picture (the solver's side at the bottom, the task under
it, the winning action drawn once the try is lost), the words, and the controls.

A player's puzzle speaks only to them (every reply is ephemeral); the puzzle of the day
is posted in its channel, with a button that opens each player's own try.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import renderer
from bot.service import messages
from bot.service.compose import Composer
from bot.service.daily import NOT_POSTED, DailyDue, DailyPuzzles
from bot.service.kernel import Now, parse_variant
from bot.service.puzzle_standings import Standing
from bot.service.puzzle_themes import PUZZLE_THEMES, THEME_FAR, THEME_WINDOW, in_order, parse_theme
from bot.service.puzzles import Answered, PuzzleDesk, Try
from bot.service.replies import (
    Choice,
    DailyControls,
    Notice,
    Place,
    PuzzleControls,
    Reply,
    Said,
    Saying,
    User,
)
from bot.service.server_settings import ServerSettingsBook
from bot.storage import Ended
from engine import Color, Phase, Position, Variant, get_variant, replay
from engine.tables.puzzles import PuzzleTheme

DAILY_POST: Saying[[str, Color, int | None]] = Saying("daily_post")
"""The puzzle of the day: its day, the side to play, and the moves to the win (none: the
one action that keeps it)."""
DAILY_YESTERDAY: Saying[[int, int, User | None]] = Saying("daily_yesterday")
"""Yesterday's puzzle of the day: how many tried it, solved it, and who first."""
PUZZLE_TASK: Saying[[Color, int | None]] = Saying("puzzle_task")
"""What a puzzle asks (also its picture's caption): the side to play, the moves to the win."""
PUZZLE_HEADING: Saying[[int, Variant, float, bool]] = Saying("puzzle_heading")
"""The puzzle's number, board and rating, and whether it is a try still open."""
PUZZLE_FIND_THE_WIN: Saying[[Color, int | None]] = Saying("puzzle_find_the_win")
PUZZLE_HOW_TO_ANSWER: Saying[[bool]] = Saying("puzzle_how_to_answer")
"""How to answer; true when the player has a game in this channel."""
PUZZLE_RIGHT_STEP: Saying[[str, Sequence[str], int]] = Saying("puzzle_right_step")
"""A right action, the defence's answer (none: the removal is next), the moves left."""
PUZZLE_SOLVED: Saying[[str]] = Saying("puzzle_solved")
PUZZLE_WRONG: Saying[[str, Sequence[tuple[str, bool]], bool]] = Saying("puzzle_wrong")
"""A wrong action, the winning line (each action marked when it is the solver's), and
whether it was the first step."""
PUZZLE_GIVEN_UP: Saying[[Sequence[tuple[str, bool]]]] = Saying("puzzle_given_up")
PUZZLE_STANDING: Saying[[str, int]] = Saying("puzzle_standing")
"""A player's puzzle rating as shown, and their puzzle streak."""
PUZZLE_RATING_CHANGE: Saying[[str, str, int]] = Saying("puzzle_rating_change")
PUZZLE_STREAK: Saying[[int, int, int]] = Saying("puzzle_streak")
"""The streak after a try, the run it ended, and the best."""


@dataclass
class PuzzleReplies:
    """Every puzzle call, answered with :class:`Reply` values."""

    desk: PuzzleDesk
    daily: DailyPuzzles
    composer: Composer
    servers: ServerSettingsBook

    @classmethod
    def over(
        cls,
        composer: Composer,
        servers: ServerSettingsBook,
        *,
        now: Now,
        owns: Callable[[int | None], bool],
        rng: random.Random | None = None,
    ) -> PuzzleReplies:
        """The puzzles over the composer's storage, with the servers' settings."""
        desk = PuzzleDesk(composer.kernel.storage, now=now, rng=rng)
        return cls(desk, DailyPuzzles(desk, now=now, owns=owns), composer, servers)

    async def puzzle(
        self, user: User, place: Place, variant: str = "shax", theme: str | None = None
    ) -> Reply:
        """The player's open puzzle, else a new one near their puzzle rating (of
        ``theme``, if one is chosen: the nearest of it when none is near)."""
        board = parse_variant(variant)
        chosen = parse_theme(theme)
        found, new = await self.desk.start(user, board.id, chosen, place.guild_id)
        return await self._open(found, user, place, resumed=not new, theme=chosen)

    async def answer(
        self,
        user: User,
        place: Place,
        action: str,
        attempt_id: int | None = None,
        version: int | None = None,
    ) -> Reply:
        """Judge one action of the player's open puzzle (or of the try its menu belongs
        to): the next position after the defence's answer, or the end."""
        answered = await self.desk.answer(user, action, attempt_id, version)
        return await self._answered(answered, user, place)

    async def give_up(self, user: User, place: Place, attempt_id: int | None = None) -> Reply:
        """End the player's open puzzle unsolved: the solution, and the ratings it moved."""
        return await self._answered(await self.desk.give_up(user, attempt_id), user, place)

    async def next_puzzle(self, user: User, place: Place, attempt_id: int) -> Reply:
        """A new puzzle on the board of the one just finished, of the theme chosen for it
        if one was (its *Next puzzle* button)."""
        variant, theme = await self.desk.theme_after(user, attempt_id)
        return await self.puzzle(user, place, variant, None if theme is None else theme.value)

    async def daily_try(self, user: User, place: Place, daily_id: int) -> Reply:
        """The player's own try of a puzzle of the day (its *Solve it* button)."""
        found = await self.daily.start(user, daily_id)
        return await self._open(found, user, place, resumed=bool(found.attempt.played))

    async def choices(self, found: Try, typed: str) -> list[Choice]:
        return await self.desk.legal_choices(found, typed)

    async def answer_choices(self, user: User, typed: str = "") -> list[Choice]:
        """The legal actions of the player's open puzzle starting with ``typed`` (the
        autocomplete of ``/shax puzzle answer:``, which answers it wherever it is typed)."""
        found = await self.desk.open_try(user.id)
        return [] if found is None else await self.desk.legal_choices(found, typed)

    async def meant(self, user: User, place: Place) -> Try | None:
        """The open puzzle ``/shax move`` answers here, if it answers one (see
        :meth:`PuzzleDesk.meant`)."""
        return await self.desk.meant(user, place)

    # -- the puzzle of the day ---------------------------------------------------------

    async def tick(self) -> list[Notice]:
        """The puzzles of the day due now, to post in their channels."""
        due = await self.daily.due(await self.servers.daily_plans())
        return [await self._daily_notice(d) for d in due]

    async def _daily_notice(self, due: DailyDue) -> Notice:
        puzzle = due.puzzle
        start = replay(puzzle.variant, puzzle.record)
        solver, asked = Color(start.turn), _asked(start, puzzle.moves)
        parts = [DAILY_POST(due.daily.day, solver, asked)]
        if due.yesterday is not None:
            y = due.yesterday
            first = None if y.first is None else User(y.first.user_id, y.first.name)
            parts.append(DAILY_YESTERDAY(y.tried, y.solved, first))
        theme = await self.composer.themes.server(due.daily.guild_id)
        view = renderer.BoardView(flip=solver is Color.BLACK, theme=theme)
        caption = PUZZLE_TASK(solver, asked)
        picture = self.composer.position_picture(puzzle.variant, puzzle.record, view, caption)
        reply = Reply(
            text=Said.join(parts, "\n"),
            attachments=(picture,),
            controls=DailyControls(due.daily.id),
        )
        return Notice(due.daily.channel_id, reply, None, due.daily.guild_id)

    async def posted(self, reply: Reply, message_id: int) -> None:
        """Remember the message that shows a puzzle of the day (it is posted once)."""
        if isinstance(reply.controls, DailyControls):
            await self.daily.posted(reply.controls.daily_id, message_id)

    async def shown(self, reply: Reply) -> None:
        """A puzzle of the day that its channel would not take is not posted again."""
        await self.posted(reply, NOT_POSTED)

    # -- the messages ----------------------------------------------------------------------

    async def _open(
        self,
        found: Try,
        user: User,
        place: Place,
        *,
        resumed: bool,
        theme: PuzzleTheme | None = None,
    ) -> Reply:
        puzzle = found.puzzle
        variant = get_variant(puzzle.variant)
        standing = await self.desk.standing(user.id)
        heading = PUZZLE_HEADING(puzzle.id, variant, puzzle.glicko.rating, resumed)
        parts = [heading]
        far = abs(puzzle.glicko.rating - standing.rating.rating) > THEME_WINDOW
        if theme is not None and not resumed and far:
            parts.append(THEME_FAR(theme))
        parts.append(PUZZLE_FIND_THE_WIN(found.solver, _asked(found.position, found.moves_left)))
        parts.append(PUZZLE_HOW_TO_ANSWER(await self.desk.in_game_here(user, place)))
        parts.append(_standing(standing))
        return await self._reply(found, user, place, parts)

    async def _answered(self, answered: Answered, user: User, place: Place) -> Reply:
        found = answered.now
        if answered.verdict == "right":
            parts = [PUZZLE_RIGHT_STEP(answered.action, answered.defence, found.moves_left)]
            if answered.defence:
                in_game = await self.desk.in_game_here(user, place)
                parts.append(PUZZLE_HOW_TO_ANSWER(in_game))
            return await self._reply(found, user, place, parts)
        if answered.verdict == "solved":
            parts = [PUZZLE_SOLVED(answered.action)]
        elif answered.action:
            parts = [PUZZLE_WRONG(answered.action, _line(found), found.first_step)]
        else:
            parts = [PUZZLE_GIVEN_UP(_line(found))]
        assert answered.ended is not None
        if themes := in_order(found.puzzle.themes):
            parts.append(PUZZLE_THEMES(themes))
        parts += _ratings(answered.ended)
        return await self._reply(found, user, place, parts)

    async def _reply(self, found: Try, user: User, place: Place, parts: list[Said]) -> Reply:
        attempt = found.attempt
        solver = found.solver
        view = renderer.BoardView(
            flip=solver is Color.BLACK,
            theme=await self.composer.themes.of(user.id, place.guild_id),
            suggestion=None if attempt.open or found.attempt.status == "solved" else _next(found),
        )
        caption = (
            PUZZLE_TASK(solver, _asked(found.position, found.moves_left)) if attempt.open else None
        )
        picture = self.composer.position_picture(found.puzzle.variant, found.record, view, caption)
        controls = PuzzleControls(
            attempt.id,
            attempt.version,
            found.puzzle.variant,
            found.record,
            found.choices(),
            Said.message(messages.ANSWER_PLACEHOLDER),
            attempt.theme,
        )
        return Reply(
            text=Said.join(parts, "\n"),
            ephemeral=True,
            attachments=(picture,),
            controls=controls,
        )


def _asked(position: Position, moves: int) -> int | None:
    """The length of the win a puzzle at ``position`` asks for; none in the placement or an
    opening removal, where the one action that keeps the win is the whole puzzle (so a try
    still open there is at its start)."""
    return moves if position.phase is Phase.MOVEMENT else None


def _next(found: Try) -> str | None:
    rest = found.solution_from_here()
    return rest[0] if rest else None


def _line(found: Try) -> list[tuple[str, bool]]:
    """The winning line from where the try ended, each action marked when it is the
    solver's."""
    position = found.position
    line = []
    for action in found.solution_from_here():
        line.append((action, position.turn == found.solver.value))
        position = position.apply(action)
    return line


def _standing(standing: Standing) -> Said:
    return PUZZLE_STANDING(standing.rating.shown, standing.streak)


def _ratings(ended: Ended) -> list[Said]:
    """What the end of a try changed: the puzzle rating and the streak (or that it was
    not rated)."""
    before, after = ended.solver
    if ended.puzzle is None or after.glicko is None:
        return [Said.message(messages.UNRATED)]
    was, now = Standing.of(before).rating, Standing.of(after).rating
    return [
        PUZZLE_RATING_CHANGE(was.shown, now.shown, round(now.rating) - round(was.rating)),
        PUZZLE_STREAK(after.streak, before.streak, after.best),
    ]
