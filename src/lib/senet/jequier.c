/* jequier.c - Senet as Gustave Jéquier reads it (senet-jequier;
 * reconstructions.md section 3, rules 1-10 and rulings JQ1-JQ11): the
 * senet family's parts `capture first-empty`, `lock start-row`, `protect
 * pairs-safe`, `block three`, `water first-empty`, `backward
 * when-stuck-empty`, `bear-off last-row`, `end points`, `throw sticks 4
 * blank=6`, `again 1 4 6` and `first one-takes-black` (senet.c reads the
 * parts and sets this generator up).
 *
 * Five pieces each on Kendall's track (K1); four sticks counting 6 for no
 * marked side up; a piece on 1-10 waits while the square ahead of it is
 * taken; a lone piece off the safe squares 20, 26, 28, 29 is hit and sent
 * back to the first empty square, as is a piece that ends on the water
 * (27); no piece passes three opposing pieces in a row; backward moves
 * only when no piece can go forward; bearing off once every piece is on
 * the last row, by any count past 30; 1, 4 and 6 throw again. The winner
 * scores points for the loser's pieces left on the board.
 *
 * Representation: as senet.c (bit s of sq[p] for square s); no piece ever
 * rests on 27. Each piece has at most one move per throw. Nothing
 * allocates.
 */
#include "internal.h"

#include <stdio.h>

enum {
    NSQ = 30,
    NPIECES = 5,
    WATER = 27, /* rule 6 */
    EXIT = NSQ + 1
};

#define TRACK (((uint64_t)1 << (NSQ + 1)) - 2)    /* 1..30 */
#define ROW1 (((uint64_t)1 << 11) - 2)            /* 1..10: the lock (rule 2) */
#define ROW3 (TRACK & ~(((uint64_t)1 << 21) - 1)) /* 21..30 (rule 8) */
/* JQ4: the safe squares */
#define SAFE (KMT_BIT(20) | KMT_BIT(26) | KMT_BIT(28) | KMT_BIT(29))
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* JQ1: the position after the opening, black's 1 played 10-11, black to
 * throw again. */
static void jq_start(const kemet_rules *r, kemet_pos *pos) {
    (void)r;
    *pos = (kemet_pos){0};
    for (int s = 1; s <= 2 * NPIECES; s++)
        pos->sq[(s & 1) ? 0 : 1] |= KMT_BIT(s);
    pos->sq[1] = (pos->sq[1] & ~KMT_BIT(10)) | KMT_BIT(11);
    pos->to = 2;
}

/* The four sticks counting 6 when no marked side is up (R4). */
static int jq_value(int v) {
    return v == 5 ? 6 : v;
}

static int jq_throws(const kemet_rules *r, const kemet_pos *pos,
                     kemet_throw *out, kemet_weight *weight,
                     kemet_weight *total) {
    (void)r;
    (void)pos;
    int n = kmt_sticks_throws(out, weight, total);
    out[n - 1].v[0] = (uint8_t)jq_value(out[n - 1].v[0]);
    return n;
}

static void jq_roll(const kemet_rules *r, const kemet_pos *pos, kemet_rng *rng,
                    kemet_throw *out) {
    (void)r;
    (void)pos;
    kmt_sticks_roll(rng, out);
    out->v[0] = (uint8_t)jq_value(out->v[0]);
}

/* JQ1: the contestants throw in turn, the first chosen at random, until
 * one throws a 1; that one plays black (player 2), plays the 1 as 10-11
 * and throws again. The throws are not otherwise played. */
static int jq_opening(const kemet_rules *r, kemet_rng *rng, kemet_pos *pos,
                      kemet_throw *first, kemet_events *ev) {
    (void)first;
    jq_start(r, pos);
    int first_thrower = 1 + (int)kemet_rng_below(rng, 2), throws = 0;
    kemet_throw t;
    do {
        kmt_sticks_roll(rng, &t);
        throws++;
    } while (t.v[0] != 1);
    /* who threw the 1: the first thrower on odd throws */
    int one = (throws & 1) ? first_thrower : 3 - first_thrower;
    kmt_ev_add(ev, KEMET_EV_FIRST1, 2, throws > 255 ? 255 : throws, one);
    return 0;
}

