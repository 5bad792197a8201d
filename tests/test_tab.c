/* test_tab.c - Tab on the 58 holes (tab-58, reconstructions §6), the family
 * "tab" of its built-in ruleset file (data/rulesets/tab-58.rules): the
 * worked examples of the spec, exactly, and one test group per rule and
 * ruling (rules 1-10, TB1-TB13) with cases the rule allows and cases it
 * forbids, every answer worked out by hand from the rules. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S "tab-58 "
#define START "l1=1,2,3,4,5"

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted moves of `ptext` for `ttext`, "throw" first where the
 * player may throw, or "ERR". */
static char *tab_moves(const char *ptext, const char *ttext) {
    kemet_rules *r;
    kemet_pos p;
    kemet_throw t;
    kemet_error e;
    char *out = calloc(1, 8192);
    if (kemet_pos_parse(ptext, &r, &p, &e)) {
        strcpy(out, "ERR");
        return out;
    }
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    char **names = malloc((KEMET_MAX_MOVES + 1) * sizeof *names);
    int n = -1, k = 0;
    if (kemet_throw_parse(r, ttext, &t, &e) == KEMET_OK &&
        !(t.n && kemet_throw_kept(r, &p) == 1)) {
        if (t.n == 0 && kemet_throw_kept(r, &p) != 1) {
            names[k++] = strdup("throw");
            n = kemet_prethrow(r, &p, list);
        } else
            n = kemet_moves(r, &p, &t, list);
    }
    if (n < 0) {
        strcpy(out, "ERR");
        n = 0;
    }
    for (int i = 0; i < n; i++) {
        char buf[64];
        kemet_move_format(&list[i], buf, sizeof buf);
        names[k++] = strdup(buf);
    }
    qsort(names, (size_t)k, sizeof names[0], cmp_str);
    for (int i = 0; i < k; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, names[i]);
        free(names[i]);
    }
    free(names);
    free(list);
    kemet_rules_close(r);
    return out;
}

static char *tab_apply(const char *ptext, const char *ttext,
                       const char *mtext) {
    kemet_rules *r;
    kemet_pos p, q;
    kemet_throw t;
    kemet_move m;
    kemet_error e;
    char *out = calloc(1, 1024);
    if (kemet_pos_parse(ptext, &r, &p, &e)) {
        snprintf(out, 1024, "ERR: %s", e.msg);
        return out;
    }
    if (kemet_throw_parse(r, ttext, &t, &e) ||
        kemet_move_parse(r, mtext, &m, &e))
        snprintf(out, 1024, "ERR: %s", e.msg);
    else if (t.n && kemet_throw_kept(r, &p) == 1)
        snprintf(out, 1024, "ERR: a new throw where left= waits");
    else {
        int rc = kemet_apply(r, &p, &t, &m, &q, NULL);
        if (rc)
            snprintf(out, 1024, "ERR: %s", kemet_strerror(rc));
        else
            kemet_pos_format(r, &q, out, 1024);
    }
    kemet_rules_close(r);
    return out;
}

static void moves(const char *pos, const char *thr, const char *want) {
    char *got = tab_moves(pos, thr);
    if (strcmp(got, want) != 0)
        fail_msg("moves '%s' %s: want '%s', got '%s'", pos, thr, want, got);
    free(got);
}

static void apply(const char *pos, const char *thr, const char *move,
                  const char *want) {
    char *got = tab_apply(pos, thr, move);
    if (strncmp(want, "ERR", 3) == 0 ? strncmp(got, "ERR", 3) != 0
                                     : strcmp(got, want) != 0)
        fail_msg("apply '%s' %s %s: want '%s', got '%s'", pos, thr, move, want,
                 got);
    free(got);
}

/* A position that must be refused. */
static void bad_pos(const char *text) {
    kemet_rules *r = NULL;
    kemet_pos p;
    kemet_error e;
    if (kemet_pos_parse(text, &r, &p, &e) == KEMET_OK) {
        kemet_rules_close(r);
        fail_msg("position accepted: %s", text);
    }
}

