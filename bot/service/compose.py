"""Composing replies: the live board with its picture, its words and its controls.

Every board the service shows is built by :meth:`Composer.board_reply`: the picture
(drawn away from the event loop), the actions in words, whose turn it is (mentioned),
the legal actions as controls; at the end the result, the streak change and the replay.
What it says is data (:class:`~bot.service.replies.Said`); the sentences are in
:mod:`bot.words`, spoken by the adapter that shows the reply.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import renderer
from bot.service import messages
from bot.service.kernel import GameKernel, row_outcome, series_key, side, side_of
from bot.service.replies import (
    BOARD_FILENAME,
    RULES_FILENAME,
    BoardControls,
    Choice,
    Offload,
    Picture,
    Reader,
    Reply,
    Result,
    Said,
    Saying,
    User,
)
from bot.service.streaks import Series, Tally
from bot.storage import Finished, GameRow, Storage
from engine import Color, Kind, Outcome, Position, Step, Termination, Variant
from shax_i18n.codes import language_code

if TYPE_CHECKING:
    from bot.service.rating_replies import RatingReplies

BoardRenderer = Callable[[str, list[str], Any], bytes]
"""``renderer.render_board(variant, record, view) -> PNG bytes``."""
ReplayRenderer = Callable[[str, list[str], Any], bytes]
"""``renderer.render_replay(variant, record, view) -> GIF bytes``."""
THEMES = ("dark", "light")
"""The looks a player can choose for the boards they ask for (``/shax theme``)."""
THEME_PREF = "theme"
"""The player preference (``storage.settings.player_prefs``) that holds a player's theme."""
LANGUAGE_PREF = "language"
"""The player preference ``/shax language`` sets."""

EVENTS: Saying[[Sequence[Said]]] = Saying("events_sentence")
"""The actions since the last board, each a sentence."""
RESULT_LINE: Saying[[Outcome, str, str]] = Saying("result_line")
"""How the game ended, naming white and black."""
STREAK_CHANGE: Saying[[str | None, Tally | None, str | None, Tally | None]] = Saying("change_text")
"""The winner's streak after and the loser's before (no names: a draw, streaks stand)."""
SERIES_HOLDER: Saying[[str, int]] = Saying("series_holder")
SERIES_STONES: Saying[[str, int]] = Saying("series_stones")
GOOD_GAME: Saying[[Sequence[User]]] = Saying("good_game")
THINKING: Saying[[str]] = Saying("thinking")
YOUR_TURN: Saying[[User, Color, Position]] = Saying("your_turn")
DRAW_OFFERED: Saying[[str]] = Saying("draw_offered")
RULES_TEXT: Saying[[Variant]] = Saying("rules_text")
RULES_CAPTION: Saying[[Variant]] = Saying("rules_caption")
CHOICE_DESCRIPTION: Saying[[Kind]] = Saying("choice_description")
STONE_DESTINATIONS: Saying[[Sequence[str]]] = Saying("stone_destinations")
CHOOSE_PLACEHOLDER: Saying[[Step]] = Saying("choose_placeholder")
PLAYER_NAME: Saying[[str]] = Saying("player_name")
"""A player's name as its reader reads it (the bot's in their words)."""


class Themes:
    """The theme of each player's boards: their own choice (``/shax theme``), else the one
    their server chose for its players who chose none (``/shax settings theme:``; outside
    servers, the operator's), which is the bot's own (dark on Discord, light in the
    console) unless changed."""

    def __init__(
        self, storage: Storage, server_theme: Callable[[int | None], Awaitable[str]]
    ) -> None:
        self._storage = storage
        self.server = server_theme
        """The theme of a server's players who chose none."""

    async def of(self, user_id: int | None, guild_id: int | None = None) -> str:
        """The theme ``user_id`` chose, else the one ``guild_id``'s server chose."""
        prefs = None if user_id is None else await self._storage.settings.player_prefs(user_id)
        return self.chosen(prefs, await self.server(guild_id))

    @staticmethod
    def chosen(prefs: dict[str, str] | None, default: str) -> str:
        """The theme chosen in a player's ``prefs``, else ``default``."""
        chosen = (prefs or {}).get(THEME_PREF)
        return chosen if chosen in THEMES else default


