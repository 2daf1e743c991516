"""Puzzles: a player's rated puzzles, answered one action at a time.

A puzzle (:mod:`engine.tables.puzzles`) is a position where exactly one move wins, by
the endgame tables. ``/shax puzzle`` opens a try of one rated near the player's puzzle
rating (one they never tried; of a theme if they choose one, :mod:`.puzzle_themes`), or
shows again the one they have open: a player has one puzzle open at a time, and it is
theirs alone (its messages are ephemeral). Each answer
is judged by :func:`engine.tables.puzzles.answer`: a right action is stored and the
tables' defence answers it; the last right action solves the puzzle; a wrong one is
not played — it ends the try and shows the winning line.

Only a player's first try of a puzzle is rated. It moves two Glicko-2 ratings, kept
apart from the game ratings: the player's puzzle rating and the puzzle's, each rated
against the other (:func:`rated`); and the player's puzzle streak (puzzles solved in a
row). Nothing else changes: no game, no tally, no game rating.

Which one ``/shax move`` means (:meth:`PuzzleDesk.meant`): the game in the channel when
the player is one of its players, else their open puzzle. The puzzle's own menu always
answers the puzzle; a typed answer that repeats one of the player's earlier ones and would
be wrong is taken for that answer sent again (:meth:`PuzzleDesk.answer`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.service import glicko, messages
from bot.service.kernel import Now, side_of, valid_id
from bot.service.puzzle_standings import START, Standing, rated
from bot.service.puzzle_themes import NO_THEME_LEFT, THEME_WINDOW, in_order
from bot.service.replies import (
    Choice,
    IllegalAction,
    Place,
    Said,
    Saying,
    StaleBoard,
    User,
    UserError,
)
from bot.storage import (
    AttemptRow,
    Ended,
    NewPuzzle,
    PuzzleRow,
    Rating,
    Storage,
)
from engine import Color, Kind, Position, ShaxError, Step, Variant, get_variant, replay
from engine.tables.puzzles import Puzzle, PuzzleTheme, answer, shipped

VARIANTS = ("shax", "shax-small", "jar")
"""The boards with shipped puzzles: every board (``/shax puzzle variant:`` offers them all)."""
PUZZLE_DEVIATION = 200.0
"""A new puzzle's rating deviation: its starting rating is an estimate from its grade
(:func:`engine.tables.puzzles.starting_rating`), surer than a newcomer's 350."""
NEAREST = 8
"""A new puzzle is one of the this many untried ones rated nearest the player."""
NO_PUZZLE_LEFT: Saying[[Variant, Variant | None]] = Saying("no_puzzle_left")
"""No puzzle of this board is left to try: the board, whether it has puzzles at all (jar
has none yet), and a board that has one the player never tried (``None``: none has)."""
NOT_AN_ACTION: Saying[[str, Sequence[str]]] = Saying("puzzle_not_an_action")
"""What was typed, not an action of this puzzle, and the actions that are."""


@dataclass(frozen=True)
class Try:
    """A try as the player sees it: the puzzle, where it stands, and who plays what."""

    attempt: AttemptRow
    puzzle: PuzzleRow
    position: Position
    """The position now (the solver to act while the try is open)."""
    solver: Color

    @property
    def moves_left(self) -> int:
        """The solver's steps still to find (a move and its removal are one step: while
        the removal is due, the step is still to finish)."""
        made = _steps_made(self.puzzle, self.attempt.played, self.solver)
        removing = self.position.step is Step.REMOVE and self.position.turn == self.solver.value
        return self.puzzle.moves - made + removing

    @property
    def first_step(self) -> bool:
        """Whether the solver is still to take the puzzle's first action (where every
        other move draws or loses; later, another may win, only not as soon)."""
        return not self.attempt.played

    @property
    def record(self) -> tuple[str, ...]:
        """The actions from the empty board to now."""
        return (*self.puzzle.record, *self.attempt.played)

    def solution_from_here(self) -> tuple[str, ...]:
        """The winning line from where the solver went wrong (or gave up)."""
        return self.puzzle.solution[len(self.attempt.played) :]

    def choices(self) -> tuple[Choice, ...]:
        if not self.attempt.open:
            return ()
        return tuple(Choice(label=a, value=a) for a in sorted(self.position.legal_notations()))


