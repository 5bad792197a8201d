/* game.c - the game driver and session: a ruleset, a position, the dice
 * generator and the game's history.
 *
 * The driver owns the only generator that throws the sticks, seeded once,
 * so the same seed and the same choices replay the same game. It runs the
 * ruleset's opening procedure (ruling G4) and counts turns and plies. A
 * turn is one player's spell with the sticks: it ends when the other player
 * is to throw; a ply is each move, pass or pre-throw choice within it.
 *
 * The session keeps each ply (its throw and move) and who made it, and the
 * state the first ply was made in (position, dice, a throw the opening
 * left pending). Going back to a ply plays the game again from there with
 * the same dice, so the throw that ply used comes again, pending. Every
 * front end drives a game through these calls, so take-back, resignation
 * and the record mean the same everywhere.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 63

struct kemet_game {
    const kemet_rules *rules;
    kemet_pos pos;
    kemet_rng rng;
    kemet_throw thr;
    bool pending;  /* a throw waits for its move */
    bool new_turn; /* the next ply begins a new turn */
    long turns, plies;
    /* the session */
    uint64_t seed;
    bool setup;      /* set up, no opening */
    kemet_pos start; /* where the first ply is made */
    kemet_rng start_rng;
    bool start_pending;
    kemet_throw start_thr;
    kemet_ply *hist; /* plies 0 .. plies-1, while `kept` */
    uint8_t *who;    /* the player who made each */
    long cap;
    bool kept;    /* the history lists every ply (no playout, no failure) */
    int resigned; /* 0, or the player who resigned */
    bool stopped; /* stopped unfinished (kemet_game_stop) */
    char name[2][NAME_MAX_LEN + 1];
};

static void keep_values(kemet_game *game);

/* The state a new game's first ply is made in, remembered for going back. */
static void begin_session(kemet_game *g, uint64_t seed) {
    g->seed = seed;
    g->start = g->pos;
    g->start_rng = g->rng;
    g->start_pending = g->pending;
    g->start_thr = g->thr;
    g->kept = true;
    strcpy(g->name[0], "human");
    strcpy(g->name[1], "human");
}

/* Room for one more ply in the history. */
static bool room(kemet_game *g) {
    if (g->plies < g->cap)
        return true;
    long cap = g->cap ? 2 * g->cap : 64;
    kemet_ply *h = realloc(g->hist, (size_t)cap * sizeof *h);
    if (!h)
        return false;
    g->hist = h;
    uint8_t *w = realloc(g->who, (size_t)cap);
    if (!w)
        return false;
    g->who = w;
    g->cap = cap;
    return true;
}

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
    begin_session(g, seed);
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
    g->setup = true;
    keep_values(g);
    begin_session(g, seed);
    *out = g;
    return KEMET_OK;
}

void kemet_game_free(kemet_game *game) {
    if (!game)
        return;
    free(game->hist);
    free(game->who);
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
    if (kemet_game_next(game) == KEMET_NEXT_OVER)
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
    if (kemet_game_next(game) == KEMET_NEXT_OVER)
        return KEMET_OK;
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
    game->kept = false; /* its plies are not listed */
    /* ended by the cap (ruling G5): stopped, as kemet_game_stop */
    game->stopped = game->pos.result == KEMET_PLAYING;
    return KEMET_OK;
}

/* Where the values of the turn's throws wait to be played (Tab's left=),
 * they are the pending throw at once: no throw is made for them
 * (kemet_throw_kept), and the game waits for a move. */
static void keep_values(kemet_game *game) {
    if (!game->pending && game->rules->rs->left_values &&
        game->pos.result == KEMET_PLAYING && kmt_left_total(&game->pos)) {
        game->rules->rs->roll(game->rules, &game->pos, &game->rng, &game->thr);
        game->pending = true;
    }
}

/* Counts a ply made by the player `mover` with `move`; game->pos is the
 * new position. The history has room (or is no longer kept). */
static void advance(kemet_game *game, int mover, const kemet_move *move) {
    if (game->kept) {
        game->hist[game->plies] =
            (kemet_ply){game->pending ? game->thr : (kemet_throw){0}, *move};
        game->who[game->plies] = (uint8_t)mover;
    }
    if (game->new_turn)
        game->turns++;
    game->plies++;
    game->new_turn = game->pos.to != mover;
    game->pending = false;
    keep_values(game);
}

