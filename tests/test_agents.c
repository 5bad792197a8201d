/* test_agents.c - agents return legal choices in many random positions of
 * every ruleset, are reproducible for a seed and budget, take the obvious
 * winning move; the pruned search gives exactly what plain
 * expectiminimax gives; hint chances agree with simulation in simple
 * endgames; greedy beats random by a clear margin. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void legal_and_reproducible(void **state) {
    (void)state;
    const char *agents[] = {"random", "greedy", "expectimax:400", "mcts:150",
                            "best:1500"};
    const uint64_t positions[] = {200, 200, 40, 40, 25};
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    assert_non_null(list);
    for (int i = 0; i < kemet_ruleset_count(); i++) {
        kemet_rules *r;
        kemet_error e;
        assert_int_equal(kemet_rules_open(kemet_ruleset_id(i), &r, &e),
                         KEMET_OK);
        for (int a = 0; a < 5; a++) {
            kemet_agent *x, *y;
            assert_int_equal(kemet_agent_new(r, agents[a], 3, &x, &e),
                             KEMET_OK);
            assert_int_equal(kemet_agent_new(r, agents[a], 3, &y, &e),
                             KEMET_OK);
            kemet_rng pick;
            kemet_rng_seed(&pick, 11);
            for (uint64_t g = 0; g < positions[a]; g++) {
                kemet_game *game;
                kemet_game_new(r, g, &game, NULL);
                /* random positions: stop a random playout part-way */
                kemet_game_playout(game, &pick, (long)(g % 60) + 1, 0);
                const kemet_pos *p = kemet_game_pos(game);
                if (kemet_result(p) == KEMET_PLAYING) {
                    int n = kemet_prethrow(r, p, list);
                    if (n > 0) {
                        int k = kemet_agent_choose(x, p, NULL, list, n);
                        assert_true(k >= -1 && k < n);
                        assert_int_equal(
                            k, kemet_agent_choose(y, p, NULL, list, n));
                    }
                    kemet_throw t;
                    kemet_roll(r, p, &pick, &t);
                    n = kemet_moves(r, p, &t, list);
                    int k = kemet_agent_choose(x, p, &t, list, n);
                    assert_true(k >= 0 && k < n);
                    long long nodes = kemet_agent_nodes(x);
                    assert_int_equal(k, kemet_agent_choose(y, p, &t, list, n));
                    assert_true(nodes == kemet_agent_nodes(y));
                    kemet_pos q;
                    assert_int_equal(kemet_apply(r, p, &t, &list[k], &q, NULL),
                                     KEMET_OK);
                }
                kemet_game_free(game);
            }
            kemet_agent_free(x);
            kemet_agent_free(y);
        }
        kemet_rules_close(r);
    }
    free(list);
}

/* Plain expectiminimax, written from the definition: player 1's chance,
 * the evaluation's at the horizon; a throw is the probability-weighted
 * mean over its outcomes of the mover's best move; a pre-throw move
 * competes with throwing. */
static double plain(const kemet_judge *judge, const kemet_pos *p, int depth) {
    const kemet_rules *r = kemet_judge_rules(judge);
    if (kemet_result(p) != KEMET_PLAYING || depth == 0)
        return kemet_win_chance(judge, p, 1);
    kemet_throw *thr = malloc(KEMET_MAX_THROWS * sizeof *thr);
    kemet_weight *w = malloc(KEMET_MAX_THROWS * sizeof *w), total;
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    assert_true(thr && w && list);
    int k = kemet_throws(r, p, thr, w, &total);
    int max = p->to == 1;
    double v = 0;
    for (int i = 0; i < k; i++) {
        int n = kemet_moves(r, p, &thr[i], list);
        double best = max ? -1 : 2;
        for (int j = 0; j < n; j++) {
            kemet_pos q;
            kemet_make(r, p, &thr[i], &list[j], &q, NULL);
            double x = plain(judge, &q, depth - 1);
            best = max ? (x > best ? x : best) : (x < best ? x : best);
        }
        v += (double)w[i] / (double)total * best;
    }
    int n = kemet_prethrow(r, p, list);
    for (int j = 0; j < n; j++) {
        kemet_pos q;
        kemet_make(r, p, NULL, &list[j], &q, NULL);
        double x = plain(judge, &q, depth - 1);
        v = max ? (x > v ? x : v) : (x < v ? x : v);
    }
    free(thr);
    free(w);
    free(list);
    return v;
}

