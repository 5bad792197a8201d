/* test_cli.c - the kemet program as a user meets it: the conformance
 * commands' exact output, one-line errors with exit status 2 and nothing
 * on standard output, help texts, a game played through standard input
 * that ends cleanly at end of input, records written and replayed. */
#define _XOPEN_SOURCE 700 /* posix_openpt: a game at a terminal */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define START "senet-kendall to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14"

#define OK TU_RUN_OK

#define BAD TU_RUN_BAD

static void conformance_output(void **state) {
    (void)state;
    OK(START "\n", "start", "senet-kendall");
    OK("senet-robinson to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14\n", "start",
       "senet-robinson");
    OK("13-15\n", "moves", START, "2");
    OK("11-15\n13-17\n", "moves", START, "4");
    OK("throw\n", "moves", START, "none");
    OK("throw\n27-15\n", "moves", "senet-kendall to=1 p1=5,27 p2=1", "none");
    OK("pass\n", "moves", "senet-kendall to=1 p1=1 p2=2,3", "1");
    OK("senet-kendall to=2 p1=1,3,5,7,9,11,15 p2=2,4,6,8,10,12,14\n", "apply",
       START, "2", "13-15");
    OK(START "\n", "apply", START, "none", "throw");
    OK(START "\n", "apply",
       "senet-kendall p2=2,4,6,8,10,12,14 p1=13,11,9,7,5,3,1 to=1", "none",
       "throw");
    OK("senet-kendall to=2 p1=5,15 p2=1\n", "apply",
       "senet-kendall to=1 p1=5,27 p2=1", "none", "27-15");
    OK("senet-kendall to=2 p1=- p2=1 winner=1\n", "apply",
       "senet-kendall to=1 p1=30 p2=1", "2", "30-off");
}

static void conformance_errors(void **state) {
    (void)state;
    BAD("unknown ruleset", "start", "chess");
    BAD("missing argument", "start");
    BAD("unexpected argument", "start", "senet-kendall", "extra");
    BAD("unknown field", "moves", "senet-kendall to=1 p1=1 p2=2 x=1", "1");
    BAD("twice", "moves", "senet-kendall to=1 p1=1 p2=2 p1=3", "1");
    BAD("no to=", "moves", "senet-kendall p1=1 p2=2", "1");
    BAD("not a number", "moves", "senet-kendall to=one p1=1 p2=2", "1");
    BAD("outside", "moves", "senet-kendall to=1 p1=40 p2=2", "1");
    BAD("two pieces", "moves", "senet-kendall to=1 p1=4 p2=4", "1");
    BAD("in hand", "moves", "senet-kendall to=1 p1=4 h1=2 p2=5", "1");
    BAD("must=", "moves", "senet-kendall to=1 p1=26 p2=5 must=26", "1");
    BAD("together", "moves", "senet-robinson to=1 p1=26 p2=5 must=26 winner=2",
        "1");
    BAD("over", "moves", "senet-kendall to=1 p1=- p2=5 winner=1", "1");
    BAD("over", "apply", "senet-kendall to=1 p1=- p2=5 winner=1", "none",
        "throw");
    BAD("impossible throw", "moves", START, "6");
    BAD("impossible throw", "moves", START, "0");
    BAD("impossible throw", "moves", START, "x");
    BAD("illegal move 13-16", "apply", START, "2", "13-16");
    BAD("your own piece", "apply", START, "2", "11-13");
    BAD("illegal move pass", "apply", START, "2", "pass");
    BAD("illegal move 27-15", "apply", START, "none", "27-15");
    BAD("illegal move throw", "apply", START, "2", "throw");
    BAD("not a move", "apply", START, "2", "13to15");
    BAD("unknown command", "frobnicate");
    BAD("unknown option", "sim", "senet-kendall", "--games", "5", "--fast");
    BAD("--games", "sim", "senet-kendall", "--games", "-5");
    BAD("--games", "sim", "senet-kendall", "--games", "many");
    BAD("unknown agent", "sim", "senet-kendall", "--games", "5", "--p1",
        "wizard");
    BAD("unknown ruleset", "bench", "--ruleset", "ur");
    BAD("unknown agent", "play", "--p2", "wizard");
    BAD("--seed", "play", "--seed", "abc");
    BAD("cannot open", "replay", "/nonexistent/record.txt");
}

/* kemet sim makes or looks for no endgame table (nor race database) that
 * no player of the run uses: random against random, or against a player
 * judging @plain; a greedy player uses one, and the first need makes it
 * in the tables folder. */
static void sim_builds_only_what_players_use(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-sim-tables-XXXXXX", path[96];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/chien-chacal.2.kemettb", dir);
    setenv("KEMET_TABLES", dir, 1);
    static const char *const idle[][2] = {{"random", "random"},
                                          {"greedy@plain", "random"},
                                          {"rearmost", "foremost"}};
    for (size_t i = 0; i < sizeof idle / sizeof idle[0]; i++) {
        char *o, *e;
        int st = tu_run(NULL, &o, &e, "sim", "chien-chacal", "--games", "3",
                        "--p1", idle[i][0], "--p2", idle[i][1], NULL);
        if (st != 0 || e[0] || access(path, F_OK) == 0) {
            setenv("KEMET_TABLES", "off", 1);
            unlink(path);
            rmdir(dir);
            fail_msg("%s against %s: status %d, '%s'", idle[i][0], idle[i][1],
                     st, e);
        }
        free(o);
        free(e);
    }
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "sim", "chien-chacal", "--games", "1", "--p1",
                    "greedy", NULL);
    setenv("KEMET_TABLES", "off", 1);
    assert_int_equal(st, 0);
    assert_non_null(strstr(e, "made the endgame table of chien-chacal"));
    assert_int_equal(access(path, F_OK), 0);
    free(o);
    free(e);
    unlink(path);
    rmdir(dir);
}

static void help_texts(void **state) {
    (void)state;
    const char *cmds[] = {
        "play",   "rules",  "start",   "moves", "apply", "sim",   "match",
        "hint",   "ladder", "analyze", "bench", "perft", "soak",  "replay",
        "review", "engine", "serve",   "tune",  "solve", "judge", "train"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char *o, *e;
        int st = tu_run(NULL, &o, &e, cmds[i], "--help", NULL);
        assert_int_equal(st, 0);
        assert_non_null(strstr(o, "usage: kemet"));
        /* every command takes a ruleset file, and says so: in its usage
         * line and in what it says of it */
        const char *said = strstr(o, "[--rules FILE]");
        if (!said || !strstr(said + 1, "--rules FILE"))
            fail_msg("kemet %s --help: no --rules FILE", cmds[i]);
        /* every line fits a terminal of 80 columns */
        for (const char *l = o; *l;) {
            size_t n = strcspn(l, "\n");
            if (n > 80)
                fail_msg("kemet %s --help: a line of %zu columns: %.40s...",
                         cmds[i], n, l);
            l += n + (l[n] == '\n');
        }
        free(o);
        free(e);
    }
    char *o, *e;
    assert_int_equal(tu_run(NULL, &o, &e, "ladder", "--levels", "--help", NULL),
                     0);
    assert_non_null(strstr(o, "[--rules FILE]"));
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "--help", NULL), 0);
    assert_non_null(strstr(o, "replay FILE"));
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "rules", NULL), 0);
    assert_non_null(strstr(o, "senet-kendall"));
    assert_non_null(strstr(o, "senet-robinson"));
    /* each ruleset by its author, year and character; the source texts
     * by publication, never by a file name */
    assert_non_null(strstr(o, "\n    Timothy Kendall, 1979. Seven pieces"));
    assert_non_null(strstr(o, "\n    Jack Botermans, 2008. A pure race"));
    assert_non_null(strstr(o, "\n    Donna Washburne, year not given."));
    assert_non_null(strstr(o, "\n    A French rules sheet, author unknown, "
                              "year not given."));
    assert_non_null(strstr(o, "opponent's Home Row wins."));
    assert_null(strstr(o, ".txt"));
    assert_null(strstr(o, "seed"));
    for (const char *line = o; *line; line = strchr(line, '\n') + 1) {
        assert_true(strcspn(line, "\n") <= 79);
        if (!strchr(line, '\n'))
            break;
    }
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "rules", "senet-robinson", NULL), 0);
    assert_non_null(strstr(o, "Karen Robinson's comment"));
    assert_non_null(strstr(o, "Robinson"));
    assert_null(strstr(o, ".txt"));
    free(o);
    free(e);
}

/* A human game through standard input: a bad choice is explained, end of
 * input ends the game cleanly, the record is kept and replays. */
static void play_and_replay(void **state) {
    (void)state;
    char path[] = "/tmp/kemet-test-rec-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path); /* play refuses to overwrite: give it a fresh name */
    char *o, *e;
    /* seed 7: white's first throw is a 3 */
    int st = tu_run("99\n13-15\n5-8\n", &o, &e, "play", "senet-kendall",
                    "--seed", "7", "--record", path, NULL);
    if (st != 0)
        fail_msg("play: status %d, stderr %s", st, e);
    assert_non_null(strstr(o, "There is no choice 99"));
    assert_non_null(strstr(o, "13-15 is not allowed: 13-15 is 2 squares, but "
                              "the throw is 3"));
    assert_non_null(strstr(o, "White moves 5-8"));
    assert_non_null(strstr(o, "unfinished"));
    /* the marked squares are drawn (the compact board of 24 rows) */
    assert_non_null(strstr(o, "15\u00a0☥"));
    assert_non_null(strstr(o, "27\u00a0≈≈"));
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "replay", path, NULL);
    if (st != 0)
        fail_msg("replay: status %d, stderr %s", st, e);
    assert_non_null(strstr(o, "valid record"));
    free(o);
    free(e);
    /* the record may not be overwritten */
    st = tu_run("", &o, &e, "play", "--seed", "7", "--record", path, NULL);
    assert_int_equal(st, 2);
    assert_non_null(strstr(e, "must not exist"));
    free(o);
    free(e);
    /* a tampered record: report the line */
    FILE *f = fopen(path, "a");
    fputs("2 9 1-10\n", f);
    fclose(f);
    st = tu_run(NULL, &o, &e, "replay", path, NULL);
    assert_int_equal(st, 2);
    assert_non_null(strstr(e, "line "));
    assert_string_equal(o, "");
    free(o);
    free(e);
    /* binary garbage */
    f = fopen(path, "wb");
    fwrite("kemet-record 1\n\0\x01\x02", 1, 18, f);
    fclose(f);
    st = tu_run(NULL, &o, &e, "replay", path, NULL);
    assert_int_equal(st, 2);
    assert_non_null(strstr(e, "NUL"));
    free(o);
    free(e);
    unlink(path);
}

