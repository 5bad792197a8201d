/* test_front.c - the defects a new user met (issue 35, "tried as a new
 * user would"): what the terminal game, the engine protocol and the other
 * commands show, each checked as the user sees it. */
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* How many times `needle` occurs in `hay`. */
static int count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* Every line of `text` fits `width` columns (bytes; the output is ASCII).
 * A prompt ("Lions> ", "... y/n> ") is followed by what the answer made
 * on the same line, since standard input is not echoed: the line is
 * measured from after the prompt, as on a terminal, where the typed
 * answer ends the prompt's line. */
static void fits(const char *text, size_t width) {
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        const char *from = l;
        for (const char *p = l; p < l + n; p++)
            if (p[0] == '>' && p[1] == ' ' && l[0] != ' ')
                from = p + 2;
        size_t m = n - (size_t)(from - l);
        if (m > width)
            fail_msg("a line of %zu columns: '%.*s'", m, (int)m, from);
        l += n + (l[n] == '\n');
    }
}

/* The engine answers every line: an empty one too, and an unknown command
 * is unknown before 'new' as after it. */
static void engine_every_line(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run("\nfoo\nnew\n\nbar\nquit\n", &o, &e, "engine", NULL);
    assert_int_equal(st, 0);
    assert_int_equal(count(o, "\n"), 6);
    assert_int_equal(count(o, "error an empty line"), 2);
    assert_non_null(strstr(o, "error unknown command 'foo'"));
    assert_non_null(strstr(o, "error unknown command 'bar'"));
    assert_null(strstr(o, "no position yet"));
    free(o);
    free(e);
    /* a known command before 'new' still says what is missing */
    st = tu_run("moves\n", &o, &e, "engine", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "error no position yet"));
    free(o);
    free(e);
}

/* Washburne: filling one's own home box with the last piece makes the
 * other side win; the list says so instead of "WINS" (seed 9: a 5). */
static void who_wins(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run("quit\ny\n", &o, &e, "play", "--seed", "9", "--p2", "human",
                    "--position",
                    "hounds-jackals-washburne to=1 p1=1,10,12 h1=2 "
                    "p2=35,40,56,57,58",
                    NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "1) in-5     LOSES (Jackals win)"));
    assert_null(strstr(o, "WINS"));
    free(o);
    free(e);
}

/* A line at the move prompt is read whole: an over-long one is refused
 * with one message and runs nothing (it used to be cut into pieces of 255
 * bytes, each run: 'x' * 255 + "1" played move 1). */
static void long_lines(void **state) {
    (void)state;
    char path[] = "/tmp/kemet-test-long-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    size_t big = 1 << 20;
    char *in = malloc(big + 512); /* 255 bytes, "1\n", the 1 MB line, "\n" */
    memset(in, 'x', 255);
    strcpy(in + 255, "1\n");
    size_t at = strlen(in);
    memset(in + at, 'y', big); /* a 1 MB line */
    strcpy(in + at + big, "\n");
    char *o, *e;
    int st = tu_run(in, &o, &e, "play", "--seed", "7", "--record", path, NULL);
    assert_int_equal(st, 0);
    assert_int_equal(count(o, "characters, at most 255): nothing was done"), 2);
    assert_null(strstr(o, "White moves"));
    assert_null(strstr(o, "not a move"));
    fits(o, 80);
    free(o);
    free(e);
    char *rec = tu_read_file(path);
    assert_non_null(rec);
    assert_null(strstr(rec, "\n1 ")); /* no ply was recorded */
    free(rec);
    unlink(path);
    /* 'quit' after 252 spaces' worth of junk does not quit */
    memset(in, 'z', 300);
    strcpy(in + 300, "quit\ny\n");
    st = tu_run(in, &o, &e, "play", "--seed", "7", NULL);
    assert_int_equal(st, 0);
    assert_null(strstr(o, "Leave the game?"));
    free(o);
    free(e);
    free(in);
}

