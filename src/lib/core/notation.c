/* notation.c - reading and writing positions, moves and throws in the text
 * notation of docs/notation.md.
 *
 * Parsing is strict: every malformed input gets a one-line message naming
 * what is wrong (KEMET_ESYNTAX, or KEMET_ERULESET for the ruleset token).
 * The checks that do not depend on the ruleset live here; a ruleset adds
 * its own through its `check` function. Pieces on the ruleset's heap square
 * (a hole that holds several) are counted in pos->heap, not in pos->sq.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

enum {
    F_TO,
    F_P1,
    F_P2,
    F_H1,
    F_H2,
    F_O1,
    F_O2,
    F_L1,
    F_L2,
    F_MUST,
    F_WAIT,
    F_LEFT,
    F_AGAIN,
    F_WINNER,
    F_COUNT
};
static const char *const field_name[F_COUNT] = {
    "to", "p1", "p2",   "h1",   "h2",   "o1",    "o2",
    "l1", "l2", "must", "wait", "left", "again", "winner"};

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Reads a square list "-" or "3,5,5" into pos for player p. */
static int read_squares(const kemet_rules *r, const char *s, size_t len, int p,
                        kemet_pos *pos, kemet_error *err) {
    const kmt_ruleset *rs = r->rs;
    if (len == 1 && s[0] == '-')
        return KEMET_OK;
    size_t i = 0;
    int count = 0;
    while (i <= len) {
        size_t j = i;
        while (j < len && s[j] != ',')
            j++;
        int sq;
        if (kmt_read_num(s + i, j - i, &sq) < 0)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "p%d: '%.*s' is not a square number", p + 1,
                            (int)(j - i > 20 ? 20 : j - i), s + i);
        if (sq < 1 || sq > r->squares)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "p%d: square %d is outside the board (1-%d)", p + 1,
                            sq, r->squares);
        if (++count > KEMET_MAX_PIECES)
            return kmt_fail(err, KEMET_ESYNTAX, "p%d: too many pieces", p + 1);
        if (sq == rs->heap_square) {
            pos->heap[p]++;
        } else {
            if (pos->sq[p] & KMT_BIT(sq))
                return kmt_fail(err, KEMET_ESYNTAX,
                                "p%d: two pieces on square %d", p + 1, sq);
            pos->sq[p] |= KMT_BIT(sq);
        }
        i = j + 1;
    }
    return KEMET_OK;
}

/* Reads Tab's l1=/l2= (locked pieces' squares, 1-5, ascending) or left=
 * (values still to play, ascending, repeats kept) into pos (R3). */
static int read_list(const kemet_rules *r, int f, const char *s, size_t len,
                     kemet_pos *pos, kemet_error *err) {
    const char *name = f == F_L1 ? "l1" : f == F_L2 ? "l2" : "left";
    if (f == F_LEFT ? !r->rs->left_values : !r->rs->locks)
        return kmt_fail(err, KEMET_ESYNTAX, "%s= is not used by %s", name,
                        r->spec);
    size_t i = 0;
    int last = 0, count = 0;
    uint32_t left = 0;
    while (i <= len) {
        size_t j = i;
        while (j < len && s[j] != ',')
            j++;
        int v;
        if (kmt_read_num(s + i, j - i, &v) < 0)
            return kmt_fail(err, KEMET_ESYNTAX, "%s: '%.*s' is not a number",
                            name, (int)(j - i > 20 ? 20 : j - i), s + i);
        if (f != F_LEFT && (v < 1 || v > 5))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "%s: square %d: only pieces on squares 1-5 can "
                            "be locked",
                            name, v);
        if (f == F_LEFT &&
            (v < 1 || v > 6 || !(r->rs->left_values & (1u << v))))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "left: %d is not a value of %s's throw", v,
                            r->spec);
        if (v < last || (f != F_LEFT && v == last))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "%s: write the %s in ascending order%s", name,
                            f == F_LEFT ? "values" : "squares",
                            f == F_LEFT ? "" : ", each once");
        if (++count > KEMET_MAX_VALUES)
            return kmt_fail(err, KEMET_ESYNTAX, "%s: more than %d values", name,
                            KEMET_MAX_VALUES);
        last = v;
        if (f == F_LEFT)
            left += 1u << (4 * (v - 1));
        else
            pos->lock[f - F_L1] |= (uint8_t)(1u << (v - 1));
        i = j + 1;
    }
    if (f == F_LEFT)
        kmt_left_set(pos, left);
    return KEMET_OK;
}

