/* test_analyze.c - `kemet analyze` run as a user runs it: the same
 * numbers on one thread and on two, a sweep's variants equal to separate
 * runs of each, a ladder step that goes the wrong way flagged, the plots
 * and the report written, and bad options refused with one line. The
 * figures themselves are checked on hand-worked cases in test_metrics.c.
 */
#include "testutil.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#define BAD TU_RUN_BAD

/* Small settings, so that a run takes a second or two: every figure's
 * sample at most 8 games (the pilot, capped). */
#define AGENTS                                                                 \
    "--games", "30", "--strong", "expectimax:200", "--ladder",                 \
        "random,greedy,expectimax:200", "--trace-games", "2", "--trace-base",  \
        "4", "--tables", "off"
#define SMALL AGENTS, "--max-games", "8"

/* One ruleset's object in a JSON report: from {"ruleset":"ID" to the
 * brace that closes it (caller frees), or NULL. */
static char *ruleset_json(const char *json, const char *id) {
    char key[128];
    snprintf(key, sizeof key, "{\"ruleset\":\"%s\"", id);
    const char *a = strstr(json, key);
    if (!a)
        return NULL;
    int depth = 0;
    const char *b = a;
    for (; *b; b++) {
        depth += *b == '{';
        depth -= *b == '}';
        if (depth == 0)
            break;
    }
    return *b ? strndup(a, (size_t)(b - a + 1)) : NULL;
}

/* The end of JSON value that starts at p (an object, array, string or
 * scalar). */
static char *value_end(char *p) {
    int depth = 0;
    bool str = false;
    for (; *p; p++) {
        if (str) {
            if (*p == '\\')
                p++;
            else if (*p == '"')
                str = false;
            if (!str && depth == 0)
                return p + 1;
            continue;
        }
        if (*p == '"')
            str = true;
        else if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']') {
            if (depth == 0)
                return p; /* a scalar ends at its container's end */
            if (--depth == 0)
                return p + 1;
        } else if (depth == 0 && *p == ',')
            return p;
    }
    return p;
}

/* json with every field `key` (at any depth) taken out, with its comma:
 * what differs from one run to another of the same measurement (its
 * time, its command, whether it was read back). */
static void drop_field(char *json, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    for (char *k; (k = strstr(json, pat));) {
        char *from = k;
        while (from > json && (from[-1] == '\n' || from[-1] == ' '))
            from--;
        char *to = value_end(k + strlen(pat));
        if (from > json && from[-1] == ',')
            from--;
        else if (*to == ',')
            to++;
        memmove(from, to, strlen(to) + 1);
    }
}

static void drop_run(char *json) {
    drop_field(json, "run");
    drop_field(json, "time");
    drop_field(json, "earlier");
}

/* A ruleset's object as a sweep gives it for a variant: no ladder and no
 * SkillTrace (the report shows neither for variants); obj is changed. */
static void as_variant(char *obj) {
    char *l = strstr(obj, "\"ladder\":[");
    assert_non_null(l);
    char *a = l + strlen("\"ladder\":["), *b = a;
    for (int depth = 1; *b && depth; b++)
        depth += (*b == '[') - (*b == ']');
    memmove(a, b - 1, strlen(b - 1) + 1); /* keep the closing ] */
    const char *keys[] = {"\"SkillTrace\":", "\"SkillTraceLuckAdjusted\":"};
    for (int k = 0; k < 2; k++) {
        char *t = strstr(obj, keys[k]);
        assert_non_null(t);
        t += strlen(keys[k]);
        char *c = strchr(t, ',');
        assert_non_null(c);
        memmove(t + 4, c, strlen(c) + 1);
        memcpy(t, "null", 4);
    }
}

/* Both rulesets' games are played in the same two pools, dealt game by
 * game over the threads: one thread and two give the same report. */
static void same_on_any_thread_count(void **state) {
    (void)state;
    char *o1, *o2, *e;
    int st =
        tu_run(NULL, &o1, &e, "analyze", "chien-chacal", "lions-jackals-quick",
               AGENTS, "--pilot", "6", "--max-games", "16", "--threads", "1",
               "--format", "json", NULL);
    assert_int_equal(st, 0);
    free(e);
    st = tu_run(NULL, &o2, &e, "analyze", "chien-chacal", "lions-jackals-quick",
                AGENTS, "--pilot", "6", "--max-games", "16", "--threads", "2",
                "--format", "json", NULL);
    assert_int_equal(st, 0);
    free(e);
    drop_run(o1);
    drop_run(o2);
    assert_string_equal(o1, o2);
    const char *names[] = {"AdvantageP1Adjusted",
                           "Completion",
                           "Drawishness",
                           "AdvantageP1",
                           "Balance",
                           "DurationTurns",
                           "LeadChange",
                           "Drama",
                           "DecisivenessThreshold",
                           "BranchingFactor",
                           "BoardCoverage",
                           "SkillTrace",
                           "SkillTraceLuckAdjusted",
                           "GamesToLead",
                           "luck_share",
                           "rearmost",
                           "foremost",
                           "safe-random",
                           "MedianTurns",
                           "DecisionsPerTurn",
                           "Stopped",
                           "LuckShare",
                           "tier"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "\"%s\":", names[i]);
        assert_non_null(strstr(o1, key));
    }
    /* the pilot of 6 games, then more: the second stage was played */
    const char *sp = strstr(o1, "\"strong_play\":{\"agents\":[\"expectimax:"
                                "200\",\"expectimax:200\"],\"games\":");
    assert_non_null(sp);
    long sg = strtol(strstr(sp, "\"games\":") + 8, NULL, 10);
    assert_true(sg > 6 && sg <= 16);
    assert_non_null(strstr(o1, "\"weak_play\":{\"agents\":[\"greedy\","
                               "\"greedy\"],\"games\":30,"));
    free(o1);
    free(o2);
}

/* A sweep's variants are measured as separate runs of each would measure
 * them: the same object, byte for byte, but for the ladder and SkillTrace
 * that a variant goes without. */
static void sweep_equals_separate_runs(void **state) {
    (void)state;
    char *sw, *one, *e;
    int st = tu_run(NULL, &sw, &e, "analyze", "lions-jackals-quick", SMALL,
                    "--sweep", "lions-jackals-quick:dual=0..1", "--format",
                    "json", NULL);
    assert_int_equal(st, 0);
    free(e);
    const char *ids[] = {"lions-jackals-quick:dual=0"};
    for (int k = 0; k < 1; k++) {
        st = tu_run(NULL, &one, &e, "analyze", ids[k], SMALL, "--format",
                    "json", NULL);
        assert_int_equal(st, 0);
        free(e);
        char *a = ruleset_json(sw, ids[k]), *b = ruleset_json(one, ids[k]);
        assert_non_null(a);
        assert_non_null(b);
        /* the figures; who it is and how it was judged differ */
        char *ka = strstr(a, ",\"kind\":"), *kb = strstr(b, ",\"kind\":");
        assert_non_null(ka);
        assert_non_null(kb);
        *ka = *kb = '\0';
        assert_non_null(strstr(ka + 1, "\"kind\":\"variant\""));
        assert_non_null(strstr(kb + 1, "\"kind\":\"ruleset\""));
        assert_non_null(strstr(a, "\"ladder\":[]"));
        assert_null(strstr(b, "\"ladder\":[]"));
        as_variant(b);
        assert_string_equal(a, b);
        free(a);
        free(b);
        free(one);
    }
    /* dual=1 is the default: the base ruleset itself, measured once */
    const char *first = strstr(sw, "{\"ruleset\":\"lions-jackals-quick\"");
    assert_non_null(first);
    assert_null(strstr(first + 1, "{\"ruleset\":\"lions-jackals-quick\""));
    free(sw);
}

/* --options adds every combination of the named options as a variant,
 * and each board's readings are judged among themselves: Chien et Chacal
 * and Carter's marked and plain boards are three readings of the 58
 * holes, and no Senet is measured. */
static void options_and_boards(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--options",
                    "hounds-jackals-carter:board", NULL);
    assert_int_equal(st, 0);
    free(e);
    const char *which = strstr(o, "\n## Which 58 holes?\n");
    assert_non_null(which);
    assert_non_null(strstr(which, "The 3 readings of this board measured "
                                  "here (1 ruleset and 2 variants"));
    const char *end = strstr(which + 1, "\n## ");
    assert_non_null(end);
    const char *rows[] = {"| chien-chacal |",
                          "| hounds-jackals-carter:board=marked |",
                          "| hounds-jackals-carter:board=plain |"};
    for (int i = 0; i < 3; i++) {
        const char *at = strstr(which, rows[i]);
        assert_non_null(at);
        assert_true(at < end);
    }
    /* the options in words, from the ruleset's text, before the table */
    const char *words = strstr(which, "\n- `hounds-jackals-carter:board="
                                      "marked`: the marked board (no lines;");
    assert_non_null(words);
    assert_true(words < strstr(which, "| tier |"));
    /* the default (the lines board) is not a variant */
    assert_null(strstr(o, "hounds-jackals-carter:board=lines"));
    assert_null(strstr(o, "| hounds-jackals-carter |"));
    assert_null(strstr(o, "## Which Senet?"));
    /* the abstract names the board's readings, and its first tier is
     * the verdict's */
    assert_non_null(strstr(o, "**Which 58 holes?** Of the 3 readings of the "
                              "58 holes measured here, the first tier is"));
    free(o);
}