/* Star1/Star2 pruning, the move ordering and the transposition table must
 * not change the value: at a fixed depth, each move's chance from the
 * search equals plain expectiminimax's (to float precision: the table
 * keeps floats). */
static void search_equals_plain_expectiminimax(void **state) {
    (void)state;
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    double *chance = malloc(KEMET_MAX_MOVES * sizeof *chance);
    assert_true(list && chance);
    const char *ids[] = {"senet-kendall", "senet-robinson",
                         "dogs-jackals",  "hounds-jackals-skiryuk",
                         "chien-chacal",  "hounds-jackals-washburne"};
    int compared = 0;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        kemet_rules *r;
        kemet_error e;
        assert_int_equal(kemet_rules_open(ids[i], &r, &e), KEMET_OK);
        kemet_agent *a;
        assert_int_equal(kemet_agent_new(r, "expectimax:d2", 1, &a, &e),
                         KEMET_OK);
        kemet_rng pick;
        kemet_rng_seed(&pick, 5);
        for (uint64_t g = 0; g < 12; g++) {
            kemet_game *game;
            kemet_game_new(r, g, &game, NULL);
            kemet_game_playout(game, &pick, (long)(g * 7 % 50) + 2, 0);
            const kemet_pos *p = kemet_game_pos(game);
            if (kemet_result(p) == KEMET_PLAYING) {
                kemet_throw t;
                kemet_roll(r, p, &pick, &t);
                int n = kemet_moves(r, p, &t, list);
                kemet_agent_rank(a, p, &t, list, n, chance, NULL);
                for (int j = 0; j < n; j++) {
                    kemet_pos q;
                    kemet_make(r, p, &t, &list[j], &q, NULL);
                    double want = plain(kemet_agent_judge(a), &q, 1);
                    if (p->to == 2)
                        want = 1 - want;
                    assert_true(fabs(chance[j] - want) < 1e-5);
                    assert_true(chance[j] >= 0 && chance[j] <= 1);
                    compared++;
                }
            }
            kemet_game_free(game);
        }
        kemet_agent_free(a);
        kemet_rules_close(r);
    }
    assert_true(compared > 100);
    free(list);
    free(chance);
}

/* The agent's choice and the move it should make, as text. */
static void agent_pick(const char *agent, const char *pos, const char *thr,
                       const char *want) {
    kemet_pos p;
    kemet_rules *r = tu_pos(pos, &p);
    kemet_agent *a;
    kemet_error e;
    assert_int_equal(kemet_agent_new(r, agent, 1, &a, &e), KEMET_OK);
    kemet_move list[64];
    kemet_move *all = malloc(KEMET_MAX_MOVES * sizeof *all);
    kemet_throw t;
    assert_int_equal(kemet_throw_parse(r, thr, &t, &e), KEMET_OK);
    int n = kemet_moves(r, &p, &t, all);
    assert_true(n > 1 && n <= 64);
    memcpy(list, all, (size_t)(n > 0 && n <= 64 ? n : 0) * sizeof *list);
    free(all);
    char m[64];
    kemet_move_format(&list[kemet_agent_choose(a, &p, &t, list, n)], m,
                      sizeof m);
    if (strcmp(m, want) != 0)
        fail_msg("%s in '%s' throw %s chose %s, not %s", agent, pos, thr, m,
                 want);
    kemet_agent_free(a);
    kemet_rules_close(r);
}

/* Hand-made positions with one clearly winning move: the search agents
 * find it. */
static void search_finds_winning_moves(void **state) {
    (void)state;
    const char *agents[] = {"expectimax", "expectimax:d3", "mcts:2000", "best"};
    for (size_t i = 0; i < sizeof agents / sizeof agents[0]; i++) {
        /* bringing a piece home wins at once (Lions & Jackals, Quick) */
        agent_pick(agents[i],
                   "lions-jackals-quick:solid=1,dual=0 to=1 p1=1,2,3,4,24 "
                   "p2=10,11,12,14,17",
                   "2", "24-26");
        /* a swap that sends the opponent's front piece back beats a quiet
         * move */
        agent_pick(agents[i], "senet-kendall to=1 p1=2,21 p2=24,10,11", "3",
                   "21-24");
        /* stepping into the water loses a piece's progress */
        agent_pick(agents[i], "senet-kendall to=1 p1=12,26 p2=1,2", "1",
                   "12-13");
    }
}

