/* rules.c - the ruleset registry, opening rules from their spec
 * ("id:key=value,..."), and the board pictures. The registry below is the
 * only place that names the rulesets; moves.c holds the entry points of
 * play, rng.c the random numbers and sticks, error.c the messages.
 */
#include "internal.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const kmt_family *const families[] = {
    &kmt_family_senet,
    &kmt_family_holes58,
    &kmt_family_track,
    &kmt_family_tab,
};
enum { NFAMILIES = sizeof families / sizeof families[0] };

int kemet_ruleset_count(void) {
    int n = 0;
    while (kmt_rulesets_builtin[n][0])
        n++;
    return n;
}

const char *kemet_ruleset_id(int i) {
    return (i >= 0 && i < kemet_ruleset_count()) ? kmt_rulesets_builtin[i][0]
                                                 : NULL;
}

/* The text of the built-in ruleset named by s[0..len), or NULL. */
static const char *builtin_text(const char *s, size_t len) {
    for (int i = 0; kmt_rulesets_builtin[i][0]; i++) {
        const char *id = kmt_rulesets_builtin[i][0];
        if (strlen(id) == len && memcmp(id, s, len) == 0)
            return kmt_rulesets_builtin[i][1];
    }
    return NULL;
}

int kmt_read_num(const char *s, size_t len, int *out) {
    if (len == 0 || len > 4)
        return -1;
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

int kmt_rules_opt(const kemet_rules *r, const char *key, int def) {
    for (int i = 0; r->rs->options && r->rs->options[i].key; i++)
        if (strcmp(r->rs->options[i].key, key) == 0) {
            const kmt_option *o = &r->rs->options[i];
            const char *w = o->nwords ? o->word[r->opt[i]] : NULL;
            int v;
            /* a list of numbers ("7 5") gives the number chosen */
            if (w && kmt_read_num(w, strlen(w), &v) == 0)
                return v;
            return r->opt[i];
        }
    return def;
}

/* Parses "key=value,key=value" against the ruleset's option table into
 * opt[]. */
static int parse_options(const kmt_ruleset *rs, int *opt, const char *s,
                         kemet_error *err) {
    bool seen[KMT_MAX_OPTIONS] = {false};
    while (*s) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        if (!eq)
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset option '%.*s' is not key=value",
                            (int)(len > 40 ? 40 : len), s);
        size_t klen = (size_t)(eq - s);
        int k = -1;
        for (int i = 0; rs->options && rs->options[i].key; i++)
            if (strlen(rs->options[i].key) == klen &&
                memcmp(rs->options[i].key, s, klen) == 0)
                k = i;
        if (k < 0)
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset %s has no option '%.*s'", rs->id,
                            (int)(klen > 40 ? 40 : klen), s);
        if (seen[k])
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset option '%s' given twice",
                            rs->options[k].key);
        seen[k] = true;
        int v = -1;
        const kmt_option *o = &rs->options[k];
        const char *val = eq + 1;
        size_t vlen = len - klen - 1;
        if (o->nwords) {
            for (int i = 0; i < o->nwords; i++)
                if (strlen(o->word[i]) == vlen &&
                    memcmp(o->word[i], val, vlen) == 0)
                    v = i;
            if (v < 0) {
                char list[160];
                size_t at = 0;
                for (int i = 0; i < o->nwords && at < sizeof list; i++)
                    at += (size_t)snprintf(list + at, sizeof list - at, "%s%s",
                                           i ? ", " : "", o->word[i]);
                return kmt_fail(err, KEMET_ERULESET,
                                "ruleset option %s: unknown value '%.*s' "
                                "(one of: %s)",
                                o->key, (int)(vlen > 20 ? 20 : vlen), val,
                                list);
            }
        } else if (kmt_read_num(val, vlen, &v) < 0 || v < o->min || v > o->max)
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset option %s: unknown value '%.*s' (a "
                            "number from %d to %d)",
                            o->key, (int)(vlen > 20 ? 20 : vlen), val, o->min,
                            o->max);
        opt[k] = v;
        if (!end)
            break;
        s = end + 1;
        if (!*s)
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset options end with a comma");
    }
    return KEMET_OK;
}

/* Reads the options after the id in `spec` (NULL or none: the defaults)
 * into opt[] and writes the canonical spec (the id plus the options that
 * differ from their default) into out. */
