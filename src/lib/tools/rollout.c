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

/* The values of the positions one move ahead, remembered for one luck
 * measurement: a throw's outcomes reach many of the same positions (in
 * Lions & Jackals five to ten moves for each distinct position), each
 * valued once. A slot is in use when its stamp is the current one, so a
 * new measurement starts by moving the stamp on. */
typedef struct memo {
    kemet_pos *pos;
    double *val;
    uint32_t *stamp;
    uint32_t mask, used, now;
} memo;

static void memo_free(memo *m) {
    free(m->pos);
    free(m->val);
    free(m->stamp);
    *m = (memo){0};
}

/* Room for 2^bits positions, or false (m left as it was). */
static bool memo_alloc(memo *m, int bits) {
    size_t n = (size_t)1 << bits;
    memo x = {malloc(n * sizeof *x.pos),
              malloc(n * sizeof *x.val),
              calloc(n, sizeof *x.stamp),
              (uint32_t)(n - 1),
              0,
              1};
    if (!x.pos || !x.val || !x.stamp) {
        memo_free(&x);
        return false;
    }
    *m = x;
    return true;
}

/* A new measurement: nothing remembered. */
static void memo_start(memo *m) {
    m->used = 0;
    if (m->stamp && ++m->now == 0) { /* the stamps wrapped: clear them */
        memset(m->stamp, 0, ((size_t)m->mask + 1) * sizeof *m->stamp);
        m->now = 1;
    }
}

/* The slot of `p`: where it is, or the empty slot where it would go. */
static uint32_t memo_slot(const memo *m, const kemet_pos *p) {
    uint32_t i = (uint32_t)kmt_pos_key(p) & m->mask;
    while (m->stamp[i] == m->now && memcmp(&m->pos[i], p, sizeof *p) != 0)
        i = (i + 1) & m->mask;
    return i;
}

/* Twice the room, the remembered positions moved over; false when the
 * memory is not there (the memo then stays as it is, full). */
static bool memo_grow(memo *m) {
    memo x;
    int bits = 1;
    while (((size_t)1 << bits) <= (size_t)m->mask + 1)
        bits++;
    if (bits > 26 || !memo_alloc(&x, bits))
        return false;
    for (uint32_t i = 0; i <= m->mask; i++)
        if (m->stamp[i] == m->now) {
            uint32_t j = memo_slot(&x, &m->pos[i]);
            x.pos[j] = m->pos[i];
            x.val[j] = m->val[i];
            x.stamp[j] = x.now;
            x.used++;
        }
    memo_free(m);
    *m = x;
    return true;
}

/* The room a luck measurement works in. */
typedef struct room {
    kemet_move *moves; /* KEMET_MAX_MOVES */
    kemet_pos *next;   /* KEMET_MAX_MOVES: the positions they lead to */
    uint64_t *key;     /* KEMET_MAX_THROWS: each outcome's usable values */
    double *val;       /* KEMET_MAX_THROWS: each outcome's best */
    memo seen;
} room;

static void room_free(room *x) {
    free(x->moves);
    free(x->next);
    free(x->key);
    free(x->val);
    memo_free(&x->seen);
    *x = (room){0};
}

static bool room_alloc(room *x) {
    *x = (room){malloc(KEMET_MAX_MOVES * sizeof *x->moves),
                malloc(KEMET_MAX_MOVES * sizeof *x->next),
                malloc(KEMET_MAX_THROWS * sizeof *x->key),
                malloc(KEMET_MAX_THROWS * sizeof *x->val),
                {0}};
    if (x->moves && x->next && x->key && x->val && memo_alloc(&x->seen, 8))
        return true;
    room_free(x);
    return false;
}

typedef struct scratch {
    room L;
    kemet_throw thr[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS];
} scratch;

/* Player 1's value of a position at the end of a game or of a rollout:
 * exact once the game is over (the judge gives the result then) or
 * where a table covers it. */
static double settled(const kemet_judge *j, const kemet_pos *pos, bool *exact) {
    *exact = pos->result != KEMET_PLAYING;
    return kmt_judge_chance1(j, pos, exact);
}

/* settled(), remembered in m where it has room (m may be NULL). */
static double valued(const kemet_judge *j, memo *m, const kemet_pos *p) {
    bool exact;
    if (!m || !m->stamp)
        return settled(j, p, &exact);
    uint32_t i = memo_slot(m, p);
    if (m->stamp[i] == m->now)
        return m->val[i];
    double v = settled(j, p, &exact);
    if (2 * (m->used + 1) > m->mask + 1) {
        if (!memo_grow(m))
            return v;
        i = memo_slot(m, p);
    }
    m->pos[i] = *p;
    m->val[i] = v;
    m->stamp[i] = m->now;
    m->used++;
    return v;
}

/* The mover's best value, player 1's view, for throw t in `pos`, one move
 * ahead; a negative number (an error code) when `t` has no moves there. */
