/* internal.h - what the library's modules share and the public header hides.
 *
 * A ruleset is a module that fills one `kmt_ruleset` table of functions
 * and registers it in rules.c. Nothing outside a ruleset module looks at
 * which ruleset it is: the notation, the driver, the agents and the
 * program all go through this table.
 *
 * Ruleset functions may assume their arguments are valid: the public
 * wrappers in rules.c check them (positions are checked when parsed).
 */
#ifndef KEMET_INTERNAL_H
#define KEMET_INTERNAL_H

#include "kemet.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#define KMT_MAX_OPTIONS 4

typedef struct kmt_ruleset kmt_ruleset;

/* What a playout works on (game.c): the position, the two generators and
 * the counters of the game driver. */
typedef struct kmt_playout_state {
    kemet_pos pos;
    kemet_rng *dice, *pick;
    long max_turns, turns, plies;
    bool new_turn;
    bool pending; /* `thr` is already thrown (set by an opening) */
    kemet_throw thr;
} kmt_playout_state;

/* Counts a ply by `mover`, st->pos being the position after it. */
static inline void kmt_playout_count(kmt_playout_state *st, int mover) {
    st->turns += st->new_turn;
    st->plies++;
    st->new_turn = st->pos.to != mover;
}

/* Whether the playout goes on: the game is not over and the next ply does
 * not begin a turn beyond the cap. */
static inline bool kmt_playout_going(const kmt_playout_state *st) {
    return st->pos.result == KEMET_PLAYING &&
           !(st->new_turn && st->turns >= st->max_turns);
}

/* A board read from a board file (board.c; format in docs/boards.md). */
#define KMT_BOARD_HOLES 99
#define KMT_BOARD_FACES 8
enum {
    KMT_BOARD_SAFE = 1,
    KMT_BOARD_SUN = 2,
    KMT_BOARD_ANKH = 4,
    KMT_BOARD_MARK = 8
};
typedef struct kmt_board {
    char title[80];
    int holes, squares;
    int npath[2];
    uint8_t hole[2][KEMET_MAX_SQUARE + 1];  /* path square -> hole */
    uint8_t square[2][KMT_BOARD_HOLES + 1]; /* hole -> path square, or 0 */
    uint8_t home[2][8];                     /* home holes, in order */
    int nhome[2];
    uint8_t flags[KMT_BOARD_HOLES + 1]; /* KMT_BOARD_* */
    uint8_t line[KMT_BOARD_HOLES + 1];  /* the other end, or 0 */
    uint8_t river[KMT_BOARD_HOLES + 1]; /* the other end, or 0 */
    uint64_t enter;                     /* squares to re-enter onto */
    int nsolid_faces, ndual_faces;
    uint8_t solid[KMT_BOARD_FACES];
    uint8_t dual_v[KMT_BOARD_FACES], dual_p[KMT_BOARD_FACES];
    char *picture; /* owned */
} kmt_board;

/* Parses a board file for the ruleset family `family` ("washburne"). On
 * failure err says "board file line N: ..." and nothing needs freeing. */
int kmt_board_parse(const char *text, const char *family, kmt_board *b,
                    kemet_error *err);
void kmt_board_free(kmt_board *b);

/* One option a ruleset takes after the colon: a number min..max
 * ("solid=2"), or one of `nwords` words ("board=marked"; its value in
 * kemet_rules.opt is the word's index, `def` the default's). */
#define KMT_OPTION_WORDS 8
typedef struct kmt_option {
    const char *key;
    int min, max, def;
    int nwords;
    const char *word[KMT_OPTION_WORDS];
} kmt_option;

/* SHA-256 (sha256.c): names a ruleset file's text in records. */
typedef struct kmt_sha256 {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t fill;
} kmt_sha256;
void kmt_sha256_init(kmt_sha256 *s);
void kmt_sha256_add(kmt_sha256 *s, const void *data, size_t n);
/* Finishes: the digest as 64 hex digits and a NUL. */
void kmt_sha256_hex(kmt_sha256 *s, char out[65]);

/* A ruleset file (rulefile.c; docs/rulesets.md), as read: the statements
 * every ruleset has, and the family's parts, each a line split in words
 * (argv[0] its name). Strings point into `buf`, owned. */
#define KMT_RF_WORDS 24
#define KMT_RF_ABSENT 32
typedef struct kmt_part {
    int line;
    int argc;
    const char *argv[KMT_RF_WORDS];
    const char *guard; /* "KEY=VALUE,...": the options it holds under */
    bool used;         /* read by the family (or not in force) */
    bool off;          /* its guard does not hold for the options chosen */
} kmt_part;
/* A line of the rules in words (`text`), in the file's order: under a
 * guard (`if KEY=VALUE text ...`) it is the part `guard` of the file,
 * shown only when that part is in force; else part is -1. */