/* The Notation block of §6, command by command. */
static void spec_examples(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open("tab-58", &r, &e), KEMET_OK);
    kemet_pos p;
    char buf[256];
    kemet_start(r, &p);
    kemet_pos_format(r, &p, buf, sizeof buf);
    assert_string_equal(buf, S "to=1 p1=1,2,3,4,5 l1=1,2,3,4,5 p2=1,2,3,4,5 "
                               "l2=1,2,3,4,5");
    kemet_rules_close(r);
    const char *st = S "to=1 p1=1,2,3,4,5 " START " p2=1,2,3,4,5 l2=1,2,3,4,5";
    moves(st, "6,4,2", "pass");
    apply(st, "1,3", "5-6",
          S "to=1 p1=1,2,3,4,6 l1=1,2,3,4 p2=1,2,3,4,5 l2=1,2,3,4,5 left=3");
    const char *l3 =
        S "to=1 p1=1,2,3,4,6 l1=1,2,3,4 p2=1,2,3,4,5 l2=1,2,3,4,5 left=3";
    moves(l3, "none", "6-9");
    apply(l3, "none", "6-9",
          S "to=2 p1=1,2,3,4,9 l1=1,2,3,4 p2=1,2,3,4,5 l2=1,2,3,4,5");
    const char *c27 =
        S "to=1 p1=1,2,3,4,27 l1=1,2,3,4 p2=1,2,3,4,27 l2=1,2,3,4";
    moves(c27, "6,3", "27-30 27-33");
    apply(c27, "6,3", "27-33",
          S "to=1 p1=1,2,3,4,33 l1=1,2,3,4 p2=1,2,3,4 l2=1,2,3,4 left=3");
    apply("tab-58:marks=safe,lines=parallel to=1 p1=1,2,3,4,5 "
          "l1=1,2,3,4,5 p2=1,2,3,4,5 l2=1,2,3,4,5",
          "1,2", "5-6-20",
          "tab-58:marks=safe,lines=parallel to=1 p1=1,2,3,4,20 l1=1,2,3,4 "
          "p2=1,2,3,4,5 l2=1,2,3,4,5 left=2");
}

/* Rule 1, TB11, TB13: a turn's throws, their order, their chances. */
static void rule1_throws(void **state) {
    (void)state;
    const char *st = S "to=1 p1=1,2,3,4,5 " START " p2=1,2,3,4,5 l2=1,2,3,4,5";
    moves(st, "2", "pass");
    moves(st, "1,1,3", "5-6");
    moves(st, "2,1", "ERR");  /* a 2 ends the throwing */
    moves(st, "1,4", "ERR");  /* a 4 throws again: not the last */
    moves(st, "5", "ERR");    /* four sticks never show 5 */
    moves(st, "1,42", "ERR"); /* no device throws 42 (a fault fuzz_move
                                 found: its bit was shifted out of range) */
    moves(st, "1,7", "ERR");
    moves(st, "1,1,1,1,1,1,1,1", "5-6"); /* the eighth ends it (TB13) */
    moves(st, "1,1,1,1,1,1,1,2", "5-6");
    moves(st, "1,1,1,1,1,1,1,1,2", "ERR"); /* nine values */
    moves("tab-58:dice=d6 to=1 p1=1,2,3,4,5 " START
          " p2=1,2,3,4,5 l2=1,2,3,4,5",
          "6,5", "pass");
    moves("tab-58:dice=d4 to=1 p1=1,2,3,4,5 " START
          " p2=1,2,3,4,5 l2=1,2,3,4,5",
          "6,2", "ERR");
    /* the outcomes: distinct multisets; their weights sum to the total,
     * and the chance of one throw of 2 first is 6/16 */
    const char *specs[] = {"tab-58", "tab-58:dice=d4", "tab-58:dice=d6"};
    const int want_n[] = {285, 81, 405};
    for (int i = 0; i < 3; i++) {
        kemet_rules *r;
        kemet_error e;
        assert_int_equal(kemet_rules_open(specs[i], &r, &e), KEMET_OK);
        kemet_pos p;
        kemet_start(r, &p);
        kemet_throw *t = malloc(KEMET_MAX_THROWS * sizeof *t);
        kemet_weight *w = malloc(KEMET_MAX_THROWS * sizeof *w), total = 0,
                     sum = 0;
        int n = kemet_throws(r, &p, t, w, &total);
        assert_int_equal(n, want_n[i]);
        for (int k = 0; k < n; k++) {
            sum += w[k];
            if (i == 0 && t[k].n == 1 && t[k].v[0] == 2)
                assert_true(w[k] * 16 == total * 6);
            if (i == 0 && t[k].n == 2 && t[k].v[0] == 1 && t[k].v[1] == 3)
                assert_true(w[k] * 256 == total * 16); /* 1 then 3 */
            if (i == 0 && t[k].n == 8 && t[k].v[0] == 4 && t[k].v[7] == 4)
                assert_true(w[k] == 1); /* eight 4s: 1 in 16^8 */
        }
        assert_true(sum == total);
        /* thrown: a sequence the rules allow, with the thrown count */
        kemet_rng rng;
        kemet_rng_seed(&rng, 7);
        for (int k = 0; k < 2000; k++) {
            kemet_throw x;
            kemet_roll(r, &p, &rng, &x);
            kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
            assert_true(kemet_moves(r, &p, &x, list) >= 1);
            free(list);
            assert_int_equal(x.sticks, x.n);
        }
        free(t);
        free(w);
        kemet_rules_close(r);
    }
}

