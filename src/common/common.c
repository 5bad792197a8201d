/* common.c - helpers shared by the program's commands and the server
 * (common.h).
 */
#include "common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int kc_grow(void *items, long *cap, long n, size_t size) {
    if (n < *cap)
        return 0;
    void *old, *p;
    memcpy(&old, items, sizeof old);
    long c = *cap ? 2 * *cap : 64;
    if (!(p = realloc(old, (size_t)c * size)))
        return -1;
    memcpy(items, &p, sizeof p);
    *cap = c;
    return 0;
}

uint64_t kc_mix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

int kc_by_chance(const void *a, const void *b) {
    const kc_ranked *x = a, *y = b;
    if (x->chance != y->chance)
        return x->chance < y->chance ? 1 : -1;
    return x->index - y->index;
}

int kc_rank(kemet_agent *a, const kemet_pos *pos, const kemet_throw *thr,
            const kemet_move *moves, int n, kc_ranked *out) {
    double *chance = malloc((size_t)(n > 0 ? n : 1) * sizeof *chance);
    double tc = 0;
    if (!chance)
        return -1;
    kemet_agent_rank(a, pos, thr, moves, n, chance, &tc);
    int m = 0;
    for (int i = 0; i < n; i++)
        out[m++] = (kc_ranked){chance[i], i, 0};
    if (!thr)
        out[m++] = (kc_ranked){tc, -1, 0};
    free(chance);
    qsort(out, (size_t)m, sizeof *out, kc_by_chance);
    return m;
}

bool kc_exact(const kemet_judge *j, const kemet_pos *pos,
              const kemet_throw *thr, const kemet_move *move, double chance) {
    const kemet_rules *r = kemet_judge_rules(j);
    const kemet_table *t = kemet_judge_table(j);
    kemet_pos next = *pos;
    if (move)
        kemet_make(r, pos, thr, move, &next, NULL);
    double v;
    if (next.result != KEMET_PLAYING)
        v = next.result == KEMET_DRAW ? 0.5 : next.result == pos->to ? 1 : 0;
    else if (!move) /* throwing: the class holds every position it leads to */
        return t && kemet_table_probe(t, pos, &v) && fabs(v - chance) < 1e-9;
    else if (t && kemet_table_probe(t, &next, &v))
        v = next.to == pos->to ? v : 1 - v;
    else
        return false;
    return fabs(v - chance) < 1e-9;
}

int kc_square_as(const kemet_rules *r, int who, int square, int viewer) {
    const kemet_info *info = kemet_rules_info(r);
    if (!viewer || viewer == who || square < 1 || square > info->squares)
        return square;
    int cell = kemet_square_cell(r, who, square);
    if (cell <= 0)
        return square;
    for (int q = 1; q <= info->squares; q++)
        if (kemet_square_cell(r, viewer, q) == cell)
            return q;
    return square; /* off the viewer's track: its owner's number */
}

void kc_events_as(const kemet_rules *r, const kemet_events *ev, int viewer,
                  kemet_events *out) {
    *out = *ev;
    for (int i = 0; i < out->n && viewer; i++) {
        kemet_event *e = &out->ev[i];
        /* a and b are the squares of the side `who`, but for the
           opening's throws, a win's points, a draw's kind, Jequier's
           contestants and the flag of a throw lost */
        switch (e->kind) {
        case KEMET_EV_STARTS:
        case KEMET_EV_REOPEN:
        case KEMET_EV_WIN:
        case KEMET_EV_DRAW:
        case KEMET_EV_FIRST1: continue;
        case KEMET_EV_LOST:
            e->a = (uint8_t)kc_square_as(r, e->who, e->a, viewer);
            continue;
        default:
            e->a = (uint8_t)kc_square_as(r, e->who, e->a, viewer);
            e->b = (uint8_t)kc_square_as(r, e->who, e->b, viewer);
        }
    }
}

int kc_explain(const kemet_rules *r, const kemet_pos *pos,
               const kemet_throw *thr, const kemet_move *move, char *why,
               size_t len) {
    int rc = kemet_explain(r, pos, thr, move, why, len);
    if (len == 0)
        return rc;
    /* " 1 squares": the 's' of "squares" dropped */
    for (char *s = why; (s = strstr(s, " 1 squares")) != NULL; s += 9)
        memmove(s + 9, s + 10, strlen(s + 10) + 1);
    return rc;
}

int kc_utf8_len(const unsigned char *p) {
    int n = *p < 0x80                 ? 0
            : *p >= 0xC2 && *p < 0xE0 ? 1
            : *p >= 0xE0 && *p < 0xF0 ? 2
            : *p >= 0xF0 && *p < 0xF5 ? 3
                                      : -1;
    if (n < 0)
        return 0;
    /* the second byte's range: no overlong form, surrogate or code point
       above U+10FFFF */
    unsigned lo = *p == 0xE0 ? 0xA0 : *p == 0xF0 ? 0x90 : 0x80;
    unsigned hi = *p == 0xED ? 0x9F : *p == 0xF4 ? 0x8F : 0xBF;
    for (int k = 1; k <= n; k++)
        if (p[k] < (k == 1 ? lo : 0x80) || p[k] > (k == 1 ? hi : 0xBF))
            return 0;
    return n + 1;
}
