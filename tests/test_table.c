/* test_table.c - the exact endgame tables: values worked out by hand, values
 * against long simulations, the file format's refusals, thread
 * independence, and agents that follow the table.
 */
#include "testutil.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Solves the class of `pieces` for the ruleset of `spec`. */
static kemet_table *solve(const char *spec, int pieces, int threads,
                          kemet_rules **rules) {
    kemet_error err;
    assert_int_equal(kemet_rules_open(spec, rules, &err), KEMET_OK);
    kemet_table *t = NULL;
    int rc = kemet_table_solve(*rules, pieces, threads, NULL, NULL, &t, &err);
    if (rc)
        fail_msg("solve %s %d: %s", spec, pieces, err.msg);
    return t;
}

/* The table's chance for the player to move in the position `text`. */
static double probe(const kemet_table *t, const char *text) {
    kemet_rules *r;
    kemet_pos p;
    kemet_error err;
    if (kemet_pos_parse(text, &r, &p, &err))
        fail_msg("%s: %s", text, err.msg);
    double v = -1;
    if (!kemet_table_probe(t, &p, &v))
        fail_msg("not covered: %s", text);
    kemet_rules_close(r);
    return v;
}

/* Chien et Chacal, one piece each, worked out by hand. A piece on 29
 * leaves only with a 1 (4 in 16); other throws are lost. With both on 29
 * the mover wins with V = p + (1 - p)(1 - V), V = 1 / (2 - p) = 4/7.
 * Dogs on 28, Jackals on 29, Dogs to move: a 2 (6/16) takes the piece
 * off; a 1 (4/16) puts it on 29, where Jackals move in the 29/29 race
 * (Dogs then win 1 - 4/7); 3, 4, 5 are lost, and Jackals, to move, win
 * with b = 4/16 + 12/16 (1 - a). So a = 3/8 + 1/4 * 3/7 + 3/8 (1 - b),
 * b = 1 - 3a/4: a = 108/161, b = 80/161. */
static void test_hand_race(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_table *t = solve("chien-chacal", 1, 1, &r);
    assert_true(fabs(probe(t, "chien-chacal to=1 p1=29 p2=29") - 4.0 / 7) <
                2e-5);
    assert_true(fabs(probe(t, "chien-chacal to=2 p1=29 p2=29") - 4.0 / 7) <
                2e-5);
    assert_true(fabs(probe(t, "chien-chacal to=1 p1=28 p2=29") - 108.0 / 161) <
                2e-5);
    assert_true(fabs(probe(t, "chien-chacal to=2 p1=28 p2=29") - 80.0 / 161) <
                2e-5);
    /* Player 2 to move is the mirror image of player 1 to move. */
    assert_true(fabs(probe(t, "chien-chacal to=2 p1=29 p2=28") - 108.0 / 161) <
                2e-5);
    kemet_table_free(t);
    kemet_rules_close(r);
}

/* Senet: White on 29 bears off only with a 2 (6 in 16); any other throw
 * sends the piece back into the water (K5, K7), and Black on 30 bears off
 * with anything. */
static void test_hand_senet(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_table *t = solve("senet-kendall", 1, 2, &r);
    assert_true(fabs(probe(t, "senet-kendall to=1 p1=29 p2=30") - 6.0 / 16) <
                2e-5);
    assert_true(fabs(probe(t, "senet-kendall to=2 p1=29 p2=30") - 1.0) < 2e-5);
    kemet_table_free(t);
    kemet_rules_close(r);
}

/* A one-piece table of `spec` against the values `want` of positions
 * `pos` that an independent solver gave. */
typedef struct ref_value {
    const char *pos;
    double want;
} ref_value;

static void check_one_piece(const char *spec, const ref_value *cases,
                            size_t n) {
    kemet_rules *r;
    kemet_table *t = solve(spec, 1, 2, &r);
    for (size_t i = 0; i < n; i++) {
        double v = probe(t, cases[i].pos);
        if (fabs(v - cases[i].want) > 2e-5)
            fail_msg("%s: table %.6f, reference %.6f", cases[i].pos, v,
                     cases[i].want);
    }
    kemet_table_free(t);
    kemet_rules_close(r);
}

/* Jéquier's Senet, one piece a side: the values of an independent solver
 * written from the rules alone (`tests/jequier_ref.py value POSITION`,
 * value iteration over every one-piece position). White on 21 wins only
 * by throwing again up to the bearing off before Black, safe on 29,
 * throws (0.0155); Black to move there always wins (a 1 from 29 throws
 * again, from 30 any count bears off). */
static void test_jequier(void **state) {
    (void)state;
    static const ref_value cases[] = {
        {"senet-jequier to=1 p1=21 p2=29", 0.015470718},
        {"senet-jequier to=2 p1=21 p2=29", 1.0},
        {"senet-jequier to=1 p1=25 p2=26", 0.430073584},
        {"senet-jequier to=1 p1=5 p2=30", 0.000289098},
        {"senet-jequier to=2 p1=12 p2=18", 0.629445422},
    };
    check_one_piece("senet-jequier", cases, sizeof cases / sizeof cases[0]);
}

