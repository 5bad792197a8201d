/* views.c - the answers of the games' API (docs/api.md) that need no
 * connection: the rulesets, a game's history, the steps of a turn, why a
 * move is not legal, hints and reviews. `kemet serve` (api.c) sends them
 * over HTTP; the offline page's WebAssembly engine (src/wasm/offline.c)
 * gives them to the page's worker. Calls on a game are made with g->mu
 * held.
 */
#include "wgame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The board for drawing (kemet_art): the page draws every board from it. */
static json_t *art_json(const kemet_rules *r) {
    kemet_board_art *a = malloc(sizeof *a);
    if (!a)
        return NULL;
    kemet_art(r, a);
    json_t *holes = json_array(), *links = json_array();
    for (int i = 0; i < a->nholes; i++) {
        const kemet_hole_art *h = &a->hole[i];
        json_array_append_new(
            holes,
            json_pack("{s:i, s:f, s:f, s:f, s:s, s:s, s:s, s:b, s:b, s:i}",
                      "cell", h->cell, "x", h->x, "y", h->y, "r", h->r, "shape",
                      h->shape == KEMET_ART_SQUARE ? "square" : "round",
                      "label", h->label, "mark", h->mark, "marked",
                      (h->flags & KEMET_ART_MARKED) != 0, "safe",
                      (h->flags & KEMET_ART_SAFE) != 0, "home", h->home));
    }
    for (int i = 0; i < a->nlinks; i++) {
        const kemet_art_link *l = &a->link[i];
        json_array_append_new(
            links,
            json_pack("{s:i, s:i, s:s, s:f}", "from", l->from, "to", l->to,
                      "kind", l->kind == KEMET_ART_RIVER ? "river" : "line",
                      "bend", l->bend));
    }
    json_t *o =
        json_pack("{s:f, s:f, s:s, s:o, s:o}", "w", a->w, "h", a->h, "frame",
                  a->frame == KEMET_ART_FRAME_PALM ? "palm" : "rect", "holes",
                  holes, "links", links);
    free(a);
    return o;
}

static json_t *ruleset_json(const kemet_rules *r) {
    const kemet_info *i = kemet_rules_info(r);
    const char *file = kemet_rules_board_file(r);
    json_t *paths = json_array();
    for (int p = 1; p <= 2; p++) {
        json_t *a = json_array();
        for (int s = 0; s <= i->squares; s++)
            json_array_append_new(a, json_integer(kemet_square_cell(r, p, s)));
        json_array_append_new(paths, a);
    }
    kemet_pos start;
    kemet_start(r, &start);
    json_t *levels = json_array();
    for (int l = 1; l <= KEMET_LEVELS; l++)
        json_array_append_new(levels,
                              json_string(kemet_rules_level_agent(r, l)));
    return json_pack(
        "{s:s, s:s, s:s, s:s, s:o, s:s, s:s, s:[s,s], s:s?, s:s?, s:i, s:i, "
        "s:i, s:s?, s:o?, s:s?, s:o, s:o, s:b, s:o}",
        "id", kemet_rules_spec(r), "title", i->title, "source", i->source,
        "author", i->author, "year",
        i->year ? json_integer(i->year) : json_null(), "about", i->about,
        "text", i->text, "players", i->player[0], i->player[1], "gone", i->gone,
        "in_hand", i->in_hand, "pieces", i->pieces, "squares", i->squares,
        "board_cells", i->board_cells, "board_note", i->board_note, "art",
        art_json(r), "board_file", file, "paths", paths, "start",
        wg_cells_json(r, &start), "scores", i->scores != 0, "levels", levels);
}

json_t *wg_rulesets_json(kemet_rules *const *rules, int n) {
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, ruleset_json(rules[i]));
    json_t *levels = json_array();
    for (int l = 1; l <= KEMET_LEVELS; l++)
        json_array_append_new(levels, json_pack("{s:i, s:s, s:s}", "level", l,
                                                "agent", kemet_level_agent(l),
                                                "about", kemet_level_about(l)));
    return json_pack("{s:o, s:o}", "rulesets", a, "levels", levels);
}

json_t *wg_history_json(const wgame *g, int viewer) {
    json_t *plies = json_array();
    json_array_append_new(
        plies, json_pack("{s:i, s:o, s:s, s:o}", "ply", 0, "throw", json_null(),
                         "words", g->opening, "cells",
                         wg_cells_json(g->rules, kemet_game_start(g->g))));
    for (long i = 0; i < g->nply; i++) {
        json_t *p = wg_ply_json(g, i, viewer);
        char text[512];
        kemet_pos_format(g->rules, &g->ply[i].after, text, sizeof text);
        json_object_set_new(p, "position", json_string(text));
        json_object_set_new(p, "cells",
                            wg_cells_json(g->rules, &g->ply[i].after));
        json_array_append_new(plies, p);
    }
    json_t *o = wg_summary_json(g);
    json_object_set_new(o, "history", plies);
    return o;
}

