/* test_record.c - game records: a played game replays to the same end;
 * every kind of corruption or tampering is reported at its line. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Plays a seeded game greedy vs random and writes its record. Returns the
 * text (caller frees); *end gets the final position. */
static char *play_record(const char *spec, uint64_t seed, kemet_pos *end,
                         long *plies) {
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open(spec, &r, &e), KEMET_OK);
    kemet_game *g;
    kemet_agent *a[2];
    assert_int_equal(kemet_game_new(r, seed, &g, NULL), KEMET_OK);
    assert_int_equal(kemet_agent_new(r, "greedy", 1, &a[0], &e), KEMET_OK);
    assert_int_equal(kemet_agent_new(r, "random", 2, &a[1], &e), KEMET_OK);
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap);
    len += (size_t)kemet_record_header(r, seed, "greedy", "random",
                                       kemet_game_pos(g), text, cap);
    kemet_move list[KEMET_MAX_MOVES];
    while (kemet_result(kemet_game_pos(g)) == KEMET_PLAYING) {
        kemet_pos before = *kemet_game_pos(g);
        kemet_agent *ag = a[before.to - 1];
        const kemet_throw *opening = kemet_game_throw(g);
        int n = opening ? 0 : kemet_prethrow(r, &before, list);
        int k = n > 0 ? kemet_agent_choose(ag, &before, NULL, list, n) : -1;
        kemet_throw t, *tp = NULL;
        if (k < 0) {
            if (opening)
                t = *opening; /* Skiryuk: the opening's first throw */
            else
                kemet_game_roll(g, &t);
            tp = &t;
            n = kemet_moves(r, &before, &t, list);
            k = kemet_agent_choose(ag, &before, &t, list, n);
        }
        assert_int_equal(kemet_game_play(g, &list[k], NULL), KEMET_OK);
        len += (size_t)kemet_record_ply(&before, tp, &list[k], text + len,
                                        cap - len);
    }
    len += (size_t)kemet_record_result(kemet_game_pos(g), 0, text + len,
                                       cap - len);
    *end = *kemet_game_pos(g);
    *plies = kemet_game_plies(g);
    kemet_agent_free(a[0]);
    kemet_agent_free(a[1]);
    kemet_game_free(g);
    kemet_rules_close(r);
    return text;
}

static void round_trip(void **state) {
    (void)state;
    int nr = kemet_ruleset_count();
    for (uint64_t seed = 1; seed <= 60; seed++) {
        kemet_pos end, got;
        long plies, got_plies;
        char *text = play_record(kemet_ruleset_id((int)(seed % (uint64_t)nr)),
                                 seed, &end, &plies);
        kemet_error e;
        char final[256];
        int rc = kemet_replay(text, &got, final, sizeof final, &got_plies, &e);
        if (rc)
            fail_msg("replay failed: %s", e.msg);
        assert_memory_equal(&end, &got, sizeof end);
        assert_int_equal(plies, got_plies);
        assert_non_null(strstr(final, "winner="));
        /* a changed first throw is caught, the opening's included */
        char *line7 = strstr(text, "start ");
        line7 = strchr(line7, '\n') + 1; /* first ply: "P T MOVE" */
        line7[2] = line7[2] == '1' ? '2' : '1';
        int bad = kemet_replay(text, NULL, NULL, 0, NULL, &e);
        assert_true(bad == KEMET_EILLEGAL || bad == KEMET_ESYNTAX);
        assert_non_null(strstr(e.msg, "line 7:"));
        free(text);
    }
}

/* Replaces the n-th line (1-based) of text with `line`. */
static char *with_line(const char *text, int n, const char *line) {
    char *out = malloc(strlen(text) + strlen(line) + 2);
    const char *s = text;
    size_t at = 0;
    for (int i = 1; *s; i++) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s + 1) : strlen(s);
        if (i == n) {
            at += (size_t)sprintf(out + at, "%s\n", line);
        } else {
            memcpy(out + at, s, len);
            at += len;
        }
        s += len;
    }
    out[at] = '\0';
    return out;
}

