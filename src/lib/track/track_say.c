/* track_say.c - the board-file rulesets' evaluation features and their
 * explanations of illegal moves (track.h).
 */
#include "track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Evaluation features of one side (eval.c turns them into a win chance with
 * weights tuned by `kemet tune`): progress along the path, pieces in the
 * goal (the opponent's home box or Home Row), pieces on a safe hole, pieces
 * off the board or in the Duat, and pieces open to capture (not safe, with
 * an opponent's piece at most six of the opponent's squares behind).
 * ------------------------------------------------------------------------ */
const char *const kmt_track_features[] = {"progress", "goal",    "safe",
                                          "hand",     "exposed", NULL};
const double kmt_track_weights[] = {0.04, 0.3, 0.05, -0.3, -0.1};

void kmt_track_side(const kemet_rules *r, const kemet_pos *pos, int p,
                    double *f) {
    const track *t = T(r);
    for (uint64_t b = pos->sq[p]; b; b &= b - 1) {
        int q = kmt_ctz64(b);
        f[0] += q;
        f[1] += (double)((t->goal[p] >> q) & 1);
        if (t->safe[p] & KMT_BIT(q)) {
            f[2] += 1;
            continue;
        }
        int o = t->other[p][q]; /* the opponent's number of this hole */
        if (o > 1) {
            int lo = o > 6 ? o - 6 : 1;
            uint64_t behind = (KMT_BIT(o) - 1) & ~(KMT_BIT(lo) - 1);
            f[4] += (pos->sq[p ^ 1] & behind) != 0;
        }
    }
    f[3] = pos->hand[p];
}

/* ---------------------------------------------------------------------------
 * Explanations
 * ------------------------------------------------------------------------ */
static void say_step(const track *t, int why, int s, int f, int near, char *buf,
                     size_t len) {
    const track_rules *R = t->R;
    switch (why) {
    case NO_PIECE:
        if (s == KEMET_HAND)
            snprintf(buf, len, "you have no piece %s", R->off);
        else
            snprintf(buf, len, "you have no piece on square %d", s);
        break;
    case OFF_FIRST:
        snprintf(buf, len,
                 "a piece of yours is off the board: no other piece moves "
                 "until it is back (rule 15)");
        break;
    case MOVED:
        snprintf(buf, len,
                 "the piece on %d has moved already: each die moves a "
                 "different piece (rule 17)",
                 s);
        break;
    case OWN: snprintf(buf, len, "square %d holds your own piece", f); break;
    case SAFE:
        snprintf(buf, len,
                 "the opponent's piece on square %d is safe there (%s)", f,
                 R->safe_words);
        break;
    case NEAR_OWN:
        snprintf(buf, len,
                 "%s %d holds your own %s: a %s is followed only from a %s "
                 "you can land on (%s)",
                 R->hole_words, near, R->piece_words, R->jump_words,
                 R->hole_words, R->land_rules);
        break;
    case NEAR_SAFE:
        snprintf(buf, len,
                 "the opponent's %s on %s %d is safe there (%s): a %s is "
                 "followed only from a %s you can land on",
                 R->piece_words, R->hole_words, near, R->safe_words,
                 R->jump_words, R->hole_words);
        break;
    case RISEN:
    case NEAR_RISEN:
        snprintf(buf, len,
                 "the %s on %d came back from the Duat this turn: each "
                 "value it spends must land on an open space, and %s %d "
                 "holds the opponent's (rule 7)",
                 R->piece_words, s, R->hole_words, why == RISEN ? f : near);
        break;
    case HOME_TAKEN:
        snprintf(buf, len,
                 "hole %d of your home box is taken: the throw is lost "
                 "(rule 15)",
                 f);
        break;
    case ENTER_TAKEN:
        snprintf(buf, len,
                 "space %d is not open: a plinth is resurrected "
                 "only onto an open space (rule 7)",
                 f);
        break;
    case NO_ENTRY:
        snprintf(buf, len, "no value left brings a piece back there");
        break;
    default: snprintf(buf, len, "no value left takes the piece there");
    }
}

/* The values the mover has still to play, in words: "the 5 you have
 * left", "the values you have left (1, 2)". */
static void say_values(const turn *u, char *buf, size_t len) {
    char vals[40] = "";
    size_t at = 0;
    for (int j = 0; j < u->nleft && at < sizeof vals - 5; j++)
        at += (size_t)snprintf(vals + at, sizeof vals - at, "%s%d",
                               j ? ", " : "", u->left[j]);
    if (u->nleft == 1)
        snprintf(buf, len, "the %s you have left", vals);
    else
        snprintf(buf, len, "the values you have left (%s)", vals);
}

/* Where a value left brings the piece on s to f by count but a line or
 * river then carries it on (a 1 from 5 onto 6 in Washburne's game goes
 * on to 20), says so, with how that step is written, and returns true. */
static bool carried(const track *t, const turn *u, int s, int f,
                    const kemet_step *w, char *buf, size_t len) {
    if (s == KEMET_HAND || w->via || f == KEMET_OFF)
        return false;
    for (int j = 0; j < u->nleft; j++) {
        int d = 0, v = u->left[j];
        if (s + v != f || kmt_track_step_dest(t, u, s, v, &d) != OK || d == f)
            continue;
        snprintf(buf, len,
                 "a %d takes the piece on %d to %d, and the %s there "
                 "carries it on to %d: write %d-%d-%d",
                 v, s, f, t->R->jump_words, d, s, f, d);
        return true;
    }
    return false;
}

/* Whether the legal step st is the written step w. */
static bool is_step(const step *st, const kemet_step *w) {
    return st->from == w->from && st->to == w->to &&
           (!w->via || w->via == (st->from == KEMET_HAND ? st->to : st->end));
}

void kmt_track_explain(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *move,
                       char *buf, size_t len) {
    const track *t = T(r);
    turn u;
    if (!thr || thr->n == 0) {
        snprintf(buf, len, "nothing may be done before the throw");
        return;
    }
    int bad;
    if (kmt_track_malformed(r, pos, move, &bad)) {
        const kemet_step *w = &move->step[bad];
        if (w->from == KEMET_HAND)
            snprintf(buf, len,
                     "write in-%d: no %s leads to %d, so its hole is not "
                     "written twice",
                     w->to, t->R->jump_words, w->to);
        else
            snprintf(buf, len,
                     "write %d-%d: no %s leads to %d, so its hole is not "
                     "written twice",
                     w->from, w->to, t->R->jump_words, w->to);
        return;
    }
    /* A step written FROM-TO that may be a count landing there or one
     * following a line or river there, with different outcomes. */
    kemet_move a, b;
    if (kmt_track_readings(t, pos, thr, move, true, &a, &b) > 1 ||
        kmt_track_readings(t, pos, thr, move, false, &a, &b) > 1) {
        char x[96], y[96];
        kemet_move_format(&a, x, sizeof x);
        kemet_move_format(&b, y, sizeof y);
        snprintf(buf, len,
                 "ambiguous: it may be %s or %s, which end differently; "
                 "write the end a count reaches on a %s (FROM-END-TO), or "
                 "FROM-TO-TO where it follows none",
                 x, y, t->R->jump_words);
        return;
    }
    kmt_track_turn_begin(T(r), pos, thr, &u);
    step st[KEMET_MAX_VALUES * (NPIECES + 1)];
    for (int k = 0; k < move->n; k++) {
        const kemet_step *w = &move->step[k];
        int s = w->from, f = w->to;
        int n = kmt_track_steps(t, &u, st), i = 0;
        while (i < n && !is_step(&st[i], w))
            i++;
        if (i < n) {
            kmt_track_step_make(t, &u, s, f, st[i].vi, NULL);
            continue;
        }
        /* Why not: the reason of a value that takes the piece there (by
         * the written end, if any), else of any value for that piece. */
        int why = BEYOND, any = BEYOND, g = 0, near = 0;
        for (int j = 0; j < u.nleft; j++) {
            int d = 0, y = kmt_track_step_dest(t, &u, s, u.left[j], &d);
            int e = s == KEMET_HAND ? d : s + u.left[j];
            if ((d == f || s == KEMET_HAND) && (!w->via || w->via == e) &&
                y != OK) {
                why = y;
                g = d;
                near = e;
            }
            if (y != OK && y != BEYOND)
                any = y;
        }
        if (u.pos.result != KEMET_PLAYING)
            snprintf(buf, len, "the game was won before step %d", k + 1);
        else if (u.nleft == 0)
            snprintf(buf, len, "no value is left for step %d", k + 1);
        else if (why == BEYOND &&
                 (any == NO_PIECE || any == OFF_FIRST || any == MOVED))
            say_step(t, any, s, f, 0, buf, len);
        else if (why == BEYOND && carried(t, &u, s, f, w, buf, len))
            ;
        else if (why == BEYOND) {
            char vals[96];
            say_values(&u, vals, sizeof vals);
            if (s == KEMET_HAND)
                snprintf(buf, len, "%s brings no piece to %d", vals, f);
            else if (w->via)
                snprintf(buf, len,
                         "%s takes the piece on %d to %d by way of %d: "
                         "it cannot get there",
                         vals, s, f, w->via);
            else
                snprintf(buf, len, "the piece on %d cannot reach %d with %s", s,
                         f, vals);
        } else
            say_step(t, why, s, g ? g : f, near, buf, len);
        return;
    }
    int n = kmt_track_steps(t, &u, st);
    if (n > 0) {
        char m[16];
        kemet_move one = {1, {{st[0].from, st[0].to, 0}}};
        if (st[0].from != KEMET_HAND && st[0].end != st[0].to)
            one.step[0].via = st[0].end;
        kemet_move_format(&one, m, sizeof m);
        snprintf(buf, len,
                 "a value (%d) can still be used, e.g. %s: all available "
                 "moves must be made",
                 u.left[st[0].vi], m);
    } else {
        snprintf(buf, len, "that is not a legal turn");
    }
}
