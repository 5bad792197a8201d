/* report_json.c - the data of `kemet analyze`'s report as JSON, written
 * and read back (docs/analysis-json.md, schema "kemet-analysis 1").
 *
 * One walk over the report's structures both writes and reads: each
 * field is named once, in a visitor (v_*) that prints it when writing
 * and takes it from the parsed document when reading, so the two cannot
 * drift apart. A number is written in the fewest digits that read back
 * to the same double, so a report read back is the report measured, bit
 * for bit, and the Markdown and plots written from either are the same.
 *
 * Reading takes hostile input: the file is capped in size, parsed by
 * Jansson (which refuses malformed JSON and text that is not UTF-8),
 * and every field is checked for its type and range, every fixed buffer
 * for room, every index for the array it points into; a field missing or
 * one the schema does not have is refused. The first problem is reported
 * in one line naming the field ("rulesets[2].strong_play.games: ...").
 * A build without Jansson writes JSON but does not read it.
 */
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef KEMET_JANSSON
#include <jansson.h>
#endif

#define SCHEMA "kemet-analysis 1"
#define DEPTH 16

/* The simple strategies, in the order of a study's probes. */
static const char *const probe_key[KEMET_STUDY_PROBES] = {
    "rearmost", "foremost", "safe-random"};

/* The readings' kinds, in the order the report lists them. */
enum {
    KIND_RULESET,
    KIND_VARIANT,
    KIND_CHANGE,
    KIND_HEADROOM,
    KIND_CHECK,
    KINDS
};
static const char *const kind_name[KINDS] = {"ruleset", "variant", "change",
                                             "headroom", "check"};
static const char *const board_name[NBOARDS] = {
    [BOARD_OTHER] = "other", [BOARD_SENET] = "senet", [BOARD_58] = "58-holes"};

/* One object or array being written or read. */
typedef struct frame {
#ifdef KEMET_JANSSON
    json_t *v; /* reading: it (a reference held) */
#endif
    const char *name; /* its key, or NULL for an element */
    bool array;
    size_t next; /* an array's next element */
    bool first;  /* writing: nothing in it yet */
} frame;

typedef struct jx {
    FILE *o; /* writing onto o; NULL: reading */
    frame f[DEPTH];
    int depth;
    bool bad;      /* reading: a problem found (said in why) */
    char why[400]; /* "FIELD: what is wrong" */
    rep_report *P; /* reading: the owner of the settings' strings */
} jx;

/* ------------------------------------------------------------------------
 * Writing
 * --------------------------------------------------------------------- */

static void w_string(FILE *o, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', o);
    while (*p) {
        /* a byte that does not start well-formed UTF-8 is written as
         * U+FFFD, so that the document is always UTF-8 */
        int n = kc_utf8_len(p) - 1;
        if (n < 0) {
            fputs("\\ufffd", o);
            p++;
        } else if (*p == '"' || *p == '\\') {
            fprintf(o, "\\%c", *p++);
        } else if (*p < 0x20) {
            fprintf(o, "\\u%04x", *p++);
        } else {
            fwrite(p, 1, (size_t)n + 1, o);
            p += n + 1;
        }
    }
    fputc('"', o);
}

/* A double in the fewest significant digits that read back to it; NaN
 * as null, the infinities as "inf" and "-inf". */
static void w_num(FILE *o, double d) {
    if (isnan(d)) {
        fputs("null", o);
        return;
    }
    if (isinf(d)) {
        fputs(d < 0 ? "\"-inf\"" : "\"inf\"", o);
        return;
    }
    if (d == 0 && signbit(d)) {
        fputs("-0.0", o); /* "-0" would read back as the integer 0 */
        return;
    }
    char b[40];
    for (int p = 15; p <= 17; p++) {
        snprintf(b, sizeof b, "%.*g", p, d);
        if (strtod(b, NULL) == d)
            break;
    }
    fputs(b, o);
}

/* Starts a value: the comma before it, and its key in an object. */
static void w_key(jx *x, const char *key) {
    frame *t = &x->f[x->depth - 1];
    if (!t->first)
        fputc(',', x->o);
    t->first = false;
    if (x->depth <= 2)
        fputc('\n', x->o); /* the top level and its arrays a line each */
    if (key) {
        w_string(x->o, key);
        fputc(':', x->o);
    }
}

/* ------------------------------------------------------------------------
 * Reading
 * --------------------------------------------------------------------- */

/* Where the reader is, as "rulesets[2].strong_play", into buf. */
static void where(const jx *x, const char *key, char *buf, size_t size) {
    size_t len = 0;
    buf[0] = '\0';
    for (int d = 1; d < x->depth && len < size; d++) {
        const frame *t = &x->f[d];
        if (t->name)
            len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                    len ? "." : "", t->name);
        if (x->f[d - 1].array && len < size)
            len += (size_t)snprintf(buf + len, size - len, "[%zu]",
                                    x->f[d - 1].next - 1);
    }
    if (key && len < size)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "." : "",
                                key);
    else if (!key && x->depth > 0 && x->f[x->depth - 1].array && len < size)
        snprintf(buf + len, size - len, "[%zu]", x->f[x->depth - 1].next - 1);
}

/* Notes the first problem, at field `key` of where the reader is. */
static void fail(jx *x, const char *key, const char *what) {
    if (x->bad)
        return;
    char at[200];
    where(x, key, at, sizeof at);
    snprintf(x->why, sizeof x->why, "%s: %s", at[0] ? at : "the document",
             what);
    x->bad = true;
}

#ifdef KEMET_JANSSON
/* The value of field `key` (an object's member, taken out of it so that
 * what is left at its end is what the schema does not have) or of the
 * next element (key NULL): a reference the caller releases, or NULL
 * after a problem noted. */
static json_t *take(jx *x, const char *key) {
    if (x->bad)
        return NULL;
    frame *t = &x->f[x->depth - 1];
    json_t *v;
    if (key) {
        v = json_object_get(t->v, key);
        if (!v) {
            fail(x, key, "missing");
            return NULL;
        }
        json_incref(v);
        json_object_del(t->v, key);
    } else {
        v = json_array_get(t->v, t->next++);
        if (!v) {
            fail(x, NULL, "missing");
            return NULL;
        }
        json_incref(v);
    }
    return v;
}
#endif

/* ------------------------------------------------------------------------
 * The visitors: key is the field's name, NULL for an array's next element
 * --------------------------------------------------------------------- */

/* Enters object `key` (null allowed where *present is given: false for
 * null). Whether it was entered; if so, v_end closes it. */