int kemet_pos_check(const kemet_rules *r, const kemet_pos *pos,
                    kemet_error *err) {
    if (!r || !pos)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_pos_check: NULL argument");
    const kmt_ruleset *rs = r->rs;
    if (pos->to != 1 && pos->to != 2)
        return kmt_fail(err, KEMET_ESYNTAX, "to= must be 1 or 2");
    if (pos->result > KEMET_DRAW)
        return kmt_fail(err, KEMET_ESYNTAX, "winner= must be 0, 1 or 2");
    uint64_t range = ((uint64_t)1 << (r->squares + 1)) - 2;
    if (rs->heap_square)
        range &= ~KMT_BIT(rs->heap_square);
    for (int p = 0; p < 2; p++) {
        if (pos->sq[p] & ~range)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "p%d: a square outside the board (1-%d)", p + 1,
                            r->squares);
        if (pos->heap[p] && !rs->heap_square)
            return kmt_fail(err, KEMET_ESYNTAX, "p%d: two pieces on one square",
                            p + 1);
        if (pos->hand[p] && !rs->has_hand)
            return kmt_fail(err, KEMET_ESYNTAX, "h%d: %s has no pieces in hand",
                            p + 1, rs->id);
        int total = kmt_in_play(pos, p);
        if (total > r->info.pieces)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "player %d has %d pieces on the board and in "
                            "hand; %s has %d each",
                            p + 1, total, r->spec, r->info.pieces);
    }
    /* One piece per physical hole, except the heap square. */
    uint64_t b = pos->sq[0];
    while (b) {
        int s = kmt_ctz64(b);
        b &= b - 1;
        int cell = rs->cell_of(r, 1, s);
        uint64_t c = pos->sq[1];
        while (c) {
            int t = kmt_ctz64(c);
            c &= c - 1;
            if (rs->cell_of(r, 2, t) == cell) {
                if (s == t)
                    return kmt_fail(err, KEMET_ESYNTAX,
                                    "two pieces on square %d", s);
                return kmt_fail(err, KEMET_ESYNTAX,
                                "two pieces on one hole (p1 square %d, p2 "
                                "square %d)",
                                s, t);
            }
        }
    }
    if (pos->must) {
        if (!rs->has_must)
            return kmt_fail(err, KEMET_ESYNTAX, "must= is not used by %s",
                            rs->id);
        if (pos->result != KEMET_PLAYING)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "must= and winner= together: a finished game "
                            "has no rethrow");
        if (pos->must > r->squares ||
            !(rs->must_squares & KMT_BIT(pos->must))) {
            /* the squares this ruleset rethrows from: must= names no other */
            char list[64] = "";
            size_t at = 0;
            int n = 0;
            for (int q = 1; q <= r->squares && at < sizeof list - 8; q++)
                if (rs->must_squares & KMT_BIT(q)) {
                    at += (size_t)snprintf(list + at, sizeof list - at, "%s%d",
                                           n++ ? ", " : "", q);
                }
            return kmt_fail(err, KEMET_ESYNTAX,
                            "must=%d: %s rethrows with the same piece only "
                            "from square%s %s",
                            pos->must, rs->id, n > 1 ? "s" : "", list);
        }
        int me = pos->to - 1;
        bool has = pos->must <= r->squares &&
                   ((pos->must == rs->heap_square && pos->heap[me]) ||
                    (pos->sq[me] & KMT_BIT(pos->must)));
        if (!has)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "must=%d: player %d has no piece on square %d",
                            pos->must, pos->to, pos->must);
    }
    for (int p = 0; p < 2; p++)
        if (pos->off[p] && !rs->scores)
            return kmt_fail(err, KEMET_ESYNTAX, "o%d= is not used by %s", p + 1,
                            r->spec);
    for (int p = 0; p < 2; p++) {
        /* Tab's locked pieces (R3, TB2): on squares 1-5, each a piece */
        if (!pos->lock[p])
            continue;
        if (!rs->locks)
            return kmt_fail(err, KEMET_ESYNTAX, "l%d= is not used by %s", p + 1,
                            r->spec);
        if (pos->lock[p] > 31)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "l%d: only pieces on squares 1-5 can be locked",
                            p + 1);
        uint64_t locked = (uint64_t)pos->lock[p] << 1;
        if (locked & ~pos->sq[p])
            return kmt_fail(err, KEMET_ESYNTAX,
                            "l%d: square %d is locked but p%d has no piece "
                            "there",
                            p + 1, kmt_ctz64(locked & ~pos->sq[p]), p + 1);
    }
    if (kmt_left_total(pos)) {
        /* Tab's values still to play (R3, TB9) */
        if (!rs->left_values)
            return kmt_fail(err, KEMET_ESYNTAX, "left= is not used by %s",
                            r->spec);
        for (int v = 1; v <= 6; v++)
            if (kemet_left_count(pos, v) && !(rs->left_values & (1u << v)))
                return kmt_fail(err, KEMET_ESYNTAX,
                                "left=: %d is not a value of %s's throw", v,
                                r->spec);
        if (kmt_left_total(pos) > KEMET_MAX_VALUES)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "left=: more than %d values (a turn has at most "
                            "%d throws)",
                            KEMET_MAX_VALUES, KEMET_MAX_VALUES);
        if (pos->result != KEMET_PLAYING)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "left= and winner= together: a finished game "
                            "has no values to play");
    }
    if (pos->again) {
        if (!rs->agains)
            return kmt_fail(err, KEMET_ESYNTAX, "again= is not used by %s",
                            r->spec);
        if (pos->again != 1)
            return kmt_fail(err, KEMET_ESYNTAX, "again= must be 1");
        if (!kmt_left_total(pos))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "again=1 without left=: a turn earned goes with "
                            "the values still to play (TB9)");
    }
    if (pos->wait) {
        /* Kendall's start=1 (KO3, KO7; R3) */
        if (pos->wait > 3)
            return kmt_fail(err, KEMET_EMISUSE,
                            "wait holds a player other than 1 and 2");
        if (!r->waits)
            return kmt_fail(err, KEMET_ESYNTAX, "wait= is not used by %s",
                            r->spec);
        if (pos->result != KEMET_PLAYING)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "wait= and winner= together: a finished game "
                            "has no one waiting");
        if (pos->must && ((pos->wait >> (pos->to - 1)) & 1))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "must=%d: player %d is still waiting for a first "
                            "1, so has no piece to rethrow with",
                            pos->must, pos->to);
    }
    return rs->check(r, pos, err);
}

