/* tab.c - Tab on the 58-hole board (reconstructions §6, rules 1-10 and
 * rulings TB1-TB13): the family "tab".
 *
 * A turn throws first and moves after: the player throws again after
 * every throw-again value (1, 4 or 6) up to eight throws (TB13), then
 * plays the values one step at a time, in any order, while one can be
 * used (TB3). Between the steps the values still to play wait in the
 * position (pos->left, left=), and the next decision is made with no new
 * throw: kemet_roll gives them back as a throw marked KEMET_KEPT, written
 * `none`, and kemet_moves and kemet_apply take `none` for them too.
 *
 * The board is the 58 holes' (h58.c draws it). Each player's path is a
 * loop: its own holes 1-29, the apex 30, the opponent's holes 29..1 as
 * path squares 31-59, then 1 again. The opponent's path square q is our
 * path square 60-q (kmt_mirror60). Pieces start locked on holes 1-5
 * (pos->lock, l1=/l2=) and are freed by a 1 (TB2); a piece ending on an
 * opponent's piece captures it for good; a player wins by capturing the
 * opponent's last piece. The parts a file chooses: the throw (four sticks
 * where no mark counts 6, or a die of 4 or 6), the marked holes (none;
 * `again`, another turn; `safe`, protection) and the lines.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { APEX = 30, LAST = 59, NPIECES = 5 };
enum { MARKS_NONE, MARKS_AGAIN, MARKS_SAFE };

typedef struct tab {
    int dice;            /* 0: four sticks, no mark up counting 6; else a die */
    uint8_t values;      /* bit v: a single throw can show v */
    uint8_t rethrow;     /* bit v: v is followed by another throw (rule 1) */
    uint32_t weight[7];  /* a single throw's chance of v, in 1/faces */
    uint32_t faces;      /* 16 for the sticks, else the die's faces */
    int marks;           /* MARKS_* (rules 8, 9) */
    uint64_t marked;     /* the marked holes as our path squares (TB6) */
    uint8_t partner[64]; /* a line's far end from its first hole, or 0 */
    char picture[KMT_H58_PICTURE]; /* the terminal's board */
} tab;

#define B(s) KMT_BIT(s)

static inline const tab *T(const kemet_rules *r) {
    return r->params;
}

/* The square a count of t from s ends on, round the loop. */
static inline int ahead(int s, int t) {
    int d = s + t;
    return d > LAST ? d - LAST : d;
}

/* The squares strictly between s and d going forward round the loop. */
static inline uint64_t between(int s, int d) {
    uint64_t all = 0;
    for (int q = ahead(s, 1); q != d; q = ahead(q, 1))
        all |= B(q);
    return all;
}

/* ---------------------------------------------------------------------------
 * Set-up and checks
 * ------------------------------------------------------------------------ */
static void tab_start(const kemet_rules *r, kemet_pos *pos) {
    (void)r;
    *pos = (kemet_pos){0};
    pos->to = 1; /* R8 */
    for (int p = 0; p < 2; p++) {
        pos->sq[p] = B(1) | B(2) | B(3) | B(4) | B(5);
        pos->lock[p] = 31; /* all five locked */
    }
}

static int tab_opening(const kemet_rules *r, kemet_rng *rng, kemet_pos *pos,
                       kemet_throw *first, kemet_events *ev) {
    (void)rng;
    (void)first;
    (void)ev;
    tab_start(r, pos);
    return 0;
}

static int tab_check(const kemet_rules *r, const kemet_pos *pos,
                     kemet_error *err) {
    for (int p = 0; p < 2; p++) {
        bool none = pos->sq[p] == 0;
        if (none && pos->result == KEMET_PLAYING)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "player %d has no piece left, so the game is "
                            "over: the position needs winner=%d",
                            p + 1, 2 - p);
        if (none && pos->result == p + 1)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "winner=%d, but player %d has no piece left", p + 1,
                            p + 1);
    }
    if (pos->result == KEMET_DRAW)
        return kmt_fail(err, KEMET_ESYNTAX, "%s has no draw (winner=0)",
                        r->rs->id);
    if (pos->result != KEMET_PLAYING && pos->sq[2 - pos->result] != 0)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "winner=%d, but player %d still has pieces (rule 7: "
                        "a player wins by capturing the last one)",
                        pos->result, 3 - pos->result);
    return KEMET_OK;
}

