/* parts.c - the senet family's parts: reading them from a ruleset file,
 * refusing the combinations that cannot work, and choosing the generator
 * (docs/rulesets.md, "Family senet"; the interactions' rulings SP1-SP14
 * in docs/rules/senet-parts.md).
 *
 * Every part is read on its own into one kmt_senet; the checks that
 * involve two parts come after, each with the reason a player would give.
 * Then the parts choose the generator: where they are exactly one of the
 * published readings' (Kendall's with any of his options and Robinson's
 * rethrow, Bell's, Jéquier's, Piccione's), that reading's fast generator
 * plays them; every other set plays on the general one (generic.c).
 * Both give the same games for the same parts (tests/test_parts.c).
 */
#include "senet.h"

#include <stdio.h>
#include <stdlib.h>

/* A problem with part p: "rules file line N: why" (printf-style). */
static int refuse(const kmt_part *p, kemet_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int refuse(const kmt_part *p, kemet_error *err, const char *fmt, ...) {
    char why[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return kmt_rf_refuse(p, why, err);
}

static bool word_is(const kmt_part *p, int i, const char *w) {
    return i < p->argc && strcmp(p->argv[i], w) == 0;
}

/* A square 1-30 in word i of p. */
static int square_at(const kmt_part *p, int i, int *out, kemet_error *err) {
    int v;
    const char *w = p->argv[i];
    if (kmt_read_num(w, strlen(w), &v) < 0 || v < 1 || v > SN_SQUARES)
        return refuse(p, err, "'%.12s' is not a square 1-30", w);
    *out = v;
    return KEMET_OK;
}

/* The squares in words [*i, end of p) up to the first word that is not a
 * number, into *out; each once. At least one. */
static int squares_from(const kmt_part *p, int *i, uint64_t *out,
                        kemet_error *err) {
    *out = 0;
    int n = 0;
    for (; *i < p->argc; (*i)++) {
        const char *w = p->argv[*i];
        if (w[0] < '0' || w[0] > '9')
            break;
        int s = 0, rc = square_at(p, *i, &s, err);
        if (rc)
            return rc;
        if (*out & KMT_BIT(s))
            return refuse(p, err, "square %d is listed twice", s);
        *out |= KMT_BIT(s);
        n++;
    }
    if (!n)
        return refuse(p, err, "'%s' needs a list of squares", p->argv[*i - 1]);
    return KEMET_OK;
}

/* A comma-separated list of squares, or '-' for none. */
static int square_list(const kmt_part *p, const char *w, uint64_t *out,
                       kemet_error *err) {
    *out = 0;
    if (strcmp(w, "-") == 0)
        return KEMET_OK;
    while (*w) {
        size_t len = strcspn(w, ",");
        int s;
        if (kmt_read_num(w, len, &s) < 0 || s < 1 || s > SN_SQUARES)
            return refuse(p, err, "'%.*s' is not a square 1-30",
                          (int)(len > 12 ? 12 : len), w);
        if (*out & KMT_BIT(s))
            return refuse(p, err, "square %d is listed twice", s);
        *out |= KMT_BIT(s);
        w += len;
        if (*w == ',') {
            w++;
            if (!*w)
                return refuse(p, err, "a list of squares ends with a comma");
        }
    }
    return KEMET_OK;
}

/* The part `name` (NULL when absent); refuses it without words. */
static kmt_part *part(kmt_rulefile *f, const char *name) {
    return kmt_rf_part(f, name);
}

static int missing(const char *name, const char *forms, kemet_error *err) {
    return kmt_fail(err, KEMET_ESYNTAX,
                    "rules file: missing statement '%s' (senet: %s)", name,
                    forms);
}

/* ---------------------------------------------------------------------------
 * The parts, one at a time
 * ------------------------------------------------------------------------ */

static int read_track(kmt_rulefile *f, kemet_error *err) {
    kmt_part *p = part(f, "track");
    if (!p)
        return missing("track", "'track 30 boustrophedon'", err);
    if (p->argc != 3 || !word_is(p, 1, "30") || !word_is(p, 2, "boustrophedon"))
        return refuse(p, err,
                      "the senet family's track is 'track 30 boustrophedon' "
                      "(rule 1, K1)");
    return KEMET_OK;
}

static int read_pieces(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "pieces");
    if (!p)
        return missing("pieces", "'pieces N', 1-10", err);
    int v;
    if (p->argc != 2 || kmt_read_num(p->argv[1], strlen(p->argv[1]), &v) < 0 ||
        v < 1 || v > SN_MAX_PIECES)
        return refuse(p, err, "write 'pieces N', N from 1 to %d",
                      SN_MAX_PIECES);
    sn->pieces = v;
    return KEMET_OK;
}

static int read_setup(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "setup");
    if (!p)
        return missing("setup", "'alternate', 'in-hand' or 'squares P1 P2'",
                       err);
    int rc;
    if (p->argc == 2 && word_is(p, 1, "alternate")) {
        /* player 1 on 1, 3, ...; player 2 on 2, 4, ... */
        for (int s = 1; s <= 2 * sn->pieces; s++)
            sn->setup[(s & 1) ? 0 : 1] |= KMT_BIT(s);
        return KEMET_OK;
    }
    if (p->argc == 2 && word_is(p, 1, "in-hand"))
        return KEMET_OK;
    if (p->argc == 4 && word_is(p, 1, "squares")) {
        for (int k = 0; k < 2; k++)
            if ((rc = square_list(p, p->argv[2 + k], &sn->setup[k], err)))
                return rc;
        for (int k = 0; k < 2; k++)
            if (kmt_popcount64(sn->setup[k]) > sn->pieces)
                return refuse(p, err,
                              "player %d is given %d squares for %d pieces",
                              k + 1, kmt_popcount64(sn->setup[k]), sn->pieces);
        if (sn->setup[0] & sn->setup[1])
            return refuse(p, err, "square %d is given to both players",
                          kmt_ctz64(sn->setup[0] & sn->setup[1]));
        return KEMET_OK;
    }
    return refuse(p, err,
                  "write 'setup alternate', 'setup in-hand' or 'setup squares "
                  "1,3,5 2,4,6' (player 1's squares, then player 2's; '-' "
                  "for none; the pieces not placed start in hand)");
}

