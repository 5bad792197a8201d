/* table.h - what table.c (the index, probing, files) and table_solve.c
 * (the solver) share: the values' scale and the index of a position,
 * inline so that probing stays as fast as it was.
 */
#ifndef KEMET_TABLE_H
#define KEMET_TABLE_H

#include "internal.h"

#define SCALE 65534
#define INVALID 65535
#define HEADER_SIZE 184
#define TOLERANCE 1e-9
#define TB_MAX_ENTRIES 0x7FFFFFF0LL

/* The rank of side p of `pos`, or -1 outside the class. */
static inline int64_t side_of(const kemet_table *t, const kemet_pos *pos,
                              int p) {
    uint64_t mask = pos->sq[p];
    int n = kmt_in_play(pos, p);
    if (n == 0 || n > t->N || (mask & ~t->allowed) ||
        (pos->heap[p] && !t->heap_sq) || (pos->hand[p] && !t->hand))
        return -1;
    return kmt_table_side_rank(t, mask, pos->heap[p], pos->hand[p]);
}

static inline int64_t index_of(const kemet_table *t, const kemet_pos *pos) {
    if (pos->result != KEMET_PLAYING || (pos->to != 1 && pos->to != 2))
        return -1;
    int me = pos->to - 1;
    int64_t a = side_of(t, pos, me), o = side_of(t, pos, 1 - me);
    if (a < 0 || o < 0)
        return -1;
    if (pos->must) {
        uint64_t m = t->mask[a] & t->must_sq;
        if (pos->must > 63 || !(m & KMT_BIT(pos->must)))
            return -1;
        a = t->M + t->must_first[a] +
            kmt_popcount64(m & (KMT_BIT(pos->must) - 1));
    }
    return a * (int64_t)t->M + o;
}

/* The position of entry x, player 1 to move. */
static inline void position_of(const kemet_table *t, int64_t x,
                               kemet_pos *pos) {
    int must;
    uint32_t a = kmt_table_plain(t, (uint32_t)(x / t->M), &must);
    uint32_t o = (uint32_t)(x % t->M);
    *pos = (kemet_pos){0};
    pos->sq[0] = t->mask[a];
    pos->heap[0] = t->heap[a];
    pos->hand[0] = t->hnd[a];
    pos->sq[1] = t->mask[o];
    pos->heap[1] = t->heap[o];
    pos->hand[1] = t->hnd[o];
    pos->to = 1;
    pos->must = (uint8_t)must;
}

/* kmt_table_layout for a table: refuses a class too large to hold
 * (table.c). */
int kmt_table_layout_fit(const kemet_rules *r, int pieces, kemet_table **out,
                         kemet_error *err);

#endif /* KEMET_TABLE_H */
