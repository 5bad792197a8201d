/* changes.c - a reading with one rule changed: which of its rules makes it
 * the game it is (docs/analysis.md, "What each rule does").
 *
 * A reading's file is first written flat: at the options chosen, its
 * guarded lines resolved and its option statements gone. The changes of a
 * reading, by the stated rule kemet_rule_changes documents: each option
 * at each of its other values; then each part of the reading replaced by
 * every other form a built-in ruleset of its family gives that part (at
 * any of its options' values), removed where another reading has no such
 * part, or added where another has it and this one has not; in the order
 * of the reading's file, the forms in the order the built-in rulesets are
 * listed. A change whose parts do not work together is skipped and
 * counted; a change that gives the same parts as one before it is skipped.
 * Nothing here is on a hot path.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

/* Statements that draw or name the board or its words, not rules. */
static bool not_a_rule(const char *name, size_t len) {
    static const char *const skip[] = {
        "marks",      "words-off",   "words-safe", "words-jump",
        "words-hole", "words-piece", "words-land", NULL};
    for (int i = 0; skip[i]; i++)
        if (strlen(skip[i]) == len && memcmp(skip[i], name, len) == 0)
            return true;
    return kmt_rf_common(name, len);
}

/* The text of a ruleset (a user's file's or the built-in one). */
static const char *text_of(const kemet_rules *r) {
    if (r->text)
        return r->text;
    for (int i = 0; kmt_rulesets_builtin[i][0]; i++)
        if (strcmp(kmt_rulesets_builtin[i][0], r->info.id) == 0)
            return kmt_rulesets_builtin[i][1];
    return NULL;
}

/* A growing string. */
typedef struct buf {
    char *s;
    size_t n, cap;
    bool failed;
} buf;

static void put(buf *b, const char *s, size_t n) {
    if (b->failed)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            b->failed = true;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void puts_(buf *b, const char *s) {
    put(b, s, strlen(s));
}

/* The value an option has in `spec` ("ID:KEY=VALUE,..."), or its default,
 * as text into val. */
static void option_value(const kmt_option *o, const char *spec, char *val,
                         size_t len) {
    const char *c = spec ? strchr(spec, ':') : NULL;
    size_t kl = strlen(o->key);
    for (const char *s = c ? c + 1 : NULL; s && *s;) {
        size_t n = strcspn(s, ",");
        if (n > kl && strncmp(s, o->key, kl) == 0 && s[kl] == '=') {
            snprintf(val, len, "%.*s", (int)(n - kl - 1), s + kl + 1);
            return;
        }
        s += n + (s[n] == ',');
    }
    if (o->nwords)
        snprintf(val, len, "%s", o->word[o->def]);
    else
        snprintf(val, len, "%d", o->def);
}

/* Whether the guard "KEY=VALUE,..." (g, n bytes) holds at `spec`. */
static bool guard_holds(const kmt_rulefile *f, const char *g, size_t n,
                        const char *spec) {
    while (n) {
        size_t k = 0;
        while (k < n && g[k] != ',')
            k++;
        const char *eq = memchr(g, '=', k);
        if (!eq)
            return false;
        bool ok = false;
        for (int i = 0; i < f->noptions; i++) {
            const kmt_option *o = &f->option[i];
            if (strlen(o->key) != (size_t)(eq - g) ||
                memcmp(o->key, g, (size_t)(eq - g)) != 0)
                continue;
            char val[32];
            option_value(o, spec, val, sizeof val);
            ok = strlen(val) == (size_t)(g + k - eq - 1) &&
                 memcmp(val, eq + 1, (size_t)(g + k - eq - 1)) == 0;
        }
        if (!ok)
            return false;
        g += k + (k < n);
        n -= k + (k < n);
    }
    return true;
}

/* Whether some guard of `text` names option `key`. */
static bool guarded(const char *text, const char *key) {
    size_t kl = strlen(key);
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        const char *w = l;
        while (w < l + n && (*w == ' ' || *w == '\t'))
            w++;
        if (l + n - w > 3 && strncmp(w, "if", 2) == 0 &&
            (w[2] == ' ' || w[2] == '\t')) {
            const char *g = w + 2;
            while (*g == ' ' || *g == '\t')
                g++;
            size_t gl = strcspn(g, " \t\r\n");
            for (size_t i = 0; i + kl < gl; i++)
                if ((i == 0 || g[i - 1] == ',') &&
                    strncmp(g + i, key, kl) == 0 && g[i + kl] == '=')
                    return true;
        }
        l += n + (l[n] == '\n');
    }
    return false;
}

