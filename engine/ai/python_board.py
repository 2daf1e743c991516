"""The compiled core's bitboards, rules and evaluation in pure Python (``_core.c`` line
for line), for :mod:`engine.ai.python_search`.

It plays by the same rules on the same bitboards with the same evaluation, so that the
Python search visits the same nodes as the C one. Integer arithmetic follows C:
divisions truncate toward zero, keys are 64-bit.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.common import (
    FAMILY_JAR,
    FAMILY_SHAX,
    FSCALE,
    MATE,
    MATE_BOUND,
    MOVEMENT_FEATURES,
    NW,
    OUTCOME_BLACK,
    OUTCOME_DRAW,
    OUTCOME_NONE,
    OUTCOME_WHITE,
    PHASE_CODE,
    PLACEMENT_FEATURES,
    STEP_CODE,
    TERMINATIONS,
    decode_action,
    encode_action,
    node_position,
)
from engine.position import (
    MOVE_LIMIT,
    REPETITIONS,
    Action,
    Kind,
    Phase,
    Position,
    Step,
)
from engine.variants import Variant
from engine.verdicts import Termination

PLACEMENT, REMOVAL, MOVEMENT = (PHASE_CODE[p] for p in Phase)
S_PLACE, S_REMOVE, S_MOVE, S_FREE = (STEP_CODE[s] for s in Step)
K_PLACE, K_MOVE, K_REMOVE = (int(k) for k in Kind)
T_NONE = TERMINATIONS.index(None)
T_TWO = TERMINATIONS.index(Termination.TWO_PIECES)
T_THREE = TERMINATIONS.index(Termination.THREE_IN_A_ROW)
T_MUTUAL = TERMINATIONS.index(Termination.MUTUAL_BLOCKADE)
T_REP = TERMINATIONS.index(Termination.THREEFOLD_REPETITION)
T_LIMIT = TERMINATIONS.index(Termination.MOVE_LIMIT)

NM = len(MOVEMENT_FEATURES)
NP = len(PLACEMENT_FEATURES)
P_BASE = NM
P_EARLY = NM + NP
NF = NM + 2 * NP

M64 = (1 << 64) - 1


def _tdiv(a: int, b: int) -> int:
    """C's integer division (toward zero) for ``b > 0``."""
    q = abs(a) // b
    return q if a >= 0 else -q


def _byte_points(offset: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(8) if byte >> i & 1) for byte in range(256))


_POINTS0, _POINTS8, _POINTS16 = _byte_points(0), _byte_points(8), _byte_points(16)


def bits(s: int) -> tuple[int, ...]:
    """The points of a set (of at most 24), lowest first: three table look-ups."""
    return _POINTS0[s & 255] + _POINTS8[(s >> 8) & 255] + _POINTS16[s >> 16]


def ctz(x: int) -> int:
    return (x & -x).bit_length() - 1


def mix(k: int) -> int:
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & M64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & M64
    k ^= k >> 33
    return k


@dataclass(frozen=True)
class Board:
    """A variant's board as the search reads it (the C ``Board``)."""

    n: int
    family: int
    pieces: int
    all: int
    adj: tuple[int, ...]
    lines: tuple[int, ...]
    through: tuple[tuple[int, ...], ...]
    degree: tuple[int, ...]
    through_rest: tuple[tuple[tuple[int, int], ...], ...]
    """For each point, (line, the line without the point) of the lines through it."""

    @classmethod
    def of(cls, v: Variant) -> Board:
        return cls(
            v.size,
            FAMILY_SHAX if v.family == "shax" else FAMILY_JAR,
            v.pieces,
            v.all_points,
            tuple(v.adjacent),
            tuple(v.lines),
            tuple(tuple(t) for t in v.lines_through),
            tuple(m.bit_count() for m in v.adjacent),
            tuple(
                tuple((line, line & ~(1 << p)) for line in t) for p, t in enumerate(v.lines_through)
            ),
        )


