/* search.c - expectiminimax for every ruleset, through the generic
 * interface only.
 *
 * Values are player 1's chance of winning, 0 to 1 (a draw is one half);
 * player 1 maximises, player 2 minimises, and a throw is a chance node
 * weighted by the exact probabilities kemet_throws gives. The horizon is
 * counted in plies (a throw and the move that uses it, or a pre-throw
 * choice); past it the evaluation's win chance stands in.
 *
 * Pruning, after Ballard's *-minimax and Hauk, Buro and Schaeffer's
 * "Rediscovering *-Minimax Search":
 *  - Star1: a chance node stops as soon as the outcomes searched so far,
 *    with the rest at their extreme values, settle it outside the window;
 *    each outcome is searched with the window that could still matter.
 *  - Star2: before that, each outcome's first move (in the move order) is
 *    searched; a max node is worth at least its first move, so these probes
 *    give bounds that can cut the chance node before any full search.
 * Moves are ordered by the transposition table's value of the position
 * they lead to, else the evaluation. The transposition table keeps, for a
 * position before a throw, bounds on its value and the depth they hold to.
 * Iterative deepening runs depth 1, 2, ... while the budget (nodes, time,
 * or a fixed depth) lasts, and answers with the deepest finished search.
 *
 * Deterministic: with a node or depth budget the same position gives the
 * same answer and the same node count on every machine.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXPLY 64
#define TT_BITS 18

typedef struct tt_entry {
    uint64_t key;
    float lo, hi;
    int8_t depth;
    uint8_t gen;
    bool open; /* the value rests on the evaluation somewhere below */
} tt_entry;

/* The judge's value of a position, kept for the rest of one search: a
 * position the search reaches again (a move's position judged for the
 * order, then as a leaf at the horizon; through another order of moves;
 * in the next iteration; after Star2's probe) is not judged again. The whole
 * position is kept and compared, so a value found is the judge's own. */
#define EC_BITS 13
typedef struct ec_entry {
    kemet_pos pos;
    double v;
    uint32_t gen; /* the search it was judged in */
    bool exact;
} ec_entry;

typedef struct ply_scratch {
    kemet_move *moves; /* KEMET_MAX_MOVES */
    kemet_pos *next;   /* the position after each move */
    double *score;     /* ordering scores */
    int *order;
    kemet_throw *thr; /* KEMET_MAX_THROWS */
    kemet_weight *w;
    double *lo, *hi; /* Star2 bounds per outcome */
} ply_scratch;

struct kmt_search {
    const kemet_rules *r;
    const kemet_judge *j; /* what values positions */
    tt_entry *tt;
    uint8_t gen;
    ec_entry *ec;    /* 1 << EC_BITS judged positions */
    uint32_t ec_gen; /* this search's number: ec entries of others are old */
    ply_scratch ply[MAXPLY + 1];
    unsigned char *arena; /* every ply's scratch, made with the search */
    int *order;           /* the root's move order, KEMET_MAX_MOVES */
    double *v, *best_v;   /* the root's values: this iteration's, the best */
    long long nodes, limit;
    long long next_check; /* the clock and the check are next read here */
    double deadline;      /* 0: none */
    bool abort, leaf;
    int (*check)(void *ctx); /* the budget's check, or NULL */
    void *check_ctx;
};

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The bytes one ply's scratch takes, each array rounded up to 64. */
#define ROUND64(n) (((n) + 63) & ~(size_t)63)
static size_t scratch_bytes(void) {
    return ROUND64(KEMET_MAX_MOVES * sizeof(kemet_move)) +
           ROUND64(KEMET_MAX_MOVES * sizeof(kemet_pos)) +
           ROUND64(KEMET_MAX_MOVES * sizeof(double)) +
           ROUND64(KEMET_MAX_MOVES * sizeof(int)) +
           ROUND64(KEMET_MAX_THROWS * sizeof(kemet_throw)) +
           ROUND64(KEMET_MAX_THROWS * sizeof(kemet_weight)) +
           2 * ROUND64(KEMET_MAX_THROWS * sizeof(double));
}

