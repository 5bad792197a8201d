/* review.c - `kemet review RECORD`: every decision of a recorded game
 * graded by an agent, the luck of every throw, each player's totals, the
 * key moments and the win-chance graph (kemet_review; docs/review.md).
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char review_usage[] =
    "usage: kemet review RECORD [--agent A] [--json] [--svg FILE] [--rules "
    "FILE]\n"
    "Reviews a game record (kemet play --record): for every decision the\n"
    "move played and the agent's best move with the mover's chances of\n"
    "winning after each, the loss and its grade (doubtful from 2 points of\n"
    "win chance, bad from 4, very bad from 8); for every throw its luck\n"
    "(the chance after it minus the chance before); per player the\n"
    "decisions, accuracy (from the chances lost, lichess's formula:\n"
    "docs/review.md), total loss and luck; the key moves; and player 1's\n"
    "chance over the game as a text graph (--svg FILE: as an SVG picture).\n"
    "The agent (default expectimax) is any of 'kemet match --help'. --json\n"
    "prints one JSON object.\n" RECORD_RULES_HELP TABLES_HELP NET_HELP;

/* Player 1's chance after entry e. */
static double p1_chance(const kemet_review_entry *e) {
    return e->player == 1 ? e->played_chance : 1 - e->played_chance;
}

static void what_played(const kemet_review_entry *e, int best, char *buf,
                        size_t len) {
    if (best ? e->best_throws : e->threw)
        snprintf(buf, len, "throw");
    else
        kemet_move_format(best ? &e->best : &e->played, buf, len);
}

/* A compact graph of player 1's chance, `rows` high, at most `cols` wide. */
static void text_graph(const kemet_review_entry *e, long n, int rows,
                       int cols) {
    if (n == 0)
        return;
    int w = n < cols ? (int)n : cols;
    printf("Player 1's chance of winning over the game (%ld decisions):\n", n);
    for (int r = rows; r >= 0; r--) {
        double lo = (r - 0.5) / rows, hi = (r + 0.5) / rows;
        printf("%4.0f%% |", 100.0 * r / rows);
        for (int c = 0; c < w; c++) {
            long i = w > 1 ? (long)((double)c * (double)(n - 1) / (w - 1)) : 0;
            double v = p1_chance(&e[i]);
            putchar(v >= lo && v < hi ? '*' : r * 2 == rows ? '-' : ' ');
        }
        putchar('\n');
    }
}

static int write_svg(FILE *f, const char *path, const kemet_review_entry *e,
                     long n, const kemet_info *info) {
    const double W = 720, H = 240, L = 40, T = 10, PW = 660, PH = 200;
    fprintf(
        f,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
        "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
        "font-size=\"11\">\n<title>%s: %s's chance of winning over the "
        "game</title>\n<rect width=\"%.0f\" height=\"%.0f\" "
        "fill=\"#fbf6ea\"/>\n",
        W, H, W, H, info->title, info->player[0], W, H);
    for (int k = 0; k <= 4; k++) {
        double y = T + PH * (1 - k / 4.0);
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
                "stroke=\"%s\"/><text x=\"4\" y=\"%.1f\">%d%%</text>\n",
                L, y, L + PW, y, k == 2 ? "#8a7a5a" : "#e0d6c0", y + 4, 25 * k);
    }
    fprintf(f, "<polyline fill=\"none\" stroke=\"#2d5d8a\" stroke-width=\"2\" "
               "points=\"");
    for (long i = 0; i < n; i++)
        fprintf(f, "%.1f,%.1f ",
                L + PW * (n > 1 ? (double)i / (double)(n - 1) : 0),
                T + PH * (1 - p1_chance(&e[i])));
    fprintf(f, "\"/>\n");
    for (long i = 0; i < n; i++)
        if (e[i].grade >= KEMET_GRADE_BAD)
            fprintf(
                f,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>"
                "ply %ld, %s: %s</title></circle>\n",
                L + PW * (n > 1 ? (double)i / (double)(n - 1) : 0),
                T + PH * (1 - p1_chance(&e[i])),
                e[i].grade == KEMET_GRADE_VERY_BAD ? "#b03020" : "#e08a20",
                e[i].ply + 1, info->player[e[i].player - 1],
                kemet_grade_name(e[i].grade));
    fprintf(f,
            "<text x=\"%.0f\" y=\"%.0f\">decisions 1 to %ld (red: very bad, "
            "orange: bad)</text>\n</svg>\n",
            L, H - 8, n);
    if (fclose(f) != 0)
        return cli_fail("review: cannot write %s", path);
    return 0;
}

