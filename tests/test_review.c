/* test_review.c - game review (kemet_review) and reading records
 * (kemet_record_read). The review's figures are worked out here another
 * way: the greedy agent's chance after a move is the evaluation's
 * kemet_win_chance of the position after it, so every loss, grade and
 * luck can be computed from the positions alone.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Plays a game of `spec` from its start with moves drawn by `pick` (or
 * chosen by `agent` when not NULL); fills plies (at most cap) and returns
 * their count; *start receives the position of the first ply. */
static long play(const kemet_rules *r, uint64_t seed, kemet_agent *agent,
                 kemet_ply *plies, long cap, kemet_pos *start) {
    kemet_game *g;
    assert_int_equal(kemet_game_new(r, seed, &g, NULL), 0);
    *start = *kemet_game_pos(g);
    kemet_rng pick;
    kemet_rng_seed(&pick, seed);
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    assert_non_null(moves);
    long n = 0;
    while (kemet_game_pos(g)->result == KEMET_PLAYING && n < cap &&
           kemet_game_turns(g) < 400) {
        const kemet_pos *pos = kemet_game_pos(g);
        const kemet_throw *t = kemet_game_throw(g);
        kemet_throw thr;
        if (!t) {
            int np = kemet_prethrow(r, pos, moves);
            int k = np <= 0 ? -1
                    : agent ? kemet_agent_choose(agent, pos, NULL, moves, np)
                            : (int)kemet_rng_below(&pick, (uint32_t)np + 1) - 1;
            if (k >= 0) {
                plies[n++] = (kemet_ply){{0}, moves[k]};
                assert_int_equal(kemet_game_play(g, &moves[k], NULL), 0);
                continue;
            }
            assert_int_equal(kemet_game_roll(g, &thr), 0);
            t = kemet_game_throw(g);
        }
        int m = kemet_moves(r, pos, t, moves);
        assert_true(m >= 1);
        int k = agent ? kemet_agent_choose(agent, pos, t, moves, m)
                      : (int)kemet_rng_below(&pick, (uint32_t)m);
        plies[n++] = (kemet_ply){*t, moves[k]};
        assert_int_equal(kemet_game_play(g, &moves[k], NULL), 0);
    }
    free(moves);
    kemet_game_free(g);
    return n;
}

static int grade_for(int choices, double loss) {
    if (choices < 2)
        return KEMET_GRADE_FORCED;
    if (loss < KEMET_REVIEW_BEST)
        return KEMET_GRADE_BEST;
    if (loss < 0.02)
        return KEMET_GRADE_GOOD;
    if (loss < 0.04)
        return KEMET_GRADE_DOUBTFUL;
    if (loss < 0.08)
        return KEMET_GRADE_BAD;
    return KEMET_GRADE_VERY_BAD;
}

/* A random game of Dogs & Jackals (no pre-throw moves) reviewed by the
 * greedy agent: every entry agrees with the evaluation's chances. */
