/*
 * Endgame tables for the movement phase: retrograde analysis, files and probes.
 *
 * Plain C with no Python API: engine/tables/native.py loads it with ctypes.
 *
 * A state is a board and the player due to move (RULES.md 5: when that player is
 * blocked, the opponent acts, with a freeing move). Its value is stored from the
 * point of view of the player who acts: 0 draw, d (1..0x7fff) a win in d moves,
 * 0x8000 | d a loss in d moves. A capture's removal rides with its move; the mover
 * removes the stone that is best for them. Positions that can repeat without end are
 * draws (the repetition rule); the 100-move rule is not part of the value, so a
 * probe's distance tells whether a win arrives in time.
 *
 * Table (x, y): the player due to move has x stones, the other y. Its index is
 * class(due stones) * C(n - x, y) + colex rank of the other stones among the free
 * points, with the due stones brought to the smallest image under the board's
 * symmetries (and the other stones to the smallest rank under what fixes that image).
 * The tables (x, y) and (y, x) form one system (the side due alternates); captures
 * leave the system for (y - 1, x), solved earlier.
 *
 * A file stores each value in one byte (header version 2: 0 draw, d a win in d moves,
 * 0x80 | d a loss in d moves) when every distance in it is below 128, else in two bytes
 * as above (version 1): the six-stone tables fit twice as many on a disk.
 */

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define TABLES_ABI 5
#define MAXP 24
#define MAXTHROUGH 4
#define MAXSYM 16
#define MAXK 12
#define MAXTHREADS 16

#define V_DRAW 0u
#define V_LOSS 0x8000u
#define V_NONCANON 0xfffeu
#define V_UNKNOWN 0xffffu

enum { F_SHAX = 0, F_JAR = 1 };

/* The board, filled in by native.py from engine.variants.Variant. sym[0] is the identity. */
typedef struct {
    int32_t n, family, nsym, pad;
    uint32_t all;
    uint32_t adj[MAXP];
    int32_t nthrough[MAXP];
    uint32_t through[MAXP][MAXTHROUGH];
    int8_t sym[MAXSYM][MAXP];
    uint64_t key; /* a fingerprint of the board, written into each file */
} Geometry;

typedef struct {
    char magic[8];
    uint32_t version, n, a, b;
    uint64_t key, count, states, wins, draws, losses;
    uint32_t maxwin, maxloss;
    double seconds;
    uint8_t rest[40];
} Header;
_Static_assert(sizeof(Header) == 128, "the file header is 128 bytes");

typedef struct {
    uint32_t nclass;
    uint32_t *rep;  /* class -> its smallest mask */
    uint16_t *stab; /* class -> the symmetries that fix rep (bit 0: identity) */
    uint32_t *cls;  /* colex rank of a mask -> class */
    uint8_t *g;     /* colex rank of a mask -> a symmetry taking it to rep */
} Classes;

typedef struct {
    const uint16_t *val;  /* two bytes a value (version 1), or */
    const uint8_t *val8;  /* one byte a value (version 2) */
    void *map;
    size_t map_len;
    uint64_t count;
} Table;

typedef struct {
    Geometry G;
    uint32_t perm[MAXSYM][3][256];
    uint64_t binom[MAXP + 2][MAXP + 2];
    Classes cl[MAXP + 1];
    Table t[MAXK + 1][MAXK + 1];
    int32_t stop; /* set by tables_stop from another thread: a build in progress ends */
} Ctx;

/* ------------------------------------------------------------------ helpers */

static inline int popc(uint32_t x) { return __builtin_popcount(x); }
static inline int ctz(uint32_t x) { return __builtin_ctz(x); }

static inline uint32_t perm(const Ctx *c, int s, uint32_t m) {
    return c->perm[s][0][m & 255] | c->perm[s][1][(m >> 8) & 255] | c->perm[s][2][(m >> 16) & 255];
}

static inline uint64_t rank(const Ctx *c, uint32_t m) {
    uint64_t r = 0;
    int i = 1;
    for (; m; m &= m - 1, i++) r += c->binom[ctz(m)][i];
    return r;
}

static uint32_t unrank(const Ctx *c, uint64_t r, int k) {
    uint32_t m = 0;
    int p = MAXP;
    for (int i = k; i >= 1; i--) {
        while (c->binom[p][i] > r) p--;
        m |= 1u << p;
        r -= c->binom[p][i];
    }
    return m;
}

/* The bits of m among the points of free, renumbered 0.. (free contains m). */
static inline uint32_t squeeze(uint32_t m, uint32_t taken) {
    uint32_t out = 0;
    for (; m; m &= m - 1) {
        int p = ctz(m);
        out |= 1u << (p - popc(taken & ((1u << p) - 1)));
    }
    return out;
}

static inline uint32_t expand(uint32_t sq, uint32_t free) {
    uint32_t out = 0;
    for (int j = 0; free; free &= free - 1, j++)
        if (sq >> j & 1) out |= free & -free;
    return out;
}

static inline uint32_t next_comb(uint32_t m) {
    uint32_t t = m | (m - 1);
    return (t + 1) | (((~t & -~t) - 1) >> (ctz(m) + 1));
}

static inline uint32_t reach(const Ctx *c, uint32_t set) {
    uint32_t r = 0;
    for (; set; set &= set - 1) r |= c->G.adj[ctz(set)];
    return r;
}

static inline int mobile(const Ctx *c, uint32_t own, uint32_t empty) {
    if (popc(empty) <= popc(own)) return (reach(c, empty) & own) != 0;
    return (reach(c, own) & empty) != 0;
}

static inline int forms(const Ctx *c, uint32_t own, int p) {
    for (int k = 0; k < c->G.nthrough[p]; k++) {
        uint32_t l = c->G.through[p][k];
        if ((own & l) == l) return 1;
    }
    return 0;
}

/* Who acts when the player with stones `due` is due to move: 1 that player, 0 the
 * other (a freeing move), -1 nobody (neither can move: a draw). */
static inline int actor_is_due(const Ctx *c, uint32_t due, uint32_t other) {
    uint32_t empty = c->G.all & ~(due | other);
    if (mobile(c, due, empty)) return 1;
    if (mobile(c, other, empty)) return 0;
    return -1;
}

static inline uint32_t neg(uint32_t v) {
    if (v == V_DRAW) return v;
    return v & V_LOSS ? v & 0x7fffu : v | V_LOSS;
}

/* An order on values: wins first (sooner better), then draws, then losses (later better). */
#define S_NONE (-1000000)
static inline int vscore(uint32_t v) {
    if (v == V_DRAW) return 0;
    if (v & V_LOSS) return -100000 + (int)(v & 0x7fff);
    return 100000 - (int)v;
}

/* ------------------------------------------------------------------ context */