/* kemet review: a whole recorded game graded, as text, JSON and SVG; bad
 * records and options refused. */
static void review_command(void **state) {
    (void)state;
    char path[] = "/tmp/kemet-test-rev-XXXXXX", svg[64];
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    snprintf(svg, sizeof svg, "%s.svg", path);
    char *out, *errs;
    int status =
        tu_run(NULL, &out, &errs, "play", "dogs-jackals", "--p1", "random",
               "--p2", "greedy", "--seed", "3", "--record", path, NULL);
    assert_int_equal(status, 0);
    free(out);
    free(errs);
    status = tu_run(NULL, &out, &errs, "review", path, "--agent", "greedy",
                    "--svg", svg, NULL);
    if (status != 0)
        fail_msg("review: status %d, stderr %s", status, errs);
    assert_non_null(strstr(out, "Review of"));
    assert_non_null(strstr(out, "accuracy (from the chances lost)"));
    assert_non_null(strstr(out, "luck of the throws"));
    assert_non_null(strstr(out, "Key moves"));
    assert_non_null(strstr(out, "chance of winning over the game"));
    free(out);
    free(errs);
    char *pic = NULL;
    FILE *f = fopen(svg, "r");
    assert_non_null(f);
    pic = calloc(1, 1 << 20);
    assert_non_null(pic);
    assert_true(fread(pic, 1, (1 << 20) - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(pic, "<svg"));
    assert_non_null(strstr(pic, "<polyline"));
    assert_non_null(strstr(pic, "</svg>"));
    free(pic);
    unlink(svg);
    /* JSON: the greedy seat (Jackals) played its own best every time */
    status = tu_run(NULL, &out, &errs, "review", path, "--agent", "greedy",
                    "--json", NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "\"decisions\":["));
    assert_non_null(strstr(out, "\"grade\":\"forced\""));
    const char *p2 = strstr(out, "{\"player\":2,");
    assert_non_null(p2);
    int d = -1, b = -2;
    const char *dp = strstr(p2, "\"decisions\":"),
               *bp = strstr(p2, "\"best\":");
    assert_true(dp && bp);
    sscanf(dp, "\"decisions\":%d", &d);
    sscanf(bp, "\"best\":%d", &b);
    assert_true(d > 0);
    assert_int_equal(b, d);
    free(out);
    free(errs);
    BAD("--agent", "review", path, "--agent", "oracle");
    BAD("cannot write", "review", path, "--agent", "greedy", "--svg",
        "/dev/null/x.svg");
    /* a tampered record names its line */
    f = fopen(path, "a");
    fputs("1 9 1-10\n", f);
    fclose(f);
    BAD("line ", "review", path);
    unlink(path);
    BAD("missing argument", "review");
    BAD("/nonexistent", "review", "/nonexistent/x.rec");
}

/* kemet play reviews the game at its end, and on 'review' at any prompt. */
static void play_review(void **state) {
    (void)state;
    char *input = malloc(20000), *o, *e;
    assert_non_null(input);
    strcpy(input, "1\n1\nreview\n");
    for (int i = 0; i < 3000; i++)
        strcat(input, "1\n");
    int st = tu_run(input, &o, &e, "play", "chien-chacal", "--seed", "4",
                    "--level", "2", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "moves so far"));
    /* Dogs and Jackals are plural: "Jackals win", never "Jackals wins" */
    assert_non_null(strstr(o, " win after "));
    assert_null(strstr(o, "s wins after"));
    const char *end = strstr(o, "moves of the game");
    assert_non_null(end);
    assert_non_null(strstr(end, "real choices"));
    assert_non_null(strstr(end, "points of win chance lost"));
    /* the seat --level gave, in a player's words, not the agent's spec */
    assert_non_null(strstr(end, "(the computer, level 2)"));
    assert_null(strstr(o, "greedy~0.6"));
    /* the game's length in moves, as the page counts it, never in
       plies or turns; moves and throws in words, never in notation */
    assert_null(strstr(o, "plies"));
    assert_null(strstr(o, " turns"));
    assert_null(strstr(end, "ply "));
    for (const char *m = strstr(end, "\n  move "); m;
         m = strstr(m + 1, "\n  move ")) {
        const char *nl = strstr(m + 1, "\n  ");
        size_t n = nl ? (size_t)(nl - m) : strlen(m);
        char line[600];
        snprintf(line, sizeof line, "%.*s", (int)(n < 599 ? n : 599), m);
        if (strstr(line, "in-") || strstr(line, "@") || strstr(line, "-off") ||
            !strstr(line, "→"))
            fail_msg("a key move not in words: %s", line);
    }
    free(o);
    free(e);
    free(input);
}

static char *record_text(const char *path);
static void replays(const char *path);

/* `kemet ARGS...` at a terminal (a pseudo-terminal: stdin is a tty, as a
 * person's), `input` typed: what it wrote (the input echoed too), its exit
 * status in *status. */
static char *at_terminal(const char *input, int *status,
                         const char *const *args) {
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(m >= 0);
    assert_int_equal(grantpt(m), 0);
    assert_int_equal(unlockpt(m), 0);
    char slave[128];
    snprintf(slave, sizeof slave, "%s", ptsname(m));
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setsid();
        int sfd = open(slave, O_RDWR);
        if (sfd < 0)
            _exit(127);
        dup2(sfd, 0);
        dup2(sfd, 1);
        dup2(sfd, 2);
        close(m);
        const char *argv[16] = {getenv("KEMET_BIN")};
        int n = 1;
        for (; args[n - 1] && n < 15; n++)
            argv[n] = args[n - 1];
        argv[n] = NULL;
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    if (input && write(m, input, strlen(input)) < 0)
        fail_msg("cannot type into the terminal");
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    for (;;) {
        if (len + 1 >= cap)
            assert_non_null(out = realloc(out, cap *= 2));
        ssize_t k = read(m, out + len, cap - len - 1);
        if (k <= 0 && !(k < 0 && errno == EINTR))
            break; /* EIO: the program has gone */
        if (k > 0)
            len += (size_t)k;
    }
    out[len] = '\0';
    close(m);
    waitpid(pid, status, 0);
    *status = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
    return out;
}

/* The records in folder `dir` (NULL-ended, to free), at most 15. */
static int records_in(const char *dir, char names[16][256]) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *de; d && (de = readdir(d)) && n < 15;)
        if (strstr(de->d_name, ".record") &&
            snprintf(names[n], 256, "%s/%s", dir, de->d_name) < 256)
            n++;
    if (d)
        closedir(d);
    return n;
}

/* A game played at a terminal is kept with no --record, as the page keeps
 * its games (nothing was written once, yet quitting spoke of a record):
 * in $XDG_STATE_HOME/kemet/games, written as it goes; quitting says so;
 * 'kemet play --resume' with no file lists the unfinished games and goes
 * on with the one picked. --no-save keeps nothing, and says so on
 * quitting; a game not at a terminal (input piped) is not kept. */
static void play_kept(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-state-XXXXXX", games[128];
    assert_non_null(mkdtemp(dir));
    snprintf(games, sizeof games, "%s/kemet/games", dir);
    const char *old = getenv("XDG_STATE_HOME");
    char *saved = old ? strdup(old) : NULL;
    setenv("XDG_STATE_HOME", dir, 1);
    int st;
    const char *a1[] = {"play", "chien-chacal", "--seed", "4", "--level", "2",
                        NULL};
    char *o = at_terminal("1\n1\nquit\ny\n", &st, a1);
    assert_int_equal(st, 0);
    if (!strstr(o, "Leave the game? It is kept: 'kemet play --resume'."))
        fail_msg("quitting a kept game: %s", o);
    assert_null(strstr(o, "(its record too)"));
    char names[16][256];
    assert_int_equal(records_in(games, names), 1);
    char *text = record_text(names[0]);
    assert_non_null(strstr(text, "result unfinished"));
    assert_non_null(strstr(text, "player2 greedy~0.6"));
    free(text);
    free(o);
    /* a second game, left at once: two kept, the newest listed first */
    sleep(1);
    const char *a2[] = {"play", "lions-jackals-quick", "--seed", "5", NULL};
    o = at_terminal("quit\ny\n", &st, a2);
    assert_int_equal(st, 0);
    free(o);
    assert_int_equal(records_in(games, names), 2);
    /* --no-save: nothing more kept, and quitting says so */
    const char *a3[] = {"play", "chien-chacal", "--seed",
                        "4",    "--no-save",    NULL};
    o = at_terminal("quit\ny\n", &st, a3);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "Nothing is kept (--no-save)"));
    free(o);
    assert_int_equal(records_in(games, names), 2);
    /* input piped (a program, a test): nothing kept */
    char *out, *errs;
    assert_int_equal(tu_run("1\nquit\ny\n", &out, &errs, "play", "chien-chacal",
                            "--seed", "4", NULL),
                     0);
    free(out);
    free(errs);
    assert_int_equal(records_in(games, names), 2);
    /* --resume with no file: the list, newest first; the second picked */
    st = tu_run("2\n1\nquit\ny\n", &out, &errs, "play", "--resume", NULL);
    if (st != 0)
        fail_msg("--resume: status %d: %s", st, errs);
    const char *list = strstr(out, "Unfinished games");
    assert_non_null(list);
    const char *first = strstr(list, "1) Lions & Jackals (Quick mode): you as"),
               *second =
                   strstr(list, "2) Chien et Chacal: you as Dogs against");
    if (!first || !second || second < first)
        fail_msg("the list of kept games: %s", list);
    if (!strstr(out, "Resuming") ||
        !strstr(out, "Jackals (the computer, level 2)"))
        fail_msg("resuming the game picked: %s", out);
    free(out);
    free(errs);
    /* a game over is not listed; with none unfinished, one line and 2 */
    char *g = NULL;
    for (int i = 0; i < 2; i++)
        if (strstr(names[i], "chien-chacal"))
            g = names[i];
    assert_non_null(g);
    assert_int_equal(
        tu_run("resign\ny\n", &out, &errs, "play", "--resume", g, NULL), 0);
    free(out);
    free(errs);
    for (int i = 0; i < 2; i++)
        if (strstr(names[i], "lions-jackals")) {
            assert_int_equal(tu_run("resign\ny\n", &out, &errs, "play",
                                    "--resume", names[i], NULL),
                             0);
            free(out);
            free(errs);
        }
    st = tu_run("", &out, &errs, "play", "--resume", NULL);
    assert_int_equal(st, 2);
    assert_non_null(strstr(errs, "no unfinished game is kept"));
    assert_string_equal(out, "");
    free(out);
    free(errs);
    for (int i = 0; i < 2; i++)
        unlink(names[i]);
    rmdir(games);
    snprintf(games, sizeof games, "%s/kemet", dir);
    rmdir(games);
    rmdir(dir);
    if (saved)
        setenv("XDG_STATE_HOME", saved, 1);
    else
        unsetenv("XDG_STATE_HOME");
    free(saved);
}

