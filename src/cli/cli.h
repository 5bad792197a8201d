/* cli.h - what the kemet program's command files share.
 *
 * Every command is `int cmd_NAME(int argc, char **argv)` with argv[0] the
 * command's name; it returns the process exit status: 0 for success, 2 for
 * bad input (after one line on standard error, via cli_fail). The program
 * uses only the public header kemet.h.
 */
#ifndef KEMET_CLI_H
#define KEMET_CLI_H

#include "kemet.h"
#include "common.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define EXIT_BAD 2

/* The --tables option, in the usage of every command that takes agents. */
#define TABLES_HELP                                                            \
    "--tables DIR|on|off|race: where the exact endgame tables are (default:\n" \
    "$KEMET_TABLES, else the cache folder ~/.cache/kemet); a DIR must exist\n" \
    "(kemet solve makes one); on: the cache folder; off: none, and no race\n"  \
    "databases; race: the race databases alone. docs/tables.md.\n"

/* The --rules option (util.c, cli_parse: every command takes it), for
 * the help of the commands that name a ruleset or a position; of those
 * that read a record; and of the engine. */
#define RULES_HELP                                                             \
    "--rules FILE reads a ruleset file (docs/rulesets.md): a RULESET or\n"     \
    "POSITION may then name its id; a RULESET may also be the file itself,\n"  \
    "FILE.rules[:key=value,...]. --rules again for each further file.\n"
#define RECORD_RULES_HELP                                                      \
    "--rules FILE: the ruleset file (docs/rulesets.md) a record of a file's\n" \
    "ruleset was played under; the record is refused under any other text.\n"

/* The --net option: a network file to use instead of the built-in
 * evaluation, or "linear" (train.c). */
#define NET_HELP                                                               \
    "--net FILE|linear: the learned evaluation to use instead of the "         \
    "built-in one\n(a file kemet train made), or the linear one.\n"
extern const char *cli_net;
/* Puts the --net option's choice in use for `j` (NULL: nothing to do).
 * 0, or EXIT_BAD after a message. */
int cli_use_net(kemet_judge *j, const char *opt);
/* Keeps a network until the program ends. */
void cli_keep_net(kemet_net *net);

/* Prints "kemet: MESSAGE" on stderr; returns EXIT_BAD. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Command-line options: "--name VALUE", "--name=VALUE" or a flag "--name".
 * Positional arguments are collected in order. */
/* The turn cap of games between computers unless told (ruling G5). */
#define CLI_MAX_TURNS 1000

typedef enum { OPT_FLAG, OPT_STRING, OPT_U64, OPT_LONG } opt_kind;
typedef struct cli_opt {
    const char *name; /* without the dashes */
    opt_kind kind;
    void *out;     /* bool*, const char**, uint64_t*, long* */
    long min, max; /* for OPT_LONG */
} cli_opt;

/* s as a non-negative whole number of decimal digits into *out: 0, or -1
 * (nothing, another character, or above 2^64 - 1). */
int cli_parse_u64(const char *s, uint64_t *out);

/* Parses argv[1..argc). Returns 0, 1 when --help was asked (usage printed
 * on stdout), or EXIT_BAD after an error message. */
int cli_parse(int argc, char **argv, const cli_opt *opts, const char **pos,
              int min_pos, int max_pos, int *npos, const char *usage);

/* Opens a ruleset or fails with a message (returns NULL). `board` is the
 * path of a board file (--board), or NULL for the built-in board. */
kemet_rules *cli_rules(const char *spec, const char *board);
/* Where spec names a ruleset file (FILE.rules, or FILE.rules:OPTIONS,
 * split at the last ':' after '.rules'), the length of its path; else 0
 * (an id, or a --rules file's id). */
size_t cli_rules_file_named(const char *spec);
/* Reads the ruleset file of --rules FILE (any command takes it, several
 * times for several files, each id once; a ruleset argument ending in
 * ".rules" is read the same way). Returns 0, or EXIT_BAD after a message. */
int cli_rules_load(const char *path);
/* The text of the file of --rules whose id `spec` (or a position) names,
 * else NULL; and the first file's path (NULL: none given). */