_BOARDS: dict[str, Board] = {}


def board(v: Variant) -> Board:
    """The board of a variant (built once per process)."""
    b = _BOARDS.get(v.id)
    if b is None:
        b = _BOARDS[v.id] = Board.of(v)
    return b


class Node:
    """A position without its repetition history, which lives on the key stack:
    ``keys[hstart:hend]`` are the movement keys since the last removal."""

    __slots__ = (
        "bb",
        "clock",
        "first",
        "hand",
        "hend",
        "hstart",
        "outcome",
        "phase",
        "step",
        "term",
        "turn",
    )

    def __init__(
        self,
        bb: list[int],
        hand: list[int],
        turn: int,
        phase: int,
        step: int,
        first: int,
        outcome: int,
        term: int,
        clock: int,
        hstart: int,
        hend: int,
    ) -> None:
        self.bb = bb
        self.hand = hand
        self.turn = turn
        self.phase = phase
        self.step = step
        self.first = first
        self.outcome = outcome
        self.term = term
        self.clock = clock
        self.hstart = hstart
        self.hend = hend

    def copy(self) -> Node:
        return Node(
            self.bb[:],
            self.hand[:],
            self.turn,
            self.phase,
            self.step,
            self.first,
            self.outcome,
            self.term,
            self.clock,
            self.hstart,
            self.hend,
        )


# -- rules -------------------------------------------------------------------------


def forms(b: Board, own: int, p: int) -> bool:
    """Whether own stones fill a line through point ``p``."""
    for line in b.through[p]:  # noqa: SIM110 (a loop is faster than any() here)
        if own & line == line:
            return True
    return False


def reach(b: Board, points: int) -> int:
    """Points next to any point of a set."""
    adj = b.adj
    r = 0
    while points:
        low = points & -points
        r |= adj[low.bit_length() - 1]
        points ^= low
    return r


def mobile(b: Board, own: int, empty: int) -> bool:
    if empty.bit_count() <= own.bit_count():
        return reach(b, empty) & own != 0
    return reach(b, own) & empty != 0


def rep_key(b: Board, x: Node) -> int:
    n = b.n
    return x.bb[0] | x.bb[1] << n | x.turn << (2 * n)


def begin_turn(b: Board, x: Node, player: int, keys: list[int], counts: dict[int, int]) -> None:
    """The movement-phase position where ``player`` is due to move: the blockade, the
    repetition record and the draw rules (``engine.position._begin_turn``)."""
    empty = b.all & ~(x.bb[0] | x.bb[1])
    x.phase = MOVEMENT
    x.outcome = OUTCOME_NONE
    x.term = T_NONE
    if mobile(b, x.bb[player], empty):
        x.turn = player
        x.step = S_MOVE
    elif mobile(b, x.bb[1 - player], empty):
        x.turn = 1 - player
        x.step = S_FREE
    else:
        x.turn = player
        x.step = S_MOVE
        x.outcome = OUTCOME_DRAW
        x.term = T_MUTUAL
        return
    key = rep_key(b, x)
    count = 1
    if counts.get(key):
        for i in range(x.hstart, x.hend):
            count += keys[i] == key
    keys[x.hend] = key
    x.hend += 1
    counts[key] = counts.get(key, 0) + 1
    if count >= REPETITIONS:
        x.outcome = OUTCOME_DRAW
        x.term = T_REP
    elif x.clock >= MOVE_LIMIT:
        x.outcome = OUTCOME_DRAW
        x.term = T_LIMIT