/* A game of a ruleset file is kept as any other, and goes on with the
 * file given again (it was once kept, yet 'kemet play --resume' listed
 * nothing of it and quitting said 'kemet play --resume' alone): quitting
 * names --rules, the list without the file counts the games it cannot
 * read, and with the file lists and resumes it. */
static void play_kept_rules_file(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-state-XXXXXX", games[128], rules[512];
    assert_non_null(mkdtemp(dir));
    snprintf(games, sizeof games, "%s/kemet/games", dir);
    snprintf(rules, sizeof rules, "%s/tests/rulesets/plain-entry.rules",
             KEMET_SOURCE_DIR);
    const char *old = getenv("XDG_STATE_HOME");
    char *saved = old ? strdup(old) : NULL;
    setenv("XDG_STATE_HOME", dir, 1);
    int st;
    const char *a1[] = {"play", rules, "--seed", "2", NULL};
    char *o = at_terminal("quit\ny\n", &st, a1);
    assert_int_equal(st, 0);
    if (!strstr(o, "It is kept: 'kemet play --resume --rules FILE'.") ||
        !strstr(o, "plain-entry.rules' goes on with it."))
        fail_msg("quitting a kept game of a ruleset file: %s", o);
    free(o);
    char names[16][256];
    assert_int_equal(records_in(games, names), 1);
    /* without the file: none listed, and why */
    char *out, *errs;
    st = tu_run("", &out, &errs, "play", "--resume", NULL);
    assert_int_equal(st, 2);
    if (!strstr(errs, "1 game of a ruleset file is listed with the file: "
                      "'kemet play --resume --rules FILE'"))
        fail_msg("--resume without the file: %s", errs);
    free(out);
    free(errs);
    /* with it: listed and resumed */
    st = tu_run("\nquit\ny\n", &out, &errs, "play", "--resume", "--rules",
                rules, NULL);
    if (st != 0 || !strstr(out, "1) Dogs & Jackals, a plain entry: you as") ||
        !strstr(out, "Resuming"))
        fail_msg("--resume --rules FILE: status %d: %s%s", st, out, errs);
    free(out);
    free(errs);
    unlink(names[0]);
    rmdir(games);
    snprintf(games, sizeof games, "%s/kemet", dir);
    rmdir(games);
    rmdir(dir);
    if (saved)
        setenv("XDG_STATE_HOME", saved, 1);
    else
        unsetenv("XDG_STATE_HOME");
    free(saved);
}

/* Tab plays a turn's values a ply each: 'undo' after the first of them
 * (it once said "There is no step to undo" after 5-6 with 1 and 3 still to
 * play) takes that step back, the turn's values all to play again, as
 * 'undo' does in the middle of a turn of Lions & Jackals; the record
 * holds the game as it stands. */
static void tab_undo_in_turn(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-test-undo-XXXXXX", rec[64];
    assert_non_null(mkdtemp(dir));
    snprintf(rec, sizeof rec, "%s/r", dir);
    char *o, *e;
    int st = tu_run("1\nundo\nquit\ny\n", &o, &e, "play", "tab-58", "--seed",
                    "7", "--level", "3", "--record", rec, NULL);
    assert_int_equal(st, 0);
    const char *u = strstr(o, "White>   Step 5");
    assert_non_null(u);
    if (!strstr(u, "Step 5 → 6 taken back: 1, 1 and 3 to play."))
        fail_msg("after undo: %s", u);
    assert_null(strstr(o, "There is no step to undo"));
    /* the turn again, its first choice offered */
    assert_non_null(strstr(u, "White (you) throws: 1 1 3\n  1) 5-6"));
    char *text = record_text(rec);
    assert_null(strstr(text, "5-6\n1 none")); /* the step is gone */
    assert_non_null(strstr(text, "result unfinished"));
    free(text);
    replays(rec);
    free(o);
    free(e);
    /* before any value of the turn is played, nothing to undo */
    st = tu_run("undo\nquit\ny\n", &o, &e, "play", "tab-58", "--seed", "7",
                "--level", "3", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "There is no step to undo"));
    free(o);
    free(e);
    unlink(rec);
    rmdir(dir);
}

/* --resume: an unfinished record goes on where it stopped, with the
 * seed's throws, and ends as one valid record; a finished one is
 * refused. */
static void play_resume(void **state) {
    (void)state;
    char path[] = "/tmp/kemet-test-res-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    char *out, *errs;
    int status =
        tu_run("1\n1\n1\nquit\ny\n", &out, &errs, "play", "senet-kendall",
               "--seed", "9", "--p2", "greedy", "--record", path, NULL);
    assert_int_equal(status, 0);
    free(out);
    free(errs);
    status = tu_run(NULL, &out, &errs, "replay", path, NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "3 plies, unfinished"));
    free(out);
    free(errs);
    char *input = malloc(8000);
    assert_non_null(input);
    input[0] = '\0';
    for (int i = 0; i < 2000; i++)
        strcat(input, "1\n");
    status = tu_run(input, &out, &errs, "play", "--resume", path, NULL);
    free(input);
    if (status != 0)
        fail_msg("resume: status %d: %s", status, errs);
    assert_non_null(strstr(out, "Resuming"));
    assert_non_null(strstr(out, "after 3 moves"));
    /* the record's player 2, greedy: Kendall's level 4, named so */
    assert_non_null(strstr(out, "Black (the computer, level 4)"));
    assert_non_null(strstr(out, " after "));
    free(out);
    free(errs);
    status = tu_run(NULL, &out, &errs, "replay", path, NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "won"));
    assert_null(strstr(out, "unfinished"));
    assert_null(strstr(out, "resigned")); /* won by the rules */
    free(out);
    free(errs);
    /* stepped through on its board */
    status =
        tu_run("\n\nb\n5\nq\n", &out, &errs, "replay", path, "--show", NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "The start"));
    const char *two = strstr(out, "Ply 2 of ");
    assert_non_null(two);
    assert_non_null(strstr(two, "Ply 1 of ")); /* b: one back */
    assert_non_null(strstr(two, "Ply 5 of "));
    assert_non_null(strstr(out, "White threw "));
    free(out);
    free(errs);
    BAD("the game is over", "play", "--resume", path);
    unlink(path);
    /* resigning (asked first): the record says so, and replays */
    status = tu_run("1\nresign\nn\nresign\ny\n", &out, &errs, "play",
                    "senet-kendall", "--seed", "4", "--p2", "greedy",
                    "--record", path, NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "White resigns."));
    assert_non_null(strstr(out, "Black (greedy) wins after"));
    free(out);
    free(errs);
    /* the resignation said, not a win by the rules: no winner= on a
       board nobody bore off from */
    status = tu_run(NULL, &out, &errs, "replay", path, NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "player 1 resigned, player 2 won\n"));
    assert_non_null(strstr(out, "final position: senet-kendall to="));
    assert_null(strstr(out, "winner="));
    free(out);
    free(errs);
    status = tu_run("\n\n\n\n\n\n\n\nq\n", &out, &errs, "replay", "--show",
                    path, NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "Then White resigned: Black won."));
    free(out);
    free(errs);
    status =
        tu_run(NULL, &out, &errs, "review", path, "--agent", "greedy", NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "White (player 1) resigned after move "));
    free(out);
    free(errs);
    status = tu_run(NULL, &out, &errs, "review", path, "--agent", "greedy",
                    "--json", NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "\"resigned\":1,"));
    free(out);
    free(errs);
    BAD("give none of them", "play", "--resume", path, "--seed", "3");
    /* a record without a seed: its throws cannot go on */
    FILE *f = fopen(path, "w");
    fputs("kemet-record 1\nruleset senet-kendall\nresult unfinished\n", f);
    fclose(f);
    BAD("has no seed", "play", "--resume", path);
    unlink(path);
    BAD("/nonexistent", "play", "--resume", "/nonexistent/x.rec");
}

/* --position: a game set up in a position, without the opening; its
 * record says "setup", replays, and resumes from there. */
static void play_position(void **state) {
    (void)state;
    char path[] = "/tmp/kemet-test-pos-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    const char *setup = "senet-kendall to=2 p1=20,22 p2=21,23";
    char *out, *errs;
    int status =
        tu_run("1\nquit\ny\n", &out, &errs, "play", "--position", setup,
               "--level", "1", "--seed", "11", "--record", path, NULL);
    if (status != 0)
        fail_msg("status %d: %s", status, errs);
    assert_non_null(strstr(out, "Start: senet-kendall to=2 p1=20,22 p2=21,23"));
    free(out);
    free(errs);
    char *rec = calloc(1, 4096);
    assert_non_null(rec);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_true(fread(rec, 1, 4095, f) > 0);
    fclose(f);
    assert_non_null(strstr(rec, "\nsetup senet-kendall to=2 p1=20,22 "
                                "p2=21,23\n"));
    assert_null(strstr(rec, "\nstart "));
    free(rec);
    status = tu_run(NULL, &out, &errs, "replay", path, NULL);
    if (status != 0)
        fail_msg("replay: status %d: %s", status, errs);
    assert_non_null(strstr(out, "unfinished"));
    free(out);
    free(errs);
    /* resumed: the throws go on from the seed after the set-up start */
    char *input = malloc(4000);
    assert_non_null(input);
    input[0] = '\0';
    for (int i = 0; i < 1000; i++)
        strcat(input, "1\n");
    status = tu_run(input, &out, &errs, "play", "--resume", path, NULL);
    free(input);
    if (status != 0)
        fail_msg("resume: status %d: %s", status, errs);
    assert_non_null(strstr(out, "Start: senet-kendall to=2 p1=20,22 p2=21,23"));
    free(out);
    free(errs);
    status = tu_run(NULL, &out, &errs, "replay", path, NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "won"));
    free(out);
    free(errs);
    unlink(path);
    BAD("the game is over", "play", "--position",
        "senet-kendall to=1 p1=- p2=3 winner=1");
    BAD("not of chien-chacal", "play", "chien-chacal", "--position", setup);
    BAD("--position", "play", "--position", "senet-kendall to=3 p1=1");
    BAD("--board", "play", "--position", setup, "--board", "x.board");
    BAD("give none of them", "play", "--resume", "x.rec", "--position", setup);
}