static int read_options(const kmt_ruleset *rs, const char *spec, int *opt,
                        char *out, size_t outlen, kemet_error *err) {
    for (int i = 0; rs->options && rs->options[i].key; i++)
        opt[i] = rs->options[i].def;
    const char *colon = spec ? strchr(spec, ':') : NULL;
    if (colon) {
        if (colon[1] == '\0')
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset '%s' has a colon but no options", rs->id);
        int rc = parse_options(rs, opt, colon + 1, err);
        if (rc)
            return rc;
    }
    size_t len = (size_t)snprintf(out, outlen, "%s", rs->id);
    char sep = ':';
    for (int i = 0; rs->options && rs->options[i].key; i++) {
        if (opt[i] == rs->options[i].def || len >= outlen)
            continue;
        const kmt_option *o = &rs->options[i];
        if (o->nwords)
            len += (size_t)snprintf(out + len, outlen - len, "%c%s=%s", sep,
                                    o->key, o->word[opt[i]]);
        else
            len += (size_t)snprintf(out + len, outlen - len, "%c%s=%d", sep,
                                    o->key, opt[i]);
        sep = ',';
    }
    return KEMET_OK;
}

static const kmt_family *find_family(const char *name) {
    for (int i = 0; i < NFAMILIES; i++)
        if (strcmp(families[i]->name, name) == 0)
            return families[i];
    return NULL;
}

/* The family of a parsed file and its options checked against it. */
static int file_family(const kmt_rulefile *f, const kmt_family **out,
                       kemet_error *err) {
    const kmt_family *fam = find_family(f->family);
    if (!fam) {
        char list[120];
        size_t at = 0;
        for (int i = 0; i < NFAMILIES && at < sizeof list; i++)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%s",
                                   i == 0               ? ""
                                   : i == NFAMILIES - 1 ? " and "
                                                        : ", ",
                                   families[i]->name);
        return kmt_fail(err, KEMET_ESYNTAX,
                        "rules file line %d: no family '%s' (kemet has %s)",
                        f->family_line, f->family, list);
    }
    for (int i = 0; i < f->noptions; i++) {
        bool known = false;
        for (int k = 0; fam->option_keys && fam->option_keys[k]; k++)
            known |= strcmp(fam->option_keys[k], f->option[i].key) == 0;
        /* an option of the file's own chooses among guarded parts */
        size_t klen = strlen(f->option[i].key);
        for (int p = 0; p < f->nparts && !known; p++)
            for (const char *g = f->part[p].guard; g && *g && !known;
                 g += strcspn(g, ","), g += *g == ',')
                known =
                    strncmp(g, f->option[i].key, klen) == 0 && g[klen] == '=';
        if (!known)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "rules file line %d: the %s family has no option "
                            "'%s', and no part is guarded by it (if %s=...)",
                            f->option_line[i], fam->name, f->option[i].key,
                            f->option[i].key);
    }
    *out = fam;
    return KEMET_OK;
}

/* The id in spec (up to a colon) is the file's id. */
static int spec_names(const char *spec, const char *id, kemet_error *err) {
    size_t len = strcspn(spec, ":");
    if (strlen(id) != len || memcmp(spec, id, len) != 0)
        return kmt_fail(err, KEMET_ERULESET,
                        "the rules file is for '%s', not '%.*s'", id,
                        (int)(len > 40 ? 40 : len), spec);
    return KEMET_OK;
}

int kmt_spec_canon(const char *spec, char *out, size_t len, kemet_error *err) {
    size_t idlen = strcspn(spec, ":");
    const char *text = builtin_text(spec, idlen);
    if (!text)
        return kmt_fail(err, KEMET_ERULESET,
                        "unknown ruleset '%.*s' (see 'kemet rules')",
                        (int)(idlen > 60 ? 60 : idlen), spec);
    kmt_rulefile f;
    int rc = kmt_rulefile_parse(text, &f, err);
    if (rc)
        return rc;
    kmt_ruleset rs = {.id = f.id, .options = f.option};
    int opt[KMT_MAX_OPTIONS];
    rc = read_options(&rs, spec, opt, out, len, err);
    kmt_rulefile_free(&f);
    return rc;
}

int kmt_rules_canon(const kemet_rules *r, const char *spec, char *out,
                    size_t len, kemet_error *err) {
    if (!r->user)
        return kmt_spec_canon(spec, out, len, err);
    int opt[KMT_MAX_OPTIONS];
    int rc = spec_names(spec, r->rs->id, err);
    return rc ? rc : read_options(r->rs, spec, opt, out, len, err);
}

/* Opens the ruleset of the file `text` (its id checked by the caller),
 * with the options of `spec` (NULL: the defaults). */
