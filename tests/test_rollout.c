/* test_rollout.c - rollouts: unbiased against values worked out by hand,
 * the luck adjustment and the thread count leave the answer alone (or
 * exactly so), truncation, bad arguments, and `kemet hint --rollout`.
 */
#include "testutil.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int roll(const char *text, const char *throw_text, kemet_rollout *o,
                double *chance, double *se, int *n) {
    kemet_pos p;
    kemet_rules *r = tu_pos(text, &p);
    kemet_throw t;
    kemet_error err;
    kemet_move moves[64];
    assert_int_equal(kemet_throw_parse(r, throw_text, &t, &err), KEMET_OK);
    *n = t.n ? kemet_moves(r, &p, &t, moves) : kemet_prethrow(r, &p, moves);
    assert_true(*n >= 0 && *n < 64);
    kemet_judge *j;
    assert_int_equal(kemet_judge_new(r, NULL, &j, &err), KEMET_OK);
    int rc = kemet_rollout_run(j, &p, t.n ? &t : NULL, moves, *n, o, chance, se,
                               &err);
    kemet_judge_free(j);
    kemet_rules_close(r);
    return rc;
}

/* Chien et Chacal, both pieces on 29 (see test_table.c): only a 1 (4 in
 * 16) leaves, so the mover wins 1 / (2 - 1/4) = 4/7 whatever the policy.
 * Before the throw there is nothing to choose but throwing. */
static void test_unbiased(void **state) {
    (void)state;
    double c[2], se[2];
    int n;
    for (int plain = 0; plain < 2; plain++) {
        kemet_rollout o = {
            .games = 20000, .threads = 2, .plain = plain, .seed = 7};
        assert_int_equal(
            roll("chien-chacal to=1 p1=29 p2=29", "none", &o, c, se, &n),
            KEMET_OK);
        assert_int_equal(n, 0);
        assert_true(se[0] < 0.01);
        assert_true(fabs(c[0] - 4.0 / 7) < 4 * se[0] + 1e-4);
    }
    /* Dogs on 28, Jackals on 29, Dogs to move: 108/161. */
    kemet_rollout o = {.games = 20000, .threads = 1, .seed = 3};
    assert_int_equal(
        roll("chien-chacal to=1 p1=28 p2=29", "none", &o, c, se, &n), KEMET_OK);
    assert_true(se[0] < 0.01);
    assert_true(fabs(c[0] - 108.0 / 161) < 4 * se[0] + 1e-4);
}

/* The same seed gives the same answer on 1 and 3 threads; another seed
 * another answer. The luck adjustment shrinks the error in Senet, where
 * the evaluation is good, and both estimates agree. */
static void test_threads_and_luck(void **state) {
    (void)state;
    const char *pos = "senet-kendall to=1 p1=14,18,22 p2=16,20,24";
    double a[8], b[8], sa[8], sb[8];
    int n;
    kemet_rollout o = {.games = 600, .threads = 1, .seed = 11};
    assert_int_equal(roll(pos, "3", &o, a, sa, &n), KEMET_OK);
    assert_int_equal(n, 3);
    o.threads = 3;
    assert_int_equal(roll(pos, "3", &o, b, sb, &n), KEMET_OK);
    assert_memory_equal(a, b, (size_t)n * sizeof *a);
    assert_memory_equal(sa, sb, (size_t)n * sizeof *sa);
    o.seed = 12;
    assert_int_equal(roll(pos, "3", &o, b, sb, &n), KEMET_OK);
    assert_true(memcmp(a, b, (size_t)n * sizeof *a) != 0);
    o.plain = 1;
    assert_int_equal(roll(pos, "3", &o, b, sb, &n), KEMET_OK);
    for (int i = 0; i < n; i++) {
        assert_true(sa[i] < sb[i]);
        assert_true(fabs(a[i] - b[i]) <
                    4 * sqrt(sa[i] * sa[i] + sb[i] * sb[i]));
    }
}

/* A rollout truncated after one ply takes the evaluation's word there: a
 * game still in play ends with a chance strictly between 0 and 1. A
 * rollout of a move that wins outright is 1 with no error. */