/* A ladder whose upper agent is the weaker one: random above greedy
 * scores far below one half, and the report says so. */
static void contradiction_flagged(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", "--games", "20",
                    "--max-games", "20", "--strong", "greedy", "--ladder",
                    "greedy,random", "--trace-games", "0", "--tables", "off",
                    "--format", "json", NULL);
    assert_int_equal(st, 0);
    free(e);
    assert_non_null(strstr(o, "\"upper\":\"random\",\"lower\":\"greedy\","
                              "\"games\":20,\"contradiction\":true"));
    free(o);
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", "--games", "20",
                "--max-games", "20", "--strong", "greedy", "--ladder",
                "random,greedy", "--trace-games", "0", "--tables", "off",
                "--format", "json", NULL);
    assert_int_equal(st, 0);
    free(e);
    assert_non_null(strstr(o, "\"upper\":\"greedy\",\"lower\":\"random\""));
    assert_null(strstr(o, "\"contradiction\":true"));
    free(o);
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", "--games", "20",
                "--max-games", "20", "--strong", "greedy", "--ladder",
                "greedy,random", "--trace-games", "0", "--tables", "off", NULL);
    assert_int_equal(st, 0);
    free(e);
    assert_non_null(strstr(o, "**Contradictions**"));
    assert_non_null(strstr(o, "| **!** "));
    free(o);
}

/* The verdict's skill figure is the strong agent's edge over the weak:
 * 2 x its luck-adjusted score - 1, held to 0..1, from the same games. */
static void skill_is_the_edge(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--format",
                    "json", NULL);
    assert_int_equal(st, 0);
    free(e);
    double score, lo, hi, skill, slo, shi;
    const char *a = strstr(o, "\"strong_vs_weak\":");
    assert_non_null(a);
    a = strstr(a, "\"adjusted\":");
    assert_non_null(a);
    assert_int_equal(sscanf(a, "\"adjusted\":{\"value\":%lf,\"ci95\":[%lf,%lf]",
                            &score, &lo, &hi),
                     3);
    const char *v = strstr(o, "\"skill\":");
    assert_non_null(v);
    assert_int_equal(sscanf(v, "\"skill\":{\"value\":%lf,\"ci95\":[%lf,%lf]",
                            &skill, &slo, &shi),
                     3);
    double want[3] = {2 * score - 1, 2 * lo - 1, 2 * hi - 1},
           got[3] = {skill, slo, shi};
    for (int k = 0; k < 3; k++) {
        double w = want[k] < 0 ? 0 : want[k] > 1 ? 1 : want[k];
        assert_true(fabs(got[k] - w) < 2e-5);
    }
    free(o);
}

/* A turn cap of 5 stops every game of chien-chacal: the median length is
 * beyond the cap, shown so (never as the cap's 5 turns, never as inf or
 * nan); its cost and the penalty are infinite, the penalty's range
 * starts at the finite costs' low end; the ruleset is flagged for the
 * stopped games, but not for its length, which a cap of 5 turns cannot
 * show to be over 500. (Samples of 100 games: from fewer, each figure
 * would be an indication, with no cost and no flag.) */
static void median_beyond_the_cap(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", AGENTS,
                    "--max-games", "100", "--max-turns", "5", NULL);
    assert_int_equal(st, 0);
    free(e);
    assert_non_null(strstr(o, "\n| chien-chacal | beyond the cap | "));
    const char *row = strstr(o, "\n| 1, flagged | chien-chacal | ∞ (");
    assert_non_null(row);
    char line[2048];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
    assert_non_null(strstr(line, ") | ∞ | "));
    assert_non_null(strstr(line, "stopped"));
    assert_non_null(strstr(o, "\n| chien-chacal | beyond the cap (5–cap) | "));
    assert_null(strstr(line, "length"));
    assert_null(strstr(line, "-0.")); /* no interval below 0 */
    assert_null(strstr(o, " nan"));
    assert_null(strstr(o, "-nan"));
    assert_null(strstr(o, "(nan"));
    assert_null(strstr(o, "inf)"));
    assert_null(strstr(o, "(inf"));
    free(o);
}

/* The stopping rule in use: at a target no sample of 40 games can reach,
 * every figure plays the cap and the report marks it; at a loose one,
 * the pilot is enough for the sizings, and the final step grows it to
 * 100 games, here to the cap of 40. */
static void precision_sizes_samples(void **state) {
    (void)state;
    char *o, *e;
#define LOOSE(h, fmt)                                                          \
    "analyze", "chien-chacal", "--games", "20", "--strong", "greedy",          \
        "--ladder", "random,greedy", "--trace-games", "0", "--tables", "off",  \
        "--pilot", "10", "--max-games", "40", "--precision", h, "--format",    \
        fmt, NULL
    int st = tu_run(NULL, &o, &e, LOOSE("0.001", "json"));
    assert_int_equal(st, 0);
    free(e);
    assert_non_null(strstr(o, "\"strong_play\":{\"agents\":[\"greedy\","
                              "\"greedy\"],\"games\":40,"));
    assert_non_null(strstr(o, "\"upper\":\"greedy\",\"lower\":\"random\","
                              "\"games\":40,"));
    free(o);
    st = tu_run(NULL, &o, &e, LOOSE("0.001", "md"));
    assert_int_equal(st, 0);
    free(e);
    const char *p = strstr(o, "## Appendix: precision reached");
    assert_non_null(p);
    assert_non_null(strstr(p, "| chien-chacal | 40 |"));
    assert_non_null(strstr(p, "\\*"));
    free(o);
    st = tu_run(NULL, &o, &e, LOOSE("0.45", "json"));
    assert_int_equal(st, 0);
    free(e);
    assert_non_null(strstr(o, "\"upper\":\"greedy\",\"lower\":\"random\","
                              "\"games\":40,"));
    free(o);
#undef LOOSE
    /* Sized again from all the games so far while an interval is still
     * wider than its target: with room to spare, every figure ends within
     * it. (Sized once, from the pilot alone, the luck share ended at
     * ±0.093 and the ladder's step at ±0.073 here.) */
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", "--games", "20",
                "--strong", "greedy", "--ladder", "random,greedy",
                "--trace-games", "0", "--tables", "off", "--pilot", "10",
                "--max-games", "5000", "--precision", "0.05", NULL);
    assert_int_equal(st, 0);
    free(e);
    p = strstr(o, "## Appendix: precision reached");
    assert_non_null(p);
    p = strstr(p, "| chien-chacal |");
    assert_non_null(p);
    const char *end = strchr(p, '\n');
    assert_non_null(end);
    assert_null(memchr(p, '*', (size_t)(end - p)));
    free(o);
}

/* The report to a file, its plots in another folder linked relatively,
 * every plot an SVG with its question as its title. */
static void report_and_plots(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-analyze-XXXXXX", plotdir[64], rep[64], rmd[80];
    assert_non_null(mkdtemp(dir));
    snprintf(plotdir, sizeof plotdir, "%s/plots", dir);
    snprintf(rep, sizeof rep, "%s/rep", dir);
    snprintf(rmd, sizeof rmd, "%s/r.md", rep);
    assert_int_equal(mkdir(rep, 0700), 0);
    char *o, *e;
    int st =
        tu_run(NULL, &o, &e, "analyze", "lions-jackals-quick", "senet-kendall",
               SMALL, "--plots", plotdir, "--output", rmd, NULL);
    assert_int_equal(st, 0);
    assert_string_equal(o, "");
    free(o);
    free(e);
    char *md = tu_read_file(rmd);
    assert_non_null(md);
    const char *want[] = {"## Verdict",
                          "| senet-kendall |",
                          "## Skill",
                          "## Degeneracy",
                          "## Appendix: time",
                          "s of thread time in ",
                          "](../plots/lengths.svg)",
                          "](../plots/ladder.svg)",
                          "](../plots/land-senet-kendall.svg)",
                          "Kendall's tau",
                          "## Abstract\n\n2 reconstructions",
                          "## The readings measured",
                          "| senet-kendall | Senet (Kendall, 1979) | a book "
                          "of games or a game's rule book |",
                          "- **Senet (Kendall, 1979)** (a book of games or a "
                          "game's rule book): Timothy Kendall (1978). "
                          "Passing Through the Netherworld",
                          "**Who each is by, what sets it apart and where "
                          "it was published**",
                          "- **Senet (Kendall, 1979)**, by Timothy Kendall: "
                          "Seven pieces each;",
                          "Published: Timothy Kendall's rules (1979), rules "
                          "1-14",
                          "**14 of the 14 samples above took fewer than "
                          "100 games**. The spread",
                          "## Limitations",
                          "## References"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(md, want[i]))
            fail_msg("the report lacks '%s'", want[i]);
    free(md);
    remove(rmd);
    rmdir(rep);
    const char *plots[] = {"lengths.svg",
                           "advantage.svg",
                           "ladder.svg",
                           "chances.svg",
                           "land-senet-kendall.svg",
                           "land-lions-jackals-quick.svg"};
    for (size_t i = 0; i < sizeof plots / sizeof plots[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", plotdir, plots[i]);
        char *svg = tu_read_file(path);
        assert_non_null(svg);
        assert_true(strncmp(svg, "<svg", 4) == 0);
        const char *t = strstr(svg, "<title>"), *q = strchr(svg, '?');
        assert_non_null(t);
        assert_true(q && q < strstr(t, "</title>"));
        free(svg);
        remove(path);
    }
    rmdir(plotdir);
    rmdir(dir);
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--format",
                "csv", NULL);
    assert_int_equal(st, 0);
    assert_true(strncmp(o, "ruleset,games,median_turns", 26) == 0);
    assert_non_null(strstr(o, "\nchien-chacal,8,"));
    free(o);
    free(e);
}

