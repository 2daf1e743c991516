"""When the clocks last ran, and the time given back to the turns after the bot was away:
``storage.clock`` (:class:`ClockStore`), which keeps the turn clocks fair.

Each clock (a process's, named by the servers it runs for) stores when it last ran. After
a stop, a crash or an outage, the first run that finds its clock's last run long ago
gives the waiting turns their time back: in one transaction that holds the clock's lock,
only if its last run is still the one it read, so that two processes of the same clock
never give it twice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import Connection, bindparam, func, select, update

from bot.storage.rows import GameRow, game_row, moment
from bot.storage.runner import Runner, rows_of
from bot.storage.statements import ACTIVE
from bot.storage.tables import Moment, challenges, clock_runs, games

GiveBack = Callable[[GameRow], tuple[datetime, bool] | None]
"""Given a waiting game, when its turn now counts from and whether its warning stands
(``None``: leave it as it is)."""

RAN = select(clock_runs.c.ran_at).where(clock_runs.c.clock == bindparam("clock"))
NEWEST_RUN = select(func.max(clock_runs.c.ran_at))
NEWEST_ACTIVITY = (
    select(func.max(games.c.updated_at)),
    select(func.max(challenges.c.created_at)),
    select(func.max(challenges.c.resolved_at)),
)
"""The newest moments a database written before the clocks kept their runs holds."""
WAITING = (
    select(games)
    .where(ACTIVE, games.c.turn_started_at <= bindparam("since", type_=Moment()))
    .order_by(games.c.id)
)
TURN_RESTARTED = update(games).where(
    games.c.id == bindparam("game_id"), games.c.version == bindparam("at_version"), ACTIVE
)
"""A waiting turn counted from another moment: the version stays (the board shown, and
its buttons, are still the game's)."""
GIVEN_BACK = TURN_RESTARTED.values(
    turn_started_at=bindparam("turn_started", type_=Moment()),
    warned=bindparam("still_warned"),
).returning(*games.c)
WARNED_LATE = TURN_RESTARTED.values(
    turn_started_at=bindparam("turn_started", type_=Moment()), warned=True
).returning(games.c.id)


def clock_lock(clock: str) -> str:
    """The lock of a clock's row (which may not exist yet)."""
    return f"clock:{clock}"


class ClockStore:
    """The clocks' last runs, and the turns' time given back."""

    def __init__(self, runner: Runner) -> None:
        self._run = runner

    async def ran(self, clock: str, now: datetime) -> None:
        """Note that ``clock`` ran at ``now``."""
        await self._run.rows(self._run.upsert(clock_runs, clock=clock, ran_at=now))

    async def last_ran(self, clock: str) -> datetime | None:
        """When ``clock`` last ran; for a clock that never ran here, the newest run of
        any clock, and for a database of a bot that kept no runs, its newest activity
        (a game changed, a challenge made or closed); ``None`` for an empty database."""
        return await self._run.run(_last_ran, clock)

    async def warn_late(self, game_id: int, version: int, turn_started: datetime) -> bool:
        """Note that the turn-timeout warning was sent, the turn counting from
        ``turn_started`` so that the warning's whole time is left from now (the clock
        sees the warning's moment late by up to one of its runs; only if the game is
        unchanged)."""
        values = {"game_id": game_id, "at_version": version, "turn_started": turn_started}
        return bool(await self._run.rows(WARNED_LATE, **values))

    async def give_time_back(
        self, clock: str, last: datetime, now: datetime, give: GiveBack
    ) -> list[GameRow] | None:
        """The bot was away from ``last`` to ``now``: each game whose turn started by
        ``last`` counts its turn from when ``give`` says, and ``clock`` ran at ``now``.
        ``None`` (nothing changed) if the clock's last run is no longer ``last``: another
        process of the same clock gave the time back first. The games changed, after."""

        def body(conn: Connection) -> list[GameRow] | None:
            if _last_ran(conn, clock) != last:
                return None
            changed = []
            for row in rows_of(conn, WAITING, {"since": last}):
                game = game_row(row)
                given = give(game)
                if given is None:
                    continue
                start, warned = given
                values = {
                    "game_id": game.id,
                    "at_version": game.version,
                    "turn_started": start,
                    "still_warned": warned,
                }
                changed += [game_row(r) for r in rows_of(conn, GIVEN_BACK, values)]
            rows_of(conn, self._run.upsert(clock_runs, clock=clock, ran_at=now), {})
            return changed

        return await self._run.transaction(body, clock_lock(clock))


def _last_ran(conn: Connection, clock: str) -> datetime | None:
    for statement, values in ((RAN, {"clock": clock}), (NEWEST_RUN, {})):
        found = conn.execute(statement, values).scalar()
        if found is not None:
            return _moment(found)
    seen = [conn.execute(statement).scalar() for statement in NEWEST_ACTIVITY]
    moments = [_moment(value) for value in seen if value is not None]
    return max(moments, default=None)


def _moment(value: object) -> datetime:
    """A moment read through an aggregate (SQLite gives its stored seconds back)."""
    found = moment(value)  # type: ignore[arg-type]
    assert found is not None
    return found
