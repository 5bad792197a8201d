/* server.h - the parts of `kemet serve` (src/serve): the server and its
 * games table, the computer's worker and the HTTP glue (server.c), the
 * API's handlers (api.c), the games (wgame.c) and their storage
 * (store.c). Built on the public header and common.h only; the program's
 * command (src/cli/serve.c) parses the options and calls srv_run.
 */
#ifndef KEMET_SERVER_H
#define KEMET_SERVER_H

#include "serve.h"
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
#include <pthread.h>

#define BODY_MAX 16384 /* bytes of a request body */
#define NBUCKET 4096
#define MAX_RULES 32
#define SSE_PING 10     /* seconds between an event stream's comments */
#define IDLE_TIMEOUT 20 /* seconds before a silent connection is closed */
#define POOL_THREADS 4  /* libmicrohttpd's polling threads */
#define MAX_IDS 200     /* games one GET /api/games may name */

/* The analyses (hints and reviews): each kind has its own queue and
 * thread. The thread serves the client addresses in turn (the address
 * served longest ago first), so that one address's many requests do not
 * push back another's first one. At most ANALYSIS_PER_ADDRESS analyses of
 * a kind asked for by one client address are queued or running (429 past
 * it); at most ANALYSIS_QUEUE of a kind in all (503), except for an
 * address with none of that kind waiting, refused only past
 * ANALYSIS_HARD; either answer says when to try again (Retry-After, in
 * seconds). A request for an analysis already queued or running joins it
 * (identical hints: the same ruleset, position and throw, whatever the
 * game), and a hint made recently is answered from the cache. A request
 * whose client has gone is dropped and stops counting; an analysis no one
 * waits for any more is not made (a hint under way is abandoned). A hint
 * begun while others wait (or within HINT_BOUND_MS of one made for
 * another address) searches HINT_BOUNDED's nodes (a quarter of the
 * hint's), and one that has searched for HINT_BOUND_MS when others come
 * to wait stops (at the search's next check) with what it has found;
 * either answer says "bounded": true. */
#define ANALYSIS_PER_ADDRESS 4
#define ANALYSIS_QUEUE 32
#define ANALYSIS_HARD 256
#define RETRY_HINT 2
#define RETRY_REVIEW 30
#define HINT_BOUND_MS 400
#define HINT_BOUNDED "expectimax:5k"
#define HINT_CACHE_BYTES (4 << 20) /* the hints kept, in all */
#define HINT_CACHE_SECONDS 600     /* a hint kept: how long */
#define HINT_CACHE_BOUNDED 30      /* ... a bounded one */
#define STOP_GRACE_MS 1500 /* at a stop, the wait for the last answers */
#define KEY_MAX 720        /* an analysis's key */
#define ADDR_MAX 64        /* a client address as text */

/* New games (POST /api/games, and rematches): one client address may make
 * --new-games at once, then as many a minute (429 with Retry-After past
 * it); all addresses together R a minute, as many as keep the unfinished
 * games made within --expire to half of --max-games but never fewer than
 * one address may make, and at most max(10 x --new-games, R) at once. A
 * game left unfinished with no action for --expire seconds expires (410
 * from then on); finished games are kept. */
#define CREATE_ADDRS 1024 /* addresses remembered (the fullest forgotten) */
typedef struct allowance {
    char addr[ADDR_MAX];
    double left; /* games it may make now */
    double at;   /* when `left` was counted (seconds) */
} allowance;

/* The computer players (server.c): games hold none. The worker keeps at
 * most COMPUTER_CAP searching players (levels 3 to 5), one per ruleset
 * and level, the least recently used freed to make room and any unused
 * for --computer-idle seconds freed; under a node budget a search's
 * choice depends on the position alone, so a player made again chooses as
 * the one freed would have. Levels 1 and 2 (random, greedy: no search)
 * are made for each decision, seeded from the game, the seat and the
 * version. */
#define COMPUTER_CAP 4
typedef struct player_slot {
    const kemet_judge *judge;
    int level;
    kemet_agent *agent; /* NULL: a free slot */
    time_t used;
    bool busy;
} player_slot;

/* A connection put aside (suspended) until its game changes or `until`
 * passes: a long poll, or an event stream with nothing to send. */
typedef struct waiter {
    struct MHD_Connection *c;
    const wgame *g;
    time_t until;
    bool listed;
    struct waiter *prev, *next;
} waiter;

enum { JOB_HINT = 0, JOB_REVIEW = 1, JOB_KINDS = 2 };

struct request;

/* One analysis: a hint for a game at a version, or a finished game's
 * review. Guarded by the server's mu; freed when the last of its holders
 * (the queue or its thread, each request waiting for it) lets it go. */
