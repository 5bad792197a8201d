/* test_words.c - the parts of `kemet analyze`'s report made from the
 * verdict's figures alone (src/cli/verdict_words.c), printed from
 * hand-made figures whose verdicts are worked out by hand below: the
 * verdict with each criterion's unit halved and doubled, and the
 * abstract's word on the games the turn cap stopped in a first tier.
 */
#include "testutil.h"
#include "verdict_words.h"

#include <stdlib.h>
#include <string.h>

/* What vw_units_varied prints for m[0..n) (caller frees). */
static char *units_text(const kemet_measured *m, const char *const *id, int n) {
    char *text = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&text, &len);
    assert_non_null(o);
    vw_units_varied(o, m, id, id, n);
    assert_int_equal(fclose(o), 0);
    return text;
}

/* The table's row for criterion `name` (from "| name |" to the line's
 * end), or fails. */
static void expect_row(const char *text, const char *row) {
    if (!strstr(text, row))
        fail_msg("no row '%s' in:\n%s", row, text);
}

/* a's skill 0.20 (0.199-0.201) is 0.05 short of its band (0.25): 0.5
 * units of 0.1 (0.49-0.51). b's balance 0.58 (0.579-0.581) is 0.03 past
 * it (0.55): 0.6 units of 0.05 (0.58-0.62). The ranges leave a gap: a
 * tier 1, b tier 2; c's stopped share 0.03 (0.025-0.035) lies wholly
 * above 0.01: flagged, tier 3.
 *   skill's unit halved (0.05): a costs 1.0, past b's 0.6: b tier 1, a
 *   tier 2; tau-b of (1, 2, 3) against (2, 1, 3): one pair of three
 *   discordant, (2 - 1) / 3 = 0.33. Doubled (0.2): a 0.25, no change.
 *   balance's unit halved (0.025): b 1.2, no change. Doubled (0.1): b
 *   0.3, before a: as skill's halved.
 *   length, decisions, tension, probes: nothing costs, nothing changes.
 *   stopped: no cost, so no row. */
static void a_unit_reorders(void **state) {
    (void)state;
    kemet_measured m[3] = {tu_good_figures(), tu_good_figures(),
                           tu_good_figures()};
    m[0].c[KEMET_CRIT_SKILL] = (kemet_stat){0.20, 0.199, 0.201};
    m[1].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.58, 0.579, 0.581};
    m[2].c[KEMET_CRIT_STOPPED] = (kemet_stat){0.03, 0.025, 0.035};
    const char *id[3] = {"aa", "bb", "cc"};
    char *t = units_text(m, id, 3);
    expect_row(t, "\n| skill | 0.1 | 0.33 | 1.00 |\n");
    expect_row(t, "\n- *skill*: halved, tier: bb 2 → 1, aa 1 → 2; doubled, "
                  "none.\n");
    expect_row(t, "\n| balance | 0.05 | 1.00 | 0.33 |\n");
    expect_row(t, "\n- *balance*: halved, none; doubled, tier: bb 2 → 1, "
                  "aa 1 → 2.\n");
    expect_row(t, "\n| length | a doubling | 1.00 | 1.00 |\n");
    expect_row(t, "\n- *length*: halved, none; doubled, none.\n");
    expect_row(t, "\n| decisions | 0.25 | 1.00 | 1.00 |\n");
    expect_row(t, "\n| tension | 0.05 | 1.00 | 1.00 |\n");
    expect_row(t, "\n| probes | 0.1 | 1.00 | 1.00 |\n");
    assert_non_null(strstr(t, "\nThe first tier, aa as published, is bb "
                              "with skill's unit halved; bb with balance's "
                              "unit doubled; the same with every other unit "
                              "halved or doubled.\n"));
    assert_null(strstr(t, "| stopped |"));
    assert_null(strstr(t, "cc")); /* flagged: last whatever the units */
    free(t);
}