int kemet_pos_parse(const char *text, kemet_rules **rules, kemet_pos *pos,
                    kemet_error *err) {
    return kemet_pos_parse_board(text, NULL, rules, pos, err);
}

/* Reads the ruleset spec that begins a position line into spec[128];
 * *rest: what follows it. */
static int read_spec_token(const char *text, char *spec, const char **rest,
                           kemet_error *err) {
    const char *s = text;
    while (is_space(*s))
        s++;
    const char *id = s;
    while (*s && !is_space(*s))
        s++;
    if (s == id)
        return kmt_fail(err, KEMET_ESYNTAX, "empty position");
    size_t idlen = (size_t)(s - id);
    if (idlen >= 128)
        return kmt_fail(err, KEMET_ERULESET, "unknown ruleset '%.40s...'", id);
    memcpy(spec, id, idlen);
    spec[idlen] = '\0';
    const char *id_colon = strchr(spec, ':');
    const char *id_eq = strchr(spec, '=');
    if (id_eq && (!id_colon || id_eq < id_colon))
        return kmt_fail(err, KEMET_ESYNTAX,
                        "a position starts with its ruleset, not '%.40s'",
                        spec);
    *rest = s;
    return KEMET_OK;
}

/* Reads the fields of a position line (after its ruleset) for `r`, and
 * checks the position. */
