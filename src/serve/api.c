/* api.c - the JSON API of `kemet serve` (docs/api.md): each handler
 * answers one request (server.h).
 */
#include "server.h"

#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * The API
 * --------------------------------------------------------------------- */
/* Made once at the start (server.c), with its gzipped form. */
enum MHD_Result api_rulesets(server *S, struct MHD_Connection *c) {
    return srv_answer_gz(c, MHD_HTTP_OK, "application/json", S->rulesets,
                         S->rulesets_len, true, S->rulesets_gz,
                         S->rulesets_gz_len);
}

/* The seats of a new game from {"players": [P1, P2]}, each "human" or
 * {"computer": LEVEL} / "computer:LEVEL". */
static const char *parse_seat(json_t *v, char *out, size_t len) {
    if (json_is_string(v) && strcmp(json_string_value(v), "human") == 0) {
        snprintf(out, len, "human");
        return NULL;
    }
    json_int_t level = 0;
    if (json_is_string(v) && strncmp(json_string_value(v), "computer:", 9) == 0)
        level = wg_seat_level(json_string_value(v));
    else if (json_is_object(v) &&
             json_is_integer(json_object_get(v, "computer")))
        level = json_integer_value(json_object_get(v, "computer"));
    else
        return "each player is \"human\" or {\"computer\": LEVEL}";
    if (level < 1 || level > 5)
        return "a computer's level is 1 to 5";
    snprintf(out, len, "computer:%d", (int)level);
    return NULL;
}

/* A new game refused: this address, or all of them, made as many as
 * they may for now. */
static enum MHD_Result too_many_games(server *S, struct MHD_Connection *c,
                                      int wait) {
    char msg[300];
    snprintf(msg, sizeof msg,
             "too many new games: an address may make %ld at once and %ld a "
             "minute, all together a few more; try again in %d s",
             S->o.new_games, S->o.new_games, wait);
    return srv_error_retry(c, 429, wait, msg);
}

enum MHD_Result api_create(server *S, struct MHD_Connection *c,
                           const request *q) {
    json_t *o = q->json; /* an object, or NULL: no body (server.c) */
    json_t *rs = json_object_get(o, "ruleset"),
           *pl = json_object_get(o, "players");
    const char *why = NULL;
    char seat[2][32];
    const kemet_rules *r = NULL;
    if (!json_is_string(rs))
        why = "give the ruleset: {\"ruleset\": \"senet-kendall\", ...}";
    else if (!(r = srv_rules_of(S, json_string_value(rs))))
        why = "unknown ruleset (GET /api/rulesets lists them)";
    else if (!pl)
        snprintf(seat[0], sizeof seat[0], "human"),
            snprintf(seat[1], sizeof seat[1], "computer:2");
    else if (!json_is_array(pl) || json_array_size(pl) != 2)
        why = "players is an array of two: [\"human\", {\"computer\": 3}]";
    else
        for (int p = 0; p < 2 && !why; p++)
            why = parse_seat(json_array_get(pl, (size_t)p), seat[p],
                             sizeof seat[p]);
    if (!why && wg_seat_level(seat[0]) && wg_seat_level(seat[1]))
        why = "at least one player must be human";
    if (why)
        return srv_error(c, 400, "%s", why);
    int wait = srv_may_create(S, c);
    if (wait)
        return too_many_games(S, c, wait);
    char id[WG_ID + 1], tok[2][WG_TOKEN + 1] = {"", ""};
    uint64_t seed;
    if (srv_random_hex(id, WG_ID) || srv_random_bytes(&seed, sizeof seed))
        return srv_error(c, 500, "no random numbers");
    for (int p = 0; p < 2; p++)
        if (!wg_seat_level(seat[p]) && srv_random_hex(tok[p], WG_TOKEN))
            return srv_error(c, 500, "no random numbers");
    const char *seats[2] = {seat[0], seat[1]}, *toks[2] = {tok[0], tok[1]};
    /* where the opening decides who plays black (Jequier's first 1), the
       players named first and second are seated by it: "you" is the one
       named first where it is a person */
    int first = 1;
    if (kemet_opening_black(r, seed) == 1) {
        first = 2;
        seats[0] = seat[1], seats[1] = seat[0];
        toks[0] = tok[1], toks[1] = tok[0];
    }
    wgame *g = wg_new(srv_judge_of(S, r), seed, id, seats, toks,
                      (long long)time(NULL));
    if (!g)
        return srv_error(c, 500, "out of memory");
    pthread_mutex_lock(&S->mu);
    bool full = S->nall >= S->o.max_games;
    int rc = full ? -1 : store_game(S->db, g);
    if (rc && !full)
        fprintf(stderr, "kemet: serve: %s\n", store_error(S->db));
    else if (!full && (rc = srv_add_locked(S, g)) == 0)
        g->refs++; /* held while it is answered */
    pthread_mutex_unlock(&S->mu);
    if (rc) {
        wg_free(g);
        return full ? srv_error(c, 503,
                                "the server holds as many games as it may "
                                "(%ld); no new game now",
                                S->o.max_games)
                    : srv_error(c, 500, "the game could not be stored");
    }
    pthread_mutex_lock(&g->mu);
    int you = wg_seat_level(seat[0]) ? 3 - first : first;
    json_t *state = wg_state_json(g, you);
    srv_changed(S, g);
    pthread_mutex_unlock(&g->mu);
    srv_release(S, g);
    json_t *tokens = json_object();
    for (int p = 0; p < 2; p++)
        if (toks[p][0]) {
            char k[2] = {(char)('1' + p), 0};
            json_object_set_new(tokens, k, json_string(toks[p]));
        }
    return srv_answer_json(c, MHD_HTTP_CREATED,
                           json_pack("{s:s, s:o, s:i, s:[i,i], s:o}", "id", id,
                                     "tokens", tokens, "you", you, "seated",
                                     first, 3 - first, "state", state));
}

