/* match.c - games between named players, for whatever plays many of them
 * (kemet sim, match, tune, ladder, analyze, and the studies of study.c):
 * a game seeded from one number, the simple strategies beside the agents,
 * the games of a match and what they say.
 *
 * A game seeded `gs` takes everything from gs alone: its dice, its
 * agents' generators (gs + 1 and gs + 2, mixed) and the random picks of
 * the simple strategies, so that a game played on any thread, in any
 * order, on any machine is the same game. Game i of a match seeded S is
 * seeded kemet_run_seed(S, i) (paired games: i rounded down to even, so
 * each pair throws alike); its outcome depends on (S, i) alone, and a
 * match's figures are taken over the outcomes in game order.
 *
 * The simple strategies (the degeneracy probes of docs/analysis.md) are
 * players that are not agents of the library's list: they choose by a
 * fixed habit, or at random among the moves that are not blunders, and
 * draw from the game's own stream of picks, not from a generator of their
 * own.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t kemet_run_seed(uint64_t s, uint64_t i) {
    return kmt_mix64(kmt_mix64(s) ^ i);
}

double kemet_elo(double score) {
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

/* The processor time this thread has used, in seconds (0 where the clock
 * cannot be read). Read only where the caller asks for the agents' time. */
static double thread_time(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether agent a decides faster than the clock is read (random,
 * greedy): it is then timed at one decision in KEMET_TIME_EVERY. */
static bool quick_agent(const kemet_agent *a) {
    const char *spec = a ? kemet_agent_spec(a) : "";
    return strncmp(spec, "random", 6) == 0 || strncmp(spec, "greedy", 6) == 0;
}

/* Agent a's choice among n moves, timed into `think` for its seat: every
 * decision, or one in KEMET_TIME_EVERY for a quick agent. */
static int timed_choose(kemet_agent *a, bool quick, int seat,
                        const kemet_pos *pos, const kemet_throw *thr,
                        const kemet_move *moves, int n, kemet_think *think) {
    if (!think || (quick && think->moves[seat]++ % KEMET_TIME_EVERY != 0))
        return kemet_agent_choose(a, pos, thr, moves, n);
    double t0 = thread_time();
    int k = kemet_agent_choose(a, pos, thr, moves, n);
    think->secs[seat] += thread_time() - t0;
    think->moves[seat] += !quick;
    think->timed[seat]++;
    return k;
}

/* ------------------------------------------------------------------------
 * The simple strategies
 *   rearmost     moves the piece furthest back (a piece in hand first)
 *   foremost     moves the piece furthest ahead
 *   safe-random  a random move among those that lose at most a tenth of
 *                a win chance against the best, one move ahead (the
 *                evaluation's judgement): random play that avoids blunders
 * Before a throw each of them throws.
 * --------------------------------------------------------------------- */
enum { PROBE_NONE, PROBE_REAR, PROBE_FRONT, PROBE_SAFE };

static int probe_of(const char *spec) {
    if (!spec)
        return PROBE_NONE;
    if (strcmp(spec, "rearmost") == 0)
        return PROBE_REAR;
    if (strcmp(spec, "foremost") == 0)
        return PROBE_FRONT;
    if (strcmp(spec, "safe-random") == 0)
        return PROBE_SAFE;
    return PROBE_NONE;
}

/* The square a move leaves first (a piece in hand: 0, the rearmost). */
static int first_from(const kemet_move *m) {
    return m->n ? m->step[0].from : 0;
}

static int probe_choose(const kemet_judge *ev, int kind, kemet_rng *pick,
                        const kemet_pos *pos, const kemet_throw *thr,
                        const kemet_move *moves, int n) {
    if (!thr)
        return -1;
    int k = 0;
    if (kind == PROBE_REAR || kind == PROBE_FRONT) {
        for (int i = 1; i < n; i++) {
            int a = first_from(&moves[i]), b = first_from(&moves[k]);
            if (kind == PROBE_REAR ? a < b : a > b)
                k = i;
        }
        return k;
    }
    double best = -1, c[KEMET_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        kemet_pos next;
        kemet_make(kemet_judge_rules(ev), pos, thr, &moves[i], &next, NULL);
        c[i] = kemet_win_chance(ev, &next, pos->to);
        best = c[i] > best ? c[i] : best;
    }
    int ok = 0;
    for (int i = 0; i < n; i++)
        ok += c[i] >= best - 0.1;
    int want = (int)kemet_rng_below(pick, (uint32_t)ok);
    for (int i = 0; i < n; i++)
        if (c[i] >= best - 0.1 && want-- == 0)
            return i;
    return 0;
}

/* Seat s's choice: its agent's, or its strategy's. */
static int seat_choose(const kemet_judge *ev, kemet_agent *ag, bool quick,
                       int probe, kemet_rng *pick, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *moves, int n,
                       kemet_think *think) {
    if (ag)
        return timed_choose(ag, quick, pos->to - 1, pos, thr, moves, n, think);
    return probe_choose(ev, probe, pick, pos, thr, moves, n);
}

/* The seats and what watches the game: kemet_game_step_with's chooser. */
typedef struct seats {
    const kemet_judge *ev;
    kemet_agent **a;
    bool quick[2];
    const int *probe;
    kemet_rng *pick;
    kemet_ply_fn fn;
    void *ctx;
    kemet_think *think;
} seats;

/* Before a throw `fn` hears of it, then the seat chooses among the
 * pre-throw moves (if any); after it the seat chooses where there is a
 * choice, and `fn` hears of the moves. */
static int seats_choose(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                        const kemet_move *moves, int n) {
    const seats *S = ctx;
    int p = pos->to - 1;
    if (!thr) {
        if (S->fn)
            S->fn(S->ctx, pos, NULL, NULL, 0);
        if (n == 0)
            return -1;
        int k = seat_choose(S->ev, S->a[p], S->quick[p], S->probe[p], S->pick,
                            pos, NULL, moves, n, S->think);
        return k < n ? k : -1;
    }
    int k = n == 1 ? 0
                   : seat_choose(S->ev, S->a[p], S->quick[p], S->probe[p],
                                 S->pick, pos, thr, moves, n, S->think);
    if (S->fn)
        S->fn(S->ctx, pos, thr, moves, n);
    return k;
}

/* Plays a game of `r` by the library's throw-and-choose loop; a seat
 * without an agent plays its strategy, which judges by `ev` (the
 * evaluation alone). Stops before a new turn would begin beyond `cap`
 * (ruling G5). */
static int play_game(const kemet_rules *r, const kemet_judge *ev, uint64_t seed,
                     kemet_agent *a[2], const int probe[2], kemet_rng *pick,
                     long cap, kemet_ply_fn fn, void *ctx, kemet_think *think,
                     kemet_game **out) {
    kemet_game *g;
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    if (!moves || kemet_game_new(r, seed, &g, NULL)) {
        free(moves);
        return KEMET_ENOMEM;
    }
    seats S = {ev,    a,    {quick_agent(a[0]), quick_agent(a[1])},
               probe, pick, fn,
               ctx,   think};
    int mover = 0;
    while (kemet_game_next(g) != KEMET_NEXT_OVER) {
        const kemet_pos *pos = kemet_game_pos(g);
        if (kemet_game_turns(g) >= cap && pos->to != mover)
            break;
        mover = pos->to;
        int rc = kemet_game_step_with(g, seats_choose, &S, moves, NULL);
        if (rc) { /* more turns than the list holds: never seen */
            kemet_game_free(g);
            free(moves);
            return rc;
        }
    }
    free(moves);
    *out = g;
    return KEMET_OK;
}

/* A judge into *out that values positions as j's evaluation does (its
 * network, else its weights) but knows no table or race database. */
static int eval_judge(const kemet_judge *j, kemet_judge **out) {
    double w[KEMET_MAX_FEATURES];
    int n = kemet_eval_weights(j, w);
    int rc = kemet_judge_new(kemet_judge_rules(j), "linear", out, NULL);
    if (rc == KEMET_OK)
        rc = kemet_judge_use_net(*out, kemet_judge_net(j));
    if (rc == KEMET_OK)
        rc = kemet_eval_set_weights(*out, w, n);
    if (rc != KEMET_OK) {
        kemet_judge_free(*out);
        *out = NULL;
    }
    return rc;
}

/* Whether every throw of `r` is one value: a move is then one step, and
 * the library's playout draws each legal move with equal chance, as the
 * random agent does (where a turn spends several values the playout
 * draws step by step instead). */
static bool one_value(const kemet_rules *r) {
    kemet_pos start;
    kemet_start(r, &start);
    kemet_throw t[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS], total;
    int n = kemet_throws(r, &start, t, w, &total);
    bool one = n > 0;
    for (int i = 0; i < n; i++)
        one &= t[i].n == 1;
    return one;
}

int kemet_player_check(const kemet_rules *rules, const char *spec,
                       kemet_error *err) {
    if (!rules || !spec)
        return kmt_fail(err, KEMET_EMISUSE,
                        "kemet_player_check: NULL "
                        "argument");
    if (probe_of(spec) != PROBE_NONE)
        return KEMET_OK;
    kemet_agent *a;
    int rc = kemet_agent_new(rules, spec, 0, &a, err);
    kemet_agent_free(a);
    return rc;
}

int kemet_play_seeded(const kemet_judge *judge, const char *const spec[2],
                      uint64_t seed, long cap, kemet_ply_fn fn, void *ctx,
                      kemet_think *think, kemet_game **out, kemet_error *err) {
    if (out)
        *out = NULL;
    if (!judge || !spec || !spec[0] || !spec[1] || !out)
        return kmt_fail(err, KEMET_EMISUSE,
                        "kemet_play_seeded: NULL "
                        "argument");
    const kemet_rules *r = kemet_judge_rules(judge);
    kemet_agent *a[2] = {NULL, NULL};
    kemet_rng pick;
    kemet_rng_seed(&pick, kmt_mix64(seed ^ 0x7069636bULL));
    if (!fn && strcmp(spec[0], "random") == 0 &&
        strcmp(spec[1], "random") == 0 && one_value(r)) {
        /* random against random, watched by nothing: the library's fast
           playout, every legal move equally likely, as the agents draw;
           no time to take (bench's rate; docs/agents.md) */
        kemet_game *g;
        int rc = kemet_game_new(r, seed, &g, NULL);
        if (rc == KEMET_OK)
            rc = kemet_game_playout(g, &pick, cap, 0);
        if (rc != KEMET_OK) {
            kemet_game_free(g);
            return kmt_fail(err, rc, "%s", kemet_strerror(rc));
        }
        *out = g;
        return KEMET_OK;
    }
    int rc = KEMET_OK, probe[2] = {probe_of(spec[0]), probe_of(spec[1])};
    for (int p = 0; p < 2 && rc == KEMET_OK; p++)
        if (!probe[p])
            rc = kemet_agent_new_judged(
                judge, spec[p], kmt_mix64(seed + (uint64_t)p + 1), &a[p], err);
    /* safe-random judges by the judge's evaluation alone (its network,
       else its linear weights), without its tables or race database */
    kemet_judge *ev = NULL;
    if (rc == KEMET_OK && (probe[0] == PROBE_SAFE || probe[1] == PROBE_SAFE) &&
        (rc = eval_judge(judge, &ev)) != KEMET_OK)
        kmt_fail(err, rc, "%s", kemet_strerror(rc));
    if (rc == KEMET_OK && (rc = play_game(r, ev, seed, a, probe, &pick, cap, fn,
                                          ctx, think, out)) != KEMET_OK)
        kmt_fail(err, rc, "%s", kemet_strerror(rc));
    kemet_judge_free(ev);
    kemet_agent_free(a[0]);
    kemet_agent_free(a[1]);
    return rc;
}

/* ------------------------------------------------------------------------
 * Matches
 * --------------------------------------------------------------------- */

int kemet_opening_black(const kemet_rules *r, uint64_t seed) {
    if (!r || !r->rs->opening)
        return 0;
    kemet_game *g;
    kemet_events ev = {0};
    if (kemet_game_new(r, seed, &g, &ev) != KEMET_OK)
        return 0;
    kemet_game_free(g);
    for (int e = 0; e < ev.n; e++)
        if (ev.ev[e].kind == KEMET_EV_FIRST1)
            return ev.ev[e].b;
    return 0;
}

/* The luck of a game's throws, summed: kemet_play_seeded's ply callback.
 * An opening throw is not counted (it was thrown to decide who starts, so
 * its chances are not the turn's: the sum stays unbiased without it);
 * values still to play (Tab's) are no throw and add no luck. */
typedef struct luck_sum {
    const kemet_judge *j;
    bool thrown; /* a turn's throw follows: the call without one came */
    double sum;
    int rc;
} luck_sum;

static void add_luck(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                     const kemet_move *moves, int n) {
    (void)moves;
    (void)n;
    luck_sum *L = ctx;
    if (!thr) {
        L->thrown = true;
        return;
    }
    double x = 0;
    if (L->thrown && L->rc == KEMET_OK)
        L->rc = kemet_throw_luck(L->j, pos, thr, &x, NULL);
    L->sum += x;
    L->thrown = false;
}

int kemet_match_game(const kemet_judge *judge, const char *const contestant[2],
                     int how, uint64_t seed, long i, long cap, int think,
                     kemet_outcome *o) {
    if (!judge || !contestant || !contestant[0] || !contestant[1] || !o ||
        i < 0)
        return KEMET_EMISUSE;
    const kemet_rules *r = kemet_judge_rules(judge);
    uint64_t gs = kemet_run_seed(
        seed, (uint64_t)(how & KEMET_MATCH_PAIRED ? i & ~1L : i));
    int swap = (how & KEMET_MATCH_ALTERNATE) && (i & 1);
    /* where the opening decides who plays black (Jequier's first 1), the
       contestant named first for this game (A in even games) is seated
       by it: player 2 when it threw the 1 */
    if (kemet_opening_black(r, 1) != 0 && kemet_opening_black(r, gs) == 1)
        swap ^= 1;
    const char *spec[2] = {contestant[swap], contestant[swap ^ 1]};
    kemet_game *g = NULL;
    *o = (kemet_outcome){0};
    luck_sum L = {judge, false, 0, KEMET_OK};
    bool luck = how & KEMET_MATCH_LUCK;
    int rc =
        kemet_play_seeded(judge, spec, gs, cap, luck ? add_luck : NULL,
                          luck ? &L : NULL, think ? &o->think : NULL, &g, NULL);
    if (rc == KEMET_OK && L.rc != KEMET_OK) {
        kemet_game_free(g);
        rc = L.rc;
    }
    if (rc == KEMET_OK) {
        const kemet_pos *end = kemet_game_pos(g);
        o->result = (int8_t)(kemet_result(end) ? kemet_result(end) : -1);
        o->swapped = (int8_t)swap;
        o->points = (int8_t)kemet_points(r, end);
        o->turns = kemet_game_turns(g);
        o->plies = kemet_game_plies(g);
        o->luck = L.sum;
        kemet_game_free(g);
    }
    return rc;
}

/* The mean of A's per-game values x[] over the games that ended, with a
 * 95% interval from the spread of the units they come in (a game, or with
 * `paired` the two games that throw alike: a ratio estimator, since a pair
 * may have one game stopped), and the Elo of each. */
static kemet_estimate estimate(const kemet_outcome *out, const double *x,
                               long games, bool paired) {
    long unit = paired ? 2 : 1, units = 0;
    double sum = 0, n = 0;
    for (long i = 0; i < games; i++)
        if (out[i].result >= 0) {
            sum += x[i];
            n++;
        }
    kemet_estimate e = {.score = n > 0 ? sum / n : 0.5};
    double sq = 0;
    for (long u = 0; u < games; u += unit) {
        double s = 0, c = 0;
        for (long i = u; i < u + unit && i < games; i++)
            if (out[i].result >= 0) {
                s += x[i];
                c++;
            }
        if (c > 0) {
            sq += (s - e.score * c) * (s - e.score * c);
            units++;
        }
    }
    double half = 0;
    if (units > 1) {
        double per = n / (double)units; /* games per unit */
        half = 1.96 * sqrt(sq / (double)(units - 1) / (double)units) / per;
    }
    e.lo = e.score - half < 0 ? 0 : e.score - half; /* a mean of 0 to 1 */
    e.hi = e.score + half > 1 ? 1 : e.score + half;
    e.elo = kemet_elo(e.score);
    e.elo_lo = kemet_elo(e.lo);
    e.elo_hi = kemet_elo(e.hi);
    return e;
}

int kemet_match_tally(const kemet_outcome *out, long games, int how,
                      kemet_match_stats *M) {
    if (!M || games < 0 || (games > 0 && !out))
        return KEMET_EMISUSE;
    double *x = calloc(2 * (size_t)(games ? games : 1), sizeof *x);
    if (!x)
        return KEMET_ENOMEM;
    double secs_run = M->secs;
    *M = (kemet_match_stats){.games = games, .how = how, .secs = secs_run};
    double secs[2] = {0, 0}, timed[2] = {0, 0};
    for (long i = 0; i < games; i++) {
        const kemet_outcome *o = &out[i];
        M->turns += (double)o->turns;
        for (int seat = 0; seat < 2; seat++) {
            secs[seat ^ o->swapped] += o->think.secs[seat];
            timed[seat ^ o->swapped] += (double)o->think.timed[seat];
        }
        /* A's result, and that minus A's luck (o->luck is player 1's) */
        x[i] = o->result == KEMET_DRAW       ? 0.5
               : o->result == 1 + o->swapped ? 1
                                             : 0;
        x[games + i] = x[i] - (o->swapped ? -o->luck : o->luck);
        if (o->result == KEMET_DRAW) {
            M->draws++;
        } else if (o->result < 0) {
            M->stopped++;
        } else {
            int seat = o->result - 1;      /* the winning seat */
            int agent = seat ^ o->swapped; /* 0: A, 1: B */
            M->wins[agent]++;
            M->seat_wins[agent][seat]++;
        }
    }
    for (int a = 0; a < 2; a++)
        M->think[a] = timed[a] > 0 ? secs[a] / timed[a] : 0;
    for (int a = 0; a < 2; a++)
        kemet_wilson((double)M->wins[a], (double)games, 1.96, &M->lo[a],
                     &M->hi[a]);
    long ended = games - M->stopped;
    double pts = (double)M->wins[0] + 0.5 * (double)M->draws;
    M->score = ended ? pts / (double)ended : 0.5;
    kemet_wilson(pts, (double)ended, 1.96, &M->score_lo, &M->score_hi);
    bool paired = how & KEMET_MATCH_PAIRED;
    if (paired) { /* the pairs are the independent draws */
        kemet_estimate e = estimate(out, x, games, true);
        M->score_lo = e.lo;
        M->score_hi = e.hi;
    }
    M->elo = kemet_elo(M->score);
    M->elo_lo = kemet_elo(M->score_lo);
    M->elo_hi = kemet_elo(M->score_hi);
    if (how & KEMET_MATCH_LUCK)
        M->adj = estimate(out, x + games, games, paired);
    free(x);
    return KEMET_OK;
}
