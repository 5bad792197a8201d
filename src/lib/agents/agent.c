/* agent.c - computer players that work for every ruleset.
 *
 * Agents see only the engine's generic interface and their judge
 * (judge.c: kemet_eval, the chain of tables, race database and
 * evaluation); none looks at which ruleset it plays. Each owns its own
 * generator, separate from the dice, so an agent's choices never change
 * the throws of a seeded game, and all the memory it plays with, made by
 * kemet_agent_new: choosing never allocates.
 *
 *   random      picks uniformly among the legal moves (and, before a
 *               throw, among throwing and the pre-throw moves).
 *   greedy      looks one move ahead: the move whose resulting position
 *               the evaluation likes best for the mover; before a throw it
 *               weighs each pre-throw move against the expected value of
 *               throwing (each outcome met by its best move).
 *   expectimax  expectiminimax search (search.c) under a budget.
 *   mcts        Monte Carlo tree search with chance nodes (mcts.c).
 *   best        the strongest at interactive speed: expectimax with the
 *               budget that answers in about a tenth of a second per move
 *               on every ruleset here.
 *
 * A budget follows the name after a colon: a node count ("expectimax:
 * 20000", "20k", "1m"), a time ("500ms", "2s"), or for expectimax a fixed
 * depth in plies ("d3"). Node and depth budgets are deterministic.
 *
 * "~P" after the name and budget ("greedy~0.25") makes any agent a weaker
 * one: in a share P of its decisions with a choice it plays as `random`
 * does, drawing from its own generator (the play levels, docs/ladder.md).
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SEARCH_NONE, SEARCH_EXPECTIMAX, SEARCH_MCTS, SEARCH_BEST };

/* `best` hands a choice among more than BEST_WIDE moves to MCTS, with one
 * iteration per BEST_ITER positions of its budget (at least 100; with a
 * depth budget, BEST_DEPTH_ITER), which takes about the time the same
 * budget takes elsewhere: expectimax cannot see past one ply there (Lions
 * & Jackals' turns of several values), and the ladder (docs/agent-ladder.md)
 * shows MCTS far stronger on such choices. */
#define BEST_WIDE 32
#define BEST_ITER 50
#define BEST_DEPTH_ITER 2000

typedef struct agent_kind {
    const char *name;
    const char *about;
    int search;        /* SEARCH_* */
    kmt_budget budget; /* the default budget */
    int (*choose)(kemet_agent *a, const kemet_pos *pos, const kemet_throw *thr,
                  const kemet_move *moves, int n);
} agent_kind;