static bool v_obj_opt(jx *x, const char *key, bool *present) {
    if (x->o) {
        if (present && !*present) {
            w_key(x, key);
            fputs("null", x->o);
            return false;
        }
        w_key(x, key);
        fputc('{', x->o);
        x->f[x->depth++] = (frame){.name = key, .first = true};
        return true;
    }
#ifdef KEMET_JANSSON
    json_t *v = take(x, key);
    if (!v)
        return false;
    if (present && json_is_null(v)) {
        *present = false;
        json_decref(v);
        return false;
    }
    if (!json_is_object(v) || x->depth == DEPTH) {
        fail(x, key, present ? "not an object or null" : "not an object");
        json_decref(v);
        return false;
    }
    if (present)
        *present = true;
    x->f[x->depth++] = (frame){.v = v, .name = key};
    return true;
#else
    return false;
#endif
}

static bool v_obj(jx *x, const char *key) {
    return v_obj_opt(x, key, NULL);
}

/* Enters array `key` of *n elements (reading: its size, from lo to hi).
 * Whether it was entered; if so, v_end closes it. */
static bool v_arr(jx *x, const char *key, int *n, int lo, int hi) {
    if (x->o) {
        w_key(x, key);
        fputc('[', x->o);
        x->f[x->depth++] = (frame){.name = key, .array = true, .first = true};
        return true;
    }
#ifdef KEMET_JANSSON
    json_t *v = take(x, key);
    if (!v)
        return false;
    if (!json_is_array(v) || x->depth == DEPTH) {
        fail(x, key, "not an array");
        json_decref(v);
        return false;
    }
    size_t size = json_array_size(v);
    if (size < (size_t)lo || size > (size_t)hi) {
        char what[80];
        if (lo == hi)
            snprintf(what, sizeof what, "%d elements, not %zu", lo, size);
        else
            snprintf(what, sizeof what, "%d to %d elements, not %zu", lo, hi,
                     size);
        fail(x, key, what);
        json_decref(v);
        return false;
    }
    *n = (int)size;
    x->f[x->depth++] = (frame){.v = v, .name = key, .array = true};
    return true;
#else
    (void)n, (void)lo, (void)hi;
    return false;
#endif
}

/* Leaves the object or array entered last. Reading, a member left in an
 * object is one the schema does not have. */
static void v_end(jx *x) {
    frame *t = &x->f[--x->depth];
    if (x->o) {
        fputc(t->array ? ']' : '}', x->o);
        return;
    }
#ifdef KEMET_JANSSON
    if (!t->array && json_object_size(t->v) > 0) {
        char what[120];
        snprintf(what, sizeof what, "no field '%.60s' in this schema",
                 json_object_iter_key(json_object_iter(t->v)));
        x->depth++;
        fail(x, NULL, what);
        x->depth--;
    }
    json_decref(t->v);
#endif
}

/* A number (NaN: null; the infinities: "inf", "-inf"). */
static void v_num(jx *x, const char *key, double *d) {
    if (x->o) {
        w_key(x, key);
        w_num(x->o, *d);
        return;
    }
#ifdef KEMET_JANSSON
    json_t *v = take(x, key);
    if (!v)
        return;
    const char *s = json_string_value(v);
    if (json_is_null(v))
        *d = NAN;
    else if (json_is_number(v))
        *d = json_number_value(v);
    else if (s && strcmp(s, "inf") == 0)
        *d = INFINITY;
    else if (s && strcmp(s, "-inf") == 0)
        *d = -INFINITY;
    else
        fail(x, key, "not a number, null, \"inf\" or \"-inf\"");
    json_decref(v);
#endif
}

/* A number that must be finite and within lo..hi. */
static void v_real(jx *x, const char *key, double *d, double lo, double hi) {
    v_num(x, key, d);
    if (!x->o && !x->bad && !(*d >= lo && *d <= hi))
        fail(x, key, "out of range");
}

/* An integer within lo..hi. */
static void v_long(jx *x, const char *key, long *n, long lo, long hi) {
    if (x->o) {
        w_key(x, key);
        fprintf(x->o, "%ld", *n);
        return;
    }
#ifdef KEMET_JANSSON
    json_t *v = take(x, key);
    if (!v)
        return;
    if (!json_is_integer(v))
        fail(x, key, "not an integer");
    else if (json_integer_value(v) < lo || json_integer_value(v) > hi) {
        char what[100];
        snprintf(what, sizeof what, "%lld is out of range (%ld to %ld)",
                 (long long)json_integer_value(v), lo, hi);
        fail(x, key, what);
    } else
        *n = (long)json_integer_value(v);
    json_decref(v);
#else
    (void)lo, (void)hi;
#endif
}

static void v_int(jx *x, const char *key, int *n, int lo, int hi) {
    long l = *n;
    v_long(x, key, &l, lo, hi);
    *n = (int)l;
}

static void v_bool(jx *x, const char *key, bool *b) {
    if (x->o) {
        w_key(x, key);
        fputs(*b ? "true" : "false", x->o);
        return;
    }
#ifdef KEMET_JANSSON
    json_t *v = take(x, key);
    if (!v)
        return;
    if (!json_is_boolean(v))
        fail(x, key, "not true or false");
    else
        *b = json_is_true(v);
    json_decref(v);
#endif
}

/* A flag kept as an int (0 or 1). */
static void v_flag(jx *x, const char *key, int *n) {
    bool b = *n != 0;
    v_bool(x, key, &b);
    *n = b;
}

/* A string, or NULL where nullable; reading, a copy of it (malloc) into
 * *s, or a reference into the document's (*ref) until the reader frees
 * it: out is what it was read into. */
static void v_string(jx *x, const char *key, const char **s, bool nullable,
                     char **copy) {
    if (x->o) {
        w_key(x, key);
        if (*s)
            w_string(x->o, *s);
        else
            fputs("null", x->o);
        return;
    }
#ifdef KEMET_JANSSON
    json_t *v = take(x, key);
    if (!v)
        return;
    if (nullable && json_is_null(v))
        *s = NULL;
    else if (!json_is_string(v))
        fail(x, key, nullable ? "not a string or null" : "not a string");
    else if (!(*copy = strdup(json_string_value(v))))
        fail(x, key, "out of memory");
    else
        *s = *copy;
    json_decref(v);
#else
    (void)nullable, (void)copy;
#endif
}

/* A string into a buffer of `size` bytes. */
static void v_text(jx *x, const char *key, char *buf, size_t size) {
    const char *s = buf;
    char *copy = NULL;
    v_string(x, key, &s, false, &copy);
    if (copy) {
        if (strlen(copy) >= size) {
            char what[80];
            snprintf(what, sizeof what, "longer than %zu bytes", size - 1);
            fail(x, key, what);
        } else
            memcpy(buf, copy, strlen(copy) + 1);
        free(copy);
    }
}

