/* play.c - `kemet play`: a game in the terminal between people and agents.
 *
 * The loop: draw the board; offer the choices before the throw (if any);
 * throw the sticks and show them; list the legal moves numbered; read a
 * number or a move in notation; explain an illegal choice and ask again.
 * End of input ends the game cleanly.
 *
 * A person's turn is one screen that fits the terminal (cli_rows, 24 rows
 * when it is not a terminal): what happened since their last move (their
 * move in words, the computer's whole turn on one line: "Black (greedy)
 * throws 3, 4: 5-8, 8-12."), the board in a form that fits (cli_board_in),
 * the sides' counts, the throw, as many choices as the rows left hold
 * ('more' for the rest) and the prompt. P->used counts the lines of the
 * screen so far. A message answers at the prompt and stays there: nothing
 * is drawn over it until the next move. The game and its session (the plies,
 * take-back, resignation, the turn cap, the record) are the library's
 * kemet_game, as for every front end. With --record the whole record is
 * written again after every change (to a temporary file beside it, renamed
 * over it), so an interrupted game keeps its record.
 */
#define _XOPEN_SOURCE 700 /* realpath: a record written through a link */
#include "cli.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A seat played by the computer at the level chosen: its agent is the
 * ruleset's (kemet_rules_level_agent), known once the ruleset is open. */
static const char level_seat[] = "level";

static const char play_usage[] =
    "usage: kemet play [RULESET] [--level 1-5] [--side 1|2] [--p1 PLAYER]\n"
    "                  [--p2 PLAYER] [--seed N] [--record FILE] [--board "
    "FILE]\n"
    "                  [--rules FILE] [--no-save] | --resume [FILE]\n"
    "Plays a game in the terminal. RULESET defaults to senet-kendall ('kemet\n"
    "rules' lists them). By default you (human) are player 1 against the\n"
    "computer at level 2. --level sets the computer's strength, from 1\n"
    "(beginner: random moves) to 5 (very strong: the best search); each\n"
    "level is measurably stronger than the one below in every ruleset where\n"
    "the rules leave choices ('kemet rules RULESET' names each level's\n"
    "agent; docs/ladder.md); --side 2 plays you as player 2 against it (at\n"
    "level 2 unless --level says). PLAYER is\n"
    "human or an agent (random, greedy, expectimax[:BUDGET], mcts[:BUDGET],\n"
    "best[:BUDGET]; see 'kemet match --help'). --seed N fixes the throws "
    "(default:\n"
    "from the clock; the seed is printed so the game can be replayed).\n"
    "--record FILE writes the game as a record ('kemet replay FILE' checks\n"
    "it), whole again after every move, take-back and resignation; FILE must\n"
    "not exist yet. --board FILE plays on the board described\n"
    "by a board file (docs/boards.md) for the rulesets whose board is a\n"
    "reconstruction (records are kept of built-in boards only).\n"
    "A game you play at a terminal is kept as it goes, with no --record, in\n"
    "$XDG_STATE_HOME/kemet/games (else ~/.local/state/kemet/games);\n"
    "--no-save keeps nothing. --resume with no FILE lists the unfinished\n"
    "games kept there and goes on with the one you pick (a ruleset file's\n"
    "games with the file: --resume --rules FILE).\n"
    "--resume FILE goes on with the unfinished game of a record (its seed\n"
    "gives the throws to come; its players, unless --p1/--p2 say otherwise)\n"
    "and goes on writing it (as the game stands: a take-back may reach into\n"
    "its moves; lines of its own, such as # comments, are not kept).\n"
    "--auto plays your forced moves (a throw with one legal move) for you.\n"
    "--max-turns T stops the game unfinished before a turn beyond T would\n"
    "begin (ruling G5; 0: never): by default never when a person plays, at\n"
    "1000 turns when two computers play (as sim and match).\n"
    "--compact draws the board compactly (every hole as its number and what\n"
    "stands on it), as on a terminal narrower than the board.\n"
    "--position POS starts the game set up in POS (kemet start|hint's\n"
    "notation; its player to move throws first), with no opening; a record\n"
    "of it says so ('setup POS').\n"
    "At your turn type the number of a move or the move itself (e.g. 9-12);\n"
    "'help' lists the other commands.\n" RULES_HELP TABLES_HELP NET_HELP;

typedef struct seat {
    bool human;
    kemet_agent *agent;
    char name[48]; /* as a player reads it: "you", "the computer, level 3",
                      or the agent the user named ("expectimax") */
    char spec[48]; /* as the record keeps it: "human" or the agent's spec */
} seat;

typedef struct play {
    kemet_agent *hint; /* made at the first 'hint' */
    kemet_rules *rules;
    kemet_judge *judge; /* the agents' (cli_judge) */
    const kemet_info *info;
    kemet_game *game; /* the game and its session: plies, resignation... */
    int black; /* who the opening made player 2 (kemet_opening_black): 1 the
                  person or player named first, 2 the other, 0 none */
    seat seat[2];
    const char *record; /* the record file as named, or NULL */
    bool kept;          /* the record is the one kept for the player (in the
                           state folder, not --record) */
    const char *unkept; /* why a person's game is not kept, for 'quit' */
    char kept_path[PATH_MAX];
    char *record_at;    /* the file written (a link's target) */
    mode_t record_mode; /* its permissions */
    int record_errno;   /* 0, or why the last write of the record failed */
    int mark;           /* cell last moved to */
    bool opening_throw; /* the opening threw for the first ply */
    /* the computer's last decision, for 'why' */
    bool why_set;
    int why_seat;
    kemet_pos why_pos;
    kemet_throw why_thr; /* n == 0: before the throw */
    kemet_move why_move;
    bool why_threw;
    int form;   /* the board's form: CLI_BOARD_AUTO, _FULL or _COMPACT */
    bool auto_; /* a person's only legal move is played without asking */
    /* in a turn entered step by step: the board as the steps left it */
    bool mid_set;
    kemet_pos mid;
    int mid_mark;
    long max_turns;      /* 0: none; else stop before a turn beyond it (G5) */
    kemet_move *scratch; /* KEMET_MAX_MOVES: the computer's choices */
    int rows;            /* the terminal's height (cli_rows) */
    int used;            /* the lines of the screen written so far */
} play;

/* Whether the game is of a ruleset file (read with --rules, or named by
 * the file): to go on with it later, its record is read with the file
 * again. The option to give, " --rules PATH" (the file's full path where
 * known), into buf, else "". */
static bool rules_file_game(const play *P, char *buf, size_t len) {
    const char *path =
        cli_rules_text_for(P->info->id) ? cli_rules_path() : NULL;
    if (buf && len) {
        char *full = path ? realpath(path, NULL) : NULL;
        snprintf(buf, len, "%s%s", path ? " --rules " : "",
                 path ? (full ? full : path) : "");
        free(full);
    }
    return path != NULL;
}

/* Appends text to a line being built in buf (cut where it is full). */
static void append(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...) {
    size_t at = strlen(buf);
    if (at + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + at, len - at, fmt, ap);
    va_end(ap);
}

/* printf, wrapped to the terminal (cli_say), the lines counted in the
 * screen. */
