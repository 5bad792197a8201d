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

/* A growing text. */
typedef struct text {
    char *s;
    size_t n, cap;
    int failed;
} text;

static void add(text *t, const char *s) {
    size_t k = strlen(s);
    if (t->failed)
        return;
    if (t->n + k + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->n + k + 1)
            cap *= 2;
        char *g = realloc(t->s, cap);
        if (!g) {
            t->failed = 1;
            return;
        }
        t->s = g;
        t->cap = cap;
    }
    memcpy(t->s + t->n, s, k + 1);
    t->n += k;
}

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
 * (as `kemet play --tables race`). */
EMSCRIPTEN_KEEPALIVE char *kw_play(const char *spec, const char *seed_text,
                                   const char *p1, const char *p2,
                                   int max_plies, int race) {
    kemet_rules *r = NULL;
    kemet_judge *j = NULL;
    kemet_race *db = NULL;
    kemet_agent *a[2] = {NULL, NULL};
    kemet_game *g = NULL;
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    kemet_error err = {0};
    text out = {0};
    char line[1024], *end;
    uint64_t seed = strtoull(seed_text, &end, 10);
    char *res = NULL;
    if (!moves)
        return error_text("out of memory");
    if (*seed_text == '\0' || *end != '\0') {
        res = error_text("the seed must be a number");
        goto done;
    }
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
    if (kemet_game_new(r, seed, &g, NULL)) {
        res = error_text("the game cannot start");
        goto done;
    }
    /* the players as kemet play names them: the agents' own specs */
    kemet_record_header(r, seed, kemet_agent_spec(a[0]), kemet_agent_spec(a[1]),
                        kemet_game_pos(g), line, sizeof line);
    add(&out, line);
    for (int ply = 0;
         ply < max_plies && kemet_result(kemet_game_pos(g)) == KEMET_PLAYING;
         ply++) {
        kemet_pos before = *kemet_game_pos(g);
        kemet_agent *me = a[before.to - 1];
        const kemet_throw *opening = kemet_game_throw(g);
        int n = opening ? 0 : kemet_prethrow(r, &before, moves);
        if (n > 0) {
            int k = kemet_agent_choose(me, &before, NULL, moves, n);
            if (k >= 0) {
                kemet_game_play(g, &moves[k], NULL);
                kemet_record_ply(&before, NULL, &moves[k], line, sizeof line);
                add(&out, line);
                continue;
            }
        }
        kemet_throw t;
        if (opening)
            t = *opening;
        else
            kemet_game_roll(g, &t);
        n = kemet_moves(r, &before, &t, moves);
        int k = 0;
        if (!(n == 1 && moves[0].n == 0))
            k = kemet_agent_choose(me, &before, &t, moves, n);
        kemet_game_play(g, &moves[k], NULL);
        kemet_record_ply(&before, &t, &moves[k], line, sizeof line);
        add(&out, line);
    }
    kemet_record_result(kemet_game_pos(g), 0, line, sizeof line);
    add(&out, line);
    res = out.failed ? error_text("out of memory") : out.s;
    if (out.failed)
        free(out.s);
done:
    free(moves);
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
