/* rulefile.c - ruleset files: a reconstruction as data over the parts of
 * a family's move generator (format in docs/rulesets.md).
 *
 * A file is text, one statement per line: a name, then words. The
 * statements every ruleset has (its id, family, words for the player,
 * options) are read here; the rest are the family's parts, which the
 * family reads when the ruleset is opened (senet.c, h58.c, track.c) with
 * the helpers below, each once. Nothing here runs while a game is played.
 * Every problem is reported as "rules file line N: ...": a statement
 * every file has that is missing on the first statement's line, a part
 * the family needs that is missing on the `family` line (kmt_rf_finish,
 * which also puts there any problem a family reports without a line).
 */
#include "internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest line and whole file a ruleset file may have. */
#define LINE_MAX_BYTES 2000
#define FILE_MAX_BYTES (256 * 1024)

static int bad(kemet_error *err, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int bad(kemet_error *err, int line, const char *fmt, ...) {
    char msg[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        return kmt_fail(err, KEMET_ESYNTAX, "rules file line %d: %s", line,
                        msg);
    return kmt_fail(err, KEMET_ESYNTAX, "rules file: %s", msg);
}

/* The length of the UTF-8 sequence at s (at most n bytes), or 0 when it is
 * not one (overlong forms, surrogates and values past U+10FFFF included). */
static size_t utf8_len(const unsigned char *s, size_t n) {
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned min, v;
    if ((c & 0xe0) == 0xc0)
        len = 2, min = 0x80, v = c & 0x1f;
    else if ((c & 0xf0) == 0xe0)
        len = 3, min = 0x800, v = c & 0x0f;
    else if ((c & 0xf8) == 0xf0)
        len = 4, min = 0x10000, v = c & 0x07;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    return len;
}

/* Checks the text: UTF-8, no control characters but tabs and line ends,
 * lines of a bounded length. */
static int check_text(const char *text, size_t n, kemet_error *err) {
    const unsigned char *s = (const unsigned char *)text;
    int line = 1;
    size_t col = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '\n') {
            line++, col = 0, i++;
            continue;
        }
        if (s[i] < 0x20 && s[i] != '\t' && s[i] != '\r')
            return bad(err, line, "a control character (byte 0x%02x)", s[i]);
        if (s[i] == 0x7f)
            return bad(err, line, "a control character (byte 0x7f)");
        size_t k = utf8_len(s + i, n - i);
        if (!k)
            return bad(err, line, "not UTF-8 text");
        i += k;
        if ((col += k) > LINE_MAX_BYTES)
            return bad(err, line, "longer than %d bytes", LINE_MAX_BYTES);
    }
    return KEMET_OK;
}

/* Splits the line s (NUL-terminated, in f->buf) into words. */
static int split(char *s, int line, kmt_part *p, kemet_error *err) {
    p->line = line;
    p->argc = 0;
    p->used = false;
    p->off = false;
    p->guard = NULL;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#') {
            /* "if KEY=VALUE,... PART WORDS": a part under a guard */
            if (p->argc && strcmp(p->argv[0], "if") == 0) {
                if (p->argc < 3 || !strchr(p->argv[1], '='))
                    return bad(err, line,
                               "write 'if KEY=VALUE[,KEY=VALUE...] PART "
                               "WORDS...'");
                p->guard = p->argv[1];
                p->argc -= 2;
                memmove(p->argv, p->argv + 2,
                        (size_t)p->argc * sizeof p->argv[0]);
            }
            return KEMET_OK;
        }
        if (p->argc == KMT_RF_WORDS)
            return bad(err, line, "more than %d words", KMT_RF_WORDS - 1);
        p->argv[p->argc++] = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (*s)
            *s++ = '\0';
    }
}

/* The rest of the line after the statement's name, spaces trimmed; NULL
 * when empty. */
static const char *rest_of(char *s, size_t namelen) {
    s += namelen;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return n ? s : NULL;
}

