/* wgame.c - the games `kemet serve` holds: made, replayed, played, and
 * shown as JSON.
 *
 * A game is its ruleset, a secret dice seed, two seats and the list of
 * its actions (each throw, move and pre-throw choice). The in-memory game
 * is rebuilt from those at start-up; each new action is made in memory,
 * stored in one transaction, and undone (by a rebuild from the stored
 * actions) if the store fails, so that what a player is told is what the
 * file holds.
 */
#include "wgame.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wg_seat_level(const char *seat) {
    if (strncmp(seat, "computer:", 9) != 0)
        return 0;
    int l = seat[9] - '0';
    return seat[10] == '\0' && l >= 1 && l <= KEMET_LEVELS ? l : 0;
}

/* The events' sentences on one line, squares as `viewer` numbers them. */
static char *words_of(const kemet_rules *r, const kemet_events *ev,
                      int viewer) {
    char *buf = malloc(KEMET_DESCRIBE_MAX);
    if (!buf)
        return NULL;
    kemet_events seen;
    kc_events_as(r, ev, viewer, &seen);
    if (kemet_describe(r, &seen, buf, KEMET_DESCRIBE_MAX) < 0)
        buf[0] = '\0';
    /* One line: "  A.\n  B.\n" becomes "A. B." */
    char *w = buf;
    for (char *s = buf; *s; s++) {
        if (*s == '\n') {
            if (s[1])
                *w++ = ' ';
            continue;
        }
        if (*s == ' ' && (w == buf || w[-1] == ' '))
            continue;
        *w++ = *s;
    }
    *w = '\0';
    /* kept for the game's life: only as long as it is */
    char *fit = realloc(buf, (size_t)(w - buf) + 1);
    return fit ? fit : buf;
}