static int by_loss(const void *a, const void *b) {
    const kemet_review_entry *x = *(const kemet_review_entry *const *)a,
                             *y = *(const kemet_review_entry *const *)b;
    return (x->loss < y->loss) - (x->loss > y->loss);
}

static int by_luck(const void *a, const void *b) {
    const kemet_review_entry *x = *(const kemet_review_entry *const *)a,
                             *y = *(const kemet_review_entry *const *)b;
    double u = fabs(x->luck), v = fabs(y->luck);
    return (u < v) - (u > v);
}

static void print_json(const char *ruleset, const char *agent,
                       const kemet_info *info, const kemet_review_entry *e,
                       long n, const kemet_review_sum *sum, long plies,
                       int resigned) {
    printf("{\"ruleset\":\"%s\",\"agent\":\"%s\",\"plies\":%ld,"
           "\"resigned\":%d,"
           "\"thresholds\":{\"doubtful\":%g,\"bad\":%g,\"very_bad\":%g},"
           "\"decisions\":[",
           ruleset, agent, plies, resigned, KEMET_REVIEW_DOUBTFUL,
           KEMET_REVIEW_BAD, KEMET_REVIEW_VERY_BAD);
    for (long i = 0; i < n; i++) {
        char t[64] = "", pl[160], b[160];
        if (e[i].thr.n)
            kemet_throw_format(&e[i].thr, t, sizeof t);
        what_played(&e[i], 0, pl, sizeof pl);
        what_played(&e[i], 1, b, sizeof b);
        printf("%s{\"ply\":%ld,\"player\":%d,\"throw\":%s%s%s,\"choices\":%d,"
               "\"played\":\"%s\",\"best\":\"%s\",\"played_chance\":%.6f,"
               "\"best_chance\":%.6f,\"loss\":%.6f,\"grade\":\"%s\"",
               i ? "," : "", e[i].ply + 1, e[i].player, e[i].thr.n ? "\"" : "",
               e[i].thr.n ? t : "null", e[i].thr.n ? "\"" : "", e[i].choices,
               pl, b, e[i].played_chance, e[i].best_chance, e[i].loss,
               kemet_grade_name(e[i].grade));
        if (e[i].thr.n)
            printf(",\"before\":%.6f,\"luck\":%.6f", e[i].before, e[i].luck);
        printf("}");
    }
    printf("],\"players\":[");
    for (int p = 0; p < 2; p++) {
        const kemet_review_sum *s = &sum[p];
        printf("%s{\"player\":%d,\"name\":\"%s\",\"decisions\":%d,\"best\":%d,"
               "\"accuracy\":%.4f,\"loss\":%.6f,\"loss_per_decision\":%.6f,"
               "\"luck\":%.6f,\"grades\":{",
               p ? "," : "", p + 1, info->player[p], s->decisions, s->best,
               kemet_review_accuracy(e, n, p + 1) / 100, s->loss,
               s->decisions ? s->loss / s->decisions : 0.0, s->luck);
        for (int g = KEMET_GRADE_BEST; g < KEMET_GRADES; g++)
            printf("%s\"%s\":%d", g > KEMET_GRADE_BEST ? "," : "",
                   kemet_grade_name(g), s->grades[g]);
        printf("}}");
    }
    printf("]}\n");
}