static int open_text_as(const char *text, const char *spec,
                        const char *board_text, bool user, bool generic,
                        const kemet_rules *like, kemet_rules **out,
                        kemet_error *err) {
    kemet_rules *r = calloc(1, sizeof *r);
    if (!r)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    r->generic = generic;
    r->like = like;
    int rc = kmt_rulefile_parse(text, &r->file, err);
    const kmt_family *fam = NULL;
    if (rc == KEMET_OK)
        rc = file_family(&r->file, &fam, err);
    if (rc == KEMET_OK && user && builtin_text(r->file.id, strlen(r->file.id)))
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "rules file line %d: the id '%s' is a built-in "
                      "ruleset's; give the file an id of its own",
                      r->file.id_line, r->file.id);
    if (rc == KEMET_OK && spec)
        rc = spec_names(spec, r->file.id, err);
    if (rc) {
        kmt_rulefile_free(&r->file);
        free(r);
        return rc;
    }
    kmt_rulefile *f = &r->file;
    r->own = *fam->base;
    r->rs = &r->own;
    r->user = user;
    kmt_ruleset *rs = &r->own;
    rs->id = f->id;
    rs->title = f->title;
    rs->source = f->source ? f->source : "a ruleset file";
    rs->text = f->text;
    rs->author = f->author;
    rs->year = f->year;
    rs->about = f->about;
    for (int i = 0; i < KEMET_LEVELS; i++)
        rs->level[i] = f->level[i];
    rs->player[0] = f->player[0];
    rs->player[1] = f->player[1];
    rs->glyph[0] = f->glyph[0];
    rs->glyph[1] = f->glyph[1];
    rs->gone = f->gone;
    rs->in_hand = f->in_hand;
    rs->options = f->noptions ? f->option : NULL;
    rc = read_options(rs, spec, r->opt, r->spec, sizeof r->spec, err);
    if (rc == KEMET_OK)
        rc = kmt_rulefile_choose(f, r->opt, err);
    if (rc == KEMET_OK)
        rc = kmt_rf_finish(f, fam->configure(r, f, err), err);
    if (rc == KEMET_OK && !rs->open && board_text)
        rc = kmt_fail(err, KEMET_ERULESET,
                      "ruleset %s has its board built in; it takes no "
                      "board file",
                      rs->id);
    if (rc) {
        free(r->params);
        kmt_rulefile_free(&r->file);
        free(r);
        return rc;
    }
    if (user && !(r->text = malloc(strlen(text) + 1))) {
        free(r->params);
        kmt_rulefile_free(&r->file);
        free(r);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    if (user)
        memcpy(r->text, text, strlen(text) + 1);
    kmt_sha256 h;
    kmt_sha256_init(&h);
    kmt_sha256_add(&h, text, strlen(text));
    if (board_text)
        kmt_sha256_add(&h, board_text, strlen(board_text));
    kmt_sha256_hex(&h, r->sha256);
    /* What is made for a user's file is kept under its text's hash as
     * well as its name: never used for another file of the same id. */
    snprintf(r->key, sizeof r->key, user ? "%.78s@%.16s" : "%s", r->spec,
             r->sha256);
    snprintf(r->net_key, sizeof r->net_key, user ? "%.40s@%.16s" : "%s", f->id,
             r->sha256);
    snprintf(r->eval_id, sizeof r->eval_id, "%s", f->id);
    if (like) {
        /* judged by the reading it was changed from */
        snprintf(r->net_key, sizeof r->net_key, "%s", like->net_key);
        snprintf(r->eval_id, sizeof r->eval_id, "%s", like->eval_id);
        r->like = NULL;
    }
    r->info = (kemet_info){
        .id = rs->id,
        .title = rs->title,
        .source = rs->source,
        .text = rs->text,
        .player = {rs->player[0], rs->player[1]},
        .glyph = {rs->glyph[0], rs->glyph[1]},
        .gone = rs->gone,
        .in_hand = rs->in_hand ? rs->in_hand : "in hand",
        .pieces = rs->pieces,
        .squares = rs->squares,
        .board_cells = rs->cells,
        .author = rs->author,
        .year = rs->year,
        .about = rs->about,
        .scores = rs->scores,
        .source_kind = f->source_kind[0] ? f->source_kind : "not given",
        .reference = f->reference && f->reference[0] ? f->reference : NULL,
    };
    r->board = rs->board;
    r->squares = rs->squares;
    if (rs->open) {
        rc = rs->open(r, board_text, err);
        if (rc) {
            free(r->board_file);
            free(r->text);
            free(r->params);
            kmt_rulefile_free(&r->file);
            free(r);
            return rc;
        }
    }
    *out = r;
    return KEMET_OK;
}