static int tab_prethrow(const kemet_rules *r, const kemet_pos *pos,
                        kemet_move *out) {
    (void)r;
    (void)pos;
    (void)out;
    return 0;
}

/* ---------------------------------------------------------------------------
 * Throws: a turn's whole sequence, as the multiset of its values (rule 1)
 * ------------------------------------------------------------------------ */
static bool kept(const kemet_pos *pos) {
    return pos && kmt_left_total(pos) > 0;
}

/* A throw's values in their one written order: those that throw again
 * ascending, then the one that ended the throwing (so each turn's throw
 * is written as a sequence the rules can throw). */
static void canon_order(const tab *t, kemet_throw *thr) {
    kmt_throw_sort(thr);
    kemet_throw o = *thr;
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < thr->n; i++)
            if (((t->rethrow >> thr->v[i]) & 1) == (pass == 0))
                o.v[k++] = thr->v[i];
    *thr = o;
}

typedef struct gen {
    const tab *t;
    kemet_throw *out;
    kemet_weight *weight;
    int n;
} gen;

static kemet_weight ipow64(kemet_weight b, int e) {
    kemet_weight x = 1;
    while (e-- > 0)
        x *= b;
    return x;
}

/* Emits the multiset counts c[1..6] (n values) with its weight. */
static void emit(gen *g, const int *c, int n, int ender) {
    const tab *t = g->t;
    /* the orderings: the values before the ender (with no ender among
     * eight, all eight) in any order */
    kemet_weight orders = 1;
    int placed = 0;
    for (int v = 1; v <= 6; v++) {
        int k = c[v] - (v == ender);
        for (int i = 1; i <= k; i++) {
            placed++;
            orders = orders * (kemet_weight)placed / (kemet_weight)i;
        }
    }
    kemet_weight w = orders * ipow64(t->faces, KEMET_MAX_VALUES - n);
    for (int v = 1; v <= 6; v++)
        w *= ipow64(t->weight[v], c[v]);
    kemet_throw *o = &g->out[g->n];
    *o = (kemet_throw){0};
    for (int v = 1; v <= 6; v++)
        for (int k = 0; k < c[v]; k++)
            o->v[o->n++] = (uint8_t)v;
    canon_order(t, o);
    o->sticks = (uint8_t)n;
    g->weight[g->n++] = w;
}

/* Every multiset of k throw-again values from value v on, then an ender
 * (or, at eight values, anything as the eighth). */
static void again_sets(gen *g, int *c, int k, int left, int v) {
    const tab *t = g->t;
    if (left == 0 || v > 6) {
        if (left)
            return;
        if (k == KEMET_MAX_VALUES) { /* eight throw-again values (TB13) */
            emit(g, c, k, 0);
            return;
        }
        for (int e = 1; e <= 6; e++) {
            if (!(t->values & (1u << e)) || (t->rethrow & (1u << e)))
                continue;
            c[e]++;
            emit(g, c, k + 1, e);
            c[e]--;
        }
        return;
    }
    if (t->rethrow & (1u << v)) {
        for (int m = left; m >= 1; m--) {
            c[v] += m;
            again_sets(g, c, k, left - m, v + 1);
            c[v] -= m;
        }
    }
    again_sets(g, c, k, left, v + 1);
}

static int tab_throws(const kemet_rules *r, const kemet_pos *pos,
                      kemet_throw *out, kemet_weight *weight,
                      kemet_weight *total) {
    if (kept(pos)) {
        kmt_kept_throw(pos, &out[0]);
        weight[0] = *total = 1;
        return 1;
    }
    gen g = {T(r), out, weight, 0};
    int c[7] = {0};
    for (int k = 0; k <= KEMET_MAX_VALUES - 1; k++)
        again_sets(&g, c, k, k, 1);
    /* eight throw-again values: the eighth ends the throwing as it is */
    again_sets(&g, c, KEMET_MAX_VALUES, KEMET_MAX_VALUES, 1);
    *total = ipow64(T(r)->faces, KEMET_MAX_VALUES);
    return g.n;
}

