/* test_notation.c - the position, move and throw notation of
 * docs/notation.md: canonical output, fields in any order, and
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
    expect_bad("senet-kendall to=1 p1=1,,3 p2=2", KEMET_ESYNTAX,
               "not a square");
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
    expect_bad("senet-kendall to=1 p1=26 p2=6 must=26", KEMET_ESYNTAX, "must=");
    expect_bad("senet-robinson to=1 p1=6 p2=26 must=26", KEMET_ESYNTAX,
               "no piece");
    /* Robinson's rethrow is from 26 alone: must= names no other square,
     * though a piece of the mover stands there */
    expect_bad("senet-robinson to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14 "
               "must=1",
               KEMET_ESYNTAX, "only from square 26");
    expect_bad("senet-robinson to=1 p1=26 p2=6 must=6", KEMET_ESYNTAX,
               "only from square 26");
    expect_bad("chien-chacal to=1 p1=3 h1=4 p2=1 h2=4 must=3", KEMET_ESYNTAX,
               "only from squares 1, 15, 25");
    expect_bad("senet-robinson to=1 p1=26 p2=6 must=26 winner=1", KEMET_ESYNTAX,
               "together");
    expect_bad("senet-kendall to=1 p1=5 p2=6 winner=3", KEMET_ESYNTAX,
               "0, 1 or 2");
    expect_bad("senet-kendall to=1 p1=- p2=6", KEMET_ESYNTAX, "winner=1");
    expect_bad("senet-kendall to=1 p1=5 p2=6 junk", KEMET_ESYNTAX, "key=value");
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
    /* FROM-END-TO: a step that ends its count on a line's or river's end
     * and follows it (the track rulesets, docs/notation.md) */
    assert_int_equal(kemet_move_parse(r, "7-13-9+in-2", &m, &e), KEMET_OK);
    assert_int_equal(m.n, 2);
    assert_int_equal(m.step[0].from, 7);
    assert_int_equal(m.step[0].via, 13);
    assert_int_equal(m.step[0].to, 9);
    assert_int_equal(m.step[1].from, KEMET_HAND);
    assert_int_equal(m.step[1].via, 0);
    kemet_move_format(&m, buf, sizeof buf);
    assert_string_equal(buf, "7-13-9+in-2");
    kemet_move short_form;
    assert_int_equal(kemet_move_parse(r, "7-9+in-2", &short_form, &e),
                     KEMET_OK);
    assert_int_equal(short_form.step[0].via, 0);
    assert_false(kemet_move_equal(&m, &short_form)); /* two texts */
    const char *bad[] = {"",       "5",    "5-",      "-5",     "a-b",
                         "off-5",  "5-in", "5-31",    "0-3",    "5-6+",
                         "passs",  "5--6", "5-6-7-8", "5-in-7", "5-off-7",
                         "5-31-7", "5-6-", "5--7"};
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
        assert_int_equal(kemet_rules_open(kemet_ruleset_id(i), &r, &e),
                         KEMET_OK);
        const kemet_info *info = kemet_rules_info(r);
        assert_string_equal(info->id, kemet_ruleset_id(i));
        /* the source by publication, never by a file name; an author
         * (or how the source names nobody), a year or 0, one line */
        assert_null(strstr(info->source, "seed"));
        assert_null(strstr(info->source, ".txt"));
        assert_null(strstr(info->text, "seed"));
        assert_true(strlen(info->author) > 5);
        assert_true(info->year == 0 ||
                    (info->year > 1900 && info->year < 2100));
        assert_true(strlen(info->about) > 20);
        assert_null(strchr(info->about, '\n'));
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
    assert_int_equal(kemet_rules_open("senet-kendall:", &r, &e),
                     KEMET_ERULESET);
    assert_null(kemet_ruleset_id(-1));
    assert_string_equal(kemet_strerror(KEMET_EILLEGAL), "illegal move");
}

/* Positions the library could not have made are refused with
 * KEMET_EMISUSE by every entry point that returns a status (a hand-made
 * `to=0` once read out of bounds in kemet_moves). */