static void figures_from_the_evaluation(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("dogs-jackals", &r, &err), 0);
    kemet_ply *plies = malloc(2000 * sizeof *plies);
    kemet_review_entry *e = malloc(4000 * sizeof *e);
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    assert_true(plies && e && moves);
    kemet_pos start;
    long n = play(r, 11, NULL, plies, 2000, &start);
    assert_true(n > 50);
    kemet_agent *greedy;
    assert_int_equal(kemet_agent_new(r, "greedy", 1, &greedy, &err), 0);
    kemet_review_sum sum[2];
    long ne = kemet_review(greedy, r, &start, plies, n, e, 4000, sum, &err);
    assert_int_equal(ne, n); /* one decision per ply: no pre-throw moves */
    kemet_pos pos = start;
    double before =
        kemet_win_chance(kemet_agent_judge(greedy), &start, start.to);
    int before_player = start.to;
    int decisions[2] = {0, 0}, best[2] = {0, 0};
    double loss[2] = {0, 0}, luck[2] = {0, 0};
    for (long i = 0; i < n; i++) {
        int me = pos.to;
        int m = kemet_moves(r, &pos, &plies[i].thr, moves);
        double top = -1, played = -1;
        for (int k = 0; k < m; k++) {
            kemet_pos after;
            kemet_make(r, &pos, &plies[i].thr, &moves[k], &after, NULL);
            double c = kemet_win_chance(kemet_agent_judge(greedy), &after, me);
            top = c > top ? c : top;
            if (kemet_move_equal(&moves[k], &plies[i].move))
                played = c;
        }
        assert_true(played >= 0);
        double b = before_player == me ? before : 1 - before;
        assert_int_equal(e[i].ply, i);
        assert_int_equal(e[i].player, me);
        assert_int_equal(e[i].choices, m);
        assert_true(kemet_move_equal(&e[i].played, &plies[i].move));
        assert_true(fabs(e[i].best_chance - top) < 1e-12);
        assert_true(fabs(e[i].played_chance - played) < 1e-12);
        assert_true(fabs(e[i].loss - (top - played)) < 1e-12);
        assert_true(fabs(e[i].before - b) < 1e-12);
        assert_true(fabs(e[i].luck - (top - b)) < 1e-12);
        assert_int_equal(e[i].grade, grade_for(m, top - played));
        if (m >= 2) {
            decisions[me - 1]++;
            best[me - 1] += top - played < KEMET_REVIEW_BEST;
            loss[me - 1] += top - played;
        }
        luck[me - 1] += top - b;
        before = played;
        before_player = me;
        assert_int_equal(
            kemet_apply(r, &pos, &plies[i].thr, &plies[i].move, &pos, NULL), 0);
    }
    for (int p = 0; p < 2; p++) {
        assert_int_equal(sum[p].decisions, decisions[p]);
        assert_int_equal(sum[p].best, best[p]);
        assert_true(fabs(sum[p].loss - loss[p]) < 1e-9);
        assert_true(fabs(sum[p].luck - luck[p]) < 1e-9);
        int graded = 0;
        for (int g = KEMET_GRADE_BEST; g < KEMET_GRADES; g++)
            graded += sum[p].grades[g];
        assert_int_equal(graded, decisions[p]);
    }
    /* a random player loses something somewhere */
    assert_true(loss[0] + loss[1] > 0);
    kemet_agent_free(greedy);
    free(plies);
    free(e);
    free(moves);
    kemet_rules_close(r);
}

/* A game the greedy agent played itself, reviewed by it: every real
 * choice was its best (Senet, with pre-throw choices). */
static void own_game_is_all_best(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &err), 0);
    kemet_agent *greedy;
    assert_int_equal(kemet_agent_new(r, "greedy", 1, &greedy, &err), 0);
    kemet_ply *plies = malloc(3000 * sizeof *plies);
    kemet_review_entry *e = malloc(6000 * sizeof *e);
    assert_true(plies && e);
    kemet_pos start;
    long n = play(r, 5, greedy, plies, 3000, &start);
    kemet_review_sum sum[2];
    long ne = kemet_review(greedy, r, &start, plies, n, e, 6000, sum, &err);
    assert_true(ne >= n);
    /* (greedy chooses before the throw by the evaluation's log-odds, its
       ranking by chances: only the moves after a throw must agree) */
    for (long i = 0; i < ne; i++)
        if (e[i].thr.n && e[i].grade != KEMET_GRADE_FORCED)
            assert_int_equal(e[i].grade, KEMET_GRADE_BEST);
    for (int p = 0; p < 2; p++)
        assert_true(sum[p].decisions > 0);
    /* a random game: the choices before a throw are decisions of their
       own; one where the player threw is followed by the throw's move */
    n = play(r, 9, NULL, plies, 3000, &start);
    ne = kemet_review(greedy, r, &start, plies, n, e, 6000, sum, &err);
    assert_true(ne >= n);
    int before = 0, threw = 0;
    for (long i = 0; i < ne; i++) {
        if (e[i].thr.n)
            continue;
        before++;
        assert_int_equal(e[i].choices >= 2, 1);
        threw += e[i].threw;
        if (e[i].threw) {
            assert_true(i + 1 < ne && e[i + 1].ply == e[i].ply &&
                        e[i + 1].thr.n > 0);
        } else
            assert_int_equal(plies[e[i].ply].thr.n, 0);
    }
    assert_true(before > 0);
    assert_int_equal(threw, ne - n);
    kemet_agent_free(greedy);
    free(plies);
    free(e);
    kemet_rules_close(r);
}

