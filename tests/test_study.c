/* test_study.c - one reading measured by the library (kemet_study_*): the
 * same figures whether its games are played by kemet_study_run on one
 * thread or two, stage by stage in a shuffled order, or half of each
 * stage by another study whose results are carried over as bytes; a
 * variant without the ladder and SkillTrace; settings and misuse
 * refused; the verdict's figures of a study (kemet_study_measured)
 * on hand-made figures; and the stopping rule's final step, its
 * condition (kemet_study_settled) on hand-made figures and its growth
 * on real studies.
 */
#include "testutil.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Small settings, so that a study takes a second or two: every figure's
 * sample at most 16 games. */
static kemet_study_settings small(void) {
    kemet_study_settings s;
    kemet_study_defaults(&s);
    s.strong = "expectimax:200";
    s.ladder[0] = "random";
    s.ladder[1] = "greedy";
    s.ladder[2] = "expectimax:200";
    s.rungs = 3;
    s.games = 30;
    s.trace_games = 2;
    s.trace_base = 4;
    s.pilot = 6;
    s.most = 16;
    return s;
}

static kemet_rules *RULES;
static kemet_judge *JUDGE;

static int setup(void **state) {
    (void)state;
    if (kemet_rules_open("chien-chacal", &RULES, NULL) != KEMET_OK ||
        kemet_judge_new(RULES, NULL, &JUDGE, NULL) != KEMET_OK)
        return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    kemet_judge_free(JUDGE);
    kemet_rules_close(RULES);
    return 0;
}

/* Two doubles the same to the bit (NaNs included). */
static void same_double(double a, double b, const char *what) {
    if (memcmp(&a, &b, sizeof a) != 0)
        fail_msg("%s: %.17g and %.17g", what, a, b);
}

static void same_stat(const kemet_stat *a, const kemet_stat *b,
                      const char *what) {
    same_double(a->value, b->value, what);
    same_double(a->lo, b->lo, what);
    same_double(a->hi, b->hi, what);
}

static void same_selfplay(const kemet_selfplay_figures *a,
                          const kemet_selfplay_figures *b) {
    assert_string_equal(a->agent[0], b->agent[0]);
    assert_string_equal(a->agent[1], b->agent[1]);
    assert_int_equal(a->games, b->games);
    assert_memory_equal(&a->analysis, &b->analysis, sizeof a->analysis);
    assert_memory_equal(a->hist, b->hist, sizeof a->hist);
    same_double(a->bin, b->bin, "bin");
    assert_int_equal(a->luck, b->luck);
    same_stat(&a->p1_adjusted, &b->p1_adjusted, "p1_adjusted");
    same_stat(&a->median, &b->median, "median");
    same_stat(&a->per_turn, &b->per_turn, "per_turn");
    same_stat(&a->stopped, &b->stopped, "stopped");
    same_double(a->decisions, b->decisions, "decisions");
    assert_memory_equal(a->land, b->land, sizeof a->land);
    same_double(a->coverage, b->coverage, "coverage");
    same_double(a->table_decisions, b->table_decisions, "table_decisions");
    same_double(a->linear_errors, b->linear_errors, "linear_errors");
    same_double(a->linear_loss, b->linear_loss, "linear_loss");
    assert_int_equal(a->nsample, b->nsample);
    for (int k = 0; k < a->nsample; k++) {
        assert_int_equal(a->sample_n[k], b->sample_n[k]);
        assert_int_equal(a->sample_result[k], b->sample_result[k]);
        assert_memory_equal(a->sample[k], b->sample[k],
                            (size_t)a->sample_n[k] * sizeof(double));
    }
}

static void same_match(const kemet_match_figures *a,
                       const kemet_match_figures *b) {
    assert_string_equal(a->upper, b->upper);
    assert_string_equal(a->lower, b->lower);
    assert_int_equal(a->games, b->games);
    const kemet_match_stats *x = &a->stats, *y = &b->stats;
    assert_int_equal(x->games, y->games);
    assert_memory_equal(x->wins, y->wins, sizeof x->wins);
    assert_memory_equal(x->seat_wins, y->seat_wins, sizeof x->seat_wins);
    assert_int_equal(x->draws, y->draws);
    assert_int_equal(x->stopped, y->stopped);
    same_double(x->score, y->score, "score");
    same_double(x->score_lo, y->score_lo, "score_lo");
    same_double(x->score_hi, y->score_hi, "score_hi");
    assert_memory_equal(&x->adj, &y->adj, sizeof x->adj);
    same_stat(&a->luck_share, &b->luck_share, "luck_share");
    same_double(a->sd, b->sd, "sd");
    assert_int_equal(a->contradiction, b->contradiction);
}