static int ensure_classes(Ctx *c, int a) {
    Classes *cl = &c->cl[a];
    if (cl->cls) return 0;
    int n = c->G.n;
    uint64_t N = c->binom[n][a];
    cl->cls = (uint32_t *)malloc(N * sizeof(uint32_t));
    cl->g = (uint8_t *)malloc(N);
    cl->rep = (uint32_t *)malloc(N * sizeof(uint32_t));
    cl->stab = (uint16_t *)malloc(N * sizeof(uint16_t));
    if (!cl->cls || !cl->g || !cl->rep || !cl->stab) return -1;
    uint32_t m = a ? (1u << a) - 1 : 0;
    for (uint64_t r = 0; r < N; r++) {
        uint32_t best = m;
        int bg = 0;
        for (int s = 1; s < c->G.nsym; s++) {
            uint32_t pm = perm(c, s, m);
            if (pm < best) {
                best = pm;
                bg = s;
            }
        }
        if (best == m) {
            uint32_t k = cl->nclass++;
            cl->rep[k] = m;
            uint16_t st = 0;
            for (int s = 0; s < c->G.nsym; s++)
                if (perm(c, s, m) == m) st |= (uint16_t)(1u << s);
            cl->stab[k] = st;
            cl->cls[r] = k;
            cl->g[r] = 0;
        } else {
            cl->cls[r] = cl->cls[rank(c, best)];
            cl->g[r] = (uint8_t)bg;
        }
        if (m) m = next_comb(m);
    }
    return 0;
}

int tables_abi(void) { return TABLES_ABI; }

/* The value of every set of `a` points, in colex order (`out`, C(n, a) of them), from a
 * value per class of them under the symmetries (`per_class`, in the order of their
 * smallest sets). Returns 0, -1 when `nclass` is not the number of classes, -2 out of
 * memory. */
int tables_expand_classes(void *ctx, int a, const int16_t *per_class, uint64_t nclass,
                          int16_t *out) {
    Ctx *c = (Ctx *)ctx;
    if (a < 1 || a > c->G.n) return -1;
    if (ensure_classes(c, a)) return -2;
    const Classes *cl = &c->cl[a];
    if (nclass != cl->nclass) return -1;
    for (uint64_t r = 0; r < c->binom[c->G.n][a]; r++) out[r] = per_class[cl->cls[r]];
    return 0;
}

/* Ask a build running on this context (in another thread) to end: it returns -5 within
 * a few thousand positions, having written no file part way. 0 clears the request. */
void tables_stop(void *ctx, int32_t on) { __atomic_store_n(&((Ctx *)ctx)->stop, on, __ATOMIC_RELAXED); }

static inline int stopping(const Ctx *c) { return __atomic_load_n(&c->stop, __ATOMIC_RELAXED) != 0; }

#define STOP_EVERY 4096 /* positions between two looks at the stop request */

void *tables_new(const Geometry *G) {
    if (G->n > MAXP || G->nsym < 1 || G->nsym > MAXSYM) return NULL;
    Ctx *c = (Ctx *)calloc(1, sizeof(Ctx));
    if (!c) return NULL;
    c->G = *G;
    for (int i = 0; i <= MAXP + 1; i++) {
        c->binom[i][0] = 1;
        for (int j = 1; j <= i; j++) c->binom[i][j] = c->binom[i - 1][j - 1] + (j < i ? c->binom[i - 1][j] : 0);
    }
    for (int s = 0; s < G->nsym; s++)
        for (int k = 0; k < 3; k++)
            for (int byte = 0; byte < 256; byte++) {
                uint32_t out = 0;
                for (int j = 0; j < 8; j++) {
                    int p = 8 * k + j;
                    if (byte >> j & 1 && p < G->n) out |= 1u << G->sym[s][p];
                }
                c->perm[s][k][byte] = out;
            }
    return c;
}

void tables_free(void *ctx) {
    Ctx *c = (Ctx *)ctx;
    if (!c) return;
    for (int a = 0; a <= MAXP; a++) {
        free(c->cl[a].cls);
        free(c->cl[a].g);
        free(c->cl[a].rep);
        free(c->cl[a].stab);
    }
    for (int a = 0; a <= MAXK; a++)
        for (int b = 0; b <= MAXK; b++)
            if (c->t[a][b].map) munmap(c->t[a][b].map, c->t[a][b].map_len);
    free(c);
}

/* Index of the state (due stones x, other stones y) in table (x, y). */
static inline uint64_t state_index(const Ctx *c, int x, int y, uint32_t due, uint32_t other) {
    const Classes *cl = &c->cl[x];
    uint64_t rd = rank(c, due);
    uint32_t k = cl->cls[rd];
    uint32_t rep = cl->rep[k];
    uint32_t o = perm(c, cl->g[rd], other);
    uint64_t best = rank(c, squeeze(o, rep));
    for (uint32_t st = cl->stab[k] & ~1u; st; st &= st - 1) {
        uint64_t r = rank(c, squeeze(perm(c, ctz(st), o), rep));
        if (r < best) best = r;
    }
    return (uint64_t)k * c->binom[c->G.n - x][y] + best;
}

static inline uint64_t table_size(const Ctx *c, int x, int y) {
    return (uint64_t)c->cl[x].nclass * c->binom[c->G.n - x][y];
}

static inline void decode(const Ctx *c, int x, int y, uint64_t idx, uint32_t *due, uint32_t *other) {
    uint64_t nsub = c->binom[c->G.n - x][y], k, r;
    if (idx >> 32 == 0) { /* 32-bit division: several times faster */
        k = (uint32_t)idx / (uint32_t)nsub;
        r = (uint32_t)idx - (uint32_t)k * (uint32_t)nsub;
    } else {
        k = idx / nsub;
        r = idx % nsub;
    }
    uint32_t rep = c->cl[x].rep[k];
    *due = rep;
    *other = expand(unrank(c, r, y), c->G.all & ~rep);
}

/* ------------------------------------------------------------------ files */

