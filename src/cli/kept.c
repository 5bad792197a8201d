/* kept.c - the measurements `kemet analyze --save DIR` keeps.
 *
 * A long run (the published report takes hours) keeps each reading's
 * whole measurement in DIR as soon as it is made, and a run of the same
 * command reads back what an earlier one kept instead of playing it
 * again: a run cut short loses at most the reading it was measuring, and
 * the readings of one report may be measured by separate runs (on other
 * machines or days) whose folders are then joined.
 *
 * A file is named by the reading's id and a hash of its opening lines,
 * which say in words everything that decides its numbers: the settings
 * and the seed, the endgame table, race database and network in use (the
 * network by a hash of its text), the revision of the measurement
 * (KEPT_REV, raised whenever a change to kemet changes the numbers of the
 * same settings) and the layout of the figures. The figures follow, then
 * a checksum of them. A file whose lines do not match its name, or whose
 * figures are short, too long or fail the checksum, is refused with one
 * line naming it.
 *
 * Revision 3 added the stopping rule's final step (KEMET_STUDY_LEAST in
 * kemet.h): a sample of fewer than 100 games grown to 100, and the
 * strong self-play grown while the stopped share near its threshold has
 * too wide an interval. It acts only after the sizings of revision 2
 * have stopped, so where it would add no game the measurement of
 * revision 3 is the one revision 2 made: where this revision's file is
 * missing, the file kept at revision 2 under the same settings is read
 * instead when its figures are settled (kemet_study_settled, the one
 * test the study itself makes), and is passed over with a line on stderr
 * when they are not, so that the reading is measured again and kept at
 * revision 3 beside it.
 *
 * The figures are the image of one fixed structure, the layout of
 * revision 2 (kept2_result below: the program's own record of a
 * measurement when that revision was made, sizes 16680, 1888 and 392
 * bytes on a 64-bit machine), whatever the library's structures become:
 * the files kept in docs/analysis/runs stay readable, and a file written
 * now is one an earlier build reads. Reading converts that image into
 * the library's figures (kemet_study_figures) field by field; writing
 * converts back. The parts of the image that are not measurement (the
 * board's drawing, the verdict, which every report makes again) are
 * written as zeros and never read.
 */
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KEPT_REV 3
#define KEPT_MAGIC "kemet-analyze-measurement 1\n"
#define KEPT_MAX (256L << 20) /* bytes: far more than any run's file */
#define FNV_BASIS 0xcbf29ce484222325ULL

/* ------------------------------------------------------------------------
 * The layout of revision 2
 * --------------------------------------------------------------------- */
enum {
    K2_BINS = 20,
    K2_CELLS = 128,
    K2_SAMPLES = 3,
    K2_RUNGS = 8,
    K2_TRACE = 8,
    K2_PROBES = 3,
    K2_PARTS = 6,
    K2_CRITERIA = 7
};

typedef struct k2_stat {
    double value, lo, hi;
} k2_stat;

typedef struct k2_analysis {
    long games, ended, stopped, draws, wins[2];
    k2_stat completion, drawishness, advantage_p1, balance, duration_turns,
        duration_moves;
    double median_turns, sd_turns, median_moves, sd_moves;
    k2_stat lost_throws, forced_moves, choices, branching_factor, lead_change,
        drama, decisiveness_threshold;
} k2_analysis;

typedef struct k2_selfplay {
    char agent[2][48];
    long games;
    k2_analysis a;
    long hist[K2_BINS];
    double bin;
    bool luck;
    k2_stat adv_adj, median, per_turn, capped;
    double decisions;
    double land[K2_CELLS];
    double coverage;
    double exact_decisions, plain_errors, plain_loss;
    int nsample;
    int sample_n[K2_SAMPLES];
    int sample_result[K2_SAMPLES];
    double *sample[K2_SAMPLES]; /* written NULL */
} k2_selfplay;

typedef struct k2_estimate {
    double score, lo, hi, elo, elo_lo, elo_hi;
} k2_estimate;

typedef struct k2_match {
    long games, wins[2], seat_wins[2][2], draws, stopped;
    double turns, lo[2], hi[2], score, score_lo, score_hi, elo, elo_lo, elo_hi,
        secs;
    double think[2];
    int how;
    k2_estimate adj;
} k2_match;

