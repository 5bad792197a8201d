/* test_race.c - the race database: races worked out by hand, agreement
 * with the exact table over a whole class, the refusals, and agents and
 * `kemet judge` using it.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double probe(const kemet_race *race, const char *text) {
    kemet_pos p;
    kemet_rules *r = tu_pos(text, &p);
    double v = -1;
    if (!kemet_race_probe(race, &p, &v))
        fail_msg("not covered: %s", text);
    kemet_rules_close(r);
    return v;
}

static double turns(const kemet_race *race, const char *text, int player) {
    kemet_pos p;
    kemet_rules *r = tu_pos(text, &p);
    double v = kemet_race_turns(race, &p, player);
    kemet_rules_close(r);
    return v;
}

/* Chien et Chacal, one piece each: a piece on 29 leaves only with a 1 (4
 * in 16), so it needs 4 turns on average, and two such pieces give the
 * mover 1 / (2 - 1/4) = 4/7 (test_table.c works these out). A piece on 28
 * leaves with a 2 (6/16) or steps to 29 with a 1 (4/16): with
 * q = 1 - 6/16 - 4/16 = 3/8, E = (1 + 4/16 * 4) / (1 - 3/8) = 3.2 turns;
 * against a piece on 29 the mover wins 108/161. */
static void test_hand(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("chien-chacal", &r, &err), KEMET_OK);
    kemet_race *race;
    assert_int_equal(kemet_race_solve(r, &race, &err), KEMET_OK);
    assert_true(fabs(probe(race, "chien-chacal to=1 p1=29 p2=29") - 4.0 / 7) <
                1e-6);
    assert_true(fabs(probe(race, "chien-chacal to=2 p1=29 p2=29") - 4.0 / 7) <
                1e-6);
    assert_true(fabs(probe(race, "chien-chacal to=1 p1=28 p2=29") -
                     108.0 / 161) < 1e-6);
    assert_true(
        fabs(probe(race, "chien-chacal to=2 p1=28 p2=29") - 80.0 / 161) < 1e-6);
    assert_true(fabs(turns(race, "chien-chacal to=1 p1=29 p2=29", 1) - 4) <
                1e-9);
    assert_true(fabs(turns(race, "chien-chacal to=1 p1=28 p2=29", 1) - 3.2) <
                1e-9);
    /* From the start the whole game is covered, and the sides are alike:
     * player 1, who throws first, is ahead. */
    kemet_pos p;
    kemet_start(r, &p);
    double v;
    assert_true(kemet_race_probe(race, &p, &v));
    assert_true(v > 0.5 && v < 0.6);
    assert_true(turns(race, "chien-chacal to=1 p1=- h1=5 p2=- h2=5", 2) > 20);
    kemet_race_info info;
    kemet_race_stats(race, &info);
    assert_true(info.states > 100000 && info.bytes > 0);
    /* A finished position is not the database's. */
    kemet_rules *pr = tu_pos("chien-chacal to=1 p1=- p2=29 winner=1", &p);
    kemet_rules_close(pr);
    assert_false(kemet_race_probe(race, &p, &v));
    /* Another ruleset's database is refused; a ruleset whose sides meet
     * has none. */
    kemet_rules *other;
    assert_int_equal(kemet_rules_open("dogs-jackals", &other, &err), KEMET_OK);
    kemet_judge *jo;
    assert_int_equal(kemet_judge_new(other, NULL, &jo, &err), KEMET_OK);
    assert_int_equal(kemet_judge_use_race(jo, race), KEMET_ERULESET);
    kemet_judge_free(jo);
    kemet_race *none = NULL;
    assert_int_equal(kemet_race_solve(other, &none, &err), KEMET_ERULESET);
    assert_null(none);
    assert_non_null(strstr(err.msg, "not a race"));
    kemet_rules_close(other);
    kemet_race_free(race);
    kemet_rules_close(r);
}

/* Against the exact table of 2 pieces a side, over the whole class: the
 * race plays to finish soonest, not quite to win, so it is near-exact. */
