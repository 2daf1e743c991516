"""The rules of a tournament's steps, pure: given the tournament as it stands (an
:class:`~bot.tournaments.rows.Event`, read in the step's transaction), what changes and
what happened. :meth:`bot.tournaments.store.TournamentStore.step` writes the changes; a
refusal (a :class:`UserError`) changes nothing.

* joining, leaving (before the start: out; a Swiss under way: withdrawn for good, the game
  in play lost and never a bye again; an arena: paused until the player joins again),
  starting (three players at least), cancelling;
* :func:`advance`, run on every tick: the results of the games that ended (a pairing of a
  player who left, not yet played, is forfeited), then a Swiss's next round once the round
  is complete and its pause over, or an arena's free players paired again at once; the end
  (the last round done, or the arena's time up and its last games over).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from bot.service.replies import UserError
from bot.tournaments import notices
from bot.tournaments.pairing import ArenaPlayer, arena_pairs, swiss_round
from bot.tournaments.rows import Changes, Event, NewPairing, Outcome, PairingRow, PlayerRow, Status
from bot.tournaments.scoring import (
    ArenaResult,
    Bye,
    Entrant,
    Game,
    arena_points,
    swiss_players,
)

MIN_PLAYERS = 3


@dataclass(frozen=True)
class Happened:
    """What a step did, for the service to say: pairings made (the round: a Swiss's, or an
    arena's wave), whether a round's standings are due, whether it ended or was cancelled."""

    paired: int | None = None
    standings_after: int | None = None
    next_round_at: datetime | None = None
    finished: bool = False
    cancelled: bool = False
    started: bool = False
    count: int = 0
    """Players in it (after a join or a leave)."""
    game_to_resign: int | None = None
    """A game of the player who left a Swiss, lost by leaving."""
    forfeited: bool = False
    paused: bool = False
    """An arena's player who left: paused until they join again."""
    withdrawn: bool = False
    """A Swiss's player who left it under way: out for good."""


def join(
    user_id: int, name: str, seed: float, now: datetime, event: Event
) -> tuple[Changes, Happened]:
    t = event.tournament
    if t.status not in (Status.OPEN, Status.PLAYING):
        raise UserError(notices.NO_TOURNAMENT_HERE())
    known = event.player(user_id)
    if t.swiss:
        if known is not None:
            raise UserError(notices.LEFT_FOR_GOOD() if known.left else notices.ALREADY_IN())
        if t.status is Status.PLAYING:
            raise UserError(notices.SWISS_BEGUN())
    else:
        if known is not None and known.playing:
            raise UserError(notices.ALREADY_IN())
        if t.ends_at is not None and now >= t.ends_at:
            raise UserError(notices.ARENA_OVER())
    player = (
        PlayerRow(t.id, user_id, name, seed, now)
        if known is None
        else replace(known, left_at=None, paused=False, name=name)
    )
    count = sum(1 for p in event.players if p.playing and p.user_id != user_id) + 1
    return Changes(t, players=(player,)), Happened(count=count)


def leave(user_id: int, now: datetime, event: Event) -> tuple[Changes, Happened]:
    t = event.tournament
    known = event.player(user_id)
    if known is None or known.left or t.status not in (Status.OPEN, Status.PLAYING):
        raise UserError(notices.NOT_IN_IT())
    count = sum(1 for p in event.players if p.playing and p.user_id != user_id)
    if t.status is Status.OPEN:
        return Changes(t, removed=(user_id,)), Happened(count=count)
    if not t.swiss:
        if known.paused:
            raise UserError(notices.NOT_IN_IT())
        paused = Changes(t, players=(replace(known, paused=True),))
        return paused, Happened(count=count, paused=True)
    playing = event.unfinished(user_id)
    results: tuple[PairingRow, ...] = ()
    resign = None
    if playing is not None and playing.game_id is None:
        results = (_forfeit(playing, {user_id} | {p.user_id for p in event.players if p.left}),)
    elif playing is not None:
        resign = playing.game_id
    changes = Changes(t, players=(replace(known, left_at=now),), results=results)
    lost = playing is not None
    return changes, Happened(count=count, game_to_resign=resign, forfeited=lost, withdrawn=True)


def start(now: datetime, event: Event) -> tuple[Changes, Happened]:
    """Begin: a Swiss pairs its first round, an arena its first games and its clock."""
    t = event.tournament
    if t.status is Status.PLAYING:
        raise UserError(notices.ALREADY_STARTED())
    if t.status is not Status.OPEN:
        raise UserError(notices.NO_TOURNAMENT_HERE())
    players = [p for p in event.players if p.playing]
    if len(players) < MIN_PLAYERS:
        raise UserError(notices.TOO_FEW_PLAYERS(len(players)))
    ends = None if t.swiss else now + timedelta(minutes=t.minutes)
    begun = replace(t, status=Status.PLAYING, started_at=now, ends_at=ends, round=1)
    pairings = _swiss_pairings(event, 1) if t.swiss else _arena_pairings(event, 1, now)
    return Changes(begun, pairings=pairings), Happened(paired=1, started=True)


def cancel(now: datetime, event: Event) -> tuple[Changes, Happened]:
    t = event.tournament
    if t.status not in (Status.OPEN, Status.PLAYING):
        raise UserError(notices.NO_TOURNAMENT_HERE())
    return Changes(replace(t, status=Status.CANCELLED, ended_at=now)), Happened(cancelled=True)


def remind(event: Event) -> tuple[Changes, Happened]:
    t = event.tournament
    if t.reminded or t.status is not Status.OPEN:
        return Changes(t), Happened()
    return Changes(replace(t, reminded=True)), Happened(count=len(event.players))


def timed_start(now: datetime, event: Event) -> tuple[Changes, Happened]:
    """A timed start come: begin, or with fewer than three players, cancel."""
    t = event.tournament
    if t.status is not Status.OPEN or t.starts_at is None or now < t.starts_at:
        return Changes(t), Happened()
    players = sum(1 for p in event.players if p.playing)
    if players < MIN_PLAYERS:
        cancelled = replace(t, status=Status.CANCELLED, ended_at=now)
        return Changes(cancelled), Happened(cancelled=True, count=players)
    return start(now, event)


def advance(now: datetime, event: Event) -> tuple[Changes, Happened]:
    """Record what ended, then pair what is due, or end the tournament."""
    t = event.tournament
    if t.status is not Status.PLAYING:
        return Changes(t), Happened()
    results = _results(event)
    event = _with(event, results)
    if t.swiss:
        return _swiss_step(now, event, results)
    return _arena_step(now, event, results)


def settled(event: Event) -> Event:
    """The tournament as its next step will have it: the games that ended counted (the
    standings are shown so at once, before the tick records them)."""
    return _with(event, _results(event))


def _with(event: Event, results: tuple[PairingRow, ...]) -> Event:
    known = {r.id: r for r in results}
    return replace(event, pairings=tuple(known.get(p.id, p) for p in event.pairings))


def _results(event: Event) -> tuple[PairingRow, ...]:
    left = {p.user_id for p in event.players if p.left}
    found = []
    for p in event.pairings:
        if p.done:
            continue
        if p.game_over:
            result = p.game_result or Outcome.DRAW.value
            found.append(replace(p, outcome=Outcome(result)))
        elif p.game_id is None and (p.white_id in left or p.black_id in left):
            found.append(_forfeit(p, left))
    return tuple(found)


def _forfeit(p: PairingRow, left: set[int]) -> PairingRow:
    """The pairing lost by whoever of it left, without its game being played (both: a
    draw, which scores no one a win)."""
    white_gone, black_gone = p.white_id in left, p.black_id in left
    winner = (
        Outcome.DRAW
        if white_gone and black_gone
        else Outcome.BLACK
        if white_gone
        else Outcome.WHITE
    )
    return replace(p, outcome=winner, forfeit=True)


def _swiss_step(
    now: datetime, event: Event, results: tuple[PairingRow, ...]
) -> tuple[Changes, Happened]:
    t = event.tournament
    if not all(p.done for p in event.of_round(t.round)):
        return Changes(t, results=results), Happened()
    said = t.said_round < t.round
    standings = t.round if said else None
    staying = sum(1 for p in event.players if p.playing)
    if t.round >= t.rounds or staying < 2:
        ended = replace(
            t, status=Status.FINISHED, ended_at=now, said_round=t.round, next_round_at=None
        )
        return Changes(ended, results=results), Happened(standings_after=standings, finished=True)
    due = t.next_round_at if t.next_round_at is not None else now + t.pause
    if now < due:
        waiting = replace(t, said_round=t.round, next_round_at=due)
        return Changes(waiting, results=results), Happened(
            standings_after=standings, next_round_at=due
        )
    number = t.round + 1
    paired = replace(t, round=number, said_round=t.round, next_round_at=None)
    changes = Changes(paired, results=results, pairings=_swiss_pairings(event, number))
    return changes, Happened(paired=number, standings_after=standings)


def _arena_step(
    now: datetime, event: Event, results: tuple[PairingRow, ...]
) -> tuple[Changes, Happened]:
    t = event.tournament
    assert t.ends_at is not None
    if now >= t.ends_at:
        if all(p.done for p in event.pairings):
            ended = replace(t, status=Status.FINISHED, ended_at=now)
            return Changes(ended, results=results), Happened(finished=True)
        return Changes(t, results=results), Happened()
    pairings = _arena_pairings(event, t.round + 1, now)
    if not pairings:
        return Changes(t, results=results), Happened()
    waved = replace(t, round=t.round + 1)
    return Changes(waved, results=results, pairings=pairings), Happened(paired=waved.round)


def swiss_record(event: Event) -> tuple[list[Entrant], list[Game], list[Bye]]:
    """A Swiss as the scoring reads it: the entrants, the games, the byes."""
    entrants = [Entrant(p.user_id, p.seed, withdrawn=p.left) for p in event.players]
    games, byes = [], []
    for p in event.pairings:
        if p.black_id is None:
            byes.append(Bye(p.round, p.white_id))
            continue
        result = None if p.outcome is None else p.outcome.value
        games.append(Game(p.round, p.white_id, p.black_id, result))  # type: ignore[arg-type]
    return entrants, games, byes


def _swiss_pairings(event: Event, number: int) -> tuple[NewPairing, ...]:
    chosen = swiss_round(swiss_players(*swiss_record(event)))
    pairs = tuple(NewPairing(number, white, black) for white, black in chosen.pairs)
    bye = () if chosen.bye is None else (NewPairing(number, chosen.bye),)
    return pairs + bye


def arena_scores(event: Event) -> dict[int, tuple[int, int, int]]:
    """Each arena player's points, winning streak and games finished (lichess's scoring,
    the games in the order they were paired)."""
    scores = {p.user_id: (0, 0, 0) for p in event.players}
    for p in event.pairings:
        if p.outcome is None or p.black_id is None:
            continue
        for me in (p.white_id, p.black_id):
            points, streak, games = scores.get(me, (0, 0, 0))
            result = result_for(p, me)
            if result == "bye":
                continue
            gained, streak = arena_points(result, streak)
            scores[me] = (points + gained, streak, games + 1)
    return scores


def result_for(p: PairingRow, user: int) -> ArenaResult | Literal["bye"]:
    """How a finished pairing went for one of its players."""
    if p.outcome is Outcome.BYE:
        return "bye"
    if p.outcome is Outcome.DRAW:
        return "draw"
    mine = Outcome.WHITE if p.white_id == user else Outcome.BLACK
    return "win" if p.outcome is mine else "loss"


def _arena_pairings(event: Event, wave: int, now: datetime) -> tuple[NewPairing, ...]:
    busy = {u for p in event.pairings if not p.done for u in (p.white_id, p.black_id)}
    scores = arena_scores(event)
    last: dict[int, int] = {}
    balance: dict[int, int] = {}
    for p in event.pairings:
        if p.black_id is None:
            continue
        last[p.white_id], last[p.black_id] = p.black_id, p.white_id
        balance[p.white_id] = balance.get(p.white_id, 0) + 1
        balance[p.black_id] = balance.get(p.black_id, 0) - 1
    free = [
        ArenaPlayer(
            p.user_id,
            scores[p.user_id][0],
            seed=p.seed,
            last_opponent=last.get(p.user_id),
            colour_balance=balance.get(p.user_id, 0),
        )
        for p in event.players
        if p.playing and p.user_id not in busy
    ]
    if len(free) < 2:
        return ()
    return tuple(NewPairing(wave, white, black) for white, black in arena_pairs(free).pairs)
