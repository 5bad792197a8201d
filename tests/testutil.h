/* testutil.h - helpers shared by the test programs.
 *
 * Expectations in the tests are written by hand from the seed rules; these
 * helpers only turn the engine's answers into comparable strings.
 */
#ifndef KEMET_TESTUTIL_H
#define KEMET_TESTUTIL_H

#include "kemet.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

/* The legal moves of a position (text) for a throw (text, or "none"), as a
 * space-separated string sorted by the move text; "ERR" on any error. */
char *tu_moves(const char *pos, const char *thr);
/* The position after a move, or "ERR: message". */
char *tu_apply(const char *pos, const char *thr, const char *move);
/* Fails the test unless tu_moves(pos, thr) is `want`. */
void tu_expect_moves(const char *pos, const char *thr, const char *want);
/* Fails the test unless tu_apply gives `want` ("ERR" for any error). */
void tu_expect_apply(const char *pos, const char *thr, const char *move,
                     const char *want);
/* Parses a position; fails the test if it is not valid. */
kemet_rules *tu_pos(const char *text, kemet_pos *pos);
/* A reading's verdict figures with every figure inside its band (no cost)
 * and the games behind each not known (0). */
kemet_measured tu_good_figures(void);

/* Runs `kemet` (from $KEMET_BIN) with the given arguments (NULL-terminated)
 * and standard input; returns the exit status and fills out/err (caller
 * frees). */
int tu_run(const char *input, char **out, char **err, ...);

/* Runs the program and checks success with exactly `want` on stdout. */
#define TU_RUN_OK(want, ...)                                                   \
    do {                                                                       \
        char *o, *e;                                                           \
        int st = tu_run(NULL, &o, &e, __VA_ARGS__, NULL);                      \
        if (st != 0 || strcmp(o, want) != 0)                                   \
            fail_msg("status %d, stdout '%s' (want '%s'), stderr '%s'", st, o, \
                     want, e);                                                 \
        free(o);                                                               \
        free(e);                                                               \
    } while (0)

/* Runs the program and checks a clean error: status 2, nothing on stdout,
 * one line on stderr that says `words`. */
#define TU_RUN_BAD(words, ...)                                                 \
    do {                                                                       \
        char *o, *e;                                                           \
        int st = tu_run(NULL, &o, &e, __VA_ARGS__, NULL);                      \
        size_t el = strlen(e);                                                 \
        if (st != 2 || o[0] != '\0' || el == 0 || e[el - 1] != '\n' ||         \
            strchr(e, '\n') != e + el - 1 || !strstr(e, words))                \
            fail_msg("want one-line error with '%s': status %d, stdout '%s', " \
                     "stderr '%s'",                                            \
                     words, st, o, e);                                         \
        free(o);                                                               \
        free(e);                                                               \
    } while (0)

/* A whole file's text (caller frees), or NULL when it cannot be opened. */
char *tu_read_file(const char *path);

#endif