/* Rules 2-3, TB2, TB3: values one at a time; locked pieces move by a 1
 * only, one hole, and are free from then on; left= keeps every value
 * while one can be used. */
static void rules2_3_values_and_locks(void **state) {
    (void)state;
    const char *st = S "to=1 p1=1,2,3,4,5 " START " p2=1,2,3,4,5 l2=1,2,3,4,5";
    /* only the front piece can step (the others would land on their own) */
    moves(st, "1,2", "5-6");
    /* a 4 and a 1: the 1 frees 5, then the 4 moves it */
    apply(st, "1,4,2", "5-6",
          S "to=1 p1=1,2,3,4,6 l1=1,2,3,4 p2=1,2,3,4,5 l2=1,2,3,4,5 "
            "left=2,4");
    moves(S "to=1 p1=1,2,3,4,6 l1=1,2,3,4 p2=1,2,3,4,5 l2=1,2,3,4,5 "
            "left=2,4",
          "none", "6-10 6-8");
    /* with two 1s the freed 5 steps on or 4 is freed too */
    moves(S "to=1 p1=1,2,3,4,6 l1=1,2,3,4 p2=1,2,3,4,5 l2=1,2,3,4,5 "
            "left=1,3",
          "none", "4-5 6-7 6-9");
    /* a free piece on 3 (it moved there) moves by any value */
    moves(S "to=1 p1=3,9 p2=1,2,3,4,5 l2=1,2,3,4,5", "3", "3-6 9-12");
    /* the turn ends when nothing left can be used: values lost (TB9) */
    apply(S "to=1 p1=1,2,3,4,5 " START " p2=1,2,3,4,5 l2=1,2,3,4,5", "1,2",
          "5-6",
          S "to=1 p1=1,2,3,4,6 l1=1,2,3,4 p2=1,2,3,4,5 l2=1,2,3,4,5 left=2");
    apply(S "to=1 p1=1,2,3,4,5 " START " p2=1,2,3,4,5 l2=1,2,3,4,5", "4,1,3",
          "5-6",
          S "to=1 p1=1,2,3,4,6 l1=1,2,3,4 p2=1,2,3,4,5 l2=1,2,3,4,5 "
            "left=3,4");
    /* a hand-typed left= with nothing usable: pass ends the turn */
    moves(S "to=1 p1=1,2,3,4,5 " START " p2=1,2,3,4,5 l2=1,2,3,4,5 left=3",
          "none", "pass");
    apply(S "to=1 p1=1,2,3,4,5 " START " p2=1,2,3,4,5 l2=1,2,3,4,5 left=3",
          "none", "pass",
          S "to=2 p1=1,2,3,4,5 " START " p2=1,2,3,4,5 l2=1,2,3,4,5");
    /* a new throw while values wait is refused */
    apply(S "to=1 p1=1,2,3,4,6 l1=1,2,3,4 p2=1,2,3,4,5 l2=1,2,3,4,5 left=3",
          "3", "6-9", "ERR");
}

