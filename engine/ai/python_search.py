"""The AI's search in pure Python: the compiled core (``_core.c``) line for line.

Used when the compiled core cannot be built (no C compiler) or when
``SHAX_AI_BACKEND=python`` asks for it. It plays by the same rules on the same bitboards,
with the same evaluation, move ordering, reductions and transposition table (two entries
per bucket, the same hash), so a search without a time limit visits the same nodes and
returns the same action and score as the C one (``tests/engine/ai/test_python_search.py``).
It is tens of times slower (benchmarks/bench_python_search.py), so in a level's time
budget it searches less deep.

Integer arithmetic follows C: divisions truncate toward zero, keys are 64-bit.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.common import (
    FAMILY_JAR,
    FAMILY_SHAX,
    FSCALE,
    INF,
    KEYSTACK,
    MATE,
    MATE_BOUND,
    MAXPLY,
    MOVEMENT_FEATURES,
    NW,
    OUTCOME_BLACK,
    OUTCOME_DRAW,
    OUTCOME_NONE,
    OUTCOME_WHITE,
    PHASE_CODE,
    PHASES,
    PLACEMENT_FEATURES,
    STEP_CODE,
    STEPS,
    TERMINATIONS,
    CoreSearch,
    decode_action,
    encode_action,
)
from engine.position import (
    MOVE_LIMIT,
    REPETITIONS,
    Action,
    Kind,
    Outcome,
    Phase,
    Position,
    Step,
    Termination,
)
from engine.variants import Color, Variant

PLACEMENT, REMOVAL, MOVEMENT = (PHASE_CODE[p] for p in Phase)
S_PLACE, S_REMOVE, S_MOVE, S_FREE = (STEP_CODE[s] for s in Step)
K_PLACE, K_MOVE, K_REMOVE = (int(k) for k in Kind)
T_NONE = TERMINATIONS.index(None)
T_TWO = TERMINATIONS.index(Termination.TWO_PIECES)
T_THREE = TERMINATIONS.index(Termination.THREE_IN_A_ROW)
T_MUTUAL = TERMINATIONS.index(Termination.MUTUAL_BLOCKADE)
T_REP = TERMINATIONS.index(Termination.THREEFOLD_REPETITION)
T_LIMIT = TERMINATIONS.index(Termination.MOVE_LIMIT)
TT_NONE, TT_EXACT, TT_LOWER, TT_UPPER = 0, 1, 2, 3
"""Kinds of transposition-table entries (as the C core's ``TT_*``)."""

NM = len(MOVEMENT_FEATURES)
NP = len(PLACEMENT_FEATURES)
P_BASE = NM
P_EARLY = NM + NP
NF = NM + 2 * NP

M64 = (1 << 64) - 1
TIME_CHECK_MASK = 255
"""The clock is read every 256 nodes (the C core: every 1024, being faster)."""


def _tdiv(a: int, b: int) -> int:
    """C's integer division (toward zero) for ``b > 0``."""
    q = abs(a) // b
    return q if a >= 0 else -q


def _byte_points(offset: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(8) if byte >> i & 1) for byte in range(256))


_POINTS0, _POINTS8, _POINTS16 = _byte_points(0), _byte_points(8), _byte_points(16)


def _bits(s: int) -> tuple[int, ...]:
    """The points of a set (of at most 24), lowest first: three table look-ups."""
    return _POINTS0[s & 255] + _POINTS8[(s >> 8) & 255] + _POINTS16[s >> 16]


def _ctz(x: int) -> int:
    return (x & -x).bit_length() - 1