static void same_figures(const kemet_study_figures *a,
                         const kemet_study_figures *b) {
    assert_string_equal(a->id, b->id);
    assert_int_equal(a->variant, b->variant);
    assert_int_equal(a->table_pieces, b->table_pieces);
    assert_int_equal(a->nsteps, b->nsteps);
    same_selfplay(&a->weak, &b->weak);
    same_selfplay(&a->strong, &b->strong);
    for (int k = 0; k < a->nsteps; k++)
        same_match(&a->ladder[k], &b->ladder[k]);
    same_match(&a->head, &b->head);
    for (int k = 0; k < KEMET_STUDY_PROBES; k++)
        same_match(&a->probe[k], &b->probe[k]);
    for (int k = 0; k < KEMET_STUDY_TRACE; k++) {
        same_double(a->trace_y[k], b->trace_y[k], "trace_y");
        same_stat(&a->trace_adj[k], &b->trace_adj[k], "trace_adj");
    }
    same_double(a->skill_trace, b->skill_trace, "skill_trace");
    same_double(a->skill_trace_adj, b->skill_trace_adj, "skill_trace_adj");
    same_double(a->games_to_lead, b->games_to_lead, "games_to_lead");
}

/* A study of chien-chacal with `s`, measured whole on `threads` threads. */
static kemet_study *run_whole(const kemet_study_settings *s, int threads) {
    kemet_study *st;
    assert_int_equal(kemet_study_new(JUDGE, s, &st, NULL), KEMET_OK);
    assert_int_equal(kemet_study_run(st, threads), KEMET_OK);
    return st;
}

/* kemet_study_run on two threads, on one, and the stages played by hand
 * with each stage's units in a shuffled order: the same figures. */
static void run_equals_staged_shuffled(void **state) {
    (void)state;
    kemet_study_settings s = small();
    kemet_study *a = run_whole(&s, 2), *one = run_whole(&s, 1);
    kemet_study_figures fa, fone, fb;
    assert_int_equal(kemet_study_result(a, &fa), KEMET_OK);
    assert_int_equal(kemet_study_result(one, &fone), KEMET_OK);
    same_figures(&fa, &fone);
    /* the figures are real: games played, a ladder, SkillTrace */
    assert_int_equal(fa.weak.games, 30);
    assert_true(fa.strong.games >= 6 && fa.strong.games <= 16);
    assert_int_equal(fa.nsteps, 2);
    assert_false(isnan(fa.skill_trace));
    assert_true(fa.head.games >= 6);
    kemet_study *b;
    assert_int_equal(kemet_study_new(JUDGE, &s, &b, NULL), KEMET_OK);
    kemet_rng rng;
    kemet_rng_seed(&rng, 42);
    int stages = 0;
    long played = 0;
    for (;;) {
        long n;
        int groups;
        assert_int_equal(kemet_study_next(b, &n, &groups), KEMET_OK);
        if (n == 0)
            break;
        stages++;
        /* the groups cover the units in turn */
        long next = 0;
        for (int g = 0; g < groups; g++) {
            kemet_study_group info;
            assert_int_equal(kemet_study_group_info(b, g, &info), KEMET_OK);
            assert_int_equal(info.unit, next);
            assert_true(info.count > 0);
            assert_true(info.part >= 0 && info.part < KEMET_PARTS);
            assert_non_null(strstr(info.what, "chien-chacal: "));
            next += info.count;
        }
        assert_int_equal(next, n);
        long *u = malloc((size_t)n * sizeof *u);
        assert_non_null(u);
        for (long i = 0; i < n; i++)
            u[i] = i;
        for (long i = n - 1; i > 0; i--) {
            long j = (long)kemet_rng_below(&rng, (uint32_t)(i + 1)), t = u[i];
            u[i] = u[j];
            u[j] = t;
        }
        for (long i = 0; i < n; i++)
            assert_int_equal(kemet_study_play(b, u[i]), KEMET_OK);
        played += n;
        free(u);
    }
    assert_true(stages >= 2); /* the pilots, then the rest */
    assert_true(played > 30);
    assert_int_equal(kemet_study_result(b, &fb), KEMET_OK);
    same_figures(&fa, &fb);
    kemet_study_free(a);
    kemet_study_free(one);
    kemet_study_free(b);
}