/* Rule 4, TB1: not onto one's own piece; onto the opponent's captures it
 * for good, on the apex too; the last capture wins (rule 7). */
static void rules4_7_capture(void **state) {
    (void)state;
    /* our 26 + 4 = 30, the apex, holds their piece: captured */
    apply(S "to=1 p1=26,40 p2=30,7", "4,2", "26-30",
          S "to=1 p1=30,40 p2=7 left=2");
    /* our 40 + 2 = 42 = their hole 18: empty; their 7 is our 53 */
    moves(S "to=1 p1=26,40 p2=30,7", "2", "26-28 40-42");
    apply(S "to=1 p1=47 p2=7", "6,3", "47-53", S "to=2 p1=53 p2=- winner=1");
    apply(S "to=1 p1=47,49 p2=7", "3", "49-52", S "to=2 p1=47,52 p2=7");
    /* onto one's own piece: no */
    moves(S "to=1 p1=20,22 p2=9", "2", "22-24");
    /* a capture of a locked piece clears its lock (our 57 is their 3) */
    apply(S "to=1 p1=54 p2=3,9 l2=3", "3", "54-57", S "to=2 p1=57 p2=9");
    bad_pos(S "to=1 p1=- p2=9");          /* needs winner=2 */
    bad_pos(S "to=1 p1=3 p2=9 winner=1"); /* player 2 still has a piece */
    bad_pos(S "to=1 p1=31 p2=29");        /* one hole, two pieces */
    bad_pos(S "to=1 p1=30 p2=30");
}

/* Rule 5, TB4: a count may not pass an own piece on own holes 1-5, coming
 * round the loop too; an empty home hole may be passed. */
static void rule5_home_row(void **state) {
    (void)state;
    moves(S "to=1 p1=2,4 p2=20", "3", "4-7"); /* 2-5 would pass 4 */
    /* 1-7 would pass 5; 1-3 passes 2, empty */
    moves(S "to=1 p1=1,5 p2=20", "6,2", "1-3 5-11 5-7");
    moves(S "to=1 p1=2,58 p2=20", "3", "2-5"); /* 58-2 passes 1 only */
    moves(S "to=1 p1=1,58 p2=20", "3", "1-4"); /* 58-2 would pass 1 */
    /* 58 + 4 ends on 3, ours; 58 is frozen anyway (rule 6) */
    moves(S "to=1 p1=3,58 p2=20", "4,3", "3-6 3-7");
    /* round the loop: 59 is followed by 1 */
    moves(S "to=1 p1=58,59 p2=20", "4,3", "58-2 58-3 59-3 59-4");
}

/* Rule 6, TB5: a piece in the opponent's start row (55-59) moves only
 * when every piece left stands there. */
static void rule6_start_row(void **state) {
    (void)state;
    moves(S "to=1 p1=20,56 p2=41", "2", "20-22");
    moves(S "to=1 p1=56,58 p2=40", "2", "58-1"); /* 58 is ours */
    moves(S "to=1 p1=56,57 p2=40", "2", "56-58 57-59");
}

/* Rule 8, TB6: marks=safe protects a piece on a marked hole (hole 1 and
 * the apex included); an empty marked hole may be landed on. */
