/* analyze.c - `kemet analyze`: which reconstruction makes the best game.
 *
 * For each ruleset: N self-play games between two agents (seats fixed, so
 * that the first player's advantage shows), each traced ply by ply (the
 * evaluation's win chance for player 1 before each ply, the number of
 * legal moves at each throw); the figures come from kemet_analyze_traces.
 * Then skill: `best` against random and against greedy, seats
 * alternating. Every game is seeded from (seed, ruleset, index), so the
 * numbers do not depend on the thread count.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char analyze_usage[] =
    "usage: kemet analyze RULESET... [--games N] [--agents A,B] [--seed S]\n"
    "                     [--threads T] [--format md|csv|json] [--plots DIR]\n"
    "                     [--skill-games M] [--best A] [--max-turns T]\n"
    "                     [--output FILE]\n"
    "Plays N self-play games (default 1000) per ruleset between agents A\n"
    "(player 1) and B (default greedy,greedy) and reports, with 95%\n"
    "intervals: completion and draws, player 1's advantage and the balance,\n"
    "length in turns and moves, lost throws, forced moves, choices at real\n"
    "decisions, lead changes, drama and decisiveness (from the evaluation's\n"
    "win chances), under Ludii's metric names where Ludii defines the same\n"
    "figure; then skill: agent --best (default best:8k) against random and\n"
    "against greedy over M games each (default N; 0: none), seats\n"
    "alternating. --plots DIR writes SVG plots there (and a Markdown report\n"
    "shows them). --output FILE writes the report to FILE, whole or not at\n"
    "all, its plot links relative to FILE. 'all' names every ruleset. The\n"
    "same seed gives the same numbers whatever the thread count.\n" TABLES_HELP
        NET_HELP;

/* The trace of one game while it is played. */
typedef struct tracer {
    const kemet_judge *ev; /* the evaluation alone: no tables */
    kemet_trace t;
    double *p1;
    long cap;
    bool failed;
} tracer;

static void trace_ply(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                      const kemet_move *moves, int n) {
    tracer *T = ctx;
    if (!thr) {
        if (kc_grow(&T->p1, &T->cap, T->t.n, sizeof *T->p1)) {
            T->failed = true;
            return;
        }
        T->p1[T->t.n++] = kemet_win_chance(T->ev, pos, 1);
        return;
    }
    if (n == 1 && moves[0].n == 0)
        T->t.passes++;
    else if (n == 1)
        T->t.forced++;
    else {
        T->t.decisions++;
        T->t.choices += n;
    }
    T->t.branching += n;
}

typedef struct job {
    const kemet_judge *j, *ev;
    const char *spec[2];
    uint64_t seed;
    long cap;
    tracer *games;
    long offset, stride; /* this rank's games: offset + k * stride */
} job;

static int trace_game(void *ctx, long k) {
    job *J = ctx;
    long i = J->offset + k * J->stride;
    tracer *T = &J->games[i];
    T->ev = J->ev;
    kemet_game *g = NULL;
    int rc = cli_play_seeded(J->j, J->spec, cli_game_seed(J->seed, (uint64_t)i),
                             J->cap, trace_ply, T, NULL, &g);
    if (rc)
        return rc;
    T->t.result = kemet_result(kemet_game_pos(g));
    T->t.turns = kemet_game_turns(g);
    T->t.moves = kemet_game_plies(g);
    T->t.p1 = T->p1;
    kemet_game_free(g);
    return T->failed ? KEMET_ENOMEM : KEMET_OK;
}

/* Everything measured on one ruleset. */
typedef struct result {
    char id[96];
    kemet_analysis a;
    long hist[21]; /* games by length, in 20 bins of `bin` turns */
    double bin;
    long skill_games;
    kemet_stat skill[2]; /* best's win rate against random, greedy */
} result;

/* Best's win rate over `games` games against `other`, seats alternating. */
static int skill(const kemet_judge *j, const char *best, const char *other,
                 long games, uint64_t seed, long cap, int threads,
                 kemet_stat *out) {
    const char *spec[2] = {best, other};
    cli_match_stats M;
    if (cli_match(j, spec, games, seed, cap, threads, 0, &M))
        return EXIT_BAD;
    *out = (kemet_stat){(double)M.wins[0] / (double)games, M.lo[0], M.hi[0]};
    return 0;
}

