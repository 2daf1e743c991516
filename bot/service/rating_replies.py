"""Ratings as players see them: the change under a rated game's result, each player's
rating on the board picture, ``/shax rating`` with its picture, the rating table of
``/shax leaderboard``; and recomputing every rating from the games.

Ratings are counted when a game ends (:meth:`bot.service.kernel.GameKernel.finish`, by
the rule in :mod:`bot.service.ratings`); this part only reads them, except
:func:`recompute`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime

import renderer
from bot.service import glicko
from bot.service.kernel import row_outcome, side
from bot.service.puzzle_standings import puzzle_record
from bot.service.ratings import (
    RATED_FAMILIES,
    current,
    family_of,
    level_rating,
    people_of,
    rerate,
)
from bot.service.replies import Offload, Picture, Place, Reader, Reply, Said, Saying, User
from bot.storage import Finished, GameRow, RatingChange, Storage, StoredRating
from engine import Color
from engine.ai import LEVELS

FAMILY = RATED_FAMILIES[0]
"""The family ``/shax rating`` and the rating table speak of (the only one rated)."""
TABLE_SIZE = 10

RATING_CHANGES: Saying[[Sequence[tuple[str, str, int]]]] = Saying("rating_changes")
"""The ratings a rated game moved: each person's name, rating as shown and change."""
BOT_RATINGS: Saying[[str, Sequence[tuple[str, int]]]] = Saying("bot_ratings")
"""The bot's name and its fixed rating at each level."""
NO_RATING_YET: Saying[[str]] = Saying("no_rating_yet")
RATING_HEADING: Saying[[str]] = Saying("rating_heading")
RATING_LINE: Saying[[str, int, int, int | None]] = Saying("rating_line")
"""A rating as shown, its deviation, the rated games and the best rating reached."""
PROVISIONAL_NOTE: Saying[[]] = Saying("provisional_note")
RATING_TABLE: Saying[[Sequence[tuple[str, int, int]]]] = Saying("rating_table")
"""The established ratings, highest first: name, rating, rated games."""

HistoryRenderer = Callable[[list[float], str, str], bytes]
"""Draws a rating history: the ratings, the theme, the reader's language."""


class RatingReplies:
    """Ratings as replies and as the board's figures."""

    def __init__(
        self,
        storage: Storage,
        bot_user: User,
        *,
        now: Callable[[], datetime],
        theme_of: Callable[[int | None, int | None], Awaitable[str]],
        run_picture: Offload,
        render_history: HistoryRenderer = renderer.render_rating_history,
    ) -> None:
        self.storage = storage
        self.bot_user = bot_user
        self.now = now
        self._theme_of = theme_of
        self._run_picture = run_picture
        self._render_history = render_history

    @staticmethod
    def to_read(row: GameRow, finished: Finished | None = None) -> tuple[str, list[int]] | None:
        """The ratings a board of ``row`` shows that are to be read: its family and its
        people, but those the game's finish (``finished``) has just written; ``None`` in
        an unrated variant."""
        family = family_of(row.variant)
        if family is None:
            return None
        written = {} if finished is None else finished.ratings
        return family, [user for user in people_of(row).values() if user not in written]

    def on_board(
        self, row: GameRow, finished: Finished | None, read: Mapping[int, StoredRating]
    ) -> tuple[str, str]:
        """White's and black's ratings as the board picture shows them (a bot's level's
        rating; ``""`` in an unrated variant), from the ratings ``read`` as
        :meth:`to_read` asks and those the game's finish (``finished``) has just written."""
        if family_of(row.variant) is None:
            return "", ""
        written = {} if finished is None else {u: a for u, (_, a) in finished.ratings.items()}
        stored = {**read, **written}
        now = self.now()
        shown = []
        for color in Color:
            s = side(row, color)
            if s.is_bot and row.ai_level is not None:
                shown.append(level_rating(row.ai_level).shown)
            else:
                shown.append(current(stored.get(s.user_id), now).shown)
        return shown[0], shown[1]

    @staticmethod
    def changes(row: GameRow, finished: Finished) -> Said | None:
        """``Ratings: Cali 1532 (+14) · Bashir 1468 (−14).`` under a rated game's result."""
        if not finished.ratings:
            return None
        listed = []
        for color in Color:
            s = side(row, color)
            if s.user_id not in finished.ratings or s.is_bot:
                continue
            before, after = finished.ratings[s.user_id]
            was = glicko.START_RATING if before is None else before.rating
            now = _rating(after)
            listed.append((s.name, now.shown, round(now.rating) - round(was)))
        return RATING_CHANGES(listed)

    async def rating(self, place: Place, user: User, viewer: int | None = None) -> Reply:
        """A player's rating on this server: rating, deviation, rated games, the best,
        and a picture of the rating over their games (in ``viewer``'s theme), then their
        puzzle record; for the bot, its levels' fixed ratings."""
        if user.id == self.bot_user.id:
            levels = [(level, round(level_rating(level).rating)) for level in LEVELS]
            return Reply(text=BOT_RATINGS(user.name, levels))
        stored = (await self.storage.ratings.of(place.guild_id, FAMILY, [user.id])).get(user.id)
        puzzles = await puzzle_record(self.storage, user.id)
        if stored is None:
            said = [NO_RATING_YET(user.name), *([puzzles] if puzzles else [])]
            return Reply(text=Said.join(said, "\n"))
        now = current(stored, self.now())
        best = None if stored.best is None else round(stored.best)
        lines = [
            RATING_HEADING(user.name),
            RATING_LINE(now.shown, round(now.deviation), stored.games, best),
        ]
        if now.provisional:
            lines.append(PROVISIONAL_NOTE())
        if puzzles is not None:
            lines.append(puzzles)
        history = await self.storage.ratings.history(place.guild_id, FAMILY, user.id)
        values = [glicko.START_RATING, *(rating for _, rating in history)]
        theme = await self._theme_of(viewer, place.guild_id)

        async def draw(reader: Reader) -> bytes:
            drawn: bytes = await self._run_picture(
                self._render_history, values, theme, reader.language
            )
            return drawn

        return Reply(
            text=Said.join(lines, "\n"),
            attachments=(Picture(renderer.RATING_FILENAME, draw),),
        )

    async def table(self, place: Place) -> Said:
        """The server's established ratings, highest first."""
        ranked = await self.storage.ratings.leaderboard(
            place.guild_id, FAMILY, glicko.PROVISIONAL_DEVIATION, TABLE_SIZE
        )
        return RATING_TABLE(
            [(name, round(stored.rating), stored.games) for _, name, stored in ranked]
        )


def _rating(stored: StoredRating) -> glicko.Rating:
    return glicko.Rating(stored.rating, stored.deviation, stored.volatility)


async def recompute(storage: Storage) -> list[RatingChange]:
    """Every rating again from the finished games, oldest first (the only way games
    finished before ratings existed are rated): ``python -m bot ratings recompute``."""

    def rerated(finished: Sequence[GameRow]) -> list[RatingChange]:
        return rerate([(row, outcome) for row in finished if (outcome := row_outcome(row))])

    return await storage.ratings.recompute(rerated)