static void tell(play *P, int indent, int hang, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void tell(play *P, int indent, int hang, const char *fmt, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    P->used += cli_say(stdout, indent, hang, "%s", buf);
}

/* What a person's answer comes to, where it is not a move's index (0 or
 * more): ask_human, step_by_step and command return these, and ply the
 * ones that end its turn otherwise than with a move (ACT_PLAYED). */
typedef enum human_act {
    ACT_UNDO = -7,     /* take back the last step of a turn played a value
                          a ply (Tab): the turn's last ply */
    ACT_RESTART = -6,  /* the only step of a turn undone: the turn again */
    ACT_TAKEBACK = -5, /* take back the person's last move */
    ACT_RESIGN = -4,   /* give the game up (confirmed) */
    ACT_TYPED = -3,    /* a turn as typed, not as listed: in *chosen */
    ACT_LEAVE = -2,    /* quit (confirmed), or end of input */
    ACT_THROW = -1,    /* throw the sticks instead of a pre-throw move */
    ACT_PLAYED = 0,    /* ply: the ply was played */
} human_act;

/* What command() made of a line: an action above, or these. */
enum { CMD_NONE = 0 /* not a command */, CMD_DONE = 1 /* done; ask again */ };

/* Whether an answer ends the ply without a move. */
static bool act_ends_ply(int k) {
    return k == ACT_LEAVE || k == ACT_RESIGN || k == ACT_TAKEBACK ||
           k == ACT_UNDO;
}

/* Where a turn's values are played a ply each (Tab: the values still to
 * play are the pending throw, KEMET_KEPT), the ply of this turn that
 * 'undo' takes back: the mover's last move in it, or -1 when none was
 * made yet this turn. */
static long undo_ply(const play *P, const kemet_throw *t) {
    if (!t || t->sticks != KEMET_KEPT)
        return -1;
    const kemet_ply *h = kemet_game_history(P->game);
    int me = kemet_game_pos(P->game)->to;
    for (long i = kemet_game_plies(P->game) - 1;
         h && i >= 0 && kemet_game_mover(P->game, i) == me; i--) {
        if (h[i].move.n)
            return i;
        if (h[i].thr.n && h[i].thr.sticks != KEMET_KEPT)
            break; /* the turn's throw: its first ply */
    }
    return -1;
}

/* A move in a player's words, in the mover's numbers as its list of
 * choices has them: "5 → 8", "a new piece onto 3", "28 → borne off", "7
 * → 13, carried on to 9", steps joined by ", then "; "no move" for a
 * pass. (CLI_NBSP before each arrow: cli_say never breaks a line there;
 * printed by other means it is a control character.) */
static void move_words(const play *P, const kemet_move *m, char *buf,
                       size_t len) {
    buf[0] = '\0';
    if (m->n == 0)
        append(buf, len, "no move");
    for (int i = 0; i < m->n; i++) {
        const kemet_step *st = &m->step[i];
        if (i)
            append(buf, len, ", then ");
        char to[40];
        if (st->to == KEMET_OFF)
            snprintf(to, sizeof to, "%s",
                     P->info->gone ? P->info->gone : "off the board");
        else
            snprintf(to, sizeof to, "%d", st->to);
        if (st->from == KEMET_HAND)
            append(buf, len, "a new piece onto %s", to);
        else if (st->via && st->via != st->to)
            append(buf, len, "%d%c→ %d, carried on to %s", st->from, CLI_NBSP,
                   st->via, to);
        else if (st->from == st->to)
            append(buf, len, "%d, carried back to %s by a line", st->from, to);
        else
            append(buf, len, "%d%c→ %s", st->from, CLI_NBSP, to);
    }
}

/* A throw in a player's words: "1, 4, 5 and 3 (the 3 for White only)";
 * values of the turn still to play (Tab) are said so. */
static void throw_text(const play *P, const kemet_throw *t, char *buf,
                       size_t len) {
    buf[0] = '\0';
    for (int i = 0; i < t->n; i++)
        append(buf, len, "%s%d",
               i == 0          ? ""
               : i == t->n - 1 ? " and "
                               : ", ",
               t->v[i]);
    for (int i = 0, first = 1; i < t->n; i++)
        if (t->only[i]) {
            append(buf, len, "%sthe %d for %s only", first ? " (" : ", ",
                   t->v[i], P->info->player[t->only[i] - 1]);
            first = 0;
        }
    if (strchr(buf, '('))
        append(buf, len, ")");
}

/* The review of the game so far (kemet_review, as `kemet review`): each
 * player's accuracy, points lost and luck, and the human players' largest
 * losses, in a player's words (moves and throws as the board has them). */
static void review_summary(const play *P, bool over) {
    kemet_agent *a = NULL;
    kemet_error err;
    long plies = kemet_game_plies(P->game);
    kemet_review_entry *e = malloc((size_t)(2 * plies + 2) * sizeof *e);
    kemet_review_sum sum[2];
    long n = -1;
    if (e && !kemet_agent_new_judged(P->judge, "expectimax", 1, &a, &err)) {
        cli_busy_start("reviewing the %ld move%s", plies,
                       plies == 1 ? "" : "s");
        n = kemet_review(a, P->rules, kemet_game_start(P->game),
                         kemet_game_history(P->game), plies, e, 2 * plies + 2,
                         sum, &err);
        cli_busy_end();
    }
    kemet_agent_free(a);
    if (n < 0) {
        printf("  (no review: %s)\n", e ? err.msg : "out of memory");
        free(e);
        return;
    }
    cli_say(stdout, 0, 2, "Review of the %ld move%s %s%s:", plies,
            plies == 1 ? "" : "s", over ? "of the game" : "so far",
            P->record ? " ('kemet review' on its record gives every one)" : "");
    for (int p = 0; p < 2; p++) {
        const kemet_review_sum *s = &sum[p];
        char choices[96];
        if (s->decisions)
            snprintf(choices, sizeof choices,
                     "%d real choice%s, %.0f%% the best, %.1f points of win "
                     "chance lost",
                     s->decisions, s->decisions == 1 ? "" : "s",
                     100.0 * s->best / s->decisions, 100 * s->loss);
        else
            snprintf(choices, sizeof choices, "no real choice yet");
        cli_say(stdout, 2, 4, "%s (%s): %s, luck %+.1f points",
                P->info->player[p], P->seat[p].name, choices, 100 * s->luck);
    }
    for (int p = 0; p < 2; p++) {
        if (!P->seat[p].human)
            continue;
        /* the three largest losses */
        long top[3] = {-1, -1, -1};
        for (long i = 0; i < n; i++) {
            if (e[i].player != p + 1 || e[i].loss < KEMET_REVIEW_DOUBTFUL)
                continue;
            for (int k = 0; k < 3; k++)
                if (top[k] < 0 || e[i].loss > e[top[k]].loss) {
                    for (int j = 2; j > k; j--)
                        top[j] = top[j - 1];
                    top[k] = i;
                    break;
                }
        }
        for (int k = 0; k < 3 && top[k] >= 0; k++) {
            const kemet_review_entry *x = &e[top[k]];
            char pl[200] = "threw the sticks", b[200] = "throwing the sticks",
                 t[120] = "before throwing", v[96];
            if (!x->threw)
                move_words(P, &x->played, pl, sizeof pl);
            if (!x->best_throws)
                move_words(P, &x->best, b, sizeof b);
            if (x->thr.n) {
                throw_text(P, &x->thr, v, sizeof v);
                snprintf(
                    t, sizeof t, "%s %s",
                    x->thr.sticks == KEMET_KEPT ? "still to play" : "threw", v);
            }
            cli_say(stdout, 2, 4,
                    "move %ld (%s): %s played %s; the best was %s: %.1f "
                    "points of win chance lost (%s)",
                    x->ply + 1, t, P->info->player[p], pl, b, 100 * x->loss,
                    kemet_grade_name(x->grade));
        }
    }
    free(e);
}

/* The position line (and the pending throw), to paste into kemet hint. */
static void show_position(const play *P, const kemet_throw *t) {
    char line[512], thr[64] = "";
    kemet_pos_format(P->rules, kemet_game_pos(P->game), line, sizeof line);
    if (t && t->n)
        kemet_throw_format(t, thr, sizeof thr);
    cli_say(stdout, 2, 4, "position: %s", line);
    if (*thr) {
        printf("  throw: %s; to ask the program itself:\n", thr);
        /* a break inside the quotes pastes whole into a shell: the
           position's fields may be split by any white space */
        cli_say(stdout, 4, 6, "kemet hint '%s'%c%s", line, CLI_NBSP, thr);
    }
}

/* A throw as a person sees it: the sticks and a key to them, or each
 * value and whose a dual value is. */
static void throw_words(const play *P, const kemet_throw *t, char *buf,
                        size_t len) {
    size_t at = 0;
#define ADD(...)                                                               \
    do {                                                                       \
        int k_ = snprintf(buf + at, len - at, __VA_ARGS__);                    \
        if (k_ > 0)                                                            \
            at += (size_t)k_ < len - at ? (size_t)k_ : len - at - 1;           \
    } while (0)
    buf[0] = '\0';
    if (t->n > 1 || t->sticks != 4) {
        /* several values: each one, and whose a dual value is */
        if (t->sticks == 2 && t->n == 2 && !t->only[0])
            ADD("dice");
        for (int i = 0; i < t->n; i++) {
            if (t->only[i])
                ADD("%s%d (dual stick, %s' colour)", at ? " " : "", t->v[i],
                    P->info->player[t->only[i] - 1]);
            else
                ADD("%s%d", at ? " " : "", t->v[i]);
        }
        if (t->sticks > t->n && t->sticks != KEMET_KEPT)
            ADD(" (%d dual stick%s showed the other colour)", t->sticks - t->n,
                t->sticks - t->n > 1 ? "s" : "");
        return;
    }
    for (int i = 0; i < t->sticks; i++)
        ADD("%s", (t->faces >> i) & 1 ? "[##] " : "[  ] ");
    char v[64];
    kemet_throw_format(t, v, sizeof v);
    /* what no marked side up counts: the highest value of the sticks
       (5, or 6 in Jequier's Senet) */
    kemet_throw all[KEMET_MAX_THROWS];
    kemet_weight w[KEMET_MAX_THROWS], total;
    int blank = 5;
    int k = kemet_throws(P->rules, kemet_game_pos(P->game), all, w, &total);
    for (int i = 0; i < k; i++)
        if (all[i].n == 1 && all[i].v[0] > blank)
            blank = all[i].v[0];
    ADD("= %s ([##] marked side up; none = %d)", v, blank);
#undef ADD
}

/* Whether the throw pending is the one the opening made. */
static bool opening_throw(const play *P) {
    return P->opening_throw && kemet_game_plies(P->game) == 0 &&
           kemet_game_throw(P->game);
}

/* A person's throw, on one line: "White (you) throws: [##] [  ] [  ] [  ]
 * = 1 (...)", or for the throw the opening made, "plays the opening
 * throw:". */
static void show_throw(play *P, const kemet_throw *t) {
    int me = kemet_game_pos(P->game)->to - 1;
    const char *who = P->info->player[me];
    char words[256];
    throw_words(P, t, words, sizeof words);
    if (t->sticks == KEMET_KEPT) { /* Tab: this turn's values still to play */
        tell(P, 0, 2, "%s (%s), still to play: %s", who, P->seat[me].name,
             words);
        return;
    }
    tell(P, 0, 2, "%s (%s) %s%s: %s", who, P->seat[me].name,
         opening_throw(P) ? "play" : "throw",
         cli_plural(who)    ? ""
         : opening_throw(P) ? "s the opening throw"
                            : "s",
         words);
}

/* A few words on events first..last-1 of a move by player `mover`, for
 * the lists. */
static void notes(const play *P, int mover, const kemet_events *ev, int first,
                  int last, bool again, char *buf, size_t len) {
    size_t at = 0;
    buf[0] = '\0';
    for (int i = first; i < last && at < len; i++) {
        const kemet_event *e = &ev->ev[i];
        const char *w = NULL;
        char tmp[64];
        switch (e->kind) {
        case KEMET_EV_SWAP:
            snprintf(tmp, sizeof tmp, "swaps with a piece of %s",
                     P->info->player[e->who == 2]);
            w = tmp;
            break;
        case KEMET_EV_CAPTURE: w = "captures"; break;
        case KEMET_EV_WATER: w = "falls into the water"; break;
        case KEMET_EV_AGAIN: w = again ? "throw again" : NULL; break;
        case KEMET_EV_RETHROW: w = "rethrow with this piece"; break;
        case KEMET_EV_LINE: w = "follows the line"; break;
        case KEMET_EV_RIVER: w = "carried back by the river"; break;
        case KEMET_EV_KNOCK: w = "knocks a piece off"; break;
        case KEMET_EV_HIT: w = "takes a piece out of the game"; break;
        case KEMET_EV_SENT: w = "sends a piece back"; break;
        case KEMET_EV_DROWN: w = "falls into the water"; break;
        case KEMET_EV_UNENTER: w = "goes back to hand"; break;
        case KEMET_EV_LOAD: w = "loads a piece"; break;
        case KEMET_EV_WIN:
            /* a move can make the other side win (Washburne: filling
               one's own home box) */
            if (e->who == mover)
                w = "WINS";
            else {
                const char *other = P->info->player[e->who - 1];
                snprintf(tmp, sizeof tmp, "LOSES (%s win%s)", other,
                         cli_plural(other) ? "" : "s");
                w = tmp;
            }
            break;
        case KEMET_EV_DRAW: w = "draws the game"; break;
        case KEMET_EV_MOVE:
            if (e->b == KEMET_OFF)
                w = "bears off";
            else if (e->b == KEMET_HAND)
                w = "back in hand";
            break;
        default: break;
        }
        if (w) {
            int k = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", w);
            if (k > 0)
                at += (size_t)k;
        }
    }
}

/* What a move would do, for the numbered list. */
static void preview(const play *P, const kemet_pos *pos, const kemet_throw *t,
                    const kemet_move *m, char *buf, size_t len) {
    kemet_pos next;
    kemet_events ev;
    kemet_make(P->rules, pos, t, m, &next, &ev);
    notes(P, pos->to, &ev, 0, ev.n, true, buf, len);
}

/* What the next step `st` after `done` would do by itself (a river, a
 * capture), for the step-by-step list: the events of that step within a
 * listed turn that begins with done + st ("" when none does). */
static void step_note(const play *P, const kemet_pos *pos, const kemet_throw *t,
                      const kemet_move *moves, int n, const kemet_move *done,
                      const kemet_step *st, char *buf, size_t len) {
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        const kemet_move *m = &moves[i];
        bool begins = m->n > done->n && m->step[done->n].from == st->from &&
                      m->step[done->n].to == st->to;
        for (int k = 0; k < done->n && begins; k++)
            begins = m->step[k].from == done->step[k].from &&
                     m->step[k].to == done->step[k].to;
        if (!begins)
            continue;
        kemet_pos next;
        kemet_events ev;
        kemet_make(P->rules, pos, t, m, &next, &ev);
        /* each step's events begin with its own piece moving or entering */
        int step = -1, first = ev.n, last = ev.n;
        for (int e = 0; e < ev.n; e++) {
            const kemet_event *x = &ev.ev[e];
            if ((x->kind == KEMET_EV_MOVE || x->kind == KEMET_EV_ENTER) &&
                x->who == pos->to && ++step == done->n + 1) {
                last = e;
                break;
            }
            if (step == done->n && first == ev.n)
                first = e;
        }
        notes(P, pos->to, &ev, first, last, true, buf, len);
        return;
    }
}