typedef struct kmt_tline {
    const char *s;
    size_t len;
    int part;
} kmt_tline;
typedef struct kmt_rulefile {
    char *buf;
    const char *id, *family, *board;
    const char *title, *author, *about, *source, *gone, *in_hand;
    char source_kind[200]; /* `source-kind`, in words; "" when not given */
    char *reference;       /* the `reference` lines, each ending in a
                              newline (in `text`'s buffer), or NULL */
    const char *player[2];
    char glyph[2];
    int year;             /* 0: not given */
    const char *level[5]; /* 'levels': the play levels' agents, or NULL */
    char *text;       /* the rules in words, each line ending in a newline: the
                         lines whose guard holds for the options chosen */
    kmt_tline *tline; /* every line of it, guarded or not */
    int ntlines;
    kmt_option option[KMT_MAX_OPTIONS + 1];
    int option_line[KMT_MAX_OPTIONS];
    int noptions;
    kmt_part *part;
    int nparts;
    const char *parts; /* set by a family: which of its sets of parts is
                          being read ("with 'capture remove'"), or NULL */
    int version_line, id_line, family_line; /* where those statements are */
    /* A required part found missing while the family read its parts: the
     * message, kept until the parts read are known, so that a part the
     * family does not have (a misspelt one) is reported first. */
    char missing[200];
    const char *missing_name;
    /* The names a family asked for and did not find (its statements the
     * file leaves out), to tell a misspelt part by. */
    const char *absent[KMT_RF_ABSENT];
    int nabsent;
    const char *last_absent; /* the last of them asked for */
} kmt_rulefile;
int kmt_rulefile_parse(const char *text, kmt_rulefile *f, kemet_error *err);
void kmt_rulefile_free(kmt_rulefile *f);
/* Puts in force the parts whose guard holds for the option values opt[]
 * of the file's options (and no others); refuses a guard naming an
 * unknown option or value, and two forms of one part in force at once. */
int kmt_rulefile_choose(kmt_rulefile *f, const int *opt, kemet_error *err);
/* Whether `name` (len bytes) is a statement every ruleset file may have
 * (id, title, text, option, ...), not a family's part. */
bool kmt_rf_common(const char *name, size_t len);
/* For the families: the part `name` (marked read), or NULL. */
kmt_part *kmt_rf_part(kmt_rulefile *f, const char *name);
/* The part `name` of one word among `choices` (NULL-terminated): its
 * index into *out; absent: `def`, or when def < 0 noted as missing (for
 * kmt_rf_finish to report) with *out 0. */
int kmt_rf_choice(kmt_rulefile *f, const char *name, const char *const *choices,
                  int def, int *out, kemet_error *err);
/* A part this family has in one form only: required (noted as missing
 * when absent, as by kmt_rf_choice), with these words. */
int kmt_rf_fixed(kmt_rulefile *f, const char *name, const char *words,
                 kemet_error *err);
/* The words of the required part `name`, one space apart, into buf
 * (absent: noted as missing, buf empty). */
int kmt_rf_words(kmt_rulefile *f, const char *name, char *buf, size_t len,
                 kemet_error *err);
/* A part without words: whether it is there. */
int kmt_rf_flag(kmt_rulefile *f, const char *name, bool *out, kemet_error *err);
/* The numbers lo..hi of the part `name` from its word `first` on, each
 * once, at most `max`, into out[] and their count into *n (0 when
 * absent). */
int kmt_rf_numbers(kmt_rulefile *f, const char *name, int first, int lo, int hi,
                   int *out, int max, int *n, kemet_error *err);
/* Refuses a combination of parts: "rules file line N: why". */
int kmt_rf_refuse(const kmt_part *p, const char *why, kemet_error *err);
/* After the family read its parts (`rc` what its configure returned):
 * first a part it does not have (naming the statement it is most likely
 * a misspelling of), then a required part that is missing, then rc's own
 * problem; a problem the family gave no line is put on the `family`
 * line. KEMET_OK when there is none. */
int kmt_rf_finish(kmt_rulefile *f, int rc, kemet_error *err);

/* A family: one move generator, set up from a file's parts when a
 * ruleset is opened. `base` gives the functions and the defaults;
 * `configure` reads the parts into r->own (pieces, squares, ...),
 * r->variant and r->params, with the options already in r->opt. */
typedef struct kmt_family {
    const char *name;
    const kmt_ruleset *base;
    const char *const *option_keys; /* the options it knows, or NULL */
    int (*configure)(kemet_rules *r, kmt_rulefile *f, kemet_error *err);
} kmt_family;
extern const kmt_family kmt_family_senet, kmt_family_holes58, kmt_family_track,
    kmt_family_tab;
