/* bell.c - Senet as R. C. Bell reads it (senet-bell; reconstructions.md
 * section 1, rules 1-8 and rulings BL1-BL8): the senet family's parts
 * `capture remove`, `protect marked`, `vacate marked`, `bear-off exact`,
 * `end score`, `throw die 4` and `first higher-throw` (senet.c reads the
 * parts and sets this generator up).
 *
 * Ten pieces each on the 30 squares of Kendall's track (K1), one
 * four-sided die, every move forward by the exact count; a piece landing
 * on an opponent's piece on an unmarked square takes it out of the game;
 * the marked squares 26-29 protect and must be vacated first; a piece
 * bears off with exactly the count that takes it past 30, and scores. The
 * game ends when no piece is left on the board: more borne off wins,
 * equal numbers draw.
 *
 * Representation: as senet.c (bit s of sq[p] for square s); the score is
 * pos->off[p]. Nothing allocates.
 */
#include "internal.h"

#include <stdio.h>

enum {
    NSQ = 30,
    NPIECES = 10,
    EXIT = NSQ + 1, /* the count that bears off ends here (rule 6) */
    DIE = 4
};

#define TRACK (((uint64_t)1 << (NSQ + 1)) - 2) /* 1..30 */
/* BL1: the marked squares 26-29 */
#define MARKED (KMT_BIT(26) | KMT_BIT(27) | KMT_BIT(28) | KMT_BIT(29))
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* Rule 1, BL2: player 1 on the odd squares 1..19, player 2 on 2..20. */
static void bell_start(const kemet_rules *r, kemet_pos *pos) {
    (void)r;
    *pos = (kemet_pos){0};
    for (int s = 1; s <= 2 * NPIECES; s++)
        pos->sq[(s & 1) ? 0 : 1] |= KMT_BIT(s);
    pos->to = 1;
}

/* BL3: each player throws the die once, equal throws again; the higher
 * starts. The throws are not played. */
static int bell_opening(const kemet_rules *r, kemet_rng *rng, kemet_pos *pos,
                        kemet_throw *first, kemet_events *ev) {
    (void)first;
    bell_start(r, pos);
    int a, b;
    for (;;) {
        a = 1 + (int)kemet_rng_below(rng, DIE);
        b = 1 + (int)kemet_rng_below(rng, DIE);
        if (a != b)
            break;
        kmt_ev_add(ev, KEMET_EV_REOPEN, 0, a, b);
    }
    pos->to = a > b ? 1 : 2;
    kmt_ev_add(ev, KEMET_EV_STARTS, pos->to, a, b);
    return 0;
}

/* The position's own checks (notation: o1/o2, R3; rule 8). */
static int bell_check(const kemet_rules *r, const kemet_pos *pos,
                      kemet_error *err) {
    bool empty = true;
    for (int p = 0; p < 2; p++) {
        int board = kmt_popcount64(pos->sq[p]);
        if (board + pos->off[p] > NPIECES)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "player %d has %d pieces on the board and %d "
                            "borne off; %s has %d each",
                            p + 1, board, pos->off[p], r->spec, NPIECES);
        empty &= board == 0;
    }
    int lead = pos->off[0] > pos->off[1]   ? KEMET_WON1
               : pos->off[1] > pos->off[0] ? KEMET_WON2
                                           : KEMET_DRAW;
    if (pos->result == KEMET_PLAYING && empty)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "no piece is left on the board, so the game is over: "
                        "the position needs winner=%d",
                        lead == KEMET_DRAW ? 0 : lead);
    if (pos->result != KEMET_PLAYING && !empty)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "winner= but pieces are still on the board: the game "
                        "ends when none is left (rule 8)");
    if (pos->result != KEMET_PLAYING && pos->result != lead)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "winner=%d, but the scores are o1=%d and o2=%d "
                        "(rule 8: more pieces borne off wins, equal draws)",
                        pos->result == KEMET_DRAW ? 0 : pos->result,
                        pos->off[0], pos->off[1]);
    return KEMET_OK;
}

/* The throws of the four-sided die (R4): 1-4, a quarter each. */
static int bell_throws(const kemet_rules *r, const kemet_pos *pos,
                       kemet_throw *out, kemet_weight *weight,
                       kemet_weight *total) {
    (void)r;
    (void)pos;
    return kmt_die_throws(DIE, out, weight, total);
}

static void bell_roll(const kemet_rules *r, const kemet_pos *pos,
                      kemet_rng *rng, kemet_throw *out) {
    (void)r;
    (void)pos;
    kmt_die_roll(DIE, rng, out);
}

/* The squares whose pieces can move with throw t (each piece has one
 * move, forward by t, or off from 31 - t): rules 1, 2, 4, 6 and the
 * priority of rule 5 (BL6). */