/* Two studies of the same settings each play half of every stage and
 * take the other half's results as bytes, as the ranks of a run under
 * mpirun do: both end with the figures of one study that played all. */
static void units_carried_as_bytes(void **state) {
    (void)state;
    kemet_study_settings s = small();
    kemet_study *whole = run_whole(&s, 1), *c, *d;
    assert_int_equal(kemet_study_new(JUDGE, &s, &c, NULL), KEMET_OK);
    assert_int_equal(kemet_study_new(JUDGE, &s, &d, NULL), KEMET_OK);
    for (;;) {
        long n, m;
        assert_int_equal(kemet_study_next(c, &n, NULL), KEMET_OK);
        assert_int_equal(kemet_study_next(d, &m, NULL), KEMET_OK);
        assert_int_equal(n, m);
        if (n == 0)
            break;
        for (long u = 0; u < n; u++)
            assert_int_equal(kemet_study_play(u % 2 ? d : c, u), KEMET_OK);
        /* a unit not played has no bytes yet */
        size_t len = 0;
        assert_int_equal(kemet_study_unit_save(c, 1, NULL, 0, &len),
                         n > 1 ? KEMET_EMISUSE : KEMET_OK);
        for (long u = 0; u < n; u++) {
            kemet_study *from = u % 2 ? d : c, *to = u % 2 ? c : d;
            assert_int_equal(kemet_study_unit_save(from, u, NULL, 0, &len),
                             KEMET_ERANGE);
            assert_true(len > 0);
            char *buf = malloc(len);
            assert_non_null(buf);
            size_t got;
            assert_int_equal(kemet_study_unit_save(from, u, buf, len, &got),
                             KEMET_OK);
            assert_int_equal(got, len);
            /* bytes of another length are refused, and change nothing */
            assert_int_equal(kemet_study_unit_load(to, u, buf, len - 1),
                             KEMET_ESYNTAX);
            assert_int_equal(kemet_study_unit_load(to, u, buf, len), KEMET_OK);
            free(buf);
        }
    }
    kemet_study_figures fw, fc, fd;
    assert_int_equal(kemet_study_result(whole, &fw), KEMET_OK);
    assert_int_equal(kemet_study_result(c, &fc), KEMET_OK);
    assert_int_equal(kemet_study_result(d, &fd), KEMET_OK);
    same_figures(&fw, &fc);
    same_figures(&fw, &fd);
    kemet_study_free(whole);
    kemet_study_free(c);
    kemet_study_free(d);
}

/* A variant goes without the ladder and SkillTrace; its other figures
 * are the reading's own, as a study of the same reading measures them. */
static void variant_without_ladder(void **state) {
    (void)state;
    kemet_study_settings s = small();
    kemet_study *whole = run_whole(&s, 2);
    s.variant = 1;
    kemet_study *v = run_whole(&s, 2);
    kemet_study_figures fw, fv;
    assert_int_equal(kemet_study_result(whole, &fw), KEMET_OK);
    assert_int_equal(kemet_study_result(v, &fv), KEMET_OK);
    assert_int_equal(fv.variant, 1);
    assert_int_equal(fv.nsteps, 0);
    assert_true(isnan(fv.skill_trace) && isnan(fv.skill_trace_adj));
    same_selfplay(&fw.strong, &fv.strong);
    same_selfplay(&fw.weak, &fv.weak);
    same_match(&fw.head, &fv.head);
    for (int k = 0; k < KEMET_STUDY_PROBES; k++)
        same_match(&fw.probe[k], &fv.probe[k]);
    kemet_study_free(whole);
    kemet_study_free(v);
}