/* A string of the reader's own (NULL where nullable and null). */
static void v_own(jx *x, const char *key, char **s, bool nullable) {
    const char *c = *s;
    char *copy = NULL;
    v_string(x, key, &c, nullable, &copy);
    if (!x->o)
        *s = copy;
}

/* A string the report owns (the settings'). */
static void v_kept(jx *x, const char *key, const char **s, bool nullable) {
    char *copy = NULL;
    v_string(x, key, s, nullable, &copy);
    if (!copy)
        return;
    rep_report *P = x->P;
    if (P->nown == P->room) {
        int room = P->room ? 2 * P->room : 32;
        char **own = realloc(P->own, (size_t)room * sizeof *own);
        if (!own) {
            free(copy);
            *s = NULL;
            fail(x, key, "out of memory");
            return;
        }
        P->own = own;
        P->room = room;
    }
    P->own[P->nown++] = copy;
}

/* Text the plots draw (SVG): no markup, so no '<', '>', '&' or '"'. */
static void v_plain(jx *x, const char *key, char *buf, size_t size) {
    v_text(x, key, buf, size);
    if (!x->o && !x->bad && strpbrk(buf, "<>&\""))
        fail(x, key, "a '<', '>', '&' or '\"' where the plots draw it");
}

/* A reading's id: also the name of its plot file, so no '/', no '\',
 * no control character and no leading '.'; and drawn in the plots. */
static void v_id(jx *x, const char *key, char *buf, size_t size) {
    v_plain(x, key, buf, size);
    if (!x->o && !x->bad &&
        (!buf[0] || buf[0] == '.' || strpbrk(buf, "/\\") ||
         strpbrk(buf, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d"
                      "\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a"
                      "\x1b\x1c\x1d\x1e\x1f")))
        fail(x, key,
             "not a ruleset's id (empty, a leading '.', a '/', a "
             "'\\' or a control character)");
}

/* One of the names in list[0..n): its index into *k. */
static void v_enum(jx *x, const char *key, int *k, const char *const *list,
                   int n) {
    const char *s = x->o ? list[*k] : NULL;
    char *copy = NULL;
    v_string(x, key, &s, false, &copy);
    if (!copy)
        return;
    int i = 0;
    while (i < n && strcmp(copy, list[i]) != 0)
        i++;
    if (i == n) {
        char what[200];
        int len = snprintf(what, sizeof what, "not one of");
        for (int j = 0; j < n && len < (int)sizeof what; j++)
            len += snprintf(what + len, sizeof what - (size_t)len, "%s \"%s\"",
                            j ? "," : "", list[j]);
        fail(x, key, what);
    } else
        *k = i;
    free(copy);
}

/* An interval: {"value": v, "ci95": [lo, hi]}. */
static void v_stat(jx *x, const char *key, kemet_stat *s) {
    if (!v_obj(x, key))
        return;
    v_num(x, "value", &s->value);
    int two = 2;
    if (v_arr(x, "ci95", &two, 2, 2)) {
        v_num(x, NULL, &s->lo);
        v_num(x, NULL, &s->hi);
        v_end(x);
    }
    v_end(x);
}

/* An array of exactly n numbers (each finite and at least 0 where
 * `counts`). */
static void v_nums(jx *x, const char *key, double *d, int n, bool counts) {
    int k = n;
    if (!v_arr(x, key, &k, n, n))
        return;
    for (int i = 0; i < n; i++)
        if (counts)
            v_real(x, NULL, &d[i], 0, 1e300);
        else
            v_num(x, NULL, &d[i]);
    v_end(x);
}

static void v_longs(jx *x, const char *key, long *l, int n) {
    int k = n;
    if (!v_arr(x, key, &k, n, n))
        return;
    for (int i = 0; i < n; i++)
        v_long(x, NULL, &l[i], 0, LONG_MAX);
    v_end(x);
}

/* A value written for the reader's convenience, derived from others:
 * reading, it must be there and is not read. */
static bool derived(jx *x, const char *key) {
    if (x->o)
        return true;
#ifdef KEMET_JANSSON
    json_decref(take(x, key));
#else
    (void)key;
#endif
    return false;
}

/* ------------------------------------------------------------------------
 * The report's parts
 * --------------------------------------------------------------------- */

static void v_selfplay(jx *x, const char *key, kemet_selfplay_figures *S) {
    kemet_analysis *a = &S->analysis;
    if (!v_obj(x, key))
        return;
    int two = 2;
    if (v_arr(x, "agents", &two, 2, 2)) {
        v_text(x, NULL, S->agent[0], sizeof S->agent[0]);
        v_text(x, NULL, S->agent[1], sizeof S->agent[1]);
        v_end(x);
    }
    v_long(x, "games", &S->games, 0, LONG_MAX);
    v_num(x, "median_turns", &a->median_turns);
    v_num(x, "BoardCoverage", &S->coverage);
    v_stat(x, "AdvantageP1Adjusted", &S->p1_adjusted);
    v_stat(x, "Completion", &a->completion);
    v_stat(x, "Drawishness", &a->drawishness);
    v_stat(x, "AdvantageP1", &a->advantage_p1);
    v_stat(x, "Balance", &a->balance);
    v_stat(x, "DurationTurns", &a->duration_turns);
    v_stat(x, "LostThrows", &a->lost_throws);
    v_stat(x, "ForcedMoves", &a->forced_moves);
    v_stat(x, "Choices", &a->choices);
    v_stat(x, "BranchingFactor", &a->branching_factor);
    v_stat(x, "LeadChange", &a->lead_change);
    v_stat(x, "Drama", &a->drama);
    v_stat(x, "DecisivenessThreshold", &a->decisiveness_threshold);
    v_num(x, "TableDecisions", &S->table_decisions);
    v_num(x, "LinearErrors", &S->linear_errors);
    v_num(x, "LinearLoss", &S->linear_loss);
    v_stat(x, "DurationMoves", &a->duration_moves);
    v_num(x, "sd_turns", &a->sd_turns);
    v_num(x, "median_moves", &a->median_moves);
    v_num(x, "sd_moves", &a->sd_moves);
    if (v_obj(x, "counts")) {
        v_long(x, "games", &a->games, 0, LONG_MAX);
        v_long(x, "ended", &a->ended, 0, LONG_MAX);
        v_long(x, "stopped", &a->stopped, 0, LONG_MAX);
        v_long(x, "draws", &a->draws, 0, LONG_MAX);
        v_longs(x, "wins", a->wins, 2);
        v_end(x);
    }
    if (v_obj(x, "histogram")) {
        v_real(x, "bin", &S->bin, 0, 1e9);
        v_longs(x, "games", S->hist, KEMET_STUDY_BINS);
        v_end(x);
    }
    v_flag(x, "luck", &S->luck);
    v_stat(x, "MedianTurns", &S->median);
    v_stat(x, "DecisionsPerTurn", &S->per_turn);
    v_stat(x, "Stopped", &S->stopped);
    v_num(x, "decisions", &S->decisions);
    v_nums(x, "land", S->land, KEMET_STUDY_CELLS, true);
    v_end(x);
}

