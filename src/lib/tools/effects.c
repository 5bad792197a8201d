/* effects.c - what one rule does to a reading: the difference a change of
 * one rule (kemet_rule_changes) makes to each criterion of the verdict,
 * with its interval, and which change explains a flag or a standing
 * (docs/analysis.md, "What each rule does").
 *
 * The two readings are measured apart, so their errors are taken as
 * independent: the difference's half-width is the root of the sum of the
 * squared half-widths on the sides that face each other (a figure's
 * interval may be lopsided: the upper reach of the lower figure and the
 * lower reach of the upper one). A change moves a criterion where that
 * interval excludes 0. The length is compared in doublings, as the
 * verdict costs it.
 */
#include "internal.h"

#include <math.h>

/* A figure as the verdict compares it: the length in doublings. */
static kemet_stat scaled(int c, const kemet_stat *s) {
    kemet_stat t = *s;
    if (kemet_criterion_info(c)->log2) {
        t.value = s->value > 0 ? log2(s->value) : NAN;
        t.lo = s->lo > 0 ? log2(s->lo) : NAN;
        t.hi = s->hi > 0 ? log2(s->hi) : NAN;
    }
    return t;
}

static kemet_effect effect_of(int c, const kemet_stat *was,
                              const kemet_stat *now) {
    kemet_effect e = {NAN, NAN, NAN, 0, 0, 0};
    e.flag_was = kemet_criterion_flag(c, was);
    e.flag_now = kemet_criterion_flag(c, now);
    kemet_stat a = scaled(c, was), b = scaled(c, now);
    if (!isfinite(a.value) || !isfinite(b.value) || !isfinite(a.lo) ||
        !isfinite(a.hi) || !isfinite(b.lo) || !isfinite(b.hi))
        return e; /* a median beyond the cap, or no interval */
    e.diff = b.value - a.value;
    /* the reaches that face each other bound the difference's interval
       on the side of 0; the others on the far side */
    double a_up = a.hi - a.value, a_down = a.value - a.lo;
    double b_up = b.hi - b.value, b_down = b.value - b.lo;
    e.lo = e.diff - sqrt(b_down * b_down + a_up * a_up);
    e.hi = e.diff + sqrt(b_up * b_up + a_down * a_down);
    e.moves = e.lo > 0 || e.hi < 0;
    return e;
}

int kemet_change_effects(const kemet_measured *base,
                         const kemet_measured *changed,
                         kemet_change_effect *out) {
    if (!base || !changed || !out)
        return KEMET_EMISUSE;
    for (int c = 0; c < KEMET_CRITERIA; c++)
        out->c[c] = effect_of(c, &base->c[c], &changed->c[c]);
    kemet_measured two[2] = {*base, *changed};
    kemet_judged j[2];
    int order[2];
    if (kemet_verdict(two, 2, -1, j, order) < 0)
        return KEMET_EMISUSE;
    out->penalty_was = j[0].penalty;
    out->penalty_now = j[1].penalty;
    out->flags_was = j[0].flags;
    out->flags_now = j[1].flags;
    /* the penalty's change, its errors as independent as the figures' */
    double d = j[1].penalty.value - j[0].penalty.value;
    out->penalty_moves = 0;
    if (isfinite(d)) {
        double up = j[0].penalty.hi - j[0].penalty.value;
        double down = j[1].penalty.value - j[1].penalty.lo;
        double up2 = j[1].penalty.hi - j[1].penalty.value;
        double down2 = j[0].penalty.value - j[0].penalty.lo;
        if (d > sqrt(up * up + down * down))
            out->penalty_moves = 1;
        else if (-d > sqrt(up2 * up2 + down2 * down2))
            out->penalty_moves = -1;
    } else if (isinf(j[1].penalty.value) != isinf(j[0].penalty.value)) {
        out->penalty_moves = isinf(j[1].penalty.value) ? 1 : -1;
    }
    return KEMET_OK;
}

/* How far change e moves criterion c toward removing a flag that lies
 * below or above the threshold: the difference, signed so that a move
 * away from the flag is positive. */
static double toward_clear(int c, const kemet_stat *was,
                           const kemet_effect *e) {
    const kemet_criterion *k = kemet_criterion_info(c);
    bool below = !isnan(k->flag_lo) && was->hi < k->flag_lo;
    return below ? e->diff : -e->diff;
}

int kemet_explain_flag(const kemet_measured *base,
                       const kemet_change_effect *eff, int n, int c,
                       int *second) {
    if (second)
        *second = -1;
    if (!base || (n > 0 && !eff) || n < 0 || c < 0 || c >= KEMET_CRITERIA)
        return KEMET_EMISUSE;
    int best = -1, first = -1, next = -1;
    double best_move = 0, m1 = 0, m2 = 0;
    for (int i = 0; i < n; i++) {
        const kemet_effect *e = &eff[i].c[c];
        if (!e->flag_was || isnan(e->diff))
            continue;
        double move = toward_clear(c, &base->c[c], e);
        /* a change that clears the flag, moving the figure for certain */
        if (!e->flag_now && e->moves && move > 0 &&
            (best < 0 || move > best_move)) {
            best = i;
            best_move = move;
        }
        /* the two that move it most toward clearing, for a combination */
        if (e->moves && move > 0) {
            if (first < 0 || move > m1) {
                next = first;
                m2 = m1;
                first = i;
                m1 = move;
            } else if (next < 0 || move > m2) {
                next = i;
                m2 = move;
            }
        }
    }
    if (best >= 0)
        return best;
    if (second && first >= 0 && next >= 0) {
        *second = next;
        return first;
    }
    return -1;
}

int kemet_explain_standing(const kemet_change_effect *eff, int n) {
    if (n < 0 || (n > 0 && !eff))
        return KEMET_EMISUSE;
    int best = -1, best_new = 0;
    double most = 0;
    for (int i = 0; i < n; i++) {
        const kemet_change_effect *e = &eff[i];
        int fresh = (e->flags_now & ~e->flags_was) != 0;
        if (e->penalty_moves != 1 && !fresh)
            continue;
        /* a new flag outranks any cost; among equals the larger rise (an
           infinite penalty, a median beyond the cap, the largest) */
        double rise = e->penalty_now.value - e->penalty_was.value;
        if (isnan(rise))
            rise = 0;
        if (best < 0 || fresh > best_new ||
            (fresh == best_new && rise > most)) {
            best = i;
            best_new = fresh;
            most = rise;
        }
    }
    return best;
}