struct kemet_agent {
    const kemet_rules *rules;
    const kemet_judge *base;  /* the one it was made with */
    const kemet_judge *judge; /* the one it judges by: `base`, or
                                 `derived` from it */
    kemet_judge *own;         /* made by kemet_agent_new, or NULL */
    kemet_judge derived; /* @linear, @plain, @base: a copy owning nothing */
    const agent_kind *kind;
    kemet_rng rng;
    kmt_budget budget;
    uint32_t blunder; /* "~P": P in millionths */
    kmt_search *search;
    kmt_mcts *mcts;
    /* greedy's scratch for the value of throwing */
    kemet_throw *thr;
    kemet_weight *w;
    kemet_move *list;
    kemet_move *moves; /* kemet_game_step's list of choices */
    long long nodes;
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
        double v = kemet_eval(a->judge, &next, who);
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

/* Greedy's value of throwing for the mover: each outcome met by its best
 * move, valued by the evaluation (`chance`: as a win chance). */
static double throw_value(const kemet_agent *a, const kemet_pos *pos,
                          bool chance) {
    kemet_throw *out = a->thr;
    kemet_weight *w = a->w, total;
    kemet_move *list = a->list;
    double expect = 0;
    int who = pos->to;
    int k = kemet_throws(a->rules, pos, out, w, &total);
    for (int i = 0; i < k; i++) {
        int m = kemet_moves(a->rules, pos, &out[i], list);
        double top = -1e300;
        for (int j = 0; j < m; j++) {
            kemet_pos next;
            kemet_make(a->rules, pos, &out[i], &list[j], &next, NULL);
            double v = chance ? kmt_judge_eval(a->judge, &next, who)
                              : kemet_eval(a->judge, &next, who);
            top = v > top ? v : top;
        }
        if (m >= 1)
            expect += (double)w[i] * top;
    }
    return expect / (double)total;
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
    double v = best_move(a, pos, NULL, moves, n, &best);
    return v > throw_value(a, pos, false) ? best : -1;
}

/* Whether this decision is one of the share "~P" played at random (a
 * draw only for an agent with such a share). */
static bool blunders(kemet_agent *a) {
    return a->blunder > 0 && kemet_rng_below(&a->rng, 1000000) < a->blunder;
}

static int rank_core(kemet_agent *agent, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *moves, int n,
                     double *chance, double *throw_chance);

static int search_choose(kemet_agent *a, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *moves,
                         int n) {
    return rank_core(a, pos, thr, moves, n, NULL, NULL);
}

static const agent_kind kinds[] = {
    {"random",
     "picks a legal move uniformly at random",
     SEARCH_NONE,
     {0},
     random_choose},
    {"greedy",
     "one move ahead: the move the evaluation likes best",
     SEARCH_NONE,
     {0},
     greedy_choose},
    {"expectimax",
     "expectiminimax search with Star1/Star2 pruning (budget: nodes, "
     "default 20k; Nms; dN plies)",
     SEARCH_EXPECTIMAX,
     {20000, 0, 0, NULL, NULL},
     search_choose},
    {"mcts",
     "Monte Carlo tree search over throws and moves, guided by the "
     "evaluation (budget: iterations, default 5k; Nms)",
     SEARCH_MCTS,
     {5000, 0, 0, NULL, NULL},
     search_choose},
    {"best",
     "the strongest: expectimax, or mcts where a throw leaves more "
     "than 32 moves (budget default 100k nodes: about 0.1 s a move)",
     SEARCH_BEST,
     {100000, 0, 0, NULL, NULL},
     search_choose},
};
enum { NKINDS = (int)(sizeof kinds / sizeof kinds[0]) };

/* The play levels where a ruleset names none (its file's 'levels' gives
 * its own): what each plays as, and its name on the page. Each a share of
 * random moves less than the level below, then the search: measurably
 * stronger step by step in every ruleset here (docs/ladder.md). */
static const char *const levels[KEMET_LEVELS][2] = {
    {"random", "beginner"},      {"greedy~0.6", "easy"},
    {"greedy~0.25", "fair"},     {"greedy", "strong"},
    {"best:20k", "very strong"},
};

const char *kemet_level_agent(int level) {
    return level >= 1 && level <= KEMET_LEVELS ? levels[level - 1][0] : NULL;
}

const char *kemet_rules_level_agent(const kemet_rules *rules, int level) {
    if (!rules || level < 1 || level > KEMET_LEVELS)
        return NULL;
    const char *own = rules->rs->level[level - 1];
    return own ? own : levels[level - 1][0];
}

const char *kemet_level_about(int level) {
    return level >= 1 && level <= KEMET_LEVELS ? levels[level - 1][1] : NULL;
}

int kemet_agent_count(void) {
    return NKINDS;
}
const char *kemet_agent_name(int i) {
    return (i >= 0 && i < NKINDS) ? kinds[i].name : NULL;
}
const char *kemet_agent_about(int i) {
    return (i >= 0 && i < NKINDS) ? kinds[i].about : NULL;
}

/* Reads a budget: "N" (k, m: thousands, millions) nodes or iterations,
 * "Nms" or "Ns" of time, "dN" plies (expectimax only). */
static int parse_budget(const agent_kind *kind, const char *text, kmt_budget *b,
                        kemet_error *err) {
    *b = (kmt_budget){0};
    const char *s = text;
    bool depth = *s == 'd';
    if (depth)
        s++;
    if (*s < '0' || *s > '9')
        goto bad;
    char *end;
    double x = strtod(s, &end);
    if (end == s || x <= 0 || x > 1e12)
        goto bad;
    if (depth) {
        if (kind->search == SEARCH_MCTS || *end || x > 60 || x != (int)x)
            goto bad;
        b->depth = (int)x;
    } else if (strcmp(end, "ms") == 0 || strcmp(end, "s") == 0) {
        /* at most an hour a move, as depths stop at d60 */
        b->seconds = *end == 'm' ? x / 1000 : x;
        if (b->seconds > 3600)
            goto bad;
    } else {
        double scale = *end == 'k' ? 1e3 : *end == 'm' ? 1e6 : 1;
        if (scale > 1)
            end++;
        if (*end || x * scale < 1 ||
            x * scale != (double)(long long)(x * scale))
            goto bad;
        b->nodes = (long long)(x * scale);
    }
    return KEMET_OK;
bad:
    return kmt_fail(err, KEMET_ESYNTAX,
                    "bad budget '%.30s' for agent %s (a node count like "
                    "20000 or 20k, a time like 500ms or 2s up to 3600s%s)",
                    text, kind->name,
                    kind->search != SEARCH_MCTS ? ", or plies like d3" : "");
}

/* A share 0..1 written "0", "1", "0.25" (at most six decimals) into
 * millionths. */
static int read_share(const char *s, uint32_t *out) {
    size_t n = strlen(s);
    if (n < 1 || n > 8 || strspn(s, "0123456789.") != n || s[0] == '.' ||
        strchr(s, '.') != strrchr(s, '.') || s[n - 1] == '.')
        return -1;
    char *end;
    double x = strtod(s, &end);
    if (*end || x < 0 || x > 1)
        return -1;
    *out = (uint32_t)(x * 1e6 + 0.5);
    return 0;
}

/* An agent spec as read: its kind, budget, share played at random and
 * judge, and the spec written back in its canonical form. */
typedef struct agent_spec {
    const agent_kind *kind;
    kmt_budget budget;
    uint32_t blunder;
    int judged; /* KMT_JUDGE_* */
    char canon[64];
} agent_spec;

static int parse_spec(const char *spec, agent_spec *o, kemet_error *err) {
    char buf[64];
    static const char *const judged[] = {"", "@linear", "@plain", "@base"};
    const char *at = strchr(spec, '@');
    int how = KMT_JUDGE_SAME;
    if (at) {
        for (int i = 1; i < 4; i++)
            if (strcmp(at, judged[i]) == 0)
                how = i;
        if (how == KMT_JUDGE_SAME || (size_t)(at - spec) >= sizeof buf)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "bad agent '%.40s' (only '@linear', '@plain' or "
                            "'@base' may follow an agent)",
                            spec);
        memcpy(buf, spec, (size_t)(at - spec));
        buf[at - spec] = 0;
        spec = buf;
    }
    uint32_t blunder = 0;
    const char *tilde = strchr(spec, '~');
    char share[12] = "";
    if (tilde) {
        size_t head = (size_t)(tilde - spec);
        if (head >= sizeof buf || read_share(tilde + 1, &blunder))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "bad agent '%.40s' ('~' takes the share of its "
                            "decisions played at random, 0 to 1: ~0.25)",
                            spec);
        snprintf(share, sizeof share, "~%s", tilde + 1);
        if (spec != buf)
            memcpy(buf, spec, head);
        buf[head] = 0;
        spec = buf;
    }
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    const agent_kind *kind = NULL;
    for (int i = 0; i < NKINDS; i++)
        if (strlen(kinds[i].name) == len &&
            memcmp(kinds[i].name, spec, len) == 0)
            kind = &kinds[i];
    if (!kind)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "unknown agent '%.*s' (agents: random, greedy, "
                        "expectimax, mcts, best)",
                        (int)(len > 40 ? 40 : len), spec);
    kmt_budget budget = kind->budget;
    if (colon && kind->search == SEARCH_NONE)
        return kmt_fail(err, KEMET_ESYNTAX, "agent '%s' takes no budget",
                        kind->name);
    if (colon) {
        int rc = parse_budget(kind, colon + 1, &budget, err);
        if (rc)
            return rc;
    }
    *o = (agent_spec){kind, budget, blunder, how, ""};
    snprintf(o->canon, sizeof o->canon, "%s%s%.30s%s%s", kind->name,
             colon ? ":" : "", colon ? colon + 1 : "", share, judged[how]);
    return KEMET_OK;
}

