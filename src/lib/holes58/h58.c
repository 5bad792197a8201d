/* h58.c - the 58-holes ("palm tree") board and the four rulesets played on
 * it: dogs-jackals and dogs-jackals-extended (Botermans, seed 000),
 * hounds-jackals-skiryuk (seed 001) and chien-chacal (seed 002), with
 * rulings H1-H3, B1-B7, S1-S10 and C1-C8.
 *
 * The board (rulings H1, H2) is described once: each side's holes 1-29
 * (1-10 down the central column, 11-25 up the outer edge, 26-29 along the
 * arc) and the shared apex 30; the lines 6-20 and 8-10 on each side; the
 * marked holes. The rulesets differ only in the parameters of one movement
 * routine (`h58_moves`): how lines work, what blocks a piece passing by,
 * how pieces enter and leave, and Skiryuk's loading and capture.
 *
 * Representation: bit s of pos->sq[p] is player p's path square s. Path
 * squares 1-29 are the player's own holes, 30 the apex, and (extended game)
 * 31-59 the opponent's holes 29..1: path square q is the opponent's hole
 * 60-q. So the opponent's path square q is *our* path square 60-q (30 maps
 * to 30), and `mirror` turns the opponent's bits into squares of our path
 * by reversing the bit order. Skiryuk's Shen (30) holds several pieces:
 * they are counted in pos->heap, not in pos->sq.
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { APEX = 30, NPIECES = 5 };

/* How a line behaves when a move lands on one of its ends. */
enum {
    LINES_STAY,  /* both ways; other end occupied: stay (Botermans B4) */
    LINES_BLOCK, /* both ways; other end occupied: illegal (S3) */
    LINES_ONEWAY /* 6->20, 8->10 only; occupied: illegal (C4) */
};
/* What a piece may not pass over. */
enum {
    PASS_FREE,  /* nothing (C3) */
    PASS_GATES, /* a piece on 10, 15, 20 or 25 (B3, B7) */
    PASS_NONE   /* any occupied hole (S2) */
};
/* How pieces leave the board. */
enum {
    EXIT_LAST_5,  /* from the last square with exactly 5, hand empty (B6) */
    EXIT_LAND_30, /* by landing exactly on 30, hand empty (C6) */
    EXIT_SHEN_1   /* from the Shen with exactly 1, back to hand (S7) */
};
/* Who throws first. */
enum {
    FIRST_RANDOM, /* decided at random (Botermans rule 3, ruling G4) */
    FIRST_ONE,    /* player 1 (ruling G4) */
    FIRST_LOWER   /* both throw; the lower throw starts (S1) */
};
/* How pieces enter from hand. */
enum {
    ENTER_AGAIN, /* a 1 enters on hole 1 and throws again (B2) */
    ENTER_MUST,  /* a 1 enters on hole 1; rethrow with it (C2, C5) */
    ENTER_LOAD,  /* no entering move: loaded automatically (S4, S8) */
    ENTER_COUNT, /* any value v enters on hole v (CC2) */
    ENTER_PLAIN  /* a 1 enters on hole 1, and nothing more (a file's part:
                    B2 without its throw again, C2 without C5's rethrow) */
};

typedef struct h58 {
    int last; /* highest path square a piece may rest on */
    int lines, pass, exit, enter;
    bool skiryuk;       /* S4 loading, S5 extra turn, S6 capture, S8 */
    uint64_t rethrow;   /* C5: landing here rethrows with that piece */
    int first;          /* who throws first: FIRST_* */
    uint64_t again;     /* a count (or entry) ending here: another turn
                           (Carter rule 6) */
    bool again_off;     /* reaching 30 gives another turn too (CC6) */
    bool off_any;       /* EXIT_LAND_30 with pieces still in hand (CC7) */
    int dice;           /* 0: four sticks (G2); else one die of 4 or 6 */
    uint64_t marks;     /* the holes drawn marked (a board's look only) */
    bool draw;          /* extended rule 17: drawn when nothing can ever move */
    uint64_t gates;     /* path squares that block passing (PASS_GATES) */
    uint64_t line_ends; /* squares where a line starts */
    uint8_t partner[64]; /* the other end of the line at a square, or 0 */
    char picture[KMT_H58_PICTURE]; /* the terminal's board (by configure) */
} h58;

#define B(s) KMT_BIT(s)
/* Lines (rulings H2, B4, S3, C4): 6-20 and 8-10 on each side, both ways;
 * the extended path crosses the opponent's lines at 60-6 = 54, 60-20 = 40,
 * 60-8 = 52 and 60-10 = 50. The French shortcuts go one way. */
#define LINES_OWN [6] = 20, [20] = 6, [8] = 10, [10] = 8
#define LINES_THEIRS [54] = 40, [40] = 54, [52] = 50, [50] = 52
#define OWN_ENDS (B(6) | B(20) | B(8) | B(10))
static const h58 botermans = {
    .last = 30,
    .lines = LINES_STAY,
    .pass = PASS_GATES,
    .exit = EXIT_LAST_5,
    .enter = ENTER_AGAIN,
    .first = FIRST_RANDOM,
    .gates = B(10) | B(15) | B(20) | B(25),
    .line_ends = OWN_ENDS,
    .partner = {LINES_OWN},
};
static const h58 extended = {
    .last = 59,
    .lines = LINES_STAY,
    .pass = PASS_GATES,
    .exit = EXIT_LAST_5,
    .enter = ENTER_AGAIN,
    .first = FIRST_RANDOM,
    .draw = true,
    .gates = B(10) | B(15) | B(20) | B(25) | B(35) | B(40) | B(45) | B(50),
    .line_ends = OWN_ENDS | B(54) | B(40) | B(52) | B(50),
    .partner = {LINES_OWN, LINES_THEIRS},
};
static const h58 skiryuk = {
    .last = 30,
    .lines = LINES_BLOCK,
    .pass = PASS_NONE,
    .exit = EXIT_SHEN_1,
    .enter = ENTER_LOAD,
    .first = FIRST_LOWER,
    .skiryuk = true,
    .line_ends = OWN_ENDS,
    .partner = {LINES_OWN},
};
static const h58 chien = {
    .last = 29,
    .lines = LINES_ONEWAY,
    .pass = PASS_FREE,
    .exit = EXIT_LAND_30,
    .enter = ENTER_MUST,
    .first = FIRST_ONE,
    .rethrow = B(15) | B(25),
    .line_ends = B(6) | B(8),
    .partner = {[6] = 20, [8] = 10},
};
static const h58 *const params[] = {&botermans, &extended, &skiryuk, &chien};