const char *cli_rules_text_for(const char *spec);
const char *cli_rules_path(void);
/* The text of the first file of --rules, or NULL (the commands that read
 * one record or game). */
const char *cli_rules_text(void);
/* The files of --rules, in the order given: how many, and each one's text
 * and path (NULL outside 0..count-1). */
int cli_rules_count(void);
const char *cli_rules_text_at(int i);
const char *cli_rules_path_at(int i);
/* kemet_pos_parse_board, the position's ruleset being --rules's file
 * when the position names its id. */
int cli_pos_parse(const char *text, const char *board_text, kemet_rules **r,
                  kemet_pos *pos, kemet_error *err);
/* Reads the board file given with --board (NULL: none, *text NULL).
 * Returns 0, or EXIT_BAD after a message. */
int cli_board_text(const char *path, char **text);

/* Reads a whole text file (at most `limit` bytes). NULL after a message. */
char *cli_read_file(const char *path, size_t limit);

/* Reads one line of standard input whole, whatever its length, into
 * `buf` (`len` bytes) with the spaces around it trimmed. CLI_LINE_OK;
 * CLI_LINE_END at end of input; CLI_LINE_BAD after a line on standard
 * output saying why the line was refused (longer than `len` - 1 bytes, a
 * NUL byte, or control characters such as an arrow key's escape
 * sequence): none of it is to be run. */
enum { CLI_LINE_OK, CLI_LINE_END, CLI_LINE_BAD };
int cli_read_line(char *buf, size_t len);

/* Asks `question` (" y/n> " is added) until the answer is yes or no:
 * 1 yes, 0 no, -1 end of input. */
int cli_yes_no(const char *question);

/* Whether `line` is a whole number as typed ("12", "-3", "99999999999"),
 * with its value, LONG_MAX or LONG_MIN when it is out of range. */
bool cli_number(const char *line, long *value);

/* A long step without progress of its own (a review, rollouts): on a
 * terminal (standard error a tty), after a second, "  WHAT... N s" on
 * standard error, counting, until cli_busy_end wipes it. Elsewhere
 * nothing. One at a time. */
