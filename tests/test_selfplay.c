/* test_selfplay.c - many seeded random games of every ruleset, with the
 * invariants checked after every ply: the position is valid, pieces are
 * conserved (never more on the board than before, except by the rules'
 * own entering), one piece per square, the notation round-trips, move
 * lists hold no duplicates and `pass` only alone, and every game ends.
 * Also: the fast playout of each ruleset plays the very same games as the
 * engine's generic loop. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fewer under the sanitizers' build (KEMET_CHECKS), whose every ply is
 * many times slower: the same invariants over a smaller sample. */
#ifdef KEMET_CHECKS
enum { GAMES = 500, CAP = 5000, SAME_SEEDS = 1000 };
#else
enum { GAMES = 1500, CAP = 5000, SAME_SEEDS = 3000 };
#endif

static void check_list(const kemet_move *list, int n) {
    assert_true(n >= 1);
    for (int i = 0; i < n; i++) {
        if (list[i].n == 0)
            assert_int_equal(n, 1); /* pass only when nothing else */
        for (int j = 0; j < i; j++)
            assert_false(kemet_move_equal(&list[i], &list[j]));
    }
}

static void check_position(const kemet_rules *r, const kemet_pos *p) {
    kemet_error e;
    char buf[512];
    if (kemet_pos_check(r, p, &e) != KEMET_OK)
        fail_msg("invalid position reached: %s", e.msg);
    assert_true(kemet_pos_format(r, p, buf, sizeof buf) > 0);
    kemet_rules *r2;
    kemet_pos q;
    if (kemet_pos_parse(buf, &r2, &q, &e))
        fail_msg("'%s' does not parse back: %s", buf, e.msg);
    assert_memory_equal(p, &q, sizeof q);
    kemet_rules_close(r2);
}

static void random_games(const char *spec) {
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open(spec, &r, &e), KEMET_OK);
    const kemet_info *info = kemet_rules_info(r);
    kemet_rng pick;
    kemet_rng_seed(&pick, 99);
    kemet_move list[KEMET_MAX_MOVES];
    long ended = 0, draws = 0;
    for (int g = 0; g < GAMES; g++) {
        kemet_game *game;
        assert_int_equal(kemet_game_new(r, (uint64_t)g, &game, NULL), KEMET_OK);
        check_position(r, kemet_game_pos(game));
        while (kemet_result(kemet_game_pos(game)) == KEMET_PLAYING &&
               kemet_game_turns(game) < CAP) {
            kemet_pos before = *kemet_game_pos(game);
            const kemet_throw *opening = kemet_game_throw(game);
            int n = opening ? 0 : kemet_prethrow(r, &before, list);
            assert_true(n >= 0);
            int k = (int)kemet_rng_below(&pick, (uint32_t)n + 1) - 1;
            if (k < 0) {
                kemet_throw t;
                if (opening)
                    t = *opening; /* the opening's first throw */
                else
                    assert_int_equal(kemet_game_roll(game, &t), KEMET_OK);
                n = kemet_moves(r, &before, &t, list);
                check_list(list, n);
                k = (int)kemet_rng_below(&pick, (uint32_t)n);
            }
            assert_int_equal(kemet_game_play(game, &list[k], NULL), KEMET_OK);
            const kemet_pos *after = kemet_game_pos(game);
            check_position(r, after);
            for (int p = 1; p <= 2; p++) {
                int was = kemet_on_board(&before, p) + before.hand[p - 1];
                int now = kemet_on_board(after, p) + after->hand[p - 1];
                assert_true(now <= was && now <= info->pieces);
            }
            if (kemet_result(after) == KEMET_WON1 ||
                kemet_result(after) == KEMET_WON2) {
                int w = kemet_result(after);
                /* the winner has borne off everything (a race), or the
                 * loser has nothing left (Skiryuk's capture game) */
                int wl = kemet_on_board(after, w) + after->hand[w - 1];
                int ll = kemet_on_board(after, 3 - w) + after->hand[2 - w];
                assert_true(wl == 0 || ll == 0);
                assert_int_equal(after->must, 0);
            }
        }
        ended += kemet_result(kemet_game_pos(game)) != KEMET_PLAYING;
        draws += kemet_result(kemet_game_pos(game)) == KEMET_DRAW;
        kemet_game_free(game);
    }
    assert_int_equal(ended, GAMES); /* every game ends */
    if (strcmp(spec, "dogs-jackals-extended") != 0)
        assert_int_equal(draws, 0); /* only rule 17 draws */
    kemet_rules_close(r);
}