/* The one file --save keeps in `dir` (its path into path), or fails. */
static void kept_file(const char *dir, char *path, size_t size) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    int files = 0;
    for (struct dirent *f; (f = readdir(d));)
        if (f->d_name[0] != '.') {
            snprintf(path, size, "%s/%s", dir, f->d_name);
            files++;
        }
    closedir(d);
    assert_int_equal(files, 1);
}

/* Bytes at..at+n of the file at path replaced by those of `with` (NULL:
 * the file cut there). */
static void spoil(const char *path, long at, const char *with, size_t n) {
    if (!with) {
        assert_int_equal(truncate(path, at), 0);
        return;
    }
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, at, SEEK_SET), 0);
    assert_int_equal(fwrite(with, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* The line of `text` that starts with `start` (a copy, caller frees),
 * or NULL. */
static char *line_at(const char *text, const char *start) {
    const char *a = strstr(text, start);
    if (!a)
        return NULL;
    a++; /* past the newline `start` opens with */
    return strndup(a, strcspn(a, "\n"));
}

/* The report says once what each agent is (its search, budget and
 * evaluation), the evaluation each reading was played with (the network
 * by the hash the kept measurement's lines give it), and why each unit
 * of the verdict is the size it is. */
static void agents_and_units_stated(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-agents-XXXXXX", path[512];
    assert_non_null(mkdtemp(dir));
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--save",
                    dir, NULL);
    assert_int_equal(st, 0);
    free(e);
    /* every agent of the settings, in one row each */
    const char *rows[] = {"\n- **expectimax:200**: search: expectiminimax ",
                          "\n- **greedy**: search: none: one move ahead",
                          "\n- **random**: search: none: a legal move at "
                          "random",
                          "\n- **rearmost**: search: none: always the piece "
                          "furthest back",
                          "\n- **foremost**: ",
                          "\n- **safe-random**: ",
                          "\n- **greedy@plain**: ",
                          "\n- **expectimax:4 … expectimax:1024**: "};
    const char *agents = strstr(o, "\n### The agents\n");
    const char *criteria = strstr(o, "\n## The criteria of the verdict");
    assert_non_null(agents);
    assert_non_null(criteria);
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        const char *a = strstr(agents, rows[k]);
        if (!a || a > criteria || strstr(a + 1, rows[k]))
            fail_msg("the agents' list names '%s' not once", rows[k] + 1);
    }
    char *g = line_at(agents, "\n- **greedy**:");
    assert_non_null(strstr(g, "never the exact table or race database"));
    free(g);
    char *x = line_at(agents, "\n- **expectimax:200**:");
    assert_non_null(strstr(x, "; budget: 200 positions a move; "));
    assert_non_null(strstr(x, "the ladder's rung 3 of 3"));
    free(x);
    /* the readings table: the network the kept file names */
    kept_file(dir, path, sizeof path);
    char *kept = tu_read_file(path);
    assert_non_null(kept);
    const char *net = strstr(kept, " net=");
    assert_non_null(net);
    char want[64];
    snprintf(want, sizeof want, "| network %.16s (", net + 5);
    free(kept);
    char *row = line_at(o, "\n| chien-chacal | network ");
    assert_non_null(row);
    assert_non_null(strstr(row, want));
    assert_null(strstr(row, "race database")); /* --tables off */
    free(row);
    assert_non_null(strstr(o, "| ruleset | evaluation |\n"));
    /* why each unit: every criterion that costs gives its reason */
    for (int c = 0; c < KEMET_CRITERIA; c++) {
        char start[64];
        snprintf(start, sizeof start,
                 "\n- *%s*: ", kemet_criterion_info(c)->name);
        char *r = line_at(criteria, start);
        assert_non_null(r);
        const char *u = strstr(r, " Its unit: ");
        assert_non_null(u);
        bool flag_alone = strcmp(u, " Its unit: no cost: a flag alone.") == 0;
        if ((c == KEMET_CRIT_STOPPED) != flag_alone || strlen(u) < 30)
            fail_msg("criterion %s: unit's reason '%s'",
                     kemet_criterion_info(c)->name, u);
        free(r);
    }
    assert_non_null(strstr(o, "\n**How it depends on each criterion's "
                              "unit.**"));
    /* why a reading plays with the linear weights: said only where one
       does */
    const char *ships = "\nA network ships only where it beats what it "
                        "replaces and its self-play stops no more games";
    const char *none = ": where a reading plays with the linear weights, no "
                       "network passed it, or the run chose them (`--net "
                       "linear`). ";
    assert_non_null(strstr(o, ships));
    assert_null(strstr(o, none));
    free(o);
    remove(path);
    rmdir(dir);
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--net",
                "linear", NULL);
    assert_int_equal(st, 0);
    free(e);
    assert_non_null(strstr(o, "| chien-chacal | linear weights |"));
    assert_non_null(strstr(o, none));
    free(o);
}

/* Chien et Chacal with its race database, which values every position:
 * the readings table says so, the skill figure is explained (the
 * searchers choose by the database, greedy by the network alone, so the
 * score is one half plus what greedy gives away), and the Limitations
 * name it as the one reading where the strong agent plays near-perfectly
 * throughout; the perfect-play section says the strong agent reads the
 * table, and measures the linear evaluation, not it. */
static void race_skill_explained(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", "--games", "30",
                    "--strong", "expectimax:200", "--ladder",
                    "random,greedy,expectimax:200", "--trace-games", "2",
                    "--trace-base", "4", "--max-games", "8", "--tables", "race",
                    NULL);
    assert_int_equal(st, 0);
    free(e);
    char *row = line_at(o, "\n| chien-chacal | network ");
    assert_non_null(row);
    assert_non_null(strstr(row, "; race database, which values every "
                                "position |"));
    free(row);
    const char *note = strstr(o, "\n**chien-chacal**: its race database "
                                 "values every position");
    assert_non_null(note);
    assert_true(note > strstr(o, "\n### Luck and skill"));
    assert_non_null(strstr(note, "greedy judges one move ahead by the "
                                 "network alone, never by the database"));
    assert_non_null(strstr(note, "is one half plus what greedy's choices "
                                 "give away a game"));
    assert_non_null(strstr(o, "near-perfectly where a race database values "
                              "every position (chien-chacal)"));
    assert_null(strstr(o, "is measured against perfect play"));
    free(o);
    /* without the database: no such note, and none named */
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, NULL);
    assert_int_equal(st, 0);
    free(e);
    assert_null(strstr(o, "its race database values every position"));
    assert_non_null(strstr(o, "values every position (none here)"));
    free(o);
}

/* --save: the numbers of a run that keeps its measurements, and of one
 * that reads them back, are those of a run without; the report says what
 * was read back; a kept file damaged in any way is refused with one line
 * naming it, never read as figures. */
