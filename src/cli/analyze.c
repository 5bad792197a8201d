/* analyze.c - `kemet analyze`: which reconstruction makes the best game.
 *
 * Each reading (a ruleset, and each option value of a sweep) is measured
 * by the library as a study (kemet_study_*, src/lib/tools/study.c: strong
 * and weak self-play traced, the skill ladder, the strong agent against
 * the weak, SkillTrace, the degeneracy probes, each headline figure
 * sampled to a precision), and judged by the library's verdict
 * (kemet_verdict). This file schedules the studies: each stage's games of
 * every reading are played together in one pool dealt over the threads
 * (the costliest games first), or under mpirun each group of games dealt
 * over the ranks and its results carried to every rank; with --save each
 * reading is measured alone and kept (kept.c). Then the report: Markdown,
 * CSV or JSON, and the plots. Every game is seeded from (seed, ruleset,
 * part, index) and every size is fixed before its games are played, so
 * the numbers depend on neither the thread count nor the ranks.
 */
#include "report.h"
#include "verdict_words.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static const char analyze_usage[] =
    "usage: kemet analyze [RULESET...] [--precision H] [--max-games N]\n"
    "                     [--pilot P] [--games G] [--agents A,B]\n"
    "                     [--strong A] [--ladder A,B,...]\n"
    "                     [--trace-games T] [--trace-base B]\n"
    "                     [--sweep RULESET:KEY=LO..HI] [--board FILE]\n"
    "                     [--options RULESET[:KEY/KEY...],...]\n"
    "                     [--seed S] [--threads T] [--format md|csv|json]\n"
    "                     [--plots DIR] [--max-turns T] [--output FILE]\n"
    "                     [--save DIR] [--rules FILE] [--changes]\n"
    "                     [--ludii FILE] [--headroom A]\n"
    "                     [--check-seed S] [--from FILE.json]\n"
    "Measures each ruleset as a game (docs/analysis.md says how):\n"
    "self-play by agent --strong (default best:1k) with every throw's luck\n"
    "taken out of player 1's advantage, and by the agents --agents\n"
    "(default greedy,greedy; G games, default 1000): outcomes, balance,\n"
    "length, choices, tension (Ludii's metric names); the skill ladder\n"
    "--ladder (default random,greedy,expectimax:250,best:1k), each\n"
    "agent against the one below it in paired games scored less their\n"
    "luck; the strong agent against greedy: the luck share and the games\n"
    "the better player needs to lead; Ludii's SkillTrace (T games a match,\n"
    "default 30, as Ludii; expectimax budgets from B positions, default 8,\n"
    "doubling); the simple strategies rearmost, foremost and safe-random\n"
    "against the strong agent; then a verdict in tiers on stated criteria.\n"
    "Each headline figure is sampled until its 95% interval is within +-H\n"
    "(default 0.05; the median length +-4H of itself, LeadChange +-H/2): a\n"
    "pilot of P games (default 20), then the size its interval asks for,\n"
    "sized again from all the games so far while it is wider (5 sizings\n"
    "in all), then grown to 100 games where fewer, at most N games a\n"
    "figure (default 200); the report gives the half-width each figure\n"
    "reached, and a figure the cap left under 100 games is an indication\n"
    "that the verdict does not weigh.\n"
    "RULESET may carry options (lions-jackals:solid=2); 'all' names every\n"
    "ruleset, as no RULESET does (the quick report); --sweep adds the\n"
    "ruleset at each option value LO..HI to a comparison of variants;\n"
    "--options adds, for each RULESET listed, every combination of the\n"
    "values of its options KEY/KEY (all it takes where none is named)\n"
    "but the default one (senet-kendall,tab-58:marks/lines); the readings\n"
    "of Senet's board and of the 58 holes, rulesets and variants, are\n"
    "then judged among themselves (\"Which Senet?\", \"Which 58 holes?\").\n"
    "--board FILE plays every ruleset named on that board. --plots DIR\n"
    "writes SVG plots there; --output FILE writes the report whole or\n"
    "not at all. --save DIR keeps each ruleset's\n"
    "measurement there once made, and reads back what an earlier run of\n"
    "the same settings kept: a long run cut short goes on where it\n"
    "stopped. --changes measures each RULESET named without options again\n"
    "with each of its rules changed ('kemet rules RULESET --changes'), to\n"
    "twice the half-width, and reports what each rule does. --ludii FILE\n"
    "adds Ludii's random-play figures beside kemet's from\n"
    "docs/analysis/ludii/summary.csv. --headroom A plays the strong\n"
    "agent against a stronger A (best:20k), paired, less luck, to +-H.\n"
    "--check-seed S: every reading again at seed S (variants to +-2H),\n"
    "the tiers compared.\n"
    "--format json writes the report's whole data (docs/analysis-json.md);\n"
    "--from FILE.json writes the report and plots again from it alone.\n"
    "The same seed gives the same numbers whatever the threads,\n"
    "MPI ranks or --save.\n" RULES_HELP TABLES_HELP NET_HELP;

/* The simple strategies, in the order of a study's probes. */
static const char *const probe_name[KEMET_STUDY_PROBES] = {
    "rearmost", "foremost", "safe-random"};

/* ------------------------------------------------------------------------
 * Readings
 * --------------------------------------------------------------------- */

int rep_reading_take(rep_reading *R, const kemet_study *s) {
    kemet_study_figures f;
    int rc = kemet_study_result(s, &f);
    if (rc)
        return rc;
    rep_reading_free(R);
    for (int w = 0; w < 2; w++) {
        kemet_selfplay_figures *S = w ? &f.strong : &f.weak;
        for (int k = 0; k < S->nsample; k++) {
            size_t n = (size_t)S->sample_n[k] * sizeof(double);
            double *c = malloc(n ? n : 1);
            if (!c)
                return KEMET_ENOMEM;
            memcpy(c, S->sample[k], n);
            R->samples[w][k] = c;
            S->sample[k] = c;
        }
    }
    R->f = f;
    return KEMET_OK;
}

/* One reading while it is measured. */
typedef struct work {
    kemet_rules *r;
    kemet_judge *j;
    kemet_study *s;
    bool done; /* its figures taken into its reading */
} work;

/* Fills what R says of the reading W holds without a game played: its
 * names, board, endgame table and the number of ladder steps (none for a
 * variant). */
static void describe(const settings *st, bool variant, rep_reading *R,
                     const work *W) {
    const kemet_rules *r = W->r;
    snprintf(R->f.id, sizeof R->f.id, "%s", kemet_rules_spec(r));
    snprintf(R->title, sizeof R->title, "%s", kemet_rules_info(r)->title);
    snprintf(R->base, sizeof R->base, "%s", kemet_rules_info(r)->id);
    R->variant = variant;
    R->f.variant = variant;
    int cells = kemet_rules_info(r)->board_cells;
    R->board = kemet_rules_board_file(r) ? BOARD_OTHER
               : cells == 30             ? BOARD_SENET
               : cells == 59             ? BOARD_58
                                         : BOARD_OTHER;
    kemet_art(r, &R->art);
    const kemet_table *tb = kemet_judge_table(W->j);
    if (tb) {
        kemet_table_info ti;
        kemet_table_stats(tb, &ti);
        R->f.table_pieces = ti.pieces;
    }
    R->f.nsteps = variant ? 0 : st->s.rungs - 1;
}

/* What R says of the evaluation judge j plays by: its network (by the
 * kept files' hash), race database, and whether the start is valued by a
 * table or the race database. 0, or EXIT_BAD after a message. */
static int evaluation_of(const kemet_judge *j, rep_reading *R) {
    const kemet_net *nt = kemet_judge_net(j);
    R->net_hidden = nt ? kemet_net_hidden(nt) : 0;
    R->net_endgame = nt ? kemet_net_endgame(nt) : 0;
    R->race = kemet_judge_race(j) != NULL;
    kemet_pos start;
    kemet_start(kemet_judge_rules(j), &start);
    int exact = 0;
    R->start_value = kemet_judge_chance(j, &start, &exact);
    /* a race stays a race: a database that values the start values
       every position after it */
    R->exact_start = exact || (R->race && kemet_race_probe(kemet_judge_race(j),
                                                           &start, NULL));
    return kept_net_hash(j, &R->net);
}

/* Opens ruleset `spec` into W and describes it in R. */
static void fill_name(rep_reading *x);

static int work_rules(const char *spec, const settings *st, bool variant,
                      rep_reading *R, work *W) {
    W->r = cli_rules_for(spec, st->board, NULL, &W->j);
    if (!W->r)
        return EXIT_BAD;
    describe(st, variant, R, W);
    fill_name(R);
    return evaluation_of(W->j, R);
}

/* Opens rule change c of ruleset `spec` (kemet_rules_open_change: judged
 * by the evaluation of the reading it changes, without endgame table or
 * race database) into W, and describes it in R as a variant whose base is
 * reading `of`; c NULL: the control of its changes, the reading's own
 * rules judged in the same way. */
static int work_change(const char *spec, const kemet_change *c, int of,
                       const settings *st, rep_reading *R, work *W) {
    kemet_rules *base = cli_rules(spec, st->board);
    if (!base)
        return EXIT_BAD;
    kemet_error e;
    int rc = 0;
    if (c)
        rc = kemet_rules_open_change(base, c, &W->r, &e);
    else
        W->r = base;
    if (c)
        kemet_rules_close(base);
    if (rc)
        return cli_fail("analyze: %s: %s", c->id, e.msg);
    if (kemet_judge_new(W->r, NULL, &W->j, &e))
        return cli_fail("analyze: %s: %s", c ? c->id : spec, e.msg);
    describe(st, true, R, W);
    R->change_of = of + 1;
    R->control = !c;
    if (c)
        R->change = *c;
    fill_name(R);
    return evaluation_of(W->j, R);
}

/* Whether the changes of a reading measured with judge j need a control
 * of their own: its judge reads an endgame table or a race database,
 * which theirs cannot (a changed rule changes the positions' values). */
static bool needs_control(const kemet_judge *j) {
    return kemet_judge_table(j) || kemet_judge_race(j);
}

static void work_free(work *W) {
    kemet_study_free(W->s);
    kemet_judge_free(W->j);
    kemet_rules_close(W->r);
    *W = (work){0};
}

/* ------------------------------------------------------------------------
 * Pools: the games of every reading's stage, played together
 *
 * Each stage of every study (its pilots and fixed samples first, then
 * the rest of each sample, then while any figure is short of its target
 * the games all its games so far ask for) goes into one pool, its groups
 * in the order the studies give them (the longest games first), dealt
 * over the threads game by game: a thread is idle only at the end of a
 * pool, not at the end of each part. Every game is seeded from its index
 * alone, so the order of play changes no number. Under mpirun the groups
 * are played one after another, each dealt over the ranks, and each
 * game's result carried to every rank (kemet_study_unit_save, _load).
 * --------------------------------------------------------------------- */

/* One group of a study's stage in a pool. */
typedef struct entry {
    int order, seq; /* played in this order */
    kemet_study *s;
    rep_reading *R; /* its part's time added to */
    kemet_study_group g;
} entry;

typedef struct pool {
    entry *e;
    int n, room;
    long *start;  /* entry k's first item */
    double *secs; /* each item's thread time */
} pool;

static int pool_add(pool *P, kemet_study *s, rep_reading *R,
                    const kemet_study_group *g) {
    if (P->n == P->room) {
        int room = P->room ? 2 * P->room : 64;
        entry *e = realloc(P->e, (size_t)room * sizeof *e);
        if (!e)
            return KEMET_ENOMEM;
        P->e = e;
        P->room = room;
    }
    P->e[P->n] = (entry){g->order, P->n, s, R, *g};
    P->n++;
    return KEMET_OK;
}

