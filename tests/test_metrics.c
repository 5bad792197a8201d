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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wilson_known_values),
        cmocka_unit_test(outcomes_and_lengths),
        cmocka_unit_test(estimates_and_choices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