/* The n-th line of text, in buf. */
static void line_of(const char *text, int n, char *buf, size_t len) {
    const char *s = text;
    for (int i = 1; i < n; i++)
        s = strchr(s, '\n') + 1;
    size_t k = (size_t)(strchr(s, '\n') - s);
    snprintf(buf, len, "%.*s", (int)k, s);
}

static void expect_error(const char *text, int code, const char *prefix,
                         const char *words) {
    kemet_error e;
    int rc = kemet_replay(text, NULL, NULL, 0, NULL, &e);
    if (rc != code)
        fail_msg("want code %d, got %d (%s)", code, rc, rc ? e.msg : "");
    if (strncmp(e.msg, prefix, strlen(prefix)) != 0 || !strstr(e.msg, words))
        fail_msg("message '%s' lacks '%s' ... '%s'", e.msg, prefix, words);
}

static void tampering(void **state) {
    (void)state;
    kemet_pos end;
    long plies;
    char *text = play_record("senet-kendall", 4, &end, &plies);
    /* line 7 is the first ply; find a throw line and change its value */
    char line[128], bad[160];
    line_of(text, 7, line, sizeof line);
    int who, thr;
    char mv[32];
    assert_int_equal(sscanf(line, "%d %d %31s", &who, &thr, mv), 3);
    snprintf(bad, sizeof bad, "%d %d %s", who, thr == 2 ? 3 : 2, mv);
    char *t1 = with_line(text, 7, bad);
    expect_error(t1, KEMET_EILLEGAL, "line 7:", "");
    free(t1);
    snprintf(bad, sizeof bad, "%d %d 29-off", who, thr);
    char *t2 = with_line(text, 7, bad);
    expect_error(t2, KEMET_EILLEGAL, "line 7:", "not a legal move");
    free(t2);
    snprintf(bad, sizeof bad, "%d %d %s", 3 - who, thr, mv);
    char *t3 = with_line(text, 7, bad);
    expect_error(t3, KEMET_EILLEGAL, "line 7:", "turn");
    free(t3);
    char *t4 = with_line(text, 8, "1 3");
    expect_error(t4, KEMET_ESYNTAX, "line 8:", "PLAYER THROW MOVE");
    free(t4);
    char *t5 = with_line(text, 1, "kemet-record 9");
    expect_error(t5, KEMET_ESYNTAX, "line 1:", "not a kemet record");
    free(t5);
    char *t6 = with_line(text, 2, "ruleset chess");
    expect_error(t6, KEMET_ESYNTAX, "line 2:", "unknown ruleset");
    free(t6);
    char *t7 = with_line(text, 3, "seed 5");
    expect_error(t7, KEMET_EILLEGAL, "line ", "seeded dice");
    free(t7);
    char *t8 = with_line(
        text, 6,
        "start senet-kendall to=2 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14");
    expect_error(t8, KEMET_ESYNTAX, "line 6:", "start position");
    free(t8);
    /* the last line is the result: claim the other player won */
    int nlines = 0;
    for (const char *s = text; *s; s++)
        nlines += *s == '\n';
    char res[32];
    snprintf(res, sizeof res, "result %d", end.result == 1 ? 2 : 1);
    char *t9 = with_line(text, nlines, res);
    expect_error(t9, KEMET_EILLEGAL, "line", "does not match");
    free(t9);
    /* text after the result */
    size_t len = strlen(text);
    char *t10 = malloc(len + 16);
    sprintf(t10, "%s1 3 5-8\n", text);
    expect_error(t10, KEMET_ESYNTAX, "line", "after the result");
    free(t10);
    /* a record cut in the middle of a line */
    char *t11 = strdup(text);
    char *cut = strstr(t11 + 200, "\n");
    cut[-1] = '\0'; /* drop the last character of a ply line */
    cut = strchr(t11 + 200, '\0');
    (void)cut;
    kemet_error e;
    int rc = kemet_replay(t11, NULL, NULL, 0, NULL, &e);
    assert_true(rc == KEMET_OK || strncmp(e.msg, "line ", 5) == 0);
    free(t11);
    expect_error("", KEMET_ESYNTAX, "line 1:", "empty");
    expect_error("garbage\n", KEMET_ESYNTAX, "line 1:", "not a kemet record");
    expect_error("kemet-record 1\n1 3 5-8\n", KEMET_ESYNTAX,
                 "line 2:", "no ruleset");
    free(text);
}