static void print_text(const char *path, const char *agent,
                       const kemet_info *info, const kemet_review_entry *e,
                       long n, const kemet_review_sum *sum, long plies,
                       int resigned) {
    cli_say(stdout, 0, 2, "Review of %s: %s, %ld pl%s, by %s", path,
            info->title, plies, plies == 1 ? "y" : "ies", agent);
    if (resigned)
        cli_say(stdout, 0, 2, "%s (player %d) resigned after ply %ld: %s won.",
                info->player[resigned - 1], resigned, plies,
                info->player[2 - resigned]);
    /* 79 columns; a throw or move too long for its column is written
       whole on a line of its own below the row, never cut */
    printf("%4s %1s %-7s %-13s %6s %-13s %6s %5s %-8s %6s\n", "ply", "",
           "throw", "played", "chance", "best", "chance", "loss", "grade",
           "luck");
    for (long i = 0; i < n; i++) {
        char t[64] = "-", pl[160], b[160], luck[16] = "", below[512] = "";
        if (e[i].thr.n) {
            kemet_throw_format(&e[i].thr, t, sizeof t);
            snprintf(luck, sizeof luck, "%+6.1f", 100 * e[i].luck);
        }
        what_played(&e[i], 0, pl, sizeof pl);
        what_played(&e[i], 1, b, sizeof b);
        bool same = e[i].loss < KEMET_REVIEW_BEST;
        bool long_t = strlen(t) > 7, long_pl = strlen(pl) > 13,
             long_b = !same && strlen(b) > 13;
        if (long_t || long_pl || long_b)
            snprintf(below, sizeof below, "%s%s%s%s%s%s%s%s%s",
                     long_t ? "throw " : "", long_t ? t : "",
                     long_t && (long_pl || long_b) ? ", " : "",
                     long_pl ? "played " : "", long_pl ? pl : "",
                     long_pl && long_b ? ", " : "", long_b ? "best " : "",
                     long_b ? b : "", "");
        /* a loss too small for one decimal is not written 0.0 beside a
           grade that is not the best */
        char loss[16];
        snprintf(loss, sizeof loss,
                 e[i].grade > KEMET_GRADE_BEST && 100 * e[i].loss < 0.05
                     ? "%5.2f"
                     : "%5.1f",
                 100 * e[i].loss);
        if (e[i].grade > KEMET_GRADE_BEST && 100 * e[i].loss < 0.005)
            snprintf(loss, sizeof loss, "<0.01");
        printf(
            "%4ld %c %-7s %-13s %5.1f%% %-13s %5.1f%% %5s %-8s %6s\n",
            e[i].ply + 1, info->glyph[e[i].player - 1], long_t ? "(below)" : t,
            long_pl ? "(below)" : pl, 100 * e[i].played_chance,
            same     ? "(same)"
            : long_b ? "(below)"
                     : b,
            100 * e[i].best_chance, loss, kemet_grade_name(e[i].grade), luck);
        if (*below)
            cli_wrap_hang(stdout, below, cli_text_width(stdout), 7, 9);
    }
    cli_say(stdout, 0, 1,
            "(%c: %s, %c: %s; the chances are the mover's, loss and luck "
            "in points of win chance)",
            info->glyph[0], info->player[0], info->glyph[1], info->player[1]);
    printf("\n%-34s %14s %14s\n", "", info->player[0], info->player[1]);
    int d0 = sum[0].decisions, d1 = sum[1].decisions;
    printf("%-34s %14d %14d\n", "real choices (2 or more options)", d0, d1);
    printf("%-34s %13.1f%% %13.1f%%\n", "accuracy (from the chances lost)",
           kemet_review_accuracy(e, n, 1), kemet_review_accuracy(e, n, 2));
    printf("%-34s %14.1f %14.1f\n", "loss, points of win chance",
           100 * sum[0].loss, 100 * sum[1].loss);
    printf("%-34s %14.2f %14.2f\n", "loss per choice, points",
           d0 ? 100 * sum[0].loss / d0 : 0.0,
           d1 ? 100 * sum[1].loss / d1 : 0.0);
    printf("%-34s %+14.1f %+14.1f\n", "luck of the throws, points",
           100 * sum[0].luck, 100 * sum[1].luck);
    for (int g = KEMET_GRADE_DOUBTFUL; g < KEMET_GRADES; g++) {
        char label[40];
        snprintf(label, sizeof label, "%s moves", kemet_grade_name(g));
        printf("%-34s %14d %14d\n", label, sum[0].grades[g], sum[1].grades[g]);
    }
    const kemet_review_entry **k = malloc((size_t)(n ? n : 1) * sizeof *k);
    if (k && n) {
        for (long i = 0; i < n; i++)
            k[i] = &e[i];
        qsort(k, (size_t)n, sizeof *k, by_loss);
        printf("\nKey moves (the largest losses):\n");
        for (long i = 0; i < n && i < 3 && k[i]->loss >= KEMET_REVIEW_BEST;
             i++) {
            char pl[160], b[160];
            what_played(k[i], 0, pl, sizeof pl);
            what_played(k[i], 1, b, sizeof b);
            cli_say(stdout, 2, 4,
                    "ply %ld, %s: %s instead of %s, %.1f points "
                    "lost (%s)",
                    k[i]->ply + 1, info->player[k[i]->player - 1], pl, b,
                    100 * k[i]->loss, kemet_grade_name(k[i]->grade));
        }
        qsort(k, (size_t)n, sizeof *k, by_luck);
        printf("The luckiest and unluckiest throws:\n");
        for (long i = 0; i < n && i < 3 && k[i]->thr.n; i++) {
            char t[64];
            kemet_throw_format(&k[i]->thr, t, sizeof t);
            cli_say(stdout, 2, 4,
                    "ply %ld, %s threw %s: %+.1f points (%.1f%% -> %.1f%%)",
                    k[i]->ply + 1, info->player[k[i]->player - 1], t,
                    100 * k[i]->luck, 100 * k[i]->before,
                    100 * k[i]->best_chance);
        }
    }
    free(k);
    putchar('\n');
    text_graph(e, n, 8, 72);
}

