/* record.c - plain-text game records: writing their lines, and replaying a
 * record with every line checked.
 *
 * The format (one item per line; blank lines and lines starting with '#'
 * are ignored):
 *
 *   kemet-record 1                       always first
 *   ruleset ID[:OPTIONS]                 required
 *   seed N                               optional: the dice generator's seed
 *   player1 NAME / player2 NAME          optional, for people
 *   start POSITION                       optional: the position after the
 *                                        opening procedure
 *   setup POSITION                       or: the game was set up in this
 *                                        position, without the opening (the
 *                                        seed's throws begin with ply 1)
 *   P THROW MOVE                         one line per ply: the player (1/2),
 *                                        the throw ("none" before throwing),
 *                                        the move ("pass" when lost)
 *   result 1|2|0|stopped|unfinished      optional, last
 *
 * With a seed, replay draws the dice from it and requires each recorded
 * throw to be the one the dice gave: a tampered throw is found even when
 * its move would be legal.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The header lines; the last names the first position: `start` (after
 * the opening) or `setup` (set up, no opening). */
static int header_lines(const kemet_rules *rules, uint64_t seed,
                        const char *player1, const char *player2,
                        const char *key, const kemet_pos *first, char *buf,
                        size_t len) {
    char pos[512];
    if (!kmt_pos_usable(rules, first) || !player1 || !player2 || !buf)
        return KEMET_EMISUSE;
    if (kemet_pos_format(rules, first, pos, sizeof pos) < 0)
        return KEMET_ERANGE;
    /* A user's ruleset file is named by its text's hash as well
     * (docs/rulesets.md), so the record is never replayed under another. */
    char sha[96] = "";
    if (rules->user)
        snprintf(sha, sizeof sha, "rules-sha256 %s\n", rules->sha256);
    int k = snprintf(buf, len,
                     "kemet-record 1\nruleset %s\n%sseed %" PRIu64
                     "\nplayer1 %s\nplayer2 %s\n%s %s\n",
                     kemet_rules_spec(rules), sha, seed, player1, player2, key,
                     pos);
    return (k < 0 || (size_t)k >= len) ? KEMET_ERANGE : k;
}

int kemet_record_header(const kemet_rules *rules, uint64_t seed,
                        const char *player1, const char *player2,
                        const kemet_pos *start, char *buf, size_t len) {
    return header_lines(rules, seed, player1, player2, "start", start, buf,
                        len);
}

int kemet_record_setup(const kemet_rules *rules, uint64_t seed,
                       const char *player1, const char *player2,
                       const kemet_pos *setup, char *buf, size_t len) {
    return header_lines(rules, seed, player1, player2, "setup", setup, buf,
                        len);
}

int kemet_record_ply(const kemet_pos *before, const kemet_throw *thr,
                     const kemet_move *move, char *buf, size_t len) {
    char t[64], m[128];
    kemet_throw none = {0};
    if (!before || !move || !buf)
        return KEMET_EMISUSE;
    if (kemet_throw_format(thr ? thr : &none, t, sizeof t) < 0 ||
        kemet_move_format(move, m, sizeof m) < 0)
        return KEMET_ERANGE;
    int k = snprintf(buf, len, "%d %s %s\n", before->to, t, m);
    return (k < 0 || (size_t)k >= len) ? KEMET_ERANGE : k;
}

int kemet_record_resign(int player, char *buf, size_t len) {
    if (!buf || (player != 1 && player != 2))
        return KEMET_EMISUSE;
    int k = snprintf(buf, len, "resign %d\n", player);
    return (k < 0 || (size_t)k >= len) ? KEMET_ERANGE : k;
}

int kemet_record_result(const kemet_pos *pos, int stopped, char *buf,
                        size_t len) {
    int k;
    if (!pos || !buf)
        return KEMET_EMISUSE;
    if (pos->result == KEMET_PLAYING)
        k = snprintf(buf, len, "result %s\n",
                     stopped ? "stopped" : "unfinished");
    else
        k = snprintf(buf, len, "result %d\n",
                     pos->result == KEMET_DRAW ? 0 : pos->result);
    return (k < 0 || (size_t)k >= len) ? KEMET_ERANGE : k;
}

/* ---------------------------------------------------------------------------
 * Replay.
 * ------------------------------------------------------------------------ */