/* A record without seed: throws are taken as written, moves still checked;
 * an unfinished game (no result line) is valid. */
static void unseeded(void **state) {
    (void)state;
    const char *text = "kemet-record 1\n"
                       "ruleset senet-kendall\n"
                       "# a hand-written opening\n"
                       "\n"
                       "1 3 13-16\n"
                       "2 2 14-16\n"
                       "1 4 11-15\n"
                       "1 2 15-17\n";
    kemet_pos end;
    char final[256];
    long plies;
    kemet_error e;
    int rc = kemet_replay(text, &end, final, sizeof final, &plies, &e);
    if (rc)
        fail_msg("%s", e.msg);
    assert_int_equal(plies, 4);
    assert_string_equal(
        final, "senet-kendall to=2 p1=1,3,5,7,9,14,17 p2=2,4,6,8,10,12,16");
    expect_error(
        "kemet-record 1\nruleset senet-kendall\n1 3 13-16\n1 2 12-14\n",
        KEMET_EILLEGAL, "line 4:", "player 2's turn");
}

/* Records written before lines and rivers were written FROM-END-TO
 * (docs/notation.md) replay where their short FROM-TO names one outcome,
 * and are refused, with the reason, where it names two. */
static void short_line_steps(void **state) {
    (void)state;
    /* Washburne: 17 + 3 lands on 20 and follows the line to 6 */
    const char *text = "kemet-record 1\n"
                       "ruleset hounds-jackals-washburne\n"
                       "setup hounds-jackals-washburne to=1 "
                       "p1=1,2,3,4,17 p2=10,11,12,13,14\n"
                       "1 3 17-6\n"
                       "2 2 14-16\n"
                       "1 2 6-8-10\n";
    char final[256];
    kemet_error e;
    if (kemet_replay(text, NULL, final, sizeof final, NULL, &e))
        fail_msg("%s", e.msg);
    assert_string_equal(final, "hounds-jackals-washburne to=2 "
                               "p1=1,2,3,4,10 p2=10,11,12,13,16");
    /* Lions & Jackals, 2 and 6: 7-9 may be the 2, or the 6 onto the
     * river's end 13, where the opponent's last plinth on the board (its
     * 18) stands, and back to 9 */
    expect_error("kemet-record 1\n"
                 "ruleset lions-jackals:solid=2,dual=0\n"
                 "setup lions-jackals:solid=2,dual=0 to=1 "
                 "p1=7,15,21,27,30 p2=18 h2=4\n"
                 "1 2,6 7-9\n",
                 KEMET_EILLEGAL, "line 4:", "ambiguous");
}

/* A game set up in a position (kemet_game_setup): its record says
 * "setup", replays with the seed's throws from the first ply, and is
 * refused when the line claims the opening's start instead. */