int tables_attach(void *ctx, int a, int b, const char *path) {
    Ctx *c = (Ctx *)ctx;
    if (a < 1 || b < 1 || a > MAXK || b > MAXK || a + b > c->G.n) return -1;
    if (ensure_classes(c, a)) return -2;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -3;
    struct stat st;
    if (fstat(fd, &st) || (size_t)st.st_size < sizeof(Header)) {
        close(fd);
        return -4;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return -5;
    const Header *h = (const Header *)map;
    uint64_t count = table_size(c, a, b);
    size_t width = h->version == 2 ? 1 : h->version == 1 ? 2 : 0;
    if (memcmp(h->magic, "SHAXTB01", 8) || !width || h->n != (uint32_t)c->G.n ||
        h->a != (uint32_t)a || h->b != (uint32_t)b || h->key != c->G.key || h->count != count ||
        (size_t)st.st_size != sizeof(Header) + count * width) {
        munmap(map, (size_t)st.st_size);
        return -6;
    }
    Table *t = &c->t[a][b];
    if (t->map) munmap(t->map, t->map_len);
    t->map = map;
    t->map_len = (size_t)st.st_size;
    const char *body = (const char *)map + sizeof(Header);
    t->val = width == 2 ? (const uint16_t *)body : NULL;
    t->val8 = width == 1 ? (const uint8_t *)body : NULL;
    t->count = count;
    return 0;
}

int tables_has(void *ctx, int a, int b) {
    Ctx *c = (Ctx *)ctx;
    if (a < 0 || b < 0 || a > MAXK || b > MAXK) return 0;
    return c->t[a][b].map != NULL;
}

/* The stored value of a state in an attached table (x, y); V_UNKNOWN when absent. */
static inline uint32_t lookup(const Ctx *c, uint32_t due, uint32_t other) {
    int x = popc(due), y = popc(other);
    if (x > MAXK || y > MAXK) return V_UNKNOWN;
    const Table *t = &c->t[x][y];
    if (t->val8) {
        uint32_t b = t->val8[state_index(c, x, y, due, other)];
        return b & 0x80u ? V_LOSS | (b & 0x7fu) : b;
    }
    if (!t->val) return V_UNKNOWN;
    return t->val[state_index(c, x, y, due, other)];
}

/*
 * The value of a movement-phase position for the player who acts (`turn`; `freeing`
 * when that player is freeing the blocked opponent, who is then the one due): 1 a
 * win, -1 a loss, 0 a draw, with the distance in moves; -2 when not in the tables.
 */
int tables_probe(void *ctx, uint32_t white, uint32_t black, int32_t turn, int32_t freeing,
                 int32_t *dist) {
    const Ctx *c = (const Ctx *)ctx;
    int due = freeing ? 1 - turn : turn;
    uint32_t d = due ? black : white, o = due ? white : black;
    uint32_t v = lookup(c, d, o);
    if (v == V_UNKNOWN) return -2;
    *dist = (int32_t)(v & 0x7fff);
    if (v == V_DRAW) return 0;
    return v & V_LOSS ? -1 : 1;
}

/* ------------------------------------------------------------------ solving */

typedef struct {
    uint32_t *v;
    size_t n, cap;
} Vec;

static int vec_push(Vec *v, uint32_t x) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 1024;
        uint32_t *nv = (uint32_t *)realloc(v->v, cap * sizeof(uint32_t));
        if (!nv) return -1;
        v->v = nv;
        v->cap = cap;
    }
    v->v[v->n++] = x;
    return 0;
}

/* Lists of states by level, one set per thread (no locks while pushing). */
typedef struct {
    Vec *lv;
    int nlv;
} Levels;

static int level_push(Levels *L, int level, uint32_t x) {
    if (level >= L->nlv) {
        int nl = L->nlv ? L->nlv : 64;
        while (nl <= level) nl *= 2;
        Vec *nv = (Vec *)realloc(L->lv, (size_t)nl * sizeof(Vec));
        if (!nv) return -1;
        memset(nv + L->nlv, 0, (size_t)(nl - L->nlv) * sizeof(Vec));
        L->lv = nv;
        L->nlv = nl;
    }
    return vec_push(&L->lv[level], x);
}

typedef struct {
    Ctx *c;
    int ntab;
    int X[2], Y[2];
    uint64_t size[2], off[2], total;
    uint16_t *val;
    uint8_t *cnt;
    int nthreads;
    Levels done[MAXTHREADS], cand[MAXTHREADS];
    int error[MAXTHREADS];
} Sys;

static inline int tix_of(const Sys *S, int x, int y) { return (S->X[0] == x && S->Y[0] == y) ? 0 : 1; }

static inline uint32_t gid_of(const Sys *S, int x, int y, uint32_t due, uint32_t other) {
    int t = tix_of(S, x, y);
    return (uint32_t)(S->off[t] + state_index(S->c, x, y, due, other));
}

static inline void gid_decode(const Sys *S, uint32_t gid, int *x, int *y, uint32_t *due,
                              uint32_t *other) {
    int t = (S->ntab == 2 && gid >= S->off[1]) ? 1 : 0;
    *x = S->X[t];
    *y = S->Y[t];
    decode(S->c, *x, *y, gid - S->off[t], due, other);
}

/* The best capture for the player who acts (the due player, `due` stones): a score as
 * vscore (a win on the spot is a win in 0 further moves), S_NONE if no move captures. */
static int best_exit(const Ctx *c, uint32_t due, uint32_t other) {
    uint32_t empty = c->G.all & ~(due | other);
    int best = S_NONE;
    for (uint32_t s = due; s; s &= s - 1) {
        int src = ctz(s);
        for (uint32_t ts = c->G.adj[src] & empty; ts; ts &= ts - 1) {
            int dst = ctz(ts);
            uint32_t moved = due ^ (1u << src) ^ (1u << dst);
            if (!forms(c, moved, dst)) continue;
            if (c->G.family == F_JAR || popc(other) <= 3) return 100000;
            for (uint32_t r = other; r; r &= r - 1) {
                uint32_t left = other & ~(r & -r);
                int who = actor_is_due(c, left, moved);
                int sc;
                if (who < 0) sc = 0;
                else {
                    uint32_t v = lookup(c, left, moved);
                    if (v == V_UNKNOWN) return S_NONE - 1; /* a table is missing */
                    sc = vscore(who ? neg(v) : v);
                }
                if (sc > best) best = sc;
            }
        }
    }
    return best;
}

static inline void add_unique(uint32_t *list, int *n, uint32_t g) {
    for (int i = 0; i < *n; i++)
        if (list[i] == g) return;
    list[(*n)++] = g;
}

/* Distinct states reached by a move that does not capture. */
static int successors(const Sys *S, int x, int y, uint32_t due, uint32_t other, int who,
                      uint32_t *out) {
    const Ctx *c = S->c;
    uint32_t empty = c->G.all & ~(due | other);
    int n = 0;
    if (who == 1) {
        for (uint32_t s = due; s; s &= s - 1) {
            int src = ctz(s);
            for (uint32_t ts = c->G.adj[src] & empty; ts; ts &= ts - 1) {
                int dst = ctz(ts);
                uint32_t moved = due ^ (1u << src) ^ (1u << dst);
                if (forms(c, moved, dst)) continue;
                add_unique(out, &n, gid_of(S, y, x, other, moved));
            }
        }
    } else {
        /* A freeing move: a stone next to a blocked one, if any can move; never captures. */
        uint32_t movers = other & reach(c, due);
        if (!(reach(c, empty) & movers)) movers = other;
        for (uint32_t s = movers; s; s &= s - 1) {
            int src = ctz(s);
            for (uint32_t ts = c->G.adj[src] & empty; ts; ts &= ts - 1) {
                int dst = ctz(ts);
                add_unique(out, &n, gid_of(S, x, y, due, other ^ (1u << src) ^ (1u << dst)));
            }
        }
    }
    return n;
}