/* Hint chances in simple endgames (one piece each, near the end) against
 * a long simulation: the position after the move played out 20,000 times
 * by greedy against greedy (the moves are all but forced). Standard error
 * of the simulation: at most 0.35%; the tolerance: 2.5 points. */
static void hint_agrees_with_simulation(void **state) {
    (void)state;
    const char *endgames[][2] = {
        {"chien-chacal to=1 p1=25 p2=27", "2"},
        {"dogs-jackals to=1 p1=27 p2=28", "1"},
        {"senet-kendall to=1 p1=22 p2=24", "2"},
        {"hounds-jackals-skiryuk to=2 p1=27 p2=25 h2=0", "3"},
    };
    kemet_move list[KEMET_MAX_MOVES];
    for (size_t i = 0; i < sizeof endgames / sizeof endgames[0]; i++) {
        kemet_pos p;
        kemet_rules *r = tu_pos(endgames[i][0], &p);
        kemet_error e;
        kemet_throw t;
        assert_int_equal(kemet_throw_parse(r, endgames[i][1], &t, &e),
                         KEMET_OK);
        int n = kemet_moves(r, &p, &t, list);
        kemet_agent *a, *g[2];
        assert_int_equal(kemet_agent_new(r, "best:200k", 1, &a, &e), KEMET_OK);
        double chance[KEMET_MAX_MOVES];
        int k = kemet_agent_rank(a, &p, &t, list, n, chance, NULL);
        assert_true(k >= 0 && k < n);
        kemet_pos start;
        kemet_make(r, &p, &t, &list[k], &start, NULL);
        int mover = p.to, wins = 0, games = 20000;
        kemet_agent_new(r, "greedy", 1, &g[0], &e);
        kemet_agent_new(r, "greedy", 2, &g[1], &e);
        kemet_rng dice;
        kemet_rng_seed(&dice, 77 + i);
        for (int s = 0; s < games; s++) {
            kemet_pos q = start;
            for (int ply = 0; kemet_result(&q) == KEMET_PLAYING && ply < 5000;
                 ply++) {
                kemet_throw u;
                kemet_roll(r, &q, &dice, &u);
                int m = kemet_moves(r, &q, &u, list);
                int c = kemet_agent_choose(g[q.to - 1], &q, &u, list, m);
                kemet_make(r, &q, &u, &list[c], &q, NULL);
            }
            wins += kemet_result(&q) == mover;
        }
        double sim = (double)wins / games;
        if (fabs(sim - chance[k]) > 0.025)
            fail_msg("%s: hint %.3f, simulation %.3f", endgames[i][0],
                     chance[k], sim);
        assert_true(chance[k] >= 0 && chance[k] <= 1);
        kemet_agent_free(a);
        kemet_agent_free(g[0]);
        kemet_agent_free(g[1]);
        kemet_rules_close(r);
    }
}

static int pick(const char *agent, const char *pos, int throw_value, char *out,
                size_t len) {
    kemet_pos p;
    kemet_rules *r = tu_pos(pos, &p);
    kemet_agent *a;
    kemet_error e;
    assert_int_equal(kemet_agent_new(r, agent, 1, &a, &e), KEMET_OK);
    kemet_move list[KEMET_MAX_MOVES];
    kemet_throw t = {0};
    t.n = 1;
    t.v[0] = (uint8_t)throw_value;
    int n = kemet_moves(r, &p, &t, list);
    int k = kemet_agent_choose(a, &p, &t, list, n);
    kemet_move_format(&list[k], out, len);
    kemet_agent_free(a);
    kemet_rules_close(r);
    return n;
}

static int greedy_pick(const char *pos, int throw_value, char *out,
                       size_t len) {
    return pick("greedy", pos, throw_value, out, len);
}