static int read_fields(const kemet_rules *r, const char *s, kemet_pos *pos,
                       kemet_error *err) {
    int rc;
    kemet_pos p = {0};
    bool seen[F_COUNT] = {false};
    for (;;) {
        while (is_space(*s))
            s++;
        if (!*s)
            break;
        const char *tok = s;
        while (*s && !is_space(*s))
            s++;
        size_t len = (size_t)(s - tok);
        const char *eq = memchr(tok, '=', len);
        if (!eq) {
            rc = kmt_fail(err, KEMET_ESYNTAX, "'%.*s' is not a key=value field",
                          (int)(len > 40 ? 40 : len), tok);
            return rc;
        }
        size_t klen = (size_t)(eq - tok);
        int f = -1;
        for (int i = 0; i < F_COUNT; i++)
            if (strlen(field_name[i]) == klen &&
                memcmp(field_name[i], tok, klen) == 0)
                f = i;
        if (f < 0) {
            rc = kmt_fail(err, KEMET_ESYNTAX, "unknown field '%.*s'",
                          (int)(klen > 40 ? 40 : klen), tok);
            return rc;
        }
        if (seen[f]) {
            rc = kmt_fail(err, KEMET_ESYNTAX, "field %s= given twice",
                          field_name[f]);
            return rc;
        }
        seen[f] = true;
        const char *val = eq + 1;
        size_t vlen = len - klen - 1;
        int v = 0;
        if (f == F_P1 || f == F_P2) {
            if (vlen == 0) {
                rc = kmt_fail(err, KEMET_ESYNTAX,
                              "%s= is empty (write - for no pieces)",
                              field_name[f]);
                return rc;
            }
            rc = read_squares(r, val, vlen, f - F_P1, &p, err);
            if (rc)
                return rc;
            continue;
        }
        if (f == F_WAIT) {
            /* the waiting players: 1, 2 or 1,2 (KO3) */
            if (!r->waits) {
                rc = kmt_fail(err, KEMET_ESYNTAX, "wait= is not used by %s",
                              r->spec);
                return rc;
            }
            if (vlen == 1 && (val[0] == '1' || val[0] == '2'))
                p.wait = (uint8_t)(val[0] - '0');
            else if (vlen == 3 && memcmp(val, "1,2", 3) == 0)
                p.wait = 3;
            else {
                rc = kmt_fail(err, KEMET_ESYNTAX,
                              "wait=%.*s: write the waiting players as 1, 2 "
                              "or 1,2",
                              (int)(vlen > 20 ? 20 : vlen), val);
                return rc;
            }
            continue;
        }
        if (f == F_L1 || f == F_L2 || f == F_LEFT) {
            rc = read_list(r, f, val, vlen, &p, err);
            if (rc)
                return rc;
            continue;
        }
        if (kmt_read_num(val, vlen, &v) < 0) {
            rc = kmt_fail(err, KEMET_ESYNTAX, "%s=%.*s is not a number",
                          field_name[f], (int)(vlen > 20 ? 20 : vlen), val);
            return rc;
        }
        switch (f) {
        case F_TO:
            if (v != 1 && v != 2) {
                rc = kmt_fail(err, KEMET_ESYNTAX, "to= must be 1 or 2, not %d",
                              v);
                return rc;
            }
            p.to = (uint8_t)v;
            break;
        case F_H1:
        case F_H2:
            if (v > r->info.pieces) {
                rc = kmt_fail(err, KEMET_ESYNTAX,
                              "%s=%d: more pieces than %s has (%d)",
                              field_name[f], v, r->spec, r->info.pieces);
                return rc;
            }
            p.hand[f - F_H1] = (uint8_t)v;
            break;
        case F_O1:
        case F_O2:
            /* pieces borne off, the score (R3: Bell's o1=/o2=) */
            if (!r->rs->scores) {
                rc = kmt_fail(err, KEMET_ESYNTAX, "%s= is not used by %s",
                              field_name[f], r->spec);
                return rc;
            }
            if (v > r->info.pieces) {
                rc = kmt_fail(err, KEMET_ESYNTAX,
                              "%s=%d: more pieces than %s has (%d)",
                              field_name[f], v, r->spec, r->info.pieces);
                return rc;
            }
            p.off[f - F_O1] = (uint8_t)v;
            break;
        case F_MUST:
            if (v < 1 || v > r->squares) {
                rc = kmt_fail(err, KEMET_ESYNTAX,
                              "must=%d is outside the board (1-%d)", v,
                              r->squares);
                return rc;
            }
            p.must = (uint8_t)v;
            break;
        case F_AGAIN:
            if (!r->rs->agains) {
                rc = kmt_fail(err, KEMET_ESYNTAX, "again= is not used by %s",
                              r->spec);
                return rc;
            }
            if (v != 1) {
                rc =
                    kmt_fail(err, KEMET_ESYNTAX, "again= must be 1, not %d", v);
                return rc;
            }
            p.again = 1;
            break;
        case F_WINNER:
            if (v > 2) {
                rc = kmt_fail(err, KEMET_ESYNTAX,
                              "winner= must be 0, 1 or 2, not %d", v);
                return rc;
            }
            p.result = (uint8_t)(v == 0 ? KEMET_DRAW : v);
            break;
        default: break;
        }
    }
    for (int f = F_TO; f <= F_P2; f++) {
        if (!seen[f]) {
            rc = kmt_fail(err, KEMET_ESYNTAX, "the position has no %s= field",
                          field_name[f]);
            return rc;
        }
    }
    rc = kemet_pos_check(r, &p, err);
    if (rc)
        return rc;
    *pos = p;
    return KEMET_OK;
}