static void senet_kendall_games(void **state) {
    (void)state;
    random_games("senet-kendall");
}
static void senet_robinson_games(void **state) {
    (void)state;
    random_games("senet-robinson");
}
static void dogs_jackals_games(void **state) {
    (void)state;
    random_games("dogs-jackals");
}
static void dogs_jackals_extended_games(void **state) {
    (void)state;
    random_games("dogs-jackals-extended");
}
static void skiryuk_games(void **state) {
    (void)state;
    random_games("hounds-jackals-skiryuk");
}
static void chien_chacal_games(void **state) {
    (void)state;
    random_games("chien-chacal");
}

/* The fast playout and the generic loop give identical games. */
static void fast_playout_matches_generic(void **state) {
    (void)state;
    for (int i = 0; i < kemet_ruleset_count(); i++) {
        kemet_rules *r;
        kemet_error e;
        assert_int_equal(kemet_rules_open(kemet_ruleset_id(i), &r, &e),
                         KEMET_OK);
        for (uint64_t s = 0; s < SAME_SEEDS; s++) {
            kemet_game *a, *b;
            kemet_rng pa, pb;
            kemet_rng_seed(&pa, s * 7 + 1);
            kemet_rng_seed(&pb, s * 7 + 1);
            kemet_game_new(r, s, &a, NULL);
            kemet_game_new(r, s, &b, NULL);
            long cap = (long)(s % 200) + 1; /* stopped games too */
            assert_int_equal(kemet_game_playout(a, &pa, cap, 0), KEMET_OK);
            assert_int_equal(kemet_game_playout(b, &pb, cap, 1), KEMET_OK);
            assert_memory_equal(kemet_game_pos(a), kemet_game_pos(b),
                                sizeof(kemet_pos));
            assert_int_equal(kemet_game_turns(a), kemet_game_turns(b));
            assert_int_equal(kemet_game_plies(a), kemet_game_plies(b));
            assert_true(kemet_game_turns(a) <= cap);
            assert_memory_equal(&pa, &pb, sizeof pa);
            kemet_game_free(a);
            kemet_game_free(b);
        }
        kemet_rules_close(r);
    }
}

/* Same seed, same choices: the same game, byte for byte. */
static void determinism(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &e), KEMET_OK);
    kemet_pos end[2];
    long plies[2];
    for (int run = 0; run < 2; run++) {
        kemet_game *g;
        kemet_rng pick;
        kemet_rng_seed(&pick, 5);
        kemet_game_new(r, 77, &g, NULL);
        kemet_game_playout(g, &pick, 100000, 1);
        end[run] = *kemet_game_pos(g);
        plies[run] = kemet_game_plies(g);
        kemet_game_free(g);
    }
    assert_memory_equal(&end[0], &end[1], sizeof end[0]);
    assert_int_equal(plies[0], plies[1]);
    /* a different seed gives a different game */
    kemet_game *g;
    kemet_rng pick;
    kemet_rng_seed(&pick, 5);
    kemet_game_new(r, 78, &g, NULL);
    kemet_game_playout(g, &pick, 100000, 1);
    assert_true(kemet_game_plies(g) != plies[0] ||
                memcmp(kemet_game_pos(g), &end[0], sizeof end[0]) != 0);
    kemet_game_free(g);
    kemet_rules_close(r);
}

/* From the start, one throw: 7 + 1 + 7 + 2 + 7 = 24 (throw, move) pairs,
 * counted by hand from rules 2, 5 and 13 (every black piece is lone). */
static void first_throw_count(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error e;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, &e), KEMET_OK);
    kemet_pos p;
    kemet_start(r, &p);
    kemet_throw t[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS], total;
    kemet_move list[KEMET_MAX_MOVES];
    int n = kemet_throws(r, &p, t, w, &total), sum = 0;
    for (int i = 0; i < n; i++)
        sum += kemet_moves(r, &p, &t[i], list);
    assert_int_equal(sum, 24);
    kemet_rules_close(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(senet_kendall_games),
        cmocka_unit_test(senet_robinson_games),
        cmocka_unit_test(dogs_jackals_games),
        cmocka_unit_test(dogs_jackals_extended_games),
        cmocka_unit_test(skiryuk_games),
        cmocka_unit_test(chien_chacal_games),
        cmocka_unit_test(fast_playout_matches_generic),
        cmocka_unit_test(determinism),
        cmocka_unit_test(first_throw_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