/* The value of the option `key` (kmt_family.option_keys), or `def` when
 * the ruleset does not take it. */
int kmt_rules_opt(const kemet_rules *r, const char *key, int def);

struct kmt_ruleset {
    const char *id;
    int variant;
    const char *title, *source, *text;
    const char *author;   /* who the rules are by, in words */
    int year;             /* the year they were published, 0: not given */
    const char *about;    /* one line: what sets this game apart */
    const char *level[5]; /* the play levels' agents (NULL: the defaults) */
    const char *player[2];
    char glyph[2];
    const char *gone;
    const char *in_hand; /* NULL: "in hand" */
    int pieces;
    int squares;               /* highest path square */
    int heap_square;           /* the square that holds several pieces, or 0 */
    bool has_hand;             /* pieces can be in hand */
    bool has_must;             /* rethrows with the same piece (must=) exist */
    uint64_t must_squares;     /* the squares a rethrow (must=) can name */
    bool race;                 /* the sides never meet: a race database
                                  applies (race.c) */
    bool locks;                /* pieces lock until they move (Tab's
                                  l1=/l2=, pos->lock) */
    uint8_t left_values;       /* bit v: a value v can wait in left= (Tab:
                                  a turn's throws first, then its moves);
                                  0: no left= */
    bool agains;               /* a turn may earn another (Tab's again=1) */
    bool scores;               /* pieces borne off are counted in `off`
                                  (o1=/o2=): Bell's score */
    bool tables;               /* endgame tables apply (table.c): the two
                                  players are alike and the throws do not
                                  depend on the position */
    const kmt_option *options; /* NULL-key terminated, or NULL */

    /* Board picture: template with {NN} slots, and the path-to-cell map. */
    const char *board;
    int cells;
    int (*cell_of)(const kemet_rules *r, int player, int square);

    /* Optional: called by kemet_rules_open after the options are read,
     * with the board file text (NULL: the ruleset's own). May set r->data,
     * r->board, r->squares, r->info.squares and r->info.board_cells;
     * `close` releases r->data. */
    int (*open)(kemet_rules *r, const char *board_text, kemet_error *err);
    void (*close)(kemet_rules *r);
    /* Optional: whether a throw is one this ruleset can produce in `pos`
     * (else kemet_throws is searched). */
    bool (*throw_ok)(const kemet_rules *r, const kemet_pos *pos,
                     const kemet_throw *thr);
    /* Optional: whether a throw's values, in the order written, are a
     * sequence the rules can throw (Tab's: each but the last throws
     * again); if so, puts them in the ruleset's own order (in place of
     * sorting them). */
    bool (*sequence_ok)(const kemet_rules *r, kemet_throw *raw);
    /* Optional, for turns of several steps: whether `move` is a legal
     * complete turn (in any order of its steps; kemet_moves lists one
     * order per distinct outcome). Else kemet_apply searches the list. */
    bool (*legal)(const kemet_rules *r, const kemet_pos *pos,
                  const kemet_throw *thr, const kemet_move *move);
    /* Optional: kemet_move_upgrade's rewriting of a move in an earlier
     * form of the notation into today's. */
    void (*upgrade)(const kemet_rules *r, const kemet_pos *pos,
                    kemet_move *move);
    /* Optional, for turns of several steps: the random playout's turn,
     * built step by step, each step uniform among the legal steps. The
     * generic playout uses it instead of a uniform pick in kemet_moves. */
    void (*random_turn)(const kemet_rules *r, const kemet_pos *pos,
                        const kemet_throw *thr, kemet_rng *pick,
                        kemet_move *out);
    /* Optional, for turns of several steps: kemet_next_steps; with `mid`
     * not NULL, also the position after `done`, its player still to move
     * (kemet_steps_pos). */
    int (*next_steps)(const kemet_rules *r, const kemet_pos *pos,
                      const kemet_throw *thr, const kemet_move *done,
                      kemet_move *next, kemet_throw *left, kemet_pos *mid);

    void (*start)(const kemet_rules *r, kemet_pos *pos);
    /* Opening procedure (ruling G4): may use the dice generator. Returns
     * 1 when it also made the first throw (Skiryuk: the lower opening
     * throw is the starter's first throw), stored in *first; else 0. */
    int (*opening)(const kemet_rules *r, kemet_rng *rng, kemet_pos *pos,
                   kemet_throw *first, kemet_events *ev);
    /* Ruleset-specific position checks beyond the generic ones. */
    int (*check)(const kemet_rules *r, const kemet_pos *pos, kemet_error *err);

