/*
 * The Shax AI's compiled core: the rules of RULES.md on bitboards, and an
 * alpha-beta search over them.
 *
 * Plain C with no Python API: engine/ai/core.py loads it with ctypes. The
 * readable engine (engine/position.py) is the reference; tests/engine/test_ai_core.py
 * checks that core_legal/core_play agree with it on thousands of random positions.
 *
 * Actions are 12-bit codes: kind << 10 | src << 5 | dst (kind 0 place, 1 move,
 * 2 remove; src is 0 unless a move). Scores are centi-stones (100 = one stone)
 * from the point of view of the player to act; a win in n plies scores MATE - n.
 */

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* madvise(MADV_HUGEPAGE) for the transposition table */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define CORE_ABI 17

#define MAXP 24
#define MAXLINES 16
#define MAXTHROUGH 4
#define KEYSTACK 640
#define MAXPLY 160
#define MAXMOVES 96
#define MATE 30000
#define MATE_BOUND 29000
#define INF 32000
#define MOVE_LIMIT 100
#define REPETITIONS 3

enum { PLACEMENT = 0, REMOVAL = 1, MOVEMENT = 2 };
enum { S_PLACE = 0, S_REMOVE = 1, S_MOVE = 2, S_FREE = 3 };
enum { K_PLACE = 0, K_MOVE = 1, K_REMOVE = 2 };
enum { O_NONE = 0, O_WHITE = 1, O_BLACK = 2, O_DRAW = 3 };
enum { T_NONE = 0, T_TWO = 1, T_THREE = 2, T_MUTUAL = 3, T_REP = 4, T_LIMIT = 5 };
enum { F_SHAX = 0, F_JAR = 1 };

/* A board as data, filled in by core.py from engine.variants.Variant. */
typedef struct {
    int32_t n, family, pieces, nlines;
    uint32_t all;
    uint32_t adj[MAXP];
    uint32_t lines[MAXLINES];
    int32_t nthrough[MAXP];
    uint32_t through[MAXP][MAXTHROUGH];
    int32_t line_index[MAXP][MAXTHROUGH]; /* index in lines[] of through[p][k] */
} Board;

/* A position without its repetition history, which lives on a key stack:
 * keys[hstart..hend) are the movement keys since the last removal. */
typedef struct {
    uint32_t bb[2];
    int8_t hand[2];
    int8_t turn, phase, step, first;
    int8_t outcome, term;
    int16_t clock;
    int16_t hstart, hend;
} Node;

/* The evaluation is linear in features (core_features exports them for tuning):
 * movement features M_*, and placement features P_* twice, tapered between the
 * start of the placement (weights p_early_*) and the full board (weights p_*). */
enum {
    M_MAT, M_MOB, M_BLOCKED, M_STUCK, M_THREAT, M_THREAT_TOMOVE, M_OPP_UNBLOCKABLE,
    M_OPP_DOUBLE, M_TWO, M_IRMAAN, M_JARE_OPEN, M_FEW, M_FREEING, M_OWN_DOUBLE, NM
};
enum {
    P_FIRST, P_FIRST_NOW, P_FIRST_LOST, P_TWO_OPEN, P_TWO_BLOCKED, P_JARE, P_DEG3, P_DEG4,
    P_LIB, P_FORK, P_TEMPO, P_PAIRS, NP
};
#define P_BASE NM
#define P_EARLY (NM + NP)
#define NF (NM + 2 * NP)
#define NW 48

typedef struct {
    int32_t max_depth;     /* iterations to run (1..) */
    int32_t time_ms;       /* 0: no time limit */
    int32_t tt_log2;       /* transposition table size: 2**tt_log2 buckets */
    int32_t all_scores;    /* 1: exact scores for every root action (for noisy levels) */
    int32_t min_depth;     /* with a time limit, always finish this depth */
    int32_t soft_ms;       /* 0: none; a settled best move starts no iteration after this */
    int32_t tt_min_depth;  /* probe and store the table only at this depth or more */
    int32_t keep_tt;       /* 1: use what earlier searches of this thread left in the table */
    int32_t eager_ms;      /* 0: none; before this, a new iteration always starts */
    int32_t weights[NW];
    const int16_t *full_board; /* NULL, or the full-board values of this board (below) */
    int32_t budget_ms;     /* 0: none; past it, only a best move not settled searches on */
} Params;

typedef struct {
    int64_t nodes;
    int32_t action, score, depth, nroot, seldepth, stopped;
    int32_t root_actions[MAXMOVES];
    int32_t root_scores[MAXMOVES];
} Result;

/* ------------------------------------------------------------------ helpers */

static inline int popc(uint32_t x) {
#if defined(__POPCNT__)
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}
static inline int ctz(uint32_t x) { return __builtin_ctz(x); }

static inline int mk(int kind, int src, int dst) { return kind << 10 | src << 5 | dst; }
static inline int a_kind(int a) { return a >> 10; }
static inline int a_src(int a) { return (a >> 5) & 31; }
static inline int a_dst(int a) { return a & 31; }

/* Whether own stones fill a line through point p. */
static inline int forms(const Board *B, uint32_t own, int p) {
    for (int k = 0; k < B->nthrough[p]; k++) {
        uint32_t l = B->through[p][k];
        if ((own & l) == l) return 1;
    }
    return 0;
}

/* Points next to any point of a set. */
static inline uint32_t reach(const Board *B, uint32_t set) {
    uint32_t r = 0;
    while (set) {
        r |= B->adj[ctz(set)];
        set &= set - 1;
    }
    return r;
}

static inline int mobile(const Board *B, uint32_t own, uint32_t empty) {
    if (popc(empty) <= popc(own)) return (reach(B, empty) & own) != 0;
    return (reach(B, own) & empty) != 0;
}

static inline uint64_t rep_key(const Board *B, const Node *x) {
    int n = B->n;
    return (uint64_t)x->bb[0] | (uint64_t)x->bb[1] << n | (uint64_t)x->turn << (2 * n);
}

static inline int key_slot(uint64_t k) {
    k ^= k >> 29;
    k *= 0xbf58476d1ce4e5b9ull;
    k ^= k >> 32;
    return (int)(k & 4095);
}

/* ------------------------------------------------------------------ rules */

/* The movement-phase position where `player` is due to move: the blockade, the
 * repetition record and the draw rules (engine.position._begin_turn). `filter`
 * (may be NULL) counts the keys on the stack, to skip most scans. */