static void kept_measurements(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-kept-XXXXXX", path[512];
    assert_non_null(mkdtemp(dir));
    char *plain, *o, *e;
    int st = tu_run(NULL, &plain, &e, "analyze", "chien-chacal", SMALL,
                    "--format", "csv", NULL);
    assert_int_equal(st, 0);
    free(e);
    for (int run = 0; run < 2; run++) { /* keeps, then reads back */
        st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--format",
                    "csv", "--save", dir, NULL);
        assert_int_equal(st, 0);
        assert_string_equal(o, plain);
        free(o);
        free(e);
    }
    free(plain);
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--save", dir,
                NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "1 of the 1 rulesets were measured by earlier "
                              "runs"));
    /* the kept wall time is not set against this run's threads */
    assert_non_null(strstr(o, "1 of them were measured by earlier runs, each "
                              "on its own threads"));
    assert_null(strstr(o, "of the threads' time"));
    free(o);
    free(e);
    kept_file(dir, path, sizeof path);
    char *text = tu_read_file(path);
    assert_non_null(text);
    assert_int_equal(strncmp(text, "kemet-analyze-measurement 1\n", 28), 0);
    assert_non_null(strstr(text, "\nruleset chien-chacal\n"));
    long head = (long)(strstr(text, "\n\n") - text) + 2; /* its lines */
    free(text);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    /* a flipped byte among the figures, the file cut short, its opening
     * lines changed: each a line and status 2 */
    const struct {
        long at;
        const char *with, *says;
    } bad[] = {{sb.st_size / 2, "\x7f\x7f\x7f\x7f", "checksum differs"},
               {sb.st_size - 3, NULL, "cut short"},
               {head + 100, NULL, "cut short"},
               {40, NULL, "does not hold chien-chacal"},
               {0, "kemet-analyze-measurement 9", "does not hold"}};
    char copy[600];
    snprintf(copy, sizeof copy, "%s.good", path);
    assert_int_equal(rename(path, copy), 0);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char cmd[1300];
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", copy, path);
        assert_int_equal(system(cmd), 0);
        spoil(path, bad[k].at, bad[k].with,
              bad[k].with ? strlen(bad[k].with) : 0);
        st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--save",
                    dir, NULL);
        assert_int_equal(st, 2);
        assert_string_equal(o, "");
        if (!strstr(e, bad[k].says) || !strstr(e, path) ||
            strchr(e, '\n') != e + strlen(e) - 1)
            fail_msg("case %zu: '%s'", k, e);
        free(o);
        free(e);
    }
    /* another seed is another measurement, kept beside the first */
    remove(path);
    assert_int_equal(rename(copy, path), 0);
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--seed", "2",
                "--format", "csv", "--save", dir, NULL);
    assert_int_equal(st, 0);
    free(o);
    free(e);
    /* and the report at seed 1 compares its verdict with seed 2's */
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--save", dir,
                NULL);
    assert_int_equal(st, 0);
    char want[300];
    snprintf(want, sizeof want,
             "; and the same settings at seed 2 (measured by a run kept in "
             "`%s`):\n\n| ruleset | tier | weak self-play | seed 2 |\n"
             "|---|---|---|---|\n| chien-chacal | 1",
             dir);
    assert_non_null(strstr(o, want));
    /* one ruleset: tau-b undefined, and no pair in opposite order */
    assert_non_null(strstr(o, "Against seed 2's tiers it is undefined, and 0 "
                              "pairs of rulesets are in opposite strict "
                              "order."));
    free(o);
    free(e);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int files = 0;
    for (struct dirent *f; (f = readdir(d));)
        if (f->d_name[0] != '.') {
            char p[600];
            snprintf(p, sizeof p, "%s/%s", dir, f->d_name);
            assert_int_equal(remove(p), 0);
            files++;
        }
    closedir(d);
    assert_int_equal(files, 2);
    assert_int_equal(rmdir(dir), 0);
}

/* The whole file at path (*len bytes; caller frees). */
static unsigned char *whole(const char *path, size_t *len) {
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    unsigned char *b = malloc((size_t)sb.st_size);
    FILE *f = fopen(path, "rb");
    assert_true(b && f);
    assert_int_equal(fread(b, 1, (size_t)sb.st_size, f), (size_t)sb.st_size);
    fclose(f);
    *len = (size_t)sb.st_size;
    return b;
}

/* FNV-1a, 64 bits, over b[0..n) from h. */
static uint64_t fnv(uint64_t h, const unsigned char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

/* The kept file at path (of revision 2 or 3) rewritten as revision 2
 * wrote it (the same
 * figures; its opening lines say revision 2, its name their hash), with
 * the games of the probe `rearmost` set to `games` (0: as they were),
 * its checksum made again. */
static void as_revision_2(const char *dir, const char *path, long games) {
    size_t len;
    unsigned char *b = whole(path, &len);
    const char *rev = "kemet-analyze-measurement 1\nrevision ";
    assert_memory_equal(b, rev, strlen(rev));
    b[strlen(rev)] = '2';
    size_t hl = (size_t)(strstr((char *)b, "\n\n") - (char *)b) + 2;
    if (games) { /* a step's upper agent, its lower, then its games */
        unsigned char *at = NULL;
        for (size_t i = hl; i + 9 < len && !at; i++)
            if (memcmp(b + i, "rearmost\0", 9) == 0)
                at = b + i;
        assert_non_null(at);
        memcpy(at + 96, &games, sizeof games);
        uint64_t h = fnv(0xcbf29ce484222325ULL, b + hl, len - 8 - hl);
        memcpy(b + len - 8, &h, 8);
    }
    char to[600];
    snprintf(to, sizeof to, "%s/chien-chacal.%016llx.kma", dir,
             (unsigned long long)fnv(0xcbf29ce484222325ULL, b, hl));
    assert_int_equal(remove(path), 0);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    free(b);
}

/* A measurement kept at revision 2, before the stopping rule's final
 * step, is read back where that step would add no game to it (its
 * figures are then the present rule's), and is measured again, the same
 * numbers kept at revision 3 beside it, where the step would: here a
 * probe's 50 games, short of 100 and of the cap. */
static void kept_revision_2(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-kept2-XXXXXX", path[512];
    assert_non_null(mkdtemp(dir));
#define RUN2                                                                   \
    "analyze", "chien-chacal", "--games", "20", "--strong", "greedy",          \
        "--ladder", "random,greedy", "--trace-games", "0", "--tables", "off",  \
        "--pilot", "10", "--max-games", "100", "--format", "csv", "--save",    \
        dir, NULL
    char *plain, *o, *e;
    assert_int_equal(tu_run(NULL, &plain, &e, RUN2), 0);
    free(e);
    kept_file(dir, path, sizeof path);
    assert_non_null(strstr(path, "/chien-chacal."));
    as_revision_2(dir, path, 0);
    kept_file(dir, path, sizeof path);
    assert_int_equal(tu_run(NULL, &o, &e, RUN2), 0);
    assert_string_equal(o, plain);
    assert_null(strstr(e, "revision 2"));
    free(o);
    free(e);
    char again[512];
    kept_file(dir, again, sizeof again); /* read back: no file added */
    assert_string_equal(again, path);
    /* the final step would grow the probe's 50 games: measured again */
    as_revision_2(dir, path, 50);
    assert_int_equal(tu_run(NULL, &o, &e, RUN2), 0);
    assert_string_equal(o, plain);
    assert_non_null(strstr(e, "kept at revision 2, stops short of the "
                              "stopping rule's final step; chien-chacal is "
                              "not read back from it\n"));
    assert_non_null(strstr(e, path));
    free(o);
    free(e);
    free(plain);
#undef RUN2
    DIR *d = opendir(dir);
    assert_non_null(d);
    int files = 0;
    for (struct dirent *x; (x = readdir(d));)
        if (x->d_name[0] != '.') {
            char p[600];
            snprintf(p, sizeof p, "%s/%s", dir, x->d_name);
            assert_int_equal(remove(p), 0);
            files++;
        }
    closedir(d);
    assert_int_equal(files, 2); /* revision 2's, and 3's beside it */
    assert_int_equal(rmdir(dir), 0);
}

/* The verdict of figures from fewer than 100 games, which only the cap
 * leaves so: each an indication, its games shown in place of a cost and
 * named in the flags column, the penalty nothing. */
static void indications_in_verdict(void **state) {
    (void)state;
    char *o, *e;
    assert_int_equal(
        tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, NULL), 0);
    free(e);
    const char *row = strstr(o, "\n| 1 | chien-chacal | 0.00 (0.00–0.00) |");
    assert_non_null(row);
    char line[2048];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
    assert_non_null(strstr(line, " (8 games) |"));
    assert_non_null(strstr(line, " (38 games) |")); /* stopped */
    assert_non_null(strstr(line, "| 7 indications |"));
    assert_non_null(strstr(o, "a figure that the cap leaves under 100 games "
                              "is an indication"));
    free(o);
}

/* The simple strategies play as agents wherever agents are named. */
static void probes_are_agents(void **state) {
    (void)state;
    char *o, *e;
    int st =
        tu_run(NULL, &o, &e, "match", "chien-chacal", "--p1", "rearmost",
               "--p2", "safe-random", "--games", "4", "--threads", "1", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "A rearmost"));
    free(o);
    free(e);
}

static void bad_options(void **state) {
    (void)state;
    BAD("unknown ruleset", "analyze", "senet-kendall", "ur");
    BAD("md, csv or json", "analyze", "senet-kendall", "--format", "xml");
    BAD("two agents", "analyze", "senet-kendall", "--agents", "greedy");
    BAD("unknown agent", "analyze", "senet-kendall", "--agents", "greedy,x");
    BAD("--strong", "analyze", "senet-kendall", "--strong", "mcts:0");
    BAD("--ladder", "analyze", "senet-kendall", "--ladder", "greedy");
    BAD("--ladder", "analyze", "senet-kendall", "--ladder", "greedy,,best");
    BAD("--ladder", "analyze", "senet-kendall", "--ladder", "greedy,oracle");
    BAD("--precision", "analyze", "senet-kendall", "--precision", "0");
    BAD("--precision", "analyze", "senet-kendall", "--precision", "x");
    BAD("--precision", "analyze", "senet-kendall", "--precision", "0.6");
    BAD("--max-games", "analyze", "senet-kendall", "--max-games", "1");
    BAD("--sweep", "analyze", "senet-kendall", "--sweep", "lions-jackals");
    BAD("--sweep", "analyze", "senet-kendall", "--sweep",
        "lions-jackals:solid=4..2");
    BAD("--sweep", "analyze", "senet-kendall", "--sweep",
        "lions-jackals:solid=1..99");
    BAD("option", "analyze", "senet-kendall", "--sweep",
        "lions-jackals:size=1..2");
    BAD("--games", "analyze", "senet-kendall", "--games", "0");
    BAD("--check-seed", "analyze", "senet-kendall", "--check-seed", "1");
    BAD("--check-seed", "analyze", "senet-kendall", "--seed", "7",
        "--check-seed", "7");
    BAD("--check-seed", "analyze", "senet-kendall", "--check-seed", "2x");
    BAD("--check-seed", "analyze", "senet-kendall", "--check-seed", "");
    BAD("no such option", "analyze", "senet-kendall", "--options",
        "senet-kendall:size");
    BAD("unknown ruleset", "analyze", "senet-kendall", "--options", "ur");
    /* no ruleset named is the quick report, every base ruleset: its
     * options are checked before any game is played */
    BAD("md, csv or json", "analyze", "--format", "xml");
    BAD("--ladder", "analyze", "--ladder", "greedy");
    BAD("plot folder", "analyze", "chien-chacal", "--plots", "/dev/null/x");
    BAD("cannot write", "analyze", "chien-chacal", "--output", "/dev/null/x");
}

