/* track_turn.c - steps, whole turns and playouts of the board-file
 * rulesets (track.h).
 */
#include "track.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Steps
 * ------------------------------------------------------------------------ */

/* Where the step of piece `s` (KEMET_HAND: a piece off the board) by value
 * v ends, in *f; returns OK or why it may not be made. A count that ends
 * on a line's or river's end lands there, then follows it: both ends must
 * be holes it may land on (ruling T1), the hole just left counting as
 * empty (G6); a piece brought back this turn lands only on open ones
 * (T6). */
int kmt_track_step_dest_in(const track *t, const turn *u, uint64_t opp, int s,
                           int v, int *f) {
    const kemet_pos *pos = &u->pos;
    int me = pos->to - 1, o = me ^ 1;
    uint64_t own = pos->sq[me];
    if (s == KEMET_HAND) {
        if (!pos->hand[me])
            return NO_PIECE;
        int d;
        if (t->R->enter == ENTER_HOME_BOX) {
            /* rules 14, 15: the home box hole the value names */
            if (v > NPIECES)
                return NO_ENTRY;
            d = t->homesq[me][v - 1];
        } else {
            /* L&J rule 7: an open space of the Home Row or 6, by exact
             * value from the Duat */
            if (v > t->S || !(t->b.enter & KMT_BIT(v)))
                return NO_ENTRY;
            d = v;
        }
        *f = d;
        if ((own | opp) & KMT_BIT(d))
            return t->R->enter == ENTER_HOME_BOX ? HOME_TAKEN : ENTER_TAKEN;
        return OK;
    }
    if (!(own & KMT_BIT(s)))
        return NO_PIECE;
    if (t->R->off_first && pos->hand[me])
        return OFF_FIRST; /* rule 15 */
    if (u->moved & KMT_BIT(s))
        return MOVED; /* rule 17 */
    int d = s + v;
    if (d > t->S)
        return BEYOND;
    int e = t->jump[me][d];
    *f = e;
    own &= ~KMT_BIT(s); /* ruling G6 */
    bool risen = (u->risen & KMT_BIT(s)) != 0;
    if (e != d) { /* T1: the end the count reaches is landed on first */
        if (own & KMT_BIT(d))
            return NEAR_OWN;
        if ((opp & KMT_BIT(d)) && risen)
            return NEAR_RISEN;
        if (opp & t->opp_safe[me] & KMT_BIT(d))
            return NEAR_SAFE;
    }
    if (own & KMT_BIT(e))
        return OWN; /* Washburne 11; L&J 4 */
    if ((opp & KMT_BIT(e)) && risen)
        return RISEN; /* L&J 7 */
    if (opp & t->opp_safe[me] & KMT_BIT(e))
        return SAFE; /* Washburne 13; L&J 4, 5, 7 */
    (void)o;
    return OK;
}

int kmt_track_step_dest(const track *t, const turn *u, int s, int v, int *f) {
    return kmt_track_step_dest_in(t, u, u->opp, s, v, f);
}

/* Whether player `me`'s home (the opponent's goal) is full. */
static bool home_full(const track *t, const kemet_pos *pos, int me) {
    uint64_t occ = pos->sq[me] | opp_in(t, me, pos->sq[me ^ 1]);
    for (int i = 0; i < NPIECES; i++)
        if (!(occ & KMT_BIT(t->homesq[me][i])))
            return false;
    return true;
}

/* An opponent's piece on the mover's square f (if any) is knocked off
 * (Washburne 12) or sent to the Duat (L&J 5). */
static void knock(const track *t, turn *u, int f, kemet_events *ev) {
    kemet_pos *pos = &u->pos;
    int o = pos->to ^ 3, q = t->other[pos->to - 1][f];
    if (q && (pos->sq[o - 1] & KMT_BIT(q))) {
        pos->sq[o - 1] &= ~KMT_BIT(q);
        pos->hand[o - 1]++;
        u->opp &= ~KMT_BIT(f);
        kmt_ev_add(ev, KEMET_EV_KNOCK, o, q, 0);
    }
}

