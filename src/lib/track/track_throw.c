/* track_throw.c - the throws of the board-file rulesets (track.h). */
#include "track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Throws. Washburne: the four sticks (rule 4 = ruling G2), or two
 * four-sided dice (rule 17). Lions & Jackals: nsolid solid sticks and
 * ndual dual-coloured sticks with the board file's faces; a dual value in
 * the other player's colour cannot be used by the thrower and is left out
 * of the throw (rule 3), so each outcome is what the thrower may spend.
 * ------------------------------------------------------------------------ */

/* Outcome enumeration over multisets: `kinds` distinct (value, owner)
 * faces with face counts; `k` sticks of this kind. */
typedef struct kind {
    uint8_t v, only;
    uint32_t count; /* faces showing it */
} kind;

static uint32_t ipow(uint32_t b, int e) {
    uint32_t x = 1;
    while (e-- > 0)
        x *= b;
    return x;
}

static uint32_t fact(int n) {
    return n <= 1 ? 1 : (uint32_t)n * fact(n - 1);
}

typedef struct gen {
    kemet_throw *out;
    kemet_weight *weight;
    int n, max;
} gen;

/* Chooses how many of `sticks` show kind i..nk-1; `none` (if >= 0) is the
 * index of the kind that adds no value. */
static void multisets(const kind *kinds, int nk, int i, int left,
                      const kemet_throw *acc, uint32_t mult, int none,
                      void (*done)(const kemet_throw *, uint32_t, void *),
                      void *ctx) {
    if (i == nk - 1) {
        /* the last kind takes the rest */
        kemet_throw t = *acc;
        uint32_t m = mult / fact(left) * ipow(kinds[i].count, left);
        if (i != none)
            for (int k = 0; k < left; k++) {
                t.only[t.n] = kinds[i].only;
                t.v[t.n++] = kinds[i].v;
            }
        done(&t, m, ctx);
        return;
    }
    for (int k = 0; k <= left; k++) {
        kemet_throw t = *acc;
        if (i != none)
            for (int j = 0; j < k; j++) {
                t.only[t.n] = kinds[i].only;
                t.v[t.n++] = kinds[i].v;
            }
        multisets(kinds, nk, i + 1, left - k, &t,
                  mult / fact(k) * ipow(kinds[i].count, k), none, done, ctx);
    }
}