/* Squares k where k, k+1 and k+2 all hold the opponent's pieces (JQ5). */
static ALWAYS_INLINE uint64_t jq_triples(uint64_t opp) {
    return opp & (opp >> 1) & (opp >> 2);
}

/* Whether a forward move from s to t (31 for off) passes a block of
 * three: a triple at k with s < k and k + 2 < t (JQ5). */
static ALWAYS_INLINE bool jq_blocked_fwd(uint64_t triples, int s, int t) {
    if (t - s < 4)
        return false;
    uint64_t ks = (((uint64_t)1 << (t - 2)) - 1) & ~(((uint64_t)2 << s) - 1);
    return (triples & ks) != 0;
}

/* The squares whose pieces can move with throw v; *back when they are
 * backward moves (rules 2-4, 7, 8; JQ2-JQ5, JQ8, JQ9). */
static ALWAYS_INLINE uint64_t jq_froms(const kemet_pos *pos, int v,
                                       bool *back) {
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1], occ = own | opp;
    /* rule 2, JQ2: a piece on 1-10 waits while the square ahead is taken */
    uint64_t free = own & ~(ROW1 & (occ >> 1));
    /* rule 4, JQ3, JQ4: protected by a neighbour of its own or a safe
       square */
    uint64_t prot = opp & (SAFE | (opp << 1) | (opp >> 1));
    uint64_t triples = jq_triples(opp);
    *back = false;
    /* rule 3: forward onto an empty square or an unprotected opponent */
    uint64_t fwd = ((free << v) & TRACK & ~own & ~prot) >> v;
    /* JQ5: not past a block of three (only possible for counts of 4+) */
    if (v >= 4 && fwd && triples) {
        for (uint64_t b = fwd; b; b &= b - 1) {
            int s = kmt_ctz64(b);
            if (jq_blocked_fwd(triples, s, s + v))
                fwd &= ~KMT_BIT(s);
        }
    }
    /* rule 8, JQ9: off by any count past 30 once every piece is on
       21-30 */
    if (!(own & ~ROW3)) {
        for (uint64_t b = free & ~(((uint64_t)1 << (EXIT - v)) - 1); b;
             b &= b - 1) {
            int s = kmt_ctz64(b);
            if (!jq_blocked_fwd(triples, s, EXIT))
                fwd |= KMT_BIT(s);
        }
    }
    if (fwd)
        return fwd;
    /* rule 7, JQ8: backward only when no forward move exists; to an
       empty square, never below 1; the lock and blocks apply */
    *back = true;
    uint64_t bwd = ((free >> v) & TRACK & ~occ) << v;
    if (v >= 4 && bwd && triples) {
        for (uint64_t b = bwd; b; b &= b - 1) {
            int s = kmt_ctz64(b);
            /* a triple at k with s - v < k and k + 2 < s */
            uint64_t ks = (((uint64_t)1 << (s - 2)) - 1) &
                          ~(((uint64_t)2 << (s - v)) - 1);
            if (triples & ks)
                bwd &= ~KMT_BIT(s);
        }
    }
    return bwd;
}

static ALWAYS_INLINE int jq_dest(int s, int v, bool back) {
    if (back)
        return s - v;
    return s + v >= EXIT ? KEMET_OFF : s + v;
}

static int jq_moves(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, kemet_move *out) {
    (void)r;
    int v = thr->v[0];
    bool back;
    uint64_t froms = jq_froms(pos, v, &back);
    int n = 0;
    while (froms) {
        int s = kmt_ctz64(froms);
        froms &= froms - 1;
        kmt_put_move(out, &n, s, jq_dest(s, v, back));
    }
    if (n == 0)
        out[n++] = (kemet_move){0}; /* JQ10: the throw is lost */
    return n;
}