/* Distinct states with a move that does not capture into (due, other): the mover is
 * the other player, and either was due (an ordinary move) or freed the due one. */
static int predecessors(const Sys *S, int x, int y, uint32_t due, uint32_t other, uint32_t *out) {
    const Ctx *c = S->c;
    uint32_t empty = c->G.all & ~(due | other);
    int n = 0;
    for (uint32_t ts = other; ts; ts &= ts - 1) {
        int dst = ctz(ts);
        for (uint32_t ss = c->G.adj[dst] & empty; ss; ss &= ss - 1) {
            int src = ctz(ss);
            uint32_t before = other ^ (1u << src) ^ (1u << dst);
            uint32_t empty_before = c->G.all & ~(due | before);
            if (!forms(c, other, dst)) add_unique(out, &n, gid_of(S, y, x, before, due));
            if (!mobile(c, due, empty_before)) {
                uint32_t freeing = before & reach(c, due);
                int legal = (reach(c, empty_before) & freeing) ? (c->G.adj[src] & due) != 0 : 1;
                if (legal) add_unique(out, &n, gid_of(S, x, y, due, before));
            }
        }
    }
    return n;
}

typedef struct {
    Sys *S;
    int tid;
    uint64_t lo, hi;
    const uint32_t *items;
    int level;
} Job;

static void *init_job(void *arg) {
    Job *J = (Job *)arg;
    Sys *S = J->S;
    Ctx *c = S->c;
    uint32_t succ[128];
    for (uint64_t gid = J->lo; gid < J->hi; gid++) {
        if ((gid - J->lo) % STOP_EVERY == 0 && stopping(c)) {
            S->error[J->tid] = 3;
            return NULL;
        }
        int t = (S->ntab == 2 && gid >= S->off[1]) ? 1 : 0;
        int x = S->X[t], y = S->Y[t];
        uint64_t local = gid - S->off[t];
        uint64_t nsub = c->binom[c->G.n - x][y];
        uint32_t k = (uint32_t)(local / nsub);
        uint32_t due, other;
        decode(c, x, y, local, &due, &other);
        if ((c->cl[x].stab[k] & ~1u) && state_index(c, x, y, due, other) != local) {
            S->val[gid] = V_NONCANON;
            continue;
        }
        int who = actor_is_due(c, due, other);
        if (who < 0) {
            S->val[gid] = V_DRAW;
            continue;
        }
        int n = successors(S, x, y, due, other, who, succ);
        if (who == 1) {
            int ex = best_exit(c, due, other);
            if (ex == S_NONE - 1) {
                S->error[J->tid] = 1;
                return NULL;
            }
            if (ex > 50000) {
                n++;
                if (level_push(&S->cand[J->tid], 100000 - ex + 1, (uint32_t)gid)) S->error[J->tid] = 2;
            } else if (ex == 0) {
                n++;
            } else if (n == 0 && ex != S_NONE) {
                int d = ex + 100000 + 1;
                S->val[gid] = (uint16_t)(V_LOSS | (uint32_t)d);
                if (level_push(&S->done[J->tid], d, (uint32_t)gid)) S->error[J->tid] = 2;
            }
        }
        S->cnt[gid] = (uint8_t)n;
    }
    return NULL;
}

