/* engine.c - `kemet engine`: the engine protocol for other front ends, in
 * the manner of UCI: one command a line on standard input, one answer a
 * line on standard output (docs/engine.md).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char engine_usage[] =
    "usage: kemet engine [--agent A] [--rules FILE]\n"
    "Speaks the engine protocol on standard input and output, one command\n"
    "and one answer a line (docs/engine.md): hello, rulesets, new RULESET,\n"
    "position POS, throw THROW, moves, apply MOVE, go [BUDGET], hint,\n"
    "agent SPEC, show, quit. Every answer is one line; a bad command gets\n"
    "'error ...' and the engine goes on. --agent sets the agent (default\n"
    "best).\n"
    "--rules FILE offers a ruleset file's ruleset too (docs/rulesets.md):\n"
    "'rulesets' lists its id, 'new ID' starts it. --rules again for each\n"
    "further file.\n" TABLES_HELP;

typedef struct engine {
    kemet_rules *rules;
    kemet_judge *judge; /* the agents' (cli_judge) */
    kemet_pos pos;
    kemet_throw thr; /* n == 0: none pending */
    char agent_spec[64];
    kemet_agent *agent;
    kemet_move *moves;
    kemet_error err;
} engine;

/* The agent for the current rules and spec (made on first need); with a
 * budget, a new agent of the same kind with that budget (the caller
 * frees it), the spec's "@linear", "@plain" or "@base" kept after the budget.
 */
static kemet_agent *agent_of(engine *E, const char *budget) {
    char spec[sizeof E->agent_spec + 4200];
    if (budget && *budget) {
        size_t k = strcspn(E->agent_spec, ":@");
        const char *judge = strchr(E->agent_spec, '@');
        snprintf(spec, sizeof spec, "%.*s:%s%s", (int)k, E->agent_spec, budget,
                 judge ? judge : "");
        kemet_agent *a;
        if (kemet_agent_new_judged(E->judge, spec, 1, &a, &E->err) == 0)
            return a;
        /* a budget no agent takes is named as such, not as "greedy takes
           no budget" */
        snprintf(spec, sizeof spec, "expectimax:%s", budget);
        kemet_error probe;
        if (kemet_agent_new_judged(E->judge, spec, 1, &a, &probe) == 0)
            kemet_agent_free(a);
        else
            snprintf(E->err.msg, sizeof E->err.msg,
                     "bad budget '%.40s' (a node count like 20000 or 20k, a "
                     "time like 500ms or 2s, or plies like d3)",
                     budget);
        return NULL;
    }
    if (!E->agent &&
        kemet_agent_new_judged(E->judge, E->agent_spec, 1, &E->agent, &E->err))
        return NULL;
    return E->agent;
}

static void set_rules(engine *E, kemet_rules *r) {
    kemet_agent_free(E->agent);
    E->agent = NULL;
    kemet_judge_free(E->judge);
    kemet_rules_close(E->rules);
    E->rules = r;
    E->judge = cli_judge(r);
    E->thr.n = 0;
}

/* Values still to play (Tab's left=) are the pending throw at once, as
 * the game driver has them (kemet_game_throw): no throw is made for
 * them. Else nothing is pending. */
static void keep_values(engine *E) {
    E->thr.n = 0;
    if (kemet_throw_kept(E->rules, &E->pos) == 1) {
        kemet_rng unused; /* (no stick is thrown for kept values) */
        kemet_rng_seed(&unused, 0);
        kemet_roll(E->rules, &E->pos, &unused, &E->thr);
    }
}

static void say_position(const engine *E) {
    char line[512];
    kemet_pos_format(E->rules, &E->pos, line, sizeof line);
    printf("position %s\n", line);
}

/* The list of moves for the pending throw, or the pre-throw moves. */
static int list_moves(engine *E) {
    return E->thr.n ? kemet_moves(E->rules, &E->pos, &E->thr, E->moves)
                    : kemet_prethrow(E->rules, &E->pos, E->moves);
}

