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
 * v ends, in *f; returns OK or why it may not be made. */
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
    if (own & KMT_BIT(e))
        return OWN; /* Washburne 11; L&J 4 */
    if ((opp & KMT_BIT(e)) && (t->safe[o] & KMT_BIT(t->other[me][e])))
        return SAFE; /* Washburne 13; L&J 4, 5, 7 */
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
    } else {
        pos->sq[me] &= ~KMT_BIT(s);
        kmt_ev_add(ev, KEMET_EV_MOVE, who, s, f);
        if (f != s + v)
            kmt_ev_add(ev, t->R->jump_event, who, s + v, f);
    }
    pos->sq[me] |= KMT_BIT(f);
    if (t->R->throws == THROW_DICE)
        u->moved |= KMT_BIT(f);
    int q = t->other[me][f];
    if (q && (pos->sq[o] & KMT_BIT(q))) {
        /* Washburne 12: knocked off; L&J 5: to the Duat */
        pos->sq[o] &= ~KMT_BIT(q);
        pos->hand[o]++;
        u->opp &= ~KMT_BIT(f);
        kmt_ev_add(ev, KEMET_EV_KNOCK, o + 1, q, 0);
    }
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
            out[n++] = (step){(uint8_t)i, KEMET_HAND, (uint8_t)f};
            /* The pieces' steps, all at once: kmt_track_step_dest_in's rule,
             * bitwise. Landing by count (no line or river there): not on an own
             * piece nor on an opponent where it is safe. */
#ifdef KEMET_CHECKS
        int n0 = n;
