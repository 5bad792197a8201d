/* track.h - what the files of the board-file rulesets share (track.c:
 * the rulesets, their parameters and set-up; track_throw.c: throws;
 * track_turn.c: steps, whole turns and playouts; track_say.c: features
 * and explanations). Private to those files.
 */
#ifndef KEMET_TRACK_H
#define KEMET_TRACK_H

#include "internal.h"

enum { NPIECES = 5, MAX_STICKS = 5 };

/* What each ruleset of this file does, as data: the code below asks these
 * questions and never which ruleset it plays. */
enum {
    THROW_STICKS, /* four two-sided sticks, one value 1-5 (ruling G2) */
    THROW_DICE,   /* two four-sided dice; each moves another piece (W17) */
    THROW_BOARD   /* the board file's solid and dual sticks (L&J 3) */
};
enum {
    ENTER_HOME_BOX, /* the value names the home box hole (W14, W15) */
    ENTER_OPEN      /* an open space of the board's 'enter' set, by exact
                       value (L&J 7) */
};
typedef struct track_rules {
    const char *family; /* the board files it reads (docs/boards.md) */
    const char *board;  /* the built-in board file */
    int throws;         /* THROW_* */
    int enter;          /* ENTER_* */
    int safe_flags;     /* the board marks that make a hole safe (W13; L&J 4) */
    int jump_event;     /* KEMET_EV_LINE (W7) or KEMET_EV_RIVER (L&J 6) */
    bool off_first;     /* a piece off the board moves before any other (W15) */
    bool full_home_loses; /* off the board with the home box full (W15.7, 16) */
    bool goal_safe;       /* pieces in the opponent's home are safe (L&J 4) */
    bool duat_win;   /* all the opponent's pieces in the Duat wins (L&J 8) */
    bool quick;      /* one piece in the opponent's home wins (Quick mode) */
    bool opening;    /* a stick each decides who starts (L&J 2); else G4 */
    bool risen_open; /* a piece back from off the board lands only on open
                        spaces for the rest of that turn (L&J 7, T6) */
    const char *off; /* where a piece off the board is, in words */
    const char *safe_words;  /* why an opponent's piece is safe, in words */
    const char *jump_words;  /* "line", "river" */
    const char *hole_words;  /* "hole", "space" */
    const char *piece_words; /* "piece", "plinth" */
    const char *land_rules;  /* the rules that say a count lands there */
} track_rules;

typedef struct track {
    kmt_board b;
    const track_rules *R;
    int S; /* path squares */
    int nsolid, ndual;
    uint64_t safe[2];  /* squares (own coordinates) where p's piece is safe */
    uint64_t goal[2];  /* p's squares in the opponent's home */
    uint64_t start[2]; /* p's home squares (the start) */
    uint8_t homesq[2][8]; /* p's home squares, in order (W14: the home box) */
    uint8_t jump[2][KEMET_MAX_SQUARE + 1]; /* where a value ending on q rests */
    uint64_t jset[2];                      /* squares q where jump[p][q] != q */
    uint64_t target[2];   /* squares some line or river leads to */
    uint64_t opp_safe[2]; /* p's squares where an opponent's piece is safe */
    uint64_t path;        /* squares 1..S */
    uint8_t other[2][KEMET_MAX_SQUARE + 1]; /* the opponent's square on the
                                               hole of p's square q, or 0 */
    char note[160];
} track;

static inline const track *T(const kemet_rules *r) {
    return r->data;
}

/* The opponent's pieces as squares of player p's path. */
static inline uint64_t opp_in(const track *t, int p, uint64_t opp) {
    uint64_t x = 0;
    for (; opp; opp &= opp - 1)
        x |= KMT_BIT(t->other[p ^ 1][kmt_ctz64(opp)]);
    return x & ~(uint64_t)1; /* squares not on p's path map to 0 */
}

/* Why a step may not be made (0: it may). */
enum {
    OK,
    NO_PIECE,
    OFF_FIRST,
    MOVED,
    BEYOND,
    OWN,
    SAFE,
    NEAR_OWN,   /* T1: an own piece on the end the count reaches */
    NEAR_SAFE,  /* T1: a safe opponent there */
    RISEN,      /* T6: an opponent where a piece back this turn would land */
    NEAR_RISEN, /* T6: ... on the end the count reaches */
    HOME_TAKEN,
    ENTER_TAKEN,
    NO_ENTRY
};

