/* test_notation.c - the position, move and throw notation of
 * ../shared/spec/notation.md: canonical output, fields in any order, and
 * every kind of malformed input the spec lists rejected with a message. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void expect_canonical(const char *in, const char *want) {
    kemet_pos p;
    kemet_rules *r = tu_pos(in, &p);
    char buf[512];
    assert_true(kemet_pos_format(r, &p, buf, sizeof buf) > 0);
    if (strcmp(buf, want) != 0)
        fail_msg("'%s' printed as '%s', want '%s'", in, buf, want);
    kemet_rules_close(r);
}

static void expect_bad(const char *in, int code, const char *words) {
    kemet_rules *r = (kemet_rules *)1;
    kemet_pos p;
    kemet_error e = {0};
    int rc = kemet_pos_parse(in, &r, &p, &e);
    if (rc != code)
        fail_msg("'%s': want code %d, got %d (%s)", in, code, rc, e.msg);
    assert_null(r);
    if (!strstr(e.msg, words))
        fail_msg("'%s': message '%s' does not mention '%s'", in, e.msg, words);
    assert_null(strchr(e.msg, '\n'));
}

static void canonical_order(void **state) {
    (void)state;
    expect_canonical("senet-kendall p2=14,2 to=2 p1=3,1",
                     "senet-kendall to=2 p1=1,3 p2=2,14");
    expect_canonical("  senet-robinson   must=26 p1=26 p2=3 to=1 ",
                     "senet-robinson to=1 p1=26 p2=3 must=26");
    expect_canonical("senet-kendall to=1 p1=- p2=3 winner=2",
                     "senet-kendall to=1 p1=- p2=3 winner=2");
    expect_canonical("senet-kendall to=1 p1=4 h1=0 p2=3",
                     "senet-kendall to=1 p1=4 p2=3"); /* h=0 not written */
}

static void malformed_positions(void **state) {
    (void)state;
    expect_bad("", KEMET_ESYNTAX, "empty");
    expect_bad("chess to=1 p1=1 p2=2", KEMET_ERULESET, "unknown ruleset");
    expect_bad("senet-kendall:x=1 to=1 p1=1 p2=2", KEMET_ERULESET, "no option");
    expect_bad("to=1 p1=1 p2=2", KEMET_ESYNTAX, "starts with its ruleset");
    expect_bad("senet-kendall to=1 p1=1 p2=2 colour=3", KEMET_ESYNTAX,
               "unknown field");
    expect_bad("senet-kendall to=1 p1=1 p2=2 to=2", KEMET_ESYNTAX, "twice");
    expect_bad("senet-kendall p1=1 p2=2", KEMET_ESYNTAX, "no to=");
    expect_bad("senet-kendall to=1 p2=2", KEMET_ESYNTAX, "no p1=");
    expect_bad("senet-kendall to=1 p1=2", KEMET_ESYNTAX, "no p2=");
    expect_bad("senet-kendall to=x p1=1 p2=2", KEMET_ESYNTAX, "not a number");
    expect_bad("senet-kendall to=1 p1=1,a p2=2", KEMET_ESYNTAX, "not a square");
    expect_bad("senet-kendall to=1 p1=1,,3 p2=2", KEMET_ESYNTAX, "not a square");
    expect_bad("senet-kendall to=1 p1=1, p2=2", KEMET_ESYNTAX, "not a square");
    expect_bad("senet-kendall to=1 p1= p2=2", KEMET_ESYNTAX, "empty");
    expect_bad("senet-kendall to=3 p1=1 p2=2", KEMET_ESYNTAX, "1 or 2");
    expect_bad("senet-kendall to=0 p1=1 p2=2", KEMET_ESYNTAX, "1 or 2");
    expect_bad("senet-kendall to=1 p1=31 p2=2", KEMET_ESYNTAX, "outside");
    expect_bad("senet-kendall to=1 p1=1,2,3,4,5,6,7,8 p2=9", KEMET_ESYNTAX,
               "pieces");
    expect_bad("senet-kendall to=1 p1=5 p2=5", KEMET_ESYNTAX, "two pieces");
    expect_bad("senet-kendall to=1 p1=5,5 p2=6", KEMET_ESYNTAX, "two pieces");
    expect_bad("senet-kendall to=1 p1=5 h1=1 p2=6", KEMET_ESYNTAX, "in hand");
    expect_bad("senet-kendall to=1 p1=26 p2=6 must=26", KEMET_ESYNTAX,
               "must=");
    expect_bad("senet-robinson to=1 p1=26 p2=6 must=6", KEMET_ESYNTAX,
               "no piece");
    expect_bad("senet-robinson to=1 p1=26 p2=6 must=26 winner=1",
               KEMET_ESYNTAX, "together");
    expect_bad("senet-kendall to=1 p1=5 p2=6 winner=3", KEMET_ESYNTAX,
               "0, 1 or 2");
    expect_bad("senet-kendall to=1 p1=- p2=6", KEMET_ESYNTAX, "winner=1");
    expect_bad("senet-kendall to=1 p1=5 p2=6 junk", KEMET_ESYNTAX,
               "key=value");
}