static int count_of(const char *text, const char *what) {
    int n = 0;
    for (const char *s = text; (s = strstr(s, what)); s++)
        n++;
    return n;
}

/* Against the computer, the 58-holes board is drawn before the person's
 * plies only, not again before the computer's. */
static void board_once_a_turn(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run("1\n1\n1\n1\n1\n1\n1\n1\nquit\ny\n", &o, &e, "play",
                    "dogs-jackals", "--seed", "3", "--level", "1", NULL);
    assert_int_equal(st, 0);
    int boards = count_of(o, "  Shared  30"),
        mine = count_of(o, "Dogs (you) throw:");
    int theirs = count_of(o, "Jackals (the computer, level 1) throw ");
    if (!(theirs >= 3 && mine >= 3 && boards <= mine + 1))
        fail_msg("%d boards for %d plies of the person's and %d of the "
                 "computer's",
                 boards, mine, theirs);
    free(o);
    free(e);
}

/* In the middle of a turn of several values every command works, and
 * undo takes back one step at a time. */
static void commands_mid_turn(void **state) {
    (void)state;
    char *o, *e;
    /* seed 3: the Lions throw 2, 3, 4 and a dual 3 */
    int st =
        tu_run("5-7\nhint\npos\n4-8\nundo\nundo\nquit\ny\n", &o, &e, "play",
               "lions-jackals", "--seed", "3", "--level", "1", NULL);
    assert_int_equal(st, 0);
    const char *a = strstr(o, "So far 5-7; values still to spend: 3 3 4");
    assert_non_null(a);
    assert_non_null(strstr(a, "Your chance of winning after each way to "
                              "finish the turn begun 5-7"));
    assert_non_null(strstr(a, "position: lions-jackals to=1"));
    const char *b = strstr(a, "So far 5-7+4-8;");
    assert_non_null(b);
    const char *c = strstr(b, "So far 5-7; values"); /* one step back */
    assert_non_null(c);
    assert_non_null(strstr(c, "Lions> ")); /* then the whole list again */
    assert_null(strstr(o, "is not a move"));
    /* the long list stops at 20, and 'list' shows it all */
    assert_non_null(strstr(o, "more ('more': the next ones; 'list': all"));
    assert_null(strstr(o, "  21) "));
    /* the board is drawn again after each step, the step marked (the
       compact board of 24 rows: in lower case) */
    const char *step = strstr(o, "Lions> ");
    assert_non_null(step);
    const char *drawn = strstr(step, "  1 L  2 L  3 L  4 L  5 .  6 .  7 l");
    assert_non_null(drawn);
    assert_true(drawn < a);
    free(o);
    free(e);
    st = tu_run("list\nquit\ny\n", &o, &e, "play", "lions-jackals", "--seed",
                "3", "--level", "1", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "  21) "));
    free(o);
    free(e);
    /* 'more' pages on by a screenful (21 rows), not to the end */
    st = tu_run("more\nquit\ny\n", &o, &e, "play", "lions-jackals", "--seed",
                "1", "--level", "1", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "  21) "));
    assert_null(strstr(o, "  41) "));
    free(o);
    free(e);
    /* seed 1, Lions throw 3 4 5 1: after 3-6+2-3+4-9 the step 9-13-9 (a
       4 from 9 to the river's 13) is listed with its note */
    st = tu_run("3-6+2-3+4-9\nquit\ny\n", &o, &e, "play", "lions-jackals",
                "--seed", "1", "--level", "1", NULL);
    assert_int_equal(st, 0);
    a = strstr(o, "So far 3-6+2-3+4-9; values still to spend: 4");
    assert_non_null(a);
    assert_non_null(strstr(a, ") 9-13-9   carried back by the river"));
    assert_null(strstr(a, ") 3-7      carried"));
    free(o);
    free(e);
}

/* The widest line of `text`, in characters (UTF-8), leaving out lines
 * that begin with `skip` (a position, which is never broken) and the
 * y/n questions. */
static int widest(const char *text, const char *skip) {
    int w = 0;
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        int c = 0;
        for (size_t i = 0; i < n; i++)
            c += ((unsigned char)l[i] & 0xC0) != 0x80;
        /* a prompt and the next prompt's question share a line only
           because the test's input is not echoed */
        const char *q = strstr(l, "y/n> ");
        bool prompt = q && q < l + n;
        if (!(skip && strncmp(l, skip, strlen(skip)) == 0) && !prompt && c > w)
            w = c;
        l += n + (l[n] == '\n');
    }
    return w;
}

/* Every ruleset's game fits 80 columns (board, header, sticks, lists,
 * hints); below 80 the board takes its compact form and the header and
 * sentences wrap. */
static void narrow_terminal(void **state) {
    (void)state;
    static const char *const rs[] = {"senet-kendall",
                                     "senet-robinson",
                                     "dogs-jackals",
                                     "dogs-jackals-extended",
                                     "hounds-jackals-skiryuk",
                                     "chien-chacal",
                                     "hounds-jackals-washburne",
                                     "hounds-jackals-washburne-dice",
                                     "lions-jackals",
                                     "lions-jackals-quick"};
    char *o, *e;
    for (size_t i = 0; i < sizeof rs / sizeof *rs; i++) {
        int st = tu_run("hint\nboard compact\nquit\ny\n", &o, &e, "play", rs[i],
                        "--seed", "1", "--level", "1", NULL);
        assert_int_equal(st, 0);
        if (widest(o, NULL) > 79)
            fail_msg("%s: a line of %d characters", rs[i], widest(o, NULL));
        assert_non_null(strstr(o, "lower case: the piece last moved"));
        free(o);
        free(e);
    }
    setenv("COLUMNS", "60", 1);
    int st = tu_run("quit\ny\n", &o, &e, "play", "senet-kendall", "--seed", "1",
                    "--level", "1", NULL);
    unsetenv("COLUMNS");
    assert_int_equal(st, 0);
    assert_true(widest(o, "Start: ") <= 59);
    /* the compact board: holes in the order of the board */
    assert_non_null(strstr(o, "  20 . 19 . 18 . 17 . 16 . 15 . 14 B 13 W "
                              "12 B 11 W"));
    assert_non_null(strstr(o, "Signs: 15\u00a0☥, 26\u00a0nfr"));
    assert_null(strstr(o, "+------+"));
    free(o);
    free(e);
    /* --compact at any width; the 58-holes board numbers each side (in
       the board's layout on a terminal tall enough for it) */
    setenv("LINES", "48", 1);
    st = tu_run("quit\ny\n", &o, &e, "play", "dogs-jackals", "--seed", "1",
                "--level", "1", "--compact", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "its own holes: Dogs' on the right."));
    assert_non_null(strstr(o, "Lines: 6-20, 8-10."));
    assert_non_null(strstr(o, "  20 j ")); /* Jackals moved 3-20 */
    free(o);
    free(e);
    /* Washburne's board: each side's holes in its own numbers, as the
       full board has them */
    st = tu_run("quit\ny\n", &o, &e, "play", "hounds-jackals-washburne",
                "--seed", "1", "--level", "1", "--compact", NULL);
    unsetenv("LINES");
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "its own holes: Hounds' on the right."));
    assert_non_null(strstr(o, "  25 .  1 J         1 H 25 ."));
    free(o);
    free(e);
}

/* --auto (and 'auto on') plays a person's only legal move for them. */
static void auto_forced(void **state) {
    (void)state;
    char *o, *e;
    /* seed 1: the Dogs' first throw can only enter a piece */
    int st = tu_run("quit\ny\n", &o, &e, "play", "dogs-jackals", "--seed", "1",
                    "--level", "1", "--auto", NULL);
    assert_int_equal(st, 0);
    assert_non_null(
        strstr(o, "The only move, in-1, is played ('auto off' to be asked)"));
    free(o);
    free(e);
    st = tu_run("quit\ny\n", &o, &e, "play", "dogs-jackals", "--seed", "1",
                "--level", "1", NULL);
    assert_int_equal(st, 0);
    assert_null(strstr(o, "The only move"));
    assert_non_null(strstr(o, "  1) in-1"));
    free(o);
    free(e);
    st = tu_run("auto on\n1\nquit\ny\n", &o, &e, "play", "dogs-jackals",
                "--seed", "2", "--level", "1", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "played for you from now on"));
    free(o);
    free(e);
}

/* takeback: against the computer the last move goes back with what
 * followed, the same throw comes again, and the record stays exact;
 * between two people a move stands. */
static void take_back(void **state) {
    (void)state;
    char path[] = "/tmp/kemet-test-tb-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    char *o, *e;
    /* seed 4: White throws 1 (1-2), then 3 (3-6 first, then 5-8) */
    int st = tu_run("takeback\n1\n1\ntakeback\n2\nquit\ny\n", &o, &e, "play",
                    "senet-kendall", "--seed", "4", "--p2", "greedy",
                    "--record", path, NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "There is no move of yours to take back"));
    const char *tb = strstr(o, "Taken back");
    assert_non_null(tb);
    assert_non_null(strstr(tb, "White moves 5-8"));
    free(o);
    free(e);
    char *rec = NULL;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    rec = calloc(1, 4096);
    assert_non_null(rec);
    assert_true(fread(rec, 1, 4095, f) > 0);
    fclose(f);
    assert_non_null(strstr(rec, "\n1 1 1-2\n1 3 5-8\n"));
    assert_null(strstr(rec, "3-6"));
    free(rec);
    st = tu_run(NULL, &o, &e, "replay", path, NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "valid record"));
    free(o);
    free(e);
    unlink(path);
    st = tu_run("1\ntakeback\nquit\ny\n", &o, &e, "play", "senet-kendall",
                "--seed", "4", "--p2", "human", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "a move stands"));
    free(o);
    free(e);
}