static void test_truncate(void **state) {
    (void)state;
    double c[4], se[4];
    int n;
    kemet_rollout o = {.games = 50, .truncate = 1, .plain = 1, .seed = 1};
    assert_int_equal(roll("senet-kendall to=1 p1=10 p2=12", "2", &o, c, se, &n),
                     KEMET_OK);
    assert_int_equal(n, 1);
    assert_true(c[0] > 0 && c[0] < 1);
    o.truncate = 0;
    assert_int_equal(roll("senet-kendall to=1 p1=30 p2=12", "5", &o, c, se, &n),
                     KEMET_OK);
    assert_int_equal(n, 1);
    assert_true(c[0] == 1 && se[0] == 0);
}

static void test_bad(void **state) {
    (void)state;
    double c[4], se[4];
    int n;
    kemet_rollout o = {.games = 0};
    assert_int_equal(roll("senet-kendall to=1 p1=10 p2=12", "2", &o, c, se, &n),
                     KEMET_EMISUSE);
    o = (kemet_rollout){.games = 5, .agent = "expectimax:zz"};
    assert_int_equal(roll("senet-kendall to=1 p1=10 p2=12", "2", &o, c, se, &n),
                     KEMET_ESYNTAX);
    o = (kemet_rollout){.games = 5, .truncate = -1};
    assert_int_equal(roll("senet-kendall to=1 p1=10 p2=12", "2", &o, c, se, &n),
                     KEMET_EMISUSE);
    kemet_pos p;
    kemet_rules *r = tu_pos("senet-kendall to=1 p1=- p2=12 winner=1", &p);
    o = (kemet_rollout){.games = 5};
    kemet_error err;
    kemet_judge *j;
    assert_int_equal(kemet_judge_new(r, NULL, &j, &err), KEMET_OK);
    assert_int_equal(kemet_rollout_run(j, &p, NULL, NULL, 0, &o, c, se, &err),
                     KEMET_EOVER);
    assert_int_equal(kemet_rollout_run(j, &p, NULL, NULL, 0, NULL, c, se, &err),
                     KEMET_EMISUSE);
    assert_int_equal(
        kemet_rollout_run(NULL, &p, NULL, NULL, 0, &o, c, se, &err),
        KEMET_EMISUSE);
    kemet_judge_free(j);
    kemet_rules_close(r);
}

static void test_command(void **state) {
    (void)state;
    char *out, *err;
    int rc =
        tu_run(NULL, &out, &err, "hint", "chien-chacal to=1 p1=29 p2=29",
               "none", "--rollout", "400", "--json", "--threads", "2", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "\"rollout\":{\"games\":400"));
    assert_non_null(strstr(out, "\"move\":\"throw\""));
    assert_non_null(strstr(out, "\"se\":0.0"));
    free(out);
    free(err);
    rc = tu_run(NULL, &out, &err, "hint", "senet-kendall to=1 p1=10 p2=12", "2",
                "--rollout", "100", "--policy", "mcts:100", "--truncate", "8",
                NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "100 games rolled out per move by mcts:100, "
                                "truncated"));
    assert_non_null(strstr(out, "10-12"));
    assert_non_null(strstr(out, "+-"));
    free(out);
    free(err);
    const char *bad[][2] = {{"--rollout", "0"},
                            {"--rollout", "x"},
                            {"--policy", "nobody"},
                            {"--truncate", "-3"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = tu_run(NULL, &out, &err, "hint", "senet-kendall to=1 p1=10 p2=12",
                    "2", "--rollout", "10", bad[i][0], bad[i][1], NULL);
        assert_int_equal(rc, 2);
        assert_string_equal(out, "");
        assert_non_null(strchr(err, '\n'));
        assert_true(strchr(err, '\n')[1] == '\0'); /* one line */
        free(out);
        free(err);
    }
}

/* kemet_throw_luck against values worked out by hand: Chien et Chacal,
 * both pieces on 29, only a 1 (4 in 16) leaves, so the mover wins 4/7
 * (test_unbiased). With the 1-piece table in use the evaluation is exact:
 * a 1 wins outright (luck 1 - 4/7 = 3/7); any other throw leaves the
 * opponent to move at 4/7 (luck 3/7 - 4/7 = -1/7). */
