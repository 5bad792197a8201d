/* test_rulefile.c - ruleset files (docs/rulesets.md): the built-in files
 * play as their rulesets, files written from the documentation alone give
 * the built-in game trees, every statement refuses its bad forms with the
 * line, parts that cannot work together are refused with the reason, a new
 * combination of parts plays without code, and records and tables of a
 * file are bound to its text's hash.
 */
#include "testutil.h"

#include "internal.h" /* kmt_sha256, checked against the standard */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A built-in file's text with its id replaced (a user's file may not take
 * a built-in's id). Caller frees. */
static char *builtin_as(const char *id, const char *new_id) {
    char path[512];
    snprintf(path, sizeof path, "%s/data/rulesets/%s.rules", KEMET_SOURCE_DIR,
             id);
    char *text = tu_read_file(path);
    assert_non_null(text);
    char from[64], to[64];
    snprintf(from, sizeof from, "\nid %s\n", id);
    snprintf(to, sizeof to, "\nid %s\n", new_id);
    char *at = strstr(text, from);
    assert_non_null(at);
    size_t n = strlen(text) + strlen(to) + 1;
    char *out = malloc(n);
    assert_non_null(out);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    free(text);
    return out;
}

/* text with the first occurrence of `a` replaced by `b` (caller frees). */
static char *edit(const char *text, const char *a, const char *b) {
    const char *at = strstr(text, a);
    assert_non_null(at);
    size_t n = strlen(text) + strlen(b) + 1;
    char *out = malloc(n);
    assert_non_null(out);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, b, at + strlen(a));
    return out;
}

/* Random games of two rulesets from the same seeds end alike. */
static void same_games(const kemet_rules *a, const kemet_rules *b) {
    for (uint64_t s = 1; s <= 200; s++) {
        kemet_game *ga, *gb;
        kemet_rng ra, rb;
        kemet_rng_seed(&ra, s);
        kemet_rng_seed(&rb, s);
        kemet_game_new(a, s, &ga, NULL);
        kemet_game_new(b, s, &gb, NULL);
        kemet_game_playout(ga, &ra, 300, 0);
        kemet_game_playout(gb, &rb, 300, 0);
        assert_memory_equal(kemet_game_pos(ga), kemet_game_pos(gb),
                            sizeof(kemet_pos));
        kemet_game_free(ga);
        kemet_game_free(gb);
    }
}

