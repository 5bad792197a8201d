/* study.c - one reading (a ruleset, with its options) measured as a game
 * (docs/analysis.md, "How it is measured"), in stages of independent
 * games that the caller may play on any thread or process, in any order.
 *
 * A study measures:
 *   - self-play by the strong agent (both seats) and by the weak agents,
 *     each game traced ply by ply: player 1's chance before each ply
 *     (exact where an endgame table covers the position, else the
 *     evaluation's), the legal moves at each throw, the holes pieces land
 *     on, and in strong play each throw's luck (kemet_throw_luck), so that
 *     player 1's advantage is measured with the luck taken out; where a
 *     table is in use, what the linear evaluation alone would give away
 *     against perfect play in the table's phase;
 *   - a skill ladder: each agent of the ladder against the one below it,
 *     paired games scored less their luck; a step whose upper agent
 *     scores below one half beyond its interval is a contradiction;
 *   - the strong agent against the weak one: the luck share of the
 *     result, and how many games the better player needs to lead;
 *   - Ludii's SkillTrace with expectimax at doubling budgets, and the same
 *     games with their luck taken out;
 *   - degeneracy probes: the simple strategies against the strong agent.
 * A variant (settings.variant) goes without the ladder and SkillTrace.
 *
 * Each headline figure is sampled to a precision: its pilot, then the
 * size its interval asks for (kemet_precision_size), asked again of all
 * its games so far while it is still wider, KEMET_STUDY_ROUNDS sizings in
 * all, at most settings.most games. When those sizings have stopped, a
 * final step (KEMET_STUDY_LEAST) grows a sample of fewer than 100 games
 * to 100, and the strong self-play while the stopped share near its
 * threshold has an interval wider than its narrowed target; a study that
 * neither asks for has exactly the figures it had before that step
 * (kemet_study_settled says which). So the games come in stages: the
 * first holds every game whose number is fixed (the weak self-play,
 * SkillTrace) and every pilot; each later stage the games the sizing of
 * the figures so far asks for. Every game is seeded from (seed, ruleset,
 * part, index) alone and every size is fixed before its games are
 * played, so no number depends on the thread, the process or the order
 * that played a game.
 *
 * Within a stage the games are numbered 0..units-1 in groups (one part's
 * games each: a self-play, a match), each with an order: the lower first
 * deals the longest games first, so that a pool of threads is idle only
 * at its end. A unit's result can be written out as bytes and read in by
 * the study of another process (kemet_study_unit_save, _load).
 */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The precision targets beside the precision h (scores and shares +-h):
 * the median length +-MEDIAN_REL x h of itself, LeadChange +-h / LEAD_DIV,
 * and the luck share narrowed near 1 - SHARE_DECIDE (kemet.h). */
#define MEDIAN_REL KEMET_STUDY_MEDIAN_REL
#define LEAD_DIV KEMET_STUDY_LEAD_DIV
#define SHARE_DECIDE KEMET_STUDY_SHARE_DECIDE
#define CELLS KEMET_STUDY_CELLS
#define SAMPLES KEMET_STUDY_SAMPLES
#define TRACE KEMET_STUDY_TRACE
#define NPROBES KEMET_STUDY_PROBES
#define MAX_RUNGS KEMET_STUDY_RUNGS

static const char *const probe_name[NPROBES] = {"rearmost", "foremost",
                                                "safe-random"};
static const char *const part_name[KEMET_PARTS] = {
    "weak self-play", "strong self-play", "ladder",
    "luck and skill", "probes",           "SkillTrace"};

const char *kemet_part_name(int part) {
    return part >= 0 && part < KEMET_PARTS ? part_name[part] : NULL;
}

/* ------------------------------------------------------------------------
 * Self-play, traced
 * --------------------------------------------------------------------- */

/* The fixed part of one game's trace: what a unit's result carries. */
typedef struct game_sum {
    kemet_trace t;
    double luck; /* player 1's luck, summed over the throws */
    /* the decisions (two moves or more) in positions the endgame table
     * covers, those where the linear evaluation alone would choose a
     * worse move, and the win chance that choice gives away (summed) */
    long exact_decisions, plain_errors;
    double plain_loss;
    long land[CELLS]; /* arrivals on each board cell */
} game_sum;

typedef struct tracer {
    const kemet_rules *r;
    const kemet_judge *plain; /* the linear evaluation alone, or NULL */
    const kemet_judge *j;
    game_sum s;
    double *p1;     /* player 1's chance before each ply */
    long cap;       /* room in p1 */
    kemet_pos last; /* the position at the last decision */
    bool luck, thrown, seen, failed;
} tracer;

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
            kemet_arrivals(T->r, &T->last, pos, T->s.land, CELLS);
        T->last = *pos;
        T->seen = true;
        T->thrown = true;
        if (T->s.t.n >= T->cap) {
            long c = T->cap ? 2 * T->cap : 64;
            double *p = realloc(T->p1, (size_t)c * sizeof *p);
            if (!p) {
                T->failed = true;
                return;
            }
            T->p1 = p;
            T->cap = c;
        }
        T->p1[T->s.t.n++] = kemet_judge_chance(T->j, pos, NULL);
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

/* One self-play while its games are played: spec[0] against spec[1]. */
typedef struct play {
    const kemet_judge *j;
    const char *spec[2];
    uint64_t seed;
    long cap; /* the turn cap */
    bool luck;
    kemet_judge *plain; /* the linear evaluation, where a table is in use */
    tracer *T;
    long n; /* games in T */
} play;

static int trace_game(play *p, long i) {
    tracer *T = &p->T[i];
    free(T->p1);
    *T = (tracer){.r = kemet_judge_rules(p->j),
                  .j = p->j,
                  .plain = p->plain,
                  .luck = p->luck};
    kemet_game *g = NULL;
    int rc =
        kemet_play_seeded(p->j, p->spec, kemet_run_seed(p->seed, (uint64_t)i),
                          p->cap, trace_ply, T, NULL, &g, NULL);
    if (rc)
        return rc;
    const kemet_pos *end = kemet_game_pos(g);
    if (T->seen)
        kemet_arrivals(T->r, &T->last, end, T->s.land, CELLS);
    T->s.t.result = kemet_result(end);
    T->s.t.turns = kemet_game_turns(g);
    T->s.t.moves = kemet_game_plies(g);
    kemet_game_free(g);
    return T->failed ? KEMET_ENOMEM : KEMET_OK;
}