def _mix(k: int) -> int:
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
        if forms(b, x.bb[t], dst):
            if b.family == FAMILY_JAR:
                x.outcome = OUTCOME_BLACK if t else OUTCOME_WHITE
                x.term = T_THREE
                return x
            if x.first < 0:
                x.first = t
        if x.hand[0] or x.hand[1]:
            x.turn = 1 - t
            return x
        x.clock = 0
        x.hstart = x.hend
        if b.family == FAMILY_JAR:
            begin_turn(b, x, 0, keys, counts)
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
        return [K_PLACE << 10 | p for p in _bits(empty)]
    if x.step == S_REMOVE:
        return [K_REMOVE << 10 | p for p in _bits(x.bb[1 - t])]
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
    for e in _bits(empty):
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
            for p in _bits(ae & full0):
                if forms(b, (b0 & ~(1 << p)) | eb, e):
                    s0[3] += 1
        if ae & full1:
            for p in _bits(ae & full1):
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
    unblockable = sum(1 for t in _bits(o[6]) if b.adj[t] & own == 0)
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
            elif adj[_ctz(lp)] & own & ~line:
                # Two and an opponent stone that, once removed, a neighbour of mine could
                # replace: a capture waiting for the opening removal.
                two_blocked += 1
    for p in _bits(own):
        d = b.degree[p]
        deg3 += d == 3
        deg4 += d >= 4
        lib += (adj[p] & ~opp).bit_count()
        pairs += (adj[p] & own).bit_count()
    pairs //= 2
    for p in _bits(empty):
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
    if b.family == FAMILY_JAR:
        # Closing a line wins: a line of two the player to act can complete is decisive.
        me = x.turn
        own, opp = x.bb[me], x.bb[1 - me]
        empty = b.all & ~(own | opp)
        for line in b.lines:
            if (line & own).bit_count() == 2 and line & empty:
                if x.phase == PLACEMENT:
                    return MATE_BOUND - 100
                if x.step == S_MOVE and b.adj[_ctz(line & empty)] & own & ~line:
                    return MATE_BOUND - 100
    if x.phase == PLACEMENT:
        f = node_features(b, x)
        v = _tdiv(sum(map(operator.mul, weights[NM:NF], f[NM:NF])), FSCALE)
    else:
        # Movement features are whole multiples of FSCALE: the division is exact.
        v = sum(map(operator.mul, weights, _movement_features(b, x)))
    return max(-20000, min(20000, v))


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


def evaluate(position: Position, weights: Sequence[int]) -> int:
    """The static evaluation (weights in the order of ``WEIGHT_NAMES``), from the point of
    view of the player to act."""
    node, _ = node_of(position)
    if node.outcome:
        return _terminal_score(node, 0)
    return node_evaluate(board(position.variant), node, [*weights, *[0] * (NW - len(weights))])


def features(position: Position) -> list[int]:
    """The evaluation's features, in the order of ``WEIGHT_NAMES`` (``NF`` of them)."""
    node, _ = node_of(position)
    return node_features(board(position.variant), node)


# -- search ------------------------------------------------------------------------


def _terminal_score(x: Node, ply: int) -> int:
    if x.outcome == OUTCOME_DRAW:
        return 0
    winner = 0 if x.outcome == OUTCOME_WHITE else 1
    return MATE - ply if winner == x.turn else -(MATE - ply)


def _tt_key(x: Node) -> int:
    first = 0 if x.phase == MOVEMENT else x.first + 1
    return x.bb[0] | x.bb[1] << 24 | x.turn << 48 | x.step << 49 | x.phase << 51 | first << 53


def _to_tt(s: int, ply: int) -> int:
    if s > MATE_BOUND:
        return s + ply
    if s < -MATE_BOUND:
        return s - ply
    return s


def _from_tt(s: int, ply: int) -> int:
    if s > MATE_BOUND:
        return s - ply
    if s < -MATE_BOUND:
        return s + ply
    return s


def _pick(moves: list[int], sc: list[int], n: int, i: int) -> None:
    """Swap the best-scored of ``moves[i:]`` to ``i`` (the first of equals, as in C)."""
    best = i
    top = sc[i]
    for j in range(i + 1, n):
        if sc[j] > top:
            best = j
            top = sc[j]
    if best != i:
        moves[i], moves[best] = moves[best], moves[i]
        sc[i], sc[best] = sc[best], sc[i]


TTEntry = tuple[int, int, int, int, int]
"""(key, score, move, depth, flag)"""


