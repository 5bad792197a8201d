/* wgame.h - the games `kemet serve` holds (wgame.c) and their storage in
 * SQLite (store.c). Part of the server layer (src/serve), which is built
 * on the public header and common.h only.
 */
#ifndef KEMET_WGAME_H
#define KEMET_WGAME_H

#include "common.h"

#include <stdbool.h>

#include <jansson.h>
#include <pthread.h>

#define WG_ID 16    /* characters of a game id */
#define WG_TOKEN 32 /* characters of a seat's token */

/* What the page shows of a ply beside the session's history (who, the
 * throw and the move: kemet_game_history): the position after it and what
 * happened (its events, told in words as each seat numbers the board:
 * wg_ply_words). */
typedef struct wg_ply {
    kemet_pos after;
    kemet_events ev;
} wg_ply;

/* One stored action: 't' a throw, 'm' a move or pre-throw choice, 'r' a
 * resignation, 'b' a take-back; once the game is over, 'o' a seat's offer
 * of a rematch, 'n' the rematch made (its text the new game's id). */
typedef struct wg_action {
    char kind;
    char text[159];
} wg_action;

/* A game the server holds. `mu` guards everything below it. */
typedef struct wgame {
    char id[WG_ID + 1];
    const kemet_rules *rules;
    const kemet_judge *judge; /* the computer's and the hints' */
    uint64_t seed;
    char seat[2][32];            /* "human" or "computer:LEVEL" */
    char token[2][WG_TOKEN + 1]; /* "" for a computer seat */
    long long created;           /* seconds since 1970 */
    char *opening;               /* the opening, in words */
    pthread_mutex_t mu;
    kemet_game *g; /* the session: position, dice, history, resignation */
    kemet_agent *agent[2];
    long version; /* actions made: each throw, move or pre-throw choice */
    wg_action *act;
    long actcap;
    wg_ply *ply; /* one a ply of the session's history */
    long nply, cap;
    bool queued; /* waiting for the computer's worker */
    bool busy;   /* the worker is searching for it */
    long played; /* the version after the last action of play (every kind
                    but the rematch's): what a review depends on */
    int offered; /* 0, or the seat that offered a rematch */
    char rematch[WG_ID + 1]; /* "", or the rematch's game id */
    char *review;            /* its review (JSON), made at review_version */
    long review_version;
    long long last;     /* when its last action was made (or it was created) */
    bool expired;       /* left unfinished too long: no longer held */
    int refs;           /* its holders (the server's table, requests, ...),
                           counted under the server's lock */
    struct wgame *next; /* in the server's hash bucket */
} wgame;

/* The storage: one SQLite file. Each call is one transaction, committed
 * before it returns; a failure leaves the file as it was. */
typedef struct store store;

/* Opens (or makes) the database; 0, or -1 with a message in why. */
int store_open(const char *path, store **out, char *why, size_t len);
void store_close(store *s);
/* Saves a new game. */
int store_game(store *s, const wgame *g);
/* Saves game `g`, new, and the action that makes it the rematch of game
 * `id` (its action `seq`, 'rematch' with g's id), in one transaction. */
int store_rematch(store *s, const wgame *g, const char *id, long seq);
/* A finished game's review: kept (made at `version`), and read back: 1
 * with *text malloc'd, 0 when there is none, -1 on an error. */
int store_review(store *s, const char *id, long version, const char *text);
int store_review_get(store *s, const char *id, long *version, char **text);
/* Saves actions `first`.. of game `id`: n actions, each a kind ("throw" or
 * "move") and its text, made at time `at` (the game's last action); all
 * or none. */
int store_actions(store *s, const char *id, long first, int n,
                  const char *const kind[], const char *const text[],
                  long long at);
/* Games id[0..n-1] expire: their rows deleted, their ids kept as expired
 * at `at`; in one transaction, all or none. store_expired: whether game
 * `id` expired. */
