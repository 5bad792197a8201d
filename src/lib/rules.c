/* rules.c - the ruleset registry and the public entry points of play.
 *
 * Every public function that takes a position checks what is cheap to
 * check (a finished game, an impossible throw) and forwards to the ruleset
 * module's table. The registry below is the only place that names the
 * rulesets.
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const kemet_ruleset *const kmt_registry[] = {
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

const char *kemet_version(void) {
    return KEMET_VERSION;
}

const char *kemet_strerror(int code) {
    switch (code) {
    case KEMET_OK: return "no error";
    case KEMET_EMISUSE: return "library misuse";
    case KEMET_ESYNTAX: return "malformed input";
    case KEMET_ERULESET: return "unknown ruleset or option";
    case KEMET_ETHROW: return "impossible throw";
    case KEMET_EILLEGAL: return "illegal move";
    case KEMET_EOVER: return "the game is over";
    case KEMET_ENOMEM: return "out of memory";
    case KEMET_ERANGE: return "buffer too small";
    case KEMET_EIO: return "input/output error";
    default: return "unknown error";
    }
}

int kmt_fail(kemet_error *err, int code, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

/* ---------------------------------------------------------------------------
 * Random numbers: splitmix64 to seed, xoshiro256** to draw.
 * ------------------------------------------------------------------------ */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void kemet_rng_seed(kemet_rng *rng, uint64_t seed) {
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

uint64_t kemet_rng_next(kemet_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t kemet_rng_below(kemet_rng *rng, uint32_t n) {
    /* Lemire's multiply-and-reject: unbiased for every n > 0. */
    uint64_t m = (uint64_t)(uint32_t)(kemet_rng_next(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(kemet_rng_next(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* ---------------------------------------------------------------------------
 * The four throwing sticks (ruling G2).
 * ------------------------------------------------------------------------ */
int kmt_sticks_throws(kemet_throw *out, uint32_t *weight, uint32_t *total) {
    static const uint32_t w[5] = {4, 6, 4, 1, 1};
    for (int v = 1; v <= 5; v++) {
        kmt_throw_one(&out[v - 1], v);
        out[v - 1].sticks = 4;
        weight[v - 1] = w[v - 1];
    }
    *total = 16;
    return 5;
}

void kmt_sticks_roll(kemet_rng *rng, kemet_throw *out) {
    uint64_t draw = kemet_rng_next(rng); /* four fair sticks: four bits */
    kmt_throw_one(out, kmt_sticks_value(draw));
    unsigned faces = (unsigned)(draw >> 60);
    out->sticks = 4;
    out->faces = (uint16_t)faces;
}

int kmt_sticks_throws_of(const kemet_rules *r, const kemet_pos *pos,
                         kemet_throw *out, uint32_t *weight, uint32_t *total) {
    (void)r;
    (void)pos;
    return kmt_sticks_throws(out, weight, total);
}

void kmt_sticks_roll_of(const kemet_rules *r, const kemet_pos *pos,
                        kemet_rng *rng, kemet_throw *out) {
    (void)r;
    (void)pos;
    kmt_sticks_roll(rng, out);
}

/* ---------------------------------------------------------------------------
 * Opening rulesets.
 * ------------------------------------------------------------------------ */
static const kemet_ruleset *find_ruleset(const char *id, size_t len) {
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
    const kemet_ruleset *rs = r->rs;
    bool seen[KEMET_MAX_OPTIONS] = {false};
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
        const kemet_option *o = &rs->options[k];
        if (kmt_read_num(eq + 1, len - klen - 1, &v) < 0 || v < o->min ||
            v > o->max)
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset option %s must be a number from %d to "
                            "%d",
                            o->key, o->min, o->max);
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

int kemet_rules_open_board(const char *spec, const char *board_text,
                           kemet_rules **out, kemet_error *err) {
    if (!spec || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_rules_open: NULL argument");
    *out = NULL;
    const char *colon = strchr(spec, ':');
    size_t idlen = colon ? (size_t)(colon - spec) : strlen(spec);
    const kemet_ruleset *rs = find_ruleset(spec, idlen);
    if (!rs)
        return kmt_fail(err, KEMET_ERULESET,
                        "unknown ruleset '%.*s' (see 'kemet rules')",
                        (int)(idlen > 60 ? 60 : idlen), spec);
    kemet_rules *r = calloc(1, sizeof *r);
    if (!r)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    r->rs = rs;
    r->variant = rs->variant;
    for (int i = 0; rs->options && rs->options[i].key; i++)
        r->opt[i] = rs->options[i].def;
    if (colon) {
        if (colon[1] == '\0') {
            free(r);
            return kmt_fail(err, KEMET_ERULESET,
                            "ruleset '%s' has a colon but no options", rs->id);
        }
        int rc = parse_options(r, colon + 1, err);
        if (rc) {
            free(r);
            return rc;
        }
    }
    /* Canonical spec: id plus the options that differ from their default. */
    size_t len = (size_t)snprintf(r->spec, sizeof r->spec, "%s", rs->id);
    char sep = ':';
    for (int i = 0; rs->options && rs->options[i].key; i++) {
        if (r->opt[i] == rs->options[i].def)
            continue;
        len += (size_t)snprintf(r->spec + len, sizeof r->spec - len, "%c%s=%d",
                                sep, rs->options[i].key, r->opt[i]);
        sep = ',';
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
    };
    r->board = rs->board;
    r->squares = rs->squares;
    if (rs->open) {
        int rc = rs->open(r, board_text, err);
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
    kmt_eval_init(r);
    *out = r;
    return KEMET_OK;
}

void kemet_rules_close(kemet_rules *rules) {
    if (rules && rules->rs->close)
        rules->rs->close(rules);
    if (rules) {
        free(rules->board_file);
        kemet_net_free(atomic_load(&rules->own_net));
    }
    free(rules);
}

const kemet_info *kemet_rules_info(const kemet_rules *rules) {
    return &rules->info;
}

const char *kemet_rules_spec(const kemet_rules *rules) {
    return rules->spec;
}

int kemet_rules_use_table(kemet_rules *rules, const kemet_table *table) {
    if (!rules)
        return KEMET_EMISUSE;
    if (table && strcmp(kemet_table_spec(table), rules->spec) != 0)
        return KEMET_EMISUSE;
    rules->table = table;
    return KEMET_OK;
}

const kemet_table *kemet_rules_table(const kemet_rules *rules) {
    return rules ? rules->table : NULL;
}

const char *kemet_rules_board_file(const kemet_rules *rules) {
    return rules->board_file;
}

void kemet_start(const kemet_rules *rules, kemet_pos *pos) {
    rules->rs->start(rules, pos);
}

/* ---------------------------------------------------------------------------
 * Play.
 * ------------------------------------------------------------------------ */
bool kmt_pos_usable(const kemet_rules *rules, const kemet_pos *pos) {
    if (!rules || !pos || (pos->to != 1 && pos->to != 2) ||
        pos->result > KEMET_DRAW || pos->pad_ || pos->must > rules->squares)
        return false;
    /* Bits 0..squares only, and no more pieces than the ruleset has: a
     * position of another ruleset usually fails here. */
    uint64_t beyond = rules->squares >= 63 ? 0 : ~0ULL << (rules->squares + 1);
    for (int p = 0; p < 2; p++)
        if ((pos->sq[p] & beyond) ||
            kmt_popcount64(pos->sq[p]) + pos->heap[p] + pos->hand[p] >
                rules->info.pieces)
            return false;
    return true;
}

int kemet_on_board(const kemet_pos *pos, int player) {
    if (!pos || (player != 1 && player != 2))
        return KEMET_EMISUSE;
    return kmt_popcount64(pos->sq[player - 1]) + pos->heap[player - 1];
}

int kemet_throws(const kemet_rules *rules, const kemet_pos *pos,
                 kemet_throw *out, uint32_t *weight, uint32_t *total) {
    if (!kmt_pos_usable(rules, pos) || !out || !weight || !total)
        return KEMET_EMISUSE;
    return rules->rs->throws(rules, pos, out, weight, total);
}

void kemet_roll(const kemet_rules *rules, const kemet_pos *pos, kemet_rng *rng,
                kemet_throw *out) {
    assert(kmt_pos_usable(rules, pos) && rng && out);
    rules->rs->roll(rules, pos, rng, out);
}

int kemet_prethrow(const kemet_rules *rules, const kemet_pos *pos,
                   kemet_move *out) {
    if (!kmt_pos_usable(rules, pos) || !out)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING)
        return KEMET_EOVER;
    return rules->rs->prethrow(rules, pos, out);
}

int kemet_throw_equal(const kemet_throw *a, const kemet_throw *b) {
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->v[i] != b->v[i] || a->only[i] != b->only[i])
            return 0;
    return 1;
}

/* Whether `thr` is one of the outcomes the ruleset can throw in `pos`. */
static int throw_possible(const kemet_rules *rules, const kemet_pos *pos,
                          const kemet_throw *thr) {
    if (rules->rs->throw_ok)
        return rules->rs->throw_ok(rules, pos, thr);
    if (rules->rs->max_value)
        return thr->n == 1 && thr->v[0] >= 1 &&
               thr->v[0] <= rules->rs->max_value && thr->only[0] == 0;
    kemet_throw all[KEMET_MAX_THROWS];
    uint32_t w[KEMET_MAX_THROWS], total;
    int n = rules->rs->throws(rules, pos, all, w, &total);
    for (int i = 0; i < n; i++)
        if (kemet_throw_equal(&all[i], thr))
            return 1;
    return 0;
}

int kemet_moves(const kemet_rules *rules, const kemet_pos *pos,
                const kemet_throw *thr, kemet_move *out) {
    if (!kmt_pos_usable(rules, pos) || !out)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING)
        return KEMET_EOVER;
    if (!thr || thr->n == 0 || !throw_possible(rules, pos, thr))
        return KEMET_ETHROW;
    return rules->rs->moves(rules, pos, thr, out);
}

int kemet_next_steps(const kemet_rules *rules, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *done,
                     kemet_move *next, kemet_throw *left) {
    if (!kmt_pos_usable(rules, pos) || !done || !next)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING)
        return KEMET_EOVER;
    if (!thr || thr->n == 0 || !throw_possible(rules, pos, thr))
        return KEMET_ETHROW;
    if (rules->rs->next_steps)
        return rules->rs->next_steps(rules, pos, thr, done, next, left);
    /* one value per throw: the whole move is the one step */
    if (left)
        *left = done->n ? (kemet_throw){0} : *thr;
    if (done->n == 0) {
        int n = rules->rs->moves(rules, pos, thr, next);
        return (n == 1 && next[0].n == 0) ? 0 : n;
    }
    kemet_pos out;
    return kemet_apply(rules, pos, thr, done, &out, NULL) == KEMET_OK
               ? 0
               : KEMET_EILLEGAL;
}

int kemet_move_equal(const kemet_move *a, const kemet_move *b) {
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->step[i].from != b->step[i].from ||
            a->step[i].to != b->step[i].to)
            return 0;
    return 1;
}

int kemet_apply(const kemet_rules *rules, const kemet_pos *pos,
                const kemet_throw *thr, const kemet_move *move, kemet_pos *out,
                kemet_events *ev) {
    kemet_move list[KEMET_MAX_MOVES];
    int n;
    if (!kmt_pos_usable(rules, pos) || !move || !out)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING)
        return KEMET_EOVER;
    if (thr && thr->n > 0)
        n = kemet_moves(rules, pos, thr, list);
    else
        n = rules->rs->prethrow(rules, pos, list);
    if (n < 0)
        return n;
    if (thr && thr->n > 0 && rules->rs->legal) {
        if (!rules->rs->legal(rules, pos, thr, move))
            return KEMET_EILLEGAL;
        if (ev)
            ev->n = 0;
        rules->rs->make(rules, pos, thr, move, out, ev);
        return KEMET_OK;
    }
    for (int i = 0; i < n; i++) {
        if (kemet_move_equal(&list[i], move)) {
            if (ev)
                ev->n = 0;
            rules->rs->make(rules, pos, thr, move, out, ev);
            return KEMET_OK;
        }
    }
    return KEMET_EILLEGAL;
}

void kemet_make(const kemet_rules *rules, const kemet_pos *pos,
                const kemet_throw *thr, const kemet_move *move, kemet_pos *out,
                kemet_events *ev) {
    assert(kmt_pos_usable(rules, pos) && move && out);
    if (ev)
        ev->n = 0;
    rules->rs->make(rules, pos, thr, move, out, ev);
}

int kemet_explain(const kemet_rules *rules, const kemet_pos *pos,
                  const kemet_throw *thr, const kemet_move *move, char *buf,
                  size_t len) {
    kemet_pos next;
    if (!buf || len == 0)
        return KEMET_ERANGE;
    buf[0] = '\0';
    if (!kmt_pos_usable(rules, pos) || !move)
        return KEMET_EMISUSE;
    if (pos->result != KEMET_PLAYING) {
        snprintf(buf, len, "the game is over");
        return 1;
    }
    int rc = kemet_apply(rules, pos, thr, move, &next, NULL);
    if (rc == KEMET_OK)
        return 0;
    if (rc == KEMET_ETHROW)
        snprintf(buf, len, "the sticks cannot give that throw");
    else
        rules->rs->explain(rules, pos, thr, move, buf, len);
    return 1;
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
    const kemet_ruleset *rs = rules->rs;
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
