/* server.c - `kemet serve`: the games in the browser.
 *
 * An HTTP server (libmicrohttpd: a small pool of polling threads on epoll,
 * limits per client address, silent connections closed after a while)
 * serving the page (web/, embedded at build time) at / and a JSON API
 * under /api/ (docs/api.md). Games live in memory and in SQLite
 * (store.c): each action is stored before it is answered, and at start-up
 * every stored game is replayed to where it stood. The computer's moves,
 * the hints and the reviews are made by a thread each, holding no game,
 * so that no request waits for a search: a hint never waits behind a
 * review, a review pauses while a hint or the computer searches, one
 * analysis serves everyone who asks for it, and the queues are bounded per
 * client address and in all. Changes reach watchers by Server-Sent Events
 * or long polling; a connection waiting for a change or an analysis is
 * put aside (suspended) and costs no thread. A stop answers every
 * request put aside before the daemon ends.
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
#include <limits.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <zlib.h>

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
    if (g)
        g->refs++;
    pthread_mutex_unlock(&S->mu);
    return g;
}

void srv_hold(server *S, wgame *g) {
    pthread_mutex_lock(&S->mu);
    g->refs++;
    pthread_mutex_unlock(&S->mu);
}

/* With S->mu held; the game is freed with its last holder (then only an
 * expired game: the table holds every other). */
static void release_locked(wgame *g) {
    if (--g->refs == 0)
        wg_free(g);
}

void srv_release(server *S, wgame *g) {
    if (!g)
        return;
    pthread_mutex_lock(&S->mu);
    release_locked(g);
    pthread_mutex_unlock(&S->mu);
}

/* With S->mu held: the table holds the game. */
int srv_add_locked(server *S, wgame *g) {
    if (kc_grow(&S->all, &S->capall, S->nall, sizeof *S->all))
        return -1;
    g->refs = 1;
    S->all[S->nall++] = g;
    unsigned b = bucket_of(g->id);
    g->next = S->bucket[b];
    S->bucket[b] = g;
    return 0;
}

const kemet_rules *srv_rules_of(server *S, const char *spec) {
    for (int i = 0; i < S->nrules; i++)
        if (strcmp(kemet_rules_spec(S->rules[i]), spec) == 0 ||
            strcmp(kemet_rules_key(S->rules[i]), spec) == 0 ||
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
    g->refs++; /* the queue's, then the worker's */
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
    if (g->expired) { /* (the moment it expired) */
        wg_rebuild(g, first);
        return -1;
    }
    g->last = (long long)time(NULL);
    pthread_mutex_lock(&S->mu);
    int rc = wg_save(g, S->db, first);
    if (rc)
        fprintf(stderr, "kemet: serve: %s\n", store_error(S->db));
    pthread_mutex_unlock(&S->mu);
    return rc;
}

/* The checks long work makes (kemet_agent_set_check): a stop; and for a
 * review, a wait while a hint or the computer searches (a review yields to
 * the players). Non-zero: stop. */
static int stop_check(void *ctx) {
    server *S = ctx;
    return atomic_load(&S->stopping);
}

static int review_check(void *ctx) {
    server *S = ctx;
    if (atomic_load(&S->stopping))
        return 1;
    if (atomic_load(&S->urgent) == 0)
        return 0;
    pthread_mutex_lock(&S->mu);
    while (atomic_load(&S->urgent) > 0 && !atomic_load(&S->stopping))
        pthread_cond_wait(&S->calm, &S->mu);
    pthread_mutex_unlock(&S->mu);
    return atomic_load(&S->stopping);
}

/* One fewer hint or search of the computer's (S->mu held). */
static void calm_down_locked(server *S) {
    if (atomic_fetch_sub(&S->urgent, 1) == 1)
        pthread_cond_broadcast(&S->calm);
}

/* The computer player for game g's seat to act (g->mu held): one of the
 * players held for its ruleset and level (made, in the place of the least
 * recently used, when there is none), or, for an agent that draws
 * (wg_agent_per_decision), one made for this decision. NULL when out of
 * memory. */
static kemet_agent *player_take(server *S, wgame *g) {
    int level = wg_computer_level(g);
    const char *spec = wg_computer_agent(g);
    kemet_error err;
    kemet_agent *a = NULL;
    if (wg_agent_per_decision(spec)) {
        if (kemet_agent_new_judged(g->judge, spec, wg_computer_seed(g), &a,
                                   &err))
            return NULL;
        pthread_mutex_lock(&S->mu);
        S->players_live++;
        S->players_made++;
        pthread_mutex_unlock(&S->mu);
        return a;
    }
    pthread_mutex_lock(&S->mu);
    player_slot *slot = NULL;
    for (int i = 0; i < COMPUTER_CAP && !slot; i++)
        if (S->players[i].agent && S->players[i].judge == g->judge &&
            S->players[i].level == level && !S->players[i].busy)
            slot = &S->players[i];
    if (!slot) {
        for (int i = 0; i < COMPUTER_CAP; i++) {
            player_slot *p = &S->players[i];
            if (p->busy)
                continue;
            if (!slot || !p->agent || (slot->agent && p->used < slot->used))
                slot = p;
            if (!p->agent)
                break;
        }
        if (slot && slot->agent) { /* the least recently used */
            kemet_agent_free(slot->agent);
            slot->agent = NULL;
            S->players_live--;
        }
        if (slot &&
            !kemet_agent_new_judged(g->judge, spec, 1, &slot->agent, &err)) {
            slot->judge = g->judge;
            slot->level = level;
            S->players_live++;
            S->players_made++;
        }
    }
    if (slot && slot->agent) {
        slot->busy = true;
        slot->used = time(NULL);
        a = slot->agent;
    }
    pthread_mutex_unlock(&S->mu);
    return a;
}

/* Gives back the player player_take gave (NULL: none). */
static void player_give_back(server *S, kemet_agent *a) {
    if (!a)
        return;
    pthread_mutex_lock(&S->mu);
    bool held = false;
    for (int i = 0; i < COMPUTER_CAP && !held; i++)
        if (S->players[i].agent == a) {
            S->players[i].busy = false;
            S->players[i].used = time(NULL);
            held = true;
        }
    if (!held) {
        kemet_agent_free(a);
        S->players_live--;
    }
    pthread_mutex_unlock(&S->mu);
}

/* Frees the players unused since `before` (all: every one not busy; S->mu
 * held). */
static void players_free_locked(server *S, time_t before, bool all) {
    for (int i = 0; i < COMPUTER_CAP; i++) {
        player_slot *p = &S->players[i];
        if (p->agent && !p->busy && (all || p->used < before)) {
            kemet_agent_free(p->agent);
            p->agent = NULL;
            S->players_live--;
        }
    }
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
        kemet_agent *a = wg_computer_to_act(g) ? player_take(S, g) : NULL;
        if (!a || wg_computer_plan_with(g, a, &plan)) {
            player_give_back(S, a);
            pthread_mutex_unlock(&g->mu);
            srv_release(S, g);
            continue;
        }
        g->busy = true;
        pthread_mutex_unlock(&g->mu);
        /* the search, holding nothing: the game is read meanwhile; a
           review waits for it, a stop ends it */
        atomic_fetch_add(&S->urgent, 1);
        kemet_agent_set_check(plan.agent, stop_check, S);
        int rc = wg_plan_choose(&plan);
        kemet_agent_set_check(plan.agent, NULL, NULL);
        player_give_back(S, a);
        pthread_mutex_lock(&S->mu);
        calm_down_locked(S);
        pthread_mutex_unlock(&S->mu);
        pthread_mutex_lock(&g->mu);
        g->busy = false;
        if (atomic_load(&S->stopping)) {
            /* what a stopped search found is not a move */
            pthread_mutex_unlock(&g->mu);
            srv_release(S, g);
            continue;
        }
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
        srv_release(S, g);
    }
}