int store_expire(store *s, const char *const id[], int n, long long at);
bool store_expired(store *s, const char *id);

/* Loading: calls `game` for each stored game (oldest first), then
 * `action` for each of its actions in order. A non-zero return stops the
 * load with that code. */
typedef struct store_game_row {
    const char *id, *ruleset, *seat[2], *token[2];
    uint64_t seed;
    long long created;
    long long last; /* when its last action was stored (or created) */
} store_game_row;
typedef int (*store_game_fn)(void *ctx, const store_game_row *row);
typedef int (*store_action_fn)(void *ctx, const char *id, long seq,
                               const char *kind, const char *text);
int store_load(store *s, store_game_fn game, store_action_fn action, void *ctx);
/* The last error's words. */
const char *store_error(store *s);

/* The games (wgame.c). Every call below is made with g->mu held. */

/* The level of a seat ("computer:3"; 0 for "human"); its agent is
 * kemet_level_agent's. */
int wg_seat_level(const char *seat);
/* A game at its start (the opening played); NULL when out of memory. */
wgame *wg_new(const kemet_judge *j, uint64_t seed, const char *id,
              const char *const seat[2], const char *const token[2],
              long long created);
void wg_free(wgame *g);
/* One action made in memory: a throw; a move (for the pending throw, or a
 * pre-throw choice); the lone pass a throw may leave; a computer's step. */
int wg_throw(wgame *g, kemet_throw *out);
int wg_move(wgame *g, const kemet_move *m);
int wg_after_throw(wgame *g);
bool wg_computer_to_act(const wgame *g);
/* The game's result: the position's, or the win of the seat that did not
 * resign (kemet_game_result); the seat that resigned, or 0. */
int wg_result(const wgame *g);
int wg_resigned(const wgame *g);
/* Seat `seat` resigns (an action, stored like the others). */
int wg_resign(wgame *g, int seat);
/* Seat `seat` takes back its last move and everything after it
 * (kemet_game_takeback: its last ply that was a choice, never a pass): the
 * game stands as it did before that move, its throw pending again (an
 * action, stored like the others: "takeback" with the number of plies
 * kept). KEMET_EILLEGAL when the seat has no move to take back,
 * KEMET_EOVER after a resignation. */
int wg_takeback(wgame *g, int seat);
/* The computer's step in three parts, so that its search holds no lock:
 * wg_computer_plan copies what the search needs (g->mu held; the agent
 * stays the game's, used by one worker at a time); wg_plan_choose
 * searches (no lock); wg_computer_apply makes the choice (g->mu held),
 * KEMET_EMISUSE if the game moved on meanwhile. */
typedef struct wg_plan {
    const kemet_rules *rules;
    kemet_agent *agent;
    kemet_pos pos;
    bool thrown; /* thr is pending */
    kemet_throw thr;
    long version;
    bool throw_now; /* the choice: to throw, or */
    kemet_move move;
} wg_plan;
int wg_computer_plan(wgame *g, wg_plan *plan);
/* The same with an agent of the caller's (for the level of the seat to
 * act: wg_computer_level), which the game does not keep; and the seed
 * for an agent made for this one decision (from the game's seed, the seat
 * and the version: the same decision, the same seed). */
int wg_computer_plan_with(wgame *g, kemet_agent *agent, wg_plan *plan);
int wg_computer_level(const wgame *g);
/* The agent the seat to act plays as (its ruleset's level agent), and
 * whether a player is made for each decision rather than kept: an agent
 * that does not search, or plays a share of its decisions at random,
 * draws from its generator, and one made afresh from wg_computer_seed
 * chooses alike however often the server frees and makes it. */
const char *wg_computer_agent(const wgame *g);
bool wg_agent_per_decision(const char *spec);
uint64_t wg_computer_seed(const wgame *g);
int wg_plan_choose(wg_plan *plan);
int wg_computer_apply(wgame *g, const wg_plan *plan);
/* Replays one stored action; on a mismatch says why in `why`. */
int wg_replay(wgame *g, const char *kind, const char *text, char *why,
              size_t len);
