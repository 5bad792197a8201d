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
                /* the evaluation's features alike (and so its networks) */
                double fa_f[KEMET_MAX_FEATURES], ge_f[KEMET_MAX_FEATURES];
                int nfa = kemet_eval_features(fa, &pos, fa_f);
                assert_int_equal(kemet_eval_features(ge, &pos, ge_f), nfa);
                for (int i = 0; i < nfa; i++)
                    if (fa_f[i] != ge_f[i])
                        fail_msg("%s: feature %d is %g on the fast one, %g",
                                 specs[k], i, fa_f[i], ge_f[i]);
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
    kemet_weight w[KEMET_MAX_THROWS], total;
    int nt = kemet_throws(r, pos, ts, w, &total);
    assert_true(nt > 0);
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
        int depth = strstr(specs[k], "jequier")    ? 6
                    : strstr(specs[k], "piccione") ? 5
                                                   : 3;
        long long a = perft(fa, &pos, depth, buf);
        long long b = perft(ge, &pos, depth, buf);
        if (a != b || a < 1000)
            fail_msg("%s: perft %d is %lld, the general one %lld", specs[k],
                     depth, a, b);
        kemet_rules_close(fa);
        kemet_rules_close(ge);
    }
    free(buf);
}

/* ---------------------------------------------------------------------------
 * New combinations, each a file in tests/rulesets written from
 * docs/rulesets.md alone, with positions and move sets worked by hand
 * from the parts' meanings and the rulings SP1-SP19 (docs/rulings.md)
 * ------------------------------------------------------------------------ */