static void v_estimate(jx *x, const char *key, kemet_estimate *e) {
    if (!v_obj(x, key))
        return;
    v_num(x, "score", &e->score);
    v_num(x, "lo", &e->lo);
    v_num(x, "hi", &e->hi);
    v_num(x, "elo", &e->elo);
    v_num(x, "elo_lo", &e->elo_lo);
    v_num(x, "elo_hi", &e->elo_hi);
    v_end(x);
}

static void v_match(jx *x, const char *key, kemet_match_figures *m) {
    kemet_match_stats *s = &m->stats;
    if (!v_obj(x, key))
        return;
    v_plain(x, "upper", m->upper, sizeof m->upper);
    v_plain(x, "lower", m->lower, sizeof m->lower);
    v_long(x, "games", &m->games, 0, LONG_MAX);
    v_flag(x, "contradiction", &m->contradiction);
    kemet_stat adj = {s->adj.score, s->adj.lo, s->adj.hi};
    if (derived(x, "adjusted"))
        v_stat(x, "adjusted", &adj);
    if (derived(x, "luck_share"))
        v_num(x, "luck_share", &m->luck_share.value);
    v_stat(x, "LuckShare", &m->luck_share);
    v_num(x, "sd", &m->sd);
    if (v_obj(x, "stats")) {
        v_long(x, "games", &s->games, 0, LONG_MAX);
        v_longs(x, "wins", s->wins, 2);
        v_longs(x, "seat_wins_1", s->seat_wins[0], 2);
        v_longs(x, "seat_wins_2", s->seat_wins[1], 2);
        v_long(x, "draws", &s->draws, 0, LONG_MAX);
        v_long(x, "stopped", &s->stopped, 0, LONG_MAX);
        v_num(x, "turns", &s->turns);
        v_nums(x, "win_lo", s->lo, 2, false);
        v_nums(x, "win_hi", s->hi, 2, false);
        v_num(x, "score", &s->score);
        v_num(x, "score_lo", &s->score_lo);
        v_num(x, "score_hi", &s->score_hi);
        v_num(x, "elo", &s->elo);
        v_num(x, "elo_lo", &s->elo_lo);
        v_num(x, "elo_hi", &s->elo_hi);
        v_num(x, "seconds", &s->secs);
        v_nums(x, "think", s->think, 2, false);
        v_int(x, "how", &s->how, 0, INT_MAX);
        v_estimate(x, "adj", &s->adj);
        v_end(x);
    }
    v_end(x);
}

/* The verdict's figures (keyed by criterion). */
static void v_criteria(jx *x, const char *key, kemet_stat *c) {
    if (!v_obj(x, key))
        return;
    for (int k = 0; k < KEMET_CRITERIA; k++)
        v_stat(x, kemet_criterion_info(k)->name, &c[k]);
    v_end(x);
}

static void v_verdict(jx *x, const char *key, rep_reading *R, int w,
                      bool judged) {
    if (!v_obj(x, key))
        return;
    v_criteria(x, "figures", R->vm[w].c);
    v_longs(x, "games", R->vm[w].games, KEMET_CRITERIA);
    bool present = judged;
    kemet_judged *J = &R->vj[w];
    if (v_obj_opt(x, "judged", &present)) {
        v_int(x, "flags", &J->flags, 0, (1 << KEMET_CRITERIA) - 1);
        v_int(x, "indications", &J->indications, 0, (1 << KEMET_CRITERIA) - 1);
        v_criteria(x, "cost", J->cost);
        v_stat(x, "penalty", &J->penalty);
        v_int(x, "tier", &J->tier, 1, REPORT_MAX_SETS + KEMET_CRITERIA + 1);
        v_int(x, "place", &J->place, 1, REPORT_MAX_SETS);
        v_end(x);
    }
    if (!x->o && !x->bad && present != judged)
        fail(x, "judged",
             judged ? "null for a ruleset named"
                    : "given for a variant or rule change "
                      "(null: not judged among the rulesets)");
    v_end(x);
}

static void v_samples(jx *x, const char *key, rep_reading *R, int w, long cap) {
    kemet_selfplay_figures *S = w ? &R->f.strong : &R->f.weak;
    if (!v_arr(x, key, &S->nsample, 0, KEMET_STUDY_SAMPLES))
        return;
    for (int k = 0; k < S->nsample && !x->bad; k++) {
        if (!v_obj(x, NULL))
            break;
        v_int(x, "result", &S->sample_result[k], KEMET_PLAYING, KEMET_DRAW);
        int n = S->sample_n[k];
        if (v_arr(x, "p1", &n, 0, (int)(2 * cap + 2))) {
            if (!x->o) {
                R->samples[w][k] = malloc((size_t)(n ? n : 1) * sizeof(double));
                S->sample[k] = R->samples[w][k];
                S->sample_n[k] = n;
                if (!R->samples[w][k])
                    fail(x, NULL, "out of memory");
            }
            for (int j = 0; j < n && !x->bad; j++)
                v_num(x, NULL, (double *)&S->sample[k][j]);
            v_end(x);
        }
        v_end(x);
    }
    v_end(x);
}

/* The board's drawing (kemet_art), in the object entered, its places
 * held to sizes a plot can draw. */