static int read_first(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    static const char *const forms[] = {"player-1", "higher-throw",
                                        "one-takes-black", NULL};
    int k, rc;
    if ((rc = kmt_rf_choice(f, "first", forms, -1, &k, err)))
        return rc;
    sn->first = (enum sn_first)k;
    return KEMET_OK;
}

/* The throw: its values, their weights and the device's draw. */
static int read_throw(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "throw");
    if (!p)
        return missing("throw", "'sticks N blank=V' or 'die N'", err);
    int n, v;
    if (p->argc == 3 && word_is(p, 1, "die") &&
        kmt_read_num(p->argv[2], strlen(p->argv[2]), &n) == 0 && n >= 2 &&
        n <= SN_MAX_VALUE) {
        sn->die = n;
        for (int i = 1; i <= n; i++) {
            sn->value[sn->nvalues] = (uint8_t)i;
            sn->weight[sn->nvalues++] = 1;
        }
        sn->total = (kemet_weight)n;
    } else if (p->argc == 4 && word_is(p, 1, "sticks") &&
               kmt_read_num(p->argv[2], strlen(p->argv[2]), &n) == 0 &&
               n >= 2 && n < SN_MAX_VALUE &&
               strncmp(p->argv[3], "blank=", 6) == 0 &&
               kmt_read_num(p->argv[3] + 6, strlen(p->argv[3] + 6), &v) == 0 &&
               v > n && v <= SN_MAX_VALUE) {
        /* n sticks: the number of marked sides up, v when none is (G2) */
        sn->nsticks = n;
        sn->blank = v;
        kemet_weight c = 1;
        for (int i = 1; i <= n; i++) {
            c = c * (kemet_weight)(n - i + 1) / (kemet_weight)i;
            sn->value[sn->nvalues] = (uint8_t)i;
            sn->weight[sn->nvalues++] = c;
        }
        sn->value[sn->nvalues] = (uint8_t)v;
        sn->weight[sn->nvalues++] = 1;
        sn->total = (kemet_weight)1 << n;
    } else {
        return refuse(p, err,
                      "write 'throw sticks N blank=V' (N sticks, 2-5, V the "
                      "value when no marked side is up, N+1 to 6) or 'throw "
                      "die N' (2-6 faces)");
    }
    for (int i = 0; i < sn->nvalues; i++) {
        sn->values |= 1u << sn->value[i];
        if (sn->value[i] > sn->maxv)
            sn->maxv = sn->value[i];
    }
    return KEMET_OK;
}

