"""What the compiled core (``_core.c``) and the Python search (:mod:`engine.ai.python_search`)
share, written down once on the Python side: sizes, scores, the codes of phases, steps,
outcomes and terminations, the evaluation's weight names, the action code, and the answer
of a search. ``tests/engine/ai/test_constants.py`` reads the same names from ``_core.c``
and checks that they agree."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.position import Action, Kind, Phase, Position, Step
from engine.variants import Color, Variant
from engine.verdicts import Outcome, Termination

MAXP = 24
"""Points of the largest board."""
MAXLINES = 16
MAXTHROUGH = 4
"""Lines through one point, at most."""
MAXMOVES = 96
"""Legal actions of one position, at most."""
NW = 48
"""Room for evaluation weights (``len(WEIGHT_NAMES)`` of them are used)."""
MATE = 30000
"""A win in n plies scores ``MATE - n``."""
MATE_BOUND = 29000
"""Scores beyond this are forced results."""
INF = 32000
FSCALE = 24
"""``evaluate == sum(weight * feature) // FSCALE`` (features are scaled integers)."""
MAXPLY = 160
KEYSTACK = 640
RFP_MARGIN = 60
"""Centi-stones a ply by which the evaluation of a position where a stone is placed or
moved must beat beta for it to be cut."""
RFP_DEPTH = 3
"""Plies from the horizon, at most, where a position is cut on its evaluation."""
IIR_DEPTH = 5
"""Plies, at least, at which a node with no table entry is searched a ply shallower."""
LMP_DEPTH = 3
"""Plies from the horizon, at most, where late quiet moves are not searched."""

FAMILY_SHAX = 0
FAMILY_JAR = 1

PHASES = (Phase.PLACEMENT, Phase.REMOVAL, Phase.MOVEMENT)
"""Phases in the order of their codes."""
STEPS = (Step.PLACE, Step.REMOVE, Step.MOVE, Step.FREE)
"""Steps in the order of their codes."""
TERMINATIONS = (
    None,
    Termination.TWO_PIECES,
    Termination.THREE_IN_A_ROW,
    Termination.MUTUAL_BLOCKADE,
    Termination.THREEFOLD_REPETITION,
    Termination.MOVE_LIMIT,
)
"""Terminations in the order of their codes (0: the game goes on)."""
PHASE_CODE = {p: i for i, p in enumerate(PHASES)}
STEP_CODE = {s: i for i, s in enumerate(STEPS)}

OUTCOME_NONE = 0
OUTCOME_WHITE = 1
"""White won (``OUTCOME_WHITE + colour`` is the code of that colour's win)."""
OUTCOME_BLACK = 2
OUTCOME_DRAW = 3

MOVEMENT_FEATURES: tuple[str, ...] = (
    "mat",
    "mob",
    "blocked",
    "stuck",
    "threat",
    "threat_tomove",
    "opp_unblockable",
    "opp_double",
    "two",
    "irmaan",
    "jare_open",
    "few",
    "freeing",
    "own_double",
)
PLACEMENT_FEATURES: tuple[str, ...] = (
    "first",
    "first_now",
    "first_lost",
    "two_open",
    "two_blocked",
    "jare",
    "deg3",
    "deg4",
    "lib",
    "fork",
    "tempo",
    "pairs",
)
WEIGHT_NAMES: tuple[str, ...] = (
    *MOVEMENT_FEATURES,
    *(f"p_{n}" for n in PLACEMENT_FEATURES),
    *(f"p_early_{n}" for n in PLACEMENT_FEATURES),
)
"""The evaluation weights, in the order of the ``M_*`` then ``P_*`` features of ``_core.c``
(the placement ones twice: for a full board, then for an empty one)."""


def encode_action(action: Action) -> int:
    """The 12-bit code of an action: ``kind << 10 | src << 5 | dst``."""
    src = action.src if action.kind is Kind.MOVE else 0
    return int(action.kind) << 10 | src << 5 | action.dst


def decode_action(code: int) -> Action:
    kind = Kind(code >> 10)
    if kind is Kind.MOVE:
        return Action(kind, code & 31, (code >> 5) & 31)
    return Action(kind, code & 31)


@dataclass(frozen=True)
class CoreSearch:
    """What a search found: the best action, and every root action's score."""

    action: Action
    score: int
    depth: int
    nodes: int
    seldepth: int
    stopped: bool
    root: tuple[tuple[Action, int], ...]
    """Root actions, best first, with their scores at the last completed depth."""


class NodeFields(Protocol):
    """A node of either search (``CoreNode`` of the compiled core, ``Node`` of Python's)."""

    @property
    def bb(self) -> Sequence[int]: ...
    @property
    def hand(self) -> Sequence[int]: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def step(self) -> int: ...
    @property
    def first(self) -> int: ...
    @property
    def clock(self) -> int: ...
    @property
    def hstart(self) -> int: ...
    @property
    def hend(self) -> int: ...
    @property
    def outcome(self) -> int: ...
    @property
    def term(self) -> int: ...


def node_position(v: Variant, out: NodeFields, keys: Sequence[int]) -> Position:
    """The engine's position for a search node, its history read from ``keys``."""
    outcome = None
    if out.outcome:
        winner = None if out.outcome == OUTCOME_DRAW else Color(out.outcome - OUTCOME_WHITE)
        termination = TERMINATIONS[out.term]
        assert termination is not None
        outcome = Outcome(winner, termination)
    return Position(
        v,
        out.bb[0],
        out.bb[1],
        (out.hand[0], out.hand[1]),
        out.turn,
        PHASES[out.phase],
        STEPS[out.step],
        out.first,
        out.clock,
        tuple(keys[out.hstart : out.hend]),
        outcome,
    )