/* Rebuilds the game from its seed and its first `keep` actions. */
int wg_rebuild(wgame *g, long keep);
/* The stored name of an action's kind ("throw", "move", "resign",
 * "takeback"), as wg_replay takes it. */
const char *wg_kind_name(char kind);
/* After the game: seat `seat` offers a rematch; the rematch `id` is made
 * (actions, stored like the others). KEMET_EOVER while the game goes on,
 * KEMET_EILLEGAL for a bad seat or id or a rematch made already. */
int wg_offer(wgame *g, int seat);
int wg_rematched(wgame *g, const char *id);
/* Stores the actions made since `first`; when the store fails, undoes
 * them (wg_rebuild) and returns -1 (store.c). */
int wg_save(wgame *g, store *s, long first);

/* What ply i did, in one line of sentences, its squares numbered as
 * player `viewer` reads the board (kc_square_as): malloc'd, NULL when out
 * of memory. */
char *wg_ply_words(const wgame *g, long i, int viewer);

/* JSON: the board's cells ([count1, count2] per cell), a ply (its words
 * as seat `viewer` numbers the board), a game's summary, its full state
 * for seat `you` (0: a spectator, who reads player 1's numbers); and its
 * record as text (malloc'd). */
json_t *wg_cells_json(const kemet_rules *r, const kemet_pos *pos);
json_t *wg_ply_json(const wgame *g, long i, int viewer);
json_t *wg_summary_json(const wgame *g);
json_t *wg_state_json(const wgame *g, int you);
char *wg_record(const wgame *g);

/* The answers that need no connection (views.c), for the server and the
 * offline page alike. Those that can fail return an HTTP status: 200 with
 * the answer in *out, else NULL there and the reason in `why`. */
json_t *wg_rulesets_json(kemet_rules *const *rules, int n);
/* Every ply, its words as seat `viewer` numbers the board (0: player 1,
 * as a spectator reads it). */
json_t *wg_history_json(const wgame *g, int viewer);
/* A move, or the steps of one, as text ("" is the empty move). */
bool wg_read_move(const wgame *g, const char *text, kemet_move *m, char *why,
                  size_t len);
/* The next steps of a turn entered step by step, after `done`. */
int wg_steps_json(const wgame *g, const char *done, json_t **out, char *why,
                  size_t len);
/* Whether move `text` is legal now, and if not, why. */
int wg_explain_json(const wgame *g, const char *text, json_t **out, char *why,
                    size_t len);
/* The moves ranked by the hint agent with the mover's chance after each
 * (before the throw: the pre-throw moves and throwing); NULL when out of
 * memory or stopped. `check` (may be NULL) is the search's
 * (kemet_agent_set_check). Holds no game. */
json_t *wg_hint_json(const kemet_judge *j, const kemet_pos *pos,
                     const kemet_throw *thr, int (*check)(void *), void *ctx);
/* As wg_hint_json, by the agent `spec` (an expectimax with its budget),
 * and a search `check` stops answers with what it has found (the caller
 * knows why it stopped and whether that is an answer). */
json_t *wg_hint_json_cut(const kemet_judge *j, const char *spec,
                         const kemet_pos *pos, const kemet_throw *thr,
                         int (*check)(void *), void *ctx);
/* The review of a finished game as JSON text: the fields of `kemet
 * review --json` (docs/review.md) and how the game ended (`result`
 * wg_result's, `resigned` the seat that resigned or 0). NULL when out of
 * memory or stopped by `check` (may be NULL). Holds no game. */
char *wg_review_text(const kemet_judge *j, const kemet_pos *start,
                     const kemet_ply *plies, long n, int result, int resigned,
                     int (*check)(void *), void *ctx);
/* The rematch as the state shows it: null, {"offered_by": SEAT} or
 * {"id": ID}. */
json_t *wg_rematch_json(const wgame *g);

#endif
