/* test_senet.c - one test group per rule of Kendall's Senet (seed
 * 004_898e29a44d2a62a3.txt, rules 1-14), per ruling K1-K10 and for
 * Robinson's variant: for each, a case the rule allows and one it forbids.
 * Every expected answer is worked out by hand from the rule text. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K "senet-kendall "
#define R "senet-robinson "

#define expect_moves tu_expect_moves
#define expect_apply tu_expect_apply

/* Rule 1: seven pieces each, thirty squares. */
static void rule1_board_and_pieces(void **state) {
    (void)state;
    expect_moves(K "to=1 p1=30 p2=1", "1", "30-off"); /* square 30 */
    expect_moves(K "to=1 p1=31 p2=1", "1", "ERR");    /* no 31 */
    expect_moves(K "to=1 p1=0 p2=1", "1", "ERR");     /* no 0 */
    expect_moves(K "to=1 p1=1,3,5,7,9,11,13,15 p2=2", "1", "ERR"); /* 8 */
}

/* Rule 2 and 3: the set-up, and white (player 1) starts. */
static void rule2_3_start(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &e), KEMET_OK);
    kemet_pos p;
    char buf[256];
    kemet_start(r, &p);
    kemet_pos_format(r, &p, buf, sizeof buf);
    assert_string_equal(
        buf, "senet-kendall to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14");
    kemet_rules_close(r);
    expect_moves(K "to=3 p1=1 p2=2", "1", "ERR");
    expect_moves(K "to=1 p1=5 p2=5", "1", "ERR"); /* one piece a square */
}

/* Rule 4, ruling G2: values 1-5 with weights 4,6,4,1,1 in 16; nothing else
 * can be thrown; a seeded sample of rolls fits the distribution. */
static void rule4_throws(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &e), KEMET_OK);
    kemet_pos p;
    kemet_start(r, &p);
    kemet_throw t[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS], total;
    int n = kemet_throws(r, &p, t, w, &total);
    assert_int_equal(n, 5);
    assert_int_equal(total, 16);
    const kemet_weight want[5] = {4, 6, 4, 1, 1};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(t[i].n, 1);
        assert_int_equal(t[i].v[0], i + 1);
        assert_int_equal(w[i], want[i]);
    }
    /* Chi-square test of 160000 seeded rolls, 4 degrees of freedom: the
     * 0.1% critical value is 18.47. */
    kemet_rng rng;
    kemet_rng_seed(&rng, 12345);
    long count[6] = {0};
    const long N = 160000;
    for (long i = 0; i < N; i++) {
        kemet_throw x;
        kemet_roll(r, &p, &rng, &x);
        assert_true(x.v[0] >= 1 && x.v[0] <= 5);
        /* the value is the number of marked faces, 5 when none */
        int marked = __builtin_popcount(x.faces);
        assert_int_equal(x.v[0], marked ? marked : 5);
        count[x.v[0]]++;
    }
    double chi = 0;
    for (int v = 1; v <= 5; v++) {
        double exp = (double)N * (double)want[v - 1] / 16.0;
        double d = (double)count[v] - exp;
        chi += d * d / exp;
    }
    assert_true(chi < 18.47);
    kemet_rules_close(r);
    expect_moves(K "to=1 p1=5 p2=20", "6", "ERR");
    expect_moves(K "to=1 p1=5 p2=20", "0", "ERR");
}

/* Rule 5, ruling K6: forward by the throw; never onto one's own piece, nor
 * a protected opponent; a lone opponent is hit (rule 13: swap). */
static void rule5_forward_and_landing(void **state) {
    (void)state;
    expect_moves(K "to=1 p1=5 p2=20", "3", "5-8");
    expect_moves(K "to=1 p1=5,8 p2=20", "3", "8-11"); /* own on 8 */
    expect_moves(K "to=1 p1=5 p2=8,9", "3", "5-2");   /* 8 protected */
    expect_moves(K "to=1 p1=5 p2=8,10", "3", "5-8");  /* 8 lone */
    expect_apply(K "to=1 p1=5 p2=8,10", "3", "5-8", K "to=2 p1=8 p2=5,10");
    expect_apply(K "to=1 p1=5 p2=8,9", "3", "5-8", "ERR");
}