/* The move the exact 2-piece table prefers for throw `v` in `pos`. */
static void exact_pick(const char *pos, int v, char *out, size_t len) {
    kemet_pos p;
    kemet_rules *r = tu_pos(pos, &p);
    kemet_table *t;
    kemet_error e;
    assert_int_equal(kemet_table_solve(r, 2, 2, NULL, NULL, &t, &e), KEMET_OK);
    kemet_move list[16];
    kemet_throw thr = {0};
    thr.n = 1;
    thr.v[0] = (uint8_t)v;
    int n = kemet_moves(r, &p, &thr, list);
    double best = -1;
    for (int i = 0; i < n; i++) {
        kemet_pos q;
        kemet_make(r, &p, &thr, &list[i], &q, NULL);
        double x = q.result == p.to ? 1 : 0;
        if (q.result == KEMET_PLAYING) {
            assert_true(kemet_table_probe(t, &q, &x));
            x = q.to == p.to ? x : 1 - x;
        }
        if (x > best) {
            best = x;
            kemet_move_format(&list[i], out, len);
        }
    }
    kemet_table_free(t);
    kemet_rules_close(r);
}

/* Hand-made positions with one clearly right move. */
static void greedy_obvious_moves(void **state) {
    (void)state;
    char m[32], want[32];
    /* Bearing a piece off is not always best: the exact table prefers
     * 3-4 here (0.739 against 0.705), which the learned evaluation sees
     * and the linear one did not. */
    assert_int_equal(
        greedy_pick("senet-kendall to=1 p1=3,30 p2=1,2", 1, m, sizeof m), 2);
    exact_pick("senet-kendall to=1 p1=3,30 p2=1,2", 1, want, sizeof want);
    assert_string_equal(want, "3-4");
    assert_string_equal(m, want);
    assert_int_equal(
        greedy_pick("senet-kendall to=1 p1=30 p2=1,2,4,25", 1, m, sizeof m), 1);
    /* Hitting a lone piece far up the track beats a quiet move (the exact
     * table: 0.449 against 0.437). The linear evaluation sees it; the
     * learned one undervalues such swaps in Senet's endgame (0.477
     * against 0.481: docs/strength.md), so this is the linear one's. */
    exact_pick("senet-kendall to=1 p1=2,21 p2=10,24", 3, want, sizeof want);
    assert_string_equal(want, "21-24");
    pick("greedy@linear", "senet-kendall to=1 p1=2,21 p2=10,24", 3, m,
         sizeof m);
    assert_string_equal(m, want);
    /* stepping into the water is bad when a safe move exists (exact:
     * 0.749 against 0.612) */
    greedy_pick("senet-kendall to=1 p1=12,26 p2=1,2", 1, m, sizeof m);
    exact_pick("senet-kendall to=1 p1=12,26 p2=1,2", 1, want, sizeof want);
    assert_string_equal(want, "12-13");
    assert_string_equal(m, want);
}

/* The weights file: the library carries tuned weights for every ruleset
 * (they differ from the module's starting ones), a file is read with its
 * errors named by line, and the evaluation is symmetric. */