/* Writes n bytes of data to path. */
static void write_file(const char *path, const char *data, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static void sha256_of(const char *data, size_t n, int times, char hex[65]) {
    kmt_sha256 s;
    kmt_sha256_init(&s);
    for (int i = 0; i < times; i++)
        kmt_sha256_add(&s, data, n);
    kmt_sha256_hex(&s, hex);
}

/* FIPS 180-4's examples (and the empty message). */
static void sha256_standard_examples(void **state) {
    (void)state;
    char hex[65];
    sha256_of("", 0, 1, hex);
    assert_string_equal(
        hex,
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha256_of("abc", 3, 1, hex);
    assert_string_equal(
        hex,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two =
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_of(two, strlen(two), 1, hex);
    assert_string_equal(
        hex,
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char a[1000];
    memset(a, 'a', sizeof a);
    sha256_of(a, sizeof a, 1000, hex); /* one million 'a' */
    assert_string_equal(
        hex,
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Every built-in ruleset, opened from its file under another id, plays the
 * same games as the built-in: the same start, and random games with the
 * same seeds end in the same positions. */
static void builtin_files_play_as_built_in(void **state) {
    (void)state;
    for (int i = 0; i < kemet_ruleset_count(); i++) {
        const char *id = kemet_ruleset_id(i);
        char *text = builtin_as(id, "copy-of-it");
        kemet_rules *a, *b;
        kemet_error e;
        assert_int_equal(kemet_rules_open(id, &a, &e), KEMET_OK);
        int rc = kemet_rules_open_text(text, NULL, NULL, &b, &e);
        if (rc)
            fail_msg("%s: %s", id, e.msg);
        assert_null(kemet_rules_sha256(a));
        assert_non_null(kemet_rules_sha256(b));
        assert_string_equal(kemet_rules_info(b)->title,
                            kemet_rules_info(a)->title);
        assert_string_equal(kemet_rules_info(b)->text,
                            kemet_rules_info(a)->text);
        kemet_pos pa, pb;
        kemet_start(a, &pa);
        kemet_start(b, &pb);
        assert_memory_equal(&pa, &pb, sizeof pa);
        for (uint64_t s = 1; s <= 40; s++) {
            kemet_game *ga, *gb;
            kemet_rng ra, rb;
            kemet_rng_seed(&ra, s);
            kemet_rng_seed(&rb, s);
            assert_int_equal(kemet_game_new(a, s, &ga, NULL), KEMET_OK);
            assert_int_equal(kemet_game_new(b, s, &gb, NULL), KEMET_OK);
            kemet_game_playout(ga, &ra, 400, 0);
            kemet_game_playout(gb, &rb, 400, 0);
            assert_memory_equal(kemet_game_pos(ga), kemet_game_pos(gb),
                                sizeof(kemet_pos));
            kemet_game_free(ga);
            kemet_game_free(gb);
        }
        kemet_rules_close(a);
        kemet_rules_close(b);
        free(text);
    }
}

/* One bad form of a statement: the edit made to senet-kendall's file (as
 * "my-senet"), the line the error must name (every problem names one:
 * docs/rulesets.md), and words the message must hold. */
typedef struct bad_case {
    const char *from, *to;
    int line;
    const char *says;
} bad_case;

static void check_bad(const char *base, const bad_case *c) {
    char *text = edit(base, c->from, c->to);
    kemet_rules *r = (kemet_rules *)1;
    kemet_error e;
    int rc = kemet_rules_open_text(text, NULL, NULL, &r, &e);
    if (rc == KEMET_OK)
        fail_msg("accepted: '%s' -> '%s'", c->from, c->to);
    assert_null(r);
    char where[64];
    assert_true(c->line > 0);
    snprintf(where, sizeof where, "rules file line %d: ", c->line);
    if (strncmp(e.msg, where, strlen(where)) != 0 || !strstr(e.msg, c->says) ||
        strchr(e.msg, '\n'))
        fail_msg("'%s' -> '%s': %s", c->from, c->to, e.msg);
    assert_int_equal(rc, KEMET_ESYNTAX);
    free(text);
}

/* Every statement every ruleset has, and the senet family's parts. */
static void bad_statements_refused(void **state) {
    (void)state;
    char *base = builtin_as("senet-kendall", "my-senet");
    /* the lines of senet-kendall.rules: 1 kemet-rules, 4 id, 5 title,
     * 6 author, 7 year, 8 about, 9 source, 10 players, 11 gone, 13 family,
     * 17-20 options, 23 track ... 37 bear-off, 41 the first text line */
    static const bad_case cases[] = {
        {"kemet-rules 1", "kemet-rules 2", 1, "version '2'"},
        {"kemet-rules 1", "kemet-board 1", 1, "begins 'kemet-rules 1'"},
        {"id my-senet", "id My_Senet", 4, "not a name"},
        {"id my-senet", "id", 4, "one word"},
        {"id my-senet", "id senet-kendall", 4, "built-in"},
        /* a statement every file has, missing: on the first line */
        {"id my-senet\n", "", 1, "missing statement 'id'"},
        {"title Senet (Kendall)", "title", 5, "needs some words"},
        {"title Senet (Kendall)\n", "", 1, "missing statement 'title'"},
        {"author Timothy Kendall\n", "", 1, "missing statement 'author'"},
        {"year 1979", "year 1979 AD", 7, "write 'year N'"},
        {"year 1979", "year 0", 7, "write 'year N'"},
        {"about Seven", "author twice\nabout Seven", 8, "given twice"},
        {"players White W Black B", "players White W Black W", 10,
         "different letters"},
        {"players White W Black B", "players White w Black B", 10,
         "letter A-Z"},
        {"players White W Black B", "players White W", 10, "players NAME1"},
        {"players White W Black B", "players Wh1te W Black B", 10,
         "player's name"},
        {"family senet", "family chess", 13,
         "no family 'chess' (kemet has senet, holes58, track and tab)"},
        {"family senet", "family senet extra", 13, "one word"},
        {"track 30 boustrophedon", "track 31 boustrophedon", 23,
         "'track 30 boustrophedon'"},
        {"track 30 boustrophedon", "track 30 boustrophedon\ntrack 30", 24,
         "given twice (first on line 23)"},
        {"if pieces=7 pieces 7", "if pieces=7 pieces 11", 24,
         "write 'pieces N', N from 1 to 10"},
        {"setup alternate", "setup mixed", 26, "write 'setup alternate'"},
        {"setup alternate", "setup squares 1,3,3 2,4", 26,
         "square 3 is listed twice"},
        {"setup alternate", "setup squares 1,3 2,3", 26,
         "square 3 is given to both players"},
        {"first player-1", "first player-2", 27,
         "one of: player-1, higher-throw, one-takes-black"},
        {"throw sticks 4 blank=5", "throw dice 1 d4", 29,
         "write 'throw sticks N blank=V'"},
        {"throw sticks 4 blank=5", "throw sticks 4 blank=4", 29,
         "write 'throw sticks N blank=V'"},
        {"again 1 4 5", "again 1 7", 30, "not a value the throw can have"},
        {"again 1 4 5", "again 1 4 1", 30, "listed twice"},
        {"protect pairs", "protect triples", 31, "write 'protect' with"},
        {"capture swap", "capture all", 32,
         "one of: swap, remove, first-empty, none"},
        {"capture swap", "capture none", 31, "nothing is protected"},
        {"backward when-stuck to-water 28 29 30", "backward sometimes", 33,
         "write 'backward never'"},
        {"stop 26", "stop 30", 34, "the stop square is one of 2-29"},
        {"water 27 15", "water 27 27", 35, "rescued from the water"},
        {"water 27 15", "water none", 33, "'to-water' needs the water"},
        {"bear-off 26:5", "bear-off 26:7", 37, "the throw has no 7"},
        /* a part the family needs, missing: on the family line */
        {"bear-off 26:5 27:4 28:3 29:2 30:any", "", 13,
         "missing statement 'bear-off'"},
        {"capture swap", "capture swap\nrethrow 31", 33, "not a square 1-30"},
        {"capture swap", "capture swap\nknights 3", 33,
         "'knights' is not a statement of the senet family"},
        {"option trap 0 1", "option speed 1 2 1", 19, "no option 'speed'"},
        {"option pieces 7 5", "option pieces 1 2 3", 17,
         "MIN <= DEFAULT <= MAX"},
        {"option pieces 7 5", "option pieces 7 X", 17, "not a value"},
        {"option pieces 7 5", "option pieces 7 6", 25,
         "option pieces has no value '5'"},
        {"option pieces 7 5", "option pieces 7 5\noption xy 0 1", 21,
         "more than 4 options"},
        {"capture swap", "capture swap\nboard washburne", 13, "built in"},
        {"text ", "txet ", 41, "not a statement of the senet family"},
        /* the play levels: five agents, each one kemet_agent_new makes */
        {"levels random greedy~0.6 greedy~0.25 greedy best:20k",
         "levels random greedy best", 79, "the 5 levels' agents"},
        {"levels random greedy~0.6 greedy~0.25 greedy best:20k",
         "levels random greedy~0.6 greedy~2 greedy best:20k", 79,
         "level 3: bad agent 'greedy~2'"},
        {"levels random greedy~0.6 greedy~0.25 greedy best:20k",
         "levels random greedy~0.6 greedy~0.25 greedy grandmaster", 79,
         "level 5: unknown agent 'grandmaster'"},
        {"levels random greedy~0.6 greedy~0.25 greedy best:20k",
         "levels random greedy~0.6 greedy~0.25 greedy best:20q", 79,
         "level 5: bad budget"},
        {"levels random greedy~0.6 greedy~0.25 greedy best:20k",
         "levels random greedy~0.6 greedy~0.25 greedy best:20k\nlevels "
         "random random random random random",
         80, "given twice (first on line 79)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_bad(base, &cases[i]);
    free(base);
}

/* Text that is not a ruleset file at all. */
static void hostile_text_refused(void **state) {
    (void)state;
    char *base = builtin_as("senet-kendall", "my-senet");
    static const bad_case cases[] = {
        {"Seven pieces", "Seven \xff pieces", 8, "not UTF-8"},
        {"Seven pieces", "Seven \xc0\xaf pieces", 8, "not UTF-8"},
        {"Seven pieces", "Seven \xed\xa0\x80 pieces", 8, "not UTF-8"},
        {"Seven pieces", "Seven \x01 pieces", 8, "control character"},
        {"kemet-rules 1", "kemet-rules", 1, "version"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_bad(base, &cases[i]);
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open_text("", NULL, NULL, &r, &e),
                     KEMET_ESYNTAX);
    assert_string_equal(e.msg, "rules file line 1: empty: a ruleset file "
                               "begins 'kemet-rules 1'");
    /* a line too long, a file too large */
    size_t n = strlen(base) + 300000;
    char *big = malloc(n);
    assert_non_null(big);
    snprintf(big, n, "%s", base);
    size_t at = strlen(big);
    memcpy(big + at, "text ", 5);
    memset(big + at + 5, 'x', 2500);
    big[at + 2505] = '\0';
    assert_int_equal(kemet_rules_open_text(big, NULL, NULL, &r, &e),
                     KEMET_ESYNTAX);
    assert_non_null(strstr(e.msg, "longer than 2000 bytes"));
    memset(big + at, '#', n - at - 1);
    big[n - 1] = '\0';
    assert_int_equal(kemet_rules_open_text(big, NULL, NULL, &r, &e),
                     KEMET_ESYNTAX);
    /* the line that passes 256 KiB: the base's lines, then one of '#' */
    int lines = 1;
    for (const char *c = base; *c; c++)
        lines += *c == '\n';
    char want[128];
    snprintf(want, sizeof want,
             "rules file line %d: the file is larger than 262144 bytes", lines);
    if (strncmp(e.msg, want, strlen(want)) != 0)
        fail_msg("%s", e.msg);
    free(big);
    /* CRLF line ends are read as LF */
    size_t len = strlen(base), k = 0;
    char *crlf = malloc(2 * len + 1);
    assert_non_null(crlf);
    for (size_t i = 0; i < len; i++) {
        if (base[i] == '\n')
            crlf[k++] = '\r';
        crlf[k++] = base[i];
    }
    crlf[k] = '\0';
    assert_int_equal(kemet_rules_open_text(crlf, NULL, NULL, &r, &e), KEMET_OK);
    assert_string_equal(kemet_rules_info(r)->title, "Senet (Kendall)");
    kemet_rules_close(r);
    free(crlf);
    free(base);
}

/* A file that begins with a UTF-8 byte-order mark (as some editors write
 * it) is read as the same file without it, LF or CRLF; the mark anywhere
 * else is text like any other. */
static void byte_order_mark_accepted(void **state) {
    (void)state;
    char *base = builtin_as("chien-chacal", "my-chien");
    size_t n = strlen(base);
    char *bom = malloc(2 * n + 4);
    assert_non_null(bom);
    snprintf(bom, 2 * n + 4, "\xef\xbb\xbf%s", base);
    kemet_rules *r, *plain;
    kemet_error e;
    if (kemet_rules_open_text(bom, NULL, NULL, &r, &e))
        fail_msg("%s", e.msg);
    assert_int_equal(kemet_rules_open_text(base, NULL, NULL, &plain, &e), 0);
    assert_string_equal(kemet_rules_info(r)->title, "Chien et Chacal");
    same_games(r, plain);
    /* the hash is the file's, mark and all */
    assert_string_not_equal(kemet_rules_sha256(r), kemet_rules_sha256(plain));
    kemet_rules_close(r);
    kemet_rules_close(plain);
    size_t k = 3;
    for (size_t i = 0; i < n; i++) { /* CRLF */
        if (base[i] == '\n')
            bom[k++] = '\r';
        bom[k++] = base[i];
    }
    bom[k] = '\0';
    if (kemet_rules_open_text(bom, NULL, NULL, &r, &e))
        fail_msg("CRLF: %s", e.msg);
    kemet_rules_close(r);
    /* the program, from a file */
    char path[64];
    snprintf(path, sizeof path, "/tmp/kemet-test-%ld.rules", (long)getpid());
    write_file(path, bom, strlen(bom));
    char *out, *err, *want, *werr;
    assert_int_equal(tu_run(NULL, &out, &err, "perft", path, "3", NULL), 0);
    assert_int_equal(
        tu_run(NULL, &want, &werr, "perft", "chien-chacal", "3", NULL), 0);
    char *w = strstr(want, "chien-chacal 3: ");
    assert_non_null(w);
    assert_non_null(strstr(out, w + strlen("chien-chacal")));
    free(out);
    free(err);
    free(want);
    free(werr);
    remove(path);
    /* the mark on another line is not skipped */
    static const bad_case later = {"# Chien et", "\xef\xbb\xbf# Chien et", 2,
                                   "is not a statement of the holes58"};
    check_bad(base, &later);
    free(bom);
    free(base);
}

/* A statement misspelt is reported on its line as one the family does
 * not have, before the statement it was meant to be is missed; a part
 * the family does not have comes before a missing one. */
static void misspelt_statement_first(void **state) {
    (void)state;
    char *base = builtin_as("chien-chacal", "my-chien");
    /* lines: 5 title, 12 family, 15 pieces, 16 throw, 20 lines, 21 pass */
    static const bad_case cases[] = {
        {"pieces 5 ", "peices 5 ", 15,
         "'peices' is not a statement of the holes58 family; is it "
         "'pieces'?"},
        {"throw sticks", "thorw sticks", 16, "is it 'throw'?"},
        {"lines one-way", "lnies one-way", 20, "is it 'lines'?"},
        {"pass free ", "pass free\ngatse 10\n#", 22, "is it 'gates'?"},
        {"title Chien", "tilte Chien", 5,
         "'tilte' is not a statement; is it 'title'?"},
        {"family holes58", "famliy holes58", 12, "is it 'family'?"},
        /* an unknown part first, then the missing one */
        {"pieces 5 ", "knights 3 ", 15,
         "'knights' is not a statement of the holes58 family"},
        {"pieces 5 ", "# ", 12, "missing statement 'pieces'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_bad(base, &cases[i]);
    free(base);
}

/* The holes58 family: its parts' bad forms and the combinations it
 * refuses. */
static void holes58_parts(void **state) {
    (void)state;
    char *base = builtin_as("chien-chacal", "my-chien");
    /* lines: 12 family, 15 pieces, 16 throw, 17 first, 18 enter, 19 path,
     * 20 lines, 21 pass, 22 exit, 23 rethrow */
    static const bad_case cases[] = {
        {"enter must ", "enter twice ", 18, "write 'enter' and one of"},
        {"path own ", "path square ", 19, "own, round"},
        {"lines one-way 6-20 8-10", "lines one-way 6-20 8-30", 20,
         "two different holes 2-28"},
        {"lines one-way 6-20 8-10", "lines one-way 6-20 6-10", 20,
         "one line only"},
        {"lines one-way 6-20 8-10", "lines sideways 6-20", 20,
         "stay|block|one-way"},
        {"lines one-way 6-20 8-10 ", "", 12, "missing statement 'lines'"},
        {"pass free ", "pass gates ", 21, "go together"},
        {"exit land-30 ", "exit shen-1 ", 22, "the Shen"},
        {"rethrow 15 25 ", "rethrow 15 30 ", 23, "'30' is not a number"},
        {"enter must ", "enter again ", 23, "needs 'enter must'"},
        {"path own ", "path round ", 19, "exit last-5"},
        {"exit land-30 ", "exit land-30\njam-draw\n#", 23,
         "'jam-draw' needs 'path round'"},
        {"exit land-30 ", "exit land-30\nshen-capture x\n#", 23,
         "takes no words"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_bad(base, &cases[i]);
    free(base);
}

/* A list of holes, values or marks names each once: a duplicate is
 * refused on its line, in every family's lists. */
static void duplicates_in_lists_refused(void **state) {
    (void)state;
    static const struct {
        const char *id;
        bad_case c;
    } cases[] = {
        /* chien-chacal: 12 family, 20 lines, 21 pass, 23 rethrow */
        {"chien-chacal",
         {"rethrow 15 25 ", "marks 1 6 8 10 15 20 20 25\nrethrow 15 25\n#", 23,
          "20 is given twice"}},
        {"chien-chacal",
         {"rethrow 15 25 ", "rethrow 15 25 15 ", 23, "15 is given twice"}},
        {"chien-chacal",
         {"lines one-way 6-20 8-10", "lines one-way 6-20 6-20", 20,
          "one line only"}},
        /* dogs-jackals: 23 gates */
        {"dogs-jackals",
         {"gates 10 15 20 25", "gates 10 15 20 25 10", 23,
          "10 is given twice"}},
        /* hounds-jackals-carter: 34 again on the marked board */
        {"hounds-jackals-carter",
         {"again 1 6 8 10 15 20 25 30", "again 1 6 8 10 15 20 25 30 30", 34,
          "30 is given twice"}},
        /* tab-58: 25 throw-again with the sticks, 33 the lines */
        {"tab-58",
         {"if dice=sticks throw-again 1 4 6",
          "if dice=sticks throw-again 1 4 1", 25, "1 is given twice"}},
        {"tab-58", {"lines 6-20 8-10", "lines 6-20 6-20", 33, "one line only"}},
        /* hounds-jackals-washburne: 21 safe-holes */
        {"hounds-jackals-washburne",
         {"safe-holes safe ankh", "safe-holes safe ankh safe", 21,
          "'safe' is given twice"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *base = builtin_as(cases[i].id, "my-copy");
        check_bad(base, &cases[i].c);
        free(base);
    }
}

/* The track family: its parts' bad forms and refused combinations. */
static void track_parts(void **state) {
    (void)state;
    char *base = builtin_as("lions-jackals", "my-lions");
    static const bad_case cases[] = {
        {"board lions-jackals", "board senet", 12, "names its board"},
        {"throw board-sticks", "throw sticks 4 blank=5", 19,
         "need the lions-jackals board"},
        {"safe-holes sun", "safe-holes moon", 23, "safe, ankh, sun"},
        {"words-piece plinth", "words-piece", 32, "needs some words"},
        {"option solid 1 5 3", "option solid 1 9 6", 0, "solid (1-5)"},
        {"option solid 1 5 3 ", "", 19, "needs the options 'solid' and"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (cases[i].line == 0 && strstr(cases[i].says, "solid (1-5)")) {
            /* an option's default past the sticks the throw can list:
             * refused when the ruleset is opened, as the option is */
            char *text = edit(base, cases[i].from, cases[i].to);
            kemet_rules *r;
            kemet_error e;
            assert_int_not_equal(
                kemet_rules_open_text(text, NULL, NULL, &r, &e), KEMET_OK);
            assert_non_null(strstr(e.msg, cases[i].says));
            free(text);
        } else
            check_bad(base, &cases[i]);
    free(base);
}

/* The example of docs/rulesets.md: Chien et Chacal with Botermans' two-way
 * lines, a combination no built-in ruleset has. It opens, its fast playout
 * gives the games of the step-by-step one, and its lines work both ways:
 * a count ending on 20 goes to 6 (the built-in's one-way line does not). */
static void new_combination_plays(void **state) {
    (void)state;
    char *text = builtin_as("chien-chacal", "both-ways");
    char *both = edit(text, "lines one-way 6-20 8-10", "lines stay 6-20 8-10");
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open_text(both, NULL, NULL, &r, &e), KEMET_OK);
    for (uint64_t s = 1; s <= 500; s++) {
        kemet_game *a, *b;
        kemet_rng pa, pb;
        kemet_rng_seed(&pa, s);
        kemet_rng_seed(&pb, s);
        kemet_game_new(r, s, &a, NULL);
        kemet_game_new(r, s, &b, NULL);
        kemet_game_playout(a, &pa, 300, 0);
        kemet_game_playout(b, &pb, 300, 1);
        assert_memory_equal(kemet_game_pos(a), kemet_game_pos(b),
                            sizeof(kemet_pos));
        kemet_game_free(a);
        kemet_game_free(b);
    }
    kemet_pos pos;
    assert_int_equal(
        kemet_pos_read(r, "both-ways to=1 p1=17 h1=4 p2=3 h2=4", &pos, &e),
        KEMET_OK);
    kemet_throw t;
    kemet_move m[KEMET_MAX_MOVES];
    assert_int_equal(kemet_throw_parse(r, "3", &t, &e), KEMET_OK);
    assert_int_equal(kemet_moves(r, &pos, &t, m), 1);
    char s[64];
    kemet_move_format(&m[0], s, sizeof s);
    assert_string_equal(s, "17-6"); /* 17 + 3 = 20, the line back to 6 */
    kemet_rules_close(r);
    free(both);
    free(text);
}

/* The play levels: a file's own (`levels`), the defaults where it names
 * none, the built-in files' (each level below the next, docs/ladder.md),
 * and nothing outside levels 1-5. */
static void levels_of_a_file(void **state) {
    (void)state;
    const char *line = "levels random greedy~0.6 greedy~0.25 greedy best:20k";
    char *base = builtin_as("senet-kendall", "my-senet");
    char *own = edit(base, line, "levels random random greedy greedy best:1k");
    char *none = edit(base, line, "# no levels");
    kemet_rules *r, *d, *k;
    kemet_error e;
    assert_int_equal(
        kemet_rules_open_text(own, "my-senet:pieces=5", NULL, &r, &e),
        KEMET_OK);
    assert_int_equal(kemet_rules_open_text(none, NULL, NULL, &d, &e), KEMET_OK);
    assert_int_equal(kemet_rules_open("senet-kendall", &k, &e), KEMET_OK);
    const char *want[] = {"random", "random", "greedy", "greedy", "best:1k"};
    const char *kendall[] = {"random", "greedy~0.6", "greedy~0.25", "greedy",
                             "best:20k"};
    for (int l = 1; l <= KEMET_LEVELS; l++) {
        assert_string_equal(kemet_rules_level_agent(r, l), want[l - 1]);
        assert_string_equal(kemet_rules_level_agent(d, l),
                            kemet_level_agent(l));
        assert_string_equal(kemet_rules_level_agent(k, l), kendall[l - 1]);
        kemet_agent *a;
        assert_int_equal(kemet_agent_new(k, kendall[l - 1], 1, &a, &e),
                         KEMET_OK);
        kemet_agent_free(a);
    }
    assert_null(kemet_rules_level_agent(r, 0));
    assert_null(kemet_rules_level_agent(r, KEMET_LEVELS + 1));
    assert_null(kemet_rules_level_agent(NULL, 1));
    kemet_rules_close(r);
    kemet_rules_close(d);
    kemet_rules_close(k);
    free(own);
    free(none);
    free(base);
}

/* An option of the file's own, a list of values, chooses among parts
 * guarded by it ("if lines=both lines stay ..."): each value plays the
 * ruleset its parts describe; every combination is checked when the file
 * is opened. */
static void options_choose_parts(void **state) {
    (void)state;
    char *text = builtin_as("chien-chacal", "chien-options");
    char *a = edit(text, "lines one-way 6-20 8-10",
                   "if lines=one-way lines one-way 6-20 8-10\n"
                   "if lines=both lines stay 6-20 8-10\n#");
    char *g =
        edit(a, "family holes58", "family holes58\noption lines one-way both");
    kemet_rules *r, *chien, *both;
    kemet_error e;
    char *bt = edit(text, "lines one-way 6-20 8-10", "lines stay 6-20 8-10");
    assert_int_equal(kemet_rules_open("chien-chacal", &chien, &e), KEMET_OK);
    assert_int_equal(kemet_rules_open_text(bt, NULL, NULL, &both, &e), 0);
    assert_int_equal(kemet_rules_open_text(g, NULL, NULL, &r, &e), KEMET_OK);
    assert_string_equal(kemet_rules_spec(r), "chien-options");
    same_games(r, chien);
    kemet_rules_close(r);
    assert_int_equal(
        kemet_rules_open_text(g, "chien-options:lines=both", NULL, &r, &e),
        KEMET_OK);
    assert_string_equal(kemet_rules_spec(r), "chien-options:lines=both");
    same_games(r, both);
    kemet_rules_close(r);
    assert_int_equal(
        kemet_rules_open_text(g, "chien-options:lines=up", NULL, &r, &e),
        KEMET_ERULESET);
    assert_string_equal(e.msg, "ruleset option lines: unknown value 'up' "
                               "(one of: one-way, both)");
    /* what is refused: two forms at once, a guard's unknown value or
     * option, an option nothing uses, a combination that does not work */
    static const bad_case cases[] = {
        {"if lines=both lines", "if lines=one-way lines", 22,
         "two forms of 'lines' hold at once"},
        {"if lines=both lines", "if lines=bothx lines", 22,
         "option lines has no value 'bothx'"},
        {"if lines=both lines", "if speed=1 lines", 22,
         "the guard names no option"},
        {"option lines one-way both",
         "option lines one-way both\n"
         "option speed 1 2 1",
         14, "no part is guarded by it"},
        {"option lines one-way both", "option lines one-way one-way", 13,
         "given twice"},
        {"if lines=both lines stay 6-20 8-10",
         "if lines=both lines stay 6-20 8-10\nif lines=both jam-draw", 23,
         "(with chien-options:lines=both)"},
        {"if lines=both lines", "if lines=both title", 22,
         "'if' guards a family's part only"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_bad(g, &cases[i]);
    kemet_rules_close(chien);
    kemet_rules_close(both);
    free(bt);
    free(g);
    free(a);
    free(text);
}

/* The spec's id must be the file's; options are the file's. */
static void ids_and_options(void **state) {
    (void)state;
    char *text = builtin_as("lions-jackals", "my-lions");
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open_text(text, "lions-jackals", NULL, &r, &e),
                     KEMET_ERULESET);
    assert_non_null(strstr(e.msg, "is for 'my-lions'"));
    assert_int_equal(
        kemet_rules_open_text(text, "my-lions:solid=2,dual=0", NULL, &r, &e),
        KEMET_OK);
    assert_string_equal(kemet_rules_spec(r), "my-lions:solid=2,dual=0");
    const char *key = kemet_rules_key(r) + strlen("my-lions:solid=2,dual=0");
    assert_int_equal(key[0], '@');
    assert_memory_equal(key + 1, kemet_rules_sha256(r), 16);
    assert_int_equal(strlen(key), 17);
    kemet_rules_close(r);
    free(text);
}

/* kemet_rules_key: the spec for a built-in ruleset, spec@hash for a file;
 * a table made for one file is refused by another of the same id. */
static void keys_follow_the_text(void **state) {
    (void)state;
    char *text = builtin_as("senet-kendall", "my-senet");
    char *other = edit(text, "title Senet (Kendall)", "title Another");
    kemet_rules *a, *b, *k;
    kemet_error e;
    assert_int_equal(kemet_rules_open_text(text, NULL, NULL, &a, &e), 0);
    assert_int_equal(kemet_rules_open_text(other, NULL, NULL, &b, &e), 0);
    assert_int_equal(kemet_rules_open("senet-kendall", &k, &e), 0);
    assert_string_equal(kemet_rules_key(k), "senet-kendall");
    assert_int_equal(strlen(kemet_rules_key(a)), strlen("my-senet@") + 16);
    assert_memory_equal(kemet_rules_key(a), "my-senet@", 9);
    assert_string_not_equal(kemet_rules_key(a), kemet_rules_key(b));
    assert_memory_equal(kemet_rules_key(a) + 9, kemet_rules_sha256(a), 16);
    kemet_table *t;
    assert_int_equal(kemet_table_solve(a, 1, 1, NULL, NULL, &t, &e), KEMET_OK);
    kemet_judge *j;
    assert_int_equal(kemet_judge_new(b, NULL, &j, &e), KEMET_OK);
    assert_int_not_equal(kemet_judge_use_table(j, t), KEMET_OK);
    kemet_judge_free(j);
    kemet_table_free(t);
    kemet_rules_close(a);
    kemet_rules_close(b);
    kemet_rules_close(k);
    free(other);
    free(text);
}

/* A record of a file's ruleset names the hash; it replays with that text
 * only. */
static void records_bound_to_the_text(void **state) {
    (void)state;
    char *text = builtin_as("senet-kendall", "my-senet");
    char *other = edit(text, "# Senet", "# a comment changed");
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open_text(text, NULL, NULL, &r, &e), 0);
    kemet_pos start;
    kemet_start(r, &start);
    char rec[2048];
    int n =
        kemet_record_header(r, 7, "human", "greedy", &start, rec, sizeof rec);
    assert_true(n > 0);
    char want[128];
    snprintf(want, sizeof want, "ruleset my-senet\nrules-sha256 %s\n",
             kemet_rules_sha256(r));
    assert_non_null(strstr(rec, want));
    snprintf(rec + n, sizeof rec - (size_t)n, "result unfinished\n");
    long turns;
    assert_int_equal(kemet_replay_text(rec, text, NULL, NULL, 0, &turns, &e),
                     KEMET_OK);
    assert_int_equal(kemet_replay_text(rec, other, NULL, NULL, 0, &turns, &e),
                     KEMET_ESYNTAX);
    assert_non_null(strstr(e.msg, "line 3: the record was played under"));
    assert_int_equal(kemet_replay(rec, NULL, NULL, 0, &turns, &e),
                     KEMET_ESYNTAX);
    assert_non_null(strstr(e.msg, "line 2: unknown ruleset 'my-senet'"));
    /* without the hash line */
    char *bare = edit(rec, want, "ruleset my-senet\n");
    assert_int_equal(kemet_replay_text(bare, text, NULL, NULL, 0, &turns, &e),
                     KEMET_ESYNTAX);
    assert_non_null(strstr(e.msg, "names the file's SHA-256"));
    free(bare);
    /* a built-in ruleset's record may not carry one */
    const char *b = "kemet-record 1\nruleset senet-kendall\nrules-sha256 "
                    "00\nresult unfinished\n";
    assert_int_equal(kemet_replay_text(b, text, NULL, NULL, 0, &turns, &e),
                     KEMET_ESYNTAX);
    assert_non_null(strstr(e.msg, "is built in"));
    kemet_rules_close(r);
    free(other);
    free(text);
}

/* The program: files written from docs/rulesets.md alone (tests/rulesets)
 * give the built-in game trees (tests/golden/perft.txt); a bad file is one
 * line and status 2; kemet rules shows a file with its hash. */
static void program_and_fresh_files(void **state) {
    (void)state;
    static const struct {
        const char *file, *depth, *count, *pos;
    } cases[] = {
        {"fresh-dogs-jackals", "7", "105336", NULL},
        {"fresh-dogs-jackals", "8", "673289",
         "fresh-dogs-jackals to=1 p1=25,30 p2=23,28"},
        {"fresh-washburne", "4", "58081", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512], want[128], *out, *err;
        snprintf(path, sizeof path, "%s/tests/rulesets/%s.rules",
                 KEMET_SOURCE_DIR, cases[i].file);
        snprintf(want, sizeof want, "perft %s %s: %s\n", cases[i].file,
                 cases[i].depth, cases[i].count);
        int rc = cases[i].pos ? tu_run(NULL, &out, &err, "perft", path,
                                       cases[i].depth, cases[i].pos, NULL)
                              : tu_run(NULL, &out, &err, "perft", path,
                                       cases[i].depth, NULL);
        if (rc != 0 || !strstr(out, want))
            fail_msg("%s: %s%s", cases[i].file, out, err);
        free(out);
        free(err);
    }
    char *text = builtin_as("senet-kendall", "my-senet");
    char *bad = edit(text, "water 27 15", "water 27 27"); /* line 35 */
    char path[64];
    snprintf(path, sizeof path, "/tmp/kemet-test-%ld.rules", (long)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(bad, f);
    fclose(f);
    TU_RUN_BAD(": rules file line 35: a piece is rescued", "sim", path,
               "--games", "5");
    char *out, *err;
    f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    assert_int_equal(tu_run(NULL, &out, &err, "rules", path, NULL), 0);
    assert_non_null(strstr(out, "Ruleset file: "));
    assert_non_null(strstr(out, "(SHA-256 "));
    free(out);
    free(err);
    assert_int_equal(
        tu_run(NULL, &out, &err, "start", "--rules", path, "my-senet", NULL),
        0);
    assert_string_equal(
        out, "my-senet to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14\n");
    free(out);
    free(err);
    remove(path);
    free(bad);
    free(text);
}

/* Every problem in a file, as the program tells it: one line, "kemet:
 * PATH: rules file line N: ...", status 2, whether the file is named by
 * --rules or as the ruleset (docs/rulesets.md). */
static void program_file_problems_one_form(void **state) {
    (void)state;
    char path[64], want[256];
    snprintf(path, sizeof path, "/tmp/kemet-test-%ld.rules", (long)getpid());
    char *base = builtin_as("chien-chacal", "my-chien");
    static const struct {
        const char *from, *to;
        int line;
        const char *says;
    } cases[] = {
        {"pieces 5 ", "peices 5 ", 15, "'peices' is not a statement"},
        {"id my-chien", "id chien-chacal", 4, "the id 'chien-chacal' is"},
        {"family holes58", "family chess", 12, "no family 'chess'"},
        {"pieces 5 ", "# ", 12, "missing statement 'pieces'"},
        {"title Chien et Chacal\n", "", 1, "missing statement 'title'"},
        {"path own", "path own\x01", 19, "not text (a NUL byte)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = edit(base, cases[i].from, cases[i].to);
        size_t n = strlen(text);
        char *nul = strchr(text, '\x01'); /* a NUL byte in the file */
        if (nul)
            *nul = '\0';
        write_file(path, text, n);
        snprintf(want, sizeof want, "kemet: %s: rules file line %d: %s", path,
                 cases[i].line, cases[i].says);
        TU_RUN_BAD(want, "rules", path);
        TU_RUN_BAD(want, "start", "--rules", path, "my-chien");
        TU_RUN_BAD(want, "sim", path, "--games", "1");
        free(text);
    }
    /* a second file of the same id: on its id line */
    char other[80];
    snprintf(other, sizeof other, "/tmp/kemet-test-%ld-2.rules",
             (long)getpid());
    write_file(path, base, strlen(base));
    write_file(other, base, strlen(base));
    snprintf(want, sizeof want,
             "kemet: %s: rules file line 4: the id 'my-chien' is %s's "
             "already",
             other, path);
    TU_RUN_BAD(want, "rules", "--rules", path, "--rules", other);
    remove(other);
    /* a file past 256 KiB: the line that passes it */
    size_t n = 300000;
    char *big = malloc(n);
    assert_non_null(big);
    for (size_t i = 0; i < n; i++)
        big[i] = i % 100 == 99 ? '\n' : '#';
    write_file(path, big, n);
    snprintf(want, sizeof want,
             "kemet: %s: rules file line %d: the file is larger than 262144 "
             "bytes",
             path, 262144 / 100 + 1);
    TU_RUN_BAD(want, "rules", path);
    TU_RUN_BAD(want, "perft", "--rules", path, "my-chien", "1");
    free(big);
    remove(path);
    free(base);
}

/* Waits up to 10 s for the child pid: its exit status, or -1 (the child
 * killed) when it has not ended by then. */
static int wait_limited(pid_t pid) {
    for (int i = 0; i < 200; i++) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
        struct timespec ts = {0, 50000000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

/* Runs the program (args NULL-terminated, at most 8) with at most 10 s to
 * end: its status (-1: killed at 10 s), and its standard error into err
 * (caller frees). */
static int run_limited(char **err, ...) {
    const char *argv[10];
    int argc = 0;
    argv[argc++] = getenv("KEMET_BIN");
    assert_non_null(argv[0]);
    va_list ap;
    va_start(ap, err);
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL && argc < 9)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    char errpath[] = "/tmp/kemet-test-err-XXXXXX";
    int fd = mkstemp(errpath);
    assert_true(fd >= 0);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(fd, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int rc = wait_limited(pid);
    close(fd);
    *err = tu_read_file(errpath);
    unlink(errpath);
    return rc;
}

/* A FIFO (or a device) where a ruleset file or a board file is named is
 * refused in one line, status 2, without waiting for a writer. */
static void not_regular_files_refused(void **state) {
    (void)state;
    char fifo[64], board[64];
    snprintf(fifo, sizeof fifo, "/tmp/kemet-test-%ld-fifo.rules",
             (long)getpid());
    snprintf(board, sizeof board, "/tmp/kemet-test-%ld-fifo.board",
             (long)getpid());
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(mkfifo(board, 0600), 0);
    static const char *const runs[][6] = {
        {"rules", "F", NULL},
        {"start", "--rules", "F", "my-chien", NULL},
        {"sim", "F", "--games", "1", NULL},
        {"perft", "F", "1", NULL},
        {"perft", "F:lines=both", "1", NULL},
        {"start", "hounds-jackals-washburne", "--board", "B", NULL},
        {"rules", "hounds-jackals-washburne", "--board", "B", NULL},
    };
    char bad[400] = "";
    for (size_t i = 0; i < sizeof runs / sizeof runs[0] && !bad[0]; i++) {
        const char *a[6];
        const char *named = NULL;
        for (int k = 0; k < 6; k++) {
            a[k] = runs[i][k];
            static char spec[96];
            if (a[k] && strcmp(a[k], "F") == 0)
                a[k] = named = fifo;
            else if (a[k] && strcmp(a[k], "F:lines=both") == 0) {
                snprintf(spec, sizeof spec, "%s:lines=both", fifo);
                a[k] = spec;
                named = fifo;
            } else if (a[k] && strcmp(a[k], "B") == 0)
                a[k] = named = board;
        }
        char *err;
        int rc = run_limited(&err, a[0], a[1], a[2], a[3], a[4], NULL);
        char want[128];
        snprintf(want, sizeof want, "kemet: %s: not a regular file (a FIFO)\n",
                 named);
        if (rc != 2 || !err || strcmp(err, want) != 0)
            snprintf(bad, sizeof bad, "kemet %s %s: status %d%s, '%s'", a[0],
                     a[1], rc, rc < 0 ? " (still running after 10 s)" : "",
                     err ? err : "");
        free(err);
    }
    /* the library's kemet_rules_open_file, in a child of its own */
    pid_t pid = fork();
    if (pid == 0) {
        kemet_rules *r;
        kemet_error e;
        int rc = kemet_rules_open_file(fifo, NULL, NULL, &r, &e);
        _exit(rc == KEMET_EIO && strstr(e.msg, "not a regular file (a FIFO)")
                  ? 0
                  : 1);
    }
    int rc = wait_limited(pid);
    remove(fifo);
    remove(board);
    if (bad[0])
        fail_msg("%s", bad);
    if (rc != 0)
        fail_msg("kemet_rules_open_file: %s",
                 rc < 0 ? "still running after 10 s" : "not refused");
    char *err;
    assert_int_equal(
        run_limited(&err, "start", "--rules", "/dev/null", "x", NULL), 2);
    assert_string_equal(err, "kemet: /dev/null: not a regular file (a "
                             "device)\n");
    free(err);
}

/* The last line of `kemet perft SPEC DEPTH`'s output after the spec
 * (" 4: N"), which the test compares between two specs. */
static void perft_tail(const char *spec, const char *depth, char *tail,
                       size_t len) {
    char *out, *err;
    if (tu_run(NULL, &out, &err, "perft", spec, depth, NULL) != 0)
        fail_msg("perft %s: %s", spec, err);
    char *last = strrchr(out, ':');
    assert_non_null(last);
    while (last > out && last[-1] != ' ')
        last--;
    snprintf(tail, len, "%s", last - 1);
    free(out);
    free(err);
}

/* FILE.rules:OPTIONS names a file's ruleset with options wherever a
 * ruleset is named (the path ends at the last ':' after '.rules', so a
 * folder may have a ':' in its name); a file's own option may have any
 * of its values first, as its default. Carter's file with the d6 first
 * plays as the built-in with dice=d6, and each option as the built-in's. */
static void file_named_with_options(void **state) {
    (void)state;
    char dir[64], path[96], spec[160], a[64], b[64];
    snprintf(dir, sizeof dir, "/tmp/kemet-test-%ld:dir", (long)getpid());
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/carter.rules", dir);
    char *base = builtin_as("hounds-jackals-carter", "my-carter");
    char *text =
        edit(base, "option dice sticks d4 d6", "option dice d6 sticks d4");
    write_file(path, text, strlen(text));
    static const struct {
        const char *opts, *builtin;
    } cases[] = {
        {"", "hounds-jackals-carter:dice=d6"},
        {":dice=sticks", "hounds-jackals-carter"},
        {":dice=d4,board=plain", "hounds-jackals-carter:board=plain,dice=d4"},
        {":board=marked", "hounds-jackals-carter:board=marked,dice=d6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(spec, sizeof spec, "%s%s", path, cases[i].opts);
        perft_tail(spec, "4", a, sizeof a);
        perft_tail(cases[i].builtin, "4", b, sizeof b);
        if (strcmp(a, b) != 0)
            fail_msg("%s: '%s', %s: '%s'", spec, a, cases[i].builtin, b);
    }
    /* the spec printed is the file's id with the options not at their
     * defaults */
    snprintf(spec, sizeof spec, "%s:dice=sticks", path);
    TU_RUN_OK("my-carter:dice=sticks to=1 p1=- h1=5 p2=- h2=5\n", "start",
              spec);
    snprintf(spec, sizeof spec, "%s:dice=d6,board=lines", path);
    TU_RUN_OK("my-carter to=1 p1=- h1=5 p2=- h2=5\n", "start", spec);
    snprintf(spec, sizeof spec, "%s:dice=d8", path);
    TU_RUN_BAD("ruleset option dice: unknown value 'd8' (one of: d6, sticks, "
               "d4)",
               "start", spec);
    snprintf(spec, sizeof spec, "%s:", path);
    TU_RUN_BAD("has a colon but no options", "start", spec);
    /* with --rules, the file's id and the path alike */
    snprintf(spec, sizeof spec, "%s:dice=d4", path);
    TU_RUN_OK("my-carter:dice=d4 to=1 p1=- h1=5 p2=- h2=5\n", "start",
              "--rules", path, spec);
    TU_RUN_OK("my-carter:dice=d4 to=1 p1=- h1=5 p2=- h2=5\n", "start",
              "--rules", path, "my-carter:dice=d4");
    /* a list of numbers, the larger first, in a holes58 file of its own */
    char *n1 = edit(text, "option dice d6 sticks d4", "option dice 6 4");
    char *n2 = edit(n1, "if dice=sticks throw", "# throw");
    char *n3 = edit(n2, "if dice=d4 throw", "if dice=4 throw");
    char *n4 = edit(n3, "if dice=d6 throw", "if dice=6 throw");
    write_file(path, n4, strlen(n4));
    snprintf(spec, sizeof spec, "%s:dice=4", path);
    perft_tail(spec, "4", a, sizeof a);
    perft_tail("hounds-jackals-carter:dice=d4", "4", b, sizeof b);
    assert_string_equal(a, b);
    perft_tail(path, "4", a, sizeof a);
    perft_tail("hounds-jackals-carter:dice=d6", "4", b, sizeof b);
    assert_string_equal(a, b);
    /* Kendall's file with 'option pieces 5 7': five pieces by default */
    char *k = builtin_as("senet-kendall", "my-senet");
    char *k5 = edit(k, "option pieces 7 5", "option pieces 5 7");
    write_file(path, k5, strlen(k5));
    perft_tail(path, "3", a, sizeof a);
    perft_tail("senet-kendall:pieces=5", "3", b, sizeof b);
    assert_string_equal(a, b);
    snprintf(spec, sizeof spec, "%s:pieces=7,trap=1", path);
    perft_tail(spec, "3", a, sizeof a);
    perft_tail("senet-kendall:trap=1", "3", b, sizeof b);
    assert_string_equal(a, b);
    snprintf(spec, sizeof spec, "%s:pieces=7", path);
    TU_RUN_OK("my-senet:pieces=7 to=1 p1=1,3,5,7,9,11,13 "
              "p2=2,4,6,8,10,12,14\n",
              "start", spec);
    free(k);
    free(k5);
    free(n1);
    free(n2);
    free(n3);
    free(n4);
    remove(path);
    rmdir(dir);
    free(text);
    free(base);
}

/* kemet analyze's report names who a file's reading is by, its year and
 * where it was published, from the file, as it does the built-ins'. */
static void analyze_names_a_files_reading(void **state) {
    (void)state;
    char *base = builtin_as("chien-chacal", "my-chien");
    char *a = edit(base, "title Chien et Chacal", "title Chien, as I read it");
    char *b = edit(a, "author a French rules sheet, author unknown",
                   "author Jane Scholar\nyear 2031");
    char *c0 = edit(b, "source a French rules sheet",
                    "source J. Scholar, My Reading (2031), rules 1-9; after "
                    "a French rules sheet");
    /* her reading is her own publication: the report weighs it so */
    char *c = edit(c0, "source-kind rules-sheet", "source-kind scholarly");
    char path[64];
    snprintf(path, sizeof path, "/tmp/kemet-test-%ld.rules", (long)getpid());
    write_file(path, c, strlen(c));
    for (int named = 0; named < 2; named++) {
        char *out, *err;
        int st = named ? tu_run(NULL, &out, &err, "analyze", "--rules", path,
                                "my-chien", "--games", "30", "--strong",
                                "expectimax:200", "--ladder",
                                "random,greedy,expectimax:200", "--trace-games",
                                "2", "--trace-base", "4", "--tables", "off",
                                "--max-games", "8", NULL)
                       : tu_run(NULL, &out, &err, "analyze", path, "--games",
                                "30", "--strong", "expectimax:200", "--ladder",
                                "random,greedy,expectimax:200", "--trace-games",
                                "2", "--trace-base", "4", "--tables", "off",
                                "--max-games", "8", NULL);
        if (st != 0 ||
            !strstr(out, "\n| my-chien | Chien, as I read it (Jane "
                         "Scholar, 2031) | a scholarly publication |\n") ||
            !strstr(out, "\n- **Chien, as I read it (Jane Scholar, 2031)**: "
                         "A pure race on separate tracks") ||
            !strstr(out, "J. Scholar, My Reading (2031), rules 1-9; after a "
                         "French rules sheet"))
            fail_msg("status %d: %s%s", st, out, err);
        free(out);
        free(err);
    }
    remove(path);
    free(a);
    free(b);
    free(c0);
    free(c);
    free(base);
}

/* docs/rulesets.md counts the built-in ruleset files in words: as many
 * as the library has. */
static void docs_count_the_builtins(void **state) {
    (void)state;
    static const char *const words[] = {
        "zero",     "one",      "two",      "three",   "four",    "five",
        "six",      "seven",    "eight",    "nine",    "ten",     "eleven",
        "twelve",   "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen", "twenty"};
    int n = kemet_ruleset_count();
    assert_true(n < 21);
    char path[512], want[64];
    snprintf(path, sizeof path, "%s/docs/rulesets.md", KEMET_SOURCE_DIR);
    char *doc = tu_read_file(path);
    assert_non_null(doc);
    snprintf(want, sizeof want, "the %s built-in ones", words[n]);
    if (!strstr(doc, want))
        fail_msg("docs/rulesets.md does not say '%s'", want);
    free(doc);
}

/* The legal moves of `pos` for `thr` under r, sorted, space-separated. */
static void moves_of(const kemet_rules *r, const char *pos, const char *thr,
                     char *out, size_t len) {
    kemet_pos p;
    kemet_throw t;
    kemet_error e;
    if (kemet_pos_read(r, pos, &p, &e) || kemet_throw_parse(r, thr, &t, &e))
        fail_msg("%s / %s: %s", pos, thr, e.msg);
    kemet_move m[KEMET_MAX_MOVES];
    int n = kemet_moves(r, &p, &t, m);
    char text[KEMET_MAX_MOVES][32];
    for (int i = 0; i < n; i++)
        kemet_move_format(&m[i], text[i], sizeof text[i]);
    qsort(text, (size_t)n, sizeof text[0],
          (int (*)(const void *, const void *))strcmp);
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < n && at < len; i++)
        at +=
            (size_t)snprintf(out + at, len - at, "%s%s", i ? " " : "", text[i]);
}

/* The position after `move`, or "ERR: why". */
static void after(const kemet_rules *r, const char *pos, const char *thr,
                  const char *move, char *out, size_t len) {
    kemet_pos p, next;
    kemet_throw t;
    kemet_move m;
    kemet_error e;
    if (kemet_pos_read(r, pos, &p, &e) || kemet_throw_parse(r, thr, &t, &e) ||
        kemet_move_parse(r, move, &m, &e))
        fail_msg("%s / %s / %s: %s", pos, thr, move, e.msg);
    if (kemet_apply(r, &p, &t, &m, &next, NULL) == KEMET_OK) {
        kemet_pos_format(r, &next, out, len);
        return;
    }
    char why[200];
    kemet_explain(r, &p, &t, &m, why, sizeof why);
    snprintf(out, len, "ERR: %s", why);
}

/* holes58's `enter plain` (docs/rulesets.md): a 1 enters a piece on hole
 * 1 and nothing more; no throw again (Botermans' B2 has one), no move
 * forced on the piece (C2, C5 force one). tests/rulesets/plain-entry.rules
 * is Botermans' parts with it; every answer below is worked by hand from
 * the parts, and the perft counts too: from the start every throw has one
 * move (entering, or a pass) for four plies, 5^4; a side with a piece on
 * 2-5 or 20 and four in hand has six moves over the five throws (a 1
 * enters or moves it), on 1 five, all in hand five; so P1's five plies
 * give 5 x 6 + 4 x 5 + 16 x 5 = 130 lines, 130 x 25 = 3250 at depth 5 and
 * 130 x 130 = 16900 at depth 6 (the sides never meet). */
static void plain_entry_file(void **state) {
    (void)state;
    char path[512], got[256];
    snprintf(path, sizeof path, "%s/tests/rulesets/plain-entry.rules",
             KEMET_SOURCE_DIR);
    kemet_rules *r;
    kemet_error er;
    if (kemet_rules_open_file(path, NULL, NULL, &r, &er))
        fail_msg("%s", er.msg);
#define P "plain-entry "
    static const struct {
        const char *pos, *thr, *moves;
    } sets[] = {
        {P "to=1 p1=- h1=5 p2=- h2=5", "1", "in-1"},
        {P "to=1 p1=- h1=5 p2=- h2=5", "2", "pass"}, /* only a 1 enters */
        {P "to=1 p1=- h1=5 p2=- h2=5", "5", "pass"},
        {P "to=1 p1=3 h1=4 p2=- h2=5", "1", "3-4 in-1"},
        {P "to=1 p1=1 h1=4 p2=- h2=5", "1", "1-2"},  /* hole 1 taken */
        {P "to=2 p1=1 h1=4 p2=- h2=5", "1", "in-1"}, /* each side's own */
        {P "to=1 p1=3 h1=4 p2=- h2=5", "3", "3-20"}, /* the line 6-20, B4 */
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        moves_of(r, sets[i].pos, sets[i].thr, got, sizeof got);
        if (strcmp(got, sets[i].moves) != 0)
            fail_msg("%s / %s: '%s', want '%s'", sets[i].pos, sets[i].thr, got,
                     sets[i].moves);
    }
    static const struct {
        const char *pos, *thr, *move, *next;
    } applies[] = {
        /* the turn passes after an entry, no piece bound to move */
        {P "to=1 p1=- h1=5 p2=- h2=5", "1", "in-1",
         P "to=2 p1=1 h1=4 p2=- h2=5"},
        {P "to=1 p1=3 h1=4 p2=- h2=5", "1", "in-1",
         P "to=2 p1=1,3 h1=3 p2=- h2=5"},
        {P "to=2 p1=1 h1=4 p2=- h2=5", "1", "in-1",
         P "to=1 p1=1 h1=4 p2=1 h2=4"},
        {P "to=1 p1=3 h1=4 p2=- h2=5", "1", "3-4",
         P "to=2 p1=4 h1=4 p2=- h2=5"},
        {P "to=1 p1=- h1=5 p2=- h2=5", "2", "in-1",
         "ERR: a piece enters only with a throw of 1"},
        {P "to=1 p1=1 h1=4 p2=- h2=5", "1", "in-1", "ERR: hole 1 is occupied"},
    };
    for (size_t i = 0; i < sizeof applies / sizeof applies[0]; i++) {
        after(r, applies[i].pos, applies[i].thr, applies[i].move, got,
              sizeof got);
        if (strcmp(got, applies[i].next) != 0)
            fail_msg("%s / %s / %s: '%s', want '%s'", applies[i].pos,
                     applies[i].thr, applies[i].move, got, applies[i].next);
    }
    /* no rethrow with the same piece exists: must= is no part of it */
    kemet_pos pos;
    assert_int_not_equal(
        kemet_pos_read(r, P "to=1 p1=1 h1=4 p2=- h2=5 must=1", &pos, &er),
        KEMET_OK);
    /* the fast playout gives the games of the step-by-step one */
    for (uint64_t s = 1; s <= 300; s++) {
        kemet_game *a, *b;
        kemet_rng pa, pb;
        kemet_rng_seed(&pa, s);
        kemet_rng_seed(&pb, s);
        kemet_game_new(r, s, &a, NULL);
        kemet_game_new(r, s, &b, NULL);
        kemet_game_playout(a, &pa, 400, 0);
        kemet_game_playout(b, &pb, 400, 1);
        assert_memory_equal(kemet_game_pos(a), kemet_game_pos(b),
                            sizeof(kemet_pos));
        kemet_game_free(a);
        kemet_game_free(b);
    }
    kemet_rules_close(r);
    /* the same file with 'enter again' throws again, with 'enter must'
     * binds the piece; with 'again 1' (and 'exit land-30') an entry
     * throws again too */
    char *text = tu_read_file(path);
    assert_non_null(text);
    static const struct {
        const char *from, *to, *next;
    } others[] = {
        {"\nenter plain\n", "\nenter again\n", P "to=1 p1=1 h1=4 p2=- h2=5"},
        {"\nenter plain\n", "\nenter must\n",
         P "to=1 p1=1 h1=4 p2=- h2=5 must=1"},
        {"\nexit last-5\n", "\nexit land-30\nagain 1\n",
         P "to=1 p1=1 h1=4 p2=- h2=5"},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        char *t = edit(text, others[i].from, others[i].to);
        if (kemet_rules_open_text(t, NULL, NULL, &r, &er))
            fail_msg("%s: %s", others[i].to, er.msg);
        after(r, P "to=1 p1=- h1=5 p2=- h2=5", "1", "in-1", got, sizeof got);
        if (strcmp(got, others[i].next) != 0)
            fail_msg("%s: '%s', want '%s'", others[i].to, got, others[i].next);
        kemet_rules_close(r);
        free(t);
    }
    free(text);
    /* perft, by the program from the file */
    static const struct {
        const char *depth, *want, *pos;
    } perfts[] = {
        {"6",
         "perft plain-entry 1: 5\nperft plain-entry 2: 25\n"
         "perft plain-entry 3: 125\nperft plain-entry 4: 625\n"
         "perft plain-entry 5: 3250\nperft plain-entry 6: 16900\n",
         NULL},
        /* player 1: 6 moves (a 1 enters or moves 3-4; 3-5, 3-20, 3-7,
         * 3-10), player 2 on 20 six as well */
        {"2", "perft plain-entry 1: 6\nperft plain-entry 2: 36\n",
         P "to=1 p1=3 h1=4 p2=20 h2=4"},
    };
    for (size_t i = 0; i < sizeof perfts / sizeof perfts[0]; i++) {
        if (perfts[i].pos)
            TU_RUN_OK(perfts[i].want, "perft", path, perfts[i].depth,
                      perfts[i].pos);
        else
            TU_RUN_OK(perfts[i].want, "perft", path, perfts[i].depth);
    }
#undef P
}

/* A ruleset's options as the library lists them: a list of values (the
 * default first) and a range (MIN + k), in the file's order. */
/* The kind of source and the references: in words, as the file gives
 * them; "not given" and none where it gives nothing; bad kinds refused. */
static void sources_weighed(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open("senet-robinson", &r, &e), KEMET_OK);
    const kemet_info *info = kemet_rules_info(r);
    assert_string_equal(info->source_kind,
                        "a book of games or a game's rule book; a comment "
                        "under a web page");
    assert_non_null(info->reference);
    assert_non_null(strstr(info->reference, "Timothy Kendall (1978)"));
    assert_non_null(strstr(info->reference, ".\nKaren Robinson (2017)"));
    kemet_rules_close(r);
    char *base = builtin_as("chien-chacal", "my-chien");
    char *none = edit(base, "source-kind rules-sheet\n", "");
    char *noref = edit(none,
                       "reference Chien et Chacal, a French rules "
                       "sheet; its author and year are not given.\n",
                       "");
    assert_int_equal(kemet_rules_open_text(noref, NULL, NULL, &r, &e), 0);
    assert_string_equal(kemet_rules_info(r)->source_kind, "not given");
    assert_null(kemet_rules_info(r)->reference);
    kemet_rules_close(r);
    static const bad_case bad[] = {
        {"source-kind rules-sheet", "source-kind hearsay", 50,
         "'hearsay' is not a kind of source"},
        {"source-kind rules-sheet", "source-kind web-page web-page", 50,
         "'web-page' is given twice"},
        {"source-kind rules-sheet", "source-kind", 50, "write 'source-kind"},
        {"source-kind rules-sheet",
         "source-kind rules-sheet\nsource-kind "
         "web-page",
         51, "given twice (first on line 50)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        check_bad(base, &bad[i]);
    free(noref);
    free(none);
    free(base);
}

/* Lines of the rules in words under a guard: shown only under their
 * options, in their place; a guard naming no option is refused. */
static void guarded_text(void **state) {
    (void)state;
    char *base = builtin_as("chien-chacal", "my-chien");
    char *own = edit(base, "family holes58",
                     "family holes58\noption lines one-way both\n"
                     "if lines=both text   Both ways here.\n"
                     "if lines=one-way text One way here.");
    char *text = edit(own, "lines one-way 6-20 8-10",
                      "if lines=one-way lines one-way 6-20 8-10\n"
                      "if lines=both lines stay 6-20 8-10");
    kemet_rules *r;
    kemet_error e;
    if (kemet_rules_open_text(text, NULL, NULL, &r, &e))
        fail_msg("%s", e.msg);
    const char *t = kemet_rules_info(r)->text;
    assert_non_null(strstr(t, "One way here.\n"));
    assert_null(strstr(t, "Both ways"));
    kemet_rules_close(r);
    assert_int_equal(
        kemet_rules_open_text(text, "my-chien:lines=both", NULL, &r, &e), 0);
    t = kemet_rules_info(r)->text;
    /* in its place (the file's first line of text), its indent kept */
    assert_true(strncmp(t, "  Both ways here.\n", 18) == 0);
    assert_null(strstr(t, "One way"));
    kemet_rules_close(r);
    char *bad = edit(text, "if lines=both text", "if ways=both text");
    assert_int_equal(kemet_rules_open_text(bad, NULL, NULL, &r, &e),
                     KEMET_ESYNTAX);
    assert_non_null(strstr(e.msg, "ways"));
    free(bad);
    free(text);
    free(own);
    free(base);
}

static void options_listed(void **state) {
    (void)state;
    kemet_rules *r;
    int n = -1, def = -1;
    char v[16];
    assert_int_equal(kemet_rules_open("senet-kendall", &r, NULL), KEMET_OK);
    assert_int_equal(kemet_rules_option_count(r), 4);
    assert_string_equal(kemet_rules_option(r, 0, &n, &def), "pieces");
    assert_int_equal(n, 2);
    assert_int_equal(def, 0);
    assert_int_equal(kemet_rules_option_value(r, 0, 1, v, sizeof v), 1);
    assert_string_equal(v, "5");
    assert_string_equal(kemet_rules_option(r, 3, NULL, NULL), "homerow");
    assert_null(kemet_rules_option(r, 4, &n, &def));
    assert_null(kemet_rules_option(r, -1, &n, &def));
    assert_int_equal(kemet_rules_option_value(r, 0, 2, v, sizeof v), -1);
    kemet_rules_close(r);
    assert_int_equal(kemet_rules_open("lions-jackals:solid=2", &r, NULL),
                     KEMET_OK);
    assert_string_equal(kemet_rules_option(r, 0, &n, &def), "solid");
    assert_int_equal(n, 5);   /* 1..5 */
    assert_int_equal(def, 2); /* 3, whatever the spec chose */
    assert_int_equal(kemet_rules_option_value(r, 0, 4, v, sizeof v), 1);
    assert_string_equal(v, "5");
    kemet_rules_close(r);
    assert_int_equal(kemet_rules_open("tab-58", &r, NULL), KEMET_OK);
    assert_int_equal(kemet_rules_option_count(r), 3);
    assert_string_equal(kemet_rules_option(r, 1, &n, &def), "lines");
    assert_int_equal(kemet_rules_option_value(r, 1, 1, v, sizeof v), 8);
    assert_string_equal(v, "parallel");
    kemet_rules_close(r);
    assert_int_equal(kemet_rules_option_count(NULL), 0);
    assert_null(kemet_rules_option(NULL, 0, NULL, NULL));
}

/* A reading with one rule changed (kemet_rule_changes, docs/analysis.md
 * "What each rule does"): the options first, each part's other forms from
 * the family's readings, each change opening with the base's evaluation. */
static void rule_changes(void **state) {
    (void)state;
    kemet_rules *r, *q;
    kemet_error e;
    kemet_change c[KEMET_MAX_CHANGES];
    int refused = -1;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &e), KEMET_OK);
    int n = kemet_rule_changes(r, c, KEMET_MAX_CHANGES, &refused, &e);
    assert_true(n >= 20 && n <= KEMET_MAX_CHANGES);
    assert_true(refused >= 0);
    /* KO2-KO5 first: pieces=5, start=1, trap=1, homerow=1 */
    assert_true(c[0].option && strcmp(c[0].to, "pieces=5") == 0);
    assert_string_equal(c[0].from, "pieces=7");
    assert_true(c[3].option && strcmp(c[3].to, "homerow=1") == 0);
    assert_false(c[4].option);
    bool remove = false, block = false, nostop = false;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < i; k++)
            assert_string_not_equal(c[i].id, c[k].id);
        if (strcmp(c[i].to, "capture remove") == 0)
            remove = strcmp(c[i].from, "capture swap") == 0;
        if (strcmp(c[i].to, "block three") == 0)
            block = c[i].from[0] == '\0';
        if (strcmp(c[i].part, "stop") == 0 && !c[i].to[0])
            nostop = strcmp(c[i].from, "stop 26") == 0;
        assert_int_equal(kemet_rules_open_change(r, &c[i], &q, &e), KEMET_OK);
        assert_string_equal(kemet_rules_info(q)->id, c[i].id);
        kemet_rules_close(q);
    }
    assert_true(remove && block && nostop);
    /* the text: Kendall's file with its one line changed */
    for (int i = 0; i < n; i++) {
        if (strcmp(c[i].to, "capture remove") != 0)
            continue;
        char *t;
        assert_int_equal(kemet_change_text(r, &c[i], &t, &e), KEMET_OK);
        assert_non_null(strstr(t, "\ncapture remove\n"));
        assert_null(strstr(t, "capture swap"));
        assert_null(strstr(t, "\noption "));
        assert_null(strstr(t, "\nif "));
        assert_non_null(strstr(t, "\npieces 7"));
        kemet_free(t);
        /* the same evaluation as Kendall's: his network, his features */
        assert_int_equal(kemet_rules_open_change(r, &c[i], &q, &e), KEMET_OK);
        kemet_judge *jr, *jq;
        assert_int_equal(kemet_judge_new(r, NULL, &jr, &e), KEMET_OK);
        assert_int_equal(kemet_judge_new(q, NULL, &jq, &e), KEMET_OK);
        assert_non_null(kemet_judge_net(jq));
        assert_string_equal(kemet_net_ruleset(kemet_judge_net(jq)),
                            kemet_net_ruleset(kemet_judge_net(jr)));
        for (int f = 0; kemet_eval_feature(r, f); f++)
            assert_string_equal(kemet_eval_feature(q, f),
                                kemet_eval_feature(r, f));
        kemet_judge_free(jq);
        kemet_judge_free(jr);
        kemet_rules_close(q);
    }
    /* at most max */
    assert_int_equal(kemet_rule_changes(r, c, 3, NULL, &e), 3);
    kemet_rules_close(r);
    /* an option a part reads (the number of solid sticks) is changed as an
       option, not lost as the same parts */
    assert_int_equal(kemet_rules_open("lions-jackals", &r, &e), KEMET_OK);
    n = kemet_rule_changes(r, c, KEMET_MAX_CHANGES, NULL, &e);
    assert_true(n > 5);
    assert_true(c[0].option);
    assert_string_equal(c[0].from, "solid=3");
    assert_string_equal(c[0].to, "solid=1");
    assert_int_equal(kemet_rules_open_change(r, &c[0], &q, &e), KEMET_OK);
    kemet_rules_close(q);
    kemet_rules_close(r);
    /* only at the defaults */
    assert_int_equal(kemet_rules_open("senet-kendall:pieces=5", &r, &e),
                     KEMET_OK);
    assert_int_equal(kemet_rule_changes(r, c, KEMET_MAX_CHANGES, NULL, &e),
                     KEMET_EMISUSE);
    kemet_rules_close(r);
    assert_int_equal(kemet_rule_changes(NULL, c, 1, NULL, &e), KEMET_EMISUSE);
}

/* kemet rules RULESET --changes lists them; --change N prints a file that
 * plays as its own reading. */
static void rule_changes_program(void **state) {
    (void)state;
    char *out, *err;
    assert_int_equal(
        tu_run(NULL, &out, &err, "rules", "senet-bell", "--changes", NULL), 0);
    assert_non_null(strstr(out, "capture remove"));
    assert_non_null(strstr(out, "capture swap"));
    assert_non_null(strstr(out, "block three"));
    free(out);
    free(err);
    /* the file of the first: Bell's with seven pieces */
    assert_int_equal(
        tu_run(NULL, &out, &err, "rules", "senet-bell", "--change", "1", NULL),
        0);
    assert_non_null(strstr(out, "\npieces 7\n"));
    assert_null(strstr(out, "pieces 10"));
    char path[] = "/tmp/kemet-change-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(out, f);
    fclose(f);
    free(out);
    free(err);
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open_file(path, NULL, NULL, &r, &e), KEMET_OK);
    kemet_pos p;
    kemet_start(r, &p);
    assert_int_equal(kemet_on_board(&p, 1), 7); /* Bell sets all out */
    kemet_rules_close(r);
    unlink(path);
    /* refused: a number past the list, options, no ruleset */
    assert_int_equal(
        tu_run(NULL, &out, &err, "rules", "tab-58", "--change", "30", NULL), 2);
    assert_non_null(strstr(err, "rule changes, not 30"));
    free(out);
    free(err);
    assert_int_equal(tu_run(NULL, &out, &err, "rules", "senet-kendall:pieces=5",
                            "--changes", NULL),
                     2);
    assert_non_null(strstr(err, "default options"));
    free(out);
    free(err);
    assert_int_equal(tu_run(NULL, &out, &err, "rules", "--changes", NULL), 2);
    free(out);
    free(err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sha256_standard_examples),
        cmocka_unit_test(builtin_files_play_as_built_in),
        cmocka_unit_test(bad_statements_refused),
        cmocka_unit_test(levels_of_a_file),
        cmocka_unit_test(hostile_text_refused),
        cmocka_unit_test(misspelt_statement_first),
        cmocka_unit_test(byte_order_mark_accepted),
        cmocka_unit_test(holes58_parts),
        cmocka_unit_test(track_parts),
        cmocka_unit_test(duplicates_in_lists_refused),
        cmocka_unit_test(new_combination_plays),
        cmocka_unit_test(ids_and_options),
        cmocka_unit_test(options_choose_parts),
        cmocka_unit_test(keys_follow_the_text),
        cmocka_unit_test(records_bound_to_the_text),
        cmocka_unit_test(program_and_fresh_files),
        cmocka_unit_test(program_file_problems_one_form),
        cmocka_unit_test(not_regular_files_refused),
        cmocka_unit_test(file_named_with_options),
        cmocka_unit_test(analyze_names_a_files_reading),
        cmocka_unit_test(docs_count_the_builtins),
        cmocka_unit_test(plain_entry_file),
        cmocka_unit_test(options_listed),
        cmocka_unit_test(guarded_text),
        cmocka_unit_test(sources_weighed),
        cmocka_unit_test(rule_changes),
        cmocka_unit_test(rule_changes_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