static void v_art(jx *x, kemet_board_art *A) {
    v_real(x, "w", &A->w, 1e-6, 1e6);
    v_real(x, "h", &A->h, 1e-6, 1e6);
    v_int(x, "frame", &A->frame, 0, 1);
    if (v_arr(x, "holes", &A->nholes, 0, KEMET_ART_HOLES)) {
        for (int k = 0; k < A->nholes; k++) {
            kemet_hole_art *H = &A->hole[k];
            if (!v_obj(x, NULL))
                break;
            v_int(x, "cell", &H->cell, 0, INT_MAX);
            v_real(x, "x", &H->x, -1e6, 1e6);
            v_real(x, "y", &H->y, -1e6, 1e6);
            v_real(x, "r", &H->r, 0, 1e6);
            v_int(x, "shape", &H->shape, 0, 1);
            v_int(x, "flags", &H->flags, 0, 3);
            v_int(x, "home", &H->home, 0, 2);
            v_plain(x, "label", H->label, sizeof H->label);
            v_plain(x, "mark", H->mark, sizeof H->mark);
            v_end(x);
        }
        v_end(x);
    }
    if (v_arr(x, "links", &A->nlinks, 0, KEMET_ART_LINKS)) {
        for (int k = 0; k < A->nlinks; k++) {
            kemet_art_link *L = &A->link[k];
            if (!v_obj(x, NULL))
                break;
            v_int(x, "from", &L->from, 0, INT_MAX);
            v_int(x, "to", &L->to, 0, INT_MAX);
            v_int(x, "kind", &L->kind, 0, 1);
            v_real(x, "bend", &L->bend, -1e6, 1e6);
            v_end(x);
        }
        v_end(x);
    }
}

/* Reading i's `key`: 1 + the index of the reading (a ruleset named or a
 * variant, all listed before i) it is a study of, as an index or null
 * (*of 0); `is`: whether reading i's kind is such a study (`what`). */
static void v_of(jx *x, const rep_report *P, int i, const char *key, int *of,
                 bool is, const char *what) {
    long at = *of - 1;
    if (x->o && !*of) {
        w_key(x, key);
        fputs("null", x->o);
        return;
    }
#ifdef KEMET_JANSSON
    json_t *h = x->o ? NULL : json_object_get(x->f[x->depth - 1].v, key);
    if (h && json_is_null(h)) {
        json_decref(take(x, key));
        at = -1;
    } else
#endif
    {
        int before = 0;
        for (int k = 0; !x->o && k < i; k++)
            before += P->R[k].change_of == 0 && P->R[k].headroom_of == 0 &&
                      P->R[k].check_of == 0;
        v_long(x, key, &at, 0, x->o ? INT_MAX : before - 1);
    }
    if (x->o)
        return;
    *of = (int)at + 1;
    if (!x->bad && (at >= 0) != is) {
        char why[96];
        snprintf(why, sizeof why, "%s a %s",
                 at >= 0 ? "given for a reading that is no" : "null for", what);
        fail(x, key, why);
    }
}

/* Reading i of the report; *kind its kind (reading: the kind of the
 * reading before it, which it may not precede). */
static void v_reading(jx *x, rep_report *P, int i, int *kind) {
    rep_reading *R = &P->R[i];
    kemet_study_figures *f = &R->f;
    long cap = P->st.s.cap;
    if (!v_obj(x, NULL))
        return;
    v_id(x, "ruleset", f->id, sizeof f->id);
    v_selfplay(x, "strong_play", &f->strong);
    v_selfplay(x, "weak_play", &f->weak);
    if (v_arr(x, "ladder", &f->nsteps, 0, KEMET_STUDY_RUNGS - 1)) {
        for (int k = 0; k < f->nsteps; k++) {
            if (!v_obj(x, NULL))
                break;
            long zero = 0; /* the step's place, kept as it was: 0 */
            v_long(x, "x", &zero, 0, 0);
            v_match(x, "step", &f->ladder[k]);
            v_end(x);
        }
        v_end(x);
    }
    v_match(x, "strong_vs_weak", &f->head);
    v_num(x, "GamesToLead", &f->games_to_lead);
    v_num(x, "SkillTrace", &f->skill_trace);
    v_num(x, "SkillTraceLuckAdjusted", &f->skill_trace_adj);
    for (int k = 0; k < KEMET_STUDY_PROBES; k++)
        v_match(x, probe_key[k], &f->probe[k]);
    v_int(x, "flags", &R->flags, 0, (1 << KEMET_CRITERIA) - 1);
    if (derived(x, "MedianTurns"))
        v_stat(x, "MedianTurns", &f->strong.median);
    if (derived(x, "DecisionsPerTurn"))
        v_stat(x, "DecisionsPerTurn", &f->strong.per_turn);
    if (derived(x, "Stopped"))
        v_stat(x, "Stopped", &f->strong.stopped);
    if (derived(x, "LuckShare"))
        v_stat(x, "LuckShare", &f->head.luck_share);
    /* who it is */
    int was = *kind;
    if (x->o)
        *kind = i < P->n                           ? KIND_RULESET
                : i < P->n + P->nv                 ? KIND_VARIANT
                : i < P->n + P->nv + P->nc         ? KIND_CHANGE
                : i < P->n + P->nv + P->nc + P->nh ? KIND_HEADROOM
                                                   : KIND_CHECK;
    v_enum(x, "kind", kind, kind_name, KINDS);
    if (!x->o && !x->bad && *kind < was)
        fail(x, "kind",
             "out of order (the rulesets named, then the variants, the "
             "rule changes, the headroom studies and the second seed)");
    R->variant = *kind != KIND_RULESET;
    f->variant = R->variant;
    v_text(x, "title", R->title, sizeof R->title);
    v_text(x, "name", R->name, sizeof R->name);
    v_text(x, "base", R->base, sizeof R->base);
    v_enum(x, "board", &R->board, board_name, NBOARDS);
    bool change = R->change_of > 0;
    if (v_obj_opt(x, "change", &change)) {
        int of = R->change_of - 1, named = 0;
        for (int k = 0; !x->o && k < i; k++)
            named += !P->R[k].variant;
        v_int(x, "of", &of, 0, x->o ? INT_MAX : named - 1);
        R->change_of = of + 1;
        /* a control: the reading's own rules judged as its changes are,
         * no change (its fields empty) */
        v_bool(x, "control", &R->control);
        kemet_change *c = &R->change;
        v_flag(x, "option", &c->option);
        v_text(x, "part", c->part, sizeof c->part);
        v_text(x, "from", c->from, sizeof c->from);
        v_text(x, "to", c->to, sizeof c->to);
        if (R->control)
            v_text(x, "id", c->id, sizeof c->id);
        else
            v_id(x, "id", c->id, sizeof c->id);
        v_end(x);
    }
    if (!x->o && !x->bad && change != (*kind == KIND_CHANGE))
        fail(x, "change",
             change ? "given for a reading that is no rule "
                      "change"
                    : "null for a rule change");
    /* a headroom study: the index of the reading (a ruleset named or a
     * variant) whose strong agent it measures */
    v_of(x, P, i, "headroom_of", &R->headroom_of, *kind == KIND_HEADROOM,
         "headroom study");
    /* a reading measured again at the second seed: the index of the one
     * it measures again, whose kind it has */
    v_of(x, P, i, "check_of", &R->check_of, *kind == KIND_CHECK,
         "reading measured at the second seed");
    if (!x->o && R->check_of) {
        R->variant = P->R[R->check_of - 1].variant;
        f->variant = R->variant;
    }
    if (v_obj_opt(x, "rules", &R->rules_known)) {
        struct rep_rules *u = &R->rules;
        v_own(x, "author", &u->author, true);
        v_int(x, "year", &u->year, 0, 9999);
        v_own(x, "source_kind", &u->source_kind, true);
        v_own(x, "about", &u->about, true);
        v_own(x, "board_note", &u->board_note, true);
        v_own(x, "source", &u->source, true);
        v_own(x, "reference", &u->reference, true);
        v_end(x);
    }
    if (v_obj(x, "evaluation")) {
        char hash[17] = "";
        const char *h = hash;
        char *copy = NULL;
        if (x->o && R->net)
            snprintf(hash, sizeof hash, "%016llx", (unsigned long long)R->net);
        if (x->o && !R->net)
            h = NULL;
        v_string(x, "network", &h, true, &copy);
        if (copy) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(copy, &end, 16);
            if (strlen(copy) != 16 || *end || errno || copy[0] == '-' ||
                copy[0] == '+' || v == 0)
                fail(x, "network", "not 16 hexadecimal digits or null");
            R->net = v;
            free(copy);
        } else if (!x->o)
            R->net = 0;
        v_int(x, "network_hidden", &R->net_hidden, 0, INT_MAX);
        v_int(x, "network_endgame", &R->net_endgame, 0, 64);
        v_bool(x, "race_database", &R->race);
        v_int(x, "table_pieces", &f->table_pieces, 0, 64);
        v_bool(x, "exact_start", &R->exact_start);
        v_num(x, "start_value", &R->start_value);
        v_end(x);
    }
    if (v_obj(x, "trace")) {
        v_nums(x, "y", f->trace_y, KEMET_STUDY_TRACE, false);
        int n = KEMET_STUDY_TRACE;
        if (v_arr(x, "adjusted", &n, n, n)) {
            for (int k = 0; k < n; k++)
                v_stat(x, NULL, &f->trace_adj[k]);
            v_end(x);
        }
        v_end(x);
    }
    if (v_obj(x, "verdict")) {
        v_verdict(x, "strong", R, 0, *kind == KIND_RULESET);
        v_verdict(x, "weak", R, 1, *kind == KIND_RULESET);
        v_end(x);
    }
    v_bool(x, "earlier", &R->earlier);
    if (v_obj(x, "time")) {
        v_real(x, "wall", &R->wall, 0, 1e12);
        v_real(x, "seconds", &R->secs, 0, 1e12);
        int np = KEMET_PARTS;
        if (v_arr(x, "parts", &np, np, np)) {
            for (int k = 0; k < np; k++)
                v_real(x, NULL, &R->part_secs[k], 0, 1e12);
            v_end(x);
        }
        v_end(x);
    }
    /* the drawings, of the rulesets named alone (the plots draw those) */
    bool drawn = *kind == KIND_RULESET, samples = drawn;
    if (v_obj_opt(x, "samples", &samples)) {
        v_samples(x, "strong", R, 1, cap);
        v_samples(x, "weak", R, 0, cap);
        v_end(x);
    }
    bool art = drawn;
    if (v_obj_opt(x, "art", &art)) {
        v_art(x, &R->art);
        v_end(x);
    }
    if (!x->o && !x->bad && (samples != drawn || art != drawn))
        fail(x, samples != drawn ? "samples" : "art",
             drawn ? "null for a ruleset named"
                   : "given for a variant or rule change (null: not drawn)");
    v_end(x);
}