class Composer:
    """Builds the service's board replies and the rules' picture."""

    def __init__(
        self,
        kernel: GameKernel,
        themes: Themes,
        ratings: RatingReplies,
        summary_notes: Callable[[GameRow], Awaitable[Said | None]],
        *,
        render_board: BoardRenderer = renderer.render_board,
        render_replay: ReplayRenderer = renderer.render_replay,
        run_board: Offload = asyncio.to_thread,
        run_replay: Offload = asyncio.to_thread,
    ) -> None:
        self.kernel = kernel
        self.themes = themes
        self.ratings = ratings
        """The players' ratings on the picture and their change under a result."""
        self.summary_notes = summary_notes
        """Says more at the end of a game (the hints taken)."""
        self._render_board = render_board
        self._render_replay = render_replay
        self._run_board = run_board
        self._run_replay = run_replay
        self._rules_pictures: dict[tuple[str, str], bytes] = {}

    async def board_reply(
        self,
        row: GameRow,
        *,
        events: Sequence[Said] = (),
        intro: Said | None = None,
        finished: Finished | None = None,
        ping: tuple[int, ...] = (),
        viewer: int | None = None,
    ) -> Reply:
        """The live board: the picture, the actions in words, whose turn it is (mentioned),
        the controls; at the end the result, the streak change and the replay. The
        picture is in the theme of ``viewer``, the player who asked or clicked; the words
        and pictures speak the players' language (:attr:`Reply.players`)."""
        position = self.kernel.position(row)
        white, black = side(row, Color.WHITE), side(row, Color.BLACK)
        white_key = series_key(row, white)
        outcome = row_outcome(row)
        # Beside the board, in one trip: the series, the ratings, and the players' and the
        # viewer's choices (the picture's theme, the languages the reply is spoken in).
        readers = [s.user_id for s in (white, black) if not s.is_bot]
        rated = self.ratings.to_read(row, finished)
        beside = await self.kernel.storage.games.beside_board(
            row.guild_id,
            (white_key, series_key(row, black)),
            [*readers, *([] if viewer is None else [viewer])],
            rated,
        )
        series, prefs = beside.series, beside.prefs
        ratings = self.ratings.on_board(row, finished, beside.ratings)
        view = renderer.BoardView(
            white_name=white.name,
            black_name=black.name,
            white_rating=ratings[0],
            black_rating=ratings[1],
            series_color=_holder_color(series, white_key),
            series_stones=series.stones,
            outcome=outcome if outcome != position.outcome else None,
            theme=self.themes.chosen(
                prefs.get(viewer) if viewer is not None else None,
                await self.themes.server(row.guild_id),
            ),
        )
        parts = [intro] if intro is not None else []
        if events:
            parts.append(EVENTS(tuple(events)))
        mentions: list[int] = list(ping)
        board = self._picture(BOARD_FILENAME, self._run_board, self._render_board, row, view)
        attachments: tuple[Picture, ...] = (board,)
        result = None
        if outcome is not None:
            parts.append(RESULT_LINE(outcome, white.name, black.name))
            result = Result(
                RESULT_LINE(outcome, white.name, black.name),
                row.parent_channel_id,
            )
            if finished is not None and outcome.termination is not Termination.ABORTED:
                parts.append(_streak_change(row, outcome, finished))
                changes = self.ratings.changes(row, finished)
                if changes is not None:
                    parts.append(changes)
            holder = _holder_color(series, white_key)
            if holder is not None:
                parts.append(SERIES_HOLDER(side(row, holder).name, series.stones))
            note = await self.summary_notes(row)
            if note is not None:
                parts.append(note)
            people = [s for s in (white, black) if not s.is_bot]
            parts.append(GOOD_GAME([s.user for s in people]))
            mentions += [s.user_id for s in people]
            controls = BoardControls(row.id, row.version, rematch=True)
            replay = self._picture(
                renderer.REPLAY_FILENAME, self._run_replay, self._render_replay, row, view
            )
            attachments = (board, replay)
        else:
            on_turn = side(row, position.to_move)  # type: ignore[arg-type]
            if on_turn.is_bot:
                parts.append(THINKING(on_turn.name))
            else:
                parts.append(YOUR_TURN(on_turn.user, on_turn.color, position))
                mentions.append(on_turn.user_id)
            holder = _holder_color(series, white_key)
            if holder is not None:
                parts.append(SERIES_STONES(side(row, holder).name, series.stones))
            if row.draw_offered_by is not None and intro is None:
                offerer = side_of(row, row.draw_offered_by)
                if offerer is not None:
                    parts.append(DRAW_OFFERED(offerer.name))
            controls = board_controls(row, position)
        return Reply(
            text=Said.join(parts),
            attachments=attachments,
            controls=controls,
            game_id=row.id,
            version=row.version,
            live_board=True,
            board_message_id=row.board_message_id,
            mentions=tuple(dict.fromkeys(mentions)),
            result=result,
            players=(row.white_id, row.black_id),
            chosen=tuple((u, language_code(p.get(LANGUAGE_PREF))) for u, p in prefs.items()),
        )

    def _picture(
        self,
        filename: str,
        run: Offload,
        render: BoardRenderer | ReplayRenderer,
        row: GameRow,
        view: renderer.BoardView,
    ) -> Picture:
        """A picture of the game, drawn in the language of whoever reads its message."""
        record = list(row.record)

        async def draw(reader: Reader) -> bytes:
            drawn: bytes = await run(render, row.variant, record, as_read(view, reader))
            return drawn

        return Picture(filename, draw)

    def position_picture(
        self,
        variant: str,
        record: Sequence[str],
        view: renderer.BoardView,
        caption: Said | None = None,
    ) -> Picture:
        """The board at the end of ``record`` (its last action marked), with ``caption``
        under it, drawn in the language of whoever reads its message."""
        return board_picture(
            BOARD_FILENAME, self._run_board, self._render_board, variant, record, view, caption
        )

    async def rules(self, variant: Variant) -> Reply:
        """The rules in short, with a picture of the empty board and its point names (kept
        once drawn in a language)."""

        async def draw(reader: Reader) -> bytes:
            key = (variant.id, reader.language)
            png = self._rules_pictures.get(key)
            if png is None:
                view = renderer.BoardView(
                    caption=reader.say(RULES_CAPTION(variant)),
                    language=reader.language,
                    point_names=True,
                )
                png = await self._run_board(self._render_board, variant.id, [], view)
                self._rules_pictures[key] = png
            return png

        return Reply(text=RULES_TEXT(variant), attachments=(Picture(RULES_FILENAME, draw),))


