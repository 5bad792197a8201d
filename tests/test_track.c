/* test_track.c - the rulesets on board files: Washburne's Hounds & Jackals
 * (seed 001, rules 1-17) and Lions & Jackals (seed 003), one group per
 * rule with cases it allows and cases it forbids, worked out by hand from
 * the texts and the built-in boards (data/boards, docs/boards.md):
 *
 *   Washburne: player 1's path squares 1-29 are its own holes, 30 the
 *   common hole, 31-59 player 2's holes 29..1, so player 1's square q and
 *   player 2's square 60-q are one hole. Home boxes: squares 1-5 of each.
 *   Ankh holes: each side's 15 and 25. Lines 6-20, 8-10 on both sides
 *   (player 1's squares 40-54, 50-52 on the far side). Player 1's safe
 *   squares (its own and the opponent's box, the Ankhs): 1-5, 15, 25, 35,
 *   45, 55-59, none of them a line's end.
 *   Lions & Jackals: one track of 30 spaces run both ways, player 1's q is
 *   player 2's 31-q. Home Rows 1-5, Suns 7 15 16 24, rivers 13->9 and
 *   22->18 (the same numbers for both players), Duat re-entry onto 1-6.
 *
 *   Lines and rivers (rulings T1, T2): a count ending on a line's or
 *   river's end lands there, then follows it to the other end, where it
 *   lands too; both must be landings the rules allow, and an opponent on
 *   either, not safe there, is knocked off (sent to the Duat). Such a step
 *   is written FROM-END-TO (docs/notation.md).
 *
 * Also: the board file parser's errors, a user-edited board changing the
 * game, throw distributions, and self-play invariants. */
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W "hounds-jackals-washburne "
#define WD "hounds-jackals-washburne-dice "
#define L "lions-jackals "
#define L1 "lions-jackals:solid=1,dual=0 "
#define L2 "lions-jackals:solid=2,dual=0 "
#define L3 "lions-jackals:dual=0 " /* 3 solid sticks */
#define LQ1 "lions-jackals-quick:solid=1,dual=0 "
#define moves tu_expect_moves
#define apply tu_expect_apply

/* Washburne rules 1, 2, 8: five pieces each, on the home boxes. */
static void washburne_setup(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(
        tu_run(NULL, &o, &e, "start", "hounds-jackals-washburne", NULL), 0);
    assert_string_equal(o, W "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5\n");
    free(o);
    free(e);
    moves(W "to=1 p1=1,2,3,4 p2=1,2,3,4,5", "1", "ERR");    /* 4 pieces */
    moves(W "to=1 p1=1,2,3,4,59 p2=1,2,3,4,5", "1", "ERR"); /* one hole */
    moves(W "to=1 p1=1,2,3,4,60 p2=1,2,3,4,5", "1", "ERR"); /* no 60 */
    moves(W "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5", "6", "ERR");  /* sticks: 1-5 */
}

/* Rules 7, 10, 11: forward by the throw, never onto an own piece; lines
 * 6-20 and 8-10 followed both ways, on both sides of the board. */
static void washburne_move_and_lines(void **state) {
    (void)state;
    /* 3 + 3 lands on 6 and follows the line to 20; 5 + 3 on 8, then 10 */
    moves(W "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5", "3", "3-6-20 4-7 5-8-10");
    moves(W "to=1 p1=1,2,3,4,17 p2=1,2,3,4,5", "3", "17-20-6 2-5 3-6-20 4-7");
    /* the far side: 54 (their 6) leads to 40 (their 20), backwards */
    moves(W "to=1 p1=1,2,3,4,51 p2=10,11,12,13,14", "3",
          "2-5 3-6-20 4-7 51-54-40");
    /* 8 with a 2 lands on 10 and goes back to 8 (G6: 8 is left empty);
     * the short text names the same step, the only one it can be */
    apply(W "to=1 p1=1,2,3,4,8 p2=10,11,12,13,14", "2", "8-10-8",
          W "to=2 p1=1,2,3,4,8 p2=10,11,12,13,14");
    apply(W "to=1 p1=1,2,3,4,8 p2=10,11,12,13,14", "2", "8-8",
          W "to=2 p1=1,2,3,4,8 p2=10,11,12,13,14");
    /* the line's far end holding an own piece: illegal */
    apply(W "to=1 p1=1,2,3,6,17 p2=10,11,12,13,14", "3", "17-20-6", "ERR");
    apply(W "to=1 p1=1,2,3,6,17 p2=10,11,12,13,14", "3", "17-6", "ERR");
    /* T1: so is the end the count reaches (rule 11: the piece lands on
     * 20 first). This was legal when that end was passed through. */
    apply(W "to=1 p1=1,2,3,20,17 p2=10,11,12,13,14", "3", "17-20-6", "ERR");
    apply(W "to=1 p1=1,2,3,20,17 p2=10,11,12,13,14", "3", "17-6", "ERR");
    /* the old example 5-20: with 6 holding the mover's own piece, a 1
     * from 5 lands on its own piece, so there is no 5-6-20 */
    moves(W "to=1 p1=1,2,3,5,6 p2=10,11,12,13,14", "1", "3-4 6-7");
    apply(W "to=1 p1=1,2,3,5,6 p2=10,11,12,13,14", "1", "5-6-20", "ERR");
    apply(W "to=1 p1=1,2,3,5,6 p2=10,11,12,13,14", "1", "5-20", "ERR");
    /* with 6 empty it is the move, in either text */
    apply(W "to=1 p1=1,2,3,4,5 p2=10,11,12,13,14", "1", "5-6-20",
          W "to=2 p1=1,2,3,4,20 p2=10,11,12,13,14");
    apply(W "to=1 p1=1,2,3,4,5 p2=10,11,12,13,14", "1", "5-20",
          W "to=2 p1=1,2,3,4,20 p2=10,11,12,13,14");
    /* the end written must be the one the count reaches */
    apply(W "to=1 p1=1,2,3,4,5 p2=10,11,12,13,14", "1", "5-8-20", "ERR");
    apply(W "to=1 p1=1,2,3,4,5 p2=10,11,12,13,14", "1", "5-6-6", "ERR");
    /* no move past the end of the path (rule 9: the opponent's box) */
    moves(W "to=1 p1=54,55,56,57,59 p2=10,11,12,13,14", "5", "pass");
    moves(W "to=1 p1=54,55,56,57,59 p2=10,11,12,13,14", "1", "57-58");
}

/* Rules 12, 13: landing on an opponent knocks it off, except on the Ankh
 * holes and in either home box. */
