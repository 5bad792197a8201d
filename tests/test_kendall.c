/* test_kendall.c - Kendall's four options for senet-kendall and
 * senet-robinson (pieces, start, trap, homerow): the option syntax of R2,
 * the wait= field of R3, one test group per ruling KO2-KO7, and the four
 * worked examples of the Notation block, run through the real program.
 * Every expected answer is worked out by hand from the rulings; a comment
 * says how where it is not plain. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KMT_BIT(s) ((uint64_t)1 << (s))

#define K "senet-kendall"
#define R "senet-robinson"

#define expect_moves tu_expect_moves
#define expect_apply tu_expect_apply

#define OK TU_RUN_OK

#define BAD TU_RUN_BAD

/* The canonical spec of `spec`, or NULL when it does not open (the error
 * message in *why). */
static char *canon(const char *spec, kemet_error *why) {
    kemet_rules *r;
    if (kemet_rules_open(spec, &r, why) != KEMET_OK)
        return NULL;
    char *s = strdup(kemet_rules_spec(r));
    kemet_rules_close(r);
    return s;
}

static void expect_canon(const char *spec, const char *want) {
    kemet_error e;
    char *got = canon(spec, &e);
    if (!got)
        fail_msg("%s does not open: %s", spec, e.msg);
    if (strcmp(got, want) != 0)
        fail_msg("%s prints as %s, want %s", spec, got, want);
    free(got);
}

static void expect_bad_spec(const char *spec, const char *words) {
    kemet_error e;
    char *got = canon(spec, &e);
    if (got)
        fail_msg("%s opens (as %s)", spec, got);
    if (!strstr(e.msg, words))
        fail_msg("%s: '%s' does not say '%s'", spec, e.msg, words);
}

/* R2: options in any order, printed in the table's order (pieces, start,
 * trap, homerow) with only those that differ from their defaults; bad
 * keys, values, repeats and an empty list are errors. */
static void r2_option_syntax(void **state) {
    (void)state;
    expect_canon(K ":start=1,pieces=5", K ":pieces=5,start=1");
    expect_canon(K ":homerow=1,trap=1,start=1,pieces=5",
                 K ":pieces=5,start=1,trap=1,homerow=1");
    expect_canon(R ":homerow=1,trap=1", R ":trap=1,homerow=1");
    expect_canon(K ":pieces=7,start=0,trap=0,homerow=0", K);
    expect_canon(R ":pieces=7", R);
    expect_canon(R ":start=1,pieces=7", R ":start=1");
    expect_bad_spec(K ":pieces=6", "unknown value");
    expect_bad_spec(K ":pieces=4", "unknown value");
    expect_bad_spec(K ":pieces=8", "unknown value");
    expect_bad_spec(K ":start=2", "unknown value");
    expect_bad_spec(K ":trap=yes", "unknown value");
    expect_bad_spec(K ":homerow=", "unknown value");
    expect_bad_spec(R ":trap=-1", "unknown value");
    expect_bad_spec(K ":water=1", "no option");
    expect_bad_spec(K ":trap=1,trap=1", "twice");
    expect_bad_spec(K ":trap=1,trap=0", "twice");
    expect_bad_spec(K ":", "no options");
    expect_bad_spec(K ":trap=1,", "comma");
    expect_bad_spec(K ":trap", "key=value");
    /* the program: exit status 2, one line */
    BAD("unknown value", "start", K ":pieces=6");
    BAD("no option", "start", R ":turbo=1");
    BAD("twice", "start", K ":start=1,start=1");
    BAD("no options", "start", K ":");
    /* a position's ruleset is read the same way */
    expect_moves(K ":pieces=6 to=1 p1=5 p2=20", "3", "ERR");
    expect_moves(K ":trap=1 to=1 p1=5 p2=20", "3", "5-8");
    expect_moves(K ":trap=1,pieces=7 to=1 p1=5 p2=20", "3", "5-8");
}

