/* net.c - the learned evaluation: a small neural network per ruleset,
 * its inference and its file format (net_train.c trains it by self-play
 * temporal-difference learning, TD(lambda), the method of TD-Gammon and
 * GNU Backgammon).
 *
 * Inputs, always from the side of the player to move ("mover"), then the
 * opponent:
 *   - one input per square 0..S: a piece of that side stands there;
 *   - the side's pieces on the heap square, in hand and gone, each as a
 *     fraction of its pieces;
 *   - the ruleset's own features of that side (eval.c's, without tempo),
 *     each times a scale fixed when training began (one over its mean
 *     size in self-play), so that every input is of order one;
 *   - whether player 1 is to move (the players need not be alike), and
 *     whether the mover must rethrow with a given piece.
 * The square inputs are sparse (at most a side's pieces are set), so a
 * forward pass adds a few weight rows instead of multiplying a matrix.
 * One hidden layer of sigmoid units, and a sigmoid output: the chance
 * that the mover wins (a draw counting one half). The output also sees the
 * inputs directly (a linear path beside the hidden layer), and a new
 * network starts with that path set to the ruleset's tuned linear
 * evaluation and the hidden layer silent, so training begins from the
 * linear evaluation's judgement and learns what it misses.
 */
#include "net.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double kmt_net_chance1(const kemet_rules *r, const kemet_net *n,
                       const kemet_pos *pos) {
    if (n->end && in_class(pos, n->end->pieces))
        n = n->end;
    int idx[MAX_INPUTS];
    double val[MAX_INPUTS], h[MAX_HIDDEN];
    int k = encode(r, n, pos, idx, val);
    double y = forward(n, k, idx, val, h);
    return pos->to == 1 ? y : 1 - y;
}

/* ---------------------------------------------------------------------------
 * Making, freeing, checking
 * ------------------------------------------------------------------------ */

kemet_net *kmt_net_alloc(const kemet_rules *r, int nh) {
    kemet_net *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    snprintf(n->id, sizeof n->id, "%s", r->net_key);
    n->nf = side_features(r);
    n->ni = inputs_for(r, n->nf);
    n->nh = nh;
    n->nw = n->ni * nh + 2 * nh + 1 + n->ni;
    n->w = calloc((size_t)n->nw, sizeof *n->w);
    n->sig = malloc((2 * SIG_N + 1) * sizeof *n->sig);
    n->w1f = calloc((size_t)n->ni * (size_t)nh, sizeof *n->w1f);
    if (!n->w || !n->sig || !n->w1f) {
        free(n->w);
        free(n->sig);
        free(n->w1f);
        free(n);
        return NULL;
    }
    for (int i = 0; i <= SIG_N; i++)
        n->sig[2 * i] = sigmoid(-SIG_MAX + 2 * SIG_MAX * i / SIG_N);
    for (int i = 0; i < SIG_N; i++)
        n->sig[2 * i + 1] = n->sig[2 * i + 2] - n->sig[2 * i];
    for (int i = 0; i < n->nf; i++)
        n->scale[i] = 1;
    return n;
}

void kemet_net_free(kemet_net *net) {
    if (!net)
        return;
    free(net->w);
    free(net->sig);
    free(net->w1f);
    free(net->note);
    kemet_net_free(net->end);
    free(net);
}

const char *kemet_net_ruleset(const kemet_net *net) {
    return net ? net->id : NULL;
}

int kemet_net_hidden(const kemet_net *net) {
    return net ? net->nh : 0;
}

int kemet_net_endgame(const kemet_net *net) {
    return net && net->end ? net->end->pieces : 0;
}

const char *kemet_net_note(const kemet_net *net) {
    return net ? net->note : NULL;
}

bool kmt_net_fits(const kemet_net *n, const kemet_rules *r) {
    return strcmp(n->id, r->net_key) == 0 && n->nf == side_features(r) &&
           n->ni == inputs_for(r, n->nf);
}

/* ---------------------------------------------------------------------------
 * The text format:
 *   kemet-net 1
 *   # comment lines (how it was made)
 *   net RULESET inputs=NI hidden=NH features=NF
 *   scale S1 ... SNF           (omitted when NF is 0)
 *   w NUMBER NUMBER ...        (the NW weights, in the order above, any
 *                               number per line)
 *   end
 * and, optionally, the endgame section: a second network of the same
 * form whose header ends in pieces=N, judging the positions in which each
 * side has 1 to N pieces in play (the class of an N-piece table).
 * ------------------------------------------------------------------------ */