static int pool_item(void *ctx, long i) {
    pool *P = ctx;
    int lo = 0, hi = P->n - 1;
    while (lo < hi) { /* the entry of item i: the last to start by i */
        int mid = (lo + hi + 1) / 2;
        if (P->start[mid] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    const entry *e = &P->e[lo];
    double t = cli_thread_time();
    int rc = kemet_study_play(e->s, e->g.unit + (i - P->start[lo]));
    P->secs[i] = cli_thread_time() - t;
    return rc;
}

static int by_order(const void *a, const void *b) {
    const entry *x = a, *y = b;
    if (x->order != y->order)
        return (x->order > y->order) - (x->order < y->order);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Under mpirun: this rank's games of group e, e's units rank, rank +
 * size, ... */
typedef struct dealt {
    const entry *e;
    int rank, size;
} dealt;

static int dealt_item(void *ctx, long k) {
    const dealt *D = ctx;
    return kemet_study_play(D->e->s, D->e->g.unit + D->rank + k * D->size);
}

/* Under mpirun, after each rank played its share of group e (`rc` its
 * status): every game's result to every rank, each as its bytes. The
 * worst status of any rank. */
static int exchange(const entry *e, int rc) {
    int rank = cli_mpi_rank(), size = cli_mpi_size();
    long count = e->g.count, mine = cli_mpi_share(count);
    long *len_mine = malloc((size_t)(mine ? mine : 1) * sizeof *len_mine);
    long *len_all = malloc((size_t)count * sizeof *len_all);
    long *counts = calloc((size_t)size, sizeof *counts);
    char *bytes_mine = NULL, *bytes_all = NULL;
    size_t total = 0;
    if (!len_mine || !len_all || !counts)
        rc = rc ? rc : KEMET_ENOMEM;
    for (long k = 0; !rc && k < mine; k++) {
        size_t len = 0;
        kemet_study_unit_save(e->s, e->g.unit + rank + k * size, NULL, 0, &len);
        len_mine[k] = (long)len;
        total += len;
    }
    if (!rc && !(bytes_mine = malloc(total ? total : 1)))
        rc = KEMET_ENOMEM;
    for (long k = 0, at = 0; !rc && k < mine; k++) {
        size_t len;
        rc = kemet_study_unit_save(e->s, e->g.unit + rank + k * size,
                                   bytes_mine + at, (size_t)len_mine[k], &len);
        at += len_mine[k];
    }
    /* every game's length to every rank, the worst status with them */
    rc = cli_mpi_deal(count, sizeof *len_all, len_mine, len_all,
                      len_all ? rc : KEMET_ENOMEM);
    size_t all = 0;
    for (long i = 0; !rc && i < count; i++) {
        counts[i % size] += len_all[i];
        all += (size_t)len_all[i];
    }
    if (!rc && !(bytes_all = malloc(all ? all : 1)))
        rc = KEMET_ENOMEM;
    if (!rc)
        rc = cli_mpi_join_known(bytes_mine, bytes_all, 1, counts);
    /* rank r's games r, r + size, ... in turn */
    size_t at = 0;
    for (int r = 0; !rc && r < size; r++)
        for (long i = r; !rc && i < count; i += size) {
            if (r != rank)
                rc = kemet_study_unit_load(e->s, e->g.unit + i, bytes_all + at,
                                           (size_t)len_all[i]);
            at += (size_t)len_all[i];
        }
    free(len_mine);
    free(len_all);
    free(counts);
    free(bytes_mine);
    free(bytes_all);
    return rc;
}

/* Plays the pool P: dealt over the threads (each game's thread time
 * added to its part), or under mpirun each group in turn dealt over the
 * ranks (its wall time added). */
static int run_pool(pool *P, int threads, const char *what) {
    if (P->n > 1)
        qsort(P->e, (size_t)P->n, sizeof *P->e, by_order);
    int rc = 0;
    if (cli_mpi_size() > 1) {
        for (int k = 0; k < P->n && !rc; k++) {
            const entry *e = &P->e[k];
            double t = cli_now();
            dealt D = {e, cli_mpi_rank(), cli_mpi_size()};
            rc = cli_parallel_dealt(cli_mpi_share(e->g.count), e->g.count,
                                    threads, dealt_item, &D, e->g.what);
            rc = exchange(e, rc);
            e->R->part_secs[e->g.part] += cli_now() - t;
        }
        return rc;
    }
    P->start = malloc(((size_t)P->n + 1) * sizeof *P->start);
    long total = 0;
    for (int k = 0; P->start && k < P->n; k++) {
        P->start[k] = total;
        total += P->e[k].g.count;
    }
    P->secs = calloc((size_t)(total ? total : 1), sizeof *P->secs);
    if (!P->start || !P->secs)
        rc = KEMET_ENOMEM;
    else
        rc = cli_parallel(total, threads, pool_item, P, what);
    for (int k = 0; !rc && k < P->n; k++)
        for (long i = 0; i < P->e[k].g.count; i++)
            P->e[k].R->part_secs[P->e[k].g.part] += P->secs[P->start[k] + i];
    free(P->start);
    free(P->secs);
    P->start = NULL;
    P->secs = NULL;
    return rc;
}

/* The settings of a headroom study (--headroom A): the strong agent
 * against A, paired and luck-adjusted, alone. */
static void headroom_settings(const settings *st, kemet_study_settings *s) {
    s->strong = st->headroom;
    s->weak[0] = s->weak[1] = st->s.strong;
    s->parts = 1 << KEMET_PART_HEAD;
    s->variant = 1;
}

/* The settings of a reading measured again at the second seed
 * (--check-seed): a variant to twice the half-width. */
static void check_settings(const settings *st, bool variant,
                           kemet_study_settings *s) {
    s->seed = st->check_seed;
    if (variant)
        s->precision = 2 * st->s.precision;
}

static int measure(const settings *st, rep_reading *R, work *W, int lo, int hi);

/* Reading i read back from where an earlier run kept it under the
 * settings k (--save), else measured alone and kept; its opening lines
 * into `head` (NULL: not wanted), its wall time added to *secs. W[i] is
 * freed either way. */
static int measure_kept(const settings *st, const kept_settings *k,
                        rep_reading *R, work *W, int i, char *head,
                        double *secs) {
    char h[KEPT_HEAD], path[4096];
    int rc =
        kept_header(k, st->save, &R[i], W[i].j, h, sizeof h, path, sizeof path);
    if (rc)
        return rc;
    if (head)
        memcpy(head, h, sizeof h);
    if ((rc = kept_load(path, h, k->st, &R[i])) == 1) {
        *secs += R[i].wall;
        work_free(&W[i]);
        return 0;
    }
    double t = cli_now();
    if (rc == 0 && (rc = measure(st, R, W, i, i + 1)) == 0) {
        R[i].wall = cli_now() - t;
        *secs += R[i].wall;
        if (cli_mpi_rank() == 0)
            rc = kept_save(path, h, &R[i]);
    }
    work_free(&W[i]);
    return rc;
}

/* Measures readings lo..hi-1 (opened by work_rules): every study's
 * stages in pools, until every study is measured whole. */
static int measure(const settings *st, rep_reading *R, work *W, int lo,
                   int hi) {
    int rc = 0;
    for (int i = lo; i < hi && !rc; i++) {
        kemet_study_settings s = st->s;
        s.variant = R[i].variant;
        if (R[i].change_of) /* a rule change: to twice the half-width */
            s.precision = 2 * st->s.precision;
        if (R[i].headroom_of)
            headroom_settings(st, &s);
        if (R[i].check_of) /* at the second seed; a variant to 2H */
            check_settings(st, R[i].variant, &s);
        kemet_error err;
        if (kemet_study_new(W[i].j, &s, &W[i].s, &err))
            rc = cli_fail("analyze: %s", err.msg);
        W[i].done = false;
    }
    pool P = {0};
    for (int round = 0; !rc; round++) {
        P.n = 0;
        for (int i = lo; i < hi && !rc; i++) {
            if (W[i].done)
                continue;
            long units;
            int ng;
            if ((rc = kemet_study_next(W[i].s, &units, &ng)))
                break;
            if (units == 0) {
                W[i].done = true;
                rc = rep_reading_take(&R[i], W[i].s);
                continue;
            }
            for (int g = 0; g < ng && !rc; g++) {
                kemet_study_group info;
                rc = kemet_study_group_info(W[i].s, g, &info);
                if (!rc)
                    rc = pool_add(&P, W[i].s, &R[i], &info);
            }
        }
        if (rc || P.n == 0)
            break;
        char what[80];
        if (round == 0)
            snprintf(what, sizeof what, "analyze: pilots and fixed samples");
        else if (round == 1)
            snprintf(what, sizeof what, "analyze: the rest of each sample");
        else
            snprintf(what, sizeof what, "analyze: samples topped up (round %d)",
                     round);
        rc = run_pool(&P, st->threads, what);
    }
    free(P.e);
    for (int i = lo; i < hi && !rc; i++) {
        R[i].secs = 0;
        for (int k = 0; k < KEMET_PARTS; k++)
            R[i].secs += R[i].part_secs[k];
    }
    return rc;
}

/* ------------------------------------------------------------------------
 * The verdict (kemet_verdict)
 * --------------------------------------------------------------------- */

/* Whether step s's stronger agent is shown to be better: its interval
 * wholly above one half (games to lead are given only then). */
static bool shown_better(const kemet_match_figures *s) {
    return s->stats.adj.lo > 0.5 && !isnan(s->stats.adj.lo);
}

/* x held to 0..1. */
static double in_unit(double x) {
    return fmin(1, fmax(0, x));
}

/* The share of the games decided by the better choices of an agent
 * that scores s: 2s - 1, held to 0..1. */
static double edge_of(double s) {
    return in_unit(2 * s - 1);
}

/* The verdict's figures of reading R from strong and weak play, and its
 * flags under strong play. */
static void figures_of(rep_reading *R) {
    kemet_study_measured(&R->f, 0, &R->vm[0]);
    kemet_study_measured(&R->f, 1, &R->vm[1]);
    R->flags = 0;
    for (int c = 0; c < KEMET_CRITERIA; c++)
        if (kemet_criterion_flag(c, &R->vm[0].c[c]) &&
            !kemet_measured_indication(&R->vm[0], c))
            R->flags |= 1 << c;
}

/* Judges the n rulesets from strong play (w = 0) or weak (w = 1), the
 * judgement kept in R[i].vj[w]; ord[k] is the k-th. */
static void judge(rep_reading *R, int n, int w, int *ord) {
    kemet_measured m[REPORT_MAX_SETS];
    kemet_judged J[REPORT_MAX_SETS];
    memset(m, 0, sizeof m);
    for (int i = 0; i < n; i++)
        m[i] = R[i].vm[w];
    kemet_verdict(m, n, -1, J, ord);
    for (int i = 0; i < n; i++)
        R[i].vj[w] = J[i];
}

/* ------------------------------------------------------------------------
 * The report
 * --------------------------------------------------------------------- */
static void md_stat(FILE *o, const kemet_stat *s, double scale, int digits) {
    if (isnan(s->value)) {
        fprintf(o, " — |");
        return;
    }
    if (isnan(s->lo))
        fprintf(o, " %.*f |", digits, scale * s->value);
    else
        fprintf(o, " %.*f (%.*f–%.*f) |", digits, scale * s->value, digits,
                scale * s->lo, digits, scale * s->hi);
}

/* A figure that lies in 0..1 by its definition (a share, a chance), its
 * normal interval held to 0..1 as well. */
static void md_unit(FILE *o, const kemet_stat *s) {
    kemet_stat x = *s;
    if (!isnan(x.lo)) {
        x.lo = fmax(0, x.lo);
        x.hi = fmin(1, x.hi);
    }
    md_stat(o, &x, 1, 3);
}

/* A luck-adjusted score held to 0..1, as its interval is (match.c). */
static double held(const kemet_estimate *e) {
    return e->score < 0 ? 0 : e->score > 1 ? 1 : e->score;
}

static void md_est(FILE *o, const kemet_estimate *e) {
    fprintf(o, " %.3f (%.3f–%.3f) |", held(e), e->lo, e->hi);
}

/* An image line for plot `name`, when the plots are written (`link` is
 * the plot folder as seen from the report). */
static void md_plot(FILE *o, const char *link, const char *name,
                    const char *alt) {
    if (link)
        fprintf(o, "\n![%s](%s/%s)\n", alt, link, name);
}

/* Digits a criterion's figure is written with. */
static int crit_digits(int c) {
    return c == KEMET_CRIT_LENGTH                               ? 0
           : c == KEMET_CRIT_DECISIONS || c == KEMET_CRIT_SKILL ? 2
                                                                : 3;
}

/* Criterion c's figure s, its interval in brackets; "cap" for an end
 * beyond the turn cap (censored). */
static void put_figure(FILE *o, int c, const kemet_stat *s) {
    int d = crit_digits(c);
    if (isnan(s->value)) {
        fprintf(o, "—");
        return;
    }
    if (isinf(s->value))
        fprintf(o, "beyond the cap");
    else
        fprintf(o, "%.*f", d, s->value);
    if (isnan(s->lo) || isinf(s->lo))
        return; /* no interval, or all of it beyond the cap */
    fprintf(o, " (%.*f–", d, s->lo);
    if (isinf(s->hi))
        fprintf(o, "cap)");
    else
        fprintf(o, "%.*f)", d, s->hi);
}

/* A cost or a penalty: "∞" where a median length lies beyond the cap. */
static void put_cost(FILE *o, double x) {
    if (isinf(x))
        fprintf(o, "%s∞", x < 0 ? "−" : "");
    else
        fprintf(o, "%.2f", x);
}

/* A penalty with its range: "0.50 (0.42–1.02)". */
static void put_penalty(FILE *o, const kemet_judged *J) {
    put_cost(o, J->penalty.value);
    fprintf(o, " (");
    put_cost(o, J->penalty.lo);
    fprintf(o, "–");
    put_cost(o, J->penalty.hi);
    fprintf(o, ")");
}

/* A threshold or a band's end: "—" where there is none. */
static void put_bound(FILE *o, int c, double x) {
    if (isnan(x) || isinf(x))
        fprintf(o, "—");
    else
        fprintf(o, "%.*f", crit_digits(c) ? crit_digits(c) : 0, x);
}

/* Criterion c's band: "20 to 150", "0.25 or more", "none" (no cost). */
static void put_band(FILE *o, int c) {
    const kemet_criterion *k = kemet_criterion_info(c);
    if (k->band_lo <= 0 && k->band_hi >= 1 && !k->log2)
        fprintf(o, "any (no cost)");
    else if (isinf(k->band_hi)) {
        put_bound(o, c, k->band_lo);
        fprintf(o, " or more");
    } else {
        put_bound(o, c, k->band_lo);
        fprintf(o, " to ");
        put_bound(o, c, k->band_hi);
    }
}

/* The names of the criteria flagged in f, separated by "; ". */
static void put_flags(FILE *o, int f) {
    if (!f)
        fprintf(o, "none");
    for (int c = 0, first = 1; c < KEMET_CRITERIA; c++)
        if (f >> c & 1) {
            fprintf(o, "%s%s", first ? "" : "; ",
                    kemet_criterion_info(c)->name);
            first = 0;
        }
}

/* Why criterion c flags figure s: the figure and the threshold its
 * interval lies past (the criterion's reason is given once, with the
 * criteria). */
static void flag_detail(FILE *o, int c, const kemet_stat *s) {
    const kemet_criterion *k = kemet_criterion_info(c);
    put_figure(o, c, s);
    bool below = !isnan(k->flag_lo) && s->hi < k->flag_lo;
    fprintf(o, ", wholly %s ", below ? "below" : "above");
    put_bound(o, c, below ? k->flag_lo : k->flag_hi);
}

/* The weakest point of ruleset R (all[i] its judgement, of n) in words: its
 * flags, or else the criterion that costs it most, with the figure
 * behind it. A flagged ruleset whose penalty alone would place it above
 * unflagged ones says so: the flag, not the penalty, sets it after them. */
static void weakest(FILE *o, const rep_reading *R, const kemet_judged *all,
                    int n, int i) {
    const kemet_judged *J = &R->vj[0];
    if (J->flags) {
        fprintf(o, "flagged on ");
        for (int c = 0, first = 1; c < KEMET_CRITERIA; c++)
            if (J->flags >> c & 1) {
                fprintf(o, "%s%s: ", first ? "" : "; ",
                        kemet_criterion_info(c)->name);
                flag_detail(o, c, &R->vm[0].c[c]);
                first = 0;
            }
        int clean, above = kemet_verdict_outranks(all, n, i, &clean);
        if (above > 0) {
            fprintf(o, ". Its penalty apart from the flag, ");
            put_penalty(o, J);
            fprintf(o,
                    ", is below that of %d of the %d unflagged rulesets; "
                    "the flag alone sets it after them",
                    above, clean);
        }
        return;
    }
    int c = 0;
    for (int k = 1; k < KEMET_CRITERIA; k++)
        if (J->cost[k].value > J->cost[c].value)
            c = k;
    if (!(J->cost[c].value > 0)) {
        fprintf(o, "every figure within its band");
        return;
    }
    const kemet_criterion *k = kemet_criterion_info(c);
    fprintf(o, "%s costs most (", k->name);
    put_cost(o, J->cost[c].value);
    fprintf(o, "): ");
    put_figure(o, c, &R->vm[0].c[c]);
    if (c == KEMET_CRIT_SKILL)
        fprintf(o, " between %s and %s", R->f.head.upper, R->f.head.lower);
    fprintf(o, ", against the band ");
    put_band(o, c);
    if (c == KEMET_CRIT_BALANCE)
        fprintf(o, "; the seat that moves %s gains",
                R->vm[0].c[c].value > 0.5 ? "first" : "second");
}

/* The terms of the report, each defined here once; the other sections
 * use them and refer here. */
static void print_glossary(FILE *o, const settings *st) {
    fprintf(o,
            "## Glossary\n\n"
            "Of the readings:\n\n"
            "- **reading**: one published reconstruction of a game's rules, "
            "as kemet plays it; named in the text by its title, author and "
            "year, in the tables by its ruleset id (*The readings "
            "measured*).\n"
            "- **variant**: a reading with some of its options changed, "
            "measured as a game of its own; its options are given in the "
            "words of its rules.\n"
            "- **control**: a reading's own rules measured as its rule "
            "changes are, without the endgame table or race database the "
            "reading was measured with, so that a change differs from it "
            "by the rule alone (`--changes`).\n\n"
            "Of the measurement:\n\n"
            "- **strong agent**, **weak agent**: %s, a search "
            "(`--strong`), and %s, a simpler agent (`--agents`, "
            "docs/agents.md); **self-play**: the strong agent against "
            "itself (strong self-play) or the weak agents against each "
            "other (weak self-play).\n"
            "- **paired games**: two games that throw alike with the seats "
            "swapped.\n"
            "- **luck**: how much better a throw leaves player 1 than the "
            "average throw would, in win chance; a game's luck is the sum "
            "over its throws.\n"
            "- **luck-adjusted score**: the mean of a game's result (win 1, "
            "draw ½, loss 0) less its luck: the same expected value as the "
            "raw score with a far narrower interval; held to 0..1 with its "
            "interval in the report.\n"
            "- **luck share**: over the games of %s against %s, the share "
            "of the variance of a game's result that the luck explains, "
            "Var(luck) / (Var(luck) + Var(result − luck)): 0 is a game of "
            "pure skill, 1 of pure chance. A figure, not a criterion: the "
            "variance it leaves to the choices holds every move either "
            "agent plays unlike the evaluation's choice, even where the "
            "two play alike.\n"
            "- **games to lead**: how many games the stronger player needs "
            "to be ahead at the end with 95%% confidence (one-sided), from "
            "its luck-adjusted score and the spread of one game's result; "
            "given only where it is shown to be better (its score's "
            "interval wholly above one half).\n"
            "- **the ladder**: each agent against the one below it, in "
            "paired games, luck-adjusted (*Skill*).\n"
            "- **SkillTrace**: Ludii's measure of how much deeper search "
            "keeps gaining, from matches of expectimax at doubling "
            "budgets; **kemet's trace**: the same formula on the same "
            "games with their luck taken out (both as *How it is "
            "measured* describes).\n"
            "- **simple strategies**: *rearmost* always moves the piece "
            "furthest back, *foremost* the piece furthest ahead, "
            "*safe-random* a random move among those that lose at most a "
            "tenth of a win chance one move ahead; each is played against "
            "the strong agent, paired and luck-adjusted (the probes, "
            "below).\n"
            "- **saturated**: the skill figures are saturated for these "
            "agents where a stronger agent's luck-adjusted score against "
            "the strong agent lies within 0.49–0.51 (*Headroom*, where "
            "measured); elsewhere they are lower bounds.\n"
            "- **half-width**: the larger distance from an estimate to an "
            "end of its 95%% interval; each headline figure is sampled "
            "until its half-width is within its **target** (*How it is "
            "measured*, *Appendix: precision reached*).\n"
            "- Ludii's names, where Ludii defines the figure: Completion, "
            "Drawishness, AdvantageP1, Balance, DurationTurns, "
            "BranchingFactor, **LeadChange** (how often the player ahead "
            "changes), Drama, DecisivenessThreshold, BoardCoverage (the "
            "share of the board's holes ever landed on), SkillTrace.\n\n"
            "Of the verdict, its criteria first (their bands and reasons: "
            "*The criteria of the verdict*):\n\n",
            st->s.strong, st->s.weak[0], st->s.strong, st->s.weak[0]);
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        const kemet_criterion *k = kemet_criterion_info(c);
        fprintf(o, "- **%s**: %s", k->name, k->figure);
        if (c == KEMET_CRIT_SKILL)
            fprintf(o, "; were each game either decided by those choices "
                       "or a toss-up, the strong agent would score one "
                       "half plus half that share. Held to 0..1, its "
                       "interval from the score's");
        else if (c == KEMET_CRIT_STOPPED)
            fprintf(o, " (the **stopped share**; the cap: %ld turns)",
                    st->s.cap);
        fprintf(o, ".\n");
    }
    fprintf(o, "- **band**, **cost**: each criterion has a band where its "
               "figure costs nothing; outside it, the figure costs its "
               "distance from the band in the criterion's units (the length "
               "in doublings).\n"
               "- **penalty**: the sum of a reading's costs, with its "
               "**range**, the costs' ranges combined (*The criteria of the "
               "verdict*).\n"
               "- **flag**: a criterion with a threshold flags a reading when "
               "the figure's whole 95%% interval lies past it; a flagged "
               "reading ranks after every unflagged one.\n"
               "- **tier**: a chain of readings whose penalty ranges overlap; "
               "readings in different tiers have ranges that do not overlap, "
               "so their order is a finding, and within a tier the order is "
               "not.\n\n");
}

/* One agent of the report: its spec and the parts it plays in. */
typedef struct agent_use {
    char spec[64];
    char roles[400];
} agent_use;

/* Adds `role` to agent `spec`'s parts among the n in U (a new one if it
 * is not there yet; at most `room`). */
static void agent_role(agent_use *U, int *n, int room, const char *spec,
                       const char *role) {
    int i = 0;
    while (i < *n && strcmp(U[i].spec, spec) != 0)
        i++;
    if (i == *n) {
        if (*n == room)
            return;
        snprintf(U[i].spec, sizeof U[i].spec, "%s", spec);
        U[i].roles[0] = 0;
        ++*n;
    }
    size_t len = strlen(U[i].roles);
    snprintf(U[i].roles + len, sizeof U[i].roles - len, "%s%s", len ? "; " : "",
             role);
}

/* A budget as written after the colon, in words: "1k" is 1,000
 * positions a move, "d3" three plies, "500ms" a time. */
static void put_budget(FILE *o, const char *b, bool iterations) {
    char *end;
    double x = strtod(b, &end);
    if (*b == 'd')
        fprintf(o, "%s plies deep", b + 1);
    else if (end != b && (*end == 'k' || *end == 'm') && end[1] == 0)
        fprintf(o, "%.0f %s a move", x * (*end == 'k' ? 1e3 : 1e6),
                iterations ? "iterations" : "positions");
    else if (end != b && *end == 0)
        fprintf(o, "%.0f %s a move", x,
                iterations ? "iterations" : "positions");
    else
        fprintf(o, "%s a move (a time: not reproducible)", b);
}

/* Agent `spec` in a table row: its search, budget (`budgets` in words
 * in place of its own, when given) and evaluation. */
static void put_agent(FILE *o, const char *spec, const char *budgets) {
    char name[64];
    size_t k = strcspn(spec, ":~@");
    k = k < sizeof name - 1 ? k : sizeof name - 1;
    memcpy(name, spec, k);
    name[k] = 0;
    const char *colon = strchr(spec, ':'), *tilde = strchr(spec, '~'),
               *at = strchr(spec, '@');
    char budget[32] = "";
    if (colon)
        snprintf(budget, sizeof budget, "%.*s", (int)strcspn(colon + 1, "~@"),
                 colon + 1);
    bool searches = strcmp(name, "expectimax") == 0 ||
                    strcmp(name, "best") == 0 || strcmp(name, "mcts") == 0;
    /* search */
    if (strcmp(name, "random") == 0)
        fprintf(o, "none: a legal move at random");
    else if (strcmp(name, "greedy") == 0)
        fprintf(o, "none: one move ahead, the move after which the "
                   "evaluation gives the mover the best chance");
    else if (strcmp(name, "rearmost") == 0)
        fprintf(o, "none: always the piece furthest back");
    else if (strcmp(name, "foremost") == 0)
        fprintf(o, "none: always the piece furthest ahead");
    else if (strcmp(name, "safe-random") == 0)
        fprintf(o, "none: a random move among those that lose at most a "
                   "tenth of a win chance one move ahead");
    else if (strcmp(name, "expectimax") == 0)
        fprintf(o, "expectiminimax over the throws' exact chances, "
                   "Star1/Star2 pruning, deepening until the budget is "
                   "spent");
    else if (strcmp(name, "best") == 0)
        fprintf(o, "expectimax's (below); where a throw leaves more than 32 "
                   "moves, Monte Carlo tree search with one iteration per 50 "
                   "positions of the budget");
    else if (strcmp(name, "mcts") == 0)
        fprintf(o, "Monte Carlo tree search with chance nodes");
    else
        fprintf(o, "docs/agents.md");
    if (tilde)
        fprintf(o, "; a share %.*s of its choices at random",
                (int)strcspn(tilde + 1, "@"), tilde + 1);
    /* budget */
    fprintf(o, "; budget: ");
    if (!searches)
        fprintf(o, "—");
    else if (budgets)
        fprintf(o, "%s", budgets);
    else if (*budget)
        put_budget(o, budget, strcmp(name, "mcts") == 0);
    else
        fprintf(o, "its default (docs/agents.md)");
    /* evaluation */
    fprintf(o, "; evaluation: ");
    if (strcmp(name, "random") == 0 || strcmp(name, "rearmost") == 0 ||
        strcmp(name, "foremost") == 0)
        fprintf(o, "none");
    else if (at && strcmp(at, "@plain") == 0)
        fprintf(o, "the linear weights alone: no network, exact table or "
                   "race database");
    else if (at && strcmp(at, "@linear") == 0)
        fprintf(o, "the linear weights instead of the network%s",
                searches ? "; the exact table and race database where they "
                           "reach"
                         : "");
    else if (searches)
        fprintf(o, "at the leaves, the exact table or the race database "
                   "where one values the position, else the reading's "
                   "network (or its linear weights where it has none)");
    else
        fprintf(o, "the reading's network (or its linear weights where it "
                   "has none) alone, never the exact table or race "
                   "database");
}

/* "The agents": every agent the report names, once, in plain words: its
 * search, its budget, its evaluation, and the parts it plays in. */
static void print_agents(FILE *o, const settings *st) {
    agent_use U[32];
    int n = 0;
    char role[200];
    const kemet_study_settings *s = &st->s;
    snprintf(role, sizeof role,
             "the strong agent: strong self-play, "
             "against %s (*Luck and skill*), against "
             "the probes",
             s->weak[0]);
    agent_role(U, &n, 32, s->strong, role);
    agent_role(U, &n, 32, s->weak[0], "weak self-play");
    if (strcmp(s->weak[1], s->weak[0]) != 0)
        agent_role(U, &n, 32, s->weak[1], "weak self-play");
    snprintf(role, sizeof role,
             "the weak agent of *Luck and skill* and "
             "of the skill criterion");
    agent_role(U, &n, 32, s->weak[0], role);
    for (int k = 0; k < s->rungs; k++) {
        snprintf(role, sizeof role, "the ladder's rung %d of %d", k + 1,
                 s->rungs);
        agent_role(U, &n, 32, s->ladder[k], role);
    }
    for (int k = 0; k < KEMET_STUDY_PROBES; k++) {
        snprintf(role, sizeof role, "a degeneracy probe, against %s",
                 s->strong);
        agent_role(U, &n, 32, probe_name[k], role);
    }
    agent_role(U, &n, 32, "greedy@plain",
               "never played: its choice is scored against the exact "
               "table's best (*Perfect play where an exact table "
               "reaches*)");
    fprintf(o, "### The agents\n\nEvery agent named in this report, once "
               "(docs/agents.md has them in full). An agent judges positions "
               "by the reading's own evaluation, given for each reading in "
               "*The readings measured*: its network where the library "
               "carries one, else its linear weights; a search reads the "
               "exact endgame table and the race database as well, where "
               "they are in use, and greedy does not. Each agent: its "
               "search; its budget; its evaluation; where it plays.\n\n");
    for (int i = 0; i < n; i++) {
        fprintf(o, "- **%s**: search: ", U[i].spec);
        put_agent(o, U[i].spec, NULL);
        fprintf(o, ". Plays: %s.\n", U[i].roles);
    }
    if (s->trace_games > 0) {
        fprintf(o, "- **expectimax:%ld … expectimax:%ld**: search: ",
                s->trace_base, s->trace_base << KEMET_STUDY_TRACE);
        char b[96];
        snprintf(b, sizeof b, "%ld to %ld positions a move", s->trace_base,
                 s->trace_base << KEMET_STUDY_TRACE);
        put_agent(o, "expectimax", b);
        fprintf(o, ". Plays: SkillTrace's matches, each budget against twice "
                   "itself.\n");
    }
    fputc('\n', o);
}

static void print_method(FILE *o, const settings *st) {
    fprintf(o,
            "## How it is measured\n\n"
            "- **Precision**: each headline figure is sampled until its "
            "95%% interval is within its target half-width, by a "
            "sequential rule: a pilot of %ld games (paired games: whole "
            "pairs) estimates the spread, and the sample is sized at "
            "pilot × (the pilot's half-width / the target)² games, which "
            "for a mean is (1.96 s / target)², rounded up to whole pairs; "
            "once those are played, the half-width over all the games so "
            "far sizes it again in the same way, while it is still wider "
            "than its target, %d sizings in all; never more than %ld "
            "games (`--max-games`). Every interval is taken over all the "
            "games. As in Chow and Robbins's fixed-width intervals, the "
            "stop is decided by the spread, not by the estimate (but for "
            "the narrowing near a flag's threshold, below), which keeps "
            "the interval's coverage at 95%% as the target narrows "
            "(exactly in the limit; near it at these sample sizes). "
            "A size depends only on the games before it and each game is "
            "seeded by its index, so any thread or process count gives "
            "the same numbers. Targets (`--precision` %.3f): "
            "player 1's luck-adjusted score, the strong agent against the "
            "weak, each ladder step, each probe and the luck share ±%.3f; "
            "the median length ± %.0f%% of itself (its criterion counts "
            "doublings); LeadChange ±%.4f. "
            "Where a "
            "sizing's estimate lies within two targets of a flag's "
            "threshold, the target is narrowed to half its distance from "
            "the threshold, but not below a quarter of the target: the "
            "figures the flags judge (balance, "
            "the length, LeadChange, the probes) are sampled until their "
            "intervals tend to end on one side of the threshold, so that a "
            "flag does not come and go with the seed; the luck share is "
            "narrowed alike near %.2f (the choices left a fiftieth of the "
            "result's variance). When those sizings have stopped, a "
            "final step: a sample (the strong self-play, a match) of fewer "
            "than %d games is grown to %d, and where the share stopped by "
            "the cap lies within two targets of its threshold, the strong "
            "self-play is grown until that share's interval is within the "
            "target narrowed so, sized again %d times at most; a figure "
            "that the cap leaves under %d games is an indication, with no "
            "cost and no flag: the verdict's costs give its games in "
            "brackets instead of a cost. Where the final step "
            "adds no game the measurement is the sizings' own, so one kept "
            "before that step was added is read back just then (`--save`). "
            "*Appendix: precision reached* gives the games each figure took "
            "and the "
            "half-width it reached, marking one over its target.\n"
            "- **Intervals**: a luck-adjusted score, the mean of a game's "
            "result less its luck ± 1.96 standard errors (paired games: "
            "over the pairs); the luck share, a ratio estimator with the "
            "pairs as units; the median length, order statistics (the "
            "values of ranks n/2 ∓ 0.98√n, the upper one plus one), a game "
            "the turn cap (%ld) stops counted as longer than any other "
            "(censored), so an end that falls on one is given as *cap*; "
            "LeadChange, the mean of each game's value ± 1.96 standard "
            "errors (a normal interval, in place of a bootstrap); real "
            "decisions a turn, a ratio estimator over the games; the share "
            "stopped by the cap, Wilson's, over the strong and the weak "
            "self-play's games together (whether the rules can end a game "
            "is a property of the rules; the weak self-play's games are "
            "many and cheap). An interval of no width means that every "
            "game gave the same value: where an exact table or a race "
            "database values every position of a game (Chien et Chacal, a "
            "race, docs/tables.md) and the agents play by those values, "
            "each game's result less its luck is the value of the start.\n",
            st->s.pilot, KEMET_STUDY_ROUNDS, st->s.most, st->s.precision,
            st->s.precision, 100 * KEMET_STUDY_MEDIAN_REL * st->s.precision,
            st->s.precision / KEMET_STUDY_LEAD_DIV,
            1 - KEMET_STUDY_SHARE_DECIDE, KEMET_STUDY_LEAST, KEMET_STUDY_LEAST,
            KEMET_STUDY_ROUNDS, KEMET_STUDY_LEAST, st->s.cap);
    fprintf(o,
            "- **Strong self-play**: %s against itself. Every throw's luck "
            "is measured (`kemet_throw_luck`, by the exact tables where "
            "they cover the position, else the learned evaluation), and "
            "player 1's advantage is given luck-adjusted, as GNU "
            "Backgammon's variance reduction and Zare's \"Hedging toward "
            "skill\" do. Tension figures use player 1's chance "
            "before every ply, exact where a table covers the position.\n"
            "- **Weak self-play**: %s against %s, %ld games, as a second "
            "column: how the picture changes with skill.\n"
            "- **The skill ladder** (*Glossary*): a step whose stronger agent "
            "scores "
            "below one half beyond its interval is marked **!** and listed "
            "under Contradictions. A luck-adjusted score is an unbiased "
            "estimate and may stray a little outside 0..1 by chance; the "
            "report holds it and its interval to 0..1; two agents that "
            "choose alike score one half with no spread.\n"
            "- **The strong agent against the weak**: %s against %s, "
            "paired, to the luck share, the skill and the games to lead "
            "(*Glossary*).\n"
            "- **SkillTrace's matches**, by the definition of Ludii's metric "
            "(Evaluation, metrics.designer.SkillTrace): %d matches of %ld "
            "games, expectimax with twice the budget against expectimax "
            "with the budget, the budget doubling from %ld positions; y is "
            "the stronger agent's mean utility (win 1, draw 0, loss −1) a "
            "match; the least-squares line of y read two matches past the "
            "last (held to 0..1) is p, the area the sum of max(y, 0)²; "
            "SkillTrace = p + (1 − p) · area. As in Ludii, the area is not "
            "scaled, so a game whose deeper search keeps winning scores "
            "above 1. Its match size is fixed (Ludii's is 30), not sized "
            "by precision, and each game throws its own throws, as Ludii's "
            "trials do: pairing the games would narrow the spread of y, "
            "and with it the area, which the spread inflates. Beside it, "
            "kemet's trace, labelled so and not Ludii's metric: the "
            "same games with every throw's luck measured and taken out of "
            "the stronger agent's result (its utility 2 × the "
            "luck-adjusted score − 1, with its interval), and the same "
            "formula on those; with the luck out, y scatters far less, so "
            "the area measures the deeper search's gain rather than the "
            "noise of a %ld-game match.\n"
            "- **Degeneracy probes**: the simple strategies (*Glossary*) "
            "against %s.\n\n",
            st->s.strong, st->s.weak[0], st->s.weak[1], st->s.games,
            st->s.strong, st->s.weak[0], KEMET_STUDY_TRACE, st->s.trace_games,
            st->s.trace_base, st->s.trace_games, st->s.strong);
    print_agents(o, st);
    fprintf(o, "## The criteria of the verdict\n\n"
               "Each criterion (*Glossary*) has a band, a unit of cost and "
               "perhaps a threshold that flags. Each cost has a range while "
               "its figure stays within its 95%% interval, and the penalty's "
               "range combines them as independent errors, an approximate "
               "range rather than a 95%% interval: it reaches below the "
               "penalty by the root of the sum of the squares of each "
               "cost's reach below its value, and above alike. (The sum of "
               "the ranges themselves, every figure at its worst end at "
               "once, would be far wider than 95%%.) A flag needs the "
               "figure's whole interval strictly past the threshold, and a "
               "flagged ruleset is in a tier of its own. A draw the rules "
               "provide (an equal score, a jammed board) is no criterion and "
               "never flags; the games the turn cap stops are one of their "
               "own. Where half the games or more are stopped, the median "
               "length lies beyond the cap, known only to exceed it: its cost "
               "and the penalty are then unbounded (∞), the penalty's range "
               "starting where the length's interval and the other costs' "
               "ranges allow.\n\n"
               "**Ties are tiers**, cut at the gaps between penalty ranges: "
               "the unflagged rulesets are sorted by penalty, and a cut "
               "falls between two places only where every range before it "
               "ends below every range after it. Every flagged ruleset is in "
               "one last tier, listed by its number of flags, then by "
               "penalty; that order is not a finding either.\n\n"
               "| criterion | band (no cost) | a unit of cost | flagged "
               "when the interval lies wholly below | or wholly above "
               "|\n|---|---|---|---|---|\n");
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        const kemet_criterion *k = kemet_criterion_info(c);
        fprintf(o, "| %s | ", k->name);
        put_band(o, c);
        if (k->log2)
            fprintf(o, " | a doubling | ");
        else if (k->band_lo <= 0 && k->band_hi >= 1)
            fprintf(o, " | — | ");
        else
            fprintf(o, " | %g | ", k->unit);
        put_bound(o, c, k->flag_lo);
        fprintf(o, " | ");
        put_bound(o, c, k->flag_hi);
        fprintf(o, " |\n");
    }
    fprintf(o, "\nWhy each band and threshold, and why each unit is the "
               "size it is:\n\n");
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        const kemet_criterion *k = kemet_criterion_info(c);
        fprintf(o, "- *%s*: %s. Its unit: %s.\n", k->name, k->why,
                k->unit_why ? k->unit_why : "no cost: a flag alone");
    }
    fprintf(o, "\nEach unit is sized so that a figure at the verge of its "
               "criterion's flag costs about one to two units (from "
               "tension's 0.8 to decisions' and balance's 2; skill, which "
               "has no flag, 2.5 where the better choices decide nothing), "
               "so that the criteria weigh alike where they come near "
               "failing. *How it depends on each criterion's unit* (under "
               "*Verdict*) gives what halving or doubling each would "
               "change.\n\n");
}

