/* kemet.h - public interface of libkemet, the engine for the race games of
 * ancient Egypt (Senet, the 58-holes games, Lions & Jackals).
 *
 * This header is the whole API: the `kemet` program and the tests use
 * nothing else. Everything here is prefixed `kemet_` / `KEMET_`.
 *
 * The model. A game alternates decision points and chance points:
 *
 *   position --(pre-throw choice, e.g. Senet's rescue from the water)-->
 * position position --(throw, drawn from kemet_throws())--> (position, throw)
 *   (position, throw) --(one move from kemet_moves(), maybe `pass`)--> position
 *
 * A position (kemet_pos) is a small plain struct: copy it freely, compare it
 * with memcmp (it has no hidden padding; its last byte, `wait`, once the
 * spare byte pad_, is 0 outside Kendall's start=1). It does not point to
 * its rules; every
 * call takes the rules (kemet_rules) first. A ruleset is opened once from
 * its id ("senet-kendall", or "id:key=value,..." with options) and shared.
 *
 * Determinism. The library holds no global mutable state. Randomness comes
 * only from a kemet_rng the caller owns; the same seed and the same choices
 * give the same game, byte for byte, on every machine.
 *
 * Allocation. The functions that make objects (kemet_rules_open,
 * kemet_judge_new, kemet_game_new, kemet_agent_new, ...) allocate, and
 * fail with KEMET_ENOMEM leaving nothing behind; so do the tools that
 * build something large (tables, race databases, networks, rollouts,
 * reviews). Move generation writes into caller-supplied arrays; making
 * moves, playing out games, judging positions and the agents' choices
 * never allocate (an agent makes its scratch when it is made), with two
 * exceptions that grow as they need and keep what they grew: a game's
 * history (kemet_game_play answers KEMET_ENOMEM when it cannot grow), and
 * the tree of the mcts and best agents, whose size depends on the
 * positions searched (a search that cannot grow it answers from what it
 * has searched).
 *
 * Threads. The library has no global state and takes no locks. An object
 * is used by one thread at a time unless said otherwise; these may be
 * shared among threads once made: a kemet_rules (immutable after
 * kemet_rules_open), a kemet_judge once set up (its kemet_judge_use_*
 * and weight calls done before it is shared), a kemet_table, a
 * kemet_race and a kemet_net. A kemet_game, a kemet_agent and a kemet_rng
 * belong to one thread at a time: give each thread its own agents, made
 * from a shared judge. Functions taking only such shared objects and
 * caller-owned memory (kemet_moves, kemet_apply, kemet_win_chance, ...)
 * may run on many threads at once. kemet_table_solve, kemet_net_train
 * and kemet_rollout_run start threads of their own and join them before
 * returning.
 *
 * Errors. Functions that can fail return an int status: KEMET_OK (0) or one
 * of the negative KEMET_E* codes. Where a kemet_error is passed, it also
 * receives a one-line message in words a user understands.
 *
 * Misuse. A position handed to the library must be one it could have made:
 * `to` 1 or 2, a known result, `wait` within bits 0-1 (and 0 where the
 * ruleset has no wait), no piece beyond the ruleset's last
 * square and no more pieces than it has (kemet_pos_check checks everything
 * else). Functions that return a status refuse any other, and NULL
 * pointers, with KEMET_EMISUSE; those that cannot (kemet_make, kemet_roll,
 * kemet_eval, kemet_win_chance, kemet_agent_choose, kemet_agent_rank)
 * assert it, and the library keeps its asserts in optimised builds.
 */
#ifndef KEMET_H
#define KEMET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "kemet_version.h"

/* Public functions carry KEMET_API: the shared library exports them and
 * nothing else (it is built with -fvisibility=hidden). */
#if defined(__GNUC__) || defined(__clang__)
#define KEMET_API __attribute__((visibility("default")))
#else
#define KEMET_API
#endif

/* The version of the library linked (KEMET_VERSION is the header's). */
KEMET_API const char *kemet_version(void);

/* ---------------------------------------------------------------------------
 * Limits (hold for every ruleset)
 * ------------------------------------------------------------------------ */
#define KEMET_MAX_SQUARE 63   /* path squares are 1..63 */
#define KEMET_MAX_PIECES 16   /* pieces per player */
#define KEMET_MAX_VALUES 8    /* values in one throw (several sticks or dice) */
#define KEMET_MAX_STEPS 8     /* steps in one move (one per value spent) */
#define KEMET_MAX_MOVES 8192  /* enough storage for any list of legal moves */
#define KEMET_MAX_THROWS 1024 /* distinct outcomes of one throw */

/* Special step ends: a piece entering from hand, a piece leaving the board. */
#define KEMET_HAND 0
#define KEMET_OFF 255

/* ---------------------------------------------------------------------------
 * Status codes and errors
 * ------------------------------------------------------------------------ */
enum {
    KEMET_OK = 0,
    KEMET_EMISUSE = -1,  /* the API was called wrongly (NULL, bad size) */
    KEMET_ESYNTAX = -2,  /* malformed position, move, throw or record */
    KEMET_ERULESET = -3, /* unknown ruleset or ruleset option */
    KEMET_ETHROW = -4,   /* a throw this ruleset cannot produce */
    KEMET_EILLEGAL = -5, /* a move the rules do not allow */
    KEMET_EOVER = -6,    /* the game is over */
    KEMET_ENOMEM = -7,   /* out of memory */
    KEMET_ERANGE = -8,   /* the caller's buffer is too small */
    KEMET_EIO = -9       /* reading or writing a file failed */
};

/* A short description of a status code ("illegal move"). Never NULL. */
KEMET_API const char *kemet_strerror(int code);
/* Frees memory the library allocated for the caller (kemet_game_record's
 * text, kemet_record_read's plies): from a language binding, whose own
 * free may not be the library's. NULL is ignored. */
KEMET_API void kemet_free(void *p);

/* Filled by functions that can fail: the code and a one-line message. */
typedef struct kemet_error {
    int code;
    char msg[256];
} kemet_error;

/* ---------------------------------------------------------------------------
 * Random numbers: xoshiro256** seeded through splitmix64. Owned by the
 * caller; the library has no hidden generator.
 * ------------------------------------------------------------------------ */
typedef struct kemet_rng {
    uint64_t s[4];
} kemet_rng;

KEMET_API void kemet_rng_seed(kemet_rng *rng, uint64_t seed);
KEMET_API uint64_t kemet_rng_next(kemet_rng *rng);
/* A uniform integer in [0, n), n > 0, without modulo bias. */
KEMET_API uint32_t kemet_rng_below(kemet_rng *rng, uint32_t n);

/* ---------------------------------------------------------------------------
 * Positions, throws and moves
 * ------------------------------------------------------------------------ */

/* A position. Squares are numbered along each player's own path (see
 * docs/notation.md); the meaning of each number belongs to the
 * ruleset. All unused bits and bytes are zero, so memcmp compares
 * positions. */
typedef struct kemet_pos {
    uint64_t sq[2];  /* bit s of sq[p]: player p+1 has a piece on square s */
    uint8_t heap[2]; /* pieces of player p+1 on the ruleset's one square that
                        holds several (Skiryuk's Shen); 0 elsewhere */
    uint8_t hand[2]; /* pieces in hand (not yet entered / to re-enter) */
    uint8_t to;      /* 1 or 2: the player about to throw or choose */
    uint8_t must;    /* 0, or the square whose piece must use the throw */
    uint8_t result;  /* KEMET_PLAYING, KEMET_WON1, KEMET_WON2, KEMET_DRAW */
    union {
        uint8_t wait; /* the players still waiting for their first 1
                         (Kendall's start=1): bit 0 player 1, bit 1
                         player 2; 0 in every other ruleset */
        uint8_t pad_; /* its name before it had a use, kept for old code */
    };
    uint8_t off[2]; /* pieces of player p+1 borne off, in a ruleset that
                       counts them apart from captured ones (Bell's
                       score, o1=/o2=); 0 in every other ruleset */
    /* Tab on the 58 holes (reconstructions §6); 0 in every other ruleset.
     * lock[p]: bit s-1 set while player p+1's piece on square s (1-5) has
     * never moved (l1=/l2=). left: the values of this turn's throws still
     * to play (left=), as counts of 4 bits: value v's count in bits
     * 4(v-1) .. 4(v-1)+3 of left[0] | left[1] << 8 | left[2] << 16
     * (kemet_left_count). again: 1 when this turn has earned another
     * (marks=throw, again=1). */
    uint8_t lock[2];
    uint8_t left[3];
    uint8_t again;
} kemet_pos;

enum { KEMET_PLAYING = 0, KEMET_WON1 = 1, KEMET_WON2 = 2, KEMET_DRAW = 3 };

/* A throw: one or more values. Four sticks give one value (n == 1). n == 0
 * is "no throw yet" (the pre-throw choice point). `only[i]` is 0 when either
 * player may use v[i], else 1 or 2 (a dual-coloured stick). `faces` is for
 * display only: bit i set when stick or die i shows its marked side; it
 * takes no part in comparing throws. */
/* kemet_throw.sticks of a throw that is no new throw: the values of this
 * turn's throws still to play (Tab's left=), written `none`. */
#define KEMET_KEPT 255

typedef struct kemet_throw {
    uint8_t n;
    uint8_t v[KEMET_MAX_VALUES];
    uint8_t only[KEMET_MAX_VALUES];
    uint8_t sticks; /* how many sticks were thrown (display) */
    uint16_t faces;
} kemet_throw;

/* One step of a move: from a square or KEMET_HAND, to the square where the
 * piece finally rests (after lines and shortcuts) or KEMET_OFF. In the
 * track rulesets (Washburne's, Lions & Jackals) `via` is the line's or
 * river's end the count reached before the piece followed it (written
 * FROM-END-TO), the square itself for a step that says it follows none
 * (FROM-TO-TO), or 0 where the text leaves it out (docs/notation.md);
 * elsewhere 0. */
typedef struct kemet_step {
    uint8_t from;
    uint8_t to;
    uint8_t via;
} kemet_step;

/* A move: n steps in the order played. n == 0 is `pass`. */
typedef struct kemet_move {
    uint8_t n;
    kemet_step step[KEMET_MAX_STEPS];
} kemet_move;

/* ---------------------------------------------------------------------------
 * Rulesets
 * ------------------------------------------------------------------------ */
typedef struct kemet_rules kemet_rules;

/* Static facts about a ruleset, for front ends. */
typedef struct kemet_info {
    const char *id;          /* "senet-kendall" */
    const char *title;       /* "Senet (Kendall)" */
    const char *source;      /* where the rules were published, and which of
                                its rules kemet plays */
    const char *text;        /* the rules in plain words, several lines */
    const char *player[2];   /* "White", "Black" */
    char glyph[2];           /* one ASCII letter per player for boards */
    const char *gone;        /* what pieces no longer in play are: "borne off",
                                "captured"; NULL where none ever leave */
    const char *in_hand;     /* where pieces in hand are: "in hand", "in the
                                Duat", "off the board" */
    int pieces;              /* pieces per player */
    int squares;             /* highest path square */
    int board_cells;         /* physical cells of the board */
    const char *board_note;  /* NULL, or what the board (and sticks) are
                                when they are a reconstruction */
    const char *author;      /* who the rules are by: "Timothy Kendall"; where
                                the source names nobody, it says so ("a
                                French rules sheet, author unknown") */
    int year;                /* the year they were published; 0 where the
                                source gives none */
    const char *about;       /* one line for a player: what sets this game
                                apart from the others on its board */
    int scores;              /* 1 where pieces borne off are counted apart
                                from captured ones, as a score (Bell's
                                o1=/o2=, kemet_pos.off); else 0 */
    const char *source_kind; /* what kind of source the rules come from, in
                                words: "a scholarly publication", "a game
                                book", ..., several joined by "; ";
                                "not given" where the file says nothing
                                (docs/rulesets.md, `source-kind`) */
    const char *reference;   /* the publication(s) the rules come from
                                (author, year, title, pages), one a line,
                                each ending in a newline; NULL where none is
                                given */
} kemet_info;

/* How many rulesets are registered, and the id of the i-th. */
KEMET_API int kemet_ruleset_count(void);
KEMET_API const char *kemet_ruleset_id(int i);

/* Opens a ruleset from "id" or "id:key=value,...". On success *out must be
 * released with kemet_rules_close. Fails with KEMET_ERULESET. */
KEMET_API int kemet_rules_open(const char *spec, kemet_rules **out,
                               kemet_error *err);
/* As kemet_rules_open, with the board read from `board_text`, the text of
 * a board file (docs/boards.md), instead of the ruleset's own. Only the
 * rulesets whose board is a reconstruction (Washburne, Lions & Jackals)
 * take one; errors name the file's line. board_text NULL: the built-in
 * board. */
KEMET_API int kemet_rules_open_board(const char *spec, const char *board_text,
                                     kemet_rules **out, kemet_error *err);
KEMET_API void kemet_rules_close(kemet_rules *rules);
/* Opens the ruleset described by a ruleset file's text (docs/rulesets.md),
 * a researcher's reading of a board as data over the parts kemet has.
 * `spec` is NULL (every option at its default) or "id:key=value,..." with
 * the file's id. `board_text`: as kemet_rules_open_board. A problem in
 * the file fails with KEMET_ESYNTAX and "rules file line N: ..."; a file
 * may not take a built-in ruleset's id. */
KEMET_API int kemet_rules_open_text(const char *rules_text, const char *spec,
                                    const char *board_text, kemet_rules **out,
                                    kemet_error *err);
