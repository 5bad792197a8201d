/* table.c - exact endgame tables: the index of a ruleset's endgame class,
 * probing, and the file (table_solve.c solves the class by expectiminimax
 * over the throws).
 *
 * The class. A ruleset's class "N pieces" holds every position, with
 * either player to move, in which each side has between 1 and N pieces
 * still in play (on the board, on the heap square, in hand) and the rest
 * gone for good (borne off, taken off, captured). Pieces in play never
 * increase in these rulesets, so a position of the class only leads to
 * positions of the class or to the game's end.
 *
 * The index. One side's pieces in play are a "side state": the set of
 * squares it occupies, its heap count and its hand count. Side states are
 * ranked densely (the colex rank of the square set, after an offset for
 * each count of pieces on squares, heap and hand), M of them. The mover's
 * state comes first and may carry a rethrow (must=) on one of the squares
 * the ruleset rethrows from (kmt_ruleset.must_squares): those variants
 * follow the M plain states. A position's index is mover * M + opponent,
 * always from the mover's side: the rulesets solved here treat both
 * players alike, so a position with player 2 to move is the same entry as
 * its mirror image with player 1 to move. Entries that are not a valid
 * position (two pieces on one hole, say) are marked as such.
 *
 * The value. V(x) is the chance that the player to move in x wins, a draw
 * counting one half, when both play to win: the best of throwing and each
 * pre-throw choice, throwing being the expectation over the throws of the
 * mover's best move for each. A move that keeps the turn (another throw)
 * is worth V(child), one that passes it 1 - V(child).
 *
 * The solver. The whole class is turned into a graph once, on every
 * thread (move generation is the costly part; each position's children
 * depend on nothing but the position). The graph is then renumbered by
 * level: the sum over both sides of the squares their pieces stand on,
 * a gone piece counting as one square past the last. Almost every move
 * raises the level, so a Gauss-Seidel sweep from the highest level down
 * finds most children already updated; the moves that do not (Senet's
 * swaps, backward moves and rescue, a line back to 6, a piece leaving the
 * Shen, a lost throw) are met by sweeping again, until a whole sweep
 * changes no value by as much as the tolerance. The sweeps run on one
 * thread in a fixed order, so the table is the same for any thread count.
 * (Senet's endgame is deeply cyclic: a lone piece near the end bounces
 * back and forth, and it takes a few hundred sweeps.)
 *
 * The file (format 1, little-endian):
 *   0   8  magic "KEMETTB\0"
 *   8   4  format version (1)
 *   12  4  header size in bytes (HEADER_SIZE)
 *   16 96  ruleset spec, NUL padded
 *   112 4  N, pieces in play per side at most
 *   116 4  M, side states
 *   120 4  mover states (M plus the rethrow variants)
 *   124 4  value scale (65534: entry q is the chance q / 65534)
 *   128 8  entries (mover states * M)
 *   136 8  valid positions
 *   144 8  tolerance of the iteration (double)
 *   152 8  largest change in the last sweep (double)
 *   160 4  sweeps
 *   164 4  reserved (0)
 *   168 8  checksum of the entries
 *   176 8  checksum of bytes 0..175
 *   184    entries, 2 bytes each; 65535 marks an invalid position
 * A file is written to a temporary name and renamed, so it is there whole
 * or not at all; one of another format, ruleset or class, or whose
 * checksums fail, is refused with a one-line reason.
 */
#include "table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TB_MAGIC "KEMETTB"
#define TB_FORMAT 1

/* ---------------------------------------------------------------------------
 * Side states and the index
 * ------------------------------------------------------------------------ */

uint32_t kmt_table_side_rank(const kemet_table *t, uint64_t mask, int heap,
                             int hand) {
    uint32_t r = t->base[kmt_popcount64(mask)][heap][hand];
    for (int i = 1; mask; i++) {
        r += t->c[t->rank_of[kmt_ctz64(mask)]][i];
        mask &= mask - 1;
    }
    return r;
}