/* The verdict's tables, so that a row fits: the costs (the tier, the
 * penalty with its range, each criterion's cost and the flags), then the
 * figures with their intervals, the criteria before FIGS_SPLIT in one
 * table and the rest in another. */
enum { VERDICT_COSTS, VERDICT_FIGS, VERDICT_FIGS2, VERDICT_PARTS };
#define FIGS_SPLIT 4

/* The first and the end of the criteria of verdict table `part`. */
static void verdict_span(int part, int *c0, int *c1) {
    *c0 = part == VERDICT_FIGS2 ? FIGS_SPLIT : 0;
    *c1 = part == VERDICT_FIGS ? FIGS_SPLIT : KEMET_CRITERIA;
}

/* Verdict table `part`'s header, and its row for ruleset `id`. */
static void verdict_head(FILE *o, int part) {
    int c0, c1;
    verdict_span(part, &c0, &c1);
    fprintf(o, "%s",
            part == VERDICT_COSTS ? "| tier | ruleset | penalty (range) |"
                                  : "| ruleset |");
    for (int c = c0; c < c1; c++)
        fprintf(o, " %s |", kemet_criterion_info(c)->name);
    fprintf(o, "%s\n|---|", part == VERDICT_COSTS ? " flags |" : "");
    for (int c = c0; c < c1; c++)
        fprintf(o, "---|");
    fprintf(o, "%s\n", part == VERDICT_COSTS ? "---|---|---|" : "");
}

static void verdict_row(FILE *o, int part, const rep_reading *x,
                        const kemet_judged *J, const kemet_measured *m) {
    const char *id = x->f.id;
    int c0, c1;
    verdict_span(part, &c0, &c1);
    if (part != VERDICT_COSTS)
        fprintf(o, "| %s |", id);
    else if (J->flags)
        fprintf(o, "| %d, flagged | %s | ", J->tier, id);
    else
        fprintf(o, "| %d | %s | ", J->tier, id);
    if (part == VERDICT_COSTS) {
        put_penalty(o, J);
        fprintf(o, " |");
    }
    for (int c = c0; c < c1; c++) {
        const char *b = J->flags >> c & 1 ? "**" : "";
        fprintf(o, " %s", b);
        if (part != VERDICT_COSTS && c == KEMET_CRIT_SKILL && x->bound)
            fprintf(o, "≥ ");
        if (part != VERDICT_COSTS)
            put_figure(o, c, &m->c[c]);
        else if (J->indications >> c & 1) /* too few games: not weighed */
            fprintf(o, "(%ld games)", m->games[c]);
        else
            put_cost(o, J->cost[c].value);
        fprintf(o, "%s |", b);
    }
    if (part == VERDICT_COSTS) {
        fprintf(o, " ");
        int k = 0; /* the indications: their cells say which */
        for (int c = 0; c < KEMET_CRITERIA; c++)
            k += J->indications >> c & 1;
        if (J->flags || !k)
            put_flags(o, J->flags);
        if (k)
            fprintf(o, "%s%d indication%s", J->flags ? "; " : "", k,
                    k == 1 ? "" : "s");
        fprintf(o, " |");
    }
    fprintf(o, "\n");
}

/* The verdict's tables of k readings x[] judged J[] on figures m[], in
 * the order ord, each after a line that says what it gives. */
static void verdict_tables(FILE *o, const rep_reading *const *x,
                           const kemet_judged *J, const kemet_measured *m,
                           const int *ord, int k) {
    static const char *const says[VERDICT_PARTS] = {
        "The tiers, each ruleset's penalty with its range and each "
        "criterion's cost (a flagged criterion's in bold):",
        "The figures the criteria judge, each with its 95% interval (a "
        "flagged figure in bold; the probe shown is the simple strategy "
        "that comes nearest search):",
        "The verdict's figures, continued:"};
    bool bound = false;
    for (int q = 0; q < k; q++)
        bound |= x[q]->bound;
    for (int part = 0; part < VERDICT_PARTS; part++) {
        if (part == VERDICT_FIGS && bound) /* before its colon */
            fprintf(o,
                    "%.*s; a skill figure after ≥ is a lower bound, a "
                    "stronger agent still gaining against the strong one "
                    "(*Headroom*):\n\n",
                    (int)strlen(says[part]) - 1, says[part]);
        else
            fprintf(o, "%s\n\n", says[part]);
        verdict_head(o, part);
        for (int q = 0; q < k; q++)
            verdict_row(o, part, x[ord[q]], &J[ord[q]], &m[ord[q]]);
        fprintf(o, "\n");
    }
}

/* ------------------------------------------------------------------------
 * Names: each reading as a historian names it, from its own file
 *
 * A reading is named by its title, with the author where the title does
 * not name them and the year ("n.d." where the source gives none):
 * "Senet (Kendall, 1979)". A variant adds, in the words of the rules'
 * text, what each option it changes does. Ruleset ids are for tables.
 * --------------------------------------------------------------------- */

static kemet_rules *open_reading(const char *id);

/* Whether `title` names the author: one of the author's capitalised
 * words of four letters or more appears in it. */
static bool title_names(const char *title, const char *author) {
    for (const char *w = author; w && *w;) {
        size_t len = strcspn(w, " ,");
        if (len >= 4 && *w >= 'A' && *w <= 'Z') {
            for (const char *t = strstr(title, "("); t && *t; t++)
                if (strncmp(t, w, len) == 0)
                    return true;
        }
        w += len;
        w += strspn(w, " ,");
    }
    return false;
}

/* The name of the reading of file info f: its title, the author where
 * the title does not name them, and the year. */
static void put_title(FILE *o, const kemet_info *f) {
    char year[16];
    if (f->year)
        snprintf(year, sizeof year, "%d", f->year);
    else
        snprintf(year, sizeof year, "n.d.");
    size_t len = strlen(f->title);
    bool paren = len > 0 && f->title[len - 1] == ')';
    const char *by =
        f->author && *f->author && !title_names(f->title, f->author) ? f->author
                                                                     : NULL;
    if (paren)
        fprintf(o, "%.*s%s%s, %s)", (int)(len - 1), f->title, by ? "; " : "",
                by ? by : "", year);
    else
        fprintf(o, "%s (%s%s%s)", f->title, by ? by : "", by ? ", " : "", year);
}

/* The rules' text of r as one line (lines joined by a space, each line's
 * indentation dropped) into a new string, or NULL. */
static char *one_line(const kemet_rules *r) {
    const char *t = r ? kemet_rules_info(r)->text : NULL;
    char *s = t ? malloc(strlen(t) + 1) : NULL;
    if (!s)
        return NULL;
    size_t n = 0;
    for (const char *l = t; *l;) {
        l += strspn(l, " ");
        size_t len = strcspn(l, "\n");
        if (len && n)
            s[n++] = ' ';
        memcpy(s + n, l, len);
        n += len;
        l += len + (l[len] == '\n');
    }
    s[n] = '\0';
    return s;
}

/* The lines of r1's text that r0's lacks (the text an option adds), as
 * one line into a new string, or NULL. */
static char *added_text(const kemet_rules *r0, const kemet_rules *r1) {
    const char *t0 = kemet_rules_info(r0)->text;
    const char *t1 = kemet_rules_info(r1)->text;
    char *s = malloc(strlen(t1) + 1);
    if (!s)
        return NULL;
    size_t n = 0;
    for (const char *l = t1; *l;) {
        size_t len = strcspn(l, "\n");
        bool old = false;
        for (const char *m = t0; *m && !old;) {
            size_t k = strcspn(m, "\n");
            old = k == len && memcmp(m, l, len) == 0;
            m += k + (m[k] == '\n');
        }
        const char *w = l + strspn(l, " ");
        size_t wl = len - (size_t)(w - l);
        if (!old && wl) {
            if (n)
                s[n++] = ' ';
            memcpy(s + n, w, wl);
            n += wl;
        }
        l += len + (l[len] == '\n');
    }
    s[n] = '\0';
    return s;
}

/* The first clause of s: up to its first ", ", "; " or ". " (the whole
 * sentence: its first ". "), or its end, a last full stop dropped; its
 * length. */
static int clause(const char *s, bool whole_sentence) {
    size_t n = strlen(s);
    for (const char *p = s; *p; p++)
        if ((p[0] == '.' ||
             ((p[0] == ';' || p[0] == ',') && !whole_sentence)) &&
            (p[1] == ' ' || !p[1])) {
            n = (size_t)(p - s);
            break;
        }
    while (n && s[n - 1] == '.')
        n--;
    return (int)n;
}

/* Case-insensitive strstr. */
static const char *find_nocase(const char *s, const char *w) {
    size_t n = strlen(w);
    for (; *s; s++)
        if (strncasecmp(s, w, n) == 0)
            return s;
    return NULL;
}

/* What option key=value of ruleset `base` does, in the words of its rules'
 * text: the text the option adds ("Kendall's option pieces=5: five pieces
 * each, ..."), or a gloss of it in the text ("marks=throw (a count ...)",
 * "- Marked board: ...", "dice=sticks|d4|d6 (four sticks ..., a
 * four-sided or a six-sided die)"); else the option and its value. */
static void put_option(FILE *o, const char *base, const char *key,
                       const char *value) {
    char spec[160], kv[96];
    snprintf(spec, sizeof spec, "%s:%s=%s", base, key, value);
    snprintf(kv, sizeof kv, "%s=%s", key, value);
    kemet_rules *r0 = open_reading(base), *r1 = open_reading(spec);
    char *add = r0 && r1 ? added_text(r0, r1) : NULL;
    char *all = one_line(r0);
    bool said = false;
    if (add && *add) { /* the option's own text */
        char head[100];
        snprintf(head, sizeof head, "%s:", kv);
        const char *at = strstr(add, head);
        at = at ? at + strlen(head) + strspn(at + strlen(head), " ") : add;
        fprintf(o, "%.*s", clause(at, false), at);
        said = true;
    }
    const char *at = all && !said ? strstr(all, kv) : NULL;
    if (at && strncmp(at + strlen(kv), " (", 2) == 0) { /* a gloss */
        at += strlen(kv) + 2;
        fprintf(o, "%.*s", (int)strcspn(at, ")"), at);
        said = true;
    }
    char bullet[100];
    snprintf(bullet, sizeof bullet, "- %s %s: ", value, key);
    at = all && !said ? find_nocase(all, bullet) : NULL;
    if (at) { /* "- Marked board: no lines; ..." */
        at += strlen(bullet);
        fprintf(o, "the %s %s (%.*s)", value, key, clause(at, true), at);
        said = true;
    }
    snprintf(kv, sizeof kv, "%s=", key);
    at = all && !said ? strstr(all, kv) : NULL;
    if (at) { /* "dice=sticks|d4|d6 (four sticks ..., a four-sided or a
                 six-sided die)": the value's part of the gloss */
        const char *v = at + strlen(kv);
        size_t vl = strcspn(v, " ,(");
        int nv = 0, mine = -1;
        for (const char *p = v; p < v + vl; nv++) {
            size_t k = strcspn(p, "|");
            if (k > vl - (size_t)(p - v))
                k = vl - (size_t)(p - v);
            if (k == strlen(value) && strncmp(p, value, k) == 0)
                mine = nv;
            p += k + (p + k < v + vl);
        }
        const char *g = strncmp(v + vl, " (", 2) == 0 ? v + vl + 2 : NULL;
        const char *part[8];
        int len[8], np = 0;
        for (const char *p = g; p && np < 8 && *p && *p != ')';) {
            size_t k = strcspn(p, ",)");
            const char * or = strstr(p, " or ");
            if (or &&(size_t)(or -p) < k)
                k = (size_t)(or -p);
            part[np] = p;
            len[np++] = (int)k;
            p += k;
            p += strncmp(p, " or ", 4) == 0 ? 4 : *p == ',' ? 2 : 0;
        }
        if (mine >= 0 && np == nv) {
            fprintf(o, "%.*s", len[mine], part[mine]);
            /* the noun the list shares: "a four-sided [die]" */
            const char *last = part[np - 1];
            if (mine < np - 1 && strncmp(part[mine], last, 2) == 0) {
                const char *sp = NULL;
                for (const char *p = last; p < last + len[np - 1]; p++)
                    if (*p == ' ')
                        sp = p;
                int words = 0, lastwords = 0;
                for (int c = 0; c < len[mine]; c++)
                    words += part[mine][c] == ' ';
                for (int c = 0; c < len[np - 1]; c++)
                    lastwords += last[c] == ' ';
                if (sp && words < lastwords)
                    fprintf(o, "%.*s", (int)(last + len[np - 1] - sp), sp);
            }
            said = true;
        }
    }
    if (!said)
        fprintf(o, "its option %s at %s", key, value);
    free(add);
    free(all);
    kemet_rules_close(r1);
    kemet_rules_close(r0);
}

/* Reading x as a historian names it: "Senet (Kendall, 1979)", and for a
 * variant what each of its options does ("..., varied: five pieces
 * each; each player must first throw a 1"). Its title where its file
 * cannot be read. */
static void write_name(FILE *o, const rep_reading *x) {
    kemet_rules *r = open_reading(x->base);
    if (r)
        put_title(o, kemet_rules_info(r));
    else
        fprintf(o, "%s", x->title);
    kemet_rules_close(r);
    const char *opts = strchr(x->f.id, ':');
    if (!r || !opts || x->change_of)
        return;
    fprintf(o, ", varied: ");
    for (const char *p = opts + 1, *sep = ""; *p; sep = "; ") {
        size_t len = strcspn(p, ",");
        char key[48], value[48];
        const char *eq = memchr(p, '=', len);
        if (eq && (size_t)(eq - p) < sizeof key &&
            len - (size_t)(eq - p) <= sizeof value) {
            snprintf(key, sizeof key, "%.*s", (int)(eq - p), p);
            snprintf(value, sizeof value, "%.*s",
                     (int)(len - (size_t)(eq - p) - 1), eq + 1);
            fprintf(o, "%s", sep);
            put_option(o, x->base, key, value);
        }
        p += len + (p[len] == ',');
    }
}

/* How the report names reading x: its name as the measuring run made it
 * (write_name, kept in its data), else its title. */
static void put_name(FILE *o, const rep_reading *x) {
    fprintf(o, "%s", x->name[0] ? x->name : x->title);
}

/* Reading x's name made from its rules while they can be opened (the
 * measuring run), into x->name: cut short where it is too long. */
static void fill_name(rep_reading *x) {
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        write_name(m, x);
        if (fclose(m) == 0 && text)
            snprintf(x->name, sizeof x->name, "%s", text);
    }
    free(text);
}

/* put_name's words in a string of their own (caller frees; NULL when
 * memory runs out). */
static char *name_of(const rep_reading *x) {
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        put_name(m, x);
        if (fclose(m) == 0 && text)
            return text;
    }
    free(text);
    return strdup(x->f.id);
}

/* For the variants among V of board b, what each option they change does,
 * in the words of its ruleset's text, each option once. */
static void print_options_said(FILE *o, const rep_reading *V, int nv, int b) {
    char seen[4 * REPORT_MAX_VARIANTS][160];
    int ns = 0;
    for (int i = 0; i < nv; i++) {
        const char *opts = strchr(V[i].f.id, ':');
        if (V[i].board != b || !opts || V[i].change_of)
            continue;
        for (const char *p = opts + 1; *p;) {
            size_t len = strcspn(p, ",");
            char one[160];
            snprintf(one, sizeof one, "%s:%.*s", V[i].base, (int)len, p);
            p += len + (p[len] == ',');
            bool old = false;
            for (int k = 0; k < ns && !old; k++)
                old = strcmp(seen[k], one) == 0;
            const char *eq = strchr(one, '=');
            if (old || !eq || ns == 4 * REPORT_MAX_VARIANTS)
                continue;
            if (ns == 0)
                fprintf(o, "A variant is a ruleset with the options it "
                           "changes (in the tables, `ruleset:option,...`); "
                           "each option, in the words of its ruleset's "
                           "rules:\n\n");
            snprintf(seen[ns++], sizeof seen[0], "%s", one);
            const char *colon = strchr(one, ':');
            char key[48];
            snprintf(key, sizeof key, "%.*s", (int)(eq - colon - 1), colon + 1);
            fprintf(o, "- `%s`: ", one);
            put_option(o, V[i].base, key, eq + 1);
            fprintf(o, ".\n");
        }
    }
    if (ns)
        fprintf(o, "\n");
}

/* "Which Senet?" and "Which 58 holes?": the readings of each board, the
 * base rulesets and their variants together, in tiers by the verdict's
 * criteria among themselves (a variant has no ladder or SkillTrace, and
 * the verdict uses neither). */
/* The readings of board b (BOARD_*) among the rulesets R and variants V,
 * judged among themselves. */
typedef struct board_verdict {
    const rep_reading *x[REPORT_MAX_SETS + REPORT_MAX_VARIANTS];
    kemet_measured m[REPORT_MAX_SETS + REPORT_MAX_VARIANTS];
    kemet_judged J[REPORT_MAX_SETS + REPORT_MAX_VARIANTS];
    int k, nbase, ord[REPORT_MAX_SETS + REPORT_MAX_VARIANTS];
} board_verdict;

/* The readings of board b judged into *B (B->k of them; none judged
 * below two). */
static void judge_board(const rep_reading *R, int n, const rep_reading *V,
                        int nv, int b, board_verdict *B) {
    B->k = B->nbase = 0;
    for (int i = 0; i < n + nv; i++) {
        const rep_reading *y = i < n ? &R[i] : &V[i - n];
        if (y->board != b)
            continue;
        B->nbase += i < n;
        B->x[B->k] = y;
        B->m[B->k++] = y->vm[0];
    }
    if (B->k >= 2)
        kemet_verdict(B->m, B->k, -1, B->J, B->ord);
}

static const char *const board_title[NBOARDS] = {NULL, "Which Senet?",
                                                 "Which 58 holes?"};

static int tier1_count(const int *ord, int n, const kemet_judged *J);

/* Kendall's tau-b `tau` between two verdicts' tiers (`between`), and
 * the `opp` pairs of `what`s in opposite tiers, as a sentence. */
static void put_tau(FILE *o, double tau, long opp, const char *between,
                    const char *what) {
    if (isnan(tau))
        fprintf(o,
                "Kendall's tau-b between %s is undefined (one puts every "
                "%s in one tier)",
                between, what);
    else
        fprintf(o, "Kendall's tau-b between %s is %.2f (1: the same order)",
                between, tau);
    fprintf(o, "; %ld pair%s of %ss %s in opposite tiers.", opp,
            opp == 1 ? "" : "s", what, opp == 1 ? "is" : "are");
}

/* Board b's verdict B against the same readings' at the second seed
 * (--check-seed), K the rulesets and variants measured there. */
static void print_board_check(FILE *o, const board_verdict *B,
                              const rep_reading *K, int n, int nv, int b,
                              const settings *st) {
    board_verdict *C = malloc(sizeof *C);
    if (!C)
        return;
    judge_board(K, n, K + n, nv, b, C);
    double here[REPORT_MAX], there[REPORT_MAX];
    for (int i = 0; i < B->k; i++) {
        here[i] = B->J[i].tier;
        there[i] = C->J[i].tier;
    }
    long opp = 0;
    double tau = kemet_tau_b(here, there, B->k, &opp);
    fprintf(o,
            "**At seed %llu.** The same readings measured again at seed "
            "%llu (`--check-seed`), the rulesets to ±%g and the variants "
            "to ±%g, and judged among themselves: ",
            (unsigned long long)st->check_seed,
            (unsigned long long)st->check_seed, st->s.precision,
            2 * st->s.precision);
    put_tau(o, tau, opp, "the tiers here and there", "reading");
    fprintf(o, " ");
    int moved = 0;
    bool same_first = true;
    for (int i = 0; i < B->k; i++) {
        bool a = B->J[i].tier == 1 && !B->J[i].flags,
             c = C->J[i].tier == 1 && !C->J[i].flags;
        same_first &= a == c;
        moved +=
            B->J[i].tier != C->J[i].tier || !B->J[i].flags != !C->J[i].flags;
    }
    if (moved == 0) {
        fprintf(o, "Every reading is in the same tier at both seeds.\n");
        free(C);
        return;
    }
    fprintf(o,
            "The first tier is %s there. The readings whose tier differs:"
            "\n\n| ruleset | tier | at seed %llu |\n|---|---|---|\n",
            same_first ? "the same" : "not the same",
            (unsigned long long)st->check_seed);
    for (int q = 0; q < B->k; q++) {
        int i = B->ord[q];
        if (B->J[i].tier == C->J[i].tier && !B->J[i].flags == !C->J[i].flags)
            continue;
        fprintf(o, "| %s | %d%s | %d%s |\n", B->x[i]->f.id, B->J[i].tier,
                B->J[i].flags ? ", flagged" : "", C->J[i].tier,
                C->J[i].flags ? ", flagged" : "");
    }
    free(C);
}

static void print_boards(FILE *o, const rep_reading *R, int n,
                         const rep_reading *V, int nv, const rep_reading *K,
                         int nk, const settings *st) {
    board_verdict B[1];
    for (int b = BOARD_SENET; b < NBOARDS; b++) {
        judge_board(R, n, V, nv, b, B);
        int k = B->k, nbase = B->nbase;
        if (k < 2)
            continue;
        fprintf(o,
                "\n## %s\n\nThe %d readings of this board measured here "
                "(%d ruleset%s and %d variant%s) judged "
                "among themselves by the criteria of the verdict, with its "
                "tiers: within a tier the order is not a finding. A "
                "variant's skill ladder and SkillTrace are not measured; the "
                "verdict uses neither.\n\n",
                board_title[b], k, nbase, nbase == 1 ? "" : "s", k - nbase,
                k - nbase == 1 ? "" : "s");
        print_options_said(o, V, nv, b);
        verdict_tables(o, B->x, B->J, B->m, B->ord, k);
        if (nk)
            print_board_check(o, B, K, n, nv, b, st);
    }
}