static inline const h58 *P(const kemet_rules *r) {
    return r->params;
}

/* The opponent's pieces as squares of our path: q -> 60 - q. */
static inline uint64_t mirror(uint64_t x) {
    return kmt_mirror60(x);
}

/* Physically occupied squares of player me's path (the Shen's heap never
 * blocks: it holds any number, ruling S2). Off the extended path the only
 * hole both sides share is the apex, which mirror maps onto itself. */
static inline uint64_t occupied_by(const h58 *h, uint64_t own, uint64_t opp) {
    return own | (h->last > APEX ? mirror(opp) : (opp & B(APEX)));
}
static inline uint64_t occupied(const h58 *h, const kemet_pos *pos, int me) {
    return occupied_by(h, pos->sq[me], pos->sq[me ^ 1]);
}

#define PATH_HOLES (((uint64_t)1 << APEX) - 2) /* own holes 1..29 */

/* ---------------------------------------------------------------------------
 * Set-up and checks
 * ------------------------------------------------------------------------ */
static void h58_start(const kemet_rules *r, kemet_pos *pos) {
    *pos = (kemet_pos){0};
    pos->to = 1;
    if (P(r)->skiryuk) {
        /* S1, Skiryuk rule 6: one piece each on hole 1, four in hand. */
        pos->sq[0] = pos->sq[1] = B(1);
        pos->hand[0] = pos->hand[1] = NPIECES - 1;
    } else {
        /* B1, C1: all pieces in hand, the board empty. */
        pos->hand[0] = pos->hand[1] = NPIECES;
    }
}

static int h58_opening(const kemet_rules *r, kemet_rng *rng, kemet_pos *pos,
                       kemet_throw *first, kemet_events *ev) {
    h58_start(r, pos);
    if (P(r)->first == FIRST_LOWER) {
        /* S1, Skiryuk rule 7: both throw; the lower throw starts and is
         * that player's first throw; equal throws are thrown again. */
        kemet_throw a, b;
        for (;;) {
            kmt_sticks_roll(rng, &a);
            kmt_sticks_roll(rng, &b);
            if (a.v[0] != b.v[0])
                break;
            kmt_ev_add(ev, KEMET_EV_REOPEN, 0, a.v[0], b.v[0]);
        }
        pos->to = a.v[0] < b.v[0] ? 1 : 2;
        *first = a.v[0] < b.v[0] ? a : b;
        kmt_ev_add(ev, KEMET_EV_STARTS, pos->to, a.v[0], b.v[0]);
        return 1;
    }
    if (P(r)->first == FIRST_RANDOM) {
        /* Botermans rule 3, ruling G4: who throws first is decided at
         * random. */
        pos->to = (uint8_t)(1 + kemet_rng_below(rng, 2));
        kmt_ev_add(ev, KEMET_EV_STARTS, pos->to, 0, 0);
    }
    /* Chien et chacal (G4): player 1 throws first; throws that cannot be
     * used are lost until someone throws a 1. */
    return 0;
}

static int h58_check(const kemet_rules *r, const kemet_pos *pos,
                     kemet_error *err) {
    const h58 *h = P(r);
    for (int p = 0; p < 2; p++) {
        int left = kmt_in_play(pos, p);
        if (left == 0 && pos->result == KEMET_PLAYING) {
            int w = h->skiryuk ? 2 - p : p + 1;
            return kmt_fail(err, KEMET_ESYNTAX,
                            "%s %s, so the game is over: the position "
                            "needs winner=%d",
                            r->rs->player[p],
                            h->skiryuk ? "have no piece left"
                                       : "have taken every piece off",
                            w);
        }
    }
    if (h->skiryuk && pos->result == KEMET_PLAYING) {
        /* S8: the path is never empty while pieces are in hand. */
        for (int p = 0; p < 2; p++)
            if (!(pos->sq[p] & PATH_HOLES) && pos->hand[p])
                return kmt_fail(err, KEMET_ESYNTAX,
                                "%s has pieces in hand but none on holes "
                                "1-29 (Skiryuk rule 23: the path is never "
                                "empty)",
                                r->rs->player[p]);
    }
    if (pos->result == KEMET_DRAW && !h->draw)
        return kmt_fail(err, KEMET_ESYNTAX, "%s has no draw (winner=0)",
                        r->rs->id);
    return KEMET_OK;
}

static int h58_prethrow(const kemet_rules *r, const kemet_pos *pos,
                        kemet_move *out) {
    (void)r;
    (void)pos;
    (void)out;
    return 0; /* no choice before throwing on this board */
}

/* ---------------------------------------------------------------------------
 * Moves
 * ------------------------------------------------------------------------ */

/* The square where the piece on s ends for throw t, KEMET_OFF, or -1 when
 * it may not move. `occ` is the physically occupied squares of our path,
 * `hand` our pieces in hand. */
static int h58_dest(const h58 *h, uint64_t occ, int hand, int s, int t) {
    if (h->exit == EXIT_LAST_5 && s == h->last)
        return (t == 5 && hand == 0) ? KEMET_OFF : -1; /* B6, rules 13-14 */
    int d = s + t;
    if (h->exit == EXIT_LAND_30 && d == APEX)
        return hand == 0 || h->off_any ? KEMET_OFF : -1; /* C6; CC7 */
    if (d > h->last)
        return -1; /* B5, rule 11; S6, C6: exact throws only */
    /* Ruling G6: the hole just left counts as empty. */
    occ &= ~B(s);
    uint64_t between = B(d) - B(s + 1); /* squares s+1 .. d-1 (B7) */
    if (h->pass == PASS_GATES && (occ & h->gates & between))
        return -1; /* rule 8, B3 */
    if (h->pass == PASS_NONE && (occ & between))
        return -1; /* S2, Skiryuk rules 13-14 */
    if (occ & B(d))
        return -1; /* rule 9, B3, S2, C3 (the Shen is never in occ) */
    int e = h->partner[d];
    if (e) {
        /* Rules 10, B4, H3; S3; C4: a line is followed when a move lands
         * on its end by counting. */
        if (!(occ & B(e)))
            return e;
        if (h->lines != LINES_STAY)
            return -1;
    }
    return d;
}

/* The squares whose pieces can use throw t (bitwise over all pieces at
 * once; h58_dest is the same rule one piece at a time). *enter: a piece
 * may enter; *shen: a piece may leave the Shen. */