bool wg_read_move(const wgame *g, const char *text, kemet_move *m, char *why,
                  size_t len) {
    kemet_error err;
    if (!text) {
        snprintf(why, len, "give the move, e.g. {\"move\": \"9-12\"}");
        return false;
    }
    if (*text == '\0') {
        m->n = 0;
        return true;
    }
    if (kemet_move_parse(g->rules, text, m, &err)) {
        /* the library's message names the text already */
        snprintf(why, len, "%s", err.msg);
        return false;
    }
    return true;
}

/* The ways to finish a turn begun with `done`: each distinct end position
 * once (its steps in *ways, the position in *ends, *n of them, grown with
 * kc_grow). `scratch` holds KEMET_MAX_MOVES. -1 when out of memory. */
typedef struct finishing {
    const kemet_rules *r;
    const kemet_pos *pos;
    const kemet_throw *t;
    kemet_move *scratch;
    kemet_move *ways;
    kemet_pos *ends;
    long n, cap, endcap;
} finishing;

static int finish_from(finishing *f, kemet_move *done) {
    int k = kemet_next_steps(f->r, f->pos, f->t, done, f->scratch, NULL);
    if (k < 0)
        return 0;
    if (k == 0) {
        kemet_pos end;
        if (kemet_apply(f->r, f->pos, f->t, done, &end, NULL) != KEMET_OK)
            return 0;
        for (long i = 0; i < f->n; i++)
            if (memcmp(&f->ends[i], &end, sizeof end) == 0)
                return 0;
        if (kc_grow(&f->ways, &f->cap, f->n, sizeof *f->ways) ||
            kc_grow(&f->ends, &f->endcap, f->n, sizeof *f->ends))
            return -1;
        f->ways[f->n] = *done;
        f->ends[f->n++] = end;
        return 0;
    }
    if (done->n >= KEMET_MAX_STEPS)
        return 0;
    /* the next steps, kept apart from the scratch the deeper calls use */
    kemet_step *steps = malloc((size_t)k * sizeof *steps);
    if (!steps)
        return -1;
    for (int i = 0; i < k; i++)
        steps[i] = f->scratch[i].step[0];
    int rc = 0;
    for (int i = 0; i < k && !rc; i++) {
        done->step[done->n++] = steps[i];
        rc = finish_from(f, done);
        done->n--;
    }
    free(steps);
    return rc;
}

/* For a turn begun (`done`, not empty, not whole): every way to finish
 * it, {"move": the whole turn as begun, "as": the same turn as the legal
 * moves list it (its end the same)}, so that a front end finds the hints'
 * chances for the turn a player has begun in another order (hints rank
 * the listed moves). NULL when out of memory. */
static json_t *ways_json(const wgame *g, const kemet_throw *t,
                         const kemet_move *done, kemet_move *scratch) {
    const kemet_pos *pos = kemet_game_pos(g->g);
    finishing f = {g->rules, pos, t, scratch, NULL, NULL, 0, 0, 0};
    kemet_move d = *done;
    json_t *a = NULL;
    if (finish_from(&f, &d) == 0 && (a = json_array())) {
        /* the listed moves (the scratch is free again) */
        int n = kemet_moves(g->rules, pos, t, scratch);
        for (long w = 0; w < f.n; w++) {
            char text[160], as[160] = "";
            kemet_move_format(&f.ways[w], text, sizeof text);
            for (int i = 0; i < n && !*as; i++) {
                kemet_pos end;
                kemet_make(g->rules, pos, t, &scratch[i], &end, NULL);
                if (memcmp(&end, &f.ends[w], sizeof end) == 0)
                    kemet_move_format(&scratch[i], as, sizeof as);
            }
            json_array_append_new(a, json_pack("{s:s, s:s}", "move", text, "as",
                                               *as ? as : text));
        }
    }
    free(f.ways);
    free(f.ends);
    return a;
}