/* The games whose ids are given (?ids=ID,ID...; at most MAX_IDS). */
enum MHD_Result api_list(server *S, struct MHD_Connection *c) {
    const char *ids =
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "ids");
    char *buf = strdup(ids ? ids : "");
    if (!buf)
        return srv_error(c, 500, "out of memory");
    wgame *found[MAX_IDS];
    int k = 0, n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save), k++) {
        if (k == MAX_IDS) {
            for (int i = 0; i < n; i++)
                srv_release(S, found[i]);
            free(buf);
            return srv_error(c, 400,
                             "at most %d ids at once: ask for the others in "
                             "another request",
                             MAX_IDS);
        }
        wgame *g = srv_find(S, t);
        if (g)
            found[n++] = g;
    }
    free(buf);
    /* Without ids, nothing: a game is listed only to those who know it. */
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        pthread_mutex_lock(&found[i]->mu);
        json_array_append_new(a, wg_summary_json(found[i]));
        pthread_mutex_unlock(&found[i]->mu);
        srv_release(S, found[i]);
    }
    return srv_answer_json(c, MHD_HTTP_OK, json_pack("{s:o}", "games", a));
}

/* Server-Sent Events: "change" with the game's version at once and after
 * every change; a comment every SSE_PING seconds keeps the connection
 * open. Between them the connection is put aside. */
typedef struct sse {
    server *S;
    wgame *g;
    struct MHD_Connection *c;
    long sent;
    time_t ping; /* when the next comment is due */
    bool told;   /* of the stop */
    waiter w;
} sse;

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)pos;
    sse *e = cls;
    wgame *g = e->g;
    time_t now = time(NULL);
    pthread_mutex_lock(&g->mu);
    long v = g->version;
    bool expired = g->expired;
    if (atomic_load(&e->S->stopping) || expired) {
        pthread_mutex_unlock(&g->mu);
        if (e->told)
            return MHD_CONTENT_READER_END_OF_STREAM;
        e->told = true;
        return expired
                   ? snprintf(buf, max,
                              "event: expired\ndata: {\"error\":\"the game "
                              "expired\",\"status\":410}\n\n")
                   : snprintf(buf, max,
                              "event: stop\ndata: {\"error\":\"the server is "
                              "stopping\",\"status\":503}\n\n");
    }
    if (v == e->sent && now < e->ping) {
        srv_wait(e->S, &e->w, e->c, g, (long)(e->ping - now));
        pthread_mutex_unlock(&g->mu);
        return 0;
    }
    pthread_mutex_unlock(&g->mu);
    e->ping = now + SSE_PING;
    if (v == e->sent)
        return snprintf(buf, max, ": still here\n\n");
    e->sent = v;
    return snprintf(buf, max, "event: change\ndata: {\"version\":%ld}\n\n", v);
}

