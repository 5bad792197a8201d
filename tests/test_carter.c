/* test_carter.c - Carnarvon & Carter's 58 Holes (hounds-jackals-carter,
 * reconstructions §5): the worked examples of the spec, exactly, and one
 * test group per rule and ruling (rules 1-8, CC1-CC7) with cases the rule
 * allows and cases it forbids, every answer worked out by hand from the
 * rules. The perft counts of tests/golden/perft.txt agree with a second
 * program written from the rules alone (tests/carter_ref.py). */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define C "hounds-jackals-carter "
#define M "hounds-jackals-carter:board=marked "
#define P "hounds-jackals-carter:board=plain "
#define moves tu_expect_moves
#define apply tu_expect_apply

/* The Notation block of §5, command by command. */
static void spec_examples(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(
        tu_run(NULL, &o, &e, "start", "hounds-jackals-carter", NULL), 0);
    assert_string_equal(o, C "to=1 p1=- h1=5 p2=- h2=5\n");
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "moves",
                            C "to=1 p1=8,17,24 h1=2 p2=13 h2=4", "3", NULL),
                     0);
    assert_string_equal(o, "in-3\n8-11\n17-6\n24-27\n");
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "moves",
                            C "to=1 p1=8,17,24 h1=2 p2=13 h2=4", "2", NULL),
                     0);
    assert_string_equal(o, "in-2\n8-8\n17-19\n24-26\n");
    free(o);
    free(e);
    apply(C "to=1 p1=8,17,24 h1=2 p2=13 h2=4", "1", "24-25",
          C "to=1 p1=8,17,25 h1=2 p2=13 h2=4");
    apply(M "to=1 p1=4 h1=4 p2=- h2=5", "2", "4-6",
          M "to=1 p1=6 h1=4 p2=- h2=5");
    apply("hounds-jackals-carter:dice=d6 to=2 p1=3 h1=4 p2=24", "6", "24-off",
          "hounds-jackals-carter:dice=d6 to=1 p1=3 h1=4 p2=- winner=2");
}

/* Rules 1 and 3, CC3: each side its own holes; a piece jumps pieces but
 * ends only on an empty hole; the sides never meet. */
static void rule1_3_own_holes(void **state) {
    (void)state;
    /* the opponent's piece on 13 is on its own side: no effect on ours */
    moves(C "to=1 p1=10 h1=4 p2=13 h2=4", "3", "10-13 in-3");
    /* own piece on 13: 10-13 not allowed; jumping 11 and 12 is */
    moves(C "to=1 p1=10,13 h1=3 p2=- h2=5", "3", "13-16 in-3");
    moves(C "to=1 p1=10,11,12 h1=2 p2=- h2=5", "3", "10-13 11-14 12-15 in-3");
    /* positions: no more than five pieces, one per hole */
    moves(C "to=1 p1=3 h1=5 p2=- h2=5", "1", "ERR");
    moves(C "to=1 p1=30 h1=4 p2=- h2=5", "1", "ERR"); /* 30 holds nothing */
}

/* Rule 2, CC2: a throw of v enters on hole v, if empty; the player chooses
 * freely between entering and moving. */
static void rule2_entering(void **state) {
    (void)state;
    moves(C "to=1 p1=- h1=5 p2=- h2=5", "4", "in-4");
    moves(C "to=1 p1=4 h1=4 p2=- h2=5", "4", "4-8"); /* hole 4 is taken */
    moves(C "to=1 p1=2 h1=4 p2=- h2=5", "4", "2-6 in-4");
    apply(C "to=1 p1=2 h1=4 p2=- h2=5", "4", "in-4",
          C "to=2 p1=2,4 h1=3 p2=- h2=5");
    apply(C "to=1 p1=2 h1=4 p2=- h2=5", "4", "in-1", "ERR");
    apply("hounds-jackals-carter:dice=d6 to=1 p1=- h1=5 p2=- h2=5", "6", "in-6",
          "hounds-jackals-carter:dice=d6 to=2 p1=6 h1=4 p2=- h2=5");
}

