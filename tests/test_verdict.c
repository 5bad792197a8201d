/* test_verdict.c - the verdict and its statistics (kemet_verdict and the
 * functions beside it in kemet.h) on hand-made
 * figures, worked out by hand below: the stopping rule's sample size, the
 * median's order-statistic interval with lengths censored at the cap, the
 * luck share's ratio estimator, Kendall's tau-b, and the verdict itself:
 * a disqualifying criterion, ties, a figure exactly at its threshold, a
 * ruleset whose games the turn cap stops, a criterion that costs and
 * never flags. No game is played.
 */
#include "testutil.h"

#include <math.h>
#include <string.h>

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* s = 0.5 (a result of 0 or 1, even odds), h = 0.05 at z = 1.96:
 * (1.96 * 0.5 / 0.05)^2 = 19.6^2 = 384.16, so 385 games. */
static void stopping_rule(void **state) {
    (void)state;
    assert_int_equal(kemet_size_for_sd(1.96, 0.5, 0.05), 385);
    /* a pilot of 20 games with that spread: half-width 1.96 * 0.5 /
     * sqrt(20) = 0.21913; 20 * (0.21913 / 0.05)^2 = 384.16 -> 385 */
    double half = 1.96 * 0.5 / sqrt(20);
    assert_int_equal(kemet_precision_size(20, half, 0.05, 10000, 1), 385);
    /* paired games: a whole number of pairs, 386 */
    assert_int_equal(kemet_precision_size(20, half, 0.05, 10000, 2), 386);
    /* the cap stops it */
    assert_int_equal(kemet_precision_size(20, half, 0.05, 300, 2), 300);
    /* 40 games at +-0.1 for +-0.05: four times as many, 160 */
    assert_int_equal(kemet_precision_size(40, 0.1, 0.05, 10000, 2), 160);
    /* already within the target, or no spread at all: the pilot */
    assert_int_equal(kemet_precision_size(40, 0.04, 0.05, 10000, 2), 40);
    assert_int_equal(kemet_precision_size(40, 0, 0.05, 10000, 2), 40);
    assert_int_equal(kemet_precision_size(40, NAN, 0.05, 10000, 2), 40);
    /* a cap below the pilot: the cap */
    assert_int_equal(kemet_precision_size(40, 0.1, 0.05, 8, 2), 8);
}

/* The half-width a figure is sized for near a flag threshold, at h =
 * 0.05. A probe whose pilot scores 0.2, 0.2 from the threshold 0.4 (2h
 * or more): h itself. At 0.47, 0.07 from it: half that, 0.035, so a
 * pilot of 20 games at +-0.1 asks for 20 * (0.1 / 0.035)^2 = 163.27,
 * 164 games in pairs (without the threshold: 20 * (0.1 / 0.05)^2 = 80).
 * At 0.41, 0.01 from it: never below h / 4 = 0.0125, which asks for
 * 20 * 8^2 = 1280 games, so the cap. No threshold: h. */
static void decide_near_threshold(void **state) {
    (void)state;
    NEAR(kemet_decide_half(0.05, 0.2, 0.4), 0.05);
    NEAR(kemet_decide_half(0.05, 0.47, 0.4), 0.035);
    NEAR(kemet_decide_half(0.05, 0.33, 0.4), 0.035); /* below it alike */
    NEAR(kemet_decide_half(0.05, 0.41, 0.4), 0.0125);
    NEAR(kemet_decide_half(0.05, 0.4, 0.4), 0.0125);
    NEAR(kemet_decide_half(0.05, 0.2, NAN), 0.05);
    NEAR(kemet_decide_half(0.05, NAN, 0.4), 0.05);
    assert_int_equal(kemet_precision_size(
                         20, 0.1, kemet_decide_half(0.05, 0.47, 0.4), 10000, 2),
                     164);
    assert_int_equal(kemet_precision_size(20, 0.1, 0.05, 10000, 2), 80);
    assert_int_equal(kemet_precision_size(
                         20, 0.1, kemet_decide_half(0.05, 0.41, 0.4), 1000, 2),
                     1000);
    assert_int_equal(kemet_precision_size(
                         20, 0.1, kemet_decide_half(0.05, 0.41, 0.4), 2000, 2),
                     1280);
}

/* 100 lengths 1..100: the median 50.5, its interval the 40th and 61st
 * values (n/2 - 9.8 = 40.2 -> 40; 1 + n/2 + 9.8 = 60.8 -> 61), as the
 * binomial tables give for n = 100. */