static void *level_job(void *arg) {
    Job *J = (Job *)arg;
    Sys *S = J->S;
    Ctx *c = S->c;
    int d = J->level;
    uint32_t pred[256];
    for (uint64_t i = J->lo; i < J->hi; i++) {
        if ((i - J->lo) % STOP_EVERY == 0 && stopping(c)) {
            S->error[J->tid] = 3;
            return NULL;
        }
        uint32_t gid = J->items[i];
        uint32_t v = S->val[gid];
        int x, y;
        uint32_t due, other;
        gid_decode(S, gid, &x, &y, &due, &other);
        int np = predecessors(S, x, y, due, other, pred);
        int s_is_due = actor_is_due(c, due, other); /* who acts in S */
        for (int k = 0; k < np; k++) {
            uint32_t p = pred[k];
            /* The predecessor's mover is S's other player: S's actor is the same player
             * exactly when S is a freeing position. */
            uint32_t vp = s_is_due ? neg(v) : v;
            if (!(vp & V_LOSS)) {
                uint16_t expect = V_UNKNOWN;
                if (__atomic_compare_exchange_n(&S->val[p], &expect, (uint16_t)(d + 1), 0,
                                                __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                    if (level_push(&S->done[J->tid], d + 1, p)) S->error[J->tid] = 2;
                }
            } else {
                if (__atomic_sub_fetch(&S->cnt[p], 1, __ATOMIC_RELAXED) == 0 &&
                    __atomic_load_n(&S->val[p], __ATOMIC_RELAXED) == V_UNKNOWN) {
                    int px, py;
                    uint32_t pdue, pother;
                    gid_decode(S, p, &px, &py, &pdue, &pother);
                    int L = d + 1;
                    if (actor_is_due(c, pdue, pother) == 1) {
                        int ex = best_exit(c, pdue, pother);
                        if (ex != S_NONE && ex + 100000 + 1 > L) L = ex + 100000 + 1;
                    }
                    __atomic_store_n(&S->val[p], (uint16_t)(V_LOSS | (uint32_t)L), __ATOMIC_RELAXED);
                    if (level_push(&S->done[J->tid], L, p)) S->error[J->tid] = 2;
                }
            }
        }
    }
    return NULL;
}

static void run_jobs(Sys *S, void *(*fn)(void *), uint64_t lo, uint64_t hi, const uint32_t *items,
                     int level) {
    int nt = S->nthreads;
    if (hi - lo < 4096) nt = 1;
    Job jobs[MAXTHREADS];
    pthread_t th[MAXTHREADS];
    uint64_t span = (hi - lo + (uint64_t)nt - 1) / (uint64_t)nt;
    for (int t = 0; t < nt; t++) {
        uint64_t a = lo + span * (uint64_t)t, b = a + span;
        if (a > hi) a = hi;
        if (b > hi) b = hi;
        jobs[t] = (Job){S, t, a, b, items, level};
    }
    int started = 0;
    for (int t = 1; t < nt; t++) {
        if (pthread_create(&th[t], NULL, fn, &jobs[t])) break;
        started = t;
    }
    fn(&jobs[0]);
    for (int t = started + 1; t < nt; t++) fn(&jobs[t]); /* threads that failed to start */
    for (int t = 1; t <= started; t++) pthread_join(th[t], NULL);
}

typedef void (*progress_fn)(int32_t stage, int64_t done, int64_t total);

/* Count a value into a file header's states, wins, draws, losses (n[0..3]) and its
 * longest win and loss (longest[0..1]). */
static void tally(uint64_t *n, uint32_t *longest, uint32_t v) {
    n[0]++;
    if (v == V_DRAW) n[2]++;
    else if (v & V_LOSS) {
        n[3]++;
        if ((v & 0x7fff) > longest[1]) longest[1] = v & 0x7fff;
    } else {
        n[1]++;
        if (v > longest[0]) longest[0] = v;
    }
}

static int write_table(const Ctx *c, const char *path, int x, int y, const uint16_t *val,
                       uint64_t count, double seconds) {
    Header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, "SHAXTB01", 8);
    h.n = (uint32_t)c->G.n;
    h.a = (uint32_t)x;
    h.b = (uint32_t)y;
    h.key = c->G.key;
    h.count = count;
    h.seconds = seconds;
    for (uint64_t i = 0; i < count; i++)
        if (val[i] != V_NONCANON) tally(&h.states, &h.maxwin, val[i]);
    int narrow = h.maxwin < 0x80 && h.maxloss < 0x80;
    h.version = narrow ? 2 : 1;
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.part", path) >= (int)sizeof tmp) return -1;
    FILE *f = fopen(tmp, "wb");
    if (!f) return -1;
    int ok = fwrite(&h, sizeof h, 1, f) == 1;
    /* Duplicates of a symmetric state are never read: store them as draws. */
    uint16_t buf[4096];
    uint8_t buf8[4096];
    for (uint64_t i = 0; ok && i < count; i += 4096) {
        if (stopping(c)) ok = 0;
        size_t m = count - i < 4096 ? (size_t)(count - i) : 4096;
        for (size_t j = 0; j < m; j++) buf[j] = val[i + j] == V_NONCANON ? V_DRAW : val[i + j];
        if (narrow) {
            for (size_t j = 0; j < m; j++)
                buf8[j] = (uint8_t)(buf[j] & V_LOSS ? 0x80u | (buf[j] & 0x7fu) : buf[j]);
            ok = fwrite(buf8, 1, m, f) == m;
        } else {
            ok = fwrite(buf, sizeof(uint16_t), m, f) == m;
        }
    }
    if (fclose(f) || !ok) {
        remove(tmp);
        return stopping(c) ? -5 : -1;
    }
    return rename(tmp, path) ? -1 : 0;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/*
 * A build's checkpoint: the state of a system's solve after its first pass or a level,
 * from which a build stopped later (a restart, a crash) goes on instead of starting the
 * system over. It holds every value and count of successors left, and the wins by a
 * capture not yet reached; the states decided but not yet passed on to their
 * predecessors are those whose value lies beyond the level, and are found again from
 * the values. Written beside (".part") and renamed, so a reader sees a whole one.
 */
typedef struct {
    char magic[8];
    uint32_t n, a, b, level; /* level: the last level done (0: the first pass) */
    uint64_t key, build, total, ncand;
    int64_t decided;
    double seconds;
} Checkpoint;

#define CHUNK_ENTRIES (1u << 20) /* entries written between two looks at the stop request */
#define CHECKPOINT_RESERVE ((uint64_t)64 << 20) /* free disk left over after a checkpoint */

static int read_chunks(const Ctx *c, FILE *f, void *data, size_t size, uint64_t count) {
    char *p = (char *)data;
    for (uint64_t i = 0; i < count; i += CHUNK_ENTRIES) {
        if (stopping(c)) return 0;
        size_t m = count - i < CHUNK_ENTRIES ? (size_t)(count - i) : CHUNK_ENTRIES;
        if (fread(p + i * size, size, m, f) != m) return 0;
    }
    return 1;
}

/* Whether the disk of `path` has room for `bytes` more and the reserve. */
static int room_for(const char *path, uint64_t bytes) {
    char dir[4096];
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (n >= sizeof dir) return 0;
    if (slash && n == 0) n = 1; /* the root folder */
    if (n) memcpy(dir, path, n);
    else dir[n++] = '.';
    dir[n] = 0;
    struct statvfs st;
    if (statvfs(dir, &st)) return 0;
    return (uint64_t)st.f_bavail * (uint64_t)st.f_frsize >= bytes + CHECKPOINT_RESERVE;
}

static int write_chunks(const Ctx *c, FILE *f, const void *data, size_t size, uint64_t count) {
    const char *p = (const char *)data;
    for (uint64_t i = 0; i < count; i += CHUNK_ENTRIES) {
        if (stopping(c)) return 0;
        size_t m = count - i < CHUNK_ENTRIES ? (size_t)(count - i) : CHUNK_ENTRIES;
        if (fwrite(p + i * size, size, m, f) != m) return 0;
    }
    return 1;
}

/* Save the state after `level` (best effort: a checkpoint the disk has no room for, one
 * that cannot be written, or a stop request while writing it leaves the one before). */
static void save_checkpoint(const Sys *S, const char *path, uint64_t build, int level,
                            int64_t decided, double seconds) {
    const Ctx *c = S->c;
    Checkpoint h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, "SHAXCK01", 8);
    h.n = (uint32_t)c->G.n;
    h.a = (uint32_t)S->X[0];
    h.b = (uint32_t)S->Y[0];
    h.level = (uint32_t)level;
    h.key = c->G.key;
    h.build = build;
    h.total = S->total;
    h.decided = decided;
    h.seconds = seconds;
    for (int t = 0; t < MAXTHREADS; t++)
        for (int l = level + 1; l < S->cand[t].nlv; l++) h.ncand += S->cand[t].lv[l].n;
    if (!room_for(path, sizeof h + 3 * h.total + 8 * h.ncand)) return;
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.part", path) >= (int)sizeof tmp) return;
    FILE *f = fopen(tmp, "wb");
    if (!f) return;
    int ok = fwrite(&h, sizeof h, 1, f) == 1 && write_chunks(c, f, S->val, 2, S->total) &&
             write_chunks(c, f, S->cnt, 1, S->total);
    for (int t = 0; ok && t < MAXTHREADS; t++)
        for (int l = level + 1; ok && l < S->cand[t].nlv; l++) {
            const Vec *cv = &S->cand[t].lv[l];
            uint32_t lv = (uint32_t)l;
            for (size_t i = 0; ok && i < cv->n; i++)
                ok = fwrite(&lv, 4, 1, f) == 1 && fwrite(&cv->v[i], 4, 1, f) == 1;
        }
    if (fclose(f) || !ok || rename(tmp, path)) remove(tmp);
}

static inline int level_of(uint32_t v) {
    if (v == V_DRAW || v == V_NONCANON || v == V_UNKNOWN) return 0;
    return (int)(v & 0x7fffu);
}

/* Take up a checkpoint of this system: the last level done (0 after the first pass), or
 * -1 when there is none that fits, or a stop request came while reading it (the values
 * then start over, or the build stops at its first look at the request). */
