/* rules.c - the ruleset registry, opening rules from their spec
 * ("id:key=value,..."), and the board pictures. The registry below is the
 * only place that names the rulesets; moves.c holds the entry points of
 * play, rng.c the random numbers and sticks, error.c the messages.
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const kmt_ruleset *const kmt_registry[] = {
    &kmt_senet_kendall,
    &kmt_senet_robinson,
    &kmt_dogs_jackals,
    &kmt_dogs_jackals_extended,
    &kmt_hounds_jackals_skiryuk,
    &kmt_chien_chacal,
    &kmt_washburne,
    &kmt_washburne_dice,
    &kmt_lions_jackals,
    &kmt_lions_jackals_quick,
};
const int kmt_registry_count =
    (int)(sizeof kmt_registry / sizeof kmt_registry[0]);

int kemet_ruleset_count(void) {
    return kmt_registry_count;
}

const char *kemet_ruleset_id(int i) {
    return (i >= 0 && i < kmt_registry_count) ? kmt_registry[i]->id : NULL;
}

/* ---------------------------------------------------------------------------
 * Opening rulesets.
 * ------------------------------------------------------------------------ */
static const kmt_ruleset *find_ruleset(const char *id, size_t len) {
    for (int i = 0; i < kmt_registry_count; i++) {
        const char *rid = kmt_registry[i]->id;
        if (strlen(rid) == len && memcmp(rid, id, len) == 0)
            return kmt_registry[i];
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

/* Parses "key=value,key=value" against the ruleset's option table. */
static int parse_options(kemet_rules *r, const char *s, kemet_error *err) {
    const kmt_ruleset *rs = r->rs;
    bool seen[KMT_MAX_OPTIONS] = {false};
    while (*s) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        if (!eq)
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset option '%.*s' is not key=value", (int)len,
                            s);
        size_t klen = (size_t)(eq - s);
        int k = -1;
        for (int i = 0; rs->options && rs->options[i].key; i++)
            if (strlen(rs->options[i].key) == klen &&
                memcmp(rs->options[i].key, s, klen) == 0)
                k = i;
        if (k < 0)
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset %s has no option '%.*s'", rs->id,
                            (int)klen, s);
        if (seen[k])
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset option '%s' given twice",
                            rs->options[k].key);
        seen[k] = true;
        int v;
        const kmt_option *o = &rs->options[k];
        uint64_t set = rs->option_values ? rs->option_values[k] : 0;
        const char *val = eq + 1;
        int vlen = (int)(len - klen - 1);
        if (kmt_read_num(val, (size_t)vlen, &v) < 0 || v < o->min ||
            v > o->max || (set && !(set & ((uint64_t)1 << v)))) {
            if (!set)
                return kmt_fail(err, KEMET_ERULESET,
                                "ruleset option %s: unknown value '%.*s' (a "
                                "number from %d to %d)",
                                o->key, vlen > 20 ? 20 : vlen, val, o->min,
                                o->max);
            /* the values it takes, in words: "5 or 7", "1, 2 or 4" */
            char list[96] = "";
            size_t at = 0;
            int n = kmt_popcount64(set), i = 0;
            for (int x = o->min; x <= o->max && at < sizeof list - 16; x++)
                if (set & ((uint64_t)1 << x))
                    at += (size_t)snprintf(list + at, sizeof list - at, "%s%d",
                                           i++ == 0 ? ""
                                           : i == n ? " or "
                                                    : ", ",
                                           x);
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset option %s: unknown value '%.*s' (%s)",
                            o->key, vlen > 20 ? 20 : vlen, val, list);
        }
        r->opt[k] = v;
        if (!end)
            break;
        s = end + 1;
        if (!*s)
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset options end with a comma");
    }
    return KEMET_OK;
}

int kemet_rules_open(const char *spec, kemet_rules **out, kemet_error *err) {
    return kemet_rules_open_board(spec, NULL, out, err);
}

/* Reads a spec's id and options into r->rs, r->variant, r->opt and
 * r->spec (canonical: the id plus the options that differ from their
 * default). */
static int read_spec(const char *spec, kemet_rules *r, kemet_error *err) {
    const char *colon = strchr(spec, ':');
    size_t idlen = colon ? (size_t)(colon - spec) : strlen(spec);
    const kmt_ruleset *rs = find_ruleset(spec, idlen);
    if (!rs)
        return kmt_fail(err, KEMET_ERULESET,
                        "unknown ruleset '%.*s' (see 'kemet rules')",
                        (int)(idlen > 60 ? 60 : idlen), spec);
    r->rs = rs;
    r->variant = rs->variant;
    for (int i = 0; rs->options && rs->options[i].key; i++)
        r->opt[i] = rs->options[i].def;
    if (colon) {
        if (colon[1] == '\0')
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset '%s' has a colon but no options", rs->id);
        int rc = parse_options(r, colon + 1, err);
        if (rc)
            return rc;
    }
    size_t len = (size_t)snprintf(r->spec, sizeof r->spec, "%s", rs->id);
    char sep = ':';
    for (int i = 0; rs->options && rs->options[i].key; i++) {
        if (r->opt[i] == rs->options[i].def)
            continue;
        len += (size_t)snprintf(r->spec + len, sizeof r->spec - len, "%c%s=%d",
                                sep, rs->options[i].key, r->opt[i]);
        sep = ',';
    }
    return KEMET_OK;
}

int kmt_spec_canon(const char *spec, char *out, size_t len, kemet_error *err) {
    kemet_rules r = {0};
    int rc = read_spec(spec, &r, err);
    if (rc == KEMET_OK)
        snprintf(out, len, "%s", r.spec);
    return rc;
}

int kemet_rules_open_board(const char *spec, const char *board_text,
                           kemet_rules **out, kemet_error *err) {
    if (!spec || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_rules_open: NULL argument");
    *out = NULL;
    kemet_rules *r = calloc(1, sizeof *r);
    if (!r)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    int rc = read_spec(spec, r, err);
    if (rc) {
        free(r);
        return rc;
    }
    const kmt_ruleset *rs = r->rs;
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
    };
    r->board = rs->board;
    r->squares = rs->squares;
    if (rs->open) {
        rc = rs->open(r, board_text, err);
        if (rc) {
            free(r->board_file);
            free(r);
            return rc;
        }
    } else if (board_text) {
        free(r);
        return kmt_fail(err, KEMET_ERULESET,
                        "ruleset %s has its board built in; it takes no "
                        "board file",
                        rs->id);
    }
    *out = r;
    return KEMET_OK;
}

void kemet_rules_close(kemet_rules *rules) {
    if (rules && rules->rs->close)
        rules->rs->close(rules);
    if (rules)
        free(rules->board_file);
    free(rules);
}

const kemet_info *kemet_rules_info(const kemet_rules *rules) {
    return &rules->info;
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