/* The four worked examples of the Notation block, exactly. */
static void notation_examples(void **state) {
    (void)state;
    OK(K ":pieces=5,start=1 to=1 p1=1,3,5,7,9 p2=2,4,6,8,10 wait=1,2\n",
       "start", K ":start=1,pieces=5");
    OK(K ":start=1 to=1 p1=1,3,5,7,9,11,14 p2=2,4,6,8,10,12,13 wait=2\n",
       "apply",
       K ":start=1 to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14 wait=1,2", "1",
       "13-14");
    OK("24-27\n", "moves", K ":trap=1 to=1 p1=24 p2=10", "4");
    OK(K ":trap=1 to=2 p1=27 p2=10\n", "apply", K ":trap=1 to=1 p1=24 p2=10",
       "4", "24-27");
    OK("24-20\n", "moves", K " to=1 p1=24 p2=10", "4");
    OK("5-10\n", "moves", K ":homerow=1 to=1 p1=5,30 p2=12", "5");
    /* "without the option the list would also hold 30-off" */
    OK("5-10\n30-off\n", "moves", K " to=1 p1=5,30 p2=12", "5");
}

/* KO1: each option alone changes only what its ruling says: the default
 * values are the base rules, and an option leaves the other rules be. */
static void ko1_base_stays(void **state) {
    (void)state;
    /* each option alone on a position its ruling does not touch: the base
     * rules' answers (rule 5 swap, rule 7 backward, rule 12 bonus) */
    static const char *const opts[] = {":pieces=5", ":start=1", ":trap=1",
                                       ":homerow=1"};
    for (int i = 0; i < 4; i++) {
        char pos[128], after[128];
        snprintf(pos, sizeof pos, K "%s to=1 p1=15 p2=18,20", opts[i]);
        snprintf(after, sizeof after, K "%s to=2 p1=18 p2=15,20", opts[i]);
        expect_apply(pos, "3", "15-18", after);
        snprintf(pos, sizeof pos, K "%s to=1 p1=15 p2=18,19", opts[i]);
        expect_moves(pos, "3", "15-12");
        snprintf(pos, sizeof pos, K "%s to=1 p1=15 p2=18,20", opts[i]);
        snprintf(after, sizeof after, K "%s to=1 p1=19 p2=18,20", opts[i]);
        expect_apply(pos, "4", "15-19", after);
    }
    /* the rules text names the options that are on, and only those */
    kemet_rules *r;
    kemet_error why;
    assert_int_equal(kemet_rules_open(R ":homerow=1,trap=1", &r, &why),
                     KEMET_OK);
    const char *text = kemet_rules_info(r)->text;
    /* (guarded lines of the file's text: docs/rulesets.md) */
    assert_non_null(strstr(text, "\n\nKendall's option trap=1: a piece"));
    assert_non_null(strstr(text, "Kendall's option homerow=1:"));
    assert_null(strstr(text, "pieces=5"));
    assert_non_null(strstr(text, "Robinson's variant"));
    kemet_rules_close(r);
    assert_int_equal(kemet_rules_open(K, &r, &why), KEMET_OK);
    assert_null(strstr(kemet_rules_info(r)->text, "Kendall's option"));
    kemet_rules_close(r);
    /* the default start: seven pieces, nobody waiting */
    OK(K " to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14\n", "start",
       K ":pieces=7,start=0");
    OK(R ":trap=1,homerow=1 to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14\n",
       "start", R ":homerow=1,trap=1");
}

/* KO2: five pieces each on 1-10, white on the odd squares and first to
 * move; the first to bear off all five wins; six are malformed. */