void wg_free(wgame *g) {
    if (!g)
        return;
    free(g->ply);
    free(g->act);
    free(g->opening);
    free(g->review);
    kemet_agent_free(g->agent[0]);
    kemet_agent_free(g->agent[1]);
    kemet_game_free(g->g);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

/* Starts the in-memory game from the seed, with no actions. */
static int wg_begin(wgame *g) {
    g->played = 0;
    g->offered = 0;
    g->rematch[0] = '\0';
    g->nply = 0;
    g->version = 0;
    free(g->opening);
    g->opening = NULL;
    kemet_game_free(g->g);
    g->g = NULL;
    kemet_events ev;
    const char *name[2];
    for (int p = 0; p < 2; p++) {
        int l = wg_seat_level(g->seat[p]);
        name[p] = l ? kemet_rules_level_agent(g->rules, l) : "human";
    }
    if (kemet_game_new(g->rules, g->seed, &g->g, &ev) ||
        kemet_game_set_players(g->g, name[0], name[1]))
        return KEMET_ENOMEM;
    g->opening = words_of(g->rules, &ev, 0);
    return g->opening ? KEMET_OK : KEMET_ENOMEM;
}

wgame *wg_new(const kemet_judge *j, uint64_t seed, const char *id,
              const char *const seat[2], const char *const token[2],
              long long created) {
    wgame *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    pthread_mutex_init(&g->mu, NULL);
    g->rules = kemet_judge_rules(j);
    g->judge = j;
    g->seed = seed;
    g->created = created;
    g->last = created;
    snprintf(g->id, sizeof g->id, "%s", id);
    for (int p = 0; p < 2; p++) {
        snprintf(g->seat[p], sizeof g->seat[p], "%s", seat[p]);
        snprintf(g->token[p], sizeof g->token[p], "%s", token[p]);
    }
    if (wg_begin(g)) {
        wg_free(g);
        return NULL;
    }
    return g;
}

static int remember(wgame *g, char kind, const char *text) {
    if (kc_grow(&g->act, &g->actcap, g->version, sizeof *g->act))
        return KEMET_ENOMEM;
    g->act[g->version].kind = kind;
    snprintf(g->act[g->version].text, sizeof g->act[g->version].text, "%s",
             text);
    g->version++;
    if (kind != 'o' && kind != 'n')
        g->played = g->version;
    return KEMET_OK;
}

static int add_ply(wgame *g, const kemet_events *ev) {
    if (kc_grow(&g->ply, &g->cap, g->nply, sizeof *g->ply))
        return KEMET_ENOMEM;
    wg_ply *p = &g->ply[g->nply];
    p->after = *kemet_game_pos(g->g);
    p->ev = *ev;
    g->nply++;
    return KEMET_OK;
}

int wg_throw(wgame *g, kemet_throw *out) {
    kemet_throw t;
    int rc = kemet_game_roll(g->g, &t);
    if (rc)
        return rc;
    char text[64];
    kemet_throw_format(&t, text, sizeof text);
    if ((rc = remember(g, 't', text)))
        return rc;
    if (out)
        *out = t;
    return KEMET_OK;
}

int wg_move(wgame *g, const kemet_move *m) {
    kemet_events ev;
    int rc = kemet_game_play(g->g, m, &ev);
    if (rc)
        return rc;
    char text[160];
    kemet_move_format(m, text, sizeof text);
    if ((rc = remember(g, 'm', text)))
        return rc;
    return add_ply(g, &ev);
}

static int take_back_to(wgame *g, long keep);

int wg_replay(wgame *g, const char *kind, const char *text, char *why,
              size_t len) {
    if (strcmp(kind, "throw") == 0) {
        kemet_throw t;
        if (wg_throw(g, &t)) {
            snprintf(why, len, "action %ld: no throw is possible here",
                     g->version);
            return KEMET_EILLEGAL;
        }
        char got[64];
        kemet_throw_format(&t, got, sizeof got);
        if (strcmp(got, text) != 0) {
            snprintf(why, len,
                     "action %ld: the stored throw %.60s is not what the "
                     "game's dice give (%s)",
                     g->version - 1, text, got);
            return KEMET_EILLEGAL;
        }
        return KEMET_OK;
    }
    if (strcmp(kind, "resign") == 0) {
        if ((strcmp(text, "1") != 0 && strcmp(text, "2") != 0) ||
            wg_resign(g, text[0] - '0')) {
            snprintf(why, len,
                     "action %ld: '%.20s' is not a seat that may "
                     "resign",
                     g->version, text);
            return KEMET_EILLEGAL;
        }
        return KEMET_OK;
    }
    if (strcmp(kind, "offer") == 0) {
        if ((strcmp(text, "1") != 0 && strcmp(text, "2") != 0) ||
            wg_offer(g, text[0] - '0')) {
            snprintf(why, len,
                     "action %ld: '%.20s' is not a seat that may "
                     "offer a rematch",
                     g->version, text);
            return KEMET_EILLEGAL;
        }
        return KEMET_OK;
    }
    if (strcmp(kind, "rematch") == 0) {
        if (wg_rematched(g, text)) {
            snprintf(why, len, "action %ld: '%.20s' is not a rematch's game",
                     g->version, text);
            return KEMET_EILLEGAL;
        }
        return KEMET_OK;
    }
    if (strcmp(kind, "takeback") == 0) {
        char *end;
        long keep = strtol(text, &end, 10);
        if (*end || end == text || take_back_to(g, keep)) {
            snprintf(why, len,
                     "action %ld: '%.20s' is not a ply that can be taken "
                     "back to",
                     g->version, text);
            return KEMET_EILLEGAL;
        }
        return KEMET_OK;
    }
    kemet_move m;
    kemet_error err;
    /* an action stored before reads as it was written (a plain step
     * FROM-TO-TO, docs/notation.md) */
    if (strcmp(kind, "move") != 0 ||
        kemet_move_parse(g->rules, text, &m, &err) ||
        kemet_move_upgrade(g->rules, kemet_game_pos(g->g), &m) ||
        wg_move(g, &m)) {
        snprintf(why, len, "action %ld: '%.60s' is not a legal %s", g->version,
                 text, kind);
        return KEMET_EILLEGAL;
    }
    return KEMET_OK;
}

const char *wg_kind_name(char kind) {
    return kind == 't'   ? "throw"
           : kind == 'r' ? "resign"
           : kind == 'b' ? "takeback"
           : kind == 'o' ? "offer"
           : kind == 'n' ? "rematch"
                         : "move";
}

/* Goes back to just before ply `keep` (0-based) was moved
 * (kemet_game_back: its throw pending again, the same throws after it);
 * the stored actions stay, and the take-back is remembered as one more. */
static int take_back_to(wgame *g, long keep) {
    if (keep < 0 || keep >= g->nply)
        return KEMET_EILLEGAL;
    int rc = kemet_game_back(g->g, keep);
    if (rc)
        return rc;
    g->nply = keep;
    char text[24];
    snprintf(text, sizeof text, "%ld", keep);
    return remember(g, 'b', text);
}

int wg_takeback(wgame *g, int seat) {
    if (kemet_game_resigned(g->g))
        return KEMET_EOVER;
    long i = kemet_game_last_move(g->g, seat);
    return i < 0 ? KEMET_EILLEGAL : take_back_to(g, i);
}

int wg_rebuild(wgame *g, long keep) {
    wg_action *saved = g->act;
    long n = keep;
    g->act = NULL;
    g->actcap = 0;
    int rc = wg_begin(g);
    char why[200];
    for (long i = 0; i < n && rc == 0; i++)
        rc = wg_replay(g, wg_kind_name(saved[i].kind), saved[i].text, why,
                       sizeof why);
    free(saved);
    return rc;
}

int wg_result(const wgame *g) {
    return kemet_game_result(g->g);
}

int wg_resigned(const wgame *g) {
    return kemet_game_resigned(g->g);
}

int wg_resign(wgame *g, int seat) {
    if (kemet_game_next(g->g) == KEMET_NEXT_OVER || (seat != 1 && seat != 2))
        return KEMET_EOVER;
    int rc = remember(g, 'r', seat == 1 ? "1" : "2");
    /* cannot fail now: the game goes on and the seat is 1 or 2 */
    return rc ? rc : kemet_game_resign(g->g, seat);
}

int wg_offer(wgame *g, int seat) {
    if (wg_result(g) == KEMET_PLAYING)
        return KEMET_EOVER;
    if ((seat != 1 && seat != 2) || g->rematch[0])
        return KEMET_EILLEGAL;
    int rc = remember(g, 'o', seat == 1 ? "1" : "2");
    if (rc == KEMET_OK)
        g->offered = seat;
    return rc;
}

int wg_rematched(wgame *g, const char *id) {
    if (wg_result(g) == KEMET_PLAYING)
        return KEMET_EOVER;
    size_t n = strlen(id);
    if (g->rematch[0] || n == 0 || n > WG_ID || strcmp(id, g->id) == 0 ||
        strspn(id, "0123456789abcdef") != n)
        return KEMET_EILLEGAL;
    int rc = remember(g, 'n', id);
    if (rc == KEMET_OK)
        snprintf(g->rematch, sizeof g->rematch, "%s", id);
    return rc;
}

json_t *wg_rematch_json(const wgame *g) {
    if (g->rematch[0])
        return json_pack("{s:s}", "id", g->rematch);
    if (g->offered)
        return json_pack("{s:i}", "offered_by", g->offered);
    return json_null();
}

bool wg_computer_to_act(const wgame *g) {
    const kemet_pos *pos = kemet_game_pos(g->g);
    return wg_result(g) == KEMET_PLAYING && wg_seat_level(g->seat[pos->to - 1]);
}

/* When the throw just made leaves nothing to choose (a lone pass), the
 * pass is played at once. */
int wg_after_throw(wgame *g) {
    const kemet_throw *t = kemet_game_throw(g->g);
    if (!t)
        return KEMET_OK;
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    if (!moves)
        return KEMET_ENOMEM;
    int n = kemet_moves(g->rules, kemet_game_pos(g->g), t, moves);
    int rc = KEMET_OK;
    if (n == 1 && moves[0].n == 0)
        rc = wg_move(g, &moves[0]);
    free(moves);
    return rc;
}

int wg_computer_level(const wgame *g) {
    return wg_seat_level(g->seat[kemet_game_pos(g->g)->to - 1]);
}

const char *wg_computer_agent(const wgame *g) {
    return kemet_rules_level_agent(g->rules, wg_computer_level(g));
}

bool wg_agent_per_decision(const char *spec) {
    return strncmp(spec, "random", 6) == 0 || strncmp(spec, "greedy", 6) == 0 ||
           strchr(spec, '~') != NULL;
}

uint64_t wg_computer_seed(const wgame *g) {
    int p = kemet_game_pos(g->g)->to - 1;
    return kc_mix64(g->seed ^ (uint64_t)(p + 1) ^ ((uint64_t)g->version << 32));
}

int wg_computer_plan_with(wgame *g, kemet_agent *agent, wg_plan *plan) {
    const kemet_throw *t = kemet_game_throw(g->g);
    *plan = (wg_plan){.rules = g->rules,
                      .agent = agent,
                      .pos = *kemet_game_pos(g->g),
                      .thrown = t != NULL,
                      .thr = t ? *t : (kemet_throw){0},
                      .version = g->version};
    return KEMET_OK;
}

int wg_computer_plan(wgame *g, wg_plan *plan) {
    const kemet_pos *pos = kemet_game_pos(g->g);
    int p = pos->to - 1;
    if (!g->agent[p]) {
        kemet_error err;
        int rc = kemet_agent_new_judged(
            g->judge,
            kemet_rules_level_agent(g->rules, wg_seat_level(g->seat[p])),
            kc_mix64(g->seed ^ (uint64_t)(p + 1)), &g->agent[p], &err);
        if (rc)
            return rc;
    }
    return wg_computer_plan_with(g, g->agent[p], plan);
}

int wg_plan_choose(wg_plan *plan) {
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    if (!moves)
        return KEMET_ENOMEM;
    int n = plan->thrown
                ? kemet_moves(plan->rules, &plan->pos, &plan->thr, moves)
                : kemet_prethrow(plan->rules, &plan->pos, moves);
    int rc = KEMET_OK;
    plan->throw_now = false;
    if (n < 0 || (plan->thrown && n == 0))
        rc = n < 0 ? n : KEMET_EILLEGAL;
    else {
        /* where there is no choice the agent answers without searching */
        int k = kemet_agent_choose(plan->agent, &plan->pos,
                                   plan->thrown ? &plan->thr : NULL, moves, n);
        /* before a throw the agent may choose to throw */
        if (k < 0)
            plan->throw_now = true;
        else
            plan->move = moves[k];
    }
    free(moves);
    return rc;
}

int wg_computer_apply(wgame *g, const wg_plan *plan) {
    if (plan->version != g->version)
        return KEMET_EMISUSE;
    int rc;
    if (plan->throw_now) {
        rc = wg_throw(g, NULL);
        if (rc == 0)
            rc = wg_after_throw(g);
    } else
        rc = wg_move(g, &plan->move);
    if (kemet_game_pos(g->g)->result != KEMET_PLAYING)
        for (int i = 0; i < 2; i++) {
            kemet_agent_free(g->agent[i]);
            g->agent[i] = NULL;
        }
    return rc;
}

/* ------------------------------------------------------------------------
 * JSON views
 * --------------------------------------------------------------------- */
static json_t *throw_json(const kemet_throw *t) {
    char text[64];
    kemet_throw_format(t, text, sizeof text);
    json_t *v = json_array(), *only = json_array(), *faces = json_array();
    for (int i = 0; i < t->n; i++) {
        json_array_append_new(v, json_integer(t->v[i]));
        json_array_append_new(only, json_integer(t->only[i]));
    }
    /* sticks to draw where they show more than the values (not Tab's
       throws, one value each, nor its values still to play) */
    bool kept = t->sticks == KEMET_KEPT;
    int sticks = !kept && t->sticks > t->n ? t->sticks : 0;
    for (int i = 0; i < sticks; i++)
        json_array_append_new(faces, json_boolean(t->faces >> i & 1));
    return json_pack("{s:s, s:o, s:o, s:i, s:o, s:b}", "text", text, "values",
                     v, "only", only, "sticks", sticks, "faces", faces, "kept",
                     kept);
}

static json_t *moves_json(const kemet_move *m, int n) {
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        char text[160];
        kemet_move_format(&m[i], text, sizeof text);
        json_array_append_new(a, json_string(text));
    }
    return a;
}

