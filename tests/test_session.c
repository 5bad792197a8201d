/* test_session.c - the game session (kemet_game's history): take-back,
 * resignation, stopping, the record out and a game read back from one,
 * and the throw-and-choose loop, in every ruleset.
 *
 * These are the semantics every front end gets by driving the session
 * (kemet play, kemet serve and its page, the offline page, the Python
 * package). Each check below works its expectation out independently of
 * the session: positions by kemet_apply from the start, throws from the
 * plies the game made before, records by kemet_replay.
 */
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rulesets[] = {
    "senet-kendall",
    "senet-robinson",
    "dogs-jackals",
    "dogs-jackals-extended",
    "hounds-jackals-skiryuk",
    "chien-chacal",
    "hounds-jackals-washburne",
    "hounds-jackals-washburne-dice",
    "lions-jackals",
    "lions-jackals-quick",
};
enum { NRULES = (int)(sizeof rulesets / sizeof *rulesets) };

/* The position before ply `k` (k <= plies), by applying the history from
 * the start: what the game must stand in after going back to k. */
static kemet_pos before_ply(const kemet_rules *r, const kemet_game *g, long k) {
    kemet_pos pos = *kemet_game_start(g);
    const kemet_ply *h = kemet_game_history(g);
    for (long i = 0; i < k; i++)
        assert_int_equal(kemet_apply(r, &pos, h[i].thr.n ? &h[i].thr : NULL,
                                     &h[i].move, &pos, NULL),
                         KEMET_OK);
    return pos;
}

static bool same_pos(const kemet_pos *a, const kemet_pos *b) {
    return memcmp(a, b, sizeof *a) == 0;
}

/* A game of `r` played by two random agents for at most `plies` plies. */
static kemet_game *random_game(const kemet_rules *r, uint64_t seed,
                               long plies) {
    kemet_game *g;
    kemet_agent *a[2];
    assert_int_equal(kemet_game_new(r, seed, &g, NULL), KEMET_OK);
    assert_int_equal(kemet_agent_new(r, "random", seed, &a[0], NULL), 0);
    assert_int_equal(kemet_agent_new(r, "random", seed + 1, &a[1], NULL), 0);
    while (kemet_game_plies(g) < plies && kemet_game_next(g) != KEMET_NEXT_OVER)
        assert_int_equal(kemet_game_step(g, a[kemet_game_pos(g)->to - 1], NULL),
                         KEMET_OK);
    kemet_agent_free(a[0]);
    kemet_agent_free(a[1]);
    return g;
}

/* The game's record replays to the game's position; read back, it is the
 * same game: position, plies, the pending throw, result and record. */
static void same_when_read(const kemet_rules *r, const kemet_game *g) {
    char *text;
    kemet_error err;
    assert_int_equal(kemet_game_record(g, &text), KEMET_OK);
    kemet_pos fin;
    long n;
    if (kemet_replay(text, &fin, NULL, 0, &n, &err) != KEMET_OK)
        fail_msg("%s: the record does not replay: %s\n%s", kemet_rules_spec(r),
                 err.msg, text);
    assert_int_equal(n, kemet_game_plies(g));
    kemet_game *back;
    if (kemet_game_read(r, text, &back, &err) != KEMET_OK)
        fail_msg("%s: kemet_game_read: %s", kemet_rules_spec(r), err.msg);
    assert_true(same_pos(kemet_game_pos(back), kemet_game_pos(g)));
    assert_true(same_pos(kemet_game_start(back), kemet_game_start(g)));
    assert_int_equal(kemet_game_plies(back), kemet_game_plies(g));
    assert_int_equal(kemet_game_turns(back), kemet_game_turns(g));
    assert_int_equal(kemet_game_result(back), kemet_game_result(g));
    assert_int_equal(kemet_game_resigned(back), kemet_game_resigned(g));
    assert_int_equal(kemet_game_stopped(back), kemet_game_stopped(g));
    assert_int_equal(kemet_game_is_setup(back), kemet_game_is_setup(g));
    assert_string_equal(kemet_game_player(back, 1), kemet_game_player(g, 1));
    assert_string_equal(kemet_game_player(back, 2), kemet_game_player(g, 2));
    char *again;
    assert_int_equal(kemet_game_record(back, &again), KEMET_OK);
    assert_string_equal(again, text);
    free(again);
    /* a throw with no move yet is not in the record: read back, the same
       throw comes from the dice */
    const kemet_throw *t1 = kemet_game_throw(back), *t2 = kemet_game_throw(g);
    if (t2 && !t1) {
        assert_int_equal(kemet_game_roll(back, NULL), KEMET_OK);
        t1 = kemet_game_throw(back);
    }
    assert_int_equal(kemet_game_next(back), kemet_game_next(g));
    assert_true(!t1 == !t2 && (!t1 || kemet_throw_equal(t1, t2)));
    free(text);
    kemet_game_free(back);
}