/* The record file's text, or fails the test. */
static char *record_text(const char *path) {
    char *text = tu_read_file(path);
    if (!text)
        fail_msg("cannot read the record %s", path);
    return text;
}

/* Runs kemet replay on `path`, which must be a valid record. */
static void replays(const char *path) {
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "replay", path, NULL);
    if (st != 0 || !strstr(o, "valid record"))
        fail_msg("replay %s: status %d, stdout %s, stderr %s", path, st, o, e);
    free(o);
    free(e);
}

/* A folder holding only the record `name` (no temporary file left
 * beside it). */
static void only_the_record(const char *dir, const char *name) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -A '%s'", dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char buf[512];
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    pclose(p);
    char want[64];
    snprintf(want, sizeof want, "%s\n", name);
    assert_string_equal(buf, want);
}

/* Take-back follows the library's rule: back to the person's last move
 * that was a choice, never a pass (it once went back to the pass, whose
 * throw passed again). Seed 2, against greedy: White plays 1-2 and 3-6,
 * then passes three times with 2s; 'takeback' goes back to 3-6, its 3
 * thrown again, and the record is cut back to 1-2. */
static void take_back_skips_passes(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-test-tbp-XXXXXX", rec[64];
    assert_non_null(mkdtemp(dir));
    snprintf(rec, sizeof rec, "%s/game.rec", dir);
    char *o, *e;
    int st = tu_run("1\n1\nquit\ny\n", &o, &e, "play", "senet-kendall",
                    "--seed", "2", "--p2", "greedy", "--record", rec, NULL);
    assert_int_equal(st, 0);
    free(o);
    free(e);
    char *text = record_text(rec);
    assert_non_null(strstr(text, "\n1 1 1-2\n1 3 3-6\n"));
    assert_non_null(strstr(text, "\n1 2 pass\n2 2 14-16\n1 2 pass\n"
                                 "2 3 16-19\nresult unfinished\n"));
    free(text);
    unlink(rec);
    st = tu_run("1\n1\ntakeback\nquit\ny\n", &o, &e, "play", "senet-kendall",
                "--seed", "2", "--p2", "greedy", "--record", rec, NULL);
    assert_int_equal(st, 0);
    const char *tb = strstr(o, "Taken back: your last move");
    assert_non_null(tb);
    /* the throw of 3-6 again, and its moves */
    const char *thr = strstr(tb, "White (you) throws: ");
    assert_non_null(thr);
    assert_non_null(strstr(thr, "= 3 "));
    assert_non_null(strstr(thr, "  1) 3-6 "));
    assert_null(strstr(tb, "pass"));
    free(o);
    free(e);
    text = record_text(rec);
    assert_non_null(strstr(text, "start senet-kendall to=1 p1=1,3,5,7,9,11,13 "
                                 "p2=2,4,6,8,10,12,14\n1 1 1-2\n"
                                 "result unfinished\n"));
    free(text);
    replays(rec);
    only_the_record(dir, "game.rec");
    unlink(rec);
    rmdir(dir);
}

/* A game resumed goes on with the same dice: two people's game played
 * in three sittings is the game played in one, byte for byte, and its
 * record replays. */
static void resume_same_dice(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-test-rsd-XXXXXX", one[64], three[64];
    assert_non_null(mkdtemp(dir));
    snprintf(one, sizeof one, "%s/one", dir);
    snprintf(three, sizeof three, "%s/three", dir);
    char in[256] = "";
    for (int i = 0; i < 30; i++)
        strcat(in, "1\n");
    strcat(in, "quit\ny\n");
    char *o, *e;
    int st = tu_run(in, &o, &e, "play", "chien-chacal", "--seed", "5", "--p2",
                    "human", "--record", one, NULL);
    assert_int_equal(st, 0);
    free(o);
    free(e);
    st = tu_run("1\n1\n1\n1\nquit\ny\n", &o, &e, "play", "chien-chacal",
                "--seed", "5", "--p2", "human", "--record", three, NULL);
    assert_int_equal(st, 0);
    free(o);
    free(e);
    for (int sitting = 0; sitting < 2; sitting++) {
        char part[256] = "";
        for (int i = 0; i < (sitting ? 16 : 10); i++)
            strcat(part, "1\n");
        strcat(part, "quit\ny\n");
        st = tu_run(part, &o, &e, "play", "--resume", three, NULL);
        if (st != 0)
            fail_msg("resume: status %d: %s", st, e);
        assert_non_null(strstr(o, "Resuming "));
        assert_non_null(strstr(o, "Dogs (player 1)"));
        free(o);
        free(e);
        replays(three);
    }
    char *a = record_text(one), *b = record_text(three);
    assert_string_equal(b, a);
    free(a);
    free(b);
    unlink(one);
    unlink(three);
    rmdir(dir);
}

/* Take-back reaches into the plies a resumed record held (it once said
 * they stood), and the record is written again as the game then stands.
 * Seed 4 against greedy: White 1-2 (throw 1), 3-6 (throw 3), Black 8-11;
 * resumed, 'takeback' goes back to 3-6, and again to 1-2. */
static void take_back_resumed(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-test-tbr-XXXXXX", rec[64];
    assert_non_null(mkdtemp(dir));
    snprintf(rec, sizeof rec, "%s/r", dir);
    char *o, *e;
    int st = tu_run("1\n1\nquit\ny\n", &o, &e, "play", "senet-kendall",
                    "--seed", "4", "--p2", "greedy", "--record", rec, NULL);
    assert_int_equal(st, 0);
    free(o);
    free(e);
    char *text = record_text(rec);
    assert_non_null(
        strstr(text, "\n1 1 1-2\n1 3 3-6\n2 3 8-11\nresult unfinished\n"));
    free(text);
    st = tu_run("takeback\nquit\ny\n", &o, &e, "play", "--resume", rec, NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "Taken back: your last move"));
    assert_null(strstr(o, "stand"));
    free(o);
    free(e);
    text = record_text(rec);
    assert_non_null(strstr(text, "\n1 1 1-2\nresult unfinished\n"));
    assert_null(strstr(text, "3-6"));
    assert_null(strstr(text, "8-11"));
    free(text);
    replays(rec);
    /* again: the first move goes back too, its throw of 1 again */
    st =
        tu_run("takeback\n1\nquit\ny\n", &o, &e, "play", "--resume", rec, NULL);
    assert_int_equal(st, 0);
    const char *tb = strstr(o, "Taken back");
    assert_non_null(tb);
    assert_non_null(strstr(tb, "= 1 "));
    free(o);
    free(e);
    text = record_text(rec);
    assert_non_null(strstr(text, "\nplayer2 greedy\n"));
    assert_non_null(strstr(text, "\n1 1 1-2\n"));
    free(text);
    replays(rec);
    only_the_record(dir, "r");
    unlink(rec);
    rmdir(dir);
}

/* A resignation is the record's: "resign P" and the other's win, in a
 * game resumed too; and resigning stops the game there. */
static void resignation_recorded(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-test-rsg-XXXXXX", rec[64];
    assert_non_null(mkdtemp(dir));
    snprintf(rec, sizeof rec, "%s/r", dir);
    char *out, *errs;
    int status =
        tu_run("1\nquit\ny\n", &out, &errs, "play", "chien-chacal", "--seed",
               "3", "--level", "1", "--side", "2", "--record", rec, NULL);
    assert_int_equal(status, 0);
    free(out);
    free(errs);
    status = tu_run("resign\ny\n", &out, &errs, "play", "--resume", rec, NULL);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "Jackals resign."));
    assert_non_null(strstr(out, "Dogs (the computer, level 1) win after "));
    free(out);
    free(errs);
    char *text = record_text(rec);
    assert_non_null(strstr(text, "\nresign 2\nresult 1\n"));
    free(text);
    replays(rec);
    BAD("the game is over", "play", "--resume", rec);
    only_the_record(dir, "r");
    unlink(rec);
    rmdir(dir);
}

/* Jequier's opening seats the contestants (JQ1): whoever throws the first
 * 1 plays Black. The library's opening names the contestant (event
 * FIRST1, b: 1 the one named first, the person); kemet play seats the
 * person by it unless told a side, and says so. */
static void jequier_opening_seats(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-jequier", &r, &err), KEMET_OK);
    int seen[3] = {0};
    for (uint64_t seed = 3; seed <= 8; seed++) {
        kemet_game *g;
        kemet_events ev = {0};
        assert_int_equal(kemet_game_new(r, seed, &g, &ev), KEMET_OK);
        kemet_game_free(g);
        int b = 0;
        for (int e = 0; e < ev.n; e++)
            if (ev.ev[e].kind == KEMET_EV_FIRST1)
                b = ev.ev[e].b;
        assert_true(b == 1 || b == 2);
        seen[b]++;
        char sd[8], *o, *e;
        snprintf(sd, sizeof sd, "%llu", (unsigned long long)seed);
        assert_int_equal(tu_run("quit\ny\n", &o, &e, "play", "senet-jequier",
                                "--seed", sd, NULL),
                         0);
        if (!strstr(o, b == 1 ? "You threw the 1 first: you play Black."
                              : "The computer threw the 1 first: it plays "
                                "Black, you White."))
            fail_msg("seed %s, contestant %d threw the 1: %s", sd, b, o);
        free(o);
        free(e);
        /* told a side, the person sits there, and nothing is said */
        assert_int_equal(tu_run("quit\ny\n", &o, &e, "play", "senet-jequier",
                                "--seed", sd, "--side", "1", NULL),
                         0);
        assert_null(strstr(o, "threw the 1 first"));
        assert_non_null(strstr(o, "White (you)"));
        free(o);
        free(e);
    }
    assert_true(seen[1] > 0 && seen[2] > 0);
    kemet_rules_close(r);
}