static void ko2_five_pieces(void **state) {
    (void)state;
    OK(R ":pieces=5 to=1 p1=1,3,5,7,9 p2=2,4,6,8,10\n", "start", R ":pieces=5");
    /* white starts: black cannot be the first to move, so to=1 */
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open(K ":pieces=5", &r, &e), KEMET_OK);
    assert_int_equal(kemet_rules_info(r)->pieces, 5);
    kemet_pos p;
    kemet_start(r, &p);
    assert_int_equal(p.to, 1);
    assert_int_equal(p.wait, 0);
    kemet_rules_close(r);
    /* every black piece is alone between two white ones but 10: a 1
     * swaps any white piece forward */
    expect_moves(K ":pieces=5 to=1 p1=1,3,5,7,9 p2=2,4,6,8,10", "1",
                 "1-2 3-4 5-6 7-8 9-10");
    expect_moves(K ":pieces=5 to=1 p1=1,3,5,7,9,11 p2=2", "1", "ERR");
    expect_moves(K ":pieces=5 to=1 p1=1 p2=2,4,6,8,10,12", "1", "ERR");
    /* the last of five borne off wins (a 2: no other turn) */
    expect_apply(K ":pieces=5 to=1 p1=30 p2=1,2,3,4,5", "2", "30-off",
                 K ":pieces=5 to=2 p1=- p2=1,2,3,4,5 winner=1");
    /* with seven pieces, five on the board is no win yet */
    expect_apply(K " to=1 p1=29,30 p2=1,2,3,4,5", "2", "29-off",
                 K " to=2 p1=30 p2=1,2,3,4,5");
    /* a seven-piece position is not a five-piece one */
    expect_moves(K ":pieces=5 to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14", "1",
                 "ERR");
}

/* KO3: start=1. A waiting player loses every throw but 1; the first 1
 * takes it out of wait and is played as usual (another turn after it); a
 * 1 with no move is lost and passes the turn, the player out of wait all
 * the same. No pre-throw choice while waiting. */
static void ko3_start_throw(void **state) {
    (void)state;
    const char *s0 =
        K ":start=1 to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14 wait=1,2";
    for (int t = 2; t <= 5; t++) {
        char thr[2] = {(char)('0' + t), '\0'};
        expect_moves(s0, thr, "pass");
        /* lost: the turn passes (even after a 4 or 5), still waiting */
        expect_apply(s0, thr, "pass",
                     K ":start=1 to=2 p1=1,3,5,7,9,11,13 "
                       "p2=2,4,6,8,10,12,14 wait=1,2");
        expect_apply(s0, thr, "13-14", "ERR");
    }
    /* the 1: the moves of an ordinary 1 (each black piece is alone, its
     * neighbours white or empty: every white piece may swap forward) */
    expect_moves(s0, "1", "1-2 11-12 13-14 3-4 5-6 7-8 9-10");
    /* player 2's first 1, player 1 already out: 14-15 to the empty 15;
     * another turn, with only player 2's bit gone */
    expect_apply(K ":start=1 to=2 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14 "
                   "wait=2",
                 "1", "14-15",
                 K ":start=1 to=2 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,15");
    /* a 1 with no legal move: 2 is guarded by 3, nothing goes back from
     * 1; lost, the turn passes, but player 1 leaves wait */
    expect_moves(K ":start=1 to=1 p1=1 p2=2,3 wait=1,2", "1", "pass");
    expect_apply(K ":start=1 to=1 p1=1 p2=2,3 wait=1,2", "1", "pass",
                 K ":start=1 to=2 p1=1 p2=2,3 wait=2");
    /* a 1 for a waiting piece in the water: lost (rule 11), out of wait */
    expect_apply(K ":start=1 to=1 p1=5,27 p2=10 wait=1", "1", "pass",
                 K ":start=1 to=2 p1=5,27 p2=10");
    /* no pre-throw choice while waiting: only `throw`, though 15 is
     * empty; the player who is not waiting has the rescue */
    expect_moves(K ":start=1 to=1 p1=27 p2=10 wait=1", "none", "throw");
    expect_moves(K ":start=1 to=1 p1=27 p2=10 wait=2", "none", "27-15 throw");
    expect_apply(K ":start=1 to=1 p1=27 p2=10 wait=1", "none", "27-15", "ERR");
    OK("throw\n", "moves", s0, "none");
    /* the other player waiting does not hold the mover back */
    expect_moves(K ":start=1 to=1 p1=5 p2=20 wait=2", "3", "5-8");
    /* wait is dropped when the game ends (R3) */
    expect_apply(K ":start=1 to=1 p1=30 p2=10 wait=2", "2", "30-off",
                 K ":start=1 to=2 p1=- p2=10 winner=1");
    /* and it is the start of start=1 games only */
    OK(K ":start=1 to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14 wait=1,2\n",
       "start", K ":start=1");
}