/* A throw value of the device in word i of p. */
static int value_at(const kmt_part *p, int i, const kmt_senet *sn, int *out,
                    kemet_error *err) {
    int v;
    const char *w = p->argv[i];
    if (kmt_read_num(w, strlen(w), &v) < 0 || v < 1 || v > SN_MAX_VALUE ||
        !(sn->values & (1u << v)))
        return refuse(p, err, "'%.12s' is not a value the throw can have", w);
    *out = v;
    return KEMET_OK;
}

static int read_wait(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "wait");
    if (!p)
        return KEMET_OK;
    if (p->argc != 2)
        return refuse(p, err,
                      "write 'wait V': each player waits for a first throw "
                      "of V");
    return value_at(p, 1, sn, &sn->wait, err);
}

/* again [V ...] [enter] [on SQUARE ...] | again none */
static int read_again(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "again");
    if (!p || (p->argc == 2 && word_is(p, 1, "none")))
        return KEMET_OK;
    if (p->argc < 2)
        return refuse(p, err,
                      "write 'again' with throw values, 'enter' and 'on' "
                      "squares, or 'again none'");
    int i = 1, rc;
    for (; i < p->argc && p->argv[i][0] >= '0' && p->argv[i][0] <= '9'; i++) {
        int v = 0;
        if ((rc = value_at(p, i, sn, &v, err)))
            return rc;
        if (sn->again_throw & (1u << v))
            return refuse(p, err, "the value %d is listed twice", v);
        sn->again_throw |= 1u << v;
    }
    if (word_is(p, i, "enter")) {
        sn->again_enter = true;
        i++;
    }
    if (word_is(p, i, "on")) {
        i++;
        if ((rc = squares_from(p, &i, &sn->again_on, err)))
            return rc;
    }
    if (i < p->argc)
        return refuse(p, err,
                      "'%.20s': write 'again V ... [enter] [on SQUARE ...]' "
                      "(throw values, an entry, the squares a count ends on)",
                      p->argv[i]);
    return KEMET_OK;
}

/* protect [pairs] [safe SQUARE ...] [marked SQUARE ...] | protect none */
static int read_protect(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "protect");
    if (!p || (p->argc == 2 && word_is(p, 1, "none")))
        return KEMET_OK;
    int i = 1, rc;
    if (word_is(p, i, "pairs")) {
        sn->pairs = true;
        i++;
    }
    if (word_is(p, i, "safe")) {
        i++;
        uint64_t s;
        if ((rc = squares_from(p, &i, &s, err)))
            return rc;
        sn->safe |= s;
    }
    if (word_is(p, i, "marked")) {
        i++;
        if ((rc = squares_from(p, &i, &sn->marked, err)))
            return rc;
        if (sn->marked & sn->safe)
            return refuse(p, err, "square %d is both safe and marked",
                          kmt_ctz64(sn->marked & sn->safe));
        sn->safe |= sn->marked;
    }
    if (i < p->argc || i == 1)
        return refuse(p, err,
                      "write 'protect' with 'pairs', 'safe SQUARE ...' and "
                      "'marked SQUARE ...' in that order, or 'protect none'");
    return KEMET_OK;
}

static int read_flags(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    static const struct {
        const char *name, *words;
        size_t off;
    } flag[] = {
        {"block", "three", offsetof(kmt_senet, block3)},
        {"lock", "start-row", offsetof(kmt_senet, lock)},
        {"vacate", "marked", offsetof(kmt_senet, vacate)},
        {"split", "different-pieces whole", offsetof(kmt_senet, split)},
    };
    for (size_t k = 0; k < sizeof flag / sizeof flag[0]; k++) {
        kmt_part *p = part(f, flag[k].name);
        if (!p)
            continue;
        char got[80] = "";
        size_t at = 0;
        for (int i = 1; i < p->argc && at < sizeof got; i++)
            at += (size_t)snprintf(got + at, sizeof got - at, "%s%s",
                                   i > 1 ? " " : "", p->argv[i]);
        if (strcmp(got, flag[k].words) != 0)
            return refuse(p, err, "write '%s %s'", flag[k].name, flag[k].words);
        *(bool *)((char *)sn + flag[k].off) = true;
    }
    kmt_part *p = part(f, "trap");
    if (p && p->argc != 1)
        return refuse(p, err, "'trap' takes no words");
    sn->trap = p != NULL;
    return KEMET_OK;
}

static int read_capture(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    static const char *const forms[] = {"swap", "remove", "first-empty", "none",
                                        NULL};
    int k, rc;
    if ((rc = kmt_rf_choice(f, "capture", forms, -1, &k, err)))
        return rc;
    sn->capture = (enum sn_capture)k;
    return KEMET_OK;
}