@dataclass(frozen=True)
class Answered:
    """What an answer did: ``"right"`` (go on), ``"solved"`` or ``"wrong"``, the action
    as notation, the defence's reply, and the try after it (with the ratings it moved,
    once it ended)."""

    verdict: str
    action: str
    defence: tuple[str, ...]
    now: Try
    ended: Ended | None = None

    @property
    def over(self) -> bool:
        return self.verdict != "right"


class PuzzleDesk:
    """Players' puzzles over the storage."""

    def __init__(self, storage: Storage, *, now: Now, rng: random.Random | None = None) -> None:
        self.storage = storage
        self.now = now
        self.rng = rng or random.Random()
        self._seeded = False
        self._seeding = asyncio.Lock()

    async def ready(self) -> None:
        """Store the shipped puzzles not yet stored (once a process)."""
        if self._seeded:
            return
        async with self._seeding:
            if not self._seeded:
                await self.storage.puzzles.seed_puzzles(
                    [_new(p) for v in VARIANTS for p in shipped(v)]
                )
                self._seeded = True

    async def standing(self, user_id: int) -> Standing:
        return Standing.of(await self.storage.puzzles.solver(user_id))

    async def open_try(self, user_id: int) -> Try | None:
        attempt = await self.storage.puzzles.open_attempt(user_id)
        return None if attempt is None else await self._try(attempt)

    async def start(
        self,
        user: User,
        variant: str,
        theme: PuzzleTheme | None = None,
        guild_id: int | None = None,
    ) -> tuple[Try, bool]:
        """The player's open puzzle (and ``False``), else a new one near their puzzle
        rating that they never tried (and ``True``), asked on server ``guild_id``. Of a
        ``theme``: one within :data:`THEME_WINDOW` of their rating, else the nearest; the
        try keeps the theme for the next puzzle (:meth:`theme_after`)."""
        await self.ready()
        found = await self.open_try(user.id)
        if found is not None:
            return found, False
        rating = (await self.standing(user.id)).rating.rating
        near = await self.storage.puzzles.puzzles_near(variant, rating, user.id, NEAREST, theme)
        if not near and theme is not None:
            raise UserError(await self._no_theme_left(user, variant, theme))
        if not near:
            raise UserError(await self._none_left(user, variant, rating))
        close = [p for p in near if abs(p.glicko.rating - rating) <= THEME_WINDOW]
        chosen = self.rng.choice(near if theme is None else close or near[:1])
        attempt = await self.storage.puzzles.start_attempt(
            user.id,
            user.name,
            chosen.id,
            self.now(),
            start=START,
            guild_id=guild_id,
            theme=None if theme is None else theme.value,
        )
        if attempt is None:  # another request opened one meanwhile: that one stands
            found = await self.open_try(user.id)
            if found is None:
                raise StaleBoard(Said.message(messages.ANSWERED_ALREADY))
            return found, False
        return await self._try(attempt, chosen), True

    async def theme_after(self, user: User, attempt_id: int) -> tuple[str, PuzzleTheme | None]:
        """The board and the theme of the player's try ``attempt_id``, which the next
        puzzle keeps (shax and no theme for a try that is not theirs)."""
        done = await self.storage.puzzles.get_attempt(attempt_id) if valid_id(attempt_id) else None
        if done is None or done.user_id != user.id:
            return "shax", None
        theme = in_order([done.theme] if done.theme else [])
        return (await self.puzzle(done.puzzle_id)).variant, theme[0] if theme else None

    async def _none_left(self, user: User, variant: str, rating: float) -> Said:
        """Why no puzzle of ``variant`` is left for the player, and where one is."""
        other = None
        for board in VARIANTS:
            if board != variant and await self.storage.puzzles.puzzles_near(
                board, rating, user.id, 1
            ):
                other = get_variant(board)
                break
        return NO_PUZZLE_LEFT(get_variant(variant), other)

    async def _no_theme_left(self, user: User, variant: str, theme: PuzzleTheme) -> Said:
        """No puzzle of ``theme`` is left for the player on ``variant``: the themes that are."""
        left = await self.storage.puzzles.themes_left(variant, user.id)
        return NO_THEME_LEFT(theme, get_variant(variant), in_order(left))

    async def start_puzzle(
        self, user: User, puzzle_id: int, daily_id: int | None, guild_id: int | None = None
    ) -> Try:
        """Open a try of one given puzzle (the puzzle of the day, on server ``guild_id``):
        the player's open try of it if they have one; a refusal if another puzzle is open."""
        await self.ready()
        found = await self.open_try(user.id)
        if found is not None:
            if found.puzzle.id == puzzle_id:
                return found
            raise UserError(Said.message(messages.ANOTHER_OPEN))
        attempt = await self.storage.puzzles.start_attempt(
            user.id,
            user.name,
            puzzle_id,
            self.now(),
            start=START,
            daily_id=daily_id,
            guild_id=guild_id,
        )
        if attempt is None:
            raise UserError(Said.message(messages.ANOTHER_OPEN))
        return await self._try(attempt)

    async def meant(self, user: User, place: Place) -> Try | None:
        """The open puzzle ``/shax move`` answers here: ``None`` when the player is one of
        the players of the game in this channel (the move is theirs there) or has no
        puzzle open."""
        found = await self.open_try(user.id)
        if found is None or await self.in_game_here(user, place):
            return None
        return found

    async def in_game_here(self, user: User, place: Place) -> bool:
        """Whether the player is one of the players of the game in this channel."""
        game = await self.storage.games.active_game_in_channel(place.channel_id)
        return game is not None and side_of(game, user.id) is not None

    async def legal_choices(self, found: Try, typed: str) -> list[Choice]:
        """The legal actions of the puzzle starting with ``typed`` (autocomplete)."""
        prefix = typed.strip().lower()
        return [c for c in found.choices() if c.value.startswith(prefix)]

    async def answer(
        self, user: User, text: str, attempt_id: int | None = None, version: int | None = None
    ) -> Answered:
        """Judge the player's action in their open puzzle (or the try ``attempt_id`` at
        ``version``, from its menu): a right one is stored with the defence's reply; a
        solve or a wrong one ends the try and rates it. An action that is not legal is
        refused and changes nothing; so is a second answer to the same moment, and a wrong
        typed answer (no ``version``) that repeats one of the player's earlier actions (a
        ``/shax move`` sent again after its answer, legal again by then)."""
        found = await self._answering(user, attempt_id, version)
        puzzle = _engine_puzzle(found.puzzle)
        attempt = found.attempt
        typed = text.strip().lower()
        try:
            judged = answer(puzzle, attempt.played, typed)
        except ShaxError as exc:
            if typed in attempt.played:
                # The same answer sent again after it was played (a double send).
                raise StaleBoard(Said.message(messages.ANSWERED_ALREADY)) from None
            legal = sorted(found.position.legal_notations())
            raise IllegalAction(NOT_AN_ACTION(text, legal), text, str(exc), legal) from None
        action = judged.played[len(attempt.played)] if judged.verdict != "wrong" else text
        if judged.verdict == "right":
            stored = await self.storage.puzzles.advance_attempt(
                attempt.id, attempt.version, judged.played
            )
            if stored is None:
                raise StaleBoard(Said.message(messages.ANSWERED_ALREADY))
            return Answered("right", action, judged.defence, await self._try(stored, found.puzzle))
        wrong = None
        if judged.verdict == "wrong":
            wrong = found.position.parse(typed).notation(found.position.variant)
            action = wrong
            if version is None and wrong in _solvers_actions(found):
                raise StaleBoard(Said.message(messages.ANSWERED_ALREADY))
        ended = await self._end(
            found, judged.played, solved=judged.verdict == "solved", wrong=wrong
        )
        return Answered(
            judged.verdict, action, (), await self._try(ended.attempt, found.puzzle), ended
        )

    async def give_up(self, user: User, attempt_id: int | None = None) -> Answered:
        """End the player's open puzzle unsolved and show its solution (a failure for the
        ratings, as a wrong answer is)."""
        found = await self._answering(user, attempt_id, None)
        ended = await self._end(found, found.attempt.played, solved=False, wrong=None)
        return Answered("wrong", "", (), await self._try(ended.attempt, found.puzzle), ended)

    async def _end(
        self, found: Try, played: Sequence[str], *, solved: bool, wrong: str | None
    ) -> Ended:
        now = self.now()
        ended = await self.storage.puzzles.end_attempt(
            found.attempt.id,
            found.attempt.version,
            solved=solved,
            played=played,
            wrong=wrong,
            now=now,
            rate=lambda before, puzzle, won: rated(before, puzzle, won, now),
        )
        if ended is None:
            raise StaleBoard(Said.message(messages.ANSWERED_ALREADY))
        return ended

    async def _answering(self, user: User, attempt_id: int | None, version: int | None) -> Try:
        """The open try an answer is for, checked: the player's own, and still at the
        version its menu showed."""
        if attempt_id is None:
            found = await self.open_try(user.id)
            if found is None:
                raise UserError(Said.message(messages.NO_PUZZLE_OPEN))
            return found
        attempt = (
            await self.storage.puzzles.get_attempt(attempt_id) if valid_id(attempt_id) else None
        )
        if attempt is None or attempt.user_id != user.id:
            raise UserError(Said.message(messages.NOT_YOUR_PUZZLE))
        if not attempt.open or (version is not None and version != attempt.version):
            raise StaleBoard(Said.message(messages.ANSWERED_ALREADY))
        return await self._try(attempt)

    async def _try(self, attempt: AttemptRow, puzzle: PuzzleRow | None = None) -> Try:
        if puzzle is None or puzzle.id != attempt.puzzle_id:
            puzzle = await self.puzzle(attempt.puzzle_id)
        start = replay(puzzle.variant, puzzle.record)
        position = start
        for action in attempt.played:
            position = position.apply(action)
        return Try(attempt, puzzle, position, Color(start.turn))

    async def puzzle(self, puzzle_id: int) -> PuzzleRow:
        found = await self.storage.puzzles.get_puzzle(puzzle_id)
        assert found is not None  # puzzles are never deleted
        return found