/* How many of the n rulesets judged J[], in the order ord, are in tier 1
 * and not flagged. */
static int tier1_count(const int *ord, int n, const kemet_judged *J) {
    int t = 0;
    while (t < n && J[ord[t]].tier == 1 && !J[ord[t]].flags)
        t++;
    return t;
}

/* The first tier of a verdict, by their names: of the n rulesets x[],
 * judged J[], in the order ord, those of tier 1 and not flagged; one
 * alone in the line, several as a list under it (list) or as "a; b and
 * c". */
static void first_tier(FILE *o, const int *ord, int n, const kemet_judged *J,
                       const rep_reading *const *x, bool list) {
    int t = tier1_count(ord, n, J);
    for (int k = 0; k < t; k++) {
        fprintf(o, "%s",
                list && t > 1 ? "\n  - "
                : k == 0      ? ""
                : k == t - 1  ? " and "
                              : "; ");
        put_name(o, x[ord[k]]);
        if (list && t > 1)
            fprintf(o, "%s", k == t - 1 ? "." : ";");
    }
    if (t == 0)
        fprintf(o, "none (every reading is flagged)");
}

/* The abstract's word on the games the turn cap stopped in the first
 * tiers it names: that of the rulesets R and those of each board's
 * readings among R and the variants V (verdict_words.c). */
static void abstract_stopped(FILE *o, const rep_reading *R, int n,
                             const rep_reading *V, int nv, const settings *st) {
    enum { MOST = REPORT_MAX_SETS + NBOARDS * REPORT_MAX };
    kemet_measured *m = malloc(MOST * sizeof *m);
    kemet_judged *J = malloc(MOST * sizeof *J);
    const char *id[MOST];
    char *name[MOST];
    int k = 0;
    if (!m || !J) {
        free(m);
        free(J);
        return;
    }
    /* the readings by name, as the abstract names them */
    for (int i = 0; i < n; i++, k++) {
        m[k] = R[i].vm[0];
        J[k] = R[i].vj[0];
        name[k] = name_of(&R[i]);
        id[k] = name[k] ? name[k] : R[i].f.id;
    }
    board_verdict B[1];
    for (int b = BOARD_SENET; b < NBOARDS; b++) {
        judge_board(R, n, V, nv, b, B);
        for (int i = 0; i < B->k && B->k >= 2; i++, k++) {
            m[k] = B->m[i];
            J[k] = B->J[i];
            name[k] = name_of(B->x[i]);
            id[k] = name[k] ? name[k] : B->x[i]->f.id;
        }
    }
    vw_first_tier_stopped(o, m, J, id, k, st->s.cap);
    for (int i = 0; i < k; i++)
        free(name[i]);
    free(m);
    free(J);
}

/* The findings in plain words, from the verdict already made (judge). */
static void print_abstract(FILE *o, const rep_reading *R, int n,
                           const rep_reading *V, int nv, const settings *st) {
    int ord[REPORT_MAX_SETS], nb[NBOARDS] = {0};
    const rep_reading *x[REPORT_MAX_SETS];
    kemet_judged J[REPORT_MAX_SETS];
    for (int i = 0; i < n; i++) {
        x[i] = &R[i];
        J[i] = R[i].vj[0];
        ord[R[i].vj[0].place - 1] = i;
        nb[R[i].board]++;
    }
    fprintf(o,
            "## Abstract\n\n%d reconstructions of the race games of "
            "ancient Egypt",
            n);
    if (nb[BOARD_SENET] || nb[BOARD_58]) {
        static const char *const where[NBOARDS] = {
            [BOARD_SENET] = "of Senet's board",
            [BOARD_58] = "of the 58 holes",
            [BOARD_OTHER] = "on other boards"};
        static const int order[NBOARDS] = {BOARD_SENET, BOARD_58, BOARD_OTHER};
        int said = 0;
        for (int k = 0; k < NBOARDS; k++)
            if (nb[order[k]])
                fprintf(o, "%s%d %s", said++ ? ", " : " (", nb[order[k]],
                        where[order[k]]);
        fprintf(o, ")");
    }
    if (nv)
        fprintf(o, " and %d variants of their options", nv);
    fprintf(o,
            " were measured by self-play of a search agent (%s) against "
            "itself and against simpler agents, each headline figure "
            "sampled until its 95%% interval was within ±%.3g or the cap "
            "of %ld games stopped it (*Appendix: precision reached*).\n\n"
            "They were judged on stated criteria of a good game (a game of "
            "one sitting, real decisions, a result decided in part by "
            "skill, balance, tension) and of a game that fails (games the "
            "rules cannot end, simple habits as good as search); the terms "
            "are defined in the *Glossary*, and each reading is named by "
            "its title, author and year (n.d.: no year given).\n\n"
            "- **The first tier**%s",
            st->s.strong, st->s.precision, st->s.most,
            tier1_count(ord, n, J) == 1
                ? ": "
                : ", a chain of overlapping penalty ranges within which "
                  "the order is not a finding:");
    first_tier(o, ord, n, J, x, true);
    fprintf(o, "%s\n",
            tier1_count(ord, n, J) == 1
                ? ", alone, its penalty range clear of every other's."
                : "");
    /* the criterion the agents bound: the first tier without it */
    kemet_measured m[REPORT_MAX_SETS];
    kemet_judged J2[REPORT_MAX_SETS];
    int o2[REPORT_MAX_SETS];
    for (int i = 0; i < n; i++)
        m[i] = R[i].vm[0];
    kemet_verdict(m, n, KEMET_CRIT_SKILL, J2, o2);
    int t1 = tier1_count(ord, n, J), t2 = tier1_count(o2, n, J2);
    bool same = t1 == t2;
    for (int k = 0; k < t1 && same; k++) {
        bool in = false;
        for (int q = 0; q < t2; q++)
            in |= o2[q] == ord[k];
        same = in;
    }
    if (!same) {
        fprintf(o,
                "- **Without the skill criterion**, which the agents "
                "bound (*Limitations*), the first tier would be%s",
                t2 == 1 ? " " : ":");
        first_tier(o, o2, n, J2, x, true);
        fprintf(o, "%s\n", t2 == 1 ? "." : "");
    }
    int flagged = 0;
    for (int i = 0; i < n; i++)
        flagged += R[i].flags != 0;
    if (flagged) {
        fprintf(o,
                "- **Flagged**, %d, ranked last whatever %s other "
                "figures:",
                flagged, flagged == 1 ? "its" : "their");
        int said = 0;
        for (int k = 0; k < n; k++) {
            const rep_reading *y = &R[ord[k]];
            if (!y->flags)
                continue;
            fprintf(o, "%s", said++ ? ";\n  - " : "\n  - ");
            put_name(o, y);
            fprintf(o, ", on ");
            put_flags(o, y->flags);
        }
        fprintf(o, ".\n");
    }
    board_verdict B[1];
    for (int b = BOARD_SENET; b < NBOARDS; b++) {
        judge_board(R, n, V, nv, b, B);
        if (B->k < 2)
            continue;
        fprintf(o,
                "- **%s** Of the %d readings of %s measured here, the first "
                "tier is%s",
                board_title[b], B->k,
                b == BOARD_SENET ? "Senet's board" : "the 58 holes",
                tier1_count(B->ord, B->k, B->J) == 1 ? " " : ":");
        first_tier(o, B->ord, B->k, B->J, B->x, true);
        fprintf(o, "%s\n", tier1_count(B->ord, B->k, B->J) == 1 ? "." : "");
    }
    abstract_stopped(o, R, n, V, nv, st);
    int lo = -1, hi = -1;
    for (int i = 0; i < n; i++) {
        double v = R[i].vm[0].c[KEMET_CRIT_SKILL].value;
        if (isnan(v))
            continue;
        if (lo < 0 || v < R[lo].vm[0].c[KEMET_CRIT_SKILL].value)
            lo = i;
        if (hi < 0 || v > R[hi].vm[0].c[KEMET_CRIT_SKILL].value)
            hi = i;
    }
    if (lo >= 0 && lo != hi) {
        fprintf(o,
                "- **Skill**: against %s, the strong agent's better "
                "choices decide from %.2f (%.2f–%.2f) of the games, in ",
                st->s.weak[0], R[lo].vm[0].c[KEMET_CRIT_SKILL].value,
                R[lo].vm[0].c[KEMET_CRIT_SKILL].lo,
                R[lo].vm[0].c[KEMET_CRIT_SKILL].hi);
        put_name(o, &R[lo]);
        fprintf(o, ", to %.2f (%.2f–%.2f), in ",
                R[hi].vm[0].c[KEMET_CRIT_SKILL].value,
                R[hi].vm[0].c[KEMET_CRIT_SKILL].lo,
                R[hi].vm[0].c[KEMET_CRIT_SKILL].hi);
        put_name(o, &R[hi]);
        fprintf(o,
                "; the rest are decided by the throws and by play that %s "
                "sees as well.\n",
                st->s.weak[0]);
    }
    fprintf(o, "\nThese are findings about the rules as these agents play "
               "them, not about which reading is the ancient one "
               "(*Limitations*).\n\n");
}

/* What the measurement can and cannot show, of the n rulesets R. */
static void print_limits(FILE *o, const rep_reading *R, int n,
                         const settings *st) {
    /* the rulesets whose race database values every position */
    char raced[512] = "";
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof raced; i++)
        if (R[i].race && R[i].exact_start)
            len += (size_t)snprintf(raced + len, sizeof raced - len, "%s%s",
                                    len ? ", " : "", R[i].f.id);
    if (!*raced)
        snprintf(raced, sizeof raced, "none here");
    fprintf(o,
            "## Limitations\n\n"
            "- **The agents bound what skill can show.** The skill criterion, "
            "the ladder and SkillTrace measure how much *these* agents gain by "
            "playing better; a ruleset may reward a depth of play that no "
            "agent here reaches. The strong agent (%s) plays perfectly by "
            "construction where an exact endgame table covers the position, "
            "since it reads the table there (*Perfect play where an exact "
            "table reaches* measures what the linear evaluation alone would "
            "give away in those positions, not the strong agent), and "
            "near-perfectly where a race database values every position "
            "(%s); elsewhere it is measured only against the agents below "
            "it, and how far it is from perfect play is not known. The "
            "skill criterion's share is therefore a "
            "lower bound on what the rules reward, and it costs but never "
            "flags: that these agents find little to gain does not show "
            "that nothing can be gained.\n"
            "- **The luck is measured by the agents' own judgement.** A "
            "throw's luck is the change in the evaluation's win chance that "
            "it causes; where the evaluation is wrong the luck is mis-split, "
            "but its average over all throws is zero whatever the evaluation, "
            "so the luck-adjusted score stays an unbiased estimate of the "
            "expected result; only its spread depends on the evaluation's "
            "quality, and so does the luck share, which is why that share "
            "is a figure and not a criterion.\n"
            "- **The criteria are choices.** Each band and threshold is stated "
            "with its reason (*The criteria of the verdict*); a reader who "
            "weighs them differently can recompute the verdict from the "
            "figures, and *How it depends on each criterion* shows what "
            "leaving each one out changes, *How it depends on each "
            "criterion's unit* what halving or doubling each unit changes. "
            "Length in turns stands for playing "
            "time at about 20 seconds a turn.\n"
            "- **The turn cap (%ld turns)** stops a game that the rules do not "
            "end; such games count as their own criterion, and the lengths "
            "are censored there.\n"
            "- **The rules are the readings as kemet plays them** (docs/rules: "
            "each rule traced to code and test). Where a source is silent the "
            "project's rulings decide; another ruling is another variant. "
            "Nothing here says which reading is historically right: a good "
            "game need not be the ancient one.\n\n",
            st->s.strong, raced, st->s.cap);
}

/* The works the method rests on. */
static const kemet_info *reading_info(const rep_reading *R, kemet_info *buf);

/* The publications each reading's rules come from (the files'
 * `reference` lines), or that none is known. */
static void print_sources(FILE *o, const rep_reading *R, int n) {
    fprintf(o, "\nThe readings' sources, as their files give them (`kemet "
               "rules ID`):\n\n");
    for (int i = 0; i < n; i++) {
        kemet_info fi;
        const kemet_info *f = reading_info(&R[i], &fi);
        fprintf(o, "- **");
        put_name(o, &R[i]);
        fprintf(
            o, "** (%s): ", f && f->source_kind ? f->source_kind : "not given");
        if (!f || !f->reference)
            fprintf(o, "no publication is known.\n");
        for (const char *l = f ? f->reference : NULL; l && *l;) {
            size_t len = strcspn(l, "\n");
            fprintf(o, "%.*s", (int)len, l);
            l += len + (l[len] == '\n');
            fprintf(o, *l ? " " : "\n");
        }
    }
}

static void print_references(FILE *o, const rep_reading *R, int n) {
    fprintf(o,
            "## References\n\n"
            "- B. W. Ballard, \"The *-minimax search procedure for trees "
            "containing chance nodes\", *Artificial Intelligence* 21 (1983): "
            "the search's chance nodes.\n"
            "- C. Browne, *Automatic Generation and Evaluation of "
            "Recombination Games*, PhD thesis, Queensland University of "
            "Technology, 2008: measuring a game's quality by self-play, "
            "the criteria of balance, drama, decisiveness and length.\n"
            "- Y. S. Chow and H. Robbins, \"On the asymptotic theory of "
            "fixed-width sequential confidence intervals for the mean\", "
            "*Annals of Mathematical Statistics* 36 (1965): sampling until "
            "an interval is narrow enough, the stop decided by the "
            "spread.\n"
            "- GNU Backgammon, its manual: luck analysis and variance "
            "reduction (a throw's luck against the average throw), the "
            "model of the luck-adjusted scores.\n"
            "- T. Hauk, M. Buro and J. Schaeffer, \"Rediscovering "
            "*-Minimax Search\", *Computers and Games* 2004: Star1 and "
            "Star2 pruning.\n"
            "- M. G. Kendall, \"The treatment of ties in ranking "
            "problems\", *Biometrika* 33 (1945): tau-b.\n"
            "- Ludii's evaluation metrics (the Ludii general game system, "
            "É. Piette, D. J. N. J. Soemers, M. Stephenson, C. F. Sironi, "
            "M. H. M. Winands and C. Browne, \"Ludii — The Ludemic General "
            "Game System\", ECAI 2020; its Evaluation module): Completion, "
            "Drawishness, AdvantageP1, Balance, DurationTurns, "
            "BranchingFactor, LeadChange, Drama, DecisivenessThreshold, "
            "BoardCoverage and SkillTrace, whose definitions the figures "
            "of those names follow.\n"
            "- G. Tesauro, \"Temporal difference learning and "
            "TD-Gammon\", *Communications of the ACM* 38 (1995): the "
            "learned evaluations.\n"
            "- E. B. Wilson, \"Probable inference, the law of succession, "
            "and statistical inference\", *Journal of the American "
            "Statistical Association* 22 (1927): the intervals of "
            "shares.\n"
            "- D. Zare, \"Hedging Toward Skill\": a result less its luck "
            "as an estimate of skill with a far smaller variance.\n");
    print_sources(o, R, n);
}

/* The ruleset `id` at its defaults, built in or of a --rules file (its
 * title, author, year and source), or NULL. */
static kemet_rules *open_reading(const char *id) {
    kemet_rules *r = NULL;
    const char *text = cli_rules_text_for(id);
    if (text ? kemet_rules_open_text(text, id, NULL, &r, NULL)
             : kemet_rules_open(id, &r, NULL))
        return NULL;
    return r;
}

/* The evaluation reading R was played with, in a few words. */
static void put_evaluation(FILE *o, const rep_reading *R) {
    if (R->net) {
        fprintf(o, "network %016llx (%d hidden units",
                (unsigned long long)R->net, R->net_hidden);
        if (R->net_endgame)
            fprintf(o, "; an endgame section for 1 to %d pieces a side",
                    R->net_endgame);
        fprintf(o, ")");
    } else
        fprintf(o, "linear weights");
    if (R->f.table_pieces)
        fprintf(o, "; exact table, %d pieces a side", R->f.table_pieces);
    if (R->race)
        fprintf(o, "; race database%s",
                R->exact_start ? ", which values every position" : "");
}

/* A copy of s, or NULL for none; *bad set when out of memory. */
static char *dup_or_null(const char *s, bool *bad) {
    char *c = s ? strdup(s) : NULL;
    *bad |= s && !c;
    return c;
}

/* Who reading R's rules are by and where they were published, from its
 * base opened at its defaults, kept in R (the report is written from
 * what R holds). 0, or KEMET_ENOMEM. */
static int reading_rules(rep_reading *R) {
    kemet_rules *r = open_reading(R->base);
    if (!r)
        return KEMET_OK;
    const kemet_info *f = kemet_rules_info(r);
    bool bad = false;
    struct rep_rules *u = &R->rules;
    u->author = dup_or_null(f->author, &bad);
    u->source_kind = dup_or_null(f->source_kind, &bad);
    u->about = dup_or_null(f->about, &bad);
    u->board_note = dup_or_null(f->board_note, &bad);
    u->source = dup_or_null(f->source, &bad);
    u->reference = dup_or_null(f->reference, &bad);
    u->year = f->year;
    R->rules_known = true;
    kemet_rules_close(r);
    return bad ? KEMET_ENOMEM : KEMET_OK;
}

/* What R holds of its rules as the fields of kemet_info (into buf), or
 * NULL where they are not known. */
static const kemet_info *reading_info(const rep_reading *R, kemet_info *buf) {
    if (!R->rules_known)
        return NULL;
    const struct rep_rules *u = &R->rules;
    *buf = (kemet_info){.title = R->title,
                        .author = u->author,
                        .year = u->year,
                        .source_kind = u->source_kind,
                        .about = u->about,
                        .board_note = u->board_note,
                        .source = u->source,
                        .reference = u->reference};
    return buf;
}

/* Who each reading is by, so that a reader need not know the ids, and
 * where each was published, so that a reader can check it. */
static void print_readings(FILE *o, const rep_reading *R, int n, int nv) {
    fprintf(o, "## The readings measured\n\n"
               "Each ruleset is one published reading of its board's "
               "rules, as kemet plays it (docs/rules); `kemet rules ID` "
               "gives its rules in full. The report names each by its "
               "title, its author where the title does not, and its year; "
               "the tables by its id. *Source*: the kind of source its "
               "rules come from, as its file says (`source-kind`, "
               "docs/rulesets.md): a scholar's publication weighs more "
               "than a rules sheet, a ruleset of Ludii's without a source, "
               "or a comment under a web page; a board kemet drew is a "
               "reconstruction of its own.\n\n| ruleset | reading | source "
               "|\n|---|---|---|\n");
    bool own = false; /* a reading on a board kemet reconstructs */
    for (int i = 0; i < n; i++) {
        kemet_info fi;
        const kemet_info *f = reading_info(&R[i], &fi);
        own |= f && f->board_note;
        fprintf(o, "| %s | ", R[i].f.id);
        put_name(o, &R[i]);
        fprintf(o, " | %s |\n", f && f->source_kind ? f->source_kind : "—");
    }
    fprintf(o, "\n**What each was played with**: what its agents judge "
               "positions by (*The agents*, under *How it is measured*): "
               "its network, named by the hash of its text as the kept "
               "measurement's lines name it, or the linear weights; an "
               "exact endgame table and a race database where they are in "
               "use: the rulesets named, then the variants.\n\n| "
               "ruleset | evaluation |\n|---|---|\n");
    for (int i = 0; i < n + nv; i++) {
        fprintf(o, "| %s | ", R[i].f.id);
        put_evaluation(o, &R[i]);
        fprintf(o, " |\n");
    }
    bool linear = false;
    for (int i = 0; i < n + nv; i++)
        linear |= !R[i].net;
    fprintf(o,
            "\nA network ships only where it beats what it replaces and "
            "its self-play stops no more games at the turn cap than the "
            "linear weights' (docs/agents.md, *When a network ships*; "
            "docs/strength.md gives each candidate's figures)%s. A "
            "variant plays with its ruleset's network unless one trained "
            "for its options passed the same rule.\n",
            linear ? ": where a reading plays with the linear weights, no "
                     "network passed it, or the run chose them (`--net "
                     "linear`)"
                   : "");
    fprintf(o, "\n**Who each is by, what sets it apart and where it was "
               "published**, and which of its rules kemet plays (the "
               "rulings named are in docs/rulings.md and "
               "docs/reconstructions.md; docs/rules/ID.md traces each rule "
               "to the code and the test that covers it):\n\n");
    for (int i = 0; i < n; i++) {
        kemet_info fi;
        const kemet_info *f = reading_info(&R[i], &fi);
        fprintf(o, "- **");
        put_name(o, &R[i]);
        fprintf(o, "**");
        if (f && f->author && title_names(f->title, f->author))
            fprintf(o, ", by %s", f->author); /* in full */
        fprintf(o, ": %s%s Published: %s.\n", f && f->about ? f->about : "",
                f && f->board_note ? " The board is a reconstruction." : "",
                f && f->source ? f->source : "not given");
    }
    if (own)
        fprintf(o, "\nA reconstructed board is kemet's, drawn where the "
                   "rules' text gives no diagram (docs/boards.md); a "
                   "reading on such a board stands among the other boards, "
                   "not among the readings of Senet's board or of the 58 "
                   "holes.\n");
    fprintf(o, "\n");
}

/* How the verdict of the n rulesets R rests on each criterion's unit
 * (verdict_words.c). */
static void print_units(FILE *o, const rep_reading *R, int n) {
    kemet_measured m[REPORT_MAX_SETS];
    const char *id[REPORT_MAX_SETS];
    char *name[REPORT_MAX_SETS];
    const char *said[REPORT_MAX_SETS];
    for (int i = 0; i < n; i++) {
        m[i] = R[i].vm[0];
        id[i] = R[i].f.id;
        name[i] = name_of(&R[i]);
        said[i] = name[i] ? name[i] : id[i];
    }
    vw_units_varied(o, m, id, said, n);
    for (int i = 0; i < n; i++)
        free(name[i]);
}

