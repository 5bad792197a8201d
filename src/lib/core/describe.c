/* describe.c - what a move did, in sentences a player reads ("White
 * moves 5-8.", "Hounds' piece on 12 is knocked off: ..."), from the events
 * kemet_apply reports. The terminal, the server and any front end share
 * them.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

static void square_name(int s, char *buf, size_t len) {
    if (s == KEMET_OFF)
        snprintf(buf, len, "off");
    else if (s == KEMET_HAND)
        snprintf(buf, len, "hand");
    else
        snprintf(buf, len, "%d", s);
}

/* A side named in the plural ("Hounds") rather than one player ("White"). */
static bool plural_name(const char *name) {
    size_t n = strlen(name);
    return n > 0 && name[n - 1] == 's';
}

/* Appends to buf (len bytes, `at` written so far); at keeps counting past
 * the end so that the caller can tell the text did not fit. */
#define SAY(...)                                                               \
    do {                                                                       \
        int k_ = snprintf(at < len ? buf + at : NULL, at < len ? len - at : 0, \
                          __VA_ARGS__);                                        \
        at += k_ > 0 ? (size_t)k_ : 0;                                         \
    } while (0)

int kemet_describe(const kemet_rules *rules, const kemet_events *ev, char *buf,
                   size_t len) {
    if (!rules || !ev || !buf || len == 0)
        return KEMET_EMISUSE;
    buf[0] = '\0';
    size_t at = 0;
    const kemet_info *info = kemet_rules_info(rules);
    for (int i = 0; i < ev->n; i++) {
        const kemet_event *e = &ev->ev[i];
        const char *who = info->player[e->who == 2];
        /* "White moves", "White's piece"; "Hounds move", "Hounds' piece" */
        bool plural = plural_name(who);
        const char *vs = plural ? "" : "s";
        char a[8], b[8], whose[48];
        snprintf(whose, sizeof whose, "%s'%s", who, plural ? "" : "s");
        square_name(e->a, a, sizeof a);
        square_name(e->b, b, sizeof b);
        switch (e->kind) {
        case KEMET_EV_MOVE:
            if (e->b == KEMET_OFF)
                SAY("  %s bear%s a piece off from %s.\n", who, vs, a);
            else if (e->b == KEMET_HAND)
                SAY("  %s take%s the piece on %s back %s, to be loaded "
                    "again.\n",
                    who, vs, a, info->in_hand);
            else
                SAY("  %s move%s %s-%s.\n", who, vs, a, b);
            break;
        case KEMET_EV_ENTER:
            SAY("  %s enter%s a piece on %s.\n", who, vs, b);
            break;
        case KEMET_EV_SWAP:
            SAY("  %s piece on %s is sent back to %s (the pieces "
                "swap).\n",
                whose, a, b);
            break;
        case KEMET_EV_CAPTURE:
            SAY("  A piece reached the Shen: %s rearmost piece, on "
                "%s, is captured for good.\n",
                whose, a);
            break;
        case KEMET_EV_WATER:
            SAY("  %s piece falls into the water: the turn ends.\n", whose);
            break;
        case KEMET_EV_RESCUE:
            SAY("  %s take%s the piece from the water to %s instead "
                "of throwing.\n",
                who, vs, b);
            break;
        case KEMET_EV_LINE:
            SAY("  The piece follows the line from %s to %s.\n", a, b);
            break;
        case KEMET_EV_RIVER:
            SAY("  The piece lands on the river at %s and is carried "
                "back to %s.\n",
                a, b);
            break;
        case KEMET_EV_KNOCK:
            SAY("  %s piece on %s is knocked off: it is now %s.\n", whose, a,
                info->in_hand);
            break;
        case KEMET_EV_LOAD:
            SAY("  %s load%s a piece from hand onto hole %s.\n", who, vs, b);
            break;
        case KEMET_EV_AGAIN: SAY("  %s throw%s again.\n", who, vs); break;
        case KEMET_EV_RETHROW:
            SAY("  %s throw%s again at once and must use the throw "
                "with the piece on %s.\n",
                who, vs, a);
            break;
        case KEMET_EV_PASS:
            SAY("  %s cannot use the throw: it is lost.\n", who);
            break;
        case KEMET_EV_LOST:
            if (e->b) /* the piece is the side's last on the board */
                SAY("  %s piece on %s cannot use the throw: it is "
                    "lost.\n",
                    whose, a);
            else
                SAY("  %s piece on %s holds the others back: the throw "
                    "is lost.\n",
                    whose, a);
            break;
        case KEMET_EV_WIN:
            if (e->a)
                SAY("  %s win%s the game, worth %d point%s!\n", who, vs, e->a,
                    e->a == 1 ? "" : "s");
            else
                SAY("  %s win%s the game!\n", who, vs);
            break;
        case KEMET_EV_UNENTER:
            SAY("  %s piece on %s cannot move with this throw: it goes back "
                "%s.\n",
                whose, a, info->in_hand);
            break;
        case KEMET_EV_FIRST1:
            SAY("  Opening: the players threw in turn until one threw a 1 "
                "(%d throw%s); that player plays %s, has played 10-11 with "
                "it and throws again.\n",
                e->a, e->a == 1 ? "" : "s", who);
            break;
        case KEMET_EV_DRAW:
            if (e->a)
                SAY("  No piece is left on the board and both bore off "
                    "as many: the game is drawn.\n");
            else
                SAY("  Nothing can ever move again: the game is drawn.\n");
            break;
        case KEMET_EV_HIT:
            SAY("  %s piece on %s is hit: it leaves the game for good.\n",
                whose, a);
            break;
        case KEMET_EV_SENT:
            SAY("  %s piece on %s is hit and sent back to %s.\n", whose, a, b);
            break;
        case KEMET_EV_DROWN:
            SAY("  %s piece falls into the water on %s and goes to %s.\n",
                whose, a, e->b == KEMET_HAND ? info->in_hand : b);
            break;
        case KEMET_EV_STARTS:
            if (e->a && (e->who == 1 ? e->a < e->b : e->b < e->a))
                SAY("  Opening throws: %s %d, %s %d. %s, with the "
                    "lower throw, starts and plays it.\n",
                    info->player[0], e->a, info->player[1], e->b, who);
            else if (e->a)
                SAY("  Opening throws: %s %d, %s %d. %s, with the "
                    "higher throw, starts.\n",
                    info->player[0], e->a, info->player[1], e->b, who);
            else
                SAY("  Drawn by lot: %s start%s.\n", who,
                    who[strlen(who) - 1] == 's' ? "" : "s");
            break;
        case KEMET_EV_REOPEN:
            SAY("  Opening throws: both %d; thrown again.\n", e->a);
            break;
        default: break;
        }
    }
    return at < len ? (int)at : KEMET_ERANGE;
}