static int read_enter(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "enter");
    if (!p)
        return KEMET_OK;
    if (p->argc == 2 && word_is(p, 1, "1"))
        sn->enter = SN_ENTER_ONE;
    else if (p->argc == 3 && word_is(p, 1, "1") && word_is(p, 2, "must-move"))
        sn->enter = SN_ENTER_MUST;
    else
        return refuse(p, err, "write 'enter 1' or 'enter 1 must-move'");
    if (!(sn->values & 2u))
        return refuse(p, err, "the throw has no 1 to enter with");
    return KEMET_OK;
}

/* backward never | backward when-stuck [empty] [not-from SQ ...]
 * [to-water SQ ...] */
static int read_backward(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "backward");
    if (!p || (p->argc == 2 && word_is(p, 1, "never")))
        return KEMET_OK;
    if (!word_is(p, 1, "when-stuck"))
        return refuse(p, err,
                      "write 'backward never' or 'backward when-stuck "
                      "[empty] [not-from SQUARE ...] [to-water SQUARE ...]'");
    sn->backward = true;
    int i = 2, rc;
    if (word_is(p, i, "empty")) {
        sn->back_empty = true;
        i++;
    }
    if (word_is(p, i, "not-from")) {
        i++;
        if ((rc = squares_from(p, &i, &sn->back_not, err)))
            return rc;
    }
    if (word_is(p, i, "to-water")) {
        i++;
        if ((rc = squares_from(p, &i, &sn->back_water, err)))
            return rc;
    }
    if (i < p->argc)
        return refuse(p, err,
                      "'%.20s': write 'backward when-stuck [empty] [not-from "
                      "SQUARE ...] [to-water SQUARE ...]', in that order",
                      p->argv[i]);
    if (sn->back_not & sn->back_water)
        return refuse(p, err, "square %d is both 'not-from' and 'to-water'",
                      kmt_ctz64(sn->back_not & sn->back_water));
    return KEMET_OK;
}

static int read_stop(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "stop");
    if (!p)
        return KEMET_OK;
    if (p->argc != 2)
        return refuse(p, err, "write 'stop S': every piece stops on square S");
    int rc = square_at(p, 1, &sn->stop, err);
    if (!rc && (sn->stop < 2 || sn->stop > SN_SQUARES - 1))
        rc = refuse(p, err, "the stop square is one of 2-29");
    return rc;
}

/* water none | water W R | water W first-empty | water W hand */
static int read_water(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "water");
    if (!p || (p->argc == 2 && word_is(p, 1, "none")))
        return KEMET_OK;
    int rc;
    if (p->argc != 3)
        return refuse(p, err,
                      "write 'water W R' (a piece stays in the water on W and "
                      "may be moved to R), 'water W first-empty', 'water W "
                      "hand' or 'water none'");
    if ((rc = square_at(p, 1, &sn->water, err)))
        return rc;
    if (sn->water < 2)
        return refuse(p, err, "the water is one of squares 2-30");
    if (word_is(p, 2, "first-empty"))
        sn->water_kind = SN_WATER_FIRST_EMPTY;
    else if (word_is(p, 2, "hand"))
        sn->water_kind = SN_WATER_HAND;
    else if ((rc = square_at(p, 2, &sn->rescue, err)))
        return rc;
    else if (sn->rescue == sn->water)
        return refuse(p, err,
                      "a piece is rescued from the water to another "
                      "square");
    else
        sn->water_kind = SN_WATER_STAY;
    return KEMET_OK;
}