def board_controls(row: GameRow, position: Position) -> BoardControls:
    """Every legal action, and for a move the movable stones with their destinations."""
    v = position.variant
    legal = position.legal_actions()
    actions = tuple(
        Choice(label=n, value=n, description=CHOICE_DESCRIPTION(a.kind))
        for n, a in sorted((a.notation(v), a) for a in legal)
    )
    sources: dict[str, list[str]] = {}
    for a in legal:
        if a.kind is Kind.MOVE:
            sources.setdefault(v.points[a.src], []).append(v.points[a.dst])
    stones = tuple(
        Choice(label=src, value=src, description=STONE_DESTINATIONS(sorted(dsts)))
        for src, dsts in sorted(sources.items())
    )
    return BoardControls(
        game_id=row.id,
        version=row.version,
        actions=actions,
        stones=stones,
        can_offer_draw=row.ai_level is None,
        draw_offered_by=row.draw_offered_by,
        placeholder=CHOOSE_PLACEHOLDER(position.step),
        stones_placeholder=Said.message(messages.CHOOSE_STONE),
    )


def _holder_color(series: Series, white_key: str) -> Color | None:
    if series.holder is None or not series.stones:
        return None
    return Color.WHITE if series.holder == white_key else Color.BLACK


def _streak_change(row: GameRow, outcome: Outcome, finished: Finished) -> Said:
    if outcome.winner is None:
        return STREAK_CHANGE(None, None, None, None)
    winner = side(row, outcome.winner)
    loser = side(row, outcome.winner.other)
    winner_after = finished.tallies.get(winner.user_id, (None, None))[1]
    loser_before = finished.tallies.get(loser.user_id, (None, None))[0]
    return STREAK_CHANGE(
        winner.name,
        None if winner.is_bot else winner_after,
        loser.name,
        None if loser.is_bot else loser_before,
    )


def board_picture(
    filename: str,
    run: Offload,
    render: BoardRenderer,
    variant: str,
    record: Sequence[str],
    view: renderer.BoardView,
    caption: Said | None = None,
) -> Picture:
    """The board at the end of ``record``, with ``caption`` under it, drawn by ``render``
    (run by ``run``) in the language of whoever reads its message (the caption too)."""
    actions = list(record)

    async def draw(reader: Reader) -> bytes:
        words = None if caption is None else reader.say(caption)
        drawn: bytes = await run(render, variant, actions, as_read(view, reader, caption=words))
        return drawn

    return Picture(filename, draw)


def as_read(
    view: renderer.BoardView, reader: Reader, caption: str | None = None
) -> renderer.BoardView:
    """``view`` drawn for one reader: in their language, each player named as they read
    the name (the bot's in their words: :class:`~bot.service.replies.BotName`), with
    ``caption`` if one is given."""
    return replace(
        view,
        language=reader.language,
        white_name=read_name(reader, view.white_name),
        black_name=read_name(reader, view.black_name),
        caption=view.caption if caption is None else caption,
    )


def read_name(reader: Reader, name: str) -> str:
    """A player's name as ``reader`` reads it (a bot's in their language)."""
    return reader.say(PLAYER_NAME(name))
