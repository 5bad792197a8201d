/* moves.c - the public entry points of play: throws, moves, applying and
 * explaining them.
 *
 * Every one checks what is cheap to check (a usable position, a finished
 * game, an impossible throw) and forwards to the ruleset module's table.
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Play.
 * ------------------------------------------------------------------------ */
bool kmt_pos_usable(const kemet_rules *rules, const kemet_pos *pos) {
    if (!rules || !pos || (pos->to != 1 && pos->to != 2) ||
        pos->result > KEMET_DRAW || pos->wait > 3 ||
        (pos->wait && !rules->waits) || pos->must > rules->squares)
        return false;
    /* Bits 0..squares only, and no more pieces than the ruleset has: a
     * position of another ruleset usually fails here. */
    uint64_t beyond = rules->squares >= 63 ? 0 : ~0ULL << (rules->squares + 1);
    for (int p = 0; p < 2; p++)
        if ((pos->sq[p] & beyond) || kmt_in_play(pos, p) > rules->info.pieces)
            return false;
    return true;
}

int kmt_no_prethrow(const kemet_rules *r, const kemet_pos *pos,
                    kemet_move *out) {
    (void)r;
    (void)pos;
    (void)out;
    return 0;
}

int kemet_points(const kemet_rules *rules, const kemet_pos *pos) {
    if (!kmt_pos_usable(rules, pos))
        return KEMET_EMISUSE;
    if (!rules->rs->points ||
        (pos->result != KEMET_WON1 && pos->result != KEMET_WON2))
        return 0;
    return rules->rs->points(rules, pos);
}

int kemet_on_board(const kemet_pos *pos, int player) {
    if (!pos || (player != 1 && player != 2))
        return KEMET_EMISUSE;
    return kmt_popcount64(pos->sq[player - 1]) + pos->heap[player - 1];
}

int kemet_throws(const kemet_rules *rules, const kemet_pos *pos,
                 kemet_throw *out, kemet_weight *weight, kemet_weight *total) {
    if (!kmt_pos_usable(rules, pos) || !out || !weight || !total)
        return KEMET_EMISUSE;
    return rules->rs->throws(rules, pos, out, weight, total);
}

void kemet_roll(const kemet_rules *rules, const kemet_pos *pos, kemet_rng *rng,
                kemet_throw *out) {
    assert(kmt_pos_usable(rules, pos) && rng && out);
    rules->rs->roll(rules, pos, rng, out);
}

int kemet_prethrow(const kemet_rules *rules, const kemet_pos *pos,
                   kemet_move *out) {
    if (!kmt_pos_usable(rules, pos) || !out)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING)
        return KEMET_EOVER;
    return rules->rs->prethrow(rules, pos, out);
}

int kemet_throw_equal(const kemet_throw *a, const kemet_throw *b) {
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->v[i] != b->v[i] || a->only[i] != b->only[i])
            return 0;
    return 1;
}

/* Whether `thr` is one of the outcomes the ruleset can throw in `pos`. */
static int throw_possible(const kemet_rules *rules, const kemet_pos *pos,
                          const kemet_throw *thr) {
    if (rules->rs->throw_ok)
        return rules->rs->throw_ok(rules, pos, thr);
    if (rules->rs->max_value)
        return thr->n == 1 && thr->v[0] >= 1 &&
               thr->v[0] <= rules->rs->max_value && thr->only[0] == 0;
    kemet_throw all[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS], total;
    int n = rules->rs->throws(rules, pos, all, w, &total);
    for (int i = 0; i < n; i++)
        if (kemet_throw_equal(&all[i], thr))
            return 1;
    return 0;
}

/* Where the values of this turn's throws wait to be played (Tab's
 * left=), the decision is made with no new throw: `none` (thr->n == 0)
 * stands for them, given back here as the throw kemet_roll makes. */
static const kemet_throw *kept_or(const kemet_rules *r, const kemet_pos *pos,
                                  const kemet_throw *thr, kemet_throw *tmp) {
    if ((thr && thr->n) || !r->rs->left_values || !kmt_left_total(pos))
        return thr;
    kmt_kept_throw(pos, tmp);
    return tmp;
}

int kemet_throw_kept(const kemet_rules *rules, const kemet_pos *pos) {
    if (!kmt_pos_usable(rules, pos))
        return KEMET_EMISUSE;
    return rules->rs->left_values && pos->result == KEMET_PLAYING &&
           kmt_left_total(pos) > 0;
}

int kemet_moves(const kemet_rules *rules, const kemet_pos *pos,
                const kemet_throw *thr, kemet_move *out) {
    kemet_throw kept;
    if (!kmt_pos_usable(rules, pos) || !out)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING)
        return KEMET_EOVER; /* whatever the throw: soak checks this */
    if (!thr)
        return KEMET_EMISUSE; /* a NULL pointer, not an impossible throw */
    thr = kept_or(rules, pos, thr, &kept);
    if (thr->n == 0 || !throw_possible(rules, pos, thr))
        return KEMET_ETHROW;
    return rules->rs->moves(rules, pos, thr, out);
}