static void begin_turn(const Board *B, Node *x, int player, uint64_t *keys, uint8_t *filter) {
    uint32_t empty = B->all & ~(x->bb[0] | x->bb[1]);
    x->phase = MOVEMENT;
    x->outcome = O_NONE;
    x->term = T_NONE;
    if (mobile(B, x->bb[player], empty)) {
        x->turn = (int8_t)player;
        x->step = S_MOVE;
    } else if (mobile(B, x->bb[1 - player], empty)) {
        x->turn = (int8_t)(1 - player);
        x->step = S_FREE;
    } else {
        x->turn = (int8_t)player;
        x->step = S_MOVE;
        x->outcome = O_DRAW;
        x->term = T_MUTUAL;
        return;
    }
    uint64_t key = rep_key(B, x);
    int count = 1;
    if (filter == NULL || filter[key_slot(key)]) {
        for (int i = x->hstart; i < x->hend; i++) count += keys[i] == key;
    }
    keys[x->hend++] = key;
    if (filter) filter[key_slot(key)]++;
    if (count >= REPETITIONS) {
        x->outcome = O_DRAW;
        x->term = T_REP;
    } else if (x->clock >= MOVE_LIMIT) {
        x->outcome = O_DRAW;
        x->term = T_LIMIT;
    }
}

/* The position after a legal action (engine.position.Position.play). */
static void play(const Board *B, const Node *p, int a, Node *x, uint64_t *keys, uint8_t *filter) {
    *x = *p;
    int kind = a_kind(a), dst = a_dst(a), t = p->turn;
    uint32_t db = 1u << dst;
    if (kind == K_PLACE) {
        x->bb[t] |= db;
        x->hand[t]--;
        /* A jare while placing captures and wins nothing: only the first one is kept. */
        if (x->first < 0 && forms(B, x->bb[t], dst)) x->first = (int8_t)t;
        if (x->hand[0] || x->hand[1]) {
            x->turn = (int8_t)(1 - t);
            return;
        }
        x->clock = 0;
        x->hstart = x->hend;
        /* The first-jare player acts first (removes in shax, moves in jar), else black. */
        if (B->family == F_JAR) {
            begin_turn(B, x, x->first >= 0 ? x->first : 1, keys, filter);
            return;
        }
        x->turn = x->first >= 0 ? x->first : 1;
        x->phase = REMOVAL;
        x->step = S_REMOVE;
        return;
    }
    if (kind == K_REMOVE) {
        x->bb[1 - t] &= ~db;
        x->clock = 0;
        x->hstart = x->hend;
        if (p->phase == REMOVAL) {
            int remover = p->first >= 0 ? p->first : 1;
            if (t == remover) {
                x->turn = (int8_t)(1 - t);
                return;
            }
            begin_turn(B, x, remover, keys, filter);
            return;
        }
        if (popc(x->bb[1 - t]) <= 2) {
            x->phase = MOVEMENT;
            x->step = S_REMOVE;
            x->outcome = t ? O_BLACK : O_WHITE;
            x->term = T_TWO;
            return;
        }
        begin_turn(B, x, 1 - t, keys, filter);
        return;
    }
    x->bb[t] ^= (1u << a_src(a)) | db;
    x->clock = (int16_t)(p->clock + 1);
    if (p->step != S_FREE && forms(B, x->bb[t], dst)) {
        x->phase = MOVEMENT;
        if (B->family == F_JAR) {
            x->outcome = t ? O_BLACK : O_WHITE;
            x->term = T_THREE;
            return;
        }
        x->step = S_REMOVE;
        return;
    }
    begin_turn(B, x, 1 - t, keys, filter);
}

static int gen_moves(const Board *B, uint32_t own, uint32_t empty, int *out) {
    int n = 0;
    while (own) {
        int s = ctz(own);
        own &= own - 1;
        uint32_t targets = B->adj[s] & empty;
        while (targets) {
            out[n++] = mk(K_MOVE, s, ctz(targets));
            targets &= targets - 1;
        }
    }
    return n;
}

/* Every legal action (engine.position.Position.legal_actions, in the same order). */
static int gen(const Board *B, const Node *x, int *out) {
    if (x->outcome) return 0;
    int t = x->turn, n = 0;
    uint32_t empty = B->all & ~(x->bb[0] | x->bb[1]);
    if (x->step == S_PLACE) {
        for (uint32_t e = empty; e; e &= e - 1) out[n++] = mk(K_PLACE, 0, ctz(e));
        return n;
    }
    if (x->step == S_REMOVE) {
        for (uint32_t o = x->bb[1 - t]; o; o &= o - 1) out[n++] = mk(K_REMOVE, 0, ctz(o));
        return n;
    }
    if (x->step == S_FREE) {
        /* Only stones next to a blocked stone free it, by vacating their point. */
        uint32_t freeing = x->bb[t] & reach(B, x->bb[1 - t]);
        n = gen_moves(B, freeing, empty, out);
        if (n) return n;
    }
    return gen_moves(B, x->bb[t], empty, out);
}

/* ------------------------------------------------------------------ endgame tables */

/* A probe of the endgame tables (engine/tables, set per thread by core_set_probe):
 * 1 a win, 0 a draw, -1 a loss for the player to act, with the distance in moves;
 * -2 when the position is not in the tables. */
typedef int (*probe_fn)(void *ctx, uint32_t white, uint32_t black, int32_t turn,
                        int32_t freeing, int32_t *dist);
static _Thread_local probe_fn probe_hook;
static _Thread_local void *probe_ctx;
static _Thread_local int64_t probe_hits;

void core_set_probe(probe_fn fn, void *ctx) {
    probe_hook = fn;
    probe_ctx = ctx;
    probe_hits = 0;
}

/* Positions answered by the tables since core_set_probe. */
int64_t core_probe_hits(void) { return probe_hits; }

/* An exact score from the tables: 1 with *score set, or 0. A win or loss counts only
 * if it ends the game before the 100-move rule could draw it. */
static inline int probe_tables(const Node *x, int ply, int *score) {
    if (!probe_hook || x->phase != MOVEMENT || x->step == S_REMOVE || x->outcome) return 0;
    int32_t dist = 0;
    int r = probe_hook(probe_ctx, x->bb[0], x->bb[1], x->turn, x->step == S_FREE, &dist);
    if (r == -2) return 0;
    if (r != 0 && x->clock + dist > MOVE_LIMIT) return 0;
    probe_hits++;
    *score = r == 0 ? 0 : r > 0 ? MATE - ply - dist : -(MATE - ply - dist);
    return 1;
}

/* ------------------------------------------------------------------ exported rules */

int core_abi(void) { return CORE_ABI; }

int core_legal(const Board *B, const Node *x, int32_t *out) {
    int buf[MAXMOVES];
    int n = gen(B, x, buf);
    for (int i = 0; i < n; i++) out[i] = buf[i];
    return n;
}

/* keys holds the history (x->hstart..x->hend) and room for one more key. */
void core_play(const Board *B, const Node *x, int32_t a, Node *out, uint64_t *keys) {
    play(B, x, a, out, keys, NULL);
}

/* ------------------------------------------------------------------ evaluation */

typedef struct {
    int mob, threats, twos, irmaan, jares_open, stuck;
    uint32_t threat_points; /* empty points where this side closes a jare next move */
} SideInfo;