static void median_interval(void **state) {
    (void)state;
    double x[100];
    for (int i = 0; i < 100; i++)
        x[i] = 100 - i; /* out of order */
    kemet_stat s = kemet_median_ci(x, 100, 1000);
    NEAR(s.value, 50.5);
    NEAR(s.lo, 40);
    NEAR(s.hi, 61);
    /* games stopped at a cap of 60 turns: lengths 60..100 are censored;
     * the median still stands, its upper end is beyond the cap */
    s = kemet_median_ci(x, 100, 60);
    NEAR(s.value, 50.5);
    NEAR(s.lo, 40);
    assert_true(isinf(s.hi));
    /* a cap of 50: half the games stopped, the median itself unknown */
    s = kemet_median_ci(x, 100, 50);
    assert_true(isinf(s.value));
    NEAR(s.lo, 40);
}

/* luck 0.1, -0.1, 0.2, -0.2 and results 1, 0, 1, 0: skill = result -
 * luck = 0.9, 0.1, 0.8, 0.2 (mean 0.5); squared deviations of the luck
 * 0.01, 0.01, 0.04, 0.04 (sum 0.1), of the skill 0.16, 0.16, 0.09, 0.09
 * (sum 0.5): the share 0.1 / 0.6 = 1/6. */
static void luck_share(void **state) {
    (void)state;
    double res[4] = {1, 0, 1, 0}, luck[4] = {0.1, -0.1, 0.2, -0.2};
    kemet_stat s = kemet_luck_share_ci(res, luck, 4, 1);
    NEAR(s.value, 1.0 / 6);
    NEAR(s.value, kemet_luck_share(res, luck, 4));
    /* a_i - R b_i: 0.01 - 0.17/6 twice, 0.04 - 0.13/6 twice; the sum of
     * squares over n (n - 1) = 12, its root times 1.96 over mean b 0.15 */
    double r1 = 0.01 - 0.17 / 6, r2 = 0.04 - 0.13 / 6;
    double half = 1.96 * sqrt((2 * r1 * r1 + 2 * r2 * r2) / 12) / 0.15;
    NEAR(s.lo, 1.0 / 6 - half);
    NEAR(s.hi, 1.0 / 6 + half);
    /* as two pairs: a = 0.02, 0.08 and b = 0.34, 0.26; the same share,
     * the residuals 0.02 - 0.34/6 and 0.08 - 0.26/6 over 2 * 1, mean b
     * 0.3 */
    s = kemet_luck_share_ci(res, luck, 4, 2);
    NEAR(s.value, 1.0 / 6);
    double p1 = 0.02 - 0.34 / 6, p2 = 0.08 - 0.26 / 6;
    half = 1.96 * sqrt((p1 * p1 + p2 * p2) / 2) / 0.3;
    NEAR(s.lo, fmax(0, 1.0 / 6 - half));
    NEAR(s.hi, 1.0 / 6 + half);
}

static void tau_b(void **state) {
    (void)state;
    long opp;
    /* one pair swapped of six: (5 - 1) / 6 */
    double a[4] = {1, 2, 3, 4}, b[4] = {1, 3, 2, 4};
    NEAR(kemet_tau_b(a, b, 4, &opp), 4.0 / 6);
    assert_int_equal(opp, 1);
    /* ties in one ranking: 4 concordant, 0 discordant, 2 pairs tied in
     * a: 4 / sqrt((6 - 2) * 6) */
    double t[4] = {1, 1, 2, 2};
    NEAR(kemet_tau_b(t, a, 4, &opp), 4 / sqrt(24));
    assert_int_equal(opp, 0);
    NEAR(kemet_tau_b(a, a, 4, NULL), 1);
}

/* Ties are tiers, cut only at a gap between penalty ranges. A costs
 * nothing. B's skill 0.20 (0.15-0.25) costs 0.5 (0 to 1.0): its range
 * reaches A's. C's 0.12 (0.08-0.16) costs 1.3 (0.9 to 1.7): it does not
 * reach A's, but it overlaps B's, so A, B and C are one tier (the
 * leader's-interval rule made C a tier of its own, since C's range
 * misses A's, the leader). D's 0.03 (0.022-0.038) costs 2.2 (2.12 to
 * 2.28): above a gap (every range before it ends by 1.7), so the next
 * tier. E's 0.021 (0.0205-0.022) costs 2.29 (2.28 to 2.295): its range
 * starts exactly where D's ends, which is an overlap: D's tier. */