typedef struct replay {
    kemet_rules *rules;
    const char *rules_text; /* a user's ruleset file, or NULL */
    bool sha_seen;          /* its rules-sha256 line was read */
    kemet_pos pos;
    kemet_rng rng;
    bool seeded, started, ended, have_start, magic;
    bool set_up; /* the start was set up: no opening */
    bool forced; /* the opening made the first throw: R->first */
    kemet_throw first;
    kemet_pos start;
    long start_line; /* where the start position was given */
    long plies;
    kemet_ply *list; /* the plies, when they are kept (kemet_record_read) */
    long cap;
    bool keep;
    kemet_pos opened; /* the position the first ply was made in */
    /* for kemet_game_read */
    uint64_t seed;
    char name[2][128]; /* "" unless given (cut beyond 127 bytes) */
    int resigned;
    bool stopped;
} replay;

static int parse_u64(const char *s, uint64_t *out) {
    if (!*s)
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* Begins play when the first ply (or the result) arrives. */
static int replay_begin(replay *R, long ln, kemet_error *err) {
    if (R->started)
        return KEMET_OK;
    if (!R->rules)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "line %ld: the record names no ruleset before its "
                        "first move",
                        ln);
    if (R->rules->user && !R->sha_seen)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "line %ld: a record of a ruleset file names the "
                        "file's SHA-256 (a rules-sha256 line)",
                        ln);
    if (R->seeded && !R->set_up)
        R->forced = R->rules->rs->opening(R->rules, &R->rng, &R->pos, &R->first,
                                          NULL) != 0;
    else if (R->have_start)
        R->pos = R->start;
    else
        kemet_start(R->rules, &R->pos);
    if (R->have_start && memcmp(&R->start, &R->pos, sizeof R->pos) != 0) {
        char want[512];
        kemet_pos_format(R->rules, &R->pos, want, sizeof want);
        return kmt_fail(err, KEMET_ESYNTAX,
                        "line %ld: the start position is not the one the "
                        "seed gives (%s)",
                        R->start_line, want);
    }
    R->started = true;
    R->opened = R->pos;
    return KEMET_OK;
}

static int replay_ply(replay *R, long ln, char *line, kemet_error *err) {
    char *who = strtok(line, " \t");
    char *thr_s = strtok(NULL, " \t");
    char *move_s = strtok(NULL, " \t");
    if (!who || !thr_s || !move_s || strtok(NULL, " \t"))
        return kmt_fail(err, KEMET_ESYNTAX,
                        "line %ld: expected 'PLAYER THROW MOVE'", ln);
    int rc = replay_begin(R, ln, err);
    if (rc)
        return rc;
    if (R->pos.result != KEMET_PLAYING)
        return kmt_fail(err, KEMET_EILLEGAL,
                        "line %ld: the game is already over", ln);
    if (strcmp(who, "1") != 0 && strcmp(who, "2") != 0)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "line %ld: player '%.20s' is not 1 or 2", ln, who);
    if (who[0] - '0' != R->pos.to)
        return kmt_fail(err, KEMET_EILLEGAL,
                        "line %ld: player %s moves, but it is player %d's "
                        "turn",
                        ln, who, R->pos.to);
    kemet_throw thr;
    kemet_error e;
    if (kemet_throw_parse(R->rules, thr_s, &thr, &e))
        return kmt_fail(err, KEMET_ESYNTAX, "line %ld: %s", ln, e.msg);
    /* values still to play (Tab's left=, written `none`): the ply's throw
     * is they, as the game driver has it; no new throw is made */
    bool kept = thr.n == 0 && kemet_throw_kept(R->rules, &R->pos) == 1;
    if (kept)
        R->rules->rs->roll(R->rules, &R->pos, &R->rng, &thr);
    if (thr.n > 0 && R->seeded && !kept) {
        kemet_throw dice;
        if (R->forced)
            dice = R->first;
        else
            R->rules->rs->roll(R->rules, &R->pos, &R->rng, &dice);
        R->forced = false;
        if (!kemet_throw_equal(&dice, &thr)) {
            char got[64];
            kemet_throw_format(&dice, got, sizeof got);
            return kmt_fail(err, KEMET_EILLEGAL,
                            "line %ld: throw %s is not what the seeded dice "
                            "gave (%s)",
                            ln, thr_s, got);
        }
    }
    kemet_move move;
    if (strcmp(move_s, "throw") == 0)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "line %ld: 'throw' is not recorded as a move", ln);
    if (kemet_move_parse(R->rules, move_s, &move, &e))
        return kmt_fail(err, KEMET_ESYNTAX, "line %ld: %s", ln, e.msg);
    /* a record written before reads as it was written (a plain step
     * FROM-TO-TO, docs/notation.md) */
    kemet_move_upgrade(R->rules, &R->pos, &move);
    kemet_pos next;
    rc = kemet_apply(R->rules, &R->pos, &thr, &move, &next, NULL);
    if (rc) {
        char pos[512], why[256] = "";
        kemet_pos_format(R->rules, &R->pos, pos, sizeof pos);
        /* e.g. a short FROM-TO of an older record that now reads two
         * ways (docs/notation.md) */
        if (rc == KEMET_EILLEGAL)
            kemet_explain(R->rules, &R->pos, &thr, &move, why, sizeof why);
        return kmt_fail(err, KEMET_EILLEGAL,
                        "line %ld: %s is not a legal move for throw %s in "
                        "%s%s%s",
                        ln, move_s, thr_s, pos, why[0] ? ": " : "", why);
    }
    if (R->keep) {
        if (R->plies == R->cap) {
            long cap = R->cap ? 2 * R->cap : 256;
            kemet_ply *l = realloc(R->list, (size_t)cap * sizeof *l);
            if (!l)
                return kmt_fail(err, KEMET_ENOMEM, "out of memory");
            R->list = l;
            R->cap = cap;
        }
        R->list[R->plies] = (kemet_ply){thr, move};
    }
    R->pos = next;
    R->plies++;
    return KEMET_OK;
}

