"""The clock: challenges expire, turns time out (a warning first, then a forfeit, or an
abort for a side that never moved), and the bot moves in games that were waiting for it
(after a restart).

Time counts only while the bot could have taken the move. The clock stores when it last
ran (:mod:`bot.storage.clock_store`). A process that has just started, whose last run
failed (its database was down), or whose adapter found Discord out of reach
(:meth:`TurnClock.stood_still`) looks at that stored run first; when it was long ago,
every waiting turn gets the time back, and its players are told once, in their game,
that their time starts again now. While the process runs on, a slow run (notices slow to
show) is never taken for an absence. A turn is never forfeited straight after a start:
the warning comes first, with the warning's time to play. A tournament's game has the
tournament's own turn time, and running out of time before a first move loses it (it is
never aborted): :func:`aborts`, the one place of that rule.

The adapter calls :meth:`TurnClock.tick` every ``interval`` and shows the notices it
returns. With several bot processes (shards), each runs the clock only for the servers
of its own shards (``owns``), under its own name (the shards it runs), so every expiry,
warning and forfeit happens in one process, and each process's downtime is given back to
its own servers' games; the stored versions make it happen once even if two processes
ever overlap, and the time is given back in one transaction that checks the clock's last
run, so two processes of one clock never give it twice. Only games the clock may concern
are read (bot games, and turns past the warning time), and the event loop gets a turn
between games.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from bot.service.bot_turns import BotPlayer
from bot.service.compose import Composer
from bot.service.kernel import GameKernel, Side, names, side
from bot.service.ratings import acted
from bot.service.replies import Notice, Reply, Said, Saying, User
from bot.service.server_settings import ServerSettingsBook
from bot.storage import GameRow
from engine import Outcome, Termination

log = logging.getLogger(__name__)

WARN_BEFORE = timedelta(hours=1)
"""The turn-timeout warning comes this long before the forfeit (or at half time, if sooner)."""
INTERVAL = timedelta(seconds=30)
"""How often the adapter runs the clock unless told otherwise (``SHAX_TICK_SECONDS``)."""
AWAY_SLACK = timedelta(seconds=5)
"""Beyond three intervals, how long the clock may go without a run (a slow tick, a busy
moment) before the bot counts as having been away."""
ALL_SERVERS = "all"
"""The name of the clock of a lone process, which runs for every server."""

CHALLENGE_EXPIRED: Saying[[str, str]] = Saying("challenge_expired")
"""The challenger's and the opponent's names."""
TURN_WARNING: Saying[[User, int, str, str, float, bool]] = Saying("turn_warning")
"""The player on turn, the game (its id, white's and black's names), the seconds left, and
whether it is their first move (the game is then aborted, not lost)."""
CLOCK_RESUMED: Saying[[User, int, str, str, float, float]] = Saying("clock_resumed")
"""The player on turn, the game (its id, white's and black's names), the seconds the bot
was away and the seconds left."""

TimeoutOf = Callable[[GameRow], timedelta]
"""A game's turn timeout: its own (a tournament's), else its server's."""
GameTurns = Callable[[], Awaitable[Mapping[int, timedelta]]]
"""The games with a turn time of their own (a tournament's games), by id, read each run."""


async def no_own_turns() -> Mapping[int, timedelta]:
    """No game has a turn time of its own."""
    return {}


def warn_after(timeout: timedelta) -> timedelta:
    """How long into a turn the timeout warning comes."""
    return timeout - min(timeout / 2, WARN_BEFORE)


def away_after(interval: timedelta) -> timedelta:
    """How long without a run of the clock means that the bot was away."""
    return 3 * interval + AWAY_SLACK


def clock_name(shards: int | None, shard_ids: Sequence[int] | None) -> str:
    """The name a process's clock is stored under: the shards it runs (``"0,1 of 4"``),
    or :data:`ALL_SERVERS`."""
    if shards is None or shard_ids is None:
        return ALL_SERVERS
    return f"{','.join(map(str, sorted(shard_ids)))} of {shards}"


def everything(guild_id: int | None) -> bool:
    """The clock of a lone process runs for every server."""
    return True


def aborts(row: GameRow, on_turn: Side, in_tournament: bool) -> bool:
    """Whether the side on turn running out of time aborts the game rather than loses it:
    it has not made its first action yet, and the game is not a tournament's (a
    tournament game must be played: it is lost, as lichess counts it)."""
    return not in_tournament and on_turn.color not in acted(row.variant, row.record)