static void ties_are_tiers(void **state) {
    (void)state;
    kemet_measured m[5] = {tu_good_figures(), tu_good_figures(),
                           tu_good_figures(), tu_good_figures(),
                           tu_good_figures()};
    kemet_judged j[6];
    int ord[6];
    m[1].c[KEMET_CRIT_SKILL] = (kemet_stat){0.20, 0.15, 0.25};
    m[2].c[KEMET_CRIT_SKILL] = (kemet_stat){0.12, 0.08, 0.16};
    m[3].c[KEMET_CRIT_SKILL] = (kemet_stat){0.03, 0.022, 0.038};
    m[4].c[KEMET_CRIT_SKILL] = (kemet_stat){0.021, 0.0205, 0.022};
    assert_int_equal(kemet_verdict(m, 5, -1, j, ord), 2);
    for (int k = 0; k < 5; k++)
        assert_int_equal(ord[k], k);
    NEAR(j[1].penalty.value, 0.5);
    NEAR(j[1].penalty.lo, 0);
    NEAR(j[1].penalty.hi, 1.0);
    NEAR(j[2].penalty.value, 1.3);
    NEAR(j[2].penalty.lo, 0.9);
    NEAR(j[2].penalty.hi, 1.7);
    NEAR(j[3].penalty.lo, 2.12);
    NEAR(j[4].penalty.lo, j[3].penalty.hi);
    int tier[5] = {1, 1, 1, 2, 2};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(j[i].tier, tier[i]);
        assert_int_equal(j[i].flags, 0);
    }
    /* the order of the input does not change a ruleset's tier */
    kemet_measured r[5] = {m[4], m[2], m[0], m[3], m[1]};
    int was[5] = {4, 2, 0, 3, 1};
    assert_int_equal(kemet_verdict(r, 5, -1, j, ord), 2);
    for (int i = 0; i < 5; i++)
        assert_int_equal(j[i].tier, tier[was[i]]);
    /* without C, the chain is broken: A and B, then D and E */
    kemet_measured w[4] = {m[0], m[1], m[3], m[4]};
    assert_int_equal(kemet_verdict(w, 4, -1, j, ord), 2);
    assert_int_equal(j[1].tier, 1);
    assert_int_equal(j[2].tier, 2);
    /* a wide range holds up the cut after it: F's skill 0.15 (0-0.30)
     * costs 1.0 (0 to 2.5), which reaches D's range, though A's, B's
     * and C's do not: one tier */
    kemet_measured f[6] = {m[0], m[1], m[2], m[3], m[4], tu_good_figures()};
    f[5].c[KEMET_CRIT_SKILL] = (kemet_stat){0.15, 0.0, 0.30};
    assert_int_equal(kemet_verdict(f, 6, -1, j, ord), 1);
}

/* The penalty's range combines the costs' ranges as independent
 * errors. H's skill 0.20 (0.15-0.25) costs 0.5 (0 to 1.0) and its
 * balance 0.58 (0.55-0.61) costs 0.6 (0 to 1.2): the penalty 1.1 reaches
 * sqrt(0.5^2 + 0.6^2) = sqrt(0.61) = 0.78102 below and above, 0.31898
 * to 1.88102 (the sum of the ranges, 0 to 2.2, would need both figures
 * at their worst ends at once). I's skill 0.05 (0.045-0.055) costs 2.0
 * (1.95 to 2.05): above H's range, so the next tier; the ranges summed,
 * it would have been H's. */
static void penalty_range(void **state) {
    (void)state;
    kemet_measured m[2] = {tu_good_figures(), tu_good_figures()};
    m[0].c[KEMET_CRIT_SKILL] = (kemet_stat){0.20, 0.15, 0.25};
    m[0].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.58, 0.55, 0.61};
    m[1].c[KEMET_CRIT_SKILL] = (kemet_stat){0.05, 0.045, 0.055};
    kemet_judged j[2];
    int ord[2];
    assert_int_equal(kemet_verdict(m, 2, -1, j, ord), 2);
    NEAR(j[0].penalty.value, 1.1);
    NEAR(j[0].penalty.lo, 1.1 - sqrt(0.61));
    NEAR(j[0].penalty.hi, 1.1 + sqrt(0.61));
    NEAR(j[1].penalty.lo, 1.95);
    NEAR(j[1].penalty.hi, 2.05);
    assert_int_equal(j[0].tier, 1);
    assert_int_equal(j[1].tier, 2);
    /* leaving the balance out, H costs 0.5 (0 to 1.0) */
    kemet_verdict(m, 2, KEMET_CRIT_BALANCE, j, ord);
    NEAR(j[0].penalty.lo, 0);
    NEAR(j[0].penalty.hi, 1.0);
}

/* D is perfect but for its length: its median game lasts 4 turns (3 to
 * 5, wholly under 10): flagged, and ranked after E, which is worse on
 * three criteria but flagged on none. A mean of ranks would put D
 * first. */
static void disqualifying_criterion(void **state) {
    (void)state;
    kemet_measured m[2] = {tu_good_figures(), tu_good_figures()};
    m[0].c[KEMET_CRIT_LENGTH] = (kemet_stat){4, 3, 5};
    m[1].c[KEMET_CRIT_SKILL] = (kemet_stat){0.1, 0.05, 0.15};
    m[1].c[KEMET_CRIT_TENSION] = (kemet_stat){0.03, 0.02, 0.04};
    m[1].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.6, 0.58, 0.62};
    kemet_judged j[2];
    int ord[2];
    assert_int_equal(kemet_verdict(m, 2, -1, j, ord), 2);
    assert_int_equal(j[0].flags, 1 << KEMET_CRIT_LENGTH);
    assert_int_equal(j[1].flags, 0);
    assert_int_equal(ord[0], 1);
    assert_int_equal(ord[1], 0);
    assert_true(j[0].penalty.value < j[1].penalty.value);
    assert_true(j[0].tier > j[1].tier);
    /* leaving the length out, D is unflagged and first */
    assert_int_equal(kemet_verdict(m, 2, KEMET_CRIT_LENGTH, j, ord), 2);
    assert_int_equal(j[0].flags, 0);
    assert_int_equal(ord[0], 0);
}