int kmt_agent_spec_check(const char *spec, kemet_error *err) {
    agent_spec o;
    return parse_spec(spec, &o, err);
}

int kemet_agent_new_judged(const kemet_judge *judge, const char *spec,
                           uint64_t seed, kemet_agent **out, kemet_error *err) {
    if (!judge || !spec || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_agent_new: NULL argument");
    *out = NULL;
    agent_spec o;
    int rc = parse_spec(spec, &o, err);
    if (rc)
        return rc;
    const agent_kind *kind = o.kind;
    kemet_agent *a = calloc(1, sizeof *a);
    if (!a)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    a->rules = judge->rules;
    a->base = a->judge = judge;
    if (o.judged != KMT_JUDGE_SAME) {
        kmt_judge_derive(judge, o.judged, &a->derived);
        a->judge = &a->derived;
    }
    a->kind = kind;
    a->budget = o.budget;
    a->blunder = o.blunder;
    kemet_rng_seed(&a->rng, seed);
    bool ok = (a->moves = malloc(KEMET_MAX_MOVES * sizeof *a->moves)) != NULL;
    if (ok && kind->search == SEARCH_NONE) {
        ok = (a->thr = malloc(KEMET_MAX_THROWS * sizeof *a->thr)) &&
             (a->w = malloc(KEMET_MAX_THROWS * sizeof *a->w)) &&
             (a->list = malloc(KEMET_MAX_MOVES * sizeof *a->list));
    }
    if (ok &&
        (kind->search == SEARCH_EXPECTIMAX || kind->search == SEARCH_BEST))
        ok = (a->search = kmt_search_new(a->judge)) != NULL;
    if (ok && (kind->search == SEARCH_MCTS || kind->search == SEARCH_BEST))
        ok = (a->mcts = kmt_mcts_new(a->judge)) != NULL;
    if (!ok) {
        kemet_agent_free(a);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    memcpy(a->spec, o.canon, sizeof a->spec);
    *out = a;
    return KEMET_OK;
}

int kemet_agent_new(const kemet_rules *rules, const char *spec, uint64_t seed,
                    kemet_agent **out, kemet_error *err) {
    if (!rules || !spec || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_agent_new: NULL argument");
    *out = NULL;
    kemet_judge *j;
    int rc = kemet_judge_new(rules, NULL, &j, err);
    if (rc == KEMET_OK) {
        rc = kemet_agent_new_judged(j, spec, seed, out, err);
        if (rc == KEMET_OK)
            (*out)->own = j;
        else
            kemet_judge_free(j);
    }
    return rc;
}

void kemet_agent_free(kemet_agent *agent) {
    if (!agent)
        return;
    kmt_search_free(agent->search);
    kmt_mcts_free(agent->mcts);
    free(agent->thr);
    free(agent->w);
    free(agent->list);
    free(agent->moves);
    kemet_judge_free(agent->own);
    free(agent);
}

void kemet_agent_set_check(kemet_agent *agent, int (*check)(void *ctx),
                           void *ctx) {
    agent->budget.check = check;
    agent->budget.check_ctx = ctx;
}

int kmt_agent_check(kemet_agent *a) {
    return a->budget.check ? a->budget.check(a->budget.check_ctx) : 0;
}

const kemet_judge *kmt_agent_base(const kemet_agent *a) {
    return a->base;
}

const kemet_judge *kemet_agent_judge(const kemet_agent *agent) {
    return agent ? agent->judge : NULL;
}

long long kemet_agent_nodes(const kemet_agent *agent) {
    return agent->nodes;
}

/* kemet_agent_rank without the share played at random. */
static int rank_core(kemet_agent *agent, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *moves, int n,
                     double *chance, double *throw_chance) {
    if (thr && thr->n == 0)
        thr = NULL;
    if (n <= 0 && thr)
        return -1;
    kemet_agent *a = agent;
    if (a->search && a->mcts && thr && n > BEST_WIDE) {
        kmt_budget b = a->budget;
        b.nodes = b.depth ? BEST_DEPTH_ITER : b.nodes / BEST_ITER;
        b.nodes = b.nodes < 100 ? 100 : b.nodes;
        b.depth = 0;
        int k =
            kmt_mcts_run(a->mcts, &b, pos, thr, moves, n, chance, throw_chance);
        a->nodes = kmt_mcts_nodes(a->mcts);
        return k;
    }
    if (a->search) {
        int k = kmt_search_run(a->search, &a->budget, pos, thr, moves, n,
                               chance, throw_chance);
        a->nodes = kmt_search_nodes(a->search);
        return k;
    }
    if (a->mcts) {
        int k = kmt_mcts_run(a->mcts, &a->budget, pos, thr, moves, n, chance,
                             throw_chance);
        a->nodes = kmt_mcts_nodes(a->mcts);
        return k;
    }
    /* One move ahead: the evaluation's win chance after each move. */
    int who = pos->to;
    for (int i = 0; chance && i < n; i++) {
        kemet_pos next;
        kemet_make(a->rules, pos, thr, &moves[i], &next, NULL);
        chance[i] = kmt_judge_eval(a->judge, &next, who);
    }
    if (!thr && throw_chance)
        *throw_chance = throw_value(a, pos, true);
    a->nodes = n;
    if (n <= 0)
        return -1;
    return a->kind->choose(a, pos, thr, moves, n);
}

int kemet_agent_rank(kemet_agent *agent, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *moves, int n,
                     double *chance, double *throw_chance) {
    assert(agent && kmt_pos_usable(agent->rules, pos) && (n <= 0 || moves));
    int k = rank_core(agent, pos, thr, moves, n, chance, throw_chance);
    bool choice = thr && thr->n > 0 ? n > 1 : n >= 1;
    if (choice && blunders(agent))
        k = random_choose(agent, pos, thr, moves, n);
    return k;
}

const char *kemet_agent_spec(const kemet_agent *agent) {
    return agent->spec;
}

int kemet_agent_choose(kemet_agent *agent, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *moves, int n) {
    assert(agent && kmt_pos_usable(agent->rules, pos) && (n <= 0 || moves));
    if (n <= 0)
        return -1; /* nothing to choose: throw (or pass) */
    if (thr && thr->n > 0 && n == 1)
        return 0; /* forced */
    if (blunders(agent))
        return random_choose(agent, pos, thr, moves, n);
    return agent->kind->choose(agent, pos, thr, moves, n);
}

/* The agent as kemet_game_step's chooser (kemet_agent_choose answers
 * where there is no choice without asking its kind). */
static int step_choose(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                       const kemet_move *moves, int n) {
    return kemet_agent_choose(ctx, pos, thr, moves, n);
}

int kemet_game_step(kemet_game *game, kemet_agent *agent, kemet_events *ev) {
    if (!game || !agent ||
        strcmp(kemet_rules_spec(kmt_game_rules(game)),
               kemet_rules_spec(agent->rules)) != 0)
        return KEMET_EMISUSE;
    return kemet_game_step_with(game, step_choose, agent, agent->moves, ev);
}