/* bear-off exact | bear-off any | bear-off S:C ... (C a value or 'any') */
static int read_bear_off(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "bear-off");
    if (!p)
        return missing("bear-off", "'exact', 'any' or 'S:C ...'", err);
    if (p->argc == 2 && word_is(p, 1, "exact"))
        sn->off = SN_OFF_EXACT;
    else if (p->argc == 2 && word_is(p, 1, "any"))
        sn->off = SN_OFF_ANY;
    else if (p->argc >= 2) {
        sn->off = SN_OFF_SQUARES;
        for (int i = 1; i < p->argc; i++) {
            const char *w = p->argv[i], *colon = strchr(w, ':');
            int s, v;
            if (!colon || kmt_read_num(w, (size_t)(colon - w), &s) < 0 ||
                s < 1 || s > SN_SQUARES)
                return refuse(p, err,
                              "'%.12s': write SQUARE:COUNT (26:5), or "
                              "SQUARE:any",
                              w);
            if (sn->off_count[s])
                return refuse(p, err, "square %d is listed twice", s);
            if (strcmp(colon + 1, "any") == 0) {
                sn->off_count[s] = (uint8_t)(sn->values & 0xfe);
            } else if (kmt_read_num(colon + 1, strlen(colon + 1), &v) < 0 ||
                       v < 1 || v > SN_MAX_VALUE || !(sn->values & (1u << v))) {
                return refuse(p, err,
                              "'%.12s': the throw has no %.6s to bear off "
                              "with",
                              w, colon + 1);
            } else {
                sn->off_count[s] = (uint8_t)(1u << v);
            }
        }
    } else {
        return refuse(p, err,
                      "write 'bear-off exact', 'bear-off any' or the squares "
                      "and counts that bear off: 'bear-off 26:5 27:4 28:3 "
                      "29:2 30:any'");
    }
    kmt_part *w = part(f, "bear-off-when");
    for (int i = 1; w && i < w->argc; i++) {
        if (word_is(w, i, "last-row") && !sn->off_last_row)
            sn->off_last_row = true;
        else if (word_is(w, i, "start-row-clear") && !sn->off_row1_clear)
            sn->off_row1_clear = true;
        else
            return refuse(w, err,
                          "write 'bear-off-when' and 'last-row' (every piece "
                          "on 21-30), 'start-row-clear' (no piece on 1-10) or "
                          "both");
    }
    if (w && w->argc < 2)
        return refuse(w, err, "'bear-off-when' needs a condition");
    return KEMET_OK;
}

static int read_rethrow(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    kmt_part *p = part(f, "rethrow");
    if (!p || (p->argc == 2 && word_is(p, 1, "none")))
        return KEMET_OK;
    int i = 1, rc = squares_from(p, &i, &sn->rethrow, err);
    if (!rc && i < p->argc)
        rc = refuse(p, err, "write 'rethrow SQUARE ...' or 'rethrow none'");
    return rc;
}

static int read_end(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    static const char *const forms[] = {"first-off", "score", "points", NULL};
    int k, rc;
    if ((rc = kmt_rf_choice(f, "end", forms, 0, &k, err)))
        return rc;
    sn->end = (enum sn_end)k;
    return KEMET_OK;
}

/* ---------------------------------------------------------------------------
 * The parts together: what cannot work is refused with its reason
 * ------------------------------------------------------------------------ */

/* The line of part `name` for a message (NULL: the file). */
static const kmt_part *line_of(kmt_rulefile *f, const char *name) {
    for (int i = 0; i < f->nparts; i++)
        if (!f->part[i].off && strcmp(f->part[i].argv[0], name) == 0)
            return &f->part[i];
    return NULL;
}