/* The verdict, with those of the nsv other seeds kept. */
static void print_verdict(FILE *o, rep_reading *R, int n,
                          const seed_verdict *sv, int nsv, const settings *st) {
    int ord[REPORT_MAX_SETS];
    const rep_reading *x[REPORT_MAX_SETS];
    kemet_judged jv[REPORT_MAX_SETS];
    kemet_measured mv[REPORT_MAX_SETS];
    for (int i = 0; i < n; i++) {
        ord[R[i].vj[0].place - 1] = i;
        x[i] = &R[i];
        jv[i] = R[i].vj[0];
        mv[i] = R[i].vm[0];
    }
    fprintf(o, "## Verdict\n\n");
    verdict_tables(o, x, jv, mv, ord, n);
    fprintf(o, "**Each reconstruction's weakest point**:\n\n");
    for (int k = 0; k < n; k++) {
        fprintf(o, "- **");
        put_name(o, &R[ord[k]]);
        fprintf(o, "**: ");
        weakest(o, &R[ord[k]], jv, n, ord[k]);
        fprintf(o, ".\n");
    }
    double ts[REPORT_MAX_SETS], tw[REPORT_MAX_SETS];
    for (int i = 0; i < n; i++) {
        ts[i] = R[i].vj[0].tier;
        tw[i] = R[i].vj[1].tier;
    }
    long opp = 0;
    double tau = kemet_tau_b(ts, tw, n, &opp);
    fprintf(o, "\n**How the verdict depends on the agents and on the "
               "seed.** Each ruleset's tier in this verdict; judged on the "
               "same criteria with the weak self-play's figures (balance "
               "from the raw result, decisions, length, tension and the "
               "stopped share of weak play; the skill and the probes, which "
               "need the strong agent, are the same in both)");
    for (int k = 0; k < nsv; k++)
        if (st->check && sv[k].seed == st->check_seed)
            fprintf(o,
                    "%s the same settings at seed %llu (measured again by "
                    "this run, `--check-seed`)",
                    k == nsv - 1 ? "; and" : ";",
                    (unsigned long long)sv[k].seed);
        else
            fprintf(o,
                    "%s the same settings at seed %llu (measured by a run "
                    "kept in `%s`)",
                    k == nsv - 1 ? "; and" : ";",
                    (unsigned long long)sv[k].seed, st->save);
    fprintf(o, ":\n\n| ruleset | tier | weak self-play |");
    for (int k = 0; k < nsv; k++)
        fprintf(o, " seed %llu |", (unsigned long long)sv[k].seed);
    fprintf(o, "\n|---|---|---|");
    for (int k = 0; k < nsv; k++)
        fprintf(o, "---|");
    fprintf(o, "\n");
    for (int q = 0; q < n; q++) {
        int i = ord[q];
        fprintf(o, "| %s | %d%s | %d |", R[i].f.id, R[i].vj[0].tier,
                R[i].vj[0].flags ? ", flagged" : "", R[i].vj[1].tier);
        for (int k = 0; k < nsv; k++)
            fprintf(o, " %d%s |", sv[k].tier[i],
                    sv[k].flags[i] ? ", flagged" : "");
        fprintf(o, "\n");
    }
    fprintf(o, "\n");
    put_tau(o, tau, opp, "this verdict's tiers and the weak self-play's",
            "ruleset");
    if (nsv == 0)
        fprintf(o, " No other seed's measurements of these settings were "
                   "found. Run the same command with `--check-seed S`, or "
                   "with another `--seed` and the same `--save` folder, and "
                   "each report compares the verdicts of the seeds kept "
                   "there.");
    for (int k = 0; k < nsv; k++) {
        const seed_verdict *v = &sv[k];
        double mine[REPORT_MAX_SETS], theirs[REPORT_MAX_SETS];
        for (int i = 0; i < n; i++) {
            mine[i] = R[i].vj[0].tier;
            theirs[i] = v->tier[i];
        }
        long opp_k = 0;
        double tau_k = kemet_tau_b(mine, theirs, n, &opp_k);
        if (isnan(tau_k))
            fprintf(o, " Against seed %llu's tiers it is undefined",
                    (unsigned long long)v->seed);
        else
            fprintf(o, " Against seed %llu's tiers it is %.2f",
                    (unsigned long long)v->seed, tau_k);
        fprintf(o,
                ", and %ld pair%s of rulesets %s in opposite strict "
                "order.",
                opp_k, opp_k == 1 ? "" : "s", opp_k == 1 ? "is" : "are");
    }
    fprintf(o, "\n\n**How it depends on each criterion.** Leaving one "
               "criterion out in turn, the first tier is:\n\n");
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        int t[REPORT_MAX_SETS];
        kemet_measured m[REPORT_MAX_SETS];
        kemet_judged J[REPORT_MAX_SETS];
        memset(m, 0, sizeof m);
        for (int i = 0; i < n; i++)
            m[i] = R[i].vm[0];
        kemet_verdict(m, n, c, J, t);
        fprintf(o, "- without %s: ", kemet_criterion_info(c)->name);
        for (int k = 0; k < n && J[t[k]].tier == 1; k++) {
            fprintf(o, "%s", k ? "; " : "");
            put_name(o, &R[t[k]]);
            fprintf(o, "%s", J[t[k]].flags ? " (flagged)" : "");
        }
        fprintf(o, ".\n");
    }
    fputc('\n', o);
    print_units(o, R, n);
}

/* Where the race database values every position of reading R, what its
 * skill figure is: the searchers play by the database throughout and
 * greedy by the network alone, so the strong agent's luck-adjusted score
 * is one half plus what greedy's choices give away a game (in a pair of
 * games that throw alike, a player who chooses as the database does
 * scores 1 - v + v = 1 over the two with the luck out, v the start's
 * value, plus whatever the other's worse choices hand it); near player
 * 1's chance at the start only by chance. */
static void raced_skill(FILE *o, const rep_reading *R, const settings *st) {
    const kemet_match_figures *h = &R->f.head;
    if (!R->race || !R->exact_start || isnan(h->stats.adj.score))
        return;
    double gift = held(&h->stats.adj) - 0.5;
    fprintf(o,
            "\n**%s**: its race database values every position (the "
            "readings table), so %s, and every searcher of the ladder, "
            "chooses by it throughout: near-perfect play, each side "
            "playing to finish soonest on average, the database's chances "
            "near-exact. %s judges one move ahead by the network alone, "
            "never by the database (*The agents*). In a pair of games that "
            "throw alike, a player who chooses as the database does scores "
            "exactly one game over the two with the luck taken out, "
            "whatever the start's value, plus what the other's worse "
            "choices give away; so %s's %.3f (%.3f–%.3f) against %s is one "
            "half plus what %s's choices give away a game, %.3f, measured "
            "as it is in every other reading.",
            R->f.id, st->s.strong, st->s.weak[0], st->s.strong,
            held(&h->stats.adj), h->stats.adj.lo, fmin(1, h->stats.adj.hi),
            st->s.weak[0], st->s.weak[0], gift);
    const kemet_stat *v = &R->f.strong.p1_adjusted;
    if (!isnan(v->value) && v->value >= h->stats.adj.lo &&
        v->value <= h->stats.adj.hi)
        fprintf(o,
                " That player 1's chance at the start, %.3f (*Outcomes and "
                "balance*: every game of %s's self-play gives it with the "
                "luck taken out), lies within that interval is chance: the "
                "two are different quantities.",
                v->value, st->s.strong);
    fprintf(o, "\n");
}

/* The half-width of an interval, relative to its estimate or not. */
static double half_of(const kemet_stat *s, bool relative) {
    double h = fmax(s->value - s->lo, s->hi - s->value);
    if (isinf(s->value) || isinf(s->hi))
        return INFINITY;
    return relative ? h / s->value : h;
}

/* Whether interval s is wider than half-width h (relative: of itself). */
static bool short_of(const kemet_stat *s, double h, bool relative) {
    return half_of(s, relative) > h * (1 + 1e-9);
}

/* The half-width a figure reached, starred where it is short of h. */
static void put_half(FILE *o, const kemet_stat *s, double h, bool relative,
                     int digits) {
    double x = half_of(s, relative);
    if (isnan(x))
        fprintf(o, " — |");
    else if (isinf(x))
        fprintf(o, " cap\\* |");
    else
        fprintf(o, " ±%.*f%s%s |", digits, relative ? 100 * x : x,
                relative ? "%" : "", short_of(s, h, relative) ? "\\*" : "");
}

static kemet_stat est_stat(const kemet_estimate *e) {
    return (kemet_stat){e->score, e->lo, e->hi};
}

/* Samples of fewer games than this are listed apart. */
#define FEW_GAMES 100

/* Figure `hi` against `lo` of ruleset id (hi's self-play where lo is "")
 * when it took fewer than FEW_GAMES games: counted in *count, and listed
 * when o is given, after a "; " but for the first. */
static void few_games(FILE *o, int *count, const char *id, const char *hi,
                      const char *lo, long games) {
    if (games <= 0 || games >= FEW_GAMES)
        return;
    if (o)
        fprintf(o, "%s%s, %s%s%s (%ld games)", *count ? "; " : "", id, hi,
                *lo ? " against " : " self-play", lo, games);
    ++*count;
}

/* The samples of fewer than FEW_GAMES games, each listed (o given) or
 * only counted; how many, and in *all how many samples there are. */
static int few_figures(FILE *o, const rep_reading *R, int n, const settings *st,
                       int *all) {
    int count = 0;
    *all = 0;
    for (int i = 0; i < n; i++) {
        const rep_reading *x = &R[i];
        few_games(o, &count, x->f.id, st->s.strong, "", x->f.strong.games);
        few_games(o, &count, x->f.id, x->f.head.upper, x->f.head.lower,
                  x->f.head.games);
        for (int k = 0; k < x->f.nsteps; k++)
            few_games(o, &count, x->f.id, x->f.ladder[k].upper,
                      x->f.ladder[k].lower, x->f.ladder[k].games);
        for (int k = 0; k < KEMET_STUDY_PROBES; k++)
            few_games(o, &count, x->f.id, x->f.probe[k].upper,
                      x->f.probe[k].lower, x->f.probe[k].games);
        *all += 2 + x->f.nsteps + KEMET_STUDY_PROBES;
    }
    return count;
}

/* The precision each figure reached. */
static void print_precision(FILE *o, const rep_reading *R, int n,
                            const settings *st) {
    double h = st->s.precision;
    fprintf(o,
            "\n## Appendix: precision reached\n\nThe games each figure took "
            "and the "
            "half-width of its 95%% interval; \\* marks a half-width over "
            "its target (±%.3f; the median ±%.0f%% of itself; LeadChange "
            "±%.4f). A starred figure that took the cap (%ld games) was "
            "stopped by it; one that took fewer was sized by its last "
            "sizing (the %dth) from a spread that proved too small; its "
            "interval is over all its games either way. The games of "
            "strong self-play (*self-play*) and the half-widths of its "
            "figures; the games of the strong agent against the weak (*vs "
            "weak*) and the half-widths of its score and the luck share; "
            "the games of the ladder's steps and the widest step's "
            "half-width; the same of the probes.\n\n| ruleset | "
            "self-play | P1 score | median length | LeadChange | vs weak | "
            "score | luck share | ladder | widest step | probes | widest "
            "probe |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
            h, 100 * KEMET_STUDY_MEDIAN_REL * h, h / KEMET_STUDY_LEAD_DIV,
            st->s.most, KEMET_STUDY_ROUNDS);
    for (int i = 0; i < n; i++) {
        const rep_reading *x = &R[i];
        fprintf(o, "| %s | %ld |", x->f.id, x->f.strong.games);
        put_half(o, &x->f.strong.p1_adjusted, h, false, 3);
        put_half(o, &x->f.strong.median, KEMET_STUDY_MEDIAN_REL * h, true, 1);
        put_half(o, &x->f.strong.analysis.lead_change, h / KEMET_STUDY_LEAD_DIV,
                 false, 4);
        kemet_stat hs = est_stat(&x->f.head.stats.adj);
        fprintf(o, " %ld |", x->f.head.games);
        put_half(o, &hs, h, false, 3);
        put_half(o, &x->f.head.luck_share, h, false, 3);
        kemet_stat wide = {NAN, NAN, NAN};
        long lo = 0, hi = 0;
        for (int k = 0; k < x->f.nsteps; k++) {
            kemet_stat e = est_stat(&x->f.ladder[k].stats.adj);
            if (isnan(wide.value) || half_of(&e, false) > half_of(&wide, false))
                wide = e;
            long g = x->f.ladder[k].games;
            lo = !k || g < lo ? g : lo;
            hi = g > hi ? g : hi;
        }
        if (x->f.nsteps)
            fprintf(o, " %ld–%ld |", lo, hi);
        else
            fprintf(o, " — |");
        put_half(o, &wide, h, false, 3);
        wide = (kemet_stat){NAN, NAN, NAN};
        lo = hi = 0;
        for (int k = 0; k < KEMET_STUDY_PROBES; k++) {
            kemet_stat e = est_stat(&x->f.probe[k].stats.adj);
            if (isnan(wide.value) || half_of(&e, false) > half_of(&wide, false))
                wide = e;
            long g = x->f.probe[k].games;
            lo = !k || g < lo ? g : lo;
            hi = g > hi ? g : hi;
        }
        fprintf(o, " %ld–%ld |", lo, hi);
        put_half(o, &wide, h, false, 3);
        fputc('\n', o);
    }
    fprintf(o, "\nA half-width is the larger distance from the estimate to an "
               "end of its interval (a luck-adjusted score's interval is "
               "held to 0..1).\n");
    int all, few = few_figures(NULL, R, n, st, &all);
    if (few > 0 && few <= 12) {
        fprintf(o, "\n**Samples of fewer than %d games**: ", FEW_GAMES);
        few_figures(o, R, n, st, &all);
    } else if (few > 0)
        fprintf(o,
                "\n**%d of the %d samples above took fewer than %d "
                "games**",
                few, all, FEW_GAMES);
    if (few > 0)
        fprintf(o, ". The spread that sized each was estimated from few "
                   "games, where the stopping rule's coverage is least sure "
                   "(a spread near none is seen when an agent chooses as "
                   "its opponent would, or an exact database values every "
                   "position): take their figures as indications, not "
                   "findings.\n");
}

/* One line under Contradictions when step s went the wrong way, the
 * heading first when nothing was said before; whether it said anything. */
static bool say_contradiction(FILE *o, const char *id,
                              const kemet_match_figures *s, bool said) {
    if (!s->contradiction)
        return false;
    if (!said)
        fprintf(o, "\n**Contradictions** (a stronger agent losing beyond "
                   "its interval; each step's interval misses its true "
                   "score one time in twenty, so among many steps one may "
                   "by chance):\n\n");
    fprintf(o, "- %s: %s scores %.3f (%.3f–%.3f) against %s over %ld games.\n",
            id, s->upper, s->stats.adj.score, s->stats.adj.lo, s->stats.adj.hi,
            s->lower, s->games);
    return true;
}

/* ------------------------------------------------------------------------
 * Ludii beside kemet (--ludii FILE: docs/analysis/ludii/summary.csv)
 * --------------------------------------------------------------------- */

/* Splits one CSV line (fields in double quotes may hold commas, "" a
 * quote) into row; the number of fields, or -1 for a field too long or
 * an unclosed quote. */
static int csv_fields(const char *line, ludii_row *row) {
    int n = 0;
    const char *p = line;
    for (;;) {
        if (n == LUDII_COLS)
            return -1;
        char *out = row->field[n];
        size_t k = 0;
        if (*p == '"') {
            for (p++;; p++) {
                if (!*p || *p == '\n')
                    return -1;
                if (*p == '"' && p[1] == '"')
                    p++;
                else if (*p == '"')
                    break;
                if (k + 1 >= sizeof row->field[0])
                    return -1;
                out[k++] = *p;
            }
            p++;
        } else {
            for (; *p && *p != ',' && *p != '\n' && *p != '\r'; p++) {
                if (k + 1 >= sizeof row->field[0] || *p == '"')
                    return -1;
                out[k++] = *p;
            }
        }
        out[k] = '\0';
        n++;
        if (*p != ',')
            return *p && *p != '\n' && *p != '\r' ? -1 : n;
        p++;
    }
}

/* Whether s is well-formed UTF-8 (no overlong forms, no surrogates, at
 * most U+10FFFF). */
static bool utf8_ok(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    for (int n; *p; p += n)
        if (!(n = kc_utf8_len(p)))
            return false;
    return true;
}

static const char *const ludii_head =
    "spec,ludii_ruleset,kemet_turns,kemet_turns_lo,kemet_turns_hi,"
    "ludii_turns,ludii_turns_lo,ludii_turns_hi,kemet_p1,kemet_p1_lo,"
    "kemet_p1_hi,ludii_p1,ludii_p1_lo,ludii_p1_hi,undone_turns,undone_p1,"
    "agrees_when_undone,cause";

/* Reads the summary at `path` into rows (at most LUDII_ROWS); their
 * number, or -1 after a one-line message naming the file and line. */
static int ludii_read(const char *path, ludii_row *rows) {
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_fail("analyze: --ludii %.200s: cannot be read", path);
        return -1;
    }
    char line[8192];
    int n = 0, at = 0;
    while (fgets(line, sizeof line, f)) {
        at++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            fclose(f);
            cli_fail("analyze: --ludii %.200s: line %d is too long", path, at);
            return -1;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (at == 1) {
            if (strcmp(line, ludii_head) != 0) {
                fclose(f);
                cli_fail("analyze: --ludii %.200s: line 1: not the summary "
                         "of docs/analysis/ludii (its columns: %.40s...)",
                         path, ludii_head);
                return -1;
            }
            continue;
        }
        if (!line[0])
            continue;
        char *end;
        if (!utf8_ok(line)) {
            fclose(f);
            cli_fail("analyze: --ludii %.200s: line %d: not UTF-8 text", path,
                     at);
            return -1;
        }
        bool ok = n < LUDII_ROWS && csv_fields(line, &rows[n]) == LUDII_COLS;
        for (int c = 2; ok && c <= 15; c++) {
            const char *v = rows[n].field[c];
            if (c >= 14 && !v[0])
                continue; /* not undone */
            errno = 0;
            double x = strtod(v, &end);
            ok = !errno && end != v && !*end && isfinite(x) && x >= 0;
        }
        ok = ok && (strcmp(rows[n].field[16], "yes") == 0 ||
                    strcmp(rows[n].field[16], "no") == 0 ||
                    strcmp(rows[n].field[16], "not-undone") == 0);
        if (!ok) {
            fclose(f);
            cli_fail("analyze: --ludii %.200s: line %d: %s", path, at,
                     n == LUDII_ROWS ? "more lines than the report takes"
                                     : "not a line of the summary (18 "
                                       "fields, numbers where numbers go)");
            return -1;
        }
        n++;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad || n == 0) {
        cli_fail("analyze: --ludii %.200s: %s", path,
                 bad ? "cannot be read" : "no line after the first");
        return -1;
    }
    return n;
}

/* The section: each reading Ludii encodes (its option sets counted, not
 * listed) with both programs' random-play figures, and the rule behind
 * each difference. */
static void print_ludii(FILE *o, const ludii_row *L, int n) {
    if (n <= 0)
        return;
    int agree = 0, undone = 0;
    for (int i = 0; i < n; i++) {
        agree += strcmp(L[i].field[16], "yes") == 0;
        undone += strcmp(L[i].field[16], "not-undone") != 0;
    }
    fprintf(o,
            "\n## Ludii beside kemet\n\n"
            "Ludii, the general game system, is the only other program that "
            "plays these readings. Both played uniformly random games of "
            "each reading Ludii encodes (%d rulesets, these and their "
            "options; docs/analysis/ludii/README.md has every figure with "
            "its interval, the evidence and the commands). Where they "
            "differ, the difference goes back to a place where Ludii's code "
            "departs from the rule text its own file quotes; with those "
            "departures undone in copies of its files, %d of the %d undone "
            "agree with kemet within the 95%% intervals. Turns: the mean "
            "length of a random game; player 1: its share of the wins.\n\n"
            "| reading | turns: kemet / Ludii / undone | player 1: kemet / "
            "Ludii / undone | agrees when undone |\n|---|---|---|---|\n",
            n, agree, undone);
    for (int i = 0; i < n; i++) {
        if (strchr(L[i].field[0], ':'))
            continue; /* an option set: in the README */
        bool none = !L[i].field[14][0];
        fprintf(o, "| %s | %s / %s / %s | %s / %s / %s | %s |\n",
                L[i].title[0] ? L[i].title : L[i].field[0], L[i].field[2],
                L[i].field[5], none ? "—" : L[i].field[14], L[i].field[8],
                L[i].field[11], none ? "—" : L[i].field[15],
                strcmp(L[i].field[16], "not-undone") == 0 ? "nothing to undo"
                                                          : L[i].field[16]);
    }
    fprintf(o, "\n");
    for (int i = 0; i < n; i++) {
        if (strchr(L[i].field[0], ':') || !L[i].field[17][0])
            continue;
        fprintf(o, "- %s: %s\n", L[i].title[0] ? L[i].title : L[i].field[0],
                L[i].field[17]);
    }
}

/* ------------------------------------------------------------------------
 * What each rule does (--changes)
 * --------------------------------------------------------------------- */

/* A rule change in words: "`capture swap` for `capture remove`". */
static void put_change(FILE *o, const kemet_change *c) {
    if (c->option)
        fprintf(o, "the option `%s` (not `%s`)", c->to, c->from);
    else if (!c->to[0])
        fprintf(o, "no `%s`", c->from);
    else if (!c->from[0])
        fprintf(o, "`%s` added", c->to);
    else
        fprintf(o, "`%s` for `%s`", c->to, c->from);
}

/* A change's difference on criterion c where it moves (its interval's
 * half-width after ±), "·" where it does not. */
static void put_effect(FILE *o, int c, const kemet_effect *e) {
    if (isnan(e->diff)) {
        fprintf(o, e->flag_now && !e->flag_was ? " ⚑ |" : " — |");
        return;
    }
    if (!e->moves) {
        fprintf(o, " ·%s |", e->flag_now && !e->flag_was ? " ⚑" : "");
        return;
    }
    int d = c == KEMET_CRIT_LENGTH ? 2 : crit_digits(c);
    fprintf(o, " %+.*f±%.*f%s |", d, e->diff, d, (e->hi - e->lo) / 2,
            e->flag_now && !e->flag_was ? " ⚑" : "");
}

/* The sentences that explain reading B's flags and, in the first tier,
 * its standing, from the effects E of its k changes C. */
static void explain(FILE *o, const rep_reading *B, const rep_reading *ctl,
                    const rep_reading *const *C, const kemet_change_effect *E,
                    int k) {
    const kemet_measured *was = ctl ? &ctl->vm[0] : &B->vm[0];
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        if (!(B->flags >> c & 1))
            continue;
        const kemet_criterion *K = kemet_criterion_info(c);
        int second, i = kemet_explain_flag(was, E, k, c, &second);
        fprintf(o, "- Flagged on %s (%s ", K->name, K->figure);
        put_figure(o, c, &B->vm[0].c[c]);
        fprintf(o, "): ");
        if (ctl && !kemet_criterion_flag(c, &ctl->vm[0].c[c])) {
            fprintf(o, "judged as its changes are, without its endgame "
                       "table, it is ");
            put_figure(o, c, &ctl->vm[0].c[c]);
            fprintf(o, " and not flagged, so the flag rests on what the "
                       "table knows of the endgame and no rule change is "
                       "measured against it.\n");
        } else if (i >= 0 && second < 0) {
            fprintf(o, "the change that clears it is ");
            put_change(o, &C[i]->change);
            fprintf(o, ", with which it is ");
            put_figure(o, c, &C[i]->vm[0].c[c]);
            fprintf(o, ".\n");
        } else if (i >= 0) {
            fprintf(o, "no one rule change clears it; ");
            put_change(o, &C[i]->change);
            fprintf(o, " (");
            put_figure(o, c, &C[i]->vm[0].c[c]);
            fprintf(o, ") and ");
            put_change(o, &C[second]->change);
            fprintf(o, " (");
            put_figure(o, c, &C[second]->vm[0].c[c]);
            fprintf(o, ") each move it toward the line: only the two "
                       "together might.\n");
        } else {
            fprintf(o, "no one rule change measured here clears it or "
                       "moves it toward the line.\n");
        }
    }
    if (B->flags || B->vj[0].tier != 1)
        return;
    int i = kemet_explain_standing(E, k);
    if (i < 0) {
        fprintf(o, "- In the first tier, and no one rule change costs it "
                   "anything beyond the noise.\n");
        return;
    }
    const kemet_change_effect *e = &E[i];
    fprintf(o, "- In the first tier; the change that costs it most is ");
    put_change(o, &C[i]->change);
    fprintf(o, ": with it, ");
    int fresh = e->flags_now & ~e->flags_was;
    if (fresh) {
        fprintf(o, "it is flagged on");
        for (int c = 0, first = 1; c < KEMET_CRITERIA; c++)
            if (fresh >> c & 1) {
                fprintf(o, "%s %s", first ? "" : ",",
                        kemet_criterion_info(c)->name);
                first = 0;
            }
        fprintf(o, "; ");
    }
    fprintf(o, "its penalty goes from ");
    put_penalty(o, &(kemet_judged){.penalty = e->penalty_was});
    fprintf(o, " to ");
    put_penalty(o, &(kemet_judged){.penalty = e->penalty_now});
    int said = 0;
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        const kemet_effect *x = &e->c[c];
        if (!x->moves)
            continue;
        fprintf(o, "%s%s ", said++ ? ", " : " (",
                kemet_criterion_info(c)->name);
        put_figure(o, c, &was->c[c]);
        fprintf(o, " → ");
        put_figure(o, c, &C[i]->vm[0].c[c]);
    }
    fprintf(o, "%s.\n", said ? ")" : "");
}

/* Whether a headroom study finds the strong agent saturated: the stronger
 * agent's luck-adjusted score lies within KEMET-wide 0.49..0.51. */
static bool saturated(const kemet_match_figures *h) {
    return h->stats.adj.lo >= 0.49 && h->stats.adj.hi <= 0.51;
}

/* The subsection "Headroom": each ruleset's strong agent against the
 * stronger one of --headroom (the headroom studies H). */
