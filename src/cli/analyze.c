/* analyze.c - `kemet analyze`: which reconstruction makes the best game.
 *
 * For each ruleset (and each option value of a sweep):
 *   - self-play by a strong agent (--strong, both seats) and by a weak one
 *     (--agents, greedy by default), each game traced ply by ply: player
 *     1's chance before each ply (exact where an endgame table covers the
 *     position, else the learned evaluation's), the legal moves at each
 *     throw, the holes pieces land on, and in strong play each throw's
 *     luck (kemet_throw_luck), so that player 1's advantage is measured
 *     with the luck taken out;
 *   - a skill ladder: each agent of --ladder against the one below it,
 *     paired games (each pair throws alike, seats swapped) scored less
 *     their luck; a step whose upper agent scores below one half beyond
 *     its interval is a contradiction, and said so;
 *   - the strong agent against the weak one: the luck share of the
 *     result, and how many games the better player needs to lead;
 *   - Ludii's SkillTrace (kemet_skill_trace) with expectimax at doubling
 *     budgets, as many matches as Ludii's metric plays;
 *   - degeneracy probes: the simple strategies (rearmost, foremost,
 *     safe-random) against the strong agent.
 * Each headline figure is sampled to a precision (--precision): a pilot,
 * then the size its interval asks for (kemet_precision_size), asked again
 * of all its games so far while it is still wider, at most --max-games.
 * Then the verdict (the library's, kemet_verdict): tiers on criteria stated in
 * the report. Every game is seeded from (seed, ruleset, part, index) and
 * every size is fixed before its games are played, so the numbers do not
 * depend on the thread count or the number of MPI ranks.
 */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
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
    "                     [--save DIR]\n"
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
    "in all), at most N games a figure (default 200); the report gives\n"
    "the half-width each figure reached.\n"
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
    "stopped. The same seed gives the same numbers whatever the thread\n"
    "count, the number of MPI ranks or --save.\n" TABLES_HELP NET_HELP;

#define BINS 20         /* length histogram bins */
#define MAX_CELLS 128   /* board cells counted (kemet_info.board_cells) */
#define SAMPLES 3       /* sample games whose chances are plotted */
#define MAX_RUNGS 8     /* agents on the ladder */
#define TRACE_MATCHES 8 /* Ludii's SkillTrace: 8 matches */
#define NPROBES 3
#define MAX_SETS 64     /* rulesets in one report */
#define MAX_VARIANTS 64 /* and variants (--sweep, --options) */
/* The precision targets beside --precision H (scores and shares +-H): the
 * median length +-MEDIAN_REL x H of itself (at H = 0.05, +-20%: about a
 * quarter of a doubling, the length criterion's unit) and LeadChange
 * +-H / LEAD_DIV (+-0.025: half the tension criterion's unit, as +-H is
 * one unit of balance). */
#define MEDIAN_REL 4
#define LEAD_DIV 2

/* The parts of one ruleset's measurement, timed apart. */
enum { P_WEAK, P_STRONG, P_LADDER, P_HEAD, P_PROBES, P_TRACE, NPARTS };
static const char *const part_name[NPARTS] = {
    "weak self-play", "strong self-play", "ladder",
    "luck and skill", "probes",           "SkillTrace"};

static const char *const probe_name[NPROBES] = {"rearmost", "foremost",
                                                "safe-random"};

/* ------------------------------------------------------------------------
 * Self-play, traced
 * --------------------------------------------------------------------- */

/* The fixed part of one game's trace: what every MPI rank sends. */
typedef struct game_sum {
    kemet_trace t;
    double luck; /* player 1's luck, summed over the throws */
    /* the decisions (two moves or more) in positions the endgame table
     * covers, those where the linear evaluation alone would choose a
     * worse move, and the win chance that choice gives away (summed) */
    long exact_decisions, plain_errors;
    double plain_loss;
    long land[MAX_CELLS]; /* arrivals on each board cell */
} game_sum;

typedef struct tracer {
    const kemet_rules *r;
    const kemet_judge *plain; /* the linear evaluation alone, or NULL */
    const kemet_judge *j;
    game_sum s;
    double *p1; /* player 1's chance before each ply */
    long cap;
    kemet_pos last; /* the position at the last decision */
    bool luck, thrown, seen, failed;
} tracer;

/* Player 1's chance in `pos` by the judge: exact where its endgame table
 * covers it, else the evaluation's (the learned one where there is a
 * network). */
static double p1_chance(const kemet_judge *j, const kemet_pos *pos) {
    return kemet_judge_chance(j, pos, NULL);
}

/* At a decision the judge's table covers: what choosing by the linear
 * evaluation alone would cost against perfect play (the table's value of
 * each move). Skipped where some move's value is not exact. */
static void perfect_play(tracer *T, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *moves,
                         int n) {
    const kemet_table *tb = kemet_judge_table(T->j);
    if (!tb || !kemet_table_probe(tb, pos, NULL))
        return;
    double best = -1, pick = -1, top = -1;
    for (int i = 0; i < n; i++) {
        kemet_pos next;
        int exact = 0;
        kemet_make(T->r, pos, thr, &moves[i], &next, NULL);
        double v = kemet_judge_chance(T->j, &next, &exact);
        if (!exact)
            return;
        double lin = kemet_judge_chance(T->plain, &next, NULL);
        if (pos->to == 2) {
            v = 1 - v;
            lin = 1 - lin;
        }
        best = v > best ? v : best;
        if (lin > top) { /* the first of equals, as greedy takes it */
            top = lin;
            pick = v;
        }
    }
    T->s.exact_decisions++;
    if (best - pick > 1e-12) {
        T->s.plain_errors++;
        T->s.plain_loss += best - pick;
    }
}

static void trace_ply(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                      const kemet_move *moves, int n) {
    tracer *T = ctx;
    if (!thr) {
        if (T->seen)
            kemet_arrivals(T->r, &T->last, pos, T->s.land, MAX_CELLS);
        T->last = *pos;
        T->seen = true;
        T->thrown = true;
        if (kc_grow(&T->p1, &T->cap, T->s.t.n, sizeof *T->p1)) {
            T->failed = true;
            return;
        }
        T->p1[T->s.t.n++] = p1_chance(T->j, pos);
        return;
    }
    /* an opening throw (no call before it) decides who starts: no luck */
    if (T->luck && T->thrown) {
        double x = 0;
        if (kemet_throw_luck(T->j, pos, thr, &x, NULL) != KEMET_OK)
            T->failed = true;
        T->s.luck += x;
    }
    T->thrown = false;
    if (n == 1 && moves[0].n == 0)
        T->s.t.passes++;
    else if (n == 1)
        T->s.t.forced++;
    else {
        T->s.t.decisions++;
        T->s.t.choices += n;
        if (T->plain)
            perfect_play(T, pos, thr, moves, n);
    }
    T->s.t.branching += n;
}

typedef struct job {
    const kemet_rules *r;
    const kemet_judge *j, *plain;
    const char *spec[2];
    uint64_t seed;
    long cap;
    bool luck;
    tracer *games;
    long first;          /* the stage's first game */
    long offset, stride; /* this rank's games: first + offset + k * stride */
} job;

static int trace_game(void *ctx, long k) {
    job *J = ctx;
    long i = J->first + J->offset + k * J->stride;
    tracer *T = &J->games[i];
    T->r = J->r;
    T->j = J->j;
    T->plain = J->plain;
    T->luck = J->luck;
    kemet_game *g = NULL;
    int rc =
        kemet_play_seeded(J->j, J->spec, kemet_run_seed(J->seed, (uint64_t)i),
                          J->cap, trace_ply, T, NULL, &g, NULL);
    if (rc)
        return rc;
    const kemet_pos *end = kemet_game_pos(g);
    if (T->seen)
        kemet_arrivals(J->r, &T->last, end, T->s.land, MAX_CELLS);
    T->s.t.result = kemet_result(end);
    T->s.t.turns = kemet_game_turns(g);
    T->s.t.moves = kemet_game_plies(g);
    kemet_game_free(g);
    return T->failed ? KEMET_ENOMEM : KEMET_OK;
}

/* Under mpirun: every rank's games to every rank, in game order (the
 * fixed part of each, then each game's chances, which then live in
 * *joined). */
static int share_traces(tracer *T, long games, int rc, double **joined) {
    int rank = cli_mpi_rank(), size = cli_mpi_size();
    long mine = cli_mpi_share(games);
    game_sum *part = malloc((size_t)(mine ? mine : 1) * sizeof *part);
    game_sum *all = malloc((size_t)games * sizeof *all);
    long nmine = 0, total = 0;
    for (long k = 0; part && k < mine; k++) {
        part[k] = T[rank + k * size].s;
        nmine += part[k].t.n;
    }
    rc = cli_mpi_deal(games, sizeof *all, part, all,
                      part && all ? rc : KEMET_ENOMEM);
    double *mine_p1 =
        rc ? NULL : malloc((size_t)(nmine ? nmine : 1) * sizeof *mine_p1);
    for (long i = 0; !rc && i < games; i++)
        total += all[i].t.n;
    double *p1 = rc ? NULL : malloc((size_t)(total ? total : 1) * sizeof *p1);
    int bad = !rc && (!mine_p1 || !p1);
    if (!rc) {
        long at = 0;
        for (long k = 0; mine_p1 && k < mine; k++) {
            const tracer *x = &T[rank + k * size];
            memcpy(mine_p1 + at, x->p1, (size_t)x->s.t.n * sizeof *mine_p1);
            at += x->s.t.n;
        }
        rc = bad ? KEMET_ENOMEM
                 : cli_mpi_join(mine_p1, nmine, sizeof *p1, p1, total);
    }
    if (!rc) { /* rank r's numbers: its games r, r + size, ... in turn */
        long at = 0;
        for (int r = 0; r < size; r++)
            for (long i = r; i < games; i += size) {
                T[i].s = all[i];
                T[i].s.t.p1 = p1 + at;
                at += all[i].t.n;
            }
        *joined = p1;
        p1 = NULL;
    }
    free(part);
    free(all);
    free(mine_p1);
    free(p1);
    return rc;
}

/* What one pair of agents' self-play says. */
typedef struct selfplay {
    char agent[2][48];
    long games;
    kemet_analysis a;
    long hist[BINS]; /* games by length, in bins of `bin` turns */
    double bin;
    bool luck;
    kemet_stat adv_adj;     /* player 1's score less its luck */
    kemet_stat median;      /* median turns, censored at the cap */
    kemet_stat per_turn;    /* real decisions a turn (ratio estimator) */
    kemet_stat capped;      /* share of games the turn cap stopped */
    double decisions;       /* real decisions a game (both players) */
    double land[MAX_CELLS]; /* arrivals a game on each cell */
    double coverage;        /* share of the cells ever landed on */
    /* the table's phase: decisions a game there, the share the linear
     * evaluation gets wrong, the win chance it gives away a game */
    double exact_decisions, plain_errors, plain_loss;
    int nsample; /* sample games' chances */
    int sample_n[SAMPLES];
    int sample_result[SAMPLES];
    double *sample[SAMPLES];
} selfplay;

static void selfplay_free(selfplay *S) {
    for (int k = 0; k < S->nsample; k++)
        free(S->sample[k]);
    S->nsample = 0;
}

/* How a figure's sample is sized (docs/analysis.md, "Precision"): a
 * pilot of `pilot` games, then the whole sample that the pilot's interval
 * says the target half-width `h` needs (kemet_precision_size), at most
 * `most` games. */
typedef struct sizing {
    double h;
    long pilot, most;
} sizing;

/* How many times a figure's sample is sized: after the pilot, then after
 * each pool while its interval is still wider than its target (each time
 * from all its games so far, which estimate its spread better). */
#define GROW_ROUNDS 5

/* The figures of games T[0..games) (every rank's, after share_traces). */
static int selfplay_measure(const kemet_rules *r, const tracer *T, long games,
                            long cap, bool plain, selfplay *S) {
    int size = cli_mpi_size();
    kemet_trace *t = calloc((size_t)games, sizeof *t);
    double *x = calloc(2 * (size_t)games, sizeof *x);
    if (!t || !x) {
        free(t);
        free(x);
        return KEMET_ENOMEM;
    }
    double *y = x + games;
    S->games = games;
    memset(S->land, 0, sizeof S->land);
    S->plain_loss = 0;
    int rc;
    for (long i = 0; i < games; i++) {
        t[i] = T[i].s.t;
        t[i].p1 = size > 1 ? T[i].s.t.p1 : T[i].p1;
    }
    if ((rc = kemet_analyze_traces(t, games, &S->a)))
        goto out;
    S->bin = kemet_length_histogram(t, games, BINS, S->hist);
    long dec = 0;
    for (long i = 0; i < games; i++) {
        dec += t[i].decisions;
        for (int c = 0; c < MAX_CELLS; c++)
            S->land[c] += (double)T[i].s.land[c];
    }
    S->decisions = (double)dec / (double)games;
    long xd = 0, xe = 0;
    for (long i = 0; i < games; i++) {
        xd += T[i].s.exact_decisions;
        xe += T[i].s.plain_errors;
        S->plain_loss += T[i].s.plain_loss / (double)games;
    }
    S->exact_decisions = (double)xd / (double)games;
    S->plain_errors = xd ? (double)xe / (double)xd : NAN;
    if (!plain)
        S->exact_decisions = S->plain_errors = S->plain_loss = NAN;
    const kemet_info *info = kemet_rules_info(r);
    int cells =
            info->board_cells < MAX_CELLS ? info->board_cells : MAX_CELLS - 1,
        used = 0;
    for (int c = 1; c <= cells; c++) {
        used += S->land[c] > 0;
        S->land[c] /= (double)games;
    }
    S->coverage = cells ? (double)used / cells : NAN;
    /* the median length, a game stopped at the cap censored there */
    for (long i = 0; i < games; i++)
        x[i] = t[i].result == KEMET_PLAYING ? INFINITY : (double)t[i].turns;
    S->median = kemet_median_ci(x, games, (double)cap + 1);
    /* real decisions a turn: decisions over turns, pooled */
    for (long i = 0; i < games; i++) {
        x[i] = (double)t[i].decisions;
        y[i] = (double)t[i].turns;
    }
    S->per_turn = kemet_ratio_ci(x, y, games);
    /* the share the turn cap stopped (a draw the rules give is not) */
    S->capped = (kemet_stat){1 - S->a.completion.value, 1 - S->a.completion.hi,
                             1 - S->a.completion.lo};
    /* player 1's score less its luck, a game at a time */
    for (long i = 0; i < games; i++) {
        double res = t[i].result == KEMET_WON1   ? 1
                     : t[i].result == KEMET_WON2 ? 0
                                                 : 0.5;
        x[i] = res - T[i].s.luck;
    }
    S->adv_adj = (kemet_stat){NAN, NAN, NAN};
    if (S->luck && games > 1) {
        double m = 0, ss = 0;
        for (long i = 0; i < games; i++)
            m += x[i] / (double)games;
        for (long i = 0; i < games; i++)
            ss += (x[i] - m) * (x[i] - m);
        double half = 1.96 * sqrt(ss / (double)(games - 1) / (double)games);
        S->adv_adj = (kemet_stat){m, m - half, m + half};
    }
    for (long i = 0; i < games && S->nsample < SAMPLES; i++) {
        int k = S->nsample;
        S->sample[k] = malloc((size_t)(t[i].n ? t[i].n : 1) * sizeof(double));
        if (!S->sample[k]) {
            rc = KEMET_ENOMEM;
            goto out;
        }
        memcpy(S->sample[k], t[i].p1, (size_t)t[i].n * sizeof(double));
        S->sample_n[k] = t[i].n;
        S->sample_result[k] = t[i].result;
        S->nsample++;
    }
out:
    free(t);
    free(x);
    return rc;
}

/* The half-width of an interval, relative to its estimate or not. */
static double half_of(const kemet_stat *s, bool relative) {
    double h = fmax(s->value - s->lo, s->hi - s->value);
    if (isinf(s->value) || isinf(s->hi))
        return INFINITY;
    return relative ? h / s->value : h;
}

/* The target half-width for criterion c's figure, estimated at `est` by
 * the pilot: the target h, narrowed near the criterion's flag thresholds
 * (kemet_decide_half); on the log scale for the length, whose target is
 * relative. */
