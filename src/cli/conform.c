/* conform.c - the conformance commands `kemet start|moves|apply`, exactly
 * as docs/notation.md specifies them: results on standard output,
 * or one line on standard error and exit status 2. Also `kemet hint`,
 * which reads its position and throw the same way.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#define BOARD_HELP                                                             \
    "--board FILE plays on the board described by FILE (a board file, see\n"   \
    "docs/boards.md) instead of the built-in one, for the rulesets whose\n"    \
    "board is a reconstruction.\n"

static const char start_usage[] =
    "usage: kemet start RULESET [--board FILE] [--rules FILE]\n"
    "Prints the starting position of RULESET (after set-up, before the first\n"
    "throw). 'kemet rules' lists the rulesets.\n" BOARD_HELP RULES_HELP;

static const char moves_usage[] =
    "usage: kemet moves 'POSITION' THROW [--board FILE] [--rules FILE]\n"
    "Prints every legal move for THROW in POSITION, one per line ('pass' "
    "alone\n"
    "when the throw cannot be used). THROW is the value thrown (1-5 for four\n"
    "sticks; several values separated by commas, e.g. 2,3, where a ruleset\n"
    "throws several), or 'none' for the choices before throwing: 'throw' and\n"
    "any move that may be made instead of throwing. A value that only one\n"
    "player may use (Lions & Jackals' dual-coloured sticks) is written V@P,\n"
    "e.g. 1,4,6,2@1. A turn that spends several values is printed as its\n"
    "steps joined by '+', one line per distinct outcome.\n" BOARD_HELP
        RULES_HELP;

static const char apply_usage[] =
    "usage: kemet apply 'POSITION' THROW MOVE [--board FILE] [--rules FILE]\n"
    "Prints the position after MOVE (FROM-TO, steps joined by '+', or 'pass')\n"
    "for THROW in POSITION, with every consequence applied. With THROW "
    "'none',\n"
    "MOVE is a choice before throwing ('throw' leaves the position as it is).\n"
    "The steps of a turn may be given in any order the rules "
    "allow.\n" BOARD_HELP RULES_HELP;

static int print_pos(const kemet_rules *r, const kemet_pos *p) {
    char buf[1024];
    if (kemet_pos_format(r, p, buf, sizeof buf) < 0)
        return cli_fail("position too long to print");
    puts(buf);
    return 0;
}

int cmd_start(int argc, char **argv) {
    const char *arg[1], *board = NULL;
    cli_opt opts[] = {{"board", OPT_STRING, &board, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int n, rc = cli_parse(argc, argv, opts, arg, 1, 1, &n, start_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    kemet_rules *r = cli_rules(arg[0], board);
    if (!r)
        return EXIT_BAD;
    kemet_pos p;
    kemet_start(r, &p);
    rc = print_pos(r, &p);
    kemet_rules_close(r);
    return rc ? EXIT_BAD : 0;
}

/* Parses the position and throw shared by moves and apply. */
static int load(const char *ptext, const char *ttext, const char *board,
                kemet_rules **r, kemet_pos *p, kemet_throw *t) {
    kemet_error err;
    char *btext;
    if (cli_board_text(board, &btext))
        return EXIT_BAD;
    int rc = cli_pos_parse(ptext, btext, r, p, &err);
    free(btext);
    if (rc)
        return board && rc == KEMET_ESYNTAX && strncmp(err.msg, "board", 5) == 0
                   ? cli_fail("%s: %s", board, err.msg)
                   : cli_fail("%s", err.msg);
    if (p->result != KEMET_PLAYING) {
        kemet_rules_close(*r);
        return cli_fail("the game is over (winner= is set): no moves");
    }
    if (kemet_throw_parse(*r, ttext, t, &err)) {
        kemet_rules_close(*r);
        return cli_fail("%s", err.msg);
    }
    if (kemet_throw_kept(*r, p) == 1 && t->n) {
        kemet_rules_close(*r);
        return cli_fail("impossible throw '%s' here: left= holds the values "
                        "still to play this turn, so no new throw is made "
                        "(write none)",
                        ttext);
    }
    return 0;
}