/* Perfect play where an exact table reaches: with Chien et Chacal's
 * 2-piece table, the strong self-play meets decisions in the table's
 * phase; the linear evaluation alone chooses wrongly at some (a share in
 * (0, 1]) and gives away a win chance no larger than one a wrong choice.
 * Without a table (and in the weak self-play, which measures no luck)
 * the figures are absent. */
static double json_field(const char *json, const char *key) {
    const char *p = strstr(json, key);
    if (!p)
        return -1;
    p += strlen(key);
    return strncmp(p, "null", 4) == 0 ? -2 : strtod(p, NULL);
}

static void perfect_play_in_table(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-pp-XXXXXX", *o, *e;
    assert_non_null(mkdtemp(dir));
    int st = tu_run(NULL, &o, &e, "solve", "chien-chacal", "--pieces", "2",
                    "--tables", dir, NULL);
    assert_int_equal(st, 0);
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", "--games", "30",
                "--max-games", "8", "--strong", "expectimax:200", "--ladder",
                "random,greedy", "--trace-games", "0", "--tables", dir,
                "--format", "json", NULL);
    assert_int_equal(st, 0);
    double d = json_field(o, "\"TableDecisions\":"),
           err = json_field(o, "\"LinearErrors\":"),
           loss = json_field(o, "\"LinearLoss\":");
    assert_true(d > 0);
    assert_true(err > 0 && err <= 1);
    assert_true(loss > 0 && loss <= err * d + 1e-9);
    const char *weak = strstr(o, "\"weak_play\"");
    assert_non_null(weak);
    assert_true(json_field(weak, "\"TableDecisions\":") == -2);
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", "--games", "30",
                "--max-games", "8", "--strong", "expectimax:200", "--ladder",
                "random,greedy", "--trace-games", "0", "--tables", "off",
                "--format", "json", NULL);
    assert_int_equal(st, 0);
    assert_true(json_field(o, "\"TableDecisions\":") == -2);
    free(o);
    free(e);
    char path[128];
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
}

/* --changes: Chien et Chacal measured again with each of its rules
 * changed, as many as `kemet rules chien-chacal --changes` lists; ending
 * on hole 30 by an exact count instead of any count past hole 25 (`exit
 * last-5` for `exit land-30`) more than doubles its length, a move no
 * sample misses; the same on one thread and on two; kept and read back
 * with --save; and no section without --changes. */
