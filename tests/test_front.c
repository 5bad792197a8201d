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

/* Every line of `text` fits `width` columns (characters of UTF-8).
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
        size_t m = 0;
        for (const char *p = from; p < l + n; p++)
            m += ((unsigned char)*p & 0xC0) != 0x80;
        if (m > width)
            fail_msg("a line of %zu columns: '%.*s'", m,
                     (int)(n - (size_t)(from - l)), from);
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
    /* the review at the end, however many moves this seeded game has
     * under today's rules and network */
    const char *rev = strstr(o, "Review of the ");
    assert_non_null(rev);
    assert_non_null(strstr(rev, " moves of the game"));
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

/* ---------------------------------------------------------------------------
 * The terminal of 80 x 24 (issue 43): kemet play's output as a terminal of
 * 24 rows shows it. Standard input is not echoed into the output read here,
 * so a prompt ends its row (on a terminal the answer typed and its Enter
 * end it) and what the answer made follows on the next.
 * ------------------------------------------------------------------------ */

enum { ROWS = 24, COLS = 80, MAXROWS = 20000 };

typedef struct trow {
    const char *at; /* the row's text */
    int len;        /* its bytes */
    bool prompt;    /* a prompt: the program waits for a line here */
} trow;

/* Where a prompt at the start of the line l..eol ends ("Lions> ",
 * "Lions (undo: take back the last step)> ", "... y/n> "), or NULL. */