static void sse_free(void *cls) {
    sse *e = cls;
    srv_unwait(e->S, &e->w);
    srv_release(e->S, e->g);
    free(e);
}

enum MHD_Result api_events(server *S, struct MHD_Connection *c, wgame *g,
                           request *q) {
    sse *e = calloc(1, sizeof *e);
    if (!e)
        return MHD_NO;
    srv_owe(S, q); /* a stop ends the stream cleanly */
    *e = (sse){.S = S, .g = g, .c = c, .sent = -1, .ping = time(NULL)};
    srv_hold(S, g);
    struct MHD_Response *r = MHD_create_response_from_callback(
        MHD_SIZE_UNKNOWN, 256, sse_read, e, sse_free);
    if (!r) {
        sse_free(e);
        return MHD_NO;
    }
    srv_headers(r, "text/event-stream", false);
    enum MHD_Result rc = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return rc;
}

enum MHD_Result api_state(server *S, struct MHD_Connection *c, wgame *g,
                          int you, request *q) {
    const char *after =
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "after");
    long v = -1;
    if (after) {
        char *end;
        errno = 0;
        v = strtol(after, &end, 10);
        if (*end || end == after || v < 0 || errno)
            return srv_error(c, 400, "after is a version number");
    }
    time_t now = time(NULL);
    if (after)
        srv_owe(S, q); /* may be put aside: a stop answers it */
    pthread_mutex_lock(&g->mu);
    if (g->expired) {
        pthread_mutex_unlock(&g->mu);
        return srv_gone(S, c);
    }
    if (after && q->deadline == 0)
        q->deadline = now + S->o.wait_seconds;
    /* long polling: the answer waits (the connection put aside) until a
       version other than `after`, or the end of the wait */
    if (after && g->version == v && now < q->deadline &&
        !atomic_load(&S->stopping)) {
        srv_wait(S, &q->w, c, g, (long)(q->deadline - now));
        pthread_mutex_unlock(&g->mu);
        return MHD_YES;
    }
    json_t *o = wg_state_json(g, you > 0 ? you : 0);
    pthread_mutex_unlock(&g->mu);
    return srv_answer_json(c, MHD_HTTP_OK, o);
}

enum MHD_Result api_history(struct MHD_Connection *c, wgame *g, int you) {
    pthread_mutex_lock(&g->mu);
    json_t *o = wg_history_json(g, you > 0 ? you : 0);
    pthread_mutex_unlock(&g->mu);
    return srv_answer_json(c, MHD_HTTP_OK, o);
}

enum MHD_Result api_record(struct MHD_Connection *c, wgame *g) {
    pthread_mutex_lock(&g->mu);
    char *text = wg_record(g);
    pthread_mutex_unlock(&g->mu);
    if (!text)
        return srv_error(c, 500, "out of memory");
    return srv_answer(c, MHD_HTTP_OK, "text/plain; charset=utf-8", text,
                      strlen(text));
}

/* The next steps of a turn entered step by step (kemet_next_steps). */
enum MHD_Result api_steps(struct MHD_Connection *c, wgame *g) {
    const char *done =
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "done");
    char why[256];
    json_t *o;
    pthread_mutex_lock(&g->mu);
    int status = wg_steps_json(g, done, &o, why, sizeof why);
    pthread_mutex_unlock(&g->mu);
    return o ? srv_answer_json(c, MHD_HTTP_OK, o)
             : srv_error(c, (unsigned)status, "%s", why);
}