static void rule_changes_measured(void **state) {
    (void)state;
    char *list, *o, *o2, *e;
    assert_int_equal(
        tu_run(NULL, &list, &e, "rules", "chien-chacal", "--changes", NULL), 0);
    free(e);
    int listed = 0; /* its lines "  1  FROM  TO" */
    for (const char *l = list; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        size_t sp = strspn(l, " ");
        listed += sp > 0 && l[sp] >= '1' && l[sp] <= '9';
    }
    free(list);
    assert_true(listed > 5);
    int st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--changes",
                    "--format", "json", "--threads", "1", NULL);
    assert_int_equal(st, 0);
    free(e);
    st = tu_run(NULL, &o2, &e, "analyze", "chien-chacal", SMALL, "--changes",
                "--format", "json", "--threads", "2", NULL);
    assert_int_equal(st, 0);
    free(e);
    drop_run(o);
    drop_run(o2);
    assert_string_equal(o, o2);
    free(o2);
    const char *ch = strstr(o, "\"changes\":[");
    assert_non_null(ch);
    int n = 0;
    for (const char *p = ch; (p = strstr(p, "{\"id\":")) != NULL; p++)
        n++;
    assert_int_equal(n, listed);
    /* without tables the changes are judged as the reading is */
    assert_null(strstr(ch, "\"against_control\":true"));
    const char *exit5 = strstr(ch, "\"to\":\"exit last-5\"");
    assert_non_null(exit5);
    const char *len = strstr(exit5, "\"length\":{\"diff\":");
    assert_non_null(len);
    assert_true(strtod(len + strlen("\"length\":{\"diff\":"), NULL) > 1);
    assert_non_null(strstr(len, "\"moves\":true"));
    free(o);
    /* the report's section, and none without --changes */
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--changes",
                NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "\n## What each rule does\n"));
    assert_non_null(strstr(o, "\n| exit last-5 |"));
    assert_non_null(strstr(o, "rule changes (What each rule does)"));
    assert_non_null(strstr(o, "\n| (its own rules) |"));
    free(o);
    free(e);
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, NULL);
    assert_int_equal(st, 0);
    assert_null(strstr(o, "What each rule does"));
    free(o);
    free(e);
    /* With its endgame table and race database (made here, in a cache of
       the test's own), chien-chacal is measured with them and its changes
       without: they are compared with a control judged as they are (its
       rules, no table), never with the reading itself. */
    char cache[] = "/tmp/kemet-cache-XXXXXX";
    assert_non_null(mkdtemp(cache));
    for (int json = 0; json < 2; json++) {
        st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", "--games", "30",
                    "--strong", "expectimax:200", "--ladder",
                    "random,greedy,expectimax:200", "--trace-games", "2",
                    "--trace-base", "4", "--max-games", "8", "--changes",
                    "--tables", cache, "--format", json ? "json" : "md", NULL);
        assert_int_equal(st, 0);
        free(e);
        if (!json) {
            assert_non_null(strstr(o, "rule changes and 1 control (What each"));
            assert_non_null(strstr(o, "\n| (its own rules, no endgame "
                                      "table: the control) |"));
            free(o);
            continue;
        }
        ch = strstr(o, "\"changes\":[");
        assert_non_null(ch);
        n = 0;
        for (const char *p = ch; (p = strstr(p, "{\"id\":")) != NULL; p++)
            n++;
        assert_int_equal(n, listed); /* the control is not a change */
        assert_non_null(strstr(ch, "\"against_control\":true"));
        assert_null(strstr(ch, "\"against_control\":false"));
        free(o);
    }
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", cache);
    assert_int_equal(system(rm), 0);
    /* kept, then read back whole */
    char dir[] = "/tmp/kemet-changes-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *first;
    for (int run = 0; run < 2; run++) {
        st =
            tu_run(NULL, run ? &o : &first, &e, "analyze", "chien-chacal",
                   SMALL, "--changes", "--format", "json", "--save", dir, NULL);
        assert_int_equal(st, 0);
        free(e);
    }
    drop_run(o);
    drop_run(first);
    assert_string_equal(o, first);
    free(o);
    free(first);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Cell k (0: the first) of the table row starting at `line` ("| a | b
 * |"), trimmed, into buf. */
static void cell(const char *line, int k, char *buf, size_t size) {
    const char *c = line;
    for (int i = 0; i <= k; i++) {
        c = strchr(c, '|');
        assert_non_null(c);
        c++;
    }
    while (*c == ' ')
        c++;
    size_t n = strcspn(c, "|");
    while (n > 0 && c[n - 1] == ' ')
        n--;
    snprintf(buf, size, "%.*s", (int)n, c);
}

/* The rows of the table starting at `at` (its header line) to the blank
 * line after it: each row's cell `key` and cell `val` into id[], v[]; how
 * many. */
static int table_cells(const char *at, int key, int val, char id[][96],
                       char v[][32], int room) {
    const char *end = strstr(at, "\n\n");
    assert_non_null(end);
    int n = 0;
    for (const char *l = strchr(at + 1, '\n'); l && l < end && n < room;
         l = strchr(l + 1, '\n'))
        if (strncmp(l, "\n|---", 5) != 0) {
            cell(l + 1, key, id[n], sizeof id[n]);
            cell(l + 1, val, v[n++], sizeof v[0]);
        }
    return n;
}

/* --headroom A: each ruleset's strong agent against a stronger agent A,
 * paired and luck-adjusted; saturated where A's interval lies within
 * 0.49-0.51 (A the strong agent itself: the same moves in both seats of
 * every pair), a lower bound with the gain where A is shown stronger
 * (greedy against random); kept with --save and read back alike. */
static void headroom_measured(void **state) {
    (void)state;
    char *o, *e;
    int st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL,
                    "--headroom", "expectimax:200", NULL);
    assert_int_equal(st, 0);
    free(e);
    const char *h = strstr(o, "\n### Headroom: the strong agent against a "
                              "stronger one\n");
    assert_non_null(h);
    assert_non_null(strstr(h, "| chien-chacal | 0.500 (0.500–0.500) |"));
    assert_non_null(strstr(h, "| saturated |"));
    assert_non_null(strstr(o, "| the 1 headroom matches (expectimax:200 vs "
                              "expectimax:200) |"));
    assert_null(strstr(o, "≥")); /* saturated: no bound shown */
    free(o);
    /* a variant in the first tier of its board's readings has its own
       headroom match; one below it has none (figures of 100 games, so
       that they cost as the verdict weighs them) */
    static const char *const base[2] = {"senet-kendall",
                                        "hounds-jackals-carter"};
    static const char *const opt[2] = {"senet-kendall:homerow",
                                       "hounds-jackals-carter:board"};
    static const char *const tier[2] = {"\n| 1 | senet-kendall:homerow=1 |",
                                        "\n| 2 | hounds-jackals-carter:"
                                        "board=marked |"};
    static const char *const hrow[2] = {"\n| senet-kendall:homerow=1 | ",
                                        "\n| hounds-jackals-carter:board="
                                        "marked | "};
    for (int v = 0; v < 2; v++) {
        st = tu_run(NULL, &o, &e, "analyze", base[v], "--games", "100",
                    "--strong", "greedy", "--ladder", "random,greedy",
                    "--trace-games", "0", "--tables", "off", "--max-games",
                    "100", "--options", opt[v], "--headroom", "greedy", NULL);
        assert_int_equal(st, 0);
        free(e);
        h = strstr(o, "\n### Headroom");
        assert_non_null(h);
        assert_non_null(strstr(o, tier[v])); /* the tier the test is about */
        /* the section's table alone: to the blank line after it */
        char *end = strstr(strstr(h, "\n| ruleset |"), "\n\n");
        assert_non_null(end);
        *end = '\0';
        if (v)
            assert_null(strstr(h, hrow[v]));
        else
            assert_non_null(strstr(h, hrow[v]));
        free(o);
    }
    char dir[] = "/tmp/kemet-headroom-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *first;
    for (int run = 0; run < 2; run++) {
        st = tu_run(NULL, run ? &o : &first, &e, "analyze", "senet-bell",
                    "--games", "30", "--strong", "random", "--ladder",
                    "random,greedy", "--trace-games", "0", "--tables", "off",
                    "--max-games", "60", "--headroom", "greedy", "--save", dir,
                    NULL);
        assert_int_equal(st, 0);
        free(e);
    }
    h = strstr(o, "\n### Headroom");
    assert_non_null(h);
    const char *row = strstr(h, "\n| senet-bell | ");
    assert_non_null(row);
    double score = strtod(row + strlen("\n| senet-bell | "), NULL);
    assert_true(score > 0.6);
    assert_non_null(strstr(row, "| a lower bound: greedy gains "));
    /* and the verdict shows the skill figure as the bound it is: the
       third figure of its row in the figures table */
    const char *figs = strstr(o, "; a skill figure after ≥ is a lower "
                                 "bound, a stronger agent still gaining "
                                 "against the strong one (*Headroom*):");
    assert_non_null(figs);
    row = strstr(figs, "\n| senet-bell | ");
    assert_non_null(row);
    char skill[64];
    cell(row + 1, 3, skill, sizeof skill);
    assert_true(strncmp(skill, "≥ ", strlen("≥ ")) == 0);
    /* read back: the same report but for the time it names */
    assert_non_null(strstr(o, "were measured by earlier runs"));
    const char *a = strstr(first, "\n### Headroom"), *b = h;
    assert_non_null(a);
    size_t la = strcspn(a + 1, "#"), lb = strcspn(b + 1, "#");
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    free(o);
    free(first);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* --check-seed S: every reading measured again at seed S (a variant to
 * twice the half-width) and each board's readings judged there too. With
 * every sample at the cap (100 games), the half-width changes no sample,
 * so the tiers at seed 2 are those of a run at --seed 2 itself: each
 * reading the report lists as moved has that run's tier there, and
 * every other keeps its tier. */
static void check_seed_variants(void **state) {
    (void)state;
#define CHEAP                                                                  \
    "analyze", "senet-kendall", "--options", "senet-kendall:homerow/trap",     \
        "--games", "100", "--strong", "greedy", "--ladder", "random,greedy",   \
        "--trace-games", "0", "--tables", "off", "--max-games", "100"
    char *o, *e, *o2;
    assert_int_equal(tu_run(NULL, &o, &e, CHEAP, "--check-seed", "2", NULL), 0);
    free(e);
    assert_int_equal(tu_run(NULL, &o2, &e, CHEAP, "--seed", "2", NULL), 0);
    free(e);
#undef CHEAP
    const char *w = strstr(o, "\n## Which Senet?"),
               *w2 = strstr(o2, "\n## Which Senet?");
    assert_non_null(w);
    assert_non_null(w2);
    const char *at = strstr(w, "\n**At seed 2.** The same readings measured "
                               "again at seed 2 (`--check-seed`), the "
                               "rulesets to ±0.05 and the variants to ±0.1");
    assert_non_null(at);
    assert_non_null(strstr(o, "(measured again by this run, `--check-seed`)"));
    assert_non_null(strstr(o, "| the 4 readings at seed 2 (--check-seed) |"));
    /* each variant's evaluation is named, as each ruleset's is */
    assert_non_null(strstr(o, "\n| senet-kendall:homerow=1 | network "));
    char id[3][8][96], tier[3][8][32];
    int n =
        table_cells(strstr(w, "\n| tier | ruleset |"), 1, 0, id[0], tier[0], 8);
    int n2 = table_cells(strstr(w2, "\n| tier | ruleset |"), 1, 0, id[1],
                         tier[1], 8);
    assert_int_equal(n, 4);
    assert_int_equal(n2, 4);
    const char *list = strstr(at, "\n| ruleset | tier | at seed 2 |");
    int nm = list ? table_cells(list, 0, 2, id[2], tier[2], 8) : 0;
    if (!list)
        assert_non_null(strstr(at, "Every reading is in the same tier"));
    for (int i = 0; i < n; i++) {
        const char *want = tier[0][i];
        for (int k = 0; k < nm; k++)
            if (strcmp(id[2][k], id[0][i]) == 0)
                want = tier[2][k];
        int k = 0;
        while (k < n2 && strcmp(id[1][k], id[0][i]) != 0)
            k++;
        assert_true(k < n2);
        if (strcmp(tier[1][k], want) != 0)
            fail_msg("%s at seed 2: %s in the report, %s at --seed 2", id[0][i],
                     want, tier[1][k]);
    }
    free(o);
    free(o2);
}

/* --ludii FILE: Ludii's random-play figures beside kemet's, from the
 * summary kept in docs/analysis/ludii; a file that is not that summary is
 * refused with one line naming the file and the line, before any game. */
static void ludii_beside(void **state) {
    (void)state;
    char path[512], *o, *e;
    snprintf(path, sizeof path, "%s/docs/analysis/ludii/summary.csv",
             KEMET_SOURCE_DIR);
    int st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--ludii",
                    path, NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(o, "\n## Ludii beside kemet\n"));
    assert_non_null(strstr(o, "| Senet (Bell) | "));
    assert_non_null(strstr(o, "- Senet (Jéquier): "));
    /* the option sets are counted, not listed */
    assert_null(strstr(o, "| senet-kendall:"));
    free(o);
    free(e);
    char bad[] = "/tmp/kemet-ludii-XXXXXX";
    int fd = mkstemp(bad);
    assert_true(fd >= 0);
    char *text = tu_read_file(path);
    assert_non_null(text);
    const struct {
        const char *cut, *with, *says;
    } cases[] = {
        {"spec,", "name,", "line 1: not the summary"},
        {",yes,", ",maybe,", "line 2: not a line"},
        {"176.34", "abc", "line 2: not a line"},
        {"\"Ludii has", "\"Ludii\xff has", "line 2: not UTF-8"},
        {"\"Ludii has", "\"Ludii \xc3\xa9 has", NULL}, /* é: text */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *at = strstr(text, cases[k].cut);
        assert_non_null(at);
        FILE *f = fopen(bad, "w");
        fwrite(text, 1, (size_t)(at - text), f);
        fputs(cases[k].with, f);
        fputs(at + strlen(cases[k].cut), f);
        fclose(f);
        st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", SMALL, "--ludii",
                    bad, NULL);
        if (!cases[k].says) {
            assert_int_equal(st, 0);
        } else {
            assert_int_equal(st, 2);
            assert_string_equal(o, "");
            if (!strstr(e, cases[k].says) || !strstr(e, bad) ||
                strchr(e, '\n') != e + strlen(e) - 1)
                fail_msg("case %zu: '%s'", k, e);
        }
        free(o);
        free(e);
    }
    free(text);
    unlink(bad);
    st = tu_run(NULL, &o, &e, "analyze", "chien-chacal", "--ludii",
                "/nonexistent/summary.csv", NULL);
    assert_int_equal(st, 2);
    assert_non_null(strstr(e, "cannot be read"));
    free(o);
    free(e);
}

