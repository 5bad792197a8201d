/* test_parts.c - the senet family's general generator against the
 * published readings' own: for every built-in Senet and every option set
 * (Kendall's sixteen on his and Robinson's rules, Bell, Jéquier,
 * Piccione), the same parts played on the general generator
 * (src/lib/senet/generic.c, opened with kmt_rules_open_generic) give the
 * same games as on the fast one: the same throws, the same pre-throw
 * choices and move lists in the same order at every position of many
 * random games, the same positions and events after every move, the same
 * random playouts draw for draw, and the same perft counts.
 *
 * The fast generators were written and tested from the rulings, each on
 * its own; the general one reads the parts. Agreement everywhere along
 * thousands of games is what shows the parts mean what the readings do.
 */
#include "testutil.h"

#include "senet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const specs[] = {
    "senet-bell",
    "senet-jequier",
    "senet-piccione",
    "senet-kendall",
    "senet-kendall:pieces=5",
    "senet-kendall:start=1",
    "senet-kendall:trap=1",
    "senet-kendall:homerow=1",
    "senet-kendall:pieces=5,start=1",
    "senet-kendall:pieces=5,trap=1",
    "senet-kendall:pieces=5,homerow=1",
    "senet-kendall:start=1,trap=1",
    "senet-kendall:start=1,homerow=1",
    "senet-kendall:trap=1,homerow=1",
    "senet-kendall:pieces=5,start=1,trap=1",
    "senet-kendall:pieces=5,start=1,homerow=1",
    "senet-kendall:pieces=5,trap=1,homerow=1",
    "senet-kendall:start=1,trap=1,homerow=1",
    "senet-kendall:pieces=5,start=1,trap=1,homerow=1",
    "senet-robinson",
    "senet-robinson:pieces=5",
    "senet-robinson:start=1",
    "senet-robinson:trap=1",
    "senet-robinson:homerow=1",
    "senet-robinson:pieces=5,start=1,trap=1,homerow=1",
    "senet-robinson:trap=1,homerow=1",
    NULL};

static void open_both(const char *spec, kemet_rules **fast, kemet_rules **gen) {
    kemet_error e;
    if (kemet_rules_open(spec, fast, &e))
        fail_msg("%s: %s", spec, e.msg);
    if (kmt_rules_open_generic(NULL, spec, gen, &e))
        fail_msg("%s (general): %s", spec, e.msg);
    /* the one plays its reading's generator, the other the general one */
    assert_int_not_equal(kmt_senet_of(*fast)->engine, SN_GENERIC);
    assert_int_equal(kmt_senet_of(*gen)->engine, SN_GENERIC);
    assert_string_equal(kemet_rules_spec(*fast), kemet_rules_spec(*gen));
}

static void same_events(const kemet_events *a, const kemet_events *b,
                        const char *spec, const char *pos, const char *mv) {
    if (a->n != b->n || memcmp(a->ev, b->ev, (size_t)a->n * sizeof a->ev[0]))
        fail_msg("%s %s %s: the events differ (%d, %d)", spec, pos, mv, a->n,
                 b->n);
}

/* Everything the two say about one position and throw. Returns the
 * number of moves. */
static int compare_at(const char *spec, const kemet_rules *fa,
                      const kemet_rules *ge, const kemet_pos *pos,
                      const kemet_throw *thr, kemet_move *la, kemet_move *lb) {
    char text[512], mv[128];
    kemet_pos_format(fa, pos, text, sizeof text);
    int na = kemet_moves(fa, pos, thr, la);
    int nb = kemet_moves(ge, pos, thr, lb);
    if (na != nb)
        fail_msg("%s '%s' throw %d: %d moves against %d", spec, text, thr->v[0],
                 na, nb);
    for (int i = 0; i < na; i++) {
        if (!kemet_move_equal(&la[i], &lb[i])) {
            kemet_move_format(&la[i], mv, sizeof mv);
            fail_msg("%s '%s' throw %d: move %d is %s on the fast one", spec,
                     text, thr->v[0], i, mv);
        }
        kemet_pos pa, pb;
        kemet_events ea = {0}, eb = {0};
        kemet_make(fa, pos, thr, &la[i], &pa, &ea);
        kemet_make(ge, pos, thr, &lb[i], &pb, &eb);
        kemet_move_format(&la[i], mv, sizeof mv);
        if (memcmp(&pa, &pb, sizeof pa) != 0) {
            char ta[512], tb[512];
            kemet_pos_format(fa, &pa, ta, sizeof ta);
            kemet_pos_format(ge, &pb, tb, sizeof tb);
            fail_msg("%s '%s' throw %d %s: '%s' against '%s'", spec, text,
                     thr->v[0], mv, ta, tb);
        }
        same_events(&ea, &eb, spec, text, mv);
        if (kemet_pos_check(ge, &pb, NULL) != KEMET_OK)
            fail_msg("%s '%s' %s: the general checks refuse the result", spec,
                     text, mv);
    }
    return na;
}