static bool is_id(const char *s) {
    size_t n = strlen(s);
    if (n < 2 || n > 40 || s[0] == '-' || s[n - 1] == '-')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '-'))
            return false;
    return true;
}

static bool is_name(const char *s) {
    size_t n = strlen(s);
    if (n < 1 || n > 20)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
              c == '\''))
            return false;
    }
    return true;
}

/* A number of at most 4 digits. */
static int num(const char *w, int *v) {
    return kmt_read_num(w, strlen(w), v);
}

/* The edits of one letter (one put in, left out or changed, or two
 * neighbours swapped) that turn a into b; 99 for words longer than 40. */
static int distance(const char *a, const char *b) {
    size_t m = strlen(a), n = strlen(b);
    if (m > 40 || n > 40)
        return 99;
    int d[41][41];
    for (size_t i = 0; i <= m; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= n; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= m; i++)
        for (size_t j = 1; j <= n; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
                c = d[i - 2][j - 2] + 1;
            d[i][j] = c;
        }
    return d[m][n];
}

/* Whether `word` looks like a misspelling of the statement `name`: one
 * edit away from a name of up to 4 letters, two from a longer one. */
static bool alike(const char *word, const char *name) {
    int d = distance(word, name);
    return d > 0 && d <= (strlen(name) <= 4 ? 1 : 2);
}

/* The first part not read that looks like a misspelling of `name`. */
static const kmt_part *misspelt(const kmt_rulefile *f, const char *name) {
    for (int i = 0; i < f->nparts; i++)
        if (!f->part[i].used && alike(f->part[i].argv[0], name))
            return &f->part[i];
    return NULL;
}

/* The statements every ruleset file has, read here (the others are the
 * family's parts). Text statements take the rest of the line. */
enum { T_TEXT, T_WORDS };
static const struct {
    const char *name;
    int kind;
    bool required;
    size_t off; /* where it goes in kmt_rulefile (T_TEXT) */
} common[] = {
    {"id", T_WORDS, true, 0},
    {"family", T_WORDS, true, 0},
    {"title", T_TEXT, true, offsetof(kmt_rulefile, title)},
    {"author", T_TEXT, true, offsetof(kmt_rulefile, author)},
    {"year", T_WORDS, false, 0},
    {"about", T_TEXT, true, offsetof(kmt_rulefile, about)},
    {"source", T_TEXT, false, offsetof(kmt_rulefile, source)},
    {"players", T_WORDS, true, 0},
    {"gone", T_TEXT, false, offsetof(kmt_rulefile, gone)},
    {"in-hand", T_TEXT, false, offsetof(kmt_rulefile, in_hand)},
    {"board", T_WORDS, false, 0},
    {"text", T_TEXT, true, 0},
    {"option", T_WORDS, false, 0},
    {"levels", T_WORDS, false, 0},
    {"source-kind", T_WORDS, false, 0},
    {"reference", T_TEXT, false, 0},
};
enum { NCOMMON = sizeof common / sizeof common[0] };

static int common_index(const char *name, size_t len) {
    for (int i = 0; i < NCOMMON; i++)
        if (strlen(common[i].name) == len &&
            memcmp(common[i].name, name, len) == 0)
            return i;
    return -1;
}

bool kmt_rf_common(const char *name, size_t len) {
    return common_index(name, len) >= 0;
}

/* The kinds of source a reading's rules come from (`source-kind`), and
 * how they are said. */
static const char *const source_kinds[][2] = {
    {"scholarly", "a scholarly publication"},
    {"game-book", "a book of games or a game's rule book"},
    {"rules-sheet", "a rules sheet"},
    {"web-page", "a web page"},
    {"web-comment", "a comment under a web page"},
    {"ludii", "a Ludii ruleset that names no source"},
    {"kemet-board", "a board kemet drew"},
};