/* Both sides' features, seen from the empty points (few of them on a crowded board). */
static void side_info(const Board *B, const uint32_t bb[2], SideInfo s[2]) {
    memset(s, 0, 2 * sizeof *s);
    uint32_t occ = bb[0] | bb[1], empty = B->all & ~occ, near = 0;
    uint32_t full[2] = {0, 0};
    uint32_t full_lines[2] = {0, 0}; /* indices in B->lines of the full lines */
    int nfull[2] = {0, 0};
    for (int i = 0; i < B->nlines; i++) {
        uint32_t l = B->lines[i];
        if ((bb[0] & l) == l) {
            full[0] |= l;
            full_lines[0] |= 1u << i;
        } else if ((bb[1] & l) == l) {
            full[1] |= l;
            full_lines[1] |= 1u << i;
        }
    }
    for (uint32_t es = empty; es; es &= es - 1) {
        int e = ctz(es);
        uint32_t ae = B->adj[e], eb = 1u << e;
        uint32_t off[2] = {0, 0}; /* points off a line through e that c would close at e */
        near |= ae;
        s[0].mob += popc(ae & bb[0]);
        s[1].mob += popc(ae & bb[1]);
        for (int k = 0; k < B->nthrough[e]; k++) {
            uint32_t l = B->through[e][k], rest = l & ~eb;
            for (int c = 0; c < 2; c++) {
                if ((rest & bb[c]) == rest) {
                    off[c] |= ~l;
                    if (ae & bb[c] & ~l) {
                        s[c].threats++;
                        s[c].threat_points |= eb;
                    } else {
                        s[c].twos++;
                    }
                }
            }
        }
        /* A stone of a full jare steps to e and closes another line: a running jare. The
         * stone p closes a line through e when the line's two other points are c's and p
         * is not one of them, i.e. p is off a line that c would close at e. */
        s[0].irmaan += popc(ae & full[0] & off[0]);
        s[1].irmaan += popc(ae & full[1] & off[1]);
    }
    for (int c = 0; c < 2; c++) {
        for (uint32_t fl = full_lines[c]; fl; fl &= fl - 1)
            nfull[c] += (near & B->lines[ctz(fl)]) != 0;
        s[c].jares_open = nfull[c];
        s[c].stuck = popc(bb[c] & ~near);
    }
}

static void movement_features(const Board *B, const Node *x, int32_t *f) {
    int me = x->turn;
    uint32_t own = x->bb[me], opp = x->bb[1 - me];
    SideInfo si[2];
    side_info(B, x->bb, si);
    const SideInfo *a = &si[me], *b = &si[1 - me];
    int na = popc(own), nb = popc(opp);
    f[M_MAT] = na - nb;
    f[M_MOB] = a->mob - b->mob;
    f[M_BLOCKED] = (b->mob == 0) - (a->mob == 0);
    f[M_STUCK] = a->stuck - b->stuck;
    f[M_THREAT] = a->threats - b->threats;
    f[M_THREAT_TOMOVE] = x->step == S_MOVE && a->threats > 0;
    int unblockable = 0;
    for (uint32_t t = b->threat_points; t; t &= t - 1) unblockable += (B->adj[ctz(t)] & own) == 0;
    f[M_OPP_UNBLOCKABLE] = unblockable;
    f[M_OPP_DOUBLE] = popc(b->threat_points) >= 2;
    f[M_TWO] = a->twos - b->twos;
    f[M_IRMAAN] = a->irmaan - b->irmaan;
    f[M_JARE_OPEN] = a->jares_open - b->jares_open;
    f[M_FEW] = (nb < 5 ? 5 - nb : 0) - (na < 5 ? 5 - na : 0);
    f[M_FREEING] = x->step == S_FREE;
    f[M_OWN_DOUBLE] = popc(a->threat_points) >= 2;
}

typedef struct {
    int two_open, two_blocked, jare, deg3, deg4, lib, fork, pairs;
    uint32_t two_points; /* empty points that complete a line of two */
} PlaceInfo;

static void place_info(const Board *B, uint32_t own, uint32_t opp, PlaceInfo *s) {
    memset(s, 0, sizeof *s);
    uint32_t empty = B->all & ~(own | opp);
    for (int i = 0; i < B->nlines; i++) {
        uint32_t l = B->lines[i];
        uint32_t lo = l & own, lp = l & opp;
        int no = popc(lo);
        if (no == 3) {
            s->jare++;
        } else if (no == 2) {
            if (!lp) {
                s->two_open++;
                s->two_points |= l & empty;
            } else {
                /* Two and an opponent stone that, once removed, a neighbour of mine
                 * could replace: a capture waiting for the opening removal. */
                int q = ctz(lp);
                if (B->adj[q] & own & ~l) s->two_blocked++;
            }
        }
    }
    for (uint32_t o = own; o; o &= o - 1) {
        int p = ctz(o);
        int d = popc(B->adj[p]);
        s->deg3 += d == 3;
        s->deg4 += d >= 4;
        s->lib += popc(B->adj[p] & ~opp);
        s->pairs += popc(B->adj[p] & own);
    }
    s->pairs /= 2;
    for (uint32_t e = empty; e; e &= e - 1) {
        int p = ctz(e), lines_with_one = 0;
        for (int k = 0; k < B->nthrough[p]; k++) {
            uint32_t l = B->through[p][k];
            if (popc(l & own) == 1 && (l & opp) == 0) lines_with_one++;
        }
        if (lines_with_one >= 2) s->fork++;
    }
}

/* Placement features, untapered (f[0..NP)). */
static void placement_features(const Board *B, const Node *x, int32_t *f) {
    int me = x->turn;
    PlaceInfo a, b;
    place_info(B, x->bb[me], x->bb[1 - me], &a);
    place_info(B, x->bb[1 - me], x->bb[me], &b);
    f[P_FIRST] = x->first < 0 ? 0 : x->first == me ? 1 : -1;
    f[P_FIRST_NOW] = x->first < 0 && a.two_points != 0;
    f[P_FIRST_LOST] = x->first < 0 && a.two_points == 0 && popc(b.two_points) >= 2;
    f[P_TWO_OPEN] = a.two_open - b.two_open;
    f[P_TWO_BLOCKED] = a.two_blocked - b.two_blocked;
    f[P_JARE] = a.jare - b.jare;
    f[P_DEG3] = a.deg3 - b.deg3;
    f[P_DEG4] = a.deg4 - b.deg4;
    f[P_LIB] = a.lib - b.lib;
    f[P_FORK] = a.fork - b.fork;
    f[P_TEMPO] = 1;
    f[P_PAIRS] = a.pairs - b.pairs;
}

/* The feature vector of a position (zeros where a phase does not apply), scaled so
 * that eval = sum(W[i] * f[i]) / FSCALE. Returns 1 for placement, 0 for movement. */
#define FSCALE 24
static int features(const Board *B, const Node *x, int32_t *f) {
    if (x->phase == PLACEMENT) {
        memset(f, 0, NM * sizeof *f);
        int32_t p[NP];
        placement_features(B, x, p);
        int n = B->n, e = popc(B->all & ~(x->bb[0] | x->bb[1]));
        for (int i = 0; i < NP; i++) {
            /* Taper: late weights count fully on a full board, early ones on an empty one. */
            f[P_BASE + i] = p[i] * (n - e) * FSCALE / n;
            f[P_EARLY + i] = p[i] * e * FSCALE / n;
        }
        return 1;
    }
    movement_features(B, x, f);
    for (int i = 0; i < NM; i++) f[i] *= FSCALE;
    memset(f + NM, 0, 2 * NP * sizeof *f);
    return 0;
}