static void misuse(void **state) {
    (void)state;
    kemet_rules *r, *other;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &err), KEMET_OK);
    assert_int_equal(kemet_rules_open("chien-chacal", &other, &err), KEMET_OK);
    kemet_pos good;
    kemet_start(r, &good);
    kemet_throw thr;
    assert_int_equal(kemet_throw_parse(r, "3", &thr, &err), KEMET_OK);
    static kemet_move list[KEMET_MAX_MOVES];
    static kemet_throw outs[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS], total;
    assert_true(kemet_moves(r, &good, &thr, list) > 0);
    kemet_move m = list[0];
    kemet_pos bad[7];
    for (int i = 0; i < 7; i++)
        bad[i] = good;
    bad[0].to = 0;
    bad[1].to = 3;
    bad[2].result = 9;
    bad[3].pad_ = 1;
    bad[4].sq[0] |= 1ULL << 40;               /* Senet has 30 squares */
    int pieces = kemet_rules_info(r)->pieces; /* all on the board at first */
    bad[5].hand[1] = 1;                       /* one more than there are */
    bad[6].must = 50;
    for (int i = 0; i < 7; i++) {
        kemet_pos out;
        char why[128];
        assert_int_equal(kemet_moves(r, &bad[i], &thr, list), KEMET_EMISUSE);
        assert_int_equal(kemet_prethrow(r, &bad[i], list), KEMET_EMISUSE);
        assert_int_equal(kemet_throws(r, &bad[i], outs, w, &total),
                         KEMET_EMISUSE);
        assert_int_equal(kemet_apply(r, &bad[i], &thr, &m, &out, NULL),
                         KEMET_EMISUSE);
        assert_int_equal(
            kemet_next_steps(r, &bad[i], &thr, &(kemet_move){0}, list, NULL),
            KEMET_EMISUSE);
        assert_int_equal(kemet_explain(r, &bad[i], &thr, &m, why, sizeof why),
                         KEMET_EMISUSE);
    }
    /* A position with a piece beyond Chien et Chacal's holes is not one
     * of its positions. */
    kemet_pos far = good;
    far.sq[0] = 1ULL << 30;
    assert_int_equal(kemet_moves(other, &far, &thr, list), KEMET_EMISUSE);
    /* NULLs */
    kemet_pos out;
    assert_int_equal(kemet_moves(NULL, &good, &thr, list), KEMET_EMISUSE);
    assert_int_equal(kemet_moves(r, NULL, &thr, list), KEMET_EMISUSE);
    assert_int_equal(kemet_moves(r, &good, &thr, NULL), KEMET_EMISUSE);
    assert_int_equal(kemet_apply(r, &good, &thr, NULL, &out, NULL),
                     KEMET_EMISUSE);
    assert_int_equal(kemet_apply(r, &good, &thr, &m, NULL, NULL),
                     KEMET_EMISUSE);
    assert_int_equal(kemet_throws(r, &good, NULL, w, &total), KEMET_EMISUSE);
    assert_int_equal(kemet_on_board(&good, 0), KEMET_EMISUSE);
    assert_int_equal(kemet_on_board(&good, 3), KEMET_EMISUSE);
    assert_int_equal(kemet_on_board(NULL, 1), KEMET_EMISUSE);
    assert_int_equal(kemet_on_board(&good, 1), pieces);
    /* and the good position still works everywhere */
    assert_int_equal(kemet_apply(r, &good, &thr, &m, &out, NULL), KEMET_OK);
    assert_true(kemet_throws(r, &good, outs, w, &total) > 0);
    kemet_rules_close(other);
    kemet_rules_close(r);
}

/* kemet_describe: the sentences of a move, the buffer's size respected. */
static void describe(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_pos p, q;
    kemet_error err;
    r = tu_pos("hounds-jackals-skiryuk to=1 p1=3 h1=4 p2=2 h2=4", &p);
    kemet_throw thr;
    assert_int_equal(kemet_throw_parse(r, "2", &thr, &err), KEMET_OK);
    kemet_move m;
    assert_int_equal(kemet_move_parse(r, "3-5", &m, &err), KEMET_OK);
    kemet_events ev;
    assert_int_equal(kemet_apply(r, &p, &thr, &m, &q, &ev), KEMET_OK);
    char text[KEMET_DESCRIBE_MAX];
    int n = kemet_describe(r, &ev, text, sizeof text);
    assert_true(n > 0);
    assert_int_equal(n, (int)strlen(text));
    assert_non_null(strstr(text, "  Hounds move 3-5.\n"));
    char small[8];
    assert_int_equal(kemet_describe(r, &ev, small, sizeof small), KEMET_ERANGE);
    assert_int_equal(strlen(small), 7);
    assert_int_equal(kemet_describe(r, NULL, text, sizeof text), KEMET_EMISUSE);
    ev.n = 0;
    assert_int_equal(kemet_describe(r, &ev, text, sizeof text), 0);
    assert_string_equal(text, "");
    kemet_rules_close(r);
    /* Skiryuk rule 21: a piece leaving the Shen goes back to hand */
    r = tu_pos("hounds-jackals-skiryuk to=1 p1=5,30 h1=3 p2=7 h2=4", &p);
    assert_int_equal(kemet_throw_parse(r, "1", &thr, &err), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, "30-off", &m, &err), KEMET_OK);
    assert_int_equal(kemet_apply(r, &p, &thr, &m, &q, &ev), KEMET_OK);
    assert_int_equal(q.hand[0], 4);
    assert_true(kemet_describe(r, &ev, text, sizeof text) > 0);
    assert_non_null(strstr(text, "Hounds take the piece on 30 back in hand"));
    assert_null(strstr(text, "bear"));
    kemet_rules_close(r);
    /* Senet: a piece in the water holds the others back; alone, it has
     * no others to hold */
    const char *water[2] = {"senet-kendall to=1 p1=5,27 p2=9",
                            "senet-kendall to=1 p1=27 p2=9"};
    const char *said[2] = {"White's piece on 27 holds the others back",
                           "White's piece on 27 cannot use the throw"};
    for (int i = 0; i < 2; i++) {
        r = tu_pos(water[i], &p);
        assert_int_equal(kemet_throw_parse(r, "2", &thr, &err), KEMET_OK);
        assert_int_equal(kemet_move_parse(r, "pass", &m, &err), KEMET_OK);
        assert_int_equal(kemet_apply(r, &p, &thr, &m, &q, &ev), KEMET_OK);
        assert_true(kemet_describe(r, &ev, text, sizeof text) > 0);
        if (!strstr(text, said[i]))
            fail_msg("'%s' lacks '%s'", text, said[i]);
        kemet_rules_close(r);
    }
}