/* The number of characters (not bytes) of the n bytes of UTF-8 at s. */
static size_t utf8_chars(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* How often w occurs in s. */
static int occurs(const char *s, const char *w) {
    int k = 0;
    for (const char *p = s; (p = strstr(p, w)); p += strlen(w))
        k++;
    return k;
}

/* The report's form, as a historian reads it: no table row wider than
 * 160 characters; each term defined once, in the Glossary; the abstract
 * and the verdict's prose name each reading by its title, author and year
 * (a variant by what its options do, a reading of a user's file alike),
 * never by its id, which only the tables use. */
static void historians_form(void **state) {
    (void)state;
    char path[512], *o, *e;
    snprintf(path, sizeof path, "%s/tests/rulesets/plain-entry.rules",
             KEMET_SOURCE_DIR);
    int st = tu_run(NULL, &o, &e, "analyze", "senet-kendall", "chien-chacal",
                    "plain-entry", "--rules", path, SMALL, "--options",
                    "senet-kendall:pieces/start", NULL);
    assert_int_equal(st, 0);
    free(e);
    int rows = 0;
    for (const char *l = o; *l;) {
        size_t n = strcspn(l, "\n");
        if (*l == '|') {
            rows++;
            if (utf8_chars(l, n) > 160)
                fail_msg("a table row of %zu characters: %.*s",
                         utf8_chars(l, n), (int)n, l);
        }
        l += n + (l[n] == '\n');
    }
    assert_true(rows > 50);
    /* the Glossary, each term in bold there and nowhere else */
    const char *g = strstr(o, "\n## Glossary\n");
    assert_non_null(g);
    const char *gend = strstr(g + 1, "\n## ");
    assert_non_null(gend);
    const char *terms[] = {"luck-adjusted score",
                           "paired games",
                           "tier",
                           "penalty",
                           "flag",
                           "skill",
                           "tension",
                           "probes",
                           "stopped share",
                           "SkillTrace",
                           "luck share",
                           "saturated",
                           "control",
                           "games to lead"};
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) {
        char bold[64];
        snprintf(bold, sizeof bold, "**%s**", terms[i]);
        const char *at = strstr(o, bold);
        if (!at || at < g || at > gend || occurs(o, bold) != 1)
            fail_msg("'%s' is defined %d times, or not in the Glossary",
                     terms[i], occurs(o, bold));
    }
    /* the definition of skill, once */
    assert_int_equal(occurs(o, "better choices decide against the weak"), 1);
    /* the abstract and the verdict's prose, by names */
    const char *ids[] = {"senet-kendall", "chien-chacal", "plain-entry",
                         "pieces=5", "start=1"};
    const char *parts[] = {"\n## Abstract\n", "\n## Verdict\n"};
    for (int k = 0; k < 2; k++) {
        const char *a = strstr(o, parts[k]);
        assert_non_null(a);
        const char *end = strstr(a + 1, "\n## ");
        assert_non_null(end);
        for (const char *l = a + 1; l < end;) {
            size_t n = strcspn(l, "\n");
            for (size_t i = 0; *l != '|' && i < sizeof ids / sizeof ids[0];
                 i++) {
                char line[4096];
                snprintf(line, sizeof line, "%.*s", (int)n, l);
                if (strstr(line, ids[i]))
                    fail_msg("'%s' in the prose: %s", ids[i], line);
            }
            l += n + (l[n] == '\n');
        }
    }
    const char *abs = strstr(o, "\n## Abstract\n");
    const char *names[] = {"Senet (Kendall, 1979)",
                           "Chien et Chacal (a French rules sheet, author "
                           "unknown, n.d.)",
                           "Dogs & Jackals, a plain entry (kemet's tests, "
                           "after Jack Botermans, n.d.)",
                           "Senet (Kendall, 1979), varied: five pieces each"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strstr(o, names[i]))
            fail_msg("the report does not name '%s'", names[i]);
    assert_non_null(strstr(abs, "**Which Senet?** Of the 4 readings"));
    /* the tables of time and precision in appendices, after the
     * references, a line pointing to each where they stood */
    const char *ref = strstr(o, "\n## References\n");
    assert_non_null(ref);
    assert_true(strstr(o, "\n## Appendix: time\n") > ref);
    assert_true(strstr(o, "\n## Appendix: precision reached\n") > ref);
    assert_null(strstr(o, "\n## Time\n"));
    assert_null(strstr(o, "\n## Precision reached\n"));
    assert_true(strstr(o, "in *Appendix: time*") < ref);
    free(o);
}

/* Two files' bytes equal (both read whole). */
static void same_file(const char *a, const char *b) {
    char *x = tu_read_file(a), *y = tu_read_file(b);
    if (!x || !y)
        fail_msg("cannot read %s or %s", a, b);
    if (strcmp(x, y) != 0)
        fail_msg("%s and %s differ", a, b);
    free(x);
    free(y);
}

/* The program run from here on: the one without Jansson, which writes
 * the report straight from its measurement (on), or the one under test. */
static void direct(bool on) {
    static char *bin;
    if (!bin && getenv("KEMET_BIN"))
        bin = strdup(getenv("KEMET_BIN"));
    const char *d = getenv("KEMET_DIRECT_BIN");
    if (on && !d)
        fail_msg("KEMET_DIRECT_BIN is not set (the program without Jansson)");
    assert_int_equal(setenv("KEMET_BIN", on ? d : bin, 1), 0);
}

/* The report's whole data (--format json), and the report and plots
 * written from it alone (--from): the same Markdown as the program
 * without Jansson writes straight from the measurement, byte for byte
 * but for the command it names, the same plots and CSV, and the same JSON
 * again. The run has every part the report can hold but the controls
 * (which need an endgame table): two rulesets, a variant, the rule
 * changes, the headroom studies, Ludii's figures and the second seed's
 * readings and verdict. A field the report or a plot needs and the JSON lacks
 * makes them differ. */
#define JSON_RUN                                                               \
    "analyze", "chien-chacal", "lions-jackals-quick:dual=0", SMALL,            \
        "--changes", "--sweep", "lions-jackals-quick:dual=1..1", "--ludii",    \
        ludii, "--headroom", "expectimax:400", "--check-seed", "2", "--save",  \
        dir