def _engine_puzzle(row: PuzzleRow) -> Puzzle:
    return Puzzle(
        variant=row.variant,
        record=row.record,
        solution=row.solution,
        moves=row.moves,
        depth=row.depth,
        tempting=row.tempting,
        rating=round(row.glicko.rating),
    )


def _solvers_actions(found: Try) -> set[str]:
    """The solver's own actions in the try so far (not the defence's)."""
    position = replay(found.puzzle.variant, found.puzzle.record)
    mine = set()
    for notation in found.attempt.played:
        if position.turn == found.solver.value:
            mine.add(notation)
        position = position.apply(notation)
    return mine


def _steps_made(puzzle: PuzzleRow, played: Sequence[str], solver: Color) -> int:
    """How many of the solver's steps ``played`` holds: one for each of their moves (a
    removal goes with the move that earned it)."""
    position = replay(puzzle.variant, puzzle.record)
    steps = 0
    for notation in played:
        action = position.parse(notation)
        steps += position.turn == solver.value and action.kind is not Kind.REMOVE
        position = position.play(action)
    return steps


def _new(puzzle: Puzzle) -> NewPuzzle:
    start = Rating(float(puzzle.rating), PUZZLE_DEVIATION, glicko.START_VOLATILITY)
    return new_puzzle(puzzle, start, puzzle.themes)


def new_puzzle(line: Puzzle | PuzzleRow, rating: Rating, themes: Iterable[str]) -> NewPuzzle:
    """``line`` (a shipped puzzle, or one as stored) to store with ``rating`` and ``themes``
    (theme ids)."""
    return NewPuzzle(
        variant=line.variant,
        record=" ".join(line.record),
        solution=" ".join(line.solution),
        moves=line.moves,
        depth=line.depth,
        tempting=line.tempting,
        glicko=rating,
        themes=" ".join(themes),
    )