static void washburne_knock_and_safe(void **state) {
    (void)state;
    apply(W "to=1 p1=1,2,3,4,12 p2=1,2,3,4,46", "2", "12-14",
          W "to=2 p1=1,2,3,4,14 p2=1,2,3,4 h2=1");
    /* player 2's piece on 45 is on hole 15 of player 1's side: an Ankh */
    moves(W "to=1 p1=1,2,3,4,12 p2=1,2,3,4,45", "3", "2-5 3-6-20 4-7");
    apply(W "to=1 p1=1,2,3,4,12 p2=1,2,3,4,45", "3", "12-15", "ERR");
    /* player 2's home box (player 1's 55-59) is safe too */
    apply(W "to=1 p1=1,2,3,4,53 p2=10,11,12,13,4", "3", "53-56", "ERR");
    apply(W "to=1 p1=1,2,3,4,53 p2=10,11,12,13,14", "3", "53-56",
          W "to=2 p1=1,2,3,4,56 p2=10,11,12,13,14");
    /* and player 2 knocks player 1 the same way, on its own numbering */
    apply(W "to=2 p1=1,2,3,4,14 p2=10,11,12,13,44", "2", "44-46",
          W "to=1 p1=1,2,3,4 h1=1 p2=10,11,12,13,46");
    /* T2: a piece that comes to rest at a line's far end knocks off the
     * opponent there (player 2's 54 is player 1's 6, not safe) */
    apply(W "to=1 p1=1,2,3,4,17 p2=10,11,12,13,54", "3", "17-20-6",
          W "to=2 p1=1,2,3,4,6 p2=10,11,12,13 h2=1");
    /* T1: and so does the end the count reaches (player 2's 40 is
     * player 1's 20): knocked off, and the piece follows the line on */
    apply(W "to=1 p1=1,2,3,4,17 p2=10,11,12,13,40", "3", "17-20-6",
          W "to=2 p1=1,2,3,4,6 p2=10,11,12,13 h2=1");
    /* both ends holding opponents: both are knocked off */
    apply(W "to=1 p1=1,2,3,4,17 p2=10,11,12,40,54", "3", "17-20-6",
          W "to=2 p1=1,2,3,4,6 p2=10,11,12 h2=2");
    /* player 2 the same way: its 17 + 3 lands on its 20 (player 1's 40),
     * then its 6 (player 1's 54) */
    apply(W "to=2 p1=40,54,1,2,3 p2=10,11,12,13,17", "3", "17-20-6",
          W "to=1 p1=1,2,3 h1=2 p2=6,10,11,12,13");
}

/* Rules 14, 15: a knocked-off piece comes back on the hole of its home box
 * the throw names, if empty (else the throw is lost), and no other piece
 * moves while one is off the board. */
static void washburne_reenter(void **state) {
    (void)state;
    moves(W "to=1 p1=2,3,4,10 h1=1 p2=20,21,22,23,24", "1", "in-1");
    moves(W "to=1 p1=2,3,4,10 h1=1 p2=20,21,22,23,24", "5", "in-5");
    moves(W "to=1 p1=2,3,4,10 h1=1 p2=20,21,22,23,24", "2", "pass");
    /* hole 1 of the box holds an opponent's piece (its square 59) */
    moves(W "to=1 p1=2,3,4,10 h1=1 p2=20,21,22,23,59", "1", "pass");
    apply(W "to=1 p1=2,3,4,10 h1=1 p2=20,21,22,23,24", "1", "10-11", "ERR");
    apply(W "to=1 p1=2,3,4,10 h1=1 p2=20,21,22,23,24", "1", "in-1",
          W "to=2 p1=1,2,3,4,10 p2=20,21,22,23,24");
}

/* Rules 15.7, 16: the win by filling the opponent's home box, and by
 * knocking off a piece whose home box is full. */
static void washburne_win(void **state) {
    (void)state;
    apply(W "to=1 p1=53,56,57,58,59 p2=10,11,12,13,14", "2", "53-55",
          W "to=2 p1=55,56,57,58,59 p2=10,11,12,13,14 winner=1");
    /* player 1's box holds 1, 2, 3 and player 2's 55, 56 (its 5 and 4) */
    apply(W "to=2 p1=1,2,3,12,17 p2=1,2,46,55,56", "2", "46-48",
          W "to=1 p1=1,2,3,17 h1=1 p2=1,2,48,55,56 winner=2");
    /* with a hole free in the box (4) the game goes on */
    apply(W "to=2 p1=1,2,3,12,17 p2=1,2,30,46,55", "2", "46-48",
          W "to=1 p1=1,2,3,17 h1=1 p2=1,2,30,48,55");
    /* ... until the box fills while the piece is still off: player 1
     * brings its piece back onto... nothing; player 2 fills hole 4 */
    apply(W "to=2 p1=1,2,3,17 h1=1 p2=1,2,30,48,55", "1", "55-56",
          W "to=1 p1=1,2,3,17 h1=1 p2=1,2,30,48,56");
    apply(W "to=2 p1=1,2,3,17 h1=1 p2=1,2,30,48,55", "5", "1-6", "ERR");
    /* four pieces in the box are not yet a win */
    apply(W "to=1 p1=50,56,57,58,59 p2=15,16,17,18,19", "3", "50-53",
          W "to=2 p1=53,56,57,58,59 p2=15,16,17,18,19");
}

/* Rule 17: two four-sided dice, one die per piece, two different pieces,
 * never split or combined; each die that can be used is used (G3). */
static void washburne_dice(void **state) {
    (void)state;
    const char *p = WD "to=1 p1=11,13,16,17,18 p2=1,2,3,4,5";
    apply(p, "1,2", "11-12+13-15", WD "to=2 p1=12,15,16,17,18 p2=1,2,3,4,5");
    apply(p, "2,1", "13-15+11-12", WD "to=2 p1=12,15,16,17,18 p2=1,2,3,4,5");
    apply(p, "1,2", "11-12+12-14", "ERR"); /* one piece, both dice */
    apply(p, "1,2", "11-14", "ERR");       /* combined */
    apply(p, "1,2", "11-12", "ERR");       /* the 2 can still be used */
    moves(p, "5", "ERR");                  /* not a pair of dice */
    moves(p, "1,5", "ERR");                /* dice show 1-4 */
    /* back from off the board with one die, the other moves another piece */
    moves(WD "to=1 p1=2,3,4,5 h1=1 p2=20,21,22,23,24", "1,3",
          "in-1+3-6-20 in-1+4-7 in-1+5-8-10");
    /* only one die usable: a one-step turn */
    moves(WD "to=1 p1=12,56,57,58,59 p2=10,11,13,14,15", "4,4", "12-16");
    /* two orders reaching one outcome are listed once */
    moves(WD "to=1 p1=55,56,57,58,54 p2=10,11,12,13,14", "1,4", "58-59+54-58");
}

/* Lions & Jackals rules 1, 2: five plinths each on the Home Row; the
 * higher opening stick starts. */
static void lions_setup_and_opening(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "start", "lions-jackals", NULL), 0);
    assert_string_equal(o, L "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5\n");
    free(o);
    free(e);
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("lions-jackals", &r, &err), KEMET_OK);
    int starts[3] = {0}, again = 0;
    for (uint64_t seed = 0; seed < 300; seed++) {
        kemet_game *g;
        kemet_events ev;
        assert_int_equal(kemet_game_new(r, seed, &g, &ev), KEMET_OK);
        const kemet_event *last = &ev.ev[ev.n - 1];
        assert_int_equal(last->kind, KEMET_EV_STARTS);
        int to = kemet_game_pos(g)->to;
        assert_int_equal(last->who, to);
        assert_true(to == 1 ? last->a > last->b : last->b > last->a);
        again += ev.n - 1; /* equal casts, cast again */
        starts[to]++;
        kemet_game_free(g);
    }
    assert_true(starts[1] > 100 && starts[2] > 100 && again > 10);
    kemet_rules_close(r);
}

/* Rule 3: values used separately or added up on one plinth, never split;
 * a dual-coloured stick's value only for its colour. */