static void rule8_safe(void **state) {
    (void)state;
    /* their 30 is the apex (marked); their 29 is our 31 (not marked) */
    const char *s = "tab-58:marks=safe to=1 p1=24,27 p2=30,29";
    moves(s, "3", "pass"); /* 24-27 onto ours, 27-30 onto a safe piece */
    moves(s, "6,2", "24-26 27-29 27-33");
    moves(s, "4,3", "24-28 27-31");
    moves("tab-58 to=1 p1=24,27 p2=30,29", "3", "27-30");
    /* their hole 1 is our 59: marked (TB6 includes hole 1) */
    moves("tab-58:marks=safe to=1 p1=56 p2=1", "3", "pass");
    moves("tab-58:marks=safe to=1 p1=56 p2=1,2", "3", "pass");
    moves("tab-58 to=1 p1=56 p2=1,2", "3", "56-59");
}

/* Rule 9, TB7, TB9: marks=throw: a count ending on a marked hole earns
 * one more turn, played after this turn's values. */
static void rule9_again(void **state) {
    (void)state;
    apply("tab-58:marks=throw to=1 p1=2,12 p2=20", "1,3", "12-15",
          "tab-58:marks=throw to=1 p1=2,15 p2=20 left=1 again=1");
    apply("tab-58:marks=throw to=1 p1=2,15 p2=20 left=1 again=1", "none",
          "15-16", "tab-58:marks=throw to=1 p1=2,16 p2=20");
    /* the last value on a marked hole: the turn ends, another begins */
    apply("tab-58:marks=throw to=1 p1=2,12 p2=20", "3", "12-15",
          "tab-58:marks=throw to=1 p1=2,15 p2=20");
    apply("tab-58:marks=throw to=1 p1=2,11 p2=20", "3", "11-14",
          "tab-58:marks=throw to=2 p1=2,14 p2=20");
    bad_pos("tab-58 to=1 p1=2 p2=20 left=1 again=1"); /* needs marks=throw */
    bad_pos("tab-58:marks=throw to=1 p1=2 p2=20 again=1"); /* needs left= */
}

/* Rule 10, TB8: lines 6 -> 20 and 8 -> 10 on one's own side, 40 -> 54
 * and 50 -> 52 on the opponent's; taken unless the far end holds one's
 * own piece or a protected one; a piece there is captured. */
static void rule10_lines(void **state) {
    (void)state;
    moves("tab-58:lines=parallel to=1 p1=3 p2=9", "3", "3-6-20");
    moves("tab-58:lines=parallel to=1 p1=3,20 p2=9", "3", "20-23 3-6");
    moves("tab-58:lines=parallel to=1 p1=5 p2=50", "3", "5-8-10");
    /* their 50 is our 10: captured at the line's end */
    apply("tab-58:lines=parallel to=1 p1=5 p2=50,9", "3", "5-8-10",
          "tab-58:lines=parallel to=2 p1=10 p2=9");
    /* on their side: our 38 + 2 = 40, on to 54 */
    moves("tab-58:lines=parallel to=1 p1=38 p2=9", "2", "38-40-54");
    /* backward never: 20 -> 6 is not a line for us */
    moves("tab-58:lines=parallel to=1 p1=18 p2=9", "2", "18-20");
    /* with marks=safe a protected piece at the far end stops the line
     * (their 40 is our 20, not marked; their 10 is our 50, marked) */
    moves("tab-58:marks=safe,lines=parallel to=1 p1=3 p2=40", "3", "3-6");
    moves("tab-58:marks=safe,lines=parallel to=1 p1=48 p2=10", "2", "pass");
    moves("tab-58:lines=parallel to=1 p1=48 p2=10", "2", "48-50-52");
    /* TB12: FROM-END names the one line move */
    apply("tab-58:lines=parallel to=1 p1=3 p2=9", "3", "3-20",
          "tab-58:lines=parallel to=2 p1=20 p2=9");
}

