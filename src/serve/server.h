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

typedef struct request {
    char *body;
    size_t len;
    bool too_big;
} request;

enum MHD_Result api_create(server *S, struct MHD_Connection *c,
                           const request *q);
enum MHD_Result api_events(server *S, struct MHD_Connection *c, wgame *g);
enum MHD_Result api_explain(struct MHD_Connection *c, wgame *g);
enum MHD_Result api_hint(struct MHD_Connection *c, wgame *g, int you);
enum MHD_Result api_history(struct MHD_Connection *c, wgame *g);
enum MHD_Result api_list(server *S, struct MHD_Connection *c);
enum MHD_Result api_move(server *S, struct MHD_Connection *c, wgame *g, int you,
                         const request *q);
enum MHD_Result api_record(struct MHD_Connection *c, wgame *g);
enum MHD_Result api_rulesets(server *S, struct MHD_Connection *c);
enum MHD_Result api_state(server *S, struct MHD_Connection *c, wgame *g,
                          int you);
enum MHD_Result api_steps(struct MHD_Connection *c, wgame *g);
enum MHD_Result api_throw(server *S, struct MHD_Connection *c, wgame *g,
                          int you);
int srv_add_locked(server *S, wgame *g);
enum MHD_Result srv_answer(struct MHD_Connection *c, unsigned status,
                           const char *type, char *text, size_t len);
enum MHD_Result srv_answer_json(struct MHD_Connection *c, unsigned status,
                                json_t *o);
void srv_changed(server *S, wgame *g);

wgame *srv_find(server *S, const char *id);
int srv_random_bytes(void *buf, size_t n);
int srv_random_hex(char *out, int chars);
const kemet_rules *srv_rules_of(server *S, const char *spec);
int srv_save(server *S, wgame *g, long first);
enum MHD_Result srv_error(struct MHD_Connection *c, unsigned status,
                          const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
