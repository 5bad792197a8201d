/* store.c - the games of `kemet serve` in one SQLite file.
 *
 * Two tables: games (one row per game: ruleset, the dice seed, the seats
 * and their tokens) and actions (one row per throw, move or pre-throw
 * choice, numbered from 0 in each game). A game's state is its seed plus
 * its actions replayed, so nothing else needs storing. Writes are
 * transactions in WAL mode with synchronous=FULL: once a call returns,
 * the action survives a kill -9 or a power cut.
 *
 * The schema's version is the file's user_version: 1 (or 0, never set)
 * knew the kinds throw and move, 2 adds resign, 3 takeback, 4 the
 * rematch's offer and rematch, and the table reviews (a finished game's
 * review, made once), 5 the tables activity (when each game's last action
 * was stored) and expired (the games that expired, left unfinished with
 * no action: their rows are deleted, their ids kept so that the API can
 * say so). An older file is brought up to date in one transaction; a
 * newer one is refused untouched.
 */
#include "wgame.h"

#include <sqlite3.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct store {
    sqlite3 *db;
    sqlite3_stmt *add_game, *add_action, *put_review, *get_review, *touch,
        *is_expired;
    char err[256];
};

static const char schema[] =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=FULL;"
    "CREATE TABLE IF NOT EXISTS games("
    " id TEXT PRIMARY KEY,"
    " ruleset TEXT NOT NULL,"
    " seed TEXT NOT NULL,"
    " seat1 TEXT NOT NULL, seat2 TEXT NOT NULL,"
    " token1 TEXT NOT NULL, token2 TEXT NOT NULL,"
    " created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS actions("
    " game TEXT NOT NULL REFERENCES games(id),"
    " seq INTEGER NOT NULL,"
    " kind TEXT NOT NULL"
    "  CHECK(kind IN ('throw','move','resign','takeback','offer','rematch')),"
    " text TEXT NOT NULL,"
    " PRIMARY KEY(game, seq));"
    "CREATE TABLE IF NOT EXISTS reviews("
    " game TEXT PRIMARY KEY REFERENCES games(id),"
    " version INTEGER NOT NULL,"
    " text TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS activity("
    " game TEXT PRIMARY KEY REFERENCES games(id),"
    " at INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS expired("
    " id TEXT PRIMARY KEY,"
    " at INTEGER NOT NULL);";

#define SCHEMA_VERSION 5

/* Versions 1 to 3 to 4: the actions table again, allowing every kind (the
 * table reviews is made by the schema). */
static const char to_version4[] =
    "BEGIN IMMEDIATE;"
    "CREATE TABLE actions_v4("
    " game TEXT NOT NULL REFERENCES games(id),"
    " seq INTEGER NOT NULL,"
    " kind TEXT NOT NULL"
    "  CHECK(kind IN ('throw','move','resign','takeback','offer','rematch')),"
    " text TEXT NOT NULL,"
    " PRIMARY KEY(game, seq));"
    "INSERT INTO actions_v4 SELECT game, seq, kind, text FROM actions;"
    "DROP TABLE actions;"
    "ALTER TABLE actions_v4 RENAME TO actions;"
    "PRAGMA user_version=4;"
    "COMMIT;";