static int load_checkpoint(Sys *S, const char *path, uint64_t build, int64_t *decided,
                           double *seconds) {
    const Ctx *c = S->c;
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    Checkpoint h;
    int ok = fread(&h, sizeof h, 1, f) == 1 && !memcmp(h.magic, "SHAXCK01", 8) &&
             h.n == (uint32_t)c->G.n && h.a == (uint32_t)S->X[0] && h.b == (uint32_t)S->Y[0] &&
             h.key == c->G.key && h.build == build && h.total == S->total;
    ok = ok && read_chunks(c, f, S->val, 2, S->total) && read_chunks(c, f, S->cnt, 1, S->total);
    for (uint64_t i = 0; ok && i < h.ncand; i++) {
        uint32_t e[2];
        ok = fread(e, 4, 2, f) == 2 && e[0] > h.level && e[1] < S->total &&
             !level_push(&S->cand[0], (int)e[0], e[1]);
    }
    ok = ok && fgetc(f) == EOF;
    fclose(f);
    /* The states decided beyond the level: passed on to their predecessors at theirs. */
    for (uint64_t g = 0; ok && g < S->total; g++) {
        if (g % CHUNK_ENTRIES == 0 && stopping(c)) ok = 0;
        else if (level_of(S->val[g]) > (int)h.level)
            ok = !level_push(&S->done[0], level_of(S->val[g]), (uint32_t)g);
    }
    if (!ok) {
        for (int l = 0; l < S->cand[0].nlv; l++) S->cand[0].lv[l].n = 0;
        for (int l = 0; l < S->done[0].nlv; l++) S->done[0].lv[l].n = 0;
        memset(S->cnt, 0, S->total);
        return -1;
    }
    *decided = h.decided;
    *seconds = h.seconds;
    return (int)h.level;
}

/*
 * Solve the system of tables (a, b) and (b, a) and write them to path_ab and path_ba
 * (the same table when a == b). The tables the captures lead to, (b - 1, a) and
 * (a - 1, b), must be attached when they have three stones or more. Returns 0, or
 * -1 bad arguments, -2 out of memory, -3 a table is missing, -4 a file failed, -5
 * stopped (tables_stop; no file is left part way).
 *
 * With a `checkpoint` path, the build saves its state there (see Checkpoint) after its
 * first pass and after a level, once `every` seconds have passed since the last save,
 * and starts from a checkpoint of the same system and `build` (the library's own
 * fingerprint) found there; the checkpoint is removed once the tables are written.
 */
int tables_build(void *ctx, int a, int b, const char *path_ab, const char *path_ba,
                 int32_t nthreads, progress_fn progress, const char *checkpoint,
                 uint64_t build, double every) {
    Ctx *c = (Ctx *)ctx;
    double t0 = now_s(), before = 0.0, saved = t0;
    if (checkpoint && !*checkpoint) checkpoint = NULL;
    if (a < 3 || b < 3 || a > MAXK || b > MAXK || a + b > c->G.n) return -1;
    if (c->G.family == F_SHAX) {
        if (b > 3 && !c->t[b - 1][a].map) return -3;
        if (a > 3 && a != b && !c->t[a - 1][b].map) return -3;
    }
    if (ensure_classes(c, a) || ensure_classes(c, b)) return -2;
    Sys *S = (Sys *)calloc(1, sizeof(Sys));
    if (!S) return -2;
    S->c = c;
    S->nthreads = nthreads < 1 ? 1 : nthreads > MAXTHREADS ? MAXTHREADS : nthreads;
    S->ntab = a == b ? 1 : 2;
    S->X[0] = a;
    S->Y[0] = b;
    S->X[1] = b;
    S->Y[1] = a;
    S->size[0] = table_size(c, a, b);
    S->size[1] = S->ntab == 2 ? table_size(c, b, a) : 0;
    S->off[0] = 0;
    S->off[1] = S->size[0];
    S->total = S->size[0] + S->size[1];
    int rc = 0;
    if (S->total >= 0xfffffff0ull) {
        free(S);
        return -2;
    }
    S->val = (uint16_t *)malloc(S->total * sizeof(uint16_t));
    S->cnt = (uint8_t *)calloc(S->total, 1);
    if (!S->val || !S->cnt) {
        rc = -2;
        goto out;
    }
    int64_t decided = 0;
    int start = checkpoint ? load_checkpoint(S, checkpoint, build, &decided, &before) : -1;
    if (start >= 0) goto levels;
    for (uint64_t i = 0; i < S->total; i++) S->val[i] = V_UNKNOWN;

    /* Every state: its distinct successors, its captures, and the wins they give. */
    start = 0;
    uint64_t chunk = S->total / 64 + 1;
    for (uint64_t lo = 0; lo < S->total; lo += chunk) {
        uint64_t hi = lo + chunk < S->total ? lo + chunk : S->total;
        run_jobs(S, init_job, lo, hi, NULL, 0);
        for (int t = 0; t < S->nthreads; t++) {
            if (S->error[t] == 1) rc = -3;
            else if (S->error[t] == 3 && !rc) rc = -5;
            else if (S->error[t] == 2) rc = -2;
        }
        if (rc) goto out;
        if (progress) progress(0, (int64_t)hi, (int64_t)S->total);
    }
    if (checkpoint && now_s() - saved >= every) {
        save_checkpoint(S, checkpoint, build, 0, 0, before + now_s() - t0);
        saved = now_s();
    }

    /* Level by level: the states decided in d moves decide their predecessors. */
levels:
    for (int d = start + 1;; d++) {
        int more = 0;
        for (int t = 0; t < S->nthreads; t++)
            if (S->done[t].nlv > d || S->cand[t].nlv > d) more = 1;
        if (!more) break;
        for (int t = 0; t < S->nthreads; t++) {
            if (d < S->cand[t].nlv) {
                Vec *cv = &S->cand[t].lv[d];
                for (size_t i = 0; i < cv->n; i++) {
                    uint32_t g = cv->v[i];
                    if (S->val[g] == V_UNKNOWN) {
                        S->val[g] = (uint16_t)d;
                        if (level_push(&S->done[0], d, g)) rc = -2;
                    }
                }
                free(cv->v);
                memset(cv, 0, sizeof *cv);
            }
        }
        size_t n = 0;
        for (int t = 0; t < S->nthreads; t++)
            if (d < S->done[t].nlv) n += S->done[t].lv[d].n;
        if (rc) goto out;
        if (n == 0) continue;
        uint32_t *items = (uint32_t *)malloc(n * sizeof(uint32_t));
        if (!items) {
            rc = -2;
            goto out;
        }
        size_t k = 0;
        for (int t = 0; t < S->nthreads; t++) {
            if (d < S->done[t].nlv) {
                Vec *dv = &S->done[t].lv[d];
                memcpy(items + k, dv->v, dv->n * sizeof(uint32_t));
                k += dv->n;
                free(dv->v);
                memset(dv, 0, sizeof *dv);
            }
        }
        run_jobs(S, level_job, 0, n, items, d);
        free(items);
        for (int t = 0; t < S->nthreads; t++)
            if (S->error[t]) rc = S->error[t] == 3 ? -5 : -2;
        if (rc) goto out;
        decided += (int64_t)n;
        if (checkpoint && now_s() - saved >= every) {
            save_checkpoint(S, checkpoint, build, d, decided, before + now_s() - t0);
            saved = now_s();
        }
        if (progress) progress(d, decided, (int64_t)S->total);
    }
    for (uint64_t i = 0; i < S->total; i++)
        if (S->val[i] == V_UNKNOWN) S->val[i] = V_DRAW; /* neither side can force a win */

    double secs = before + now_s() - t0;
    int wrote = write_table(c, path_ab, a, b, S->val, S->size[0], secs);
    if (!wrote && S->ntab == 2) wrote = write_table(c, path_ba, b, a, S->val + S->off[1], S->size[1], secs);
    if (wrote) rc = wrote == -5 ? -5 : -4;
    else if (checkpoint) remove(checkpoint);
out:
    for (int t = 0; t < MAXTHREADS; t++) {
        for (int l = 0; l < S->done[t].nlv; l++) free(S->done[t].lv[l].v);
        for (int l = 0; l < S->cand[t].nlv; l++) free(S->cand[t].lv[l].v);
        free(S->done[t].lv);
        free(S->cand[t].lv);
    }
    free(S->val);
    free(S->cnt);
    free(S);
    return rc;
}

