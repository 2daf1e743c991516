"""The service's parts, built once and wired together (:class:`ServiceParts`, the base of
:class:`bot.service.facade.ShaxService`), and the worker pools of the running bot
(:meth:`ServiceParts.open`)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Self

import renderer
from bot.config import DEFAULTS
from bot.service.bot_turns import ActionChooser, BotPlayer
from bot.service.challenges import Challenges
from bot.service.clock import ALL_SERVERS, INTERVAL, TurnClock, clock_name, everything
from bot.service.compose import BoardRenderer, Composer, ReplayRenderer, Themes
from bot.service.kernel import GameKernel, utcnow
from bot.service.puzzle_replies import PuzzleReplies
from bot.service.rating_replies import RatingReplies
from bot.service.replies import Offload, User
from bot.service.server_settings import ServerSettings, ServerSettingsBook
from bot.service.shown import ShownBoards
from bot.service.statistics import Statistics
from bot.service.teacher import Analyser, Teacher, ThreadAnalyser
from bot.service.turns import Turns
from bot.storage import Storage
from bot.storage.backup import DailyBackups
from bot.tournaments.service import Tournaments
from bot.tournaments.store import TournamentStore
from bot.workers.ai import AIPool
from bot.workers.pictures import PicturePool
from engine.analysis import REVIEW_DEPTH
from shax_i18n.codes import DEFAULT_LANGUAGE, language_code

if TYPE_CHECKING:
    from bot.config import Settings


class ServiceParts:
    """The parts of the service (the kernel, the composer, the bot player, challenges,
    turns, the clock, ratings, statistics, the teacher, shown boards, puzzles) over one
    storage, each handed the others it needs."""

    def __init__(
        self,
        storage: Storage,
        *,
        bot_user: User,
        ai: ActionChooser,
        clock: Callable[[], datetime] = utcnow,
        render_board: BoardRenderer | None = None,
        render_replay: ReplayRenderer | None = None,
        challenge_expiry: timedelta = DEFAULTS.challenge_expiry,
        turn_timeout: timedelta = DEFAULTS.turn_timeout,
        on_close: Callable[[], None] | None = None,
        run_board: Offload = asyncio.to_thread,
        run_replay: Offload = asyncio.to_thread,
        owns: Callable[[int | None], bool] = everything,
        clock_named: str = ALL_SERVERS,
        tick_every: timedelta = INTERVAL,
        default_theme: str = "dark",
        language: str = DEFAULT_LANGUAGE,
        analyser: Analyser | None = None,
        review_depth: int | None = None,
        game_threads: str = DEFAULTS.game_threads,
        puzzle_hour: int = DEFAULTS.puzzle_hour,
        backups: DailyBackups | None = None,
        puzzle_rng: random.Random | None = None,
    ) -> None:
        self.storage = storage
        self.backups = backups
        self.servers = ServerSettingsBook(
            storage,
            ServerSettings(
                turn_timeout=turn_timeout,
                challenge_expiry=challenge_expiry,
                threads=game_threads,
                theme=default_theme,
                language=language_code(language) or DEFAULT_LANGUAGE,
                puzzle_hour=puzzle_hour,
            ),
            now=clock,
        )
        self.bot_user = bot_user
        self.kernel = GameKernel(storage, now=clock, bot_user=bot_user)
        themes = Themes(storage, self.servers.theme)
        self.ratings = RatingReplies(
            storage, bot_user, now=clock, theme_of=themes.of, run_picture=run_board
        )
        if analyser is None:
            analyser = ai if isinstance(ai, AIPool) else ThreadAnalyser()
        self.teacher = Teacher(
            self.kernel,
            analyser,
            themes.of,
            run_picture=run_board,
            render_board=render_board or renderer.render_board,
            depth=REVIEW_DEPTH if review_depth is None else review_depth,
        )
        pictures: dict[str, BoardRenderer | ReplayRenderer] = {}
        if render_board is not None:
            pictures["render_board"] = render_board
        if render_replay is not None:
            pictures["render_replay"] = render_replay
        self.composer = Composer(
            self.kernel,
            themes,
            self.ratings,
            self.teacher.hints_summary,
            run_board=run_board,
            run_replay=run_replay,
            **pictures,
        )
        self.bots = BotPlayer(self.kernel, self.composer, ai)
        self.challenges = Challenges(
            self.kernel,
            self.composer,
            self.bots,
            servers=self.servers,
        )
        self.turns = Turns(self.kernel, self.composer, self.bots)
        events = TournamentStore(storage.runner)
        self.clock = TurnClock(
            self.kernel,
            self.composer,
            self.bots,
            servers=self.servers,
            owns=owns,
            name=clock_named,
            interval=tick_every,
            game_turns=events.game_turns,
        )
        self.statistics = Statistics(storage, bot_user, self.ratings)
        self.boards = ShownBoards(self.kernel, self.composer, self.bots, owns=owns)
        self.puzzles = PuzzleReplies.over(
            self.composer, self.servers, now=clock, owns=owns, rng=puzzle_rng
        )
        """Puzzles and the puzzle of the day (``/shax puzzle``)."""
        self.tournaments = Tournaments(
            events,
            self.kernel,
            self.composer,
            self.turns,
            owns=owns,
            run_picture=run_board,
        )
        """Swiss and arena tournaments (``/shax tournament``)."""
        self._on_close = on_close

    @classmethod
    async def open(
        cls,
        settings: Settings,
        *,
        bot_user: User,
        ai: ActionChooser | None = None,
        clock: Callable[[], datetime] = utcnow,
        default_theme: str = "dark",
    ) -> Self:
        """A service over ``settings.database`` (PostgreSQL, or the SQLite file) with an AI
        pool of ``settings.ai_workers`` unless ``ai`` is given, and worker processes for the
        pictures (``settings.picture_workers`` for boards, ``settings.replay_workers`` for
        replays; the pools are closed by :meth:`close`). ``default_theme`` is the theme
        of boards for players who chose none (dark on Discord, light in a terminal)."""
        storage = await Storage.open(settings.database)
        pool = AIPool(settings.ai_workers) if ai is None else None
        boards = PicturePool(settings.picture_workers)
        boards.start()  # every game needs boards: no first move waits for a worker
        replays = PicturePool(settings.replay_workers)  # apart: a replay takes ~100 boards' time

        def close_pools() -> None:
            if pool is not None:
                pool.shutdown()
            boards.shutdown()
            replays.shutdown()

        chooser: ActionChooser = ai if ai is not None else pool  # type: ignore[assignment]
        return cls(
            storage,
            bot_user=bot_user,
            ai=chooser,
            clock=clock,
            challenge_expiry=settings.challenge_expiry,
            turn_timeout=settings.turn_timeout,
            on_close=close_pools,
            run_board=boards.run,
            run_replay=replays.run,
            owns=settings.owns,
            clock_named=clock_name(settings.shards, settings.shard_ids),
            tick_every=timedelta(seconds=settings.tick_seconds),
            default_theme=default_theme,
            language=settings.language,
            game_threads=settings.game_threads,
            puzzle_hour=settings.puzzle_hour,
            backups=_daily_backups(settings, clock),
        )

    async def close(self) -> None:
        """Close the database (and the pools :meth:`open` created)."""
        await self.storage.close()
        if self._on_close is not None:
            self._on_close()


def _daily_backups(settings: Settings, clock: Callable[[], datetime]) -> DailyBackups | None:
    """Daily backups of the SQLite file, if ``SHAX_BACKUP_DIR`` asks for them (PostgreSQL
    is backed up with its own tools)."""
    if settings.backup_dir is None or settings.database_url is not None:
        return None
    return DailyBackups(settings.db_path, settings.backup_dir, settings.backup_keep, clock)