static void lions_values(void **state) {
    (void)state;
    const char *s = L "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5";
    apply(s, "2,2,2", "4-6+6-8+8-10", L "to=2 p1=1,2,3,5,10 p2=1,2,3,4,5");
    apply(s, "2,2,2", "5-7+4-6+3-5", L "to=2 p1=1,2,5,6,7 p2=1,2,3,4,5");
    apply(s, "2,2,2", "5-10+4-5", "ERR"); /* a 5 and a 1: split */
    apply(s, "2,2,2", "5-11", "ERR");     /* one step per value */
    moves(s, "2,2,2,2@2", "ERR");         /* player 2's value */
    moves(L "to=2 p1=1,2,3,4,5 p2=1,2,3,4,5", "2,2,2,2@1", "ERR");
    char *a = tu_moves(s, "2,2,2,2@1"), *b = tu_moves(s, "2,2,2,2");
    assert_string_not_equal(a, "ERR");
    assert_string_equal(b, "ERR"); /* four solid values: three sticks */
    free(a);
    free(b);
}

/* Rule 4: every value that can be used must be; a move may leave another
 * value unusable, which is then lost; plinths jump others but land only
 * on an open space or a capturable opponent. */
static void lions_use_all(void **state) {
    (void)state;
    const char *s = L "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5";
    apply(s, "2,2,2", "4-6+6-8", "ERR"); /* a 2 is left that can be used */
    /* after 25-26 the 3 cannot be used: 26-29, 27-30 own, 28+ beyond */
    moves(L "to=1 p1=25,27,28,29,30 p2=10,11,12,14,17", "1,3,3", "25-26");
    /* 3 + 6 lands by count on 9, the river's far end: written 3-9-9 */
    moves(L1 "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5", "6", "1-7 2-8 3-9-9 4-10 5-11");
    moves(L1 "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5", "1", "5-6");
}

/* Rules 4, 5, 7: captures to the Duat; Suns safe; a plinth in its goal
 * (the opponent's Home Row) safe; a plinth in its own Home Row not. */
static void lions_capture_and_safe(void **state) {
    (void)state;
    apply(L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,4,19", "2", "10-12",
          L1 "to=2 p1=1,2,3,4,12 p2=1,2,3,4 h2=1");
    /* player 2 on its 16 is on space 15, a Sun */
    apply(L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,4,16", "5", "10-15", "ERR");
    /* player 2 on its 28 is in its goal, space 3 */
    apply(L1 "to=1 p1=1,2,6,7,8 p2=28,10,11,12,13", "2", "1-3", "ERR");
    /* player 2 on its 2 is in its own Home Row, space 29 */
    apply(L1 "to=1 p1=1,2,3,4,27 p2=2,10,11,12,13", "2", "27-29",
          L1 "to=2 p1=1,2,3,4,29 p2=10,11,12,13 h2=1");
    /* when nothing else can move, the throw is lost (rule 5) */
    moves(L1 "to=1 p1=26,27,28,29,10 p2=16,17,18,19,20", "5", "pass");
}

/* Rule 6: a value ending on a river carries the plinth back; a value
 * passing over it does not; in a combination it is taken at the end of
 * each value; nothing else moves backwards. */
static void lions_rivers(void **state) {
    (void)state;
    apply(L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,4,5", "3", "10-13-9",
          L1 "to=2 p1=1,2,3,4,9 p2=1,2,3,4,5");
    moves(L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,4,5", "3", "10-13-9 2-5 3-6 4-7");
    apply(L1 "to=1 p1=1,2,3,4,11 p2=1,2,3,4,5", "3", "11-14",
          L1 "to=2 p1=1,2,3,4,14 p2=1,2,3,4,5");
    apply(L1 "to=1 p1=1,2,3,4,19 p2=1,2,3,4,5", "3", "19-22-18",
          L1 "to=2 p1=1,2,3,4,18 p2=1,2,3,4,5");
    /* the same for player 2 on its own numbering */
    apply(L1 "to=2 p1=1,2,3,4,5 p2=1,2,3,4,10", "3", "10-13-9",
          L1 "to=1 p1=1,2,3,4,5 p2=1,2,3,4,9");
    /* 3 then 1: the river at the end of the 3 is taken; 1 then 3 skips it */
    const char *s = L2 "to=1 p1=26,27,28,29,10 p2=1,6,7,8,12";
    apply(s, "1,3", "10-13-9+9-10", L2 "to=2 p1=10,26,27,28,29 p2=1,6,7,8,12");
    apply(s, "1,3", "10-11+11-14", L2 "to=2 p1=14,26,27,28,29 p2=1,6,7,8,12");
    apply(s, "1,3", "10-13", "ERR"); /* the river must be taken */
    apply(s, "1,3", "10-14", "ERR"); /* not in the middle of a value */
    /* an old record's short text still reads, where it names one move */
    apply(s, "1,3", "10-9+9-10", L2 "to=2 p1=10,26,27,28,29 p2=1,6,7,8,12");
}

/* Ruling T1 in Lions & Jackals (rules 4-6): a value ending on a river's
 * end lands there ("landed on directly"), then the river carries the
 * plinth back to its other end, where it lands too. */
static void lions_river_landings(void **state) {
    (void)state;
    /* an own plinth on the end reached (13): no river from there; the
     * old reading passed through 13 and allowed 10-9 */
    moves(L1 "to=1 p1=1,2,3,10,13 p2=1,2,3,4,5", "3", "1-4 13-16 2-5 3-6");
    apply(L1 "to=1 p1=1,2,3,10,13 p2=1,2,3,4,5", "3", "10-13-9", "ERR");
    apply(L1 "to=1 p1=1,2,3,10,13 p2=1,2,3,4,5", "3", "10-9", "ERR");
    /* an own plinth on the far end (9) */
    apply(L1 "to=1 p1=1,2,3,9,10 p2=1,2,3,4,5", "3", "10-13-9", "ERR");
    /* an opponent on 13 (its 18), not safe: to the Duat, and the river
     * carries the plinth on to 9 */
    apply(L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,4,18", "3", "10-13-9",
          L1 "to=2 p1=1,2,3,4,9 p2=1,2,3,4 h2=1");
    /* an opponent on 9 (its 22): to the Duat (T2's reading, rule 4) */
    apply(L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,4,22", "3", "10-13-9",
          L1 "to=2 p1=1,2,3,4,9 p2=1,2,3,4 h2=1");
    /* opponents on both ends: both to the Duat */
    apply(L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,18,22", "3", "10-13-9",
          L1 "to=2 p1=1,2,3,4,9 p2=1,2,3 h2=2");
    /* the other river, 22 to 18: player 2's 9 and 13 */
    apply(L1 "to=1 p1=1,2,3,4,19 p2=1,2,3,9,13", "3", "19-22-18",
          L1 "to=2 p1=1,2,3,4,18 p2=1,2,3 h2=2");
    /* a plinth carried back to the space it left (G6): 9 + 4 lands on
     * 13 and returns to 9 */
    apply(L1 "to=1 p1=1,2,3,4,9 p2=1,2,3,4,18", "4", "9-13-9",
          L1 "to=2 p1=1,2,3,4,9 p2=1,2,3,4 h2=1");
}

/* Both readings of one text (docs/notation.md): 2 solid sticks throw 2
 * and 6, and player 1's plinth on 7 reaches 9 either by the 2 or by the 6
 * onto the river's end 13, where the opponent's last plinth on the board
 * stands (its 18): sent to the Duat, which wins (rule 8). After the 2 the
 * 6 cannot be used (9 + 6 = 15, 15 + 6 = 21, 21 + 6 = 27 hold own
 * plinths, 27 and 30 + 6 are beyond the track), so each is a whole turn,
 * and they end differently. */
static void lions_two_readings(void **state) {
    (void)state;
    const char *s = L2 "to=1 p1=7,15,21,27,30 p2=18 h2=4";
    /* the capture is written with its end; the 2 writes its end out, as
     * its short text would be ambiguous. Then 15-17, 21-23 or 27-29 with
     * the 2 leave the 6 to the plinth on 7, or to the one moved on. */
    moves(s, "2,6",
          "15-17+17-23 15-17+7-13-9 21-23+23-29 21-23+7-13-9 27-29+7-13-9 "
          "7-13-9 7-9-9");
    apply(s, "2,6", "7-13-9", L2 "to=2 p1=9,15,21,27,30 p2=- h2=5 winner=1");
    apply(s, "2,6", "7-9-9", L2 "to=2 p1=9,15,21,27,30 p2=18 h2=4");
    apply(s, "2,6", "7-9", "ERR"); /* ambiguous */
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "apply", s, "2,6", "7-9", NULL), 2);
    assert_non_null(strstr(e, "ambiguous"));
    assert_non_null(strstr(e, "7-13-9"));
    assert_string_equal(o, "");
    free(o);
    free(e);
    /* a turn entered a step at a time: the first steps name their ends
     * where two reach one square, and the short text is refused */
    kemet_pos p;
    kemet_rules *r = tu_pos(s, &p);
    kemet_throw t;
    kemet_move done = {0}, next[KEMET_MAX_MOVES];
    kemet_error err;
    assert_int_equal(kemet_throw_parse(r, "2,6", &t, &err), KEMET_OK);
    int n = kemet_next_steps(r, &p, &t, &done, next, NULL);
    /* 2s from 7, 15, 21, 27; the 6 from 7 */
    assert_int_equal(n, 5);
    char text[200] = "";
    for (int i = 0; i < n; i++) {
        char one[32];
        kemet_move_format(&next[i], one, sizeof one);
        strcat(text, one);
        strcat(text, " ");
    }
    assert_non_null(strstr(text, "7-9-9 "));
    assert_non_null(strstr(text, "7-13-9 "));
    assert_int_equal(kemet_move_parse(r, "7-9", &done, &err), KEMET_OK);
    assert_int_equal(kemet_next_steps(r, &p, &t, &done, next, NULL),
                     KEMET_EILLEGAL);
    assert_int_equal(kemet_move_parse(r, "7-9-9", &done, &err), KEMET_OK);
    assert_int_equal(kemet_next_steps(r, &p, &t, &done, next, NULL), 0);
    kemet_rules_close(r);
    /* with 13 empty the two readings end alike: the short text is read */
    const char *q = L2 "to=1 p1=7,15,21,27,30 p2=20 h2=4";
    apply(q, "2,6", "7-9", L2 "to=2 p1=9,15,21,27,30 p2=20 h2=4");
    /* with a single value, only one reading exists */
    apply(L1 "to=1 p1=7,15,21,27,30 p2=18 h2=4", "6", "7-9",
          L1 "to=2 p1=9,15,21,27,30 p2=- h2=5 winner=1");
    apply(L1 "to=1 p1=7,15,21,27,30 p2=18 h2=4", "2", "7-9",
          L1 "to=2 p1=9,15,21,27,30 p2=18 h2=4");
}

