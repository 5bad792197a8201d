/* test_h58.c - the four rulesets of the 58-holes board, one test group per
 * seed rule and ruling, each with cases the rule allows and cases it
 * forbids. Every expected answer is worked out by hand from the texts:
 * seed 000 (Botermans, rules 1-17), 001 (Skiryuk, rules 1-24), 002 (the
 * French rules) and rulings H1-H3, B1-B7, S1-S10, C1-C8. */
#include "testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define D "dogs-jackals "
#define E "dogs-jackals-extended "
#define S "hounds-jackals-skiryuk "
#define C "chien-chacal "
#define moves tu_expect_moves
#define apply tu_expect_apply

/* Botermans rules 1-2, B1, G1, H1: five pieces each, all in hand; one side
 * each; hole 30 shared. */
static void botermans_setup(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "start", "dogs-jackals", NULL), 0);
    assert_string_equal(o, D "to=1 p1=- h1=5 p2=- h2=5\n");
    free(o);
    free(e);
    moves(D "to=1 p1=1 h1=5 p2=- h2=5", "1", "ERR");      /* six pieces */
    moves(D "to=1 p1=31 h1=4 p2=- h2=5", "1", "ERR");     /* no square 31 */
    moves(D "to=1 p1=30 h1=4 p2=30 h2=4", "1", "ERR");    /* 30 is one hole */
    moves(D "to=1 p1=4 h1=4 p2=5 h2=4", "1", "4-5 in-1"); /* two sides */
}

/* Rule 3, ruling G4: who throws first is drawn by lot in the driver. */
static void botermans_first_player(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("dogs-jackals", &r, &err), KEMET_OK);
    int starts[3] = {0};
    for (uint64_t seed = 0; seed < 400; seed++) {
        kemet_game *g;
        kemet_events ev;
        assert_int_equal(kemet_game_new(r, seed, &g, &ev), KEMET_OK);
        starts[kemet_game_pos(g)->to]++;
        assert_int_equal(ev.n, 1);
        assert_int_equal(ev.ev[0].kind, KEMET_EV_STARTS);
        assert_int_equal(ev.ev[0].who, kemet_game_pos(g)->to);
        assert_null(kemet_game_throw(g)); /* nothing thrown yet */
        kemet_game_free(g);
    }
    assert_true(starts[1] > 150 && starts[2] > 150); /* about 200 each */
    kemet_rules_close(r);
}

/* Rule 6, B2: a 1 enters a piece on an empty hole 1, and throws again. */
static void botermans_enter(void **state) {
    (void)state;
    moves(D "to=1 p1=- h1=5 p2=- h2=5", "1", "in-1");
    apply(D "to=1 p1=- h1=5 p2=- h2=5", "1", "in-1",
          D "to=1 p1=1 h1=4 p2=- h2=5");
    moves(D "to=1 p1=- h1=5 p2=- h2=5", "2", "pass"); /* only a 1 enters */
    moves(D "to=1 p1=1 h1=4 p2=- h2=5", "1", "1-2");  /* hole 1 taken */
    apply(D "to=1 p1=- h1=5 p2=- h2=5", "2", "in-2", "ERR");
}

/* Rule 7: any throw, a 1 too, may move a piece on the board (no rethrow). */
static void botermans_move(void **state) {
    (void)state;
    moves(D "to=1 p1=3 h1=4 p2=- h2=5", "1", "3-4 in-1");
    apply(D "to=1 p1=3 h1=4 p2=- h2=5", "1", "3-4",
          D "to=2 p1=4 h1=4 p2=- h2=5");
    apply(D "to=1 p1=3 h1=4 p2=- h2=5", "4", "3-7",
          D "to=2 p1=7 h1=4 p2=- h2=5");
}

/* Rule 8, B3, B7: pieces may be jumped, but not a piece on 10, 15, 20 or
 * 25; landing on such a hole is allowed. */
