/* table_solve.c - solving an endgame class (table.c): the graph of every
 * position's choices, then value iteration level by level, on several
 * threads and, through kemet_table_parts, several processes (MPI).
 * The method is described at the top of table.c.
 */
#include "table.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SAME 0x80000000u /* edge flag: the child's mover is the parent's */
#define CHUNK 4096       /* positions per unit of parallel work */
#define BLOCK 64         /* entries per edge offset kept for the sweeps */
#define SWEEP_UNIT 2048  /* entries per unit of a level's sweep */
#define MAX_SWEEPS 5000

/* ---------------------------------------------------------------------------
 * The graph: for every entry, its option groups (the pre-throw moves, then
 * one group per throw), each a list of children. A child is an entry with
 * SAME set when the mover keeps the turn, or one of three constant slots
 * past the last entry (the mover lost, drew, won).
 * ------------------------------------------------------------------------ */

typedef struct solver {
    kemet_table *t;
    const kemet_rules *r;
    int threads;
    int nthrows;
    kemet_throw thr[KEMET_MAX_THROWS];
    double p[KEMET_MAX_THROWS];
    int G; /* groups per entry: 1 + nthrows */
    long nchunks;
    uint32_t **edges; /* per chunk */
    uint32_t **off;   /* per chunk: CHUNK + 1 offsets into edges */
    uint8_t *cnt;     /* entries * G children per group */
    uint8_t *ok;      /* entries: a valid position */
    double *V;        /* by number in level order; + 3 slots */
    uint32_t *order;  /* valid entries, highest level first */
    uint32_t *rank;   /* entry -> its number in that order */
    uint32_t *E;      /* the edges in that order, children numbered */
    uint8_t *C;       /* children per group, in that order */
    int nlevels;
    uint16_t *level;    /* per side state */
    _Atomic int failed; /* a thread ran out of memory, or an error */
    kemet_error err;
    void (*progress)(void *ctx, const char *what, double done);
    void *pctx;
    atomic_long done_units;
    long long *lstart; /* each level's first entry number; nlevels + 1 */
    size_t *boff;      /* edge offsets of entries 0, BLOCK, 2 BLOCK, ... */
    const kemet_table_parts *parts; /* NULL: alone */
    /* a level's sweep: entries [lo, hi), of which this process makes
       [plo, phi) into `next` */
    long long lo, hi, plo, phi;
    double *next, *buf; /* the values made: buf, or V itself */
    double *udiff;      /* each unit's largest change */
    long *counts;       /* shared: each part's entries of the level */
} solver;

static uint32_t child_code(const solver *s, const kemet_pos *from,
                           const kemet_pos *c) {
    uint32_t E = (uint32_t)s->t->entries;
    if (c->result != KEMET_PLAYING) {
        if (c->result == KEMET_DRAW)
            return SAME | (E + 1);
        return SAME | (c->result == from->to ? E + 2 : E);
    }
    int64_t x = index_of(s->t, c);
    if (x < 0)
        return UINT32_MAX;
    return (uint32_t)x | (c->to == from->to ? SAME : 0);
}