static int check_together(kmt_rulefile *f, kmt_senet *sn, kemet_error *err) {
    uint64_t start = sn->setup[0] | sn->setup[1];
    bool hand_at_start = kmt_popcount64(sn->setup[0]) < sn->pieces ||
                         kmt_popcount64(sn->setup[1]) < sn->pieces;
    /* pieces in hand need a way onto the board, and entering needs pieces
       that can be in hand (SP1) */
    if ((hand_at_start || sn->water_kind == SN_WATER_HAND) &&
        sn->enter == SN_ENTER_NONE)
        return refuse(line_of(f, hand_at_start ? "setup" : "water"), err,
                      "pieces %s hand but no part enters them: add 'enter 1'",
                      hand_at_start ? "start in" : "go back to");
    if (sn->enter != SN_ENTER_NONE && !hand_at_start &&
        sn->water_kind != SN_WATER_HAND)
        return refuse(line_of(f, "enter"), err,
                      "no piece is ever in hand, so none enters: 'enter' "
                      "needs pieces that start in hand or go back to it");
    if (sn->enter == SN_ENTER_MUST && !sn->again_enter)
        return refuse(line_of(f, "enter"), err,
                      "the entered piece must move with the next throw, "
                      "which is the same player's only with 'again ... "
                      "enter'");
    if (sn->water && (start & KMT_BIT(sn->water)) &&
        sn->water_kind != SN_WATER_STAY)
        return refuse(line_of(f, "setup"), err,
                      "no piece stays on the water (square %d), so none "
                      "starts there",
                      sn->water);
    if (sn->first == SN_FIRST_ONE_BLACK) {
        /* JQ1: black has played its first 1 with its front piece */
        int front = sn->setup[1] ? 63 - __builtin_clzll(sn->setup[1]) : 0;
        if (!front || front == SN_SQUARES || (start & KMT_BIT(front + 1)) ||
            (sn->water == front + 1 && sn->water_kind != SN_WATER_STAY) ||
            !(sn->values & 2u))
            return refuse(line_of(f, "first"), err,
                          "'first one-takes-black' plays black's opening 1 "
                          "with its front piece: black needs a piece on the "
                          "board with an empty square after it, and the "
                          "throw a 1");
    }
    /* protection and the hits it stops */
    if (sn->capture == SN_CAP_NONE && (sn->pairs || (sn->safe & ~sn->marked)))
        return refuse(line_of(f, "protect"), err,
                      "with 'capture none' nothing is hit, so nothing is "
                      "protected: write 'protect none'%s",
                      sn->marked ? " or only the marked squares" : "");
    if (sn->capture == SN_CAP_NONE && sn->marked && !sn->vacate)
        return refuse(line_of(f, "protect"), err,
                      "with 'capture none' the marked squares protect "
                      "nothing; they mean something only with 'vacate "
                      "marked'");
    if (sn->vacate && !sn->marked)
        return refuse(line_of(f, "vacate"), err,
                      "'vacate marked' needs marked squares: 'protect ... "
                      "marked SQUARE ...'");
    if (sn->backward && sn->back_empty && sn->capture == SN_CAP_NONE)
        return refuse(line_of(f, "backward"), err,
                      "with 'capture none' every move ends on an empty "
                      "square: drop 'empty'");
    /* the water and what leads into it */
    if (sn->back_water && !sn->water)
        return refuse(line_of(f, "backward"), err,
                      "'to-water' needs the water: 'water W ...'");
    if (sn->back_water & KMT_BIT(sn->water))
        return refuse(line_of(f, "backward"), err,
                      "the water's own square cannot move 'to-water'");
    if (sn->trap && !(sn->stop && sn->water == sn->stop + 1))
        return refuse(line_of(f, "trap"), err,
                      "'trap' drops a count that passes the stop square into "
                      "the water just after it: it needs 'stop S' and 'water "
                      "S+1 ...'");
    if (sn->water_kind == SN_WATER_STAY && sn->rescue == sn->stop)
        return refuse(line_of(f, "water"), err,
                      "a piece cannot be rescued onto the stop square");
    /* bearing off */
    if (sn->off == SN_OFF_SQUARES) {
        if (sn->water && sn->off_count[sn->water] &&
            sn->water_kind != SN_WATER_STAY)
            return refuse(line_of(f, "bear-off"), err,
                          "no piece stays on the water (square %d), so none "
                          "bears off from it",
                          sn->water);
        for (int s = 1; s <= SN_SQUARES; s++)
            if (sn->off_count[s] && s != sn->stop)
                sn->houses |= KMT_BIT(s);
        if (!sn->houses && !sn->off_count[sn->stop])
            return refuse(line_of(f, "bear-off"), err, "no square bears off");
    }
    /* rethrows */
    if (sn->rethrow && sn->water_kind == SN_WATER_STAY &&
        (sn->rethrow & KMT_BIT(sn->water)))
        return refuse(line_of(f, "rethrow"), err,
                      "a piece landing in the water ends the turn: the water "
                      "cannot rethrow");
    if (sn->rethrow && sn->water_kind != SN_WATER_STAY && sn->water &&
        (sn->rethrow & KMT_BIT(sn->water)))
        return refuse(line_of(f, "rethrow"), err,
                      "no piece stays on the water: it cannot rethrow");
    if (sn->enter == SN_ENTER_MUST && (sn->rethrow & KMT_BIT(1)))
        return refuse(line_of(f, "rethrow"), err,
                      "square 1 is where an entered piece must move from: it "
                      "cannot also rethrow");
    if (sn->again_on && sn->water && (sn->again_on & KMT_BIT(sn->water)) &&
        sn->water_kind == SN_WATER_STAY)
        return refuse(line_of(f, "again"), err,
                      "a piece landing in the water ends the turn: the water "
                      "gives no other throw");
    return KEMET_OK;
}

/* ---------------------------------------------------------------------------
 * The published readings' generators, where the parts are theirs
 * ------------------------------------------------------------------------ */