static void json_writes_the_report(void **state) {
    (void)state;
#ifndef KEMET_TEST_JSON
    /* a build without Jansson writes the JSON but does not read it */
    TU_RUN_BAD("built without Jansson", "analyze", "--from", "r.json");
    return;
#endif
    char dir[] = "/tmp/kemet-json-XXXXXX", ludii[512], path[8][160];
    assert_non_null(mkdtemp(dir));
    snprintf(ludii, sizeof ludii, "%s/docs/analysis/ludii/summary.csv",
             KEMET_SOURCE_DIR);
    const char *name[8] = {"a.csv",  "b", "b/r.md", "b/p",
                           "r.json", "c", "c/r.md", "c/p"};
    for (int k = 0; k < 8; k++)
        snprintf(path[k], sizeof path[k], "%s/%s", dir, name[k]);
    assert_int_equal(mkdir(path[1], 0700), 0);
    assert_int_equal(mkdir(path[5], 0700), 0);
    char *o, *e;
    /* measured and kept, straight from the measurement */
    direct(true);
    assert_int_equal(tu_run(NULL, &o, &e, JSON_RUN, "--format", "csv",
                            "--output", path[0], NULL),
                     0);
    free(o);
    free(e);
    /* read back: the report, and its data */
    assert_int_equal(tu_run(NULL, &o, &e, JSON_RUN, "--output", path[2],
                            "--plots", path[3], NULL),
                     0);
    free(o);
    free(e);
    direct(false);
    assert_int_equal(tu_run(NULL, &o, &e, JSON_RUN, "--format", "json",
                            "--output", path[4], NULL),
                     0);
    free(o);
    free(e);
    char *json = tu_read_file(path[4]);
    assert_non_null(json);
    assert_true(strncmp(json, "{\n\"schema\":\"kemet-analysis 1\",", 30) == 0);
    /* from the data alone */
    assert_int_equal(tu_run(NULL, &o, &e, "analyze", "--from", path[4],
                            "--output", path[6], "--plots", path[7], NULL),
                     0);
    assert_string_equal(o, "");
    free(o);
    free(e);
    char *md = tu_read_file(path[2]), *again = tu_read_file(path[6]);
    assert_non_null(md);
    assert_non_null(again);
    const char *sections[] = {"## What each rule does",
                              "## Ludii beside kemet",
                              "## Options and variants",
                              " seed 2 |",
                              "(measured again by this run, `--check-seed`)",
                              "| the 3 readings at seed 2 (--check-seed) |",
                              "### Headroom: the strong agent against",
                              "](p/land-chien-chacal.svg)",
                              "| chien-chacal | Chien et Chacal (a French "
                              "rules sheet, author unknown, n.d.) | a rules "
                              "sheet |"};
    for (size_t k = 0; k < sizeof sections / sizeof sections[0]; k++)
        if (!strstr(md, sections[k]))
            fail_msg("the report lacks '%s'", sections[k]);
    /* the line that names the command: the JSON run's in the report
     * written from its data */
    char *l1 = strstr(md, "\nGenerated by "),
         *l2 = strstr(again, "\nGenerated");
    assert_non_null(l1);
    assert_non_null(l2);
    char *e1 = strchr(l1 + 1, '\n'), *e2 = strchr(l2 + 1, '\n');
    assert_non_null(e1);
    assert_non_null(e2);
    *e2 = '\0';
    assert_non_null(strstr(l2, "--format json --output "));
    assert_int_equal(l1 - md, l2 - again);
    assert_memory_equal(md, again, (size_t)(l1 - md));
    assert_string_equal(e1 + 1, e2 + 1);
    free(md);
    free(again);
    const char *plots[] = {"lengths.svg",
                           "advantage.svg",
                           "ladder.svg",
                           "chances.svg",
                           "land-chien-chacal.svg",
                           "land-lions-jackals-quick:dual=0.svg"};
    for (size_t k = 0; k < sizeof plots / sizeof plots[0]; k++) {
        char p1[200], p2[200];
        snprintf(p1, sizeof p1, "%s/%s", path[3], plots[k]);
        snprintf(p2, sizeof p2, "%s/%s", path[7], plots[k]);
        same_file(p1, p2);
    }
    /* the CSV of the measuring run, and the JSON again */
    assert_int_equal(tu_run(NULL, &o, &e, "analyze", "--from", path[4],
                            "--format", "csv", NULL),
                     0);
    char *csv = tu_read_file(path[0]);
    assert_non_null(csv);
    assert_string_equal(o, csv);
    free(csv);
    free(o);
    free(e);
    assert_int_equal(tu_run(NULL, &o, &e, "analyze", "--from", path[4],
                            "--format", "json", NULL),
                     0);
    assert_string_equal(o, json);
    free(o);
    free(e);
    free(json);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A file that is not a report's data is refused with one line naming
 * the file and what is wrong, exit status 2, never a crash: cut short,
 * not JSON, not UTF-8, another schema, a field missing, one too many, of
 * the wrong type or out of range, an index that points nowhere, an id
 * that would name a file elsewhere, nested too deep, too large. */
static void json_refused(void **state) {
    (void)state;
#ifndef KEMET_TEST_JSON
    return; /* nothing is read (json_writes_the_report) */
#endif
    char *json, *err;
    int rc = tu_run(NULL, &json, &err, "analyze", "chien-chacal", SMALL,
                    "--format", "json", NULL);
    assert_int_equal(rc, 0);
    free(err);
    char bad[] = "/tmp/kemet-json-bad-XXXXXX";
    int fd = mkstemp(bad);
    assert_true(fd >= 0);
    close(fd);
    size_t len = strlen(json);
    const struct {
        const char *cut, *with, *says;
    } cases[] = {
        {NULL, NULL, "not JSON"}, /* cut short */
        {"{\n\"schema\"", "[{\"schema\"", "not JSON"},
        {"\"schema\":\"kemet-analysis 1\"", "\"schema\":\"kemet-analysis 2\"",
         "not a report's data of schema"},
        {"\"title\":\"Chien",
         "\"title\":\"\xff"
         "Chien",
         "not JSON"},
        {"\"sd_turns\":", "\"sd_turn\":",
         "rulesets[0].strong_play.sd_turns: missing"},
        {"{\"ruleset\":\"chien-chacal\",",
         "{\"ruleset\":\"chien-chacal\",\"extra\":1,",
         "rulesets[0]: no field 'extra'"},
        {"\"games\":8,", "\"games\":\"8\",",
         "rulesets[0].strong_play.games: not an integer"},
        {"\"games\":8,", "\"games\":-8,",
         "rulesets[0].strong_play.games: -8 is out of range"},
        {"\"place\":1", "\"place\":7", "rulesets: the verdict's places"},
        {"\"place\":1", "\"place\":0",
         "rulesets[0].verdict.strong.judged."
         "place: 0 is out of range"},
        {"\"ruleset\":\"chien-chacal\"", "\"ruleset\":\"../chien\"",
         "rulesets[0].ruleset: not a ruleset's id"},
        {"\"kind\":\"ruleset\"", "\"kind\":\"change\"",
         "rulesets[0].change: null for a rule change"},
        {"\"kind\":\"ruleset\"", "\"kind\":\"check\"",
         "rulesets[0].check_of: null for a reading measured at the second "
         "seed"},
        {"\"check_seed\":null", "\"check_seed\":\"2\"",
         "rulesets: a check_seed, but no readings measured there"},
        {"\"check_seed\":null", "\"check_seed\":\"2x\"",
         "settings.check_seed: not a seed"},
        {"\"max_games\":8", "\"max_games\":8,\"max_games\":9", "not JSON"},
        {"\"trace_base\":4", "\"trace_base\":1000000",
         "settings.trace_base: 1000000 is out of range"},
        {"\"land\":[", "\"land\":[0,",
         "rulesets[0].strong_play.land: 128 "
         "elements, not 129"},
        {"\"value\":", "\"value\":\"x\",\"v\":",
         "not a number, null, \"inf\" or \"-inf\""},
        {"\"result\":2", "\"result\":4", "result: 4 is out of range"},
        {"\"upper\":\"greedy\"", "\"upper\":\"<script>\"",
         "rulesets[0].ladder[0].step.upper: a '<'"},
        /* read: a sample game drawn, or stopped by the turn cap (0) */
        {"\"result\":2", "\"result\":3", NULL},
        {"\"result\":2", "\"result\":0", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        FILE *f = fopen(bad, "w");
        assert_non_null(f);
        if (!cases[k].cut)
            fwrite(json, 1, len / 2, f);
        else {
            char *at = strstr(json, cases[k].cut);
            if (!at)
                fail_msg("case %zu: no '%s'", k, cases[k].cut);
            fwrite(json, 1, (size_t)(at - json), f);
            fputs(cases[k].with, f);
            fputs(at + strlen(cases[k].cut), f);
        }
        fclose(f);
        char *o;
        rc = tu_run(NULL, &o, &err, "analyze", "--from", bad, NULL);
        if (!cases[k].says) {
            if (rc != 0 || !strstr(o, "\n## Verdict\n"))
                fail_msg("case %zu: status %d, '%s'", k, rc, err);
        } else if (rc != 2 || o[0] || !strstr(err, cases[k].says) ||
                   strncmp(err, "kemet: ", 7) != 0 ||
                   strncmp(err + 7, bad, strlen(bad)) != 0 ||
                   strchr(err, '\n') != err + strlen(err) - 1)
            fail_msg("case %zu: status %d, '%s'", k, rc, err);
        free(o);
        free(err);
    }
    free(json);
    /* nested too deep for the parser, empty, too large (a sparse file),
     * not a file */
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    for (int k = 0; k < 100000; k++)
        fputc('[', f);
    fclose(f);
    TU_RUN_BAD("not JSON", "analyze", "--from", bad);
    f = fopen(bad, "w");
    assert_non_null(f);
    fclose(f);
    TU_RUN_BAD("not JSON", "analyze", "--from", bad);
    assert_int_equal(truncate(bad, (off_t)(257L << 20)), 0);
    TU_RUN_BAD("larger than 256 MiB", "analyze", "--from", bad);
    unlink(bad);
    TU_RUN_BAD("cannot be read", "analyze", "--from", bad);
    TU_RUN_BAD("cannot be read", "analyze", "--from", "/tmp");
    /* --from writes a report; it measures nothing */
    TU_RUN_BAD("no RULESET", "analyze", "chien-chacal", "--from", bad);
    TU_RUN_BAD("--changes has no effect with --from", "analyze", "--from", bad,
               "--changes");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_options),
        cmocka_unit_test(probes_are_agents),
        cmocka_unit_test(same_on_any_thread_count),
        cmocka_unit_test(sweep_equals_separate_runs),
        cmocka_unit_test(options_and_boards),
        cmocka_unit_test(contradiction_flagged),
        cmocka_unit_test(skill_is_the_edge),
        cmocka_unit_test(median_beyond_the_cap),
        cmocka_unit_test(precision_sizes_samples),
        cmocka_unit_test(report_and_plots),
        cmocka_unit_test(kept_measurements),
        cmocka_unit_test(kept_revision_2),
        cmocka_unit_test(indications_in_verdict),
        cmocka_unit_test(rule_changes_measured),
        cmocka_unit_test(headroom_measured),
        cmocka_unit_test(check_seed_variants),
        cmocka_unit_test(ludii_beside),
        cmocka_unit_test(agents_and_units_stated),
        cmocka_unit_test(race_skill_explained),
        cmocka_unit_test(perfect_play_in_table),
        cmocka_unit_test(historians_form),
        cmocka_unit_test(json_writes_the_report),
        cmocka_unit_test(json_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