/* Piccione's Senet, one piece a side on the board or in hand, against the
 * independent solver of `tests/piccione_ref.py value POSITION`. By hand:
 * White on 29 bears off only with an exact 2 (6 in 16), Black on 30 with a
 * 1 (4 in 16), and nothing else moves, so V = a / (1 - (1 - a)(1 - b)) =
 * 12/17. */
static void test_piccione(void **state) {
    (void)state;
    static const ref_value cases[] = {
        {"senet-piccione to=1 p1=29 p2=30", 12.0 / 17},
        {"senet-piccione to=1 p1=- h1=1 p2=- h2=1", 0.516942802},
        {"senet-piccione to=1 p1=1 p2=12 must=1", 0.363442824},
        {"senet-piccione to=1 p1=24 p2=26", 0.318125397},
        {"senet-piccione to=2 p1=- h1=1 p2=20", 0.742198681},
    };
    check_one_piece("senet-piccione", cases, sizeof cases / sizeof cases[0]);
}

/* What the table does not cover: more pieces, a finished game, another
 * ruleset's table refused by kemet_judge_use_table. */
static void test_coverage(void **state) {
    (void)state;
    kemet_rules *r, *other;
    kemet_table *t = solve("chien-chacal", 1, 1, &r);
    kemet_pos p;
    kemet_rules *pr;
    kemet_error err;
    assert_int_equal(
        kemet_pos_parse("chien-chacal to=1 p1=20,29 p2=29", &pr, &p, &err),
        KEMET_OK);
    assert_int_equal(kemet_table_probe(t, &p, NULL), 0);
    kemet_rules_close(pr);
    assert_int_equal(
        kemet_pos_parse("chien-chacal to=2 p1=- p2=29 winner=1", &pr, &p, &err),
        KEMET_OK);
    assert_int_equal(kemet_table_probe(t, &p, NULL), 0);
    kemet_rules_close(pr);
    assert_int_equal(kemet_rules_open("dogs-jackals", &other, &err), KEMET_OK);
    kemet_judge *jo, *jr;
    assert_int_equal(kemet_judge_new(other, NULL, &jo, &err), KEMET_OK);
    assert_int_equal(kemet_judge_new(r, NULL, &jr, &err), KEMET_OK);
    assert_int_equal(kemet_judge_use_table(jo, t), KEMET_ERULESET);
    assert_null(kemet_judge_table(jo));
    assert_int_equal(kemet_judge_use_table(jr, t), KEMET_OK);
    assert_ptr_equal(kemet_judge_table(jr), t);
    kemet_judge_free(jo);
    kemet_judge_free(jr);
    kemet_rules_close(other);
    /* Rulesets without tables say why. */
    assert_int_equal(kemet_rules_open("lions-jackals", &other, &err), KEMET_OK);
    assert_int_equal(kemet_table_class(other, 2, NULL, &err), KEMET_ERULESET);
    assert_non_null(strstr(err.msg, "no endgame tables"));
    kemet_rules_close(other);
    assert_int_equal(kemet_table_class(r, 6, NULL, &err), KEMET_ERULESET);
    kemet_rules_close(r);
    kemet_table_free(t);
}

/* The player to move picks the move whose result the table values most;
 * the chance for the mover after a move, from the table. */
static double after(const kemet_rules *r, const kemet_table *t,
                    const kemet_pos *pos, const kemet_throw *thr,
                    const kemet_move *m) {
    kemet_pos c;
    kemet_make(r, pos, thr, m, &c, NULL);
    if (c.result != KEMET_PLAYING)
        return c.result == KEMET_DRAW ? 0.5 : c.result == pos->to ? 1 : 0;
    double v;
    assert_true(kemet_table_probe(t, &c, &v));
    return c.to == pos->to ? v : 1 - v;
}

static int table_choice(const kemet_rules *r, const kemet_table *t,
                        const kemet_pos *pos, const kemet_throw *thr,
                        const kemet_move *moves, int n, double *best) {
    int k = thr ? 0 : -1;
    *best = -1;
    for (int i = 0; i < n; i++) {
        double v = after(r, t, pos, thr, &moves[i]);
        if (v > *best) {
            *best = v;
            k = i;
        }
    }
    return k;
}

/* Games played from a position with both sides following the table end
 * as often in a win as the table says (within four standard errors). */