static int replay_line(replay *R, long ln, char *line, kemet_error *err) {
    if (R->ended)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "line %ld: text after the result line", ln);
    if (!R->magic) {
        if (strcmp(line, "kemet-record 1") != 0)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "line %ld: not a kemet record (the first line "
                            "must be 'kemet-record 1')",
                            ln);
        R->magic = true;
        return KEMET_OK;
    }
    char *sp = strchr(line, ' ');
    const char *arg = sp ? sp + 1 : "";
    size_t klen = sp ? (size_t)(sp - line) : strlen(line);
#define KEY(k) (klen == sizeof(k) - 1 && memcmp(line, k, klen) == 0)
    bool header = KEY("ruleset") || KEY("rules-sha256") || KEY("seed") ||
                  KEY("player1") || KEY("player2") || KEY("start") ||
                  KEY("setup");
    if (header && R->started)
        return kmt_fail(err, KEMET_ESYNTAX,
                        "line %ld: header line after the first move", ln);
    if (KEY("ruleset")) {
        if (R->rules)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "line %ld: a second ruleset line", ln);
        kemet_error e;
        size_t idlen = strcspn(arg, ":");
        kemet_rules *u = NULL;
        /* The user's file, when the record names its id. */
        if (R->rules_text &&
            kemet_rules_open_text(R->rules_text, NULL, NULL, &u, &e) == 0 &&
            strlen(u->rs->id) == idlen && memcmp(u->rs->id, arg, idlen) == 0) {
            kemet_rules_close(u);
            if (kemet_rules_open_text(R->rules_text, arg, NULL, &R->rules, &e))
                return kmt_fail(err, KEMET_ESYNTAX, "line %ld: %s", ln, e.msg);
            return KEMET_OK;
        }
        kemet_rules_close(u);
        if (kemet_rules_open(arg, &R->rules, &e))
            return kmt_fail(err, KEMET_ESYNTAX, "line %ld: %s%s", ln, e.msg,
                            e.code == KEMET_ERULESET && strchr(arg, ':') == NULL
                                ? "; a game of a ruleset file replays with "
                                  "the file"
                                : "");
        return KEMET_OK;
    }
    if (KEY("rules-sha256")) {
        if (!R->rules || R->sha_seen)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "line %ld: rules-sha256 comes once, after the "
                            "ruleset line",
                            ln);
        if (!R->rules->user)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "line %ld: %s is built in; its records name no "
                            "SHA-256",
                            ln, R->rules->rs->id);
        if (strcmp(arg, R->rules->sha256) != 0)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "line %ld: the record was played under another "
                            "text of the ruleset file %s (SHA-256 %.16s..., "
                            "this file's is %.16s...)",
                            ln, R->rules->rs->id, arg, R->rules->sha256);
        R->sha_seen = true;
        return KEMET_OK;
    }
    if (KEY("seed")) {
        uint64_t seed;
        if (R->seeded || parse_u64(arg, &seed))
            return kmt_fail(err, KEMET_ESYNTAX,
                            "line %ld: seed must be given once, as a "
                            "number",
                            ln);
        kemet_rng_seed(&R->rng, seed);
        R->seeded = true;
        R->seed = seed;
        return KEMET_OK;
    }
    if (KEY("player1") || KEY("player2")) {
        snprintf(R->name[line[6] - '1'], sizeof R->name[0], "%s", arg);
        return KEMET_OK;
    }
    if (KEY("start") || KEY("setup")) {
        kemet_error e;
        if (!R->rules)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "line %ld: %s before the ruleset line", ln,
                            KEY("start") ? "start" : "setup");
        if (R->have_start)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "line %ld: a second start or setup", ln);
        R->set_up = KEY("setup");
        /* "the position is for RULESET, not ..." when it is another's */
        if (kemet_pos_read(R->rules, arg, &R->start, &e))
            return kmt_fail(err, KEMET_ESYNTAX, "line %ld: %s", ln, e.msg);
        if (R->start.result != KEMET_PLAYING)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "line %ld: the start position is already over", ln);
        R->have_start = true;
        R->start_line = ln;
        return KEMET_OK;
    }
    if (KEY("resign")) {
        int rc = replay_begin(R, ln, err);
        if (rc)
            return rc;
        if (R->pos.result != KEMET_PLAYING)
            return kmt_fail(err, KEMET_EILLEGAL,
                            "line %ld: the game is already over", ln);
        if (strcmp(arg, "1") != 0 && strcmp(arg, "2") != 0)
            return kmt_fail(err, KEMET_ESYNTAX,
                            "line %ld: 'resign' takes the player who "
                            "resigns, 1 or 2",
                            ln);
        /* the other player wins; no move may follow */
        R->pos.result = arg[0] == '1' ? KEMET_WON2 : KEMET_WON1;
        R->resigned = arg[0] - '0';
        return KEMET_OK;
    }
    if (KEY("result")) {
        int rc = replay_begin(R, ln, err);
        if (rc)
            return rc;
        const char *want;
        char buf[16];
        if (R->pos.result == KEMET_PLAYING) {
            want = "unfinished";
            if (strcmp(arg, "stopped") == 0)
                want = "stopped";
        } else {
            snprintf(buf, sizeof buf, "%d",
                     R->pos.result == KEMET_DRAW ? 0 : R->pos.result);
            want = buf;
        }
        if (strcmp(arg, want) != 0)
            return kmt_fail(err, KEMET_EILLEGAL,
                            "line %ld: result '%.20s' does not match the "
                            "game (%s)",
                            ln, arg, want);
        R->ended = true;
        R->stopped = strcmp(arg, "stopped") == 0;
        return KEMET_OK;
    }