int kemet_game_play(kemet_game *game, const kemet_move *move,
                    kemet_events *ev) {
    if (!game || !move)
        return KEMET_EMISUSE;
    if (game->resigned || game->stopped)
        return KEMET_EOVER;
    kemet_pos next;
    kemet_move m = *move; /* `move` may lie in the history, which may move */
    int rc = kemet_apply(game->rules, &game->pos,
                         game->pending ? &game->thr : NULL, &m, &next, ev);
    if (rc)
        return rc;
    if (game->kept && !room(game))
        return KEMET_ENOMEM;
    int mover = game->pos.to;
    game->pos = next;
    advance(game, mover, &m);
    return KEMET_OK;
}

void kemet_game_make(kemet_game *game, const kemet_move *move) {
    if (game->resigned || game->stopped)
        return; /* nothing more is played */
    int mover = game->pos.to;
    kemet_move m = *move; /* `move` may lie in the history, which may move */
    if (game->kept && !room(game))
        game->kept = false; /* no memory: the history is given up */
    game->rules->rs->make(game->rules, &game->pos,
                          game->pending ? &game->thr : NULL, &m, &game->pos,
                          NULL);
    advance(game, mover, &m);
}

long kemet_game_turns(const kemet_game *game) {
    return game->turns;
}
long kemet_game_plies(const kemet_game *game) {
    return game->plies;
}

/* ---------------------------------------------------------------------------
 * The session.
 * ------------------------------------------------------------------------ */
static bool name_ok(const char *s) {
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > NAME_MAX_LEN)
        return false;
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return false;
    return true;
}

int kemet_game_set_players(kemet_game *game, const char *player1,
                           const char *player2) {
    if (!game || !name_ok(player1) || !name_ok(player2))
        return KEMET_EMISUSE;
    strcpy(game->name[0], player1);
    strcpy(game->name[1], player2);
    return KEMET_OK;
}

const char *kemet_game_player(const kemet_game *game, int p) {
    return game && (p == 1 || p == 2) ? game->name[p - 1] : NULL;
}

uint64_t kemet_game_seed(const kemet_game *game) {
    return game->seed;
}

const kemet_pos *kemet_game_start(const kemet_game *game) {
    return &game->start;
}

int kemet_game_is_setup(const kemet_game *game) {
    return game->setup;
}

const kemet_rules *kmt_game_rules(const kemet_game *game) {
    return game->rules;
}

const kemet_ply *kemet_game_history(const kemet_game *game) {
    return game->kept ? game->hist : NULL;
}

int kemet_game_mover(const kemet_game *game, long i) {
    return game && game->kept && i >= 0 && i < game->plies ? game->who[i] : 0;
}

int kemet_game_result(const kemet_game *game) {
    if (game->resigned)
        return game->resigned == 1 ? KEMET_WON2 : KEMET_WON1;
    return game->pos.result;
}

int kemet_game_resigned(const kemet_game *game) {
    return game->resigned;
}

int kemet_game_resign(kemet_game *game, int p) {
    if (!game || (p != 1 && p != 2))
        return KEMET_EMISUSE;
    if (kemet_game_next(game) == KEMET_NEXT_OVER)
        return KEMET_EOVER;
    game->resigned = p;
    return KEMET_OK;
}

int kemet_game_stop(kemet_game *game) {
    if (!game)
        return KEMET_EMISUSE;
    if (kemet_game_next(game) == KEMET_NEXT_OVER)
        return KEMET_EOVER;
    game->stopped = true;
    return KEMET_OK;
}

int kemet_game_stopped(const kemet_game *game) {
    return game->stopped;
}

int kemet_game_next(const kemet_game *game) {
    if (game->resigned || game->stopped || game->pos.result != KEMET_PLAYING)
        return KEMET_NEXT_OVER;
    return game->pending ? KEMET_NEXT_MOVE : KEMET_NEXT_THROW;
}

int kemet_game_back(kemet_game *game, long ply) {
    if (!game || !game->kept || ply < 0 || ply > game->plies)
        return KEMET_EMISUSE;
    long n = game->plies;
    bool thrown = game->pending; /* a throw waiting now: kept (ply == n) */
    game->pos = game->start;
    game->rng = game->start_rng;
    game->pending = game->start_pending;
    game->thr = game->start_thr;
    game->new_turn = true;
    game->turns = game->plies = 0;
    game->resigned = 0;
    game->stopped = false;
    /* the plies before `ply` again, with the same dice (they were legal:
       made without the check) */
    for (long i = 0; i < ply; i++) {
        if (game->hist[i].thr.n && !game->pending) {
            game->rules->rs->roll(game->rules, &game->pos, &game->rng,
                                  &game->thr);
            game->pending = true;
        }
        kemet_game_make(game, &game->hist[i].move);
    }
    /* the throw ply `ply` used, pending again (for ply n, the throw that
       was waiting: the dice stand where they stood) */
    if ((ply < n ? game->hist[ply].thr.n != 0 : thrown) && !game->pending) {
        game->rules->rs->roll(game->rules, &game->pos, &game->rng, &game->thr);
        game->pending = true;
    }
    return KEMET_OK;
}