static double decide(double h, int c, double est) {
    const kemet_criterion *k = kemet_criterion_info(c);
    double t[2] = {k->flag_lo, k->flag_hi}, d = h;
    for (int i = 0; i < 2; i++) {
        if (isnan(t[i]))
            continue;
        if (k->log2)
            d = fmin(d,
                     est > 0 ? kemet_decide_half(h, log(est), log(t[i])) : h);
        else
            d = fmin(d, kemet_decide_half(h, est, t[i]));
    }
    return d;
}

/* The self-play's whole sample after a pilot of `n` games: enough for
 * player 1's luck-adjusted score within +-h, the median length within
 * +-2h of itself (a length is judged in doublings) and LeadChange within
 * +-h/4. */
static long selfplay_size(const selfplay *S, long n, const sizing *z) {
    long k = n, m;
    double h = decide(z->h, KEMET_CRIT_BALANCE, S->adv_adj.value);
    if (S->luck && (m = kemet_precision_size(n, half_of(&S->adv_adj, false), h,
                                             z->most, 1)) > k)
        k = m;
    if ((m = kemet_precision_size(
             n, half_of(&S->median, true),
             decide(MEDIAN_REL * z->h, KEMET_CRIT_LENGTH, S->median.value),
             z->most, 1)) > k)
        k = m;
    if ((m = kemet_precision_size(n, half_of(&S->a.lead_change, false),
                                  decide(z->h / LEAD_DIV, KEMET_CRIT_TENSION,
                                         S->a.lead_change.value),
                                  z->most, 1)) > k)
        k = m;
    return k;
}

/* Plays games first .. first + count - 1 of job J (every rank's, under
 * mpirun, shared into *joined). */
static int play_stage(job *J, long first, long count, int threads,
                      const char *what, double **joined) {
    J->first = first;
    int rc = cli_parallel_dealt(cli_mpi_share(count), count, threads,
                                trace_game, J, what);
    if (cli_mpi_size() > 1)
        rc = share_traces(J->games + first, count, rc, joined);
    return rc;
}

/* ------------------------------------------------------------------------
 * Matches: ladder steps, the headline match, probes, SkillTrace
 * --------------------------------------------------------------------- */

/* One match of agent `hi` (the one expected to be stronger) against
 * `lo`: paired games, luck taken out. */
typedef struct step {
    char hi[48], lo[48];
    long games;
    kemet_match_stats m;
    kemet_stat share;   /* the luck share of hi's result */
    double luck_share;  /* its estimate */
    double sd;          /* of hi's result, a game */
    bool contradiction; /* hi, expected the stronger, scores below 1/2
                           beyond its interval */
} step;

/* The luck share and the spread of a game's result from out[0..n). */
static int step_figures(const kemet_outcome *out, long n, step *S) {
    double *res = malloc(2 * (size_t)(n ? n : 1) * sizeof *res);
    if (!res)
        return KEMET_ENOMEM;
    double *luck = res + n, m = 0, ss = 0;
    for (long i = 0; i < n; i++) {
        const kemet_outcome *o = &out[i];
        res[i] = o->result == KEMET_DRAW || o->result < 0 ? 0.5
                 : o->result == 1 + o->swapped            ? 1
                                                          : 0;
        luck[i] = o->swapped ? -o->luck : o->luck;
        m += res[i] / (double)n;
    }
    for (long i = 0; i < n; i++)
        ss += (res[i] - m) * (res[i] - m);
    S->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
    S->share = kemet_luck_share_ci(res, luck, n, 2);
    S->luck_share = S->share.value;
    free(res);
    return KEMET_OK;
}

/* A match's pilot and its cap, in whole pairs (docs/analysis.md,
 * "Precision"). */
static long step_most(const sizing *z) {
    return z->most < 2 ? 2 : z->most - (z->most & 1);
}

static long step_pilot(const sizing *z) {
    long most = step_most(z), pilot = z->pilot + (z->pilot & 1);
    return pilot < most ? pilot : most;
}

/* The luck share's sample is narrowed near 1 - SHARE_DECIDE, where the
 * luck leaves the choices a fiftieth of the result's variance (the
 * report's method says so). */
#define SHARE_DECIDE 0.02

/* After the pilot out[0..pilot) of `hi` against `lo` (paired games, luck
 * taken out): the whole sample that the luck-adjusted score's interval
 * needs to be within +-z->h (and, with `share`, the luck share's), at
 * most z->most. The size comes from the pilot's games alone, so it does
 * not depend on the threads; every figure is then taken over all the
 * games (step_end). */
static int step_size(const kemet_outcome *out, long pilot, const sizing *z,
                     bool share, bool probe, step *S, long *n) {
    int how = KEMET_MATCH_PAIRED | KEMET_MATCH_LUCK;
    int rc = kemet_match_tally(out, pilot, how, &S->m);
    if (!rc)
        rc = step_figures(out, pilot, S);
    *n = pilot;
    if (rc)
        return rc;
    kemet_estimate *e = &S->m.adj;
    long most = step_most(z);
    *n = kemet_precision_size(
        pilot, fmax(e->score - e->lo, e->hi - e->score),
        probe ? decide(z->h, KEMET_CRIT_PROBES, e->score) : z->h, most, 2);
    long m = kemet_precision_size(
        pilot, half_of(&S->share, false),
        kemet_decide_half(z->h, 1 - S->share.value, SHARE_DECIDE), most, 2);
    *n = share && m > *n ? m : *n;
    return KEMET_OK;
}

/* The figures of the match over all its games out[0..n). */
static int step_end(const kemet_outcome *out, long n, step *S) {
    S->games = n;
    int rc =
        kemet_match_tally(out, n, KEMET_MATCH_PAIRED | KEMET_MATCH_LUCK, &S->m);
    return rc ? rc : step_figures(out, n, S);
}

/* Ludii's SkillTrace: match k (k = 0..7) plays expectimax at 2b against
 * expectimax at b, b = base * 2^k, `games` games, seats alternating, each
 * game's throws its own (as Ludii's trials: not paired); y[k] is the
 * stronger agent's mean utility (win 1, draw 0, loss -1). The same games
 * give kemet's trace: each game's throws' luck measured and taken out of
 * the stronger agent's result, adj[k] its luck-adjusted utility
 * (2 x the luck-adjusted score - 1) with its interval. */
static int trace_match(const kemet_outcome *out, long games, double *y,
                       kemet_stat *adj) {
    double u = 0;
    for (long i = 0; i < games; i++) {
        const kemet_outcome *o = &out[i];
        if (o->result == KEMET_WON1 || o->result == KEMET_WON2)
            u += o->result == 1 + o->swapped ? 1 : -1;
    }
    *y = u / (double)games;
    kemet_match_stats M;
    *adj = (kemet_stat){NAN, NAN, NAN};
    int rc = 0;
    if (games > 1 &&
        !(rc = kemet_match_tally(out, games, KEMET_MATCH_LUCK, &M)))
        *adj = (kemet_stat){2 * M.adj.score - 1, 2 * M.adj.lo - 1,
                            2 * M.adj.hi - 1};
    return rc;
}

/* ------------------------------------------------------------------------
 * Stages: the games of every ruleset, played together
 *
 * The games of a run are played in pools: first every game whose number
 * is fixed (the weak self-play, SkillTrace) and every figure's pilot, of
 * every ruleset; then the rest of each figure's sample, which its pilot
 * sized; then, while any figure is still short of its target, the games
 * that all its games so far ask for (GROW_ROUNDS sizings in all). Each
 * pool is dealt over the threads game by game, so
 * a thread is idle only at the end of a pool, not at the end of each
 * part (there were 25 such ends a ruleset); the longest games are dealt
 * first. Every game is seeded from its index alone, so the order of
 * play changes no number. Under mpirun the stages are played one after
 * another, each dealt over the ranks.
 * --------------------------------------------------------------------- */

/* One stage: games first .. first + count - 1 of a self-play (J), or of
 * a match of spec[0] against spec[1] as cli_run_games plays it. */
typedef struct stage {
    int order, seq; /* played in this order (the costliest first) */
    job *J;
    double **joined; /* under mpirun: the self-play's shared chances */
    const kemet_judge *j;
    const char *spec[2];
    int how;
    uint64_t seed;
    long cap;
    kemet_outcome *out; /* game i's outcome in out[i] */
    long first, count;
    double *secs; /* the part's time, added to */
    char what[192];
} stage;

typedef struct stages {
    stage *s;
    int n, room;
} stages;

static stage *add_stage(stages *L, int order, long first, long count,
                        double *secs) {
    if (count <= 0)
        return NULL;
    if (L->n == L->room) {
        int room = L->room ? 2 * L->room : 64;
        stage *s = realloc(L->s, (size_t)room * sizeof *s);
        if (!s)
            return NULL;
        L->s = s;
        L->room = room;
    }
    stage *s = &L->s[L->n];
    *s = (stage){.order = order, .seq = L->n};
    s->first = first;
    s->count = count;
    s->secs = secs;
    L->n++;
    return s;
}

static int add_selfplay(stages *L, int order, job *J, long first, long count,
                        double **joined, double *secs, const char *what) {
    stage *s = add_stage(L, order, first, count, secs);
    if (!s)
        return count > 0 ? KEMET_ENOMEM : KEMET_OK;
    s->J = J;
    s->joined = joined;
    snprintf(s->what, sizeof s->what, "%s", what);
    return KEMET_OK;
}

static int add_match(stages *L, int order, const kemet_judge *j, const char *hi,
                     const char *lo, int how, uint64_t seed, long cap,
                     kemet_outcome *out, long first, long count, double *secs,
                     const char *what) {
    stage *s = add_stage(L, order, first, count, secs);
    if (!s)
        return count > 0 ? KEMET_ENOMEM : KEMET_OK;
    s->j = j;
    s->spec[0] = hi;
    s->spec[1] = lo;
    s->how = how;
    s->seed = seed;
    s->cap = cap;
    s->out = out;
    snprintf(s->what, sizeof s->what, "%s", what);
    return KEMET_OK;
}

/* Game i of match stage s into s->out[i] (kemet_match_game):
 * seats alternating (and by the opening where it decides), paired games
 * throwing alike, the luck summed. */
static int match_game(const stage *s, long i) {
    return kemet_match_game(s->j, s->spec, s->how, s->seed, i, s->cap, 0,
                            &s->out[i]);
}

typedef struct pool {
    const stage *s;
    int n;
    long *start;  /* stage k's first item */
    double *secs; /* each item's thread time */
} pool;

