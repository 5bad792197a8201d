/* test_metrics.c - the analysis figures on small hand-made games whose
 * answers are worked out by hand below, and the Wilson interval against
 * published values. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-6)

static void wilson_known_values(void **state) {
    (void)state;
    double lo, hi;
    /* 8 of 10 at 95%: 0.4902 to 0.9433 (Wilson 1927; Newcombe 1998) */
    kemet_wilson(8, 10, 1.96, &lo, &hi);
    assert_true(fabs(lo - 0.4902) < 1e-4 && fabs(hi - 0.9433) < 1e-4);
    /* 0 of 10: 0 to 0.2775 */
    kemet_wilson(0, 10, 1.96, &lo, &hi);
    assert_true(lo == 0 && fabs(hi - 0.2775) < 1e-4);
    /* 50 of 100: symmetric about one half, 0.4038 to 0.5962 */
    kemet_wilson(50, 100, 1.96, &lo, &hi);
    assert_true(fabs(lo - 0.4038) < 1e-4 && fabs(hi - 0.5962) < 1e-4);
}

/* Four games: player 1 wins two, player 2 one, one is stopped. */
static void outcomes_and_lengths(void **state) {
    (void)state;
    kemet_trace g[4] = {
        {.result = KEMET_WON1, .turns = 10, .moves = 12},
        {.result = KEMET_WON2, .turns = 20, .moves = 22},
        {.result = KEMET_WON1, .turns = 30, .moves = 33},
        {.result = KEMET_PLAYING, .turns = 40, .moves = 44},
    };
    kemet_analysis a;
    assert_int_equal(kemet_analyze_traces(g, 4, &a), KEMET_OK);
    assert_int_equal(a.games, 4);
    assert_int_equal(a.stopped, 1);
    NEAR(a.completion.value, 0.75);
    NEAR(a.drawishness.value, 0);
    NEAR(a.advantage_p1.value, 0.5);
    NEAR(a.balance.value, 0.75); /* 1 - |2/4 - 1/4| */
    assert_true(a.balance.lo <= 0.75 && a.balance.hi >= 0.75);
    NEAR(a.duration_turns.value, 25);
    NEAR(a.median_turns, 25);
    NEAR(a.sd_turns, sqrt(500.0 / 3)); /* deviations 15, 5, 5, 15 */
    NEAR(a.duration_moves.value, 27.75);
    NEAR(a.median_moves, 27.5);
    /* the interval of the mean: 25 +- 1.96 * sd / 2 */
    NEAR(a.duration_turns.hi - a.duration_turns.value,
         1.96 * sqrt(500.0 / 3) / 2);
}

/* One game, player 2 wins; player 1's estimates before its five plies:
 * 0.6, 0.7, 0.4, 0.5, 0.5. Leaders: {1} {1} {2} {1,2} {1,2}: three
 * changes (the first state counts) over 5 moves. Drama: the highest
 * estimate minus the winner's: 0.2, 0.4, 0, 0, 0 -> 0.12. Decisiveness
 * threshold: the loser's best, 0.7. Throws: 1 pass, 2 forced, 2 decisions
 * of 3 and 5 moves. */
static void estimates_and_choices(void **state) {
    (void)state;
    const double p1[5] = {0.6, 0.7, 0.4, 0.5, 0.5};
    kemet_trace g = {.result = KEMET_WON2,
                     .turns = 4,
                     .moves = 5,
                     .passes = 1,
                     .forced = 2,
                     .decisions = 2,
                     .choices = 8,
                     .branching = 1 + 2 + 8,
                     .n = 5,
                     .p1 = p1};
    kemet_analysis a;
    assert_int_equal(kemet_analyze_traces(&g, 1, &a), KEMET_OK);
    NEAR(a.lead_change.value, 3.0 / 5);
    NEAR(a.drama.value, 0.12);
    NEAR(a.decisiveness_threshold.value, 0.7);
    NEAR(a.lost_throws.value, 0.2);
    NEAR(a.forced_moves.value, 0.4);
    NEAR(a.choices.value, 4);
    NEAR(a.branching_factor.value, 11.0 / 5);
    assert_true(isnan(a.drama.lo)); /* one game: no interval */
    /* A draw: both players rank highest; no loser, threshold -1 (Ludii). */
    g.result = KEMET_DRAW;
    assert_int_equal(kemet_analyze_traces(&g, 1, &a), KEMET_OK);
    NEAR(a.decisiveness_threshold.value, -1);
    NEAR(a.drama.value, (0.1 + 0.2 + 0.1 + 0 + 0) / 5);
    /* A stopped game counts for lead changes, not for drama. */
    g.result = KEMET_PLAYING;
    assert_int_equal(kemet_analyze_traces(&g, 1, &a), KEMET_OK);
    NEAR(a.lead_change.value, 3.0 / 5);
    assert_true(isnan(a.drama.value));
    assert_int_equal(kemet_analyze_traces(&g, 0, &a), KEMET_EMISUSE);
}

/* Ludii's SkillTrace, worked by hand: y = 0,0,0,0,0,0,0.2,0.4 over
 * x = 0..7 has mean 0.075, slope 1.9 / 42 about x's mean 3.5; read at
 * x = 9 the line gives 0.075 + 5.5 * 1.9 / 42 = 0.3238095; the area is
 * 0.2^2 + 0.4^2 = 0.2; SkillTrace = 0.3238095 + 0.6761905 * 0.2. */