/* As kemet_rules_open_text, reading the file at `path` (at most 256 KiB);
 * a file that cannot be read fails with KEMET_EIO. */
KEMET_API int kemet_rules_open_file(const char *path, const char *spec,
                                    const char *board_text, kemet_rules **out,
                                    kemet_error *err);
/* One rule of a reading changed, to ask which of its rules makes it the
 * game it is (docs/analysis.md, "What each rule does"). */
typedef struct kemet_change {
    int option;     /* 1: an option at another value; 0: a part */
    char part[32];  /* the option's key, or the part's name ("capture") */
    char from[200]; /* the option's default ("board=lines"), or the part's
                       statement in the reading ("capture swap"); "" where
                       the change adds the part */
    char to[200];   /* the value or statement after the change; "" where it
                       removes the part */
    char id[48];    /* the changed reading's id */
} kemet_change;
#define KEMET_MAX_CHANGES 30
/* The one-rule changes of a reading at its default options, by this rule:
 * first each option at each of its other values; then each part of the
 * reading replaced by every other form a built-in ruleset of its family
 * gives that part (at any of its options' values), removed where another
 * such ruleset has no part of that name, and the parts the others have
 * and this one has not added; in the order of the reading's file, each
 * part's forms in the order of the built-in rulesets. A change whose
 * parts do not work together is skipped (counted in *refused, which may
 * be NULL), as is one that gives the same parts as an earlier one. At
 * most `max` are written. Returns their count, or KEMET_EMISUSE (options
 * chosen, NULL arguments) or KEMET_ENOMEM. */
KEMET_API int kemet_rule_changes(const kemet_rules *rules, kemet_change *out,
                                 int max, int *refused, kemet_error *err);
/* The ruleset file of change c of `rules`: the reading's file at its
 * options, with that one rule changed, its id and title the change's
 * (kemet_free it). */
KEMET_API int kemet_change_text(const kemet_rules *rules, const kemet_change *c,
                                char **out, kemet_error *err);
/* Opens change c of `rules`, judged by the evaluation of `rules` (its
 * tuned weights and networks; a Senet reading computes the features of
 * the reading it was changed from), so that what is measured of it
 * differs from `rules` by the rule alone. */
KEMET_API int kemet_rules_open_change(const kemet_rules *rules,
                                      const kemet_change *c, kemet_rules **out,
                                      kemet_error *err);

/* The SHA-256 of the text a ruleset was opened from (with its board
 * file's, if one was given), as 64 hex digits, for rulesets opened from a
 * user's file; NULL for the built-in rulesets. Records, tables and
 * networks made for a file name it by this. */
KEMET_API const char *kemet_rules_sha256(const kemet_rules *rules);
/* The name under which what is made for the ruleset (endgame tables, race
 * databases) is kept: its spec, and for a user's file the spec, "@" and
 * the first 16 hex digits of its SHA-256. */
KEMET_API const char *kemet_rules_key(const kemet_rules *rules);
KEMET_API const kemet_info *kemet_rules_info(const kemet_rules *rules);
/* The canonical spec ("id", plus options that differ from the defaults). */
KEMET_API const char *kemet_rules_spec(const kemet_rules *rules);
/* The options the ruleset takes (its file's `option` statements): how
 * many, and for option i (0.., in the file's order) its key, with
 * *nvalues the values it takes and *def the index of its default among
 * them; NULL for an i out of range. Value k's text (as a spec writes it:
 * "d4", or a number for an option of a range MIN..MAX, value k being
 * MIN + k) goes to buf; its length, or -1 for a k out of range. */
KEMET_API int kemet_rules_option_count(const kemet_rules *rules);
KEMET_API const char *kemet_rules_option(const kemet_rules *rules, int i,
                                         int *nvalues, int *def);
KEMET_API int kemet_rules_option_value(const kemet_rules *rules, int i, int k,
                                       char *buf, size_t len);
/* The text of the board file the ruleset plays on (docs/boards.md), for
 * front ends that draw the board: the built-in file or the one given to
 * kemet_rules_open_board. NULL for rulesets whose board is fixed by the
 * text (Senet, the 58-holes rulesets). */
KEMET_API const char *kemet_rules_board_file(const kemet_rules *rules);

/* The starting position after set-up and before the first throw, with
 * `to` the player the rules fix, else 1. Cannot fail. */
KEMET_API void kemet_start(const kemet_rules *rules, kemet_pos *pos);

/* ---------------------------------------------------------------------------
 * Playing
 * ------------------------------------------------------------------------ */

/* Result of a position: KEMET_PLAYING, KEMET_WON1, KEMET_WON2, KEMET_DRAW. */
static inline int kemet_result(const kemet_pos *pos) {
    return pos->result;
}

/* How many values v (1-6) are still to play this turn (Tab's left=). */
static inline int kemet_left_count(const kemet_pos *pos, int v) {
    uint32_t all = (uint32_t)pos->left[0] | (uint32_t)pos->left[1] << 8 |
                   (uint32_t)pos->left[2] << 16;
    return v < 1 || v > 6 ? 0 : (int)(all >> (4 * (v - 1)) & 15);
}

/* Pieces of `player` (1 or 2) on the board, the heap square included;
 * KEMET_EMISUSE for another player or a NULL position. */
KEMET_API int kemet_on_board(const kemet_pos *pos, int player);

/* The weight of a throw's outcome: 64 bits, for the 16^8 sequences of
 * Tab's eight throws of four sticks (reconstructions TB13). */
typedef uint64_t kemet_weight;

/* Every distinct outcome of a throw in `pos` with its exact probability
 * weight[i] / *total. Returns the number of outcomes (<= KEMET_MAX_THROWS). */
KEMET_API int kemet_throws(const kemet_rules *rules, const kemet_pos *pos,
                           kemet_throw *out, kemet_weight *weight,
                           kemet_weight *total);

/* 1 when the player to move plays values already thrown this turn (Tab's
 * left=): no new throw is made. kemet_roll then gives those values back
 * as a throw whose `sticks` is KEMET_KEPT (written `none`), and
 * kemet_moves and kemet_apply take `none` (n == 0) for it too. Else 0;
 * KEMET_EMISUSE for NULL or an unusable position. */
KEMET_API int kemet_throw_kept(const kemet_rules *rules, const kemet_pos *pos);

/* Throws the sticks (or dice) with `rng`. */
KEMET_API void kemet_roll(const kemet_rules *rules, const kemet_pos *pos,
                          kemet_rng *rng, kemet_throw *out);

/* Moves that may be made instead of throwing (Senet's rescue from the
 * water). Throwing is always possible besides these. Returns the count, or
 * KEMET_EOVER. At most KEMET_MAX_MOVES are written. */
KEMET_API int kemet_prethrow(const kemet_rules *rules, const kemet_pos *pos,
                             kemet_move *out);

/* Every distinct legal move for `thr` in `pos`; a lone `pass` (n == 0) when
 * the throw cannot be used. Returns the count (>= 1), KEMET_EOVER,
 * KEMET_ETHROW for a throw the ruleset cannot produce, or KEMET_EMISUSE
 * for a NULL argument (a NULL `thr` included). `out` must hold
 * KEMET_MAX_MOVES moves. For a turn of several steps (several values),
 * each distinct outcome is listed once, in one order of its steps; any
 * other order of the same steps is as legal (kemet_apply accepts it).
 * KEMET_ERANGE: more distinct turns than KEMET_MAX_MOVES (never seen with
 * the rulesets' own limits on the number of sticks). */
KEMET_API int kemet_moves(const kemet_rules *rules, const kemet_pos *pos,
                          const kemet_throw *thr, kemet_move *out);

/* For entering a turn of several steps one step at a time (a front end, a
 * player): `done` holds the steps chosen so far for `thr` in `pos`. Writes
 * the distinct legal next steps into `next` (each a one-step move; `next`
 * must hold KEMET_MAX_MOVES) and, if `left` is not NULL, the values not
 * yet spent into `left`. Returns the number of next steps, 0 when `done`
 * is a complete turn, or KEMET_EILLEGAL when `done` does not begin a legal
 * turn (KEMET_EOVER, KEMET_ETHROW as kemet_moves). For rulesets of one
 * value per throw the next steps are the moves themselves. */
KEMET_API int kemet_next_steps(const kemet_rules *rules, const kemet_pos *pos,
                               const kemet_throw *thr, const kemet_move *done,
                               kemet_move *next, kemet_throw *left);

/* What a move did, for messages. */
enum kemet_event_kind {
    KEMET_EV_MOVE,    /* a piece moved from a to b (b may be KEMET_OFF, or
                         KEMET_HAND: Skiryuk's Shen back to hand) */
    KEMET_EV_ENTER,   /* a piece entered from hand onto b */
    KEMET_EV_SWAP,    /* the opponent's piece on a was sent back to b */
    KEMET_EV_CAPTURE, /* the opponent's piece on a was captured */
    KEMET_EV_WATER,   /* the mover's piece fell into the water on a */
    KEMET_EV_RESCUE,  /* the mover's piece was taken from the water to b */
    KEMET_EV_LINE,    /* the piece followed a line from a to b */
    KEMET_EV_LOAD,    /* a piece was loaded from hand onto b */
    KEMET_EV_AGAIN,   /* the mover throws again */
    KEMET_EV_RETHROW, /* the mover throws again with the piece on a */
    KEMET_EV_PASS,    /* the throw could not be used */
    KEMET_EV_LOST,    /* the throw was lost because of the piece on a (b
                         1: it is the side's only piece in play) */
    KEMET_EV_WIN,     /* player `who` won (a: the points the win is
                         worth where the rules count them, Jequier's;
                         else 0) */
    KEMET_EV_DRAW,    /* the game is drawn (a 0: nothing can move; a 1:
                         equal scores) */
    KEMET_EV_STARTS,  /* opening: player `who` starts (a, b: the opening
                         throws of players 1 and 2, 0 when drawn by lot) */
    KEMET_EV_REOPEN,  /* opening: equal throws a = b, thrown again */
    KEMET_EV_RIVER,   /* the piece was carried back by a river from a to b */
    KEMET_EV_KNOCK,   /* the opponent's piece on a was knocked off the board
                         (to hand, or the Duat: it may come back) */
    KEMET_EV_HIT,     /* the opponent's piece on a was hit and leaves the
                         game for good (Bell) */
    KEMET_EV_SENT,    /* the opponent's piece on a was hit and sent back to
                         b (Jequier: the first empty square) */
    KEMET_EV_DROWN,   /* the mover's piece fell into the water on a and
                         went to b (a square, or KEMET_HAND) */
    KEMET_EV_UNENTER, /* the piece just entered on a could not move with the
                         throw it had to use and went back to hand
                         (Piccione) */
    KEMET_EV_FIRST1   /* opening (Jequier): the contestants threw in turn,
                         a throws in all, until contestant b (1: the one
                         named first) threw a 1: that one plays player
                         `who` (black), has played 10-11 and throws again */
};

typedef struct kemet_event {
    uint8_t kind;
    uint8_t who; /* 1 or 2: whose piece the event concerns */
    uint8_t a, b;
} kemet_event;

#define KEMET_MAX_EVENTS 16
typedef struct kemet_events {
    int n;
    kemet_event ev[KEMET_MAX_EVENTS];
} kemet_events;

/* The board in the middle of a turn entered step by step: the steps of
 * `done` (a legal beginning of a turn, as kemet_next_steps accepts) made
 * in `pos` with their consequences, the same player still to move, in
 * *out; a complete turn as kemet_apply. KEMET_EILLEGAL when `done` begins
 * no legal turn (KEMET_EOVER, KEMET_ETHROW as kemet_moves). */
KEMET_API int kemet_steps_pos(const kemet_rules *rules, const kemet_pos *pos,
                              const kemet_throw *thr, const kemet_move *done,
                              kemet_pos *out);

/* Applies a legal move with all its consequences. `thr` is NULL (or n == 0)
 * for a pre-throw choice. Checks legality: returns KEMET_EILLEGAL (and
 * leaves *out untouched) for a move not in kemet_moves/kemet_prethrow,
 * KEMET_EOVER on a finished position. `ev` may be NULL. */
KEMET_API int kemet_apply(const kemet_rules *rules, const kemet_pos *pos,
                          const kemet_throw *thr, const kemet_move *move,
                          kemet_pos *out, kemet_events *ev);

/* As kemet_apply, without the legality check: `move` must come from
 * kemet_moves (or kemet_prethrow) for this very position and throw. For
 * search and playouts. `out` may equal `pos`. */
KEMET_API void kemet_make(const kemet_rules *rules, const kemet_pos *pos,
                          const kemet_throw *thr, const kemet_move *move,
                          kemet_pos *out, kemet_events *ev);

/* What the win of a finished game is worth, where the rules count points
 * (Jequier's rule 10: 3, 2 and 1 for each of the loser's pieces on the
 * first, middle and last row); 0 where they do not, for a draw, or while
 * the game goes on; KEMET_EMISUSE for an unusable argument. */
KEMET_API int kemet_points(const kemet_rules *rules, const kemet_pos *pos);

/* What the events of a move mean, as sentences a player reads, one per
 * line, each line starting with two spaces ("  White moves 5-8.\n").
 * Returns the length written (0 for no events), KEMET_ERANGE when `len`
 * is too small (KEMET_DESCRIBE_MAX always suffices), or KEMET_EMISUSE. */
#define KEMET_DESCRIBE_MAX 4096
KEMET_API int kemet_describe(const kemet_rules *rules, const kemet_events *ev,
                             char *buf, size_t len);

