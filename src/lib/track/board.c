/* board.c - board files: the plain-text description of a board whose seed
 * text gives no diagram (Washburne's Hounds & Jackals, Lions & Jackals).
 *
 * The format is documented in docs/boards.md. One keyword per line, then
 * numbers; '#' starts a comment; a `picture` block runs to a line `end`.
 * Everything is checked, and the first problem is reported as
 * "board file line N: ...". The parsed board is plain data (no pointers
 * except the picture), owned by the opened ruleset.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cursor {
    const char *s; /* the rest of the line */
    const char *end;
    int line;
} cursor;

static void skip_blanks(cursor *c) {
    while (c->s < c->end && (*c->s == ' ' || *c->s == '\t'))
        c->s++;
}

/* The next word of the line, or NULL at its end. */
static const char *word(cursor *c, size_t *len) {
    skip_blanks(c);
    if (c->s >= c->end || *c->s == '#')
        return NULL;
    const char *w = c->s;
    while (c->s < c->end && *c->s != ' ' && *c->s != '\t' && *c->s != '#')
        c->s++;
    *len = (size_t)(c->s - w);
    return w;
}

static int bad(kemet_error *err, const cursor *c, const char *what) {
    return kmt_fail(err, KEMET_ESYNTAX, "board file line %d: %s", c->line,
                    what);
}

/* Reads up to `max` numbers of lo..hi into out; returns how many, or -1
 * (with err set). */
static int numbers(cursor *c, int *out, int max, int lo, int hi,
                   const char *what, kemet_error *err) {
    int n = 0;
    size_t len;
    const char *w;
    while ((w = word(c, &len))) {
        int v;
        if (kmt_read_num(w, len, &v) < 0 || v < lo || v > hi) {
            char msg[160];
            snprintf(msg, sizeof msg, "'%.*s' is not a %s (%d-%d)",
                     (int)(len > 12 ? 12 : len), w, what, lo, hi);
            bad(err, c, msg);
            return -1;
        }
        if (n == max) {
            char msg[120];
            snprintf(msg, sizeof msg, "more than %d %ss", max, what);
            bad(err, c, msg);
            return -1;
        }
        out[n++] = v;
    }
    return n;
}

static bool is(const char *w, size_t len, const char *kw) {
    return strlen(kw) == len && memcmp(w, kw, len) == 0;
}

/* The picture: every {NN} names a hole; every hole appears. */
static int check_picture(const kmt_board *b, const char *pic, int line,
                         kemet_error *err) {
    uint8_t seen[KMT_BOARD_HOLES + 1] = {0};
    for (const char *s = pic; *s; s++) {
        if (*s == '\n')
            line++;
        if (*s != '{')
            continue;
        int v;
        if (!(s[1] && s[2] && s[3] == '}') || kmt_read_num(s + 1, 2, &v) < 0)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "board file line %d: '{' must begin a slot "
                            "{NN} naming a hole",
                            line);
        if (v < 1 || v > b->holes)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "board file line %d: slot {%02d} names no hole "
                            "(1-%d)",
                            line, v, b->holes);
        seen[v] = 1;
        s += 3;
    }
    for (int h = 1; h <= b->holes; h++)
        if (!seen[h])
            return kmt_fail(err, KEMET_ESYNTAX,
                            "board file: the picture has no slot for hole "
                            "%d",
                            h);
    return KEMET_OK;
}

static int pair(cursor *c, kmt_board *b, uint8_t *map, const char *what,
                kemet_error *err) {
    int v[2];
    int n = numbers(c, v, 2, 1, b->holes ? b->holes : 1, "hole", err);
    if (n < 0)
        return KEMET_ESYNTAX;
    if (!b->holes)
        return bad(err, c, "'holes' must come first");
    if (n != 2 || v[0] == v[1])
        return bad(err, c, "give two different holes");
    if (map[v[0]] || map[v[1]]) {
        char msg[80];
        snprintf(msg, sizeof msg, "a hole is on two %ss", what);
        return bad(err, c, msg);
    }
    map[v[0]] = (uint8_t)v[1];
    map[v[1]] = (uint8_t)v[0];
    return KEMET_OK;
}

