/* tables.c - `kemet solve`, and the endgame tables every command finds in
 * the cache folder.
 *
 * Tables live in one folder: --tables DIR, else $KEMET_TABLES, else
 * $XDG_CACHE_HOME/kemet, else ~/.cache/kemet. "--tables off" (or
 * KEMET_TABLES=off) uses none; "on" names the cache folder. A table file is
 * named after its ruleset and class: "senet-kendall.3.kemettb". A command that
 * plays finds the largest class there is for its ruleset; a file it cannot use
 * (corrupt, of another version) is named on standard error in one line and the
 * agents search without it.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The tables this run loaded, freed at exit (after every rules object that
 * borrows them is closed). */
typedef struct loaded {
    char dir[512];
    char spec[96];
    kemet_table *table; /* NULL: looked for, none usable */
} loaded;
const char *cli_tables;
static loaded *cache;
static long ncache, capcache;

/* The race databases built this run, one per ruleset spec (NULL: none). */
typedef struct raced {
    char spec[96];
    kemet_race *race;
} raced;
static raced races[32];
static int nraces;

static void free_cache(void) {
    for (long i = 0; i < ncache; i++)
        kemet_table_free(cache[i].table);
    free(cache);
    cache = NULL;
    ncache = capcache = 0;
    for (int i = 0; i < nraces; i++)
        kemet_race_free(races[i].race);
    nraces = 0;
}

/* Puts the ruleset's race database in use, built on first need (about a
 * second), where the ruleset is a race. */
static void use_race(kemet_judge *j) {
    const kemet_rules *r = kemet_judge_rules(j);
    const char *spec = kemet_rules_key(r);
    for (int i = 0; i < nraces; i++)
        if (strcmp(races[i].spec, spec) == 0) {
            kemet_judge_use_race(j, races[i].race);
            return;
        }
    kemet_race *race = NULL;
    if (kemet_race_solve(r, &race, NULL) != KEMET_OK)
        race = NULL;
    if (nraces == (int)(sizeof races / sizeof races[0])) {
        kemet_race_free(race); /* no run opens so many rulesets */
        return;
    }
    if (ncache == 0 && nraces == 0)
        atexit(free_cache);
    snprintf(races[nraces].spec, sizeof races[nraces].spec, "%s", spec);
    races[nraces++].race = race;
    kemet_judge_use_race(j, race);
}

const char *cli_table_dir(const char *opt, char *buf, size_t len) {
    const char *e = opt ? opt : getenv("KEMET_TABLES");
    if (e && *e && strcmp(e, "on") != 0) { /* on: the cache folder */
        if (strcmp(e, "off") == 0 || strcmp(e, "race") == 0)
            return NULL;
        snprintf(buf, len, "%s", e);
        return buf;
    }
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(buf, len, "%s/kemet", xdg);
    else if (home && *home)
        snprintf(buf, len, "%s/.cache/kemet", home);
    else
        return NULL;
    return buf;
}

void cli_table_path(const char *dir, const kemet_rules *r, int pieces,
                    char *buf, size_t len) {
    char name[128];
    size_t k = 0;
    for (const char *s = kemet_rules_key(r); *s && k + 1 < sizeof name; s++)
        name[k++] =
            (*s == ':' || *s == ',' || *s == '=' || *s == '/' || *s == '@')
                ? '_'
                : *s;
    name[k] = '\0';
    snprintf(buf, len, "%s/%s.%d.kemettb", dir, name, pieces);
}

/* Makes the folder and its parents. 0, or -1 with errno. */
static int make_dirs(const char *path) {
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0777) && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

/* On first need, a ruleset with no table file at all gets its 2-piece
 * table made and saved, when that takes about a second (FIRST_NEED
 * entries at most); larger classes wait for `kemet solve`. */
#define FIRST_NEED 2000000LL

bool cli_tables_quiet = false;

