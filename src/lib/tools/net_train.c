/* net_train.c - training a network (net.c) by self-play
 * temporal-difference learning, TD(lambda), the method of TD-Gammon and GNU
 * Backgammon, with an endgame table's exact values as extra examples.
 *
 * Training. Each game is played by the network itself, one move ahead
 * (the move whose position after it it values most for the mover; before
 * a throw, each pre-throw move against the average of the throws, each met
 * by its best move). At each position before a throw, V (player 1's
 * chance) moves toward the next such position's V, and at the end toward
 * the result, through eligibility traces decaying by lambda. The games
 * are played in batches with the weights held fixed, each game's update
 * kept apart and the updates added in game order after the batch, so the
 * weights depend on the seed and the options and not on the thread count.
 * The learning rate falls linearly from alpha to alpha / 10 over the run.
 * A game still going after the cap on plies ends there with a result
 * (kmt_net_cap_result: the rules' score where they count one, else a
 * draw), learned from as any other end, so that training never teaches
 * a game that goes on for ever a value of its own making.
 */
#include "net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLIES 4000 /* kemet_train.max_plies' default */
/* kemet_train.choices: throws with more moves are left out */
#define CHOICES_MAX 64

/* ---------------------------------------------------------------------------
 * Training
 * ------------------------------------------------------------------------ */

typedef struct trainer {
    const kemet_rules *r;
    kemet_net *n;
    const kemet_train *o;
    long first;      /* index of the batch's first game */
    int part, parts; /* this process plays games part, part + parts, ... */
    double **dw;     /* per game of the batch */
    double *sq;      /* per game: sum of squared TD errors */
    long *steps;     /* per game: TD steps */
    int *capped;     /* per game: ended by the cap on plies */
    int *failed;     /* per game: out of memory */
} trainer;

/* The learning rate at game g: alpha falling linearly over the run, to a
 * tenth of alpha at the last game, so the weights settle. */
static double rate_at(const kemet_train *o, long g) {
    return o->alpha * (1 - 0.9 * (double)g / (double)o->games);
}

typedef struct game_scratch {
    double *e, *g;
    kemet_move *moves;
    kemet_throw thr[KEMET_MAX_THROWS];
    kemet_weight wt[KEMET_MAX_THROWS];
} game_scratch;

/* Player 1's value of a finished game. */
static double decided_value(const kemet_pos *pos) {
    return pos->result == KEMET_WON1 ? 1 : pos->result == KEMET_WON2 ? 0 : 0.5;
}

double kmt_net_cap_result(const kemet_rules *r, const kemet_pos *pos) {
    if (!r->rs->scores)
        return 0.5;
    return pos->off[0] > pos->off[1] ? 1 : pos->off[0] < pos->off[1] ? 0 : 0.5;
}

/* Player 1's value of a position after a move (exact when the game is
 * over). */
static double after_value(const trainer *T, const kemet_pos *pos) {
    return pos->result != KEMET_PLAYING ? decided_value(pos)
                                        : kmt_net_chance1(T->r, T->n, pos);
}

/* The index of the mover's best move for `t` (one move ahead), and its
 * value for player 1 in *v. */
static int best_move(const trainer *T, const kemet_pos *pos,
                     const kemet_throw *t, const kemet_move *moves, int k,
                     double *v) {
    int best = 0;
    double bv = 0;
    for (int i = 0; i < k; i++) {
        kemet_pos next;
        kemet_make(T->r, pos, t, &moves[i], &next, NULL);
        double x = after_value(T, &next);
        double mine = pos->to == 1 ? x : 1 - x;
        if (i == 0 || mine > bv) {
            bv = mine;
            best = i;
        }
    }
    *v = pos->to == 1 ? bv : 1 - bv;
    return best;
}

