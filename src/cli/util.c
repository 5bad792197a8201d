/* util.c - option parsing, messages, files and the words for events.
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int cli_fail(const char *fmt, ...) {
    va_list ap;
    fputs("kemet: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return EXIT_BAD;
}

int cli_parse_u64(const char *s, uint64_t *out) {
    if (!*s)
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* The --tables option of the commands that use tables (not solve's,
 * which makes them): a folder named must be there, since nothing makes
 * one it was not asked to make. True after a message when it is not. */
static bool tables_missing(const char *val) {
    if (strcmp(val, "on") == 0 || strcmp(val, "off") == 0 ||
        strcmp(val, "race") == 0)
        return false;
    struct stat st;
    if (stat(val, &st) != 0) {
        cli_fail("--tables: there is no folder '%.200s' ('kemet solve RULESET "
                 "--tables DIR' makes tables there; off: none)",
                 val);
        return true;
    }
    if (!S_ISDIR(st.st_mode)) {
        cli_fail("--tables: '%.200s' is not a folder", val);
        return true;
    }
    return false;
}

static int set_opt(const cli_opt *o, const char *val) {
    switch (o->kind) {
    case OPT_FLAG: *(bool *)o->out = true; return 0;
    case OPT_STRING:
        if (!*val)
            return cli_fail("--%s needs a value", o->name);
        if (o->out == &cli_tables && tables_missing(val))
            return EXIT_BAD;
        *(const char **)o->out = val;
        return 0;
    case OPT_U64:
        if (cli_parse_u64(val, (uint64_t *)o->out))
            return cli_fail("--%s must be a non-negative whole number, not "
                            "'%.40s'",
                            o->name, val);
        return 0;
    case OPT_LONG: {
        uint64_t v;
        if (cli_parse_u64(val, &v) || v < (uint64_t)o->min ||
            v > (uint64_t)o->max)
            return cli_fail("--%s must be a whole number from %ld to %ld, "
                            "not '%.40s'",
                            o->name, o->min, o->max, val);
        *(long *)o->out = (long)v;
        return 0;
    }
    }
    return EXIT_BAD;
}

int cli_parse(int argc, char **argv, const cli_opt *opts, const char **pos,
              int min_pos, int max_pos, int *npos, const char *usage) {
    int n = 0;
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!dashdash && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            fputs(usage, stdout);
            return 1;
        }
        if (!dashdash && strcmp(a, "--") == 0) {
            dashdash = true;
            continue;
        }
        if (!dashdash && a[0] == '-' && a[1] == '-') {
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            const cli_opt *o = NULL;
            for (int k = 0; opts && opts[k].name; k++)
                if (strlen(opts[k].name) == len &&
                    memcmp(opts[k].name, name, len) == 0)
                    o = &opts[k];
            if (!o && len == 5 && memcmp(name, "rules", 5) == 0) {
                /* --rules FILE: every command that names a ruleset may
                 * name the file's (docs/rulesets.md). */
                const char *path =
                    eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
                if (!path || !*path)
                    return cli_fail("--rules needs a file");
                if (cli_rules_load(path))
                    return EXIT_BAD;
                continue;
            }
            if (!o)
                return cli_fail("%s: unknown option '--%.*s' (see 'kemet %s "
                                "--help')",
                                argv[0], (int)(len > 40 ? 40 : len), name,
                                argv[0]);
            const char *val;
            if (o->kind == OPT_FLAG) {
                if (eq)
                    return cli_fail("--%s takes no value", o->name);
                val = "";
            } else if (eq) {
                val = eq + 1;
            } else {
                if (i + 1 >= argc)
                    return cli_fail("--%s needs a value", o->name);
                val = argv[++i];
            }
            if (set_opt(o, val))
                return EXIT_BAD;
            continue;
        }
        if (!dashdash && a[0] == '-' && a[1] != '\0' &&
            !(a[1] >= '0' && a[1] <= '9'))
            return cli_fail("%s: unknown option '%.40s' (see 'kemet %s "
                            "--help')",
                            argv[0], a, argv[0]);
        if (n >= max_pos)
            return cli_fail("%s: unexpected argument '%.40s' (see 'kemet %s "
                            "--help')",
                            argv[0], a, argv[0]);
        pos[n++] = a;
    }
    if (n < min_pos)
        return cli_fail("%s: missing argument (see 'kemet %s --help')", argv[0],
                        argv[0]);
    *npos = n;
    return 0;
}