int kemet_pos_parse_board(const char *text, const char *board_text,
                          kemet_rules **rules, kemet_pos *pos,
                          kemet_error *err) {
    return kemet_pos_parse_text(text, NULL, board_text, rules, pos, err);
}

int kemet_pos_parse_text(const char *text, const char *rules_text,
                         const char *board_text, kemet_rules **rules,
                         kemet_pos *pos, kemet_error *err) {
    if (!text || !rules || !pos)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_pos_parse: NULL argument");
    *rules = NULL;
    char spec[128];
    const char *rest;
    int rc = read_spec_token(text, spec, &rest, err);
    if (rc)
        return rc;
    kemet_rules *r;
    rc = rules_text
             ? kemet_rules_open_text(rules_text, spec, board_text, &r, err)
             : kemet_rules_open_board(spec, board_text, &r, err);
    if (rc)
        return rc;
    rc = read_fields(r, rest, pos, err);
    if (rc) {
        kemet_rules_close(r);
        return rc;
    }
    *rules = r;
    return KEMET_OK;
}

int kemet_pos_read(const kemet_rules *rules, const char *text, kemet_pos *pos,
                   kemet_error *err) {
    if (!rules || !text || !pos)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_pos_read: NULL argument");
    char spec[128], canon[128];
    const char *rest;
    int rc = read_spec_token(text, spec, &rest, err);
    if (rc == KEMET_OK)
        rc = kmt_rules_canon(rules, spec, canon, sizeof canon, err);
    if (rc)
        return rc;
    if (strcmp(canon, rules->spec) != 0)
        return kmt_fail(err, KEMET_ERULESET, "the position is for %s, not %s",
                        canon, rules->spec);
    return read_fields(rules, rest, pos, err);
}