json_t *wg_cells_json(const kemet_rules *r, const kemet_pos *pos) {
    json_t *a = json_array();
    int cells = kemet_rules_info(r)->board_cells;
    for (int c = 1; c <= cells; c++) {
        int count[2];
        kemet_board_cell(r, pos, c, count);
        json_array_append_new(a, json_pack("[i,i]", count[0], count[1]));
    }
    return a;
}

static json_t *seat_json(const wgame *g, int p) {
    const kemet_info *info = kemet_rules_info(g->rules);
    int level = wg_seat_level(g->seat[p]);
    return json_pack("{s:i, s:s, s:s, s:o}", "seat", p + 1, "name",
                     info->player[p], "kind", level ? "computer" : "human",
                     "level", level ? json_integer(level) : json_null());
}

char *wg_ply_words(const wgame *g, long i, int viewer) {
    return words_of(g->rules, &g->ply[i].ev, viewer ? viewer : 1);
}

json_t *wg_ply_json(const wgame *g, long i, int viewer) {
    const kemet_ply *p = &kemet_game_history(g->g)[i];
    char mv[160];
    kemet_move_format(&p->move, mv, sizeof mv);
    char *words = wg_ply_words(g, i, viewer);
    json_t *o =
        json_pack("{s:I, s:i, s:o, s:s, s:s}", "ply", (json_int_t)(i + 1),
                  "player", kemet_game_mover(g->g, i), "throw",
                  p->thr.n ? throw_json(&p->thr) : json_null(), "move", mv,
                  "words", words ? words : "");
    free(words);
    return o;
}

