/* race.c - one-sided race databases, GNU Backgammon's bearoff method for
 * the rulesets whose two sides never meet (kmt_ruleset.race).
 *
 * When neither side's moves depend on the other's pieces, each side runs
 * its own race, and the game is decided by which finishes in fewer turns.
 * For every state of one side (its pieces on the board and in hand, and a
 * rethrow it owes), the database holds the distribution of the number of
 * turns it needs to take every piece off, the turn under way counting as
 * the first, when it plays to finish in the fewest turns on average. Two
 * distributions give the chance that the player to move wins: it wins if it
 * finishes on its n-th turn while the opponent needs n turns or more.
 *
 * Building. Every move of these rulesets takes a piece forward, so the
 * states are taken from the most advanced (the sum of the squares, a gone
 * piece counting as one past the last) to the least, each finding its
 * successors done. For each throw the move that leaves the fewest expected
 * turns is chosen; a move that keeps the turn (a rethrow) leaves the turn
 * count as it is, one that ends the turn adds one. A throw that cannot be
 * used ends the turn in the same state, a loop solved in closed form.
 * Each distribution is kept over the window of turns where it has mass
 * above 1e-10 (the mass outside is left out; what is kept is
 * renormalised).
 *
 * Playing to finish soonest on average is not quite playing to win (which
 * may depend on how far the opponent is), so the values are near-exact,
 * not exact: docs/tables.md measures them against the exact tables.
 */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NMAX 4096 /* turns a distribution may reach */
#define CUT 1e-10 /* mass left out at either end of a window */

struct kemet_race {
    char spec[96];
    kemet_table *lay; /* the side states of all pieces (no values) */
    uint32_t n;       /* states: the M plain ones, then the rethrows */
    uint32_t *off;    /* n + 1: where each window starts in p */
    uint16_t *lo;     /* n: the window's first turn */
    float *p;         /* the windows */
    double *E;        /* n: expected turns */
    double secs;
};

/* The state index of side p of `pos` with the rethrow it owes, or -1. */
static int64_t state_of(const kemet_race *R, const kemet_pos *pos, int p,
                        int must) {
    const kemet_table *t = R->lay;
    uint64_t mask = pos->sq[p];
    int k = kmt_in_play(pos, p);
    if (k == 0 || k > t->N || (mask & ~t->allowed))
        return -1;
    int64_t a = kmt_table_side_rank(t, mask, pos->heap[p], pos->hand[p]);
    if (must) {
        uint64_t m = t->mask[a] & t->must_sq;
        if (must > 63 || !(m & KMT_BIT(must)))
            return -1;
        a = t->M + t->must_first[a] + kmt_popcount64(m & (KMT_BIT(must) - 1));
    }
    return a;
}

static int progress(const kemet_table *t, uint32_t plain) {
    int sum = 0, k = 0;
    for (uint64_t m = t->mask[plain]; m; m &= m - 1, k++)
        sum += kmt_ctz64(m);
    k += t->heap[plain] + t->hnd[plain];
    return sum + (t->N - k) * (t->S + 1);
}

typedef struct builder {
    const kemet_rules *r;
    kemet_race *R;
    float **win;   /* per state, while building: its window */
    uint32_t *len; /* per state: the window's length */
    kemet_move *moves;
    int top; /* acc is zero above this */
    double acc[NMAX + 2];
} builder;

/* Adds w * D_y (shifted by one turn when `shift`) into acc. y < 0: the side
 * finished, 0 more turns. */
static void add(builder *B, int64_t y, bool shift, double w) {
    kemet_race *R = B->R;
    if (y < 0) {
        B->acc[shift ? 1 : 0] += w;
        B->top = B->top > 1 ? B->top : 1;
        return;
    }
    int lo = R->lo[y] + (shift ? 1 : 0);
    uint32_t len = B->len[y];
    const float *d = B->win[y];
    for (uint32_t i = 0; i < len && lo + (int)i <= NMAX; i++)
        B->acc[lo + (int)i] += w * d[i];
    int end = lo + (int)len - 1;
    end = end > NMAX ? NMAX : end;
    B->top = B->top > end ? B->top : end;
}