static void test_throw_luck(void **state) {
    (void)state;
    kemet_pos p;
    kemet_rules *r = tu_pos("chien-chacal to=1 p1=29 p2=29", &p);
    kemet_table *t;
    kemet_error err;
    assert_int_equal(kemet_table_solve(r, 1, 1, NULL, NULL, &t, &err),
                     KEMET_OK);
    kemet_judge *j;
    assert_int_equal(kemet_judge_new(r, NULL, &j, &err), KEMET_OK);
    assert_int_equal(kemet_judge_use_table(j, t), KEMET_OK);
    kemet_throw thr[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS], total;
    int nt = kemet_throws(r, &p, thr, w, &total);
    assert_true(nt > 1);
    kemet_weight ones = 0;
    for (int i = 0; i < nt; i++) {
        double luck = 9;
        assert_int_equal(kemet_throw_luck(j, &p, &thr[i], &luck, &err),
                         KEMET_OK);
        bool one = thr[i].n == 1 && thr[i].v[0] == 1;
        ones += one ? w[i] : 0;
        assert_true(fabs(luck - (one ? 3.0 / 7 : -1.0 / 7)) < 1e-4);
    }
    assert_true(ones * 4 == total);
    /* Player 2 to move: the luck is still player 1's view. */
    p.to = 2;
    for (int i = 0; i < nt; i++) {
        double luck = 9;
        assert_int_equal(kemet_throw_luck(j, &p, &thr[i], &luck, &err),
                         KEMET_OK);
        bool one = thr[i].n == 1 && thr[i].v[0] == 1;
        assert_true(fabs(luck - (one ? -3.0 / 7 : 1.0 / 7)) < 1e-4);
    }
    kemet_judge_free(j);
    kemet_table_free(t);
    kemet_rules_close(r);

    /* Whatever the evaluation, the luck's mean over the throws is zero:
     * positions of seeded random games in three rulesets. */
    static const char *const ids[] = {"senet-kendall", "dogs-jackals",
                                      "hounds-jackals-washburne-dice"};
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    assert_non_null(moves);
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        assert_int_equal(kemet_rules_open(ids[k], &r, &err), KEMET_OK);
        assert_int_equal(kemet_judge_new(r, NULL, &j, &err), KEMET_OK);
        kemet_game *g;
        assert_int_equal(kemet_game_new(r, 5 + k, &g, NULL), KEMET_OK);
        kemet_rng pick;
        kemet_rng_seed(&pick, 11);
        for (int ply = 0; ply < 60; ply++) {
            const kemet_pos *q = kemet_game_pos(g);
            if (q->result != KEMET_PLAYING)
                break;
            nt = kemet_throws(r, q, thr, w, &total);
            double mean = 0;
            for (int i = 0; i < nt; i++) {
                double luck;
                assert_int_equal(kemet_throw_luck(j, q, &thr[i], &luck, &err),
                                 KEMET_OK);
                assert_true(luck > -1 && luck < 1);
                mean += luck * (double)w[i] / (double)total;
            }
            assert_true(fabs(mean) < 1e-9);
            kemet_throw x;
            /* (values still to play, Tab's, are pending: no throw) */
            if (kemet_game_throw(g))
                x = *kemet_game_throw(g);
            else
                kemet_game_roll(g, &x);
            int n = kemet_moves(r, q, &x, moves);
            assert_true(n >= 1);
            kemet_game_make(g, &moves[kemet_rng_below(&pick, (uint32_t)n)]);
        }
        /* Bad calls: a throw the position cannot have, a finished game,
         * no output. */
        kemet_pos q = *kemet_game_pos(g);
        kemet_throw bad = {.n = 1, .v = {200}};
        double luck;
        assert_int_equal(kemet_throw_luck(j, &q, &bad, &luck, &err),
                         KEMET_ETHROW);
        assert_non_null(strstr(err.msg, "throw"));
        assert_int_equal(kemet_throw_luck(j, &q, &thr[0], NULL, &err),
                         KEMET_EMISUSE);
        q.result = KEMET_WON1;
        assert_int_equal(kemet_throw_luck(j, &q, &thr[0], &luck, &err),
                         KEMET_EOVER);
        kemet_game_free(g);
        kemet_judge_free(j);
        kemet_rules_close(r);
    }
    free(moves);
}

