/* serve.h - the server layer's one entry point, for the program's
 * `kemet serve` command (src/cli/serve.c), which parses the options.
 */
#ifndef KEMET_SERVE_H
#define KEMET_SERVE_H

#include "kemet.h"

#include <stdbool.h>
#include <stddef.h>

/* What `kemet serve` was asked for: the rules it serves and their judges
 * (judges[i] judges rules[i], with its tables), which stay the caller's.
 * Zero limits take the defaults below. */
typedef struct srv_opts {
    kemet_rules **rules;
    kemet_judge **judges;
    int nrules;
    const char *db, *host;
    long port;
    const char *allow_hosts; /* host names served besides addresses and
                                localhost, comma-separated (DNS rebinding) */
    long max_games;          /* games held at most (SRV_MAX_GAMES) */
    long per_address;        /* connections per client address */
    long wait_seconds;       /* long polling's wait (SRV_WAIT) */
    long expire;             /* seconds before an unfinished game with no
                                action expires (SRV_EXPIRE) */
    long new_games;          /* games one address may make at once, and
                                a minute (SRV_NEW_GAMES) */
    long computer_idle;      /* seconds an unused computer player is kept
                                (SRV_COMPUTER_IDLE) */
} srv_opts;
#define SRV_MAX_GAMES 100000
#define SRV_PER_ADDRESS 128
#define SRV_WAIT 25
#define SRV_COMPUTER_IDLE 60
#define SRV_EXPIRE 172800
#define SRV_NEW_GAMES 10

/* Serves until SIGINT or SIGTERM: 0, or -1 with a one-line message in
 * why (a database it cannot use, a port it cannot listen on). */
int srv_run(const srv_opts *o, char *why, size_t len);

/* The same in steps, for programs that drive the server in process (the
 * fuzz target of tests/fuzz): srv_open loads the games and starts the
 * server's threads; with listen false, connections are only those handed
 * over by srv_connection (a connected socket, taken over: closed by the
 * server). srv_close stops and frees everything. */
typedef struct server server;
int srv_open(const srv_opts *o, bool listen, server **out, char *why,
             size_t len);
int srv_connection(server *S, int fd);
void srv_close(server *S);

#endif