static void print_headroom(FILE *o, const rep_reading *R, int n,
                           const rep_reading *H, int nh, const settings *st) {
    if (nh == 0)
        return;
    fprintf(o,
            "\n### Headroom: the strong agent against a stronger one\n\n"
            "How far is %s from strong play? In each ruleset named, and "
            "in each variant in the first tier of its board's readings "
            "(*Which Senet?*, *Which 58 holes?*), it played %s, in pairs of "
            "games that throw alike with the seats swapped, "
            "the luck taken out, to ±%.3g as the other matches are. Where "
            "the skill figure is saturated (*Glossary*), the stronger agent "
            "finds no more than a hundredth of a game to gain; elsewhere "
            "the figures of skill measured with %s are lower bounds, and "
            "the gain is what the stronger agent still finds.\n\n"
            "| ruleset | %s vs %s, luck-adjusted | games | the skill figure "
            "|\n|---|---|---|---|\n",
            st->s.strong, st->headroom, st->s.precision, st->s.strong,
            st->headroom, st->s.strong);
    for (int k = 0; k < nh; k++) {
        const rep_reading *B = &R[H[k].headroom_of - 1];
        const kemet_match_figures *h = &H[k].f.head;
        fprintf(o, "| %s |", B->f.id);
        md_est(o, &h->stats.adj);
        fprintf(o, " %ld |", h->games);
        if (saturated(h))
            fprintf(o, " saturated |\n");
        else if (shown_better(h))
            fprintf(o, " a lower bound: %s gains %.3f more |\n", st->headroom,
                    h->stats.adj.score - 0.5);
        else
            fprintf(o, " not shown saturated (the interval reaches past "
                       "0.49–0.51) |\n");
    }
    (void)n;
}

/* The section "What each rule does": for each reading with changes, the
 * sentences that explain its flags and standing, then the table. */
static void print_changes(FILE *o, const rep_reading *R, int n,
                          const rep_reading *C, int nc, const settings *st) {
    if (nc == 0)
        return;
    fprintf(o,
            "\n## What each rule does\n\n"
            "Each reading named without options was measured again with one "
            "of its rules changed, every change that the stated rule of "
            "docs/rulesets.md (\"One rule changed\") finds for it, at most "
            "%d (`kemet rules RULESET --changes` lists them). A change is "
            "measured as a variant (no ladder, no SkillTrace) to ±%.3g, "
            "twice the readings' half-width, judged by the reading's own "
            "evaluation (its network or tuned weights; no endgame table), so "
            "that it differs by the rule alone. A cell gives the change's "
            "difference from the reading, ± half its 95%% interval, where "
            "that interval excludes 0 (the two measured apart, their errors "
            "combined as independent); · where it does not; ⚑ where the "
            "change brings a flag. Each criterion as the verdict judges it, "
            "the length in doublings (+1.00: twice as long). The penalty is "
            "the verdict's, with ↑ or ↓ where its change is beyond its "
            "errors. A reading measured with an exact endgame table or race "
            "database (which a changed rule would make wrong) is measured "
            "again as its changes are, without them, at their half-width: "
            "that control is what its changes are compared with, and its "
            "row gives its own difference from the reading as published "
            "(what the table's exact values alone move). Each "
            "flag and each first-tier standing is explained by the change "
            "that clears or costs it most, from these figures alone.\n",
            KEMET_MAX_CHANGES, 2 * st->s.precision);
    for (int b = 0; b < n; b++) {
        const rep_reading *list[KEMET_MAX_CHANGES], *ctl = NULL;
        kemet_change_effect E[KEMET_MAX_CHANGES];
        int k = 0;
        for (int i = 0; i < nc; i++)
            if (C[i].change_of == b + 1 && C[i].control)
                ctl = &C[i];
        const kemet_measured *was = ctl ? &ctl->vm[0] : &R[b].vm[0];
        for (int i = 0; i < nc && k < KEMET_MAX_CHANGES; i++)
            if (C[i].change_of == b + 1 && !C[i].control) {
                list[k] = &C[i];
                kemet_change_effects(was, &C[i].vm[0], &E[k]);
                k++;
            }
        if (k == 0)
            continue;
        fprintf(o, "\n### %s\n\n", R[b].title);
        explain(o, &R[b], ctl, list, E, k);
        fprintf(o, "\n| `%s` with |", R[b].f.id);
        for (int c = 0; c < KEMET_CRITERIA; c++)
            fprintf(o, " %s |", kemet_criterion_info(c)->name);
        fprintf(o, " penalty |\n|---|");
        for (int c = 0; c < KEMET_CRITERIA; c++)
            fprintf(o, "---|");
        if (ctl) {
            kemet_change_effect x;
            kemet_change_effects(&R[b].vm[0], was, &x);
            fprintf(o, "---|\n| (its own rules, no endgame table: the "
                       "control) |");
            for (int c = 0; c < KEMET_CRITERIA; c++)
                put_effect(o, c, &x.c[c]);
        } else {
            fprintf(o, "---|\n| (its own rules) |");
            for (int c = 0; c < KEMET_CRITERIA; c++)
                fprintf(o, " |");
        }
        fprintf(o, " ");
        put_penalty(o, &(kemet_judged){.penalty = E[0].penalty_was});
        fprintf(o, " |\n");
        for (int i = 0; i < k; i++) {
            fprintf(o, "| ");
            if (list[i]->change.option)
                fprintf(o, "%s", list[i]->change.to);
            else if (list[i]->change.to[0])
                fprintf(o, "%s", list[i]->change.to);
            else
                fprintf(o, "no %s", list[i]->change.from);
            fprintf(o, " |");
            for (int c = 0; c < KEMET_CRITERIA; c++)
                put_effect(o, c, &E[i].c[c]);
            fprintf(o, " ");
            put_penalty(o, &(kemet_judged){.penalty = E[i].penalty_now});
            fprintf(o, "%s |\n",
                    E[i].penalty_moves > 0   ? " ↑"
                    : E[i].penalty_moves < 0 ? " ↓"
                                             : "");
        }
    }
}

/* The processes the run was measured on (MPI ranks; 1 without), as its
 * data says. */
static int rank_count(const settings *st) {
    return st->procs;
}

/* A row of the appendix "Time" after its label: each part's seconds of
 * readings X[0..nx) summed (and added to sum), their total, and the
 * last cell. */
static void time_cells(FILE *o, const rep_reading *X, int nx, double *sum,
                       const char *last) {
    double part[KEMET_PARTS] = {0}, whole = 0;
    for (int i = 0; i < nx; i++) {
        for (int k = 0; k < KEMET_PARTS; k++) {
            part[k] += X[i].part_secs[k];
            sum[k] += X[i].part_secs[k];
        }
        whole += X[i].secs;
    }
    for (int k = 0; k < KEMET_PARTS; k++)
        fprintf(o, " %.1f |", part[k]);
    fprintf(o, " %.1f | %s |\n", whole, last);
}

/* The appendix "Time": each part's seconds, of each ruleset and variant,
 * of the rule changes and of the headroom matches, and the wall time
 * (`earlier`: how many were measured by earlier runs). */
static void print_time(FILE *o, const rep_reading *R, int n,
                       const rep_reading *V, int nv, const rep_reading *C,
                       int nc, const rep_reading *H, int nh,
                       const rep_reading *K, int nk, const settings *st,
                       double secs, int threads, int earlier) {
    fprintf(o, "\n## Appendix: time\n\n%s\n\n| ruleset |",
            rank_count(st) > 1
                ? "Wall-clock seconds of each part (the parts played one "
                  "after another, each dealt over the processes)."
            : st->save
                ? "Seconds of each part: its games' time on their threads, "
                  "summed (each ruleset's parts are played together in two "
                  "pools dealt game by game over the threads, so a part has "
                  "no wall time of its own); the total wall time is given "
                  "above."
                : "Seconds of each part: its games' time on their threads, "
                  "summed (the parts of every ruleset are played together "
                  "in two pools dealt game by game over the threads, so a "
                  "part has no wall time of its own); the total wall time "
                  "is given above.");
    for (int k = 0; k < KEMET_PARTS; k++)
        fprintf(o, " %s |", kemet_part_name(k));
    fprintf(o, " all | exact endgame table |\n|---|");
    for (int k = 0; k < KEMET_PARTS; k++)
        fprintf(o, "---|");
    fprintf(o, "---|---|\n");
    double sum[KEMET_PARTS] = {0}, base = 0;
    for (int i = 0; i < n + nv; i++) {
        const rep_reading *x = i < n ? &R[i] : &V[i - n];
        if (i == n) { /* the rulesets named, then the variants */
            fprintf(o, "| **the %d ruleset%s** |", n, n == 1 ? "" : "s");
            for (int k = 0; k < KEMET_PARTS; k++)
                fprintf(o, " %.1f |", sum[k]);
            fprintf(o, " **%.1f** | |\n", base);
        }
        fprintf(o, "| %s |", x->f.id);
        for (int k = 0; k < KEMET_PARTS; k++) {
            fprintf(o, " %.1f |", x->part_secs[k]);
            sum[k] += x->part_secs[k];
        }
        fprintf(o, " %.1f |", x->secs);
        base += i < n ? x->secs : 0;
        if (x->f.table_pieces)
            fprintf(o, " %d pieces a side |\n", x->f.table_pieces);
        else
            fprintf(o, " none |\n");
    }
    if (nc > 0) { /* the rule changes, in one line */
        int nctl = 0;
        for (int i = 0; i < nc; i++)
            nctl += C[i].control;
        if (nctl)
            fprintf(o,
                    "| the %d rule changes and %d control%s (What each rule "
                    "does) |",
                    nc - nctl, nctl, nctl == 1 ? "" : "s");
        else
            fprintf(o, "| the %d rule changes (What each rule does) |", nc);
        time_cells(o, C, nc, sum, "none");
    }
    if (nh > 0) { /* the headroom studies, in one line */
        fprintf(o, "| the %d headroom matches (%s vs %s) |", nh, st->headroom,
                st->s.strong);
        time_cells(o, H, nh, sum, "as the ruleset's");
    }
    if (nk > 0) { /* the second seed, in one line */
        char as[48];
        snprintf(as, sizeof as, "as at seed %llu",
                 (unsigned long long)st->s.seed);
        fprintf(o, "| the %d readings at seed %llu (--check-seed) |", nk,
                (unsigned long long)st->check_seed);
        time_cells(o, K, nk, sum, as);
    }
    fprintf(o, "| **all** |");
    double all = 0;
    for (int k = 0; k < KEMET_PARTS; k++) {
        fprintf(o, " %.1f |", sum[k]);
        all += sum[k];
    }
    fprintf(o, " **%.1f** | |\n\n", rank_count(st) > 1 ? secs : all);
    if (rank_count(st) == 1 && earlier)
        fprintf(o,
                "The games took %.1f s of thread time, and %.1f s of wall "
                "time, the sum of each ruleset's own measurement: %d of "
                "them were measured by earlier runs, each on its own "
                "threads and alongside whatever else the machine ran then, "
                "so the two are not compared here.\n\n",
                all, secs, earlier);
    else if (rank_count(st) == 1 && secs > 0)
        fprintf(o,
                "The games took %.1f s of thread time in %.1f s of wall "
                "time on %d thread%s: %.0f%% of the threads' time (the "
                "rest went to the measures between the pools, to the "
                "threads waiting at a pool's end, and to other programs "
                "on the machine).\n\n",
                all, secs, threads, threads == 1 ? "" : "s",
                100 * all / (secs * threads));
    fprintf(o, "Where a ruleset has an exact endgame table (`kemet solve`), "
               "the chances, the luck and the search are exact in the "
               "positions it covers.\n\n");
}

static void print_md(FILE *o, rep_reading *R, int n, rep_reading *V, int nv,
                     rep_reading *C, int nc, const rep_reading *H, int nh,
                     const rep_reading *K, int nk, const settings *st,
                     const char *link, int argc, char **argv, double secs,
                     int threads, const seed_verdict *sv, int nsv) {
    fprintf(o, "# Which reconstruction makes the best game?\n\nGenerated by "
               "`kemet");
    for (int i = 0; i < argc; i++)
        fprintf(o, " %s", argv[i]);
    int earlier = 0;
    for (int i = 0; i < n + nv; i++)
        earlier += (i < n ? &R[i] : &V[i - n])->earlier;
    for (int i = 0; i < nc; i++)
        earlier += C[i].earlier;
    for (int i = 0; i < nh; i++)
        earlier += H[i].earlier;
    for (int i = 0; i < nk; i++)
        earlier += K[i].earlier;
    for (int k = 0; k < nh; k++) /* the skill figures shown as bounds */
        R[H[k].headroom_of - 1].bound = shown_better(&H[k].f.head);
    fprintf(o,
            "` in %.0f s of wall time on %d thread%s and %d process%s%s; do "
            "not edit by hand. Seed %llu. Figures in brackets are 95%% "
            "intervals.\n\n",
            secs, threads, threads == 1 ? "" : "s", rank_count(st),
            rank_count(st) == 1 ? "" : "es",
            st->save ? ", each ruleset measured alone (`--save`)" : "",
            (unsigned long long)st->s.seed);
    if (earlier)
        fprintf(o,
                "%d of the %d %s were measured by earlier runs of the "
                "same command and read back from their kept measurements "
                "(`--save`, docs/cluster.md); the time above includes "
                "theirs.\n\n",
                earlier, n + nv + nc + nh + nk,
                nc || nh || nk ? "measurements (of rulesets, variants, rule "
                                 "changes, their controls, headroom and the "
                                 "second seed)"
                               : "rulesets");
    print_abstract(o, R, n, V, nv, st); /* (judged by cmd_analyze) */
    print_readings(o, R, n, nv);        /* V: R + n */
    print_glossary(o, st);
    print_method(o, st);
    print_verdict(o, R, n, sv, nsv, st);

    fprintf(o, "## Outcomes and balance\n\n| ruleset | P1 score, strong, "
               "luck-adjusted | AdvantageP1 %%, strong | AdvantageP1 %%, weak "
               "| Drawishness %%, strong | Completion %%, strong |\n"
               "|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        fprintf(o, "| %s |", R[i].f.id);
        md_stat(o, &R[i].f.strong.p1_adjusted, 1, 4);
        md_stat(o, &R[i].f.strong.analysis.advantage_p1, 100, 1);
        md_stat(o, &R[i].f.weak.analysis.advantage_p1, 100, 1);
        md_stat(o, &R[i].f.strong.analysis.drawishness, 100, 1);
        md_stat(o, &R[i].f.strong.analysis.completion, 100, 1);
        fputc('\n', o);
    }
    md_plot(o, link, "advantage.svg",
            "Does the first player win more often? Player 1's score per "
            "ruleset");

    fprintf(o,
            "\n## Length\n\n| ruleset | median turns, strong | "
            "DurationTurns, strong | sd (turns) | median turns, weak | moves "
            "(plies), strong |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const kemet_analysis *a = &R[i].f.strong.analysis;
        fprintf(o, "| %s | ", R[i].f.id);
        put_figure(o, KEMET_CRIT_LENGTH, &R[i].f.strong.median);
        fprintf(o, " |");
        md_stat(o, &a->duration_turns, 1, 1);
        fprintf(o, " %.1f | ", a->sd_turns);
        put_figure(o, KEMET_CRIT_LENGTH, &R[i].f.weak.median);
        fprintf(o, " |");
        md_stat(o, &a->duration_moves, 1, 1);
        fputc('\n', o);
    }
    md_plot(o, link, "lengths.svg",
            "How long is a game? Length in turns under strong play");

    fprintf(o, "\n## Choices\n\n| ruleset | lost throws %% | forced moves %% "
               "| real decisions a game | choices at a real decision | "
               "BranchingFactor | BoardCoverage |\n"
               "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const kemet_analysis *a = &R[i].f.strong.analysis;
        fprintf(o, "| %s |", R[i].f.id);
        md_stat(o, &a->lost_throws, 100, 1);
        md_stat(o, &a->forced_moves, 100, 1);
        fprintf(o, " %.1f |", R[i].f.strong.decisions);
        md_stat(o, &a->choices, 1, 2);
        md_stat(o, &a->branching_factor, 1, 2);
        fprintf(o, " %.2f |\n", R[i].f.strong.coverage);
    }
    fprintf(o, "\nUnder strong play; shares are of all throws.\n");
    if (link) {
        fprintf(o, "\nWhere do the pieces land? Arrivals a game on each hole "
                   "under strong play, darker more often:\n");
        for (int i = 0; i < n; i++)
            fprintf(o, "\n![Where pieces land in %s](%s/land-%s.svg)\n",
                    R[i].f.id, link, R[i].f.id);
    }

    fprintf(o, "\n## Tension\n\n| ruleset | LeadChange, strong | Drama, "
               "strong | DecisivenessThreshold, strong | LeadChange, weak "
               "|\n|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const kemet_analysis *a = &R[i].f.strong.analysis;
        fprintf(o, "| %s |", R[i].f.id);
        md_unit(o, &a->lead_change);
        md_unit(o, &a->drama);
        md_unit(o, &a->decisiveness_threshold);
        md_unit(o, &R[i].f.weak.analysis.lead_change);
        fputc('\n', o);
    }
    md_plot(o, link, "chances.svg",
            "How does a game swing? Player 1's chance through sample games "
            "of strong play");

    fprintf(o, "\n## Skill\n\n### The ladder\n\nEach cell: the upper "
               "agent's luck-adjusted score against the agent before it, "
               "its interval and the games played.\n\n| ruleset |");
    for (int k = 0; k < R[0].f.nsteps; k++)
        fprintf(o, " %s vs %s |", R[0].f.ladder[k].upper,
                R[0].f.ladder[k].lower);
    fprintf(o, "\n|---|");
    for (int k = 0; k < R[0].f.nsteps; k++)
        fprintf(o, "---|");
    fputc('\n', o);
    for (int i = 0; i < n; i++) {
        fprintf(o, "| %s |", R[i].f.id);
        for (int k = 0; k < R[i].f.nsteps; k++) {
            const kemet_match_figures *s = &R[i].f.ladder[k];
            fprintf(o, " %s%.3f (%.3f–%.3f), %ld |",
                    s->contradiction ? "**!** " : "", held(&s->stats.adj),
                    s->stats.adj.lo, s->stats.adj.hi, s->games);
        }
        fputc('\n', o);
    }
    /* The strong agent's budget: what the step above it gains. */
    for (int k = 0; k < R[0].f.nsteps; k++) {
        if (strcmp(R[0].f.ladder[k].lower, st->s.strong) != 0)
            continue;
        int above = 0, same = 0;
        for (int i = 0; i < n; i++) {
            above += R[i].f.ladder[k].stats.adj.lo > 0.5;
            same += R[i].f.ladder[k].stats.adj.lo <= 0.5;
        }
        fprintf(o,
                "\nThe strong agent of the self-play, %s, stands where the "
                "step above it (%s, with four times the budget or more) "
                "gains nothing measurable in %d of %d rulesets",
                st->s.strong, R[0].f.ladder[k].upper, same, n);
        if (above) {
            fprintf(o, "; it gains in");
            for (int i = 0, first = 1; i < n; i++)
                if (R[i].f.ladder[k].stats.adj.lo > 0.5) {
                    fprintf(o, "%s %s (%.3f)", first ? "" : ",", R[i].f.id,
                            R[i].f.ladder[k].stats.adj.score);
                    first = 0;
                }
            fprintf(o, ", where strong play would be stronger still");
        }
        fprintf(o, ". The full-strength ladder (`--ladder "
                   "random,greedy,expectimax:2k,expectimax,best,best:400k`) "
                   "measures the same at many times the time.\n");
    }
    md_plot(o, link, "ladder.svg",
            "Does more thinking win more? Each ladder step's luck-adjusted "
            "score");
    bool any = false;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < R[i].f.nsteps; k++)
            any |= say_contradiction(o, R[i].f.id, &R[i].f.ladder[k], any);
        any |= say_contradiction(o, R[i].f.id, &R[i].f.head, any);
    }
    if (!any)
        fprintf(o, "\nNo step goes the wrong way: no stronger agent scores "
                   "below one half beyond its interval.\n");
    /* steps whose two agents made the same choice in every game */
    int alike = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < R[i].f.nsteps; k++) {
            const kemet_estimate *e = &R[i].f.ladder[k].stats.adj;
            if (e->hi - e->lo > 1e-9 || fabs(e->score - 0.5) > 1e-9)
                continue;
            fprintf(o, "%s %s (%s vs %s)",
                    alike++ ? ","
                            : "\nThe upper agent chose as the lower "
                              "one in every game of",
                    R[i].f.id, R[i].f.ladder[k].upper, R[i].f.ladder[k].lower);
        }
    if (alike)
        fprintf(o, ": the same moves, so one half with no spread. There the "
                   "larger budget changes nothing: the exact endgame table "
                   "decides, or a turn offers so many moves for so many "
                   "throws that the search does not look past the first "
                   "move.\n");

    fprintf(o,
            "\n### Luck and skill\n\n| ruleset | %s vs %s, luck-adjusted | "
            "raw score | luck share | games to lead | SkillTrace | "
            "kemet's trace |\n"
            "|---|---|---|---|---|---|---|\n",
            st->s.strong, st->s.weak[0]);
    for (int i = 0; i < n; i++) {
        const kemet_match_figures *h = &R[i].f.head;
        fprintf(o, "| %s |", R[i].f.id);
        md_est(o, &h->stats.adj);
        fprintf(o, " %.3f (%.3f–%.3f) |", h->stats.score, h->stats.score_lo,
                h->stats.score_hi);
        md_unit(o, &h->luck_share);
        if (!shown_better(&R[i].f.head))
            fprintf(o, " — |");
        else
            fprintf(o, " %.0f |", R[i].f.games_to_lead);
        if (isnan(R[i].f.skill_trace))
            fprintf(o, " — |");
        else
            fprintf(o, " %.3f |", R[i].f.skill_trace);
        if (isnan(R[i].f.skill_trace_adj))
            fprintf(o, " — |\n");
        else
            fprintf(o, " %.3f |\n", R[i].f.skill_trace_adj);
    }
    fprintf(o,
            "\nSkillTrace is Ludii's, %ld games a match; kemet's trace, the "
            "same games luck-adjusted.\n\nIn words (the terms: "
            "*Glossary*):\n\n",
            st->s.trace_games);
    for (int i = 0; i < n; i++) {
        const kemet_match_figures *h = &R[i].f.head;
        fprintf(o, "- **");
        put_name(o, &R[i]);
        fprintf(o, "**: the luck share is about %.0f%%; ",
                100 * h->luck_share.value);
        if (!shown_better(h))
            fprintf(o,
                    "%s is not shown to be better than %s: it scores "
                    "%.3f (%.3f–%.3f), luck-adjusted.\n",
                    h->upper, h->lower, h->stats.adj.score,
                    fmax(0, h->stats.adj.lo), fmin(1, h->stats.adj.hi));
        else
            fprintf(o,
                    "%s scores %.3f (%.3f–%.3f) against %s, "
                    "luck-adjusted: its skill is about %.2f, and it needs "
                    "about %.0f game%s to lead.\n",
                    h->upper, h->stats.adj.score, h->stats.adj.lo,
                    fmin(1, h->stats.adj.hi), h->lower,
                    edge_of(h->stats.adj.score), R[i].f.games_to_lead,
                    R[i].f.games_to_lead == 1 ? "" : "s");
    }
    for (int i = 0; i < n; i++)
        raced_skill(o, &R[i], st);
    print_headroom(o, R, n, H, nh, st);
    bool tabled = false;
    for (int i = 0; i < n; i++)
        tabled |= !isnan(R[i].f.strong.table_decisions);
    if (tabled) {
        fprintf(o,
                "\n### Perfect play where an exact table reaches\n\nIn the "
                "positions an exact endgame table covers, every move's value "
                "is known. %s reads the table there (its search ends a line "
                "at the table's value, and every move from such a position "
                "leads to one the table values or ends the game), so in "
                "these positions it plays perfectly by construction and "
                "gives away nothing. What is measured here is what play "
                "without the table would give away: at each real decision "
                "of the strong self-play in the table's phase, the move the "
                "linear evaluation alone would choose (one move ahead, as "
                "greedy@plain) against the best.\n\n| ruleset | table | "
                "decisions a game in its "
                "phase | the linear evaluation's wrong choices | win chance "
                "it gives away a game, both sides |\n|---|---|---|---|---|\n",
                st->s.strong);
        for (int i = 0; i < n; i++) {
            const kemet_selfplay_figures *S = &R[i].f.strong;
            if (isnan(S->table_decisions))
                continue;
            fprintf(o, "| %s | %d pieces a side | %.2f |", R[i].f.id,
                    R[i].f.table_pieces, S->table_decisions);
            if (isnan(S->linear_errors))
                fprintf(o, " — | — |\n");
            else
                fprintf(o, " %.1f%% | %.2f%% |\n", 100 * S->linear_errors,
                        100 * S->linear_loss);
        }
    }

    fprintf(o, "\nSkillTrace's matches (budgets in positions): in each "
               "cell Ludii's y, the stronger agent's mean utility (win 1, "
               "draw 0, loss −1), then kemet's, the same games' utility "
               "with the throws' luck taken out, with its 95%% "
               "interval; the first matches, then the rest:\n");
    for (int half = 0; half < 2; half++) {
        int k0 = half ? KEMET_STUDY_TRACE / 2 : 0,
            k1 = half ? KEMET_STUDY_TRACE : KEMET_STUDY_TRACE / 2;
        fprintf(o, "\n| ruleset |");
        for (int k = k0; k < k1; k++)
            fprintf(o, " %ld vs %ld |", st->s.trace_base << (k + 1),
                    st->s.trace_base << k);
        fprintf(o, "\n|---|");
        for (int k = k0; k < k1; k++)
            fprintf(o, "---|");
        fputc('\n', o);
        for (int i = 0; i < n; i++) {
            fprintf(o, "| %s |", R[i].f.id);
            for (int k = k0; k < k1; k++) {
                const kemet_stat *a = &R[i].f.trace_adj[k];
                fprintf(o, " %+.2f; %+.2f (%+.2f–%+.2f) |", R[i].f.trace_y[k],
                        a->value, a->lo, a->hi);
            }
            fputc('\n', o);
        }
    }

    fprintf(o,
            "\n## Degeneracy\n\nEach simple strategy's luck-adjusted score "
            "against %s (one half: as good as search).\n\n| ruleset |",
            st->s.strong);
    for (int k = 0; k < KEMET_STUDY_PROBES; k++)
        fprintf(o, " %s |", probe_name[k]);
    fprintf(o, " flags |\n|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        fprintf(o, "| %s |", R[i].f.id);
        for (int k = 0; k < KEMET_STUDY_PROBES; k++)
            md_est(o, &R[i].f.probe[k].stats.adj);
        fprintf(o, " ");
        put_flags(o, R[i].flags);
        fprintf(o, " |\n");
    }
    bool flagged = false;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < KEMET_CRITERIA; c++)
            if (R[i].flags >> c & 1) {
                if (!flagged)
                    fprintf(o, "\nWhat each flag rests on:\n\n");
                flagged = true;
                fprintf(o, "- ");
                put_name(o, &R[i]);
                fprintf(o, ", on %s: ", kemet_criterion_info(c)->name);
                flag_detail(o, c, &R[i].vm[0].c[c]);
                fprintf(o, ".\n");
            }
    fprintf(o, "\nThe games each figure took and the precision it reached "
               "are in *Appendix: precision reached*.\n");

    print_boards(o, R, n, V, nv, K, nk, st);

    if (nv > 0) {
        fprintf(o, "\n## Options and variants\n\nEach variant measured as "
                   "its own game, the same way, but for the skill ladder and "
                   "SkillTrace, which these tables do not show (name a "
                   "variant as a ruleset to have them): the base rulesets "
                   "first, then the variants; the outcome, the length and the "
                   "flags in one table, the luck and the skill in another. *No "
                   "choice %%*: the throws that leave no choice, lost or "
                   "forced, as a share of all throws.\n");
        for (int tab = 0; tab < 2; tab++) {
            if (tab == 0)
                fprintf(o, "\n| ruleset | P1 score, luck-adjusted | median "
                           "turns | no choice %% | flags |\n"
                           "|---|---|---|---|---|\n");
            else
                fprintf(o,
                        "\n| ruleset | luck share | LeadChange | %s vs %s "
                        "|\n|---|---|---|---|\n",
                        st->s.strong, st->s.weak[0]);
            for (int pass = 0; pass < 2; pass++)
                for (int i = 0; i < (pass ? nv : n); i++) {
                    const rep_reading *x = pass ? &V[i] : &R[i];
                    /* the groups: the Senets (with and without the
                     * rethrow) and every base of a variant */
                    bool show = pass == 1 || strncmp(x->f.id, "senet-", 6) == 0;
                    for (int k = 0; !pass && k < nv && !show; k++)
                        show = strcmp(V[k].base, x->f.id) == 0;
                    if (!show)
                        continue;
                    const kemet_selfplay_figures *S = &x->f.strong;
                    fprintf(o, "| %s |", x->f.id);
                    if (tab == 0) {
                        md_stat(o, &S->p1_adjusted, 1, 3);
                        fprintf(o, " ");
                        put_figure(o, KEMET_CRIT_LENGTH, &S->median);
                        fprintf(o, " | %.0f | ",
                                100 * (S->analysis.forced_moves.value +
                                       S->analysis.lost_throws.value));
                        put_flags(o, x->flags);
                        fprintf(o, " |\n");
                    } else {
                        md_unit(o, &x->f.head.luck_share);
                        md_unit(o, &S->analysis.lead_change);
                        md_est(o, &x->f.head.stats.adj);
                        fprintf(o, "\n");
                    }
                }
        }
        bool kendall = false, robinson = false;
        for (int i = 0; i < n; i++) {
            kendall |= strcmp(R[i].f.id, "senet-kendall") == 0;
            robinson |= strcmp(R[i].f.id, "senet-robinson") == 0;
        }
        if (kendall && robinson)
            fprintf(o, "\nsenet-kendall and senet-robinson are Senet without "
                       "and with Robinson's rethrow.\n");
    }
    print_changes(o, R, n, C, nc, st);
    print_ludii(o, st->ludii, st->nludii);
    fprintf(o, "\nThe time each part took is in *Appendix: time*.\n\n");
    print_limits(o, R, n, st);
    print_references(o, R, n);
    print_time(o, R, n, V, nv, C, nc, H, nh, K, nk, st, secs, threads, earlier);
    print_precision(o, R, n, st);
}

