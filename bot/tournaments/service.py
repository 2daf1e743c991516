"""The tournaments of a server: ``/shax tournament create``, ``join``, ``leave``, ``start``,
``standings`` and ``cancel``, the tick that runs them, and the games they open.

One tournament at a time per channel (a unique index): a command finds the one of its
channel, or, in a thread (a game's), of the thread's channel. Every change is a step
(:meth:`Tournaments._step`): a rule of :mod:`bot.tournaments.rules` decides it from the
tournament as read, in a thread, and the store writes it in one transaction holding the
tournament's lock only if nothing changed meanwhile; what it says is typed
(:mod:`bot.tournaments.notices`). Games are ordinary games, rated as
usual, with the tournament's turn time (:mod:`bot.service.clock` asks the store which
games are a tournament's): the adapter opens a place for each pairing the tick hands it
(:class:`PairingToOpen`) and calls :meth:`Tournaments.open_game`. The tick reads each
ended game's result from the game itself, so an end by any way (a move, a resignation, a
draw, the clock) counts once, also after a restart; and with several bot processes only
the one that owns a tournament's server runs it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TypeVar

from bot.service.compose import Composer
from bot.service.kernel import GameKernel, parse_variant
from bot.service.ratings import family_of
from bot.service.replies import Notice, Offload, Place, Reply, User, UserError
from bot.service.said import Said
from bot.service.server_settings import parse_duration
from bot.service.turns import Turns
from bot.storage import ChannelTaken, NewGame
from bot.tournaments import notices, rules
from bot.tournaments.notices import OpenedGame, PairingToOpen
from bot.tournaments.rows import (
    Changes,
    Event,
    Format,
    NewTournament,
    PairingRow,
    Status,
    TournamentRow,
)
from bot.tournaments.standings import standing_lines, standings_reply
from bot.tournaments.store import TournamentStore

log = logging.getLogger(__name__)
R = TypeVar("R")

ROUNDS = (1, 15, 3)
"""A Swiss's rounds: the fewest, the most, and the default."""
MINUTES = (5, 720, 30)
"""An arena's minutes: the fewest, the most, and the default."""
TURN = (timedelta(seconds=30), timedelta(hours=1), timedelta(minutes=5))
"""The time a move may take in a tournament game: the shortest, longest, and default."""
PAUSE = (timedelta(0), timedelta(hours=1), timedelta(0))
"""A Swiss's pause between rounds (none unless asked for)."""
START = (timedelta(minutes=1), timedelta(days=7))
"""A timed start's distance from now."""
PODIUM_PLACES = 3
REMIND_BEFORE = timedelta(minutes=5)
"""A timed start is announced again this long before it (if it is further than this)."""

Tick = list[Notice | PairingToOpen]


def _whole(name: str, text: str | None, bounds: tuple[int, int, int]) -> int:
    low, high, default = bounds
    if text is None or not text.strip():
        return default
    try:
        value = int(text.strip())
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise UserError(notices.NOT_A_NUMBER(name, text, low, high))
    return value


def _length(name: str, text: str | None, low: timedelta, high: timedelta) -> timedelta | None:
    if text is None or not text.strip():
        return None
    try:
        value = timedelta(0) if text.strip() in ("0", "none") else parse_duration(text)
    except UserError:
        value = timedelta(-1)
    if not low <= value <= high:
        raise UserError(notices.NOT_A_LENGTH(name, text, low.total_seconds(), high.total_seconds()))
    return value