/* ------------------------------------------------------------------------
 * The analyses: hints and reviews, each kind on its own thread, one at a
 * time, for requests put aside meanwhile; the client addresses served in
 * turn; identical hints made once and kept a while
 * --------------------------------------------------------------------- */
static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* With S->mu held. */
static void release_job_locked(job *j) {
    if (--j->refs > 0)
        return;
    if (j->g)
        release_locked(j->g);
    free(j->plies);
    free(j->text);
    free(j);
}

/* The job is done (`text` taken over; NULL: no answer): its requests are
 * resumed, and the queue's or thread's hold let go (S->mu held). */
static void finish_job_locked(server *S, job *j, char *text) {
    j->done = true;
    j->text = text;
    if (text)
        S->made[j->kind]++;
    for (request *q = j->waiting, *next; q; q = next) {
        next = q->jnext;
        q->jnext = NULL;
        MHD_resume_connection(q->c);
    }
    j->waiting = NULL;
    if (j->kind == JOB_HINT)
        calm_down_locked(S);
    release_job_locked(j);
}

/* The cache of hints (S->mu held): the answer kept for `key`, or NULL;
 * found, it becomes the most recently used. Those past their time are
 * dropped on the way. */
static cached *cache_find_locked(server *S, const char *key) {
    time_t now = time(NULL);
    for (cached **p = &S->cache, *e; (e = *p);) {
        if (e->until < now) {
            *p = e->next;
            S->cache_bytes -= e->len;
            free(e->text);
            free(e);
            continue;
        }
        if (strcmp(e->key, key) == 0) {
            *p = e->next;
            e->next = S->cache;
            S->cache = e;
            return e;
        }
        p = &e->next;
    }
    return NULL;
}

/* Keeps a hint made (`text` copied) for `seconds`, the least recently
 * used dropped past HINT_CACHE_BYTES (S->mu held). */
static void cache_put_locked(server *S, const char *key, const char *text,
                             int seconds) {
    size_t len = strlen(text);
    if (len > HINT_CACHE_BYTES / 4 || cache_find_locked(S, key))
        return;
    cached *e = malloc(sizeof *e);
    if (!e || !(e->text = strdup(text))) {
        free(e);
        return;
    }
    snprintf(e->key, sizeof e->key, "%s", key);
    e->len = len;
    e->until = time(NULL) + seconds;
    e->next = S->cache;
    S->cache = e;
    S->cache_bytes += len;
    while (S->cache_bytes > HINT_CACHE_BYTES) {
        cached **p = &S->cache;
        while ((*p)->next)
            p = &(*p)->next;
        S->cache_bytes -= (*p)->len;
        free((*p)->text);
        free(*p);
        *p = NULL;
    }
}

static void cache_free(server *S) {
    for (cached *e = S->cache, *next; e; e = next) {
        next = e->next;
        free(e->text);
        free(e);
    }
    S->cache = NULL;
}

/* Whether a request waiting for an analysis still has its client: its
 * socket, put aside, is not closed at the other end. */