uint32_t kmt_table_plain(const kemet_table *t, uint32_t a, int *must) {
    *must = 0;
    if (a < t->M)
        return a;
    /* A rethrow variant: its plain state (must_first is sorted). */
    uint32_t v = a - t->M, lo = 0, hi = t->M;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->must_first[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    uint64_t m = t->mask[lo] & t->must_sq;
    for (uint32_t k = v - t->must_first[lo]; k; k--)
        m &= m - 1;
    *must = kmt_ctz64(m);
    return lo;
}

/* Lays out the class of `pieces` for `r`: the side states and their
 * ranks. KEMET_ERULESET when the ruleset has no such class here. */
int kmt_table_layout(const kemet_rules *r, int pieces, kemet_table **out,
                     kemet_error *err) {
    const kmt_ruleset *rs = r->rs;
    *out = NULL;
    if (!rs->tables)
        return kmt_fail(err, KEMET_ERULESET,
                        "%s has no endgame tables (docs/tables.md says "
                        "which rulesets do)",
                        r->spec);
    int most = r->info.pieces < TB_MAX_PIECES ? r->info.pieces : TB_MAX_PIECES;
    if (pieces < 1 || pieces > most)
        return kmt_fail(err, KEMET_ERULESET,
                        "endgame tables of %s take 1 to %d pieces a side",
                        r->spec, most);
    kemet_table *t = calloc(1, sizeof *t);
    if (!t)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    snprintf(t->spec, sizeof t->spec, "%s", r->key);
    t->N = pieces;
    t->S = r->squares;
    t->heap_sq = rs->heap_square;
    t->hand = rs->has_hand;
    t->must_sq = rs->must_squares;
    memset(t->rank_of, -1, sizeof t->rank_of);
    for (int s = 1; s <= t->S; s++)
        if (s != t->heap_sq) {
            t->rank_of[s] = (int8_t)t->nsq;
            t->sqs[t->nsq++] = (uint8_t)s;
            t->allowed |= KMT_BIT(s);
        }
    for (int n = 0; n <= 64; n++)
        for (int k = 0; k <= TB_MAX_PIECES; k++)
            t->c[n][k] = k == 0   ? 1
                         : n == 0 ? 0
                                  : t->c[n - 1][k - 1] + t->c[n - 1][k];
    uint64_t M = 0;
    for (int j = 0; j <= pieces; j++)
        for (int h = 0; h <= (t->heap_sq ? pieces - j : 0); h++)
            for (int k = 0; k <= (t->hand ? pieces - j - h : 0); k++) {
                t->base[j][h][k] = (uint32_t)M;
                if (j + h + k > 0)
                    M += t->c[t->nsq][j];
            }
    t->M = (uint32_t)M;
    if (M >= SIZE_MAX / sizeof *t->must_first) { /* 32-bit addresses */
        kemet_table_free(t);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    size_t m = (size_t)M;
    t->mask = malloc(m * sizeof *t->mask);
    t->heap = malloc(m);
    t->hnd = malloc(m);
    t->must_first = malloc((m + 1) * sizeof *t->must_first);
    if (!t->mask || !t->heap || !t->hnd || !t->must_first) {
        kemet_table_free(t);
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    }
    /* Every set of j squares, in colex order, for each (j, h, k). */
    for (int j = 0; j <= pieces; j++)
        for (int h = 0; h <= (t->heap_sq ? pieces - j : 0); h++)
            for (int k = 0; k <= (t->hand ? pieces - j - h : 0); k++) {
                if (j + h + k == 0)
                    continue;
                int c[TB_MAX_PIECES + 1];
                for (int i = 0; i < j; i++)
                    c[i] = i;
                for (;;) {
                    uint64_t mask = 0;
                    for (int i = 0; i < j; i++)
                        mask |= KMT_BIT(t->sqs[c[i]]);
                    uint32_t x = kmt_table_side_rank(t, mask, h, k);
                    t->mask[x] = mask;
                    t->heap[x] = (uint8_t)h;
                    t->hnd[x] = (uint8_t)k;
                    int i = 0; /* the next combination in colex order */
                    while (i < j &&
                           c[i] + 1 == (i + 1 < j ? c[i + 1] : t->nsq)) {
                        c[i] = i;
                        i++;
                    }
                    if (i >= j)
                        break;
                    c[i]++;
                }
            }
    uint32_t v = 0;
    for (uint32_t x = 0; x < t->M; x++) {
        t->must_first[x] = v;
        v += (uint32_t)kmt_popcount64(t->mask[x] & t->must_sq);
    }
    t->must_first[t->M] = v;
    t->Mm = t->M + v;
    t->entries = (long long)t->Mm * t->M;
    *out = t;
    return KEMET_OK;
}

int kmt_table_layout_fit(const kemet_rules *r, int pieces, kemet_table **out,
                         kemet_error *err) {
    int rc = kmt_table_layout(r, pieces, out, err);
    if (rc == KEMET_OK && (*out)->entries > TB_MAX_ENTRIES) {
        long long e = (*out)->entries;
        kemet_table_free(*out);
        *out = NULL;
        return kmt_fail(err, KEMET_ERULESET,
                        "the %d-piece class of %s has %lld entries, more "
                        "than a table holds",
                        pieces, r->spec, e);
    }
    return rc;
}

int kemet_table_class(const kemet_rules *rules, int pieces, long long *entries,
                      kemet_error *err) {
    if (!rules)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_table_class: NULL rules");
    kemet_table *t;
    int rc = kmt_table_layout_fit(rules, pieces, &t, err);
    if (rc)
        return rc;
    if (entries)
        *entries = t->entries;
    kemet_table_free(t);
    return KEMET_OK;
}

void kemet_table_free(kemet_table *t) {
    if (!t)
        return;
    free(t->mask);
    free(t->heap);
    free(t->hnd);
    free(t->must_first);
    free(t->v);
    free(t);
}

int kemet_table_probe(const kemet_table *t, const kemet_pos *pos,
                      double *chance) {
    /* A player still waiting for a first 1 (Kendall's start=1) is in no
     * table: the tables hold the positions after both have thrown it. */
    if (!t || !pos || !t->v || pos->wait)
        return 0;
    int64_t x = index_of(t, pos);
    if (x < 0 || t->v[x] == INVALID)
        return 0;
    if (chance)
        *chance = t->v[x] / (double)SCALE;
    return 1;
}

int kemet_table_position(const kemet_table *t, long long i, kemet_pos *pos) {
    if (!t || !pos || !t->v || i < 0 || i >= t->entries)
        return 0;
    position_of(t, i, pos);
    return t->v[i] != INVALID;
}

const char *kemet_table_spec(const kemet_table *t) {
    return t ? t->spec : NULL;
}

void kemet_table_stats(const kemet_table *t, kemet_table_info *info) {
    *info = (kemet_table_info){0};
    if (!t)
        return;
    info->pieces = t->N;
    info->entries = t->entries;
    info->positions = t->valid;
    info->sweeps = t->sweeps;
    info->residual = t->residual;
    info->tolerance = TOLERANCE;
    info->bytes = HEADER_SIZE + 2 * t->entries;
}

/* ---------------------------------------------------------------------------
 * Files
 * ------------------------------------------------------------------------ */

/* A 64-bit checksum of n bytes: FNV-1a over 8-byte words, then mixed. */
static uint64_t checksum(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int k = 0; k < 8; k++)
            w |= (uint64_t)p[i + (size_t)k] << (8 * k);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h ^ (h >> 32);
}

static void put32(uint8_t *p, uint32_t v) {
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}
static void put64(uint8_t *p, uint64_t v) {
    for (int k = 0; k < 8; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}
static uint32_t get32(const uint8_t *p) {
    uint32_t v = 0;
    for (int k = 0; k < 4; k++)
        v |= (uint32_t)p[k] << (8 * k);
    return v;
}
static uint64_t get64(const uint8_t *p) {
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}
static uint64_t dbits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
static double bitsd(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static void header(const kemet_table *t, uint8_t *h, uint64_t payload_sum) {
    memset(h, 0, HEADER_SIZE);
    memcpy(h, TB_MAGIC, 8);
    put32(h + 8, TB_FORMAT);
    put32(h + 12, HEADER_SIZE);
    memcpy(h + 16, t->spec, strnlen(t->spec, 95));
    put32(h + 112, (uint32_t)t->N);
    put32(h + 116, t->M);
    put32(h + 120, t->Mm);
    put32(h + 124, SCALE);
    put64(h + 128, (uint64_t)t->entries);
    put64(h + 136, (uint64_t)t->valid);
    put64(h + 144, dbits(TOLERANCE));
    put64(h + 152, dbits(t->residual));
    put32(h + 160, (uint32_t)t->sweeps);
    put64(h + 168, payload_sum);
    put64(h + 176, checksum(h, 176));
}

static uint8_t *payload(const kemet_table *t) {
    uint8_t *b = malloc((size_t)t->entries * 2);
    if (b)
        for (long long x = 0; x < t->entries; x++) {
            b[2 * x] = (uint8_t)t->v[x];
            b[2 * x + 1] = (uint8_t)(t->v[x] >> 8);
        }
    return b;
}

int kemet_table_save(const kemet_table *t, const char *path, kemet_error *err) {
    if (!t || !path || !t->v)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_table_save: NULL argument");
    size_t plen = (size_t)t->entries * 2;
    uint8_t *body = payload(t);
    if (!body)
        return kmt_fail(err, KEMET_ENOMEM, "out of memory");
    uint8_t h[HEADER_SIZE];
    header(t, h, checksum(body, plen));
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)time(NULL)) >=
        (int)sizeof tmp) {
        free(body);
        return kmt_fail(err, KEMET_EIO, "table path too long");
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        int e = errno;
        free(body);
        return kmt_fail(err, KEMET_EIO, "cannot write %.200s: %s", tmp,
                        strerror(e));
    }
    bool ok = fwrite(h, 1, HEADER_SIZE, f) == HEADER_SIZE &&
              fwrite(body, 1, plen, f) == plen;
    ok = (fflush(f) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    free(body);
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return kmt_fail(err, KEMET_EIO, "cannot write %.200s: %s", path,
                        strerror(e));
    }
    return KEMET_OK;
}

