/* serve.c - `kemet serve`: the games in the browser.
 *
 * An HTTP server (libmicrohttpd, a thread per connection) serving the page
 * (web/, embedded at build time) at / and a JSON API under /api/
 * (docs/api.md). Games live in memory and in SQLite (store.c): each
 * action is stored before it is answered, and at start-up every stored
 * game is replayed to where it stood. The computer's moves are made by a
 * worker thread, so that a player's request never waits for a search.
 * Changes reach watchers by Server-Sent Events or long polling.
 */
#include "wgame.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

extern const char kemet_web_index[];
extern const char kemet_web_app_js[];
extern const char kemet_web_app_css[];

#define BODY_MAX 16384 /* bytes of a request body */
#define NBUCKET 4096
#define MAX_RULES 32

typedef struct server {
    store *db;
    kemet_rules *rules[MAX_RULES];
    int nrules;
    pthread_mutex_t mu; /* guards the tables, the queue and `db` */
    wgame *bucket[NBUCKET];
    wgame **all; /* in order of creation */
    long nall, capall;
    wgame **queue; /* games where the computer is to act */
    long qhead, qlen, qcap;
    pthread_cond_t work;
    pthread_t worker;
    atomic_bool stopping;
} server;

/* ------------------------------------------------------------------------
 * Random ids and tokens, and the games table
 * --------------------------------------------------------------------- */