/* Rule 7: from the Duat onto an open space 1-6 by an exact value. */
static void lions_resurrection(void **state) {
    (void)state;
    const char *s = L1 "to=1 p1=1,3,4,5 h1=1 p2=10,11,12,13,14";
    apply(s, "2", "in-2", L1 "to=2 p1=1,2,3,4,5 p2=10,11,12,13,14");
    apply(s, "6", "in-6", L1 "to=2 p1=1,3,4,5,6 p2=10,11,12,13,14");
    apply(s, "1", "in-1", "ERR"); /* occupied */
    /* not onto an opponent either: player 2's 29 is space 2 */
    apply(L1 "to=1 p1=1,3,4,5 h1=1 p2=29,11,12,13,14", "2", "in-2", "ERR");
    /* other plinths may move meanwhile */
    apply(s, "2", "5-7", L1 "to=2 p1=1,3,4,7 h1=1 p2=10,11,12,13,14");
}

/* Ruling T6 (rule 7, "each value of a combination lands on an open
 * space"): in the turn a plinth leaves the Duat, every value it spends
 * ends on an open space; from its owner's next turn it captures. */
static void lions_resurrected_captures_nothing(void **state) {
    (void)state;
    /* 2 and 4: the plinth comes back on 2, and 2 + 4 = 6 holds the
     * opponent's plinth (its 25), not on a safe space */
    const char *s = L2 "to=1 p1=1,3,4,5 h1=1 p2=10,11,12,14,25";
    apply(s, "2,4", "in-2+2-6", "ERR");
    apply(s, "4,2", "in-2+2-6", "ERR");
    /* another plinth may take the 4: 5 + 4 = 9 */
    apply(s, "2,4", "in-2+5-9", L2 "to=2 p1=1,2,3,4,9 p2=10,11,12,14,25");
    /* (any other plinth could capture there: 2 from 4) */
    apply(L2 "to=1 p1=1,3,4,5 h1=1 p2=10,11,12,14,25", "2,2", "4-6+in-2",
          L2 "to=2 p1=1,2,3,5,6 p2=10,11,12,14 h2=1");
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "apply", s, "2,4", "in-2+2-6", NULL),
                     2);
    assert_non_null(strstr(e, "came back from the Duat this turn"));
    free(o);
    free(e);
    /* the next turns: player 2 moves (its 10 + 1 = 11 holds its own, so
     * its 14 + 1), then the same plinth on 2 captures with a 4 */
    apply(L2 "to=2 p1=1,2,3,4,9 p2=10,11,12,14,25", "1,1", "14-15+15-16",
          L2 "to=1 p1=1,2,3,4,9 p2=10,11,12,16,25");
    apply(L2 "to=1 p1=1,2,3,4,9 p2=10,11,12,16,25", "4,4", "2-6+6-10",
          L2 "to=2 p1=1,3,4,9,10 p2=10,11,12,16 h2=1");
    /* a river it lands on is still taken, both ends open: 3 solid
     * sticks 4, 3 and 6: back on 3, on to 7, then 7 + 6 = 13 and back
     * to 9 */
    const char *r = L3 "to=1 p1=1,2,4,5 h1=1 p2=10,11,12,14,20";
    apply(r, "3,4,6", "in-3+3-7+7-13-9",
          L3 "to=2 p1=1,2,4,5,9 p2=10,11,12,14,20");
    /* the opponent on 13 (its 18): refused, where another plinth would
     * send it to the Duat; so on 9 (its 22) */
    apply(L3 "to=1 p1=1,2,4,5 h1=1 p2=10,11,12,14,18", "3,4,6",
          "in-3+3-7+7-13-9", "ERR");
    apply(L3 "to=1 p1=1,2,4,5 h1=1 p2=10,11,12,14,22", "3,4,6",
          "in-3+3-7+7-13-9", "ERR");
}

/* Rule 8 and the modes: all five in the opponent's Home Row (Normal), the
 * first there (Quick), or all the opponent's plinths in the Duat. */