/* Settings out of range and unknown players are refused; stages misused
 * are refused. */
static void misuse(void **state) {
    (void)state;
    kemet_study_settings s = small();
    kemet_study *st = (kemet_study *)&s; /* not NULL: must be set NULL */
    kemet_error err;
    s.ladder[1] = "oracle";
    assert_int_equal(kemet_study_new(JUDGE, &s, &st, &err), KEMET_ESYNTAX);
    assert_null(st);
    assert_non_null(strstr(err.msg, "oracle"));
    s = small();
    s.rungs = 1;
    assert_int_equal(kemet_study_new(JUDGE, &s, &st, &err), KEMET_EMISUSE);
    s = small();
    s.precision = 0.6;
    assert_int_equal(kemet_study_new(JUDGE, &s, &st, &err), KEMET_EMISUSE);
    s = small();
    s.trace_base = 1 << 20;
    assert_int_equal(kemet_study_new(JUDGE, &s, &st, &err), KEMET_EMISUSE);
    assert_int_equal(kemet_study_new(NULL, &s, &st, &err), KEMET_EMISUSE);
    s = small();
    assert_int_equal(kemet_study_new(JUDGE, &s, &st, NULL), KEMET_OK);
    kemet_study_figures f;
    kemet_study_group g;
    assert_int_equal(kemet_study_result(st, &f), KEMET_EMISUSE);
    assert_int_equal(kemet_study_play(st, 0), KEMET_EMISUSE);
    long n;
    int groups;
    assert_int_equal(kemet_study_next(st, &n, &groups), KEMET_OK);
    assert_true(n > 0 && groups > 0);
    assert_int_equal(kemet_study_group_info(st, groups, &g), KEMET_ERANGE);
    assert_int_equal(kemet_study_play(st, n), KEMET_EMISUSE);
    assert_int_equal(kemet_study_play(st, 0), KEMET_OK);
    /* the stage is not played whole */
    assert_int_equal(kemet_study_next(st, &n, &groups), KEMET_EMISUSE);
    assert_int_equal(kemet_study_unit_load(st, 0, "x", 1), KEMET_ESYNTAX);
    kemet_study_free(st);
    kemet_study_free(NULL);
}

/* The verdict's figures of hand-made study figures: the skill is 2 x the
 * headline score - 1 held to 0..1; balance from strong play is player
 * 1's luck-adjusted score, from weak play the raw score (a draw a half)
 * with Wilson's interval; the stopped share pools both self-plays (3 of
 * 100 strong and 7 of 900 weak: 10 of 1000); the probe is the best
 * simple strategy, held to 0..1; a median beyond the cap starts at the
 * median turns the analysis counted. */