/* kemet_throw_luck worked out the long way, by listing and making every
 * move of every outcome and judging each position by kemet_win_chance:
 * the same number, in rulesets whose throws give several values and dual
 * sticks (outcomes that differ only in the other player's values, and
 * several orders of the same steps, reach the same positions). */
static void test_luck_the_long_way(void **state) {
    (void)state;
    static const char *const ids[] = {"lions-jackals", "lions-jackals:solid=2",
                                      "hounds-jackals-washburne-dice",
                                      "senet-robinson"};
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    kemet_throw *thr = malloc(KEMET_MAX_THROWS * sizeof *thr);
    kemet_weight *w = malloc(KEMET_MAX_THROWS * sizeof *w), total;
    assert_true(moves && thr && w);
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        kemet_rules *r;
        kemet_error err;
        assert_int_equal(kemet_rules_open(ids[k], &r, &err), KEMET_OK);
        kemet_judge *jd;
        assert_int_equal(kemet_judge_new(r, NULL, &jd, &err), KEMET_OK);
        kemet_game *g;
        assert_int_equal(kemet_game_new(r, 21 + k, &g, NULL), KEMET_OK);
        kemet_rng pick;
        kemet_rng_seed(&pick, 3);
        for (int ply = 0; ply < 24; ply++) {
            const kemet_pos *q = kemet_game_pos(g);
            if (q->result != KEMET_PLAYING)
                break;
            kemet_throw x;
            kemet_game_roll(g, &x);
            int nt = kemet_throws(r, q, thr, w, &total);
            double mean = 0, got = -1;
            for (int i = 0; i < nt; i++) {
                int n = kemet_moves(r, q, &thr[i], moves);
                assert_true(n >= 1);
                double best = q->to == 1 ? -1 : 2;
                for (int j = 0; j < n; j++) {
                    kemet_pos next;
                    kemet_make(r, q, &thr[i], &moves[j], &next, NULL);
                    double v = kemet_win_chance(jd, &next, 1);
                    best = q->to == 1 ? fmax(best, v) : fmin(best, v);
                }
                mean += best * (double)w[i];
                if (kemet_throw_equal(&thr[i], &x))
                    got = best;
            }
            assert_true(got >= 0);
            double luck = 9;
            assert_int_equal(kemet_throw_luck(jd, q, &x, &luck, &err),
                             KEMET_OK);
            assert_true(fabs(luck - (got - mean / (double)total)) < 1e-12);
            int n = kemet_moves(r, q, &x, moves);
            kemet_game_make(g, &moves[kemet_rng_below(&pick, (uint32_t)n)]);
        }
        kemet_game_free(g);
        kemet_judge_free(jd);
        kemet_rules_close(r);
    }
    free(moves);
    free(thr);
    free(w);
}

/* The luck adjustment is unbiased only if throws come as kemet_throws
 * weighs them: for every ruleset, in positions of a seeded random game,
 * 20,000 rolls against the weights by a chi-square test (outcomes expected
 * fewer than 5 times pooled; the 0.01% critical value by the
 * Wilson-Hilferty approximation). */