int cmd_moves(int argc, char **argv) {
    const char *arg[2], *board = NULL;
    cli_opt opts[] = {{"board", OPT_STRING, &board, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int n, rc = cli_parse(argc, argv, opts, arg, 2, 2, &n, moves_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    kemet_rules *r;
    kemet_pos p;
    kemet_throw t;
    if (load(arg[0], arg[1], board, &r, &p, &t))
        return EXIT_BAD;
    kemet_move list[KEMET_MAX_MOVES];
    char buf[256];
    int k;
    if (t.n == 0 && kemet_throw_kept(r, &p) != 1) {
        puts("throw");
        k = kemet_prethrow(r, &p, list);
    } else {
        k = kemet_moves(r, &p, &t, list);
    }
    if (k == KEMET_ETHROW) {
        kemet_rules_close(r);
        return cli_fail("impossible throw '%s' here: player %d is to throw "
                        "(a value V@P is player P's only)",
                        arg[1], p.to);
    }
    if (k < 0) {
        kemet_rules_close(r);
        return cli_fail("%s", kemet_strerror(k));
    }
    for (int i = 0; i < k; i++) {
        kemet_move_format(&list[i], buf, sizeof buf);
        puts(buf);
    }
    kemet_rules_close(r);
    return 0;
}

int cmd_apply(int argc, char **argv) {
    const char *arg[3], *board = NULL;
    cli_opt opts[] = {{"board", OPT_STRING, &board, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int n, rc = cli_parse(argc, argv, opts, arg, 3, 3, &n, apply_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    kemet_rules *r;
    kemet_pos p, q;
    kemet_throw t;
    kemet_move m;
    kemet_error err;
    if (load(arg[0], arg[1], board, &r, &p, &t))
        return EXIT_BAD;
    if (t.n == 0 && strcmp(arg[2], "throw") == 0 &&
        kemet_throw_kept(r, &p) != 1) {
        rc = print_pos(r, &p);
        kemet_rules_close(r);
        return rc ? EXIT_BAD : 0;
    }
    if (strcmp(arg[2], "throw") == 0) {
        bool kept = kemet_throw_kept(r, &p) == 1;
        kemet_rules_close(r);
        return cli_fail(kept
                            ? "illegal move throw: the values of this turn's "
                              "throws are still to play (left=); choose a move "
                              "for them"
                            : "illegal move throw: the sticks are already "
                              "thrown (%s); choose a move for it",
                        arg[1]);
    }
    if (kemet_move_parse(r, arg[2], &m, &err)) {
        kemet_rules_close(r);
        return cli_fail("%s", err.msg);
    }
    rc = kemet_apply(r, &p, &t, &m, &q, NULL);
    if (rc) {
        char why[256];
        kemet_explain(r, &p, &t, &m, why, sizeof why);
        kemet_rules_close(r);
        return cli_fail("illegal move %s: %s", arg[2], why);
    }
    rc = print_pos(r, &q);
    kemet_rules_close(r);
    return rc ? EXIT_BAD : 0;
}

static const char hint_usage[] =
    "usage: kemet hint 'POSITION' THROW [--agent A] [--json] [--board FILE]\n"
    "                  [--rollout N [--policy A] [--truncate P] [--plain]\n"
    "                   [--seed S] [--threads T]] [--rules FILE]\n"
    "Ranks every legal move for THROW in POSITION (THROW 'none': the choices\n"
    "before throwing, 'throw' among them) by the chance that the player to\n"
    "move wins after it, as agent A (default best) estimates it.\n"
    "  --rollout N   estimate each chance instead by playing N games on from\n"
    "                it (the same throws for every move), with its standard\n"
    "                error; the games end at a table's exact value\n"
    "  --policy A    the agent that plays the rollouts (default greedy)\n"
    "  --truncate P  stop each game after P plies and take the evaluation's\n"
    "                chance (default 0: play to the end)\n"
    "  --plain       no luck adjustment (it reduces the variance; the\n"
    "                estimate is unbiased either way)\n"
    "  --seed S      the rollouts' throws (default 1)\n"
    "  --threads T   threads for the rollouts (default: every core; the\n"
    "                result is the same for any T)\n" BOARD_HELP RULES_HELP
        TABLES_HELP NET_HELP;

int cmd_hint(int argc, char **argv) {
    const char *arg[2], *board = NULL, *agent = "best", *policy = "greedy";
    bool json = false, plain = false;
    long games = 0, truncate = 0, nthreads = 0;
    uint64_t seed = 1;
    cli_opt opts[] = {{"board", OPT_STRING, &board, 0, 0},
                      {"agent", OPT_STRING, &agent, 0, 0},
                      {"rollout", OPT_LONG, &games, 1, 100000000},
                      {"policy", OPT_STRING, &policy, 0, 0},
                      {"truncate", OPT_LONG, &truncate, 1, 1000000},
                      {"plain", OPT_FLAG, &plain, 0, 0},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"threads", OPT_LONG, &nthreads, 1, 256},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {"json", OPT_FLAG, &json, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int n, rc = cli_parse(argc, argv, opts, arg, 2, 2, &n, hint_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    kemet_rules *r;
    kemet_pos p;
    kemet_throw t;
    if (load(arg[0], arg[1], board, &r, &p, &t))
        return EXIT_BAD;
    kemet_judge *j = cli_judge(r);
    if (!j) {
        kemet_rules_close(r);
        return EXIT_BAD;
    }
    kemet_agent *a;
    kemet_error err;
    if (kemet_agent_new_judged(j, agent, 1, &a, &err)) {
        kemet_judge_free(j);
        kemet_rules_close(r);
        return cli_fail("--agent: %s", err.msg);
    }
    if (games && cli_agent_check(r, policy, "--policy")) {
        kemet_agent_free(a);
        kemet_judge_free(j);
        kemet_rules_close(r);
        return EXIT_BAD;
    }
    kemet_rollout ro = {(int)games, (int)truncate, cli_threads(nthreads),
                        plain,      seed,          policy};
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    kc_ranked *rank = malloc((KEMET_MAX_MOVES + 1) * sizeof *rank);
    if (!list || !rank) {
        free(list);
        free(rank);
        kemet_agent_free(a);
        kemet_judge_free(j);
        kemet_rules_close(r);
        return cli_fail("out of memory");
    }
    int k =
        t.n == 0 ? kemet_prethrow(r, &p, list) : kemet_moves(r, &p, &t, list);
    int choices = k + (t.n ? 0 : 1); /* before the throw, throwing too */
    if (k >= 0 && games) {
        cli_busy_start("rolling out %ld games after each of %d choice%s", games,
                       choices, choices == 1 ? "" : "s");
        k = cli_rank_rollout(j, &p, t.n ? &t : NULL, list, k, &ro, rank, &err);
        cli_busy_end();
        if (k < 0)
            rc = cli_fail("%s", err.msg);
    } else if (k >= 0) {
        cli_busy_start("%s weighing %d choice%s", kemet_agent_spec(a), choices,
                       choices == 1 ? "" : "s");
        k = kc_rank(a, &p, t.n ? &t : NULL, list, k, rank);
        cli_busy_end();
        if (k < 0)
            rc = cli_fail("out of memory");
    } else {
        rc = k == KEMET_ETHROW
                 ? cli_fail("impossible throw '%s' here: player %d is to throw",
                            arg[1], p.to)
                 : cli_fail("%s", kemet_strerror(k));
    }
    if (!rc) {
        const kemet_info *info = kemet_rules_info(r);
        if (json && games)
            printf("{\"rollout\":{\"games\":%ld,\"policy\":\"%s\","
                   "\"truncate\":%ld,\"plain\":%s,\"seed\":%llu},"
                   "\"player\":%d,\"moves\":[",
                   games, policy, truncate, plain ? "true" : "false",
                   (unsigned long long)seed, p.to);
        else if (json)
            printf("{\"agent\":\"%s\",\"player\":%d,\"nodes\":%lld,"
                   "\"moves\":[",
                   kemet_agent_spec(a), p.to, kemet_agent_nodes(a));
        else if (games)
            printf("%s to move (player %d), %s; %ld games rolled out per "
                   "move by %s%s%s\n",
                   info->player[p.to - 1], p.to, arg[1], games, policy,
                   truncate ? ", truncated" : "",
                   plain ? ", no luck adjustment" : "");
        else
            printf("%s to move (player %d), %s; %s searched %lld "
                   "position%s\n",
                   info->player[p.to - 1], p.to, arg[1], kemet_agent_spec(a),
                   kemet_agent_nodes(a), kemet_agent_nodes(a) == 1 ? "" : "s");
        for (int i = 0; i < k; i++) {
            char buf[256] = "throw";
            if (rank[i].index >= 0)
                kemet_move_format(&list[rank[i].index], buf, sizeof buf);
            bool exact =
                kc_exact(j, &p, t.n ? &t : NULL,
                         rank[i].index >= 0 ? &list[rank[i].index] : NULL,
                         rank[i].chance);
            if (json && games)
                printf("%s{\"move\":\"%s\",\"win\":%.4f,\"se\":%.4f,"
                       "\"exact\":%s}",
                       i ? "," : "", buf, rank[i].chance, rank[i].se,
                       exact ? "true" : "false");
            else if (json)
                printf("%s{\"move\":\"%s\",\"win\":%.4f,\"exact\":%s}",
                       i ? "," : "", buf, rank[i].chance,
                       exact ? "true" : "false");
            else if (games)
                printf("%3d. %-24s %5.1f%% +- %.1f%s\n", i + 1, buf,
                       100 * rank[i].chance, 100 * rank[i].se,
                       exact ? "  exact" : "");
            else
                printf("%3d. %-24s %5.1f%%%s\n", i + 1, buf,
                       100 * rank[i].chance, exact ? "  exact" : "");
        }
        if (json)
            printf("]}\n");
        rc = 0;
    }
    free(list);
    free(rank);
    kemet_agent_free(a);
    kemet_judge_free(j);
    kemet_rules_close(r);
    return rc;
}
