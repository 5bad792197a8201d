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
 * distinct outcome, and kemet_apply accepts any order (`track_legal`).
 *
 * Representation: bit q of pos->sq[p] is player p's path square q; pieces
 * knocked off (Washburne) or in the Duat (Lions & Jackals) are in
 * pos->hand. Nothing ever leaves the game.
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    const char *off; /* where a piece off the board is, in words */
    const char *safe_words; /* why an opponent's piece is safe, in words */
} track_rules;

extern const char kmt_board_washburne[];
extern const char kmt_board_lions_jackals[];

/* By the ruleset's variant number. */
static const track_rules params[] = {
    {.family = "washburne",
     .board = kmt_board_washburne,
     .throws = THROW_STICKS,
     .enter = ENTER_HOME_BOX,
     .safe_flags = KEMET_BOARD_SAFE | KEMET_BOARD_ANKH,
     .jump_event = KEMET_EV_LINE,
     .off_first = true,
     .full_home_loses = true,
     .off = "off the board",
     .safe_words = "an Ankh or home-box hole, rule 13"},
    {.family = "washburne",
     .board = kmt_board_washburne,
     .throws = THROW_DICE,
     .enter = ENTER_HOME_BOX,
     .safe_flags = KEMET_BOARD_SAFE | KEMET_BOARD_ANKH,
     .jump_event = KEMET_EV_LINE,
     .off_first = true,
     .full_home_loses = true,
     .off = "off the board",
     .safe_words = "an Ankh or home-box hole, rule 13"},
    {.family = "lions-jackals",
     .board = kmt_board_lions_jackals,
     .throws = THROW_BOARD,
     .enter = ENTER_OPEN,
     .safe_flags = KEMET_BOARD_SUN,
     .jump_event = KEMET_EV_RIVER,
     .goal_safe = true,
     .duat_win = true,
     .opening = true,
     .off = "in the Duat",
     .safe_words = "a Sun or its goal Home Row, rule 4"},
    {.family = "lions-jackals",
     .board = kmt_board_lions_jackals,
     .throws = THROW_BOARD,
     .enter = ENTER_OPEN,
     .safe_flags = KEMET_BOARD_SUN,
     .jump_event = KEMET_EV_RIVER,
     .goal_safe = true,
     .duat_win = true,
     .quick = true,
     .opening = true,
     .off = "in the Duat",
     .safe_words = "a Sun or its goal Home Row, rule 4"},
};

typedef struct track {
    kemet_board b;
    const track_rules *R;
    int S; /* path squares */
    int nsolid, ndual;
    uint64_t safe[2];  /* squares (own coordinates) where p's piece is safe */
    uint64_t goal[2];  /* p's squares in the opponent's home */
    uint64_t start[2]; /* p's home squares (the start) */
    uint8_t homesq[2][8]; /* p's home squares, in order (W14: the home box) */
    uint8_t jump[2][KEMET_MAX_SQUARE + 1]; /* where a value ending on q rests */
    uint64_t jset[2];                      /* squares q where jump[p][q] != q */
    uint64_t opp_safe[2]; /* p's squares where an opponent's piece is safe */
    uint64_t path;        /* squares 1..S */
    uint8_t other[2][KEMET_MAX_SQUARE + 1]; /* the opponent's square on the
                                               hole of p's square q, or 0 */
    char note[160];
} track;

static inline const track *T(const kemet_rules *r) {
    return r->data;
}