/* 'why' explains the computer's last choice by its own chances. */
static void why_command(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run("why\n1\nwhy\nquit\ny\n", &o, &e, "play", "chien-chacal",
                    "--seed", "8", "--level", "3", NULL);
    assert_int_equal(st, 0);
    const char *w = strstr(o, "weighed its choices");
    assert_non_null(w);
    assert_non_null(
        strstr(o, "Jackals (the computer, level 3) with the throw "));
    assert_non_null(strstr(w, "-> ")); /* the choice it took */
    free(o);
    free(e);
    /* Level 2 plays 60% of its moves at random: 'why' says so where the
       move it took was not the best it saw, and asking changes nothing of
       its play (the same game with and without asking) */
    char *in = malloc(1000), *plain = malloc(1000);
    assert_true(in && plain);
    in[0] = plain[0] = '\0';
    for (int i = 0; i < 40; i++) {
        strcat(in, "why\n1\n");
        strcat(plain, "1\n");
    }
    strcat(in, "quit\ny\n");
    strcat(plain, "quit\ny\n");
    char *o2, *e2;
    assert_int_equal(tu_run(in, &o, &e, "play", "chien-chacal", "--seed", "1",
                            "--level", "2", NULL),
                     0);
    assert_int_equal(tu_run(plain, &o2, &e2, "play", "chien-chacal", "--seed",
                            "1", "--level", "2", NULL),
                     0);
    const char *r = strstr(o, "At this level the computer plays 60% of its");
    if (!r)
        fail_msg("no word of the random moves in: %s", o);
    /* the computer's moves, in order, alike in both games */
    char moves[2][2000] = {"", ""};
    const char *text[2] = {o, o2};
    for (int g = 0; g < 2; g++)
        for (const char *p = text[g];
             (p = strstr(p, "Jackals (the computer, level 2) throw")); p++) {
            const char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            char line[64];
            snprintf(line, sizeof line, "%.*s;", (int)(len < 60 ? len : 60), p);
            strcat(moves[g], line);
            if (strlen(moves[g]) > 1900)
                break;
        }
    assert_true(strlen(moves[0]) > 40);
    assert_string_equal(moves[0], moves[1]);
    free(o);
    free(e);
    free(o2);
    free(e2);
    free(in);
    free(plain);
}

/* The engine protocol through a pipe: one answer a line, errors as
 * lines, the engine going on after them. */
/* The engine's answers `o`, line by line, each beginning as want[i]
 * says; returns what follows the last (NULL: no more lines). */
static const char *engine_answers(const char *o, const char *const *want,
                                  size_t n) {
    const char *line = o;
    for (size_t i = 0; i < n; i++) {
        assert_non_null(line);
        if (strncmp(line, want[i], strlen(want[i])) != 0)
            fail_msg("answer %zu: '%.80s', not '%s...'", i + 1, line, want[i]);
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return line;
}

static void engine_protocol(void **state) {
    (void)state;
    char *o, *e;
    const char *in = "hello\n"
                     "moves\n"
                     "new chien-chacal\n"
                     "throw 1\n"
                     "moves\n"
                     "go 2k\n"
                     "hint\n"
                     "apply 9-12\n"
                     "apply in-1\n"
                     "throw 7\n"
                     "bogus\n"
                     "position senet-kendall to=1 p1=- p2=29 winner=2\n"
                     "go\n"
                     "position senet-kendall to=1 p1=29\xff p2=3\n"
                     "agent oracle\n"
                     "agent greedy\n"
                     "new senet-kendall\n"
                     "hint\n"
                     "show\n"
                     "quit\n"
                     "hello\n";
    int st = tu_run(in, &o, &e, "engine", "--agent", "expectimax:2k", NULL);
    assert_int_equal(st, 0);
    const char *want[] = {
        "hello kemet ",
        "error no position yet",
        "position chien-chacal to=1 p1=- h1=5 p2=- h2=5",
        "throw 1",
        "moves in-1",
        "bestmove in-1 chance 0.",
        "hint in-1 0.",
        "error 9-12: ",
        "position chien-chacal to=1 p1=1 h1=4 p2=- h2=5 must=1",
        "error impossible throw '7'",
        "error unknown command 'bogus'",
        "position senet-kendall to=1 p1=- p2=29 winner=2",
        "error the game is over",
        "error ",
        "error unknown agent",
        "agent greedy",
        "position senet-kendall to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14",
        "hint throw ",
        "position senet-kendall to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14 "
        "throw none",
        "bye"};
    const char *line = engine_answers(o, want, sizeof want / sizeof want[0]);
    assert_string_equal(line, ""); /* nothing after bye: quit ended it */
    free(o);
    free(e);
}

/* Tab's values still to play: after a step with values left, or from a
 * position with left=, they are the pending throw (the moves are theirs,
 * `go` chooses among them, not "throw"); a new throw is refused there. */
static void engine_values_left(void **state) {
    (void)state;
    char *o, *e;
    const char *in = "position tab-58 to=1 p1=26,40 p2=30,7\n"
                     "throw 4,2\n"
                     "apply 26-30\n"
                     "moves\n"
                     "go\n"
                     "throw 3\n"
                     "apply 30-32\n"
                     "moves\n"
                     "position tab-58 to=1 p1=12,40 p2=7 left=3\n"
                     "moves\n"
                     "throw none\n"
                     "moves\n"
                     "quit\n";
    int st = tu_run(in, &o, &e, "engine", "--agent", "greedy", NULL);
    assert_int_equal(st, 0);
    const char *want[] = {"position tab-58 to=1 p1=26,40 p2=7,30",
                          "throw 4,2",
                          "position tab-58 to=1 p1=30,40 p2=7 left=2",
                          "moves 30-32 40-42",
                          "bestmove ",
                          "error no new throw here",
                          "position tab-58 to=2 p1=32,40 p2=7",
                          "moves\n",
                          "position tab-58 to=1 p1=12,40 p2=7 left=3",
                          "moves 12-15 40-43",
                          "throw none",
                          "moves 12-15 40-43",
                          "bye"};
    engine_answers(o, want, sizeof want / sizeof want[0]);
    /* a move for the 2 left, not a throw */
    assert_null(strstr(o, "bestmove throw"));
    free(o);
    free(e);
}

/* Bad arguments answered at once, each with its own words, and the
 * engine usable after them: an impossible throw is refused at 'throw'
 * (it once stood, and every later command answered a bare "impossible
 * throw"); a line of blanks is an empty line; 'new' needs a ruleset; a
 * budget no agent takes is named as a bad budget; a budget keeps the
 * agent's @linear. */
static void engine_bad_arguments(void **state) {
    (void)state;
    char *o, *e;
    const char *in = "new\n"
                     "new lions-jackals\n"
                     "throw 4,4,5,2@2\n"
                     "show\n"
                     "moves\n"
                     "throw 4,4,5,2@1\n"
                     "show\n"
                     "   \n"
                     "\t \n"
                     "  hello  \n"
                     "throw\n"
                     "moves now\n"
                     "agent greedy\n"
                     "go abc\n"
                     "go 2k\n"
                     "hint abc\n"
                     "go\n"
                     "agent greedy@linear\n"
                     "agent expectimax@plain\n"
                     "go 200\n"
                     "quit now\n"
                     "quit\n";
    int st = tu_run(in, &o, &e, "engine", NULL);
    assert_int_equal(st, 0);
    const char *want[] = {
        "error new needs a ruleset: senet-kendall, senet-robinson, ",
        "position lions-jackals to=1 ",
        "error impossible throw '4,4,5,2@2' here: player 1 is to throw",
        "position lions-jackals to=1 p1=1,2,3,4,5 p2=1,2,3,4,5 throw none",
        "moves\n",
        "throw 4,4,5,2@1",
        "position lions-jackals to=1 p1=1,2,3,4,5 p2=1,2,3,4,5 throw "
        "4,4,5,2@1",
        "error an empty line (",
        "error an empty line (",
        "hello kemet ",
        "error throw needs a throw (",
        "error moves takes no argument, not 'now'",
        "agent greedy",
        "error bad budget 'abc' (",
        "error agent 'greedy' takes no budget",
        "error bad budget 'abc' (",
        "bestmove ",
        "agent greedy@linear",
        "agent expectimax@plain",
        "bestmove ",
        "error quit takes no argument",
        "bye"};
    const char *line = engine_answers(o, want, sizeof want / sizeof want[0]);
    assert_string_equal(line, "");
    free(o);
    free(e);
}

static void engine_options(void **state) {
    (void)state;
    /* an oversized line, and a NUL byte: refused, and the engine goes on */
    char *big = malloc(6000), *out, *errs;
    assert_non_null(big);
    memset(big, 'a', 5000);
    strcpy(big + 5000, "\nhello\n");
    int status = tu_run(big, &out, &errs, "engine", NULL);
    assert_int_equal(status, 0);
    assert_non_null(
        strstr(out, "error the line is over 4096 bytes\nhello kemet"));
    free(out);
    free(errs);
    free(big);
    BAD("--agent", "engine", "--agent", "oracle");
    /* an agent spec too long to keep is refused, not cut */
    char spec[200];
    snprintf(spec, sizeof spec, "expectimax:%0100d", 5);
    BAD("over 63 characters", "engine", "--agent", spec);
    BAD("unknown option", "engine", "--bogus");
}

/* Two computer players: the game runs to its end by itself. */
static void computer_game(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run("", &o, &e, "play", "senet-robinson", "--p1", "greedy",
                    "--p2", "random", "--seed", "3", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, " wins after "));
    assert_non_null(strstr(o, "Start: senet-robinson to="));
    free(o);
    free(e);
}

/* Playing as player 2 against a level; the position on request; quit asks
 * once; a record in a missing folder is refused for what it is. */
static void play_options(void **state) {
    (void)state;
    char *out, *errs;
    int status =
        tu_run("pos\nquit\nn\nquit\ny\n", &out, &errs, "play", "chien-chacal",
               "--level", "2", "--side", "2", "--seed", "5", NULL);
    assert_int_equal(status, 0);
    /* the game by its author and year, not by a file */
    assert_true(strncmp(out,
                        "Chien et Chacal: a French rules sheet, author "
                        "unknown, year not given.\n",
                        71) == 0);
    assert_non_null(strstr(out, "Dogs (D) is player 1"));
    assert_non_null(strstr(out, "(the computer, level 2)"));
    assert_non_null(strstr(out, "Jackals (you)"));
    assert_non_null(strstr(out, "position: chien-chacal to=2"));
    assert_non_null(strstr(out, "kemet hint 'chien-chacal"));
    assert_null(strstr(out, "\033[")); /* no colour into a pipe */
    /* the first quit was answered n: the game went on to the second */
    const char *q = strstr(out, "Leave the game?");
    assert_non_null(q);
    assert_non_null(strstr(q + 1, "Leave the game?"));
    assert_non_null(strstr(out, "unfinished after"));
    free(out);
    free(errs);
    BAD("give --p1/--p2 instead", "play", "--side", "2", "--p2", "random");
    BAD("--side", "play", "--level", "2", "--side", "3");
    BAD("No such file or directory", "play", "--record", "/nonexistent/x.rec",
        "--p1", "greedy");
}