static int evaluate(const Board *B, const Node *x, const int32_t *W) {
    if (B->family == F_JAR) {
        /* Forming a line by a move wins: a line of two that the player due to move can
         * complete with a stone from off the line is decisive (not while placing, where a
         * line wins nothing, nor for a freeing move, which never wins). */
        int me = x->turn;
        uint32_t own = x->bb[me], opp = x->bb[1 - me], empty = B->all & ~(own | opp);
        if (x->step == S_MOVE) {
            for (int i = 0; i < B->nlines; i++) {
                uint32_t l = B->lines[i];
                if (popc(l & own) == 2 && (l & empty) && (B->adj[ctz(l & empty)] & own & ~l))
                    return MATE_BOUND - 100;
            }
        }
    }
    int32_t f[NF];
    int lo = features(B, x, f) ? NM : 0, hi = lo ? NF : NM;
    int64_t v = 0;
    for (int i = lo; i < hi; i++) v += (int64_t)W[i] * f[i];
    v /= FSCALE;
    if (v > 20000) v = 20000;
    if (v < -20000) v = -20000;
    return (int)v;
}

/* ------------------------------------------------------------------ search */

typedef struct {
    uint64_t key;
    int16_t score;
    uint16_t move;
    int8_t depth;
    uint8_t flag;
    uint16_t gen; /* the search that wrote it (0: never written) */
} TTEntry;

/* One table per thread, kept between searches (no page faults per call). Each search
 * has a new generation. Without keep_tt an entry of an older generation counts as empty,
 * so the search starts from nothing and its answer depends on its arguments alone; with
 * keep_tt it reuses what earlier searches stored (the positions of the last move's
 * search are mostly the next one's) and older entries are the first to be replaced.
 * Keys carry a 9-bit tag of the board, the weights and the full-board values searched
 * with (those the package ships and those built later are two), so searches that would
 * compute other scores almost never share entries (two sets of weights share a tag one
 * time in 511; the levels all use the same weights). */
static _Thread_local TTEntry *tt_buf;
static _Thread_local size_t tt_buf_len;
static _Thread_local uint16_t tt_gen;

/* A zeroed table of len entries. On Linux it is aligned to and backed by 2 MB pages where
 * the kernel allows (transparent huge pages on request): a probe is a random access into
 * tens of megabytes, and with 4 kB pages most probes also miss the TLB. */
static TTEntry *tt_alloc(size_t len) {
    size_t bytes = len * sizeof(TTEntry);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    void *p = NULL;
    if (bytes >= ((size_t)2 << 20) && posix_memalign(&p, (size_t)2 << 20, bytes) == 0) {
        madvise(p, bytes, MADV_HUGEPAGE);
        memset(p, 0, bytes);
        return (TTEntry *)p;
    }
#endif
    return (TTEntry *)calloc(len, sizeof(TTEntry));
}

static TTEntry *tt_acquire(int tt_log2, uint16_t *gen) {
    size_t len = (size_t)2 << tt_log2;
    if (len > tt_buf_len) {
        free(tt_buf);
        tt_buf = tt_alloc(len);
        tt_buf_len = tt_buf ? len : 0;
        tt_gen = 0;
        if (!tt_buf) return NULL;
    }
    if (++tt_gen == 0) { /* wrapped: forget everything for real */
        memset(tt_buf, 0, tt_buf_len * sizeof(TTEntry));
        tt_gen = 1;
    }
    *gen = tt_gen;
    return tt_buf;
}

enum { TT_NONE = 0, TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };
#define ECACHE_LOG2 16