static void set_up(void **state) {
    (void)state;
    kemet_pos pos;
    kemet_rules *r = tu_pos("chien-chacal to=2 p1=20,24 p2=22,26", &pos);
    kemet_game *g;
    kemet_error err;
    if (kemet_game_setup(r, 77, &pos, &g, &err))
        fail_msg("%s", err.msg);
    assert_memory_equal(kemet_game_pos(g), &pos, sizeof pos);
    assert_null(kemet_game_throw(g)); /* no opening, no throw made */
    char *text = malloc(1 << 16), line[1024];
    assert_non_null(text);
    assert_true(kemet_record_setup(r, 77, "a", "b", &pos, line, sizeof line) >
                0);
    strcpy(text, line);
    kemet_move moves[KEMET_MAX_MOVES];
    long plies = 0;
    while (kemet_game_pos(g)->result == KEMET_PLAYING && plies < 500) {
        kemet_pos before = *kemet_game_pos(g);
        kemet_throw t;
        assert_int_equal(kemet_game_roll(g, &t), KEMET_OK);
        int n = kemet_moves(r, &before, &t, moves);
        assert_true(n > 0);
        assert_int_equal(kemet_game_play(g, &moves[n - 1], NULL), KEMET_OK);
        assert_true(kemet_record_ply(&before, &t, &moves[n - 1], line,
                                     sizeof line) > 0);
        strcat(text, line);
        plies++;
    }
    kemet_pos end = *kemet_game_pos(g);
    kemet_game_free(g);
    assert_int_not_equal(end.result, KEMET_PLAYING);
    assert_true(kemet_record_result(&end, 0, line, sizeof line) > 0);
    strcat(text, line);
    assert_non_null(
        strstr(text, "\nsetup chien-chacal to=2 p1=20,24 p2=22,26\n"));
    kemet_pos got;
    long n;
    if (kemet_replay(text, &got, NULL, 0, &n, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(n, plies);
    assert_memory_equal(&got, &end, sizeof end);
    /* "start" would mean the seed's opening made that position: it did
     * not */
    char *s = strstr(text, "\nsetup ");
    memcpy(s + 1, "start", 5);
    expect_error(text, KEMET_ESYNTAX, "line 6:", "start position");
    /* a finished or invalid position cannot be set up */
    kemet_pos over = pos;
    over.result = KEMET_WON1;
    assert_int_equal(kemet_game_setup(r, 1, &over, &g, &err), KEMET_EOVER);
    kemet_pos bad = pos;
    bad.to = 3;
    assert_int_not_equal(kemet_game_setup(r, 1, &bad, &g, &err), KEMET_OK);
    free(text);
    kemet_rules_close(r);
}

/* Hostile line endings: a record whose last line ends in a bare '\r' (it
 * once made kemet_replay loop for ever), CR only, and CRLF throughout. */
static void line_endings(void **state) {
    (void)state;
    kemet_error e;
    /* a magic line alone, ended by '\r': no header follows */
    int rc = kemet_replay("kemet-record 1\r", NULL, NULL, 0, NULL, &e);
    assert_int_equal(rc, KEMET_ESYNTAX);
    rc = kemet_replay("\r", NULL, NULL, 0, NULL, &e);
    assert_int_equal(rc, KEMET_ESYNTAX);
    rc = kemet_replay("\r\r\r", NULL, NULL, 0, NULL, &e);
    assert_int_equal(rc, KEMET_ESYNTAX);
    /* a whole record with CRLF endings, its last line without a newline */
    kemet_pos end;
    long plies;
    char *text = play_record("chien-chacal", 3, &end, &plies);
    size_t n = strlen(text);
    char *crlf = malloc(2 * n + 2);
    assert_non_null(crlf);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '\n')
            crlf[k++] = '\r';
        crlf[k++] = text[i];
    }
    while (k && (crlf[k - 1] == '\n'))
        k--; /* ends "...\r" */
    crlf[k] = '\0';
    kemet_pos got;
    long turns;
    assert_int_equal(kemet_replay(crlf, &got, NULL, 0, &turns, &e), KEMET_OK);
    assert_memory_equal(&got, &end, sizeof got);
    free(crlf);
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip), cmocka_unit_test(tampering),
        cmocka_unit_test(unseeded),   cmocka_unit_test(line_endings),
        cmocka_unit_test(set_up),     cmocka_unit_test(short_line_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