static const char *prompt_end(const char *l, const char *eol) {
    static const char undo[] = " (undo: take back the last step)> ";
    const char *p = l;
    while (p < eol && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
        p++;
    if (l[0] >= 'A' && l[0] <= 'Z') {
        if (p + 2 <= eol && p[0] == '>' && p[1] == ' ')
            return p + 2;
        if (p + strlen(undo) <= eol && strncmp(p, undo, strlen(undo)) == 0)
            return p + strlen(undo);
    }
    for (p = l; p + 5 <= eol; p++)
        if (strncmp(p, "y/n> ", 5) == 0)
            return p + 5;
    return NULL;
}

/* The rows of `text` on a terminal COLS wide: a line a row, two or more
 * where it is wider, and a prompt ends its row. The number of rows. */
static int term_rows(const char *text, trow *row, int max) {
    int n = 0;
    for (const char *l = text; *l && n < max;) {
        const char *eol = l + strcspn(l, "\n");
        const char *end = prompt_end(l, eol);
        bool prompt = end != NULL;
        if (!end)
            end = eol;
        int chars = 0;
        for (const char *p = l; p < end; p++)
            chars += ((unsigned char)*p & 0xC0) != 0x80;
        for (int k = 0; k < (chars + COLS - 1) / COLS - 1 && n < max; k++)
            row[n++] = (trow){"", 0, false}; /* the rows it wraps onto */
        if (n < max)
            row[n++] = (trow){l, (int)(end - l), prompt};
        l = prompt ? end : eol + (*eol == '\n');
    }
    return n;
}

/* Whether a row tells a throw of the person's ("Lions (you) throw"). */
static bool your_throw(const trow *r) {
    size_t w = strcspn(r->at, " \n");
    return strncmp(r->at + w, " (you) throw", 12) == 0;
}

/* Whether an answer draws a screen anew: a move or a step, or the
 * commands that show a board or a list again. Any other answer (a wrong
 * line, the questions of 'quit') only says something, under the screen. */
static bool redraws(const char *answer) {
    static const char *const cmd[] = {"undo",      "more",     "board",
                                      "hint",      "takeback", "board compact",
                                      "board full"};
    if (answer[0] >= '0' && answer[0] <= '9')
        return true;
    for (size_t i = 0; i < sizeof cmd / sizeof *cmd; i++)
        if (strcmp(answer, cmd[i]) == 0)
            return true;
    return false;
}

/* Checks kemet play's output `o` for the answers `input` (a line each):
 * at every prompt the rows written since the screen began (since the game's
 * header, or since an answer that redraws) are at most ROWS, so the whole
 * screen, the last turn above the board, the board, the throw, the choices,
 * a message under them and the prompt, is in view while the program waits;
 * and every row fits COLS columns. `what` names the game in a failure. */
static void screens_in_view(const char *o, const char *input,
                            const char *what) {
    trow *row = malloc(MAXROWS * sizeof *row);
    assert_non_null(row);
    int n = term_rows(o, row, MAXROWS);
    fits(o, COLS);
    int start = 0, prompts = 0;
    for (int i = 0; i < n; i++)
        if (strncmp(row[i].at, "Type 'help' at your turn", 24) == 0) {
            start = i + 1;
            break;
        }
    const char *answer = input;
    for (int i = start; i < n; i++) {
        /* a throw of the person's with no move to choose (a pass: no
           prompt before their next throw) begins a screen: nothing was
           asked, and the computer plays on */
        if (your_throw(&row[i])) {
            for (int j = i + 1; j < n && !row[j].prompt; j++)
                if (your_throw(&row[j])) {
                    start = i;
                    break;
                }
        }
        if (!row[i].prompt)
            continue;
        prompts++;
        if (i - start + 1 > ROWS)
            fail_msg("%s: at prompt %d ('%.*s') the screen is %d rows, from "
                     "'%.60s'",
                     what, prompts, row[i].len, row[i].at, i - start + 1,
                     row[start].at);
        char a[256] = "";
        size_t k = strcspn(answer, "\n");
        snprintf(a, sizeof a, "%.*s", (int)k, answer);
        answer += k + (answer[k] == '\n');
        if (redraws(a))
            start = i + 1;
    }
    free(row);
}

static const char *const rulesets[] = {"senet-kendall",
                                       "senet-robinson",
                                       "dogs-jackals",
                                       "dogs-jackals-extended",
                                       "hounds-jackals-skiryuk",
                                       "chien-chacal",
                                       "hounds-jackals-washburne",
                                       "hounds-jackals-washburne-dice",
                                       "lions-jackals",
                                       "lions-jackals-quick"};

/* Every ruleset's game against the computer, on its usual board and on
 * the compact one, is played in screens of 80 x 24 (the 58 holes' boards
 * alone were 26 rows; the computer's turn took three rows a throw and its
 * first throws scrolled away): a wrong line, a move, again and again, the
 * question of 'quit' answered no. */
static void screens_fit(void **state) {
    (void)state;
    char in[256] = "asdf\n";
    for (int i = 0; i < 12; i++)
        strcat(in, "1\n");
    strcat(in, "quit\nn\n1\n1\nquit\ny\n");
    for (size_t i = 0; i < sizeof rulesets / sizeof *rulesets; i++)
        for (int compact = 0; compact < 2; compact++) {
            char *o, *e, what[96];
            int st = tu_run(in, &o, &e, "play", rulesets[i], "--seed", "1",
                            "--level", "2", compact ? "--compact" : NULL, NULL);
            assert_int_equal(st, 0);
            snprintf(what, sizeof what, "%s%s", rulesets[i],
                     compact ? " --compact" : "");
            screens_in_view(o, in, what);
            /* the computer's turns were told (level 2: greedy~0.6) */
            assert_non_null(strstr(o, "(the computer, level 2) throw"));
            free(o);
            free(e);
        }
}

/* The computer's whole turn is one line, gnubg's way: Senet, seed 3, Black
 * throws 1 (another throw) and 2 and moves twice; both throws and both
 * moves stay in view above the board at White's next prompt. */
static void computer_turn_one_line(void **state) {
    (void)state;
    const char *in = "1\n2\nquit\ny\n";
    char *o, *e;
    int st = tu_run(in, &o, &e, "play", "senet-kendall", "--seed", "3", "--p2",
                    "greedy", NULL);
    assert_int_equal(st, 0);
    const char *turn =
        strstr(o, "\nBlack (greedy) throws 1, 2: 6-7 (swaps with a piece of "
                  "White), 7-9");
    assert_non_null(turn);
    /* then the board, the throw and the prompt: no throw of Black's
       between */
    const char *next = strstr(turn, "White (you) throws: ");
    assert_non_null(next);
    for (const char *p = turn + 1; p < next; p = strchr(p, '\n') + 1)
        assert_false(strncmp(p, "Black (greedy)", 14) == 0 && p != turn + 1);
    assert_null(strstr(o, "  sticks:")); /* not a row a throw any more */
    screens_in_view(o, in, "senet-kendall seed 3");
    free(o);
    free(e);
}

/* Washburne's board within 24 rows: every hole on each side's track, in
 * its own side's numbers (the compact board gave the jackals' holes the
 * hounds' numbers, 31-59), holes 24-30 and the home holes in view at the
 * prompt; on a taller terminal the compact board keeps the board's
 * layout, the jackals' column numbered 1-10 too. */
static void washburne_board(void **state) {
    (void)state;
    const char *in = "1\nquit\ny\n";
    char *o, *e;
    int st = tu_run(in, &o, &e, "play", "hounds-jackals-washburne", "--seed",
                    "1", "--level", "2", NULL);
    assert_int_equal(st, 0);
    screens_in_view(o, in, "hounds-jackals-washburne");
    assert_non_null(strstr(o, "  Hounds   1 H  2 H  3 H  4 H  5 H  6 ."));
    assert_non_null(strstr(o, "  Shared  30 ."));
    assert_non_null(strstr(o, "  Jackals  1 J  2 J  3 J  4 J  5 J  6 ."));
    assert_non_null(strstr(o, "21 . 22 . 23 . 24 . 25 . 26 . 27 . 28 . 29 ."));
    assert_non_null(strstr(o, "its own holes: Hounds' on the right."));
    assert_null(strstr(o, " 59 "));
    assert_null(strstr(o, "60-k"));
    free(o);
    free(e);
    setenv("LINES", "48", 1);
    st = tu_run(in, &o, &e, "play", "hounds-jackals-washburne", "--seed", "1",
                "--level", "2", "--compact", NULL);
    unsetenv("LINES");
    assert_int_equal(st, 0);
    /* the jackals' home column beside the hounds', 1 at the top */
    assert_non_null(strstr(o, "  25 .  1 J         1 H 25 ."));
    assert_non_null(strstr(o, "  16 . 10 .       10 . 16 ."));
    assert_null(strstr(o, " 59 J"));
    assert_null(strstr(o, "60-k"));
    free(o);
    free(e);
}

/* 'undo' of the only step of a turn entered step by step shows the turn
 * again as it began: a word, the board without the step, the throw and
 * the choices (it left the board showing the step, with nothing more).
 * Lions & Jackals seed 5 (3-6 of 3 4 5 3), Washburne with dice seed 4
 * (5-20 of 1 2). */
static void undo_only_step(void **state) {
    (void)state;
    struct {
        const char *rules, *seed, *step, *start, *board;
    } c[] = {{"lions-jackals", "5", "3-6", "Step 3-6 taken back",
              "   1 L  2 L  3 L  4 L  5 L  6 ."},
             {"hounds-jackals-washburne-dice", "4", "5-20",
              "Step 5-20 taken back", "  Hounds   1 H  2 H  3 H  4 H  5 H"}};
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        char in[64];
        snprintf(in, sizeof in, "%s\nundo\nquit\ny\n", c[i].step);
        char *o, *e;
        int st =
            tu_run(in, &o, &e, "play", c[i].rules, "--seed", c[i].seed, NULL);
        assert_int_equal(st, 0);
        const char *back = strstr(o, c[i].start);
        if (!back)
            fail_msg("%s: no '%s' in %s", c[i].rules, c[i].start, o);
        const char *board = strstr(back, c[i].board);
        assert_non_null(board);
        const char *thr = strstr(board, "(you) throw: ");
        assert_non_null(thr);
        const char *list = strstr(thr, "\n  1) ");
        assert_non_null(list);
        const char *prompt = strstr(back, "> ");
        assert_true(prompt > list); /* all of it before the next prompt */
        screens_in_view(o, in, c[i].rules);
        free(o);
        free(e);
    }
}