/* The rule changes' effects on the readings they change (derived from
 * the verdict's figures: written, not read). */
static void w_changes(jx *x, const rep_report *P) {
    int n = P->n + P->nv + P->nc;
    if (!derived(x, "changes"))
        return;
    int nc = P->nc;
    v_arr(x, "changes", &nc, 0, 0);
    for (int i = n - P->nc; i < n; i++) {
        const rep_reading *C = &P->R[i], *B = &P->R[C->change_of - 1];
        if (C->control)
            continue;
        /* compared with the control of B's changes, where there is one */
        const kemet_measured *was = &B->vm[0];
        for (int j = n - P->nc; j < n; j++)
            if (P->R[j].control && P->R[j].change_of == C->change_of)
                was = &P->R[j].vm[0];
        kemet_change_effect e;
        kemet_change_effects(was, &C->vm[0], &e);
        v_obj(x, NULL);
        v_text(x, "id", (char *)C->f.id, sizeof C->f.id);
        v_text(x, "of", (char *)B->f.id, sizeof B->f.id);
        bool against = was != &B->vm[0];
        v_bool(x, "against_control", &against);
        int option = C->change.option;
        v_flag(x, "option", &option);
        v_text(x, "part", (char *)C->change.part, sizeof C->change.part);
        v_text(x, "from", (char *)C->change.from, sizeof C->change.from);
        v_text(x, "to", (char *)C->change.to, sizeof C->change.to);
        v_obj(x, "effects");
        for (int c = 0; c < KEMET_CRITERIA; c++) {
            kemet_effect *y = &e.c[c];
            v_obj(x, kemet_criterion_info(c)->name);
            v_num(x, "diff", &y->diff);
            v_num(x, "lo", &y->lo);
            v_num(x, "hi", &y->hi);
            v_flag(x, "moves", &y->moves);
            v_flag(x, "flag_was", &y->flag_was);
            v_flag(x, "flag_now", &y->flag_now);
            v_end(x);
        }
        v_end(x);
        v_stat(x, "penalty_was", &e.penalty_was);
        v_stat(x, "penalty_now", &e.penalty_now);
        v_int(x, "penalty_moves", &e.penalty_moves, -1, 1);
        v_end(x);
    }
    v_end(x);
}

/* A seed as a string of decimal digits (JSON's numbers, as most readers
 * take them, do not hold 64 bits). */
static void v_seed(jx *x, const char *key, uint64_t *seed) {
    char digits[24];
    const char *s = digits;
    char *copy = NULL;
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)*seed);
    v_string(x, key, &s, false, &copy);
    if (!copy)
        return;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(copy, &end, 10);
    if (!copy[0] || *end || errno || strspn(copy, "0123456789") != strlen(copy))
        fail(x, key, "not a seed (decimal digits, at most 2^64 - 1)");
    else
        *seed = v;
    free(copy);
}