/* Builds state x; its successors are built. */
static int build(builder *B, uint32_t x) {
    kemet_race *R = B->R;
    const kemet_table *t = R->lay;
    const kemet_rules *r = B->r;
    int must;
    uint32_t plain = kmt_table_plain(t, x, &must);
    kemet_pos pos = {0};
    pos.sq[0] = t->mask[plain];
    pos.heap[0] = t->heap[plain];
    pos.hand[0] = t->hnd[plain];
    pos.hand[1] = (uint8_t)r->info.pieces; /* the other side, out of the way */
    pos.to = 1;
    pos.must = (uint8_t)must;
    kemet_throw thr[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS], total;
    int nt = kemet_throws(r, &pos, thr, w, &total);
    memset(B->acc, 0, (size_t)(B->top + 1) * sizeof *B->acc);
    B->top = 0;
    double E = 0, loop = 0; /* loop: the chance of ending the turn in x */
    for (int i = 0; i < nt; i++) {
        double pt = (double)w[i] / (double)total;
        int k = kemet_moves(r, &pos, &thr[i], B->moves);
        if (k < 1)
            return KEMET_ERANGE;
        if (k == 1 && B->moves[0].n == 0) {
            loop += pt; /* the throw is lost: the turn ends in x's state */
            continue;
        }
        int64_t best = 0;
        bool best_shift = true;
        double best_c = INFINITY;
        for (int j = 0; j < k; j++) {
            kemet_pos next;
            kemet_make(r, &pos, &thr[i], &B->moves[j], &next, NULL);
            int64_t y = -1;
            bool shift = next.to != 1;
            if (next.result != KEMET_PLAYING) {
                if (next.result != KEMET_WON1)
                    return KEMET_ERULESET;
                shift = true;
            } else {
                y = state_of(R, &next, 0, next.to == 1 ? next.must : 0);
                if (y < 0 || next.sq[1] || next.hand[1] != pos.hand[1])
                    return KEMET_ERULESET; /* not a race after all */
                if (!B->win[y])
                    return KEMET_ERULESET; /* not forward: not handled */
            }
            double c = (y < 0 ? 0 : R->E[y]) + (shift ? 1 : 0);
            if (c < best_c) {
                best_c = c;
                best = y;
                best_shift = shift;
            }
        }
        E += pt * best_c;
        add(B, best, best_shift, pt);
    }
    /* With the loop: E = E' + loop (1 + E_plain), D = D' + loop shift(D_plain);
     * for x itself plain, E and D are solved for. */
    double *acc = B->acc;
    if (x == plain) {
        if (loop > 1 - 1e-12)
            return KEMET_ERULESET; /* a state that can never move on */
        E = (E + loop) / (1 - loop);
        /* D(n) += loop D(n - 1): a geometric tail past the last turn
         * reached, followed until it is negligible. */
        int n = 1;
        for (; n <= NMAX && (n <= B->top || acc[n - 1] * loop > CUT * 1e-3);
             n++)
            acc[n] += loop * acc[n - 1];
        B->top = n - 1;
    } else if (loop > 0) {
        E += loop * (1 + R->E[plain]);
        add(B, plain, true, loop);
    }
    int lo = 0, hi = B->top;
    for (double cut = 0; lo < hi && cut + acc[lo] < CUT; lo++)
        cut += acc[lo];
    for (double cut = 0; hi > lo && cut + acc[hi] < CUT; hi--)
        cut += acc[hi];
    uint32_t len = (uint32_t)(hi - lo + 1);
    float *d = malloc(len * sizeof *d);
    if (!d)
        return KEMET_ENOMEM;
    double kept = 0;
    for (int n = lo; n <= hi; n++)
        kept += acc[n];
    for (uint32_t i = 0; i < len; i++)
        d[i] = (float)(acc[lo + (int)i] / (kept > 0 ? kept : 1));
    B->win[x] = d;
    R->lo[x] = (uint16_t)lo;
    B->len[x] = len;
    R->E[x] = E;
    return KEMET_OK;
}

typedef struct item {
    int prog;
    uint32_t x;
    int must;
} item;

static int by_progress(const void *a, const void *b) {
    const item *p = a, *q = b;
    if (p->prog != q->prog)
        return p->prog > q->prog ? -1 : 1;
    if ((p->must != 0) != (q->must != 0))
        return p->must ? 1 : -1; /* a plain state before its rethrows */
    return p->x < q->x ? -1 : p->x > q->x;
}

void kemet_race_free(kemet_race *R) {
    if (!R)
        return;
    kemet_table_free(R->lay);
    free(R->off);
    free(R->lo);
    free(R->p);
    free(R->E);
    free(R);
}

