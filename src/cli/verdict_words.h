/* verdict_words.h - parts of `kemet analyze`'s report made from the
 * verdict's figures alone (kemet_measured, kemet_judged), so that they can
 * be tested on hand-made figures (tests/test_words.c).
 */
#ifndef KEMET_VERDICT_WORDS_H
#define KEMET_VERDICT_WORDS_H

#include "kemet.h"

#include <stdio.h>

/* "How it depends on each criterion's unit": the verdict on the n
 * readings id[i] with figures m[i] made again with one criterion's unit
 * halved, then doubled (kemet_verdict_units), every criterion that costs
 * in turn; a table row per criterion giving, for each, Kendall's tau-b
 * between its tiers and the published ones and the readings that change
 * tier or pass one another within a tier, by id (the tables' names)
 * in a list below the table; the first tier in prose, by name[i]. */
void vw_units_varied(FILE *o, const kemet_measured *m, const char *const *id,
                     const char *const *name, int n);

/* The abstract's sentence on the games the turn cap stopped in a first
 * tier: of the n readings id[i], figures m[i], judged J[i] (the readings
 * of several verdicts may be given together; a reading named twice is
 * said once), each in tier 1 and not flagged whose stopped share is
 * above 0, with its interval. Nothing when there is none. `cap` is the
 * turn cap. */
void vw_first_tier_stopped(FILE *o, const kemet_measured *m,
                           const kemet_judged *J, const char *const *id, int n,
                           long cap);

#endif
