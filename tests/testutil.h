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

/* Runs `kemet` (from $KEMET_BIN) with the given arguments (NULL-terminated)
 * and standard input; returns the exit status and fills out/err (caller
 * frees). */
int tu_run(const char *input, char **out, char **err, ...);

/* A whole file's text (caller frees), or NULL when it cannot be opened. */
char *tu_read_file(const char *path);

#endif
