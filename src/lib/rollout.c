/* rollout.c - Monte Carlo rollouts: the value of each candidate move
 * estimated by playing many games on from the position after it.
 *
 * Each game is played by a policy (any agent; greedy by default, as GNU
 * Backgammon rolls out with its quick evaluation) until it ends, until a
 * table covers the position (its exact value ends the game), or, in a
 * truncated rollout, until `truncate` plies are played (the evaluation
 * then gives its chance).
 *
 * Two means reduce the variance. Common throws: game g of every candidate
 * throws from the same generator, so the candidates are compared under the
 * same luck. Luck adjustment: at each throw, the luck is how much better
 * the throw that came is than the average throw, both judged one move
 * ahead by the evaluation (each outcome met by its best move); the game's
 * result minus the sum of its luck is an unbiased estimate of the value
 * (each luck term has mean zero whatever the evaluation) whose variance
 * is far smaller when the evaluation is good.
 *
 * The games are dealt to NSTREAMS streams by index, each stream played in
 * order by its own agent, so the result is the same for any thread count.
 */
#include "internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define NSTREAMS 32
#define MAX_PLIES 20000 /* a game still going then is valued as it stands */

typedef struct roll {
    const kemet_judge *j;
    const kemet_rules *r;
    const kemet_pos *pos;
    const kemet_throw *thr;
    const kemet_move *moves;
    int n, cands;
    const kemet_rollout *o;
    const char *agent;
    double *est;       /* cands * games, player 1's view */
    atomic_int failed; /* a stream could not get its memory */
} roll;

typedef struct scratch {
    kemet_move *moves;
    kemet_throw thr[KEMET_MAX_THROWS];
    uint32_t w[KEMET_MAX_THROWS];
} scratch;

/* Player 1's value of a position at the end of a game or of a rollout:
 * exact once the game is over (the judge gives the result then) or
 * where a table covers it. */
static double settled(const kemet_judge *j, const kemet_pos *pos, bool *exact) {
    *exact = pos->result != KEMET_PLAYING;
    return kmt_judge_chance1(j, pos, exact);
}

/* The mover's best value, player 1's view, for throw t in `pos`, one move
 * ahead; a negative number (an error code) when `t` has no moves there. */
static double best_after(const kemet_judge *j, const kemet_pos *pos,
                         const kemet_throw *t, kemet_move *moves) {
    const kemet_rules *r = j->rules;
    int n = kemet_moves(r, pos, t, moves);
    if (n < 1)
        return n < 0 ? n : kmt_judge_chance1(j, pos, NULL);
    double best = pos->to == 1 ? -1 : 2;
    for (int i = 0; i < n; i++) {
        kemet_pos next;
        bool exact;
        kemet_make(r, pos, t, &moves[i], &next, NULL);
        double v = settled(j, &next, &exact);
        if (pos->to == 1 ? v > best : v < best)
            best = v;
    }
    return best;
}

/* How much better outcome `got` of the nt outcomes thr[] of `pos` is than
 * their weighted mean, each valued by best_after (got -1: the outcome's
 * value is `best`, given). */
static double luck_of(const kemet_judge *j, const kemet_pos *pos,
                      const kemet_throw *thr, const uint32_t *w, int nt,
                      uint32_t total, int got, double best, kemet_move *moves) {
    double mean = 0;
    for (int i = 0; i < nt; i++) {
        double b = best_after(j, pos, &thr[i], moves);
        mean += b * w[i];
        if (i == got)
            best = b;
    }
    return best - mean / total;
}

int kemet_throw_luck(const kemet_judge *judge, const kemet_pos *pos,
                     const kemet_throw *thr, double *luck, kemet_error *err) {
    if (!judge || !pos || !thr || !luck || !kmt_pos_usable(judge->rules, pos))
        return kmt_fail(err, KEMET_EMISUSE, "bad luck arguments");
    const kemet_rules *rules = judge->rules;
    if (pos->result != KEMET_PLAYING)
        return kmt_fail(err, KEMET_EOVER, "the game is over");
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    kemet_throw *all = malloc(KEMET_MAX_THROWS * sizeof *all);
    uint32_t *w = malloc(KEMET_MAX_THROWS * sizeof *w), total;
    int rc = KEMET_OK;
    if (!moves || !all || !w) {
        rc = kmt_fail(err, KEMET_ENOMEM, "out of memory");
    } else {
        double got = best_after(judge, pos, thr, moves);
        if (got < 0) {
            rc = kmt_fail(err, (int)got, "%s",
                          (int)got == KEMET_ETHROW
                              ? "not a throw of this position"
                              : "not a usable position");
        } else {
            int nt = kemet_throws(rules, pos, all, w, &total);
            *luck = luck_of(judge, pos, all, w, nt, total, -1, got, moves);
        }
    }
    free(moves);
    free(all);
    free(w);
    return rc;
}

/* One game from candidate c, its throws drawn from `dice`. Returns player
 * 1's estimate. */