static void evaluation_weights(void **state) {
    (void)state;
    for (int i = 0; i < kemet_ruleset_count(); i++) {
        kemet_rules *r;
        kemet_error e;
        assert_int_equal(kemet_rules_open(kemet_ruleset_id(i), &r, &e),
                         KEMET_OK);
        kemet_judge *j;
        assert_int_equal(kemet_judge_new(r, NULL, &j, &e), KEMET_OK);
        double tuned[KEMET_MAX_FEATURES], start[KEMET_MAX_FEATURES];
        int n = kemet_eval_weights(j, tuned);
        assert_true(n >= 2 && n <= KEMET_MAX_FEATURES);
        assert_string_equal(kemet_eval_feature(r, n - 1), "tempo");
        assert_null(kemet_eval_feature(r, n));
        kemet_eval_reset(j);
        assert_int_equal(kemet_eval_weights(j, start), n);
        assert_true(memcmp(tuned, start, (size_t)n * sizeof *tuned) != 0);
        /* symmetric: one side's chance is the other's complement */
        kemet_pos p;
        kemet_start(r, &p);
        p.to = 2;
        double a = kemet_win_chance(j, &p, 1), b = kemet_win_chance(j, &p, 2);
        assert_true(fabs(a + b - 1) < 1e-12);
        kemet_judge_free(j);
        kemet_rules_close(r);
    }
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &e), KEMET_OK);
    /* The linear evaluation: the learned one would answer instead. */
    kemet_judge *j;
    assert_int_equal(kemet_judge_new(r, "linear", &j, &e), KEMET_OK);
    assert_null(kemet_judge_net(j));
    const char *good = "kemet-weights 1\n# comment\n"
                       "chien-chacal progress=1 off=1 hand=1 last=1 alive=0 "
                       "shen=0 tempo=0\n"
                       "senet-kendall progress=0.5 off=2 water=-1 guarded=0 "
                       "risk=0 home=0 tempo=0.25\n";
    assert_int_equal(kemet_eval_load(j, good, &e), KEMET_OK);
    double w[KEMET_MAX_FEATURES];
    assert_int_equal(kemet_eval_weights(j, w), 7);
    assert_true(w[0] == 0.5 && w[1] == 2 && w[2] == -1 && w[6] == 0.25);
    /* player 1: 13 squares more progress (1..13 odd vs 2..14 even: -7),
     * to move: 0.5 * -7 + 0.25 */
    kemet_pos p;
    kemet_start(r, &p);
    assert_true(fabs(kemet_eval(j, &p, 1) - (0.5 * -7 + 0.25)) < 1e-9);
    struct {
        const char *text, *words;
        int code;
    } bad[] = {
        {"kemet-weights 2\n", "line 1", KEMET_ESYNTAX},
        {"kemet-weights 1\nsenet-kendall progress=1\n", "line 2: no weight",
         KEMET_ESYNTAX},
        {"kemet-weights 1\n\nsenet-kendall speed=1\n",
         "line 3: senet-kendall has "
         "no feature 'speed'",
         KEMET_ESYNTAX},
        {"kemet-weights 1\nsenet-kendall progress=x\n", "line 2: bad weight",
         KEMET_ESYNTAX},
        {"kemet-weights 1\nsenet-kendall\n", "line 2", KEMET_ESYNTAX},
        {"kemet-weights 1\nchien-chacal progress=1\n", "no senet-kendall",
         KEMET_ERULESET},
        /* finite but huge: kemet_win_chance once returned NaN */
        {"kemet-weights 1\nsenet-kendall progress=1e308 tempo=-1e308\n",
         "out of range", KEMET_ESYNTAX},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(kemet_eval_load(j, bad[i].text, &e), bad[i].code);
        if (!strstr(e.msg, bad[i].words))
            fail_msg("'%s': %s", bad[i].text, e.msg);
        double x[KEMET_MAX_FEATURES];
        kemet_eval_weights(j, x);
        assert_true(memcmp(x, w, sizeof(double) * 7) == 0); /* unchanged */
    }
    double huge[7] = {1e308, 0, 0, 0, 0, 0, -1e308};
    assert_int_equal(kemet_eval_set_weights(j, huge, 7), KEMET_EMISUSE);
    huge[0] = KEMET_MAX_WEIGHT;
    huge[6] = -KEMET_MAX_WEIGHT;
    assert_int_equal(kemet_eval_set_weights(j, huge, 7), KEMET_OK);
    double c = kemet_win_chance(j, &p, 1);
    assert_true(c >= 0 && c <= 1);
    kemet_judge_free(j);
    kemet_rules_close(r);
}

