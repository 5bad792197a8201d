/* piccione.c - Senet as Peter Piccione reads it (senet-piccione, the
 * rules of CADACO's "King Tut's Game"; reconstructions.md section 2, rules
 * 1-10 and rulings PC1-PC12): the senet family's parts `capture none`,
 * `setup in-hand`, `enter 1`, `split throw`, `backward when-stuck`,
 * `water 27 hand`, `bear-off exact`, `again 5 enter 15 26` and `throw
 * sticks 4 blank=5` (senet.c reads the parts and sets this generator up).
 *
 * Five pieces each, all in hand; a throw of 1 may enter a piece on 1, and
 * the next throw must move it; a throw may be split into parts, each
 * moving a different piece, all the same way; nothing is captured and no
 * square holds two pieces; a part ending on 27 sends its piece back to
 * hand; a piece bears off by a part that takes it exactly past 30. A 5,
 * an entry, or a part ending on 15 or 26 earns one more throw.
 *
 * A move is a play (PC1): a set of steps judged at once. The plays of a
 * throw are found by giving each piece a part (0 for none) that adds up
 * to the throw, then checking the targets. Nothing allocates.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    NSQ = 30,
    NPIECES = 5,
    WATER = 27, /* rule 6 */
    EXIT = NSQ + 1,
    REBIRTH = 15, /* rule 8: a part ending here throws again */
    BEAUTY = 26,
    MAXPLAYS = 512 /* far more than a throw of 5 over 5 pieces gives */
};

#define TRACK (((uint64_t)1 << (NSQ + 1)) - 2) /* 1..30 */

/* All pieces in hand; player 1 starts (R8). */
static void pc_start(const kemet_rules *r, kemet_pos *pos) {
    (void)r;
    *pos = (kemet_pos){0};
    pos->hand[0] = pos->hand[1] = NPIECES;
    pos->to = 1;
}

static int pc_opening(const kemet_rules *r, kemet_rng *rng, kemet_pos *pos,
                      kemet_throw *first, kemet_events *ev) {
    (void)rng;
    (void)first;
    (void)ev;
    pc_start(r, pos);
    return 0;
}

/* A step's end as a number to compare: a square, or 31 for off. */
static int end_of(int to) {
    return to == KEMET_OFF ? EXIT : to;
}

/* The value a step spends (an entry spends 1). */
static int part_of(const kemet_step *s) {
    if (s->from == KEMET_HAND)
        return 1;
    int t = end_of(s->to);
    return t > s->from ? t - s->from : s->from - t;
}

/* Orders a play's steps as written: forward by FROM descending, backward
 * by FROM ascending (section 2, Notation). */
static void pc_sort_steps(kemet_move *m) {
    if (m->n < 2 || m->step[0].from == KEMET_HAND)
        return;
    bool back = end_of(m->step[0].to) < m->step[0].from;
    for (int i = 1; i < m->n; i++)
        for (int j = i; j > 0; j--) {
            int a = m->step[j - 1].from, b = m->step[j].from;
            if (back ? a > b : a < b) {
                kemet_step t = m->step[j];
                m->step[j] = m->step[j - 1];
                m->step[j - 1] = t;
            }
        }
}

/* The list's order (agreed with tests/piccione_ref.py): an entry first,
 * then fewer steps first, then step by step by FROM, then TO (off after
 * every square). A play is generated as a key in that order: bit 53 set
 * but for the entry, the number of steps in bits 50-52, and step i of the
 * written order in the 10 bits from 40 - 10 i (its FROM, then its TO with
 * off as 31), so that sorting the keys as numbers sorts the plays. */
#define KEY_PLAY ((uint64_t)1 << 53)

static uint64_t key_step(int i, int from, int to) {
    return (uint64_t)(from << 5 | to) << (40 - 10 * i);
}