/* The parts that every reading leaves at "none", to compare at once. */
static bool plain_except(const kmt_senet *sn, const kmt_senet *want) {
    return sn->pairs == want->pairs && sn->safe == want->safe &&
           sn->marked == want->marked && sn->block3 == want->block3 &&
           sn->capture == want->capture && sn->lock == want->lock &&
           sn->vacate == want->vacate && sn->enter == want->enter &&
           sn->split == want->split && sn->backward == want->backward &&
           sn->back_empty == want->back_empty &&
           sn->back_not == want->back_not &&
           sn->back_water == want->back_water && sn->water == want->water &&
           sn->water_kind == want->water_kind && sn->rescue == want->rescue &&
           sn->off == want->off &&
           memcmp(sn->off_count, want->off_count, sizeof sn->off_count) == 0 &&
           sn->off_last_row == want->off_last_row && sn->end == want->end &&
           sn->again_throw == want->again_throw &&
           sn->again_enter == want->again_enter &&
           sn->again_on == want->again_on && sn->first == want->first &&
           sn->nsticks == want->nsticks && sn->blank == want->blank &&
           sn->die == want->die;
}

static uint64_t alternate(int pieces, int side) {
    uint64_t m = 0;
    for (int s = 1; s <= 2 * pieces; s++)
        if ((s & 1) != side)
            m |= KMT_BIT(s);
    return m;
}

static enum sn_engine choose(kmt_senet *sn) {
    /* Kendall (rules 1-14, K1-K10), his options KO2-KO5 and Robinson's
       rethrow */
    kmt_senet k = {.first = SN_FIRST_P1,
                   .nsticks = 4,
                   .blank = 5,
                   .again_throw = 1u << 1 | 1u << 4 | 1u << 5,
                   .pairs = true,
                   .capture = SN_CAP_SWAP,
                   .backward = true,
                   .back_water = KMT_BIT(28) | KMT_BIT(29) | KMT_BIT(30),
                   .water = 27,
                   .water_kind = SN_WATER_STAY,
                   .rescue = 15,
                   .off = SN_OFF_SQUARES,
                   .end = SN_END_FIRST_OFF};
    k.off_count[26] = 1u << 5;
    k.off_count[27] = 1u << 4;
    k.off_count[28] = 1u << 3;
    k.off_count[29] = 1u << 2;
    k.off_count[30] = 0x3e;
    if (plain_except(sn, &k) && sn->stop == 26 &&
        (sn->pieces == 7 || sn->pieces == 5) &&
        sn->setup[0] == alternate(sn->pieces, 0) &&
        sn->setup[1] == alternate(sn->pieces, 1) &&
        (sn->wait == 0 || sn->wait == 1) &&
        (sn->rethrow == 0 || sn->rethrow == KMT_BIT(26))) {
        sn->kendall_flags = (sn->rethrow ? KMT_KENDALL_ROBINSON : 0) |
                            (sn->pieces == 5 ? KMT_KENDALL_FIVE : 0) |
                            (sn->wait ? KMT_KENDALL_START : 0) |
                            (sn->trap ? KMT_KENDALL_TRAP : 0) |
                            (sn->off_row1_clear ? KMT_KENDALL_HOMEROW : 0);
        return SN_KENDALL;
    }
    if (sn->wait || sn->trap || sn->off_row1_clear || sn->rethrow || sn->stop)
        return SN_GENERIC;
    /* Bell (reconstructions §1, BL1-BL8) */
    kmt_senet b = {
        .first = SN_FIRST_HIGHER,
        .die = 4,
        .safe = KMT_BIT(26) | KMT_BIT(27) | KMT_BIT(28) | KMT_BIT(29),
        .marked = KMT_BIT(26) | KMT_BIT(27) | KMT_BIT(28) | KMT_BIT(29),
        .capture = SN_CAP_REMOVE,
        .vacate = true,
        .off = SN_OFF_EXACT,
        .end = SN_END_SCORE};
    if (plain_except(sn, &b) && sn->pieces == 10 &&
        sn->setup[0] == alternate(10, 0) && sn->setup[1] == alternate(10, 1))
        return SN_BELL;
    /* Jéquier (reconstructions §3, JQ1-JQ11) */
    kmt_senet j = {.first = SN_FIRST_ONE_BLACK,
                   .nsticks = 4,
                   .blank = 6,
                   .again_throw = 1u << 1 | 1u << 4 | 1u << 6,
                   .pairs = true,
                   .safe =
                       KMT_BIT(20) | KMT_BIT(26) | KMT_BIT(28) | KMT_BIT(29),
                   .block3 = true,
                   .capture = SN_CAP_FIRST_EMPTY,
                   .lock = true,
                   .backward = true,
                   .back_empty = true,
                   .water = 27,
                   .water_kind = SN_WATER_FIRST_EMPTY,
                   .off = SN_OFF_ANY,
                   .off_last_row = true,
                   .end = SN_END_POINTS};
    if (plain_except(sn, &j) && sn->pieces == 5 &&
        sn->setup[0] == alternate(5, 0) && sn->setup[1] == alternate(5, 1))
        return SN_JEQUIER;
    /* Piccione (reconstructions §2, PC1-PC12) */
    kmt_senet p = {.first = SN_FIRST_P1,
                   .nsticks = 4,
                   .blank = 5,
                   .again_throw = 1u << 5,
                   .again_enter = true,
                   .again_on = KMT_BIT(15) | KMT_BIT(26),
                   .capture = SN_CAP_NONE,
                   .enter = SN_ENTER_MUST,
                   .split = true,
                   .backward = true,
                   .back_not = KMT_BIT(28) | KMT_BIT(29) | KMT_BIT(30),
                   .water = 27,
                   .water_kind = SN_WATER_HAND,
                   .off = SN_OFF_EXACT,
                   .end = SN_END_FIRST_OFF};
    if (plain_except(sn, &p) && sn->pieces == 5 && !sn->setup[0] &&
        !sn->setup[1])
        return SN_PICCIONE;
    return SN_GENERIC;
}

