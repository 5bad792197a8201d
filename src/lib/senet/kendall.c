/* kendall.c - Senet, Kendall's rules (senet-kendall) and Robinson's variant
 * (senet-robinson), per seed 004_898e29a44d2a62a3.txt and rulings K1-K10,
 * with Kendall's four options (pieces, start, trap, homerow; rulings
 * KO1-KO7) on both.
 *
 * Representation: the 30 squares of the track are bits 1..30 of pos->sq[p]
 * (ruling K1: the track order, so "adjacent" is "consecutive bits"). Both
 * players share the numbering. Move generation is a few shifts and masks;
 * nothing allocates.
 *
 * Invariants of every position this module produces: no square holds two
 * pieces; `must` is 0, or 26 in Robinson's variant only; `wait` is 0 unless
 * start=1; a finished game has `must` and `wait` 0.
 *
 * The options are flags in r->variant (senet_open), and the move generator
 * and the fast playout are inlined with them as a constant: the default
 * rules' loop is compiled without any option's test.
 */
#include "senet.h"

#include <stdio.h>
#include <stdlib.h>

enum {
    WATER = 27,   /* rule 9 */
    REBIRTH = 15, /* rule 11: where a piece in the water is moved */
    BEAUTY = 26,  /* rule 8: every piece must land here */
    NSQ = 30,
    ROBINSON = 1, /* variant flag */
    /* Kendall's options (KO2-KO5), as variant flags */
    FIVE = 2,     /* pieces=5 */
    START = 4,    /* start=1 */
    TRAP = 8,     /* trap=1 */
    HOMEROW = 16, /* homerow=1 */
    /* the flags the move generator tests (FIVE only sets up the board) */
    MOVE_OPTIONS = START | TRAP | HOMEROW
};

#define TRACK (((uint64_t)1 << (NSQ + 1)) - 2) /* bits 1..30 */
#define HOME_ROW (((uint64_t)1 << 11) - 2)     /* bits 1..10 (KO5) */
#define ALWAYS_INLINE inline __attribute__((always_inline))

static int senet_open(kemet_rules *r, const char *board_text,
                      kemet_error *err) {
    if (board_text)
        return kmt_fail(err, KEMET_ERULESET,
                        "ruleset %s has its board built in; it takes no "
                        "board file",
                        r->rs->id);
    /* r->variant holds the flags parts.c found in the parts */
    r->waits = (r->variant & START) != 0; /* KO3 */
    return KEMET_OK;
}

/* Whether the player to move is still waiting for its first 1 (KO3). */
static inline bool senet_waiting(const kemet_pos *pos) {
    return (pos->wait >> (pos->to - 1)) & 1;
}

/* Rule 1 and 2: white (player 1) on the odd squares 1..13, black on 2..14;
 * with pieces=5 (KO2) on 1..9 and 2..10. With start=1 (KO3) both players
 * wait for their first 1. */
static void senet_start(const kemet_rules *r, kemet_pos *pos) {
    *pos = (kemet_pos){0};
    int last = 2 * r->info.pieces;
    for (int s = 1; s <= last; s++)
        pos->sq[(s & 1) ? 0 : 1] |= KMT_BIT(s);
    pos->to = 1; /* rule 3, ruling G1, KO2: white starts */
    if (r->variant & START)
        pos->wait = 3;
}

static int senet_opening(const kemet_rules *r, kemet_rng *rng, kemet_pos *pos,
                         kemet_throw *first, kemet_events *ev) {
    (void)rng; /* rule 3 fixes who starts: no chance involved */
    (void)ev;
    (void)first;
    senet_start(r, pos);
    return 0;
}

