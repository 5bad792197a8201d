/* report.h - what `kemet analyze` knows of each reading it reports on:
 * its study's figures, who it is, how it was judged, and what measuring
 * it took; and the measurements it keeps (kept.c).
 */
#ifndef KEMET_REPORT_H
#define KEMET_REPORT_H

#include "cli.h"

/* Rulesets, variants and rule changes in one report, at most. */
#define REPORT_MAX_SETS 64
#define REPORT_MAX_VARIANTS 64
#define REPORT_MAX (REPORT_MAX_SETS + REPORT_MAX_VARIANTS)
#define REPORT_MAX_CHANGES 600

/* The boards whose readings the report compares in a section of their
 * own ("Which Senet?"): Senet's 30 squares and the 58 holes, each the
 * built-in board of its families. */
enum { BOARD_OTHER, BOARD_SENET, BOARD_58, NBOARDS };

/* One reading: its study's figures, who it is, how it was judged, and
 * what measuring it took. */
typedef struct rep_reading {
    kemet_study_figures f; /* its samples point into `samples` */
    double *samples[2][KEMET_STUDY_SAMPLES]; /* weak [0], strong [1] */
    char title[96], base[64];
    /* as the report names it: title, author and year, and for a variant
     * what its options do in its rules' words (made by the measuring run
     * from its rules; "" where not made) */
    char name[512];
    int board;    /* BOARD_* */
    bool variant; /* from a sweep or --options, or a rule change */
    /* a rule change (--changes): 1 + the index of the reading it changes
     * one rule of (0: none), and the change */
    int change_of;
    kemet_change change;
    /* the control of its reading's rule changes (change_of names the
     * reading): the reading's own rules judged as its changes are, without
     * the endgame table or race database the reading itself was measured
     * with, so that a change differs from its control by the rule alone */
    bool control;
    /* a headroom study (--headroom): 1 + the index of the reading whose
     * strong agent it measures against a stronger one (0: none); its
     * figures' `head` is the stronger agent against the strong */
    int headroom_of;
    /* derived where the report is written: a headroom study shows its
     * skill figure to be a lower bound (the stronger agent's interval
     * wholly above one half) */
    bool bound;
    /* a reading measured again at the run's second seed (--check-seed):
     * 1 + the index of the ruleset named or variant it measures again (0:
     * none), a variant to twice the half-width */
    int check_of;
    /* the verdict's figures from strong [0] and weak [1] play, and the
     * flags of strong play (every criterion) */
    kemet_measured vm[2];
    int flags;
    /* for the rulesets named (not variants): the verdict among them, from
     * strong [0] and weak [1] play */
    kemet_judged vj[2];
    /* the run: measured by an earlier run and read back (--save); the
     * wall time of its measurement alone (--save); each part's seconds
     * (its games' thread time, or under mpirun its wall time) and their
     * sum */
    bool earlier;
    double wall, secs, part_secs[KEMET_PARTS];
    kemet_board_art art;
    /* the evaluation it was played with (the judge's): its network, by
     * the hash of its text the kept file's lines name (0: the linear
     * weights), that network's hidden units and endgame class, whether a
     * race database is in use, and whether a table or the race database
     * values the start (and so every position after it: the searchers
     * then play by those values throughout), with player 1's chance
     * there */
    uint64_t net;
    int net_hidden, net_endgame;
    bool race, exact_start;
    double start_value;
    /* who its rules are by and where they were published (a ruleset
     * named, its base opened at its defaults); rules_known false: not
     * known (a variant or rule change, or a base that did not open). The
     * strings are the reading's own (NULL: not given). */
    bool rules_known;
    struct rep_rules {
        char *author, *source_kind, *about, *board_note, *source, *reference;
        int year;
    } rules;
} rep_reading;

/* Frees the samples and the strings a reading owns. */
void rep_reading_free(rep_reading *R);
/* Takes the figures of a study measured whole into R->f, its samples
 * copied into R's own. 0, or KEMET_ENOMEM. */
int rep_reading_take(rep_reading *R, const kemet_study *s);

/* The settings of a run. */
typedef struct settings {
    kemet_study_settings s; /* each reading's study (but for `variant`) */
    const char *board;      /* --board, or NULL */
    int threads, procs;     /* threads; processes (under mpirun: ranks) */
    const char *save;       /* --save DIR, or NULL */
    const char *headroom;   /* --headroom AGENT, or NULL */
    bool check;             /* --check-seed: every reading again at */
    uint64_t check_seed;    /* this seed */
    /* --ludii FILE: Ludii's figures beside kemet's, its lines */
    const struct ludii_row *ludii;
    int nludii;
} settings;

/* The verdict of the same settings at another seed, measured by the run
 * (--check-seed) or read back from the --save folder: each ruleset's tier
 * there, and how it compares. */