/* ---------------------------------------------------------------------------
 * The family
 * ------------------------------------------------------------------------ */

static int senet_configure(kemet_rules *r, kmt_rulefile *f, kemet_error *err) {
    if (f->board)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "rules file: the senet family's board is built in "
                        "(no 'board')");
    kmt_senet *sn = calloc(1, sizeof *sn);
    if (!sn)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    r->params = sn;
    int rc;
    if ((rc = read_track(f, err)) || (rc = read_pieces(f, sn, err)) ||
        (rc = read_setup(f, sn, err)) || (rc = read_first(f, sn, err)) ||
        (rc = read_throw(f, sn, err)) || (rc = read_wait(f, sn, err)) ||
        (rc = read_again(f, sn, err)) || (rc = read_protect(f, sn, err)) ||
        (rc = read_flags(f, sn, err)) || (rc = read_capture(f, sn, err)) ||
        (rc = read_enter(f, sn, err)) || (rc = read_backward(f, sn, err)) ||
        (rc = read_stop(f, sn, err)) || (rc = read_water(f, sn, err)) ||
        (rc = read_bear_off(f, sn, err)) || (rc = read_rethrow(f, sn, err)) ||
        (rc = read_end(f, sn, err)) || (rc = check_together(f, sn, err)))
        return rc;
    /* the evaluation's features: a published reading's where the parts
       are its, or where a change of it is judged by its evaluation */
    sn->features = choose(sn);
    if (r->like && strcmp(r->like->file.family, "senet") == 0) {
        const kmt_senet *b = kmt_senet_of(r->like);
        sn->features = b->engine == SN_GENERIC ? b->features : b->engine;
    }
    sn->engine = r->generic ? SN_GENERIC : choose(sn);
    kmt_ruleset *rs = &r->own;
    rs->pieces = sn->pieces;
    r->waits = sn->wait != 0; /* positions may list wait= */
    switch (sn->engine) {
    case SN_KENDALL:
        kmt_senet_kendall(rs, sn->kendall_flags);
        r->variant = sn->kendall_flags;
        break;
    case SN_BELL: kmt_senet_bell(rs); break;
    case SN_JEQUIER: kmt_senet_jequier(rs); break;
    case SN_PICCIONE: kmt_senet_piccione(rs); break;
    case SN_GENERIC: kmt_senet_generic(rs, sn); break;
    }
    return KEMET_OK;
}

/* Every senet generator draws the same board: square s is cell s. */
static int senet_cell_of(const kemet_rules *r, int player, int square) {
    (void)r;
    (void)player;
    return (square >= 1 && square <= SN_SQUARES) ? square : 0;
}

static const kmt_ruleset senet_base = {
    .squares = SN_SQUARES,
    .cells = SN_SQUARES,
    .cell_of = senet_cell_of,
};

const kmt_family kmt_family_senet = {
    .name = "senet",
    .base = &senet_base,
    .option_keys = NULL,
    .configure = senet_configure,
};