static void botermans_gates(void **state) {
    (void)state;
    moves(D "to=1 p1=8,10 h1=3 p2=- h2=5", "3", "10-13");   /* 8 blocked */
    moves(D "to=1 p1=13,15 h1=3 p2=- h2=5", "3", "15-18");  /* 13 blocked */
    moves(D "to=1 p1=3,4 h1=3 p2=- h2=5", "2", "3-5 4-20"); /* 4 jumped */
    moves(D "to=1 p1=12 h1=4 p2=- h2=5", "3", "12-15");     /* land on 15 */
    moves(D "to=1 p1=21,25 h1=3 p2=- h2=5", "5", "25-30");  /* 21 blocked */
}

/* Rule 9, B5: never land on an occupied hole, hole 30 (shared) included. */
static void botermans_occupied(void **state) {
    (void)state;
    moves(D "to=1 p1=3,5 h1=3 p2=- h2=5", "2", "5-7");
    moves(D "to=1 p1=27 h1=4 p2=30 h2=4", "3", "pass");
    moves(D "to=1 p1=27 h1=4 p2=29 h2=4", "3", "27-30"); /* other side */
}

/* Rule 10, B4, H3, G6: a line is followed both ways when the other end is
 * empty; otherwise the piece stays; arriving by a line ends the move. */
static void botermans_lines(void **state) {
    (void)state;
    moves(D "to=1 p1=3 h1=4 p2=- h2=5", "3", "3-20");
    moves(D "to=1 p1=3,20 h1=3 p2=- h2=5", "3", "20-23 3-6"); /* stays */
    moves(D "to=1 p1=17 h1=4 p2=- h2=5", "3", "17-6");        /* back */
    moves(D "to=1 p1=5 h1=4 p2=- h2=5", "3", "5-10");         /* not to 8 */
    moves(D "to=1 p1=9 h1=4 p2=- h2=5", "1", "9-8 in-1");
    moves(D "to=1 p1=8 h1=4 p2=- h2=5", "2", "8-8"); /* G6 */
    apply(D "to=1 p1=8 h1=4 p2=- h2=5", "2", "8-8",
          D "to=2 p1=8 h1=4 p2=- h2=5");
    apply(D "to=1 p1=3 h1=4 p2=- h2=5", "3", "3-6", "ERR");
}

/* Rules 11-14, B5, B6, G3: no move past 30; 30 bears off with exactly 5
 * once all pieces have entered; a throw that cannot be used is lost. */
static void botermans_end(void **state) {
    (void)state;
    moves(D "to=1 p1=28 h1=4 p2=- h2=5", "3", "pass");
    moves(D "to=1 p1=28 h1=4 p2=- h2=5", "2", "28-30");
    moves(D "to=1 p1=30 p2=5 h2=4", "5", "30-off");
    moves(D "to=1 p1=30 p2=5 h2=4", "4", "pass");
    moves(D "to=1 p1=30 h1=1 p2=5 h2=4", "5", "pass");     /* rule 14 */
    apply(D "to=1 p1=30,4 p2=5 h2=4", "2", "pass", "ERR"); /* 4-6 exists */
    apply(D "to=1 p1=28 h1=4 p2=- h2=5", "3", "pass",
          D "to=2 p1=28 h1=4 p2=- h2=5");
}

/* Rule 15: the first to bear off all five wins. */
static void botermans_win(void **state) {
    (void)state;
    apply(D "to=1 p1=30 p2=5 h2=4", "5", "30-off",
          D "to=2 p1=- p2=5 h2=4 winner=1");
    apply(D "to=1 p1=30,2 p2=5 h2=4", "5", "30-off", D "to=2 p1=2 p2=5 h2=4");
    moves(D "to=1 p1=- p2=5 h2=4", "1", "ERR"); /* needs winner=1 */
}

/* Rule 16 and the extended ruling: the path runs on to 59 (the opponent's
 * hole 60-q), one piece per physical hole, gates and lines on both sides,
 * bearing off from 59 with exactly 5. */