/* A flag needs the whole interval strictly past its threshold: a probe
 * whose interval starts at 0.4 exactly is not flagged, one a hair above
 * is; a median whose interval ends at 10 turns exactly is not. */
static void flag_at_threshold(void **state) {
    (void)state;
    kemet_stat at = {0.45, 0.4, 0.5}, past = {0.45, nextafter(0.4, 1), 0.5};
    assert_false(kemet_criterion_flag(KEMET_CRIT_PROBES, &at));
    assert_true(kemet_criterion_flag(KEMET_CRIT_PROBES, &past));
    kemet_stat len = {8, 6, 10}, shorter = {8, 6, nextafter(10, 0)};
    assert_false(kemet_criterion_flag(KEMET_CRIT_LENGTH, &len));
    assert_true(kemet_criterion_flag(KEMET_CRIT_LENGTH, &shorter));
    /* balance: flagged beyond 0.35..0.65 on either side */
    kemet_stat lo = {0.3, 0.25, 0.35}, hi = {0.7, 0.66, 0.74};
    assert_false(kemet_criterion_flag(KEMET_CRIT_BALANCE, &lo));
    assert_true(kemet_criterion_flag(KEMET_CRIT_BALANCE, &hi));
    kemet_measured m[2] = {tu_good_figures(), tu_good_figures()};
    m[0].c[KEMET_CRIT_PROBES] = at;
    m[1].c[KEMET_CRIT_PROBES] = past;
    kemet_judged j[2];
    int ord[2];
    kemet_verdict(m, 2, -1, j, ord);
    assert_int_equal(j[0].flags, 0);
    assert_int_equal(j[1].flags, 1 << KEMET_CRIT_PROBES);
    assert_int_equal(ord[0], 0);
}

/* F's games are stopped by the turn cap in 2% to 10% of cases: flagged,
 * its own criterion; its median length's interval runs past the cap
 * (infinite), so its cost's range is unbounded, and nothing breaks. G
 * stops 0.4% (0.1%-1.2%): its interval reaches past 1% but does not lie
 * wholly beyond it, so G is not flagged. The stopped share is a flag and
 * no cost. */
static void cap_stopped(void **state) {
    (void)state;
    kemet_measured m[3] = {tu_good_figures(), tu_good_figures(),
                           tu_good_figures()};
    m[0].c[KEMET_CRIT_STOPPED] = (kemet_stat){0.05, 0.02, 0.1};
    m[0].c[KEMET_CRIT_LENGTH] = (kemet_stat){400, 300, INFINITY};
    m[1].c[KEMET_CRIT_STOPPED] = (kemet_stat){0.004, 0.001, 0.012};
    m[2].c[KEMET_CRIT_SKILL] = (kemet_stat){0.05, 0.03, 0.07};
    kemet_judged j[3];
    int ord[3];
    kemet_verdict(m, 3, -1, j, ord);
    assert_int_equal(j[0].flags, 1 << KEMET_CRIT_STOPPED);
    assert_true(isinf(j[0].penalty.hi));
    assert_int_equal(j[1].flags, 0);
    assert_int_equal(j[2].flags, 0);
    assert_int_equal(ord[2], 0);
    assert_true(j[0].tier > j[2].tier && j[0].tier > j[1].tier);
    /* the stopped share is a flag only: it costs nothing */
    NEAR(j[1].penalty.value, 0);
    NEAR(j[1].penalty.hi, 0);
    NEAR(j[0].cost[KEMET_CRIT_STOPPED].hi, 0);
}

/* The same three, as the report's weakest points count them: F (the
 * stopped share flagged) has a penalty of 0, below both unflagged ones
 * (0 for the good one is not above it; 1.0 for the unskilled one is), so
 * the flag alone ranks it after 1 of the 2 unflagged. With a penalty above
 * both, none; an unflagged ruleset is never counted. */
