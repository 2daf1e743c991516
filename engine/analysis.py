"""Analysis of a game: every action's score beside the best one, for reviews and hints.

Each position of a record is searched with exact scores for every legal action (the
compiled search's ``all_scores`` mode), so the action played and the best one are
scored by the same search: the difference is what the action lost. Scores are in
centi-stones from the point of view of the player who acts (a forced win in n plies
is ``30000 - n``); :attr:`MoveReview.white_before` gives the position's value from
white's side, for a curve over the game.

Where the endgame tables hold a position and every action from it (and, on the boards
solved whole, from the first stone: :mod:`engine.tables.solved`), its actions are
scored by them instead, exactly (:attr:`Assessment.source` ``"table"``: a win in n moves
is ``30000 - n``).

A turning point claims only what the curve shows: :attr:`MoveReview.loss` is what the
action gave away by the search of its position *and* by the value of the position it
led to (the next assessment, or the game's end), the smaller of the two; so a deeper
look at the best action alone never makes a mistake of an action that kept the value.

Pure functions of (variant, record, depth, time): safe in a process pool. A review
splits its plies between workers with :func:`assess_record`'s ``plies``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.ai import core
from engine.ai.levels import weights_for
from engine.position import Action, Position, Step
from engine.record import iter_positions, split_record
from engine.tables import Probe, Tables, TablesUnavailableError, open_tables, table_scores
from engine.tables.solved import solved_scores
from engine.variants import Color, Variant, get_variant

REVIEW_DEPTH = 8
"""Plies searched for each position of a review (a 150-action shax game: ~1.7 s a core)."""
REVIEW_MIN_DEPTH = 5
"""With a time cap, every position is still searched at least this deep."""
POSITION_SECONDS = 0.5
"""A review's time cap for one position (the rare deep middle game), in seconds."""
MATE_BOUND = core.MATE_BOUND
"""Scores beyond this are forced wins (or losses)."""
TURNING_MINIMUM = 25
"""An action is a turning point only if it lost at least a quarter of a stone."""
PLOT_LIMIT = 1000
"""Scores are shown on a curve up to ten stones either way; a forced result is the edge."""


@dataclass(frozen=True)
class Assessment:
    """Every legal action of one position with its exact score, best first.

    ``ply`` is the number of actions played before the position; scores are from the
    point of view of the player to act there, at search ``depth``.
    """

    ply: int
    scores: tuple[tuple[str, int], ...]
    depth: int
    source: str = "search"
    """``"table"`` when the endgame tables scored every action (exact; depth 0)."""

    @property
    def best(self) -> str:
        return self.scores[0][0]

    @property
    def best_score(self) -> int:
        return self.scores[0][1]

    def score_of(self, action: str) -> int:
        """The score of ``action`` (in notation); ``KeyError`` if it is not legal here."""
        for notation, score in self.scores:
            if notation == action:
                return score
        raise KeyError(action)


@dataclass(frozen=True)
class MoveReview:
    """One action of a game as the search sees it."""

    ply: int
    """Actions played before this one (the first action is ply 0)."""
    mover: Color
    played: str
    score: int
    """The played action's score, for the mover."""
    best: str
    """The best action by the search (equal to ``played`` when it was the best)."""
    best_score: int
    depth: int
    after: int | None = None
    """The value of the position the action led to, for the mover: by the assessment of
    that position, or the game's end (``None`` when neither is known)."""
    source: str = "search"
    """Where the scores of the action's position came from: ``"search"`` or ``"table"``."""
    reply: str | None = None
    """The opponent's best answer in the position the action led to, by its assessment
    (``None`` when that position was not assessed, is over, or is the mover's again)."""

    @property
    def search_loss(self) -> int:
        """What the action gave away by the search of its own position alone."""
        return max(0, self.best_score - self.score)

    @property
    def loss(self) -> int:
        """What the action gave away against the best one (centi-stones, never negative),
        as the search of its position and the value after it both show: the smaller."""
        if self.after is None:
            return self.search_loss
        return min(self.search_loss, max(0, self.best_score - self.after))

    @property
    def value_after(self) -> int:
        """The value after the action, for the mover (the next position's, where known)."""
        return self.score if self.after is None else self.after

    @property
    def gave_away_win(self) -> bool:
        """A won position before the action, and not one after it."""
        return self.best_score > MATE_BOUND and self.value_after <= MATE_BOUND and self.loss > 0

    @property
    def walked_into_loss(self) -> bool:
        """A lost position after the action, where the best one kept it open."""
        return self.value_after < -MATE_BOUND and self.best_score >= -MATE_BOUND and self.loss > 0

    @property
    def white_before(self) -> int:
        """The position's value before the action, from white's side."""
        return self.best_score if self.mover is Color.WHITE else -self.best_score

    @property
    def white_after(self) -> int:
        """The value after the action, from white's side."""
        return self.value_after if self.mover is Color.WHITE else -self.value_after


def assess(
    position: Position,
    ply: int = 0,
    *,
    depth: int = REVIEW_DEPTH,
    seconds: float | None = None,
    min_depth: int = REVIEW_MIN_DEPTH,
) -> Assessment:
    """Score every legal action of ``position`` (which must not be over).

    Without ``seconds`` the search goes exactly ``depth`` plies (deterministic); with
    it, it stops after ``seconds`` but always completes ``min_depth``.
    """
    if position.outcome is not None:
        raise ValueError("the game is over: there is nothing to assess")
    exact = _by_tables(position, ply)
    if exact is not None:
        return exact
    core.warm_up((position.variant.id,))
    params = core.make_params(
        weights_for(position.variant.id),
        max_depth=depth,
        time_limit=seconds,
        all_scores=True,
        tt_log2=18,
        min_depth=min(depth, min_depth) if seconds is not None else 1,
    )
    found = core.search(position, params)
    v = position.variant
    ranked = sorted(found.root, key=lambda item: -item[1])  # stable: the search's order on ties
    return Assessment(ply, tuple((a.notation(v), s) for a, s in ranked), found.depth)


