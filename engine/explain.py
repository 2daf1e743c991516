"""Why an action is good, as a value: a :class:`Reason` and the points it concerns.

The engine says *what* an action does in the game's own terms (it closes a jare, it
stops the opponent's jare on a line, it frees without giving an irmaan, it blocks
them — hārig); the words for it are the bot's. :func:`explanations` lists every reason
that holds, most telling first; :func:`explain` gives the first. Pure functions of a
position and an action, cheap enough for every hint.

:func:`explain_assessed` adds what the scores of an :class:`~engine.analysis.Assessment`
(or a review's :class:`~engine.analysis.MoveReview`) prove: the tables' win in n moves,
the draw they hold where everything else loses, the search's forced win. The general
phrase (:attr:`Reason.KEEPS_BALANCE`) is left only where no reason holds.

Points are names in board order: the line for the jare reasons, the two points of
the shuttle for the irmaan ones, the move's two points for a freeing move.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.ai.core import MATE, MATE_BOUND
from engine.analysis import Assessment, MoveReview
from engine.moments import irmaan, irmaan_appeared, lines_completed
from engine.position import Action, Kind, Phase, Position, Step
from engine.variants import Color


class Reason(Enum):
    WINS = "wins"
    """The action ends the game in the mover's favour."""
    TABLE_WIN = "table_win"
    """By the endgame tables, the action wins in ``moves`` moves with perfect play."""
    FORCED_WIN = "forced_win"
    """The search proves that the action wins in at most ``moves`` moves."""
    TABLE_DRAW = "table_draw"
    """By the endgame tables, the action holds the draw where another one loses."""
    LABA_QAAD = "laba_qaad"
    """A placement that completes two lines at once."""
    FIRST_JARE = "first_jare"
    """A placement that makes the game's first jare: its maker removes first."""
    CLOSES_JARE = "closes_jare"
    """A move that completes a jare: a capture follows."""
    ONLY_ACTION = "only_action"
    """Nothing else is legal."""
    TAKES_IRMAAN = "takes_irmaan"
    """A removal that takes a stone of the opponent's irmaan (running jare)."""
    TAKES_THREAT = "takes_threat"
    """A removal that takes a stone from a line the opponent could close next."""
    STOPS_JARE = "stops_jare"
    """Fills the point where the opponent would close a jare (their line)."""
    HAARIG = "haarig"
    """Leaves the opponent no move (hārig, the rope)."""
    MAKES_IRMAAN = "makes_irmaan"
    """Builds a running jare: a stone that can shunt and close a jare every move."""
    FREES_SAFELY = "frees_safely"
    """A freeing move after which the freed player has no irmaan and no jare to close."""
    THREATENS_JARE = "threatens_jare"
    """Two on a line with the third point in reach: a jare next move."""
    KEEPS_BALANCE = "keeps_balance"
    """None of the above: the search's choice, for the position as a whole."""


@dataclass(frozen=True)
class Explanation:
    reason: Reason
    points: tuple[str, ...] = ()
    moves: int = 0
    """For the proven wins: in how many moves."""


def explain(position: Position, action: Action) -> Explanation:
    """The most telling reason ``action`` is good in ``position``."""
    return explanations(position, action)[0]


def explanations(position: Position, action: Action) -> list[Explanation]:
    """Every reason that holds for ``action`` (legal in ``position``), most telling first;
    the last is always :attr:`Reason.KEEPS_BALANCE`."""
    v = position.variant
    mover = Color(position.turn)
    after = position.play(action)
    found: list[Explanation] = []

    def add(reason: Reason, mask: int = 0) -> None:
        found.append(Explanation(reason, tuple(v.names(mask))))

    if after.outcome is not None and after.outcome.winner is mover:
        add(Reason.WINS, _action_mask(action))
    closed = lines_completed(position, action)
    if closed and position.step is not Step.FREE:
        if len(closed) >= 2:
            add(Reason.LABA_QAAD, closed[0] | closed[1])
        if position.phase is Phase.PLACEMENT:
            if v.family == "shax" and position.first_jare is None:
                add(Reason.FIRST_JARE, closed[0])
        else:
            add(Reason.CLOSES_JARE, closed[0])
    if len(position.legal_actions()) == 1:
        add(Reason.ONLY_ACTION, _action_mask(action))
    if action.kind is Kind.REMOVE:
        taken = 1 << action.dst
        for shuttle in irmaan(position, mover.other):
            if (1 << shuttle.stone | shuttle.standing | shuttle.forming) & taken:
                add(Reason.TAKES_IRMAAN, 1 << shuttle.stone | 1 << shuttle.empty)
                break
        for line, _ in threats(position, mover.other, as_if_to_move=True):
            if line & taken:
                add(Reason.TAKES_THREAT, line)
                break
    else:
        for line, point in threats(position, mover.other, as_if_to_move=True):
            if point == action.dst:
                add(Reason.STOPS_JARE, line)
                break
        if (
            after.outcome is None
            and after.blocked is mover.other
            and position.blocked is not mover.other
        ):
            add(Reason.HAARIG, _action_mask(action))
        if mover in irmaan_appeared(position, after):
            s = irmaan(after, mover)[0]
            add(Reason.MAKES_IRMAAN, 1 << s.stone | 1 << s.empty)
        if position.step is Step.FREE and after.outcome is None:
            freed = mover.other
            if not irmaan(after, freed) and not threats(after, freed, as_if_to_move=True):
                add(Reason.FREES_SAFELY, _action_mask(action))
        if after.outcome is None and not closed:
            old = {line for line, _ in threats(position, mover, as_if_to_move=True)}
            for line, _ in threats(after, mover, as_if_to_move=True):
                if line not in old and line & (1 << action.dst):
                    add(Reason.THREATENS_JARE, line)
                    break
    add(Reason.KEEPS_BALANCE)
    return found