/* Points one ply's arrays into `at` (scratch_bytes of them). */
static void scratch_carve(ply_scratch *s, unsigned char *at) {
#define TAKE(field, count)                                                     \
    s->field = (void *)at;                                                     \
    at += ROUND64((count) * sizeof *s->field)
    TAKE(moves, KEMET_MAX_MOVES);
    TAKE(next, KEMET_MAX_MOVES);
    TAKE(score, KEMET_MAX_MOVES);
    TAKE(order, KEMET_MAX_MOVES);
    TAKE(thr, KEMET_MAX_THROWS);
    TAKE(w, KEMET_MAX_THROWS);
    TAKE(lo, KEMET_MAX_THROWS);
    TAKE(hi, KEMET_MAX_THROWS);
#undef TAKE
}

kmt_search *kmt_search_new(const kemet_judge *j) {
    kmt_search *S = calloc(1, sizeof *S);
    if (!S)
        return NULL;
    S->r = j->rules;
    S->j = j;
    S->tt = calloc((size_t)1 << TT_BITS, sizeof *S->tt);
    S->ec = calloc((size_t)1 << EC_BITS, sizeof *S->ec);
    /* Every ply's scratch is made here, in one block, so that searching
     * never allocates. The block comes from the system as untouched
     * pages: a ply's memory is only committed once a search gets that
     * deep. */
    size_t each = scratch_bytes();
    S->arena = malloc((MAXPLY + 1) * each);
    S->order = malloc(KEMET_MAX_MOVES * sizeof *S->order);
    S->v = malloc(KEMET_MAX_MOVES * sizeof *S->v);
    S->best_v = malloc(KEMET_MAX_MOVES * sizeof *S->best_v);
    if (!S->tt || !S->ec || !S->arena || !S->order || !S->v || !S->best_v) {
        kmt_search_free(S);
        return NULL;
    }
    for (int i = 0; i <= MAXPLY; i++)
        scratch_carve(&S->ply[i], S->arena + (size_t)i * each);
    return S;
}

void kmt_search_free(kmt_search *S) {
    if (!S)
        return;
    free(S->arena);
    free(S->order);
    free(S->v);
    free(S->best_v);
    free(S->tt);
    free(S->ec);
    free(S);
}

static ply_scratch *scratch(kmt_search *S, int ply) {
    return &S->ply[ply];
}

static tt_entry *tt_slot(kmt_search *S, uint64_t key) {
    return &S->tt[key & (((uint64_t)1 << TT_BITS) - 1)];
}

/* The judged positions' slot of a position with this key. */
static ec_entry *ec_slot(kmt_search *S, uint64_t key) {
    return &S->ec[key & ((1u << EC_BITS) - 1)];
}

static const tt_entry *tt_find(kmt_search *S, uint64_t key) {
    const tt_entry *e = tt_slot(S, key);
    return (e->key == key && e->gen == S->gen) ? e : NULL;
}

static void tt_store(kmt_search *S, uint64_t key, int depth, double v,
                     double alpha, double beta, bool open) {
    tt_entry *e = tt_slot(S, key);
    if (e->gen == S->gen && e->key != key && e->depth > depth)
        return; /* keep the deeper result of another position */
    float lo = 0, hi = 1;
    if (e->gen == S->gen && e->key == key && e->depth == depth) {
        lo = e->lo;
        hi = e->hi;
    }
    if (v > alpha)
        lo = fmaxf(lo, (float)v);
    if (v < beta)
        hi = fminf(hi, (float)v);
    if (lo > hi)
        lo = hi = (float)v;
    *e = (tt_entry){key, lo, hi, (int8_t)depth, S->gen, open};
}

/* The clock and the budget's check, read every 256 positions, leaves
 * included (a wide turn's outcomes are thousands of leaves between two
 * inner nodes). */
static void read_clock(kmt_search *S) {
    S->next_check = S->nodes + 256;
    if ((S->deadline > 0 && now_seconds() >= S->deadline) ||
        (S->check && S->check(S->check_ctx)))
        S->abort = true;
}

static bool out_of_budget(kmt_search *S) {
    if (S->abort)
        return true;
    if (S->limit > 0 && S->nodes >= S->limit)
        S->abort = true;
    else if (S->nodes >= S->next_check)
        read_clock(S);
    return S->abort;
}

/* kmt_judge_chance1 of an unfinished position, from the search's cache
 * where this search judged it before. */
