/* perft.c - `kemet perft`: the size of the game tree, counted through the
 * public API, so that a change to the rules engine shows as a changed
 * number (tests/golden/perft.txt holds the counts of today's rules).
 *
 * A ply is one decision of the player to move: a move made instead of
 * throwing (kemet_prethrow), or a throw outcome (each distinct outcome of
 * kemet_throws once, whatever its probability) together with one of its
 * legal moves (a lone pass included). perft(P, d) counts the positions d
 * plies after P; a finished game is a leaf at every greater depth. One
 * walk of the tree gives the counts of every depth up to the one asked.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char perft_usage[] =
    "usage: kemet perft RULESET DEPTH ['POSITION'] [--board FILE] [--divide]\n"
    "                   [--rules FILE]\n"
    "Counts the positions DEPTH plies ahead of POSITION (default: the\n"
    "start of RULESET), for every depth from 1 to DEPTH. A ply is a move\n"
    "made instead of throwing, or one distinct throw outcome together with\n"
    "one of its legal moves (a pass included); a finished game counts as\n"
    "one position at every depth beyond it. --divide also prints the count\n"
    "below each first ply (its throw and move), to find where two versions\n"
    "of the rules differ.\n" RULES_HELP;

typedef struct level {
    kemet_throw thr[KEMET_MAX_THROWS];
    kemet_weight weight[KEMET_MAX_THROWS];
    kemet_move moves[KEMET_MAX_MOVES];
} level;

typedef struct walk {
    const kemet_rules *r;
    int depth;
    level *lv;              /* one per ply */
    unsigned long long *at; /* at[k]: positions k plies ahead */
    bool divide;            /* print the count below each first ply */
    int failed;             /* a KEMET_E* code from the engine */
} walk;

static void visit(walk *W, const kemet_pos *pos, int k);

static void child(walk *W, const kemet_pos *pos, const kemet_throw *thr,
                  const kemet_move *m, int k) {
    kemet_pos next;
    kemet_make(W->r, pos, thr, m, &next, NULL);
    unsigned long long before = W->at[W->depth];
    visit(W, &next, k + 1);
    if (W->divide && k == 0 && !W->failed) {
        char tb[256] = "none", mb[256];
        if (thr)
            kemet_throw_format(thr, tb, sizeof tb);
        kemet_move_format(m, mb, sizeof mb);
        printf("%s %s: %llu\n", tb, mb, W->at[W->depth] - before);
    }
}

static void visit(walk *W, const kemet_pos *pos, int k) {
    W->at[k]++;
    if (k == W->depth || W->failed)
        return;
    if (kemet_result(pos) != KEMET_PLAYING) {
        for (int j = k + 1; j <= W->depth; j++)
            W->at[j]++;
        return;
    }
    level *L = &W->lv[k];
    int n = kemet_prethrow(W->r, pos, L->moves);
    if (n < 0) {
        W->failed = n;
        return;
    }
    for (int i = 0; i < n; i++)
        child(W, pos, NULL, &L->moves[i], k);
    kemet_weight total;
    int nt = kemet_throws(W->r, pos, L->thr, L->weight, &total);
    for (int t = 0; t < nt && !W->failed; t++) {
        n = kemet_moves(W->r, pos, &L->thr[t], L->moves);
        if (n < 1) {
            W->failed = n < 0 ? n : KEMET_ERANGE;
            return;
        }
        for (int i = 0; i < n; i++)
            child(W, pos, &L->thr[t], &L->moves[i], k);
    }
}

/* Counts into at[0..depth]; with `divide`, prints the count below each
 * first ply as it goes. 0, or a KEMET_E* code. */
static int perft(const kemet_rules *r, const kemet_pos *pos, int depth,
                 bool divide, unsigned long long *at) {
    walk W = {r, depth, calloc((size_t)depth, sizeof(level)), at, divide, 0};
    if (!W.lv)
        return KEMET_ENOMEM;
    memset(at, 0, (size_t)(depth + 1) * sizeof *at);
    visit(&W, pos, 0);
    free(W.lv);
    return W.failed;
}

int cmd_perft(int argc, char **argv) {
    const char *arg[3], *board = NULL;
    bool split = false;
    cli_opt opts[] = {{"board", OPT_STRING, &board, 0, 0},
                      {"divide", OPT_FLAG, &split, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int npos, rc = cli_parse(argc, argv, opts, arg, 2, 3, &npos, perft_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    char *end;
    long depth = strtol(arg[1], &end, 10);
    if (end == arg[1] || *end || depth < 1 || depth > 12)
        return cli_fail("perft: DEPTH must be a whole number from 1 to 12, "
                        "not '%.20s'",
                        arg[1]);
    kemet_rules *r = cli_rules(arg[0], board);
    if (!r)
        return EXIT_BAD;
    kemet_pos pos;
    kemet_start(r, &pos);
    if (npos == 3) {
        char *btext;
        if (cli_board_text(board, &btext)) {
            kemet_rules_close(r);
            return EXIT_BAD;
        }
        kemet_rules *pr;
        kemet_error err;
        rc = cli_pos_parse(arg[2], btext, &pr, &pos, &err);
        free(btext);
        if (rc) {
            kemet_rules_close(r);
            return cli_fail("%s", err.msg);
        }
        bool same = strcmp(kemet_rules_spec(pr), kemet_rules_spec(r)) == 0;
        kemet_rules_close(pr);
        if (!same) {
            rc = cli_fail("perft: the position is not of ruleset %s",
                          kemet_rules_spec(r));
            kemet_rules_close(r);
            return rc;
        }
    }
    unsigned long long at[13];
    rc = perft(r, &pos, (int)depth, split, at);
    if (!split && !rc)
        for (int d = 1; d <= depth; d++)
            printf("perft %s %d: %llu\n", kemet_rules_spec(r), d, at[d]);
    kemet_rules_close(r);
    if (rc)
        return cli_fail("perft: %s", kemet_strerror(rc));
    return 0;
}
