/* table.c - exact endgame tables: every position of a ruleset's endgame
 * class solved by expectiminimax over the throws, stored in a file.
 *
 * The class. A ruleset's class "N pieces" holds every position, with
 * either player to move, in which each side has between 1 and N pieces
 * still in play (on the board, on the heap square, in hand) and the rest
 * gone for good (borne off, taken off, captured). Pieces in play never
 * increase in these rulesets, so a position of the class only leads to
 * positions of the class or to the game's end.
 *
 * The index. One side's pieces in play are a "side state": the set of
 * squares it occupies, its heap count and its hand count. Side states are
 * ranked densely (the colex rank of the square set, after an offset for
 * each count of pieces on squares, heap and hand), M of them. The mover's
 * state comes first and may carry a rethrow (must=) on one of the squares
 * the ruleset rethrows from (kemet_ruleset.must_squares): those variants
 * follow the M plain states. A position's index is mover * M + opponent,
 * always from the mover's side: the rulesets solved here treat both
 * players alike, so a position with player 2 to move is the same entry as
 * its mirror image with player 1 to move. Entries that are not a valid
 * position (two pieces on one hole, say) are marked as such.
 *
 * The value. V(x) is the chance that the player to move in x wins, a draw
 * counting one half, when both play to win: the best of throwing and each
 * pre-throw choice, throwing being the expectation over the throws of the
 * mover's best move for each. A move that keeps the turn (another throw)
 * is worth V(child), one that passes it 1 - V(child).
 *
 * The solver. The whole class is turned into a graph once, on every
 * thread (move generation is the costly part; each position's children
 * depend on nothing but the position). The graph is then renumbered by
 * level: the sum over both sides of the squares their pieces stand on,
 * a gone piece counting as one square past the last. Almost every move
 * raises the level, so a Gauss-Seidel sweep from the highest level down
 * finds most children already updated; the moves that do not (Senet's
 * swaps, backward moves and rescue, a line back to 6, a piece leaving the
 * Shen, a lost throw) are met by sweeping again, until a whole sweep
 * changes no value by as much as the tolerance. The sweeps run on one
 * thread in a fixed order, so the table is the same for any thread count.
 * (Senet's endgame is deeply cyclic: a lone piece near the end bounces
 * back and forth, and it takes a few hundred sweeps.)
 *
 * The file (format 1, little-endian):
 *   0   8  magic "KEMETTB\0"
 *   8   4  format version (1)
 *   12  4  header size in bytes (HEADER_SIZE)
 *   16 96  ruleset spec, NUL padded
 *   112 4  N, pieces in play per side at most
 *   116 4  M, side states
 *   120 4  mover states (M plus the rethrow variants)
 *   124 4  value scale (65534: entry q is the chance q / 65534)
 *   128 8  entries (mover states * M)
 *   136 8  valid positions
 *   144 8  tolerance of the iteration (double)
 *   152 8  largest change in the last sweep (double)
 *   160 4  sweeps
 *   164 4  reserved (0)
 *   168 8  checksum of the entries
 *   176 8  checksum of bytes 0..175
 *   184    entries, 2 bytes each; 65535 marks an invalid position
 * A file is written to a temporary name and renamed, so it is there whole
 * or not at all; one of another format, ruleset or class, or whose
 * checksums fail, is refused with a one-line reason.
 */
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TB_MAGIC "KEMETTB"
#define TB_FORMAT 1
#define HEADER_SIZE 184
#define SCALE 65534
#define INVALID 65535
#define SAME 0x80000000u /* edge flag: the child's mover is the parent's */
#define TB_MAX_ENTRIES 0x7FFFFFF0LL
#define CHUNK 4096      /* positions per unit of parallel work */
#define BLOCK 64        /* entries per edge offset kept for the sweeps */
#define SWEEP_UNIT 2048 /* entries per unit of a level's sweep */
#define TOLERANCE 1e-9
#define MAX_SWEEPS 5000

/* ---------------------------------------------------------------------------
 * Side states and the index
 * ------------------------------------------------------------------------ */