static int pool_item(void *ctx, long i) {
    pool *P = ctx;
    int lo = 0, hi = P->n - 1;
    while (lo < hi) { /* the stage of item i: the last to start by i */
        int mid = (lo + hi + 1) / 2;
        if (P->start[mid] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    const stage *s = &P->s[lo];
    long k = i - P->start[lo];
    double t = cli_thread_time();
    int rc = s->J ? trace_game(s->J, k) : match_game(s, s->first + k);
    P->secs[i] = cli_thread_time() - t;
    return rc;
}

static int by_order(const void *a, const void *b) {
    const stage *x = a, *y = b;
    if (x->order != y->order)
        return (x->order > y->order) - (x->order < y->order);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Plays the stages of L: one pool dealt over the threads (each game's
 * thread time added to its part), or under mpirun each stage in turn
 * dealt over the ranks (its wall time added). */
static int run_stages(stages *L, int threads, const char *what) {
    if (L->n > 1) /* (none: L->s may be NULL) */
        qsort(L->s, (size_t)L->n, sizeof *L->s, by_order);
    for (int k = 0; k < L->n; k++)
        if (L->s[k].J)
            L->s[k].J->first = L->s[k].first;
    int rc = 0;
    if (cli_mpi_size() > 1) {
        for (int k = 0; k < L->n && !rc; k++) {
            stage *s = &L->s[k];
            double t = cli_now();
            rc = s->J ? play_stage(s->J, s->first, s->count, threads, s->what,
                                   s->joined)
                      : cli_run_games(s->j, s->spec, s->how, s->seed, s->first,
                                      s->count, s->cap, threads,
                                      s->out + s->first, s->what);
            *s->secs += cli_now() - t;
        }
        return rc;
    }
    pool P = {L->s, L->n, malloc(((size_t)L->n + 1) * sizeof *P.start), NULL};
    long total = 0;
    for (int k = 0; P.start && k < L->n; k++) {
        P.start[k] = total;
        total += L->s[k].count;
    }
    P.secs = calloc((size_t)(total ? total : 1), sizeof *P.secs);
    if (!P.start || !P.secs)
        rc = KEMET_ENOMEM;
    else
        rc = cli_parallel(total, threads, pool_item, &P, what);
    for (int k = 0; !rc && k < L->n; k++)
        for (long i = 0; i < L->s[k].count; i++)
            *L->s[k].secs += P.secs[P.start[k] + i];
    free(P.start);
    free(P.secs);
    return rc;
}

/* ------------------------------------------------------------------------
 * One ruleset
 * --------------------------------------------------------------------- */

/* The settings of a run. */
typedef struct settings {
    const char *weak[2], *strong, *board;
    const char *ladder[MAX_RUNGS];
    int rungs;
    long games, trace_games, trace_base, cap;
    sizing z; /* --precision, the pilot, --max-games */
    uint64_t seed;
    int threads;
    const char *save; /* --save DIR, or NULL */
} settings;

/* The boards whose readings the report compares in a section of their
 * own ("Which Senet?"): Senet's 30 squares and the 58 holes, each the
 * built-in board of its families. */
enum { BOARD_OTHER, BOARD_SENET, BOARD_58, NBOARDS };

/* Everything measured on one ruleset. */
typedef struct result {
    char id[96], title[96], base[64];
    bool variant;     /* from a sweep or --options */
    int board;        /* BOARD_*: whose readings it is among */
    int table_pieces; /* the endgame table used: its pieces a side, or 0 */
    selfplay weak, strong;
    int nsteps;
    step ladder[MAX_RUNGS - 1];
    step head; /* the strong agent against the weak one */
    double trace_y[TRACE_MATCHES], skill_trace; /* Ludii's */
    /* kemet's trace: the same games' luck-adjusted utilities, and the
     * SkillTrace formula on them */
    kemet_stat trace_adj[TRACE_MATCHES];
    double skill_trace_adj;
    step probe[NPROBES];
    double games_to_lead;
    double secs;
    double wall;  /* with --save: the wall time of its measurement alone */
    bool earlier; /* with --save: measured by an earlier run, read back */
    /* the time of each part (part_name): its games' thread time, summed;
     * under mpirun, its wall time */
    double part_secs[NPARTS];
    kemet_board_art art;
    /* the verdict: its figures and judgement from strong play [0] and
     * from weak play [1] */
    kemet_measured vm[2];
    kemet_judged vj[2];
    int flags; /* bit c: criterion c's flag (kemet_criterion_info), strong play
                */
} result;

/* A self-play's games while they are played. */
typedef struct play {
    job J;
    tracer *T;
    long n;                          /* games in T */
    double *joined[GROW_ROUNDS + 1]; /* under mpirun: each pool's shared
                                        chances */
    kemet_judge *plain; /* the linear evaluation, where a table is in use */
} play;

/* Room for the first n games of spec[0] against spec[1] (with the luck:
 * where a table is in use, perfect play's worth too). */
static int play_begin(play *p, const kemet_judge *j, const char *const spec[2],
                      long n, uint64_t seed, long cap, bool luck, selfplay *S) {
    const kemet_rules *r = kemet_judge_rules(j);
    *S = (selfplay){.luck = luck};
    for (int k = 0; k < 2; k++)
        snprintf(S->agent[k], sizeof S->agent[k], "%s", spec[k]);
    *p = (play){.n = n};
    if (!(p->T = calloc((size_t)n, sizeof *p->T)))
        return KEMET_ENOMEM;
    if (luck && kemet_judge_table(j) &&
        kemet_judge_new(r, "plain", &p->plain, NULL) != KEMET_OK)
        return KEMET_ENOMEM;
    p->J = (job){r,    j,    p->plain, {spec[0], spec[1]}, seed,          cap,
                 luck, p->T, 0,        cli_mpi_rank(),     cli_mpi_size()};
    return KEMET_OK;
}

/* Room for `more` games in all, the new ones not yet played. */
static int play_grow(play *p, long more) {
    tracer *U = realloc(p->T, (size_t)more * sizeof *U);
    if (!U)
        return KEMET_ENOMEM;
    memset(U + p->n, 0, (size_t)(more - p->n) * sizeof *U);
    p->T = p->J.games = U;
    p->n = more;
    return KEMET_OK;
}

static void play_free(play *p) {
    for (long i = 0; p->T && i < p->n; i++)
        free(p->T[i].p1);
    free(p->T);
    for (int k = 0; k <= GROW_ROUNDS; k++)
        free(p->joined[k]);
    kemet_judge_free(p->plain);
    *p = (play){0};
}

/* The matches of a ruleset: the ladder's steps, the strong agent against
 * the weak one, the probes. */
enum { M_HEAD = MAX_RUNGS - 1, M_PROBE, NMATCH = M_PROBE + NPROBES };

/* One ruleset while its games are played. */
typedef struct work {
    kemet_rules *r;
    kemet_judge *j;
    uint64_t rs; /* the ruleset's stream of seeds */
    play weak, strong;
    kemet_outcome *out[NMATCH]; /* each match's games */
    long pilot[NMATCH];         /* its pilot's games (0: not played) */
    kemet_outcome *trace;       /* SkillTrace's matches, one after another */
    char budget[TRACE_MATCHES + 1][48]; /* expectimax at base * 2^k */
} work;

/* Match m of ruleset R: its agents, its seed and its figures. */
static step *match_of(const settings *st, result *R, uint64_t rs, int m,
                      const char **hi, const char **lo, uint64_t *seed) {
    if (m < M_HEAD) {
        *hi = st->ladder[m + 1];
        *lo = st->ladder[m];
        *seed = kc_mix64(rs + 10 + (uint64_t)m);
        return &R->ladder[m];
    }
    if (m == M_HEAD) {
        *hi = st->strong;
        *lo = st->weak[0];
        *seed = kc_mix64(rs + 2);
        return &R->head;
    }
    int k = m - M_PROBE;
    *hi = probe_name[k];
    *lo = st->strong;
    *seed = kc_mix64(rs + 20 + (uint64_t)k);
    return &R->probe[k];
}

static void match_what(const result *R, int m, const char *hi, const char *lo,
                       char *what, size_t size) {
    snprintf(what, size, m < M_HEAD ? "%s: ladder %s vs %s" : "%s: %s vs %s",
             R->id, hi, lo);
}

/* Opens ruleset `spec` and adds the games whose number is fixed, and each
 * figure's pilot, to A; a sweep's variant (`variant`) without the ladder
 * and SkillTrace, which the report does not show for variants. */
/* Opens ruleset `spec` into W and fills what R says of it without a game
 * played: its names, board, endgame table and the number of ladder steps
 * (none for a variant). */
static int work_rules(const char *spec, const settings *st, bool variant,
                      result *R, work *W) {
    W->r = cli_rules_for(spec, st->board, NULL, &W->j);
    if (!W->r)
        return EXIT_BAD;
    const kemet_rules *r = W->r;
    snprintf(R->id, sizeof R->id, "%s", kemet_rules_spec(r));
    snprintf(R->title, sizeof R->title, "%s", kemet_rules_info(r)->title);
    snprintf(R->base, sizeof R->base, "%s", kemet_rules_info(r)->id);
    R->variant = variant;
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
        R->table_pieces = ti.pieces;
    }
    R->nsteps = variant ? 0 : st->rungs - 1;
    return 0;
}

/* Adds ruleset R's games whose number is fixed, and each figure's pilot,
 * to A (W opened by work_rules). */
static int work_open(const settings *st, result *R, work *W, stages *A) {
    bool variant = R->variant;
    /* The ruleset's own stream of seeds: adding a ruleset to the list
     * changes no other ruleset's numbers; an option's value is part of
     * it, as a variant is its own game. */
    uint64_t rs = st->seed;
    for (const char *c = R->id; *c; c++)
        rs = kc_mix64(rs ^ (uint64_t)(unsigned char)*c);
    W->rs = rs;
    char what[192];
    snprintf(what, sizeof what, "%s: weak self-play", R->id);
    int rc = play_begin(&W->weak, W->j, st->weak, st->games, rs, st->cap, false,
                        &R->weak);
    if (!rc)
        rc = add_selfplay(A, 30, &W->weak.J, 0, st->games, &W->weak.joined[0],
                          &R->part_secs[P_WEAK], what);
    const char *strong[2] = {st->strong, st->strong};
    long n = st->z.pilot < st->z.most ? st->z.pilot : st->z.most;
    snprintf(what, sizeof what, "%s: strong self-play", R->id);
    if (!rc)
        rc = play_begin(&W->strong, W->j, strong, n, kc_mix64(rs + 1), st->cap,
                        true, &R->strong);
    if (!rc)
        rc = add_selfplay(A, 10, &W->strong.J, 0, n, &W->strong.joined[0],
                          &R->part_secs[P_STRONG], what);
    long pilot = step_pilot(&st->z);
    for (int m = 0; m < NMATCH && !rc; m++) {
        if (m >= R->nsteps && m < M_HEAD)
            continue;
        const char *hi, *lo;
        uint64_t seed;
        step *S = match_of(st, R, rs, m, &hi, &lo, &seed);
        *S = (step){0};
        snprintf(S->hi, sizeof S->hi, "%s", hi);
        snprintf(S->lo, sizeof S->lo, "%s", lo);
        if (!(W->out[m] = calloc((size_t)pilot, sizeof *W->out[m]))) {
            rc = KEMET_ENOMEM;
            break;
        }
        W->pilot[m] = pilot;
        match_what(R, m, hi, lo, what, sizeof what);
        int part = m < M_HEAD ? P_LADDER : m == M_HEAD ? P_HEAD : P_PROBES;
        int order = m < M_HEAD ? 12 + R->nsteps - 1 - m : m == M_HEAD ? 11 : 20;
        rc = add_match(
            A, order, W->j, hi, lo,
            KEMET_MATCH_ALTERNATE | KEMET_MATCH_PAIRED | KEMET_MATCH_LUCK, seed,
            st->cap, W->out[m], 0, pilot, &R->part_secs[part], what);
    }
    R->skill_trace = R->skill_trace_adj = NAN;
    long tg = st->trace_games;
    if (!rc && tg > 0 && !variant) {
        if (!(W->trace =
                  calloc((size_t)(tg * TRACE_MATCHES), sizeof *W->trace)))
            return KEMET_ENOMEM;
        for (int k = 0; k <= TRACE_MATCHES; k++)
            snprintf(W->budget[k], sizeof W->budget[k], "expectimax:%ld",
                     st->trace_base << k);
        /* match k: expectimax at 2b against expectimax at b, each game's
         * throws its own (as Ludii's trials: not paired), the luck summed
         * for kemet's trace; the largest budgets first */
        for (int k = 0; k < TRACE_MATCHES && !rc; k++) {
            snprintf(what, sizeof what, "%s: SkillTrace %d/%d", R->id, k + 1,
                     TRACE_MATCHES);
            rc = add_match(
                A, TRACE_MATCHES - 1 - k, W->j, W->budget[k + 1], W->budget[k],
                KEMET_MATCH_ALTERNATE | KEMET_MATCH_LUCK,
                kc_mix64(kc_mix64(rs + 3) + (uint64_t)k), st->cap,
                W->trace + k * tg, 0, tg, &R->part_secs[P_TRACE], what);
        }
    }
    return rc;
}

static int work_grow(const settings *st, result *R, work *W, stages *B,
                     int round);

/* After the first pool: the weak self-play's and SkillTrace's figures;
 * each pilot's figures, and the rest of its sample (the size it asks
 * for) added to B. */
static int work_middle(const settings *st, result *R, work *W, stages *B) {
    int rc =
        selfplay_measure(W->r, W->weak.T, W->weak.n, st->cap, false, &R->weak);
    long tg = st->trace_games;
    if (!rc && W->trace) {
        for (int k = 0; k < TRACE_MATCHES && !rc; k++)
            rc = trace_match(W->trace + k * tg, tg, &R->trace_y[k],
                             &R->trace_adj[k]);
        R->skill_trace = kemet_skill_trace(R->trace_y, TRACE_MATCHES);
        double ya[TRACE_MATCHES];
        for (int k = 0; k < TRACE_MATCHES; k++)
            ya[k] = R->trace_adj[k].value;
        R->skill_trace_adj = kemet_skill_trace(ya, TRACE_MATCHES);
    }
    return rc ? rc : work_grow(st, R, W, B, 1);
}

/* Round `round` (1: after the pilots; 2 and on: after the last pool):
 * each figure's whole sample as all its games so far size it
 * (kemet_precision_size, from their spread), the rest added to B. The
 * strong self-play is measured over its games so far first. */
static int work_grow(const settings *st, result *R, work *W, stages *B,
                     int round) {
    int rc = 0;
    play *p = &W->strong;
    char what[192];
    snprintf(what, sizeof what, "%s: strong self-play", R->id);
    if (p->n > R->strong.games || round == 1) {
        selfplay_free(&R->strong);
        rc = selfplay_measure(W->r, p->T, p->n, st->cap, p->plain != NULL,
                              &R->strong);
    }
    long more = rc ? 0 : selfplay_size(&R->strong, p->n, &st->z), had = p->n;
    if (!rc && more > had && !(rc = play_grow(p, more)))
        rc = add_selfplay(B, 0, &p->J, had, more - had, &p->joined[round],
                          &R->part_secs[P_STRONG], what);
    for (int m = 0; m < NMATCH && !rc; m++) {
        if (!W->pilot[m])
            continue;
        const char *hi, *lo;
        uint64_t seed;
        step *S = match_of(st, R, W->rs, m, &hi, &lo, &seed);
        long n, have = round == 1 ? W->pilot[m] : S->games;
        rc = step_size(W->out[m], have, &st->z, m == M_HEAD, m >= M_PROBE, S,
                       &n);
        S->games = n;
        if (rc || n <= have)
            continue;
        kemet_outcome *o = realloc(W->out[m], (size_t)n * sizeof *o);
        if (!o) {
            rc = KEMET_ENOMEM;
            break;
        }
        memset(o + have, 0, (size_t)(n - have) * sizeof *o);
        W->out[m] = o;
        match_what(R, m, hi, lo, what, sizeof what);
        int part = m < M_HEAD ? P_LADDER : m == M_HEAD ? P_HEAD : P_PROBES;
        int order = m == 0        ? 20
                    : m < M_HEAD  ? 2 + R->nsteps - 1 - m
                    : m == M_HEAD ? 1
                                  : 10;
        rc = add_match(
            B, order, W->j, hi, lo,
            KEMET_MATCH_ALTERNATE | KEMET_MATCH_PAIRED | KEMET_MATCH_LUCK, seed,
            st->cap, o, have, n - have, &R->part_secs[part], what);
    }
    return rc;
}

/* After the last pool: every figure over its whole sample. */
static int work_end(const settings *st, result *R, work *W) {
    int rc = 0;
    play *p = &W->strong;
    if (p->n > R->strong.games) {
        selfplay_free(&R->strong);
        rc = selfplay_measure(W->r, p->T, p->n, st->cap, p->plain != NULL,
                              &R->strong);
    }
    for (int m = 0; m < NMATCH && !rc; m++) {
        if (!W->pilot[m])
            continue;
        const char *hi, *lo;
        uint64_t seed;
        step *S = match_of(st, R, W->rs, m, &hi, &lo, &seed);
        if (S->games > W->pilot[m])
            rc = step_end(W->out[m], S->games, S);
        S->contradiction = m <= M_HEAD && S->m.adj.hi < 0.5;
    }
    if (!rc)
        R->games_to_lead = kemet_games_to_lead(R->head.m.adj.score, R->head.sd);
    R->secs = 0;
    for (int k = 0; k < NPARTS; k++)
        R->secs += R->part_secs[k];
    return rc;
}

static void work_free(work *W) {
    play_free(&W->weak);
    play_free(&W->strong);
    for (int m = 0; m < NMATCH; m++)
        free(W->out[m]);
    free(W->trace);
    kemet_judge_free(W->j);
    kemet_rules_close(W->r);
    *W = (work){0};
}

/* ------------------------------------------------------------------------
 * The verdict (kemet_verdict)
 * --------------------------------------------------------------------- */

/* The probe that comes nearest search: the highest luck-adjusted score. */
static int best_probe(const result *R) {
    int b = 0;
    for (int k = 1; k < NPROBES; k++)
        if (R->probe[k].m.adj.score > R->probe[b].m.adj.score)
            b = k;
    return b;
}

/* The share of games the turn cap stopped, over the strong and the weak
 * self-play's games together, with Wilson's interval: whether the rules
 * fail to end a game is a property of the rules, and the weak self-play's
 * 1000 games settle it where the strong self-play's hundred or so leave
 * a share of a few percent on either side of the threshold (it flipped
 * between seeds). */
static kemet_stat stopped_pooled(const result *R) {
    const selfplay *P[2] = {&R->strong, &R->weak};
    double k = 0, g = 0;
    for (int i = 0; i < 2; i++) {
        g += (double)P[i]->games;
        k += (double)lround((double)P[i]->games * P[i]->capped.value);
    }
    kemet_stat s = {g > 0 ? k / g : NAN, NAN, NAN};
    if (g > 0)
        kemet_wilson(k, g, 1.96, &s.lo, &s.hi);
    return s;
}

/* Whether step s's stronger agent is shown to be better: its interval
 * wholly above one half (games to lead are given only then). */
static bool shown_better(const step *s) {
    return s->m.adj.lo > 0.5 && !isnan(s->m.adj.lo);
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

/* The verdict's figures of ruleset R from strong play (w = 0) or weak
 * play (w = 1; balance there from the raw result: a draw is a half). */
static kemet_measured measured_of(const result *R, int w) {
    const selfplay *S = w ? &R->weak : &R->strong;
    kemet_measured m;
    m.c[KEMET_CRIT_LENGTH] = S->median;
    /* a median beyond the cap is known only to exceed the cap: where the
     * interval's low end is beyond it too, that end is the cap itself,
     * the turn at which the games were stopped (half of them or more, at
     * which kemet_analysis's median counts them), so that a cap below a
     * flag's threshold does not flag a length it cannot show */
    if (isinf(m.c[KEMET_CRIT_LENGTH].lo))
        m.c[KEMET_CRIT_LENGTH].lo = S->a.median_turns;
    m.c[KEMET_CRIT_DECISIONS] = S->per_turn;
    /* a ratio of counts is never negative, though its normal interval
     * may reach below 0 on a few short games */
    m.c[KEMET_CRIT_DECISIONS].lo = fmax(0, m.c[KEMET_CRIT_DECISIONS].lo);
    /* the strong agent's edge over the weak, held to 0..1 (as the
     * score is): the share of the games its better choices decide, were
     * each game either decided by them or a toss-up */
    const kemet_estimate *hd = &R->head.m.adj;
    m.c[KEMET_CRIT_SKILL] =
        (kemet_stat){edge_of(hd->score), edge_of(hd->lo), edge_of(hd->hi)};
    if (w) {
        long g = S->a.games;
        double k = (double)S->a.wins[0] + (double)S->a.draws / 2;
        m.c[KEMET_CRIT_BALANCE] = (kemet_stat){k / (double)g, NAN, NAN};
        kemet_wilson(k, (double)g, 1.96, &m.c[KEMET_CRIT_BALANCE].lo,
                     &m.c[KEMET_CRIT_BALANCE].hi);
    } else
        m.c[KEMET_CRIT_BALANCE] = S->adv_adj;
    m.c[KEMET_CRIT_TENSION] = S->a.lead_change;
    m.c[KEMET_CRIT_STOPPED] = w ? S->capped : stopped_pooled(R);
    /* held to 0..1, as every luck-adjusted score the report shows */
    const kemet_estimate *e = &R->probe[best_probe(R)].m.adj;
    m.c[KEMET_CRIT_PROBES] =
        (kemet_stat){in_unit(e->score), in_unit(e->lo), in_unit(e->hi)};
    return m;
}

/* The flags of ruleset R under strong play. */
static int flags_of(const result *R) {
    kemet_measured m = measured_of(R, 0);
    int f = 0;
    for (int c = 0; c < KEMET_CRITERIA; c++)
        if (kemet_criterion_flag(c, &m.c[c]))
            f |= 1 << c;
    return f;
}

/* Judges the n rulesets from strong play (w = 0) or weak (w = 1), with
 * criterion `skip` left out (-1: none; then the judgement is kept in
 * R[i].vm, vj); ord[k] is the k-th. */
static void judge(result *R, int n, int w, int skip, int *ord) {
    kemet_measured m[MAX_SETS];
    kemet_judged J[MAX_SETS];
    memset(m, 0, sizeof m);
    for (int i = 0; i < n; i++)
        m[i] = measured_of(&R[i], w);
    kemet_verdict(m, n, skip, J, ord);
    for (int i = 0; i < n && skip < 0; i++) {
        R[i].vm[w] = m[i];
        R[i].vj[w] = J[i];
        if (!w)
            R[i].flags = J[i].flags;
    }
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

/* Why criterion c flags figure s. */
static void flag_detail(FILE *o, int c, const kemet_stat *s) {
    const kemet_criterion *k = kemet_criterion_info(c);
    fprintf(o, "%s ", k->figure);
    put_figure(o, c, s);
    bool below = !isnan(k->flag_lo) && s->hi < k->flag_lo;
    fprintf(o, ", wholly %s ", below ? "below" : "above");
    put_bound(o, c, below ? k->flag_lo : k->flag_hi);
    fprintf(o, ": %s", k->why);
}

/* The weakest point of ruleset R (all[i] its judgement, of n) in words: its
 * flags, or else the criterion that costs it most, with the figure
 * behind it. A flagged ruleset whose penalty alone would place it above
 * unflagged ones says so: the flag, not the penalty, sets it after them. */
static void weakest(FILE *o, const result *R, const kemet_judged *all, int n,
                    int i) {
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
    fprintf(o, "): %s ", k->figure);
    put_figure(o, c, &R->vm[0].c[c]);
    fprintf(o, " against the band ");
    put_band(o, c);
    if (c == KEMET_CRIT_BALANCE)
        fprintf(o, "; the seat that moves %s gains",
                R->vm[0].c[c].value > 0.5 ? "first" : "second");
    else if (c == KEMET_CRIT_SKILL)
        fprintf(o, " between %s and %s", R->head.hi, R->head.lo);
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
            "result's variance). "
            "*Precision reached* gives the games each figure took and the "
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
            st->z.pilot, GROW_ROUNDS, st->z.most, st->z.h, st->z.h,
            100 * MEDIAN_REL * st->z.h, st->z.h / LEAD_DIV, 1 - SHARE_DECIDE,
            st->cap);
    fprintf(o,
            "- **Strong self-play**: %s against itself. Every throw's luck "
            "is measured (`kemet_throw_luck`: how much better the throw "
            "leaves player 1 than the average throw, by the exact tables "
            "where they cover the position, else the learned evaluation), "
            "and player 1's advantage is given as the result less the "
            "luck (luck-adjusted, as GNU Backgammon's variance reduction "
            "and Zare's \"Hedging toward skill\"): the same mean, a far "
            "narrower interval. Tension figures use player 1's chance "
            "before every ply, exact where a table covers the position.\n"
            "- **Weak self-play**: %s against %s, %ld games, as a second "
            "column: how the picture changes with skill.\n"
            "- **The skill ladder**: each agent against the one below it, "
            "in pairs of games that throw alike with the seats swapped, "
            "scored less their luck. A step whose stronger agent scores "
            "below one half beyond its interval is marked **!** and listed "
            "under Contradictions. A luck-adjusted score is an unbiased "
            "estimate and may stray a little outside 0..1 by chance; the "
            "report holds it and its interval to 0..1; two agents that "
            "choose alike score one half with no spread.\n"
            "- **Luck share**: over the games of %s against %s, the share "
            "of the variance of a game's result that the throws' luck "
            "explains: Var(luck) / (Var(luck) + Var(result − luck)). 0 is "
            "a game of pure skill, 1 of pure chance. It is a figure, not a "
            "criterion: the variance it leaves to the choices holds every "
            "move either agent plays unlike the evaluation's choice, even "
            "where the two agents play alike.\n"
            "- **Skill**, the verdict's criterion: the share of the games "
            "that the strong agent's better choices decide against the "
            "weak, 2 × its luck-adjusted score − 1 (were each game either "
            "decided by those choices or a toss-up, the strong agent would "
            "score one half plus half that share), held to 0..1, its "
            "interval from the score's.\n"
            "- **Games to lead**: how many games the stronger player needs "
            "to be ahead at the end with 95%% confidence (one-sided), from "
            "its luck-adjusted score and the spread of one game's "
            "result; given only where the stronger player is shown to be "
            "better (its score's interval wholly above one half).\n"
            "- **SkillTrace**, by the definition of Ludii's metric "
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
            "**kemet's trace**, labelled so and not Ludii's metric: the "
            "same games with every throw's luck measured and taken out of "
            "the stronger agent's result (its utility 2 × the "
            "luck-adjusted score − 1, with its interval), and the same "
            "formula on those; with the luck out, y scatters far less, so "
            "the area measures the deeper search's gain rather than the "
            "noise of a %ld-game match.\n"
            "- **Degeneracy probes**: the simple strategies against %s "
            "(paired, luck-adjusted): *rearmost* always moves the piece "
            "furthest back, *foremost* the piece furthest ahead, "
            "*safe-random* a random move among those that lose at most a "
            "tenth of a win chance one move ahead.\n"
            "- Ludii's names where Ludii defines the figure: Completion, "
            "Drawishness, AdvantageP1, Balance, DurationTurns, "
            "BranchingFactor, LeadChange, Drama, DecisivenessThreshold, "
            "BoardCoverage (the share of the board's holes ever landed on), "
            "SkillTrace.\n\n",
            st->strong, st->weak[0], st->weak[1], st->games, st->strong,
            st->weak[0], TRACE_MATCHES, st->trace_games, st->trace_base,
            st->trace_games, st->strong);
    fprintf(o,
            "## The criteria of the verdict\n\n"
            "Each criterion has a band where it costs nothing and a unit: "
            "a figure outside its band costs its distance from the band in "
            "units (the length in doublings). A ruleset's penalty is the "
            "sum of its costs. Each cost has a range while its figure "
            "stays within its 95%% interval, and the penalty's range "
            "combines them as independent errors, an approximate range "
            "rather than a 95%% interval: it reaches below the "
            "penalty by the root of the sum of the squares of each "
            "cost's reach below its value, and above alike. (The sum of "
            "the ranges themselves, every figure at its worst end at "
            "once, would be far wider than 95%%.) A criterion with a threshold "
            "flags a ruleset only "
            "when the figure's whole interval lies strictly past it; a "
            "flagged ruleset ranks after every unflagged one, in a tier of "
            "its own. A draw the rules provide (an equal score, a jammed "
            "board) is no criterion and never flags; the games the turn "
            "cap stops are one of their own. Where half the games or more "
            "are stopped, the median length lies beyond the cap, known "
            "only to exceed it: its cost and the penalty are then "
            "unbounded (∞), the penalty's range starting where the "
            "length's interval and the other costs' ranges allow.\n\n"
            "**Ties are tiers**, cut at the gaps between penalty ranges: "
            "the unflagged rulesets are sorted by penalty, and a cut "
            "falls between two places only where every range before it "
            "ends below every range after it. Rulesets in different tiers "
            "have ranges that do not overlap, so their order is a "
            "finding; a chain of overlapping ranges is one tier, and "
            "within a tier the order is not a finding. Every flagged "
            "ruleset is in one last tier, listed by its number of flags, "
            "then by penalty; that order is not a finding either.\n\n"
            "| criterion | figure | band (no cost) | a unit of cost | "
            "flagged when the interval lies wholly below | or wholly "
            "above | why |\n|---|---|---|---|---|---|---|\n");
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        const kemet_criterion *k = kemet_criterion_info(c);
        fprintf(o, "| %s | %s | ", k->name, k->figure);
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
        fprintf(o, " | %s |\n", k->why);
    }
    fputc('\n', o);
}

/* The verdict table's header, and its row for ruleset `id`. */
static void verdict_head(FILE *o) {
    fprintf(o, "| tier | ruleset | penalty (range) |");
    for (int c = 0; c < KEMET_CRITERIA; c++)
        fprintf(o, " %s |", kemet_criterion_info(c)->name);
    fprintf(o, " flags |\n|---|---|---|");
    for (int c = 0; c < KEMET_CRITERIA; c++)
        fprintf(o, "---|");
    fprintf(o, "---|\n");
}

static void verdict_row(FILE *o, const char *id, const kemet_judged *J,
                        const kemet_measured *m) {
    if (J->flags)
        fprintf(o, "| %d, flagged | %s |", J->tier, id);
    else
        fprintf(o, "| %d | %s |", J->tier, id);
    fprintf(o, " ");
    put_penalty(o, J);
    fprintf(o, " |");
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        bool f = J->flags >> c & 1;
        fprintf(o, " %s", f ? "**" : "");
        put_figure(o, c, &m->c[c]);
        fprintf(o, "%s [", f ? "**" : "");
        put_cost(o, J->cost[c].value);
        fprintf(o, "] |");
    }
    fprintf(o, " ");
    put_flags(o, J->flags);
    fprintf(o, " |\n");
}

/* What the options of the published readings mean, in words (the rulings
 * KO, CC and TB of docs/rules, and docs/rulesets.md). */
static const struct {
    const char *base, *said;
} option_words[] = {
    {"senet-kendall",
     "pieces=5, five pieces each (KO2); start=1, each player's first "
     "throw must be a 1 (KO3); trap=1, a count passing 26 falls into the "
     "water on 27 (KO4); homerow=1, no bearing off while a piece stands "
     "on 1-10 (KO5)"},
    {"senet-robinson", "the same four options as Kendall's"},
    {"hounds-jackals-carter",
     "board=marked, no lines, and a count or entry ending on a marked "
     "hole (1, 6, 8, 10, 15, 20, 25) or reaching 30 throws again; "
     "board=plain, no lines and no second throws (by default the lines "
     "board: lines from 20 back to 6 and from 10 back to 8, another "
     "throw on 15 and 25; CC4-CC6); dice=d4 or d6, a four- or six-sided "
     "die for the four sticks (R4)"},
    {"tab-58",
     "marks=throw, a count ending on a marked hole earns another turn "
     "(TB7); marks=safe, a piece on a marked hole cannot be captured "
     "(TB6); lines=parallel, a count ending on 6 or 8 goes on to 20 or 10 "
     "(TB8); by default no marks and no lines"},
};

/* A sentence on the options of each base ruleset of board b with a
 * variant among V. */
static void print_options_said(FILE *o, const result *V, int nv, int b) {
    int said = 0;
    for (size_t w = 0; w < sizeof option_words / sizeof option_words[0]; w++) {
        bool has = false;
        for (int i = 0; i < nv && !has; i++)
            has =
                V[i].board == b && strcmp(V[i].base, option_words[w].base) == 0;
        if (!has)
            continue;
        fprintf(o, "%s%s: %s",
                said++ ? "; "
                       : "A variant is named by its "
                         "ruleset and the options it "
                         "changes. ",
                option_words[w].base, option_words[w].said);
    }
    if (said)
        fprintf(o, ".\n\n");
}

/* "Which Senet?" and "Which 58 holes?": the readings of each board, the
 * base rulesets and their variants together, in tiers by the verdict's
 * criteria among themselves (a variant has no ladder or SkillTrace, and
 * the verdict uses neither). */
/* The readings of board b (BOARD_*) among the rulesets R and variants V,
 * judged among themselves. */
typedef struct board_verdict {
    const result *x[MAX_SETS + MAX_VARIANTS];
    kemet_measured m[MAX_SETS + MAX_VARIANTS];
    kemet_judged J[MAX_SETS + MAX_VARIANTS];
    int k, nbase, ord[MAX_SETS + MAX_VARIANTS];
} board_verdict;

/* The readings of board b judged into *B (B->k of them; none judged
 * below two). */
static void judge_board(const result *R, int n, const result *V, int nv, int b,
                        board_verdict *B) {
    B->k = B->nbase = 0;
    for (int i = 0; i < n + nv; i++) {
        const result *y = i < n ? &R[i] : &V[i - n];
        if (y->board != b)
            continue;
        B->nbase += i < n;
        B->x[B->k] = y;
        B->m[B->k++] = measured_of(y, 0);
    }
    if (B->k >= 2)
        kemet_verdict(B->m, B->k, -1, B->J, B->ord);
}

static const char *const board_title[NBOARDS] = {NULL, "Which Senet?",
                                                 "Which 58 holes?"};

static void print_boards(FILE *o, const result *R, int n, const result *V,
                         int nv) {
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
        verdict_head(o);
        for (int q = 0; q < k; q++) {
            int i = B->ord[q];
            verdict_row(o, B->x[i]->id, &B->J[i], &B->m[i]);
        }
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

/* The first tier of a verdict, as "a, b and c": of the n rulesets x[],
 * judged J[], in the order ord, those of tier 1 and not flagged. */
static void first_tier(FILE *o, const int *ord, int n, const kemet_judged *J,
                       const result *const *x) {
    int t = tier1_count(ord, n, J);
    for (int k = 0; k < t; k++)
        fprintf(o, "%s%s",
                k == 0       ? ""
                : k == t - 1 ? " and "
                             : ", ",
                x[ord[k]]->id);
    if (t == 0)
        fprintf(o, "none (every reading is flagged)");
}

/* The findings in plain words, from the verdict already made (judge). */
static void print_abstract(FILE *o, const result *R, int n, const result *V,
                           int nv, const settings *st) {
    int ord[MAX_SETS], nb[NBOARDS] = {0};
    const result *x[MAX_SETS];
    kemet_judged J[MAX_SETS];
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
            "of %ld games stopped it (*Precision reached*). Judged on stated "
            "criteria of a good game "
            "(a game of one sitting, real decisions, a result decided in "
            "part by skill, balance, tension) and of a game that fails "
            "(games the rules cannot end, simple habits as good as search), "
            "%s",
            st->strong, st->z.h, st->z.most,
            tier1_count(ord, n, J) == 1
                ? "the first tier holds "
                : "the first tier, a chain of overlapping penalty ranges "
                  "within which the order is not a finding, is ");
    first_tier(o, ord, n, J, x);
    fprintf(o, "%s.",
            tier1_count(ord, n, J) == 1
                ? " alone, its penalty range clear of every other's"
                : "");
    /* the criterion the agents bound: the first tier without it */
    kemet_measured m[MAX_SETS];
    kemet_judged J2[MAX_SETS];
    int o2[MAX_SETS];
    for (int i = 0; i < n; i++)
        m[i] = measured_of(&R[i], 0);
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
        fprintf(o, " Without the skill criterion, which the agents bound "
                   "(*Limitations*), the first tier would be ");
        first_tier(o, o2, n, J2, x);
        fprintf(o, ".");
    }
    int flagged = 0;
    for (int i = 0; i < n; i++)
        flagged += R[i].flags != 0;
    if (flagged) {
        fprintf(o,
                " %d %s flagged, ranked last whatever %s other "
                "figures:",
                flagged, flagged == 1 ? "is" : "are",
                flagged == 1 ? "its" : "their");
        int said = 0;
        for (int k = 0; k < n; k++) {
            const result *y = &R[ord[k]];
            if (!y->flags)
                continue;
            fprintf(o, "%s %s (", said++ ? "," : "", y->id);
            put_flags(o, y->flags);
            fprintf(o, ")");
        }
        fprintf(o, ".");
    }
    board_verdict B[1];
    for (int b = BOARD_SENET; b < NBOARDS; b++) {
        judge_board(R, n, V, nv, b, B);
        if (B->k < 2)
            continue;
        fprintf(o,
                " **%s** Of the %d readings of %s measured here, the first "
                "tier is ",
                board_title[b], B->k,
                b == BOARD_SENET ? "Senet's board" : "the 58 holes");
        first_tier(o, B->ord, B->k, B->J, B->x);
        fprintf(o, ".");
    }
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
    if (lo >= 0 && lo != hi)
        fprintf(o,
                " Against %s, the strong agent's better choices decide "
                "from %.2f (%.2f–%.2f) of the games (%s) to %.2f "
                "(%.2f–%.2f) (%s); the rest are decided by the throws and "
                "by play that %s sees as well.",
                st->weak[0], R[lo].vm[0].c[KEMET_CRIT_SKILL].value,
                R[lo].vm[0].c[KEMET_CRIT_SKILL].lo,
                R[lo].vm[0].c[KEMET_CRIT_SKILL].hi, R[lo].id,
                R[hi].vm[0].c[KEMET_CRIT_SKILL].value,
                R[hi].vm[0].c[KEMET_CRIT_SKILL].lo,
                R[hi].vm[0].c[KEMET_CRIT_SKILL].hi, R[hi].id, st->weak[0]);
    fprintf(o, " These are findings about the rules as these agents play "
               "them, not about which reading is the ancient one "
               "(*Limitations*).\n\n");
}

