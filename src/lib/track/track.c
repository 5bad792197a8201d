/* track.c - the rulesets whose boards are read from board files:
 * hounds-jackals-washburne and hounds-jackals-washburne-dice (seed 001,
 * Washburne's rules 1-17), lions-jackals and lions-jackals-quick (seed 003).
 *
 * The board (paths, homes, safe holes, lines, rivers, sticks, picture) is
 * data (board.c, docs/boards.md); this file holds the rules. A turn spends
 * one or more values, one step per value: a step moves one piece by one
 * value (or brings one piece back onto the board), then follows a line or
 * river where it ends. All available values must be used (Lions & Jackals
 * rule 4; ruling G3 for each die of Washburne's rule 17): a turn ends when
 * no remaining value can be used, or the game is won. The order of the
 * steps is the player's, so kemet_moves lists one step order for each
 * distinct outcome, and kemet_apply accepts any order (`kmt_track_legal`).
 *
 * Representation: bit q of pos->sq[p] is player p's path square q; pieces
 * knocked off (Washburne) or in the Duat (Lions & Jackals) are in
 * pos->hand. Nothing ever leaves the game.
 */
#include "track.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char kmt_board_washburne[];
extern const char kmt_board_lions_jackals[];

static int track_open(kemet_rules *r, const char *text, kemet_error *err) {
    track *t = calloc(1, sizeof *t);
    if (!t)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    const track_rules *R = t->R = r->params;
    if (!text)
        text = R->board; /* data/boards, embedded by cmake/embed.cmake */
    int rc = kmt_board_parse(text, R->family, &t->b, err);
    kmt_board *b = &t->b;
    if (rc == KEMET_OK) {
        size_t len = strlen(text) + 1;
        if ((r->board_file = malloc(len)))
            memcpy(r->board_file, text, len);
        else
            rc = kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    if (rc == KEMET_OK) {
        /* What the rules need of the board, beyond what board.c checks. */
        const char *why = NULL;
        if (b->nhome[0] != NPIECES || b->nhome[1] != NPIECES)
            why = "each home must have 5 holes, one per piece (rules 1, 8)";
        for (int p = 0; p < 2 && !why; p++)
            for (int i = 0; i < NPIECES; i++)
                if (!b->square[p ^ 1][b->home[p][i]])
                    why = "each home must lie on the opponent's path too "
                          "(it is the opponent's goal)";
        if (!why && R->throws == THROW_BOARD &&
            (!b->nsolid_faces || !b->ndual_faces))
            why = "a lions-jackals board needs 'stick solid', 'stick dual' "
                  "and 'enter'";
        if (!why && R->enter == ENTER_OPEN && !b->enter)
            why = "a lions-jackals board needs 'stick solid', 'stick dual' "
                  "and 'enter'";
        if (why)
            rc = kmt_fail(err, KEMET_ESYNTAX, "board file: %s", why);
    }
    if (rc == KEMET_OK && R->throws == THROW_BOARD) {
        t->nsolid = kmt_rules_opt(r, "solid", 0);
        t->ndual = kmt_rules_opt(r, "dual", 0);
        /* the options as a file may declare them: the values the family
           has (docs/rulesets.md), whatever the file's range or list */
        if (t->nsolid < 1 || t->nsolid > 5 || t->ndual < 0 || t->ndual > 4)
            rc = kmt_fail(err, KEMET_ERULESET,
                          "the options solid (1-5) and dual (0-4) are %d "
                          "and %d: the board's sticks take no other",
                          t->nsolid, t->ndual);
        else if (t->nsolid + t->ndual > MAX_STICKS)
            rc = kmt_fail(err, KEMET_ERULESET,
                          "at most %d sticks in all (solid + dual): more "
                          "would give more distinct turns than are listed",
                          MAX_STICKS);
    }
    if (rc) {
        kmt_board_free(&t->b); /* (a no-op when parsing failed) */
        free(t);
        return rc;
    }
    t->S = b->squares;
    for (int p = 0; p < 2; p++) {
        int o = p ^ 1;
        for (int i = 0; i < NPIECES; i++) {
            t->homesq[p][i] = b->square[p][b->home[p][i]];
            t->start[p] |= KMT_BIT(t->homesq[p][i]);
            t->goal[p] |= KMT_BIT(b->square[p][b->home[o][i]]);
        }
        for (int q = 1; q <= t->S; q++) {
            int h = b->hole[p][q];
            t->other[p][q] = b->square[o][h];
            t->jump[p][q] = (uint8_t)q;
            if (b->line[h]) /* Washburne rule 7: both ways */
                t->jump[p][q] = b->square[p][b->line[h]];
            int e = b->river[h] ? b->square[p][b->river[h]] : 0;
            if (e && e < q) /* L&J rule 6: a river only carries back */
                t->jump[p][q] = (uint8_t)e;
            if (b->flags[h] & R->safe_flags)
                t->safe[p] |= KMT_BIT(q);
        }
    }
    if (R->goal_safe) /* L&J rule 4: the opponent's Home Row */
        for (int p = 0; p < 2; p++)
            t->safe[p] |= t->goal[p];
    t->path = KMT_BIT(t->S + 1) - 2;
    for (int p = 0; p < 2; p++)
        for (int q = 1; q <= t->S; q++) {
            if (t->jump[p][q] != q) {
                t->jset[p] |= KMT_BIT(q);
                t->target[p] |= KMT_BIT(t->jump[p][q]);
            }
            int x = t->other[p][q];
            if (x && (t->safe[p ^ 1] & KMT_BIT(x)))
                t->opp_safe[p] |= KMT_BIT(q);
        }
    snprintf(t->note, sizeof t->note,
             "%s: a reconstruction (the seed gives no diagram%s); see "
             "docs/boards.md",
             b->title[0] ? b->title : "board from a board file",
             R->throws == THROW_BOARD ? " and no stick faces" : "");
    r->data = t;
    r->board = b->picture;
    r->squares = t->S;
    r->info.squares = t->S;
    r->info.board_cells = b->holes;
    r->info.board_note = t->note;
    return KEMET_OK;
}

static void track_close(kemet_rules *r) {
    track *t = r->data;
    if (t) {
        kmt_board_free(&t->b);
        free(t);
    }
}

static int track_cell_of(const kemet_rules *r, int player, int square) {
    return T(r)->b.hole[player - 1][square];
}

/* ---------------------------------------------------------------------------
 * Set-up, checks and the opening
 * ------------------------------------------------------------------------ */
static void track_start(const kemet_rules *r, kemet_pos *pos) {
    *pos = (kemet_pos){0};
    pos->to = 1;
    pos->sq[0] = T(r)->start[0];
    pos->sq[1] = T(r)->start[1];
}

static int track_check(const kemet_rules *r, const kemet_pos *pos,
                       kemet_error *err) {
    const track *t = T(r);
    for (int p = 0; p < 2; p++) {
        int n = kmt_popcount64(pos->sq[p]) + pos->hand[p];
        if (n != NPIECES)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "player %d has %d pieces on the board and %s; "
                            "%s has always %d",
                            p + 1, n, t->R->off, r->rs->id, NPIECES);
    }
    /* one piece per hole, across both sides */
    for (uint64_t b = pos->sq[1]; b; b &= b - 1) {
        int q = kmt_ctz64(b);
        int mine = t->other[1][q];
        if (mine && (pos->sq[0] & KMT_BIT(mine)))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "two pieces on one hole (p1 square %d, p2 "
                            "square %d)",
                            mine, q);
    }
    return KEMET_OK;
}