static void test_simulation(void **state) {
    (void)state;
    static const char *const start[] = {
        "senet-kendall to=1 p1=20,24 p2=22,26",
        "senet-kendall to=2 p1=27,28 p2=13,29",
        "dogs-jackals to=1 p1=25,30 p2=23,28",
        "hounds-jackals-skiryuk to=1 p1=3 h1=1 p2=9 h2=1",
        "senet-jequier to=1 p1=22,25 p2=24,28",
        "senet-piccione to=1 p1=18 h1=1 p2=22,25",
        "hounds-jackals-carter to=1 p1=12,22 p2=15,26",
    };
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    assert_non_null(moves);
    for (size_t s = 0; s < sizeof start / sizeof start[0]; s++) {
        kemet_rules *r;
        kemet_pos p0;
        kemet_error err;
        if (kemet_pos_parse(start[s], &r, &p0, &err))
            fail_msg("%s: %s", start[s], err.msg);
        kemet_table *t;
        assert_int_equal(kemet_table_solve(r, 2, 2, NULL, NULL, &t, &err),
                         KEMET_OK);
        double want;
        assert_true(kemet_table_probe(t, &p0, &want));
        kemet_rng rng;
        kemet_rng_seed(&rng, 7 + s);
        const int games = 20000;
        int wins = 0;
        for (int g = 0; g < games; g++) {
            kemet_pos p = p0;
            for (int ply = 0; p.result == KEMET_PLAYING && ply < 100000;
                 ply++) {
                double v, tv;
                int k = kemet_prethrow(r, &p, moves);
                if (k > 0) {
                    int i = table_choice(r, t, &p, NULL, moves, k, &v);
                    assert_true(kemet_table_probe(t, &p, &tv));
                    if (v > tv - 1e-4 && i >= 0) {
                        kemet_make(r, &p, NULL, &moves[i], &p, NULL);
                        continue;
                    }
                }
                kemet_throw thr;
                kemet_roll(r, &p, &rng, &thr);
                k = kemet_moves(r, &p, &thr, moves);
                int i = table_choice(r, t, &p, &thr, moves, k, &v);
                kemet_make(r, &p, &thr, &moves[i], &p, NULL);
            }
            wins += p.result == p0.to;
        }
        double got = (double)wins / games;
        double se = sqrt(want * (1 - want) / games);
        if (fabs(got - want) > 4 * se + 1e-4)
            fail_msg("%s: table %.4f, simulated %.4f", start[s], want, got);
        kemet_table_free(t);
        kemet_rules_close(r);
    }
    free(moves);
}

/* The same table on one thread and on three. */
static void test_threads(void **state) {
    (void)state;
    kemet_rules *r1, *r3;
    kemet_table *a = solve("senet-robinson", 2, 1, &r1);
    kemet_table *b = solve("senet-robinson", 2, 3, &r3);
    char pa[] = "/tmp/kemet-test-XXXXXX", pb[] = "/tmp/kemet-test-XXXXXX";
    int fa = mkstemp(pa), fb = mkstemp(pb);
    assert_true(fa >= 0 && fb >= 0);
    close(fa);
    close(fb);
    kemet_error err;
    assert_int_equal(kemet_table_save(a, pa, &err), KEMET_OK);
    assert_int_equal(kemet_table_save(b, pb, &err), KEMET_OK);
    FILE *f = fopen(pa, "rb"), *g = fopen(pb, "rb");
    assert_true(f && g);
    long n = 0;
    int c, d;
    do {
        c = fgetc(f);
        d = fgetc(g);
        assert_int_equal(c, d);
        n++;
    } while (c != EOF);
    assert_true(n > 184);
    fclose(f);
    fclose(g);
    remove(pa);
    remove(pb);
    kemet_table_free(a);
    kemet_table_free(b);
    kemet_rules_close(r1);
    kemet_rules_close(r3);
}

/* A solve shared among processes (kemet_table_solve_parts), here three
 * threads standing for them, joining their shares through memory: each
 * gets the table one process makes. */
typedef struct meeting {
    pthread_barrier_t bar;
    const void *mine[3];
    int fail_at; /* a part whose exchanges fail, or -1 */
} meeting;
typedef struct member {
    meeting *M;
    int part;
    const kemet_rules *r;
    kemet_table *t;
    int rc;
} member;

static int join3(void *ctx, const void *mine, void *all, size_t size,
                 const long *counts) {
    member *P = ctx;
    meeting *M = P->M;
    M->mine[P->part] = mine;
    pthread_barrier_wait(&M->bar);
    size_t at = 0;
    for (int p = 0; p < 3; p++) {
        memcpy((char *)all + at, M->mine[p], (size_t)counts[p] * size);
        at += (size_t)counts[p] * size;
    }
    pthread_barrier_wait(&M->bar);
    /* a failed exchange fails in every process */
    return M->fail_at >= 0 ? -1 : 0;
}

static void *solve_part(void *arg) {
    member *P = arg;
    kemet_table_parts parts = {3, P->part, join3, P};
    kemet_error err;
    P->rc =
        kemet_table_solve_parts(P->r, 2, 2, &parts, NULL, NULL, &P->t, &err);
    return NULL;
}