static int read_source_kind(kmt_rulefile *f, const kmt_part *p,
                            kemet_error *err) {
    enum { NKINDS = sizeof source_kinds / sizeof source_kinds[0] };
    if (p->argc < 2 || p->argc > 4)
        return bad(err, p->line,
                   "write 'source-kind KIND' with one to three of: "
                   "scholarly, game-book, rules-sheet, web-page, "
                   "web-comment, ludii, kemet-board");
    size_t at = 0;
    for (int i = 1; i < p->argc; i++) {
        int k = 0;
        while (k < NKINDS && strcmp(source_kinds[k][0], p->argv[i]) != 0)
            k++;
        if (k == NKINDS)
            return bad(err, p->line,
                       "'%.20s' is not a kind of source (scholarly, "
                       "game-book, rules-sheet, web-page, web-comment, "
                       "ludii, kemet-board)",
                       p->argv[i]);
        for (int j = 1; j < i; j++)
            if (strcmp(p->argv[j], p->argv[i]) == 0)
                return bad(err, p->line, "'%s' is given twice", p->argv[i]);
        at += (size_t)snprintf(f->source_kind + at, sizeof f->source_kind - at,
                               "%s%s", i > 1 ? "; " : "", source_kinds[k][1]);
    }
    return KEMET_OK;
}

static int read_words(kmt_rulefile *f, int which, const kmt_part *p,
                      kemet_error *err) {
    const char *name = common[which].name;
    if (strcmp(name, "source-kind") == 0)
        return read_source_kind(f, p, err);
    if (strcmp(name, "option") == 0) {
        if (p->argc < 4)
            return bad(err, p->line,
                       "write 'option KEY MIN MAX DEFAULT' or 'option KEY "
                       "VALUE VALUE ...' (the first value the default)");
        if (f->noptions == KMT_MAX_OPTIONS)
            return bad(err, p->line, "more than %d options", KMT_MAX_OPTIONS);
        const char *key = p->argv[1];
        if (!is_id(key) || strlen(key) > 12)
            return bad(err, p->line,
                       "'%.20s' is not an option name (2-12 of a-z, 0-9, -)",
                       key);
        for (int i = 0; i < f->noptions; i++)
            if (strcmp(f->option[i].key, key) == 0)
                return bad(err, p->line, "option '%s' given twice", key);
        int v[3];
        bool range = p->argc == 5;
        for (int i = 0; i < 3 && range; i++)
            range = num(p->argv[2 + i], &v[i]) == 0;
        if (!range) { /* a list of values, the first the default */
            kmt_option *o = &f->option[f->noptions];
            *o = (kmt_option){.key = key, .def = 0};
            for (int i = 2; i < p->argc; i++) {
                const char *w = p->argv[i];
                if (o->nwords == KMT_OPTION_WORDS)
                    return bad(err, p->line, "at most %d values",
                               KMT_OPTION_WORDS);
                if (strlen(w) > 12 || strspn(w, "abcdefghijklmnopqrstuvwxyz"
                                                "0123456789-") != strlen(w))
                    return bad(err, p->line,
                               "'%.20s' is not a value (1-12 of a-z, 0-9, -)",
                               w);
                for (int k = 0; k < o->nwords; k++)
                    if (strcmp(o->word[k], w) == 0)
                        return bad(err, p->line, "the value '%s' given twice",
                                   w);
                o->word[o->nwords++] = w;
            }
            o->max = o->nwords - 1;
            f->option_line[f->noptions++] = p->line;
            return KEMET_OK;
        }
        if (v[0] > v[1] || v[2] < v[0] || v[2] > v[1])
            return bad(err, p->line,
                       "give MIN <= DEFAULT <= MAX (%d, %d, %d given)", v[0],
                       v[2], v[1]);
        f->option[f->noptions++] =
            (kmt_option){.key = key, .min = v[0], .max = v[1], .def = v[2]};
        f->option_line[f->noptions - 1] = p->line;
        return KEMET_OK;
    }
    if (strcmp(name, "id") == 0 || strcmp(name, "family") == 0 ||
        strcmp(name, "board") == 0) {
        if (p->argc != 2)
            return bad(err, p->line, "write '%s NAME' (one word)", name);
        if (!is_id(p->argv[1]))
            return bad(err, p->line,
                       "'%.40s' is not a name (2-40 of a-z, 0-9 and -)",
                       p->argv[1]);
        *(name[0] == 'i'   ? &f->id
          : name[0] == 'f' ? &f->family
                           : &f->board) = p->argv[1];
        return KEMET_OK;
    }
    if (strcmp(name, "levels") == 0) {
        if (p->argc != 1 + KEMET_LEVELS)
            return bad(err, p->line,
                       "write 'levels' and the %d levels' agents, weakest "
                       "first",
                       KEMET_LEVELS);
        for (int i = 0; i < KEMET_LEVELS; i++) {
            kemet_error e;
            if (kmt_agent_spec_check(p->argv[1 + i], &e))
                return bad(err, p->line, "level %d: %s", i + 1, e.msg);
            f->level[i] = p->argv[1 + i];
        }
        return KEMET_OK;
    }
    if (strcmp(name, "year") == 0) {
        int y;
        if (p->argc != 2 || num(p->argv[1], &y) < 0 || y < 1)
            return bad(err, p->line, "write 'year N' (a year, 1-9999)");
        f->year = y;
        return KEMET_OK;
    }
    /* players NAME GLYPH NAME GLYPH */
    if (p->argc != 5)
        return bad(err, p->line, "write 'players NAME1 LETTER1 NAME2 LETTER2'");
    for (int i = 0; i < 2; i++) {
        const char *n = p->argv[1 + 2 * i], *g = p->argv[2 + 2 * i];
        if (!is_name(n))
            return bad(err, p->line,
                       "'%.20s' is not a player's name (1-20 letters)", n);
        if (strlen(g) != 1 || g[0] < 'A' || g[0] > 'Z')
            return bad(err, p->line, "'%.8s' is not a letter A-Z for the board",
                       g);
        f->player[i] = n;
        f->glyph[i] = g[0];
    }
    if (f->glyph[0] == f->glyph[1])
        return bad(err, p->line, "the two players need different letters");
    return KEMET_OK;
}