static int random_bytes(void *buf, size_t n) {
    unsigned char *p = buf;
    while (n) {
        ssize_t k = getrandom(p, n, 0);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int random_hex(char *out, int chars) {
    unsigned char b[32];
    if (random_bytes(b, (size_t)chars / 2))
        return -1;
    for (int i = 0; i < chars / 2; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return 0;
}

static unsigned bucket_of(const char *id) {
    unsigned h = 2166136261u;
    for (; *id; id++)
        h = (h ^ (unsigned char)*id) * 16777619u;
    return h % NBUCKET;
}

/* With S->mu held. */
static wgame *find_locked(server *S, const char *id) {
    for (wgame *g = S->bucket[bucket_of(id)]; g; g = g->next)
        if (strcmp(g->id, id) == 0)
            return g;
    return NULL;
}

static wgame *find(server *S, const char *id) {
    pthread_mutex_lock(&S->mu);
    wgame *g = find_locked(S, id);
    pthread_mutex_unlock(&S->mu);
    return g;
}

/* With S->mu held. */
static int add_locked(server *S, wgame *g) {
    if (cli_grow(&S->all, &S->capall, S->nall, sizeof *S->all))
        return -1;
    S->all[S->nall++] = g;
    unsigned b = bucket_of(g->id);
    g->next = S->bucket[b];
    S->bucket[b] = g;
    return 0;
}

static const kemet_rules *rules_of(server *S, const char *spec) {
    for (int i = 0; i < S->nrules; i++)
        if (strcmp(kemet_rules_spec(S->rules[i]), spec) == 0 ||
            strcmp(kemet_rules_info(S->rules[i])->id, spec) == 0)
            return S->rules[i];
    return NULL;
}

/* ------------------------------------------------------------------------
 * The computer's worker
 * --------------------------------------------------------------------- */
/* Hands game g to the worker if the computer is to act (g->mu held). */
static void enqueue(server *S, wgame *g) {
    if (g->queued || !wg_computer_to_act(g))
        return;
    pthread_mutex_lock(&S->mu);
    if (S->qlen == S->qcap) {
        long cap = S->qcap ? 2 * S->qcap : 64;
        wgame **q = malloc((size_t)cap * sizeof *q);
        if (!q) {
            pthread_mutex_unlock(&S->mu);
            return;
        }
        for (long i = 0; i < S->qlen; i++)
            q[i] = S->queue[(S->qhead + i) % S->qcap];
        free(S->queue);
        S->queue = q;
        S->qhead = 0;
        S->qcap = cap;
    }
    S->queue[(S->qhead + S->qlen++) % S->qcap] = g;
    g->queued = true;
    pthread_cond_signal(&S->work);
    pthread_mutex_unlock(&S->mu);
}

/* The game changed: wake its watchers and, if the computer is to act,
 * the worker (g->mu held). */
static void changed(server *S, wgame *g) {
    pthread_cond_broadcast(&g->changed);
    enqueue(S, g);
}

/* Saves the actions made since `first` (g->mu held); -1 when the store
 * failed and the game was put back. */
static int save(server *S, wgame *g, long first) {
    pthread_mutex_lock(&S->mu);
    int rc = wg_save(g, S->db, first);
    if (rc)
        fprintf(stderr, "kemet: serve: %s\n", store_error(S->db));
    pthread_mutex_unlock(&S->mu);
    return rc;
}

static void *worker(void *arg) {
    server *S = arg;
    for (;;) {
        pthread_mutex_lock(&S->mu);
        while (S->qlen == 0 && !atomic_load(&S->stopping))
            pthread_cond_wait(&S->work, &S->mu);
        if (atomic_load(&S->stopping)) {
            pthread_mutex_unlock(&S->mu);
            return NULL;
        }
        wgame *g = S->queue[S->qhead];
        S->qhead = (S->qhead + 1) % S->qcap;
        S->qlen--;
        pthread_mutex_unlock(&S->mu);
        pthread_mutex_lock(&g->mu);
        g->queued = false;
        if (wg_computer_to_act(g)) {
            long first = g->version;
            int rc = wg_computer_step(g);
            if (rc)
                wg_rebuild(g, first);
            else if (save(S, g, first) == 0)
                changed(S, g);
        }
        pthread_mutex_unlock(&g->mu);
    }
}

/* ------------------------------------------------------------------------
 * Requests and answers
 * --------------------------------------------------------------------- */
typedef struct request {
    char *body;
    size_t len;
    bool too_big;
} request;

/* Queues a whole answer: `text` is malloc'd and taken over (answers to
 * the API, never cached), or with `page` one of the page's embedded files
 * (revalidated before reuse). */
static enum MHD_Result respond(struct MHD_Connection *c, unsigned status,
                               const char *type, const char *text, size_t len,
                               bool page) {
    struct MHD_Response *r = MHD_create_response_from_buffer(
        len, (void *)text,
        page ? MHD_RESPMEM_PERSISTENT : MHD_RESPMEM_MUST_FREE);
    if (!r) {
        if (!page)
            free((void *)text);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", page ? "no-cache" : "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result answer(struct MHD_Connection *c, unsigned status,
                              const char *type, char *text, size_t len) {
    return respond(c, status, type, text, len, false);
}

static enum MHD_Result answer_json(struct MHD_Connection *c, unsigned status,
                                   json_t *o) {
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!text)
        return MHD_NO;
    size_t len = strlen(text);
    char *t = realloc(text, len + 2);
    if (!t) {
        free(text);
        return MHD_NO;
    }
    t[len] = '\n';
    t[len + 1] = '\0';
    return answer(c, status, "application/json", t, len + 1);
}

static enum MHD_Result error(struct MHD_Connection *c, unsigned status,
                             const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum MHD_Result error(struct MHD_Connection *c, unsigned status,
                             const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return answer_json(
        c, status,
        json_pack("{s:s, s:i}", "error", msg, "status", (int)status));
}

static enum MHD_Result page(struct MHD_Connection *c, const char *text,
                            const char *type) {
    return respond(c, MHD_HTTP_OK, type, text, strlen(text), true);
}

/* The seat whose token the request carries: 1 or 2, 0 when none, -1 for a
 * token that is not one of the game's. */
static int seat_of(struct MHD_Connection *c, const wgame *g) {
    const char *t =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
    if (t && strncmp(t, "Bearer ", 7) == 0)
        t += 7;
    else
        t = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Kemet-Token");
    if (!t || !*t)
        return 0;
    for (int p = 0; p < 2; p++) {
        /* compared in full, whatever matches first */
        const char *k = g->token[p];
        size_t n = strlen(k);
        if (n == 0 || strlen(t) != n)
            continue;
        unsigned char diff = 0;
        for (size_t i = 0; i < n; i++)
            diff |= (unsigned char)(k[i] ^ t[i]);
        if (diff == 0)
            return p + 1;
    }
    return -1;
}

/* ------------------------------------------------------------------------
 * The API
 * --------------------------------------------------------------------- */
static json_t *ruleset_json(const kemet_rules *r) {
    const kemet_info *i = kemet_rules_info(r);
    const char *file = kemet_rules_board_file(r);
    const char *board = file                              ? "file"
                        : strncmp(i->id, "senet", 5) == 0 ? "senet"
                                                          : "58-holes";
    json_t *paths = json_array();
    for (int p = 1; p <= 2; p++) {
        json_t *a = json_array();
        for (int s = 0; s <= i->squares; s++)
            json_array_append_new(a, json_integer(kemet_square_cell(r, p, s)));
        json_array_append_new(paths, a);
    }
    kemet_pos start;
    kemet_start(r, &start);
    return json_pack(
        "{s:s, s:s, s:s, s:s, s:[s,s], s:s?, s:s?, s:i, s:i, s:i, s:s?, "
        "s:s, s:s?, s:o, s:o}",
        "id", kemet_rules_spec(r), "title", i->title, "source", i->source,
        "text", i->text, "players", i->player[0], i->player[1], "gone", i->gone,
        "in_hand", i->in_hand, "pieces", i->pieces, "squares", i->squares,
        "board_cells", i->board_cells, "board_note", i->board_note, "board",
        board, "board_file", file, "paths", paths, "start",
        wg_cells_json(r, &start));
}

static enum MHD_Result api_rulesets(server *S, struct MHD_Connection *c) {
    json_t *a = json_array();
    for (int i = 0; i < S->nrules; i++)
        json_array_append_new(a, ruleset_json(S->rules[i]));
    return answer_json(c, MHD_HTTP_OK, json_pack("{s:o}", "rulesets", a));
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

static enum MHD_Result api_create(server *S, struct MHD_Connection *c,
                                  const request *q) {
    json_error_t jerr;
    json_t *o = json_loadb(q->body ? q->body : "", q->len, 0, &jerr);
    if (!o)
        return error(c, 400, "the body is not JSON: %s", jerr.text);
    json_t *rs = json_object_get(o, "ruleset"),
           *pl = json_object_get(o, "players");
    const char *why = NULL;
    char seat[2][32];
    const kemet_rules *r = NULL;
    if (!json_is_object(o))
        why = "the body must be a JSON object";
    else if (!json_is_string(rs))
        why = "give the ruleset: {\"ruleset\": \"senet-kendall\", ...}";
    else if (!(r = rules_of(S, json_string_value(rs))))
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
    if (why) {
        json_decref(o);
        return error(c, 400, "%s", why);
    }
    json_decref(o);
    char id[WG_ID + 1], tok[2][WG_TOKEN + 1] = {"", ""};
    uint64_t seed;
    if (random_hex(id, WG_ID) || random_bytes(&seed, sizeof seed))
        return error(c, 500, "no random numbers");
    for (int p = 0; p < 2; p++)
        if (!wg_seat_level(seat[p]) && random_hex(tok[p], WG_TOKEN))
            return error(c, 500, "no random numbers");
    const char *seats[2] = {seat[0], seat[1]}, *toks[2] = {tok[0], tok[1]};
    wgame *g = wg_new(r, seed, id, seats, toks, (long long)time(NULL));
    if (!g)
        return error(c, 500, "out of memory");
    pthread_mutex_lock(&S->mu);
    int rc = store_game(S->db, g);
    if (rc)
        fprintf(stderr, "kemet: serve: %s\n", store_error(S->db));
    else
        rc = add_locked(S, g);
    pthread_mutex_unlock(&S->mu);
    if (rc) {
        wg_free(g);
        return error(c, 500, "the game could not be stored");
    }
    pthread_mutex_lock(&g->mu);
    int you = wg_seat_level(seat[0]) ? 2 : 1;
    json_t *state = wg_state_json(g, you);
    changed(S, g);
    pthread_mutex_unlock(&g->mu);
    json_t *tokens = json_object();
    for (int p = 0; p < 2; p++)
        if (tok[p][0]) {
            char k[2] = {(char)('1' + p), 0};
            json_object_set_new(tokens, k, json_string(tok[p]));
        }
    return answer_json(c, MHD_HTTP_CREATED,
                       json_pack("{s:s, s:o, s:i, s:o}", "id", id, "tokens",
                                 tokens, "you", you, "state", state));
}

static enum MHD_Result api_list(server *S, struct MHD_Connection *c) {
    const char *ids =
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "ids");
    json_t *a = json_array();
    if (ids) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", ids);
        char *save = NULL;
        for (char *t = strtok_r(buf, ",", &save); t;
             t = strtok_r(NULL, ",", &save)) {
            wgame *g = find(S, t);
            if (!g)
                continue;
            pthread_mutex_lock(&g->mu);
            json_array_append_new(a, wg_summary_json(g));
            pthread_mutex_unlock(&g->mu);
        }
    } else {
        pthread_mutex_lock(&S->mu);
        long n = S->nall, from = n > 100 ? n - 100 : 0;
        wgame *list[100];
        for (long i = n - 1, k = 0; i >= from; i--)
            list[k++] = S->all[i];
        pthread_mutex_unlock(&S->mu);
        for (long k = 0; k < n - from; k++) {
            pthread_mutex_lock(&list[k]->mu);
            json_array_append_new(a, wg_summary_json(list[k]));
            pthread_mutex_unlock(&list[k]->mu);
        }
    }
    return answer_json(c, MHD_HTTP_OK, json_pack("{s:o}", "games", a));
}

/* Server-Sent Events: "change" with the game's version at once and after
 * every change; a comment every 15 s keeps the connection open. */
typedef struct sse {
    server *S;
    wgame *g;
    long sent;
} sse;

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)pos;
    sse *e = cls;
    wgame *g = e->g;
    pthread_mutex_lock(&g->mu);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 15;
    int rc = 0;
    while (g->version == e->sent && !atomic_load(&e->S->stopping) &&
           rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&g->changed, &g->mu, &until);
    long v = g->version;
    pthread_mutex_unlock(&g->mu);
    if (atomic_load(&e->S->stopping))
        return MHD_CONTENT_READER_END_OF_STREAM;
    if (v == e->sent)
        return snprintf(buf, max, ": still here\n\n");
    e->sent = v;
    return snprintf(buf, max, "event: change\ndata: {\"version\":%ld}\n\n", v);
}

static enum MHD_Result api_events(server *S, struct MHD_Connection *c,
                                  wgame *g) {
    sse *e = malloc(sizeof *e);
    if (!e)
        return MHD_NO;
    *e = (sse){S, g, -1};
    struct MHD_Response *r = MHD_create_response_from_callback(
        MHD_SIZE_UNKNOWN, 256, sse_read, e, free);
    if (!r) {
        free(e);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "text/event-stream");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result rc = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result api_state(server *S, struct MHD_Connection *c, wgame *g,
                                 int you) {
    const char *after =
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "after");
    long v = -1;
    if (after) {
        char *end;
        v = strtol(after, &end, 10);
        if (*end || end == after || v < 0)
            return error(c, 400, "after is a version number");
    }
    pthread_mutex_lock(&g->mu);
    if (after) {
        /* long polling: wait up to 25 s for a version other than `after` */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 25;
        int rc = 0;
        while (g->version == v && !atomic_load(&S->stopping) && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&g->changed, &g->mu, &until);
    }
    json_t *o = wg_state_json(g, you > 0 ? you : 0);
    pthread_mutex_unlock(&g->mu);
    return answer_json(c, MHD_HTTP_OK, o);
}

static enum MHD_Result api_history(struct MHD_Connection *c, wgame *g) {
    pthread_mutex_lock(&g->mu);
    json_t *plies = json_array();
    json_array_append_new(plies,
                          json_pack("{s:i, s:o, s:s, s:o}", "ply", 0, "throw",
                                    json_null(), "words", g->opening, "cells",
                                    wg_cells_json(g->rules, &g->start)));
    for (long i = 0; i < g->nply; i++) {
        json_t *p = wg_ply_json(g, i);
        char text[512];
        kemet_pos_format(g->rules, &g->ply[i].after, text, sizeof text);
        json_object_set_new(p, "position", json_string(text));
        json_object_set_new(p, "cells",
                            wg_cells_json(g->rules, &g->ply[i].after));
        json_array_append_new(plies, p);
    }
    json_t *o = wg_summary_json(g);
    pthread_mutex_unlock(&g->mu);
    json_object_set_new(o, "history", plies);
    return answer_json(c, MHD_HTTP_OK, o);
}

static enum MHD_Result api_record(struct MHD_Connection *c, wgame *g) {
    pthread_mutex_lock(&g->mu);
    char *text = wg_record(g);
    pthread_mutex_unlock(&g->mu);
    if (!text)
        return error(c, 500, "out of memory");
    return answer(c, MHD_HTTP_OK, "text/plain; charset=utf-8", text,
                  strlen(text));
}

/* Parses a move (or partial move) given as a query argument or in the
 * body; NULL and a message in `why` when it cannot be read. */
static bool read_move(const wgame *g, const char *text, kemet_move *m,
                      char *why, size_t len) {
    kemet_error err;
    if (!text) {
        snprintf(why, len, "give the move, e.g. {\"move\": \"9-12\"}");
        return false;
    }
    if (*text == '\0') {
        m->n = 0;
        return true;
    }
    if (kemet_move_parse(g->rules, text, m, &err)) {
        snprintf(why, len, "'%.60s' is not a move: %s", text, err.msg);
        return false;
    }
    return true;
}

/* The next steps of a turn entered step by step (kemet_next_steps). */
static enum MHD_Result api_steps(struct MHD_Connection *c, wgame *g) {
    const char *done =
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "done");
    char why[256];
    kemet_move m = {0};
    if (done && !read_move(g, done, &m, why, sizeof why))
        return error(c, 400, "%s", why);
    kemet_move *next = malloc(KEMET_MAX_MOVES * sizeof *next);
    if (!next)
        return error(c, 500, "out of memory");
    pthread_mutex_lock(&g->mu);
    const kemet_throw *t = kemet_game_throw(g->g);
    kemet_throw left = {0};
    int n =
        t ? kemet_next_steps(g->rules, kemet_game_pos(g->g), t, &m, next, &left)
          : KEMET_EMISUSE;
    pthread_mutex_unlock(&g->mu);
    enum MHD_Result rc;
    if (n == KEMET_EMISUSE)
        rc = error(c, 409, "no throw is waiting for a move");
    else if (n < 0)
        rc = error(c, 422, "'%.60s' does not begin a legal move",
                   done ? done : "");
    else {
        json_t *a = json_array();
        for (int i = 0; i < n; i++) {
            char text[32];
            kemet_move_format(&next[i], text, sizeof text);
            json_array_append_new(a, json_string(text));
        }
        json_t *l = json_array();
        for (int i = 0; i < left.n; i++)
            json_array_append_new(l, json_integer(left.v[i]));
        rc = answer_json(c, MHD_HTTP_OK,
                         json_pack("{s:o, s:o, s:b}", "next", a, "left", l,
                                   "complete", n == 0));
    }
    free(next);
    return rc;
}

static enum MHD_Result api_explain(struct MHD_Connection *c, wgame *g) {
    const char *text =
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "move");
    char why[256];
    kemet_move m;
    if (!read_move(g, text, &m, why, sizeof why))
        return error(c, 400, "%s", why);
    pthread_mutex_lock(&g->mu);
    int legal = 1;
    if (kemet_game_pos(g->g)->result != KEMET_PLAYING) {
        snprintf(why, sizeof why, "the game is over");
        legal = 0;
    } else
        legal = !kemet_explain(g->rules, kemet_game_pos(g->g),
                               kemet_game_throw(g->g), &m, why, sizeof why);
    pthread_mutex_unlock(&g->mu);
    return answer_json(c, MHD_HTTP_OK,
                       json_pack("{s:b, s:o}", "legal", legal, "reason",
                                 legal ? json_null() : json_string(why)));
}