static inline __attribute__((always_inline)) uint64_t
h58_froms(const h58 *h, uint64_t own, int must, int hand, int heap, int t,
          uint64_t occ, bool *enter, bool *shen) {
    uint64_t sel = must ? (own & B(must)) : own;
    /* Entering on hole 1 with a 1 (rule 6, B2; C2; not under must=, C8);
     * on hole t with any t (CC2). */
    int in = h->enter == ENTER_COUNT ? t : 1;
    *enter = (t == 1 || h->enter == ENTER_COUNT) && hand &&
             h->enter != ENTER_LOAD && !must && in <= h->last && !(occ & B(in));
    /* S7: a piece in the Shen leaves it with exactly 1. */
    *shen = h->exit == EXIT_SHEN_1 && t == 1 && heap;
    uint64_t off = 0, cand = sel & (B(h->last - t + 1) - 1);
    if (h->exit == EXIT_LAST_5) {
        cand &= ~B(h->last); /* B6: the last square only bears off */
        if (t == 5 && hand == 0)
            off = sel & B(h->last);
    } else if (h->exit == EXIT_LAND_30 && t < APEX) {
        if (hand == 0 || h->off_any) /* C6; CC7 */
            off = sel & B(APEX - t);
    }
    /* Passing (rule 8, B3, B7; S2): no blocker strictly between. */
    uint64_t blk = h->pass == PASS_GATES  ? (occ & h->gates)
                   : h->pass == PASS_NONE ? occ
                                          : 0;
    for (int k = 1; k < t; k++)
        cand &= ~(blk >> k);
    /* Landing (rule 9, B3, S2, C3): an empty hole. */
    uint64_t land = (cand << t) & ~occ;
    /* Lines (rule 10, B4, H3; S3; C4): where the other end is occupied
     * (the square just left counts as empty, G6) the move is illegal,
     * except under Botermans' rules where the piece stays. */
    if (h->lines != LINES_STAY) {
        for (uint64_t b = land & h->line_ends; b; b &= b - 1) {
            int d = kmt_ctz64(b);
            int e = h->partner[d];
            if (occ & ~B(d - t) & B(e))
                land &= ~B(d);
        }
    }
    return (land >> t) | off;
}

/* The destination of a piece found by h58_froms. */
static inline __attribute__((always_inline)) int
h58_to(const h58 *h, uint64_t occ, int s, int t) {
    int d = s + t;
    if ((h->exit == EXIT_LAST_5 && s == h->last) ||
        (h->exit == EXIT_LAND_30 && d == APEX))
        return KEMET_OFF;
    int e = h->partner[d];
    if (e && !(occ & ~B(s) & B(e)))
        return e;
    return d;
}

static int h58_moves(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr, kemet_move *out) {
    const h58 *h = P(r);
    int t = thr->v[0];
    int me = pos->to - 1;
    uint64_t occ = occupied(h, pos, me);
    bool enter, shen;
    uint64_t froms = h58_froms(h, pos->sq[me], pos->must, pos->hand[me],
                               pos->heap[me], t, occ, &enter, &shen);
    int n = 0;
    if (enter)
        kmt_put_move(out, &n, KEMET_HAND, h->enter == ENTER_COUNT ? t : 1);
    for (; froms; froms &= froms - 1) {
        int s = kmt_ctz64(froms);
        kmt_put_move(out, &n, s, h58_to(h, occ, s, t));
    }
    if (shen)
        kmt_put_move(out, &n, APEX, KEMET_OFF);
    if (n == 0)
        out[n++] = (kemet_move){0}; /* G3, rule 12: the throw is lost */
#ifdef KEMET_CHECKS
    /* Test builds: the bitwise generation agrees with h58_dest, the same
     * rule applied one piece at a time. */
    int k = enter ? 1 : 0;
    uint64_t sel = pos->must ? (pos->sq[me] & B(pos->must)) : pos->sq[me];
    for (uint64_t b = sel; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        int d = h58_dest(h, occ, pos->hand[me], s, t);
        if (d >= 0) {
            assert(k < n && out[k].step[0].from == s && out[k].step[0].to == d);
            k++;
        }
    }
    assert(k + (shen ? 1 : 0) == n || (n == 1 && out[0].n == 0 && k == 0));
#endif
    return n;
}

/* One player's pieces, as h58_make works on them: it writes the position
 * field by field at the end (`out` may be `pos`, and building a struct
 * byte-wise and copying it whole would stall the hot path). */
typedef struct side {
    uint64_t sq;
    int heap, hand;
} side;

static inline int side_total(const side *x) {
    return kmt_popcount64(x->sq) + x->heap + x->hand;
}

#ifdef KEMET_CHECKS
/* Whether `player` could make any move with any throw (rule 17), by
 * asking h58_froms about each throw: the reference for `can_move`. */
static bool can_ever_move(const h58 *h, const kemet_pos *pos, int player,
                          uint64_t occ) {
    int me = player - 1;
    for (int t = 1; t <= 5; t++) {
        bool enter, shen;
        if (h58_froms(h, pos->sq[me], 0, pos->hand[me], pos->heap[me], t, occ,
                      &enter, &shen) ||
            enter || shen)
            return true;
    }
    return false;
}
#endif

/* Whether a side could make any move with any throw, for the extended
 * game's rules only (the one ruleset with rule
 * 17), all throws at once: a piece in hand enters with a 1 on an empty
 * hole 1 (rule 6); with the hand empty a piece on the last square bears
 * off with a 5 (B6); another piece moves t = 1..5 holes onto an empty one
 * not beyond the last, passing no occupied gate (rules 8, 9, 11; a line
 * end only changes where it stops, B4). */
static inline bool can_move(const h58 *h, uint64_t own, int hand,
                            uint64_t occ) {
    if (hand ? !(occ & B(1)) : (own & B(h->last)) != 0)
        return true;
    uint64_t free = ~occ & (B(h->last + 1) - 2), blk = occ & h->gates;
    uint64_t reach = (own & (B(h->last) - 1)) << 1; /* s + 1 */
    for (int t = 1; t <= 5 && reach; t++) {
        if (reach & free)
            return true;
        reach = (reach & ~blk) << 1;
    }
    return false;
}

/* Rule 17 (extended game): nothing can ever move again. `occ_to` is the
 * occupied squares of the path of the side to move. */