enum MHD_Result api_explain(struct MHD_Connection *c, wgame *g) {
    const char *text =
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "move");
    char why[256];
    json_t *o;
    pthread_mutex_lock(&g->mu);
    int status = wg_explain_json(g, text, &o, why, sizeof why);
    pthread_mutex_unlock(&g->mu);
    return o ? srv_answer_json(c, MHD_HTTP_OK, o)
             : srv_error(c, (unsigned)status, "%s", why);
}

/* Checks that seat `you` may act now (g->mu held); answers and returns
 * false when not. */
static bool may_act(struct MHD_Connection *c, wgame *g, int you,
                    enum MHD_Result *rc) {
    const kemet_pos *pos = kemet_game_pos(g->g);
    const kemet_info *info = kemet_rules_info(g->rules);
    if (you == 0)
        *rc = srv_error(c, 401,
                        "this needs the player's token (Authorization: Bearer "
                        "TOKEN); without it you can only watch");
    else if (you < 0)
        *rc = srv_error(c, 403, "the token is not one of this game's");
    else if (wg_result(g) != KEMET_PLAYING)
        *rc = srv_error(c, 409, "the game is over");
    else if (pos->to != you)
        *rc = srv_error(c, 409, "it is the turn of %s, not yours",
                        info->player[pos->to - 1]);
    else
        return true;
    return false;
}

/* The end of an action (g->mu held, released here): `rc` is what making
 * the actions since `first` in memory gave. On success they are stored and
 * the state answered; otherwise the game is put back and `status`/`why`
 * answered, or a 500 if the store failed. */
static enum MHD_Result finish(server *S, struct MHD_Connection *c, wgame *g,
                              int you, long first, int rc, unsigned status,
                              const char *why) {
    if (rc) {
        wg_rebuild(g, first);
        pthread_mutex_unlock(&g->mu);
        return srv_error(c, status, "%s", why);
    }
    if (srv_save(S, g, first)) {
        bool expired = g->expired;
        pthread_mutex_unlock(&g->mu);
        return expired ? srv_gone(S, c)
                       : srv_error(c, 500,
                                   "the action could not be stored; "
                                   "nothing changed");
    }
    srv_changed(S, g);
    json_t *o = wg_state_json(g, you);
    pthread_mutex_unlock(&g->mu);
    return srv_answer_json(c, MHD_HTTP_OK, o);
}

enum MHD_Result api_throw(server *S, struct MHD_Connection *c, wgame *g,
                          int you) {
    enum MHD_Result rc;
    pthread_mutex_lock(&g->mu);
    if (!may_act(c, g, you, &rc)) {
        pthread_mutex_unlock(&g->mu);
        return rc;
    }
    if (kemet_game_throw(g->g)) {
        pthread_mutex_unlock(&g->mu);
        return srv_error(c, 409,
                         "the sticks are thrown already: make your move");
    }
    long first = g->version;
    int made = wg_throw(g, NULL);
    if (made == 0)
        made = wg_after_throw(g);
    return finish(S, c, g, you, first, made, 500, "out of memory");
}

/* For an action a seat may take at any time (`doing` names it): checks
 * the token and locks the game while it goes on; answers and returns
 * false otherwise (unlocked). */
static bool seat_may(struct MHD_Connection *c, wgame *g, int you,
                     const char *doing, enum MHD_Result *rc) {
    if (you == 0)
        *rc = srv_error(c, 401, "%s needs the player's token", doing);
    else if (you < 0)
        *rc = srv_error(c, 403, "the token is not one of this game's");
    else {
        pthread_mutex_lock(&g->mu);
        if (wg_result(g) == KEMET_PLAYING)
            return true;
        pthread_mutex_unlock(&g->mu);
        *rc = srv_error(c, 409, "the game is over");
    }
    return false;
}

/* POST .../resign: the seat whose token it is gives the game up, at any
 * time, its turn or not; the other side wins. */