/* Checks that seat `you` may act now (g->mu held); answers and returns
 * false when not. */
static bool may_act(struct MHD_Connection *c, wgame *g, int you,
                    enum MHD_Result *rc) {
    const kemet_pos *pos = kemet_game_pos(g->g);
    const kemet_info *info = kemet_rules_info(g->rules);
    if (you == 0)
        *rc = error(c, 401,
                    "this needs the player's token (Authorization: Bearer "
                    "TOKEN); without it you can only watch");
    else if (you < 0)
        *rc = error(c, 403, "the token is not one of this game's");
    else if (pos->result != KEMET_PLAYING)
        *rc = error(c, 409, "the game is over");
    else if (pos->to != you)
        *rc = error(c, 409, "it is the turn of %s, not yours",
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
        return error(c, status, "%s", why);
    }
    if (save(S, g, first)) {
        pthread_mutex_unlock(&g->mu);
        return error(c, 500, "the action could not be stored; nothing changed");
    }
    changed(S, g);
    json_t *o = wg_state_json(g, you);
    pthread_mutex_unlock(&g->mu);
    return answer_json(c, MHD_HTTP_OK, o);
}

static enum MHD_Result api_throw(server *S, struct MHD_Connection *c, wgame *g,
                                 int you) {
    enum MHD_Result rc;
    pthread_mutex_lock(&g->mu);
    if (!may_act(c, g, you, &rc)) {
        pthread_mutex_unlock(&g->mu);
        return rc;
    }
    if (kemet_game_throw(g->g)) {
        pthread_mutex_unlock(&g->mu);
        return error(c, 409, "the sticks are thrown already: make your move");
    }
    long first = g->version;
    int made = wg_throw(g, NULL);
    if (made == 0)
        made = wg_after_throw(g);
    return finish(S, c, g, you, first, made, 500, "out of memory");
}