/* The state of a turn in progress. */
typedef struct turn {
    kemet_pos pos;
    uint64_t moved; /* dice: squares of pieces that have moved this turn */
    uint64_t risen; /* squares of pieces brought back this turn (T6) */
    uint64_t opp;   /* the opponent's pieces, as squares of the mover's path */
    uint8_t left[KEMET_MAX_VALUES]; /* values still to spend */
    int nleft;
} turn;

/* The legal steps of u: (value index, from, to, end), one per distinct
 * value and piece. `end` is the square the count reached (from + value;
 * `to` unless a line or river was followed), 0 for a piece brought back.
 * Returns how many. */
typedef struct step {
    uint8_t vi, from, to, end;
} step;

/* track_throw.c */
int kmt_track_throws(const kemet_rules *r, const kemet_pos *pos,
                     kemet_throw *out, kemet_weight *weight,
                     kemet_weight *total);
void kmt_track_roll(const kemet_rules *r, const kemet_pos *pos, kemet_rng *rng,
                    kemet_throw *out);
bool kmt_track_throw_ok(const kemet_rules *r, const kemet_pos *pos,
                        const kemet_throw *thr);
/* How many distinct outcomes a throw of t's sticks has (for either player). */
long kmt_track_throw_count(const track *t);

/* track_turn.c */
int kmt_track_step_dest_in(const track *t, const turn *u, uint64_t opp, int s,
                           int v, int *f);
int kmt_track_step_dest(const track *t, const turn *u, int s, int v, int *f);
int kmt_track_steps(const track *t, const turn *u, step *out);
/* Makes a legal step (from s to f, spending value vi) in u. */
void kmt_track_step_make(const track *t, turn *u, int s, int f, int vi,
                         kemet_events *ev);
void kmt_track_turn_values(const track *t, const kemet_throw *thr, turn *u);
void kmt_track_turn_begin(const track *t, const kemet_pos *pos,
                          const kemet_throw *thr, turn *u);
int kmt_track_afters(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr, kemet_move *moves, kemet_pos *out);
int kmt_track_moves(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, kemet_move *out);
int kmt_track_next_steps(const kemet_rules *r, const kemet_pos *pos,
                         const kemet_throw *thr, const kemet_move *done,
                         kemet_move *next, kemet_throw *left, kemet_pos *mid);
/* Whether `move` writes a step FROM-TO-TO onto a hole no line or river
 * of the mover leads to (malformed today; *at its index), and the same
 * move rewritten as today's notation reads it (kemet_move_upgrade). */
bool kmt_track_malformed(const kemet_rules *r, const kemet_pos *pos,
                         const kemet_move *move, int *at);
void kmt_track_upgrade(const kemet_rules *r, const kemet_pos *pos,
                       kemet_move *move);
bool kmt_track_legal(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *move);
/* How many different outcomes the written steps of `move` can have (0, 1,
 * or 2 for two or more): a step written FROM-TO may be a count that lands
 * there or one that follows a line or river to there (docs/notation.md).
 * With `whole`, only readings that make a complete turn count, and the
 * outcome is the position; else any beginning of a turn, and the outcome
 * also holds the values left. *a and *b (may be NULL) get the first
 * reading and one that ends otherwise, each step with its end written. */
int kmt_track_readings(const track *t, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *move,
                       bool whole, kemet_move *a, kemet_move *b);
void kmt_track_make(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, const kemet_move *move,
                    kemet_pos *out, kemet_events *ev);
void kmt_track_random_turn(const kemet_rules *r, const kemet_pos *pos,
                           const kemet_throw *thr, kemet_rng *pick,
                           kemet_move *out);
void kmt_track_playout(const kemet_rules *r, kmt_playout_state *st);

/* track_say.c */
extern const char *const kmt_track_features[];
extern const double kmt_track_weights[];
void kmt_track_side(const kemet_rules *r, const kemet_pos *pos, int p,
                    double *f);
void kmt_track_explain(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *move,
                       char *buf, size_t len);

#endif