static void go(engine *E, const char *budget, bool ranked) {
    if (E->pos.result != KEMET_PLAYING) {
        printf("error the game is over\n");
        return;
    }
    int n = list_moves(E);
    if (n < 0) {
        printf("error %s\n", kemet_strerror(n));
        return;
    }
    kemet_agent *a = agent_of(E, budget);
    if (!a) {
        printf("error %s\n", E->err.msg);
        return;
    }
    double *chance = malloc((size_t)(n + 1) * sizeof *chance), throw_chance = 0;
    if (!chance) {
        printf("error out of memory\n");
        if (a != E->agent)
            kemet_agent_free(a);
        return;
    }
    const kemet_throw *t = E->thr.n ? &E->thr : NULL;
    int k = n || !t ? kemet_agent_rank(a, &E->pos, t, E->moves, n, chance,
                                       &throw_chance)
                    : -1;
    char m[160];
    if (!ranked) {
        if (k < 0)
            printf("bestmove throw chance %.4f\n", throw_chance);
        else {
            kemet_move_format(&E->moves[k], m, sizeof m);
            printf("bestmove %s chance %.4f\n", m, chance[k]);
        }
    } else {
        /* best first; before the throw, throwing among them */
        int total = n + (t ? 0 : 1);
        int *order = malloc((size_t)total * sizeof *order);
        double *value = malloc((size_t)total * sizeof *value);
        if (order && value) {
            for (int i = 0; i < total; i++) {
                order[i] = i < n ? i : -1;
                value[i] = i < n ? chance[i] : throw_chance;
            }
            for (int i = 1; i < total; i++) /* insertion: a stable order */
                for (int j = i; j > 0 && value[j] > value[j - 1]; j--) {
                    double v = value[j];
                    value[j] = value[j - 1];
                    value[j - 1] = v;
                    int o = order[j];
                    order[j] = order[j - 1];
                    order[j - 1] = o;
                }
            printf("hint");
            for (int i = 0; i < total; i++) {
                if (order[i] < 0)
                    snprintf(m, sizeof m, "throw");
                else
                    kemet_move_format(&E->moves[order[i]], m, sizeof m);
                printf(" %s %.4f", m, value[i]);
            }
            printf("\n");
        } else
            printf("error out of memory\n");
        free(order);
        free(value);
    }
    free(chance);
    if (a != E->agent)
        kemet_agent_free(a);
}

/* The commands with what follows each: nothing, an argument it needs
 * (named for the error), or one it may take. */
enum { ARG_NONE, ARG_NEEDED, ARG_OPTIONAL };
static const struct {
    const char *name;
    int arg;
    const char *what;
} engine_commands[] = {
    {"hello", ARG_NONE, ""},
    {"rulesets", ARG_NONE, ""},
    {"new", ARG_NEEDED, "a ruleset"},
    {"position", ARG_NEEDED, "a position (docs/notation.md)"},
    {"throw", ARG_NEEDED, "a throw (3, 2,3,4,3@1, or none)"},
    {"moves", ARG_NONE, ""},
    {"apply", ARG_NEEDED, "a move (FROM-TO, FROM-END-TO, or pass)"},
    {"go", ARG_OPTIONAL, ""},
    {"hint", ARG_OPTIONAL, ""},
    {"agent", ARG_NEEDED,
     "an agent (random, greedy, expectimax, mcts, best; NAME:BUDGET)"},
    {"show", ARG_NONE, ""},
    {"quit", ARG_NONE, ""}};
#define NCOMMANDS (sizeof engine_commands / sizeof *engine_commands)
#define COMMAND_LIST                                                           \
    "(hello, rulesets, new, position, throw, moves, apply, go, hint, agent, "  \
    "show, quit)"

/* "error new needs a ruleset: senet-kendall, senet-robinson, ..." */
static void say_rulesets_needed(void) {
    printf("error new needs a ruleset:");
    for (int i = 0; i < kemet_ruleset_count(); i++)
        printf("%s %s", i ? "," : "", kemet_ruleset_id(i));
    printf("\n");
}

/* Refuses a throw the ruleset may throw but not in this position (a
 * value only the other player may use): one that would leave every later
 * moves, go and hint answering "impossible throw". */