static void tab_roll(const kemet_rules *r, const kemet_pos *pos, kemet_rng *rng,
                     kemet_throw *out) {
    if (kept(pos)) {
        kmt_kept_throw(pos, out);
        return;
    }
    const tab *t = T(r);
    *out = (kemet_throw){0};
    for (;;) {
        int v;
        if (!t->dice) {
            v = kmt_sticks_value(kemet_rng_next(rng));
            v = v == 5 ? 6 : v; /* no counting side up: 6 (R4) */
        } else
            v = 1 + (int)kemet_rng_below(rng, (uint32_t)t->dice);
        out->v[out->n++] = (uint8_t)v;
        if (!(t->rethrow & (1u << v)) || out->n == KEMET_MAX_VALUES)
            break;
    }
    out->sticks = out->n;
    canon_order(t, out);
}

/* A turn's throw (sorted): n values of the device, one ender among
 * fewer than eight (the last thrown), at most one among eight. */
static bool tab_throw_ok(const kemet_rules *r, const kemet_pos *pos,
                         const kemet_throw *thr) {
    const tab *t = T(r);
    if (kept(pos)) {
        kemet_throw k;
        kmt_kept_throw(pos, &k);
        return kemet_throw_equal(&k, thr);
    }
    if (thr->n < 1 || thr->n > KEMET_MAX_VALUES || thr->sticks == KEMET_KEPT)
        return false;
    int enders = 0;
    for (int i = 0; i < thr->n; i++) {
        if (thr->only[i] || thr->v[i] > 6 || !(t->values & (1u << thr->v[i])))
            return false;
        enders += !(t->rethrow & (1u << thr->v[i]));
    }
    return thr->n < KEMET_MAX_VALUES ? enders == 1 : enders <= 1;
}

/* The values in the order thrown (notation: every value but the last
 * throws again; the last ends the throwing unless it is the eighth),
 * then put in their written order. */
static bool tab_sequence_ok(const kemet_rules *r, kemet_throw *raw) {
    const tab *t = T(r);
    for (int i = 0; i < raw->n; i++)
        if (raw->v[i] > 6 ||
            (i + 1 < raw->n && !(t->rethrow & (1u << raw->v[i]))))
            return false;
    canon_order(t, raw);
    return true;
}

/* ---------------------------------------------------------------------------
 * Moves: one step, one value (rules 2-6, 8, 10)
 * ------------------------------------------------------------------------ */
/* Where the piece on s goes with a count of t: its count's end *d, and
 * the square it rests on (after a line), or -1 when it may not move. */
static int dest(const tab *h, const kemet_pos *pos, int me, int s, int t,
                int *d_out) {
    uint64_t own = pos->sq[me], opp = kmt_mirror60(pos->sq[me ^ 1]);
    bool locked = s <= 5 && (pos->lock[me] >> (s - 1) & 1);
    if (locked && t != 1)
        return -1; /* rule 3, TB2 */
    /* rule 6, TB5: from the opponent's start row only when every piece
     * left stands there */
    uint64_t start_row = B(55) | B(56) | B(57) | B(58) | B(59);
    if ((B(s) & start_row) && (own & ~start_row))
        return -1;
    int d = ahead(s, t);
    uint64_t home = own & (B(1) | B(2) | B(3) | B(4) | B(5));
    if (between(s, d) & home)
        return -1; /* rule 5, TB4 */
    own &= ~B(s);  /* G6 */
    if (own & B(d))
        return -1; /* rule 4 */
    uint64_t safe = h->marks == MARKS_SAFE ? h->marked : 0;
    if (opp & safe & B(d))
        return -1; /* rule 8 */
    *d_out = d;
    int e = h->partner[d];
    if (e && !(own & B(e)) && !(opp & safe & B(e)))
        return e; /* rule 10, TB8 */
    return d;
}

/* The value a listed step used: its count from FROM to the line's first
 * hole (via) or to TO. */
static int step_value(const kemet_step *st) {
    int end = st->via ? st->via : st->to;
    int t = end - st->from;
    return t <= 0 ? t + LAST : t;
}

