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

/* A connection put aside (suspended) until its game changes or `until`
 * passes: a long poll, or an event stream with nothing to send. */
typedef struct waiter {
    struct MHD_Connection *c;
    const wgame *g;
    time_t until;
    bool listed;
    struct waiter *prev, *next;
} waiter;

enum { JOB_HINT = 0, JOB_REVIEW = 1 };

/* A request: its body, and what it waits for. */
typedef struct request {
    char *body;
    size_t len;
    bool too_big;
    waiter w;        /* long polling */
    time_t deadline; /* of the long poll, once begun */
    int hint;        /* 0; 1 queued for the analysis thread; 2 answered */
    int job;         /* JOB_HINT or JOB_REVIEW */
    struct MHD_Connection *c;
    wgame *g;         /* the job's game */
    kemet_pos pos;    /* the hint's position, the review's start */
    kemet_throw thr;  /* the hint's throw (n == 0: none) */
    kemet_ply *plies; /* the review's plies, at the game's `version` */
    long nplies, version;
    json_t *answer; /* the hint's answer (NULL: none could be made) */
    char *text;     /* the review's answer, JSON text (NULL: none) */
    struct request *qnext;
} request;

struct server {
    store *db;
    kemet_rules *rules[MAX_RULES];
    const kemet_judge *judge[MAX_RULES]; /* judge[i] judges rules[i] */
    int nrules;
    srv_opts o;
    char *hosts;        /* the host names served (o.allow_hosts), copied */
    pthread_mutex_t mu; /* guards the tables, the queues and `db` */
    wgame *bucket[NBUCKET];
    wgame **all; /* in order of creation */
    long nall, capall;
    wgame **queue; /* games where the computer is to act */
    long qhead, qlen, qcap;
    request *hints, *hints_last; /* requests waiting for a hint */
    pthread_cond_t work, hint_work;
    pthread_t worker, hinter, ticker;
    bool threads;
    pthread_mutex_t wmu; /* guards the waiters' list */
    waiter *waiters;
    struct MHD_Daemon *d;
    atomic_bool stopping;
};

enum MHD_Result api_create(server *S, struct MHD_Connection *c,
                           const request *q);
enum MHD_Result api_events(server *S, struct MHD_Connection *c, wgame *g);
enum MHD_Result api_explain(struct MHD_Connection *c, wgame *g);
enum MHD_Result api_hint(server *S, struct MHD_Connection *c, wgame *g, int you,
                         request *q);
enum MHD_Result api_review(server *S, struct MHD_Connection *c, wgame *g,
                           request *q);
enum MHD_Result api_history(struct MHD_Connection *c, wgame *g);
enum MHD_Result api_list(server *S, struct MHD_Connection *c);
enum MHD_Result api_move(server *S, struct MHD_Connection *c, wgame *g, int you,
                         const request *q);
enum MHD_Result api_record(struct MHD_Connection *c, wgame *g);
enum MHD_Result api_resign(server *S, struct MHD_Connection *c, wgame *g,
                           int you);
enum MHD_Result api_rulesets(server *S, struct MHD_Connection *c);
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
void srv_changed(server *S, wgame *g);
/* The headers of every answer: its type, caching, and the security
 * headers (CSP, no framing, no sniffing, no referrer). */
void srv_headers(struct MHD_Response *r, const char *type, bool page);
bool srv_queue_hint(server *S, request *q);
/* Puts connection c aside until game g changes or `seconds` pass (g->mu
 * held); the handler or reader is then called again. */
void srv_wait(server *S, waiter *w, struct MHD_Connection *c, const wgame *g,
              long seconds);
/* Takes w off the list, if it is on it (its connection is ending). */
void srv_unwait(server *S, waiter *w);

wgame *srv_find(server *S, const char *id);
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