static void build_chunk(void *ctx, long chunk, int thread) {
    (void)thread;
    solver *s = ctx;
    kemet_table *t = s->t;
    long long lo = chunk * (long long)CHUNK, hi = lo + CHUNK;
    if (hi > t->entries)
        hi = t->entries;
    kemet_move *mv = malloc(KEMET_MAX_MOVES * sizeof *mv);
    kemet_throw *thr = malloc(KEMET_MAX_THROWS * sizeof *thr);
    kemet_weight *w = malloc(KEMET_MAX_THROWS * sizeof *w);
    uint32_t *off = malloc((CHUNK + 1) * sizeof *off);
    size_t cap = 16 * CHUNK, n = 0;
    uint32_t *e = malloc(cap * sizeof *e);
    if (!mv || !thr || !w || !off || !e)
        goto fail;
    for (long long x = lo; x < hi; x++) {
        off[x - lo] = (uint32_t)n;
        kemet_pos pos;
        position_of(t, x, &pos);
        if (kemet_pos_check(s->r, &pos, NULL) != KEMET_OK)
            continue;
        s->ok[x] = 1;
        for (int g = 0; g < s->G; g++) {
            int k;
            const kemet_throw *tg = NULL;
            if (g == 0) {
                k = kemet_prethrow(s->r, &pos, mv);
            } else {
                tg = &s->thr[g - 1];
                k = kemet_moves(s->r, &pos, tg, mv);
            }
            if (k < 0 || k > 255)
                goto fail;
            if (n + (size_t)k > cap) {
                cap = 2 * cap + (size_t)k;
                uint32_t *ne = realloc(e, cap * sizeof *e);
                if (!ne)
                    goto fail;
                e = ne;
            }
            int kept = 0;
            for (int i = 0; i < k; i++) {
                kemet_pos c;
                kemet_make(s->r, &pos, tg, &mv[i], &c, NULL);
                uint32_t code = child_code(s, &pos, &c);
                if (code == UINT32_MAX)
                    goto fail;
                bool dup = false; /* moves that lead to one position */
                for (int j = 0; j < kept && !dup; j++)
                    dup = e[n + (size_t)j] == code;
                if (!dup)
                    e[n + (size_t)kept++] = code;
            }
            n += (size_t)kept;
            s->cnt[x * s->G + g] = (uint8_t)kept;
        }
        /* The throws must not depend on the position (checked here, where
         * every position of the class passes). */
        kemet_weight total;
        int k = kemet_throws(s->r, &pos, thr, w, &total);
        if (k != s->nthrows)
            goto fail;
        for (int i = 0; i < k; i++)
            if (!kemet_throw_equal(&thr[i], &s->thr[i]) ||
                fabs((double)w[i] / (double)total - s->p[i]) > 1e-15)
                goto fail;
    }
    off[hi - lo] = (uint32_t)n;
    s->edges[chunk] = e;
    s->off[chunk] = off;
    free(mv);
    free(thr);
    free(w);
    long d = atomic_fetch_add(&s->done_units, 1) + 1;
    if (s->progress && thread == 0)
        s->progress(s->pctx, "positions", (double)d / (double)s->nchunks);
    return;
fail:
    free(mv);
    free(thr);
    free(w);
    free(off);
    free(e);
    atomic_store(&s->failed, 1);
}

/* ---------------------------------------------------------------------------
 * Value iteration
 * ------------------------------------------------------------------------ */

/* The level of valid entry x, 0 for the highest. */
static int level_of(const solver *s, long long x) {
    const kemet_table *t = s->t;
    uint32_t a = (uint32_t)(x / t->M), o = (uint32_t)(x % t->M);
    if (a >= t->M) {
        kemet_pos p;
        position_of(t, x, &p);
        a = kmt_table_side_rank(t, p.sq[0], p.heap[0], p.hand[0]);
    }
    return s->nlevels - 1 - (s->level[a] + s->level[o]);
}

/* A child's value for entry i's sweep: within i's block of its level,
 * the value just made for an entry before i (Gauss-Seidel); anywhere
 * else, V as it stood when the level began. In place (next is V) both are
 * V. */
static inline double fresh(const double *V, const double *next, uint32_t c,
                           long long b0, long long i, bool inplace) {
    long long y = c & ~SAME;
    /* y in [b0, i), in one comparison; no branch taken on it */
    const double *from =
        inplace || (uint64_t)(y - b0) >= (uint64_t)(i - b0) ? V : next;
    double v = from[y], w = 1 - v;
    return (c & SAME) ? v : w;
}

/* Entries [a, b) made from their children; the largest change. */
static inline double sweep_range(const solver *s, long long a, long long b,
                                 bool inplace) {
    /* the edges of entry a: from its block's first entry on */
    const int G = s->G;
    const uint32_t *e = s->E + s->boff[a / BLOCK];
    const uint8_t *cnt = s->C + (a / BLOCK * BLOCK) * G;
    for (long long x = a / BLOCK * BLOCK; x < a; x++, cnt += G)
        for (int g = 0; g < G; g++)
            e += cnt[g];
    /* next indexed by entry number */
    double *next = s->next - s->plo, worst = 0;
    const double *V = s->V, *p = s->p;
    for (long long i = a; i < b; i++, cnt += G) {
        double pre = -1;
        for (int j = 0; j < cnt[0]; j++) {
            double v = fresh(V, next, *e++, a, i, inplace);
            pre = v > pre ? v : pre;
        }
        double sum = 0;
        for (int g = 1; g < G; g++) {
            double best = -1;
            for (int j = 0; j < cnt[g]; j++) {
                double v = fresh(V, next, *e++, a, i, inplace);
                best = v > best ? v : best;
            }
            sum += p[g - 1] * best;
        }
        double v = pre > sum ? pre : sum, c = fabs(v - V[i]);
        worst = c > worst ? c : worst;
        next[i] = v;
    }
    return worst;
}