static double judged(kmt_search *S, const kemet_pos *pos, bool *exact) {
    ec_entry *e = ec_slot(S, kmt_pos_key(pos));
    if (e->gen == S->ec_gen && memcmp(&e->pos, pos, sizeof *pos) == 0) {
        *exact |= e->exact;
        return e->v;
    }
    bool ex = false;
    double v = kmt_judge_chance1(S->j, pos, &ex);
    *e = (ec_entry){.pos = *pos, .v = v, .gen = S->ec_gen, .exact = ex};
    *exact |= ex;
    return v;
}

/* A position valued without search: a finished game, a position the
 * endgame table covers (both exact), or the evaluation at the horizon. */
static double leaf(kmt_search *S, const kemet_pos *pos) {
    S->nodes++;
    if (S->nodes >= S->next_check && !S->abort)
        read_clock(S);
    if (pos->result != KEMET_PLAYING)
        return kmt_judge_eval(S->j, pos, 1);
    bool exact = false;
    double v = judged(S, pos, &exact);
    S->leaf |= !exact;
    return v;
}

static double value(kmt_search *S, const kemet_pos *pos, int depth,
                    double alpha, double beta, int ply);

/* Orders the n moves of `s` (made into s->next) for the mover: best
 * first. */
static void order_moves(kmt_search *S, const kemet_pos *pos, ply_scratch *s,
                        int n) {
    bool max = pos->to == 1;
    /* Every move's slots in the transposition table and the judged
     * positions are asked for at once, so that their cache misses
     * overlap instead of coming one after another (at one miss a move,
     * a third of a search's time in Washburne's game). Only the time
     * changes. */
    for (int i = 0; i < n; i++)
        if (!s->next[i].result) {
            uint64_t key = kmt_pos_key(&s->next[i]);
            __builtin_prefetch(tt_slot(S, key));
            __builtin_prefetch(ec_slot(S, key));
        }
    for (int i = 0; i < n; i++) {
        kemet_pos *next = &s->next[i];
        const tt_entry *e = next->result ? NULL : tt_find(S, kmt_pos_key(next));
        bool exact = false;
        double v = e              ? 0.5 * (e->lo + e->hi)
                   : next->result ? kmt_judge_eval(S->j, next, 1)
                                  : judged(S, next, &exact);
        s->score[i] = max ? v : -v;
        s->order[i] = i;
    }
    /* Insertion sort, stable: equal scores keep the generator's order. */
    for (int i = 1; i < n; i++) {
        int k = s->order[i];
        double v = s->score[k];
        int j = i;
        while (j > 0 && s->score[s->order[j - 1]] < v) {
            s->order[j] = s->order[j - 1];
            j--;
        }
        s->order[j] = k;
    }
}

/* The mover's best over the moves for `thr` (all of them, or only the
 * first in order when `probe`). */
static double move_node(kmt_search *S, const kemet_pos *pos,
                        const kemet_throw *thr, int depth, double alpha,
                        double beta, int ply, bool probe) {
    ply_scratch *s = scratch(S, ply);
    if (!s)
        return leaf(S, pos);
    int n = kmt_afters(S->r, pos, thr, s->moves, s->next, true);
    if (n < 1)
        return leaf(S, pos);
    if (n == 1)
        return value(S, &s->next[0], depth - 1, alpha, beta, ply + 1);
    order_moves(S, pos, s, n);
    bool max = pos->to == 1;
    double best = max ? -1 : 2;
    for (int k = 0; k < (probe ? 1 : n); k++) {
        double v =
            value(S, &s->next[s->order[k]], depth - 1, alpha, beta, ply + 1);
        if (S->abort)
            return v;
        if (max ? v > best : v < best)
            best = v;
        if (max) {
            if (best >= beta)
                break;
            if (best > alpha)
                alpha = best;
        } else {
            if (best <= alpha)
                break;
            if (best < beta)
                beta = best;
        }
    }
    return best;
}

/* A throw: the expectation over its outcomes, with Star1 and Star2 cuts.
 * Fail-soft: a value outside (alpha, beta) is a bound on that side. */