/* Under mpirun: every rank's traces to every rank, in game order (the
 * fixed part of each, then each game's win estimates, which then live in
 * *joined). */
static int share_traces(tracer *T, long games, int rc, double **joined) {
    int rank = cli_mpi_rank(), size = cli_mpi_size();
    long mine = cli_mpi_share(games);
    kemet_trace *part = malloc((size_t)(mine ? mine : 1) * sizeof *part);
    kemet_trace *all = malloc((size_t)games * sizeof *all);
    long nmine = 0, total = 0;
    for (long k = 0; part && k < mine; k++) {
        part[k] = T[rank + k * size].t;
        part[k].p1 = NULL;
        nmine += part[k].n;
    }
    rc = cli_mpi_deal(games, sizeof *all, part, all,
                      part && all ? rc : KEMET_ENOMEM);
    double *mine_p1 =
        rc ? NULL : malloc((size_t)(nmine ? nmine : 1) * sizeof *mine_p1);
    for (long i = 0; !rc && i < games; i++)
        total += all[i].n;
    double *p1 = rc ? NULL : malloc((size_t)(total ? total : 1) * sizeof *p1);
    int bad = !rc && (!mine_p1 || !p1);
    if (!rc) {
        long at = 0;
        for (long k = 0; mine_p1 && k < mine; k++) {
            const tracer *x = &T[rank + k * size];
            memcpy(mine_p1 + at, x->p1, (size_t)x->t.n * sizeof *mine_p1);
            at += x->t.n;
        }
        rc = bad ? KEMET_ENOMEM
                 : cli_mpi_join(mine_p1, nmine, sizeof *p1, p1, total);
    }
    if (!rc) { /* rank r's numbers: its games r, r + size, ... in turn */
        long at = 0;
        for (int r = 0; r < size; r++)
            for (long i = r; i < games; i += size) {
                T[i].t = all[i];
                T[i].t.p1 = p1 + at;
                at += all[i].n;
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

static int analyze_one(const char *id, const char *agents[2], long games,
                       uint64_t seed, long cap, int threads, const char *best,
                       long skill_games, result *R) {
    kemet_judge *j, *ev = NULL;
    kemet_rules *r = cli_rules_for(id, NULL, NULL, &j);
    if (!r)
        return EXIT_BAD;
    /* The win estimates are the evaluation's, tables left out. */
    if (kemet_judge_new(r, NULL, &ev, NULL) || cli_use_net(ev, cli_net)) {
        kemet_judge_free(ev);
        kemet_judge_free(j);
        kemet_rules_close(r);
        return EXIT_BAD;
    }
    snprintf(R->id, sizeof R->id, "%s", kemet_rules_spec(r));
    tracer *T = calloc((size_t)games, sizeof *T);
    kemet_trace *t = calloc((size_t)games, sizeof *t);
    double *joined = NULL; /* the win estimates of every rank's games */
    int rc = 0;
    if (!T || !t) {
        rc = cli_fail("out of memory");
        goto out;
    }
    /* The ruleset's own stream of seeds: adding a ruleset to the list
     * changes no other ruleset's numbers. */
    uint64_t rs = seed;
    for (const char *c = kemet_rules_info(r)->id; *c; c++)
        rs = kc_mix64(rs ^ (uint64_t)(unsigned char)*c);
    /* under mpirun each rank traces games rank, rank + size, ... */
    int rank = cli_mpi_rank(), size = cli_mpi_size();
    long mine = cli_mpi_share(games);
    job J = {j, ev, {agents[0], agents[1]}, rs, cap, T, rank, size};
    char what[160];
    snprintf(what, sizeof what, "%s: self-play", R->id);
    int failed = cli_parallel_dealt(mine, games, threads, trace_game, &J, what);
    if (size > 1 && (failed = share_traces(T, games, failed, &joined))) {
        rc = cli_fail("analyze: out of memory");
        goto out;
    }
    if (failed) {
        rc = cli_fail("analyze: out of memory");
        goto out;
    }
    long longest = 1;
    for (long i = 0; i < games; i++) {
        t[i] = T[i].t;
        longest = t[i].turns > longest ? t[i].turns : longest;
    }
    if (kemet_analyze_traces(t, games, &R->a)) {
        rc = cli_fail("analyze: out of memory");
        goto out;
    }
    R->bin = ceil((double)(longest + 1) / 20.0);
    for (long i = 0; i < games; i++)
        R->hist[(int)((double)t[i].turns / R->bin)]++;
    R->skill_games = skill_games;
    if (skill_games > 0) {
        if (skill(j, best, "random", skill_games, kc_mix64(rs + 1), cap,
                  threads, &R->skill[0]) ||
            skill(j, best, "greedy", skill_games, kc_mix64(rs + 2), cap,
                  threads, &R->skill[1]))
            rc = EXIT_BAD;
    }
out:
    if (T)
        for (long i = 0; i < games; i++)
            free(T[i].p1);
    free(T);
    free(t);
    free(joined);
    kemet_judge_free(ev);
    kemet_judge_free(j);
    kemet_rules_close(r);
    return rc;
}

/* ------------------------------------------------------------------------
 * Output
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

/* An image line for plot `name`, when the plots are written (`link` is
 * the plot folder as seen from the report). */
static void md_plot(FILE *o, const char *link, const char *name,
                    const char *alt) {
    if (link)
        fprintf(o, "\n![%s](%s/%s)\n", alt, link, name);
}

static void print_md(FILE *o, const result *R, int n, const char *agents[2],
                     long games, uint64_t seed, const char *best,
                     const char *link, int argc, char **argv) {
    fprintf(o, "# Which reconstruction makes the best game?\n\nGenerated by "
               "`kemet");
    for (int i = 0; i < argc; i++)
        fprintf(o, " %s", argv[i]);
    fprintf(o,
            "`; do not edit by hand.\n\n"
            "The figures that Ludii's evaluation metrics also define carry "
            "Ludii's names and definitions: **Completion** (games that ended "
            "by the rules), **Drawishness** (games drawn), **AdvantageP1** "
            "(games player 1 won), **Balance** (1 − the gap between the two "
            "players' win rates), **DurationTurns** (mean turns), "
            "**BranchingFactor** (per game, the mean number of legal moves at "
            "a throw; then the mean over games), **LeadChange** (per game, how "
            "often the player with the higher estimated win chance changes, "
            "over the moves, the first state counting as a change), **Drama** "
            "(per game, the mean gap between the higher win estimate and the "
            "eventual winner's), **DecisivenessThreshold** (per game, the "
            "highest win estimate of the player who did not win; −1 for a "
            "draw). The win estimates are the evaluation's (docs/agents.md). "
            "Also: lost throws (a throw that cannot be used), forced moves (a "
            "throw with one legal move), and the mean number of choices at "
            "throws with two or more. Shares are of all throws.\n\n");
    fprintf(
        o,
        "Self-play: %ld games per ruleset, %s (player 1) against %s "
        "(player 2), seed %llu. Figures in brackets are 95%% intervals.\n\n",
        games, agents[0], agents[1], (unsigned long long)seed);
    fprintf(o, "### Outcomes\n\n| ruleset | Completion %% | Drawishness %% | "
               "AdvantageP1 %% | Balance |\n|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const kemet_analysis *a = &R[i].a;
        fprintf(o, "| %s |", R[i].id);
        md_stat(o, &a->completion, 100, 1);
        md_stat(o, &a->drawishness, 100, 1);
        md_stat(o, &a->advantage_p1, 100, 1);
        md_stat(o, &a->balance, 1, 3);
        fputc('\n', o);
    }
    md_plot(o, link, "advantage.svg",
            "Player 1's win rate per ruleset, with 95% intervals");
    fprintf(o, "\n### Length\n\n| ruleset | DurationTurns | median turns | sd "
               "turns | moves (plies) | median moves | sd moves |\n"
               "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const kemet_analysis *a = &R[i].a;
        fprintf(o, "| %s |", R[i].id);
        md_stat(o, &a->duration_turns, 1, 1);
        fprintf(o, " %.1f | %.1f |", a->median_turns, a->sd_turns);
        md_stat(o, &a->duration_moves, 1, 1);
        fprintf(o, " %.1f | %.1f |\n", a->median_moves, a->sd_moves);
    }
    md_plot(o, link, "lengths.svg", "Game length in turns, per ruleset");
    fprintf(o,
            "\n### Choices\n\n| ruleset | lost throws %% | forced moves %% | "
            "choices at real decisions | BranchingFactor |\n"
            "|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const kemet_analysis *a = &R[i].a;
        fprintf(o, "| %s |", R[i].id);
        md_stat(o, &a->lost_throws, 100, 1);
        md_stat(o, &a->forced_moves, 100, 1);
        md_stat(o, &a->choices, 1, 2);
        md_stat(o, &a->branching_factor, 1, 2);
        fputc('\n', o);
    }
    fprintf(
        o, "\n### Tension (from the evaluation's win chances)\n\n| ruleset | "
           "LeadChange | Drama | DecisivenessThreshold |\n|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const kemet_analysis *a = &R[i].a;
        fprintf(o, "| %s |", R[i].id);
        md_stat(o, &a->lead_change, 1, 3);
        md_stat(o, &a->drama, 1, 3);
        md_stat(o, &a->decisiveness_threshold, 1, 3);
        fputc('\n', o);
    }
    if (R[0].skill_games > 0) {
        fprintf(o,
                "\n### Skill\n\n%s's win rate, %ld games each, seats "
                "alternating.\n\n| ruleset | against random %% | against "
                "greedy %% |\n|---|---|---|\n",
                best, R[0].skill_games);
        for (int i = 0; i < n; i++) {
            fprintf(o, "| %s |", R[i].id);
            md_stat(o, &R[i].skill[0], 100, 1);
            md_stat(o, &R[i].skill[1], 100, 1);
            fputc('\n', o);
        }
        md_plot(o, link, "skill.svg",
                "Skill: the stronger agent's win rate against random and "
                "greedy");
    }
}

/* The reading: sentences drawn from the numbers by fixed rules, so that
 * the generated document says what its tables say. */
static int by_value(const void *a, const void *b) {
    const double *x = a, *y = b;
    return (x[0] < y[0]) - (x[0] > y[0]);
}

static void print_reading(FILE *o, const result *R, int n, const char *best) {
    fprintf(o, "\n### Reading\n\n");
    fprintf(o, "These sentences follow from the tables by fixed rules (`kemet "
               "analyze` writes them).\n\n");
    if (R[0].skill_games > 0) {
        double order[64][2];
        for (int i = 0; i < n; i++) {
            order[i][0] = R[i].skill[1].value;
            order[i][1] = i;
        }
        qsort(order, (size_t)n, sizeof order[0], by_value);
        fprintf(o,
                "- **Skill.** Ranked by %s's win rate against greedy:", best);
        for (int k = 0; k < n; k++) {
            const result *x = &R[(int)order[k][1]];
            fprintf(o, "%s %s %.1f%%", k ? "," : "", x->id,
                    100 * x->skill[1].value);
        }
        fprintf(o, ".\n");
        bool any = false;
        for (int i = 0; i < n; i++)
            if (R[i].skill[1].lo <= 0.5 || R[i].skill[0].lo <= 0.6) {
                fprintf(o,
                        "%s %s (against greedy %.1f%%, interval %.1f–%.1f%%; "
                        "against random %.1f%%)",
                        any ? ";"
                            : "- **Near coin flips** (the stronger agent "
                              "is not clearly better than greedy, or "
                              "hardly beats random):",
                        R[i].id, 100 * R[i].skill[1].value,
                        100 * R[i].skill[1].lo, 100 * R[i].skill[1].hi,
                        100 * R[i].skill[0].value);
                any = true;
            }
        if (any)
            fprintf(o, ".\n");
    }
    bool any = false;
    for (int i = 0; i < n; i++) {
        const kemet_stat *a = &R[i].a.advantage_p1;
        const kemet_analysis *x = &R[i].a;
        double other = (double)x->wins[1] / (double)x->games;
        double olo, ohi;
        kemet_wilson((double)x->wins[1], (double)x->games, 1.96, &olo, &ohi);
        if (a->lo > ohi || a->hi < olo) {
            fprintf(o, "%s %s (player 1 wins %.1f%%, player 2 %.1f%%)",
                    any ? ";"
                        : "- **One seat is favoured** (the two players' "
                          "win rates' intervals do not overlap):",
                    R[i].id, 100 * a->value, 100 * other);
            any = true;
        }
    }
    fprintf(o, any ? ".\n"
                   : "- **Neither seat is favoured** beyond chance in "
                     "any ruleset.\n");
    double order[64][2];
    for (int i = 0; i < n; i++) {
        order[i][0] = R[i].a.duration_turns.value;
        order[i][1] = i;
    }
    qsort(order, (size_t)n, sizeof order[0], by_value);
    fprintf(o, "- **Length.** Longest first, mean turns:");
    for (int k = 0; k < n; k++) {
        const result *x = &R[(int)order[k][1]];
        fprintf(o, "%s %s %.0f", k ? "," : "", x->id,
                x->a.duration_turns.value);
    }
    fprintf(o, ".\n");
    any = false;
    for (int i = 0; i < n; i++)
        if (R[i].a.stopped > 0 || R[i].a.draws > 0) {
            fprintf(o, "%s %s (%ld stopped, %ld drawn of %ld)",
                    any ? ";" : "- **Games that do not finish with a winner**:",
                    R[i].id, R[i].a.stopped, R[i].a.draws, R[i].a.games);
            any = true;
        }
    if (any)
        fprintf(o, ".\n");
    any = false;
    for (int i = 0; i < n; i++)
        if (R[i].a.forced_moves.value + R[i].a.lost_throws.value > 0.5) {
            fprintf(o, "%s %s (%.0f%% of throws leave no choice)",
                    any ? ";" : "- **Few real decisions**:", R[i].id,
                    100 *
                        (R[i].a.forced_moves.value + R[i].a.lost_throws.value));
            any = true;
        }
    if (any)
        fprintf(o, ".\n");
}

static void csv_stat(FILE *o, const kemet_stat *s) {
    fprintf(o, ",%.6g,%.6g,%.6g", s->value, s->lo, s->hi);
}

static void print_csv(FILE *o, const result *R, int n) {
    static const char *const names[] = {"Completion",
                                        "Drawishness",
                                        "AdvantageP1",
                                        "Balance",
                                        "DurationTurns",
                                        "DurationMoves",
                                        "LostThrows",
                                        "ForcedMoves",
                                        "Choices",
                                        "BranchingFactor",
                                        "LeadChange",
                                        "Drama",
                                        "DecisivenessThreshold",
                                        "SkillVsRandom",
                                        "SkillVsGreedy"};
    fprintf(o, "ruleset,games,stopped,draws,wins1,wins2,median_turns,sd_turns,"
               "median_moves,sd_moves");
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        fprintf(o, ",%s,%s_lo,%s_hi", names[k], names[k], names[k]);
    fputc('\n', o);
    for (int i = 0; i < n; i++) {
        const kemet_analysis *a = &R[i].a;
        fprintf(o, "%s,%ld,%ld,%ld,%ld,%ld,%.6g,%.6g,%.6g,%.6g", R[i].id,
                a->games, a->stopped, a->draws, a->wins[0], a->wins[1],
                a->median_turns, a->sd_turns, a->median_moves, a->sd_moves);
        const kemet_stat *s[] = {&a->completion,
                                 &a->drawishness,
                                 &a->advantage_p1,
                                 &a->balance,
                                 &a->duration_turns,
                                 &a->duration_moves,
                                 &a->lost_throws,
                                 &a->forced_moves,
                                 &a->choices,
                                 &a->branching_factor,
                                 &a->lead_change,
                                 &a->drama,
                                 &a->decisiveness_threshold,
                                 &R[i].skill[0],
                                 &R[i].skill[1]};
        for (size_t k = 0; k < sizeof s / sizeof s[0]; k++)
            csv_stat(o, s[k]);
        fputc('\n', o);
    }
}

static void json_num(FILE *o, double x) {
    if (isnan(x) || isinf(x))
        fprintf(o, "null");
    else
        fprintf(o, "%.6g", x);
}

static void json_stat(FILE *o, const char *name, const kemet_stat *s,
                      bool last) {
    fprintf(o, "\"%s\":{\"value\":", name);
    json_num(o, s->value);
    fprintf(o, ",\"ci95\":[");
    json_num(o, s->lo);
    fputc(',', o);
    json_num(o, s->hi);
    fprintf(o, "]}%s", last ? "" : ",");
}

static void print_json(FILE *o, const result *R, int n, const char *agents[2],
                       long games, uint64_t seed, const char *best) {
    fprintf(o,
            "{\"games\":%ld,\"seed\":%llu,\"agents\":[\"%s\",\"%s\"],"
            "\"best\":\"%s\",\"rulesets\":[",
            games, (unsigned long long)seed, agents[0], agents[1], best);
    for (int i = 0; i < n; i++) {
        const kemet_analysis *a = &R[i].a;
        fprintf(o,
                "%s{\"ruleset\":\"%s\",\"games\":%ld,\"stopped\":%ld,"
                "\"draws\":%ld,\"wins\":[%ld,%ld],\"median_turns\":",
                i ? "," : "", R[i].id, a->games, a->stopped, a->draws,
                a->wins[0], a->wins[1]);
        json_num(o, a->median_turns);
        fprintf(o, ",\"sd_turns\":");
        json_num(o, a->sd_turns);
        fprintf(o, ",\"median_moves\":");
        json_num(o, a->median_moves);
        fprintf(o, ",\"sd_moves\":");
        json_num(o, a->sd_moves);
        fputc(',', o);
        json_stat(o, "Completion", &a->completion, false);
        json_stat(o, "Drawishness", &a->drawishness, false);
        json_stat(o, "AdvantageP1", &a->advantage_p1, false);
        json_stat(o, "Balance", &a->balance, false);
        json_stat(o, "DurationTurns", &a->duration_turns, false);
        json_stat(o, "DurationMoves", &a->duration_moves, false);
        json_stat(o, "LostThrows", &a->lost_throws, false);
        json_stat(o, "ForcedMoves", &a->forced_moves, false);
        json_stat(o, "Choices", &a->choices, false);
        json_stat(o, "BranchingFactor", &a->branching_factor, false);
        json_stat(o, "LeadChange", &a->lead_change, false);
        json_stat(o, "Drama", &a->drama, false);
        json_stat(o, "DecisivenessThreshold", &a->decisiveness_threshold,
                  R[i].skill_games == 0);
        if (R[i].skill_games > 0) {
            json_stat(o, "SkillVsRandom", &R[i].skill[0], false);
            json_stat(o, "SkillVsGreedy", &R[i].skill[1], true);
        }
        fputc('}', o);
    }
    fprintf(o, "]}\n");
}

/* ------------------------------------------------------------------------
 * Plots: plain SVG, written by hand.
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

/* Game lengths: one histogram row per ruleset. */
static int plot_lengths(const char *dir, const result *R, int n) {
    int rowh = 60, w = 720, h = 40 + n * rowh + 10;
    FILE *f =
        svg_open(dir, "lengths.svg", w, h, "Game length in turns (self-play)");
    if (!f)
        return EXIT_BAD;
    for (int i = 0; i < n; i++) {
        int y0 = 40 + i * rowh;
        long top = 1;
        for (int b = 0; b < 21; b++)
            top = R[i].hist[b] > top ? R[i].hist[b] : top;
        fprintf(f, "<text x=\"10\" y=\"%d\">%s</text>\n", y0 + 28, R[i].id);
        for (int b = 0; b < 21; b++) {
            double bh = 44.0 * (double)R[i].hist[b] / (double)top;
            fprintf(f,
                    "<rect x=\"%d\" y=\"%.1f\" width=\"20\" height=\"%.1f\" "
                    "fill=\"#8a5a2b\"><title>%.0f-%.0f turns: %ld "
                    "games</title></rect>\n",
                    250 + b * 22, y0 + 48 - bh, bh, b * R[i].bin,
                    (b + 1) * R[i].bin - 1, R[i].hist[b]);
        }
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" fill=\"#555\">0 to %.0f turns; "
                "median %.0f</text>\n",
                250, y0 + 60, 21 * R[i].bin, R[i].a.median_turns);
    }
    return svg_close(f);
}

/* A share with its interval per ruleset, on a 0-100% axis with a mark at
 * `ref`. */
static int plot_shares(const char *dir, const char *name, const char *title,
                       const result *R, int n, int series,
                       const char *const labels[], double ref) {
    int rowh = 26 * series + 8, w = 820, h = 60 + n * rowh + 20;
    FILE *f = svg_open(dir, name, w, h, title);
    if (!f)
        return EXIT_BAD;
    int x0 = 250, x1 = 700;
    for (int t = 0; t <= 100; t += 25) {
        double x = x0 + (x1 - x0) * t / 100.0;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"45\" x2=\"%.1f\" y2=\"%d\" "
                "stroke=\"#ddd\"/><text x=\"%.1f\" y=\"40\" "
                "text-anchor=\"middle\">%d%%</text>\n",
                x, x, h - 15, x, t);
    }
    double xr = x0 + (x1 - x0) * ref;
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"45\" x2=\"%.1f\" y2=\"%d\" "
            "stroke=\"#b03030\" stroke-dasharray=\"4 3\"/>\n",
            xr, xr, h - 15);
    static const char *const colour[] = {"#2b5d8a", "#8a5a2b"};
    for (int i = 0; i < n; i++) {
        int y0 = 55 + i * rowh;
        fprintf(f, "<text x=\"10\" y=\"%d\">%s</text>\n", y0 + 13, R[i].id);
        for (int s = 0; s < series; s++) {
            const kemet_stat *st =
                series == 1 ? &R[i].a.advantage_p1 : &R[i].skill[s];
            double y = y0 + 10 + 26 * s;
            double xv = x0 + (x1 - x0) * st->value;
            double xl = x0 + (x1 - x0) * st->lo, xh = x0 + (x1 - x0) * st->hi;
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                    "stroke=\"%s\" stroke-width=\"2\"/><circle cx=\"%.1f\" "
                    "cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s %s: %.1f%% "
                    "(%.1f-%.1f%%)</title></circle>\n",
                    xl, y, xh, y, colour[s], xv, y, colour[s], R[i].id,
                    labels[s], 100 * st->value, 100 * st->lo, 100 * st->hi);
            if (series > 1)
                fprintf(f,
                        "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" "
                        "font-size=\"10\">%s %.1f%%</text>\n",
                        xh + 6, y + 4, colour[s], labels[s], 100 * st->value);
        }
    }
    return svg_close(f);
}

