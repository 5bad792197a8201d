/* mcts.c - Monte Carlo tree search with chance nodes, for every ruleset.
 *
 * The tree alternates the game's own kinds of points:
 *  - a position before a throw: a chance node over the throw's outcomes
 *    (or, when there are pre-throw moves, a choice between throwing and
 *    each of them);
 *  - a position with a throw: a choice among the legal moves.
 * At a chance node the search goes to the outcome whose share of the
 * visits lags its probability the most, so the outcomes are visited in
 * proportion to their exact probabilities (stratified, not sampled: no
 * variance from the draw). At a choice it takes the child with the best
 * upper confidence bound for the player to move (UCT), each child starting
 * from the evaluation's win chance as if it had been visited PRIOR times;
 * a choice with many moves keeps only the WIDTH best by the evaluation.
 * A new position is valued by the evaluation's win chance (no random
 * playouts: the games are long and the evaluation is calibrated by
 * `kemet tune`); values are player 1's win chance, backed up as means.
 *
 * Deterministic: an iteration budget gives the same tree every time.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PRIOR 3.0 /* visits the evaluation's estimate is worth */
#define UCT_C 0.6
#define WIDTH 32     /* moves kept at a choice below the root */
#define MAXPATH 4096 /* the longest line one iteration follows */

enum { N_CHANCE, N_DECIDE, N_MOVE };

typedef struct mnode {
    kemet_pos pos;
    kemet_throw thr; /* N_MOVE: the throw to use */
    int32_t first;   /* first child, -1 before expansion */
    int32_t nchild;
    int32_t move; /* index of the move (or pre-throw move) that made it,
                     -1 for the throw */
    uint32_t visits;
    double sum;  /* sum of player 1's values backed up */
    float prior; /* the evaluation's value for player 1 */
    float prob;  /* child of a chance node: the outcome's probability */
    uint8_t kind;
    bool throw_only; /* the "throw" child of a choice: no pre-throw moves */
    bool exact;      /* prior is the endgame table's exact value */
} mnode;

struct kmt_mcts {
    const kemet_rules *r;
    const kemet_judge *j; /* what values positions */
    mnode *node;
    int32_t n, cap;
    kemet_move *moves;
    kemet_throw *thr;
    kemet_weight *w;
    double *score;
    kemet_pos *kids; /* the position after each move being expanded */
    int *order;
    int32_t *path;
    long long iterations;
    bool failed;
};

kmt_mcts *kmt_mcts_new(const kemet_judge *j) {
    kmt_mcts *M = calloc(1, sizeof *M);
    if (!M)
        return NULL;
    M->r = j->rules;
    M->j = j;
    M->moves = malloc(KEMET_MAX_MOVES * sizeof *M->moves);
    M->thr = malloc(KEMET_MAX_THROWS * sizeof *M->thr);
    M->w = malloc(KEMET_MAX_THROWS * sizeof *M->w);
    M->score = malloc(KEMET_MAX_MOVES * sizeof *M->score);
    M->kids = malloc(KEMET_MAX_MOVES * sizeof *M->kids);
    M->order = malloc(KEMET_MAX_MOVES * sizeof *M->order);
    M->path = malloc(MAXPATH * sizeof *M->path);
    if (!M->moves || !M->thr || !M->w || !M->score || !M->kids || !M->order ||
        !M->path) {
        kmt_mcts_free(M);
        return NULL;
    }
    return M;
}

void kmt_mcts_free(kmt_mcts *M) {
    if (!M)
        return;
    free(M->node);
    free(M->moves);
    free(M->thr);
    free(M->w);
    free(M->score);
    free(M->kids);
    free(M->order);
    free(M->path);
    free(M);
}

long long kmt_mcts_nodes(const kmt_mcts *M) {
    return M->iterations;
}

/* Room for k more nodes; false when memory ran out. */
static bool reserve(kmt_mcts *M, int32_t k) {
    if (M->n + k <= M->cap)
        return true;
    int32_t cap = M->cap ? M->cap : 4096;
    while (cap < M->n + k)
        cap *= 2;
    mnode *node = realloc(M->node, (size_t)cap * sizeof *node);
    if (!node) {
        M->failed = true;
        return false;
    }
    M->node = node;
    M->cap = cap;
    return true;
}

/* A new node; `prior` is the evaluation's win chance of `pos` for player
 * 1 (kmt_judge_chance1), when the caller has it already. */
static int32_t add_valued(kmt_mcts *M, const kemet_pos *pos, int kind, int move,
                          double prior) {
    mnode *c = &M->node[M->n];
    *c = (mnode){0};
    c->pos = *pos;
    c->kind = (uint8_t)kind;
    c->first = -1;
    c->move = move;
    c->prior = (float)prior;
    return M->n++;
}

