/* verdict.c - the verdict on readings measured as games (docs/analysis.md),
 * made from their figures alone (so that it can be tested on hand-made
 * figures), and the statistics behind those measurements: the stopping
 * rule that sizes each sample, and the intervals of a median, a ratio and
 * the luck share.
 *
 * The verdict (docs/analysis.md, "The criteria of the verdict"):
 *   - each criterion has a band, where it costs nothing, and a unit: a
 *     figure outside its band costs its distance from the band in units
 *     (length in doublings); the costs are summed into a penalty; each
 *     cost has a range, while its figure stays within its 95% interval,
 *     and the penalty's range combines them as independent errors: its
 *     distance below the penalty the root of the sum of the squared
 *     distances below each cost, and likewise above (the sum of the
 *     ranges themselves, the range were every figure at its worst end
 *     at once, is far wider than 95%, and it chained every ruleset into
 *     one tier);
 *   - a criterion may also have a flag threshold: a ruleset is flagged
 *     (disqualified) only when the figure's whole interval lies strictly
 *     past it; every flagged ruleset ranks after every unflagged one, in
 *     a tier of its own;
 *   - a figure from fewer than KEMET_STUDY_LEAST games (the stopping
 *     rule grows every sample to that many unless the cap stops it
 *     first) is an indication: it neither costs nor flags;
 *   - the unflagged rulesets are sorted by penalty and cut into tiers
 *     where the penalty ranges leave a gap: a cut falls between two
 *     places only where every range before it ends below every range
 *     after it, so two rulesets in different tiers have ranges that do
 *     not overlap, and a chain of overlapping ranges is one tier (the
 *     connected parts of the ranges' union). Within a tier the order is
 *     not a finding.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * The stopping rule
 * --------------------------------------------------------------------- */

long kemet_precision_size(long pilot, double pilot_half, double target,
                          long cap, long step) {
    if (step < 1)
        step = 1;
    if (cap < pilot)
        return cap;
    if (!(pilot_half > target) || !(target > 0))
        return pilot; /* there already, or nothing to estimate */
    double r = pilot_half / target;
    double want = ceil((double)pilot * r * r - 1e-9);
    if (!(want < (double)cap))
        return cap;
    long n = (long)want;
    n = (n + step - 1) / step * step;
    return n > cap ? cap : n < pilot ? pilot : n;
}

double kemet_decide_half(double h, double est, double thr) {
    if (isnan(thr) || isnan(est) || isinf(est))
        return h;
    return fmin(h, fmax(fabs(est - thr) / 2, h / 4));
}

long kemet_size_for_sd(double z, double sd, double half) {
    if (!(sd > 0) || !(half > 0))
        return 0;
    double n = z * sd / half;
    return (long)ceil(n * n - 1e-9);
}

/* ------------------------------------------------------------------------
 * Intervals
 * --------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

kemet_stat kemet_median_ci(const double *x, long n, double cap) {
    kemet_stat s = {NAN, NAN, NAN};
    if (n < 1 || !x)
        return s;
    double *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return s;
    for (long i = 0; i < n; i++)
        v[i] = x[i] >= cap ? INFINITY : x[i];
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    s.value = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    double h = 1.96 * sqrt((double)n) / 2;
    long lo = lround((double)n / 2 - h), hi = lround(1 + (double)n / 2 + h);
    lo = lo < 1 ? 1 : lo;
    hi = hi > n ? n : hi;
    s.lo = v[lo - 1];
    s.hi = v[hi - 1];
    free(v);
    return s;
}

kemet_stat kemet_ratio_ci(const double *a, const double *b, long n) {
    kemet_stat s = {NAN, NAN, NAN};
    double sa = 0, sb = 0;
    if (!a || !b)
        return s;
    for (long i = 0; i < n; i++) {
        sa += a[i];
        sb += b[i];
    }
    if (n < 1 || sb <= 0)
        return s;
    s.value = sa / sb;
    if (n < 2)
        return s;
    double ss = 0;
    for (long i = 0; i < n; i++) {
        double r = a[i] - s.value * b[i];
        ss += r * r;
    }
    double half =
        1.96 * sqrt(ss / ((double)n * (double)(n - 1))) / (sb / (double)n);
    s.lo = s.value - half;
    s.hi = s.value + half;
    return s;
}

kemet_stat kemet_luck_share_ci(const double *result, const double *luck, long n,
                               int per) {
    kemet_stat s = {NAN, NAN, NAN};
    if (per < 1 || n < 2 * per || !result || !luck)
        return s;
    double ml = 0, ms = 0;
    for (long i = 0; i < n; i++) {
        ml += luck[i] / (double)n;
        ms += (result[i] - luck[i]) / (double)n;
    }
    long units = n / per;
    double *a = calloc(2 * (size_t)units, sizeof *a);
    if (!a)
        return s;
    double *b = a + units;
    for (long i = 0; i < units * per; i++) {
        double dl = luck[i] - ml, ds = result[i] - luck[i] - ms;
        a[i / per] += dl * dl;
        b[i / per] += dl * dl + ds * ds;
    }
    s = kemet_ratio_ci(a, b, units);
    free(a);
    if (!isnan(s.lo)) {
        s.lo = s.lo < 0 ? 0 : s.lo;
        s.hi = s.hi > 1 ? 1 : s.hi;
    }
    return s;
}

/* ------------------------------------------------------------------------
 * The criteria
 * --------------------------------------------------------------------- */

