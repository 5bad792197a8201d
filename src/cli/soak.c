/* soak.c - `kemet soak`: a long run of games checking the rules engine's
 * invariants at every ply, through the public API only.
 *
 * Games of every ruleset (and of option variants), each seat played at
 * random or greedily, each game seeded from (seed, index) as `kemet sim`
 * does. At every ply: the position is valid and its line parses back to
 * it; the legal moves of the throw (all of them, or 8 spread over a longer
 * list) are accepted by kemet_apply, equal to kemet_make, explained as
 * legal; the move chosen gives the same position
 * and events through kemet_apply, kemet_make and the game driver; no
 * piece appears from nowhere or comes back once gone; no hole holds two
 * pieces (except the one square that holds a heap); a finished game was
 * ended by a win or draw event of its last move, for the player the
 * result names, and has no moves left.
 */
#include "cli.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static const char soak_usage[] =
    "usage: kemet soak [RULESET...] [--plies N] [--seed S] [--threads T]\n"
    "                  [--rules FILE]\n"
    "Plays games of every ruleset (default; and variants of Lions & "
    "Jackals'\n"
    "sticks), each seat at random or greedy, until N plies in all (default\n"
    "1000000) have been played, checking the engine's invariants at every\n"
    "ply: round trips through the notation, kemet_apply = kemet_make = the\n"
    "game driver, legal moves accepted and explained as legal, pieces\n"
    "conserved, one piece per hole, and each game's end. Prints the plies\n"
    "and games per ruleset; a broken invariant is printed with its position\n"
    "and the run ends with exit status 1.\n" RULES_HELP;

/* Besides the rulesets themselves: other sticks for Lions & Jackals. */
static const char *const variants[] = {"lions-jackals:solid=2,dual=0",
                                       "lions-jackals:solid=3,dual=2",
                                       "lions-jackals-quick:solid=2,dual=2"};

#define MAX_SOAK 128
#define SOAK_CAP 1000 /* turns before a game is stopped (ruling G5) */

typedef struct soak_rules {
    kemet_rules *r;
    const char *board; /* its board file's text, or NULL */
    long long plies, games, ended, stopped;
} soak_rules;

typedef struct soak {
    soak_rules set[MAX_SOAK];
    int n;
    uint64_t seed;
    long long quota; /* plies per thread */
    int threads;
    pthread_mutex_t mu;
    atomic_bool broken;
} soak;

typedef struct worker {
    soak *S;
    int id;
    kemet_move *moves, *all;
    soak_rules local[MAX_SOAK];
} worker;

/* Reports a broken invariant (once for the whole run). */
static void broken(worker *W, const soak_rules *sr, long long game, long ply,
                   const char *what, const kemet_pos *pos,
                   const kemet_throw *thr, const kemet_move *m) {
    char line[512] = "?", t[64] = "none", mv[160] = "-";
    kemet_pos_format(sr->r, pos, line, sizeof line);
    if (thr && thr->n)
        kemet_throw_format(thr, t, sizeof t);
    if (m)
        kemet_move_format(m, mv, sizeof mv);
    pthread_mutex_lock(&W->S->mu);
    if (!atomic_load(&W->S->broken))
        fprintf(stderr,
                "kemet: soak: %s game %lld ply %ld: %s\n  position %s\n  "
                "throw %s, move %s\n",
                kemet_rules_spec(sr->r), game, ply, what, line, t, mv);
    atomic_store(&W->S->broken, true);
    pthread_mutex_unlock(&W->S->mu);
}

/* The position's checks: valid, its line read back to it, no hole with
 * two pieces. NULL when all hold, else what broke. */
