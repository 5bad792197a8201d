/* net.h - what net.c (inference, the file format) and net_train.c
 * (training) share: the network's layout and its forward pass, inline so
 * that both files compute it with the same code.
 */
#ifndef KEMET_NET_H
#define KEMET_NET_H

#include "internal.h"

#include <math.h>
#include <string.h>

#define MAX_INPUTS 256
#define MAX_HIDDEN 256

struct kemet_net {
    char id[64]; /* the ruleset it was trained for */
    int ni, nh;  /* inputs, hidden units */
    int nf;      /* ruleset features per side */
    int nw;      /* weights: ni * nh + nh + nh + 1 + ni */
    double *w;   /* W1 by input (w[i * nh + j]), b1, w2, b2, v (the
                    direct path, by input) */
    double scale[KEMET_MAX_FEATURES];
    char *note;     /* how it was made (the file's comment lines), or NULL */
    double *sig;    /* the sigmoid at SIG_N + 1 points over [-SIG_MAX,
                       SIG_MAX], each point i < SIG_N beside its step to the
                       next: sig[2i] = s(i), sig[2i + 1] = s(i + 1) - s(i),
                       sig[2 SIG_N] = s(SIG_N) */
    float *w1f;     /* W1 in single precision, for the forward pass (twice
                       as many per vector instruction); refreshed from w */
    int pieces;     /* an endgame section: the class it judges (each side 1
                       to `pieces` pieces in play); 0 for the whole game's */
    kemet_net *end; /* the whole game's network: its endgame section, or
                       NULL */
};

/* The hidden units' sigmoid by table and linear interpolation (within
 * 2e-6 of the function), a third of the cost of exp(). */
#define SIG_MAX 16.0
#define SIG_N 4096

static inline int side_features(const kemet_rules *r) {
    int n = 0;
    while (r->rs->features[n])
        n++;
    return n;
}

static inline int inputs_for(const kemet_rules *r, int nf) {
    return 2 * (r->squares + 1 + 3 + nf) + 2;
}

/* The inputs of `pos`: k nonzero ones, input idx[i] with value val[i]. */
static inline int encode(const kemet_rules *r, const kemet_net *n,
                         const kemet_pos *pos, int *idx, double *val) {
    int k = 0, S = r->squares, base = 0;
    int m = pos->to - 1;
    double pieces = r->info.pieces;
    for (int s2 = 0; s2 < 2; s2++) {
        int p = s2 == 0 ? m : 1 - m;
        uint64_t b = pos->sq[p];
        while (b) {
            int s = __builtin_ctzll(b);
            b &= b - 1;
            if (s <= S) {
                idx[k] = base + s;
                val[k++] = 1;
            }
        }
        base += S + 1;
        int on = kemet_on_board(pos, p + 1);
        double x[3] = {pos->heap[p] / pieces, pos->hand[p] / pieces,
                       (pieces - on - pos->hand[p]) / pieces};
        for (int i = 0; i < 3; i++)
            if (x[i] != 0) {
                idx[k] = base + i;
                val[k++] = x[i];
            }
        base += 3;
        double f[KEMET_MAX_FEATURES] = {0};
        r->rs->side(r, pos, p, f);
        for (int i = 0; i < n->nf; i++)
            if (f[i] != 0) {
                idx[k] = base + i;
                val[k++] = f[i] * n->scale[i];
            }
        base += n->nf;
    }
    if (pos->to == 1) {
        idx[k] = base;
        val[k++] = 1;
    }
    if (pos->must) {
        idx[k] = base + 1;
        val[k++] = 1;
    }
    return k;
}

static inline double sigmoid(double z) {
    return 1 / (1 + exp(-z));
}

/* The sigmoid's table position of z: where sigmoid_at reads it. */
static inline double sigmoid_pos(double z) {
    return (z + SIG_MAX) * (SIG_N / (2 * SIG_MAX));
}

/* The sigmoid at table position x, by linear interpolation between the
 * points on either side (the step to the next point is kept beside each,
 * so one read gives both). */