static int tab_moves(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr, kemet_move *out) {
    const tab *h = T(r);
    kemet_throw k;
    if (kept(pos)) {
        kmt_kept_throw(pos, &k);
        thr = &k;
    }
    int me = pos->to - 1, n = 0;
    uint8_t done = 0;
    for (int i = 0; i < thr->n; i++) {
        int t = thr->v[i];
        if (done & (1u << t))
            continue;
        done |= (uint8_t)(1u << t);
        for (uint64_t b = pos->sq[me]; b; b &= b - 1) {
            int s = kmt_ctz64(b), d;
            int e = dest(h, pos, me, s, t, &d);
            if (e < 0)
                continue;
            kemet_move *m = &out[n++];
            m->n = 1;
            m->step[0] =
                (kemet_step){(uint8_t)s, (uint8_t)e, (uint8_t)(e != d ? d : 0)};
        }
    }
    if (n == 0)
        out[n++] = (kemet_move){0}; /* pass */
    return n;
}

/* A written step as the one listed move it names (TB12): itself where
 * it is listed; FROM-END (no via) as the one line step from FROM that
 * ends on END. False where it names none, or two. */
static bool resolve(const tab *h, const kemet_pos *pos, const kemet_throw *thr,
                    kemet_step *st) {
    int me = pos->to - 1, found = 0;
    kemet_step one = *st;
    if (st->from < 1 || st->from > LAST || !(pos->sq[me] & B(st->from)))
        return false;
    uint8_t done = 0;
    for (int i = 0; i < thr->n; i++) {
        int t = thr->v[i], d;
        if (done & (1u << t))
            continue;
        done |= (uint8_t)(1u << t);
        int e = dest(h, pos, me, st->from, t, &d);
        if (e < 0 || e != st->to)
            continue;
        int via = e != d ? d : 0;
        if (via == st->via)
            return true; /* listed as written */
        if (!st->via) {
            one.via = (uint8_t)via;
            found++;
        }
    }
    if (found != 1)
        return false;
    *st = one;
    return true;
}

/* Whether any value of the counts `left` can be used in pos (mover me). */
static bool usable(const tab *h, const kemet_pos *pos, int me, uint32_t left) {
    for (int t = 1; t <= 6; t++) {
        if (!(left >> (4 * (t - 1)) & 15))
            continue;
        for (uint64_t b = pos->sq[me]; b; b &= b - 1) {
            int d;
            if (dest(h, pos, me, kmt_ctz64(b), t, &d) >= 0)
                return true;
        }
    }
    return false;
}

/* A throw's values as counts of 4 bits (as pos->left). */
static uint32_t counts(const kemet_throw *thr) {
    uint32_t c = 0;
    for (int i = 0; i < thr->n; i++)
        c += 1u << (4 * (thr->v[i] - 1));
    return c;
}

static bool tab_legal(const kemet_rules *r, const kemet_pos *pos,
                      const kemet_throw *thr, const kemet_move *move) {
    kemet_throw k;
    if (kept(pos)) {
        kmt_kept_throw(pos, &k);
        thr = &k;
    }
    if (move->n == 0)
        return !usable(T(r), pos, pos->to - 1, counts(thr)); /* G3 */
    kemet_step st = move->step[0];
    return move->n == 1 && resolve(T(r), pos, thr, &st);
}

/* Removes the piece of player p on our square q (p's path square 60-q,
 * or 30), clearing its lock. */
static void capture(kemet_pos *pos, int p, int q, kemet_events *ev) {
    int theirs = q == APEX ? APEX : 60 - q;
    pos->sq[p] &= ~B(theirs);
    if (theirs <= 5)
        pos->lock[p] &= (uint8_t) ~(1u << (theirs - 1));
    kmt_ev_add(ev, KEMET_EV_CAPTURE, p + 1, theirs, 0);
}

