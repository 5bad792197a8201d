/* fuzz.h - what the fuzz targets (tests/fuzz) share.
 *
 * Each target defines LLVMFuzzerTestOneInput. Built with clang's
 * -fsanitize=fuzzer it is a libFuzzer program (`./run fuzz`); linked with
 * replay.c it is a plain program that runs every file of the corpus and
 * reproducer folders given to it (the ordinary test run does this).
 * A broken invariant aborts with a message, as a sanitizer report would.
 */
#ifndef KEMET_FUZZ_H
#define KEMET_FUZZ_H

#include "kemet.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FZ_CHECK(cond)                                                         \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__,         \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* The input as a NUL-terminated string (malloc'd; an embedded NUL ends it
 * early, as it would for any C caller). */
static inline char *fz_text(const uint8_t *data, size_t size) {
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Checks everything kemet says of one position: its line parses back to
 * the same position and line; for every throw outcome (weights adding up
 * to the total) and every legal move and pre-throw choice, kemet_apply
 * accepts it and equals kemet_make, kemet_explain finds nothing wrong, the
 * move's text parses back to it, and the position after it is valid and
 * round-trips too. Defined in fuzz_common.c. */
void fz_check_position(const kemet_rules *r, const kemet_pos *pos, int depth);

/* Opens every ruleset into rules[] (at most max); returns how many. */
int fz_open_all(kemet_rules **rules, int max);

#endif
