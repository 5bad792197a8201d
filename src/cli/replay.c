/* replay.c - `kemet replay FILE`: checks a game record line by line and
 * reports the first bad line precisely.
 */
#include "cli.h"

#include <stdbool.h>
#include <stdlib.h>

static const char replay_usage[] =
    "usage: kemet replay FILE [--show] [--rules FILE]\n"
    "Replays a game record (as written by 'kemet play --record FILE'),\n"
    "checking every line: the ruleset, the start position, whose turn it\n"
    "is, each throw (against the record's seed) and each move. Prints the\n"
    "outcome and the final position; on a corrupt or tampered record prints\n"
    "the first bad line and exits with status 2. --show then steps through\n"
    "the game on its board: Enter the next ply, b the one before, a number\n"
    "that ply, q to stop.\n" RECORD_RULES_HELP;

/* Shows position k of the game (after k plies) with what ply k did. */
static void show_ply(const kemet_rules *r, const kemet_pos *at,
                     const kemet_ply *plies, long k, long n, int resigned) {
    kemet_pos pos = at[k];
    int mark = 0;
    putchar('\n');
    if (k > 0) {
        const kemet_ply *p = &plies[k - 1];
        kemet_events ev;
        kemet_pos after;
        kemet_apply(r, &at[k - 1], p->thr.n ? &p->thr : NULL, &p->move, &after,
                    &ev);
        char t[64] = "", m[160];
        if (p->thr.n)
            kemet_throw_format(&p->thr, t, sizeof t);
        kemet_move_format(&p->move, m, sizeof m);
        const kemet_info *info = kemet_rules_info(r);
        printf("Ply %ld of %ld: %s %s%s%s%s\n", k, n,
               info->player[at[k - 1].to - 1], p->thr.n ? "threw " : "", t,
               p->thr.n ? ", " : "", p->move.n ? m : "passed");
        cli_describe(r, &ev, stdout);
        if (p->move.n && p->move.step[p->move.n - 1].to != KEMET_OFF)
            mark = kemet_square_cell(r, at[k - 1].to,
                                     p->move.step[p->move.n - 1].to);
    } else
        printf("The start (%ld pl%s follow%s)\n", n, n == 1 ? "y" : "ies",
               n == 1 ? "s" : "");
    if (k == n && resigned) {
        const kemet_info *info = kemet_rules_info(r);
        printf("Then %s resigned: %s won.\n", info->player[resigned - 1],
               info->player[2 - resigned]);
    }
    cli_board(r, &pos, mark, stdout);
}

static int show_game(const char *text, int resigned) {
    kemet_rules *r;
    kemet_pos start;
    kemet_ply *plies;
    long n;
    kemet_error err;
    if (kemet_record_read_text(text, cli_rules_text(), &r, &start, &plies, &n,
                               &err))
        return cli_fail("%s", err.msg);
    kemet_pos *at = malloc((size_t)(n + 1) * sizeof *at);
    if (!at) {
        free(plies);
        kemet_rules_close(r);
        return cli_fail("out of memory");
    }
    at[0] = start;
    for (long i = 0; i < n; i++)
        kemet_apply(r, &at[i], plies[i].thr.n ? &plies[i].thr : NULL,
                    &plies[i].move, &at[i + 1], NULL);
    long k = 0;
    char line[64];
    for (;;) {
        show_ply(r, at, plies, k, n, resigned);
        printf("[Enter] next, b back, NUMBER a ply, q quit> ");
        fflush(stdout);
        int got = cli_read_line(line, sizeof line);
        if (got == CLI_LINE_END)
            break;
        if (got == CLI_LINE_BAD)
            continue;
        if (line[0] == 'q')
            break;
        if (line[0] == 'b')
            k = k > 0 ? k - 1 : 0;
        else if (line[0] >= '0' && line[0] <= '9') {
            long j = strtol(line, NULL, 10);
            k = j < 0 ? 0 : j > n ? n : j;
        } else if (k < n)
            k++;
        else {
            printf("\nThe end of the game.\n");
            break;
        }
    }
    putchar('\n');
    free(at);
    free(plies);
    kemet_rules_close(r);
    return 0;
}

int cmd_replay(int argc, char **argv) {
    const char *arg[1];
    bool show = false;
    cli_opt opts[] = {{"show", OPT_FLAG, &show, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int n, rc = cli_parse(argc, argv, opts, arg, 1, 1, &n, replay_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    char *text = cli_read_file(arg[0], (size_t)64 << 20);
    if (!text)
        return EXIT_BAD;
    kemet_pos end;
    char final[1024];
    long plies;
    kemet_error err;
    rc = kemet_replay_text(text, cli_rules_text(), &end, final, sizeof final,
                           &plies, &err);
    if (rc) {
        free(text);
        return cli_fail("%s: %s", arg[0], err.msg);
    }
    /* after a resignation the final position is the board as it stood,
       with no winner= that would say someone bore off */
    int resigned = cli_record_resigned(text, final, sizeof final);
    if (show) {
        rc = show_game(text, resigned);
        free(text);
        return rc;
    }
    free(text);
    const char *outcome = "unfinished";
    switch (kemet_result(&end)) {
    case KEMET_WON1:
        outcome = resigned ? "player 2 resigned, player 1 won" : "player 1 won";
        break;
    case KEMET_WON2:
        outcome = resigned ? "player 1 resigned, player 2 won" : "player 2 won";
        break;
    case KEMET_DRAW: outcome = "drawn"; break;
    default: break;
    }
    printf("%s: valid record, %ld pl%s, %s\nfinal position: %s\n", arg[0],
           plies, plies == 1 ? "y" : "ies", outcome, final);
    return 0;
}