static int senet_check(const kemet_rules *r, const kemet_pos *pos,
                       kemet_error *err) {
    for (int p = 0; p < 2; p++) {
        if (pos->sq[p] == 0 && pos->result == KEMET_PLAYING)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "%s has borne off every piece, so the game is "
                            "over: the position needs winner=%d",
                            r->rs->player[p], p + 1);
    }
    if (pos->result == KEMET_DRAW)
        return kmt_fail(err, KEMET_ESYNTAX, "Senet has no draw (winner=0)");
    return KEMET_OK; /* must= outside Robinson's variant: kemet_pos_check */
}

/* Rule 11, ruling K8: instead of throwing, a piece in the water may be moved
 * to square 15 if it is empty. Not offered during a rethrow (must=), which
 * is thrown at once, nor to a player still waiting for its first 1 (KO3). */
static int senet_prethrow(const kemet_rules *r, const kemet_pos *pos,
                          kemet_move *out) {
    int me = pos->to - 1;
    uint64_t occ = pos->sq[0] | pos->sq[1];
    if ((r->variant & START) && senet_waiting(pos))
        return 0;
    if (pos->must == 0 && (pos->sq[me] & KMT_BIT(WATER)) &&
        !(occ & KMT_BIT(REBIRTH))) {
        out[0] = kmt_move1(WATER, REBIRTH);
        return 1;
    }
    return 0;
}

/* Squares where the mover may not land (ruling K6, rules 5 and 13): its own
 * pieces, and opponent pieces with an opponent neighbour on the track
 * (protected; ruling K2, rule 6). */
static inline uint64_t senet_blocked(uint64_t own, uint64_t opp) {
    return own | (opp & ((opp << 1) | (opp >> 1)));
}

/* The legal moves for throw t as the set of squares they start from (each
 * piece has at most one move per throw); *back is set when they are
 * backward moves. senet_dest gives each one's destination. Both the move
 * list and the fast playout are built on this one function; `opts` (the
 * MOVE_OPTIONS flags) is a constant where it is inlined. */
static ALWAYS_INLINE uint64_t senet_froms(const kemet_pos *pos, int t,
                                          bool *back, int opts) {
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1];
    uint64_t sel = pos->must ? (own & KMT_BIT(pos->must)) : own;
    *back = false;

    /* KO3: while the player waits for its first 1, any other throw is
     * lost; the 1 is played as an ordinary throw. */
    if ((opts & START) && t != 1 && senet_waiting(pos))
        return 0;
    /* KO5: while a piece of its own is on 1-10, no piece bears off. */
    bool no_off = (opts & HOMEROW) && (own & HOME_ROW);

    /* Rule 11, ruling K8: with a piece in the water its owner moves no other
     * piece; a 4 bears it off (not under KO5's condition), any other throw
     * is lost. */
    if (own & KMT_BIT(WATER))
        return t == 4 && !no_off ? (sel & KMT_BIT(WATER)) : 0;

    uint64_t blocked = senet_blocked(own, opp);

    /* Forward (rule 5). Rule 8, ruling K3: from 1..25 a piece may go at most
     * to 26; from 26 (ruling K4) a 1-4 reaches 27-30 and a 5 bears off. */
    static const uint64_t fwd_from[6] = {
        0,
        (((uint64_t)1 << 26) - 2) | KMT_BIT(BEAUTY), /* 1..25, 26 */
        (((uint64_t)1 << 25) - 2) | KMT_BIT(BEAUTY), /* 1..24, 26 */
        (((uint64_t)1 << 24) - 2) | KMT_BIT(BEAUTY),
        (((uint64_t)1 << 23) - 2) | KMT_BIT(BEAUTY),
        ((uint64_t)1 << 22) - 2, /* 1..21; 26 bears off */
    };
    uint64_t fwd = ((((sel & fwd_from[t]) << t) & ~blocked & TRACK) >> t);
    /* Bearing off (rule 10, ruling K5): 26 with 5 (K4), 28 (III) with
     * exactly 3, 29 (II) with exactly 2, 30 (I) with any throw. K10: no
     * other condition. */
    static const uint64_t off_from[6] = {
        0,
        KMT_BIT(30),
        KMT_BIT(29) | KMT_BIT(30),
        KMT_BIT(28) | KMT_BIT(30),
        KMT_BIT(30),
        KMT_BIT(BEAUTY) | KMT_BIT(30),
    };
    if (!no_off)
        fwd |= sel & off_from[t];
    /* KO4: with trap=1, a piece on 1-25 whose count passes 26 falls into
     * the water (27), if 27 is empty (the mover has no piece there: it
     * returned above). */
    if ((opts & TRAP) && !(opp & KMT_BIT(WATER))) {
        static const uint64_t trap_from[6] = {
            0,
            0,                                       /* 25+1 = 26 */
            KMT_BIT(25),                             /* 25+2 */
            KMT_BIT(24) | KMT_BIT(25),               /* 24+3 */
            KMT_BIT(23) | KMT_BIT(24) | KMT_BIT(25), /* 23+4 */
            KMT_BIT(22) | KMT_BIT(23) | KMT_BIT(24) | KMT_BIT(25), /* 22+5 */
        };
        fwd |= sel & trap_from[t];
    }
    if (fwd)
        return fwd;

    /* Backward (rule 7, ruling K7): only when no forward move exists (for
     * the rethrow piece alone under must=). A piece on 28-30 goes to the
     * water whatever the throw (rule 10); others go back by the throw but
     * never below square 1. Landing rules as forward (K6). */
    *back = true;
    uint64_t low = sel & (((uint64_t)1 << (BEAUTY + 1)) - ((uint64_t)2 << t));
    uint64_t bwd = ((low >> t) & ~blocked) << t;
    if (!(blocked & KMT_BIT(WATER)))
        bwd |= sel & (KMT_BIT(28) | KMT_BIT(29) | KMT_BIT(30));
    return bwd;
}

