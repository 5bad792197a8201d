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

/* What Washburne's two rulesets share (rules 7, 12-16), and Lions &
 * Jackals' two modes (rules 2-8); each ruleset adds what sets it apart. */
#define WASHBURNE_RULES                                                        \
    .family = "washburne", .board = kmt_board_washburne,                       \
    .enter = ENTER_HOME_BOX, .safe_flags = KMT_BOARD_SAFE | KMT_BOARD_ANKH,    \
    .jump_event = KEMET_EV_LINE, .off_first = true, .full_home_loses = true,   \
    .off = "off the board", .safe_words = "an Ankh or home-box hole, rule 13", \
    .jump_words = "line", .hole_words = "hole", .piece_words = "piece",        \
    .land_rules = "rules 7, 11-13"
#define LIONS_RULES                                                            \
    .family = "lions-jackals", .board = kmt_board_lions_jackals,               \
    .throws = THROW_BOARD, .enter = ENTER_OPEN, .safe_flags = KMT_BOARD_SUN,   \
    .jump_event = KEMET_EV_RIVER, .goal_safe = true, .duat_win = true,         \
    .opening = true, .risen_open = true, .off = "in the Duat",                 \
    .safe_words = "a Sun or its goal Home Row, rule 4", .jump_words = "river", \
    .hole_words = "space", .piece_words = "plinth", .land_rules = "rules 4, 6"

/* By the ruleset's variant number. */
static const track_rules params[] = {
    {WASHBURNE_RULES, .throws = THROW_STICKS},
    {WASHBURNE_RULES, .throws = THROW_DICE},
    {LIONS_RULES, .quick = false},
    {LIONS_RULES, .quick = true},
};