static inline bool h58_stuck(const h58 *h, const kemet_pos *pos,
                             uint64_t occ_to) {
    int a = pos->to - 1, b = a ^ 1;
#ifdef KEMET_CHECKS
    assert(can_move(h, pos->sq[a], pos->hand[a], occ_to) ==
           can_ever_move(h, pos, a + 1, occ_to));
    assert(can_move(h, pos->sq[b], pos->hand[b], occupied(h, pos, b)) ==
           can_ever_move(h, pos, b + 1, occupied(h, pos, b)));
#endif
    return !can_move(h, pos->sq[a], pos->hand[a], occ_to) &&
           !can_move(h, pos->sq[b], pos->hand[b], occupied(h, pos, b));
}

/* A move without rule 17's test, which the caller makes. Inlined into
 * the playout, where a call per ply shows. */
static inline __attribute__((always_inline)) void
h58_make_core(const h58 *h, const kemet_pos *pos, const kemet_throw *thr,
              const kemet_move *move, kemet_pos *out, kemet_events *ev) {
    int me = pos->to - 1, who = me + 1;
    side S[2] = {{pos->sq[0], pos->heap[0], pos->hand[0]},
                 {pos->sq[1], pos->heap[1], pos->hand[1]}};
    side *M = &S[me], *O = &S[me ^ 1];
    int to = pos->to, must = 0, result = KEMET_PLAYING;
    bool again = false;

    if (move->n == 0) {
        kmt_ev_add(ev, KEMET_EV_PASS, who, 0, 0); /* S10: nothing else */
        to = 3 - to;
    } else {
        int t = thr->v[0];
        int s = move->step[0].from, f = move->step[0].to;
        if (s == KEMET_HAND && h->enter == ENTER_COUNT) {
            M->sq |= B(t); /* CC2: a count from hand, onto hole t */
            M->hand--;
            kmt_ev_add(ev, KEMET_EV_ENTER, who, KEMET_HAND, t);
            again = (h->again & B(t)) != 0; /* rule 6 */
        } else if (s == KEMET_HAND) {
            M->sq |= B(1);
            M->hand--;
            kmt_ev_add(ev, KEMET_EV_ENTER, who, KEMET_HAND, 1);
            if (h->enter == ENTER_MUST) {
                must = 1; /* C5: rethrow with the piece on hole 1 */
                kmt_ev_add(ev, KEMET_EV_RETHROW, who, 1, 0);
            } else if (h->enter == ENTER_PLAIN) {
                again = (h->again & B(1)) != 0; /* only where 'again 1' */
            } else {
                again = true; /* rule 6, B2 */
            }
        } else if (f == KEMET_OFF) {
            if (s == APEX && h->exit == EXIT_SHEN_1) {
                M->heap--; /* S7: back to hand, to be loaded again */
                M->hand++;
            } else {
                M->sq &= ~B(s);
            }
            /* S7: from the Shen the piece goes back to hand, not off */
            kmt_ev_add(ev, KEMET_EV_MOVE, who, s,
                       s == APEX && h->exit == EXIT_SHEN_1 ? KEMET_HAND
                                                           : KEMET_OFF);
            again = h->again_off; /* CC6 */
        } else {
            int d = s + t; /* where the piece landed by counting */
            M->sq &= ~B(s);
            if (f == APEX && h->skiryuk)
                M->heap++;
            else
                M->sq |= B(f);
            kmt_ev_add(ev, KEMET_EV_MOVE, who, s, f);
            if (f != d)
                kmt_ev_add(ev, KEMET_EV_LINE, who, d, f);
            if (h->skiryuk) {
                /* S4: landing on or passing 15 or 25 by counting loads a
                 * piece from hand onto an empty hole 1. */
                uint64_t counted = B(d + 1) - B(s + 1); /* s+1 .. d */
                if ((counted & (B(15) | B(25))) && M->hand &&
                    !(occupied_by(h, M->sq, O->sq) & B(1))) {
                    M->sq |= B(1);
                    M->hand--;
                    kmt_ev_add(ev, KEMET_EV_LOAD, who, 0, 1);
                }
                /* S6: entering the Shen captures the opponent's rearmost
                 * piece on holes 1-29, for good. */
                uint64_t path = O->sq & PATH_HOLES;
                if (f == APEX && path) {
                    int q = kmt_ctz64(path);
                    O->sq &= ~B(q);
                    kmt_ev_add(ev, KEMET_EV_CAPTURE, 3 - who, q, 0);
                }
                again = (d == 15 || d == 25); /* S5 */
            }
            if (h->again & B(d))
                again = true; /* Carter rule 6: where the count ends */
            if (h->rethrow & B(f)) {
                must = f; /* C5 */
                kmt_ev_add(ev, KEMET_EV_RETHROW, who, f, 0);
            }
        }
        if (h->skiryuk) {
            /* S8: the path is never left empty while pieces are in hand;
             * the mover's side first, then the opponent's (S10). */
            for (int k = 0; k < 2; k++) {
                side *X = k == 0 ? M : O;
                if (!(X->sq & PATH_HOLES) && X->hand) {
                    X->sq |= B(1);
                    X->hand--;
                    kmt_ev_add(ev, KEMET_EV_LOAD, k == 0 ? who : 3 - who, 0, 1);
                }
            }
        }
        to = (again || must) ? to : 3 - to;
        if (again)
            kmt_ev_add(ev, KEMET_EV_AGAIN, who, 0, 0);
        if (h->skiryuk ? side_total(O) == 0 : side_total(M) == 0) {
            /* S9: all five opposing pieces captured; rule 15, C7: all
             * five borne off. */
            result = me == 0 ? KEMET_WON1 : KEMET_WON2;
            must = 0;
            kmt_ev_add(ev, KEMET_EV_WIN, who, 0, 0);
        }
    }
    for (int p = 0; p < 2; p++) {
        out->sq[p] = S[p].sq;
        out->heap[p] = (uint8_t)S[p].heap;
        out->hand[p] = (uint8_t)S[p].hand;
    }
    out->to = (uint8_t)to;
    out->must = (uint8_t)must;
    out->result = (uint8_t)result;
    out->pad_ = 0;
    kmt_pos_zero_off(out);
}

static void h58_make(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *move,
                     kemet_pos *out, kemet_events *ev) {
    const h58 *h = P(r);
    h58_make_core(h, pos, thr, move, out, ev);
    if (h->draw && out->result == KEMET_PLAYING &&
        h58_stuck(h, out, occupied(h, out, out->to - 1))) {
        out->result = KEMET_DRAW; /* rule 17 */
        kmt_ev_add(ev, KEMET_EV_DRAW, 0, 0, 0);
    }
}

