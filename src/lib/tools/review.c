/* review.c - game review: every decision of a game graded by an agent's
 * win chances, and the luck of every throw (kemet.h, docs/review.md).
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *kemet_grade_name(int grade) {
    static const char *const names[KEMET_GRADES] = {
        "forced", "best", "good", "doubtful", "bad", "very bad"};
    return grade >= 0 && grade < KEMET_GRADES ? names[grade] : "?";
}

/* lichess's move accuracy (lichess.org/page/accuracy, "Accuracy" of its
 * analysis, fitted to its win-percentage curve), with the loss in points
 * of win chance. */
double kemet_review_move_accuracy(double loss) {
    double a = 103.1668 * exp(-0.04354 * 100.0 * loss) - 3.1669;
    return a < 0 ? 0 : a > 100 ? 100 : a;
}

double kemet_review_accuracy(const kemet_review_entry *e, long n, int player) {
    double sum = 0;
    long k = 0;
    for (long i = 0; e && i < n; i++)
        if (e[i].player == player && e[i].choices > 1) {
            sum += kemet_review_move_accuracy(e[i].loss);
            k++;
        }
    return k ? sum / (double)k : 100.0;
}

static int grade_of(int choices, double loss) {
    if (choices < 2)
        return KEMET_GRADE_FORCED;
    return loss < KEMET_REVIEW_BEST       ? KEMET_GRADE_BEST
           : loss < KEMET_REVIEW_DOUBTFUL ? KEMET_GRADE_GOOD
           : loss < KEMET_REVIEW_BAD      ? KEMET_GRADE_DOUBTFUL
           : loss < KEMET_REVIEW_VERY_BAD ? KEMET_GRADE_BAD
                                          : KEMET_GRADE_VERY_BAD;
}

typedef struct reviewer {
    kemet_agent *agent;
    const kemet_rules *rules;
    kemet_move *moves;
    double *chance;
    kemet_review_entry *out;
    long cap, n;
    kemet_review_sum *sum;
    /* the mover-independent value the last decision left: the chance of
       player `last_player` after it */
    int last_player;
    double last_chance;
} reviewer;

static void add(reviewer *V, const kemet_review_entry *e) {
    V->out[V->n++] = *e;
    V->last_player = e->player;
    V->last_chance = e->played_chance;
    if (!V->sum || e->grade == KEMET_GRADE_FORCED)
        return;
    kemet_review_sum *s = &V->sum[e->player - 1];
    s->decisions++;
    s->best += e->grade == KEMET_GRADE_BEST;
    s->grades[e->grade]++;
    s->loss += e->loss;
}

/* The chance of `player` before the decision about to be made. */
static double before_of(const reviewer *V, int player) {
    return V->last_player == player ? V->last_chance : 1.0 - V->last_chance;
}

/* The decision before the throw in `pos` when pre-throw moves were open:
 * `pre` the move made instead of throwing, or NULL when the player threw. */
static int review_prethrow(reviewer *V, long ply, const kemet_pos *pos, int n,
                           const kemet_move *pre) {
    double throw_chance = 0;
    kemet_agent_rank(V->agent, pos, NULL, V->moves, n, V->chance,
                     &throw_chance);
    kemet_review_entry e = {.ply = ply, .player = pos->to, .choices = n + 1};
    e.best_chance = throw_chance;
    e.best_throws = 1;
    int played = -1;
    for (int i = 0; i < n; i++) {
        if (V->chance[i] > e.best_chance) {
            e.best_chance = V->chance[i];
            e.best = V->moves[i];
            e.best_throws = 0;
        }
        if (pre && kemet_move_equal(pre, &V->moves[i]))
            played = i;
    }
    if (pre && played < 0)
        return KEMET_EILLEGAL;
    e.threw = !pre;
    e.played_chance = pre ? V->chance[played] : throw_chance;
    if (pre)
        e.played = *pre;
    e.loss = e.best_chance - e.played_chance;
    if (e.loss < 0)
        e.loss = 0;
    e.grade = grade_of(e.choices, e.loss);
    e.before = before_of(V, pos->to);
    add(V, &e);
    return KEMET_OK;
}