typedef struct {
    const Board *B;
    const int32_t *W;
    uint64_t keys[KEYSTACK];
    uint8_t filter[4096];
    int path_start;
    TTEntry *tt;
    uint64_t ttmask, tag;
    uint16_t gen;
    int keep;
    uint64_t nodes;
    int use_time, stop, seldepth, tt_min_depth;
    const int16_t *full_board;
    uint32_t binom[MAXP][MAXP / 2 + 1];
    struct timespec t0;
    int64_t deadline_ns;
    int killers[MAXPLY][2];
    int32_t hist[2][4096];
    uint64_t ecache[1 << ECACHE_LOG2]; /* a cache of evaluations (see cached_eval) */
} Ctx;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* A position in 55 bits (for the table, with the search's tag in the 9 above). */
static inline uint64_t tt_key(const Node *x) {
    uint64_t first = x->phase == MOVEMENT ? 0 : (uint64_t)(x->first + 1);
    return (uint64_t)x->bb[0] | (uint64_t)x->bb[1] << 24 | (uint64_t)x->turn << 48 |
           (uint64_t)x->step << 49 | (uint64_t)x->phase << 51 | first << 53;
}

static inline uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

static inline int to_tt(int s, int ply) {
    if (s > MATE_BOUND) return s + ply;
    if (s < -MATE_BOUND) return s - ply;
    return s;
}
static inline int from_tt(int s, int ply) {
    if (s > MATE_BOUND) return s - ply;
    if (s < -MATE_BOUND) return s + ply;
    return s;
}

static inline int tt_live(const Ctx *c, const TTEntry *e) {
    return e->gen == c->gen || (c->keep && e->gen != 0);
}

static TTEntry *tt_probe(Ctx *c, uint64_t key) {
    key |= c->tag;
    TTEntry *b = &c->tt[(mix(key) & c->ttmask) * 2];
    if (b[0].key == key && tt_live(c, &b[0])) return &b[0];
    if (b[1].key == key && tt_live(c, &b[1])) return &b[1];
    return NULL;
}

/* Ask the memory for a position's bucket ahead of its probe (a miss costs more than the
 * nodes around it). */
static inline void tt_prefetch(const Ctx *c, uint64_t key) {
    __builtin_prefetch(&c->tt[(mix(key | c->tag) & c->ttmask) * 2]);
}

/* The table key of the position after action a, for the common cases (a stone placed
 * before the board fills, a stone moved, a removal in the movement), guessing the
 * common continuation (the opponent moves next); 0 where the guess is not worth it.
 * Only a prefetch uses it, so a wrong guess costs a wasted fetch and nothing else. */
static inline uint64_t child_key_guess(const Board *B, const Node *x, int a) {
    Node ch = *x;
    int t = x->turn, dst = a_dst(a), kind = a_kind(a);
    uint32_t db = 1u << dst;
    if (kind == K_PLACE) {
        ch.bb[t] |= db;
        if (ch.hand[t] - 1 + ch.hand[1 - t] == 0) return 0;
        if (ch.first < 0 && forms(B, ch.bb[t], dst)) ch.first = (int8_t)t;
        ch.turn = (int8_t)(1 - t);
    } else if (kind == K_MOVE) {
        ch.bb[t] ^= (1u << a_src(a)) | db;
        if (x->step != S_FREE && forms(B, ch.bb[t], dst)) {
            if (B->family == F_JAR) return 0;
            ch.step = S_REMOVE;
        } else {
            ch.turn = (int8_t)(1 - t);
            ch.step = S_MOVE;
        }
    } else {
        if (x->phase != MOVEMENT) return 0;
        ch.bb[1 - t] &= ~db;
        ch.turn = (int8_t)(1 - t);
        ch.step = S_MOVE;
    }
    return tt_key(&ch);
}

static void tt_store(Ctx *c, uint64_t key, int depth, int flag, int score, int move, int ply) {
    key |= c->tag;
    TTEntry *b = &c->tt[(mix(key) & c->ttmask) * 2];
    TTEntry *e;
    uint16_t g = c->gen;
    /* The first slot keeps the deepest entry of this search; the second takes the rest. */
    if (b[0].gen != g || b[0].key == key || depth >= b[0].depth) e = &b[0];
    else e = &b[1];
    if (e->key == key && tt_live(c, e) && move == 0) move = e->move;
    e->key = key;
    e->score = (int16_t)to_tt(score, ply);
    e->move = (uint16_t)move;
    e->depth = (int8_t)(depth > 127 ? 127 : depth);
    e->flag = (uint8_t)flag;
    e->gen = g;
}

static inline int terminal_score(const Node *x, int ply) {
    if (x->outcome == O_DRAW) return 0;
    int winner = x->outcome == O_WHITE ? 0 : 1;
    return winner == x->turn ? MATE - ply : -(MATE - ply);
}

static inline void check_time(Ctx *c) {
    if (c->use_time && (c->nodes & 1023) == 0 && now_ns() > c->deadline_ns) c->stop = 1;
}

/* Ordering score of each opponent stone for a removal. */
static void score_removals(Ctx *c, const Node *x, const int *moves, int n, int *sc) {
    const Board *B = c->B;
    int t = x->turn;
    uint32_t own = x->bb[t], opp = x->bb[1 - t];
    uint32_t empty = B->all & ~(own | opp);
    uint32_t own_reach = reach(B, own);
    for (int i = 0; i < n; i++) {
        int p = a_dst(moves[i]);
        uint32_t pb = 1u << p;
        int s = 0;
        for (int k = 0; k < B->nthrough[p]; k++) {
            uint32_t l = B->through[p][k];
            int no = popc(l & opp), ne = popc(l & empty);
            if (no == 2 && ne == 1) {
                int e = ctz(l & empty);
                s += (B->adj[e] & opp & ~l) ? 400 : 80; /* breaks a threat */
            } else if (no == 3) {
                s += (reach(B, l) & empty) ? 250 : 60; /* breaks a jare that can reopen */
            }
            /* Emptying p: do I then close a jare by stepping into it? */
            uint32_t rest = l & ~pb;
            if ((rest & own) == rest && (B->adj[p] & own & ~l)) s += 300;
        }
        s += 30 * popc(B->adj[p] & empty);     /* a mobile stone */
        s += 10 * popc(B->adj[p] & own_reach); /* it guards points near mine */
        s += c->hist[t][moves[i] & 4095] >> 4;
        sc[i] = s;
    }
}

static void score_actions(Ctx *c, const Node *x, const int *moves, int n, int *sc, int ttm,
                          int ply) {
    const Board *B = c->B;
    if (x->step == S_REMOVE) {
        score_removals(c, x, moves, n, sc);
    } else {
        int t = x->turn;
        uint32_t own = x->bb[t], opp = x->bb[1 - t];
        uint32_t empty = B->all & ~(own | opp);
        /* Points where the opponent would complete a line. */
        uint32_t opp_two = 0;
        for (uint32_t es = empty; es; es &= es - 1) {
            int e = ctz(es);
            for (int k = 0; k < B->nthrough[e]; k++) {
                uint32_t rest = B->through[e][k] & ~(1u << e);
                if ((rest & opp) == rest) opp_two |= 1u << e;
            }
        }
        int capture_ok = x->step != S_FREE;
        for (int i = 0; i < n; i++) {
            int a = moves[i], dst = a_dst(a), s = 0;
            uint32_t after = own | (1u << dst);
            if (a_kind(a) == K_MOVE) after &= ~(1u << a_src(a));
            if (forms(B, after, dst)) {
                if (x->step == S_PLACE) s += x->first < 0 ? 200000 : 3000; /* the first jare */
                else if (capture_ok) s += 200000;
            }
            if (opp_two >> dst & 1) s += 50000;
            if (a == c->killers[ply][0]) s += 40000;
            else if (a == c->killers[ply][1]) s += 39000;
            s += c->hist[t][a & 4095];
            if (x->step == S_PLACE) s += 20 * popc(B->adj[dst]);
            sc[i] = s;
        }
    }
    if (ttm) {
        for (int i = 0; i < n; i++)
            if (moves[i] == ttm) sc[i] = 1 << 29;
    }
}

static inline void pick(int *moves, int *sc, int n, int i) {
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (sc[j] > sc[best]) best = j;
    if (best != i) {
        int ta = moves[i];
        moves[i] = moves[best];
        moves[best] = ta;
        int ts = sc[i];
        sc[i] = sc[best];
        sc[best] = ts;
    }
}

/* After play(): forget the key the child pushed. */
static inline void unpush(Ctx *c, const Node *x, const Node *ch) {
    if (ch->hend > x->hend) c->filter[key_slot(c->keys[x->hend])]--;
}

/* A draw by repetition inside the search: this position already occurred on the path. */
static inline int path_repeats(Ctx *c, const Node *x) {
    if (x->phase != MOVEMENT || x->step == S_REMOVE || x->hend <= 0) return 0;
    uint64_t key = c->keys[x->hend - 1];
    if (c->filter[key_slot(key)] < 2) return 0;
    int lo = x->hstart > c->path_start ? x->hstart : c->path_start;
    for (int i = x->hend - 2; i >= lo; i--)
        if (c->keys[i] == key) return 1;
    return 0;
}

/* The static evaluation, through a small cache (leaves repeat through transpositions).
 * An entry is one word, so a probe touches one cache line: h = (key + 1) * ECACHE_MUL is a
 * bijection of the key (the multiplier is odd); its top ECACHE_LOG2 bits choose the entry,
 * which holds its other 48 bits above the 16-bit evaluation. Together they are h, so an
 * entry answers for one position only. An empty entry (0) answers for none: its 48 bits
 * are zero only when key + 1 is a multiple of 2**48, i.e. both colours on all 24 points. */
#define ECACHE_MUL 0x9e3779b97f4a7c15ull
static int cached_eval(Ctx *c, const Node *x) {
    uint64_t h = (tt_key(x) + 1) * ECACHE_MUL;
    uint64_t *slot = &c->ecache[h >> (64 - ECACHE_LOG2)];
    uint64_t tag = h << 16; /* the low 48 bits of h, above the value */
    if ((*slot & ~(uint64_t)0xffff) == tag) return (int16_t)(uint16_t)(*slot & 0xffff);
    int v = evaluate(c->B, x, c->W);
    *slot = tag | (uint16_t)(int16_t)v;
    return v;
}

static inline void ecache_prefetch(const Ctx *c, uint64_t key) {
    __builtin_prefetch(&c->ecache[((key + 1) * ECACHE_MUL) >> (64 - ECACHE_LOG2)]);
}

/* The full-board values (engine.tables.fullboard): when the placement has just filled
 * the board, the opening removals still to come, the value for the first remover (who
 * is to act) from a deep search made ahead of time, indexed by the colex rank of the
 * remover's stones. The board fixes the rest: the other player holds every other point. */
static inline int probe_full_board(const Ctx *c, const Node *x, int ply, int *score) {
    if (!c->full_board || x->phase != REMOVAL || (x->bb[0] | x->bb[1]) != c->B->all) return 0;
    uint32_t rank = 0;
    int k = 0;
    for (uint32_t m = x->bb[x->turn]; m; m &= m - 1) rank += c->binom[ctz(m)][++k];
    int v = c->full_board[rank];
    if (v > MATE_BOUND) v -= ply; /* a win found at the full board is ply moves further on */
    else if (v < -MATE_BOUND) v += ply;
    *score = v;
    return 1;
}

static int qsearch(Ctx *c, const Node *x, int alpha, int beta, int ply, int qd) {
    c->nodes++;
    check_time(c);
    if (c->stop) return 0;
    if (x->outcome) return terminal_score(x, ply);
    if (ply > c->seldepth) c->seldepth = ply;
    if (path_repeats(c, x)) return 0;
    int exact;
    if (probe_tables(x, ply, &exact)) return exact;
    if (ply > 0 && probe_full_board(c, x, ply, &exact)) return exact;
    const Board *B = c->B;
    int moves[MAXMOVES], sc[MAXMOVES], n;
    int best;
    if (x->step == S_REMOVE) {
        n = gen(B, x, moves);
        best = -INF;
        score_removals(c, x, moves, n, sc);
    } else {
        int stand = cached_eval(c, x);
        if (ply >= MAXPLY - 2 || qd >= 8) return stand;
        if (stand >= beta) return stand;
        if (stand > alpha) alpha = stand;
        best = stand;
        if (x->step != S_MOVE) return stand; /* placement and freeing moves: no captures */
        /* Only moves that close a jare. */
        int t = x->turn;
        uint32_t own = x->bb[t], empty = B->all & ~(x->bb[0] | x->bb[1]);
        n = 0;
        for (uint32_t es = empty; es; es &= es - 1) {
            int e = ctz(es);
            for (uint32_t from = B->adj[e] & own; from; from &= from - 1) {
                int s = ctz(from);
                if (forms(B, (own & ~(1u << s)) | (1u << e), e)) {
                    sc[n] = 0;
                    moves[n++] = mk(K_MOVE, s, e);
                }
            }
        }
        if (n == 0) return stand;
    }
    if (n) pick(moves, sc, n, 0);
    for (int i = 0; i < n; i++) {
        if (i + 1 < n) { /* as in search(): the same order, the next child's evaluation fetched */
            pick(moves, sc, n, i + 1);
            uint64_t k = child_key_guess(B, x, moves[i + 1]);
            if (k) ecache_prefetch(c, k);
        }
        Node ch;
        play(B, x, moves[i], &ch, c->keys, c->filter);
        int v;
        if (ch.turn == x->turn) v = qsearch(c, &ch, alpha, beta, ply + 1, qd + 1);
        else v = -qsearch(c, &ch, -beta, -alpha, ply + 1, qd + 1);
        unpush(c, x, &ch);
        if (c->stop) return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) break;
            }
        }
    }
    return best;
}