#endif
        uint64_t own = u->pos.sq[me], no_land = own | (opp & t->opp_safe[me]);
        uint64_t d = (movers << v) & t->path;
        uint64_t froms = ((d & ~t->jset[me] & ~no_land) >> v);
        for (uint64_t j = d & t->jset[me]; j; j &= j - 1) {
            /* ending on a line or river: judged where it rests, the
             * square just left counting as empty (G6) */
            int e = t->jump[me][kmt_ctz64(j)], s = kmt_ctz64(j) - v;
            if (!((no_land & ~KMT_BIT(s)) & KMT_BIT(e)))
                froms |= KMT_BIT(s);
        }
        for (; froms; froms &= froms - 1) {
            int s = kmt_ctz64(froms);
            out[n++] = (step){(uint8_t)i, (uint8_t)s, t->jump[me][s + v]};
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
#define SEEN_SLOTS 1024 /* power of two */

typedef struct walk {
    const track *t;
    kemet_move *out;
    int n, overflow;
    kemet_pos results[KEMET_MAX_MOVES];
    int16_t index[2 * KEMET_MAX_MOVES]; /* open addressing into results */
    struct seen {
        kemet_pos pos;
        uint64_t moved;
        uint64_t left; /* the values left, sorted, one per byte */
        bool used;
    } seen[SEEN_SLOTS];
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
    uint64_t h = hash_pos(&u->pos, lk * 31 + u->moved);
    for (int probe = 0; probe < 16; probe++) {
        struct seen *s = &w->seen[(h + (uint64_t)probe) & (SEEN_SLOTS - 1)];
        if (!s->used) {
            *s = (struct seen){u->pos, u->moved, lk, true};
            return false;
        }
        if (s->left == lk && s->moved == u->moved &&
            memcmp(&s->pos, &u->pos, sizeof u->pos) == 0)
            return true;
    }
    return false; /* table crowded here: explore again (still correct) */
}

static void add_turn(walk *w, const kemet_move *m, const kemet_pos *res) {
    uint64_t h = hash_pos(res, 0);
    for (uint64_t k = h;; k++) {
        int16_t *slot = &w->index[k & (2 * KEMET_MAX_MOVES - 1)];
        if (*slot < 0) {
            if (w->n == KEMET_MAX_MOVES) {
                w->overflow = 1;
                return;
            }
            *slot = (int16_t)w->n;
            w->results[w->n] = *res;
            w->out[w->n++] = *m;
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
        m->step[m->n++] = (kemet_step){st[i].from, st[i].to};
        dfs(w, &next, m);
        m->n--;
    }
}

int kmt_track_moves(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, kemet_move *out) {
    walk w; /* about 300 KiB of stack; nothing is allocated */
    w.t = T(r);
    w.out = out;
    w.n = 0;
    w.overflow = 0;
    memset(w.index, 0xff, sizeof w.index);
    memset(w.seen, 0, sizeof w.seen);
    turn u;
    kmt_track_turn_begin(T(r), pos, thr, &u);
    kemet_move m = {0};
    dfs(&w, &u, &m); /* no step at all: the lone empty turn, `pass` (G3) */
    return w.overflow ? KEMET_ERANGE : w.n;
}

/* Follows the written steps of `move` from step k on: finds the values
 * that make them legal steps (into vals[k..]) and the state after them
 * (into *end). With `whole`, the steps must also make a complete turn (no
 * value left that could be used); else a beginning of one is enough.
 * False when no choice of values works. One written step can be made with
 * two different values (a river or line can bring two counts to one
 * hole), so this searches; every choice that works gives the same
 * position, since a step's effects depend only on where it starts and
 * rests. */
static bool assign(const track *t, const turn *u, const kemet_move *move, int k,
                   bool whole, uint8_t *vals, turn *end) {
    if (k == move->n) {
        step st[KEMET_MAX_VALUES * (NPIECES + 1)];
        if (whole && kmt_track_steps(t, u, st) != 0)
            return false;
        *end = *u;
        return true;
    }
    if (u->pos.result != KEMET_PLAYING)
        return false;
    int s = move->step[k].from, to = move->step[k].to;
    for (int i = 0; i < u->nleft; i++) {
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= u->left[j] == u->left[i];
        int f;
        if (dup || s == KEMET_OFF ||
            kmt_track_step_dest(t, u, s, u->left[i], &f) != OK || f != to)
            continue;
        turn next = *u;
        vals[k] = u->left[i];
        kmt_track_step_make(t, &next, s, f, i, NULL);
        if (assign(t, &next, move, k + 1, whole, vals, end))
            return true;
    }
    return false;
}

int kmt_track_next_steps(const kemet_rules *r, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *done,
                         kemet_move *next, kemet_throw *left, kemet_pos *mid) {
    const track *t = T(r);
    turn u, end;
    uint8_t vals[KEMET_MAX_STEPS];
    kmt_track_turn_begin(t, pos, thr, &u);
    if (!assign(t, &u, done, 0, false, vals, &end))
        return KEMET_EILLEGAL;
    if (mid)
        *mid = end.pos;
    if (left) { /* the values left, all the mover's to spend */
        *left = (kemet_throw){0};
        for (int i = 0; i < end.nleft; i++) {
            left->v[left->n] = end.left[i];
            left->only[left->n++] = 0;
        }
        kmt_throw_sort(left);
    }
    step st[KEMET_MAX_VALUES * (NPIECES + 1)];
    int n = kmt_track_steps(t, &end, st), m = 0;
    for (int i = 0; i < n; i++) {
        kemet_move one = {1, {{st[i].from, st[i].to}}};
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
    turn u, end;
    uint8_t vals[KEMET_MAX_STEPS];
    kmt_track_turn_begin(T(r), pos, thr, &u);
    return assign(T(r), &u, move, 0, true, vals, &end);
}

void kmt_track_make(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, const kemet_move *move,
                    kemet_pos *out, kemet_events *ev) {
    const track *t = T(r);
    turn u, end;
    uint8_t vals[KEMET_MAX_STEPS];
    kmt_track_turn_begin(T(r), pos, thr, &u);
    if (move->n == 0)
        kmt_ev_add(ev, KEMET_EV_PASS, pos->to, 0, 0);
    bool ok = assign(t, &u, move, 0, true, vals, &end);
    assert(ok); /* the caller passes a legal move */
    if (ok && ev) {
        /* again, step by step, for the events */
        for (int k = 0; k < move->n; k++) {
            int i = 0;
            while (u.left[i] != vals[k])
                i++;
            kmt_track_step_make(t, &u, move->step[k].from, move->step[k].to, i,
                                ev);
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
        out->step[out->n++] = (kemet_step){st[i].from, st[i].to};
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
