"""A tournament's standings as the players see them: one line a player
(:class:`renderer.standings.StandingLine`: place, name, points, tie-breaks, a mark a game),
said in words and drawn as a picture in the reader's language.

A Swiss ranks by points, then Buchholz, then Sonneborn–Berger (:mod:`bot.tournaments.scoring`);
an arena by points (lichess's, a win streak doubling them), then games played fewer first
(the same points in fewer games), then the seed."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.replies import Offload, Picture, Reader, Reply
from bot.tournaments import notices
from bot.tournaments.rows import Event, Format
from bot.tournaments.rules import arena_scores, result_for, settled, swiss_record
from bot.tournaments.scoring import ON_FIRE, arena_points, swiss_standings
from renderer.standings import STANDINGS_FILENAME, Mark, StandingLine, render_standings


def standing_lines(event: Event) -> tuple[StandingLine, ...]:
    """Every player's line, best first."""
    names = {p.user_id: p.name for p in event.players}
    if event.tournament.swiss:
        rows = swiss_standings(*swiss_record(event))
        return tuple(
            StandingLine(
                r.rank,
                names[r.id],
                r.points,
                (r.buchholz, r.sonneborn_berger),
                _swiss_marks(event, r.id),
            )
            for r in rows
        )
    scores = arena_scores(event)
    seeds = {p.user_id: p.seed for p in event.players}
    order = sorted(scores, key=lambda u: (-scores[u][0], scores[u][2], -seeds.get(u, 0.0), u))
    lines: list[StandingLine] = []
    for user in order:
        points, _, games = scores[user]
        rank = len(lines) + 1
        if lines and (lines[-1].points, lines[-1].tiebreaks) == (points, (games,)):
            rank = lines[-1].rank
        lines.append(StandingLine(rank, names[user], points, (games,), _arena_marks(event, user)))
    return tuple(lines)


def on_fire(event: Event) -> set[str]:
    """The names of the arena players whose next win counts double."""
    names = {p.user_id: p.name for p in event.players}
    return {names[u] for u, (_, streak, _) in arena_scores(event).items() if streak >= ON_FIRE}


def _swiss_marks(event: Event, user: int) -> tuple[Mark, ...]:
    rounds = {p.round: p for p in event.pairings if p.has(user)}
    played = event.tournament.round
    return tuple(
        Mark(result_for(rounds[n], user)) if n in rounds and rounds[n].done else Mark("none")
        for n in range(1, played + 1)
    )


def _arena_marks(event: Event, user: int) -> tuple[Mark, ...]:
    marks, streak = [], 0
    for p in event.pairings:
        if not p.has(user) or not p.done or p.bye:
            continue
        result = result_for(p, user)
        if result == "bye":
            continue
        gained, streak = arena_points(result, streak)
        marks.append(Mark(result, str(gained)))
    return tuple(marks)


def rounds_played(event: Event) -> int:
    """A Swiss's rounds complete; an arena's games finished."""
    t = event.tournament
    if not t.swiss:
        return sum(1 for p in event.pairings if p.done and not p.bye)
    complete = [n for n in range(1, t.round + 1) if all(p.done for p in event.of_round(n))]
    return max(complete, default=0)


def standings_reply(event: Event, run_picture: Offload, mentions: Sequence[int] = ()) -> Reply:
    """The standings in words, with their picture once anything was played."""
    event = settled(event)
    t = event.tournament
    lines = standing_lines(event)
    played = rounds_played(event)
    if played == 0:
        return Reply(text=notices.NO_STANDINGS_YET(sum(1 for p in event.players if p.playing)))
    text = notices.STANDINGS(t.format, played, t.rounds, lines, tuple(sorted(on_fire(event))))

    async def draw(reader: Reader) -> bytes:
        title = reader.say(notices.STANDINGS_TITLE(t.format, t.variant, played, t.rounds))
        headings = [reader.say(notices.POINTS_HEADING())]
        if t.format is Format.SWISS:
            headings += ["Buchholz", reader.say(notices.SB_HEADING())]
        else:
            headings.append(reader.say(notices.GAMES_HEADING()))
        return bytes(await run_picture(render_standings, list(lines), title, "", headings))

    return Reply(
        text=text, attachments=(Picture(STANDINGS_FILENAME, draw),), mentions=tuple(mentions)
    )