static int open_text(const char *text, const char *spec, const char *board_text,
                     bool user, kemet_rules **out, kemet_error *err) {
    return open_text_as(text, spec, board_text, user, false, NULL, out, err);
}

int kmt_rules_open_generic(const char *text, const char *spec,
                           kemet_rules **out, kemet_error *err) {
    if (!spec || !out)
        return kmt_fail(err, KEMET_EMISUSE,
                        "kmt_rules_open_generic: NULL argument");
    *out = NULL;
    bool user = text != NULL;
    if (!text && !(text = builtin_text(spec, strcspn(spec, ":"))))
        return kmt_fail(err, KEMET_ERULESET, "unknown ruleset '%.60s'", spec);
    return open_text_as(text, spec, NULL, user, true, NULL, out, err);
}

int kmt_rules_open_change(const kemet_rules *base, const char *text,
                          kemet_rules **out, kemet_error *err) {
    if (!base || !text || !out)
        return kmt_fail(err, KEMET_EMISUSE,
                        "kmt_rules_open_change: NULL argument");
    *out = NULL;
    if (strcmp(base->spec, base->info.id) != 0)
        return kmt_fail(err, KEMET_EMISUSE,
                        "a rule is changed in a reading without options, not "
                        "in %s",
                        base->spec);
    return open_text_as(text, NULL, base->board_file, true, false, base, out,
                        err);
}

int kemet_rules_open(const char *spec, kemet_rules **out, kemet_error *err) {
    return kemet_rules_open_board(spec, NULL, out, err);
}

int kemet_rules_open_board(const char *spec, const char *board_text,
                           kemet_rules **out, kemet_error *err) {
    if (!spec || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_rules_open: NULL argument");
    *out = NULL;
    size_t idlen = strcspn(spec, ":");
    const char *text = builtin_text(spec, idlen);
    if (!text)
        return kmt_fail(err, KEMET_ERULESET,
                        "unknown ruleset '%.*s' (see 'kemet rules')",
                        (int)(idlen > 60 ? 60 : idlen), spec);
    return open_text(text, spec, board_text, false, out, err);
}

/* Opens the file under every combination of the values of its options
 * that are lists of values (the others at their defaults), at most 256:
 * a file is refused when its parts do not work together under any. */
static int check_combinations(const kemet_rules *r, const char *text,
                              const char *board_text, kemet_error *err) {
    const kmt_ruleset *rs = r->rs;
    int n = 0, total = 1, k[KMT_MAX_OPTIONS] = {0};
    for (; rs->options && rs->options[n].key; n++)
        if (rs->options[n].nwords)
            total *= rs->options[n].nwords;
    for (int c = 0; c < total && c < 256; c++) {
        char spec[160];
        size_t at = (size_t)snprintf(spec, sizeof spec, "%s", rs->id);
        char sep = ':';
        for (int i = 0, rest = c; i < n; i++) {
            const kmt_option *o = &rs->options[i];
            if (!o->nwords)
                continue;
            k[i] = rest % o->nwords;
            rest /= o->nwords;
            if (at < sizeof spec)
                at += (size_t)snprintf(spec + at, sizeof spec - at, "%c%s=%s",
                                       sep, o->key, o->word[k[i]]);
            sep = ',';
        }
        kemet_rules *t;
        kemet_error e;
        int rc =
            open_text(text, sep == ':' ? NULL : spec, board_text, true, &t, &e);
        if (rc)
            return kmt_fail(err, rc, "%s (with %.100s)", e.msg, spec);
        kemet_rules_close(t);
    }
    return KEMET_OK;
}

int kemet_rules_open_text(const char *rules_text, const char *spec,
                          const char *board_text, kemet_rules **out,
                          kemet_error *err) {
    if (!rules_text || !out)
        return kmt_fail(err, KEMET_EMISUSE,
                        "kemet_rules_open_text: NULL argument");
    *out = NULL;
    kemet_rules *r;
    int rc = open_text(rules_text, spec, board_text, true, &r, err);
    if (rc == KEMET_OK && r->rs->options &&
        (rc = check_combinations(r, rules_text, board_text, err))) {
        kemet_rules_close(r);
        return rc;
    }
    if (rc == KEMET_OK)
        *out = r;
    return rc;
}

int kemet_rules_open_file(const char *path, const char *spec,
                          const char *board_text, kemet_rules **out,
                          kemet_error *err) {
    if (!path || !out)
        return kmt_fail(err, KEMET_EMISUSE,
                        "kemet_rules_open_file: NULL argument");
    *out = NULL;
    /* A regular file only: a FIFO would wait for a writer (O_NONBLOCK:
     * opening it does not), a device might never end. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return kmt_fail(err, KEMET_EIO, "cannot open '%.200s': %s", path,
                        strerror(errno));
    struct stat st;
    const char *kind = fstat(fd, &st) != 0    ? "cannot be examined"
                       : S_ISREG(st.st_mode)  ? NULL
                       : S_ISDIR(st.st_mode)  ? "a folder"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                                              : "a device";
    FILE *fp = kind ? NULL : fdopen(fd, "rb");
    if (!fp) {
        int e = errno;
        close(fd);
        return kind ? kmt_fail(err, KEMET_EIO,
                               "%.200s: not a regular file (%s)", path, kind)
                    : kmt_fail(err, KEMET_EIO, "cannot open '%.200s': %s", path,
                               strerror(e));
    }
    /* one byte past the most a file may have, for the parser to refuse */
    enum { LIMIT = 256 * 1024 };
    char *text = malloc(LIMIT + 2);
    size_t n = text ? fread(text, 1, LIMIT + 1, fp) : 0;
    bool failed = text && ferror(fp);
    fclose(fp);
    if (!text)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    int rc = KEMET_OK;
    const char *nul = memchr(text, '\0', n);
    if (failed)
        rc = kmt_fail(err, KEMET_EIO, "cannot read '%.200s'", path);
    else if (nul) {
        int line = 1;
        for (const char *c = text; c < nul; c++)
            line += *c == '\n';
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "rules file line %d: not text (a NUL byte)", line);
    }
    if (rc == KEMET_OK) {
        text[n] = '\0';
        rc = kemet_rules_open_text(text, spec, board_text, out, err);
    }
    free(text);
    return rc;
}