class Tournaments:
    """Swiss and arena tournaments, played as ordinary games."""

    def __init__(
        self,
        store: TournamentStore,
        kernel: GameKernel,
        composer: Composer,
        turns: Turns,
        *,
        owns: Callable[[int | None], bool],
        run_picture: Offload = asyncio.to_thread,
    ) -> None:
        self.store = store
        self.run_picture = run_picture
        self.kernel = kernel
        self.composer = composer
        self.turns = turns
        self.owns = owns
        self.due = kernel.ended
        """Set when a tournament may have work now (a start, a join, a leave, any game's
        end): an adapter may run :meth:`tick` at once instead of waiting for the clock."""
        self._resigned: list[Notice] = []
        """The final boards of games lost by leaving, said on the next tick."""

    # -- finding -------------------------------------------------------------------------

    async def here(self, place: Place) -> TournamentRow:
        """The tournament open or playing in ``place``'s channel (or the thread's)."""
        for channel in (place.channel_id, place.parent_channel_id):
            if channel is not None and (found := await self.store.running_in(channel)):
                return found
        raise UserError(notices.NO_TOURNAMENT_HERE())

    async def _step(self, t: TournamentRow, rule: Callable[[Event], tuple[Changes, R]]) -> R:
        """One step of ``t`` (see :meth:`_decide`): what its rule said."""
        return (await self._decide(t, rule))[0]

    async def _decide(
        self, t: TournamentRow, rule: Callable[[Event], tuple[Changes, R]]
    ) -> tuple[R, Event | None]:
        """One step of ``t``: its rule decides from the tournament as it is (in a thread: a
        large Swiss's pairing takes a while), and the store writes the changes if nothing
        changed meanwhile, else it is decided again. A refusal changes nothing. What the
        rule said, and the tournament as read when the step wrote nothing (else ``None``)."""
        while True:
            event = await self.store.event(t.id)
            if event is None:
                raise UserError(notices.NO_TOURNAMENT_HERE())
            changes, said = await asyncio.to_thread(rule, event)
            if changes.none_to(event):
                return said, event
            if await self.store.apply(event, changes, self.kernel.now()):
                return said, None

    # -- the commands --------------------------------------------------------------------

    async def create(
        self,
        user: User,
        place: Place,
        *,
        format: str = "swiss",
        variant: str = "shax",
        rounds: str | None = None,
        minutes: str | None = None,
        turn: str | None = None,
        pause: str | None = None,
        start: str | None = None,
    ) -> Reply:
        """A new tournament in ``place``'s channel, the creator its first player."""
        try:
            kind = Format(format.strip().lower())
        except ValueError:
            raise UserError(notices.UNKNOWN_FORMAT(format)) from None
        board = parse_variant(variant)
        swiss = kind is Format.SWISS
        now = self.kernel.now()
        starts = _length("start", start, *START)
        new = NewTournament(
            guild_id=place.guild_id,
            channel_id=place.channel_id,
            format=kind,
            variant=board.id,
            rounds=_whole("rounds", rounds, ROUNDS) if swiss else 0,
            minutes=0 if swiss else _whole("minutes", minutes, MINUTES),
            turn=_length("turn", turn, *TURN[:2]) or TURN[2],
            pause=(_length("pause", pause, *PAUSE[:2]) or PAUSE[2]) if swiss else timedelta(0),
            creator_id=user.id,
            creator_name=user.name,
            starts_at=None if starts is None else now + starts,
            reminded=starts is not None and starts <= REMIND_BEFORE,  # the opening says it
        )
        made = await self.store.create(new, now)
        if made is None:
            raise UserError(notices.TOURNAMENT_HERE_ALREADY())
        seed = await self._seed(made, user)
        await self._step(made, lambda e: rules.join(user.id, user.name, seed, now, e))
        size = new.rounds if swiss else new.minutes
        text = notices.CREATED(
            user,
            kind,
            board,
            size,
            new.turn.total_seconds(),
            None if starts is None else starts.total_seconds(),
        )
        return Reply(text=text, announcement=True)

    async def join(self, user: User, place: Place, tournament_id: int | None = None) -> Reply:
        """Join the channel's tournament (``tournament_id``: the one a Join button was
        under, refused once it is over)."""
        t = await self.here(place)
        if tournament_id is not None and tournament_id != t.id:
            raise UserError(notices.JOIN_ENDED())
        seed = await self._seed(t, user)
        now = self.kernel.now()
        happened = await self._step(t, lambda e: rules.join(user.id, user.name, seed, now, e))
        self.due.set()  # an arena pairs a player who joins late at once
        return Reply(text=notices.JOINED(user, happened.count), announcement=True)

    async def leave(self, user: User, place: Place) -> Reply:
        t = await self.here(place)
        now = self.kernel.now()
        happened = await self._step(t, lambda e: rules.leave(user.id, now, e))
        if happened.game_to_resign is not None:
            await self._resign(user, happened.game_to_resign)
        self.due.set()
        if happened.withdrawn:
            text = notices.WITHDRAWN(user, happened.forfeited)
        elif happened.paused:
            text = notices.PAUSED(user)
        else:
            text = notices.LEFT_BEFORE_START(user, happened.count)
        return Reply(text=text, announcement=True)

    async def start(self, user: User, place: Place, *, may_manage: bool) -> Reply:
        """Begin now (its creator, or a member with Manage Server)."""
        t = await self.here(place)
        if user.id != t.creator_id and not may_manage:
            raise UserError(notices.ONLY_CREATOR_STARTS(t.creator_name))
        now = self.kernel.now()
        await self._step(t, lambda e: rules.start(now, e))
        self.due.set()
        return await self._begun(t.id)

    async def cancel(self, user: User, place: Place, *, may_manage: bool) -> Reply:
        t = await self.here(place)
        if user.id != t.creator_id and not may_manage:
            raise UserError(notices.ONLY_CREATOR_CANCELS(t.creator_name))
        now = self.kernel.now()
        await self._step(t, lambda e: rules.cancel(now, e))
        return Reply(text=notices.CANCELLED(user), announcement=True)

    async def standings(self, place: Place) -> Reply:
        """The standings of the channel's tournament (its last one, once it is over)."""
        found = None
        for channel in (place.channel_id, place.parent_channel_id):
            if channel is not None and (found := await self.store.last_in(channel)):
                break
        event = None if found is None else await self.store.event(found.id)
        if event is None:
            raise UserError(notices.NO_TOURNAMENT_HERE())
        return standings_reply(event, self.run_picture)

    # -- the games -----------------------------------------------------------------------

    async def open_game(self, pairing_id: int, place: Place) -> OpenedGame:
        """The pairing's ordinary game, made in ``place`` once (see :class:`OpenedGame`)."""

        def new(pairing: PairingRow, t: TournamentRow, names: dict[int, str]) -> NewGame:
            assert pairing.black_id is not None  # a bye has no game
            return NewGame(
                guild_id=place.guild_id,
                channel_id=place.channel_id,
                parent_channel_id=place.parent_channel_id,
                variant=t.variant,
                white_id=pairing.white_id,
                white_name=names[pairing.white_id],
                black_id=pairing.black_id,
                black_name=names[pairing.black_id],
            )

        try:
            row, made, pairing, t = await self.store.open_game(pairing_id, new, self.kernel.now())
        except ChannelTaken:
            busy = await self.kernel.storage.games.active_game_in_channel(place.channel_id)
            raise self.kernel.busy(place, busy) from None
        except LookupError:
            raise UserError(notices.NO_TOURNAMENT_HERE()) from None
        white, black = User(row.white_id, row.white_name), User(row.black_id, row.black_name)
        intro = notices.GAME_INTRO(pairing.round if t.swiss else None, white, black)
        reply = await self.composer.board_reply(row, intro=intro)
        reply = replace(reply, mentions=(row.white_id, row.black_id))
        return OpenedGame(reply, Place(row.guild_id, row.channel_id, row.parent_channel_id), made)

    # -- the tick ------------------------------------------------------------------------

    async def tick(self) -> Tick:
        """Run every tournament of this process's servers: remind of and make timed
        starts, record the games that ended, pair what is due, end what is over; and hand
        the adapter each pairing whose game has no place yet (:class:`PairingToOpen`)."""
        self.due.clear()
        out: Tick = list(self._resigned)
        self._resigned.clear()
        for t in await self.store.running():
            if not self.owns(t.guild_id):
                continue
            try:
                out += await self._tick(t)
            except Exception:  # one broken tournament must not stop the others
                log.exception("tick failed for tournament %s", t.id)
            await asyncio.sleep(0)
        return out

    async def _tick(self, t: TournamentRow) -> Tick:
        now = self.kernel.now()
        out: Tick = []
        if t.status is Status.OPEN and t.starts_at is not None:
            if not t.reminded and t.starts_at - REMIND_BEFORE <= now < t.starts_at:
                h = await self._step(t, rules.remind)
                if h.count:
                    left = (t.starts_at - now).total_seconds()
                    out.append(self._notice(t, Reply(text=notices.REMINDER(left, h.count))))
            if now >= t.starts_at:
                h = await self._step(t, lambda e: rules.timed_start(now, e))
                if h.cancelled:
                    text = notices.CANCELLED_TOO_FEW(h.count)
                    return [*out, self._notice(t, Reply(text=text))]
                if h.started:
                    out.append(self._notice(t, await self._begun(t.id)))
        if t.status is Status.PLAYING or out:
            out += await self._advance(t, now)
        return out

    async def _advance(self, t: TournamentRow, now: datetime) -> Tick:
        happened, unchanged = await self._decide(t, lambda e: rules.advance(now, e))
        event = unchanged or await self.store.event(t.id)
        assert event is not None  # tournaments are never deleted
        out: Tick = []
        if happened.standings_after is not None or (happened.finished and not t.swiss):
            reply = standings_reply(event, self.run_picture)
            if happened.next_round_at is not None:
                wait = (happened.next_round_at - now).total_seconds()
                later = notices.NEXT_ROUND_IN(event.tournament.round + 1, wait)
                reply = replace(reply, text=Said.join((reply.text, later), "\n"))
            out.append(self._notice(t, reply))
        if happened.paired is not None and t.swiss:
            out.append(self._notice(t, self._round(event, happened.paired)))
        if happened.finished:
            podium = notices.PODIUM(standing_lines(event)[:PODIUM_PLACES])
            out.append(self._notice(t, Reply(text=podium)))
        return out + self._to_open(event)

    def _to_open(self, event: Event) -> list[Notice | PairingToOpen]:
        t = event.tournament
        users = {p.user_id: User(p.user_id, p.name) for p in event.players}
        wanted: list[Notice | PairingToOpen] = []
        for p in event.pairings:
            if p.done or p.game_id is not None or p.black_id is None:
                continue
            white, black = users[p.white_id], users[p.black_id]
            number = p.round if t.swiss else None
            name = notices.PAIRING_NAME(number, white.name, black.name)
            wanted.append(
                PairingToOpen(
                    p.id, t.id, t.guild_id, t.channel_id, number, (white, black), name, t.creator_id
                )
            )
        return wanted

    async def _begun(self, tournament_id: int) -> Reply:
        """The start's announcement: a Swiss's first round, or an arena's first games."""
        event = await self.store.event(tournament_id)
        assert event is not None
        t = event.tournament
        if t.swiss:
            return self._round(event, 1)
        users = {p.user_id: User(p.user_id, p.name) for p in event.players}
        pairs = [(users[p.white_id], users[p.black_id]) for p in event.pairings if p.black_id]
        paired = {u.id for pair in pairs for u in pair}
        waiting = next((u for u in users.values() if u.id not in paired), None)
        mentions = tuple(sorted(paired))
        text = notices.ARENA_STARTED(t.minutes, pairs, waiting)
        return Reply(text=text, mentions=mentions, announcement=True)

    @staticmethod
    def _round(event: Event, number: int) -> Reply:
        """A Swiss round's pairings, pinging its players."""
        users = {p.user_id: User(p.user_id, p.name) for p in event.players}
        pairs, bye = [], None
        for p in event.of_round(number):
            if p.black_id is None:
                bye = users[p.white_id]
            else:
                pairs.append((users[p.white_id], users[p.black_id]))
        text = notices.ROUND_PAIRED(number, event.tournament.rounds, pairs, bye)
        mentions = tuple(sorted({u.id for pair in pairs for u in pair}))
        return Reply(text=text, mentions=mentions, announcement=True)

    @staticmethod
    def _notice(t: TournamentRow, reply: Reply) -> Notice:
        return Notice(t.channel_id, reply, guild_id=t.guild_id)

    async def playing_at(self, user: User) -> int | None:
        """The channel of the tournament game ``user`` plays now, if any (the console's
        ``/as NAME`` goes there)."""
        return await self.store.playing_at(user.id)

    async def _resign(self, user: User, game_id: int) -> None:
        try:
            row = await self.kernel.game(game_id)
            reply = await self.turns.resign(user, Place(row.guild_id, row.channel_id), game_id)
        except UserError:
            return  # it ended meanwhile: its own result stands
        self._resigned.append(Notice(row.channel_id, reply, row.board_message_id, row.guild_id))

    async def _seed(self, t: TournamentRow, user: User) -> float:
        """A player's seed: their rating on the tournament's board family (0 if none)."""
        family = family_of(t.variant)
        if family is None:
            return 0.0
        found = await self.kernel.storage.ratings.of(t.guild_id, family, [user.id])
        return found[user.id].rating if user.id in found else 0.0