/* Player 1's value V of `pos` (unfinished) and its gradient into g. */
static double value_grad(const trainer *T, const kemet_pos *pos, double *g) {
    const kemet_net *n = T->n;
    int idx[MAX_INPUTS];
    double val[MAX_INPUTS], h[MAX_HIDDEN];
    int k = encode(T->r, n, pos, idx, val);
    double y = forward(n, k, idx, val, h);
    double sign = pos->to == 1 ? 1 : -1;
    double dz = sign * y * (1 - y);
    memset(g, 0, (size_t)n->nw * sizeof *g);
    double *gb1 = g + n->ni * n->nh, *gw2 = gb1 + n->nh, *gv = gw2 + n->nh + 1;
    const double *w2 = n->w + n->ni * n->nh + n->nh;
    gw2[n->nh] = dz;
    for (int i = 0; i < k; i++)
        gv[idx[i]] = dz * val[i];
    for (int j = 0; j < n->nh; j++) {
        gw2[j] = dz * h[j];
        gb1[j] = dz * w2[j] * h[j] * (1 - h[j]);
    }
    for (int i = 0; i < k; i++) {
        double *row = g + idx[i] * n->nh;
        for (int j = 0; j < n->nh; j++)
            row[j] = gb1[j] * val[i];
    }
    return pos->to == 1 ? y : 1 - y;
}