enum MHD_Result api_resign(server *S, struct MHD_Connection *c, wgame *g,
                           int you) {
    enum MHD_Result rc;
    if (!seat_may(c, g, you, "resigning", &rc))
        return rc;
    long first = g->version;
    return finish(S, c, g, you, first, wg_resign(g, you), 500, "out of memory");
}

/* POST .../takeback: against the computer, the seat whose token it is
 * takes back its last move and the computer's answers; the same throw is
 * then pending again. Between two people a move stands. */
enum MHD_Result api_takeback(server *S, struct MHD_Connection *c, wgame *g,
                             int you) {
    if (you > 0 && !wg_seat_level(g->seat[2 - you]))
        return srv_error(c, 409,
                         "between two people a move stands: take-back "
                         "is against the computer");
    enum MHD_Result rc;
    if (!seat_may(c, g, you, "taking back", &rc))
        return rc;
    long first = g->version;
    int made = wg_takeback(g, you);
    if (made == KEMET_EILLEGAL) {
        pthread_mutex_unlock(&g->mu);
        return srv_error(c, 409, "you have no move to take back");
    }
    return finish(S, c, g, you, first, made, 500, "out of memory");
}

enum MHD_Result api_move(server *S, struct MHD_Connection *c, wgame *g, int you,
                         const request *q) {
    json_t *mv = json_object_get(q->json, "move"); /* NULL: no body */
    char why[256];
    kemet_move m;
    bool ok = json_is_string(mv) &&
              wg_read_move(g, json_string_value(mv), &m, why, sizeof why);
    if (!json_is_string(mv))
        snprintf(why, sizeof why,
                 "give the move as a string: {\"move\": \"9-12\"}");
    if (!ok)
        return srv_error(c, 400, "%s", why);
    enum MHD_Result rc;
    pthread_mutex_lock(&g->mu);
    if (!may_act(c, g, you, &rc)) {
        pthread_mutex_unlock(&g->mu);
        return rc;
    }
    const kemet_pos *pos = kemet_game_pos(g->g);
    const kemet_throw *t = kemet_game_throw(g->g);
    if (kc_explain(g->rules, pos, t, &m, why, sizeof why)) {
        pthread_mutex_unlock(&g->mu);
        return srv_error(c, 422, "%s", why);
    }
    long first = g->version;
    return finish(S, c, g, you, first, wg_move(g, &m), 422,
                  "that move is not legal here");
}

/* A queued analysis refused: too many of this client's, or in all. */
static enum MHD_Result busy(struct MHD_Connection *c, int status, int kind) {
    int retry = kind == JOB_HINT ? RETRY_HINT : RETRY_REVIEW;
    const char *what = kind == JOB_HINT ? "hints" : "reviews";
    char msg[200];
    if (status == 429)
        snprintf(msg, sizeof msg,
                 "too many %s asked for from your address are waiting (at "
                 "most %d): try again when they are answered",
                 what, ANALYSIS_PER_ADDRESS);
    else if (status == 503)
        snprintf(msg, sizeof msg,
                 "the server has as many %s waiting as it takes, or is "
                 "stopping: try again later",
                 what);
    else
        return srv_error(c, 500, "out of memory");
    return srv_error_retry(c, (unsigned)status, retry, msg);
}

/* POST .../hint: on the hint thread, which no review delays; requests for
 * the same position share one search. */