static void extended_path(void **state) {
    (void)state;
    moves(E "to=1 p1=28 p2=3 h2=4", "4", "28-32"); /* past 30 */
    moves(E "to=1 p1=30 p2=3 h2=4", "5", "30-35"); /* no bearing off */
    moves(E "to=1 p1=59 p2=3 h2=4", "5", "59-off");
    moves(E "to=1 p1=59 p2=3 h2=4", "4", "pass");
    moves(E "to=1 p1=55 p2=3 h2=4", "2", "pass");  /* their hole 3 */
    moves(E "to=1 p1=33 p2=25 h2=4", "3", "pass"); /* their 25 blocks */
    moves(E "to=1 p1=33 p2=23 h2=4", "3", "33-36");
    moves(E "to=1 p1=33 p2=24 h2=4", "3", "pass");    /* lands on their 24 */
    moves(E "to=1 p1=37 p2=3 h2=4", "3", "37-54");    /* their line 20-6 */
    moves(E "to=1 p1=35 p2=25 h2=4", "1", "ERR");     /* one hole, two pieces */
    moves(E "to=1 p1=3 h1=4 p2=59 h2=4", "1", "3-4"); /* hole 1 taken */
    moves(E "to=1 p1=1 h1=4 p2=59 h2=4", "1", "ERR"); /* the same hole */
}

/* Rule 17: drawn when nothing can ever move again (and only then). */
static void extended_draw(void **state) {
    (void)state;
    /* player 1's pieces fill player 2's holes 2-6; both are stuck */
    apply(E "to=1 p1=53,54,55,56,57 p2=1", "5", "53-58",
          E "to=2 p1=54,55,56,57,58 p2=1 winner=0");
    apply(E "to=1 p1=54,55,56,57,58 p2=1", "3", "pass",
          E "to=2 p1=54,55,56,57,58 p2=1 winner=0");
    /* player 2 could still move: no draw */
    apply(E "to=1 p1=53,54,55,56,57 p2=1", "1", "57-58",
          E "to=2 p1=53,54,55,56,58 p2=1");
    moves(D "to=1 p1=5 h1=4 p2=6 h2=4 winner=0", "1", "ERR"); /* no draw */
}

/* Skiryuk rules 6-7, S1: one piece on hole 1, four in hand; both throw,
 * the lower throw starts and is played as the first throw. */
static void skiryuk_setup(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(
        tu_run(NULL, &o, &e, "start", "hounds-jackals-skiryuk", NULL), 0);
    assert_string_equal(o, S "to=1 p1=1 h1=4 p2=1 h2=4\n");
    free(o);
    free(e);
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("hounds-jackals-skiryuk", &r, &err),
                     KEMET_OK);
    for (uint64_t seed = 0; seed < 200; seed++) {
        kemet_game *g;
        kemet_events ev;
        kemet_game_new(r, seed, &g, &ev);
        const kemet_event *st = &ev.ev[ev.n - 1];
        assert_int_equal(st->kind, KEMET_EV_STARTS);
        assert_true(st->a != st->b);
        int starter = st->a < st->b ? 1 : 2;
        assert_int_equal(kemet_game_pos(g)->to, starter);
        const kemet_throw *first = kemet_game_throw(g);
        assert_non_null(first); /* the lower throw is already thrown */
        assert_int_equal(first->v[0], st->a < st->b ? st->a : st->b);
        for (int i = 0; i + 1 < ev.n; i++) /* equal throws: again */
            assert_int_equal(ev.ev[i].a, ev.ev[i].b);
        kemet_game_free(g);
    }
    kemet_rules_close(r);
}

/* Rules 9, 12-14, S2: forward only; never land on or pass an occupied
 * hole, except along a line. */
static void skiryuk_no_passing(void **state) {
    (void)state;
    moves(S "to=1 p1=1,3 h1=3 p2=1 h2=4", "3", "3-20"); /* 1-4 passes 3 */
    moves(S "to=1 p1=1,3 h1=3 p2=1 h2=4", "2", "3-5");  /* 1-3 lands on 3 */
    moves(S "to=1 p1=1,3 h1=3 p2=1 h2=4", "1", "1-2 3-4");
    moves(S "to=1 p1=3,10 h1=3 p2=1 h2=4", "3", "10-13 3-20"); /* line */
}