static kemet_table *first_need(const kemet_rules *r, const char *dir,
                               bool own) {
    long long entries;
    if (kemet_table_class(r, 2, &entries, NULL) != KEMET_OK ||
        entries > FIRST_NEED)
        return NULL;
    kemet_table *t;
    kemet_error err;
    double t0 = cli_now();
    if (kemet_table_solve(r, 2, cli_threads(0), NULL, NULL, &t, &err))
        return NULL;
    char path[4200];
    cli_table_path(dir, r, 2, path, sizeof path);
    /* the cache folder is the program's own, made as needed; a folder
       named by --tables or $KEMET_TABLES is never made */
    if ((!own || make_dirs(dir) == 0) &&
        kemet_table_save(t, path, &err) == KEMET_OK) {
        if (!cli_tables_quiet)
            fprintf(stderr,
                    "kemet: made the endgame table of %s, 2 pieces a side, in "
                    "%.1f s: %s ('kemet solve' makes larger ones)\n",
                    kemet_rules_spec(r), cli_now() - t0, path);
    } else if (!cli_tables_quiet)
        fprintf(stderr,
                "kemet: made the endgame table of %s, 2 pieces a side, for "
                "this run only: cannot save it in %s\n",
                kemet_rules_spec(r), dir);
    return t;
}

int cli_use_tables(kemet_judge *j, const char *opt) {
    char dirbuf[4096];
    const kemet_rules *r = kemet_judge_rules(j);
    const char *e = opt ? opt : getenv("KEMET_TABLES");
    if (e && strcmp(e, "race") == 0) {
        use_race(j); /* the race databases alone, no tables */
        return 0;
    }
    const char *dir = cli_table_dir(opt, dirbuf, sizeof dirbuf);
    if (!dir)
        return 0;
    use_race(j);
    const char *spec = kemet_rules_key(r);
    for (long i = 0; i < ncache; i++)
        if (strcmp(cache[i].spec, spec) == 0 && strcmp(cache[i].dir, dir) == 0)
            return cache[i].table ? kemet_judge_use_table(j, cache[i].table),
                   1              : 0;
    kemet_table *found = NULL;
    bool any = false;
    for (int n = 7; n >= 1 && !found; n--) {
        char path[4200];
        struct stat st;
        cli_table_path(dir, r, n, path, sizeof path);
        if (stat(path, &st) != 0)
            continue; /* (the class is laid out only for a file there is) */
        any = true;
        kemet_error err;
        if (kemet_table_load(r, path, &found, &err) != KEMET_OK) {
            fprintf(stderr,
                    "kemet: endgame table not used (the agents search "
                    "instead): %s\n",
                    err.msg);
            found = NULL;
        }
    }
    if (!any) /* the folder named, or else the cache folder */
        found = first_need(r, dir, !(e && *e && strcmp(e, "on") != 0));
    if (ncache == capcache) {
        if (kc_grow(&cache, &capcache, ncache, sizeof *cache)) {
            kemet_table_free(found);
            return 0;
        }
        if (ncache == 0 && nraces == 0)
            atexit(free_cache);
    }
    snprintf(cache[ncache].spec, sizeof cache[ncache].spec, "%s", spec);
    snprintf(cache[ncache].dir, sizeof cache[ncache].dir, "%s", dir);
    cache[ncache++].table = found;
    if (found)
        kemet_judge_use_table(j, found);
    return found != NULL;
}

/* ---------------------------------------------------------------------------
 * kemet solve
 * ------------------------------------------------------------------------ */

/* solve's default class: 3 pieces a side unless that has more entries
 * than this (dogs-jackals-extended's has 1.3e9). */
#define DEFAULT_MAX_ENTRIES 100000000LL

/* The values' exchange of a solve shared among the ranks (mpi.c). */
static int solve_join(void *ctx, const void *mine, void *all, size_t size,
                      const long *counts) {
    (void)ctx;
    return cli_mpi_join_known(mine, all, size, counts);
}

static const char solve_usage[] =
    "usage: kemet solve RULESET [--pieces N] [--threads T] [--tables DIR]\n"
    "                   [--output FILE] [--rules FILE]\n"
    "Computes the exact endgame table of RULESET: for every position in which\n"
    "each side has at most N pieces left in play (default 3, or 2 where the\n"
    "3-piece class has over 10^8 entries: dogs-jackals-extended), the\n"
    "chance that the player to move wins with best play by both. The table\n"
    "is written to the tables folder (--tables DIR, else $KEMET_TABLES, else\n"
    "$XDG_CACHE_HOME/kemet or ~/.cache/kemet), where every command that\n"
    "plays finds it, or to FILE. The table is the same for any thread count\n"
    "(default: every core). docs/tables.md has the format.\n" RULES_HELP;