/* Appends to buf at *at; returns -1 when it does not fit. */
static int add(char *buf, size_t len, size_t *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int add(char *buf, size_t len, size_t *at, const char *fmt, ...) {
    if (*at >= len)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= len - *at)
        return -1;
    *at += (size_t)k;
    return 0;
}

static int add_squares(const kemet_rules *r, const kemet_pos *pos, int p,
                       char *buf, size_t len, size_t *at) {
    const kmt_ruleset *rs = r->rs;
    bool first = true;
    int heap = pos->heap[p];
    uint64_t b = pos->sq[p];
    if (!b && !heap)
        return add(buf, len, at, "-");
    for (int s = 1; s <= r->squares; s++) {
        int k = (s == rs->heap_square) ? heap : (int)((b >> s) & 1);
        for (int i = 0; i < k; i++) {
            if (add(buf, len, at, first ? "%d" : ",%d", s))
                return -1;
            first = false;
        }
    }
    return 0;
}

/* Tab's l1=/l2=: the locked pieces' squares (R3). */
static int add_locks(const kemet_pos *pos, int p, char *buf, size_t len,
                     size_t *at) {
    int bad = 0;
    const char *sep = p ? " l2=" : " l1=";
    for (int s = 1; s <= 5; s++)
        if (pos->lock[p] & (1u << (s - 1))) {
            bad |= add(buf, len, at, "%s%d", sep, s);
            sep = ",";
        }
    return bad;
}

int kemet_pos_format(const kemet_rules *r, const kemet_pos *pos, char *buf,
                     size_t len) {
    size_t at = 0;
    if (!kmt_pos_usable(r, pos) || !buf)
        return KEMET_EMISUSE;
    if (len == 0)
        return KEMET_ERANGE;
    buf[0] = '\0';
    int bad = add(buf, len, &at, "%s to=%d p1=", r->spec, pos->to);
    bad |= add_squares(r, pos, 0, buf, len, &at);
    if (pos->hand[0])
        bad |= add(buf, len, &at, " h1=%d", pos->hand[0]);
    if (pos->off[0])
        bad |= add(buf, len, &at, " o1=%d", pos->off[0]);
    bad |= add_locks(pos, 0, buf, len, &at);
    bad |= add(buf, len, &at, " p2=");
    bad |= add_squares(r, pos, 1, buf, len, &at);
    if (pos->hand[1])
        bad |= add(buf, len, &at, " h2=%d", pos->hand[1]);
    if (pos->off[1])
        bad |= add(buf, len, &at, " o2=%d", pos->off[1]);
    bad |= add_locks(pos, 1, buf, len, &at);
    if (pos->must && pos->result == KEMET_PLAYING)
        bad |= add(buf, len, &at, " must=%d", pos->must);
    if (pos->wait && pos->result == KEMET_PLAYING)
        bad |= add(buf, len, &at, " wait=%s",
                   pos->wait == 3   ? "1,2"
                   : pos->wait == 1 ? "1"
                                    : "2");
    if (kmt_left_total(pos) && pos->result == KEMET_PLAYING) {
        const char *sep = " left=";
        for (int v = 1; v <= 6; v++)
            for (int k = kemet_left_count(pos, v); k > 0; k--) {
                bad |= add(buf, len, &at, "%s%d", sep, v);
                sep = ",";
            }
        if (pos->again)
            bad |= add(buf, len, &at, " again=1");
    }
    if (pos->result != KEMET_PLAYING)
        bad |= add(buf, len, &at, " winner=%d",
                   pos->result == KEMET_DRAW ? 0 : pos->result);
    return bad ? KEMET_ERANGE : (int)at;
}

/* ---------------------------------------------------------------------------
 * Moves.
 * ------------------------------------------------------------------------ */
