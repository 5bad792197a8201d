/* verdict_words.c - parts of the report made from the verdict's figures
 * alone (verdict_words.h): how the verdict rests on each criterion's unit,
 * and the abstract's word on the games the turn cap stopped in a first
 * tier.
 */
#include "verdict_words.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Pairs named in one cell at most; the rest are counted. */
#define VW_PAIRS 4

/* Whether criterion c costs anything (stopped only flags). */
static bool costs(int c) {
    const kemet_criterion *k = kemet_criterion_info(c);
    return k->log2 || k->band_lo > 0 || k->band_hi < 1;
}

/* A unit times f in words: "0.05", "a doubling", "half a doubling". */
static void put_unit(FILE *o, int c, double f) {
    const kemet_criterion *k = kemet_criterion_info(c);
    if (!k->log2)
        fprintf(o, "%g", k->unit * f);
    else if (f == 1)
        fprintf(o, "a doubling");
    else if (f == 0.5)
        fprintf(o, "half a doubling");
    else
        fprintf(o, "%g doublings", k->unit * f);
}

/* One cell of the table: what the verdict J (order ord) changes against
 * the published one P (order pord), of n readings. */
static void put_changes(FILE *o, const kemet_judged *P, const int *pord,
                        const kemet_judged *J, const int *ord,
                        const char *const *id, int n) {
    int said = 0;
    /* a flagged reading stays last whatever the units: its tier number
       only follows the count of tiers above it */
    for (int k = 0; k < n; k++) {
        int i = ord[k];
        if (P[i].flags || J[i].tier == P[i].tier)
            continue;
        fprintf(o, "%s%s %d → %d", said++ ? ", " : "tier: ", id[i], P[i].tier,
                J[i].tier);
    }
    int pairs = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            int i = pord[a], q = pord[b]; /* i ahead of q before */
            if (a >= b || P[i].flags || P[q].flags || J[i].tier != P[i].tier ||
                J[q].tier != P[q].tier || J[q].place > J[i].place)
                continue;
            if (pairs < VW_PAIRS)
                fprintf(o, "%s%s passes %s",
                        pairs  ? ", "
                        : said ? "; within a tier: "
                               : "within a tier: ",
                        id[q], id[i]);
            pairs++;
        }
    if (pairs > VW_PAIRS)
        fprintf(o, " and %d more pair%s", pairs - VW_PAIRS,
                pairs - VW_PAIRS == 1 ? "" : "s");
    if (!said && !pairs)
        fprintf(o, "none");
}

/* The first tier (tier 1, not flagged) of verdict J in the order ord, as
 * "a, b and c". */
static void put_first(FILE *o, const kemet_judged *J, const int *ord,
                      const char *const *id, int n) {
    int t = 0;
    while (t < n && J[ord[t]].tier == 1 && !J[ord[t]].flags)
        t++;
    for (int k = 0; k < t; k++)
        fprintf(o, "%s%s",
                k == 0       ? ""
                : k == t - 1 ? " and "
                             : ", ",
                id[ord[k]]);
    if (t == 0)
        fprintf(o, "none");
}

/* Whether verdicts P and J have the same first tier. */
static bool same_first(const kemet_judged *P, const kemet_judged *J, int n) {
    for (int i = 0; i < n; i++)
        if ((P[i].tier == 1 && !P[i].flags) != (J[i].tier == 1 && !J[i].flags))
            return false;
    return true;
}

/* The verdict with criterion c's unit times f into J, ord. */
static void verdict_scaled(const kemet_measured *m, int n, int c, double f,
                           kemet_judged *J, int *ord) {
    double scale[KEMET_CRITERIA];
    for (int k = 0; k < KEMET_CRITERIA; k++)
        scale[k] = 1;
    scale[c] = f;
    kemet_verdict_units(m, n, -1, scale, J, ord);
}

