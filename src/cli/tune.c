/* tune.c - `kemet tune`: the evaluation weights, fitted to self-play.
 *
 * Each round plays N games of `greedy` against itself with the weights of
 * the round before (the first round starts from the ruleset module's
 * starting weights), records the features of every position before a
 * throw and who won the game, and fits the weights by logistic regression
 * (Newton's method on the log-loss with a small ridge): the evaluation
 * then says how likely a side is to win, not only which position is
 * better. Output is a weights file (data/eval.weights is this command's
 * output). Deterministic: the same options give the same file, whatever
 * the thread count.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char tune_usage[] =
    "usage: kemet tune [RULESET...] [--games N] [--rounds R] [--seed S]\n"
    "                  [--threads T] [--rules FILE]\n"
    "Fits each ruleset's evaluation weights (every ruleset when none is\n"
    "named) to the outcomes of self-play games of greedy against greedy:\n"
    "R rounds (default 3) of N games (default 2000), each round playing with\n"
    "the weights the round before found. Prints a weights file on standard\n"
    "output: 'kemet tune > data/eval.weights' remakes the library's "
    "own.\n" RULES_HELP;

/* The positions of one game: n rows of features, and the game's result. */
typedef struct game_samples {
    const kemet_rules *r;
    float *f;
    long n, cap;
    int result;
    bool failed;
} game_samples;

typedef struct tune_job {
    const kemet_judge *j;
    uint64_t seed;
    game_samples *games;
    long offset, stride; /* this rank's games: offset + k * stride */
} tune_job;

static void collect(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                    const kemet_move *moves, int n) {
    (void)moves;
    (void)n;
    game_samples *G = ctx;
    if (thr || G->failed)
        return;
    if (kc_grow(&G->f, &G->cap, G->n, KEMET_MAX_FEATURES * sizeof *G->f)) {
        G->failed = true;
        return;
    }
    double x[KEMET_MAX_FEATURES];
    int nf = kemet_eval_features(G->r, pos, x);
    for (int i = 0; i < nf; i++)
        G->f[G->n * KEMET_MAX_FEATURES + i] = (float)x[i];
    G->n++;
}

static int tune_game(void *ctx, long k) {
    tune_job *J = ctx;
    long i = J->offset + k * J->stride;
    game_samples *G = &J->games[i];
    static const char *const greedy[2] = {"greedy", "greedy"};
    kemet_game *g = NULL;
    G->r = kemet_judge_rules(J->j);
    int rc =
        kemet_play_seeded(J->j, greedy, kemet_run_seed(J->seed, (uint64_t)i),
                          1000, collect, G, NULL, &g, NULL);
    if (rc)
        return rc;
    G->result = kemet_result(kemet_game_pos(g));
    kemet_game_free(g);
    return G->failed ? KEMET_ENOMEM : KEMET_OK;
}

/* Solves A x = b (n x n, A symmetric positive definite) in place. */
static void solve(double A[][KEMET_MAX_FEATURES], double *b, int n) {
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r][c]) > fabs(A[piv][c]))
                piv = r;
        for (int k = 0; k < n; k++) {
            double t = A[c][k];
            A[c][k] = A[piv][k];
            A[piv][k] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (int r = c + 1; r < n; r++) {
            double m = A[r][c] / A[c][c];
            for (int k = c; k < n; k++)
                A[r][k] -= m * A[c][k];
            b[r] -= m * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        for (int k = c + 1; k < n; k++)
            b[c] -= A[c][k] * b[k];
        b[c] /= A[c][c];
    }
}

#define RIDGE 1.0

/* The mean log-loss of w over the games' samples (plus the ridge); with
 * g and H non-NULL also its gradient and Hessian (sums, not means). */