/* R3: the new fields, their order and their errors. */
static void notation_fields(void **state) {
    (void)state;
    bad_pos(S "to=1 p1=1,2 l1=7 p2=9");     /* locked only on 1-5 */
    bad_pos(S "to=1 p1=1,2 l1=3 p2=9");     /* no piece on 3 */
    bad_pos(S "to=1 p1=1,2 l1=2,1 p2=9");   /* ascending */
    bad_pos(S "to=1 p1=1,2 p2=9 left=5");   /* not a value of the sticks */
    bad_pos(S "to=1 p1=1,2 p2=9 left=3,1"); /* ascending */
    bad_pos(S "to=1 p1=1,2 p2=9 left=1,1,1,1,1,1,1,1,1");
    bad_pos(S "to=1 p1=- p2=9 left=1 winner=2");
    bad_pos("senet-kendall to=1 p1=1 p2=2 l1=1");
    bad_pos("senet-kendall to=1 p1=1 p2=2 left=1");
    /* the canonical order and a round trip */
    kemet_rules *r;
    kemet_pos p;
    kemet_error e;
    const char *t = "tab-58:marks=throw to=1 p1=1,7 l1=1 p2=2,3 l2=2,3 "
                    "left=1,1,6 again=1";
    assert_int_equal(kemet_pos_parse(t, &r, &p, &e), KEMET_OK);
    char buf[256];
    kemet_pos_format(r, &p, buf, sizeof buf);
    assert_string_equal(buf, t);
    assert_int_equal(kemet_left_count(&p, 1), 2);
    assert_int_equal(kemet_left_count(&p, 6), 1);
    assert_true(kemet_throw_kept(r, &p) == 1);
    /* with left=, the throw is no new one: `none` */
    kemet_rng rng;
    kemet_rng_seed(&rng, 1);
    kemet_throw k;
    kemet_roll(r, &p, &rng, &k);
    assert_int_equal(k.sticks, KEMET_KEPT);
    kemet_throw_format(&k, buf, sizeof buf);
    assert_string_equal(buf, "none");
    kemet_rules_close(r);
}

/* Whole random games: every one ends by capture or is stopped by the cap
 * (TB10), the notation round-trips after every ply. */
static void random_games(void **state) {
    (void)state;
    const char *specs[] = {"tab-58", "tab-58:marks=throw", "tab-58:marks=safe",
                           "tab-58:marks=safe,lines=parallel",
                           "tab-58:dice=d6"};
    for (int i = 0; i < 5; i++) {
        kemet_rules *r;
        kemet_error e;
        assert_int_equal(kemet_rules_open(specs[i], &r, &e), KEMET_OK);
        kemet_rng pick;
        kemet_rng_seed(&pick, 3);
        kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
        int ended = 0;
        for (int g = 0; g < 40; g++) {
            kemet_game *game;
            assert_int_equal(kemet_game_new(r, (uint64_t)g, &game, NULL),
                             KEMET_OK);
            while (kemet_result(kemet_game_pos(game)) == KEMET_PLAYING &&
                   kemet_game_turns(game) < 1000) {
                kemet_throw t;
                /* values still to play are pending: no throw for them */
                if (kemet_game_throw(game))
                    t = *kemet_game_throw(game);
                else
                    assert_int_equal(kemet_game_roll(game, &t), KEMET_OK);
                assert_int_equal(t.sticks == KEMET_KEPT,
                                 kemet_throw_kept(r, kemet_game_pos(game)));
                int n = kemet_moves(r, kemet_game_pos(game), &t, list);
                assert_true(n >= 1);
                int k = (int)kemet_rng_below(&pick, (uint32_t)n);
                assert_int_equal(kemet_game_play(game, &list[k], NULL),
                                 KEMET_OK);
                char buf[256];
                kemet_pos back;
                kemet_pos_format(r, kemet_game_pos(game), buf, sizeof buf);
                assert_int_equal(kemet_pos_read(r, buf, &back, &e), KEMET_OK);
                assert_memory_equal(&back, kemet_game_pos(game), sizeof back);
            }
            ended += kemet_result(kemet_game_pos(game)) != KEMET_PLAYING;
            /* the record replays to the same end */
            char *text;
            assert_int_equal(kemet_game_record(game, &text), KEMET_OK);
            kemet_game *again;
            assert_int_equal(kemet_game_read(r, text, &again, &e), KEMET_OK);
            assert_memory_equal(kemet_game_pos(again), kemet_game_pos(game),
                                sizeof(kemet_pos));
            kemet_game_free(again);
            kemet_free(text);
            kemet_game_free(game);
        }
        assert_true(ended >= 30);
        free(list);
        kemet_rules_close(r);
    }
}

