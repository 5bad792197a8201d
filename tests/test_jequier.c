/* test_jequier.c - Gustave Jéquier's Senet (senet-jequier,
 * reconstructions §3): the worked examples of the spec, exactly, and one
 * test group per rule and ruling (rules 1-10, JQ1-JQ11) with cases the
 * rule allows and cases it forbids, every answer worked out by hand from
 * the rules. The perft counts of tests/golden/perft.txt agree with a
 * second program written from the rules alone (tests/jequier_ref.py). */
#include "testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define J "senet-jequier "
#define moves tu_expect_moves
#define apply tu_expect_apply
#define OK TU_RUN_OK
#define BAD TU_RUN_BAD

/* The Notation block of §3, command by command. */
static void spec_examples(void **state) {
    (void)state;
    OK(J "to=2 p1=1,3,5,7,9 p2=2,4,6,8,11\n", "start", "senet-jequier");
    OK("11-13\n", "moves", J "to=2 p1=1,3,5,7,9 p2=2,4,6,8,11", "2");
    OK(J "to=2 p1=1,3,5,7,11 p2=2,4,6,8,9\n", "apply",
       J "to=1 p1=1,3,5,7,9 p2=2,4,6,8,11", "2", "9-11");
    OK("21-27\n", "moves", J "to=1 p1=12,21 p2=14,15,16,25", "6");
    OK(J "to=1 p1=1,12 p2=14,15,16,25\n", "apply",
       J "to=1 p1=12,21 p2=14,15,16,25", "6", "21-27");
    OK(J "to=1 p1=12,25 p2=1,14,15,16\n", "apply",
       J "to=1 p1=12,21 p2=14,15,16,25", "4", "21-25");
}

/* Rule 1, R4: one piece by the whole throw; four sticks counting 6 for
 * none: no 5. */
static void rule1_throws(void **state) {
    (void)state;
    moves(J "to=1 p1=12 p2=3", "5", "ERR");
    moves(J "to=1 p1=12 p2=3", "6", "12-18");
    apply(J "to=1 p1=12,14 p2=3", "2", "12-13,14-15", "ERR");
    /* 1: 4/16, 2: 6/16, 3: 4/16, 4: 1/16, 6: 1/16 */
    kemet_pos pos;
    kemet_rules *r = tu_pos(J "to=1 p1=12 p2=3", &pos);
    kemet_throw t[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS], total;
    assert_int_equal(kemet_throws(r, &pos, t, w, &total), 5);
    static const int v[5] = {1, 2, 3, 4, 6}, want[5] = {4, 6, 4, 1, 1};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(t[i].n, 1);
        assert_int_equal(t[i].v[0], v[i]);
        assert_int_equal(w[i] * 16, want[i] * total);
    }
    kemet_rules_close(r);
}

/* Rule 2, JQ2: a piece on 1-10 cannot move, either way, while the square
 * ahead of it holds a piece of either colour; 10 looks at 11. */
static void rule2_lock(void **state) {
    (void)state;
    moves(J "to=1 p1=1,3 p2=2,20", "1", "3-4"); /* 1 waits behind 2 */
    moves(J "to=1 p1=1,3 p2=2,20", "2", "3-5");
    moves(J "to=1 p1=1,2 p2=15", "1", "2-3");     /* behind its own */
    moves(J "to=1 p1=10 p2=11,20", "2", "pass");  /* 10 behind 11 */
    moves(J "to=1 p1=10 p2=12,20", "2", "10-12"); /* 11 empty: free */
    moves(J "to=1 p1=14 p2=15,20", "3", "14-17"); /* rows 2-3: no lock */
}

/* Rules 3-5, JQ3, JQ4, JQ6: forward onto an empty square or an
 * unprotected opponent, who goes to the first empty square after the
 * move; never on one's own; protected by a neighbour or 20, 26, 28, 29;
 * 10/11 and 20/21 are neighbours. */