uint32_t kmt_table_side_rank(const kemet_table *t, uint64_t mask, int heap,
                             int hand) {
    uint32_t r = t->base[kmt_popcount64(mask)][heap][hand];
    for (int i = 1; mask; i++) {
        r += t->c[t->rank_of[kmt_ctz64(mask)]][i];
        mask &= mask - 1;
    }
    return r;
}

/* The rank of side p of `pos`, or -1 outside the class. */
static int64_t side_of(const kemet_table *t, const kemet_pos *pos, int p) {
    uint64_t mask = pos->sq[p];
    int n = kmt_in_play(pos, p);
    if (n == 0 || n > t->N || (mask & ~t->allowed) ||
        (pos->heap[p] && !t->heap_sq) || (pos->hand[p] && !t->hand))
        return -1;
    return kmt_table_side_rank(t, mask, pos->heap[p], pos->hand[p]);
}

static int64_t index_of(const kemet_table *t, const kemet_pos *pos) {
    if (pos->result != KEMET_PLAYING || (pos->to != 1 && pos->to != 2))
        return -1;
    int me = pos->to - 1;
    int64_t a = side_of(t, pos, me), o = side_of(t, pos, 1 - me);
    if (a < 0 || o < 0)
        return -1;
    if (pos->must) {
        uint64_t m = t->mask[a] & t->must_sq;
        if (pos->must > 63 || !(m & KEMET_BIT(pos->must)))
            return -1;
        a = t->M + t->must_first[a] +
            kmt_popcount64(m & (KEMET_BIT(pos->must) - 1));
    }
    return a * (int64_t)t->M + o;
}