/* The fast random playout: the same draws and counts as the generic loop
 * in game.c (no pre-throw choices on this board), without building move
 * lists: the k-th move of the list is entering (if legal), then the moves
 * of the pieces in square order, then leaving the Shen. */
static inline __attribute__((always_inline)) void
playout(const h58 *h, kmt_playout_state *st0) {
    kmt_playout_state L = *st0, *st = &L; /* kept in registers */
    kemet_pos *pos = &st->pos;
    uint64_t occ = occupied(h, pos, pos->to - 1);
    while (kmt_playout_going(st)) {
        int mover = pos->to, me = mover - 1;
        kemet_throw t;
        if (!h->dice)
            kmt_playout_sticks(st, &t);
        else { /* as h58_roll draws it */
            if (st->pending)
                t = st->thr;
            else
                kmt_throw_one(
                    &t, 1 + (int)kemet_rng_below(st->dice, (uint32_t)h->dice));
            st->pending = false;
        }
        bool enter, shen;
        uint64_t froms = h58_froms(h, pos->sq[me], pos->must, pos->hand[me],
                                   pos->heap[me], t.v[0], occ, &enter, &shen);
        int n = (int)enter + kmt_popcount64(froms) + (int)shen;
        if (n == 0 && !h->draw) {
            pos->to = (uint8_t)(3 - mover); /* a lost throw: G3, S10 */
            pos->must = 0;
            kmt_playout_count(st, mover);
            occ = occupied(h, pos, pos->to - 1);
            continue;
        }
        kemet_move m = {0};
        if (n > 0) {
            int k = n > 1 ? (int)kemet_rng_below(st->pick, (uint32_t)n) : 0;
            if (enter && k == 0) {
                m = kmt_move1(KEMET_HAND, h->enter == ENTER_COUNT ? t.v[0] : 1);
            } else {
                k -= (int)enter;
                for (; k > 0 && froms; k--)
                    froms &= froms - 1;
                if (froms) {
                    int s = kmt_ctz64(froms);
                    m = kmt_move1(s, h58_to(h, occ, s, t.v[0]));
                } else {
                    m = kmt_move1(APEX, KEMET_OFF);
                }
            }
        }
        h58_make_core(h, pos, &t, &m, pos, NULL);
        occ = occupied(h, pos, pos->to - 1);
        if (h->draw && pos->result == KEMET_PLAYING && h58_stuck(h, pos, occ))
            pos->result = KEMET_DRAW; /* rule 17 */
        kmt_playout_count(st, mover);
    }
    *st0 = L;
}

/* One copy of the loop per built-in set of parameters, each known to the
 * compiler, which folds the tests on them away; one more for any other
 * set a ruleset file makes. */
static void h58_playout(const kemet_rules *r, kmt_playout_state *st) {
    switch (r->variant) {
    case 0: playout(params[0], st); break;
    case 1: playout(params[1], st); break;
    case 2: playout(params[2], st); break;
    case 3: playout(params[3], st); break;
    default: playout(P(r), st); break;
    }
}

/* ---------------------------------------------------------------------------
 * Evaluation features of one side (eval.c turns them into a win chance with
 * weights tuned by `kemet tune`): progress along the path, pieces borne
 * off, pieces in hand, pieces on the last stretch (the final ten squares),
 * and for Skiryuk pieces still in play (a captured piece is lost for good)
 * and pieces in the Shen.
 * ------------------------------------------------------------------------ */
static const char *const h58_features[] = {"progress", "off",  "hand", "last",
                                           "alive",    "shen", NULL};
static const double h58_weights[] = {0.04, 1.2, -0.2, 0.1, 2.0, 1.0};

static void h58_side(const kemet_rules *r, const kemet_pos *pos, int p,
                     double *f) {
    const h58 *h = P(r);
    for (uint64_t b = pos->sq[p]; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        f[0] += s;
        f[3] += s > h->last - 10;
    }
    int on = kmt_popcount64(pos->sq[p]);
    f[2] = pos->hand[p];
    if (h->skiryuk) {
        f[4] = on + pos->heap[p] + pos->hand[p];
        f[5] = pos->heap[p];
    } else {
        f[1] = NPIECES - on - pos->hand[p];
    }
}

/* ---------------------------------------------------------------------------
 * Why a move is illegal.
 * ------------------------------------------------------------------------ */