/* e's skill 0.20 (0.15-0.25) costs 0.5 (0 to 1.0), f's balance 0.58
 * (0.57-0.59) 0.6 (0.4-0.8): the ranges overlap, one tier, e first.
 * With balance's unit doubled f costs 0.3 and passes e, still in one
 * tier; every reading in one tier in both: tau-b is undefined. */
static void a_unit_reorders_within_a_tier(void **state) {
    (void)state;
    kemet_measured m[2] = {tu_good_figures(), tu_good_figures()};
    m[0].c[KEMET_CRIT_SKILL] = (kemet_stat){0.20, 0.15, 0.25};
    m[1].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.58, 0.57, 0.59};
    const char *id[2] = {"ee", "ff"};
    char *t = units_text(m, id, 2);
    expect_row(t, "\n| balance | 0.05 | — | — |\n");
    expect_row(t, "\n- *balance*: halved, none; doubled, within a tier: ff "
                  "passes ee.\n");
    expect_row(t, "\n| skill | 0.1 | — | — |\n");
    expect_row(t, "\n- *skill*: halved, within a tier: ff passes ee; "
                  "doubled, none.\n");
    assert_non_null(strstr(t, "\nThe first tier, ee and ff, is the same "
                              "with every unit halved or doubled.\n"));
    free(t);
}

/* What vw_first_tier_stopped prints (caller frees). */
static char *stopped_text(const kemet_measured *m, const kemet_judged *J,
                          const char *const *id, int n) {
    char *text = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&text, &len);
    assert_non_null(o);
    vw_first_tier_stopped(o, m, J, id, n, 1000);
    assert_int_equal(fclose(o), 0);
    return text;
}

/* x (tier 1) stopped 0.8% (0.6-1.2%): said, once though given twice (the
 * verdict of all and of its board); y (tier 1) stopped none; z stopped
 * 0.5% in tier 2; v in tier 1 but flagged: none of them said. With w
 * (tier 1, 0.6%) beside x, both, joined. */
static void stopped_in_the_first_tier(void **state) {
    (void)state;
    kemet_measured m[6];
    kemet_judged J[6];
    const char *id[6] = {"x", "y", "z", "v", "x", "w"};
    for (int i = 0; i < 6; i++) {
        m[i] = tu_good_figures();
        J[i] = (kemet_judged){.tier = 1};
    }
    m[0].c[KEMET_CRIT_STOPPED] = (kemet_stat){0.008, 0.006, 0.012};
    m[4] = m[0];
    m[2].c[KEMET_CRIT_STOPPED] = (kemet_stat){0.005, 0.003, 0.008};
    J[2].tier = 2;
    m[3].c[KEMET_CRIT_STOPPED] = (kemet_stat){0.004, 0.002, 0.007};
    J[3].flags = 1 << KEMET_CRIT_BALANCE;
    m[5].c[KEMET_CRIT_STOPPED] = (kemet_stat){0.006, 0.004, 0.009};
    char *t = stopped_text(m, J, id, 5);
    assert_string_equal(
        t, " Of the first tiers above, x leaves 0.8% (0.6–1.2%) of "
           "its games unfinished at the turn cap (1000 "
           "turns): games the rules did not end, too few to "
           "flag (the flag needs the whole interval above "
           "1.0%) but not none.");
    free(t);
    t = stopped_text(m, J, id, 6);
    assert_non_null(
        strstr(t, " Of the first tiers above, x leaves 0.8% (0.6–1.2%) "
                  "of its games unfinished at the turn cap (1000 "
                  "turns) and w 0.6% (0.4–0.9%): games"));
    free(t);
    t = stopped_text(m + 1, J + 1, id + 1, 3); /* y, z, v */
    assert_string_equal(t, "");
    free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_unit_reorders),
        cmocka_unit_test(a_unit_reorders_within_a_tier),
        cmocka_unit_test(stopped_in_the_first_tier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