static const char *check_position(const soak_rules *sr, const kemet_pos *pos) {
    kemet_error err;
    if (kemet_pos_check(sr->r, pos, &err))
        return "an invalid position";
    char line[512], again[512];
    if (kemet_pos_format(sr->r, pos, line, sizeof line) < 0)
        return "the position cannot be written";
    kemet_rules *r2;
    kemet_pos back;
    if (cli_pos_parse(line, sr->board, &r2, &back, &err))
        return "the position's line does not parse";
    bool same = memcmp(&back, pos, sizeof back) == 0 &&
                kemet_pos_format(r2, &back, again, sizeof again) > 0 &&
                strcmp(line, again) == 0;
    kemet_rules_close(r2);
    if (!same)
        return "the position's line reads back as another position";
    const kemet_info *info = kemet_rules_info(sr->r);
    unsigned char count[256] = {0};
    for (int p = 1; p <= 2; p++)
        for (int s = 1; s <= info->squares; s++) {
            if (!(pos->sq[p - 1] >> s & 1))
                continue;
            int cell = kemet_square_cell(sr->r, p, s);
            if (cell < 0 || cell > 255)
                return "a piece on a square that is no hole";
            if (++count[cell] > 1)
                return "two pieces on one hole";
        }
    for (int p = 0; p < 2; p++) {
        int in_play = kemet_on_board(pos, p + 1) + pos->hand[p];
        if (in_play > info->pieces)
            return "more pieces than the ruleset has";
    }
    return NULL;
}

/* Whether the events hold a win for `who` (or a draw, who == 0). */
static bool ended_by(const kemet_events *ev, int who) {
    for (int i = 0; i < ev->n; i++)
        if ((who && ev->ev[i].kind == KEMET_EV_WIN && ev->ev[i].who == who) ||
            (!who && ev->ev[i].kind == KEMET_EV_DRAW))
            return true;
    return false;
}

/* One ply's checks around move m (chosen among the n legal ones); the
 * driver is then moved on. NULL when all hold. */
static const char *check_ply(worker *W, soak_rules *sr, kemet_game *game,
                             const kemet_pos *pos, const kemet_throw *thr,
                             const kemet_move *all, int n,
                             const kemet_move *m) {
    const kemet_rules *r = sr->r;
    char why[256];
    /* every move when there are few; else 8 spread over the list (each
       check of a track ruleset lists the moves again) */
    for (int i = 0; i < n; i += n <= 8 ? 1 : n / 8) {
        kemet_pos a, b;
        if (kemet_apply(r, pos, thr, &all[i], &a, NULL))
            return "kemet_apply refuses a move kemet_moves lists";
        kemet_make(r, pos, thr, &all[i], &b, NULL);
        if (memcmp(&a, &b, sizeof a))
            return "kemet_apply and kemet_make disagree";
        if (kemet_explain(r, pos, thr, &all[i], why, sizeof why))
            return "kemet_explain finds a listed move illegal";
    }
    kemet_pos a, b;
    kemet_events ea, eb, ed;
    if (kemet_apply(r, pos, thr, m, &a, &ea))
        return "kemet_apply refuses the move chosen";
    kemet_make(r, pos, thr, m, &b, &eb);
    if (kemet_game_play(game, m, &ed))
        return "the game driver refuses the move chosen";
    const kemet_pos *d = kemet_game_pos(game);
    if (memcmp(&a, &b, sizeof a) || memcmp(&a, d, sizeof a))
        return "kemet_apply, kemet_make and the game driver disagree";
    if (ea.n != eb.n || ea.n != ed.n ||
        memcmp(ea.ev, eb.ev, (size_t)ea.n * sizeof ea.ev[0]) ||
        memcmp(ea.ev, ed.ev, (size_t)ea.n * sizeof ea.ev[0]))
        return "the events of kemet_apply, kemet_make and the driver differ";
    const char *bad = check_position(sr, &a);
    if (bad)
        return bad;
    const kemet_info *info = kemet_rules_info(r);
    for (int p = 0; p < 2; p++) {
        int gone_before =
                info->pieces - kemet_on_board(pos, p + 1) - pos->hand[p],
            gone_after = info->pieces - kemet_on_board(&a, p + 1) - a.hand[p];
        if (gone_after < gone_before)
            return "a piece came back after leaving the game";
    }
    if (a.result != KEMET_PLAYING) {
        int who = a.result == KEMET_DRAW ? 0 : a.result;
        if (!ended_by(&ea, who))
            return "the game ended without a win or draw by the rules";
        if (kemet_moves(r, &a, thr, W->all) != KEMET_EOVER ||
            kemet_prethrow(r, &a, W->all) != KEMET_EOVER)
            return "a finished game has moves";
    } else if (ended_by(&ea, 1) || ended_by(&ea, 2) || ended_by(&ea, 0))
        return "a win or draw was announced and the game goes on";
    return NULL;
}