typedef struct k2_step {
    char hi[48], lo[48];
    long games;
    k2_match m;
    k2_stat share;
    double luck_share; /* share.value */
    double sd;
    bool contradiction;
} k2_step;

typedef struct k2_judged {
    int flags;
    k2_stat cost[K2_CRITERIA];
    k2_stat penalty;
    int tier, place;
} k2_judged;

typedef struct k2_result {
    char id[96], title[96], base[64];
    bool variant;
    int board;
    int table_pieces;
    k2_selfplay weak, strong;
    int nsteps;
    k2_step ladder[K2_RUNGS - 1];
    k2_step head;
    double trace_y[K2_TRACE], skill_trace;
    k2_stat trace_adj[K2_TRACE];
    double skill_trace_adj;
    k2_step probe[K2_PROBES];
    double games_to_lead;
    double secs;
    double wall;
    bool earlier;
    double part_secs[K2_PARTS];
    union { /* the board's drawing: written as zeros, never read */
        double align;
        unsigned char b[7200];
    } art;
    struct {
        k2_stat c[K2_CRITERIA];
    } vm[2]; /* the verdict: written as zeros, never read */
    k2_judged vj[2];
    int flags;
} k2_result;

_Static_assert(sizeof(k2_result) == 16680 && sizeof(k2_selfplay) == 1888 &&
                   sizeof(k2_step) == 392,
               "the layout of revision 2 is a 64-bit machine's");
_Static_assert(KEMET_STUDY_BINS == (int)K2_BINS &&
                   KEMET_STUDY_CELLS == (int)K2_CELLS &&
                   KEMET_STUDY_SAMPLES == (int)K2_SAMPLES &&
                   KEMET_STUDY_RUNGS == (int)K2_RUNGS &&
                   KEMET_STUDY_TRACE == (int)K2_TRACE &&
                   KEMET_STUDY_PROBES == (int)K2_PROBES &&
                   (int)KEMET_PARTS == (int)K2_PARTS &&
                   (int)KEMET_CRITERIA == (int)K2_CRITERIA,
               "a study's figures as revision 2 kept them");

static kemet_stat stat_in(k2_stat s) {
    return (kemet_stat){s.value, s.lo, s.hi};
}

static k2_stat stat_out(kemet_stat s) {
    return (k2_stat){s.value, s.lo, s.hi};
}

static void analysis_in(const k2_analysis *a, kemet_analysis *b) {
    *b = (kemet_analysis){0};
    b->games = a->games;
    b->ended = a->ended;
    b->stopped = a->stopped;
    b->draws = a->draws;
    b->wins[0] = a->wins[0];
    b->wins[1] = a->wins[1];
    b->completion = stat_in(a->completion);
    b->drawishness = stat_in(a->drawishness);
    b->advantage_p1 = stat_in(a->advantage_p1);
    b->balance = stat_in(a->balance);
    b->duration_turns = stat_in(a->duration_turns);
    b->duration_moves = stat_in(a->duration_moves);
    b->median_turns = a->median_turns;
    b->sd_turns = a->sd_turns;
    b->median_moves = a->median_moves;
    b->sd_moves = a->sd_moves;
    b->lost_throws = stat_in(a->lost_throws);
    b->forced_moves = stat_in(a->forced_moves);
    b->choices = stat_in(a->choices);
    b->branching_factor = stat_in(a->branching_factor);
    b->lead_change = stat_in(a->lead_change);
    b->drama = stat_in(a->drama);
    b->decisiveness_threshold = stat_in(a->decisiveness_threshold);
}

static void analysis_out(const kemet_analysis *b, k2_analysis *a) {
    a->games = b->games;
    a->ended = b->ended;
    a->stopped = b->stopped;
    a->draws = b->draws;
    a->wins[0] = b->wins[0];
    a->wins[1] = b->wins[1];
    a->completion = stat_out(b->completion);
    a->drawishness = stat_out(b->drawishness);
    a->advantage_p1 = stat_out(b->advantage_p1);
    a->balance = stat_out(b->balance);
    a->duration_turns = stat_out(b->duration_turns);
    a->duration_moves = stat_out(b->duration_moves);
    a->median_turns = b->median_turns;
    a->sd_turns = b->sd_turns;
    a->median_moves = b->median_moves;
    a->sd_moves = b->sd_moves;
    a->lost_throws = stat_out(b->lost_throws);
    a->forced_moves = stat_out(b->forced_moves);
    a->choices = stat_out(b->choices);
    a->branching_factor = stat_out(b->branching_factor);
    a->lead_change = stat_out(b->lead_change);
    a->drama = stat_out(b->drama);
    a->decisiveness_threshold = stat_out(b->decisiveness_threshold);
}