/* Every ruleset: a game's history is its plies, its record replays, and
 * read back it is the same game. */
static void record_round_trip(void **state) {
    (void)state;
    for (int i = 0; i < NRULES; i++) {
        kemet_rules *r;
        assert_int_equal(kemet_rules_open(rulesets[i], &r, NULL), KEMET_OK);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            kemet_game *g = random_game(r, seed, seed == 3 ? 100000 : 40);
            kemet_pos want = before_ply(r, g, kemet_game_plies(g));
            assert_true(same_pos(&want, kemet_game_pos(g)));
            assert_int_equal(kemet_game_set_players(g, "greedy", "best:1k"),
                             KEMET_OK);
            same_when_read(r, g);
            kemet_game_free(g);
        }
        kemet_rules_close(r);
    }
}

/* Take-back: player p's last ply that was a choice (never a pass) and
 * everything after it; the game stands as it stood before that ply with
 * its throw pending again, and the dice then give the same throws. */
static void take_back(void **state) {
    (void)state;
    int passes_skipped = 0;
    for (int i = 0; i < NRULES; i++) {
        kemet_rules *r;
        assert_int_equal(kemet_rules_open(rulesets[i], &r, NULL), KEMET_OK);
        for (uint64_t seed = 1; seed <= 6; seed++) {
            kemet_game *g = random_game(r, seed, 30 + 7 * (long)seed);
            long n = kemet_game_plies(g);
            kemet_ply *old = malloc((size_t)(n ? n : 1) * sizeof *old);
            memcpy(old, kemet_game_history(g), (size_t)n * sizeof *old);
            for (int p = 1; p <= 2; p++) {
                /* the expected ply, found by hand: p's last non-pass */
                long want = -1;
                for (long k = 0; k < n; k++)
                    if (kemet_game_mover(g, k) == p && old[k].move.n > 0)
                        want = k;
                if (n && kemet_game_mover(g, n - 1) == p &&
                    old[n - 1].move.n == 0 && want >= 0)
                    passes_skipped++;
                assert_int_equal(kemet_game_last_move(g, p), want);
            }
            int p = kemet_game_pos(g)->to == 1 ? 2 : 1;
            long k = kemet_game_last_move(g, p);
            if (k < 0) {
                assert_int_equal(kemet_game_takeback(g, p), KEMET_EILLEGAL);
                free(old);
                kemet_game_free(g);
                continue;
            }
            kemet_pos want = before_ply(r, g, k);
            assert_int_equal(kemet_game_takeback(g, p), KEMET_OK);
            assert_int_equal(kemet_game_plies(g), k);
            assert_true(same_pos(kemet_game_pos(g), &want));
            assert_int_equal(kemet_game_pos(g)->to, p);
            if (old[k].thr.n) {
                /* the same throw, pending again */
                assert_int_equal(kemet_game_next(g), KEMET_NEXT_MOVE);
                assert_true(
                    kemet_throw_equal(kemet_game_throw(g), &old[k].thr));
            } else
                assert_int_equal(kemet_game_next(g), KEMET_NEXT_THROW);
            same_when_read(r, g);
            /* played the same way again, the dice give the same throws */
            for (long j = k; j < n; j++) {
                if (old[j].thr.n && !kemet_game_throw(g)) {
                    kemet_throw t;
                    assert_int_equal(kemet_game_roll(g, &t), KEMET_OK);
                    assert_true(kemet_throw_equal(&t, &old[j].thr));
                }
                assert_int_equal(kemet_game_play(g, &old[j].move, NULL),
                                 KEMET_OK);
            }
            assert_int_equal(kemet_game_plies(g), n);
            assert_memory_equal(kemet_game_history(g), old,
                                (size_t)n * sizeof *old);
            free(old);
            kemet_game_free(g);
        }
        kemet_rules_close(r);
    }
    /* the pass rule was met at least once (Senet passes often) */
    assert_true(passes_skipped > 0);
}