/* Room for the first n games of spec[0] against spec[1] (with the luck:
 * where a table is in use, perfect play's worth too). */
static int play_begin(play *p, const kemet_judge *j, const char *const spec[2],
                      long n, uint64_t seed, long cap, bool luck,
                      kemet_selfplay_figures *S) {
    const kemet_rules *r = kemet_judge_rules(j);
    *S = (kemet_selfplay_figures){.luck = luck};
    for (int k = 0; k < 2; k++)
        snprintf(S->agent[k], sizeof S->agent[k], "%s", spec[k]);
    *p = (play){j, {spec[0], spec[1]}, seed, cap, luck, NULL, NULL, n};
    if (!(p->T = calloc((size_t)n, sizeof *p->T)))
        return KEMET_ENOMEM;
    if (luck && kemet_judge_table(j) &&
        kemet_judge_new(r, "plain", &p->plain, NULL) != KEMET_OK)
        return KEMET_ENOMEM;
    return KEMET_OK;
}

/* Room for `more` games in all, the new ones not yet played. */
static int play_grow(play *p, long more) {
    tracer *U = realloc(p->T, (size_t)more * sizeof *U);
    if (!U)
        return KEMET_ENOMEM;
    memset(U + p->n, 0, (size_t)(more - p->n) * sizeof *U);
    p->T = U;
    p->n = more;
    return KEMET_OK;
}

static void play_free(play *p) {
    for (long i = 0; p->T && i < p->n; i++)
        free(p->T[i].p1);
    free(p->T);
    kemet_judge_free(p->plain);
    *p = (play){0};
}

/* The sample games' chances a self-play's figures point to (owned by the
 * study). */
static void samples_free(kemet_selfplay_figures *S) {
    for (int k = 0; k < S->nsample; k++) {
        free((double *)S->sample[k]);
        S->sample[k] = NULL;
    }
    S->nsample = 0;
}

/* How a figure's sample is sized: a pilot of `pilot` games, then the
 * whole sample that its interval says the target half-width `h` needs,
 * at most `most` games. */
typedef struct sizing {
    double h;
    long pilot, most;
} sizing;