/* R3 and KO3: the wait= field, its values, its place and where it is
 * allowed. */
static void ko3_wait_field(void **state) {
    (void)state;
    static const char *const bad[] = {
        K " to=1 p1=5 p2=20 wait=1",           /* start=0 has no wait */
        K ":trap=1 to=1 p1=5 p2=20 wait=1",    /* nor another option */
        R " to=1 p1=5 p2=20 wait=2",           /* nor Robinson's base */
        "dogs-jackals to=1 p1=5 p2=20 wait=1", /* nor another game */
        K ":start=1 to=1 p1=5 p2=20 wait=",
        K ":start=1 to=1 p1=5 p2=20 wait=0",
        K ":start=1 to=1 p1=5 p2=20 wait=3",
        K ":start=1 to=1 p1=5 p2=20 wait=2,1",
        K ":start=1 to=1 p1=5 p2=20 wait=1,1",
        K ":start=1 to=1 p1=5 p2=20 wait=1,2,2",
        K ":start=1 to=1 p1=5 p2=20 wait=1 wait=2",
        K ":start=1 to=2 p1=- p2=20 wait=2 winner=1",
        K ":start=1 to=2 p1=- p2=20 wait=1 winner=1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kemet_rules *r;
        kemet_pos p;
        kemet_error e;
        if (kemet_pos_parse(bad[i], &r, &p, &e) == KEMET_OK)
            fail_msg("'%s' parses", bad[i]);
    }
    BAD("wait= is not used", "moves", K " to=1 p1=5 p2=20 wait=1", "3");
    /* read in any order, written in R3's: ... must wait winner */
    kemet_pos p;
    kemet_rules *r = tu_pos(R ":start=1 wait=2 must=26 p2=5 to=1 p1=3,26", &p);
    char buf[256];
    kemet_pos_format(r, &p, buf, sizeof buf);
    assert_string_equal(buf, R ":start=1 to=1 p1=3,26 p2=5 must=26 wait=2");
    assert_int_equal(p.wait, 2);
    kemet_rules_close(r);
    r = tu_pos(K ":start=1 to=2 p1=3 p2=5 wait=1,2", &p);
    assert_int_equal(p.wait, 3);
    kemet_pos_format(r, &p, buf, sizeof buf);
    assert_string_equal(buf, K ":start=1 to=2 p1=3 p2=5 wait=1,2");
    /* the library refuses a wait bit other than players 1 and 2 */
    p.wait = 4;
    kemet_error e;
    assert_int_not_equal(kemet_pos_check(r, &p, &e), KEMET_OK);
    assert_int_equal(kemet_pos_format(r, &p, buf, sizeof buf), KEMET_EMISUSE);
    kemet_rules_close(r);
    /* and a wait in a ruleset without it */
    r = tu_pos(K " to=2 p1=3 p2=5", &p);
    p.wait = 1;
    assert_int_not_equal(kemet_pos_check(r, &p, &e), KEMET_OK);
    kemet_move list[KEMET_MAX_MOVES];
    assert_int_equal(kemet_prethrow(r, &p, list), KEMET_EMISUSE);
    kemet_rules_close(r);
}

/* KO4: trap=1. A count from 1-25 that passes 26 falls into the water
 * (s-27) when 27 is empty; it is a forward move, chosen freely, and the
 * water ends the turn. */