static void csv_stat(FILE *o, const kemet_stat *s) {
    fprintf(o, ",%.6g,%.6g,%.6g", s->value, s->lo, s->hi);
}

static void print_csv(FILE *o, const rep_reading *R, int n) {
    fprintf(o, "ruleset,games,median_turns,AdvantageP1Adjusted,lo,hi,"
               "AdvantageP1,lo,hi,DurationTurns,lo,hi,LostThrows,lo,hi,"
               "ForcedMoves,lo,hi,LeadChange,lo,hi,Drama,lo,hi,"
               "DecisivenessThreshold,lo,hi,BoardCoverage,LuckShare,"
               "GamesToLead,SkillTrace,StrongVsWeak,lo,hi\n");
    for (int i = 0; i < n; i++) {
        const kemet_selfplay_figures *S = &R[i].f.strong;
        fprintf(o, "%s,%ld,%.6g", R[i].f.id, S->games,
                S->analysis.median_turns);
        csv_stat(o, &S->p1_adjusted);
        csv_stat(o, &S->analysis.advantage_p1);
        csv_stat(o, &S->analysis.duration_turns);
        csv_stat(o, &S->analysis.lost_throws);
        csv_stat(o, &S->analysis.forced_moves);
        csv_stat(o, &S->analysis.lead_change);
        csv_stat(o, &S->analysis.drama);
        csv_stat(o, &S->analysis.decisiveness_threshold);
        fprintf(o, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", S->coverage,
                R[i].f.head.luck_share.value, R[i].f.games_to_lead,
                R[i].f.skill_trace, R[i].f.head.stats.adj.score,
                R[i].f.head.stats.adj.lo, R[i].f.head.stats.adj.hi);
    }
}

/* ------------------------------------------------------------------------
 * Plots: plain SVG, each with its question as its title.
 * --------------------------------------------------------------------- */
static FILE *svg_open(const char *dir, const char *name, int w, int h,
                      const char *title) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_fail("cannot write %s", path);
        return NULL;
    }
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n<title>%s</title>\n<rect width=\"%d\" "
            "height=\"%d\" fill=\"#fbf7ee\"/>\n<text x=\"10\" y=\"20\" "
            "font-size=\"15\" font-weight=\"bold\">%s</text>\n",
            w, h, w, h, title, w, h, title);
    return f;
}

static int svg_close(FILE *f) {
    fputs("</svg>\n", f);
    return fclose(f) == 0 ? 0 : cli_fail("writing a plot failed");
}

/* Game lengths under strong play: one histogram row per ruleset. */
static int plot_lengths(const char *dir, const rep_reading *R, int n) {
    int rowh = 60, w = 760, h = 40 + n * rowh + 10;
    FILE *f = svg_open(dir, "lengths.svg", w, h,
                       "How long is a game? Turns under strong play");
    if (!f)
        return EXIT_BAD;
    for (int i = 0; i < n; i++) {
        const kemet_selfplay_figures *S = &R[i].f.strong;
        int y0 = 40 + i * rowh;
        long top = 1;
        for (int b = 0; b < KEMET_STUDY_BINS; b++)
            top = S->hist[b] > top ? S->hist[b] : top;
        fprintf(f, "<text x=\"10\" y=\"%d\">%s</text>\n", y0 + 28, R[i].f.id);
        for (int b = 0; b < KEMET_STUDY_BINS; b++) {
            double bh = 44.0 * (double)S->hist[b] / (double)top;
            fprintf(f,
                    "<rect x=\"%d\" y=\"%.1f\" width=\"20\" height=\"%.1f\" "
                    "fill=\"#8a5a2b\"><title>%.0f-%.0f turns: %ld "
                    "games</title></rect>\n",
                    250 + b * 22, y0 + 48 - bh, bh, b * S->bin,
                    (b + 1) * S->bin - 1, S->hist[b]);
        }
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" fill=\"#555\">0 to %.0f turns; "
                "median %.0f (weak play: %.0f)</text>\n",
                250, y0 + 60, KEMET_STUDY_BINS * S->bin,
                S->analysis.median_turns, R[i].f.weak.analysis.median_turns);
    }
    return svg_close(f);
}

/* One dot with its interval per series and ruleset, on a 0-1 axis with a
 * mark at one half. get(R, s, &stat) gives series s of a ruleset. */
typedef kemet_stat (*series_fn)(const rep_reading *R, int s);

static kemet_stat adv_series(const rep_reading *R, int s) {
    return s == 0 ? R->f.strong.p1_adjusted : R->f.weak.analysis.advantage_p1;
}

static int plot_dots(const char *dir, const char *name, const char *title,
                     const rep_reading *R, int n, int series,
                     const char *const *labels, series_fn get, double lo,
                     double hi) {
    int rows = (series + 2) / 3, top = 55 + 16 * rows;
    int rowh = 18 * series + 10, w = 860, h = top + 15 + n * rowh + 20;
    FILE *f = svg_open(dir, name, w, h, title);
    if (!f)
        return EXIT_BAD;
    int x0 = 250, x1 = 700;
#define XPOS(v)                                                                \
    (x0 + (x1 - x0) * (((v) < lo ? lo : (v) > hi ? hi : (v)) - lo) / (hi - lo))
    for (int t = 0; t <= 4; t++) {
        double v = lo + (hi - lo) * t / 4;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                "stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%d\" "
                "text-anchor=\"middle\">%.2f</text>\n",
                XPOS(v), top, XPOS(v), h - 15, XPOS(v), top - 5, v);
    }
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
            "stroke=\"#b03030\" stroke-dasharray=\"4 3\"/>\n",
            XPOS(0.5), top, XPOS(0.5), h - 15);
    static const char *const colour[] = {"#2b5d8a", "#8a5a2b", "#3a7a3a",
                                         "#7a3a7a", "#a06000", "#444"};
    for (int s = 0; s < series; s++)
        fprintf(f,
                "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text "
                "x=\"%d\" y=\"%d\">%s</text>\n",
                20 + 210 * (s % 3), 33 + 16 * (s / 3), colour[s % 6],
                28 + 210 * (s % 3), 37 + 16 * (s / 3), labels[s]);
    for (int i = 0; i < n; i++) {
        int y0 = top + 10 + i * rowh;
        fprintf(f, "<text x=\"10\" y=\"%d\">%s</text>\n", y0 + 12, R[i].f.id);
        for (int s = 0; s < series; s++) {
            kemet_stat st = get(&R[i], s);
            if (isnan(st.value))
                continue;
            double y = y0 + 8 + 18 * s;
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                    "stroke=\"%s\" stroke-width=\"2\"/><circle cx=\"%.1f\" "
                    "cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s, %s: %.3f "
                    "(%.3f-%.3f)</title></circle><text x=\"%d\" y=\"%.1f\" "
                    "fill=\"%s\" font-size=\"10\">%.3f</text>\n",
                    XPOS(st.lo), y, XPOS(st.hi), y, colour[s % 6],
                    XPOS(st.value), y, colour[s % 6], R[i].f.id, labels[s],
                    st.value, st.lo, st.hi, x1 + 10, y + 4, colour[s % 6],
                    st.value);
        }
    }
#undef XPOS
    return svg_close(f);
}

static kemet_stat ladder_series(const rep_reading *R, int s) {
    const kemet_estimate *e = &R->f.ladder[s].stats.adj;
    return (kemet_stat){e->score, e->lo, e->hi};
}

/* Player 1's chance through the sample games: one small panel each. */
static int plot_chances(const char *dir, const rep_reading *R, int n) {
    int cols = 2, pw = 400, ph = 110, rows = (n + cols - 1) / cols;
    int w = cols * pw + 20, h = 40 + rows * (ph + 30);
    FILE *f = svg_open(dir, "chances.svg", w, h,
                       "How does a game swing? Player 1's chance, ply by "
                       "ply, in three games of strong play");
    if (!f)
        return EXIT_BAD;
    static const char *const colour[] = {"#2b5d8a", "#8a5a2b", "#3a7a3a"};
    for (int i = 0; i < n; i++) {
        const kemet_selfplay_figures *S = &R[i].f.strong;
        double x0 = 10 + (i % cols) * pw, y0 = 50 + (i / cols) * (ph + 30);
        fprintf(f,
                "<text x=\"%.0f\" y=\"%.0f\">%s</text><rect x=\"%.0f\" "
                "y=\"%.0f\" width=\"%d\" height=\"%d\" fill=\"none\" "
                "stroke=\"#bbb\"/><line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" "
                "y2=\"%.0f\" stroke=\"#ddd\"/>\n",
                x0, y0 - 4, R[i].f.id, x0, y0, pw - 30, ph, x0, y0 + ph / 2.0,
                x0 + pw - 30, y0 + ph / 2.0);
        int longest = 1;
        for (int k = 0; k < S->nsample; k++)
            longest = S->sample_n[k] > longest ? S->sample_n[k] : longest;
        for (int k = 0; k < S->nsample; k++) {
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" points=\"",
                    colour[k]);
            for (int j = 0; j < S->sample_n[k]; j++)
                fprintf(f, "%.1f,%.1f ", x0 + (pw - 30) * (double)j / longest,
                        y0 + ph * (1 - S->sample[k][j]));
            fprintf(f, "\"><title>game %d: player %d won</title></polyline>\n",
                    k + 1, S->sample_result[k]);
        }
    }
    return svg_close(f);
}

/* The board as kemet_art draws it, each hole shaded by the arrivals on it
 * a game under strong play. */
static int plot_land(const char *dir, const rep_reading *R) {
    const kemet_board_art *A = &R->art;
    double scale = 560.0 / (A->w > A->h ? A->w : A->h);
    int w = (int)(A->w * scale) + 40, h = (int)(A->h * scale) + 80;
    char name[160], title[200];
    snprintf(name, sizeof name, "land-%s.svg", R->f.id);
    snprintf(title, sizeof title, "Where do pieces land in %s?", R->f.id);
    FILE *f = svg_open(dir, name, w, h, title);
    if (!f)
        return EXIT_BAD;
    double top = 0;
    for (int k = 0; k < A->nholes; k++) {
        int c = A->hole[k].cell;
        if (c > 0 && c < KEMET_STUDY_CELLS && R->f.strong.land[c] > top)
            top = R->f.strong.land[c];
    }
    fprintf(f, "<g transform=\"translate(20 40) scale(%.4f)\">\n", scale);
    for (int k = 0; k < A->nlinks; k++) {
        const kemet_art_link *L = &A->link[k];
        const kemet_hole_art *a = NULL, *b = NULL;
        for (int j = 0; j < A->nholes; j++) {
            if (A->hole[j].cell == L->from)
                a = &A->hole[j];
            if (A->hole[j].cell == L->to)
                b = &A->hole[j];
        }
        if (a && b)
            fprintf(f,
                    "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                    "stroke=\"%s\" stroke-width=\"%.2f\"/>\n",
                    a->x, a->y, b->x, b->y,
                    L->kind == KEMET_ART_RIVER ? "#4a7ab0" : "#777",
                    a->r * 0.2);
    }
    for (int k = 0; k < A->nholes; k++) {
        const kemet_hole_art *H = &A->hole[k];
        double v = H->cell > 0 && H->cell < KEMET_STUDY_CELLS
                       ? R->f.strong.land[H->cell]
                       : 0;
        double t = top > 0 ? v / top : 0;
        int red = (int)(251 - t * (251 - 120)), green = (int)(247 - t * 200),
            blue = (int)(238 - t * 200);
        if (H->shape == KEMET_ART_SQUARE)
            fprintf(f,
                    "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                    "height=\"%.2f\" ",
                    H->x - H->r, H->y - H->r, 2 * H->r, 2 * H->r);
        else
            fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" ", H->x,
                    H->y, H->r);
        fprintf(f,
                "fill=\"rgb(%d,%d,%d)\" stroke=\"#555\" "
                "stroke-width=\"%.2f\"><title>hole %s: %.2f arrivals a "
                "game</title></%s>\n",
                red, green, blue, H->r * 0.08, H->label, v,
                H->shape == KEMET_ART_SQUARE ? "rect" : "circle");
    }
    fprintf(f,
            "</g>\n<text x=\"20\" y=\"%d\" fill=\"#555\">Darkest: %.2f "
            "arrivals a game. BoardCoverage %.2f.</text>\n",
            h - 12, top, R->f.strong.coverage);
    return svg_close(f);
}

/* The plot folder is made (or found) before any game is played, so that a
 * bad --plots fails at once. */