static void key_move(uint64_t key, kemet_move *m) {
    *m = (kemet_move){0};
    if (!(key & KEY_PLAY)) {
        m->n = 1;
        m->step[0] = (kemet_step){.from = KEMET_HAND, .to = 1};
        return;
    }
    m->n = (uint8_t)(key >> 50 & 7);
    for (int i = 0; i < m->n; i++) {
        int bits = (int)(key >> (40 - 10 * i) & 1023), to = bits & 31;
        m->step[i].from = (uint8_t)(bits >> 5);
        m->step[i].to = (uint8_t)(to == EXIT ? KEMET_OFF : to);
    }
}

typedef struct gen {
    uint64_t occ;
    int piece[NPIECES], npieces; /* ascending */
    int part[NPIECES];
    bool back;
    bool need1; /* must=1: a forward step from 1 is required (PC10) */
    uint64_t *key;
    int n;
} gen;

/* PC1: the parts given, checked as a play; its key appended when legal.
 * Its steps are written forward by FROM descending, backward by FROM
 * ascending (section 2, Notation). */
static void gen_check(gen *G) {
    uint64_t from = 0, to = 0, key = KEY_PLAY;
    bool has1 = false;
    int n = 0;
    for (int k = 0; k < G->npieces; k++) {
        int i = G->back ? k : G->npieces - 1 - k;
        int d = G->part[i];
        if (!d)
            continue;
        int s = G->piece[i], t = G->back ? s - d : s + d;
        from |= KMT_BIT(s);
        if (t <= NSQ) {
            if (to & KMT_BIT(t))
                return; /* two targets on one square */
            to |= KMT_BIT(t);
        }
        has1 |= s == 1 && !G->back;
        key |= key_step(n++, s, t);
    }
    /* each target on the board empty, or left by another step of the play
       (rule 3: nothing is captured) */
    if (to & G->occ & ~from)
        return;
    if (G->need1 && !has1)
        return;
    if (G->n >= MAXPLAYS)
        return;
    G->key[G->n++] = key | (uint64_t)n << 50;
}

/* Gives piece i onwards parts adding up to `left`. */
static void gen_parts(gen *G, int i, int left) {
    if (i == G->npieces) {
        if (left == 0)
            gen_check(G);
        return;
    }
    int s = G->piece[i];
    int most = left;
    if (G->back) {
        if (s >= 28) /* rule 5 */
            most = 0;
        else if (most > s - 1)
            most = s - 1; /* never below 1 */
    } else if (most > EXIT - s) {
        most = EXIT - s; /* rule 7: off only exactly at 31 */
    }
    for (int d = 0; d <= most; d++) {
        G->part[i] = d;
        gen_parts(G, i + 1, left - d);
    }
    G->part[i] = 0;
}

/* The keys of every play of throw v, unsorted; 0 when none (then the move
 * is `pass`). */
static int pc_keys(const kemet_pos *pos, int v, uint64_t key[MAXPLAYS]) {
    int me = pos->to - 1;
    gen G = {
        .occ = pos->sq[0] | pos->sq[1], .key = key, .need1 = pos->must == 1};
    for (uint64_t b = pos->sq[me]; b; b &= b - 1)
        G.piece[G.npieces++] = kmt_ctz64(b);
    /* PC6: a 1 used whole enters a piece on an empty square 1, with no
       must= pending */
    if (v == 1 && pos->hand[me] && !(G.occ & KMT_BIT(1)) && !pos->must)
        key[G.n++] = 0;
    gen_parts(&G, 0, v);
    if (G.n == 0 && !pos->must) {
        /* rule 4, PC5: backward only when the throw has no forward play */
        G.back = true;
        gen_parts(&G, 0, v);
    }
    return G.n;
}

/* Shell's sort (Ciura's gaps): no calls, few moves for lists of up to a
 * few hundred keys. */