static double chance_node(kmt_search *S, const kemet_pos *pos, int depth,
                          double alpha, double beta, int ply) {
    ply_scratch *s = scratch(S, ply);
    if (!s)
        return leaf(S, pos);
    kemet_weight total;
    int k = kemet_throws(S->r, pos, s->thr, s->w, &total);
    bool max = pos->to == 1;
    double *lo = s->lo, *hi = s->hi;
    double lsum = 0, hsum = 0; /* sum of p * bound over all outcomes */
    for (int i = 0; i < k; i++) {
        lo[i] = 0;
        hi[i] = 1;
        hsum += (double)s->w[i] / (double)total;
    }
    /* Star2: probe each outcome with its first move. The scratch of the
     * next ply is this outcome's; throws of this ply stay untouched. */
    if (depth >= 2 && k > 1) {
        for (int i = 0; i < k; i++) {
            double p = (double)s->w[i] / (double)total;
            double v =
                move_node(S, pos, &s->thr[i], depth, 0, 1, ply + 1, true);
            if (S->abort)
                return v;
            /* A first move's exact value bounds its max node from below
             * (a min node from above). */
            if (max)
                lo[i] = v;
            else
                hi[i] = v;
            lsum += p * lo[i];
            hsum += p * (hi[i] - 1);
            if (max && lsum >= beta)
                return lsum;
            if (!max && hsum <= alpha)
                return hsum;
        }
    }
    /* Star1 over the outcomes: sum of the exact values found so far, with
     * the others at their bounds. */
    double sum = 0, rest_lo = lsum, rest_hi = hsum;
    for (int i = 0; i < k; i++) {
        double p = (double)s->w[i] / (double)total;
        rest_lo -= p * lo[i];
        rest_hi -= p * hi[i];
        if (sum + p * lo[i] + rest_lo >= beta)
            return sum + p * lo[i] + rest_lo;
        if (sum + p * hi[i] + rest_hi <= alpha)
            return sum + p * hi[i] + rest_hi;
        double a = (alpha - sum - rest_hi) / p;
        double b = (beta - sum - rest_lo) / p;
        if (a < lo[i])
            a = lo[i];
        if (b > hi[i])
            b = hi[i];
        double v;
        if (lo[i] == hi[i])
            v = lo[i];
        else
            v = move_node(S, pos, &s->thr[i], depth, a, b, ply + 1, false);
        if (S->abort)
            return v;
        /* The outcome's value lies within its probed bounds. */
        v = v < lo[i] ? lo[i] : v > hi[i] ? hi[i] : v;
        sum += p * v;
        if (sum + rest_lo >= beta)
            return sum + rest_lo;
        if (sum + rest_hi <= alpha)
            return sum + rest_hi;
    }
    return sum;
}

static double value(kmt_search *S, const kemet_pos *pos, int depth,
                    double alpha, double beta, int ply) {
    if (pos->result != KEMET_PLAYING || depth <= 0 || ply >= MAXPLY)
        return leaf(S, pos);
    double v;
    if (S->j->table && kemet_table_probe(S->j->table, pos, &v)) {
        S->nodes++; /* the table's exact value ends the line */
        return pos->to == 1 ? v : 1 - v;
    }
    S->nodes++;
    if (out_of_budget(S))
        return leaf(S, pos);
    uint64_t key = kmt_pos_key(pos);
    const tt_entry *e = tt_find(S, key);
    if (e && e->depth >= depth &&
        (e->lo >= beta || e->hi <= alpha || e->lo == e->hi)) {
        S->leaf |= e->open;
        return e->lo >= beta ? e->lo : e->hi <= alpha ? e->hi : e->lo;
    }
    double a0 = alpha, b0 = beta;
    /* Whether this subtree meets the horizon, for the table. */
    bool leaf_above = S->leaf;
    S->leaf = false;
    v = chance_node(S, pos, depth, alpha, beta, ply);
    if (S->abort)
        return v;
    /* Pre-throw choices (Senet's rescue) compete with throwing. */
    ply_scratch *s = scratch(S, ply);
    int n = s ? kemet_prethrow(S->r, pos, s->moves) : 0;
    bool max = pos->to == 1;
    for (int i = 0; i < n; i++) {
        if (max ? v >= beta : v <= alpha)
            break;
        if (max && v > alpha)
            alpha = v;
        if (!max && v < beta)
            beta = v;
        kemet_pos next;
        kemet_make(S->r, pos, NULL, &s->moves[i], &next, NULL);
        double c = value(S, &next, depth - 1, alpha, beta, ply + 1);
        if (S->abort)
            return c;
        if (max ? c > v : c < v)
            v = c;
    }
    tt_store(S, key, depth, v, a0, b0, S->leaf);
    S->leaf |= leaf_above;
    return v;
}