/* `text` written flat at the options of `spec` (NULL: the defaults): each
 * guarded line kept without its guard where the guard holds and dropped
 * where it does not, and the options the guards name gone; an option no
 * guard names (one a part reads, as the track family's sticks) stays, its
 * default the value chosen. NULL for memory. */
static char *flatten(const char *text, const char *spec) {
    kmt_rulefile f;
    if (kmt_rulefile_parse(text, &f, NULL))
        return NULL;
    buf b = {0};
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        const char *w = l;
        while (w < l + n && (*w == ' ' || *w == '\t'))
            w++;
        size_t wl = strcspn(w, " \t\r\n");
        if (wl == 6 && strncmp(w, "option", 6) == 0) {
            const char *k = w + 6;
            while (*k == ' ' || *k == '\t')
                k++;
            size_t kl = strcspn(k, " \t\r\n");
            for (int i = 0; i < f.noptions; i++) {
                const kmt_option *o = &f.option[i];
                if (strlen(o->key) != kl || strncmp(o->key, k, kl) != 0 ||
                    guarded(text, o->key))
                    continue;
                char val[32], line[256];
                option_value(o, spec, val, sizeof val);
                if (o->nwords) {
                    int at = snprintf(line, sizeof line, "option %s %s", o->key,
                                      val);
                    for (int v = 0; v < o->nwords; v++)
                        if (strcmp(o->word[v], val) != 0)
                            at += snprintf(line + at, sizeof line - (size_t)at,
                                           " %s", o->word[v]);
                } else {
                    snprintf(line, sizeof line, "option %s %d %d %s", o->key,
                             o->min, o->max, val);
                }
                puts_(&b, line);
                puts_(&b, "\n");
            }
        } else if (wl == 2 && strncmp(w, "if", 2) == 0) {
            const char *g = w + 2;
            while (*g == ' ' || *g == '\t')
                g++;
            size_t gl = strcspn(g, " \t\r\n");
            const char *rest = g + gl;
            while (*rest == ' ' || *rest == '\t')
                rest++;
            if (guard_holds(&f, g, gl, spec)) {
                put(&b, rest, (size_t)(l + n - rest));
                puts_(&b, "\n");
            }
        } else {
            put(&b, l, n);
            puts_(&b, "\n");
        }
        l += n + (l[n] == '\n');
    }
    kmt_rulefile_free(&f);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* A part's line in a flat text: its name and its words, one space apart,
 * without a comment. */
typedef struct pline {
    char name[32];
    char form[200];
} pline;

/* The parts of a flat text, at most max, in order; their count. */
static int parts_of(const char *flat, pline *out, int max) {
    int n = 0;
    for (const char *l = flat; *l && n < max;) {
        size_t len = strcspn(l, "\n");
        const char *w = l;
        while (*w == ' ' || *w == '\t')
            w++;
        size_t wl = strcspn(w, " \t\r\n");
        if (wl && *w != '#' && wl < sizeof out->name && !not_a_rule(w, wl)) {
            pline *p = &out[n++];
            snprintf(p->name, sizeof p->name, "%.*s", (int)wl, w);
            p->form[0] = '\0';
            size_t at = 0;
            for (const char *s = w + wl; s < l + len;) {
                while (s < l + len && (*s == ' ' || *s == '\t' || *s == '\r'))
                    s++;
                size_t k = 0;
                while (s + k < l + len && s[k] != ' ' && s[k] != '\t' &&
                       s[k] != '\r')
                    k++;
                if (!k || *s == '#')
                    break;
                if (at + k + 2 < sizeof p->form)
                    at += (size_t)snprintf(p->form + at, sizeof p->form - at,
                                           "%s%.*s", at ? " " : "", (int)k, s);
                s += k;
            }
        }
        l += len + (l[len] == '\n');
    }
    return n;
}