/* The rest of the text file f (at most `limit` bytes), which it closes;
 * NULL after a message naming `path`. */
static char *read_all(FILE *f, const char *path, size_t limit);

/* Opens `path` for reading if it is a regular file; NULL after a message
 * if it is not (a FIFO would wait for a writer for ever, a device never
 * end) or cannot be opened. */
static FILE *open_regular(const char *path) {
    /* O_NONBLOCK: opening a FIFO does not wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        cli_fail("cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    const char *kind = NULL;
    if (fstat(fd, &st) != 0)
        kind = "a file that cannot be examined";
    else if (S_ISDIR(st.st_mode))
        kind = "a folder";
    else if (S_ISFIFO(st.st_mode))
        kind = "a FIFO";
    else if (S_ISSOCK(st.st_mode))
        kind = "a socket";
    else if (!S_ISREG(st.st_mode))
        kind = "a device";
    FILE *f = kind ? NULL : fdopen(fd, "rb");
    if (!f) {
        close(fd);
        if (kind)
            cli_fail("%s: not a regular file (%s)", path, kind);
        else
            cli_fail("cannot open '%s': %s", path, strerror(errno));
    }
    return f;
}

int cli_board_text(const char *path, char **text) {
    *text = NULL;
    if (!path)
        return 0;
    FILE *f = open_regular(path);
    *text = f ? read_all(f, path, 1 << 20) : NULL;
    return *text ? 0 : EXIT_BAD;
}

/* The ruleset files given with --rules (several for serve, engine and
 * rules; the first for the commands that read one): path, text and id. */
#define RULES_FILES 16
static struct {
    char *text;
    char path[256];
    char id[48];
} rules_file[RULES_FILES];
static int rules_files;

static void rules_file_free(void) {
    for (int i = 0; i < rules_files; i++)
        free(rules_file[i].text);
    rules_files = 0;
}

/* A ruleset file's text (caller frees), or NULL after a message. Its
 * problems are told as the library tells the others, "PATH: rules file
 * line N: ...": a NUL byte here (the library reads text up to its NUL),
 * a file past the limit by the library (given one byte more). */
static char *read_rules(const char *path) {
    enum { LIMIT = 256 * 1024 };
    FILE *f = open_regular(path);
    if (!f)
        return NULL;
    char *buf = malloc(LIMIT + 2);
    size_t n = buf ? fread(buf, 1, LIMIT + 1, f) : 0;
    bool failed = ferror(f);
    fclose(f);
    if (!buf) {
        cli_fail("out of memory reading '%s'", path);
        return NULL;
    }
    if (failed) {
        free(buf);
        cli_fail("cannot read '%s'", path);
        return NULL;
    }
    const char *nul = memchr(buf, '\0', n);
    if (nul) {
        size_t line = 1;
        for (const char *c = buf; c < nul; c++)
            line += *c == '\n';
        free(buf);
        cli_fail("%s: rules file line %zu: not text (a NUL byte)", path, line);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

/* The line of a ruleset file's `id` statement (the library checked that
 * there is one), for a problem with the id that only the program sees. */
static int id_line(const char *text) {
    int line = 1;
    for (const char *s = text; *s; line++) {
        s += strspn(s, " \t");
        if (strncmp(s, "id", 2) == 0 && (s[2] == ' ' || s[2] == '\t'))
            return line;
        s += strcspn(s, "\n");
        s += *s == '\n';
    }
    return 1;
}

int cli_rules_load(const char *path) {
    if (rules_files == RULES_FILES)
        return cli_fail("--rules is given at most %d times", RULES_FILES);
    char *text = read_rules(path);
    if (!text)
        return EXIT_BAD;
    kemet_rules *r;
    kemet_error err;
    if (kemet_rules_open_text(text, NULL, NULL, &r, &err)) {
        free(text);
        return cli_fail("%s: %s", path, err.msg);
    }
    const char *id = kemet_rules_info(r)->id;
    for (int i = 0; i < rules_files; i++)
        if (strcmp(rules_file[i].id, id) == 0) {
            int rc = cli_fail("%s: rules file line %d: the id '%s' is %s's "
                              "already; give each file an id of its own",
                              path, id_line(text), id, rules_file[i].path);
            kemet_rules_close(r);
            free(text);
            return rc;
        }
    snprintf(rules_file[rules_files].id, sizeof rules_file[0].id, "%s", id);
    kemet_rules_close(r);
    snprintf(rules_file[rules_files].path, sizeof rules_file[0].path, "%s",
             path);
    rules_file[rules_files].text = text;
    if (rules_files++ == 0)
        atexit(rules_file_free);
    return 0;
}

/* The file whose ruleset `spec` names (by its id), or -1. */
static int rules_file_of(const char *spec) {
    if (!spec)
        return -1;
    size_t len = strcspn(spec, ": \t");
    for (int i = 0; i < rules_files; i++)
        if (strlen(rules_file[i].id) == len &&
            memcmp(spec, rules_file[i].id, len) == 0)
            return i;
    return -1;
}

const char *cli_rules_text_for(const char *spec) {
    int i = rules_file_of(spec);
    return i < 0 ? NULL : rules_file[i].text;
}

const char *cli_rules_text(void) {
    return rules_files ? rules_file[0].text : NULL;
}

const char *cli_rules_path(void) {
    return rules_files ? rules_file[0].path : NULL;
}

int cli_rules_count(void) {
    return rules_files;
}

const char *cli_rules_text_at(int i) {
    return i >= 0 && i < rules_files ? rules_file[i].text : NULL;
}

const char *cli_rules_path_at(int i) {
    return i >= 0 && i < rules_files ? rules_file[i].path : NULL;
}

size_t cli_rules_file_named(const char *spec) {
    static const char ext[] = ".rules";
    size_t e = sizeof ext - 1, n = strlen(spec);
    if (cli_rules_text_for(spec))
        return 0; /* a file's id */
    if (n > e && strcmp(spec + n - e, ext) == 0)
        return n;
    const char *colon = strrchr(spec, ':');
    size_t at = colon ? (size_t)(colon - spec) : 0;
    return at > e && memcmp(spec + at - e, ext, e) == 0 ? at : 0;
}

kemet_rules *cli_rules(const char *spec, const char *board) {
    kemet_rules *r;
    kemet_error err;
    char *text;
    /* A path to a ruleset file where a ruleset is named, with options
     * after it or not: read as the file's id with those options. */
    size_t n = cli_rules_file_named(spec);
    char path[sizeof rules_file[0].path], named[sizeof rules_file[0].id + 160];
    if (n) {
        if (n >= sizeof path) {
            cli_fail("'%.60s...': too long a path for a ruleset file", spec);
            return NULL;
        }
        memcpy(path, spec, n);
        path[n] = '\0';
        int k = 0;
        while (k < rules_files && strcmp(path, rules_file[k].path) != 0)
            k++;
        if (k == rules_files && cli_rules_load(path))
            return NULL;
        snprintf(named, sizeof named, "%s%.150s", rules_file[k].id, spec + n);
        spec = named;
    }
    if (cli_board_text(board, &text))
        return NULL;
    const char *rtext = cli_rules_text_for(spec);
    int rc = rtext ? kemet_rules_open_text(rtext, spec, text, &r, &err)
                   : kemet_rules_open_board(spec, text, &r, &err);
    free(text);
    if (rc) {
        if (board && strncmp(err.msg, "board", 5) == 0)
            cli_fail("%s: %s", board, err.msg);
        else if (rtext && strncmp(err.msg, "rules file", 10) == 0)
            cli_fail("%s: %s", rules_file[rules_file_of(spec)].path, err.msg);
        else
            cli_fail("%s", err.msg);
        return NULL;
    }
    return r;
}

int cli_pos_parse(const char *text, const char *board_text, kemet_rules **r,
                  kemet_pos *pos, kemet_error *err) {
    while (*text == ' ' || *text == '\t')
        text++;
    return kemet_pos_parse_text(text, cli_rules_text_for(text), board_text, r,
                                pos, err);
}

char *cli_read_file(const char *path, size_t limit) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_fail("cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        cli_fail("'%s' is a folder, not a file", path);
        return NULL;
    }
    return read_all(f, path, limit);
}

static char *read_all(FILE *f, const char *path, size_t limit) {
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t k = fread(buf + len, 1, cap - len, f);
        len += k;
        if (len < cap)
            break;
        if (cap >= limit) {
            free(buf);
            fclose(f);
            cli_fail("'%s' is larger than %zu bytes", path, limit);
            return NULL;
        }
        cap *= 2;
        char *nb = realloc(buf, cap + 1);
        if (!nb)
            free(buf);
        buf = nb;
    }
    bool err = ferror(f);
    fclose(f);
    if (!buf) {
        cli_fail("out of memory reading '%s'", path);
        return NULL;
    }
    if (err) {
        free(buf);
        cli_fail("cannot read '%s'", path);
        return NULL;
    }
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) {
        size_t line = 1;
        for (char *p = buf; *p; p++)
            line += *p == '\n';
        free(buf);
        cli_fail("'%s' line %zu: not text (a NUL byte)", path, line);
        return NULL;
    }
    return buf;
}