/* A seed, or null (*present false). */
static void v_seed_opt(jx *x, const char *key, bool *present, uint64_t *seed) {
    if (x->o && !*present) {
        w_key(x, key);
        fputs("null", x->o);
        return;
    }
#ifdef KEMET_JANSSON
    if (!x->o) {
        json_t *v = json_object_get(x->f[x->depth - 1].v, key);
        if (v && json_is_null(v)) {
            json_decref(take(x, key));
            *present = false;
            return;
        }
    }
#endif
    *present = true;
    v_seed(x, key, seed);
}

static void v_settings(jx *x, settings *st) {
    kemet_study_settings *s = &st->s;
    if (!v_obj(x, "settings"))
        return;
    v_kept(x, "strong", &s->strong, false);
    int two = 2;
    if (v_arr(x, "weak", &two, 2, 2)) {
        v_kept(x, NULL, &s->weak[0], false);
        v_kept(x, NULL, &s->weak[1], false);
        v_end(x);
    }
    if (v_arr(x, "ladder", &s->rungs, 2, KEMET_STUDY_RUNGS)) {
        for (int k = 0; k < s->rungs; k++)
            v_kept(x, NULL, &s->ladder[k], false);
        v_end(x);
    }
    /* the ranges the command's options take */
    v_long(x, "games", &s->games, 2, 10000000);
    v_long(x, "trace_games", &s->trace_games, 0, 1000000);
    v_long(x, "trace_base", &s->trace_base, 1, 1000000 >> KEMET_STUDY_TRACE);
    v_long(x, "max_turns", &s->cap, 1, 1000000);
    v_real(x, "precision", &s->precision, 1e-12, 0.5);
    v_long(x, "pilot", &s->pilot, 2, 10000000);
    v_long(x, "max_games", &s->most, 2, 10000000);
    v_seed(x, "seed", &s->seed);
    v_kept(x, "board", &st->board, true);
    v_kept(x, "save", &st->save, true);
    v_kept(x, "headroom", &st->headroom, true);
    v_seed_opt(x, "check_seed", &st->check, &st->check_seed);
    v_end(x);
}

static void v_run(jx *x, rep_report *P) {
    if (!v_obj(x, "run"))
        return;
    if (v_arr(x, "command", &P->argc, 1, 4096)) {
        if (!x->o && !(P->argv = calloc((size_t)P->argc, sizeof *P->argv)))
            fail(x, NULL, "out of memory");
        for (int k = 0; k < P->argc && !x->bad; k++)
            v_kept(x, NULL, (const char **)&P->argv[k], false);
        v_end(x);
    }
    v_real(x, "seconds", &P->secs, 0, 1e12);
    v_int(x, "threads", &P->st.threads, 1, 1 << 20);
    v_int(x, "processes", &P->st.procs, 1, 1 << 20);
    v_end(x);
}

/* A permutation of 0..n-1 (places: of 1..n) in a[0..n). */
static bool permutation(const int *a, int n, int base) {
    bool seen[REPORT_MAX_SETS] = {false};
    for (int i = 0; i < n; i++) {
        int k = a[i] - base;
        if (k < 0 || k >= n || seen[k])
            return false;
        seen[k] = true;
    }
    return true;
}

static void v_seeds(jx *x, rep_report *P) {
    if (!v_arr(x, "seeds", &P->nsv, 0, MAX_SEEDS))
        return;
    for (int k = 0; k < P->nsv && !x->bad; k++) {
        seed_verdict *v = &P->sv[k];
        if (!v_obj(x, NULL))
            break;
        v_seed(x, "seed", &v->seed);
        int m = P->n;
        const char *keys[3] = {"tiers", "flags", "order"};
        int *arrays[3] = {v->tier, v->flags, v->ord};
        for (int a = 0; a < 3; a++)
            if (v_arr(x, keys[a], &m, P->n, P->n)) {
                for (int i = 0; i < m; i++)
                    v_int(x, NULL, &arrays[a][i], 0,
                          a == 0   ? REPORT_MAX_SETS + KEMET_CRITERIA + 1
                          : a == 1 ? (1 << KEMET_CRITERIA) - 1
                                   : P->n - 1);
                v_end(x);
            }
        if (!x->o && !x->bad && !permutation(v->ord, P->n, 0))
            fail(x, "order", "not each ruleset once");
        v_end(x);
    }
    v_end(x);
}

static void v_ludii(jx *x, rep_report *P) {
    settings *st = &P->st;
    bool present = st->ludii != NULL;
    int n = st->nludii;
    if (x->o && !present) {
        w_key(x, "ludii");
        fputs("null", x->o);
        return;
    }
#ifdef KEMET_JANSSON
    if (!x->o) {
        json_t *v = json_object_get(x->f[x->depth - 1].v, "ludii");
        if (v && json_is_null(v)) {
            json_decref(take(x, "ludii"));
            return;
        }
    }
#endif
    if (!v_arr(x, "ludii", &n, 0, LUDII_ROWS))
        return;
    ludii_row *L = (ludii_row *)st->ludii;
    if (!x->o) {
        if (!(L = P->ludii = calloc(LUDII_ROWS, sizeof *L)))
            fail(x, NULL, "out of memory");
        st->ludii = L;
        st->nludii = n;
    }
    for (int i = 0; i < n && !x->bad; i++) {
        if (!v_obj(x, NULL))
            break;
        int cols = LUDII_COLS;
        if (v_arr(x, "fields", &cols, cols, cols)) {
            for (int c = 0; c < cols; c++)
                v_text(x, NULL, L[i].field[c], sizeof L[i].field[c]);
            v_end(x);
        }
        const char *t = L[i].title[0] ? L[i].title : NULL;
        char *copy = NULL;
        v_string(x, "title", &t, true, &copy);
        if (copy && strlen(copy) >= sizeof L[i].title)
            fail(x, "title", "too long");
        else if (copy)
            memcpy(L[i].title, copy, strlen(copy) + 1);
        free(copy);
        v_end(x);
    }
    v_end(x);
}