/* The family a file names, into out. */
static void family_of(const char *text, char *out, size_t len) {
    out[0] = '\0';
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        if (n > 7 && strncmp(l, "family ", 7) == 0) {
            size_t k = strcspn(l + 7, " \t\r\n#");
            snprintf(out, len, "%.*s", (int)k, l + 7);
            return;
        }
        l += n + (l[n] == '\n');
    }
}

/* Every option spec of a built-in file: the id with each combination of
 * its list options' values (at most 64), into specs; their count. */
static int option_specs(const char *id, const char *text, char (*specs)[160],
                        int max) {
    kmt_rulefile f;
    int n = 0;
    if (kmt_rulefile_parse(text, &f, NULL))
        return 0;
    int total = 1;
    for (int i = 0; i < f.noptions; i++)
        if (f.option[i].nwords)
            total *= f.option[i].nwords;
    for (int c = 0; c < total && n < max; c++) {
        size_t at = (size_t)snprintf(specs[n], 160, "%s", id);
        char sep = ':';
        for (int i = 0, rest = c; i < f.noptions; i++) {
            const kmt_option *o = &f.option[i];
            if (!o->nwords)
                continue;
            int k = rest % o->nwords;
            rest /= o->nwords;
            if (at < 160)
                at += (size_t)snprintf(specs[n] + at, 160 - at, "%c%s=%s", sep,
                                       o->key, o->word[k]);
            sep = ',';
        }
        n++;
    }
    kmt_rulefile_free(&f);
    return n;
}

/* The candidate forms of the parts: every (name, form) a built-in file of
 * `family` gives at any of its options' values, in the order met, with
 * `absent` set for a name some such reading lacks. */
#define MAX_FORMS 400
typedef struct forms {
    pline f[MAX_FORMS];
    int n;
    char absent[64][32]; /* names some reading has no part of */
    int nabsent;
} forms;

static void collect_forms(const char *family, forms *F) {
    F->n = F->nabsent = 0;
    pline all[64], got[64];
    int nall = 0;
    char specs[64][160];
    /* the names of the family's parts, over every reading */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; kmt_rulesets_builtin[i][0]; i++) {
            const char *text = kmt_rulesets_builtin[i][1];
            char fam[16];
            family_of(text, fam, sizeof fam);
            if (strcmp(fam, family) != 0)
                continue;
            int ns = option_specs(kmt_rulesets_builtin[i][0], text, specs, 64);
            for (int s = 0; s < ns; s++) {
                char *flat = flatten(text, specs[s]);
                if (!flat)
                    continue;
                int n = parts_of(flat, got, 64);
                free(flat);
                for (int k = 0; k < n; k++) {
                    if (pass == 0) {
                        bool seen = false;
                        for (int j = 0; j < nall && !seen; j++)
                            seen = strcmp(all[j].name, got[k].name) == 0;
                        if (!seen && nall < 64)
                            all[nall++] = got[k];
                        seen = false;
                        for (int j = 0; j < F->n && !seen; j++)
                            seen = strcmp(F->f[j].name, got[k].name) == 0 &&
                                   strcmp(F->f[j].form, got[k].form) == 0;
                        if (!seen && F->n < MAX_FORMS)
                            F->f[F->n++] = got[k];
                    }
                }
                if (pass == 1)
                    for (int j = 0; j < nall; j++) {
                        bool has = false;
                        for (int k = 0; k < n && !has; k++)
                            has = strcmp(all[j].name, got[k].name) == 0;
                        bool said = false;
                        for (int a = 0; a < F->nabsent && !said; a++)
                            said = strcmp(F->absent[a], all[j].name) == 0;
                        if (!has && !said && F->nabsent < 64)
                            snprintf(F->absent[F->nabsent++], 32, "%.31s",
                                     all[j].name);
                    }
            }
        }
}