/* The plot folder is made (or found) before any game is played, so that a
 * bad --plots fails at once. */
static int plot_folder(const char *dir) {
    struct stat st;
    if (mkdir(dir, 0777) != 0 &&
        (errno != EEXIST || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        return cli_fail("cannot create the plot folder %.200s", dir);
    return 0;
}

static int write_plots(const char *dir, const result *R, int n,
                       const char *best) {
    static const char *const adv[] = {"player 1"};
    static const char *const sk[] = {"vs random", "vs greedy"};
    if (plot_lengths(dir, R, n) ||
        plot_shares(dir, "advantage.svg",
                    "Player 1's win rate (AdvantageP1) with 95% intervals", R,
                    n, 1, adv, 0.5))
        return EXIT_BAD;
    char title[160];
    snprintf(title, sizeof title,
             "Skill: %.60s's win rate against random and greedy", best);
    if (R[0].skill_games > 0 &&
        plot_shares(dir, "skill.svg", title, R, n, 2, sk, 0.5))
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

int cmd_analyze(int argc, char **argv) {
    long games = 1000, nthreads = 0, skill_games = -1, cap = 1000;
    uint64_t seed = 1;
    const char *agents_opt = "greedy,greedy", *format = "md", *plots = NULL;
    const char *best = "best:8k", *output = NULL;
    const char *arg[64];
    int npos;
    cli_opt opts[] = {{"games", OPT_LONG, &games, 1, 10000000},
                      {"agents", OPT_STRING, &agents_opt, 0, 0},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"threads", OPT_LONG, &nthreads, 1, 256},
                      {"format", OPT_STRING, &format, 0, 0},
                      {"plots", OPT_STRING, &plots, 0, 0},
                      {"skill-games", OPT_LONG, &skill_games, 0, 10000000},
                      {"best", OPT_STRING, &best, 0, 0},
                      {"max-turns", OPT_LONG, &cap, 1, 1000000},
                      {"output", OPT_STRING, &output, 0, 0},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int rc = cli_parse(argc, argv, opts, arg, 1, 64, &npos, analyze_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (strcmp(format, "md") && strcmp(format, "csv") && strcmp(format, "json"))
        return cli_fail("analyze: --format is md, csv or json, not '%.20s'",
                        format);
    char pair[128];
    const char *comma = strchr(agents_opt, ',');
    if (!comma || strchr(comma + 1, ',') || comma == agents_opt || !comma[1] ||
        strlen(agents_opt) >= sizeof pair)
        return cli_fail("analyze: --agents takes two agents, A,B (e.g. "
                        "greedy,greedy)");
    snprintf(pair, sizeof pair, "%s", agents_opt);
    pair[comma - agents_opt] = '\0';
    const char *agents[2] = {pair, pair + (comma - agents_opt) + 1};
    if (skill_games < 0)
        skill_games = games;
    /* The rulesets: 'all' or names; check every name and agent first. */
    const char *ids[64];
    int n = 0;
    for (int i = 0; i < npos; i++) {
        if (strcmp(arg[i], "all") == 0) {
            for (int k = 0; k < kemet_ruleset_count() && n < 64; k++)
                ids[n++] = kemet_ruleset_id(k);
            continue;
        }
        ids[n++] = arg[i];
    }
    for (int i = 0; i < n; i++) {
        kemet_rules *r = cli_rules(ids[i], NULL);
        if (!r)
            return EXIT_BAD;
        const char *all[3] = {agents[0], agents[1], best};
        for (int k = 0; k < 3; k++)
            if (cli_agent_check(r, all[k], k == 2 ? "--best" : "--agents")) {
                kemet_rules_close(r);
                return EXIT_BAD;
            }
        kemet_rules_close(r);
    }
    if (cli_mpi_rank() != 0)
        output = plots = NULL; /* under mpirun rank 0 alone writes */
    if (plots && plot_folder(plots))
        return EXIT_BAD;
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
    result *R = calloc((size_t)n, sizeof *R);
    if (!R)
        rc = cli_fail("out of memory");
    int threads = cli_threads(nthreads);
    double t0 = cli_now();
    for (int i = 0; i < n && rc == 0; i++)
        rc = analyze_one(ids[i], agents, games, seed, cap, threads, best,
                         skill_games, &R[i]);
    if (rc == 0 && plots)
        rc = write_plots(plots, R, n, best);
    if (rc == 0) {
        char link[4096];
        if (plots)
            plot_link(output, plots, link, sizeof link);
        if (strcmp(format, "md") == 0) {
            print_md(o, R, n, agents, games, seed, best, plots ? link : NULL,
                     argc, argv);
            print_reading(o, R, n, best);
        } else if (strcmp(format, "csv") == 0)
            print_csv(o, R, n);
        else
            print_json(o, R, n, agents, games, seed, best);
        if (cli_mpi_rank() == 0)
            fprintf(stderr, "analyze: %.1f s on %d thread%s\n", cli_now() - t0,
                    threads, threads == 1 ? "" : "s");
    }
    if (output) {
        bool bad = ferror(o) != 0;
        bad |= fclose(o) != 0;
        if (rc == 0 && (bad || rename(tmp, output) != 0))
            rc = cli_fail("analyze: cannot write %.200s", output);
        if (rc)
            remove(tmp);
    }
    free(R);
    return rc;
}
