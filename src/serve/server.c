/* server.c - `kemet serve`: the games in the browser.
 *
 * An HTTP server (libmicrohttpd: a small pool of polling threads on epoll,
 * limits per client address, silent connections closed after a while)
 * serving the page (web/, embedded at build time) at / and a JSON API
 * under /api/ (docs/api.md). Games live in memory and in SQLite
 * (store.c): each action is stored before it is answered, and at start-up
 * every stored game is replayed to where it stood. The computer's moves
 * and the hints are searched by their own threads, holding no game, so
 * that no request waits for a search. Changes reach watchers by
 * Server-Sent Events or long polling; a connection waiting for a change
 * is put aside (suspended) and costs no thread.
 */
#include "server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>

/* The page's files (web/, embedded by CMakeLists.txt): path, text, type. */
extern const char *const kemet_web_files[][3];

/* ------------------------------------------------------------------------
 * Random ids and tokens, and the games table
 * --------------------------------------------------------------------- */
int srv_random_bytes(void *buf, size_t n) {
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

int srv_random_hex(char *out, int chars) {
    unsigned char b[32];
    if (srv_random_bytes(b, (size_t)chars / 2))
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

wgame *srv_find(server *S, const char *id) {
    pthread_mutex_lock(&S->mu);
    wgame *g = find_locked(S, id);
    pthread_mutex_unlock(&S->mu);
    return g;
}

/* With S->mu held. */
int srv_add_locked(server *S, wgame *g) {
    if (kc_grow(&S->all, &S->capall, S->nall, sizeof *S->all))
        return -1;
    S->all[S->nall++] = g;
    unsigned b = bucket_of(g->id);
    g->next = S->bucket[b];
    S->bucket[b] = g;
    return 0;
}

const kemet_rules *srv_rules_of(server *S, const char *spec) {
    for (int i = 0; i < S->nrules; i++)
        if (strcmp(kemet_rules_spec(S->rules[i]), spec) == 0 ||
            strcmp(kemet_rules_info(S->rules[i])->id, spec) == 0)
            return S->rules[i];
    return NULL;
}

const kemet_judge *srv_judge_of(server *S, const kemet_rules *r) {
    for (int i = 0; i < S->nrules; i++)
        if (S->rules[i] == r)
            return S->judge[i];
    return NULL;
}

/* ------------------------------------------------------------------------
 * The computer's worker
 * --------------------------------------------------------------------- */
static void wake_game(server *S, const wgame *g);

/* Hands game g to the worker if the computer is to act (g->mu held). */
static void enqueue(server *S, wgame *g) {
    if (g->queued || g->busy || !wg_computer_to_act(g))
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
void srv_changed(server *S, wgame *g) {
    wake_game(S, g);
    if (!g->busy)
        enqueue(S, g);
}

/* Saves the actions made since `first` (g->mu held); -1 when the store
 * failed and the game was put back. */
int srv_save(server *S, wgame *g, long first) {
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
        wg_plan plan;
        if (!wg_computer_to_act(g) || wg_computer_plan(g, &plan)) {
            pthread_mutex_unlock(&g->mu);
            continue;
        }
        g->busy = true;
        pthread_mutex_unlock(&g->mu);
        /* the search, holding nothing: the game is read meanwhile */
        int rc = wg_plan_choose(&plan);
        pthread_mutex_lock(&g->mu);
        g->busy = false;
        if (rc == 0) {
            long first = g->version;
            rc = wg_computer_apply(g, &plan);
            if (rc)
                wg_rebuild(g, first);
            else if (srv_save(S, g, first) == 0)
                srv_changed(S, g);
        }
        if (rc)
            enqueue(S, g);
        pthread_mutex_unlock(&g->mu);
    }
}

/* The hints and reviews: one search at a time, for requests put aside
 * meanwhile. */
static void *hinter(void *arg) {
    server *S = arg;
    pthread_mutex_lock(&S->mu);
    for (;;) {
        while (!S->hints && !atomic_load(&S->stopping))
            pthread_cond_wait(&S->hint_work, &S->mu);
        request *q = S->hints;
        if (!q)
            break;
        S->hints = q->qnext;
        if (!S->hints)
            S->hints_last = NULL;
        bool stop = atomic_load(&S->stopping);
        pthread_mutex_unlock(&S->mu);
        if (stop)
            ;
        else if (q->job == JOB_HINT)
            q->answer =
                wg_hint_json(q->g->judge, &q->pos, q->thr.n ? &q->thr : NULL);
        else {
            wgame *g = q->g;
            q->text = wg_review_text(g, &q->pos, q->plies, q->nplies);
            /* kept for the next reader while the game stays as it is */
            pthread_mutex_lock(&g->mu);
            if (q->text && g->version == q->version) {
                char *copy = strdup(q->text);
                if (copy) {
                    free(g->review);
                    g->review = copy;
                    g->review_version = q->version;
                }
            }
            pthread_mutex_unlock(&g->mu);
        }
        q->hint = 2;
        MHD_resume_connection(q->c);
        pthread_mutex_lock(&S->mu);
    }
    pthread_mutex_unlock(&S->mu);
    return NULL;
}

/* Queues request q for the hint thread (its connection is put aside);
 * false when the server is stopping. */
bool srv_queue_hint(server *S, request *q) {
    pthread_mutex_lock(&S->mu);
    bool ok = !atomic_load(&S->stopping);
    if (ok) {
        MHD_suspend_connection(q->c);
        q->hint = 1;
        q->qnext = NULL;
        if (S->hints_last)
            S->hints_last->qnext = q;
        else
            S->hints = q;
        S->hints_last = q;
        pthread_cond_signal(&S->hint_work);
    }
    pthread_mutex_unlock(&S->mu);
    return ok;
}

/* ------------------------------------------------------------------------
 * Connections put aside: long polls and quiet event streams
 * --------------------------------------------------------------------- */
/* Takes w off the waiters' list (S->wmu held). */
static void unlink_locked(server *S, waiter *w) {
    if (w->prev)
        w->prev->next = w->next;
    else
        S->waiters = w->next;
    if (w->next)
        w->next->prev = w->prev;
    w->prev = w->next = NULL;
    w->listed = false;
}

/* With S->wmu held. */
static void wake_locked(server *S, waiter *w) {
    unlink_locked(S, w);
    MHD_resume_connection(w->c);
}

void srv_wait(server *S, waiter *w, struct MHD_Connection *c, const wgame *g,
              long seconds) {
    MHD_suspend_connection(c);
    pthread_mutex_lock(&S->wmu);
    w->c = c;
    w->g = g;
    w->until = time(NULL) + seconds;
    w->prev = NULL;
    w->next = S->waiters;
    if (S->waiters)
        S->waiters->prev = w;
    S->waiters = w;
    w->listed = true;
    if (atomic_load(&S->stopping))
        wake_locked(S, w);
    pthread_mutex_unlock(&S->wmu);
}

void srv_unwait(server *S, waiter *w) {
    pthread_mutex_lock(&S->wmu);
    if (w->listed) /* its connection is being closed */
        unlink_locked(S, w);
    pthread_mutex_unlock(&S->wmu);
}

/* Wakes the waiters of game g (NULL: every one; g->mu held otherwise). */
static void wake_game(server *S, const wgame *g) {
    pthread_mutex_lock(&S->wmu);
    for (waiter *w = S->waiters, *next; w; w = next) {
        next = w->next;
        if (!g || w->g == g)
            wake_locked(S, w);
    }
    pthread_mutex_unlock(&S->wmu);
}

/* Once a second: wakes the waiters whose time is up. */
static void *ticker(void *arg) {
    server *S = arg;
    while (!atomic_load(&S->stopping)) {
        struct timespec one = {1, 0};
        nanosleep(&one, NULL);
        time_t now = time(NULL);
        pthread_mutex_lock(&S->wmu);
        for (waiter *w = S->waiters, *next; w; w = next) {
            next = w->next;
            if (w->until <= now)
                wake_locked(S, w);
        }
        pthread_mutex_unlock(&S->wmu);
    }
    return NULL;
}

/* ------------------------------------------------------------------------
 * Requests and answers
 * --------------------------------------------------------------------- */

void srv_headers(struct MHD_Response *r, const char *type, bool page) {
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", page ? "no-cache" : "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(
        r, "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; object-src 'none'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
}

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
    srv_headers(r, type, page);
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

enum MHD_Result srv_answer(struct MHD_Connection *c, unsigned status,
                           const char *type, char *text, size_t len) {
    return respond(c, status, type, text, len, false);
}

enum MHD_Result srv_answer_json(struct MHD_Connection *c, unsigned status,
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
    return srv_answer(c, status, "application/json", t, len + 1);
}

/* Makes `s` valid UTF-8 in place: each byte that does not belong to a
 * whole, well-formed character (a URL's %FF, a move cut short in the
 * middle of a character) becomes '?', so that Jansson takes the message. */
static void utf8_clean(char *s) {
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int n = *p < 0x80           ? 1
                : (*p >> 5) == 0x6  ? 2
                : (*p >> 4) == 0xe  ? 3
                : (*p >> 3) == 0x1e ? 4
                                    : 0;
        bool ok = n > 0;
        for (int k = 1; ok && k < n; k++)
            ok = (p[k] & 0xc0) == 0x80;
        /* overlong forms, surrogates and values above U+10FFFF */
        if (ok && n == 2 && *p < 0xc2)
            ok = false;
        if (ok && n == 3 &&
            ((*p == 0xe0 && p[1] < 0xa0) || (*p == 0xed && p[1] >= 0xa0)))
            ok = false;
        if (ok && n == 4 &&
            ((*p == 0xf0 && p[1] < 0x90) || *p > 0xf4 ||
             (*p == 0xf4 && p[1] >= 0x90)))
            ok = false;
        if (!ok) {
            *p++ = '?';
            continue;
        }
        p += n;
    }
}

enum MHD_Result srv_error(struct MHD_Connection *c, unsigned status,
                          const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    utf8_clean(msg);
    return srv_answer_json(
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

static enum MHD_Result route_game(server *S, struct MHD_Connection *c,
                                  const char *method, const char *rest,
                                  request *q) {
    char id[WG_ID + 2];
    size_t n = strcspn(rest, "/");
    if (n == 0 || n > WG_ID)
        return srv_error(c, 404, "no such game");
    memcpy(id, rest, n);
    id[n] = '\0';
    const char *what = rest + n;
    wgame *g = srv_find(S, id);
    if (!g)
        return srv_error(c, 404, "no such game: %s", id);
    int you = seat_of(c, g);
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0,
         post = strcmp(method, "POST") == 0;
    struct {
        const char *path;
        bool post;
    } known[] = {{"", false},        {"/events", false}, {"/history", false},
                 {"/record", false}, {"/steps", false},  {"/explain", false},
                 {"/throw", true},   {"/move", true},    {"/hint", true},
                 {"/review", false}, {"/resign", true},  {"/takeback", true}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strcmp(what, known[i].path) != 0)
            continue;
        if (known[i].post ? !post : !get)
            return srv_error(c, 405, "use %s for %s",
                             known[i].post ? "POST" : "GET",
                             *what ? what : "a game's state");
        if (you < 0 && (known[i].post || !*what))
            return srv_error(c, 403, "the token is not one of this game's");
        if (!*what)
            return api_state(S, c, g, you, q);
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
        if (!strcmp(what, "/review"))
            return api_review(S, c, g, q);
        if (!strcmp(what, "/resign"))
            return api_resign(S, c, g, you);
        if (!strcmp(what, "/takeback"))
            return api_takeback(S, c, g, you);
        if (!strcmp(what, "/throw"))
            return api_throw(S, c, g, you);
        if (!strcmp(what, "/move"))
            return api_move(S, c, g, you, q);
        return api_hint(S, c, g, you, q);
    }
    return srv_error(c, 404, "no such resource: %s", what);
}

/* Whether the Host header names this server: an address, localhost, or
 * one of the names it was told to serve (so that a page of another site,
 * its name pointed at this machine, cannot reach it: DNS rebinding). */
static bool host_served(server *S, const char *host) {
    if (!host)
        return true; /* HTTP/1.0 (libmicrohttpd requires it of HTTP/1.1) */
    char name[256];
    size_t n = strlen(host);
    if (n >= sizeof name)
        return false;
    memcpy(name, host, n + 1);
    if (name[0] == '[')
        return strchr(name, ']') != NULL; /* an IPv6 address */
    char *colon = strchr(name, ':');
    if (colon)
        *colon = '\0';
    struct in_addr a;
    if (inet_pton(AF_INET, name, &a) == 1 || strcasecmp(name, "localhost") == 0)
        return true;
    for (const char *h = S->hosts; h && *h;) {
        size_t k = strcspn(h, ",");
        if (k == strlen(name) && strncasecmp(h, name, k) == 0)
            return true;
        h += k + (h[k] == ',');
    }
    return false;
}

/* Whether a request's body is declared JSON (the API takes nothing else:
 * a form or text/plain of another site's page is refused). */
static bool json_body(struct MHD_Connection *c) {
    const char *t =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
    if (!t || strncasecmp(t, "application/json", 16) != 0)
        return false;
    return t[16] == '\0' || t[16] == ';' || t[16] == ' ';
}

static enum MHD_Result route(server *S, struct MHD_Connection *c,
                             const char *url, const char *method, request *q) {
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (!host_served(S,
                     MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host")))
        return srv_error(c, 421,
                         "this server does not serve that host name "
                         "(kemet serve --allow-host NAME)");
    if (strcmp(method, "POST") == 0 &&
        (q->len > 0 || q->too_big || strcmp(url, "/api/games") == 0) &&
        !json_body(c))
        return srv_error(c, 415,
                         "the body must be JSON (Content-Type: "
                         "application/json)");
    if (strncmp(url, "/api/", 5) != 0) {
        if (!get)
            return srv_error(c, 405, "use GET for the page");
        if (strcmp(url, "/") == 0)
            url = "/index.html";
        for (int i = 0; kemet_web_files[i][0]; i++)
            if (strcmp(url, kemet_web_files[i][0]) == 0)
                return page(c, kemet_web_files[i][1], kemet_web_files[i][2]);
        return srv_error(c, 404, "no such page: %.100s", url);
    }
    if (q->too_big)
        return srv_error(c, 413, "the body is over %d bytes", BODY_MAX);
    if (strcmp(url, "/api/rulesets") == 0)
        return get ? api_rulesets(S, c)
                   : srv_error(c, 405, "use GET for /api/rulesets");
    if (strcmp(url, "/api/games") == 0) {
        if (strcmp(method, "POST") == 0)
            return api_create(S, c, q);
        return get ? api_list(S, c)
                   : srv_error(c, 405, "use GET or POST for /api/games");
    }
    if (strncmp(url, "/api/games/", 11) == 0)
        return route_game(S, c, method, url + 11, q);
    return srv_error(c, 404, "no such resource: %.100s", url);
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
    (void)c;
    (void)code;
    server *S = cls;
    request *q = *state;
    if (q) {
        srv_unwait(S, &q->w);
        json_decref(q->answer);
        free(q->text);
        free(q->plies);
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
    const kemet_rules *r = srv_rules_of(L->S, row->ruleset);
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
    if (!(L->g = wg_new(srv_judge_of(L->S, r), row->seed, row->id, row->seat,
                        row->token, row->created)) ||
        srv_add_locked(L->S, L->g)) {
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

/* The server's threads: the computer's worker, the analysis thread (hints
 * and reviews), the ticker. */
static pthread_t *thread_of(server *S, int i) {
    return i == 0 ? &S->worker : i == 1 ? &S->hinter : &S->ticker;
}

/* Tells the threads to stop and waits for the first n of them (the
 * analysis thread answers the hints still queued first). */
static void stop_threads(server *S, int n) {
    pthread_mutex_lock(&S->mu);
    atomic_store(&S->stopping, true);
    pthread_cond_broadcast(&S->work);
    pthread_cond_broadcast(&S->hint_work);
    pthread_mutex_unlock(&S->mu);
    for (int i = 0; i < n; i++)
        pthread_join(*thread_of(S, i), NULL);
}

/* Stops the threads and the daemon and frees everything (srv_open's
 * undoing, also of a half-made server). */
void srv_close(server *S) {
    if (!S)
        return;
    stop_threads(S, S->threads ? 3 : 0);
    wake_game(S, NULL); /* every connection put aside answers and ends */
    if (S->d)
        MHD_stop_daemon(S->d);
    for (long i = 0; i < S->nall; i++)
        wg_free(S->all[i]);
    free(S->all);
    free(S->queue);
    free(S->hosts);
    store_close(S->db);
    pthread_mutex_destroy(&S->mu);
    pthread_mutex_destroy(&S->wmu);
    pthread_cond_destroy(&S->work);
    pthread_cond_destroy(&S->hint_work);
    free(S);
}

/* As many connections as the descriptors allow (the soft limit raised to
 * the hard one), keeping some for the database and the threads. */
static unsigned connection_limit(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 900;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    rlim_t n = rl.rlim_cur == RLIM_INFINITY ? 65536 : rl.rlim_cur;
    n = n > 65536 ? 65536 : n;
    return n > 200 ? (unsigned)(n - 100) : 100;
}

int srv_open(const srv_opts *o, bool listen, server **out, char *why,
             size_t len) {
    *out = NULL;
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)o->port);
    if (listen && inet_pton(AF_INET, o->host, &addr.sin_addr) != 1) {
        snprintf(why, len,
                 "serve: --host takes an IPv4 address such as 127.0.0.1, "
                 "not '%.40s'",
                 o->host);
        return -1;
    }
    server *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    pthread_mutex_init(&S->mu, NULL);
    pthread_mutex_init(&S->wmu, NULL);
    pthread_cond_init(&S->work, NULL);
    pthread_cond_init(&S->hint_work, NULL);
    S->o = *o;
    if (S->o.max_games <= 0)
        S->o.max_games = SRV_MAX_GAMES;
    if (S->o.per_address <= 0)
        S->o.per_address = SRV_PER_ADDRESS;
    if (S->o.wait_seconds <= 0)
        S->o.wait_seconds = SRV_WAIT;
    S->hosts = strdup(o->allow_hosts ? o->allow_hosts : "");
    for (int i = 0; i < o->nrules && i < MAX_RULES; i++) {
        S->judge[S->nrules] = o->judges[i];
        S->rules[S->nrules++] = o->rules[i];
    }
    if (!S->hosts) {
        snprintf(why, len, "out of memory");
        goto fail;
    }
    if (store_open(o->db, &S->db, why, len))
        goto fail;
    loader L = {S, NULL, ""};
    if (store_load(S->db, load_game, load_action, &L)) {
        snprintf(why, len, "%.200s: %s", o->db,
                 L.why[0] ? L.why : store_error(S->db));
        goto fail;
    }
    void *(*const run[3])(void *) = {worker, hinter, ticker};
    int started = 0;
    while (started < 3 &&
           pthread_create(thread_of(S, started), NULL, run[started], S) == 0)
        started++;
    if (started < 3) {
        stop_threads(S, started);
        snprintf(why, len, "serve: cannot start a thread");
        goto fail;
    }
    S->threads = true;
    for (long i = 0; i < S->nall; i++) {
        pthread_mutex_lock(&S->all[i]->mu);
        enqueue(S, S->all[i]);
        pthread_mutex_unlock(&S->all[i]->mu);
    }
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
                     MHD_ALLOW_SUSPEND_RESUME;
    if (!listen)
        flags |= MHD_USE_NO_LISTEN_SOCKET;
    S->d = MHD_start_daemon(
        flags, (uint16_t)o->port, NULL, NULL, handle, S, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_NOTIFY_COMPLETED, completed, S,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)POOL_THREADS,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit(),
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)S->o.per_address,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_TIMEOUT,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024, MHD_OPTION_END);
    if (!S->d) {
        snprintf(why, len, "serve: cannot listen on %s port %ld (in use?)",
                 o->host, o->port);
        goto fail;
    }
    *out = S;
    return 0;
fail:
    srv_close(S);
    return -1;
}

int srv_connection(server *S, int fd) {
    struct sockaddr_in peer = {0};
    peer.sin_family = AF_INET;
    peer.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return MHD_add_connection(S->d, fd, (struct sockaddr *)&peer,
                              sizeof peer) == MHD_YES
               ? 0
               : -1;
}

int srv_run(const srv_opts *o, char *why, size_t len) {
    /* Block the stop signals in every thread; this one waits for them. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    server *S;
    if (srv_open(o, true, &S, why, len))
        return -1;
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(S->d, MHD_DAEMON_INFO_BIND_PORT);
    printf("kemet: serving %d games on http://%s:%u/ (database %s)\n",
           (int)S->nall, o->host, info ? info->port : (unsigned)o->port, o->db);
    fflush(stdout);
    int sig;
    sigwait(&stop, &sig);
    printf("kemet: stopping\n");
    fflush(stdout);
    srv_close(S);
    return 0;
}