const char *kemet_rules_key(const kemet_rules *rules) {
    return rules->key;
}

const char *kemet_rules_sha256(const kemet_rules *rules) {
    return rules->user ? rules->sha256 : NULL;
}

void kemet_rules_close(kemet_rules *rules) {
    if (!rules)
        return;
    if (rules->rs->close)
        rules->rs->close(rules);
    free(rules->board_file);
    free(rules->params);
    free(rules->text);
    kmt_rulefile_free(&rules->file);
    free(rules);
}

const kemet_info *kemet_rules_info(const kemet_rules *rules) {
    return &rules->info;
}

int kemet_rules_option_count(const kemet_rules *rules) {
    return rules ? rules->file.noptions : 0;
}

const char *kemet_rules_option(const kemet_rules *rules, int i, int *nvalues,
                               int *def) {
    if (!rules || i < 0 || i >= rules->file.noptions)
        return NULL;
    const kmt_option *o = &rules->file.option[i];
    if (nvalues)
        *nvalues = o->max - o->min + 1;
    if (def)
        *def = o->def - o->min;
    return o->key;
}

int kemet_rules_option_value(const kemet_rules *rules, int i, int k, char *buf,
                             size_t len) {
    int n;
    if (!kemet_rules_option(rules, i, &n, NULL) || k < 0 || k >= n || !buf)
        return -1;
    const kmt_option *o = &rules->file.option[i];
    return o->nwords ? snprintf(buf, len, "%s", o->word[k])
                     : snprintf(buf, len, "%d", o->min + k);
}

const char *kemet_rules_spec(const kemet_rules *rules) {
    return rules->spec;
}

const char *kemet_rules_board_file(const kemet_rules *rules) {
    return rules->board_file;
}

void kemet_start(const kemet_rules *rules, kemet_pos *pos) {
    rules->rs->start(rules, pos);
}

/* ---------------------------------------------------------------------------
 * Board pictures.
 * ------------------------------------------------------------------------ */
const char *kemet_board_template(const kemet_rules *rules) {
    return rules->board;
}

int kemet_square_cell(const kemet_rules *rules, int player, int square) {
    if (player < 1 || player > 2 || square < 1 || square > rules->squares)
        return 0;
    return rules->rs->cell_of(rules, player, square);
}

void kemet_board_cell(const kemet_rules *rules, const kemet_pos *pos, int cell,
                      int count[2]) {
    const kmt_ruleset *rs = rules->rs;
    for (int p = 0; p < 2; p++) {
        count[p] = 0;
        uint64_t b = pos->sq[p];
        while (b) {
            int s = kmt_ctz64(b);
            b &= b - 1;
            if (rs->cell_of(rules, p + 1, s) == cell)
                count[p]++;
        }
        if (pos->heap[p] && rs->heap_square &&
            rs->cell_of(rules, p + 1, rs->heap_square) == cell)
            count[p] += pos->heap[p];
    }
}