/* The positions `depth` plies ahead, as kemet perft counts them: a ply
 * is one distinct throw outcome (the values still to play, where they
 * wait) with one of its legal moves; a finished game counts once. */
static long long perft(const kemet_rules *r, const kemet_pos *pos, int depth) {
    if (depth == 0 || kemet_result(pos) != KEMET_PLAYING)
        return 1;
    kemet_throw *t = malloc(KEMET_MAX_THROWS * sizeof *t);
    kemet_weight *w = malloc(KEMET_MAX_THROWS * sizeof *w), total;
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    long long n = 0;
    int nt = kemet_throws(r, pos, t, w, &total);
    for (int i = 0; i < nt; i++) {
        int k = kemet_moves(r, pos, &t[i], list);
        assert_true(k >= 1);
        for (int j = 0; j < k; j++) {
            kemet_pos next;
            kemet_make(r, pos, &t[i], &list[j], &next, NULL);
            n += perft(r, &next, depth - 1);
        }
    }
    free(t);
    free(w);
    free(list);
    return n;
}

/* (depth 2 under the sanitizers' build, whose every ply is many times
 * slower) */
#ifdef KEMET_CHECKS
enum { DEPTH = 2 };
#else
enum { DEPTH = 3 };
#endif

/* The perft counts from the start, to depth 3, of the four rulesets
 * Ludii names and the two dice; the same counts come from a second
 * program written from the rules alone. */
static void perft_counts(void **state) {
    (void)state;
    static const struct {
        const char *spec;
        long long n[3];
    } want[] = {
        {"tab-58", {285, 23813, 1932069}},
        {"tab-58:marks=throw", {285, 23813, 1933611}},
        {"tab-58:marks=safe", {285, 23813, 1932069}},
        {"tab-58:marks=safe,lines=parallel", {285, 23813, 1932160}},
        {"tab-58:dice=d4", {81, 1580, 27676}},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        kemet_rules *r;
        kemet_error e;
        assert_int_equal(kemet_rules_open(want[i].spec, &r, &e), KEMET_OK);
        kemet_pos p;
        kemet_start(r, &p);
        for (int d = 1; d <= DEPTH; d++)
            if (perft(r, &p, d) != want[i].n[d - 1])
                fail_msg("perft %s %d: want %lld, got %lld", want[i].spec, d,
                         want[i].n[d - 1], perft(r, &p, d));
        kemet_rules_close(r);
    }
}

/* The game driver: values still to play are the pending throw at once
 * (no throw is made for them); a take-back and a record bring the same
 * game back. */