/* The lowest empty square (JQ6): there is always one, ten pieces on 30. */
static inline int jq_first_empty(uint64_t occ) {
    return kmt_ctz64(~occ & TRACK);
}

/* Rule 10: the winner's points, for the loser's pieces on the board: 3
 * on 1-10, 2 on 11-20, 1 on 21-30. */
static int jq_points(uint64_t loser) {
    return 3 * kmt_popcount64(loser & ROW1) +
           2 * kmt_popcount64(loser & TRACK & ~ROW1 & ~ROW3) +
           kmt_popcount64(loser & ROW3);
}

static int jq_points_of(const kemet_rules *r, const kemet_pos *pos) {
    (void)r;
    return jq_points(pos->sq[2 - pos->result]);
}

static void jq_make(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, const kemet_move *move,
                    kemet_pos *out, kemet_events *ev) {
    (void)r;
    int me = pos->to - 1, who = me + 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1];
    int to = pos->to, result = KEMET_PLAYING;
    if (move->n == 0) {
        /* JQ10: a lost throw ends the turn, even a 1, 4 or 6 */
        kmt_ev_add(ev, KEMET_EV_PASS, who, 0, 0);
        to = 3 - to;
    } else {
        int f = move->step[0].from, d = move->step[0].to;
        int v = thr ? thr->v[0] : 0;
        own &= ~KMT_BIT(f);
        kmt_ev_add(ev, KEMET_EV_MOVE, who, f, d);
        if (d == WATER) {
            /* rule 6, JQ7: to the first empty square, its own start
               counting as empty */
            int low = jq_first_empty(own | opp);
            own |= KMT_BIT(low);
            kmt_ev_add(ev, KEMET_EV_DROWN, who, WATER, low);
        } else if (d != KEMET_OFF) {
            own |= KMT_BIT(d);
            if (opp & KMT_BIT(d)) {
                /* rule 5, JQ6: the hit piece to the first empty square,
                   judged after the move */
                opp &= ~KMT_BIT(d);
                int low = jq_first_empty(own | opp);
                opp |= KMT_BIT(low);
                kmt_ev_add(ev, KEMET_EV_SENT, 3 - who, d, low);
            }
        }
        bool again = v == 1 || v == 4 || v == 6; /* rule 9 */
        if (own == 0) {
            /* rule 10: all five borne off; `to` as the turn rules give */
            result = who;
            kmt_ev_add(ev, KEMET_EV_WIN, who, jq_points(opp), 0);
        } else if (again) {
            kmt_ev_add(ev, KEMET_EV_AGAIN, who, 0, 0);
        }
        if (!again)
            to = 3 - to;
    }
    out->sq[me] = own;
    out->sq[me ^ 1] = opp;
    out->heap[0] = out->heap[1] = 0;
    out->hand[0] = out->hand[1] = 0;
    out->to = (uint8_t)to;
    out->must = 0;
    out->result = (uint8_t)result;
    out->wait = 0;
    kmt_pos_zero_off(out);
}

/* The fast random playout: the generic loop's draws and counts (the k-th
 * move of the list is that of the k-th lowest square of jq_froms). */
static void jq_playout(const kemet_rules *r, kmt_playout_state *st) {
    kemet_pos *pos = &st->pos;
    while (kmt_playout_going(st)) {
        int mover = pos->to;
        kemet_throw t;
        if (st->pending)
            t = st->thr;
        else
            jq_roll(r, pos, st->dice, &t);
        st->pending = false;
        bool back;
        uint64_t froms = jq_froms(pos, t.v[0], &back);
        kemet_move m = {0};
        if (froms) {
            int n = kmt_popcount64(froms);
            if (n > 1)
                for (int k = (int)kemet_rng_below(st->pick, (uint32_t)n); k > 0;
                     k--)
                    froms &= froms - 1;
            int s = kmt_ctz64(froms);
            m = kmt_move1(s, jq_dest(s, t.v[0], back));
        }
        jq_make(r, pos, &t, &m, pos, NULL);
        kmt_playout_count(st, mover);
    }
}