/* Block `unit` of this process's entries [plo, phi) of a level (blocks of
 * SWEEP_UNIT from the level's first entry) made into `next`: a buffer, or
 * V itself where the level is one block made by this process alone
 * (Gauss-Seidel in place, the same values). */
static void sweep_unit(void *ctx, long unit, int thread) {
    (void)thread;
    solver *s = ctx;
    long long a = s->plo + (long long)unit * SWEEP_UNIT,
              b = a + SWEEP_UNIT < s->phi ? a + SWEEP_UNIT : s->phi;
    s->udiff[unit] = s->next == s->V + s->plo ? sweep_range(s, a, b, true)
                                              : sweep_range(s, a, b, false);
}

/* Shared among processes: the worst of every process's status, so that
 * all go on or all stop together. Alone: rc. */
static int agree(const solver *s, int rc) {
    const kemet_table_parts *P = s->parts;
    if (!P || P->parts <= 1)
        return rc;
    int all[KEMET_MAX_PARTS];
    long ones[KEMET_MAX_PARTS];
    for (int i = 0; i < P->parts; i++)
        ones[i] = 1;
    if (P->join(P->ctx, &rc, all, sizeof rc, ones))
        return KEMET_ENOMEM;
    for (int i = 0; i < P->parts; i++)
        if (all[i])
            return all[i];
    return KEMET_OK;
}

/* The graph in level order, and the sweeps' buffers. */
static int prepare(solver *s) {
    kemet_table *t = s->t;
    /* Levels: counted, then the valid entries numbered highest level
     * first; the graph is copied in that order, so that a sweep reads its
     * edges front to back. */
    int maxside = 0;
    for (uint32_t a = 0; a < t->M; a++)
        maxside = s->level[a] > maxside ? s->level[a] : maxside;
    s->nlevels = 2 * maxside + 1;
    long long n = t->valid;
    long long *fill = calloc((size_t)s->nlevels + 1, sizeof *fill);
    s->rank = malloc((size_t)t->entries * sizeof *s->rank);
    s->order = malloc((size_t)n * sizeof *s->order);
    if (!fill || !s->rank || !s->order) {
        free(fill);
        return KEMET_ENOMEM;
    }
    for (long long x = 0; x < t->entries; x++)
        if (s->ok[x])
            fill[level_of(s, x) + 1]++;
    for (int L = 0; L < s->nlevels; L++)
        fill[L + 1] += fill[L];
    s->lstart = malloc(((size_t)s->nlevels + 1) * sizeof *s->lstart);
    if (!s->lstart) {
        free(fill);
        return KEMET_ENOMEM;
    }
    memcpy(s->lstart, fill, ((size_t)s->nlevels + 1) * sizeof *fill);
    for (long long x = 0; x < t->entries; x++) {
        s->rank[x] = UINT32_MAX;
        if (s->ok[x]) {
            long long i = fill[level_of(s, x)]++;
            s->order[i] = (uint32_t)x;
            s->rank[x] = (uint32_t)i;
        }
    }
    free(fill);
    size_t nedges = 0;
    for (long c = 0; c < s->nchunks; c++)
        nedges += s->off[c][CHUNK < t->entries - c * (long long)CHUNK
                                ? CHUNK
                                : t->entries - c * (long long)CHUNK];
    s->E = malloc((nedges ? nedges : 1) * sizeof *s->E);
    s->C = malloc((size_t)n * (size_t)s->G);
    s->boff = malloc(((size_t)n / BLOCK + 1) * sizeof *s->boff);
    if (!s->E || !s->C || !s->boff)
        return KEMET_ENOMEM;
    size_t k = 0;
    for (long long i = 0; i < n; i++) {
        if (i % BLOCK == 0)
            s->boff[i / BLOCK] = k;
        long long x = s->order[i];
        long chunk = (long)(x / CHUNK);
        const uint32_t *e = s->edges[chunk] + s->off[chunk][x % CHUNK];
        int deg = 0;
        for (int g = 0; g < s->G; g++) {
            s->C[i * s->G + g] = s->cnt[x * s->G + g];
            deg += s->cnt[x * s->G + g];
        }
        for (int j = 0; j < deg; j++) {
            uint32_t c = e[j], y = c & ~SAME;
            y = y >= (uint32_t)t->entries ? (uint32_t)(n + (y - t->entries))
                                          : s->rank[y];
            s->E[k++] = y | (c & SAME);
        }
    }
    /* The graph in entry order is no longer needed. */
    for (long c = 0; c < s->nchunks; c++) {
        free(s->edges[c]);
        free(s->off[c]);
        s->edges[c] = NULL;
        s->off[c] = NULL;
    }
    free(s->cnt);
    s->cnt = NULL;
    long long widest = 1;
    for (int L = 0; L < s->nlevels; L++)
        if (s->lstart[L + 1] - s->lstart[L] > widest)
            widest = s->lstart[L + 1] - s->lstart[L];
    s->buf = malloc((size_t)widest * sizeof *s->buf);
    s->udiff = malloc(((size_t)widest / SWEEP_UNIT + 1) * sizeof *s->udiff);
    s->counts =
        malloc((s->parts ? (size_t)s->parts->parts : 1) * sizeof *s->counts);
    return s->buf && s->udiff && s->counts ? KEMET_OK : KEMET_ENOMEM;
}