static void test_rolls_as_weighed(void **state) {
    (void)state;
    kemet_throw *thr = malloc(KEMET_MAX_THROWS * sizeof *thr);
    kemet_weight *w = malloc(KEMET_MAX_THROWS * sizeof *w);
    long *seen = malloc(KEMET_MAX_THROWS * sizeof *seen);
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    assert_true(thr && w && seen && moves);
    int checked = 0;
    for (int id = 0; id < kemet_ruleset_count(); id++) {
        kemet_rules *r;
        kemet_error err;
        assert_int_equal(kemet_rules_open(kemet_ruleset_id(id), &r, &err),
                         KEMET_OK);
        kemet_game *g;
        assert_int_equal(kemet_game_new(r, 77, &g, NULL), KEMET_OK);
        kemet_rng pick, rng;
        kemet_rng_seed(&pick, 5);
        kemet_rng_seed(&rng, 6);
        for (int ply = 0; ply < 40; ply++) {
            const kemet_pos *q = kemet_game_pos(g);
            if (q->result != KEMET_PLAYING)
                break;
            kemet_weight total;
            int nt = kemet_throws(r, q, thr, w, &total);
            assert_true(nt >= 1);
            if (ply % 8 == 3 && nt > 1) {
                const long N = 20000;
                memset(seen, 0, (size_t)nt * sizeof *seen);
                for (long i = 0; i < N; i++) {
                    kemet_throw x;
                    kemet_roll(r, q, &rng, &x);
                    int k = 0;
                    while (k < nt && !kemet_throw_equal(&x, &thr[k]))
                        k++;
                    assert_true(k < nt); /* a roll is among the outcomes */
                    seen[k]++;
                }
                double chi = 0, pool_e = 0, pool_o = 0;
                int bins = 0;
                for (int k = 0; k < nt; k++) {
                    double e = (double)N * (double)w[k] / (double)total;
                    if (e < 5) {
                        pool_e += e;
                        pool_o += (double)seen[k];
                        continue;
                    }
                    chi += ((double)seen[k] - e) * ((double)seen[k] - e) / e;
                    bins++;
                }
                if (pool_e > 0) {
                    chi += (pool_o - pool_e) * (pool_o - pool_e) / pool_e;
                    bins++;
                }
                double df = bins - 1, c = 2 / (9 * df);
                if (df >= 1) {
                    double crit = df * pow(1 - c + 3.719 * sqrt(c), 3);
                    if (chi >= crit)
                        fail_msg("%s: chi-square %.1f over %d bins",
                                 kemet_ruleset_id(id), chi, bins);
                    checked++;
                }
            }
            kemet_throw x;
            /* (values still to play, Tab's, are pending: no throw) */
            if (kemet_game_throw(g))
                x = *kemet_game_throw(g);
            else
                kemet_game_roll(g, &x);
            int n = kemet_moves(r, q, &x, moves);
            assert_true(n >= 1);
            kemet_game_make(g, &moves[kemet_rng_below(&pick, (uint32_t)n)]);
        }
        kemet_game_free(g);
        kemet_rules_close(r);
    }
    assert_true(checked >= 2 * kemet_ruleset_count());
    free(thr);
    free(w);
    free(seen);
    free(moves);
}

/* kemet match --paired --luck: the luck-adjusted score agrees with the
 * plain one and its interval is narrower (a luck term of the wrong sign
 * would widen it); the result is the same on 1 and 2 threads; pairing
 * changes the games. */