static bool throw_possible_here(engine *E, const kemet_throw *t,
                                const char *text) {
    if (t->n == 0 ||
        kemet_moves(E->rules, &E->pos, t, E->moves) != KEMET_ETHROW)
        return true;
    /* kemet moves' words (conform.c) */
    if (kemet_throw_kept(E->rules, &E->pos) == 1)
        printf("error no new throw here: this turn's values are still to "
               "play (the throw is none)\n");
    else
        printf("error impossible throw '%.40s' here: player %d is to throw "
               "(a value V@P is player P's only)\n",
               text, E->pos.to);
    return false;
}

/* One command; false on quit. `line` has no leading or trailing blanks
 * and is not empty. */
static bool command(engine *E, char *line) {
    char *cmd = line, *arg = line + strcspn(line, " \t");
    if (*arg) {
        *arg++ = '\0';
        arg += strspn(arg, " \t");
    }
    size_t c = 0;
    while (c < NCOMMANDS && strcmp(cmd, engine_commands[c].name) != 0)
        c++;
    if (c == NCOMMANDS) {
        printf("error unknown command '%.40s' " COMMAND_LIST "\n", cmd);
        return true;
    }
    if (engine_commands[c].arg == ARG_NONE && *arg) {
        printf("error %s takes no argument, not '%.40s'\n", cmd, arg);
        return true;
    }
    if (engine_commands[c].arg == ARG_NEEDED && !*arg) {
        if (strcmp(cmd, "new") == 0)
            say_rulesets_needed();
        else
            printf("error %s needs %s\n", cmd, engine_commands[c].what);
        return true;
    }
    if (strcmp(cmd, "quit") == 0) {
        printf("bye\n");
        return false;
    }
    if (strcmp(cmd, "hello") == 0) {
        printf("hello kemet %s engine 1\n", kemet_version());
        return true;
    }
    if (strcmp(cmd, "rulesets") == 0) {
        printf("rulesets");
        for (int i = 0; i < kemet_ruleset_count(); i++)
            printf(" %s", kemet_ruleset_id(i));
        for (int i = 0; i < cli_rules_count(); i++) { /* the --rules files */
            kemet_rules *u;
            if (kemet_rules_open_text(cli_rules_text_at(i), NULL, NULL, &u,
                                      &E->err) == 0) {
                printf(" %s", kemet_rules_info(u)->id);
                kemet_rules_close(u);
            }
        }
        printf("\n");
        return true;
    }
    if (strcmp(cmd, "new") == 0) {
        kemet_rules *r;
        const char *text = cli_rules_text_for(arg);
        if (text ? kemet_rules_open_text(text, arg, NULL, &r, &E->err)
                 : kemet_rules_open(arg, &r, &E->err)) {
            printf("error %s\n", E->err.msg);
            return true;
        }
        set_rules(E, r);
        kemet_start(r, &E->pos);
        say_position(E);
        return true;
    }
    if (strcmp(cmd, "position") == 0) {
        kemet_rules *r;
        kemet_pos p;
        if (cli_pos_parse(arg, NULL, &r, &p, &E->err)) {
            printf("error %s\n", E->err.msg);
            return true;
        }
        if (E->rules &&
            strcmp(kemet_rules_spec(r), kemet_rules_spec(E->rules)) == 0) {
            kemet_rules_close(r);
            E->thr.n = 0;
        } else
            set_rules(E, r);
        E->pos = p;
        keep_values(E);
        say_position(E);
        return true;
    }
    if (strcmp(cmd, "agent") == 0) {
        kemet_agent *a;
        if (!E->rules) {
            printf("error no position yet (new RULESET or position POS)\n");
            return true;
        }
        if (strlen(arg) >= sizeof E->agent_spec) {
            printf("error the agent '%.40s...' is over %zu characters\n", arg,
                   sizeof E->agent_spec - 1);
            return true;
        }
        if (kemet_agent_new_judged(E->judge, arg, 1, &a, &E->err)) {
            printf("error %s\n", E->err.msg);
            return true;
        }
        kemet_agent_free(E->agent);
        E->agent = a;
        snprintf(E->agent_spec, sizeof E->agent_spec, "%s", arg);
        printf("agent %s\n", kemet_agent_spec(a));
        return true;
    }
    if (!E->rules) {
        printf("error no position yet (new RULESET or position POS)\n");
        return true;
    }
    if (strcmp(cmd, "show") == 0) {
        char t[64] = "none";
        if (E->thr.n)
            kemet_throw_format(&E->thr, t, sizeof t);
        char line2[512];
        kemet_pos_format(E->rules, &E->pos, line2, sizeof line2);
        printf("position %s throw %s\n", line2, t);
        return true;
    }
    if (strcmp(cmd, "throw") == 0) {
        kemet_throw t;
        if (E->pos.result != KEMET_PLAYING)
            printf("error the game is over\n");
        else if (kemet_throw_parse(E->rules, arg, &t, &E->err))
            printf("error %s\n", E->err.msg);
        else if (throw_possible_here(E, &t, arg)) {
            E->thr = t;
            if (t.n == 0) /* `none`: the values still to play, if any */
                keep_values(E);
            char text[64] = "none";
            if (t.n)
                kemet_throw_format(&t, text, sizeof text);
            printf("throw %s\n", text);
        }
        return true;
    }
    if (strcmp(cmd, "moves") == 0) {
        int n = list_moves(E);
        if (n < 0) {
            printf("error %s\n", kemet_strerror(n));
            return true;
        }
        printf("moves");
        for (int i = 0; i < n; i++) {
            char m[160];
            kemet_move_format(&E->moves[i], m, sizeof m);
            printf(" %s", m);
        }
        printf("\n");
        return true;
    }
    if (strcmp(cmd, "apply") == 0) {
        kemet_move m;
        kemet_pos next;
        char why[256];
        if (kemet_move_parse(E->rules, arg, &m, &E->err))
            printf("error %s\n", E->err.msg);
        else if (kemet_apply(E->rules, &E->pos, E->thr.n ? &E->thr : NULL, &m,
                             &next, NULL)) {
            if (kemet_explain(E->rules, &E->pos, E->thr.n ? &E->thr : NULL, &m,
                              why, sizeof why) == 0)
                snprintf(why, sizeof why, "not a legal move here");
            printf("error %s: %s\n", arg, why);
        } else {
            E->pos = next;
            keep_values(E);
            say_position(E);
        }
        return true;
    }
    if (strcmp(cmd, "go") == 0 || strcmp(cmd, "hint") == 0) {
        go(E, arg, cmd[0] == 'h');
        return true;
    }
    return true; /* not reached: every known command is answered above */
}