/* The flat text of `base` with change c made (options at `spec`), its id
 * and title the change's; NULL for memory. */
static char *changed_text(const kemet_rules *base, const kemet_change *c) {
    const char *text = text_of(base);
    if (!text)
        return NULL;
    char spec[300];
    if (c->option && snprintf(spec, sizeof spec, "%s:%s", base->info.id,
                              c->to) >= (int)sizeof spec)
        return NULL; /* no option's value is so long */
    char *flat = flatten(text, c->option ? spec : NULL);
    if (!flat)
        return NULL;
    buf b = {0};
    bool added = false;
    for (const char *l = flat; *l;) {
        size_t n = strcspn(l, "\n");
        const char *w = l;
        while (*w == ' ' || *w == '\t')
            w++;
        size_t wl = strcspn(w, " \t\r\n");
        if (wl == 2 && strncmp(w, "id", 2) == 0) {
            puts_(&b, "id ");
            puts_(&b, c->id);
            puts_(&b, "\n");
        } else if (wl == 5 && strncmp(w, "title", 5) == 0) {
            put(&b, l, n);
            puts_(&b, c->option ? ", with " : ", with '");
            puts_(&b, c->to[0] ? c->to : "no ");
            puts_(&b, c->to[0] ? "" : c->part);
            puts_(&b, c->option ? "\n" : "'\n");
        } else if (!c->option && wl == strlen(c->part) &&
                   strncmp(w, c->part, wl) == 0) {
            /* the part changed: its new form, or nothing */
            if (c->to[0] && !added) {
                puts_(&b, c->to);
                puts_(&b, "\n");
                added = true;
            }
        } else if (!c->option && !added && c->to[0] && !c->from[0] && wl == 4 &&
                   strncmp(w, "text", 4) == 0) {
            /* a part added goes before the rules in words */
            puts_(&b, c->to);
            puts_(&b, "\n");
            added = true;
            put(&b, l, n);
            puts_(&b, "\n");
        } else {
            put(&b, l, n);
            puts_(&b, "\n");
        }
        l += n + (l[n] == '\n');
    }
    free(flat);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* A readable id for the change: the base's and the new form's words. */
static void change_id(const kemet_rules *base, const char *part, const char *to,
                      int k, char *out, size_t len) {
    char slug[64];
    size_t at = 0;
    const char *src = to[0] ? to : part;
    if (!to[0])
        at = (size_t)snprintf(slug, sizeof slug, "no-");
    for (const char *s = src; *s && at + 1 < sizeof slug; s++) {
        char c = *s;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            slug[at++] = c;
        else if (at && slug[at - 1] != '-')
            slug[at++] = '-';
    }
    while (at && slug[at - 1] == '-')
        at--;
    slug[at] = '\0';
    char tail[16];
    snprintf(tail, sizeof tail, "-%d", k + 1);
    /* ID-SLUG, cut to leave room for -K, at most 40 characters */
    int room = 40 - (int)strlen(tail);
    snprintf(out, len, "%.*s", room, base->info.id);
    size_t used = strlen(out);
    if ((int)used + 1 < room)
        snprintf(out + used, len - used, "-%.*s", room - (int)used - 1, slug);
    used = strlen(out);
    while (used && out[used - 1] == '-')
        out[--used] = '\0';
    snprintf(out + used, len - used, "%s", tail);
}

int kemet_change_text(const kemet_rules *rules, const kemet_change *c,
                      char **out, kemet_error *err) {
    if (!rules || !c || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_change_text: NULL argument");
    *out = changed_text(rules, c);
    return *out ? KEMET_OK : kmt_fail(err, KEMET_ENOMEM, "out of memory");
}

int kemet_rules_open_change(const kemet_rules *rules, const kemet_change *c,
                            kemet_rules **out, kemet_error *err) {
    if (!rules || !c || !out)
        return kmt_fail(err, KEMET_EMISUSE,
                        "kemet_rules_open_change: NULL argument");
    *out = NULL;
    char *text;
    int rc = kemet_change_text(rules, c, &text, err);
    if (rc)
        return rc;
    rc = kmt_rules_open_change(rules, text, out, err);
    free(text);
    return rc;
}

/* Adds change c when its reading opens and differs from every one before
 * (the same parts, in any order, are the same reading). */
static int try_add(const kemet_rules *base, kemet_change *c, kemet_change *out,
                   int *n, int max, int *refused, char (*seen)[4096],
                   int *nseen) {
    char *text = changed_text(base, c);
    if (!text)
        return KEMET_ENOMEM;
    kemet_rules *r;
    kemet_error e;
    int rc = kmt_rules_open_change(base, text, &r, &e);
    if (rc == KEMET_ENOMEM) {
        free(text);
        return rc;
    }
    if (rc) {
        (*refused)++;
        free(text);
        return KEMET_OK;
    }
    kemet_rules_close(r);
    /* the reading's parts, sorted, as its signature */
    pline p[64];
    int np = parts_of(text, p, 64);
    free(text);
    for (int i = 1; i < np; i++)
        for (int j = i; j > 0 && strcmp(p[j - 1].name, p[j].name) > 0; j--) {
            pline t = p[j];
            p[j] = p[j - 1];
            p[j - 1] = t;
        }
    char sig[4096] = "";
    size_t at = 0;
    for (int i = 0; i < np && at < sizeof sig; i++)
        at += (size_t)snprintf(sig + at, sizeof sig - at, "%s %s\n", p[i].name,
                               p[i].form);
    /* an option's value changes no part's line: never the same reading */
    for (int i = 0; i < *nseen && !c->option; i++)
        if (strcmp(seen[i], sig) == 0)
            return KEMET_OK;
    if (*nseen < 64)
        snprintf(seen[(*nseen)++], 4096, "%s", sig);
    if (*n < max)
        out[(*n)++] = *c;
    return KEMET_OK;
}

int kemet_rule_changes(const kemet_rules *rules, kemet_change *out, int max,
                       int *refused, kemet_error *err) {
    if (!rules || (!out && max > 0) || max < 0)
        return kmt_fail(err, KEMET_EMISUSE,
                        "kemet_rule_changes: NULL argument");
    if (strcmp(rules->spec, rules->info.id) != 0)
        return kmt_fail(err, KEMET_EMISUSE,
                        "rules are changed in a reading at its default "
                        "options, not in %s",
                        rules->spec);
    const char *text = text_of(rules);
    if (!text)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_rule_changes: no text");
    int skipped = 0, n = 0, nseen = 0, rc = KEMET_OK;
    forms *F = malloc(sizeof *F);
    char(*seen)[4096] = malloc(64 * sizeof *seen);
    char *flat = flatten(text, NULL);
    if (!F || !seen || !flat) {
        free(F);
        free(seen);
        free(flat);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    /* the reading itself: no change is the same reading */
    {
        pline p[64];
        int np = parts_of(flat, p, 64);
        for (int i = 1; i < np; i++)
            for (int j = i; j > 0 && strcmp(p[j - 1].name, p[j].name) > 0;
                 j--) {
                pline t = p[j];
                p[j] = p[j - 1];
                p[j - 1] = t;
            }
        size_t at = 0;
        seen[0][0] = '\0';
        for (int i = 0; i < np && at < 4096; i++)
            at += (size_t)snprintf(seen[0] + at, 4096 - at, "%s %s\n",
                                   p[i].name, p[i].form);
        nseen = 1;
    }
    /* each option at each of its other values */
    const kmt_rulefile *f = &rules->file;
    for (int i = 0; i < f->noptions && !rc && n < max; i++) {
        const kmt_option *o = &f->option[i];
        int values = o->nwords ? o->nwords : o->max - o->min + 1;
        for (int v = 0; v < values && !rc && n < max && v < 16; v++) {
            int value = o->nwords ? v : o->min + v;
            if (value == o->def)
                continue;
            kemet_change c = {.option = 1};
            snprintf(c.part, sizeof c.part, "%s", o->key);
            if (o->nwords) {
                snprintf(c.from, sizeof c.from, "%s=%s", o->key,
                         o->word[o->def]);
                snprintf(c.to, sizeof c.to, "%s=%s", o->key, o->word[v]);
            } else {
                snprintf(c.from, sizeof c.from, "%s=%d", o->key, o->def);
                snprintf(c.to, sizeof c.to, "%s=%d", o->key, value);
            }
            change_id(rules, c.part, c.to, n, c.id, sizeof c.id);
            rc = try_add(rules, &c, out, &n, max, &skipped, seen, &nseen);
        }
    }
    /* each part: every other form its family's readings give it, its
       absence, and the parts other readings have and this one has not */
    char family[16];
    family_of(text, family, sizeof family);
    collect_forms(family, F);
    pline mine[64];
    int nmine = parts_of(flat, mine, 64);
    for (int i = 0; i <= nmine && !rc && n < max; i++) {
        /* i == nmine: the parts this reading lacks, in the forms' order */
        for (int k = 0; k < F->n && !rc && n < max; k++) {
            const pline *alt = &F->f[k];
            const pline *has = NULL;
            for (int j = 0; j < nmine; j++)
                if (strcmp(mine[j].name, alt->name) == 0)
                    has = &mine[j];
            if (i < nmine ? strcmp(alt->name, mine[i].name) != 0 : has != NULL)
                continue;
            if (has && strcmp(has->form, alt->form) == 0)
                continue;
            kemet_change c = {0};
            snprintf(c.part, sizeof c.part, "%.31s", alt->name);
            /* a statement too long to say whole is no change to make */
            if ((has && snprintf(c.from, sizeof c.from, "%s %s", has->name,
                                 has->form) >= (int)sizeof c.from) ||
                snprintf(c.to, sizeof c.to, "%s%s%s", alt->name,
                         alt->form[0] ? " " : "",
                         alt->form) >= (int)sizeof c.to) {
                skipped++;
                continue;
            }
            change_id(rules, c.part, c.to, n, c.id, sizeof c.id);
            rc = try_add(rules, &c, out, &n, max, &skipped, seen, &nseen);
        }
        if (i < nmine && !rc && n < max) {
            /* the part removed, where another reading has none */
            bool absent = false;
            for (int a = 0; a < F->nabsent && !absent; a++)
                absent = strcmp(F->absent[a], mine[i].name) == 0;
            if (absent) {
                kemet_change c = {0};
                snprintf(c.part, sizeof c.part, "%.31s", mine[i].name);
                if (snprintf(c.from, sizeof c.from, "%s %s", mine[i].name,
                             mine[i].form) < (int)sizeof c.from) {
                    change_id(rules, c.part, "", n, c.id, sizeof c.id);
                    rc = try_add(rules, &c, out, &n, max, &skipped, seen,
                                 &nseen);
                } else {
                    skipped++;
                }
            }
        }
    }
    free(flat);
    free(F);
    free(seen);
    if (rc)
        return kmt_fail(err, rc, "out of memory");
    if (refused)
        *refused = skipped;
    return n;
}