static int track_open(kemet_rules *r, const char *text, kemet_error *err) {
    track *t = calloc(1, sizeof *t);
    if (!t)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    const track_rules *R = t->R = &params[r->variant];
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
        t->nsolid = r->opt[0];
        t->ndual = r->opt[1];
        if (t->nsolid + t->ndual > MAX_STICKS)
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

static int track_prethrow(const kemet_rules *r, const kemet_pos *pos,
                          kemet_move *out) {
    (void)r;
    (void)pos;
    (void)out;
    return 0;
}

/* ---------------------------------------------------------------------------
 * The rulesets
 * ------------------------------------------------------------------------ */
static const char washburne_text[] =
    "Hounds & Jackals, Donna Washburne's rules (rules 1-16).\n"
    "Each player's five pieces start in their home box (holes 1-5 of their\n"
    "side) and run up their side, through the common hole and down the\n"
    "other side into the opponent's home box. The four sticks give 1-5.\n"
    "A piece moves forward by the throw onto an empty hole or an opponent's\n"
    "piece, which is knocked off the board; pieces on Ankh holes and in\n"
    "either home box are safe. Lines 6-20 and 8-10 are followed both ways:\n"
    "a count ending on a line's end lands there, then on the other end,\n"
    "and both must be holes the piece may land on (an opponent's piece on\n"
    "either is knocked off); such a step is written 3-6-20. The orange\n"
    "circles have no rule (the text gives them none).\n"
    "While a piece is off the board no other piece moves: a throw of k\n"
    "brings it back on hole k of its home box, if empty; else the turn is\n"
    "lost. A player whose piece is knocked off while their home box is\n"
    "full loses. Fill the opponent's home box with your five pieces to win.";

static const char washburne_dice_text[] =
    "Hounds & Jackals, Donna Washburne's rules with two four-sided dice\n"
    "(rule 17): as the stick game, but each turn throws two dice (1-4) and\n"
    "each die moves (or brings back) a different piece; a die that can be\n"
    "used must be, in the order the player chooses. Moves are written as\n"
    "two steps joined by '+', e.g. 3-5+12-16; a throw as '2,3'.";

static const char lions_text[] =
    "Lions & Jackals, Normal mode. Five plinths each start on\n"
    "the player's Home Row; the players run the track in opposite\n"
    "directions towards the opponent's Home Row. Each throw of the sticks\n"
    "gives several values (a dual-coloured stick's value only for the\n"
    "player of its colour). Every value that can be used must be, in any\n"
    "order; several values may move one plinth, value after value. A\n"
    "plinth lands on an open space or on an opponent not on a Sun or in its\n"
    "goal Home Row, which goes to the Duat. A value ending on a river's\n"
    "end (13, 22) lands there and the river carries the plinth back to 9\n"
    "or 18, where it lands too: both ends as any landing, an opponent on\n"
    "either going to the Duat; written 10-13-9. From the Duat a plinth\n"
    "comes back onto an open space 1-6 by an exact value, and in that turn\n"
    "every value it spends ends on an open space. Win by placing all five\n"
    "plinths in the opponent's Home Row, or sending all the opponent's to\n"
    "the Duat. Throws are written '1,4,6,2@1' (2@1: a dual value for\n"
    "player 1); turns as steps joined by '+', e.g. 3-5+5-11.";

static const char lions_quick_text[] =
    "Lions & Jackals, Quick mode: as Normal mode, but the first\n"
    "player to bring a plinth into the opponent's Home Row wins.";

static const kmt_option lions_options[] = {
    {"solid", 1, MAX_STICKS, 3},
    {"dual", 0, MAX_STICKS - 1, 1},
    {NULL, 0, 0, 0},
};

static int lions_open(kemet_rules *r, const char *text, kemet_error *err) {
    int rc = track_open(r, text, err);
    if (rc)
        return rc;
    const track *t = T(r);
    long n = kmt_track_throw_count(t);
    if (n > KEMET_MAX_THROWS) {
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

#define TRACK_COMMON                                                           \
    .pieces = NPIECES, .squares = 59, .heap_square = 0, .has_hand = true,      \
    .has_must = false, .board = NULL, .cells = 0, .cell_of = track_cell_of,    \
    .close = track_close, .throw_ok = kmt_track_throw_ok,                      \
    .legal = kmt_track_legal, .upgrade = kmt_track_upgrade,                    \
    .random_turn = kmt_track_random_turn, .next_steps = kmt_track_next_steps,  \
    .start = track_start, .opening = track_opening, .check = track_check,      \
    .throws = kmt_track_throws, .roll = kmt_track_roll, .max_value = 0,        \
    .prethrow = track_prethrow, .moves = kmt_track_moves,                      \
    .afters = kmt_track_afters, .make = kmt_track_make,                        \
    .playout = kmt_track_playout, .side = kmt_track_side,                      \
    .features = kmt_track_features, .weights = kmt_track_weights,              \
    .explain = kmt_track_explain, .art = kmt_art_file

const kmt_ruleset kmt_washburne = {
    .id = "hounds-jackals-washburne",
    .variant = 0,
    .title = "Hounds & Jackals (Washburne)",
    .source = "Donna Washburne's rules, published on Instructables, rules 1-16 "
              "as the "
              "Hounds and Jackals page of AncientGames.org (October 2017) "
              "gives them",
    .author = "Donna Washburne",
    .year = 0, /* the page gives no date for her rules */
    .about = "Knock opponents off the board, ride the lines both ways, and "
             "fill the opponent's home box with your five pieces.",
    .text = washburne_text,
    .player = {"Hounds", "Jackals"},
    .glyph = {'H', 'J'},
    .gone = NULL,
    .in_hand = "off the board",
    .options = NULL,
    .open = track_open,
    TRACK_COMMON,
};

const kmt_ruleset kmt_washburne_dice = {
    .id = "hounds-jackals-washburne-dice",
    .variant = 1,
    .title = "Hounds & Jackals (Washburne, two dice)",
    .source = "Donna Washburne's rules, published on Instructables, rules 1-17 "
              "as the "
              "Hounds and Jackals page of AncientGames.org (October 2017) "
              "gives them",
    .author = "Donna Washburne",
    .year = 0,
    .about = "Washburne's game with two four-sided dice: each die moves a "
             "different piece, both every turn.",
    .text = washburne_dice_text,
    .player = {"Hounds", "Jackals"},
    .glyph = {'H', 'J'},
    .gone = NULL,
    .in_hand = "off the board",
    .options = NULL,
    .open = track_open,
    TRACK_COMMON,
};

const kmt_ruleset kmt_lions_jackals = {
    .id = "lions-jackals",
    .variant = 2,
    .title = "Lions & Jackals (Normal mode)",
    .source = "a Lions and Jackals rules sheet, How to Play, rules 1-8, Normal "
              "mode and "
              "its Options (author and year not given)",
    .author = "a rules sheet, author unknown",
    .year = 0,
    .about = "One track run both ways: land on opponents to send them to "
             "the Duat; all five plinths into the opponent's Home Row.",
    .text = lions_text,
    .player = {"Lions", "Jackals"},
    .glyph = {'L', 'J'},
    .gone = NULL,
    .in_hand = "in the Duat",
    .options = lions_options,
    .open = lions_open,
    TRACK_COMMON,
};

const kmt_ruleset kmt_lions_jackals_quick = {
    .id = "lions-jackals-quick",
    .variant = 3,
    .title = "Lions & Jackals (Quick mode)",
    .source = "a Lions and Jackals rules sheet, How to Play, rules 1-8, Quick "
              "mode and "
              "its Options (author and year not given)",
    .author = "a rules sheet, author unknown",
    .year = 0,
    .about = "Lions & Jackals in a hurry: the first plinth to reach the "
             "opponent's Home Row wins.",
    .text = lions_quick_text,
    .player = {"Lions", "Jackals"},
    .glyph = {'L', 'J'},
    .gone = NULL,
    .in_hand = "in the Duat",
    .options = lions_options,
    .open = lions_open,
    TRACK_COMMON,
};