static void measured_from_figures(void **state) {
    (void)state;
    kemet_study_figures f = {0};
    f.strong.games = 100;
    f.strong.stopped = (kemet_stat){0.03, 0.01, 0.08};
    f.strong.median = (kemet_stat){INFINITY, INFINITY, INFINITY};
    f.strong.analysis.median_turns = 1000;
    f.strong.per_turn = (kemet_stat){0.5, -0.1, 1.1};
    f.strong.p1_adjusted = (kemet_stat){0.56, 0.52, 0.60};
    f.strong.analysis.lead_change = (kemet_stat){0.07, 0.05, 0.09};
    f.weak.games = 900;
    f.weak.analysis.games = 900;
    f.weak.analysis.wins[0] = 400;
    f.weak.analysis.draws = 100;
    f.weak.stopped = (kemet_stat){7.0 / 900, 0.003, 0.015};
    f.head.stats.adj = (kemet_estimate){0.6, 0.45, 1.0, 0, 0, 0};
    f.probe[0].stats.adj = (kemet_estimate){0.2, 0.1, 0.3, 0, 0, 0};
    f.probe[1].stats.adj = (kemet_estimate){-0.05, 0, 0.02, 0, 0, 0};
    f.probe[2].stats.adj = (kemet_estimate){0.35, 0.3, 0.41, 0, 0, 0};
    kemet_measured m, w;
    assert_int_equal(kemet_study_measured(&f, 0, &m), KEMET_OK);
    assert_int_equal(kemet_study_measured(&f, 1, &w), KEMET_OK);
    assert_int_equal(kemet_study_measured(NULL, 0, &m), KEMET_EMISUSE);
    const kemet_stat *k = &m.c[KEMET_CRIT_SKILL];
    assert_true(fabs(k->value - 0.2) < 1e-12 && k->lo == 0 && k->hi == 1);
    assert_true(m.c[KEMET_CRIT_BALANCE].value == 0.56);
    assert_true(fabs(w.c[KEMET_CRIT_BALANCE].value - 450.0 / 900) < 1e-12);
    double lo, hi;
    kemet_wilson(450, 900, 1.96, &lo, &hi);
    assert_true(w.c[KEMET_CRIT_BALANCE].lo == lo);
    const kemet_stat *st = &m.c[KEMET_CRIT_STOPPED];
    kemet_wilson(10, 1000, 1.96, &lo, &hi);
    assert_true(fabs(st->value - 0.01) < 1e-12 && st->lo == lo && st->hi == hi);
    assert_true(w.c[KEMET_CRIT_STOPPED].value == 7.0 / 900);
    const kemet_stat *p = &m.c[KEMET_CRIT_PROBES];
    assert_true(p->value == 0.35 && p->lo == 0.3 && p->hi == 0.41);
    const kemet_stat *len = &m.c[KEMET_CRIT_LENGTH];
    assert_true(isinf(len->value) && len->lo == 1000);
    assert_true(m.c[KEMET_CRIT_DECISIONS].lo == 0);
    assert_true(m.c[KEMET_CRIT_TENSION].value == 0.07);
}

/* Figures the stopping rule's final step adds nothing to, at precision
 * 0.01 and 20000 games at most: every sized sample of 100 games or more,
 * no game stopped by the turn cap in 1400. */
static kemet_study_figures settled_figures(void) {
    kemet_study_figures f = {0};
    f.nsteps = 3;
    f.strong.games = 400;
    f.weak.games = 1000;
    f.head.games = 654;
    for (int k = 0; k < 3; k++) {
        f.ladder[k].games = 212 + 100 * k;
        f.probe[k].games = 1352 + 10 * k;
    }
    return f;
}

/* The final step's condition (kemet_study_settled), the test a kept
 * measurement of revision 2 must pass to be read back: on hand-made
 * figures that would and would not make it add games. */
static void settled_condition(void **state) {
    (void)state;
    kemet_study_figures f = settled_figures(), g;
    assert_int_equal(kemet_study_settled(&f, 0.01, 20000), 1);
    assert_int_equal(kemet_study_settled(NULL, 0.01, 20000), 0);
    /* the skill from 36 games (chien-chacal's headline match): grown,
     * unless 36 is the cap */
    g = f;
    g.head.games = 36;
    assert_int_equal(kemet_study_settled(&g, 0.01, 20000), 0);
    assert_int_equal(kemet_study_settled(&g, 0.01, 36), 1);
    /* a ladder step's pilot of 20, where the spread was none */
    g = f;
    g.ladder[2].games = 20;
    assert_int_equal(kemet_study_settled(&g, 0.01, 20000), 0);
    g.nsteps = 2; /* no such step */
    assert_int_equal(kemet_study_settled(&g, 0.01, 20000), 1);
    g = f;
    g.probe[1].games = 84;
    assert_int_equal(kemet_study_settled(&g, 0.01, 20000), 0);
    g = f;
    g.strong.games = 74;
    assert_int_equal(kemet_study_settled(&g, 0.01, 20000), 0);
    assert_int_equal(kemet_study_settled(&g, 0.01, 74), 1);
    /* a stopped share of 0.012 near its line 0.010: 17 of 1400, Wilson's
     * interval 0.0076-0.0194, far wider than the target narrowed there
     * (a quarter of 0.01) */
    g = f;
    g.strong.stopped.value = 5.0 / 400;
    g.weak.stopped.value = 12.0 / 1000;
    assert_int_equal(kemet_study_settled(&g, 0.01, 20000), 0);
    assert_int_equal(kemet_study_settled(&g, 0.01, 400), 1); /* the cap */
    /* two targets or more from the line: not narrowed, not grown */
    g.strong.stopped.value = 20.0 / 400;
    g.weak.stopped.value = 50.0 / 1000;
    assert_int_equal(kemet_study_settled(&g, 0.01, 20000), 1);
    /* none stopped in 1400: 0 (0-0.0027), within its target 0.005 */
    assert_int_equal(kemet_study_settled(&f, 0.01, 20000), 1);
    /* 5 stopped of 16000: 0.0003 (0.0001-0.0007), settled */
    g = f;
    g.strong.games = 15000;
    g.strong.stopped.value = 5.0 / 15000;
    assert_int_equal(kemet_study_settled(&g, 0.01, 20000), 1);
    /* the verdict's figure from 36 games says so */
    g = f;
    g.head.games = 36;
    kemet_measured m;
    assert_int_equal(kemet_study_measured(&g, 0, &m), KEMET_OK);
    assert_int_equal(m.games[KEMET_CRIT_SKILL], 36);
    assert_int_equal(kemet_measured_indication(&m, KEMET_CRIT_SKILL), 1);
    assert_int_equal(m.games[KEMET_CRIT_STOPPED], 1400);
    assert_int_equal(kemet_measured_indication(&m, KEMET_CRIT_BALANCE), 0);
}