static void tab_make(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *move,
                     kemet_pos *out, kemet_events *ev) {
    const tab *h = T(r);
    kemet_pos p = *pos;
    int me = p.to - 1, opp = me ^ 1;
    uint32_t left;
    left = kept(pos) ? kmt_left_get(pos) : counts(thr);
    bool again = p.again != 0;
    if (move->n == 1) {
        kemet_step step = move->step[0];
        kemet_throw k;
        if (kept(pos))
            kmt_kept_throw(pos, &k);
        resolve(h, pos, kept(pos) ? &k : thr, &step); /* TB12 */
        const kemet_step *st = &step;
        int s = st->from, d = st->via ? st->via : st->to, e = st->to;
        int t = step_value(st);
        left -= 1u << (4 * (t - 1));
        p.sq[me] &= ~B(s);
        if (s <= 5)
            p.lock[me] &= (uint8_t) ~(1u << (s - 1));
        kmt_ev_add(ev, KEMET_EV_MOVE, me + 1, s, e);
        if (kmt_mirror60(p.sq[opp]) & B(d))
            capture(&p, opp, d, ev); /* rule 4 */
        if (e != d) {
            kmt_ev_add(ev, KEMET_EV_LINE, me + 1, d, e);
            if (kmt_mirror60(p.sq[opp]) & B(e))
                capture(&p, opp, e, ev); /* rule 10 */
        }
        p.sq[me] |= B(e);
        if (h->marks == MARKS_AGAIN && (h->marked & B(d)))
            again = true; /* rule 9, TB6, TB7 */
    } else {
        left = 0; /* pass: nothing can be used (TB9) */
        kmt_ev_add(ev, KEMET_EV_PASS, me + 1, 0, 0);
    }
    kmt_left_set(&p, 0);
    p.again = 0;
    if (p.sq[opp] == 0) {
        p.result = (uint8_t)(me + 1); /* rule 7 */
        p.to = (uint8_t)(again ? me + 1 : opp + 1);
        kmt_ev_add(ev, KEMET_EV_WIN, me + 1, 0, 0);
    } else if (left && usable(h, &p, me, left)) {
        kmt_left_set(&p, left); /* TB9: all remaining values kept */
        p.again = again;
    } else if (again) {
        kmt_ev_add(ev, KEMET_EV_AGAIN, me + 1, 0, 0); /* rule 9, TB7 */
    } else {
        p.to = (uint8_t)(opp + 1);
    }
    *out = p;
}

/* ---------------------------------------------------------------------------
 * Evaluation, explanations, the board
 * ------------------------------------------------------------------------ */
static const char *const tab_features[] = {"pieces", "free", "exposed",
                                           "start-row", NULL};
static const double tab_weights[] = {1.0, 0.1, -0.15, -0.05};

static void tab_side(const kemet_rules *r, const kemet_pos *pos, int p,
                     double *f) {
    const tab *h = T(r);
    uint64_t own = pos->sq[p], opp = kmt_mirror60(pos->sq[p ^ 1]);
    f[0] = kmt_popcount64(own);
    f[1] = kmt_popcount64(own) - kmt_popcount64(pos->lock[p]);
    /* the pieces off the safe holes: those an opponent's piece stands
     * 1-6 behind (round the loop: square s - t, or s - t + LAST below
     * 1), and those on the last five holes */
    uint64_t open = h->marks == MARKS_SAFE ? own & ~h->marked : own;
    uint64_t behind = 0;
    for (int t = 1; t <= 6; t++)
        behind |= opp << t | opp >> (LAST - t);
    behind &= (B(LAST + 1) - 1) & ~B(0);
    f[2] += kmt_popcount64(open & behind);
    f[3] += kmt_popcount64(open & ~(B(55) - 1));
}