static void flag_outranks(void **state) {
    (void)state;
    kemet_measured m[3] = {tu_good_figures(), tu_good_figures(),
                           tu_good_figures()};
    m[0].c[KEMET_CRIT_STOPPED] = (kemet_stat){0.05, 0.02, 0.1};
    m[2].c[KEMET_CRIT_SKILL] = (kemet_stat){0.15, 0.10, 0.20};
    kemet_judged j[3];
    int ord[3], clean = -1;
    kemet_verdict(m, 3, -1, j, ord);
    assert_int_equal(j[0].flags, 1 << KEMET_CRIT_STOPPED);
    NEAR(j[0].penalty.value, 0);
    NEAR(j[2].penalty.value, 1.0);
    assert_int_equal(ord[2], 0);
    assert_int_equal(kemet_verdict_outranks(j, 3, 0, &clean), 1);
    assert_int_equal(clean, 2);
    assert_int_equal(kemet_verdict_outranks(j, 3, 1, NULL), 0);
    assert_int_equal(kemet_verdict_outranks(j, 3, 2, NULL), 0);
    m[0].c[KEMET_CRIT_SKILL] = (kemet_stat){0.05, 0.03, 0.07};
    kemet_verdict(m, 3, -1, j, ord);
    assert_true(j[0].penalty.value > 1.0);
    assert_int_equal(kemet_verdict_outranks(j, 3, 0, NULL), 0);
}

/* K's strong self-play is stopped by the cap more often than not, so
 * its median length lies beyond the cap: 1000+ (300 to beyond). Its
 * length costs infinity, and so does its penalty; the penalty's low end
 * is the finite costs' low end, its skill 0.20 (0.15-0.25) reaching 0.5
 * below its 0.5, plus the length's low end, log2(300 / 150) = 1 doubling:
 * 1.0, and no NaN anywhere. Flagged for the stopped share, K ranks after
 * L, flagged alike with a finite penalty. Unflagged, a median beyond the
 * cap ranks after every finite penalty, and its range takes its part in
 * the tiers. */
static void median_beyond_cap(void **state) {
    (void)state;
    kemet_measured m[3] = {tu_good_figures(), tu_good_figures(),
                           tu_good_figures()};
    m[0].c[KEMET_CRIT_LENGTH] = (kemet_stat){INFINITY, 300, INFINITY};
    m[0].c[KEMET_CRIT_SKILL] = (kemet_stat){0.20, 0.15, 0.25};
    m[0].c[KEMET_CRIT_STOPPED] = (kemet_stat){0.6, 0.5, 0.7};
    m[1].c[KEMET_CRIT_STOPPED] = (kemet_stat){0.05, 0.02, 0.1};
    m[1].c[KEMET_CRIT_SKILL] = (kemet_stat){0.05, 0.045, 0.055};
    kemet_judged j[3];
    int ord[3];
    assert_int_equal(kemet_verdict(m, 3, -1, j, ord), 2);
    assert_true(isinf(j[0].cost[KEMET_CRIT_LENGTH].value));
    assert_true(isinf(j[0].penalty.value) && j[0].penalty.value > 0);
    assert_true(isinf(j[0].penalty.hi) && j[0].penalty.hi > 0);
    NEAR(j[0].penalty.lo, 1.0);
    assert_int_equal(j[0].flags, 1 << KEMET_CRIT_STOPPED);
    assert_int_equal(j[1].flags, 1 << KEMET_CRIT_STOPPED);
    assert_int_equal(ord[0], 2);
    assert_int_equal(ord[1], 1);
    assert_int_equal(ord[2], 0);
    /* unflagged: last, and the tiers see its range start at 1.0, above
     * the good ruleset's 0 to 0 but reaching L's skill cost of 2.0 (1.95
     * to 2.05): K is in L's tier */
    m[0].c[KEMET_CRIT_STOPPED] = (kemet_stat){0, 0, 0.004};
    m[1].c[KEMET_CRIT_STOPPED] = (kemet_stat){0, 0, 0.004};
    assert_int_equal(kemet_verdict(m, 3, -1, j, ord), 2);
    assert_int_equal(j[0].flags, 0);
    assert_int_equal(ord[2], 0);
    assert_false(isnan(j[0].penalty.lo));
    assert_int_equal(j[2].tier, 1);
    assert_int_equal(j[1].tier, 2);
    assert_int_equal(j[0].tier, 2);
}

/* The skill criterion (the share of games the strong agent's better
 * choices decide) costs and never flags: at 0 (0-0), where search
 * finds nothing over one move ahead, it costs (0.25 - 0) / 0.1 = 2.5
 * units, and M stays among the unflagged, after N, which costs
 * nothing. */
static void skill_costs_never_flags(void **state) {
    (void)state;
    kemet_stat none = {0, 0, 0};
    assert_false(kemet_criterion_flag(KEMET_CRIT_SKILL, &none));
    kemet_measured m[2] = {tu_good_figures(), tu_good_figures()};
    m[0].c[KEMET_CRIT_SKILL] = none;
    kemet_judged j[2];
    int ord[2];
    assert_int_equal(kemet_verdict(m, 2, -1, j, ord), 2);
    assert_int_equal(j[0].flags, 0);
    NEAR(j[0].cost[KEMET_CRIT_SKILL].value, 2.5);
    NEAR(j[0].penalty.lo, 2.5);
    assert_int_equal(ord[0], 1);
    assert_int_equal(j[0].tier, 2);
}