/* The sides' counts, a line each (one for both where they fit); the
 * lines written. */
static int status(const play *P, FILE *out) {
    const kemet_pos *pos = kemet_game_pos(P->game);
    char side[2][160];
    for (int p = 0; p < 2; p++) {
        int board = kemet_on_board(pos, p + 1);
        /* where borne off is a score (Bell), the pieces hit apart */
        int gone = P->info->scores ? pos->off[p]
                                   : P->info->pieces - board - pos->hand[p];
        int hit = P->info->scores
                      ? P->info->pieces - board - pos->hand[p] - pos->off[p]
                      : 0;
        side[p][0] = '\0';
        append(side[p], sizeof side[p], "%c = %s (%s): %d on the board",
               P->info->glyph[p], P->info->player[p], P->seat[p].name, board);
        if (pos->hand[p])
            append(side[p], sizeof side[p], ", %d %s", pos->hand[p],
                   P->info->in_hand);
        if (P->info->gone)
            append(side[p], sizeof side[p], ", %d %s", gone, P->info->gone);
        if (hit)
            append(side[p], sizeof side[p], ", %d hit", hit);
    }
    /* on one line where both fit */
    if (2 + strlen(side[0]) + 2 + strlen(side[1]) <=
        (size_t)cli_text_width(out)) {
        fprintf(out, "  %s; %s\n", side[0], side[1]);
        return 1;
    }
    return cli_say(out, 2, 4, "%s", side[0]) +
           cli_say(out, 2, 4, "%s", side[1]);
}

static const char human_help[] =
    "  Type the number of a move, or the move itself (FROM-TO, e.g. 9-12).\n"
    "  A turn of several values may be typed whole (3-5+12-16, steps in any\n"
    "  order) or begun with its first step(s): the values still to spend and\n"
    "  the next steps are then shown, one step at a time ('undo' takes back\n"
    "  the last step).\n"
    "  hint   every move ranked by your chance of winning after it\n"
    "  review the game so far graded: accuracy, points lost, luck\n"
    "  pos    the position in notation (for 'kemet hint', or to share)\n"
    "  auto on|off  play your forced moves (the only legal one) for you\n"
    "  resign give the game up (asks first)\n"
    "  why    the computer's last choice, with its chance after each option\n"
    "  takeback  take back your last move (a pass is none) and the\n"
    "         computer's after it; the same throw comes again (against the\n"
    "         computer only)\n"
    "  list   the choices again, all of them ('more': the next page)\n"
    "  board  draw the board again ('board compact': every hole as its\n"
    "         number and pieces, for small terminals; 'board full')\n"
    "  rules  show the rules\n"
    "  quit   leave the game (kept, unfinished: 'kemet play --resume')\n";

static int command(play *P, char *line, const kemet_throw *t,
                   const kemet_move *moves, int n);
static void show_hint(play *P, const kemet_throw *t, const kemet_move *moves,
                      int n, const kemet_move *so_far);

/* The ways to finish a turn begun with the steps of `done` (each distinct
 * end position once) into out[*n...]; `next` holds KEMET_MAX_STEPS lists
 * of KEMET_MAX_MOVES steps, `seen` KEMET_MAX_MOVES positions. */
static void finish_turns(const play *P, const kemet_pos *pos,
                         const kemet_throw *t, kemet_move *done,
                         kemet_move *next, kemet_move *out, kemet_pos *seen,
                         int *n) {
    if (*n >= KEMET_MAX_MOVES || done->n >= KEMET_MAX_STEPS)
        return;
    kemet_move *mine = next + (size_t)done->n * KEMET_MAX_MOVES;
    int k = kemet_next_steps(P->rules, pos, t, done, mine, NULL);
    if (k < 0)
        return;
    if (k == 0) {
        kemet_pos after;
        if (kemet_apply(P->rules, pos, t, done, &after, NULL) != KEMET_OK)
            return;
        for (int j = 0; j < *n; j++)
            if (memcmp(&seen[j], &after, sizeof after) == 0)
                return;
        seen[*n] = after;
        out[(*n)++] = *done;
        return;
    }
    for (int i = 0; i < k; i++) {
        done->step[done->n++] = mine[i].step[0];
        finish_turns(P, pos, t, done, next, out, seen, n);
        done->n--;
    }
}

/* 'hint' in the middle of a turn: the ways to finish it from the steps
 * already played, ranked. */
static void hint_mid_turn(play *P, const kemet_throw *t,
                          const kemet_move *done) {
    const kemet_pos *pos = kemet_game_pos(P->game);
    kemet_move *next =
        malloc((size_t)KEMET_MAX_STEPS * KEMET_MAX_MOVES * sizeof *next);
    kemet_move *out = malloc(KEMET_MAX_MOVES * sizeof *out);
    kemet_pos *seen = malloc(KEMET_MAX_MOVES * sizeof *seen);
    int n = 0;
    if (next && out && seen) {
        kemet_move d = *done;
        finish_turns(P, pos, t, &d, next, out, seen, &n);
    }
    if (n > 0)
        show_hint(P, t, out, n, done);
    else
        printf("  No hint: out of memory.\n");
    free(next);
    free(out);
    free(seen);
}

/* How many of `n` choices, a line each, the screen holds below what it
 * shows (P->used lines) with the prompt, room for a message of a line
 * and the prompt again, and, where they do not all fit, a line saying how
 * many more there are: at least one. */
static int room_for(const play *P, int n) {
    int room = P->rows - P->used - 3;
    if (n <= room)
        return n;
    return room > 2 ? room - 1 : 1;
}

/* Whether a line is written as a move is: steps joined by '+', each two
 * or three squares (numbers or words such as "in") joined by '-'. */
static bool move_like(const char *line) {
    int dashes = 0;
    bool empty = true; /* the current square has no character yet */
    for (const char *c = line;; c++) {
        if (*c == '-' || *c == '+' || !*c) {
            if (empty)
                return false;
            if (*c != '-' && (dashes < 1 || dashes > 2))
                return false;
            if (!*c)
                return true;
            dashes = *c == '-' ? dashes + 1 : 0;
            empty = true;
        } else if (isalnum((unsigned char)*c))
            empty = false;
        else
            return false;
    }
}

/* A line read at a prompt that is not a move: what is wrong with it, in
 * the terminal's own words where it is not written as a move (the
 * notation's message names forms this game may not have), with an
 * example from the choices at hand; else the notation's reason. */
static void not_a_move(const char *line, const kemet_error *err,
                       const kemet_move *example) {
    char ex[64];
    kemet_move_format(example, ex, sizeof ex);
    if (!move_like(line))
        cli_say(stdout, 2, 4,
                "'%s' is neither a move (e.g. %s) nor a command ('help').",
                line, ex);
    else
        cli_say(stdout, 2, 4, "%s. Type 'help' for help.", err->msg);
}

/* A turn of several values entered a step at a time: `done` holds the
 * steps typed so far. Shows the board as they leave it, the values still
 * to spend and the next steps, and reads on until the turn is complete.
 * Returns ACT_TYPED with the turn in *chosen, another action (ACT_LEAVE,
 * ...), ACT_RESTART when the only step was undone (said, as the first
 * line of the screen to come), or 0 to go back to the prompt of the whole
 * list (the steps not allowed, said). */
static int step_by_step(play *P, const kemet_throw *t, const kemet_move *moves,
                        int nmoves, kemet_move *done, kemet_move *chosen) {
    const kemet_pos *pos = kemet_game_pos(P->game);
    static kemet_move next[KEMET_MAX_MOVES];
    char line[256], buf[64], why[256];
    bool fresh = true; /* a step made or taken back: show where it stands */
    int all = 0;       /* 'list': every next step */
    for (;;) {
        kemet_throw left;
        int n = kemet_next_steps(P->rules, pos, t, done, next, &left);
        if (n == KEMET_EILLEGAL) {
            kemet_move_format(done, buf, sizeof buf);
            kc_explain(P->rules, pos, t, done, why, sizeof why);
            cli_say(stdout, 2, 4, "%s is not allowed: %s.", buf, why);
            return 0;
        }
        if (n <= 0) {
            *chosen = *done;
            return ACT_TYPED;
        }
        /* the board as the steps so far left it: a screen */
        P->mid_set =
            kemet_steps_pos(P->rules, pos, t, done, &P->mid) == KEMET_OK;
        if (P->mid_set && fresh) {
            const kemet_step *last = &done->step[done->n - 1];
            P->mid_mark = kemet_square_cell(P->rules, pos->to, last->to);
            putchar('\n');
            P->used = 1 + cli_board_in(P->rules, &P->mid, P->mid_mark, stdout,
                                       P->form, P->rows);
        }
        kemet_move_format(done, buf, sizeof buf);
        char spend[64] = "";
        for (int i = 0; i < left.n; i++)
            append(spend, sizeof spend, " %d", left.v[i]);
        tell(P, 2, 4, "So far %s; values still to spend:%s. Next step:", buf,
             spend);
        int show = all ? n : fresh ? room_for(P, n) : 0;
        for (int i = 0; i < show; i++) {
            char note[160];
            kemet_move_format(&next[i], buf, sizeof buf);
            step_note(P, pos, t, moves, nmoves, done, &next[i].step[0], note,
                      sizeof note);
            tell(P, 2, 6, "%d) %-8s %s", i + 1, buf, note);
        }
        if (show && show < n)
            tell(P, 2, 4, "... and %d more ('list': all of them)", n - show);
        all = 0;
        printf("%s (undo: take back the last step)> ",
               P->info->player[pos->to - 1]);
        fflush(stdout);
        P->used++;
        int got = cli_read_line(line, sizeof line);
        if (got == CLI_LINE_END)
            return ACT_LEAVE;
        if (got != CLI_LINE_OK || !line[0])
            continue;
        fresh = false;
        if (strcmp(line, "undo") == 0) {
            if (--done->n == 0) { /* back to the turn's start */
                kemet_move_format(
                    &(kemet_move){.n = 1, .step = {done->step[0]}}, buf,
                    sizeof buf);
                P->used = 0;
                tell(P, 2, 4, "Step %s taken back: the turn begins again.",
                     buf);
                return ACT_RESTART;
            }
            fresh = true;
            continue;
        }
        if (strcmp(line, "list") == 0) {
            all = 1;
            continue;
        }
        if (strcmp(line, "hint") == 0) {
            hint_mid_turn(P, t, done);
            continue;
        }
        int cmd = command(P, line, t, moves, nmoves);
        if (cmd < 0)
            return cmd;
        if (cmd)
            continue;
        long k;
        kemet_move m;
        kemet_error err;
        if (cli_number(line, &k)) {
            if (k < 1 || k > n) {
                if (n == 1)
                    cli_say(stdout, 2, 4, "There is no choice %s: pick 1.",
                            line);
                else
                    cli_say(stdout, 2, 4, "There is no choice %s: pick 1-%d.",
                            line, n);
                continue;
            }
            m = next[k - 1];
        } else if (kemet_move_parse(P->rules, line, &m, &err)) {
            not_a_move(line, &err, &next[0]);
            continue;
        }
        kemet_move longer = *done;
        for (int i = 0; i < m.n && longer.n < KEMET_MAX_STEPS; i++)
            longer.step[longer.n++] = m.step[i];
        if (kemet_next_steps(P->rules, pos, t, &longer, next, NULL) < 0) {
            kc_explain(P->rules, pos, t, &longer, why, sizeof why);
            cli_say(stdout, 2, 4, "%s is not allowed: %s.", line, why);
            continue;
        }
        *done = longer;
        fresh = true;
    }
}