static void sort_keys(uint64_t *key, int n) {
    static const int gaps[] = {301, 132, 57, 23, 10, 4, 1};
    for (int g = 0; g < 7; g++) {
        int h = gaps[g];
        for (int i = h; i < n; i++) {
            uint64_t t = key[i];
            int j = i;
            for (; j >= h && key[j - h] > t; j -= h)
                key[j] = key[j - h];
            key[j] = t;
        }
    }
}

/* Every play of throw v, in the list's order; 0 when none. */
static int pc_plays(const kemet_pos *pos, int v, kemet_move *out) {
    uint64_t key[MAXPLAYS];
    int n = pc_keys(pos, v, key);
    sort_keys(key, n);
    for (int i = 0; i < n; i++)
        key_move(key[i], &out[i]);
    return n;
}

static int pc_moves(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, kemet_move *out) {
    (void)r;
    int n = pc_plays(pos, thr->v[0], out);
    if (n == 0)
        out[n++] = (kemet_move){0}; /* PC9, PC10 */
    return n;
}

/* A play in the list's form: its steps in their written order. */
static bool pc_legal(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *move) {
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    if (!list)
        return false;
    int n = pc_moves(r, pos, thr, list);
    kemet_move m = *move;
    pc_sort_steps(&m);
    bool ok = false;
    for (int i = 0; i < n && !ok; i++)
        ok = list[i].n == m.n &&
             memcmp(list[i].step, m.step, (size_t)m.n * sizeof m.step[0]) == 0;
    free(list);
    return ok;
}

/* The steps of `done` made on `pos` (the player still to move): what the
 * board shows in the middle of a play, and what `make` builds on. Returns
 * whether a part ended on 15 or 26. */
static bool pc_steps(const kemet_pos *pos, const kemet_move *m, kemet_pos *out,
                     kemet_events *ev) {
    int me = pos->to - 1, who = me + 1;
    uint64_t own = pos->sq[me];
    int hand = pos->hand[me];
    bool again = false;
    for (int i = 0; i < m->n; i++)
        if (m->step[i].from != KEMET_HAND)
            own &= ~KMT_BIT(m->step[i].from);
    for (int i = 0; i < m->n; i++) {
        int f = m->step[i].from, t = m->step[i].to;
        if (f == KEMET_HAND) {
            hand--;
            own |= KMT_BIT(t);
            kmt_ev_add(ev, KEMET_EV_ENTER, who, 0, t);
            continue;
        }
        kmt_ev_add(ev, KEMET_EV_MOVE, who, f, t);
        if (t == KEMET_OFF)
            continue;
        if (t == WATER) {
            /* rule 6, PC7: back to hand */
            hand++;
            kmt_ev_add(ev, KEMET_EV_DROWN, who, WATER, KEMET_HAND);
            continue;
        }
        own |= KMT_BIT(t);
        again |= t == REBIRTH || t == BEAUTY; /* rule 8, PC8 */
    }
    *out = *pos;
    out->sq[me] = own;
    out->hand[me] = (uint8_t)hand;
    return again;
}

static void pc_make(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, const kemet_move *move,
                    kemet_pos *out, kemet_events *ev) {
    (void)r;
    int me = pos->to - 1, who = me + 1;
    kemet_pos p = *pos;
    p.must = 0;
    if (move->n == 0) {
        if (pos->must == 1) {
            /* rule 9, PC10: the entered piece goes back to hand */
            p.sq[me] &= ~KMT_BIT(1);
            p.hand[me]++;
            kmt_ev_add(ev, KEMET_EV_UNENTER, who, 1, 0);
        } else {
            kmt_ev_add(ev, KEMET_EV_PASS, who, 0, 0);
        }
        p.to = (uint8_t)(3 - who); /* PC9: a lost throw ends the turn */
        *out = p;
        return;
    }
    bool entered = move->step[0].from == KEMET_HAND;
    bool again = pc_steps(pos, move, &p, ev) || entered ||
                 (thr && thr->n && thr->v[0] == 5);
    p.must = entered ? 1 : 0; /* rule 1, rule 9 */
    if (p.sq[me] == 0 && p.hand[me] == 0) {
        /* rule 10: all five borne off; `to` as the turn rules give */
        p.result = (uint8_t)who;
        p.must = 0;
        kmt_ev_add(ev, KEMET_EV_WIN, who, 0, 0);
    } else if (again) {
        kmt_ev_add(ev, KEMET_EV_AGAIN, who, 0, 0);
    }
    if (!again)
        p.to = (uint8_t)(3 - who);
    *out = p;
}