static uint64_t game_seed(uint64_t seed, long g) {
    uint64_t x = seed + 0x9E3779B97F4A7C15ull * (uint64_t)(g + 1);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Player 1's exact chance in `c`, a position after a move (decided, or in
 * the table's class); false where the table has no value for it. */
static bool exact_p1(const kemet_table *tb, const kemet_pos *c, double *z) {
    if (c->result != KEMET_PLAYING) {
        *z = decided_value(c);
        return true;
    }
    double v;
    if (!kemet_table_probe(tb, c, &v))
        return false;
    *z = c->to == 1 ? v : 1 - v;
    return true;
}

/* kemet_train.choices: a throw for `pos`, and the network's chances after
 * each move (player 1's) moved toward the exact ones, both measured from
 * their mean over the moves: a step on the differences that decide the
 * choice. A decided position after a move has its exact value and no
 * weights to move. Two passes (chances, then steps) keep it to one
 * gradient in memory. */
static void choice_step(trainer *T, const kemet_pos *pos, kemet_rng *rng,
                        double rate, kemet_move *moves, double *g, double *dw) {
    const kemet_rules *r = T->r;
    kemet_throw thr;
    kemet_roll(r, pos, rng, &thr);
    int n = kemet_moves(r, pos, &thr, moves);
    if (n < 2 || n > CHOICES_MAX)
        return;
    double v[CHOICES_MAX], z[CHOICES_MAX], dv = 0, dz = 0;
    kemet_pos c[CHOICES_MAX];
    for (int j = 0; j < n; j++) {
        kemet_make(r, pos, &thr, &moves[j], &c[j], NULL);
        if (!exact_p1(T->o->table, &c[j], &z[j]))
            return;
        v[j] = c[j].result != KEMET_PLAYING ? z[j] : value_grad(T, &c[j], g);
        dv += v[j] / n;
        dz += z[j] / n;
    }
    int nw = T->n->nw;
    for (int j = 0; j < n; j++) {
        if (c[j].result != KEMET_PLAYING)
            continue;
        double d = (z[j] - dz) - (v[j] - dv);
        value_grad(T, &c[j], g);
        for (int k = 0; k < nw; k++)
            dw[k] += rate * d * g[k];
    }
}

/* Supervised steps toward an exact table: each example a position drawn
 * uniformly from the table's class, seen from a side drawn at random (the
 * class holds player 1 to move; the rulesets with tables have alike
 * players), its chance moved toward the table's. */
static void table_examples(trainer *T, long unit, double alpha,
                           kemet_move *moves, double *g, double *dw) {
    const kemet_table *tb = T->o->table;
    kemet_table_info info;
    kemet_table_stats(tb, &info);
    kemet_rng rng;
    kemet_rng_seed(&rng, game_seed(T->o->seed ^ 0x7AB1E5ull, T->first + unit));
    int nw = T->n->nw;
    for (int e = 0; e < T->o->examples; e++) {
        kemet_pos pos;
        long long i;
        do
            i = (long long)(kemet_rng_next(&rng) % (uint64_t)info.entries);
        while (!kemet_table_position(tb, i, &pos));
        double exact;
        if (!kemet_table_probe(tb, &pos, &exact))
            continue;
        if (kemet_rng_next(&rng) & 1) {
            kemet_pos m = pos;
            m.sq[0] = pos.sq[1], m.sq[1] = pos.sq[0];
            m.heap[0] = pos.heap[1], m.heap[1] = pos.heap[0];
            m.hand[0] = pos.hand[1], m.hand[1] = pos.hand[0];
            m.to = 2;
            pos = m;
        }
        double v = value_grad(T, &pos, g);
        double z = pos.to == 1 ? exact : 1 - exact;
        double d = z - v;
        for (int k = 0; k < nw; k++)
            dw[k] += alpha * d * g[k];
        T->sq[unit] += d * d;
        T->steps[unit]++;
        if (T->o->choices > 0)
            choice_step(T, &pos, &rng, alpha * T->o->choices, moves, g, dw);
    }
}

/* One self-play game's learning: kemet_game_step_with's chooser. */
typedef struct self_play {
    const trainer *T;
    game_scratch *S;
    double *dw, alpha, prev;
    bool started;
    long unit;
} self_play;

/* Before each throw the network's value of the position is learned from
 * (TD(lambda): the step toward it from the last one), and a pre-throw
 * move is taken when it is worth more than throwing (the average over
 * the throws of the best move); after the throw the best move one move
 * ahead is played. */
static int self_play_choose(void *ctx, const kemet_pos *pos,
                            const kemet_throw *thr, const kemet_move *moves,
                            int k) {
    self_play *P = ctx;
    const trainer *T = P->T;
    game_scratch *S = P->S;
    const kemet_rules *r = T->r;
    int nw = T->n->nw;
    double v;
    if (thr)
        return k == 1 ? 0 : best_move(T, pos, thr, moves, k, &v);
    v = value_grad(T, pos, S->g);
    if (P->started) {
        double d = v - P->prev;
        for (int i = 0; i < nw; i++)
            P->dw[i] += P->alpha * d * S->e[i];
        T->sq[P->unit] += d * d;
        T->steps[P->unit]++;
    }
    for (int i = 0; i < nw; i++)
        S->e[i] = T->o->lambda * S->e[i] + S->g[i];
    P->prev = v;
    P->started = true;
    if (k == 0)
        return -1;
    /* Throwing: the average over the throws of the best move. */
    kemet_weight total;
    int nt = kemet_throws(r, pos, S->thr, S->wt, &total);
    double thr_v = 0;
    kemet_move *m2 = S->moves + k; /* `moves` is S->moves */
    for (int t = 0; t < nt; t++) {
        int c = kemet_moves(r, pos, &S->thr[t], m2);
        double x = 0;
        if (c > 0)
            best_move(T, pos, &S->thr[t], m2, c, &x);
        thr_v += x * (double)S->wt[t];
    }
    thr_v /= (double)total;
    double tv;
    int i = best_move(T, pos, NULL, moves, k, &tv);
    bool take = pos->to == 1 ? tv > thr_v : tv < thr_v;
    return take ? i : -1;
}

static void train_game(void *ctx, long mine, int thread) {
    (void)thread;
    trainer *T = ctx;
    /* this process's mine-th game of the batch (all of them, alone) */
    long unit = T->part + mine * T->parts;
    const kemet_rules *r = T->r;
    int nw = T->n->nw;
    double *dw = T->dw[unit];
    memset(dw, 0, (size_t)nw * sizeof *dw);
    T->sq[unit] = 0;
    T->steps[unit] = 0;
    T->capped[unit] = 0;
    game_scratch *S = malloc(sizeof *S);
    kemet_game *game = NULL;
    if (S) {
        S->e = calloc((size_t)nw, sizeof *S->e);
        S->g = malloc((size_t)nw * sizeof *S->g);
        S->moves = malloc(KEMET_MAX_MOVES * sizeof *S->moves);
    }
    double alpha = T->o->adam ? 1 /* the batch's step scales the sum */
                              : rate_at(T->o, T->first + unit);
    if (S && S->g && S->moves && T->o->endgame) {
        /* an endgame section: the table's examples alone */
        table_examples(T, unit, alpha, S->moves, S->g, dw);
        goto done;
    }
    if (!S || !S->e || !S->g || !S->moves ||
        kemet_game_new(r, game_seed(T->o->seed, T->first + unit), &game,
                       NULL)) {
        T->failed[unit] = 1;
        goto done;
    }
    self_play S2 = {T, S, dw, alpha, 0, false, unit};
    long cap = T->o->max_plies > 0 ? T->o->max_plies : MAX_PLIES;
    for (;;) {
        const kemet_pos *pos = kemet_game_pos(game);
        bool over = pos->result != KEMET_PLAYING;
        if (over || kemet_game_plies(game) >= cap) {
            /* the end, or the cap: a step toward the result */
            double z = over ? decided_value(pos) : kmt_net_cap_result(r, pos);
            T->capped[unit] = !over;
            if (S2.started) {
                double d = z - S2.prev;
                for (int i = 0; i < nw; i++)
                    dw[i] += alpha * d * S->e[i];
                T->sq[unit] += d * d;
                T->steps[unit]++;
            }
            break;
        }
        /* a throw (the chooser learns from the position first), or a
           move (more moves than the list holds: never seen) */
        if (kemet_game_step_with(game, self_play_choose, &S2, S->moves, NULL))
            break;
    }
    if (T->o->table && T->o->examples > 0)
        table_examples(T, unit, alpha, S->moves, S->g, dw);
done:
    kemet_game_free(game);
    if (S) {
        free(S->e);
        free(S->g);
        free(S->moves);
    }
    free(S);
}

/* Throws, then a move drawn uniformly: kemet_game_step_with's chooser
 * for the random games of fit_scale. */
static int random_choose(void *ctx, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *moves,
                         int n) {
    (void)pos;
    (void)moves;
    return thr ? (int)kemet_rng_below(ctx, (uint32_t)n) : -1;
}

/* The scale of each ruleset feature: one over its mean absolute value
 * over the positions of a few random games. */
static void fit_scale(const kemet_rules *r, kemet_net *n, uint64_t seed) {
    double sum[KEMET_MAX_FEATURES] = {0};
    long count = 0;
    kemet_rng pick;
    kemet_rng_seed(&pick, seed);
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    for (int g = 0; list && g < 50; g++) {
        kemet_game *game;
        if (kemet_game_new(r, game_seed(seed, -1 - g), &game, NULL))
            continue;
        for (int ply = 0; ply < 2000; ply++) {
            const kemet_pos *pos = kemet_game_pos(game);
            if (pos->result != KEMET_PLAYING)
                break;
            for (int p = 0; p < 2; p++) {
                double f[KEMET_MAX_FEATURES] = {0};
                r->rs->side(r, pos, p, f);
                for (int i = 0; i < n->nf; i++)
                    sum[i] += fabs(f[i]);
                count++;
            }
            /* One random ply of the game: a throw (never a pre-throw
               move), then a random move */
            long plies = kemet_game_plies(game);
            while (kemet_game_plies(game) == plies &&
                   kemet_game_step_with(game, random_choose, &pick, list,
                                        NULL) == KEMET_OK)
                ;
            if (kemet_game_plies(game) == plies)
                break;
        }
        kemet_game_free(game);
    }
    free(list);
    for (int i = 0; i < n->nf; i++)
        n->scale[i] = count && sum[i] > 1e-9 ? (double)count / sum[i] : 1;
}

/* A batch played by several processes: this one's `share` games packed,
 * gathered (opts->gather) with the others', every game's result put in
 * place in every process. False if any process failed. */
static bool share_batch(trainer *T, long nb, long share, size_t each,
                        double *mine, double *all) {
    int nw = T->n->nw, rc = KEMET_OK;
    size_t stride = each / sizeof(double);
    for (long k = 0; k < share; k++) {
        long b = T->part + k * T->parts;
        double *m = mine + (size_t)k * stride;
        memcpy(m, T->dw[b], (size_t)nw * sizeof *m);
        m[nw] = T->sq[b];
        m[nw + 1] = (double)T->steps[b];
        m[nw + 2] = T->capped[b];
        if (T->failed[b])
            rc = KEMET_ENOMEM;
    }
    if (T->o->gather(T->o->gather_ctx, nb, each, mine, all, rc))
        return false;
    for (long b = 0; b < nb; b++) {
        const double *a = all + (size_t)b * stride;
        memcpy(T->dw[b], a, (size_t)nw * sizeof *a);
        T->sq[b] = a[nw];
        T->steps[b] = (long)a[nw + 1];
        T->capped[b] = a[nw + 2] != 0;
        T->failed[b] = 0;
    }
    return true;
}

/* A number drawn uniformly from [-0.5, 0.5). */
static double centred(kemet_rng *rng) {
    return (double)(kemet_rng_next(rng) >> 11) / 9007199254740992.0 - 0.5;
}

/* A new network's starting weights: the hidden layer small and random,
 * the direct path the ruleset's tuned linear evaluation from the mover's
 * side (eval.c weighs player 1's features minus player 2's, plus tempo
 * for the player to move), b1 and w2 0. */
static void init_fresh(const kemet_rules *rules, kemet_net *n, uint64_t seed) {
    kemet_rng rng;
    kemet_rng_seed(&rng, game_seed(seed, -100));
    for (int i = 0; i < n->ni * n->nh; i++)
        n->w[i] = centred(&rng) * 0.2;
    double *w2 = n->w + n->ni * n->nh + n->nh, *v = w2 + n->nh + 1;
    int side = rules->squares + 1 + 3 + n->nf;
    double tuned[KEMET_MAX_FEATURES];
    kmt_eval_tuned(rules, tuned);
    w2[n->nh] = tuned[n->nf];
    for (int i = 0; i < n->nf; i++) {
        v[side - n->nf + i] = tuned[i] / n->scale[i];
        v[2 * side - n->nf + i] = -tuned[i] / n->scale[i];
    }
}

/* A new network's hidden layer made live: its input weights three times
 * init_fresh's and its output weights drawn from [-0.3, 0.3]. With w2 at 0
 * and small input weights every hidden unit starts alike and gets almost
 * no gradient, so the network stays close to its direct (linear) path. */
static void make_live(kemet_net *n, uint64_t seed) {
    for (int i = 0; i < n->ni * n->nh; i++)
        n->w[i] *= 3;
    kemet_rng rng;
    kemet_rng_seed(&rng, game_seed(seed, -200));
    double *w2 = n->w + n->ni * n->nh + n->nh;
    for (int j = 0; j < n->nh; j++)
        w2[j] = centred(&rng) * 0.6;
}

/* A copy of one section of a network (not its endgame section). */
static kemet_net *copy_section(const kemet_rules *rules,
                               const kemet_net *from) {
    kemet_net *n = kmt_net_alloc(rules, from->nh);
    if (!n)
        return NULL;
    memcpy(n->w, from->w, (size_t)n->nw * sizeof *n->w);
    memcpy(n->scale, from->scale, sizeof n->scale);
    n->pieces = from->pieces;
    if (from->note) {
        size_t l = strlen(from->note) + 1;
        if (!(n->note = malloc(l))) {
            kemet_net_free(n);
            return NULL;
        }
        memcpy(n->note, from->note, l);
    }
    refresh(n);
    return n;
}

/* For opts->endgame: a copy of `from` with the endgame section to train,
 * for the table's class: from's own if it has one for that class, else a
 * new one of opts->hidden units, its hidden layer live (make_live) and
 * its direct path the linear evaluation. */
static kemet_net *endgame_start(const kemet_rules *rules,
                                const kemet_train *opts, const kemet_net *from,
                                int pieces) {
    kemet_net *n = copy_section(rules, from);
    if (!n)
        return NULL;
    if (from->end && from->end->pieces == pieces) {
        n->end = copy_section(rules, from->end);
    } else if ((n->end = kmt_net_alloc(rules, opts->hidden)) != NULL) {
        kemet_net *e = n->end;
        memcpy(e->scale, from->scale, sizeof e->scale);
        init_fresh(rules, e, opts->seed);
        make_live(e, opts->seed);
    }
    if (!n->end) {
        kemet_net_free(n);
        return NULL;
    }
    n->end->pieces = pieces;
    return n;
}

/* kemet_train.adam: the moving means of each weight's gradient and of its
 * square, the batches so far, and the batch's summed gradient. */
typedef struct adam_state {
    double *m, *v, *sum;
    long t;
} adam_state;

static bool adam_init(adam_state *a, int nw) {
    a->m = calloc((size_t)nw, sizeof *a->m);
    a->v = calloc((size_t)nw, sizeof *a->v);
    a->sum = calloc((size_t)nw, sizeof *a->sum);
    a->t = 0;
    return a->m && a->v && a->sum;
}

static void adam_free(adam_state *a) {
    free(a->m);
    free(a->v);
    free(a->sum);
}

/* One of Adam's steps from the batch's summed gradient (emptied), at
 * rate `lr`, the first `nin` weights at hrate times it. */
static void adam_step(adam_state *a, kemet_net *n, double lr, double hrate,
                      int nin) {
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    a->t++;
    double c1 = 1 - pow(b1, (double)a->t), c2 = 1 - pow(b2, (double)a->t);
    for (int i = 0; i < n->nw; i++) {
        double gi = a->sum[i];
        a->sum[i] = 0;
        a->m[i] = b1 * a->m[i] + (1 - b1) * gi;
        a->v[i] = b2 * a->v[i] + (1 - b2) * gi * gi;
        double step = lr * (a->m[i] / c1) / (sqrt(a->v[i] / c2) + eps);
        n->w[i] += i < nin ? hrate * step : step;
    }
}

int kemet_net_train(const kemet_rules *rules, const kemet_train *opts,
                    const kemet_net *from,
                    void (*progress)(void *ctx, long games, double rms),
                    void *ctx, kemet_net **out, kemet_error *err) {
    if (!rules || !opts || !out || opts->games < 1 || opts->batch < 1 ||
        opts->batch > 4096 || !(opts->alpha > 0) || !(opts->lambda >= 0) ||
        opts->lambda > 1 ||
        !(opts->hidden_rate >= 0 && opts->hidden_rate <= 1000) ||
        !(opts->choices >= 0 && opts->choices <= 100) ||
        ((!from || opts->endgame) &&
         (opts->hidden < 1 || opts->hidden > MAX_HIDDEN)))
        return kmt_fail(err, KEMET_EMISUSE, "bad training options");
    *out = NULL;
    if (from && !kmt_net_fits(from, rules))
        return kmt_fail(err, KEMET_ERULESET,
                        "the network was made for another ruleset");
    if (opts->endgame && (!from || !opts->table || opts->examples < 1))
        return kmt_fail(err, KEMET_EMISUSE,
                        "an endgame section is trained from a network on a "
                        "table's examples");
    kemet_net *whole, *n; /* the network made; the section trained */
    if (opts->endgame) {
        kemet_table_info info;
        kemet_table_stats(opts->table, &info);
        whole = endgame_start(rules, opts, from, info.pieces);
        n = whole ? whole->end : NULL;
    } else {
        whole = n = from ? copy_section(rules, from)
                         : kmt_net_alloc(rules, opts->hidden);
    }
    if (!n) {
        kemet_net_free(whole);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    if (n->ni > MAX_INPUTS) {
        kemet_net_free(whole);
        return kmt_fail(err, KEMET_ERULESET, "the board is too large");
    }
    if (from && !opts->endgame && from->end &&
        !(n->end = copy_section(rules, from->end))) {
        kemet_net_free(whole);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    if (!from) {
        fit_scale(rules, n, opts->seed);
        init_fresh(rules, n, opts->seed);
        if (opts->live)
            make_live(n, opts->seed);
    }
    refresh(n);
    int B = opts->batch;
    double hrate = opts->hidden_rate > 0 ? opts->hidden_rate : 1;
    int parts = opts->gather && opts->parts > 1 ? opts->parts : 1;
    trainer T = {rules, n,    opts, 0,    parts > 1 ? opts->part : 0,
                 parts, NULL, NULL, NULL, NULL,
                 NULL};
    if (T.part < 0 || T.part >= parts) {
        kemet_net_free(whole);
        return kmt_fail(err, KEMET_EMISUSE, "bad training options");
    }
    /* shared among processes: each game's result as nw + 3 doubles (its
       weight changes, squared error, steps, whether the cap ended it),
       this process's and all */
    size_t each = ((size_t)n->nw + 3) * sizeof(double);
    double *mine = NULL, *all = NULL;
    T.dw = calloc((size_t)B, sizeof *T.dw);
    T.sq = calloc((size_t)B, sizeof *T.sq);
    T.steps = calloc((size_t)B, sizeof *T.steps);
    T.capped = calloc((size_t)B, sizeof *T.capped);
    T.failed = calloc((size_t)B, sizeof *T.failed);
    if (parts > 1) {
        mine = malloc(((size_t)B / (size_t)parts + 1) * each);
        all = malloc((size_t)B * each);
    }
    bool ok = T.dw && T.sq && T.steps && T.capped && T.failed &&
              (parts == 1 || (mine && all));
    for (int b = 0; ok && b < B; b++)
        ok = (T.dw[b] = malloc((size_t)n->nw * sizeof **T.dw)) != NULL;
    int nin = n->ni * n->nh + n->nh; /* the hidden layer's weights */
    adam_state adam = {0};
    if (ok && opts->adam)
        ok = adam_init(&adam, n->nw);
    double sq = 0;
    long steps = 0;
    for (long g = 0; ok && g < opts->games; g += B) {
        long nb = opts->games - g < B ? opts->games - g : B;
        T.first = g;
        /* The network is read by every game while the batch runs. */
        long share = nb > T.part ? (nb - T.part + parts - 1) / parts : 0;
        kmt_run_units(opts->threads, share, train_game, &T);
        if (parts > 1 && !share_batch(&T, nb, share, each, mine, all))
            ok = false;
        for (long b = 0; b < nb; b++) {
            if (T.failed[b]) {
                ok = false;
                break;
            }
            if (adam.m) {
                for (int i = 0; i < n->nw; i++)
                    adam.sum[i] += T.dw[b][i];
            } else {
                /* the hidden layer's input weights and biases at their
                   own rate (their gradients carry w2's small factor) */
                for (int i = 0; i < nin; i++)
                    n->w[i] += hrate * T.dw[b][i];
                for (int i = nin; i < n->nw; i++)
                    n->w[i] += T.dw[b][i];
            }
            sq += T.sq[b];
            steps += T.steps[b];
            if (T.capped[b] && opts->capped)
                (*opts->capped)++;
        }
        if (ok && adam.m)
            adam_step(&adam, n, rate_at(opts, g), hrate, nin);
        refresh(n);
        for (int i = 0; ok && i < n->nw; i++)
            if (!isfinite(n->w[i]) || fabs(n->w[i]) > 1e6)
                ok = false;
        if (ok && progress &&
            ((g + nb) % (B * 64) == 0 || g + nb == opts->games)) {
            progress(ctx, g + nb, steps ? sqrt(sq / (double)steps) : 0);
            sq = 0;
            steps = 0;
        }
    }
    for (int b = 0; T.dw && b < B; b++)
        free(T.dw[b]);
    free(T.dw);
    free(T.sq);
    free(T.steps);
    free(T.capped);
    free(T.failed);
    free(mine);
    free(all);
    adam_free(&adam);
    if (!ok) {
        kemet_net_free(whole);
        return kmt_fail(err, KEMET_ENOMEM,
                        "out of memory, or the weights diverged (a smaller "
                        "--alpha)");
    }
    *out = whole;
    return KEMET_OK;
}