/* A game killed while it waits for the person keeps its record whole,
 * every ply made so far in it: the record is written again after each
 * ply (to a file beside it, renamed over it), and the killed game goes
 * on from it. Seed 4 against greedy: White 1-2 and 3-6, Black 8-11. */
static void killed_game_keeps_record(void **state) {
    (void)state;
    const char *bin = getenv("KEMET_BIN");
    char dir[] = "/tmp/kemet-test-kill-XXXXXX", rec[64], cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(rec, sizeof rec, "%s/r", dir);
    /* the game's input stays open (the fifo) until it is killed, once the
       record holds Black's reply (at most 20 s) */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && mkfifo in && "
             "{ '%s' play senet-kendall --seed 4 --level 2 --record r <in "
             ">/dev/null & } && pid=$! && exec 3>in && printf '1\\n1\\n' >&3 "
             "&& i=0 && while [ $i -lt 200 ] && ! grep -q '^2 3 8-11$' r; do "
             "sleep 0.1; i=$((i+1)); done; kill -KILL $pid; wait $pid; "
             "exec 3>&-; rm in",
             dir, bin);
    int st = system(cmd);
    (void)st;
    char *text = tu_read_file(rec);
    assert_non_null(text);
    assert_non_null(
        strstr(text, "\n1 1 1-2\n1 3 3-6\n2 3 8-11\nresult unfinished\n"));
    free(text);
    char *o, *e;
    st = tu_run(NULL, &o, &e, "replay", rec, NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "3 plies, unfinished"));
    free(o);
    free(e);
    st = tu_run("1\nquit\ny\n", &o, &e, "play", "--resume", rec, NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "Resuming "));
    free(o);
    free(e);
    unlink(rec);
    assert_int_equal(rmdir(dir), 0); /* nothing else left in it */
}

/* The smaller prompt defects: a huge number, an escape sequence, 'undo'
 * with nothing to undo, a y/n prompt that takes only y or n. */
static void prompt_input(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run("99999999999999999999\n\x1b[A\nundo\nquit\nmaybe\nn\n"
                    "resign\nyes\n",
                    &o, &e, "play", "--seed", "7", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "There is no choice 99999999999999999999:"));
    assert_null(strstr(o, "\x1b"));
    assert_non_null(strstr(o, "Control characters in the line"));
    assert_non_null(strstr(o, "There is no step to undo"));
    assert_null(strstr(o, "'undo' is not a move"));
    assert_non_null(strstr(o, "Please answer y (yes) or n (no)."));
    assert_int_equal(count(o, "Leave the game?"), 2);
    assert_non_null(strstr(o, "White resigns."));
    free(o);
    free(e);
}

/* A folder named by --tables is never made by a command that only uses
 * tables: a missing one is one line and exit 2 (hint used to make the
 * whole tree of a mistyped path and write a table in it). */
static void tables_folder_not_made(void **state) {
    (void)state;
    char top[] = "/tmp/kemet-test-tables-XXXXXX";
    assert_non_null(mkdtemp(top));
    char deep[128], file[128];
    snprintf(deep, sizeof deep, "%s/typo/deep/er", top);
    snprintf(file, sizeof file, "%s/typo", top);
    char *o, *e;
    int st =
        tu_run(NULL, &o, &e, "hint", "chien-chacal to=1 p1=- h1=2 p2=- h2=2",
               "1", "--tables", deep, NULL);
    assert_int_equal(st, 2);
    assert_string_equal(o, "");
    assert_non_null(strstr(e, "--tables: there is no folder"));
    assert_int_equal(count(e, "\n"), 1);
    free(o);
    free(e);
    struct stat sb;
    assert_int_not_equal(stat(file, &sb), 0); /* nothing made */
    st = tu_run("", &o, &e, "play", "--tables", file, NULL);
    assert_int_equal(st, 2);
    assert_non_null(strstr(e, "there is no folder"));
    free(o);
    free(e);
    assert_int_not_equal(stat(file, &sb), 0);
    /* a file is not a folder */
    FILE *f = fopen(file, "w");
    fclose(f);
    st = tu_run(NULL, &o, &e, "sim", "chien-chacal", "--games", "1", "--tables",
                file, NULL);
    assert_int_equal(st, 2);
    assert_non_null(strstr(e, "is not a folder"));
    free(o);
    free(e);
    unlink(file);
    rmdir(top);
}

