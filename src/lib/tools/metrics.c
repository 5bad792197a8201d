/* metrics.c - what a set of games says about a ruleset.
 *
 * The figures Ludii's evaluation metrics also define carry Ludii's name
 * and follow its definition, so the numbers can be set side by side:
 *   Completion             games that ended by the rules / games
 *   Drawishness            games drawn by the rules / games
 *   AdvantageP1            games player 1 won / games
 *   Balance                1 - |player 1's win rate - player 2's|
 *   DurationTurns          mean turns per game (all games)
 *   BranchingFactor        per game, the mean number of legal moves over the
 *                          game's states; mean over games
 *   LeadChange             per game, how often the set of leaders (the
 *                          players with the highest win estimate) differs
 *                          from the state before (the first state counts,
 *                          as in Ludii), over the moves; mean over games
 *   Drama                  ("Drama Average") per game, the mean over its
 *                          states of (the highest win estimate - the
 *                          eventual winner's); mean over ended games
 *   DecisivenessThreshold  per game, the highest win estimate a player who
 *                          did not win ever had (-1 when both drew, as in
 *                          Ludii); mean over ended games
 * Intervals: Wilson's for proportions; mean +- 1.96 standard errors for
 * means of per-game values; ratio estimators for pooled rates.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void kemet_wilson(double k, double n, double z, double *lo, double *hi) {
    if (n <= 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double p = k / n, z2 = z * z;
    double mid = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    *lo = mid - half < 0 ? 0 : mid - half;
    *hi = mid + half > 1 ? 1 : mid + half;
}

static kemet_stat proportion(long k, long n) {
    kemet_stat s = {n ? (double)k / (double)n : NAN, NAN, NAN};
    if (n)
        kemet_wilson((double)k, (double)n, 1.96, &s.lo, &s.hi);
    return s;
}

/* The mean of x[0..n) with its 95% interval (NaN bounds below 2 values). */
static kemet_stat mean_of(const double *x, long n, double *sd) {
    kemet_stat s = {NAN, NAN, NAN};
    if (sd)
        *sd = NAN;
    if (n == 0)
        return s;
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += x[i];
    s.value = sum / (double)n;
    if (n < 2)
        return s;
    double ss = 0;
    for (long i = 0; i < n; i++)
        ss += (x[i] - s.value) * (x[i] - s.value);
    double v = ss / (double)(n - 1);
    if (sd)
        *sd = sqrt(v);
    double half = 1.96 * sqrt(v / (double)n);
    s.lo = s.value - half;
    s.hi = s.value + half;
    return s;
}

