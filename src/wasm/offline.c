/* offline.c - the games of the offline page (docs/wasm.md): the game
 * layer of `kemet serve` (src/serve/wgame.c, views.c) built to
 * WebAssembly, for the page's worker (web/offline/worker.js), which routes
 * the page's API calls here instead of to a server. Every answer is JSON
 * text (malloc'd, freed with free) as `kemet serve` gives it, or
 * {"error": WHY, "status": N} with the status the server would send.
 *
 * The worker keeps each game's actions in the browser's storage and
 * rebuilds it with ko_replay, as the server rebuilds its games from its
 * database; the checks on who may act are the server's (src/serve/api.c).
 */
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

#include "wgame.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rulesets, all opened. */
typedef struct offline {
    kemet_rules **rules;
    kemet_judge **judges; /* judges[i] judges rules[i] */
    int n;
} offline;

offline *ko_open(void);
void ko_close(offline *o);
char *ko_rulesets(offline *o);
int ko_opening_black(offline *o, const char *spec, const char *seed_text);
wgame *ko_new(offline *o, const char *spec, const char *seed_text,
              const char *id, const char *seat1, const char *seat2,
              const char *token1, const char *token2, double created);
void ko_free(wgame *g);
int ko_you(const wgame *g, const char *token);
long ko_version(const wgame *g);
int ko_seat_level(const wgame *g, int seat);
char *ko_summary(const wgame *g);
char *ko_state(const wgame *g, int you);
char *ko_history(const wgame *g, const char *token);
char *ko_record(const wgame *g);
char *ko_steps(const wgame *g, const char *done);
char *ko_explain(const wgame *g, const char *move);
char *ko_act(wgame *g, const char *token, const char *kind, const char *text);
char *ko_hint(const wgame *g, const char *token);
char *ko_review(wgame *g);
char *ko_rematch(wgame *g, const char *token, const char *id);
int ko_computer(wgame *g);
char *ko_actions(const wgame *g);
char *ko_replay(wgame *g, const char *kind, const char *text);

/* The value as text, freed; NULL stays NULL. */
static char *text_of(json_t *v) {
    char *s = v ? json_dumps(v, JSON_COMPACT) : NULL;
    json_decref(v);
    return s;
}