/* 'hint' in the middle of a Lions & Jackals turn ranks the ways to finish
 * it from the steps played (it ranked whole turns from the turn's start).
 * Seed 3: the Lions throw 2, 3, 4 and a dual 3. */
static void hint_mid_turn(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run("5-7\nhint\nquit\ny\n", &o, &e, "play", "lions-jackals",
                    "--seed", "3", "--level", "1", NULL);
    assert_int_equal(st, 0);
    const char *h = strstr(o, "after each way to finish the turn begun 5-7");
    assert_non_null(h);
    h = strchr(h, '\n') + 1;
    int lines = 0;
    for (; strncmp(h, "  ... and", 9) != 0; h = strchr(h, '\n') + 1) {
        if (strncmp(h, "  5-7+", 6) != 0)
            fail_msg("a hint line not beginning with 5-7: '%.60s'", h);
        lines++;
    }
    assert_int_equal(lines, 20);
    free(o);
    free(e);
}

/* kemet review of a Lions & Jackals game: every line within 80 columns
 * and the turns of several steps whole (they were cut at 14 characters
 * in rows of 98 columns). */
static void review_fits(void **state) {
    (void)state;
    char path[] = "/tmp/kemet-test-lj-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    char in[256] = "";
    for (int i = 0; i < 40; i++)
        strcat(in, "1\n");
    char *o, *e;
    int st = tu_run(in, &o, &e, "play", "lions-jackals", "--seed", "3", "--p2",
                    "greedy", "--record", path, NULL);
    assert_int_equal(st, 0);
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "review", path, NULL);
    assert_int_equal(st, 0);
    fits(o, 79);
    /* the first ply, 4-6+1-4+3-7+5-8 with 2,3,4,3@1, is written whole */
    assert_non_null(
        strstr(o, "throw 2,3,4,3@1, played 4-6+1-4+3-7+5-8, best "));
    assert_non_null(strstr(o, "Review of"));
    free(o);
    free(e);
    unlink(path);
}

/* A game against the computer as it is seen: 'why', 'pos', 'hint' in
 * the middle of a turn, the review so far and at the end all within 80
 * columns, wrapped at word boundaries. */
static void game_fits(void **state) {
    (void)state;
    char in[512] = "5-7\nhint\npos\nundo\n1\nwhy\nreview\n";
    for (int i = 0; i < 40; i++)
        strcat(in, "1\n");
    char *o, *e;
    int st = tu_run(in, &o, &e, "play", "lions-jackals", "--seed", "3", "--p2",
                    "greedy", NULL);
    assert_int_equal(st, 0);
    fits(o, 80);
    assert_non_null(strstr(o, "weighed its choices"));
    assert_non_null(strstr(o, "kemet hint 'lions-jackals"));
    /* the review at the end, however many plies this seeded game has
     * under today's rules and network */
    const char *rev = strstr(o, "Review of the ");
    assert_non_null(rev);
    assert_non_null(strstr(rev, " plies of the game"));
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "match", "senet-kendall", "--p1", "greedy",
                "--p2", "random", "--games", "20", "--paired", "--luck", NULL);
    assert_int_equal(st, 0);
    fits(o, 80);
    free(o);
    free(e);
}

/* A long command shows on a terminal what it is doing (the rollouts of
 * kemet hint ran for minutes without a word), and nothing of it is left
 * in a pipe or a log. The terminal is script(1)'s. */