/* An integer the database answers to `sql`, or -1. */
static long long one_number(sqlite3 *db, const char *sql) {
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Whether table `name` has exactly the columns `want` ("a,b,c"). */
static bool columns_are(sqlite3 *db, const char *name, const char *want) {
    char sql[64], got[256] = "";
    snprintf(sql, sizeof sql, "PRAGMA table_info(%s)", name);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return false;
    size_t at = 0;
    while (sqlite3_step(st) == SQLITE_ROW && at < sizeof got) {
        const char *col = (const char *)sqlite3_column_text(st, 1);
        at += (size_t)snprintf(got + at, sizeof got - at, "%s%s", at ? "," : "",
                               col ? col : "");
    }
    sqlite3_finalize(st);
    return strcmp(got, want) == 0;
}

/* A file that holds anything must be kemet's own: the tables games,
 * actions and reviews with their columns, and nothing else. Checked before
 * anything is written, so that another program's database is refused untouched.
 * 0, or -1 with the reason in why. */
static int foreign(sqlite3 *db, char *why, size_t len) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "SELECT type, name FROM sqlite_master WHERE name "
                           "NOT LIKE 'sqlite_%'",
                           -1, &st, NULL) != SQLITE_OK) {
        snprintf(why, len, "%s", sqlite3_errmsg(db));
        return -1;
    }
    int rc = 0;
    while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        type = type ? type : "";
        name = name ? name : "";
        bool games = strcmp(name, "games") == 0;
        bool actions = strcmp(name, "actions") == 0;
        bool reviews = strcmp(name, "reviews") == 0;
        bool activity = strcmp(name, "activity") == 0;
        bool expired = strcmp(name, "expired") == 0;
        if (strcmp(type, "table") != 0 ||
            (!games && !actions && !reviews && !activity && !expired)) {
            snprintf(why, len, "it holds %.20s '%.60s', which is not kemet's",
                     type, name);
            rc = -1;
        } else if (!columns_are(db, name,
                                games ? "id,ruleset,seed,seat1,seat2,token1,"
                                        "token2,created"
                                : reviews  ? "game,version,text"
                                : activity ? "game,at"
                                : expired  ? "id,at"
                                           : "game,seq,kind,text")) {
            snprintf(why, len, "its table '%s' is not kemet's", name);
            rc = -1;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

static int fail(store *s, const char *what) {
    snprintf(s->err, sizeof s->err, "%s: %s", what, sqlite3_errmsg(s->db));
    return -1;
}

const char *store_error(store *s) {
    return s->err;
}

int store_open(const char *path, store **out, char *why, size_t len) {
    *out = NULL;
    store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    if (sqlite3_open_v2(path, &s->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                            SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK) {
        snprintf(why, len, "%.200s: cannot open the database: %s", path,
                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        store_close(s);
        return -1;
    }
    sqlite3_busy_timeout(s->db, 5000);
    char reason[200];
    if (foreign(s->db, reason, sizeof reason)) {
        snprintf(why, len, "%.200s: not a kemet database (left as it was): %s",
                 path, reason);
        store_close(s);
        return -1;
    }
    long long version = one_number(s->db, "PRAGMA user_version");
    bool made = one_number(s->db, "SELECT count(*) FROM sqlite_master WHERE "
                                  "name='actions'") > 0;
    if (version > SCHEMA_VERSION) {
        snprintf(why, len,
                 "%.200s: made by a newer kemet (schema %lld; this one reads "
                 "up to %d): left as it was",
                 path, version, SCHEMA_VERSION);
        store_close(s);
        return -1;
    }
    char *msg = NULL;
    if (made && version < 4 &&
        sqlite3_exec(s->db, to_version4, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(why, len, "%.200s: cannot bring the database up to date: %s",
                 path, msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        store_close(s);
        return -1;
    }
    /* From before 5, no game's last action has a time: each counts from
       now, so that no game a player is playing expires on the upgrade. */
    if (sqlite3_exec(s->db, schema, NULL, NULL, &msg) != SQLITE_OK ||
        (made && version < 5 &&
         sqlite3_exec(s->db,
                      "INSERT OR IGNORE INTO activity(game,at) SELECT id, "
                      "CAST(strftime('%s','now') AS INTEGER) FROM games",
                      NULL, NULL, &msg) != SQLITE_OK) ||
        sqlite3_exec(s->db, "PRAGMA user_version=5", NULL, NULL, &msg) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(s->db,
                           "INSERT INTO games(id,ruleset,seed,seat1,seat2,"
                           "token1,token2,created) VALUES(?,?,?,?,?,?,?,?)",
                           -1, &s->add_game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db,
                           "INSERT INTO actions(game,seq,kind,text) "
                           "VALUES(?,?,?,?)",
                           -1, &s->add_action, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db,
                           "INSERT OR REPLACE INTO reviews(game,version,text) "
                           "VALUES(?,?,?)",
                           -1, &s->put_review, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db,
                           "SELECT version, text FROM reviews WHERE game=?", -1,
                           &s->get_review, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db,
                           "INSERT OR REPLACE INTO activity(game,at) "
                           "VALUES(?,?)",
                           -1, &s->touch, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "SELECT 1 FROM expired WHERE id=?", -1,
                           &s->is_expired, NULL) != SQLITE_OK) {
        snprintf(why, len, "%.200s: not a kemet database: %s", path,
                 msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        store_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

void store_close(store *s) {
    if (!s)
        return;
    sqlite3_finalize(s->add_game);
    sqlite3_finalize(s->add_action);
    sqlite3_finalize(s->put_review);
    sqlite3_finalize(s->get_review);
    sqlite3_finalize(s->touch);
    sqlite3_finalize(s->is_expired);
    sqlite3_close(s->db);
    free(s);
}

/* Inserts game g (no transaction of its own). */
static int insert_game(store *s, const wgame *g) {
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
    sqlite3_stmt *st = s->add_game;
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_STATIC);
    /* the key: a ruleset file's game is kept with its text's hash, and
     * resumes only under that text (docs/rulesets.md) */
    sqlite3_bind_text(st, 2, kemet_rules_key(g->rules), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, seed, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, g->seat[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, g->seat[1], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, g->token[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, g->token[1], -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, g->created);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : fail(s, "saving a game");
}

int store_game(store *s, const wgame *g) {
    return insert_game(s, g);
}

/* Inserts action `seq` of game `id` (no transaction of its own). */
static int insert_action(store *s, const char *id, long seq, const char *kind,
                         const char *text) {
    sqlite3_stmt *st = s->add_action;
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, seq);
    sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, text, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : fail(s, "saving an action");
}

int store_rematch(store *s, const wgame *g, const char *id, long seq) {
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return fail(s, "saving a rematch");
    int rc = insert_game(s, g) || insert_action(s, id, seq, "rematch", g->id)
                 ? -1
                 : 0;
    if (rc == 0 && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        rc = fail(s, "saving a rematch");
    if (rc)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int store_review(store *s, const char *id, long version, const char *text) {
    sqlite3_stmt *st = s->put_review;
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, version);
    sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : fail(s, "saving a review");
}

int store_review_get(store *s, const char *id, long *version, char **text) {
    sqlite3_stmt *st = s->get_review;
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 1);
        *version = (long)sqlite3_column_int64(st, 0);
        *text = t ? strdup((const char *)t) : NULL;
        found = *text ? 1 : -1;
    } else if (rc != SQLITE_DONE)
        found = fail(s, "reading a review");
    sqlite3_reset(st);
    return found;
}

int store_actions(store *s, const char *id, long first, int n,
                  const char *const kind[], const char *const text[],
                  long long at) {
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return fail(s, "saving an action");
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++)
        rc = insert_action(s, id, first + i, kind[i], text[i]);
    if (rc == 0) {
        sqlite3_stmt *st = s->touch;
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, at);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : fail(s, "saving an action");
        sqlite3_reset(st);
    }
    if (rc == 0 && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        rc = fail(s, "saving an action");
    if (rc)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int store_expire(store *s, const char *const id[], int n, long long at) {
    static const char *const sql[] = {
        "DELETE FROM actions WHERE game=?1",
        "DELETE FROM reviews WHERE game=?1",
        "DELETE FROM activity WHERE game=?1", "DELETE FROM games WHERE id=?1",
        "INSERT OR REPLACE INTO expired(id,at) VALUES(?1,?2)"};
    enum { NSQL = sizeof sql / sizeof sql[0] };
    sqlite3_stmt *st[NSQL] = {NULL};
    int rc = 0;
    for (int k = 0; k < NSQL && rc == 0; k++)
        if (sqlite3_prepare_v2(s->db, sql[k], -1, &st[k], NULL) != SQLITE_OK)
            rc = fail(s, "expiring a game");
    if (rc == 0 &&
        sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        rc = fail(s, "expiring a game");
    else if (rc == 0) {
        for (int i = 0; i < n && rc == 0; i++)
            for (int k = 0; k < NSQL && rc == 0; k++) {
                sqlite3_reset(st[k]);
                sqlite3_bind_text(st[k], 1, id[i], -1, SQLITE_STATIC);
                if (k == NSQL - 1)
                    sqlite3_bind_int64(st[k], 2, at);
                if (sqlite3_step(st[k]) != SQLITE_DONE)
                    rc = fail(s, "expiring a game");
            }
        if (rc == 0 &&
            sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
            rc = fail(s, "expiring a game");
        if (rc)
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    }
    for (int k = 0; k < NSQL; k++)
        sqlite3_finalize(st[k]);
    return rc;
}

bool store_expired(store *s, const char *id) {
    sqlite3_stmt *st = s->is_expired;
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    return found;
}

static const char *col(sqlite3_stmt *st, int i) {
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : "";
}

int store_load(store *s, store_game_fn game, store_action_fn action,
               void *ctx) {
    sqlite3_stmt *g = NULL, *a = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT g.id,g.ruleset,g.seed,g.seat1,g.seat2,"
                           "g.token1,g.token2,g.created,"
                           "coalesce(a.at,g.created) FROM games g LEFT JOIN "
                           "activity a ON a.game=g.id ORDER BY g.created, "
                           "g.rowid",
                           -1, &g, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db,
                           "SELECT seq,kind,text FROM actions WHERE game=? "
                           "ORDER BY seq",
                           -1, &a, NULL) != SQLITE_OK) {
        rc = fail(s, "reading the games");
        goto out;
    }
    int step;
    while (rc == 0 && (step = sqlite3_step(g)) == SQLITE_ROW) {
        store_game_row row = {col(g, 0),
                              col(g, 1),
                              {col(g, 3), col(g, 4)},
                              {col(g, 5), col(g, 6)},
                              0,
                              sqlite3_column_int64(g, 7),
                              sqlite3_column_int64(g, 8)};
        char *end;
        row.seed = strtoull(col(g, 2), &end, 10);
        if (*end || !*col(g, 2)) {
            snprintf(s->err, sizeof s->err, "game %.20s: bad seed", row.id);
            rc = -1;
            break;
        }
        if ((rc = game(ctx, &row)))
            break;
        sqlite3_reset(a);
        sqlite3_bind_text(a, 1, row.id, -1, SQLITE_TRANSIENT);
        while (rc == 0 && (step = sqlite3_step(a)) == SQLITE_ROW)
            rc = action(ctx, row.id, (long)sqlite3_column_int64(a, 0),
                        col(a, 1), col(a, 2));
        if (rc == 0 && step != SQLITE_DONE)
            rc = fail(s, "reading the actions");
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = fail(s, "reading the games");
out:
    sqlite3_finalize(g);
    sqlite3_finalize(a);
    return rc;
}

int wg_save(wgame *g, store *s, long first) {
    /* One request makes at most two actions (a throw and its pass). */
    const char *kind[8], *text[8];
    int n = 0;
    for (long i = first; i < g->version && n < 8; i++, n++) {
        kind[n] = wg_kind_name(g->act[i].kind);
        text[n] = g->act[i].text;
    }
    if (first + n == g->version &&
        store_actions(s, g->id, first, n, kind, text, g->last) == 0)
        return 0;
    wg_rebuild(g, first);
    return -1;
}