/* Selectivity away from the principal variation (beta - alpha == 1), in plies:
 * - a position where a stone is placed or moved (not a removal or a freeing move) whose
 *   static evaluation beats beta by RFP_MARGIN a ply, at most RFP_DEPTH plies from the
 *   horizon, is cut without a search (reverse futility);
 * - a node of at least IIR_DEPTH plies with no table entry is searched a ply shallower
 *   (it is a node the last iteration did not reach, or lost from the table);
 * - at most LMP_DEPTH plies from the horizon, quiet moves after the first 3 + 2 * depth^2 are
 *   not searched (the ordering puts jares, blocks and killers first);
 * and the quiet moves tried before a cutoff lose the history the cutoff move gains.
 * None of it applies to a placement searched to the full-board values (exact_to_full). */
#define RFP_MARGIN 60
#define RFP_DEPTH 3
#define IIR_DEPTH 5
#define LMP_DEPTH 3

static int search(Ctx *c, const Node *x, int depth, int alpha, int beta, int ply) {
    if (x->outcome) {
        c->nodes++;
        return terminal_score(x, ply);
    }
    if (ply > 0 && path_repeats(c, x)) {
        c->nodes++;
        return 0;
    }
    int exact;
    if (ply > 0 && (probe_tables(x, ply, &exact) || probe_full_board(c, x, ply, &exact))) {
        c->nodes++;
        return exact;
    }
    if (depth <= 0 || ply >= MAXPLY - 4) return qsearch(c, x, alpha, beta, ply, 0);
    c->nodes++;
    check_time(c);
    if (c->stop) return 0;
    const Board *B = c->B;
    /* Mate distance pruning. */
    int mate_hi = MATE - ply - 1;
    if (beta > mate_hi) {
        beta = mate_hi;
        if (alpha >= beta) return beta;
    }
    uint64_t key = tt_key(x);
    int use_tt = depth >= c->tt_min_depth;
    TTEntry *e = use_tt ? tt_probe(c, key) : NULL;
    /* The children probe the table too when they search at least tt_min_depth, and
     * evaluate themselves when they are near the horizon. */
    int prefetch = depth - 1 >= c->tt_min_depth, prefetch_eval = depth - 1 <= RFP_DEPTH;
    int ttm = 0;
    if (e) {
        ttm = e->move;
        if (e->depth >= depth && ply > 0) {
            int s = from_tt(e->score, ply);
            if (e->flag == TT_EXACT) return s;
            if (e->flag == TT_LOWER && s >= beta) return s;
            if (e->flag == TT_UPPER && s <= alpha) return s;
        }
    }
    /* With the full-board values, a placement whose every line reaches the full board
     * within the depth is searched exactly: its leaves are deep values, which neither the
     * static evaluation (the futility cut) nor a shallower search (a reduction) stands in for. */
    int exact_to_full = c->full_board && x->phase == PLACEMENT && x->hand[0] + x->hand[1] <= depth;
    int selective = beta - alpha == 1 && !exact_to_full;
    if (selective && ply > 0 && depth <= RFP_DEPTH && beta < MATE_BOUND && beta > -MATE_BOUND &&
        (x->step == S_MOVE || x->step == S_PLACE)) {
        int ev = cached_eval(c, x);
        if (ev - RFP_MARGIN * depth >= beta) return ev;
    }
    if (use_tt && !e && depth >= IIR_DEPTH && !exact_to_full) depth--;
    int moves[MAXMOVES], sc[MAXMOVES], tried[MAXMOVES], ntried = 0;
    int n = gen(B, x, moves);
    if (prefetch && ttm) {
        uint64_t k = child_key_guess(B, x, ttm);
        if (k) tt_prefetch(c, k);
    }
    score_actions(c, x, moves, n, sc, ttm, ply);
    int best = -INF, best_move = 0, alpha0 = alpha;
    int t = x->turn;
    if (n) pick(moves, sc, n, 0);
    for (int i = 0; i < n; i++) {
        /* The next action is picked now (sc[] does not change in the loop, so the order is
         * the same) and its child's bucket fetched while this one is searched. */
        if (i + 1 < n) {
            pick(moves, sc, n, i + 1);
            if (prefetch || prefetch_eval) {
                uint64_t k = child_key_guess(B, x, moves[i + 1]);
                if (k && prefetch) tt_prefetch(c, k);
                if (k && prefetch_eval) ecache_prefetch(c, k);
            }
        }
        int a = moves[i];
        if (selective && depth <= LMP_DEPTH && i >= 3 + 2 * depth * depth && sc[i] < 39000 &&
            x->step != S_REMOVE && best > -MATE_BOUND)
            break;
        Node ch;
        play(B, x, a, &ch, c->keys, c->filter);
        int same = ch.turn == t;
        /* A removal rides with the move that earned it: no depth spent on it. */
        int d = ch.step == S_REMOVE && ch.phase == MOVEMENT && !ch.outcome ? depth : depth - 1;
        int quiet = sc[i] < 39000;
        int v;
        if (i == 0) {
            v = same ? search(c, &ch, d, alpha, beta, ply + 1)
                     : -search(c, &ch, d, -beta, -alpha, ply + 1);
        } else {
            int r = 0;
            if (quiet && depth >= 3 && i >= 3 && x->step != S_REMOVE && !exact_to_full)
                r = i >= 8 ? 2 : 1;
            if (r >= d) r = d - 1 > 0 ? d - 1 : 0;
            v = same ? search(c, &ch, d - r, alpha, alpha + 1, ply + 1)
                     : -search(c, &ch, d - r, -alpha - 1, -alpha, ply + 1);
            if (!c->stop && v > alpha && r) {
                v = same ? search(c, &ch, d, alpha, alpha + 1, ply + 1)
                         : -search(c, &ch, d, -alpha - 1, -alpha, ply + 1);
            }
            if (!c->stop && v > alpha && v < beta) {
                v = same ? search(c, &ch, d, alpha, beta, ply + 1)
                         : -search(c, &ch, d, -beta, -alpha, ply + 1);
            }
        }
        unpush(c, x, &ch);
        if (c->stop) return 0;
        if (v > best) {
            best = v;
            best_move = a;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) {
                    if (quiet && x->step != S_REMOVE) {
                        if (c->killers[ply][0] != a) {
                            c->killers[ply][1] = c->killers[ply][0];
                            c->killers[ply][0] = a;
                        }
                    }
                    int32_t *h = &c->hist[t][a & 4095];
                    if (quiet && x->step != S_REMOVE) {
                        for (int k = 0; k < ntried; k++) {
                            int32_t *hm = &c->hist[t][tried[k] & 4095];
                            *hm -= depth * depth;
                            if (*hm < -30000) *hm = -30000;
                        }
                    }
                    *h += depth * depth;
                    if (*h > 30000) {
                        for (int k = 0; k < 4096; k++) {
                            c->hist[0][k] >>= 1;
                            c->hist[1][k] >>= 1;
                        }
                    }
                    break;
                }
            }
        }
        if (quiet && ntried < MAXMOVES) tried[ntried++] = a;
    }
    if (use_tt) {
        int flag = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
        tt_store(c, key, depth, flag, best, best_move, ply);
    }
    return best;
}