static int32_t add(kmt_mcts *M, const kemet_pos *pos, int kind, int move) {
    bool exact = false;
    int32_t x =
        add_valued(M, pos, kind, move, kmt_judge_chance1(M->j, pos, &exact));
    M->node[x].exact = exact;
    return x;
}

/* The children of a choice among `n` moves for `thr` in node x (moves
 * NULL: already made into M->kids); keeps them all when `all`, else the
 * WIDTH best for the mover. */
static void expand_moves(kmt_mcts *M, int32_t x, const kemet_move *moves, int n,
                         bool all) {
    const kemet_pos pos = M->node[x].pos;
    const kemet_throw thr = M->node[x].thr;
    bool max = pos.to == 1;
    for (int i = 0; i < n; i++) {
        if (moves)
            kemet_make(M->r, &pos, &thr, &moves[i], &M->kids[i], NULL);
        double v = kmt_judge_chance1(M->j, &M->kids[i], NULL);
        M->score[i] = max ? v : -v;
        M->order[i] = i;
    }
    int keep = n;
    if (!all && n > WIDTH) {
        /* Partial selection of the WIDTH best, stable by index. */
        for (int k = 0; k < WIDTH; k++) {
            int b = k;
            for (int j = k + 1; j < n; j++)
                if (M->score[M->order[j]] > M->score[M->order[b]] ||
                    (M->score[M->order[j]] == M->score[M->order[b]] &&
                     M->order[j] < M->order[b]))
                    b = j;
            int t = M->order[k];
            M->order[k] = M->order[b];
            M->order[b] = t;
        }
        keep = WIDTH;
    }
    if (!reserve(M, keep))
        return;
    M->node[x].first = M->n;
    M->node[x].nchild = keep;
    for (int k = 0; k < keep; k++) {
        int i = M->order[k];
        double v = M->score[i];
        int32_t c = add_valued(M, &M->kids[i], N_CHANCE, i, max ? v : -v);
        M->node[c].exact = M->j->table && M->kids[i].result == KEMET_PLAYING &&
                           kemet_table_probe(M->j->table, &M->kids[i], NULL);
    }
}

static void expand(kmt_mcts *M, int32_t x) {
    mnode *nd = &M->node[x];
    if (nd->kind == N_MOVE) {
        kemet_pos pos = nd->pos;
        kemet_throw thr = nd->thr;
        int n = kmt_afters(M->r, &pos, &thr, M->moves, M->kids, true);
        if (n < 1) {
            M->failed = true;
            return;
        }
        expand_moves(M, x, NULL, n, false);
        return;
    }
    kemet_pos pos = nd->pos;
    int pre = nd->throw_only ? 0 : kemet_prethrow(M->r, &pos, M->moves);
    if (pre > 0) {
        /* A choice: throwing (the same position as a chance node), or a
         * pre-throw move. */
        if (!reserve(M, pre + 1))
            return;
        M->node[x].kind = N_DECIDE;
        M->node[x].first = M->n;
        M->node[x].nchild = pre + 1;
        int32_t t = add(M, &pos, N_CHANCE, -1);
        M->node[t].throw_only = true;
        for (int i = 0; i < pre; i++) {
            kemet_pos next;
            kemet_make(M->r, &pos, NULL, &M->moves[i], &next, NULL);
            add(M, &next, N_CHANCE, i);
        }
        return;
    }
    kemet_weight total;
    int k = kemet_throws(M->r, &pos, M->thr, M->w, &total);
    if (!reserve(M, k))
        return;
    M->node[x].first = M->n;
    M->node[x].nchild = k;
    for (int i = 0; i < k; i++) {
        int32_t c = add(M, &pos, N_MOVE, -1);
        M->node[c].thr = M->thr[i];
        M->node[c].prob = (float)M->w[i] / (float)total;
    }
}

static double mean(const mnode *c) {
    return (c->sum + PRIOR * (double)c->prior) / ((double)c->visits + PRIOR);
}

static int32_t select_child(const kmt_mcts *M, int32_t x) {
    const mnode *nd = &M->node[x];
    const mnode *c = &M->node[nd->first];
    int32_t best = 0;
    if (nd->kind == N_CHANCE) {
        /* The outcome furthest behind its share of the visits. */
        double lag = -1e300;
        for (int32_t i = 0; i < nd->nchild; i++) {
            double l = (double)c[i].prob * ((double)nd->visits + 1) -
                       (double)c[i].visits;
            if (l > lag) {
                lag = l;
                best = i;
            }
        }
        return nd->first + best;
    }
    bool max = nd->pos.to == 1;
    double top = -1e300, logn = log((double)nd->visits + 1);
    for (int32_t i = 0; i < nd->nchild; i++) {
        double q = mean(&c[i]);
        if (!max)
            q = 1 - q;
        double u = q + UCT_C * sqrt(logn / ((double)c[i].visits + 1));
        if (u > top) {
            top = u;
            best = i;
        }
    }
    return nd->first + best;
}

