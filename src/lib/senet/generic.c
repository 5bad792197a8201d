/* generic.c - the senet family's general generator: any combination of
 * the parts (docs/rulesets.md, "Family senet"; the rulings on how the
 * parts meet, SP1-SP14, in docs/rules/senet-parts.md).
 *
 * Representation: as the published readings' generators (bit s of sq[p]
 * for square s, both players numbering the track alike, K1); pieces in
 * hand in hand[], the score (`end score`) in off[]. Nothing allocates on
 * the hot path.
 *
 * A move without `split` is one piece's step, so the legal moves of a
 * throw are a set of squares to move from (each piece has at most one
 * move per throw, SP2) and perhaps an entry; the list and the fast random
 * playout are built on that one function (sn_froms). With `split` a move
 * is a play: a set of steps, one a piece, their parts adding up to the
 * throw, all one way, judged together on the position before the play
 * and carried out in track order (SP8).
 */
#include "senet.h"

#include <stdio.h>
#include <stdlib.h>

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* ---------------------------------------------------------------------------
 * The parts' tests, each on the position before the move
 * ------------------------------------------------------------------------ */

/* Whether the player to throw still waits for its first throw of
 * sn->wait (KO3 and `wait`). */
static inline bool waiting(const kmt_senet *sn, const kemet_pos *pos) {
    return sn->wait && ((pos->wait >> (pos->to - 1)) & 1);
}

/* The opponent's pieces that cannot be hit: on a safe or marked square,
 * or beside another of theirs (`protect`; K2, JQ3, JQ4, BL5). */
static inline uint64_t protected_of(const kmt_senet *sn, uint64_t opp) {
    uint64_t p = opp & sn->safe;
    if (sn->pairs)
        p |= opp & ((opp << 1) | (opp >> 1));
    return p;
}

/* The squares a move may not end on: its own pieces, protected ones, and
 * any opponent's where nothing is captured or a backward move must end
 * on an empty square. */
static inline uint64_t barred_of(const kmt_senet *sn, uint64_t own,
                                 uint64_t opp, bool back) {
    uint64_t b = own | protected_of(sn, opp);
    if (sn->capture == SN_CAP_NONE || (back && sn->back_empty))
        b |= opp;
    return b;
}

/* The mover's pieces that may move: with `lock start-row`, a piece on
 * 1-10 waits while the square ahead of it is taken (JQ2). */
static inline uint64_t free_of(const kmt_senet *sn, uint64_t own,
                               uint64_t occ) {
    return sn->lock ? own & ~(SN_ROW1 & (occ >> 1)) : own;
}

/* Squares k where k, k+1, k+2 hold the opponent's pieces (`block three`,
 * JQ5). */
static inline uint64_t triples_of(const kmt_senet *sn, uint64_t opp) {
    return sn->block3 ? opp & (opp >> 1) & (opp >> 2) : 0;
}

/* Whether a move between squares lo < hi passes a block of three: a
 * triple at k with lo < k and k + 2 < hi (JQ5). */
static inline bool passes_block(uint64_t triples, int lo, int hi) {
    if (!triples || hi - lo < 4)
        return false;
    uint64_t ks = (((uint64_t)1 << (hi - 2)) - 1) & ~(((uint64_t)2 << lo) - 1);
    return (triples & ks) != 0;
}

/* Whether the mover may bear off at all now (`bear-off-when`: JQ9's last
 * row, KO5's clear start row). */
static inline bool may_bear_off(const kmt_senet *sn, uint64_t own, int hand) {
    if (sn->off_last_row && ((own & ~SN_ROW3) || hand))
        return false;
    if (sn->off_row1_clear && (own & SN_ROW1))
        return false;
    return true;
}

/* Whether a count t bears off the piece on s (`bear-off`). */
static inline bool bears_off(const kmt_senet *sn, int s, int t) {
    switch (sn->off) {
    case SN_OFF_EXACT: return s + t == SN_EXIT;
    case SN_OFF_ANY: return s + t >= SN_EXIT;
    case SN_OFF_SQUARES: return (sn->off_count[s] >> t) & 1;
    }
    return false;
}

/* Whether the count t from s is a fall into the water (`trap`, KO4). */
static inline bool is_fall(const kmt_senet *sn, int s, int t) {
    return sn->trap && s < sn->stop && s + t > sn->stop;
}

/* Where a count t takes the piece on s forward, before landing is judged:
 * a square (the water for a fall), KEMET_OFF, or 0 for no forward move.
 * `can_off`: the mover may bear off now; `occ` the board. */
static inline int fwd_target(const kmt_senet *sn, uint64_t occ, int s, int t,
                             bool can_off) {
    /* a piece in the water, or on a house, moves only by bearing off
       (`water W R`, K8; `bear-off S:C`, rule 10, K5) */
    if ((sn->water_kind == SN_WATER_STAY && s == sn->water) ||
        (sn->houses & KMT_BIT(s)))
        return can_off && bears_off(sn, s, t) ? KEMET_OFF : 0;
    /* the stop square's own count bears off rather than moving on (K4) */
    if (sn->off == SN_OFF_SQUARES && s == sn->stop &&
        ((sn->off_count[s] >> t) & 1))
        return can_off ? KEMET_OFF : 0;
    int d = s + t;
    if (sn->stop && s < sn->stop && d > sn->stop) {
        /* no piece passes the stop square (K3); with the trap it falls
           into the water, if that is empty (KO4) */
        if (sn->trap && !(occ & KMT_BIT(sn->water)))
            return sn->water;
        return 0;
    }
    if (d <= SN_SQUARES)
        return d;
    return can_off && bears_off(sn, s, t) ? KEMET_OFF : 0;
}

/* Where a count t takes the piece on s backward, before landing is
 * judged, or 0 (`backward`; K7, JQ8, PC5). */
static inline int back_target(const kmt_senet *sn, int s, int t) {
    if ((sn->back_not & KMT_BIT(s)) ||
        (sn->water_kind == SN_WATER_STAY && s == sn->water))
        return 0; /* a piece in the water never moves backward (K7) */
    if (sn->back_water & KMT_BIT(s))
        return sn->water; /* rule 10: back into the water */
    return s - t >= 1 ? s - t : 0;
}

/* Whether pos->must is the entered piece's (PC10: forward or back to
 * hand), not a rethrow's (forward, else backward, else lost). */
static inline bool must_enter(const kmt_senet *sn, const kemet_pos *pos) {
    return sn->enter == SN_ENTER_MUST && pos->must == 1;
}

/* The pieces that may use the throw: the rethrow's alone (must=), the
 * entered piece alone unless the throw is shared out (then the play must
 * include it: PC10), the piece in the water alone (K8). */
static inline uint64_t selected(const kmt_senet *sn, const kemet_pos *pos,
                                uint64_t own) {
    uint64_t sel = own;
    if (pos->must && !(sn->split && must_enter(sn, pos)))
        sel &= KMT_BIT(pos->must);
    if (sn->water_kind == SN_WATER_STAY && (own & KMT_BIT(sn->water)))
        sel &= KMT_BIT(sn->water);
    return sel;
}

/* Whether a 1 may enter a piece now (`enter 1`, PC6). */
static inline bool entry_ok(const kmt_senet *sn, const kemet_pos *pos, int t,
                            uint64_t own, uint64_t occ) {
    int me = pos->to - 1;
    return sn->enter != SN_ENTER_NONE && t == 1 && pos->hand[me] &&
           !(occ & KMT_BIT(1)) && !pos->must &&
           !(sn->water_kind == SN_WATER_STAY && (own & KMT_BIT(sn->water)));
}

/* ---------------------------------------------------------------------------
 * One piece a throw: the squares moved from
 * ------------------------------------------------------------------------ */

/* The legal one-piece moves of throw t: the squares they start from, each
 * one's end in dest[], *back when they are backward moves and *entry when
 * a piece may also enter (it is a forward move). */