    int (*throws)(const kemet_rules *r, const kemet_pos *pos, kemet_throw *out,
                  kemet_weight *weight, kemet_weight *total);
    void (*roll)(const kemet_rules *r, const kemet_pos *pos, kemet_rng *rng,
                 kemet_throw *out);
    int max_value; /* one value of 1..max_value per throw, usable
                      by both (0: check against `throws`) */
    int (*prethrow)(const kemet_rules *r, const kemet_pos *pos,
                    kemet_move *out);
    int (*moves)(const kemet_rules *r, const kemet_pos *pos,
                 const kemet_throw *thr, kemet_move *out);
    /* Optional: the positions the legal moves for `thr` lead to, as
     * `make` leaves them, where that is much cheaper than making each
     * move: with `moves` not NULL, kemet_moves's list into it and out[i]
     * the position after moves[i]; with `moves` NULL, the distinct
     * positions in any order. Their count, or KEMET_ERANGE. The caller has
     * checked the arguments as kemet_moves does. */
    int (*afters)(const kemet_rules *r, const kemet_pos *pos,
                  const kemet_throw *thr, kemet_move *moves, kemet_pos *out);
    /* `out` may be `pos`. */
    void (*make)(const kemet_rules *r, const kemet_pos *pos,
                 const kemet_throw *thr, const kemet_move *move, kemet_pos *out,
                 kemet_events *ev);
    /* Optional: a faster kemet_game_playout for this ruleset. It must draw
     * from `dice` and `pick` and count exactly as kmt_playout_generic
     * (game.c) does; a test checks they give identical games. */
    void (*playout)(const kemet_rules *r, kmt_playout_state *st);
    /* Evaluation (eval.c): adds the features of player p's side (p 0 or
     * 1) into f[], which the caller zeroed; `features` names them (NULL
     * terminated, at most KEMET_MAX_FEATURES - 1: eval.c adds "tempo") and
     * `weights` are the starting weights that `kemet tune` improves. */
    void (*side)(const kemet_rules *r, const kemet_pos *pos, int p, double *f);
    const char *const *features;
    const double *weights;
    /* Optional: what the win of the finished game `pos` is worth, where
     * the rules count points (kemet_points). */
    int (*points)(const kemet_rules *r, const kemet_pos *pos);
    /* Why an illegal move is illegal (called only for illegal moves). */
    void (*explain)(const kemet_rules *r, const kemet_pos *pos,
                    const kemet_throw *thr, const kemet_move *move, char *buf,
                    size_t len);
    /* The board for drawing (art.c); out is zeroed. */
    void (*art)(const kemet_rules *r, kemet_board_art *out);
};

/* An opened ruleset: its file, the family's functions with what the file
 * set (`own`, which `rs` points to), its variant and options. Nothing
 * changes it after kemet_rules_open returns, so any number of threads may
 * use it at once; what values positions lives in a judge (judge.c). */
struct kemet_rules {
    const kmt_ruleset *rs; /* &own */
    kmt_ruleset own;
    kmt_rulefile file;        /* the strings of `own` and `info` */
    bool user;                /* opened from a user's text, not built in */
    char sha256[65];          /* of the file's text and any board file */
    char *text;               /* a user's file's text (owned), or NULL */
    int variant;              /* family-defined: which built-in parameters */
    void *params;             /* family-defined, owned (free) */
    int opt[KMT_MAX_OPTIONS]; /* option values, in the file's order */
    char spec[96];            /* canonical spec */
    char key[96];     /* what is made for it is kept under (kemet_rules_key) */
    char net_key[64]; /* what its networks are made for: the id, @sha */
    char eval_id[64]; /* whose evaluation it uses (weights, networks): its
                         own id, or the reading it was changed from
                         (kmt_rules_open_change) */
    const kemet_rules *like; /* while a change is opened: the reading it
                                was changed from, whose evaluation's
                                features the family computes; else NULL */
    kemet_info info;
    const char *board; /* the board picture (template) */
    char *board_file;  /* the board file's text, or NULL */
    int squares;       /* highest path square */
    void *data;        /* module data made by rs->open, or NULL */
    bool generic;      /* a family with fast generators for some sets of
                          parts plays these on its general one all the
                          same (kmt_rules_open_generic: the tests) */
    bool waits;        /* positions may list players in `wait` (set by
                          rs->open: Kendall's start=1) */
};

/* The boards for drawing (art.c): Senet's, the 58-holes board, and a
 * board file's (the rules' data must be track.c's). */
/* kemet_moves into `moves` and the position after each into `out`
 * (out[i] = kemet_make of moves[i]), by the `afters` hook where the
 * ruleset has one. With `listed` false only the positions count: they
 * come distinct, in any order, `moves` being room for KEMET_MAX_MOVES
 * moves to work in. The count, or an error as kemet_moves's. */
int kmt_afters(const kemet_rules *r, const kemet_pos *pos,
               const kemet_throw *thr, kemet_move *moves, kemet_pos *out,
               bool listed);