enum MHD_Result api_hint(server *S, struct MHD_Connection *c, wgame *g, int you,
                         request *q) {
    if (q->j)
        return srv_job_answer(c, q);
    enum MHD_Result rc;
    pthread_mutex_lock(&g->mu);
    if (!may_act(c, g, you, &rc)) {
        pthread_mutex_unlock(&g->mu);
        return rc;
    }
    const kemet_throw *pt = kemet_game_throw(g->g);
    job want = {.kind = JOB_HINT,
                .judge = g->judge,
                .pos = *kemet_game_pos(g->g),
                .thr = pt ? *pt : (kemet_throw){0}};
    /* identical hints, whatever the game: the ruleset, the position and
       the throw's values (and whom each serves) */
    char text[512];
    kemet_pos_format(g->rules, &want.pos, text, sizeof text);
    int n = snprintf(want.key, sizeof want.key, "%s|%s|",
                     kemet_rules_spec(g->rules), text);
    for (int i = 0; i < want.thr.n && n > 0 && n < (int)sizeof want.key - 16;
         i++)
        n += snprintf(want.key + n, sizeof want.key - (size_t)n, "%d/%d,",
                      want.thr.v[i], want.thr.only[i]);
    pthread_mutex_unlock(&g->mu);
    char *kept;
    int status = srv_queue_job(S, q, &want, &kept);
    if (kept)
        return srv_answer(c, MHD_HTTP_OK, "application/json", kept,
                          strlen(kept));
    return status ? busy(c, status, JOB_HINT) : MHD_YES;
}

/* GET /api/games/ID/review: a finished game (resigned too) reviewed. Made
 * once per game by the review thread (the request put aside meanwhile;
 * others asking meanwhile wait for the same review) and kept with the
 * game, in memory and in the database. */
enum MHD_Result api_review(server *S, struct MHD_Connection *c, wgame *g,
                           request *q) {
    if (q->j)
        return srv_job_answer(c, q);
    pthread_mutex_lock(&g->mu);
    if (wg_result(g) == KEMET_PLAYING) {
        pthread_mutex_unlock(&g->mu);
        return srv_error(c, 409,
                         "the game is not over: a review would "
                         "advise the players");
    }
    if (!g->review || g->review_version != g->played) {
        long v = -1;
        char *t = NULL;
        pthread_mutex_lock(&S->mu);
        int found = store_review_get(S->db, g->id, &v, &t);
        pthread_mutex_unlock(&S->mu);
        if (found == 1 && v == g->played) {
            free(g->review);
            g->review = t;
            g->review_version = v;
        } else
            free(t);
    }
    if (g->review && g->review_version == g->played) {
        char *t = strdup(g->review);
        pthread_mutex_unlock(&g->mu);
        return t ? srv_answer(c, MHD_HTTP_OK, "application/json", t, strlen(t))
                 : srv_error(c, 500, "out of memory");
    }
    job want = {.kind = JOB_REVIEW,
                .g = g,
                .judge = g->judge,
                .version = g->played,
                .pos = *kemet_game_start(g->g),
                .nplies = g->nply,
                .result = wg_result(g),
                .resigned = wg_resigned(g)};
    want.plies = malloc((size_t)(g->nply ? g->nply : 1) * sizeof *want.plies);
    if (!want.plies) {
        pthread_mutex_unlock(&g->mu);
        return srv_error(c, 500, "out of memory");
    }
    if (g->nply) /* (no history yet: NULL) */
        memcpy(want.plies, kemet_game_history(g->g),
               (size_t)g->nply * sizeof *want.plies);
    snprintf(want.key, sizeof want.key, "%s|%ld", g->id, g->played);
    pthread_mutex_unlock(&g->mu);
    char *none;
    int status = srv_queue_job(S, q, &want, &none);
    free(want.plies); /* NULL once a job took it over */
    return status ? busy(c, status, JOB_REVIEW) : MHD_YES;
}

/* The answer of a rematch made: the new game, and the caller's seat and
 * token there (a game's tokens never change once it is made). */
static enum MHD_Result rematch_made(struct MHD_Connection *c, const wgame *n,
                                    int you) {
    return srv_answer_json(c, MHD_HTTP_OK,
                           json_pack("{s:s, s:s, s:i}", "id", n->id, "token",
                                     n->token[you - 1], "you", you));
}

/* POST .../rematch: after the game, the same players again. Against the
 * computer, or once the other seat has offered, the new game is made (the
 * same ruleset and seats); otherwise this seat's offer is kept (202) for
 * the other to take. Either is an action of the old game, so its watchers
 * see it. */
