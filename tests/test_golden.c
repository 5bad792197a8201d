/* test_golden.c - the counts that pin the engine: the perft counts of
 * tests/golden/perft.txt and the bench signatures of tests/golden/bench.txt,
 * each made again by the program and compared. A change to the rules, the
 * fast playouts or the search that moves one of them fails here, however
 * consistently it moves the rest; the commit that means it updates the
 * file and says so in its message.
 */
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s", KEMET_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static const size_t cap = 1 << 20;
    char *text = calloc(1, cap);
    assert_non_null(text);
    size_t n = fread(text, 1, cap - 1, f);
    fclose(f);
    assert_true(n > 0 && n < cap - 1);
    return text;
}

/* The last count `kemet perft` prints for its arguments. */
static unsigned long long run_perft(const char *ruleset, const char *depth,
                                    const char *position) {
    char *o, *e;
    int st = position
                 ? tu_run(NULL, &o, &e, "perft", ruleset, depth, position, NULL)
                 : tu_run(NULL, &o, &e, "perft", ruleset, depth, NULL);
    if (st != 0)
        fail_msg("kemet perft %s %s: %s", ruleset, depth, e);
    const char *last = strrchr(o, ':');
    assert_non_null(last);
    unsigned long long n = strtoull(last + 1, NULL, 10);
    free(o);
    free(e);
    return n;
}

static void perft_counts(void **state) {
    (void)state;
    char *text = slurp("perft.txt");
    int lines = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char ruleset[64], depth[8];
        unsigned long long want;
        int used = 0;
        assert_int_equal(
            sscanf(line, "%63s %7s %llu %n", ruleset, depth, &want, &used), 3);
        const char *position = line[used] ? line + used : NULL;
        unsigned long long got = run_perft(ruleset, depth, position);
        if (got != want)
            fail_msg("perft %s %s%s%s: %llu, golden %llu", ruleset, depth,
                     position ? " " : "", position ? position : "", got, want);
        lines++;
    }
    assert_true(lines >= 2 * kemet_ruleset_count());
    free(text);
}

/* Counts worked out by hand. At the start of the 58-holes games every
 * piece is in hand and each of the five throw outcomes has exactly one
 * move (entering a piece, or a pass), and so has the opponent's reply:
 * 5 positions one ply ahead, 25 two plies ahead. */
static void perft_by_hand(void **state) {
    (void)state;
    assert_int_equal(run_perft("dogs-jackals", "1", NULL), 5);
    assert_int_equal(run_perft("chien-chacal", "2", NULL), 25);
    /* One piece each a step from home, which only an exact 1 bears off:
     * a throw of 1 ends the game (a leaf at every depth), the other four
     * outcomes pass, so f(d) = 1 + 4 f(d - 1), f(0) = 1: 5, 21, 85. */
    const char *race = "chien-chacal to=1 p1=29 p2=29";
    assert_int_equal(run_perft("chien-chacal", "1", race), 5);
    assert_int_equal(run_perft("chien-chacal", "2", race), 21);
    assert_int_equal(run_perft("chien-chacal", "3", race), 85);
}

/* perft refuses what it cannot count. */
static void perft_refuses(void **state) {
    (void)state;
    static const char *const bad[][3] = {
        {"senet-kendall", "0", NULL},
        {"senet-kendall", "13", NULL},
        {"senet-kendall", "x", NULL},
        {"ur", "2", NULL},
        {"senet-kendall", "2", "chien-chacal to=1 p1=29 p2=29"},
        {"senet-kendall", "2", "senet-kendall to=3"},
        {"senet-kendall", "2", "senet-kendall to=1 p1=\xff"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *o, *e;
        int st = bad[i][2] ? tu_run(NULL, &o, &e, "perft", bad[i][0], bad[i][1],
                                    bad[i][2], NULL)
                           : tu_run(NULL, &o, &e, "perft", bad[i][0], bad[i][1],
                                    NULL);
        assert_int_equal(st, 2);
        assert_string_equal(o, "");
        assert_non_null(strstr(e, "kemet: "));
        assert_int_equal(strchr(e, '\n') - e, (long)strlen(e) - 1);
        free(o);
        free(e);
    }
}

/* The playouts (fast and generic) and the search against bench.txt. */
static void bench_signatures(void **state) {
    (void)state;
    char *golden = slurp("bench.txt");
    for (int generic = 0; generic < 2; generic++) {
        char *o, *e;
        int st = generic ? tu_run(NULL, &o, &e, "bench", "--games", "10000",
                                  "--search", "none", "--generic",
                                  "--simple-games", "0", "--json", NULL)
                         : tu_run(NULL, &o, &e, "bench", "--games", "10000",
                                  "--search", "expectimax:20k", "--positions",
                                  "8", "--simple-games", "0", "--json", NULL);
        assert_int_equal(st, 0);
        const char *search = strstr(o, "\"search\":");
        int seen = 0;
        for (const char *p = strstr(o, "\"ruleset\":\""); p;
             p = strstr(p + 1, "\"ruleset\":\"")) {
            char id[64], sum[32], line[160];
            long long count;
            bool in_search = search && p > search;
            int got =
                in_search
                    ? sscanf(p,
                             "\"ruleset\":\"%63[^\"]\",\"agent\":\"%*[^\"]"
                             "\",\"positions\":%*d,\"nodes\":%lld,"
                             "\"checksum\":\"%31[^\"]\"",
                             id, &count, sum)
                    : sscanf(p,
                             "\"ruleset\":\"%63[^\"]\",\"games\":%*d,"
                             "\"plies\":%lld,\"stopped\":%*d,"
                             "\"checksum\":\"%31[^\"]\"",
                             id, &count, sum);
            assert_int_equal(got, 3);
            snprintf(line, sizeof line, "\n%s %s %lld %s\n",
                     in_search ? "search" : "playout", id, count, sum);
            if (!strstr(golden, line))
                fail_msg("bench%s: '%.*s' is not in tests/golden/bench.txt",
                         generic ? " --generic" : "", (int)strlen(line) - 2,
                         line + 1);
            seen++;
        }
        assert_int_equal(seen, kemet_ruleset_count() * (generic ? 1 : 2));
        free(o);
        free(e);
    }
    free(golden);
}

/* The simple agents' line of the bench: every ruleset, each pair's games
 * per second, in text and JSON. */
static void bench_simple_agents(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "bench", "--games", "10",
                            "--simple-games", "20", "--search", "none",
                            "--json", NULL),
                     0);
    const char *s = strstr(o, "\"simple_agents\":[");
    assert_non_null(s);
    for (int i = 0; i < kemet_ruleset_count(); i++) {
        char want[96];
        snprintf(want, sizeof want, "{\"id\":\"%s\",\"games\":20,\"greedy\":",
                 kemet_ruleset_id(i));
        if (!strstr(s, want))
            fail_msg("no simple agents' line for %s", kemet_ruleset_id(i));
    }
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "bench", "--games", "10",
                            "--simple-games", "20", "--search", "none",
                            "--ruleset", "chien-chacal", NULL),
                     0);
    assert_non_null(strstr(o, "greedy    rear-front  safe-random\n"
                              "chien-chacal   "));
    free(o);
    free(e);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(perft_by_hand),
        cmocka_unit_test(perft_refuses),
        cmocka_unit_test(perft_counts),
        cmocka_unit_test(bench_signatures),
        cmocka_unit_test(bench_simple_agents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