class _Search:
    """One search's state (the C ``Ctx``)."""

    def __init__(
        self,
        b: Board,
        weights: Sequence[int],
        tt_log2: int,
        tt_min_depth: int,
        deadline: float | None,
    ) -> None:
        self.b = b
        self.w = list(weights)
        self.keys = [0] * KEYSTACK
        self.counts: dict[int, int] = {}
        self.path_start = 0
        self.tt0: dict[int, TTEntry] = {}
        self.tt1: dict[int, TTEntry] = {}
        self.ttmask = (1 << tt_log2) - 1
        self.tt_min_depth = tt_min_depth
        self.nodes = 0
        self.use_time = deadline is not None
        self.deadline = deadline if deadline is not None else 0.0
        self.stop = False
        self.seldepth = 0
        self.killers = [[0, 0] for _ in range(MAXPLY)]
        self.hist = [[0] * 4096, [0] * 4096]
        self.evals: dict[int, int] = {}

    def check_time(self) -> None:
        if (
            self.use_time
            and self.nodes & TIME_CHECK_MASK == 0
            and time.perf_counter() > self.deadline
        ):
            self.stop = True

    def unpush(self, x: Node, ch: Node) -> None:
        """After play(): forget the key the child pushed."""
        if ch.hend > x.hend:
            self.counts[self.keys[x.hend]] -= 1

    def path_repeats(self, x: Node) -> bool:
        """A draw by repetition inside the search: this position already occurred on the path."""
        if x.phase != MOVEMENT or x.step == S_REMOVE or x.hend <= 0:
            return False
        keys = self.keys
        key = keys[x.hend - 1]
        if self.counts.get(key, 0) < 2:
            return False
        lo = max(x.hstart, self.path_start)
        return any(keys[i] == key for i in range(x.hend - 2, lo - 1, -1))

    def cached_eval(self, x: Node) -> int:
        key = _tt_key(x)
        v = self.evals.get(key)
        if v is None:
            v = self.evals[key] = node_evaluate(self.b, x, self.w)
        return v

    def tt_probe(self, key: int) -> TTEntry | None:
        i = _mix(key) & self.ttmask
        e = self.tt0.get(i)
        if e is not None and e[0] == key:
            return e
        e = self.tt1.get(i)
        if e is not None and e[0] == key:
            return e
        return None

    def tt_store(self, key: int, depth: int, flag: int, score: int, move: int, ply: int) -> None:
        i = _mix(key) & self.ttmask
        b0 = self.tt0.get(i)
        table = self.tt0 if b0 is None or b0[0] == key or depth >= b0[3] else self.tt1
        e = table.get(i)
        if e is not None and e[0] == key and move == 0:
            move = e[2]
        table[i] = (key, _to_tt(score, ply), move, min(depth, 127), flag)

    def score_removals(self, x: Node, moves: list[int], sc: list[int]) -> None:
        """Ordering score of each opponent stone for a removal."""
        b = self.b
        t = x.turn
        own, opp = x.bb[t], x.bb[1 - t]
        empty = b.all & ~(own | opp)
        own_reach = reach(b, own)
        hist = self.hist[t]
        adj = b.adj
        for i, a in enumerate(moves):
            p = a & 31
            pb = 1 << p
            s = 0
            for line in b.through[p]:
                no = (line & opp).bit_count()
                ne = (line & empty).bit_count()
                if no == 2 and ne == 1:
                    e = _ctz(line & empty)
                    s += 400 if adj[e] & opp & ~line else 80  # breaks a threat
                elif no == 3:
                    s += 250 if reach(b, line) & empty else 60  # breaks a jare that can reopen
                # Emptying p: do I then close a jare by stepping into it?
                rest = line & ~pb
                if rest & own == rest and adj[p] & own & ~line:
                    s += 300
            s += 30 * (adj[p] & empty).bit_count()  # a mobile stone
            s += 10 * (adj[p] & own_reach).bit_count()  # it guards points near mine
            s += hist[a & 4095] >> 4
            sc[i] = s

    def score_actions(self, x: Node, moves: list[int], sc: list[int], ttm: int, ply: int) -> None:
        b = self.b
        if x.step == S_REMOVE:
            self.score_removals(x, moves, sc)
        else:
            t = x.turn
            own, opp = x.bb[t], x.bb[1 - t]
            empty = b.all & ~(own | opp)
            # Points where the opponent would complete a line.
            opp_two = 0
            for e in _bits(empty):
                eb = 1 << e
                for line in b.through[e]:
                    rest = line & ~eb
                    if rest & opp == rest:
                        opp_two |= eb
            capture_ok = x.step != S_FREE
            placing = x.step == S_PLACE
            place_jare = 200000 if x.first < 0 or b.family == FAMILY_JAR else 3000
            k0, k1 = self.killers[ply]
            hist = self.hist[t]
            for i, a in enumerate(moves):
                dst = a & 31
                s = 0
                after = own | (1 << dst)
                if a >> 10 == K_MOVE:
                    after &= ~(1 << ((a >> 5) & 31))
                if forms(b, after, dst):
                    if placing:
                        s += place_jare
                    elif capture_ok:
                        s += 200000
                if opp_two >> dst & 1:
                    s += 50000
                if a == k0:
                    s += 40000
                elif a == k1:
                    s += 39000
                s += hist[a & 4095]
                if placing:
                    s += 20 * b.degree[dst]
                sc[i] = s
        if ttm:
            for i, a in enumerate(moves):
                if a == ttm:
                    sc[i] = 1 << 29

    def qsearch(self, x: Node, alpha: int, beta: int, ply: int, qd: int) -> int:
        self.nodes += 1
        self.check_time()
        if self.stop:
            return 0
        if x.outcome:
            return _terminal_score(x, ply)
        if ply > self.seldepth:
            self.seldepth = ply
        if self.path_repeats(x):
            return 0
        b = self.b
        if x.step == S_REMOVE:
            moves = gen(b, x)
            n = len(moves)
            sc = [0] * n
            best = -INF
            self.score_removals(x, moves, sc)
        else:
            stand = self.cached_eval(x)
            if ply >= MAXPLY - 2 or qd >= 8:
                return stand
            if stand >= beta:
                return stand
            if stand > alpha:
                alpha = stand
            best = stand
            if x.step != S_MOVE:
                return stand  # placement and freeing moves: no captures
            # Only moves that close a jare.
            t = x.turn
            own = x.bb[t]
            empty = b.all & ~(x.bb[0] | x.bb[1])
            moves = []
            for e in _bits(empty):
                for s in _bits(b.adj[e] & own):
                    if forms(b, (own & ~(1 << s)) | (1 << e), e):
                        moves.append(K_MOVE << 10 | s << 5 | e)
            n = len(moves)
            if n == 0:
                return stand
            sc = [0] * n
        keys, counts = self.keys, self.counts
        for i in range(n):
            _pick(moves, sc, n, i)
            ch = play(b, x, moves[i], keys, counts)
            if ch.turn == x.turn:
                v = self.qsearch(ch, alpha, beta, ply + 1, qd + 1)
            else:
                v = -self.qsearch(ch, -beta, -alpha, ply + 1, qd + 1)
            self.unpush(x, ch)
            if self.stop:
                return 0
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        return best

    def search(self, x: Node, depth: int, alpha: int, beta: int, ply: int) -> int:
        if x.outcome:
            self.nodes += 1
            return _terminal_score(x, ply)
        if ply > 0 and self.path_repeats(x):
            self.nodes += 1
            return 0
        if depth <= 0 or ply >= MAXPLY - 4:
            return self.qsearch(x, alpha, beta, ply, 0)
        self.nodes += 1
        self.check_time()
        if self.stop:
            return 0
        b = self.b
        # Mate distance pruning.
        mate_hi = MATE - ply - 1
        if beta > mate_hi:
            beta = mate_hi
            if alpha >= beta:
                return beta
        key = _tt_key(x)
        use_tt = depth >= self.tt_min_depth
        e = self.tt_probe(key) if use_tt else None
        ttm = 0
        if e is not None:
            ttm = e[2]
            if e[3] >= depth and ply > 0:
                s = _from_tt(e[1], ply)
                flag = e[4]
                if flag == TT_EXACT:
                    return s
                if flag == TT_LOWER and s >= beta:
                    return s
                if flag == TT_UPPER and s <= alpha:
                    return s
        moves = gen(b, x)
        n = len(moves)
        sc = [0] * n
        self.score_actions(x, moves, sc, ttm, ply)
        best = -INF
        best_move = 0
        alpha0 = alpha
        t = x.turn
        keys, counts = self.keys, self.counts
        for i in range(n):
            _pick(moves, sc, n, i)
            a = moves[i]
            ch = play(b, x, a, keys, counts)
            same = ch.turn == t
            # A removal rides with the move that earned it: no depth spent on it.
            riding = ch.step == S_REMOVE and ch.phase == MOVEMENT and not ch.outcome
            d = depth if riding else depth - 1
            quiet = sc[i] < 39000
            if i == 0:
                v = (
                    self.search(ch, d, alpha, beta, ply + 1)
                    if same
                    else -self.search(ch, d, -beta, -alpha, ply + 1)
                )
            else:
                r = 0
                if quiet and depth >= 3 and i >= 3 and x.step != S_REMOVE:
                    r = 2 if i >= 8 else 1
                if r >= d:
                    r = d - 1 if d - 1 > 0 else 0
                v = (
                    self.search(ch, d - r, alpha, alpha + 1, ply + 1)
                    if same
                    else -self.search(ch, d - r, -alpha - 1, -alpha, ply + 1)
                )
                if not self.stop and v > alpha and r:
                    v = (
                        self.search(ch, d, alpha, alpha + 1, ply + 1)
                        if same
                        else -self.search(ch, d, -alpha - 1, -alpha, ply + 1)
                    )
                if not self.stop and alpha < v < beta:
                    v = (
                        self.search(ch, d, alpha, beta, ply + 1)
                        if same
                        else -self.search(ch, d, -beta, -alpha, ply + 1)
                    )
            self.unpush(x, ch)
            if self.stop:
                return 0
            if v > best:
                best = v
                best_move = a
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        if quiet and x.step != S_REMOVE:
                            killers = self.killers[ply]
                            if killers[0] != a:
                                killers[1] = killers[0]
                                killers[0] = a
                        hist = self.hist[t]
                        hist[a & 4095] += depth * depth
                        if hist[a & 4095] > 30000:
                            for side in self.hist:
                                for k in range(4096):
                                    side[k] >>= 1
                        break
        if use_tt:
            flag = TT_LOWER if best >= beta else TT_EXACT if best > alpha0 else TT_UPPER
            self.tt_store(key, depth, flag, best, best_move, ply)
        return best

    def search_root(
        self, x: Node, moves: list[int], rs: list[int], depth: int, all_scores: bool
    ) -> tuple[int, int]:
        """Search every root action to ``depth``; returns (best score, best action)."""
        alpha, beta, best, best_move = -INF, INF, -INF, moves[0]
        t = x.turn
        for i, a in enumerate(moves):
            ch = play(self.b, x, a, self.keys, self.counts)
            same = ch.turn == t
            riding = ch.step == S_REMOVE and ch.phase == MOVEMENT and not ch.outcome
            d = depth if riding else depth - 1
            if all_scores or i == 0:
                v = self.search(ch, d, -INF, INF, 1) if same else -self.search(ch, d, -INF, INF, 1)
            else:
                v = (
                    self.search(ch, d, alpha, alpha + 1, 1)
                    if same
                    else -self.search(ch, d, -alpha - 1, -alpha, 1)
                )
                if not self.stop and v > alpha:
                    v = (
                        self.search(ch, d, alpha, beta, 1)
                        if same
                        else -self.search(ch, d, -beta, -alpha, 1)
                    )
            self.unpush(x, ch)
            if self.stop:
                break
            rs[i] = v
            if v > best:
                best = v
                best_move = a
                alpha = max(alpha, v)
        return best, best_move