/* Nanoseconds per probe of table (a, b) on `count` random states (for benchmarks). */
double tables_bench_probe(void *ctx, int a, int b, int64_t count, uint64_t seed) {
    Ctx *c = (Ctx *)ctx;
    if (a > MAXK || b > MAXK || !c->t[a][b].map) return -1.0;
    uint64_t s = seed | 1;
    uint32_t *boards = (uint32_t *)malloc((size_t)count * 2 * sizeof(uint32_t));
    if (!boards) return -1.0;
    for (int64_t i = 0; i < count; i++) {
        uint32_t due = 0, other = 0;
        while (popc(due) < a) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            due |= 1u << (s % (uint64_t)c->G.n);
        }
        while (popc(other) < b) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            uint32_t p = 1u << (s % (uint64_t)c->G.n);
            if (!(p & due)) other |= p;
        }
        boards[2 * i] = due;
        boards[2 * i + 1] = other;
    }
    double t0 = now_s();
    uint64_t sink = 0;
    for (int64_t i = 0; i < count; i++) sink += lookup(c, boards[2 * i], boards[2 * i + 1]);
    double ns = (now_s() - t0) * 1e9 / (double)count;
    free(boards);
    return sink == 1 ? ns + 0.0 : ns;
}

/* ------------------------------------------------------------------ placement solve */

/*
 * The placement phase and the opening removals, solved by minimax over the movement
 * tables (every placement adds a stone, so the phase is acyclic). A position holds k
 * placed stones (white ceil(k/2), black floor(k/2); white acts when k is even), and
 * who formed the first jare (none, white or black). Its value is stored for the player
 * who acts, as in the tables; k = 2p (the full board) holds the value for the player
 * who acts first after it (the first-jare player, else black): in shax before the two
 * opening removals, in jar at the start of the movement. Distances count placements
 * and moves; a removal, opening ones included, rides with the action before it.
 *
 * File: a Header (magic SHAXPL01, a = b = the stones a side, the empty board's value
 * in the first four spare bytes), then two bytes a value, level by level (k = 0 .. 2p), in each
 * level three blocks (no first jare, white's, black's) indexed as table (w, b) with
 * white as the due stones. Positions that are not canonical under the symmetries, or
 * whose first jare does not fit the board (no line and a first jare, or a line and
 * none), are stored as draws and never read.
 */

#define SOLVED_ABI 1
#define MAXLEVEL (2 * MAXK + 1)

typedef struct {
    int pieces;
    uint64_t off[MAXLEVEL + 1], size[MAXLEVEL + 1], count;
    uint16_t *val; /* malloc'd while building, or */
    const uint16_t *mapped;
    void *map;
    size_t map_len;
} Solved;

static inline int level_white(int k) { return (k + 1) / 2; }
static inline int level_black(int k) { return k / 2; }

static int solved_layout(Ctx *c, Solved *s, int pieces) {
    if (pieces < 1 || pieces > MAXK || 2 * pieces > c->G.n) return -1;
    s->pieces = pieces;
    uint64_t off = 0;
    for (int k = 0; k <= 2 * pieces; k++) {
        int w = level_white(k), b = level_black(k);
        if (ensure_classes(c, w)) return -2;
        s->size[k] = table_size(c, w, b);
        s->off[k] = off;
        off += 3 * s->size[k];
    }
    s->count = off;
    return 0;
}

static inline uint64_t solved_index(const Ctx *c, const Solved *s, uint32_t white, uint32_t black,
                                    int first) {
    int w = popc(white), b = popc(black), k = w + b;
    return s->off[k] + (uint64_t)(first + 1) * s->size[k] + state_index(c, w, b, white, black);
}

static inline uint32_t solved_value(const Solved *s, uint64_t i) {
    return s->val ? s->val[i] : s->mapped[i];
}

/* Whether a player's stones hold a complete line. */
static int has_line(const Ctx *c, uint32_t own) {
    for (uint32_t m = own; m; m &= m - 1)
        if (forms(c, own, ctz(m))) return 1;
    return 0;
}

/* A movement start with `due` to move, for the player with `due`. */
static uint32_t start_value(const Ctx *c, uint32_t due, uint32_t other) {
    int who = actor_is_due(c, due, other);
    if (who < 0) return V_DRAW;
    uint32_t v = lookup(c, due, other);
    if (v == V_UNKNOWN) return v;
    return who ? v : neg(v);
}

/* The second opening removal: `second` removes one of `first`'s stones, then `first`
 * moves first. The value for `second`. */
static uint32_t second_removal(const Ctx *c, uint32_t first, uint32_t second) {
    uint32_t best = V_UNKNOWN;
    for (uint32_t r = first; r; r &= r - 1) {
        uint32_t v = start_value(c, first & ~(r & -r), second);
        if (v == V_UNKNOWN) return v;
        v = neg(v);
        if (best == V_UNKNOWN || vscore(v) > vscore(best)) best = v;
    }
    return best;
}

/* The full board: the value for the player who acts first after it (`opener`). */
static uint32_t full_board(const Ctx *c, uint32_t opener, uint32_t other) {
    if (c->G.family == F_JAR) return start_value(c, opener, other);
    uint32_t best = V_UNKNOWN;
    for (uint32_t r = other; r; r &= r - 1) {
        uint32_t v = second_removal(c, opener, other & ~(r & -r));
        if (v == V_UNKNOWN) return v;
        v = neg(v);
        if (best == V_UNKNOWN || vscore(v) > vscore(best)) best = v;
    }
    return best;
}

static inline uint32_t one_more(uint32_t v) { return v == V_DRAW ? v : (v & V_LOSS) | ((v & 0x7fffu) + 1); }