/* For entering a play step by step (kemet_next_steps): the steps of the
 * plays that contain `done`, and the value still to play. */
/* The fast random playout: the generic loop's draws and counts, with only
 * the chosen play of each list made a move. */
static void pc_playout(const kemet_rules *r, kmt_playout_state *st) {
    kemet_pos *pos = &st->pos;
    uint64_t key[MAXPLAYS];
    while (kmt_playout_going(st)) {
        int mover = pos->to;
        kemet_throw t;
        if (st->pending)
            t = st->thr;
        else
            r->rs->roll(r, pos, st->dice, &t);
        st->pending = false;
        int n = pc_keys(pos, t.v[0], key);
        kemet_move m = {0};
        if (n > 0) {
            int k = n == 1 ? 0 : (int)kemet_rng_below(st->pick, (uint32_t)n);
            sort_keys(key, n);
            key_move(key[k], &m);
        }
        pc_make(r, pos, &t, &m, pos, NULL);
        kmt_playout_count(st, mover);
    }
}

static int pc_next_steps(const kemet_rules *r, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *done,
                         kemet_move *next, kemet_throw *left, kemet_pos *mid) {
    (void)r;
    int v = thr->v[0], spent = 0;
    for (int i = 0; i < done->n; i++)
        spent += part_of(&done->step[i]);
    kemet_move *plays = malloc(MAXPLAYS * sizeof *plays);
    if (!plays)
        return KEMET_ENOMEM;
    int n = pc_plays(pos, v, plays), found = 0, k = 0;
    bool complete = false;
    for (int i = 0; i < n; i++) {
        const kemet_move *p = &plays[i];
        int hit = 0;
        for (int a = 0; a < done->n; a++)
            for (int b = 0; b < p->n; b++)
                hit +=
                    memcmp(&done->step[a], &p->step[b], sizeof p->step[b]) == 0;
        if (hit != done->n)
            continue;
        found++;
        if (p->n == done->n) {
            complete = true;
            continue;
        }
        for (int b = 0; b < p->n; b++) {
            bool seen = false;
            for (int a = 0; a < done->n && !seen; a++)
                seen =
                    memcmp(&done->step[a], &p->step[b], sizeof p->step[b]) == 0;
            for (int j = 0; j < k && !seen; j++)
                seen = memcmp(&next[j].step[0], &p->step[b],
                              sizeof p->step[b]) == 0;
            if (!seen) {
                next[k] = (kemet_move){.n = 1};
                next[k++].step[0] = p->step[b];
            }
        }
    }
    free(plays);
    if (done->n > 0 && !found)
        return KEMET_EILLEGAL;
    if (left) {
        *left = (kemet_throw){0};
        if (v - spent > 0 && !complete)
            kmt_throw_one(left, v - spent);
    }
    if (mid)
        pc_steps(pos, done, mid, NULL);
    return complete ? 0 : k;
}

/* The position's own checks: nothing on the water (R6); no draw. must=1
 * with a piece on 1 is checked by the generic reader (PC12). */
static int pc_check(const kemet_rules *r, const kemet_pos *pos,
                    kemet_error *err) {
    for (int p = 0; p < 2; p++) {
        if (pos->sq[p] & KMT_BIT(WATER))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "p%d: no piece stays on 27, the water: it goes "
                            "back to hand (rule 6)",
                            p + 1);
        if (pos->sq[p] == 0 && pos->hand[p] == 0 &&
            pos->result == KEMET_PLAYING)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "%s has borne off every piece, so the game is "
                            "over: the position needs winner=%d",
                            r->rs->player[p], p + 1);
    }
    if (pos->result == KEMET_DRAW)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "Piccione's Senet has no draw (winner=0)");
    return KEMET_OK;
}