static double loss_of(const game_samples *games, long ngames, int nf,
                      const double *w, double *g,
                      double H[][KEMET_MAX_FEATURES], long *count) {
    double loss = 0;
    long m = 0;
    for (long gi = 0; gi < ngames; gi++) {
        const game_samples *G = &games[gi];
        if (G->result == KEMET_PLAYING)
            continue; /* stopped: no outcome to learn from */
        double y = G->result == KEMET_WON1   ? 1
                   : G->result == KEMET_WON2 ? 0
                                             : 0.5;
        for (long s = 0; s < G->n; s++) {
            const float *f = &G->f[s * KEMET_MAX_FEATURES];
            double z = 0;
            for (int i = 0; i < nf; i++)
                z += w[i] * f[i];
            /* log(1 + e^z) without overflow */
            double soft = z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
            loss += soft - y * z;
            m++;
            if (!g)
                continue;
            double p = 1 / (1 + exp(-z));
            double d = p - y, h = p * (1 - p);
            for (int i = 0; i < nf; i++) {
                g[i] += d * f[i];
                for (int k = 0; k <= i; k++)
                    H[i][k] += h * f[i] * f[k];
            }
        }
    }
    for (int i = 0; i < nf; i++)
        loss += 0.5 * RIDGE * w[i] * w[i];
    *count = m;
    return m ? loss / (double)m : 0;
}

/* Fits w (starting from zero) to the games' samples by Newton's method with
 * a backtracking line search; returns the mean log-loss, and the number of
 * samples in *count. */
static double fit(const game_samples *games, long ngames, int nf, double *w,
                  long *count) {
    for (int i = 0; i < nf; i++)
        w[i] = 0;
    double loss = loss_of(games, ngames, nf, w, NULL, NULL, count);
    for (int it = 0; it < 50 && *count > 0; it++) {
        double H[KEMET_MAX_FEATURES][KEMET_MAX_FEATURES] = {{0}};
        double g[KEMET_MAX_FEATURES] = {0};
        loss_of(games, ngames, nf, w, g, H, count);
        for (int i = 0; i < nf; i++) {
            for (int k = i + 1; k < nf; k++)
                H[i][k] = H[k][i];
            H[i][i] += RIDGE;
            g[i] += RIDGE * w[i];
        }
        solve(H, g, nf); /* g is now the Newton step */
        double t = 1, trial[KEMET_MAX_FEATURES], next = loss;
        for (int half = 0; half < 30; half++, t /= 2) {
            for (int i = 0; i < nf; i++)
                trial[i] = w[i] - t * g[i];
            next = loss_of(games, ngames, nf, trial, NULL, NULL, count);
            if (next <= loss)
                break;
        }
        if (!(next <= loss))
            break;
        for (int i = 0; i < nf; i++)
            w[i] = trial[i];
        bool done = loss - next < 1e-10;
        loss = next;
        if (done)
            break;
    }
    return loss;
}

/* Under mpirun: every rank's games (result and samples) to every rank, in
 * game order; the samples of games made elsewhere are copied in. */
static int share_games(game_samples *G, long games, int rc) {
    int rank = cli_mpi_rank(), size = cli_mpi_size();
    long mine = cli_mpi_share(games);
    typedef struct head {
        long n;
        int result;
    } head;
    head *part = malloc((size_t)(mine ? mine : 1) * sizeof *part);
    head *all = malloc((size_t)games * sizeof *all);
    long nmine = 0, total = 0;
    for (long k = 0; part && k < mine; k++) {
        const game_samples *x = &G[rank + k * size];
        part[k] = (head){x->n, x->result};
        nmine += x->n * KEMET_MAX_FEATURES;
    }
    rc = cli_mpi_deal(games, sizeof *all, part, all,
                      part && all ? rc : KEMET_ENOMEM);
    for (long i = 0; !rc && i < games; i++)
        total += all[i].n * KEMET_MAX_FEATURES;
    float *mf = rc ? NULL : malloc((size_t)(nmine ? nmine : 1) * sizeof *mf);
    float *f = rc ? NULL : malloc((size_t)(total ? total : 1) * sizeof *f);
    if (!rc && (!mf || !f))
        rc = KEMET_ENOMEM;
    if (!rc) {
        long at = 0;
        for (long k = 0; k < mine; k++) {
            const game_samples *x = &G[rank + k * size];
            memcpy(mf + at, x->f,
                   (size_t)(x->n * KEMET_MAX_FEATURES) * sizeof *mf);
            at += x->n * KEMET_MAX_FEATURES;
        }
        rc = cli_mpi_join(mf, nmine, sizeof *mf, f, total);
    }
    for (long at = 0, r = 0; !rc && r < size; r++)
        for (long i = r; i < games && !rc; i += size) {
            size_t bytes = (size_t)(all[i].n * KEMET_MAX_FEATURES) * sizeof *f;
            if (i % size != rank) {
                free(G[i].f);
                G[i].f = malloc(bytes ? bytes : 1);
                if (!G[i].f)
                    rc = KEMET_ENOMEM;
                else
                    memcpy(G[i].f, f + at, bytes);
                G[i].n = all[i].n;
                G[i].result = all[i].result;
            }
            at += all[i].n * KEMET_MAX_FEATURES;
        }
    free(part);
    free(all);
    free(mf);
    free(f);
    return rc;
}