/* The 'hint' command: the moves ranked by the strongest agent. */
static void show_hint(play *P, const kemet_throw *t, const kemet_move *moves,
                      int n, const kemet_move *so_far) {
    const kemet_pos *pos = kemet_game_pos(P->game);
    kemet_error err;
    if (!P->hint &&
        kemet_agent_new_judged(P->judge, "best", 1, &P->hint, &err)) {
        cli_say(stdout, 2, 4, "No hint: %s.", err.msg);
        return;
    }
    kc_ranked *order = malloc((size_t)(n + 1) * sizeof *order);
    cli_busy_start("weighing the moves");
    int m = order ? kc_rank(P->hint, pos, t, moves, n, order) : -1;
    cli_busy_end();
    if (m < 0) {
        free(order);
        printf("  No hint: out of memory.\n");
        return;
    }
    if (so_far) {
        char begun[128];
        kemet_move_format(so_far, begun, sizeof begun);
        cli_say(stdout, 2, 2,
                "Your chance of winning after each way to finish the turn "
                "begun %s:",
                begun);
    } else
        printf("  Your chance of winning after each move:\n");
    for (int i = 0; i < m && i < 20; i++) {
        char buf[128] = "throw the sticks";
        int k = order[i].index;
        if (k >= 0)
            kemet_move_format(&moves[k], buf, sizeof buf);
        printf("  %s%-20s %5.1f%%\n", k >= 0 ? "" : "0) ", buf,
               100 * order[i].chance);
    }
    if (m > 20)
        printf("  ... and %d more\n", m - 20);
    free(order);
}

/* 'why': the computer's last decision, with its own chances for each of
 * its choices, the one it took marked. */
static void explain_computer(play *P) {
    if (!P->why_set) {
        printf("  The computer has not chosen anything yet.\n");
        return;
    }
    const seat *S = &P->seat[P->why_seat - 1];
    const kemet_throw *t = P->why_thr.n ? &P->why_thr : NULL;
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    kc_ranked *order = malloc((KEMET_MAX_MOVES + 1) * sizeof *order);
    int n = !moves || !order ? -1
            : t              ? kemet_moves(P->rules, &P->why_pos, t, moves)
                             : kemet_prethrow(P->rules, &P->why_pos, moves);
    /* weighed by an agent like it, so that asking changes nothing of the
       game's own (its generator: ties, and "~P"'s random moves) */
    kemet_agent *again = NULL;
    kemet_error err;
    if (n >= 0 && kemet_agent_new_judged(P->judge, kemet_agent_spec(S->agent),
                                         1, &again, &err))
        n = -1;
    cli_busy_start("%s weighing its choices again", S->name);
    int m = n >= 0 ? kc_rank(again, &P->why_pos, t, moves, n, order) : -1;
    cli_busy_end();
    kemet_agent_free(again);
    if (m < 0) {
        printf("  No explanation: out of memory.\n");
    } else {
        char thr[128] = "before the throw";
        if (t) {
            char v[96];
            throw_text(P, t, v, sizeof v);
            snprintf(thr, sizeof thr, "with the throw %s", v);
        }
        cli_say(stdout, 2, 2,
                "%s (%s) %s weighed its choices by its chance of winning "
                "after each:",
                P->info->player[P->why_seat - 1], S->name, thr);
        for (int i = 0; i < m && i < 8; i++) {
            char buf[128] = "throw the sticks";
            int k = order[i].index;
            if (k >= 0)
                kemet_move_format(&moves[k], buf, sizeof buf);
            bool took = k < 0 ? P->why_threw
                              : !P->why_threw &&
                                    kemet_move_equal(&moves[k], &P->why_move);
            printf("  %s %-20s %5.1f%%\n", took ? "->" : "  ", buf,
                   100 * order[i].chance);
        }
        if (m > 8)
            printf("     ... and %d more\n", m - 8);
        /* a choice below the best it saw: one of its random moves */
        const char *share = strchr(kemet_agent_spec(S->agent), '~');
        double taken = order[0].chance;
        for (int i = 0; i < m; i++) {
            int k = order[i].index;
            if (k < 0 ? P->why_threw
                      : !P->why_threw &&
                            kemet_move_equal(&moves[k], &P->why_move))
                taken = order[i].chance;
        }
        if (share && taken < order[0].chance - 1e-9)
            cli_say(stdout, 2, 2,
                    "At this level the computer plays %.0f%% of its moves at "
                    "random, and this was one of them.",
                    100 * strtod(share + 1, NULL));
    }
    free(moves);
    free(order);
}

/* The commands that work at every prompt: CMD_DONE when `line` was one,
 * CMD_NONE when it was not a command, or the action it asks for
 * (ACT_LEAVE, ACT_RESIGN, ACT_TAKEBACK). */
static int command(play *P, char *line, const kemet_throw *t,
                   const kemet_move *moves, int n) {
    const kemet_pos *pos = kemet_game_pos(P->game);
    if (strcmp(line, "quit") == 0 || strcmp(line, "q") == 0) {
        /* what becomes of it: kept to go on with, or lost */
        char question[200];
        /* (on one line of 80 columns with the prompt before it) */
        bool file = rules_file_game(P, NULL, 0);
        if (P->kept)
            snprintf(
                question, sizeof question,
                file ? "Leave the game? It is kept: 'kemet play --resume "
                       "--rules FILE'."
                     : "Leave the game? It is kept: 'kemet play --resume'.");
        else if (P->record)
            snprintf(question, sizeof question,
                     "Leave the game? Its record keeps it (--resume FILE%s).",
                     file ? " --rules FILE" : "");
        else
            snprintf(question, sizeof question,
                     "Leave the game? Nothing is kept (%s).",
                     P->unkept ? P->unkept : "see --record");
        int yes = cli_yes_no(question);
        return yes ? ACT_LEAVE : CMD_DONE; /* end of input leaves too */
    }
    if (strcmp(line, "resign") == 0) {
        char question[96];
        snprintf(question, sizeof question, "Resign, and let %s win?",
                 P->info->player[2 - pos->to]);
        int yes = cli_yes_no(question);
        return yes < 0 ? ACT_LEAVE : yes ? ACT_RESIGN : CMD_DONE;
    }
    if (strcmp(line, "help") == 0 || strcmp(line, "?") == 0)
        fputs(human_help, stdout);
    else if (strcmp(line, "board") == 0 || strcmp(line, "board compact") == 0 ||
             strcmp(line, "board full") == 0) {
        if (line[5])
            P->form = line[6] == 'c' ? CLI_BOARD_COMPACT : CLI_BOARD_FULL;
        const kemet_pos *at = P->mid_set ? &P->mid : pos;
        int mark = P->mid_set ? P->mid_mark : P->mark;
        if (P->form == CLI_BOARD_FULL &&
            cli_board_form(P->rules, P->form, stdout, P->rows) !=
                CLI_BOARD_FULL) {
            /* asked for, it is drawn; the turns keep the form that fits */
            cli_board_as(P->rules, at, mark, stdout, CLI_BOARD_FULL);
            cli_say(stdout, 2, 4,
                    "(The full board is too tall to stay on a screen of %d "
                    "rows with the moves: the turns show the compact form.)",
                    P->rows);
        } else
            cli_board_in(P->rules, at, mark, stdout, P->form, P->rows);
    } else if (strcmp(line, "hint") == 0)
        show_hint(P, t, moves, n, NULL);
    else if (strcmp(line, "review") == 0)
        review_summary(P, false);
    else if (strcmp(line, "pos") == 0)
        show_position(P, t);
    else if (strcmp(line, "auto on") == 0 || strcmp(line, "auto off") == 0 ||
             strcmp(line, "auto") == 0) {
        P->auto_ = strcmp(line, "auto") == 0 ? !P->auto_ : line[6] == 'n';
        printf("  A forced move (the only one) is %s.\n",
               P->auto_ ? "played for you from now on"
                        : "offered for you to play");
    } else if (strcmp(line, "why") == 0)
        explain_computer(P);
    else if (strcmp(line, "takeback") == 0 || strcmp(line, "take back") == 0) {
        if (P->seat[0].human && P->seat[1].human) {
            printf("  Between two people a move stands (take-back is against "
                   "the computer).\n");
            return CMD_DONE;
        }
        /* told here, at the prompt, where it stays (with the steps of a
           turn begun) */
        if (kemet_game_last_move(P->game, pos->to) < 0) {
            printf("  There is no move of yours to take back.\n");
            return CMD_DONE;
        }
        return ACT_TAKEBACK;
    } else if (strcmp(line, "rules") == 0)
        fputs(P->info->text, stdout);
    else
        return CMD_NONE;
    return CMD_DONE;
}

/* Asks the human to pick from `moves` (or, before a throw, to throw: index
 * ACT_THROW). Returns the index, or an action: ACT_TYPED with a turn
 * not in the list as written (its steps in another order, or entered step
 * by step) in *chosen. */