static ALWAYS_INLINE uint64_t sn_froms(const kmt_senet *sn,
                                       const kemet_pos *pos, int t,
                                       uint8_t dest[SN_SQUARES + 1], bool *back,
                                       bool *entry) {
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1], occ = own | opp;
    *back = false;
    *entry = false;
    /* KO3: a player still waiting plays only its first V */
    if (waiting(sn, pos) && t != sn->wait)
        return 0;
    uint64_t sel = free_of(sn, selected(sn, pos, own), occ);
    uint64_t triples = triples_of(sn, opp);
    bool can_off = may_bear_off(sn, own, pos->hand[me]);
    uint64_t barred = barred_of(sn, own, opp, false);
    uint64_t froms = 0;
    for (uint64_t b = sel; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        int d = fwd_target(sn, occ, s, t, can_off);
        if (!d)
            continue;
        if (d == KEMET_OFF) {
            if (passes_block(triples, s, SN_EXIT))
                continue;
        } else if (is_fall(sn, s, t) && d == sn->water) {
            if (passes_block(triples, s, d))
                continue; /* the water is empty: fwd_target saw to it */
        } else if ((barred & KMT_BIT(d)) || passes_block(triples, s, d)) {
            continue;
        }
        froms |= KMT_BIT(s);
        dest[s] = (uint8_t)d;
    }
    *entry = entry_ok(sn, pos, t, own, occ);
    if (froms || *entry || !sn->backward || must_enter(sn, pos))
        goto vacate;
    /* backward only when nothing moves forward (K7, JQ8, PC5) */
    *back = true;
    barred = barred_of(sn, own, opp, true);
    for (uint64_t b = sel; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        int d = back_target(sn, s, t);
        if (!d || (barred & KMT_BIT(d)) || passes_block(triples, d, s))
            continue;
        froms |= KMT_BIT(s);
        dest[s] = (uint8_t)d;
    }
vacate:
    /* BL6: a piece on a marked square that can move goes first */
    if (sn->vacate && (froms & sn->marked)) {
        froms &= sn->marked;
        *entry = false;
    }
    return froms;
}

/* ---------------------------------------------------------------------------
 * A throw shared out among pieces (`split`): plays
 * ------------------------------------------------------------------------ */

/* A play's key, so that sorting keys sorts plays in the list's order (an
 * entry first, then fewer steps first, then step by step by FROM, then
 * TO, off after every square): bit 53 set but for the entry, the steps'
 * count in bits 50-52 and step i of the written order in the 10 bits from
 * 40 - 10 i (its FROM, then its TO with off as 31). */
#define KEY_PLAY ((uint64_t)1 << 53)

static uint64_t key_of(const kemet_move *m) {
    if (m->n == 1 && m->step[0].from == KEMET_HAND)
        return 0;
    uint64_t key = KEY_PLAY | (uint64_t)m->n << 50;
    for (int i = 0; i < m->n; i++) {
        int to = m->step[i].to == KEMET_OFF ? SN_EXIT : m->step[i].to;
        key |= (uint64_t)(m->step[i].from << 5 | to) << (40 - 10 * i);
    }
    return key;
}

/* Puts a play's steps in the written order: forward by FROM descending,
 * backward by FROM ascending (the order they are carried out, SP8). */
static void sort_steps(kemet_move *m) {
    if (m->n < 2 || m->step[0].from == KEMET_HAND)
        return;
    int e0 = m->step[0].to == KEMET_OFF ? SN_EXIT : m->step[0].to;
    bool back = e0 < m->step[0].from;
    for (int i = 1; i < m->n; i++)
        for (int j = i; j > 0; j--) {
            int a = m->step[j - 1].from, b = m->step[j].from;
            if (back ? a > b : a < b) {
                kemet_step x = m->step[j];
                m->step[j] = m->step[j - 1];
                m->step[j - 1] = x;
            }
        }
}

typedef struct gen {
    const kmt_senet *sn;
    uint64_t own, opp, occ, barred, triples;
    int piece[SN_MAX_PIECES], npieces; /* ascending */
    int part[SN_MAX_PIECES];
    uint8_t target[SN_MAX_PIECES][SN_MAX_VALUE + 1]; /* per part, 0: none */
    bool back;
    bool need1; /* the entered piece's throw: a forward step from 1 */
    kemet_move *out;
    int n;
} gen;

/* The parts given, checked as a play (SP8, PC1): targets on the board
 * pairwise different, each empty before the play, the start of another
 * step, or an opponent that may be hit. Appended when legal. */
static void gen_check(gen *G) {
    uint64_t from = 0, to = 0;
    bool has1 = false;
    kemet_move m = {0};
    for (int k = 0; k < G->npieces; k++) {
        int i = G->back ? k : G->npieces - 1 - k;
        int d = G->part[i];
        if (!d)
            continue;
        int s = G->piece[i], t = G->target[i][d];
        from |= KMT_BIT(s);
        if (t != KEMET_OFF) {
            if (to & KMT_BIT(t))
                return; /* two targets on one square */
            to |= KMT_BIT(t);
        }
        has1 |= s == 1 && !G->back;
        m.step[m.n].from = (uint8_t)s;
        m.step[m.n++].to = (uint8_t)t;
    }
    /* own pieces that stay are never landed on; an opponent only where
       it may be hit */
    if (to & G->own & ~from)
        return;
    if (to & G->opp & G->barred)
        return;
    if (G->need1 && !has1)
        return;
    G->out[G->n++] = m;
}

/* Gives piece i onwards parts adding up to `left`. */
static void gen_parts(gen *G, int i, int left) {
    if (i == G->npieces) {
        if (left == 0)
            gen_check(G);
        return;
    }
    G->part[i] = 0;
    gen_parts(G, i + 1, left);
    for (int d = 1; d <= left; d++)
        if (G->target[i][d]) {
            G->part[i] = d;
            gen_parts(G, i + 1, left - d);
        }
    G->part[i] = 0;
}

/* Shell's sort of plays by key (Ciura's gaps). */
static void sort_plays(kemet_move *m, int n) {
    static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (int g = 0; g < 8; g++) {
        int h = gaps[g];
        for (int i = h; i < n; i++) {
            kemet_move x = m[i];
            uint64_t kx = key_of(&x);
            int j = i;
            for (; j >= h && key_of(&m[j - h]) > kx; j -= h)
                m[j] = m[j - h];
            m[j] = x;
        }
    }
}

/* Every play of throw v in the list's order; 0 when none. */
static int sn_plays(const kmt_senet *sn, const kemet_pos *pos, int v,
                    kemet_move *out) {
    int me = pos->to - 1;
    if (waiting(sn, pos) && v != sn->wait)
        return 0;
    gen G = {.sn = sn, .out = out};
    G.own = pos->sq[me];
    G.opp = pos->sq[me ^ 1];
    G.occ = G.own | G.opp;
    G.triples = triples_of(sn, G.opp);
    G.need1 = must_enter(sn, pos);
    uint64_t sel = free_of(sn, selected(sn, pos, G.own), G.occ);
    bool can_off = may_bear_off(sn, G.own, pos->hand[me]);
    bool rethrow = pos->must && !G.need1; /* SP7: that piece, whole */
    int n = 0;
    if (entry_ok(sn, pos, v, G.own, G.occ)) {
        out[n] = (kemet_move){.n = 1};
        out[n].step[0] = (kemet_step){.from = KEMET_HAND, .to = 1};
        n++;
    }
    for (int dir = 0; dir < 2; dir++) {
        if (dir == 1 && (n || !sn->backward || G.need1))
            break;
        G.back = dir == 1;
        G.barred = barred_of(sn, G.own, G.opp, G.back);
        G.npieces = 0;
        for (uint64_t b = sel; b; b &= b - 1) {
            int s = kmt_ctz64(b), i = G.npieces++;
            G.piece[i] = s;
            for (int d = 1; d <= SN_MAX_VALUE; d++) {
                int t = 0;
                if (d <= v && (!rethrow || d == v)) {
                    t = G.back ? back_target(sn, s, d)
                               : fwd_target(sn, G.occ, s, d, can_off);
                    int lo = G.back ? t : s, hi = G.back ? s : t;
                    if (t == KEMET_OFF)
                        hi = SN_EXIT;
                    if (t && passes_block(G.triples, lo, hi))
                        t = 0;
                }
                G.target[i][d] = (uint8_t)t;
            }
        }
        G.out = out + n;
        G.n = 0;
        gen_parts(&G, 0, v);
        n += G.n;
    }
    if (sn->vacate) {
        /* BL6: plays that move a piece from a marked square go first */
        int k = 0;
        for (int i = 0; i < n; i++) {
            bool m = false;
            for (int j = 0; j < out[i].n; j++)
                m |= out[i].step[j].from != KEMET_HAND &&
                     (sn->marked & KMT_BIT(out[i].step[j].from));
            if (m)
                out[k++] = out[i];
        }
        if (k)
            n = k;
    }
    sort_plays(out, n);
    return n;
}

/* ---------------------------------------------------------------------------
 * The move list, the pre-throw choice, making a move
 * ------------------------------------------------------------------------ */