int cli_read_line(char *buf, size_t len) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        return CLI_LINE_END;
    }
    size_t k = (size_t)n;
    while (k && isspace((unsigned char)line[k - 1]))
        k--;
    size_t i = 0;
    while (i < k && isspace((unsigned char)line[i]))
        i++;
    int rc = CLI_LINE_OK;
    if (k - i >= len) {
        printf("  Too long a line (%zu characters, at most %zu): nothing was "
               "done.\n",
               k - i, len - 1);
        rc = CLI_LINE_BAD;
    } else if (memchr(line + i, '\0', k - i)) {
        printf("  A NUL byte in the line: nothing was done.\n");
        rc = CLI_LINE_BAD;
    } else {
        for (size_t j = i; j < k; j++)
            if (iscntrl((unsigned char)line[j]) && line[j] != '\t') {
                printf("  Control characters in the line (an arrow key?): "
                       "nothing was done.\n");
                rc = CLI_LINE_BAD;
                break;
            }
    }
    if (rc == CLI_LINE_OK) {
        memcpy(buf, line + i, k - i);
        buf[k - i] = '\0';
    } else
        buf[0] = '\0';
    free(line);
    return rc;
}

int cli_yes_no(const char *question) {
    for (;;) {
        printf("%s y/n> ", question);
        fflush(stdout);
        char answer[16];
        int rc = cli_read_line(answer, sizeof answer);
        if (rc == CLI_LINE_END)
            return -1;
        for (char *c = answer; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (strcmp(answer, "y") == 0 || strcmp(answer, "yes") == 0)
            return 1;
        if (strcmp(answer, "n") == 0 || strcmp(answer, "no") == 0)
            return 0;
        if (rc == CLI_LINE_OK)
            printf("  Please answer y (yes) or n (no).\n");
    }
}

bool cli_number(const char *line, long *value) {
    const char *d = line + (*line == '-' || *line == '+');
    if (!*d || strspn(d, "0123456789") != strlen(d))
        return false;
    errno = 0;
    *value = strtol(line, NULL, 10);
    return true; /* out of range: strtol gave LONG_MAX or LONG_MIN */
}

/* cli_wrap_hang; with `keep` a run of spaces within a line is kept (a
 * table's columns), else each is one space. The lines written. */
static int wrap(FILE *out, const char *text, int width, int indent, int hang,
                bool keep) {
    int col = 0, gap = 1, lines = 0;
    bool first = true; /* on the text's first line: `indent`, else `hang` */
    for (const char *s = text; *s;) {
        if (*s == '\n') {
            fputc('\n', out);
            lines++;
            col = 0;
            first = true;
            s++;
            continue;
        }
        if (*s == ' ') {
            size_t run = strspn(s, " ");
            gap = keep ? (int)run : 1;
            s += run;
            continue;
        }
        size_t w = strcspn(s, " \n");
        int chars = 0;
        for (size_t i = 0; i < w; i++)
            chars += ((unsigned char)s[i] & 0xC0) != 0x80;
        if (col == 0 || col + gap + chars > width) {
            if (col) {
                fputc('\n', out);
                lines++;
            }
            int in = col == 0 && first ? indent : hang;
            fprintf(out, "%*s", in, "");
            col = in;
            first = false;
        } else {
            fprintf(out, "%*s", gap, "");
            col += gap;
        }
        gap = 1;
        for (size_t i = 0; i < w; i++)
            fputc(s[i] == CLI_NBSP ? ' ' : s[i], out);
        col += chars;
        s += w;
    }
    if (col) {
        fputc('\n', out);
        lines++;
    }
    return lines;
}

int cli_wrap_hang(FILE *out, const char *text, int width, int indent,
                  int hang) {
    return wrap(out, text, width, indent, hang, false);
}

int cli_wrap(FILE *out, const char *text, int width, int indent) {
    return cli_wrap_hang(out, text, width, indent, indent);
}

int cli_say(FILE *out, int indent, int hang, const char *fmt, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return wrap(out, buf, cli_text_width(out), indent, hang, true);
}

static struct {
    pthread_t tid;
    atomic_bool stop;
    bool on;
    char what[72];
    double t0;
} busy;

static void *busy_main(void *arg) {
    (void)arg;
    int shown = 0; /* the width of what is on the line */
    double last = 0;
    while (!atomic_load(&busy.stop)) {
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
        double t = cli_now() - busy.t0;
        if (t >= 1.0 && t - last >= 1.0) {
            int k = fprintf(stderr, "\r  %s... %.0f s ", busy.what, t);
            if (k - 1 > shown)
                shown = k - 1;
            last = t;
        }
    }
    if (shown) /* wiped: nothing is left on the screen */
        fprintf(stderr, "\r%*s\r", shown, "");
    return NULL;
}

void cli_busy_start(const char *fmt, ...) {
    if (busy.on || !isatty(2))
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(busy.what, sizeof busy.what, fmt, ap);
    va_end(ap);
    busy.t0 = cli_now();
    atomic_store(&busy.stop, false);
    busy.on = pthread_create(&busy.tid, NULL, busy_main, NULL) == 0;
}

void cli_busy_end(void) {
    if (!busy.on)
        return;
    atomic_store(&busy.stop, true);
    pthread_join(busy.tid, NULL);
    busy.on = false;
}

double cli_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool cli_plural(const char *name) {
    size_t n = strlen(name);
    return n > 0 && name[n - 1] == 's';
}

int cli_describe(const kemet_rules *rules, const kemet_events *ev, FILE *out) {
    char text[KEMET_DESCRIBE_MAX];
    if (kemet_describe(rules, ev, text, sizeof text) > 0)
        return cli_wrap(out, text, cli_text_width(out),
                        2); /* to the terminal */
    return 0;
}

void cli_rules_byline(const kemet_info *info, char *buf, size_t len) {
    int n;
    if (info->year)
        n = snprintf(buf, len, "%s, %d. %s", info->author, info->year,
                     info->about);
    else
        n = snprintf(buf, len, "%s, year not given. %s", info->author,
                     info->about);
    if (n > 0 && buf[0] >= 'a' && buf[0] <= 'z')
        buf[0] = (char)(buf[0] - 'a' + 'A'); /* "a French rules sheet" */
}

int cli_record_resigned(const char *text, char *board, size_t len) {
    kemet_rules *r;
    kemet_pos end, pos;
    kemet_ply *plies;
    long n;
    kemet_error err;
    if (kemet_replay_text(text, cli_rules_text(), &end, NULL, 0, NULL, &err) ||
        kemet_result(&end) == KEMET_PLAYING ||
        kemet_record_read_text(text, cli_rules_text(), &r, &pos, &plies, &n,
                               &err))
        return 0;
    for (long i = 0; i < n; i++) {
        kemet_pos next;
        kemet_apply(r, &pos, plies[i].thr.n ? &plies[i].thr : NULL,
                    &plies[i].move, &next, NULL);
        pos = next;
    }
    free(plies);
    int resigned = 0;
    if (kemet_result(&pos) == KEMET_PLAYING) {
        resigned = kemet_result(&end) == KEMET_WON1 ? 2 : 1;
        if (board)
            kemet_pos_format(r, &pos, board, len);
    }
    kemet_rules_close(r);
    return resigned;
}