static void h58_explain(const kemet_rules *r, const kemet_pos *pos,
                        const kemet_throw *thr, const kemet_move *move,
                        char *buf, size_t len) {
    const h58 *h = P(r);
    int me = pos->to - 1;
    int hand = pos->hand[me];
    uint64_t own = pos->sq[me];
    if (!thr || thr->n == 0) {
        snprintf(buf, len, "on this board nothing is done before throwing");
        return;
    }
    int t = thr->v[0];
    if (move->n > 1) {
        snprintf(buf, len, "one piece moves per throw");
        return;
    }
    if (move->n == 0) {
        snprintf(buf, len,
                 "pass is allowed only when no piece can use the "
                 "throw; this one can be used");
        return;
    }
    int s = move->step[0].from, f = move->step[0].to;
    if (pos->must && s != pos->must) {
        snprintf(buf, len, "this throw must be used by the piece on %d",
                 pos->must);
        return;
    }
    if (s == KEMET_HAND) {
        if (h->enter == ENTER_LOAD)
            snprintf(buf, len,
                     "pieces in hand are loaded onto hole 1 by "
                     "themselves (Skiryuk rules 10, 23)");
        else if (!hand)
            snprintf(buf, len, "you have no piece in hand");
        else if (h->enter == ENTER_COUNT && f != t)
            snprintf(buf, len,
                     "a piece enters on the hole its throw names: in-%d", t);
        else if (h->enter == ENTER_COUNT)
            snprintf(buf, len, "hole %d is occupied", t);
        else if (t != 1)
            snprintf(buf, len, "a piece enters only with a throw of 1");
        else if (f != 1)
            snprintf(buf, len, "a piece enters on hole 1");
        else
            snprintf(buf, len, "hole 1 is occupied");
        return;
    }
    bool shen = s == APEX && h->skiryuk;
    if (!(shen ? pos->heap[me] : (own & B(s)) != 0)) {
        snprintf(buf, len, "you have no piece on %d", s);
        return;
    }
    if (shen) {
        snprintf(buf, len,
                 "a piece leaves the Shen only with a throw of "
                 "exactly 1, and goes off (rule 21)");
        return;
    }
    if (h->exit == EXIT_LAST_5 && s == h->last) {
        if (t != 5)
            snprintf(buf, len, "a piece on %d bears off only with exactly 5",
                     s);
        else if (hand)
            snprintf(buf, len,
                     "you may bear off only when all your pieces "
                     "have entered (rule 14)");
        else
            snprintf(buf, len, "the piece on %d can only bear off", s);
        return;
    }
    int d = s + t;
    if (f == KEMET_OFF) {
        if (h->exit == EXIT_LAND_30 && d == APEX && !h->off_any)
            snprintf(buf, len,
                     "you may take pieces off only when all are "
                     "on the course (none in hand)");
        else if (h->exit == EXIT_LAND_30)
            snprintf(buf, len,
                     "a piece leaves by landing exactly on 30; "
                     "%d+%d is %d",
                     s, t, d);
        else
            snprintf(buf, len, "pieces leave only from %d", h->last);
        return;
    }
    if (d > h->last || (h->exit == EXIT_LAND_30 && d >= APEX)) {
        snprintf(buf, len,
                 "%d+%d goes past the end: an exact throw is "
                 "needed",
                 s, t);
        return;
    }
    uint64_t occ = occupied(h, pos, me) & ~B(s);
    uint64_t between = B(d) - B(s + 1);
    if (h->pass == PASS_GATES && (occ & h->gates & between)) {
        snprintf(buf, len, "the piece on %d blocks the way (rule 8)",
                 kmt_ctz64(occ & h->gates & between));
        return;
    }
    if (h->pass == PASS_NONE && (occ & between)) {
        snprintf(buf, len,
                 "hole %d is occupied: pieces may not pass each "
                 "other (rules 13-14)",
                 kmt_ctz64(occ & between));
        return;
    }
    if (occ & B(d)) {
        snprintf(buf, len, "hole %d is occupied (one piece per hole)", d);
        return;
    }
    int e = h->partner[d];
    if (e && (occ & B(e)) && h->lines != LINES_STAY) {
        snprintf(buf, len,
                 "the line from %d leads to %d, which is "
                 "occupied",
                 d, e);
        return;
    }
    int real = h58_dest(h, occupied(h, pos, me), hand, s, t);
    snprintf(buf, len, "with a %d the piece on %d ends on %d%s", t, s, real,
             real != d ? " (it follows the line)" : "");
}

/* The board picture: the two sides of the palm (ruling H1): player 2's
 * holes on the left, player 1's on the right, 1-10 down the central
 * columns, 11-25 up the outer edges, 26-29 along the arc to the apex 30;
 * the lines 6-20 and 8-10 and the marked holes (H2). Cells: player 1's
 * hole h is cell h, player 2's hole h is cell 30+h, the apex cell 30. */
/* The palm board for the terminal, every mark and line drawn;
 * kmt_h58_picture takes away what a ruleset's board does not have. */
static const char palm[] =
    "                                [{30}] 30* Shen\n"
    "                     29 [{59}]           [{29}]  29\n"
    "               28 [{58}]                       [{28}]  28\n"
    "        27 [{57}]                                     [{27}]  27\n"
    "  26 [{56}]                                                [{26}]  26\n"
    " *25 [{55}]       [{31}] *1     \\    /     *1 [{01}]       [{25}] *25\n"
    "  24 [{54}]       [{32}]  2      |  |       2 [{02}]       [{24}]  24\n"
    "  23 [{53}]       [{33}]  3      |  |       3 [{03}]       [{23}]  23\n"
    "  22 [{52}]       [{34}]  4      |  |       4 [{04}]       [{22}]  22\n"
    "  21 [{51}]       [{35}]  5      palm       5 [{05}]       [{21}]  21\n"
    " *20 [{50}]=======[{36}] *6      |  |      *6 [{06}]=======[{20}] *20\n"
    "  19 [{49}]       [{37}]  7      |  |       7 [{07}]       [{19}]  19\n"
    "  18 [{48}]       [{38}] *8  -.  |  |  .-  *8 [{08}]       [{18}]  18\n"
    "  17 [{47}]       [{39}]  9   |  |  |  |    9 [{09}]       [{17}]  17\n"
    "  16 [{46}]       [{40}] *10 -'  |  |  '- *10 [{10}]       [{16}]  16\n"
    " *15 [{45}]                                                [{15}] *15\n"
    "  14 [{44}]                                                [{14}]  14\n"
    "  13 [{43}]                                                [{13}]  13\n"
    "  12 [{42}]                                                [{12}]  12\n"
    "  11 [{41}]                                                [{11}]  11\n";

static_assert(sizeof palm + 160 <= KMT_H58_PICTURE, "room for the key");

/* "'" after a name ending in s ("the Jackals' holes"), else "'s". */
static const char *possessive(const char *name) {
    size_t n = strlen(name);
    return n && name[n - 1] == 's' ? "'" : "'s";
}

/* Blanks the first n characters at the first `what` after `from`. */
static void blank(char *from, const char *what, size_t n) {
    char *at = strstr(from, what);
    if (at)
        memset(at, ' ', n);
}

void kmt_h58_picture(char out[KMT_H58_PICTURE], const kemet_rules *r,
                     uint64_t marks, const uint8_t line[30], bool shen) {
    memcpy(out, palm, sizeof palm);
    /* a mark '*' before a hole's number, or after the 30 */
    for (char *c = out; (c = strchr(c, '*')); c++) {
        int n = c[1] >= '0' && c[1] <= '9' ? atoi(c + 1) : atoi(c - 2);
        if (!(marks & B(n)))
            *c = ' ';
    }
    bool long_line = line[6] == 20 || line[20] == 6;
    bool short_line = line[8] == 10 || line[10] == 8;
    if (!long_line) {
        for (char *c = out; (c = strchr(c, '=')); c++)
            *c = ' ';
    }
    if (!short_line) {
        char *row = strstr(out, "{38}");
        blank(row, "-.", 2);
        blank(row, ".-", 2);
        row = strstr(out, "{39}");
        /* the 1st and 4th bars; the palm's trunk between them stays */
        char *bar = strchr(row, '|');
        *bar = ' ';
        bar = strchr(bar + 1, '|');
        bar = strchr(bar + 1, '|');
        bar = strchr(bar + 1, '|');
        *bar = ' ';
        row = strstr(out, "{40}");
        blank(row, "-'", 2);
        blank(row, "'-", 2);
    }
    if (!shen)
        blank(out, "Shen", 4);
    /* the key */
    const char *p2 = r->own.player[1], *p1 = r->own.player[0];
    size_t len = strlen(out);
    len += (size_t)snprintf(out + len, KMT_H58_PICTURE - len,
                            "  left: %s%s holes; right: %s%s; 30 is shared.\n",
                            p2, possessive(p2), p1, possessive(p1));
    if (!marks && !long_line && !short_line)
        return;
    snprintf(out + len, KMT_H58_PICTURE - len, " %s%s%s\n",
             marks ? " * marked hole" : "",
             long_line ? "   ==== line 6-20" : "",
             short_line ? "   brackets: line 8-10" : "");
}