/* Makes a legal step (from s to f) in u, with its consequences. */
void kmt_track_step_make(const track *t, turn *u, int s, int f, int vi,
                         kemet_events *ev) {
    kemet_pos *pos = &u->pos;
    int me = pos->to - 1, o = me ^ 1, who = me + 1;
    int v = u->left[vi];
    u->left[vi] = u->left[--u->nleft];
    if (s == KEMET_HAND) {
        pos->hand[me]--;
        kmt_ev_add(ev, KEMET_EV_ENTER, who, KEMET_HAND, f);
        if (t->R->risen_open)
            u->risen |= KMT_BIT(f); /* T6 */
    } else {
        pos->sq[me] &= ~KMT_BIT(s);
        kmt_ev_add(ev, KEMET_EV_MOVE, who, s, f);
        if (f != s + v) {
            /* T1: landed on the end the count reached, then followed */
            kmt_ev_add(ev, t->R->jump_event, who, s + v, f);
            knock(t, u, s + v, ev);
        }
        if (u->risen & KMT_BIT(s))
            u->risen = (u->risen & ~KMT_BIT(s)) | KMT_BIT(f);
    }
    pos->sq[me] |= KMT_BIT(f);
    if (t->R->throws == THROW_DICE)
        u->moved |= KMT_BIT(f);
    knock(t, u, f, ev);
    if (t->R->full_home_loses) {
        /* Rules 15.7, 16: a player with a piece off the board and the home
         * box full has nowhere to bring it back, and loses (whether the
         * knock-off or the filling came last). */
        int loser = (pos->hand[o] && home_full(t, pos, o))     ? o
                    : (pos->hand[me] && home_full(t, pos, me)) ? me
                                                               : -1;
        if (loser >= 0) {
            pos->result = (uint8_t)(2 - loser);
            kmt_ev_add(ev, KEMET_EV_WIN, 2 - loser, 0, 0);
            return;
        }
    }
    uint64_t in_goal = pos->sq[me] & t->goal[me];
    bool won = t->R->quick
                   ? in_goal != 0                        /* Quick mode */
                   : kmt_popcount64(in_goal) == NPIECES; /* rule 8, 16 */
    if (t->R->duat_win && !pos->sq[o])
        won = true; /* L&J rule 8: all the opponent's plinths in the Duat */
    if (won) {
        pos->result = (uint8_t)who;
        kmt_ev_add(ev, KEMET_EV_WIN, who, 0, 0);
    }
}

/* The legal steps of u: one per distinct value and piece. */