typedef struct job {
    int kind;
    wgame *g; /* the review's game; NULL for a hint */
    const kemet_judge *judge;
    char key[KEY_MAX]; /* a hint: ruleset, position and throw; a review:
                          game and version */
    long version;      /* the review's g->played */
    kemet_pos pos;     /* the hint's position, the review's start */
    kemet_throw thr;   /* the hint's throw (n == 0: none) */
    kemet_ply *plies;  /* the review's plies */
    long nplies;
    int result, resigned; /* how the reviewed game ended */
    bool done;
    char *text; /* once done: the answer, JSON text (NULL: none was made) */
    int refs;
    struct request *waiting; /* requests put aside for it */
    struct job *next;        /* in its queue */
} job;

/* A request: its body, and what it waits for. */
typedef struct request {
    char *body;
    size_t len;
    bool too_big;
    json_t *json;    /* a POST's body, parsed (NULL: none) */
    waiter w;        /* long polling */
    time_t deadline; /* of the long poll, once begun */
    struct MHD_Connection *c;
    job *j;                /* the analysis it waits for, or NULL */
    char addr[ADDR_MAX];   /* the client's address (IPv6: its /64) */
    bool gone;             /* its client went away while it waited */
    wgame *g;              /* the game it is about, held */
    bool owed;             /* put aside once (or an event stream): counted in
                              S->owed until it completes */
    struct request *jnext; /* in j->waiting */
} request;

/* A hint made, kept for those who ask again (its key, its answer). */
typedef struct cached {
    char key[KEY_MAX];
    char *text;
    size_t len;
    time_t until; /* dropped after */
    struct cached *next;
} cached;

struct server {
    store *db;
    kemet_rules *rules[MAX_RULES];
    const kemet_judge *judge[MAX_RULES]; /* judge[i] judges rules[i] */
    int nrules;
    srv_opts o;
    char *hosts; /* the host names served (o.allow_hosts), copied */
    int family;  /* AF_INET or AF_INET6: the listening address's */
    unsigned char listen_addr[16]; /* ... in network order */
    bool any_addr, loopback;       /* listening on every address; on the
                                      loopback one only */
    unsigned port;                 /* the port bound */
    pthread_mutex_t mu;            /* guards the tables, the queues and `db` */
    wgame *bucket[NBUCKET];
    wgame **all; /* in order of creation */
    long nall, capall;
    wgame **queue; /* games where the computer is to act */
    long qhead, qlen, qcap;
    allowance makers[CREATE_ADDRS]; /* new games per address */
    int nmakers;
    allowance made_all; /* new games, all addresses together */
    long expired;       /* games expired since the start */
    time_t swept;       /* when games were last checked for expiry */
    player_slot players[COMPUTER_CAP]; /* the computer players held */
    long players_live;                 /* computer players in memory */
    long players_made;                 /* ... made since the start */
    job *jobs[JOB_KINDS];              /* queued analyses, oldest first */
    job *running[JOB_KINDS];           /* the one each analysis thread makes */
    long made[JOB_KINDS];              /* analyses made since the start */
    long dropped[JOB_KINDS];  /* requests dropped, their clients gone */
    long cached_answers;      /* hints answered from the cache */
    double hint_end;          /* when the last hint was made (ms) */
    char hint_addr[ADDR_MAX]; /* ... and an address it was made for */
    struct turn {
        char addr[ADDR_MAX];
        unsigned long stamp; /* when it was last served */
    } turns[JOB_KINDS][ANALYSIS_HARD + 1];
    int nturns[JOB_KINDS];
    unsigned long clock[JOB_KINDS];
    struct cached *cache; /* hints made, most recently used first */
    size_t cache_bytes;
    atomic_int urgent; /* hints queued or running and the computer's
                          searches: a review waits while there are any */
    long owed;         /* requests put aside, not yet completed */
    pthread_cond_t work, job_work[JOB_KINDS], calm, settled;
    pthread_t worker, analyst[JOB_KINDS], ticker;
    bool threads;
    pthread_mutex_t wmu; /* guards the waiters' list */
    waiter *waiters;
    struct MHD_Daemon *d;
    atomic_bool stopping;
    /* answers made once: the rulesets (plain and gzip), the icon, and the
       page's files gzipped (NULL where it does not pay) */
    char *rulesets, *rulesets_gz, *icon;
    size_t rulesets_len, rulesets_gz_len, icon_len;
    char **web_gz;
    size_t *web_gz_len;
};

enum MHD_Result api_create(server *S, struct MHD_Connection *c,
                           const request *q);
