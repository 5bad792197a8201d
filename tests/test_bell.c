/* test_bell.c - R. C. Bell's Senet (senet-bell, reconstructions §1): the
 * worked examples of the spec, exactly, and one test group per rule and
 * ruling (rules 1-8, BL1-BL8) with cases the rule allows and cases it
 * forbids, every answer worked out by hand from the rules. The perft
 * counts of tests/golden/perft.txt agree with a second program written
 * from the rules alone (tests/bell_ref.py). */
#include "testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define B "senet-bell "
#define moves tu_expect_moves
#define apply tu_expect_apply
#define OK TU_RUN_OK
#define BAD TU_RUN_BAD

/* The Notation block of §1, command by command. */
static void spec_examples(void **state) {
    (void)state;
    OK(B "to=1 p1=1,3,5,7,9,11,13,15,17,19 p2=2,4,6,8,10,12,14,16,18,20\n",
       "start", "senet-bell");
    OK("17-21\n19-23\n", "moves",
       B "to=1 p1=1,3,5,7,9,11,13,15,17,19 p2=2,4,6,8,10,12,14,16,18,20", "4");
    OK("26-30\n", "moves", B "to=1 p1=12,26 o1=3 p2=14,22,28 o2=2", "4");
    OK("12-14\n", "moves", B "to=1 p1=12,26 o1=3 p2=14,22,28 o2=2", "2");
    OK(B "to=2 p1=14,26 o1=3 p2=22,28 o2=2\n", "apply",
       B "to=1 p1=12,26 o1=3 p2=14,22,28 o2=2", "2", "12-14");
    OK(B "to=1 p1=- o1=6 p2=- o2=6 winner=0\n", "apply",
       B "to=2 p1=- o1=6 p2=30 o2=5", "1", "30-off");
}

/* Rule 1: one piece forward by exactly the throw, jumping any pieces. */
static void rule1_moves(void **state) {
    (void)state;
    /* jumping own and opponent pieces: 3 from 5 over 6 and 7 to 8 */
    moves(B "to=1 p1=5,6 p2=7 o2=9", "3", "5-8 6-9");
    /* each piece has one move; ascending by square */
    moves(B "to=1 p1=1,2,3 p2=20", "1", "3-4");
    /* a throw outside the die (R4): an error */
    moves(B "to=1 p1=5 p2=9", "5", "ERR");
    moves(B "to=1 p1=5 p2=9", "0", "ERR");
    /* one piece per throw */
    apply(B "to=1 p1=5,6 p2=20", "1", "6-7", B "to=2 p1=5,7 p2=20");
    apply(B "to=1 p1=5,6 p2=20", "2", "5-7,6-8", "ERR");
}

/* Rules 2-4, BL4, BL5: landing on an opponent on an unmarked square
 * captures it (out for good, scoring for nobody); never on one's own
 * piece; never on a marked square that holds any piece; pairs do not
 * protect. */
static void rules2_4_landing(void **state) {
    (void)state;
    /* a capture: the hit piece leaves the game; o2 unchanged */
    apply(B "to=1 p1=10 p2=12 o2=1", "2", "10-12", B "to=2 p1=12 p2=- o2=1");
    /* a pair protects nothing (BL5): 13 and 14 side by side, 13 taken */
    apply(B "to=1 p1=10 p2=13,14", "3", "10-13", B "to=2 p1=13 p2=14");
    /* never on one's own piece */
    moves(B "to=1 p1=10,12 p2=20", "2", "12-14");
    /* a marked square holding an opponent piece: no move there (rule 4) */
    moves(B "to=1 p1=24,25 p2=27", "3", "25-28");
    moves(B "to=1 p1=24 p2=27", "3", "pass");
    /* nor one holding one's own piece: 24-27 is not a move, 27 steps on */
    moves(B "to=1 p1=24,27 p2=3", "3", "27-30");
    /* an empty marked square takes a piece */
    moves(B "to=1 p1=24 p2=3", "2", "24-26");
    /* square 30 is not marked (BL1): a piece there can be taken */
    apply(B "to=1 p1=28 p2=30", "2", "28-30", B "to=2 p1=30 p2=-");
    /* ... and the game goes on while a piece of the mover's is left: the
       opponent, with none, loses every throw (BL8) */
    moves(B "to=2 p1=30 p2=-", "3", "pass");
    apply(B "to=2 p1=30 p2=-", "3", "pass", B "to=1 p1=30 p2=-");
}