static void progress_on_a_terminal(void **state) {
    (void)state;
    const char *bin = getenv("KEMET_BIN");
    const char *args = "hint 'senet-kendall to=1 p1=1,3,5,7,9,11,13 "
                       "p2=2,4,6,8,10,12,14' 3 --rollout 300 --threads 1";
    char *o, *e;
    double t0 = (double)time(NULL);
    int st = tu_run(NULL, &o, &e, "hint",
                    "senet-kendall to=1 p1=1,3,5,7,9,11,13 "
                    "p2=2,4,6,8,10,12,14",
                    "3", "--rollout", "300", "--threads", "1", NULL);
    double secs = (double)time(NULL) - t0;
    assert_int_equal(st, 0);
    assert_string_equal(e, ""); /* not a terminal: no progress */
    free(o);
    free(e);
    if (access("/usr/bin/script", X_OK) != 0 || secs < 3)
        return; /* no script(1), or too fast a machine for a second */
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "script -qec \"'%s' %s\" /dev/null </dev/null 2>&1", bin, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    assert_int_equal(pclose(p), 0);
    assert_non_null(strstr(buf, "rolling out 300 games after each of 7 "
                                "choices... "));
    assert_non_null(strstr(buf, "  1. ")); /* and then the answer */
}

/* kemet review: a "good" move's loss too small for one decimal is not
 * written 0.0 (seed 1: Black's ply 40 loses 0.03 points). */
static void review_small_losses(void **state) {
    (void)state;
    char path[] = "/tmp/kemet-test-small-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    char *in = malloc(1024);
    in[0] = '\0';
    for (int i = 0; i < 300; i++)
        strcat(in, "1\n");
    char *o, *e;
    int st = tu_run(in, &o, &e, "play", "senet-kendall", "--seed", "1", "--p2",
                    "greedy", "--record", path, NULL);
    assert_int_equal(st, 0);
    free(o);
    free(e);
    free(in);
    st = tu_run(NULL, &o, &e, "review", path, NULL);
    assert_int_equal(st, 0);
    assert_true(count(o, " good ") > 0);
    assert_null(strstr(o, " 0.0 good "));
    assert_non_null(strstr(o, " 0.03 good "));
    free(o);
    free(e);
    unlink(path);
}

/* A folder given for a file is named as one ("cannot read" said nothing
 * of why). */
static void folder_for_a_file(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "replay", "/tmp/", NULL);
    assert_int_equal(st, 2);
    assert_string_equal(o, "");
    assert_non_null(strstr(e, "'/tmp/' is a folder, not a file"));
    assert_int_equal(count(e, "\n"), 1);
    free(o);
    free(e);
}

/* Plain kemet judge does not measure the tables folder's table against
 * itself (100% with no word of it): the agent plays without tables unless
 * --tables asks, and the report says which. */
static void judge_not_itself(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-test-judge-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "solve", "chien-chacal", "--pieces", "2",
                    "--tables", dir, "--threads", "1", NULL);
    assert_int_equal(st, 0);
    free(o);
    free(e);
    setenv("KEMET_TABLES", dir, 1);
    st = tu_run(NULL, &o, &e, "judge", "chien-chacal", "--agent",
                "expectimax:d1", "--positions", "20", "--json", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "\"tables\":false"));
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "judge", "chien-chacal", "--agent",
                "expectimax:d1", "--positions", "20", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "the agent plays without the tables"));
    fits(o, 80);
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "judge", "chien-chacal", "--agent",
                "expectimax:d1", "--positions", "20", "--tables", dir, NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "with the reference table itself"));
    free(o);
    free(e);
    setenv("KEMET_TABLES", "off", 1);
    char path[256];
    snprintf(path, sizeof path, "%s/chien-chacal.2.kemettb", dir);
    unlink(path);
    rmdir(dir);
}

int main(void) {
    unsetenv("COLUMNS"); /* the tests set the width they need */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(engine_every_line),
        cmocka_unit_test(who_wins),
        cmocka_unit_test(long_lines),
        cmocka_unit_test(killed_game_keeps_record),
        cmocka_unit_test(prompt_input),
        cmocka_unit_test(tables_folder_not_made),
        cmocka_unit_test(hint_mid_turn),
        cmocka_unit_test(review_fits),
        cmocka_unit_test(game_fits),
        cmocka_unit_test(progress_on_a_terminal),
        cmocka_unit_test(review_small_losses),
        cmocka_unit_test(folder_for_a_file),
        cmocka_unit_test(judge_not_itself),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