/* Resignation: the other player wins, nothing more is played or taken
 * back, the record says so and reads back resigned; going back to a ply
 * forgets it. */
static void resign(void **state) {
    (void)state;
    kemet_rules *r;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, NULL), KEMET_OK);
    kemet_game *g = random_game(r, 11, 20);
    long n = kemet_game_plies(g);
    int to = kemet_game_pos(g)->to;
    /* the player not to move may resign too */
    int p = to == 1 ? 2 : 1;
    assert_int_equal(kemet_game_resign(g, 3), KEMET_EMISUSE);
    assert_int_equal(kemet_game_resign(g, p), KEMET_OK);
    assert_int_equal(kemet_game_resigned(g), p);
    assert_int_equal(kemet_game_result(g), p == 1 ? KEMET_WON2 : KEMET_WON1);
    assert_int_equal(kemet_game_pos(g)->result, KEMET_PLAYING);
    assert_int_equal(kemet_game_next(g), KEMET_NEXT_OVER);
    assert_int_equal(kemet_game_roll(g, NULL), KEMET_EOVER);
    kemet_move none = {0};
    assert_int_equal(kemet_game_play(g, &none, NULL), KEMET_EOVER);
    assert_int_equal(kemet_game_takeback(g, p), KEMET_EOVER);
    assert_int_equal(kemet_game_resign(g, to), KEMET_EOVER);
    assert_int_equal(kemet_game_stop(g), KEMET_EOVER);
    char *text;
    assert_int_equal(kemet_game_record(g, &text), KEMET_OK);
    char want[64];
    snprintf(want, sizeof want, "resign %d\nresult %d\n", p, p == 1 ? 2 : 1);
    assert_non_null(strstr(text, want));
    free(text);
    same_when_read(r, g);
    assert_int_equal(kemet_game_back(g, n), KEMET_OK);
    assert_int_equal(kemet_game_resigned(g), 0);
    assert_int_equal(kemet_game_result(g), KEMET_PLAYING);
    assert_int_equal(kemet_game_back(g, n + 1), KEMET_EMISUSE);
    assert_int_equal(kemet_game_back(g, -1), KEMET_EMISUSE);
    kemet_game_free(g);
    kemet_rules_close(r);
}