static void tab_explain(const kemet_rules *r, const kemet_pos *pos,
                        const kemet_throw *thr, const kemet_move *move,
                        char *buf, size_t len) {
    const tab *h = T(r);
    kemet_throw k;
    if (kept(pos)) {
        kmt_kept_throw(pos, &k);
        thr = &k;
    }
    int me = pos->to - 1;
    if (!thr || thr->n == 0) { /* (before the throw: a fault fuzz_move found) */
        snprintf(buf, len,
                 "throw first: a move plays a value of this "
                 "turn's throws (rule 1)");
        return;
    }
    if (move->n == 0) {
        snprintf(buf, len, "a value can be used, so you must use one (G3)");
        return;
    }
    if (move->n != 1) {
        snprintf(buf, len, "a move is one step: one value, one piece (rule 2)");
        return;
    }
    const kemet_step *st = &move->step[0];
    int s = st->from;
    if (s < 1 || s > LAST || !(pos->sq[me] & B(s))) {
        snprintf(buf, len, "you have no piece on %d", s);
        return;
    }
    if (st->to < 1 || st->to > LAST) {
        snprintf(buf, len, "pieces never leave the board in Tab (TB1)");
        return;
    }
    int t = step_value(st);
    bool have = false;
    for (int i = 0; i < thr->n; i++)
        have |= thr->v[i] == t;
    if (!have) {
        snprintf(buf, len, "no %d to play: %d-%d counts %d", t, s,
                 st->via ? st->via : st->to, t);
        return;
    }
    bool locked = s <= 5 && (pos->lock[me] >> (s - 1) & 1);
    if (locked && t != 1) {
        snprintf(buf, len,
                 "the piece on %d has not moved yet: only a 1 frees it "
                 "(rule 3)",
                 s);
        return;
    }
    uint64_t start_row = B(55) | B(56) | B(57) | B(58) | B(59);
    if ((B(s) & start_row) && (pos->sq[me] & ~start_row)) {
        snprintf(buf, len,
                 "a piece in the opponent's start row moves only when all "
                 "your pieces are there (rule 6)");
        return;
    }
    int d = ahead(s, t);
    uint64_t home = pos->sq[me] & (B(1) | B(2) | B(3) | B(4) | B(5));
    if (between(s, d) & home) {
        snprintf(buf, len,
                 "the count may not pass your piece on %d in your home row "
                 "(rule 5)",
                 kmt_ctz64(between(s, d) & home));
        return;
    }
    if (pos->sq[me] & ~B(s) & B(d)) {
        snprintf(buf, len, "your own piece stands on %d (rule 4)", d);
        return;
    }
    uint64_t opp = kmt_mirror60(pos->sq[me ^ 1]);
    if (h->marks == MARKS_SAFE && (opp & h->marked & B(d))) {
        snprintf(buf, len,
                 "the opponent's piece on %d stands on a marked hole: it "
                 "cannot be captured (rule 8)",
                 d);
        return;
    }
    int e = dest(h, pos, me, s, t, &d);
    if (e != st->to || (st->via && st->via != d))
        snprintf(buf, len, "with a %d the piece on %d ends on %d%s", t, s, e,
                 e != d ? " (it follows the line, rule 10)" : "");
    else
        snprintf(buf, len, "the move is not legal here");
}

/* The lines as the drawings take them (kmt_art_palm). */
static void drawn_lines(const tab *h, uint8_t line[30]) {
    line[0] = 0;
    for (int s = 1; s < 30; s++)
        line[s] = h->partner[s] < 30 ? h->partner[s] : 0;
}

static void tab_art(const kemet_rules *r, kemet_board_art *a) {
    const tab *h = T(r);
    uint8_t line[30];
    drawn_lines(h, line);
    kmt_art_palm(r, a, h->marked & (((uint64_t)1 << APEX) - 2), line);
    /* the apex is no goal in Tab: hole 30 of both loops, named so */
    if (a->nholes > 0)
        snprintf(a->hole[a->nholes - 1].label,
                 sizeof a->hole[a->nholes - 1].label, "%d", APEX);
}

static const kmt_ruleset tab_base = {
    .pieces = NPIECES,
    .board = NULL, /* the 58 holes' (set by configure) */
    .cells = 59,
    .start = tab_start,
    .opening = tab_opening,
    .check = tab_check,
    .throws = tab_throws,
    .roll = tab_roll,
    .throw_ok = tab_throw_ok,
    .legal = tab_legal,
    .sequence_ok = tab_sequence_ok,
    .prethrow = tab_prethrow,
    .moves = tab_moves,
    .make = tab_make,
    .side = tab_side,
    .features = tab_features,
    .weights = tab_weights,
    .explain = tab_explain,
    .art = tab_art,
    .locks = true,
};

/* ---------------------------------------------------------------------------
 * The family's parts (docs/rulesets.md, family tab)
 * ------------------------------------------------------------------------ */