static const kemet_criterion criteria[KEMET_CRITERIA] = {
    [KEMET_CRIT_LENGTH] =
        {"length", "median turns, strong self-play", 20, 150, 1, true, 10, 500,
         "a game of one sitting: at a throw and a move in about 20 "
         "seconds, 20 to 150 turns is 7 to 50 minutes; under 10 "
         "turns the throws carry the pieces home unaided, over 500 "
         "no sitting ends it",
         "a length is judged as a ratio: 300 turns is as far past 150 as 10 "
         "is short of 20, each twice or half the sitting the band allows; a "
         "doubling is the distance from the band to the short flag (20 to "
         "10 turns), so a game at the verge of that flag costs one unit, and "
         "at the verge of the long one (150 to 500) 1.7"},
    [KEMET_CRIT_DECISIONS] =
        {"decisions", "real decisions (two moves or more) a turn", 0.75,
         INFINITY, 0.25, false, 0.25, NAN,
         "a player ought to choose on most turns; below one "
         "real decision in four turns the throws play the game",
         "a quarter of a real decision a turn, one turn in four more without "
         "a choice; the band's edge (0.75) lies two units above the flag "
         "(0.25), so a game at the verge of the flag costs two units, as at "
         "the verge of balance's"},
    [KEMET_CRIT_SKILL] =
        {"skill",
         "share of the games the strong agent's better choices "
         "decide against the weak (2 × its luck-adjusted score "
         "− 1)",
         0.25, INFINITY, 0.1, false, NAN, NAN,
         "the better player ought to be seen to be better: to "
         "decide a quarter of the games by play beyond the next "
         "move; a cost and no flag, since agents that find "
         "little to gain do not show that the rules offer "
         "nothing (Limitations)",
         "a tenth of the games decided by the better player's choices; a "
         "game where they decide none costs 2.5 units, a little more than a "
         "flag's verge costs elsewhere (one to two units), since no flag "
         "stands behind it"},
    [KEMET_CRIT_BALANCE] =
        {"balance",
         "player 1's luck-adjusted score, strong "
         "self-play",
         0.45, 0.55, 0.05, false, 0.35, 0.65,
         "neither seat ought to decide the game; a seat worth "
         "more than 0.15 of a game is a flaw of the rules",
         "a twentieth of a game for a seat; the band's edge (0.55) lies two "
         "units below the flag (0.65), so a game at the verge of the flag "
         "costs two units, as at the verge of decisions'"},
    [KEMET_CRIT_TENSION] =
        {"tension", "LeadChange, strong self-play", 0.05, INFINITY, 0.05, false,
         0.01, NAN,
         "the lead ought to change hands; below one change in a "
         "hundred moves the first to lead wins",
         "the band's own lower end, 0.05 changes of lead a move: a game "
         "whose lead never changes costs one unit, and one at the verge of "
         "the flag (0.01) 0.8"},
    [KEMET_CRIT_STOPPED] =
        {"stopped",
         "share of games stopped by the turn cap, strong and "
         "weak self-play together",
         0, 1, 1, false, NAN, 0.01,
         "a game the rules cannot end is a rule that fails; a flag "
         "and no cost (its interval at a few hundred games would "
         "swamp the penalty); a draw the rules provide is not "
         "counted here",
         NULL},
    [KEMET_CRIT_PROBES] =
        {"probes",
         "best simple strategy's luck-adjusted score "
         "against the strong agent",
         0, 0.3, 0.1, false, NAN, 0.4,
         "a simple strategy (always the rearmost piece, always "
         "the foremost, a random move among the safe ones) ought "
         "to lose to search; within a tenth of a game of it, "
         "search finds little that such a rule misses",
         "a tenth of a game won by a simple habit against search; the "
         "band's edge (0.3) lies one unit below the flag (0.4), so a game at "
         "the verge of the flag costs one unit"},
};