static int sn_moves(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, kemet_move *out) {
    const kmt_senet *sn = kmt_senet_of(r);
    int t = thr->v[0], n = 0;
    if (sn->split) {
        n = sn_plays(sn, pos, t, out);
    } else {
        uint8_t dest[SN_SQUARES + 1];
        bool back, entry;
        uint64_t froms = sn_froms(sn, pos, t, dest, &back, &entry);
        if (entry) {
            out[n] = (kemet_move){.n = 1};
            out[n++].step[0] = (kemet_step){.from = KEMET_HAND, .to = 1};
        }
        for (; froms; froms &= froms - 1) {
            int s = kmt_ctz64(froms);
            kmt_put_move(out, &n, s, dest[s]);
        }
    }
    if (n == 0)
        out[n++] = (kemet_move){0}; /* G3: the throw is lost */
    return n;
}

/* A play in the list's form: its steps in the written order. */
static bool sn_legal(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *move) {
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    if (!list)
        return false;
    int n = sn_moves(r, pos, thr, list);
    kemet_move m = *move;
    sort_steps(&m);
    bool ok = false;
    for (int i = 0; i < n && !ok; i++)
        ok = list[i].n == m.n &&
             memcmp(list[i].step, m.step, (size_t)m.n * sizeof m.step[0]) == 0;
    free(list);
    return ok;
}

/* K8: instead of throwing, a piece in the water may be moved to the
 * rescue square if it is empty; not during a rethrow (must=), nor for a
 * player still waiting (KO3). */
static int sn_prethrow(const kemet_rules *r, const kemet_pos *pos,
                       kemet_move *out) {
    const kmt_senet *sn = kmt_senet_of(r);
    int me = pos->to - 1;
    if (sn->water_kind != SN_WATER_STAY || pos->must || waiting(sn, pos) ||
        !(pos->sq[me] & KMT_BIT(sn->water)) ||
        ((pos->sq[0] | pos->sq[1]) & KMT_BIT(sn->rescue)))
        return 0;
    out[0] = kmt_move1(sn->water, sn->rescue);
    return 1;
}

/* The lowest empty square (JQ6); there is one, at most 20 pieces being on
 * the 30 squares. */
static inline int first_empty(uint64_t occ) {
    return kmt_ctz64(~occ & SN_TRACK);
}

/* JQ's points for the loser's pieces: 3 on 1-10, 2 on 11-20, 1 on 21-30,
 * and 3 for each in hand (SP12). */
static int points_of(uint64_t loser, int hand) {
    return 3 * kmt_popcount64(loser & SN_ROW1) +
           2 * kmt_popcount64(loser & SN_TRACK & ~SN_ROW1 & ~SN_ROW3) +
           kmt_popcount64(loser & SN_ROW3) + 3 * hand;
}

static int sn_points(const kemet_rules *r, const kemet_pos *pos) {
    (void)r;
    int loser = 2 - pos->result;
    return points_of(pos->sq[loser], pos->hand[loser]);
}

static ALWAYS_INLINE void sn_make(const kemet_rules *r, const kemet_pos *pos,
                                  const kemet_throw *thr,
                                  const kemet_move *move, kemet_pos *out,
                                  kemet_events *ev) {
    const kmt_senet *sn = kmt_senet_of(r);
    int me = pos->to - 1, who = me + 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1];
    int hand[2] = {pos->hand[0], pos->hand[1]};
    int off[2] = {pos->off[0], pos->off[1]};
    int to = pos->to, must = 0, result = KEMET_PLAYING;
    int v = thr && thr->n ? thr->v[0] : 0;
    int wait = pos->wait;
    /* KO3: a throw of V takes the thrower out of `wait`, moved or lost */
    if (sn->wait && v == sn->wait)
        wait &= ~(1 << me);
    bool water_piece =
        sn->water_kind == SN_WATER_STAY && (own & KMT_BIT(sn->water));

    if (move->n == 0) {
        if (must_enter(sn, pos)) {
            /* PC10: the entered piece goes back to hand */
            own &= ~KMT_BIT(1);
            hand[me]++;
            kmt_ev_add(ev, KEMET_EV_UNENTER, who, 1, 0);
        } else if (water_piece) {
            kmt_ev_add(ev, KEMET_EV_LOST, who, sn->water,
                       (own & ~KMT_BIT(sn->water)) == 0 && !hand[me]);
        } else {
            kmt_ev_add(ev, KEMET_EV_PASS, who, 0, 0);
        }
        to = 3 - to; /* G3, K9, PC9, JQ10: a lost throw ends the turn */
    } else if (v == 0) {
        /* K8: the rescue from the water; the turn ends */
        int f = move->step[0].from, d = move->step[0].to;
        own = (own & ~KMT_BIT(f)) | KMT_BIT(d);
        kmt_ev_add(ev, KEMET_EV_RESCUE, who, f, d);
        to = 3 - to;
    } else {
        kemet_move m = *move;
        sort_steps(&m); /* SP8: carried out in track order */
        bool entered = false, landed_again = false;
        int rethrow = 0;
        for (int i = 0; i < m.n; i++) {
            int f = m.step[i].from, d = m.step[i].to;
            if (f == KEMET_HAND) {
                hand[me]--;
                own |= KMT_BIT(d);
                entered = true;
                kmt_ev_add(ev, KEMET_EV_ENTER, who, 0, d);
                continue;
            }
            own &= ~KMT_BIT(f);
            kmt_ev_add(ev, KEMET_EV_MOVE, who, f, d);
            if (d == KEMET_OFF) {
                off[me] += sn->end == SN_END_SCORE;
                continue;
            }
            landed_again |= (sn->again_on >> d) & 1;
            if (d == sn->water && sn->water_kind == SN_WATER_FIRST_EMPTY) {
                /* JQ7: to the lowest empty square, its own start empty */
                int low = first_empty(own | opp);
                own |= KMT_BIT(low);
                kmt_ev_add(ev, KEMET_EV_DROWN, who, d, low);
                continue;
            }
            if (d == sn->water && sn->water_kind == SN_WATER_HAND) {
                hand[me]++; /* PC7: back to hand */
                kmt_ev_add(ev, KEMET_EV_DROWN, who, d, KEMET_HAND);
                continue;
            }
            if (opp & KMT_BIT(d)) {
                switch (sn->capture) {
                case SN_CAP_SWAP: /* K6: the two swap places */
                    opp = (opp & ~KMT_BIT(d)) | KMT_BIT(f);
                    kmt_ev_add(ev, KEMET_EV_SWAP, 3 - who, d, f);
                    break;
                case SN_CAP_REMOVE: /* BL4: out of the game */
                    opp &= ~KMT_BIT(d);
                    kmt_ev_add(ev, KEMET_EV_HIT, 3 - who, d, 0);
                    break;
                case SN_CAP_FIRST_EMPTY: {
                    /* JQ6: the lowest empty square after the move */
                    own |= KMT_BIT(d);
                    opp &= ~KMT_BIT(d);
                    int low = first_empty(own | opp);
                    opp |= KMT_BIT(low);
                    kmt_ev_add(ev, KEMET_EV_SENT, 3 - who, d, low);
                    break;
                }
                case SN_CAP_NONE: break; /* never: such a move is not legal */
                }
            }
            own |= KMT_BIT(d);
            if (d == sn->water)
                kmt_ev_add(ev, KEMET_EV_WATER, who, d, 0);
            if ((sn->rethrow & KMT_BIT(d)) && !rethrow)
                rethrow = d; /* SP7: the first step carried out */
        }
        bool again = ((sn->again_throw >> v) & 1) ||
                     (entered && sn->again_enter) || landed_again;
        int mine = kmt_popcount64(own) + hand[me];
        int theirs = kmt_popcount64(opp) + hand[me ^ 1];
        if (sn->end == SN_END_SCORE) {
            /* BL8: no piece left in play; more borne off wins */
            if (!mine && !theirs) {
                result = off[0] > off[1]   ? KEMET_WON1
                         : off[1] > off[0] ? KEMET_WON2
                                           : KEMET_DRAW;
                if (result == KEMET_DRAW)
                    kmt_ev_add(ev, KEMET_EV_DRAW, 0, 1, 0);
                else
                    kmt_ev_add(ev, KEMET_EV_WIN, result, 0, 0);
            }
        } else if (!mine || !theirs) {
            /* rule 14, PC rule 10, JQ11: the first with no piece left in
               play wins; a side whose last piece is removed loses (SP11) */
            result = who;
            kmt_ev_add(
                ev, KEMET_EV_WIN, who,
                sn->end == SN_END_POINTS ? points_of(opp, hand[me ^ 1]) : 0, 0);
        }
        bool in_water =
            sn->water_kind == SN_WATER_STAY && (own & KMT_BIT(sn->water));
        if (result != KEMET_PLAYING) {
            /* `to` as the turn rules give (the water ends the turn, SP3);
               `wait` no longer matters */
            wait = 0;
            if (!again || in_water)
                to = 3 - to;
        } else if (rethrow && (own & KMT_BIT(rethrow)) && !in_water) {
            /* Robinson: the same piece must use a rethrow at once; it
               replaces the move's other throw */
            must = rethrow;
            kmt_ev_add(ev, KEMET_EV_RETHROW, who, rethrow, 0);
        } else if (in_water) {
            to = 3 - to; /* K8: the water ends the turn */
        } else if (again) {
            kmt_ev_add(ev, KEMET_EV_AGAIN, who, 0, 0);
            if (entered && sn->enter == SN_ENTER_MUST)
                must = 1; /* rule 9, PC10: the next throw moves it */
        } else {
            to = 3 - to;
        }
    }
    out->sq[me] = own;
    out->sq[me ^ 1] = opp;
    out->heap[0] = out->heap[1] = 0;
    out->hand[0] = (uint8_t)hand[0];
    out->hand[1] = (uint8_t)hand[1];
    out->to = (uint8_t)to;
    out->must = (uint8_t)must;
    out->result = (uint8_t)result;
    out->wait = (uint8_t)(sn->wait ? wait : 0);
    kmt_pos_zero_off(out);
    if (sn->end == SN_END_SCORE) {
        out->off[0] = (uint8_t)off[0];
        out->off[1] = (uint8_t)off[1];
    }
}