long kemet_game_last_move(const kemet_game *game, int p) {
    if (!game || !game->kept)
        return -1;
    long i = game->plies - 1;
    while (i >= 0 && (game->who[i] != p || game->hist[i].move.n == 0))
        i--;
    return i;
}

int kemet_game_takeback(kemet_game *game, int p) {
    if (!game || (p != 1 && p != 2) || !game->kept)
        return KEMET_EMISUSE;
    if (game->resigned)
        return KEMET_EOVER;
    long i = kemet_game_last_move(game, p);
    return i < 0 ? KEMET_EILLEGAL : kemet_game_back(game, i);
}

/* A growing text. */
typedef struct text {
    char *s;
    size_t len, cap;
    bool failed;
} text;

static void add(text *t, const char *s, int n) {
    if (t->failed || n < 0) {
        t->failed = true;
        return;
    }
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 4096;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *g = realloc(t->s, cap);
        if (!g) {
            t->failed = true;
            return;
        }
        t->s = g;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, (size_t)n);
    t->len += (size_t)n;
    t->s[t->len] = '\0';
}

int kemet_game_record(const kemet_game *game, char **out) {
    if (!game || !out)
        return KEMET_EMISUSE;
    *out = NULL;
    if (!game->kept)
        return KEMET_EMISUSE;
    text t = {0};
    char line[1024];
    int k = (game->setup ? kemet_record_setup : kemet_record_header)(
        game->rules, game->seed, game->name[0], game->name[1], &game->start,
        line, sizeof line);
    add(&t, line, k);
    for (long i = 0; i < game->plies; i++) {
        kemet_pos before = {.to = game->who[i]};
        const kemet_ply *p = &game->hist[i];
        k = kemet_record_ply(&before, p->thr.n ? &p->thr : NULL, &p->move, line,
                             sizeof line);
        add(&t, line, k);
    }
    if (game->resigned) {
        k = kemet_record_resign(game->resigned, line, sizeof line);
        add(&t, line, k);
    }
    kemet_pos end = game->pos;
    end.result = (uint8_t)kemet_game_result(game);
    k = kemet_record_result(&end, game->stopped, line, sizeof line);
    add(&t, line, k);
    if (t.failed) {
        free(t.s);
        return KEMET_ENOMEM;
    }
    *out = t.s;
    return KEMET_OK;
}

int kemet_game_step_with(kemet_game *game, kemet_choose_fn choose, void *ctx,
                         kemet_move *scratch, kemet_events *ev) {
    if (!game || !choose || !scratch)
        return KEMET_EMISUSE;
    if (ev)
        ev->n = 0;
    int next = kemet_game_next(game);
    if (next == KEMET_NEXT_OVER)
        return KEMET_EOVER;
    const kemet_rules *r = game->rules;
    if (next == KEMET_NEXT_THROW) {
        int n = r->rs->prethrow(r, &game->pos, scratch);
        int k = choose(ctx, &game->pos, NULL, scratch, n);
        if (k < -1 || k >= n)
            return KEMET_EMISUSE;
        if (k < 0)
            return kemet_game_roll(game, NULL);
        if (game->kept && !room(game))
            return KEMET_ENOMEM;
        int mover = game->pos.to;
        r->rs->make(r, &game->pos, NULL, &scratch[k], &game->pos, ev);
        advance(game, mover, &scratch[k]);
        return KEMET_OK;
    }
    int n = kemet_moves(r, &game->pos, &game->thr, scratch);
    if (n < 1)
        return n;
    int k = choose(ctx, &game->pos, &game->thr, scratch, n);
    if (k < 0 || k >= n)
        return KEMET_EMISUSE;
    if (game->kept && !room(game))
        return KEMET_ENOMEM;
    int mover = game->pos.to;
    r->rs->make(r, &game->pos, &game->thr, &scratch[k], &game->pos, ev);
    advance(game, mover, &scratch[k]);
    return KEMET_OK;
}