/* Rule 6, rulings K1, K2: adjacency is along the track only; 10/11 and
 * 20/21 are adjacent, squares above each other in the rows are not. */
static void rule6_adjacency(void **state) {
    (void)state;
    expect_moves(K "to=1 p1=7 p2=10,11", "3", "7-4");    /* 10 protected */
    expect_moves(K "to=1 p1=17 p2=20,21", "3", "17-14"); /* 20 protected */
    expect_moves(K "to=1 p1=7 p2=10,12", "3", "7-10");   /* not adjacent */
    /* 9 and 12 sit above each other on the board but are not adjacent */
    expect_moves(K "to=1 p1=6 p2=9,12", "3", "6-9");
}

/* Rule 7, ruling K7: backward only when no piece can move forward; never
 * below 1; landing rules as forward; else the throw is lost. */
static void rule7_backward(void **state) {
    (void)state;
    expect_moves(K "to=1 p1=5,20 p2=8,9", "3", "20-23"); /* forward exists */
    expect_moves(K "to=1 p1=5 p2=8,9", "3", "5-2");      /* forced back */
    expect_apply(K "to=1 p1=5,20 p2=8,9", "3", "5-2", "ERR");
    expect_moves(K "to=1 p1=2 p2=5,6", "3", "pass");       /* not below 1 */
    expect_moves(K "to=1 p1=7 p2=10,11,3,4", "3", "pass"); /* 4 protected */
    expect_apply(K "to=1 p1=7 p2=10,11,4", "3", "7-4",
                 K "to=2 p1=4 p2=7,10,11"); /* backward swap */
}

/* Rule 8, rulings K3, K4: no piece passes 26; from 26 a 1-4 goes to 27-30
 * and a 5 bears off. */
static void rule8_square26(void **state) {
    (void)state;
    expect_moves(K "to=1 p1=24 p2=1", "2", "24-26");
    expect_moves(K "to=1 p1=24 p2=1", "3", "24-21"); /* 27 would pass 26 */
    expect_apply(K "to=1 p1=24 p2=1", "3", "24-27", "ERR");
    expect_moves(K "to=1 p1=26 p2=1", "1", "26-27");
    expect_moves(K "to=1 p1=26 p2=1", "2", "26-28");
    expect_moves(K "to=1 p1=26 p2=1", "3", "26-29");
    expect_moves(K "to=1 p1=26 p2=1", "4", "26-30");
    expect_moves(K "to=1 p1=26 p2=1", "5", "26-off");
}

/* Rule 9, ruling K8: landing in the water ends the turn, even on a 1. */
static void rule9_water_ends_turn(void **state) {
    (void)state;
    expect_apply(K "to=1 p1=5,26 p2=1", "1", "26-27", K "to=2 p1=5,27 p2=1");
    expect_apply(K "to=1 p1=5,26 p2=1", "1", "5-6", K "to=1 p1=6,26 p2=1");
}

/* Rule 10, ruling K5 (and K7): III needs 3, II needs 2, I anything;
 * backward from 28-30 goes into the water. */
static void rule10_last_squares(void **state) {
    (void)state;
    expect_moves(K "to=1 p1=28 p2=1", "3", "28-off");
    expect_moves(K "to=1 p1=28 p2=1", "2", "28-27");
    expect_moves(K "to=1 p1=29 p2=1", "2", "29-off");
    expect_moves(K "to=1 p1=29 p2=1", "3", "29-27");
    for (int t = 1; t <= 5; t++) {
        char thr[12];
        snprintf(thr, sizeof thr, "%d", t);
        expect_moves(K "to=1 p1=30 p2=1", thr, "30-off");
    }
    expect_apply(K "to=1 p1=29 p2=1", "3", "29-27", K "to=2 p1=27 p2=1");
    expect_moves(K "to=1 p1=29 p2=27,28", "3", "pass"); /* 27 protected */
    expect_apply(K "to=1 p1=29 p2=27", "3", "29-27", K "to=2 p1=27 p2=29");
}

/* Rule 11, ruling K8: with a piece in the water, move it to 15 instead of
 * throwing (only if 15 is empty), or throw: 4 bears it off, else lost; no
 * other piece moves. */