#define MAX_SEEDS 4
typedef struct seed_verdict {
    uint64_t seed;
    int tier[REPORT_MAX_SETS], flags[REPORT_MAX_SETS], ord[REPORT_MAX_SETS];
} seed_verdict;

#define LUDII_ROWS 64
#define LUDII_COLS 18
/* One line of Ludii's summary (--ludii): its fields (spec, ludii_ruleset,
 * the turns and player 1's share of kemet and of Ludii with their
 * intervals, the same with Ludii's departures undone, whether they agree
 * then, the cause), and the title of the reading it names ("" where its
 * spec names none kemet opens). */
typedef struct ludii_row {
    char field[LUDII_COLS][400];
    char title[96];
} ludii_row;

/* ------------------------------------------------------------------------
 * The report's data (report_json.c; docs/analysis-json.md)
 * --------------------------------------------------------------------- */

/* Everything the report and its plots are written from: the readings
 * (the n rulesets named, then the nv variants, then the nc rule changes
 * and their controls, then the nh headroom studies, then the nk readings
 * measured again at the second seed: none, or the n rulesets and nv
 * variants in their order), the settings, the run and the other seeds'
 * verdicts. */
typedef struct rep_report {
    settings st; /* st.ludii: `ludii` below, when read back */
    rep_reading *R;
    int n, nv, nc, nh, nk;
    seed_verdict sv[MAX_SEEDS];
    int nsv;
    int argc; /* the command that measured, from its name on */
    char **argv;
    double secs; /* its wall time */
    /* read back (rep_json_read): what the report owns */
    ludii_row *ludii;
    char **own;
    int nown, room;
} rep_report;

/* The report as JSON, schema "kemet-analysis 1", onto o. */
void rep_json_write(FILE *o, const rep_report *P);
/* Whether this build reads JSON back (Jansson). */
bool rep_json_readable(void);
/* Reads the report in text[0..len) into *P (zeroed first; freed with
 * rep_report_free, also on failure). 0, or EXIT_BAD after one line
 * "kemet: NAME: ..." naming what is wrong. */
int rep_json_read(const char *text, size_t len, const char *name,
                  rep_report *P);
/* Reads the report from the file at `path` (at most REPORT_JSON_MAX
 * bytes) as rep_json_read. */
int rep_json_load(const char *path, rep_report *P);
#define REPORT_JSON_MAX (256L << 20)
/* Frees what a report read back owns (its readings among them). */
void rep_report_free(rep_report *P);

/* ------------------------------------------------------------------------
 * Measurements kept (kept.c; --save DIR)
 * --------------------------------------------------------------------- */

/* What decides a reading's numbers: the settings of the run. */
typedef struct kept_settings {
    const kemet_study_settings *st;
    const char *board; /* --board, or NULL */
} kept_settings;

/* The hash of the text of judge j's network by which a kept file's
 * lines name it into *hash (0 where j has none). 0, or EXIT_BAD after a
 * message (out of memory). */
int kept_net_hash(const kemet_judge *j, uint64_t *hash);
/* The lines that open the file of reading R measured with judge j under
 * settings k (into head), and its path in `dir`. 0, or EXIT_BAD after a
 * message. */
int kept_header(const kept_settings *k, const char *dir, const rep_reading *R,
                const kemet_judge *j, char *head, size_t hsize, char *path,
                size_t psize);
/* The path in `dir` of the file of reading `id` whose opening lines are
 * `head`. 0, or EXIT_BAD after a message. */
int kept_path(const char *dir, const char *id, const char *head, char *path,
              size_t psize);
/* R's measurement kept at `path` under `head`. 0, or EXIT_BAD after a
 * message; a file that cannot be written is left as it was. */
int kept_save(const char *path, const char *head, const rep_reading *R);
/* Reads R's measurement under settings st back from `path` if an earlier
 * run kept it (what opening the ruleset says of R stands), or else from
 * the file revision 2 kept of the same settings where its figures are
 * settled (kemet_study_settled): 1 when read, 0 when there is none (or
 * one of revision 2 that is not settled, said on stderr), EXIT_BAD after
 * a message. */
int kept_load(const char *path, const char *head,
              const kemet_study_settings *st, rep_reading *R);
/* The seeds other than `seed` of the files kept in `dir`, lowest first
 * (at most `most`); how many. */
int kept_seeds(const char *dir, uint64_t seed, uint64_t *seeds, int most);
/* `head` with its seed replaced by `seed`, into out. 0, or -1. */
int kept_reseed(const char *head, uint64_t seed, char *out, size_t size);
/* The most the opening lines of a kept file take. */
#define KEPT_HEAD 2048

#endif
