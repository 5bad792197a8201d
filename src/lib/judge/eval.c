/* eval.c - the linear evaluation's features and weights files: a
 * ruleset's features, weighed by a judge (judge.c) into the log-odds of a
 * win.
 *
 * A ruleset module says what one side's features are (progress, pieces
 * borne off, pieces at risk, ...); here they become player 1's minus player
 * 2's, plus "tempo" (+1 when player 1 is to move, -1 otherwise), so the
 * evaluation is symmetric by construction: what one side gains, the other
 * loses. The weights come from data/eval.weights, which `kemet tune` makes
 * by fitting the features to the outcomes of self-play games (a logistic
 * regression: docs/strength.md), and which the build carries inside the
 * library. A ruleset the file does not name keeps its module's starting
 * weights.
 */
#include "internal.h"

#include <assert.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const char kmt_eval_weights_data[];

int kmt_eval_nfeatures(const kemet_rules *r) {
    int n = 0;
    while (r->rs->features[n])
        n++;
    return n + 1; /* and tempo */
}

const char *kemet_eval_feature(const kemet_rules *rules, int i) {
    int n = kmt_eval_nfeatures(rules);
    if (i < 0 || i >= n)
        return NULL;
    return i == n - 1 ? "tempo" : rules->rs->features[i];
}

int kmt_eval_features(const kemet_rules *rules, const kemet_pos *pos,
                      double *f) {
    double g[KEMET_MAX_FEATURES] = {0};
    int n = kmt_eval_nfeatures(rules);
    for (int i = 0; i < n; i++)
        f[i] = 0;
    rules->rs->side(rules, pos, 0, f);
    rules->rs->side(rules, pos, 1, g);
    for (int i = 0; i < n - 1; i++)
        f[i] -= g[i];
    f[n - 1] = pos->to == 1 ? 1.0 : -1.0;
    return n;
}

int kemet_eval_features(const kemet_rules *rules, const kemet_pos *pos,
                        double *f) {
    if (!kmt_pos_usable(rules, pos) || !f)
        return KEMET_EMISUSE;
    return kmt_eval_features(rules, pos, f);
}

/* Reads "NAME=WEIGHT ..." (the rest of a ruleset's line) into w[]. */
static int read_line(const kemet_rules *r, const char *s, const char *end,
                     double *w, int line, kemet_error *err) {
    int n = kmt_eval_nfeatures(r);
    bool seen[KEMET_MAX_FEATURES] = {false};
    while (s < end) {
        while (s < end && (*s == ' ' || *s == '\t'))
            s++;
        if (s == end)
            break;
        const char *eq = s;
        while (eq < end && *eq != '=' && *eq != ' ')
            eq++;
        if (eq == end || *eq != '=')
            return kmt_fail(err, KEMET_ESYNTAX,
                            "weights line %d: expected NAME=WEIGHT", line);
        int k = -1;
        for (int i = 0; i < n; i++) {
            const char *name = kemet_eval_feature(r, i);
            if (strlen(name) == (size_t)(eq - s) &&
                memcmp(name, s, (size_t)(eq - s)) == 0)
                k = i;
        }
        if (k < 0)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "weights line %d: %s has no feature '%.*s'", line,
                            r->rs->id, (int)(eq - s > 40 ? 40 : eq - s), s);
        char num[40];
        const char *v = eq + 1, *ve = v;
        while (ve < end && *ve != ' ' && *ve != '\t')
            ve++;
        size_t len = (size_t)(ve - v);
        char *stop;
        if (len == 0 || len >= sizeof num)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "weights line %d: bad weight for %s", line,
                            kemet_eval_feature(r, k));
        memcpy(num, v, len);
        num[len] = '\0';
        double x = strtod(num, &stop);
        if (*stop != '\0' || !isfinite(x))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "weights line %d: bad weight '%s'", line, num);
        if (fabs(x) > KEMET_MAX_WEIGHT)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "weights line %d: weight '%s' is out of range "
                            "(at most %g in size)",
                            line, num, KEMET_MAX_WEIGHT);
        if (seen[k])
            return kmt_fail(err, KEMET_ESYNTAX,
                            "weights line %d: %s given twice", line,
                            kemet_eval_feature(r, k));
        seen[k] = true;
        w[k] = x;
        s = ve;
    }
    for (int i = 0; i < n; i++)
        if (!seen[i])
            return kmt_fail(err, KEMET_ESYNTAX,
                            "weights line %d: no weight for %s", line,
                            kemet_eval_feature(r, i));
    return KEMET_OK;
}

int kmt_eval_read(const kemet_rules *rules, const char *text, double *out,
                  kemet_error *err) {
    const char *magic = "kemet-weights 1";
    size_t mlen = strlen(magic);
    if (strncmp(text, magic, mlen) != 0 ||
        (text[mlen] != '\n' && text[mlen] != '\0'))
        return kmt_fail(err, KEMET_ESYNTAX,
                        "weights line 1: expected 'kemet-weights 1'");
    const char *id = rules->eval_id;
    size_t idlen = strlen(id);
    double w[KEMET_MAX_FEATURES];
    bool found = false;
    int line = 1;
    for (const char *s = strchr(text, '\n'); s && s[1];
         s = strchr(s + 1, '\n')) {
        const char *b = s + 1, *e = strchr(b, '\n');
        if (!e)
            e = b + strlen(b);
        line++;
        if (b == e || *b == '#')
            continue;
        const char *sp = b;
        while (sp < e && *sp != ' ')
            sp++;
        if (sp == e)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "weights line %d: expected RULESET NAME=WEIGHT...",
                            line);
        if ((size_t)(sp - b) != idlen || memcmp(b, id, idlen) != 0)
            continue;
        if (found)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "weights line %d: %s given twice", line, id);
        int rc = read_line(rules, sp, e, w, line, err);
        if (rc)
            return rc;
        found = true;
    }
    if (!found)
        return kmt_fail(err, KEMET_ERULESET, "the weights name no %s", id);
    int n = kmt_eval_nfeatures(rules);
    for (int i = 0; i < n; i++)
        out[i] = w[i];
    return KEMET_OK;
}

int kmt_eval_start(const kemet_rules *r, double *w) {
    int n = kmt_eval_nfeatures(r);
    for (int i = 0; i < n - 1; i++)
        w[i] = r->rs->weights[i];
    w[n - 1] = 0.1; /* tempo */
    return n;
}

int kmt_eval_tuned(const kemet_rules *r, double *w) {
    int n = kmt_eval_start(r, w);
    (void)kmt_eval_read(r, kmt_eval_weights_data, w, NULL);
    return n;
}