/* What the measurement can and cannot show. */
static void print_limits(FILE *o, const settings *st) {
    fprintf(o,
            "## Limitations\n\n"
            "- **The agents bound what skill can show.** The skill criterion, "
            "the ladder and SkillTrace measure how much *these* agents gain by "
            "playing better; a ruleset may reward a depth of play that no "
            "agent here reaches. The strong agent (%s) is measured against "
            "perfect play where an exact endgame table reaches (*Perfect play "
            "where an exact table reaches*), and elsewhere only against the "
            "agents below it. The skill criterion's share is therefore a "
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
            "leaving each one out changes. Length in turns stands for playing "
            "time at about 20 seconds a turn.\n"
            "- **The turn cap (%ld turns)** stops a game that the rules do not "
            "end; such games count as their own criterion, and the lengths "
            "are censored there.\n"
            "- **The rules are the readings as kemet plays them** (docs/rules: "
            "each rule traced to code and test). Where a source is silent the "
            "project's rulings decide; another ruling is another variant. "
            "Nothing here says which reading is historically right: a good "
            "game need not be the ancient one.\n\n",
            st->strong, st->cap);
}

/* The works the method rests on. */
static void print_references(FILE *o) {
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
}

/* The verdict of the same settings at another seed, read back from the
 * --save folder: each ruleset's tier there, and how it compares. */