int kmt_h58_cell_of(const kemet_rules *r, int player, int square) {
    (void)r;
    int hole = square, owner = player;
    if (square == APEX)
        return APEX;
    if (square > APEX) { /* the extended path: the opponent's hole 60-q */
        hole = 60 - square;
        owner = 3 - player;
    }
    return owner == 1 ? hole : 30 + hole;
}

/* ---------------------------------------------------------------------------
 * The family: the functions, and its parts read from a ruleset file
 * (docs/rulesets.md, "holes58"); the rules in words are in the files
 * (data/rulesets).
 * ------------------------------------------------------------------------ */
void kmt_h58_drawing(const kemet_rules *r, uint64_t *marks, uint8_t line[30]) {
    const h58 *h = P(r);
    *marks = h->marks;
    for (int s = 0; s < 30; s++)
        line[s] = s && h->partner[s] < 30 ? h->partner[s] : 0;
}

/* The throws of a die (Carter's d4 and d6): each value equally likely. */
static int h58_die_throws(const kemet_rules *r, const kemet_pos *pos,
                          kemet_throw *out, kemet_weight *weight,
                          kemet_weight *total) {
    (void)pos;
    return kmt_die_throws(P(r)->dice, out, weight, total);
}

static void h58_die_roll(const kemet_rules *r, const kemet_pos *pos,
                         kemet_rng *rng, kemet_throw *out) {
    (void)pos;
    kmt_die_roll(P(r)->dice, rng, out);
}

static const kmt_ruleset h58_base = {
    .pieces = NPIECES,
    .has_hand = true,
    .tables = true,
    .board = NULL, /* drawn for the rules' marks and lines (configure) */
    .cells = 59,
    .cell_of = kmt_h58_cell_of,
    .start = h58_start,
    .opening = h58_opening,
    .check = h58_check,
    .throws = kmt_sticks_throws_of,
    .roll = kmt_sticks_roll_of,
    .max_value = 5,
    .prethrow = h58_prethrow,
    .moves = h58_moves,
    .make = h58_make,
    .playout = h58_playout,
    .side = h58_side,
    .features = h58_features,
    .weights = h58_weights,
    .explain = h58_explain,
    .art = kmt_art_h58,
};

/* Reads `lines MODE A-B ...`: the lines joining holes of a side (H2). */
static int read_lines(kmt_rulefile *f, h58 *h, bool round, kemet_error *err) {
    static const char *const modes[] = {"stay",         "block", "one-way",
                                        "one-way-stay", "none",  NULL};
    enum { ONEWAY_STAY = 3, NONE = 4 }; /* modes[] beyond the LINES_* */
    kmt_part *p = kmt_rf_part(f, "lines");
    if (!p)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "rules file: missing statement 'lines' (holes58: "
                        "'lines stay|block|one-way A-B ...')");
    int mode = -1;
    for (int i = 0; modes[i] && p->argc > 1; i++)
        if (strcmp(p->argv[1], modes[i]) == 0)
            mode = i;
    if (mode < 0)
        return kmt_rf_refuse(p,
                             "write 'lines stay|block|one-way' and the lines "
                             "as A-B (holes 1-29)",
                             err);
    /* one-way-stay: from A to B only, staying on A when B is occupied
     * (Carter rule 5, CC4) */
    bool oneway = mode == LINES_ONEWAY || mode == ONEWAY_STAY;
    /* (with no lines, how a line behaves never matters) */
    h->lines = mode == ONEWAY_STAY ? LINES_STAY
               : mode == NONE      ? LINES_BLOCK
                                   : mode;
    if (mode == NONE && p->argc > 2)
        return kmt_rf_refuse(p, "'lines none' names no lines", err);
    if (mode != NONE && p->argc < 3)
        return kmt_rf_refuse(p, "name the lines as A-B (or 'lines none')", err);
    for (int i = 2; i < p->argc; i++) {
        int a, b;
        const char *w = p->argv[i], *dash = strchr(w, '-');
        if (!dash || kmt_read_num(w, (size_t)(dash - w), &a) < 0 ||
            kmt_read_num(dash + 1, strlen(dash + 1), &b) < 0 || a < 2 ||
            a > 28 || b < 2 || b > 28 || a == b)
            return kmt_rf_refuse(p, "a line is A-B, two different holes 2-28",
                                 err);
        if (h->partner[a] || h->partner[b] ||
            (!oneway && (h->line_ends & (B(a) | B(b)))))
            return kmt_rf_refuse(p, "a hole is the end of one line only", err);
        h->partner[a] = (uint8_t)b;
        h->line_ends |= B(a);
        if (!oneway) {
            h->partner[b] = (uint8_t)a;
            h->line_ends |= B(b);
        }
        if (round) { /* the opponent's lines, on our path's 31-59 */
            h->partner[60 - a] = (uint8_t)(60 - b);
            h->line_ends |= B(60 - a);
            if (!oneway) {
                h->partner[60 - b] = (uint8_t)(60 - a);
                h->line_ends |= B(60 - b);
            }
        }
    }
    return KEMET_OK;
}

