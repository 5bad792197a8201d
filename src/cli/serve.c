/* serve.c - `kemet serve`: the options; the server itself is src/serve. */
#include "cli.h"
#include "serve.h"

#include <stdlib.h>

static const char serve_usage[] =
    "usage: kemet serve [--port P] [--db FILE] [--host ADDRESS]\n"
    "                   [--allow-host NAME,...] [--max-games N]\n"
    "                   [--per-address N] [--new-games N] [--expire SECONDS]\n"
    "                   [--computer-idle SECONDS] [--rules FILE]\n"
    "Serves the games in the browser at http://127.0.0.1:P/ (port 8080 by\n"
    "default; 0 picks a free one) with a JSON API under /api/ (docs/api.md).\n"
    "--rules FILE offers the ruleset of a ruleset file too, read at start-up\n"
    "(docs/rulesets.md; --rules again for each further file, up to 16, each\n"
    "its own id); nothing is uploaded.\n"
    "Games are stored in FILE (kemet.db by default), each action before it\n"
    "is answered; a restart resumes them. --host 0.0.0.0 listens on every\n"
    "address instead of the loopback one (an IPv6 address, such as :: or\n"
    "::1, works too). Requests must name the server exactly: by its\n"
    "listening address or localhost; --allow-host lists other names it\n"
    "answers to (e.g. kemet.example.org). Hints and reviews are queued, at\n"
    "most 4 of each per client address and 32 in all (256 for addresses\n"
    "with none waiting), served address by address (docs/api.md).\n"
    "--max-games N caps the games held (default 100000); --per-address N\n"
    "the connections from one client address (default 128). A game left\n"
    "unfinished with no action for --expire seconds (default 172800: two\n"
    "days) expires (finished games are kept); --new-games N: the games an\n"
    "address may make at once, and then a minute (default 10); all\n"
    "addresses together make at most as many as keep the unfinished games\n"
    "to half of --max-games. A computer player unused for\n"
    "--computer-idle seconds (default 60) is freed. Stops on\n"
    "Ctrl-C or SIGTERM, answering every request that waits.\n"
    "The computer players use the endgame tables and the learned evaluation\n"
    "as every command does.\n" TABLES_HELP;

int cmd_serve(int argc, char **argv) {
    long port = 8080;
    const char *db = "kemet.db", *host = "127.0.0.1", *allow = NULL;
    long max_games = SRV_MAX_GAMES, per_address = SRV_PER_ADDRESS;
    long expire = SRV_EXPIRE, computer_idle = SRV_COMPUTER_IDLE,
         new_games = SRV_NEW_GAMES;
    cli_opt opts[] = {{"port", OPT_LONG, &port, 0, 65535},
                      {"allow-host", OPT_STRING, &allow, 0, 0},
                      {"max-games", OPT_LONG, &max_games, 1, 100000000},
                      {"per-address", OPT_LONG, &per_address, 1, 100000},
                      {"expire", OPT_LONG, &expire, 1, 100000000},
                      {"new-games", OPT_LONG, &new_games, 1, 100000000},
                      {"computer-idle", OPT_LONG, &computer_idle, 1, 86400},
                      {"db", OPT_STRING, &db, 0, 0},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"host", OPT_STRING, &host, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int npos;
    int rc = cli_parse(argc, argv, opts, NULL, 0, 0, &npos, serve_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    /* The built-in rulesets, and the files of --rules (docs/rulesets.md). */
    int n = kemet_ruleset_count() + cli_rules_count();
    kemet_rules **rules = calloc((size_t)n, sizeof *rules);
    kemet_judge **judges = calloc((size_t)n, sizeof *judges);
    if (!rules || !judges) {
        free(rules);
        free(judges);
        return cli_fail("out of memory");
    }
    int opened = 0;
    for (; opened < n; opened++) {
        kemet_error err;
        if (opened < kemet_ruleset_count()
                ? kemet_rules_open(kemet_ruleset_id(opened), &rules[opened],
                                   &err)
                : kemet_rules_open_text(
                      cli_rules_text_at(opened - kemet_ruleset_count()), NULL,
                      NULL, &rules[opened], &err)) {
            rc = cli_fail("serve: %s", err.msg);
            break;
        }
        /* Loaded (or made, on first need) before any thread starts. */
        if (kemet_judge_new(rules[opened], NULL, &judges[opened], &err)) {
            kemet_rules_close(rules[opened]);
            rc = cli_fail("serve: %s", err.msg);
            break;
        }
        cli_use_tables(judges[opened], cli_tables);
    }
    if (rc == 0) {
        char why[512] = "";
        srv_opts o = {.rules = rules,
                      .judges = judges,
                      .nrules = n,
                      .db = db,
                      .host = host,
                      .port = port,
                      .allow_hosts = allow,
                      .max_games = max_games,
                      .per_address = per_address,
                      .expire = expire,
                      .new_games = new_games,
                      .computer_idle = computer_idle};
        if (srv_run(&o, why, sizeof why))
            rc = cli_fail("%s", why);
    }
    for (int i = 0; i < opened; i++) {
        kemet_judge_free(judges[i]);
        kemet_rules_close(rules[i]);
    }
    free(judges);
    free(rules);
    return rc;
}
