/* games.c - playing many games for the commands that need them (sim,
 * match, tune, analyze), on every core and under mpirun, with results
 * that do not depend on how many threads or ranks there are.
 *
 * The games themselves are the library's (kemet_play_seeded,
 * kemet_match_game: a game takes everything from its seed); here they are
 * dealt over threads and ranks, each game's result stored at its index
 * and only then summed, in game order.
 */
#include "cli.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double cli_thread_time(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------------
 * Random play for the search benchmark: every choice drawn from the
 * caller's generator, which runs on from game to game.
 * --------------------------------------------------------------------- */
typedef struct random_seats {
    kemet_rng *pick;
    kemet_ply_fn fn;
    void *ctx;
} random_seats;

/* kemet_game_step_with's chooser: before a throw `fn` hears of it and a
 * pre-throw move is drawn against throwing; after it a move is drawn where
 * there is a choice, and `fn` hears of the moves. */
static int random_choose(void *ctx, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *moves,
                         int n) {
    const random_seats *S = ctx;
    if (!thr) {
        if (S->fn)
            S->fn(S->ctx, pos, NULL, NULL, 0);
        if (n == 0)
            return -1;
        int k = (int)kemet_rng_below(S->pick, (uint32_t)n + 1) - 1;
        return k < n ? k : -1;
    }
    int k = n == 1 ? 0 : (int)kemet_rng_below(S->pick, (uint32_t)n);
    if (S->fn)
        S->fn(S->ctx, pos, thr, moves, n);
    return k;
}

int cli_play_random(const kemet_rules *r, uint64_t seed, kemet_rng *pick,
                    long cap, kemet_ply_fn fn, void *ctx, kemet_game **out) {
    kemet_game *g;
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    if (!moves || kemet_game_new(r, seed, &g, NULL)) {
        free(moves);
        return KEMET_ENOMEM;
    }
    random_seats S = {pick, fn, ctx};
    /* Stop before a new turn would begin beyond the cap (ruling G5). */
    int mover = 0;
    while (kemet_game_next(g) != KEMET_NEXT_OVER) {
        const kemet_pos *pos = kemet_game_pos(g);
        if (kemet_game_turns(g) >= cap && pos->to != mover)
            break;
        mover = pos->to;
        int rc = kemet_game_step_with(g, random_choose, &S, moves, NULL);
        if (rc) {
            kemet_game_free(g);
            free(moves);
            return rc;
        }
    }
    free(moves);
    *out = g;
    return KEMET_OK;
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
    kemet_error err;
    if (kemet_player_check(r, spec, &err))
        return option ? cli_fail("%s: %s", option, err.msg)
                      : cli_fail("%s", err.msg);
    return 0;
}

/* Whether the seat `spec` judges positions with the judge's endgame
 * tables and race database: every agent does but random (it draws),
 * one judging @plain (by the linear evaluation alone), and the probes
 * rearmost and foremost (they count squares). */
static bool uses_tables(const char *spec) {
    const char *at = strchr(spec, '@');
    size_t n = strcspn(spec, ":~@");
    return !(n == 6 && strncmp(spec, "random", 6) == 0) &&
           !(at && strcmp(at, "@plain") == 0) &&
           strcmp(spec, "rearmost") != 0 && strcmp(spec, "foremost") != 0;
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

typedef struct run {
    const kemet_judge *j;
    const char *const *spec;
    int how; /* KEMET_MATCH_ALTERNATE, _PAIRED, _LUCK */
    uint64_t seed;
    long first, cap;
    long offset, stride; /* this rank's games: offset + k * stride */
    kemet_outcome *out;
} run;

static int run_one(void *ctx, long k) {
    run *R = ctx;
    return kemet_match_game(R->j, R->spec, R->how, R->seed,
                            R->first + R->offset + k * R->stride, R->cap, 1,
                            &R->out[k]);
}

int cli_run_games(const kemet_judge *j, const char *const spec[2], int how,
                  uint64_t seed, long first, long count, long cap, int threads,
                  kemet_outcome *out, const char *what) {
    int size = cli_mpi_size(), rank = cli_mpi_rank();
    if (size == 1) {
        run R = {j, spec, how, seed, first, cap, 0, 1, out};
        return cli_parallel(count, threads, run_one, &R, what);
    }
    /* several ranks: this one plays games rank, rank + size, ... and then
       every rank has every outcome */
    long mine = cli_mpi_share(count);
    kemet_outcome *part = malloc((size_t)(mine ? mine : 1) * sizeof *part);
    run R = {j, spec, how, seed, first, cap, rank, size, part};
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