/* A self-play's figures but for its samples' chances. */
static void selfplay_in(const k2_selfplay *a, kemet_selfplay_figures *b) {
    *b = (kemet_selfplay_figures){.games = a->games};
    memcpy(b->agent, a->agent, sizeof b->agent);
    b->agent[0][sizeof b->agent[0] - 1] = b->agent[1][sizeof b->agent[1] - 1] =
        0;
    analysis_in(&a->a, &b->analysis);
    memcpy(b->hist, a->hist, sizeof b->hist);
    b->bin = a->bin;
    b->luck = a->luck;
    b->p1_adjusted = stat_in(a->adv_adj);
    b->median = stat_in(a->median);
    b->per_turn = stat_in(a->per_turn);
    b->stopped = stat_in(a->capped);
    b->decisions = a->decisions;
    memcpy(b->land, a->land, sizeof b->land);
    b->coverage = a->coverage;
    b->table_decisions = a->exact_decisions;
    b->linear_errors = a->plain_errors;
    b->linear_loss = a->plain_loss;
    b->nsample = a->nsample;
    memcpy(b->sample_n, a->sample_n, sizeof b->sample_n);
    memcpy(b->sample_result, a->sample_result, sizeof b->sample_result);
}

static void selfplay_out(const kemet_selfplay_figures *b, k2_selfplay *a) {
    memcpy(a->agent, b->agent, sizeof a->agent);
    a->games = b->games;
    analysis_out(&b->analysis, &a->a);
    memcpy(a->hist, b->hist, sizeof a->hist);
    a->bin = b->bin;
    a->luck = b->luck != 0;
    a->adv_adj = stat_out(b->p1_adjusted);
    a->median = stat_out(b->median);
    a->per_turn = stat_out(b->per_turn);
    a->capped = stat_out(b->stopped);
    a->decisions = b->decisions;
    memcpy(a->land, b->land, sizeof a->land);
    a->coverage = b->coverage;
    a->exact_decisions = b->table_decisions;
    a->plain_errors = b->linear_errors;
    a->plain_loss = b->linear_loss;
    a->nsample = b->nsample;
    memcpy(a->sample_n, b->sample_n, sizeof a->sample_n);
    memcpy(a->sample_result, b->sample_result, sizeof a->sample_result);
}

static void step_in(const k2_step *a, kemet_match_figures *b) {
    *b = (kemet_match_figures){.games = a->games};
    memcpy(b->upper, a->hi, sizeof b->upper);
    memcpy(b->lower, a->lo, sizeof b->lower);
    b->upper[sizeof b->upper - 1] = b->lower[sizeof b->lower - 1] = 0;
    const k2_match *m = &a->m;
    kemet_match_stats *s = &b->stats;
    *s = (kemet_match_stats){m->games,
                             {m->wins[0], m->wins[1]},
                             {{m->seat_wins[0][0], m->seat_wins[0][1]},
                              {m->seat_wins[1][0], m->seat_wins[1][1]}},
                             m->draws,
                             m->stopped,
                             m->turns,
                             {m->lo[0], m->lo[1]},
                             {m->hi[0], m->hi[1]},
                             m->score,
                             m->score_lo,
                             m->score_hi,
                             m->elo,
                             m->elo_lo,
                             m->elo_hi,
                             m->secs,
                             {m->think[0], m->think[1]},
                             m->how,
                             {m->adj.score, m->adj.lo, m->adj.hi, m->adj.elo,
                              m->adj.elo_lo, m->adj.elo_hi}};
    b->luck_share = stat_in(a->share);
    b->sd = a->sd;
    b->contradiction = a->contradiction;
}