/* Search every root action to `depth`; root scores kept in rs[] (exact in all_scores mode). */
static int search_root(Ctx *c, const Node *x, int *moves, int *rs, int n, int depth,
                       int all_scores, int *best_out) {
    int alpha = -INF, beta = INF, best = -INF, best_move = moves[0];
    int t = x->turn;
    for (int i = 0; i < n; i++) {
        int a = moves[i];
        Node ch;
        play(c->B, x, a, &ch, c->keys, c->filter);
        int same = ch.turn == t;
        int d = ch.step == S_REMOVE && ch.phase == MOVEMENT && !ch.outcome ? depth : depth - 1;
        int v;
        if (all_scores || i == 0) {
            v = same ? search(c, &ch, d, -INF, INF, 1) : -search(c, &ch, d, -INF, INF, 1);
        } else {
            v = same ? search(c, &ch, d, alpha, alpha + 1, 1)
                     : -search(c, &ch, d, -alpha - 1, -alpha, 1);
            if (!c->stop && v > alpha) {
                v = same ? search(c, &ch, d, alpha, beta, 1) : -search(c, &ch, d, -beta, -alpha, 1);
            }
        }
        unpush(c, x, &ch);
        if (c->stop) break;
        rs[i] = v;
        if (v > best) {
            best = v;
            best_move = a;
            if (v > alpha) alpha = v;
        }
    }
    *best_out = best_move;
    return best;
}

/* Iterations a best move must survive to count as settled. */
#define SETTLED 3

/*
 * Whether to start another iteration, with a time limit (nanoseconds from the start):
 * never with one legal action; not past the soft limit once the best move has held for
 * SETTLED iterations; always before the eager limit (an unfinished iteration searches the
 * best move first and keeps a move that beats it, so the budget is not left unspent);
 * after it, not when the next iteration would likely overrun the hard limit, unless the
 * last one changed the best move. The hard limit stops any iteration.
 */
int core_keep_going(int n, int stable, int64_t elapsed, int64_t last, int64_t prev,
                    int64_t hard, int64_t soft, int64_t eager) {
    if (n <= 1) return 0;
    if (soft > 0 && stable >= SETTLED && elapsed > soft) return 0;
    if (elapsed < eager) return 1;
    /* The next iteration costs the last one times the recent growth (2..6). */
    int64_t growth_x10 = prev > 0 ? last * 10 / prev : 40;
    if (growth_x10 < 20) growth_x10 = 20;
    if (growth_x10 > 60) growth_x10 = 60;
    int64_t predicted = last * growth_x10 / 10;
    if (elapsed + predicted > hard && stable >= 1) return 0;
    return 1;
}

/*
 * How long the next iteration may run (nanoseconds from the start) when the budget is
 * below the hard limit: up to the budget while the last iteration kept the best move,
 * and past it, up to the hard limit, only while the last iteration changed it (the move
 * is not settled: the time goes where it pays); -1: stop, the budget is spent and the
 * best move held.
 */