/* Random games, move by move, compared at every position. */
static void games_agree(void **state) {
    (void)state;
    kemet_move *la = malloc(KEMET_MAX_MOVES * sizeof *la);
    kemet_move *lb = malloc(KEMET_MAX_MOVES * sizeof *lb);
    assert_non_null(la);
    assert_non_null(lb);
    long positions = 0;
    for (int k = 0; specs[k]; k++) {
        kemet_rules *fa, *ge;
        open_both(specs[k], &fa, &ge);
        for (uint64_t seed = 1; seed <= 60; seed++) {
            kemet_rng rng;
            kemet_rng_seed(&rng, seed);
            kemet_pos pos, pg;
            kemet_game *g1, *g2;
            kemet_events e1 = {0}, e2 = {0};
            /* the opening draws alike and does the same */
            assert_int_equal(kemet_game_new(fa, seed, &g1, &e1), KEMET_OK);
            assert_int_equal(kemet_game_new(ge, seed, &g2, &e2), KEMET_OK);
            same_events(&e1, &e2, specs[k], "opening", "");
            pos = *kemet_game_pos(g1);
            pg = *kemet_game_pos(g2);
            assert_memory_equal(&pos, &pg, sizeof pos);
            kemet_game_free(g1);
            kemet_game_free(g2);
            for (int ply = 0; ply < 600 && pos.result == KEMET_PLAYING; ply++) {
                positions++;
                kemet_throw ts[KEMET_MAX_THROWS], tg[KEMET_MAX_THROWS];
                kemet_weight wa[KEMET_MAX_THROWS], wb[KEMET_MAX_THROWS], ta, tb;
                int nt = kemet_throws(fa, &pos, ts, wa, &ta);
                assert_int_equal(kemet_throws(ge, &pos, tg, wb, &tb), nt);
                assert_true(ta == tb);
                for (int i = 0; i < nt; i++) {
                    assert_true(kemet_throw_equal(&ts[i], &tg[i]));
                    assert_true(wa[i] == wb[i]);
                    compare_at(specs[k], fa, ge, &pos, &ts[i], la, lb);
                }
                int np = kemet_prethrow(fa, &pos, la);
                assert_int_equal(kemet_prethrow(ge, &pos, lb), np);
                for (int i = 0; i < np; i++)
                    assert_true(kemet_move_equal(&la[i], &lb[i]));
                /* on with a random throw and move, as a playout would */
                kemet_throw t;
                kemet_roll(fa, &pos, &rng, &t);
                int n = kemet_moves(fa, &pos, &t, la);
                int pick = (int)kemet_rng_below(&rng, (uint32_t)n);
                if (np && kemet_rng_below(&rng, 4) == 0) {
                    kemet_prethrow(fa, &pos, la);
                    kemet_make(fa, &pos, NULL, &la[0], &pos, NULL);
                    continue;
                }
                kemet_make(fa, &pos, &t, &la[pick], &pos, NULL);
            }
        }
        kemet_rules_close(fa);
        kemet_rules_close(ge);
    }
    print_message("%ld positions compared\n", positions);
    free(la);
    free(lb);
}

/* The random playouts, draw for draw: the fast generator's own playout,
 * the general one's, and the generic loop over its move lists. */
static void playouts_agree(void **state) {
    (void)state;
    for (int k = 0; specs[k]; k++) {
        kemet_rules *fa, *ge;
        open_both(specs[k], &fa, &ge);
        for (uint64_t seed = 1; seed <= 200; seed++) {
            kemet_pos end[3];
            long plies[3];
            for (int way = 0; way < 3; way++) {
                kemet_game *g;
                kemet_rng pick;
                kemet_rng_seed(&pick, seed * 7 + 1);
                assert_int_equal(kemet_game_new(way ? ge : fa, seed, &g, NULL),
                                 KEMET_OK);
                kemet_game_playout(g, &pick, 2000, way == 2);
                end[way] = *kemet_game_pos(g);
                plies[way] = kemet_game_plies(g);
                kemet_game_free(g);
            }
            for (int way = 1; way < 3; way++) {
                if (memcmp(&end[0], &end[way], sizeof end[0]) != 0 ||
                    plies[0] != plies[way])
                    fail_msg("%s seed %d: playout %d ends elsewhere (%ld "
                             "plies against %ld)",
                             specs[k], (int)seed, way, plies[way], plies[0]);
            }
        }
        kemet_rules_close(fa);
        kemet_rules_close(ge);
    }
}

/* The game tree from the start, to a small depth, counted on both. */
static long long perft(const kemet_rules *r, const kemet_pos *pos, int depth,
                       kemet_move *buf) {
    if (depth == 0 || pos->result != KEMET_PLAYING)
        return 1;
    long long n = 0;
    kemet_move *list = buf, *next = buf + KEMET_MAX_MOVES;
    int np = kemet_prethrow(r, pos, list);
    for (int i = 0; i < np; i++) {
        kemet_pos child;
        kemet_make(r, pos, NULL, &list[i], &child, NULL);
        n += perft(r, &child, depth - 1, next);
    }
    kemet_throw ts[KEMET_MAX_THROWS];
    int nt = kemet_throws(r, pos, ts, NULL, NULL);
    for (int t = 0; t < nt; t++) {
        int nm = kemet_moves(r, pos, &ts[t], list);
        for (int i = 0; i < nm; i++) {
            kemet_pos child;
            kemet_make(r, pos, &ts[t], &list[i], &child, NULL);
            n += perft(r, &child, depth - 1, next);
        }
    }
    return n;
}

static void perft_agrees(void **state) {
    (void)state;
    kemet_move *buf = malloc(6 * KEMET_MAX_MOVES * sizeof *buf);
    assert_non_null(buf);
    for (int k = 0; specs[k]; k++) {
        kemet_rules *fa, *ge;
        open_both(specs[k], &fa, &ge);
        kemet_pos pos;
        kemet_start(fa, &pos);
        int depth = strstr(specs[k], "piccione") ? 4 : 3;
        long long a = perft(fa, &pos, depth, buf);
        long long b = perft(ge, &pos, depth, buf);
        if (a != b)
            fail_msg("%s: perft %d is %lld, the general one %lld", specs[k],
                     depth, a, b);
        kemet_rules_close(fa);
        kemet_rules_close(ge);
    }
    free(buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(games_agree),
        cmocka_unit_test(playouts_agree),
        cmocka_unit_test(perft_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