/* Where the move of the piece on s for throw t ends (see senet_froms). */
static ALWAYS_INLINE int senet_dest(int s, int t, bool back, int opts) {
    if (back)
        return s >= 28 ? WATER : s - t;
    if (s >= WATER || (s == BEAUTY && t == 5))
        return KEMET_OFF;
    if ((opts & TRAP) && s < BEAUTY && s + t > BEAUTY)
        return WATER; /* KO4: the fall */
    return s + t;
}

static int senet_moves(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, kemet_move *out) {
    int opts = r->variant & MOVE_OPTIONS;
    int t = thr->v[0];
    bool back;
    uint64_t froms = senet_froms(pos, t, &back, opts);
    int n = 0;
    while (froms) {
        int s = kmt_ctz64(froms);
        froms &= froms - 1;
        kmt_put_move(out, &n, s, senet_dest(s, t, back, opts));
    }
    if (n == 0)
        out[n++] = (kemet_move){0}; /* ruling G3: the throw is lost */
    return n;
}

static ALWAYS_INLINE void
senet_make_opts(const kemet_rules *r, const kemet_pos *pos,
                const kemet_throw *thr, const kemet_move *move, kemet_pos *out,
                kemet_events *ev, int opts) {
    /* Works on locals and writes whole fields at the end: `out` may be
     * `pos`, and byte-wise struct copies would stall the hot path. */
    int me = pos->to - 1;
    int who = me + 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1];
    int to = pos->to, must = 0, result = pos->result, wait = 0;
    /* KO3: a throw of 1 takes the thrower out of `wait`, whether it moves
     * a piece or is lost. */
    if (opts & START)
        wait = pos->wait & ~((thr && thr->n && thr->v[0] == 1) ? 1 << me : 0);

    if (move->n == 0) {
        /* Rule 7, ruling K9: a lost throw passes the turn. */
        if (own & KMT_BIT(WATER)) /* b: no other piece to hold back */
            kmt_ev_add(ev, KEMET_EV_LOST, who, WATER,
                       (own & ~KMT_BIT(WATER)) == 0 && !pos->hand[me]);
        else
            kmt_ev_add(ev, KEMET_EV_PASS, who, 0, 0);
        to = 3 - to;
    } else if (thr == NULL || thr->n == 0) {
        /* Rule 11, ruling K8: rescue from the water; the turn ends. */
        int f = move->step[0].from, d = move->step[0].to;
        own = (own & ~KMT_BIT(f)) | KMT_BIT(d);
        kmt_ev_add(ev, KEMET_EV_RESCUE, who, f, d);
        to = 3 - to;
    } else {
        int f = move->step[0].from, d = move->step[0].to;
        int t = thr->v[0];
        own &= ~KMT_BIT(f);
        kmt_ev_add(ev, KEMET_EV_MOVE, who, f, d);
        if (d != KEMET_OFF) {
            if (opp & KMT_BIT(d)) {
                /* Rule 13, ruling K6: a lone opponent piece swaps places. */
                opp = (opp & ~KMT_BIT(d)) | KMT_BIT(f);
                kmt_ev_add(ev, KEMET_EV_SWAP, 3 - who, d, f);
            }
            own |= KMT_BIT(d);
        }
        bool bonus = t == 1 || t == 4 || t == 5;
        if (d == WATER)
            kmt_ev_add(ev, KEMET_EV_WATER, who, WATER, 0);
        if (own == 0) {
            /* Rule 14: all seven (KO2: five) borne off. `to` as the turn
             * rules give; `wait` no longer matters (R3). */
            result = me == 0 ? KEMET_WON1 : KEMET_WON2;
            wait = 0;
            if (!bonus)
                to = 3 - to;
            kmt_ev_add(ev, KEMET_EV_WIN, who, 0, 0);
        } else if ((r->variant & ROBINSON) && d == BEAUTY) {
            /* Robinson: landing on 26 by its own move, the same piece must
             * use an immediate rethrow; it replaces the rule-12 bonus. */
            must = BEAUTY;
            kmt_ev_add(ev, KEMET_EV_RETHROW, who, BEAUTY, 0);
        } else if (own & KMT_BIT(WATER)) {
            /* Rule 9, ruling K8: the water ends the turn. */
            to = 3 - to;
        } else if (bonus) {
            /* Rule 12, ruling K9. */
            kmt_ev_add(ev, KEMET_EV_AGAIN, who, 0, 0);
        } else {
            to = 3 - to;
        }
    }
    out->sq[me] = own;
    out->sq[me ^ 1] = opp;
    out->heap[0] = out->heap[1] = 0;
    out->hand[0] = out->hand[1] = 0;
    out->to = (uint8_t)to;
    out->must = (uint8_t)must;
    out->result = (uint8_t)result;
    out->wait = (uint8_t)wait;
    kmt_pos_zero_off(out);
}