static enum MHD_Result api_move(server *S, struct MHD_Connection *c, wgame *g,
                                int you, const request *q) {
    json_error_t jerr;
    json_t *o = json_loadb(q->body ? q->body : "", q->len, 0, &jerr);
    if (!o)
        return error(c, 400, "the body is not JSON: %s", jerr.text);
    json_t *mv = json_object_get(o, "move");
    char why[256];
    kemet_move m;
    bool ok = json_is_string(mv) &&
              read_move(g, json_string_value(mv), &m, why, sizeof why);
    if (!json_is_string(mv))
        snprintf(why, sizeof why,
                 "give the move as a string: {\"move\": \"9-12\"}");
    json_decref(o);
    if (!ok)
        return error(c, 400, "%s", why);
    enum MHD_Result rc;
    pthread_mutex_lock(&g->mu);
    if (!may_act(c, g, you, &rc)) {
        pthread_mutex_unlock(&g->mu);
        return rc;
    }
    const kemet_pos *pos = kemet_game_pos(g->g);
    const kemet_throw *t = kemet_game_throw(g->g);
    if (kemet_explain(g->rules, pos, t, &m, why, sizeof why)) {
        pthread_mutex_unlock(&g->mu);
        return error(c, 422, "%s", why);
    }
    long first = g->version;
    return finish(S, c, g, you, first, wg_move(g, &m), 422,
                  "that move is not legal here");
}

