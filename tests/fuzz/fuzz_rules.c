/* fuzz_rules.c - ruleset files (docs/rulesets.md). Input: the file. A file
 * that is refused says why in one line; a file that is accepted gives a
 * valid start position that round-trips through its notation, a drawing,
 * the same game by the fast playout and the step-by-step one, and games
 * that keep every invariant.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 16384)
        return 0;
    char *text = fz_text(data, size);
    kemet_rules *r = NULL;
    kemet_error err;
    int rc = kemet_rules_open_text(text, NULL, NULL, &r, &err);
    if (rc != 0) {
        FZ_CHECK(r == NULL && err.msg[0] && !strchr(err.msg, '\n'));
        FZ_CHECK(rc == KEMET_ESYNTAX || rc == KEMET_ERULESET ||
                 rc == KEMET_ENOMEM);
        free(text);
        return 0;
    }
    const kemet_info *info = kemet_rules_info(r);
    FZ_CHECK(info->id && info->title && info->text && info->author);
    FZ_CHECK(kemet_rules_sha256(r) && strlen(kemet_rules_sha256(r)) == 64);
    kemet_pos start;
    kemet_start(r, &start);
    fz_check_position(r, &start, 1);
    kemet_board_art *art = malloc(sizeof *art);
    FZ_CHECK(art);
    int holes = kemet_art(r, art);
    FZ_CHECK(holes == art->nholes);
    free(art);
    kemet_game *a, *b;
    kemet_rng pa, pb;
    kemet_rng_seed(&pa, 11);
    kemet_rng_seed(&pb, 11);
    FZ_CHECK(kemet_game_new(r, 5, &a, NULL) == 0);
    FZ_CHECK(kemet_game_new(r, 5, &b, NULL) == 0);
    kemet_game_playout(a, &pa, 150, 0);
    kemet_game_playout(b, &pb, 150, 1);
    FZ_CHECK(memcmp(kemet_game_pos(a), kemet_game_pos(b), sizeof(kemet_pos)) ==
             0);
    FZ_CHECK(kemet_pos_check(r, kemet_game_pos(a), &err) == 0);
    kemet_game_free(a);
    kemet_game_free(b);
    kemet_rules_close(r);
    free(text);
    return 0;
}