static void sn_make_fn(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *move,
                       kemet_pos *out, kemet_events *ev) {
    sn_make(r, pos, thr, move, out, ev);
}

/* ---------------------------------------------------------------------------
 * The throw and the opening
 * ------------------------------------------------------------------------ */

static int sn_throws(const kemet_rules *r, const kemet_pos *pos,
                     kemet_throw *out, kemet_weight *weight,
                     kemet_weight *total) {
    (void)pos;
    const kmt_senet *sn = kmt_senet_of(r);
    for (int i = 0; i < sn->nvalues; i++) {
        kmt_throw_one(&out[i], sn->value[i]);
        out[i].sticks = (uint8_t)sn->nsticks;
        if (weight)
            weight[i] = sn->weight[i];
    }
    if (total)
        *total = sn->total;
    return sn->nvalues;
}

/* One throw's value, drawn as the fast generators draw it: a die by
 * kemet_rng_below, the sticks as the top bits of one draw (G2). */
static inline int sn_draw(const kmt_senet *sn, kemet_rng *rng,
                          unsigned *faces) {
    if (sn->die) {
        *faces = 0;
        return 1 + (int)kemet_rng_below(rng, (uint32_t)sn->die);
    }
    uint64_t draw = kemet_rng_next(rng);
    *faces = (unsigned)(draw >> (64 - sn->nsticks));
    int up = kmt_popcount64(*faces);
    return up ? up : sn->blank;
}

static void sn_roll(const kemet_rules *r, const kemet_pos *pos, kemet_rng *rng,
                    kemet_throw *out) {
    (void)pos;
    const kmt_senet *sn = kmt_senet_of(r);
    unsigned faces;
    kmt_throw_one(out, sn_draw(sn, rng, &faces));
    if (!sn->die) {
        out->sticks = (uint8_t)sn->nsticks;
        out->faces = (uint16_t)faces;
    }
}

/* The set-up (`setup`), who throws first (`first`), the wait (`wait`). */
static void sn_start(const kemet_rules *r, kemet_pos *pos) {
    const kmt_senet *sn = kmt_senet_of(r);
    *pos = (kemet_pos){0};
    for (int p = 0; p < 2; p++) {
        pos->sq[p] = sn->setup[p];
        pos->hand[p] = (uint8_t)(sn->pieces - kmt_popcount64(sn->setup[p]));
    }
    pos->to = 1;
    if (sn->wait)
        pos->wait = 3;
    if (sn->first == SN_FIRST_ONE_BLACK) {
        /* JQ1: black threw the first 1, played it with its front piece
           and throws again */
        int front = 63 - __builtin_clzll(sn->setup[1]);
        pos->sq[1] = (pos->sq[1] & ~KMT_BIT(front)) | KMT_BIT(front + 1);
        pos->to = 2;
        if (sn->wait == 1)
            pos->wait &= ~2;
    }
}

static int sn_opening(const kemet_rules *r, kemet_rng *rng, kemet_pos *pos,
                      kemet_throw *first, kemet_events *ev) {
    (void)first;
    const kmt_senet *sn = kmt_senet_of(r);
    unsigned faces;
    sn_start(r, pos);
    if (sn->first == SN_FIRST_HIGHER) {
        /* BL3: each throws once, equal throws again, the higher starts */
        int a, b;
        for (;;) {
            a = sn_draw(sn, rng, &faces);
            b = sn_draw(sn, rng, &faces);
            if (a != b)
                break;
            kmt_ev_add(ev, KEMET_EV_REOPEN, 0, a, b);
        }
        pos->to = a > b ? 1 : 2;
        kmt_ev_add(ev, KEMET_EV_STARTS, pos->to, a, b);
    } else if (sn->first == SN_FIRST_ONE_BLACK) {
        /* JQ1: the contestants throw in turn, the first at random, until
           one throws a 1 */
        int first_thrower = 1 + (int)kemet_rng_below(rng, 2), throws = 0;
        while (sn_draw(sn, rng, &faces) != 1)
            throws++;
        throws++;
        int one = (throws & 1) ? first_thrower : 3 - first_thrower;
        kmt_ev_add(ev, KEMET_EV_FIRST1, 2, throws > 255 ? 255 : throws, one);
    }
    return 0;
}

/* ---------------------------------------------------------------------------
 * The fast random playout (one piece a throw): the generic loop's draws
 * and counts, the k-th move of the list being the entry (if any) and then
 * the k-th lowest square of sn_froms
 * ------------------------------------------------------------------------ */
static void sn_playout(const kemet_rules *r, kmt_playout_state *st) {
    const kmt_senet *sn = kmt_senet_of(r);
    kemet_pos *pos = &st->pos;
    kemet_move rescue[1];
    while (kmt_playout_going(st)) {
        int mover = pos->to;
        if (!st->pending && sn_prethrow(r, pos, rescue) &&
            kemet_rng_below(st->pick, 2) == 1) {
            sn_make(r, pos, NULL, &rescue[0], pos, NULL);
            kmt_playout_count(st, mover);
            continue;
        }
        kemet_throw t;
        if (st->pending)
            t = st->thr;
        else
            sn_roll(r, pos, st->dice, &t);
        st->pending = false;
        uint8_t dest[SN_SQUARES + 1];
        bool back, entry;
        uint64_t froms = sn_froms(sn, pos, t.v[0], dest, &back, &entry);
        kemet_move m = {0};
        int n = kmt_popcount64(froms) + entry;
        if (n) {
            int k = n == 1 ? 0 : (int)kemet_rng_below(st->pick, (uint32_t)n);
            if (entry && k == 0) {
                m.n = 1;
                m.step[0] = (kemet_step){.from = KEMET_HAND, .to = 1};
            } else {
                for (k -= entry; k > 0; k--)
                    froms &= froms - 1;
                int s = kmt_ctz64(froms);
                m = kmt_move1(s, dest[s]);
            }
        }
        sn_make(r, pos, &t, &m, pos, NULL);
        kmt_playout_count(st, mover);
    }
}

/* ---------------------------------------------------------------------------
 * Entering a play step by step (kemet_next_steps), with `split`
 * ------------------------------------------------------------------------ */

/* The steps of `done` made on `pos`, the player still to move: what the
 * board shows in the middle of a play (no hit is resolved yet). */
static void sn_steps(const kemet_pos *pos, const kemet_move *m,
                     kemet_pos *out) {
    int me = pos->to - 1;
    *out = *pos;
    for (int i = 0; i < m->n; i++)
        if (m->step[i].from != KEMET_HAND)
            out->sq[me] &= ~KMT_BIT(m->step[i].from);
    for (int i = 0; i < m->n; i++) {
        int f = m->step[i].from, t = m->step[i].to;
        if (f == KEMET_HAND)
            out->hand[me]--;
        if (t != KEMET_OFF && t >= 1 && t <= SN_SQUARES) {
            out->sq[me] |= KMT_BIT(t);
            out->sq[me ^ 1] &= ~KMT_BIT(t);
        }
    }
}

static int step_value(const kemet_step *s) {
    if (s->from == KEMET_HAND)
        return 1;
    int t = s->to == KEMET_OFF ? SN_EXIT : s->to;
    return t > s->from ? t - s->from : s->from - t;
}