static void ko4_trap(void **state) {
    (void)state;
    /* 25+2, 24+3, 23+4, 22+5 pass 26 */
    expect_moves(K ":trap=1 to=1 p1=25 p2=10", "2", "25-27");
    expect_moves(K ":trap=1 to=1 p1=24 p2=10", "3", "24-27");
    expect_moves(K ":trap=1 to=1 p1=23 p2=10", "4", "23-27");
    expect_moves(K ":trap=1 to=1 p1=22 p2=10", "5", "22-27");
    expect_moves(K ":trap=1 to=1 p1=25 p2=10", "5", "25-27");
    /* without the option the same counts go back instead (K3, K7) */
    expect_moves(K " to=1 p1=25 p2=10", "2", "25-23");
    /* 27 taken by an opponent piece: no fall (K3), so back by the throw */
    expect_moves(K ":trap=1 to=1 p1=24 p2=10,27", "4", "24-20");
    expect_apply(K ":trap=1 to=1 p1=24 p2=10,27", "4", "24-27", "ERR");
    /* ... nor onto a lone opponent piece there: no swap into the water */
    expect_moves(K ":trap=1 to=1 p1=5,23 p2=27", "4", "5-9");
    /* 27 taken by the mover's own piece: rule 11 moves only that piece */
    expect_moves(K ":trap=1 to=1 p1=24,27 p2=10", "3", "pass");
    /* chosen like any other move */
    expect_moves(K ":trap=1 to=1 p1=5,24 p2=12", "3", "24-27 5-8");
    /* a forward move for K7: it keeps the backward moves out */
    expect_moves(K ":trap=1 to=1 p1=5,24 p2=8,9", "3", "24-27");
    expect_moves(K " to=1 p1=5,24 p2=8,9", "3", "24-21 5-2");
    /* K8, K9: the fall ends the turn even after a 4 or 5 */
    expect_apply(K ":trap=1 to=1 p1=1,22 p2=10", "5", "22-27",
                 K ":trap=1 to=2 p1=1,27 p2=10");
    expect_apply(K ":trap=1 to=1 p1=1,22 p2=10", "5", "1-6",
                 K ":trap=1 to=1 p1=6,22 p2=10");
    /* reaching 26 exactly is unaffected */
    expect_moves(K ":trap=1 to=1 p1=24 p2=10", "2", "24-26");
    expect_moves(K ":trap=1 to=1 p1=25 p2=10", "1", "25-26");
    /* moves from 26-30 are unaffected */
    expect_moves(K ":trap=1 to=1 p1=26 p2=10", "5", "26-off");
    expect_moves(K ":trap=1 to=1 p1=26 p2=10", "3", "26-29");
    expect_moves(K ":trap=1 to=1 p1=28 p2=10", "2", "28-27");
    /* backward moves are unaffected: from 28-30 into the water as before,
     * and not at all when 27 is guarded */
    expect_moves(K ":trap=1 to=1 p1=2,28 p2=4,5,26,27", "2", "pass");
    expect_moves(K ":trap=1 to=1 p1=3,28 p2=5,6,27", "2", "28-27 3-1");
    /* Robinson's must=26 throw moves only the piece on 26 */
    expect_moves(R ":trap=1 to=1 p1=24,26 p2=10 must=26", "3", "26-29");
    expect_moves(R ":trap=1 to=1 p1=24,26 p2=10", "3", "24-27 26-29");
    /* a fall is no landing on 26: no rethrow, the water ends the turn */
    expect_apply(R ":trap=1 to=1 p1=1,25 p2=10", "2", "25-27",
                 R ":trap=1 to=2 p1=1,27 p2=10");
    /* a wrong count past 26 */
    expect_apply(K ":trap=1 to=1 p1=24 p2=10", "4", "24-28", "ERR");
}

/* KO5: homerow=1. While one of the mover's pieces is on 1-10, nothing
 * bears off: such a move is not a forward move for K7, and a 4 for a
 * piece in the water is lost. */