static void test_parts(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_table *alone = solve("dogs-jackals", 2, 1, &r);
    for (int fail_at = -1; fail_at <= 0; fail_at++) {
        meeting M = {.fail_at = fail_at};
        pthread_barrier_init(&M.bar, NULL, 3);
        member P[3];
        pthread_t tid[3];
        for (int i = 0; i < 3; i++) {
            P[i] = (member){.M = &M, .part = i, .r = r};
            assert_int_equal(pthread_create(&tid[i], NULL, solve_part, &P[i]),
                             0);
        }
        for (int i = 0; i < 3; i++)
            pthread_join(tid[i], NULL);
        pthread_barrier_destroy(&M.bar);
        for (int i = 0; i < 3; i++) {
            if (fail_at >= 0) {
                assert_int_not_equal(P[i].rc, KEMET_OK);
                assert_null(P[i].t);
                continue;
            }
            assert_int_equal(P[i].rc, KEMET_OK);
            kemet_table_info a, b;
            kemet_table_stats(alone, &a);
            kemet_table_stats(P[i].t, &b);
            assert_int_equal(a.sweeps, b.sweeps);
            assert_true(a.residual == b.residual);
            for (long long x = 0; x < a.entries; x += 7) {
                kemet_pos pos;
                if (!kemet_table_position(alone, x, &pos))
                    continue;
                double va, vb;
                assert_int_equal(kemet_table_probe(alone, &pos, &va),
                                 kemet_table_probe(P[i].t, &pos, &vb));
                assert_true(va == vb);
            }
            kemet_table_free(P[i].t);
        }
    }
    /* a part outside the parts */
    kemet_table_parts bad = {3, 3, join3, NULL};
    kemet_table *t = NULL;
    kemet_error err;
    assert_int_equal(
        kemet_table_solve_parts(r, 2, 1, &bad, NULL, NULL, &t, &err),
        KEMET_EMISUSE);
    assert_null(t);
    kemet_table_free(alone);
    kemet_rules_close(r);
}

static void write_bytes(const char *path, const unsigned char *b, long n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
}

/* A saved table loads back with the same values; a damaged, truncated,
 * foreign or other-version file is refused with a reason. */
static void test_file(void **state) {
    (void)state;
    kemet_rules *r, *other;
    kemet_table *t = solve("dogs-jackals", 1, 1, &r), *u;
    char path[] = "/tmp/kemet-test-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    kemet_error err;
    assert_int_equal(kemet_table_save(t, path, &err), KEMET_OK);
    assert_int_equal(kemet_table_load(r, path, &u, &err), KEMET_OK);
    kemet_table_info a, b;
    kemet_table_stats(t, &a);
    kemet_table_stats(u, &b);
    assert_int_equal(a.positions, b.positions);
    assert_true(fabs(probe(u, "dogs-jackals to=1 p1=30 p2=29") -
                     probe(t, "dogs-jackals to=1 p1=30 p2=29")) == 0);
    kemet_table_free(u);

    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char *buf = malloc((size_t)a.bytes + 16);
    assert_non_null(buf);
    assert_int_equal((long long)fread(buf, 1, (size_t)a.bytes + 16, f),
                     a.bytes);
    fclose(f);
    long n = (long)a.bytes;

    /* One entry changed: the checksum fails. */
    buf[200] ^= 1;
    write_bytes(path, buf, n);
    assert_int_equal(kemet_table_load(r, path, &u, &err), KEMET_ESYNTAX);
    assert_non_null(strstr(err.msg, "corrupt"));
    buf[200] ^= 1;
    /* Cut short. */
    write_bytes(path, buf, n - 10);
    assert_int_equal(kemet_table_load(r, path, &u, &err), KEMET_ESYNTAX);
    assert_non_null(strstr(err.msg, "truncated"));
    /* A header byte changed. */
    buf[130] ^= 4;
    write_bytes(path, buf, n);
    assert_int_equal(kemet_table_load(r, path, &u, &err), KEMET_ESYNTAX);
    buf[130] ^= 4;
    /* Another format version. */
    buf[8] = 2;
    write_bytes(path, buf, n);
    assert_int_equal(kemet_table_load(r, path, &u, &err), KEMET_ESYNTAX);
    assert_non_null(strstr(err.msg, "format 2"));
    buf[8] = 1;
    /* Not a table at all. */
    write_bytes(path, (const unsigned char *)"kemet-record 1\n", 15);
    assert_int_equal(kemet_table_load(r, path, &u, &err), KEMET_ESYNTAX);
    assert_non_null(strstr(err.msg, "not a kemet endgame table"));
    /* Another ruleset's rules. */
    write_bytes(path, buf, n);
    assert_int_equal(kemet_rules_open("dogs-jackals-extended", &other, &err),
                     KEMET_OK);
    assert_int_equal(kemet_table_load(other, path, &u, &err), KEMET_ERULESET);
    assert_non_null(strstr(err.msg, "not of dogs-jackals-extended"));
    kemet_rules_close(other);
    /* Intact again: loads. */
    assert_int_equal(kemet_table_load(r, path, &u, &err), KEMET_OK);
    kemet_table_free(u);
    assert_int_equal(kemet_table_load(r, "/nonexistent/x.kemettb", &u, &err),
                     KEMET_EIO);
    remove(path);
    free(buf);
    kemet_table_free(t);
    kemet_rules_close(r);
}