static int sn_next_steps(const kemet_rules *r, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *done,
                         kemet_move *next, kemet_throw *left, kemet_pos *mid) {
    int v = thr->v[0], spent = 0;
    for (int i = 0; i < done->n; i++)
        spent += step_value(&done->step[i]);
    kemet_move *plays = malloc(KEMET_MAX_MOVES * sizeof *plays);
    if (!plays)
        return KEMET_ENOMEM;
    int n = sn_moves(r, pos, thr, plays), found = 0, k = 0;
    bool complete = false;
    for (int i = 0; i < n; i++) {
        const kemet_move *p = &plays[i];
        if (p->n == 0)
            continue;
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
        sn_steps(pos, done, mid);
    return complete ? 0 : k;
}

/* ---------------------------------------------------------------------------
 * The position's own checks
 * ------------------------------------------------------------------------ */
static int sn_check(const kemet_rules *r, const kemet_pos *pos,
                    kemet_error *err) {
    const kmt_senet *sn = kmt_senet_of(r);
    int inplay[2];
    for (int p = 0; p < 2; p++) {
        if (sn->water && sn->water_kind != SN_WATER_STAY &&
            (pos->sq[p] & KMT_BIT(sn->water)))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "p%d: no piece stays on %d, the water (R6)", p + 1,
                            sn->water);
        inplay[p] = kmt_in_play(pos, p);
        if (sn->end == SN_END_SCORE && inplay[p] + pos->off[p] > sn->pieces)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "player %d has %d pieces in play and %d borne "
                            "off; %s has %d each",
                            p + 1, inplay[p], pos->off[p], r->spec, sn->pieces);
    }
    if (sn->end == SN_END_SCORE) {
        int lead = pos->off[0] > pos->off[1]   ? KEMET_WON1
                   : pos->off[1] > pos->off[0] ? KEMET_WON2
                                               : KEMET_DRAW;
        bool none = !inplay[0] && !inplay[1];
        if (pos->result == KEMET_PLAYING && none)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "no piece is left in play, so the game is over: "
                            "the position needs winner=%d",
                            lead == KEMET_DRAW ? 0 : lead);
        if (pos->result != KEMET_PLAYING && !none)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "winner= but pieces are still in play: the game "
                            "ends when none is left");
        if (pos->result != KEMET_PLAYING && pos->result != lead)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "winner=%d, but the scores are o1=%d and o2=%d",
                            pos->result == KEMET_DRAW ? 0 : pos->result,
                            pos->off[0], pos->off[1]);
        return KEMET_OK;
    }
    if (pos->result == KEMET_DRAW)
        return kmt_fail(err, KEMET_ESYNTAX, "%s has no draw (winner=0)",
                        r->rs->id);
    for (int p = 0; p < 2; p++)
        if (!inplay[p] && pos->result == KEMET_PLAYING)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "%s has no piece left in play, so the game is "
                            "over: the position needs a winner=",
                            r->rs->player[p]);
    if (pos->result == KEMET_WON1 || pos->result == KEMET_WON2) {
        int w = pos->result - 1;
        bool ok =
            !inplay[w] || (sn->capture == SN_CAP_REMOVE && !inplay[w ^ 1]);
        if (!ok || (!inplay[w] && !inplay[w ^ 1]))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "winner=%d: the winner is the first with no "
                            "piece left in play",
                            pos->result);
    }
    return KEMET_OK;
}

/* ---------------------------------------------------------------------------
 * Evaluation features of one side (eval.c; weights tuned by `kemet
 * tune`). A file's own reading uses the parts' features (sn_side); a
 * reading that another one's evaluation judges (a rule of a published
 * reading changed, kmt_rules_open_change) computes that reading's
 * features from its own parts instead, so that its network and weights
 * fit: Kendall's, Bell's, Jéquier's or Piccione's, each the same numbers
 * as that reading's own generator gives on its own parts
 * (tests/test_parts.c).
 * ------------------------------------------------------------------------ */

/* The chance of a throw of v. */
static inline double p_value(const kmt_senet *sn, int v) {
    for (int i = 0; i < sn->nvalues; i++)
        if (sn->value[i] == v)
            return (double)sn->weight[i] / (double)sn->total;
    return 0;
}

/* The parts' own: progress along the track (a piece in the water counted
 * on its rescue square), pieces gone (borne off, or the score), pieces in
 * hand, pieces in the water, guarded pieces (that cannot be hit), the
 * risk to the others (the chance a piece behind hits them, times what a
 * hit costs), and pieces past the stop square or on the last row. */
static const char *const sn_features[] = {"progress", "off",  "hand", "water",
                                          "guarded",  "risk", "home", NULL};
static const double sn_weights[] = {0.05, 1.5, -0.5, -0.6, 0.03, -0.075, 0.2};

static void sn_side(const kemet_rules *r, const kemet_pos *pos, int p,
                    double *f) {
    const kmt_senet *sn = kmt_senet_of(r);
    uint64_t own = pos->sq[p], opp = pos->sq[p ^ 1], occ = own | opp;
    f[1] = sn->end == SN_END_SCORE ? pos->off[p]
                                   : sn->pieces - kmt_in_play(pos, p);
    f[2] = pos->hand[p];
    /* this side's pieces that the opponent cannot hit */
    uint64_t guarded = sn->capture == SN_CAP_NONE ? own : protected_of(sn, own);
    int low = first_empty(occ);
    for (uint64_t b = own; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        if (sn->water_kind == SN_WATER_STAY && s == sn->water) {
            f[0] += sn->rescue;
            f[3] += 1;
            continue;
        }
        f[0] += s;
        f[6] += sn->stop ? s > sn->stop : s > 20;
        if (guarded & KMT_BIT(s)) {
            f[4] += 1;
            continue;
        }
        double loss = sn->capture == SN_CAP_REMOVE        ? s
                      : sn->capture == SN_CAP_FIRST_EMPTY ? s - low
                                                          : 0;
        for (int i = 0; i < sn->nvalues; i++) {
            int k = sn->value[i];
            if (k < s && (opp & KMT_BIT(s - k)))
                f[5] += (double)sn->weight[i] / (double)sn->total *
                        (sn->capture == SN_CAP_SWAP ? k : loss);
        }
    }
}

/* Kendall's (kendall.c): progress (a piece in the water counted on the
 * rescue square), borne off, in the water, guarded by a neighbour, the
 * swap risk of lone pieces up to the stop square (chance times squares
 * lost), and pieces past the stop square (26). */
static const char *const kendall_features[] = {
    "progress", "off", "water", "guarded", "risk", "home", NULL};
static const double kendall_weights[] = {0.05, 1.6, -0.6, 0.03, -0.075, 0.2};

static void kendall_side(const kemet_rules *r, const kemet_pos *pos, int p,
                         double *f) {
    const kmt_senet *sn = kmt_senet_of(r);
    uint64_t own = pos->sq[p], opp = pos->sq[p ^ 1];
    int stop = sn->stop ? sn->stop : 26;
    f[1] = sn->pieces - kmt_in_play(pos, p);
    for (uint64_t b = own; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        if (sn->water_kind == SN_WATER_STAY && s == sn->water) {
            f[0] += sn->rescue;
            f[2] += 1;
            continue;
        }
        f[0] += s;
        f[5] += s > stop;
        if (own & (KMT_BIT(s - 1) | KMT_BIT(s + 1))) {
            f[3] += 1;
        } else if (s <= stop) {
            for (int k = 1; k <= 5 && k < s; k++)
                if (opp & KMT_BIT(s - k))
                    f[4] += p_value(sn, k) * k;
        }
    }
}

/* Bell's (bell.c): the score, pieces on the board, progress, pieces on
 * safe squares, and the chance each other piece is hit. */
static const char *const bell_features[] = {"off",  "board", "progress",
                                            "safe", "risk",  NULL};
static const double bell_weights[] = {1.0, 0.6, 0.02, 0.1, -0.5};

static void bell_side(const kemet_rules *r, const kemet_pos *pos, int p,
                      double *f) {
    const kmt_senet *sn = kmt_senet_of(r);
    uint64_t own = pos->sq[p], opp = pos->sq[p ^ 1];
    f[0] = sn->end == SN_END_SCORE ? pos->off[p]
                                   : sn->pieces - kmt_in_play(pos, p);
    f[1] = kmt_popcount64(own);
    for (uint64_t b = own; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        f[2] += s;
        if (sn->safe & KMT_BIT(s)) {
            f[3] += 1;
            continue;
        }
        double hit = 0;
        for (int i = 0; i < sn->nvalues; i++) {
            int k = sn->value[i];
            if (k < s && (opp & KMT_BIT(s - k)))
                hit += (double)sn->weight[i] / (double)sn->total;
        }
        f[4] += hit;
    }
}