/* The cost of figure x on criterion c, in the criterion's units. */
static double cost(const kemet_criterion *k, double x) {
    double d;
    if (k->log2) {
        if (x < k->band_lo)
            d = x > 0 ? log2(k->band_lo / x) : INFINITY;
        else
            d = x > k->band_hi ? log2(x / k->band_hi) : 0;
    } else
        d = x < k->band_lo   ? k->band_lo - x
            : x > k->band_hi ? x - k->band_hi
                             : 0;
    return d / k->unit;
}

const kemet_criterion *kemet_criterion_info(int c) {
    return c >= 0 && c < KEMET_CRITERIA ? &criteria[c] : NULL;
}

int kemet_criterion_flag(int c, const kemet_stat *s) {
    if (c < 0 || c >= KEMET_CRITERIA || !s)
        return 0;
    const kemet_criterion *k = &criteria[c];
    double lo = isnan(s->lo) ? s->value : s->lo;
    double hi = isnan(s->hi) ? s->value : s->hi;
    if (isnan(lo) || isnan(hi))
        return false;
    return (!isnan(k->flag_lo) && hi < k->flag_lo) ||
           (!isnan(k->flag_hi) && lo > k->flag_hi);
}

int kemet_measured_indication(const kemet_measured *m, int c) {
    if (!m || c < 0 || c >= KEMET_CRITERIA)
        return 0;
    return m->games[c] > 0 && m->games[c] < KEMET_STUDY_LEAST;
}

/* The cost of criterion c, with the range it takes over the interval,
 * its unit times `scale`. */
static kemet_stat cost_of(int c, const kemet_stat *s, double scale) {
    kemet_criterion unit = criteria[c];
    const kemet_criterion *k = &unit;
    unit.unit *= scale;
    if (isnan(s->value))
        return (kemet_stat){0, 0, 0};
    double lo = isnan(s->lo) ? s->value : s->lo;
    double hi = isnan(s->hi) ? s->value : s->hi;
    kemet_stat p = {cost(k, s->value), 0, fmax(cost(k, lo), cost(k, hi))};
    if (hi < k->band_lo)
        p.lo = cost(k, hi);
    else if (lo > k->band_hi)
        p.lo = cost(k, lo);
    return p;
}