static int parse(const char *text, const char *family, kmt_board *b,
                 kemet_error *err) {
    memset(b, 0, sizeof *b);
    cursor c = {text, text, 0};
    bool header = false, game = false;
    int picture_line = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        c.s = p;
        c.end = eol;
        c.line++;
        const char *next = *eol ? eol + 1 : eol;
        size_t len;
        const char *w = word(&c, &len);
        if (!w) {
            p = next;
            continue;
        }
        if (!header) {
            size_t l2;
            const char *v = word(&c, &l2);
            if (!is(w, len, "kemet-board") || !v || !is(v, l2, "1"))
                return bad(err, &c, "a board file begins 'kemet-board 1'");
            header = true;
        } else if (is(w, len, "game")) {
            size_t l2;
            const char *v = word(&c, &l2);
            if (!v || !is(v, l2, family)) {
                char msg[120];
                snprintf(msg, sizeof msg, "this ruleset needs a '%s' board",
                         family);
                return bad(err, &c, msg);
            }
            game = true;
        } else if (is(w, len, "title")) {
            skip_blanks(&c);
            snprintf(b->title, sizeof b->title, "%.*s", (int)(c.end - c.s),
                     c.s);
            c.s = c.end;
        } else if (is(w, len, "holes")) {
            int v;
            int n =
                numbers(&c, &v, 1, 2, KMT_BOARD_HOLES, "number of holes", err);
            if (n < 0)
                return KEMET_ESYNTAX;
            if (n != 1 || b->holes)
                return bad(err, &c, "holes N, once");
            b->holes = v;
        } else if (is(w, len, "path") || is(w, len, "home")) {
            bool path = is(w, len, "path");
            int v[64];
            int n = numbers(&c, v, 64, 1, KMT_BOARD_HOLES, "number", err);
            if (n < 0)
                return KEMET_ESYNTAX;
            if (!b->holes)
                return bad(err, &c, "'holes' must come first");
            if (n < 2 || v[0] > 2)
                return bad(err, &c,
                           path ? "path P HOLE... (P is 1 or 2)"
                                : "home P HOLE... (P is 1 or 2)");
            int pl = v[0] - 1;
            if (path) {
                if (b->npath[pl])
                    return bad(err, &c, "this player's path is given twice");
                if (n - 1 > KEMET_MAX_SQUARE)
                    return bad(err, &c, "a path has at most 63 squares");
                for (int i = 1; i < n; i++) {
                    if (v[i] > b->holes)
                        return bad(err, &c, "a hole beyond 'holes'");
                    if (b->square[pl][v[i]])
                        return bad(err, &c, "a hole twice on one path");
                    b->hole[pl][i] = (uint8_t)v[i];
                    b->square[pl][v[i]] = (uint8_t)i;
                }
                b->npath[pl] = n - 1;
            } else {
                if (!b->npath[pl])
                    return bad(err, &c, "give the player's path before 'home'");
                if (b->nhome[pl])
                    return bad(err, &c, "this player's home is given twice");
                if (n - 1 > 8)
                    return bad(err, &c, "a home has at most 8 holes");
                for (int i = 1; i < n; i++) {
                    if (v[i] > b->holes || !b->square[pl][v[i]])
                        return bad(err, &c,
                                   "a home hole off the player's path");
                    for (int k = 1; k < i; k++)
                        if (v[k] == v[i])
                            return bad(err, &c, "a home hole given twice");
                    b->home[pl][i - 1] = (uint8_t)v[i];
                }
                b->nhome[pl] = n - 1;
            }
        } else if (is(w, len, "safe") || is(w, len, "sun") ||
                   is(w, len, "ankh") || is(w, len, "mark")) {
            int flag = is(w, len, "mark")   ? KMT_BOARD_MARK
                       : is(w, len, "ankh") ? KMT_BOARD_ANKH
                       : is(w, len, "sun")  ? KMT_BOARD_SUN
                                            : KMT_BOARD_SAFE;
            int v[KMT_BOARD_HOLES];
            if (!b->holes)
                return bad(err, &c, "'holes' must come first");
            int n = numbers(&c, v, KMT_BOARD_HOLES, 1, b->holes, "hole", err);
            if (n < 0)
                return KEMET_ESYNTAX;
            for (int i = 0; i < n; i++)
                b->flags[v[i]] |= (uint8_t)flag;
        } else if (is(w, len, "line")) {
            if (pair(&c, b, b->line, "line", err))
                return KEMET_ESYNTAX;
        } else if (is(w, len, "river")) {
            if (pair(&c, b, b->river, "river", err))
                return KEMET_ESYNTAX;
        } else if (is(w, len, "enter")) {
            int v[64];
            int n = numbers(&c, v, 63, 1, KEMET_MAX_SQUARE, "path square", err);
            if (n < 0)
                return KEMET_ESYNTAX;
            for (int i = 0; i < n; i++)
                b->enter |= KMT_BIT(v[i]);
        } else if (is(w, len, "stick")) {
            size_t l2;
            const char *kind = word(&c, &l2);
            bool dual = kind && is(kind, l2, "dual");
            if (!kind || (!dual && !is(kind, l2, "solid")))
                return bad(err, &c, "stick solid FACE... or stick dual V:P...");
            int n = 0;
            const char *f;
            while ((f = word(&c, &l2))) {
                int v, pl = 0;
                const char *colon = memchr(f, ':', l2);
                size_t vl = colon ? (size_t)(colon - f) : l2;
                if (n == KMT_BOARD_FACES)
                    return bad(err, &c, "a stick has at most 8 faces");
                if (kmt_read_num(f, vl, &v) < 0 || v < 1 || v > 30 ||
                    (dual != (colon != NULL)) ||
                    (colon && (kmt_read_num(colon + 1, l2 - vl - 1, &pl) < 0 ||
                               pl < 1 || pl > 2)))
                    return bad(
                        err, &c,
                        dual ? "a dual face is VALUE:PLAYER (1-30, 1 or 2)"
                             : "a solid face is a value 1-30");
                if (dual) {
                    b->dual_v[n] = (uint8_t)v;
                    b->dual_p[n] = (uint8_t)pl;
                } else {
                    b->solid[n] = (uint8_t)v;
                }
                n++;
            }
            if (n < 2)
                return bad(err, &c, "a stick has at least 2 faces");
            if (dual)
                b->ndual_faces = n;
            else
                b->nsolid_faces = n;
        } else if (is(w, len, "picture")) {
            if (word(&c, &len))
                return bad(err, &c, "'picture' stands alone on its line");
            const char *start = next, *q = next;
            picture_line = c.line + 1;
            for (;;) {
                if (!*q)
                    return bad(err, &c, "the picture has no line 'end'");
                const char *e = strchr(q, '\n');
                size_t l = e ? (size_t)(e - q) : strlen(q);
                if (l == 3 && memcmp(q, "end", 3) == 0)
                    break;
                c.line++;
                q = e ? e + 1 : q + l;
            }
            if (b->picture)
                return bad(err, &c, "a second picture");
            size_t plen = (size_t)(q - start);
            b->picture = malloc(plen + 1);
            if (!b->picture)
                return kmt_fail(err, KEMET_ENOMEM, "out of memory");
            memcpy(b->picture, start, plen);
            b->picture[plen] = '\0';
            c.line++; /* the 'end' line */
            const char *e = strchr(q, '\n');
            next = e ? e + 1 : q + strlen(q);
        } else {
            char msg[80];
            snprintf(msg, sizeof msg, "unknown keyword '%.*s'",
                     (int)(len > 20 ? 20 : len), w);
            return bad(err, &c, msg);
        }
        if (word(&c, &len)) {
            char msg[80];
            snprintf(msg, sizeof msg, "unexpected '%.*s' at the end",
                     (int)(len > 20 ? 20 : len), c.s - len);
            return bad(err, &c, msg);
        }
        p = next;
    }
    const char *missing = !header        ? "the line 'kemet-board 1'"
                          : !game        ? "the line 'game'"
                          : !b->holes    ? "the line 'holes'"
                          : !b->npath[0] ? "player 1's path"
                          : !b->npath[1] ? "player 2's path"
                          : !b->nhome[0] ? "player 1's home"
                          : !b->nhome[1] ? "player 2's home"
                          : !b->picture  ? "the picture"
                                         : NULL;
    if (missing)
        return kmt_fail(err, KEMET_ESYNTAX, "board file: %s is missing",
                        missing);
    if (b->npath[0] != b->npath[1])
        return kmt_fail(err, KEMET_ESYNTAX,
                        "board file: the two paths differ in length (%d, %d)",
                        b->npath[0], b->npath[1]);
    for (int i = 0; i < b->nhome[0]; i++)
        for (int j = 0; j < b->nhome[1]; j++)
            if (b->home[0][i] == b->home[1][j])
                return kmt_fail(err, KEMET_ESYNTAX,
                                "board file: hole %d is in both players' "
                                "homes (each piece starts on a hole of its "
                                "own)",
                                b->home[0][i]);
    b->squares = b->npath[0];
    if (b->enter >> (b->squares + 1))
        return kmt_fail(err, KEMET_ESYNTAX,
                        "board file: an 'enter' square beyond the path (1-%d)",
                        b->squares);
    for (int pl = 0; pl < 2; pl++)
        for (int h = 1; h <= b->holes; h++)
            if ((b->line[h] || b->river[h]) && !b->square[pl][h])
                return kmt_fail(err, KEMET_ESYNTAX,
                                "board file: hole %d (a line or river end) "
                                "is not on player %d's path",
                                h, pl + 1);
    return check_picture(b, b->picture, picture_line, err);
}

int kmt_board_parse(const char *text, const char *family, kmt_board *b,
                    kemet_error *err) {
    /* CRLF line endings read as LF (as records do): a copy without the
     * '\r' of every "\r\n". */
    size_t n = strlen(text);
    char *plain = malloc(n + 1);
    if (!plain) {
        memset(b, 0, sizeof *b);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!(text[i] == '\r' && text[i + 1] == '\n'))
            plain[k++] = text[i];
    plain[k] = '\0';
    int rc = parse(plain, family, b, err);
    free(plain);
    if (rc)
        kmt_board_free(b); /* the picture, if it was read */
    return rc;
}

void kmt_board_free(kmt_board *b) {
    free(b->picture);
    b->picture = NULL;
}