uint32_t kmt_table_plain(const kemet_table *t, uint32_t a, int *must) {
    *must = 0;
    if (a < t->M)
        return a;
    /* A rethrow variant: its plain state (must_first is sorted). */
    uint32_t v = a - t->M, lo = 0, hi = t->M;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->must_first[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    uint64_t m = t->mask[lo] & t->must_sq;
    for (uint32_t k = v - t->must_first[lo]; k; k--)
        m &= m - 1;
    *must = kmt_ctz64(m);
    return lo;
}

/* The position of entry x, player 1 to move. */
static void position_of(const kemet_table *t, int64_t x, kemet_pos *pos) {
    int must;
    uint32_t a = kmt_table_plain(t, (uint32_t)(x / t->M), &must);
    uint32_t o = (uint32_t)(x % t->M);
    *pos = (kemet_pos){0};
    pos->sq[0] = t->mask[a];
    pos->heap[0] = t->heap[a];
    pos->hand[0] = t->hnd[a];
    pos->sq[1] = t->mask[o];
    pos->heap[1] = t->heap[o];
    pos->hand[1] = t->hnd[o];
    pos->to = 1;
    pos->must = (uint8_t)must;
}

/* Lays out the class of `pieces` for `r`: the side states and their
 * ranks. KEMET_ERULESET when the ruleset has no such class here. */
int kmt_table_layout(const kemet_rules *r, int pieces, kemet_table **out,
                     kemet_error *err) {
    const kemet_ruleset *rs = r->rs;
    *out = NULL;
    if (!rs->tables)
        return kmt_fail(err, KEMET_ERULESET,
                        "%s has no endgame tables (docs/tables.md says "
                        "which rulesets do)",
                        r->spec);
    int most = rs->pieces < TB_MAX_PIECES ? rs->pieces : TB_MAX_PIECES;
    if (pieces < 1 || pieces > most)
        return kmt_fail(err, KEMET_ERULESET,
                        "endgame tables of %s take 1 to %d pieces a side",
                        r->spec, most);
    kemet_table *t = calloc(1, sizeof *t);
    if (!t)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    snprintf(t->spec, sizeof t->spec, "%s", r->spec);
    t->N = pieces;
    t->S = r->squares;
    t->heap_sq = rs->heap_square;
    t->hand = rs->has_hand;
    t->must_sq = rs->must_squares;
    memset(t->rank_of, -1, sizeof t->rank_of);
    for (int s = 1; s <= t->S; s++)
        if (s != t->heap_sq) {
            t->rank_of[s] = (int8_t)t->nsq;
            t->sqs[t->nsq++] = (uint8_t)s;
            t->allowed |= KEMET_BIT(s);
        }
    for (int n = 0; n <= 64; n++)
        for (int k = 0; k <= TB_MAX_PIECES; k++)
            t->c[n][k] = k == 0   ? 1
                         : n == 0 ? 0
                                  : t->c[n - 1][k - 1] + t->c[n - 1][k];
    uint64_t M = 0;
    for (int j = 0; j <= pieces; j++)
        for (int h = 0; h <= (t->heap_sq ? pieces - j : 0); h++)
            for (int k = 0; k <= (t->hand ? pieces - j - h : 0); k++) {
                t->base[j][h][k] = (uint32_t)M;
                if (j + h + k > 0)
                    M += t->c[t->nsq][j];
            }
    t->M = (uint32_t)M;
    if (M >= SIZE_MAX / sizeof *t->must_first) { /* 32-bit addresses */
        kemet_table_free(t);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    size_t m = (size_t)M;
    t->mask = malloc(m * sizeof *t->mask);
    t->heap = malloc(m);
    t->hnd = malloc(m);
    t->must_first = malloc((m + 1) * sizeof *t->must_first);
    if (!t->mask || !t->heap || !t->hnd || !t->must_first) {
        kemet_table_free(t);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    /* Every set of j squares, in colex order, for each (j, h, k). */
    for (int j = 0; j <= pieces; j++)
        for (int h = 0; h <= (t->heap_sq ? pieces - j : 0); h++)
            for (int k = 0; k <= (t->hand ? pieces - j - h : 0); k++) {
                if (j + h + k == 0)
                    continue;
                int c[TB_MAX_PIECES + 1];
                for (int i = 0; i < j; i++)
                    c[i] = i;
                for (;;) {
                    uint64_t mask = 0;
                    for (int i = 0; i < j; i++)
                        mask |= KEMET_BIT(t->sqs[c[i]]);
                    uint32_t x = kmt_table_side_rank(t, mask, h, k);
                    t->mask[x] = mask;
                    t->heap[x] = (uint8_t)h;
                    t->hnd[x] = (uint8_t)k;
                    int i = 0; /* the next combination in colex order */
                    while (i < j &&
                           c[i] + 1 == (i + 1 < j ? c[i + 1] : t->nsq)) {
                        c[i] = i;
                        i++;
                    }
                    if (i >= j)
                        break;
                    c[i]++;
                }
            }
    uint32_t v = 0;
    for (uint32_t x = 0; x < t->M; x++) {
        t->must_first[x] = v;
        v += (uint32_t)kmt_popcount64(t->mask[x] & t->must_sq);
    }
    t->must_first[t->M] = v;
    t->Mm = t->M + v;
    t->entries = (long long)t->Mm * t->M;
    *out = t;
    return KEMET_OK;
}

/* kmt_table_layout for a table: refuses a class too large to hold. */
static int layout(const kemet_rules *r, int pieces, kemet_table **out,
                  kemet_error *err) {
    int rc = kmt_table_layout(r, pieces, out, err);
    if (rc == KEMET_OK && (*out)->entries > TB_MAX_ENTRIES) {
        long long e = (*out)->entries;
        kemet_table_free(*out);
        *out = NULL;
        return kmt_fail(err, KEMET_ERULESET,
                        "the %d-piece class of %s has %lld entries, more "
                        "than a table holds",
                        pieces, r->spec, e);
    }
    return rc;
}

int kemet_table_class(const kemet_rules *rules, int pieces, long long *entries,
                      kemet_error *err) {
    if (!rules)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_table_class: NULL rules");
    kemet_table *t;
    int rc = layout(rules, pieces, &t, err);
    if (rc)
        return rc;
    if (entries)
        *entries = t->entries;
    kemet_table_free(t);
    return KEMET_OK;
}

void kemet_table_free(kemet_table *t) {
    if (!t)
        return;
    free(t->mask);
    free(t->heap);
    free(t->hnd);
    free(t->must_first);
    free(t->v);
    free(t);
}

int kemet_table_probe(const kemet_table *t, const kemet_pos *pos,
                      double *chance) {
    if (!t || !pos || !t->v)
        return 0;
    int64_t x = index_of(t, pos);
    if (x < 0 || t->v[x] == INVALID)
        return 0;
    if (chance)
        *chance = t->v[x] / (double)SCALE;
    return 1;
}

int kemet_table_position(const kemet_table *t, long long i, kemet_pos *pos) {
    if (!t || !pos || !t->v || i < 0 || i >= t->entries)
        return 0;
    position_of(t, i, pos);
    return t->v[i] != INVALID;
}

const char *kemet_table_spec(const kemet_table *t) {
    return t ? t->spec : NULL;
}

void kemet_table_stats(const kemet_table *t, kemet_table_info *info) {
    *info = (kemet_table_info){0};
    if (!t)
        return;
    info->pieces = t->N;
    info->entries = t->entries;
    info->positions = t->valid;
    info->sweeps = t->sweeps;
    info->residual = t->residual;
    info->tolerance = TOLERANCE;
    info->bytes = HEADER_SIZE + 2 * t->entries;
}

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
    uint32_t *w = malloc(KEMET_MAX_THROWS * sizeof *w);
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
        uint32_t total;
        int k = kemet_throws(s->r, &pos, thr, w, &total);
        if (k != s->nthrows)
            goto fail;
        for (int i = 0; i < k; i++)
            if (!kemet_throw_equal(&thr[i], &s->thr[i]) ||
                fabs((double)w[i] / total - s->p[i]) > 1e-15)
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
    int rc = layout(rules, pieces, &t, err);
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
        uint32_t w[KEMET_MAX_THROWS], total;
        s.nthrows = kemet_throws(rules, &p, s.thr, w, &total);
        for (int i = 0; i < s.nthrows; i++)
            s.p[i] = (double)w[i] / total;
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
        L += t->heap[a] * t->heap_sq + (rules->rs->pieces - in) * (t->S + 1);
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

/* ---------------------------------------------------------------------------
 * Files
 * ------------------------------------------------------------------------ */

/* A 64-bit checksum of n bytes: FNV-1a over 8-byte words, then mixed. */
static uint64_t checksum(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int k = 0; k < 8; k++)
            w |= (uint64_t)p[i + (size_t)k] << (8 * k);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h ^ (h >> 32);
}

static void put32(uint8_t *p, uint32_t v) {
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}
static void put64(uint8_t *p, uint64_t v) {
    for (int k = 0; k < 8; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}
static uint32_t get32(const uint8_t *p) {
    uint32_t v = 0;
    for (int k = 0; k < 4; k++)
        v |= (uint32_t)p[k] << (8 * k);
    return v;
}
static uint64_t get64(const uint8_t *p) {
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}
static uint64_t dbits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
static double bitsd(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static void header(const kemet_table *t, uint8_t *h, uint64_t payload_sum) {
    memset(h, 0, HEADER_SIZE);
    memcpy(h, TB_MAGIC, 8);
    put32(h + 8, TB_FORMAT);
    put32(h + 12, HEADER_SIZE);
    memcpy(h + 16, t->spec, strnlen(t->spec, 95));
    put32(h + 112, (uint32_t)t->N);
    put32(h + 116, t->M);
    put32(h + 120, t->Mm);
    put32(h + 124, SCALE);
    put64(h + 128, (uint64_t)t->entries);
    put64(h + 136, (uint64_t)t->valid);
    put64(h + 144, dbits(TOLERANCE));
    put64(h + 152, dbits(t->residual));
    put32(h + 160, (uint32_t)t->sweeps);
    put64(h + 168, payload_sum);
    put64(h + 176, checksum(h, 176));
}

static uint8_t *payload(const kemet_table *t) {
    uint8_t *b = malloc((size_t)t->entries * 2);
    if (b)
        for (long long x = 0; x < t->entries; x++) {
            b[2 * x] = (uint8_t)t->v[x];
            b[2 * x + 1] = (uint8_t)(t->v[x] >> 8);
        }
    return b;
}

int kemet_table_save(const kemet_table *t, const char *path, kemet_error *err) {
    if (!t || !path || !t->v)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_table_save: NULL argument");
    size_t plen = (size_t)t->entries * 2;
    uint8_t *body = payload(t);
    if (!body)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    uint8_t h[HEADER_SIZE];
    header(t, h, checksum(body, plen));
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)time(NULL)) >=
        (int)sizeof tmp) {
        free(body);
        return kmt_fail(err, KEMET_EIO, "table path too long");
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        int e = errno;
        free(body);
        return kmt_fail(err, KEMET_EIO, "cannot write %.200s: %s", tmp,
                        strerror(e));
    }
    bool ok = fwrite(h, 1, HEADER_SIZE, f) == HEADER_SIZE &&
              fwrite(body, 1, plen, f) == plen;
    ok = (fflush(f) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    free(body);
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return kmt_fail(err, KEMET_EIO, "cannot write %.200s: %s", path,
                        strerror(e));
    }
    return KEMET_OK;
}

int kemet_table_load(const kemet_rules *rules, const char *path,
                     kemet_table **out, kemet_error *err) {
    if (!rules || !path || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_table_load: NULL argument");
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return kmt_fail(err, KEMET_EIO, "cannot read %.200s: %s", path,
                        strerror(errno));
    uint8_t h[HEADER_SIZE];
    int rc = KEMET_OK;
    kemet_table *t = NULL;
    uint8_t *body = NULL;
    if (fread(h, 1, HEADER_SIZE, f) != HEADER_SIZE || memcmp(h, TB_MAGIC, 8)) {
        rc = kmt_fail(err, KEMET_ESYNTAX, "%.200s is not a kemet endgame table",
                      path);
        goto done;
    }
    if (get32(h + 8) != TB_FORMAT || get32(h + 12) != HEADER_SIZE) {
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "%.200s is a table of format %u; this kemet reads "
                      "format %d (solve it again)",
                      path, get32(h + 8), TB_FORMAT);
        goto done;
    }
    if (get64(h + 176) != checksum(h, 176)) {
        rc =
            kmt_fail(err, KEMET_ESYNTAX, "%.200s: the header is corrupt", path);
        goto done;
    }
    char spec[96];
    memcpy(spec, h + 16, 96);
    spec[95] = '\0';
    if (strcmp(spec, rules->spec) != 0) {
        rc = kmt_fail(err, KEMET_ERULESET, "%.200s is a table of %s, not of %s",
                      path, spec, rules->spec);
        goto done;
    }
    uint32_t N = get32(h + 112);
    if (N < 1 || N > TB_MAX_PIECES ||
        (rc = layout(rules, (int)N, &t, err)) != KEMET_OK) {
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "%.200s: the class is not one "
                      "of %s",
                      path, rules->spec);
        goto done;
    }
    if (get32(h + 116) != t->M || get32(h + 120) != t->Mm ||
        get32(h + 124) != SCALE || get64(h + 128) != (uint64_t)t->entries) {
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "%.200s: its layout is not this kemet's for %s with "
                      "%u pieces (solve it again)",
                      path, rules->spec, N);
        goto done;
    }
    size_t plen = (size_t)t->entries * 2;
    body = malloc(plen);
    t->v = malloc((size_t)t->entries * sizeof *t->v);
    if (!body || !t->v) {
        rc = kmt_fail(err, KEMET_ENOMEM, "out of memory for %.200s", path);
        goto done;
    }
    int extra;
    if (fread(body, 1, plen, f) != plen || (extra = fgetc(f)) != EOF) {
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "%.200s: the file is truncated or too long", path);
        goto done;
    }
    if (checksum(body, plen) != get64(h + 168)) {
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "%.200s: the entries are corrupt (checksum)", path);
        goto done;
    }
    for (long long x = 0; x < t->entries; x++) {
        t->v[x] = (uint16_t)(body[2 * x] | body[2 * x + 1] << 8);
        if (t->v[x] > SCALE && t->v[x] != INVALID) {
            rc = kmt_fail(err, KEMET_ESYNTAX,
                          "%.200s: entry %lld is not a chance", path, x);
            goto done;
        }
    }
    t->valid = (long long)get64(h + 136);
    t->residual = bitsd(get64(h + 152));
    t->sweeps = (int)get32(h + 160);
done:
    fclose(f);
    free(body);
    if (rc) {
        kemet_table_free(t);
        return rc;
    }
    *out = t;
    return KEMET_OK;
}