static int ask_human(play *P, const kemet_throw *t, const kemet_move *moves,
                     int n, kemet_move *chosen) {
    const kemet_pos *pos = kemet_game_pos(P->game);
    bool prethrow = t == NULL;
    char line[256], buf[128], why[256];
    /* the choices: as many as the screen holds ('more': a screenful
       more, 'list': all of them) */
    if (prethrow) {
        printf("  0) throw the sticks\n");
        P->used++;
    }
    int from = 0, show = room_for(P, n);
    for (;;) {
        for (int i = from; i < from + show; i++) {
            kemet_move_format(&moves[i], buf, sizeof buf);
            char pv[160];
            preview(P, pos, t, &moves[i], pv, sizeof pv);
            tell(P, 2, 6, "%d) %-8s %s%s%s", i + 1, buf,
                 prethrow ? "instead of throwing" : "",
                 (*pv && prethrow) ? ", " : "", pv);
        }
        if (show && from + show < n)
            tell(P, 2, 4,
                 "... and %d more ('more': the next ones; 'list': all of "
                 "them)",
                 n - from - show);
        if (show)
            from += show;
        show = 0;
        printf("%s> ", P->info->player[pos->to - 1]);
        fflush(stdout);
        P->used++;
        int got = cli_read_line(line, sizeof line);
        if (got == CLI_LINE_END)
            return ACT_LEAVE;
        if (got != CLI_LINE_OK || !line[0])
            continue;
        if (strcmp(line, "undo") == 0) {
            /* a value of this turn played already (Tab): taken back */
            if (undo_ply(P, t) >= 0)
                return ACT_UNDO;
            printf("  There is no step to undo ('takeback' takes back your "
                   "last move).\n");
            continue;
        }
        if (strcmp(line, "list") == 0) {
            if (prethrow)
                printf("  0) throw the sticks\n");
            from = 0;
            show = n;
            continue;
        }
        if (strcmp(line, "more") == 0) {
            if (from >= n)
                from = 0; /* round again */
            P->used = 0;  /* a screenful of them */
            show = room_for(P, n - from);
            continue;
        }
        int cmd = command(P, line, t, moves, n);
        if (cmd < 0)
            return cmd;
        if (cmd)
            continue;
        if (prethrow && (strcmp(line, "0") == 0 || strcmp(line, "throw") == 0))
            return ACT_THROW;
        long k;
        if (cli_number(line, &k)) {
            if (k >= 1 && k <= n)
                return (int)k - 1;
            if (n == 1)
                cli_say(stdout, 2, 4, "There is no choice %s: pick 1%s.", line,
                        prethrow ? " or 0 to throw" : "");
            else
                cli_say(stdout, 2, 4, "There is no choice %s: pick 1-%d%s.",
                        line, n, prethrow ? " or 0 to throw" : "");
            continue;
        }
        kemet_move m;
        kemet_error err;
        if (kemet_move_parse(P->rules, line, &m, &err)) {
            not_a_move(line, &err, &moves[0]);
            continue;
        }
        for (int i = 0; i < n; i++)
            if (kemet_move_equal(&m, &moves[i]))
                return i;
        kemet_pos after;
        if (!prethrow &&
            kemet_apply(P->rules, pos, t, &m, &after, NULL) == KEMET_OK) {
            *chosen = m; /* the steps of a listed turn in another order */
            return ACT_TYPED;
        }
        /* a turn begun with its first step(s): several values, or one
           value shared out among pieces (Piccione) */
        static kemet_move probe[KEMET_MAX_MOVES];
        if (!prethrow && (t->n > 1 || kemet_next_steps(P->rules, pos, t, &m,
                                                       probe, NULL) > 0)) {
            int stepped = step_by_step(P, t, moves, n, &m, chosen);
            P->mid_set = false;
            if (stepped == ACT_RESTART) {
                /* the turn's screen again: its board, the throw, the
                   choices from the first */
                putchar('\n');
                P->used += 1 + cli_board_in(P->rules, pos, P->mark, stdout,
                                            P->form, P->rows);
                P->used += status(P, stdout);
                show_throw(P, t);
                from = 0;
                show = room_for(P, n);
                continue;
            }
            if (stepped != 0)
                return stepped;
            continue;
        }
        kc_explain(P->rules, pos, t, &m, why, sizeof why);
        cli_say(stdout, 2, 4, "%s is not allowed: %s.", line, why);
    }
}

/* Ply i's piece, marked on the board: where the ply's move ended (a
 * pre-throw move's first step; 0 for a pass or no ply). */
static int mark_of(const play *P, long i) {
    const kemet_ply *h = kemet_game_history(P->game);
    if (i < 0 || !h)
        return 0;
    const kemet_move *m = &h[i].move;
    int mover = kemet_game_mover(P->game, i);
    if (!h[i].thr.n)
        return kemet_square_cell(P->rules, mover, m->step[0].to);
    return m->n ? kemet_square_cell(P->rules, mover, m->step[m->n - 1].to) : 0;
}

/* The folder holding `path` on the disk too, so that a rename into it
 * survives a power cut (where the file system allows it; best effort). */
static void sync_folder(const char *path) {
    char *dir = strdup(path);
    if (!dir)
        return;
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir] = '\0'; /* "/x" -> "/" */
    int fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

/* The whole record as the game stands (kemet_game_record) into a new file
 * beside the record, renamed over it: the file is at every moment a whole
 * record, of the game before this change or after it. `durable`: on the
 * disk (fsync) before it replaces the old one, so that not even a power
 * cut loses a ply. 0, or an errno. */
static int write_whole(const play *P, bool durable) {
    char *text;
    if (kemet_game_record(P->game, &text))
        return ENOMEM;
    size_t len = strlen(P->record_at) + sizeof ".XXXXXX";
    char *tmp = malloc(len);
    if (!tmp) {
        free(text);
        return ENOMEM;
    }
    snprintf(tmp, len, "%s.XXXXXX", P->record_at);
    int e = 0, fd = mkstemp(tmp);
    if (fd < 0)
        e = errno;
    else {
        size_t n = strlen(text), at = 0;
        while (!e && at < n) {
            ssize_t w = write(fd, text + at, n - at);
            if (w >= 0)
                at += (size_t)w;
            else if (errno != EINTR)
                e = errno;
        }
        if (!e && fchmod(fd, P->record_mode) != 0)
            e = errno;
        if (!e && durable && fsync(fd) != 0)
            e = errno;
        if (close(fd) != 0 && !e)
            e = errno;
        if (!e && rename(tmp, P->record_at) != 0)
            e = errno;
        if (e)
            unlink(tmp);
        else if (durable)
            sync_folder(P->record_at);
    }
    free(tmp);
    free(text);
    return e;
}

/* Writes the record again after the game changed (a ply, a take-back, the
 * end). Each ply of a game a person plays is made durable (it may be the
 * person's); between two computers only the end is, the rest being
 * written some 1,000 times a game. A failure is told once; the game goes
 * on, and its end says whether the record was written then. */
static void save_record(play *P, bool end) {
    if (!P->record)
        return;
    int e = write_whole(P, end || P->seat[0].human || P->seat[1].human);
    if (e && !P->record_errno)
        cli_fail("writing the record '%s' failed: %s", P->record, strerror(e));
    P->record_errno = e;
}

/* After a ply: the piece it moved marked, the record written again. */
static void after_ply(play *P) {
    P->mark = mark_of(P, kemet_game_plies(P->game) - 1);
    save_record(P, false);
}

/* A ply the game could not take (no memory for its history): it ends. */
static int cannot_go_on(int rc) {
    printf("  The game cannot go on: %s.\n",
           rc == KEMET_ENOMEM ? "out of memory" : "the library refused a ply");
    return ACT_LEAVE;
}

/* The computer's choice for kemet_game_step_with, made as kemet_game_step
 * makes it, and kept for 'why' where there was a choice to explain. */
static int computer_choose(void *ctx, const kemet_pos *pos,
                           const kemet_throw *thr, const kemet_move *moves,
                           int n) {
    play *P = ctx;
    int k = kemet_agent_choose(P->seat[pos->to - 1].agent, pos, thr, moves, n);
    if (thr ? n == 1 : n == 0)
        return k; /* no choice: nothing for 'why' */
    P->why_set = true;
    P->why_seat = pos->to;
    P->why_pos = *pos;
    P->why_thr = thr ? *thr : (kemet_throw){0};
    P->why_threw = k < 0;
    if (k >= 0)
        P->why_move = moves[k];
    return k;
}

/* The computer's whole turn (every ply until the other side is to move,
 * by the game's own throw-and-choose loop), told on one line as the
 * scoresheet of a backgammon program tells it: "Black (greedy) throws 3,
 * 4: 5-8, 8-12 (swaps with a piece of White)." A move made instead of
 * throwing is told as such. */
static int computer_turn(play *P) {
    int me = kemet_game_pos(P->game)->to;
    const char *who = P->info->player[me - 1];
    char thr[512] = "", mv[1024] = "";
    int nthr = 0, rc;
    bool several = false; /* a throw of several values: ";" between them */
    bool opening = opening_throw(P);
    while (kemet_game_next(P->game) != KEMET_NEXT_OVER &&
           kemet_game_pos(P->game)->to == me) {
        kemet_events ev;
        long plies = kemet_game_plies(P->game);
        if (!kemet_game_throw(P->game)) {
            if ((rc = kemet_game_step_with(P->game, computer_choose, P,
                                           P->scratch, &ev)))
                return cannot_go_on(rc);
        }
        kemet_throw t = {0};
        if (kemet_game_plies(P->game) == plies) { /* the sticks thrown */
            const kemet_throw *thrown = kemet_game_throw(P->game);
            if (!thrown) /* (neither a move nor a throw: cannot be) */
                return cannot_go_on(KEMET_EMISUSE);
            t = *thrown;
            if ((rc = kemet_game_step_with(P->game, computer_choose, P,
                                           P->scratch, &ev)))
                return cannot_go_on(rc);
            char v[96];
            throw_text(P, &t, v, sizeof v);
            /* (a throw's values still to play, Tab's, are no new throw) */
            if (t.sticks != KEMET_KEPT) {
                several |= t.n > 1;
                append(thr, sizeof thr, "%s%s", nthr++ ? "\x01" : "", v);
            }
        }
        const kemet_move *m = &kemet_game_history(P->game)[plies].move;
        char buf[160], note[160];
        if (m->n)
            kemet_move_format(m, buf, sizeof buf);
        else
            snprintf(buf, sizeof buf, "no move");
        notes(P, me, &ev, 0, ev.n, false, note, sizeof note);
        append(mv, sizeof mv, "%s%s%s%s%s%s", *mv ? ", " : "", buf,
               t.n ? "" : " instead of throwing", *note ? " (" : "", note,
               *note ? ")" : "");
        after_ply(P);
    }
    /* the throws, joined by ", " (or "; " between throws of several
       values, whose own values are joined by commas and "and") */
    char joined[600] = "";
    for (const char *s = thr; *s; s++)
        if (*s == '\x01')
            append(joined, sizeof joined, "%s", several ? "; " : ", ");
        else
            append(joined, sizeof joined, "%c", *s);
    const char *name = P->seat[me - 1].name;
    if (!nthr)
        tell(P, 0, 2, "%s (%s): %s.", who, name, mv);
    else if (opening && nthr == 1)
        tell(P, 0, 2, "%s (%s) play%s the opening throw %s: %s.", who, name,
             cli_plural(who) ? "" : "s", joined, mv);
    else if (opening)
        tell(P, 0, 2,
             "%s (%s) play%s the opening throw, then throw on (%s): %s.", who,
             name, cli_plural(who) ? "" : "s", joined, mv);
    else
        tell(P, 0, 2, "%s (%s) throw%s %s: %s.", who, name,
             cli_plural(who) ? "" : "s", joined, mv);
    return ACT_PLAYED;
}

/* A person's move made, told on a line as the computer's are ("White
 * moves 1-4 (swaps with a piece of Black)."; a pass in the words of the
 * rules): the first line of the next screen, after `kept` lines. */
static int human_move(play *P, const kemet_move *m, int kept) {
    kemet_events ev;
    int me = kemet_game_pos(P->game)->to;
    int rc = kemet_game_play(P->game, m, &ev);
    if (rc)
        return cannot_go_on(rc);
    P->used = kept;
    if (m->n) {
        const char *who = P->info->player[me - 1];
        char buf[160], note[160];
        kemet_move_format(m, buf, sizeof buf);
        notes(P, me, &ev, 0, ev.n, true, note, sizeof note);
        tell(P, 2, 4, "%s move%s %s%s%s%s.", who, cli_plural(who) ? "" : "s",
             buf, *note ? " (" : "", note, *note ? ")" : "");
    } else
        P->used += cli_describe(P->rules, &ev, stdout);
    after_ply(P);
    return ACT_PLAYED;
}

/* One ply: pre-throw choice or throw and move; the computer's whole turn.
 * Returns ACT_PLAYED, or the action that ended it otherwise (ACT_LEAVE,
 * ACT_RESIGN, ACT_TAKEBACK). */
