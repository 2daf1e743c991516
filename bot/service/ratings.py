"""Which games are rated and how a rating moves: the rating rule, over Glicko-2
(:mod:`bot.service.glicko`).

* Games between people are rated per server and per variant family. ``shax`` and
  ``shax-small`` are one family: the same rules and the same skills on a smaller board,
  so a player's strength is one number, and a server's games are not split between two
  ratings that would each take twice as long to settle. ``jar``, the children's game,
  is not rated.
* A game against the bot is rated too, against its level's fixed rating (measured,
  ``engine/ai/levels.py``): only the person's rating moves.
* A game ended by a timeout counts; an aborted game — one side never made a move (the
  clock aborts a game whose side on turn runs out of time before its first move) — does
  not count.
* Each rated game is a rating period of its own (as on lichess); before it, a player's
  deviation grows with the days since their last rated game.

The kernel hands :func:`rate_game` to the storage when a game finishes (the ratings read
and written in the finishing transaction); :func:`rerate` rates every finished game
again, oldest first, for ``python -m bot ratings recompute``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.service import glicko
from bot.service.glicko import Rating
from bot.standings import StoredRating
from bot.storage import GameRow, RatingChange, guild_key
from engine import Color, Outcome, Position, Termination, get_variant
from engine.ai.levels import LEVEL_TABLE

RATED_FAMILIES = ("shax",)
"""The rule families (:attr:`engine.Variant.family`) whose games are rated: shax, for
``shax`` and ``shax-small`` alike; not jar."""
LEVEL_DEVIATION = 60.0
"""The deviation of a bot level's rating: its play does not change, but its rating was
measured over a few dozen games, not known exactly."""
SECONDS_PER_DAY = 86400.0


def family_of(variant: str) -> str | None:
    """The family a variant is rated in, or ``None`` if its games are not rated."""
    family = get_variant(variant).family
    return family if family in RATED_FAMILIES else None


def acted(variant: str, record: Sequence[str]) -> set[Color]:
    """The colours that made at least one action in ``record``."""
    position = Position.initial(variant)
    colors: set[Color] = set()
    for action in record:
        if position.to_move is not None:
            colors.add(position.to_move)
        position = position.apply(action)
    return colors


def rated_family(row: GameRow, record: Sequence[str]) -> str | None:
    """The family a game ending with ``record`` is rated in; ``None`` for an unrated
    variant or an aborted game (one side never moved)."""
    family = family_of(row.variant)
    if family is None or len(acted(row.variant, record)) < 2:
        return None
    return family


def level_rating(level: str) -> Rating:
    """A bot level's fixed rating."""
    return Rating(float(LEVEL_TABLE[level].rating), LEVEL_DEVIATION)


def current(stored: StoredRating | None, when: datetime) -> Rating:
    """A stored rating as it stands at ``when``: its deviation grown with the days since
    its last game (a newcomer's for a person never rated)."""
    if stored is None:
        return Rating()
    rating = Rating(stored.rating, stored.deviation, stored.volatility)
    return glicko.idle(rating, (when - stored.rated_at).total_seconds() / SECONDS_PER_DAY)


def after_game(
    stored: StoredRating | None, opponent: Rating, score: float, ended: datetime
) -> StoredRating:
    """A person's stored rating after one game against ``opponent`` (1 a win, 0.5 a draw,
    0 a loss) that ended at ``ended``."""
    new = glicko.rate(current(stored, ended), [glicko.Result(opponent, score)])
    best = None if stored is None else stored.best
    if not new.provisional:
        best = new.rating if best is None else max(best, new.rating)
    return StoredRating(
        rating=new.rating,
        deviation=new.deviation,
        volatility=new.volatility,
        games=(0 if stored is None else stored.games) + 1,
        best=best,
        rated_at=ended,
    )


def score_of(outcome: Outcome, color: Color) -> float:
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner is color else 0.0


def people_of(row: GameRow) -> dict[Color, int]:
    """The people of a game (not the bot), by colour: their user ids."""
    ids = {Color.WHITE: row.white_id, Color.BLACK: row.black_id}
    return {color: user for color, user in ids.items() if row.ai_color != color.label}


def rate_game(
    row: GameRow, outcome: Outcome, before: Mapping[int, StoredRating | None], ended: datetime
) -> dict[int, StoredRating]:
    """The people's ratings after a rated game, from theirs ``before`` it (by user id);
    against the bot, against its level's rating."""
    people = people_of(row)
    after: dict[int, StoredRating] = {}
    for color, user in people.items():
        them = people.get(color.other)
        if them is None:
            assert row.ai_level is not None
            opponent = level_rating(row.ai_level)
        else:
            opponent = current(before[them], ended)
        after[user] = after_game(before[user], opponent, score_of(outcome, color), ended)
    return after


def rerate(finished: Sequence[tuple[GameRow, Outcome]]) -> list[RatingChange]:
    """Every rated game of ``finished`` (oldest first, with how it ended) rated again from
    nothing: each person's rating before and after it."""
    stored: dict[tuple[int, str, int], StoredRating] = {}
    changes: list[RatingChange] = []
    for row, outcome in finished:
        family = rated_family(row, row.record)
        if family is None or row.ended_at is None or outcome.termination is Termination.ABORTED:
            continue
        guild = guild_key(row.guild_id)
        names = {row.white_id: row.white_name, row.black_id: row.black_name}
        people = sorted(people_of(row).values())
        before = {user: stored.get((guild, family, user)) for user in people}
        after = rate_game(row, outcome, before, row.ended_at)
        for user in people:
            stored[guild, family, user] = after[user]
            changes.append(
                RatingChange(row.id, guild, family, user, names[user], before[user], after[user])
            )
    return changes
