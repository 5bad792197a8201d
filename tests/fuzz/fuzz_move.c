/* fuzz_move.c - move and throw text (kemet_move_parse, kemet_throw_parse)
 * in a position some plies into a game. Input: a byte choosing the
 * ruleset, a byte for the number of plies played first, a byte for their
 * seed, then the text. A move that parses formats back to itself, and
 * kemet_explain and kemet_apply agree on whether it is legal; a throw that
 * parses formats back to itself and has legal moves.
 */
#include "fuzz.h"

static kemet_rules *rules[64];
static int nrules;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    nrules = fz_open_all(rules, 64);
    return 0;
}

static void check_move_text(const kemet_rules *r, const kemet_pos *pos,
                            const kemet_throw *thr, const char *text) {
    kemet_move m, back;
    kemet_error err;
    if (kemet_move_parse(r, text, &m, &err) != 0)
        return;
    char line[160], why[256];
    FZ_CHECK(kemet_move_format(&m, line, sizeof line) > 0);
    FZ_CHECK(kemet_move_parse(r, line, &back, &err) == 0);
    FZ_CHECK(kemet_move_equal(&m, &back));
    kemet_pos after;
    int illegal = kemet_explain(r, pos, thr, &m, why, sizeof why);
    int rc = kemet_apply(r, pos, thr, &m, &after, NULL);
    FZ_CHECK(illegal == (rc != 0));
    if (illegal)
        FZ_CHECK(why[0] != '\0' && strchr(why, '\n') == NULL);
    else
        FZ_CHECK(kemet_pos_check(r, &after, &err) == 0);
    if (thr) {
        kemet_move *next = malloc(KEMET_MAX_MOVES * sizeof *next);
        kemet_throw left;
        FZ_CHECK(next);
        int n = kemet_next_steps(r, pos, thr, &m, next, &left);
        FZ_CHECK(n >= 0 || n == KEMET_EILLEGAL);
        free(next);
    }
}

static void check_throw_text(const kemet_rules *r, const kemet_pos *pos,
                             const char *text) {
    kemet_throw t, back;
    kemet_error err;
    if (kemet_throw_parse(r, text, &t, &err) != 0)
        return;
    char line[64];
    FZ_CHECK(kemet_throw_format(&t, line, sizeof line) > 0);
    FZ_CHECK(kemet_throw_parse(r, line, &back, &err) == 0);
    FZ_CHECK(kemet_throw_equal(&t, &back));
    if (t.n == 0)
        return;
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    FZ_CHECK(moves);
    int n = kemet_moves(r, pos, &t, moves);
    /* a finished game has no moves: KEMET_EOVER, as documented */
    FZ_CHECK(pos->result != KEMET_PLAYING
                 ? n == KEMET_EOVER
                 : n >= 1 || n == KEMET_ETHROW || n == KEMET_ERANGE);
    for (int i = 0; i < n && i < 16; i++)
        FZ_CHECK(kemet_apply(r, pos, &t, &moves[i], &(kemet_pos){0}, NULL) ==
                 0);
    free(moves);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3 || size > 1024 || nrules == 0)
        return 0;
    const kemet_rules *r = rules[data[0] % nrules];
    kemet_game *game;
    if (kemet_game_new(r, data[2], &game, NULL))
        return 0;
    kemet_rng pick;
    kemet_rng_seed(&pick, data[2]);
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    FZ_CHECK(moves);
    for (int ply = 0; ply < data[1] % 64; ply++) {
        const kemet_pos *pos = kemet_game_pos(game);
        if (pos->result != KEMET_PLAYING)
            break;
        const kemet_throw *t = kemet_game_throw(game);
        kemet_throw thr;
        if (!t) {
            FZ_CHECK(kemet_game_roll(game, &thr) == 0);
            t = kemet_game_throw(game);
        }
        int n = kemet_moves(r, pos, t, moves);
        FZ_CHECK(n >= 1);
        FZ_CHECK(kemet_game_play(game,
                                 &moves[kemet_rng_below(&pick, (uint32_t)n)],
                                 NULL) == 0);
    }
    free(moves);
    kemet_pos pos = *kemet_game_pos(game);
    const kemet_throw *pt = kemet_game_throw(game);
    kemet_throw thr = pt ? *pt : (kemet_throw){0};
    if (!pt && pos.result == KEMET_PLAYING) {
        kemet_rng dice;
        kemet_rng_seed(&dice, data[1]);
        kemet_roll(r, &pos, &dice, &thr);
    }
    kemet_game_free(game);
    char *text = fz_text(data + 3, size - 3);
    if (pos.result == KEMET_PLAYING) {
        check_move_text(r, &pos, &thr, text);
        check_move_text(r, &pos, NULL, text);
    }
    check_throw_text(r, &pos, text);
    free(text);
    return 0;
}