/* The position's own checks: nothing on the water (R6); a finished game
 * has the winner's side empty, the loser's not; no draws. */
static int jq_check(const kemet_rules *r, const kemet_pos *pos,
                    kemet_error *err) {
    for (int p = 0; p < 2; p++) {
        if (pos->sq[p] & KMT_BIT(WATER))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "p%d: no piece stays on 27, the water: it goes "
                            "to the first empty square (rule 6)",
                            p + 1);
        if (pos->sq[p] == 0 && pos->result == KEMET_PLAYING)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "%s has borne off every piece, so the game is "
                            "over: the position needs winner=%d",
                            r->rs->player[p], p + 1);
    }
    if (pos->result == KEMET_DRAW)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "Jéquier's Senet has no draw (winner=0)");
    if (pos->result == KEMET_WON1 || pos->result == KEMET_WON2) {
        int w = pos->result - 1;
        if (pos->sq[w] || !pos->sq[w ^ 1])
            return kmt_fail(err, KEMET_ESYNTAX,
                            "winner=%d: the winner has borne off every "
                            "piece and the loser has not (rule 10)",
                            pos->result);
    }
    return KEMET_OK;
}

/* ---------------------------------------------------------------------------
 * Evaluation features of one side (weights tuned by `kemet tune`):
 * progress, pieces borne off, pieces on the last row (ready to bear off
 * once all are there), pieces waiting behind a taken square on 1-10,
 * guarded pieces (a neighbour of their own or a safe square), and the
 * risk to lone pieces from opposing pieces behind them within a throw
 * (chance times the squares the piece would lose).
 * ------------------------------------------------------------------------ */
static const double jq_stick_p[7] = {0,        4 / 16.0, 6 / 16.0, 4 / 16.0,
                                     1 / 16.0, 0,        1 / 16.0};
static const char *const jq_features[] = {"progress", "off",  "last", "locked",
                                          "guarded",  "risk", NULL};
static const double jq_weights[] = {0.05, 1.5, 0.1, -0.1, 0.05, -0.05};

static void jq_side(const kemet_rules *r, const kemet_pos *pos, int p,
                    double *f) {
    (void)r;
    uint64_t own = pos->sq[p], opp = pos->sq[p ^ 1], occ = own | opp;
    f[1] = NPIECES - kmt_popcount64(own);
    f[2] = kmt_popcount64(own & ROW3);
    f[3] = kmt_popcount64(own & ROW1 & (occ >> 1));
    for (uint64_t b = own; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        f[0] += s;
        if ((SAFE & KMT_BIT(s)) || (own & (KMT_BIT(s - 1) | KMT_BIT(s + 1)))) {
            f[4] += 1;
            continue;
        }
        int low = jq_first_empty(occ);
        for (int k = 1; k <= 6 && k < s; k++)
            if (opp & KMT_BIT(s - k))
                f[5] += jq_stick_p[k] * (s - low);
    }
}

/* Why a move is illegal, checked in the order a player would think of
 * it. Called only for moves kemet_apply rejected. */