/* Why `move` is not legal for `thr` in `pos`, as one sentence in `buf`
 * ("square 15 holds your own piece"). Returns 0 and writes nothing when the
 * move is legal, 1 when it wrote a reason; KEMET_EMISUSE (NULL pointers, an
 * unusable position) or KEMET_ERANGE (`len` 0) when it cannot answer.
 * thr NULL: before the throw. */
KEMET_API int kemet_explain(const kemet_rules *rules, const kemet_pos *pos,
                            const kemet_throw *thr, const kemet_move *move,
                            char *buf, size_t len);

/* ---------------------------------------------------------------------------
 * The judge: everything that values a position, kept apart from the rules
 * (GNU Backgammon's evaluator picked by the class of the position). A
 * judge is made from a ruleset and answers, for any position, the chance
 * that a player wins, by one chain: the result of a finished game; an
 * exact endgame table where one covers the position; a race database
 * where the sides never meet; else the evaluation, which is the learned
 * network (where the library carries one for the ruleset, or one given)
 * or the linear evaluation below. Every agent, search, rollout, review and
 * luck judges through a judge.
 *
 * The linear evaluation: each ruleset describes a position by a few
 * features (progress, pieces borne off, pieces at risk, ...: the
 * difference between the two sides, and whose turn it is); weights turn
 * them into the log-odds that a player wins. The weights the library
 * carries were tuned by self-play with `kemet tune` (data/eval.weights;
 * docs/strength.md).
 *
 * A judge is set up (tables, race database, network, weights) before it is
 * shared; afterwards every call taking a const judge may be made from many
 * threads at once. It borrows its rules, tables, race database and any
 * network given to it: they must outlive it.
 * ------------------------------------------------------------------------ */
#define KEMET_MAX_FEATURES 12
typedef struct kemet_judge kemet_judge;
typedef struct kemet_table kemet_table;
typedef struct kemet_race kemet_race;
typedef struct kemet_net kemet_net;

/* Makes a judge for `rules`. `how` is NULL or "" (the built-in network
 * where the library carries one that fits, else the linear evaluation),
 * "linear" (the linear evaluation; tables and race databases may still be
 * added) or "plain" (the linear evaluation alone: tables and race
 * databases given later are not used). The judge starts with the tuned
 * weights and no table or race database. KEMET_EMISUSE (NULL), KEMET_ESYNTAX
 * (another `how`), KEMET_ENOMEM. */
KEMET_API int kemet_judge_new(const kemet_rules *rules, const char *how,
                              kemet_judge **out, kemet_error *err);
KEMET_API void kemet_judge_free(kemet_judge *judge);
KEMET_API const kemet_rules *kemet_judge_rules(const kemet_judge *judge);
/* Player 1's chance of winning `pos` (a draw counts one half) by the
 * chain above; *exact (may be NULL) is set to 1 when the answer is exact
 * (a finished game, a table's value), else 0. */
KEMET_API double kemet_judge_chance(const kemet_judge *judge,
                                    const kemet_pos *pos, int *exact);
/* Lets the judge use `table` (borrowed; NULL stops) wherever it covers a
 * position: values there are exact. KEMET_ERULESET for a table of
 * another ruleset. */
KEMET_API int kemet_judge_use_table(kemet_judge *judge,
                                    const kemet_table *table);
KEMET_API const kemet_table *kemet_judge_table(const kemet_judge *judge);
/* Lets the judge use `race` (borrowed; NULL stops) wherever no table
 * covers a position. KEMET_ERULESET for another ruleset's database. */
KEMET_API int kemet_judge_use_race(kemet_judge *judge, const kemet_race *race);
KEMET_API const kemet_race *kemet_judge_race(const kemet_judge *judge);
/* Puts `net` (borrowed; NULL: the linear evaluation) in use.
 * KEMET_ERULESET for a network that does not fit the ruleset. */
KEMET_API int kemet_judge_use_net(kemet_judge *judge, const kemet_net *net);
/* The network in use, or NULL. */
KEMET_API const kemet_net *kemet_judge_net(const kemet_judge *judge);

/* The log-odds that `player` (1 or 2) wins from `pos` by the evaluation
 * (network, else linear weights; no tables): higher is better; +-1000 for a
 * game won or lost, 0 for a draw. */
KEMET_API double kemet_eval(const kemet_judge *judge, const kemet_pos *pos,
                            int player);
/* The chance, 0 to 1, that `player` wins from `pos` (a draw counts one
 * half) by the judge's chain: exactly 1, 0 or 0.5 for a finished game,
 * exact where a table covers `pos`. */
KEMET_API double kemet_win_chance(const kemet_judge *judge,
                                  const kemet_pos *pos, int player);
/* The features of `pos` seen by player 1 (player 1's minus player 2's, and
 * +1 or -1 for whose turn it is) into f[]; returns how many, or
 * KEMET_EMISUSE. */
KEMET_API int kemet_eval_features(const kemet_rules *rules,
                                  const kemet_pos *pos, double *f);
/* The name of feature i ("progress", ..., "tempo"), or NULL. */
KEMET_API const char *kemet_eval_feature(const kemet_rules *rules, int i);
/* The judge's linear weights into w[] (KEMET_MAX_FEATURES); returns how
 * many. */
KEMET_API int kemet_eval_weights(const kemet_judge *judge, double *w);
/* Replaces the judge's linear weights (n must be the number of features;
 * each finite and at most KEMET_MAX_WEIGHT in size, else KEMET_EMISUSE),
 * so that kemet_win_chance stays a number from 0 to 1. */
#define KEMET_MAX_WEIGHT 1e6
KEMET_API int kemet_eval_set_weights(kemet_judge *judge, const double *w,
                                     int n);
/* Restores the ruleset module's starting weights (those before tuning). */
KEMET_API void kemet_eval_reset(kemet_judge *judge);
/* Reads the judge's weights from the text of a weights file:
 *   kemet-weights 1
 *   RULESET-ID NAME=WEIGHT NAME=WEIGHT ...   (one line per ruleset)
 * KEMET_ESYNTAX for a malformed file, unknown feature names or a weight
 * beyond KEMET_MAX_WEIGHT in size, with
 * err->msg "weights line N: ..."; KEMET_ERULESET when the file has no line
 * for this ruleset. The weights are unchanged on failure. */
KEMET_API int kemet_eval_load(kemet_judge *judge, const char *text,
                              kemet_error *err);

/* Whether two moves are the same move. */
KEMET_API int kemet_move_equal(const kemet_move *a, const kemet_move *b);
/* Whether two throws are the same (values and owners; not faces). */
KEMET_API int kemet_throw_equal(const kemet_throw *a, const kemet_throw *b);

/* ---------------------------------------------------------------------------
 * Notation (docs/notation.md)
 * ------------------------------------------------------------------------ */

/* Parses a position line. Opens its ruleset into *rules (close it after use)
 * and fills *pos. Fails with KEMET_ESYNTAX or KEMET_ERULESET; then *rules is
 * NULL. */
KEMET_API int kemet_pos_parse(const char *text, kemet_rules **rules,
                              kemet_pos *pos, kemet_error *err);
/* As kemet_pos_parse, with the ruleset's board read from a board file's
 * text (see kemet_rules_open_board); NULL: the built-in board. */
KEMET_API int kemet_pos_parse_board(const char *text, const char *board_text,
                                    kemet_rules **rules, kemet_pos *pos,
                                    kemet_error *err);
/* As kemet_pos_parse_board, the position's ruleset being the one of the
 * ruleset file `rules_text` (kemet_rules_open_text) when not NULL. */
KEMET_API int kemet_pos_parse_text(const char *text, const char *rules_text,
                                   const char *board_text, kemet_rules **rules,
                                   kemet_pos *pos, kemet_error *err);
/* Parses a position line for `rules`, already open: the line's ruleset
 * must be the same (compared as canonical specs), else KEMET_ERULESET.
 * Opens nothing. KEMET_ESYNTAX for a malformed line; *pos is untouched
 * on failure. */
KEMET_API int kemet_pos_read(const kemet_rules *rules, const char *text,
                             kemet_pos *pos, kemet_error *err);
/* Validates a position for `rules` (what kemet_pos_parse checks). */
KEMET_API int kemet_pos_check(const kemet_rules *rules, const kemet_pos *pos,
                              kemet_error *err);
/* Writes the canonical position line. Returns its length, KEMET_ERANGE
 * (`len` too small) or KEMET_EMISUSE. */
KEMET_API int kemet_pos_format(const kemet_rules *rules, const kemet_pos *pos,
                               char *buf, size_t len);

/* Parses "FROM-TO[+FROM-TO...]" or "pass" (syntax and ranges only); a
 * step may name the end its count reached, FROM-END-TO. */
KEMET_API int kemet_move_parse(const kemet_rules *rules, const char *text,
                               kemet_move *move, kemet_error *err);
/* Writes a move ("9-12", "pass"). Returns the length, KEMET_ERANGE (`len`
 * too small) or KEMET_EMISUSE (NULL). */
KEMET_API int kemet_move_format(const kemet_move *move, char *buf, size_t len);
/* Rewrites, in place, a move written in an earlier form of the notation
 * that today's no longer reads: a plain step written FROM-TO-TO onto a
 * hole no line or river leads to (`18-23-23` in Lions & Jackals) becomes
 * FROM-TO (`18-23`), which names the same step. A move in today's form
 * is left as it is. Readers of what was written before (records, a
 * server's stored games) call it before kemet_apply; KEMET_EMISUSE for a
 * NULL or unusable argument. */
KEMET_API int kemet_move_upgrade(const kemet_rules *rules, const kemet_pos *pos,
                                 kemet_move *move);

/* Parses a throw as written on the command line: a value ("3"), "none"
 * (n == 0), or several values separated by commas ("2,2,3"). Fails with
 * KEMET_ETHROW unless the ruleset can throw it. */
KEMET_API int kemet_throw_parse(const kemet_rules *rules, const char *text,
                                kemet_throw *thr, kemet_error *err);
/* Writes a throw ("3", "none", "2,2,3"); returns as kemet_move_format. */
KEMET_API int kemet_throw_format(const kemet_throw *thr, char *buf, size_t len);

/* ---------------------------------------------------------------------------
 * Board pictures: a ruleset's board as a text template, for front ends.
 * Each slot "{NN}" (NN = cell number, 4 characters wide) stands for the
 * content of board cell NN. kemet_board_cell says what is on a cell.
 * ------------------------------------------------------------------------ */
KEMET_API const char *kemet_board_template(const kemet_rules *rules);
/* Pieces of each player on physical cell `cell` (1..board_cells). */
KEMET_API void kemet_board_cell(const kemet_rules *rules, const kemet_pos *pos,
                                int cell, int count[2]);
/* The physical cell of player `player`'s path square `square`, or 0. */
KEMET_API int kemet_square_cell(const kemet_rules *rules, int player,
                                int square);

/* A board for drawing: holes with their place, shape and
 * size in the units of a view box w x h, their label and sign, whose home
 * they are, and the lines and rivers joining them (kemet_art). Every ruleset
 * has one; front ends need no knowledge of the boards. */
#define KEMET_ART_HOLES 100
#define KEMET_ART_LINKS 32
enum { KEMET_ART_ROUND = 0, KEMET_ART_SQUARE = 1 }; /* a hole's shape */
enum { KEMET_ART_MARKED = 1, KEMET_ART_SAFE = 2 };  /* a hole's flags */
enum { KEMET_ART_LINE = 0, KEMET_ART_RIVER = 1 };   /* a link's kind */
enum { KEMET_ART_FRAME_RECT = 0, KEMET_ART_FRAME_PALM = 1 }; /* the outline */
typedef struct kemet_hole_art {
    int cell;       /* the board cell (kemet_board_cell) */
    double x, y, r; /* centre; radius (half the side of a square) */
    int shape;      /* KEMET_ART_ROUND or KEMET_ART_SQUARE */
    int flags;      /* KEMET_ART_MARKED (a marked hole), KEMET_ART_SAFE */
    int home;       /* 0, or the player whose home (start) the hole is */
    char label[12]; /* its number as players name it ("15", "Shen") */
    char mark[8];   /* a sign drawn by it, UTF-8 ("☥", "≈≈"), or "" */
} kemet_hole_art;
typedef struct kemet_art_link {
    int from, to; /* cells */
    int kind;     /* KEMET_ART_LINE or KEMET_ART_RIVER */
    double bend;  /* 0: straight; else a curve bowed by this much in x */
} kemet_art_link;
typedef struct kemet_board_art {
    double w, h;
    int frame; /* KEMET_ART_FRAME_RECT (a plain board) or _PALM */
    int nholes, nlinks;
    kemet_hole_art hole[KEMET_ART_HOLES];
    kemet_art_link link[KEMET_ART_LINKS];
} kemet_board_art;
/* Fills *out; returns the number of holes, or KEMET_EMISUSE. */
KEMET_API int kemet_art(const kemet_rules *rules, kemet_board_art *out);

/* The computer's play levels, 1 (weakest) to KEMET_LEVELS: the agent each
 * plays as (an agent spec for kemet_agent_new) and a few words on it.
 * NULL outside 1..KEMET_LEVELS. kemet_level_agent gives the levels of a
 * ruleset that names none; kemet_rules_level_agent the ruleset's own
 * (its file's 'levels', chosen so that each level is measurably stronger
 * than the one below: docs/ladder.md). */
#define KEMET_LEVELS 5
KEMET_API const char *kemet_level_agent(int level);
KEMET_API const char *kemet_level_about(int level);
KEMET_API const char *kemet_rules_level_agent(const kemet_rules *rules,
                                              int level);