SETTLED = 3
"""Iterations a best move must survive to count as settled."""


def keep_going(
    n: int, stable: int, elapsed: int, last: int, prev: int, hard: int, soft: int
) -> bool:
    """Whether to start another iteration, as ``core_keep_going`` (times in nanoseconds).

    Never with one legal action; not past the soft limit once the best move has held for
    :data:`SETTLED` iterations; not when the next iteration would likely overrun the hard
    limit, unless the last one changed the best move (a partial iteration then searches
    the new best first and keeps a move that beats it).
    """
    if n <= 1:
        return False
    if soft > 0 and stable >= SETTLED and elapsed > soft:
        return False
    growth_x10 = last * 10 // prev if prev > 0 else 40
    growth_x10 = min(max(growth_x10, 20), 60)
    predicted = last * growth_x10 // 10
    return not (elapsed + predicted > hard and stable >= 1)


def search(
    position: Position,
    weights: Sequence[int],
    *,
    max_depth: int,
    time_ms: int = 0,
    soft_ms: int = 0,
    tt_log2: int = 20,
    all_scores: bool = False,
    min_depth: int = 1,
    tt_min_depth: int = 1,
) -> CoreSearch:
    """Iterative deepening from ``position`` (not over), as ``core_search`` in ``_core.c``.

    ``time_ms`` (0: none) stops the search; whether a new iteration starts is
    :func:`keep_going`'s call (``soft_ms``: the soft limit for a settled best move);
    ``all_scores`` gives every root action an exact score (for the noisy levels).
    """
    if position.outcome is not None:
        raise RuntimeError("the AI cannot search a finished game")
    start = time.perf_counter()
    tt_log2 = 10 if tt_log2 < 10 else 26 if tt_log2 > 26 else tt_log2
    deadline = start + time_ms / 1000 if time_ms > 0 else None
    b = board(position.variant)
    c = _Search(b, [*weights, *[0] * (NW - len(weights))], tt_log2, tt_min_depth, deadline)
    x, hist = node_of(position)
    hist = hist[-(KEYSTACK - MAXPLY - 8) :] if hist else hist
    hlen = len(hist)
    c.keys[:hlen] = hist
    for k in hist:
        c.counts[k] = c.counts.get(k, 0) + 1
    x.hstart = 0
    x.hend = hlen
    c.path_start = hlen - 1 if x.phase == MOVEMENT and x.step != S_REMOVE and hlen > 0 else hlen

    moves = gen(b, x)
    n = len(moves)
    if n == 0:
        raise RuntimeError("the AI found no legal action to search")
    sc = [0] * n
    c.score_actions(x, moves, sc, 0, 0)
    for i in range(n):  # initial order: by the ordering heuristics, as C sorts it
        _pick(moves, sc, n, i)

    max_depth = 1 if max_depth < 1 else 100 if max_depth > 100 else max_depth
    done_depth, best_move, best_score = 0, moves[0], 0
    last_scores = [0] * n
    stable, last_ns, prev_ns = 0, 0, 0
    for depth in range(1, max_depth + 1):
        if depth > min_depth and done_depth > 0 and c.use_time:
            elapsed = int((time.perf_counter() - start) * 1e9)
            hard = time_ms * 1_000_000
            if not keep_going(n, stable, elapsed, last_ns, prev_ns, hard, soft_ms * 1_000_000):
                break
        iter_start = time.perf_counter()
        saved = c.use_time
        if depth <= min_depth:
            c.use_time = False
        rs = [-INF] * n
        s, bm = c.search_root(x, moves, rs, depth, all_scores)
        c.use_time = saved
        if c.stop:
            # A move that beat the previous best in this unfinished iteration is better.
            if not all_scores and rs[0] != -INF and bm != moves[0]:
                best_move, best_score = bm, s
            break
        stable = stable + 1 if done_depth > 0 and bm == best_move else 0
        prev_ns, last_ns = last_ns, int((time.perf_counter() - iter_start) * 1e9)
        done_depth, best_move, best_score = depth, bm, s
        # Reorder root actions: best first, then by score (stable).
        order = sorted(range(n), key=lambda i: -rs[i])
        moves = [moves[i] for i in order]
        last_scores = [rs[i] for i in order]
        forced = not all_scores and (s > MATE_BOUND or s < -MATE_BOUND) and depth >= 2
        if forced and MATE - abs(s) < depth:
            break  # a forced result: deeper iterations only find the same
    root = tuple((decode_action(moves[i]), last_scores[i]) for i in range(n))
    return CoreSearch(
        decode_action(best_move),
        best_score,
        done_depth,
        c.nodes,
        c.seldepth,
        c.stop,
        root,
    )