static int tune_one(const char *id, long games, long rounds, uint64_t seed,
                    int threads) {
    kemet_rules *r = cli_rules(id, NULL);
    if (!r)
        return EXIT_BAD;
    kemet_judge *j;
    kemet_error err;
    if (kemet_judge_new(r, NULL, &j, &err)) {
        kemet_judge_free(j);
        kemet_rules_close(r);
        return cli_fail("tune: %s", err.msg);
    }
    /* Start from the module's own weights, not the carried ones, so the
     * file this makes does not depend on the file before it. */
    kemet_eval_reset(j);
    id = kemet_rules_info(r)->id;
    double w[KEMET_MAX_FEATURES];
    int nf = kemet_eval_weights(j, w);
    game_samples *G = calloc((size_t)games, sizeof *G);
    if (!G) {
        kemet_judge_free(j);
        kemet_rules_close(r);
        return cli_fail("tune: out of memory");
    }
    printf("# %s:", id);
    for (long round = 0; round < rounds; round++) {
        for (long i = 0; i < games; i++) {
            free(G[i].f);
            G[i] = (game_samples){0};
        }
        /* under mpirun each rank plays games rank, rank + size, ... */
        int rank = cli_mpi_rank(), size = cli_mpi_size();
        long mine = cli_mpi_share(games);
        tune_job J = {j, kc_mix64(seed + (uint64_t)round), G, rank, size};
        int failed =
            cli_parallel_dealt(mine, games, threads, tune_game, &J, id);
        if (size > 1)
            failed = share_games(G, games, failed);
        if (failed) {
            for (long i = 0; i < games; i++)
                free(G[i].f);
            free(G);
            kemet_judge_free(j);
            kemet_rules_close(r);
            return cli_fail("tune: out of memory");
        }
        long count;
        double loss = fit(G, games, nf, w, &count);
        kemet_eval_set_weights(j, w, nf);
        printf(" round %ld %ld positions log-loss %.4f;", round + 1, count,
               loss);
    }
    printf("\n%s", id);
    for (int i = 0; i < nf; i++)
        printf(" %s=%.6g", kemet_eval_feature(r, i), w[i]);
    putchar('\n');
    fflush(stdout);
    for (long i = 0; i < games; i++)
        free(G[i].f);
    free(G);
    kemet_judge_free(j);
    kemet_rules_close(r);
    return 0;
}

int cmd_tune(int argc, char **argv) {
    long games = 2000, rounds = 3, nthreads = 0;
    uint64_t seed = 1;
    const char *arg[64];
    int npos;
    cli_opt opts[] = {{"games", OPT_LONG, &games, 10, 1000000},
                      {"rounds", OPT_LONG, &rounds, 1, 100},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"threads", OPT_LONG, &nthreads, 1, 256},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int rc = cli_parse(argc, argv, opts, arg, 0, 64, &npos, tune_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    for (int i = 0; i < npos; i++) {
        kemet_rules *r = cli_rules(arg[i], NULL);
        if (!r)
            return EXIT_BAD;
        kemet_rules_close(r);
    }
    printf("kemet-weights 1\n"
           "# Evaluation weights per ruleset (docs/strength.md), made by:\n"
           "#   kemet tune --games %ld --rounds %ld --seed %llu\n",
           games, rounds, (unsigned long long)seed);
    int threads = cli_threads(nthreads);
    int n = npos ? npos : kemet_ruleset_count();
    for (int i = 0; i < n; i++) {
        rc = tune_one(npos ? arg[i] : kemet_ruleset_id(i), games, rounds, seed,
                      threads);
        if (rc)
            return rc;
    }
    return 0;
}