int64_t core_iteration_limit(int stable, int64_t elapsed, int64_t budget, int64_t hard) {
    if (budget <= 0 || budget >= hard || stable == 0) return hard;
    return elapsed < budget ? budget : -1;
}

/* A tag (1..511, in the key's top 9 bits) for the board and the weights. */
static uint64_t search_tag(const Board *B, const Params *prm) {
    uint64_t h = (uint64_t)B->n * 0x9e3779b97f4a7c15ull + (uint64_t)B->family;
    for (int i = 0; i < NW; i++) h = mix(h ^ (uint64_t)(uint32_t)prm->weights[i]);
    h = mix(h ^ (uint64_t)(uintptr_t)prm->full_board); /* which values, if any */
    return (h % 511 + 1) << 55;
}

/*
 * Iterative deepening from a root position. keys[0..hlen) is its history (the
 * position's own key last, for a movement position). Returns 0, or -1 when the
 * game is over or memory is short.
 */
int core_search(const Board *B, const Node *root, const uint64_t *hist, int32_t hlen,
                const Params *prm, Result *res) {
    memset(res, 0, sizeof *res);
    if (root->outcome) return -1;
    Ctx *c = (Ctx *)calloc(1, sizeof(Ctx));
    if (!c) return -1;
    int tt_log2 = prm->tt_log2 < 10 ? 10 : prm->tt_log2 > 26 ? 26 : prm->tt_log2;
    c->tt = tt_acquire(tt_log2, &c->gen);
    if (!c->tt) {
        free(c);
        return -1;
    }
    c->ttmask = ((uint64_t)1 << tt_log2) - 1;
    c->keep = prm->keep_tt != 0;
    c->tag = search_tag(B, prm);
    c->B = B;
    c->W = prm->weights;
    c->tt_min_depth = prm->tt_min_depth;
    c->full_board = prm->full_board;
    for (int p = 0; c->full_board && p < MAXP; p++) {
        for (int j = 0; j <= MAXP / 2; j++)
            c->binom[p][j] = j == 0 ? 1 : p == 0 ? 0 : c->binom[p - 1][j - 1] + c->binom[p - 1][j];
    }
    int64_t start = now_ns();
    c->use_time = prm->time_ms > 0;
    int64_t hard_ns = (int64_t)prm->time_ms * 1000000ll;
    int64_t budget_ns = (int64_t)prm->budget_ms * 1000000ll;
    c->deadline_ns = start + (budget_ns > 0 && budget_ns < hard_ns ? budget_ns : hard_ns);
    int64_t soft_ns = prm->soft_ms > 0 ? start + (int64_t)prm->soft_ms * 1000000ll : 0;
    if (hlen > KEYSTACK - MAXPLY - 8) {
        /* Keep the most recent history (older keys cannot be in it: see the 100-move rule). */
        hist += hlen - (KEYSTACK - MAXPLY - 8);
        hlen = KEYSTACK - MAXPLY - 8;
    }
    for (int i = 0; i < hlen; i++) {
        c->keys[i] = hist[i];
        c->filter[key_slot(hist[i])]++;
    }
    Node x = *root;
    x.hstart = 0;
    x.hend = (int16_t)hlen;
    c->path_start = (x.phase == MOVEMENT && x.step != S_REMOVE && hlen > 0) ? hlen - 1 : hlen;

    int moves[MAXMOVES], rs[MAXMOVES], sc[MAXMOVES];
    int n = gen(B, &x, moves);
    if (n == 0) {
        free(c);
        return -1;
    }
    score_actions(c, &x, moves, n, sc, 0, 0);
    /* Initial order: by the ordering heuristics (stable for determinism). */
    for (int i = 0; i < n; i++) pick(moves, sc, n, i);

    int max_depth = prm->max_depth < 1 ? 1 : prm->max_depth > 100 ? 100 : prm->max_depth;
    int done_depth = 0, best_move = moves[0], best_score = 0;
    int last_scores[MAXMOVES];
    for (int i = 0; i < n; i++) last_scores[i] = 0;
    int stable = 0;
    int64_t last_ns = 0, prev_ns = 0, iter_start = start;
    for (int depth = 1; depth <= max_depth; depth++) {
        if (depth > prm->min_depth && done_depth > 0 && c->use_time) {
            int64_t t = now_ns();
            if (!core_keep_going(n, stable, t - start, last_ns, prev_ns, hard_ns,
                                 soft_ns ? soft_ns - start : 0,
                                 (int64_t)prm->eager_ms * 1000000ll))
                break;
            int64_t until = core_iteration_limit(stable, t - start, budget_ns, hard_ns);
            if (until < 0) break;
            c->deadline_ns = start + until;
        }
        iter_start = now_ns();
        int saved = c->use_time;
        if (depth <= prm->min_depth) c->use_time = 0;
        for (int i = 0; i < n; i++) rs[i] = -INF;
        int bm;
        int s = search_root(c, &x, moves, rs, n, depth, prm->all_scores, &bm);
        c->use_time = saved;
        if (c->stop) {
            /* A move that beat the previous best in this unfinished iteration is better. */
            if (!prm->all_scores && rs[0] != -INF && bm != moves[0]) {
                best_move = bm;
                best_score = s;
            }
            break;
        }
        stable = done_depth > 0 && bm == best_move ? stable + 1 : 0;
        prev_ns = last_ns;
        last_ns = now_ns() - iter_start;
        done_depth = depth;
        best_move = bm;
        best_score = s;
        /* Reorder root actions: best first, then by score (stable). */
        for (int i = 0; i < n; i++) last_scores[i] = rs[i];
        for (int i = 1; i < n; i++) {
            int a = moves[i], v = last_scores[i], j = i - 1;
            while (j >= 0 && last_scores[j] < v) {
                moves[j + 1] = moves[j];
                last_scores[j + 1] = last_scores[j];
                j--;
            }
            moves[j + 1] = a;
            last_scores[j + 1] = v;
        }
        if (!prm->all_scores && (s > MATE_BOUND || s < -MATE_BOUND) && depth >= 2) {
            /* A forced result: deeper iterations only find the same. */
            if (MATE - (s > 0 ? s : -s) < depth) break;
        }
    }
    res->action = best_move;
    res->score = best_score;
    res->depth = done_depth;
    res->nodes = (int64_t)c->nodes;
    res->nroot = n;
    res->seldepth = c->seldepth;
    res->stopped = c->stop;
    for (int i = 0; i < n; i++) {
        res->root_actions[i] = moves[i];
        res->root_scores[i] = last_scores[i];
    }
    free(c);
    return 0;
}

/* Static evaluation of a position, for tests and tuning. */
int core_evaluate(const Board *B, const Node *x, const Params *prm) {
    if (x->outcome) return terminal_score(x, 0);
    return evaluate(B, x, prm->weights);
}

/* The evaluation's features of a position (NF of them); returns NF. */
int core_features(const Board *B, const Node *x, int32_t *out) {
    features(B, x, out);
    return NF;
}