static void senet_make(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *move,
                       kemet_pos *out, kemet_events *ev) {
    senet_make_opts(r, pos, thr, move, out, ev, r->variant & START);
}

/* The fast random playout: the same draws and counts as the generic loop
 * in game.c, without building move lists (the k-th move of the list is the
 * move of the k-th lowest square of senet_froms). */
static ALWAYS_INLINE void senet_playout_opts(const kemet_rules *r,
                                             kmt_playout_state *st, int opts) {
    kemet_pos *pos = &st->pos;
    while (kmt_playout_going(st)) {
        int mover = pos->to;
        uint64_t own = pos->sq[mover - 1];
        kemet_move m = {0};
        if (!st->pending && (own & KMT_BIT(WATER)) && pos->must == 0 &&
            !((opts & START) && senet_waiting(pos)) &&
            !((own | pos->sq[2 - mover]) & KMT_BIT(REBIRTH)) &&
            kemet_rng_below(st->pick, 2) == 1) {
            m = kmt_move1(WATER, REBIRTH);
            senet_make_opts(r, pos, NULL, &m, pos, NULL, opts);
            kmt_playout_count(st, mover);
            continue;
        }
        kemet_throw t;
        kmt_playout_sticks(st, &t);
        bool back;
        uint64_t froms = senet_froms(pos, t.v[0], &back, opts);
        if (froms) {
            int n = kmt_popcount64(froms);
            if (n > 1)
                for (int k = (int)kemet_rng_below(st->pick, (uint32_t)n); k > 0;
                     k--)
                    froms &= froms - 1;
            int s = kmt_ctz64(froms);
            m = kmt_move1(s, senet_dest(s, t.v[0], back, opts));
        }
        senet_make_opts(r, pos, &t, &m, pos, NULL, opts);
        kmt_playout_count(st, mover);
    }
}