int kemet_table_load(const kemet_rules *rules, const char *path,
                     kemet_table **out, kemet_error *err) {
    if (!rules || !path || !out)
        return kmt_fail(err, KEMET_EMISUSE, "kemet_table_load: NULL argument");
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return kmt_fail(err, KEMET_EIO, "cannot read %.200s: %s", path,
                        strerror(errno));
    uint8_t h[HEADER_SIZE];
    int rc = KEMET_OK;
    kemet_table *t = NULL;
    uint8_t *body = NULL;
    if (fread(h, 1, HEADER_SIZE, f) != HEADER_SIZE || memcmp(h, TB_MAGIC, 8)) {
        rc = kmt_fail(err, KEMET_ESYNTAX, "%.200s is not a kemet endgame table",
                      path);
        goto done;
    }
    if (get32(h + 8) != TB_FORMAT || get32(h + 12) != HEADER_SIZE) {
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "%.200s is a table of format %u; this kemet reads "
                      "format %d (solve it again)",
                      path, get32(h + 8), TB_FORMAT);
        goto done;
    }
    if (get64(h + 176) != checksum(h, 176)) {
        rc =
            kmt_fail(err, KEMET_ESYNTAX, "%.200s: the header is corrupt", path);
        goto done;
    }
    char spec[96];
    memcpy(spec, h + 16, 96);
    spec[95] = '\0';
    if (strcmp(spec, rules->key) != 0) {
        rc = kmt_fail(err, KEMET_ERULESET, "%.200s is a table of %s, not of %s",
                      path, spec, rules->key);
        goto done;
    }
    uint32_t N = get32(h + 112);
    if (N < 1 || N > TB_MAX_PIECES ||
        (rc = kmt_table_layout_fit(rules, (int)N, &t, err)) != KEMET_OK) {
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "%.200s: the class is not one "
                      "of %s",
                      path, rules->spec);
        goto done;
    }
    if (get32(h + 116) != t->M || get32(h + 120) != t->Mm ||
        get32(h + 124) != SCALE || get64(h + 128) != (uint64_t)t->entries) {
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "%.200s: its layout is not this kemet's for %s with "
                      "%u pieces (solve it again)",
                      path, rules->spec, N);
        goto done;
    }
    size_t plen = (size_t)t->entries * 2;
    body = malloc(plen);
    t->v = malloc((size_t)t->entries * sizeof *t->v);
    if (!body || !t->v) {
        rc = kmt_fail(err, KEMET_ENOMEM, "out of memory for %.200s", path);
        goto done;
    }
    int extra;
    if (fread(body, 1, plen, f) != plen || (extra = fgetc(f)) != EOF) {
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "%.200s: the file is truncated or too long", path);
        goto done;
    }
    if (checksum(body, plen) != get64(h + 168)) {
        rc = kmt_fail(err, KEMET_ESYNTAX,
                      "%.200s: the entries are corrupt (checksum)", path);
        goto done;
    }
    for (long long x = 0; x < t->entries; x++) {
        t->v[x] = (uint16_t)(body[2 * x] | body[2 * x + 1] << 8);
        if (t->v[x] > SCALE && t->v[x] != INVALID) {
            rc = kmt_fail(err, KEMET_ESYNTAX,
                          "%.200s: entry %lld is not a chance", path, x);
            goto done;
        }
    }
    t->valid = (long long)get64(h + 136);
    t->residual = bitsd(get64(h + 152));
    t->sweeps = (int)get32(h + 160);
done:
    fclose(f);
    free(body);
    if (rc) {
        kemet_table_free(t);
        return rc;
    }
    *out = t;
    return KEMET_OK;
}