/* Plays game `index` of ruleset k; false when an invariant broke. */
static bool play_game(worker *W, int k, long long index) {
    soak_rules *sr = &W->local[k];
    const kemet_rules *r = sr->r;
    uint64_t seed = kemet_run_seed(W->S->seed, (uint64_t)index);
    kemet_game *game;
    kemet_agent *agent[2] = {NULL, NULL};
    kemet_error err;
    if (kemet_game_new(r, seed, &game, NULL))
        return false;
    /* seats: random or greedy, by the game's index */
    for (int p = 0; p < 2; p++)
        if ((index >> p) & 1)
            kemet_agent_new(r, "greedy", seed + (uint64_t)p, &agent[p], &err);
    kemet_rng pick;
    kemet_rng_seed(&pick, seed ^ 0x5eedULL);
    bool ok = true;
    const char *bad = check_position(sr, kemet_game_pos(game));
    if (bad) {
        broken(W, sr, index, 0, bad, kemet_game_pos(game), NULL, NULL);
        ok = false;
    }
    long ply = 0;
    while (ok && kemet_game_pos(game)->result == KEMET_PLAYING &&
           kemet_game_turns(game) < SOAK_CAP) {
        kemet_pos pos = *kemet_game_pos(game);
        int me = pos.to - 1;
        const kemet_throw *pt = kemet_game_throw(game);
        kemet_throw thr = pt ? *pt : (kemet_throw){0};
        int n, choice;
        if (!pt) {
            n = kemet_prethrow(r, &pos, W->moves);
            choice =
                n <= 0 ? -1
                : agent[me]
                    ? kemet_agent_choose(agent[me], &pos, NULL, W->moves, n)
                    : (int)kemet_rng_below(&pick, (uint32_t)n + 1) - 1;
            if (n > 0 && choice >= 0) {
                bad = check_ply(W, sr, game, &pos, NULL, W->moves, n,
                                &W->moves[choice]);
                if (bad) {
                    broken(W, sr, index, ply, bad, &pos, NULL,
                           &W->moves[choice]);
                    ok = false;
                }
                ply++;
                continue;
            }
            if (kemet_game_roll(game, &thr)) {
                broken(W, sr, index, ply, "the driver cannot throw", &pos, NULL,
                       NULL);
                ok = false;
                break;
            }
        }
        n = kemet_moves(r, &pos, &thr, W->moves);
        if (n < 1) {
            broken(W, sr, index, ply, "a throw with no move (not even a pass)",
                   &pos, &thr, NULL);
            ok = false;
            break;
        }
        choice = agent[me]
                     ? kemet_agent_choose(agent[me], &pos, &thr, W->moves, n)
                     : (int)kemet_rng_below(&pick, (uint32_t)n);
        bad =
            check_ply(W, sr, game, &pos, &thr, W->moves, n, &W->moves[choice]);
        if (bad) {
            broken(W, sr, index, ply, bad, &pos, &thr, &W->moves[choice]);
            ok = false;
        }
        ply++;
    }
    sr->plies += ply;
    sr->games++;
    if (kemet_game_pos(game)->result == KEMET_PLAYING)
        sr->stopped++;
    else
        sr->ended++;
    kemet_agent_free(agent[0]);
    kemet_agent_free(agent[1]);
    kemet_game_free(game);
    return ok;
}

static void *run(void *arg) {
    worker *W = arg;
    soak *S = W->S;
    long long played = 0, index = W->id;
    while (played < S->quota && !atomic_load(&S->broken)) {
        int k = (int)(index % S->n);
        long long before = W->local[k].plies;
        if (!play_game(W, k, index))
            break;
        played += W->local[k].plies - before;
        index += S->threads;
    }
    return NULL;
}