/* Rule 4, CC7: reaching 30 by the exact count bears off at once, pieces
 * in hand or not; a count past 30 is no move. */
static void rule4_bearing_off(void **state) {
    (void)state;
    moves(C "to=1 p1=27 h1=4 p2=- h2=5", "3", "27-off in-3");
    moves(C "to=1 p1=27 h1=4 p2=- h2=5", "4", "in-4"); /* 31: no move */
    moves(C "to=1 p1=27,29 p2=- h2=5", "4", "pass");
    apply(C "to=1 p1=26 h1=3 p2=- h2=5", "4", "26-off",
          C "to=2 p1=- h1=3 p2=- h2=5");
    apply(C "to=1 p1=26 h1=3 p2=- h2=5", "4", "26-30", "ERR");
}

/* Rule 5, CC4, G6, H3 (lines board): a count ending on 20 goes back to 6,
 * on 10 back to 8, only if that hole is empty, else the piece stays;
 * ending on 6 or 8 does nothing more. */
static void rule5_lines(void **state) {
    (void)state;
    moves(C "to=1 p1=17 h1=4 p2=- h2=5", "3", "17-6 in-3");
    moves(C "to=1 p1=6,17 h1=3 p2=- h2=5", "3", "17-20 6-9 in-3"); /* stays */
    moves(C "to=1 p1=7 h1=4 p2=- h2=5", "3", "7-8 in-3"); /* ends on 10 */
    moves(C "to=1 p1=8 h1=4 p2=- h2=5", "2", "8-8 in-2"); /* G6: 8 is empty */
    moves(C "to=1 p1=3 h1=4 p2=- h2=5", "3", "3-6"); /* 6: nothing; 3 taken */
    moves(C "to=1 p1=5 h1=4 p2=- h2=5", "3", "5-8 in-3");
    /* the other boards have no lines */
    moves(M "to=1 p1=17 h1=4 p2=- h2=5", "3", "17-20 in-3");
    moves(P "to=1 p1=7 h1=4 p2=- h2=5", "3", "7-10 in-3");
}

/* Rule 6, CC5, CC6, CC2: a move whose count or entry ends on a
 * second-throw hole gives the same player another throw. */
static void rule6_second_throws(void **state) {
    (void)state;
    /* lines: 15 and 25 */
    apply(C "to=1 p1=12 h1=4 p2=- h2=5", "3", "12-15",
          C "to=1 p1=15 h1=4 p2=- h2=5");
    apply(C "to=1 p1=12 h1=4 p2=- h2=5", "2", "12-14",
          C "to=2 p1=14 h1=4 p2=- h2=5");
    apply(C "to=1 p1=17 h1=4 p2=- h2=5", "3", "17-6",
          C "to=2 p1=6 h1=4 p2=- h2=5"); /* 6 by the line: nothing */
    /* marked: 1, 6, 8, 10, 15, 20, 25 and reaching 30; entries too */
    apply(M "to=1 p1=- h1=5 p2=- h2=5", "1", "in-1",
          M "to=1 p1=1 h1=4 p2=- h2=5");
    apply(M "to=1 p1=- h1=5 p2=- h2=5", "2", "in-2",
          M "to=2 p1=2 h1=4 p2=- h2=5");
    apply(M "to=1 p1=17 h1=4 p2=- h2=5", "3", "17-20",
          M "to=1 p1=20 h1=4 p2=- h2=5");
    apply(M "to=1 p1=26 h1=4 p2=- h2=5", "4", "26-off",
          M "to=1 p1=- h1=4 p2=- h2=5");
    apply(C "to=1 p1=26 h1=4 p2=- h2=5", "4", "26-off",
          C "to=2 p1=- h1=4 p2=- h2=5");
    /* plain: none */
    apply(P "to=1 p1=12 h1=4 p2=- h2=5", "3", "12-15",
          P "to=2 p1=15 h1=4 p2=- h2=5");
}