void cli_busy_start(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_busy_end(void);

/* Seconds from a monotonic clock. */
double cli_now(void);

/* Whether a side's name is a plural ("Hounds", "Jackals": "Hounds move",
 * "Hounds' piece") rather than one player ("White moves"). */
bool cli_plural(const char *name);

/* Writes what a move did in words, one sentence per event; the lines
 * written. */
int cli_describe(const kemet_rules *rules, const kemet_events *ev, FILE *out);

/* Draws the board; `mark` is a cell to highlight (0 for none). The
 * ruleset's picture where the terminal is wide enough for it, else the
 * compact form (every hole as its number and what stands on it). */
void cli_board(const kemet_rules *rules, const kemet_pos *pos, int mark,
               FILE *out);
enum { CLI_BOARD_AUTO, CLI_BOARD_FULL, CLI_BOARD_COMPACT };
void cli_board_as(const kemet_rules *rules, const kemet_pos *pos, int mark,
                  FILE *out, int form);

/* A screen of kemet play within the terminal's rows (cli_rows): the board
 * takes at most the rows less CLI_SCREEN_ROOM, the room kept for the
 * sides' counts, the last turn, the throw, a few choices and the prompt. */
enum { CLI_SCREEN_ROOM = 10 };
/* The form the board takes in a screen of `rows` rows when `form` is asked
 * for: CLI_BOARD_AUTO is the picture where it fits the width and half the
 * rows, else the compact form; the picture (CLI_BOARD_FULL) too tall for
 * the screen is the compact form. */
int cli_board_form(const kemet_rules *rules, int form, FILE *out, int rows);
/* Draws the board in a screen of `rows` rows in the form cli_board_form
 * says, and returns the lines written. The compact form keeps the board's
 * layout where that fits the screen, else it lists each side's holes in
 * the order its pieces run them, ten to a row (the 58 holes). */
int cli_board_in(const kemet_rules *rules, const kemet_pos *pos, int mark,
                 FILE *out, int form, int rows);

/* The width of the terminal `out` writes to: $COLUMNS, else the
 * terminal's own, else 80. */
int cli_columns(FILE *out);

/* The player who resigned the checked game record `text` (0: nobody): a
 * record's "resign P" is no ply, so kemet_replay ends it won where the
 * position its plies reach is not. With `board`, that position's line
 * (util.c; kemet replay and kemet review). */
int cli_record_resigned(const char *text, char *board, size_t len);

/* A ruleset for a player in one line: its author, year and character
 * ("Timothy Kendall, 1979. Seven pieces each; ..."), util.c. */
void cli_rules_byline(const kemet_info *info, char *buf, size_t len);

/* The width to write text in: the terminal's less one, at most 79. */
int cli_text_width(FILE *out);
/* The height of the terminal `out` writes to: $LINES, else the
 * terminal's own, else 24. */
int cli_rows(FILE *out);

/* Writes `text` wrapped at `width` columns at word boundaries (util.c),
 * each line indented by `indent` spaces; a newline in the text is kept
 * (runs of spaces are not: the text is words). These three return the
 * lines written. */
int cli_wrap(FILE *out, const char *text, int width, int indent);
/* The same with the first line of each paragraph indented by `indent`
 * and the lines that continue it by `hang`. CLI_NBSP in the text is a
 * space where no line may break. */
#define CLI_NBSP '\x1f'
int cli_wrap_hang(FILE *out, const char *text, int width, int indent, int hang);
/* printf, then wrapped to the width of `out` (cli_text_width) as
 * cli_wrap_hang does, but keeping the runs of spaces within a line (the
 * columns of a table stay aligned where they fit); a line ends the text. */
int cli_say(FILE *out, int indent, int hang, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The processor time this thread has used, in seconds. */
double cli_thread_time(void);
/* Plays one game with dice seeded `seed` in which every choice is drawn
 * from `pick` (which runs on from game to game), stopping before a turn
 * beyond `cap` begins (ruling G5): the search benchmark's positions. On
 * success *out is the finished (or stopped) game, to free. `fn` may be
 * NULL. */
int cli_play_random(const kemet_rules *r, uint64_t seed, kemet_rng *pick,
                    long cap, kemet_ply_fn fn, void *ctx, kemet_game **out);

/* Whether `spec` names a player for `r` (an agent or a simple strategy:
 * kemet_player_check); else a message, prefixed with `option` ("--p1")
 * when not NULL, and EXIT_BAD. Checked before a long run starts. */
int cli_agent_check(const kemet_rules *r, const char *spec, const char *option);
/* Opens a ruleset (cli_rules) and its judge (*judge, to free before the
 * rules are closed) with the --tables and --net options in use and,
 * unless `agents` is NULL, its two agents checked (as --p1 and --p2);
 * where neither agent uses them (random, @plain), no endgame table or
 * race database is looked for or made. NULL after a message. */
kemet_rules *cli_rules_for(const char *spec, const char *board,
                           const char *const agents[2], kemet_judge **judge);
/* The judge of `r` (kemet_judge_new) with the --tables and --net options
 * in use; NULL after a message. */
kemet_judge *cli_judge(const kemet_rules *r);

/* As kc_rank, with each chance from kemet_rollout_run. Returns the count,
 * or a KEMET_E* code (err filled). */
int cli_rank_rollout(const kemet_judge *j, const kemet_pos *pos,
                     const kemet_throw *thr, const kemet_move *moves, int n,
                     const kemet_rollout *opts, kc_ranked *out,
                     kemet_error *err);

/* The thread count: `asked` if positive, else the cores there are. */
int cli_threads(long asked);
/* Runs fn(ctx, i) for i in [0, n) on `threads` threads; each call must
 * write only its own results. Shows progress on stderr as `what` (NULL:
 * none) after two seconds. Returns 0, or the first non-zero fn result. */
typedef int (*cli_job_fn)(void *ctx, long i);
int cli_parallel(long n, int threads, cli_job_fn fn, void *ctx,
                 const char *what);
/* The same for this rank's `n` items of a run of `total` dealt over the
 * ranks, called by every rank with the same `what`: rank 0 shows the
 * whole job's progress. */
int cli_parallel_dealt(long n, long total, int threads, cli_job_fn fn,
                       void *ctx, const char *what);

/* Open MPI (mpi.c; docs/cluster.md): under mpirun each copy of the
 * program is a rank; otherwise there is one, rank 0. Only rank 0 prints
 * (the others' standard output is closed at the start). */
void cli_mpi_start(int *argc, char ***argv);
void cli_mpi_end(void);
/* For a command not dealt over the ranks: true on rank 0, which then runs
 * it as the only rank (saying so when there are others); false on the
 * others, which do nothing. */
bool cli_mpi_alone(const char *command);
int cli_mpi_rank(void);
int cli_mpi_size(void);
/* How many of n items dealt by index fall to rank r (items r, r + size,
 * ...), and to this rank. */
long cli_mpi_share_of(long n, int r);
long cli_mpi_share(long n);
/* After each rank has made its share of n items of `each` bytes (rank r
 * items r, r + size, ...: cli_mpi_share(n) of them in `mine`), gives every
 * rank all n in `all`, in order. `rc` is this rank's status; the worst status
 * of any rank is returned (then `all` is not filled). One rank: returns rc. */
int cli_mpi_deal(long n, size_t each, void *mine, void *all, int rc);

/* Progress of a dealt run (cli_parallel_dealt), on every rank alike:
 * cli_mpi_progress(done) now and then while the games go on (rank 0
 * gets the job's count as far as heard, the others tell theirs), then
 * cli_mpi_progress_end(done) once (rank 0 gets the job's final count).
 * One rank: returns done. */
long cli_mpi_progress(long done);
long cli_mpi_progress_end(long done);

/* The same when every rank knows every rank's count (counts[r] items of
 * `each` bytes from rank r): one exchange. 0, or KEMET_ERANGE (on every
 * rank) when the bytes overflow MPI's counts. */
int cli_mpi_join_known(const void *mine, void *all, size_t each,
                       const long *counts);
/* Every rank's `nmine` items of `each` bytes joined into `all` (`total`
 * items in all), rank 0's first, then rank 1's, ... 0, or KEMET_ENOMEM.
 * One rank: does nothing. */
int cli_mpi_join(const void *mine, long nmine, size_t each, void *all,
                 long total);

/* Plays games first..first+count-1 of a match seeded `seed` between
 * players spec[0] and spec[1] (kemet_match_game, `how` its flags), dealt
 * over `threads` threads and, under mpirun, over the ranks: out[k]
 * receives game first+k on every rank. The agents are seeded from the
 * game, so the results depend on neither. */
int cli_run_games(const kemet_judge *j, const char *const spec[2], int how,
                  uint64_t seed, long first, long count, long cap, int threads,
                  kemet_outcome *out, const char *what);

/* A match between players A (spec[0]) and B, seats alternating: played
 * with `how` (KEMET_MATCH_PAIRED, KEMET_MATCH_LUCK or 0), showing
 * progress, into *M (kemet_match_tally's figures, M->secs its wall time).
 * 0, or EXIT_BAD after a message. */
int cli_match(const kemet_judge *j, const char *const spec[2], long games,
              uint64_t seed, long cap, int threads, int how,
              kemet_match_stats *M);

int cmd_start(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_ladder(int argc, char **argv);
int cmd_analyze(int argc, char **argv);

int cmd_hint(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_soak(int argc, char **argv);
int cmd_review(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_judge(int argc, char **argv);

/* Endgame tables (tables.c). The tables folder: `opt` (--tables), else
 * $KEMET_TABLES, else the XDG cache; NULL when tables are "off" or there is
 * no folder. */
const char *cli_table_dir(const char *opt, char *buf, size_t len);
/* The --tables option of the command running (NULL: not given). */
extern const char *cli_tables;
/* Set by kemet play: a table made on first need is made without a word
 * (the player asked for a game, not for a file in a cache folder). */
extern bool cli_tables_quiet;
/* The file of the class of `pieces` of `r` in `dir`. */
void cli_table_path(const char *dir, const kemet_rules *r, int pieces,
                    char *buf, size_t len);
/* Lets the judge `j` use the largest table found in the tables folder
 * (`opt` as cli_table_dir). A file that cannot be used is named in one
 * line on stderr. Returns 1 when a table is in use. Tables stay loaded
 * until the program ends. */
int cli_use_tables(kemet_judge *j, const char *opt);

#endif