#define MAX_SEEDS 4
typedef struct seed_verdict {
    uint64_t seed;
    int tier[MAX_SETS], flags[MAX_SETS], ord[MAX_SETS];
} seed_verdict;

/* Who each reading is by, so that a reader need not know the ids, and
 * where each was published, so that a reader can check it. */
static void print_readings(FILE *o, const result *R, int n) {
    fprintf(o, "## The readings measured\n\n"
               "Each ruleset is one published reading of its board's "
               "rules, as kemet plays it (docs/rules); `kemet rules ID` "
               "gives its rules in full.\n\n| ruleset | game | rules by | "
               "what sets it apart |\n|---|---|---|---|\n");
    bool own = false; /* a reading on a board kemet reconstructs */
    for (int i = 0; i < n; i++) {
        kemet_rules *r = NULL;
        const kemet_info *f = NULL;
        if (kemet_rules_open(R[i].base, &r, NULL) == KEMET_OK)
            f = kemet_rules_info(r);
        own |= f && f->board_note;
        fprintf(o, "| %s | %s | ", R[i].id, R[i].title);
        if (f && f->author && f->year)
            fprintf(o, "%s, %d", f->author, f->year);
        else if (f && f->author)
            fprintf(o, "%s, year not given", f->author);
        else
            fprintf(o, "—");
        fprintf(o, " | %s%s |\n", f && f->about ? f->about : "—",
                f && f->board_note ? " The board is a reconstruction." : "");
        kemet_rules_close(r);
    }
    fprintf(o, "\n**Where each was published**, and which of its rules "
               "kemet plays (the rulings named are in docs/rulings.md and "
               "docs/reconstructions.md; docs/rules/ID.md traces each rule "
               "to the code and the test that covers it):\n\n");
    for (int i = 0; i < n; i++) {
        kemet_rules *r = NULL;
        const kemet_info *f = NULL;
        if (kemet_rules_open(R[i].base, &r, NULL) == KEMET_OK)
            f = kemet_rules_info(r);
        fprintf(o, "- **%s**: %s.\n", R[i].id,
                f && f->source ? f->source : "not given");
        kemet_rules_close(r);
    }
    if (own)
        fprintf(o, "\nA reconstructed board is kemet's, drawn where the "
                   "rules' text gives no diagram (docs/boards.md); a "
                   "reading on such a board stands among the other boards, "
                   "not among the readings of Senet's board or of the 58 "
                   "holes.\n");
    fprintf(o, "\n");
}

/* The verdict, with those of the nsv other seeds kept. */
static void print_verdict(FILE *o, result *R, int n, const seed_verdict *sv,
                          int nsv, const settings *st) {
    int ord[MAX_SETS], weak[MAX_SETS];
    judge(R, n, 1, -1, weak);
    judge(R, n, 0, -1, ord);
    fprintf(o, "## Verdict\n\n");
    verdict_head(o);
    for (int k = 0; k < n; k++)
        verdict_row(o, R[ord[k]].id, &R[ord[k]].vj[0], &R[ord[k]].vm[0]);
    fprintf(o, "\nEach cell: the figure with its 95%% interval, then its "
               "cost in square brackets; a flagged figure in bold. The "
               "figures are those of the criteria table above; the probe "
               "shown is the simple strategy that comes nearest "
               "search.\n\n**Each reconstruction's weakest point**:\n\n");
    kemet_judged jv[MAX_SETS];
    for (int i = 0; i < n; i++)
        jv[i] = R[i].vj[0];
    for (int k = 0; k < n; k++) {
        fprintf(o, "- **%s**: ", R[ord[k]].id);
        weakest(o, &R[ord[k]], jv, n, ord[k]);
        fprintf(o, ".\n");
    }
    double ts[MAX_SETS], tw[MAX_SETS];
    for (int i = 0; i < n; i++) {
        ts[i] = R[i].vj[0].tier;
        tw[i] = R[i].vj[1].tier;
    }
    long opp = 0;
    double tau = kemet_tau_b(ts, tw, n, &opp);
    fprintf(o, "\n**How the verdict depends on the agents.** Judged on the "
               "same criteria with the weak self-play's figures (balance "
               "from the raw result, decisions, length, tension and the "
               "stopped share of weak play; the skill and the probes, which "
               "need the strong agent, are the same in both), the tiers "
               "are:");
    for (int k = 0; k < n; k++)
        fprintf(o, "%s %s (%d)", k ? "," : "", R[weak[k]].id,
                R[weak[k]].vj[1].tier);
    if (isnan(tau))
        fprintf(o, "; Kendall's tau-b between the two is undefined (one "
                   "puts every ruleset in one tier)");
    else
        fprintf(o,
                "; Kendall's tau-b between the two verdicts' tiers is "
                "%.2f (1 would be the same order)",
                tau);
    fprintf(o, "; %ld pair%s of rulesets %s in opposite tiers.\n\n", opp,
            opp == 1 ? "" : "s", opp == 1 ? "is" : "are");
    fprintf(o, "**How it moves with the seed.** ");
    if (nsv == 0)
        fprintf(o, "No other seed's measurements of these settings were "
                   "found. Run the same command with another `--seed` and "
                   "the same `--save` folder, and each report compares the "
                   "verdicts of the seeds kept there.\n\n");
    for (int k = 0; k < nsv; k++) {
        const seed_verdict *v = &sv[k];
        double mine[MAX_SETS], theirs[MAX_SETS];
        for (int i = 0; i < n; i++) {
            mine[i] = R[i].vj[0].tier;
            theirs[i] = v->tier[i];
        }
        long opp_k = 0;
        double tau_k = kemet_tau_b(mine, theirs, n, &opp_k);
        fprintf(o,
                "%sThe same settings at seed %llu (measured by a run kept in "
                "`%s`) give the tiers:",
                k ? " " : "", (unsigned long long)v->seed, st->save);
        for (int q = 0; q < n; q++) {
            int i = v->ord[q];
            fprintf(o, "%s %s (%d%s)", q ? "," : "", R[i].id, v->tier[i],
                    v->flags[i] ? ", flagged" : "");
        }
        if (isnan(tau_k))
            fprintf(o, "; Kendall's tau-b against this seed's is undefined");
        else
            fprintf(o, "; Kendall's tau-b against this seed's tiers is %.2f",
                    tau_k);
        fprintf(o,
                ", and %ld pair%s of rulesets %s in opposite strict "
                "order.",
                opp_k, opp_k == 1 ? "" : "s", opp_k == 1 ? "is" : "are");
    }
    if (nsv)
        fprintf(o, "\n\n");
    fprintf(o, "**How it depends on each criterion.** Leaving one "
               "criterion out in turn, the first tier is:\n\n");
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        int t[MAX_SETS];
        kemet_measured m[MAX_SETS];
        kemet_judged J[MAX_SETS];
        memset(m, 0, sizeof m);
        for (int i = 0; i < n; i++)
            m[i] = R[i].vm[0];
        kemet_verdict(m, n, c, J, t);
        fprintf(o, "- without %s:", kemet_criterion_info(c)->name);
        for (int k = 0; k < n && J[t[k]].tier == 1; k++)
            fprintf(o, "%s %s%s", k ? "," : "", R[t[k]].id,
                    J[t[k]].flags ? " (flagged)" : "");
        fprintf(o, ".\n");
    }
    fputc('\n', o);
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
static int few_figures(FILE *o, const result *R, int n, const settings *st,
                       int *all) {
    int count = 0;
    *all = 0;
    for (int i = 0; i < n; i++) {
        const result *x = &R[i];
        few_games(o, &count, x->id, st->strong, "", x->strong.games);
        few_games(o, &count, x->id, x->head.hi, x->head.lo, x->head.games);
        for (int k = 0; k < x->nsteps; k++)
            few_games(o, &count, x->id, x->ladder[k].hi, x->ladder[k].lo,
                      x->ladder[k].games);
        for (int k = 0; k < NPROBES; k++)
            few_games(o, &count, x->id, x->probe[k].hi, x->probe[k].lo,
                      x->probe[k].games);
        *all += 2 + x->nsteps + NPROBES;
    }
    return count;
}