/* What one rule does: a change's effect on each criterion against the
 * base's figures, worked by hand. Base: tu_good_figures(). The change halves
 * the skill to 0.1 (0.08-0.12) and doubles the length to 120 (110-131): skill:
 * -0.3, reaching down by sqrt(0.02^2 + 0.05^2) = 0.05385 (the changed figure's
 * lower reach, the base's upper), up by the same; length, in doublings:
 * log2(120/60) = 1, down by sqrt(log2(120/110)^2 + log2(66/60)^2) =
 * sqrt(0.12553^2 + 0.13750^2) = 0.18618, up by sqrt(log2(131/120)^2 +
 * log2(60/55)^2) = sqrt(0.12653^2 + 0.12553^2) = 0.17823; balance, the same
 * figure: 0, not moved; penalty: 0 (0 to 0) before, 1.5 (1.3 to 1.7) after: up
 * by 1.5, beyond sqrt(0^2 + 0.2^2) = 0.2. */
static void change_effects(void **state) {
    (void)state;
    kemet_measured base = tu_good_figures(), now = tu_good_figures();
    now.c[KEMET_CRIT_SKILL] = (kemet_stat){0.1, 0.08, 0.12};
    now.c[KEMET_CRIT_LENGTH] = (kemet_stat){120, 110, 131};
    kemet_change_effect e;
    assert_int_equal(kemet_change_effects(&base, &now, &e), KEMET_OK);
    const kemet_effect *k = &e.c[KEMET_CRIT_SKILL];
    NEAR(k->diff, -0.3);
    assert_true(fabs(k->lo - (-0.3 - 0.053852)) < 1e-5);
    assert_true(fabs(k->hi - (-0.3 + 0.053852)) < 1e-5);
    assert_int_equal(k->moves, 1);
    k = &e.c[KEMET_CRIT_LENGTH];
    NEAR(k->diff, 1);
    assert_true(fabs(k->lo - (1 - 0.18618)) < 1e-4);
    assert_true(fabs(k->hi - (1 + 0.17823)) < 1e-4);
    assert_int_equal(k->moves, 1);
    k = &e.c[KEMET_CRIT_BALANCE];
    NEAR(k->diff, 0);
    assert_int_equal(k->moves, 0);
    NEAR(e.penalty_was.value, 0);
    NEAR(e.penalty_now.value, 1.5);
    assert_int_equal(e.penalty_moves, 1);
    assert_int_equal(e.flags_was | e.flags_now, 0);
    /* a skill of 0.2 (0.15-0.25) costs 0.5 (0 to 1.0): a rise of 0.5
       exactly at its reach is not beyond it */
    now = tu_good_figures();
    now.c[KEMET_CRIT_SKILL] = (kemet_stat){0.2, 0.15, 0.25};
    kemet_change_effects(&base, &now, &e);
    assert_int_equal(e.penalty_moves, 0);
    assert_int_equal(e.c[KEMET_CRIT_SKILL].moves, 1);
    /* an overlap of the two intervals may still move: 0.4 (0.35-0.45)
       against 0.47 (0.44-0.50) differs by 0.07 > sqrt(0.03^2 + 0.05^2)
       = 0.058 */
    now.c[KEMET_CRIT_SKILL] = (kemet_stat){0.47, 0.44, 0.50};
    kemet_change_effects(&base, &now, &e);
    assert_int_equal(e.c[KEMET_CRIT_SKILL].moves, 1);
    /* and one a little larger than either reach need not: 0.45
       (0.40-0.50) differs by 0.05 < sqrt(0.05^2 + 0.05^2) */
    now.c[KEMET_CRIT_SKILL] = (kemet_stat){0.45, 0.40, 0.50};
    kemet_change_effects(&base, &now, &e);
    assert_int_equal(e.c[KEMET_CRIT_SKILL].moves, 0);
    /* a median beyond the turn cap has no difference */
    now = tu_good_figures();
    now.c[KEMET_CRIT_LENGTH] = (kemet_stat){INFINITY, 900, INFINITY};
    kemet_change_effects(&base, &now, &e);
    assert_true(isnan(e.c[KEMET_CRIT_LENGTH].diff));
    assert_int_equal(e.c[KEMET_CRIT_LENGTH].moves, 0);
    assert_int_equal(e.c[KEMET_CRIT_LENGTH].flag_now, 1);
    assert_int_equal(e.penalty_moves, 1);
    assert_int_equal(kemet_change_effects(NULL, &now, &e), KEMET_EMISUSE);
}

/* Which change explains a flag. Player 1 scores 0.72 (0.70-0.74), past
 * 0.65: flagged. Change 0 brings it to 0.60 (0.57-0.63), change 1 to
 * 0.50 (0.47-0.53), change 2 to 0.70 (0.68-0.72), still flagged: change
 * 1 clears it furthest. At 0.80 (0.78-0.82) with changes to 0.70
 * (0.68-0.72), 0.75 (0.73-0.77) and 0.85: none clears it alone; the
 * first two move it toward 0.65, the first the more: a combination. A
 * flag from below: 0.2 real decisions a turn (0.15-0.24), under 0.25,
 * cleared by a change to 0.5 (0.45-0.55), not by one to 0.1. */