/* The whole report. */
static void v_report(jx *x, rep_report *P) {
    const char *schema = SCHEMA;
    char *copy = NULL;
    v_string(x, "schema", &schema, false, &copy);
    if (copy && strcmp(copy, SCHEMA) != 0)
        fail(x, "schema",
             "not \"" SCHEMA "\" (a file of another kind, or "
             "of another version of kemet)");
    free(copy);
    v_settings(x, &P->st);
    v_run(x, P);
    int all = P->n + P->nv + P->nc + P->nh + P->nk;
    if (v_arr(x, "rulesets", &all, 1,
              3 * REPORT_MAX + REPORT_MAX_SETS + REPORT_MAX_CHANGES)) {
        if (!x->o) { /* all of them freed, however far they are read */
            if (!(P->R = calloc((size_t)all, sizeof *P->R)))
                fail(x, NULL, "out of memory");
            P->n = P->R ? all : 0;
        }
        int kind = KIND_RULESET, count[KINDS] = {0};
        for (int i = 0; i < all && !x->bad; i++) {
            v_reading(x, P, i, &kind);
            count[kind]++;
        }
        if (!x->o) {
            P->n = count[KIND_RULESET];
            P->nv = count[KIND_VARIANT];
            P->nc = count[KIND_CHANGE];
            P->nh = count[KIND_HEADROOM];
            P->nk = count[KIND_CHECK];
        }
        v_end(x);
        if (!x->o && !x->bad &&
            (P->n < 1 || P->n > REPORT_MAX_SETS ||
             P->nv > REPORT_MAX_VARIANTS ||
             P->nc > REPORT_MAX_CHANGES + REPORT_MAX_SETS ||
             P->nh > P->n + P->nv))
            fail(x, "rulesets",
                 "not 1 to 64 rulesets named, at most 64 variants, 600 rule "
                 "changes and a control and a headroom study a reading");
        /* the second seed: every ruleset named and variant, in order */
        for (int k = 0; !x->o && !x->bad && k < P->nk; k++)
            if (P->nk != P->n + P->nv ||
                P->R[P->n + P->nv + P->nc + P->nh + k].check_of != k + 1)
                fail(x, "rulesets",
                     "the readings at the second seed are not every ruleset "
                     "named and variant once, in their order");
        if (!x->o && !x->bad && !P->st.check != !P->nk)
            fail(x, "rulesets",
                 P->nk ? "readings at the second seed, but no check_seed"
                       : "a check_seed, but no readings measured there");
        for (int w = 0; !x->o && !x->bad && w < 2; w++) {
            int place[REPORT_MAX_SETS];
            for (int i = 0; i < P->n; i++)
                place[i] = P->R[i].vj[w].place;
            if (!permutation(place, P->n, 1))
                fail(x, "rulesets",
                     "the verdict's places are not each 1 to the number of "
                     "rulesets once");
        }
    }
    if (!x->bad)
        w_changes(x, P);
    if (!x->bad)
        v_seeds(x, P);
    if (!x->bad)
        v_ludii(x, P);
}

void rep_json_write(FILE *o, const rep_report *P) {
    jx x = {.o = o, .P = (rep_report *)P};
    x.f[x.depth++] = (frame){.first = true};
    fputc('{', o);
    v_report(&x, (rep_report *)P);
    fputs("\n}\n", o);
}

void rep_reading_free(rep_reading *R) {
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < KEMET_STUDY_SAMPLES; k++) {
            free(R->samples[w][k]);
            R->samples[w][k] = NULL;
        }
    struct rep_rules *u = &R->rules;
    free(u->author);
    free(u->source_kind);
    free(u->about);
    free(u->board_note);
    free(u->source);
    free(u->reference);
    *u = (struct rep_rules){0};
    R->rules_known = false;
}

void rep_report_free(rep_report *P) {
    int all = P->n + P->nv + P->nc + P->nh + P->nk;
    for (int i = 0; P->R && i < all; i++)
        rep_reading_free(&P->R[i]);
    free(P->R);
    for (int k = 0; k < P->nown; k++)
        free(P->own[k]);
    free(P->own);
    free(P->argv);
    free(P->ludii);
    *P = (rep_report){0};
}

#ifdef KEMET_JANSSON
bool rep_json_readable(void) {
    return true;
}

int rep_json_read(const char *text, size_t len, const char *name,
                  rep_report *P) {
    *P = (rep_report){0};
    json_error_t err;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!doc)
        return cli_fail("%.200s: not JSON: %s (line %d, column %d)", name,
                        err.text, err.line, err.column);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return cli_fail("%.200s: not a report's data (the document is not "
                        "an object)",
                        name);
    }
    jx x = {.P = P};
    x.f[x.depth++] = (frame){.v = doc};
    /* the schema first: a file of another kind is named so */
    json_t *schema = json_object_get(doc, "schema");
    if (!json_is_string(schema) ||
        strcmp(json_string_value(schema), SCHEMA) != 0) {
        json_decref(doc);
        return cli_fail("%.200s: not a report's data of schema \"" SCHEMA
                        "\" (kemet analyze --format json writes one)",
                        name);
    }
    v_report(&x, P);
    while (x.depth > 0)
        v_end(&x); /* the top level's check; after a problem, the frames
                      still held */
    if (x.bad) {
        rep_report_free(P);
        return cli_fail("%.200s: %s", name, x.why);
    }
    return 0;
}

int rep_json_load(const char *path, rep_report *P) {
    *P = (rep_report){0};
    FILE *f = fopen(path, "rb");
    struct stat sb;
    if (!f || fstat(fileno(f), &sb) != 0 || S_ISDIR(sb.st_mode)) {
        if (f)
            fclose(f);
        return cli_fail("%.200s: cannot be read%s", path,
                        f ? " (a folder)" : "");
    }
    if (S_ISREG(sb.st_mode) && sb.st_size > REPORT_JSON_MAX) {
        fclose(f);
        return cli_fail("%.200s: larger than %ld MiB: not a report's data",
                        path, REPORT_JSON_MAX >> 20);
    }
    size_t room = 1 << 16, len = 0;
    char *text = malloc(room);
    while (text) {
        if (len == room) {
            if (room >= (size_t)REPORT_JSON_MAX) {
                free(text);
                fclose(f);
                return cli_fail("%.200s: larger than %ld MiB: not a "
                                "report's data",
                                path, REPORT_JSON_MAX >> 20);
            }
            char *t = realloc(text, room *= 2);
            if (!t) {
                free(text);
                text = NULL;
                break;
            }
            text = t;
        }
        size_t got = fread(text + len, 1, room - len, f);
        len += got;
        if (got == 0)
            break;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (!text)
        return cli_fail("out of memory");
    if (bad) {
        free(text);
        return cli_fail("%.200s: cannot be read", path);
    }
    int rc = rep_json_read(text, len, path, P);
    free(text);
    return rc;
}
#else
bool rep_json_readable(void) {
    return false;
}

int rep_json_read(const char *text, size_t len, const char *name,
                  rep_report *P) {
    (void)text, (void)len;
    *P = (rep_report){0};
    return cli_fail("%.200s: this kemet was built without Jansson, and "
                    "cannot read a report's data",
                    name);
}

int rep_json_load(const char *path, rep_report *P) {
    return rep_json_read(NULL, 0, path, P);
}
#endif