static int first_fits(const Ctx *c, uint32_t white, uint32_t black, int first) {
    int lw = has_line(c, white), lb = has_line(c, black);
    if (first < 0) return !lw && !lb;
    return first == 0 ? lw : lb;
}

/* The value of a placement position (k < 2p stones) for the player who acts, from the
 * level above; V_UNKNOWN when a value it needs is missing. */
static uint32_t placement_value(const Ctx *c, const Solved *s, uint32_t white, uint32_t black,
                                int first) {
    int k = popc(white) + popc(black), a = k & 1, last = k + 1 == 2 * s->pieces;
    uint32_t empty = c->G.all & ~(white | black);
    uint32_t best = V_UNKNOWN;
    for (uint32_t e = empty; e; e &= e - 1) {
        int p = ctz(e);
        uint32_t nw = a ? white : white | 1u << p, nb = a ? black | 1u << p : black;
        int f = first >= 0 ? first : forms(c, a ? nb : nw, p) ? a : -1;
        uint32_t v = solved_value(s, solved_index(c, s, nw, nb, f));
        int actor = last ? (f >= 0 ? f : 1) : 1 - a;
        if (actor != a) v = neg(v);
        v = one_more(v);
        if (best == V_UNKNOWN || vscore(v) > vscore(best)) best = v;
    }
    return best;
}

/*
 * Solve the placement of `pieces` stones a side (the movement tables of the stones
 * left after it must be attached) and write the values to `path`. Returns 0, or -1 bad
 * arguments, -2 out of memory, -3 a table is missing, -4 the file failed, -5 stopped.
 */
int solved_build(void *ctx, int pieces, const char *path) {
    Ctx *c = (Ctx *)ctx;
    double t0 = now_s();
    Solved s;
    memset(&s, 0, sizeof s);
    int rc = solved_layout(c, &s, pieces);
    if (rc) return rc;
    s.val = (uint16_t *)malloc(s.count * sizeof(uint16_t));
    if (!s.val) return -2;
    Header h;
    memset(&h, 0, sizeof h);
    for (int k = 2 * pieces; k >= 0 && !rc; k--) {
        int w = level_white(k), b = level_black(k);
        for (uint64_t idx = 0; idx < s.size[k] && !rc; idx++) {
            if (idx % STOP_EVERY == 0 && stopping(c)) {
                rc = -5;
                break;
            }
            uint32_t white, black;
            decode(c, w, b, idx, &white, &black);
            int canonical = state_index(c, w, b, white, black) == idx;
            for (int f = -1; f <= 1; f++) {
                uint64_t i = s.off[k] + (uint64_t)(f + 1) * s.size[k] + idx;
                if (!canonical || !first_fits(c, white, black, f)) {
                    s.val[i] = V_DRAW;
                    continue;
                }
                uint32_t v;
                if (k == 2 * pieces) {
                    int opener = f >= 0 ? f : 1;
                    v = opener ? full_board(c, black, white) : full_board(c, white, black);
                } else {
                    v = placement_value(c, &s, white, black, f);
                }
                if (v == V_UNKNOWN) {
                    rc = -3;
                    break;
                }
                s.val[i] = (uint16_t)v;
                tally(&h.states, &h.maxwin, v);
            }
        }
    }
    if (!rc) {
        memcpy(h.magic, "SHAXPL01", 8);
        h.version = SOLVED_ABI;
        h.n = (uint32_t)c->G.n;
        h.a = h.b = (uint32_t)pieces;
        h.key = c->G.key;
        h.count = s.count;
        uint32_t start = s.val[0]; /* the empty board, white to place, no first jare */
        memcpy(h.rest, &start, sizeof start);
        h.seconds = now_s() - t0;
        char tmp[4096];
        FILE *f = NULL;
        if (snprintf(tmp, sizeof tmp, "%s.part", path) >= (int)sizeof tmp || !(f = fopen(tmp, "wb"))) {
            rc = -4;
        } else {
            int ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(s.val, sizeof(uint16_t), s.count, f) == s.count;
            if (fclose(f) || !ok || rename(tmp, path)) {
                remove(tmp);
                rc = -4;
            }
        }
    }
    free(s.val);
    return rc;
}

/* The values of a solved file, for probing; NULL when it does not fit this board. */
void *solved_open(void *ctx, const char *path) {
    Ctx *c = (Ctx *)ctx;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) || (size_t)st.st_size < sizeof(Header)) {
        close(fd);
        return NULL;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return NULL;
    const Header *h = (const Header *)map;
    Solved *s = (Solved *)calloc(1, sizeof(Solved));
    if (!s || memcmp(h->magic, "SHAXPL01", 8) || h->version != SOLVED_ABI ||
        h->n != (uint32_t)c->G.n || h->key != c->G.key || solved_layout(c, s, (int)h->a) ||
        h->count != s->count || (size_t)st.st_size != sizeof(Header) + s->count * 2) {
        free(s);
        munmap(map, (size_t)st.st_size);
        return NULL;
    }
    s->map = map;
    s->map_len = (size_t)st.st_size;
    s->mapped = (const uint16_t *)((const char *)map + sizeof(Header));
    return s;
}

void solved_close(void *solved) {
    Solved *s = (Solved *)solved;
    if (!s) return;
    munmap(s->map, s->map_len);
    free(s);
}

/*
 * The value for the player who acts of a placement position (`removal` 0), or of an
 * opening removal (`removal` 1: before the first, with the board full, or before the
 * second); `first` is who formed the first jare (-1 nobody, 0 white, 1 black). 1 a
 * win, -1 a loss, 0 a draw, with the distance; -2 when not held (or a table missing).
 */
int solved_probe(void *ctx, void *solved, uint32_t white, uint32_t black, int32_t first,
                 int32_t removal, int32_t *dist) {
    const Ctx *c = (const Ctx *)ctx;
    const Solved *s = (const Solved *)solved;
    int w = popc(white), b = popc(black), p = s->pieces, opener = first >= 0 ? first : 1;
    uint32_t v;
    if (first < -1 || first > 1 || (white & black) || ((white | black) & ~c->G.all)) return -2;
    if (!removal) {
        if (w + b >= 2 * p || w != level_white(w + b) || b != level_black(w + b)) return -2;
        if (!first_fits(c, white, black, first)) return -2;
        v = solved_value(s, solved_index(c, s, white, black, first));
    } else if (c->G.family == F_JAR) {
        return -2;
    } else if (w == p && b == p) {
        if (!first_fits(c, white, black, first)) return -2;
        v = solved_value(s, solved_index(c, s, white, black, first));
    } else if ((opener ? w : b) == p - 1 && (opener ? b : w) == p) {
        v = opener ? second_removal(c, black, white) : second_removal(c, white, black);
        if (v == V_UNKNOWN) return -2;
    } else {
        return -2;
    }
    *dist = (int32_t)(v & 0x7fff);
    if (v == V_DRAW) return 0;
    return v & V_LOSS ? -1 : 1;
}