static void skill_trace_by_hand(void **state) {
    (void)state;
    double y[8] = {0, 0, 0, 0, 0, 0, 0.2, 0.4};
    NEAR(kemet_skill_trace(y, 8), 0.3238095 + 0.6761905 * 0.2);
    /* the stronger agent always wins: the line stays at 1 */
    double all[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    NEAR(kemet_skill_trace(all, 8), 1);
    /* always losing: the line is held at 0, and no area */
    double lose[8] = {-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5};
    NEAR(kemet_skill_trace(lose, 8), 0);
    /* a line that climbs past 1 is held there */
    double up[8] = {-1, -1, -1, -1, 0.5, 0.5, 0.5, 0.5};
    NEAR(kemet_skill_trace(up, 8), 1);
    assert_true(isnan(kemet_skill_trace(y, 1)));
    assert_true(isnan(kemet_skill_trace(NULL, 8)));
}

/* The luck share: luck that is the whole result is 1, none is 0; with
 * luck 0.25,-0.25,-0.25,0.25 on results 1,0,1,0 the rest is
 * 0.75,0.25,1.25,-0.25 (variance 1.25/3) beside the luck's 0.25/3: 1/6. */
static void luck_share_by_hand(void **state) {
    (void)state;
    double res[4] = {1, 0, 1, 0};
    double all[4] = {0.5, -0.5, 0.5, -0.5}, none[4] = {0, 0, 0, 0};
    double some[4] = {0.25, -0.25, -0.25, 0.25};
    NEAR(kemet_luck_share(res, all, 4), 1);
    NEAR(kemet_luck_share(res, none, 4), 0);
    NEAR(kemet_luck_share(res, some, 4), 1.0 / 6);
    assert_true(isnan(kemet_luck_share(res, some, 1)));
    assert_true(isnan(kemet_luck_share(none, none, 4)));
}

/* Games to lead: 0.6 a game with a spread of 0.5 needs (1.6449 * 0.5 /
 * 0.1)^2 = 67.6, so 68 games; no number for a player not ahead. */
static void games_to_lead_by_hand(void **state) {
    (void)state;
    NEAR(kemet_games_to_lead(0.6, 0.5), 68);
    NEAR(kemet_games_to_lead(0.75, 0.25), 3); /* (1.6449)^2 = 2.7 */
    assert_true(isnan(kemet_games_to_lead(0.5, 0.5)));
    assert_true(isnan(kemet_games_to_lead(0.4, 0.5)));
}

/* Lengths 0, 5, 10 and 19 turns in 20 bins: the longest, 19, gives bins of
 * one turn, so each game has its own bin; a game of 20 turns makes them
 * two turns wide. */
static void length_histogram_by_hand(void **state) {
    (void)state;
    kemet_trace g[5] = {{.turns = 0},
                        {.turns = 5},
                        {.turns = 10},
                        {.turns = 19},
                        {.turns = 20}};
    long h[20];
    NEAR(kemet_length_histogram(g, 4, 20, h), 1);
    for (int b = 0; b < 20; b++)
        assert_int_equal(h[b], b == 0 || b == 5 || b == 10 || b == 19);
    NEAR(kemet_length_histogram(g, 5, 20, h), 2);
    long want[20] = {[0] = 1, [2] = 1, [5] = 1, [9] = 1, [10] = 1};
    for (int b = 0; b < 20; b++)
        assert_int_equal(h[b], want[b]);
    assert_true(isnan(kemet_length_histogram(g, 0, 20, h)));
}

/* Arrivals between two Senet positions: a piece moved from 13 to 16 lands
 * on 16; a swap (White 13 to 14, Black's piece there sent to 13) lands
 * two pieces, one on each. */
static void arrivals_by_hand(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_pos a, b, c;
    assert_int_equal(kemet_pos_parse("senet-kendall to=1 p1=1,3,5,7,9,11,13 "
                                     "p2=2,4,6,8,10,12,14",
                                     &r, &a, NULL),
                     KEMET_OK);
    kemet_rules_close(r);
    assert_int_equal(kemet_pos_parse("senet-kendall to=2 p1=1,3,5,7,9,11,16 "
                                     "p2=2,4,6,8,10,12,14",
                                     &r, &b, NULL),
                     KEMET_OK);
    kemet_rules_close(r);
    assert_int_equal(kemet_pos_parse("senet-kendall to=2 p1=1,3,5,7,9,11,14 "
                                     "p2=2,4,6,8,10,12,13",
                                     &r, &c, NULL),
                     KEMET_OK);
    long count[40] = {0};
    assert_int_equal(kemet_arrivals(r, &a, &b, count, 40), 1);
    for (int k = 0; k < 40; k++)
        assert_int_equal(count[k], k == kemet_square_cell(r, 1, 16));
    long swap[40] = {0};
    assert_int_equal(kemet_arrivals(r, &a, &c, swap, 40), 2);
    assert_int_equal(swap[kemet_square_cell(r, 1, 14)], 1);
    assert_int_equal(swap[kemet_square_cell(r, 2, 13)], 1);
    assert_int_equal(kemet_arrivals(r, &a, &a, swap, 40), 0);
    assert_int_equal(kemet_arrivals(NULL, &a, &a, swap, 40), KEMET_EMISUSE);
    kemet_rules_close(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wilson_known_values),
        cmocka_unit_test(skill_trace_by_hand),
        cmocka_unit_test(luck_share_by_hand),
        cmocka_unit_test(games_to_lead_by_hand),
        cmocka_unit_test(length_histogram_by_hand),
        cmocka_unit_test(arrivals_by_hand),
        cmocka_unit_test(outcomes_and_lengths),
        cmocka_unit_test(estimates_and_choices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