/* One end of a step: FROM (a square or 'in'), TO (a square or 'off') or
 * the END a count reached (a square). */
enum { END_FROM, END_TO, END_VIA };

static int read_end(const kemet_rules *r, const char *s, size_t len, int kind,
                    uint8_t *out, kemet_error *err) {
    int v;
    if (kind == END_FROM && len == 2 && memcmp(s, "in", 2) == 0) {
        *out = KEMET_HAND;
        return 0;
    }
    if (kind == END_TO && len == 3 && memcmp(s, "off", 3) == 0) {
        *out = KEMET_OFF;
        return 0;
    }
    if (kmt_read_num(s, len, &v) < 0)
        return kmt_fail(err, KEMET_ESYNTAX, "'%.*s' is not a square%s",
                        (int)(len > 20 ? 20 : len), s,
                        kind == END_FROM ? " or 'in'"
                        : kind == END_TO ? " or 'off'"
                                         : "");
    if (v < 1 || v > r->squares)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "square %d is outside the board (1-%d)", v, r->squares);
    *out = (uint8_t)v;
    return 0;
}

int kemet_move_parse(const kemet_rules *r, const char *text, kemet_move *move,
                     kemet_error *err) {
    kemet_move m = {0};
    if (!r || !text || !move)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_move_parse: NULL argument");
    if (strcmp(text, "pass") == 0) {
        *move = m;
        return KEMET_OK;
    }
    const char *s = text;
    for (;;) {
        const char *end = strchr(s, '+');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *dash = memchr(s, '-', len);
        /* FROM-TO, or FROM-END-TO (a line's or river's end on the way) */
        const char *dash2 =
            dash ? memchr(dash + 1, '-', len - (size_t)(dash + 1 - s)) : NULL;
        if (!dash || len == 0 ||
            (dash2 && memchr(dash2 + 1, '-', len - (size_t)(dash2 + 1 - s))))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "'%.40s' is not a move (FROM-TO, FROM-END-TO, or "
                            "pass)",
                            text);
        if (m.n == KEMET_MAX_STEPS)
            return kmt_fail(err, KEMET_ESYNTAX, "too many steps in '%.40s'",
                            text);
        kemet_step *st = &m.step[m.n++];
        const char *to = dash2 ? dash2 + 1 : dash + 1;
        if (read_end(r, s, (size_t)(dash - s), END_FROM, &st->from, err) ||
            (dash2 && read_end(r, dash + 1, (size_t)(dash2 - dash - 1), END_VIA,
                               &st->via, err)) ||
            read_end(r, to, len - (size_t)(to - s), END_TO, &st->to, err))
            return KEMET_ESYNTAX;
        if (!end)
            break;
        s = end + 1;
    }
    *move = m;
    return KEMET_OK;
}

int kemet_move_format(const kemet_move *move, char *buf, size_t len) {
    size_t at = 0;
    if (!move || !buf)
        return KEMET_EMISUSE;
    if (len == 0)
        return KEMET_ERANGE;
    buf[0] = '\0';
    if (move->n == 0)
        return add(buf, len, &at, "pass") ? KEMET_ERANGE : (int)at;
    for (int i = 0; i < move->n; i++) {
        const kemet_step *st = &move->step[i];
        int bad = 0;
        if (i)
            bad |= add(buf, len, &at, "+");
        if (st->from == KEMET_HAND)
            bad |= add(buf, len, &at, "in-");
        else
            bad |= add(buf, len, &at, "%d-", st->from);
        if (st->via)
            bad |= add(buf, len, &at, "%d-", st->via);
        if (st->to == KEMET_OFF)
            bad |= add(buf, len, &at, "off");
        else
            bad |= add(buf, len, &at, "%d", st->to);
        if (bad)
            return KEMET_ERANGE;
    }
    return (int)at;
}

/* ---------------------------------------------------------------------------
 * Throws: "none", a value "3", or several values "2,2,3"; a value only one
 * player may use (a dual-coloured stick) is written "3@1".
 * ------------------------------------------------------------------------ */

