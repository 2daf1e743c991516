"""The AI's search in pure Python: the compiled core (``_core.c``) line for line.

Used when the compiled core cannot be built (no C compiler) or when
``SHAX_AI_BACKEND=python`` asks for it. It plays by the same rules on the same bitboards,
with the same evaluation, move ordering, reductions and transposition table (two entries
per bucket, the same hash), so a search without a time limit visits the same nodes and
returns the same action and score as the C one (``tests/engine/ai/test_python_search.py``).
It is tens of times slower (benchmarks/bench_python_search.py), so in a level's time
budget it searches less deep.

The bitboards, rules and evaluation are in :mod:`engine.ai.python_board`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from engine.ai.common import (
    IIR_DEPTH,
    INF,
    KEYSTACK,
    LMP_DEPTH,
    MATE,
    MATE_BOUND,
    MAXPLY,
    NW,
    RFP_DEPTH,
    RFP_MARGIN,
    CoreSearch,
    decode_action,
)
from engine.ai.python_board import (
    K_MOVE,
    MOVEMENT,
    S_FREE,
    S_MOVE,
    S_PLACE,
    S_REMOVE,
    Board,
    Node,
    bits,
    board,
    ctz,
    forms,
    gen,
    mix,
    node_evaluate,
    node_of,
    play,
    reach,
    terminal_score,
)
from engine.position import Position

TT_NONE, TT_EXACT, TT_LOWER, TT_UPPER = 0, 1, 2, 3
"""Kinds of transposition-table entries (as the C core's ``TT_*``)."""
TIME_CHECK_MASK = 255
"""The clock is read every 256 nodes (the C core: every 1024, being faster)."""

# -- search ------------------------------------------------------------------------


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


TTEntry = tuple[int, int, int, int, int, int]
"""(key, score, move, depth, flag, generation)"""


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
        self.gen = 1
        """The search that writes entries (a kept table holds those of earlier ones)."""
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
        i = mix(key) & self.ttmask
        e = self.tt0.get(i)
        if e is not None and e[0] == key:
            return e
        e = self.tt1.get(i)
        if e is not None and e[0] == key:
            return e
        return None

    def tt_store(self, key: int, depth: int, flag: int, score: int, move: int, ply: int) -> None:
        i = mix(key) & self.ttmask
        b0 = self.tt0.get(i)
        # The first slot keeps the deepest entry of this search; the second takes the rest.
        fresh = b0 is None or b0[5] != self.gen or b0[0] == key or depth >= b0[3]
        table = self.tt0 if fresh else self.tt1
        e = table.get(i)
        if e is not None and e[0] == key and move == 0:
            move = e[2]
        table[i] = (key, _to_tt(score, ply), move, min(depth, 127), flag, self.gen)

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
                    e = ctz(line & empty)
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
            for e in bits(empty):
                eb = 1 << e
                for line in b.through[e]:
                    rest = line & ~eb
                    if rest & opp == rest:
                        opp_two |= eb
            capture_ok = x.step != S_FREE
            placing = x.step == S_PLACE
            place_jare = 200000 if x.first < 0 else 3000  # the first jare
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
            return terminal_score(x, ply)
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
            for e in bits(empty):
                for s in bits(b.adj[e] & own):
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
            return terminal_score(x, ply)
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
        # Selectivity away from the principal variation (see _core.c).
        pv = beta - alpha > 1
        if (
            not pv
            and ply > 0
            and depth <= RFP_DEPTH
            and -MATE_BOUND < beta < MATE_BOUND
            and x.step in (S_MOVE, S_PLACE)
        ):
            ev = self.cached_eval(x)
            if ev - RFP_MARGIN * depth >= beta:
                return ev
        if use_tt and e is None and depth >= IIR_DEPTH:
            depth -= 1
        moves = gen(b, x)
        n = len(moves)
        sc = [0] * n
        self.score_actions(x, moves, sc, ttm, ply)
        best = -INF
        best_move = 0
        alpha0 = alpha
        t = x.turn
        keys, counts = self.keys, self.counts
        tried: list[int] = []
        lmp = not pv and depth <= LMP_DEPTH and x.step != S_REMOVE
        for i in range(n):
            _pick(moves, sc, n, i)
            a = moves[i]
            if lmp and i >= 3 + 2 * depth * depth and sc[i] < 39000 and best > -MATE_BOUND:
                break
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
                        if quiet and x.step != S_REMOVE:
                            for q in tried:
                                hist[q & 4095] = max(-30000, hist[q & 4095] - depth * depth)
                        hist[a & 4095] += depth * depth
                        if hist[a & 4095] > 30000:
                            for side in self.hist:
                                for k in range(4096):
                                    side[k] >>= 1
                        break
            if quiet:
                tried.append(a)
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
    n: int, stable: int, elapsed: int, last: int, prev: int, hard: int, soft: int, eager: int = 0
) -> bool:
    """Whether to start another iteration, as ``core_keep_going`` (times in nanoseconds).

    Never with one legal action; not past the soft limit once the best move has held for
    :data:`SETTLED` iterations; always before the eager limit (an unfinished iteration
    searches the best move first and keeps a move that beats it, so the budget is not
    left unspent); after it, not when the next iteration would likely overrun the hard
    limit, unless the last one changed the best move.
    """
    if n <= 1:
        return False
    if soft > 0 and stable >= SETTLED and elapsed > soft:
        return False
    if elapsed < eager:
        return True
    growth_x10 = last * 10 // prev if prev > 0 else 40
    growth_x10 = min(max(growth_x10, 20), 60)
    predicted = last * growth_x10 // 10
    return not (elapsed + predicted > hard and stable >= 1)