static ALWAYS_INLINE uint64_t bell_froms(const kemet_pos *pos, int t) {
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1];
    /* where no piece may end: its own pieces, and a marked square that
       holds any piece (rules 2, 4; BL5: nothing else protects). The
       square left counts as empty (G6), which matters only for a move
       from a marked square onto itself: none. */
    uint64_t barred = own | (MARKED & opp);
    uint64_t on = ((own << t) & ~barred & TRACK) >> t;
    /* rule 6, BL7: off with exactly the count past 30 */
    on |= own & KMT_BIT(EXIT - t);
    /* rule 5, BL6: a piece on a marked square that can move goes first */
    uint64_t first = on & MARKED;
    return first ? first : on;
}

static int bell_moves(const kemet_rules *r, const kemet_pos *pos,
                      const kemet_throw *thr, kemet_move *out) {
    (void)r;
    int t = thr->v[0];
    uint64_t froms = bell_froms(pos, t);
    int n = 0;
    while (froms) {
        int s = kmt_ctz64(froms);
        froms &= froms - 1;
        kmt_put_move(out, &n, s, s + t == EXIT ? KEMET_OFF : s + t);
    }
    if (n == 0)
        out[n++] = (kemet_move){0}; /* G3, BL8: the throw is lost */
    return n;
}

static void bell_make(const kemet_rules *r, const kemet_pos *pos,
                      const kemet_throw *thr, const kemet_move *move,
                      kemet_pos *out, kemet_events *ev) {
    (void)r;
    (void)thr;
    int me = pos->to - 1, who = me + 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1];
    int off[2] = {pos->off[0], pos->off[1]};
    int result = KEMET_PLAYING;
    if (move->n == 0) {
        kmt_ev_add(ev, KEMET_EV_PASS, who, 0, 0);
    } else {
        int f = move->step[0].from, d = move->step[0].to;
        own &= ~KMT_BIT(f);
        kmt_ev_add(ev, KEMET_EV_MOVE, who, f, d);
        if (d == KEMET_OFF) {
            off[me]++; /* rule 6: a point */
        } else {
            if (opp & KMT_BIT(d)) {
                /* rule 3, BL4: out of the game, scoring for nobody */
                opp &= ~KMT_BIT(d);
                kmt_ev_add(ev, KEMET_EV_HIT, 3 - who, d, 0);
            }
            own |= KMT_BIT(d);
        }
        if (own == 0 && opp == 0) {
            /* rule 8: no piece left; more borne off wins, equal draws */
            result = off[0] > off[1]   ? KEMET_WON1
                     : off[1] > off[0] ? KEMET_WON2
                                       : KEMET_DRAW;
            if (result == KEMET_DRAW)
                kmt_ev_add(ev, KEMET_EV_DRAW, 0, 1, 0); /* equal scores */
            else
                kmt_ev_add(ev, KEMET_EV_WIN, result, 0, 0);
        }
    }
    out->sq[me] = own;
    out->sq[me ^ 1] = opp;
    out->heap[0] = out->heap[1] = 0;
    out->hand[0] = out->hand[1] = 0;
    out->to = (uint8_t)(3 - who); /* rule 7: nothing is thrown again */
    out->must = 0;
    out->result = (uint8_t)result;
    out->wait = 0;
    kmt_pos_zero_off(out);
    out->off[0] = (uint8_t)off[0];
    out->off[1] = (uint8_t)off[1];
}

/* The fast random playout: the generic loop's draws and counts (a throw
 * of the die, then a move uniform among the list, the k-th move that of
 * the k-th lowest square of bell_froms). */
static void bell_playout(const kemet_rules *r, kmt_playout_state *st) {
    kemet_pos *pos = &st->pos;
    while (kmt_playout_going(st)) {
        int mover = pos->to;
        kemet_throw t;
        if (st->pending)
            t = st->thr;
        else
            kmt_die_roll(DIE, st->dice, &t);
        st->pending = false;
        uint64_t froms = bell_froms(pos, t.v[0]);
        kemet_move m = {0};
        if (froms) {
            int n = kmt_popcount64(froms);
            if (n > 1)
                for (int k = (int)kemet_rng_below(st->pick, (uint32_t)n); k > 0;
                     k--)
                    froms &= froms - 1;
            int s = kmt_ctz64(froms);
            m = kmt_move1(s, s + t.v[0] == EXIT ? KEMET_OFF : s + t.v[0]);
        }
        bell_make(r, pos, &t, &m, pos, NULL);
        kmt_playout_count(st, mover);
    }
}

/* ---------------------------------------------------------------------------
 * Evaluation features of one side (weights tuned by `kemet tune`): the
 * score (pieces borne off), the pieces still on the board (each a point
 * to come, or to lose), progress along the track, pieces safe on the
 * marked squares, and the risk to the others: for each lone piece on an
 * unmarked square, the chance that one of the opponent's pieces behind it
 * throws the count that lands on it (a quarter for each distance 1-4).
 * ------------------------------------------------------------------------ */