/* kemet_art: every ruleset's board for drawing has each of its cells once,
 * inside the drawing, and its lines join holes that exist; the levels. */
static void board_art(void **state) {
    (void)state;
    static kemet_board_art a;
    for (int i = 0; i < kemet_ruleset_count(); i++) {
        kemet_rules *r;
        kemet_error err;
        assert_int_equal(kemet_rules_open(kemet_ruleset_id(i), &r, &err),
                         KEMET_OK);
        int cells = kemet_rules_info(r)->board_cells;
        assert_int_equal(kemet_art(r, &a), cells);
        assert_true(a.w > 0 && a.h > 0);
        char seen[KEMET_ART_HOLES + 1] = {0};
        for (int k = 0; k < a.nholes; k++) {
            const kemet_hole_art *h = &a.hole[k];
            assert_true(h->cell >= 1 && h->cell <= cells);
            assert_false(seen[h->cell]);
            seen[h->cell] = 1;
            assert_true(h->x - h->r >= 0 && h->x + h->r <= a.w);
            assert_true(h->y - h->r >= 0 && h->y + h->r <= a.h);
            assert_true(h->label[0] != '\0');
        }
        for (int k = 0; k < a.nlinks; k++) {
            assert_true(seen[a.link[k].from]);
            assert_true(seen[a.link[k].to]);
        }
        /* every square of each path is drawn */
        for (int p = 1; p <= 2; p++)
            for (int sq = 1; sq <= kemet_rules_info(r)->squares; sq++) {
                int c = kemet_square_cell(r, p, sq);
                assert_true(c == 0 || seen[c]);
            }
        kemet_rules_close(r);
    }
    assert_int_equal(kemet_art(NULL, &a), KEMET_EMISUSE);
    assert_string_equal(kemet_level_agent(1), "random");
    assert_string_equal(kemet_level_agent(KEMET_LEVELS), "best:20k");
    assert_null(kemet_level_agent(0));
    assert_null(kemet_level_about(KEMET_LEVELS + 1));
    for (int l = 1; l <= KEMET_LEVELS; l++) {
        kemet_rules *r;
        kemet_agent *ag;
        kemet_error err;
        assert_int_equal(kemet_rules_open("senet-kendall", &r, &err), KEMET_OK);
        assert_int_equal(kemet_agent_new(r, kemet_level_agent(l), 1, &ag, &err),
                         KEMET_OK);
        kemet_agent_free(ag);
        kemet_rules_close(r);
    }
}

/* kemet_pos_read parses for rules already open: the same ruleset (its
 * options in any canonical-equal form), nothing else, nothing opened. */
static void pos_read(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("lions-jackals:dual=0,solid=2", &r, &err),
                     KEMET_OK);
    kemet_pos a, b;
    kemet_start(r, &a);
    char line[512];
    assert_true(kemet_pos_format(r, &a, line, sizeof line) > 0);
    assert_int_equal(kemet_pos_read(r, line, &b, &err), KEMET_OK);
    assert_memory_equal(&a, &b, sizeof a);
    kemet_pos keep = b;
    assert_int_equal(
        kemet_pos_read(r, "senet-kendall to=1 p1=1 p2=2", &b, &err),
        KEMET_ERULESET);
    assert_non_null(strstr(err.msg, "senet-kendall"));
    assert_int_equal(kemet_pos_read(r, "nosuch to=1 p1=1 p2=2", &b, &err),
                     KEMET_ERULESET);
    assert_int_equal(kemet_pos_read(r, "", &b, &err), KEMET_ESYNTAX);
    assert_memory_equal(&keep, &b, sizeof b); /* untouched on failure */
    assert_int_equal(kemet_pos_read(NULL, line, &b, &err), KEMET_EMISUSE);
    assert_int_equal(kemet_pos_read(r, NULL, &b, &err), KEMET_EMISUSE);
    assert_int_equal(kemet_pos_read(r, line, NULL, &err), KEMET_EMISUSE);
    kemet_rules_close(r);
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &err), KEMET_OK);
    assert_int_equal(
        kemet_pos_read(r, "senet-kendall to=1 p1=1 p2=99", &b, &err),
        KEMET_ESYNTAX);
    kemet_rules_close(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(canonical_order),
        cmocka_unit_test(malformed_positions),
        cmocka_unit_test(moves_and_throws),
        cmocka_unit_test(ruleset_registry),
        cmocka_unit_test(misuse),
        cmocka_unit_test(describe),
        cmocka_unit_test(board_art),
        cmocka_unit_test(pos_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
