/* fuzz_board.c - board files (docs/boards.md) for the rulesets whose board
 * is a reconstruction. Input: a byte choosing the ruleset, then the file.
 * A board that is accepted gives a valid start position that round-trips
 * through its notation, a drawing, and games that play to an end or to
 * the turn limit without breaking an invariant.
 */
#include "fuzz.h"

static const char *const specs[] = {"hounds-jackals-washburne",
                                    "hounds-jackals-washburne-dice",
                                    "lions-jackals", "lions-jackals-quick"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 8192)
        return 0;
    const char *spec = specs[data[0] % (sizeof specs / sizeof specs[0])];
    char *text = fz_text(data + 1, size - 1);
    kemet_rules *r = NULL;
    kemet_error err;
    int rc = kemet_rules_open_board(spec, text, &r, &err);
    if (rc != 0) {
        FZ_CHECK(r == NULL && err.msg[0] && !strchr(err.msg, '\n'));
        free(text);
        return 0;
    }
    kemet_pos start;
    kemet_start(r, &start);
    fz_check_position(r, &start, 1);
    kemet_board_art *art = malloc(sizeof *art);
    FZ_CHECK(art);
    int holes = kemet_art(r, art);
    FZ_CHECK(holes == art->nholes);
    FZ_CHECK(art->nholes >= 1 && art->nholes <= KEMET_ART_HOLES);
    FZ_CHECK(art->nlinks >= 0 && art->nlinks <= KEMET_ART_LINKS);
    free(art);
    kemet_game *game;
    FZ_CHECK(kemet_game_new(r, 7, &game, NULL) == 0);
    kemet_rng pick;
    kemet_rng_seed(&pick, 7);
    kemet_game_playout(game, &pick, 200, 1);
    FZ_CHECK(kemet_pos_check(r, kemet_game_pos(game), &err) == 0);
    kemet_game_free(game);
    kemet_rules_close(r);
    free(text);
    return 0;
}
