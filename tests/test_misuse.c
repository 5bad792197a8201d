/* test_misuse.c - the header's promise that every function returning a
 * status refuses misuse with the documented code, checked for every such
 * function of include/kemet.h.
 *
 * The table below calls each one with NULL pointers and bad arguments and
 * names the code kemet.h documents. The test first reads kemet.h itself:
 * every function declared there returning int or long must be in the table
 * or in the short list of those that return no status (a count, a yes/no,
 * an index), so a function added to the header without a line here fails
 * the test.
 */
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the calls work on: valid objects, so that each call is wrong in
 * exactly one way. */
static kemet_rules *R;
static kemet_judge *J;
static kemet_agent *A;
static kemet_game *G, *G2; /* G2: what a refused read leaves (NULL) */
static char *TEXT;         /* what a refused record leaves (NULL) */
static kemet_pos P, BAD;   /* a start position; one the library never makes */
static kemet_throw T;
static kemet_move M;
static kemet_error E;
static char buf[256];
static kemet_move many[KEMET_MAX_MOVES];

typedef struct call {
    const char *name; /* the function */
    const char *what; /* the misuse */
    int want;
    long (*fn)(void);
} call;

/* Each entry's function, named after the function and the misuse. */
#define FN(name, tag, expr)                                                    \
    static long fn_##name##_##tag(void) {                                      \
        return (long)(expr);                                                   \
    }