/* ---------------------------------------------------------------------------
 * The game driver: rules + position + the dice generator, with the opening
 * procedure that decides who starts (ruling G4) and turn counting.
 * ------------------------------------------------------------------------ */
typedef struct kemet_game kemet_game;

/* One ply of a game: the throw (n == 0: a move made instead of throwing)
 * and the move made. */
typedef struct kemet_ply {
    kemet_throw thr;
    kemet_move move;
} kemet_ply;

/* Starts a game with the dice seeded from `seed`; runs the ruleset's opening
 * procedure (who starts; for Skiryuk also the starter's first throw, which
 * is then pending: see kemet_game_throw). `ev` (may be NULL) receives what
 * the opening did. */
KEMET_API int kemet_game_new(const kemet_rules *rules, uint64_t seed,
                             kemet_game **out, kemet_events *ev);
/* Where the ruleset's opening decides which contestant plays black
 * (Jequier's first 1, KEMET_EV_FIRST1), the contestant it seats as player
 * 2 in the game of seed `seed`: 1 the one named first, 2 the other; 0 in
 * every other ruleset (or out of memory). */
KEMET_API int kemet_opening_black(const kemet_rules *rules, uint64_t seed);
/* Starts a game set up in `pos` (checked as kemet_pos_check does; not
 * over), with no opening: `pos->to` throws first, the dice seeded from
 * `seed`. KEMET_EOVER for a finished position. */
KEMET_API int kemet_game_setup(const kemet_rules *rules, uint64_t seed,
                               const kemet_pos *pos, kemet_game **out,
                               kemet_error *err);
KEMET_API void kemet_game_free(kemet_game *game);
KEMET_API const kemet_pos *kemet_game_pos(const kemet_game *game);
/* The throw waiting for a move, or NULL before the throw. Where values
 * of the turn's throws wait to be played (kemet_throw_kept: Tab), they are
 * pending at once as the throw kemet_roll gives for them: the game waits
 * for a move, not a throw. */
KEMET_API const kemet_throw *kemet_game_throw(const kemet_game *game);
/* Throws the sticks. Fails with KEMET_EMISUSE when a throw is pending (or
 * game is NULL), KEMET_EOVER when the game is over. */
KEMET_API int kemet_game_roll(kemet_game *game, kemet_throw *thr);
/* Makes a move: for the pending throw, or a pre-throw choice when none is
 * pending. Checks legality (KEMET_EILLEGAL); KEMET_EMISUSE for NULL,
 * KEMET_EOVER after a resignation or a stop, KEMET_ENOMEM when the
 * history cannot grow (nothing is then made). */
KEMET_API int kemet_game_play(kemet_game *game, const kemet_move *move,
                              kemet_events *ev);
/* As kemet_game_play without the legality check, for simulations: `move`
 * must come from kemet_moves (or kemet_prethrow) for the current position
 * and pending throw. Does nothing after a resignation or a stop. */
KEMET_API void kemet_game_make(kemet_game *game, const kemet_move *move);
/* Plays the game on with uniformly random choices (drawn from `pick`; the
 * throws from the game's dice; where a turn spends several values, each
 * step is drawn uniformly among the legal steps, as a player moving one
 * value at a time would) until it ends or a new turn would begin
 * beyond `max_turns` turns (the game is then "stopped", ruling G5). Before
 * a throw, throwing and each pre-throw move are equally likely. Uses the
 * ruleset's fast path unless `generic` is non-zero; both give the same game.
 * A pending throw (one the opening made) is used first. A game the cap
 * ends unfinished is then stopped (kemet_game_stopped). */
KEMET_API int kemet_game_playout(kemet_game *game, kemet_rng *pick,
                                 long max_turns, int generic);
/* Turns (each hand-over of the sticks) and plies (each move, pass or
 * pre-throw choice) so far. */
KEMET_API long kemet_game_turns(const kemet_game *game);
KEMET_API long kemet_game_plies(const kemet_game *game);

/* The game session. A game keeps its history (each ply's throw and move)
 * so that a front end can show it, take moves back, resign, write the
 * record and read a game back from one: kemet play, kemet serve and its
 * page, the offline page and the Python package all drive a game through
 * these calls, and the same semantics hold for all of them.
 *
 * A game played on by kemet_game_playout keeps no history from then (its
 * plies are not listed): kemet_game_back, _takeback and _record answer
 * KEMET_EMISUSE for it. So does a game whose history could not grow
 * (kemet_game_make cannot fail; kemet_game_play answers KEMET_ENOMEM
 * instead and makes nothing). */

/* The players' names the record gives ("human", an agent's spec): at most
 * 63 bytes each, no control characters, not empty; "human" until set.
 * KEMET_EMISUSE otherwise. */
KEMET_API int kemet_game_set_players(kemet_game *game, const char *player1,
                                     const char *player2);
/* Player p's name (p 1 or 2), or NULL. */
KEMET_API const char *kemet_game_player(const kemet_game *game, int p);
/* The seed the dice were seeded from. */
KEMET_API uint64_t kemet_game_seed(const kemet_game *game);
/* The position the first ply is made in: after the opening, or the one
 * set up. */
KEMET_API const kemet_pos *kemet_game_start(const kemet_game *game);
/* 1 for a game set up (kemet_game_setup, a record's "setup"), else 0. */
KEMET_API int kemet_game_is_setup(const kemet_game *game);
/* The plies made so far, in order (kemet_game_plies of them, the throw's
 * n 0 for a pre-throw move): valid until the game next changes. NULL
 * before the first ply, and for a game that keeps no history (see
 * above). */
KEMET_API const kemet_ply *kemet_game_history(const kemet_game *game);
/* The player who made ply i (0-based), or 0 outside the history. */
KEMET_API int kemet_game_mover(const kemet_game *game, long i);

/* The game's result: the position's (KEMET_PLAYING, KEMET_WON1,
 * KEMET_WON2, KEMET_DRAW), or after a resignation the other player's
 * win. */
KEMET_API int kemet_game_result(const kemet_game *game);
/* 0, or the player who resigned. */
KEMET_API int kemet_game_resigned(const kemet_game *game);
/* Player p (1 or 2) gives the game up, whoever is to move: the other
 * wins, and nothing more may be thrown or played. KEMET_EOVER once the
 * game is over (or stopped), KEMET_EMISUSE for another p. */
KEMET_API int kemet_game_resign(kemet_game *game, int p);
/* Stops the game unfinished (ruling G5: a turn cap reached); its record
 * then ends "result stopped". KEMET_EOVER once it is over. */
KEMET_API int kemet_game_stop(kemet_game *game);
/* 1 when the game was stopped unfinished, else 0. */
KEMET_API int kemet_game_stopped(const kemet_game *game);

/* What the game waits for: nothing (over, resigned or stopped), a throw
 * (or one of kemet_prethrow's moves instead) by the player to move, or a
 * move for the pending throw (kemet_game_throw). */
enum { KEMET_NEXT_OVER = 0, KEMET_NEXT_THROW = 1, KEMET_NEXT_MOVE = 2 };
KEMET_API int kemet_game_next(const kemet_game *game);

/* Goes back to just before ply `ply` (0 <= ply <= kemet_game_plies) was
 * made: the position, turn count and dice stand as they stood then, the
 * throw that ply used is pending again (so the same throw comes, and the
 * same throws after it), and the plies from `ply` on are forgotten, with
 * any resignation or stop. KEMET_EMISUSE for another `ply`. */
KEMET_API int kemet_game_back(kemet_game *game, long ply);
/* The ply a take-back by player p goes back to: p's last ply that was a
 * choice (a move or a pre-throw move; a pass, which nobody chose, is not
 * one), or -1 when p has none. */
KEMET_API long kemet_game_last_move(const kemet_game *game, int p);
/* Player p takes back their last move and everything after it:
 * kemet_game_back(game, kemet_game_last_move(game, p)). KEMET_EILLEGAL
 * when p has no move to take back, KEMET_EOVER after a resignation,
 * KEMET_EMISUSE for a p not 1 or 2. A game over by the rules may be taken
 * back. */
KEMET_API int kemet_game_takeback(kemet_game *game, int p);

/* The game's record so far (the format of kemet_replay): the header with
 * its seed and players, "start" after the opening or "setup" for a game
 * set up, a line a ply, a resignation, and the result line ("unfinished"
 * while it goes on, "stopped" after kemet_game_stop). *text receives it,
 * malloc'd: free it. */
KEMET_API int kemet_game_record(const kemet_game *game, char **text);
/* A game back from its record, every line checked as kemet_replay checks
 * it, standing where the record leaves it: its seed, players, start or
 * set-up position, plies, resignation and stop. `rules` must be the
 * record's ruleset (KEMET_ERULESET otherwise, with both named); a record
 * without a seed cannot go on (KEMET_ESYNTAX). The game borrows `rules`. */
KEMET_API int kemet_game_read(const kemet_rules *rules, const char *text,
                              kemet_game **out, kemet_error *err);

/* One action of the player to move, chosen by `choose`: the throw-and-
 * choose loop every front end and every match shares. Before a throw,
 * choose(ctx, pos, NULL, moves, n) is asked with the n >= 0 pre-throw
 * moves and answers -1 to throw or the index of one to make; after a
 * throw, choose(ctx, pos, thr, moves, n) with the n >= 1 legal moves
 * answers the index of the one to play. `scratch` holds KEMET_MAX_MOVES
 * moves. `ev` (may be NULL) receives what a move did (n 0 after a throw).
 * KEMET_EOVER when the game waits for nothing, KEMET_EMISUSE for an
 * answer out of range, KEMET_ERANGE as kemet_moves, KEMET_ENOMEM when
 * the history cannot grow; on an error nothing is made. */
typedef int (*kemet_choose_fn)(void *ctx, const kemet_pos *pos,
                               const kemet_throw *thr, const kemet_move *moves,
                               int n);
KEMET_API int kemet_game_step_with(kemet_game *game, kemet_choose_fn choose,
                                   void *ctx, kemet_move *scratch,
                                   kemet_events *ev);

/* ---------------------------------------------------------------------------
 * Agents: computer players. Each owns its generator.
 * ------------------------------------------------------------------------ */
typedef struct kemet_agent kemet_agent;

/* Names of the agents ("random", "greedy"), for help texts. */
KEMET_API int kemet_agent_count(void);
KEMET_API const char *kemet_agent_name(int i);
KEMET_API const char *kemet_agent_about(int i);

/* Creates an agent judging by `judge` (borrowed: it must outlive the
 * agent; see kemet_judge_new) from "name" or "name:budget": random,
 * greedy, expectimax[:BUDGET], mcts[:BUDGET], best[:BUDGET]. A budget is
 * a node (mcts: iteration) count ("20000", "20k", "1m"), a time ("500ms",
 * "2s"; not reproducible), or for expectimax and best a depth in plies
 * ("d3"). "@linear" after it ("best:100ms@linear") makes the agent judge
 * by the linear evaluation even where the judge uses a learned one (its
 * tables and race database still count); "@plain" judges as agents did
 * before tables, race databases and networks: by the linear evaluation
 * alone. Everything the agent needs to play is made here: choosing and
 * ranking never allocate, but for the mcts tree (see "Allocation"). Fails
 * with KEMET_EMISUSE, KEMET_ESYNTAX or KEMET_ENOMEM. */
KEMET_API int kemet_agent_new_judged(const kemet_judge *judge, const char *spec,
                                     uint64_t seed, kemet_agent **out,
                                     kemet_error *err);
/* As kemet_agent_new_judged with a judge of its own, made by
 * kemet_judge_new(rules, NULL, ...): the ruleset's own evaluation, no
 * tables or race database. */
KEMET_API int kemet_agent_new(const kemet_rules *rules, const char *spec,
                              uint64_t seed, kemet_agent **out,
                              kemet_error *err);
KEMET_API void kemet_agent_free(kemet_agent *agent);
KEMET_API const char *kemet_agent_spec(const kemet_agent *agent);
/* The judge the agent judges by (after "@linear" or "@plain"). */
KEMET_API const kemet_judge *kemet_agent_judge(const kemet_agent *agent);
/* Chooses among `n` moves for `thr` in `pos`; returns the index. With
 * thr NULL, chooses before the throw among the n pre-throw moves and
 * returns -1 to throw instead. Where there is no choice it answers
 * without searching or drawing: -1 for n <= 0, 0 for a throw with one
 * move. */
KEMET_API int kemet_agent_choose(kemet_agent *agent, const kemet_pos *pos,
                                 const kemet_throw *thr,
                                 const kemet_move *moves, int n);

/* Ranks the n moves as the agent sees them: chance[i] (if not NULL)
 * receives the estimated chance that the player to move in `pos` wins
 * after moves[i]. With thr NULL (before the throw) the moves are the
 * pre-throw moves and *throw_chance (if not NULL) receives the chance
 * after throwing. Returns the index the agent chooses (-1: throw). The
 * search agents search every move with a full window when asked for
 * chances, so ranking costs more than choosing. */
KEMET_API int kemet_agent_rank(kemet_agent *agent, const kemet_pos *pos,
                               const kemet_throw *thr, const kemet_move *moves,
                               int n, double *chance, double *throw_chance);
/* Positions the agent's last choice searched (iterations for mcts). */
KEMET_API long long kemet_agent_nodes(const kemet_agent *agent);
/* A check for long work (a server's stop, or its other work first): the
 * agent's searches call check(ctx) every few hundred positions, and
 * kemet_review before each decision it grades. It may wait (to let other
 * work go first); a non-zero answer stops the work: the search answers
 * from what it has searched so far, and kemet_review returns KEMET_EOVER
 * ("the review was stopped"). NULL removes it. Without a check, or while
 * it answers 0, every result is as it would be without it. */