int kemet_net_format(const kemet_net *n, const char *note, char **out) {
    if (!n || !out)
        return KEMET_EMISUSE;
    size_t cap = 512 + (note ? strlen(note) * 2 : 0);
    for (const kemet_net *x = n; x; x = x->end)
        cap += (size_t)x->nw * 18 + (size_t)x->nf * 20 + 256;
    char *s = malloc(cap);
    if (!s)
        return KEMET_ENOMEM;
    size_t len = 0;
    /* cap is more than the text needs; PUT stops at it all the same. */
#define PUT(...)                                                               \
    do {                                                                       \
        if (len < cap)                                                         \
            len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__);          \
    } while (0)
    PUT("kemet-net 1\n");
    for (const char *p = note; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        PUT("# %.*s\n", (int)l, p);
        p += l + (e ? 1 : 0);
    }
    for (const kemet_net *x = n; x; x = x->end) {
        PUT("net %s inputs=%d hidden=%d features=%d", x->id, x->ni, x->nh,
            x->nf);
        if (x != n)
            PUT(" pieces=%d", x->pieces);
        PUT("\n");
        if (x->nf) {
            PUT("scale");
            for (int i = 0; i < x->nf; i++)
                PUT(" %.9g", x->scale[i]);
            PUT("\n");
        }
        for (int i = 0; i < x->nw; i++)
            PUT("%s%.9g%s", i % 8 == 0 ? "w " : " ", x->w[i],
                i % 8 == 7 || i == x->nw - 1 ? "\n" : "");
        PUT("end\n");
    }
#undef PUT
    if (len >= cap) { /* never: cap allows 18 characters a number */
        free(s);
        return KEMET_ERANGE;
    }
    *out = s;
    return KEMET_OK;
}

/* The next line of text: [*s, *e), advancing *p; false at the end. */
static bool next_line(const char **p, const char **s, const char **e) {
    if (!**p)
        return false;
    *s = *p;
    const char *nl = strchr(*p, '\n');
    *e = nl ? nl : *p + strlen(*p);
    *p = nl ? nl + 1 : *e;
    if (*e > *s && (*e)[-1] == '\r')
        (*e)--;
    return true;
}

/* A section's header line [s, s + len): the network it opens (for `rules`,
 * the whole game's when `whole`, else an endgame section), or NULL with
 * the reason in err. */
static kemet_net *parse_header(const kemet_rules *rules, const char *s,
                               size_t len, bool whole, int line,
                               kemet_error *err) {
    char buf[128], id[64], tail;
    int ni, nh, nf, pieces = 0;
    if (len >= sizeof buf) {
        kmt_fail(err, KEMET_ESYNTAX, "network line %d: too long", line);
        return NULL;
    }
    memcpy(buf, s, len);
    buf[len] = 0;
    int k = sscanf(buf, "net %63s inputs=%d hidden=%d features=%d %c", id, &ni,
                   &nh, &nf, &tail);
    if (k == 5) /* more after the features: an endgame section's pieces */
        k = sscanf(buf, "net %63s inputs=%d hidden=%d features=%d pieces=%d %c",
                   id, &ni, &nh, &nf, &pieces, &tail) == 5
                ? 4
                : 0;
    if (k != 4) {
        kmt_fail(err, KEMET_ESYNTAX,
                 "network line %d: expected 'net RULESET inputs=N hidden=N "
                 "features=N'%s",
                 line, whole ? "" : " and 'pieces=N'");
        return NULL;
    }
    if (whole && pieces) {
        kmt_fail(err, KEMET_ESYNTAX,
                 "network line %d: the first network is the whole game's "
                 "(no pieces=)",
                 line);
        return NULL;
    }
    if (!whole && (pieces < 1 || pieces > rules->info.pieces)) {
        kmt_fail(err, KEMET_ESYNTAX,
                 "network line %d: an endgame section needs pieces=1 to %d",
                 line, rules->info.pieces);
        return NULL;
    }
    if (nh < 1 || nh > MAX_HIDDEN) {
        kmt_fail(err, KEMET_ESYNTAX,
                 "network line %d: hidden=%d is not 1 to %d", line, nh,
                 MAX_HIDDEN);
        return NULL;
    }
    kemet_net *n = kmt_net_alloc(rules, nh);
    if (!n) {
        kmt_fail(err, KEMET_ENOMEM, "out of memory");
        return NULL;
    }
    n->pieces = pieces;
    if (strcmp(id, n->id) != 0 || ni != n->ni || nf != n->nf) {
        kmt_fail(err, KEMET_ERULESET,
                 "network line %d: made for %.40s with %d inputs, not %s "
                 "with %d",
                 line, id, ni, n->id, n->ni);
        kemet_net_free(n);
        return NULL;
    }
    return n;
}