/* Both players are alike in every ruleset with tables: the mirror image of
 * a position (sides swapped, the other to move) has the same moves. */
static void test_mirror(void **state) {
    (void)state;
    static const char *const ids[] = {
        "senet-kendall",         "senet-robinson",         "dogs-jackals",
        "dogs-jackals-extended", "hounds-jackals-skiryuk", "chien-chacal"};
    kemet_move *a = malloc(KEMET_MAX_MOVES * sizeof *a);
    kemet_move *b = malloc(KEMET_MAX_MOVES * sizeof *b);
    assert_true(a && b);
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        kemet_rules *r;
        kemet_error err;
        assert_int_equal(kemet_rules_open(ids[i], &r, &err), KEMET_OK);
        kemet_game *g;
        assert_int_equal(kemet_game_new(r, 5 + i, &g, NULL), KEMET_OK);
        kemet_rng pick;
        kemet_rng_seed(&pick, 11);
        for (int ply = 0; ply < 400; ply++) {
            const kemet_pos *p = kemet_game_pos(g);
            if (p->result != KEMET_PLAYING)
                break;
            kemet_pos m = *p;
            m.sq[0] = p->sq[1];
            m.sq[1] = p->sq[0];
            m.heap[0] = p->heap[1];
            m.heap[1] = p->heap[0];
            m.hand[0] = p->hand[1];
            m.hand[1] = p->hand[0];
            m.to = (uint8_t)(3 - p->to);
            kemet_throw thr;
            if (!kemet_game_throw(g))
                assert_int_equal(kemet_game_roll(g, &thr), KEMET_OK);
            thr = *kemet_game_throw(g);
            int n = kemet_moves(r, p, &thr, a), k = kemet_moves(r, &m, &thr, b);
            assert_int_equal(n, k);
            for (int j = 0; j < n; j++)
                assert_true(kemet_move_equal(&a[j], &b[j]));
            kemet_game_make(g, &a[kemet_rng_below(&pick, (uint32_t)n)]);
        }
        kemet_game_free(g);
        kemet_rules_close(r);
    }
    free(a);
    free(b);
}

/* With the table in use, the search agents choose a move the table rates
 * best, and rank every move with the table's exact chance. */
static void test_agents_follow(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_table *t = solve("chien-chacal", 2, 2, &r);
    kemet_judge *j;
    assert_int_equal(kemet_judge_new(r, NULL, &j, NULL), KEMET_OK);
    assert_int_equal(kemet_judge_use_table(j, t), KEMET_OK);
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    assert_non_null(moves);
    static const char *const specs[] = {"expectimax:d1", "expectimax:2k",
                                        "best:5k", "mcts:300"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        kemet_agent *a;
        kemet_error err;
        assert_int_equal(kemet_agent_new_judged(j, specs[s], 3, &a, &err),
                         KEMET_OK);
        kemet_rng rng;
        kemet_rng_seed(&rng, 99);
        int choices = 0;
        for (int trial = 0; choices < 60 && trial < 5000; trial++) {
            /* A random position of the class, and a throw. */
            kemet_pos p = {0};
            for (int side = 0; side < 2; side++) {
                int k = 1 + (int)kemet_rng_below(&rng, 2);
                while (__builtin_popcountll(p.sq[side]) < k)
                    p.sq[side] |= (uint64_t)1
                                  << (1 + kemet_rng_below(&rng, 29));
            }
            p.to = (uint8_t)(1 + kemet_rng_below(&rng, 2));
            if (kemet_pos_check(r, &p, NULL) != KEMET_OK ||
                !kemet_table_probe(t, &p, NULL))
                continue;
            kemet_throw thr;
            kemet_roll(r, &p, &rng, &thr);
            int n = kemet_moves(r, &p, &thr, moves);
            if (n < 2)
                continue;
            double best, chance[64];
            table_choice(r, t, &p, &thr, moves, n, &best);
            int i = kemet_agent_choose(a, &p, &thr, moves, n);
            if (after(r, t, &p, &thr, &moves[i]) < best - 1e-9)
                fail_msg("%s chose a move worth %.4f, not %.4f", specs[s],
                         after(r, t, &p, &thr, &moves[i]), best);
            kemet_agent_rank(a, &p, &thr, moves, n, chance, NULL);
            for (int k = 0; k < n && k < 64; k++)
                assert_true(fabs(chance[k] - after(r, t, &p, &thr, &moves[k])) <
                            1e-9);
            choices++;
        }
        assert_int_equal(choices, 60);
        kemet_agent_free(a);
    }
    free(moves);
    kemet_judge_free(j);
    kemet_rules_close(r);
    kemet_table_free(t);
}