/* A take-back refused is said at the prompt and stays there (the board
 * was drawn again over it); in the middle of a turn entered step by step
 * the steps typed are kept (they were dropped without a word). */
static void takeback_refused(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run("takeback\nquit\ny\n", &o, &e, "play", "senet-kendall",
                    "--seed", "3", NULL);
    assert_int_equal(st, 0);
    assert_non_null(
        strstr(o, "  There is no move of yours to take back.\nWhite> "));
    assert_int_equal(count(o, "White (you) throws: "), 1);
    free(o);
    free(e);
    const char *in = "3-6\ntakeback\n4-7\nquit\ny\n";
    st = tu_run(in, &o, &e, "play", "lions-jackals", "--seed", "5", NULL);
    assert_int_equal(st, 0);
    const char *no = strstr(o, "There is no move of yours to take back.\n");
    assert_non_null(no);
    assert_non_null(strstr(no, "So far 3-6; values still to spend"));
    assert_non_null(strstr(no, "So far 3-6+4-7; values still to spend"));
    screens_in_view(o, in, "lions-jackals seed 5");
    free(o);
    free(e);
}

/* A long message is wrapped at a word, not cut at the edge of the
 * terminal, and says what can be typed in this game, with a move of its
 * own for example (Senet has no lines: no FROM-END-TO). */