/* Rule 7, G3, CC5: a throw that cannot be used is lost, passes the turn,
 * and earns nothing. */
static void rule7_lost_throws(void **state) {
    (void)state;
    moves(C "to=1 p1=27,28,29 p2=- h2=5", "4", "pass");
    apply(C "to=1 p1=27,28,29 p2=- h2=5", "4", "pass",
          C "to=2 p1=27,28,29 p2=- h2=5");
    apply(C "to=1 p1=27,28,29 p2=- h2=5", "1", "pass", "ERR");
}

/* Rule 8: the first to bear off all five wins; on the marked board the
 * last piece reaching 30 keeps to= (CC6), the game being over. */
static void rule8_winning(void **state) {
    (void)state;
    apply(C "to=1 p1=28 p2=5 h2=4", "2", "28-off",
          C "to=2 p1=- p2=5 h2=4 winner=1");
    apply(M "to=1 p1=28 p2=5 h2=4", "2", "28-off",
          M "to=1 p1=- p2=5 h2=4 winner=1");
}

/* CC1, R4: the throw devices and their values. */
static void cc1_devices(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error e;
    kemet_pos pos;
    kemet_throw t[8];
    kemet_weight w[8], total;
    static const struct {
        const char *spec;
        int n;
        kemet_weight total, w1;
    } dev[] = {{"hounds-jackals-carter", 5, 16, 4},
               {"hounds-jackals-carter:dice=d4", 4, 4, 1},
               {"hounds-jackals-carter:dice=d6", 6, 6, 1}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(kemet_rules_open(dev[i].spec, &r, &e), KEMET_OK);
        kemet_start(r, &pos);
        assert_int_equal(kemet_throws(r, &pos, t, w, &total), dev[i].n);
        assert_int_equal(total, dev[i].total);
        assert_int_equal(w[0], dev[i].w1);
        kemet_rules_close(r);
    }
    moves(C "to=1 p1=- h1=5 p2=- h2=5", "6", "ERR");
    moves("hounds-jackals-carter:dice=d4 to=1 p1=- h1=5 p2=- h2=5", "5", "ERR");
    moves("hounds-jackals-carter:dice=d6 to=1 p1=- h1=5 p2=- h2=5", "0", "ERR");
}

/* R2: the options, their order and their values. */
static void r2_options(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "start",
                            "hounds-jackals-carter:dice=d6,board=plain", NULL),
                     0);
    assert_string_equal(o, "hounds-jackals-carter:board=plain,dice=d6 to=1 "
                           "p1=- h1=5 p2=- h2=5\n");
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "start",
                            "hounds-jackals-carter:board=round", NULL),
                     2);
    assert_non_null(strstr(e, "unknown value 'round'"));
    free(o);
    free(e);
    assert_int_equal(
        tu_run(NULL, &o, &e, "start", "hounds-jackals-carter:", NULL), 2);
    free(o);
    free(e);
}

/* Why a move is refused, in words. */
static void explanations(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "apply", C "to=1 p1=- h1=5 p2=- h2=5",
                            "3", "in-4", NULL),
                     2);
    assert_non_null(strstr(e, "the hole its throw names: in-3"));
    free(o);
    free(e);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_examples),
        cmocka_unit_test(rule1_3_own_holes),
        cmocka_unit_test(rule2_entering),
        cmocka_unit_test(rule4_bearing_off),
        cmocka_unit_test(rule5_lines),
        cmocka_unit_test(rule6_second_throws),
        cmocka_unit_test(rule7_lost_throws),
        cmocka_unit_test(rule8_winning),
        cmocka_unit_test(cc1_devices),
        cmocka_unit_test(r2_options),
        cmocka_unit_test(explanations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
