/* test_piccione.c - Peter Piccione's Senet (senet-piccione,
 * reconstructions §2): the worked examples of the spec, exactly, and one
 * test group per rule and ruling (rules 1-10, PC1-PC12) with cases the
 * rule allows and cases it forbids, every answer worked out by hand from
 * the rules. The perft counts of tests/golden/perft.txt agree with a
 * second program written from the rules alone (tests/piccione_ref.py). */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define P "senet-piccione "
#define moves tu_expect_moves
#define apply tu_expect_apply
#define OK TU_RUN_OK
#define BAD TU_RUN_BAD

/* The Notation block of §2, command by command. */
static void spec_examples(void **state) {
    (void)state;
    OK(P "to=1 p1=- h1=5 p2=- h2=5\n", "start", "senet-piccione");
    OK(P "to=1 p1=1 h1=4 p2=- h2=5 must=1\n", "apply",
       P "to=1 p1=- h1=5 p2=- h2=5", "1", "in-1");
    OK("14-16\n14-15+3-4\n", "moves", P "to=1 p1=1,3,14 h1=2 p2=2,5 h2=3", "2");
    OK(P "to=1 p1=1,4,15 h1=2 p2=2,5 h2=3\n", "apply",
       P "to=1 p1=1,3,14 h1=2 p2=2,5 h2=3", "2", "14-15+3-4");
    OK("1-5\n4-5+1-4\n", "moves", P "to=1 p1=1,4 h1=3 p2=2,3 h2=3 must=1", "4");
    OK("pass\n", "moves", P "to=1 p1=1,4 h1=3 p2=2,3 h2=3 must=1", "3");
    OK(P "to=2 p1=4 h1=4 p2=2,3 h2=3\n", "apply",
       P "to=1 p1=1,4 h1=3 p2=2,3 h2=3 must=1", "3", "pass");
    OK("26-30\n28-30+26-28\n28-off+26-27\n", "moves",
       P "to=2 p1=10 h1=4 p2=26,28 h2=3", "4");
}

/* Rule 1, PC6: a 1 used whole enters a piece on an empty square 1 (of
 * either side), not under must=; it may instead move a piece by 1. */
static void rule1_entering(void **state) {
    (void)state;
    moves(P "to=1 p1=- h1=5 p2=- h2=5", "1", "in-1");
    moves(P "to=1 p1=- h1=5 p2=- h2=5", "2", "pass");
    moves(P "to=1 p1=5 h1=4 p2=- h2=5", "1", "5-6 in-1");
    moves(P "to=1 p1=5 h1=4 p2=1 h2=4", "1", "5-6"); /* 1 is taken */
    moves(P "to=1 p1=1 h1=4 p2=- h2=5 must=1", "1", "1-2");
    moves(P "to=1 p1=5 p2=9 h2=4", "1", "5-6"); /* none in hand */
    apply(P "to=1 p1=5 h1=4 p2=- h2=5", "2", "in-1", "ERR");
}

/* Rule 2, PC1-PC4: a throw shared out in parts, each a different piece,
 * all of it used; a part may bear off exactly. */
static void rule2_splitting(void **state) {
    (void)state;
    moves(P "to=1 p1=3,10 h1=3 p2=- h2=5", "2", "10-11+3-4 10-12 3-5");
    /* PC1: a target may be the start of another step */
    moves(P "to=1 p1=3,4 h1=3 p2=- h2=5", "2", "3-5 4-5+3-4 4-6");
    /* PC4: 29 off with 2 and 10 on with 3, from a 5 */
    apply(P "to=1 p1=10,29 h1=3 p2=- h2=5", "5", "29-off+10-13",
          P "to=1 p1=13 h1=3 p2=- h2=5");
    /* in any order (a play is a set) */
    apply(P "to=1 p1=10,29 h1=3 p2=- h2=5", "5", "10-13+29-off",
          P "to=1 p1=13 h1=3 p2=- h2=5");
    /* PC3: a lone piece on 28 cannot use a 4 */
    moves(P "to=1 p1=28 p2=5 h2=4", "4", "pass");
    /* PC2: one part per piece */
    apply(P "to=1 p1=10 h1=4 p2=- h2=5", "2", "10-11+11-12", "ERR");
}

/* Rules 3-5, PC5: nothing is captured and no square holds two; backward
 * only when the throw has no forward play, never from 28-30 nor below 1;
 * all parts the same way. */
static void rules3_5_landing_direction(void **state) {
    (void)state;
    moves(P "to=1 p1=3 h1=4 p2=5 h2=4", "2", "3-1");
    moves(P "to=1 p1=1,29 h1=3 p2=2,3,4 h2=2", "3", "pass");
    moves(P "to=1 p1=6,28 h1=3 p2=8,30 h2=3", "2", "28-29+6-7");
    moves(P "to=1 p1=6,28 h1=3 p2=7,8,29,30 h2=1", "2", "6-4");
    apply(P "to=1 p1=6,12 h1=3 p2=- h2=5", "3", "12-14+6-5", "ERR");
}