static void bad_specs(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error e;
    kemet_agent *a;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &e), KEMET_OK);
    assert_int_equal(kemet_agent_new(r, "grandmaster", 1, &a, &e),
                     KEMET_ESYNTAX);
    assert_non_null(strstr(e.msg, "unknown agent"));
    assert_int_equal(kemet_agent_new(r, "greedy:5", 1, &a, &e), KEMET_ESYNTAX);
    assert_non_null(strstr(e.msg, "takes no budget"));
    const char *bad[] = {"expectimax:", "expectimax:0", "expectimax:-3",
                         "expectimax:12q", "expectimax:d0", "expectimax:d99",
                         "mcts:d3", "best:1.5", "expectimax:ms", "mcts:5mss",
                         /* once converted 1e11 to int before the check */
                         "expectimax:d99999999999", "best:d2147483648",
                         "expectimax:99999999999999",
                         /* time had no upper bound while depth had */
                         "expectimax:99999s", "mcts:3601s", "best:3600001ms"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(kemet_agent_new(r, bad[i], 1, &a, &e), KEMET_ESYNTAX);
        assert_non_null(strstr(e.msg, "bad budget"));
    }
    const char *good[] = {"expectimax:20000", "expectimax:20k",  "best:1m",
                          "expectimax:d3",    "mcts:500",        "mcts:50ms",
                          "best:2s",          "expectimax:3600s"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        assert_int_equal(kemet_agent_new(r, good[i], 1, &a, &e), KEMET_OK);
        assert_string_equal(kemet_agent_spec(a), good[i]);
        kemet_agent_free(a);
    }
    /* "~P": a share of the decisions played at random, 0 to 1 */
    const char *bad_share[] = {
        "greedy~",      "greedy~1.5",         "greedy~-1",
        "greedy~.5",    "greedy~0.",          "greedy~1e-1",
        "greedy~0.1.2", "greedy~0.5x",        "best~0.1~0.2",
        "best~0.1:20k", "greedy~0.123456789", "greedy~0.5@cheap"};
    for (size_t i = 0; i < sizeof bad_share / sizeof bad_share[0]; i++) {
        int rc = kemet_agent_new(r, bad_share[i], 1, &a, &e);
        if (rc != KEMET_ESYNTAX)
            fail_msg("'%s' was taken (%d)", bad_share[i], rc);
    }
    const char *good_share[] = {"greedy~0.25", "best:20k~0.1@linear",
                                "random~1", "expectimax:d2~0", "mcts:50~0.5"};
    for (size_t i = 0; i < sizeof good_share / sizeof good_share[0]; i++) {
        assert_int_equal(kemet_agent_new(r, good_share[i], 1, &a, &e),
                         KEMET_OK);
        assert_string_equal(kemet_agent_spec(a), good_share[i]);
        kemet_agent_free(a);
    }
    assert_int_equal(kemet_agent_count(), 5);
    assert_string_equal(kemet_agent_name(1), "greedy");
    assert_string_equal(kemet_agent_name(4), "best");
    kemet_rules_close(r);
}

/* Greedy against random over 400 games with seats alternating: greedy
 * should win clearly more than half (about 80% measured; the test asks for
 * 65%, far outside chance: at p = 0.5 the standard deviation is 2.5%). */
/* The search reads its check (and its clock) every few hundred positions
 * whatever the counts of its leaves: about once every 256 (a check read
 * only where the count landed on a multiple of 256 was read a few times
 * in 20,000 positions). */
static int count_checks(void *ctx) {
    (*(long *)ctx)++;
    return 0;
}

static void search_checks_often(void **state) {
    (void)state;
    const char *specs[] = {"senet-kendall to=1 p1=3,8,12,17,21 p2=5,9,14,19,23",
                           "lions-jackals to=1 p1=1,2,3,4,5 p2=1,2,3,4,5"};
    const char *throws[] = {"3", "1,2,3,1@1"};
    for (int i = 0; i < 2; i++) {
        kemet_pos p;
        kemet_rules *r = tu_pos(specs[i], &p);
        kemet_throw t;
        kemet_error e;
        assert_int_equal(kemet_throw_parse(r, throws[i], &t, &e), KEMET_OK);
        static kemet_move list[KEMET_MAX_MOVES];
        int n = kemet_moves(r, &p, &t, list);
        assert_true(n > 1);
        kemet_agent *a;
        assert_int_equal(kemet_agent_new(r, "expectimax:20k", 1, &a, &e),
                         KEMET_OK);
        long calls = 0;
        kemet_agent_set_check(a, count_checks, &calls);
        kemet_agent_choose(a, &p, &t, list, n);
        long long nodes = kemet_agent_nodes(a);
        assert_true(nodes > 5000);
        if (calls < nodes / 384 || calls > nodes / 256 + 2)
            fail_msg("%s: %ld checks in %lld positions", specs[i], calls,
                     nodes);
        kemet_agent_free(a);
        kemet_rules_close(r);
    }
}