int kmt_track_steps(const track *t, const turn *u, step *out) {
    int n = 0;
    if (u->pos.result != KEMET_PLAYING || u->nleft == 0)
        return 0;
    int me = u->pos.to - 1;
    uint64_t opp = u->opp;
    uint64_t movers = u->pos.sq[me] & ~u->moved;
    if (t->R->off_first && u->pos.hand[me])
        movers = 0; /* rule 15 */
    for (int i = 0; i < u->nleft; i++) {
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= u->left[j] == u->left[i];
        if (dup)
            continue;
        int v = u->left[i], f;
        if (u->pos.hand[me] &&
            kmt_track_step_dest_in(t, u, opp, KEMET_HAND, v, &f) == OK)
            out[n++] = (step){(uint8_t)i, KEMET_HAND, (uint8_t)f, 0};
            /* The pieces' steps, all at once: kmt_track_step_dest_in's rule,
             * bitwise. Landing by count: not on an own piece nor on an
             * opponent where it is safe. */
#ifdef KEMET_CHECKS
        int n0 = n;
#endif
        uint64_t own = u->pos.sq[me], no_land = own | (opp & t->opp_safe[me]);
        uint64_t d = (movers << v) & t->path & ~no_land;
        uint64_t froms = ((d & ~t->jset[me]) >> v);
        for (uint64_t j = d & t->jset[me]; j; j &= j - 1) {
            /* ending on a line or river: landed on (above), then followed
             * to its other end, where it lands too, the square just left
             * counting as empty (T1, G6) */
            int e = t->jump[me][kmt_ctz64(j)], s = kmt_ctz64(j) - v;
            if (!((no_land & ~KMT_BIT(s)) & KMT_BIT(e)))
                froms |= KMT_BIT(s);
        }
        for (uint64_t b = froms & u->risen; b; b &= b - 1) {
            /* T6: a piece brought back this turn lands on open spaces */
            int s = kmt_ctz64(b), e = t->jump[me][s + v];
            uint64_t full = (own | opp) & ~KMT_BIT(s);
            if (full & (KMT_BIT(s + v) | KMT_BIT(e)))
                froms &= ~KMT_BIT(s);
        }
        for (; froms; froms &= froms - 1) {
            int s = kmt_ctz64(froms);
            out[n++] = (step){(uint8_t)i, (uint8_t)s, t->jump[me][s + v],
                              (uint8_t)(s + v)};
#ifdef KEMET_CHECKS
            assert(kmt_track_step_dest_in(t, u, opp, s, v, &f) == OK &&
                   f == t->jump[me][s + v]);
#endif
        }
#ifdef KEMET_CHECKS
        int k = 0; /* and nothing kmt_track_step_dest_in allows is missing */
        for (uint64_t b = movers; b; b &= b - 1)
            k += kmt_track_step_dest_in(t, u, opp, kmt_ctz64(b), v, &f) == OK;
        assert(k == n - n0);
#endif
    }
    return n;
}

/* Begins a turn for `thr` on the position already in u->pos. */
void kmt_track_turn_values(const track *t, const kemet_throw *thr, turn *u) {
    int me = u->pos.to - 1;
    u->moved = 0;
    u->risen = 0;
    u->opp = opp_in(t, me, u->pos.sq[me ^ 1]);
    u->nleft = 0;
    for (int i = 0; i < thr->n; i++)
        if (thr->only[i] == 0 || thr->only[i] == u->pos.to)
            u->left[u->nleft++] = thr->v[i];
}

void kmt_track_turn_begin(const track *t, const kemet_pos *pos,
                          const kemet_throw *thr, turn *u) {
    u->pos = *pos;
    kmt_track_turn_values(t, thr, u);
}

/* The end of a turn: the sticks pass (no rule gives another throw). */
static void turn_end(kemet_pos *pos) {
    pos->to = (uint8_t)(3 - pos->to);
    pos->must = 0;
}

/* ---------------------------------------------------------------------------
 * Complete turns: depth-first over the steps, one entry per distinct
 * outcome (the first step order found), with states already seen pruned.
 * ------------------------------------------------------------------------ */
#define SEEN_BITS 14 /* the most room for states seen, 2^14 slots */

typedef struct walk {
    const track *t;
    kemet_move *out;
    int n, overflow;
    kemet_pos results[KEMET_MAX_MOVES];
    int16_t index[2 * KEMET_MAX_MOVES]; /* open addressing into results */
    uint32_t index_mask;                /* the slots of index in use */
    uint32_t seen_mask; /* the slots in use: more for more values */
    struct seen {
        kemet_pos pos;
        uint64_t moved, risen;
        uint64_t left; /* the values left, sorted, one per byte */
    } seen[1 << SEEN_BITS];
    /* whether each slot of seen holds a state: apart, so that a new walk
     * clears a byte a slot rather than the whole slot */
    bool used[1 << SEEN_BITS];
} walk;