void kmt_rulefile_free(kmt_rulefile *f) {
    free(f->buf);
    free(f->text);
    free(f->tline);
    free(f->reference);
    free(f->part);
    memset(f, 0, sizeof *f);
}

/* The rules in words: the lines whose guard holds (none yet holds before
 * the options are chosen: a guarded line is off until then). */
static void build_text(kmt_rulefile *f) {
    size_t at = 0;
    for (int i = 0; i < f->ntlines; i++) {
        const kmt_tline *t = &f->tline[i];
        if (t->part >= 0 && f->part[t->part].off)
            continue;
        memcpy(f->text + at, t->s, t->len);
        at += t->len;
        f->text[at++] = '\n';
    }
    f->text[at] = '\0';
}

int kmt_rulefile_parse(const char *text, kmt_rulefile *f, kemet_error *err) {
    memset(f, 0, sizeof *f);
    size_t n = strlen(text);
    if (n > FILE_MAX_BYTES) {
        int line = 1; /* the line that goes past the limit */
        for (size_t i = 0; i < FILE_MAX_BYTES; i++)
            line += text[i] == '\n';
        return bad(err, line,
                   "the file is larger than %d bytes (256 KiB), the most a "
                   "ruleset file may have",
                   FILE_MAX_BYTES);
    }
    /* A UTF-8 byte-order mark (U+FEFF, which some editors write first) is
     * not part of the first line. */
    if (strncmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        n -= 3;
    }
    int rc = check_text(text, n, err);
    if (rc)
        return rc;
    int lines = 1;
    for (size_t i = 0; i < n; i++)
        lines += text[i] == '\n';
    f->buf = malloc(n + 1);
    f->part = malloc((size_t)lines * sizeof *f->part);
    f->text = malloc(n + 1);
    f->tline = malloc((size_t)lines * sizeof *f->tline);
    f->reference = malloc(n + 2);
    if (!f->buf || !f->part || !f->text || !f->tline || !f->reference) {
        kmt_rulefile_free(f);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    memcpy(f->buf, text, n + 1);
    int seen[NCOMMON] = {0};
    size_t reflen = 0;
    f->reference[0] = '\0';
    bool version = false;
    char *s = f->buf;
    for (int line = 1; s; line++) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        size_t len = strlen(s);
        if (len && s[len - 1] == '\r')
            s[--len] = '\0';
        char *next = nl ? nl + 1 : NULL;
        char *w = s;
        while (*w == ' ' || *w == '\t')
            w++;
        if (!*w || *w == '#') {
            s = next;
            continue;
        }
        size_t wl = strcspn(w, " \t");
        if (!version) {
            if (wl != 11 || memcmp(w, "kemet-rules", 11) != 0) {
                rc = bad(err, line, "a ruleset file begins 'kemet-rules 1'");
                break;
            }
            const char *v = rest_of(w, wl);
            if (!v || strcmp(v, "1") != 0) {
                rc = bad(err, line,
                         "version '%.10s' of the format is not known (this "
                         "kemet reads version 1)",
                         v ? v : "");
                break;
            }
            version = true;
            f->version_line = line;
            s = next;
            continue;
        }
        int c = common_index(w, wl);
        if (c >= 0 && strcmp(common[c].name, "text") == 0) {
            /* The rules in words: the line after "text ", kept as it is
             * (its indentation too); "text" alone is an empty line. */
            const char *t = w + wl;
            if (*t)
                t++;
            size_t tl = strlen(t);
            while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\t'))
                tl--;
            f->tline[f->ntlines++] = (kmt_tline){t, tl, -1};
            seen[c] = line;
            s = next;
            continue;
        }
        if (wl == 2 && memcmp(w, "if", 2) == 0) {
            /* "if KEY=VALUE,... text WORDS": a line of the rules in words
               shown only under those options, its words kept as they are */
            char *g = w + 2;
            while (*g == ' ' || *g == '\t')
                g++;
            size_t gl = strcspn(g, " \t");
            char *t = g + gl;
            while (*t == ' ' || *t == '\t')
                t++;
            size_t kl = strcspn(t, " \t");
            if (gl && strchr(g, '=') && kl == 4 && memcmp(t, "text", 4) == 0) {
                g[gl] = '\0';
                t += 4;
                if (*t)
                    t++;
                size_t tl = strlen(t);
                while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\t'))
                    tl--;
                kmt_part *p = &f->part[f->nparts];
                *p = (kmt_part){.line = line,
                                .argc = 1,
                                .argv = {"text"},
                                .guard = g,
                                .used = true,
                                .off = true};
                f->tline[f->ntlines++] = (kmt_tline){t, tl, f->nparts++};
                seen[common_index("text", 4)] = line;
                s = next;
                continue;
            }
        }
        if (c >= 0 && strcmp(common[c].name, "reference") == 0) {
            /* a publication the rules come from, one a line */
            const char *v = rest_of(w, wl);
            if (!v) {
                rc = bad(err, line, "'reference' needs some words");
                break;
            }
            size_t vl = strlen(v);
            memcpy(f->reference + reflen, v, vl);
            reflen += vl;
            f->reference[reflen++] = '\n';
            f->reference[reflen] = '\0';
            seen[c] = line;
            s = next;
            continue;
        }
        if (c >= 0 && seen[c] && strcmp(common[c].name, "option") != 0) {
            rc = bad(err, line, "'%s' given twice (first on line %d)",
                     common[c].name, seen[c]);
            break;
        }
        if (c >= 0 && common[c].kind == T_TEXT) {
            const char *v = rest_of(w, wl);
            if (!v) {
                rc = bad(err, line, "'%s' needs some words", common[c].name);
                break;
            }
            *(const char **)((char *)f + common[c].off) = v;
            seen[c] = line;
            s = next;
            continue;
        }
        kmt_part *p = &f->part[f->nparts];
        rc = split(w, line, p, err);
        if (rc)
            break;
        if (c >= 0) {
            rc = read_words(f, c, p, err);
            if (rc)
                break;
            seen[c] = line;
            s = next;
            continue;
        }
        if (p->guard && common_index(p->argv[0], strlen(p->argv[0])) >= 0) {
            rc = bad(err, line, "'if' guards a family's part only");
            break;
        }
        /* A part, for the family: each name once, unless guarded (that
         * one form holds is checked when the options are known). */
        for (int i = 0; i < f->nparts && !rc; i++)
            if (!p->guard && !f->part[i].guard &&
                strcmp(f->part[i].argv[0], p->argv[0]) == 0)
                rc = bad(err, line, "'%.30s' given twice (first on line %d)",
                         p->argv[0], f->part[i].line);
        if (rc)
            break;
        f->nparts++;
        s = next;
    }
    if (!rc && !version)
        rc = bad(err, 1, "empty: a ruleset file begins 'kemet-rules 1'");
    /* A statement every file has that is missing: a part that looks like
     * it misspelt is reported first, on its line. */
    for (int i = 0; i < NCOMMON && !rc; i++)
        if (common[i].required && !seen[i]) {
            const kmt_part *p = misspelt(f, common[i].name);
            rc = p ? bad(err, p->line,
                         "'%.30s' is not a statement; is it '%s'? (see "
                         "docs/rulesets.md)",
                         p->argv[0], common[i].name)
                   : bad(err, f->version_line,
                         "missing statement '%s' (every ruleset file has "
                         "one; see docs/rulesets.md)",
                         common[i].name);
        }
    f->id_line = seen[0];
    f->family_line = seen[1];
    if (rc) {
        kmt_rulefile_free(f);
        return rc;
    }
    build_text(f);
    return KEMET_OK;
}