static void lions_win(void **state) {
    (void)state;
    apply(L "to=1 p1=25,27,28,29,30 p2=10,11,12,14,17", "1,3,3", "25-26",
          L "to=2 p1=26,27,28,29,30 p2=10,11,12,14,17 winner=1");
    apply(L1 "to=1 p1=1,2,3,4,24 p2=10,11,12,14,17", "2", "24-26",
          L1 "to=2 p1=1,2,3,4,26 p2=10,11,12,14,17");
    apply(LQ1 "to=1 p1=1,2,3,4,24 p2=10,11,12,14,17", "2", "24-26",
          LQ1 "to=2 p1=1,2,3,4,26 p2=10,11,12,14,17 winner=1");
    apply(L1 "to=1 p1=1,2,3,4,10 p2=19 h2=4", "2", "10-12",
          L1 "to=2 p1=1,2,3,4,12 p2=- h2=5 winner=1");
    /* plinths in the goal move on to make room (rule 8) */
    moves(L1 "to=1 p1=1,2,3,26,27 p2=10,11,12,14,17", "1", "27-28 3-4");
}

/* Explanations name the rule that forbids a move. */
static void explanations(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "apply",
                            W "to=1 p1=1,2,3,4,12 p2=1,2,3,4,45", "3", "12-15",
                            NULL),
                     2);
    assert_non_null(strstr(e, "safe"));
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "apply",
                            L "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5", "2,2,2",
                            "4-6+6-8", NULL),
                     2);
    assert_non_null(strstr(e, "must be made"));
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "apply",
                            W "to=1 p1=2,3,4,10 h1=1 p2=20,21,22,23,24", "1",
                            "10-11", NULL),
                     2);
    assert_non_null(strstr(e, "off the board"));
    free(o);
    free(e);
    /* T1: a line is followed only from a hole the piece may land on */
    assert_int_equal(tu_run(NULL, &o, &e, "apply",
                            W "to=1 p1=1,2,3,5,6 p2=10,11,12,13,14", "1",
                            "5-6-20", NULL),
                     2);
    assert_string_equal(e, "kemet: illegal move 5-6-20: hole 6 holds your "
                           "own piece: a line is followed only from a hole "
                           "you can land on (rules 7, 11-13)\n");
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "apply",
                            L "to=1 p1=1,2,3,10,13 p2=1,2,3,4,5", "3,5,6",
                            "10-13-9+1-6+13-18", NULL),
                     2);
    assert_non_null(strstr(e, "space 13 holds your own plinth: a river is "
                              "followed only from a space you can land on"));
    free(o);
    free(e);
}

/* ---------------------------------------------------------------------------
 * Board files
 * ------------------------------------------------------------------------ */
static char *read_default(const char *name) {
    char path[256];
    snprintf(path, sizeof path, "%s/data/boards/%s.board", KEMET_SOURCE_DIR,
             name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strdup(buf);
}

/* Replaces the first `from` in text by `to` (a new string). */
static char *edit(const char *text, const char *from, const char *to) {
    const char *at = strstr(text, from);
    assert_non_null(at);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

static void board_error(const char *text, const char *family,
                        const char *want) {
    kemet_rules *r;
    kemet_error e = {0};
    assert_int_not_equal(kemet_rules_open_board(family, text, &r, &e),
                         KEMET_OK);
    if (!strstr(e.msg, want))
        fail_msg("expected '%s' in '%s'", want, e.msg);
}

static void board_files(void **state) {
    (void)state;
    char *lj = read_default("lions-jackals");
    char *wb = read_default("washburne");
    kemet_rules *r;
    kemet_error e;
    /* the files in data/boards are the built-in boards */
    assert_int_equal(kemet_rules_open_board("lions-jackals", lj, &r, &e),
                     KEMET_OK);
    kemet_rules_close(r);
    assert_int_equal(
        kemet_rules_open_board("hounds-jackals-washburne", wb, &r, &e),
        KEMET_OK);
    kemet_rules_close(r);
    /* a front end reads the board file back: the built-in one is the file
     * in data/boards, a given one is that text; fixed boards have none */
    assert_int_equal(kemet_rules_open("lions-jackals-quick", &r, &e), KEMET_OK);
    assert_string_equal(kemet_rules_board_file(r), lj);
    kemet_rules_close(r);
    char *moved = edit(lj, "sun 7 15 16 24", "sun 7 15 16 23");
    assert_int_equal(kemet_rules_open_board("lions-jackals", moved, &r, &e),
                     KEMET_OK);
    assert_string_equal(kemet_rules_board_file(r), moved);
    kemet_rules_close(r);
    free(moved);
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &e), KEMET_OK);
    assert_null(kemet_rules_board_file(r));
    kemet_rules_close(r);
    /* errors, each with its line */
    char *x = edit(lj, "kemet-board 1", "kemet-board 2");
    board_error(x, "lions-jackals", "line 1:");
    free(x);
    x = edit(lj, "holes 30", "holes 30\nwormhole 3 4");
    board_error(x, "lions-jackals", "unknown keyword 'wormhole'");
    free(x);
    x = edit(lj, "sun 7 15 16 24", "sun 7 15 16 40");
    board_error(x, "lions-jackals", "'40' is not a hole (1-30)");
    free(x);
    x = edit(lj, "river 18 22", "river 18 13");
    board_error(x, "lions-jackals", "a hole is on two rivers");
    free(x);
    x = edit(lj, "[{30}]", "[{31}]");
    board_error(x, "lions-jackals", "slot {31} names no hole");
    free(x);
    x = edit(lj, "home 2 30 29 28 27 26", "home 2 30 29 28 27");
    board_error(x, "lions-jackals", "5 holes");
    free(x);
    /* the two homes may not share a hole (a start with two pieces on hole
     * 5 was once accepted, and played by sim) */
    x = edit(lj, "home 2 30 29 28 27 26", "home 2 30 29 28 27 5");
    board_error(x, "lions-jackals", "hole 5 is in both players' homes");
    free(x);
    /* CRLF line endings read as LF: the same board, the same start */
    {
        size_t n = strlen(lj);
        char *crlf = malloc(2 * n + 1);
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (lj[i] == '\n')
                crlf[k++] = '\r';
            crlf[k++] = lj[i];
        }
        crlf[k] = '\0';
        kemet_rules *r2;
        assert_int_equal(kemet_rules_open_board("lions-jackals", crlf, &r2, &e),
                         KEMET_OK);
        assert_int_equal(kemet_rules_open("lions-jackals", &r, &e), KEMET_OK);
        assert_string_equal(kemet_board_template(r2), kemet_board_template(r));
        kemet_pos a, b;
        kemet_start(r, &a);
        kemet_start(r2, &b);
        assert_memory_equal(&a, &b, sizeof a);
        kemet_rules_close(r);
        kemet_rules_close(r2);
        free(crlf);
    }
    board_error(wb, "lions-jackals", "needs a 'lions-jackals' board");
    board_error("", "lions-jackals", "is missing");
    /* boards built into the program take no board file */
    assert_int_equal(kemet_rules_open_board("senet-kendall", lj, &r, &e),
                     KEMET_ERULESET);
    /* an edited board changes the game: the river 9-13 moved to 9-14 */
    x = edit(lj, "river 9 13", "river 9 14");
    kemet_pos p;
    assert_int_equal(kemet_pos_parse_board(L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,4,5",
                                           x, &r, &p, &e),
                     KEMET_OK);
    kemet_throw t;
    kemet_move m;
    kemet_pos q;
    assert_int_equal(kemet_throw_parse(r, "4", &t, &e), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, "10-9", &m, &e), KEMET_OK);
    assert_int_equal(kemet_apply(r, &p, &t, &m, &q, NULL), KEMET_OK);
    kemet_rules_close(r);
    free(x);
    tu_expect_apply(L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,4,5", "4", "10-9", "ERR");
    /* the program checks a board file and names the line */
    FILE *f = fopen("bad.board", "wb");
    assert_non_null(f);
    x = edit(lj, "river 18 22", "river 18");
    fputs(x, f);
    fclose(f);
    free(x);
    char *o, *err;
    assert_int_equal(tu_run(NULL, &o, &err, "rules", "lions-jackals", "--board",
                            "bad.board", NULL),
                     2);
    assert_non_null(strstr(err, "bad.board: board file line"));
    assert_string_equal(o, "");
    free(o);
    free(err);
    remove("bad.board");
    free(lj);
    free(wb);
}