static void explain_flag(void **state) {
    (void)state;
    kemet_measured base = tu_good_figures(),
                   ch[3] = {tu_good_figures(), tu_good_figures(),
                            tu_good_figures()};
    kemet_change_effect e[3];
    int second = 99;
    base.c[KEMET_CRIT_BALANCE] = (kemet_stat){0.72, 0.70, 0.74};
    ch[0].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.60, 0.57, 0.63};
    ch[1].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.50, 0.47, 0.53};
    ch[2].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.70, 0.68, 0.72};
    for (int i = 0; i < 3; i++)
        kemet_change_effects(&base, &ch[i], &e[i]);
    assert_int_equal(
        kemet_explain_flag(&base, e, 3, KEMET_CRIT_BALANCE, &second), 1);
    assert_int_equal(second, -1);
    /* the skill is not flagged: nothing to explain */
    assert_int_equal(kemet_explain_flag(&base, e, 3, KEMET_CRIT_SKILL, NULL),
                     -1);
    base.c[KEMET_CRIT_BALANCE] = (kemet_stat){0.80, 0.78, 0.82};
    ch[0].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.70, 0.68, 0.72};
    ch[1].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.75, 0.73, 0.77};
    ch[2].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.85, 0.83, 0.87};
    for (int i = 0; i < 3; i++)
        kemet_change_effects(&base, &ch[i], &e[i]);
    assert_int_equal(
        kemet_explain_flag(&base, e, 3, KEMET_CRIT_BALANCE, &second), 0);
    assert_int_equal(second, 1);
    assert_int_equal(kemet_explain_flag(&base, e, 3, KEMET_CRIT_BALANCE, NULL),
                     -1);
    /* only one moves it toward clearing: no combination either */
    assert_int_equal(
        kemet_explain_flag(&base, &e[1], 2, KEMET_CRIT_BALANCE, &second), -1);
    assert_int_equal(second, -1);
    base = tu_good_figures();
    base.c[KEMET_CRIT_DECISIONS] = (kemet_stat){0.2, 0.15, 0.24};
    ch[0] = tu_good_figures();
    ch[0].c[KEMET_CRIT_DECISIONS] = (kemet_stat){0.1, 0.08, 0.12};
    ch[1] = tu_good_figures();
    ch[1].c[KEMET_CRIT_DECISIONS] = (kemet_stat){0.5, 0.45, 0.55};
    for (int i = 0; i < 2; i++)
        kemet_change_effects(&base, &ch[i], &e[i]);
    assert_int_equal(
        kemet_explain_flag(&base, e, 2, KEMET_CRIT_DECISIONS, &second), 1);
    assert_int_equal(kemet_explain_flag(&base, e, 2, -1, NULL), KEMET_EMISUSE);
}

/* Which change explains a standing: the one that costs the reading most.
 * Base tu_good_figures() costs nothing. Change 0 halves the skill to 0.1
 * (0.08-0.12): 1.5 more; change 1 gives player 1 0.70 (0.68-0.72): a
 * new flag, which outranks any rise of the penalty (it costs 3
 * besides); change 2 moves the tension within its band: no cost. */
static void explain_standing(void **state) {
    (void)state;
    kemet_measured base = tu_good_figures(),
                   ch[3] = {tu_good_figures(), tu_good_figures(),
                            tu_good_figures()};
    ch[0].c[KEMET_CRIT_SKILL] = (kemet_stat){0.1, 0.08, 0.12};
    ch[1].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.70, 0.68, 0.72};
    ch[2].c[KEMET_CRIT_TENSION] = (kemet_stat){0.2, 0.19, 0.21};
    kemet_change_effect e[3];
    for (int i = 0; i < 3; i++)
        kemet_change_effects(&base, &ch[i], &e[i]);
    assert_int_equal(e[1].flags_now, 1 << KEMET_CRIT_BALANCE);
    assert_int_equal(kemet_explain_standing(e, 3), 1);
    assert_int_equal(kemet_explain_standing(e, 1), 0);
    assert_int_equal(kemet_explain_standing(&e[2], 1), -1);
    assert_int_equal(kemet_explain_standing(NULL, 1), KEMET_EMISUSE);
}

/* The units varied: A's skill 0.20 costs (0.25 - 0.20) / 0.1 = 0.5, B's
 * balance 0.58 costs (0.58 - 0.55) / 0.05 = 0.6, so A comes first; with
 * the balance's unit doubled B's costs 0.3 and B comes first; with the
 * skill's halved A's costs 1.0. */