/* ---------------------------------------------------------------------------
 * Evaluation features of one side (weights tuned by `kemet tune`):
 * progress along the track, pieces borne off, pieces in hand, and pieces
 * past the water (28-30, one exact part from off).
 * ------------------------------------------------------------------------ */
static const char *const pc_features[] = {"progress", "off", "hand", "home",
                                          NULL};
static const double pc_weights[] = {0.05, 1.5, -0.5, 0.2};

static void pc_side(const kemet_rules *r, const kemet_pos *pos, int p,
                    double *f) {
    (void)r;
    uint64_t own = pos->sq[p];
    f[1] = NPIECES - kmt_popcount64(own) - pos->hand[p];
    f[2] = pos->hand[p];
    for (uint64_t b = own; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        f[0] += s;
        f[3] += s > WATER;
    }
}

/* Why a play is illegal, checked in the order a player would think of it.
 * Called only for moves kemet_apply rejected. */
static void pc_explain(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *move,
                       char *buf, size_t len) {
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1];
    const char *them = r->rs->player[me ^ 1];
    if (!thr || thr->n == 0) {
        snprintf(buf, len,
                 "throw the sticks first: every play follows a "
                 "throw");
        return;
    }
    int v = thr->v[0];
    if (move->n == 0) {
        snprintf(buf, len,
                 "pass is allowed only when the throw cannot be "
                 "played; this one can");
        return;
    }
    if (move->n == 1 && move->step[0].from == KEMET_HAND) {
        if (v != 1)
            snprintf(buf, len,
                     "a piece enters only with a throw of 1, used "
                     "whole (rule 1)");
        else if (pos->must)
            snprintf(buf, len,
                     "this throw must move the piece entered on 1 "
                     "(rule 9)");
        else if (!pos->hand[me])
            snprintf(buf, len, "you have no piece in hand");
        else if (move->step[0].to != 1)
            snprintf(buf, len, "a piece enters on square 1: in-1");
        else
            snprintf(buf, len, "square 1 is taken: no piece can enter");
        return;
    }
    int sum = 0;
    bool fwd = false, bwd = false;
    uint64_t from = 0;
    for (int i = 0; i < move->n; i++) {
        const kemet_step *s = &move->step[i];
        if (s->from == KEMET_HAND) {
            snprintf(buf, len, "an entry is a play of its own (rule 1)");
            return;
        }
        if (!(own & KMT_BIT(s->from))) {
            snprintf(buf, len, "you have no piece on square %d", s->from);
            return;
        }
        if (from & KMT_BIT(s->from)) {
            snprintf(buf, len,
                     "each part moves a different piece: %d moves twice "
                     "(PC2)",
                     s->from);
            return;
        }
        from |= KMT_BIT(s->from);
        sum += part_of(s);
        if (end_of(s->to) > s->from)
            fwd = true;
        else
            bwd = true;
    }
    if (fwd && bwd) {
        snprintf(buf, len, "all parts of a throw go the same way (rule 4)");
        return;
    }
    if (sum != v && move->n == 1 && move->step[0].to == KEMET_OFF) {
        snprintf(buf, len,
                 "a piece bears off only by a part that takes it exactly "
                 "past 30: from %d a part of %d (rule 7)",
                 move->step[0].from, EXIT - move->step[0].from);
        return;
    }
    if (sum != v) {
        snprintf(buf, len,
                 "the parts of a play use the whole throw: these make %d, the "
                 "throw is %d (rule 2, PC3)",
                 sum, v);
        return;
    }
    for (int i = 0; i < move->n; i++) {
        const kemet_step *s = &move->step[i];
        int t = end_of(s->to);
        if (bwd && s->from >= 28) {
            snprintf(buf, len,
                     "pieces on 28, 29 and 30 never move backward "
                     "(rule 5)");
            return;
        }
        if (s->to == KEMET_OFF && t != s->from + part_of(s)) {
            snprintf(buf, len,
                     "a piece bears off only by a part that takes it exactly "
                     "past 30: from %d a part of %d (rule 7)",
                     s->from, EXIT - s->from);
            return;
        }
        if (t <= NSQ && (opp & KMT_BIT(t))) {
            snprintf(buf, len,
                     "square %d holds a %s piece: nothing is captured and no "
                     "square holds two (rule 3)",
                     t, them);
            return;
        }
        if (t <= NSQ && (own & KMT_BIT(t)) && !(from & KMT_BIT(t))) {
            snprintf(buf, len, "square %d holds your own piece", t);
            return;
        }
    }
    if (pos->must == 1)
        snprintf(buf, len,
                 "this throw must move the piece entered on 1 "
                 "forward (rule 9)");
    else if (bwd)
        snprintf(buf, len,
                 "a piece may move backward only when the throw "
                 "has no forward play (rule 4)");
    else
        snprintf(buf, len, "two parts end on one square (PC1)");
}