int cmd_soak(int argc, char **argv) {
    const char *arg[MAX_SOAK];
    long plies = 1000000, threads = 0;
    uint64_t seed = 1;
    cli_opt opts[] = {{"plies", OPT_LONG, &plies, 1, 1000000000000L},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"threads", OPT_LONG, &threads, 0, 256},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int npos, rc = cli_parse(argc, argv, opts, arg, 0, MAX_SOAK - 4, &npos,
                             soak_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    soak *S = calloc(1, sizeof *S);
    if (!S)
        return cli_fail("out of memory");
    const char *specs[MAX_SOAK];
    int ns = 0;
    if (npos == 0) {
        for (int i = 0; i < kemet_ruleset_count() && ns < MAX_SOAK - 3; i++)
            specs[ns++] = kemet_ruleset_id(i);
        for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
            specs[ns++] = variants[i];
    } else
        for (int i = 0; i < npos; i++)
            specs[ns++] = arg[i];
    rc = 0;
    for (int i = 0; i < ns && !rc; i++) {
        if (!(S->set[i].r = cli_rules(specs[i], NULL)))
            rc = EXIT_BAD;
        else {
            S->set[i].board = kemet_rules_board_file(S->set[i].r);
            S->n++;
        }
    }
    int T = cli_threads(threads);
    worker *W = rc ? NULL : calloc((size_t)T, sizeof *W);
    pthread_t *tid = W ? calloc((size_t)T, sizeof *tid) : NULL;
    if (!rc && !tid)
        rc = cli_fail("out of memory");
    if (!rc) {
        pthread_mutex_init(&S->mu, NULL);
        S->seed = seed;
        S->threads = T;
        S->quota = (plies + T - 1) / T;
        double t0 = cli_now();
        int started = 0;
        for (int t = 0; t < T; t++) {
            W[t] = (worker){.S = S, .id = t};
            memcpy(W[t].local, S->set, sizeof S->set);
            for (int k = 0; k < S->n; k++)
                W[t].local[k].plies = W[t].local[k].games =
                    W[t].local[k].ended = W[t].local[k].stopped = 0;
            W[t].moves = malloc(KEMET_MAX_MOVES * sizeof *W[t].moves);
            W[t].all = malloc(KEMET_MAX_MOVES * sizeof *W[t].all);
            if (W[t].moves && W[t].all &&
                pthread_create(&tid[t], NULL, run, &W[t]) == 0)
                started++;
            else
                break;
        }
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        double secs = cli_now() - t0;
        long long total = 0, games = 0;
        int wide = 42; /* the longest spec's width */
        for (int k = 0; k < S->n; k++) {
            int len = (int)strlen(kemet_rules_spec(S->set[k].r));
            wide = len > wide ? len : wide;
        }
        printf("%-*s %8s %10s %8s %8s\n", wide, "ruleset", "plies", "games",
               "ended", "stopped");
        for (int k = 0; k < S->n; k++) {
            soak_rules sum = S->set[k];
            for (int t = 0; t < started; t++) {
                sum.plies += W[t].local[k].plies;
                sum.games += W[t].local[k].games;
                sum.ended += W[t].local[k].ended;
                sum.stopped += W[t].local[k].stopped;
            }
            printf("%-*s %8lld %10lld %8lld %8lld\n", wide,
                   kemet_rules_spec(sum.r), sum.plies, sum.games, sum.ended,
                   sum.stopped);
            total += sum.plies;
            games += sum.games;
        }
        printf("%lld plies in %lld games in %.1f s (%.0f plies/s, %d "
               "threads, seed %llu): %s\n",
               total, games, secs, secs > 0 ? (double)total / secs : 0.0, T,
               (unsigned long long)seed,
               atomic_load(&S->broken) ? "an invariant broke"
                                       : "no invariant broken");
        if (started < T && !atomic_load(&S->broken))
            rc = cli_fail("out of memory");
        else if (atomic_load(&S->broken))
            rc = 1;
        for (int t = 0; t < T; t++) {
            free(W[t].moves);
            free(W[t].all);
        }
        pthread_mutex_destroy(&S->mu);
    }
    free(tid);
    free(W);
    for (int k = 0; k < S->n; k++)
        kemet_rules_close(S->set[k].r);
    free(S);
    return rc;
}
