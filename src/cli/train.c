/* train.c - `kemet train`: a ruleset's learned evaluation by self-play
 * (kemet_net_train), written as a network file; and the --net option that
 * puts such a file in use for a command.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_net = NULL;

int cli_use_net(kemet_judge *j, const char *opt) {
    if (!opt)
        return 0;
    if (strcmp(opt, "linear") == 0)
        return kemet_judge_use_net(j, NULL) ? EXIT_BAD : 0;
    char *text = cli_read_file(opt, 64u << 20);
    if (!text)
        return EXIT_BAD;
    kemet_net *net;
    kemet_error err;
    int rc = kemet_net_parse(kemet_judge_rules(j), text, &net, &err);
    free(text);
    if (rc)
        return cli_fail("--net %s: %s", opt, err.msg);
    kemet_judge_use_net(j, net);
    cli_keep_net(net);
    return 0;
}

/* Networks loaded with --net live until the program ends. */
static kemet_net *kept[8];
static int nkept;

static void free_kept(void) {
    for (int i = 0; i < nkept; i++)
        kemet_net_free(kept[i]);
    nkept = 0;
}

void cli_keep_net(kemet_net *net) {
    if (nkept == 0)
        atexit(free_kept);
    if (nkept == (int)(sizeof kept / sizeof kept[0])) {
        kemet_net_free(kept[0]); /* no command loads so many */
        memmove(kept, kept + 1, (size_t)(nkept - 1) * sizeof *kept);
        nkept--;
    }
    kept[nkept++] = net;
}

/* Writes `text` to `path` whole or not at all: a temporary file beside
 * it, then a rename. */
static int write_whole(const char *path, const char *text) {
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        return cli_fail("out of memory");
    snprintf(tmp, n, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    bool ok = f && fputs(text, f) >= 0;
    ok = f && fclose(f) == 0 && ok;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        remove(tmp);
        free(tmp);
        return cli_fail("cannot write %s", path);
    }
    free(tmp);
    return 0;
}

/* Under mpirun: each batch's games dealt over the ranks as those of the
 * other commands are (mpi.c), every rank making the same network. */
static int gather_batch(void *ctx, long n, size_t size, void *mine, void *all,
                        int rc) {
    (void)ctx;
    return cli_mpi_deal(n, size, mine, all, rc);
}

/* What the progress lines read: the games asked, and those the cap on
 * plies has ended so far (kemet_train.capped). */
typedef struct train_count {
    long total, capped;
} train_count;

static void show_progress(void *ctx, long games, double rms) {
    const train_count *c = ctx;
    fprintf(stderr, "kemet train: %ld of %ld games, TD error %.4f", games,
            c->total, rms);
    if (c->capped)
        fprintf(stderr, ", %ld ended at the cap", c->capped);
    fputc('\n', stderr);
}

static const char train_usage[] =
    "usage: kemet train RULESET [--games N] [--hidden H] [--alpha A]\n"
    "                   [--lambda L] [--batch B] [--threads T] [--seed S]\n"
    "                   [--live] [--hidden-rate R] [--adam] [--from FILE]\n"
    "                   [--table FILE --examples E [--choices W]] [--endgame]\n"
    "                   [--output FILE] [--quiet] [--rules FILE]\n"
    "Trains the ruleset's learned evaluation, a neural network, by N games\n"
    "of self-play TD(lambda) (docs/agents.md), and writes it as a network\n"
    "file (standard output, or FILE whole or not at all). The build carries\n"
    "data/nets/RULESET.net inside the library. A game still going after\n"
    "4000 plies ends there, a draw (where the rules count a score, as\n"
    "Bell's, the score decides), and is learned from as any end.\n"
    "  --games N    self-play games (default 300000, as data/nets was made)\n"
    "  --hidden H   hidden units (default 32)\n"
    "  --alpha A    learning rate per game at the start (default 0.0003); it\n"
    "               falls linearly to A / 10 at the last game\n"
    "  --lambda L   trace decay (default 0.7)\n"
    "  --live       start a new network with its hidden layer live (its\n"
    "               units different from the start); without it they start\n"
    "               alike and silent, and hardly learn\n"
    "  --hidden-rate R  the hidden layer's input weights learn at R times\n"
    "               alpha (default 1)\n"
    "  --adam       Adam's steps instead of plain ones: each weight moves\n"
    "               by about A at most a batch, scaled by its own gradients\n"
    "               (a rate near 0.001 falling to 0.0001 suits it; R\n"
    "               still multiplies the hidden layer's steps: leave it 1)\n"
    "  --batch B    games played with the same weights (default 16); the\n"
    "               result depends on S, N, H, A, L, B and FILE, not on T\n"
    "  --from FILE  go on training that network instead of a new one\n"
    "  --table FILE --examples E  after each game, E positions drawn from\n"
    "               that exact endgame table (kemet solve), the network's\n"
    "               chance moved toward the exact one\n"
    "  --choices W  with --table: for each example also a throw, and the\n"
    "               chances after its moves moved toward the exact ones\n"
    "               measured from their mean (the differences that decide\n"
    "               the move), at W times the rate (default 0: none)\n"
    "  --endgame    with --from, --table and --examples: train instead the\n"
    "               network's endgame section, which judges the table's class\n"
    "               alone, on E of the table's values per step of N (no\n"
    "               self-play); the whole-game network is kept "
    "unchanged\n" RULES_HELP;