static void test_match_luck(void **state) {
    (void)state;
    double score[3], lo[3], hi[3], adj[3], alo[3], ahi[3];
    const char *how[3][3] = {{"--threads", "1", NULL},
                             {"--threads", "2", NULL},
                             {"--paired", "--threads", "2"}};
    for (int k = 0; k < 3; k++) {
        char *out, *err;
        int rc =
            tu_run(NULL, &out, &err, "match", "senet-kendall", "--p1", "greedy",
                   "--p2", "greedy@linear", "--games", "400", "--json",
                   "--luck", how[k][0], how[k][1], how[k][2], NULL);
        assert_int_equal(rc, 0);
        const char *q = strstr(out, "\"score\":");
        assert_non_null(q);
        assert_int_equal(sscanf(q, "\"score\":%lf,\"score_ci95\":[%lf,%lf]",
                                &score[k], &lo[k], &hi[k]),
                         3);
        q = strstr(out, "\"luck_adjusted\":");
        assert_non_null(q);
        assert_int_equal(sscanf(q,
                                "\"luck_adjusted\":{\"score\":%lf,\"ci95\":["
                                "%lf,%lf]",
                                &adj[k], &alo[k], &ahi[k]),
                         3);
        assert_true(lo[k] < score[k] && score[k] < hi[k]);
        assert_true(alo[k] < adj[k] && adj[k] < ahi[k]);
        assert_true(ahi[k] - alo[k] < 0.7 * (hi[k] - lo[k]));
        /* the two estimates of one mean agree */
        assert_true(fabs(adj[k] - score[k]) < (hi[k] - lo[k]) / 2);
        assert_non_null(
            strstr(out, k == 2 ? "\"paired\":true" : "\"paired\":false"));
        free(out);
        free(err);
    }
    assert_true(score[0] == score[1] && adj[0] == adj[1]);
    assert_true(adj[2] != adj[0]);
    /* Without --luck there is no adjusted score; text says both. */
    char *out, *err;
    int rc =
        tu_run(NULL, &out, &err, "match", "senet-kendall", "--p1", "greedy",
               "--p2", "random", "--games", "20", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "\"luck_adjusted\":null"));
    free(out);
    free(err);
    rc = tu_run(NULL, &out, &err, "match", "senet-kendall", "--p1", "greedy",
                "--p2", "random", "--games", "20", "--luck", "--paired", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "each pair of games throwing alike"));
    assert_non_null(strstr(out, "  luck-adjusted: A's score "));
    free(out);
    free(err);
    rc = tu_run(NULL, &out, &err, "match", "senet-kendall", "--p1", "greedy",
                "--p2", "random", "--games", "20", "--luck=yes", NULL);
    assert_int_equal(rc, 2);
    free(out);
    free(err);
}

/* kemet judge --rollout: the agent's chances against rollouts. */
static void test_judge(void **state) {
    (void)state;
    char *out, *err;
    int rc =
        tu_run(NULL, &out, &err, "judge", "chien-chacal", "--rollout", "50",
               "--positions", "4", "--agent", "expectimax:d1", "--json", NULL);
    assert_int_equal(rc, 0);
    double mean = -1, se = -1;
    long n = -1;
    const char *p = strstr(out, "\"positions\":");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "\"positions\":%ld", &n), 1);
    assert_true(n >= 1 && n <= 4);
    p = strstr(out, "\"mean_difference\":");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "\"mean_difference\":%lf", &mean), 1);
    p = strstr(out, "\"mean_se\":");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "\"mean_se\":%lf", &se), 1);
    assert_true(mean >= 0 && mean < 0.5 && se > 0 && se < 0.2);
    /* the bias (mean signed difference) and every position listed, each
     * within the largest difference; the mean of |differences| is theirs */
    double bias = 9, most = -1;
    p = strstr(out, "\"max_difference\":");
    assert_non_null(p);
    assert_int_equal(
        sscanf(p, "\"max_difference\":%lf,\"bias\":%lf", &most, &bias), 2);
    assert_true(fabs(bias) <= mean + 1e-4);
    long items = 0;
    double sum = 0;
    for (p = strstr(out, "{\"position\":\""); p;
         p = strstr(p + 1, "{\"position\":\"")) {
        double a, b, s;
        const char *q = strstr(p, "\",\"agent\":");
        assert_non_null(q);
        assert_int_equal(sscanf(q,
                                "\",\"agent\":%lf,\"rollout\":%lf,\"se\":%lf",
                                &a, &b, &s),
                         3);
        assert_true(a >= 0 && a <= 1 && b >= 0 && b <= 1 && s > 0);
        assert_true(fabs(a - b) <= most + 1e-4);
        sum += fabs(a - b);
        items++;
    }
    assert_int_equal(items, n);
    assert_true(fabs(sum / (double)n - mean) < 1e-3);
    free(out);
    free(err);
    rc = tu_run(NULL, &out, &err, "judge", "chien-chacal", "--rollout", "50",
                "--policy", "nobody", NULL);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(err, "--policy"));
    free(out);
    free(err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unbiased),
        cmocka_unit_test(test_threads_and_luck),
        cmocka_unit_test(test_truncate),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_command),
        cmocka_unit_test(test_judge),
        cmocka_unit_test(test_throw_luck),
        cmocka_unit_test(test_luck_the_long_way),
        cmocka_unit_test(test_rolls_as_weighed),
        cmocka_unit_test(test_match_luck),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