def explain_assessed(
    position: Position, found: Assessment | MoveReview, action: str | None = None
) -> Explanation:
    """Why ``action`` (default: the best by ``found``, the scores of ``position``) is
    good: the game's end; else what the scores prove (the tables' win, or their draw
    where another action loses; the search's forced win), unless a win comes at once
    and a reason of :func:`explanations` says how; else the first of those reasons."""
    chosen = position.parse(action if action is not None else found.best)
    static = explanations(position, chosen)
    if static[0].reason is Reason.WINS:
        return static[0]
    notation = chosen.notation(position.variant)
    score = _score(found, notation)
    mask = tuple(position.variant.names(_action_mask(chosen)))
    moves = MATE - score if found.source == "table" else (MATE - score + 1) // 2
    if score > MATE_BOUND and (moves > 1 or static[0].reason is Reason.KEEPS_BALANCE):
        # A win at once is said best by what the move does (the jare it closes).
        reason = Reason.TABLE_WIN if found.source == "table" else Reason.FORCED_WIN
        return Explanation(reason, mask, moves)
    if found.source == "table" and score == 0 and _another_loses(found, notation):
        return Explanation(Reason.TABLE_DRAW, mask)
    return static[0]


def explain_turning_point(
    position: Position, r: MoveReview
) -> tuple[Explanation, Explanation | None]:
    """Why ``r``'s best action was better than the one played in ``position``: the best
    action's reason (:func:`explain_assessed`), and, when that is only the general
    phrase, what the opponent's best answer to the action played does (the jare it
    closes or threatens, the blockade it sets, the forced win it starts), if anything."""
    best = explain_assessed(position, r)
    if best.reason is not Reason.KEEPS_BALANCE or r.reply is None:
        return best, None
    after = position.play(position.parse(r.played))
    answer = explanations(after, after.parse(r.reply))[0]
    if answer.reason is Reason.KEEPS_BALANCE and r.after is not None and r.after < -MATE_BOUND:
        points = tuple(after.variant.names(_action_mask(after.parse(r.reply))))
        answer = Explanation(Reason.FORCED_WIN, points, (MATE + r.after + 1) // 2)
    return best, None if answer.reason is Reason.KEEPS_BALANCE else answer


def _score(found: Assessment | MoveReview, notation: str) -> int:
    if isinstance(found, Assessment):
        return found.score_of(notation)
    return found.best_score if notation == found.best else found.score


def _another_loses(found: Assessment | MoveReview, notation: str) -> bool:
    if isinstance(found, Assessment):
        return any(s < -MATE_BOUND for a, s in found.scores if a != notation)
    return found.played != notation and found.score < -MATE_BOUND


def threats(position: Position, color: Color, *, as_if_to_move: bool) -> list[tuple[int, int]]:
    """The lines ``color`` could complete with one action of theirs: ``(line, point)``
    with two of their stones on the line and ``point`` the empty third one.

    While placing, a threat counts only when a jare still matters (the first jare: it
    decides who removes first in shax, who moves first in jar) and they have a stone in
    hand; while moving, one of their
    stones off the line must stand next to ``point``. ``as_if_to_move`` asks about
    their next turn whoever is to act now.
    """
    v = position.variant
    own = position.stones(color)
    empty = position.empty
    if position.outcome is not None or (not as_if_to_move and position.turn != color.value):
        return []
    placing = position.phase is Phase.PLACEMENT and position.in_hand(color) > 0
    if placing and position.first_jare is not None:
        return []
    out = []
    for line in v.lines:
        if (own & line).bit_count() != 2 or not empty & line:
            continue
        point = (empty & line).bit_length() - 1
        if placing or (position.phase is not Phase.PLACEMENT and v.adjacent[point] & own & ~line):
            out.append((line, point))
    return out


def _action_mask(action: Action) -> int:
    mask = 1 << action.dst
    if action.kind is Kind.MOVE:
        mask |= 1 << action.src
    return mask