static void moves_and_throws(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error e;
    kemet_move m;
    kemet_throw t;
    char buf[64];
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &e), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, "26-off", &m, &e), KEMET_OK);
    assert_int_equal(m.n, 1);
    assert_int_equal(m.step[0].from, 26);
    assert_int_equal(m.step[0].to, KEMET_OFF);
    kemet_move_format(&m, buf, sizeof buf);
    assert_string_equal(buf, "26-off");
    assert_int_equal(kemet_move_parse(r, "pass", &m, &e), KEMET_OK);
    assert_int_equal(m.n, 0);
    assert_int_equal(kemet_move_parse(r, "3-5+12-16", &m, &e), KEMET_OK);
    assert_int_equal(m.n, 2);
    kemet_move_format(&m, buf, sizeof buf);
    assert_string_equal(buf, "3-5+12-16");
    const char *bad[] = {"", "5", "5-", "-5", "a-b", "off-5", "5-in", "5-31",
                         "0-3", "5-6+", "passs", "5--6"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (kemet_move_parse(r, bad[i], &m, &e) != KEMET_ESYNTAX)
            fail_msg("move '%s' accepted", bad[i]);
    assert_int_equal(kemet_throw_parse(r, "none", &t, &e), KEMET_OK);
    assert_int_equal(t.n, 0);
    assert_int_equal(kemet_throw_parse(r, "5", &t, &e), KEMET_OK);
    assert_int_equal(t.v[0], 5);
    const char *badt[] = {"0", "6", "", "x", "2,3", "-1", "1.5"};
    for (size_t i = 0; i < sizeof badt / sizeof badt[0]; i++)
        if (kemet_throw_parse(r, badt[i], &t, &e) != KEMET_ETHROW)
            fail_msg("throw '%s' accepted", badt[i]);
    kemet_rules_close(r);
}

static void ruleset_registry(void **state) {
    (void)state;
    assert_true(kemet_ruleset_count() >= 2);
    for (int i = 0; i < kemet_ruleset_count(); i++) {
        kemet_rules *r;
        kemet_error e;
        assert_int_equal(kemet_rules_open(kemet_ruleset_id(i), &r, &e), KEMET_OK);
        const kemet_info *info = kemet_rules_info(r);
        assert_string_equal(info->id, kemet_ruleset_id(i));
        assert_non_null(strstr(info->source, "seed"));
        assert_true(strlen(info->text) > 100);
        assert_non_null(info->in_hand); /* gone: NULL where none leave */
        kemet_pos p;
        kemet_start(r, &p);
        assert_int_equal(kemet_pos_check(r, &p, &e), KEMET_OK);
        kemet_rules_close(r);
    }
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open("senet", &r, &e), KEMET_ERULESET);
    assert_int_equal(kemet_rules_open("senet-kendall:", &r, &e), KEMET_ERULESET);
    assert_null(kemet_ruleset_id(-1));
    assert_string_equal(kemet_strerror(KEMET_EILLEGAL), "illegal move");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(canonical_order),
        cmocka_unit_test(malformed_positions),
        cmocka_unit_test(moves_and_throws),
        cmocka_unit_test(ruleset_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