static double play_one(const roll *R, scratch *S, kemet_agent *ag, int c,
                       kemet_rng *dice) {
    const kemet_rules *r = R->r;
    kemet_pos p = *R->pos;
    bool forced = false; /* the candidate is throwing, before any choice */
    if (c < R->n)
        kemet_make(r, R->pos, R->thr, &R->moves[c], &p, NULL);
    else
        forced = true;
    double luck = 0;
    for (long ply = 0;; ply++) {
        bool exact;
        double v = settled(R->j, &p, &exact);
        if (exact || ply >= MAX_PLIES ||
            (R->o->truncate > 0 && ply >= R->o->truncate))
            return v - luck;
        if (!forced) {
            int k = kemet_prethrow(r, &p, S->moves);
            if (k > 0) {
                int i = kemet_agent_choose(ag, &p, NULL, S->moves, k);
                if (i >= 0 && i < k) {
                    kemet_make(r, &p, NULL, &S->moves[i], &p, NULL);
                    continue;
                }
            }
        }
        forced = false;
        uint32_t total;
        int nt = kemet_throws(r, &p, S->thr, S->w, &total);
        uint32_t x = kemet_rng_below(dice, total);
        int t = 0;
        while (t < nt - 1 && x >= S->w[t])
            x -= S->w[t++];
        if (!R->o->plain && nt > 1)
            luck += luck_of(R->j, &p, S->thr, S->w, nt, total, t, 0, S->moves);
        int n = kemet_moves(r, &p, &S->thr[t], S->moves);
        if (n < 1)
            return v - luck; /* more moves than the list holds: never seen */
        int i =
            n == 1 ? 0 : kemet_agent_choose(ag, &p, &S->thr[t], S->moves, n);
        kemet_make(r, &p, &S->thr[t], &S->moves[i], &p, NULL);
    }
}

static uint64_t game_seed(uint64_t seed, long g) {
    return seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(g + 1));
}

static void stream(void *ctx, long s, int thread) {
    (void)thread;
    roll *R = ctx;
    scratch *S = malloc(sizeof *S);
    kemet_agent *ag = NULL;
    kemet_error err;
    if (S)
        S->moves = malloc(KEMET_MAX_MOVES * sizeof *S->moves);
    if (!S || !S->moves ||
        kemet_agent_new_judged(R->j, R->agent, game_seed(R->o->seed, -2 - s),
                               &ag, &err)) {
        atomic_store(&R->failed, 1);
        if (S)
            free(S->moves);
        free(S);
        return;
    }
    for (long g = s; g < R->o->games; g += NSTREAMS)
        for (int c = 0; c < R->cands; c++) {
            kemet_rng dice;
            kemet_rng_seed(&dice, game_seed(R->o->seed, g));
            R->est[(size_t)c * (size_t)R->o->games + (size_t)g] =
                play_one(R, S, ag, c, &dice);
        }
    kemet_agent_free(ag);
    free(S->moves);
    free(S);
}

int kemet_rollout_run(const kemet_judge *judge, const kemet_pos *pos,
                      const kemet_throw *thr, const kemet_move *moves, int n,
                      const kemet_rollout *opts, double *chance, double *se,
                      kemet_error *err) {
    if (!judge || !pos || !opts || !chance || n < 0 || (n > 0 && !moves) ||
        opts->games < 1 || opts->truncate < 0 || (thr && thr->n && n < 1) ||
        !kmt_pos_usable(judge->rules, pos))
        return kmt_fail(err, KEMET_EMISUSE, "bad rollout arguments");
    const kemet_rules *rules = judge->rules;
    if (pos->result != KEMET_PLAYING)
        return kmt_fail(err, KEMET_EOVER, "the game is over");
    if (thr && thr->n == 0)
        thr = NULL;
    const char *agent = opts->agent ? opts->agent : "greedy";
    kemet_agent *probe;
    int rc = kemet_agent_new_judged(judge, agent, 1, &probe, err);
    if (rc)
        return rc;
    kemet_agent_free(probe);
    roll R = {judge, rules, pos,  thr, moves, n, n + (thr ? 0 : 1),
              opts,  agent, NULL, 0};
    R.est = malloc((size_t)R.cands * (size_t)opts->games * sizeof *R.est);
    if (!R.est)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    long streams = opts->games < NSTREAMS ? opts->games : NSTREAMS;
    kmt_run_units(opts->threads, streams, stream, &R);
    if (atomic_load(&R.failed)) {
        free(R.est);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    for (int c = 0; c < R.cands; c++) {
        const double *e = R.est + (size_t)c * (size_t)opts->games;
        double sum = 0, sq = 0;
        for (int g = 0; g < opts->games; g++)
            sum += e[g];
        double mean = sum / opts->games;
        for (int g = 0; g < opts->games; g++)
            sq += (e[g] - mean) * (e[g] - mean);
        double v = pos->to == 1 ? mean : 1 - mean;
        chance[c] = v < 0 ? 0 : v > 1 ? 1 : v;
        if (se)
            se[c] = opts->games > 1 ? sqrt(sq / (opts->games - 1) / opts->games)
                                    : 0;
    }
    free(R.est);
    return KEMET_OK;
}