static void step_out(const kemet_match_figures *b, k2_step *a) {
    memcpy(a->hi, b->upper, sizeof a->hi);
    memcpy(a->lo, b->lower, sizeof a->lo);
    a->games = b->games;
    const kemet_match_stats *s = &b->stats;
    k2_match *m = &a->m;
    *m = (k2_match){s->games,
                    {s->wins[0], s->wins[1]},
                    {{s->seat_wins[0][0], s->seat_wins[0][1]},
                     {s->seat_wins[1][0], s->seat_wins[1][1]}},
                    s->draws,
                    s->stopped,
                    s->turns,
                    {s->lo[0], s->lo[1]},
                    {s->hi[0], s->hi[1]},
                    s->score,
                    s->score_lo,
                    s->score_hi,
                    s->elo,
                    s->elo_lo,
                    s->elo_hi,
                    s->secs,
                    {s->think[0], s->think[1]},
                    s->how,
                    {s->adj.score, s->adj.lo, s->adj.hi, s->adj.elo,
                     s->adj.elo_lo, s->adj.elo_hi}};
    a->share = stat_out(b->luck_share);
    a->luck_share = b->luck_share.value;
    a->sd = b->sd;
    a->contradiction = b->contradiction != 0;
}

/* ------------------------------------------------------------------------
 * Files
 * --------------------------------------------------------------------- */

static uint64_t fnv64(uint64_t h, const void *p, size_t n) {
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 0x100000001b3ULL;
    return h;
}

int kept_path(const char *dir, const char *id, const char *head, char *path,
              size_t psize) {
    char name[96];
    size_t k = 0;
    for (const char *c = id; *c && k + 1 < sizeof name; c++, k++)
        name[k] = (char)((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
                                 *c == '-'
                             ? *c
                             : '_');
    name[k] = 0;
    if ((size_t)snprintf(
            path, psize, "%s/%s.%016llx.kma", dir, name,
            (unsigned long long)fnv64(FNV_BASIS, head, strlen(head))) >= psize)
        return cli_fail("analyze: the --save folder's name is too long");
    return 0;
}

int kept_net_hash(const kemet_judge *j, uint64_t *hash) {
    const kemet_net *nt = kemet_judge_net(j);
    char *text = NULL;
    *hash = 0;
    if (nt && kemet_net_format(nt, NULL, &text) == KEMET_OK)
        *hash = fnv64(FNV_BASIS, text, strlen(text));
    free(text);
    return nt && !*hash ? cli_fail("out of memory") : 0;
}

int kept_header(const kept_settings *k, const char *dir, const rep_reading *R,
                const kemet_judge *j, char *head, size_t hsize, char *path,
                size_t psize) {
    const kemet_study_settings *st = k->st;
    uint64_t net = 0;
    if (kept_net_hash(j, &net))
        return EXIT_BAD;
    /* a reading from a file's text (a user's file, a rule change) is
       known by its text too */
    const char *sha = kemet_rules_sha256(kemet_judge_rules(j));
    size_t len = (size_t)snprintf(
        head, hsize,
        KEPT_MAGIC "revision %d\nruleset %s%s%s\nagents strong=%s "
                   "weak=%s,%s ladder=",
        KEPT_REV, R->f.id, sha ? " sha256=" : "", sha ? sha : "", st->strong,
        st->weak[0], st->weak[1]);
    for (int i = 0; i < st->rungs && len < hsize; i++)
        len += (size_t)snprintf(head + len, hsize - len, "%s%s", i ? "," : "",
                                st->ladder[i]);
    /* a study of some parts alone (a headroom study) says which; every
       part: nothing, as before there were such studies */
    for (int p = 0; st->parts && p < KEMET_PARTS && len < hsize; p++)
        if (st->parts >> p & 1)
            len += (size_t)snprintf(head + len, hsize - len, " part=%s",
                                    kemet_part_name(p));
    if (len < hsize)
        len += (size_t)snprintf(
            head + len, hsize - len,
            "\nsamples games=%ld precision=%.17g pilot=%ld most=%ld "
            "trace=%ldx%ld turns=%ld seed=%llu\njudge table=%d race=%s "
            "net=%016llx board=%s\nlayout %zu %zu %zu %d\n\n",
            st->games, st->precision, st->pilot, st->most, st->trace_games,
            st->trace_base, st->cap, (unsigned long long)st->seed,
            R->f.table_pieces, kemet_judge_race(j) ? "yes" : "no",
            (unsigned long long)net, k->board ? k->board : "-",
            sizeof(k2_result), sizeof(k2_selfplay), sizeof(k2_step),
            K2_SAMPLES);
    if (len >= hsize)
        return cli_fail("analyze: the settings are too long to --save");
    return kept_path(dir, R->f.id, head, path, psize);
}

/* The figures of a self-play's sample games: their lengths, checked. */
static bool samples_fit(const k2_selfplay *S, long cap) {
    if (S->nsample < 0 || S->nsample > K2_SAMPLES)
        return false;
    for (int k = 0; k < S->nsample; k++)
        if (S->sample_n[k] < 0 || S->sample_n[k] > 2 * cap + 2)
            return false;
    return true;
}

/* Whether the byte at p is a flag's (0 or 1), read without reading it as
 * a bool. */
static bool flag_byte(const void *p) {
    unsigned char b;
    memcpy(&b, p, 1);
    return b <= 1;
}

int kept_save(const char *path, const char *head, const rep_reading *R) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    k2_result *c = calloc(1, sizeof *c);
    if (!c)
        return cli_fail("out of memory");
    const kemet_study_figures *f = &R->f;
    memcpy(c->id, f->id, sizeof c->id);
    memcpy(c->title, R->title, sizeof c->title);
    memcpy(c->base, R->base, sizeof c->base);
    c->variant = R->variant;
    c->board = R->board;
    c->table_pieces = f->table_pieces;
    selfplay_out(&f->weak, &c->weak);
    selfplay_out(&f->strong, &c->strong);
    c->nsteps = f->nsteps;
    for (int k = 0; k < K2_RUNGS - 1; k++)
        step_out(&f->ladder[k], &c->ladder[k]);
    step_out(&f->head, &c->head);
    for (int k = 0; k < K2_TRACE; k++) {
        c->trace_y[k] = f->trace_y[k];
        c->trace_adj[k] = stat_out(f->trace_adj[k]);
    }
    c->skill_trace = f->skill_trace;
    c->skill_trace_adj = f->skill_trace_adj;
    for (int k = 0; k < K2_PROBES; k++)
        step_out(&f->probe[k], &c->probe[k]);
    c->games_to_lead = f->games_to_lead;
    c->secs = R->secs;
    c->wall = R->wall;
    memcpy(c->part_secs, R->part_secs, sizeof c->part_secs);
    FILE *o = fopen(tmp, "wb");
    if (!o) {
        free(c);
        return cli_fail("analyze: cannot write %.200s", tmp);
    }
    uint64_t h = fnv64(FNV_BASIS, c, sizeof *c);
    bool ok = fputs(head, o) >= 0 && fwrite(c, sizeof *c, 1, o) == 1;
    for (int w = 0; w < 2 && ok; w++) {
        const kemet_selfplay_figures *S = w ? &f->strong : &f->weak;
        for (int k = 0; k < S->nsample && ok; k++) {
            size_t n = (size_t)S->sample_n[k];
            h = fnv64(h, S->sample[k], n * sizeof(double));
            ok = fwrite(S->sample[k], sizeof(double), n, o) == n;
        }
    }
    free(c);
    ok = ok && fwrite(&h, sizeof h, 1, o) == 1;
    ok &= fclose(o) == 0;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return cli_fail("analyze: cannot write %.200s", path);
    }
    return 0;
}