int kmt_afters(const kemet_rules *r, const kemet_pos *pos,
               const kemet_throw *thr, kemet_move *moves, kemet_pos *out,
               bool listed) {
    if (!r->rs->afters) {
        int n = kemet_moves(r, pos, thr, moves);
        for (int i = 0; i < n; i++)
            kemet_make(r, pos, thr, &moves[i], &out[i], NULL);
        return n;
    }
    if (!kmt_pos_usable(r, pos))
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING)
        return KEMET_EOVER;
    if (!thr || thr->n == 0 || !throw_possible(r, pos, thr))
        return KEMET_ETHROW;
    return r->rs->afters(r, pos, thr, listed ? moves : NULL, out);
}

int kemet_next_steps(const kemet_rules *rules, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *done,
                     kemet_move *next, kemet_throw *left) {
    if (!kmt_pos_usable(rules, pos) || !done || !next)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING)
        return KEMET_EOVER;
    if (!thr)
        return KEMET_EMISUSE;
    if (thr->n == 0 || !throw_possible(rules, pos, thr))
        return KEMET_ETHROW;
    if (rules->rs->next_steps)
        return rules->rs->next_steps(rules, pos, thr, done, next, left, NULL);
    /* one value per throw: the whole move is the one step */
    if (left)
        *left = done->n ? (kemet_throw){0} : *thr;
    if (done->n == 0) {
        int n = rules->rs->moves(rules, pos, thr, next);
        return (n == 1 && next[0].n == 0) ? 0 : n;
    }
    kemet_pos out;
    return kemet_apply(rules, pos, thr, done, &out, NULL) == KEMET_OK
               ? 0
               : KEMET_EILLEGAL;
}

int kemet_steps_pos(const kemet_rules *rules, const kemet_pos *pos,
                    const kemet_throw *thr, const kemet_move *done,
                    kemet_pos *out) {
    if (!kmt_pos_usable(rules, pos) || !done || !out)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING)
        return KEMET_EOVER;
    if (!thr || thr->n == 0 || !throw_possible(rules, pos, thr))
        return KEMET_ETHROW;
    if (!rules->rs->next_steps)
        return kemet_apply(rules, pos, thr, done, out, NULL);
    kemet_move *next = malloc(KEMET_MAX_MOVES * sizeof *next);
    if (!next)
        return KEMET_ENOMEM;
    kemet_pos mid;
    int n = rules->rs->next_steps(rules, pos, thr, done, next, NULL, &mid);
    free(next);
    if (n < 0)
        return n;
    if (n == 0) /* a whole turn */
        return kemet_apply(rules, pos, thr, done, out, NULL);
    *out = mid;
    return KEMET_OK;
}

int kemet_move_equal(const kemet_move *a, const kemet_move *b) {
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->step[i].from != b->step[i].from ||
            a->step[i].to != b->step[i].to || a->step[i].via != b->step[i].via)
            return 0;
    return 1;
}

int kemet_apply(const kemet_rules *rules, const kemet_pos *pos,
                const kemet_throw *thr, const kemet_move *move, kemet_pos *out,
                kemet_events *ev) {
    kemet_move list[KEMET_MAX_MOVES];
    kemet_throw kept;
    int n;
    if (!kmt_pos_usable(rules, pos) || !move || !out)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING)
        return KEMET_EOVER;
    thr = kept_or(rules, pos, thr, &kept);
    if (thr && thr->n > 0)
        n = kemet_moves(rules, pos, thr, list);
    else
        n = rules->rs->prethrow(rules, pos, list);
    if (n < 0)
        return n;
    if (thr && thr->n > 0 && rules->rs->legal) {
        if (!rules->rs->legal(rules, pos, thr, move))
            return KEMET_EILLEGAL;
        if (ev)
            ev->n = 0;
        rules->rs->make(rules, pos, thr, move, out, ev);
        return KEMET_OK;
    }
    for (int i = 0; i < n; i++) {
        if (kemet_move_equal(&list[i], move)) {
            if (ev)
                ev->n = 0;
            rules->rs->make(rules, pos, thr, move, out, ev);
            return KEMET_OK;
        }
    }
    return KEMET_EILLEGAL;
}

void kemet_make(const kemet_rules *rules, const kemet_pos *pos,
                const kemet_throw *thr, const kemet_move *move, kemet_pos *out,
                kemet_events *ev) {
    assert(kmt_pos_usable(rules, pos) && move && out);
    if (ev)
        ev->n = 0;
    rules->rs->make(rules, pos, thr, move, out, ev);
}

int kemet_move_upgrade(const kemet_rules *rules, const kemet_pos *pos,
                       kemet_move *move) {
    if (!kmt_pos_usable(rules, pos) || !move || move->n > KEMET_MAX_STEPS)
        return KEMET_EMISUSE;
    if (rules->rs->upgrade)
        rules->rs->upgrade(rules, pos, move);
    return KEMET_OK;
}

int kemet_explain(const kemet_rules *rules, const kemet_pos *pos,
                  const kemet_throw *thr, const kemet_move *move, char *buf,
                  size_t len) {
    kemet_pos next;
    if (!buf || len == 0)
        return KEMET_ERANGE;
    buf[0] = '\0';
    if (!kmt_pos_usable(rules, pos) || !move)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING) {
        snprintf(buf, len, "the game is over");
        return 1;
    }
    int rc = kemet_apply(rules, pos, thr, move, &next, NULL);
    if (rc == KEMET_OK)
        return 0;
    if (rc == KEMET_ETHROW)
        snprintf(buf, len, "the sticks cannot give that throw");
    else
        rules->rs->explain(rules, pos, thr, move, buf, len);
    return 1;
}