def _tables_for(position: Position) -> Tables | None:
    try:
        return open_tables(position.variant)
    except (OSError, TablesUnavailableError):
        return None


def _by_tables(position: Position, ply: int) -> Assessment | None:
    """Every action scored by the endgame tables, or ``None`` where they do not reach."""
    tables = _tables_for(position)
    scored = None if tables is None else table_scores(position, tables)
    if scored is None and tables is not None:
        scored = solved_scores(position)  # the placement of a board solved whole
    if not scored:
        return None
    removal = position.step is Step.REMOVE
    v = position.variant
    out = []
    for action, value in scored:
        # The value is after the action: its own move counts too (a removal rides with it).
        moves = value.moves if removal or value.result == "draw" else value.moves + 1
        out.append((action.notation(v), Probe(value.result, moves).score))
    out.sort(key=lambda item: -item[1])
    return Assessment(ply, tuple(out), 0, "table")


def assess_record(
    variant: str | Variant,
    record: str | Sequence[str],
    plies: Iterable[int] | None = None,
    *,
    depth: int = REVIEW_DEPTH,
    seconds: float | None = None,
) -> list[Assessment]:
    """:func:`assess` the position before each action of ``record`` whose index is in
    ``plies`` (every action by default; the position after the last action too when its
    index is asked for and the game goes on). Raises :class:`~engine.RecordError`."""
    positions = [p for p, _ in iter_positions(get_variant(variant), record)]
    wanted = range(len(positions)) if plies is None else sorted(set(plies))
    out = []
    for ply in wanted:
        if not 0 <= ply < len(positions):
            raise ValueError(f"ply {ply} is not in a record of {len(positions) - 1} actions")
        position = positions[ply]
        if position.outcome is None:
            out.append(assess(position, ply, depth=depth, seconds=seconds))
    return out


def review_moves(
    variant: str | Variant, record: str | Sequence[str], assessments: Iterable[Assessment]
) -> list[MoveReview]:
    """The record's actions beside the assessments of the positions they were played in
    (actions whose position was not assessed are left out)."""
    by_ply = {a.ply: a for a in assessments}
    out = []
    steps = _steps(get_variant(variant), record)
    for ply, (position, action) in enumerate(steps):
        found = by_ply.get(ply)
        if found is None:
            continue
        played = action.notation(position.variant)
        mover = Color(position.turn)
        following = steps[ply + 1][0] if ply + 1 < len(steps) else position.play(action)
        answered = by_ply.get(ply + 1)
        theirs = following.outcome is None and following.turn != mover.value
        out.append(
            MoveReview(
                ply=ply,
                mover=mover,
                played=played,
                score=found.score_of(played),
                best=found.best,
                best_score=found.best_score,
                depth=found.depth,
                after=_value_for(mover, following, answered),
                source=found.source,
                reply=answered.best if answered is not None and theirs else None,
            )
        )
    return out


def _value_for(mover: Color, position: Position, found: Assessment | None) -> int | None:
    """The value of ``position`` for ``mover``: its end, or its assessment (``None``
    when it has neither)."""
    outcome = position.outcome
    if outcome is not None:
        if outcome.winner is None:
            return 0
        return core.MATE if outcome.winner is mover else -core.MATE
    if found is None:
        return None
    return found.best_score if position.turn == mover.value else -found.best_score


def analyse_record(
    variant: str | Variant,
    record: str | Sequence[str],
    *,
    depth: int = REVIEW_DEPTH,
    seconds: float | None = None,
) -> list[MoveReview]:
    """Every action of ``record`` beside the best one (:func:`assess_record` then
    :func:`review_moves`)."""
    plies = range(len(split_record(record)))
    found = assess_record(variant, record, plies, depth=depth, seconds=seconds)
    return review_moves(variant, record, found)


def turning_points(
    reviews: Sequence[MoveReview], count: int = 3, minimum: int = TURNING_MINIMUM
) -> list[int]:
    """The plies of the ``count`` actions that lost the most (at least ``minimum``
    centi-stones each), in the order they were played."""
    lost = [r for r in reviews if r.loss >= minimum]
    lost.sort(key=lambda r: (-r.loss, r.ply))
    return sorted(r.ply for r in lost[:count])


def plot_value(score: int) -> int:
    """A score as a curve shows it: within ±:data:`PLOT_LIMIT`, a forced result at the edge."""
    if score > MATE_BOUND:
        return PLOT_LIMIT
    if score < -MATE_BOUND:
        return -PLOT_LIMIT
    return max(-PLOT_LIMIT, min(PLOT_LIMIT, score))


def evaluation_curve(reviews: Sequence[MoveReview]) -> list[int]:
    """White's value before each reviewed action and after the last one, for a plot."""
    if not reviews:
        return []
    values = [plot_value(r.white_before) for r in reviews]
    values.append(plot_value(reviews[-1].white_after))
    return values


def _steps(variant: Variant, record: str | Sequence[str]) -> list[tuple[Position, Action]]:
    """Each action of the record with the position it was played in."""
    out: list[tuple[Position, Action]] = []
    previous: Position | None = None
    for position, action in iter_positions(variant, record):
        if previous is not None and action is not None:
            out.append((previous, action))
        previous = position
    return out