/* Rule 5, BL6: while a piece on a marked square can move with the throw,
 * one of those must move; one that cannot move does not bind; a move
 * from one marked square to another counts; bearing off from one too. */
static void rule5_vacate(void **state) {
    (void)state;
    /* 26 can move 2 to 28: only that */
    moves(B "to=1 p1=12,26 p2=3", "2", "26-28");
    /* 26 blocked (28 marked and taken): 12 may move (the spec's case) */
    moves(B "to=1 p1=12,26 p2=14,22,28", "2", "12-14");
    /* 27 and 29 on marked squares, a throw of 2: 27-29 is own, 29 bears
       off; only 29-off */
    moves(B "to=1 p1=5,27,29 p2=3", "2", "29-off");
    /* marked to marked counts as vacating: 26-27 with a 1, and 27-28 */
    moves(B "to=1 p1=5,26,27 p2=3", "1", "27-28");
    moves(B "to=1 p1=5,26 p2=3", "1", "26-27");
    /* no marked piece can move with this throw: any other may */
    moves(B "to=1 p1=5,29 p2=3", "3", "5-8");
    /* the choice among marked pieces is the player's */
    moves(B "to=1 p1=5,26,28 p2=3", "3", "26-29 28-off");
    apply(B "to=1 p1=5,26 p2=3", "1", "5-6", "ERR");
}

/* Rule 6, BL7: off only with the exact count past 30, from any square
 * (27 with 4 ... 30 with 1); each piece borne off scores a point. */
static void rule6_bearing_off(void **state) {
    (void)state;
    moves(B "to=1 p1=27 p2=3", "4", "27-off");
    moves(B "to=1 p1=28 p2=3", "3", "28-off");
    moves(B "to=1 p1=29 p2=3", "2", "29-off");
    moves(B "to=1 p1=30 p2=3", "1", "30-off");
    /* past the exact count: no move */
    moves(B "to=1 p1=30 p2=3", "2", "pass");
    moves(B "to=1 p1=29 p2=3", "4", "pass");
    /* from 26 no throw of the die bears off: it steps on */
    moves(B "to=1 p1=26 p2=3", "4", "26-30");
    apply(B "to=1 p1=27 o1=2 p2=3 o2=4", "4", "27-off",
          B "to=2 p1=- o1=3 p2=3 o2=4");
}

/* Rule 7: no backward moves, no extra throws, no blocking: the turn
 * always passes. */
static void rule7_no_extras(void **state) {
    (void)state;
    apply(B "to=1 p1=10 p2=20", "4", "10-14", B "to=2 p1=14 p2=20");
    apply(B "to=1 p1=10 p2=20", "1", "10-9", "ERR");
    /* three opponent pieces in a row block nothing: 10 jumps to 14 */
    moves(B "to=1 p1=10 p2=11,12,13", "4", "10-14");
    moves(B "to=1 p1=10 p2=11,12,13", "2", "10-12");
}

/* Rule 8, BL8: the game ends when no piece is on the board; more borne
 * off wins, equal numbers draw (winner=0); `to` as after any move. */
static void rule8_end(void **state) {
    (void)state;
    apply(B "to=1 p1=30 o1=5 p2=- o2=4", "1", "30-off",
          B "to=2 p1=- o1=6 p2=- o2=4 winner=1");
    apply(B "to=2 p1=- o1=3 p2=29 o2=4", "2", "29-off",
          B "to=1 p1=- o1=3 p2=- o2=5 winner=2");
    /* a player with no piece left passes until the other's last is off */
    apply(B "to=1 p1=- o1=2 p2=30 o2=2", "1", "pass",
          B "to=2 p1=- o1=2 p2=30 o2=2");
    /* taking the other's last piece does not end it while the mover has
       one on the board */
    apply(B "to=2 p1=30 o1=3 p2=29 o2=1", "1", "29-30",
          B "to=1 p1=- o1=3 p2=30 o2=1");
}