/* The judge's chain: a finished game is exact; where the table covers a
 * position its value, exact; elsewhere the race database (near-exact,
 * not marked), then the evaluation. kemet_win_chance and
 * kemet_judge_chance agree, from either side. */
static void test_judge_chain(void **state) {
    (void)state;
    kemet_rules *r;
    kemet_table *t = solve("chien-chacal", 1, 1, &r);
    kemet_race *race;
    kemet_error err;
    assert_int_equal(kemet_race_solve(r, &race, &err), KEMET_OK);
    kemet_judge *j;
    assert_int_equal(kemet_judge_new(r, "bogus", &j, &err), KEMET_ESYNTAX);
    assert_null(j);
    assert_int_equal(kemet_judge_new(r, NULL, &j, &err), KEMET_OK);
    assert_ptr_equal(kemet_judge_rules(j), r);
    kemet_pos p;
    assert_int_equal(
        kemet_pos_read(r, "chien-chacal to=2 p1=- p2=29 winner=1", &p, &err),
        KEMET_OK);
    int exact = 0;
    assert_true(kemet_judge_chance(j, &p, &exact) == 1 && exact == 1);
    assert_true(kemet_win_chance(j, &p, 2) == 0);
    /* one piece each: the table's class */
    assert_int_equal(
        kemet_pos_read(r, "chien-chacal to=2 p1=20 p2=25", &p, &err), KEMET_OK);
    double eval = kemet_judge_chance(j, &p, &exact);
    assert_int_equal(exact, 0);
    double v;
    assert_true(kemet_table_probe(t, &p, &v));
    assert_int_equal(kemet_judge_use_race(j, race), KEMET_OK);
    assert_int_equal(kemet_judge_use_table(j, t), KEMET_OK);
    assert_true(kemet_judge_chance(j, &p, &exact) == 1 - v && exact == 1);
    assert_true(kemet_win_chance(j, &p, 2) == v);
    assert_true(kemet_win_chance(j, &p, 1) == 1 - v);
    assert_true(fabs(eval - (1 - v)) > 1e-9); /* the table changed it */
    /* two pieces a side: beyond the table, the race database answers */
    assert_int_equal(
        kemet_pos_read(r, "chien-chacal to=1 p1=20,27 p2=25,29", &p, &err),
        KEMET_OK);
    double rv;
    assert_true(kemet_race_probe(race, &p, &rv));
    assert_true(kemet_judge_chance(j, &p, &exact) == rv && exact == 0);
    /* a plain judge uses neither */
    kemet_judge *plain;
    assert_int_equal(kemet_judge_new(r, "plain", &plain, &err), KEMET_OK);
    assert_int_equal(kemet_judge_use_table(plain, t), KEMET_OK);
    assert_null(kemet_judge_table(plain));
    assert_null(kemet_judge_net(plain));
    assert_true(kemet_judge_chance(plain, &p, &exact) != rv && exact == 0);
    kemet_judge_free(plain);
    kemet_judge_free(j);
    kemet_race_free(race);
    kemet_table_free(t);
    kemet_rules_close(r);
}

/* Runs kemet with the arguments; returns the status, fills out and err. */
#define RUN(out, err, ...) tu_run("", out, err, __VA_ARGS__, (char *)NULL)

/* kemet judge --json lists every position judged: the agent's move and
 * the exact-best one, each with its chance as the table gives it, the loss
 * and the margin of the best over the next; the random agent misses some. */