/* Stopping (a turn cap) and a game set up without the opening. */
static void stop_and_setup(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_pos pos;
    kemet_error err;
    r = tu_pos("lions-jackals to=2 p1=3,7,12,20,24 p2=1,5,9,18,22", &pos);
    kemet_game *g;
    assert_int_equal(kemet_game_setup(r, 5, &pos, &g, &err), KEMET_OK);
    assert_int_equal(kemet_game_is_setup(g), 1);
    kemet_agent *a;
    assert_int_equal(kemet_agent_new(r, "greedy", 1, &a, NULL), KEMET_OK);
    for (int i = 0; i < 6 && kemet_game_next(g) != KEMET_NEXT_OVER; i++)
        assert_int_equal(kemet_game_step(g, a, NULL), KEMET_OK);
    assert_int_equal(kemet_game_stop(g), KEMET_OK);
    assert_int_equal(kemet_game_next(g), KEMET_NEXT_OVER);
    char *text;
    assert_int_equal(kemet_game_record(g, &text), KEMET_OK);
    assert_non_null(strstr(text, "\nsetup lions-jackals to=2 "));
    assert_non_null(strstr(text, "\nresult stopped\n"));
    free(text);
    same_when_read(r, g);
    kemet_agent_free(a);
    kemet_game_free(g);
    kemet_rules_close(r);
}

/* Skiryuk's opening throws for the starter: going back to ply 0 leaves
 * that throw pending again. */
static void opening_throw_again(void **state) {
    (void)state;
    kemet_rules *r;
    assert_int_equal(kemet_rules_open("hounds-jackals-skiryuk", &r, NULL),
                     KEMET_OK);
    kemet_game *g;
    assert_int_equal(kemet_game_new(r, 3, &g, NULL), KEMET_OK);
    assert_int_equal(kemet_game_next(g), KEMET_NEXT_MOVE);
    kemet_throw first = *kemet_game_throw(g);
    kemet_game_free(g);
    g = random_game(r, 3, 12);
    assert_int_equal(kemet_game_back(g, 0), KEMET_OK);
    assert_int_equal(kemet_game_plies(g), 0);
    assert_int_equal(kemet_game_next(g), KEMET_NEXT_MOVE);
    assert_true(kemet_throw_equal(kemet_game_throw(g), &first));
    same_when_read(r, g);
    kemet_game_free(g);
    kemet_rules_close(r);
}

/* A record read back is checked: another ruleset's, a tampered throw, no
 * seed. */
static void bad_records(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, NULL), KEMET_OK);
    kemet_game *g = random_game(r, 4, 6), *back = NULL;
    char *text;
    assert_int_equal(kemet_game_record(g, &text), KEMET_OK);
    kemet_rules *other;
    assert_int_equal(kemet_rules_open("senet-robinson", &other, NULL), 0);
    assert_int_equal(kemet_game_read(other, text, &back, &err), KEMET_ERULESET);
    assert_non_null(strstr(err.msg, "senet-kendall"));
    assert_null(back);
    /* the first ply's throw changed */
    char *ply = strstr(text, "\n1 ");
    if (!ply)
        ply = strstr(text, "\n2 ");
    assert_non_null(ply);
    char *thr = ply + 3;
    *thr = *thr == '1' ? '2' : '1';
    assert_int_equal(kemet_game_read(r, text, &back, &err), KEMET_EILLEGAL);
    assert_null(back);
    assert_int_equal(kemet_game_read(r,
                                     "kemet-record 1\nruleset senet-kendall\n",
                                     &back, &err),
                     KEMET_ESYNTAX);
    assert_non_null(strstr(err.msg, "seed"));
    free(text);
    kemet_game_free(g);
    kemet_rules_close(other);
    kemet_rules_close(r);
}

/* The chooser is asked at every decision, and an answer out of range is
 * refused without a change. */
static int pick_first(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                      const kemet_move *moves, int n) {
    (void)pos;
    (void)moves;
    int *asked = ctx;
    asked[thr ? 1 : 0]++;
    assert_true(thr ? n >= 1 : n >= 0);
    return thr ? 0 : -1;
}
static int out_of_range(void *ctx, const kemet_pos *pos, const kemet_throw *thr,
                        const kemet_move *moves, int n) {
    (void)ctx;
    (void)pos;
    (void)thr;
    (void)moves;
    return n;
}