static void units_varied(void **state) {
    (void)state;
    kemet_measured m[2] = {tu_good_figures(), tu_good_figures()};
    m[0].c[KEMET_CRIT_SKILL] = (kemet_stat){0.20, 0.199, 0.201};
    m[1].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.58, 0.579, 0.581};
    kemet_judged j[2];
    int ord[2];
    double scale[KEMET_CRITERIA];
    for (int c = 0; c < KEMET_CRITERIA; c++)
        scale[c] = 1;
    assert_int_equal(kemet_verdict_units(m, 2, -1, scale, j, ord), 2);
    NEAR(j[0].penalty.value, 0.5);
    NEAR(j[1].penalty.value, 0.6);
    assert_int_equal(ord[0], 0);
    scale[KEMET_CRIT_BALANCE] = 2;
    kemet_verdict_units(m, 2, -1, scale, j, ord);
    NEAR(j[1].penalty.value, 0.3);
    assert_int_equal(ord[0], 1);
    scale[KEMET_CRIT_BALANCE] = 1;
    scale[KEMET_CRIT_SKILL] = 0.5;
    kemet_verdict_units(m, 2, -1, scale, j, ord);
    NEAR(j[0].penalty.value, 1.0);
    scale[KEMET_CRIT_SKILL] = 0;
    assert_int_equal(kemet_verdict_units(m, 2, -1, scale, j, ord),
                     KEMET_EMISUSE);
    scale[KEMET_CRIT_SKILL] = INFINITY;
    assert_int_equal(kemet_verdict_units(m, 2, -1, scale, j, ord),
                     KEMET_EMISUSE);
}

/* A figure from fewer than 100 games, which the stopping rule leaves so
 * only where the cap stops it: an indication, with no cost and no flag.
 * B's skill 0.04 (0.03-0.06) from 36 games would cost (0.25 - 0.04) /
 * 0.1 = 2.1; from 100 games it does; C's balance 0.80 (0.78-0.82) from
 * 50 games would be flagged; from an unknown number of games (0) it is. */
static void indication_costs_nothing(void **state) {
    (void)state;
    kemet_measured m[3] = {tu_good_figures(), tu_good_figures(),
                           tu_good_figures()};
    m[1].c[KEMET_CRIT_SKILL] = (kemet_stat){0.04, 0.03, 0.06};
    m[1].games[KEMET_CRIT_SKILL] = 36;
    m[2].c[KEMET_CRIT_BALANCE] = (kemet_stat){0.80, 0.78, 0.82};
    m[2].games[KEMET_CRIT_BALANCE] = 50;
    kemet_judged J[3];
    int ord[3];
    assert_int_equal(kemet_verdict(m, 3, -1, J, ord), 1);
    assert_int_equal(J[1].indications, 1 << KEMET_CRIT_SKILL);
    assert_true(J[1].cost[KEMET_CRIT_SKILL].value == 0 &&
                J[1].cost[KEMET_CRIT_SKILL].hi == 0);
    assert_true(J[1].penalty.value == 0 && J[1].penalty.hi == 0);
    assert_int_equal(J[2].flags, 0);
    assert_int_equal(J[2].indications, 1 << KEMET_CRIT_BALANCE);
    assert_int_equal(J[0].indications, 0);
    assert_int_equal(kemet_measured_indication(&m[1], KEMET_CRIT_SKILL), 1);
    assert_int_equal(kemet_measured_indication(&m[1], KEMET_CRIT_LENGTH), 0);
    assert_int_equal(kemet_measured_indication(&m[1], KEMET_CRITERIA), 0);
    assert_int_equal(kemet_measured_indication(NULL, 0), 0);
    m[1].games[KEMET_CRIT_SKILL] = 100;
    m[2].games[KEMET_CRIT_BALANCE] = 0;
    assert_int_equal(kemet_verdict(m, 3, -1, J, ord), 3);
    assert_int_equal(J[1].indications, 0);
    assert_true(fabs(J[1].cost[KEMET_CRIT_SKILL].value - 2.1) < 1e-9);
    assert_int_equal(J[2].flags, 1 << KEMET_CRIT_BALANCE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stopping_rule),
        cmocka_unit_test(decide_near_threshold),
        cmocka_unit_test(median_interval),
        cmocka_unit_test(luck_share),
        cmocka_unit_test(tau_b),
        cmocka_unit_test(ties_are_tiers),
        cmocka_unit_test(penalty_range),
        cmocka_unit_test(disqualifying_criterion),
        cmocka_unit_test(flag_at_threshold),
        cmocka_unit_test(cap_stopped),
        cmocka_unit_test(flag_outranks),
        cmocka_unit_test(median_beyond_cap),
        cmocka_unit_test(skill_costs_never_flags),
        cmocka_unit_test(change_effects),
        cmocka_unit_test(explain_flag),
        cmocka_unit_test(explain_standing),
        cmocka_unit_test(units_varied),
        cmocka_unit_test(indication_costs_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