void vw_units_varied(FILE *o, const kemet_measured *m, const char *const *id,
                     const char *const *name, int n) {
    if (n < 1)
        return;
    kemet_judged *P = malloc(2 * (size_t)n * sizeof *P);
    int *ord = malloc(2 * (size_t)n * sizeof *ord);
    double *tp = malloc(2 * (size_t)n * sizeof *tp);
    if (!P || !ord || !tp) {
        free(P);
        free(ord);
        free(tp);
        return;
    }
    kemet_judged *J = P + n;
    int *pord = ord + n;
    double *tj = tp + n;
    kemet_verdict_units(m, n, -1, NULL, P, pord);
    for (int i = 0; i < n; i++)
        tp[i] = P[i].tier;
    fprintf(o,
            "**How it depends on each criterion's unit.** A cost is a "
            "figure's distance from its band in the criterion's unit (each "
            "unit's reason is in *The criteria of the verdict*). The verdict "
            "made again with one unit halved (that criterion's costs "
            "doubled) or doubled (its costs halved), the others as "
            "published: Kendall's tau-b between its tiers and the published "
            "ones (1: the same order), and the rulesets that change tier or "
            "pass one another within a tier. A flagged ruleset stays last "
            "whatever the units.\n\n"
            "| criterion | unit | unit halved: tau-b | unit doubled: tau-b "
            "|\n|---|---|---|---|\n");
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        if (!costs(c))
            continue;
        fprintf(o, "| %s | ", kemet_criterion_info(c)->name);
        put_unit(o, c, 1);
        for (int h = 0; h < 2; h++) {
            verdict_scaled(m, n, c, h ? 2 : 0.5, J, ord);
            for (int i = 0; i < n; i++)
                tj[i] = J[i].tier;
            double tau = kemet_tau_b(tp, tj, n, NULL);
            if (isnan(tau))
                fprintf(o, " | —");
            else
                fprintf(o, " | %.2f", tau);
        }
        fprintf(o, " |\n");
    }
    /* what changes, criterion by criterion (ids: they are the tables') */
    fprintf(o, "\nWhat changes:\n\n");
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        if (!costs(c))
            continue;
        fprintf(o, "- *%s*:", kemet_criterion_info(c)->name);
        for (int h = 0; h < 2; h++) {
            verdict_scaled(m, n, c, h ? 2 : 0.5, J, ord);
            fprintf(o, "%s ", h ? "; doubled," : " halved,");
            put_changes(o, P, pord, J, ord, id, n);
        }
        fprintf(o, ".\n");
    }
    /* the first tier, published and under each unit changed */
    fprintf(o, "\nThe first tier, ");
    put_first(o, P, pord, name, n);
    int moved = 0;
    for (int c = 0; c < KEMET_CRITERIA; c++)
        for (int h = 0; h < 2 && costs(c); h++) {
            verdict_scaled(m, n, c, h ? 2 : 0.5, J, ord);
            if (same_first(P, J, n))
                continue;
            fprintf(o, "%s", moved++ ? "; " : " as published, is ");
            put_first(o, J, ord, name, n);
            fprintf(o, " with %s's unit %s", kemet_criterion_info(c)->name,
                    h ? "doubled" : "halved");
        }
    fprintf(o, moved ? "; the same with every other unit halved or "
                       "doubled.\n\n"
                     : ", is the same with every unit halved or "
                       "doubled.\n\n");
    free(P);
    free(ord);
    free(tp);
}

/* A share as a percentage, with a decimal more where it is small. */
static void put_percent(FILE *o, double x) {
    fprintf(o, "%.*f", 100 * x < 0.095 && x > 0 ? 2 : 1, 100 * x);
}

void vw_first_tier_stopped(FILE *o, const kemet_measured *m,
                           const kemet_judged *J, const char *const *id, int n,
                           long cap) {
    int said = 0, count = 0;
    for (int i = 0; i < n; i++) {
        const kemet_stat *s = &m[i].c[KEMET_CRIT_STOPPED];
        bool twice = false;
        for (int q = 0; q < i && !twice; q++)
            twice = strcmp(id[q], id[i]) == 0 && J[q].tier == 1 &&
                    !J[q].flags && m[q].c[KEMET_CRIT_STOPPED].value > 0;
        count += J[i].tier == 1 && !J[i].flags && s->value > 0 && !twice;
    }
    for (int i = 0; i < n; i++) {
        const kemet_stat *s = &m[i].c[KEMET_CRIT_STOPPED];
        if (J[i].tier != 1 || J[i].flags || !(s->value > 0))
            continue;
        bool twice = false;
        for (int q = 0; q < i && !twice; q++)
            twice = strcmp(id[q], id[i]) == 0 && J[q].tier == 1 &&
                    !J[q].flags && m[q].c[KEMET_CRIT_STOPPED].value > 0;
        if (twice)
            continue;
        fprintf(o, "%s%s ",
                said == 0           ? " Of the first tiers above, "
                : said == count - 1 ? " and "
                                    : ", ",
                id[i]);
        if (said == 0)
            fprintf(o, "leaves ");
        put_percent(o, s->value);
        fprintf(o, "%%");
        if (!isnan(s->lo)) {
            fprintf(o, " (");
            put_percent(o, s->lo);
            fprintf(o, "–");
            put_percent(o, s->hi);
            fprintf(o, "%%)");
        }
        if (said == 0)
            fprintf(o, " of its games unfinished at the turn cap (%ld turns)",
                    cap);
        said++;
    }
    if (said) {
        fprintf(o, ": games the rules did not end, too few to flag (the "
                   "flag needs the whole interval above ");
        put_percent(o, kemet_criterion_info(KEMET_CRIT_STOPPED)->flag_hi);
        fprintf(o, "%%) but not none.");
    }
}