static void ko5_homerow(void **state) {
    (void)state;
    /* 26-off with 5, 28 with 3, 29 with 2, 30 with any */
    expect_moves(K ":homerow=1 to=1 p1=10,26 p2=20", "5", "10-15");
    expect_moves(K " to=1 p1=10,26 p2=20", "5", "10-15 26-off");
    expect_moves(K ":homerow=1 to=1 p1=1,28 p2=20", "3", "1-4");
    expect_moves(K ":homerow=1 to=1 p1=1,29 p2=20", "2", "1-3");
    expect_moves(K ":homerow=1 to=1 p1=1,30 p2=20", "1", "1-2");
    /* 27-off with 4 is stopped, and the 4 is lost: the turn passes */
    expect_moves(K ":homerow=1 to=1 p1=5,27 p2=12", "4", "pass");
    expect_apply(K ":homerow=1 to=1 p1=5,27 p2=12", "4", "pass",
                 K ":homerow=1 to=2 p1=5,27 p2=12");
    expect_moves(K " to=1 p1=5,27 p2=12", "4", "27-off");
    /* no piece of its own on 1-10: bearing off as usual; an opponent's
     * piece there does not count */
    expect_moves(K ":homerow=1 to=1 p1=11,30 p2=12", "1", "11-12 30-off");
    expect_moves(K ":homerow=1 to=1 p1=30 p2=5", "1", "30-off");
    expect_moves(K ":homerow=1 to=1 p1=11,27 p2=5", "4", "27-off");
    /* square 10 counts, 11 does not */
    expect_moves(K ":homerow=1 to=1 p1=10,30 p2=12", "3", "10-13");
    /* not a forward move for K7: 5-8 is guarded, 30-off stopped, so the
     * pieces go back: 5-2, and 30 into the water */
    expect_moves(K ":homerow=1 to=1 p1=5,30 p2=8,9", "3", "30-27 5-2");
    expect_moves(K " to=1 p1=5,30 p2=8,9", "3", "30-off");
    /* the rest is unaffected: 26-30 move on into 27-30 */
    expect_moves(K ":homerow=1 to=1 p1=5,26 p2=20", "2", "26-28 5-7");
    /* the explanation says why */
    kemet_pos p;
    kemet_rules *r = tu_pos(K ":homerow=1 to=1 p1=10,26 p2=20", &p);
    kemet_throw t;
    kemet_move m;
    kemet_error e;
    char why[200];
    assert_int_equal(kemet_throw_parse(r, "5", &t, &e), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, "26-off", &m, &e), KEMET_OK);
    assert_int_equal(kemet_explain(r, &p, &t, &m, why, sizeof why), 1);
    assert_non_null(strstr(why, "homerow=1"));
    kemet_rules_close(r);
}

/* KO6: the options combine, and with Robinson's rethrow; no option
 * changes another's test. */
static void ko6_combinations(void **state) {
    (void)state;
    const char *all = R ":pieces=5,start=1,trap=1,homerow=1";
    char pos[160], want[160];
    /* all four: player 2 waiting, player 1 has 5 on 1-10 and 24 */
    snprintf(pos, sizeof pos, "%s to=1 p1=5,24 p2=12 wait=2", all);
    expect_moves(pos, "3", "24-27 5-8");
    expect_moves(pos, "2", "24-26 5-7");
    snprintf(want, sizeof want, "%s to=1 p1=5,26 p2=12 must=26 wait=2", all);
    expect_apply(pos, "2", "24-26", want);
    /* the rethrow from 26: 26-off with 5 stopped by homerow (5 on 1-10);
     * only the piece on 26 may move, so it goes back 5 to 21 */
    snprintf(pos, sizeof pos, "%s to=1 p1=5,26 p2=12 must=26 wait=2", all);
    expect_moves(pos, "5", "26-21");
    /* a waiting player's 1 that lands on 26: out of wait, and the
     * rethrow replaces the bonus */
    expect_apply(R ":start=1 to=1 p1=25 p2=10 wait=1,2", "1", "25-26",
                 R ":start=1 to=1 p1=26 p2=10 must=26 wait=2");
    /* trap and homerow: the fall is no bear-off, so it stays legal with a
     * piece on 1-10 (5-9 blocked: 9 is guarded by 8) */
    expect_moves(K ":trap=1,homerow=1 to=1 p1=5,24 p2=8,9", "4", "24-27");
    /* ... and then the 4 in the water is lost while 5 is on 1-10 */
    expect_moves(K ":trap=1,homerow=1 to=1 p1=5,27 p2=8,9", "4", "pass");
    /* five pieces and trap: the fall of the last piece does not win */
    expect_apply(K ":pieces=5,trap=1 to=1 p1=24 p2=10", "3", "24-27",
                 K ":pieces=5,trap=1 to=2 p1=27 p2=10");
    /* a waiting player's throw is lost before trap or homerow is asked */
    expect_moves(K ":start=1,trap=1 to=1 p1=24 p2=10 wait=1", "4", "pass");
    expect_moves(K ":start=1,homerow=1 to=1 p1=30 p2=12 wait=1", "2", "pass");
    expect_moves(K ":start=1,homerow=1 to=1 p1=30 p2=12 wait=1", "1", "30-off");
}