int wg_steps_json(const wgame *g, const char *done, json_t **out, char *why,
                  size_t len) {
    *out = NULL;
    kemet_move m = {0};
    if (done && !wg_read_move(g, done, &m, why, len))
        return 400;
    kemet_move *next = malloc(KEMET_MAX_MOVES * sizeof *next);
    if (!next) {
        snprintf(why, len, "out of memory");
        return 500;
    }
    const kemet_throw *t = kemet_game_throw(g->g);
    kemet_throw left = {0};
    int n =
        t ? kemet_next_steps(g->rules, kemet_game_pos(g->g), t, &m, next, &left)
          : KEMET_EMISUSE;
    int status = 200;
    if (n == KEMET_EMISUSE) {
        snprintf(why, len, "no throw is waiting for a move");
        status = 409;
    } else if (n < 0) {
        snprintf(why, len, "'%.60s' does not begin a legal move",
                 done ? done : "");
        status = 422;
    } else {
        json_t *a = json_array();
        for (int i = 0; i < n; i++) {
            char text[32];
            kemet_move_format(&next[i], text, sizeof text);
            json_array_append_new(a, json_string(text));
        }
        json_t *l = json_array();
        for (int i = 0; i < left.n; i++)
            json_array_append_new(l, json_integer(left.v[i]));
        /* the board as the steps so far leave it (kemet_steps_pos) */
        kemet_pos mid;
        json_t *cells = m.n && kemet_steps_pos(g->rules, kemet_game_pos(g->g),
                                               t, &m, &mid) == KEMET_OK
                            ? wg_cells_json(g->rules, &mid)
                            : json_null();
        *out = json_pack("{s:o, s:o, s:b, s:o}", "next", a, "left", l,
                         "complete", n == 0, "cells", cells);
        /* a turn begun: the ways to finish it, for its hints */
        json_t *ways = m.n && n > 0 ? ways_json(g, t, &m, next) : NULL;
        if (ways)
            json_object_set_new(*out, "ways", ways);
    }
    free(next);
    return status;
}

int wg_explain_json(const wgame *g, const char *text, json_t **out, char *why,
                    size_t len) {
    *out = NULL;
    kemet_move m;
    if (!wg_read_move(g, text, &m, why, len))
        return 400;
    int legal = 1;
    char reason[256];
    if (wg_result(g) != KEMET_PLAYING) {
        snprintf(reason, sizeof reason, "the game is over");
        legal = 0;
    } else
        legal = !kc_explain(g->rules, kemet_game_pos(g->g),
                            kemet_game_throw(g->g), &m, reason, sizeof reason);
    *out = json_pack("{s:b, s:o}", "legal", legal, "reason",
                     legal ? json_null() : json_string(reason));
    return 200;
}

/* The moves ranked by the hint agent, with the mover's chance of winning
 * after each (before the throw: the pre-throw moves and throwing): made
 * by the server's hint thread, holding no game. */
/* The hint; a search that `check` stops answers with what it found when
 * `cut_ok`, else not at all. */
static json_t *hint_json(const kemet_judge *j, const char *spec,
                         const kemet_pos *pos, const kemet_throw *thr,
                         int (*check)(void *), void *ctx, bool cut_ok) {
    const kemet_rules *r = kemet_judge_rules(j);
    kemet_move *m = malloc(KEMET_MAX_MOVES * sizeof *m);
    kc_ranked *rank = malloc((KEMET_MAX_MOVES + 1) * sizeof *rank);
    kemet_agent *a = NULL;
    kemet_error err;
    int n = -1;
    if (m && rank && !kemet_agent_new_judged(j, spec, 1, &a, &err)) {
        kemet_agent_set_check(a, check, ctx);
        n = thr ? kemet_moves(r, pos, thr, m) : kemet_prethrow(r, pos, m);
        n = kc_rank(a, pos, thr, m, n > 0 ? n : 0, rank);
        if (!cut_ok && check && check(ctx))
            n = -1; /* stopped: what it found is not an answer */
    }
    json_t *list = n >= 0 ? json_array() : NULL;
    for (int i = 0; i < n; i++) {
        char text[160] = "throw";
        if (rank[i].index >= 0)
            kemet_move_format(&m[rank[i].index], text, sizeof text);
        bool exact =
            kc_exact(j, pos, thr, rank[i].index >= 0 ? &m[rank[i].index] : NULL,
                     rank[i].chance);
        json_array_append_new(list, json_pack("{s:s, s:f, s:b}", "move", text,
                                              "chance", rank[i].chance, "exact",
                                              exact));
    }
    kemet_agent_free(a);
    free(m);
    free(rank);
    return list ? json_pack("{s:s, s:o}", "agent", "expectimax", "moves", list)
                : NULL;
}

json_t *wg_hint_json(const kemet_judge *j, const kemet_pos *pos,
                     const kemet_throw *thr, int (*check)(void *), void *ctx) {
    return hint_json(j, "expectimax", pos, thr, check, ctx, false);
}

json_t *wg_hint_json_cut(const kemet_judge *j, const char *spec,
                         const kemet_pos *pos, const kemet_throw *thr,
                         int (*check)(void *), void *ctx) {
    return hint_json(j, spec, pos, thr, check, ctx, true);
}