/* The figures of games T[0..games). */
static int selfplay_measure(const kemet_rules *r, const tracer *T, long games,
                            long cap, bool plain, kemet_selfplay_figures *S) {
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
    S->linear_loss = 0;
    int rc;
    for (long i = 0; i < games; i++) {
        t[i] = T[i].s.t;
        t[i].p1 = T[i].p1;
    }
    if ((rc = kemet_analyze_traces(t, games, &S->analysis)))
        goto out;
    S->bin = kemet_length_histogram(t, games, KEMET_STUDY_BINS, S->hist);
    long dec = 0;
    for (long i = 0; i < games; i++) {
        dec += t[i].decisions;
        for (int c = 0; c < CELLS; c++)
            S->land[c] += (double)T[i].s.land[c];
    }
    S->decisions = (double)dec / (double)games;
    long xd = 0, xe = 0;
    for (long i = 0; i < games; i++) {
        xd += T[i].s.exact_decisions;
        xe += T[i].s.plain_errors;
        S->linear_loss += T[i].s.plain_loss / (double)games;
    }
    S->table_decisions = (double)xd / (double)games;
    S->linear_errors = xd ? (double)xe / (double)xd : NAN;
    if (!plain)
        S->table_decisions = S->linear_errors = S->linear_loss = NAN;
    const kemet_info *info = kemet_rules_info(r);
    int cells = info->board_cells < CELLS ? info->board_cells : CELLS - 1,
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
    S->stopped = (kemet_stat){1 - S->analysis.completion.value,
                              1 - S->analysis.completion.hi,
                              1 - S->analysis.completion.lo};
    /* player 1's score less its luck, a game at a time */
    for (long i = 0; i < games; i++) {
        double res = t[i].result == KEMET_WON1   ? 1
                     : t[i].result == KEMET_WON2 ? 0
                                                 : 0.5;
        x[i] = res - T[i].s.luck;
    }
    S->p1_adjusted = (kemet_stat){NAN, NAN, NAN};
    if (S->luck && games > 1) {
        double m = 0, ss = 0;
        for (long i = 0; i < games; i++)
            m += x[i] / (double)games;
        for (long i = 0; i < games; i++)
            ss += (x[i] - m) * (x[i] - m);
        double half = 1.96 * sqrt(ss / (double)(games - 1) / (double)games);
        S->p1_adjusted = (kemet_stat){m, m - half, m + half};
    }
    for (long i = 0; i < games && S->nsample < SAMPLES; i++) {
        int k = S->nsample;
        double *c = malloc((size_t)(t[i].n ? t[i].n : 1) * sizeof(double));
        if (!c) {
            rc = KEMET_ENOMEM;
            goto out;
        }
        memcpy(c, t[i].p1, (size_t)t[i].n * sizeof(double));
        S->sample[k] = c;
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

/* The self-play's whole sample after `n` games: enough for player 1's
 * luck-adjusted score within +-h, the median length within +-MEDIAN_REL h
 * of itself (a length is judged in doublings) and LeadChange within
 * +-h / LEAD_DIV. */
static long selfplay_size(const kemet_selfplay_figures *S, long n,
                          const sizing *z) {
    long k = n, m;
    double h = decide(z->h, KEMET_CRIT_BALANCE, S->p1_adjusted.value);
    if (S->luck && (m = kemet_precision_size(n, half_of(&S->p1_adjusted, false),
                                             h, z->most, 1)) > k)
        k = m;
    if ((m = kemet_precision_size(
             n, half_of(&S->median, true),
             decide(MEDIAN_REL * z->h, KEMET_CRIT_LENGTH, S->median.value),
             z->most, 1)) > k)
        k = m;
    if ((m = kemet_precision_size(n, half_of(&S->analysis.lead_change, false),
                                  decide(z->h / LEAD_DIV, KEMET_CRIT_TENSION,
                                         S->analysis.lead_change.value),
                                  z->most, 1)) > k)
        k = m;
    return k;
}

/* ------------------------------------------------------------------------
 * Matches: ladder steps, the headline match, probes, SkillTrace
 * --------------------------------------------------------------------- */

/* The luck share and the spread of a game's result from out[0..n). */
static int step_figures(const kemet_outcome *out, long n,
                        kemet_match_figures *S) {
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
    S->luck_share = kemet_luck_share_ci(res, luck, n, 2);
    free(res);
    return KEMET_OK;
}

/* A match's pilot and its cap, in whole pairs. */
static long step_most(const sizing *z) {
    return z->most < 2 ? 2 : z->most - (z->most & 1);
}

static long step_pilot(const sizing *z) {
    long most = step_most(z), pilot = z->pilot + (z->pilot & 1);
    return pilot < most ? pilot : most;
}

/* After the games out[0..have) of a match (paired games, luck taken out):
 * its figures over them, and in *n the whole sample that the luck-adjusted
 * score's interval needs to be within +-z->h (narrowed near the probes'
 * threshold for a probe; with `share`, the luck share's too), at most
 * z->most. */
static int step_size(const kemet_outcome *out, long have, const sizing *z,
                     bool share, bool probe, kemet_match_figures *S, long *n) {
    int rc = kemet_match_tally(out, have, KEMET_MATCH_PAIRED | KEMET_MATCH_LUCK,
                               &S->stats);
    if (!rc)
        rc = step_figures(out, have, S);
    *n = have;
    if (rc)
        return rc;
    kemet_estimate *e = &S->stats.adj;
    long most = step_most(z);
    *n = kemet_precision_size(
        have, fmax(e->score - e->lo, e->hi - e->score),
        probe ? decide(z->h, KEMET_CRIT_PROBES, e->score) : z->h, most, 2);
    long m = kemet_precision_size(
        have, half_of(&S->luck_share, false),
        kemet_decide_half(z->h, 1 - S->luck_share.value, SHARE_DECIDE), most,
        2);
    *n = share && m > *n ? m : *n;
    return KEMET_OK;
}

/* The figures of the match over all its games out[0..n). */
static int step_end(const kemet_outcome *out, long n, kemet_match_figures *S) {
    S->games = n;
    int rc = kemet_match_tally(out, n, KEMET_MATCH_PAIRED | KEMET_MATCH_LUCK,
                               &S->stats);
    return rc ? rc : step_figures(out, n, S);
}

/* Ludii's SkillTrace: match k plays expectimax at 2b against expectimax
 * at b, b = base * 2^k, `games` games, seats alternating, each game's
 * throws its own (as Ludii's trials: not paired); y[k] is the stronger
 * agent's mean utility (win 1, draw 0, loss -1). The same games give
 * kemet's trace: each game's throws' luck taken out of the stronger
 * agent's result, adj[k] its luck-adjusted utility (2 x the luck-adjusted
 * score - 1) with its interval. */
static int trace_match(const kemet_outcome *out, long games, double *y,
                       kemet_stat *adj) {
    double u = 0;
    for (long i = 0; i < games; i++) {
        const kemet_outcome *o = &out[i];
        if (o->result == KEMET_WON1 || o->result == KEMET_WON2)
            u += o->result == 1 + o->swapped ? 1 : -1;
    }
    *y = u / (double)games;
    kemet_match_stats M = {0};
    *adj = (kemet_stat){NAN, NAN, NAN};
    int rc = 0;
    if (games > 1 &&
        !(rc = kemet_match_tally(out, games, KEMET_MATCH_LUCK, &M)))
        *adj = (kemet_stat){2 * M.adj.score - 1, 2 * M.adj.lo - 1,
                            2 * M.adj.hi - 1};
    return rc;
}

/* ------------------------------------------------------------------------
 * The study and its stages
 * --------------------------------------------------------------------- */

/* The matches of a study: the ladder's steps, the strong agent against
 * the weak one, the probes. */
enum { M_HEAD = MAX_RUNGS - 1, M_PROBE, NMATCH = M_PROBE + NPROBES };

/* What a group of units plays. */
enum { G_WEAK, G_STRONG, G_MATCH, G_TRACE };

typedef struct group {
    int kind;   /* G_* */
    int which;  /* the match (G_MATCH) or SkillTrace's match (G_TRACE) */
    long first; /* the first game of its self-play or match it plays */
    kemet_study_group info;
} group;

struct kemet_study {
    const kemet_judge *j;
    const kemet_rules *r;
    kemet_study_settings st; /* its strings in `text` */
    char *text;
    sizing z;
    uint64_t rs; /* the ruleset's stream of seeds */
    kemet_study_figures R;
    play weak, strong;
    kemet_outcome *out[NMATCH]; /* each match's games */
    long pilot[NMATCH];         /* its pilot's games (0: not played) */
    kemet_outcome *trace;       /* SkillTrace's matches, one after another */
    char budget[TRACE + 1][48]; /* expectimax at base * 2^k */
    int stage;                  /* stages made so far */
    int late;      /* the final step's rounds made so far, + 1 (0: before) */
    unsigned grew; /* the parts the final step grew: bit 0 the strong
                      self-play, bit 1 + m match m */
    bool finished;
    group *g; /* the current stage's groups */
    int ng, groom;
    long units;
    int *urc; /* each unit's status: 1 not played, else its code */
};

void kemet_study_defaults(kemet_study_settings *s) {
    if (!s)
        return;
    *s = (kemet_study_settings){
        .strong = "best:1k",
        .weak = {"greedy", "greedy"},
        .ladder = {"random", "greedy", "expectimax:250", "best:1k"},
        .rungs = 4,
        .games = 1000,
        .trace_games = 30,
        .trace_base = 8,
        .cap = 1000,
        .precision = 0.05,
        .pilot = 20,
        .most = 200,
        .seed = 1};
}

/* Match m of the study: its players, its seed and its figures. */
static kemet_match_figures *match_of(kemet_study *s, int m, const char **hi,
                                     const char **lo, uint64_t *seed) {
    if (m < M_HEAD) {
        *hi = s->st.ladder[m + 1];
        *lo = s->st.ladder[m];
        *seed = kmt_mix64(s->rs + 10 + (uint64_t)m);
        return &s->R.ladder[m];
    }
    if (m == M_HEAD) {
        *hi = s->st.strong;
        *lo = s->st.weak[0];
        *seed = kmt_mix64(s->rs + 2);
        return &s->R.head;
    }
    int k = m - M_PROBE;
    *hi = probe_name[k];
    *lo = s->st.strong;
    *seed = kmt_mix64(s->rs + 20 + (uint64_t)k);
    return &s->R.probe[k];
}

static int part_of_match(int m) {
    return m < M_HEAD    ? KEMET_PART_LADDER
           : m == M_HEAD ? KEMET_PART_HEAD
                         : KEMET_PART_PROBES;
}

/* Whether the study plays part p. */
static bool plays(const kemet_study *s, int p) {
    return s->st.parts == 0 || (s->st.parts >> p & 1);
}

/* Adds a group of `count` games from `first` to the stage being made. */
static int add_group(kemet_study *s, int kind, int which, int part, int order,
                     long first, long count, const char *what) {
    if (count <= 0)
        return KEMET_OK;
    if (s->ng == s->groom) {
        int room = s->groom ? 2 * s->groom : 16;
        group *g = realloc(s->g, (size_t)room * sizeof *g);
        if (!g)
            return KEMET_ENOMEM;
        s->g = g;
        s->groom = room;
    }
    group *g = &s->g[s->ng++];
    *g = (group){kind, which, first, {s->units, count, part, order, ""}};
    snprintf(g->info.what, sizeof g->info.what, "%s: %s", s->R.id, what);
    s->units += count;
    return KEMET_OK;
}

static int add_match_group(kemet_study *s, int m, int order, long first,
                           long count) {
    const char *hi, *lo;
    uint64_t seed;
    match_of(s, m, &hi, &lo, &seed);
    char what[160];
    snprintf(what, sizeof what, m < M_HEAD ? "ladder %s vs %s" : "%s vs %s", hi,
             lo);
    return add_group(s, G_MATCH, m, part_of_match(m), order, first, count,
                     what);
}

/* The first stage: the games whose number is fixed, and each figure's
 * pilot. */
static int stage_open(kemet_study *s) {
    kemet_study_figures *R = &s->R;
    const kemet_study_settings *st = &s->st;
    int rc = 0;
    if (plays(s, KEMET_PART_WEAK))
        rc = play_begin(&s->weak, s->j, st->weak, st->games, s->rs, st->cap,
                        false, &R->weak);
    if (!rc && plays(s, KEMET_PART_WEAK))
        rc = add_group(s, G_WEAK, 0, KEMET_PART_WEAK, 30, 0, st->games,
                       "weak self-play");
    const char *strong[2] = {st->strong, st->strong};
    long n = s->z.pilot < s->z.most ? s->z.pilot : s->z.most;
    if (!rc && plays(s, KEMET_PART_STRONG))
        rc = play_begin(&s->strong, s->j, strong, n, kmt_mix64(s->rs + 1),
                        st->cap, true, &R->strong);
    if (!rc && plays(s, KEMET_PART_STRONG))
        rc = add_group(s, G_STRONG, 0, KEMET_PART_STRONG, 10, 0, n,
                       "strong self-play");
    long pilot = step_pilot(&s->z);
    for (int m = 0; m < NMATCH && !rc; m++) {
        if ((m >= R->nsteps && m < M_HEAD) || !plays(s, part_of_match(m)))
            continue;
        const char *hi, *lo;
        uint64_t seed;
        kemet_match_figures *S = match_of(s, m, &hi, &lo, &seed);
        *S = (kemet_match_figures){0};
        snprintf(S->upper, sizeof S->upper, "%s", hi);
        snprintf(S->lower, sizeof S->lower, "%s", lo);
        if (!(s->out[m] = calloc((size_t)pilot, sizeof *s->out[m])))
            return KEMET_ENOMEM;
        s->pilot[m] = pilot;
        int order = m < M_HEAD ? 12 + R->nsteps - 1 - m : m == M_HEAD ? 11 : 20;
        rc = add_match_group(s, m, order, 0, pilot);
    }
    R->skill_trace = R->skill_trace_adj = NAN;
    long tg = st->trace_games;
    if (!rc && tg > 0 && !st->variant && plays(s, KEMET_PART_TRACE)) {
        if (!(s->trace = calloc((size_t)(tg * TRACE), sizeof *s->trace)))
            return KEMET_ENOMEM;
        for (int k = 0; k <= TRACE; k++)
            snprintf(s->budget[k], sizeof s->budget[k], "expectimax:%ld",
                     st->trace_base << k);
        /* match k: expectimax at 2b against expectimax at b, each game's
         * throws its own, the luck summed for kemet's trace; the largest
         * budgets first */
        for (int k = 0; k < TRACE && !rc; k++) {
            char what[40];
            snprintf(what, sizeof what, "SkillTrace %d/%d", k + 1, TRACE);
            rc = add_group(s, G_TRACE, k, KEMET_PART_TRACE, TRACE - 1 - k,
                           (long)k * tg, tg, what);
        }
    }
    return rc;
}

/* Match m's games from `have` to n: room for them, added to the stage
 * being made. */
static int grow_match(kemet_study *s, int m, long have, long n) {
    kemet_outcome *o = realloc(s->out[m], (size_t)n * sizeof *o);
    if (!o)
        return KEMET_ENOMEM;
    memset(o + have, 0, (size_t)(n - have) * sizeof *o);
    s->out[m] = o;
    int order = m == 0        ? 20
                : m < M_HEAD  ? 2 + s->R.nsteps - 1 - m
                : m == M_HEAD ? 1
                              : 10;
    return add_match_group(s, m, order, have, n - have);
}

/* Round `round` (1: after the pilots; 2 and on: after the last stage):
 * each figure's whole sample as all its games so far size it, the rest
 * added to the stage being made. The strong self-play is measured over
 * its games so far first. */
static int stage_grow(kemet_study *s, int round) {
    kemet_study_figures *R = &s->R;
    int rc = 0;
    play *p = &s->strong;
    bool strong = plays(s, KEMET_PART_STRONG);
    if (strong && (p->n > R->strong.games || round == 1)) {
        samples_free(&R->strong);
        rc = selfplay_measure(s->r, p->T, p->n, s->st.cap, p->plain != NULL,
                              &R->strong);
    }
    long more = rc || !strong ? 0 : selfplay_size(&R->strong, p->n, &s->z),
         had = p->n;
    if (!rc && more > had && !(rc = play_grow(p, more)))
        rc = add_group(s, G_STRONG, 0, KEMET_PART_STRONG, 0, had, more - had,
                       "strong self-play");
    for (int m = 0; m < NMATCH && !rc; m++) {
        if (!s->pilot[m])
            continue;
        const char *hi, *lo;
        uint64_t seed;
        kemet_match_figures *S = match_of(s, m, &hi, &lo, &seed);
        long n, have = round == 1 ? s->pilot[m] : S->games;
        rc =
            step_size(s->out[m], have, &s->z, m == M_HEAD, m >= M_PROBE, S, &n);
        S->games = n;
        if (rc || n <= have)
            continue;
        rc = grow_match(s, m, have, n);
    }
    return rc;
}

/* After the first stage: the weak self-play's and SkillTrace's figures;
 * then round 1 of the sizing. */
static int stage_middle(kemet_study *s) {
    kemet_study_figures *R = &s->R;
    int rc = plays(s, KEMET_PART_WEAK)
                 ? selfplay_measure(s->r, s->weak.T, s->weak.n, s->st.cap,
                                    false, &R->weak)
                 : 0;
    long tg = s->st.trace_games;
    if (!rc && s->trace) {
        for (int k = 0; k < TRACE && !rc; k++)
            rc = trace_match(s->trace + k * tg, tg, &R->trace_y[k],
                             &R->trace_adj[k]);
        R->skill_trace = kemet_skill_trace(R->trace_y, TRACE);
        double ya[TRACE];
        for (int k = 0; k < TRACE; k++)
            ya[k] = R->trace_adj[k].value;
        R->skill_trace_adj = kemet_skill_trace(ya, TRACE);
    }
    return rc ? rc : stage_grow(s, 1);
}

/* After the last stage: every figure over its whole sample. */
static int stage_end(kemet_study *s) {
    kemet_study_figures *R = &s->R;
    int rc = 0;
    play *p = &s->strong;
    if (plays(s, KEMET_PART_STRONG) && p->n > R->strong.games) {
        samples_free(&R->strong);
        rc = selfplay_measure(s->r, p->T, p->n, s->st.cap, p->plain != NULL,
                              &R->strong);
    }
    for (int m = 0; m < NMATCH && !rc; m++) {
        if (!s->pilot[m])
            continue;
        const char *hi, *lo;
        uint64_t seed;
        kemet_match_figures *S = match_of(s, m, &hi, &lo, &seed);
        if (S->games > s->pilot[m])
            rc = step_end(s->out[m], S->games, S);
        S->contradiction = m <= M_HEAD && S->stats.adj.hi < 0.5;
    }
    if (!rc && plays(s, KEMET_PART_HEAD))
        R->games_to_lead =
            kemet_games_to_lead(R->head.stats.adj.score, R->head.sd);
    return rc;
}

/* ------------------------------------------------------------------------
 * The stopping rule's final step (KEMET_STUDY_LEAST)
 * --------------------------------------------------------------------- */

static kemet_stat stopped_pooled(const kemet_study_figures *R);

/* Match m's figures in R (m as for match_of), NULL for a ladder step the
 * study has not. */
static const kemet_match_figures *match_in(const kemet_study_figures *R,
                                           int m) {
    if (m < M_HEAD)
        return m < R->nsteps ? &R->ladder[m] : NULL;
    return m == M_HEAD ? &R->head : &R->probe[m - M_PROBE];
}

/* A sample of `games` grown to KEMET_STUDY_LEAST, `most` at most. */
static long least_size(long games, long most) {
    long least = KEMET_STUDY_LEAST < most ? KEMET_STUDY_LEAST : most;
    return games < least ? least : games;
}

/* The strong self-play's games that the stopped share asks for: where its
 * estimate (over the strong and the weak self-play's games together) lies
 * within two targets of its flag's threshold, as many as bring Wilson's
 * interval within the target narrowed there (kemet_decide_half), at most
 * z->most; else its games so far. */
static long stopped_size(const kemet_study_figures *R, const sizing *z) {
    long have = R->strong.games, weak = R->weak.games;
    double thr = kemet_criterion_info(KEMET_CRIT_STOPPED)->flag_hi;
    kemet_stat st = stopped_pooled(R);
    if (!(fabs(st.value - thr) < 2 * z->h) || have >= z->most)
        return have;
    long want = kemet_precision_size(have + weak, half_of(&st, false),
                                     decide(z->h, KEMET_CRIT_STOPPED, st.value),
                                     z->most + weak, 1) -
                weak;
    return want < have ? have : want;
}

/* The strong self-play's games that the final step asks for. */
static long strong_late(const kemet_study_figures *R, const sizing *z) {
    long n = least_size(R->strong.games, z->most), m = stopped_size(R, z);
    return m > n ? m : n;
}

int kemet_study_settled(const kemet_study_figures *R, double precision,
                        long most) {
    if (!R || !(precision > 0) || most < 2)
        return 0;
    sizing z = {precision, 2, most};
    /* a sample of no games is a part the study did not play (its
       settings' `parts`) */
    if (R->strong.games > 0 && strong_late(R, &z) > R->strong.games)
        return 0;
    for (int m = 0; m < NMATCH; m++) {
        const kemet_match_figures *S = match_in(R, m);
        if (S && S->games > 0 && least_size(S->games, step_most(&z)) > S->games)
            return 0;
    }
    return 1;
}

/* A round of the final step, after the sizings of the rule before it
 * stopped: every figure over its games so far (stage_end), then the
 * games the final step asks for added to the stage being made; a part
 * it grew is sized again by its usual rule as well. */
static int stage_final(kemet_study *s) {
    kemet_study_figures *R = &s->R;
    int rc = stage_end(s);
    play *p = &s->strong;
    long more = rc || !plays(s, KEMET_PART_STRONG) ? 0 : strong_late(R, &s->z),
         had = p->n;
    if (!rc && (s->grew & 1)) {
        long k = selfplay_size(&R->strong, had, &s->z);
        more = k > more ? k : more;
    }
    if (!rc && more > had) {
        s->grew |= 1;
        if (!(rc = play_grow(p, more)))
            rc = add_group(s, G_STRONG, 0, KEMET_PART_STRONG, 0, had,
                           more - had, "strong self-play");
    }
    for (int m = 0; m < NMATCH && !rc; m++) {
        if (!s->pilot[m])
            continue;
        const char *hi, *lo;
        uint64_t seed;
        kemet_match_figures *S = match_of(s, m, &hi, &lo, &seed);
        long have = S->games, n = least_size(have, step_most(&s->z)), k;
        if (s->grew >> (1 + m) & 1) {
            rc = step_size(s->out[m], have, &s->z, m == M_HEAD, m >= M_PROBE, S,
                           &k);
            n = k > n ? k : n;
        }
        S->games = have;
        if (rc || n <= have)
            continue;
        S->games = n;
        s->grew |= 1u << (1 + m);
        rc = grow_match(s, m, have, n);
    }
    return rc;
}

/* A copy of string `x` at the end of the study's text (filled by
 * kemet_study_new, which sized it). */
static const char *keep(char **at, const char *x) {
    size_t n = strlen(x) + 1;
    memcpy(*at, x, n);
    const char *k = *at;
    *at += n;
    return k;
}

int kemet_study_new(const kemet_judge *judge, const kemet_study_settings *st,
                    kemet_study **out, kemet_error *err) {
    if (out)
        *out = NULL;
    if (!judge || !st || !out || !st->strong || !st->weak[0] || !st->weak[1])
        return kmt_fail(err, KEMET_EMISUSE, "kemet_study_new: NULL argument");
    if (st->rungs < 2 || st->rungs > MAX_RUNGS)
        return kmt_fail(err, KEMET_EMISUSE,
                        "the ladder takes 2 to %d agents, not %d", MAX_RUNGS,
                        st->rungs);
    if (!(st->precision > 0 && st->precision <= 0.5) || st->pilot < 2 ||
        st->most < 2 || st->games < 2 || st->cap < 1 || st->trace_games < 0 ||
        st->trace_base < 1 || st->trace_base > 1000000 >> TRACE ||
        st->parts < 0 || st->parts >= 1 << KEMET_PARTS)
        return kmt_fail(err, KEMET_EMISUSE,
                        "a study's settings: precision 0 to 0.5, pilot, "
                        "most and games 2 or more, a turn cap of 1 or more, "
                        "SkillTrace's games 0 or more and its base budget 1 "
                        "to %d",
                        1000000 >> TRACE);
    const kemet_rules *r = kemet_judge_rules(judge);
    size_t len = 0;
    const char *all[MAX_RUNGS + 3] = {st->strong, st->weak[0], st->weak[1]};
    for (int k = 0; k < st->rungs; k++)
        all[3 + k] = st->ladder[k];
    for (int k = 0; k < st->rungs + 3; k++) {
        if (!all[k])
            return kmt_fail(err, KEMET_EMISUSE, "kemet_study_new: NULL agent");
        int rc = kemet_player_check(r, all[k], err);
        if (rc)
            return rc;
        len += strlen(all[k]) + 1;
    }
    kemet_study *s = calloc(1, sizeof *s);
    if (!s || !(s->text = malloc(len))) {
        free(s);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    char *at = s->text;
    s->j = judge;
    s->r = r;
    s->st = *st;
    s->st.strong = keep(&at, st->strong);
    s->st.weak[0] = keep(&at, st->weak[0]);
    s->st.weak[1] = keep(&at, st->weak[1]);
    for (int k = 0; k < st->rungs; k++)
        s->st.ladder[k] = keep(&at, st->ladder[k]);
    for (int k = st->rungs; k < MAX_RUNGS; k++)
        s->st.ladder[k] = NULL;
    s->z = (sizing){st->precision, st->pilot, st->most};
    kemet_study_figures *R = &s->R;
    snprintf(R->id, sizeof R->id, "%s", kemet_rules_spec(r));
    R->variant = st->variant != 0;
    R->nsteps = st->variant ? 0 : st->rungs - 1;
    const kemet_table *tb = kemet_judge_table(judge);
    if (tb) {
        kemet_table_info ti;
        kemet_table_stats(tb, &ti);
        R->table_pieces = ti.pieces;
    }
    /* The ruleset's own stream of seeds: adding a reading to a run changes
     * no other's numbers; an option's value is part of it, as a variant
     * is its own game. */
    uint64_t rs = st->seed;
    for (const char *c = R->id; *c; c++)
        rs = kmt_mix64(rs ^ (uint64_t)(unsigned char)*c);
    s->rs = rs;
    *out = s;
    return KEMET_OK;
}

void kemet_study_free(kemet_study *s) {
    if (!s)
        return;
    play_free(&s->weak);
    play_free(&s->strong);
    samples_free(&s->R.weak);
    samples_free(&s->R.strong);
    for (int m = 0; m < NMATCH; m++)
        free(s->out[m]);
    free(s->trace);
    free(s->g);
    free(s->urc);
    free(s->text);
    free(s);
}

int kemet_study_next(kemet_study *s, long *units, int *groups) {
    if (units)
        *units = 0;
    if (groups)
        *groups = 0;
    if (!s)
        return KEMET_EMISUSE;
    for (long u = 0; u < s->units; u++)
        if (s->urc[u] != KEMET_OK)
            return s->urc[u] == 1 ? KEMET_EMISUSE : s->urc[u];
    if (s->finished)
        return KEMET_OK;
    s->ng = 0;
    s->units = 0;
    int rc = KEMET_OK;
    if (!s->late) { /* the sizings, until they stop */
        rc = s->stage == 0                    ? stage_open(s)
             : s->stage == 1                  ? stage_middle(s)
             : s->stage <= KEMET_STUDY_ROUNDS ? stage_grow(s, s->stage)
                                              : KEMET_OK;
        s->stage++;
        s->late = !rc && s->units == 0;
    }
    /* then the final step, which leaves figures it has nothing to add to
     * as the sizings left them */
    if (!rc && s->late && s->units == 0 && s->late <= KEMET_STUDY_ROUNDS) {
        rc = stage_final(s);
        s->late++;
    }
    if (!rc && s->units == 0) {
        s->finished = true;
        rc = stage_end(s);
    }
    if (!rc && s->units > 0) {
        int *u = realloc(s->urc, (size_t)s->units * sizeof *u);
        if (!u)
            rc = KEMET_ENOMEM;
        else {
            s->urc = u;
            for (long k = 0; k < s->units; k++)
                u[k] = 1;
        }
    }
    if (rc) { /* nothing more can be done with the study */
        s->ng = 0;
        s->units = 0;
        s->finished = true;
        s->stage = -1;
        return rc;
    }
    if (units)
        *units = s->units;
    if (groups)
        *groups = s->ng;
    return KEMET_OK;
}

int kemet_study_group_info(const kemet_study *s, int g,
                           kemet_study_group *out) {
    if (!s || !out)
        return KEMET_EMISUSE;
    if (g < 0 || g >= s->ng)
        return KEMET_ERANGE;
    *out = s->g[g].info;
    return KEMET_OK;
}

/* The group of unit u, and the game it plays in *game. */
static const group *unit_group(const kemet_study *s, long u, long *game) {
    int lo = 0, hi = s->ng - 1;
    while (lo < hi) { /* the last group to start by u */
        int mid = (lo + hi + 1) / 2;
        if (s->g[mid].info.unit <= u)
            lo = mid;
        else
            hi = mid - 1;
    }
    const group *g = &s->g[lo];
    *game = g->first + (u - g->info.unit);
    return g;
}

int kemet_study_play(kemet_study *s, long u) {
    if (!s || u < 0 || u >= s->units)
        return KEMET_EMISUSE;
    long i;
    const group *g = unit_group(s, u, &i);
    int rc;
    static const int how =
        KEMET_MATCH_ALTERNATE | KEMET_MATCH_PAIRED | KEMET_MATCH_LUCK;
    switch (g->kind) {
    case G_WEAK: rc = trace_game(&s->weak, i); break;
    case G_STRONG: rc = trace_game(&s->strong, i); break;
    case G_MATCH: {
        const char *spec[2];
        uint64_t seed;
        match_of(s, g->which, &spec[0], &spec[1], &seed);
        rc = kemet_match_game(s->j, spec, how, seed, i, s->st.cap, 0,
                              &s->out[g->which][i]);
        break;
    }
    default: { /* SkillTrace's match k: game i - k * its games of it */
        int k = g->which;
        long tg = s->st.trace_games;
        const char *spec[2] = {s->budget[k + 1], s->budget[k]};
        rc = kemet_match_game(s->j, spec,
                              KEMET_MATCH_ALTERNATE | KEMET_MATCH_LUCK,
                              kmt_mix64(kmt_mix64(s->rs + 3) + (uint64_t)k),
                              i - (long)k * tg, s->st.cap, 0, &s->trace[i]);
        break;
    }
    }
    s->urc[u] = rc;
    return rc;
}

/* A unit's bytes: a self-play game's trace (its fixed part, then its
 * chances), or a match game's outcome. */
int kemet_study_unit_save(const kemet_study *s, long u, void *buf, size_t size,
                          size_t *len) {
    if (len)
        *len = 0;
    if (!s || !len || u < 0 || u >= s->units || s->urc[u] != KEMET_OK)
        return KEMET_EMISUSE;
    long i;
    const group *g = unit_group(s, u, &i);
    const void *a = NULL, *b = NULL;
    size_t na, nb = 0;
    if (g->kind == G_WEAK || g->kind == G_STRONG) {
        const tracer *T = &(g->kind == G_WEAK ? &s->weak : &s->strong)->T[i];
        a = &T->s;
        na = sizeof T->s;
        b = T->p1;
        nb = (size_t)T->s.t.n * sizeof *T->p1;
    } else {
        a = g->kind == G_MATCH ? &s->out[g->which][i] : &s->trace[i];
        na = sizeof(kemet_outcome);
    }
    *len = na + nb;
    if (!buf || size < *len)
        return KEMET_ERANGE;
    memcpy(buf, a, na);
    if (nb)
        memcpy((char *)buf + na, b, nb);
    return KEMET_OK;
}

int kemet_study_unit_load(kemet_study *s, long u, const void *buf, size_t len) {
    if (!s || !buf || u < 0 || u >= s->units)
        return KEMET_EMISUSE;
    long i;
    const group *g = unit_group(s, u, &i);
    if (g->kind == G_WEAK || g->kind == G_STRONG) {
        tracer *T = &(g->kind == G_WEAK ? &s->weak : &s->strong)->T[i];
        game_sum sum;
        if (len < sizeof sum)
            return KEMET_ESYNTAX;
        memcpy(&sum, buf, sizeof sum);
        if (sum.t.n < 0 || len - sizeof sum != (size_t)sum.t.n * sizeof(double))
            return KEMET_ESYNTAX;
        double *p1 = malloc((size_t)(sum.t.n ? sum.t.n : 1) * sizeof *p1);
        if (!p1)
            return KEMET_ENOMEM;
        memcpy(p1, (const char *)buf + sizeof sum,
               (size_t)sum.t.n * sizeof *p1);
        free(T->p1);
        *T = (tracer){.s = sum, .p1 = p1, .cap = sum.t.n};
        T->s.t.p1 = NULL;
    } else {
        if (len != sizeof(kemet_outcome))
            return KEMET_ESYNTAX;
        memcpy(g->kind == G_MATCH ? &s->out[g->which][i] : &s->trace[i], buf,
               len);
    }
    s->urc[u] = KEMET_OK;
    return KEMET_OK;
}

typedef struct runner {
    kemet_study *s;
} runner;

static void run_unit(void *ctx, long u, int thread) {
    (void)thread;
    kemet_study_play(((runner *)ctx)->s, u);
}

int kemet_study_run(kemet_study *s, int threads) {
    if (!s)
        return KEMET_EMISUSE;
    for (;;) {
        long n;
        int rc = kemet_study_next(s, &n, NULL);
        if (rc || n == 0)
            return rc;
        runner R = {s};
        kmt_run_units(threads, n, run_unit, &R);
    }
}

int kemet_study_result(const kemet_study *s, kemet_study_figures *out) {
    if (!s || !out)
        return KEMET_EMISUSE;
    if (!s->finished || s->stage < 0)
        return KEMET_EMISUSE;
    *out = s->R;
    return KEMET_OK;
}

/* ------------------------------------------------------------------------
 * A study's figures for the verdict
 * --------------------------------------------------------------------- */

/* x held to 0..1. */
static double in_unit(double x) {
    return fmin(1, fmax(0, x));
}

/* The share of the games decided by the better choices of an agent that
 * scores s: 2s - 1, held to 0..1. */
static double edge_of(double s) {
    return in_unit(2 * s - 1);
}

/* The share of games the turn cap stopped, over the strong and the weak
 * self-play's games together, with Wilson's interval: whether the rules
 * fail to end a game is a property of the rules, and the weak self-play's
 * many games settle it where the strong self-play's hundred or so leave a
 * share of a few percent on either side of the threshold. */
static kemet_stat stopped_pooled(const kemet_study_figures *R) {
    const kemet_selfplay_figures *P[2] = {&R->strong, &R->weak};
    double k = 0, g = 0;
    for (int i = 0; i < 2; i++) {
        g += (double)P[i]->games;
        k += (double)lround((double)P[i]->games * P[i]->stopped.value);
    }
    kemet_stat s = {g > 0 ? k / g : NAN, NAN, NAN};
    if (g > 0)
        kemet_wilson(k, g, 1.96, &s.lo, &s.hi);
    return s;
}

int kemet_study_measured(const kemet_study_figures *R, int weak,
                         kemet_measured *out) {
    if (!R || !out)
        return KEMET_EMISUSE;
    const kemet_selfplay_figures *S = weak ? &R->weak : &R->strong;
    kemet_measured m;
    m.c[KEMET_CRIT_LENGTH] = S->median;
    /* a median beyond the cap is known only to exceed the cap: where the
     * interval's low end is beyond it too, that end is the cap itself,
     * the turn at which the games were stopped (half of them or more, at
     * which kemet_analysis's median counts them), so that a cap below a
     * flag's threshold does not flag a length it cannot show */
    if (isinf(m.c[KEMET_CRIT_LENGTH].lo))
        m.c[KEMET_CRIT_LENGTH].lo = S->analysis.median_turns;
    m.c[KEMET_CRIT_DECISIONS] = S->per_turn;
    /* a ratio of counts is never negative, though its normal interval
     * may reach below 0 on a few short games */
    m.c[KEMET_CRIT_DECISIONS].lo = fmax(0, m.c[KEMET_CRIT_DECISIONS].lo);
    /* the strong agent's edge over the weak, held to 0..1 (as the score
     * is): the share of the games its better choices decide, were each
     * game either decided by them or a toss-up */
    const kemet_estimate *hd = &R->head.stats.adj;
    m.c[KEMET_CRIT_SKILL] =
        (kemet_stat){edge_of(hd->score), edge_of(hd->lo), edge_of(hd->hi)};
    if (weak) {
        long g = S->analysis.games;
        double k = (double)S->analysis.wins[0] + (double)S->analysis.draws / 2;
        m.c[KEMET_CRIT_BALANCE] = (kemet_stat){k / (double)g, NAN, NAN};
        kemet_wilson(k, (double)g, 1.96, &m.c[KEMET_CRIT_BALANCE].lo,
                     &m.c[KEMET_CRIT_BALANCE].hi);
    } else
        m.c[KEMET_CRIT_BALANCE] = S->p1_adjusted;
    m.c[KEMET_CRIT_TENSION] = S->analysis.lead_change;
    m.c[KEMET_CRIT_STOPPED] = weak ? S->stopped : stopped_pooled(R);
    for (int c = 0; c < KEMET_CRITERIA; c++)
        m.games[c] = S->games;
    m.games[KEMET_CRIT_SKILL] = R->head.games;
    if (!weak)
        m.games[KEMET_CRIT_STOPPED] += R->weak.games;
    /* the probe that comes nearest search, held to 0..1 as every
     * luck-adjusted score shown is */
    int b = 0;
    for (int k = 1; k < NPROBES; k++)
        if (R->probe[k].stats.adj.score > R->probe[b].stats.adj.score)
            b = k;
    const kemet_estimate *e = &R->probe[b].stats.adj;
    m.c[KEMET_CRIT_PROBES] =
        (kemet_stat){in_unit(e->score), in_unit(e->lo), in_unit(e->hi)};
    m.games[KEMET_CRIT_PROBES] = R->probe[b].games;
    *out = m;
    return KEMET_OK;
}