static void rule11_in_the_water(void **state) {
    (void)state;
    expect_moves(K "to=1 p1=5,27 p2=1", "none", "27-15 throw");
    expect_moves(K "to=1 p1=5,27,15 p2=1", "none", "throw");
    expect_moves(K "to=1 p1=5,27 p2=1,15", "none", "throw");
    expect_apply(K "to=1 p1=5,27 p2=1", "none", "27-15", K "to=2 p1=5,15 p2=1");
    expect_apply(K "to=1 p1=5,27 p2=1,15", "none", "27-15", "ERR");
    expect_moves(K "to=1 p1=5,27 p2=1", "4", "27-off");
    expect_moves(K "to=1 p1=5,27 p2=1", "1", "pass"); /* 5-6 not allowed */
    expect_moves(K "to=1 p1=5,27 p2=1", "5", "pass");
    expect_apply(K "to=1 p1=5,27 p2=1", "1", "5-6", "ERR");
    expect_apply(K "to=1 p1=5,27 p2=1", "4", "27-off", K "to=1 p1=5 p2=1");
    /* the opponent's piece in the water does not concern the mover */
    expect_moves(K "to=2 p1=5,27 p2=1", "none", "throw");
}

/* Rule 12, ruling K9: 1, 4 and 5 give another throw unless a piece is then
 * in the water; 2 and 3 do not; a lost throw passes the turn. */
static void rule12_bonus(void **state) {
    (void)state;
    expect_apply(K "to=1 p1=5 p2=20", "1", "5-6", K "to=1 p1=6 p2=20");
    expect_apply(K "to=1 p1=5 p2=20", "4", "5-9", K "to=1 p1=9 p2=20");
    expect_apply(K "to=1 p1=5 p2=20", "5", "5-10", K "to=1 p1=10 p2=20");
    expect_apply(K "to=1 p1=5 p2=20", "2", "5-7", K "to=2 p1=7 p2=20");
    expect_apply(K "to=1 p1=5 p2=20", "3", "5-8", K "to=2 p1=8 p2=20");
    expect_moves(K "to=1 p1=1 p2=2,3", "1", "pass");
    expect_apply(K "to=1 p1=1 p2=2,3", "1", "pass", K "to=2 p1=1 p2=2,3");
    /* backward into the water with a 1... is not possible; with a 4 from 30
     * forward bears off instead. A 1 that ends in the water: no bonus. */
    expect_apply(K "to=1 p1=26,10 p2=1", "1", "26-27", K "to=2 p1=10,27 p2=1");
}

/* Rule 13, ruling K6: a swap puts the opponent on the square the mover
 * left; also on square 27. */
static void rule13_swap(void **state) {
    (void)state;
    expect_apply(K "to=1 p1=10 p2=13", "3", "10-13", K "to=2 p1=13 p2=10");
    expect_apply(K "to=1 p1=5,26 p2=27", "1", "26-27", K "to=2 p1=5,27 p2=26");
    expect_moves(K "to=1 p1=5,26 p2=27,28", "1", "5-6"); /* 27 protected */
}

/* Rule 14: bearing off the last piece wins; `to` follows the turn rules. */
static void rule14_win(void **state) {
    (void)state;
    expect_apply(K "to=1 p1=30 p2=1", "2", "30-off",
                 K "to=2 p1=- p2=1 winner=1");
    expect_apply(K "to=1 p1=30 p2=1", "1", "30-off",
                 K "to=1 p1=- p2=1 winner=1");
    expect_apply(K "to=2 p1=5 p2=30", "3", "30-off",
                 K "to=1 p1=5 p2=- winner=2");
    /* a finished game has no moves */
    expect_moves(K "to=2 p1=- p2=1 winner=1", "2", "ERR");
    expect_moves(K "to=1 p1=5,30 p2=1", "2", "30-off 5-7"); /* not yet */
}

/* Ruling K10: bearing off needs no other condition; ruling G3: pass only
 * when no move exists. */
static void k10_g3(void **state) {
    (void)state;
    expect_moves(K "to=1 p1=1,30 p2=5", "2", "1-3 30-off");
    expect_apply(K "to=1 p1=1,30 p2=5", "2", "pass", "ERR");
}