KEMET_API void kemet_agent_set_check(kemet_agent *agent,
                                     int (*check)(void *ctx), void *ctx);
/* One action of the game's player to move, chosen by `agent`
 * (kemet_game_step_with with the agent as the chooser and its own room
 * for the moves): before a throw the agent throws or makes a pre-throw
 * move; after it, it plays its choice, where there is one: a throw with
 * a single legal move (a pass included) is played without asking it.
 * `ev` may be NULL. KEMET_EOVER when the game waits for nothing,
 * KEMET_EMISUSE for an agent of another ruleset, else as
 * kemet_game_step_with. */
KEMET_API int kemet_game_step(kemet_game *game, kemet_agent *agent,
                              kemet_events *ev);

/* ---------------------------------------------------------------------------
 * Rollouts: the value of each candidate move estimated by playing games on
 * from the position after it (docs/agents.md).
 * ------------------------------------------------------------------------ */
typedef struct kemet_rollout {
    int games;         /* games per candidate, >= 1 */
    int truncate;      /* 0: each game to its end (or to a table's exact
                          value); N > 0: after N plies the evaluation's
                          chance stands for the rest */
    int threads;       /* threads to use; the result does not depend on it */
    int plain;         /* non-zero: no luck adjustment (variance reduction) */
    uint64_t seed;     /* game g throws the same way for every candidate */
    const char *agent; /* the agent spec that plays the games, judging by
                          the rollout's judge; NULL: greedy */
} kemet_rollout;

/* Rolls out, as `judge` values the games' ends (and luck), the n moves
 * for `thr` in `pos` (thr NULL: the n pre-throw
 * moves, then throwing as candidate n, so chance and se hold n + 1).
 * chance[i] receives the estimated chance that the player to move in `pos`
 * wins after candidate i, se[i] (se may be NULL) its standard error.
 * Fails with KEMET_EMISUSE, KEMET_EOVER, KEMET_ESYNTAX (a bad agent spec)
 * or KEMET_ENOMEM. */
KEMET_API int kemet_rollout_run(const kemet_judge *judge, const kemet_pos *pos,
                                const kemet_throw *thr, const kemet_move *moves,
                                int n, const kemet_rollout *opts,
                                double *chance, double *se, kemet_error *err);

/* The luck of throw `thr` in `pos` (before the move it allows), player 1's
 * view: how much better it leaves player 1 than the average throw, in win
 * chance, every outcome met by the mover's best move one move ahead as
 * `judge` values it (tables, race database, network or linear evaluation;
 * exact at the game's end). Its mean over the throws is zero
 * whatever the evaluation, so a game's result minus the sum of its luck is
 * an unbiased estimate of the result, with far less variance when the
 * evaluation is good (kemet match --luck). Fails with KEMET_EMISUSE,
 * KEMET_EOVER, KEMET_ETHROW (not a throw of `pos`) or KEMET_ENOMEM. */
KEMET_API int kemet_throw_luck(const kemet_judge *judge, const kemet_pos *pos,
                               const kemet_throw *thr, double *luck,
                               kemet_error *err);

/* ---------------------------------------------------------------------------
 * Matches: many games between named players (kemet sim, match, tune,
 * ladder, analyze; match.c). A player is an agent spec or one of the
 * simple strategies: "rearmost" (always the piece furthest back, a piece
 * in hand first), "foremost" (the piece furthest ahead) and "safe-random"
 * (a random move among those that lose at most a tenth of a win chance,
 * one move ahead, by the judge's evaluation alone: its network, else its
 * weights, without its tables). Every game takes everything from its
 * seed: its dice, its agents' generators and the strategies' random
 * picks, so the same seed gives the same game on any thread or machine.
 * These functions take only shared objects (see "Threads") and may run
 * on many threads at once.
 * ------------------------------------------------------------------------ */

/* The seed of game i of a run seeded s (each game of a run its own). */
KEMET_API uint64_t kemet_run_seed(uint64_t s, uint64_t i);

/* 0 when `spec` names a player of `rules`: an agent kemet_agent_new takes,
 * or a simple strategy. Else KEMET_ESYNTAX (err says why), or
 * KEMET_EMISUSE for NULL arguments. */
KEMET_API int kemet_player_check(const kemet_rules *rules, const char *spec,
                                 kemet_error *err);

/* What each seat's agent spent choosing: the decisions it took with a
 * real choice (two moves or more, or a pre-throw move against throwing),
 * and the processor time of its thread on the `timed` of them, in
 * seconds. A search agent is timed at every decision; random and greedy,
 * whose decision costs less than reading the clock (a system call), at
 * one decision in KEMET_TIME_EVERY, so secs / timed estimates the mean.
 * A simple strategy is not timed. */
typedef struct kemet_think {
    long moves[2];
    long timed[2];
    double secs[2];
} kemet_think;
#define KEMET_TIME_EVERY 64

/* Called at each decision of a game: before the throw (thr NULL, n 0),
 * and with the throw and its n legal moves before one is chosen. */
typedef void (*kemet_ply_fn)(void *ctx, const kemet_pos *pos,
                             const kemet_throw *thr, const kemet_move *moves,
                             int n);

/* Plays the game seeded `seed` between players spec[0] (player 1) and
 * spec[1], by `judge` (borrowed), stopping before a turn beyond `cap`
 * begins (ruling G5): the dice from `seed`, agent p's generator from
 * seed + p + 1 (mixed), the strategies' picks from their own stream of
 * it. `fn` (NULL: none) hears of every decision; `think` (NULL: none) is
 * added the agents' time. Random against random with one value a throw
 * and no `fn` is the library's fast playout (kemet_game_playout), which
 * draws as the random agents do. *out is the finished (or stopped) game,
 * to free. KEMET_ESYNTAX for a player that is none, KEMET_ENOMEM,
 * KEMET_EMISUSE for NULL arguments. */
KEMET_API int kemet_play_seeded(const kemet_judge *judge,
                                const char *const spec[2], uint64_t seed,
                                long cap, kemet_ply_fn fn, void *ctx,
                                kemet_think *think, kemet_game **out,
                                kemet_error *err);

/* How a match's games are played (kemet_match_game's `how`). */
enum {
    KEMET_MATCH_ALTERNATE = 1, /* the players change seats in odd games */
    KEMET_MATCH_PAIRED = 2,    /* and game 2k + 1 throws as game 2k did */
    KEMET_MATCH_LUCK = 4       /* each outcome's luck is summed */
};

/* The outcome of one game of a match. */
typedef struct kemet_outcome {
    int8_t result;  /* KEMET_WON1, KEMET_WON2, KEMET_DRAW, or -1: stopped */
    int8_t swapped; /* the players changed seats for this game */
    int8_t points;  /* what the win is worth where the rules count points
                       (kemet_points: Jequier's), else 0 */
    long turns, plies;
    double luck;       /* with KEMET_MATCH_LUCK: the sum of the throws' luck,
                          player 1's view (kemet_throw_luck; an opening
                          throw, which decides who starts, counts none) */
    kemet_think think; /* by seat, where asked */
} kemet_outcome;

/* Game i of a match seeded `seed` between contestant[0] (A) and
 * contestant[1] (B), as `how` says: game i is seeded kemet_run_seed(seed,
 * i) (paired: i rounded down to even); A is player 1 but in odd games with
 * KEMET_MATCH_ALTERNATE, and where the ruleset's opening decides who plays
 * black (Jequier's first 1) that opening seats the contestant named first
 * for the game. Its outcome into *o, with the agents' time where `think`.
 * KEMET_EMISUSE, KEMET_ESYNTAX (a player that is none), KEMET_ENOMEM. */
KEMET_API int kemet_match_game(const kemet_judge *judge,
                               const char *const contestant[2], int how,
                               uint64_t seed, long i, long cap, int think,
                               kemet_outcome *o);

/* A score with its 95% interval, and the Elo difference each means. */
typedef struct kemet_estimate {
    double score, lo, hi, elo, elo_lo, elo_hi;
} kemet_estimate;

/* What a match's games say of A (contestant[0]) against B: wins of each
 * (and by seat: [player][seat]), Wilson 95% intervals of the win rates,
 * A's score (a draw a half, over the games that ended) with its interval,
 * and the Elo difference with its interval. With KEMET_MATCH_PAIRED the
 * score's interval is taken over the pairs of games that throw alike;
 * with KEMET_MATCH_LUCK the luck-adjusted score (A's result minus A's
 * luck, a game at a time, over the pairs where paired) in adj. */
typedef struct kemet_match_stats {
    long games, wins[2], seat_wins[2][2], draws, stopped;
    double turns, lo[2], hi[2], score, score_lo, score_hi, elo, elo_lo, elo_hi,
        secs;           /* secs: the caller's, kept as it was */
    double think[2];    /* each player's mean seconds per timed decision */
    int how;            /* the flags the match was played with */
    kemet_estimate adj; /* with KEMET_MATCH_LUCK */
} kemet_match_stats;

/* The statistics of the games out[0..games) of a match played with
 * KEMET_MATCH_ALTERNATE | how (how: KEMET_MATCH_PAIRED, KEMET_MATCH_LUCK
 * or 0). KEMET_EMISUSE, KEMET_ENOMEM. */
KEMET_API int kemet_match_tally(const kemet_outcome *out, long games, int how,
                                kemet_match_stats *stats);

/* The Elo difference that a score (0..1) means; +-INFINITY at the ends. */
KEMET_API double kemet_elo(double score);

/* ---------------------------------------------------------------------------
 * Exact endgame tables (docs/tables.md). A ruleset's class of N pieces is
 * every position in which each side has 1 to N pieces still in play (on the
 * board, on the heap, in hand) and the others gone; kemet_table_solve
 * computes, for every position of the class, the exact chance that the
 * player to move wins (a draw one half) with best play by both sides.
 * A table is read-only once made, and may be probed from many threads.
 * ------------------------------------------------------------------------ */
typedef struct kemet_table_info {
    int pieces;          /* N */
    long long entries;   /* entries in the file */
    long long positions; /* entries that are valid positions */
    int sweeps;          /* sweeps of value iteration it took */
    double tolerance;    /* the iteration stopped below this change */
    double residual;     /* the largest change in the last sweep */
    long long bytes;     /* size of the table's file */
} kemet_table_info;

/* Whether `rules` has a class of `pieces` and, in *entries (may be NULL),
 * its size. KEMET_ERULESET with a reason when it has none. */
KEMET_API int kemet_table_class(const kemet_rules *rules, int pieces,
                                long long *entries, kemet_error *err);
/* Solves the class of `pieces` on `threads` threads (the table is the same
 * for any number). `progress` (may be NULL) is called now and then from
 * the calling thread with what is being done ("positions", "values") and
 * the fraction done. On success *out is the table, to free with
 * kemet_table_free. KEMET_ERULESET, KEMET_ENOMEM. */
KEMET_API int
kemet_table_solve(const kemet_rules *rules, int pieces, int threads,
                  void (*progress)(void *ctx, const char *what, double done),
                  void *ctx, kemet_table **out, kemet_error *err);
/* The same, shared among `parts` processes (the program's MPI ranks), this
 * one being `part` (0-based): each builds the class's graph, then makes
 * its share of each level's values in every sweep of value iteration
 * (whole blocks of the level's entries, part 0's first), and `join` must
 * put every process's share (counts[p] items of part p, `size` bytes
 * each; the same counts in every process) after one another, in process
 * order, into `all`, in every process, returning 0; or non-zero in every
 * process, which fails the solve in all. Every process gets the table
 * one process makes. parts NULL or parts->parts <= 1: alone. */
#define KEMET_MAX_PARTS 4096
typedef struct kemet_table_parts {
    int parts, part;
    int (*join)(void *ctx, const void *mine, void *all, size_t size,
                const long *counts);
    void *ctx;
} kemet_table_parts;
KEMET_API int kemet_table_solve_parts(
    const kemet_rules *rules, int pieces, int threads,
    const kemet_table_parts *parts,
    void (*progress)(void *ctx, const char *what, double done), void *ctx,
    kemet_table **out, kemet_error *err);
/* Writes the table to `path` whole or not at all (a temporary file renamed
 * over it). KEMET_EIO. */
KEMET_API int kemet_table_save(const kemet_table *table, const char *path,
                               kemet_error *err);
/* Reads a table file made for `rules`. Refuses, with a one-line reason, a
 * file that is not a table (KEMET_ESYNTAX), of another format version or
 * layout (KEMET_ESYNTAX), of another ruleset (KEMET_ERULESET), or whose
 * checksums fail (KEMET_ESYNTAX); KEMET_EIO when it cannot be read. */
KEMET_API int kemet_table_load(const kemet_rules *rules, const char *path,
                               kemet_table **out, kemet_error *err);
KEMET_API void kemet_table_free(kemet_table *table);
/* The spec of the ruleset the table was made for. */
KEMET_API const char *kemet_table_spec(const kemet_table *table);
KEMET_API void kemet_table_stats(const kemet_table *table,
                                 kemet_table_info *info);
/* 1 when the table covers `pos` (a position of the class, game not over),
 * with the exact chance that the player to move wins in *chance (may be
 * NULL); else 0. */
KEMET_API int kemet_table_probe(const kemet_table *table, const kemet_pos *pos,
                                double *chance);

/* Entry `i` (0 <= i < entries) of the table as a position, with player 1
 * to move; 1 when it is a valid position, else 0 (*pos unspecified). For
 * sampling or walking the class. */