static int ply(play *P) {
    const kemet_pos *pos = kemet_game_pos(P->game);
    int me = pos->to - 1;
    if (!P->seat[me].human)
        return computer_turn(P);
    kemet_move moves[KEMET_MAX_MOVES];
    /* a throw already made: the opening's, or one a take-back left */
    const kemet_throw *pending = kemet_game_throw(P->game);
    int n = pending ? 0 : kemet_prethrow(P->rules, pos, moves);
    if (n > 0) {
        tell(P, 0, 2,
             "%s: before throwing you may instead:", P->info->player[me]);
        kemet_move unused;
        int k = ask_human(P, NULL, moves, n, &unused);
        if (act_ends_ply(k))
            return k;
        if (k >= 0)
            return human_move(P, &moves[k], 0);
    }
    kemet_throw t;
    if (pending)
        t = *pending;
    else
        kemet_game_roll(P->game, &t);
    int at = P->used;
    show_throw(P, &t);
    int thrown = P->used - at; /* the throw's lines */
    n = kemet_moves(P->rules, pos, &t, moves);
    int k = 0;
    if (n == 1 && moves[0].n == 0) {
        /* pass: nothing to choose; the throw's lines stay in the next
           screen with it */
        return human_move(P, &moves[0], thrown);
    } else if (n == 1 && P->auto_) {
        char buf[128];
        kemet_move_format(&moves[0], buf, sizeof buf);
        P->used = thrown; /* the throw stays in the next screen with it */
        tell(P, 2, 4, "The only move, %s, is played ('auto off' to be asked).",
             buf);
        return human_move(P, &moves[0], P->used);
    } else {
        kemet_move typed;
        k = ask_human(P, &t, moves, n, &typed);
        if (act_ends_ply(k))
            return k;
        if (k == ACT_TYPED)
            return human_move(P, &typed, 0); /* the turn as entered */
    }
    return human_move(P, &moves[k], 0);
}

/* Seat p played by `spec` ("human" or an agent). `level`: the play level
 * the seat was given (--level, or a record's player that is the ruleset's
 * agent for a level), 0 for an agent the user named, which keeps its
 * name. */
static int setup_seat(play *P, int p, const char *spec, int level,
                      uint64_t seed) {
    seat *S = &P->seat[p];
    snprintf(S->spec, sizeof S->spec, "%s", spec);
    if (strcmp(spec, "human") == 0) {
        S->human = true;
        snprintf(S->name, sizeof S->name, "you");
        if (P->seat[p ^ 1].human && p == 1)
            snprintf(S->name, sizeof S->name, "human");
        return 0;
    }
    kemet_error err;
    if (kemet_agent_new_judged(P->judge, spec, seed, &S->agent, &err))
        return cli_fail("--p%d: %s (or human)", p + 1, err.msg);
    snprintf(S->spec, sizeof S->spec, "%s", kemet_agent_spec(S->agent));
    if (level)
        snprintf(S->name, sizeof S->name, "the computer, level %d", level);
    else
        snprintf(S->name, sizeof S->name, "%s", kemet_agent_spec(S->agent));
    return 0;
}

/* The play level whose agent `spec` is in this ruleset, or 0. */
static int level_of(const kemet_rules *r, const char *spec) {
    for (int l = 1; l <= KEMET_LEVELS; l++) {
        const char *a = kemet_rules_level_agent(r, l);
        if (a && strcmp(a, spec) == 0)
            return l;
    }
    return 0;
}

/* --position: the position set up (`pos`) and its ruleset's spec; it must
 * be a game going on, on a built-in board, of the ruleset `named` (when
 * one is). 0, or EXIT_BAD after a message. */
static int read_position(const char *position, const char *board,
                         const char *named, kemet_pos *pos, char *spec,
                         size_t len) {
    if (board)
        return cli_fail("play: --position starts a game on a built-in "
                        "board; not with --board");
    kemet_rules *pr;
    kemet_error err;
    if (named && cli_rules_file_named(named)) {
        /* the ruleset named by its file: read it before the position */
        kemet_rules *fr = cli_rules(named, NULL);
        if (!fr)
            return EXIT_BAD;
        kemet_rules_close(fr);
    }
    if (cli_pos_parse(position, NULL, &pr, pos, &err))
        return cli_fail("play: --position: %s", err.msg);
    if (!pr)
        return cli_fail("play: --position: the position names no "
                        "ruleset");
    snprintf(spec, len, "%s", kemet_rules_spec(pr));
    kemet_rules_close(pr);
    if (pos->result != KEMET_PLAYING)
        return cli_fail("play: --position: the game is over in that "
                        "position");
    if (named) {
        kemet_rules *nr = cli_rules(named, NULL);
        if (!nr)
            return EXIT_BAD;
        bool same = strcmp(kemet_rules_spec(nr), spec) == 0;
        kemet_rules_close(nr);
        if (!same)
            return cli_fail("play: --position is a position of %s, not "
                            "of %s",
                            spec, named);
    }
    return 0;
}

/* The game's header: its title and source, the players, the seed, the
 * start, and what the opening did (`ev`). */
static void show_header(play *P, const kemet_events *ev) {
    char line[1024];
    char start_line[512];
    kemet_pos_format(P->rules, kemet_game_start(P->game), start_line,
                     sizeof start_line);
    /* the header, wrapped to the terminal (at most 80 columns) */
    int width = cli_text_width(stdout);
    /* the game by its author and year ('kemet rules' says more) */
    char year[24] = "year not given";
    if (P->info->year)
        snprintf(year, sizeof year, "%d", P->info->year);
    snprintf(line, sizeof line, "%s: %s, %s.", P->info->title, P->info->author,
             year);
    cli_wrap(stdout, line, width, 0);
    snprintf(line, sizeof line,
             "%s (%c) is player 1, %s (%c) player 2. Seed %llu.",
             P->info->player[0], P->info->glyph[0], P->info->player[1],
             P->info->glyph[1], (unsigned long long)kemet_game_seed(P->game));
    cli_wrap(stdout, line, width, 0);
    printf("Start: %s\n", start_line);
    cli_wrap(stdout,
             "Type 'help' at your turn for commands ('pos': the position).",
             width, 0);
    putchar('\n');
    P->used = 1 + cli_describe(P->rules, ev, stdout); /* the first screen's */
    if (P->black && P->seat[0].human != P->seat[1].human) {
        /* the opening seated the person and the computer (Jequier's) */
        snprintf(line, sizeof line,
                 P->seat[1].human ? "  You threw the 1 first: you play %s."
                                  : "  The computer threw the 1 first: it "
                                    "plays %s, you %s.",
                 P->info->player[1], P->info->player[0]);
        cli_wrap(stdout, line, width, 2);
        P->used++;
    }
}

/* The plies until the game ends, is resigned or is left. */
static void play_game(play *P) {
    int last_to = 0, mover = 0;
    while (kemet_game_next(P->game) != KEMET_NEXT_OVER) {
        const kemet_pos *pos = kemet_game_pos(P->game);
        long turns = kemet_game_turns(P->game);
        /* ruling G5: stopped before a turn beyond the cap would begin */
        if (P->max_turns && turns >= P->max_turns && pos->to != mover) {
            kemet_game_stop(P->game);
            long plies = kemet_game_plies(P->game);
            printf("\nThe game is stopped unfinished after %ld move%s (the "
                   "cap of %ld turn%s, --max-turns).\n",
                   plies, plies == 1 ? "" : "s", turns, turns == 1 ? "" : "s");
            break;
        }
        mover = pos->to;
        bool any_human = P->seat[0].human || P->seat[1].human;
        /* The board before each of a person's plies, not before the
         * computer's (its moves are told in words, and the person then sees
         * the board they made); every turn when only computers play. */
        bool draw = any_human ? P->seat[pos->to - 1].human : pos->to != last_to;
        if (draw) {
            if (!any_human)
                P->used = 0; /* a screen a turn */
            putchar('\n');
            P->used += 1 + cli_board_in(P->rules, pos, P->mark, stdout, P->form,
                                        P->rows);
            P->used += status(P, stdout);
            last_to = pos->to;
        }
        int who = pos->to;
        int got = ply(P);
        if (got == ACT_RESIGN) {
            kemet_game_resign(P->game, who);
            break;
        }
        if (got == ACT_UNDO) {
            /* the turn's last step (a ply of its own), its value to play
               again with the others still to play */
            long i = undo_ply(P, kemet_game_throw(P->game));
            char buf[64];
            kemet_move m = kemet_game_history(P->game)[i].move;
            move_words(P, &m, buf, sizeof buf);
            kemet_game_back(P->game, i);
            P->used = 0;
            char left[96];
            throw_text(P, kemet_game_throw(P->game), left, sizeof left);
            tell(P, 2, 4, "Step %s taken back: %s to play.", buf, left);
            P->mark = mark_of(P, kemet_game_plies(P->game) - 1);
            save_record(P, false);
            last_to = 0;
            mover = 0;
            continue;
        }
        if (got == ACT_TAKEBACK) {
            /* the library's rule: back to the person's last choice (a
               pass is none), the throw it used pending again */
            /* (command() has seen that there is a move to take back) */
            if (kemet_game_takeback(P->game, who) != KEMET_OK)
                tell(P, 2, 4, "There is no move of yours to take back.");
            else {
                P->used = 0; /* the first line of the next screen */
                tell(P, 2, 4,
                     "Taken back: your last move, and what followed it. "
                     "The same throw comes again.");
                P->why_set = false;
                P->mark = mark_of(P, kemet_game_plies(P->game) - 1);
                save_record(P, false);
                last_to = 0;
                mover = 0;
            }
            continue;
        }
        if (got == ACT_LEAVE) {
            long n = kemet_game_plies(P->game);
            printf("\nGame left unfinished after %ld move%s.\n", n,
                   n == 1 ? "" : "s");
            char again[PATH_MAX + 16];
            rules_file_game(P, again, sizeof again);
            if (P->kept)
                cli_say(stdout, 0, 2,
                        "It is kept: 'kemet play --resume%s' goes on with it.",
                        again);
            else if (P->record)
                cli_say(stdout, 0, 2,
                        "Its record is %s: 'kemet play --resume %s%s' goes on "
                        "with it.",
                        P->record, P->record, again);
            break;
        }
    }
}

/* The end: the result (a resignation made one), the board, the review
 * for the people who played, and the record written as the game ended.
 * 0, or EXIT_BAD when the record could not be written. */