static void senet_playout(const kemet_rules *r, kmt_playout_state *st) {
    int opts = r->variant & MOVE_OPTIONS;
    if (opts == 0)
        senet_playout_opts(r, st, 0); /* the default rules, fastest */
    else
        senet_playout_opts(r, st, opts);
}

/* ---------------------------------------------------------------------------
 * Evaluation features of one side (eval.c turns them into a win chance with
 * weights tuned by `kemet tune`): progress along the track (a piece in the
 * water counted on 15, where it will be rescued to), pieces borne off,
 * pieces in the water, guarded pieces (a neighbour of their own colour: they
 * cannot be swapped), the swap risk of lone pieces within reach of opponent
 * pieces behind them (chance times squares lost), and pieces past the House
 * of Beauty.
 * ------------------------------------------------------------------------ */
static const double stick_p[6] = {0,        4 / 16.0, 6 / 16.0,
                                  4 / 16.0, 1 / 16.0, 1 / 16.0};
static const char *const senet_features[] = {
    "progress", "off", "water", "guarded", "risk", "home", NULL};
static const double senet_weights[] = {0.05, 1.6, -0.6, 0.03, -0.075, 0.2};

static void senet_side(const kemet_rules *r, const kemet_pos *pos, int p,
                       double *f) {
    uint64_t own = pos->sq[p], opp = pos->sq[p ^ 1];
    f[1] = r->info.pieces - kmt_popcount64(own);
    for (uint64_t b = own; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        if (s == WATER) {
            f[0] += REBIRTH;
            f[2] += 1;
            continue;
        }
        f[0] += s;
        f[5] += s > BEAUTY;
        if (own & (KMT_BIT(s - 1) | KMT_BIT(s + 1))) {
            f[3] += 1;
        } else if (s <= BEAUTY) {
            for (int k = 1; k <= 5 && k < s; k++)
                if (opp & KMT_BIT(s - k))
                    f[4] += stick_p[k] * k;
        }
    }
}

/* Why a move is illegal, checked in the order a player would think of it.
 * Called only for moves kemet_apply rejected. */
