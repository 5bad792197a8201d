/* wasm.c - the library's entry points for JavaScript, when it is built to
 * WebAssembly with Emscripten (CMake with emcmake; docs/wasm.md). Strings
 * cross as UTF-8; a string returned is malloc'd and freed with kw_free.
 *
 * kw_play plays a whole seeded game between two agents exactly as
 * `kemet play --p1 A --p2 B --seed S --record F` does (the same seats'
 * seeds, the same order of calls), so its record can be compared byte for
 * byte with the native program's. kw_search times a search for the speed
 * figures.
 */
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE /* a native build, for comparing */
#endif

#include "kemet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *kw_version(void);
void kw_free(void *p);
char *kw_play(const char *spec, const char *seed_text, const char *p1,
              const char *p2, int max_plies, int race);
char *kw_search(const char *pos_text, const char *thr_text, const char *spec,
                int times);

static char *error_text(const char *msg) {
    size_t k = strlen(msg);
    char *s = malloc(k + 7);
    if (s)
        snprintf(s, k + 7, "error %s", msg);
    return s;
}

EMSCRIPTEN_KEEPALIVE const char *kw_version(void) {
    return kemet_version();
}

EMSCRIPTEN_KEEPALIVE void kw_free(void *p) {
    free(p);
}

/* The record of a game between agents p1 and p2 (specs), its throws from
 * `seed` (decimal text), stopped after max_plies plies; or "error ...".
 * With `race` the agents use the ruleset's race database where it has one
 * (as `kemet play --tables race`). The game is the library's session,
 * played by its throw-and-choose loop (kemet_game_step), as kemet play's
 * computers play. */
EMSCRIPTEN_KEEPALIVE char *kw_play(const char *spec, const char *seed_text,
                                   const char *p1, const char *p2,
                                   int max_plies, int race) {
    kemet_rules *r = NULL;
    kemet_judge *j = NULL;
    kemet_race *db = NULL;
    kemet_agent *a[2] = {NULL, NULL};
    kemet_game *g = NULL;
    kemet_error err = {0};
    char *end, *res = NULL;
    uint64_t seed = strtoull(seed_text, &end, 10);
    if (*seed_text == '\0' || *end != '\0')
        return error_text("the seed must be a number");
    if (kemet_rules_open(spec, &r, &err) ||
        kemet_judge_new(r, NULL, &j, &err)) {
        res = error_text(err.msg);
        goto done;
    }
    if (race && kemet_race_solve(r, &db, NULL) == KEMET_OK)
        kemet_judge_use_race(j, db);
    if (kemet_agent_new_judged(j, p1, seed ^ 0x5eed0001ULL, &a[0], &err) ||
        kemet_agent_new_judged(j, p2, seed ^ 0x5eed0002ULL, &a[1], &err)) {
        res = error_text(err.msg);
        goto done;
    }
    /* the players as kemet play names them: the agents' own specs */
    if (kemet_game_new(r, seed, &g, NULL) ||
        kemet_game_set_players(g, kemet_agent_spec(a[0]),
                               kemet_agent_spec(a[1]))) {
        res = error_text("the game cannot start");
        goto done;
    }
    int rc = KEMET_OK;
    while (rc == KEMET_OK && kemet_game_plies(g) < max_plies &&
           kemet_game_next(g) != KEMET_NEXT_OVER)
        rc = kemet_game_step(g, a[kemet_game_pos(g)->to - 1], NULL);
    if (rc || kemet_game_record(g, &res))
        res = error_text(kemet_strerror(rc ? rc : KEMET_ENOMEM));
done:
    kemet_game_free(g);
    kemet_agent_free(a[0]);
    kemet_agent_free(a[1]);
    kemet_judge_free(j);
    kemet_rules_close(r);
    kemet_race_free(db);
    return res;
}

/* Searches the position `pos` (notation) with throw `thr` by agent `spec`
 * `times` times; returns "NODES SECONDS" (processor time), or "error ...". */
EMSCRIPTEN_KEEPALIVE char *kw_search(const char *pos_text, const char *thr_text,
                                     const char *spec, int times) {
    kemet_rules *r = NULL;
    kemet_agent *a = NULL;
    kemet_pos pos;
    kemet_throw t;
    kemet_error err = {0};
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    char *res = NULL;
    if (!moves)
        return error_text("out of memory");
    if (kemet_pos_parse(pos_text, &r, &pos, &err) ||
        kemet_throw_parse(r, thr_text, &t, &err) ||
        kemet_agent_new(r, spec, 1, &a, &err)) {
        res = error_text(err.msg);
        goto done;
    }
    int n = kemet_moves(r, &pos, &t, moves);
    if (n < 1) {
        res = error_text(kemet_strerror(n));
        goto done;
    }
    long long nodes = 0;
    clock_t c0 = clock();
    for (int i = 0; i < times; i++) {
        kemet_agent_choose(a, &pos, &t, moves, n);
        nodes += kemet_agent_nodes(a);
    }
    double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    res = malloc(64);
    if (res)
        snprintf(res, 64, "%lld %.6f", nodes, secs);
done:
    free(moves);
    kemet_agent_free(a);
    kemet_rules_close(r);
    return res;
}