/* Robinson: landing on 26 by its own move gives an immediate rethrow with
 * that piece (replacing the bonus); forward if it can, else backward, else
 * lost; a piece put on 26 by a swap gets none. */
static void robinson_rethrow(void **state) {
    (void)state;
    expect_apply(R "to=1 p1=1,24 p2=10", "2", "24-26",
                 R "to=1 p1=1,26 p2=10 must=26");
    expect_apply(R "to=1 p1=1,25 p2=10", "1", "25-26",
                 R "to=1 p1=1,26 p2=10 must=26");
    expect_apply(K "to=1 p1=1,24 p2=10", "2", "24-26", K "to=2 p1=1,26 p2=10");
    expect_moves(R "to=1 p1=1,26 p2=10 must=26", "2", "26-28");
    expect_moves(R "to=1 p1=1,26 p2=10", "2", "1-3 26-28");
    expect_moves(R "to=1 p1=1,26 p2=28,29 must=26", "2", "26-24");
    expect_moves(R "to=1 p1=1,26 p2=23,24,28,29 must=26", "2", "pass");
    expect_apply(R "to=1 p1=1,26 p2=23,24,28,29 must=26", "2", "pass",
                 R "to=2 p1=1,26 p2=23,24,28,29");
    expect_apply(R "to=1 p1=1,26 p2=10 must=26", "2", "1-3", "ERR");
    expect_apply(R "to=1 p1=1,26 p2=10 must=26", "1", "26-27",
                 R "to=2 p1=1,27 p2=10");
    expect_apply(R "to=1 p1=1,26 p2=10 must=26", "4", "26-30",
                 R "to=1 p1=1,30 p2=10");
    expect_apply(R "to=1 p1=1,26 p2=28", "2", "26-28", R "to=2 p1=1,28 p2=26");
    expect_moves(R "to=1 p1=1,26 p2=10 must=26", "none", "throw");
    /* must= belongs to Robinson's variant only, on the mover's piece */
    expect_moves(K "to=1 p1=1,26 p2=10 must=26", "2", "ERR");
    expect_moves(R "to=1 p1=1,26 p2=10 must=10", "2", "ERR");
    expect_moves(R "to=1 p1=1,26 p2=10 must=26 winner=1", "2", "ERR");
}

/* Why a move before throwing is refused: with no piece in the water the
 * answer is to throw (it once spoke of a piece in the water that was not
 * there), with one it names the one move there is. */
static void prethrow_explanations(void **state) {
    (void)state;
    static const struct {
        const char *pos, *move, *words;
    } cases[] = {
        {"senet-kendall to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14", "13-14",
         "throw the sticks first"},
        {"senet-kendall to=1 p1=5,27 p2=1", "5-6",
         "the only move is taking your piece from the water (27) to 15"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kemet_pos p;
        kemet_rules *r = tu_pos(cases[i].pos, &p);
        kemet_move m;
        kemet_error e;
        assert_int_equal(kemet_move_parse(r, cases[i].move, &m, &e), KEMET_OK);
        char why[200];
        assert_int_equal(kemet_explain(r, &p, NULL, &m, why, sizeof why), 1);
        if (!strstr(why, cases[i].words))
            fail_msg("'%s' does not say '%s'", why, cases[i].words);
        if (i == 0)
            assert_null(strstr(why, "taking"));
        kemet_rules_close(r);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rule1_board_and_pieces),
        cmocka_unit_test(rule2_3_start),
        cmocka_unit_test(rule4_throws),
        cmocka_unit_test(rule5_forward_and_landing),
        cmocka_unit_test(rule6_adjacency),
        cmocka_unit_test(rule7_backward),
        cmocka_unit_test(rule8_square26),
        cmocka_unit_test(rule9_water_ends_turn),
        cmocka_unit_test(rule10_last_squares),
        cmocka_unit_test(rule11_in_the_water),
        cmocka_unit_test(rule12_bonus),
        cmocka_unit_test(rule13_swap),
        cmocka_unit_test(rule14_win),
        cmocka_unit_test(k10_g3),
        cmocka_unit_test(robinson_rethrow),
        cmocka_unit_test(prethrow_explanations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