static int solve_graph(solver *s) {
    /* every process goes on, or none */
    int rc = agree(s, prepare(s));
    if (rc)
        return rc;
    kemet_table *t = s->t;
    long long n = t->valid;
    double *V = s->V;
    for (long long i = 0; i < n; i++)
        V[i] = 0.5;
    V[n] = 0;
    V[n + 1] = 0.5;
    V[n + 2] = 1;
    /* Sweeps level by level, in level order, until a sweep changes no
     * value by as much as the tolerance. The entries of one level are
     * made from the values as they stand before it (a level's own values
     * from the last sweep, the levels before it from this one), so they
     * may be made in any order: by several threads, and by several
     * processes, each making a share and all exchanging them, with the
     * same result. */
    int parts = s->parts ? s->parts->parts : 1,
        part = s->parts ? s->parts->part : 0;
    double sweep_diff = 1;
    int sweep;
    for (sweep = 1; sweep <= MAX_SWEEPS; sweep++) {
        sweep_diff = 0;
        for (int L = 0; L < s->nlevels; L++) {
            long long lo = s->lstart[L], m = s->lstart[L + 1] - lo;
            if (m == 0)
                continue;
            /* whole blocks to each process */
            long long nb = (m + SWEEP_UNIT - 1) / SWEEP_UNIT;
            for (int p = 0; p < parts; p++) {
                long long a = nb * p / parts * SWEEP_UNIT,
                          b = nb * (p + 1) / parts * SWEEP_UNIT;
                a = a < m ? a : m;
                b = b < m ? b : m;
                s->counts[p] = (long)(b - a);
                if (p == part) {
                    s->plo = lo + a;
                    s->phi = lo + b;
                }
            }
            long units =
                (long)((s->phi - s->plo + SWEEP_UNIT - 1) / SWEEP_UNIT);
            /* one block made alone: in place, the same values */
            bool inplace = parts == 1 && nb == 1;
            s->next = inplace ? V + lo : s->buf;
            /* threads where the level is wide enough to pay for them */
            kmt_run_units(units >= 4L * s->threads ? s->threads : 1, units,
                          sweep_unit, s);
            for (long u = 0; u < units; u++)
                sweep_diff =
                    s->udiff[u] > sweep_diff ? s->udiff[u] : sweep_diff;
            if (parts > 1) {
                if (s->parts->join(s->parts->ctx, s->buf, V + lo, sizeof *V,
                                   s->counts))
                    return KEMET_ENOMEM;
            } else if (!inplace)
                memcpy(V + lo, s->buf, (size_t)m * sizeof *V);
        }
        /* shared: the largest change of any process's values */
        if (parts > 1) {
            double all[KEMET_MAX_PARTS];
            for (int p = 0; p < parts; p++)
                s->counts[p] = 1;
            if (s->parts->join(s->parts->ctx, &sweep_diff, all,
                               sizeof sweep_diff, s->counts))
                return KEMET_ENOMEM;
            for (int p = 0; p < parts; p++)
                sweep_diff = all[p] > sweep_diff ? all[p] : sweep_diff;
        }
        if (s->progress)
            s->progress(s->pctx, "values",
                        fmin(1, log(sweep_diff > 0 ? sweep_diff : 1e-300) /
                                    log(TOLERANCE)));
        if (sweep_diff < TOLERANCE)
            break;
    }
    t->sweeps = sweep > MAX_SWEEPS ? MAX_SWEEPS : sweep;
    t->residual = sweep_diff;
    return KEMET_OK;
}