/* Jéquier's (jequier.c): progress, borne off, on the last row, held by
 * the start-row lock, guarded (a neighbour or a safe square), and the risk
 * to the others (chance times the squares a sending back loses). */
static const char *const jequier_features[] = {
    "progress", "off", "last", "locked", "guarded", "risk", NULL};
static const double jequier_weights[] = {0.05, 1.5, 0.1, -0.1, 0.05, -0.05};

static void jequier_side(const kemet_rules *r, const kemet_pos *pos, int p,
                         double *f) {
    const kmt_senet *sn = kmt_senet_of(r);
    uint64_t own = pos->sq[p], opp = pos->sq[p ^ 1], occ = own | opp;
    f[1] = sn->pieces - kmt_in_play(pos, p);
    f[2] = kmt_popcount64(own & SN_ROW3);
    f[3] = kmt_popcount64(own & SN_ROW1 & (occ >> 1));
    for (uint64_t b = own; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        f[0] += s;
        if ((sn->safe & KMT_BIT(s)) ||
            (own & (KMT_BIT(s - 1) | KMT_BIT(s + 1)))) {
            f[4] += 1;
            continue;
        }
        int low = first_empty(occ);
        for (int k = 1; k <= 6 && k < s; k++)
            if (opp & KMT_BIT(s - k))
                f[5] += p_value(sn, k) * (s - low);
    }
}

/* Piccione's (piccione.c): progress, borne off, in hand, and past the
 * water (27). */
static const char *const piccione_features[] = {"progress", "off", "hand",
                                                "home", NULL};
static const double piccione_weights[] = {0.05, 1.5, -0.5, 0.2};

static void piccione_side(const kemet_rules *r, const kemet_pos *pos, int p,
                          double *f) {
    const kmt_senet *sn = kmt_senet_of(r);
    uint64_t own = pos->sq[p];
    int water = sn->water ? sn->water : 27;
    f[1] = sn->pieces - kmt_popcount64(own) - pos->hand[p];
    f[2] = pos->hand[p];
    for (uint64_t b = own; b; b &= b - 1) {
        int s = kmt_ctz64(b);
        f[0] += s;
        f[3] += s > water;
    }
}

/* ---------------------------------------------------------------------------
 * Why a move is illegal, in the order a player would think of it, in the
 * parts' words. Called only for moves kemet_apply rejected.
 * ------------------------------------------------------------------------ */

/* The squares of a set as "26, 27 and 28" into buf. */
static void say_squares(uint64_t set, char *buf, size_t len) {
    size_t at = 0;
    int n = kmt_popcount64(set), i = 0;
    buf[0] = '\0';
    for (uint64_t b = set; b && at < len; b &= b - 1, i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%d",
                               i == 0       ? ""
                               : i == n - 1 ? " and "
                                            : ", ",
                               kmt_ctz64(b));
}

/* Why a step from f to d (a square or off) with a count c, forward, is
 * not legal on its own; false when it is. */
static bool explain_forward(const kmt_senet *sn, const kemet_rules *r,
                            const kemet_pos *pos, int f, int d, int c,
                            uint64_t leaving, char *buf, size_t len) {
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1], occ = own | opp;
    const char *them = r->rs->player[me ^ 1];
    bool can_off = may_bear_off(sn, own, pos->hand[me]);
    bool water_piece = sn->water_kind == SN_WATER_STAY && f == sn->water;
    bool house = (sn->houses & KMT_BIT(f)) != 0;
    char list[80];
    if (water_piece || house) {
        if (d != KEMET_OFF) {
            if (water_piece)
                snprintf(buf, len,
                         "a piece in the water (%d) moves only by bearing "
                         "off, or to %d instead of throwing",
                         sn->water, sn->rescue);
            else
                snprintf(buf, len,
                         "a piece on %d does not move on; it can only bear "
                         "off",
                         f);
            return true;
        }
    }
    if (d == KEMET_OFF) {
        if (sn->off_last_row && !may_bear_off(sn, own, pos->hand[me]) &&
            ((own & ~SN_ROW3) || pos->hand[me]))
            snprintf(buf, len,
                     "no piece bears off until all yours are on 21-30");
        else if (!can_off)
            snprintf(buf, len,
                     "no piece bears off while one of yours is on 1-10");
        else if (sn->stop && f < sn->stop)
            snprintf(buf, len, "a piece must stop on %d before it can bear off",
                     sn->stop);
        else if (!bears_off(sn, f, c) && sn->off == SN_OFF_EXACT)
            snprintf(buf, len,
                     "a piece bears off only by the exact count: from %d it "
                     "needs a %d",
                     f, SN_EXIT - f);
        else if (!bears_off(sn, f, c) && sn->off == SN_OFF_ANY)
            snprintf(buf, len, "%d and %d do not reach past 30", f, c);
        else if (!bears_off(sn, f, c) && !sn->off_count[f]) {
            say_squares(sn->houses | (sn->stop && sn->off_count[sn->stop]
                                          ? KMT_BIT(sn->stop)
                                          : 0),
                        list, sizeof list);
            snprintf(buf, len, "pieces bear off only from %s", list);
        } else if (!bears_off(sn, f, c))
            snprintf(buf, len, "from %d this count does not bear off", f);
        else if (passes_block(triples_of(sn, opp), f, SN_EXIT))
            snprintf(buf, len, "the piece would pass three %s pieces in a row",
                     them);
        else
            return false;
        return true;
    }
    if (sn->stop && f < sn->stop && f + c > sn->stop) {
        if (!sn->trap)
            snprintf(buf, len,
                     "no piece may pass square %d: it must stop there first",
                     sn->stop);
        else if (d != sn->water)
            snprintf(buf, len,
                     "a count that passes %d falls into the water: the move "
                     "is %d-%d",
                     sn->stop, f, sn->water);
        else if (occ & KMT_BIT(sn->water))
            snprintf(buf, len,
                     "square %d is taken, so the piece cannot fall into the "
                     "water",
                     sn->water);
        else if (passes_block(triples_of(sn, opp), f, d))
            snprintf(buf, len, "the piece would pass three %s pieces in a row",
                     them);
        else
            return false;
        return true;
    }
    if (f + c > SN_SQUARES)
        snprintf(buf, len, "%d and %d go past 30: that count bears off", f, c);
    else if (d - f != c)
        snprintf(buf, len, "%d-%d is %d square%s, but the throw is %d", f, d,
                 d - f, d - f == 1 ? "" : "s", c);
    else if ((own & ~leaving) & KMT_BIT(d))
        snprintf(buf, len, "square %d holds your own piece", d);
    else if ((opp & KMT_BIT(d)) && sn->capture == SN_CAP_NONE)
        snprintf(buf, len,
                 "square %d holds a %s piece: nothing is captured and no "
                 "square holds two",
                 d, them);
    else if ((opp & KMT_BIT(d)) && (sn->marked & KMT_BIT(d)))
        snprintf(buf, len,
                 "the %s piece on %d stands on a marked square and cannot be "
                 "hit",
                 them, d);
    else if ((opp & KMT_BIT(d)) && (sn->safe & KMT_BIT(d)))
        snprintf(buf, len,
                 "the %s piece on %d stands on a safe square and cannot be hit",
                 them, d);
    else if ((opp & KMT_BIT(d)) && (protected_of(sn, opp) & KMT_BIT(d)))
        snprintf(buf, len,
                 "the %s piece on %d is protected by its neighbour "
                 "on %d",
                 them, d, (opp & KMT_BIT(d - 1)) ? d - 1 : d + 1);
    else if (passes_block(triples_of(sn, opp), f, d))
        snprintf(buf, len, "the piece would pass three %s pieces in a row",
                 them);
    else
        return false;
    return true;
}

/* The same for a backward step. */
static bool explain_backward(const kmt_senet *sn, const kemet_rules *r,
                             const kemet_pos *pos, int f, int d, int c,
                             uint64_t leaving, char *buf, size_t len) {
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1];
    const char *them = r->rs->player[me ^ 1];
    if (!sn->backward)
        snprintf(buf, len, "pieces move only forward");
    else if (sn->water_kind == SN_WATER_STAY && f == sn->water)
        snprintf(buf, len, "a piece in the water never moves backward");
    else if (sn->back_not & KMT_BIT(f))
        snprintf(buf, len, "a piece on %d never moves backward", f);
    else if ((sn->back_water & KMT_BIT(f)) && d != sn->water)
        snprintf(buf, len,
                 "a piece on %d moving backward goes into the water (%d)", f,
                 sn->water);
    else if (!(sn->back_water & KMT_BIT(f)) && f - d != c)
        snprintf(buf, len, "%d-%d is %d square%s back, but the throw is %d", f,
                 d, f - d, f - d == 1 ? "" : "s", c);
    else if ((own & ~leaving) & KMT_BIT(d))
        snprintf(buf, len, "square %d holds your own piece", d);
    else if ((opp & KMT_BIT(d)) &&
             (sn->back_empty || sn->capture == SN_CAP_NONE))
        snprintf(buf, len, "a backward move goes only to an empty square");
    else if ((opp & KMT_BIT(d)) && (protected_of(sn, opp) & KMT_BIT(d)))
        snprintf(buf, len, "the %s piece on %d cannot be hit: it is %s", them,
                 d,
                 (sn->safe & KMT_BIT(d)) ? "on a safe square"
                                         : "protected by its neighbour");
    else if (passes_block(triples_of(sn, opp), d, f))
        snprintf(buf, len, "the piece would pass three %s pieces in a row",
                 them);
    else
        return false;
    return true;
}