/* One iteration: down to a new position, value it, back the value up. */
static void iterate(kmt_mcts *M) {
    int32_t x = 0, depth = 0;
    M->path[depth++] = 0;
    double v;
    for (;;) {
        mnode *nd = &M->node[x];
        if (nd->pos.result != KEMET_PLAYING) {
            v = kmt_judge_eval(M->j, &nd->pos, 1);
            break;
        }
        if (nd->exact && x != 0) {
            v = nd->prior; /* the endgame table's exact value */
            break;
        }
        if (nd->kind == N_CHANCE && nd->visits == 0 && x != 0) {
            v = nd->prior; /* a new position: the evaluation's value */
            break;
        }
        if (nd->first < 0) {
            expand(M, x);
            if (M->failed || M->node[x].first < 0) {
                v = M->node[x].prior;
                break;
            }
        }
        x = select_child(M, x);
        M->path[depth++] = x;
        if (depth == MAXPATH) { /* a very long line: stop and estimate */
            v = M->node[x].prior;
            break;
        }
    }
    if (M->failed)
        return;
    for (int i = 0; i < depth; i++) {
        M->node[M->path[i]].visits++;
        M->node[M->path[i]].sum += v;
    }
}

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int kmt_mcts_run(kmt_mcts *M, const kmt_budget *budget, const kemet_pos *pos,
                 const kemet_throw *thr, const kemet_move *moves, int n,
                 double *chance, double *throw_chance) {
    if (thr && thr->n == 0)
        thr = NULL;
    M->n = 0;
    M->failed = false;
    M->iterations = 0;
    int fallback = thr ? 0 : -1;
    if (!reserve(M, n + 2))
        return fallback;
    int32_t root = add(M, pos, thr ? N_MOVE : N_DECIDE, -1);
    if (thr) {
        M->node[root].thr = *thr;
        expand_moves(M, root, moves, n, true);
    } else {
        M->node[root].first = M->n;
        M->node[root].nchild = n + 1;
        int32_t t = add(M, pos, N_CHANCE, -1);
        M->node[t].throw_only = true;
        for (int i = 0; i < n; i++) {
            kemet_pos next;
            kemet_make(M->r, pos, NULL, &moves[i], &next, NULL);
            add(M, &next, N_CHANCE, i);
        }
    }
    if (M->failed)
        return fallback;
    /* Every choice valued exactly (endgame table, or the game's end): no
     * search is needed. */
    bool all_exact = true;
    for (int32_t i = 0; i < M->node[root].nchild; i++) {
        const mnode *c = &M->node[M->node[root].first + i];
        all_exact &= c->exact || c->pos.result != KEMET_PLAYING;
    }
    if (all_exact) {
        bool max = pos->to == 1;
        int best = fallback;
        double top = -1;
        for (int32_t i = 0; i < M->node[root].nchild; i++) {
            const mnode *c = &M->node[M->node[root].first + i];
            double q = c->pos.result != KEMET_PLAYING
                           ? kmt_judge_eval(M->j, &c->pos, 1)
                           : kmt_judge_chance1(M->j, &c->pos, NULL);
            q = max ? q : 1 - q;
            if (c->move >= 0 && chance)
                chance[c->move] = q;
            if (c->move < 0 && throw_chance)
                *throw_chance = q;
            if (q > top + 1e-12) {
                top = q;
                best = c->move;
            }
        }
        return best;
    }
    double deadline = budget->seconds > 0 ? seconds_now() + budget->seconds : 0;
    long long limit = budget->nodes > 0 ? budget->nodes : 1000;
    while (!M->failed) {
        if (deadline > 0
                ? ((M->iterations & 63) == 0 && seconds_now() >= deadline)
                : M->iterations >= limit)
            break;
        if (budget->check && (M->iterations & 63) == 0 &&
            budget->check(budget->check_ctx))
            break;
        iterate(M);
        M->iterations++;
    }
    /* The most visited child; its mean is the estimate. */
    const mnode *root_n = &M->node[root];
    const mnode *c = &M->node[root_n->first];
    bool max = pos->to == 1;
    int best = -1;
    uint32_t most = 0;
    double bestq = -1;
    for (int32_t i = 0; i < root_n->nchild; i++) {
        double q = mean(&c[i]);
        if (!max)
            q = 1 - q;
        int idx = c[i].move; /* -1: throwing */
        if (idx >= 0 && chance)
            chance[idx] = q;
        if (idx < 0 && throw_chance)
            *throw_chance = q;
        if (c[i].visits > most || (c[i].visits == most && q > bestq)) {
            most = c[i].visits;
            bestq = q;
            best = idx;
        }
    }
    if (best < 0 && thr)
        best = 0;
    return best;
}