/* The moves ranked by the hint agent, with the mover's chance of winning
 * after each (before the throw: the pre-throw moves and throwing). */
static enum MHD_Result api_hint(struct MHD_Connection *c, wgame *g, int you) {
    enum MHD_Result rc;
    pthread_mutex_lock(&g->mu);
    if (!may_act(c, g, you, &rc)) {
        pthread_mutex_unlock(&g->mu);
        return rc;
    }
    kemet_pos pos = *kemet_game_pos(g->g);
    const kemet_throw *pt = kemet_game_throw(g->g);
    kemet_throw thr = pt ? *pt : (kemet_throw){0};
    pthread_mutex_unlock(&g->mu);
    /* The search runs on copies, without holding the game. */
    kemet_move *m = malloc(KEMET_MAX_MOVES * sizeof *m);
    cli_ranked *rank = malloc((KEMET_MAX_MOVES + 1) * sizeof *rank);
    kemet_agent *a = NULL;
    kemet_error err;
    int n = -1;
    if (m && rank && !kemet_agent_new(g->rules, "expectimax", 1, &a, &err)) {
        n = pt ? kemet_moves(g->rules, &pos, &thr, m)
               : kemet_prethrow(g->rules, &pos, m);
        n = cli_rank(a, &pos, pt ? &thr : NULL, m, n > 0 ? n : 0, rank);
    }
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        char text[160] = "throw";
        if (rank[i].index >= 0)
            kemet_move_format(&m[rank[i].index], text, sizeof text);
        bool exact = cli_exact(g->rules, &pos, pt ? &thr : NULL,
                               rank[i].index >= 0 ? &m[rank[i].index] : NULL,
                               rank[i].chance);
        json_array_append_new(list, json_pack("{s:s, s:f, s:b}", "move", text,
                                              "chance", rank[i].chance, "exact",
                                              exact));
    }
    kemet_agent_free(a);
    free(m);
    free(rank);
    if (n < 0) {
        json_decref(list);
        return error(c, 500, "out of memory");
    }
    return answer_json(
        c, MHD_HTTP_OK,
        json_pack("{s:s, s:o}", "agent", "expectimax", "moves", list));
}