json_t *wg_summary_json(const wgame *g) {
    int result = wg_result(g);
    const kemet_info *info = kemet_rules_info(g->rules);
    return json_pack(
        "{s:s, s:s, s:s, s:[o,o], s:s, s:o, s:o, s:I, s:I, s:I}", "id", g->id,
        "ruleset", kemet_rules_spec(g->rules), "title", info->title, "players",
        seat_json(g, 0), seat_json(g, 1), "status",
        result == KEMET_PLAYING ? "playing" : "over", "winner",
        result == KEMET_PLAYING ? json_null()
        : result == KEMET_DRAW  ? json_integer(0)
                                : json_integer(result),
        "resigned", wg_resigned(g) ? json_integer(wg_resigned(g)) : json_null(),
        "version", (json_int_t)g->version, "plies", (json_int_t)g->nply,
        "created", (json_int_t)g->created);
}

json_t *wg_state_json(const wgame *g, int you) {
    const kemet_pos *pos = kemet_game_pos(g->g);
    const kemet_info *info = kemet_rules_info(g->rules);
    const kemet_throw *t = kemet_game_throw(g->g);
    json_t *o = wg_summary_json(g);
    char text[512];
    kemet_pos_format(g->rules, pos, text, sizeof text);
    int on[2] = {kemet_on_board(pos, 1), kemet_on_board(pos, 2)};
    json_object_set_new(o, "you", you ? json_integer(you) : json_null());
    json_object_set_new(o, "position", json_string(text));
    json_object_set_new(o, "to", json_integer(pos->to));
    json_object_set_new(o, "phase",
                        json_string(wg_result(g) != KEMET_PLAYING ? "over"
                                    : t                           ? "move"
                                                                  : "throw"));
    json_object_set_new(o, "throw", t ? throw_json(t) : json_null());
    json_object_set_new(o, "must",
                        pos->must ? json_integer(pos->must) : json_null());
    json_object_set_new(o, "hand",
                        json_pack("[i,i]", pos->hand[0], pos->hand[1]));
    /* (where borne off is a score, captured pieces are not counted: Bell) */
    json_object_set_new(
        o, "gone",
        info->scores ? json_pack("[i,i]", pos->off[0], pos->off[1])
                     : json_pack("[i,i]", info->pieces - on[0] - pos->hand[0],
                                 info->pieces - on[1] - pos->hand[1]));
    json_object_set_new(o, "cells", wg_cells_json(g->rules, pos));
    json_object_set_new(o, "turns", json_integer(kemet_game_turns(g->g)));
    json_object_set_new(o, "rematch", wg_rematch_json(g));
    json_object_set_new(o, "opening", json_string(g->opening));
    kemet_move *m = malloc(KEMET_MAX_MOVES * sizeof *m);
    int n = 0;
    json_t *moves = json_array(), *pre = json_array();
    if (m && wg_result(g) == KEMET_PLAYING) {
        if (t && (n = kemet_moves(g->rules, pos, t, m)) > 0) {
            json_decref(moves);
            moves = moves_json(m, n);
        } else if (!t && (n = kemet_prethrow(g->rules, pos, m)) > 0) {
            json_decref(pre);
            pre = moves_json(m, n);
        }
    }
    free(m);
    json_object_set_new(o, "moves", moves);
    json_object_set_new(o, "prethrow", pre);
    json_t *last = json_array();
    for (long i = g->nply > 8 ? g->nply - 8 : 0; i < g->nply; i++)
        json_array_append_new(last, wg_ply_json(g, i, you));
    json_object_set_new(o, "last", last);
    return o;
}

/* The record (docs/notation: kemet-record 1), the session's
 * (kemet_game_record). The dice seed is written only once the game is
 * over: before, it would tell every throw to come. */
char *wg_record(const wgame *g) {
    char *text;
    if (kemet_game_record(g->g, &text))
        return NULL;
    if (wg_result(g) == KEMET_PLAYING) {
        /* drop the "seed N" line */
        char *seed = strstr(text, "\nseed ");
        if (seed) {
            char *next = strchr(seed + 1, '\n');
            memmove(seed, next, strlen(next) + 1);
        }
    }
    return text;
}