/* kemet_apply on a board file's text: "ERR: " and the explanation, or
 * the position after. */
static char *apply_on(const char *board, const char *ptext, const char *thr,
                      const char *mtext) {
    kemet_rules *r;
    kemet_pos p, q;
    kemet_throw t;
    kemet_move m;
    kemet_error e;
    char *out = calloc(1, 512);
    assert_int_equal(kemet_pos_parse_board(ptext, board, &r, &p, &e), 0);
    assert_int_equal(kemet_throw_parse(r, thr, &t, &e), 0);
    assert_int_equal(kemet_move_parse(r, mtext, &m, &e), 0);
    if (kemet_apply(r, &p, &t, &m, &q, NULL) == KEMET_OK) {
        kemet_pos_format(r, &q, out, 512);
    } else {
        strcpy(out, "ERR: ");
        kemet_explain(r, &p, &t, &m, out + 5, 512 - 5);
    }
    kemet_rules_close(r);
    return out;
}

/* Ruling T1: an opponent on a safe end reached by count makes the step
 * illegal. No line or river end is safe on the built-in boards, so a safe
 * hole is added to each by editing its board file. */
static void safe_line_ends(void **state) {
    (void)state;
    /* Washburne: hole 20 made safe; player 2's 40 is that hole */
    char *wb = read_default("washburne");
    char *x = edit(wb, "safe 1 2 3 4 5 ", "safe 20 1 2 3 4 5 ");
    char *got =
        apply_on(x, W "to=1 p1=1,2,3,4,17 p2=10,11,12,13,40", "3", "17-20-6");
    assert_string_equal(got, "ERR: the opponent's piece on hole 20 is safe "
                             "there (an Ankh or home-box hole, rule 13): a "
                             "line is followed only from a hole you can "
                             "land on");
    free(got);
    /* the same with 20 empty: the line is followed */
    got = apply_on(x, W "to=1 p1=1,2,3,4,17 p2=10,11,12,13,14", "3", "17-6");
    assert_string_equal(got, W "to=2 p1=1,2,3,4,6 p2=10,11,12,13,14");
    free(got);
    free(x);
    free(wb);
    /* Lions & Jackals: a Sun on 13, the river's end; player 2's 18 */
    char *lj = read_default("lions-jackals");
    x = edit(lj, "sun 7 15 16 24", "sun 7 13 16 24");
    got = apply_on(x, L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,4,18", "3", "10-13-9");
    assert_non_null(strstr(got, "ERR: the opponent's plinth on space 13 is "
                                "safe there (a Sun"));
    free(got);
    got = apply_on(x, L1 "to=1 p1=1,2,3,4,10 p2=1,2,3,4,5", "3", "10-13-9");
    assert_string_equal(got, L1 "to=2 p1=1,2,3,4,9 p2=1,2,3,4,5");
    free(got);
    free(x);
    free(lj);
}

/* ---------------------------------------------------------------------------
 * Throws and self-play
 * ------------------------------------------------------------------------ */
static void throw_distributions(void **state) {
    (void)state;
    static const struct {
        const char *spec;
        int outcomes;
        kemet_weight total;
    } cases[] = {
        {"hounds-jackals-washburne", 5, 16},
        {"hounds-jackals-washburne-dice", 10, 16},
        /* 3 solid d6: C(8,3) = 56 multisets; dual: 1, 2, 3 or the other
         * colour */
        {"lions-jackals", 56 * 4, 6 * 6 * 6 * 6},
        {"lions-jackals:solid=2,dual=2", 21 * 10, 6 * 6 * 6 * 6},
    };
    static kemet_throw out[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        kemet_rules *r;
        kemet_error e;
        assert_int_equal(kemet_rules_open(cases[c].spec, &r, &e), KEMET_OK);
        for (int to = 1; to <= 2; to++) {
            kemet_pos p;
            kemet_start(r, &p);
            p.to = (uint8_t)to;
            kemet_weight total, sum = 0;
            int n = kemet_throws(r, &p, out, w, &total);
            assert_int_equal(n, cases[c].outcomes);
            assert_int_equal(total, cases[c].total);
            for (int i = 0; i < n; i++) {
                sum += w[i];
                for (int k = 0; k < out[i].n; k++)
                    assert_true(out[i].only[k] == 0 || out[i].only[k] == to);
                for (int j = 0; j < i; j++)
                    assert_false(kemet_throw_equal(&out[i], &out[j]));
            }
            assert_int_equal(sum, total);
            /* rolls are among the outcomes, about as often as weighted:
             * here the share of throws with a usable dual value (1/2) */
            kemet_rng rng;
            kemet_rng_seed(&rng, 3);
            int with_dual = 0, rolls = 4000;
            for (int i = 0; i < rolls; i++) {
                kemet_throw t;
                kemet_roll(r, &p, &rng, &t);
                bool found = false;
                for (int k = 0; k < n && !found; k++)
                    found = kemet_throw_equal(&t, &out[k]);
                assert_true(found);
                for (int k = 0; k < t.n; k++)
                    if (t.only[k]) {
                        with_dual++;
                        break;
                    }
            }
            if (strcmp(cases[c].spec, "lions-jackals") == 0)
                assert_true(with_dual > 1800 && with_dual < 2200);
        }
        kemet_rules_close(r);
    }
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open("lions-jackals:solid=4,dual=2", &r, &e),
                     KEMET_ERULESET);
    assert_non_null(strstr(e.msg, "at most 5 sticks"));
}

/* Random games: pieces conserved exactly (none leaves the game), one per
 * hole, the notation round-trips, move lists without duplicates, every
 * game ends, and the winner has won by a rule of the text. */