static void jq_explain(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *move,
                       char *buf, size_t len) {
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1], occ = own | opp;
    const char *them = r->rs->player[me ^ 1];
    if (kmt_senet_explain_common(r, pos, thr, move, "the sticks", buf, len))
        return;
    int v = thr->v[0];
    int f = move->step[0].from, d = move->step[0].to;
    if (f <= 10 && (occ & KMT_BIT(f + 1))) {
        snprintf(buf, len,
                 "the piece on %d waits while square %d ahead of it is taken "
                 "(rule 2)",
                 f, f + 1);
        return;
    }
    bool back_list;
    uint64_t froms = jq_froms(pos, v, &back_list);
    uint64_t triples = jq_triples(opp);
    if (d == KEMET_OFF) {
        if (own & ~ROW3)
            snprintf(buf, len,
                     "no piece bears off until all yours are on 21-30 "
                     "(rule 8)");
        else if (f + v < EXIT)
            snprintf(buf, len,
                     "%d and %d do not reach past 30: the piece cannot bear "
                     "off",
                     f, v);
        else
            snprintf(buf, len,
                     "the piece would pass three %s pieces in a row (rule 3)",
                     them);
        return;
    }
    if (d < f) {
        if (froms && !back_list)
            snprintf(buf, len,
                     "a piece may move backward only when no piece can move "
                     "forward (rule 7)");
        else if (f - d != v)
            snprintf(buf, len, "%d-%d is %d square%s back, but the throw is %d",
                     f, d, f - d, f - d == 1 ? "" : "s", v);
        else if (occ & KMT_BIT(d))
            snprintf(buf, len,
                     "a backward move goes only to an empty square (rule 7)");
        else
            snprintf(buf, len,
                     "the piece would pass three %s pieces in a row (rule 3)",
                     them);
        return;
    }
    if (d - f != v) {
        snprintf(buf, len, "%d-%d is %d square%s, but the throw is %d", f, d,
                 d - f, d - f == 1 ? "" : "s", v);
        return;
    }
    if (own & KMT_BIT(d)) {
        snprintf(buf, len, "square %d holds your own piece", d);
        return;
    }
    if (opp & KMT_BIT(d)) {
        if (SAFE & KMT_BIT(d))
            snprintf(buf, len,
                     "the %s piece on %d stands on a safe square (20, 26, 28, "
                     "29) and cannot be hit (rule 4)",
                     them, d);
        else
            snprintf(buf, len,
                     "the %s piece on %d is protected by its neighbour on %d "
                     "(rule 4)",
                     them, d, (opp & KMT_BIT(d - 1)) ? d - 1 : d + 1);
        return;
    }
    if (jq_blocked_fwd(triples, f, d)) {
        snprintf(buf, len,
                 "the piece would pass three %s pieces in a row (rule 3)",
                 them);
        return;
    }
    snprintf(buf, len, "that move is not allowed");
}

/* The board picture: Kendall's track, with Jéquier's safe squares and the
 * water (JQ4, rule 6). */
static const char jq_board[] =
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
    "   |20   S|19    |18    |17    |16    |15    |14    |13    |12    |11    "
    "|\n"
    "   "
    "+------+------+------+------+------+------+------+------+------+------+\n"
    "-> | {21} | {22} | {23} | {24} | {25} | {26} | {27} | {28} | {29} | {30} "
    "| ->\n"
    "   |21    |22    |23    |24    |25    |26   S|27 ~~~|28   S|29   S|30    "
    "|\n"
    "   "
    "+------+------+------+------+------+------+------+------+------+------+\n"
    "   S = 20, 26, 28, 29, safe squares    ~~~ = 27, the water (a piece\n"
    "   there goes to the first empty square)    -> off the board once all\n"
    "   your pieces are on 21-30\n";

static void jq_art(const kemet_rules *r, kemet_board_art *a) {
    static const char *const sign[31] = {
        [20] = "S", [26] = "S", [27] = "≈≈", [28] = "S", [29] = "S"};
    kmt_art_senet_signs(r, a, sign);
}

void kmt_senet_jequier(kmt_ruleset *rs) {
    rs->pieces = NPIECES;
    rs->open = NULL;
    rs->close = NULL;
    rs->tables = true;
    rs->board = jq_board;
    rs->start = jq_start;
    rs->opening = jq_opening;
    rs->check = jq_check;
    rs->throws = jq_throws;
    rs->roll = jq_roll;
    rs->max_value = 0; /* 1, 2, 3, 4, 6: checked against jq_throws */
    rs->prethrow = kmt_no_prethrow;
    rs->moves = jq_moves;
    rs->make = jq_make;
    rs->playout = jq_playout;
    rs->side = jq_side;
    rs->features = jq_features;
    rs->weights = jq_weights;
    rs->explain = jq_explain;
    rs->points = jq_points_of;
    rs->art = jq_art;
}