def play(b: Board, p: Node, a: int, keys: list[int], counts: dict[int, int]) -> Node:
    """The node after a legal action (``engine.position.Position.play``)."""
    x = p.copy()
    kind, dst, t = a >> 10, a & 31, p.turn
    db = 1 << dst
    if kind == K_PLACE:
        x.bb[t] |= db
        x.hand[t] -= 1
        # A jare while placing captures and wins nothing: only the first one is kept.
        if x.first < 0 and forms(b, x.bb[t], dst):
            x.first = t
        if x.hand[0] or x.hand[1]:
            x.turn = 1 - t
            return x
        x.clock = 0
        x.hstart = x.hend
        # The first-jare player acts first (removes in shax, moves in jar), else black.
        if b.family == FAMILY_JAR:
            begin_turn(b, x, x.first if x.first >= 0 else 1, keys, counts)
            return x
        x.turn = x.first if x.first >= 0 else 1
        x.phase = REMOVAL
        x.step = S_REMOVE
        return x
    if kind == K_REMOVE:
        x.bb[1 - t] &= ~db
        x.clock = 0
        x.hstart = x.hend
        if p.phase == REMOVAL:
            remover = p.first if p.first >= 0 else 1
            if t == remover:
                x.turn = 1 - t
                return x
            begin_turn(b, x, remover, keys, counts)
            return x
        if x.bb[1 - t].bit_count() <= 2:
            x.phase = MOVEMENT
            x.step = S_REMOVE
            x.outcome = OUTCOME_BLACK if t else OUTCOME_WHITE
            x.term = T_TWO
            return x
        begin_turn(b, x, 1 - t, keys, counts)
        return x
    x.bb[t] ^= (1 << ((a >> 5) & 31)) | db
    x.clock = p.clock + 1
    if p.step != S_FREE and forms(b, x.bb[t], dst):
        x.phase = MOVEMENT
        if b.family == FAMILY_JAR:
            x.outcome = OUTCOME_BLACK if t else OUTCOME_WHITE
            x.term = T_THREE
            return x
        x.step = S_REMOVE
        return x
    begin_turn(b, x, 1 - t, keys, counts)
    return x


def _gen_moves(b: Board, own: int, empty: int, out: list[int]) -> None:
    adj = b.adj
    while own:
        low = own & -own
        s = low.bit_length() - 1
        own ^= low
        targets = adj[s] & empty
        while targets:
            tl = targets & -targets
            out.append(K_MOVE << 10 | s << 5 | (tl.bit_length() - 1))
            targets ^= tl


def gen(b: Board, x: Node) -> list[int]:
    """Every legal action, as codes (``Position.legal_actions``, in the same order)."""
    out: list[int] = []
    if x.outcome:
        return out
    t = x.turn
    empty = b.all & ~(x.bb[0] | x.bb[1])
    if x.step == S_PLACE:
        return [K_PLACE << 10 | p for p in bits(empty)]
    if x.step == S_REMOVE:
        return [K_REMOVE << 10 | p for p in bits(x.bb[1 - t])]
    if x.step == S_FREE:
        # Only stones next to a blocked stone free it, by vacating their point.
        _gen_moves(b, x.bb[t] & reach(b, x.bb[1 - t]), empty, out)
        if out:
            return out
    _gen_moves(b, x.bb[t], empty, out)
    return out


# -- evaluation --------------------------------------------------------------------


def _side_info(b: Board, bb: list[int]) -> list[list[int]]:
    """Both sides' [mob, threats, twos, irmaan, jares_open, stuck, threat_points]."""
    s = [[0] * 7, [0] * 7]
    occ = bb[0] | bb[1]
    empty = b.all & ~occ
    near = 0
    full = [0, 0]
    for line in b.lines:
        if bb[0] & line == line:
            full[0] |= line
        elif bb[1] & line == line:
            full[1] |= line
    adj, through_rest = b.adj, b.through_rest
    b0, b1 = bb
    s0, s1 = s
    full0, full1 = full
    for e in bits(empty):
        ae = adj[e]
        eb = 1 << e
        near |= ae
        s0[0] += (ae & b0).bit_count()
        s1[0] += (ae & b1).bit_count()
        for line, rest in through_rest[e]:
            if rest & b0 == rest:
                if ae & b0 & ~line:
                    s0[1] += 1
                    s0[6] |= eb
                else:
                    s0[2] += 1
            elif rest & b1 == rest:
                if ae & b1 & ~line:
                    s1[1] += 1
                    s1[6] |= eb
                else:
                    s1[2] += 1
        # A stone of a full jare steps to e and closes another line: a running jare.
        if ae & full0:
            for p in bits(ae & full0):
                if forms(b, (b0 & ~(1 << p)) | eb, e):
                    s0[3] += 1
        if ae & full1:
            for p in bits(ae & full1):
                if forms(b, (b1 & ~(1 << p)) | eb, e):
                    s1[3] += 1
    nfull = [0, 0]
    if full[0] | full[1]:
        for line in b.lines:
            if full[0] & line == line and near & line:
                nfull[0] += 1
            elif full[1] & line == line and near & line:
                nfull[1] += 1
    for c in (0, 1):
        s[c][4] = nfull[c]
        s[c][5] = (bb[c] & ~near).bit_count()
    return s