/* The whole file at `path` into *buf (*len bytes): 1, 0 when there is
 * none, EXIT_BAD after a message. */
static int read_all(const char *path, char **buf, size_t *len) {
    FILE *f = fopen(path, "rb");
    *buf = NULL;
    *len = 0;
    if (!f)
        return errno == ENOENT ? 0
                               : cli_fail("analyze: cannot read %.200s", path);
    size_t room = 0;
    int rc = 1;
    for (;;) {
        if (*len == room) {
            room = room ? 2 * room : 1 << 16;
            char *b = room <= (size_t)KEPT_MAX ? realloc(*buf, room) : NULL;
            if (!b) {
                rc = cli_fail("analyze: %.200s is too large to be a kept "
                              "measurement",
                              path);
                break;
            }
            *buf = b;
        }
        size_t got = fread(*buf + *len, 1, room - *len, f);
        *len += got;
        if (got == 0)
            break;
    }
    if (rc == 1 && ferror(f))
        rc = cli_fail("analyze: cannot read %.200s", path);
    fclose(f);
    if (rc != 1) {
        free(*buf);
        *buf = NULL;
    }
    return rc;
}

/* The figures of image c into f (its samples apart). */
static void figures_in(const k2_result *c, kemet_study_figures *f) {
    selfplay_in(&c->weak, &f->weak);
    selfplay_in(&c->strong, &f->strong);
    for (int k = 0; k < K2_RUNGS - 1; k++)
        step_in(&c->ladder[k], &f->ladder[k]);
    step_in(&c->head, &f->head);
    for (int k = 0; k < K2_TRACE; k++) {
        f->trace_y[k] = c->trace_y[k];
        f->trace_adj[k] = stat_in(c->trace_adj[k]);
    }
    f->skill_trace = c->skill_trace;
    f->skill_trace_adj = c->skill_trace_adj;
    for (int k = 0; k < K2_PROBES; k++)
        step_in(&c->probe[k], &f->probe[k]);
    f->games_to_lead = c->games_to_lead;
}