static int finish(play *P) {
    int rc = 0;
    int resigned = kemet_game_resigned(P->game), w = kemet_game_result(P->game);
    kemet_pos end = *kemet_game_pos(P->game);
    end.result = (uint8_t)w;
    if (resigned)
        printf("\n%s resign%s.\n", P->info->player[resigned - 1],
               cli_plural(P->info->player[resigned - 1]) ? "" : "s");
    if (w != KEMET_PLAYING) {
        putchar('\n');
        cli_board_in(P->rules, &end, P->mark, stdout, P->form, P->rows);
        long moves = kemet_game_plies(P->game);
        /* what the result is worth where the rules count it: Bell's
           score, Jequier's points */
        char worth[96] = "";
        int points = kemet_points(P->rules, &end);
        if (P->info->scores)
            snprintf(worth, sizeof worth, ", %d pieces borne off to %d",
                     end.off[w == KEMET_WON2], end.off[w != KEMET_WON2]);
        else if (points > 0)
            snprintf(worth, sizeof worth, ", worth %d point%s", points,
                     points == 1 ? "" : "s");
        if (w == KEMET_DRAW)
            printf("The game is drawn after %ld move%s%s.\n", moves,
                   moves == 1 ? "" : "s", worth);
        else
            printf("%s (%s) win%s after %ld move%s%s.\n",
                   P->info->player[w - 1], P->seat[w - 1].name,
                   cli_plural(P->info->player[w - 1]) ? "" : "s", moves,
                   moves == 1 ? "" : "s", worth);
        if (P->seat[0].human || P->seat[1].human) {
            putchar('\n');
            review_summary(P, true);
        }
    }
    if (P->record) {
        save_record(P, true);
        if (P->record_errno)
            rc = cli_fail("writing the record '%s' failed: %s", P->record,
                          strerror(P->record_errno));
        else if (P->kept && w != KEMET_PLAYING)
            cli_say(stdout, 0, 2, "The game is kept; its record: %s",
                    P->record);
        else if (!P->kept)
            cli_say(stdout, 0, 2,
                    "The record is in %s ('kemet replay %s' checks it).",
                    P->record, P->record);
    }
    return rc;
}

/* --record FILE: made empty (it must not exist yet; a record is never
 * overwritten), then written whole as the game stands. 0, or EXIT_BAD
 * after a message. */
static int create_record(play *P, const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0)
        return errno == EEXIST
                   ? cli_fail("cannot create record '%s': it exists already "
                              "(a record is never overwritten; it must not "
                              "exist yet)",
                              path)
                   : cli_fail("cannot create record '%s': %s", path,
                              strerror(errno));
    struct stat st;
    P->record_mode = fstat(fd, &st) == 0 ? st.st_mode & 07777 : 0644;
    close(fd);
    P->record = path;
    if (!(P->record_at = malloc(strlen(path) + 1))) {
        unlink(path);
        return cli_fail("out of memory");
    }
    strcpy(P->record_at, path);
    int e = write_whole(P, true);
    if (e) {
        unlink(path);
        return cli_fail("cannot create record '%s': %s", path, strerror(e));
    }
    return 0;
}

/* --resume FILE: the record goes on being written, whole, where it is
 * (a link's target). 0, or EXIT_BAD after a message. */
static int reopen_record(play *P, const char *path) {
    struct stat st;
    P->record = path;
    if (!(P->record_at = realpath(path, NULL)) || stat(P->record_at, &st) != 0)
        return cli_fail("cannot write the record '%s': %s", path,
                        strerror(errno));
    P->record_mode = st.st_mode & 07777;
    /* a record the user may not write is not replaced (a rename would) */
    if (access(P->record_at, W_OK) != 0)
        return cli_fail("cannot write the record '%s': %s", path,
                        strerror(errno));
    int e = write_whole(P, true);
    if (e)
        return cli_fail("cannot write the record '%s': %s", path, strerror(e));
    return 0;
}

/* ---------------------------------------------------------------------------
 * The games kept for a player: a game a person plays at a terminal is
 * written as it goes (as with --record) into the state folder,
 * $XDG_STATE_HOME/kemet/games (else ~/.local/state/kemet/games), so that
 * quitting, a closed terminal or a crash loses nothing and 'kemet play
 * --resume' goes on with it, as the page keeps its games in the browser.
 * ------------------------------------------------------------------------ */

/* The folder of the kept games into buf: 0, or -1 where there is no home
 * to keep them in. */
static int games_dir(char *buf, size_t len) {
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, len, "%s/kemet/games", xdg);
    else if (home && home[0])
        n = snprintf(buf, len, "%s/.local/state/kemet/games", home);
    else
        return -1;
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Makes the folder `path` and those above it (mode 0700: a player's
 * games are their own). 0, or an errno. */
static int make_folders(const char *path) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = buf + 1;; s++) {
        if (*s != '/' && *s)
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return errno;
        if (!c)
            return 0;
        *s = c;
    }
}

/* Keeps the new game in the games folder (a record named after the time
 * and the ruleset, never one that exists). A failure is told, and the
 * game goes on unkept. */
static void keep_game(play *P) {
    char dir[PATH_MAX - 64];
    int e = games_dir(dir, sizeof dir) ? ENOENT : make_folders(dir);
    if (!e) {
        time_t now = time(NULL);
        struct tm tm;
        char when[32];
        localtime_r(&now, &tm);
        strftime(when, sizeof when, "%Y%m%d-%H%M%S", &tm);
        for (int k = 1; k < 100; k++) {
            char suffix[8] = "";
            if (k > 1)
                snprintf(suffix, sizeof suffix, "-%d", k);
            snprintf(P->kept_path, sizeof P->kept_path, "%s/%s-%s%s.record",
                     dir, when, P->info->id, suffix);
            int fd = open(P->kept_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
            if (fd < 0 && errno == EEXIST)
                continue;
            if (fd < 0) {
                e = errno;
                break;
            }
            close(fd);
            P->record_mode = 0600;
            P->record = P->kept_path;
            P->record_at = strdup(P->kept_path);
            if (!P->record_at || (e = write_whole(P, true)) != 0) {
                e = P->record_at ? e : ENOMEM;
                unlink(P->kept_path);
                free(P->record_at);
                P->record_at = NULL;
                P->record = NULL;
            } else
                P->kept = true;
            break;
        }
    }
    if (!P->kept)
        cli_say(stdout, 0, 2,
                "(This game cannot be kept to resume later: %s. It goes on; "
                "--record FILE keeps it elsewhere.)",
                e ? strerror(e) : "no free name");
}

/* A kept game, for the list 'kemet play --resume' shows. */
typedef struct kept_game {
    char path[PATH_MAX];
    time_t when;
    char about[200];
} kept_game;

static int by_newest(const void *a, const void *b) {
    const kept_game *x = a, *y = b;
    return (x->when < y->when) - (x->when > y->when);
}

/* 'kemet play --resume' with no file: the unfinished games kept, newest
 * first, and the one the player picks (Enter: the newest) in `chosen`.
 * 0, or EXIT_BAD after a message (none kept, none picked). */
static int pick_kept(char *chosen, size_t len) {
    char dir[PATH_MAX - 64];
    if (games_dir(dir, sizeof dir))
        return cli_fail("play: --resume: no home folder to keep games in "
                        "(HOME is not set); name a record: --resume FILE");
    DIR *d = opendir(dir);
    kept_game *list = NULL;
    long n = 0, cap = 0, of_files = 0; /* games of a ruleset file not read */
    for (struct dirent *de; d && (de = readdir(d));) {
        size_t l = strlen(de->d_name);
        if (l < 8 || strcmp(de->d_name + l - 7, ".record") != 0)
            continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >=
            (int)sizeof path)
            continue; /* a name too long to open */
        struct stat st;
        char *text = stat(path, &st) == 0 && st.st_size < (8 << 20)
                         ? cli_read_file(path, (size_t)8 << 20)
                         : NULL;
        kemet_rules *r = NULL;
        kemet_pos start;
        kemet_ply *plies = NULL;
        long np;
        kemet_error err;
        kemet_game *g = NULL;
        int bad = text ? kemet_record_read_text(text, cli_rules_text(), &r,
                                                &start, &plies, &np, &err)
                       : 1;
        if (bad && text && strstr(err.msg, "a game of a ruleset file"))
            of_files++;
        if (!bad && !kemet_game_read(r, text, &g, &err) &&
            (kemet_game_next(g) != KEMET_NEXT_OVER || kemet_game_stopped(g)) &&
            !kc_grow(&list, &cap, n, sizeof *list)) {
            kept_game *k = &list[n++];
            snprintf(k->path, sizeof k->path, "%s", path);
            k->when = st.st_mtime;
            const kemet_info *info = kemet_rules_info(r);
            /* who plays it: you (the one person), against whom */
            char side[2][64];
            int people = 0, you = 0;
            for (int p = 0; p < 2; p++) {
                const char *who = kemet_game_player(g, p + 1);
                int lv = level_of(r, who);
                if (!strcmp(who, "human")) {
                    people++;
                    you = p;
                } else if (lv)
                    snprintf(side[p], sizeof side[p], "the computer, level %d",
                             lv);
                else
                    snprintf(side[p], sizeof side[p], "%s", who);
            }
            char seats[160];
            if (people == 2)
                snprintf(seats, sizeof seats, "two people");
            else
                snprintf(seats, sizeof seats, "you as %s against %s",
                         info->player[you], side[1 - you]);
            char at[32];
            struct tm tm;
            localtime_r(&k->when, &tm);
            strftime(at, sizeof at, "%d %b %H:%M", &tm);
            long m = kemet_game_plies(g);
            if (snprintf(k->about, sizeof k->about, "%s: %s, %ld move%s, %s",
                         info->title, seats, m, m == 1 ? "" : "s",
                         at) >= (int)sizeof k->about)
                memcpy(k->about + sizeof k->about - 4, "...", 4);
        }
        kemet_game_free(g);
        free(plies);
        kemet_rules_close(r);
        free(text);
    }
    if (d)
        closedir(d);
    /* a ruleset file's games are read with the file (--rules FILE) */
    char files[120] = "";
    if (of_files)
        snprintf(files, sizeof files,
                 "%ld game%s of a ruleset file %s listed with the file: "
                 "'kemet play --resume --rules FILE'",
                 of_files, of_files == 1 ? "" : "s",
                 of_files == 1 ? "is" : "are");
    if (n == 0) {
        free(list);
        if (of_files)
            return cli_fail("play: --resume: no unfinished game of the "
                            "built-in rulesets is kept (in %s); %s",
                            dir, files);
        return cli_fail("play: --resume: no unfinished game is kept (in %s); "
                        "name a record: --resume FILE",
                        dir);
    }
    qsort(list, (size_t)n, sizeof *list, by_newest);
    printf("Unfinished games (kept in %s):\n", dir);
    for (long i = 0; i < n; i++)
        cli_say(stdout, 2, 6, "%ld) %s", i + 1, list[i].about);
    if (of_files)
        cli_say(stdout, 2, 2, "(%s.)", files);
    int rc = 0;
    for (;;) {
        char line[64];
        if (n > 1)
            printf("Which game? (1-%ld; Enter: 1) ", n);
        else
            printf("Go on with it? (Enter) ");
        fflush(stdout);
        int got = cli_read_line(line, sizeof line);
        if (got == CLI_LINE_END) {
            putchar('\n');
            rc = cli_fail("play: --resume: no game picked");
            break;
        }
        long k = 1;
        if (got == CLI_LINE_OK && line[0] &&
            (!cli_number(line, &k) || k < 1 || k > n)) {
            printf("  Pick a number from 1 to %ld.\n", n);
            continue;
        }
        snprintf(chosen, len, "%s", list[k - 1].path);
        break;
    }
    free(list);
    return rc;
}

/* --resume FILE: its text, checked, and its ruleset (spec, from its
 * ruleset line). 0, or EXIT_BAD after a message. */