/* Rule 6, PC7: a part ending on 27 sends its piece back to hand; the
 * rest of the play stands; nothing rests on 27. */
static void rule6_water(void **state) {
    (void)state;
    apply(P "to=1 p1=24 h1=4 p2=- h2=5", "3", "24-27",
          P "to=2 p1=- h1=5 p2=- h2=5");
    apply(P "to=2 p1=10 h1=4 p2=26,28 h2=3", "4", "28-off+26-27",
          P "to=1 p1=10 h1=4 p2=- h2=4");
    moves(P "to=1 p1=27 h1=4 p2=- h2=5", "1", "ERR");
}

/* Rules 7, 10: off only by exactly one past 30; all five off wins, `to`
 * as rule 8 leaves it. */
static void rules7_10_off_and_win(void **state) {
    (void)state;
    moves(P "to=1 p1=28 p2=5 h2=4", "3", "28-off");
    apply(P "to=1 p1=28 p2=5 h2=4", "3", "28-off",
          P "to=2 p1=- p2=5 h2=4 winner=1");
    apply(P "to=1 p1=26 p2=5 h2=4", "5", "26-off",
          P "to=1 p1=- p2=5 h2=4 winner=1");
    moves(P "to=1 p1=29 p2=5 h2=4", "3", "pass");
}

/* Rule 8, PC8: one more throw after a 5, an entry, or a part ending on
 * 15 or 26 (either way); at most one; none after a lost throw. */
static void rule8_again(void **state) {
    (void)state;
    apply(P "to=1 p1=12 h1=4 p2=- h2=5", "3", "12-15",
          P "to=1 p1=15 h1=4 p2=- h2=5");
    apply(P "to=1 p1=12 h1=4 p2=- h2=5", "2", "12-14",
          P "to=2 p1=14 h1=4 p2=- h2=5");
    apply(P "to=1 p1=24 h1=4 p2=- h2=5", "2", "24-26",
          P "to=1 p1=26 h1=4 p2=- h2=5");
    apply(P "to=1 p1=10,24 h1=3 p2=- h2=5", "5", "24-26+10-13",
          P "to=1 p1=13,26 h1=3 p2=- h2=5");
    /* backward onto 15 */
    apply(P "to=1 p1=17 h1=4 p2=19,30 h2=3", "2", "17-15",
          P "to=1 p1=15 h1=4 p2=19,30 h2=3");
    apply(P "to=1 p1=28 p2=5 h2=4", "5", "pass", P "to=2 p1=28 p2=5 h2=4");
}

/* Rule 9, PC10, PC11: the throw after an entry must move the piece on 1
 * forward; with no such play it goes back to hand and the turn passes;
 * a legal play drops must= and earns as usual. */
static void rule9_must(void **state) {
    (void)state;
    apply(P "to=1 p1=1 h1=4 p2=- h2=5 must=1", "5", "1-6",
          P "to=1 p1=6 h1=4 p2=- h2=5");
    apply(P "to=1 p1=1 h1=4 p2=- h2=5 must=1", "2", "1-3",
          P "to=2 p1=3 h1=4 p2=- h2=5");
    moves(P "to=1 p1=1,8 h1=3 p2=- h2=5 must=1", "2", "1-3 8-9+1-2");
    /* PC11: a piece merely standing on 1 just waits */
    moves(P "to=1 p1=1,8 h1=3 p2=2,3,4,5,6", "2", "8-10");
}

/* The positions (R3, R6, PC12). */
static void positions(void **state) {
    (void)state;
    BAD("no piece stays on 27", "moves", P "to=1 p1=27 h1=4 p2=- h2=5", "1");
    BAD("no piece on square 1", "moves", P "to=1 p1=5 h1=4 p2=- h2=5 must=1",
        "1");
    BAD("rethrows with the same piece only from square 1", "moves",
        P "to=1 p1=5 h1=4 p2=- h2=5 must=5", "1");
    BAD("has no draw", "moves", P "to=1 p1=- p2=- winner=0", "1");
    BAD("the game is over", "moves", P "to=1 p1=- p2=5 h2=4", "1");
    BAD("pieces", "moves", P "to=1 p1=5 h1=5 p2=- h2=5", "1");
    BAD("o1= is not used", "moves", P "to=1 p1=5 h1=4 o1=1 p2=- h2=5", "1");
    BAD("", "moves", P "to=1 p1=5 h1=4 p2=- h2=5", "6");
}