static enum MHD_Result route_game(server *S, struct MHD_Connection *c,
                                  const char *method, const char *rest,
                                  const request *q) {
    char id[WG_ID + 2];
    size_t n = strcspn(rest, "/");
    if (n == 0 || n > WG_ID)
        return error(c, 404, "no such game");
    memcpy(id, rest, n);
    id[n] = '\0';
    const char *what = rest + n;
    wgame *g = find(S, id);
    if (!g)
        return error(c, 404, "no such game: %s", id);
    int you = seat_of(c, g);
    bool get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    struct {
        const char *path;
        bool post;
    } known[] = {{"", false},        {"/events", false}, {"/history", false},
                 {"/record", false}, {"/steps", false},  {"/explain", false},
                 {"/throw", true},   {"/move", true},    {"/hint", true}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strcmp(what, known[i].path) != 0)
            continue;
        if (known[i].post ? !post : !get)
            return error(c, 405, "use %s for %s",
                         known[i].post ? "POST" : "GET",
                         *what ? what : "a game's state");
        if (you < 0 && (known[i].post || !*what))
            return error(c, 403, "the token is not one of this game's");
        if (!*what)
            return api_state(S, c, g, you);
        if (!strcmp(what, "/events"))
            return api_events(S, c, g);
        if (!strcmp(what, "/history"))
            return api_history(c, g);
        if (!strcmp(what, "/record"))
            return api_record(c, g);
        if (!strcmp(what, "/steps"))
            return api_steps(c, g);
        if (!strcmp(what, "/explain"))
            return api_explain(c, g);
        if (!strcmp(what, "/throw"))
            return api_throw(S, c, g, you);
        if (!strcmp(what, "/move"))
            return api_move(S, c, g, you, q);
        return api_hint(c, g, you);
    }
    return error(c, 404, "no such resource: %s", what);
}