class TurnClock:
    """Challenge expiry and turn timeouts."""

    def __init__(
        self,
        kernel: GameKernel,
        composer: Composer,
        bots: BotPlayer,
        *,
        servers: ServerSettingsBook,
        owns: Callable[[int | None], bool] = everything,
        name: str = ALL_SERVERS,
        interval: timedelta = INTERVAL,
        game_turns: GameTurns = no_own_turns,
    ) -> None:
        self.kernel = kernel
        self.game_turns = game_turns
        self.composer = composer
        self.bots = bots
        self.servers = servers
        self.owns = owns
        self.name = name
        self.interval = interval
        self._running_on = False
        """Whether this process's last run of the clock was whole and it has run on since
        (not at the start, after a failed run, nor while Discord is out of reach)."""

    @property
    def turn_timeout(self) -> timedelta:
        """The turn timeout of servers that did not choose their own."""
        return self.servers.defaults.turn_timeout

    async def tick(self) -> list[Notice]:
        """Give back the time the bot was away, expire challenges, warn on and then forfeit
        turn timeouts, and let the bot move in bot games that were waiting for it."""
        storage = self.kernel.storage
        now = self.kernel.now()
        ran_on, self._running_on = self._running_on, False  # again once this run ends
        timeouts = await self.servers.turn_timeouts()
        own = await self.game_turns()

        def timeout_of(row: GameRow) -> timedelta:
            return own.get(row.id) or timeouts.get(row.guild_id or 0, self.turn_timeout)

        notices = [] if ran_on else await self._resume(now, timeout_of)
        for c in await storage.challenges.due_challenges(now):
            if not self.owns(c.guild_id):
                continue
            if await storage.challenges.resolve_challenge(c.id, "expired", now):
                text = CHALLENGE_EXPIRED(c.challenger_name, c.opponent_name)
                players = (c.challenger_id, c.opponent_id)
                reply = Reply(text=text, challenge_id=c.id, players=players)
                notices.append(Notice(c.channel_id, reply, c.message_id, c.guild_id))
        shortest = min((self.turn_timeout, *timeouts.values(), *own.values()))
        for row in await storage.games.active_games(turn_started_by=now - warn_after(shortest)):
            if not self.owns(row.guild_id):
                continue
            try:
                notice = await self._tick_game(row, now, timeout_of(row), row.id in own)
            except Exception:  # one broken game must not stop the others' clocks
                log.exception("tick failed for game %s", row.id)
                continue
            finally:
                await asyncio.sleep(0)
            if notice is not None:
                notices.append(replace(notice, guild_id=row.guild_id))
        await storage.clock.ran(self.name, self.kernel.now())  # a long run: the bot was here
        self._running_on = True
        return notices

    def stood_still(self) -> None:
        """Discord cannot reach the bot, so no move can come: the clock does not run, and
        its next run gives the waiting turns this time back."""
        self._running_on = False

    async def _resume(self, now: datetime, timeout_of: TimeoutOf) -> list[Notice]:
        """After the bot was away (no run of this clock for a while), give every waiting
        turn the time back, and say so in each game."""
        storage = self.kernel.storage
        last = await storage.clock.last_ran(self.name)
        if last is None or now - last <= away_after(self.interval):
            return []

        def give(row: GameRow) -> tuple[datetime, bool] | None:
            """A waiting turn counts again from where it was when the bot went away (at
            most from its warning, which is said again now with the time left)."""
            if not self.owns(row.guild_id):
                return None
            timeout = timeout_of(row)
            used = min(max(last - row.turn_started_at, timedelta(0)), warn_after(timeout))
            return now - used, used >= warn_after(timeout)

        given = await storage.clock.give_time_back(self.name, last, now, give)
        if given is None:  # another process of this clock gave it back
            return []
        log.info("The clock was away for %s; %d turns get the time back", now - last, len(given))
        notices = []
        for row in given:
            await asyncio.sleep(0)  # a replay each: the event loop gets a turn between
            position = self.kernel.position(row)
            if position.to_move is None:
                continue
            on_turn = side(row, position.to_move)
            if on_turn.is_bot:
                continue
            left = timeout_of(row) - (now - row.turn_started_at)
            text = CLOCK_RESUMED(
                on_turn.user,
                row.id,
                *names(row),
                (now - last).total_seconds(),
                left.total_seconds(),
            )
            reply = self._clock_reply(row, text, on_turn)
            notices.append(Notice(row.channel_id, reply, None, row.guild_id))
        return notices

    @staticmethod
    def _clock_reply(row: GameRow, text: Said, on_turn: Side) -> Reply:
        """A message of the clock in a game, pinging the player on turn."""
        return Reply(
            text=text,
            game_id=row.id,
            version=row.version,
            mentions=(on_turn.user_id,),
            players=(row.white_id, row.black_id),
        )

    async def _tick_game(
        self, row: GameRow, now: datetime, timeout: timedelta, in_tournament: bool
    ) -> Notice | None:
        k = self.kernel
        position = k.position(row)
        on_turn = side(row, position.to_move) if position.to_move else None
        if on_turn is None:
            return None
        if on_turn.is_bot:
            if self.bots.is_thinking(row.id):
                return None
            row, events, finished = await self.bots.play_turns(row)
            if not events:
                return None
            reply = await self.composer.board_reply(row, events=events, finished=finished)
            return Notice(row.channel_id, reply, row.board_message_id)
        elapsed = now - row.turn_started_at
        if elapsed >= timeout and row.warned:
            async with k.lock(row.id):
                fresh = await k.game(row.id)
                if fresh.version != row.version or now - fresh.turn_started_at < timeout:
                    return None
                if aborts(fresh, on_turn, in_tournament):
                    outcome = Outcome(None, Termination.ABORTED)
                else:
                    outcome = Outcome(on_turn.color.other, Termination.TIMEOUT)
                finished = await k.finish(fresh, fresh.record, outcome)
            reply = await self.composer.board_reply(finished.game, finished=finished)
            return Notice(row.channel_id, reply, row.board_message_id)
        if elapsed >= warn_after(timeout) and not row.warned:
            # The warning gives the warning's whole time from when it is said: the clock
            # sees its moment a little late, and a turn it finds past its time unwarned
            # (it ran too seldom) is never forfeited straight away.
            elapsed = warn_after(timeout)
            if not await k.storage.clock.warn_late(row.id, row.version, now - elapsed):
                return None
            left = (timeout - elapsed).total_seconds()
            first = aborts(row, on_turn, in_tournament)
            text = TURN_WARNING(on_turn.user, row.id, *names(row), left, first)
            return Notice(row.channel_id, self._clock_reply(row, text, on_turn), None)
        return None