/* Rules 15-16, S3, G6: lines both ways; other end occupied: not allowed. */
static void skiryuk_lines(void **state) {
    (void)state;
    moves(S "to=1 p1=3,20 h1=3 p2=1 h2=4", "3", "20-23");
    moves(S "to=1 p1=17 h1=4 p2=1 h2=4", "3", "17-6");
    moves(S "to=1 p1=5 h1=4 p2=1 h2=4", "3", "5-10");
    moves(S "to=1 p1=8 h1=4 p2=1 h2=4", "2", "8-8");
    moves(S "to=1 p1=7,8 h1=3 p2=1 h2=4", "1", "8-9"); /* 7-8 lands on 8 */
}

/* Rules 10, 11, 17, 18, S4, S5: landing on or passing 15/25 by counting
 * loads a piece onto an empty hole 1; landing exactly gives another turn;
 * a line does not count. */
static void skiryuk_loading(void **state) {
    (void)state;
    apply(S "to=1 p1=13 h1=4 p2=1 h2=4", "3", "13-16",
          S "to=2 p1=1,16 h1=3 p2=1 h2=4");
    apply(S "to=1 p1=13 h1=4 p2=1 h2=4", "2", "13-15",
          S "to=1 p1=1,15 h1=3 p2=1 h2=4");
    apply(S "to=1 p1=1,13 h1=3 p2=1 h2=4", "3", "13-16",
          S "to=2 p1=1,16 h1=3 p2=1 h2=4");
    apply(S "to=1 p1=1,13 h1=3 p2=1 h2=4", "2", "13-15",
          S "to=1 p1=1,15 h1=3 p2=1 h2=4");
    apply(S "to=1 p1=3 h1=4 p2=1 h2=4", "3", "3-20",
          S "to=2 p1=20 h1=4 p2=1 h2=4");
    apply(S "to=1 p1=23 h1=4 p2=1 h2=4", "4", "23-27",
          S "to=2 p1=1,27 h1=3 p2=1 h2=4");
}

/* Rules 19-22, S6, S7: the Shen by exact throw; entering it captures the
 * opponent's rearmost piece on 1-29 for good; it holds any number and its
 * pieces are safe; a 1 takes one back to hand. */
static void skiryuk_shen(void **state) {
    (void)state;
    moves(S "to=1 p1=28 h1=4 p2=1 h2=4", "3", "pass");
    apply(S "to=1 p1=28 h1=4 p2=4,9 h2=3", "2", "28-30",
          S "to=2 p1=1,30 h1=3 p2=9 h2=3");
    /* 30 is safe: player 1's rearmost on 1-29 (5) goes, then S8 reloads
     * both paths */
    apply(S "to=2 p1=5,30 h1=3 p2=27 h2=4", "3", "27-30",
          S "to=1 p1=1,30 h1=2 p2=1,30 h2=3");
    moves(S "to=1 p1=2,30 h1=3 p2=1 h2=4", "1", "2-3 30-off");
    moves(S "to=1 p1=2,30 h1=3 p2=1 h2=4", "2", "2-4");
    moves(S "to=1 p1=4,30,30 h1=2 p2=1 h2=4", "1", "30-off 4-5"); /* once */
    apply(S "to=1 p1=2,30 h1=3 p2=1 h2=4", "1", "30-off",
          S "to=2 p1=2 h1=4 p2=1 h2=4");
}

/* Rule 23, S8: the path is never empty while pieces are in hand. */
static void skiryuk_path_never_empty(void **state) {
    (void)state;
    apply(S "to=1 p1=28 h1=4 p2=1 h2=4", "2", "28-30",
          S "to=2 p1=1,30 h1=3 p2=1 h2=3");
    moves(S "to=1 p1=30 h1=4 p2=1 h2=4", "1", "ERR"); /* not a position */
}

