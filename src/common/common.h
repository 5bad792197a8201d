/* common.h - the few helpers the program's commands (src/cli) and the
 * server (src/serve) both need, built only on the public header kemet.h:
 * growing arrays, mixing seeds, ranking moves, and telling whether a
 * chance is an endgame table's exact value.
 */
#ifndef KEMET_COMMON_H
#define KEMET_COMMON_H

#include "kemet.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Makes room for item n of a growing array: `items` points to the array's
 * pointer, `*cap` is how many items of `size` bytes it holds. When n has
 * reached *cap the array doubles (64 items at first). 0, or -1 when out of
 * memory (the array is then as it was). */
int kc_grow(void *items, long *cap, long n, size_t size);

/* A mixing function for seeds (splitmix64's finaliser). */
uint64_t kc_mix64(uint64_t x);

/* A move as an agent ranks it: its index in the list (-1: throwing) and
 * the mover's estimated chance of winning after it. */
typedef struct kc_ranked {
    double chance;
    int index;
    double se; /* the standard error of a rolled-out chance, else 0 */
} kc_ranked;
/* Best first; equal chances in list order, throwing first. For qsort. */
int kc_by_chance(const void *a, const void *b);
/* Ranks the n moves for `thr` (NULL before the throw: the pre-throw moves
 * and throwing) with kemet_agent_rank, best first. `out` holds n + 1.
 * Returns the count, or -1 when out of memory. */
int kc_rank(kemet_agent *a, const kemet_pos *pos, const kemet_throw *thr,
            const kemet_move *moves, int n, kc_ranked *out);

/* Whether `chance`, an agent's chance for the mover after `move` (NULL:
 * throwing, before the throw), is exact: the game ends there, or j's table
 * covers the position it leads to and the chance is the table's (an agent
 * that does not read the table, such as greedy, gives its own estimate,
 * which is not marked). */
bool kc_exact(const kemet_judge *j, const kemet_pos *pos,
              const kemet_throw *thr, const kemet_move *move, double chance);

/* kemet_explain, its reason as a player reads it: a count of one square
 * in the singular ("3-4 is 1 square, but the throw is 2"; some rulesets'
 * reasons say "1 squares"). Returns kemet_explain's code. */
int kc_explain(const kemet_rules *r, const kemet_pos *pos,
               const kemet_throw *thr, const kemet_move *move, char *why,
               size_t len);

/* The number player `viewer` gives player `who`'s path square `square`:
 * a hole on the viewer's own track by the viewer's number for it (in Tab,
 * Black's hole 9 is White's square 51), a hole off it (the other side's
 * own holes on the 58-holes board) by its owner's number, as the board is
 * labelled there. `square` itself where viewer is 0 or `who`, and for
 * what is no square (KEMET_OFF, KEMET_HAND, 0). */
int kc_square_as(const kemet_rules *r, int who, int square, int viewer);

/* The events `ev` with every square in the numbers of player `viewer`
 * (kc_square_as), into *out: kemet_describe then tells the move as that
 * player reads the board. viewer 0 copies them as they are. */
void kc_events_as(const kemet_rules *r, const kemet_events *ev, int viewer,
                  kemet_events *out);

/* The length (1 to 4) of the well-formed UTF-8 character p starts with
 * (no overlong form, surrogate or code point above U+10FFFF), or 0 where
 * it does not start one; a NUL is a character of length 1. */
int kc_utf8_len(const unsigned char *p);

#endif
