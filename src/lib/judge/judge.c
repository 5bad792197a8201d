/* judge.c - the judge: the one chain that values a position for every
 * agent, search, rollout, review and luck.
 *
 * A judge is made from a ruleset (which it borrows and never changes) and
 * owns or borrows everything that values a position: the linear weights,
 * the learned network (net.c), an exact endgame table (table.c) and a race
 * database (race.c). Like GNU Backgammon's evaluator picked by the class of
 * the position, it answers player 1's chance by the first of
 *
 *   the result of a finished game     exact
 *   the endgame table, if it covers   exact
 *   the race database, if it answers near-exact
 *   the network, if there is one      estimate
 *   the linear weights                estimate
 *
 * The rules know nothing of any of these: the arrows run from the judge
 * down to the rules, and from the agents down to the judge. A judge is set
 * up (kemet_judge_use_*, the weights) before it is shared; after that it
 * is only read, so any number of threads may judge with it at once.
 */
#include "internal.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Making
 * ------------------------------------------------------------------------ */

/* The built-in network trained for `name` (a ruleset's spec with its
 * options, or its id) into *out, NULL where none was or it does not fit
 * (a board file of another size); an error only for memory. */
static int builtin_net(const kemet_rules *rules, const char *name,
                       kemet_net **out) {
    *out = NULL;
    for (int i = 0; kmt_nets_builtin[i][0]; i++)
        if (strcmp(kmt_nets_builtin[i][0], name) == 0)
            return kemet_net_parse(rules, kmt_nets_builtin[i][1], out, NULL) ==
                           KEMET_ENOMEM
                       ? KEMET_ENOMEM
                       : KEMET_OK;
    return KEMET_OK;
}

int kemet_judge_new(const kemet_rules *rules, const char *how,
                    kemet_judge **out, kemet_error *err) {
    if (!rules || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_judge_new: NULL argument");
    *out = NULL;
    bool linear = how && strcmp(how, "linear") == 0;
    bool plain = how && strcmp(how, "plain") == 0;
    if (how && *how && !linear && !plain)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "bad evaluation '%.40s' (linear, plain, or none for "
                        "the ruleset's own)",
                        how);
    kemet_judge *j = calloc(1, sizeof *j);
    if (!j)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    j->rules = rules;
    j->plain = plain;
    j->nw = kmt_eval_tuned(rules, j->w);
    /* The built-in network, where one was trained for this ruleset and
     * fits its board (a board file of another size keeps the linear one):
     * the one trained for its options where there is one (data/nets/
     * ID:OPTIONS.net), else the ruleset's own, which is also the base. */
    if (!linear && !plain) {
        kemet_net *opt = NULL, *base = NULL;
        int rc = strcmp(rules->spec, rules->info.id) != 0
                     ? builtin_net(rules, rules->spec, &opt)
                     : KEMET_OK;
        if (rc == KEMET_OK)
            rc = builtin_net(rules, rules->eval_id, &base);
        if (rc) {
            kemet_net_free(opt);
            kemet_judge_free(j);
            return kmt_fail(err, KEMET_ENOMEM, "out of memory");
        }
        j->own_net = opt ? opt : base;
        j->own_base = opt ? base : NULL;
        j->net = j->own_net;
        j->base_net = base;
    }
    *out = j;
    return KEMET_OK;
}

void kemet_judge_free(kemet_judge *judge) {
    if (!judge)
        return;
    kemet_net_free(judge->own_net);
    kemet_net_free(judge->own_base);
    free(judge);
}

void kmt_judge_derive(const kemet_judge *base, int how, kemet_judge *out) {
    *out = *base;
    out->own_net = NULL;
    out->own_base = NULL;
    if (how == KMT_JUDGE_LINEAR || how == KMT_JUDGE_PLAIN)
        out->net = NULL;
    if (how == KMT_JUDGE_BASE)
        out->net = base->base_net;
    if (how == KMT_JUDGE_PLAIN) {
        out->table = NULL;
        out->race = NULL;
        out->plain = true;
    }
}

const kemet_rules *kemet_judge_rules(const kemet_judge *judge) {
    return judge ? judge->rules : NULL;
}

int kemet_judge_use_table(kemet_judge *judge, const kemet_table *table) {
    if (!judge)
        return KEMET_EMISUSE;
    if (table && strcmp(kemet_table_spec(table), judge->rules->key) != 0)
        return KEMET_ERULESET;
    judge->table = judge->plain ? NULL : table;
    return KEMET_OK;
}

const kemet_table *kemet_judge_table(const kemet_judge *judge) {
    return judge ? judge->table : NULL;
}

int kemet_judge_use_race(kemet_judge *judge, const kemet_race *race) {
    if (!judge)
        return KEMET_EMISUSE;
    if (race && strcmp(kmt_race_spec(race), judge->rules->key) != 0)
        return KEMET_ERULESET;
    judge->race = judge->plain ? NULL : race;
    return KEMET_OK;
}

const kemet_race *kemet_judge_race(const kemet_judge *judge) {
    return judge ? judge->race : NULL;
}