/* Rule 24, S9: capturing all five opposing pieces wins. */
static void skiryuk_win(void **state) {
    (void)state;
    apply(S "to=1 p1=28 h1=4 p2=4", "2", "28-30",
          S "to=2 p1=1,30 h1=3 p2=- winner=1");
    apply(S "to=1 p1=28 h1=4 p2=4,30", "2", "28-30",
          S "to=2 p1=1,30 h1=3 p2=30");
    moves(S "to=1 p1=5 h1=4 p2=-", "1", "ERR"); /* needs winner=1 */
}

/* C1, C2, G4: all in hand; player 1 throws first; every entry needs a 1. */
static void chien_enter(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "start", "chien-chacal", NULL), 0);
    assert_string_equal(o, C "to=1 p1=- h1=5 p2=- h2=5\n");
    free(o);
    free(e);
    moves(C "to=1 p1=- h1=5 p2=- h2=5", "2", "pass");
    apply(C "to=1 p1=- h1=5 p2=- h2=5", "2", "pass",
          C "to=2 p1=- h1=5 p2=- h2=5");
    apply(C "to=1 p1=- h1=5 p2=- h2=5", "1", "in-1",
          C "to=1 p1=1 h1=4 p2=- h2=5 must=1");
    moves(C "to=1 p1=3 h1=4 p2=- h2=5", "1", "3-4 in-1");
    moves(C "to=1 p1=1 h1=4 p2=- h2=5", "1", "1-2");
}

/* C3: pieces may be jumped; never land on an occupied hole. */
static void chien_moves(void **state) {
    (void)state;
    moves(C "to=1 p1=3,4 h1=3 p2=- h2=5", "2", "3-5 4-20");
    moves(C "to=1 p1=3,4 h1=3 p2=- h2=5", "1", "4-5 in-1");
    moves(C "to=1 p1=10,11 h1=3 p2=- h2=5", "3", "10-13 11-14");
}

/* C4: shortcuts one way; an occupied end forbids the move. */
static void chien_shortcuts(void **state) {
    (void)state;
    moves(C "to=1 p1=3 h1=4 p2=- h2=5", "3", "3-20");
    moves(C "to=1 p1=3,20 h1=3 p2=- h2=5", "3", "20-23");
    moves(C "to=1 p1=17 h1=4 p2=- h2=5", "3", "17-20"); /* not back */
    moves(C "to=1 p1=5 h1=4 p2=- h2=5", "3", "5-10");
    moves(C "to=1 p1=7 h1=4 p2=- h2=5", "3", "7-10"); /* no line at 10 */
}

/* C5, C8: landing on 1, 15 or 25: throw again with that piece only; if it
 * cannot move, the throw is lost and the turn passes. */
static void chien_rethrow(void **state) {
    (void)state;
    apply(C "to=1 p1=13 h1=4 p2=- h2=5", "2", "13-15",
          C "to=1 p1=15 h1=4 p2=- h2=5 must=15");
    apply(C "to=1 p1=22 h1=4 p2=- h2=5", "3", "22-25",
          C "to=1 p1=25 h1=4 p2=- h2=5 must=25");
    apply(C "to=1 p1=13 h1=4 p2=- h2=5", "3", "13-16",
          C "to=2 p1=16 h1=4 p2=- h2=5");
    moves(C "to=1 p1=3,15 h1=3 p2=- h2=5 must=15", "1", "15-16");
    moves(C "to=1 p1=15,16 h1=3 p2=- h2=5 must=15", "1", "pass");
    apply(C "to=1 p1=15,16 h1=3 p2=- h2=5 must=15", "1", "pass",
          C "to=2 p1=15,16 h1=3 p2=- h2=5");
    apply(C "to=1 p1=1,16 h1=3 p2=- h2=5 must=1", "4", "1-5",
          C "to=2 p1=5,16 h1=3 p2=- h2=5");
}

/* C6, C7: a piece leaves by landing exactly on 30, with no piece in hand;
 * no piece rests on 30; all five off wins. */