static const char *const bell_features[] = {"off",  "board", "progress",
                                            "safe", "risk",  NULL};
static const double bell_weights[] = {1.0, 0.6, 0.02, 0.1, -0.5};

static void bell_side(const kemet_rules *r, const kemet_pos *pos, int p,
                      double *f) {
    (void)r;
    uint64_t own = pos->sq[p], opp = pos->sq[p ^ 1];
    f[0] = pos->off[p];
    f[1] = kmt_popcount64(own);
    for (uint64_t b = own; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        f[2] += s;
        if (MARKED & KMT_BIT(s)) {
            f[3] += 1;
            continue;
        }
        int hitters = 0;
        for (int k = 1; k <= DIE && k < s; k++)
            hitters += (opp & KMT_BIT(s - k)) != 0;
        f[4] += hitters / (double)DIE;
    }
}

/* Why a move is illegal, checked in the order a player would think of
 * it. Called only for moves kemet_apply rejected. */
static void bell_explain(const kemet_rules *r, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *move,
                         char *buf, size_t len) {
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1];
    const char *them = r->rs->player[me ^ 1];
    if (kmt_senet_explain_common(r, pos, thr, move, "the die", buf, len))
        return;
    int t = thr->v[0];
    int f = move->step[0].from, d = move->step[0].to;
    if (d == KEMET_OFF) {
        if (f + t != EXIT && EXIT - f >= 1 && EXIT - f <= DIE)
            snprintf(buf, len,
                     "a piece bears off only by the exact count: from %d it "
                     "needs a %d (rule 6)",
                     f, EXIT - f);
        else if (f + t != EXIT)
            snprintf(buf, len,
                     "a piece bears off only by the exact count, and from %d "
                     "no throw of the die is enough: it must reach 27-30 "
                     "first (rule 6)",
                     f);
        else
            snprintf(buf, len,
                     "a piece of yours on a marked square (26-29) can move "
                     "with this throw, so one of those must move (rule 5)");
        return;
    }
    if (d <= f) {
        snprintf(buf, len, "pieces move only forward (rule 7)");
        return;
    }
    if (d - f != t) {
        snprintf(buf, len, "%d-%d is %d square%s, but the throw is %d%s", f, d,
                 d - f, d - f == 1 ? "" : "s", t,
                 f + t > EXIT ? " (and a count past the exact one off the "
                                "board is no move: rule 6)"
                              : "");
        return;
    }
    if (own & KMT_BIT(d)) {
        snprintf(buf, len, "square %d holds your own piece", d);
        return;
    }
    if ((MARKED & KMT_BIT(d)) && (opp & KMT_BIT(d))) {
        snprintf(buf, len,
                 "the %s piece on %d stands on a marked square and cannot be "
                 "captured (rule 4)",
                 them, d);
        return;
    }
    snprintf(buf, len,
             "a piece of yours on a marked square (26-29) can move with this "
             "throw, so one of those must move (rule 5)");
}

/* The board picture: Kendall's track, with Bell's four marked squares
 * (BL1). */
static const char bell_board[] =
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
    "   |20    |19    |18    |17    |16    |15    |14    |13    |12    |11    "
    "|\n"
    "   "
    "+------+------+------+------+------+------+------+------+------+------+\n"
    "-> | {21} | {22} | {23} | {24} | {25} | {26} | {27} | {28} | {29} | {30} "
    "| ->\n"
    "   |21    |22    |23    |24    |25    |26   X|27   X|28   X|29   X|30    "
    "|\n"
    "   "
    "+------+------+------+------+------+------+------+------+------+------+\n"
    "   X = 26-29, the marked squares: they protect a piece, no piece may\n"
    "   land on one that is taken, and their pieces move first. Off the\n"
    "   board (->) only by the exact count.\n";

static void bell_art(const kemet_rules *r, kemet_board_art *a) {
    static const char *const sign[31] = {
        [26] = "×", [27] = "×", [28] = "×", [29] = "×"};
    kmt_art_senet_signs(r, a, sign);
}

void kmt_senet_bell(kmt_ruleset *rs) {
    rs->pieces = NPIECES;
    rs->open = NULL;
    rs->close = NULL;
    rs->tables = false; /* the score is part of the position */
    rs->board = bell_board;
    rs->start = bell_start;
    rs->opening = bell_opening;
    rs->check = bell_check;
    rs->throws = bell_throws;
    rs->roll = bell_roll;
    rs->max_value = DIE;
    rs->prethrow = kmt_no_prethrow;
    rs->moves = bell_moves;
    rs->make = bell_make;
    rs->playout = bell_playout;
    rs->side = bell_side;
    rs->features = bell_features;
    rs->weights = bell_weights;
    rs->explain = bell_explain;
    rs->art = bell_art;
    rs->scores = true;
}