static int make_folder(const char *dir, const char *what) {
    struct stat st;
    if (mkdir(dir, 0777) != 0 &&
        (errno != EEXIST || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        return cli_fail("cannot create the %s folder %.200s", what, dir);
    return 0;
}

static int write_plots(const char *dir, const rep_reading *R, int n) {
    static const char *const adv[] = {"strong, luck-adjusted", "weak, raw"};
    const char *steps[KEMET_STUDY_RUNGS];
    char names[KEMET_STUDY_RUNGS][100];
    for (int k = 0; k < R[0].f.nsteps; k++) {
        snprintf(names[k], sizeof names[k], "%s vs %s", R[0].f.ladder[k].upper,
                 R[0].f.ladder[k].lower);
        steps[k] = names[k];
    }
    if (plot_lengths(dir, R, n) ||
        plot_dots(dir, "advantage.svg",
                  "Does the first player win more often? Player 1's score", R,
                  n, 2, adv, adv_series, 0.3, 0.7) ||
        plot_dots(dir, "ladder.svg",
                  "Does more thinking win more? Each ladder step's "
                  "luck-adjusted score",
                  R, n, R[0].f.nsteps, steps, ladder_series, 0.2, 1.0) ||
        plot_chances(dir, R, n))
        return EXIT_BAD;
    for (int i = 0; i < n; i++)
        if (plot_land(dir, &R[i]))
            return EXIT_BAD;
    return 0;
}

/* The plot folder as a link from the report's folder: both paths are
 * split into names, their common start dropped, and each remaining name
 * of the report's folder climbed with "..". Paths of different kinds (one
 * absolute) or with ".." in the report's folder are linked as given. */
static void plot_link(const char *report, const char *plots, char *buf,
                      size_t size) {
    snprintf(buf, size, "%s", plots);
    if (!report || (report[0] == '/') != (plots[0] == '/'))
        return;
    char a[4096], b[4096];
    const char *ra[256], *pb[256];
    int na = 0, nb = 0;
    snprintf(a, sizeof a, "%s", report);
    snprintf(b, sizeof b, "%s", plots);
    for (char *t = strtok(a, "/"); t && na < 256; t = strtok(NULL, "/"))
        if (strcmp(t, ".") != 0)
            ra[na++] = t;
    na--; /* the report's own name */
    for (char *t = strtok(b, "/"); t && nb < 256; t = strtok(NULL, "/"))
        if (strcmp(t, ".") != 0)
            pb[nb++] = t;
    for (int i = 0; i < na; i++)
        if (strcmp(ra[i], "..") == 0)
            return;
    int k = 0;
    while (k < na && k < nb && strcmp(ra[k], pb[k]) == 0)
        k++;
    size_t len = 0;
    buf[0] = '\0';
    for (int i = k; i < na && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "../");
    for (int i = k; i < nb && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", pb[i],
                                i + 1 < nb ? "/" : "");
    if (len == 0)
        snprintf(buf, size, ".");
    else if (len < size && buf[len - 1] == '/')
        buf[len - 1] = '\0';
}

/* ------------------------------------------------------------------------
 * The command
 * --------------------------------------------------------------------- */

/* Splits a comma-separated list into buf's pieces; the count, or -1 when
 * there are more than `most` or an empty one. */
static int split_list(const char *text, char *buf, size_t size,
                      const char **out, int most) {
    if (strlen(text) >= size)
        return -1;
    snprintf(buf, size, "%s", text);
    int n = 0;
    for (char *p = buf;;) {
        char *c = strchr(p, ',');
        if (c)
            *c = '\0';
        if (!*p || n == most)
            return -1;
        out[n++] = p;
        if (!c)
            return n;
        p = c + 1;
    }
}

/* Expands --sweep RULESET:KEY=LO..HI into specs[]; the count, or -1
 * after a message. */
static int expand_sweep(const char *sweep, char specs[][96], int room) {
    const char *colon = strchr(sweep, ':'), *eq = strchr(sweep, '=');
    const char *dots = eq ? strstr(eq, "..") : NULL;
    char *end1, *end2;
    long lo = dots ? strtol(eq + 1, &end1, 10) : 0;
    long hi = dots ? strtol(dots + 2, &end2, 10) : 0;
    if (!colon || !eq || !dots || eq < colon || end1 != dots || *end2 ||
        dots == eq + 1 || !dots[2] || lo > hi || hi - lo >= room ||
        colon - sweep > 60 || eq - colon > 30) {
        cli_fail("analyze: --sweep is RULESET:KEY=LO..HI (e.g. "
                 "lions-jackals:solid=2..4), at most %d values",
                 room);
        return -1;
    }
    int n = 0;
    for (long v = lo; v <= hi; v++)
        snprintf(specs[n++], 96, "%.*s=%ld", (int)(eq - sweep), sweep, v);
    return n;
}

/* Expands --options ITEM,ITEM,... (ITEM: RULESET, or RULESET:KEY/KEY...)
 * into specs[] after `n` already there: for each item every combination
 * of the values of its options (those named, else all it takes) but the
 * all-default one. The count in all, or -1 after a message. */
static int expand_options(const char *list, char specs[][96], int n, int room) {
    char buf[512];
    if (strlen(list) >= sizeof buf) {
        cli_fail("analyze: --options: the list is too long");
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *keys = strchr(item, ':');
        if (keys)
            *keys++ = 0;
        kemet_rules *r = cli_rules(item, NULL);
        if (!r)
            return -1;
        int no = kemet_rules_option_count(r), use[8], nu = 0, size[8];
        for (int i = 0; i < no && i < 8; i++) {
            bool named = !keys;
            const char *key = kemet_rules_option(r, i, &size[nu], NULL);
            for (char *k = keys; k && *k && !named;) {
                size_t len = strcspn(k, "/");
                named = strlen(key) == len && strncmp(k, key, len) == 0;
                k += len + (k[len] == '/');
            }
            if (named)
                use[nu++] = i;
        }
        long combos = 1;
        for (int i = 0; i < nu; i++)
            combos *= size[i];
        if (nu == 0 || combos - 1 > room - n) {
            kemet_rules_close(r);
            cli_fail("analyze: --options %s%s%s: %s", item, keys ? ":" : "",
                     keys ? keys : "",
                     nu == 0 ? "no such option (ITEM is RULESET or "
                               "RULESET:KEY/KEY)"
                             : "too many combinations");
            return -1;
        }
        for (long c = 1; c < combos; c++) {
            int len = snprintf(specs[n], 96, "%s:", item);
            long rest = c;
            for (int i = nu - 1; i >= 0; i--) {
                int k = (int)(rest % size[i]), def;
                rest /= size[i];
                char v[24];
                const char *key = kemet_rules_option(r, use[i], NULL, &def);
                kemet_rules_option_value(r, use[i], (k + def) % size[i], v,
                                         sizeof v);
                len += snprintf(specs[n] + len, (size_t)(96 - len), "%s%s=%s",
                                specs[n][len - 1] == ':' ? "" : ",", key, v);
            }
            n++;
        }
        kemet_rules_close(r);
    }
    return n;
}

/* The verdict of the n rulesets K measured again at the second seed
 * (--check-seed) into sv[0]: 1. */
static int check_verdict(const settings *st, rep_reading *K, int n,
                         seed_verdict *sv) {
    sv->seed = st->check_seed;
    judge(K, n, 0, sv->ord);
    for (int i = 0; i < n; i++) {
        sv->tier[i] = K[i].vj[0].tier;
        sv->flags[i] = K[i].flags;
    }
    return 1;
}

/* The seeds other than this run's and its second seed at which the
 * --save folder holds the measurement of every one of the n rulesets R
 * under the same settings (heads[i]: R[i]'s opening lines at this seed),
 * each judged into sv: up to `room` of them, the lowest first. A damaged
 * file is reported and its seed left out. */
static int other_seeds(const settings *st, char (*heads)[KEPT_HEAD],
                       const rep_reading *R, int n, seed_verdict *sv,
                       int room) {
    uint64_t seeds[64];
    int ns = kept_seeds(st->save, st->s.seed, seeds, 64);
    rep_reading *T = calloc((size_t)(n ? n : 1), sizeof *T);
    int nsv = 0;
    for (int k = 0; T && k < ns && nsv < room; k++) {
        if (st->check && seeds[k] == st->check_seed)
            continue; /* measured by this run (check_verdict) */
        bool all = true;
        int got = 0;
        for (int i = 0; i < n && all; i++, got++) {
            char head[KEPT_HEAD], path[4400];
            all = kept_reseed(heads[i], seeds[k], head, sizeof head) == 0 &&
                  kept_path(st->save, R[i].f.id, head, path, sizeof path) == 0;
            T[i] = (rep_reading){0};
            memcpy(T[i].f.id, R[i].f.id, sizeof T[i].f.id);
            memcpy(T[i].title, R[i].title, sizeof T[i].title);
            memcpy(T[i].base, R[i].base, sizeof T[i].base);
            T[i].variant = R[i].variant;
            T[i].f.variant = R[i].variant;
            T[i].board = R[i].board;
            T[i].f.table_pieces = R[i].f.table_pieces;
            T[i].f.nsteps = R[i].f.nsteps;
            all = all && kept_load(path, head, &st->s, &T[i]) == 1;
        }
        if (all) {
            seed_verdict *v = &sv[nsv++];
            v->seed = seeds[k];
            for (int i = 0; i < n; i++)
                figures_of(&T[i]);
            judge(T, n, 0, v->ord);
            for (int i = 0; i < n; i++) {
                v->tier[i] = T[i].vj[0].tier;
                v->flags[i] = T[i].flags;
            }
        }
        for (int i = 0; i < got && i < n; i++)
            rep_reading_free(&T[i]);
    }
    free(T);
    return nsv;
}

/* The report of P: its plots into `plots` (or none), and the report in
 * `format` onto o (its plots linked from `output`, its file). */
static int report_write(const rep_report *P, FILE *o, const char *format,
                        const char *output, const char *plots) {
    if (plots && write_plots(plots, P->R, P->n))
        return EXIT_BAD;
    char link[4096];
    if (plots)
        plot_link(output, plots, link, sizeof link);
    if (strcmp(format, "md") == 0)
        print_md(o, P->R, P->n, P->R + P->n, P->nv, P->R + P->n + P->nv, P->nc,
                 P->R + P->n + P->nv + P->nc, P->nh,
                 P->R + P->n + P->nv + P->nc + P->nh, P->nk, &P->st,
                 plots ? link : NULL, P->argc, P->argv, P->secs, P->st.threads,
                 P->sv, P->nsv);
    else if (strcmp(format, "csv") == 0)
        print_csv(o, P->R, P->n + P->nv + P->nc + P->nh);
    else
        rep_json_write(o, P);
    return 0;
}

/* The report of the run just measured (M): its data written as JSON and
 * read back, and the report and plots written from what was read (so
 * that they are what a reader of the JSON makes of it, --from), the
 * JSON checked to read back to itself. Without Jansson, straight from
 * M. */
static int report_measured(const rep_report *M, FILE *o, const char *format,
                           const char *output, const char *plots) {
    if (!rep_json_readable())
        return report_write(M, o, format, output, plots);
    char *text = NULL, *again = NULL;
    size_t len = 0, alen = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return cli_fail("out of memory");
    rep_json_write(m, M);
    if (fclose(m) != 0) {
        free(text);
        return cli_fail("out of memory");
    }
    rep_report P;
    int rc = rep_json_read(text, len, "analyze: the report's data", &P);
    if (rc == 0 && (m = open_memstream(&again, &alen)) != NULL) {
        rep_json_write(m, &P);
        if (fclose(m) != 0) {
            free(again);
            again = NULL;
        }
    }
    if (rc == 0 && !again)
        rc = cli_fail("out of memory");
    else if (rc == 0 && (alen != len || memcmp(text, again, len) != 0))
        rc = cli_fail("analyze: the report's data does not read back as it "
                      "was written (a fault in kemet)");
    if (rc == 0)
        rc = report_write(&P, o, format, output, plots);
    rep_report_free(&P);
    free(text);
    free(again);
    return rc;
}

/* --from FILE: the report written from the data of a report alone
 * (--format json), in `format`, with its plots; no game is played. */
static int report_from(const char *from, int argc, char **argv, int npos,
                       const char *format, const char *output,
                       const char *plots) {
    if (npos > 0)
        return cli_fail("analyze: --from FILE writes the report FILE holds: "
                        "no RULESET with it");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        size_t len = strcspn(a, "=");
        bool ours = strncmp(a, "--", 2) != 0;
        const char *keep[] = {"--from", "--format", "--output", "--plots"};
        for (int k = 0; k < 4 && !ours; k++)
            ours = len == strlen(keep[k]) && strncmp(a, keep[k], len) == 0;
        if (!ours)
            return cli_fail("analyze: %.*s has no effect with --from (the "
                            "report is written from the file's settings; "
                            "--format, --output and --plots apply)",
                            (int)(len < 40 ? len : 40), a);
    }
    if (cli_mpi_rank() != 0)
        return 0; /* under mpirun rank 0 alone writes */
    rep_report P;
    int rc = rep_json_load(from, &P);
    char tmp[4096];
    FILE *o = stdout;
    if (rc == 0 && plots && make_folder(plots, "plot"))
        rc = EXIT_BAD;
    if (rc == 0 && output) {
        snprintf(tmp, sizeof tmp, "%s.tmp", output);
        if (!(o = fopen(tmp, "w"))) {
            o = stdout;
            rc = cli_fail("analyze: cannot write %.200s", output);
        }
    }
    if (rc == 0)
        rc = report_write(&P, o, format, output, plots);
    rep_report_free(&P);
    if (o != stdout) {
        bool bad = ferror(o) != 0;
        bad |= fclose(o) != 0;
        if (rc == 0 && (bad || rename(tmp, output) != 0))
            rc = cli_fail("analyze: cannot write %.200s", output);
        if (rc)
            remove(tmp);
    }
    return rc;
}

int cmd_analyze(int argc, char **argv) {
    long games = 1000, nthreads = 0, cap = 1000, most = 200, pilot = 20;
    long trace_games = 30, trace_base = 8;
    uint64_t seed = 1;
    const char *agents_opt = "greedy,greedy", *format = "md", *plots = NULL;
    const char *strong = "best:1k", *output = NULL, *sweep = NULL;
    const char *options = NULL, *save = NULL, *ludii = NULL, *from = NULL;
    bool changes = false;
    const char *headroom = NULL, *check_opt = NULL;
    const char *ladder_opt = "random,greedy,expectimax:250,best:1k";
    const char *precision_opt = "0.05", *board = NULL;
    const char *arg[64];
    int npos;
    cli_opt opts[] = {{"games", OPT_LONG, &games, 2, 10000000},
                      {"agents", OPT_STRING, &agents_opt, 0, 0},
                      {"strong", OPT_STRING, &strong, 0, 0},
                      {"precision", OPT_STRING, &precision_opt, 0, 0},
                      {"max-games", OPT_LONG, &most, 2, 10000000},
                      {"pilot", OPT_LONG, &pilot, 2, 10000000},
                      {"ladder", OPT_STRING, &ladder_opt, 0, 0},
                      {"trace-games", OPT_LONG, &trace_games, 0, 1000000},
                      {"trace-base", OPT_LONG, &trace_base, 1, 1000000},
                      {"sweep", OPT_STRING, &sweep, 0, 0},
                      {"options", OPT_STRING, &options, 0, 0},
                      {"board", OPT_STRING, &board, 0, 0},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"threads", OPT_LONG, &nthreads, 1, 256},
                      {"format", OPT_STRING, &format, 0, 0},
                      {"plots", OPT_STRING, &plots, 0, 0},
                      {"max-turns", OPT_LONG, &cap, 1, 1000000},
                      {"output", OPT_STRING, &output, 0, 0},
                      {"save", OPT_STRING, &save, 0, 0},
                      {"changes", OPT_FLAG, &changes, 0, 0},
                      {"headroom", OPT_STRING, &headroom, 0, 0},
                      {"check-seed", OPT_STRING, &check_opt, 0, 0},
                      {"ludii", OPT_STRING, &ludii, 0, 0},
                      {"from", OPT_STRING, &from, 0, 0},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int rc = cli_parse(argc, argv, opts, arg, 0, 64, &npos, analyze_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (strcmp(format, "md") && strcmp(format, "csv") && strcmp(format, "json"))
        return cli_fail("analyze: --format is md, csv or json, not '%.20s'",
                        format);
    if (from)
        return report_from(from, argc, argv, npos, format, output, plots);
    settings st = {.s = {.strong = strong,
                         .games = games,
                         .trace_games = trace_games,
                         .trace_base = trace_base,
                         .cap = cap,
                         .pilot = pilot,
                         .most = most,
                         .seed = seed},
                   .board = board,
                   .headroom = headroom};
    char *tend;
    errno = 0;
    st.s.precision = strtod(precision_opt, &tend);
    if (errno || tend == precision_opt || *tend || !(st.s.precision > 0) ||
        st.s.precision > 0.5)
        return cli_fail("analyze: --precision is a half-width between 0 and "
                        "0.5, not '%.20s'",
                        precision_opt);
    if (check_opt &&
        (cli_parse_u64(check_opt, &st.check_seed) || st.check_seed == seed))
        return cli_fail("analyze: --check-seed is a seed other than --seed's "
                        "(decimal digits), not '%.20s'",
                        check_opt);
    st.check = check_opt != NULL;
    if (trace_base > 1000000 >> KEMET_STUDY_TRACE)
        return cli_fail("analyze: --trace-base is at most %d",
                        1000000 >> KEMET_STUDY_TRACE);
    char pair[128], lbuf[512];
    if (split_list(agents_opt, pair, sizeof pair, st.s.weak, 2) != 2)
        return cli_fail("analyze: --agents takes two agents, A,B (e.g. "
                        "greedy,greedy)");
    st.s.rungs = split_list(ladder_opt, lbuf, sizeof lbuf, st.s.ladder,
                            KEMET_STUDY_RUNGS);
    if (st.s.rungs < 2)
        return cli_fail("analyze: --ladder takes 2 to %d agents, weakest "
                        "first, separated by commas",
                        KEMET_STUDY_RUNGS);
    /* The rulesets: 'all' or specs; then the sweep's variants. */
    const char *ids[REPORT_MAX_SETS];
    int n = 0, nv = 0;
    if (npos == 0) /* the quick report: every base ruleset */
        arg[npos++] = "all";
    for (int i = 0; i < npos; i++) {
        if (strcmp(arg[i], "all") == 0) {
            for (int k = 0; k < kemet_ruleset_count() && n < REPORT_MAX_SETS;
                 k++)
                ids[n++] = kemet_ruleset_id(k);
            continue;
        }
        if (n == REPORT_MAX_SETS)
            return cli_fail("analyze: at most %d rulesets", REPORT_MAX_SETS);
        ids[n++] = arg[i];
    }
    char vspecs[REPORT_MAX_VARIANTS][96];
    if (sweep && (nv = expand_sweep(sweep, vspecs, REPORT_MAX_VARIANTS)) < 0)
        return EXIT_BAD;
    if (options &&
        (nv = expand_options(options, vspecs, nv, REPORT_MAX_VARIANTS)) < 0)
        return EXIT_BAD;
    /* Check every ruleset and agent before any game is played; a variant
     * that is one of the rulesets already named (the option's default) is
     * measured once. */
    char canon[REPORT_MAX][96];
    for (int i = 0; i < n + nv; i++) {
        kemet_rules *r = cli_rules(i < n ? ids[i] : vspecs[i - n], board);
        if (!r)
            return EXIT_BAD;
        snprintf(canon[i], sizeof canon[i], "%s", kemet_rules_spec(r));
        bool again = false;
        for (int k = n; i >= n && k < i; k++)
            again |= strcmp(canon[k], canon[i]) == 0;
        for (int k = 0; i >= n && k < n; k++)
            again |= strcmp(canon[k], canon[i]) == 0;
        if (again) {
            kemet_rules_close(r);
            memmove(vspecs[i - n], vspecs[i - n + 1],
                    (size_t)(n + nv - i - 1) * sizeof vspecs[0]);
            nv--;
            i--;
            continue;
        }
        const char *all[KEMET_STUDY_RUNGS + 3] = {st.s.weak[0], st.s.weak[1],
                                                  strong};
        for (int k = 0; k < st.s.rungs; k++)
            all[3 + k] = st.s.ladder[k];
        for (int k = 0; k < st.s.rungs + 3; k++)
            if (cli_agent_check(r, all[k],
                                k < 2   ? "--agents"
                                : k < 3 ? "--strong"
                                        : "--ladder")) {
                kemet_rules_close(r);
                return EXIT_BAD;
            }
        kemet_rules_close(r);
    }
    ludii_row *lrows = NULL;
    if (ludii) {
        if (!(lrows = calloc(LUDII_ROWS, sizeof *lrows)))
            return cli_fail("out of memory");
        if ((st.nludii = ludii_read(ludii, lrows)) < 0) {
            free(lrows);
            return EXIT_BAD;
        }
        for (int i = 0; i < st.nludii; i++) { /* the reading each names */
            kemet_rules *r = open_reading(lrows[i].field[0]);
            snprintf(lrows[i].title, sizeof lrows[i].title, "%s",
                     r ? kemet_rules_info(r)->title : "");
            kemet_rules_close(r);
        }
        st.ludii = lrows;
    }
    /* --changes: each ruleset named without options, with one rule
     * changed (kemet_rule_changes), each change a variant of its own */
    kemet_change *chg = NULL;
    int *chg_of = NULL, nc = 0;
    if (changes) {
        chg = calloc(REPORT_MAX_CHANGES, sizeof *chg);
        chg_of = calloc(REPORT_MAX_CHANGES, sizeof *chg_of);
        if (!chg || !chg_of) {
            free(chg);
            free(chg_of);
            free(lrows);
            return cli_fail("out of memory");
        }
    }
    for (int i = 0; changes && i < n; i++) {
        kemet_rules *r = cli_rules(ids[i], board);
        if (!r) {
            free(chg);
            free(chg_of);
            free(lrows);
            return EXIT_BAD;
        }
        kemet_change c[KEMET_MAX_CHANGES];
        kemet_error e;
        int k = strcmp(kemet_rules_spec(r), kemet_rules_info(r)->id) == 0
                    ? kemet_rule_changes(r, c, KEMET_MAX_CHANGES, NULL, &e)
                    : 0; /* a reading with options chosen: none */
        kemet_rules_close(r);
        for (int j = 0; j < k && nc < REPORT_MAX_CHANGES; j++) {
            chg[nc] = c[j];
            chg_of[nc++] = i;
        }
    }
    if (cli_mpi_rank() != 0)
        output = plots = NULL; /* under mpirun rank 0 alone writes */
    /* The report goes to a temporary file beside --output, opened before
     * any game is played and renamed over it only once whole: a failed
     * run leaves the old report as it was. */
    char tmp[4096];
    FILE *o = stdout;
    if ((plots && make_folder(plots, "plot")) ||
        (save && make_folder(save, "--save")) ||
        (output &&
         (snprintf(tmp, sizeof tmp, "%s.tmp", output),
          !(o = fopen(tmp, "w"))) &&
         cli_fail("analyze: cannot write %.200s", output))) {
        free(chg);
        free(chg_of);
        free(lrows);
        return EXIT_BAD;
    }
    st.save = save;
    /* with room for a control and a headroom study a ruleset, and a
     * headroom study a variant */
    int all = n + nv + nc + 2 * n + nv + (st.check ? n + nv : 0);
    rep_reading *R = calloc((size_t)all, sizeof *R);
    work *W = calloc((size_t)all, sizeof *W);
    if (!R || !W)
        rc = cli_fail("out of memory");
    st.threads = cli_threads(nthreads);
    st.procs = cli_mpi_size();
    double t0 = cli_now(), secs = 0;
    for (int i = 0; i < n + nv && rc == 0; i++)
        rc = work_rules(i < n ? ids[i] : vspecs[i - n], &st, i >= n, &R[i],
                        &W[i]);
    /* each reading's changes after their control, where one is needed */
    int made = n + nv;
    for (int i = 0; i < nc && rc == 0; i++) {
        int of = chg_of[i];
        if ((i == 0 || chg_of[i - 1] != of) && needs_control(W[of].j)) {
            rc = work_change(ids[of], NULL, of, &st, &R[made], &W[made]);
            made++;
        }
        if (rc == 0) {
            rc = work_change(ids[of], &chg[i], of, &st, &R[made], &W[made]);
            made++;
        }
    }
    if (rc == 0)
        nc = made - n - nv;
    /* --headroom: each ruleset named, its strong agent against A */
    for (int i = 0; headroom && i < n && rc == 0; i++) {
        rc = work_rules(ids[i], &st, true, &R[made], &W[made]);
        R[made++].headroom_of = i + 1;
    }
    int nh = 0;
    if (rc == 0)
        all = made;
    free(chg);
    free(chg_of);
    if (rc == 0 && !save) /* every reading's games in the same pools */
        rc = measure(&st, R, W, 0, all);
    /* With --save, each reading alone, read back where an earlier run
     * kept it, kept once measured. */
    char(*heads)[KEPT_HEAD] = save ? calloc((size_t)n, sizeof *heads) : NULL;
    if (save && !heads && rc == 0)
        rc = cli_fail("out of memory");
    kept_settings ks = {&st.s, board};
    kemet_study_settings cs = st.s; /* a rule change's */
    cs.precision *= 2;
    kept_settings kc = {&cs, board};
    kemet_study_settings hs = st.s; /* a headroom study's */
    if (headroom)
        headroom_settings(&st, &hs);
    kept_settings kh = {&hs, board};
    for (int i = 0; save && i < all && rc == 0; i++) {
        const kept_settings *k = i < n + nv         ? &ks
                                 : R[i].headroom_of ? &kh
                                                    : &kc;
        rc = measure_kept(&st, k, R, W, i, i < n ? heads[i] : NULL, &secs);
    }
    if (!save)
        secs = cli_now() - t0;
    /* --headroom: the first tier of each board's readings too ("Which
     * Senet?"), where a variant stands there; its tiers need every
     * reading's figures first */
    for (int i = 0; rc == 0 && headroom && i < all; i++)
        if (!R[i].headroom_of)
            figures_of(&R[i]);
    int had = all;
    for (int b = BOARD_SENET; rc == 0 && headroom && b < NBOARDS; b++) {
        board_verdict B[1];
        judge_board(R, n, R + n, nv, b, B);
        for (int q = 0; q < B->k && rc == 0 && B->k >= 2; q++) {
            int x = (int)(B->x[q] - R);
            if (B->J[q].tier != 1 || x < n)
                continue;
            rc = work_rules(B->x[q]->f.id, &st, true, &R[all], &W[all]);
            R[all++].headroom_of = x + 1;
        }
    }
    if (rc == 0 && !save && all > had) {
        double t = cli_now();
        rc = measure(&st, R, W, had, all);
        secs += cli_now() - t;
    }
    for (int i = had; save && i < all && rc == 0; i++)
        rc = measure_kept(&st, &kh, R, W, i, NULL, &secs);
    nh = all - n - nv - nc;
    /* --check-seed: every ruleset named and variant again at the second
     * seed, a variant to twice the half-width */
    int nk = 0;
    if (rc == 0 && st.check) {
        int first = all;
        for (int i = 0; i < n + nv && rc == 0; i++) {
            rc = work_rules(i < n ? ids[i] : vspecs[i - n], &st, i >= n,
                            &R[all], &W[all]);
            R[all++].check_of = i + 1;
        }
        if (rc == 0 && !save) {
            double t = cli_now();
            rc = measure(&st, R, W, first, all);
            secs += cli_now() - t;
        }
        kemet_study_settings cks = st.s, ckv = st.s;
        check_settings(&st, false, &cks);
        check_settings(&st, true, &ckv);
        kept_settings kk[2] = {{&cks, board}, {&ckv, board}};
        for (int i = first; save && i < all && rc == 0; i++)
            rc = measure_kept(&st, &kk[R[i].variant], R, W, i, NULL, &secs);
        nk = all - first;
    }
    for (int i = 0; W && i < all; i++)
        work_free(&W[i]);
    free(W);
    if (rc && rc != EXIT_BAD && R)
        rc = cli_fail("analyze: %s", kemet_strerror(rc));
    for (int i = 0; rc == 0 && i < all; i++)
        if (!R[i].headroom_of)
            figures_of(&R[i]);
    seed_verdict sv[MAX_SEEDS];
    int nsv = rc == 0 && nk ? check_verdict(&st, R + all - nk, n, sv) : 0;
    if (rc == 0 && save)
        nsv += other_seeds(&st, heads, R, n, sv + nsv, MAX_SEEDS - nsv);
    free(heads);
    if (rc == 0) {
        int ord[REPORT_MAX_SETS];
        judge(R, n, 1, ord);
        judge(R, n, 0, ord);
    }
    for (int i = 0; rc == 0 && i < n; i++)
        if (reading_rules(&R[i]))
            rc = cli_fail("out of memory");
    if (rc == 0) {
        rep_report M = {.st = st,
                        .R = R,
                        .n = n,
                        .nv = nv,
                        .nc = nc,
                        .nh = nh,
                        .nk = nk,
                        .nsv = nsv,
                        .argc = argc,
                        .argv = argv,
                        .secs = secs};
        memcpy(M.sv, sv, (size_t)nsv * sizeof *sv);
        rc = report_measured(&M, o, format, output, plots);
    }
    if (rc == 0) {
        if (cli_mpi_rank() == 0)
            fprintf(stderr, "analyze: %.1f s on %d thread%s\n", secs,
                    st.threads, st.threads == 1 ? "" : "s");
    }
    if (output) {
        bool bad = ferror(o) != 0;
        bad |= fclose(o) != 0;
        if (rc == 0 && (bad || rename(tmp, output) != 0))
            rc = cli_fail("analyze: cannot write %.200s", output);
        if (rc)
            remove(tmp);
    }
    for (int i = 0; R && i < all; i++)
        rep_reading_free(&R[i]);
    free(R);
    free(lrows);
    return rc;
}