static void judge_items(const char *dir, const kemet_rules *r,
                        const kemet_table *t) {
    char *out, *err;
    assert_int_equal(RUN(&out, &err, "judge", "chien-chacal", "--agent",
                         "random", "--positions", "40", "--tables", dir,
                         "--json"),
                     0);
    double mean = -1;
    const char *p = strstr(out, "\"mean_loss\":");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "\"mean_loss\":%lf", &mean), 1);
    int items = 0, missed = 0;
    double sum = 0;
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    assert_non_null(moves);
    for (p = strstr(out, "{\"position\":\""); p;
         p = strstr(p + 1, "{\"position\":\"")) {
        char text[256], throw_s[32], got_s[32], top_s[32], opt[8];
        double exact, best_exact, loss, margin, error;
        assert_int_equal(
            sscanf(p,
                   "{\"position\":\"%255[^\"]\",\"throw\":\"%31[^\"]\","
                   "\"move\":\"%31[^\"]\",\"exact\":%lf,\"best\":\"%31[^\"]\","
                   "\"best_exact\":%lf,\"loss\":%lf,\"margin\":%lf,"
                   "\"optimal\":%7[a-z],\"error\":%lf}",
                   text, throw_s, got_s, &exact, top_s, &best_exact, &loss,
                   &margin, opt, &error),
            10);
        kemet_rules *pr;
        kemet_pos pos;
        kemet_throw thr;
        kemet_move got, top;
        kemet_error e;
        assert_int_equal(kemet_pos_parse(text, &pr, &pos, &e), KEMET_OK);
        kemet_rules_close(pr);
        assert_int_equal(kemet_throw_parse(r, throw_s, &thr, &e), KEMET_OK);
        assert_int_equal(kemet_move_parse(r, got_s, &got, &e), KEMET_OK);
        assert_int_equal(kemet_move_parse(r, top_s, &top, &e), KEMET_OK);
        /* the chances are the table's; the best is the best of all moves */
        assert_true(fabs(after(r, t, &pos, &thr, &got) - exact) < 1e-5);
        assert_true(fabs(after(r, t, &pos, &thr, &top) - best_exact) < 1e-5);
        int n = kemet_moves(r, &pos, &thr, moves);
        assert_true(n >= 2);
        double second = -1;
        int at_best = 0;
        for (int i = 0; i < n; i++) {
            double v = after(r, t, &pos, &thr, &moves[i]);
            assert_true(v <= best_exact + 1e-5);
            if (fabs(v - best_exact) < 1e-5 && !at_best)
                at_best = 1;
            else if (v > second)
                second = v;
        }
        assert_true(fabs(best_exact - second - margin) < 2e-5);
        assert_true(fabs(best_exact - exact - loss) < 2e-5 && loss >= 0);
        assert_string_equal(opt, loss < 2e-5 ? "true" : "false");
        assert_true(error >= 0 && error <= 1);
        missed += loss >= 2e-5;
        sum += loss;
        items++;
    }
    free(moves);
    assert_int_equal(items, 40);
    assert_true(missed > 0);
    assert_true(fabs(sum / items - mean) < 1e-4);
    free(out);
    free(err);
}

/* kemet solve, hint and judge with a tables folder: the table found, the
 * chances marked exact and equal to the table's, a corrupt file named in
 * one line and passed over, bad options refused with status 2. */