static void test_against_table(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("chien-chacal", &r, &err), KEMET_OK);
    kemet_race *race;
    kemet_table *t;
    assert_int_equal(kemet_race_solve(r, &race, &err), KEMET_OK);
    assert_int_equal(kemet_table_solve(r, 2, 2, NULL, NULL, &t, &err),
                     KEMET_OK);
    kemet_table_info info;
    kemet_table_stats(t, &info);
    double sum = 0, worst = 0;
    long n = 0;
    for (long long i = 0; i < info.entries; i++) {
        kemet_pos p;
        if (!kemet_table_position(t, i, &p))
            continue;
        double exact, est;
        assert_true(kemet_table_probe(t, &p, &exact));
        assert_true(kemet_race_probe(race, &p, &est));
        double d = fabs(exact - est);
        sum += d;
        worst = d > worst ? d : worst;
        n++;
    }
    print_message("race vs exact, %ld positions: mean %.6f, largest %.6f\n", n,
                  sum / (double)n, worst);
    assert_true(n > 10000);
    assert_true(sum / (double)n < 0.001);
    assert_true(worst < 0.02);
    /* With the database in use, a one-ply agent's chances are the race's. */
    kemet_judge *jd;
    assert_int_equal(kemet_judge_new(r, NULL, &jd, &err), KEMET_OK);
    kemet_judge_use_race(jd, race);
    assert_ptr_equal(kemet_judge_race(jd), race);
    kemet_pos p;
    kemet_rules *pr = tu_pos("chien-chacal to=1 p1=20,27 p2=29", &p);
    kemet_rules_close(pr);
    kemet_throw thr;
    assert_int_equal(kemet_throw_parse(r, "2", &thr, &err), KEMET_OK);
    kemet_move moves[8];
    int k = kemet_moves(r, &p, &thr, moves);
    assert_int_equal(k, 2);
    kemet_agent *a;
    assert_int_equal(kemet_agent_new_judged(jd, "expectimax:d1", 1, &a, &err),
                     KEMET_OK);
    double chance[2];
    kemet_agent_rank(a, &p, &thr, moves, k, chance, NULL);
    for (int i = 0; i < k; i++) {
        kemet_pos next;
        kemet_make(r, &p, &thr, &moves[i], &next, NULL);
        double want;
        assert_true(kemet_race_probe(race, &next, &want));
        if (next.to != p.to)
            want = 1 - want;
        assert_true(fabs(chance[i] - want) < 1e-9);
    }
    kemet_agent_free(a);
    /* "@plain" leaves out the race database (and the network): it ranks
     * as an agent on rules with neither. */
    double plain[2], ref[2];
    assert_int_equal(
        kemet_agent_new_judged(jd, "expectimax:d1@plain", 1, &a, &err),
        KEMET_OK);
    assert_string_equal(kemet_agent_spec(a), "expectimax:d1@plain");
    kemet_agent_rank(a, &p, &thr, moves, k, plain, NULL);
    kemet_agent_free(a);
    assert_true(fabs(plain[0] - chance[0]) > 1e-6);
    kemet_judge_use_race(jd, NULL);
    kemet_judge_use_net(jd, NULL);
    assert_int_equal(kemet_agent_new_judged(jd, "expectimax:d1", 1, &a, &err),
                     KEMET_OK);
    kemet_agent_rank(a, &p, &thr, moves, k, ref, NULL);
    kemet_agent_free(a);
    assert_memory_equal(plain, ref, sizeof plain);
    assert_int_equal(kemet_agent_new(r, "best@linear@plain", 1, &a, &err),
                     KEMET_ESYNTAX);
    kemet_judge_free(jd);
    kemet_table_free(t);
    kemet_race_free(race);
    kemet_rules_close(r);
}

/* kemet judge --tables race: the race database alone, against a table. */
static void test_judge(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-race-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/cc.2.kemettb", dir);
    char *out, *err;
    assert_int_equal(tu_run(NULL, &out, &err, "solve", "chien-chacal",
                            "--pieces", "2", "--output", path, NULL),
                     0);
    free(out);
    free(err);
    assert_int_equal(tu_run(NULL, &out, &err, "judge", "chien-chacal",
                            "--agent", "expectimax:d1", "--table", path,
                            "--tables", "race", "--positions", "200", "--json",
                            NULL),
                     0);
    assert_non_null(strstr(out, "\"tables\":false,\"race\":true"));
    double optimal = 0;
    const char *o = strstr(out, "\"optimal\":");
    assert_non_null(o);
    assert_int_equal(sscanf(o, "\"optimal\":%lf", &optimal), 1);
    assert_true(optimal >= 0.97);
    free(out);
    free(err);
    assert_int_equal(tu_run(NULL, &out, &err, "judge", "chien-chacal",
                            "--agent", "expectimax:d1", "--table", path,
                            "--tables", "off", "--positions", "200", "--json",
                            NULL),
                     0);
    assert_non_null(strstr(out, "\"tables\":false,\"race\":false"));
    free(out);
    free(err);
    remove(path);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand),
        cmocka_unit_test(test_against_table),
        cmocka_unit_test(test_judge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