enum MHD_Result api_rematch(server *S, struct MHD_Connection *c, wgame *g,
                            int you) {
    if (you == 0)
        return srv_error(c, 401, "a rematch needs the player's token");
    if (you < 0)
        return srv_error(c, 403, "the token is not one of this game's");
    pthread_mutex_lock(&g->mu);
    if (wg_result(g) == KEMET_PLAYING) {
        pthread_mutex_unlock(&g->mu);
        return srv_error(c, 409,
                         "the game is not over: a rematch comes after "
                         "it");
    }
    if (g->rematch[0]) {
        wgame *n = srv_find(S, g->rematch);
        pthread_mutex_unlock(&g->mu);
        if (!n)
            return srv_gone(S, c);
        enum MHD_Result rc = rematch_made(c, n, you);
        srv_release(S, n);
        return rc;
    }
    int other = 3 - you;
    long first = g->version;
    if (!wg_seat_level(g->seat[other - 1]) && g->offered != other) {
        if (g->offered != you) {
            int rc = wg_offer(g, you);
            if (rc) {
                wg_rebuild(g, first);
                pthread_mutex_unlock(&g->mu);
                return srv_error(c, 500, "out of memory");
            }
            if (srv_save(S, g, first)) {
                pthread_mutex_unlock(&g->mu);
                return srv_error(c, 500,
                                 "the offer could not be stored; "
                                 "nothing changed");
            }
            srv_changed(S, g);
        }
        pthread_mutex_unlock(&g->mu);
        return srv_answer_json(c, MHD_HTTP_ACCEPTED,
                               json_pack("{s:i}", "offered_by", you));
    }
    /* the new game: the same ruleset and seats, its own seed and tokens */
    int wait = srv_may_create(S, c);
    if (wait) {
        pthread_mutex_unlock(&g->mu);
        return too_many_games(S, c, wait);
    }
    char id[WG_ID + 1], tok[2][WG_TOKEN + 1] = {"", ""};
    uint64_t seed;
    bool random_ok = srv_random_hex(id, WG_ID) == 0 &&
                     srv_random_bytes(&seed, sizeof seed) == 0;
    for (int p = 0; p < 2 && random_ok; p++)
        if (!wg_seat_level(g->seat[p]))
            random_ok = srv_random_hex(tok[p], WG_TOKEN) == 0;
    if (!random_ok) {
        pthread_mutex_unlock(&g->mu);
        return srv_error(c, 500, "no random numbers");
    }
    const char *seats[2] = {g->seat[0], g->seat[1]},
               *toks[2] = {tok[0], tok[1]};
    wgame *n = wg_new(g->judge, seed, id, seats, toks, (long long)time(NULL));
    if (!n || wg_rematched(g, id)) {
        wg_rebuild(g, first);
        pthread_mutex_unlock(&g->mu);
        wg_free(n);
        return srv_error(c, 500, "out of memory");
    }
    pthread_mutex_lock(&S->mu);
    bool full = S->nall >= S->o.max_games;
    int rc = full ? -1 : store_rematch(S->db, n, g->id, first);
    if (rc && !full)
        fprintf(stderr, "kemet: serve: %s\n", store_error(S->db));
    else if (!full && (rc = srv_add_locked(S, n)) == 0)
        n->refs++; /* held while it is answered */
    pthread_mutex_unlock(&S->mu);
    if (rc) {
        wg_rebuild(g, first);
        pthread_mutex_unlock(&g->mu);
        wg_free(n);
        return full ? srv_error(c, 503,
                                "the server holds as many games as it may "
                                "(%ld); no new game now",
                                S->o.max_games)
                    : srv_error(c, 500,
                                "the rematch could not be stored; "
                                "nothing changed");
    }
    srv_changed(S, g);
    pthread_mutex_unlock(&g->mu);
    pthread_mutex_lock(&n->mu);
    srv_changed(S, n); /* the computer may begin */
    pthread_mutex_unlock(&n->mu);
    enum MHD_Result made = rematch_made(c, n, you);
    srv_release(S, n);
    return made;
}

/* The addresses others may reach the server at, best first: the names of
 * --allow-host, then the listening address, or when it listens on every
 * address the machine's own (none but loopback ones: none). */