/* The kinds of faces of one sort of stick, in canonical value order. */
static int kinds_of(const uint8_t *v, const uint8_t *owner, int nfaces, int who,
                    kind *out, int *none) {
    int nk = 0;
    uint32_t other = 0;
    for (int f = 0; f < nfaces; f++) {
        int o = owner ? owner[f] : 0;
        if (owner && o != who) {
            other++;
            continue;
        }
        int k = 0;
        while (k < nk && out[k].v != v[f])
            k++;
        if (k == nk)
            out[nk++] = (kind){v[f], (uint8_t)o, 0};
        out[k].count++;
    }
    for (int i = 1; i < nk; i++) /* ascending values */
        for (int j = i; j > 0 && out[j - 1].v > out[j].v; j--) {
            kind x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    *none = -1;
    if (other) {
        *none = nk;
        out[nk++] = (kind){0, 0, other};
    }
    return nk;
}

static void emit(const kemet_throw *t, uint32_t m, void *ctx) {
    gen *g = ctx;
    if (g->n < g->max) {
        g->out[g->n] = *t;
        g->weight[g->n] = m;
    }
    g->n++;
}

/* The dual sticks' outcomes, worked out once, joined to each outcome of
 * the solid sticks. */
typedef struct combine {
    gen dual; /* the dual sticks' outcomes and weights */
    gen *g;   /* the whole throws */
} combine;

static void with_dual(const kemet_throw *solid, uint32_t m, void *ctx) {
    combine *c = ctx;
    for (int i = 0; i < c->dual.n; i++) {
        kemet_throw t = *solid;
        const kemet_throw *d = &c->dual.out[i];
        for (int k = 0; k < d->n; k++) {
            t.only[t.n] = d->only[k];
            t.v[t.n++] = d->v[k];
        }
        emit(&t, m * (uint32_t)c->dual.weight[i], c->g);
    }
}

int kmt_track_throws(const kemet_rules *r, const kemet_pos *pos,
                     kemet_throw *out, kemet_weight *weight,
                     kemet_weight *total) {
    const track *t = T(r);
    if (t->R->throws == THROW_STICKS)
        return kmt_sticks_throws(out, weight, total);
    gen g = {out, weight, 0, KEMET_MAX_THROWS};
    kind sk[KMT_BOARD_FACES + 1], dk[KMT_BOARD_FACES + 1];
    int snone, dnone, nsk, ndk = 0, nsolid, ndual = 0;
    if (t->R->throws == THROW_DICE) {
        static const uint8_t d4[4] = {1, 2, 3, 4};
        nsk = kinds_of(d4, NULL, 4, 0, sk, &snone);
        nsolid = 2;
        *total = 16;
    } else {
        nsk = kinds_of(t->b.solid, NULL, t->b.nsolid_faces, 0, sk, &snone);
        ndk = kinds_of(t->b.dual_v, t->b.dual_p, t->b.ndual_faces, pos->to, dk,
                       &dnone);
        nsolid = t->nsolid;
        ndual = t->ndual;
        *total = ipow((uint32_t)t->b.nsolid_faces, nsolid) *
                 ipow((uint32_t)t->b.ndual_faces, ndual);
    }
    /* no dual stick: one empty outcome of weight 1 */
    kemet_throw dual_out[KEMET_MAX_THROWS] = {{0}};
    kemet_weight dual_w[KEMET_MAX_THROWS] = {1};
    combine c = {{dual_out, dual_w, 1, KEMET_MAX_THROWS}, &g};
    kemet_throw empty = {0};
    if (ndual) {
        c.dual.n = 0;
        multisets(dk, ndk, 0, ndual, &empty, fact(ndual), dnone, emit, &c.dual);
    }
    multisets(sk, nsk, 0, nsolid, &empty, fact(nsolid), snone, with_dual, &c);
    int n = g.n < KEMET_MAX_THROWS ? g.n : KEMET_MAX_THROWS;
    for (int i = 0; i < n; i++)
        out[i].sticks = (uint8_t)(nsolid + ndual);
    return n;
}

/* How many outcomes a throw has (to refuse stick counts whose outcomes
 * would not fit KEMET_MAX_THROWS). */
static long outcomes(int faces, int sticks) {
    long n = 1; /* C(faces + sticks - 1, sticks) */
    for (int i = 1; i <= sticks; i++)
        n = n * (faces + i - 1) / i;
    return n;
}

void kmt_track_roll(const kemet_rules *r, const kemet_pos *pos, kemet_rng *rng,
                    kemet_throw *out) {
    const track *t = T(r);
    if (t->R->throws == THROW_STICKS) {
        kmt_sticks_roll(rng, out);
        return;
    }
    *out = (kemet_throw){0};
    if (t->R->throws == THROW_DICE) {
        /* two fair four-sided dice: two bits each of one draw */
        uint64_t x = kemet_rng_next(rng);
        out->v[0] = (uint8_t)((x >> 62) + 1);
        out->v[1] = (uint8_t)(((x >> 60) & 3) + 1);
        out->n = 2;
        out->sticks = 2;
    } else {
        for (int i = 0; i < t->nsolid; i++)
            out->v[out->n++] =
                t->b.solid[kemet_rng_below(rng, (uint32_t)t->b.nsolid_faces)];
        for (int i = 0; i < t->ndual; i++) {
            int f = (int)kemet_rng_below(rng, (uint32_t)t->b.ndual_faces);
            if (t->b.dual_p[f] == pos->to) {
                out->only[out->n] = pos->to;
                out->v[out->n++] = t->b.dual_v[f];
            }
        }
        out->sticks = (uint8_t)(t->nsolid + t->ndual);
    }
    kmt_throw_sort(out);
}

static bool face_of(const uint8_t *faces, int n, int v) {
    for (int i = 0; i < n; i++)
        if (faces[i] == v)
            return true;
    return false;
}

bool kmt_track_throw_ok(const kemet_rules *r, const kemet_pos *pos,
                        const kemet_throw *thr) {
    const track *t = T(r);
    if (t->R->throws == THROW_STICKS)
        return thr->n == 1 && thr->v[0] >= 1 && thr->v[0] <= 5 &&
               thr->only[0] == 0;
    if (t->R->throws == THROW_DICE)
        return thr->n == 2 && thr->only[0] == 0 && thr->only[1] == 0 &&
               thr->v[0] >= 1 && thr->v[0] <= 4 && thr->v[1] >= 1 &&
               thr->v[1] <= 4;
    int solid = 0, dual = 0, owner = 0;
    for (int i = 0; i < thr->n; i++) {
        if (thr->only[i] == 0) {
            if (!face_of(t->b.solid, t->b.nsolid_faces, thr->v[i]))
                return false;
            solid++;
        } else {
            bool ok = false;
            for (int f = 0; f < t->b.ndual_faces; f++)
                ok |= t->b.dual_v[f] == thr->v[i] &&
                      t->b.dual_p[f] == thr->only[i];
            if (!ok || (owner && owner != thr->only[i]))
                return false;
            owner = thr->only[i];
            dual++;
        }
    }
    if (pos && owner && owner != pos->to)
        return false;
    return solid == t->nsolid && dual <= t->ndual;
}

long kmt_track_throw_count(const track *t) {
    /* The outcomes of a throw must fit KEMET_MAX_THROWS: distinct solid
     * values, and each player's distinct dual values plus "the other
     * colour". */
    kind k[KMT_BOARD_FACES + 1];
    int none, nd = 0;
    for (int p = 1; p <= 2; p++) {
        int x =
            kinds_of(t->b.dual_v, t->b.dual_p, t->b.ndual_faces, p, k, &none);
        nd = x > nd ? x : nd;
    }
    long n =
        outcomes(kinds_of(t->b.solid, NULL, t->b.nsolid_faces, 0, k, &none),
                 t->nsolid) *
        outcomes(nd, t->ndual);
    return n;
}