/* kemet match: the JSON fields, the counts adding up, the same result on
 * one thread and on three, and the interval and Elo computed right for the
 * counts it reports (Wilson's formula written out here). */
static void match_json(void **state) {
    (void)state;
    char *o1, *o3, *e;
    int st = tu_run(NULL, &o1, &e, "match", "chien-chacal", "--p1", "greedy",
                    "--p2", "random", "--games", "300", "--seed", "4",
                    "--threads", "1", "--json", NULL);
    assert_int_equal(st, 0);
    free(e);
    st = tu_run(NULL, &o3, &e, "match", "chien-chacal", "--p1", "greedy",
                "--p2", "random", "--games", "300", "--seed", "4", "--threads",
                "3", "--json", NULL);
    assert_int_equal(st, 0);
    free(e);
    /* Each agent's time per move ends the object; the rest is the same. */
    double secs[2];
    char *t1 = strstr(o1, ",\"seconds_per_move\":");
    char *t3 = strstr(o3, ",\"seconds_per_move\":");
    assert_non_null(t1);
    assert_non_null(t3);
    assert_int_equal(
        sscanf(t1, ",\"seconds_per_move\":[%lf,%lf]}", &secs[0], &secs[1]), 2);
    assert_true(secs[0] > 0 && secs[0] < 1 && secs[1] >= 0 && secs[1] < 1);
    *t1 = *t3 = '\0';
    assert_string_equal(o1, o3);
    long games, wa, wb, draws, stopped;
    double lo, hi, elo, elo_lo, elo_hi;
    const char *p = strstr(o1, "\"agents\":[\"greedy\",\"random\"],\"games\":");
    assert_non_null(p);
    assert_int_equal(sscanf(p,
                            "\"agents\":[\"greedy\",\"random\"],\"games\":%ld,"
                            "\"wins\":[%ld,%ld]",
                            &games, &wa, &wb),
                     3);
    p = strstr(o1, "\"draws\":");
    assert_non_null(p);
    assert_int_equal(
        sscanf(p, "\"draws\":%ld,\"stopped\":%ld", &draws, &stopped), 2);
    assert_int_equal(games, 300);
    assert_int_equal(wa + wb + draws + stopped, 300);
    p = strstr(o1, "\"ci95\":");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "\"ci95\":[%lf,%lf]", &lo, &hi), 2);
    p = strstr(o1, "\"elo\":");
    assert_non_null(p);
    assert_int_equal(
        sscanf(p, "\"elo\":%lf,\"elo_ci95\":[%lf,%lf]", &elo, &elo_lo, &elo_hi),
        3);
    double ph = (double)wa / 300, z = 1.96, n = 300;
    double mid = (ph + z * z / (2 * n)) / (1 + z * z / n);
    double half =
        z * sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / (1 + z * z / n);
    assert_true(fabs(lo - (mid - half)) < 1e-4);
    assert_true(fabs(hi - (mid + half)) < 1e-4);
    double score = ((double)wa + 0.5 * (double)draws) / (double)(300 - stopped);
    assert_true(fabs(elo - 400 * log10(score / (1 - score))) < 0.1);
    assert_true(elo_lo < elo && elo < elo_hi);
    assert_true(wa > wb); /* greedy beats random clearly in this ruleset */
    free(o1);
    free(o3);
    /* The text report says the same counts in words (it once printed the
     * names of the program's variables: "M.draws"). */
    st = tu_run(NULL, &o1, &e, "match", "chien-chacal", "--p1", "greedy",
                "--p2", "random", "--games", "300", "--seed", "4", NULL);
    assert_int_equal(st, 0);
    free(e);
    char want[128];
    snprintf(want, sizeof want,
             "  draws %ld, stopped at the turn cap (1000) %ld\n", draws,
             stopped);
    assert_non_null(strstr(o1, want));
    assert_non_null(strstr(o1, "  A's score "));
    assert_non_null(strstr(o1, " turns; "));
    assert_non_null(strstr(o1, "  time per move with a choice "));
    assert_null(strstr(o1, "M."));
    free(o1);
}

/* kemet hint: every legal move once, chances between 0 and 1, best first;
 * bad input rejected. */
static void hint_command(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "hint", START, "3", "--agent",
                    "expectimax:d2", "--json", NULL);
    assert_int_equal(st, 0);
    int moves = 0;
    double last = 2;
    for (const char *p = strstr(o, "{\"move\":"); p;
         p = strstr(p + 1, "{\"move\":")) {
        char mv[32];
        double w;
        assert_int_equal(
            sscanf(p, "{\"move\":\"%31[^\"]\",\"win\":%lf", mv, &w), 2);
        assert_true(w >= 0 && w <= 1 && w <= last);
        last = w;
        moves++;
    }
    assert_int_equal(moves, 7); /* 1-4 3-6 5-8 7-10 9-12 11-14 13-16 */
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "hint", "senet-kendall to=1 p1=5,27 p2=1", "none",
                NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "throw"));
    assert_non_null(strstr(o, "27-15"));
    free(o);
    free(e);
}

/* The sentences of a game name the sides in good English: "White moves"
 * and "White's piece", "Hounds move" and "Hounds' piece" (it once printed
 * "Hounds's rearmost piece"): kemet play's lines of a turn, and kemet
 * replay --show's sentences for each ply of the game it recorded. */
static void play_sentences(void **state) {
    (void)state;
    char path[] = "/tmp/kemet-test-sentences-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    char *o, *e;
    int st =
        tu_run(NULL, &o, &e, "play", "hounds-jackals-skiryuk", "--p1", "greedy",
               "--p2", "greedy", "--seed", "1", "--record", path, NULL);
    assert_int_equal(st, 0);
    assert_null(strstr(o, "s's "));
    assert_null(strstr(o, "Hounds (greedy) throws"));
    assert_non_null(strstr(o, "Hounds (greedy) throw "));
    free(o);
    free(e);
    char *in = malloc(4096);
    assert_non_null(in);
    memset(in, '\n', 4000);
    strcpy(in + 4000, "q\n");
    st = tu_run(in, &o, &e, "replay", path, "--show", NULL);
    assert_int_equal(st, 0);
    assert_null(strstr(o, "s's "));
    assert_null(strstr(o, "Hounds moves"));
    assert_non_null(strstr(o, "Hounds move "));
    assert_non_null(strstr(o, "' rearmost piece"));
    free(o);
    free(e);
    unlink(path);
    st = tu_run(NULL, &o, &e, "play", "senet-kendall", "--p1", "greedy", "--p2",
                "greedy", "--seed", "1", "--record", path, NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "White (greedy) throws "));
    free(o);
    free(e);
    st = tu_run(in, &o, &e, "replay", path, "--show", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "White moves "));
    assert_non_null(strstr(o, "White's piece") || strstr(o, "Black's piece")
                        ? "found"
                        : NULL);
    free(o);
    free(e);
    free(in);
    unlink(path);
}

/* Ruling G5 in kemet play: a game between two computers stops unfinished
 * at the turn cap (by default 1000 turns, as sim and match), its record
 * says so and can be resumed. Washburne with dice, random against greedy,
 * seed 1029, never ends: player 1 cannot move and greedy rides the line
 * 54-40 for ever (once it ran until the disk filled). */
static void play_turn_cap(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-cap-XXXXXX", rec[64], *o, *e;
    assert_non_null(mkdtemp(dir));
    snprintf(rec, sizeof rec, "%s/r", dir);
    int st = tu_run(NULL, &o, &e, "play", "hounds-jackals-washburne-dice",
                    "--p1", "random", "--p2", "greedy", "--seed", "1029",
                    "--record", rec, NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "(the cap of 1000 turns, --max-turns)"));
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "replay", rec, NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "unfinished"));
    free(o);
    free(e);
    remove(rec);
    /* a cap given: any game stops there */
    st = tu_run(NULL, &o, &e, "play", "senet-kendall", "--p1", "greedy", "--p2",
                "greedy", "--seed", "1", "--max-turns", "5", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "(the cap of 5 turns, --max-turns)"));
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "play", "senet-kendall", "--p1", "greedy", "--p2",
                "greedy", "--max-turns", "-3", NULL);
    assert_int_equal(st, 2);
    assert_non_null(strstr(e, "max-turns"));
    free(o);
    free(e);
    rmdir(dir);
}

/* kemet play --level and the hint command at the human's turn. */
static void play_level_and_hint(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run("hint\nquit\n", &o, &e, "play", "--level", "3", "--seed",
                    "3", NULL);
    assert_int_equal(st, 0);
    /* Kendall's level 3 (greedy~0.25), by its level */
    assert_non_null(strstr(o, "Black (the computer, level 3)"));
    assert_null(strstr(o, "greedy~0.25"));
    assert_non_null(strstr(o, "Your chance of winning after each move"));
    free(o);
    free(e);
}

/* kemet ladder --levels: each level against the one below, as the
 * ruleset's file names them (Lions & Jackals Quick's own levels), a pilot
 * then the size asked for, at most the cap; bad options refused. */
static void ladder_levels(void **state) {
    (void)state;
    {
        char *o, *e;
        int st =
            tu_run(NULL, &o, &e, "ladder", "--levels", "lions-jackals-quick",
                   "--pilot", "10", "--cap", "10", "--threads", "1", NULL);
        assert_int_equal(st, 0);
        const char *rows[] = {"| 2 easy | greedy~0.6 | random | ",
                              "| 3 fair | greedy~0.3 | greedy~0.6 | ",
                              "| 4 strong | greedy~0.1 | greedy~0.3 | ",
                              "| 5 very strong | best:20k | greedy~0.1 | "};
        for (int i = 0; i < 4; i++) {
            const char *row = strstr(o, rows[i]);
            if (!row)
                fail_msg("no row '%s' in: %s", rows[i], o);
            /* ... | raw | games | stopped | stronger |: 10 games */
            const char *nl = strchr(row, '\n');
            assert_non_null(nl);
            assert_true(nl - row > 40 && strstr(row, " | 10 | 0 | ") < nl);
        }
        assert_non_null(strstr(o, "## lions-jackals-quick"));
        free(o);
        free(e);
    }
    BAD("--precision takes a half-width", "ladder", "--levels", "--precision",
        "0.7");
    BAD("even numbers of games", "ladder", "--levels", "--pilot", "21");
    BAD("unknown ruleset", "ladder", "--levels", "senet-nowhere");
}