/* The board picture: Kendall's track, with Piccione's squares 15 and 26
 * (another throw) and the water. */
static const char pc_board[] =
    "   "
    "+------+------+------+------+------+------+------+------+------+------+\n"
    "-> | {01} | {02} | {03} | {04} | {05} | {06} | {07} | {08} | {09} | {10} "
    "|\n"
    "   | 1    | 2    | 3    | 4    | 5    | 6    | 7    | 8    | 9    |10    "
    "|\n"
    "   "
    "+------+------+------+------+------+------+------+------+------+------+\n"
    "   | {20} | {19} | {18} | {17} | {16} | {15} | {14} | {13} | {12} | {11} "
    "| <-\n"
    "   |20    |19    |18    |17    |16    |15 ank|14    |13    |12    |11    "
    "|\n"
    "   "
    "+------+------+------+------+------+------+------+------+------+------+\n"
    "-> | {21} | {22} | {23} | {24} | {25} | {26} | {27} | {28} | {29} | {30} "
    "| ->\n"
    "   |21    |22    |23    |24    |25    |26 nfr|27 ~~~|28    |29    |30    "
    "|\n"
    "   "
    "+------+------+------+------+------+------+------+------+------+------+\n"
    "   ank = 15, nfr = 26: a part ending there throws again    ~~~ = 27, the\n"
    "   water: back to hand    -> off by the exact count past 30\n";

static void pc_art(const kemet_rules *r, kemet_board_art *a) {
    static const char *const sign[31] = {[15] = "☥", [26] = "nfr", [27] = "≈≈"};
    kmt_art_senet_signs(r, a, sign);
}

void kmt_senet_piccione(kmt_ruleset *rs) {
    rs->pieces = NPIECES;
    rs->open = NULL;
    rs->close = NULL;
    rs->tables = true; /* the classes are closed: nothing is captured */
    rs->has_hand = true;
    rs->has_must = true;
    rs->must_squares = KMT_BIT(1); /* PC10, PC12 */
    rs->board = pc_board;
    rs->start = pc_start;
    rs->opening = pc_opening;
    rs->check = pc_check;
    rs->throws = kmt_sticks_throws_of;
    rs->roll = kmt_sticks_roll_of;
    rs->max_value = 5;
    rs->prethrow = kmt_no_prethrow;
    rs->moves = pc_moves;
    rs->legal = pc_legal;
    rs->next_steps = pc_next_steps;
    rs->make = pc_make;
    rs->playout = pc_playout;
    rs->side = pc_side;
    rs->features = pc_features;
    rs->weights = pc_weights;
    rs->explain = pc_explain;
    rs->art = pc_art;
}
