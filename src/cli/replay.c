/* replay.c - `kemet replay FILE`: checks a game record line by line and
 * reports the first bad line precisely.
 */
#include "cli.h"

#include <stdlib.h>

static const char replay_usage[] =
    "usage: kemet replay FILE\n"
    "Replays a game record (as written by 'kemet play --record FILE'),\n"
    "checking every line: the ruleset, the start position, whose turn it\n"
    "is, each throw (against the record's seed) and each move. Prints the\n"
    "outcome and the final position; on a corrupt or tampered record prints\n"
    "the first bad line and exits with status 2.\n";

int cmd_replay(int argc, char **argv) {
    const char *arg[1];
    int n, rc = cli_parse(argc, argv, NULL, arg, 1, 1, &n, replay_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    char *text = cli_read_file(arg[0], (size_t)64 << 20);
    if (!text)
        return EXIT_BAD;
    kemet_pos end;
    char final[1024];
    long plies;
    kemet_error err;
    rc = kemet_replay(text, &end, final, sizeof final, &plies, &err);
    free(text);
    if (rc)
        return cli_fail("%s: %s", arg[0], err.msg);
    const char *outcome = "unfinished";
    switch (kemet_result(&end)) {
    case KEMET_WON1: outcome = "player 1 won"; break;
    case KEMET_WON2: outcome = "player 2 won"; break;
    case KEMET_DRAW: outcome = "drawn"; break;
    default: break;
    }
    printf("%s: valid record, %ld plies, %s\nfinal position: %s\n", arg[0],
           plies, outcome, final);
    return 0;
}