void kmt_art_senet(const kemet_rules *r, kemet_board_art *a);
/* Senet's board with the signs sign[1..30] (NULL: none) on its squares. */
void kmt_art_senet_signs(const kemet_rules *r, kemet_board_art *a,
                         const char *const sign[31]);
/* The `prethrow` of a ruleset with no move before throwing. */
int kmt_no_prethrow(const kemet_rules *r, const kemet_pos *pos,
                    kemet_move *out);
/* The reasons a one-step Senet move is refused before the ruleset's own
 * (senet.c): no throw yet (`device`: "the die", "the sticks"), several
 * steps, a pass that is not needed, a piece from hand, no piece on FROM.
 * True when it wrote one into buf. */
bool kmt_senet_explain_common(const kemet_rules *r, const kemet_pos *pos,
                              const kemet_throw *thr, const kemet_move *move,
                              const char *device, char *buf, size_t len);
/* Sets up the senet family's generator for Bell's parts (bell.c)
 * and for Jéquier's (jequier.c). */
void kmt_senet_bell(kmt_ruleset *rs);
void kmt_senet_jequier(kmt_ruleset *rs);
void kmt_senet_piccione(kmt_ruleset *rs);
void kmt_art_h58(const kemet_rules *r, kemet_board_art *a);
/* What the 58-holes board shows of a holes58 ruleset (h58.c): its marked
 * holes, and its lines (line[h] the other end of the line at hole h of a
 * side, 0 for none; a line drawn once). */
void kmt_h58_drawing(const kemet_rules *r, uint64_t *marks, uint8_t line[30]);
/* The 58 holes drawn with these marked holes (bits 1-29) and lines
 * (line[a] = b: a line from a to b on each side). */
void kmt_art_palm(const kemet_rules *r, kemet_board_art *a, uint64_t marks,
                  const uint8_t line[30]);
/* The 58 holes' picture for the terminal (kemet_board_template), with
 * only the marks (bits of holes 1-30) and lines (as kmt_art_palm's) the
 * rules have, the apex named the Shen where `shen`, and a key naming the
 * rules' players; and its cells (h58.c). */
enum { KMT_H58_PICTURE = 1800 };
void kmt_h58_picture(char out[KMT_H58_PICTURE], const kemet_rules *r,
                     uint64_t marks, const uint8_t line[30], bool shen);
int kmt_h58_cell_of(const kemet_rules *r, int player, int square);

/* The 58 holes: the opponent's path squares as ours, q -> 60 - q (30
 * stays 30), by reversing the bit order. */
static inline uint64_t kmt_mirror60(uint64_t x) {
    /* reverse the bits within each byte, then the bytes */
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
    return __builtin_bswap64(x) >> 3; /* bit 63-q becomes bit 60-q */
}
void kmt_art_file(const kemet_rules *r, kemet_board_art *a);

/* A mixing function for seeds (splitmix64's finaliser): the games of the
 * tools that play many (match.c, study.c) are seeded through it. */