/* The decision after a throw. */
static int review_move(reviewer *V, long ply, const kemet_pos *pos,
                       const kemet_ply *p) {
    int n = kemet_moves(V->rules, pos, &p->thr, V->moves);
    if (n < 1)
        return n < 0 ? n : KEMET_EILLEGAL;
    int played = -1;
    for (int i = 0; i < n && played < 0; i++)
        if (kemet_move_equal(&p->move, &V->moves[i]))
            played = i;
    if (played < 0) {
        /* another order of the same steps (kemet_apply accepts it) */
        kemet_pos a, b;
        if (kemet_apply(V->rules, pos, &p->thr, &p->move, &a, NULL))
            return KEMET_EILLEGAL;
        for (int i = 0; i < n && played < 0; i++) {
            kemet_make(V->rules, pos, &p->thr, &V->moves[i], &b, NULL);
            if (memcmp(&a, &b, sizeof a) == 0)
                played = i;
        }
        if (played < 0)
            return KEMET_EILLEGAL;
    }
    kemet_agent_rank(V->agent, pos, &p->thr, V->moves, n, V->chance, NULL);
    kemet_review_entry e = {.ply = ply,
                            .player = pos->to,
                            .thr = p->thr,
                            .choices = n,
                            .played = p->move};
    int best = 0;
    for (int i = 1; i < n; i++)
        if (V->chance[i] > V->chance[best])
            best = i;
    e.best = V->moves[best];
    e.best_chance = V->chance[best];
    e.played_chance = V->chance[played];
    e.loss = e.best_chance - e.played_chance;
    if (e.loss < 0)
        e.loss = 0;
    e.grade = grade_of(n, e.loss);
    e.before = before_of(V, pos->to);
    e.luck = e.best_chance - e.before;
    if (V->sum)
        V->sum[pos->to - 1].luck += e.luck;
    add(V, &e);
    return KEMET_OK;
}

long kemet_review(kemet_agent *agent, const kemet_rules *rules,
                  const kemet_pos *start, const kemet_ply *plies, long n,
                  kemet_review_entry *out, long cap, kemet_review_sum sum[2],
                  kemet_error *err) {
    if (!agent || !rules || !start || (!plies && n) || n < 0 || !out ||
        cap < 0 || !kmt_pos_usable(rules, start))
        return kmt_fail(err, KEMET_EMISUSE, "kemet_review: bad arguments");
    reviewer V = {
        .agent = agent, .rules = rules, .out = out, .cap = cap, .sum = sum};
    if (sum)
        memset(sum, 0, 2 * sizeof *sum);
    V.moves = malloc(KEMET_MAX_MOVES * sizeof *V.moves);
    V.chance = malloc(KEMET_MAX_MOVES * sizeof *V.chance);
    if (!V.moves || !V.chance) {
        free(V.moves);
        free(V.chance);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    V.last_player = start->to;
    V.last_chance = kmt_judge_eval(kmt_agent_base(agent), start, start->to);
    kemet_pos pos = *start;
    int rc = KEMET_OK;
    for (long i = 0; i < n && rc == KEMET_OK; i++) {
        const kemet_ply *p = &plies[i];
        if (kmt_agent_check(agent)) {
            rc = kmt_fail(err, KEMET_EOVER, "the review was stopped");
            break;
        }
        if (pos.result != KEMET_PLAYING) {
            rc = kmt_fail(err, KEMET_EILLEGAL, "ply %ld: the game is over",
                          i + 1);
            break;
        }
        if (V.n + 2 > cap) {
            rc = kmt_fail(err, KEMET_ERANGE,
                          "kemet_review: %ld entries are "
                          "not enough",
                          cap);
            break;
        }
        int npre = kemet_prethrow(rules, &pos, V.moves);
        if (npre < 0)
            rc = npre;
        else if (p->thr.n == 0)
            rc = npre > 0 ? review_prethrow(&V, i, &pos, npre, &p->move)
                          : KEMET_EILLEGAL;
        else {
            if (npre > 0)
                rc = review_prethrow(&V, i, &pos, npre, NULL);
            if (rc == KEMET_OK)
                rc = review_move(&V, i, &pos, p);
        }
        if (rc == KEMET_OK)
            rc = kemet_apply(rules, &pos, p->thr.n ? &p->thr : NULL, &p->move,
                             &pos, NULL);
        if (rc) {
            char line[512] = "?", t[64] = "none", m[160] = "?";
            kemet_pos_format(rules, &pos, line, sizeof line);
            if (p->thr.n)
                kemet_throw_format(&p->thr, t, sizeof t);
            kemet_move_format(&p->move, m, sizeof m);
            rc = kmt_fail(err, rc == KEMET_ENOMEM ? rc : KEMET_EILLEGAL,
                          "ply %ld: %s is not a legal move for throw %s in %s",
                          i + 1, m, t, line);
        }
    }
    free(V.moves);
    free(V.chance);
    return rc ? rc : V.n;
}