int kemet_race_solve(const kemet_rules *rules, kemet_race **out,
                     kemet_error *err) {
    if (!rules || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_race_solve: NULL argument");
    *out = NULL;
    if (!rules->rs->race)
        return kmt_fail(err, KEMET_ERULESET,
                        "%s is not a race: its sides meet (docs/tables.md "
                        "says which rulesets have race databases)",
                        rules->spec);
    double t0 = (double)clock() / CLOCKS_PER_SEC;
    kemet_race *R = calloc(1, sizeof *R);
    if (!R)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    snprintf(R->spec, sizeof R->spec, "%s", rules->key);
    int rc = kmt_table_layout(rules, rules->info.pieces, &R->lay, err);
    if (rc) {
        kemet_race_free(R);
        return rc;
    }
    const kemet_table *t = R->lay;
    R->n = t->Mm;
    R->off = calloc((size_t)R->n + 1, sizeof *R->off);
    R->lo = calloc(R->n, sizeof *R->lo);
    R->E = calloc(R->n, sizeof *R->E);
    item *order = malloc((size_t)R->n * sizeof *order);
    builder B = {rules,
                 R,
                 calloc(R->n, sizeof(float *)),
                 calloc(R->n, sizeof(uint32_t)),
                 malloc(KEMET_MAX_MOVES * sizeof(kemet_move)),
                 0,
                 {0}};
    rc = R->off && R->lo && R->E && order && B.win && B.len && B.moves
             ? KEMET_OK
             : KEMET_ENOMEM;
    for (uint32_t x = 0; rc == KEMET_OK && x < R->n; x++) {
        int must;
        uint32_t plain = kmt_table_plain(t, x, &must);
        order[x] = (item){progress(t, plain), x, must};
    }
    if (rc == KEMET_OK)
        qsort(order, R->n, sizeof *order, by_progress);
    for (uint32_t i = 0; rc == KEMET_OK && i < R->n; i++)
        rc = build(&B, order[i].x);
    /* The windows into one array. */
    uint64_t total = 0;
    for (uint32_t x = 0; rc == KEMET_OK && x < R->n; x++) {
        R->off[x] = (uint32_t)total;
        total += B.len[x];
        if (total > UINT32_MAX)
            rc = KEMET_ENOMEM;
    }
    if (rc == KEMET_OK) {
        R->off[R->n] = (uint32_t)total;
        R->p = total < SIZE_MAX / sizeof *R->p /* 32-bit address spaces */
                   ? malloc((size_t)total * sizeof *R->p)
                   : NULL;
        if (!R->p)
            rc = KEMET_ENOMEM;
    }
    for (uint32_t x = 0; rc == KEMET_OK && x < R->n; x++)
        memcpy(R->p + R->off[x], B.win[x],
               (R->off[x + 1] - R->off[x]) * sizeof *R->p);
    for (uint32_t x = 0; B.win && x < R->n; x++)
        free(B.win[x]);
    free(B.win);
    free(B.len);
    free(B.moves);
    free(order);
    if (rc) {
        kemet_race_free(R);
        return rc == KEMET_ENOMEM
                   ? kmt_fail(err, KEMET_ENOMEM, "out of memory")
                   : kmt_fail(err, KEMET_ERULESET,
                              "%s does not run as a race here", rules->spec);
    }
    R->secs = (double)clock() / CLOCKS_PER_SEC - t0;
    *out = R;
    return KEMET_OK;
}

int kemet_race_probe(const kemet_race *R, const kemet_pos *pos,
                     double *chance) {
    if (!R || !pos || pos->result != KEMET_PLAYING ||
        (pos->to != 1 && pos->to != 2))
        return 0;
    int me = pos->to - 1;
    int64_t a = state_of(R, pos, me, pos->must),
            b = state_of(R, pos, 1 - me, 0);
    if (a < 0 || b < 0)
        return 0;
    /* The mover wins when it finishes on turn n and the opponent needs n
     * turns or more: sum over n of D_a(n) (1 - F_b(n - 1)). */
    const float *da = R->p + R->off[a], *db = R->p + R->off[b];
    int la = R->lo[a], lb = R->lo[b];
    int na = (int)(R->off[a + 1] - R->off[a]),
        nb = (int)(R->off[b + 1] - R->off[b]);
    double win = 0, below = 0; /* below: F_b(n - 1) */
    int j = 0;
    for (int i = 0; i < na; i++) {
        int n = la + i;
        while (j < nb && lb + j <= n - 1)
            below += db[j++];
        win += da[i] * (1 - (below > 1 ? 1 : below));
    }
    if (chance)
        *chance = win < 0 ? 0 : win > 1 ? 1 : win;
    return 1;
}

void kemet_race_stats(const kemet_race *R, kemet_race_info *info) {
    *info = (kemet_race_info){0};
    if (!R)
        return;
    info->states = R->n;
    info->bytes =
        (long long)R->off[R->n] * (long long)sizeof(float) +
        (long long)R->n *
            (long long)(sizeof(uint32_t) + sizeof(uint16_t) + sizeof(double));
    info->seconds = R->secs;
}

double kemet_race_turns(const kemet_race *R, const kemet_pos *pos, int player) {
    if (!R || !pos || player < 1 || player > 2)
        return -1;
    int64_t a = state_of(R, pos, player - 1, pos->to == player ? pos->must : 0);
    return a < 0 ? -1 : R->E[a];
}

const char *kmt_race_spec(const kemet_race *race) {
    return race->spec;
}