#define CALL(name, tag, what, want)                                            \
    { #name, what, want, fn_##name##_##tag }

/* kemet_rules_open and the notation */
FN(kemet_rules_open, null, kemet_rules_open(NULL, NULL, &E))
FN(kemet_rules_open_board, null, kemet_rules_open_board("x", NULL, NULL, &E))
FN(kemet_rules_open_text, null,
   kemet_rules_open_text(NULL, NULL, NULL, NULL, &E))
FN(kemet_rules_open_file, null,
   kemet_rules_open_file(NULL, NULL, NULL, NULL, &E))
FN(kemet_rule_changes, null, kemet_rule_changes(NULL, NULL, 0, NULL, &E))
FN(kemet_change_text, null, kemet_change_text(R, NULL, &TEXT, &E))
FN(kemet_rules_open_change, null, kemet_rules_open_change(NULL, NULL, NULL, &E))
FN(kemet_change_effects, null, kemet_change_effects(NULL, NULL, NULL))
FN(kemet_explain_flag, null, kemet_explain_flag(NULL, NULL, 0, 0, NULL))
FN(kemet_explain_standing, null, kemet_explain_standing(NULL, 1))
FN(kemet_verdict_units, null,
   kemet_verdict_units(NULL, 1, -1, NULL, NULL, NULL))
FN(kemet_pos_parse_text, null,
   kemet_pos_parse_text(NULL, NULL, NULL, NULL, &P, &E))
FN(kemet_replay_text, null,
   kemet_replay_text(NULL, NULL, NULL, NULL, 0, NULL, &E))
FN(kemet_record_read_text, null,
   kemet_record_read_text("x", NULL, NULL, NULL, NULL, NULL, &E))
FN(kemet_on_board, null, kemet_on_board(&P, 3))
FN(kemet_points, null, kemet_points(R, &BAD))
FN(kemet_throws, null, kemet_throws(R, &BAD, NULL, NULL, NULL))
FN(kemet_prethrow, null, kemet_prethrow(R, NULL, many))
FN(kemet_throw_kept, null, kemet_throw_kept(R, NULL))
FN(kemet_moves, null, kemet_moves(NULL, &P, &T, many))
FN(kemet_next_steps, null, kemet_next_steps(R, &BAD, &T, &M, many, NULL))
FN(kemet_steps_pos, null, kemet_steps_pos(R, &P, &T, NULL, &BAD))
FN(kemet_apply, null, kemet_apply(R, &P, &T, NULL, &BAD, NULL))
FN(kemet_describe, null, kemet_describe(R, NULL, buf, sizeof buf))
FN(kemet_explain, null, kemet_explain(R, &P, &T, NULL, buf, sizeof buf))
FN(kemet_judge_new, null, kemet_judge_new(NULL, NULL, NULL, &E))
FN(kemet_judge_use_table, null, kemet_judge_use_table(NULL, NULL))
FN(kemet_judge_use_race, null, kemet_judge_use_race(NULL, NULL))
FN(kemet_judge_use_net, null, kemet_judge_use_net(NULL, NULL))
FN(kemet_eval_features, null, kemet_eval_features(R, NULL, NULL))
FN(kemet_eval_weights, null, kemet_eval_weights(NULL, NULL))
FN(kemet_eval_set_weights, null, kemet_eval_set_weights(J, NULL, 7))
FN(kemet_eval_load, null, kemet_eval_load(J, NULL, &E))
FN(kemet_pos_parse, null, kemet_pos_parse(NULL, NULL, NULL, &E))
FN(kemet_pos_parse_board, null, kemet_pos_parse_board(NULL, NULL, NULL, &P, &E))
FN(kemet_pos_read, null, kemet_pos_read(NULL, "x", &BAD, &E))
FN(kemet_pos_check, null, kemet_pos_check(NULL, NULL, &E))
FN(kemet_pos_format, null, kemet_pos_format(R, NULL, buf, sizeof buf))
FN(kemet_move_parse, null, kemet_move_parse(R, NULL, &M, &E))
FN(kemet_move_format, null, kemet_move_format(NULL, buf, sizeof buf))
FN(kemet_move_upgrade, null, kemet_move_upgrade(R, NULL, &M))
FN(kemet_throw_parse, null, kemet_throw_parse(NULL, "1", &T, &E))
FN(kemet_throw_format, null, kemet_throw_format(NULL, buf, sizeof buf))
FN(kemet_art, null, kemet_art(R, NULL))
/* the game driver */
FN(kemet_game_new, null, kemet_game_new(R, 1, NULL, NULL))
FN(kemet_game_setup, null, kemet_game_setup(R, 1, NULL, NULL, &E))
FN(kemet_game_roll, null, kemet_game_roll(NULL, &T))
FN(kemet_game_play, null, kemet_game_play(NULL, &M, NULL))
FN(kemet_game_playout, null, kemet_game_playout(NULL, NULL, 10, 0))
FN(kemet_game_set_players, null, kemet_game_set_players(G, "a", NULL))
FN(kemet_game_resign, null, kemet_game_resign(NULL, 1))
FN(kemet_game_stop, null, kemet_game_stop(NULL))
FN(kemet_game_back, null, kemet_game_back(NULL, 0))
FN(kemet_game_takeback, null, kemet_game_takeback(G, 3))
FN(kemet_game_record, null, kemet_game_record(G, NULL))
FN(kemet_game_read, null, kemet_game_read(R, NULL, &G2, &E))
FN(kemet_game_step_with, null, kemet_game_step_with(G, NULL, NULL, many, NULL))
FN(kemet_game_step, null, kemet_game_step(G, NULL, NULL))
/* agents, rollouts, luck */
FN(kemet_agent_new_judged, null,
   kemet_agent_new_judged(NULL, "greedy", 1, NULL, &E))
FN(kemet_agent_new, null, kemet_agent_new(R, NULL, 1, NULL, &E))
FN(kemet_rollout_run, null,
   kemet_rollout_run(J, &P, NULL, NULL, 0, NULL, NULL, NULL, &E))
FN(kemet_throw_luck, null, kemet_throw_luck(J, &BAD, &T, NULL, &E))
/* tables, race databases, networks */
FN(kemet_table_class, null, kemet_table_class(NULL, 2, NULL, &E))
FN(kemet_table_solve, null, kemet_table_solve(R, 2, 1, NULL, NULL, NULL, &E))
FN(kemet_table_solve_parts, null,
   kemet_table_solve_parts(NULL, 2, 1, NULL, NULL, NULL, NULL, &E))
FN(kemet_table_save, null, kemet_table_save(NULL, "/tmp/x", &E))
FN(kemet_table_load, null, kemet_table_load(R, NULL, NULL, &E))
FN(kemet_race_solve, null, kemet_race_solve(NULL, NULL, &E))
FN(kemet_net_train, null, kemet_net_train(R, NULL, NULL, NULL, NULL, NULL, &E))
FN(kemet_net_parse, null, kemet_net_parse(R, NULL, NULL, &E))
FN(kemet_net_format, null, kemet_net_format(NULL, NULL, NULL))
/* records, review, analysis */
FN(kemet_record_header, null,
   kemet_record_header(NULL, 1, "a", "b", &P, buf, sizeof buf))
FN(kemet_record_setup, null,
   kemet_record_setup(R, 1, "a", "b", NULL, buf, sizeof buf))
FN(kemet_record_ply, null, kemet_record_ply(NULL, &T, &M, buf, sizeof buf))
FN(kemet_record_resign, null, kemet_record_resign(3, buf, sizeof buf))
FN(kemet_record_result, null, kemet_record_result(NULL, 0, buf, sizeof buf))
FN(kemet_replay, null, kemet_replay(NULL, NULL, NULL, 0, NULL, &E))
FN(kemet_record_read, null, kemet_record_read(NULL, NULL, NULL, NULL, NULL, &E))
FN(kemet_review, null,
   kemet_review(NULL, R, &P, NULL, 0, (kemet_review_entry *)buf, 1, NULL, &E))
FN(kemet_analyze_traces, null, kemet_analyze_traces(NULL, 1, NULL))
FN(kemet_arrivals, null, kemet_arrivals(R, &P, NULL, NULL, 8))
/* matches */
static const char *const PLAYERS[2] = {"greedy", "rearmost"};
static kemet_outcome OUT[2];
static kemet_match_stats STATS;
FN(kemet_player_check, null, kemet_player_check(R, NULL, &E))
FN(kemet_player_check, syntax, kemet_player_check(R, "oracle", &E))
FN(kemet_play_seeded, null,
   kemet_play_seeded(J, PLAYERS, 1, 10, NULL, NULL, NULL, NULL, &E))
FN(kemet_match_game, null, kemet_match_game(NULL, PLAYERS, 0, 1, 0, 10, 0, OUT))
FN(kemet_match_game, index, kemet_match_game(J, PLAYERS, 0, 1, -1, 10, 0, OUT))
FN(kemet_match_tally, null, kemet_match_tally(NULL, 2, 0, &STATS))
/* studies */
static kemet_study_settings SETTINGS;
static kemet_study *STUDY;
static kemet_study_group GROUP;
static kemet_study_figures FIGURES;
static kemet_measured MEASURED;
static size_t LEN;
FN(kemet_study_new, null, kemet_study_new(J, NULL, &STUDY, &E))
FN(kemet_study_next, null, kemet_study_next(NULL, NULL, NULL))
FN(kemet_study_group_info, null, kemet_study_group_info(NULL, 0, &GROUP))
FN(kemet_study_play, null, kemet_study_play(NULL, 0))
FN(kemet_study_unit_save, null, kemet_study_unit_save(NULL, 0, NULL, 0, &LEN))
FN(kemet_study_unit_load, null, kemet_study_unit_load(NULL, 0, buf, 1))
FN(kemet_study_run, null, kemet_study_run(NULL, 1))
FN(kemet_study_result, null, kemet_study_result(NULL, &FIGURES))
FN(kemet_study_measured, null, kemet_study_measured(NULL, 0, &MEASURED))
FN(kemet_study_new, range,
   (kemet_study_defaults(&SETTINGS), SETTINGS.rungs = 9,
    kemet_study_new(J, &SETTINGS, &STUDY, &E)))
/* the verdict */
static kemet_judged JUDGED[1];
static int ORDER[1];
FN(kemet_verdict, null, kemet_verdict(NULL, 1, -1, JUDGED, ORDER))
FN(kemet_verdict, count, kemet_verdict(NULL, -1, -1, JUDGED, ORDER))
/* the other codes a misuse can have */
FN(kemet_move_format, range, kemet_move_format(&M, buf, 0))
FN(kemet_pos_format, range, kemet_pos_format(R, &P, buf, 4))
FN(kemet_record_ply, range, kemet_record_ply(&P, &T, &M, buf, 2))
FN(kemet_explain, range, kemet_explain(R, &P, &T, &M, buf, 0))
FN(kemet_game_roll, over, kemet_game_roll(G, &T))
FN(kemet_game_resign, over, kemet_game_resign(G, 1))
FN(kemet_game_stop, over, kemet_game_stop(G))
FN(kemet_game_back, nohistory, kemet_game_back(G, 0))
FN(kemet_game_record, nohistory, kemet_game_record(G, &TEXT))
FN(kemet_game_set_players, control,
   kemet_game_set_players(G, "a\nplayer2 b", "c"))
FN(kemet_game_read, ruleset,
   kemet_game_read(R, "kemet-record 1\nruleset chien-chacal\nseed 1\n", &G2,
                   &E))
FN(kemet_game_read, noseed,
   kemet_game_read(R, "kemet-record 1\nruleset senet-kendall\n", &G2, &E))
FN(kemet_judge_new, syntax, kemet_judge_new(R, "tanh", &J, &E))
FN(kemet_agent_new, syntax, kemet_agent_new(R, "nosuch", 1, &A, &E))
FN(kemet_rules_open, ruleset, kemet_rules_open("nosuch", &R, &E))
FN(kemet_moves, throw,
   kemet_moves(R, &P, &(kemet_throw){.n = 1, .v = {9}}, many))
/* a NULL throw is a NULL pointer (libkemet(3)), not a throw the ruleset
 * cannot produce */
FN(kemet_moves, nullthrow, kemet_moves(R, &P, NULL, many))
FN(kemet_next_steps, nullthrow, kemet_next_steps(R, &P, NULL, &M, many, NULL))

static const call calls[] = {
    CALL(kemet_rules_open, null, "NULL spec", -1),
    CALL(kemet_rules_open_board, null, "NULL out", -1),
    CALL(kemet_rules_open_text, null, "NULL text", -1),
    CALL(kemet_rules_open_file, null, "NULL path", -1),
    CALL(kemet_rule_changes, null, "NULL rules", KEMET_EMISUSE),
    CALL(kemet_change_text, null, "NULL change", KEMET_EMISUSE),
    CALL(kemet_rules_open_change, null, "NULL rules", KEMET_EMISUSE),
    CALL(kemet_change_effects, null, "NULL figures", KEMET_EMISUSE),
    CALL(kemet_explain_flag, null, "NULL figures", KEMET_EMISUSE),
    CALL(kemet_explain_standing, null, "NULL effects", KEMET_EMISUSE),
    CALL(kemet_verdict_units, null, "NULL figures", KEMET_EMISUSE),
    CALL(kemet_pos_parse_text, null, "NULL text", -1),
    CALL(kemet_replay_text, null, "NULL text", -1),
    CALL(kemet_record_read_text, null, "NULL rules", -1),
    CALL(kemet_on_board, null, "player 3", -1),
    CALL(kemet_points, null, "an unusable position", -1),
    CALL(kemet_throws, null, "an unusable position", -1),
    CALL(kemet_prethrow, null, "NULL position", -1),
    CALL(kemet_throw_kept, null, "NULL position", -1),
    CALL(kemet_moves, null, "NULL rules", -1),
    CALL(kemet_next_steps, null, "an unusable position", -1),
    CALL(kemet_steps_pos, null, "NULL steps", -1),
    CALL(kemet_apply, null, "NULL move", -1),
    CALL(kemet_describe, null, "NULL events", -1),
    CALL(kemet_explain, null, "NULL move", -1),
    CALL(kemet_judge_new, null, "NULL rules", -1),
    CALL(kemet_judge_use_table, null, "NULL judge", -1),
    CALL(kemet_judge_use_race, null, "NULL judge", -1),
    CALL(kemet_judge_use_net, null, "NULL judge", -1),
    CALL(kemet_eval_features, null, "NULL position", -1),
    CALL(kemet_eval_weights, null, "NULL judge", -1),
    CALL(kemet_eval_set_weights, null, "NULL weights", -1),
    CALL(kemet_eval_load, null, "NULL text", -1),
    CALL(kemet_pos_parse, null, "NULL text", -1),
    CALL(kemet_pos_parse_board, null, "NULL text", -1),
    CALL(kemet_pos_read, null, "NULL rules", -1),
    CALL(kemet_pos_check, null, "NULL rules and position", -1),
    CALL(kemet_pos_format, null, "NULL position", -1),
    CALL(kemet_move_parse, null, "NULL text", -1),
    CALL(kemet_move_format, null, "NULL move", -1),
    CALL(kemet_move_upgrade, null, "NULL position", -1),
    CALL(kemet_throw_parse, null, "NULL rules", -1),
    CALL(kemet_throw_format, null, "NULL throw", -1),
    CALL(kemet_art, null, "NULL out", -1),
    CALL(kemet_game_new, null, "NULL out", -1),
    CALL(kemet_game_setup, null, "NULL position", -1),
    CALL(kemet_game_roll, null, "NULL game", -1),
    CALL(kemet_game_play, null, "NULL game", -1),
    CALL(kemet_game_playout, null, "NULL game", -1),
    CALL(kemet_game_set_players, null, "NULL name", -1),
    CALL(kemet_game_resign, null, "NULL game", -1),
    CALL(kemet_game_stop, null, "NULL game", -1),
    CALL(kemet_game_back, null, "NULL game", -1),
    CALL(kemet_game_takeback, null, "player 3", -1),
    CALL(kemet_game_record, null, "NULL text", -1),
    CALL(kemet_game_read, null, "NULL text", -1),
    CALL(kemet_game_step_with, null, "NULL chooser", -1),
    CALL(kemet_game_step, null, "NULL agent", -1),
    CALL(kemet_agent_new_judged, null, "NULL judge", -1),
    CALL(kemet_agent_new, null, "NULL spec", -1),
    CALL(kemet_rollout_run, null, "NULL options", -1),
    CALL(kemet_throw_luck, null, "an unusable position", -1),
    CALL(kemet_table_class, null, "NULL rules", -1),
    CALL(kemet_table_solve, null, "NULL out", -1),
    CALL(kemet_table_solve_parts, null, "NULL rules", -1),
    CALL(kemet_table_save, null, "NULL table", -1),
    CALL(kemet_table_load, null, "NULL path", -1),
    CALL(kemet_race_solve, null, "NULL rules", -1),
    CALL(kemet_net_train, null, "NULL options", -1),
    CALL(kemet_net_parse, null, "NULL text", -1),
    CALL(kemet_net_format, null, "NULL network", -1),
    CALL(kemet_record_header, null, "NULL rules", -1),
    CALL(kemet_record_setup, null, "NULL position", -1),
    CALL(kemet_record_ply, null, "NULL position", -1),
    CALL(kemet_record_resign, null, "player 3", -1),
    CALL(kemet_record_result, null, "NULL position", -1),
    CALL(kemet_replay, null, "NULL text", -1),
    CALL(kemet_record_read, null, "NULL text", -1),
    CALL(kemet_review, null, "NULL agent", -1),
    CALL(kemet_analyze_traces, null, "NULL games", -1),
    CALL(kemet_arrivals, null, "NULL positions and counts", -1),
    CALL(kemet_player_check, null, "NULL spec", -1),
    CALL(kemet_player_check, syntax, "no such player", -2),
    CALL(kemet_play_seeded, null, "NULL out", -1),
    CALL(kemet_match_game, null, "NULL judge", -1),
    CALL(kemet_match_game, index, "a negative game", -1),
    CALL(kemet_match_tally, null, "NULL outcomes", -1),
    CALL(kemet_study_new, null, "NULL settings", -1),
    CALL(kemet_study_new, range, "a ladder of 9 agents", -1),
    CALL(kemet_study_next, null, "NULL study", -1),
    CALL(kemet_study_group_info, null, "NULL study", -1),
    CALL(kemet_study_play, null, "NULL study", -1),
    CALL(kemet_study_unit_save, null, "NULL study", -1),
    CALL(kemet_study_unit_load, null, "NULL study", -1),
    CALL(kemet_study_run, null, "NULL study", -1),
    CALL(kemet_study_result, null, "NULL study", -1),
    CALL(kemet_study_measured, null, "NULL figures", -1),
    CALL(kemet_verdict, null, "NULL figures", -1),
    CALL(kemet_verdict, count, "a negative count", -1),
    CALL(kemet_move_format, range, "no room", -8),
    CALL(kemet_pos_format, range, "too little room", -8),
    CALL(kemet_record_ply, range, "too little room", -8),
    CALL(kemet_explain, range, "no room", -8),
    CALL(kemet_game_roll, over, "a finished game", -6),
    CALL(kemet_game_resign, over, "a finished game", -6),
    CALL(kemet_game_stop, over, "a finished game", -6),
    CALL(kemet_game_back, nohistory, "a game played on by playout", -1),
    CALL(kemet_game_record, nohistory, "a game played on by playout", -1),
    CALL(kemet_game_set_players, control, "a newline in a name", -1),
    CALL(kemet_game_read, ruleset, "another ruleset's record", -3),
    CALL(kemet_game_read, noseed, "a record without a seed", -2),
    CALL(kemet_judge_new, syntax, "an unknown evaluation", -2),
    CALL(kemet_agent_new, syntax, "an unknown agent", -2),
    CALL(kemet_rules_open, ruleset, "an unknown ruleset", -3),
    CALL(kemet_moves, throw, "a throw the sticks cannot give", -4),
    CALL(kemet_moves, nullthrow, "NULL throw", -1),
    CALL(kemet_next_steps, nullthrow, "NULL throw", -1),
};
enum { NCALLS = (int)(sizeof calls / sizeof calls[0]) };

/* The functions of kemet.h returning int or long that return no status. */
static const char *const no_status[] = {
    "kemet_ruleset_count",
    "kemet_move_equal",
    "kemet_throw_equal",
    "kemet_square_cell",
    "kemet_game_turns",
    "kemet_game_plies",
    "kemet_agent_count",
    "kemet_agent_choose",
    "kemet_agent_rank",
    "kemet_table_probe",
    "kemet_table_position",
    "kemet_race_probe",
    "kemet_net_hidden",
    "kemet_net_endgame",
    /* the session's yes/no, player, result and index answers */
    "kemet_game_is_setup",
    "kemet_game_mover",
    "kemet_game_result",
    "kemet_game_resigned",
    "kemet_game_stopped",
    "kemet_game_next",
    "kemet_game_last_move",
    /* the contestant an opening seats as player 2, 0 (test_jequier) */
    "kemet_opening_black",
    /* a ruleset's options: a count, and a length or -1 (test_rulefile) */
    "kemet_rules_option_count",
    "kemet_rules_option_value",
    /* the verdict's and the stopping rule's yes/no, count and sample
     * sizes (each a 0 for NULL: test_verdict, test_study) */
    "kemet_criterion_flag",
    "kemet_measured_indication",
    "kemet_study_settled",
    "kemet_verdict_outranks",
    "kemet_precision_size",
    "kemet_size_for_sd",
};

static bool listed(const char *name) {
    for (int i = 0; i < NCALLS; i++)
        if (strcmp(calls[i].name, name) == 0)
            return true;
    for (size_t i = 0; i < sizeof no_status / sizeof *no_status; i++)
        if (strcmp(no_status[i], name) == 0)
            return true;
    return false;
}

/* Every int- or long-returning function of kemet.h is accounted for. */
static void every_function_listed(void **state) {
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/include/kemet.h", KEMET_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[1 << 18];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    int seen = 0;
    for (char *s = text; (s = strstr(s, "KEMET_API ")) != NULL; s++) {
        char type[16], name[80];
        if (sscanf(s + 10, "%15s %79[a-z_0-9]", type, name) != 2)
            continue;
        if ((strcmp(type, "int") != 0 && strcmp(type, "long") != 0) ||
            strcmp(name, "long") == 0) /* long long: a count */
            continue;
        if (!listed(name))
            fail_msg("%s returns a status but test_misuse.c does not call it",
                     name);
        seen++;
    }
    assert_true(seen > 60);
}

/* Each call gives the documented code. */
static void documented_codes(void **state) {
    (void)state;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-kendall", &R, &err), KEMET_OK);
    assert_int_equal(kemet_judge_new(R, NULL, &J, &err), KEMET_OK);
    kemet_start(R, &P);
    BAD = P;
    BAD.to = 3;
    T = (kemet_throw){.n = 1, .v = {3}};
    assert_true(kemet_moves(R, &P, &T, many) > 0);
    M = many[0];
    assert_int_equal(kemet_game_setup(R, 1, &P, &G, &err), KEMET_OK);
    /* a finished game for kemet_game_roll's KEMET_EOVER */
    kemet_rng pick;
    kemet_rng_seed(&pick, 1);
    assert_int_equal(kemet_game_playout(G, &pick, 100000, 0), KEMET_OK);
    assert_true(kemet_result(kemet_game_pos(G)) != KEMET_PLAYING);
    int failed = 0;
    for (int i = 0; i < NCALLS; i++) {
        kemet_rules *keep_r = R;
        kemet_judge *keep_j = J;
        long got = calls[i].fn();
        if (got != calls[i].want) {
            print_error("%s, %s: %ld (%s), not %d (%s)\n", calls[i].name,
                        calls[i].what, got, kemet_strerror((int)got),
                        calls[i].want, kemet_strerror(calls[i].want));
            failed++;
        }
        R = keep_r; /* the refused calls leave their outputs NULL */
        J = keep_j;
    }
    kemet_game_free(G);
    assert_null(G2);
    assert_null(TEXT);
    kemet_judge_free(J);
    kemet_rules_close(R);
    assert_int_equal(failed, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_function_listed),
        cmocka_unit_test(documented_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