static int popcount(int x) {
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Whether ruleset a comes before ruleset b in the verdict's order. */
static bool before(const kemet_judged *J, int a, int b) {
    const kemet_judged *x = &J[a], *y = &J[b];
    if ((x->flags != 0) != (y->flags != 0))
        return x->flags == 0;
    if (popcount(x->flags) != popcount(y->flags))
        return popcount(x->flags) < popcount(y->flags);
    if (x->penalty.value != y->penalty.value)
        return x->penalty.value < y->penalty.value;
    return a < b;
}

int kemet_verdict(const kemet_measured *m, int n, int skip, kemet_judged *out,
                  int *order) {
    return kemet_verdict_units(m, n, skip, NULL, out, order);
}

int kemet_verdict_units(const kemet_measured *m, int n, int skip,
                        const double *scale, kemet_judged *out, int *order) {
    if (n < 0 || (n > 0 && (!m || !out || !order)))
        return KEMET_EMISUSE;
    for (int c = 0; scale && c < KEMET_CRITERIA; c++)
        if (!(scale[c] > 0) || isinf(scale[c]))
            return KEMET_EMISUSE;
    for (int i = 0; i < n; i++) {
        kemet_judged *J = &out[i];
        *J = (kemet_judged){.penalty = {0, 0, 0}};
        /* the finite costs' sum and the squares of their reach down and
         * up; an infinite cost (a median length beyond the turn cap)
         * makes the penalty infinite, and adds the low end of its own
         * range to the penalty's low end */
        double sum = 0, down2 = 0, up2 = 0, beyond = 0;
        bool infinite = false;
        for (int c = 0; c < KEMET_CRITERIA; c++) {
            /* a figure the cap left short is shown, not weighed */
            if (kemet_measured_indication(&m[i], c)) {
                J->indications |= 1 << c;
                J->cost[c] = (kemet_stat){0, 0, 0};
                continue;
            }
            J->cost[c] = cost_of(c, &m[i].c[c], scale ? scale[c] : 1);
            if (c == skip)
                continue;
            if (kemet_criterion_flag(c, &m[i].c[c]))
                J->flags |= 1 << c;
            const kemet_stat *k = &J->cost[c];
            if (isinf(k->value)) {
                infinite = true;
                beyond += k->lo;
                continue;
            }
            /* the range: each cost's distance to either end of its own
             * range, combined as independent errors (the root of the
             * sum of squares) */
            double down = k->value - k->lo, up = k->hi - k->value;
            sum += k->value;
            down2 += down * down;
            up2 += up * up;
        }
        J->penalty.lo = sum - sqrt(down2) + beyond;
        J->penalty.value = infinite ? INFINITY : sum;
        J->penalty.hi = infinite ? INFINITY : sum + sqrt(up2);
    }
    /* the order: unflagged first by penalty; then the flagged, by how
     * many flags, then penalty; the index breaks exact ties */
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && before(out, order[j], order[j - 1]); j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    /* the tiers: the unflagged (first in the order) cut wherever every
     * penalty range before the cut ends below every one after it (the
     * connected parts of the ranges' overlaps); the flagged, one more */
    int tier = 0, clean = 0;
    while (clean < n && !out[order[clean]].flags)
        clean++;
    double reach = -INFINITY; /* the highest end so far */
    for (int k = 0; k < n; k++) {
        kemet_judged *J = &out[order[k]];
        J->place = k + 1;
        if (k >= clean) {
            tier += k == clean;
        } else {
            double after = INFINITY; /* the lowest start from here on */
            for (int i = k; i < clean; i++)
                after = fmin(after, out[order[i]].penalty.lo);
            tier += k == 0 || reach < after;
            reach = fmax(reach, J->penalty.hi);
        }
        J->tier = tier;
    }
    return tier;
}

int kemet_verdict_outranks(const kemet_judged *j, int n, int i,
                           int *unflagged) {
    int clean = 0, above = 0;
    if (!j || i < 0 || i >= n) {
        if (unflagged)
            *unflagged = 0;
        return 0;
    }
    for (int k = 0; k < n; k++)
        if (!j[k].flags) {
            clean++;
            above += j[k].penalty.value > j[i].penalty.value;
        }
    if (unflagged)
        *unflagged = clean;
    return j[i].flags ? above : 0;
}

double kemet_tau_b(const double *a, const double *b, int n, long *opposite) {
    long conc = 0, disc = 0, ta = 0, tb = 0, pairs = 0;
    if (!a || !b)
        n = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double x = a[i] - a[j], y = b[i] - b[j];
            pairs++;
            ta += x == 0;
            tb += y == 0;
            if (x * y > 0)
                conc++;
            else if (x * y < 0)
                disc++;
        }
    if (opposite)
        *opposite = disc;
    double d = sqrt((double)(pairs - ta) * (double)(pairs - tb));
    return d > 0 ? (double)(conc - disc) / d : NAN;
}