enum MHD_Result api_events(server *S, struct MHD_Connection *c, wgame *g,
                           request *q);
enum MHD_Result api_explain(struct MHD_Connection *c, wgame *g);
enum MHD_Result api_hint(server *S, struct MHD_Connection *c, wgame *g, int you,
                         request *q);
enum MHD_Result api_review(server *S, struct MHD_Connection *c, wgame *g,
                           request *q);
enum MHD_Result api_history(struct MHD_Connection *c, wgame *g, int you);
enum MHD_Result api_list(server *S, struct MHD_Connection *c);
enum MHD_Result api_move(server *S, struct MHD_Connection *c, wgame *g, int you,
                         const request *q);
enum MHD_Result api_record(struct MHD_Connection *c, wgame *g);
enum MHD_Result api_resign(server *S, struct MHD_Connection *c, wgame *g,
                           int you);
enum MHD_Result api_rulesets(server *S, struct MHD_Connection *c);
enum MHD_Result api_rematch(server *S, struct MHD_Connection *c, wgame *g,
                            int you);
enum MHD_Result api_server(server *S, struct MHD_Connection *c);
enum MHD_Result api_takeback(server *S, struct MHD_Connection *c, wgame *g,
                             int you);
enum MHD_Result api_state(server *S, struct MHD_Connection *c, wgame *g,
                          int you, request *q);
enum MHD_Result api_steps(struct MHD_Connection *c, wgame *g);
enum MHD_Result api_throw(server *S, struct MHD_Connection *c, wgame *g,
                          int you);
int srv_add_locked(server *S, wgame *g);
enum MHD_Result srv_answer(struct MHD_Connection *c, unsigned status,
                           const char *type, char *text, size_t len);
enum MHD_Result srv_answer_json(struct MHD_Connection *c, unsigned status,
                                json_t *o);
/* An answer that may be sent gzipped (the client accepts it): `text` is
 * taken over unless `keep`; `gz` (may be NULL) the same text gzipped. */
enum MHD_Result srv_answer_gz(struct MHD_Connection *c, unsigned status,
                              const char *type, const char *text, size_t len,
                              bool keep, const char *gz, size_t gz_len);
void srv_changed(server *S, wgame *g);
/* The headers of every answer: its type, caching, and the security
 * headers (CSP, no framing, no sniffing, no referrer). */
void srv_headers(struct MHD_Response *r, const char *type, bool page);
/* Puts request q aside for the analysis `want` describes (its kind, key,
 * judge, game and what it needs, taken over: plies): joins the same
 * analysis queued or running, or queues it. 0, or the status to answer
 * (429: too many of this client's, 503: too many in all, or the server
 * stops). A hint in the cache is not put aside: *answer (malloc'd) is
 * its text (NULL otherwise). */
int srv_queue_job(server *S, request *q, job *want, char **answer);
/* Counts request q as owed an answer until it completes (S->mu not
 * held). */
void srv_owe(server *S, request *q);
/* An error with Retry-After. */
enum MHD_Result srv_error_retry(struct MHD_Connection *c, unsigned status,
                                int seconds, const char *msg);
/* Puts connection c aside until game g changes or `seconds` pass (g->mu
 * held); the handler or reader is then called again. */
void srv_wait(server *S, waiter *w, struct MHD_Connection *c, const wgame *g,
              long seconds);
/* Takes w off the list, if it is on it (its connection is ending). */
void srv_unwait(server *S, waiter *w);

/* The game of id `id`, held (srv_release lets it go), or NULL. An
 * expired game stays in memory until its last holder lets it go. */
wgame *srv_find(server *S, const char *id);
void srv_hold(server *S, wgame *g);
void srv_release(server *S, wgame *g);
/* Whether client c may make a new game now (S->mu not held): 0, or the
 * seconds to wait (429). */
int srv_may_create(server *S, struct MHD_Connection *c);
/* The answer for a game that expired (410). */
enum MHD_Result srv_gone(server *S, struct MHD_Connection *c);
/* A game's answer of an analysis: the job's text, or an error. */
enum MHD_Result srv_job_answer(struct MHD_Connection *c, request *q);
int srv_random_bytes(void *buf, size_t n);
int srv_random_hex(char *out, int chars);
const kemet_rules *srv_rules_of(server *S, const char *spec);
/* The judge of rules `r` (one of S->rules). */
const kemet_judge *srv_judge_of(server *S, const kemet_rules *r);
int srv_save(server *S, wgame *g, long first);
enum MHD_Result srv_error(struct MHD_Connection *c, unsigned status,
                          const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