/* The positions (R3, the notation of §1): o1/o2 written when not 0;
 * p + o at most 10; a finished game needs winner= with the score's
 * result; an empty board needs winner=. */
static void positions(void **state) {
    (void)state;
    OK(B "to=2 p1=5 o1=3 p2=9\n", "apply", B "to=1 p1=4 o1=3 p2=9 o2=0", "1",
       "4-5");
    BAD("pieces on the board and 4 borne off", "moves",
        B "to=1 p1=1,2,3,4,5,6,7 o1=4 p2=9", "1");
    BAD("o1=11: more pieces", "moves", B "to=1 p1=- o1=11 p2=9", "1");
    BAD("the game is over", "moves", B "to=1 p1=- o1=3 p2=- o2=2", "1");
    BAD("winner= but pieces", "moves", B "to=1 p1=4 p2=- winner=1", "1");
    BAD("the scores are o1=2 and o2=3", "apply",
        B "to=1 p1=- o1=2 p2=- o2=3 winner=1", "1", "pass");
    BAD("must= is not used", "moves", B "to=1 p1=26 p2=3 must=26", "1");
    BAD("wait= is not used", "moves", B "to=1 p1=26 p2=3 wait=1", "1");
    BAD("two pieces on square 5", "moves", B "to=1 p1=5 p2=5", "1");
    /* the score is Bell's alone */
    BAD("o1= is not used by senet-kendall", "moves",
        "senet-kendall to=1 p1=5 o1=2 p2=9", "1");
    BAD("o2= is not used by hounds-jackals-carter", "moves",
        "hounds-jackals-carter to=1 p1=- h1=5 p2=- h2=4 o2=1", "1");
    /* no options (R2) */
    BAD("", "start", "senet-bell:pieces=5");
    BAD("", "start", "senet-bell:");
}

/* BL3: who starts is settled by one throw of the die each, equal throws
 * again, the higher starting; those throws are not played. Seen through
 * the game driver's events, over many seeds: both players start, always
 * the higher thrower, and ties are thrown again. */
static void bl3_opening(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-bell", &r, &err), KEMET_OK);
    int starts[3] = {0}, reopened = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        kemet_events ev = {0};
        kemet_game *g;
        assert_int_equal(kemet_game_new(r, seed, &g, &ev), KEMET_OK);
        int to = kemet_game_pos(g)->to, seen = 0;
        for (int i = 0; i < ev.n; i++) {
            const kemet_event *e = &ev.ev[i];
            if (e->kind == KEMET_EV_REOPEN) {
                assert_int_equal(e->a, e->b);
                reopened++;
            } else if (e->kind == KEMET_EV_STARTS) {
                assert_int_equal(e->who, to);
                assert_true(to == 1 ? e->a > e->b : e->b > e->a);
                assert_true(e->a >= 1 && e->a <= 4 && e->b >= 1 && e->b <= 4);
                seen++;
            }
        }
        assert_int_equal(seen, 1);
        /* the start position, whoever starts, and no throw pending */
        kemet_pos want;
        kemet_rules *r2 = tu_pos(B "to=1 p1=1,3,5,7,9,11,13,15,17,19 "
                                   "p2=2,4,6,8,10,12,14,16,18,20",
                                 &want);
        want.to = (uint8_t)to;
        assert_memory_equal(kemet_game_pos(g), &want, sizeof want);
        assert_null(kemet_game_throw(g));
        kemet_rules_close(r2);
        starts[to]++;
        kemet_game_free(g);
    }
    assert_true(starts[1] > 60 && starts[2] > 60); /* 100 each expected */
    assert_true(reopened > 20);                    /* 1 in 4 expected */
    kemet_rules_close(r);
}

/* Whole games end (BL8: with probability 1) with the score's result, and
 * the board is Bell's: four marked squares, 26-29, and no others (BL1). */
