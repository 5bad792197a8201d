/* main.c - the kemet program: command dispatch, `rules` and help.
 *
 * Each command lives in its own file (conform.c, play.c, sim.c, replay.c)
 * and is built only on the public header kemet.h.
 */
#include "cli.h"

#include <string.h>

static const char usage[] =
    "kemet " KEMET_VERSION " - the race games of ancient Egypt\n"
    "\n"
    "usage: kemet COMMAND [ARGS]   ('kemet COMMAND --help' for each)\n"
    "A RULESET is an id ('kemet rules'), id:key=value,... or a ruleset file\n"
    "(FILE.rules[:key=value,...], or --rules FILE and its id;\n"
    "docs/rulesets.md).\n"
    "\n"
    "  play [RULESET]             play a game in the terminal\n"
    "  rules [RULESET]            list the rulesets, or explain one\n"
    "  start RULESET              print the starting position\n"
    "  moves 'POSITION' THROW     list the legal moves\n"
    "  apply 'POSITION' THROW MOVE  print the position after a move\n"
    "  sim RULESET --games N      self-play statistics\n"
    "  match RULESET --p1 A --p2 B --games N  agent against agent\n"
    "  hint 'POSITION' THROW      every legal move ranked by win chance\n"
    "  ladder [RULESET...]        the agents' strength "
    "(docs/agent-ladder.md);\n"
    "                             --levels: the play levels (docs/ladder.md)\n"
    "  analyze RULESET...         which ruleset makes the better game\n"
    "  bench                      random playout speed\n"
    "  perft RULESET DEPTH        count the game tree (golden counts)\n"
    "  soak [--plies N]           long self-check of the rules engine\n"
    "  replay FILE                check and replay a game record\n"
    "  review FILE                grade every move of a recorded game\n"
    "  engine                     the engine protocol on stdin/stdout\n"
    "  serve [--port P] [--db F]  play in the browser "
    "(http://127.0.0.1:8080/)\n"
    "  tune [RULESET...]          fit the evaluation weights by self-play\n"
    "  solve RULESET [--pieces N] exact endgame tables\n"
    "  judge RULESET [--agent A]  an agent measured against a table\n"
    "  train RULESET [--games N]  the learned evaluation by self-play\n";

static const char rules_usage[] =
    "usage: kemet rules [RULESET | FILE.rules] [--board FILE] [--rules FILE]\n"
    "                   [--changes | --change N]\n"
    "Without RULESET lists the rulesets; with it prints its rules in plain\n"
    "words with their source, and the board. FILE.rules (or --rules FILE)\n"
    "checks a ruleset file (docs/rulesets.md) and shows it. --board FILE\n"
    "checks a board file (docs/boards.md) for RULESET and shows it.\n"
    "Every command that names a ruleset takes --rules FILE, and then the\n"
    "file's id (or FILE.rules itself) where the ruleset is named.\n"
    "--changes lists the readings with one rule of RULESET changed (its\n"
    "options' other values, its parts' other forms; docs/rulesets.md);\n"
    "--change N prints the ruleset file of the Nth, to save and play.\n";

/* kemet rules RULESET --changes | --change N. */
static int rule_changes(const char *spec, const char *board, long which) {
    kemet_rules *r = cli_rules(spec, board);
    if (!r)
        return EXIT_BAD;
    kemet_change c[KEMET_MAX_CHANGES];
    kemet_error e;
    int refused = 0;
    int n = kemet_rule_changes(r, c, KEMET_MAX_CHANGES, &refused, &e);
    if (n < 0) {
        kemet_rules_close(r);
        return cli_fail("rules: %s", e.msg);
    }
    if (which > n) {
        kemet_rules_close(r);
        return cli_fail("rules: %s has %d rule changes, not %ld", spec, n,
                        which);
    }
    if (which) {
        char *text;
        if (kemet_change_text(r, &c[which - 1], &text, &e)) {
            kemet_rules_close(r);
            return cli_fail("rules: %s", e.msg);
        }
        fputs(text, stdout);
        kemet_free(text);
        kemet_rules_close(r);
        return 0;
    }
    printf("%s with one rule changed: %d readings", kemet_rules_info(r)->title,
           n);
    if (refused)
        printf(" (%d other forms do not work with its other parts)", refused);
    printf("\n");
    for (int i = 0; i < n; i++)
        printf("%3d  %-40s %s\n", i + 1, c[i].from[0] ? c[i].from : "(none)",
               c[i].to[0] ? c[i].to : "(none)");
    printf("'kemet rules %s --change N' prints the ruleset file of one.\n",
           spec);
    kemet_rules_close(r);
    return 0;
}