static json_t *urls_json(const server *S) {
    json_t *a = json_array();
    char url[320];
    for (const char *h = S->hosts; h && *h;) {
        size_t k = strcspn(h, ",");
        if (k > 0 && k < 256) {
            snprintf(url, sizeof url, "http://%.*s:%u/", (int)k, h, S->port);
            json_array_append_new(a, json_string(url));
        }
        h += k + (h[k] == ',');
    }
    if (S->loopback)
        return a;
    bool v6 = S->family == AF_INET6;
    char text[INET6_ADDRSTRLEN];
    if (!S->any_addr) {
        inet_ntop(S->family, S->listen_addr, text, sizeof text);
        snprintf(url, sizeof url, "http://%s%s%s:%u/", v6 ? "[" : "", text,
                 v6 ? "]" : "", S->port);
        json_array_append_new(a, json_string(url));
        return a;
    }
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) != 0)
        return a;
    for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
        const struct sockaddr *sa = i->ifa_addr;
        if (!sa || sa->sa_family != S->family)
            continue;
        const void *in =
            v6 ? (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr
               : (const void *)&((const struct sockaddr_in *)sa)->sin_addr;
        if (v6 ? IN6_IS_ADDR_LOOPBACK((const struct in6_addr *)in) ||
                     /* a link-local address needs a zone: no use in a link */
                     IN6_IS_ADDR_LINKLOCAL((const struct in6_addr *)in)
               : *(const unsigned char *)in == 127)
            continue;
        inet_ntop(S->family, in, text, sizeof text);
        snprintf(url, sizeof url, "http://%s%s%s:%u/", v6 ? "[" : "", text,
                 v6 ? "]" : "", S->port);
        json_array_append_new(a, json_string(url));
    }
    freeifaddrs(ifs);
    return a;
}

/* GET /api/server: where the server listens and may be reached (for an
 * invitation's link), and its analyses' queues. */
enum MHD_Result api_server(server *S, struct MHD_Connection *c) {
    json_t *kinds[JOB_KINDS];
    pthread_mutex_lock(&S->mu);
    for (int k = 0; k < JOB_KINDS; k++) {
        int queued = 0;
        for (const job *j = S->jobs[k]; j; j = j->next)
            queued++;
        kinds[k] =
            json_pack("{s:i, s:b, s:I, s:I}", "queued", queued, "running",
                      S->running[k] != NULL, "made", (json_int_t)S->made[k],
                      "dropped", (json_int_t)S->dropped[k]);
    }
    json_object_set_new(kinds[JOB_HINT], "cached",
                        json_integer((json_int_t)S->cached_answers));
    json_t *games = json_pack(
        "{s:I, s:I, s:I, s:I, s:I}", "held", (json_int_t)S->nall, "max",
        (json_int_t)S->o.max_games, "expired", (json_int_t)S->expired, "expire",
        (json_int_t)S->o.expire, "new_games", (json_int_t)S->o.new_games);
    json_t *computer =
        json_pack("{s:I, s:i, s:I, s:I}", "live", (json_int_t)S->players_live,
                  "cap", COMPUTER_CAP, "idle", (json_int_t)S->o.computer_idle,
                  "made", (json_int_t)S->players_made);
    pthread_mutex_unlock(&S->mu);
    return srv_answer_json(
        c, MHD_HTTP_OK,
        json_pack("{s:s, s:i, s:b, s:o, s:o, s:o, s:{s:i, s:i, s:i, s:i, "
                  "s:o, s:o}}",
                  "host", S->o.host ? S->o.host : "", "port", (int)S->port,
                  "loopback", S->loopback, "urls", urls_json(S), "games", games,
                  "computer", computer, "analysis", "per_address",
                  ANALYSIS_PER_ADDRESS, "queue", ANALYSIS_QUEUE, "queue_hard",
                  ANALYSIS_HARD, "hint_bound_ms", HINT_BOUND_MS, "hints",
                  kinds[JOB_HINT], "reviews", kinds[JOB_REVIEW]));
}
