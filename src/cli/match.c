/* match.c - `kemet match`: two agents over many games, with the
 * statistics to say which is stronger and by how much (the games and
 * their statistics are the library's: kemet_match_game, _tally).
 *
 * The agents change seats every game (A is player 1 in even-numbered
 * games), so neither gains from the first player's advantage. Win rates
 * carry Wilson score intervals; the Elo difference comes from A's score
 * (a win 1, a draw 1/2, over the games that ended), and its interval from
 * the score's interval, mapped through the same curve.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A number for JSON: null when infinite. */
static void json_num(double x) {
    if (isfinite(x))
        printf("%.1f", x);
    else
        printf("null");
}

static const char *text_elo(double x, char *buf, size_t len) {
    if (isfinite(x))
        snprintf(buf, len, "%+.0f", x);
    else
        snprintf(buf, len, "%sinfinite", x > 0 ? "+" : "-");
    return buf;
}

/* "elo":X,"elo_ci95":[LO,HI] */
static void json_elo(double elo, double lo, double hi) {
    printf("\"elo\":");
    json_num(elo);
    printf(",\"elo_ci95\":[");
    json_num(lo);
    putchar(',');
    json_num(hi);
    putchar(']');
}

/* A score line of the text report, after `lead`. */
static void text_score(const char *lead, const kemet_estimate *e) {
    char a[16], b[16], c[16];
    cli_say(stdout, 2, 4,
            "%sA's score %.3f (95%%: %.3f-%.3f): Elo difference A - B %s "
            "(95%%: %s to %s)",
            lead, e->score, e->lo, e->hi, text_elo(e->elo, a, sizeof a),
            text_elo(e->elo_lo, b, sizeof b), text_elo(e->elo_hi, c, sizeof c));
}

static const char match_usage[] =
    "usage: kemet match RULESET --p1 A --p2 B --games N [--seed S]\n"
    "                   [--threads T] [--max-turns T] [--paired] [--luck]\n"
    "                   [--json] [--board FILE] [--rules FILE]\n"
    "Plays N games between agents A and B, changing seats every game (A is\n"
    "player 1 in the even-numbered games), on every core (--threads T: T\n"
    "threads). Prints each agent's win rate with its 95% interval, draws,\n"
    "games stopped at the turn cap (default 1000 turns), and the Elo\n"
    "difference of A over B with its 95% interval. The same seed (default\n"
    "1) gives the same result whatever the thread count. --json prints one\n"
    "JSON object.\n"
    "Less luck, fewer games: --paired makes each odd-numbered game throw as\n"
    "the game before it did, the agents in each other's seats (N must be\n"
    "even; the intervals are then taken over the pairs); --luck also judges "
    "every\n"
    "throw's luck by the rules' evaluation (tables, race database, network)\n"
    "and prints A's luck-adjusted score, its result less its luck, whose\n"
    "mean is the same but whose interval is narrower.\n"
    "Agents: random, greedy, expectimax[:BUDGET], mcts[:BUDGET],\n"
    "best[:BUDGET], and the simple strategies rearmost, foremost and\n"
    "safe-random (docs/analysis.md); a budget is nodes (20000, 20k, 1m;\n"
    "mcts: iterations), a time (500ms, 2s: not reproducible), or plies (d3,\n"
    "expectimax and best).\n" RULES_HELP TABLES_HELP NET_HELP;

int cli_match(const kemet_judge *j, const char *const spec[2], long games,
              uint64_t seed, long cap, int threads, int how,
              kemet_match_stats *M) {
    kemet_outcome *out = calloc((size_t)games, sizeof *out);
    if (!out)
        return cli_fail("out of memory");
    double t0 = cli_now();
    char what[160]; /* the ruleset named */
    snprintf(what, sizeof what, "%s: %s vs %s",
             kemet_rules_spec(kemet_judge_rules(j)), spec[0], spec[1]);
    if (cli_run_games(j, spec, KEMET_MATCH_ALTERNATE | how, seed, 0, games, cap,
                      threads, out, what)) {
        free(out);
        return cli_fail("match: out of memory");
    }
    M->secs = cli_now() - t0;
    int rc = kemet_match_tally(out, games, how, M);
    free(out);
    return rc ? cli_fail("match: out of memory") : 0;
}

