"""The game's named moments (RULES.md, "Names players use"), found in positions.

Pure functions of positions and actions; the words for them are the bot's. A moment
belongs to the player who acted, except an irmaan, which belongs to whoever has it:

* **irmaan** — a running jare (:func:`irmaan`): a stone can shunt between two
  adjacent points and form a jare on every move, and the opponent has no stone next
  to either point, so nothing can step into the point the stone leaves. Precisely,
  for own stone on ``p`` and empty adjacent ``q``: a line through ``p`` but not
  ``q`` is all own stones (the jare standing now), a line through ``q`` but not
  ``p`` is all own stones but ``q`` (the jare the shunt forms), and no opponent
  stone is adjacent to ``p`` or ``q``. Moving out of a jare and back re-forms it
  only every second move: that alone is not an irmaan. The moment
  (:func:`irmaan_appeared`) is a player who has an irmaan after an action and had
  none before it, whoever acted: their own move or capture, the opponent's move
  that takes the only blocker away, or the second opening removal, which begins the
  movement with an irmaan ready. A player who already has one is not announced
  again, however the stone shunts (a stone with two points to shunt to included).
  Only in the movement phase, and not once the game is over.
* **laba-qaad** — two jare at once: one action completes two lines. Only a
  placement can do it (a step along a line leaves that line, on these boards every
  point lies on at most two lines, and the joins of shax-small lead to points on one
  line only), so it is a shax placement moment; it captures nothing, like every jare
  while placing.
* **haarig** (hārig, hādig: "rope") — the blockade: the action leaves the opponent
  with no move, so the actor must now open a way ("jid i sii aan jar aheyn").
  Announced when it begins, not again while it lasts.
* **oodan** — closed: a freeing move that completes a jare, which captures nothing.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from engine.position import Action, Kind, Phase, Position, Step
from engine.variants import Color, iter_bits


class Moment(Enum):
    IRMAAN = "irmaan"
    LABA_QAAD = "laba-qaad"
    HAARIG = "haarig"
    OODAN = "oodan"


class Shuttle(NamedTuple):
    """One irmaan: the stone on ``stone`` shunts to the empty adjacent ``empty`` and back.

    ``standing`` is the jare the stone completes where it is (a line mask); ``forming``
    the one it completes on ``empty``.
    """

    stone: int
    empty: int
    standing: int
    forming: int


def irmaan(position: Position, color: Color) -> list[Shuttle]:
    """Every irmaan of ``color`` on the board, in point order."""
    v = position.variant
    own = position.stones(color)
    opp = position.stones(color.other)
    empty = position.empty
    adjacent = v.adjacent
    found = []
    for p in iter_bits(own):
        if adjacent[p] & opp:
            continue
        for q in iter_bits(adjacent[p] & empty):
            if adjacent[q] & opp:
                continue
            p_bit, q_bit = 1 << p, 1 << q
            standing = [
                line for line in v.lines_through[p] if not line & q_bit and own & line == line
            ]
            forming = [
                line
                for line in v.lines_through[q]
                if not line & p_bit and own & line == line & ~q_bit
            ]
            found += [Shuttle(p, q, s, f) for s in standing for f in forming]
    return found


def lines_completed(position: Position, action: Action) -> list[int]:
    """The lines of three a placement or move completes for the player to act."""
    if action.kind is Kind.REMOVE:
        return []
    own = position.stones(position.turn)
    if action.kind is Kind.MOVE:
        own &= ~(1 << action.src)
    own |= 1 << action.dst
    return [line for line in position.variant.lines_through[action.dst] if own & line == line]


def has_irmaan(position: Position, color: Color) -> bool:
    """Whether ``color`` has an irmaan now: only in the movement phase, before the end."""
    return (
        position.phase is Phase.MOVEMENT
        and position.outcome is None
        and bool(irmaan(position, color))
    )


def irmaan_appeared(before: Position, after: Position) -> tuple[Color, ...]:
    """The players who have an irmaan in ``after`` and had none in ``before``, whoever
    took the action between them (white first)."""
    return tuple(c for c in Color if has_irmaan(after, c) and not has_irmaan(before, c))


def moments_after(before: Position, action: Action, after: Position) -> frozenset[Moment]:
    """The named moments the player who took ``action`` in ``before`` made (``after``
    is the position it led to). :attr:`Moment.IRMAAN` is there when that player now has
    an irmaan; the opponent's new irmaan is :func:`irmaan_appeared`'s."""
    mover = Color(before.turn)
    found = set()
    lines = lines_completed(before, action)
    if len(lines) >= 2:
        found.add(Moment.LABA_QAAD)
    if lines and before.step is Step.FREE:
        found.add(Moment.OODAN)
    if after.blocked is mover.other and before.blocked is not mover.other:
        found.add(Moment.HAARIG)
    if mover in irmaan_appeared(before, after):
        found.add(Moment.IRMAAN)
    return frozenset(found)