/* kemet tune: a weights file the library reads back, the same on one
 * thread and on two. */
static void tune_command(void **state) {
    (void)state;
    char *o1, *o2, *e;
    int st = tu_run(NULL, &o1, &e, "tune", "chien-chacal", "--games", "40",
                    "--rounds", "2", "--threads", "1", NULL);
    assert_int_equal(st, 0);
    free(e);
    st = tu_run(NULL, &o2, &e, "tune", "chien-chacal", "--games", "40",
                "--rounds", "2", "--threads", "2", NULL);
    assert_int_equal(st, 0);
    free(e);
    assert_string_equal(o1, o2);
    assert_true(strncmp(o1, "kemet-weights 1\n", 16) == 0);
    assert_non_null(strstr(o1, "\nchien-chacal progress="));
    assert_non_null(strstr(o1, "round 2"));
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("chien-chacal", &r, &err), KEMET_OK);
    kemet_judge *j;
    assert_int_equal(kemet_judge_new(r, "linear", &j, &err), KEMET_OK);
    assert_int_equal(kemet_eval_load(j, o1, &err), KEMET_OK);
    kemet_judge_free(j);
    kemet_rules_close(r);
    free(o1);
    free(o2);
}

/* Bad options of match, hint and play --level: one line, status 2. */
static void agent_command_errors(void **state) {
    (void)state;
    BAD("--p1 A and --p2 B", "match", "senet-kendall", "--games", "2");
    BAD("unknown agent", "match", "senet-kendall", "--p1", "x", "--p2",
        "greedy", "--games", "2");
    BAD("bad budget", "match", "senet-kendall", "--p1", "mcts:0", "--p2",
        "greedy", "--games", "2");
    BAD("--games", "match", "senet-kendall", "--p1", "random", "--p2",
        "greedy");
    BAD("unknown ruleset", "match", "ur", "--p1", "random", "--p2", "greedy",
        "--games", "2");
    /* an odd count would end on an unpaired game */
    BAD("--games must be even, not 3", "match", "chien-chacal", "--p1",
        "random", "--p2", "greedy", "--games", "3", "--paired");
    BAD("impossible throw", "hint", START, "7");
    BAD("unknown agent", "hint", START, "3", "--agent", "oracle");
    BAD("game is over", "hint", "senet-kendall to=2 p1=- p2=1 winner=1", "1");
    BAD("--level", "play", "--level", "6");
    BAD("unknown ruleset", "tune", "ur");
    BAD("--games", "tune", "--games", "0");
    BAD("not both", "play", "--level", "2", "--p2", "random");
    BAD("needs a RULESET", "rules", "--board", "/nonexistent");
}

/* The soak: every ruleset and variant played with the invariants checked
 * at every ply; the count of plies reaches what was asked; bad options
 * refused. */
static void soak_command(void **state) {
    (void)state;
    char *out, *err;
    assert_int_equal(tu_run(NULL, &out, &err, "soak", "--plies", "4000",
                            "--seed", "5", NULL),
                     0);
    assert_non_null(strstr(out, "no invariant broken"));
    assert_non_null(strstr(out, "lions-jackals:solid=2,dual=0"));
    assert_non_null(strstr(out, "senet-robinson"));
    long long plies = 0;
    const char *last = strstr(out, " plies in ");
    assert_non_null(last);
    while (last > out && last[-1] != '\n')
        last--;
    assert_int_equal(sscanf(last, "%lld plies", &plies), 1);
    assert_true(plies >= 4000);
    free(out);
    free(err);
    /* one ruleset: only it is played */
    assert_int_equal(tu_run(NULL, &out, &err, "soak", "chien-chacal", "--plies",
                            "500", "--threads", "1", NULL),
                     0);
    assert_non_null(strstr(out, "chien-chacal"));
    assert_null(strstr(out, "senet"));
    free(out);
    free(err);
    BAD("unknown ruleset", "soak", "ur");
    BAD("--plies", "soak", "--plies", "0");
}

static void sim_and_bench(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "sim", "senet-kendall", "--games", "300",
                    "--seed", "9", "--json", NULL);
    assert_int_equal(st, 0);
    long games, w1, w2, draws, stopped;
    const char *p = strstr(o, "\"games\":");
    assert_non_null(p);
    assert_int_equal(sscanf(p,
                            "\"games\":%ld,\"wins\":[%ld,%ld],\"draws\":%ld,"
                            "\"stopped\":%ld",
                            &games, &w1, &w2, &draws, &stopped),
                     5);
    assert_int_equal(games, 300);
    assert_int_equal(w1 + w2 + draws + stopped, 300);
    assert_non_null(strstr(o, "\"mean_turns\":"));
    assert_non_null(strstr(o, "\"games_per_second\":"));
    char *o2, *e2;
    tu_run(NULL, &o2, &e2, "sim", "senet-kendall", "--games", "300", "--seed",
           "9", "--json", NULL);
    /* the same seed gives the same games (compare up to the timing) */
    *strstr(o, "\"seconds\"") = '\0';
    *strstr(o2, "\"seconds\"") = '\0';
    assert_string_equal(o, o2);
    free(o2);
    free(e2);
    /* on one thread or two, random against random (the library's
       playout) and greedy against random alike */
    const char *p1s[] = {"random", "greedy"};
    for (int k = 0; k < 2; k++) {
        char *t1, *t2, *x1, *x2;
        tu_run(NULL, &t1, &x1, "sim", "chien-chacal", "--games", "300",
               "--seed", "9", "--p1", p1s[k], "--threads", "1", "--json", NULL);
        tu_run(NULL, &t2, &x2, "sim", "chien-chacal", "--games", "300",
               "--seed", "9", "--p1", p1s[k], "--threads", "2", "--json", NULL);
        assert_non_null(strstr(t1, "\"seconds\""));
        *strstr(t1, "\"seconds\"") = '\0';
        *strstr(t2, "\"seconds\"") = '\0';
        assert_string_equal(t1, t2);
        free(t1);
        free(t2);
        free(x1);
        free(x2);
    }
    free(o);
    free(e);
    /* a tiny turn cap stops games; they are not counted as results */
    st = tu_run(NULL, &o, &e, "sim", "senet-kendall", "--games", "50",
                "--max-turns", "3", "--json", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "\"wins\":[0,0],\"draws\":0,\"stopped\":50"));
    free(o);
    free(e);
    /* bench: the deterministic count is the same on every run */
    char *b1, *b2;
    st = tu_run(NULL, &b1, &e, "bench", "--games", "2000", "--search",
                "expectimax:2k", "--simple-games", "0", NULL);
    assert_int_equal(st, 0);
    free(e);
    tu_run(NULL, &b2, &e, "bench", "--games", "2000", "--generic", "--search",
           "expectimax:2k", "--simple-games", "0", NULL);
    free(e);
    /* the playouts' count, then the search's */
    for (int k = 0; k < 2; k++) {
        char *c1 = strstr(b1, "deterministic count:");
        char *c2 = strstr(b2, "deterministic count:");
        assert_non_null(c1);
        assert_non_null(c2);
        char *n1 = strchr(c1, '\n'), *n2 = strchr(c2, '\n');
        assert_non_null(n1);
        assert_non_null(n2);
        *n1 = *n2 = '\0';
        assert_string_equal(c1, c2);
        memmove(b1, n1 + 1, strlen(n1 + 1) + 1);
        memmove(b2, n2 + 1, strlen(n2 + 1) + 1);
    }
    free(b1);
    free(b2);
    st = tu_run(NULL, &b1, &e, "bench", "--search", "expectimax:x", NULL);
    assert_int_equal(st, 2);
    assert_non_null(strstr(e, "bad budget"));
    free(b1);
    free(e);
}

int main(void) {
    unsetenv("COLUMNS"); /* the tests set the width they need */
    unsetenv("LINES");   /* and the height */

    const struct CMUnitTest tests[] = {
        cmocka_unit_test(conformance_output),
        cmocka_unit_test(conformance_errors),
        cmocka_unit_test(help_texts),
        cmocka_unit_test(sim_builds_only_what_players_use),
        cmocka_unit_test(play_and_replay),
        cmocka_unit_test(computer_game),
        cmocka_unit_test(sim_and_bench),
        cmocka_unit_test(match_json),
        cmocka_unit_test(play_sentences),
        cmocka_unit_test(hint_command),
        cmocka_unit_test(play_level_and_hint),
        cmocka_unit_test(agent_command_errors),
        cmocka_unit_test(tune_command),
        cmocka_unit_test(soak_command),
        cmocka_unit_test(review_command),
        cmocka_unit_test(play_review),
        cmocka_unit_test(play_options),
        cmocka_unit_test(play_resume),
        cmocka_unit_test(play_kept),
        cmocka_unit_test(play_kept_rules_file),
        cmocka_unit_test(tab_undo_in_turn),
        cmocka_unit_test(play_position),
        cmocka_unit_test(take_back_skips_passes),
        cmocka_unit_test(resume_same_dice),
        cmocka_unit_test(take_back_resumed),
        cmocka_unit_test(resignation_recorded),
        cmocka_unit_test(board_once_a_turn),
        cmocka_unit_test(commands_mid_turn),
        cmocka_unit_test(narrow_terminal),
        cmocka_unit_test(auto_forced),
        cmocka_unit_test(engine_protocol),
        cmocka_unit_test(engine_values_left),
        cmocka_unit_test(why_command),
        cmocka_unit_test(jequier_opening_seats),
        cmocka_unit_test(ladder_levels),
        cmocka_unit_test(take_back),
        cmocka_unit_test(play_turn_cap),
        cmocka_unit_test(engine_options),
        cmocka_unit_test(engine_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