/* ---------------------------------------------------------------------------
 * What a family reads of its parts.
 * ------------------------------------------------------------------------ */
/* Whether the guard "KEY=VALUE,..." of p holds for opt[]: 1 or 0; -1
 * with err set when it names an option or value the file does not have. */
static int guard_holds(const kmt_rulefile *f, const kmt_part *p, const int *opt,
                       kemet_error *err) {
    const char *g = p->guard;
    bool holds = true;
    while (*g) {
        size_t len = strcspn(g, ","), klen = strcspn(g, "=");
        if (klen >= len) {
            bad(err, p->line, "a guard is KEY=VALUE,...");
            return -1;
        }
        const char *val = g + klen + 1;
        size_t vlen = len - klen - 1;
        int k = -1;
        for (int i = 0; i < f->noptions; i++)
            if (strlen(f->option[i].key) == klen &&
                memcmp(f->option[i].key, g, klen) == 0)
                k = i;
        if (k < 0) {
            bad(err, p->line, "the guard names no option of the file ('%.*s')",
                (int)(klen > 20 ? 20 : klen), g);
            return -1;
        }
        const kmt_option *o = &f->option[k];
        int v = -1;
        if (o->nwords) {
            for (int i = 0; i < o->nwords; i++)
                if (strlen(o->word[i]) == vlen &&
                    memcmp(o->word[i], val, vlen) == 0)
                    v = i;
        } else if (kmt_read_num(val, vlen, &v) < 0 || v < o->min || v > o->max)
            v = -1;
        if (v < 0) {
            bad(err, p->line, "option %s has no value '%.*s'", o->key,
                (int)(vlen > 20 ? 20 : vlen), val);
            return -1;
        }
        holds = holds && opt[k] == v;
        g += len;
        if (*g == ',')
            g++;
    }
    return holds;
}