def iteration_limit(stable: int, elapsed: int, budget: int, hard: int) -> int:
    """How long the next iteration may run, as ``core_iteration_limit`` (nanoseconds from
    the start): up to ``budget`` while the last iteration kept the best move, past it up
    to ``hard`` only while the last iteration changed it; -1 to stop."""
    if budget <= 0 or budget >= hard or stable == 0:
        return hard
    return budget if elapsed < budget else -1


_KEPT = threading.local()


def kept_tables(
    variant: str, weights: Sequence[int], tt_log2: int
) -> tuple[dict[int, TTEntry], dict[int, TTEntry], int]:
    """This thread's transposition table for ``keep_tt`` searches of one board, weights
    and size (a new one when any of them changes), and the generation of the search
    about to use it: older entries are the first to be replaced, as in the C core."""
    tag = (variant, tuple(weights), tt_log2)
    if getattr(_KEPT, "tag", None) != tag:
        _KEPT.tag = tag
        _KEPT.tables = ({}, {})
        _KEPT.gen = 0
    _KEPT.gen += 1
    tt0, tt1 = _KEPT.tables
    gen: int = _KEPT.gen
    return tt0, tt1, gen


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
    keep_tt: bool = False,
    eager_ms: int = 0,
    budget_ms: int = 0,
) -> CoreSearch:
    """Iterative deepening from ``position`` (not over), as ``core_search`` in ``_core.c``.

    ``time_ms`` (0: none) stops the search; whether a new iteration starts is
    :func:`keep_going`'s call (``soft_ms``: the soft limit for a settled best move,
    ``eager_ms``: before it an iteration always starts; ``budget_ms``: past it only a
    move not settled searches on, :func:`iteration_limit`); ``all_scores`` gives every root
    action an exact score (for the noisy levels); ``keep_tt`` starts from the
    transposition table the last such search of this thread left, for the same board,
    weights and size.
    """
    if position.outcome is not None:
        raise RuntimeError("the AI cannot search a finished game")
    start = time.perf_counter()
    tt_log2 = 10 if tt_log2 < 10 else 26 if tt_log2 > 26 else tt_log2
    hard_ns, budget_ns = time_ms * 1_000_000, budget_ms * 1_000_000
    first = budget_ns if 0 < budget_ns < hard_ns else hard_ns
    deadline = start + first / 1e9 if time_ms > 0 else None
    b = board(position.variant)
    vector = [*weights, *[0] * (NW - len(weights))]
    c = _Search(b, vector, tt_log2, tt_min_depth, deadline)
    if keep_tt:
        c.tt0, c.tt1, c.gen = kept_tables(position.variant.id, vector, tt_log2)
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
            soft, eager = (ms * 1_000_000 for ms in (soft_ms, eager_ms))
            if not keep_going(n, stable, elapsed, last_ns, prev_ns, hard_ns, soft, eager):
                break
            until = iteration_limit(stable, elapsed, budget_ns, hard_ns)
            if until < 0:
                break
            c.deadline = start + until / 1e9
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