/* A hand-made game: Dogs with a piece on 29 and one on 10 throw 1, and
 * move 10-11 where bearing off 29 is better. */
static void a_hand_made_mistake(void **state) {
    (void)state;
    kemet_pos start;
    kemet_rules *r = tu_pos("chien-chacal to=1 p1=10,29 p2=3,4", &start);
    kemet_error err;
    kemet_agent *greedy;
    assert_int_equal(kemet_agent_new(r, "greedy", 1, &greedy, &err), 0);
    kemet_ply ply;
    assert_int_equal(kemet_throw_parse(r, "1", &ply.thr, &err), 0);
    assert_int_equal(kemet_move_parse(r, "10-11", &ply.move, &err), 0);
    kemet_pos off, step;
    kemet_move m;
    assert_int_equal(kemet_move_parse(r, "29-off", &m, &err), 0);
    assert_int_equal(kemet_apply(r, &start, &ply.thr, &m, &off, NULL), 0);
    assert_int_equal(kemet_apply(r, &start, &ply.thr, &ply.move, &step, NULL),
                     0);
    double c_off = kemet_win_chance(kemet_agent_judge(greedy), &off, 1),
           c_step = kemet_win_chance(kemet_agent_judge(greedy), &step, 1);
    assert_true(c_off > c_step);
    kemet_review_entry e[2];
    kemet_review_sum sum[2];
    assert_int_equal(kemet_review(greedy, r, &start, &ply, 1, e, 2, sum, &err),
                     1);
    assert_true(kemet_move_equal(&e[0].best, &m));
    assert_true(fabs(e[0].loss - (c_off - c_step)) < 1e-12);
    assert_int_equal(e[0].grade, grade_for(2, c_off - c_step));
    assert_true(e[0].grade >= KEMET_GRADE_GOOD);
    assert_int_equal(sum[0].decisions, 1);
    assert_int_equal(sum[0].best, 0);
    assert_int_equal(sum[1].decisions, 0);
    /* the same, playing the best: graded best, nothing lost */
    ply.move = m;
    assert_int_equal(kemet_review(greedy, r, &start, &ply, 1, e, 2, sum, &err),
                     1);
    assert_int_equal(e[0].grade, KEMET_GRADE_BEST);
    assert_true(e[0].loss == 0);
    /* an illegal ply is refused and named; too few entries too */
    assert_int_equal(kemet_move_parse(r, "10-12", &ply.move, &err), 0);
    assert_int_equal(kemet_review(greedy, r, &start, &ply, 1, e, 2, sum, &err),
                     KEMET_EILLEGAL);
    assert_non_null(strstr(err.msg, "ply 1"));
    ply.move = m;
    assert_int_equal(kemet_review(greedy, r, &start, &ply, 1, e, 1, sum, &err),
                     KEMET_ERANGE);
    assert_int_equal(kemet_review(NULL, r, &start, &ply, 1, e, 2, sum, &err),
                     KEMET_EMISUSE);
    assert_string_equal(kemet_grade_name(KEMET_GRADE_VERY_BAD), "very bad");
    assert_string_equal(kemet_grade_name(KEMET_GRADES), "?");
    kemet_agent_free(greedy);
    kemet_rules_close(r);
}