static bool client_gone(const request *q) {
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(q->c, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!ci)
        return false;
    char b;
    ssize_t k = recv(ci->connect_fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
    return k == 0 ||
           (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Takes job j (queued) off its kind's queue (S->mu held). */
static void unqueue_locked(server *S, job *j) {
    for (job **p = &S->jobs[j->kind]; *p; p = &(*p)->next)
        if (*p == j) {
            *p = j->next;
            j->next = NULL;
            return;
        }
}

/* Drops the requests of job j whose clients have gone: each is resumed to
 * be closed, and stops counting against its address. A queued job left
 * with no one waiting is dropped too (S->mu held). */
static void drop_gone_locked(server *S, job *j, bool queued) {
    for (request **p = &j->waiting, *q; (q = *p);) {
        if (!client_gone(q)) {
            p = &q->jnext;
            continue;
        }
        *p = q->jnext;
        q->jnext = NULL;
        q->j = NULL;
        q->gone = true;
        S->dropped[j->kind]++;
        MHD_resume_connection(q->c);
        release_job_locked(j);
    }
    if (queued && !j->waiting) {
        unqueue_locked(S, j);
        finish_job_locked(S, j, NULL);
    }
}

/* Every analysis's requests checked for clients gone (S->mu held). */
static void drop_all_gone_locked(server *S) {
    for (int k = 0; k < JOB_KINDS; k++) {
        for (job *j = S->jobs[k], *next; j; j = next) {
            next = j->next;
            drop_gone_locked(S, j, true);
        }
        if (S->running[k])
            drop_gone_locked(S, S->running[k], false);
    }
}

/* The turn of address `addr` for analyses of `kind`: when it was last
 * served (0: not lately). */
static unsigned long turn_of(const server *S, int kind, const char *addr) {
    for (int i = 0; i < S->nturns[kind]; i++)
        if (strcmp(S->turns[kind][i].addr, addr) == 0)
            return S->turns[kind][i].stamp;
    return 0;
}

/* Whether some request of job j comes from `addr`. */
static bool asked_by(const job *j, const char *addr) {
    for (const request *q = j->waiting; q; q = q->jnext)
        if (strcmp(q->addr, addr) == 0)
            return true;
    return false;
}

/* The next job of `kind` to make (S->mu held; the queue not empty): the
 * one asked for by the address served longest ago (the oldest of its
 * own); its addresses' turns are then stamped. The addresses with nothing
 * queued or running are forgotten (their turn is 0 when they come back:
 * a newcomer goes first). */
static job *pick_locked(server *S, int kind) {
    job *best = NULL;
    unsigned long best_turn = 0;
    for (job *j = S->jobs[kind]; j; j = j->next) {
        unsigned long t = ULONG_MAX;
        for (const request *q = j->waiting; q; q = q->jnext) {
            unsigned long u = turn_of(S, kind, q->addr);
            t = u < t ? u : t;
        }
        if (!best || t < best_turn) {
            best = j;
            best_turn = t;
        }
    }
    unqueue_locked(S, best);
    unsigned long stamp = ++S->clock[kind];
    struct turn *turns = S->turns[kind];
    int n = 0;
    for (int i = 0; i < S->nturns[kind]; i++) {
        bool keep = asked_by(best, turns[i].addr);
        for (const job *j = S->jobs[kind]; !keep && j; j = j->next)
            keep = asked_by(j, turns[i].addr);
        if (keep)
            turns[n++] = turns[i];
    }
    for (const request *q = best->waiting; q; q = q->jnext) {
        int i = 0;
        while (i < n && strcmp(turns[i].addr, q->addr) != 0)
            i++;
        if (i == n && n <= ANALYSIS_HARD)
            snprintf(turns[n++].addr, ADDR_MAX, "%s", q->addr);
        if (i < n)
            turns[i].stamp = stamp;
    }
    S->nturns[kind] = n;
    return best;
}

/* A hint's search under way: abandoned when no one waits for it any more
 * (or the server stops), cut short when it has searched HINT_BOUND_MS
 * while other hints wait. */
typedef struct hint_run {
    server *S;
    job *j;
    double t0;
    bool cut, abandoned;
} hint_run;

static int hint_check(void *ctx) {
    hint_run *h = ctx;
    server *S = h->S;
    if (atomic_load(&S->stopping))
        return h->abandoned = true;
    pthread_mutex_lock(&S->mu);
    bool unwanted = h->j->waiting == NULL;
    bool others = S->jobs[JOB_HINT] != NULL;
    pthread_mutex_unlock(&S->mu);
    if (unwanted)
        return h->abandoned = true;
    if (others && !h->cut && now_ms() - h->t0 > HINT_BOUND_MS)
        return h->cut = true;
    return 0;
}

/* Makes job j (no lock held): its answer as JSON text, or NULL. */
static char *make_job(server *S, job *j) {
    if (j->kind == JOB_HINT) {
        /* others waiting: a smaller budget (nodes, so that the answer is
           the same whenever it is made) */
        pthread_mutex_lock(&S->mu);
        bool others = S->jobs[JOB_HINT] != NULL;
        /* or the thread was busy a moment ago for another address (its
           requests come back at once) */
        if (!others && now_ms() - S->hint_end < HINT_BOUND_MS && j->waiting &&
            !asked_by(j, S->hint_addr))
            others = true;
        if (j->waiting)
            snprintf(S->hint_addr, sizeof S->hint_addr, "%s", j->waiting->addr);
        pthread_mutex_unlock(&S->mu);
        hint_run h = {S, j, now_ms(), others, false};
        json_t *o = wg_hint_json_cut(
            j->judge, others ? HINT_BOUNDED : "expectimax", &j->pos,
            j->thr.n ? &j->thr : NULL, hint_check, &h);
        char *text = NULL;
        if (o && !h.abandoned) {
            json_object_set_new(o, "bounded", json_boolean(h.cut));
            if (h.cut)
                json_object_set_new(
                    o, "searched_ms",
                    json_integer((json_int_t)(now_ms() - h.t0)));
            text = json_dumps(o, JSON_COMPACT);
        }
        json_decref(o);
        return text;
    }
    char *text = wg_review_text(j->judge, &j->pos, j->plies, j->nplies,
                                j->result, j->resigned, review_check, S);
    if (!text || atomic_load(&S->stopping))
        return text;
    /* kept with the game, in memory and in the file: made once */
    wgame *g = j->g;
    pthread_mutex_lock(&g->mu);
    if (g->played == j->version) {
        char *copy = strdup(text);
        if (copy) {
            free(g->review);
            g->review = copy;
            g->review_version = j->version;
        }
    }
    pthread_mutex_unlock(&g->mu);
    pthread_mutex_lock(&S->mu);
    if (store_review(S->db, g->id, j->version, text))
        fprintf(stderr, "kemet: serve: %s\n", store_error(S->db));
    pthread_mutex_unlock(&S->mu);
    return text;
}

static void analyse(server *S, int kind) {
    pthread_mutex_lock(&S->mu);
    for (;;) {
        while (!S->jobs[kind] && !atomic_load(&S->stopping))
            pthread_cond_wait(&S->job_work[kind], &S->mu);
        if (atomic_load(&S->stopping))
            break;
        /* no one waits for an analysis whose clients have all gone */
        for (job *j = S->jobs[kind], *next; j; j = next) {
            next = j->next;
            drop_gone_locked(S, j, true);
        }
        if (!S->jobs[kind])
            continue;
        job *j = pick_locked(S, kind);
        S->running[kind] = j;
        pthread_mutex_unlock(&S->mu);
        char *text = make_job(S, j);
        pthread_mutex_lock(&S->mu);
        S->running[kind] = NULL;
        if (atomic_load(&S->stopping)) {
            free(text);
            text = NULL;
        }
        if (kind == JOB_HINT)
            S->hint_end = now_ms();
        if (text && kind == JOB_HINT)
            cache_put_locked(S, j->key, text,
                             strstr(text, "\"bounded\":true")
                                 ? HINT_CACHE_BOUNDED
                                 : HINT_CACHE_SECONDS);
        finish_job_locked(S, j, text);
    }
    pthread_mutex_unlock(&S->mu);
}

static void *hinter(void *arg) {
    analyse(arg, JOB_HINT);
    return NULL;
}

static void *reviewer(void *arg) {
    analyse(arg, JOB_REVIEW);
    return NULL;
}

/* The client's address, as text ("local" for a socket of no address); of
 * an IPv6 address, its /64 (one machine may hold all of one). */
static void address_of(struct MHD_Connection *c, char *out, size_t len) {
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    snprintf(out, len, "local");
    if (sa && sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out,
                  (socklen_t)len);
    else if (sa && sa->sa_family == AF_INET6) {
        struct in6_addr a = ((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (!IN6_IS_ADDR_V4MAPPED(&a))
            memset(a.s6_addr + 8, 0, 8);
        inet_ntop(AF_INET6, &a, out, (socklen_t)len);
    }
}

void srv_owe(server *S, request *q) {
    pthread_mutex_lock(&S->mu);
    if (!q->owed) {
        q->owed = true;
        S->owed++;
    }
    pthread_mutex_unlock(&S->mu);
}

int srv_queue_job(server *S, request *q, job *want, char **answer) {
    *answer = NULL;
    address_of(q->c, q->addr, sizeof q->addr);
    int kind = want->kind;
    pthread_mutex_lock(&S->mu);
    int status = 0;
    job *j = NULL;
    if (atomic_load(&S->stopping))
        status = 503;
    cached *e =
        !status && kind == JOB_HINT ? cache_find_locked(S, want->key) : NULL;
    if (e) {
        S->cached_answers++;
        *answer = strdup(e->text);
        pthread_mutex_unlock(&S->mu);
        return *answer ? 0 : 500;
    }
    /* the same analysis, queued or running: joined */
    if (!status && S->running[kind] && !S->running[kind]->done &&
        strcmp(S->running[kind]->key, want->key) == 0)
        j = S->running[kind];
    for (job *k = S->jobs[kind]; !status && !j && k; k = k->next)
        if (strcmp(k->key, want->key) == 0)
            j = k;
    if (!status && !j) {
        /* clients gone count for nothing */
        drop_all_gone_locked(S);
        int mine = 0, all = 0;
        if (S->running[kind]) {
            all++;
            mine += asked_by(S->running[kind], q->addr);
        }
        job **end = &S->jobs[kind];
        for (; *end; end = &(*end)->next) {
            all++;
            mine += asked_by(*end, q->addr);
        }
        if (mine >= ANALYSIS_PER_ADDRESS)
            status = 429;
        else if ((all >= ANALYSIS_QUEUE && mine > 0) || all >= ANALYSIS_HARD)
            status = 503;
        else if (!(j = malloc(sizeof *j)))
            status = 500;
        else {
            *j = *want;
            want->plies = NULL; /* taken over */
            if (j->g)
                j->g->refs++;
            j->done = false;
            j->text = NULL;
            j->refs = 1; /* the queue's, then its thread's */
            j->waiting = NULL;
            j->next = NULL;
            *end = j;
            if (kind == JOB_HINT)
                atomic_fetch_add(&S->urgent, 1);
            pthread_cond_signal(&S->job_work[kind]);
        }
    }
    if (j) {
        j->refs++;
        q->j = j;
        q->jnext = j->waiting;
        j->waiting = q;
        MHD_suspend_connection(q->c);
        if (!q->owed) {
            q->owed = true;
            S->owed++;
        }
    }
    pthread_mutex_unlock(&S->mu);
    return status;
}

/* The answer of the analysis request q waited for. Its job is done (set
 * before the request was resumed) and stays as it is. */
enum MHD_Result srv_job_answer(struct MHD_Connection *c, request *q) {
    const job *j = q->j;
    if (!j->done || !j->text)
        return srv_error(c, 503,
                         "no %s: the server is stopping, or out of "
                         "memory",
                         j->kind == JOB_HINT ? "hint" : "review");
    char *t = strdup(j->text);
    return t ? srv_answer(c, MHD_HTTP_OK, "application/json", t, strlen(t))
             : srv_error(c, 500, "out of memory");
}

/* ------------------------------------------------------------------------
 * New games limited, unfinished games left alone expired
 * --------------------------------------------------------------------- */
static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Takes one game from allowance `a` (at most `most`, `per_s` more each
 * second): 0, or the seconds until it has one. */
static int allow_one(allowance *a, double most, double per_s, double now) {
    a->left += (now - a->at) * per_s;
    a->left = a->left > most ? most : a->left;
    a->at = now;
    if (a->left >= 1) {
        a->left -= 1;
        return 0;
    }
    int wait = (int)((1 - a->left) / per_s + 0.999);
    return wait > 0 ? wait : 1;
}

/* All addresses together: a minute's games, and how many at once (see
 * server.h). */
static double all_per_minute(const server *S) {
    double keep = (double)S->o.max_games / 2 * 60 / (double)S->o.expire;
    return keep > (double)S->o.new_games ? keep : (double)S->o.new_games;
}

static double all_at_once(const server *S) {
    double ten = 10 * (double)S->o.new_games, r = all_per_minute(S);
    return ten > r ? ten : r;
}

int srv_may_create(server *S, struct MHD_Connection *c) {
    char addr[ADDR_MAX];
    address_of(c, addr, sizeof addr);
    double now = now_s(), mine = (double)S->o.new_games;
    pthread_mutex_lock(&S->mu);
    allowance *a = NULL;
    for (int i = 0; i < S->nmakers && !a; i++)
        if (strcmp(S->makers[i].addr, addr) == 0)
            a = &S->makers[i];
    if (!a) {
        /* a new address; when the table is full, the one that would have
           the most games by now makes room */
        if (S->nmakers < CREATE_ADDRS)
            a = &S->makers[S->nmakers++];
        else
            for (int i = 0; i < CREATE_ADDRS; i++) {
                allowance *b = &S->makers[i];
                if (!a || b->left + (now - b->at) * mine / 60 >
                              a->left + (now - a->at) * mine / 60)
                    a = b;
            }
        snprintf(a->addr, sizeof a->addr, "%s", addr);
        a->left = mine;
        a->at = now;
    }
    double all = all_per_minute(S);
    /* a game is taken from both or neither */
    allowance was = *a;
    int wait = allow_one(a, mine, mine / 60, now);
    if (!wait &&
        (wait = allow_one(&S->made_all, all_at_once(S), all / 60, now)))
        *a = was;
    pthread_mutex_unlock(&S->mu);
    return wait;
}

enum MHD_Result srv_gone(server *S, struct MHD_Connection *c) {
    return srv_error(c, 410,
                     "this game expired: it was left unfinished with no move "
                     "for %ld s",
                     S->o.expire);
}

/* Expires the unfinished games with no action for --expire seconds (S->mu
 * held, no game's lock), at most EXPIRE_BATCH at a time (one transaction;
 * the rest at the next look, a second later): each is taken off the table
 * and out of the file (its id kept as expired), and its watchers woken
 * (they are answered 410). A game whose lock is taken now, or whose
 * computer is to act, is looked at next time. Returns whether some were
 * left for the next time. */
#define EXPIRE_BATCH 256
static bool expire_locked(server *S, time_t now) {
    long long before = (long long)now - S->o.expire;
    wgame *batch[EXPIRE_BATCH];
    const char *ids[EXPIRE_BATCH];
    int n = 0;
    bool more = false;
    for (long i = 0; i < S->nall; i++) {
        wgame *g = S->all[i];
        if (pthread_mutex_trylock(&g->mu) != 0)
            continue;
        bool stale = !g->queued && !g->busy && g->last < before &&
                     wg_result(g) == KEMET_PLAYING;
        pthread_mutex_unlock(&g->mu);
        if (stale && n == EXPIRE_BATCH)
            more = true;
        else if (stale) {
            batch[n] = g;
            ids[n++] = g->id;
        }
    }
    if (n == 0)
        return false;
    /* marked under their locks, unless they moved meanwhile */
    int k = 0;
    for (int i = 0; i < n; i++) {
        wgame *g = batch[i];
        if (pthread_mutex_trylock(&g->mu) != 0)
            continue;
        if (!g->queued && !g->busy && g->last < before) {
            g->expired = true;
            batch[k] = g;
            ids[k++] = g->id;
        } else
            pthread_mutex_unlock(&g->mu);
    }
    int rc = k ? store_expire(S->db, ids, k, (long long)now) : 0;
    for (int i = 0; i < k; i++) {
        if (rc)
            batch[i]->expired = false;
        pthread_mutex_unlock(&batch[i]->mu);
    }
    if (rc) {
        fprintf(stderr, "kemet: serve: %s\n", store_error(S->db));
        return false;
    }
    long kept = 0;
    for (long i = 0; i < S->nall; i++)
        if (!S->all[i]->expired)
            S->all[kept++] = S->all[i];
    S->nall = kept;
    for (int i = 0; i < k; i++) {
        wgame *g = batch[i];
        for (wgame **p = &S->bucket[bucket_of(g->id)]; *p; p = &(*p)->next)
            if (*p == g) {
                *p = g->next;
                break;
            }
        S->expired++;
        wake_game(S, g);
        release_locked(g);
    }
    return more;
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
        pthread_mutex_lock(&S->mu);
        drop_all_gone_locked(S);
        players_free_locked(S, now - S->o.computer_idle, false);
        long every = S->o.expire / 4 < 60 ? S->o.expire / 4 : 60;
        if (now - S->swept >= (every > 1 ? every : 1))
            /* more left: the next look in a second */
            S->swept = expire_locked(S, now) ? 0 : now;
        pthread_mutex_unlock(&S->mu);
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

/* Whether the client takes a gzipped answer (Accept-Encoding names gzip,
 * or *, with a weight above 0). */
static bool takes_gzip(struct MHD_Connection *c) {
    const char *h =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept-Encoding");
    double gz = -1, any = -1;
    while (h && *h) {
        h += strspn(h, " \t,");
        size_t n = strcspn(h, ",; \t");
        bool is_gz = n == 4 && strncasecmp(h, "gzip", 4) == 0;
        bool is_any = n == 1 && *h == '*';
        const char *end = h + strcspn(h, ",");
        double w = 1;
        const char *qv = strstr(h, "q=");
        if (qv && qv < end)
            w = strtod(qv + 2, NULL);
        if (is_gz)
            gz = w;
        else if (is_any)
            any = w;
        h = end;
    }
    return gz >= 0 ? gz > 0 : any > 0;
}

/* `len` bytes gzipped (malloc'd, its length in *out), or NULL. */
static char *gzip(const char *text, size_t len, size_t *out) {
    z_stream z = {0};
    if (len > UINT_MAX ||
        deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    uLong cap = deflateBound(&z, (uLong)len);
    unsigned char *buf = malloc(cap);
    if (buf) {
        z.next_in = (Bytef *)(uintptr_t)text;
        z.avail_in = (uInt)len;
        z.next_out = buf;
        z.avail_out = (uInt)cap;
        if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
            free(buf);
            buf = NULL;
        }
    }
    *out = z.total_out;
    deflateEnd(&z);
    return (char *)buf;
}

#define GZIP_MIN 512 /* bytes below which an answer is sent as it is */

enum MHD_Result srv_answer_gz(struct MHD_Connection *c, unsigned status,
                              const char *type, const char *text, size_t len,
                              bool keep, const char *gz, size_t gz_len) {
    char *made = NULL;
    size_t made_len = 0;
    bool zip = len >= GZIP_MIN && takes_gzip(c);
    if (zip && !gz && (made = gzip(text, len, &made_len))) {
        gz = made;
        gz_len = made_len;
    }
    zip = zip && gz;
    struct MHD_Response *r =
        zip ? MHD_create_response_from_buffer(gz_len, (void *)gz,
                                              made ? MHD_RESPMEM_MUST_FREE
                                                   : MHD_RESPMEM_PERSISTENT)
            : MHD_create_response_from_buffer(len, (void *)text,
                                              keep ? MHD_RESPMEM_PERSISTENT
                                                   : MHD_RESPMEM_MUST_FREE);
    if (zip && made && r)
        made = NULL; /* the response's now */
    if (!keep && (zip || !r))
        free((void *)text);
    free(made);
    if (!r)
        return MHD_NO;
    srv_headers(r, type, keep);
    MHD_add_response_header(r, "Vary", "Accept-Encoding");
    if (zip)
        MHD_add_response_header(r, "Content-Encoding", "gzip");
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

/* Queues a whole answer: `text` is malloc'd and taken over (answers to
 * the API, never cached), or with `page` one of the page's embedded files
 * (revalidated before reuse). Gzipped where the client takes it. */
static enum MHD_Result respond(struct MHD_Connection *c, unsigned status,
                               const char *type, const char *text, size_t len,
                               bool page) {
    return srv_answer_gz(c, status, type, text, len, page, NULL, 0);
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
        int n = kc_utf8_len(p);
        if (n == 0)
            *p++ = '?';
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

enum MHD_Result srv_error_retry(struct MHD_Connection *c, unsigned status,
                                int seconds, const char *msg) {
    json_t *o = json_pack("{s:s, s:i, s:i}", "error", msg, "status",
                          (int)status, "retry_after", seconds);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!text)
        return MHD_NO;
    struct MHD_Response *r = MHD_create_response_from_buffer(
        strlen(text), text, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(text);
        return MHD_NO;
    }
    char after[24];
    snprintf(after, sizeof after, "%d", seconds);
    srv_headers(r, "application/json", false);
    MHD_add_response_header(r, "Retry-After", after);
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

/* One of the page's files (web/, embedded): number i. */
static enum MHD_Result page(server *S, struct MHD_Connection *c, int i) {
    const char *text = kemet_web_files[i][1];
    return srv_answer_gz(c, MHD_HTTP_OK, kemet_web_files[i][2], text,
                         strlen(text), true, S->web_gz[i], S->web_gz_len[i]);
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
    if (!g) {
        pthread_mutex_lock(&S->mu);
        bool expired = store_expired(S->db, id);
        pthread_mutex_unlock(&S->mu);
        return expired ? srv_gone(S, c)
                       : srv_error(c, 404, "no such game: %s", id);
    }
    srv_release(S, q->g); /* (a request put aside comes here again) */
    q->g = g;
    int you = seat_of(c, g);
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0,
         post = strcmp(method, "POST") == 0;
    struct {
        const char *path;
        bool post;
    } known[] = {{"", false},        {"/events", false}, {"/history", false},
                 {"/record", false}, {"/steps", false},  {"/explain", false},
                 {"/throw", true},   {"/move", true},    {"/hint", true},
                 {"/review", false}, {"/resign", true},  {"/takeback", true},
                 {"/rematch", true}};
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
            return api_events(S, c, g, q);
        if (!strcmp(what, "/history"))
            return api_history(c, g, you);
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
        if (!strcmp(what, "/rematch"))
            return api_rematch(S, c, g, you);
        if (!strcmp(what, "/throw"))
            return api_throw(S, c, g, you);
        if (!strcmp(what, "/move"))
            return api_move(S, c, g, you, q);
        return api_hint(S, c, g, you, q);
    }
    return srv_error(c, 404, "no such resource: %s", what);
}

/* Whether `name` (its length n) is exactly one of the names given with
 * --allow-host. */
static bool allowed_name(const server *S, const char *name, size_t n) {
    for (const char *h = S->hosts; h && *h;) {
        size_t k = strcspn(h, ",");
        if (k == n && strncasecmp(h, name, k) == 0)
            return true;
        h += k + (h[k] == ',');
    }
    return false;
}

/* Whether the Host header names this server exactly (so that a page of
 * another site, its name pointed at this machine, cannot reach it: DNS
 * rebinding): localhost, one of the names of --allow-host, or the
 * listening address (any address of its family when it listens on every
 * one; an IPv6 address bracketed), each with an optional port. */
static bool host_served(const server *S, const char *host) {
    char name[256];
    size_t n = strlen(host);
    if (n == 0 || n >= sizeof name)
        return false;
    memcpy(name, host, n + 1);
    char *port;
    if (name[0] == '[') {
        char *close = strchr(name, ']');
        if (!close)
            return false;
        *close = '\0';
        port = close + 1;
        if (*port && *port != ':')
            return false;
    } else
        port = strchr(name, ':');
    if (port && *port == ':') {
        size_t digits = strspn(port + 1, "0123456789");
        if (digits == 0 || digits > 5 || port[1 + digits])
            return false;
        *port = '\0';
    }
    unsigned char a[16];
    if (name[0] == '[')
        return S->family == AF_INET6 && inet_pton(AF_INET6, name + 1, a) == 1 &&
               (S->any_addr || memcmp(a, S->listen_addr, 16) == 0);
    if (inet_pton(AF_INET, name, a) == 1)
        return S->family == AF_INET &&
               (S->any_addr || memcmp(a, S->listen_addr, 4) == 0);
    return strcasecmp(name, "localhost") == 0 ||
           allowed_name(S, name, strlen(name));
}

/* Whether a request's Origin, when it has one, is this server's own: the
 * scheme (http, or https behind a proxy) and the Host it was sent to. */
static bool own_origin(const char *origin, const char *host) {
    if (!origin)
        return true;
    const char *rest = strncasecmp(origin, "http://", 7) == 0    ? origin + 7
                       : strncasecmp(origin, "https://", 8) == 0 ? origin + 8
                                                                 : NULL;
    return rest && host && strcasecmp(rest, host) == 0;
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

/* Counts the request's Host headers (MHD_get_connection_values). */
static enum MHD_Result count_host(void *cls, enum MHD_ValueKind kind,
                                  const char *key, const char *value) {
    (void)kind;
    (void)value;
    if (key && strcasecmp(key, "Host") == 0)
        (*(int *)cls)++;
    return MHD_YES;
}

static enum MHD_Result route(server *S, struct MHD_Connection *c,
                             const char *url, const char *method,
                             const char *version, request *q) {
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    bool post = strcmp(method, "POST") == 0;
    if (atomic_load(&S->stopping))
        return srv_error_retry(c, 503, RETRY_HINT, "the server is stopping");
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (!host && strcmp(version, MHD_HTTP_VERSION_1_0) != 0)
        return srv_error(c, 400, "an HTTP/1.1 request must say its Host");
    int hosts = 0;
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_host, &hosts);
    if (hosts > 1) /* RFC 9112, 3.2 */
        return srv_error(c, 400, "a request must say its Host once");
    if (host && !host_served(S, host))
        return srv_error(c, 421,
                         "this server does not serve that host name "
                         "(kemet serve --allow-host NAME)");
    if (post &&
        !own_origin(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin"),
                    host))
        return srv_error(c, 403,
                         "a page of another site may not act here (its "
                         "Origin is not this server)");
    if (post && (q->len > 0 || q->too_big || strcmp(url, "/api/games") == 0) &&
        !json_body(c))
        return srv_error(c, 415,
                         "the body must be JSON (Content-Type: "
                         "application/json)");
    if (strncmp(url, "/api/", 5) != 0) {
        if (!get)
            return srv_error(c, 405, "use GET for the page");
        if (strcmp(url, "/") == 0)
            url = "/index.html";
        if (strcmp(url, "/favicon.ico") == 0)
            return srv_answer_gz(c, MHD_HTTP_OK, "image/x-icon", S->icon,
                                 S->icon_len, true, NULL, 0);
        for (int i = 0; kemet_web_files[i][0]; i++)
            if (strcmp(url, kemet_web_files[i][0]) == 0)
                return page(S, c, i);
        return srv_error(c, 404, "no such page: %.100s", url);
    }
    if (q->too_big)
        return srv_error(c, 413, "the body is over %d bytes", BODY_MAX);
    /* every POST's body alike: none, or a JSON object */
    if (post && q->len > 0 && !q->json) {
        json_error_t jerr;
        q->json = json_loadb(q->body, q->len, 0, &jerr);
        if (!q->json)
            return srv_error(c, 400, "the body is not JSON: %s", jerr.text);
    }
    if (post && q->json && !json_is_object(q->json))
        return srv_error(c, 400, "the body must be a JSON object");
    if (strcmp(url, "/api/rulesets") == 0)
        return get ? api_rulesets(S, c)
                   : srv_error(c, 405, "use GET for /api/rulesets");
    if (strcmp(url, "/api/server") == 0)
        return get ? api_server(S, c)
                   : srv_error(c, 405, "use GET for /api/server");
    if (strcmp(url, "/api/games") == 0) {
        if (post)
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
    server *S = cls;
    request *q = *state;
    if (q && q->gone)
        return MHD_NO; /* its client went away while it waited: closed */
    if (!q) {
        if (!(q = calloc(1, sizeof *q)))
            return MHD_NO;
        q->c = c;
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
    return route(S, c, url, method, version, q);
}

static void completed(void *cls, struct MHD_Connection *c, void **state,
                      enum MHD_RequestTerminationCode code) {
    (void)c;
    (void)code;
    server *S = cls;
    request *q = *state;
    if (q) {
        srv_unwait(S, &q->w);
        pthread_mutex_lock(&S->mu);
        if (q->j) {
            /* still waiting (a connection ended early): off the list */
            for (request **p = &q->j->waiting; *p; p = &(*p)->jnext)
                if (*p == q) {
                    *p = q->jnext;
                    break;
                }
            job *j = q->j;
            q->j = NULL;
            /* queued, and no one else waits for it: not made */
            if (!j->done && !j->waiting && j != S->running[j->kind]) {
                unqueue_locked(S, j);
                finish_job_locked(S, j, NULL);
            }
            release_job_locked(j);
        }
        if (q->owed && --S->owed == 0)
            pthread_cond_broadcast(&S->settled);
        if (q->g)
            release_locked(q->g);
        pthread_mutex_unlock(&S->mu);
        json_decref(q->json);
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
        snprintf(L->why, sizeof L->why, "game %.20s: unknown ruleset %.60s%s",
                 row->id, row->ruleset,
                 strchr(row->ruleset, '@')
                     ? " (a ruleset file's game: give that file's text "
                       "with --rules)"
                     : "");
        return -1;
    }
    for (int p = 0; p < 2; p++)
        if (strcmp(row->seat[p], "human") != 0 &&
            !wg_seat_level(row->seat[p])) {
            snprintf(L->why, sizeof L->why, "game %s: bad player %.40s",
                     row->id, row->seat[p]);
            return -1;
        }
    if ((L->g = wg_new(srv_judge_of(L->S, r), row->seed, row->id, row->seat,
                       row->token, row->created)))
        L->g->last = row->last;
    if (!L->g || srv_add_locked(L->S, L->g)) {
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

/* The server's threads: the computer's worker, the analysis threads
 * (hints, reviews), the ticker. */
#define NTHREADS 4
static pthread_t *thread_of(server *S, int i) {
    return i == 0   ? &S->worker
           : i == 1 ? &S->analyst[JOB_HINT]
           : i == 2 ? &S->analyst[JOB_REVIEW]
                    : &S->ticker;
}

/* Tells the threads to stop (the searches and reviews under way end at
 * their next check) and waits for the first n of them. */
static void stop_threads(server *S, int n) {
    pthread_mutex_lock(&S->mu);
    atomic_store(&S->stopping, true);
    pthread_cond_broadcast(&S->work);
    for (int k = 0; k < JOB_KINDS; k++)
        pthread_cond_broadcast(&S->job_work[k]);
    pthread_cond_broadcast(&S->calm);
    pthread_mutex_unlock(&S->mu);
    for (int i = 0; i < n; i++)
        pthread_join(*thread_of(S, i), NULL);
}

/* Every request put aside is answered (503) before the daemon stops: the
 * analyses still queued end with no answer, the long polls and event
 * streams are woken, and the connections are given STOP_GRACE_MS to send
 * their answers. */
static void answer_everyone(server *S) {
    pthread_mutex_lock(&S->mu);
    for (int k = 0; k < JOB_KINDS; k++)
        while (S->jobs[k]) {
            job *j = S->jobs[k];
            S->jobs[k] = j->next;
            finish_job_locked(S, j, NULL);
        }
    pthread_mutex_unlock(&S->mu);
    wake_game(S, NULL);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += STOP_GRACE_MS / 1000;
    until.tv_nsec += (STOP_GRACE_MS % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&S->mu);
    while (S->owed > 0)
        if (pthread_cond_timedwait(&S->settled, &S->mu, &until) == ETIMEDOUT)
            break;
    pthread_mutex_unlock(&S->mu);
}

/* Stops the threads and the daemon and frees everything (srv_open's
 * undoing, also of a half-made server). */
void srv_close(server *S) {
    if (!S)
        return;
    stop_threads(S, S->threads ? NTHREADS : 0);
    answer_everyone(S);
    if (S->d)
        MHD_stop_daemon(S->d);
    for (long i = 0; i < S->nall; i++)
        wg_free(S->all[i]);
    free(S->all);
    free(S->queue);
    cache_free(S);
    players_free_locked(S, 0, true);
    free(S->hosts);
    free(S->rulesets);
    free(S->rulesets_gz);
    free(S->icon);
    for (int i = 0; S->web_gz && kemet_web_files[i][0]; i++)
        free(S->web_gz[i]);
    free(S->web_gz);
    free(S->web_gz_len);
    store_close(S->db);
    pthread_mutex_destroy(&S->mu);
    pthread_mutex_destroy(&S->wmu);
    pthread_cond_destroy(&S->work);
    for (int k = 0; k < JOB_KINDS; k++)
        pthread_cond_destroy(&S->job_work[k]);
    pthread_cond_destroy(&S->calm);
    pthread_cond_destroy(&S->settled);
    free(S);
}

/* The icon at /favicon.ico: a Senet board of 3 rows of 5 squares with a
 * dark and a light piece, 16 by 16 pixels, as an ICO file. */
static char *make_icon(size_t *len) {
    enum { W = 16, PIX = W * W * 4, MASK = W * 4, SIZE = 22 + 40 + PIX + MASK };
    unsigned char *b = calloc(1, SIZE);
    if (!b)
        return NULL;
    unsigned char *p = b;
#define LE16(v) (*p++ = (unsigned char)(v), *p++ = (unsigned char)((v) >> 8))
#define LE32(v) (LE16((v)&0xffff), LE16((unsigned)(v) >> 16))
    LE16(0), LE16(1), LE16(1); /* an icon file of one image */
    *p++ = W, *p++ = W, *p++ = 0, *p++ = 0;
    LE16(1), LE16(32), LE32(40 + PIX + MASK), LE32(22);
    LE32(40), LE32(W), LE32(2 * W), LE16(1), LE16(32), LE32(0),
        LE32(PIX + MASK);
#undef LE16
#undef LE32
    p = b + 22 + 40;
    for (int y = 0; y < W; y++)
        for (int x = 0; x < W; x++) {
            int row = W - 1 - y; /* the rows are stored bottom up */
            unsigned char *px = p + 4 * (row * W + x);
            unsigned rgb = 0;
            bool board = y >= 3 && y <= 12;
            bool square = board && x % 3 != 0 && y % 3 != 0;
            int col = x / 3, line = (y - 4) / 3;
            if (square && ((line == 0 && col == 0) || (line == 1 && col == 3)))
                rgb = 0x202020; /* a dark piece */
            else if (square &&
                     ((line == 0 && col == 2) || (line == 2 && col == 4)))
                rgb = 0xfafafa; /* a light one */
            else if (square)
                rgb = 0xe8c98a; /* sand */
            else if (board)
                rgb = 0x6b421c; /* wood */
            px[0] = (unsigned char)rgb;
            px[1] = (unsigned char)(rgb >> 8);
            px[2] = (unsigned char)(rgb >> 16);
            px[3] = board ? 255 : 0;
        }
    *len = SIZE;
    return (char *)b;
}

/* The answers made once: the rulesets, the icon, the page gzipped. */
static int make_answers(server *S) {
    json_t *o = wg_rulesets_json(S->rules, S->nrules);
    S->rulesets = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!S->rulesets)
        return -1;
    S->rulesets_len = strlen(S->rulesets);
    S->rulesets_gz = gzip(S->rulesets, S->rulesets_len, &S->rulesets_gz_len);
    S->icon = make_icon(&S->icon_len);
    int n = 0;
    while (kemet_web_files[n][0])
        n++;
    S->web_gz = calloc((size_t)n + 1, sizeof *S->web_gz);
    S->web_gz_len = calloc((size_t)n + 1, sizeof *S->web_gz_len);
    if (!S->rulesets_gz || !S->icon || !S->web_gz || !S->web_gz_len)
        return -1;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(kemet_web_files[i][1]);
        if (len >= GZIP_MIN)
            S->web_gz[i] = gzip(kemet_web_files[i][1], len, &S->web_gz_len[i]);
    }
    return 0;
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

/* The names of --allow-host, comma-separated, as the Host check reads
 * them: the spaces around each name trimmed, empty names left out
 * ("a.example, b.example" serves both). NULL when out of memory. */
static char *host_list(const char *given) {
    const char *p = given ? given : "";
    char *out = malloc(strlen(p) + 1), *w = out;
    if (!out)
        return NULL;
    while (*p) {
        size_t k = strcspn(p, ",");
        const char *a = p, *b = p + k;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b > a) {
            if (w > out)
                *w++ = ',';
            memcpy(w, a, (size_t)(b - a));
            w += b - a;
        }
        p += k + (p[k] == ',');
    }
    *w = '\0';
    return out;
}

int srv_open(const srv_opts *o, bool listen, server **out, char *why,
             size_t len) {
    *out = NULL;
    struct sockaddr_in addr = {0};
    struct sockaddr_in6 addr6 = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)o->port);
    addr6.sin6_family = AF_INET6;
    addr6.sin6_port = htons((uint16_t)o->port);
    int family = inet_pton(AF_INET, o->host, &addr.sin_addr) == 1 ? AF_INET
                 : inet_pton(AF_INET6, o->host, &addr6.sin6_addr) == 1
                     ? AF_INET6
                     : 0;
    if (!family) {
        snprintf(why, len,
                 "serve: --host takes an IP address such as 127.0.0.1, "
                 "0.0.0.0 or ::1, not '%.40s'",
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
    for (int k = 0; k < JOB_KINDS; k++)
        pthread_cond_init(&S->job_work[k], NULL);
    pthread_cond_init(&S->calm, NULL);
    pthread_cond_init(&S->settled, NULL);
    S->o = *o;
    S->family = family;
    if (family == AF_INET) {
        memcpy(S->listen_addr, &addr.sin_addr, 4);
        S->any_addr = addr.sin_addr.s_addr == htonl(INADDR_ANY);
        S->loopback = S->listen_addr[0] == 127;
    } else {
        memcpy(S->listen_addr, &addr6.sin6_addr, 16);
        S->any_addr = IN6_IS_ADDR_UNSPECIFIED(&addr6.sin6_addr);
        S->loopback = IN6_IS_ADDR_LOOPBACK(&addr6.sin6_addr);
    }
    S->port = (unsigned)o->port;
    if (S->o.max_games <= 0)
        S->o.max_games = SRV_MAX_GAMES;
    if (S->o.per_address <= 0)
        S->o.per_address = SRV_PER_ADDRESS;
    if (S->o.wait_seconds <= 0)
        S->o.wait_seconds = SRV_WAIT;
    if (S->o.computer_idle <= 0)
        S->o.computer_idle = SRV_COMPUTER_IDLE;
    if (S->o.expire <= 0)
        S->o.expire = SRV_EXPIRE;
    if (S->o.new_games <= 0)
        S->o.new_games = SRV_NEW_GAMES;
    S->made_all.left = all_at_once(S);
    S->made_all.at = now_s();
    S->swept = time(NULL);
    S->hosts = host_list(o->allow_hosts);
    for (int i = 0; i < o->nrules && i < MAX_RULES; i++) {
        S->judge[S->nrules] = o->judges[i];
        S->rules[S->nrules++] = o->rules[i];
    }
    if (!S->hosts || make_answers(S)) {
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
    void *(*const run[NTHREADS])(void *) = {worker, hinter, reviewer, ticker};
    int started = 0;
    while (started < NTHREADS &&
           pthread_create(thread_of(S, started), NULL, run[started], S) == 0)
        started++;
    if (started < NTHREADS) {
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
    if (family == AF_INET6)
        flags |= MHD_USE_IPv6;
    S->d = MHD_start_daemon(
        flags, (uint16_t)o->port, NULL, NULL, handle, S, MHD_OPTION_SOCK_ADDR,
        family == AF_INET6 ? (struct sockaddr *)&addr6
                           : (struct sockaddr *)&addr,
        MHD_OPTION_NOTIFY_COMPLETED, completed, S, MHD_OPTION_THREAD_POOL_SIZE,
        (unsigned)POOL_THREADS, MHD_OPTION_CONNECTION_LIMIT, connection_limit(),
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)S->o.per_address,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_TIMEOUT,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024, MHD_OPTION_END);
    if (!S->d) {
        snprintf(why, len, "serve: cannot listen on %s port %ld (in use?)",
                 o->host, o->port);
        goto fail;
    }
    const union MHD_DaemonInfo *info =
        listen ? MHD_get_daemon_info(S->d, MHD_DAEMON_INFO_BIND_PORT) : NULL;
    if (info)
        S->port = info->port;
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
    bool v6 = S->family == AF_INET6;
    printf("kemet: serving %d games on http://%s%s%s:%u/ (database %s)\n",
           (int)S->nall, v6 ? "[" : "", o->host, v6 ? "]" : "", S->port, o->db);
    fflush(stdout);
    int sig;
    sigwait(&stop, &sig);
    printf("kemet: stopping\n");
    fflush(stdout);
    srv_close(S);
    return 0;
}