int cmd_review(int argc, char **argv) {
    const char *arg[1], *agent = "expectimax", *svg = NULL;
    bool json = false;
    cli_opt opts[] = {{"agent", OPT_STRING, &agent, 0, 0},
                      {"json", OPT_FLAG, &json, 0, 0},
                      {"svg", OPT_STRING, &svg, 0, 0},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int npos, rc = cli_parse(argc, argv, opts, arg, 1, 1, &npos, review_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    char *text = cli_read_file(arg[0], (size_t)64 << 20);
    if (!text)
        return EXIT_BAD;
    kemet_rules *r;
    kemet_pos start;
    kemet_ply *plies;
    long n;
    kemet_error err;
    rc = kemet_record_read_text(text, cli_rules_text(), &r, &start, &plies, &n,
                                &err);
    if (rc) {
        free(text);
        return cli_fail("%s: %s", arg[0], err.msg);
    }
    int resigned = cli_record_resigned(text, NULL, 0);
    free(text);
    kemet_judge *j = NULL;
    if (kemet_judge_new(r, NULL, &j, &err) == KEMET_OK)
        cli_use_tables(j, cli_tables);
    kemet_agent *a = NULL;
    kemet_review_entry *e = NULL;
    /* the picture's file is opened first: nothing is printed when it
       cannot be written */
    FILE *pic = svg ? fopen(svg, "w") : NULL;
    if (svg && !pic)
        rc = cli_fail("review: cannot write %s", svg);
    else if (!j)
        rc = cli_fail("%s", err.msg);
    else if (cli_use_net(j, cli_net))
        rc = EXIT_BAD;
    else if (kemet_agent_new_judged(j, agent, 1, &a, &err))
        rc = cli_fail("--agent: %s", err.msg);
    else if (!(e = malloc((size_t)(2 * n + 2) * sizeof *e)))
        rc = cli_fail("out of memory");
    kemet_review_sum sum[2];
    long ne = 0;
    if (!rc) {
        cli_busy_start("reviewing %ld pl%s with %s", n, n == 1 ? "y" : "ies",
                       kemet_agent_spec(a));
        ne = kemet_review(a, r, &start, plies, n, e, 2 * n + 2, sum, &err);
        cli_busy_end();
        if (ne < 0)
            rc = cli_fail("%s: %s", arg[0], err.msg);
    }
    if (!rc) {
        const kemet_info *info = kemet_rules_info(r);
        if (json)
            print_json(kemet_rules_spec(r), agent, info, e, ne, sum, n,
                       resigned);
        else
            print_text(arg[0], agent, info, e, ne, sum, n, resigned);
        if (pic)
            rc = write_svg(pic, svg, e, ne, info);
        pic = NULL;
    }
    if (pic) {
        fclose(pic);
        remove(svg);
    }
    free(e);
    free(plies);
    kemet_agent_free(a);
    kemet_judge_free(j);
    kemet_rules_close(r);
    return rc;
}