KEMET_API int kemet_table_position(const kemet_table *table, long long i,
                                   kemet_pos *pos);

/* ---------------------------------------------------------------------------
 * Race databases (docs/tables.md): for a ruleset whose two sides never meet
 * (chien-chacal), the distribution of the turns each state of one side
 * needs to finish, playing to finish soonest on average; two of them give
 * a near-exact win chance for any position of the whole game.
 * ------------------------------------------------------------------------ */
typedef struct kemet_race_info {
    long long states; /* one-sided states (with a rethrow owed or not) */
    long long bytes;  /* memory held */
    double seconds;   /* processor time the building took */
} kemet_race_info;

/* Builds the race database of `rules` (about a second). KEMET_ERULESET for
 * a ruleset whose sides meet, KEMET_ENOMEM. */
KEMET_API int kemet_race_solve(const kemet_rules *rules, kemet_race **out,
                               kemet_error *err);
KEMET_API void kemet_race_free(kemet_race *race);
KEMET_API void kemet_race_stats(const kemet_race *race, kemet_race_info *info);
/* The chance that the player to move in `pos` wins, by the race database;
 * 1 when the database answered, 0 (nothing written) otherwise. */
KEMET_API int kemet_race_probe(const kemet_race *race, const kemet_pos *pos,
                               double *chance);
/* The turns `player` is expected to need to finish from `pos` (its turn
 * under way counting as one), or -1. */
KEMET_API double kemet_race_turns(const kemet_race *race, const kemet_pos *pos,
                                  int player);
/* ---------------------------------------------------------------------------
 * The learned evaluation (docs/agents.md): a small neural network per
 * ruleset, trained by self-play TD(lambda). Where the library carries one
 * for a ruleset (data/nets), kemet_judge_new puts it in use, and the
 * judge answers from it instead of the linear weights.
 * ------------------------------------------------------------------------ */
typedef struct kemet_train {
    long games;    /* self-play games, >= 1 */
    int hidden;    /* hidden units of a new network, 1..256 */
    double alpha;  /* learning rate per game, > 0 */
    double lambda; /* trace decay, 0..1 */
    int batch;     /* games played with the same weights, 1..4096; the
                      result depends on it, not on `threads` */
    int threads;
    uint64_t seed;
    /* Optional: an exact endgame table of the ruleset, and how many of its
     * positions (drawn uniformly, each seen from either side) each game
     * adds as supervised examples, the network's chance moved toward the
     * table's exact one. NULL / 0: self-play alone. */
    const kemet_table *table;
    int examples;
    /* Non-zero: train the endgame section of `from` instead (GNU
     * Backgammon's separate networks for separate phases of the game): a
     * second network judging only the positions of the table's class
     * (each side 1 to N pieces in play), fitted to `examples` of the
     * table's values per game-sized step, no self-play; `from`'s whole-game
     * network is copied unchanged. The section goes on from `from`'s own
     * section for that class, else starts new with `hidden` units. Needs
     * `from`, `table` and `examples`. */
    int endgame;
    /* Non-zero: a new network's hidden layer starts live (input weights
     * three times as large, output weights drawn from [-0.3, 0.3]) instead
     * of silent, where its units start alike and hardly learn. */
    int live;
    /* The learning rate of the hidden layer's input weights and biases, as
     * a multiple of alpha (their gradients carry the small output weights
     * as a factor); 0 means 1. */
    double hidden_rate;
    /* With `table`: the weight of a second step per example that teaches
     * the choices. A throw is drawn for the example, and the chances after
     * each of its moves are moved toward the exact ones measured from their
     * mean (the differences between moves, which decide the move played,
     * rather than their level). 0: none. */
    double choices;
    /* Non-zero: Adam's steps (Kingma and Ba, 2015; beta1 0.9, beta2 0.999)
     * instead of plain gradient steps: each batch moves each weight by
     * about alpha at most, scaled by the recent mean of its gradient over
     * their recent size, so weights whose gradients are small (the hidden
     * layer's) learn as fast as the rest. alpha falls over the run as
     * without it; hidden_rate still multiplies the hidden layer's steps. */
    int adam;
    /* The cap on a self-play game's plies (0: 4000). A game still going
     * there ends with a result learned from as any end's: where the rules
     * count pieces borne off as a score (Bell's), the score decides as at
     * the game's end, more wins and equal draws; elsewhere a draw. */
    long max_plies;
    /* Optional: counts up, batch by batch, the self-play games the cap
     * ended (the progress callback may read it). NULL: not counted. */
    long *capped;
    /* Optional: each batch's games shared among `parts` processes (the
     * program's MPI ranks), this one being `part` (0-based). It plays
     * games part, part + parts, ... of each batch of n and puts their
     * results, `size` bytes each, in that order in `mine`; `gather` must
     * then fill `all` with the results of all n games in game order, the
     * same in every process, and return 0; or return non-zero in every
     * process (given `rc`, this process's failure, non-zero when it
     * failed) to fail the training. The network made is the one a single
     * process makes. NULL gather or parts <= 1: alone. */
    int parts, part;
    int (*gather)(void *ctx, long n, size_t size, void *mine, void *all,
                  int rc);
    void *gather_ctx;
} kemet_train;

/* Trains a network for `rules` (a new one, or from a copy of `from`) by
 * opts->games games of self-play (and, with opts->table, that many batches
 * of the table's exact values). `progress` (may be NULL) is called now
 * and then with the games so far and the root mean square TD error since
 * the last call. Fails with KEMET_EMISUSE (bad options), KEMET_ERULESET
 * (`from` is another ruleset's) or KEMET_ENOMEM (also when the weights
 * diverge). */
KEMET_API int kemet_net_train(const kemet_rules *rules, const kemet_train *opts,
                              const kemet_net *from,
                              void (*progress)(void *ctx, long games,
                                               double rms),
                              void *ctx, kemet_net **out, kemet_error *err);
/* Reads a network file's text for `rules`. Fails with KEMET_ESYNTAX (the
 * message names the line) or KEMET_ERULESET (made for another ruleset or
 * board). */
KEMET_API int kemet_net_parse(const kemet_rules *rules, const char *text,
                              kemet_net **out, kemet_error *err);
/* The network as a file's text (malloc'd into *out), with `note` (may be
 * NULL; several lines allowed) as comment lines. */
KEMET_API int kemet_net_format(const kemet_net *net, const char *note,
                               char **out);
KEMET_API void kemet_net_free(kemet_net *net);
KEMET_API const char *kemet_net_ruleset(const kemet_net *net);
KEMET_API int kemet_net_hidden(const kemet_net *net);
/* The class its endgame section judges (N: each side 1 to N pieces in
 * play; there the section answers instead of the whole game's network),
 * or 0 when it has none. */
KEMET_API int kemet_net_endgame(const kemet_net *net);
/* The comment lines it was read with (how it was made), or NULL. */
KEMET_API const char *kemet_net_note(const kemet_net *net);
/* ---------------------------------------------------------------------------
 * Records: a plain-text record of a game.
 *
 *   kemet-record 1
 *   ruleset senet-kendall
 *   seed 42
 *   player1 human
 *   player2 greedy
 *   start senet-kendall to=1 p1=... p2=...
 *   1 3 9-12          (player, throw, move; "none" for a pre-throw choice)
 *   ...
 *   resign 2          (optional: player 2 resigned, player 1 wins)
 *   result 1          (1, 2, 0 for a draw, or "stopped"/"unfinished")
 * ------------------------------------------------------------------------ */

/* Writers for the lines of a record. Each returns the length written,
 * KEMET_ERANGE when `buf` is too small, or KEMET_EMISUSE (NULL pointers, an
 * unusable position). */
KEMET_API int kemet_record_header(const kemet_rules *rules, uint64_t seed,
                                  const char *player1, const char *player2,
                                  const kemet_pos *start, char *buf,
                                  size_t len);
/* The same header for a game set up in `setup` (kemet_game_setup): its
 * last line is "setup POSITION", so replay makes no opening. */
KEMET_API int kemet_record_setup(const kemet_rules *rules, uint64_t seed,
                                 const char *player1, const char *player2,
                                 const kemet_pos *setup, char *buf, size_t len);
/* "P THROW MOVE\n" for the ply made in `before`; thr NULL before a throw. */
KEMET_API int kemet_record_ply(const kemet_pos *before, const kemet_throw *thr,
                               const kemet_move *move, char *buf, size_t len);
/* "resign P\n": player P resigns (the other wins; nothing may follow but
 * the result line). KEMET_EMISUSE unless P is 1 or 2. */
KEMET_API int kemet_record_resign(int player, char *buf, size_t len);
/* "result 1\n" etc.; for an unfinished game "stopped" when `stopped`. */
KEMET_API int kemet_record_result(const kemet_pos *pos, int stopped, char *buf,
                                  size_t len);

/* Replays a record line by line, checking everything (ruleset, start, each
 * player, throw and move, the dice against the seed, the result). On the
 * first problem returns KEMET_ESYNTAX or KEMET_EILLEGAL with err->msg
 * beginning "line N: ". `final` (may be NULL) receives the last position;
 * `turns` (may be NULL) the number of move lines. */
KEMET_API int kemet_replay(const char *text, kemet_pos *final, char *final_text,
                           size_t final_len, long *turns, kemet_error *err);

/* As kemet_replay, for records that may be of the ruleset file
 * `rules_text` (kemet_rules_open_text; NULL: built-in rulesets only). A
 * record of a ruleset file names the file's id and, on a line
 * "rules-sha256 HEX", the SHA-256 of its text; replay refuses any other
 * text. */
KEMET_API int kemet_replay_text(const char *text, const char *rules_text,
                                kemet_pos *final, char *final_text,
                                size_t final_len, long *turns,
                                kemet_error *err);
/* Reads a record with every check of kemet_replay and gives its ruleset
 * (*rules, to close), the position its first ply was made in (after the
 * opening) and its plies (*plies, malloc'd: free it; *n of them). */
KEMET_API int kemet_record_read(const char *text, kemet_rules **rules,
                                kemet_pos *start, kemet_ply **plies, long *n,
                                kemet_error *err);
/* As kemet_record_read, with a ruleset file's text (kemet_replay_text). */
KEMET_API int kemet_record_read_text(const char *text, const char *rules_text,
                                     kemet_rules **rules, kemet_pos *start,
                                     kemet_ply **plies, long *n,
                                     kemet_error *err);

/* ---------------------------------------------------------------------------
 * Game review: every decision of a game graded by an agent's win chances,
 * and the luck of every throw (docs/review.md).
 *
 * For each decision the agent ranks the legal choices (kemet_agent_rank);
 * the loss is the chance of its best choice minus that of the choice
 * played (never negative), graded by the thresholds below in win chance
 * (GNU Backgammon's 0.04/0.08/0.16 in equity are these in win chance).
 * The luck of a throw is the mover's chance after it (playing the best
 * move) minus the mover's chance before it, which is the agent's value of
 * the position the previous decision left (for the first throw, the
 * evaluation's kemet_win_chance).
 * ------------------------------------------------------------------------ */
#define KEMET_REVIEW_DOUBTFUL 0.02
#define KEMET_REVIEW_BAD 0.04
#define KEMET_REVIEW_VERY_BAD 0.08
#define KEMET_REVIEW_BEST 1e-4 /* a loss below this counts as the best */
enum {
    KEMET_GRADE_FORCED = 0, /* one choice only: not graded */
    KEMET_GRADE_BEST,       /* loss < KEMET_REVIEW_BEST */
    KEMET_GRADE_GOOD,       /* loss < KEMET_REVIEW_DOUBTFUL */
    KEMET_GRADE_DOUBTFUL,   /* loss < KEMET_REVIEW_BAD */
    KEMET_GRADE_BAD,        /* loss < KEMET_REVIEW_VERY_BAD */
    KEMET_GRADE_VERY_BAD,   /* loss >= KEMET_REVIEW_VERY_BAD */
    KEMET_GRADES
};
/* The grade's name: "forced", "best", "good", "doubtful", "bad",
 * "very bad". */
KEMET_API const char *kemet_grade_name(int grade);

/* One decision. Before a throw (thr.n == 0) the choices are the pre-throw
 * moves and throwing: `threw` says the player threw (a ply with a throw
 * follows), `best_throws` that throwing was best. */
typedef struct kemet_review_entry {
    long ply;   /* the ply it belongs to (index into the plies) */
    int player; /* 1 or 2 */
    kemet_throw thr;
    int choices; /* legal choices (1: forced) */
    int threw, best_throws;
    kemet_move played, best;
    double before;        /* with a throw: the mover's chance before it */
    double played_chance; /* the mover's chance after the choice played */
    double best_chance;   /* ... after the best choice */
    double loss;          /* best_chance - played_chance */
    double luck;          /* with a throw: best_chance - before; else 0 */
    int grade;
} kemet_review_entry;

/* A player's totals: real decisions (two choices or more), how many were
 * the best, each grade's count, the summed loss and luck. */
typedef struct kemet_review_sum {
    int decisions, best;
    int grades[KEMET_GRADES];
    double loss, luck;
} kemet_review_sum;

/* Reviews the n plies made from `start` with `agent` (made for `rules`).
 * Writes at most `cap` entries (2 * n always suffice: a ply with a throw
 * in a position that offered pre-throw moves is two decisions) and fills
 * sum[0], sum[1] (may be NULL). Returns the entry count, or KEMET_EILLEGAL
 * (a ply that is not legal; err names it), KEMET_ERANGE (cap too small),
 * KEMET_EMISUSE, KEMET_ENOMEM, or KEMET_EOVER when the agent's check
 * stopped it (kemet_agent_set_check). */