static int track_open(kemet_rules *r, const char *text, kemet_error *err) {
    track *t = calloc(1, sizeof *t);
    if (!t)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    const track_rules *R = t->R = &params[r->variant];
    if (!text)
        text = R->board; /* data/boards, embedded by cmake/embed.cmake */
    int rc = kmt_board_parse(text, R->family, &t->b, err);
    kemet_board *b = &t->b;
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
            t->start[p] |= KEMET_BIT(t->homesq[p][i]);
            t->goal[p] |= KEMET_BIT(b->square[p][b->home[o][i]]);
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
                t->safe[p] |= KEMET_BIT(q);
        }
    }
    if (R->goal_safe) /* L&J rule 4: the opponent's Home Row */
        for (int p = 0; p < 2; p++)
            t->safe[p] |= t->goal[p];
    t->path = KEMET_BIT(t->S + 1) - 2;
    for (int p = 0; p < 2; p++)
        for (int q = 1; q <= t->S; q++) {
            if (t->jump[p][q] != q)
                t->jset[p] |= KEMET_BIT(q);
            int x = t->other[p][q];
            if (x && (t->safe[p ^ 1] & KEMET_BIT(x)))
                t->opp_safe[p] |= KEMET_BIT(q);
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

/* The opponent's pieces as squares of player p's path. */
static inline uint64_t opp_in(const track *t, int p, uint64_t opp) {
    uint64_t x = 0;
    for (; opp; opp &= opp - 1)
        x |= KEMET_BIT(t->other[p ^ 1][kmt_ctz64(opp)]);
    return x & ~(uint64_t)1; /* squares not on p's path map to 0 */
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
        if (mine && (pos->sq[0] & KEMET_BIT(mine)))
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
 * Throws. Washburne: the four sticks (rule 4 = ruling G2), or two
 * four-sided dice (rule 17). Lions & Jackals: nsolid solid sticks and
 * ndual dual-coloured sticks with the board file's faces; a dual value in
 * the other player's colour cannot be used by the thrower and is left out
 * of the throw (rule 3), so each outcome is what the thrower may spend.
 * ------------------------------------------------------------------------ */

/* Outcome enumeration over multisets: `kinds` distinct (value, owner)
 * faces with face counts; `k` sticks of this kind. */
typedef struct kind {
    uint8_t v, only;
    uint32_t count; /* faces showing it */
} kind;

static uint32_t ipow(uint32_t b, int e) {
    uint32_t x = 1;
    while (e-- > 0)
        x *= b;
    return x;
}

static uint32_t fact(int n) {
    return n <= 1 ? 1 : (uint32_t)n * fact(n - 1);
}

typedef struct gen {
    kemet_throw *out;
    uint32_t *weight;
    int n, max;
} gen;

/* Chooses how many of `sticks` show kind i..nk-1; `none` (if >= 0) is the
 * index of the kind that adds no value. */
static void multisets(const kind *kinds, int nk, int i, int left,
                      const kemet_throw *acc, uint32_t mult, int none,
                      void (*done)(const kemet_throw *, uint32_t, void *),
                      void *ctx) {
    if (i == nk - 1) {
        /* the last kind takes the rest */
        kemet_throw t = *acc;
        uint32_t m = mult / fact(left) * ipow(kinds[i].count, left);
        if (i != none)
            for (int k = 0; k < left; k++) {
                t.only[t.n] = kinds[i].only;
                t.v[t.n++] = kinds[i].v;
            }
        done(&t, m, ctx);
        return;
    }
    for (int k = 0; k <= left; k++) {
        kemet_throw t = *acc;
        if (i != none)
            for (int j = 0; j < k; j++) {
                t.only[t.n] = kinds[i].only;
                t.v[t.n++] = kinds[i].v;
            }
        multisets(kinds, nk, i + 1, left - k, &t,
                  mult / fact(k) * ipow(kinds[i].count, k), none, done, ctx);
    }
}

/* The kinds of faces of one sort of stick, in canonical value order. */
static int kinds_of(const uint8_t *v, const uint8_t *owner, int nfaces, int who,
                    kind *out, int *none) {
    int nk = 0;
    uint32_t other = 0;
    for (int f = 0; f < nfaces; f++) {
        int o = owner ? owner[f] : 0;
        if (owner && o != who) {
            other++;
            continue;
        }
        int k = 0;
        while (k < nk && out[k].v != v[f])
            k++;
        if (k == nk)
            out[nk++] = (kind){v[f], (uint8_t)o, 0};
        out[k].count++;
    }
    for (int i = 1; i < nk; i++) /* ascending values */
        for (int j = i; j > 0 && out[j - 1].v > out[j].v; j--) {
            kind x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    *none = -1;
    if (other) {
        *none = nk;
        out[nk++] = (kind){0, 0, other};
    }
    return nk;
}

static void emit(const kemet_throw *t, uint32_t m, void *ctx) {
    gen *g = ctx;
    if (g->n < g->max) {
        g->out[g->n] = *t;
        g->weight[g->n] = m;
    }
    g->n++;
}

/* The dual sticks' outcomes, worked out once, joined to each outcome of
 * the solid sticks. */
typedef struct combine {
    gen dual; /* the dual sticks' outcomes and weights */
    gen *g;   /* the whole throws */
} combine;

static void with_dual(const kemet_throw *solid, uint32_t m, void *ctx) {
    combine *c = ctx;
    for (int i = 0; i < c->dual.n; i++) {
        kemet_throw t = *solid;
        const kemet_throw *d = &c->dual.out[i];
        for (int k = 0; k < d->n; k++) {
            t.only[t.n] = d->only[k];
            t.v[t.n++] = d->v[k];
        }
        emit(&t, m * c->dual.weight[i], c->g);
    }
}

static int track_throws(const kemet_rules *r, const kemet_pos *pos,
                        kemet_throw *out, uint32_t *weight, uint32_t *total) {
    const track *t = T(r);
    if (t->R->throws == THROW_STICKS)
        return kmt_sticks_throws(out, weight, total);
    gen g = {out, weight, 0, KEMET_MAX_THROWS};
    kind sk[KEMET_BOARD_FACES + 1], dk[KEMET_BOARD_FACES + 1];
    int snone, dnone, nsk, ndk = 0, nsolid, ndual = 0;
    if (t->R->throws == THROW_DICE) {
        static const uint8_t d4[4] = {1, 2, 3, 4};
        nsk = kinds_of(d4, NULL, 4, 0, sk, &snone);
        nsolid = 2;
        *total = 16;
    } else {
        nsk = kinds_of(t->b.solid, NULL, t->b.nsolid_faces, 0, sk, &snone);
        ndk = kinds_of(t->b.dual_v, t->b.dual_p, t->b.ndual_faces, pos->to, dk,
                       &dnone);
        nsolid = t->nsolid;
        ndual = t->ndual;
        *total = ipow((uint32_t)t->b.nsolid_faces, nsolid) *
                 ipow((uint32_t)t->b.ndual_faces, ndual);
    }
    /* no dual stick: one empty outcome of weight 1 */
    kemet_throw dual_out[KEMET_MAX_THROWS] = {{0}};
    uint32_t dual_w[KEMET_MAX_THROWS] = {1};
    combine c = {{dual_out, dual_w, 1, KEMET_MAX_THROWS}, &g};
    kemet_throw empty = {0};
    if (ndual) {
        c.dual.n = 0;
        multisets(dk, ndk, 0, ndual, &empty, fact(ndual), dnone, emit, &c.dual);
    }
    multisets(sk, nsk, 0, nsolid, &empty, fact(nsolid), snone, with_dual, &c);
    int n = g.n < KEMET_MAX_THROWS ? g.n : KEMET_MAX_THROWS;
    for (int i = 0; i < n; i++)
        out[i].sticks = (uint8_t)(nsolid + ndual);
    return n;
}

/* How many outcomes a throw has (to refuse stick counts whose outcomes
 * would not fit KEMET_MAX_THROWS). */
static long outcomes(int faces, int sticks) {
    long n = 1; /* C(faces + sticks - 1, sticks) */
    for (int i = 1; i <= sticks; i++)
        n = n * (faces + i - 1) / i;
    return n;
}

static void track_roll(const kemet_rules *r, const kemet_pos *pos,
                       kemet_rng *rng, kemet_throw *out) {
    const track *t = T(r);
    if (t->R->throws == THROW_STICKS) {
        kmt_sticks_roll(rng, out);
        return;
    }
    *out = (kemet_throw){0};
    if (t->R->throws == THROW_DICE) {
        /* two fair four-sided dice: two bits each of one draw */
        uint64_t x = kemet_rng_next(rng);
        out->v[0] = (uint8_t)((x >> 62) + 1);
        out->v[1] = (uint8_t)(((x >> 60) & 3) + 1);
        out->n = 2;
        out->sticks = 2;
    } else {
        for (int i = 0; i < t->nsolid; i++)
            out->v[out->n++] =
                t->b.solid[kemet_rng_below(rng, (uint32_t)t->b.nsolid_faces)];
        for (int i = 0; i < t->ndual; i++) {
            int f = (int)kemet_rng_below(rng, (uint32_t)t->b.ndual_faces);
            if (t->b.dual_p[f] == pos->to) {
                out->only[out->n] = pos->to;
                out->v[out->n++] = t->b.dual_v[f];
            }
        }
        out->sticks = (uint8_t)(t->nsolid + t->ndual);
    }
    kmt_throw_sort(out);
}

static bool face_of(const uint8_t *faces, int n, int v) {
    for (int i = 0; i < n; i++)
        if (faces[i] == v)
            return true;
    return false;
}

static bool track_throw_ok(const kemet_rules *r, const kemet_pos *pos,
                           const kemet_throw *thr) {
    const track *t = T(r);
    if (t->R->throws == THROW_STICKS)
        return thr->n == 1 && thr->v[0] >= 1 && thr->v[0] <= 5 &&
               thr->only[0] == 0;
    if (t->R->throws == THROW_DICE)
        return thr->n == 2 && thr->only[0] == 0 && thr->only[1] == 0 &&
               thr->v[0] >= 1 && thr->v[0] <= 4 && thr->v[1] >= 1 &&
               thr->v[1] <= 4;
    int solid = 0, dual = 0, owner = 0;
    for (int i = 0; i < thr->n; i++) {
        if (thr->only[i] == 0) {
            if (!face_of(t->b.solid, t->b.nsolid_faces, thr->v[i]))
                return false;
            solid++;
        } else {
            bool ok = false;
            for (int f = 0; f < t->b.ndual_faces; f++)
                ok |= t->b.dual_v[f] == thr->v[i] &&
                      t->b.dual_p[f] == thr->only[i];
            if (!ok || (owner && owner != thr->only[i]))
                return false;
            owner = thr->only[i];
            dual++;
        }
    }
    if (pos && owner && owner != pos->to)
        return false;
    return solid == t->nsolid && dual <= t->ndual;
}

/* ---------------------------------------------------------------------------
 * Steps
 * ------------------------------------------------------------------------ */

/* Why a step may not be made (0: it may). */
enum {
    OK,
    NO_PIECE,
    OFF_FIRST,
    MOVED,
    BEYOND,
    OWN,
    SAFE,
    HOME_TAKEN,
    ENTER_TAKEN,
    NO_ENTRY
};

/* The state of a turn in progress. */
typedef struct turn {
    kemet_pos pos;
    uint64_t moved; /* dice: squares of pieces that have moved this turn */
    uint64_t opp;   /* the opponent's pieces, as squares of the mover's path */
    uint8_t left[KEMET_MAX_VALUES]; /* values still to spend */
    int nleft;
} turn;

/* Where the step of piece `s` (KEMET_HAND: a piece off the board) by value
 * v ends, in *f; returns OK or why it may not be made. */
static int step_dest_in(const track *t, const turn *u, uint64_t opp, int s,
                        int v, int *f) {
    const kemet_pos *pos = &u->pos;
    int me = pos->to - 1, o = me ^ 1;
    uint64_t own = pos->sq[me];
    if (s == KEMET_HAND) {
        if (!pos->hand[me])
            return NO_PIECE;
        int d;
        if (t->R->enter == ENTER_HOME_BOX) {
            /* rules 14, 15: the home box hole the value names */
            if (v > NPIECES)
                return NO_ENTRY;
            d = t->homesq[me][v - 1];
        } else {
            /* L&J rule 7: an open space of the Home Row or 6, by exact
             * value from the Duat */
            if (v > t->S || !(t->b.enter & KEMET_BIT(v)))
                return NO_ENTRY;
            d = v;
        }
        *f = d;
        if ((own | opp) & KEMET_BIT(d))
            return t->R->enter == ENTER_HOME_BOX ? HOME_TAKEN : ENTER_TAKEN;
        return OK;
    }
    if (!(own & KEMET_BIT(s)))
        return NO_PIECE;
    if (t->R->off_first && pos->hand[me])
        return OFF_FIRST; /* rule 15 */
    if (u->moved & KEMET_BIT(s))
        return MOVED; /* rule 17 */
    int d = s + v;
    if (d > t->S)
        return BEYOND;
    int e = t->jump[me][d];
    *f = e;
    own &= ~KEMET_BIT(s); /* ruling G6 */
    if (own & KEMET_BIT(e))
        return OWN; /* Washburne 11; L&J 4 */
    if ((opp & KEMET_BIT(e)) && (t->safe[o] & KEMET_BIT(t->other[me][e])))
        return SAFE; /* Washburne 13; L&J 4, 5, 7 */
    return OK;
}

static int step_dest(const track *t, const turn *u, int s, int v, int *f) {
    return step_dest_in(t, u, u->opp, s, v, f);
}

/* Whether player `me`'s home (the opponent's goal) is full. */
static bool home_full(const track *t, const kemet_pos *pos, int me) {
    uint64_t occ = pos->sq[me] | opp_in(t, me, pos->sq[me ^ 1]);
    for (int i = 0; i < NPIECES; i++)
        if (!(occ & KEMET_BIT(t->homesq[me][i])))
            return false;
    return true;
}

/* Makes a legal step (from s to f) in u, with its consequences. */
static void step_make(const track *t, turn *u, int s, int f, int vi,
                      kemet_events *ev) {
    kemet_pos *pos = &u->pos;
    int me = pos->to - 1, o = me ^ 1, who = me + 1;
    int v = u->left[vi];
    u->left[vi] = u->left[--u->nleft];
    if (s == KEMET_HAND) {
        pos->hand[me]--;
        kmt_ev_add(ev, KEMET_EV_ENTER, who, KEMET_HAND, f);
    } else {
        pos->sq[me] &= ~KEMET_BIT(s);
        kmt_ev_add(ev, KEMET_EV_MOVE, who, s, f);
        if (f != s + v)
            kmt_ev_add(ev, t->R->jump_event, who, s + v, f);
    }
    pos->sq[me] |= KEMET_BIT(f);
    if (t->R->throws == THROW_DICE)
        u->moved |= KEMET_BIT(f);
    int q = t->other[me][f];
    if (q && (pos->sq[o] & KEMET_BIT(q))) {
        /* Washburne 12: knocked off; L&J 5: to the Duat */
        pos->sq[o] &= ~KEMET_BIT(q);
        pos->hand[o]++;
        u->opp &= ~KEMET_BIT(f);
        kmt_ev_add(ev, KEMET_EV_KNOCK, o + 1, q, 0);
    }
    if (t->R->full_home_loses) {
        /* Rules 15.7, 16: a player with a piece off the board and the home
         * box full has nowhere to bring it back, and loses (whether the
         * knock-off or the filling came last). */
        int loser = (pos->hand[o] && home_full(t, pos, o))     ? o
                    : (pos->hand[me] && home_full(t, pos, me)) ? me
                                                               : -1;
        if (loser >= 0) {
            pos->result = (uint8_t)(2 - loser);
            kmt_ev_add(ev, KEMET_EV_WIN, 2 - loser, 0, 0);
            return;
        }
    }
    uint64_t in_goal = pos->sq[me] & t->goal[me];
    bool won = t->R->quick
                   ? in_goal != 0                        /* Quick mode */
                   : kmt_popcount64(in_goal) == NPIECES; /* rule 8, 16 */
    if (t->R->duat_win && !pos->sq[o])
        won = true; /* L&J rule 8: all the opponent's plinths in the Duat */
    if (won) {
        pos->result = (uint8_t)who;
        kmt_ev_add(ev, KEMET_EV_WIN, who, 0, 0);
    }
}

/* The legal steps of u: (value index, from, to), one per distinct value
 * and piece. Returns how many. */
typedef struct step {
    uint8_t vi, from, to;
} step;

static int steps_of(const track *t, const turn *u, step *out) {
    int n = 0;
    if (u->pos.result != KEMET_PLAYING || u->nleft == 0)
        return 0;
    int me = u->pos.to - 1;
    uint64_t opp = u->opp;
    uint64_t movers = u->pos.sq[me] & ~u->moved;
    if (t->R->off_first && u->pos.hand[me])
        movers = 0; /* rule 15 */
    for (int i = 0; i < u->nleft; i++) {
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= u->left[j] == u->left[i];
        if (dup)
            continue;
        int v = u->left[i], f;
        if (u->pos.hand[me] && step_dest_in(t, u, opp, KEMET_HAND, v, &f) == OK)
            out[n++] = (step){(uint8_t)i, KEMET_HAND, (uint8_t)f};
            /* The pieces' steps, all at once: step_dest_in's rule, bitwise.
             * Landing by count (no line or river there): not on an own piece
             * nor on an opponent where it is safe. */
#ifdef KEMET_CHECKS
        int n0 = n;
#endif
        uint64_t own = u->pos.sq[me], no_land = own | (opp & t->opp_safe[me]);
        uint64_t d = (movers << v) & t->path;
        uint64_t froms = ((d & ~t->jset[me] & ~no_land) >> v);
        for (uint64_t j = d & t->jset[me]; j; j &= j - 1) {
            /* ending on a line or river: judged where it rests, the
             * square just left counting as empty (G6) */
            int e = t->jump[me][kmt_ctz64(j)], s = kmt_ctz64(j) - v;
            if (!((no_land & ~KEMET_BIT(s)) & KEMET_BIT(e)))
                froms |= KEMET_BIT(s);
        }
        for (; froms; froms &= froms - 1) {
            int s = kmt_ctz64(froms);
            out[n++] = (step){(uint8_t)i, (uint8_t)s, t->jump[me][s + v]};
#ifdef KEMET_CHECKS
            assert(step_dest_in(t, u, opp, s, v, &f) == OK &&
                   f == t->jump[me][s + v]);
#endif
        }
#ifdef KEMET_CHECKS
        int k = 0; /* and nothing step_dest_in allows is missing */
        for (uint64_t b = movers; b; b &= b - 1)
            k += step_dest_in(t, u, opp, kmt_ctz64(b), v, &f) == OK;
        assert(k == n - n0);
#endif
    }
    return n;
}

/* Begins a turn for `thr` on the position already in u->pos. */
static void turn_values(const track *t, const kemet_throw *thr, turn *u) {
    int me = u->pos.to - 1;
    u->moved = 0;
    u->opp = opp_in(t, me, u->pos.sq[me ^ 1]);
    u->nleft = 0;
    for (int i = 0; i < thr->n; i++)
        if (thr->only[i] == 0 || thr->only[i] == u->pos.to)
            u->left[u->nleft++] = thr->v[i];
}

static void turn_begin(const track *t, const kemet_pos *pos,
                       const kemet_throw *thr, turn *u) {
    u->pos = *pos;
    turn_values(t, thr, u);
}

/* The end of a turn: the sticks pass (no rule gives another throw). */
static void turn_end(kemet_pos *pos) {
    pos->to = (uint8_t)(3 - pos->to);
    pos->must = 0;
}

/* ---------------------------------------------------------------------------
 * Complete turns: depth-first over the steps, one entry per distinct
 * outcome (the first step order found), with states already seen pruned.
 * ------------------------------------------------------------------------ */
#define SEEN_SLOTS 1024 /* power of two */

typedef struct walk {
    const track *t;
    kemet_move *out;
    int n, overflow;
    kemet_pos results[KEMET_MAX_MOVES];
    int16_t index[2 * KEMET_MAX_MOVES]; /* open addressing into results */
    struct seen {
        kemet_pos pos;
        uint64_t moved;
        uint64_t left; /* the values left, sorted, one per byte */
        bool used;
    } seen[SEEN_SLOTS];
} walk;

static uint64_t hash_pos(const kemet_pos *p, uint64_t extra) {
    uint64_t h = p->sq[0] * 0x9e3779b97f4a7c15ULL ^ p->sq[1];
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL;
    h ^= (uint64_t)p->hand[0] << 8 ^ (uint64_t)p->hand[1] << 16 ^
         (uint64_t)p->result << 24 ^ extra;
    h = (h ^ (h >> 32)) * 0x94d049bb133111ebULL;
    return h ^ (h >> 29);
}

static uint64_t left_key(const turn *u) {
    uint8_t v[KEMET_MAX_VALUES];
    memcpy(v, u->left, (size_t)u->nleft);
    for (int i = 1; i < u->nleft; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint8_t x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    uint64_t k = 0;
    for (int i = 0; i < u->nleft; i++)
        k = k << 8 | v[i];
    return k;
}

/* Whether this state was seen before (and marks it seen). */
static bool seen_before(walk *w, const turn *u) {
    uint64_t lk = left_key(u);
    uint64_t h = hash_pos(&u->pos, lk * 31 + u->moved);
    for (int probe = 0; probe < 16; probe++) {
        struct seen *s = &w->seen[(h + (uint64_t)probe) & (SEEN_SLOTS - 1)];
        if (!s->used) {
            *s = (struct seen){u->pos, u->moved, lk, true};
            return false;
        }
        if (s->left == lk && s->moved == u->moved &&
            memcmp(&s->pos, &u->pos, sizeof u->pos) == 0)
            return true;
    }
    return false; /* table crowded here: explore again (still correct) */
}

static void add_turn(walk *w, const kemet_move *m, const kemet_pos *res) {
    uint64_t h = hash_pos(res, 0);
    for (uint64_t k = h;; k++) {
        int16_t *slot = &w->index[k & (2 * KEMET_MAX_MOVES - 1)];
        if (*slot < 0) {
            if (w->n == KEMET_MAX_MOVES) {
                w->overflow = 1;
                return;
            }
            *slot = (int16_t)w->n;
            w->results[w->n] = *res;
            w->out[w->n++] = *m;
            return;
        }
        if (memcmp(&w->results[*slot], res, sizeof *res) == 0)
            return;
    }
}

static void dfs(walk *w, const turn *u, kemet_move *m) {
    step st[KEMET_MAX_VALUES * (NPIECES + 1)];
    int n = steps_of(w->t, u, st);
    if (n == 0) {
        add_turn(w, m, &u->pos);
        return;
    }
    if (seen_before(w, u))
        return;
    for (int i = 0; i < n; i++) {
        turn next = *u;
        step_make(w->t, &next, st[i].from, st[i].to, st[i].vi, NULL);
        m->step[m->n++] = (kemet_step){st[i].from, st[i].to};
        dfs(w, &next, m);
        m->n--;
    }
}

static int track_moves(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, kemet_move *out) {
    walk w; /* about 300 KiB of stack; nothing is allocated */
    w.t = T(r);
    w.out = out;
    w.n = 0;
    w.overflow = 0;
    memset(w.index, 0xff, sizeof w.index);
    memset(w.seen, 0, sizeof w.seen);
    turn u;
    turn_begin(T(r), pos, thr, &u);
    kemet_move m = {0};
    dfs(&w, &u, &m); /* no step at all: the lone empty turn, `pass` (G3) */
    return w.overflow ? KEMET_ERANGE : w.n;
}

/* Follows the written steps of `move` from step k on: finds the values
 * that make them legal steps (into vals[k..]) and the state after them
 * (into *end). With `whole`, the steps must also make a complete turn (no
 * value left that could be used); else a beginning of one is enough.
 * False when no choice of values works. One written step can be made with
 * two different values (a river or line can bring two counts to one
 * hole), so this searches; every choice that works gives the same
 * position, since a step's effects depend only on where it starts and
 * rests. */
static bool assign(const track *t, const turn *u, const kemet_move *move, int k,
                   bool whole, uint8_t *vals, turn *end) {
    if (k == move->n) {
        step st[KEMET_MAX_VALUES * (NPIECES + 1)];
        if (whole && steps_of(t, u, st) != 0)
            return false;
        *end = *u;
        return true;
    }
    if (u->pos.result != KEMET_PLAYING)
        return false;
    int s = move->step[k].from, to = move->step[k].to;
    for (int i = 0; i < u->nleft; i++) {
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= u->left[j] == u->left[i];
        int f;
        if (dup || s == KEMET_OFF || step_dest(t, u, s, u->left[i], &f) != OK ||
            f != to)
            continue;
        turn next = *u;
        vals[k] = u->left[i];
        step_make(t, &next, s, f, i, NULL);
        if (assign(t, &next, move, k + 1, whole, vals, end))
            return true;
    }
    return false;
}

static int track_next_steps(const kemet_rules *r, const kemet_pos *pos,
                            const kemet_throw *thr, const kemet_move *done,
                            kemet_move *next, kemet_throw *left) {
    const track *t = T(r);
    turn u, end;
    uint8_t vals[KEMET_MAX_STEPS];
    turn_begin(t, pos, thr, &u);
    if (!assign(t, &u, done, 0, false, vals, &end))
        return KEMET_EILLEGAL;
    if (left) { /* the values left, all the mover's to spend */
        *left = (kemet_throw){0};
        for (int i = 0; i < end.nleft; i++) {
            left->v[left->n] = end.left[i];
            left->only[left->n++] = 0;
        }
        kmt_throw_sort(left);
    }
    step st[KEMET_MAX_VALUES * (NPIECES + 1)];
    int n = steps_of(t, &end, st), m = 0;
    for (int i = 0; i < n; i++) {
        kemet_move one = {1, {{st[i].from, st[i].to}}};
        bool dup = false;
        for (int j = 0; j < m && !dup; j++)
            dup = kemet_move_equal(&next[j], &one);
        if (!dup)
            next[m++] = one;
    }
    return m;
}

static bool track_legal(const kemet_rules *r, const kemet_pos *pos,
                        const kemet_throw *thr, const kemet_move *move) {
    turn u, end;
    uint8_t vals[KEMET_MAX_STEPS];
    turn_begin(T(r), pos, thr, &u);
    return assign(T(r), &u, move, 0, true, vals, &end);
}

static void track_make(const kemet_rules *r, const kemet_pos *pos,
                       const kemet_throw *thr, const kemet_move *move,
                       kemet_pos *out, kemet_events *ev) {
    const track *t = T(r);
    turn u, end;
    uint8_t vals[KEMET_MAX_STEPS];
    turn_begin(T(r), pos, thr, &u);
    if (move->n == 0)
        kmt_ev_add(ev, KEMET_EV_PASS, pos->to, 0, 0);
    bool ok = assign(t, &u, move, 0, true, vals, &end);
    assert(ok); /* the caller passes a legal move */
    if (ok && ev) {
        /* again, step by step, for the events */
        for (int k = 0; k < move->n; k++) {
            int i = 0;
            while (u.left[i] != vals[k])
                i++;
            step_make(t, &u, move->step[k].from, move->step[k].to, i, ev);
        }
        end = u;
    }
    turn_end(&end.pos);
    *out = end.pos;
}

/* Plays the rest of a turn begun in u at random, step by step (each step
 * uniform among the legal steps), recording the steps in *out. */
static void random_steps(const track *t, turn *u, kemet_rng *pick,
                         kemet_move *out) {
    step st[KEMET_MAX_VALUES * (NPIECES + 1)];
    int n;
    out->n = 0;
    while ((n = steps_of(t, u, st)) > 0) {
        int i = n > 1 ? (int)kemet_rng_below(pick, (uint32_t)n) : 0;
        out->step[out->n++] = (kemet_step){st[i].from, st[i].to};
        step_make(t, u, st[i].from, st[i].to, st[i].vi, NULL);
    }
    turn_end(&u->pos);
}

static void track_random_turn(const kemet_rules *r, const kemet_pos *pos,
                              const kemet_throw *thr, kemet_rng *pick,
                              kemet_move *out) {
    turn u;
    turn_begin(T(r), pos, thr, &u);
    random_steps(T(r), &u, pick, out);
}

/* The fast playout: the generic loop's draws (no pre-throw choices here),
 * keeping the position in the turn as it is built instead of making the
 * move again. */
static void track_playout(const kemet_rules *r, kemet_playout_state *st) {
    const track *t = T(r);
    kemet_move m;
    turn u;
    u.pos = st->pos;
    kemet_playout_state L = *st;
    L.pos = u.pos;
    while (kmt_playout_going(&L)) {
        int mover = u.pos.to;
        kemet_throw thr;
        if (L.pending)
            thr = L.thr;
        else
            track_roll(r, &u.pos, L.dice, &thr);
        L.pending = false;
        turn_values(t, &thr, &u);
        random_steps(t, &u, L.pick, &m);
        /* what kmt_playout_going and _count read of the position */
        L.pos.to = u.pos.to;
        L.pos.result = u.pos.result;
        kmt_playout_count(&L, mover);
    }
    L.pos = u.pos;
    *st = L;
}

/* ---------------------------------------------------------------------------
 * Evaluation features of one side (eval.c turns them into a win chance with
 * weights tuned by `kemet tune`): progress along the path, pieces in the
 * goal (the opponent's home box or Home Row), pieces on a safe hole, pieces
 * off the board or in the Duat, and pieces open to capture (not safe, with
 * an opponent's piece at most six of the opponent's squares behind).
 * ------------------------------------------------------------------------ */
static const char *const track_features[] = {"progress", "goal",    "safe",
                                             "hand",     "exposed", NULL};
static const double track_weights[] = {0.04, 0.3, 0.05, -0.3, -0.1};

static void track_side(const kemet_rules *r, const kemet_pos *pos, int p,
                       double *f) {
    const track *t = T(r);
    for (uint64_t b = pos->sq[p]; b; b &= b - 1) {
        int q = kmt_ctz64(b);
        f[0] += q;
        f[1] += (double)((t->goal[p] >> q) & 1);
        if (t->safe[p] & KEMET_BIT(q)) {
            f[2] += 1;
            continue;
        }
        int o = t->other[p][q]; /* the opponent's number of this hole */
        if (o > 1) {
            int lo = o > 6 ? o - 6 : 1;
            uint64_t behind = (KEMET_BIT(o) - 1) & ~(KEMET_BIT(lo) - 1);
            f[4] += (pos->sq[p ^ 1] & behind) != 0;
        }
    }
    f[3] = pos->hand[p];
}

/* ---------------------------------------------------------------------------
 * Explanations
 * ------------------------------------------------------------------------ */
static void say_step(const track *t, int why, int s, int f, char *buf,
                     size_t len) {
    switch (why) {
    case NO_PIECE:
        if (s == KEMET_HAND)
            snprintf(buf, len, "you have no piece %s", t->R->off);
        else
            snprintf(buf, len, "you have no piece on square %d", s);
        break;
    case OFF_FIRST:
        snprintf(buf, len,
                 "a piece of yours is off the board: no other piece moves "
                 "until it is back (rule 15)");
        break;
    case MOVED:
        snprintf(buf, len,
                 "the piece on %d has moved already: each die moves a "
                 "different piece (rule 17)",
                 s);
        break;
    case OWN: snprintf(buf, len, "square %d holds your own piece", f); break;
    case SAFE:
        snprintf(buf, len,
                 "the opponent's piece on square %d is safe there (%s)", f,
                 t->R->safe_words);
        break;
    case HOME_TAKEN:
        snprintf(buf, len,
                 "hole %d of your home box is taken: the throw is lost "
                 "(rule 15)",
                 f);
        break;
    case ENTER_TAKEN:
        snprintf(buf, len,
                 "space %d is not open: a plinth is resurrected "
                 "only onto an open space (rule 7)",
                 f);
        break;
    case NO_ENTRY:
        snprintf(buf, len, "no value left brings a piece back there");
        break;
    default: snprintf(buf, len, "no value left takes the piece there");
    }
}

static void track_explain(const kemet_rules *r, const kemet_pos *pos,
                          const kemet_throw *thr, const kemet_move *move,
                          char *buf, size_t len) {
    const track *t = T(r);
    turn u;
    if (!thr || thr->n == 0) {
        snprintf(buf, len, "nothing may be done before the throw");
        return;
    }
    turn_begin(T(r), pos, thr, &u);
    step st[KEMET_MAX_VALUES * (NPIECES + 1)];
    for (int k = 0; k < move->n; k++) {
        int s = move->step[k].from, f = move->step[k].to;
        int n = steps_of(t, &u, st), i = 0;
        while (i < n && !(st[i].from == s && st[i].to == f))
            i++;
        if (i < n) {
            step_make(t, &u, s, f, st[i].vi, NULL);
            continue;
        }
        /* Why not: the reason of a value that takes the piece there, else
         * of any value for that piece. */
        int why = BEYOND, any = BEYOND, g = 0;
        for (int j = 0; j < u.nleft; j++) {
            int d = 0, y = step_dest(t, &u, s, u.left[j], &d);
            if ((d == f || s == KEMET_HAND) && y != OK) {
                why = y;
                g = d;
            }
            if (y != OK && y != BEYOND)
                any = y;
        }
        if (u.pos.result != KEMET_PLAYING)
            snprintf(buf, len, "the game was won before step %d", k + 1);
        else if (u.nleft == 0)
            snprintf(buf, len, "no value is left for step %d", k + 1);
        else if (why == BEYOND &&
                 (any == NO_PIECE || any == OFF_FIRST || any == MOVED))
            say_step(t, any, s, f, buf, len);
        else if (why == BEYOND) {
            char vals[40] = "";
            size_t at = 0;
            for (int j = 0; j < u.nleft && at < sizeof vals - 4; j++)
                at += (size_t)snprintf(vals + at, sizeof vals - at, "%s%d",
                                       j ? "," : "", u.left[j]);
            if (s == KEMET_HAND)
                snprintf(buf, len, "no value left (%s) brings a piece to %d",
                         vals, f);
            else
                snprintf(buf, len,
                         "no value left (%s) takes the piece on %d "
                         "to %d",
                         vals, s, f);
        } else
            say_step(t, why, s, g ? g : f, buf, len);
        return;
    }
    int n = steps_of(t, &u, st);
    if (n > 0) {
        char m[16];
        kemet_move one = {1, {{st[0].from, st[0].to}}};
        kemet_move_format(&one, m, sizeof m);
        snprintf(buf, len,
                 "a value (%d) can still be used, e.g. %s: all available "
                 "moves must be made",
                 u.left[st[0].vi], m);
    } else {
        snprintf(buf, len, "that is not a legal turn");
    }
}

/* ---------------------------------------------------------------------------
 * The rulesets
 * ------------------------------------------------------------------------ */
static const char washburne_text[] =
    "Hounds & Jackals, Washburne's rules (seed 001, rules 1-16).\n"
    "Each player's five pieces start in their home box (holes 1-5 of their\n"
    "side) and run up their side, through the common hole and down the\n"
    "other side into the opponent's home box. The four sticks give 1-5.\n"
    "A piece moves forward by the throw onto an empty hole or an opponent's\n"
    "piece, which is knocked off the board; pieces on Ankh holes and in\n"
    "either home box are safe. Lines 6-20 and 8-10 are followed both ways.\n"
    "While a piece is off the board no other piece moves: a throw of k\n"
    "brings it back on hole k of its home box, if empty; else the turn is\n"
    "lost. A player whose piece is knocked off while their home box is\n"
    "full loses. Fill the opponent's home box with your five pieces to win.";

static const char washburne_dice_text[] =
    "Hounds & Jackals, Washburne's rules with two four-sided dice (seed 001,\n"
    "rule 17): as the stick game, but each turn throws two dice (1-4) and\n"
    "each die moves (or brings back) a different piece; a die that can be\n"
    "used must be, in the order the player chooses. Moves are written as\n"
    "two steps joined by '+', e.g. 3-5+12-16; a throw as '2,3'.";

static const char lions_text[] =
    "Lions & Jackals (seed 003), Normal mode. Five plinths each start on\n"
    "the player's Home Row; the players run the track in opposite\n"
    "directions towards the opponent's Home Row. Each throw of the sticks\n"
    "gives several values (a dual-coloured stick's value only for the\n"
    "player of its colour). Every value that can be used must be, in any\n"
    "order; several values may move one plinth, value after value. A\n"
    "plinth lands on an open space or on an opponent not on a Sun or in its\n"
    "goal Home Row, which goes to the Duat. A value ending on a river\n"
    "carries the plinth back along it. From the Duat a plinth comes back\n"
    "onto an open space 1-6 by an exact value. Win by placing all five\n"
    "plinths in the opponent's Home Row, or sending all the opponent's to\n"
    "the Duat. Throws are written '1,4,6,2@1' (2@1: a dual value for\n"
    "player 1); turns as steps joined by '+', e.g. 3-5+5-11.";

static const char lions_quick_text[] =
    "Lions & Jackals (seed 003), Quick mode: as Normal mode, but the first\n"
    "player to bring a plinth into the opponent's Home Row wins.";

static const kemet_option lions_options[] = {
    {"solid", 1, MAX_STICKS, 3},
    {"dual", 0, MAX_STICKS - 1, 1},
    {NULL, 0, 0, 0},
};

static int lions_open(kemet_rules *r, const char *text, kemet_error *err) {
    int rc = track_open(r, text, err);
    if (rc)
        return rc;
    const track *t = T(r);
    /* The outcomes of a throw must fit KEMET_MAX_THROWS: distinct solid
     * values, and each player's distinct dual values plus "the other
     * colour". */
    kind k[KEMET_BOARD_FACES + 1];
    int none, nd = 0;
    for (int p = 1; p <= 2; p++) {
        int x =
            kinds_of(t->b.dual_v, t->b.dual_p, t->b.ndual_faces, p, k, &none);
        nd = x > nd ? x : nd;
    }
    long n =
        outcomes(kinds_of(t->b.solid, NULL, t->b.nsolid_faces, 0, k, &none),
                 t->nsolid) *
        outcomes(nd, t->ndual);
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
    .close = track_close, .throw_ok = track_throw_ok, .legal = track_legal,    \
    .random_turn = track_random_turn, .next_steps = track_next_steps,          \
    .start = track_start, .opening = track_opening, .check = track_check,      \
    .throws = track_throws, .roll = track_roll, .max_value = 0,                \
    .prethrow = track_prethrow, .moves = track_moves, .make = track_make,      \
    .playout = track_playout, .side = track_side, .features = track_features,  \
    .weights = track_weights, .explain = track_explain

const kemet_ruleset kmt_washburne = {
    .id = "hounds-jackals-washburne",
    .variant = 0,
    .title = "Hounds & Jackals (Washburne)",
    .source = "seed 001, Washburne's rules 1-16",
    .text = washburne_text,
    .player = {"Hounds", "Jackals"},
    .glyph = {'H', 'J'},
    .gone = NULL,
    .in_hand = "off the board",
    .options = NULL,
    .open = track_open,
    TRACK_COMMON,
};

const kemet_ruleset kmt_washburne_dice = {
    .id = "hounds-jackals-washburne-dice",
    .variant = 1,
    .title = "Hounds & Jackals (Washburne, two dice)",
    .source = "seed 001, Washburne's rules 1-17",
    .text = washburne_dice_text,
    .player = {"Hounds", "Jackals"},
    .glyph = {'H', 'J'},
    .gone = NULL,
    .in_hand = "off the board",
    .options = NULL,
    .open = track_open,
    TRACK_COMMON,
};

const kemet_ruleset kmt_lions_jackals = {
    .id = "lions-jackals",
    .variant = 2,
    .title = "Lions & Jackals (Normal mode)",
    .source = "seed 003, rules 1-8, Normal mode, Options",
    .text = lions_text,
    .player = {"Lions", "Jackals"},
    .glyph = {'L', 'J'},
    .gone = NULL,
    .in_hand = "in the Duat",
    .options = lions_options,
    .open = lions_open,
    TRACK_COMMON,
};

const kemet_ruleset kmt_lions_jackals_quick = {
    .id = "lions-jackals-quick",
    .variant = 3,
    .title = "Lions & Jackals (Quick mode)",
    .source = "seed 003, rules 1-8, Quick mode, Options",
    .text = lions_quick_text,
    .player = {"Lions", "Jackals"},
    .glyph = {'L', 'J'},
    .gone = NULL,
    .in_hand = "in the Duat",
    .options = lions_options,
    .open = lions_open,
    TRACK_COMMON,
};