static void long_message_wrapped(void **state) {
    (void)state;
    char *o, *e;
    const char *in = "asdf qwe!!\n3-4-5-6\nquit\ny\n";
    int st = tu_run(in, &o, &e, "play", "senet-kendall", "--seed", "3", NULL);
    assert_int_equal(st, 0);
    fits(o, COLS - 1);
    assert_non_null(strstr(o, "'asdf qwe!!' is neither a move (e.g. 1-4)"));
    assert_non_null(strstr(o, "'3-4-5-6' is neither a move (e.g. 1-4)"));
    assert_null(strstr(o, "FROM-END-TO"));
    screens_in_view(o, in, "senet-kendall seed 3");
    free(o);
    free(e);
}

/* --side 2 alone plays at the default level 2, as the help says (it was
 * refused), and the first game says nothing of the endgame table it makes
 * (it said "made the endgame table ... .kemettb"). */
static void side_and_table(void **state) {
    (void)state;
    char *o, *e;
    int st =
        tu_run("quit\ny\n", &o, &e, "play", "--side", "2", "--seed", "5", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "White (the computer, level 2)"));
    assert_non_null(strstr(o, "Black (you)"));
    free(o);
    free(e);
    char dir[] = "/tmp/kemet-test-first-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *was = getenv("KEMET_TABLES");
    char *keep = was ? strdup(was) : NULL;
    setenv("KEMET_TABLES", dir, 1);
    st = tu_run("quit\ny\n", &o, &e, "play", "chien-chacal", "--seed", "1",
                NULL);
    if (keep)
        setenv("KEMET_TABLES", keep, 1);
    else
        unsetenv("KEMET_TABLES");
    free(keep);
    assert_int_equal(st, 0);
    assert_string_equal(e, "");
    assert_null(strstr(o, "kemettb"));
    free(o);
    free(e);
    char path[128];
    snprintf(path, sizeof path, "%s/chien-chacal.2.kemettb", dir);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0); /* made all the same */
    unlink(path);
    rmdir(dir);
}

int main(void) {
    unsetenv("COLUMNS"); /* the tests set the width they need */
    unsetenv("LINES");   /* and the height */
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
        cmocka_unit_test(screens_fit),
        cmocka_unit_test(computer_turn_one_line),
        cmocka_unit_test(washburne_board),
        cmocka_unit_test(undo_only_step),
        cmocka_unit_test(takeback_refused),
        cmocka_unit_test(long_message_wrapped),
        cmocka_unit_test(side_and_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