typedef struct solve_progress {
    double t0, last;
    const char *what;
    int shown; /* the width of the progress line on the screen */
} solve_progress;

/* On a terminal only, and wiped at the end (solve_progress_end): the
 * last phase's figure ("values 3.7%") is not left standing. */
static void show_progress(void *ctx, const char *what, double done) {
    solve_progress *p = ctx;
    double now = cli_now();
    if (now - p->last < 1 && what == p->what)
        return;
    p->last = now;
    p->what = what;
    int k = fprintf(stderr, "\r  solving: %-9s %5.1f%%  %6.0f s", what,
                    100 * done, now - p->t0);
    if (k - 1 > p->shown)
        p->shown = k - 1;
    fflush(stderr);
}

static void solve_progress_end(solve_progress *p) {
    if (p->shown)
        fprintf(stderr, "\r%*s\r", p->shown, "");
}

int cmd_solve(int argc, char **argv) {
    const char *arg[1], *dir_opt = NULL, *output = NULL;
    long pieces = 0, threads = 0;
    cli_opt opts[] = {{"pieces", OPT_LONG, &pieces, 1, 7},
                      {"threads", OPT_LONG, &threads, 1, 64},
                      {"tables", OPT_STRING, &dir_opt, 0, 0},
                      {"output", OPT_STRING, &output, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int n, rc = cli_parse(argc, argv, opts, arg, 1, 1, &n, solve_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    kemet_rules *r = cli_rules(arg[0], NULL);
    if (!r)
        return EXIT_BAD;
    kemet_error err;
    long long entries;
    if (pieces == 0) /* the largest class up to 3 that solves in minutes */
        pieces = kemet_table_class(r, 3, &entries, NULL) == KEMET_OK &&
                         entries <= DEFAULT_MAX_ENTRIES
                     ? 3
                     : 2;
    if (kemet_table_class(r, (int)pieces, &entries, &err) != KEMET_OK) {
        kemet_rules_close(r);
        return cli_fail("solve: %s", err.msg);
    }
    char dirbuf[4096], path[4200];
    if (output) {
        snprintf(path, sizeof path, "%s", output);
    } else {
        const char *dir = cli_table_dir(dir_opt, dirbuf, sizeof dirbuf);
        if (!dir) {
            kemet_rules_close(r);
            return cli_fail("solve: no tables folder (tables are off, or "
                            "HOME is not set): give --output FILE");
        }
        if (make_dirs(dir)) {
            kemet_rules_close(r);
            return cli_fail("solve: cannot make the folder %s: %s", dir,
                            strerror(errno));
        }
        cli_table_path(dir, r, (int)pieces, path, sizeof path);
    }
    /* Fail on an unwritable destination before the work, not after (under
       mpirun rank 0 alone writes, and all stop if it cannot). */
    int rank = cli_mpi_rank(), size = cli_mpi_size();
    char probe_path[4300];
    snprintf(probe_path, sizeof probe_path, "%s.probe", path);
    int writable = 1, why = 0;
    if (rank == 0) {
        FILE *probe = fopen(probe_path, "wb");
        writable = probe != NULL;
        why = errno;
        if (probe) {
            fclose(probe);
            remove(probe_path);
        }
    }
    int said = writable; /* rank 0's word, given to all */
    if (size > 1 && cli_mpi_join(&said, rank == 0, sizeof said, &writable, 1))
        writable = 0;
    if (!writable) {
        kemet_rules_close(r);
        return rank == 0
                   ? cli_fail("solve: cannot write %s: %s", path, strerror(why))
                   : EXIT_BAD;
    }
    int nthreads = cli_threads(threads);
    if (rank == 0)
        fprintf(stderr,
                "solving %s, %ld pieces a side: %lld entries, %d "
                "thread%s%s\n",
                kemet_rules_spec(r), pieces, entries, nthreads,
                nthreads == 1 ? "" : "s",
                size > 1 ? " a rank, the values shared among the ranks" : "");
    solve_progress prog = {cli_now(), 0, NULL, 0};
    kemet_table *t;
    /* under mpirun: each rank makes its share of every level's values in
       each sweep, and all exchange them (docs/cluster.md) */
    kemet_table_parts parts = {size, rank, solve_join, NULL};
    rc = kemet_table_solve_parts(r, (int)pieces, nthreads, &parts,
                                 rank == 0 && isatty(2) ? show_progress : NULL,
                                 &prog, &t, &err);
    solve_progress_end(&prog);
    if (rc == KEMET_OK && rank == 0)
        rc = kemet_table_save(t, path, &err);
    else if (rc != KEMET_OK)
        t = NULL;
    if (rc != KEMET_OK) {
        kemet_table_free(t);
        kemet_rules_close(r);
        return cli_fail("solve: %s", err.msg);
    }
    kemet_table_info info;
    kemet_table_stats(t, &info);
    char ranks[64] = "";
    if (size > 1)
        snprintf(ranks, sizeof ranks, " a rank, %d ranks", size);
    printf("%s\n  %s, %d pieces a side: %lld positions (%lld entries)\n"
           "  %d sweeps, last change %.1e (tolerance %.0e); %.1f s on %d "
           "thread%s%s\n  file %.1f MB\n",
           path, kemet_rules_spec(r), info.pieces, info.positions, info.entries,
           info.sweeps, info.residual, info.tolerance, cli_now() - prog.t0,
           nthreads, nthreads == 1 ? "" : "s", ranks, (double)info.bytes / 1e6);
    kemet_table_free(t);
    kemet_rules_close(r);
    return 0;
}

/* ---------------------------------------------------------------------------
 * kemet judge: an agent's choices and chances against a table's exact
 * values.
 * ------------------------------------------------------------------------ */

static const char judge_usage[] =
    "usage: kemet judge RULESET [--agent A] [--positions N] [--seed S]\n"
    "                   [--table FILE] [--tables DIR|on|off] [--threads T] "
    "[--json]\n"
    "                   [--rules FILE]\n"
    "Measures agent A (default best) against the exact endgame table of\n"
    "RULESET (--table FILE, else the largest in the tables folder, used\n"
    "for reference even with --tables off): N\n"
    "positions (default 1000) drawn uniformly from the table's class, each\n"
    "with a throw that leaves a real choice (two moves or more), drawn from\n"
    "seed S. For each, the agent ranks the moves; the report gives how often\n"
    "its choice is exact-optimal, the win chance it loses (mean, largest,\n"
    "share above 0.05: blunders), and how far its chances are from the exact\n"
    "ones. By default the reference is the largest table in the tables\n"
    "folder and the agent plays without tables (with the race databases),\n"
    "since a table judged against itself is exact by construction; with\n"
    "--table FILE it uses the tables folder as every command does.\n"
    "--tables DIR|on|off|race chooses the agent's tables (and the folder of\n"
    "the reference): --tables on judges the table against itself.\n"
    "--rollout G [--policy P]: instead of a table, judge the agent's chance\n"
    "of winning in N midgame positions (from greedy self-play, a ply drawn\n"
    "from the middle half of each game) against rollouts of G games each\n"
    "played by P (default greedy; kemet hint --rollout): the mean and largest\n"
    "difference, and the mean signed one (the agent's bias); --json lists\n"
    "every position with both chances as well.\n" RULES_HELP TABLES_HELP
        NET_HELP;

typedef struct judge_item {
    double loss, err, secs;
    int optimal;
    kemet_pos pos; /* the position and throw judged */
    kemet_throw thr;
    kemet_move got, top;  /* the agent's move; the exact-best one */
    double exact, margin; /* the exact chance after `got`; best minus the
                             second best (how close the call was) */
} judge_item;

typedef struct judge_ctx {
    const kemet_judge *agent_judge;
    const kemet_rules *ref_rules;
    const kemet_table *ref;
    const char *agent;
    uint64_t seed;
    long long entries;
    judge_item *out;
} judge_ctx;

/* The mover's exact chance after `m`. */
static double exact_after(const judge_ctx *J, const kemet_pos *pos,
                          const kemet_throw *thr, const kemet_move *m) {
    kemet_pos c;
    kemet_make(J->ref_rules, pos, thr, m, &c, NULL);
    if (c.result != KEMET_PLAYING)
        return c.result == KEMET_DRAW ? 0.5 : c.result == pos->to ? 1 : 0;
    double v = 0.5;
    kemet_table_probe(J->ref, &c, &v);
    return c.to == pos->to ? v : 1 - v;
}

static int judge_one(void *ctx, long i) {
    judge_ctx *J = ctx;
    kemet_rng rng;
    kemet_rng_seed(&rng, kemet_run_seed(J->seed, (uint64_t)i));
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    double *chance = malloc(KEMET_MAX_MOVES * sizeof *chance);
    int rc = EXIT_BAD;
    if (!moves || !chance)
        goto done;
    kemet_pos p;
    kemet_throw thr;
    int n = 0;
    while (n < 2) {
        long long x = (long long)(kemet_rng_next(&rng) % (uint64_t)J->entries);
        if (!kemet_table_position(J->ref, x, &p))
            continue;
        if (kemet_rng_below(&rng, 2)) { /* player 2 to move: the mirror */
            kemet_pos m = p;
            for (int s = 0; s < 2; s++) {
                m.sq[s] = p.sq[1 - s];
                m.heap[s] = p.heap[1 - s];
                m.hand[s] = p.hand[1 - s];
            }
            m.to = 2;
            p = m;
        }
        kemet_roll(J->ref_rules, &p, &rng, &thr);
        n = kemet_moves(J->ref_rules, &p, &thr, moves);
    }
    kemet_agent *a;
    kemet_error err;
    if (kemet_agent_new_judged(J->agent_judge, J->agent,
                               kemet_run_seed(J->seed, (uint64_t)i) + 1, &a,
                               &err))
        goto done;
    double t0 = cli_now();
    int k = kemet_agent_rank(a, &p, &thr, moves, n, chance, NULL);
    double secs = cli_now() - t0;
    kemet_agent_free(a);
    double best = -1, second = -1, sum = 0;
    int top = 0;
    for (int j = 0; j < n; j++) {
        double e = exact_after(J, &p, &thr, &moves[j]);
        if (e > best) {
            second = best;
            best = e;
            top = j;
        } else if (e > second) {
            second = e;
        }
        sum += fabs(chance[j] - e);
    }
    k = k < 0 ? 0 : k;
    double got = exact_after(J, &p, &thr, &moves[k]);
    J->out[i] =
        (judge_item){best - got, sum / n,    secs, best - got < 2e-5, p, thr,
                     moves[k],   moves[top], got,  best - second};
    rc = 0;
done:
    free(moves);
    free(chance);
    return rc;
}

/* One judged position for --json: the position and throw, the agent's
 * move and the exact-best one with their exact chances, the loss, the
 * margin of the best move over the next, the mean chance error. */
static void judge_json_item(const kemet_rules *r, const judge_item *it,
                            const char *sep) {
    char pos[1024] = "", thr[64] = "", got[64] = "", top[64] = "";
    kemet_pos_format(r, &it->pos, pos, sizeof pos);
    kemet_throw_format(&it->thr, thr, sizeof thr);
    kemet_move_format(&it->got, got, sizeof got);
    kemet_move_format(&it->top, top, sizeof top);
    printf("%s{\"position\":\"%s\",\"throw\":\"%s\",\"move\":\"%s\","
           "\"exact\":%.5f,\"best\":\"%s\",\"best_exact\":%.5f,"
           "\"loss\":%.5f,\"margin\":%.5f,\"optimal\":%s,\"error\":%.5f}",
           sep, pos, thr, got, it->exact, top, it->exact + it->loss, it->loss,
           it->margin, it->optimal ? "true" : "false", it->err);
}

/* The rollout mode: the agent's chance before a throw against rollouts. */
typedef struct cal_item {
    double agent, rolled, se, secs;
    kemet_pos pos;
} cal_item;

/* An item left empty: that game had no midgame (cal_one). */
static bool cal_none(const cal_item *c) {
    return c->se == 0 && c->rolled == 0 && c->agent == 0;
}

typedef struct cal_ctx {
    const kemet_judge *j;
    const char *agent, *policy;
    uint64_t seed;
    long games;
    cal_item *out;
} cal_ctx;

typedef struct ply_list {
    kemet_pos *pos;
    long n, cap;
    bool failed;
} ply_list;

static void keep_ply(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                     const kemet_move *moves, int n) {
    (void)moves;
    (void)n;
    ply_list *L = ctx;
    if (thr || L->failed)
        return;
    if (kc_grow(&L->pos, &L->cap, L->n, sizeof *L->pos)) {
        L->failed = true;
        return;
    }
    L->pos[L->n++] = *pos;
}

static int cal_one(void *ctx, long i) {
    cal_ctx *C = ctx;
    uint64_t gs = kemet_run_seed(C->seed, (uint64_t)i);
    const char *const greedy[2] = {"greedy", "greedy"};
    ply_list L = {0};
    kemet_game *g = NULL;
    int rc =
        kemet_play_seeded(C->j, greedy, gs, 1000, keep_ply, &L, NULL, &g, NULL);
    kemet_game_free(g);
    if (rc || L.failed || L.n < 4) {
        free(L.pos);
        return rc || L.failed ? EXIT_BAD : 0; /* a game too short: none */
    }
    kemet_rng rng;
    kemet_rng_seed(&rng, gs ^ 0x63616cULL);
    kemet_pos p =
        L.pos[L.n / 4 + (long)kemet_rng_below(&rng, (uint32_t)(L.n / 2))];
    free(L.pos);
    kemet_agent *a;
    kemet_error err;
    if (kemet_agent_new_judged(C->j, C->agent, gs + 1, &a, &err))
        return EXIT_BAD;
    double t0 = cli_now(), tc = 0;
    kemet_agent_rank(a, &p, NULL, NULL, 0, NULL, &tc);
    double secs = cli_now() - t0;
    kemet_agent_free(a);
    kemet_rollout ro = {(int)C->games, 0, 1, 0, gs + 2, C->policy};
    double v = 0, se = 0;
    if (kemet_rollout_run(C->j, &p, NULL, NULL, 0, &ro, &v, &se, &err))
        return EXIT_BAD;
    C->out[i] = (cal_item){tc, v, se, secs, p};
    return 0;
}

static int judge_rollouts(const kemet_judge *j, const char *agent,
                          const char *policy, long games, long positions,
                          uint64_t seed, int threads, bool json) {
    const kemet_rules *r = kemet_judge_rules(j);
    if (cli_agent_check(r, policy, "--policy"))
        return EXIT_BAD;
    cal_ctx C = {j,    agent, policy,
                 seed, games, calloc((size_t)positions, sizeof(cal_item))};
    if (!C.out)
        return cli_fail("out of memory");
    double t0 = cli_now();
    if (cli_parallel(positions, threads, cal_one, &C, "positions")) {
        free(C.out);
        return cli_fail("judge: out of memory");
    }
    double diff = 0, bias = 0, worst = 0, se = 0, secs = 0;
    long n = 0;
    for (long i = 0; i < positions; i++) {
        const cal_item *c = &C.out[i];
        if (cal_none(c))
            continue;
        double d = fabs(c->agent - c->rolled);
        diff += d;
        bias += c->agent - c->rolled;
        worst = d > worst ? d : worst;
        se += c->se;
        secs += c->secs;
        n++;
    }
    double np = n ? (double)n : 1;
    if (json) {
        printf("{\"ruleset\":\"%s\",\"agent\":\"%s\",\"rollout\":%ld,"
               "\"policy\":\"%s\",\"positions\":%ld,\"seed\":%llu,"
               "\"mean_difference\":%.4f,\"max_difference\":%.4f,"
               "\"bias\":%.4f,\"mean_se\":%.4f,\"seconds_per_move\":%.4f,"
               "\"items\":[",
               kemet_rules_spec(r), agent, games, policy, n,
               (unsigned long long)seed, diff / np, worst, bias / np, se / np,
               secs / np);
        const char *sep = "";
        for (long i = 0; i < positions; i++) {
            const cal_item *c = &C.out[i];
            char text[1024];
            if (cal_none(c) ||
                kemet_pos_format(r, &c->pos, text, sizeof text) < 0)
                continue;
            printf("%s{\"position\":\"%s\",\"agent\":%.4f,\"rollout\":%.4f,"
                   "\"se\":%.4f}",
                   sep, text, c->agent, c->rolled, c->se);
            sep = ",";
        }
        printf("]}\n");
    } else {
        printf("%s, %s against rollouts of %ld games by %s, %ld midgame "
               "positions (seed %llu)\n"
               "  chance difference     mean |agent - rollout| %.4f, largest "
               "%.4f; mean agent - rollout %+.4f\n"
               "  rollout error         mean standard error %.4f\n"
               "  time                  %.3f s per move; %.0f s in all on %d "
               "thread%s\n",
               kemet_rules_spec(r), agent, games, policy, n,
               (unsigned long long)seed, diff / np, worst, bias / np, se / np,
               secs / np, cli_now() - t0, threads, threads == 1 ? "" : "s");
    }
    free(C.out);
    return 0;
}

int cmd_judge(int argc, char **argv) {
    const char *arg[1], *agent = "best", *table_file = NULL;
    const char *policy = "greedy";
    long positions = 1000, nthreads = 0, games = 0;
    uint64_t seed = 1;
    bool json = false;
    cli_opt opts[] = {{"agent", OPT_STRING, &agent, 0, 0},
                      {"positions", OPT_LONG, &positions, 1, 10000000},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"table", OPT_STRING, &table_file, 0, 0},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {"threads", OPT_LONG, &nthreads, 1, 256},
                      {"json", OPT_FLAG, &json, 0, 0},
                      {"rollout", OPT_LONG, &games, 1, 100000000},
                      {"policy", OPT_STRING, &policy, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int n, rc = cli_parse(argc, argv, opts, arg, 1, 1, &n, judge_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (games) {
        kemet_rules *r = cli_rules(arg[0], NULL);
        if (!r)
            return EXIT_BAD;
        kemet_judge *j = cli_judge(r);
        rc = !j || cli_agent_check(r, agent, "--agent")
                 ? EXIT_BAD
                 : judge_rollouts(j, agent, policy, games, positions, seed,
                                  cli_threads(nthreads), json);
        kemet_judge_free(j);
        kemet_rules_close(r);
        return rc;
    }
    kemet_rules *ref_rules = cli_rules(arg[0], NULL);
    if (!ref_rules)
        return EXIT_BAD;
    kemet_rules *agent_rules = cli_rules(arg[0], NULL);
    kemet_judge *ref_judge = NULL, *agent_judge = NULL;
    kemet_table *own = NULL;
    kemet_error err;
    rc = EXIT_BAD;
    if (!agent_rules || cli_agent_check(agent_rules, agent, "--agent"))
        goto done;
    const kemet_table *ref = NULL;
    if (table_file) {
        if (kemet_table_load(ref_rules, table_file, &own, &err)) {
            rc = cli_fail("judge: %s", err.msg);
            goto done;
        }
        ref = own;
    } else {
        /* The reference: --tables DIR, else the default folder (even when
         * the agent plays without tables). */
        const char *dir = cli_tables && strcmp(cli_tables, "off") &&
                                  strcmp(cli_tables, "race")
                              ? cli_tables
                              : NULL;
        if (kemet_judge_new(ref_rules, NULL, &ref_judge, &err)) {
            rc = cli_fail("judge: %s", err.msg);
            goto done;
        }
        if (!cli_use_tables(ref_judge, dir)) {
            rc = cli_fail("judge: no endgame table of %s in the tables folder "
                          "(make one with 'kemet solve %s')",
                          kemet_rules_spec(ref_rules),
                          kemet_rules_spec(ref_rules));
            goto done;
        }
        ref = kemet_judge_table(ref_judge);
    }
    /* Unasked, the agent does not play with the table it is judged
       against (that is exact by construction and measures nothing): it
       plays by its own judgement and the race databases. */
    bool own_judgement = !cli_tables && !table_file;
    if (kemet_judge_new(agent_rules, NULL, &agent_judge, &err)) {
        rc = cli_fail("judge: %s", err.msg);
        goto done;
    }
    cli_use_tables(agent_judge, own_judgement ? "race" : cli_tables);
    if (cli_use_net(agent_judge, cli_net))
        goto done;
    kemet_table_info info;
    kemet_table_stats(ref, &info);
    judge_ctx J = {agent_judge,
                   ref_rules,
                   ref,
                   agent,
                   seed,
                   info.entries,
                   calloc((size_t)positions, sizeof(judge_item))};
    if (!J.out) {
        rc = cli_fail("out of memory");
        goto done;
    }
    int threads = cli_threads(nthreads);
    double t0 = cli_now();
    if (cli_parallel(positions, threads, judge_one, &J, "positions")) {
        free(J.out);
        rc = cli_fail("judge: out of memory");
        goto done;
    }
    long optimal = 0, blunders = 0;
    double loss = 0, worst = 0, errsum = 0, secs = 0;
    for (long i = 0; i < positions; i++) {
        optimal += J.out[i].optimal;
        blunders += J.out[i].loss > 0.05;
        loss += J.out[i].loss;
        worst = J.out[i].loss > worst ? J.out[i].loss : worst;
        errsum += J.out[i].err;
        secs += J.out[i].secs;
    }
    const kemet_table *used = kemet_judge_table(agent_judge);
    bool race = kemet_judge_race(agent_judge) != NULL;
    const char *with = used && race ? " with tables and the race database"
                       : used       ? " with tables"
                       : race       ? " with the race database, no tables"
                                    : " without tables";
    double np = (double)positions, lo, hi;
    kemet_wilson((double)optimal, np, 1.96, &lo, &hi);
    if (json)
        printf("{\"ruleset\":\"%s\",\"agent\":\"%s\",\"tables\":%s,"
               "\"race\":%s,"
               "\"pieces\":%d,\"positions\":%ld,\"seed\":%llu,"
               "\"optimal\":%.4f,\"optimal_lo\":%.4f,\"optimal_hi\":%.4f,"
               "\"mean_loss\":%.5f,\"max_loss\":%.4f,\"blunders\":%.4f,"
               "\"chance_error\":%.4f,\"seconds_per_move\":%.4f,"
               "\"items\":[",
               kemet_rules_spec(ref_rules), agent, used ? "true" : "false",
               race ? "true" : "false", info.pieces, positions,
               (unsigned long long)seed, (double)optimal / np, lo, hi,
               loss / np, worst, (double)blunders / np, errsum / np, secs / np);
    for (long i = 0; json && i < positions; i++)
        judge_json_item(ref_rules, &J.out[i], i ? "," : "");
    if (json)
        printf("]}\n");
    else {
        cli_say(stdout, 0, 2,
                "%s, %s%s, %ld positions of the %d-piece class (seed %llu)",
                kemet_rules_spec(ref_rules), agent, with, positions,
                info.pieces, (unsigned long long)seed);
        printf("  exact-optimal choice  %.1f%% (95%%: %.1f-%.1f%%)\n"
               "  win chance lost       mean %.5f, largest %.4f, blunders "
               "(> 0.05) %.1f%%\n"
               "  chance error          mean |estimate - exact| %.4f\n"
               "  time                  %.3f s per move; %.0f s in all on %d "
               "thread%s\n",
               100 * (double)optimal / np, 100 * lo, 100 * hi, loss / np, worst,
               100 * (double)blunders / np, errsum / np, secs / np,
               cli_now() - t0, threads, threads == 1 ? "" : "s");
    }
    if (!json && own_judgement)
        cli_say(stdout, 2, 3,
                "(the agent plays without the tables, the reference being "
                "the tables folder's; --tables on judges the table against "
                "itself)");
    else if (!json && used == ref)
        cli_say(stdout, 2, 3,
                "(the agent plays with the reference table itself, so its "
                "choices are exact by construction)");
    free(J.out);
    rc = 0;
done:
    kemet_table_free(own);
    kemet_judge_free(agent_judge);
    kemet_judge_free(ref_judge);
    kemet_rules_close(agent_rules);
    kemet_rules_close(ref_rules);
    return rc;
}