int kmt_rulefile_choose(kmt_rulefile *f, const int *opt, kemet_error *err) {
    for (int i = 0; i < f->nparts; i++) {
        kmt_part *p = &f->part[i];
        if (!p->guard)
            continue;
        int h = guard_holds(f, p, opt, err);
        if (h < 0)
            return KEMET_ESYNTAX;
        p->off = !h;
        /* a guarded line of the rules in words is read here, not by the
           family */
        p->used = !h || strcmp(p->argv[0], "text") == 0;
    }
    build_text(f);
    for (int i = 0; i < f->nparts; i++)
        for (int j = 0; j < i; j++)
            if (!f->part[i].off && !f->part[j].off &&
                strcmp(f->part[i].argv[0], "text") != 0 &&
                strcmp(f->part[i].argv[0], f->part[j].argv[0]) == 0)
                return bad(err, f->part[i].line,
                           "two forms of '%.30s' hold at once (lines %d and "
                           "%d) with these options",
                           f->part[i].argv[0], f->part[j].line,
                           f->part[i].line);
    return KEMET_OK;
}

kmt_part *kmt_rf_part(kmt_rulefile *f, const char *name) {
    for (int i = 0; i < f->nparts; i++)
        if (!f->part[i].off && strcmp(f->part[i].argv[0], name) == 0) {
            f->part[i].used = true;
            return &f->part[i];
        }
    /* a statement of the family the file leaves out (a part misspelt?) */
    f->last_absent = name;
    bool known = false;
    for (int i = 0; i < f->nabsent; i++)
        known |= strcmp(f->absent[i], name) == 0;
    if (!known && f->nabsent < KMT_RF_ABSENT)
        f->absent[f->nabsent++] = name;
    return NULL;
}