static int cmd_rules(int argc, char **argv) {
    const char *arg[1], *board = NULL;
    bool changes = false;
    long change = 0;
    cli_opt opts[] = {{"board", OPT_STRING, &board, 0, 0},
                      {"changes", OPT_FLAG, &changes, 0, 0},
                      {"change", OPT_LONG, &change, 1, KEMET_MAX_CHANGES},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int n, rc = cli_parse(argc, argv, opts, arg, 0, 1, &n, rules_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (n == 0 && board)
        return cli_fail("rules: --board needs a RULESET (the board file is "
                        "checked against it)");
    if (n == 0 && (changes || change))
        return cli_fail("rules: --changes and --change need a RULESET");
    if (changes && change)
        return cli_fail("rules: --changes or --change N, not both");
    if (changes || change)
        return rule_changes(arg[0], board, change);
    if (n == 0) {
        int total = kemet_ruleset_count() + cli_rules_count();
        for (int i = 0; i < total; i++) {
            kemet_rules *r =
                cli_rules(i < kemet_ruleset_count()
                              ? kemet_ruleset_id(i)
                              : cli_rules_path_at(i - kemet_ruleset_count()),
                          NULL);
            if (!r)
                return EXIT_BAD;
            const kemet_info *info = kemet_rules_info(r);
            char line[400];
            printf("%-30s %s\n", info->id, info->title);
            cli_rules_byline(info, line, sizeof line);
            cli_wrap(stdout, line, cli_text_width(stdout) - 4, 4);
            kemet_rules_close(r);
        }
        return 0;
    }
    kemet_rules *r = cli_rules(arg[0], board);
    if (!r)
        return EXIT_BAD;
    const kemet_info *info = kemet_rules_info(r);
    char line[400];
    cli_rules_byline(info, line, sizeof line);
    printf("%s (%s)\n", info->title, kemet_rules_spec(r));
    cli_wrap(stdout, line, cli_text_width(stdout), 0);
    printf("Source: %s\n", info->source);
    printf("Kind of source: %s\n", info->source_kind);
    for (const char *l = info->reference; l && *l;) {
        size_t len = strcspn(l, "\n");
        char ref[1100];
        snprintf(ref, sizeof ref, "Reference: %.*s",
                 (int)(len > 1000 ? 1000 : len), l);
        cli_wrap(stdout, ref, cli_text_width(stdout), 2);
        l += len + (l[len] == '\n');
    }
    if (kemet_rules_sha256(r)) {
        const char *path = cli_rules_path();
        for (int i = 0; i < cli_rules_count(); i++)
            if (cli_rules_text_at(i) == cli_rules_text_for(info->id))
                path = cli_rules_path_at(i);
        printf("Ruleset file: %s (SHA-256 %s)\n", path, kemet_rules_sha256(r));
    }
    printf("\n%s", info->text);
    if (info->board_note)
        printf("\nThe board: %s.\n", info->board_note);
    /* the computer's levels, each an agent (docs/agents.md: "~P" plays a
       share P of its moves at random) */
    size_t at = (size_t)snprintf(line, sizeof line,
                                 "\nThe computer's levels (kemet play --level "
                                 "N; docs/ladder.md):");
    for (int l = 1; l <= KEMET_LEVELS && at < sizeof line; l++)
        at += (size_t)snprintf(line + at, sizeof line - at, " %d %s = %s%s", l,
                               kemet_level_about(l),
                               kemet_rules_level_agent(r, l),
                               l < KEMET_LEVELS ? "," : ".");
    cli_wrap(stdout, line, cli_text_width(stdout), 0);
    kemet_pos start;
    kemet_start(r, &start);
    putchar('\n');
    cli_board(r, &start, 0, stdout);
    kemet_rules_close(r);
    return 0;
}

#ifndef KEMET_SERVER
/* This program was configured with -DKEMET_SERVER=OFF. */
int cmd_serve(int argc, char **argv) {
    (void)argc;
    (void)argv;
    return cli_fail("serve: this kemet was built without the server "
                    "(configure with -DKEMET_SERVER=ON; it needs "
                    "libmicrohttpd, SQLite and Jansson)");
}
#endif

int main(int argc, char **argv) {
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } cmds[] = {{"play", cmd_play},       {"rules", cmd_rules},
                {"start", cmd_start},     {"moves", cmd_moves},
                {"apply", cmd_apply},     {"sim", cmd_sim},
                {"bench", cmd_bench},     {"replay", cmd_replay},
                {"tune", cmd_tune},       {"match", cmd_match},
                {"hint", cmd_hint},       {"ladder", cmd_ladder},
                {"analyze", cmd_analyze}, {"serve", cmd_serve},
                {"solve", cmd_solve},     {"judge", cmd_judge},
                {"train", cmd_train},     {"perft", cmd_perft},
                {"soak", cmd_soak},       {"review", cmd_review},
                {"engine", cmd_engine}};
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_BAD;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        puts("kemet " KEMET_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0) {
            /* under mpirun (docs/cluster.md): the runs of games of match,
               ladder, sim, analyze, tune, train and solve are shared
               among the ranks; any
               other command
               runs on rank 0 alone (its files written once) */
            cli_mpi_start(&argc, &argv);
            bool dealt = strcmp(cmds[i].name, "match") == 0 ||
                         strcmp(cmds[i].name, "ladder") == 0 ||
                         strcmp(cmds[i].name, "sim") == 0 ||
                         strcmp(cmds[i].name, "analyze") == 0 ||
                         strcmp(cmds[i].name, "tune") == 0 ||
                         strcmp(cmds[i].name, "train") == 0 ||
                         strcmp(cmds[i].name, "solve") == 0;
            int rc = 0;
            if (dealt || cli_mpi_alone(cmds[i].name))
                rc = cmds[i].run(argc - 1, argv + 1);
            cli_mpi_end();
            return rc;
        }
    return cli_fail("unknown command '%.40s' (see 'kemet --help')", argv[1]);
}
