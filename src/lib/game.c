/* game.c - the game driver: a ruleset, a position and the dice generator.
 *
 * The driver owns the only generator that throws the sticks, seeded once,
 * so the same seed and the same choices replay the same game. It runs the
 * ruleset's opening procedure (ruling G4) and counts turns and plies. A
 * turn is one player's spell with the sticks: it ends when the other player
 * is to throw; a ply is each move, pass or pre-throw choice within it.
 */
#include "internal.h"

#include <stdlib.h>

struct kemet_game {
    const kemet_rules *rules;
    kemet_pos pos;
    kemet_rng rng;
    kemet_throw thr;
    bool pending;  /* a throw waits for its move */
    bool new_turn; /* the next ply begins a new turn */
    long turns, plies;
};

int kemet_game_new(const kemet_rules *rules, uint64_t seed, kemet_game **out,
                   kemet_events *ev) {
    if (!rules || !out)
        return KEMET_EMISUSE;
    kemet_game *g = calloc(1, sizeof *g);
    if (!g)
        return KEMET_ENOMEM;
    g->rules = rules;
    kemet_rng_seed(&g->rng, seed);
    if (ev)
        ev->n = 0;
    g->pending = rules->rs->opening(rules, &g->rng, &g->pos, &g->thr, ev) != 0;
    g->new_turn = true;
    *out = g;
    return KEMET_OK;
}

int kemet_game_setup(const kemet_rules *rules, uint64_t seed,
                     const kemet_pos *pos, kemet_game **out, kemet_error *err) {
    if (!rules || !pos || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_game_setup: NULL argument");
    *out = NULL;
    int rc = kemet_pos_check(rules, pos, err);
    if (rc)
        return rc;
    if (pos->result != KEMET_PLAYING)
        return kmt_fail(err, KEMET_EOVER, "the position is already over");
    kemet_game *g = calloc(1, sizeof *g);
    if (!g)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    g->rules = rules;
    kemet_rng_seed(&g->rng, seed);
    g->pos = *pos;
    g->new_turn = true;
    *out = g;
    return KEMET_OK;
}

void kemet_game_free(kemet_game *game) {
    free(game);
}

const kemet_pos *kemet_game_pos(const kemet_game *game) {
    return &game->pos;
}

const kemet_throw *kemet_game_throw(const kemet_game *game) {
    return game->pending ? &game->thr : NULL;
}

int kemet_game_roll(kemet_game *game, kemet_throw *thr) {
    if (!game)
        return KEMET_EMISUSE;
    if (game->pos.result != KEMET_PLAYING)
        return KEMET_EOVER;
    if (game->pending)
        return KEMET_EMISUSE;
    game->rules->rs->roll(game->rules, &game->pos, &game->rng, &game->thr);
    game->pending = true;
    if (thr)
        *thr = game->thr;
    return KEMET_OK;
}

/* The generic random playout: before each throw a uniform choice among
 * throwing and the pre-throw moves; after it a uniform choice among the
 * legal moves (no draw when there is only one), or, where a turn spends
 * several values, a turn built step by step, each step uniform among the
 * legal steps. */
static void kmt_playout_generic(const kemet_rules *r, kmt_playout_state *st) {
    const kmt_ruleset *rs = r->rs;
    kemet_move moves[KEMET_MAX_MOVES];
    while (kmt_playout_going(st)) {
        int mover = st->pos.to;
        kemet_throw t;
        int n = st->pending ? 0 : rs->prethrow(r, &st->pos, moves);
        if (n > 0) {
            int k = (int)kemet_rng_below(st->pick, (uint32_t)n + 1) - 1;
            if (k >= 0) {
                rs->make(r, &st->pos, NULL, &moves[k], &st->pos, NULL);
                kmt_playout_count(st, mover);
                continue;
            }
        }
        if (st->pending)
            t = st->thr;
        else
            rs->roll(r, &st->pos, st->dice, &t);
        st->pending = false;
        if (rs->random_turn) {
            /* a turn of several steps: built step by step */
            rs->random_turn(r, &st->pos, &t, st->pick, &moves[0]);
            rs->make(r, &st->pos, &t, &moves[0], &st->pos, NULL);
            kmt_playout_count(st, mover);
            continue;
        }
        n = rs->moves(r, &st->pos, &t, moves);
        int k = n == 1 ? 0 : (int)kemet_rng_below(st->pick, (uint32_t)n);
        rs->make(r, &st->pos, &t, &moves[k], &st->pos, NULL);
        kmt_playout_count(st, mover);
    }
}

int kemet_game_playout(kemet_game *game, kemet_rng *pick, long max_turns,
                       int generic) {
    if (!game || !pick)
        return KEMET_EMISUSE;
    kmt_playout_state st = {game->pos,      &game->rng,    pick,
                            max_turns,      game->turns,   game->plies,
                            game->new_turn, game->pending, game->thr};
    if (game->rules->rs->playout && !generic)
        game->rules->rs->playout(game->rules, &st);
    else
        kmt_playout_generic(game->rules, &st);
    game->pos = st.pos;
    game->turns = st.turns;
    game->plies = st.plies;
    game->new_turn = st.new_turn;
    game->pending = st.pending;
    return KEMET_OK;
}

/* Counts a ply made by the player `mover`; game->pos is the new position. */
static void advance(kemet_game *game, int mover) {
    if (game->new_turn)
        game->turns++;
    game->plies++;
    game->new_turn = game->pos.to != mover;
    game->pending = false;
}

int kemet_game_play(kemet_game *game, const kemet_move *move,
                    kemet_events *ev) {
    if (!game)
        return KEMET_EMISUSE;
    kemet_pos next;
    int rc = kemet_apply(game->rules, &game->pos,
                         game->pending ? &game->thr : NULL, move, &next, ev);
    if (rc)
        return rc;
    int mover = game->pos.to;
    game->pos = next;
    advance(game, mover);
    return KEMET_OK;
}

void kemet_game_make(kemet_game *game, const kemet_move *move) {
    int mover = game->pos.to;
    game->rules->rs->make(game->rules, &game->pos,
                          game->pending ? &game->thr : NULL, move, &game->pos,
                          NULL);
    advance(game, mover);
}

long kemet_game_turns(const kemet_game *game) {
    return game->turns;
}
long kemet_game_plies(const kemet_game *game) {
    return game->plies;
}