def _movement_features(b: Board, x: Node) -> list[int]:
    me = x.turn
    own, opp = x.bb[me], x.bb[1 - me]
    si = _side_info(b, x.bb)
    a, o = si[me], si[1 - me]
    na, nb = own.bit_count(), opp.bit_count()
    unblockable = sum(1 for t in bits(o[6]) if b.adj[t] & own == 0)
    return [
        na - nb,
        a[0] - o[0],
        int(o[0] == 0) - int(a[0] == 0),
        a[5] - o[5],
        a[1] - o[1],
        int(x.step == S_MOVE and a[1] > 0),
        unblockable,
        int(o[6].bit_count() >= 2),
        a[2] - o[2],
        a[3] - o[3],
        a[4] - o[4],
        (5 - nb if nb < 5 else 0) - (5 - na if na < 5 else 0),
        int(x.step == S_FREE),
        int(a[6].bit_count() >= 2),
    ]


def _place_info(b: Board, own: int, opp: int) -> list[int]:
    """[two_open, two_blocked, jare, deg3, deg4, lib, fork, pairs, two_points]."""
    two_open = two_blocked = jare = deg3 = deg4 = lib = fork = pairs = two_points = 0
    empty = b.all & ~(own | opp)
    adj = b.adj
    for line in b.lines:
        lo, lp = line & own, line & opp
        no = lo.bit_count()
        if no == 3:
            jare += 1
        elif no == 2:
            if not lp:
                two_open += 1
                two_points |= line & empty
            elif adj[ctz(lp)] & own & ~line:
                # Two and an opponent stone that, once removed, a neighbour of mine could
                # replace: a capture waiting for the opening removal.
                two_blocked += 1
    for p in bits(own):
        d = b.degree[p]
        deg3 += d == 3
        deg4 += d >= 4
        lib += (adj[p] & ~opp).bit_count()
        pairs += (adj[p] & own).bit_count()
    pairs //= 2
    for p in bits(empty):
        lines_with_one = 0
        for line in b.through[p]:
            if (line & own).bit_count() == 1 and line & opp == 0:
                lines_with_one += 1
        if lines_with_one >= 2:
            fork += 1
    return [two_open, two_blocked, jare, deg3, deg4, lib, fork, pairs, two_points]


def _placement_features(b: Board, x: Node) -> list[int]:
    me = x.turn
    a = _place_info(b, x.bb[me], x.bb[1 - me])
    o = _place_info(b, x.bb[1 - me], x.bb[me])
    first = 0 if x.first < 0 else 1 if x.first == me else -1
    return [
        first,
        int(x.first < 0 and a[8] != 0),
        int(x.first < 0 and a[8] == 0 and o[8].bit_count() >= 2),
        a[0] - o[0],
        a[1] - o[1],
        a[2] - o[2],
        a[3] - o[3],
        a[4] - o[4],
        a[5] - o[5],
        a[6] - o[6],
        1,
        a[7] - o[7],
    ]


