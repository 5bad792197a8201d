/* senet.h - the senet family: Senet's thirty squares read from a ruleset
 * file's parts (docs/rulesets.md, "Family senet").
 *
 * parts.c reads the parts into one `kmt_senet` (every part's meaning
 * written once, each independent of the others) and refuses the
 * combinations that cannot work. The parts then choose the generator: a
 * set that one of the published readings plays exactly (Kendall's with
 * his options and Robinson's rethrow, Bell's, Jéquier's, Piccione's) gets
 * that reading's own fast generator (kendall.c, bell.c, jequier.c,
 * piccione.c); every other set gets the general one (generic.c), which
 * plays any combination of the parts. The choice is made once, when the
 * file is opened; nothing looks at it while a game is played.
 */
#ifndef KEMET_SENET_H
#define KEMET_SENET_H

#include "internal.h"

enum {
    SN_SQUARES = 30,
    SN_EXIT = SN_SQUARES + 1, /* a count that bears off exactly ends here */
    SN_MAX_PIECES = 10,
    SN_MAX_VALUE = 6 /* the largest value a throw may have */
};

/* The track's rows (K1): the start row 1-10 and the last row 21-30. */
#define SN_TRACK (((uint64_t)1 << (SN_SQUARES + 1)) - 2)
#define SN_ROW1 (((uint64_t)1 << 11) - 2)
#define SN_ROW3 (SN_TRACK & ~(((uint64_t)1 << 21) - 1))

enum sn_first { SN_FIRST_P1, SN_FIRST_HIGHER, SN_FIRST_ONE_BLACK };
enum sn_capture { SN_CAP_SWAP, SN_CAP_REMOVE, SN_CAP_FIRST_EMPTY, SN_CAP_NONE };
enum sn_water {
    SN_WATER_NONE,
    SN_WATER_STAY, /* the piece stays; rescue before throwing, or off */
    SN_WATER_FIRST_EMPTY,
    SN_WATER_HAND
};
enum sn_off { SN_OFF_EXACT, SN_OFF_ANY, SN_OFF_SQUARES };
enum sn_end { SN_END_FIRST_OFF, SN_END_SCORE, SN_END_POINTS };
enum sn_enter { SN_ENTER_NONE, SN_ENTER_ONE, SN_ENTER_MUST };
/* Which generator plays the parts. */
enum sn_engine { SN_GENERIC, SN_KENDALL, SN_BELL, SN_JEQUIER, SN_PICCIONE };

/* Every part of a senet ruleset, as parts.c reads it. */
typedef struct kmt_senet {
    int pieces;        /* 1-10 a side */
    uint64_t setup[2]; /* the squares each side starts on; the rest in hand */
    enum sn_first first;
    int wait;           /* 0, or the value each player must first throw */
    int nsticks, blank; /* `throw sticks N blank=V`, or 0 */
    int die;            /* `throw die N`, or 0 */
    int nvalues;        /* the throws: values, weights, their total */
    uint8_t value[SN_MAX_VALUE + 1];
    kemet_weight weight[SN_MAX_VALUE + 1], total;
    int maxv;             /* the largest value */
    unsigned values;      /* bit v: v is a value of the throw */
    unsigned again_throw; /* bit v: a move made with v gives another */
    bool again_enter;     /* an entry gives another throw */
    uint64_t again_on;    /* a step's count ending here gives another */
    bool pairs;           /* a piece with an own neighbour is not hit */
    uint64_t safe;        /* squares whose pieces are not hit (safe and
                             marked) */
    uint64_t marked;      /* the marked squares (`vacate marked`) */
    bool block3;          /* no move passes three opposing in a row */
    enum sn_capture capture;
    bool lock;           /* a piece on 1-10 waits while s+1 is taken */
    bool vacate;         /* a marked square's movable piece moves first */
    enum sn_enter enter; /* a 1 enters a piece on square 1 */
    bool split;          /* a throw shared out among pieces */
    bool backward;       /* backward moves when no forward one exists */
    bool back_empty;     /* ... to empty squares only */
    uint64_t back_not;   /* squares whose pieces never move backward */
    uint64_t back_water; /* squares whose backward move goes into the
                            water, whatever the count */
    int stop;            /* 0, or the square every piece must stop on */
    int water;           /* 0, or the water square */
    enum sn_water water_kind;
    int rescue; /* SN_WATER_STAY: where a piece is rescued to */
    bool trap;  /* a count passing the stop falls in the water */
    enum sn_off off;
    uint8_t off_count[SN_SQUARES + 1]; /* SN_OFF_SQUARES: bit v of square
                                          s, a count v bears off from s */
    uint64_t houses;     /* listed squares other than the stop square:
                            their pieces move only by bearing off */
    bool off_last_row;   /* off only with every piece on 21-30 */
    bool off_row1_clear; /* off only with no piece on 1-10 (KO5) */
    uint64_t rethrow;    /* landing here: rethrow with that piece */
    enum sn_end end;
    enum sn_engine engine;
    enum sn_engine features; /* whose evaluation's features: the parts'
                                own (SN_GENERIC) or a published reading's */
    int kendall_flags;       /* SN_KENDALL: its variant flags (kendall.c) */
    /* what the board shows: the terminal picture and the page's signs */
    char picture[2200];
    char sign[SN_SQUARES + 1][8];
} kmt_senet;

/* The parts of the ruleset (r->params). */
static inline const kmt_senet *kmt_senet_of(const kemet_rules *r) {
    return (const kmt_senet *)r->params;
}

/* Sets up the general generator (generic.c) for the parts in r->params. */
void kmt_senet_generic(kmt_ruleset *rs, kmt_senet *sn);
/* Sets up Kendall's generator (kendall.c) for the parts of his rules
 * with these flags (KMT_KENDALL_*). */
enum {
    KMT_KENDALL_ROBINSON = 1,
    KMT_KENDALL_FIVE = 2,
    KMT_KENDALL_START = 4,
    KMT_KENDALL_TRAP = 8,
    KMT_KENDALL_HOMEROW = 16
};
void kmt_senet_kendall(kmt_ruleset *rs, int flags);

/* The board for drawing with the parts' signs (generic.c). */
void kmt_senet_art(const kemet_rules *r, kemet_board_art *a);

#endif /* KEMET_SENET_H */