static int h58_configure(kemet_rules *r, kmt_rulefile *f, kemet_error *err) {
    static const char *const paths[] = {"own", "round", NULL};
    static const char *const passes[] = {"free", "gates", "none", NULL};
    static const char *const exits[] = {"last-5", "land-30", "shen-1", NULL};
    static const char *const enters[] = {"again", "must",  "load",
                                         "count", "plain", NULL};
    static const char *const throws[] = {"sticks 4 blank=5", "die 4", "die 6",
                                         NULL};
    static const char *const firsts[] = {"random", "player-1", "lower-throw",
                                         NULL};
    int path, dice, rc;
    h58 *h = calloc(1, sizeof *h);
    if (!h)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    r->params = h;
    if (f->board)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "rules file: the holes58 family's board is built in "
                        "(no 'board')");
    if ((rc = kmt_rf_fixed(f, "pieces", "5", err)) ||
        (rc = kmt_rf_choice(f, "throw", throws, -1, &dice, err)) ||
        (rc = kmt_rf_choice(f, "path", paths, -1, &path, err)) ||
        (rc = read_lines(f, h, path == 1, err)) ||
        (rc = kmt_rf_choice(f, "pass", passes, -1, &h->pass, err)) ||
        (rc = kmt_rf_choice(f, "exit", exits, -1, &h->exit, err)) ||
        (rc = kmt_rf_choice(f, "enter", enters, -1, &h->enter, err)) ||
        (rc = kmt_rf_choice(f, "first", firsts, -1, &h->first, err)) ||
        (rc = kmt_rf_flag(f, "shen-capture", &h->skiryuk, err)) ||
        (rc = kmt_rf_flag(f, "jam-draw", &h->draw, err)) ||
        (rc = kmt_rf_flag(f, "off-with-hand", &h->off_any, err)))
        return rc;
    h->dice = dice == 0 ? 0 : dice == 1 ? 4 : 6;
    int v[28], n;
    if ((rc = kmt_rf_numbers(f, "gates", 1, 2, 29, v, 28, &n, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        h->gates |= B(v[i]);
        if (path == 1)
            h->gates |= B(60 - v[i]);
    }
    if ((rc = kmt_rf_numbers(f, "rethrow", 1, 2, 29, v, 28, &n, err)))
        return rc;
    for (int i = 0; i < n; i++)
        h->rethrow |= B(v[i]);
    /* marks H...: the holes drawn marked; the palm board's by default */
    kmt_part *mk = kmt_rf_part(f, "marks");
    if (mk && mk->argc == 2 && strcmp(mk->argv[1], "none") == 0)
        h->marks = 0;
    else if (mk) {
        mk->used = false; /* read again as numbers */
        if ((rc = kmt_rf_numbers(f, "marks", 1, 1, 29, v, 28, &n, err)))
            return rc;
        for (int i = 0; i < n; i++)
            h->marks |= B(v[i]);
    } else
        h->marks = B(1) | B(6) | B(8) | B(10) | B(15) | B(20) | B(25);
    /* again H...: a count or entry ending there gives another turn; 30,
     * reaching 30 (Carter rule 6, CC5, CC6) */
    if ((rc = kmt_rf_numbers(f, "again", 1, 1, 30, v, 28, &n, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        if (v[i] == APEX)
            h->again_off = true;
        else
            h->again |= B(v[i]);
    }
    /* Parts that do not work together. */
    const char *why = NULL;
    kmt_part *at = NULL;
    if ((h->pass == PASS_GATES) != (h->gates != 0))
        why = "'pass gates' and 'gates H...' go together",
        at = kmt_rf_part(f, "pass");
    else if (h->skiryuk != (h->exit == EXIT_SHEN_1) ||
             h->skiryuk != (h->enter == ENTER_LOAD))
        why = "the Shen (S4-S8) comes whole: 'shen-capture', 'exit shen-1' "
              "and 'enter load' together",
        at = kmt_rf_part(f, "exit");
    else if (path == 1 && h->exit != EXIT_LAST_5)
        why = "round the board a piece bears off from the last square "
              "('exit last-5')",
        at = kmt_rf_part(f, "path");
    else if (h->draw && path != 1)
        why = "only pieces going round the board can jam ('jam-draw' needs "
              "'path round')",
        at = kmt_rf_part(f, "jam-draw");
    else if (h->rethrow && h->enter != ENTER_MUST)
        why = "a rethrow with the same piece needs 'enter must' (C2, C5)",
        at = kmt_rf_part(f, "rethrow");
    else if (h->skiryuk && h->first != FIRST_LOWER)
        why = "Skiryuk's loading needs 'first lower-throw' (S1)",
        at = kmt_rf_part(f, "first");
    else if (h->off_any && h->exit != EXIT_LAND_30)
        why = "'off-with-hand' goes with 'exit land-30'",
        at = kmt_rf_part(f, "off-with-hand");
    else if ((h->again || h->again_off) &&
             (h->skiryuk || h->enter == ENTER_MUST || h->exit != EXIT_LAND_30))
        why = "'again' gives another turn where the count ends; it goes "
              "with 'exit land-30' and not with the Shen or 'enter must'",
        at = kmt_rf_part(f, "again");
    else if (h->dice && (h->exit == EXIT_LAST_5 || h->skiryuk || h->draw))
        why = "a die ('throw die N') goes with 'exit land-30' (the other "
              "exits count on the sticks' 5)",
        at = kmt_rf_part(f, "throw");
    if (why)
        return kmt_rf_refuse(at, why, err);

    h->last = path == 1 ? 59 : h->exit == EXIT_LAND_30 ? 29 : APEX;
    kmt_ruleset *rs = &r->own;
    rs->squares = h->last;
    rs->heap_square = h->skiryuk ? APEX : 0;
    rs->must_squares = h->rethrow | (h->enter == ENTER_MUST ? B(1) : 0);
    rs->has_must = rs->must_squares != 0;
    /* C3, C6: with no square both sides share, the game is a race. */
    rs->race = path == 0 && h->exit == EXIT_LAND_30;
    /* the Shen starred on a board with marked holes */
    uint8_t line[30];
    uint64_t marks;
    kmt_h58_drawing(r, &marks, line);
    kmt_h58_picture(h->picture, r, marks ? marks | B(APEX) : 0, line, true);
    rs->board = h->picture;
    if (h->dice) {
        rs->throws = h58_die_throws;
        rs->roll = h58_die_roll;
        rs->max_value = h->dice;
    }
    /* the built-in parameters' fast playout where they are the same (what
     * is drawn aside) */
    h58 cmp;
    memcpy(&cmp, h, sizeof cmp);
    cmp.marks = 0;
    memset(cmp.picture, 0, sizeof cmp.picture);
    r->variant = -1;
    for (int i = 0; i < 4; i++)
        if (memcmp(&cmp, params[i], sizeof cmp) == 0)
            r->variant = i;
    return KEMET_OK;
}

const kmt_family kmt_family_holes58 = {
    .name = "holes58",
    .base = &h58_base,
    .option_keys = NULL,
    .configure = h58_configure,
};