#undef KEY
    if (line[0] >= '0' && line[0] <= '9')
        return replay_ply(R, ln, line, err);
    return kmt_fail(err, KEMET_ESYNTAX, "line %ld: unknown line '%.40s'", ln,
                    line);
}

static int replay_text(replay *R, const char *text, kemet_error *err) {
    long ln = 0;
    const char *s = text;
    char line[1024];
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        ln++;
        if (len >= sizeof line)
            return kmt_fail(err, KEMET_ESYNTAX, "line %ld: line too long", ln);
        memcpy(line, s, len);
        line[len] = '\0';
        s = nl ? nl + 1 : s + len; /* before the '\r' is dropped below */
        if (len && line[len - 1] == '\r')
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        int rc = replay_line(R, ln, line, err);
        if (rc)
            return rc;
    }
    if (!R->magic)
        return kmt_fail(err, KEMET_ESYNTAX, "line 1: empty record");
    return replay_begin(R, ln, err);
}

int kemet_replay(const char *text, kemet_pos *final, char *final_text,
                 size_t final_len, long *turns, kemet_error *err) {
    return kemet_replay_text(text, NULL, final, final_text, final_len, turns,
                             err);
}

int kemet_replay_text(const char *text, const char *rules_text,
                      kemet_pos *final, char *final_text, size_t final_len,
                      long *turns, kemet_error *err) {
    if (!text)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_replay: NULL text");
    replay R = {.rules_text = rules_text};
    int rc = replay_text(&R, text, err);
    if (rc == 0) {
        if (final)
            *final = R.pos;
        if (final_text && final_len &&
            kemet_pos_format(R.rules, &R.pos, final_text, final_len) < 0)
            rc = KEMET_ERANGE;
        if (turns)
            *turns = R.plies;
    }
    kemet_rules_close(R.rules);
    return rc;
}