/* The values of the root's choices at `depth`: for each of the n moves for
 * `thr` (thr NULL: the pre-throw moves, and throwing in *throw_v). With
 * `exact`, every value is exact; else only the best one is, the others
 * being bounds that show they are not better. */
static void root(kmt_search *S, const kemet_pos *pos, const kemet_throw *thr,
                 const kemet_move *moves, int n, const int *order, int depth,
                 bool exact, double *v, double *throw_v) {
    bool max = pos->to == 1;
    double alpha = 0, beta = 1;
    if (!thr) {
        double t = chance_node(S, pos, depth, 0, 1, 0);
        *throw_v = t;
        if (!exact) {
            if (max)
                alpha = t;
            else
                beta = t;
        }
    }
    for (int k = 0; k < n && !S->abort; k++) {
        int i = order[k];
        kemet_pos next;
        kemet_make(S->r, pos, thr, &moves[i], &next, NULL);
        double x =
            value(S, &next, depth - 1, exact ? 0 : alpha, exact ? 1 : beta, 1);
        v[i] = x;
        if (!exact) {
            if (max && x > alpha)
                alpha = x;
            if (!max && x < beta)
                beta = x;
        }
    }
}

int kmt_search_run(kmt_search *S, const kmt_budget *budget,
                   const kemet_pos *pos, const kemet_throw *thr,
                   const kemet_move *moves, int n, double *chance,
                   double *throw_chance) {
    if (thr && thr->n == 0)
        thr = NULL;
    S->gen++;
    if (++S->ec_gen == 0) { /* after 2^32 searches: every entry old */
        memset(S->ec, 0, ((size_t)1 << EC_BITS) * sizeof *S->ec);
        S->ec_gen = 1;
    }
    S->nodes = 0;
    S->next_check = 256;
    S->abort = false;
    S->limit = budget->depth ? 0 : budget->nodes;
    S->deadline = budget->seconds > 0 ? now_seconds() + budget->seconds : 0;
    S->check = budget->check;
    S->check_ctx = budget->check_ctx;
    int maxdepth = budget->depth ? budget->depth : MAXPLY - 1;
    if (n > KEMET_MAX_MOVES)
        return thr ? 0 : -1; /* no list is longer */
    int *order = S->order;
    double *v = S->v, *best_v = S->best_v;
    bool max = pos->to == 1;
    for (int i = 0; i < n; i++)
        order[i] = i;
    double tv = 0, best_tv = 0;
    int done = 0;
    for (int d = 1; d <= maxdepth; d++) {
        S->leaf = false;
        root(S, pos, thr, moves, n, order, d, chance != NULL, v, &tv);
        if (S->abort && done > 0)
            break;
        memcpy(best_v, v, (size_t)n * sizeof *v);
        best_tv = tv;
        done = d;
        if (S->abort || !S->leaf)
            break; /* out of budget, or every line reached the game's end */
        /* Next iteration: best first (stable for equal values). */
        for (int i = 1; i < n; i++) {
            int k = order[i];
            int j = i;
            while (j > 0 &&
                   (max ? v[order[j - 1]] < v[k] : v[order[j - 1]] > v[k])) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = k;
        }
        if (S->limit > 0 && S->nodes >= S->limit)
            break;
    }
    /* The answer: the best value of the deepest finished search; the
     * first of equals in the move order. */
    int best = -1;
    double top = thr ? (max ? -1 : 2) : best_tv;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        if (max ? best_v[i] > top : best_v[i] < top) {
            top = best_v[i];
            best = i;
        }
    }
    if (thr && best < 0)
        best = order[0];
    if (chance) {
        for (int i = 0; i < n; i++)
            chance[i] = max ? best_v[i] : 1 - best_v[i];
    }
    if (throw_chance && !thr)
        *throw_chance = max ? best_tv : 1 - best_tv;
    S->abort = false;
    return best;
}

long long kmt_search_nodes(const kmt_search *S) {
    return S->nodes;
}