/* How a game ended, in words. */
static json_t *end_json(const kemet_rules *r, int result, int resigned) {
    const kemet_info *info = kemet_rules_info(r);
    char words[200];
    if (resigned)
        snprintf(words, sizeof words, "%s resigned; %s won.",
                 info->player[resigned - 1], info->player[2 - resigned]);
    else if (result == KEMET_WON1 || result == KEMET_WON2)
        snprintf(words, sizeof words, "%s won.", info->player[result - 1]);
    else if (result == KEMET_DRAW)
        snprintf(words, sizeof words, "A draw.");
    else
        snprintf(words, sizeof words, "The game goes on.");
    return json_pack(
        "{s:o, s:o, s:s}", "winner",
        result == KEMET_WON1 || result == KEMET_WON2 ? json_integer(result)
        : result == KEMET_DRAW                       ? json_integer(0)
                                                     : json_null(),
        "resigned", resigned ? json_integer(resigned) : json_null(), "words",
        words);
}

/* The review of a finished game as JSON text, by the hint agent: the
 * fields of `kemet review --json` (docs/review.md) and how it ended. */
char *wg_review_text(const kemet_judge *j, const kemet_pos *start,
                     const kemet_ply *plies, long n, int result, int resigned,
                     int (*check)(void *), void *ctx) {
    const kemet_rules *r = kemet_judge_rules(j);
    kemet_agent *a = NULL;
    kemet_error err;
    kemet_review_entry *e = malloc((size_t)(2 * n + 2) * sizeof *e);
    kemet_review_sum sum[2];
    long ne = -1;
    if (e && !kemet_agent_new_judged(j, "expectimax", 1, &a, &err)) {
        kemet_agent_set_check(a, check, ctx);
        ne = kemet_review(a, r, start, plies, n, e, 2 * n + 2, sum, &err);
    }
    kemet_agent_free(a);
    if (ne < 0) {
        free(e);
        return NULL;
    }
    const kemet_info *info = kemet_rules_info(r);
    json_t *list = json_array();
    for (long i = 0; i < ne; i++) {
        char t[64], pl[160] = "throw", b[160] = "throw";
        if (!e[i].threw)
            kemet_move_format(&e[i].played, pl, sizeof pl);
        if (!e[i].best_throws)
            kemet_move_format(&e[i].best, b, sizeof b);
        if (e[i].thr.n)
            kemet_throw_format(&e[i].thr, t, sizeof t);
        json_t *o = json_pack(
            "{s:I, s:i, s:o, s:i, s:s, s:s, s:f, s:f, s:f, s:s}", "ply",
            (json_int_t)e[i].ply + 1, "player", e[i].player, "throw",
            e[i].thr.n ? json_string(t) : json_null(), "choices", e[i].choices,
            "played", pl, "best", b, "played_chance", e[i].played_chance,
            "best_chance", e[i].best_chance, "loss", e[i].loss, "grade",
            kemet_grade_name(e[i].grade));
        if (e[i].thr.n) {
            json_object_set_new(o, "before", json_real(e[i].before));
            json_object_set_new(o, "luck", json_real(e[i].luck));
        }
        json_array_append_new(list, o);
    }
    json_t *players = json_array();
    for (int p = 0; p < 2; p++) {
        const kemet_review_sum *s = &sum[p];
        json_t *grades = json_object();
        for (int k = KEMET_GRADE_BEST; k < KEMET_GRADES; k++)
            json_object_set_new(grades, kemet_grade_name(k),
                                json_integer(s->grades[k]));
        json_array_append_new(
            players,
            json_pack("{s:i, s:s, s:i, s:i, s:f, s:f, s:f, s:f, s:o}", "player",
                      p + 1, "name", info->player[p], "decisions", s->decisions,
                      "best", s->best, "accuracy",
                      kemet_review_accuracy(e, n, p + 1) / 100, "loss", s->loss,
                      "loss_per_decision",
                      s->decisions ? s->loss / s->decisions : 0.0, "luck",
                      s->luck, "grades", grades));
    }
    free(e);
    json_t *o = json_pack(
        "{s:s, s:s, s:I, s:{s:f, s:f, s:f}, s:o, s:o, s:o}", "ruleset",
        kemet_rules_spec(r), "agent", "expectimax", "plies", (json_int_t)n,
        "thresholds", "doubtful", KEMET_REVIEW_DOUBTFUL, "bad",
        KEMET_REVIEW_BAD, "very_bad", KEMET_REVIEW_VERY_BAD, "decisions", list,
        "players", players, "end", end_json(r, result, resigned));
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}