static void greedy_beats_random(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &e), KEMET_OK);
    int greedy_wins = 0, games = 400;
    kemet_move list[KEMET_MAX_MOVES];
    for (int g = 0; g < games; g++) {
        kemet_agent *a[2];
        int gseat = g % 2; /* greedy's seat */
        kemet_agent_new(r, gseat == 0 ? "greedy" : "random", (uint64_t)g, &a[0],
                        &e);
        kemet_agent_new(r, gseat == 1 ? "greedy" : "random", (uint64_t)g + 1000,
                        &a[1], &e);
        kemet_game *game;
        kemet_game_new(r, (uint64_t)g, &game, NULL);
        while (kemet_result(kemet_game_pos(game)) == KEMET_PLAYING) {
            const kemet_pos *p = kemet_game_pos(game);
            kemet_agent *ag = a[p->to - 1];
            int n = kemet_prethrow(r, p, list);
            int k = n > 0 ? kemet_agent_choose(ag, p, NULL, list, n) : -1;
            if (k < 0) {
                kemet_throw t;
                kemet_game_roll(game, &t);
                n = kemet_moves(r, p, &t, list);
                k = kemet_agent_choose(ag, p, &t, list, n);
            }
            assert_int_equal(kemet_game_play(game, &list[k], NULL), KEMET_OK);
        }
        greedy_wins += kemet_result(kemet_game_pos(game)) == gseat + 1;
        kemet_game_free(game);
        kemet_agent_free(a[0]);
        kemet_agent_free(a[1]);
    }
    assert_true(greedy_wins > games * 65 / 100);
    kemet_rules_close(r);
}

/* "~P" plays a share P of the decisions at random: greedy~0 chooses as
 * greedy does; greedy~1 spreads its choices over every move (each of the
 * moves of a throw chosen about 1/n of the time, where greedy always
 * chooses one); greedy~0.5 departs from greedy's choice in about half of
 * its decisions times (n - 1) / n. Also through kemet_agent_rank, the
 * engine's and the server's call. */
static void blunder_share(void **state) {
    (void)state;
    kemet_pos p;
    kemet_rules *r =
        tu_pos("senet-kendall to=1 p1=3,8,12,17,21 p2=5,9,14,19,23", &p);
    kemet_throw t;
    kemet_error e;
    assert_int_equal(kemet_throw_parse(r, "3", &t, &e), KEMET_OK);
    static kemet_move list[KEMET_MAX_MOVES];
    int n = kemet_moves(r, &p, &t, list);
    assert_int_equal(n, 5);
    kemet_agent *g, *g0, *g1, *half;
    assert_int_equal(kemet_agent_new(r, "greedy", 7, &g, &e), KEMET_OK);
    assert_int_equal(kemet_agent_new(r, "greedy~0", 7, &g0, &e), KEMET_OK);
    assert_int_equal(kemet_agent_new(r, "greedy~1", 7, &g1, &e), KEMET_OK);
    assert_int_equal(kemet_agent_new(r, "greedy~0.5", 7, &half, &e), KEMET_OK);
    int count[KEMET_MAX_MOVES] = {0}, departs = 0, tries = 4000;
    int mine = kemet_agent_choose(g, &p, &t, list, n);
    for (int i = 0; i < tries; i++) {
        assert_int_equal(kemet_agent_choose(g0, &p, &t, list, n), mine);
        count[kemet_agent_choose(g1, &p, &t, list, n)]++;
        departs += kemet_agent_rank(half, &p, &t, list, n, NULL, NULL) != mine;
    }
    for (int k = 0; k < n; k++)
        if (count[k] < tries / n / 2 || count[k] > tries * 2 / n)
            fail_msg("move %d of %d chosen %d times in %d", k, n, count[k],
                     tries);
    double want = 0.5 * (n - 1) / n;
    if (fabs((double)departs / tries - want) > 0.04)
        fail_msg("greedy~0.5 departed %d times in %d, about %.0f expected",
                 departs, tries, want * tries);
    kemet_agent_free(g);
    kemet_agent_free(g0);
    kemet_agent_free(g1);
    kemet_agent_free(half);
    kemet_rules_close(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(legal_and_reproducible),
        cmocka_unit_test(search_equals_plain_expectiminimax),
        cmocka_unit_test(search_finds_winning_moves),
        cmocka_unit_test(hint_agrees_with_simulation),
        cmocka_unit_test(greedy_obvious_moves),
        cmocka_unit_test(bad_specs),
        cmocka_unit_test(blunder_share),
        cmocka_unit_test(evaluation_weights),
        cmocka_unit_test(greedy_beats_random),
        cmocka_unit_test(search_checks_often),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