static inline uint64_t kmt_mix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Runs fn(ctx, unit, thread) for every unit in [0, n) on `threads` threads
 * (the caller's among them), units taken in turn from a shared counter.
 * What a unit computes must not depend on which thread runs it (pool.c). */
typedef void (*kmt_unit_fn)(void *ctx, long unit, int thread);
void kmt_run_units(int threads, long n, kmt_unit_fn fn, void *ctx);
/* The most threads kmt_run_units starts. */
#define KMT_MAX_THREADS 64

/* Endgame tables (table.c). The table's side states: every way one side
 * can have 1..N pieces in play, ranked densely; race.c uses them too. */
#define TB_MAX_PIECES 7
struct kemet_table {
    char spec[96];
    int N, S, heap_sq;
    bool hand;
    int nsq;
    uint8_t sqs[64];    /* the squares a side may occupy, ascending */
    int8_t rank_of[64]; /* square -> its place in sqs, or -1 */
    uint64_t allowed;   /* those squares as a set */
    uint32_t c[65][TB_MAX_PIECES + 1]; /* binomials C(n, k) */
    uint32_t base[TB_MAX_PIECES + 1][TB_MAX_PIECES + 1][TB_MAX_PIECES + 1];
    uint32_t M, Mm;
    uint64_t must_sq;
    uint64_t *mask; /* per side state */
    uint8_t *heap, *hnd;
    uint32_t *must_first; /* M + 1: first rethrow variant of each state */
    long long entries, valid;
    int sweeps;
    double residual;
    uint16_t *v; /* entries */
};

/* Lays out the side states of the class of `pieces` (no values yet). */
int kmt_table_layout(const kemet_rules *r, int pieces, kemet_table **out,
                     kemet_error *err);
/* The plain side state of mover state a (a rethrow variant's, or a
 * itself), and the rethrow's square in *must (0 for none). */
uint32_t kmt_table_plain(const kemet_table *t, uint32_t a, int *must);
/* The rank of a side state among the M. */
uint32_t kmt_table_side_rank(const kemet_table *t, uint64_t mask, int heap,
                             int hand);

/* Player 1's chance in the unfinished `pos` by the network `n` (net.c). */
double kmt_net_chance1(const kemet_rules *r, const kemet_net *n,
                       const kemet_pos *pos);
/* Whether `n` fits the ruleset `r`: its id, board size and features
 * (net.c). */
bool kmt_net_fits(const kemet_net *n, const kemet_rules *r);
/* The networks carried in the library: {ruleset id, text} pairs, ending
 * with {NULL, NULL} (made by CMakeLists.txt from data/nets). */
extern const char *const kmt_nets_builtin[][2];

/* The evaluation's features (eval.c): how many (tempo included), and the
 * ruleset's tuned weights (data/eval.weights, else the module's starting
 * weights) into w[]. Both cannot fail. */
int kmt_eval_nfeatures(const kemet_rules *r);
/* kemet_eval_features without its checks, for the evaluation. */
int kmt_eval_features(const kemet_rules *rules, const kemet_pos *pos,
                      double *f);
int kmt_eval_tuned(const kemet_rules *r, double *w);
/* The module's starting weights (before tuning) into w[]; returns how
 * many. */
int kmt_eval_start(const kemet_rules *r, double *w);
/* Reads this ruleset's line of a weights file's text into w[] (as
 * kemet_eval_load; w untouched on failure). */
int kmt_eval_read(const kemet_rules *r, const char *text, double *w,
                  kemet_error *err);

/* The judge (judge.c): everything that values a position. `base` is
 * what a judge made by kemet_judge_new owns (its network); a copy made
 * by kmt_judge_derive owns nothing and borrows the rest. */
struct kemet_judge {
    const kemet_rules *rules;
    const kemet_table *table;  /* exact endgame values, or NULL */
    const kemet_race *race;    /* one-sided race values, or NULL */
    const kemet_net *net;      /* the network in use, NULL: linear */
    kemet_net *own_net;        /* the built-in network, owned, or NULL */
    const kemet_net *base_net; /* the ruleset's network without its
                                  options' (@base), NULL: linear */
    kemet_net *own_base;       /* it, owned, where an option has its own */
    bool plain;                /* no tables or race databases, ever */
    int nw;                    /* linear weights in use */
    double w[KEMET_MAX_FEATURES];
};
/* Player 1's chance of winning `pos`, by the one chain: the result of a
 * finished game; the table where it covers `pos` (then *exact is set,
 * if not NULL); the race database; the network; the linear weights. */
double kmt_judge_chance1(const kemet_judge *j, const kemet_pos *pos,
                         bool *exact);
/* The chance of `player` by the evaluation alone (network, else linear
 * weights; the result of a finished game), where no table is asked. */
double kmt_judge_eval(const kemet_judge *j, const kemet_pos *pos, int player);
/* The judge an agent was made with, before "@linear" or "@plain"
 * (agent.c). */
const kemet_judge *kmt_agent_base(const kemet_agent *a);
/* How an agent's judge differs from the one it was made with: the
 * spec's "@linear", "@plain" or "@base". */
enum { KMT_JUDGE_SAME, KMT_JUDGE_LINEAR, KMT_JUDGE_PLAIN, KMT_JUDGE_BASE };
/* A copy of `base` into *out that owns nothing: without its network for
 * KMT_JUDGE_LINEAR, also without tables and race database for
 * KMT_JUDGE_PLAIN, with the network of the ruleset without its options
 * for KMT_JUDGE_BASE. */
void kmt_judge_derive(const kemet_judge *base, int how, kemet_judge *out);
/* The spec of the ruleset a race database was made for (race.c). */
const char *kmt_race_spec(const kemet_race *race);

/* Search (search.c): expectiminimax with Star1/Star2, a transposition
 * table and iterative deepening. A budget is a node count, seconds, or a
 * fixed depth (in plies); zero fields are unset. */
typedef struct kmt_budget {
    long long nodes;
    double seconds;
    int depth;
    int (*check)(void *ctx); /* kemet_agent_set_check's, or NULL */
    void *check_ctx;
} kmt_budget;
typedef struct kmt_search kmt_search;
kmt_search *kmt_search_new(const kemet_judge *j);
void kmt_search_free(kmt_search *s);
/* Chooses among the n moves for `thr` in `pos` (thr NULL: the pre-throw
 * moves, -1 for throwing). With `chance`, also the mover's win chance
 * after each move (and, before a throw, of throwing in *throw_chance),
 * each searched with a full window. Returns the index chosen. */
int kmt_search_run(kmt_search *s, const kmt_budget *budget,
                   const kemet_pos *pos, const kemet_throw *thr,
                   const kemet_move *moves, int n, double *chance,
                   double *throw_chance);
/* Nodes the last kmt_search_run visited. */
long long kmt_search_nodes(const kmt_search *s);
/* The agent's check (kemet_agent_set_check): 0 when it has none. */
int kmt_agent_check(kemet_agent *a);
/* Whether `spec` names an agent kemet_agent_new would make (its
 * message in err otherwise). */
int kmt_agent_spec_check(const char *spec, kemet_error *err);

/* Monte Carlo tree search (mcts.c), with the same conventions; the
 * budget is iterations or seconds. */
typedef struct kmt_mcts kmt_mcts;
kmt_mcts *kmt_mcts_new(const kemet_judge *j);
void kmt_mcts_free(kmt_mcts *m);
int kmt_mcts_run(kmt_mcts *m, const kmt_budget *budget, const kemet_pos *pos,
                 const kemet_throw *thr, const kemet_move *moves, int n,
                 double *chance, double *throw_chance);
long long kmt_mcts_nodes(const kmt_mcts *m);

/* The built-in rulesets: {id, file text} pairs in the order kemet lists
 * them, ending with {NULL, NULL} (made by CMakeLists.txt from
 * data/rulesets). */
extern const char *const kmt_rulesets_builtin[][2];

/* Whether `pos` can be given to the rules' code without reading out of
 * bounds: rules and pos not NULL, `to` 1 or 2, a known result, `wait` 0
 * (bits 0-1 where the rules let players wait),
 * no piece beyond the last square, no more pieces than the ruleset has.
 * The entry points of kemet.h refuse others with KEMET_EMISUSE (or assert
 * where they cannot return a code). Not a full check (kemet_pos_check). */
bool kmt_pos_usable(const kemet_rules *rules, const kemet_pos *pos);

/* kemet_rules_open_text, the family playing the parts on its general
 * generator even where a fast one plays them (rules.c): for the tests
 * that check the two give the same games. */
int kmt_rules_open_generic(const char *text, const char *spec,
                           kemet_rules **out, kemet_error *err);

/* A reading with one rule of `base` changed: the ruleset file `text`
 * (its own id), opened to be judged by base's evaluation (its tuned
 * weights and networks; the family computes base's features from the
 * changed parts), so that what is measured of it differs from base by the
 * rule alone (the analysis's rule changes). */
int kmt_rules_open_change(const kemet_rules *base, const char *text,
                          kemet_rules **out, kemet_error *err);

/* The canonical form of a ruleset spec into out (rules.c); KEMET_ERULESET
 * as kemet_rules_open. Opens nothing. */
int kmt_spec_canon(const char *spec, char *out, size_t len, kemet_error *err);
/* As kmt_spec_canon, for a spec of the ruleset `r` (a user's file's too). */
int kmt_rules_canon(const kemet_rules *r, const char *spec, char *out,
                    size_t len, kemet_error *err);

/* Sets err (if not NULL) and returns code. printf-style message. */
int kmt_fail(kemet_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Puts a throw's values in canonical order (notation.c): those anyone may
 * use, ascending, then each player's own, ascending. */
void kmt_throw_sort(kemet_throw *t);

/* A decimal number of 1 to 4 digits in s[0..len): 0, or -1 if it is not. */
int kmt_read_num(const char *s, size_t len, int *out);

/* Events (ev may be NULL). */
static inline void kmt_ev_add(kemet_events *ev, int kind, int who, int a,
                              int b) {
    if (ev && ev->n < KEMET_MAX_EVENTS) {
        kemet_event *e = &ev->ev[ev->n++];
        e->kind = (uint8_t)kind;
        e->who = (uint8_t)who;
        e->a = (uint8_t)a;
        e->b = (uint8_t)b;
    }
}

static inline void kmt_throw_one(kemet_throw *t, int v) {
    *t = (kemet_throw){0};
    t->n = 1;
    t->v[0] = (uint8_t)v;
}

/* The four throwing sticks of ruling G2: value = marked sides up, 5 when
 * none is; P(1..5) = 4, 6, 4, 1, 1 in 16. The faces are the top four bits
 * of one draw of the generator. */
static inline int kmt_sticks_value(uint64_t draw) {
    static const uint8_t value[16] = {5, 1, 1, 2, 1, 2, 2, 3,
                                      1, 2, 2, 3, 2, 3, 3, 4};
    return value[draw >> 60];
}
uint64_t kmt_rng_below64(kemet_rng *rng, uint64_t n);
int kmt_sticks_throws(kemet_throw *out, kemet_weight *weight,
                      kemet_weight *total);
void kmt_sticks_roll(kemet_rng *rng, kemet_throw *out);
/* The same, in the shape of the ruleset table's `throws` and `roll`, for
 * rulesets thrown with the four sticks whatever the position. */
int kmt_sticks_throws_of(const kemet_rules *r, const kemet_pos *pos,
                         kemet_throw *out, kemet_weight *weight,
                         kemet_weight *total);
void kmt_sticks_roll_of(const kemet_rules *r, const kemet_pos *pos,
                        kemet_rng *rng, kemet_throw *out);

/* One die of n faces (Bell's d4; Carter's d4 and d6): each value 1..n
 * equally likely. */
int kmt_die_throws(int n, kemet_throw *out, kemet_weight *weight,
                   kemet_weight *total);
void kmt_die_roll(int n, kemet_rng *rng, kemet_throw *out);

/* The throw of a fast playout with the four sticks: the one the opening
 * made, if pending, else a throw drawn as kmt_sticks_roll draws it. */
static inline void kmt_playout_sticks(kmt_playout_state *st, kemet_throw *t) {
    if (st->pending)
        *t = st->thr;
    else
        kmt_throw_one(t, kmt_sticks_value(kemet_rng_next(st->dice)));
    st->pending = false;
}

/* Population count without needing the popcnt instruction. */
/* The rules a game is played by (game.c). */
const kemet_rules *kmt_game_rules(const kemet_game *game);

/* A 64-bit hash of a position (every field, `wait` and `off` too). */
static inline uint64_t kmt_pos_key(const kemet_pos *p) {
    uint64_t rest, more;
    memcpy(&rest, &p->heap[0], sizeof rest);
    memcpy(&more, &p->off[0], sizeof more);
    uint64_t h = p->sq[0] * 0x9e3779b97f4a7c15ULL;
    h ^= (p->sq[1] + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;
    h ^= (rest + 0x8cb92ba72f3d8dd7ULL + more * 0x2545f4914f6cdd1dULL) *
         0x94d049bb133111ebULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);
}

/* Zeroes what follows `wait` (off, lock, left, again), for a `make` that writes
 * a position field by field. */
static inline void kmt_pos_zero_off(kemet_pos *p) {
    const uint64_t zero = 0;
    memcpy(&p->off[0], &zero, sizeof zero);
}

/* Tab's left= (kemet_pos.left): all its counts as one number, value v's
 * in bits 4(v-1)..4(v-1)+3; how many values it holds. */
static inline uint32_t kmt_left_get(const kemet_pos *p) {
    return (uint32_t)p->left[0] | (uint32_t)p->left[1] << 8 |
           (uint32_t)p->left[2] << 16;
}
static inline void kmt_left_set(kemet_pos *p, uint32_t all) {
    p->left[0] = (uint8_t)all;
    p->left[1] = (uint8_t)(all >> 8);
    p->left[2] = (uint8_t)(all >> 16);
}
static inline int kmt_left_total(const kemet_pos *p) {
    int n = 0;
    for (int v = 1; v <= 6; v++)
        n += kemet_left_count(p, v);
    return n;
}
/* The values still to play (left=) as the throw that stands for them,
 * ascending and marked KEMET_KEPT: no new throw. */
static inline void kmt_kept_throw(const kemet_pos *p, kemet_throw *out) {
    *out = (kemet_throw){0};
    for (int v = 1; v <= 6; v++)
        for (int k = kemet_left_count(p, v); k > 0; k--)
            out->v[out->n++] = (uint8_t)v;
    out->sticks = KEMET_KEPT;
}

static inline int kmt_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
/* Side p's (0 or 1) pieces in play: on the board, on the heap, in hand. */
static inline int kmt_in_play(const kemet_pos *pos, int p) {
    return kmt_popcount64(pos->sq[p]) + pos->heap[p] + pos->hand[p];
}
static inline int kmt_ctz64(uint64_t x) {
    return __builtin_ctzll(x);
}
#define KMT_BIT(s) ((uint64_t)1 << (s))

/* Appends the one-step move from-to to out[*n]. */
static inline void kmt_put_move(kemet_move *out, int *n, int from, int to) {
    kemet_move *m = &out[(*n)++];
    m->n = 1;
    m->step[0].from = (uint8_t)from;
    m->step[0].to = (uint8_t)to;
    m->step[0].via = 0;
}

/* A one-step move. */
static inline kemet_move kmt_move1(int from, int to) {
    kemet_move m = {0};
    m.n = 1;
    m.step[0].from = (uint8_t)from;
    m.step[0].to = (uint8_t)to;
    return m;
}

#endif /* KEMET_INTERNAL_H */