static void senet_explain(const kemet_rules *r, const kemet_pos *pos,
                          const kemet_throw *thr, const kemet_move *move,
                          char *buf, size_t len) {
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1];
    const char *them = r->rs->player[me ^ 1];
    kemet_move list[KEMET_MAX_MOVES];
    bool prethrow = !thr || thr->n == 0;
    int t = prethrow ? 0 : thr->v[0];
    bool waiting = (r->variant & START) && senet_waiting(pos);
    bool no_off = (r->variant & HOMEROW) && (own & HOME_ROW);

    if (move->n > 1) {
        snprintf(buf, len, "Senet moves one piece per throw");
        return;
    }
    if (move->n == 0) {
        snprintf(buf, len,
                 prethrow ? "pass is not a choice before throwing"
                          : "pass is allowed only when no piece can "
                            "move; this throw can be used");
        return;
    }
    if (waiting && (prethrow || t != 1)) {
        snprintf(buf, len,
                 prethrow ? "you are still waiting for your first 1 "
                            "(start=1): throw the sticks"
                          : "you are still waiting for your first 1 "
                            "(start=1): any other throw is lost");
        return;
    }
    int f = move->step[0].from, d = move->step[0].to;
    if (f == KEMET_HAND) {
        snprintf(buf, len,
                 "Senet has no pieces in hand: every piece starts "
                 "on the board");
        return;
    }
    if (!(own & KMT_BIT(f))) {
        snprintf(buf, len, "you have no piece on square %d", f);
        return;
    }
    if (prethrow) {
        if (!(own & KMT_BIT(WATER)))
            snprintf(buf, len,
                     "throw the sticks first: a move before throwing is "
                     "only for a piece in the water (27), and you have "
                     "none there");
        else if (f != WATER || d != REBIRTH)
            snprintf(buf, len,
                     "before throwing, the only move is taking your "
                     "piece from the water (27) to 15");
        else if (pos->must)
            snprintf(buf, len, "this is a rethrow: throw at once");
        else
            snprintf(buf, len,
                     "square 15 is occupied, so the piece in the "
                     "water cannot go there: throw instead");
        return;
    }
    if ((own & KMT_BIT(WATER)) && f != WATER) {
        snprintf(buf, len,
                 "while your piece is in the water (27) you may "
                 "move no other piece (rule 11)");
        return;
    }
    if (f == WATER && t == 4 && no_off) {
        snprintf(buf, len,
                 "no piece bears off while one of yours is on 1-10 "
                 "(homerow=1), not even from the water: this 4 is lost");
        return;
    }
    if (f == WATER) {
        snprintf(buf, len,
                 "a piece in the water leaves only by a throw of 4 "
                 "(it bears off), or by moving to 15 instead of "
                 "throwing");
        return;
    }
    if (pos->must && f != pos->must) {
        snprintf(buf, len,
                 "after landing on 26 you must move the piece on "
                 "26 with this throw");
        return;
    }
    if (d == KEMET_OFF) {
        if (no_off && (f == 30 || (f == BEAUTY && t == 5) ||
                       (f == 28 && t == 3) || (f == 29 && t == 2)))
            snprintf(buf, len,
                     "no piece bears off while one of yours is on 1-10 "
                     "(homerow=1)");
        else if (f == BEAUTY)
            snprintf(buf, len, "from 26 only a 5 bears a piece off");
        else if (f == 28)
            snprintf(buf, len,
                     "square 28 (III) bears off only with "
                     "exactly 3");
        else if (f == 29)
            snprintf(buf, len,
                     "square 29 (II) bears off only with "
                     "exactly 2");
        else
            snprintf(buf, len,
                     "a piece must stop on 26 before it can bear "
                     "off (rule 8)");
        return;
    }
    if (d > f) {
        if ((r->variant & TRAP) && f < BEAUTY && f + t > BEAUTY && d > BEAUTY &&
            ((own | opp) & KMT_BIT(WATER)))
            snprintf(buf, len,
                     "square 27 is taken, so the piece cannot fall into "
                     "the water (trap=1)");
        else if ((r->variant & TRAP) && f < BEAUTY && f + t > BEAUTY &&
                 d > BEAUTY)
            snprintf(buf, len,
                     "with trap=1 a count that passes 26 falls into the "
                     "water: the move is %d-27",
                     f);
        else if (f < BEAUTY && d > BEAUTY)
            snprintf(buf, len,
                     "no piece may pass square 26: it must stop "
                     "there first (rule 8)");
        else if (f >= 28)
            snprintf(buf, len,
                     "a piece on 28-30 does not move on; it can "
                     "only bear off");
        else if (d - f != t)
            snprintf(buf, len, "%d-%d is %d squares, but the throw is %d", f, d,
                     d - f, t);
        else if (own & KMT_BIT(d))
            snprintf(buf, len, "square %d holds your own piece", d);
        else
            snprintf(buf, len,
                     "the %s piece on %d is protected by its "
                     "neighbour on %d",
                     them, d, (opp & KMT_BIT(d - 1)) ? d - 1 : d + 1);
        return;
    }
    /* Backward (rule 7). */
    kemet_pos fwd = *pos;
    int n = senet_moves(r, &fwd, thr, list);
    bool forward = false;
    for (int i = 0; i < n; i++)
        if (list[i].n && (list[i].step[0].to == KEMET_OFF ||
                          list[i].step[0].to > list[i].step[0].from))
            forward = true;
    if (forward)
        snprintf(buf, len,
                 "a piece may move backward only when no piece "
                 "can move forward (rule 7)");
    else if (f >= 28 && d != WATER)
        snprintf(buf, len,
                 "a piece on 28-30 moving backward goes into the "
                 "water (27) (rule 10)");
    else if (f < 28 && f - d != t)
        snprintf(buf, len, "%d-%d is %d squares back, but the throw is %d", f,
                 d, f - d, t);
    else if (own & KMT_BIT(d))
        snprintf(buf, len, "square %d holds your own piece", d);
    else if (opp & KMT_BIT(d))
        snprintf(buf, len,
                 "the %s piece on %d is protected by its "
                 "neighbour on %d",
                 them, d, (opp & KMT_BIT(d - 1)) ? d - 1 : d + 1);
    else
        snprintf(buf, len, "that move is not allowed");
}