/* The numbers of a 'scale' or 'w' line, [q, e) after its keyword, into
 * cur's scale or weights (*got of them so far). */
static int parse_numbers(kemet_net *cur, bool is_scale, const char *q,
                         const char *e, int *got, int line, kemet_error *err) {
    char buf[48];
    while (q < e) {
        while (q < e && *q == ' ')
            q++;
        if (q == e)
            break;
        size_t l = 0;
        while (q + l < e && q[l] != ' ')
            l++;
        if (l >= 40)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "network line %d: a number too long", line);
        memcpy(buf, q, l);
        buf[l] = 0;
        char *end;
        errno = 0;
        double x = strtod(buf, &end);
        if (*end || end == buf || !isfinite(x) || fabs(x) > 1e6)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "network line %d: '%s' is not a number of at most "
                            "1e6",
                            line, buf);
        if (*got >= (is_scale ? cur->nf : cur->nw))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "network line %d: more numbers than the network "
                            "has",
                            line);
        (is_scale ? cur->scale : cur->w)[(*got)++] = x;
        q += l;
    }
    return KEMET_OK;
}

int kemet_net_parse(const kemet_rules *rules, const char *text, kemet_net **out,
                    kemet_error *err) {
    if (!rules || !text || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_net_parse: NULL argument");
    *out = NULL;
    const char *p = text, *s, *e;
    int line = 0;
    kemet_net *n = NULL, *cur = NULL; /* the whole; the section being read */
    int got = 0, nscale = 0;
    bool header = false, done = false;
    size_t notelen = 0;
    char *note = NULL;
    while (next_line(&p, &s, &e)) {
        line++;
        size_t len = (size_t)(e - s);
        if (!header) {
            if (len != 11 || memcmp(s, "kemet-net 1", 11) != 0) {
                kmt_fail(err, KEMET_ESYNTAX,
                         "network line 1: not a kemet-net 1 file");
                goto fail;
            }
            header = true;
            continue;
        }
        if (len == 0)
            continue;
        if (*s == '#') {
            const char *c = s + 1 + (len > 1 && s[1] == ' ');
            size_t l = (size_t)(e - c);
            char *grown = realloc(note, notelen + l + 2);
            if (!grown) {
                kmt_fail(err, KEMET_ENOMEM, "out of memory");
                goto fail;
            }
            note = grown;
            memcpy(note + notelen, c, l);
            notelen += l;
            note[notelen++] = '\n';
            note[notelen] = 0;
            continue;
        }
        bool is_net = len >= 4 && memcmp(s, "net ", 4) == 0;
        if (done && !(is_net && cur == n)) {
            kmt_fail(err, KEMET_ESYNTAX, "network line %d: text after 'end'",
                     line);
            goto fail;
        }
        if (!cur || done) {
            kemet_net *x = parse_header(rules, s, len, !cur, line, err);
            if (!x)
                goto fail;
            if (cur)
                n->end = x;
            else
                n = x;
            cur = x;
            got = nscale = 0;
            done = false;
            continue;
        }
        bool is_scale =
            len >= 5 && memcmp(s, "scale", 5) == 0 && (len == 5 || s[5] == ' ');
        bool is_w = len >= 1 && s[0] == 'w' && (len == 1 || s[1] == ' ');
        if (is_scale || is_w) {
            if (parse_numbers(cur, is_scale, s + (is_scale ? 5 : 1), e,
                              is_scale ? &nscale : &got, line, err))
                goto fail;
            continue;
        }
        if (len != 3 || memcmp(s, "end", 3) != 0) {
            kmt_fail(err, KEMET_ESYNTAX,
                     "network line %d: expected 'scale', 'w' or 'end'", line);
            goto fail;
        }
        if (got != cur->nw || nscale != cur->nf) {
            kmt_fail(err, KEMET_ESYNTAX,
                     "network line %d: incomplete (%d of %d weights)", line,
                     got, cur->nw);
            goto fail;
        }
        done = true;
    }
    if (!header) {
        kmt_fail(err, KEMET_ESYNTAX, "network line 1: not a kemet-net 1 file");
        goto fail;
    }
    if (!cur || !done) {
        kmt_fail(err, KEMET_ESYNTAX, "network: incomplete (%d of %d weights%s)",
                 got, cur ? cur->nw : 0, ", no 'end'");
        goto fail;
    }
    n->note = note;
    for (kemet_net *x = n; x; x = x->end)
        refresh(x);
    *out = n;
    return KEMET_OK;
fail:
    free(note);
    kemet_net_free(n);
    return err ? err->code : KEMET_ESYNTAX;
}