int cmd_engine(int argc, char **argv) {
    const char *agent = "best";
    cli_opt opts[] = {{"agent", OPT_STRING, &agent, 0, 0},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int npos, rc = cli_parse(argc, argv, opts, NULL, 0, 0, &npos, engine_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    engine E = {0};
    if (strlen(agent) >= sizeof E.agent_spec)
        return cli_fail("--agent: '%.40s...' is over %zu characters", agent,
                        sizeof E.agent_spec - 1);
    snprintf(E.agent_spec, sizeof E.agent_spec, "%s", agent);
    /* the agent is checked at once, on the first ruleset */
    kemet_rules *probe;
    kemet_agent *a;
    if (kemet_rules_open(kemet_ruleset_id(0), &probe, &E.err) == 0) {
        rc = kemet_agent_new(probe, agent, 1, &a, &E.err);
        kemet_agent_free(a);
        kemet_rules_close(probe);
        if (rc)
            return cli_fail("--agent: %s", E.err.msg);
    }
    E.moves = malloc(KEMET_MAX_MOVES * sizeof *E.moves);
    if (!E.moves)
        return cli_fail("out of memory");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
                           line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        if (memchr(line, '\0', (size_t)len)) {
            printf("error a NUL byte in the line\n");
            continue;
        }
        if (len > 4096) {
            printf("error the line is over 4096 bytes\n");
            continue;
        }
        size_t lead = strspn(line, " \t");
        if (lead == (size_t)len) {
            /* one answer a line, an empty one (or one of blanks) too: a
               front end waiting for it would hang */
            printf("error an empty line " COMMAND_LIST "\n");
            continue;
        }
        if (!command(&E, line + lead))
            break;
    }
    free(line);
    free(E.moves);
    kemet_agent_free(E.agent);
    kemet_judge_free(E.judge);
    kemet_rules_close(E.rules);
    return 0;
}