/* KO7: Robinson's must= names 26 only, and never for a waiting mover. */
static void ko7_must(void **state) {
    (void)state;
    expect_moves(R ":start=1 to=1 p1=3,26 p2=5 must=26 wait=2", "2", "26-28");
    expect_moves(R ":start=1 to=1 p1=3,26 p2=5 must=26 wait=1", "2", "ERR");
    expect_moves(R ":start=1 to=1 p1=3,26 p2=5 must=26 wait=1,2", "2", "ERR");
    expect_moves(R ":start=1 to=1 p1=3,25 p2=5 must=25", "2", "ERR");
    expect_moves(R ":trap=1 to=1 p1=3,27 p2=5 must=27", "2", "ERR");
    expect_moves(K ":start=1 to=1 p1=3,26 p2=5 must=26", "2", "ERR");
    BAD("waiting", "moves", R ":start=1 to=1 p1=3,26 p2=5 must=26 wait=1", "2");
}

/* Endgame tables are kept apart: a table is for its spec only, and a
 * waiting position is in no table. The base ruleset's network judges the
 * options' positions. */
static void tables_and_nets(void **state) {
    (void)state;
    kemet_rules *r, *base, *five;
    kemet_error e;
    assert_int_equal(kemet_rules_open(K ":start=1", &r, &e), KEMET_OK);
    assert_int_equal(kemet_rules_open(K, &base, &e), KEMET_OK);
    assert_int_equal(kemet_rules_open(K ":pieces=5", &five, &e), KEMET_OK);
    kemet_table *t;
    assert_int_equal(kemet_table_solve(r, 1, 1, NULL, NULL, &t, &e), KEMET_OK);
    assert_string_equal(kemet_table_spec(t), K ":start=1");
    kemet_pos p;
    kemet_rules *q = tu_pos(K ":start=1 to=1 p1=29 p2=28", &p);
    double v;
    assert_int_equal(kemet_table_probe(t, &p, &v), 1);
    p.wait = 2; /* the same squares, player 2 still waiting: not there */
    assert_int_equal(kemet_table_probe(t, &p, &v), 0);
    kemet_rules_close(q);
    /* a judge takes only a table of its own spec */
    kemet_judge *j;
    assert_int_equal(kemet_judge_new(base, "linear", &j, &e), KEMET_OK);
    assert_int_equal(kemet_judge_use_table(j, t), KEMET_ERULESET);
    kemet_judge_free(j);
    assert_int_equal(kemet_judge_new(r, "linear", &j, &e), KEMET_OK);
    assert_int_equal(kemet_judge_use_table(j, t), KEMET_OK);
    kemet_judge_free(j);
    kemet_table_free(t);
    /* pieces=5: classes of 1 to 5 pieces a side (7 in the base rules) */
    long long entries;
    assert_int_equal(kemet_table_class(five, 3, &entries, &e), KEMET_OK);
    assert_int_equal(kemet_table_class(five, 6, &entries, &e), KEMET_ERULESET);
    assert_non_null(strstr(e.msg, "1 to 5 pieces"));
    assert_int_equal(kemet_table_class(base, 6, &entries, &e), KEMET_ERULESET);
    assert_null(strstr(e.msg, "1 to 5 pieces"));
    /* the built-in network of the base ruleset judges five pieces */
    assert_int_equal(kemet_judge_new(five, NULL, &j, &e), KEMET_OK);
    assert_non_null(kemet_judge_net(j));
    kemet_pos s;
    kemet_start(five, &s);
    double c = kemet_win_chance(j, &s, 1);
    assert_true(c > 0.2 && c < 0.8);
    /* borne off: four of five is most of the way */
    kemet_rules *q5 = tu_pos(K ":pieces=5 to=1 p1=30 p2=1,2,3,4,5", &s);
    assert_true(kemet_win_chance(j, &s, 1) > c);
    kemet_rules_close(q5);
    kemet_judge_free(j);
    kemet_rules_close(five);
    kemet_rules_close(base);
    kemet_rules_close(r);
}