static void games_and_board(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "sim", "senet-bell", "--games", "300",
                            "--seed", "3", NULL),
                     0);
    assert_non_null(strstr(o, "300 games"));
    free(o);
    free(e);
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-bell", &r, &err), KEMET_OK);
    kemet_board_art *a = calloc(1, sizeof *a);
    assert_non_null(a);
    assert_int_equal(kemet_art(r, a), 30);
    int marked = 0;
    for (int i = 0; i < a->nholes; i++) {
        int sq = atoi(a->hole[i].label);
        bool want = sq >= 26 && sq <= 29;
        assert_int_equal(a->hole[i].mark[0] != '\0', want);
        marked += want;
    }
    assert_int_equal(marked, 4);
    free(a);
    kemet_rules_close(r);
    /* kemet play: hit pieces apart from those borne off, and the score
       with the result */
    assert_int_equal(tu_run(NULL, &o, &e, "play", "senet-bell", "--p1",
                            "greedy", "--p2", "greedy", "--seed", "5", NULL),
                     0);
    assert_non_null(strstr(o, " hit"));
    assert_non_null(strstr(o, "wins after 92 moves, 6 pieces borne off to 1."));
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "rules", "senet-bell", NULL), 0);
    assert_non_null(strstr(o, "26-29, the marked squares"));
    free(o);
    free(e);
}

/* What a move did, in the words a player reads (kemet_describe): a hit
 * piece leaves the game; equal scores draw. */
static void said(const char *pos_text, const char *thr_text,
                 const char *move_text, const char *want) {
    kemet_pos pos, out;
    kemet_rules *r = tu_pos(pos_text, &pos);
    kemet_throw thr;
    kemet_move m;
    kemet_error err;
    kemet_events ev = {0};
    assert_int_equal(kemet_throw_parse(r, thr_text, &thr, &err), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, move_text, &m, &err), KEMET_OK);
    assert_int_equal(kemet_apply(r, &pos, &thr, &m, &out, &ev), KEMET_OK);
    char buf[KEMET_DESCRIBE_MAX];
    assert_true(kemet_describe(r, &ev, buf, sizeof buf) > 0);
    if (!strstr(buf, want))
        fail_msg("'%s' does not say '%s'", buf, want);
    kemet_rules_close(r);
}

static void events_in_words(void **state) {
    (void)state;
    said(B "to=1 p1=12,26 o1=3 p2=14,22,28 o2=2", "2", "12-14",
         "Black's piece on 14 is hit: it leaves the game for good.");
    said(B "to=2 p1=- o1=6 p2=30 o2=5", "1", "30-off",
         "both bore off as many: the game is drawn.");
    said(B "to=1 p1=30 o1=5 p2=- o2=4", "1", "30-off", "White wins");
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-bell", &r, &err), KEMET_OK);
    assert_int_equal(kemet_rules_info(r)->scores, 1);
    kemet_rules_close(r);
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &err), KEMET_OK);
    assert_int_equal(kemet_rules_info(r)->scores, 0);
    kemet_rules_close(r);
}

/* Why a move is refused, in words (rules 2, 4-7). */
static void explanations(void **state) {
    (void)state;
    BAD("from 28 it needs a 3 (rule 6)", "apply", B "to=1 p1=28 p2=3", "2",
        "28-off");
    BAD("cannot be captured (rule 4)", "apply", B "to=1 p1=24 p2=27", "3",
        "24-27");
    BAD("one of those must move (rule 5)", "apply", B "to=1 p1=5,26 p2=3", "1",
        "5-6");
    BAD("only forward (rule 7)", "apply", B "to=1 p1=10 p2=3", "1", "10-9");
    BAD("holds your own piece", "apply", B "to=1 p1=10,12 p2=3", "2", "10-12");
    BAD("no piece can move", "apply", B "to=1 p1=10 p2=3", "2", "pass");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_examples),     cmocka_unit_test(rule1_moves),
        cmocka_unit_test(rules2_4_landing),  cmocka_unit_test(rule5_vacate),
        cmocka_unit_test(rule6_bearing_off), cmocka_unit_test(rule7_no_extras),
        cmocka_unit_test(rule8_end),         cmocka_unit_test(positions),
        cmocka_unit_test(bl3_opening),       cmocka_unit_test(games_and_board),
        cmocka_unit_test(events_in_words),   cmocka_unit_test(explanations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