static char *error_json(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static char *error_json(int status, const char *fmt, ...) {
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return text_of(json_pack("{s:s, s:i}", "error", why, "status", status));
}

EMSCRIPTEN_KEEPALIVE offline *ko_open(void) {
    offline *o = calloc(1, sizeof *o);
    int n = kemet_ruleset_count();
    if (!o || !(o->rules = calloc((size_t)n, sizeof *o->rules)) ||
        !(o->judges = calloc((size_t)n, sizeof *o->judges))) {
        if (o)
            free(o->rules);
        free(o);
        return NULL;
    }
    for (; o->n < n; o->n++) {
        kemet_error err;
        if (kemet_rules_open(kemet_ruleset_id(o->n), &o->rules[o->n], &err)) {
            ko_close(o);
            return NULL;
        }
        if (kemet_judge_new(o->rules[o->n], NULL, &o->judges[o->n], &err)) {
            kemet_rules_close(o->rules[o->n]);
            ko_close(o);
            return NULL;
        }
    }
    return o;
}

EMSCRIPTEN_KEEPALIVE void ko_close(offline *o) {
    if (!o)
        return;
    for (int i = 0; i < o->n; i++) {
        kemet_judge_free(o->judges[i]);
        kemet_rules_close(o->rules[i]);
    }
    free(o->judges);
    free(o->rules);
    free(o);
}

EMSCRIPTEN_KEEPALIVE char *ko_rulesets(offline *o) {
    return text_of(wg_rulesets_json(o->rules, o->n));
}

/* A new game (its opening played), or NULL for an unknown ruleset, a bad
 * seed or seat, or no memory. */
EMSCRIPTEN_KEEPALIVE wgame *ko_new(offline *o, const char *spec,
                                   const char *seed_text, const char *id,
                                   const char *seat1, const char *seat2,
                                   const char *token1, const char *token2,
                                   double created) {
    const kemet_rules *r = NULL;
    const kemet_judge *j = NULL;
    for (int i = 0; i < o->n && !r; i++)
        if (strcmp(kemet_rules_spec(o->rules[i]), spec) == 0 ||
            strcmp(kemet_rules_info(o->rules[i])->id, spec) == 0) {
            r = o->rules[i];
            j = o->judges[i];
        }
    char *end;
    uint64_t seed = strtoull(seed_text, &end, 10);
    const char *seat[2] = {seat1, seat2}, *token[2] = {token1, token2};
    if (!r || !*seed_text || *end || strlen(id) > WG_ID)
        return NULL;
    for (int p = 0; p < 2; p++)
        if ((strcmp(seat[p], "human") != 0 && !wg_seat_level(seat[p])) ||
            strlen(token[p]) > WG_TOKEN)
            return NULL;
    return wg_new(j, seed, id, seat, token, (long long)created);
}

/* Where the opening of game `seed_text` decides who plays black
 * (Jequier's first 1): 1 when it seats the player named first as black,
 * 2 the other, 0 in other rulesets or for a bad ruleset or seed
 * (kemet_opening_black). */
EMSCRIPTEN_KEEPALIVE int ko_opening_black(offline *o, const char *spec,
                                          const char *seed_text) {
    char *end;
    uint64_t seed = strtoull(seed_text, &end, 10);
    if (!*seed_text || *end)
        return 0;
    for (int i = 0; i < o->n; i++)
        if (strcmp(kemet_rules_spec(o->rules[i]), spec) == 0 ||
            strcmp(kemet_rules_info(o->rules[i])->id, spec) == 0)
            return kemet_opening_black(o->rules[i], seed);
    return 0;
}

EMSCRIPTEN_KEEPALIVE void ko_free(wgame *g) {
    wg_free(g);
}

/* The seat a token holds: the seat to move first where one token holds
 * both (two players at one device), 0 without a token, -1 for another. */
EMSCRIPTEN_KEEPALIVE int ko_you(const wgame *g, const char *token) {
    if (!token || !*token)
        return 0;
    int to = kemet_game_pos(g->g)->to;
    if (strcmp(g->token[to - 1], token) == 0)
        return to;
    if (strcmp(g->token[2 - to], token) == 0)
        return 3 - to;
    return -1;
}

EMSCRIPTEN_KEEPALIVE long ko_version(const wgame *g) {
    return g->version;
}

EMSCRIPTEN_KEEPALIVE int ko_seat_level(const wgame *g, int seat) {
    return seat == 1 || seat == 2 ? wg_seat_level(g->seat[seat - 1]) : 0;
}

EMSCRIPTEN_KEEPALIVE char *ko_summary(const wgame *g) {
    return text_of(wg_summary_json(g));
}

EMSCRIPTEN_KEEPALIVE char *ko_state(const wgame *g, int you) {
    return text_of(wg_state_json(g, you > 0 ? you : 0));
}

/* The history, its words as the token's seat numbers the board (without
 * a token, or another game's, player 1's). */
EMSCRIPTEN_KEEPALIVE char *ko_history(const wgame *g, const char *token) {
    int you = ko_you(g, token);
    return text_of(wg_history_json(g, you > 0 ? you : 0));
}

/* The record as text (docs/notation.md), not JSON. */
EMSCRIPTEN_KEEPALIVE char *ko_record(const wgame *g) {
    return wg_record(g);
}

EMSCRIPTEN_KEEPALIVE char *ko_steps(const wgame *g, const char *done) {
    char why[256];
    json_t *o;
    int status = wg_steps_json(g, done, &o, why, sizeof why);
    return o ? text_of(o) : error_json(status, "%s", why);
}

EMSCRIPTEN_KEEPALIVE char *ko_explain(const wgame *g, const char *move) {
    char why[256];
    json_t *o;
    int status = wg_explain_json(g, move, &o, why, sizeof why);
    return o ? text_of(o) : error_json(status, "%s", why);
}

/* Why seat `you` may not act now, as an error answer; NULL if it may. */
static char *may_not_act(const wgame *g, int you, bool any_time) {
    const kemet_pos *pos = kemet_game_pos(g->g);
    if (you == 0)
        return error_json(401, "this needs the player's token; without it "
                               "you can only watch");
    if (you < 0)
        return error_json(403, "the token is not one of this game's");
    if (wg_result(g) != KEMET_PLAYING)
        return error_json(409, "the game is over");
    if (!any_time && pos->to != you)
        return error_json(409, "it is the turn of %s, not yours",
                          kemet_rules_info(g->rules)->player[pos->to - 1]);
    return NULL;
}

/* An action of the seat `token` holds: "throw", "move" (text: the move),
 * "resign" or "takeback". The game's state after it, as the token's
 * holder sees it, or why not (the game as it was). */
EMSCRIPTEN_KEEPALIVE char *ko_act(wgame *g, const char *token, const char *kind,
                                  const char *text) {
    int you = ko_you(g, token);
    bool any_time =
        strcmp(kind, "resign") == 0 || strcmp(kind, "takeback") == 0;
    if (strcmp(kind, "takeback") == 0 && you > 0 &&
        !wg_seat_level(g->seat[2 - you]))
        return error_json(409, "between two people a move stands: take-back "
                               "is against the computer");
    char *no = may_not_act(g, you, any_time);
    if (no)
        return no;
    long first = g->version;
    int rc;
    char why[256];
    if (strcmp(kind, "throw") == 0) {
        if (kemet_game_throw(g->g))
            return error_json(409,
                              "the sticks are thrown already: make your move");
        rc = wg_throw(g, NULL);
        if (rc == 0)
            rc = wg_after_throw(g);
    } else if (strcmp(kind, "move") == 0) {
        kemet_move m;
        if (!wg_read_move(g, text, &m, why, sizeof why))
            return error_json(400, "%s", why);
        if (kc_explain(g->rules, kemet_game_pos(g->g), kemet_game_throw(g->g),
                       &m, why, sizeof why))
            return error_json(422, "%s", why);
        rc = wg_move(g, &m);
    } else if (strcmp(kind, "resign") == 0)
        rc = wg_resign(g, you);
    else if (strcmp(kind, "takeback") == 0) {
        rc = wg_takeback(g, you);
        if (rc == KEMET_EILLEGAL)
            return error_json(409, "you have no move to take back");
    } else
        return error_json(404, "no such action: %.40s", kind);
    if (rc) {
        wg_rebuild(g, first);
        return error_json(500, "%s", kemet_strerror(rc));
    }
    /* two people at one device: the seat to move now */
    return ko_state(g, ko_you(g, token));
}

EMSCRIPTEN_KEEPALIVE char *ko_hint(const wgame *g, const char *token) {
    char *no = may_not_act(g, ko_you(g, token), false);
    if (no)
        return no;
    const kemet_throw *t = kemet_game_throw(g->g);
    json_t *o = wg_hint_json(g->judge, kemet_game_pos(g->g), t, NULL, NULL);
    return o ? text_of(o) : error_json(500, "out of memory");
}

/* The review of a finished game (resigned too), kept until the game
 * changes. */
EMSCRIPTEN_KEEPALIVE char *ko_review(wgame *g) {
    if (wg_result(g) == KEMET_PLAYING)
        return error_json(409, "the game is not over: a review would "
                               "advise the players");
    if (!g->review || g->review_version != g->played) {
        char *text = wg_review_text(g->judge, kemet_game_start(g->g),
                                    kemet_game_history(g->g), g->nply,
                                    wg_result(g), wg_resigned(g), NULL, NULL);
        if (!text)
            return error_json(500, "out of memory");
        free(g->review);
        g->review = text;
        g->review_version = g->played;
    }
    return strdup(g->review);
}

/* POST .../rematch, where both seats are on this page: the rematch is
 * made at once. `id` is the id the worker gives the new game when there
 * is none yet (it makes that game, the same ruleset and seats, with
 * ko_new); the answer is {"id": ID, "you": SEAT, "made": true} for a new
 * rematch, "made": false with the id of the one made before. The rematch
 * is an action of this game (ko_actions keeps it), so its version moves. */
EMSCRIPTEN_KEEPALIVE char *ko_rematch(wgame *g, const char *token,
                                      const char *id) {
    int you = ko_you(g, token);
    if (you == 0)
        return error_json(401, "a rematch needs the player's token");
    if (you < 0)
        return error_json(403, "the token is not one of this game's");
    if (wg_result(g) == KEMET_PLAYING)
        return error_json(409, "the game is not over: a rematch comes after "
                               "it");
    bool made = !g->rematch[0];
    if (made) {
        long first = g->version;
        int rc = wg_rematched(g, id ? id : "");
        if (rc) {
            wg_rebuild(g, first);
            return rc == KEMET_EILLEGAL
                       ? error_json(400,
                                    "'%.40s' is not a game id for the "
                                    "rematch",
                                    id ? id : "")
                       : error_json(500, "%s", kemet_strerror(rc));
        }
    }
    return text_of(json_pack("{s:s, s:i, s:b}", "id", g->rematch, "you", you,
                             "made", made));
}

/* The computer's next action, if it is to act: 1 made, 0 none due, or a
 * negative kemet error (the game as it was). */
EMSCRIPTEN_KEEPALIVE int ko_computer(wgame *g) {
    wg_plan plan;
    if (!wg_computer_to_act(g))
        return 0;
    long first = g->version;
    int rc = wg_computer_plan(g, &plan);
    if (rc == 0)
        rc = wg_plan_choose(&plan);
    if (rc == 0)
        rc = wg_computer_apply(g, &plan);
    if (rc) {
        wg_rebuild(g, first);
        return rc < 0 ? rc : KEMET_ENOMEM;
    }
    return 1;
}

/* The game's actions, [[KIND, TEXT], ...], for the browser's storage. */
EMSCRIPTEN_KEEPALIVE char *ko_actions(const wgame *g) {
    json_t *a = json_array();
    for (long i = 0; i < g->version; i++)
        json_array_append_new(
            a,
            json_pack("[s,s]", wg_kind_name(g->act[i].kind), g->act[i].text));
    return text_of(a);
}

/* Replays one stored action: NULL, or why it does not fit (malloc'd). */
EMSCRIPTEN_KEEPALIVE char *ko_replay(wgame *g, const char *kind,
                                     const char *text) {
    char why[256];
    if (wg_replay(g, kind, text, why, sizeof why) == 0)
        return NULL;
    return strdup(why);
}