static uint64_t hash_pos(const kemet_pos *p, uint64_t extra) {
    uint64_t h = p->sq[0] * 0x9e3779b97f4a7c15ULL ^ p->sq[1];
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL;
    h ^= (uint64_t)p->hand[0] << 8 ^ (uint64_t)p->hand[1] << 16 ^
         (uint64_t)p->result << 24 ^ extra;
    h = (h ^ (h >> 32)) * 0x94d049bb133111ebULL;
    return h ^ (h >> 29);
}

static uint64_t left_key(const turn *u) {
    uint8_t v[KEMET_MAX_VALUES];
    memcpy(v, u->left, (size_t)u->nleft);
    for (int i = 1; i < u->nleft; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint8_t x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    uint64_t k = 0;
    for (int i = 0; i < u->nleft; i++)
        k = k << 8 | v[i];
    return k;
}

/* Whether this state was seen before (and marks it seen). */
static bool seen_before(walk *w, const turn *u) {
    uint64_t lk = left_key(u);
    uint64_t h = hash_pos(&u->pos, (lk * 31 + u->moved) * 31 + u->risen);
    for (int probe = 0; probe < 16; probe++) {
        uint64_t k = (h + (uint64_t)probe) & w->seen_mask;
        struct seen *s = &w->seen[k];
        if (!w->used[k]) {
            *s = (struct seen){u->pos, u->moved, u->risen, lk};
            w->used[k] = true;
            return false;
        }
        if (s->left == lk && s->moved == u->moved && s->risen == u->risen &&
            memcmp(&s->pos, &u->pos, sizeof u->pos) == 0)
            return true;
    }
    return false; /* table crowded here: explore again (still correct) */
}

static void index_put(walk *w, int i) {
    for (uint64_t k = hash_pos(&w->results[i], 0);; k++) {
        int16_t *slot = &w->index[k & w->index_mask];
        if (*slot < 0) {
            *slot = (int16_t)i;
            return;
        }
    }
}

static void add_turn(walk *w, const kemet_move *m, const kemet_pos *res) {
    if (2 * ((uint32_t)w->n + 1) > w->index_mask + 1 &&
        w->index_mask < 2 * KEMET_MAX_MOVES - 1) {
        w->index_mask = 2 * w->index_mask + 1;
        memset(w->index, 0xff,
               ((size_t)w->index_mask + 1) * sizeof w->index[0]);
        for (int i = 0; i < w->n; i++)
            index_put(w, i);
    }
    uint64_t h = hash_pos(res, 0);
    for (uint64_t k = h;; k++) {
        int16_t *slot = &w->index[k & w->index_mask];
        if (*slot < 0) {
            if (w->n == KEMET_MAX_MOVES) {
                w->overflow = 1;
                return;
            }
            *slot = (int16_t)w->n;
            w->results[w->n] = *res;
            if (w->out)
                w->out[w->n] = *m;
            w->n++;
            return;
        }
        if (memcmp(&w->results[*slot], res, sizeof *res) == 0)
            return;
    }
}

static void dfs(walk *w, const turn *u, kemet_move *m) {
    step st[KEMET_MAX_VALUES * (NPIECES + 1)];
    int n = kmt_track_steps(w->t, u, st);
    if (n == 0) {
        add_turn(w, m, &u->pos);
        return;
    }
    if (seen_before(w, u))
        return;
    for (int i = 0; i < n; i++) {
        turn next = *u;
        kmt_track_step_make(w->t, &next, st[i].from, st[i].to, st[i].vi, NULL);
        m->step[m->n++] = (kemet_step){st[i].from, st[i].to, st[i].end};
        dfs(w, &next, m);
        m->n--;
    }
}

/* Whether the written step `w` can be the step from w->from by value v
 * resting on f: its end, when written, is the one the count reaches (or
 * the resting square itself for a step that follows no line). */
static bool step_fits(const kemet_step *w, int v, int f) {
    if (w->to != f)
        return false;
    if (!w->via)
        return true;
    return w->via == (w->from == KEMET_HAND ? f : w->from + v);
}

/* How a step is written (docs/notation.md): one that follows a line or
 * river names the end its count reached (FROM-END-TO); a plain count
 * onto a hole to which a line or river also leads names its resting hole
 * twice (FROM-TO-TO, `7-9-9`); every other step is FROM-TO. Each step
 * in its own form, whatever the rest of the turn. `w->via` holds the end
 * the count reached, or 0 for an entry from hand. */
static void write_step(const track *t, int me, kemet_step *w) {
    if (w->from == KEMET_HAND || w->to == KEMET_OFF || w->via != w->to)
        return;
    if (!(t->target[me] & KMT_BIT(w->to)))
        w->via = 0;
}

static void write_steps(const track *t, int me, kemet_move *m) {
    for (int k = 0; k < m->n; k++)
        write_step(t, me, &m->step[k]);
}

/* The readings of a written move (kmt_track_readings), depth-first. */
typedef struct readings {
    const track *t;
    const kemet_move *move;
    bool whole, first_only;
    int found;                     /* 0, 1, 2: two outcomes or more */
    uint8_t vals[KEMET_MAX_STEPS]; /* the first reading's values */
    turn end;                      /* the first reading's state after */
    kemet_move cur, a, b;          /* the steps with their ends */
} readings;

static bool same_outcome(const turn *a, const turn *b, bool whole) {
    if (memcmp(&a->pos, &b->pos, sizeof a->pos) != 0)
        return false;
    return whole || (left_key(a) == left_key(b) && a->moved == b->moved &&
                     a->risen == b->risen);
}

static void read_steps(readings *R, const turn *u, int k, uint8_t *vals) {
    if (R->found > 1 || (R->first_only && R->found))
        return;
    if (k == R->move->n) {
        step st[KEMET_MAX_VALUES * (NPIECES + 1)];
        if (R->whole && kmt_track_steps(R->t, u, st) != 0)
            return;
        R->cur.n = (uint8_t)k;
        if (!R->found) {
            R->found = 1;
            R->end = *u;
            R->a = R->cur;
            memcpy(R->vals, vals, (size_t)k);
        } else if (!same_outcome(&R->end, u, R->whole)) {
            R->found = 2;
            R->b = R->cur;
        }
        return;
    }
    if (u->pos.result != KEMET_PLAYING)
        return;
    const kemet_step *w = &R->move->step[k];
    if (w->from == KEMET_OFF)
        return;
    for (int i = 0; i < u->nleft; i++) {
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= u->left[j] == u->left[i];
        int f, v = u->left[i];
        if (dup || kmt_track_step_dest(R->t, u, w->from, v, &f) != OK ||
            !step_fits(w, v, f))
            continue;
        turn next = *u;
        vals[k] = (uint8_t)v;
        R->cur.step[k] =
            (kemet_step){w->from, (uint8_t)f,
                         (uint8_t)(w->from == KEMET_HAND ? 0 : w->from + v)};
        kmt_track_step_make(R->t, &next, w->from, f, i, NULL);
        read_steps(R, &next, k + 1, vals);
    }
}

/* Follows the written steps of `move` from the start of turn u: every
 * choice of values (and, for a step written FROM-TO, of landing there or
 * following a line or river to there) that makes them legal steps. */
static void read_move(const track *t, const turn *u, const kemet_move *move,
                      bool whole, bool first_only, readings *R) {
    uint8_t vals[KEMET_MAX_STEPS];
    R->t = t;
    R->move = move;
    R->whole = whole;
    R->first_only = first_only;
    R->found = 0;
    R->cur.n = 0;
    if (move->n > KEMET_MAX_STEPS)
        return;
    read_steps(R, u, 0, vals);
}

int kmt_track_readings(const track *t, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *move,
                       bool whole, kemet_move *a, kemet_move *b) {
    turn u;
    readings R;
    kmt_track_turn_begin(t, pos, thr, &u);
    read_move(t, &u, move, whole, false, &R);
    if (a && R.found) {
        *a = R.a;
        write_steps(t, pos->to - 1, a);
    }
    if (b && R.found > 1) {
        *b = R.b;
        write_steps(t, pos->to - 1, b);
    }
    return R.found;
}

/* Whether a written step uses FROM-TO-TO where no line or river leads to
 * TO: a form earlier versions wrote (`18-23-23`), malformed today. */
static bool earlier_form(const track *t, int me, const kemet_step *w) {
    return w->via && w->via == w->to && w->to != KEMET_OFF &&
           w->to <= KEMET_MAX_SQUARE && !(t->target[me] & KMT_BIT(w->to));
}

bool kmt_track_malformed(const kemet_rules *r, const kemet_pos *pos,
                         const kemet_move *move, int *at) {
    for (int k = 0; k < move->n; k++)
        if (earlier_form(T(r), pos->to - 1, &move->step[k])) {
            if (at)
                *at = k;
            return true;
        }
    return false;
}

void kmt_track_upgrade(const kemet_rules *r, const kemet_pos *pos,
                       kemet_move *move) {
    for (int k = 0; k < move->n; k++)
        if (earlier_form(T(r), pos->to - 1, &move->step[k]))
            move->step[k].via = 0;
}

/* Every complete turn into w (w->out NULL: the outcomes alone). */
static void walk_turns(walk *w, const kemet_rules *r, const turn *u,
                       kemet_move *out) {
    w->t = T(r);
    w->out = out;
    w->n = 0;
    w->overflow = 0;
    w->index_mask = 63;
    memset(w->index, 0xff, ((size_t)w->index_mask + 1) * sizeof w->index[0]);
    int bits = 2 * u->nleft + 4;
    bits = bits < 6 ? 6 : bits > SEEN_BITS ? SEEN_BITS : bits;
    w->seen_mask = (1u << bits) - 1;
    memset(w->used, 0, ((size_t)w->seen_mask + 1) * sizeof w->used[0]);
    kemet_move m = {0};
    dfs(w, u, &m); /* no step at all: the lone empty turn, `pass` (G3) */
}

int kmt_track_moves(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, kemet_move *out) {
    walk w; /* about 1.1 MiB of stack; nothing is allocated */
    turn u;
    kmt_track_turn_begin(T(r), pos, thr, &u);
    walk_turns(&w, r, &u, out);
    if (w.overflow)
        return KEMET_ERANGE;
    for (int i = 0; i < w.n; i++)
        write_steps(w.t, pos->to - 1, &out[i]);
    return w.n;
}

/* The outcomes the walk found, each as kmt_track_make leaves it (and
 * with `moves`, the moves as kmt_track_moves lists them). */
int kmt_track_afters(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr, kemet_move *moves,
                     kemet_pos *out) {
    walk w;
    turn u;
    kmt_track_turn_begin(T(r), pos, thr, &u);
    walk_turns(&w, r, &u, moves);
    if (w.overflow)
        return KEMET_ERANGE;
    for (int i = 0; i < w.n; i++) {
        if (moves)
            write_steps(w.t, pos->to - 1, &moves[i]);
        out[i] = w.results[i];
        turn_end(&out[i]);
    }
    return w.n;
}

int kmt_track_next_steps(const kemet_rules *r, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *done,
                         kemet_move *next, kemet_throw *left, kemet_pos *mid) {
    const track *t = T(r);
    turn u;
    readings R;
    kmt_track_turn_begin(t, pos, thr, &u);
    read_move(t, &u, done, false, false, &R);
    if (R.found != 1)
        return KEMET_EILLEGAL; /* no reading, or two that differ */
    turn *end = &R.end;
    if (mid)
        *mid = end->pos;
    if (left) { /* the values left, all the mover's to spend */
        *left = (kemet_throw){0};
        for (int i = 0; i < end->nleft; i++) {
            left->v[left->n] = end->left[i];
            left->only[left->n++] = 0;
        }
        kmt_throw_sort(left);
    }
    step st[KEMET_MAX_VALUES * (NPIECES + 1)];
    int n = kmt_track_steps(t, end, st), m = 0;
    for (int i = 0; i < n; i++) {
        kemet_move one = {1, {{st[i].from, st[i].to, st[i].end}}};
        write_step(t, pos->to - 1, &one.step[0]);
        bool dup = false;
        for (int j = 0; j < m && !dup; j++)
            dup = kemet_move_equal(&next[j], &one);
        if (!dup)
            next[m++] = one;
    }
    return m;
}

bool kmt_track_legal(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *move) {
    /* exactly one outcome: a short FROM-TO that could mean two is refused,
     * and FROM-TO-TO is read only onto a hole a line or river leads to
     * (docs/notation.md) */
    if (kmt_track_malformed(r, pos, move, NULL))
        return false;
    return kmt_track_readings(T(r), pos, thr, move, true, NULL, NULL) == 1;
}

void kmt_track_make(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, const kemet_move *move,
                    kemet_pos *out, kemet_events *ev) {
    const track *t = T(r);
    turn u;
    readings R;
    kmt_track_turn_begin(T(r), pos, thr, &u);
    if (move->n == 0)
        kmt_ev_add(ev, KEMET_EV_PASS, pos->to, 0, 0);
    read_move(t, &u, move, true, true, &R);
    assert(R.found); /* the caller passes a legal move */
    turn end = R.found ? R.end : u;
    if (R.found && ev) {
        /* again, step by step, for the events */
        for (int k = 0; k < move->n; k++) {
            int i = 0;
            while (u.left[i] != R.vals[k])
                i++;
            kmt_track_step_make(t, &u, R.a.step[k].from, R.a.step[k].to, i, ev);
        }
        end = u;
    }
    turn_end(&end.pos);
    *out = end.pos;
}

/* Plays the rest of a turn begun in u at random, step by step (each step
 * uniform among the legal steps), recording the steps in *out. */
static void random_steps(const track *t, turn *u, kemet_rng *pick,
                         kemet_move *out) {
    step st[KEMET_MAX_VALUES * (NPIECES + 1)];
    int n;
    out->n = 0;
    while ((n = kmt_track_steps(t, u, st)) > 0) {
        int i = n > 1 ? (int)kemet_rng_below(pick, (uint32_t)n) : 0;
        out->step[out->n++] = (kemet_step){st[i].from, st[i].to, st[i].end};
        kmt_track_step_make(t, u, st[i].from, st[i].to, st[i].vi, NULL);
    }
    turn_end(&u->pos);
}

void kmt_track_random_turn(const kemet_rules *r, const kemet_pos *pos,
                           const kemet_throw *thr, kemet_rng *pick,
                           kemet_move *out) {
    turn u;
    kmt_track_turn_begin(T(r), pos, thr, &u);
    random_steps(T(r), &u, pick, out);
}

/* The fast playout: the generic loop's draws (no pre-throw choices here),
 * keeping the position in the turn as it is built instead of making the
 * move again. */
void kmt_track_playout(const kemet_rules *r, kmt_playout_state *st) {
    const track *t = T(r);
    kemet_move m;
    turn u;
    u.pos = st->pos;
    kmt_playout_state L = *st;
    L.pos = u.pos;
    while (kmt_playout_going(&L)) {
        int mover = u.pos.to;
        kemet_throw thr;
        if (L.pending)
            thr = L.thr;
        else
            kmt_track_roll(r, &u.pos, L.dice, &thr);
        L.pending = false;
        kmt_track_turn_values(t, &thr, &u);
        random_steps(t, &u, L.pick, &m);
        /* what kmt_playout_going and _count read of the position */
        L.pos.to = u.pos.to;
        L.pos.result = u.pos.result;
        kmt_playout_count(&L, mover);
    }
    L.pos = u.pos;
    *st = L;
}