/* Entering a play step by step (kemet_next_steps): the steps of the plays
 * that contain the steps chosen, and the value left. */
static void step_by_step(void **state) {
    (void)state;
    kemet_pos pos, mid;
    kemet_rules *r = tu_pos(P "to=1 p1=1,3,14 h1=2 p2=2,5 h2=3", &pos);
    kemet_throw thr, left;
    kemet_error err;
    assert_int_equal(kemet_throw_parse(r, "2", &thr, &err), KEMET_OK);
    kemet_move *next = malloc(KEMET_MAX_MOVES * sizeof *next);
    assert_non_null(next);
    kemet_move done = {0};
    assert_int_equal(kemet_next_steps(r, &pos, &thr, &done, next, &left), 3);
    assert_int_equal(kemet_move_parse(r, "14-15", &done, &err), KEMET_OK);
    assert_int_equal(kemet_next_steps(r, &pos, &thr, &done, next, &left), 1);
    char buf[32];
    kemet_move_format(&next[0], buf, sizeof buf);
    assert_string_equal(buf, "3-4");
    assert_int_equal(left.n, 1);
    assert_int_equal(left.v[0], 1);
    assert_int_equal(kemet_steps_pos(r, &pos, &thr, &done, &mid), KEMET_OK);
    char text[128];
    kemet_pos_format(r, &mid, text, sizeof text);
    assert_string_equal(text, P "to=1 p1=1,3,15 h1=2 p2=2,5 h2=3");
    assert_int_equal(kemet_move_parse(r, "3-4+14-15", &done, &err), KEMET_OK);
    assert_int_equal(kemet_next_steps(r, &pos, &thr, &done, next, &left), 0);
    assert_int_equal(kemet_move_parse(r, "3-5", &done, &err), KEMET_OK);
    assert_int_equal(kemet_next_steps(r, &pos, &thr, &done, next, &left),
                     KEMET_EILLEGAL);
    free(next);
    kemet_rules_close(r);
}

/* Whole games end; the board marks 15, 26 and the water. */
static void games_and_board(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "sim", "senet-piccione", "--games",
                            "200", "--seed", "3", NULL),
                     0);
    assert_non_null(strstr(o, "200 games"));
    assert_non_null(strstr(o, "stopped at the turn cap (1000): 0"));
    free(o);
    free(e);
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-piccione", &r, &err), KEMET_OK);
    kemet_board_art *a = calloc(1, sizeof *a);
    assert_non_null(a);
    assert_int_equal(kemet_art(r, a), 30);
    for (int i = 0; i < a->nholes; i++) {
        int sq = atoi(a->hole[i].label);
        assert_int_equal(a->hole[i].mark[0] != '\0',
                         sq == 15 || sq == 26 || sq == 27);
    }
    free(a);
    kemet_rules_close(r);
}

/* Why a play is refused, in words. */
static void explanations(void **state) {
    (void)state;
    BAD("only with a throw of 1", "apply", P "to=1 p1=5 h1=4 p2=- h2=5", "2",
        "in-1");
    BAD("must move the piece entered on 1", "apply",
        P "to=1 p1=1 h1=4 p2=- h2=5 must=1", "1", "in-1");
    BAD("these make 3, the throw is 2", "apply",
        P "to=1 p1=3,10 h1=3 p2=- h2=5", "2", "10-12+3-4");
    BAD("all parts of a throw go the same way", "apply",
        P "to=1 p1=6,12 h1=3 p2=- h2=5", "3", "12-14+6-5");
    BAD("nothing is captured", "apply", P "to=1 p1=3 h1=4 p2=5 h2=4", "2",
        "3-5");
    BAD("never move backward", "apply", P "to=1 p1=6,28 h1=3 p2=7,8,29,30 h2=1",
        "2", "28-26");
    BAD("exactly past 30: from 28 a part of 3", "apply",
        P "to=1 p1=28 p2=5 h2=4", "4", "28-off");
    BAD("only when the throw has no forward play", "apply",
        P "to=1 p1=12 h1=4 p2=- h2=5", "2", "12-10");
    BAD("forward (rule 9)", "apply", P "to=1 p1=1,8 h1=3 p2=- h2=5 must=1", "1",
        "8-9");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_examples),
        cmocka_unit_test(rule1_entering),
        cmocka_unit_test(rule2_splitting),
        cmocka_unit_test(rules3_5_landing_direction),
        cmocka_unit_test(rule6_water),
        cmocka_unit_test(rules7_10_off_and_win),
        cmocka_unit_test(rule8_again),
        cmocka_unit_test(rule9_must),
        cmocka_unit_test(positions),
        cmocka_unit_test(step_by_step),
        cmocka_unit_test(games_and_board),
        cmocka_unit_test(explanations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