static void random_games(const char *spec, int games) {
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open(spec, &r, &e), KEMET_OK);
    kemet_rng pick;
    kemet_rng_seed(&pick, 17);
    static kemet_move list[KEMET_MAX_MOVES];
    int ended = 0;
    bool lions = strncmp(spec, "lions", 5) == 0;
    for (int g = 0; g < games; g++) {
        kemet_game *game;
        assert_int_equal(kemet_game_new(r, (uint64_t)g, &game, NULL), KEMET_OK);
        while (kemet_result(kemet_game_pos(game)) == KEMET_PLAYING &&
               kemet_game_turns(game) < 3000) {
            kemet_pos before = *kemet_game_pos(game);
            kemet_throw t;
            assert_int_equal(kemet_game_roll(game, &t), KEMET_OK);
            int n = kemet_moves(r, &before, &t, list);
            assert_true(n >= 1);
            for (int i = 0; i < n; i++) {
                if (list[i].n == 0)
                    assert_int_equal(n, 1);
                for (int j = 0; j < i && n < 300; j++)
                    assert_false(kemet_move_equal(&list[i], &list[j]));
            }
            int k = (int)kemet_rng_below(&pick, (uint32_t)n);
            assert_int_equal(kemet_game_play(game, &list[k], NULL), KEMET_OK);
            const kemet_pos *p = kemet_game_pos(game);
            char buf[512];
            kemet_rules *r2;
            kemet_pos q;
            if (kemet_pos_check(r, p, &e))
                fail_msg("invalid position: %s", e.msg);
            assert_true(kemet_pos_format(r, p, buf, sizeof buf) > 0);
            assert_int_equal(kemet_pos_parse(buf, &r2, &q, &e), KEMET_OK);
            assert_memory_equal(p, &q, sizeof q);
            kemet_rules_close(r2);
            for (int pl = 1; pl <= 2; pl++)
                assert_int_equal(kemet_on_board(p, pl) + p->hand[pl - 1], 5);
            if (p->result == KEMET_WON1 || p->result == KEMET_WON2) {
                int w = p->result, l = 3 - w;
                /* the winner's pieces are in the opponent's home (the
                 * last five squares), or the loser has none on the board
                 * (L&J), or the loser's home is full and one of its
                 * pieces off (Washburne 15.7, 16); Quick: one arrived */
                int last = kemet_rules_info(r)->squares;
                uint64_t goal = (uint64_t)0x1f << (last - 4);
                int in_goal = __builtin_popcountll(p->sq[w - 1] & goal);
                bool ok = in_goal == 5 ||
                          (strstr(spec, "quick") && in_goal >= 1) ||
                          (lions && p->sq[l - 1] == 0) ||
                          (!lions && p->hand[l - 1] > 0);
                assert_true(ok);
            }
        }
        ended += kemet_result(kemet_game_pos(game)) != KEMET_PLAYING;
        kemet_game_free(game);
    }
    /* Every stick game ends. With the dice a blockade can arise that no
     * throw ever breaks (docs/rules/hounds-jackals-washburne.md): such a
     * game runs to the turn cap and is reported as stopped (G5). */
    if (strstr(spec, "dice"))
        assert_true(ended >= games * 97 / 100);
    else
        assert_int_equal(ended, games);
    kemet_rules_close(r);
}

static void selfplay_washburne(void **state) {
    (void)state;
    random_games("hounds-jackals-washburne", 300);
    random_games("hounds-jackals-washburne-dice", 200);
}

static void selfplay_lions(void **state) {
    (void)state;
    random_games("lions-jackals", 300);
    random_games("lions-jackals-quick", 300);
    random_games("lions-jackals:solid=2,dual=2", 100);
}

/* kemet_moves lists each outcome once, and any order of a listed turn's
 * steps that the rules allow is accepted with the same result. */
static void turn_orders(void **state) {
    (void)state;
    const char *s = L "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5";
    char *m = tu_moves(s, "1,4,6,2@1");
    int lines = 1;
    for (char *c = m; *c; c++)
        lines += *c == ' ';
    assert_int_equal(lines, 67); /* distinct outcomes, counted once each */
    free(m);
    char *a = tu_apply(s, "1,4,6,2@1", "5-11+4-6+1-2+2-3");
    char *b = tu_apply(s, "1,4,6,2@1", "1-2+2-3+4-6+5-11");
    assert_string_equal(a, b);
    assert_string_not_equal(a, "ERR");
    free(a);
    free(b);
}

/* A turn entered a step at a time: the next steps and the values left. */
static void next_steps(void **state) {
    (void)state;
    kemet_pos p;
    kemet_rules *r = tu_pos(L "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5", &p);
    kemet_error e;
    kemet_throw t, left;
    kemet_move done, next[KEMET_MAX_MOVES];
    assert_int_equal(kemet_throw_parse(r, "2,2,2", &t, &e), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, "4-6", &done, &e), KEMET_OK);
    int n = kemet_next_steps(r, &p, &t, &done, next, &left);
    /* with 2s: 1-3? own; 2-4 (4 now empty); 3-5 own; 5-7; 6-8 */
    assert_int_equal(n, 3);
    assert_int_equal(left.n, 2);
    assert_int_equal(left.v[0], 2);
    char buf[32];
    kemet_move_format(&next[0], buf, sizeof buf);
    assert_string_equal(buf, "2-4");
    assert_int_equal(kemet_move_parse(r, "4-6+6-8+8-10", &done, &e), KEMET_OK);
    assert_int_equal(kemet_next_steps(r, &p, &t, &done, next, &left), 0);
    assert_int_equal(left.n, 0);
    assert_int_equal(kemet_move_parse(r, "5-11", &done, &e), KEMET_OK);
    assert_int_equal(kemet_next_steps(r, &p, &t, &done, next, NULL),
                     KEMET_EILLEGAL);
    kemet_rules_close(r);
    /* one value per throw: the next steps are the moves */
    r = tu_pos(W "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5", &p);
    assert_int_equal(kemet_throw_parse(r, "3", &t, &e), KEMET_OK);
    done.n = 0;
    assert_int_equal(kemet_next_steps(r, &p, &t, &done, next, NULL), 3);
    kemet_rules_close(r);
}

/* The board in the middle of a turn: the steps so far made, the river's
 * consequence included, the same player still to move; a whole turn as
 * kemet_apply; a bad beginning refused. */
static void steps_pos(void **state) {
    (void)state;
    kemet_pos p, mid, whole;
    kemet_rules *r = tu_pos(L "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5", &p);
    kemet_error e;
    kemet_throw t;
    kemet_move done;
    assert_int_equal(kemet_throw_parse(r, "2,4,4", &t, &e), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, "5-9", &done, &e), KEMET_OK);
    assert_int_equal(kemet_steps_pos(r, &p, &t, &done, &mid), KEMET_OK);
    assert_int_equal(mid.to, 1);
    char buf[256];
    kemet_pos_format(r, &mid, buf, sizeof buf);
    assert_non_null(strstr(buf, "p1=1,2,3,4,9 "));
    /* 9 + 4 ends on the river's 13: carried back to 9 (rule 7) */
    assert_int_equal(kemet_move_parse(r, "5-9+9-9", &done, &e), KEMET_OK);
    assert_int_equal(kemet_steps_pos(r, &p, &t, &done, &mid), KEMET_OK);
    kemet_pos_format(r, &mid, buf, sizeof buf);
    assert_non_null(strstr(buf, "p1=1,2,3,4,9 "));
    assert_int_equal(mid.to, 1);
    /* the whole turn: as kemet_apply, the other player to move */
    assert_int_equal(kemet_move_parse(r, "5-9+9-9+4-6", &done, &e), KEMET_OK);
    assert_int_equal(kemet_steps_pos(r, &p, &t, &done, &mid), KEMET_OK);
    assert_int_equal(kemet_apply(r, &p, &t, &done, &whole, NULL), KEMET_OK);
    assert_memory_equal(&mid, &whole, sizeof mid);
    assert_int_equal(mid.to, 2);
    assert_int_equal(kemet_move_parse(r, "5-11", &done, &e), KEMET_OK);
    assert_int_equal(kemet_steps_pos(r, &p, &t, &done, &mid), KEMET_EILLEGAL);
    assert_int_equal(kemet_steps_pos(r, &p, &t, NULL, &mid), KEMET_EMISUSE);
    kemet_rules_close(r);
}