KEMET_API long kemet_review(kemet_agent *agent, const kemet_rules *rules,
                            const kemet_pos *start, const kemet_ply *plies,
                            long n, kemet_review_entry *out, long cap,
                            kemet_review_sum sum[2], kemet_error *err);

/* Accuracy, from the chances lost (docs/review.md), as lichess defines it:
 * a decision that lost L points of win chance (L = 100 * loss) scores
 * 103.1668 * exp(-0.04354 * L) - 3.1669, kept within 0..100 (the best
 * move scores 100); a player's accuracy is the mean score of their real
 * decisions (two or more choices) among the n entries, 100 when they made
 * none. */
KEMET_API double kemet_review_move_accuracy(double loss);
KEMET_API double kemet_review_accuracy(const kemet_review_entry *e, long n,
                                       int player);

/* ---------------------------------------------------------------------------
 * Analysis: what a set of games says about a ruleset (docs/analysis.md).
 * The figures that Ludii's evaluation metrics define use Ludii's
 * definitions (named in the comments).
 * ------------------------------------------------------------------------ */

/* One game as the analysis sees it. */
typedef struct kemet_trace {
    int result;       /* KEMET_WON1, KEMET_WON2, KEMET_DRAW, or KEMET_PLAYING
                         for a game stopped at the turn cap */
    long turns;       /* turns (hand-overs of the sticks) */
    long moves;       /* plies: moves, passes and pre-throw moves */
    long passes;      /* throws that could not be used */
    long forced;      /* throws with exactly one legal move (not a pass) */
    long decisions;   /* throws with two or more legal moves */
    double choices;   /* legal moves summed over those decisions */
    double branching; /* legal moves summed over every throw (a pass: 1) */
    int n;            /* win estimates in p1 */
    const double *p1; /* player 1's estimated chance of winning before each
                         ply (NULL: none) */
} kemet_trace;

/* A figure with its 95% interval (lo, hi); NaN where not defined. */
typedef struct kemet_stat {
    double value, lo, hi;
} kemet_stat;

typedef struct kemet_analysis {
    long games, ended, stopped, draws, wins[2];
    kemet_stat completion;   /* Ludii Completion: ended / games */
    kemet_stat drawishness;  /* Ludii Drawishness: draws / games */
    kemet_stat advantage_p1; /* Ludii AdvantageP1: player 1's wins / games */
    kemet_stat balance;      /* Ludii Balance: 1 - |win rate 1 - win rate 2| */
    kemet_stat duration_turns; /* Ludii DurationTurns: mean turns */
    kemet_stat duration_moves; /* mean plies */
    double median_turns, sd_turns, median_moves, sd_moves;
    kemet_stat lost_throws;      /* share of throws that could not be used */
    kemet_stat forced_moves;     /* share of throws with one legal move */
    kemet_stat choices;          /* mean legal moves at real decisions (2+) */
    kemet_stat branching_factor; /* Ludii BranchingFactor (average) */
    kemet_stat lead_change;      /* Ludii LeadChange */
    kemet_stat drama;            /* Ludii Drama (average), games that ended */
    kemet_stat decisiveness_threshold; /* Ludii DecisivenessThreshold */
} kemet_analysis;

/* Computes the analysis of n >= 1 games. KEMET_EMISUSE, KEMET_ENOMEM. */
KEMET_API int kemet_analyze_traces(const kemet_trace *games, long n,
                                   kemet_analysis *out);

/* Ludii's SkillTrace (its evaluation's metrics.designer.SkillTrace): y[k]
 * is the stronger agent's mean utility (a win 1, a draw 0, a loss -1) in
 * match k of n, the stronger agent having twice the weaker's budget and
 * the budgets doubling from match to match. The least-squares line of y
 * over k = 0..n-1, read at k = n + 1 and held to [0, 1], is p; the area
 * is the sum over the matches of max(y[k], 0) squared; SkillTrace is
 * p + (1 - p) * area. NaN for n < 2 or y NULL. */
KEMET_API double kemet_skill_trace(const double *y, int n);

/* The share of a game's result that the throws decide: over n >= 2 games
 * with result[i] (one player's, 1 win, 0 loss, 1/2 draw) and luck[i] (the
 * sum of that player's throws' luck, kemet_throw_luck), Var(luck) /
 * (Var(luck) + Var(result - luck)): the part of the result's variance the
 * luck explains, the rest being the players' choices (and the
 * evaluation's error). NaN when undefined. */
KEMET_API double kemet_luck_share(const double *result, const double *luck,
                                  long n);

/* How many games a player needs, scoring `score` (> 1/2) a game on average
 * with standard deviation `sd` a game, to be ahead at the end with 95%
 * confidence (one-sided, normal approximation): the least n with
 * (score - 1/2) sqrt(n) / sd >= 1.645. NaN for score <= 1/2. */
KEMET_API double kemet_games_to_lead(double score, double sd);

/* The games' lengths in turns as a histogram of `bins` bins of equal width
 * (the width returned: the longest game's turns plus one over the bins,
 * rounded up), bin b holding the games of b * width to (b + 1) * width - 1
 * turns. NaN for bad arguments. */
KEMET_API double kemet_length_histogram(const kemet_trace *games, long n,
                                        int bins, long *hist);

/* Counts the pieces that arrived between two positions: each square a
 * player holds in `now` and did not in `was` adds one to count[cell] of
 * its board cell (kemet_square_cell), for cells below `cells`. Returns how
 * many were counted, or KEMET_EMISUSE. */
KEMET_API int kemet_arrivals(const kemet_rules *rules, const kemet_pos *was,
                             const kemet_pos *now, long *count, int cells);

/* Wilson's score interval for k successes in n trials at z (1.96: 95%). */
KEMET_API void kemet_wilson(double k, double n, double z, double *lo,
                            double *hi);

/* ---------------------------------------------------------------------------
 * Studies: one reading (a ruleset with its options) measured as a game,
 * the figures docs/analysis.md reports (study.c; "How it is measured"
 * there says how each is taken).
 *
 * A study plays its games in stages. kemet_study_next makes the next
 * stage from the figures of the games so far: `units` games, numbered
 * 0..units-1 in groups (one part's games each). Each unit is played by
 * kemet_study_play, on any thread and in any order: different units of a
 * stage may be played at once on different threads, while nothing else
 * is called on the study. A unit may instead be played by the study of
 * another process (the same build, the same judge and settings) and its
 * result carried over as bytes (kemet_study_unit_save, _load). When every
 * unit of a stage is played, kemet_study_next makes the next, until it
 * makes none: the study is then measured whole (kemet_study_result).
 * Every game is seeded from (seed, ruleset, part, index) and every size
 * is fixed before its games are played, so the figures depend neither on
 * the threads, the processes nor the order of play. kemet_study_run does
 * all of it on a number of threads.
 * ------------------------------------------------------------------------ */
#define KEMET_STUDY_RUNGS 8   /* agents on the ladder, at most */
#define KEMET_STUDY_TRACE 8   /* SkillTrace's matches (as Ludii's) */
#define KEMET_STUDY_PROBES 3  /* rearmost, foremost, safe-random */
#define KEMET_STUDY_BINS 20   /* the length histogram's bins */
#define KEMET_STUDY_CELLS 128 /* board cells counted */
#define KEMET_STUDY_SAMPLES 3 /* games whose chances are kept */
/* The sizings of a sample: after its pilot, and again while its interval
 * is too wide. */
#define KEMET_STUDY_ROUNDS 5
/* The precision targets beside the precision h (scores and shares +-h):
 * the median length +-MEDIAN_REL x h of itself (its criterion counts
 * doublings), LeadChange +-h / LEAD_DIV; the luck share's target is
 * narrowed near 1 - SHARE_DECIDE (the choices left a fiftieth of the
 * result's variance), each figure's near its flag thresholds
 * (kemet_decide_half). */
#define KEMET_STUDY_MEDIAN_REL 4
#define KEMET_STUDY_LEAD_DIV 2
#define KEMET_STUDY_SHARE_DECIDE 0.02
/* The stopping rule's final step, after the sizings above have stopped:
 * every sized sample (the strong self-play, each match) under LEAST games
 * is grown to LEAST (or to the cap), and where the share of games the turn
 * cap stopped lies within two targets of its flag's threshold, the strong
 * self-play is grown until that share's interval (Wilson's, pooled with
 * the weak self-play's games) is within the narrowed target
 * (kemet_decide_half); sized again so, KEMET_STUDY_ROUNDS times at most.
 * A figure the cap left under LEAST games is an indication: the verdict
 * gives it no cost and no flag (kemet_measured_indication). */
#define KEMET_STUDY_LEAST 100

/* The parts of a study, which a caller may time apart. */
enum {
    KEMET_PART_WEAK,   /* the weak self-play */
    KEMET_PART_STRONG, /* the strong self-play */
    KEMET_PART_LADDER, /* the skill ladder */
    KEMET_PART_HEAD,   /* the strong agent against the weak: luck, skill */
    KEMET_PART_PROBES, /* the simple strategies against the strong agent */
    KEMET_PART_TRACE,  /* SkillTrace */
    KEMET_PARTS
};
/* Part p's name ("weak self-play"); NULL outside 0..KEMET_PARTS-1. */
KEMET_API const char *kemet_part_name(int part);

/* What a study plays (kemet_study_defaults gives the published report's
 * agents and the quick report's precision). The strings are copied. */
typedef struct kemet_study_settings {
    const char *strong;  /* the strong agent: self-play, against weak[0],
                            against the probes ("best:1k") */
    const char *weak[2]; /* the weak self-play's players ("greedy") */
    const char *ladder[KEMET_STUDY_RUNGS]; /* the ladder, weakest first */
    int rungs;                             /* its agents: 2 to 8 */
    long games;       /* the weak self-play's games (1000) */
    long trace_games; /* SkillTrace's games a match (30; 0: none) */
    long trace_base;  /* its first budget, in positions (8) */
    long cap;         /* the turn cap (1000, ruling G5) */
    double precision; /* h, the target half-width (0.05) */
    long pilot;       /* each figure's pilot (20 games) */
    long most;        /* the most games of a figure's sample (200) */
    uint64_t seed;    /* (1) */
    int variant;      /* non-zero: no ladder and no SkillTrace */
    int parts;        /* non-zero: only the parts p with bit 1 << p set
                         (KEMET_PART_*) are played, the others' figures
                         left empty; 0: every part (a headroom study plays
                         KEMET_PART_HEAD alone, the report's strong agent
                         as weak[0] and a stronger one as `strong`) */
} kemet_study_settings;
KEMET_API void kemet_study_defaults(kemet_study_settings *settings);

/* One self-play's figures. */
typedef struct kemet_selfplay_figures {
    char agent[2][48]; /* its players (cut at 47 bytes) */
    long games;
    kemet_analysis analysis;        /* Ludii's figures and the rest */
    long hist[KEMET_STUDY_BINS];    /* the games by length, bins of `bin` */
    double bin;                     /* turns (kemet_length_histogram) */
    int luck;                       /* each throw's luck measured (strong) */
    kemet_stat p1_adjusted;         /* player 1's score less its luck (NaN
                                       without the luck) */
    kemet_stat median;              /* median turns, a game the cap stopped
                                       counted longer than any: INFINITY for
                                       an end beyond the cap */
    kemet_stat per_turn;            /* real decisions a turn */
    kemet_stat stopped;             /* share of games the turn cap stopped */
    double decisions;               /* real decisions a game, both players */
    double land[KEMET_STUDY_CELLS]; /* arrivals a game on each board cell */
    double coverage;                /* share of the cells ever landed on */
    /* where an exact table is in use (else NaN): real decisions a game in
     * its phase, the share of them the linear evaluation alone gets wrong,
     * and the win chance it gives away a game, both sides */
    double table_decisions, linear_errors, linear_loss;
    int nsample; /* the first games' chances: player 1's before each ply */
    int sample_n[KEMET_STUDY_SAMPLES];
    int sample_result[KEMET_STUDY_SAMPLES];
    const double *sample[KEMET_STUDY_SAMPLES]; /* owned by the study */
} kemet_selfplay_figures;

/* One match's figures: `upper` (expected the stronger) against `lower`,
 * in pairs of games that throw alike, seats swapped, luck taken out. */
typedef struct kemet_match_figures {
    char upper[48], lower[48];
    long games;
    kemet_match_stats stats; /* stats.adj: upper's luck-adjusted score */
    kemet_stat luck_share;   /* the share of a game's result's variance
                                the throws' luck explains */
    double sd;               /* of a game's result */
    int contradiction;       /* upper scores below one half beyond its interval
                                (the ladder and the headline match) */
} kemet_match_figures;

/* Everything a study measured. */
typedef struct kemet_study_figures {
    char id[96];      /* the ruleset (kemet_rules_spec) */
    int variant;      /* as settings.variant */
    int table_pieces; /* the judge's endgame table: its pieces a side, 0 */
    int nsteps;       /* the ladder's steps (0 for a variant) */
    kemet_selfplay_figures weak, strong;
    kemet_match_figures ladder[KEMET_STUDY_RUNGS - 1];
    kemet_match_figures head; /* the strong agent against weak[0] */
    kemet_match_figures probe[KEMET_STUDY_PROBES]; /* each against the strong
                                                      agent */
    double trace_y[KEMET_STUDY_TRACE]; /* SkillTrace's matches (Ludii's) */
    kemet_stat trace_adj[KEMET_STUDY_TRACE]; /* the same, luck taken out */
    double skill_trace, skill_trace_adj;     /* NaN for a variant */
    double games_to_lead; /* kemet_games_to_lead of the headline match */
} kemet_study_figures;