static void driver_keeps_values(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_pos p;
    kemet_error e;
    kemet_game *g, *h;
    char text[256];
    /* set up with a 2 and a 3 still to play */
    assert_int_equal(
        kemet_pos_parse(S "to=1 p1=10,40 p2=7 left=2,3", &r, &p, &e), KEMET_OK);
    assert_int_equal(kemet_game_setup(r, 1, &p, &g, &e), KEMET_OK);
    assert_int_equal(kemet_game_next(g), KEMET_NEXT_MOVE);
    const kemet_throw *t = kemet_game_throw(g);
    assert_non_null(t);
    assert_int_equal(t->sticks, KEMET_KEPT);
    assert_int_equal(t->n, 2);
    assert_int_equal(t->v[0], 2);
    assert_int_equal(t->v[1], 3);
    kemet_throw thr;
    assert_int_equal(kemet_game_roll(g, &thr), KEMET_EMISUSE);
    /* 10-12 with the 2: the 3 waits, still pending, still White's */
    kemet_move m;
    assert_int_equal(kemet_move_parse(r, "10-12", &m, &e), KEMET_OK);
    assert_int_equal(kemet_game_play(g, &m, NULL), KEMET_OK);
    kemet_pos_format(r, kemet_game_pos(g), text, sizeof text);
    assert_string_equal(text, S "to=1 p1=12,40 p2=7 left=3");
    assert_int_equal(kemet_game_next(g), KEMET_NEXT_MOVE);
    t = kemet_game_throw(g);
    assert_non_null(t);
    assert_int_equal(t->n, 1);
    assert_int_equal(t->v[0], 3);
    assert_int_equal(kemet_game_turns(g), 1);
    /* 40-43 with the 3: Black's turn, a throw to make */
    assert_int_equal(kemet_move_parse(r, "40-43", &m, &e), KEMET_OK);
    assert_int_equal(kemet_game_play(g, &m, NULL), KEMET_OK);
    assert_int_equal(kemet_game_pos(g)->to, 2);
    assert_int_equal(kemet_game_next(g), KEMET_NEXT_THROW);
    assert_null(kemet_game_throw(g));
    /* the record reads back to the same position */
    char *rec;
    assert_int_equal(kemet_game_record(g, &rec), KEMET_OK);
    assert_int_equal(kemet_game_read(r, rec, &h, &e), KEMET_OK);
    assert_int_equal(kemet_game_plies(h), 2);
    kemet_pos_format(r, kemet_game_pos(h), text, sizeof text);
    assert_string_equal(text, S "to=2 p1=12,43 p2=7");
    kemet_game_free(h);
    /* read back, its plies are the driver's: the second one's throw the
     * 3 still to play, not a move made before throwing */
    kemet_rules *rr;
    kemet_pos start;
    kemet_ply *plies;
    long n;
    assert_int_equal(kemet_record_read(rec, &rr, &start, &plies, &n, &e),
                     KEMET_OK);
    assert_int_equal(n, 2);
    for (long i = 0; i < n; i++) {
        assert_true(
            kemet_throw_equal(&plies[i].thr, &kemet_game_history(g)[i].thr));
        assert_int_equal(plies[i].thr.sticks, KEMET_KEPT);
    }
    kemet_free(plies);
    kemet_rules_close(rr);
    free(rec);
    /* back to the second ply: the 3 pending again */
    assert_int_equal(kemet_game_back(g, 1), KEMET_OK);
    kemet_pos_format(r, kemet_game_pos(g), text, sizeof text);
    assert_string_equal(text, S "to=1 p1=12,40 p2=7 left=3");
    t = kemet_game_throw(g);
    assert_non_null(t);
    assert_int_equal(t->sticks, KEMET_KEPT);
    kemet_game_free(g);
    /* a move explained before the throw (NULL: no values yet) says to
     * throw first; it once read the missing throw (fuzz_move) */
    char why[200];
    kemet_pos q;
    kemet_rules *r2;
    assert_int_equal(kemet_pos_parse(S "to=1 p1=3,20 p2=6", &r2, &q, &e),
                     KEMET_OK);
    assert_int_equal(kemet_move_parse(r2, "3-6-20", &m, &e), KEMET_OK);
    assert_int_equal(kemet_explain(r2, &q, NULL, &m, why, sizeof why), 1);
    assert_non_null(strstr(why, "throw first"));
    kemet_rules_close(r2);
    kemet_rules_close(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_examples),
        cmocka_unit_test(rule1_throws),
        cmocka_unit_test(rules2_3_values_and_locks),
        cmocka_unit_test(rules4_7_capture),
        cmocka_unit_test(rule5_home_row),
        cmocka_unit_test(rule6_start_row),
        cmocka_unit_test(rule8_safe),
        cmocka_unit_test(rule9_again),
        cmocka_unit_test(rule10_lines),
        cmocka_unit_test(notation_fields),
        cmocka_unit_test(random_games),
        cmocka_unit_test(perft_counts),
        cmocka_unit_test(driver_keeps_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