static void chien_exit(void **state) {
    (void)state;
    moves(C "to=1 p1=27 p2=- h2=5", "3", "27-off");
    moves(C "to=1 p1=27 p2=- h2=5", "4", "pass");
    moves(C "to=1 p1=27 h1=1 p2=- h2=5", "3", "pass");
    moves(C "to=1 p1=30 h1=4 p2=- h2=5", "1", "ERR");
    apply(C "to=1 p1=27 p2=- h2=5", "3", "27-off",
          C "to=2 p1=- p2=- h2=5 winner=1");
}

/* The terminal's palm board (kemet_board_template) draws only the marks
 * and lines a ruleset's board has, and names its players. */
static bool has(const char *spec, const char *what) {
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open(spec, &r, &err), KEMET_OK);
    bool found = strstr(kemet_board_template(r), what) != NULL;
    kemet_rules_close(r);
    return found;
}

static void palm_picture(void **state) {
    (void)state;
    /* Botermans' board: every mark, both lines, the Shen */
    assert_true(has("dogs-jackals", " *6 [{06}]=======[{20}] *20"));
    assert_true(has("dogs-jackals", "*8  -.  |  |  .-  *8"));
    assert_true(has("dogs-jackals", "30* Shen"));
    assert_true(has("dogs-jackals", "left: Jackals' holes; right: Dogs'"));
    /* Carter's plain board: no mark, no line */
    const char *plain = "hounds-jackals-carter:board=plain";
    assert_false(has(plain, "*"));
    assert_false(has(plain, "="));
    assert_false(has(plain, "-."));
    assert_true(has(plain, "  6 [{06}]       [{20}]  20"));
    assert_true(has(plain, " 9      |  |       9 [{09}]"));
    assert_false(has(plain, "marked hole"));
    /* Carter's lines board: the lines, and only 15 and 25 marked */
    const char *lines = "hounds-jackals-carter:board=lines";
    assert_true(has(lines, "  6 [{06}]=======[{20}]  20"));
    assert_true(has(lines, "[{15}] *15"));
    assert_true(has(lines, "brackets: line 8-10"));
    /* the marked board: marks without lines */
    const char *marked = "hounds-jackals-carter:board=marked";
    assert_true(has(marked, " *6 [{06}]       [{20}] *20"));
    assert_false(has(marked, "line 6-20"));
    /* Tab: no Shen; unmarked and without lines by default */
    assert_false(has("tab-58", "Shen"));
    assert_false(has("tab-58", "*"));
    assert_true(has("tab-58", "left: Black's holes; right: White's"));
    const char *par = "tab-58:marks=safe,lines=parallel";
    assert_true(has(par, " *6 [{06}]=======[{20}] *20"));
    assert_true(has(par, "[{30}] 30*"));
    assert_true(has("tab-58:lines=parallel", "9   |  |  |  |    9"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(botermans_setup),
        cmocka_unit_test(botermans_first_player),
        cmocka_unit_test(botermans_enter),
        cmocka_unit_test(botermans_move),
        cmocka_unit_test(botermans_gates),
        cmocka_unit_test(botermans_occupied),
        cmocka_unit_test(botermans_lines),
        cmocka_unit_test(botermans_end),
        cmocka_unit_test(botermans_win),
        cmocka_unit_test(extended_path),
        cmocka_unit_test(extended_draw),
        cmocka_unit_test(skiryuk_setup),
        cmocka_unit_test(skiryuk_no_passing),
        cmocka_unit_test(skiryuk_lines),
        cmocka_unit_test(skiryuk_loading),
        cmocka_unit_test(skiryuk_shen),
        cmocka_unit_test(skiryuk_path_never_empty),
        cmocka_unit_test(skiryuk_win),
        cmocka_unit_test(chien_enter),
        cmocka_unit_test(chien_moves),
        cmocka_unit_test(chien_shortcuts),
        cmocka_unit_test(chien_rethrow),
        cmocka_unit_test(chien_exit),
        cmocka_unit_test(palm_picture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