typedef struct kemet_study kemet_study;

/* A study of the reading `judge` holds (borrowed: it must outlive the
 * study, set up with its tables and network) with `settings`. Every
 * player is checked (KEMET_ESYNTAX, err naming it); KEMET_EMISUSE for a
 * setting out of range or NULL arguments; KEMET_ENOMEM. */
KEMET_API int kemet_study_new(const kemet_judge *judge,
                              const kemet_study_settings *settings,
                              kemet_study **out, kemet_error *err);
KEMET_API void kemet_study_free(kemet_study *study);
/* Makes the next stage: *units games to play in *groups groups (either
 * may be NULL); 0 units when the study is measured whole. KEMET_EMISUSE
 * while a unit of the stage before is not played; a unit's own failure
 * (KEMET_ENOMEM) when it failed. After a failure the study can only be
 * freed. */
KEMET_API int kemet_study_next(kemet_study *study, long *units, int *groups);
/* A group of the current stage: units unit..unit+count-1, all of one
 * part; `order` ranks the groups for play (lower first: the longer games
 * first, so that a pool of threads idles only at its end); `what` names
 * them ("senet-kendall: ladder greedy vs random"). */
typedef struct kemet_study_group {
    long unit, count;
    int part;  /* KEMET_PART_* */
    int order; /* 0 to 30 */
    char what[192];
} kemet_study_group;
/* Group g (0..groups-1) of the current stage: KEMET_ERANGE beyond,
 * KEMET_EMISUSE for NULL. */
KEMET_API int kemet_study_group_info(const kemet_study *study, int g,
                                     kemet_study_group *out);
/* Plays unit u of the current stage (see above for threads). Its status
 * (KEMET_ENOMEM), or KEMET_EMISUSE for a unit out of range. */
KEMET_API int kemet_study_play(kemet_study *study, long u);
/* Unit u's result, played, as bytes into buf (`size` bytes): *len the
 * bytes it takes (KEMET_ERANGE, with *len, when they do not fit or buf is
 * NULL); KEMET_EMISUSE for a unit not played. For a process of the same
 * build. */
KEMET_API int kemet_study_unit_save(const kemet_study *study, long u, void *buf,
                                    size_t size, size_t *len);
/* Unit u played by another process: its bytes (kemet_study_unit_save)
 * taken as if it were played here. KEMET_ESYNTAX for bytes that are not a
 * result of this unit's kind, KEMET_EMISUSE, KEMET_ENOMEM. */
KEMET_API int kemet_study_unit_load(kemet_study *study, long u, const void *buf,
                                    size_t len);
/* Plays every stage to the end on `threads` threads (the caller's among
 * them; 1: on the caller's alone). The figures do not depend on the
 * thread count. The first failure's status, or KEMET_OK. */
KEMET_API int kemet_study_run(kemet_study *study, int threads);
/* The figures of a study measured whole (a copy; its samples point into
 * the study). KEMET_EMISUSE before then or after a failure. */
KEMET_API int kemet_study_result(const kemet_study *study,
                                 kemet_study_figures *out);
/* Whether figures measured with target half-width `precision` and at most
 * `most` games a sample are final under the stopping rule: 1 when its
 * final step (KEMET_STUDY_LEAST) would add no game to them, else 0 (0 also
 * for NULL). Figures the rule before that step stopped at are the final
 * figures exactly when this holds. */
KEMET_API int kemet_study_settled(const kemet_study_figures *figures,
                                  double precision, long most);

/* ---------------------------------------------------------------------------
 * The verdict on readings measured as games (docs/analysis.md, "The
 * criteria of the verdict"; verdict.c), made from their figures alone, and
 * the statistics behind the figures.
 *
 * Each criterion has a band where it costs nothing and a unit: a figure
 * outside its band costs its distance from the band in units (the length
 * in doublings). A reading's penalty is the sum of its costs; each cost
 * has a range while its figure stays within its 95% interval, and the
 * penalty's range combines them as independent errors (the root of the
 * sum of the squared reaches below and above). A criterion with a
 * threshold flags a reading when the figure's whole interval lies
 * strictly past it; a flagged reading ranks after every unflagged one.
 * The unflagged are sorted by penalty and cut into tiers where every
 * range before a cut ends below every range after it; the flagged make
 * one tier more, by their number of flags, then penalty.
 * ------------------------------------------------------------------------ */

/* The criteria, in the order of kemet_criterion_info. */
enum {
    KEMET_CRIT_LENGTH,    /* median turns of strong self-play (log scale) */
    KEMET_CRIT_DECISIONS, /* real decisions (two moves or more) a turn */
    KEMET_CRIT_SKILL,     /* the share of games the strong agent's better
                             choices decide against the weak */
    KEMET_CRIT_BALANCE,   /* player 1's luck-adjusted score */
    KEMET_CRIT_TENSION,   /* LeadChange */
    KEMET_CRIT_STOPPED,   /* share of games the turn cap stopped */
    KEMET_CRIT_PROBES,    /* the best simple strategy's score against
                             the strong agent */
    KEMET_CRITERIA
};
typedef struct kemet_criterion {
    const char *name;        /* "length" */
    const char *figure;      /* the figure it judges, in words */
    double band_lo, band_hi; /* no cost inside the band (band_hi may be
                                INFINITY) */
    double unit;             /* a unit of cost outside it */
    int log2;                /* the distance in doublings (the length) */
    double flag_lo, flag_hi; /* flagged when the interval lies wholly
                                below flag_lo or above flag_hi (NAN: no
                                such threshold) */
    const char *why;         /* its reason, in words */
    const char *unit_why;    /* why its unit is the size it is, in words
                                (NULL where it costs nothing) */
} kemet_criterion;
/* Criterion c (KEMET_CRIT_*); NULL outside 0..KEMET_CRITERIA-1. */
KEMET_API const kemet_criterion *kemet_criterion_info(int c);

/* One reading's figures, each with its 95% interval (NaN ends: none). */
typedef struct kemet_measured {
    kemet_stat c[KEMET_CRITERIA];
    long games[KEMET_CRITERIA]; /* the games behind each figure (0: not
                                   known) */
} kemet_measured;
/* One reading judged. */
typedef struct kemet_judged {
    int flags;                       /* bit c: criterion c flags it */
    int indications;                 /* bit c: criterion c's figure is an
                                        indication (no cost, no flag) */
    kemet_stat cost[KEMET_CRITERIA]; /* each criterion's cost, its range */
    kemet_stat penalty; /* the costs' sum (the criterion left out apart)
                           and its range (INFINITY where a median length
                           lies beyond the turn cap) */
    int tier;           /* 1 the best; ties share a tier */
    int place;          /* 1.. in the order */
} kemet_judged;
/* The verdict's figures of a reading from its study: from strong play
 * (weak 0: the median length, real decisions a turn, player 1's
 * luck-adjusted score, LeadChange, the stopped share of the strong and
 * weak self-play's games together, Wilson's) or from the weak self-play
 * (weak 1: balance from the raw result, a draw a half, Wilson's; the
 * stopped share of its own games); in both the skill (2 x the strong
 * agent's luck-adjusted score against the weak - 1, held to 0..1) and the
 * simple strategy nearest search (its score held to 0..1). A median
 * beyond the turn cap has its low end at the cap; games[c] the games
 * behind each figure. KEMET_EMISUSE. */
KEMET_API int kemet_study_measured(const kemet_study_figures *figures, int weak,
                                   kemet_measured *out);
/* Whether criterion c's figure in m is an indication: from fewer than
 * KEMET_STUDY_LEAST games (a number known), so that the cap stopped its
 * sample short; it then neither costs nor flags. 1 or 0. */
KEMET_API int kemet_measured_indication(const kemet_measured *m, int c);
/* Whether criterion c flags figure s: its interval strictly past a
 * threshold (1) or not (0, also for a c out of range). */
KEMET_API int kemet_criterion_flag(int c, const kemet_stat *s);
/* Judges n readings, criterion `skip` left out (-1: none): out[i] for
 * m[i], order[k] the reading in place k + 1. The number of tiers, or
 * KEMET_EMISUSE. */
KEMET_API int kemet_verdict(const kemet_measured *m, int n, int skip,
                            kemet_judged *out, int *order);
/* kemet_verdict with each criterion c's unit multiplied by scale[c]
 * (NULL: all 1; each finite and above 0, else KEMET_EMISUSE): how far
 * the verdict rests on the units (docs/analysis.md, "Sensitivity"). */
KEMET_API int kemet_verdict_units(const kemet_measured *m, int n, int skip,
                                  const double *scale, kemet_judged *out,
                                  int *order);
/* For a flagged j[i] of n judged: how many unflagged readings have a
 * higher penalty than its own (the flag alone ranks it after them); 0
 * when j[i] is not flagged. *unflagged, when given: how many are not. */
KEMET_API int kemet_verdict_outranks(const kemet_judged *j, int n, int i,
                                     int *unflagged);
/* Kendall's tau-b between two rankings with ties (a[i], b[i]: item i's
 * rank or tier in each); *opposite, when given, counts the pairs that are
 * in strict order in both and opposite. NaN when a ranking is all ties. */
KEMET_API double kemet_tau_b(const double *a, const double *b, int n,
                             long *opposite);

/* What one rule does (effects.c; docs/analysis.md, "What each rule
 * does"): a reading measured again with one rule changed
 * (kemet_rules_open_change), and the change's effect on each criterion.
 * The two are measured apart, so their errors are combined as
 * independent: the difference's 95% interval reaches from it by the root
 * of the sum of the squared reaches of the two figures' intervals that
 * face each other. The length is compared in doublings. */
typedef struct kemet_effect {
    double diff, lo, hi;    /* changed - base, its 95% interval (NaN where a
                               figure has none, or a median is beyond the
                               turn cap) */
    int moves;              /* 1: the interval excludes 0 */
    int flag_was, flag_now; /* the criterion flags base, changed */
} kemet_effect;
typedef struct kemet_change_effect {
    kemet_effect c[KEMET_CRITERIA];
    kemet_stat penalty_was, penalty_now; /* the verdict's, of the two */
    int penalty_moves;        /* 1 up, -1 down: the difference beyond its
                                 errors, combined as the figures' */
    int flags_was, flags_now; /* bit c: criterion c flags it */
} kemet_change_effect;
/* The effect of a change: `changed`'s figures against `base`'s.
 * KEMET_EMISUSE for NULL. */
KEMET_API int kemet_change_effects(const kemet_measured *base,
                                   const kemet_measured *changed,
                                   kemet_change_effect *out);
/* Which of n changes explains base's flag on criterion c: the change
 * that clears it (the changed reading is not flagged on c and the figure
 * moves), the one that moves it furthest, with *second (may be NULL) -1.
 * Where no one change clears it but two each move it toward clearing,
 * the one that moves it most, with *second the next: a combination to
 * try (without `second`, -1). Else -1. KEMET_EMISUSE. */
KEMET_API int kemet_explain_flag(const kemet_measured *base,
                                 const kemet_change_effect *eff, int n, int c,
                                 int *second);
/* Which of n changes explains a reading's standing: the one whose change
 * costs it most (a new flag before any rise of the penalty, then the
 * largest rise beyond its errors); -1 where no change costs it anything.
 * KEMET_EMISUSE. */
KEMET_API int kemet_explain_standing(const kemet_change_effect *eff, int n);

/* The stopping rule (docs/analysis.md, "Precision"): a pilot of `pilot`
 * games gave a 95% interval of half-width pilot_half; the whole sample,
 * pilot included, is pilot * (pilot_half / target)^2 games (for a mean of
 * standard deviation s, (1.96 s / target)^2), rounded up to a multiple of
 * `step`, never below the pilot and at most `cap` (the cap where the cap
 * is below the pilot). The size depends on the pilot's games alone. */
KEMET_API long kemet_precision_size(long pilot, double pilot_half,
                                    double target, long cap, long step);
/* The target half-width for a figure that a flag threshold `thr` judges
 * (NAN: none), from its estimate `est`: h, but where the estimate lies
 * within 2h of the threshold, half its distance from it, never less than
 * h / 4; so that the interval tends to end on one side of the threshold
 * rather than straddle it, at no more than 16 times the games. */
KEMET_API double kemet_decide_half(double h, double est, double thr);
/* ceil((z sd / half)^2): the games a mean of spread sd needs (0 for no
 * spread or no half-width). */
KEMET_API long kemet_size_for_sd(double z, double sd, double half);
/* The median of x[0..n) with its 95% interval from order statistics (the
 * ranks n/2 -+ 1.96 sqrt(n)/2, the upper one plus one); values at or
 * above `cap` are censored: they count as longer than any other, and an
 * end that falls on one is INFINITY. NaNs for n < 1 or out of memory. */
KEMET_API kemet_stat kemet_median_ci(const double *x, long n, double cap);
/* sum(a) / sum(b) with the ratio estimator's 95% interval (NaNs where
 * undefined). */
KEMET_API kemet_stat kemet_ratio_ci(const double *a, const double *b, long n);
/* The luck share Var(luck) / (Var(luck) + Var(result - luck)) as a ratio
 * of summed squared deviations, with the ratio estimator's interval held
 * to 0..1; the games taken `per` at a time as one unit (2: the pairs of
 * paired games, which throw alike and so are not independent). NaNs for
 * fewer than two units or out of memory. */
KEMET_API kemet_stat kemet_luck_share_ci(const double *result,
                                         const double *luck, long n, int per);

#ifdef __cplusplus
}
#endif
#endif /* KEMET_H */