static void step_with(void **state) {
    (void)state;
    kemet_rules *r;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, NULL), KEMET_OK);
    kemet_game *g;
    assert_int_equal(kemet_game_new(r, 9, &g, NULL), KEMET_OK);
    kemet_move *scratch = malloc(KEMET_MAX_MOVES * sizeof *scratch);
    int asked[2] = {0, 0};
    for (int i = 0; i < 40; i++)
        assert_int_equal(
            kemet_game_step_with(g, pick_first, asked, scratch, NULL),
            KEMET_OK);
    /* each step a throw or a move: 20 of each */
    assert_int_equal(asked[0], 20);
    assert_int_equal(asked[1], 20);
    assert_int_equal(kemet_game_plies(g), 20);
    int next = kemet_game_next(g);
    long plies = kemet_game_plies(g);
    if (next == KEMET_NEXT_THROW)
        assert_int_equal(kemet_game_roll(g, NULL), KEMET_OK);
    assert_int_equal(kemet_game_step_with(g, out_of_range, NULL, scratch, NULL),
                     KEMET_EMISUSE);
    assert_int_equal(kemet_game_plies(g), plies);
    assert_int_equal(kemet_game_next(g), KEMET_NEXT_MOVE);
    free(scratch);
    kemet_game_free(g);
    kemet_rules_close(r);
}

/* Going back to the ply now being played keeps a throw that waits (the
 * dice stand where they stood); an agent of another ruleset is refused;
 * a playout ended by its cap stops the game, and nothing more is made. */
static void edges(void **state) {
    (void)state;
    kemet_rules *r, *other;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, NULL), KEMET_OK);
    assert_int_equal(kemet_rules_open("senet-robinson", &other, NULL), 0);
    kemet_game *g = random_game(r, 21, 9);
    if (kemet_game_next(g) == KEMET_NEXT_THROW)
        assert_int_equal(kemet_game_roll(g, NULL), KEMET_OK);
    kemet_throw waiting = *kemet_game_throw(g);
    long n = kemet_game_plies(g);
    assert_int_equal(kemet_game_resign(g, 1), KEMET_OK);
    assert_int_equal(kemet_game_back(g, n), KEMET_OK);
    assert_int_equal(kemet_game_resigned(g), 0);
    assert_int_equal(kemet_game_next(g), KEMET_NEXT_MOVE);
    assert_true(kemet_throw_equal(kemet_game_throw(g), &waiting));
    kemet_agent *a;
    assert_int_equal(kemet_agent_new(other, "greedy", 1, &a, NULL), 0);
    assert_int_equal(kemet_game_step(g, a, NULL), KEMET_EMISUSE);
    assert_int_equal(kemet_game_plies(g), n);
    kemet_agent_free(a);
    kemet_game_free(g);
    /* a playout stopped by its cap */
    kemet_rng pick;
    kemet_rng_seed(&pick, 2);
    assert_int_equal(kemet_game_new(r, 5, &g, NULL), KEMET_OK);
    assert_int_equal(kemet_game_playout(g, &pick, 3, 0), KEMET_OK);
    assert_int_equal(kemet_game_result(g), KEMET_PLAYING);
    assert_int_equal(kemet_game_stopped(g), 1);
    assert_int_equal(kemet_game_next(g), KEMET_NEXT_OVER);
    kemet_pos before = *kemet_game_pos(g);
    long plies = kemet_game_plies(g);
    kemet_move none = {0};
    kemet_game_make(g, &none);
    assert_true(same_pos(kemet_game_pos(g), &before));
    assert_int_equal(kemet_game_plies(g), plies);
    kemet_game_free(g);
    kemet_rules_close(other);
    kemet_rules_close(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_round_trip),
        cmocka_unit_test(take_back),
        cmocka_unit_test(resign),
        cmocka_unit_test(stop_and_setup),
        cmocka_unit_test(opening_throw_again),
        cmocka_unit_test(bad_records),
        cmocka_unit_test(step_with),
        cmocka_unit_test(edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