static enum MHD_Result route(server *S, struct MHD_Connection *c,
                             const char *url, const char *method,
                             const request *q) {
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (strncmp(url, "/api/", 5) != 0) {
        if (!get)
            return error(c, 405, "use GET for the page");
        if (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0)
            return page(c, kemet_web_index, "text/html; charset=utf-8");
        if (strcmp(url, "/app.js") == 0)
            return page(c, kemet_web_app_js, "text/javascript; charset=utf-8");
        if (strcmp(url, "/app.css") == 0)
            return page(c, kemet_web_app_css, "text/css; charset=utf-8");
        return error(c, 404, "no such page: %.100s", url);
    }
    if (q->too_big)
        return error(c, 413, "the body is over %d bytes", BODY_MAX);
    if (strcmp(url, "/api/rulesets") == 0)
        return get ? api_rulesets(S, c)
                   : error(c, 405, "use GET for /api/rulesets");
    if (strcmp(url, "/api/games") == 0) {
        if (strcmp(method, "POST") == 0)
            return api_create(S, c, q);
        return get ? api_list(S, c)
                   : error(c, 405, "use GET or POST for /api/games");
    }
    if (strncmp(url, "/api/games/", 11) == 0)
        return route_game(S, c, method, url + 11, q);
    return error(c, 404, "no such resource: %.100s", url);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *data,
                              size_t *size, void **state) {
    (void)version;
    server *S = cls;
    request *q = *state;
    if (!q) {
        if (!(q = calloc(1, sizeof *q)))
            return MHD_NO;
        *state = q;
        return MHD_YES;
    }
    if (*size) {
        if (q->len + *size > BODY_MAX)
            q->too_big = true;
        else {
            char *b = realloc(q->body, q->len + *size + 1);
            if (!b)
                return MHD_NO;
            memcpy(b + q->len, data, *size);
            q->body = b;
            q->len += *size;
            b[q->len] = '\0';
        }
        *size = 0;
        return MHD_YES;
    }
    return route(S, c, url, method, q);
}

static void completed(void *cls, struct MHD_Connection *c, void **state,
                      enum MHD_RequestTerminationCode code) {
    (void)cls;
    (void)c;
    (void)code;
    request *q = *state;
    if (q) {
        free(q->body);
        free(q);
    }
    *state = NULL;
}

/* ------------------------------------------------------------------------
 * Start-up: every stored game replayed
 * --------------------------------------------------------------------- */
typedef struct loader {
    server *S;
    wgame *g;
    char why[300];
} loader;

static int load_game(void *ctx, const store_game_row *row) {
    loader *L = ctx;
    const kemet_rules *r = rules_of(L->S, row->ruleset);
    if (!r || strlen(row->id) != WG_ID) {
        snprintf(L->why, sizeof L->why, "game %.20s: unknown ruleset %.60s",
                 row->id, row->ruleset);
        return -1;
    }
    for (int p = 0; p < 2; p++)
        if (strcmp(row->seat[p], "human") != 0 &&
            !wg_seat_level(row->seat[p])) {
            snprintf(L->why, sizeof L->why, "game %s: bad player %.40s",
                     row->id, row->seat[p]);
            return -1;
        }
    if (!(L->g = wg_new(r, row->seed, row->id, row->seat, row->token,
                        row->created)) ||
        add_locked(L->S, L->g)) {
        wg_free(L->g);
        snprintf(L->why, sizeof L->why, "out of memory");
        return -1;
    }
    return 0;
}

