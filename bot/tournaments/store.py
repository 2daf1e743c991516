"""Tournaments in the database: every statement of the tournament tables, over the
storage's one statement runner.

What two people (or two bot processes) can do at once rests on one rule: every change to a
tournament is decided from the tournament read whole (:class:`~bot.tournaments.rows.Event`,
its pairings' games among it) and written by :meth:`TournamentStore.apply` in one
transaction holding the tournament's lock, only if the tournament is still as it was read
(the service decides again otherwise). Two joins, two starts or two results at the same
moment are two such steps, one after the other: the second sees what the first wrote, so a
round is paired once; and the pairing itself is computed off the transaction. A pairing's
game is made in the transaction that records it (:meth:`TournamentStore.open_game`), so it
gets one game.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import Connection, and_, bindparam, or_, select, update

from bot.storage.base import ChannelTaken
from bot.storage.rows import GameRow, GameStatus, NewGame, game_row
from bot.storage.runner import Runner, rows_of
from bot.storage.statements import insert_game
from bot.storage.tables import games
from bot.storage.tournament_tables import tournament_pairings, tournament_players, tournaments
from bot.tournaments.rows import (
    RUNNING,
    Changes,
    Event,
    NewTournament,
    Outcome,
    PairingRow,
    TournamentRow,
    pairing_row,
    player_row,
    tournament_row,
)

MakeGame = Callable[[PairingRow, TournamentRow, dict[int, str]], NewGame]
"""How a pairing's game is made: from the pairing, its tournament, the players' names."""
T, P, G = tournaments.c, tournament_players.c, tournament_pairings.c

TOURNAMENT = select(tournaments).where(T.id == bindparam("tid"))
RUNNING_IN = select(tournaments).where(
    T.channel_id == bindparam("channel_id"), T.status.in_([s.value for s in RUNNING])
)
ALL_RUNNING = select(tournaments).where(T.status.in_([s.value for s in RUNNING])).order_by(T.id)
LAST_IN = (
    select(tournaments)
    .where(T.channel_id == bindparam("channel_id"))
    .order_by(T.id.desc())
    .limit(1)
)
PLAYERS = (
    select(tournament_players)
    .where(P.tournament_id == bindparam("tid"))
    .order_by(P.joined_at, P.user_id)
)
PAIRINGS = (
    select(
        tournament_pairings,
        games.c.status.label("game_status"),
        games.c.result.label("game_result"),
    )
    .outerjoin(games, games.c.id == G.game_id)
    .where(G.tournament_id == bindparam("tid"))
    .order_by(G.id)
)
PAIRING = select(tournament_pairings).where(G.id == bindparam("pid"))
GAME_OF = select(games).where(games.c.id == bindparam("game_id"))
WITH_GAME = (
    update(tournament_pairings)
    .where(G.id == bindparam("pid"), G.game_id.is_(None))
    .values(game_id=bindparam("gid"), channel_id=bindparam("cid"))
)
RESULT = (
    update(tournament_pairings)
    .where(G.id == bindparam("pid"), G.outcome.is_(None))
    .values(outcome=bindparam("outcome"), forfeit=bindparam("forfeit"), ended_at=bindparam("now"))
)
REMOVE_PLAYER = tournament_players.delete().where(
    P.tournament_id == bindparam("tid"), P.user_id == bindparam("uid")
)
ACTIVE_GAME = games.c.status == GameStatus.ACTIVE
TURNS = (
    select(G.game_id, T.turn_seconds)
    .join(tournaments, T.id == G.tournament_id)
    .join(games, games.c.id == G.game_id)
    .where(ACTIVE_GAME)
)
PLAYING_IN = (
    select(G.channel_id)
    .join(tournaments, T.id == G.tournament_id)
    .join(games, games.c.id == G.game_id)
    .where(
        or_(G.white_id == bindparam("uid"), G.black_id == bindparam("uid")),
        ACTIVE_GAME,
    )
    .order_by(G.id.desc())
)


class TournamentStore:
    """The tournaments, their players and their pairings (a repository over the storage's
    :class:`~bot.storage.runner.Runner`)."""

    def __init__(self, runner: Runner) -> None:
        self._run = runner

    # -- reading -------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> TournamentRow | None:
        row = await self._run.row(TOURNAMENT, tid=tournament_id)
        return None if row is None else tournament_row(row)

    async def running_in(self, channel_id: int) -> TournamentRow | None:
        """The tournament open or playing in a channel, if there is one."""
        row = await self._run.row(RUNNING_IN, channel_id=channel_id)
        return None if row is None else tournament_row(row)

    async def last_in(self, channel_id: int) -> TournamentRow | None:
        """The newest tournament of a channel, whatever its state (for its standings)."""
        row = await self._run.row(LAST_IN, channel_id=channel_id)
        return None if row is None else tournament_row(row)

    async def running(self) -> list[TournamentRow]:
        """Every tournament open or playing, oldest first (the tick's work)."""
        return [tournament_row(r) for r in await self._run.rows(ALL_RUNNING)]

    async def event(self, tournament_id: int) -> Event | None:
        """A tournament whole: the tournament, its players, its pairings (one trip)."""
        return await self._run.run(_event, tournament_id)

    async def game_turns(self) -> dict[int, timedelta]:
        """Each active tournament game and the time a move may take in it (the clock's)."""
        rows = await self._run.rows(TURNS)
        return {int(r["game_id"]): timedelta(seconds=int(r["turn_seconds"])) for r in rows}

    async def playing_at(self, user_id: int) -> int | None:
        """The channel of the tournament game ``user_id`` is playing now, if any."""
        row = await self._run.row(PLAYING_IN, uid=user_id)
        return None if row is None or row["channel_id"] is None else int(row["channel_id"])

    # -- changing ------------------------------------------------------------------------

    async def create(self, new: NewTournament, now: datetime) -> TournamentRow | None:
        """A new tournament; ``None`` if its channel has one open or playing already."""
        row = await self._run.row(self._run.new_row(tournaments, **new.values(), created_at=now))
        return None if row is None else tournament_row(row)

    async def apply(self, seen: Event, changes: Changes, now: datetime) -> bool:
        """Write ``changes``, decided from ``seen``, in one transaction holding the
        tournament's lock, if the tournament is still exactly as seen; else write nothing
        and return ``False`` (the caller decides again from what is there now)."""
        tournament_id = seen.tournament.id

        def body(conn: Connection) -> bool:
            if _event(conn, tournament_id) != seen:
                return False
            _write(conn, seen, changes, now)
            return True

        return await self._run.transaction(body, lock=_lock(tournament_id))

    async def open_game(
        self, pairing_id: int, new: MakeGame, now: datetime
    ) -> tuple[GameRow, bool, PairingRow, TournamentRow]:
        """The pairing's game: made now (``new`` says how, from the pairing, its tournament
        and the players' names) and recorded with the pairing in one transaction, or the
        one it has already (then ``False``); with the pairing and its tournament. Raises
        :class:`ChannelTaken` if the new game's channel has an active game, and
        :class:`LookupError` for no such pairing."""
        found = await self._run.row(PAIRING, pid=pairing_id)
        if found is None:
            raise LookupError(pairing_id)
        tournament_id = int(found["tournament_id"])

        def body(conn: Connection) -> tuple[GameRow, bool, PairingRow, TournamentRow]:
            pairing = pairing_row(rows_of(conn, PAIRING, {"pid": pairing_id})[0])
            tournament = tournament_row(rows_of(conn, TOURNAMENT, {"tid": tournament_id})[0])
            if pairing.game_id is not None:
                [game] = rows_of(conn, GAME_OF, {"game_id": pairing.game_id})
                return game_row(game), False, pairing, tournament
            players = rows_of(conn, PLAYERS, {"tid": tournament_id})
            names = {int(p["user_id"]): str(p["name"]) for p in players}
            made = rows_of(conn, insert_game(self._run, new(pairing, tournament, names), now), {})
            if not made:
                raise ChannelTaken(pairing_id)
            row = game_row(made[0])
            conn.execute(WITH_GAME, {"pid": pairing_id, "gid": row.id, "cid": row.channel_id})
            return row, True, pairing, tournament

        return await self._run.transaction(body, lock=_lock(tournament_id))


def _lock(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def _event(conn: Connection, tournament_id: int) -> Event | None:
    found = rows_of(conn, TOURNAMENT, {"tid": tournament_id})
    if not found:
        return None
    players = rows_of(conn, PLAYERS, {"tid": tournament_id})
    pairings = rows_of(conn, PAIRINGS, {"tid": tournament_id})
    return Event(
        tournament_row(found[0]),
        tuple(player_row(p) for p in players),
        tuple(pairing_row(p) for p in pairings),
    )


def _write(conn: Connection, before: Event, changes: Changes, now: datetime) -> None:
    t = changes.tournament
    was = before.tournament.values()
    changed = {k: v for k, v in t.values().items() if was[k] != v}
    if changed:
        conn.execute(update(tournaments).where(T.id == t.id).values(**changed))
    for uid in changes.removed:
        conn.execute(REMOVE_PLAYER, {"tid": t.id, "uid": uid})
    for player in changes.players:
        known = before.player(player.user_id)
        if known is None:
            conn.execute(tournament_players.insert().values(**player.values()))
        elif known != player:
            values = {"left_at": player.left_at, "paused": player.paused, "name": player.name}
            key = and_(P.tournament_id == t.id, P.user_id == player.user_id)
            conn.execute(update(tournament_players).where(key).values(**values))
    for pairing in changes.results:
        assert pairing.outcome is not None
        result = {"outcome": pairing.outcome.value, "forfeit": pairing.forfeit}
        conn.execute(RESULT, {"pid": pairing.id, "now": now, **result})
    if changes.pairings:
        rows = [
            {
                "tournament_id": t.id,
                "round": p.round,
                "white_id": p.white_id,
                "black_id": p.black_id,
                "outcome": Outcome.BYE.value if p.black_id is None else None,
                "created_at": now,
                "ended_at": now if p.black_id is None else None,
            }
            for p in changes.pairings
        ]
        conn.execute(tournament_pairings.insert(), rows)