static char *read_source(const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", KEMET_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

static kemet_rules *open_combo(const char *id) {
    char rel[128];
    snprintf(rel, sizeof rel, "tests/rulesets/%s.rules", id);
    char *text = read_source(rel);
    kemet_rules *r;
    kemet_error e;
    if (kemet_rules_open_text(text, NULL, NULL, &r, &e))
        fail_msg("%s: %s", id, e.msg);
    free(text);
    return r;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The moves for `thr` ("none": before the throw) in `pos` (the ruleset's
 * id first), sorted by text, space-separated. */
static void expect_moves(const kemet_rules *r, const char *pos, const char *thr,
                         const char *want) {
    kemet_pos p;
    kemet_error e;
    if (kemet_pos_read(r, pos, &p, &e))
        fail_msg("'%s': %s", pos, e.msg);
    kemet_move *list = malloc(KEMET_MAX_MOVES * sizeof *list);
    assert_non_null(list);
    int n;
    char *text[256];
    char got[4096] = "";
    if (strcmp(thr, "none") == 0) {
        n = kemet_prethrow(r, &p, list);
        text[0] = strdup("throw");
        for (int i = 0; i < n; i++) {
            text[i + 1] = malloc(64);
            kemet_move_format(&list[i], text[i + 1], 64);
        }
        n++;
    } else {
        kemet_throw t;
        assert_int_equal(kemet_throw_parse(r, thr, &t, &e), KEMET_OK);
        n = kemet_moves(r, &p, &t, list);
        assert_true(n > 0 && n < 256);
        for (int i = 0; i < n; i++) {
            text[i] = malloc(64);
            kemet_move_format(&list[i], text[i], 64);
        }
    }
    qsort(text, (size_t)n, sizeof text[0], cmp_str);
    for (int i = 0; i < n; i++) {
        strcat(got, i ? " " : "");
        strcat(got, text[i]);
        free(text[i]);
    }
    if (strcmp(got, want) != 0)
        fail_msg("'%s' throw %s: moves '%s', want '%s'", pos, thr, got, want);
    free(list);
}

static void expect_apply(const kemet_rules *r, const char *pos, const char *thr,
                         const char *move, const char *want) {
    kemet_pos p, q;
    kemet_throw t;
    kemet_move m;
    kemet_error e;
    if (kemet_pos_read(r, pos, &p, &e))
        fail_msg("'%s': %s", pos, e.msg);
    assert_int_equal(kemet_throw_parse(r, thr, &t, &e), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, move, &m, &e), KEMET_OK);
    if (kemet_apply(r, &p, &t, &m, &q, NULL))
        fail_msg("'%s' %s %s: refused", pos, thr, move);
    char got[512];
    kemet_pos_format(r, &q, got, sizeof got);
    if (strcmp(got, want) != 0)
        fail_msg("'%s' %s %s: '%s', want '%s'", pos, thr, move, got, want);
}

static void expect_why(const kemet_rules *r, const char *pos, const char *thr,
                       const char *move, const char *words) {
    kemet_pos p;
    kemet_throw t;
    kemet_move m;
    kemet_error e;
    assert_int_equal(kemet_pos_read(r, pos, &p, &e), KEMET_OK);
    assert_int_equal(kemet_throw_parse(r, thr, &t, &e), KEMET_OK);
    assert_int_equal(kemet_move_parse(r, move, &m, &e), KEMET_OK);
    char why[256] = "";
    assert_int_equal(kemet_explain(r, &p, &t, &m, why, sizeof why), 1);
    if (!strstr(why, words))
        fail_msg("'%s' %s %s: '%s', want '%s'", pos, thr, move, why, words);
}

/* Kendall's Senet with Jéquier's block of three (SP5). */
static void kendall_block(void **state) {
    (void)state;
    kemet_rules *r = open_combo("parts-kendall-block");
    const char *a = "parts-kendall-block to=1 p1=10 p2=12,13,14";
    /* 10-15 passes 12-13-14: no forward move, so back (K7) */
    expect_moves(r, a, "5", "10-5");
    /* 10-14 lands on a protected piece; it does not pass the block */
    expect_moves(r, a, "4", "10-6");
    expect_moves(r, a, "1", "10-11");
    expect_why(r, a, "5", "10-15", "would pass three Black pieces in a row");
    expect_moves(r, "parts-kendall-block to=1 p1=3,10 p2=12,13,14", "5", "3-8");
    /* the stop square is reached through the block: barred */
    expect_moves(r, "parts-kendall-block to=1 p1=21 p2=22,23,24", "5", "21-16");
    /* bearing off from 26 with the 5 passes 27-28-29 (SP5: off is 31) */
    expect_moves(r, "parts-kendall-block to=1 p1=26 p2=27,28,29", "5", "26-21");
    kemet_rules_close(r);
}

/* Kendall's Senet where a 5 no longer throws again (SP15). */
static void kendall_again14(void **state) {
    (void)state;
    kemet_rules *r = open_combo("parts-kendall-again14");
    const char *a = "parts-kendall-again14 to=1 p1=3 p2=20";
    expect_moves(r, a, "5", "3-8");
    expect_apply(r, a, "5", "3-8", "parts-kendall-again14 to=2 p1=8 p2=20");
    expect_apply(r, a, "4", "3-7", "parts-kendall-again14 to=1 p1=7 p2=20");
    expect_apply(r, a, "1", "3-4", "parts-kendall-again14 to=1 p1=4 p2=20");
    /* a piece in the water still ends the turn, even after a 1 (SP3) */
    expect_apply(r, "parts-kendall-again14 to=1 p1=26 p2=20", "1", "26-27",
                 "parts-kendall-again14 to=2 p1=27 p2=20");
    kemet_rules_close(r);
}

/* Jéquier's Senet with Kendall's swap (SP4). */
static void jequier_swap(void **state) {
    (void)state;
    kemet_rules *r = open_combo("parts-jequier-swap");
    kemet_pos p;
    kemet_start(r, &p);
    char text[256];
    kemet_pos_format(r, &p, text, sizeof text);
    assert_string_equal(text,
                        "parts-jequier-swap to=2 p1=1,3,5,7,9 p2=2,4,6,8,11");
    const char *a = "parts-jequier-swap to=1 p1=5,12 p2=14,20";
    expect_moves(r, a, "2", "12-14 5-7");
    /* the hit piece goes to 12, where the hitter came from, not to the
       first empty square (1) */
    expect_apply(r, a, "2", "12-14",
                 "parts-jequier-swap to=2 p1=5,14 p2=12,20");
    /* on 20 a piece is safe; a backward move ends on an empty square */
    expect_moves(r, "parts-jequier-swap to=1 p1=18 p2=20,24", "2", "18-16");
    kemet_rules_close(r);
}

/* Bell's Senet with Kendall's pairs (SP6). */
static void bell_pairs(void **state) {
    (void)state;
    kemet_rules *r = open_combo("parts-bell-pairs");
    const char *a = "parts-bell-pairs to=1 p1=10 p2=12,13";
    expect_moves(r, a, "2", "pass");
    expect_moves(r, a, "3", "pass");
    expect_moves(r, a, "4", "10-14");
    expect_why(r, a, "2", "10-12", "protected by its neighbour on 13");
    /* a lone piece is still captured for good; the game goes on while a
       piece is in play (SP11, BL8) */
    expect_apply(r, "parts-bell-pairs to=1 p1=10 p2=12", "2", "10-12",
                 "parts-bell-pairs to=2 p1=12 p2=-");
    kemet_rules_close(r);
}

/* Piccione's shared-out throws with Kendall's swap and pairs (SP8). */
static void piccione_protect(void **state) {
    (void)state;
    kemet_rules *r = open_combo("parts-piccione-protect");
    const char *a = "parts-piccione-protect to=1 p1=3,10 h1=3 p2=5,12,13 h2=2";
    /* 3-5 hits the lone 5; 10-12 would hit a protected piece */
    expect_moves(r, a, "2", "10-11+3-4 3-5");
    expect_apply(r, a, "2", "3-5",
                 "parts-piccione-protect to=2 p1=5,10 h1=3 p2=3,12,13 h2=2");
    expect_why(r, a, "2", "10-12", "protected by its neighbour on 13");
    /* the front piece first: 5-7 sends the piece on 7 to 5, then 3-5 hits
       it again and sends it to 3 */
    const char *b = "parts-piccione-protect to=1 p1=3,5 h1=3 p2=7 h2=4";
    expect_moves(r, b, "4", "3-7 5-7+3-5 5-8+3-4 5-9");
    expect_apply(r, b, "4", "3-5+5-7",
                 "parts-piccione-protect to=2 p1=5,7 h1=3 p2=3 h2=4");
    /* the entered piece's throw (must=1): the play moves it forward */
    expect_moves(r,
                 "parts-piccione-protect to=1 p1=1,4 h1=3 p2=2,3 h2=3 must=1",
                 "4", "1-5 4-5+1-4");
    kemet_rules_close(r);
}

/* Pieces in hand in Kendall's Senet (SP1, SP4). */
static void kendall_hand(void **state) {
    (void)state;
    kemet_rules *r = open_combo("parts-kendall-hand");
    kemet_pos p;
    kemet_start(r, &p);
    char text[256];
    kemet_pos_format(r, &p, text, sizeof text);
    assert_string_equal(text, "parts-kendall-hand to=1 p1=- h1=7 p2=- h2=7");
    expect_moves(r, text, "2", "pass");
    const char *a = "parts-kendall-hand to=1 p1=3 h1=6 p2=2 h2=6";
    expect_moves(r, a, "1", "3-4 in-1");
    expect_apply(r, a, "1", "in-1",
                 "parts-kendall-hand to=1 p1=1,3 h1=5 p2=2 h2=6");
    /* square 1 taken: no entry; the lone piece on 2 swaps with 1 */
    const char *b = "parts-kendall-hand to=1 p1=1,3 h1=5 p2=2 h2=6";
    expect_moves(r, b, "1", "1-2 3-4");
    expect_apply(r, b, "1", "1-2",
                 "parts-kendall-hand to=1 p1=2,3 h1=5 p2=1 h2=6");
    expect_why(r, b, "1", "in-1", "square 1 is taken");
    kemet_rules_close(r);
}

/* Bell's Senet with Kendall's water (SP3, SP10). */
static void bell_water(void **state) {
    (void)state;
    kemet_rules *r = open_combo("parts-bell-water");
    const char *a = "parts-bell-water to=1 p1=5,27 p2=10";
    expect_moves(r, a, "2", "pass");
    expect_moves(r, a, "4", "27-off");
    expect_moves(r, a, "none", "27-15 throw");
    expect_apply(r, a, "4", "27-off", "parts-bell-water to=2 p1=5 o1=1 p2=10");
    expect_why(r, a, "2", "5-7", "you may move no other piece");
    expect_apply(r, "parts-bell-water to=1 p1=24 p2=10", "3", "24-27",
                 "parts-bell-water to=2 p1=27 p2=10");
    /* the marked square's piece moves first, into the water */
    expect_moves(r, "parts-bell-water to=1 p1=10,26 p2=3", "1", "26-27");
    kemet_rules_close(r);
}

/* Kendall's Senet with Bell's captures: taking the last piece wins
 * (SP11). */
static void kendall_remove(void **state) {
    (void)state;
    kemet_rules *r = open_combo("parts-kendall-remove");
    expect_apply(r, "parts-kendall-remove to=1 p1=3 p2=5", "2", "3-5",
                 "parts-kendall-remove to=2 p1=5 p2=- winner=1");
    expect_apply(r, "parts-kendall-remove to=1 p1=3,9 p2=5,20", "2", "3-5",
                 "parts-kendall-remove to=2 p1=5,9 p2=20");
    /* the last piece taken in the water: the win, and the water ends the
       turn all the same (SP3, SP11: `to` as the turn rules give) */
    expect_apply(r, "parts-kendall-remove to=1 p1=26 p2=27", "1", "26-27",
                 "parts-kendall-remove to=2 p1=27 p2=- winner=1");
    kemet_rules_close(r);
}

/* Five pieces written as a part play as Kendall's option pieces=5: the
 * same start and the same game tree, on both generators. */
static void kendall_five(void **state) {
    (void)state;
    kemet_rules *a = open_combo("parts-kendall-five"), *b, *g;
    char *text = read_source("tests/rulesets/parts-kendall-five.rules");
    kemet_error e;
    assert_int_equal(kemet_rules_open("senet-kendall:pieces=5", &b, &e), 0);
    assert_int_equal(kmt_rules_open_generic(text, "parts-kendall-five", &g, &e),
                     0);
    free(text);
    kemet_pos pa, pb;
    kemet_start(a, &pa);
    kemet_start(b, &pb);
    assert_memory_equal(&pa, &pb, sizeof pa);
    kemet_move *buf = malloc(6 * KEMET_MAX_MOVES * sizeof *buf);
    assert_non_null(buf);
    long long na = perft(a, &pa, 4, buf), nb = perft(b, &pb, 4, buf),
              ng = perft(g, &pa, 4, buf);
    assert_true(na == nb);
    assert_true(ng == nb);
    free(buf);
    kemet_rules_close(a);
    kemet_rules_close(b);
    kemet_rules_close(g);
}

/* The new combinations' game trees, pinned (depth 4 from the start, and
 * from a position where their own part matters), counted on the general
 * generator; and each file opened on it gives the same count. */
static void combos_perft(void **state) {
    (void)state;
    static const struct {
        const char *id, *pos;
        int depth;
        long long count;
    } pin[] = {
        {"parts-kendall-block", NULL, 4, 142499},
        {"parts-kendall-block", "to=1 p1=10,21 p2=12,13,14,22,23,24", 5,
         177311},
        {"parts-kendall-again14", NULL, 4, 131227},
        {"parts-jequier-swap", NULL, 4, 944},
        {"parts-jequier-swap", "to=1 p1=5,12,16 p2=14,17,20", 5, 324264},
        {"parts-bell-pairs", NULL, 4, 175427},
        {"parts-piccione-protect", NULL, 6, 22895},
        {"parts-piccione-protect", "to=1 p1=3,5,9 h1=2 p2=7,10 h2=3", 4,
         1578258},
        {"parts-kendall-five", NULL, 4, 61562},
        {"parts-kendall-hand", NULL, 6, 22621},
        {"parts-bell-water", NULL, 4, 277473},
        {"parts-bell-water", "to=1 p1=5,22,24,27 p2=10,26", 5, 6781},
        {"parts-kendall-remove", NULL, 4, 227597},
        {"parts-kendall-remove", "to=1 p1=3,9,20 p2=5,11,24", 5, 308672},
    };
    kemet_move *buf = malloc(8 * KEMET_MAX_MOVES * sizeof *buf);
    assert_non_null(buf);
    for (size_t i = 0; i < sizeof pin / sizeof pin[0]; i++) {
        kemet_rules *r = open_combo(pin[i].id);
        kemet_pos p;
        if (pin[i].pos) {
            char text[256];
            snprintf(text, sizeof text, "%s %s", pin[i].id, pin[i].pos);
            assert_int_equal(kemet_pos_read(r, text, &p, NULL), KEMET_OK);
        } else {
            kemet_start(r, &p);
        }
        long long n = perft(r, &p, pin[i].depth, buf);
        print_message("%s %d %lld %s\n", pin[i].id, pin[i].depth, n,
                      pin[i].pos ? pin[i].pos : "");
        if (n != pin[i].count)
            fail_msg("%s %s: perft %d is %lld, pinned %lld", pin[i].id,
                     pin[i].pos ? pin[i].pos : "", pin[i].depth, n,
                     pin[i].count);
        kemet_rules_close(r);
    }
    free(buf);
}

/* A small file of the family: the header, then `parts` (lines from 10). */
static char *small_file(const char *parts) {
    static const char head[] = "kemet-rules 1\n"
                               "id parts-small\n"
                               "family senet\n"
                               "title A small Senet\n"
                               "author the tests\n"
                               "about Parts meeting.\n"
                               "players White W Black B\n"
                               "text Parts meeting.\n"
                               "track 30 boustrophedon\n";
    size_t n = strlen(head) + strlen(parts) + 1;
    char *t = malloc(n);
    assert_non_null(t);
    snprintf(t, n, "%s%s", head, parts);
    return t;
}

static kemet_rules *open_small(const char *parts) {
    char *text = small_file(parts);
    kemet_rules *r;
    kemet_error e;
    if (kemet_rules_open_text(text, NULL, NULL, &r, &e))
        fail_msg("%s: %s", parts, e.msg);
    free(text);
    return r;
}

/* Combinations that cannot work, each refused on the line of the part
 * concerned with its reason (docs/rulesets.md, "Combinations that cannot
 * work"). */
static void combos_refused(void **state) {
    (void)state;
    static const struct {
        const char *parts;
        int line;
        const char *says;
    } bad[] = {
        {"pieces 5\nsetup in-hand\nfirst player-1\nthrow die 4\ncapture "
         "none\nbear-off exact\n",
         11, "no part enters them"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\ncapture "
         "none\nbear-off exact\nenter 1\n",
         16, "no piece is ever in hand"},
        {"pieces 5\nsetup in-hand\nfirst player-1\nthrow die 4\ncapture "
         "none\nbear-off exact\nenter 1 must-move\n",
         16, "with 'again ... enter'"},
        {"pieces 5\nsetup squares 1,27 2\nfirst player-1\nthrow die 4\n"
         "capture none\nbear-off exact\nwater 27 hand\nenter 1\n",
         11, "none starts there"},
        {"pieces 5\nsetup in-hand\nfirst one-takes-black\nthrow die 4\n"
         "capture none\nbear-off exact\nenter 1\nagain enter\n",
         12, "one-takes-black"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture none\nprotect pairs\nbear-off exact\n",
         15, "nothing is protected"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture none\nprotect marked 26 27\nbear-off exact\n",
         15, "only with 'vacate marked'"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nvacate marked\nbear-off exact\n",
         15, "needs marked squares"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture none\nbackward when-stuck empty\nbear-off exact\n",
         15, "drop 'empty'"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nbackward when-stuck to-water 28\nbear-off exact\n",
         15, "'to-water' needs the water"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nwater 27 15\nbackward when-stuck to-water 27\n"
         "bear-off exact\n",
         16, "cannot move 'to-water'"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nstop 26\ntrap\nbear-off exact\n",
         16, "'trap' drops a count"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nstop 15\nwater 27 15\nbear-off exact\n",
         16, "rescued onto the stop square"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nwater 27 hand\nenter 1\nbear-off 27:4 30:any\n",
         17, "none bears off from it"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nwater 27 15\nrethrow 27\nbear-off exact\n",
         16, "cannot rethrow"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nwater 27 15\nagain on 27\nbear-off exact\n",
         16, "gives no other throw"},
        {"pieces 5\nsetup in-hand\nfirst player-1\nthrow die 4\ncapture "
         "none\nenter 1 must-move\nagain enter\nrethrow 1\nbear-off "
         "exact\n",
         17, "cannot also rethrow"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nwait 5\nbear-off exact\n",
         15, "not a value the throw can have"},
        {"pieces 5\nsetup in-hand\nfirst player-1\nthrow sticks 2 "
         "blank=3\ncapture none\nenter 1\nbear-off 29:4\n",
         16, "the throw has no 4"},
        {"pieces 11\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nbear-off exact\n",
         10, "N from 1 to 10"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 7\n"
         "capture swap\nbear-off exact\n",
         13, "die N' (2-6 faces)"},
        {"pieces 5\nsetup alternate\nfirst player-1\nthrow die 4\n"
         "capture swap\nprotect safe 20 20\nbear-off exact\n",
         15, "square 20 is listed twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *text = small_file(bad[i].parts);
        kemet_rules *r = (kemet_rules *)1;
        kemet_error e;
        int rc = kemet_rules_open_text(text, NULL, NULL, &r, &e);
        char where[64];
        snprintf(where, sizeof where, "rules file line %d: ", bad[i].line);
        if (rc != KEMET_ESYNTAX || r != NULL ||
            strncmp(e.msg, where, strlen(where)) != 0 ||
            !strstr(e.msg, bad[i].says))
            fail_msg("case %zu: %d %s (want line %d, '%s')", i, rc,
                     rc ? e.msg : "accepted", bad[i].line, bad[i].says);
        free(text);
    }
}

/* Where parts meet: the rulings SP7, SP10, SP12, SP13, SP14 and SP17 on
 * small files, worked by hand. */
static void parts_meet(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_pos p;
    char text[256];
    /* SP13: waiting for a 1, and black's opening 1 already thrown */
    r = open_small("pieces 5\nsetup alternate\nfirst one-takes-black\n"
                   "throw sticks 4 blank=6\nwait 1\ncapture swap\n"
                   "bear-off exact\n");
    kemet_start(r, &p);
    kemet_pos_format(r, &p, text, sizeof text);
    assert_string_equal(text,
                        "parts-small to=2 p1=1,3,5,7,9 p2=2,4,6,8,11 wait=1");
    expect_moves(r, "parts-small to=1 p1=1,3 p2=12 wait=1", "2", "pass");
    /* (no `again`: the 1 passes the turn, the player out of waiting) */
    expect_apply(r, "parts-small to=1 p1=1,3 p2=12 wait=1", "1", "3-4",
                 "parts-small to=2 p1=1,4 p2=12");
    kemet_rules_close(r);
    /* SP12: points, three for each of the loser's pieces in hand */
    r = open_small("pieces 3\nsetup in-hand\nfirst player-1\n"
                   "throw die 4\nenter 1\ncapture remove\n"
                   "bear-off exact\nend points\n");
    assert_int_equal(
        kemet_pos_read(r, "parts-small to=1 p1=29 p2=3,15 h2=1", &p, NULL),
        KEMET_OK);
    expect_apply(r, "parts-small to=1 p1=29 p2=3,15 h2=1", "2", "29-off",
                 "parts-small to=2 p1=- p2=3,15 h2=1 winner=1");
    assert_int_equal(kemet_pos_read(r,
                                    "parts-small to=2 p1=- p2=3,15 h2=1 "
                                    "winner=1",
                                    &p, NULL),
                     KEMET_OK);
    assert_int_equal(kemet_points(r, &p), 3 + 2 + 3);
    kemet_rules_close(r);
    /* SP14: the last row needs every piece on 21-30, none in hand; a
       barred bearing off is no forward move, so the piece goes back */
    r = open_small("pieces 3\nsetup in-hand\nfirst player-1\n"
                   "throw die 4\nenter 1\ncapture swap\n"
                   "backward when-stuck\nbear-off any\n"
                   "bear-off-when last-row\n");
    expect_moves(r, "parts-small to=1 p1=28,29 h1=1 p2=5", "3", "28-25 29-26");
    expect_moves(r, "parts-small to=1 p1=28,29 p2=5", "3", "28-off 29-off");
    kemet_rules_close(r);
    /* SP7: a rethrow with a shared-out throw moves that piece alone */
    r = open_small("pieces 3\nsetup alternate\nfirst player-1\n"
                   "throw die 4\ncapture none\nsplit different-pieces "
                   "whole\nbackward when-stuck\nrethrow 10\n"
                   "bear-off exact\n");
    expect_apply(r, "parts-small to=1 p1=1,7 p2=20", "3", "7-10",
                 "parts-small to=1 p1=1,10 p2=20 must=10");
    expect_moves(r, "parts-small to=1 p1=1,10 p2=20 must=10", "2", "10-12");
    /* ... backward for it alone when it has no forward move */
    expect_moves(r, "parts-small to=1 p1=1,10 p2=12 must=10", "2", "10-8");
    kemet_rules_close(r);
    /* SP7: two steps landing on rethrow squares: the first carried out
       (the front piece, SP8) gives the rethrow */
    r = open_small("pieces 3\nsetup alternate\nfirst player-1\n"
                   "throw die 6\ncapture none\nsplit different-pieces "
                   "whole\nrethrow 10 12\nbear-off exact\n");
    expect_apply(r, "parts-small to=1 p1=8,9 p2=20", "5", "9-12+8-10",
                 "parts-small to=1 p1=10,12 p2=20 must=12");
    kemet_rules_close(r);
    /* SP10: vacating marked squares binds plays too */
    r = open_small("pieces 3\nsetup alternate\nfirst player-1\n"
                   "throw die 4\nprotect marked 26 27 28 29\ncapture "
                   "remove\nvacate marked\nsplit different-pieces whole\n"
                   "bear-off exact\nend score\n");
    expect_moves(r, "parts-small to=1 p1=3,26 p2=10", "2", "26-27+3-4 26-28");
    kemet_rules_close(r);
    /* SP17: the trap with the water that sends to the first empty square */
    r = open_small("pieces 3\nsetup alternate\nfirst player-1\n"
                   "throw sticks 4 blank=5\ncapture swap\nstop 26\n"
                   "water 27 first-empty\ntrap\nbear-off exact\n");
    expect_moves(r, "parts-small to=1 p1=24 p2=1,2,25", "4", "24-27");
    expect_apply(r, "parts-small to=1 p1=24 p2=1,2,25", "4", "24-27",
                 "parts-small to=2 p1=3 p2=1,2,25");
    kemet_rules_close(r);
}

/* Games of every new combination with the engine's invariants checked at
 * every ply (kemet soak: notation round trips, apply = make = the driver,
 * legal moves explained as legal, pieces conserved, each game's end). */
static void combos_soak(void **state) {
    (void)state;
    char *out, *err;
    char dir[512], files[9][600];
    snprintf(dir, sizeof dir, "%s/tests/rulesets", KEMET_SOURCE_DIR);
    static const char *const ids[9] = {
        "parts-kendall-block",    "parts-kendall-again14",
        "parts-jequier-swap",     "parts-bell-pairs",
        "parts-piccione-protect", "parts-kendall-five",
        "parts-kendall-hand",     "parts-bell-water",
        "parts-kendall-remove"};
    for (int i = 0; i < 9; i++)
        snprintf(files[i], sizeof files[i], "%s/%s.rules", dir, ids[i]);
    int st = tu_run(NULL, &out, &err, "soak", files[0], files[1], files[2],
                    files[3], files[4], files[5], files[6], files[7], files[8],
                    "--plies", "90000", "--threads", "1", NULL);
    if (st != 0 || !strstr(out, "no invariant broken"))
        fail_msg("status %d: %s%s", st, out, err);
    for (int i = 0; i < 9; i++)
        assert_non_null(strstr(out, ids[i]));
    free(out);
    free(err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(games_agree),     cmocka_unit_test(playouts_agree),
        cmocka_unit_test(perft_agrees),    cmocka_unit_test(kendall_block),
        cmocka_unit_test(kendall_again14), cmocka_unit_test(jequier_swap),
        cmocka_unit_test(bell_pairs),      cmocka_unit_test(piccione_protect),
        cmocka_unit_test(kendall_hand),    cmocka_unit_test(bell_water),
        cmocka_unit_test(kendall_remove),  cmocka_unit_test(kendall_five),
        cmocka_unit_test(combos_perft),    cmocka_unit_test(combos_soak),
        cmocka_unit_test(combos_refused),  cmocka_unit_test(parts_meet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