/* The share of games the turn cap stopped, a (Wilson's interval, over the
 * strong and weak self-play's games), within the target the stated rule
 * narrows near its threshold t: half the distance, not below h / 4. */
static bool stopped_within(const kemet_stat *a, double h, double t) {
    if (!(fabs(a->value - t) < 2 * h))
        return true;
    double target = fmin(h, fmax(fabs(a->value - t) / 2, h / 4));
    return fmax(a->value - a->lo, a->hi - a->value) <= target;
}

/* The final step on a real study: every sized sample grown to 100 games
 * (the sizings stop Chien et Chacal's pilots of 6 games where the
 * agents play alike), and with a turn cap of 100 turns, which stops
 * about one game in a hundred, the strong self-play grown until the
 * stopped share's interval is within its narrowed target (±0.005 at
 * precision 0.02: some 3000 games of greedy's, where the sizings of the
 * other figures ask for far fewer). */
static void final_step_grows(void **state) {
    (void)state;
    kemet_study_settings s = small();
    s.strong = "greedy";
    s.ladder[0] = "random";
    s.ladder[1] = "greedy";
    s.rungs = 2;
    s.games = 100;
    s.most = 4000;
    kemet_study *st;
    kemet_study_figures R;
    for (int cap = 0; cap < 2; cap++) {
        if (cap) { /* the stopped share near its line */
            s.cap = 100;
            s.precision = 0.02;
        }
        assert_int_equal(kemet_study_new(JUDGE, &s, &st, NULL), KEMET_OK);
        assert_int_equal(kemet_study_run(st, 2), KEMET_OK);
        assert_int_equal(kemet_study_result(st, &R), KEMET_OK);
        assert_true(R.strong.games >= 100 && R.head.games >= 100);
        assert_true(R.ladder[0].games >= 100);
        for (int k = 0; k < KEMET_STUDY_PROBES; k++)
            assert_true(R.probe[k].games >= 100);
        if (!cap)
            kemet_study_free(st);
    }
    kemet_measured m;
    assert_int_equal(kemet_study_measured(&R, 0, &m), KEMET_OK);
    const kemet_stat *a = &m.c[KEMET_CRIT_STOPPED];
    assert_true(a->value > 0.002 && a->value < 0.03); /* near the line */
    assert_true(R.strong.games > 100);                /* grown for it */
    assert_true(R.strong.games == s.most ||
                stopped_within(a, s.precision, 0.01));
    assert_int_equal(kemet_study_settled(&R, s.precision, s.most), 1);
    kemet_study_free(st);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(measured_from_figures),
        cmocka_unit_test(settled_condition),
        cmocka_unit_test(final_step_grows),
        cmocka_unit_test(misuse),
        cmocka_unit_test(run_equals_staged_shuffled),
        cmocka_unit_test(units_carried_as_bytes),
        cmocka_unit_test(variant_without_ladder),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