static void rules3_5_hits(void **state) {
    (void)state;
    apply(J "to=1 p1=12 p2=14", "2", "12-14", J "to=2 p1=14 p2=1");
    /* the square the hitter left counts as empty (JQ6) */
    apply(J "to=1 p1=1 p2=4,20", "3", "1-4", J "to=2 p1=4 p2=1,20");
    apply(J "to=1 p1=2 p2=1,5,9", "3", "2-5", J "to=2 p1=5 p2=1,2,9");
    /* a pair protects: 12 goes back instead */
    moves(J "to=1 p1=12 p2=14,15", "2", "12-10");
    moves(J "to=1 p1=12 p2=14,15", "3", "12-9");
    /* across the row ends: 10/11 and 20/21 are neighbours (JQ3) */
    moves(J "to=1 p1=8 p2=10,11", "3", "8-5");
    moves(J "to=1 p1=18 p2=20,21", "3", "18-15");
    /* the safe squares (JQ4): 20 protects; 15 does not */
    moves(J "to=1 p1=18 p2=20", "2", "18-16");
    apply(J "to=1 p1=12 p2=15", "3", "12-15", J "to=2 p1=15 p2=1");
    moves(J "to=1 p1=12,14 p2=20", "2", "14-16"); /* never on its own */
}

/* Rule 3, JQ5: no move passes three opposing pieces in a row, forward or
 * backward, off included; the mover's own pieces never block. */
static void rule3_blocks(void **state) {
    (void)state;
    moves(J "to=1 p1=12 p2=14,15,16", "6", "12-6");
    moves(J "to=1 p1=12,14,15,16 p2=20", "6", "12-18 15-21 16-22");
    /* backward past 15-16-17: no move (forward 20-26 onto a safe square) */
    moves(J "to=1 p1=20 p2=15,16,17,26", "6", "pass");
    /* two in a row do not block */
    moves(J "to=1 p1=12 p2=14,15,24", "6", "12-18");
    /* off past 28-29-30: no; back instead */
    moves(J "to=1 p1=26 p2=28,29,30", "6", "26-20");
}

/* Rule 6, JQ7: a piece that ends on 27 goes to the first empty square,
 * its own start counting as empty; backward from 28-30 too; no piece
 * rests on 27. */
static void rule6_water(void **state) {
    (void)state;
    moves(J "to=1 p1=28 p2=29,30", "1", "28-27");
    apply(J "to=1 p1=28 p2=29,30", "1", "28-27", J "to=1 p1=1 p2=29,30");
    apply(J "to=1 p1=1,2,3,24 p2=4,5", "3", "24-27",
          J "to=2 p1=1,2,3,6 p2=4,5");
    moves(J "to=1 p1=27 p2=3", "1", "ERR");
}

/* Rule 7, JQ8: backward only when no piece has a forward move (bearing
 * off included), by the whole throw, to an empty square, never a hit. */
static void rule7_backward(void **state) {
    (void)state;
    moves(J "to=1 p1=12,20 p2=14,15,22,23", "2", "12-10 20-18");
    moves(J "to=1 p1=12 p2=10,14,15", "2", "pass"); /* 10 taken: no hit */
    moves(J "to=1 p1=2 p2=4,5", "2", "pass");       /* below 1 */
    moves(J "to=1 p1=3,12 p2=14,15", "2", "3-5");   /* one goes forward */
}

/* Rule 8, JQ9: off only once every piece of the player is on 21-30, then
 * by any count past 30. */
static void rule8_bearing_off(void **state) {
    (void)state;
    moves(J "to=1 p1=19,28 p2=3", "4", "19-23");
    moves(J "to=1 p1=21,28 p2=3", "4", "21-25 28-off");
    moves(J "to=1 p1=30 p2=3", "6", "30-off");
    moves(J "to=1 p1=25,30 p2=3", "2", "25-27 30-off");
}

/* Rule 9, JQ10: 1, 4 and 6 throw again; 2 and 3 do not; a lost throw
 * ends the turn, even a 1. */
static void rule9_again(void **state) {
    (void)state;
    apply(J "to=1 p1=12 p2=3", "1", "12-13", J "to=1 p1=13 p2=3");
    apply(J "to=1 p1=12 p2=3", "4", "12-16", J "to=1 p1=16 p2=3");
    apply(J "to=1 p1=12 p2=3", "6", "12-18", J "to=1 p1=18 p2=3");
    apply(J "to=1 p1=12 p2=3", "3", "12-15", J "to=2 p1=15 p2=3");
    apply(J "to=1 p1=10 p2=11,20", "1", "pass", J "to=2 p1=10 p2=11,20");
}