static void sn_explain(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *move,
                       char *buf, size_t len) {
    const kmt_senet *sn = kmt_senet_of(r);
    int me = pos->to - 1;
    uint64_t own = pos->sq[me], opp = pos->sq[me ^ 1], occ = own | opp;
    bool prethrow = !thr || thr->n == 0;
    int t = prethrow ? 0 : thr->v[0];
    const char *device = sn->die ? "the die" : "the sticks";
    bool water_piece =
        sn->water_kind == SN_WATER_STAY && (own & KMT_BIT(sn->water));
    char list[80];

    if (move->n == 0) {
        snprintf(buf, len,
                 prethrow ? "pass is not a choice before throwing"
                          : "pass is allowed only when no move can use the "
                            "throw; this one can");
        return;
    }
    if (waiting(sn, pos) && (prethrow || t != sn->wait)) {
        snprintf(buf, len,
                 prethrow ? "you are still waiting for your first %d: throw "
                            "%s"
                          : "you are still waiting for your first %d: any "
                            "other throw is lost",
                 sn->wait, device);
        return;
    }
    if (prethrow) {
        int f = move->step[0].from, d = move->step[0].to;
        if (!water_piece)
            snprintf(buf, len,
                     sn->water_kind == SN_WATER_STAY
                         ? "throw %s first: a move before throwing is only "
                           "for a piece in the water, and you have none "
                           "there"
                         : "throw %s first: every move follows a throw",
                     device);
        else if (move->n != 1 || f != sn->water || d != sn->rescue)
            snprintf(buf, len,
                     "before throwing, the only move is taking your piece "
                     "from the water (%d) to %d",
                     sn->water, sn->rescue);
        else if (pos->must)
            snprintf(buf, len, "this is a rethrow: throw at once");
        else
            snprintf(buf, len,
                     "square %d is occupied, so the piece in the water cannot "
                     "go there: throw instead",
                     sn->rescue);
        return;
    }
    if (move->n > 1 && !sn->split) {
        snprintf(buf, len, "one piece moves per throw");
        return;
    }
    /* each step's piece */
    uint64_t from = 0;
    bool fwd = false, bwd = false;
    int sum = 0;
    for (int i = 0; i < move->n; i++) {
        const kemet_step *s = &move->step[i];
        if (s->from == KEMET_HAND) {
            if (sn->enter == SN_ENTER_NONE)
                snprintf(buf, len,
                         "no piece is in hand: every piece starts on the "
                         "board");
            else if (move->n > 1)
                snprintf(buf, len,
                         "an entry is a play of its own: a 1 used "
                         "whole");
            else if (t != 1)
                snprintf(buf, len,
                         "a piece enters only with a throw of 1, used whole");
            else if (pos->must)
                snprintf(buf, len, "this throw must move the piece on %d",
                         pos->must);
            else if (!pos->hand[me])
                snprintf(buf, len, "you have no piece in hand");
            else if (s->to != 1)
                snprintf(buf, len, "a piece enters on square 1: in-1");
            else if (occ & KMT_BIT(1))
                snprintf(buf, len, "square 1 is taken: no piece can enter");
            else if (water_piece)
                snprintf(buf, len,
                         "while your piece is in the water (%d) you may move "
                         "no other piece",
                         sn->water);
            else {
                say_squares(sn->marked, list, sizeof list);
                snprintf(buf, len,
                         "a piece of yours on a marked square (%s) can move "
                         "with this throw, so one of those must move",
                         list);
            }
            return;
        }
        if (!(own & KMT_BIT(s->from))) {
            snprintf(buf, len, "you have no piece on square %d", s->from);
            return;
        }
        if (from & KMT_BIT(s->from)) {
            snprintf(buf, len,
                     "each part moves a different piece: %d moves "
                     "twice",
                     s->from);
            return;
        }
        from |= KMT_BIT(s->from);
        int e = s->to == KEMET_OFF ? SN_EXIT : s->to;
        bool fall =
            s->to == sn->water && s->from < sn->stop && is_fall(sn, s->from, t);
        if (e > s->from || fall)
            fwd = true;
        else
            bwd = true;
        sum += step_value(s);
    }
    if (water_piece && (from & ~KMT_BIT(sn->water))) {
        snprintf(buf, len,
                 "while your piece is in the water (%d) you may move no other "
                 "piece",
                 sn->water);
        return;
    }
    if (pos->must && !must_enter(sn, pos) &&
        (move->n > 1 || move->step[0].from != pos->must)) {
        snprintf(buf, len,
                 "after landing on %d you must move the piece on %d with this "
                 "throw",
                 pos->must, pos->must);
        return;
    }
    for (uint64_t b = from; b; b &= b - 1) {
        int f = kmt_ctz64(b);
        if (sn->lock && f <= 10 && (occ & KMT_BIT(f + 1))) {
            snprintf(buf, len,
                     "the piece on %d waits while square %d ahead of it is "
                     "taken",
                     f, f + 1);
            return;
        }
    }
    if (fwd && bwd) {
        snprintf(buf, len, "all parts of a throw go the same way");
        return;
    }
    if (sn->split && sum != t) {
        snprintf(buf, len,
                 "the parts of a play use the whole throw: these make %d, the "
                 "throw is %d",
                 sum, t);
        return;
    }
    for (int i = 0; i < move->n; i++) {
        const kemet_step *s = &move->step[i];
        int c = sn->split ? step_value(s) : t;
        bool ok = bwd ? !explain_backward(sn, r, pos, s->from, s->to, c, from,
                                          buf, len)
                      : !explain_forward(sn, r, pos, s->from, s->to, c, from,
                                         buf, len);
        if (!ok)
            return;
    }
    if (must_enter(sn, pos)) {
        snprintf(buf, len,
                 "this throw must move the piece entered on 1 forward");
        return;
    }
    kemet_move *list2 = malloc(KEMET_MAX_MOVES * sizeof *list2);
    bool forward = false;
    if (list2) {
        kemet_pos p = *pos;
        int n = sn_moves(r, &p, thr, list2);
        for (int i = 0; i < n && !forward; i++)
            for (int j = 0; j < list2[i].n; j++) {
                const kemet_step *s = &list2[i].step[j];
                int e = s->to == KEMET_OFF ? SN_EXIT : s->to;
                forward |= s->from == KEMET_HAND || e > s->from ||
                           (s->to == sn->water && is_fall(sn, s->from, t));
            }
        free(list2);
    }
    if (bwd && forward) {
        snprintf(buf, len,
                 "a piece may move backward only when no piece can move "
                 "forward");
        return;
    }
    if (sn->vacate) {
        say_squares(sn->marked, list, sizeof list);
        if (!(from & sn->marked)) {
            snprintf(buf, len,
                     "a piece of yours on a marked square (%s) can move with "
                     "this throw, so one of those must move",
                     list);
            return;
        }
    }
    snprintf(buf, len,
             sn->split ? "two parts end on one square"
                       : "that move is not allowed");
}

/* ---------------------------------------------------------------------------
 * The board: the signs the parts give the squares
 * ------------------------------------------------------------------------ */

void kmt_senet_art(const kemet_rules *r, kemet_board_art *a) {
    const kmt_senet *sn = kmt_senet_of(r);
    const char *sign[SN_SQUARES + 1] = {0};
    for (int s = 1; s <= SN_SQUARES; s++)
        sign[s] = sn->sign[s][0] ? sn->sign[s] : NULL;
    kmt_art_senet_signs(r, a, sign);
}

/* The sign of square s in the terminal (ASCII, at most 3 letters) and on
 * the page (UTF-8), and what it means in words; NULL when the parts give
 * the square no rule. Traditional boards mark 15 and 26-30 (rule 1):
 * those keep their old names wherever some part gives them a rule. */
