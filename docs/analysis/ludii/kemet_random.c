/* kemet_random.c - kemet's uniform random games summed up in the same
 * figures as LudiiRandom.java sums up Ludii's, by kemet's own analysis
 * (kemet_analyze_traces): `kemet sim` gives the outcomes and the mean
 * length, this adds the intervals, the branching factor and the choices.
 *
 * Built against the kemet library, outside kemet's build (README.md here):
 *   cc -std=c17 -O2 -Wall -Wextra -Wpedantic -Werror -Iinclude \
 *      -Ibuild/release/include docs/analysis/ludii/kemet_random.c \
 *      -Lbuild/release -Wl,-rpath,build/release -lkemet -lm -o kemet_random
 *   kemet_random RULESET GAMES SEED [CAP] [--prethrow] [--header]
 *
 * Each game is played to its end with kemet_game_step_with, every choice
 * drawn uniformly (before a throw, throwing and each pre-throw move alike,
 * as the random agent draws), and stopped before a turn would begin once
 * CAP turns (default 1000) are played (ruling G5). The branching factor
 * counts the legal moves at each throw (a pass: 1); the choices, the legal
 * moves at the throws that offer more than one. A choice before the throw
 * (Kendall's 27-15, rule 11) is no throw and is not counted; with
 * --prethrow it is counted as the edited Ludii copy of Kendall has it
 * (undone/kendall.edits): one state whose moves are the pre-throw moves
 * and the throw, the throw's own single move (27-off or pass) uncounted.
 */
#include <kemet.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct counts {
    kemet_rng pick;
    kemet_trace t;
    bool prethrow; /* --prethrow */
    bool thrown;   /* the throw just chosen before it was counted there */
} counts;

static int choose(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                  const kemet_move *moves, int n) {
    counts *c = ctx;
    (void)pos;
    if (!thr) { /* before the throw: throw (-1) or one of the n moves */
        if (n <= 0)
            return -1;
        int k = (int)kemet_rng_below(&c->pick, (uint32_t)n + 1) - 1;
        if (c->prethrow) {
            c->t.branching += n + 1;
            c->t.decisions++;
            c->t.choices += n + 1;
            c->thrown = k < 0;
        }
        return k;
    }
    if (c->thrown) { /* the throw's one move, counted before it */
        c->thrown = false;
        return 0;
    }
    c->t.branching += n;
    if (n == 1 && moves[0].n == 0)
        c->t.passes++;
    else if (n == 1)
        c->t.forced++;
    else {
        c->t.decisions++;
        c->t.choices += n;
    }
    return n > 1 ? (int)kemet_rng_below(&c->pick, (uint32_t)n) : 0;
}

static uint64_t mix(uint64_t a, uint64_t b) { /* SplitMix64's finaliser */
    uint64_t z = a * 0x9e3779b97f4a7c15ULL + b + 0x632be59bd9b4e019ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void stat(const kemet_stat *s) {
    printf(",%.4f,%.4f,%.4f", s->value, s->lo, s->hi);
}

/* Plays game g of the run into *t. Returns a kemet error code. */
static int play(const kemet_rules *r, uint64_t seed, long g, long cap,
                bool prethrow, kemet_move *scratch, kemet_trace *t) {
    uint64_t s = mix(seed, (uint64_t)g);
    counts c;
    memset(&c, 0, sizeof c);
    c.prethrow = prethrow;
    kemet_rng_seed(&c.pick, mix(s, 0x6b656d6574ULL));
    kemet_game *game = NULL;
    int rc = kemet_game_new(r, s, &game, NULL), mover = 0;
    while (rc == KEMET_OK && kemet_game_next(game) != KEMET_NEXT_OVER) {
        const kemet_pos *pos = kemet_game_pos(game);
        if (kemet_game_turns(game) >= cap && pos->to != mover) {
            rc = kemet_game_stop(game); /* ruling G5 */
            break;
        }
        mover = pos->to;
        rc = kemet_game_step_with(game, choose, &c, scratch, NULL);
    }
    if (rc == KEMET_OK) {
        c.t.result =
            kemet_game_stopped(game) ? KEMET_PLAYING : kemet_game_result(game);
        c.t.turns = kemet_game_turns(game);
        c.t.moves = kemet_game_plies(game);
        *t = c.t;
    }
    kemet_game_free(game);
    return rc;
}

int main(int argc, char **argv) {
    bool header = false, prethrow = false;
    const char *arg[4] = {NULL, NULL, NULL, "1000"};
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--header") == 0)
            header = true;
        else if (strcmp(argv[i], "--prethrow") == 0)
            prethrow = true;
        else if (n < 4)
            arg[n++] = argv[i];
        else
            n = 5;
    }
    long games = n >= 3 ? atol(arg[1]) : 0, cap = atol(arg[3]);
    if (n < 3 || n > 4 || games < 2 || cap < 1) {
        fprintf(stderr, "usage: kemet_random RULESET GAMES SEED [CAP] "
                        "[--prethrow] [--header] (GAMES >= 2, CAP >= 1)\n");
        return 2;
    }
    uint64_t seed = strtoull(arg[2], NULL, 10);
    kemet_rules *r = NULL;
    kemet_error err;
    if (kemet_rules_open(arg[0], &r, &err) != KEMET_OK) {
        fprintf(stderr, "kemet_random: %s\n", err.msg);
        return 2;
    }
    kemet_trace *tr = calloc((size_t)games, sizeof *tr);
    kemet_move *scratch = malloc(KEMET_MAX_MOVES * sizeof *scratch);
    int rc = tr && scratch ? KEMET_OK : KEMET_ENOMEM;
    for (long g = 0; g < games && rc == KEMET_OK; g++)
        rc = play(r, seed, g, cap, prethrow, scratch, &tr[g]);
    kemet_analysis a;
    if (rc == KEMET_OK)
        rc = kemet_analyze_traces(tr, games, &a);
    if (rc == KEMET_OK) {
        if (header)
            printf(
                "spec,games,seed,cap,turns_mean,turns_lo,turns_hi,turns_median,"
                "p1_wins,p2_wins,draws,stopped,p1_share,p1_lo,p1_hi,completion,"
                "completion_lo,completion_hi,drawishness,drawishness_lo,"
                "drawishness_hi,balance,balance_lo,balance_hi,branching,"
                "branching_lo,branching_hi,choices,choices_lo,choices_hi\n");
        printf("\"%s\",%ld,%llu,%ld", kemet_rules_spec(r), games,
               (unsigned long long)seed, cap);
        stat(&a.duration_turns);
        printf(",%.4f,%ld,%ld,%ld,%ld", a.median_turns, a.wins[0], a.wins[1],
               a.draws, a.stopped);
        stat(&a.advantage_p1);
        stat(&a.completion);
        stat(&a.drawishness);
        stat(&a.balance);
        stat(&a.branching_factor);
        stat(&a.choices);
        printf("\n");
    } else
        fprintf(stderr, "kemet_random: %s\n", kemet_strerror(rc));
    free(scratch);
    free(tr);
    kemet_rules_close(r);
    return rc == KEMET_OK ? 0 : 1;
}