/* Rule 10, JQ11: the first to bear off all five wins; the win is worth 3
 * points for each of the loser's pieces on 1-10, 2 on 11-20, 1 on 21-30,
 * said with the result and never in the position. */
static void rule10_end_points(void **state) {
    (void)state;
    apply(J "to=1 p1=30 p2=3,12,25", "2", "30-off",
          J "to=2 p1=- p2=3,12,25 winner=1");
    apply(J "to=1 p1=30 p2=3,12,25", "4", "30-off",
          J "to=1 p1=- p2=3,12,25 winner=1");
    kemet_pos pos, out;
    kemet_rules *r = tu_pos(J "to=1 p1=30 p2=3,12,25", &pos);
    kemet_throw thr;
    kemet_move m;
    kemet_error err;
    kemet_events ev = {0};
    assert_int_equal(kemet_throw_parse(r, "2", &thr, &err), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, "30-off", &m, &err), KEMET_OK);
    assert_int_equal(kemet_apply(r, &pos, &thr, &m, &out, &ev), KEMET_OK);
    char buf[KEMET_DESCRIBE_MAX];
    assert_true(kemet_describe(r, &ev, buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, "White wins the game, worth 6 points!"));
    assert_int_equal(kemet_points(r, &out), 6);
    assert_int_equal(kemet_points(r, &pos), 0); /* not over */
    kemet_rules_close(r);
    /* a hit said as a hit sent back */
    r = tu_pos(J "to=1 p1=12 p2=14", &pos);
    ev.n = 0;
    assert_int_equal(kemet_move_parse(r, "12-14", &m, &err), KEMET_OK);
    assert_int_equal(kemet_apply(r, &pos, &thr, &m, &out, &ev), KEMET_OK);
    assert_true(kemet_describe(r, &ev, buf, sizeof buf) > 0);
    assert_non_null(
        strstr(buf, "Black's piece on 14 is hit and sent back to 1"));
    kemet_rules_close(r);
}

/* The positions (R3, R6): no new fields; nothing on 27; no draw; a
 * finished game's winner has no piece left and the loser some. */
static void positions(void **state) {
    (void)state;
    BAD("no piece stays on 27", "moves", J "to=1 p1=27 p2=3", "1");
    BAD("has no draw", "moves", J "to=1 p1=- p2=- winner=0", "1");
    BAD("the game is over", "moves", J "to=1 p1=- p2=3", "1");
    BAD("the winner has borne off every piece", "moves",
        J "to=1 p1=4 p2=3 winner=1", "1");
    BAD("pieces", "moves", J "to=1 p1=1,3,5,7,9,11 p2=2", "1");
    BAD("o1= is not used", "moves", J "to=1 p1=12 o1=2 p2=3", "1");
    BAD("must= is not used", "moves", J "to=1 p1=12 p2=3 must=12", "1");
    BAD("", "start", "senet-jequier:trap=1");
}

/* JQ1: the contestants throw in turn, the first at random, until one
 * throws a 1; that one plays black (player 2), has played 10-11 and
 * throws again: the start is the same every game; either contestant may
 * take black. */
static void jq1_opening(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-jequier", &r, &err), KEMET_OK);
    kemet_pos want;
    kemet_rules *r2 = tu_pos(J "to=2 p1=1,3,5,7,9 p2=2,4,6,8,11", &want);
    int black[3] = {0}, first = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        kemet_events ev = {0};
        kemet_game *g;
        assert_int_equal(kemet_game_new(r, seed, &g, &ev), KEMET_OK);
        assert_memory_equal(kemet_game_pos(g), &want, sizeof want);
        assert_null(kemet_game_throw(g));
        assert_int_equal(ev.n, 1);
        assert_int_equal(ev.ev[0].kind, KEMET_EV_FIRST1);
        assert_int_equal(ev.ev[0].who, 2);
        assert_true(ev.ev[0].a >= 1);
        assert_true(ev.ev[0].b == 1 || ev.ev[0].b == 2);
        black[ev.ev[0].b]++;
        first += ev.ev[0].a == 1;
        /* kemet_opening_black names the contestant the opening seats */
        assert_int_equal(kemet_opening_black(r, seed), ev.ev[0].b);
        kemet_game_free(g);
    }
    assert_true(black[1] > 60 && black[2] > 60); /* 100 each expected */
    assert_true(first > 25 && first < 80);       /* 50 expected (1/4) */
    /* where the opening seats no one: 0 */
    kemet_rules *k;
    assert_int_equal(kemet_rules_open("senet-kendall", &k, &err), KEMET_OK);
    assert_int_equal(kemet_opening_black(k, 7), 0);
    kemet_rules_close(k);
    assert_int_equal(kemet_opening_black(NULL, 7), 0);
    kemet_rules_close(r2);
    kemet_rules_close(r);
}

