/* agent.c - computer players that work for every ruleset.
 *
 * Agents see only the engine's generic interface and the ruleset's
 * evaluation (kemet_eval); none looks at which ruleset it plays. Each owns
 * its own generator, separate from the dice, so an agent's choices never
 * change the throws of a seeded game.
 *
 *   random  picks uniformly among the legal moves (and, before a throw,
 *           among throwing and the pre-throw moves).
 *   greedy  looks one move ahead: the move whose resulting position the
 *           ruleset's evaluation likes best for the mover; before a throw
 *           it weighs each pre-throw move against the expected value of
 *           throwing (each outcome met by its best move).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct agent_kind {
    const char *name;
    const char *about;
    int (*choose)(kemet_agent *a, const kemet_pos *pos, const kemet_throw *thr,
                  const kemet_move *moves, int n);
} agent_kind;

struct kemet_agent {
    const kemet_rules *rules;
    const agent_kind *kind;
    kemet_rng rng;
    char spec[64];
};

static int random_choose(kemet_agent *a, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *moves,
                         int n) {
    (void)pos;
    (void)moves;
    if (!thr || thr->n == 0) {
        int k = (int)kemet_rng_below(&a->rng, (uint32_t)n + 1);
        return k == n ? -1 : k;
    }
    return (int)kemet_rng_below(&a->rng, (uint32_t)n);
}

/* Best evaluation for the mover over `moves`; index in *best. Ties are
 * broken uniformly at random. */
static double best_move(kemet_agent *a, const kemet_pos *pos,
                        const kemet_throw *thr, const kemet_move *moves, int n,
                        int *best) {
    int who = pos->to;
    double top = -1e300;
    int ties = 0;
    *best = 0;
    for (int i = 0; i < n; i++) {
        kemet_pos next;
        kemet_make(a->rules, pos, thr, &moves[i], &next, NULL);
        double v = kemet_eval(a->rules, &next, who);
        if (v > top + 1e-9) {
            top = v;
            *best = i;
            ties = 1;
        } else if (v > top - 1e-9) {
            if (kemet_rng_below(&a->rng, (uint32_t)++ties) == 0)
                *best = i;
        }
    }
    return top;
}

static int greedy_choose(kemet_agent *a, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *moves,
                         int n) {
    int best;
    if (thr && thr->n > 0) {
        best_move(a, pos, thr, moves, n, &best);
        return best;
    }
    /* Before the throw: throwing is worth the expectation over outcomes. */
    kemet_throw out[KEMET_MAX_THROWS];
    uint32_t w[KEMET_MAX_THROWS], total;
    kemet_move list[KEMET_MAX_MOVES];
    int k = kemet_throws(a->rules, pos, out, w, &total);
    double expect = 0;
    for (int i = 0; i < k; i++) {
        int m = kemet_moves(a->rules, pos, &out[i], list);
        int b;
        expect += w[i] * best_move(a, pos, &out[i], list, m, &b);
    }
    expect /= total;
    double v = best_move(a, pos, NULL, moves, n, &best);
    return v > expect ? best : -1;
}

static const agent_kind kinds[] = {
    {"random", "picks a legal move uniformly at random", random_choose},
    {"greedy", "one move ahead: the move the ruleset's evaluation likes best",
     greedy_choose},
};
enum { NKINDS = (int)(sizeof kinds / sizeof kinds[0]) };

int kemet_agent_count(void) { return NKINDS; }
const char *kemet_agent_name(int i) {
    return (i >= 0 && i < NKINDS) ? kinds[i].name : NULL;
}
const char *kemet_agent_about(int i) {
    return (i >= 0 && i < NKINDS) ? kinds[i].about : NULL;
}

int kemet_agent_new(const kemet_rules *rules, const char *spec, uint64_t seed,
                    kemet_agent **out, kemet_error *err) {
    if (!rules || !spec || !out)
        return kemet_fail(err, KEMET_EMISUSE, "kemet_agent_new: NULL argument");
    *out = NULL;
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    const agent_kind *kind = NULL;
    for (int i = 0; i < NKINDS; i++)
        if (strlen(kinds[i].name) == len && memcmp(kinds[i].name, spec, len) == 0)
            kind = &kinds[i];
    if (!kind)
        return kemet_fail(err, KEMET_ESYNTAX,
                          "unknown agent '%.*s' (agents: random, greedy)",
                          (int)(len > 40 ? 40 : len), spec);
    if (colon)
        return kemet_fail(err, KEMET_ESYNTAX, "agent '%s' takes no budget",
                          kind->name);
    kemet_agent *a = calloc(1, sizeof *a);
    if (!a)
        return kemet_fail(err, KEMET_ENOMEM, "out of memory");
    a->rules = rules;
    a->kind = kind;
    kemet_rng_seed(&a->rng, seed);
    snprintf(a->spec, sizeof a->spec, "%s", kind->name);
    *out = a;
    return KEMET_OK;
}

void kemet_agent_free(kemet_agent *agent) { free(agent); }

const char *kemet_agent_spec(const kemet_agent *agent) { return agent->spec; }

int kemet_agent_choose(kemet_agent *agent, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *moves, int n) {
    if (n <= 0)
        return -1; /* nothing to choose: throw (or pass) */
    return agent->kind->choose(agent, pos, thr, moves, n);
}
