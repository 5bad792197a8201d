/* sim.c - `kemet sim` (self-play statistics) and `kemet bench` (random
 * playout speed with a deterministic count).
 *
 * Game i of a run with seed S is seeded from (S, i) alone, so results do
 * not depend on the order games are played in. A game that reaches the
 * turn cap is "stopped" (ruling G5): never a win, loss or draw.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct tally {
    long games, wins[2], draws, stopped;
    long points[2]; /* the points won by each player (Jequier's rule 10) */
    double sum_turns, sum_plies;
    long *hist; /* games by length in turns, 0..cap */
    long cap;
} tally;

static void tally_add(tally *T, int result, long turns, long plies) {
    T->games++;
    switch (result) {
    case KEMET_WON1: T->wins[0]++; break;
    case KEMET_WON2: T->wins[1]++; break;
    case KEMET_DRAW: T->draws++; break;
    default: T->stopped++; break;
    }
    T->sum_turns += (double)turns;
    T->sum_plies += (double)plies;
    if (T->hist)
        T->hist[turns < T->cap ? turns : T->cap]++;
}

/* Adds a finished (or stopped) game to the tally and the checksum. */
static void tally_game(tally *T, const kemet_game *g, uint64_t *check) {
    const kemet_pos *end = kemet_game_pos(g);
    int res = kemet_result(end);
    tally_add(T, res ? res : -1, kemet_game_turns(g), kemet_game_plies(g));
    *check = kc_mix64(*check ^ end->sq[0] ^ (end->sq[1] << 1) ^
                      (uint64_t)kemet_game_plies(g));
}

static double median_turns(const tally *T) {
    long half = (T->games + 1) / 2, seen = 0;
    for (long t = 0; t <= T->cap; t++) {
        seen += T->hist[t];
        if (seen >= half) {
            if (T->games % 2 == 0 && seen == half) {
                long u = t + 1;
                while (u <= T->cap && T->hist[u] == 0)
                    u++;
                return (double)(t + u) / 2.0;
            }
            return (double)t;
        }
    }
    return 0;
}

static const char sim_usage[] =
    "usage: kemet sim RULESET --games N [--seed S] [--p1 AGENT] [--p2 AGENT]\n"
    "                 [--max-turns T] [--threads T] [--json] [--board FILE]\n"
    "                 [--rules FILE]\n"
    "Plays N games between two agents (any of 'kemet match --help'; default\n"
    "random) on every core (--threads T: T threads) and\n"
    "prints wins per player, draws, games stopped at the turn cap (default\n"
    "1000 turns; a turn ends when the other player takes the sticks), the\n"
    "mean and median length in turns, and games per second. The same seed\n"
    "(default 1) gives the same games, whatever the thread count. --json\n"
    "prints one JSON object.\n"
    "--board FILE plays on a board file's board (docs/boards.md).\n" RULES_HELP
        TABLES_HELP NET_HELP;