/* The precision each figure reached. */
static void print_precision(FILE *o, const result *R, int n,
                            const settings *st) {
    double h = st->z.h;
    fprintf(o,
            "\n## Precision reached\n\nThe games each figure took and the "
            "half-width of its 95%% interval; \\* marks a half-width over "
            "its target (±%.3f; the median ±%.0f%% of itself; LeadChange "
            "±%.4f). A starred figure that took the cap (%ld games) was "
            "stopped by it; one that took fewer was sized by its last "
            "sizing (the %dth) from a spread that proved too small; its "
            "interval is over all its games either way.\n\n| ruleset | "
            "strong self-play, games | P1 score | median length | "
            "LeadChange | strong vs weak, games | score | luck share | "
            "ladder steps, games | widest step | probes, games | widest "
            "probe |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
            h, 100 * MEDIAN_REL * h, h / LEAD_DIV, st->z.most, GROW_ROUNDS);
    for (int i = 0; i < n; i++) {
        const result *x = &R[i];
        fprintf(o, "| %s | %ld |", x->id, x->strong.games);
        put_half(o, &x->strong.adv_adj, h, false, 3);
        put_half(o, &x->strong.median, MEDIAN_REL * h, true, 1);
        put_half(o, &x->strong.a.lead_change, h / LEAD_DIV, false, 4);
        kemet_stat hs = est_stat(&x->head.m.adj);
        fprintf(o, " %ld |", x->head.games);
        put_half(o, &hs, h, false, 3);
        put_half(o, &x->head.share, h, false, 3);
        kemet_stat wide = {NAN, NAN, NAN};
        long lo = 0, hi = 0;
        for (int k = 0; k < x->nsteps; k++) {
            kemet_stat e = est_stat(&x->ladder[k].m.adj);
            if (isnan(wide.value) || half_of(&e, false) > half_of(&wide, false))
                wide = e;
            long g = x->ladder[k].games;
            lo = !k || g < lo ? g : lo;
            hi = g > hi ? g : hi;
        }
        if (x->nsteps)
            fprintf(o, " %ld–%ld |", lo, hi);
        else
            fprintf(o, " — |");
        put_half(o, &wide, h, false, 3);
        wide = (kemet_stat){NAN, NAN, NAN};
        lo = hi = 0;
        for (int k = 0; k < NPROBES; k++) {
            kemet_stat e = est_stat(&x->probe[k].m.adj);
            if (isnan(wide.value) || half_of(&e, false) > half_of(&wide, false))
                wide = e;
            long g = x->probe[k].games;
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
static bool say_contradiction(FILE *o, const char *id, const step *s,
                              bool said) {
    if (!s->contradiction)
        return false;
    if (!said)
        fprintf(o, "\n**Contradictions** (a stronger agent losing beyond "
                   "its interval; each step's interval misses its true "
                   "score one time in twenty, so among many steps one may "
                   "by chance):\n\n");
    fprintf(o, "- %s: %s scores %.3f (%.3f–%.3f) against %s over %ld games.\n",
            id, s->hi, s->m.adj.score, s->m.adj.lo, s->m.adj.hi, s->lo,
            s->games);
    return true;
}

static void print_md(FILE *o, result *R, int n, result *V, int nv,
                     const settings *st, const char *link, int argc,
                     char **argv, double secs, int threads,
                     const seed_verdict *sv, int nsv) {
    fprintf(o, "# Which reconstruction makes the best game?\n\nGenerated by "
               "`kemet");
    for (int i = 0; i < argc; i++)
        fprintf(o, " %s", argv[i]);
    int earlier = 0;
    for (int i = 0; i < n + nv; i++)
        earlier += (i < n ? &R[i] : &V[i - n])->earlier;
    fprintf(o,
            "` in %.0f s of wall time on %d thread%s and %d process%s%s; do "
            "not edit by hand. Seed %llu. Figures in brackets are 95%% "
            "intervals.\n\n",
            secs, threads, threads == 1 ? "" : "s", cli_mpi_size(),
            cli_mpi_size() == 1 ? "" : "es",
            st->save ? ", each ruleset measured alone (`--save`)" : "",
            (unsigned long long)st->seed);
    if (earlier)
        fprintf(o,
                "%d of the %d rulesets were measured by earlier runs of the "
                "same command and read back from their kept measurements "
                "(`--save`, docs/cluster.md); the time above includes "
                "theirs.\n\n",
                earlier, n + nv);
    print_abstract(o, R, n, V, nv, st); /* (judged by cmd_analyze) */
    print_readings(o, R, n);
    print_method(o, st);
    print_verdict(o, R, n, sv, nsv, st);

    fprintf(o, "## Outcomes and balance\n\n| ruleset | P1 score, strong, "
               "luck-adjusted | AdvantageP1 %%, strong | AdvantageP1 %%, weak "
               "| Drawishness %%, strong | Completion %%, strong |\n"
               "|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        fprintf(o, "| %s |", R[i].id);
        md_stat(o, &R[i].strong.adv_adj, 1, 4);
        md_stat(o, &R[i].strong.a.advantage_p1, 100, 1);
        md_stat(o, &R[i].weak.a.advantage_p1, 100, 1);
        md_stat(o, &R[i].strong.a.drawishness, 100, 1);
        md_stat(o, &R[i].strong.a.completion, 100, 1);
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
        const kemet_analysis *a = &R[i].strong.a;
        fprintf(o, "| %s | ", R[i].id);
        put_figure(o, KEMET_CRIT_LENGTH, &R[i].strong.median);
        fprintf(o, " |");
        md_stat(o, &a->duration_turns, 1, 1);
        fprintf(o, " %.1f | ", a->sd_turns);
        put_figure(o, KEMET_CRIT_LENGTH, &R[i].weak.median);
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
        const kemet_analysis *a = &R[i].strong.a;
        fprintf(o, "| %s |", R[i].id);
        md_stat(o, &a->lost_throws, 100, 1);
        md_stat(o, &a->forced_moves, 100, 1);
        fprintf(o, " %.1f |", R[i].strong.decisions);
        md_stat(o, &a->choices, 1, 2);
        md_stat(o, &a->branching_factor, 1, 2);
        fprintf(o, " %.2f |\n", R[i].strong.coverage);
    }
    fprintf(o, "\nUnder strong play; shares are of all throws.\n");
    if (link) {
        fprintf(o, "\nWhere do the pieces land? Arrivals a game on each hole "
                   "under strong play, darker more often:\n");
        for (int i = 0; i < n; i++)
            fprintf(o, "\n![Where pieces land in %s](%s/land-%s.svg)\n",
                    R[i].id, link, R[i].id);
    }

    fprintf(o, "\n## Tension\n\n| ruleset | LeadChange, strong | Drama, "
               "strong | DecisivenessThreshold, strong | LeadChange, weak "
               "|\n|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const kemet_analysis *a = &R[i].strong.a;
        fprintf(o, "| %s |", R[i].id);
        md_unit(o, &a->lead_change);
        md_unit(o, &a->drama);
        md_unit(o, &a->decisiveness_threshold);
        md_unit(o, &R[i].weak.a.lead_change);
        fputc('\n', o);
    }
    md_plot(o, link, "chances.svg",
            "How does a game swing? Player 1's chance through sample games "
            "of strong play");

    fprintf(o, "\n## Skill\n\n### The ladder\n\nEach cell: the upper "
               "agent's luck-adjusted score against the agent before it, "
               "its interval and the games played.\n\n| ruleset |");
    for (int k = 0; k < R[0].nsteps; k++)
        fprintf(o, " %s vs %s |", R[0].ladder[k].hi, R[0].ladder[k].lo);
    fprintf(o, "\n|---|");
    for (int k = 0; k < R[0].nsteps; k++)
        fprintf(o, "---|");
    fputc('\n', o);
    for (int i = 0; i < n; i++) {
        fprintf(o, "| %s |", R[i].id);
        for (int k = 0; k < R[i].nsteps; k++) {
            const step *s = &R[i].ladder[k];
            fprintf(o, " %s%.3f (%.3f–%.3f), %ld |",
                    s->contradiction ? "**!** " : "", held(&s->m.adj),
                    s->m.adj.lo, s->m.adj.hi, s->games);
        }
        fputc('\n', o);
    }
    /* The strong agent's budget: what the step above it gains. */
    for (int k = 0; k < R[0].nsteps; k++) {
        if (strcmp(R[0].ladder[k].lo, st->strong) != 0)
            continue;
        int above = 0, same = 0;
        for (int i = 0; i < n; i++) {
            above += R[i].ladder[k].m.adj.lo > 0.5;
            same += R[i].ladder[k].m.adj.lo <= 0.5;
        }
        fprintf(o,
                "\nThe strong agent of the self-play, %s, stands where the "
                "step above it (%s, with four times the budget or more) "
                "gains nothing measurable in %d of %d rulesets",
                st->strong, R[0].ladder[k].hi, same, n);
        if (above) {
            fprintf(o, "; it gains in");
            for (int i = 0, first = 1; i < n; i++)
                if (R[i].ladder[k].m.adj.lo > 0.5) {
                    fprintf(o, "%s %s (%.3f)", first ? "" : ",", R[i].id,
                            R[i].ladder[k].m.adj.score);
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
        for (int k = 0; k < R[i].nsteps; k++)
            any |= say_contradiction(o, R[i].id, &R[i].ladder[k], any);
        any |= say_contradiction(o, R[i].id, &R[i].head, any);
    }
    if (!any)
        fprintf(o, "\nNo step goes the wrong way: no stronger agent scores "
                   "below one half beyond its interval.\n");
    /* steps whose two agents made the same choice in every game */
    int alike = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < R[i].nsteps; k++) {
            const kemet_estimate *e = &R[i].ladder[k].m.adj;
            if (e->hi - e->lo > 1e-9 || fabs(e->score - 0.5) > 1e-9)
                continue;
            fprintf(o, "%s %s (%s vs %s)",
                    alike++ ? ","
                            : "\nThe upper agent chose as the lower "
                              "one in every game of",
                    R[i].id, R[i].ladder[k].hi, R[i].ladder[k].lo);
        }
    if (alike)
        fprintf(o, ": the same moves, so one half with no spread. There the "
                   "larger budget changes nothing: the exact endgame table "
                   "decides, or a turn offers so many moves for so many "
                   "throws that the search does not look past the first "
                   "move.\n");

    fprintf(o,
            "\n### Luck and skill\n\n| ruleset | %s vs %s, luck-adjusted | "
            "raw score | luck share | games to lead | SkillTrace "
            "(Ludii's, %ld games a match) | kemet's trace (the same "
            "games, luck-adjusted) |\n"
            "|---|---|---|---|---|---|---|\n",
            st->strong, st->weak[0], st->trace_games);
    for (int i = 0; i < n; i++) {
        const step *h = &R[i].head;
        fprintf(o, "| %s |", R[i].id);
        md_est(o, &h->m.adj);
        fprintf(o, " %.3f (%.3f–%.3f) |", h->m.score, h->m.score_lo,
                h->m.score_hi);
        md_unit(o, &h->share);
        if (!shown_better(&R[i].head))
            fprintf(o, " — |");
        else
            fprintf(o, " %.0f |", R[i].games_to_lead);
        if (isnan(R[i].skill_trace))
            fprintf(o, " — |");
        else
            fprintf(o, " %.3f |", R[i].skill_trace);
        if (isnan(R[i].skill_trace_adj))
            fprintf(o, " — |\n");
        else
            fprintf(o, " %.3f |\n", R[i].skill_trace_adj);
    }
    fprintf(o, "\nIn words:\n\n");
    for (int i = 0; i < n; i++) {
        const step *h = &R[i].head;
        fprintf(o,
                "- **%s**: the throws' luck explains about %.0f%% of the "
                "variance of a game's result; ",
                R[i].id, 100 * h->luck_share);
        if (!shown_better(h))
            fprintf(o,
                    "%s is not shown to be better than %s: it scores "
                    "%.3f (%.3f–%.3f) with the luck taken out.\n",
                    h->hi, h->lo, h->m.adj.score, fmax(0, h->m.adj.lo),
                    fmin(1, h->m.adj.hi));
        else
            fprintf(o,
                    "%s scores %.3f (%.3f–%.3f) against %s with the luck "
                    "taken out, so its better choices decide about %.0f%% "
                    "of the games, and it needs a match of about %.0f "
                    "game%s to be ahead at the end 19 times in 20.\n",
                    h->hi, h->m.adj.score, h->m.adj.lo, fmin(1, h->m.adj.hi),
                    h->lo, 100 * edge_of(h->m.adj.score), R[i].games_to_lead,
                    R[i].games_to_lead == 1 ? "" : "s");
    }
    bool tabled = false;
    for (int i = 0; i < n; i++)
        tabled |= !isnan(R[i].strong.exact_decisions);
    if (tabled) {
        fprintf(o,
                "\n### Perfect play where an exact table reaches\n\nIn the "
                "positions an exact endgame table covers, every move's value "
                "is known, so what perfect play is worth there is measured "
                "exactly: at each real decision of the strong self-play in "
                "the table's phase, the move the linear evaluation alone "
                "would choose (one move ahead, as greedy@plain) against the "
                "best.\n\n| ruleset | table | decisions a game in its "
                "phase | the linear evaluation's wrong choices | win chance "
                "it gives away a game, both sides |\n|---|---|---|---|---|\n");
        for (int i = 0; i < n; i++) {
            const selfplay *S = &R[i].strong;
            if (isnan(S->exact_decisions))
                continue;
            fprintf(o, "| %s | %d pieces a side | %.2f |", R[i].id,
                    R[i].table_pieces, S->exact_decisions);
            if (isnan(S->plain_errors))
                fprintf(o, " — | — |\n");
            else
                fprintf(o, " %.1f%% | %.2f%% |\n", 100 * S->plain_errors,
                        100 * S->plain_loss);
        }
    }

    fprintf(o, "\nSkillTrace's matches (budgets in positions): in each "
               "cell Ludii's y, the stronger agent's mean utility (win 1, "
               "draw 0, loss −1), then kemet's, the same games' utility "
               "with the throws' luck taken out, with its 95%% "
               "interval:\n\n| ruleset |");
    for (int k = 0; k < TRACE_MATCHES; k++)
        fprintf(o, " %ld vs %ld |", st->trace_base << (k + 1),
                st->trace_base << k);
    fprintf(o, "\n|---|");
    for (int k = 0; k < TRACE_MATCHES; k++)
        fprintf(o, "---|");
    fputc('\n', o);
    for (int i = 0; i < n; i++) {
        fprintf(o, "| %s |", R[i].id);
        for (int k = 0; k < TRACE_MATCHES; k++) {
            const kemet_stat *a = &R[i].trace_adj[k];
            fprintf(o, " %+.2f; %+.2f (%+.2f–%+.2f) |", R[i].trace_y[k],
                    a->value, a->lo, a->hi);
        }
        fputc('\n', o);
    }

    fprintf(o,
            "\n## Degeneracy\n\nEach simple strategy's luck-adjusted score "
            "against %s (one half: as good as search).\n\n| ruleset |",
            st->strong);
    for (int k = 0; k < NPROBES; k++)
        fprintf(o, " %s |", probe_name[k]);
    fprintf(o, " flags |\n|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        fprintf(o, "| %s |", R[i].id);
        for (int k = 0; k < NPROBES; k++)
            md_est(o, &R[i].probe[k].m.adj);
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
                fprintf(o, "- %s, %s: ", R[i].id,
                        kemet_criterion_info(c)->name);
                flag_detail(o, c, &R[i].vm[0].c[c]);
                fprintf(o, ".\n");
            }
    print_precision(o, R, n, st);

    print_boards(o, R, n, V, nv);

    if (nv > 0) {
        fprintf(o,
                "\n## Options and variants\n\nEach variant measured as "
                "its own game, the same way, but for the skill ladder and "
                "SkillTrace, which this table does not show (name a "
                "variant as a ruleset to have them): the base rulesets "
                "first, then the variants. *No choice %%*: the throws "
                "that leave no choice, lost or forced, as a share of all "
                "throws.\n\n| ruleset | P1 score, "
                "luck-adjusted | median turns | no choice %% | luck share "
                "| LeadChange | %s vs %s | flags |\n"
                "|---|---|---|---|---|---|---|---|\n",
                st->strong, st->weak[0]);
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < (pass ? nv : n); i++) {
                const result *x = pass ? &V[i] : &R[i];
                /* the groups: the Senets (with and without the rethrow)
                 * and every base of a variant */
                bool show = pass == 1 || strncmp(x->id, "senet-", 6) == 0;
                for (int k = 0; !pass && k < nv && !show; k++)
                    show = strcmp(V[k].base, x->id) == 0;
                if (!show)
                    continue;
                const selfplay *S = &x->strong;
                fprintf(o, "| %s |", x->id);
                md_stat(o, &S->adv_adj, 1, 3);
                fprintf(o, " ");
                put_figure(o, KEMET_CRIT_LENGTH, &S->median);
                fprintf(o, " | %.0f |",
                        100 *
                            (S->a.forced_moves.value + S->a.lost_throws.value));
                md_unit(o, &x->head.share);
                md_unit(o, &S->a.lead_change);
                md_est(o, &x->head.m.adj);
                fprintf(o, " ");
                put_flags(o, flags_of(x));
                fprintf(o, " |\n");
            }
        bool kendall = false, robinson = false;
        for (int i = 0; i < n; i++) {
            kendall |= strcmp(R[i].id, "senet-kendall") == 0;
            robinson |= strcmp(R[i].id, "senet-robinson") == 0;
        }
        if (kendall && robinson)
            fprintf(o, "\nsenet-kendall and senet-robinson are Senet without "
                       "and with Robinson's rethrow.\n");
    }
    fprintf(o, "\n## Time\n\n%s\n\n| ruleset |",
            cli_mpi_size() > 1
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
    for (int k = 0; k < NPARTS; k++)
        fprintf(o, " %s |", part_name[k]);
    fprintf(o, " all | exact endgame table |\n|---|");
    for (int k = 0; k < NPARTS; k++)
        fprintf(o, "---|");
    fprintf(o, "---|---|\n");
    double sum[NPARTS] = {0}, base = 0;
    for (int i = 0; i < n + nv; i++) {
        const result *x = i < n ? &R[i] : &V[i - n];
        if (i == n) { /* the rulesets named, then the variants */
            fprintf(o, "| **the %d ruleset%s** |", n, n == 1 ? "" : "s");
            for (int k = 0; k < NPARTS; k++)
                fprintf(o, " %.1f |", sum[k]);
            fprintf(o, " **%.1f** | |\n", base);
        }
        fprintf(o, "| %s |", x->id);
        for (int k = 0; k < NPARTS; k++) {
            fprintf(o, " %.1f |", x->part_secs[k]);
            sum[k] += x->part_secs[k];
        }
        fprintf(o, " %.1f |", x->secs);
        base += i < n ? x->secs : 0;
        if (x->table_pieces)
            fprintf(o, " %d pieces a side |\n", x->table_pieces);
        else
            fprintf(o, " none |\n");
    }
    fprintf(o, "| **all** |");
    double all = 0;
    for (int k = 0; k < NPARTS; k++) {
        fprintf(o, " %.1f |", sum[k]);
        all += sum[k];
    }
    fprintf(o, " **%.1f** | |\n\n", cli_mpi_size() > 1 ? secs : all);
    if (cli_mpi_size() == 1 && earlier)
        fprintf(o,
                "The games took %.1f s of thread time, and %.1f s of wall "
                "time, the sum of each ruleset's own measurement: %d of "
                "them were measured by earlier runs, each on its own "
                "threads and alongside whatever else the machine ran then, "
                "so the two are not compared here.\n\n",
                all, secs, earlier);
    else if (cli_mpi_size() == 1 && secs > 0)
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
    print_limits(o, st);
    print_references(o);
}

static void csv_stat(FILE *o, const kemet_stat *s) {
    fprintf(o, ",%.6g,%.6g,%.6g", s->value, s->lo, s->hi);
}

static void print_csv(FILE *o, const result *R, int n) {
    fprintf(o, "ruleset,games,median_turns,AdvantageP1Adjusted,lo,hi,"
               "AdvantageP1,lo,hi,DurationTurns,lo,hi,LostThrows,lo,hi,"
               "ForcedMoves,lo,hi,LeadChange,lo,hi,Drama,lo,hi,"
               "DecisivenessThreshold,lo,hi,BoardCoverage,LuckShare,"
               "GamesToLead,SkillTrace,StrongVsWeak,lo,hi\n");
    for (int i = 0; i < n; i++) {
        const selfplay *S = &R[i].strong;
        fprintf(o, "%s,%ld,%.6g", R[i].id, S->games, S->a.median_turns);
        csv_stat(o, &S->adv_adj);
        csv_stat(o, &S->a.advantage_p1);
        csv_stat(o, &S->a.duration_turns);
        csv_stat(o, &S->a.lost_throws);
        csv_stat(o, &S->a.forced_moves);
        csv_stat(o, &S->a.lead_change);
        csv_stat(o, &S->a.drama);
        csv_stat(o, &S->a.decisiveness_threshold);
        fprintf(o, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", S->coverage,
                R[i].head.luck_share, R[i].games_to_lead, R[i].skill_trace,
                R[i].head.m.adj.score, R[i].head.m.adj.lo, R[i].head.m.adj.hi);
    }
}

static void json_num(FILE *o, double x) {
    if (isnan(x) || isinf(x))
        fprintf(o, "null");
    else
        fprintf(o, "%.6g", x);
}

static void json_stat_only(FILE *o, const kemet_stat *s) {
    fprintf(o, "{\"value\":");
    json_num(o, s->value);
    fprintf(o, ",\"ci95\":[");
    json_num(o, s->lo);
    fputc(',', o);
    json_num(o, s->hi);
    fprintf(o, "]}");
}

static void json_stat(FILE *o, const char *name, const kemet_stat *s) {
    fprintf(o, ",\"%s\":{\"value\":", name);
    json_num(o, s->value);
    fprintf(o, ",\"ci95\":[");
    json_num(o, s->lo);
    fputc(',', o);
    json_num(o, s->hi);
    fprintf(o, "]}");
}

static void json_est(FILE *o, const char *name, const step *s) {
    kemet_stat k = {s->m.adj.score, s->m.adj.lo, s->m.adj.hi};
    fprintf(o,
            ",\"%s\":{\"upper\":\"%s\",\"lower\":\"%s\",\"games\":%ld,"
            "\"contradiction\":%s",
            name, s->hi, s->lo, s->games, s->contradiction ? "true" : "false");
    json_stat(o, "adjusted", &k);
    fprintf(o, ",\"luck_share\":");
    json_num(o, s->luck_share);
    fputc('}', o);
}

static void json_play(FILE *o, const char *name, const selfplay *S) {
    const kemet_analysis *a = &S->a;
    fprintf(o,
            ",\"%s\":{\"agents\":[\"%s\",\"%s\"],\"games\":%ld,"
            "\"median_turns\":",
            name, S->agent[0], S->agent[1], S->games);
    json_num(o, a->median_turns);
    fprintf(o, ",\"BoardCoverage\":");
    json_num(o, S->coverage);
    json_stat(o, "AdvantageP1Adjusted", &S->adv_adj);
    json_stat(o, "Completion", &a->completion);
    json_stat(o, "Drawishness", &a->drawishness);
    json_stat(o, "AdvantageP1", &a->advantage_p1);
    json_stat(o, "Balance", &a->balance);
    json_stat(o, "DurationTurns", &a->duration_turns);
    json_stat(o, "LostThrows", &a->lost_throws);
    json_stat(o, "ForcedMoves", &a->forced_moves);
    json_stat(o, "Choices", &a->choices);
    json_stat(o, "BranchingFactor", &a->branching_factor);
    json_stat(o, "LeadChange", &a->lead_change);
    json_stat(o, "Drama", &a->drama);
    json_stat(o, "DecisivenessThreshold", &a->decisiveness_threshold);
    fprintf(o, ",\"TableDecisions\":");
    json_num(o, S->exact_decisions);
    fprintf(o, ",\"LinearErrors\":");
    json_num(o, S->plain_errors);
    fprintf(o, ",\"LinearLoss\":");
    json_num(o, S->plain_loss);
    fputc('}', o);
}

static void print_json(FILE *o, const result *R, int n, int nbase,
                       const settings *st) {
    fprintf(o, "{\"seed\":%llu,\"strong\":\"%s\",\"rulesets\":[",
            (unsigned long long)st->seed, st->strong);
    for (int i = 0; i < n; i++) {
        fprintf(o, "%s{\"ruleset\":\"%s\"", i ? "," : "", R[i].id);
        json_play(o, "strong_play", &R[i].strong);
        json_play(o, "weak_play", &R[i].weak);
        fprintf(o, ",\"ladder\":[");
        for (int k = 0; k < R[i].nsteps; k++) {
            fprintf(o, "%s{\"x\":0", k ? "," : "");
            json_est(o, "step", &R[i].ladder[k]);
            fputc('}', o);
        }
        fputc(']', o);
        json_est(o, "strong_vs_weak", &R[i].head);
        fprintf(o, ",\"GamesToLead\":");
        json_num(o, R[i].games_to_lead);
        fprintf(o, ",\"SkillTrace\":");
        json_num(o, R[i].skill_trace);
        fprintf(o, ",\"SkillTraceLuckAdjusted\":");
        json_num(o, R[i].skill_trace_adj);
        for (int k = 0; k < NPROBES; k++)
            json_est(o, probe_name[k], &R[i].probe[k]);
        fprintf(o, ",\"flags\":%d", flags_of(&R[i]));
        json_stat(o, "MedianTurns", &R[i].strong.median);
        json_stat(o, "DecisionsPerTurn", &R[i].strong.per_turn);
        json_stat(o, "Stopped", &R[i].strong.capped);
        json_stat(o, "LuckShare", &R[i].head.share);
        fputc('}', o);
    }
    /* the verdict on the rulesets named (not the variants) */
    fprintf(o, "],\"verdict\":[");
    for (int i = 0; i < nbase; i++) {
        fprintf(o, "%s{\"id\":\"%s\",\"tier\":%d,\"flags\":%d,\"penalty\":",
                i ? "," : "", R[i].id, R[i].vj[0].tier, R[i].vj[0].flags);
        json_stat_only(o, &R[i].vj[0].penalty);
        fprintf(o, ",\"weak_tier\":%d,\"figures\":{", R[i].vj[1].tier);
        for (int c = 0; c < KEMET_CRITERIA; c++) {
            fprintf(o, "%s\"%s\":", c ? "," : "",
                    kemet_criterion_info(c)->name);
            json_stat_only(o, &R[i].vm[0].c[c]);
        }
        fprintf(o, "}}");
    }
    fprintf(o, "]}\n");
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
static int plot_lengths(const char *dir, const result *R, int n) {
    int rowh = 60, w = 760, h = 40 + n * rowh + 10;
    FILE *f = svg_open(dir, "lengths.svg", w, h,
                       "How long is a game? Turns under strong play");
    if (!f)
        return EXIT_BAD;
    for (int i = 0; i < n; i++) {
        const selfplay *S = &R[i].strong;
        int y0 = 40 + i * rowh;
        long top = 1;
        for (int b = 0; b < BINS; b++)
            top = S->hist[b] > top ? S->hist[b] : top;
        fprintf(f, "<text x=\"10\" y=\"%d\">%s</text>\n", y0 + 28, R[i].id);
        for (int b = 0; b < BINS; b++) {
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
                250, y0 + 60, BINS * S->bin, S->a.median_turns,
                R[i].weak.a.median_turns);
    }
    return svg_close(f);
}

/* One dot with its interval per series and ruleset, on a 0-1 axis with a
 * mark at one half. get(R, s, &stat) gives series s of a ruleset. */
typedef kemet_stat (*series_fn)(const result *R, int s);

static kemet_stat adv_series(const result *R, int s) {
    return s == 0 ? R->strong.adv_adj : R->weak.a.advantage_p1;
}

static int plot_dots(const char *dir, const char *name, const char *title,
                     const result *R, int n, int series,
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
        fprintf(f, "<text x=\"10\" y=\"%d\">%s</text>\n", y0 + 12, R[i].id);
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
                    XPOS(st.value), y, colour[s % 6], R[i].id, labels[s],
                    st.value, st.lo, st.hi, x1 + 10, y + 4, colour[s % 6],
                    st.value);
        }
    }
#undef XPOS
    return svg_close(f);
}

static kemet_stat ladder_series(const result *R, int s) {
    const kemet_estimate *e = &R->ladder[s].m.adj;
    return (kemet_stat){e->score, e->lo, e->hi};
}

/* Player 1's chance through the sample games: one small panel each. */
static int plot_chances(const char *dir, const result *R, int n) {
    int cols = 2, pw = 400, ph = 110, rows = (n + cols - 1) / cols;
    int w = cols * pw + 20, h = 40 + rows * (ph + 30);
    FILE *f = svg_open(dir, "chances.svg", w, h,
                       "How does a game swing? Player 1's chance, ply by "
                       "ply, in three games of strong play");
    if (!f)
        return EXIT_BAD;
    static const char *const colour[] = {"#2b5d8a", "#8a5a2b", "#3a7a3a"};
    for (int i = 0; i < n; i++) {
        const selfplay *S = &R[i].strong;
        double x0 = 10 + (i % cols) * pw, y0 = 50 + (i / cols) * (ph + 30);
        fprintf(f,
                "<text x=\"%.0f\" y=\"%.0f\">%s</text><rect x=\"%.0f\" "
                "y=\"%.0f\" width=\"%d\" height=\"%d\" fill=\"none\" "
                "stroke=\"#bbb\"/><line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" "
                "y2=\"%.0f\" stroke=\"#ddd\"/>\n",
                x0, y0 - 4, R[i].id, x0, y0, pw - 30, ph, x0, y0 + ph / 2.0,
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
static int plot_land(const char *dir, const result *R) {
    const kemet_board_art *A = &R->art;
    double scale = 560.0 / (A->w > A->h ? A->w : A->h);
    int w = (int)(A->w * scale) + 40, h = (int)(A->h * scale) + 80;
    char name[160], title[200];
    snprintf(name, sizeof name, "land-%s.svg", R->id);
    snprintf(title, sizeof title, "Where do pieces land in %s?", R->id);
    FILE *f = svg_open(dir, name, w, h, title);
    if (!f)
        return EXIT_BAD;
    double top = 0;
    for (int k = 0; k < A->nholes; k++) {
        int c = A->hole[k].cell;
        if (c > 0 && c < MAX_CELLS && R->strong.land[c] > top)
            top = R->strong.land[c];
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
        double v =
            H->cell > 0 && H->cell < MAX_CELLS ? R->strong.land[H->cell] : 0;
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
            h - 12, top, R->strong.coverage);
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

static int write_plots(const char *dir, const result *R, int n) {
    static const char *const adv[] = {"strong, luck-adjusted", "weak, raw"};
    const char *steps[MAX_RUNGS];
    char names[MAX_RUNGS][100];
    for (int k = 0; k < R[0].nsteps; k++) {
        snprintf(names[k], sizeof names[k], "%s vs %s", R[0].ladder[k].hi,
                 R[0].ladder[k].lo);
        steps[k] = names[k];
    }
    if (plot_lengths(dir, R, n) ||
        plot_dots(dir, "advantage.svg",
                  "Does the first player win more often? Player 1's score", R,
                  n, 2, adv, adv_series, 0.3, 0.7) ||
        plot_dots(dir, "ladder.svg",
                  "Does more thinking win more? Each ladder step's "
                  "luck-adjusted score",
                  R, n, R[0].nsteps, steps, ladder_series, 0.2, 1.0) ||
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

/* ------------------------------------------------------------------------
 * Measurements kept (--save DIR)
 *
 * A long run (the published report takes hours) keeps each ruleset's
 * whole measurement in DIR as soon as it is made, and a run of the same
 * command reads back what an earlier one kept instead of playing it
 * again: a run cut short loses at most the ruleset it was measuring, and
 * the rulesets of one report may be measured by separate runs (on other
 * machines or days) whose folders are then joined. With --save each
 * ruleset is measured alone, its two pools in turn.
 *
 * A file is named by the ruleset's id and a hash of its opening lines,
 * which say in words everything that decides its numbers: the settings
 * and the seed, the endgame table, race database and network in use (the
 * network by a hash of its text), the revision of the measurement
 * (MEASURE_REV, raised whenever a change to kemet changes the numbers of
 * the same settings) and the layout of the figures. The figures follow,
 * then a checksum of them. A file whose lines do not match its name, or
 * whose figures are short, too long or fail the checksum, is refused with
 * one line naming it.
 * --------------------------------------------------------------------- */

#define MEASURE_REV 2
#define SAVE_MAGIC "kemet-analyze-measurement 1\n"
#define SAVE_MAX (256L << 20) /* bytes: far more than any run's file */
#define SAVE_HEAD 2048        /* the most its opening lines take */
#define FNV_BASIS 0xcbf29ce484222325ULL

static uint64_t fnv64(uint64_t h, const void *p, size_t n) {
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 0x100000001b3ULL;
    return h;
}

/* The path in `dir` of the file of ruleset `id` whose opening lines are
 * `head`. 0, or EXIT_BAD after a message. */
static int save_path(const char *dir, const char *id, const char *head,
                     char *path, size_t psize) {
    char name[96];
    size_t k = 0;
    for (const char *c = id; *c && k + 1 < sizeof name; c++, k++)
        name[k] = (char)((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
                                 *c == '-'
                             ? *c
                             : '_');
    name[k] = 0;
    if ((size_t)snprintf(
            path, psize, "%s/%s.%016llx.kma", dir, name,
            (unsigned long long)fnv64(FNV_BASIS, head, strlen(head))) >= psize)
        return cli_fail("analyze: the --save folder's name is too long");
    return 0;
}

/* What decides the numbers of R, measured with judge j, as the lines that
 * open its file (into head), and the file's path. 0, or EXIT_BAD after a
 * message. */
static int save_header(const settings *st, const char *dir, const result *R,
                       const kemet_judge *j, char *head, size_t hsize,
                       char *path, size_t psize) {
    uint64_t net = 0;
    const kemet_net *nt = kemet_judge_net(j);
    char *text = NULL;
    if (nt && kemet_net_format(nt, NULL, &text) == KEMET_OK)
        net = fnv64(FNV_BASIS, text, strlen(text));
    free(text);
    if (nt && !net)
        return cli_fail("out of memory");
    size_t len = (size_t)snprintf(
        head, hsize,
        SAVE_MAGIC "revision %d\nruleset %s\nagents strong=%s weak=%s,%s "
                   "ladder=",
        MEASURE_REV, R->id, st->strong, st->weak[0], st->weak[1]);
    for (int k = 0; k < st->rungs && len < hsize; k++)
        len += (size_t)snprintf(head + len, hsize - len, "%s%s", k ? "," : "",
                                st->ladder[k]);
    if (len < hsize)
        len += (size_t)snprintf(
            head + len, hsize - len,
            "\nsamples games=%ld precision=%.17g pilot=%ld most=%ld "
            "trace=%ldx%ld turns=%ld seed=%llu\njudge table=%d race=%s "
            "net=%016llx board=%s\nlayout %zu %zu %zu %d\n\n",
            st->games, st->z.h, st->z.pilot, st->z.most, st->trace_games,
            st->trace_base, st->cap, (unsigned long long)st->seed,
            R->table_pieces, kemet_judge_race(j) ? "yes" : "no",
            (unsigned long long)net, st->board ? st->board : "-",
            sizeof(result), sizeof(selfplay), sizeof(step), SAMPLES);
    if (len >= hsize)
        return cli_fail("analyze: the settings are too long to --save");
    return save_path(dir, R->id, head, path, psize);
}

/* The figures of a self-play's sample games: their lengths, checked. */
static bool samples_fit(const selfplay *S, long cap) {
    if (S->nsample < 0 || S->nsample > SAMPLES)
        return false;
    for (int k = 0; k < S->nsample; k++)
        if (S->sample_n[k] < 0 || S->sample_n[k] > 2 * cap + 2)
            return false;
    return true;
}

/* Whether the byte at p is a flag's (0 or 1), read without reading it as
 * a bool. */
static bool flag_byte(const void *p) {
    unsigned char b;
    memcpy(&b, p, 1);
    return b <= 1;
}

/* R's measurement kept at `path` under `head`. 0, or EXIT_BAD after a
 * message; a file that cannot be written is left as it was. */
static int save_result(const char *path, const char *head, const result *R) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return cli_fail("analyze: cannot write %.200s", tmp);
    result c = *R;
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < SAMPLES; k++)
            (w ? &c.strong : &c.weak)->sample[k] = NULL;
    c.earlier = false;
    uint64_t h = fnv64(FNV_BASIS, &c, sizeof c);
    bool ok = fputs(head, f) >= 0 && fwrite(&c, sizeof c, 1, f) == 1;
    for (int w = 0; w < 2 && ok; w++) {
        const selfplay *S = w ? &R->strong : &R->weak;
        for (int k = 0; k < S->nsample && ok; k++) {
            size_t n = (size_t)S->sample_n[k];
            h = fnv64(h, S->sample[k], n * sizeof(double));
            ok = fwrite(S->sample[k], sizeof(double), n, f) == n;
        }
    }
    ok = ok && fwrite(&h, sizeof h, 1, f) == 1;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return cli_fail("analyze: cannot write %.200s", path);
    }
    return 0;
}

/* Reads R's measurement back from `path` if an earlier run kept it:
 * 1 when read, 0 when there is none, EXIT_BAD after a message. */
static int load_result(const char *path, const char *head, long cap,
                       result *R) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? 0
                               : cli_fail("analyze: cannot read %.200s", path);
    char *buf = NULL;
    size_t len = 0, room = 0;
    int rc = 0;
    for (;;) {
        if (len == room) {
            room = room ? 2 * room : 1 << 16;
            char *b = room <= (size_t)SAVE_MAX ? realloc(buf, room) : NULL;
            if (!b) {
                rc = cli_fail("analyze: %.200s is too large to be a kept "
                              "measurement",
                              path);
                break;
            }
            buf = b;
        }
        size_t got = fread(buf + len, 1, room - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (!rc && ferror(f))
        rc = cli_fail("analyze: cannot read %.200s", path);
    fclose(f);
    size_t hl = strlen(head), at = hl + sizeof(result);
    if (!rc && (len < hl || memcmp(buf, head, hl) != 0))
        rc = cli_fail("analyze: %.200s does not hold %s measured with these "
                      "settings; remove it",
                      path, R->id);
    result c;
    bool read = false;
    if (!rc && len < at + sizeof(uint64_t))
        rc = cli_fail("analyze: %.200s is cut short; remove it to measure %s "
                      "again",
                      path, R->id);
    if (!rc) {
        memcpy(&c, buf + hl, sizeof c);
        read = samples_fit(&c.weak, cap) && samples_fit(&c.strong, cap);
        for (int w = 0; w < 2; w++)
            for (int k = 0; k < SAMPLES; k++)
                (w ? &c.strong : &c.weak)->sample[k] = NULL;
        if (!read)
            rc = cli_fail("analyze: %.200s is damaged; remove it to measure "
                          "%s again",
                          path, R->id);
    }
    uint64_t h = rc ? 0 : fnv64(FNV_BASIS, &c, sizeof c);
    for (int w = 0; w < 2 && !rc; w++) {
        selfplay *S = w ? &c.strong : &c.weak;
        for (int k = 0; k < S->nsample && !rc; k++) {
            size_t n = (size_t)S->sample_n[k] * sizeof(double);
            if (len - sizeof(uint64_t) - at < n) {
                rc = cli_fail("analyze: %.200s is cut short; remove it to "
                              "measure %s again",
                              path, R->id);
                break;
            }
            S->sample[k] = malloc(n ? n : 1);
            if (!S->sample[k]) {
                rc = cli_fail("out of memory");
                break;
            }
            memcpy(S->sample[k], buf + at, n);
            h = fnv64(h, buf + at, n);
            at += n;
        }
    }
    uint64_t want;
    if (!rc) {
        memcpy(&want, buf + at, sizeof want);
        if (at + sizeof want != len || want != h)
            rc = cli_fail("analyze: %.200s is damaged (its checksum differs); "
                          "remove it to measure %s again",
                          path, R->id);
    }
    free(buf);
    if (rc) {
        if (read) /* c's samples are NULL or made here */
            for (int w = 0; w < 2; w++)
                selfplay_free(w ? &c.strong : &c.weak);
        return rc;
    }
    /* What opening the ruleset says stands as it was opened; the bytes
     * read as flags must be flags, and the names must end. */
    bool fits = c.nsteps == R->nsteps && flag_byte(&c.weak.luck) &&
                flag_byte(&c.strong.luck);
    for (int m = 0; m < MAX_RUNGS - 1 + 1 + NPROBES; m++) {
        step *S = m < MAX_RUNGS - 1    ? &c.ladder[m]
                  : m == MAX_RUNGS - 1 ? &c.head
                                       : &c.probe[m - MAX_RUNGS];
        fits &= flag_byte(&S->contradiction);
        S->hi[sizeof S->hi - 1] = S->lo[sizeof S->lo - 1] = 0;
    }
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < 2; k++) {
            selfplay *S = w ? &c.strong : &c.weak;
            S->agent[k][sizeof S->agent[k] - 1] = 0;
        }
    if (!fits) {
        for (int w = 0; w < 2; w++)
            selfplay_free(w ? &c.strong : &c.weak);
        return cli_fail("analyze: %.200s is damaged; remove it to measure %s "
                        "again",
                        path, R->id);
    }
    memcpy(c.id, R->id, sizeof c.id);
    memcpy(c.title, R->title, sizeof c.title);
    memcpy(c.base, R->base, sizeof c.base);
    c.variant = R->variant;
    c.board = R->board;
    c.table_pieces = R->table_pieces;
    c.art = R->art;
    c.earlier = true;
    *R = c;
    return 1;
}

static int by_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The seeds other than this run's at which the --save folder holds the
 * measurement of every one of the n rulesets R under the same settings
 * (heads[i]: R[i]'s opening lines at this seed), each judged into sv: up
 * to MAX_SEEDS of them, the lowest first. A damaged file is reported and
 * its seed left out. */
static int other_seeds(const settings *st, char (*heads)[SAVE_HEAD],
                       const result *R, int n, seed_verdict *sv) {
    DIR *d = opendir(st->save);
    if (!d)
        return 0;
    uint64_t seeds[64];
    int ns = 0;
    for (struct dirent *f; ns < 64 && (f = readdir(d));) {
        size_t l = strlen(f->d_name);
        if (l < 5 || strcmp(f->d_name + l - 4, ".kma") != 0)
            continue;
        char path[4400], buf[SAVE_HEAD];
        snprintf(path, sizeof path, "%s/%s", st->save, f->d_name);
        FILE *h = fopen(path, "rb");
        if (!h)
            continue;
        size_t got = fread(buf, 1, sizeof buf - 1, h);
        fclose(h);
        buf[got] = 0;
        const char *at = strstr(buf, " seed=");
        if (strncmp(buf, SAVE_MAGIC, strlen(SAVE_MAGIC)) != 0 || !at)
            continue;
        char *end;
        errno = 0;
        unsigned long long x = strtoull(at + 6, &end, 10);
        bool known = errno != 0 || *end != '\n' || x == st->seed;
        for (int k = 0; k < ns; k++)
            known |= seeds[k] == x;
        if (!known)
            seeds[ns++] = x;
    }
    closedir(d);
    qsort(seeds, (size_t)ns, sizeof seeds[0], by_u64);
    result *T = calloc((size_t)n, sizeof *T);
    int nsv = 0;
    for (int k = 0; T && k < ns && nsv < MAX_SEEDS; k++) {
        bool all = true;
        int got = 0;
        for (int i = 0; i < n && all; i++, got++) {
            /* heads[i] with the other seed */
            char head[SAVE_HEAD], path[4400];
            const char *at = strstr(heads[i], " seed=");
            const char *eol = at ? strchr(at, '\n') : NULL;
            all = eol && (size_t)snprintf(head, sizeof head, "%.*s seed=%llu%s",
                                          (int)(at - heads[i]), heads[i],
                                          (unsigned long long)seeds[k],
                                          eol) < sizeof head;
            all = all &&
                  save_path(st->save, R[i].id, head, path, sizeof path) == 0;
            T[i] = (result){0};
            memcpy(T[i].id, R[i].id, sizeof T[i].id);
            memcpy(T[i].title, R[i].title, sizeof T[i].title);
            memcpy(T[i].base, R[i].base, sizeof T[i].base);
            T[i].variant = R[i].variant;
            T[i].board = R[i].board;
            T[i].table_pieces = R[i].table_pieces;
            T[i].nsteps = R[i].nsteps;
            all = all && load_result(path, head, st->cap, &T[i]) == 1;
        }
        if (all) {
            seed_verdict *v = &sv[nsv++];
            v->seed = seeds[k];
            judge(T, n, 0, -1, v->ord);
            for (int i = 0; i < n; i++) {
                v->tier[i] = T[i].vj[0].tier;
                v->flags[i] = T[i].flags;
            }
        }
        for (int i = 0; i < got && i < n; i++) {
            selfplay_free(&T[i].strong);
            selfplay_free(&T[i].weak);
        }
    }
    free(T);
    return nsv;
}

/* Measures rulesets lo..hi-1 (opened by work_rules): their games in
 * pools, the pilots and fixed samples, then the rest of each sample as
 * sized and sized again ("Stages" above). */
static int measure(const settings *st, result *R, work *W, int lo, int hi) {
    stages A = {0}, B = {0}, C = {0};
    int rc = 0;
    for (int i = lo; i < hi && rc == 0; i++)
        rc = work_open(st, &R[i], &W[i], &A);
    if (rc == 0)
        rc = run_stages(&A, st->threads, "analyze: pilots and fixed samples");
    for (int i = lo; i < hi && rc == 0; i++)
        rc = work_middle(st, &R[i], &W[i], &B);
    if (rc == 0)
        rc = run_stages(&B, st->threads, "analyze: the rest of each sample");
    /* then, while any figure is short of its target, its sample topped
     * up to the size all its games so far ask for */
    for (int round = 2; round <= GROW_ROUNDS && rc == 0; round++) {
        C.n = 0;
        for (int i = lo; i < hi && rc == 0; i++)
            rc = work_grow(st, &R[i], &W[i], &C, round);
        if (rc || C.n == 0)
            break;
        char what[80];
        snprintf(what, sizeof what, "analyze: samples topped up (round %d)",
                 round);
        rc = run_stages(&C, st->threads, what);
    }
    for (int i = lo; i < hi && rc == 0; i++)
        rc = work_end(st, &R[i], &W[i]);
    free(A.s);
    free(B.s);
    free(C.s);
    return rc;
}

int cmd_analyze(int argc, char **argv) {
    long games = 1000, nthreads = 0, cap = 1000, most = 200, pilot = 20;
    long trace_games = 30, trace_base = 8;
    uint64_t seed = 1;
    const char *agents_opt = "greedy,greedy", *format = "md", *plots = NULL;
    const char *strong = "best:1k", *output = NULL, *sweep = NULL;
    const char *options = NULL, *save = NULL;
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
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int rc = cli_parse(argc, argv, opts, arg, 0, 64, &npos, analyze_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (strcmp(format, "md") && strcmp(format, "csv") && strcmp(format, "json"))
        return cli_fail("analyze: --format is md, csv or json, not '%.20s'",
                        format);
    settings st = {.strong = strong,
                   .board = board,
                   .games = games,
                   .trace_games = trace_games,
                   .trace_base = trace_base,
                   .cap = cap,
                   .z = {.pilot = pilot, .most = most},
                   .seed = seed};
    char *tend;
    errno = 0;
    st.z.h = strtod(precision_opt, &tend);
    if (errno || tend == precision_opt || *tend || !(st.z.h > 0) ||
        st.z.h > 0.5)
        return cli_fail("analyze: --precision is a half-width between 0 and "
                        "0.5, not '%.20s'",
                        precision_opt);
    if (trace_base > 1000000 >> TRACE_MATCHES)
        return cli_fail("analyze: --trace-base is at most %d",
                        1000000 >> TRACE_MATCHES);
    char pair[128], lbuf[512];
    if (split_list(agents_opt, pair, sizeof pair, st.weak, 2) != 2)
        return cli_fail("analyze: --agents takes two agents, A,B (e.g. "
                        "greedy,greedy)");
    st.rungs = split_list(ladder_opt, lbuf, sizeof lbuf, st.ladder, MAX_RUNGS);
    if (st.rungs < 2)
        return cli_fail("analyze: --ladder takes 2 to %d agents, weakest "
                        "first, separated by commas",
                        MAX_RUNGS);
    /* The rulesets: 'all' or specs; then the sweep's variants. */
    const char *ids[MAX_SETS];
    int n = 0, nv = 0;
    if (npos == 0) /* the quick report: every base ruleset */
        arg[npos++] = "all";
    for (int i = 0; i < npos; i++) {
        if (strcmp(arg[i], "all") == 0) {
            for (int k = 0; k < kemet_ruleset_count() && n < MAX_SETS; k++)
                ids[n++] = kemet_ruleset_id(k);
            continue;
        }
        if (n == MAX_SETS)
            return cli_fail("analyze: at most %d rulesets", MAX_SETS);
        ids[n++] = arg[i];
    }
    char vspecs[MAX_VARIANTS][96];
    if (sweep && (nv = expand_sweep(sweep, vspecs, MAX_VARIANTS)) < 0)
        return EXIT_BAD;
    if (options && (nv = expand_options(options, vspecs, nv, MAX_VARIANTS)) < 0)
        return EXIT_BAD;
    /* Check every ruleset and agent before any game is played; a variant
     * that is one of the rulesets already named (the option's default) is
     * measured once. */
    char canon[MAX_SETS + MAX_VARIANTS][96];
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
        const char *all[MAX_RUNGS + 3] = {st.weak[0], st.weak[1], strong};
        for (int k = 0; k < st.rungs; k++)
            all[3 + k] = st.ladder[k];
        for (int k = 0; k < st.rungs + 3; k++)
            if (cli_agent_check(r, all[k],
                                k < 2   ? "--agents"
                                : k < 3 ? "--strong"
                                        : "--ladder")) {
                kemet_rules_close(r);
                return EXIT_BAD;
            }
        kemet_rules_close(r);
    }
    if (cli_mpi_rank() != 0)
        output = plots = NULL; /* under mpirun rank 0 alone writes */
    if (plots && make_folder(plots, "plot"))
        return EXIT_BAD;
    if (save && make_folder(save, "--save"))
        return EXIT_BAD;
    st.save = save;
    /* The report goes to a temporary file beside --output, opened before
     * any game is played and renamed over it only once whole: a failed
     * run leaves the old report as it was. */
    char tmp[4096];
    FILE *o = stdout;
    if (output) {
        snprintf(tmp, sizeof tmp, "%s.tmp", output);
        if (!(o = fopen(tmp, "w")))
            return cli_fail("analyze: cannot write %.200s", output);
    }
    result *R = calloc((size_t)(n + nv), sizeof *R);
    work *W = calloc((size_t)(n + nv), sizeof *W);
    if (!R || !W)
        rc = cli_fail("out of memory");
    st.threads = cli_threads(nthreads);
    double t0 = cli_now(), secs = 0;
    for (int i = 0; i < n + nv && rc == 0; i++)
        rc = work_rules(i < n ? ids[i] : vspecs[i - n], &st, i >= n, &R[i],
                        &W[i]);
    if (rc == 0 && !save) /* every ruleset's games in the same two pools */
        rc = measure(&st, R, W, 0, n + nv);
    /* With --save, each ruleset alone, read back where an earlier run
     * kept it, kept once measured. */
    char(*heads)[SAVE_HEAD] = save ? calloc((size_t)n, sizeof *heads) : NULL;
    if (save && !heads && rc == 0)
        rc = cli_fail("out of memory");
    for (int i = 0; save && i < n + nv && rc == 0; i++) {
        char head[SAVE_HEAD], path[4096];
        if ((rc = save_header(&st, save, &R[i], W[i].j, head, sizeof head, path,
                              sizeof path)))
            break;
        if (i < n)
            memcpy(heads[i], head, sizeof head);
        if ((rc = load_result(path, head, st.cap, &R[i])) == 1) {
            rc = 0;
            secs += R[i].wall;
            work_free(&W[i]);
            continue;
        }
        double t = cli_now();
        if (rc == 0 && (rc = measure(&st, R, W, i, i + 1)) == 0) {
            R[i].wall = cli_now() - t;
            secs += R[i].wall;
            if (cli_mpi_rank() == 0)
                rc = save_result(path, head, &R[i]);
        }
        work_free(&W[i]);
    }
    for (int i = 0; W && i < n + nv; i++)
        work_free(&W[i]);
    free(W);
    if (rc && rc != EXIT_BAD && R)
        rc = cli_fail("analyze: %s", kemet_strerror(rc));
    if (!save)
        secs = cli_now() - t0;
    seed_verdict sv[MAX_SEEDS];
    int nsv = rc == 0 && save ? other_seeds(&st, heads, R, n, sv) : 0;
    free(heads);
    if (rc == 0 && plots)
        rc = write_plots(plots, R, n);
    if (rc == 0) {
        int ord[MAX_SETS];
        judge(R, n, 1, -1, ord);
        judge(R, n, 0, -1, ord);
    }
    if (rc == 0) {
        char link[4096];
        if (plots)
            plot_link(output, plots, link, sizeof link);
        if (strcmp(format, "md") == 0)
            print_md(o, R, n, R + n, nv, &st, plots ? link : NULL, argc, argv,
                     secs, st.threads, sv, nsv);
        else if (strcmp(format, "csv") == 0)
            print_csv(o, R, n + nv);
        else
            print_json(o, R, n + nv, n, &st);
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
    for (int i = 0; R && i < n + nv; i++) {
        selfplay_free(&R[i].strong);
        selfplay_free(&R[i].weak);
    }
    free(R);
    return rc;
}