/* The fast playout gives the very games of the generic loop (moves
 * listed by kemet_moves, made by kemet_make) in every combination of the
 * options, on both rulesets; games stopped by the cap too. */
static void fast_playout_matches_generic(void **state) {
    (void)state;
    static const char *const keys[4] = {"pieces=5", "start=1", "trap=1",
                                        "homerow=1"};
    for (int base = 0; base < 2; base++)
        for (int mask = 0; mask < 16; mask++) {
            char spec[96];
            size_t at = (size_t)snprintf(spec, sizeof spec, "%s", base ? R : K);
            for (int k = 0; k < 4; k++)
                if (mask & (1 << k))
                    at += (size_t)snprintf(
                        spec + at, sizeof spec - at, "%c%s",
                        at == strlen(base ? R : K) ? ':' : ',', keys[k]);
            kemet_rules *r;
            kemet_error e;
            assert_int_equal(kemet_rules_open(spec, &r, &e), KEMET_OK);
            /* besides the start, a set-up position play never reaches
             * with start=1: a waiting player with a piece in the water */
            kemet_pos setup = {
                .sq = {KMT_BIT(5) | KMT_BIT(27), KMT_BIT(10) | KMT_BIT(12)},
                .to = 1};
            if (mask & 2)
                setup.wait = 3;
            assert_int_equal(kemet_pos_check(r, &setup, &e), KEMET_OK);
            for (uint64_t s = 0; s < 400; s++) {
                kemet_game *a, *b;
                kemet_rng pa, pb;
                kemet_rng_seed(&pa, s * 7 + 1);
                kemet_rng_seed(&pb, s * 7 + 1);
                if (s % 4 == 3) {
                    assert_int_equal(kemet_game_setup(r, s, &setup, &a, &e),
                                     KEMET_OK);
                    assert_int_equal(kemet_game_setup(r, s, &setup, &b, &e),
                                     KEMET_OK);
                } else {
                    assert_int_equal(kemet_game_new(r, s, &a, NULL), KEMET_OK);
                    assert_int_equal(kemet_game_new(r, s, &b, NULL), KEMET_OK);
                }
                long cap = s % 3 == 0 ? (long)(s % 100) + 1 : 100000;
                assert_int_equal(kemet_game_playout(a, &pa, cap, 0), KEMET_OK);
                assert_int_equal(kemet_game_playout(b, &pb, cap, 1), KEMET_OK);
                const kemet_pos *end = kemet_game_pos(a);
                assert_memory_equal(end, kemet_game_pos(b), sizeof *end);
                assert_int_equal(kemet_game_plies(a), kemet_game_plies(b));
                assert_memory_equal(&pa, &pb, sizeof pa);
                /* a finished game has nobody waiting (R3) */
                if (end->result != KEMET_PLAYING)
                    assert_int_equal(end->wait, 0);
                if (!(mask & 2))
                    assert_int_equal(end->wait, 0);
                kemet_game_free(a);
                kemet_game_free(b);
            }
            kemet_rules_close(r);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(r2_option_syntax),
        cmocka_unit_test(notation_examples),
        cmocka_unit_test(ko1_base_stays),
        cmocka_unit_test(ko2_five_pieces),
        cmocka_unit_test(ko3_start_throw),
        cmocka_unit_test(ko3_wait_field),
        cmocka_unit_test(ko4_trap),
        cmocka_unit_test(ko5_homerow),
        cmocka_unit_test(ko6_combinations),
        cmocka_unit_test(ko7_must),
        cmocka_unit_test(tables_and_nets),
        cmocka_unit_test(fast_playout_matches_generic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
