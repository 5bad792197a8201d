/* serve.h - the server layer's one entry point, for the program's
 * `kemet serve` command (src/cli/serve.c), which parses the options.
 */
#ifndef KEMET_SERVE_H
#define KEMET_SERVE_H

#include "kemet.h"

#include <stddef.h>

/* What `kemet serve` was asked for: the rules (opened, with their tables)
 * it serves, stay the caller's. */
typedef struct srv_opts {
    kemet_rules **rules;
    int nrules;
    const char *db, *host;
    long port;
} srv_opts;
/* Serves until SIGINT or SIGTERM: 0, or -1 with a one-line message in
 * why (a database it cannot use, a port it cannot listen on). */
int srv_run(const srv_opts *o, char *why, size_t len);

#endif