int cmd_sim(int argc, char **argv) {
    const char *p1 = "random", *p2 = "random", *board = NULL;
    uint64_t seed = 1;
    long games = 0, cap = 1000, nthreads = 0;
    bool json = false;
    const char *arg[1];
    int npos;
    cli_opt opts[] = {{"games", OPT_LONG, &games, 1, 100000000},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"p1", OPT_STRING, &p1, 0, 0},
                      {"p2", OPT_STRING, &p2, 0, 0},
                      {"max-turns", OPT_LONG, &cap, 1, 1000000},
                      {"json", OPT_FLAG, &json, 0, 0},
                      {"board", OPT_STRING, &board, 0, 0},
                      {"threads", OPT_LONG, &nthreads, 1, 256},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int rc = cli_parse(argc, argv, opts, arg, 1, 1, &npos, sim_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (games == 0)
        return cli_fail("sim: --games N is required");
    const char *spec[2] = {p1, p2};
    kemet_judge *j;
    kemet_rules *r = cli_rules_for(arg[0], board, spec, &j);
    if (!r)
        return EXIT_BAD;
    tally T = {0};
    T.cap = cap;
    T.hist = calloc((size_t)cap + 1, sizeof *T.hist);
    if (!T.hist) {
        kemet_judge_free(j);
        kemet_rules_close(r);
        return cli_fail("out of memory");
    }
    enum { BLOCK = 1 << 16 };
    kemet_outcome *out = malloc(BLOCK * sizeof *out);
    if (!out) {
        free(T.hist);
        kemet_judge_free(j);
        kemet_rules_close(r);
        return cli_fail("out of memory");
    }
    double t0 = cli_now();
    int threads = cli_threads(nthreads);
    for (long first = 0; first < games; first += BLOCK) {
        long count = games - first < BLOCK ? games - first : BLOCK;
        if (cli_run_games(j, spec, 0, seed, first, count, cap, threads, out,
                          "sim")) {
            free(out);
            free(T.hist);
            kemet_judge_free(j);
            kemet_rules_close(r);
            return cli_fail("sim: out of memory");
        }
        for (long k = 0; k < count; k++) {
            tally_add(&T, out[k].result, out[k].turns, out[k].plies);
            if (out[k].result == KEMET_WON1 || out[k].result == KEMET_WON2)
                T.points[out[k].result - 1] += out[k].points;
        }
    }
    free(out);
    double secs = cli_now() - t0;
    double gps = secs > 0 ? (double)T.games / secs : 0;
    double mean = T.sum_turns / (double)T.games;
    double med = median_turns(&T);
    const kemet_info *info = kemet_rules_info(r);
    if (json) {
        printf("{\"ruleset\":\"%s\",\"seed\":%llu,\"agents\":[\"%s\",\"%s\"],"
               "\"games\":%ld,\"wins\":[%ld,%ld],\"draws\":%ld,\"stopped\":%ld,"
               "\"max_turns\":%ld,\"mean_turns\":%.3f,\"median_turns\":%.1f,"
               "\"mean_plies\":%.3f,\"seconds\":%.3f,\"games_per_second\":%.1f}"
               "\n",
               kemet_rules_spec(r), (unsigned long long)seed, p1, p2, T.games,
               T.wins[0], T.wins[1], T.draws, T.stopped, cap, mean, med,
               T.sum_plies / (double)T.games, secs, gps);
    } else {
        printf("%s: %ld games, seed %llu, %s (player 1) vs %s (player 2)\n",
               kemet_rules_spec(r), T.games, (unsigned long long)seed, p1, p2);
        for (int p = 0; p < 2; p++)
            printf("  player %d (%s, %s) wins: %ld (%.1f%%)\n", p + 1,
                   info->player[p], spec[p], T.wins[p],
                   100.0 * (double)T.wins[p] / (double)T.games);
        if (T.points[0] || T.points[1])
            /* the points a win is worth (Jequier's rule 10) */
            for (int p = 0; p < 2; p++)
                printf("  player %d points: %ld (%.2f a win)\n", p + 1,
                       T.points[p],
                       T.wins[p] ? (double)T.points[p] / (double)T.wins[p]
                                 : 0.0);
        printf("  draws: %ld\n  stopped at the turn cap (%ld): %ld\n", T.draws,
               cap, T.stopped);
        printf("  length in turns: mean %.1f, median %.1f (plies: mean %.1f)\n",
               mean, med, T.sum_plies / (double)T.games);
        printf("  %.0f games per second (%.2f s)\n", gps, secs);
    }
    free(T.hist);
    kemet_judge_free(j);
    kemet_rules_close(r);
    return 0;
}

static const char bench_usage[] =
    "usage: kemet bench [--games N] [--ruleset ID] [--generic] [--json]\n"
    "                   [--simple-games N] [--search A] [--positions P]\n"
    "                   [--rules FILE]\n"
    "Random playouts on one thread from fixed seeds, for every ruleset (or\n"
    "one): games and plies per second, and a deterministic count (total\n"
    "plies and a checksum of the final positions) that is the same on every\n"
    "run and machine; a change to the rules engine that alters it says so.\n"
    "Default 100000 games per ruleset; turn cap 1000. --generic uses the\n"
    "engine's generic playout loop instead of each ruleset's fast one (the\n"
    "count must come out the same).\n"
    "Then the simple agents: --simple-games N (default 1000; 0 to skip)\n"
    "games each of greedy against greedy, rearmost against foremost and\n"
    "safe-random against itself, on one thread: games per second.\n"
    "Then search speed: agent --search A (default expectimax:20k; 'none' to\n"
    "skip) chooses a move in --positions P (default 8) fixed positions per\n"
    "ruleset, taken from a seeded random game where the throw leaves a\n"
    "choice: nodes per second, the slowest move, and a deterministic count\n"
    "(total nodes and a checksum of the moves chosen) for node and depth\n"
    "budgets.\n"
    "--rules FILE reads a ruleset file (docs/rulesets.md): --ruleset may then\n"
    "name its id, or the file itself (FILE.rules).\n";

/* The simple agents' games per second on one thread for one ruleset:
 * greedy against greedy, the probes rearmost against foremost, and
 * safe-random against itself, `games` each from fixed seeds (none of them
 * reads a clock per decision). Returns 0 or EXIT_BAD. */
static int bench_simple(const kemet_rules *r, long games, uint64_t seed,
                        bool json, bool first) {
    static const char *const pairs[][2] = {{"greedy", "greedy"},
                                           {"rearmost", "foremost"},
                                           {"safe-random", "safe-random"}};
    kemet_judge *j = cli_judge(r);
    kemet_outcome *out = malloc((size_t)games * sizeof *out);
    if (!j || !out) {
        kemet_judge_free(j);
        free(out);
        return j ? cli_fail("out of memory") : EXIT_BAD;
    }
    double rate[3];
    for (int k = 0; k < 3; k++) {
        double t0 = cli_now();
        if (cli_run_games(j, pairs[k], KEMET_MATCH_ALTERNATE, seed, 0, games,
                          1000, 1, out, NULL)) {
            kemet_judge_free(j);
            free(out);
            return cli_fail("out of memory");
        }
        double secs = cli_now() - t0;
        rate[k] = secs > 0 ? (double)games / secs : 0;
    }
    const char *id = kemet_rules_info(r)->id;
    if (json)
        printf("%s{\"id\":\"%s\",\"games\":%ld,\"greedy\":%.0f,"
               "\"rearmost_foremost\":%.0f,\"safe_random\":%.0f}",
               first ? "" : ",", id, games, rate[0], rate[1], rate[2]);
    else
        printf("%-32s %9ld %11.0f %13.0f %12.0f\n", id, games, rate[0], rate[1],
               rate[2]);
    kemet_judge_free(j);
    free(out);
    return 0;
}

/* Positions with a throw that leaves a choice, every fifth such point of
 * a random game, for the search benchmark. */
typedef struct bench_points {
    kemet_pos pos[64];
    kemet_throw thr[64];
    int n, want, seen;
} bench_points;

static void bench_collect(void *ctx, const kemet_pos *pos,
                          const kemet_throw *thr, const kemet_move *moves,
                          int n) {
    (void)moves;
    bench_points *B = ctx;
    if (!thr || n < 2 || B->n >= B->want)
        return;
    if (B->seen++ % 5 == 0) {
        B->pos[B->n] = *pos;
        B->thr[B->n++] = *thr;
    }
}

/* The search part of the bench for one ruleset. Returns 0 or EXIT_BAD. */
static int bench_search(const kemet_rules *r, const char *spec, int want,
                        uint64_t seed, bool json, bool first, long long *nodes,
                        uint64_t *check) {
    bench_points B = {.want = want};
    kemet_rng pick;
    kemet_rng_seed(&pick, seed);
    for (uint64_t g = 0; B.n < B.want && g < 100; g++) {
        kemet_game *game;
        if (cli_play_random(r, kemet_run_seed(seed, g), &pick, 1000,
                            bench_collect, &B, &game))
            return cli_fail("out of memory");
        kemet_game_free(game);
    }
    kemet_agent *a;
    kemet_error err;
    if (kemet_agent_new(r, spec, seed, &a, &err))
        return cli_fail("--search: %s", err.msg);
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    if (!list) {
        kemet_agent_free(a);
        return cli_fail("out of memory");
    }
    long long n = 0;
    uint64_t c = 0;
    double secs = 0, slowest = 0;
    for (int i = 0; i < B.n; i++) {
        int k = kemet_moves(r, &B.pos[i], &B.thr[i], list);
        double t0 = cli_now();
        int m = kemet_agent_choose(a, &B.pos[i], &B.thr[i], list, k);
        double t = cli_now() - t0;
        secs += t;
        slowest = t > slowest ? t : slowest;
        n += kemet_agent_nodes(a);
        c = kc_mix64(c ^ (uint64_t)m ^ ((uint64_t)kemet_agent_nodes(a) << 16));
    }
    free(list);
    const char *id = kemet_rules_info(r)->id;
    if (json)
        printf("%s{\"ruleset\":\"%s\",\"agent\":\"%s\",\"positions\":%d,"
               "\"nodes\":%lld,\"checksum\":\"%016llx\",\"seconds\":%.3f,"
               "\"nodes_per_second\":%.0f,\"slowest_move_seconds\":%.3f}",
               first ? "" : ",", id, kemet_agent_spec(a), B.n, n,
               (unsigned long long)c, secs, secs > 0 ? (double)n / secs : 0,
               slowest);
    else
        printf("%-32s %9d %11lld %8.3f %11.0f %12.3f\n", id, B.n, n, secs,
               secs > 0 ? (double)n / secs : 0, slowest);
    kemet_agent_free(a);
    *nodes += n;
    *check = kc_mix64(*check ^ c);
    return 0;
}

int cmd_bench(int argc, char **argv) {
    long games = 100000, positions = 8, simple = 1000;
    const char *only = NULL, *search = "expectimax:20k";
    bool json = false, generic = false;
    const char *arg[1];
    int npos;
    cli_opt opts[] = {{"games", OPT_LONG, &games, 1, 100000000},
                      {"ruleset", OPT_STRING, &only, 0, 0},
                      {"generic", OPT_FLAG, &generic, 0, 0},
                      {"json", OPT_FLAG, &json, 0, 0},
                      {"search", OPT_STRING, &search, 0, 0},
                      {"positions", OPT_LONG, &positions, 1, 64},
                      {"simple-games", OPT_LONG, &simple, 0, 10000000},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int rc = cli_parse(argc, argv, opts, arg, 0, 0, &npos, bench_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    {
        /* the ruleset and the agent checked before any work */
        kemet_rules *r = cli_rules(only ? only : kemet_ruleset_id(0), NULL);
        if (!r)
            return EXIT_BAD;
        rc = strcmp(search, "none") != 0 &&
             cli_agent_check(r, search, "--search");
        kemet_rules_close(r);
        if (rc)
            return EXIT_BAD;
    }
    const uint64_t seed = 20261121;
    long total_plies = 0;
    uint64_t total_check = 0;
    if (json)
        printf("{\"seed\":%llu,\"games_per_ruleset\":%ld,\"rulesets\":[",
               (unsigned long long)seed, games);
    else
        printf("kemet bench: random playouts, one thread, seed %llu\n"
               "%-32s %9s %11s %8s %11s %12s\n",
               (unsigned long long)seed, "ruleset", "games", "plies", "seconds",
               "games/s", "plies/s");
    bool first = true;
    for (int i = 0; i < kemet_ruleset_count(); i++) {
        const char *id = kemet_ruleset_id(i);
        if (only && strcmp(only, id) != 0)
            continue;
        kemet_rules *r = cli_rules(id, NULL);
        if (!r)
            return EXIT_BAD;
        tally T = {0};
        T.cap = 1000;
        kemet_rng pick;
        kemet_rng_seed(&pick, seed);
        uint64_t check = 0;
        double t0 = cli_now();
        for (long gi = 0; gi < games; gi++) {
            kemet_game *g;
            if (kemet_game_new(r, kemet_run_seed(seed, (uint64_t)gi), &g,
                               NULL)) {
                kemet_rules_close(r);
                return cli_fail("out of memory");
            }
            kemet_game_playout(g, &pick, T.cap, generic);
            tally_game(&T, g, &check);
            kemet_game_free(g);
        }
        double secs = cli_now() - t0;
        long plies = (long)T.sum_plies;
        total_plies += plies;
        total_check = kc_mix64(total_check ^ check);
        if (json)
            printf("%s{\"ruleset\":\"%s\",\"games\":%ld,\"plies\":%ld,"
                   "\"stopped\":%ld,\"checksum\":\"%016llx\",\"seconds\":%.3f,"
                   "\"games_per_second\":%.0f,\"plies_per_second\":%.0f}",
                   first ? "" : ",", id, games, plies, T.stopped,
                   (unsigned long long)check, secs, (double)games / secs,
                   (double)plies / secs);
        else
            printf("%-32s %9ld %11ld %8.3f %11.0f %12.0f\n", id, games, plies,
                   secs, (double)games / secs, (double)plies / secs);
        first = false;
        kemet_rules_close(r);
    }
    if (json)
        printf("],\"plies\":%ld,\"checksum\":\"%016llx\"", total_plies,
               (unsigned long long)total_check);
    else
        printf("deterministic count: %ld plies, checksum %016llx\n",
               total_plies, (unsigned long long)total_check);
    if (simple > 0) {
        if (json)
            printf(",\"simple_agents\":[");
        else
            printf("\nsimple agents, one thread, games per second (seats "
                   "alternating)\n%-32s %9s %11s %13s %12s\n",
                   "ruleset", "games", "greedy", "rear-front", "safe-random");
        first = true;
        for (int i = 0; i < kemet_ruleset_count(); i++) {
            const char *id = kemet_ruleset_id(i);
            if (only && strcmp(only, id) != 0)
                continue;
            kemet_rules *r = cli_rules(id, NULL);
            if (!r)
                return EXIT_BAD;
            rc = bench_simple(r, simple, seed, json, first);
            kemet_rules_close(r);
            if (rc)
                return rc;
            first = false;
        }
        if (json)
            printf("]");
    }
    if (strcmp(search, "none") == 0) {
        if (json)
            printf("}\n");
        return 0;
    }
    if (json)
        printf(",\"search\":{\"agent\":\"%s\",\"rulesets\":[", search);
    else
        printf("\nsearch: %s, one thread\n%-32s %9s %11s %8s %11s %12s\n",
               search, "ruleset", "positions", "nodes", "seconds", "nodes/s",
               "slowest (s)");
    long long nodes = 0;
    uint64_t check = 0;
    first = true;
    for (int i = 0; i < kemet_ruleset_count(); i++) {
        const char *id = kemet_ruleset_id(i);
        if (only && strcmp(only, id) != 0)
            continue;
        kemet_rules *r = cli_rules(id, NULL);
        if (!r)
            return EXIT_BAD;
        rc = bench_search(r, search, (int)positions, seed, json, first, &nodes,
                          &check);
        kemet_rules_close(r);
        if (rc)
            return rc;
        first = false;
    }
    if (json)
        printf("],\"nodes\":%lld,\"checksum\":\"%016llx\"}}\n", nodes,
               (unsigned long long)check);
    else
        printf("deterministic count: %lld nodes, checksum %016llx\n", nodes,
               (unsigned long long)check);
    return 0;
}