/* kemet_record_read gives back the plies a record was written from. */
static void records_read_back(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &err), 0);
    kemet_ply *plies = malloc(3000 * sizeof *plies);
    assert_non_null(plies);
    kemet_pos start;
    uint64_t seed = 21;
    long n = play(r, seed, NULL, plies, 3000, &start);
    size_t cap = 64 + (size_t)n * 64, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)kemet_record_header(r, seed, "random", "random", &start,
                                       text, cap);
    kemet_pos pos = start;
    for (long i = 0; i < n; i++) {
        len += (size_t)kemet_record_ply(&pos,
                                        plies[i].thr.n ? &plies[i].thr : NULL,
                                        &plies[i].move, text + len, cap - len);
        assert_int_equal(kemet_apply(r, &pos,
                                     plies[i].thr.n ? &plies[i].thr : NULL,
                                     &plies[i].move, &pos, NULL),
                         0);
    }
    kemet_record_result(&pos, 1, text + len, cap - len);
    kemet_rules *rr;
    kemet_pos s2;
    kemet_ply *back;
    long n2;
    assert_int_equal(kemet_record_read(text, &rr, &s2, &back, &n2, &err), 0);
    assert_int_equal(n2, n);
    assert_memory_equal(&s2, &start, sizeof s2);
    for (long i = 0; i < n; i++) {
        assert_true(kemet_throw_equal(&back[i].thr, &plies[i].thr));
        assert_true(kemet_move_equal(&back[i].move, &plies[i].move));
    }
    assert_string_equal(kemet_rules_spec(rr), "senet-kendall");
    free(back);
    kemet_rules_close(rr);
    /* a bad record: refused, nothing to free */
    int rc = kemet_record_read("kemet-record 1\nruleset ur\n", &rr, &s2, &back,
                               &n2, &err);
    assert_int_equal(rc, KEMET_ESYNTAX);
    assert_null(rr);
    assert_null(back);
    assert_int_equal(kemet_record_read(NULL, &rr, &s2, &back, &n2, &err),
                     KEMET_EMISUSE);
    free(text);
    free(plies);
    kemet_rules_close(r);
}

/* Accuracy from the chances lost (docs/review.md), checked by hand:
 * 103.1668 e^(-0.04354 L) - 3.1669 is 99.9999 at L = 0, 79.8170 at 5
 * points and 63.5826 at 10 (0 from about 86 points on, never below); a
 * forced move counts for nothing; a side with no real choice has 100. */
static void accuracy_from_the_chances_lost(void **state) {
    (void)state;
    assert_true(fabs(kemet_review_move_accuracy(0) - 99.9999) < 1e-9);
    assert_true(fabs(kemet_review_move_accuracy(0.05) - 79.8170) < 1e-4);
    assert_true(fabs(kemet_review_move_accuracy(0.10) - 63.5826) < 1e-4);
    assert_true(fabs(kemet_review_move_accuracy(0.20) - 40.0204) < 1e-4);
    assert_true(kemet_review_move_accuracy(1.0) == 0);
    kemet_review_entry e[5] = {
        {.player = 1, .choices = 3, .loss = 0},
        {.player = 2, .choices = 1, .loss = 0},
        {.player = 1, .choices = 2, .loss = 0.05},
        {.player = 1, .choices = 1, .loss = 0},
        {.player = 1, .choices = 4, .loss = 0.10},
    };
    /* (99.9999 + 79.8170 + 63.5826) / 3 */
    assert_true(fabs(kemet_review_accuracy(e, 5, 1) - 81.1332) < 1e-4);
    assert_true(kemet_review_accuracy(e, 5, 2) == 100.0);
    assert_true(kemet_review_accuracy(NULL, 0, 1) == 100.0);
    /* one move lost, the rest best: far from the share of best moves */
    e[4].loss = 0;
    assert_true(fabs(kemet_review_accuracy(e, 5, 1) - 93.2723) < 1e-4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(figures_from_the_evaluation),
        cmocka_unit_test(own_game_is_all_best),
        cmocka_unit_test(a_hand_made_mistake),
        cmocka_unit_test(records_read_back),
        cmocka_unit_test(accuracy_from_the_chances_lost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