/* docs/notation.md: each step in its own form, whatever the rest of the
 * turn. A plain count onto a hole a river also leads to (9, 18) is
 * FROM-TO-TO, a count that follows a river FROM-END-TO, every other
 * plain step FROM-TO; kemet apply refuses FROM-TO-TO onto any other hole,
 * and a record written in the earlier forms still replays. */
static void local_forms(void **state) {
    (void)state;
    /* Player 2 with 5, 6, 6 and a 2 of its own, on 5, 6, 7, 16, 18 (the
     * same numbers for both, rule 1). 16 + 2 lands on 18, vacated by the
     * 5 (18 + 5 = 23): 16-18-18; 23 is no river's end: 18-23, never
     * 18-23-23, even in a turn beside 16-18-18. */
    const char *q = "lions-jackals-quick to=2 p1=7,9,10,12,16 p2=5,6,7,16,18";
    char *list = tu_moves(q, "5,6,6,2@2");
    assert_null(strstr(list, "-23-23"));
    assert_non_null(strstr(list, " 18-23+16-18-18+23-29 "));
    /* 7 + 2 lands on 9 (the river's far end), 7 + 6 follows it from 13 */
    assert_non_null(strstr(list, "+7-9-9+"));
    assert_non_null(strstr(list, "+7-13-9+"));
    free(list);
    apply(q, "5,6,6,2@2", "18-23-23+16-18-18+23-29", "ERR");
    char *o, *e;
    /* the short 16-18 reads two ways, the 2 or a 6 onto the river's end
     * 22: named as they are written */
    assert_int_equal(tu_run(NULL, &o, &e, "apply", q, "5,6,6,2@2",
                            "18-23+16-18+23-29", NULL),
                     2);
    assert_non_null(strstr(e, "18-23+16-18-18+23-29 or 18-23+16-22-18+23-29"));
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "apply", q, "5,6,6,2@2",
                            "18-23-23+16-18-18+23-29", NULL),
                     2);
    assert_string_equal(o, "");
    assert_non_null(strstr(e, "write 18-23: no river leads to 23"));
    free(o);
    free(e);
    /* Washburne's game: no line ends on 7 (lines 6-20, 8-10) */
    apply(W "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5", "2", "5-7-7", "ERR");
    apply(W "to=1 p1=1,2,3,4,5 p2=1,2,3,4,5", "2", "5-7",
          W "to=2 p1=1,2,3,4,7 p2=1,2,3,4,5");
    /* the earlier form, rewritten as today's reads it */
    kemet_pos p, a, b;
    kemet_rules *r = tu_pos(q, &p);
    kemet_throw t;
    kemet_move m;
    kemet_error err;
    assert_int_equal(kemet_throw_parse(r, "5,6,6,2@2", &t, &err), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, "18-23-23+16-18-18+23-29", &m, &err),
                     KEMET_OK);
    assert_int_equal(kemet_apply(r, &p, &t, &m, &a, NULL), KEMET_EILLEGAL);
    assert_int_equal(kemet_move_upgrade(r, &p, &m), KEMET_OK);
    char text[64];
    kemet_move_format(&m, text, sizeof text);
    assert_string_equal(text, "18-23+16-18-18+23-29");
    assert_int_equal(kemet_apply(r, &p, &t, &m, &a, NULL), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, "18-23+16-18-18+23-29", &m, &err),
                     KEMET_OK);
    assert_int_equal(kemet_apply(r, &p, &t, &m, &b, NULL), KEMET_OK);
    assert_memory_equal(&a, &b, sizeof a);
    kemet_rules_close(r);
}

/* A record written with every plain step in three parts (as kemet moves
 * once wrote a whole turn when one step needed it) replays to the same
 * end as the record written today. */
static void earlier_records(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("lions-jackals", &r, &err), KEMET_OK);
    kemet_game *g;
    assert_int_equal(kemet_game_new(r, 11, &g, NULL), KEMET_OK);
    kemet_rng pick;
    kemet_rng_seed(&pick, 5);
    static kemet_move list[KEMET_MAX_MOVES];
    for (int ply = 0; ply < 400 && kemet_game_next(g) != KEMET_NEXT_OVER;
         ply++) {
        kemet_throw thr;
        if (kemet_game_next(g) == KEMET_NEXT_THROW) {
            assert_int_equal(kemet_game_roll(g, &thr), KEMET_OK);
            continue;
        }
        int n = kemet_moves(r, kemet_game_pos(g), kemet_game_throw(g), list);
        assert_true(n > 0);
        kemet_move m = list[kemet_rng_below(&pick, (uint32_t)n)];
        assert_int_equal(kemet_game_play(g, &m, NULL), KEMET_OK);
    }
    char *rec;
    assert_int_equal(kemet_game_record(g, &rec), KEMET_OK);
    /* every plain step onto a hole FROM-TO rewritten FROM-TO-TO */
    size_t len = strlen(rec);
    char *old = malloc(3 * len + 1);
    assert_non_null(old);
    size_t at = 0;
    int rewritten = 0;
    for (const char *c = rec; *c;) {
        int from, to, used;
        if ((c == rec || c[-1] == ' ' || c[-1] == '+') &&
            sscanf(c, "%d-%d%n", &from, &to, &used) == 2 &&
            (c[used] == '+' || c[used] == '\n' || c[used] == ' ')) {
            at += (size_t)sprintf(old + at, "%d-%d-%d", from, to, to);
            c += used;
            rewritten++;
            continue;
        }
        old[at++] = *c++;
    }
    old[at] = '\0';
    assert_true(rewritten > 10);
    kemet_pos now, then;
    char t1[512], t2[512];
    assert_int_equal(kemet_replay(rec, &now, t1, sizeof t1, NULL, &err),
                     KEMET_OK);
    assert_int_equal(kemet_replay(old, &then, t2, sizeof t2, NULL, &err),
                     KEMET_OK);
    assert_memory_equal(&now, &then, sizeof now);
    kemet_game *back;
    assert_int_equal(kemet_game_read(r, old, &back, &err), KEMET_OK);
    assert_memory_equal(kemet_game_pos(back), &now, sizeof now);
    kemet_game_free(back);
    free(old);
    free(rec);
    kemet_game_free(g);
    kemet_rules_close(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(steps_pos),
        cmocka_unit_test(washburne_setup),
        cmocka_unit_test(washburne_move_and_lines),
        cmocka_unit_test(washburne_knock_and_safe),
        cmocka_unit_test(washburne_reenter),
        cmocka_unit_test(washburne_win),
        cmocka_unit_test(washburne_dice),
        cmocka_unit_test(lions_setup_and_opening),
        cmocka_unit_test(lions_values),
        cmocka_unit_test(lions_use_all),
        cmocka_unit_test(lions_capture_and_safe),
        cmocka_unit_test(lions_rivers),
        cmocka_unit_test(lions_river_landings),
        cmocka_unit_test(lions_two_readings),
        cmocka_unit_test(local_forms),
        cmocka_unit_test(earlier_records),
        cmocka_unit_test(lions_resurrection),
        cmocka_unit_test(lions_resurrected_captures_nothing),
        cmocka_unit_test(lions_win),
        cmocka_unit_test(explanations),
        cmocka_unit_test(board_files),
        cmocka_unit_test(safe_line_ends),
        cmocka_unit_test(throw_distributions),
        cmocka_unit_test(selfplay_washburne),
        cmocka_unit_test(selfplay_lions),
        cmocka_unit_test(turn_orders),
        cmocka_unit_test(next_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
