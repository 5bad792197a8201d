/* games.c - playing many games for the commands that need them (sim,
 * match, tune), on every core, with results that do not depend on how
 * many threads there are.
 *
 * Game i of a run seeded with S takes its dice, its agents' generators and
 * its random picks from (S, i) alone; each game's result is stored at its
 * index and only then summed, in game order.
 */
#include "cli.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t cli_game_seed(uint64_t s, uint64_t i) {
    return kc_mix64(kc_mix64(s) ^ i);
}

double cli_thread_time(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether agent a decides faster than the clock is read (random,
 * greedy): it is then timed at one decision in CLI_TIME_EVERY. */
static bool quick_agent(const kemet_agent *a) {
    const char *spec = a ? kemet_agent_spec(a) : "";
    return strncmp(spec, "random", 6) == 0 || strncmp(spec, "greedy", 6) == 0;
}

/* Agent a's choice among n moves, timed into `think` for its seat: every
 * decision, or one in CLI_TIME_EVERY for a quick agent. */
static int timed_choose(kemet_agent *a, bool quick, int seat,
                        const kemet_pos *pos, const kemet_throw *thr,
                        const kemet_move *moves, int n, cli_think *think) {
    if (!think || (quick && think->moves[seat]++ % CLI_TIME_EVERY != 0))
        return kemet_agent_choose(a, pos, thr, moves, n);
    double t0 = cli_thread_time();
    int k = kemet_agent_choose(a, pos, thr, moves, n);
    think->secs[seat] += cli_thread_time() - t0;
    think->moves[seat] += !quick;
    think->timed[seat]++;
    return k;
}

/* ------------------------------------------------------------------------
 * The simple strategies (kemet analyze's degeneracy probes; any command
 * that takes agents plays them): names beside the library's agents.
 *   rearmost   moves the piece furthest back (a piece in hand first)
 *   foremost   moves the piece furthest ahead
 *   safe-random  a random move among those that lose at most a tenth of
 *              a win chance against the best, one move ahead (the
 *              evaluation's judgement): random play that avoids blunders
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

bool cli_is_probe(const char *spec) {
    return probe_of(spec) != PROBE_NONE;
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

/* Seat s's choice: its agent's, its probe's, or a random one. */
static int seat_choose(const kemet_judge *ev, kemet_agent *ag, bool quick,
                       int probe, kemet_rng *pick, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *moves, int n,
                       cli_think *think) {
    if (ag)
        return timed_choose(ag, quick, pos->to - 1, pos, thr, moves, n, think);
    if (probe)
        return probe_choose(ev, probe, pick, pos, thr, moves, n);
    return thr ? (int)kemet_rng_below(pick, (uint32_t)n)
               : (int)kemet_rng_below(pick, (uint32_t)n + 1) - 1;
}

/* The seats and what watches the game: kemet_game_step_with's chooser. */
typedef struct seats {
    const kemet_judge *ev;
    kemet_agent **a;
    bool quick[2];
    const int *probe;
    kemet_rng *pick;
    cli_ply_fn fn;
    void *ctx;
    cli_think *think;
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
 * without an agent plays its probe, which judges by `ev` (the evaluation
 * alone), or at random. */
static int play_game(const kemet_rules *r, const kemet_judge *ev, uint64_t seed,
                     kemet_agent *a[2], const int probe[2], kemet_rng *pick,
                     long cap, cli_ply_fn fn, void *ctx, cli_think *think,
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
    /* Stop before a new turn would begin beyond the cap (ruling G5). */
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

int cli_play_game(const kemet_rules *r, uint64_t seed, kemet_agent *a[2],
                  kemet_rng *pick, long cap, cli_ply_fn fn, void *ctx,
                  cli_think *think, kemet_game **out) {
    static const int none[2] = {PROBE_NONE, PROBE_NONE};
    return play_game(r, NULL, seed, a, none, pick, cap, fn, ctx, think, out);
}

int cli_rank_rollout(const kemet_judge *j, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *moves, int n,
                     const kemet_rollout *opts, kc_ranked *out,
                     kemet_error *err) {
    size_t k = (size_t)n + 1;
    double *chance = malloc(k * sizeof *chance), *se = malloc(k * sizeof *se);
    int rc = KEMET_ENOMEM;
    if (chance && se)
        rc = kemet_rollout_run(j, pos, thr, moves, n, opts, chance, se, err);
    else if (err)
        *err = (kemet_error){KEMET_ENOMEM, "out of memory"};
    int m = 0;
    if (rc == KEMET_OK) {
        for (int i = 0; i < n; i++)
            out[m++] = (kc_ranked){chance[i], i, se[i]};
        if (!thr)
            out[m++] = (kc_ranked){chance[n], -1, se[n]};
        qsort(out, (size_t)m, sizeof *out, kc_by_chance);
    }
    free(chance);
    free(se);
    return rc == KEMET_OK ? m : rc;
}

int cli_agent_check(const kemet_rules *r, const char *spec,
                    const char *option) {
    if (cli_is_probe(spec))
        return 0;
    kemet_agent *probe;
    kemet_error err;
    if (kemet_agent_new(r, spec, 0, &probe, &err))
        return option ? cli_fail("%s: %s", option, err.msg)
                      : cli_fail("%s", err.msg);
    kemet_agent_free(probe);
    return 0;
}

/* Whether the seat `spec` judges positions with the judge's endgame
 * tables and race database: every agent does but random (it draws),
 * one judging @plain (by the linear evaluation alone), and the probes
 * rearmost and foremost (they count squares). */
static bool uses_tables(const char *spec) {
    const char *at = strchr(spec, '@');
    size_t n = strcspn(spec, ":~@");
    int probe = probe_of(spec);
    return !(n == 6 && strncmp(spec, "random", 6) == 0) &&
           !(at && strcmp(at, "@plain") == 0) && probe != PROBE_REAR &&
           probe != PROBE_FRONT;
}

/* cli_judge, with the tables (and race databases) found or made only
 * where `tables` says a player uses them. */
static kemet_judge *judge_for(const kemet_rules *r, bool tables) {
    kemet_judge *j;
    kemet_error err;
    if (kemet_judge_new(r, NULL, &j, &err)) {
        cli_fail("%s", err.msg);
        return NULL;
    }
    if (tables)
        cli_use_tables(j, cli_tables);
    if (cli_use_net(j, cli_net)) {
        kemet_judge_free(j);
        return NULL;
    }
    return j;
}

kemet_judge *cli_judge(const kemet_rules *r) {
    return judge_for(r, true);
}

kemet_rules *cli_rules_for(const char *spec, const char *board,
                           const char *const agents[2], kemet_judge **judge) {
    kemet_rules *r = cli_rules(spec, board);
    *judge = NULL;
    if (!r)
        return NULL;
    /* no table is looked for or made (nor a race database built, about a
       second each) that no player of the run uses: two random seats */
    bool tables = !agents;
    for (int p = 0; agents && p < 2; p++)
        tables |= uses_tables(agents[p]);
    if (!(*judge = judge_for(r, tables)))
        goto fail;
    for (int p = 0; agents && p < 2; p++)
        if (cli_agent_check(r, agents[p], p ? "--p2" : "--p1"))
            goto fail;
    return r;
fail:
    kemet_judge_free(*judge);
    *judge = NULL;
    kemet_rules_close(r);
    return NULL;
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

int cli_play_seeded(const kemet_judge *j, const char *const spec[2],
                    uint64_t gs, long cap, cli_ply_fn fn, void *ctx,
                    cli_think *think, kemet_game **out) {
    const kemet_rules *r = kemet_judge_rules(j);
    kemet_agent *a[2] = {NULL, NULL};
    kemet_rng pick;
    kemet_rng_seed(&pick, kc_mix64(gs ^ 0x7069636bULL));
    if (!fn && strcmp(spec[0], "random") == 0 &&
        strcmp(spec[1], "random") == 0 && one_value(r)) {
        /* random against random, watched by nothing: the library's fast
           playout, every legal move equally likely, as the agents draw;
           no time to take (bench's rate; docs/agents.md) */
        kemet_game *g;
        int rc = kemet_game_new(r, gs, &g, NULL);
        if (rc == KEMET_OK)
            rc = kemet_game_playout(g, &pick, cap, 0);
        if (rc != KEMET_OK) {
            kemet_game_free(g);
            return rc;
        }
        *out = g;
        return KEMET_OK;
    }
    int rc = KEMET_OK, probe[2] = {probe_of(spec[0]), probe_of(spec[1])};
    for (int p = 0; p < 2 && rc == KEMET_OK; p++)
        if (!probe[p])
            rc = kemet_agent_new_judged(
                j, spec[p], kc_mix64(gs + (uint64_t)p + 1), &a[p], NULL);
    /* safe-random judges by j's evaluation alone (its network, else its
       linear weights), without j's tables or race database */
    kemet_judge *ev = NULL;
    if (rc == KEMET_OK && (probe[0] == PROBE_SAFE || probe[1] == PROBE_SAFE))
        rc = eval_judge(j, &ev);
    if (rc == KEMET_OK)
        rc = play_game(r, ev, gs, a, probe, &pick, cap, fn, ctx, think, out);
    kemet_judge_free(ev);
    kemet_agent_free(a[0]);
    kemet_agent_free(a[1]);
    return rc;
}

typedef struct run {
    const kemet_judge *j;
    const char *const *spec;
    int how; /* CLI_ALTERNATE, CLI_PAIRED, CLI_LUCK */
    uint64_t seed;
    long first, cap;
    long offset, stride; /* this rank's games: offset + k * stride */
    cli_outcome *out;
    bool first1; /* the opening seats the contestants (kc_opening_black) */
} run;

void cli_add_luck(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                  const kemet_move *moves, int n) {
    (void)moves;
    (void)n;
    cli_luck_sum *L = ctx;
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

int cli_run_game(const kemet_judge *j, const char *const contestant[2], int how,
                 bool first1, uint64_t seed, long i, long cap, bool think,
                 cli_outcome *o) {
    uint64_t gs =
        cli_game_seed(seed, (uint64_t)(how & CLI_PAIRED ? i & ~1L : i));
    int swap = (how & CLI_ALTERNATE) && (i & 1);
    /* where the opening decides who plays black (Jequier's first 1), the
       contestant named first for this game (A in even games) is seated
       by it: player 2 when it threw the 1 */
    if (first1 && kc_opening_black(kemet_judge_rules(j), gs) == 1)
        swap ^= 1;
    const char *spec[2] = {contestant[swap], contestant[swap ^ 1]};
    kemet_game *g = NULL;
    *o = (cli_outcome){0};
    cli_luck_sum L = {j, false, 0, KEMET_OK};
    bool luck = how & CLI_LUCK;
    int rc = cli_play_seeded(j, spec, gs, cap, luck ? cli_add_luck : NULL,
                             luck ? &L : NULL, think ? &o->think : NULL, &g);
    if (rc == KEMET_OK && L.rc != KEMET_OK) {
        kemet_game_free(g);
        rc = L.rc;
    }
    if (rc == KEMET_OK) {
        const kemet_pos *end = kemet_game_pos(g);
        o->result = (int8_t)(kemet_result(end) ? kemet_result(end) : -1);
        o->swapped = (int8_t)swap;
        o->points = (int8_t)kemet_points(kemet_judge_rules(j), end);
        o->turns = kemet_game_turns(g);
        o->plies = kemet_game_plies(g);
        o->luck = L.sum;
        kemet_game_free(g);
    }
    return rc;
}

static int run_one(void *ctx, long k) {
    run *R = ctx;
    return cli_run_game(R->j, R->spec, R->how, R->first1, R->seed,
                        R->first + R->offset + k * R->stride, R->cap, true,
                        &R->out[k]);
}

int cli_run_games(const kemet_judge *j, const char *const spec[2], int how,
                  uint64_t seed, long first, long count, long cap, int threads,
                  cli_outcome *out, const char *what) {
    int size = cli_mpi_size(), rank = cli_mpi_rank();
    bool first1 = kc_opening_black(kemet_judge_rules(j), 1) != 0;
    if (size == 1) {
        run R = {j, spec, how, seed, first, cap, 0, 1, out, first1};
        return cli_parallel(count, threads, run_one, &R, what);
    }
    /* several ranks: this one plays games rank, rank + size, ... and then
       every rank has every outcome */
    long mine = cli_mpi_share(count);
    cli_outcome *part = malloc((size_t)(mine ? mine : 1) * sizeof *part);
    run R = {j, spec, how, seed, first, cap, rank, size, part, first1};
    int rc = part ? cli_parallel_dealt(mine, count, threads, run_one, &R, what)
                  : KEMET_ENOMEM;
    rc = cli_mpi_deal(count, sizeof *part, part, out, rc);
    free(part);
    return rc;
}

int cli_threads(long asked) {
    if (asked > 0)
        return (int)asked;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

typedef struct par {
    long n, next, done;
    cli_job_fn fn;
    void *ctx;
    pthread_mutex_t lock;
    pthread_cond_t ended; /* signalled as each worker ends */
    int running;          /* workers not yet ended */
    int failed;
} par;

static void *worker(void *arg) {
    par *P = arg;
    for (;;) {
        pthread_mutex_lock(&P->lock);
        long i = P->failed ? P->n : P->next++;
        if (i >= P->n) {
            P->running--;
            pthread_cond_broadcast(&P->ended);
            pthread_mutex_unlock(&P->lock);
            return NULL;
        }
        pthread_mutex_unlock(&P->lock);
        int rc = P->fn(P->ctx, i);
        pthread_mutex_lock(&P->lock);
        P->done++;
        if (rc)
            P->failed = rc;
        pthread_mutex_unlock(&P->lock);
    }
}

/* cli_parallel, and cli_parallel_dealt when `dealt`: then every rank
 * tells its count while its threads work (mpi.c), and rank 0 shows the
 * job's. */
static int parallel(long n, long total, int threads, cli_job_fn fn, void *ctx,
                    const char *what, bool dealt) {
    par P = {.n = n, .fn = fn, .ctx = ctx};
    pthread_mutex_init(&P.lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&P.ended, &ca);
    pthread_condattr_destroy(&ca);
    if (threads > n)
        threads = n > 0 ? (int)n : 1;
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    if (!tid) {
        pthread_cond_destroy(&P.ended);
        pthread_mutex_destroy(&P.lock);
        return KEMET_ENOMEM;
    }
    /* Worker threads get room for the search's move lists on their stack. */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)16 << 20);
    int started = 0;
    P.running = threads;
    for (int t = 0; t < threads; t++)
        if (pthread_create(&tid[t], &attr, worker, &P) == 0)
            started++;
        else
            break;
    pthread_attr_destroy(&attr);
    pthread_mutex_lock(&P.lock);
    P.running -= threads - started;
    pthread_mutex_unlock(&P.lock);
    if (started == 0) {
        P.running = 1;
        worker(&P);
    }
    double t0 = cli_now(), last = t0, told = t0;
    bool tty = isatty(2), shown = false;
    bool speak = what && (!dealt || cli_mpi_rank() == 0);
    /* into a log (not a terminal): a line every 30 s, or as often as
       KEMET_PROGRESS says (seconds; docs/cluster.md) */
    double every = 30.0, quiet = 2.0; /* nothing for a job's first 2 s */
    const char *e = getenv("KEMET_PROGRESS");
    if (!tty && e && atof(e) > 0) {
        every = atof(e);
        quiet = every < quiet ? every : quiet;
    }
    if ((speak || dealt) && started > 0) {
        for (;;) {
            /* woken when the last worker ends (all jobs done, or one
               failed), so the caller's clock reads the run's real time;
               else every 0.1 s to report */
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            ts.tv_nsec += 100000000;
            if (ts.tv_nsec >= 1000000000) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000;
            }
            pthread_mutex_lock(&P.lock);
            while (P.running > 0 &&
                   pthread_cond_timedwait(&P.ended, &P.lock, &ts) == 0)
                ;
            long done = P.done;
            bool over = P.running == 0;
            pthread_mutex_unlock(&P.lock);
            if (over)
                break;
            double now = cli_now();
            if (dealt && now - told > 0.5) {
                done = cli_mpi_progress(done);
                told = now;
            } else if (dealt)
                continue;
            if (speak && now - t0 > quiet && now - last > (tty ? 0.5 : every)) {
                fprintf(stderr, "%s  %s: %ld/%ld, %.0f s%s", tty ? "\r" : "",
                        what, done, total, now - t0, tty ? "   " : "\n");
                last = now;
                shown = true;
            }
        }
    }
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    if (dealt) {
        long all = cli_mpi_progress_end(P.done);
        if (shown)
            fprintf(stderr, "%s  %s: %ld/%ld, %.0f s%s", tty ? "\r" : "", what,
                    all, total, cli_now() - t0, tty ? "   " : "\n");
    }
    if (shown && tty)
        fputc('\n', stderr);
    free(tid);
    pthread_cond_destroy(&P.ended);
    pthread_mutex_destroy(&P.lock);
    return P.failed;
}

int cli_parallel(long n, int threads, cli_job_fn fn, void *ctx,
                 const char *what) {
    return parallel(n, n, threads, fn, ctx, what, false);
}

int cli_parallel_dealt(long n, long total, int threads, cli_job_fn fn,
                       void *ctx, const char *what) {
    return parallel(n, total, threads, fn, ctx, what, true);
}