int kemet_judge_use_net(kemet_judge *judge, const kemet_net *net) {
    if (!judge)
        return KEMET_EMISUSE;
    if (net && !kmt_net_fits(net, judge->rules))
        return KEMET_ERULESET;
    judge->net = net;
    return KEMET_OK;
}

const kemet_net *kemet_judge_net(const kemet_judge *judge) {
    return judge ? judge->net : NULL;
}

/* ---------------------------------------------------------------------------
 * The linear weights
 * ------------------------------------------------------------------------ */

int kemet_eval_weights(const kemet_judge *judge, double *w) {
    if (!judge || !w)
        return KEMET_EMISUSE;
    for (int i = 0; i < judge->nw; i++)
        w[i] = judge->w[i];
    return judge->nw;
}

int kemet_eval_set_weights(kemet_judge *judge, const double *w, int n) {
    if (!judge || !w || n != judge->nw)
        return KEMET_EMISUSE;
    for (int i = 0; i < n; i++)
        if (!isfinite(w[i]) || fabs(w[i]) > KEMET_MAX_WEIGHT)
            return KEMET_EMISUSE;
    for (int i = 0; i < n; i++)
        judge->w[i] = w[i];
    return KEMET_OK;
}

void kemet_eval_reset(kemet_judge *judge) {
    if (judge)
        judge->nw = kmt_eval_start(judge->rules, judge->w);
}

int kemet_eval_load(kemet_judge *judge, const char *text, kemet_error *err) {
    if (!judge || !text)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_eval_load: NULL argument");
    double w[KEMET_MAX_FEATURES];
    int rc = kmt_eval_read(judge->rules, text, w, err);
    return rc ? rc : kemet_eval_set_weights(judge, w, judge->nw);
}

/* ---------------------------------------------------------------------------
 * Judging
 * ------------------------------------------------------------------------ */

/* The log-odds for player 1 of an unfinished position. */
static double logit1(const kemet_judge *j, const kemet_pos *pos) {
    if (j->net) {
        double y = kmt_net_chance1(j->rules, j->net, pos);
        y = y < 1e-12 ? 1e-12 : y > 1 - 1e-12 ? 1 - 1e-12 : y;
        return log(y / (1 - y));
    }
    double f[KEMET_MAX_FEATURES];
    int n = kmt_eval_features(j->rules, pos, f);
    double z = 0;
    for (int i = 0; i < n; i++)
        z += j->w[i] * f[i];
    return z;
}

double kmt_judge_eval(const kemet_judge *j, const kemet_pos *pos, int player) {
    switch (pos->result) {
    case KEMET_WON1: return player == 1 ? 1.0 : 0.0;
    case KEMET_WON2: return player == 2 ? 1.0 : 0.0;
    case KEMET_DRAW: return 0.5;
    default: break;
    }
    if (j->net) {
        double y = kmt_net_chance1(j->rules, j->net, pos);
        return player == 1 ? y : 1 - y;
    }
    double z = logit1(j, pos);
    return 1.0 / (1.0 + exp(player == 1 ? -z : z));
}

/* The chance of the player to move by the table or the race database,
 * 1 when one answered (*exact: the table did). */
static int probe(const kemet_judge *j, const kemet_pos *pos, double *v,
                 bool *exact) {
    if (pos->result != KEMET_PLAYING)
        return 0;
    if (j->table && kemet_table_probe(j->table, pos, v)) {
        *exact = true;
        return 1;
    }
    return j->race && kemet_race_probe(j->race, pos, v);
}

double kmt_judge_chance1(const kemet_judge *j, const kemet_pos *pos,
                         bool *exact) {
    double v;
    bool ex = false;
    if (probe(j, pos, &v, &ex)) {
        if (ex && exact)
            *exact = true;
        return pos->to == 1 ? v : 1 - v;
    }
    return kmt_judge_eval(j, pos, 1);
}

double kemet_judge_chance(const kemet_judge *judge, const kemet_pos *pos,
                          int *exact) {
    assert(judge && kmt_pos_usable(judge->rules, pos));
    bool ex = pos->result != KEMET_PLAYING;
    double v = kmt_judge_chance1(judge, pos, &ex);
    if (exact)
        *exact = ex;
    return v;
}

double kemet_eval(const kemet_judge *judge, const kemet_pos *pos, int player) {
    assert(judge && kmt_pos_usable(judge->rules, pos) &&
           (player == 1 || player == 2));
    switch (pos->result) {
    case KEMET_WON1: return player == 1 ? 1000.0 : -1000.0;
    case KEMET_WON2: return player == 2 ? 1000.0 : -1000.0;
    case KEMET_DRAW: return 0.0;
    default: break;
    }
    double z = logit1(judge, pos);
    return player == 1 ? z : -z;
}

double kemet_win_chance(const kemet_judge *judge, const kemet_pos *pos,
                        int player) {
    assert(judge && kmt_pos_usable(judge->rules, pos) &&
           (player == 1 || player == 2));
    double v;
    bool exact = false;
    if (probe(judge, pos, &v, &exact))
        return player == pos->to ? v : 1 - v;
    return kmt_judge_eval(judge, pos, player);
}