static void test_commands(void **state) {
    (void)state;
    char dir[] = "/tmp/kemet-tables-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *out, *err;
    assert_int_equal(RUN(&out, &err, "solve", "lions-jackals", "--tables", dir),
                     2);
    assert_non_null(strstr(err, "no endgame tables"));
    free(out);
    free(err);
    assert_int_equal(RUN(&out, &err, "solve", "chien-chacal", "--pieces", "9"),
                     2);
    free(out);
    free(err);
    assert_int_equal(RUN(&out, &err, "solve", "chien-chacal", "--pieces", "1",
                         "--output", "/nonexistent/dir/x.kemettb"),
                     2);
    assert_non_null(strstr(err, "cannot write"));
    free(out);
    free(err);
    /* judge needs a table; one that takes long to make is not made on
     * first need. */
    assert_int_equal(
        RUN(&out, &err, "judge", "dogs-jackals-extended", "--tables", dir), 2);
    assert_non_null(strstr(err, "kemet solve"));
    free(out);
    free(err);
    /* A small one is made on first need, saved, and found the next time. */
    char dir2[] = "/tmp/kemet-tables-XXXXXX";
    assert_non_null(mkdtemp(dir2));
    char made[256];
    snprintf(made, sizeof made, "%s/senet-robinson.2.kemettb", dir2);
    for (int run = 0; run < 2; run++) {
        assert_int_equal(RUN(&out, &err, "hint",
                             "senet-robinson to=1 p1=20,27 "
                             "p2=25,28",
                             "2", "--tables", dir2),
                         0);
        assert_non_null(strstr(out, "exact"));
        if (run == 0) {
            assert_non_null(strstr(err, "made the endgame table of "
                                        "senet-robinson, 2 pieces a side"));
            assert_non_null(strstr(err, made));
        } else {
            assert_string_equal(err, "");
        }
        free(out);
        free(err);
    }
    remove(made);
    rmdir(dir2);
    assert_int_equal(RUN(&out, &err, "solve", "chien-chacal", "--pieces", "2",
                         "--tables", dir),
                     0);
    char path[256];
    snprintf(path, sizeof path, "%s/chien-chacal.2.kemettb", dir);
    assert_non_null(strstr(out, path));
    free(out);
    free(err);

    /* hint: each chance is the table's, marked exact. */
    const char *pos = "chien-chacal to=1 p1=20,27 p2=29";
    assert_int_equal(
        RUN(&out, &err, "hint", pos, "2", "--json", "--tables", dir), 0);
    kemet_rules *r;
    kemet_pos p;
    kemet_error e;
    assert_int_equal(kemet_pos_parse(pos, &r, &p, &e), KEMET_OK);
    kemet_table *t;
    assert_int_equal(kemet_table_load(r, path, &t, &e), KEMET_OK);
    static const char *const mv[] = {"20-22", "27-29"};
    for (int i = 0; i < 2; i++) {
        kemet_move m;
        kemet_throw thr;
        assert_int_equal(kemet_move_parse(r, mv[i], &m, &e), KEMET_OK);
        assert_int_equal(kemet_throw_parse(r, "2", &thr, &e), KEMET_OK);
        double want = after(r, t, &p, &thr, &m);
        char item[128];
        snprintf(item, sizeof item,
                 "{\"move\":\"%s\",\"win\":%.4f,\"exact\":true}", mv[i], want);
        if (!strstr(out, item))
            fail_msg("%s not in %s", item, out);
    }
    free(out);
    free(err);
    /* greedy does not read the table: its estimates are not marked exact
     * even where the table covers the position (they once were). */
    assert_int_equal(RUN(&out, &err, "hint", pos, "2", "--json", "--agent",
                         "greedy", "--tables", dir),
                     0);
    assert_null(strstr(out, "\"exact\":true"));
    assert_non_null(strstr(out, "\"exact\":false"));
    free(out);
    free(err);
    /* Without tables: estimates, not marked exact. */
    assert_int_equal(RUN(&out, &err, "hint", pos, "2", "--tables", "off"), 0);
    assert_null(strstr(out, "exact"));
    free(out);
    free(err);
    /* on: the cache folder ($XDG_CACHE_HOME/kemet here), as with no
     * option, even where KEMET_TABLES says off; so too KEMET_TABLES=on. */
    char xdg[300], link[320];
    snprintf(xdg, sizeof xdg, "%s/xdg", dir);
    snprintf(link, sizeof link, "%s/kemet", xdg);
    assert_int_equal(mkdir(xdg, 0777), 0);
    assert_int_equal(symlink(dir, link), 0);
    const char *was = getenv("KEMET_TABLES"), *xwas = getenv("XDG_CACHE_HOME");
    char *saved = was ? strdup(was) : NULL,
         *xsaved = xwas ? strdup(xwas) : NULL;
    setenv("XDG_CACHE_HOME", xdg, 1);
    setenv("KEMET_TABLES", "off", 1);
    for (int env = 0; env < 2; env++) {
        if (env)
            setenv("KEMET_TABLES", "on", 1);
        int st =
            env ? RUN(&out, &err, "hint", pos, "2", "--json")
                : RUN(&out, &err, "hint", pos, "2", "--json", "--tables", "on");
        assert_int_equal(st, 0);
        assert_non_null(strstr(out, "\"exact\":true"));
        assert_string_equal(err, ""); /* found there, not made anew */
        free(out);
        free(err);
    }
    if (saved)
        setenv("KEMET_TABLES", saved, 1);
    else
        unsetenv("KEMET_TABLES");
    if (xsaved)
        setenv("XDG_CACHE_HOME", xsaved, 1);
    else
        unsetenv("XDG_CACHE_HOME");
    free(saved);
    free(xsaved);
    unlink(link);
    rmdir(xdg);
    /* judge: with the table the agent is exact. */
    assert_int_equal(RUN(&out, &err, "judge", "chien-chacal", "--agent",
                         "expectimax:d1", "--positions", "30", "--tables", dir,
                         "--json"),
                     0);
    assert_non_null(strstr(out, "\"optimal\":1.0000"));
    assert_non_null(strstr(out, "\"tables\":true"));
    free(out);
    free(err);

    judge_items(dir, r, t);

    /* A damaged file: named in one line, and the agents search instead. */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 1000, SEEK_SET);
    fputc(0x55, f);
    fclose(f);
    assert_int_equal(RUN(&out, &err, "hint", pos, "2", "--tables", dir), 0);
    assert_non_null(strstr(err, "endgame table not used"));
    assert_non_null(strstr(err, "corrupt"));
    assert_int_equal(strchr(err, '\n') - err + 1, (long)strlen(err));
    assert_null(strstr(out, "exact"));
    free(out);
    free(err);
    remove(path);
    rmdir(dir);
    kemet_table_free(t);
    kemet_rules_close(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_race),     cmocka_unit_test(test_hand_senet),
        cmocka_unit_test(test_jequier),       cmocka_unit_test(test_piccione),
        cmocka_unit_test(test_coverage),      cmocka_unit_test(test_simulation),
        cmocka_unit_test(test_threads),       cmocka_unit_test(test_parts),
        cmocka_unit_test(test_file),          cmocka_unit_test(test_mirror),
        cmocka_unit_test(test_agents_follow), cmocka_unit_test(test_commands),
        cmocka_unit_test(test_judge_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