/* Whole games end, and the board is Jéquier's: the safe squares and the
 * water marked. */
static void games_and_board(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "sim", "senet-jequier", "--games",
                            "300", "--seed", "3", NULL),
                     0);
    assert_non_null(strstr(o, "300 games"));
    /* random play stalls (hits and backward moves): some games reach the
       turn cap; greedy ones end, and each win is worth points */
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "sim", "senet-jequier", "--games",
                            "100", "--seed", "3", "--p1", "greedy", "--p2",
                            "greedy", NULL),
                     0);
    assert_non_null(strstr(o, "stopped at the turn cap (1000): 0"));
    assert_non_null(strstr(o, "player 1 points: "));
    free(o);
    free(e);
    /* kemet play: the points with the result; the sticks' blank is 6 */
    assert_int_equal(tu_run(NULL, &o, &e, "play", "senet-jequier", "--p1",
                            "greedy", "--p2", "greedy", "--seed", "7", NULL),
                     0);
    assert_non_null(strstr(o, "wins after 364 moves, worth 1 point."));
    free(o);
    free(e);
    assert_int_equal(tu_run("quit\ny\n", &o, &e, "play", "senet-jequier",
                            "--seed", "3", NULL),
                     0);
    assert_non_null(strstr(o, "none = 6)"));
    assert_null(strstr(o, "none = 5"));
    free(o);
    free(e);
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-jequier", &r, &err), KEMET_OK);
    kemet_board_art *a = calloc(1, sizeof *a);
    assert_non_null(a);
    assert_int_equal(kemet_art(r, a), 30);
    for (int i = 0; i < a->nholes; i++) {
        int sq = atoi(a->hole[i].label);
        bool want = sq == 20 || sq == 26 || sq == 27 || sq == 28 || sq == 29;
        assert_int_equal(a->hole[i].mark[0] != '\0', want);
    }
    free(a);
    kemet_rules_close(r);
}

/* Why a move is refused, in words. */
static void explanations(void **state) {
    (void)state;
    BAD("waits while square 2 ahead of it is taken (rule 2)", "apply",
        J "to=1 p1=1,3 p2=2,20", "1", "1-2");
    BAD("protected by its neighbour on 15 (rule 4)", "apply",
        J "to=1 p1=12 p2=14,15", "2", "12-14");
    BAD("stands on a safe square", "apply", J "to=1 p1=18 p2=20", "2", "18-20");
    BAD("three Black pieces in a row (rule 3)", "apply",
        J "to=1 p1=12 p2=14,15,16", "6", "12-18");
    BAD("until all yours are on 21-30 (rule 8)", "apply",
        J "to=1 p1=19,28 p2=3", "4", "28-off");
    BAD("only when no piece can move forward (rule 7)", "apply",
        J "to=1 p1=12 p2=3", "2", "12-10");
    BAD("only to an empty square (rule 7)", "apply", J "to=1 p1=12 p2=10,14,15",
        "2", "12-10");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_examples),   cmocka_unit_test(rule1_throws),
        cmocka_unit_test(rule2_lock),      cmocka_unit_test(rules3_5_hits),
        cmocka_unit_test(rule3_blocks),    cmocka_unit_test(rule6_water),
        cmocka_unit_test(rule7_backward),  cmocka_unit_test(rule8_bearing_off),
        cmocka_unit_test(rule9_again),     cmocka_unit_test(rule10_end_points),
        cmocka_unit_test(positions),       cmocka_unit_test(jq1_opening),
        cmocka_unit_test(games_and_board), cmocka_unit_test(explanations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