static int tab_configure(kemet_rules *r, kmt_rulefile *f, kemet_error *err) {
    static const char *const throws[] = {"sticks 4 blank=6", "die 4", "die 6",
                                         NULL};
    static const char *const marks[] = {"none", "again", "safe", NULL};
    int dice, rc;
    tab *h = calloc(1, sizeof *h);
    if (!h)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    r->params = h;
    if (f->board)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "rules file: the tab family's board is the 58 holes, "
                        "built in (no 'board')");
    if ((rc = kmt_rf_fixed(f, "pieces", "5", err)) ||
        (rc = kmt_rf_fixed(f, "start", "locked 1-5", err)) ||
        (rc = kmt_rf_fixed(f, "max-throws", "8", err)) ||
        (rc = kmt_rf_choice(f, "throw", throws, -1, &dice, err)) ||
        (rc = kmt_rf_choice(f, "marks", marks, -1, &h->marks, err)))
        return rc;
    h->dice = dice == 0 ? 0 : dice == 1 ? 4 : 6;
    if (h->dice) {
        h->faces = (uint32_t)h->dice;
        for (int v = 1; v <= h->dice; v++) {
            h->values |= (uint8_t)(1u << v);
            h->weight[v] = 1;
        }
    } else {
        static const uint32_t w[7] = {0, 4, 6, 4, 1, 0, 1}; /* R4 */
        h->faces = 16;
        memcpy(h->weight, w, sizeof w);
        h->values = (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 6);
    }
    int v[8], n;
    if ((rc = kmt_rf_numbers(f, "throw-again", 1, 1, 6, v, 6, &n, err)))
        return rc;
    if (n == 0)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "rules file: missing statement 'throw-again' (tab: "
                        "the values that throw again, e.g. 'throw-again 1 4 "
                        "6')");
    for (int i = 0; i < n; i++)
        h->rethrow |= (uint8_t)(1u << v[i]);
    if ((h->rethrow & h->values) != h->rethrow || h->rethrow == h->values)
        return kmt_rf_refuse(kmt_rf_part(f, "throw-again"),
                             "the values that throw again are values of the "
                             "throw, and not all of them",
                             err);
    /* marked holes (H2, TB6): each side's 1 6 8 10 15 20 25 and the apex */
    static const int holes[] = {1, 6, 8, 10, 15, 20, 25};
    if (h->marks != MARKS_NONE) {
        h->marked = B(APEX);
        for (int i = 0; i < 7; i++)
            h->marked |= B(holes[i]) | B(60 - holes[i]);
    }
    /* lines A-B: from our A to B on our side, and from the opponent's B
     * to its A on theirs (path 60-B to 60-A), in the direction of travel */
    kmt_part *lp = kmt_rf_part(f, "lines");
    if (!lp)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "rules file: missing statement 'lines' (tab: 'lines "
                        "none' or 'lines A-B ...')");
    if (!(lp->argc == 2 && strcmp(lp->argv[1], "none") == 0)) {
        if (lp->argc < 2)
            return kmt_rf_refuse(lp, "name the lines as A-B (or 'lines none')",
                                 err);
        for (int i = 1; i < lp->argc; i++) {
            int a, b;
            const char *w = lp->argv[i], *dash = strchr(w, '-');
            if (!dash || kmt_read_num(w, (size_t)(dash - w), &a) < 0 ||
                kmt_read_num(dash + 1, strlen(dash + 1), &b) < 0 || a < 2 ||
                b > 28 || a >= b)
                return kmt_rf_refuse(lp,
                                     "a line is A-B, holes 2-28 with A below "
                                     "B (taken from A to B)",
                                     err);
            if (h->partner[a] || h->partner[b] || h->partner[60 - b])
                return kmt_rf_refuse(lp, "a hole is the end of one line only",
                                     err);
            h->partner[a] = (uint8_t)b;
            h->partner[60 - b] = (uint8_t)(60 - a);
        }
    }
    kmt_ruleset *rs = &r->own;
    rs->squares = LAST;
    uint8_t line[30];
    drawn_lines(h, line);
    kmt_h58_picture(h->picture, r, h->marked & (B(APEX + 1) - 1), line, false);
    rs->board = h->picture;
    rs->cell_of = kmt_h58_cell_of;
    rs->left_values = h->values;
    rs->agains = h->marks == MARKS_AGAIN;
    return KEMET_OK;
}

const kmt_family kmt_family_tab = {
    .name = "tab",
    .base = &tab_base,
    .option_keys = NULL,
    .configure = tab_configure,
};