/* Notes the required part `name` missing (the first one only). */
static void note_missing(kmt_rulefile *f, const char *name, const char *fmt,
                         ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void note_missing(kmt_rulefile *f, const char *name, const char *fmt,
                         ...) {
    if (f->missing[0])
        return;
    f->missing_name = name;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->missing, sizeof f->missing, fmt, ap);
    va_end(ap);
}

/* The words of p after its name, one space apart, into buf. */
static bool words_of(const kmt_part *p, char *buf, size_t len) {
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 1; i < p->argc && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i > 1 ? " " : "",
                               p->argv[i]);
    return at < len;
}

int kmt_rf_words(kmt_rulefile *f, const char *name, char *buf, size_t len,
                 kemet_error *err) {
    kmt_part *p = kmt_rf_part(f, name);
    if (!p) {
        note_missing(f, name, "missing statement '%s' (%s)", name, f->family);
        buf[0] = '\0';
        return KEMET_OK;
    }
    if (p->argc < 2)
        return bad(err, p->line, "this statement needs some words");
    if (!words_of(p, buf, len))
        return bad(err, p->line, "too many words (at most %zu letters)",
                   len - 1);
    return KEMET_OK;
}

int kmt_rf_choice(kmt_rulefile *f, const char *name, const char *const *choices,
                  int def, int *out, kemet_error *err) {
    kmt_part *p = kmt_rf_part(f, name);
    char list[200];
    size_t at = 0;
    list[0] = '\0';
    for (int i = 0; choices[i] && at < sizeof list; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s",
                               i ? ", " : "", choices[i]);
    if (!p) {
        if (def < 0)
            note_missing(f, name, "missing statement '%s' (%s: %s)", name,
                         f->family, list);
        *out = def < 0 ? 0 : def;
        return KEMET_OK;
    }
    char got[400];
    words_of(p, got, sizeof got);
    for (int i = 0; choices[i]; i++)
        if (strcmp(got, choices[i]) == 0) {
            *out = i;
            return KEMET_OK;
        }
    return bad(err, p->line, "write '%s' and one of: %s", name, list);
}