static int track_opening(const kemet_rules *r, kemet_rng *rng, kemet_pos *pos,
                         kemet_throw *first, kemet_events *ev) {
    (void)first;
    const track *t = T(r);
    track_start(r, pos);
    if (!t->R->opening)
        return 0; /* Washburne: the text leaves it; player 1 starts (G4) */
    /* L&J rule 2: each casts a solid stick; the higher value starts. */
    for (;;) {
        int a = t->b.solid[kemet_rng_below(rng, (uint32_t)t->b.nsolid_faces)];
        int b = t->b.solid[kemet_rng_below(rng, (uint32_t)t->b.nsolid_faces)];
        if (a == b) {
            kmt_ev_add(ev, KEMET_EV_REOPEN, 0, a, b);
            continue;
        }
        pos->to = (uint8_t)(a > b ? 1 : 2);
        kmt_ev_add(ev, KEMET_EV_STARTS, pos->to, a, b);
        return 0;
    }
}

/* ---------------------------------------------------------------------------
 * The family: the functions, and its parts read from a ruleset file
 * (docs/rulesets.md, "track"); the rules in words are in the files
 * (data/rulesets), the boards in board files (data/boards).
 * ------------------------------------------------------------------------ */
static int track_open_all(kemet_rules *r, const char *text, kemet_error *err) {
    int rc = track_open(r, text, err);
    if (rc)
        return rc;
    const track *t = T(r);
    long n = kmt_track_throw_count(t);
    if (t->R->throws == THROW_BOARD && n > KEMET_MAX_THROWS) {
        int solid = t->nsolid, dual = t->ndual;
        track_close(r);
        r->data = NULL;
        return kmt_fail(err, KEMET_ERULESET,
                        "%d solid and %d dual sticks give %ld different "
                        "throws; at most %d are supported",
                        solid, dual, n, KEMET_MAX_THROWS);
    }
    return KEMET_OK;
}