def node_features(b: Board, x: Node) -> list[int]:
    """The feature vector (``NF`` long, zeros where a phase does not apply), scaled so that
    ``eval == sum(W[i] * f[i]) / FSCALE``."""
    f = [0] * NF
    if x.phase == PLACEMENT:
        n = b.n
        e = (b.all & ~(x.bb[0] | x.bb[1])).bit_count()
        for i, v in enumerate(_placement_features(b, x)):
            # Taper: late weights count fully on a full board, early ones on an empty one.
            f[P_BASE + i] = _tdiv(v * (n - e) * FSCALE, n)
            f[P_EARLY + i] = _tdiv(v * e * FSCALE, n)
        return f
    for i, v in enumerate(_movement_features(b, x)):
        f[i] = v * FSCALE
    return f


def node_evaluate(b: Board, x: Node, weights: Sequence[int]) -> int:
    if b.family == FAMILY_JAR and x.step == S_MOVE:
        # Forming a line by a move wins: a line of two that the player due to move can
        # complete with a stone from off the line is decisive (not while placing, where a
        # line wins nothing, nor for a freeing move, which never wins).
        me = x.turn
        own, opp = x.bb[me], x.bb[1 - me]
        empty = b.all & ~(own | opp)
        for line in b.lines:
            if (
                (line & own).bit_count() == 2
                and line & empty
                and b.adj[ctz(line & empty)] & own & ~line
            ):
                return MATE_BOUND - 100
    if x.phase == PLACEMENT:
        f = node_features(b, x)
        v = _tdiv(sum(map(operator.mul, weights[NM:NF], f[NM:NF])), FSCALE)
    else:
        # Movement features are whole multiples of FSCALE: the division is exact.
        v = sum(map(operator.mul, weights, _movement_features(b, x)))
    return max(-20000, min(20000, v))


def terminal_score(x: Node, ply: int) -> int:
    if x.outcome == OUTCOME_DRAW:
        return 0
    winner = 0 if x.outcome == OUTCOME_WHITE else 1
    return MATE - ply if winner == x.turn else -(MATE - ply)


# -- positions ---------------------------------------------------------------------


def node_of(position: Position) -> tuple[Node, list[int]]:
    """The node of a position and its repetition history."""
    outcome, term = OUTCOME_NONE, T_NONE
    if position.outcome is not None:
        winner = position.outcome.winner
        outcome = OUTCOME_DRAW if winner is None else OUTCOME_WHITE + winner.value
        term = TERMINATIONS.index(position.outcome.termination)
    history = list(position.history)
    node = Node(
        [position.white, position.black],
        list(position.hand),
        position.turn,
        PHASE_CODE[position.phase],
        STEP_CODE[position.step],
        position.first_jare_index,
        outcome,
        term,
        position.clock,
        0,
        len(history),
    )
    return node, history


def legal_actions(position: Position) -> list[Action]:
    """The legal actions as this module generates them (checked against the engine)."""
    node, _ = node_of(position)
    return [decode_action(a) for a in gen(board(position.variant), node)]


def play_action(position: Position, action: Action) -> Position:
    """The position after ``action`` according to this module (checked against the engine)."""
    v = position.variant
    node, history = node_of(position)
    keys = [*history, 0]
    counts: dict[int, int] = {}
    for k in history:
        counts[k] = counts.get(k, 0) + 1
    out = play(board(v), node, encode_action(action), keys, counts)
    return node_position(v, out, keys)


def evaluate(position: Position, weights: Sequence[int]) -> int:
    """The static evaluation (weights in the order of ``WEIGHT_NAMES``), from the point of
    view of the player to act."""
    node, _ = node_of(position)
    if node.outcome:
        return terminal_score(node, 0)
    return node_evaluate(board(position.variant), node, [*weights, *[0] * (NW - len(weights))])


def features(position: Position) -> list[int]:
    """The evaluation's features, in the order of ``WEIGHT_NAMES`` (``NF`` of them)."""
    node, _ = node_of(position)
    return node_features(board(position.variant), node)