int kmt_rf_fixed(kmt_rulefile *f, const char *name, const char *words,
                 kemet_error *err) {
    kmt_part *p = kmt_rf_part(f, name);
    if (!p) {
        note_missing(f, name, "missing statement '%s' (%s: '%s %s')", name,
                     f->family, name, words);
        return KEMET_OK;
    }
    char got[400];
    words_of(p, got, sizeof got);
    if (strcmp(got, words) != 0)
        return bad(err, p->line,
                   "the %s family has this part only as '%s %s'%s%s (see "
                   "docs/rulesets.md)",
                   f->family, name, words, f->parts ? " " : "",
                   f->parts ? f->parts : "");
    return KEMET_OK;
}

int kmt_rf_flag(kmt_rulefile *f, const char *name, bool *out,
                kemet_error *err) {
    kmt_part *p = kmt_rf_part(f, name);
    *out = p != NULL;
    if (p && p->argc != 1)
        return bad(err, p->line, "'%s' takes no words", name);
    return KEMET_OK;
}

int kmt_rf_numbers(kmt_rulefile *f, const char *name, int first, int lo, int hi,
                   int *out, int max, int *n, kemet_error *err) {
    kmt_part *p = kmt_rf_part(f, name);
    *n = 0;
    if (!p)
        return KEMET_OK;
    for (int i = first; i < p->argc; i++) {
        int v;
        if (num(p->argv[i], &v) < 0 || v < lo || v > hi)
            return bad(err, p->line, "'%.12s' is not a number %d-%d",
                       p->argv[i], lo, hi);
        for (int k = 0; k < *n; k++)
            if (out[k] == v)
                return bad(err, p->line, "%d is given twice", v);
        if (*n == max)
            return bad(err, p->line, "at most %d numbers", max);
        out[(*n)++] = v;
    }
    return KEMET_OK;
}

int kmt_rf_refuse(const kmt_part *p, const char *why, kemet_error *err) {
    return bad(err, p ? p->line : 0, "%s", why);
}

int kmt_rf_finish(kmt_rulefile *f, int rc, kemet_error *err) {
    if (rc == KEMET_ENOMEM)
        return rc;
    static const char lineless[] = "rules file: ";
    bool no_line = rc == KEMET_ESYNTAX && err &&
                   strncmp(err->msg, lineless, sizeof lineless - 1) == 0;
    /* Where the family stopped short, the required part it missed (noted,
     * or told without a line: the last it asked for and did not find). */
    const char *wanted = f->missing[0] ? f->missing_name
                         : no_line     ? f->last_absent
                                       : NULL;
    /* A part the family did not read: once it read them all, one it does
     * not have (named with the statement it looks like a misspelling of,
     * if any); where it stopped short, only one that looks like the part
     * it missed, the others perhaps not reached. */
    for (int i = 0; i < f->nparts; i++) {
        const kmt_part *p = &f->part[i];
        if (p->used)
            continue;
        const char *meant = NULL;
        if (rc == KEMET_OK)
            for (int k = 0; k < f->nabsent && !meant; k++)
                meant = alike(p->argv[0], f->absent[k]) ? f->absent[k] : NULL;
        else if (wanted && alike(p->argv[0], wanted))
            meant = wanted;
        if (meant)
            return bad(err, p->line,
                       "'%.30s' is not a statement of the %s family; is it "
                       "'%s'? (see docs/rulesets.md)",
                       p->argv[0], f->family, meant);
        if (rc == KEMET_OK)
            return bad(err, p->line,
                       "'%.30s' is not a statement of the %s family (see "
                       "docs/rulesets.md)",
                       p->argv[0], f->family);
    }
    /* A required part missing (whatever the family made of its absence). */
    if (f->missing[0])
        return bad(err, f->family_line, "%s", f->missing);
    /* A problem of the parts together that the family gave no line. */
    if (no_line) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg + sizeof lineless - 1);
        return bad(err, f->family_line, "%s", msg);
    }
    return rc;
}