bool kmt_senet_explain_common(const kemet_rules *r, const kemet_pos *pos,
                              const kemet_throw *thr, const kemet_move *move,
                              const char *device, char *buf, size_t len) {
    (void)r;
    if (!thr || thr->n == 0)
        snprintf(buf, len, "throw %s first: every move follows a throw",
                 device);
    else if (move->n > 1)
        snprintf(buf, len, "Senet moves one piece per throw");
    else if (move->n == 0)
        snprintf(buf, len,
                 "pass is allowed only when no piece can move; "
                 "this throw can be used");
    else if (move->step[0].from == KEMET_HAND)
        snprintf(buf, len,
                 "Senet has no pieces in hand: every piece starts "
                 "on the board");
    else if (!(pos->sq[pos->to - 1] & KMT_BIT(move->step[0].from)))
        snprintf(buf, len, "you have no piece on square %d",
                 move->step[0].from);
    else
        return false;
    return true;
}

/* The board picture: three rows of ten in boustrophedon order (rule 1,
 * ruling K1), with the marked squares 15 and 26-30. */
static const char senet_board[] =
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
    "   |21    |22    |23    |24    |25    |26 nfr|27 ~~~|28 III|29  II|30   "
    "I|\n"
    "   "
    "+------+------+------+------+------+------+------+------+------+------+\n"
    "   ank = 15, house of rebirth    nfr = 26, house of beauty (every piece\n"
    "   stops there)    ~~~ = 27, the water    III, II, I = 28-30, borne off\n"
    "   with 3, 2, any (-> off the board after 30)\n";

/* ---------------------------------------------------------------------------
 * Kendall's generator, for the parts of his rules (parts.c chooses it)
 * ------------------------------------------------------------------------ */
void kmt_senet_kendall(kmt_ruleset *rs, int flags) {
    rs->open = senet_open;
    rs->close = NULL;
    rs->tables = true;
    rs->board = senet_board;
    rs->start = senet_start;
    rs->opening = senet_opening;
    rs->check = senet_check;
    rs->throws = kmt_sticks_throws_of;
    rs->roll = kmt_sticks_roll_of;
    rs->max_value = 5;
    rs->prethrow = senet_prethrow;
    rs->moves = senet_moves;
    rs->make = senet_make;
    rs->playout = senet_playout;
    rs->side = senet_side;
    rs->features = senet_features;
    rs->weights = senet_weights;
    rs->explain = senet_explain;
    rs->art = kmt_art_senet;
    /* Robinson: a rethrow with the piece that landed on 26 (must=26) */
    rs->has_must = (flags & ROBINSON) != 0;
    rs->must_squares = (flags & ROBINSON) ? KMT_BIT(BEAUTY) : 0;
}