static const kmt_ruleset track_base = {
    .pieces = NPIECES,
    .squares = 59,
    .has_hand = true,
    .cell_of = track_cell_of,
    .open = track_open_all,
    .close = track_close,
    .throw_ok = kmt_track_throw_ok,
    .legal = kmt_track_legal,
    .upgrade = kmt_track_upgrade,
    .random_turn = kmt_track_random_turn,
    .next_steps = kmt_track_next_steps,
    .start = track_start,
    .opening = track_opening,
    .check = track_check,
    .throws = kmt_track_throws,
    .roll = kmt_track_roll,
    .prethrow = kmt_no_prethrow,
    .moves = kmt_track_moves,
    .afters = kmt_track_afters,
    .make = kmt_track_make,
    .playout = kmt_track_playout,
    .side = kmt_track_side,
    .features = kmt_track_features,
    .weights = kmt_track_weights,
    .explain = kmt_track_explain,
    .art = kmt_art_file,
};

/* The parameters and the words they point to, in one allocation. */
typedef struct track_params {
    track_rules R;
    char words[6][160];
} track_params;

static int track_configure(kemet_rules *r, kmt_rulefile *f, kemet_error *err) {
    static const char *const boards[] = {"washburne", "lions-jackals", NULL};
    static const char *const throws[] = {"sticks 4 blank=5", "dice 2 d4",
                                         "board-sticks", NULL};
    static const char *const enters[] = {"home-box", "open", NULL};
    static const char *const jumps[] = {"line", "river", NULL};
    static const char *const firsts[] = {"player-1", "stick-each", NULL};
    static const char *const names[] = {"words-off",   "words-safe",
                                        "words-jump",  "words-hole",
                                        "words-piece", "words-land"};
    track_params *tp = calloc(1, sizeof *tp);
    if (!tp)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    r->params = tp;
    track_rules *R = &tp->R;
    int board = -1, jump, first, rc;
    for (int i = 0; f->board && boards[i]; i++)
        if (strcmp(f->board, boards[i]) == 0)
            board = i;
    if (board < 0)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "rules file: a track ruleset names its board: "
                        "'board washburne' or 'board lions-jackals' (another "
                        "board is given with --board)");
    R->family = boards[board];
    R->board = board ? kmt_board_lions_jackals : kmt_board_washburne;
    bool flag[8];
    if ((rc = kmt_rf_fixed(f, "pieces", "5", err)) ||
        (rc = kmt_rf_choice(f, "throw", throws, -1, &R->throws, err)) ||
        (rc = kmt_rf_choice(f, "enter", enters, -1, &R->enter, err)) ||
        (rc = kmt_rf_choice(f, "jump", jumps, -1, &jump, err)) ||
        (rc = kmt_rf_choice(f, "first", firsts, -1, &first, err)) ||
        (rc = kmt_rf_flag(f, "off-first", &flag[0], err)) ||
        (rc = kmt_rf_flag(f, "full-home-loses", &flag[1], err)) ||
        (rc = kmt_rf_flag(f, "goal-safe", &flag[2], err)) ||
        (rc = kmt_rf_flag(f, "duat-win", &flag[3], err)) ||
        (rc = kmt_rf_flag(f, "quick", &flag[4], err)) ||
        (rc = kmt_rf_flag(f, "risen-open", &flag[5], err)))
        return rc;
    R->off_first = flag[0];
    R->full_home_loses = flag[1];
    R->goal_safe = flag[2];
    R->duat_win = flag[3];
    R->quick = flag[4];
    R->risen_open = flag[5];
    R->opening = first == 1;
    R->jump_event = jump ? KEMET_EV_RIVER : KEMET_EV_LINE;
    kmt_part *p = kmt_rf_part(f, "safe-holes");
    for (int i = 1; p && i < p->argc; i++) {
        int bit = strcmp(p->argv[i], "safe") == 0   ? KMT_BOARD_SAFE
                  : strcmp(p->argv[i], "ankh") == 0 ? KMT_BOARD_ANKH
                  : strcmp(p->argv[i], "sun") == 0  ? KMT_BOARD_SUN
                                                    : 0;
        if (!bit)
            return kmt_rf_refuse(p,
                                 "write 'safe-holes' and the board's marks "
                                 "that make a hole safe: safe, ankh, sun",
                                 err);
        if (R->safe_flags & bit) {
            char why[40];
            snprintf(why, sizeof why, "'%s' is given twice", p->argv[i]);
            return kmt_rf_refuse(p, why, err);
        }
        R->safe_flags |= bit;
    }
    for (int i = 0; i < 6; i++)
        if ((rc = kmt_rf_words(f, names[i], tp->words[i], sizeof tp->words[i],
                               err)))
            return rc;
    R->off = tp->words[0];
    R->safe_words = tp->words[1];
    R->jump_words = tp->words[2];
    R->hole_words = tp->words[3];
    R->piece_words = tp->words[4];
    R->land_rules = tp->words[5];

    const char *why = NULL;
    kmt_part *at = NULL;
    if ((R->throws == THROW_BOARD) != (board == 1) ||
        (R->enter == ENTER_OPEN) != (board == 1))
        why = "the sticks of a board file and entering onto open spaces "
              "need the lions-jackals board; sticks or dice and the home "
              "box, the washburne board",
        at = kmt_rf_part(f, "throw");
    else if (R->opening && R->throws != THROW_BOARD)
        why = "'first stick-each' throws one of the board's solid sticks "
              "each",
        at = kmt_rf_part(f, "first");
    else if (R->off_first && R->enter != ENTER_HOME_BOX)
        why = "'off-first' needs 'enter home-box'",
        at = kmt_rf_part(f, "off-first");
    if (why)
        return kmt_rf_refuse(at, why, err);
    if (R->throws == THROW_BOARD) {
        kmt_part *o = kmt_rf_part(f, "throw");
        if (kmt_rules_opt(r, "solid", -1) < 0 ||
            kmt_rules_opt(r, "dual", -1) < 0)
            return kmt_rf_refuse(o,
                                 "'throw board-sticks' needs the options "
                                 "'solid' and 'dual' (how many of each)",
                                 err);
    }
    r->own.has_hand = true;
    return KEMET_OK;
}

static const char *const track_option_keys[] = {"solid", "dual", NULL};

const kmt_family kmt_family_track = {
    .name = "track",
    .base = &track_base,
    .option_keys = track_option_keys,
    .configure = track_configure,
};