static const char *square_sign(const kmt_senet *sn, int s, const char **page) {
    static const char *const roman[6] = {"", "I", "II", "III", "IV", "V"};
    bool rule = s == sn->stop || s == sn->rescue ||
                ((sn->houses | sn->again_on | sn->rethrow) & KMT_BIT(s));
    if (s == sn->water) {
        *page = "≈≈";
        return "~~~";
    }
    if (sn->marked & KMT_BIT(s)) {
        *page = "×";
        return "X";
    }
    if (sn->safe & KMT_BIT(s)) {
        *page = "S";
        return "S";
    }
    if (!rule)
        return NULL;
    if (s == 15) {
        *page = "☥";
        return "ank";
    }
    if (s == 26) {
        *page = "nfr";
        return "nfr";
    }
    if (s >= 26) {
        *page = roman[SN_EXIT - s];
        return roman[SN_EXIT - s];
    }
    if (s == sn->stop) {
        *page = "■";
        return "#";
    }
    if (sn->rethrow & KMT_BIT(s)) {
        *page = "↻";
        return "R";
    }
    *page = "+";
    return "+";
}

/* What the parts make of square s, in words, for the legend. */
static void square_words(const kmt_senet *sn, int s, char *buf, size_t len) {
    size_t at = 0;
    buf[0] = '\0';
#define SAY(...)                                                               \
    do {                                                                       \
        if (at < len)                                                          \
            at += (size_t)snprintf(buf + at, len - at, "%s", at ? "; " : "");  \
        if (at < len)                                                          \
            at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__);           \
    } while (0)
    if (s == sn->water) {
        if (sn->water_kind == SN_WATER_STAY)
            SAY("the water: it ends the turn, and its piece leaves by "
                "bearing off or to %d before a throw",
                sn->rescue);
        else if (sn->water_kind == SN_WATER_FIRST_EMPTY)
            SAY("the water: a piece ending there goes to the first empty "
                "square");
        else
            SAY("the water: a piece ending there goes back to hand");
    }
    if (s == sn->rescue)
        SAY("where a piece in the water is moved to");
    if (s == sn->stop)
        SAY("every piece stops there");
    if (sn->houses & KMT_BIT(s)) {
        unsigned c = sn->off_count[s];
        if (c == (sn->values & 0xfe))
            SAY("off with any throw");
        else
            for (int v = 1; v <= SN_MAX_VALUE; v++)
                if ((c >> v) & 1)
                    SAY("off with %d", v);
    } else if (s == sn->stop && sn->off == SN_OFF_SQUARES && sn->off_count[s]) {
        for (int v = 1; v <= SN_MAX_VALUE; v++)
            if ((sn->off_count[s] >> v) & 1)
                SAY("off with %d", v);
    }
    if (sn->marked & KMT_BIT(s))
        SAY("marked: it protects%s", sn->vacate ? ", and moves first" : "");
    else if (sn->safe & KMT_BIT(s))
        SAY("safe: its piece cannot be hit");
    if (sn->again_on & KMT_BIT(s))
        SAY("a count ending there throws again");
    if (sn->rethrow & KMT_BIT(s))
        SAY("landing there, throw again with that piece");
#undef SAY
}

/* The terminal picture: three rows of ten in boustrophedon order (K1),
 * each square's sign, and a legend of what they mean, wrapped. */
static void build_picture(kmt_senet *sn) {
    static const char rule[] = "   +------+------+------+------+------+------+"
                               "------+------+------+------+\n";
    char *p = sn->picture;
    size_t len = sizeof sn->picture, at = 0;
#define PUT(...)                                                               \
    do {                                                                       \
        if (at < len)                                                          \
            at += (size_t)snprintf(p + at, len - at, __VA_ARGS__);             \
    } while (0)
    for (int row = 0; row < 3; row++) {
        PUT("%s", rule);
        PUT("%s", row == 1 ? "   |" : "-> |");
        for (int k = 0; k < 10; k++) {
            int s = row == 1 ? 20 - k : 10 * row + k + 1;
            PUT(" {%02d} |", s);
        }
        PUT("%s\n", row == 0 ? "" : row == 1 ? " <-" : " ->");
        PUT("   |");
        for (int k = 0; k < 10; k++) {
            int s = row == 1 ? 20 - k : 10 * row + k + 1;
            const char *page, *t = square_sign(sn, s, &page);
            PUT("%-2d%4s|", s, t ? t : "");
        }
        PUT("\n");
    }
    PUT("%s", rule);
    /* the legend: each sign once, with the squares it marks */
    char line[100] = "  ";
    size_t ll = 2;
    bool said[SN_SQUARES + 1] = {false};
    for (int s = 1; s <= SN_SQUARES; s++) {
        const char *page, *t = square_sign(sn, s, &page);
        if (!t || said[s])
            continue;
        char words[300], item[400], squares[80] = "";
        square_words(sn, s, words, sizeof words);
        /* squares with the same sign and the same words share an item */
        size_t sq = (size_t)snprintf(squares, sizeof squares, "%d", s);
        for (int u = s + 1; u <= SN_SQUARES; u++) {
            const char *pu, *tu = square_sign(sn, u, &pu);
            char wu[300];
            if (!tu || strcmp(tu, t) != 0)
                continue;
            square_words(sn, u, wu, sizeof wu);
            if (strcmp(wu, words) != 0)
                continue;
            said[u] = true;
            if (sq < sizeof squares)
                sq += (size_t)snprintf(squares + sq, sizeof squares - sq,
                                       ", %d", u);
        }
        snprintf(item, sizeof item, "%s = %s: %s.", t, squares, words);
        /* wrap at 74 columns, words whole */
        for (const char *w = item; *w;) {
            size_t wl = strcspn(w, " ");
            if (ll + 1 + wl > 74 && ll > 2) {
                PUT("%s\n", line);
                snprintf(line, sizeof line, "  ");
                ll = 2;
            }
            ll += (size_t)snprintf(line + ll, sizeof line - ll, " %.*s",
                                   (int)wl, w);
            if (ll >= sizeof line)
                ll = sizeof line - 1;
            w += wl;
            while (*w == ' ')
                w++;
        }
    }
    if (ll > 2)
        PUT("%s\n", line);
#undef PUT
    for (int s = 1; s <= SN_SQUARES; s++) {
        const char *page = NULL;
        if (square_sign(sn, s, &page))
            snprintf(sn->sign[s], sizeof sn->sign[s], "%s", page);
    }
}

/* ---------------------------------------------------------------------------
 * Setting the generator up
 * ------------------------------------------------------------------------ */
void kmt_senet_generic(kmt_ruleset *rs, kmt_senet *sn) {
    build_picture(sn);
    rs->board = sn->picture;
    rs->art = kmt_senet_art;
    rs->tables = sn->end != SN_END_SCORE; /* the score is in the position */
    rs->scores = sn->end == SN_END_SCORE;
    rs->has_hand = sn->enter != SN_ENTER_NONE;
    rs->has_must = sn->enter == SN_ENTER_MUST || sn->rethrow;
    rs->must_squares =
        (sn->enter == SN_ENTER_MUST ? KMT_BIT(1) : 0) | sn->rethrow;
    rs->start = sn_start;
    rs->opening = sn_opening;
    rs->check = sn_check;
    rs->throws = sn_throws;
    rs->roll = sn_roll;
    /* one value 1..max per throw, where the values run without a gap */
    rs->max_value = (int)sn->values == (1 << (sn->maxv + 1)) - 2 ? sn->maxv : 0;
    rs->prethrow = sn_prethrow;
    rs->moves = sn_moves;
    rs->make = sn_make_fn;
    rs->playout = sn->split ? NULL : sn_playout;
    rs->legal = sn->split ? sn_legal : NULL;
    rs->next_steps = sn->split ? sn_next_steps : NULL;
    switch (sn->features) {
    case SN_KENDALL:
        rs->side = kendall_side;
        rs->features = kendall_features;
        rs->weights = kendall_weights;
        break;
    case SN_BELL:
        rs->side = bell_side;
        rs->features = bell_features;
        rs->weights = bell_weights;
        break;
    case SN_JEQUIER:
        rs->side = jequier_side;
        rs->features = jequier_features;
        rs->weights = jequier_weights;
        break;
    case SN_PICCIONE:
        rs->side = piccione_side;
        rs->features = piccione_features;
        rs->weights = piccione_weights;
        break;
    case SN_GENERIC:
        rs->side = sn_side;
        rs->features = sn_features;
        rs->weights = sn_weights;
        break;
    }
    rs->points = sn->end == SN_END_POINTS ? sn_points : NULL;
    rs->explain = sn_explain;
}
