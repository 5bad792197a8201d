/* tables.c - `kemet solve`, and the endgame tables every command finds in
 * the cache folder.
 *
 * Tables live in one folder: --tables DIR, else $KEMET_TABLES, else
 * $XDG_CACHE_HOME/kemet, else ~/.cache/kemet. "--tables off" (or
 * KEMET_TABLES=off) uses none. A table file is named after its ruleset and
 * class: "senet-kendall.3.kemettb". A command that plays finds the largest
 * class there is for its ruleset; a file it cannot use (corrupt, of another
 * version) is named on standard error in one line and the agents search
 * without it.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The tables this run loaded, freed at exit (after every rules object that
 * borrows them is closed). */
typedef struct loaded {
    char spec[96];
    kemet_table *table; /* NULL: looked for, none usable */
} loaded;
static loaded *cache;
static long ncache, capcache;

static void free_cache(void) {
    for (long i = 0; i < ncache; i++)
        kemet_table_free(cache[i].table);
    free(cache);
    cache = NULL;
    ncache = capcache = 0;
}

const char *cli_table_dir(const char *opt, char *buf, size_t len) {
    const char *e = opt ? opt : getenv("KEMET_TABLES");
    if (e && *e) {
        if (strcmp(e, "off") == 0)
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
    for (const char *s = kemet_rules_spec(r); *s && k + 1 < sizeof name; s++)
        name[k++] = (*s == ':' || *s == ',' || *s == '=' || *s == '/') ? '_' : *s;
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

int cli_use_tables(kemet_rules *r, const char *opt) {
    char dirbuf[4096];
    const char *dir = cli_table_dir(opt, dirbuf, sizeof dirbuf);
    if (!dir)
        return 0;
    const char *spec = kemet_rules_spec(r);
    for (long i = 0; i < ncache; i++)
        if (strcmp(cache[i].spec, spec) == 0)
            return cache[i].table ? kemet_rules_use_table(r, cache[i].table), 1
                                  : 0;
    kemet_table *found = NULL;
    for (int n = 7; n >= 1 && !found; n--) {
        char path[4200];
        struct stat st;
        if (kemet_table_class(r, n, NULL, NULL) != KEMET_OK)
            continue;
        cli_table_path(dir, r, n, path, sizeof path);
        if (stat(path, &st) != 0)
            continue;
        kemet_error err;
        if (kemet_table_load(r, path, &found, &err) != KEMET_OK) {
            fprintf(stderr,
                    "kemet: endgame table not used (the agents search "
                    "instead): %s\n",
                    err.msg);
            found = NULL;
        }
    }
    if (ncache == capcache) {
        if (cli_grow(&cache, &capcache, ncache, sizeof *cache)) {
            kemet_table_free(found);
            return 0;
        }
        if (ncache == 0)
            atexit(free_cache);
    }
    snprintf(cache[ncache].spec, sizeof cache[ncache].spec, "%s", spec);
    cache[ncache++].table = found;
    if (found)
        kemet_rules_use_table(r, found);
    return found != NULL;
}

/* ---------------------------------------------------------------------------
 * kemet solve
 * ------------------------------------------------------------------------ */

static const char solve_usage[] =
    "usage: kemet solve RULESET [--pieces N] [--threads T] [--tables DIR]\n"
    "                   [--output FILE]\n"
    "Computes the exact endgame table of RULESET: for every position in which\n"
    "each side has at most N pieces left in play (default 3, 2 for\n"
    "dogs-jackals-extended), the chance that the player to move wins with best\n"
    "play by both. The table is written to the tables folder (--tables DIR,\n"
    "else $KEMET_TABLES, else $XDG_CACHE_HOME/kemet or ~/.cache/kemet), where\n"
    "every command that plays finds it, or to FILE. The table is the same for\n"
    "any thread count (default: every core). docs/tables.md has the format.\n";

typedef struct solve_progress {
    double t0, last;
    const char *what;
} solve_progress;

static void show_progress(void *ctx, const char *what, double done) {
    solve_progress *p = ctx;
    double now = cli_now();
    if (now - p->last < 1 && what == p->what)
        return;
    p->last = now;
    p->what = what;
    fprintf(stderr, "\rsolving: %-9s %5.1f%%  %6.0f s", what, 100 * done,
            now - p->t0);
    fflush(stderr);
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
    if (pieces == 0)
        pieces = kemet_table_class(r, 3, NULL, NULL) == KEMET_OK &&
                         strcmp(kemet_rules_spec(r), "dogs-jackals-extended")
                     ? 3
                     : 2;
    long long entries;
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
    /* Fail on an unwritable destination before the work, not after. */
    char probe_path[4300];
    snprintf(probe_path, sizeof probe_path, "%s.probe", path);
    FILE *probe = fopen(probe_path, "wb");
    if (!probe) {
        kemet_rules_close(r);
        return cli_fail("solve: cannot write %s: %s", path, strerror(errno));
    }
    fclose(probe);
    remove(probe_path);
    int nthreads = cli_threads(threads);
    fprintf(stderr, "solving %s, %ld pieces a side: %lld entries, %d "
            "thread%s\n",
            kemet_rules_spec(r), pieces, entries, nthreads,
            nthreads == 1 ? "" : "s");
    solve_progress prog = {cli_now(), 0, NULL};
    kemet_table *t;
    rc = kemet_table_solve(r, (int)pieces, nthreads, show_progress, &prog, &t,
                           &err);
    fputc('\n', stderr);
    if (rc == KEMET_OK)
        rc = kemet_table_save(t, path, &err);
    else
        t = NULL;
    if (rc != KEMET_OK) {
        kemet_table_free(t);
        kemet_rules_close(r);
        return cli_fail("solve: %s", err.msg);
    }
    kemet_table_info info;
    kemet_table_stats(t, &info);
    printf("%s\n  %s, %d pieces a side: %lld positions (%lld entries)\n"
           "  %d sweeps, last change %.1e (tolerance %.0e); %.1f s on %d "
           "thread%s\n  file %.1f MB\n",
           path, kemet_rules_spec(r), info.pieces, info.positions,
           info.entries, info.sweeps, info.residual, info.tolerance,
           cli_now() - prog.t0, nthreads, nthreads == 1 ? "" : "s",
           (double)info.bytes / 1e6);
    kemet_table_free(t);
    kemet_rules_close(r);
    return 0;
}
