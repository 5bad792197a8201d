/* test_alloc.c - running out of memory: every function that makes an
 * object, and the solvers, answer KEMET_ENOMEM and leave nothing behind
 * when any one of their allocations fails; so does a study run whole.
 *
 * The test is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
 * (CMakeLists.txt), so the library's allocations come here: the k-th
 * fails, for k = 1, 2, ..., 300 and then sparser, until the call
 * succeeds. The sanitizer build
 * (detect_leaks) checks that a failed call frees what it had made.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

/* 0: no failures; k > 0: the k-th allocation from now fails. */
static _Thread_local long fail_at, count;

static int fails(void) {
    return fail_at > 0 && ++count == fail_at;
}
void *__wrap_malloc(size_t n) {
    return fails() ? NULL : __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t size) {
    return fails() ? NULL : __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t n) {
    return fails() ? NULL : __real_realloc(p, n);
}

typedef struct maker {
    const char *what;
    int (*make)(void); /* KEMET_OK (and frees what it made), or a code */
} maker;

static int make_rules(void) {
    kemet_rules *r = NULL;
    int rc = kemet_rules_open("hounds-jackals-washburne", &r, NULL);
    if (rc == KEMET_OK)
        kemet_rules_close(r);
    else if (r)
        return -100;
    return rc;
}

static kemet_rules *R; /* chien-chacal, opened without failures */

static int make_judge(void) {
    kemet_judge *j = NULL;
    int rc = kemet_judge_new(R, NULL, &j, NULL);
    if (rc == KEMET_OK)
        kemet_judge_free(j);
    return rc != KEMET_OK && j ? -100 : rc;
}

static int make_game(void) {
    kemet_game *g = NULL;
    int rc = kemet_game_new(R, 1, &g, NULL);
    if (rc == KEMET_OK)
        kemet_game_free(g);
    return rc != KEMET_OK && g ? -100 : rc;
}

static int make_agent(const char *spec) {
    kemet_agent *a = NULL;
    int rc = kemet_agent_new(R, spec, 1, &a, NULL);
    if (rc == KEMET_OK)
        kemet_agent_free(a);
    return rc != KEMET_OK && a ? -100 : rc;
}
static int make_greedy(void) {
    return make_agent("greedy");
}
static int make_expectimax(void) {
    return make_agent("expectimax");
}
static int make_best(void) {
    return make_agent("best");
}

static int make_table(void) {
    kemet_table *t = NULL;
    int rc = kemet_table_solve(R, 1, 1, NULL, NULL, &t, NULL);
    if (rc == KEMET_OK)
        kemet_table_free(t);
    return rc != KEMET_OK && t ? -100 : rc;
}

static int make_race(void) {
    kemet_race *race = NULL;
    int rc = kemet_race_solve(R, &race, NULL);
    if (rc == KEMET_OK)
        kemet_race_free(race);
    return rc != KEMET_OK && race ? -100 : rc;
}

/* A study small enough to be run whole at every failing allocation: a
 * few games of each part, the luck of the strong self-play measured. */
static int make_study(void) {
    kemet_judge *j = NULL;
    int rc = kemet_judge_new(R, NULL, &j, NULL);
    if (rc != KEMET_OK)
        return rc;
    kemet_study_settings s;
    kemet_study_defaults(&s);
    s.strong = "greedy";
    s.ladder[0] = "random";
    s.ladder[1] = "greedy";
    s.rungs = 2;
    s.games = 4;
    s.trace_games = 2;
    s.trace_base = 1;
    s.pilot = 2;
    s.most = 4;
    kemet_study *st = NULL;
    rc = kemet_study_new(j, &s, &st, NULL);
    if (rc == KEMET_OK)
        rc = kemet_study_run(st, 1);
    kemet_study_figures f;
    if (rc == KEMET_OK && kemet_study_result(st, &f) != KEMET_OK)
        rc = -100;
    kemet_study_free(st);
    kemet_judge_free(j);
    return rc;
}

static void out_of_memory(void **state) {
    (void)state;
    assert_int_equal(kemet_rules_open("chien-chacal", &R, NULL), KEMET_OK);
    static const maker makers[] = {
        {"kemet_rules_open", make_rules},
        {"kemet_judge_new", make_judge},
        {"kemet_game_new", make_game},
        {"kemet_agent_new greedy", make_greedy},
        {"kemet_agent_new expectimax", make_expectimax},
        {"kemet_agent_new best", make_best},
        {"kemet_table_solve", make_table},
        {"kemet_race_solve", make_race},
        {"kemet_study_new and _run", make_study},
    };
    for (size_t m = 0; m < sizeof makers / sizeof *makers; m++) {
        /* Each of the first 300 allocations in turn, then every one in
         * about one and a half times as many, up to the call's success. */
        long k = 1;
        for (;; k = k < 300 ? k + 1 : k + k / 2) {
            count = 0;
            fail_at = k;
            int rc = makers[m].make();
            fail_at = 0;
            if (rc == KEMET_OK)
                break;
            if (rc != KEMET_ENOMEM)
                fail_msg("%s with allocation %ld failing: %d (%s)",
                         makers[m].what, k, rc, kemet_strerror(rc));
            if (k > 100000000)
                fail_msg("%s still fails after %ld allocations", makers[m].what,
                         k);
        }
        assert_true(k > 1); /* it did allocate, and each failure was met */
    }
    kemet_rules_close(R);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