/* Whether the figures of image c, kept at revision 2 under settings st,
 * are the present rule's: its final step would add nothing to them. */
static bool settled(const k2_result *c, const rep_reading *R,
                    const kemet_study_settings *st) {
    kemet_study_figures *f = malloc(sizeof *f);
    if (!f)
        return false;
    *f = R->f;
    figures_in(c, f);
    bool ok = kemet_study_settled(f, st->precision, st->most) == 1;
    free(f);
    return ok;
}

/* kept_load of the file at `path` under `head`; with `older` (the
 * settings), a file of revision 2, read only where settled. */
static int load(const char *path, const char *head, long cap,
                const kemet_study_settings *older, rep_reading *R) {
    char *buf;
    size_t len;
    int rc = read_all(path, &buf, &len);
    if (rc != 1)
        return rc;
    rc = 0;
    const char *id = R->f.id;
    size_t hl = strlen(head), at = hl + sizeof(k2_result);
    if (len < hl || memcmp(buf, head, hl) != 0)
        rc = cli_fail("analyze: %.200s does not hold %s measured with these "
                      "settings; remove it",
                      path, id);
    k2_result *c = calloc(1, sizeof *c);
    if (!rc && !c)
        rc = cli_fail("out of memory");
    if (!rc && len < at + sizeof(uint64_t))
        rc = cli_fail("analyze: %.200s is cut short; remove it to measure %s "
                      "again",
                      path, id);
    if (!rc) {
        memcpy(c, buf + hl, sizeof *c);
        for (int w = 0; w < 2; w++)
            for (int k = 0; k < K2_SAMPLES; k++)
                (w ? &c->strong : &c->weak)->sample[k] = NULL;
        if (!samples_fit(&c->weak, cap) || !samples_fit(&c->strong, cap))
            rc = cli_fail("analyze: %.200s is damaged; remove it to measure "
                          "%s again",
                          path, id);
    }
    /* the samples' chances, after the figures: weak play's, then strong */
    double *sample[2][K2_SAMPLES] = {{NULL}};
    uint64_t h = rc ? 0 : fnv64(FNV_BASIS, c, sizeof *c);
    for (int w = 0; w < 2 && !rc; w++) {
        const k2_selfplay *S = w ? &c->strong : &c->weak;
        for (int k = 0; k < S->nsample && !rc; k++) {
            size_t n = (size_t)S->sample_n[k] * sizeof(double);
            if (len - sizeof(uint64_t) - at < n) {
                rc = cli_fail("analyze: %.200s is cut short; remove it to "
                              "measure %s again",
                              path, id);
                break;
            }
            if (!(sample[w][k] = malloc(n ? n : 1))) {
                rc = cli_fail("out of memory");
                break;
            }
            memcpy(sample[w][k], buf + at, n);
            h = fnv64(h, buf + at, n);
            at += n;
        }
    }
    uint64_t want;
    if (!rc) {
        memcpy(&want, buf + at, sizeof want);
        if (at + sizeof want != len || want != h)
            rc = cli_fail("analyze: %.200s is damaged (its checksum differs); "
                          "remove it to measure %s again",
                          path, id);
    }
    free(buf);
    /* What opening the ruleset says stands as it was opened; the bytes
     * read as flags must be flags. */
    if (!rc) {
        bool fits = c->nsteps == R->f.nsteps && flag_byte(&c->weak.luck) &&
                    flag_byte(&c->strong.luck);
        for (int m = 0; m < K2_RUNGS - 1 + 1 + K2_PROBES; m++) {
            const k2_step *S = m < K2_RUNGS - 1    ? &c->ladder[m]
                               : m == K2_RUNGS - 1 ? &c->head
                                                   : &c->probe[m - K2_RUNGS];
            fits &= flag_byte(&S->contradiction);
        }
        if (!fits)
            rc = cli_fail("analyze: %.200s is damaged; remove it to measure "
                          "%s again",
                          path, id);
    }
    /* revision 2's measurement stands where the final step of the
     * stopping rule would add no game to it */
    if (!rc && older && !settled(c, R, older)) {
        fprintf(stderr,
                "analyze: %.200s, kept at revision 2, stops short of the "
                "stopping rule's final step; %s is not read back from it\n",
                path, id);
        rc = -1;
    }
    if (rc) {
        for (int w = 0; w < 2; w++)
            for (int k = 0; k < K2_SAMPLES; k++)
                free(sample[w][k]);
        free(c);
        return rc < 0 ? 0 : rc;
    }
    kemet_study_figures *f = &R->f;
    figures_in(c, f);
    for (int w = 0; w < 2; w++) {
        kemet_selfplay_figures *S = w ? &f->strong : &f->weak;
        for (int k = 0; k < K2_SAMPLES; k++) {
            free(R->samples[w][k]);
            R->samples[w][k] = sample[w][k];
            S->sample[k] = sample[w][k];
        }
    }
    R->secs = c->secs;
    R->wall = c->wall;
    memcpy(R->part_secs, c->part_secs, sizeof R->part_secs);
    R->earlier = true;
    free(c);
    return 1;
}