static inline double sigmoid_at(const double *sig, double x) {
    if (!(x > 0))
        return sig[0];
    if (x >= SIG_N)
        return sig[2 * SIG_N];
    int i = (int)x;
    double f = x - i;
    return sig[2 * i] + f * sig[2 * i + 1];
}

/* acc = the sum of the k rows idx[] of w1f (nh wide) scaled by val[].
 * Columns are taken 32 at a time, their sums held in eight 4-wide vectors
 * (registers) rather than in memory, then 4 at a time, then one by one:
 * each acc[j] gets the same additions in the same order whatever the
 * width, so the result is that of a plain loop over the columns, only
 * faster (half the time of a move at 64 hidden units). */
typedef float kmt_f4 __attribute__((vector_size(16)));
static inline void add_rows(const float *w1f, int nh, int k, const int *idx,
                            const double *val, float *acc) {
    float x[MAX_INPUTS];
    for (int i = 0; i < k; i++)
        x[i] = (float)val[i];
    int c = 0;
    for (; c + 32 <= nh; c += 32) {
        kmt_f4 a[8] = {0};
        for (int i = 0; i < k; i++) {
            const float *row = w1f + (size_t)idx[i] * nh + c;
            kmt_f4 xs = {x[i], x[i], x[i], x[i]};
            for (int m = 0; m < 8; m++) {
                kmt_f4 r;
                memcpy(&r, row + 4 * m, sizeof r);
                a[m] += r * xs;
            }
        }
        memcpy(acc + c, a, sizeof a);
    }
    for (; c + 4 <= nh; c += 4) {
        kmt_f4 a = {0};
        for (int i = 0; i < k; i++) {
            kmt_f4 r, xs = {x[i], x[i], x[i], x[i]};
            memcpy(&r, w1f + (size_t)idx[i] * nh + c, sizeof r);
            a += r * xs;
        }
        memcpy(acc + c, &a, sizeof a);
    }
    for (; c < nh; c++) {
        float a = 0;
        for (int i = 0; i < k; i++)
            a += w1f[(size_t)idx[i] * nh + c] * x[i];
        acc[c] = a;
    }
}

/* The mover's chance, and the hidden units' values in h (nh). */
static inline double forward(const kemet_net *n, int k, const int *idx,
                             const double *val, double *h) {
    const double *b1 = n->w + n->ni * n->nh, *w2 = b1 + n->nh;
    const double *v = w2 + n->nh + 1;
    double z = w2[n->nh];
    float acc[MAX_HIDDEN];
    add_rows(n->w1f, n->nh, k, idx, val, acc);
    for (int i = 0; i < k; i++)
        z += v[idx[i]] * val[i];
    double x[MAX_HIDDEN]; /* apart, so that the compiler vectorises it */
    for (int j = 0; j < n->nh; j++)
        x[j] = sigmoid_pos(b1[j] + acc[j]);
    for (int j = 0; j < n->nh; j++) {
        h[j] = sigmoid_at(n->sig, x[j]);
        z += w2[j] * h[j];
    }
    return sigmoid(z);
}

static inline void refresh(kemet_net *n) {
    for (int i = 0; i < n->ni * n->nh; i++)
        n->w1f[i] = (float)n->w[i];
}

/* Whether each side of `pos` has 1 to `pieces` pieces in play (on the
 * board, on the heap, in hand): the class of an endgame table of that
 * many pieces (table.c), and of an endgame section. */
static inline bool in_class(const kemet_pos *pos, int pieces) {
    for (int p = 0; p < 2; p++) {
        int k = kmt_in_play(pos, p);
        if (k < 1 || k > pieces)
            return false;
    }
    return true;
}

/* A network of nh hidden units for `r`, its weights zero and its scales
 * one (net.c); NULL when out of memory. */
kemet_net *kmt_net_alloc(const kemet_rules *r, int nh);

/* Player 1's result of a self-play game that training's cap on plies
 * ended still going (net_train.c): where the rules count pieces borne off
 * as a score (Bell's, end score), that score decides as it does at the
 * game's end (more borne off wins, equal draws); elsewhere a draw. */
double kmt_net_cap_result(const kemet_rules *r, const kemet_pos *pos);

#endif /* KEMET_NET_H */