/* A pooled rate sum(a) / sum(b) with a ratio estimator's interval. */
static kemet_stat ratio_of(const double *a, const double *b, long n) {
    kemet_stat s = {NAN, NAN, NAN};
    double sa = 0, sb = 0;
    for (long i = 0; i < n; i++) {
        sa += a[i];
        sb += b[i];
    }
    if (sb <= 0)
        return s;
    s.value = sa / sb;
    if (n < 2)
        return s;
    double ss = 0;
    for (long i = 0; i < n; i++) {
        double r = a[i] - s.value * b[i];
        ss += r * r;
    }
    double mb = sb / (double)n;
    double half = 1.96 * sqrt(ss / ((double)n * (double)(n - 1))) / mb;
    s.lo = s.value - half;
    s.hi = s.value + half;
    return s;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *x, long n) {
    if (n == 0)
        return NAN;
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* Leaders from player 1's chance: bit 0 player 1, bit 1 player 2. */
static int leaders(double p1) {
    return p1 > 0.5 ? 1 : p1 < 0.5 ? 2 : 3;
}

int kemet_analyze_traces(const kemet_trace *games, long n,
                         kemet_analysis *out) {
    if (!games || !out || n < 1)
        return KEMET_EMISUSE;
    *out = (kemet_analysis){.games = n};
    double *buf = malloc(4 * (size_t)n * sizeof *buf);
    if (!buf)
        return KEMET_ENOMEM;
    double *x = buf, *y = buf + n, *z = buf + 2 * n, *w = buf + 3 * n;
    for (long i = 0; i < n; i++) {
        const kemet_trace *g = &games[i];
        switch (g->result) {
        case KEMET_WON1: out->wins[0]++; break;
        case KEMET_WON2: out->wins[1]++; break;
        case KEMET_DRAW: out->draws++; break;
        default: out->stopped++; break;
        }
    }
    out->ended = n - out->stopped;
    out->completion = proportion(out->ended, n);
    out->drawishness = proportion(out->draws, n);
    out->advantage_p1 = proportion(out->wins[0], n);
    /* Balance: 1 - |d|, d = p1 - p2 over all games; the interval from d's
     * (a difference of two shares of one multinomial). */
    double p1 = (double)out->wins[0] / (double)n,
           p2 = (double)out->wins[1] / (double)n;
    double d = p1 - p2, vd = ((p1 + p2) - d * d) / (double)n;
    double dlo = d - 1.96 * sqrt(vd), dhi = d + 1.96 * sqrt(vd);
    double far = fmax(fabs(dlo), fabs(dhi));
    double near = (dlo <= 0 && dhi >= 0) ? 0 : fmin(fabs(dlo), fabs(dhi));
    out->balance = (kemet_stat){1 - fabs(d), fmax(0, 1 - far), 1 - near};

    for (long i = 0; i < n; i++) {
        x[i] = (double)games[i].turns;
        y[i] = (double)games[i].moves;
    }
    out->duration_turns = mean_of(x, n, &out->sd_turns);
    out->duration_moves = mean_of(y, n, &out->sd_moves);
    out->median_turns = median_of(x, n);
    out->median_moves = median_of(y, n);

    /* Throws that could not be used, forced moves: shares of all throws. */
    for (long i = 0; i < n; i++) {
        const kemet_trace *g = &games[i];
        x[i] = (double)g->passes;
        y[i] = (double)g->forced;
        z[i] = (double)(g->passes + g->forced + g->decisions);
    }
    out->lost_throws = ratio_of(x, z, n);
    out->forced_moves = ratio_of(y, z, n);
    for (long i = 0; i < n; i++) {
        x[i] = games[i].choices;
        y[i] = (double)games[i].decisions;
    }
    out->choices = ratio_of(x, y, n);
    long m = 0;
    for (long i = 0; i < n; i++) {
        const kemet_trace *g = &games[i];
        long states = g->passes + g->forced + g->decisions;
        if (states > 0)
            x[m++] = g->branching / (double)states;
    }
    out->branching_factor = mean_of(x, m, NULL);

    /* From the win estimates: lead changes (all games with moves); drama and
     * decisiveness (games that ended). */
    long nl = 0, nd = 0, nt = 0;
    for (long i = 0; i < n; i++) {
        const kemet_trace *g = &games[i];
        if (g->n < 1 || !g->p1 || g->moves < 1)
            continue;
        int past = 0, changes = 0;
        for (int k = 0; k < g->n; k++) {
            int now = leaders(g->p1[k]);
            changes += now != past;
            past = now;
        }
        x[nl++] = (double)changes / (double)g->moves;
        if (g->result == KEMET_PLAYING)
            continue;
        double drama = 0, thr = -1;
        for (int k = 0; k < g->n; k++) {
            double a = g->p1[k], b = 1 - a, top = fmax(a, b);
            double win = g->result == KEMET_WON1   ? a
                         : g->result == KEMET_WON2 ? b
                                                   : (a + b) / 2;
            drama += top - win;
            if (g->result == KEMET_WON1)
                thr = fmax(thr, b);
            else if (g->result == KEMET_WON2)
                thr = fmax(thr, a);
        }
        y[nd++] = drama / g->n;
        w[nt++] = thr;
    }
    out->lead_change = mean_of(x, nl, NULL);
    out->drama = mean_of(y, nd, NULL);
    out->decisiveness_threshold = mean_of(w, nt, NULL);
    free(buf);
    return KEMET_OK;
}

/* ------------------------------------------------------------------------
 * Skill and luck (kemet analyze's skill section)
 * --------------------------------------------------------------------- */

double kemet_skill_trace(const double *y, int n) {
    if (!y || n < 2)
        return NAN;
    /* the least-squares line of y over x = 0..n-1 */
    double mx = (n - 1) / 2.0, my = 0, sxy = 0, sxx = 0, area = 0;
    for (int k = 0; k < n; k++)
        my += y[k] / n;
    for (int k = 0; k < n; k++) {
        sxy += (k - mx) * (y[k] - my);
        sxx += (k - mx) * (k - mx);
        area += y[k] > 0 ? y[k] * y[k] : 0;
    }
    double next = my + sxy / sxx * ((n + 1) - mx);
    next = next < 0 ? 0 : next > 1 ? 1 : next;
    return next + (1 - next) * area;
}

/* The sample variance of x[0..n). */
static double variance(const double *x, long n) {
    double m = 0, ss = 0;
    for (long i = 0; i < n; i++)
        m += x[i];
    m /= (double)n;
    for (long i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    return ss / (double)(n - 1);
}

double kemet_luck_share(const double *result, const double *luck, long n) {
    if (!result || !luck || n < 2)
        return NAN;
    double *skill = malloc((size_t)n * sizeof *skill);
    if (!skill)
        return NAN;
    for (long i = 0; i < n; i++)
        skill[i] = result[i] - luck[i];
    double vl = variance(luck, n), vs = variance(skill, n);
    free(skill);
    return vl + vs > 0 ? vl / (vl + vs) : NAN;
}

double kemet_games_to_lead(double score, double sd) {
    if (!(score > 0.5) || !(sd >= 0))
        return NAN;
    double n = 1.6449 * sd / (score - 0.5);
    return ceil(n * n) < 1 ? 1 : ceil(n * n);
}

/* ------------------------------------------------------------------------
 * Distributions: game lengths, where pieces land
 * --------------------------------------------------------------------- */

double kemet_length_histogram(const kemet_trace *games, long n, int bins,
                              long *hist) {
    if (!games || !hist || n < 1 || bins < 1)
        return NAN;
    long longest = 1;
    for (long i = 0; i < n; i++)
        longest = games[i].turns > longest ? games[i].turns : longest;
    double bin = ceil((double)(longest + 1) / bins);
    for (int b = 0; b < bins; b++)
        hist[b] = 0;
    for (long i = 0; i < n; i++) {
        long b = games[i].turns < 0 ? 0 : (long)((double)games[i].turns / bin);
        hist[b < bins ? b : bins - 1]++;
    }
    return bin;
}

int kemet_arrivals(const kemet_rules *rules, const kemet_pos *was,
                   const kemet_pos *now, long *count, int cells) {
    if (!rules || !was || !now || !count || cells < 1)
        return KEMET_EMISUSE;
    int n = 0;
    for (int p = 0; p < 2; p++) {
        uint64_t fresh = now->sq[p] & ~was->sq[p];
        for (int s = 1; s <= KEMET_MAX_SQUARE; s++)
            if (fresh >> s & 1) {
                int cell = kemet_square_cell(rules, p + 1, s);
                if (cell > 0 && cell < cells) {
                    count[cell]++;
                    n++;
                }
            }
    }
    return n;
}