/* The opening lines and the path of a file kept at revision 2 under
 * the settings of `head` (this revision's, at `path`): 0, or -1. */
static int older(const char *path, const char *head, char *ohead, size_t hsize,
                 char *opath, size_t psize) {
    static const char now[] = KEPT_MAGIC "revision 3\n",
                      was[] = KEPT_MAGIC "revision 2\n";
    size_t n = strlen(now), len = strlen(path), hl = strlen(head);
    if (strncmp(head, now, n) != 0 || hl >= hsize || len >= psize || len < 21 ||
        strcmp(path + len - 4, ".kma") != 0)
        return -1;
    memcpy(ohead, was, n);
    memcpy(ohead + n, head + n, hl - n + 1);
    snprintf(opath, psize, "%.*s%016llx.kma", (int)(len - 20), path,
             (unsigned long long)fnv64(FNV_BASIS, ohead, hl));
    return 0;
}

int kept_load(const char *path, const char *head,
              const kemet_study_settings *st, rep_reading *R) {
    int rc = load(path, head, st->cap, NULL, R);
    char ohead[KEPT_HEAD], opath[4400];
    if (rc != 0 ||
        older(path, head, ohead, sizeof ohead, opath, sizeof opath) != 0)
        return rc;
    return load(opath, ohead, st->cap, st, R);
}

static int by_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int kept_seeds(const char *dir, uint64_t seed, uint64_t *seeds, int most) {
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int ns = 0;
    for (struct dirent *f; ns < most && (f = readdir(d));) {
        size_t l = strlen(f->d_name);
        if (l < 5 || strcmp(f->d_name + l - 4, ".kma") != 0)
            continue;
        char path[4400], buf[KEPT_HEAD];
        snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
        FILE *h = fopen(path, "rb");
        if (!h)
            continue;
        size_t got = fread(buf, 1, sizeof buf - 1, h);
        fclose(h);
        buf[got] = 0;
        const char *at = strstr(buf, " seed=");
        if (strncmp(buf, KEPT_MAGIC, strlen(KEPT_MAGIC)) != 0 || !at)
            continue;
        char *end;
        errno = 0;
        unsigned long long x = strtoull(at + 6, &end, 10);
        bool known = errno != 0 || *end != '\n' || x == seed;
        for (int k = 0; k < ns; k++)
            known |= seeds[k] == x;
        if (!known)
            seeds[ns++] = x;
    }
    closedir(d);
    qsort(seeds, (size_t)ns, sizeof seeds[0], by_u64);
    return ns;
}

int kept_reseed(const char *head, uint64_t seed, char *out, size_t size) {
    const char *at = strstr(head, " seed=");
    const char *eol = at ? strchr(at, '\n') : NULL;
    if (!eol ||
        (size_t)snprintf(out, size, "%.*s seed=%llu%s", (int)(at - head), head,
                         (unsigned long long)seed, eol) >= size)
        return -1;
    return 0;
}