int cmd_match(int argc, char **argv) {
    const char *p1 = NULL, *p2 = NULL, *board = NULL;
    uint64_t seed = 1;
    long games = 0, cap = 1000, nthreads = 0;
    bool json = false, paired = false, luck = false;
    const char *arg[1];
    int npos;
    cli_opt opts[] = {{"games", OPT_LONG, &games, 1, 10000000},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"paired", OPT_FLAG, &paired, 0, 0},
                      {"luck", OPT_FLAG, &luck, 0, 0},
                      {"p1", OPT_STRING, &p1, 0, 0},
                      {"p2", OPT_STRING, &p2, 0, 0},
                      {"threads", OPT_LONG, &nthreads, 1, 256},
                      {"max-turns", OPT_LONG, &cap, 1, 1000000},
                      {"json", OPT_FLAG, &json, 0, 0},
                      {"board", OPT_STRING, &board, 0, 0},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int rc = cli_parse(argc, argv, opts, arg, 1, 1, &npos, match_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (!p1 || !p2)
        return cli_fail("match: --p1 A and --p2 B are required");
    if (games == 0)
        return cli_fail("match: --games N is required");
    if (paired && games % 2)
        return cli_fail("match: --paired plays the games in pairs: --games "
                        "must be even, not %ld",
                        games);
    const char *spec[2] = {p1, p2};
    kemet_judge *j;
    kemet_rules *r = cli_rules_for(arg[0], board, spec, &j);
    if (!r)
        return EXIT_BAD;
    int threads = cli_threads(nthreads);
    int how = (paired ? KEMET_MATCH_PAIRED : 0) | (luck ? KEMET_MATCH_LUCK : 0);
    kemet_match_stats M;
    if (cli_match(j, spec, games, seed, cap, threads, how, &M)) {
        kemet_judge_free(j);
        kemet_rules_close(r);
        return EXIT_BAD;
    }
    const char *rs = kemet_rules_spec(r);
    if (json) {
        printf("{\"ruleset\":\"%s\",\"seed\":%llu,\"agents\":[\"%s\",\"%s\"],"
               "\"games\":%ld,\"wins\":[%ld,%ld],\"wins_as_player1\":[%ld,%ld],"
               "\"draws\":%ld,\"stopped\":%ld,\"win_rate\":[%.4f,%.4f],"
               "\"ci95\":[%.4f,%.4f],\"ci95_b\":[%.4f,%.4f],\"score\":%.4f,"
               "\"score_ci95\":[%.4f,%.4f],",
               rs, (unsigned long long)seed, p1, p2, games, M.wins[0],
               M.wins[1], M.seat_wins[0][0], M.seat_wins[1][0], M.draws,
               M.stopped, (double)M.wins[0] / (double)games,
               (double)M.wins[1] / (double)games, M.lo[0], M.hi[0], M.lo[1],
               M.hi[1], M.score, M.score_lo, M.score_hi);
        json_elo(M.elo, M.elo_lo, M.elo_hi);
        printf(",\"paired\":%s,\"luck_adjusted\":", paired ? "true" : "false");
        if (luck) {
            printf("{\"score\":%.4f,\"ci95\":[%.4f,%.4f],", M.adj.score,
                   M.adj.lo, M.adj.hi);
            json_elo(M.adj.elo, M.adj.elo_lo, M.adj.elo_hi);
            putchar('}');
        } else {
            printf("null");
        }
        printf(",\"max_turns\":%ld,\"mean_turns\":%.2f,"
               "\"seconds_per_move\":[%.6f,%.6f]}\n",
               cap, M.turns / (double)games, M.think[0], M.think[1]);
    } else {
        cli_say(stdout, 0, 2, "%s: %ld games, seed %llu, seats alternating%s",
                rs, games, (unsigned long long)seed, paired ? "," : "");
        if (paired)
            printf("  each pair of games throwing alike\n");
        for (int a = 0; a < 2; a++)
            cli_say(stdout, 2, 6,
                    "%s %-20s wins %6ld  %5.1f%%  (95%%: %.1f-%.1f%%; %ld as "
                    "player 1, %ld as player 2)",
                    a ? "B" : "A", spec[a], M.wins[a],
                    100.0 * (double)M.wins[a] / (double)games, 100 * M.lo[a],
                    100 * M.hi[a], M.seat_wins[a][0], M.seat_wins[a][1]);
        printf("  draws %ld, stopped at the turn cap (%ld) %ld\n", M.draws, cap,
               M.stopped);
        kemet_estimate plain = {M.score, M.score_lo, M.score_hi,
                                M.elo,   M.elo_lo,   M.elo_hi};
        text_score("", &plain);
        if (luck)
            text_score("luck-adjusted: ", &M.adj);
        printf("  mean length %.1f turns; %.1f s on %d thread%s\n",
               M.turns / (double)games, M.secs, threads,
               threads == 1 ? "" : "s");
        cli_say(stdout, 2, 4,
                "time per move with a choice (processor time of one thread): "
                "A %.4f s, B %.4f s",
                M.think[0], M.think[1]);
    }
    kemet_judge_free(j);
    kemet_rules_close(r);
    return 0;
}

static const char ladder_usage[] =
    "usage: kemet ladder [RULESET...] [--games N] [--seed S] [--threads T]\n"
    "                    [--expectimax A] [--best A] [--mcts A] [--rules "
    "FILE]\n"
    "       kemet ladder --levels [RULESET...] (the play levels: --levels "
    "--help)\n"
    "Measures the agents' strength on each ruleset (every ruleset when none\n"
    "is named) and prints docs/agent-ladder.md: the steps greedy over random,\n"
    "expectimax over greedy, best over expectimax, and where mcts sits\n"
    "(against greedy and expectimax), each a match of N games (default\n"
    "2000) with seats alternating, as 'kemet match' plays them. The search\n"
    "agents play at the budgets given (defaults expectimax:2k, best:8k,\n"
    "mcts:500), so that the whole ladder runs in reasonable time; the\n"
    "result is the same for a seed whatever the thread count.\n" RULES_HELP
        TABLES_HELP NET_HELP;

static void md_elo(double x) {
    if (isfinite(x))
        printf("%+.0f", x);
    else
        printf("%s∞", x > 0 ? "+" : "−");
}

/* One step of the play levels: level k + 1 against level k in pairs of
 * games that throw alike, luck-adjusted; a pilot of `pilot` games, then
 * the size its interval asks for to tell the score from one half
 * (kemet_decide_half, kemet_precision_size), at most `cap`. */
static int level_step(const kemet_judge *j, const char *const spec[2],
                      long pilot, double half, long cap, uint64_t seed,
                      int threads, kemet_match_stats *M) {
    const int how = KEMET_MATCH_PAIRED | KEMET_MATCH_LUCK;
    kemet_outcome *out = calloc((size_t)cap, sizeof *out);
    if (!out)
        return cli_fail("ladder: out of memory");
    char what[160];
    snprintf(what, sizeof what, "%s: %s vs %s",
             kemet_rules_spec(kemet_judge_rules(j)), spec[0], spec[1]);
    double t0 = cli_now();
    int rc = cli_run_games(j, spec, KEMET_MATCH_ALTERNATE | how, seed, 0, pilot,
                           1000, threads, out, what);
    if (!rc)
        rc = kemet_match_tally(out, pilot, how, M);
    long n = pilot;
    if (!rc) {
        double got = fmax(M->adj.score - M->adj.lo, M->adj.hi - M->adj.score);
        n = kemet_precision_size(
            pilot, got, kemet_decide_half(half, M->adj.score, 0.5), cap, 2);
        if (n > pilot)
            rc =
                cli_run_games(j, spec, KEMET_MATCH_ALTERNATE | how, seed, pilot,
                              n - pilot, 1000, threads, out + pilot, what);
    }
    if (!rc)
        rc = kemet_match_tally(out, n, how, M);
    M->secs = cli_now() - t0;
    free(out);
    return rc ? cli_fail("ladder: out of memory") : 0;
}

static const char levels_usage[] =
    "usage: kemet ladder --levels [RULESET...] [--precision H] [--pilot P]\n"
    "                    [--cap N] [--seed S] [--threads T] [--rules FILE]\n"
    "Measures the computer's play levels on each ruleset (every ruleset when\n"
    "none is named) and prints docs/ladder.md: each level against the one\n"
    "below, in pairs of games that throw alike, scored luck-adjusted (as\n"
    "'kemet match --paired --luck'). A pilot of P games (default 200) sets\n"
    "the sample that gives the score a 95% interval of half-width H\n"
    "(default 0.02), narrower where the score lies near one half, at most N\n"
    "games (default 20000). A level is measurably stronger than the one\n"
    "below when its interval lies wholly above one half. The same seed\n"
    "gives the same result whatever the thread count.\n" RULES_HELP TABLES_HELP
        NET_HELP;

static int ladder_levels(int argc, char **argv) {
    long pilot = 200, cap = 20000, nthreads = 0;
    const char *half_opt = "0.02";
    uint64_t seed = 1;
    bool levels = false;
    const char *arg[64];
    int npos;
    cli_opt opts[] = {{"levels", OPT_FLAG, &levels, 0, 0},
                      {"precision", OPT_STRING, &half_opt, 0, 0},
                      {"pilot", OPT_LONG, &pilot, 2, 1000000},
                      {"cap", OPT_LONG, &cap, 2, 10000000},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"threads", OPT_LONG, &nthreads, 1, 256},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int rc = cli_parse(argc, argv, opts, arg, 0, 64, &npos, levels_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    char *end;
    errno = 0;
    double half = strtod(half_opt, &end);
    if (errno || end == half_opt || *end || !(half > 0 && half < 0.5))
        return cli_fail("ladder: --precision takes a half-width between 0 "
                        "and 0.5, not '%.20s'",
                        half_opt);
    if (pilot % 2 || cap % 2 || cap < pilot)
        return cli_fail("ladder: --pilot and --cap are even numbers of games "
                        "(pairs), the cap at least the pilot");
    int n = npos ? npos : kemet_ruleset_count();
    for (int i = 0; i < n; i++) {
        kemet_rules *r = cli_rules(npos ? arg[i] : kemet_ruleset_id(i), NULL);
        if (!r)
            return EXIT_BAD;
        kemet_rules_close(r);
    }
    int threads = cli_threads(nthreads);
    printf("# The computer's play levels\n\nGenerated by `kemet");
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("`; do not edit by hand. Each ruleset's file names the agent each "
           "level plays as (`levels`, docs/rulesets.md; `kemet rules "
           "RULESET` lists them; agents: docs/agents.md, where `~P` plays a "
           "share P of its moves at random).\n\n");
    printf("Each line is level *k* against level *k* − 1 in pairs of games "
           "that throw alike (the agents in each other's seats), as `kemet "
           "match --paired --luck` plays them. *Score* is the higher level's "
           "luck-adjusted score (its result less the luck of its throws) with "
           "its 95%% interval over the pairs; *raw* its share of the games "
           "won (a draw a half). A pilot of %ld games set each sample to give "
           "the score a half-width of %.3f (narrower near one half), at most "
           "%ld games. A level is *stronger* when its interval lies wholly "
           "above one half. Games reaching 1000 turns are stopped (ruling G5) "
           "and count for neither side.\n\n",
           pilot, half, cap);
    for (int i = 0; i < n; i++) {
        kemet_judge *j;
        kemet_rules *r =
            cli_rules_for(npos ? arg[i] : kemet_ruleset_id(i), NULL, NULL, &j);
        if (!r)
            return EXIT_BAD;
        printf("## %s\n\n", kemet_rules_spec(r));
        printf("| level | agent | against | score | Elo | raw | games | "
               "stopped | stronger |\n"
               "|---|---|---|---|---|---|---|---|---|\n");
        fflush(stdout);
        for (int l = 2; l <= KEMET_LEVELS; l++) {
            const char *spec[2] = {kemet_rules_level_agent(r, l),
                                   kemet_rules_level_agent(r, l - 1)};
            kemet_match_stats M;
            if (level_step(j, spec, pilot, half, cap, seed, threads, &M)) {
                kemet_judge_free(j);
                kemet_rules_close(r);
                return EXIT_BAD;
            }
            printf("| %d %s | %s | %s | %.3f (%.3f–%.3f) | ", l,
                   kemet_level_about(l), spec[0], spec[1], M.adj.score,
                   M.adj.lo, M.adj.hi);
            md_elo(M.adj.elo);
            printf(" (");
            md_elo(M.adj.elo_lo);
            printf(" to ");
            md_elo(M.adj.elo_hi);
            printf(") | %.3f | %ld | %ld | %s |\n", M.score, M.games, M.stopped,
                   M.adj.lo > 0.5   ? "yes"
                   : M.adj.hi < 0.5 ? "no: weaker"
                                    : "no: a tie");
            fflush(stdout);
        }
        putchar('\n');
        kemet_judge_free(j);
        kemet_rules_close(r);
    }
    return 0;
}

int cmd_ladder(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--levels") == 0)
            return ladder_levels(argc, argv);
    long games = 2000, nthreads = 0;
    uint64_t seed = 1;
    const char *ex = "expectimax:2k", *best = "best:8k", *mcts = "mcts:500";
    const char *arg[64];
    int npos;
    cli_opt opts[] = {{"games", OPT_LONG, &games, 1, 10000000},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"threads", OPT_LONG, &nthreads, 1, 256},
                      {"expectimax", OPT_STRING, &ex, 0, 0},
                      {"best", OPT_STRING, &best, 0, 0},
                      {"mcts", OPT_STRING, &mcts, 0, 0},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int rc = cli_parse(argc, argv, opts, arg, 0, 64, &npos, ladder_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    int n = npos ? npos : kemet_ruleset_count();
    const char *steps[][2] = {{"greedy", "random"},
                              {ex, "greedy"},
                              {best, ex},
                              {mcts, "greedy"},
                              {mcts, ex}};
    int threads = cli_threads(nthreads);
    /* Check every name before the long run starts. */
    for (int i = 0; i < n; i++) {
        kemet_rules *r = cli_rules(npos ? arg[i] : kemet_ruleset_id(i), NULL);
        if (!r)
            return EXIT_BAD;
        for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++)
            for (int p = 0; p < 2; p++) {
                if (cli_agent_check(r, steps[s][p], NULL)) {
                    kemet_rules_close(r);
                    return EXIT_BAD;
                }
            }
        kemet_rules_close(r);
    }
    printf("# Strength of the agents\n\nGenerated by `kemet");
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("` (budgets: %s, %s, %s); do not edit by hand. How the agents "
           "work: docs/agents.md.\n\n",
           ex, best, mcts);
    printf("Each line is a match of %ld games between agent A and agent B, "
           "seats alternating (A is player 1 in half the games), as `kemet "
           "match` plays it. *A wins* is A's win rate with its 95%% Wilson "
           "interval; Elo is the difference A − B from A's score (a draw "
           "counts a half), with the interval mapped from the score's. A step "
           "is *significant* when the interval of A's score lies wholly above "
           "one half. Games reaching 1000 turns are stopped (ruling G5) and "
           "count for neither side.\n\n",
           games);
    for (int i = 0; i < n; i++) {
        kemet_judge *j;
        kemet_rules *r =
            cli_rules_for(npos ? arg[i] : kemet_ruleset_id(i), NULL, NULL, &j);
        if (!r)
            return EXIT_BAD;
        printf("## %s\n\n", kemet_rules_spec(r));
        printf("| A | B | A wins | B wins | draws | stopped | Elo A − B | "
               "mean turns | significant |\n"
               "|---|---|---|---|---|---|---|---|---|\n");
        fflush(stdout);
        for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
            kemet_match_stats M;
            const char *spec[2] = {steps[s][0], steps[s][1]};
            if (cli_match(j, spec, games, seed, 1000, threads, 0, &M)) {
                kemet_judge_free(j);
                kemet_rules_close(r);
                return EXIT_BAD;
            }
            printf("| %s | %s | %.1f%% (%.1f–%.1f) | %.1f%% | %ld | %ld | ",
                   spec[0], spec[1],
                   100.0 * (double)M.wins[0] / (double)M.games, 100 * M.lo[0],
                   100 * M.hi[0], 100.0 * (double)M.wins[1] / (double)M.games,
                   M.draws, M.stopped);
            md_elo(M.elo);
            printf(" (");
            md_elo(M.elo_lo);
            printf(" to ");
            md_elo(M.elo_hi);
            printf(") | %.0f | %s |\n", M.turns / (double)M.games,
                   M.score_lo > 0.5   ? "yes"
                   : M.score_hi < 0.5 ? "no: B is stronger"
                                      : "no");
            fflush(stdout);
        }
        putchar('\n');
        kemet_judge_free(j);
        kemet_rules_close(r);
    }
    return 0;
}