static double best_after(const kemet_judge *j, const kemet_pos *pos,
                         const kemet_throw *t, room *x) {
    const kemet_rules *r = j->rules;
    kemet_pos *next = x->next;
    int n = kmt_afters(r, pos, t, x->moves, next, false);
    if (n < 1)
        return n < 0 ? n : kmt_judge_chance1(j, pos, NULL);
    double best = pos->to == 1 ? -1 : 2;
    for (int i = 0; i < n; i++) {
        double v = valued(j, &x->seen, &next[i]);
        if (pos->to == 1 ? v > best : v < best)
            best = v;
    }
    return best;
}

/* The values of throw t that the player to move may use, sorted, packed
 * one a byte below their count: two outcomes with the same key allow the
 * same moves (a dual stick's value for the other player moves nothing). */
static uint64_t usable_key(const kemet_throw *t, int to) {
    uint8_t v[KEMET_MAX_VALUES];
    int n = 0;
    for (int i = 0; i < t->n && i < KEMET_MAX_VALUES; i++)
        if (t->only[i] == 0 || t->only[i] == to) {
            int j = n++;
            for (; j > 0 && v[j - 1] > t->v[i]; j--)
                v[j] = v[j - 1];
            v[j] = t->v[i];
        }
    uint64_t k = (uint64_t)n;
    for (int i = 0; i < n && i < 7; i++)
        k |= (uint64_t)v[i] << (8 * (i + 1));
    return n < 8 ? k : 0; /* 0: too many values to pack; never shared */
}

/* How much better outcome `got` of the nt outcomes thr[] of `pos` is than
 * their weighted mean, each valued by best_after (got -1: the outcome's
 * value is `best`, given). */
static double luck_of(const kemet_judge *j, const kemet_pos *pos,
                      const kemet_throw *thr, const kemet_weight *w, int nt,
                      kemet_weight total, int got, double best, room *x) {
    uint64_t *key = x->key;
    double *val = x->val, mean = 0;
    for (int i = 0; i < nt; i++) {
        key[i] = usable_key(&thr[i], pos->to);
        int k = 0;
        while (k < i && (key[k] != key[i] || !key[i]))
            k++;
        double b = val[i] = k < i ? val[k] : best_after(j, pos, &thr[i], x);
        mean += b * (double)w[i];
        if (i == got)
            best = b;
    }
    return best - mean / (double)total;
}

int kemet_throw_luck(const kemet_judge *judge, const kemet_pos *pos,
                     const kemet_throw *thr, double *luck, kemet_error *err) {
    if (!judge || !pos || !thr || !luck || !kmt_pos_usable(judge->rules, pos))
        return kmt_fail(err, KEMET_EMISUSE, "bad luck arguments");
    const kemet_rules *rules = judge->rules;
    if (pos->result != KEMET_PLAYING)
        return kmt_fail(err, KEMET_EOVER, "the game is over");
    kemet_throw *all = malloc(KEMET_MAX_THROWS * sizeof *all);
    kemet_weight *w = malloc(KEMET_MAX_THROWS * sizeof *w), total;
    room x;
    bool roomy = room_alloc(&x);
    int rc = KEMET_OK;
    if (!roomy || !all || !w) {
        rc = kmt_fail(err, KEMET_ENOMEM, "out of memory");
    } else {
        double got = best_after(judge, pos, thr, &x);
        if (got < 0) {
            rc = kmt_fail(err, (int)got, "%s",
                          (int)got == KEMET_ETHROW
                              ? "not a throw of this position"
                              : "not a usable position");
        } else {
            int nt = kemet_throws(rules, pos, all, w, &total);
            *luck = luck_of(judge, pos, all, w, nt, total, -1, got, &x);
        }
    }
    if (roomy)
        room_free(&x);
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
            int k = kemet_prethrow(r, &p, S->L.moves);
            if (k > 0) {
                int i = kemet_agent_choose(ag, &p, NULL, S->L.moves, k);
                if (i >= 0 && i < k) {
                    kemet_make(r, &p, NULL, &S->L.moves[i], &p, NULL);
                    continue;
                }
            }
        }
        forced = false;
        kemet_weight total;
        int nt = kemet_throws(r, &p, S->thr, S->w, &total);
        kemet_weight x = kmt_rng_below64(dice, total);
        int t = 0;
        while (t < nt - 1 && x >= S->w[t])
            x -= S->w[t++];
        if (!R->o->plain && nt > 1) {
            memo_start(&S->L.seen);
            luck += luck_of(R->j, &p, S->thr, S->w, nt, total, t, 0, &S->L);
        }
        int n = kemet_moves(r, &p, &S->thr[t], S->L.moves);
        if (n < 1)
            return v - luck; /* more moves than the list holds: never seen */
        int i =
            n == 1 ? 0 : kemet_agent_choose(ag, &p, &S->thr[t], S->L.moves, n);
        kemet_make(r, &p, &S->thr[t], &S->L.moves[i], &p, NULL);
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
    bool roomy = S && room_alloc(&S->L);
    if (!roomy ||
        kemet_agent_new_judged(R->j, R->agent, game_seed(R->o->seed, -2 - s),
                               &ag, &err)) {
        atomic_store(&R->failed, 1);
        if (roomy)
            room_free(&S->L);
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
    room_free(&S->L);
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