int cmd_train(int argc, char **argv) {
    const char *arg[1], *output = NULL, *from_path = NULL, *table_path = NULL;
    const char *alpha_s = "0.0003", *lambda_s = "0.7", *hrate_s = "1";
    const char *choices_s = "0";
    long games = 300000, hidden = 32, batch = 16, nthreads = 0, examples = 0;
    uint64_t seed = 1;
    bool quiet = false, endgame = false, live = false, adam = false;
    cli_opt opts[] = {{"games", OPT_LONG, &games, 1, 100000000},
                      {"hidden", OPT_LONG, &hidden, 1, 256},
                      {"alpha", OPT_STRING, &alpha_s, 0, 0},
                      {"lambda", OPT_STRING, &lambda_s, 0, 0},
                      {"batch", OPT_LONG, &batch, 1, 4096},
                      {"threads", OPT_LONG, &nthreads, 1, 256},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"from", OPT_STRING, &from_path, 0, 0},
                      {"table", OPT_STRING, &table_path, 0, 0},
                      {"examples", OPT_LONG, &examples, 0, 100000},
                      {"endgame", OPT_FLAG, &endgame, 0, 0},
                      {"live", OPT_FLAG, &live, 0, 0},
                      {"hidden-rate", OPT_STRING, &hrate_s, 0, 0},
                      {"choices", OPT_STRING, &choices_s, 0, 0},
                      {"adam", OPT_FLAG, &adam, 0, 0},
                      {"output", OPT_STRING, &output, 0, 0},
                      {"quiet", OPT_FLAG, &quiet, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int n, rc = cli_parse(argc, argv, opts, arg, 1, 1, &n, train_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    char *end;
    double alpha = strtod(alpha_s, &end);
    if (*end || end == alpha_s || !(alpha > 0 && alpha <= 10))
        return cli_fail("--alpha: '%.40s' is not a number above 0, at most 10",
                        alpha_s);
    double lambda = strtod(lambda_s, &end);
    if (*end || end == lambda_s || !(lambda >= 0 && lambda <= 1))
        return cli_fail("--lambda: '%.40s' is not a number from 0 to 1",
                        lambda_s);
    double hrate = strtod(hrate_s, &end);
    if (*end || end == hrate_s || !(hrate > 0 && hrate <= 1000))
        return cli_fail("--hidden-rate: '%.40s' is not a number above 0, at "
                        "most 1000",
                        hrate_s);
    double choices = strtod(choices_s, &end);
    if (*end || end == choices_s || !(choices >= 0 && choices <= 100))
        return cli_fail("--choices: '%.40s' is not a number from 0 to 100",
                        choices_s);
    if (choices > 0 && !table_path)
        return cli_fail("--choices needs --table and --examples");
    if (endgame && (!from_path || !table_path || !examples))
        return cli_fail("--endgame needs --from, --table and --examples");
    kemet_rules *r = cli_rules(arg[0], NULL);
    if (!r)
        return EXIT_BAD;
    kemet_net *from = NULL;
    kemet_error err;
    if (from_path) {
        char *text = cli_read_file(from_path, 64u << 20);
        if (!text) {
            kemet_rules_close(r);
            return EXIT_BAD;
        }
        rc = kemet_net_parse(r, text, &from, &err);
        free(text);
        if (rc) {
            kemet_rules_close(r);
            return cli_fail("--from %s: %s", from_path, err.msg);
        }
    }
    kemet_table *table = NULL;
    if (table_path && kemet_table_load(r, table_path, &table, &err)) {
        kemet_net_free(from);
        kemet_rules_close(r);
        return cli_fail("--table %s: %s", table_path, err.msg);
    }
    if (!table != !examples) {
        kemet_table_free(table);
        kemet_net_free(from);
        kemet_rules_close(r);
        return cli_fail("--table and --examples go together");
    }
    train_count count = {games, 0};
    kemet_train o = {.games = games,
                     .hidden = (int)hidden,
                     .alpha = alpha,
                     .lambda = lambda,
                     .batch = (int)batch,
                     .threads = cli_threads(nthreads),
                     .seed = seed,
                     .table = table,
                     .examples = (int)examples,
                     .endgame = endgame,
                     .live = live,
                     .hidden_rate = hrate,
                     .choices = choices,
                     .adam = adam,
                     .capped = &count.capped,
                     .parts = cli_mpi_size(),
                     .part = cli_mpi_rank(),
                     .gather = cli_mpi_size() > 1 ? gather_batch : NULL};
    /* rank 0 alone speaks and writes the file */
    if (cli_mpi_rank() != 0)
        quiet = true;
    kemet_net *net;
    double t0 = cli_now();
    rc = kemet_net_train(r, &o, from, quiet ? NULL : show_progress, &count,
                         &net, &err);
    kemet_net_free(from);
    kemet_table_free(table);
    if (rc) {
        kemet_rules_close(r);
        return cli_fail("%s", err.msg);
    }
    /* The file says how it was made; an endgame section's also how the
       whole-game network it keeps was made. */
    char sup[112] = "";
    if (table_path)
        snprintf(sup, sizeof sup, " --examples %ld%s%.40s%s", examples,
                 choices > 0 ? " --choices " : "", choices > 0 ? choices_s : "",
                 endgame ? " --endgame" : "");
    const char *kept_note = endgame ? kemet_net_note(net) : NULL;
    size_t cap = 1024 + strlen(arg[0]) + (from_path ? strlen(from_path) : 0) +
                 (table_path ? strlen(table_path) : 0) +
                 (kept_note ? strlen(kept_note) : 0);
    char *note = malloc(cap);
    if (!note) {
        kemet_net_free(net);
        kemet_rules_close(r);
        return cli_fail("out of memory");
    }
    int len = snprintf(
        note, cap,
        "Learned evaluation for %s (docs/agents.md), made by:\n"
        "  kemet train %s --games %ld --hidden %d --alpha %s --lambda %s "
        "--batch %ld --seed %llu%s%s%s%s%s%s%s%s%s",
        kemet_rules_spec(r), kemet_rules_spec(r), games,
        endgame ? (int)hidden : kemet_net_hidden(net), alpha_s, lambda_s, batch,
        (unsigned long long)seed, live ? " --live" : "", adam ? " --adam" : "",
        hrate != 1 ? " --hidden-rate " : "", hrate != 1 ? hrate_s : "",
        from_path ? " --from " : "", from_path ? from_path : "",
        table_path ? " --table " : "", table_path ? table_path : "", sup);
    if (kept_note && len > 0 && (size_t)len < cap)
        snprintf(note + len, cap - (size_t)len,
                 "\nThe whole-game network, kept from --from:\n%s", kept_note);
    if (!quiet)
        fprintf(stderr,
                "kemet train: %.0f s on %d threads; %ld games ended at "
                "the cap (4000 plies)\n",
                cli_now() - t0, o.threads, count.capped);
    char *text;
    rc = kemet_net_format(net, note, &text);
    free(note);
    if (rc) {
        kemet_net_free(net);
        kemet_rules_close(r);
        return cli_fail("out of memory");
    }
    kemet_net_free(net);
    kemet_rules_close(r);
    if (cli_mpi_rank() != 0)
        rc = 0;
    else if (output)
        rc = write_whole(output, text);
    else
        rc = fputs(text, stdout) < 0 ? cli_fail("cannot write the output") : 0;
    free(text);
    return rc;
}