static int read_resume(const char *path, char **text, char *spec, size_t len) {
    if (!(*text = cli_read_file(path, (size_t)64 << 20)))
        return EXIT_BAD;
    kemet_rules *r;
    kemet_pos start;
    kemet_ply *plies;
    long n;
    kemet_error err;
    if (kemet_record_read_text(*text, cli_rules_text(), &r, &start, &plies, &n,
                               &err)) {
        free(*text);
        *text = NULL;
        return cli_fail("%s: %s", path, err.msg);
    }
    snprintf(spec, len, "%s", kemet_rules_spec(r));
    kemet_rules_close(r);
    free(plies);
    return 0;
}

/* The game of a --resume record, standing where it left off (a game
 * stopped at a turn cap goes on). 0, or EXIT_BAD after a message. */
static int resume_game(play *P, const char *path, const char *text) {
    kemet_error err;
    if (kemet_game_read(P->rules, text, &P->game, &err))
        return cli_fail("%s: %s", path, err.msg);
    if (kemet_game_stopped(P->game))
        kemet_game_back(P->game, kemet_game_plies(P->game));
    if (kemet_game_next(P->game) == KEMET_NEXT_OVER)
        return cli_fail("%s: the game is over ('kemet review %s' reviews it)",
                        path, path);
    return 0;
}

static int play_args(int argc, char **argv) {
    const char *p1 = "human", *p2 = NULL, *record = NULL, *board = NULL,
               *resume = NULL, *position = NULL;
    long level = 0, side = 1, max_turns = -1;
    uint64_t seed = 0;
    bool have_seed = false, autoplay = false, compact = false, no_save = false,
         resume_kept = false;
    const char *ruleset = "senet-kendall";
    const char *arg[1];
    int npos;
    cli_opt opts[] = {{"p1", OPT_STRING, &p1, 0, 0},
                      {"p2", OPT_STRING, &p2, 0, 0},
                      {"seed", OPT_U64, &seed, 0, 0},
                      {"record", OPT_STRING, &record, 0, 0},
                      {"board", OPT_STRING, &board, 0, 0},
                      {"level", OPT_LONG, &level, 1, KEMET_LEVELS},
                      {"side", OPT_LONG, &side, 1, 2},
                      {"resume", OPT_STRING, &resume, 0, 0},
                      {"position", OPT_STRING, &position, 0, 0},
                      {"tables", OPT_STRING, &cli_tables, 0, 0},
                      {"net", OPT_STRING, &cli_net, 0, 0},
                      {"auto", OPT_FLAG, &autoplay, 0, 0},
                      {"compact", OPT_FLAG, &compact, 0, 0},
                      {"max-turns", OPT_LONG, &max_turns, 0, LONG_MAX},
                      {"no-save", OPT_FLAG, &no_save, 0, 0},
                      /* (--resume with no file: cmd_play) */
                      {"resume-kept", OPT_FLAG, &resume_kept, 0, 0},
                      {NULL, OPT_FLAG, NULL, 0, 0}};
    int rc = cli_parse(argc, argv, opts, arg, 0, 1, &npos, play_usage);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (level && p2 && strcmp(p1, "human") == 0)
        return cli_fail("play: --level sets the computer player; give it or "
                        "--p2, not both");
    if (side == 2 && !level)
        level = 2; /* the default level, as the usage says */
    if (side == 2) {
        if (p2 || strcmp(p1, "human") != 0)
            return cli_fail("play: --side 2 makes you player 2 against the "
                            "computer; give --p1/--p2 instead, not both");
        p1 = level_seat;
        p2 = "human";
    }
    if (level && strcmp(p1, "human") != 0 && (!p2 || strcmp(p2, "human") == 0))
        p1 = level_seat; /* the human is player 2 */
    if (!p2)
        p2 = strcmp(p1, "human") == 0 ? level_seat : "greedy";
    if (!level)
        level = 2;
    bool seats_given = false, side_given = false;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--seed", 6) == 0)
            have_seed = true;
        if (strncmp(argv[i], "--side", 6) == 0 ||
            strncmp(argv[i], "--p1", 4) == 0 ||
            strncmp(argv[i], "--p2", 4) == 0)
            side_given = true;
        if (strncmp(argv[i], "--p1", 4) == 0 ||
            strncmp(argv[i], "--p2", 4) == 0 ||
            strncmp(argv[i], "--level", 7) == 0)
            seats_given = true;
    }
    char *resume_text = NULL, resume_spec[128], picked[PATH_MAX];
    if (resume_kept && resume)
        return cli_fail("play: --resume names one game, or none to pick one "
                        "of those kept");
    if (resume_kept)
        resume = "";
    if (resume) {
        if (npos || have_seed || record || board || position)
            return cli_fail("play: --resume takes the ruleset, the seed, the "
                            "start and the record from its file; give none "
                            "of them");
        if (!*resume) { /* no file: one of the games kept */
            if ((rc = pick_kept(picked, sizeof picked)))
                return rc;
            resume = picked;
        }
        if ((rc = read_resume(resume, &resume_text, resume_spec,
                              sizeof resume_spec)))
            return rc;
        ruleset = resume_spec;
    }
    if (!have_seed)
        seed = (uint64_t)time(NULL);
    if (npos && !resume)
        ruleset = arg[0];
    kemet_pos setup_pos;
    char setup_spec[128];
    if (position) {
        if ((rc = read_position(position, board, npos ? arg[0] : NULL,
                                &setup_pos, setup_spec, sizeof setup_spec)))
            return rc;
        ruleset = setup_spec;
    }
    if (record && board)
        return cli_fail("play: --record and --board together are not "
                        "supported: a record names only built-in boards");

    play P = {0};
    kemet_game *opening = NULL; /* a resumed game's opening, told again */
    P.rules = cli_rules(ruleset, board);
    if (!P.rules) {
        free(resume_text);
        return EXIT_BAD;
    }
    cli_tables_quiet = true; /* a player's game says nothing of files */
    if (!(P.judge = cli_judge(P.rules))) {
        kemet_rules_close(P.rules);
        free(resume_text);
        return EXIT_BAD;
    }
    P.info = kemet_rules_info(P.rules);
    P.rows = cli_rows(stdout);
    /* a seat given by its level is "the computer, level N" */
    int lv1 = p1 == level_seat ? (int)level : 0,
        lv2 = p2 == level_seat ? (int)level : 0;
    if (p1 == level_seat)
        p1 = kemet_rules_level_agent(P.rules, (int)level);
    if (p2 == level_seat)
        p2 = kemet_rules_level_agent(P.rules, (int)level);
    /* where the opening decides who plays black (Jequier's first 1), the
       player, named first, sits where it says unless told a side */
    if (!resume && !position && !side_given)
        P.black = kemet_opening_black(P.rules, seed);
    if (P.black == 1) {
        const char *t = p1;
        p1 = p2;
        p2 = t;
        int l = lv1;
        lv1 = lv2;
        lv2 = l;
    }
    if (!(P.scratch = malloc(KEMET_MAX_MOVES * sizeof *P.scratch))) {
        kemet_judge_free(P.judge);
        kemet_rules_close(P.rules);
        free(resume_text);
        return cli_fail("play: out of memory");
    }
    P.auto_ = autoplay;
    P.form = compact ? CLI_BOARD_COMPACT : CLI_BOARD_AUTO;
    rc = 0;
    kemet_events ev = {0};
    if (resume) {
        if ((rc = resume_game(&P, resume, resume_text)))
            goto out;
        seed = kemet_game_seed(P.game);
        if (!seats_given) {
            /* the record's players (a level's agent by its level) */
            p1 = kemet_game_player(P.game, 1);
            p2 = kemet_game_player(P.game, 2);
            lv1 = level_of(P.rules, p1);
            lv2 = level_of(P.rules, p2);
        }
        if (!kemet_game_is_setup(P.game)) {
            if (kemet_game_new(P.rules, seed, &opening, &ev)) {
                rc = cli_fail("play: out of memory");
                goto out;
            }
            P.opening_throw = kemet_game_throw(opening) != NULL;
        }
    } else if (position) {
        if (kemet_game_setup(P.rules, seed, &setup_pos, &P.game, NULL)) {
            rc = cli_fail("play: the game cannot start there");
            goto out;
        }
    } else {
        if (kemet_game_new(P.rules, seed, &P.game, &ev)) {
            rc = cli_fail("play: the game cannot start there");
            goto out;
        }
        P.opening_throw = kemet_game_throw(P.game) != NULL;
    }
    if (setup_seat(&P, 0, p1, lv1, seed ^ 0x5eed0001ULL) ||
        setup_seat(&P, 1, p2, lv2, seed ^ 0x5eed0002ULL)) {
        rc = EXIT_BAD;
        goto out;
    }
    /* two computers: the cap of sim and match unless told (ruling G5) */
    P.max_turns = max_turns >= 0                       ? max_turns
                  : P.seat[0].human || P.seat[1].human ? 0
                                                       : CLI_MAX_TURNS;
    if (P.seat[0].human && P.seat[1].human) /* two at one keyboard */
        for (int p = 0; p < 2; p++)
            snprintf(P.seat[p].name, sizeof P.seat[p].name, "player %d", p + 1);
    if (resume) {
        /* the record names the players who began it */
        if ((rc = reopen_record(&P, resume)))
            goto out;
        /* a game kept in the games folder stays a kept game */
        char dir[PATH_MAX - 64], *real = NULL;
        if (!games_dir(dir, sizeof dir) && (real = realpath(dir, NULL))) {
            size_t l = strlen(real);
            P.kept =
                strncmp(P.record_at, real, l) == 0 && P.record_at[l] == '/';
        }
        free(real);
        long n = kemet_game_plies(P.game);
        cli_say(stdout, 0, 2, "Resuming %s after %ld move%s.", resume, n,
                n == 1 ? "" : "s");
    } else {
        kemet_game_set_players(P.game, P.seat[0].spec, P.seat[1].spec);
        if (record && (rc = create_record(&P, record)))
            goto out;
        /* a person's game at a terminal is kept, as the page keeps its
           games, unless --no-save (a built-in board: records name no
           other) */
        bool person = P.seat[0].human || P.seat[1].human;
        if (!record && !no_save && !board && person && isatty(STDIN_FILENO))
            keep_game(&P);
        P.unkept = no_save ? "--no-save"
                   : board ? "a board file's game"
                           : "no terminal: see --record";
    }
    show_header(&P, &ev);
    play_game(&P);
    rc = finish(&P);
out:
    kemet_game_free(P.game);
    kemet_game_free(opening);
    free(P.record_at);
    free(P.scratch);
    free(resume_text);
    kemet_agent_free(P.hint);
    kemet_agent_free(P.seat[0].agent);
    kemet_agent_free(P.seat[1].agent);
    kemet_judge_free(P.judge);
    kemet_rules_close(P.rules);
    return rc;
}

int cmd_play(int argc, char **argv) {
    /* --resume with no file (the last argument, or before another
       option): the games kept, to pick one */
    char **args = malloc((size_t)(argc + 1) * sizeof *args);
    if (!args)
        return cli_fail("play: out of memory");
    for (int i = 0; i < argc; i++)
        args[i] = strcmp(argv[i], "--resume") == 0 &&
                          (i + 1 == argc || strncmp(argv[i + 1], "--", 2) == 0)
                      ? "--resume-kept"
                      : argv[i];
    args[argc] = NULL;
    int rc = play_args(argc, args);
    free(args);
    return rc;
}
