/* fuzz_common.c - the invariants every fuzz target checks of a position
 * (fuzz.h).
 */
#include "fuzz.h"

static void round_trip(const kemet_rules *r, const kemet_pos *pos) {
    char line[512], again[512];
    kemet_error err;
    FZ_CHECK(kemet_pos_check(r, pos, &err) == 0);
    FZ_CHECK(kemet_pos_format(r, pos, line, sizeof line) > 0);
    kemet_rules *r2 = NULL;
    kemet_pos p2;
    const char *board = kemet_rules_board_file(r);
    if (kemet_rules_sha256(r)) /* a user's ruleset file: read it back */
        FZ_CHECK(kemet_pos_read(r, line, &p2, &err) == 0);
    else
        FZ_CHECK(kemet_pos_parse_board(line, board, &r2, &p2, &err) == 0);
    FZ_CHECK(memcmp(pos, &p2, sizeof p2) == 0);
    FZ_CHECK(kemet_pos_format(r2 ? r2 : r, &p2, again, sizeof again) > 0);
    FZ_CHECK(strcmp(line, again) == 0);
    kemet_rules_close(r2);
}

static void check_move(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *m, int depth) {
    kemet_pos a, b;
    kemet_events ea, eb;
    char why[256], text[160];
    kemet_error err;
    FZ_CHECK(kemet_apply(r, pos, thr, m, &a, &ea) == 0);
    kemet_make(r, pos, thr, m, &b, &eb);
    FZ_CHECK(memcmp(&a, &b, sizeof a) == 0);
    FZ_CHECK(ea.n == eb.n && ea.n >= 0 && ea.n <= KEMET_MAX_EVENTS);
    FZ_CHECK(kemet_explain(r, pos, thr, m, why, sizeof why) == 0);
    FZ_CHECK(kemet_move_format(m, text, sizeof text) > 0);
    kemet_move back;
    FZ_CHECK(kemet_move_parse(r, text, &back, &err) == 0);
    FZ_CHECK(kemet_move_equal(m, &back));
    char *words = malloc(KEMET_DESCRIBE_MAX);
    FZ_CHECK(words && kemet_describe(r, &ea, words, KEMET_DESCRIBE_MAX) >= 0);
    free(words);
    if (depth > 0)
        fz_check_position(r, &a, depth - 1);
    else {
        /* (a full round trip opens the ruleset again: kept for the
           positions looked at in depth) */
        char line[512];
        FZ_CHECK(kemet_pos_check(r, &a, &err) == 0);
        FZ_CHECK(kemet_pos_format(r, &a, line, sizeof line) > 0);
    }
}

void fz_check_position(const kemet_rules *r, const kemet_pos *pos, int depth) {
    round_trip(r, pos);
    if (pos->result != KEMET_PLAYING)
        return;
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    kemet_throw *thr = malloc(KEMET_MAX_THROWS * sizeof *thr);
    kemet_weight *w = malloc(KEMET_MAX_THROWS * sizeof *w), total = 0;
    FZ_CHECK(moves && thr && w);
    int nt = kemet_throws(r, pos, thr, w, &total);
    FZ_CHECK(nt >= 1 && nt <= KEMET_MAX_THROWS);
    uint64_t sum = 0;
    for (int i = 0; i < nt; i++) {
        FZ_CHECK(w[i] > 0);
        sum += w[i];
    }
    FZ_CHECK(sum == total);
    int np = kemet_prethrow(r, pos, moves);
    FZ_CHECK(np >= 0);
    for (int i = 0; i < np; i += np <= 16 ? 1 : np / 16)
        check_move(r, pos, NULL, &moves[i], 0);
    /* at most 8 outcomes looked at (Lions & Jackals' six sticks have
       hundreds): the soak goes through them all */
    for (int t = 0; t < nt; t += nt / 8 + 1) {
        int n = kemet_moves(r, pos, &thr[t], moves);
        FZ_CHECK(n >= 1 || n == KEMET_ERANGE);
        /* a deeper look after one move only: the tree grows fast */
        /* at most 16 moves of each (each check lists the moves again) */
        for (int i = 0; i < n; i += n <= 16 ? 1 : n / 16)
            check_move(r, pos, &thr[t], &moves[i],
                       t == 0 && i == 0 ? depth : 0);
    }
    free(moves);
    free(thr);
    free(w);
}

int fz_open_all(kemet_rules **rules, int max) {
    int n = 0;
    kemet_error err;
    for (int i = 0; i < kemet_ruleset_count() && n < max; i++)
        if (kemet_rules_open(kemet_ruleset_id(i), &rules[n], &err) == 0)
            n++;
    return n;
}