static void solver_free(solver *s) {
    if (s->edges)
        for (long i = 0; i < s->nchunks; i++)
            free(s->edges[i]);
    if (s->off)
        for (long i = 0; i < s->nchunks; i++)
            free(s->off[i]);
    free(s->edges);
    free(s->off);
    free(s->cnt);
    free(s->ok);
    free(s->V);
    free(s->order);
    free(s->rank);
    free(s->E);
    free(s->C);
    free(s->level);
    free(s->lstart);
    free(s->boff);
    free(s->buf);
    free(s->udiff);
    free(s->counts);
}

int kemet_table_solve(const kemet_rules *rules, int pieces, int threads,
                      void (*progress)(void *ctx, const char *what,
                                       double done),
                      void *ctx, kemet_table **out, kemet_error *err) {
    return kemet_table_solve_parts(rules, pieces, threads, NULL, progress, ctx,
                                   out, err);
}

int kemet_table_solve_parts(const kemet_rules *rules, int pieces, int threads,
                            const kemet_table_parts *parts,
                            void (*progress)(void *ctx, const char *what,
                                             double done),
                            void *ctx, kemet_table **out, kemet_error *err) {
    if (!rules || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_table_solve: NULL argument");
    *out = NULL;
    if (parts && parts->parts > 1 &&
        (!parts->join || parts->parts > KEMET_MAX_PARTS || parts->part < 0 ||
         parts->part >= parts->parts))
        return kmt_fail(err, KEMET_EMISUSE, "kemet_table_solve: bad parts");
    if (parts && parts->parts <= 1)
        parts = NULL;
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    kemet_table *t;
    int rc = kmt_table_layout_fit(rules, pieces, &t, err);
    if (rc)
        return rc;
    solver s = {.t = t,
                .r = rules,
                .threads = threads,
                .progress = progress,
                .pctx = ctx,
                .parts = parts};
    /* The throws of the class: the same in every position (checked while
     * the graph is built). */
    {
        kemet_pos p;
        position_of(t, 0, &p);
        kemet_weight w[KEMET_MAX_THROWS], total;
        s.nthrows = kemet_throws(rules, &p, s.thr, w, &total);
        for (int i = 0; i < s.nthrows; i++)
            s.p[i] = (double)w[i] / (double)total;
    }
    s.G = 1 + s.nthrows;
    s.nchunks = (long)((t->entries + CHUNK - 1) / CHUNK);
    s.edges = calloc((size_t)s.nchunks, sizeof *s.edges);
    s.off = calloc((size_t)s.nchunks, sizeof *s.off);
    s.cnt = calloc((size_t)t->entries * (size_t)s.G, 1);
    s.ok = calloc((size_t)t->entries, 1);
    s.V = malloc(((size_t)t->entries + 3) * sizeof *s.V);
    s.level = malloc(t->M * sizeof *s.level);
    if (!s.edges || !s.off || !s.cnt || !s.ok || !s.V || !s.level) {
        /* shared among processes: the others are told, then all stop */
        rc = kmt_fail(err, agree(&s, KEMET_ENOMEM),
                      "out of memory for the table");
        goto done;
    }
    for (uint32_t a = 0; a < t->M; a++) {
        int L = 0, in = kmt_popcount64(t->mask[a]) + t->heap[a] + t->hnd[a];
        for (uint64_t m = t->mask[a]; m; m &= m - 1)
            L += kmt_ctz64(m);
        L += t->heap[a] * t->heap_sq + (rules->info.pieces - in) * (t->S + 1);
        s.level[a] = (uint16_t)L;
    }
    kmt_run_units(threads, s.nchunks, build_chunk, &s);
    if (agree(&s, atomic_load(&s.failed) ? KEMET_ENOMEM : KEMET_OK)) {
        rc = kmt_fail(err, KEMET_ENOMEM,
                      "the endgame class of %s could not be built (out of "
                      "memory, or a position outside the class)",
                      rules->spec);
        goto done;
    }
    for (long long x = 0; x < t->entries; x++)
        t->valid += s.ok[x];
    rc = solve_graph(&s);
    if (rc) {
        kmt_fail(err, rc, "out of memory for the table");
        goto done;
    }
    t->v = malloc((size_t)t->entries * sizeof *t->v);
    if (!t->v) {
        rc = kmt_fail(err, KEMET_ENOMEM, "out of memory for the table");
        goto done;
    }
    for (long long x = 0; x < t->entries; x++)
        t->v[x] = s.ok[x] ? (uint16_t)lround(s.V[s.rank[x]] * SCALE) : INVALID;
done:
    solver_free(&s);
    if (rc) {
        kemet_table_free(t);
        return rc;
    }
    *out = t;
    return KEMET_OK;
}