/* Canonical order of a throw's values: those anyone may use, ascending,
 * then each player's own, ascending. */
void kmt_throw_sort(kemet_throw *t) {
    for (int i = 1; i < t->n; i++)
        for (int j = i; j > 0; j--) {
            int a = t->only[j - 1] * 256 + t->v[j - 1];
            int b = t->only[j] * 256 + t->v[j];
            if (a <= b)
                break;
            uint8_t v = t->v[j], o = t->only[j];
            t->v[j] = t->v[j - 1];
            t->only[j] = t->only[j - 1];
            t->v[j - 1] = v;
            t->only[j - 1] = o;
        }
}

int kemet_throw_parse(const kemet_rules *r, const char *text, kemet_throw *thr,
                      kemet_error *err) {
    kemet_throw t = {0};
    if (!r || !text || !thr)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_throw_parse: NULL argument");
    if (strcmp(text, "none") == 0) {
        *thr = t;
        return KEMET_OK;
    }
    const char *s = text;
    for (;;) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *at = memchr(s, '@', len);
        size_t vlen = at ? (size_t)(at - s) : len;
        int v, who = 0;
        if (kmt_read_num(s, vlen, &v) < 0 || v < 1 || v > 99 ||
            (at && (kmt_read_num(at + 1, len - vlen - 1, &who) < 0 || who < 1 ||
                    who > 2)))
            return kmt_fail(err, KEMET_ETHROW,
                            "impossible throw '%.40s' for %s (values are "
                            "numbers, V@P for a value only player P may use)",
                            text, r->spec);
        if (t.n == KEMET_MAX_VALUES)
            return kmt_fail(err, KEMET_ETHROW, "too many values in '%.40s'",
                            text);
        t.only[t.n] = (uint8_t)who;
        t.v[t.n++] = (uint8_t)v;
        if (!end)
            break;
        s = end + 1;
    }
    if (r->rs->sequence_ok && !r->rs->sequence_ok(r, &t))
        return kmt_fail(err, KEMET_ETHROW,
                        "impossible throw '%.40s' for %s: every value but "
                        "the last must be one that throws again",
                        text, r->spec);
    if (!r->rs->sequence_ok)
        kmt_throw_sort(&t);
    if (r->rs->throw_ok) {
        if (r->rs->throw_ok(r, NULL, &t)) {
            t.sticks = (uint8_t)t.n;
            *thr = t;
            return KEMET_OK;
        }
    } else {
        /* The ruleset must be able to throw it (checked on its start
         * position: the outcomes of a throw do not depend on the
         * position's pieces). */
        kemet_pos start;
        kemet_throw all[KEMET_MAX_THROWS];
        kemet_weight w[KEMET_MAX_THROWS], total;
        r->rs->start(r, &start);
        int n = r->rs->throws(r, &start, all, w, &total);
        for (int i = 0; i < n; i++) {
            if (kemet_throw_equal(&all[i], &t)) {
                *thr = all[i];
                return KEMET_OK;
            }
        }
    }
    return kmt_fail(err, KEMET_ETHROW, "impossible throw '%.40s' for %s", text,
                    r->spec);
}

int kemet_throw_format(const kemet_throw *thr, char *buf, size_t len) {
    size_t at = 0;
    if (!thr || !buf)
        return KEMET_EMISUSE;
    if (len == 0)
        return KEMET_ERANGE;
    buf[0] = '\0';
    if (thr->n == 0 || thr->sticks == KEMET_KEPT)
        return add(buf, len, &at, "none") ? KEMET_ERANGE : (int)at;
    for (int i = 0; i < thr->n; i++) {
        if (add(buf, len, &at, i ? ",%d" : "%d", thr->v[i]) ||
            (thr->only[i] && add(buf, len, &at, "@%d", thr->only[i])))
            return KEMET_ERANGE;
    }
    return (int)at;
}