int kemet_record_read(const char *text, kemet_rules **rules, kemet_pos *start,
                      kemet_ply **plies, long *n, kemet_error *err) {
    return kemet_record_read_text(text, NULL, rules, start, plies, n, err);
}

int kemet_record_read_text(const char *text, const char *rules_text,
                           kemet_rules **rules, kemet_pos *start,
                           kemet_ply **plies, long *n, kemet_error *err) {
    if (!text || !rules || !start || !plies || !n)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_record_read: NULL argument");
    *rules = NULL;
    *plies = NULL;
    *n = 0;
    replay R = {.keep = true, .rules_text = rules_text};
    int rc = replay_text(&R, text, err);
    if (rc) {
        kemet_rules_close(R.rules);
        free(R.list);
        return rc;
    }
    *rules = R.rules;
    *start = R.opened;
    *plies = R.list;
    *n = R.plies;
    return KEMET_OK;
}

/* The game the checked record `R` describes, played again through the
 * driver: the same seed, start and plies. */
static int game_of(const kemet_rules *rules, const replay *R, kemet_game **out,
                   kemet_error *err) {
    kemet_game *g;
    if (R->set_up) {
        int rc = kemet_game_setup(rules, R->seed, &R->start, &g, err);
        if (rc)
            return rc;
    } else if (kemet_game_new(rules, R->seed, &g, NULL))
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    int rc = KEMET_OK;
    const char *p1 = R->name[0][0] ? R->name[0] : "human";
    const char *p2 = R->name[1][0] ? R->name[1] : "human";
    /* a name the session refuses (longer than 63 bytes) stays "human" */
    if (kemet_game_set_players(g, p1, p2) &&
        kemet_game_set_players(g, p1, "human"))
        kemet_game_set_players(g, "human", p2);
    for (long i = 0; i < R->plies && rc == KEMET_OK; i++) {
        const kemet_ply *p = &R->list[i];
        if (p->thr.n && !kemet_game_throw(g))
            rc = kemet_game_roll(g, NULL);
        if (rc == KEMET_OK)
            rc = kemet_game_play(g, &p->move, NULL);
    }
    if (rc == KEMET_OK && R->resigned)
        rc = kemet_game_resign(g, R->resigned);
    if (rc == KEMET_OK && R->stopped)
        rc = kemet_game_stop(g);
    if (rc) {
        kemet_game_free(g);
        return kmt_fail(err, rc, "the record's game cannot be played again: %s",
                        kemet_strerror(rc));
    }
    *out = g;
    return KEMET_OK;
}

int kemet_game_read(const kemet_rules *rules, const char *text,
                    kemet_game **out, kemet_error *err) {
    if (!rules || !text || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_game_read: NULL argument");
    *out = NULL;
    replay R = {.keep = true, .rules_text = rules->text};
    int rc = replay_text(&R, text, err);
    if (rc == KEMET_OK &&
        strcmp(kemet_rules_spec(R.rules), kemet_rules_spec(rules)) != 0)
        rc = kmt_fail(err, KEMET_ERULESET,
                      "the record is a game of %s, not of %s",
                      kemet_rules_spec(R.rules), kemet_rules_spec(rules));
    if (rc == KEMET_OK && !R.seeded)
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "the record has no seed, so its throws cannot go on");
    if (rc == KEMET_OK)
        rc = game_of(rules, &R, out, err);
    kemet_rules_close(R.rules);
    free(R.list);
    return rc;
}