static int load_action(void *ctx, const char *id, long seq, const char *kind,
                       const char *text) {
    loader *L = ctx;
    char why[200];
    if (seq != L->g->version) {
        snprintf(L->why, sizeof L->why, "game %s: action %ld is missing", id,
                 L->g->version);
        return -1;
    }
    if (wg_replay(L->g, kind, text, why, sizeof why)) {
        snprintf(L->why, sizeof L->why, "game %s: %s", id, why);
        return -1;
    }
    return 0;
}

static const char serve_usage[] =
    "usage: kemet serve [--port P] [--db FILE] [--host ADDRESS]\n"
    "Serves the games in the browser at http://127.0.0.1:P/ (port 8080 by\n"
    "default; 0 picks a free one) with a JSON API under /api/ (docs/api.md).\n"
    "Games are stored in FILE (kemet.db by default), each action before it\n"
    "is answered; a restart resumes them. --host 0.0.0.0 listens on every\n"
    "address instead of the loopback one. Stops on Ctrl-C or SIGTERM.\n"
    "The computer players use the endgame tables and the learned evaluation\n"
    "as every command does.\n" TABLES_HELP;

int cmd_serve(int argc, char **argv) {
    long port = 8080;
    const char *db = "kemet.db", *host = "127.0.0.1";
    cli_opt opts[] = {{"port", OPT_LONG, &port, 0, 65535},
                      {"db", OPT_STRING, &db, 0, 0},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"host", OPT_STRING, &host, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int npos;
    int rc = cli_parse(argc, argv, opts, NULL, 0, 0, &npos, serve_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1)
        return cli_fail("serve: --host takes an IPv4 address such as "
                        "127.0.0.1, not '%.40s'",
                        host);
    server *S = calloc(1, sizeof *S);
    if (!S)
        return cli_fail("out of memory");
    pthread_mutex_init(&S->mu, NULL);
    pthread_cond_init(&S->work, NULL);
    for (int i = 0; i < kemet_ruleset_count() && i < MAX_RULES; i++) {
        kemet_error err;
        if (kemet_rules_open(kemet_ruleset_id(i), &S->rules[S->nrules], &err)) {
            rc = cli_fail("serve: %s", err.msg);
            goto out;
        }
        /* Loaded (or made, on first need) before any thread starts. */
        cli_use_tables(S->rules[S->nrules], cli_tables);
        S->nrules++;
    }
    if ((rc = store_open(db, &S->db)))
        goto out;
    loader L = {S, NULL, ""};
    if (store_load(S->db, load_game, load_action, &L)) {
        rc = cli_fail("%.200s: %s", db, L.why[0] ? L.why : store_error(S->db));
        goto out;
    }
    /* Block the stop signals in every thread; this one waits for them. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    if (pthread_create(&S->worker, NULL, worker, S)) {
        rc = cli_fail("serve: cannot start a thread");
        goto out;
    }
    for (long i = 0; i < S->nall; i++) {
        pthread_mutex_lock(&S->all[i]->mu);
        enqueue(S, S->all[i]);
        pthread_mutex_unlock(&S->all[i]->mu);
    }
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD,
        (uint16_t)port, NULL, NULL, handle, S, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_NOTIFY_COMPLETED, completed, S,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)1000,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120, MHD_OPTION_END);
    if (!d) {
        rc = cli_fail("serve: cannot listen on %s port %ld (in use?)", host,
                      port);
    } else {
        const union MHD_DaemonInfo *info =
            MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
        printf("kemet: serving %d games on http://%s:%u/ (database %s)\n",
               (int)S->nall, host, info ? info->port : (unsigned)port, db);
        fflush(stdout);
        int sig;
        sigwait(&stop, &sig);
        printf("kemet: stopping\n");
        fflush(stdout);
        atomic_store(&S->stopping, true);
        for (long i = 0; i < S->nall; i++) {
            pthread_mutex_lock(&S->all[i]->mu);
            pthread_cond_broadcast(&S->all[i]->changed);
            pthread_mutex_unlock(&S->all[i]->mu);
        }
        MHD_stop_daemon(d);
    }
    pthread_mutex_lock(&S->mu);
    atomic_store(&S->stopping, true);
    pthread_cond_broadcast(&S->work);
    pthread_mutex_unlock(&S->mu);
    pthread_join(S->worker, NULL);
out:
    for (long i = 0; i < S->nall; i++)
        wg_free(S->all[i]);
    free(S->all);
    free(S->queue);
    for (int i = 0; i < S->nrules; i++)
        kemet_rules_close(S->rules[i]);
    store_close(S->db);
    pthread_mutex_destroy(&S->mu);
    pthread_cond_destroy(&S->work);
    free(S);
    return rc;
}
