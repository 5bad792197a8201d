/* test_serve.c - the web server's API, against the real program listening
 * on a loopback port with a real SQLite file: whole games of several
 * rulesets played through HTTP, every kind of bad request, tokens, a
 * kill -9 and restart in the middle of a game, Server-Sent Events and long
 * polling, and the computer's moves.
 */
#include "testutil.h"

#include <arpa/inet.h>
#include <math.h>
#include <errno.h>
#include <jansson.h>
#include <sqlite3.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <poll.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

typedef struct srv {
    pid_t pid;
    int port;
    char db[64];
    const char *extra[6]; /* more options for kemet serve, NULL-ended */
} srv;

/* Starts `kemet serve --port 0 --db DB` and reads the port it printed. */
static void start(srv *S) {
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* A failed test must not leave its server behind (holding the
         * test runner's output open, so that ctest waits for ever). */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        char *argv[16] = {"kemet", "serve", "--port", "0", "--db", S->db};
        int n = 6;
        bool limit = false;
        for (int i = 0; i < 6 && S->extra[i]; i++) {
            argv[n++] = (char *)S->extra[i];
            limit = limit || strcmp(S->extra[i], "--new-games") == 0;
        }
        /* the tests make many games at once: the limit on new games out
           of the way, but where a test sets it */
        if (!limit) {
            argv[n++] = "--new-games";
            argv[n++] = "1000000";
        }
        execv(getenv("KEMET_BIN"), argv);
        _exit(127);
    }
    close(fd[1]);
    char line[256] = {0};
    size_t n = 0;
    while (n < sizeof line - 1 && read(fd[0], line + n, 1) == 1 &&
           line[n] != '\n')
        n++;
    close(fd[0]);
    const char *at = strstr(line, "http://127.0.0.1:");
    assert_non_null(at);
    S->port = atoi(at + 17);
    S->pid = pid;
    assert_true(S->port > 0);
}

/* Stops it: SIGTERM (a clean stop, exit status 0) or SIGKILL. */
static void stop(srv *S, int sig) {
    kill(S->pid, sig);
    int st;
    assert_int_equal(waitpid(S->pid, &st, 0), S->pid);
    if (sig == SIGTERM) {
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    }
}

/* One HTTP request; returns the status and the body in *out (caller
 * frees). `limit` > 0 stops reading after that many bytes. */
static int http_limit(const srv *S, const char *method, const char *path,
                      const char *token, const char *body, char **out,
                      size_t limit) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(s >= 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)S->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(s, (struct sockaddr *)&a, sizeof a), 0);
    size_t blen = body ? strlen(body) : 0;
    char *req = malloc(blen + 1024);
    assert_non_null(req);
    int n = snprintf(req, 1024,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: "
                     "close\r\nContent-Length: %zu\r\n",
                     method, path, blen);
    if (token)
        n += snprintf(req + n, 200, "Authorization: Bearer %s\r\n", token);
    if (body)
        n += snprintf(req + n, 64, "Content-Type: application/json\r\n");
    n += snprintf(req + n, 8, "\r\n");
    if (body)
        memcpy(req + n, body, blen);
    size_t total = (size_t)n + blen, sent = 0;
    while (sent < total) {
        ssize_t k = write(s, req + sent, total - sent);
        if (k <= 0)
            break; /* the server may answer (413) before reading it all */
        sent += (size_t)k;
    }
    free(req);
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        if (len + 1 == cap)
            assert_non_null(buf = realloc(buf, cap *= 2));
        ssize_t k = read(s, buf + len, cap - len - 1);
        if (k <= 0)
            break;
        len += (size_t)k;
        if (limit && len >= limit)
            break;
    }
    buf[len] = '\0';
    close(s);
    int status = 0;
    sscanf(buf, "HTTP/1.%*d %d", &status);
    char *b = strstr(buf, "\r\n\r\n");
    *out = strdup(b ? b + 4 : "");
    free(buf);
    return status;
}

static int http(const srv *S, const char *method, const char *path,
                const char *token, const char *body, char **out) {
    return http_limit(S, method, path, token, body, out, 0);
}

/* A request whose answer is JSON; fails unless the status is `want`. */
static json_t *call(const srv *S, const char *method, const char *path,
                    const char *token, const char *body, int want) {
    char *out;
    int st = http(S, method, path, token, body, &out);
    if (st != want)
        fail_msg("%s %s: status %d, not %d: %s", method, path, st, want, out);
    json_error_t e;
    json_t *o = json_loads(out, 0, &e);
    if (!o)
        fail_msg("%s %s: not JSON: %s", method, path, out);
    free(out);
    return o;
}

static const char *str(json_t *o, const char *k) {
    return json_string_value(json_object_get(o, k));
}
static long num(json_t *o, const char *k) {
    return (long)json_integer_value(json_object_get(o, k));
}

static void temp_db(srv *S) {
    snprintf(S->db, sizeof S->db, "/tmp/kemet-serve-XXXXXX");
    int fd = mkstemp(S->db);
    assert_true(fd >= 0);
    close(fd);
    unlink(S->db);
}

static void remove_db(const srv *S) {
    char p[80];
    unlink(S->db);
    snprintf(p, sizeof p, "%s-wal", S->db);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", S->db);
    unlink(p);
}

typedef struct game {
    char id[32], tok[2][64];
} game;

static game create(const srv *S, const char *body) {
    json_t *o = call(S, "POST", "/api/games", NULL, body, 201);
    game g = {0};
    snprintf(g.id, sizeof g.id, "%s", str(o, "id"));
    json_t *t = json_object_get(o, "tokens");
    for (int p = 0; p < 2; p++) {
        const char *k = json_string_value(json_object_get(t, p ? "2" : "1"));
        snprintf(g.tok[p], sizeof g.tok[p], "%s", k ? k : "");
    }
    json_decref(o);
    return g;
}

static json_t *state(const srv *S, const game *g, const char *tok) {
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", g->id);
    return call(S, "GET", path, tok, NULL, 200);
}

/* One action by the player to act: a throw, else the move `pick` % n of
 * the legal ones. Returns false once the game is over. */
static bool act(const srv *S, const game *g, unsigned pick) {
    json_t *st = state(S, g, NULL);
    const char *phase = str(st, "phase");
    bool over = strcmp(phase, "over") == 0;
    if (!over) {
        const char *tok = g->tok[num(st, "to") - 1];
        char path[128], body[256];
        if (strcmp(phase, "throw") == 0) {
            snprintf(path, sizeof path, "/api/games/%s/throw", g->id);
            json_decref(call(S, "POST", path, tok, "{}", 200));
        } else {
            json_t *moves = json_object_get(st, "moves");
            size_t n = json_array_size(moves);
            assert_true(n > 0);
            snprintf(path, sizeof path, "/api/games/%s/move", g->id);
            snprintf(body, sizeof body, "{\"move\":\"%s\"}",
                     json_string_value(json_array_get(moves, pick % n)));
            json_decref(call(S, "POST", path, tok, body, 200));
        }
    }
    json_decref(st);
    return !over;
}

/* Whole games of four rulesets, two people, through the API; each record
 * replays with the library's checker (throws against the dice seed). */
/* The server's review of a finished game is the library's review of its
 * record (the same agent), and is kept: asked again, the same answer. */
static void review_matches_library(const srv *S, const game *g,
                                   const char *rec) {
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/review", g->id);
    json_t *o = call(S, "GET", path, NULL, NULL, 200);
    char *first = json_dumps(o, JSON_SORT_KEYS);
    json_t *again = call(S, "GET", path, NULL, NULL, 200);
    char *second = json_dumps(again, JSON_SORT_KEYS);
    assert_string_equal(first, second);
    kemet_rules *r;
    kemet_pos start;
    kemet_ply *plies;
    long n;
    kemet_error err;
    assert_int_equal(kemet_record_read(rec, &r, &start, &plies, &n, &err), 0);
    kemet_agent *a;
    assert_int_equal(kemet_agent_new(r, "expectimax", 1, &a, &err), 0);
    kemet_review_entry *e = malloc((size_t)(2 * n + 2) * sizeof *e);
    assert_non_null(e);
    kemet_review_sum sum[2];
    long ne = kemet_review(a, r, &start, plies, n, e, 2 * n + 2, sum, &err);
    assert_true(ne >= n);
    json_t *d = json_object_get(o, "decisions"),
           *p = json_object_get(o, "players");
    assert_int_equal((long)json_array_size(d), ne);
    assert_int_equal(json_integer_value(json_object_get(o, "plies")), n);
    for (int k = 0; k < 2; k++) {
        json_t *pk = json_array_get(p, (size_t)k);
        assert_int_equal(json_integer_value(json_object_get(pk, "decisions")),
                         sum[k].decisions);
        assert_true(fabs(json_real_value(json_object_get(pk, "loss")) -
                         sum[k].loss) < 1e-9);
        assert_true(fabs(json_real_value(json_object_get(pk, "luck")) -
                         sum[k].luck) < 1e-9);
    }
    for (long i = 0; i < ne; i++)
        assert_string_equal(json_string_value(json_object_get(
                                json_array_get(d, (size_t)i), "grade")),
                            kemet_grade_name(e[i].grade));
    free(e);
    free(plies);
    kemet_agent_free(a);
    kemet_rules_close(r);
    free(first);
    free(second);
    json_decref(o);
    json_decref(again);
}

static void full_games(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    const char *rules[] = {"senet-kendall", "hounds-jackals-skiryuk",
                           "chien-chacal", "lions-jackals-quick"};
    for (int r = 0; r < 4; r++) {
        char body[160];
        snprintf(body, sizeof body,
                 "{\"ruleset\":\"%s\",\"players\":[\"human\",\"human\"]}",
                 rules[r]);
        game g = create(&S, body);
        assert_true(strlen(g.tok[0]) == 32 && strlen(g.tok[1]) == 32);
        unsigned pick = 7;
        long actions = 0;
        while (act(&S, &g, pick = pick * 1103515245u + 12345u) &&
               actions < 20000)
            actions++;
        json_t *st = state(&S, &g, NULL);
        assert_string_equal(str(st, "status"), "over");
        assert_true(num(st, "winner") == 1 || num(st, "winner") == 2);
        json_decref(st);
        char path[128], *rec;
        snprintf(path, sizeof path, "/api/games/%s/record", g.id);
        assert_int_equal(http(&S, "GET", path, NULL, NULL, &rec), 200);
        assert_non_null(strstr(rec, "\nseed "));
        kemet_error err;
        kemet_pos fin;
        if (kemet_replay(rec, &fin, NULL, 0, NULL, &err))
            fail_msg("%s: the record does not replay: %s", rules[r], err.msg);
        assert_int_not_equal(fin.result, KEMET_PLAYING);
        if (r == 2)
            review_matches_library(&S, &g, rec);
        free(rec);
    }
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* Every bad request answers 4xx with a JSON error, and changes nothing. */
static void bad_requests(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game g = create(&S, "{\"ruleset\":\"senet-kendall\",\"players\":"
                        "[\"human\",\"human\"]}");
    char path[128], mpath[128], tpath[128], *out;
    snprintf(path, sizeof path, "/api/games/%s", g.id);
    snprintf(mpath, sizeof mpath, "/api/games/%s/move", g.id);
    snprintf(tpath, sizeof tpath, "/api/games/%s/throw", g.id);
    json_t *before = state(&S, &g, NULL);
    char *was = json_dumps(before, JSON_SORT_KEYS);
    json_decref(before);
#define BAD(status, words, method, p, tok, body)                               \
    do {                                                                       \
        json_t *e = call(&S, method, p, tok, body, status);                    \
        const char *msg = str(e, "error");                                     \
        assert_non_null(msg);                                                  \
        if (!strstr(msg, words))                                               \
            fail_msg("'%s' does not say '%s'", msg, words);                    \
        json_decref(e);                                                        \
    } while (0)
    BAD(400, "not JSON", "POST", "/api/games", NULL, "{\"ruleset\":");
    BAD(400, "unknown ruleset", "POST", "/api/games", NULL,
        "{\"ruleset\":\"ur\"}");
    BAD(400, "level is 1 to 5", "POST", "/api/games", NULL,
        "{\"ruleset\":\"senet-kendall\",\"players\":[\"human\","
        "{\"computer\":9}]}");
    BAD(400, "at least one player must be human", "POST", "/api/games", NULL,
        "{\"ruleset\":\"senet-kendall\",\"players\":[{\"computer\":1},"
        "{\"computer\":1}]}");
    BAD(404, "no such game", "GET", "/api/games/0123456789abcdef", NULL, NULL);
    BAD(404, "no such resource", "GET", "/api/nothing", NULL, NULL);
    BAD(405, "use POST", "GET", tpath, g.tok[0], NULL);
    char rpath[128];
    snprintf(rpath, sizeof rpath, "/api/games/%s/review", g.id);
    BAD(409, "not over", "GET", rpath, NULL, NULL);
    BAD(401, "token", "POST", tpath, NULL, "{}");
    BAD(403, "not one of this game's", "POST", tpath,
        "ffffffffffffffffffffffffffffffff", "{}");
    BAD(403, "not one of this game's", "GET", path,
        "ffffffffffffffffffffffffffffffff", NULL);
    /* player 1 (White) starts in Senet (ruling: player 1 starts) */
    json_t *st = state(&S, &g, NULL);
    int to = (int)num(st, "to");
    json_decref(st);
    BAD(409, "not yours", "POST", tpath, g.tok[2 - to], "{}");
    BAD(400, "not JSON", "POST", mpath, g.tok[to - 1], "move 9-12");
    BAD(400, "give the move as a string", "POST", mpath, g.tok[to - 1],
        "{\"move\":12}");
    BAD(400, "is not a move", "POST", mpath, g.tok[to - 1],
        "{\"move\":\"up\"}");
    /* said once (it once read "'up' is not a move: 'up' is not a move") */
    json_t *said =
        call(&S, "POST", mpath, g.tok[to - 1], "{\"move\":\"up\"}", 400);
    const char *first = strstr(str(said, "error"), "'up'");
    assert_non_null(first);
    assert_null(strstr(first + 1, "'up'"));
    json_decref(said);
    char *big = malloc(40000);
    assert_non_null(big);
    memset(big, ' ', 39999);
    big[0] = '{';
    big[39998] = '}';
    big[39999] = '\0';
    BAD(413, "over", "POST", mpath, g.tok[to - 1], big);
    free(big);
    /* Invalid UTF-8 in what an error message repeats, or a character cut
     * in two where the message is shortened: still a JSON answer (the
     * connection was once dropped with no answer at all). */
    BAD(404, "no such", "GET", "/api/games%FF", NULL, NULL);
    char longurl[128] = "/";
    memset(longurl + 1, 'a', 98);
    snprintf(longurl + 99, sizeof longurl - 99, "%%C3%%A9");
    BAD(404, "no such page", "GET", longurl, NULL, NULL);
    char move[200] = "{\"move\":\"a";
    for (int i = 0; i < 40; i++)
        strcat(move, "\xc3\xa9");
    strcat(move, "\"}");
    BAD(400, "is not a move", "POST", mpath, g.tok[to - 1], move);
    /* nothing changed */
    st = state(&S, &g, NULL);
    char *now = json_dumps(st, JSON_SORT_KEYS);
    assert_string_equal(was, now);
    free(now);
    json_decref(st);
    /* an illegal move after a throw: 422 with the reason, nothing changed */
    json_decref(call(&S, "POST", tpath, g.tok[to - 1], "{}", 200));
    BAD(409, "thrown already", "POST", tpath, g.tok[to - 1], "{}");
    st = state(&S, &g, NULL);
    long v = num(st, "version");
    const char *phase = str(st, "phase");
    if (strcmp(phase, "move") == 0) {
        BAD(422, "", "POST", mpath, g.tok[to - 1], "{\"move\":\"30-off\"}");
        json_t *st2 = state(&S, &g, NULL);
        assert_int_equal(num(st2, "version"), v);
        json_decref(st2);
    }
    json_decref(st);
    /* the spectator's view and the list never show a token */
    assert_int_equal(http(&S, "GET", path, NULL, NULL, &out), 200);
    assert_null(strstr(out, g.tok[0]));
    assert_null(strstr(out, g.tok[1]));
    free(out);
    snprintf(mpath, sizeof mpath, "/api/games?ids=%s,%s", "nothing", g.id);
    assert_int_equal(http(&S, "GET", mpath, NULL, NULL, &out), 200);
    assert_non_null(strstr(out, g.id));
    assert_null(strstr(out, g.tok[0]));
    free(out);
    /* without ids nobody's games are listed */
    assert_int_equal(http(&S, "GET", "/api/games", NULL, NULL, &out), 200);
    assert_null(strstr(out, g.id));
    assert_non_null(strstr(out, "\"games\":[]"));
    free(out);
    /* the record of an unfinished game does not give the dice seed away */
    snprintf(mpath, sizeof mpath, "/api/games/%s/record", g.id);
    assert_int_equal(http(&S, "GET", mpath, NULL, NULL, &out), 200);
    assert_non_null(strstr(out, "kemet-record 1"));
    assert_null(strstr(out, "\nseed "));
    free(out);
    free(was);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* A connection from address `from` (127.0.0.x) to the server, or -1 when
 * it could not be made. */
static int connect_from(const srv *S, const char *from) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(s >= 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    inet_pton(AF_INET, from, &a.sin_addr);
    assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    a.sin_port = htons((uint16_t)S->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, (struct sockaddr *)&a, sizeof a) != 0) {
        close(s);
        return -1;
    }
    return s;
}

/* Sends a whole request of our own making from address `from`; returns
 * the status (0: no answer) and the whole answer, headers and all, in
 * *out (caller frees). */
static int raw(const srv *S, const char *from, const char *req, char **out) {
    int s = connect_from(S, from);
    assert_true(s >= 0);
    size_t len = strlen(req);
    assert_int_equal(write(s, req, len), (ssize_t)len);
    size_t cap = 65536, got = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        if (got + 1 == cap)
            assert_non_null(buf = realloc(buf, cap *= 2));
        ssize_t k = read(s, buf + got, cap - got - 1);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    buf[got] = '\0';
    close(s);
    int status = 0;
    sscanf(buf, "HTTP/1.%*d %d", &status);
    *out = buf;
    return status;
}

/* The defences against other sites' pages and greedy clients: the Host
 * check, JSON-only bodies, the security headers, HEAD, the cap on games
 * and on connections per address. */
static void hostile_clients(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    S.extra[0] = "--max-games";
    S.extra[1] = "2";
    S.extra[2] = "--per-address";
    S.extra[3] = "4";
    S.extra[4] = "--allow-host";
    /* the spaces around a name are no part of it */
    S.extra[5] = "kemet.test, games.kemet.test ,";
    start(&S);
    char *out;
    const char *body = "{\"ruleset\":\"senet-kendall\"}";
    char req[1024];
    /* another site's form (text/plain) cannot make a game */
    snprintf(req, sizeof req,
             "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: "
             "close\r\nContent-Type: text/plain\r\nContent-Length: "
             "%zu\r\n\r\n%s",
             strlen(body), body);
    assert_int_equal(raw(&S, "127.0.0.1", req, &out), 415);
    assert_non_null(strstr(out, "must be JSON"));
    free(out);
    /* a host name not served (DNS rebinding) is refused; addresses,
       localhost and the names allowed are served */
    const char *hosts[][2] = {
        {"evil.example", "421"},
        {"kemet.test.evil.example", "421"},
        {"127.0.0.1:8080", "200"},
        {"localhost:8080", "200"},
        {"LOCALHOST", "200"},
        {"games.kemet.test", "200"},
        {"kemet.test:80", "200"},
        /* exactly: a bracketed name only as the listening IPv6 address
           (it listens on 127.0.0.1), no other address, nothing added */
        {"[::1]:8080", "421"},
        {"[evil.example]", "421"},
        {"[evil.example]:80", "421"},
        {"127.0.0.2", "421"},
        {"localhost.", "421"},
        {"localhost:80x", "421"},
        {"kemet.test:", "421"},
        {"localhost:123456", "421"}};
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
        snprintf(req, sizeof req,
                 "GET /api/rulesets HTTP/1.1\r\nHost: %s\r\nConnection: "
                 "close\r\n\r\n",
                 hosts[i][0]);
        int st = raw(&S, "127.0.0.1", req, &out);
        if (st != atoi(hosts[i][1]))
            fail_msg("Host %s: status %d", hosts[i][0], st);
        if (st == 421)
            assert_non_null(strstr(out, "does not serve that host"));
        free(out);
    }
    /* HTTP/1.1 must say its Host (400); HTTP/1.0 need not */
    assert_int_equal(raw(&S, "127.0.0.1",
                         "GET /api/rulesets HTTP/1.1\r\nConnection: "
                         "close\r\n\r\n",
                         &out),
                     400);
    assert_non_null(strstr(out, "must say its Host"));
    free(out);
    assert_int_equal(
        raw(&S, "127.0.0.1", "GET /api/rulesets HTTP/1.0\r\n\r\n", &out), 200);
    free(out);
    /* two Host headers: 400 (RFC 9112), whichever comes first */
    const char *twice[] = {"Host: 127.0.0.1\r\nHost: evil.example",
                           "Host: evil.example\r\nHost: 127.0.0.1",
                           "Host: 127.0.0.1\r\nhost: 127.0.0.1"};
    for (size_t i = 0; i < sizeof twice / sizeof twice[0]; i++) {
        snprintf(req, sizeof req,
                 "GET /api/rulesets HTTP/1.1\r\n%s\r\nConnection: "
                 "close\r\n\r\n",
                 twice[i]);
        int st = raw(&S, "127.0.0.1", req, &out);
        if (st != 400 || !strstr(out, "Host once"))
            fail_msg("two Host headers (%s): status %d", twice[i], st);
        free(out);
    }
    /* a POST whose Origin is another site's is refused (403); the server's
       own origin, or none, is served */
    const char *origins[][2] = {{"http://evil.example", "403"},
                                {"null", "403"},
                                {"http://127.0.0.1:9", "403"},
                                {"https://127.0.0.1.evil.example", "403"},
                                {"http://127.0.0.1", "404"},
                                {"https://127.0.0.1", "404"}};
    for (size_t i = 0; i < sizeof origins / sizeof origins[0]; i++) {
        /* (a game no one has: past the Origin check, 404) */
        snprintf(req, sizeof req,
                 "POST /api/games/0123456789abcdef/throw HTTP/1.1\r\nHost: "
                 "127.0.0.1\r\nOrigin: %s\r\nConnection: close\r\n"
                 "Content-Type: application/json\r\nContent-Length: "
                 "2\r\n\r\n{}",
                 origins[i][0]);
        int st = raw(&S, "127.0.0.1", req, &out);
        int want = atoi(origins[i][1]);
        if (st != want)
            fail_msg("Origin %s: status %d", origins[i][0], st);
        if (st == 403)
            assert_non_null(strstr(out, "another site"));
        free(out);
    }
    /* the security headers, on the page and on the API; HEAD answers */
    const char *paths[] = {"/", "/api/rulesets"};
    for (int i = 0; i < 2; i++) {
        snprintf(req, sizeof req,
                 "HEAD %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: "
                 "close\r\n\r\n",
                 paths[i]);
        assert_int_equal(raw(&S, "127.0.0.1", req, &out), 200);
        assert_non_null(strstr(out, "frame-ancestors 'none'"));
        assert_non_null(strstr(out, "X-Frame-Options: DENY"));
        assert_non_null(strstr(out, "X-Content-Type-Options: nosniff"));
        assert_null(strstr(out, "{")); /* no body */
        free(out);
    }
    /* at most two games held */
    game a = create(&S, body), b = create(&S, body);
    json_t *e = call(&S, "POST", "/api/games", NULL, body, 503);
    assert_non_null(strstr(str(e, "error"), "as many games"));
    json_decref(e);
    (void)a;
    (void)b;
    /* four connections from one address: the fifth is closed unanswered,
       while another address is served */
    int held[4];
    for (int i = 0; i < 4; i++)
        assert_true((held[i] = connect_from(&S, "127.0.0.9")) >= 0);
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    int fifth = connect_from(&S, "127.0.0.9");
    if (fifth >= 0) {
        const char *get = "GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          "Connection: close\r\n\r\n";
        (void)!write(fifth, get, strlen(get));
        char c;
        assert_true(read(fifth, &c, 1) <= 0);
        close(fifth);
    }
    snprintf(req, sizeof req,
             "GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: "
             "close\r\n\r\n");
    assert_int_equal(raw(&S, "127.0.0.10", req, &out), 200);
    free(out);
    for (int i = 0; i < 4; i++)
        close(held[i]);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* Resigning: the other side wins at once; the record says so and
 * replays; the resignation survives a restart. */
static void resign_game(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game g = create(&S, "{\"ruleset\":\"senet-kendall\",\"players\":"
                        "[\"human\",{\"computer\":1}]}");
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/resign", g.id);
    json_t *e = call(&S, "POST", path, NULL, "{}", 401);
    json_decref(e);
    json_t *st = call(&S, "POST", path, g.tok[0], "{}", 200);
    assert_string_equal(str(st, "status"), "over");
    assert_int_equal(num(st, "winner"), 2);
    assert_int_equal(num(st, "resigned"), 1);
    assert_string_equal(str(st, "phase"), "over");
    json_decref(st);
    e = call(&S, "POST", path, g.tok[0], "{}", 409);
    json_decref(e);
    stop(&S, SIGKILL);
    start(&S);
    st = state(&S, &g, NULL);
    assert_string_equal(str(st, "status"), "over");
    assert_int_equal(num(st, "winner"), 2);
    json_decref(st);
    char *rec;
    snprintf(path, sizeof path, "/api/games/%s/record", g.id);
    assert_int_equal(http(&S, "GET", path, NULL, NULL, &rec), 200);
    assert_non_null(strstr(rec, "\nresign 1\nresult 2\n"));
    kemet_error err;
    kemet_pos fin;
    if (kemet_replay(rec, &fin, NULL, 0, NULL, &err))
        fail_msg("the record does not replay: %s", err.msg);
    assert_int_equal(fin.result, KEMET_WON2);
    free(rec);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* Waits (long polling) until seat `me` is to act or the game is over;
 * returns the state. */
static json_t *my_turn(const srv *S, const game *g, int me) {
    char path[160];
    for (int tries = 0; tries < 200; tries++) {
        json_t *st = state(S, g, g->tok[me - 1]);
        if (num(st, "to") == me || strcmp(str(st, "phase"), "over") == 0)
            return st;
        snprintf(path, sizeof path, "/api/games/%s?after=%ld", g->id,
                 num(st, "version"));
        json_decref(st);
        json_decref(call(S, "GET", path, NULL, NULL, 200));
    }
    fail_msg("the computer never answered");
    return NULL;
}

/* Take-back against the computer: the human's last move and the
 * computer's answers are undone, the same throw is pending again, and the
 * take-back is an action that survives a restart and leaves a record that
 * replays. Between two people, or with nothing to take back, refused. */
static void takeback_game(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game g = create(&S, "{\"ruleset\":\"senet-kendall\",\"players\":"
                        "[\"human\",{\"computer\":1}]}");
    char path[128], tb[128], body[256];
    snprintf(tb, sizeof tb, "/api/games/%s/takeback", g.id);
    json_decref(call(&S, "POST", tb, g.tok[0], "{}", 409)); /* no move yet */
    json_decref(call(&S, "POST", tb, NULL, "{}", 401));
    char *pos_before = NULL, *thr_before = NULL;
    long version = 0;
    for (int moved = 0; moved < 3;) {
        json_t *st = my_turn(&S, &g, 1);
        assert_string_not_equal(str(st, "phase"), "over");
        if (strcmp(str(st, "phase"), "throw") == 0) {
            snprintf(path, sizeof path, "/api/games/%s/throw", g.id);
            json_decref(call(&S, "POST", path, g.tok[0], "{}", 200));
        } else {
            free(pos_before);
            free(thr_before);
            pos_before = strdup(str(st, "position"));
            thr_before = strdup(json_string_value(
                json_object_get(json_object_get(st, "throw"), "text")));
            json_t *moves = json_object_get(st, "moves");
            snprintf(path, sizeof path, "/api/games/%s/move", g.id);
            snprintf(body, sizeof body, "{\"move\":\"%s\"}",
                     json_string_value(
                         json_array_get(moves, json_array_size(moves) - 1)));
            json_decref(call(&S, "POST", path, g.tok[0], body, 200));
            moved++;
        }
        json_decref(st);
    }
    json_t *st = my_turn(&S, &g, 1);
    version = num(st, "version");
    long plies = num(st, "plies");
    json_decref(st);
    st = call(&S, "POST", tb, g.tok[0], "{}", 200);
    assert_int_equal(num(st, "to"), 1);
    assert_string_equal(str(st, "phase"), "move");
    assert_string_equal(str(st, "position"), pos_before);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(st, "throw"), "text")),
                        thr_before);
    assert_true(num(st, "version") == version + 1);
    assert_true(num(st, "plies") < plies);
    char *was = json_dumps(st, JSON_SORT_KEYS);
    json_decref(st);
    /* the computer's token is no one's; a watcher may not take back */
    json_decref(call(&S, "POST", tb, "x", "{}", 403));
    stop(&S, SIGKILL);
    start(&S);
    st = state(&S, &g, g.tok[0]);
    char *now = json_dumps(st, JSON_SORT_KEYS);
    json_decref(st);
    assert_string_equal(was, now);
    free(was);
    free(now);
    /* a second take-back goes one more move back, then play on to the end
     * and the record replays */
    json_decref(call(&S, "POST", tb, g.tok[0], "{}", 200));
    unsigned pick = 7;
    for (int i = 0; i < 20000; i++) {
        st = my_turn(&S, &g, 1);
        bool over = strcmp(str(st, "phase"), "over") == 0;
        json_decref(st);
        if (over)
            break;
        act(&S, &g, pick = pick * 69069u + 1u);
    }
    char *rec;
    snprintf(path, sizeof path, "/api/games/%s/record", g.id);
    assert_int_equal(http(&S, "GET", path, NULL, NULL, &rec), 200);
    kemet_error err;
    kemet_pos fin;
    if (kemet_replay(rec, &fin, NULL, 0, NULL, &err))
        fail_msg("the record does not replay: %s", err.msg);
    assert_int_not_equal(fin.result, KEMET_PLAYING);
    free(rec);
    /* two people: a move stands */
    game h = create(&S, "{\"ruleset\":\"senet-kendall\",\"players\":"
                        "[\"human\",\"human\"]}");
    for (int i = 0; i < 6; i++)
        act(&S, &h, 0);
    snprintf(tb, sizeof tb, "/api/games/%s/takeback", h.id);
    json_decref(call(&S, "POST", tb, h.tok[0], "{}", 409));
    free(pos_before);
    free(thr_before);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* The server's session is the library's: a game against the computer
 * with a take-back and then a resignation leaves, before and after a
 * restart, exactly the record the library makes of the same plies with
 * kemet_game_takeback and kemet_game_resign. */
static void session_as_library(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game g = create(&S, "{\"ruleset\":\"senet-kendall\",\"players\":"
                        "[\"human\",{\"computer\":2}]}");
    char path[160];
    unsigned pick = 3;
    for (int moved = 0; moved < 4;) {
        json_t *st = my_turn(&S, &g, 1);
        bool over = strcmp(str(st, "phase"), "over") == 0;
        moved += strcmp(str(st, "phase"), "move") == 0;
        json_decref(st);
        if (over)
            break;
        act(&S, &g, pick = pick * 69069u + 1u);
    }
    json_t *st = my_turn(&S, &g, 1);
    assert_string_not_equal(str(st, "phase"), "over");
    json_decref(st);
    /* the plies so far, as the server lists them */
    snprintf(path, sizeof path, "/api/games/%s/history", g.id);
    json_t *hist = call(&S, "GET", path, NULL, NULL, 200);
    json_t *plies = json_object_get(hist, "history");
    snprintf(path, sizeof path, "/api/games/%s/takeback", g.id);
    json_decref(call(&S, "POST", path, g.tok[0], "{}", 200));
    snprintf(path, sizeof path, "/api/games/%s/resign", g.id);
    json_decref(call(&S, "POST", path, g.tok[0], "{}", 200));
    char *rec;
    snprintf(path, sizeof path, "/api/games/%s/record", g.id);
    assert_int_equal(http(&S, "GET", path, NULL, NULL, &rec), 200);
    /* the game before the take-back: the record's header (with its seed,
       the game being over) and the plies listed before */
    char *text = malloc(strlen(rec) + 64 * json_array_size(plies) + 64);
    char *body = strstr(rec, "\nstart ");
    assert_non_null(body);
    body = strchr(body + 1, '\n') + 1;
    size_t head = (size_t)(body - rec);
    memcpy(text, rec, head);
    text[head] = '\0';
    for (size_t i = 1; i < json_array_size(plies); i++) {
        json_t *p = json_array_get(plies, i);
        json_t *t = json_object_get(p, "throw");
        sprintf(text + strlen(text), "%ld %s %s\n", num(p, "player"),
                t && json_is_object(t) ? str(t, "text") : "none",
                str(p, "move"));
    }
    kemet_rules *r;
    kemet_game *lib;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-kendall", &r, NULL), 0);
    if (kemet_game_read(r, text, &lib, &err))
        fail_msg("the listed plies do not read back: %s\n%s", err.msg, text);
    assert_int_equal(kemet_game_takeback(lib, 1), KEMET_OK);
    assert_int_equal(kemet_game_resign(lib, 1), KEMET_OK);
    char *want;
    assert_int_equal(kemet_game_record(lib, &want), KEMET_OK);
    assert_string_equal(rec, want);
    /* and the same after a restart, rebuilt from the stored actions */
    free(rec);
    stop(&S, SIGKILL);
    start(&S);
    assert_int_equal(http(&S, "GET", path, NULL, NULL, &rec), 200);
    assert_string_equal(rec, want);
    free(rec);
    free(want);
    free(text);
    json_decref(hist);
    kemet_game_free(lib);
    kemet_rules_close(r);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* kill -9 in the middle of a game: after the restart every action the
 * players were told about is there, and the game plays on to the end. */
static void restart(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game g = create(&S, "{\"ruleset\":\"hounds-jackals-skiryuk\","
                        "\"players\":[\"human\",\"human\"]}");
    unsigned pick = 3;
    for (int i = 0; i < 40; i++)
        act(&S, &g, pick = pick * 69069u + 1u);
    json_t *before = state(&S, &g, g.tok[0]);
    char *was = json_dumps(before, JSON_SORT_KEYS);
    json_decref(before);
    stop(&S, SIGKILL);
    start(&S);
    json_t *after = state(&S, &g, g.tok[0]);
    char *now = json_dumps(after, JSON_SORT_KEYS);
    json_decref(after);
    assert_string_equal(was, now);
    free(was);
    free(now);
    long n = 0;
    while (act(&S, &g, pick = pick * 69069u + 1u) && n < 20000)
        n++;
    json_t *st = state(&S, &g, NULL);
    assert_string_equal(str(st, "status"), "over");
    json_decref(st);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* Against the computer: the human acts, the computer answers by itself;
 * watchers learn of it by long polling and by Server-Sent Events. */
static void computer_and_updates(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game g = create(&S, "{\"ruleset\":\"senet-kendall\",\"players\":"
                        "[{\"computer\":2},\"human\"]}");
    assert_string_equal(g.tok[0], "");
    char path[160], *out;
    /* the computer (player 1) starts: wait for it by long polling */
    json_t *st = state(&S, &g, NULL);
    long v = num(st, "version");
    json_decref(st);
    snprintf(path, sizeof path, "/api/games/%s?after=%ld", g.id, v);
    /* each poll waits for a version after the last one seen, so the
     * computer's turn may take as long as it takes on a loaded machine */
    int tries = 0;
    do {
        st = call(&S, "GET", path, NULL, NULL, 200);
        bool mine = num(st, "to") == 2 || strcmp(str(st, "phase"), "over") == 0;
        v = num(st, "version");
        json_decref(st);
        if (mine)
            break;
        snprintf(path, sizeof path, "/api/games/%s?after=%ld", g.id, v);
    } while (++tries < 50);
    assert_true(tries < 50);
    /* the events stream says the version at once */
    snprintf(path, sizeof path, "/api/games/%s/events", g.id);
    assert_int_equal(http_limit(&S, "GET", path, NULL, NULL, &out, 40), 200);
    free(out);
    /* play the human's side with the first legal move until the end */
    for (int i = 0; i < 4000; i++) {
        st = state(&S, &g, g.tok[1]);
        bool over = strcmp(str(st, "phase"), "over") == 0;
        assert_int_equal(num(st, "you"), 2);
        if (!over && num(st, "to") == 2) {
            char p2[128];
            if (strcmp(str(st, "phase"), "throw") == 0) {
                snprintf(p2, sizeof p2, "/api/games/%s/throw", g.id);
                json_decref(call(&S, "POST", p2, g.tok[1], "{}", 200));
            } else {
                char body[128];
                snprintf(p2, sizeof p2, "/api/games/%s/move", g.id);
                snprintf(body, sizeof body, "{\"move\":\"%s\"}",
                         json_string_value(
                             json_array_get(json_object_get(st, "moves"), 0)));
                json_decref(call(&S, "POST", p2, g.tok[1], body, 200));
            }
        } else if (!over) {
            snprintf(path, sizeof path, "/api/games/%s?after=%ld", g.id,
                     num(st, "version"));
            json_decref(call(&S, "GET", path, NULL, NULL, 200));
        }
        json_decref(st);
        if (over)
            break;
    }
    st = state(&S, &g, NULL);
    assert_string_equal(str(st, "status"), "over");
    json_decref(st);
    /* the hint: before the game is over only; the replay lists every ply */
    snprintf(path, sizeof path, "/api/games/%s/history", g.id);
    st = call(&S, "GET", path, NULL, NULL, 200);
    assert_true(json_array_size(json_object_get(st, "history")) > 10);
    json_decref(st);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* A hint ranks the legal moves, each with a chance between 0 and 1; the
 * steps of a multi-value turn come one at a time. */
static void hints_and_steps(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game g = create(&S, "{\"ruleset\":\"lions-jackals\",\"players\":"
                        "[\"human\",\"human\"]}");
    json_t *st = state(&S, &g, NULL);
    int to = (int)num(st, "to");
    json_decref(st);
    char path[160];
    snprintf(path, sizeof path, "/api/games/%s/throw", g.id);
    json_decref(call(&S, "POST", path, g.tok[to - 1], "{}", 200));
    st = state(&S, &g, NULL);
    if (strcmp(str(st, "phase"), "move") == 0) {
        size_t n = json_array_size(json_object_get(st, "moves"));
        snprintf(path, sizeof path, "/api/games/%s/hint", g.id);
        json_t *h = call(&S, "POST", path, g.tok[to - 1], "{}", 200);
        json_t *list = json_object_get(h, "moves");
        assert_int_equal(json_array_size(list), n);
        double last = 2;
        for (size_t i = 0; i < n; i++) {
            double c = json_real_value(
                json_object_get(json_array_get(list, i), "chance"));
            assert_true(c >= 0 && c <= 1 && c <= last);
            last = c;
            /* The opening is far from any table (and the test's server
             * has none). */
            assert_true(json_is_false(
                json_object_get(json_array_get(list, i), "exact")));
        }
        json_decref(h);
        /* the hint is the player's: a spectator may not ask */
        json_decref(call(&S, "POST", path, NULL, "{}", 401));
        snprintf(path, sizeof path, "/api/games/%s/steps?done=", g.id);
        h = call(&S, "GET", path, NULL, NULL, 200);
        assert_true(json_array_size(json_object_get(h, "next")) > 0);
        /* no step yet: no board between; after one, the board it leaves */
        assert_true(json_is_null(json_object_get(h, "cells")));
        char more[256];
        snprintf(
            more, sizeof more, "%s%s", path,
            json_string_value(json_array_get(json_object_get(h, "next"), 0)));
        json_t *h2 = call(&S, "GET", more, NULL, NULL, 200);
        assert_true(json_is_array(json_object_get(h2, "cells")));
        json_decref(h2);
        json_decref(h);
    }
    json_decref(st);
    stop(&S, SIGTERM);
    remove_db(&S);
}

static game midgame(const srv *S, const char *ruleset, int plies);

/* The number seat `viewer` reads on the hole of seat `who`'s square sq,
 * from the board the server publishes (its `paths`): the viewer's square
 * on the same cell. */
static int seen_as(json_t *paths, int who, int sq, int viewer) {
    json_t *mine = json_array_get(paths, (size_t)viewer - 1);
    json_int_t cell = json_integer_value(
        json_array_get(json_array_get(paths, (size_t)who - 1), (size_t)sq));
    for (size_t k = 1; k < json_array_size(mine); k++)
        if (json_integer_value(json_array_get(mine, k)) == cell)
            return (int)k;
    return sq;
}

/* Tab, where the sides count the same holes from opposite ends: a ply of
 * Black's is told to White (and to a spectator) in White's numbers, as
 * White's board is numbered, and to Black in Black's; the history as the
 * state. */
static void words_as_each_seat_reads(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    json_t *all = call(&S, "GET", "/api/rulesets", NULL, NULL, 200),
           *paths = NULL;
    json_t *list = json_object_get(all, "rulesets");
    for (size_t i = 0; i < json_array_size(list); i++)
        if (!strcmp(str(json_array_get(list, i), "id"), "tab-58"))
            paths = json_object_get(json_array_get(list, i), "paths");
    assert_non_null(paths);
    game g = create(&S, "{\"ruleset\":\"tab-58\",\"players\":"
                        "[\"human\",\"human\"]}");
    int a = 0, b = 0;
    for (int i = 0; i < 600 && !a; i++) {
        assert_true(act(&S, &g, (unsigned)i * 7));
        json_t *st = state(&S, &g, g.tok[1]);
        json_t *last = json_object_get(st, "last");
        json_t *p = json_array_get(last, json_array_size(last) - 1);
        /* a plain step of Black's: "Black moves A-B." */
        if (p && num(p, "player") == 2 &&
            sscanf(str(p, "move"), "%d-%d", &a, &b) == 2 &&
            !strchr(str(p, "move"), '+') && a <= 29 && b <= 29 &&
            strncmp(str(p, "words"), "Black moves", 11) == 0) {
            char want[64];
            snprintf(want, sizeof want, "Black moves %d-%d.", a, b);
            if (!strstr(str(p, "words"), want))
                fail_msg("Black reads '%s', not '%s'", str(p, "words"), want);
        } else
            a = 0;
        json_decref(st);
    }
    assert_true(a > 0);
    char want[64], path[128];
    snprintf(want, sizeof want, "Black moves %d-%d.", seen_as(paths, 2, a, 1),
             seen_as(paths, 2, b, 1));
    assert_string_not_equal(want, "Black moves 0-0.");
    for (int who = 0; who < 2; who++) { /* White, a spectator */
        json_t *st = state(&S, &g, who ? NULL : g.tok[0]);
        json_t *last = json_object_get(st, "last");
        const char *w =
            str(json_array_get(last, json_array_size(last) - 1), "words");
        if (!strstr(w, want))
            fail_msg("%s reads '%s', not '%s'", who ? "a spectator" : "White",
                     w, want);
        json_decref(st);
    }
    snprintf(path, sizeof path, "/api/games/%s/history", g.id);
    for (int who = 0; who < 3; who++) {
        json_t *h =
            call(&S, "GET", path, who < 2 ? g.tok[who] : NULL, NULL, 200);
        json_t *plies = json_object_get(h, "history");
        const char *w =
            str(json_array_get(plies, json_array_size(plies) - 1), "words");
        char mine[64];
        snprintf(mine, sizeof mine, "Black moves %d-%d.", a, b);
        if (!strstr(w, who == 1 ? mine : want))
            fail_msg("the history reads '%s' for seat %d", w, who + 1);
        json_decref(h);
    }
    json_decref(all);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* A turn of several values begun with one step (Lions & Jackals): the
 * steps' answer lists every way to finish it, each written as begun and
 * as the legal moves list the same turn (its end the same), so that the
 * hints' chances apply to a turn begun in any order. */
static void ways_to_finish_a_turn(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    int checked = 0;
    for (int tries = 0; tries < 10 && !checked; tries++) {
        game g = midgame(&S, "lions-jackals", 4 + tries);
        json_t *st = state(&S, &g, NULL);
        kemet_rules *r;
        kemet_pos pos;
        kemet_error err;
        kemet_throw t;
        assert_int_equal(kemet_pos_parse(str(st, "position"), &r, &pos, &err),
                         0);
        assert_int_equal(
            kemet_throw_parse(r, str(json_object_get(st, "throw"), "text"), &t,
                              &err),
            0);
        char path[256];
        snprintf(path, sizeof path, "/api/games/%s/steps?done=", g.id);
        json_t *s0 = call(&S, "GET", path, NULL, NULL, 200);
        assert_null(json_object_get(s0, "ways")); /* no turn begun */
        json_t *next = json_object_get(s0, "next");
        for (size_t k = 0; k < json_array_size(next); k++) {
            const char *d = json_string_value(json_array_get(next, k));
            snprintf(path, sizeof path, "/api/games/%s/steps?done=%s", g.id, d);
            json_t *s1 = call(&S, "GET", path, NULL, NULL, 200);
            json_t *ways = json_object_get(s1, "ways");
            if (json_is_true(json_object_get(s1, "complete"))) {
                json_decref(s1);
                continue;
            }
            assert_true(json_array_size(ways) > 0);
            for (size_t w = 0; w < json_array_size(ways); w++) {
                const char *m = str(json_array_get(ways, w), "move");
                const char *as = str(json_array_get(ways, w), "as");
                /* begun as the player began it */
                assert_int_equal(strncmp(m, d, strlen(d)), 0);
                assert_int_equal(m[strlen(d)], '+');
                /* `as` is one of the legal moves */
                json_t *moves = json_object_get(st, "moves");
                bool listed = false;
                for (size_t i = 0; i < json_array_size(moves); i++)
                    listed |= !strcmp(
                        json_string_value(json_array_get(moves, i)), as);
                if (!listed)
                    fail_msg("'%s' (for %s) is not a legal move", as, m);
                /* both end the same */
                kemet_move mm, ma;
                kemet_pos pm, pa;
                char tm[512], ta[512];
                assert_int_equal(kemet_move_parse(r, m, &mm, &err), 0);
                assert_int_equal(kemet_move_parse(r, as, &ma, &err), 0);
                assert_int_equal(kemet_apply(r, &pos, &t, &mm, &pm, NULL), 0);
                assert_int_equal(kemet_apply(r, &pos, &t, &ma, &pa, NULL), 0);
                kemet_pos_format(r, &pm, tm, sizeof tm);
                kemet_pos_format(r, &pa, ta, sizeof ta);
                assert_string_equal(tm, ta);
                checked++;
            }
            json_decref(s1);
        }
        json_decref(s0);
        json_decref(st);
        kemet_rules_close(r);
    }
    assert_true(checked > 0);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* A database that is not kemet's is refused with one line, status 2. */
static void bad_database(void **state_) {
    (void)state_;
    char path[] = "/tmp/kemet-notdb-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_true(write(fd, "not a database at all, just text\n", 33) == 33);
    close(fd);
    char *out, *err;
    int st =
        tu_run(NULL, &out, &err, "serve", "--port", "0", "--db", path, NULL);
    assert_int_equal(st, 2);
    assert_non_null(strstr(err, path));
    free(out);
    free(err);
    unlink(path);
    /* Another program's SQLite database is refused and left as it was:
     * not switched to WAL, no table added (it once was). */
    static const char *const others[] = {
        "CREATE TABLE users(name TEXT);",
        "CREATE TABLE games(id TEXT, owner TEXT);",
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        char dbp[] = "/tmp/kemet-otherdb-XXXXXX";
        int dfd = mkstemp(dbp);
        assert_true(dfd >= 0);
        close(dfd);
        sqlite3 *db;
        assert_int_equal(sqlite3_open(dbp, &db), SQLITE_OK);
        assert_int_equal(sqlite3_exec(db, others[i], NULL, NULL, NULL),
                         SQLITE_OK);
        sqlite3_close(db);
        FILE *f = fopen(dbp, "rb");
        static char before[65536], after[65536];
        size_t nb = fread(before, 1, sizeof before, f);
        fclose(f);
        st =
            tu_run(NULL, &out, &err, "serve", "--port", "0", "--db", dbp, NULL);
        assert_int_equal(st, 2);
        assert_non_null(strstr(err, "not a kemet database (left as it was)"));
        free(out);
        free(err);
        f = fopen(dbp, "rb");
        size_t na = fread(after, 1, sizeof after, f);
        fclose(f);
        assert_int_equal(na, nb);
        assert_memory_equal(before, after, nb);
        char wal[64];
        snprintf(wal, sizeof wal, "%s-wal", dbp);
        assert_int_not_equal(access(wal, F_OK), 0);
        unlink(dbp);
    }
    /* A database of a newer kemet is refused, left as it was. */
    {
        char dbp[] = "/tmp/kemet-newerdb-XXXXXX";
        int dfd = mkstemp(dbp);
        close(dfd);
        sqlite3 *db;
        assert_int_equal(sqlite3_open(dbp, &db), SQLITE_OK);
        assert_int_equal(
            sqlite3_exec(db, "PRAGMA user_version=99;", NULL, NULL, NULL),
            SQLITE_OK);
        sqlite3_close(db);
        st =
            tu_run(NULL, &out, &err, "serve", "--port", "0", "--db", dbp, NULL);
        assert_int_equal(st, 2);
        assert_non_null(strstr(err, "made by a newer kemet"));
        free(out);
        free(err);
        unlink(dbp);
    }
    st = tu_run(NULL, &out, &err, "serve", "--port", "0", "--db", "/", NULL);
    assert_int_equal(st, 2);
    free(out);
    free(err);
    st = tu_run(NULL, &out, &err, "serve", "--port", "70000", NULL);
    assert_int_equal(st, 2);
    free(out);
    free(err);
}

/* A database of the first schema (its actions only throw and move, its
 * version never set) is brought up to date: its games play on, and a game
 * may then be resigned. */
static void old_database(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game g = create(&S, "{\"ruleset\":\"chien-chacal\",\"players\":"
                        "[\"human\",\"human\"]}");
    unsigned pick = 5;
    for (int i = 0; i < 6; i++)
        act(&S, &g, pick = pick * 69069u + 1u);
    json_t *st = state(&S, &g, NULL);
    long v = num(st, "version");
    json_decref(st);
    stop(&S, SIGTERM);
    /* make it a file of the first schema, as an older kemet left it */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(S.db, &db), SQLITE_OK);
    const char *old =
        "BEGIN;"
        "CREATE TABLE a1(game TEXT NOT NULL REFERENCES games(id),"
        " seq INTEGER NOT NULL,"
        " kind TEXT NOT NULL CHECK(kind IN ('throw','move')),"
        " text TEXT NOT NULL, PRIMARY KEY(game, seq));"
        "INSERT INTO a1 SELECT * FROM actions; DROP TABLE actions;"
        "ALTER TABLE a1 RENAME TO actions; DROP TABLE activity;"
        "DROP TABLE expired; UPDATE games SET created = created - 864000;"
        "PRAGMA user_version=0; COMMIT;";
    char *msg = NULL;
    if (sqlite3_exec(db, old, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s", msg);
    sqlite3_close(db);
    start(&S);
    st = state(&S, &g, NULL);
    assert_int_equal(num(st, "version"), v);
    json_decref(st);
    /* made ten days ago (above): its last action is counted from the
       upgrade, or it would expire at once */
    assert_int_equal(sqlite3_open(S.db, &db), SQLITE_OK);
    char sql[200];
    sqlite3_stmt *q;
    snprintf(sql, sizeof sql,
             "SELECT at >= strftime('%%s','now') - 60 FROM activity WHERE "
             "game='%s'",
             g.id);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 1);
    sqlite3_finalize(q);
    sqlite3_close(db);
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/resign", g.id);
    st = call(&S, "POST", path, g.tok[1], "{}", 200);
    assert_int_equal(num(st, "winner"), 1);
    json_decref(st);
    stop(&S, SIGTERM);
    assert_int_equal(sqlite3_open(S.db, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 5);
    sqlite3_finalize(q);
    sqlite3_close(db);
    remove_db(&S);
}

/* The page's files, and the data it draws every board from: /api/rulesets
 * carries each ruleset's board for drawing and the play levels, and no
 * board is named by its ruleset. */
static void page_and_boards(void **state) {
    (void)state;
    srv S = {0};
    temp_db(&S);
    start(&S);
    static const char *const files[] = {
        "/",        "/index.html", "/app.css",  "/main.js",
        "/util.js", "/api.js",     "/board.js", "/home.js",
        "/game.js", "/replay.js",  "/store.js", "/offline.js"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *out;
        assert_int_equal(http(&S, "GET", files[i], NULL, NULL, &out), 200);
        assert_true(strlen(out) > 100);
        free(out);
    }
    char *out;
    assert_int_equal(http(&S, "GET", "/app.js", NULL, NULL, &out), 404);
    free(out);
    assert_int_equal(http(&S, "GET", "/../etc/passwd", NULL, NULL, &out), 404);
    free(out);
    json_t *o = call(&S, "GET", "/api/rulesets", NULL, NULL, 200);
    json_t *rs = json_object_get(o, "rulesets"), *r;
    size_t i;
    assert_int_equal(json_array_size(rs), (size_t)kemet_ruleset_count());
    json_array_foreach(rs, i, r) {
        json_t *art = json_object_get(r, "art");
        assert_non_null(art);
        assert_null(json_object_get(r, "board"));
        assert_int_equal(json_array_size(json_object_get(art, "holes")),
                         (size_t)num(r, "board_cells"));
        const char *frame = str(art, "frame");
        assert_true(strcmp(frame, "rect") == 0 || strcmp(frame, "palm") == 0);
        /* the ruleset's own levels, weakest first */
        json_t *own = json_object_get(r, "levels");
        assert_int_equal(json_array_size(own), KEMET_LEVELS);
        assert_string_equal(json_string_value(json_array_get(own, 0)),
                            "random");
        assert_string_equal(json_string_value(json_array_get(own, 4)),
                            "best:20k");
    }
    json_t *levels = json_object_get(o, "levels");
    assert_int_equal(json_array_size(levels), KEMET_LEVELS);
    assert_string_equal(str(json_array_get(levels, 4), "agent"), "best:20k");
    json_decref(o);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* ------------------------------------------------------------------------
 * Requests left waiting: sent now, their answers read later
 * --------------------------------------------------------------------- */

/* Sends a request from address `from` and leaves its answer unread: the
 * socket. */
static int send_from(const srv *S, const char *from, const char *method,
                     const char *path, const char *token, const char *body) {
    int s = connect_from(S, from);
    assert_true(s >= 0);
    char req[1024];
    size_t blen = body ? strlen(body) : 0;
    int n = snprintf(req, sizeof req,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: "
                     "close\r\nContent-Length: %zu\r\n%s%s%s%s\r\n%s",
                     method, path, blen, token ? "Authorization: Bearer " : "",
                     token ? token : "", token ? "\r\n" : "",
                     body ? "Content-Type: application/json\r\n" : "",
                     body ? body : "");
    assert_int_equal(write(s, req, (size_t)n), n);
    return s;
}

/* Whether an answer has begun to come on socket s. */
static bool answered(int s) {
    struct pollfd p = {s, POLLIN, 0};
    return poll(&p, 1, 0) > 0;
}

/* Reads the whole answer on socket s (closes it): its status (0: none
 * came within `ms`), and the answer in *out (caller frees). */
static int read_answer(int s, char **out, int ms) {
    size_t cap = 1 << 20, got = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        struct pollfd p = {s, POLLIN, 0};
        if (poll(&p, 1, ms) <= 0)
            break;
        ssize_t k = read(s, buf + got, cap - got - 1);
        if (k <= 0)
            break;
        got += (size_t)k;
        if (got + 1 == cap)
            break;
    }
    buf[got] = '\0';
    close(s);
    int status = 0;
    sscanf(buf, "HTTP/1.%*d %d", &status);
    *out = buf;
    return status;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* A game between two people played to its end with random moves. */
static game finished_game(const srv *S, const char *ruleset, unsigned pick) {
    char body[160];
    snprintf(body, sizeof body,
             "{\"ruleset\":\"%s\",\"players\":[\"human\",\"human\"]}", ruleset);
    game g = create(S, body);
    for (long n = 0; n < 20000 && act(S, &g, pick = pick * 69069u + 1u); n++)
        ;
    return g;
}

/* A game that seat 1 resigned after `plies` actions. */
static game resigned_game(const srv *S, const char *players, int actions) {
    char body[200], path[128];
    snprintf(body, sizeof body,
             "{\"ruleset\":\"senet-kendall\",\"players\":%s}", players);
    game g = create(S, body);
    for (int i = 0; i < actions; i++)
        act(S, &g, (unsigned)i);
    snprintf(path, sizeof path, "/api/games/%s/resign", g.id);
    json_decref(call(S, "POST", path, g.tok[0], "{}", 200));
    return g;
}

static json_t *server_info(const srv *S) {
    return call(S, "GET", "/api/server", NULL, NULL, 200);
}

static long made(const srv *S, const char *kind) {
    json_t *o = server_info(S);
    long n = num(json_object_get(json_object_get(o, "analysis"), kind), "made");
    json_decref(o);
    return n;
}

/* (a) Many asking at once for the review of one game: one review is
 * made, every one gets it; it is kept in the database, so that after a
 * restart it is not made again. A resigned game is reviewed, and the
 * review says how it ended. */
static void one_review_for_all(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game g = finished_game(&S, "chien-chacal", 11);
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/review", g.id);
    enum { N = 6 };
    int fd[N];
    for (int i = 0; i < N; i++) {
        char from[32];
        snprintf(from, sizeof from, "127.0.0.%d", 20 + i % 3);
        fd[i] = send_from(&S, from, "GET", path, NULL, NULL);
    }
    char *first = NULL;
    for (int i = 0; i < N; i++) {
        char *out;
        assert_int_equal(read_answer(fd[i], &out, 120000), 200);
        char *body = strstr(out, "\r\n\r\n");
        assert_non_null(body);
        if (!first)
            first = strdup(body);
        else
            assert_string_equal(first, body);
        free(out);
    }
    assert_int_equal(made(&S, "reviews"), 1);
    stop(&S, SIGTERM);
    start(&S);
    char *again;
    assert_int_equal(http(&S, "GET", path, NULL, NULL, &again), 200);
    assert_string_equal(first + 4, again);
    assert_int_equal(made(&S, "reviews"), 0); /* read back, not made */
    free(again);
    free(first);
    /* resigned: reviewed, and the review says so */
    game r = resigned_game(&S, "[\"human\",\"human\"]", 9);
    snprintf(path, sizeof path, "/api/games/%s/review", r.id);
    json_t *o = call(&S, "GET", path, NULL, NULL, 200);
    json_t *end = json_object_get(o, "end");
    assert_int_equal(num(end, "resigned"), 1);
    assert_int_equal(num(end, "winner"), 2);
    assert_non_null(strstr(str(end, "words"), "resigned"));
    assert_true(json_array_size(json_object_get(o, "decisions")) > 0);
    json_decref(o);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* (b) and (c): a player's hint is answered while strangers' reviews are
 * queued (the figure is printed; only its order is asserted); at SIGTERM
 * every request waiting (reviews queued or under way, a long poll, an
 * event stream) is answered, and the server stops. Then the bounds: more
 * reviews from one address than it may have queued are answered 429, more
 * than the server queues 503, each with Retry-After. */
static void players_first(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game a = finished_game(&S, "senet-kendall", 5),
         b = finished_game(&S, "senet-kendall", 9);
    char path[160];
    int rv[2];
    snprintf(path, sizeof path, "/api/games/%s/review", a.id);
    rv[0] = send_from(&S, "127.0.0.30", "GET", path, NULL, NULL);
    snprintf(path, sizeof path, "/api/games/%s/review", b.id);
    rv[1] = send_from(&S, "127.0.0.31", "GET", path, NULL, NULL);
    /* a player's game: the hint, timed */
    game p = create(&S, "{\"ruleset\":\"senet-kendall\",\"players\":"
                        "[\"human\",\"human\"]}");
    json_t *st = state(&S, &p, NULL);
    int to = (int)num(st, "to");
    long version = num(st, "version");
    json_decref(st);
    snprintf(path, sizeof path, "/api/games/%s/hint", p.id);
    double t0 = now_ms();
    json_t *h = call(&S, "POST", path, p.tok[to - 1], "{}", 200);
    double hint_ms = now_ms() - t0;
    assert_true(json_array_size(json_object_get(h, "moves")) > 0);
    json_decref(h);
    assert_false(answered(rv[0]));
    assert_false(answered(rv[1]));
    print_message("hint answered in %.1f ms with two reviews waiting\n",
                  hint_ms);
    /* 4 more reviews from one address are taken, a fifth is 429 */
    int mine[4];
    for (int i = 0; i < 4; i++) {
        game r = resigned_game(&S, "[\"human\",{\"computer\":1}]", 0);
        snprintf(path, sizeof path, "/api/games/%s/review", r.id);
        mine[i] = send_from(&S, "127.0.0.32", "GET", path, NULL, NULL);
    }
    nanosleep(&(struct timespec){0, 100000000}, NULL);
    game r = resigned_game(&S, "[\"human\",{\"computer\":1}]", 0);
    snprintf(path, sizeof path, "/api/games/%s/review", r.id);
    char *out;
    int fifth = send_from(&S, "127.0.0.32", "GET", path, NULL, NULL);
    assert_int_equal(read_answer(fifth, &out, 10000), 429);
    assert_non_null(strstr(out, "Retry-After: "));
    assert_non_null(strstr(out, "\"status\":429"));
    free(out);
    /* two long reviews and these four: with 26 more, 32 in all; the next
       is 503 */
    enum { MORE = 26 };
    int others[MORE];
    for (int i = 0; i < MORE; i++) {
        game o = resigned_game(&S, "[\"human\",{\"computer\":1}]", 0);
        char from[32];
        snprintf(from, sizeof from, "127.0.0.%d", 40 + i / 4);
        snprintf(path, sizeof path, "/api/games/%s/review", o.id);
        others[i] = send_from(&S, from, "GET", path, NULL, NULL);
    }
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    int last = send_from(&S, "127.0.0.60", "GET", path, NULL, NULL);
    /* the same review as one queued: joined, not refused */
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    assert_false(answered(last));
    /* past 32, an address with nothing waiting is still taken; one with
       a review waiting is not (503) */
    game o = resigned_game(&S, "[\"human\",{\"computer\":1}]", 0);
    snprintf(path, sizeof path, "/api/games/%s/review", o.id);
    int newcomer = send_from(&S, "127.0.0.61", "GET", path, NULL, NULL);
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    assert_false(answered(newcomer));
    o = resigned_game(&S, "[\"human\",{\"computer\":1}]", 0);
    snprintf(path, sizeof path, "/api/games/%s/review", o.id);
    int over = send_from(&S, "127.0.0.61", "GET", path, NULL, NULL);
    assert_int_equal(read_answer(over, &out, 10000), 503);
    assert_non_null(strstr(out, "Retry-After: "));
    free(out);
    /* a long poll and an event stream wait too */
    snprintf(path, sizeof path, "/api/games/%s?after=%ld", p.id, version);
    int poll_fd = send_from(&S, "127.0.0.33", "GET", path, NULL, NULL);
    snprintf(path, sizeof path, "/api/games/%s/events", p.id);
    int sse_fd = send_from(&S, "127.0.0.33", "GET", path, NULL, NULL);
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    /* SIGTERM: every one answered */
    double t1 = now_ms();
    kill(S.pid, SIGTERM);
    int stopped = 0;
    for (int i = 0; i < 2; i++) {
        int status = read_answer(rv[i], &out, 5000);
        assert_true(status == 503 || status == 200);
        assert_non_null(strstr(out, "application/json"));
        stopped += status == 503;
        free(out);
    }
    assert_true(stopped >= 1);
    for (int i = 0; i < 4 + MORE + 2; i++) {
        int s = i < 4          ? mine[i]
                : i < 4 + MORE ? others[i - 4]
                : i < 5 + MORE ? last
                               : newcomer;
        int status = read_answer(s, &out, 5000);
        if (status != 503 && status != 200)
            fail_msg("a request waiting at the stop: status %d", status);
        free(out);
    }
    assert_int_equal(read_answer(poll_fd, &out, 5000), 503);
    assert_non_null(strstr(out, "stopping"));
    free(out);
    assert_int_equal(read_answer(sse_fd, &out, 5000), 200);
    assert_non_null(strstr(out, "event: stop"));
    free(out);
    int wst;
    assert_int_equal(waitpid(S.pid, &wst, 0), S.pid);
    double stop_ms = now_ms() - t1;
    assert_true(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
    print_message("stopped in %.0f ms, every waiting request answered\n",
                  stop_ms);
    remove_db(&S);
}

/* A game between two people of `ruleset` played with the first legal
 * move (the dice are the game's own) until ply `plies` or later, with a
 * throw to move for: its position is one whose hint takes a while
 * (Lions & Jackals in the middle game: tenths of a second). */
static game midgame(const srv *S, const char *ruleset, int plies) {
    char body[160];
    snprintf(body, sizeof body,
             "{\"ruleset\":\"%s\",\"players\":[\"human\",\"human\"]}", ruleset);
    for (int tries = 0; tries < 20; tries++) {
        game g = create(S, body);
        for (int i = 0; i < 400; i++) {
            json_t *st = state(S, &g, NULL);
            bool ready = num(st, "plies") >= plies &&
                         strcmp(str(st, "phase"), "move") == 0 &&
                         json_array_size(json_object_get(st, "moves")) > 1;
            bool over = strcmp(str(st, "phase"), "over") == 0;
            json_decref(st);
            if (ready)
                return g;
            if (over)
                break;
            act(S, &g, 0);
        }
    }
    fail_msg("no game of %s reached ply %d", ruleset, plies);
    return (game){0};
}

static long hints_figure(const srv *S, const char *what) {
    json_t *o = server_info(S);
    long n =
        num(json_object_get(json_object_get(o, "analysis"), "hints"), what);
    json_decref(o);
    return n;
}

/* Sends a hint request for game g from address `from`: the socket. */
static int ask_hint(const srv *S, const char *from, const game *g) {
    json_t *st = state(S, g, NULL);
    int to = (int)num(st, "to");
    json_decref(st);
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/hint", g->id);
    return send_from(S, from, "POST", path, g->tok[to - 1], "{}");
}

/* The hints are served address by address in turn: one address's four
 * requests do not push back another's first one (it was answered last,
 * behind all four, when they were served first come first served). */
static void hints_in_turn(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    enum { N = 5 };
    game g[N];
    for (int i = 0; i < N; i++)
        g[i] = midgame(&S, "lions-jackals-quick", 10 + i);
    int fd[N];
    double t0 = now_ms(), at[N];
    for (int i = 0; i < N; i++)
        fd[i] = ask_hint(&S, i < N - 1 ? "127.0.0.80" : "127.0.0.81", &g[i]);
    int order[N], done = 0;
    bool seen[N] = {false};
    while (done < N && now_ms() - t0 < 60000) {
        for (int i = 0; i < N; i++)
            if (!seen[i] && answered(fd[i])) {
                seen[i] = true;
                at[i] = now_ms() - t0;
                order[done++] = i;
            }
        nanosleep(&(struct timespec){0, 2000000}, NULL);
    }
    assert_int_equal(done, N);
    int rank = 0;
    while (order[rank] != N - 1)
        rank++;
    for (int i = 0; i < N; i++) {
        char *out;
        assert_int_equal(read_answer(fd[i], &out, 10000), 200);
        assert_non_null(strstr(out, "\"bounded\":"));
        free(out);
    }
    print_message("the other address's hint came %d of %d (%.0f ms; the "
                  "first address's last at %.0f ms)\n",
                  rank + 1, N, at[N - 1], at[order[N - 1]]);
    assert_true(rank <= 2);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* Identical hints (the same ruleset, position and throw), in two games
 * at once, are searched once and both given the answer; asked again, the
 * hint comes from the cache. */
static void hints_shared(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    /* two games at the same start (who opens is drawn) */
    game a = {0}, b = {0};
    char first[512] = "";
    for (int i = 0; i < 20 && !b.id[0]; i++) {
        game g = create(&S, "{\"ruleset\":\"lions-jackals\",\"players\":"
                            "[\"human\",\"human\"]}");
        json_t *st = state(&S, &g, NULL);
        if (!a.id[0]) {
            a = g;
            snprintf(first, sizeof first, "%s", str(st, "position"));
        } else if (strcmp(first, str(st, "position")) == 0)
            b = g;
        json_decref(st);
    }
    assert_true(b.id[0]);
    long made0 = made(&S, "hints");
    int fa = ask_hint(&S, "127.0.0.82", &a),
        fb = ask_hint(&S, "127.0.0.83", &b);
    char *oa, *ob;
    assert_int_equal(read_answer(fa, &oa, 60000), 200);
    assert_int_equal(read_answer(fb, &ob, 60000), 200);
    assert_string_equal(strstr(oa, "\r\n\r\n"), strstr(ob, "\r\n\r\n"));
    assert_int_equal(made(&S, "hints"), made0 + 1);
    /* again: from the cache, nothing searched */
    int fc = ask_hint(&S, "127.0.0.84", &b);
    char *oc;
    assert_int_equal(read_answer(fc, &oc, 60000), 200);
    assert_string_equal(strstr(oa, "\r\n\r\n"), strstr(oc, "\r\n\r\n"));
    assert_int_equal(made(&S, "hints"), made0 + 1);
    assert_int_equal(hints_figure(&S, "cached"), 1);
    free(oa);
    free(ob);
    free(oc);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* Hints whose clients have gone are dropped before they are searched and
 * stop counting against their address: an address that asked for four
 * and hung up may ask again at once (it was refused, 429, while the four
 * it no longer waited for were searched one by one). */
static void hints_of_gone_clients(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    enum { N = 5 };
    game g[N];
    for (int i = 0; i < N; i++)
        g[i] = midgame(&S, "lions-jackals-quick", 10 + i);
    long made0 = made(&S, "hints");
    for (int i = 0; i < N - 1; i++)
        close(ask_hint(&S, "127.0.0.90", &g[i]));
    nanosleep(&(struct timespec){0, 50000000}, NULL);
    char *out;
    int fd = ask_hint(&S, "127.0.0.90", &g[N - 1]);
    int status = read_answer(fd, &out, 60000);
    if (status != 200)
        fail_msg("the address's next hint: %d %s", status, out);
    free(out);
    long dropped = hints_figure(&S, "dropped");
    print_message("%ld of 4 hints dropped, %ld searched\n", dropped,
                  made(&S, "hints") - made0 - 1);
    assert_true(dropped >= 3);
    assert_true(made(&S, "hints") <= made0 + 2);
    stop(&S, SIGTERM);
    remove_db(&S);
}

static long computer_figure(const srv *S, const char *what) {
    json_t *o = server_info(S);
    long n = num(json_object_get(o, "computer"), what);
    json_decref(o);
    return n;
}

/* The computer players' memory is bounded: games against six rulesets
 * at level 5 (a search; the lower levels make a player for each decision)
 * at once hold at most COMPUTER_CAP (4) searching players (each game kept
 * its own, 4.2 MB at level 5, for ever), and once
 * the games are resigned and the players idle past --computer-idle, none
 * is held. */
static void computer_players(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    S.extra[0] = "--computer-idle";
    S.extra[1] = "1";
    start(&S);
    const char *rules[] = {"senet-kendall", "hounds-jackals-skiryuk",
                           "chien-chacal",  "lions-jackals-quick",
                           "dogs-jackals",  "senet-robinson"};
    enum { N = 6 };
    game g[N];
    long most = 0;
    for (int i = 0; i < N; i++) {
        char body[160];
        snprintf(body, sizeof body,
                 "{\"ruleset\":\"%s\",\"players\":[\"human\",{\"computer\":%d}"
                 "]}",
                 rules[i], 5);
        long made0 = computer_figure(&S, "made");
        g[i] = create(&S, body);
        /* until the computer has chosen once: its lone passes (Dogs &
           Jackals before a piece enters) are played without a player */
        for (int k = 0; k < 400; k++) {
            json_t *st = my_turn(&S, &g[i], 1);
            bool enough = computer_figure(&S, "made") > made0 ||
                          strcmp(str(st, "phase"), "over") == 0;
            json_decref(st);
            long live = computer_figure(&S, "live");
            most = live > most ? live : most;
            if (enough)
                break;
            act(&S, &g[i], (unsigned)k);
        }
    }
    print_message("%ld computer players made, at most %ld held\n",
                  computer_figure(&S, "made"), most);
    assert_true(most <= 4);
    assert_true(computer_figure(&S, "made") >= N);
    for (int i = 0; i < N; i++) {
        char path[128], *out;
        snprintf(path, sizeof path, "/api/games/%s/resign", g[i].id);
        int st = http(&S, "POST", path, g[i].tok[0], "{}", &out);
        assert_true(st == 200 || st == 409);
        free(out);
    }
    /* idle past a second: freed (the ticker looks once a second) */
    long live = -1;
    for (int i = 0; i < 50 && live != 0; i++) {
        nanosleep(&(struct timespec){0, 100000000}, NULL);
        live = computer_figure(&S, "live");
    }
    assert_int_equal(live, 0);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* A computer player freed and made again chooses as before: every choice
 * of the server's level 5 in a game (its player kept between moves,
 * freed after a pause, shared with another game) is the choice of an
 * agent made afresh for that position. */
static void computer_same_moves(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    S.extra[0] = "--computer-idle";
    S.extra[1] = "1";
    start(&S);
    const char *body = "{\"ruleset\":\"senet-kendall\",\"players\":"
                       "[\"human\",{\"computer\":5}]}";
    game g = create(&S, body), other = create(&S, body);
    for (int k = 0; k < 400; k++) {
        json_t *st = my_turn(&S, &g, 1);
        bool over = strcmp(str(st, "phase"), "over") == 0;
        long plies = num(st, "plies");
        json_decref(st);
        if (over || plies >= 60)
            break;
        if (k == 10) /* the player freed meanwhile */
            nanosleep(&(struct timespec){2, 0}, NULL);
        act(&S, &g, (unsigned)k * 7u);
        if (k % 3 == 0) {
            json_t *o = my_turn(&S, &other, 1);
            if (strcmp(str(o, "phase"), "over") != 0)
                act(&S, &other, (unsigned)k);
            json_decref(o);
        }
    }
    char path[128], *rec;
    snprintf(path, sizeof path, "/api/games/%s/resign", g.id);
    char *out;
    http(&S, "POST", path, g.tok[0], "{}", &out);
    free(out);
    snprintf(path, sizeof path, "/api/games/%s/record", g.id);
    assert_int_equal(http(&S, "GET", path, NULL, NULL, &rec), 200);
    kemet_rules *r;
    kemet_pos pos;
    kemet_ply *plies;
    long n;
    kemet_error err;
    assert_int_equal(kemet_record_read(rec, &r, &pos, &plies, &n, &err), 0);
    kemet_move *moves = malloc(KEMET_MAX_MOVES * sizeof *moves);
    assert_non_null(moves);
    int compared = 0;
    for (long i = 0; i < n; i++) {
        const kemet_throw *t = plies[i].thr.n ? &plies[i].thr : NULL;
        int k = t ? kemet_moves(r, &pos, t, moves) : 0;
        if (pos.to == 2 && t && k > 1) {
            kemet_agent *a;
            assert_int_equal(
                kemet_agent_new(r, kemet_rules_level_agent(r, 5), 1, &a, &err),
                0);
            int c = kemet_agent_choose(a, &pos, t, moves, k);
            assert_true(c >= 0);
            char want[160], got[160];
            kemet_move_format(&moves[c], want, sizeof want);
            kemet_move_format(&plies[i].move, got, sizeof got);
            if (strcmp(want, got) != 0)
                fail_msg("ply %ld: the server's computer played %s, a fresh "
                         "player %s",
                         i + 1, got, want);
            kemet_agent_free(a);
            compared++;
        }
        kemet_pos next;
        kemet_make(r, &pos, t, &plies[i].move, &next, NULL);
        pos = next;
    }
    print_message("%d choices of the computer compared\n", compared);
    assert_true(compared >= 5);
    free(moves);
    free(plies);
    free(rec);
    kemet_rules_close(r);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* New games are limited per address and in all: with --new-games 1, an
 * address's second game at once is refused (429, Retry-After) while other
 * addresses make their own; all together they make at most R a minute
 * and at once, R keeping the unfinished games to half of --max-games in
 * --expire (here 1000 / 2 in 600 s: 50). */
static void new_games_limited(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    const char *opts[] = {"--new-games", "1",        "--max-games",
                          "1000",        "--expire", "600"};
    for (int i = 0; i < 6; i++)
        S.extra[i] = opts[i];
    start(&S);
    const char *body = "{\"ruleset\":\"senet-kendall\",\"players\":"
                       "[\"human\",\"human\"]}";
    char req[512], *out;
    snprintf(req, sizeof req,
             "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: "
             "close\r\nContent-Type: application/json\r\nContent-Length: "
             "%zu\r\n\r\n%s",
             strlen(body), body);
    /* 127.0.1.0 twice (the second refused), then 127.0.1.1... once each:
       the 51st game in all is refused */
    for (int i = 0; i < 53; i++) {
        char from[32];
        snprintf(from, sizeof from, "127.0.1.%d", i == 0 ? 0 : i - 1);
        int want = i == 1 || i == 51 || i == 52 ? 429 : 201;
        int st = raw(&S, from, req, &out);
        if (st != want)
            fail_msg("game %d from %s: %d, not %d: %s", i + 1, from, st, want,
                     out);
        if (st == 429) {
            assert_non_null(strstr(out, "Retry-After: "));
            assert_non_null(strstr(out, "\"retry_after\":"));
            assert_non_null(strstr(out, "too many new games"));
        }
        free(out);
    }
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* An unfinished game with no action for --expire seconds expires: its
 * state, events and actions answer 410 (a long poll waiting on it too),
 * before and after a restart, and it is out of the file; a finished game
 * and a game played meanwhile are kept. */
static void games_expire(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    S.extra[0] = "--expire";
    S.extra[1] = "2";
    start(&S);
    const char *body = "{\"ruleset\":\"senet-kendall\",\"players\":"
                       "[\"human\",\"human\"]}";
    game left = create(&S, body), played = create(&S, body);
    game over = resigned_game(&S, "[\"human\",\"human\"]", 2);
    json_t *st = state(&S, &left, NULL);
    char path[160], *out;
    snprintf(path, sizeof path, "/api/games/%s?after=%ld", left.id,
             num(st, "version"));
    json_decref(st);
    int poll = send_from(&S, "127.0.0.110", "GET", path, NULL, NULL);
    for (int i = 0; i < 10; i++) {
        act(&S, &played, (unsigned)i);
        nanosleep(&(struct timespec){0, 500000000}, NULL);
    }
    assert_int_equal(read_answer(poll, &out, 5000), 410);
    free(out);
    const char *what[] = {"", "/events", "/history", "/record"};
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof what / sizeof what[0]; i++) {
            snprintf(path, sizeof path, "/api/games/%s%s", left.id, what[i]);
            json_t *e = call(&S, "GET", path, NULL, NULL, 410);
            assert_non_null(strstr(str(e, "error"), "expired"));
            json_decref(e);
        }
        snprintf(path, sizeof path, "/api/games/%s/throw", left.id);
        json_decref(call(&S, "POST", path, left.tok[0], "{}", 410));
        st = state(&S, &over, NULL);
        assert_string_equal(str(st, "status"), "over");
        json_decref(st);
        st = state(&S, &played, NULL);
        assert_string_equal(str(st, "status"), "playing");
        json_decref(st);
        json_t *info = server_info(&S);
        if (pass == 0)
            assert_int_equal(num(json_object_get(info, "games"), "expired"), 1);
        json_decref(info);
        stop(&S, SIGKILL);
        /* out of the file, its id kept */
        sqlite3 *db;
        sqlite3_stmt *q;
        char sql[400];
        assert_int_equal(sqlite3_open(S.db, &db), SQLITE_OK);
        snprintf(sql, sizeof sql,
                 "SELECT (SELECT count(*) FROM games WHERE id='%s'),"
                 "(SELECT count(*) FROM actions WHERE game='%s'),"
                 "(SELECT count(*) FROM expired WHERE id='%s')",
                 left.id, left.id, left.id);
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_step(q), SQLITE_ROW);
        assert_int_equal(sqlite3_column_int(q, 0), 0);
        assert_int_equal(sqlite3_column_int(q, 1), 0);
        assert_int_equal(sqlite3_column_int(q, 2), 1);
        sqlite3_finalize(q);
        sqlite3_close(db);
        S.extra[1] = "3600"; /* the game played kept after the restart */
        start(&S);
    }
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* Issue 33's API: every POST's body checked alike; too many ids said
 * so; answers gzipped for a client that takes it; the icon; where the
 * server may be reached. */
static void bodies_and_answers(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    game g = create(&S, "{\"ruleset\":\"senet-kendall\",\"players\":"
                        "[\"human\",\"human\"]}");
    json_t *st = state(&S, &g, NULL);
    int to = (int)num(st, "to");
    long v = num(st, "version");
    json_decref(st);
    const char *what[] = {"throw", "hint",    "resign",
                          "move",  "rematch", "takeback"};
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "/api/games/%s/%s", g.id, what[i]);
        json_t *e = call(&S, "POST", path, g.tok[to - 1], "{\"move\":", 400);
        assert_non_null(strstr(str(e, "error"), "not JSON"));
        json_decref(e);
        e = call(&S, "POST", path, g.tok[to - 1], "[1]", 400);
        assert_non_null(strstr(str(e, "error"), "JSON object"));
        json_decref(e);
    }
    st = state(&S, &g, NULL);
    assert_int_equal(num(st, "version"), v);
    json_decref(st);
    /* ids: 200 at most, and more is said so */
    char *ids = malloc(201 * 20 + 128), *out;
    assert_non_null(ids);
    int n = sprintf(ids, "GET /api/games?ids=%s", g.id);
    for (int i = 1; i < 200; i++)
        n += sprintf(ids + n, ",%016x", i);
    strcpy(ids + n,
           " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    assert_int_equal(raw(&S, "127.0.0.1", ids, &out), 200);
    assert_non_null(strstr(out, g.id));
    free(out);
    sprintf(ids + n, ",0123456789abcdef HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Connection: close\r\n\r\n");
    assert_int_equal(raw(&S, "127.0.0.1", ids, &out), 400);
    assert_non_null(strstr(out, "at most 200"));
    free(out);
    free(ids);
    /* gzip: the same answer, smaller */
    char *plain;
    assert_int_equal(http(&S, "GET", "/api/rulesets", NULL, NULL, &plain), 200);
    assert_int_equal(raw(&S, "127.0.0.1",
                         "GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Accept-Encoding: br, gzip;q=0.8\r\nConnection: "
                         "close\r\n\r\n",
                         &out),
                     200);
    assert_non_null(strstr(out, "Content-Encoding: gzip"));
    const char *cl = strstr(out, "Content-Length: ");
    assert_non_null(cl);
    size_t zlen = (size_t)atol(cl + 16);
    const unsigned char *z = (const unsigned char *)strstr(out, "\r\n\r\n") + 4;
    size_t plen = strlen(plain);
    assert_true(zlen < plen / 3);
    char *inflated = malloc(plen + 1);
    z_stream zs = {0};
    assert_int_equal(inflateInit2(&zs, 15 + 16), Z_OK);
    zs.next_in = (Bytef *)(uintptr_t)z;
    zs.avail_in = (uInt)zlen;
    zs.next_out = (Bytef *)inflated;
    zs.avail_out = (uInt)plen + 1;
    assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
    assert_int_equal(zs.total_out, plen);
    inflateEnd(&zs);
    assert_memory_equal(inflated, plain, plen);
    free(inflated);
    free(out);
    free(plain);
    /* gzip;q=0 is a refusal */
    assert_int_equal(raw(&S, "127.0.0.1",
                         "GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Accept-Encoding: gzip;q=0\r\nConnection: "
                         "close\r\n\r\n",
                         &out),
                     200);
    assert_null(strstr(out, "Content-Encoding"));
    free(out);
    /* the icon */
    assert_int_equal(raw(&S, "127.0.0.1",
                         "GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Connection: close\r\n\r\n",
                         &out),
                     200);
    assert_non_null(strstr(out, "Content-Type: image/x-icon"));
    assert_memory_equal(strstr(out, "\r\n\r\n") + 4, "\0\0\1\0\1\0", 6);
    free(out);
    /* where the server is: on loopback only, so nobody else reaches it */
    json_t *info = server_info(&S);
    assert_true(json_is_true(json_object_get(info, "loopback")));
    assert_int_equal(json_array_size(json_object_get(info, "urls")), 0);
    assert_int_equal(num(info, "port"), S.port);
    json_decref(info);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* Jequier's opening decides which contestant plays black (reconstructions
 * §3): a new game seats the player named first (the person) as black
 * exactly where the opening of the game's dice seed, read from the record
 * after resigning, made the first-named contestant throw the first 1;
 * over 20 games both seats come (the person is black with chance 0.57 a
 * game: all alike has a chance of 1 in 70,000). Other rulesets keep the
 * seats as named. */
static void opening_seats(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    kemet_rules *r;
    kemet_error err;
    assert_int_equal(kemet_rules_open("senet-jequier", &r, &err), KEMET_OK);
    int seen[3] = {0};
    for (int i = 0; i < 20; i++) {
        json_t *o = call(&S, "POST", "/api/games", NULL,
                         "{\"ruleset\":\"senet-jequier\",\"players\":"
                         "[\"human\",{\"computer\":1}]}",
                         201);
        int you = (int)num(o, "you");
        assert_true(you == 1 || you == 2);
        seen[you]++;
        /* each named player's seat: the person named first sits at `you` */
        json_t *seated = json_object_get(o, "seated");
        assert_int_equal(json_integer_value(json_array_get(seated, 0)), you);
        assert_int_equal(json_integer_value(json_array_get(seated, 1)),
                         3 - you);
        char id[64], tok[128], path[160], key[2] = {(char)('0' + you), 0};
        snprintf(id, sizeof id, "%s", str(o, "id"));
        json_t *tokens = json_object_get(o, "tokens");
        assert_int_equal(json_object_size(tokens), 1);
        snprintf(tok, sizeof tok, "%s",
                 json_string_value(json_object_get(tokens, key)));
        /* the computer sits in the other seat */
        json_t *pl = json_object_get(json_object_get(o, "state"), "players");
        assert_string_equal(str(json_array_get(pl, (size_t)(2 - you)), "kind"),
                            "computer");
        assert_string_equal(str(json_array_get(pl, (size_t)(you - 1)), "kind"),
                            "human");
        json_decref(o);
        snprintf(path, sizeof path, "/api/games/%s/resign", id);
        json_decref(call(&S, "POST", path, tok, "{}", 200));
        char *rec;
        snprintf(path, sizeof path, "/api/games/%s/record", id);
        assert_int_equal(http(&S, "GET", path, NULL, NULL, &rec), 200);
        const char *at = strstr(rec, "\nseed ");
        assert_non_null(at);
        uint64_t seed = strtoull(at + 6, NULL, 10);
        kemet_game *g;
        kemet_events ev = {0};
        assert_int_equal(kemet_game_new(r, seed, &g, &ev), KEMET_OK);
        kemet_game_free(g);
        int black = 0; /* the contestant the opening made black */
        for (int e = 0; e < ev.n; e++)
            if (ev.ev[e].kind == KEMET_EV_FIRST1)
                black = ev.ev[e].b;
        assert_int_equal(black == 1 ? 2 : 1, you);
        free(rec);
    }
    print_message("the person seated as black in %d of 20 games\n", seen[2]);
    assert_true(seen[1] > 0 && seen[2] > 0);
    kemet_rules_close(r);
    /* Kendall's Senet: the person named first is player 1 */
    for (int i = 0; i < 5; i++) {
        json_t *o = call(&S, "POST", "/api/games", NULL,
                         "{\"ruleset\":\"senet-kendall\",\"players\":"
                         "[\"human\",{\"computer\":1}]}",
                         201);
        assert_int_equal(num(o, "you"), 1);
        json_t *seated = json_object_get(o, "seated");
        assert_int_equal(json_integer_value(json_array_get(seated, 0)), 1);
        assert_int_equal(json_integer_value(json_array_get(seated, 1)), 2);
        json_decref(o);
    }
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* Rematch: against the computer at once; between two people an offer
 * (202) the other page sees (the version moves), then the game, the same
 * for both; kept over a restart. */
static void rematch(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    start(&S);
    char path[128], wait[160];
    game c = resigned_game(&S, "[\"human\",{\"computer\":3}]", 0);
    snprintf(path, sizeof path, "/api/games/%s/rematch", c.id);
    json_decref(call(&S, "POST", path, NULL, "{}", 401));
    json_t *m = call(&S, "POST", path, c.tok[0], NULL, 200);
    assert_int_equal(num(m, "you"), 1);
    assert_int_equal(strlen(str(m, "token")), 32);
    char cid[32];
    snprintf(cid, sizeof cid, "%s", str(m, "id"));
    json_decref(m);
    m = call(&S, "POST", path, c.tok[0], "{}", 200);
    assert_string_equal(str(m, "id"), cid);
    json_decref(m);
    json_t *st = state(&S, &c, NULL);
    assert_string_equal(str(json_object_get(st, "rematch"), "id"), cid);
    json_decref(st);
    /* two people */
    game h = create(&S, "{\"ruleset\":\"hounds-jackals-skiryuk\","
                        "\"players\":[\"human\",\"human\"]}");
    snprintf(path, sizeof path, "/api/games/%s/rematch", h.id);
    json_decref(call(&S, "POST", path, h.tok[0], "{}", 409)); /* not over */
    snprintf(wait, sizeof wait, "/api/games/%s/resign", h.id);
    st = call(&S, "POST", wait, h.tok[1], "{}", 200);
    long v = num(st, "version");
    assert_true(json_is_null(json_object_get(st, "rematch")));
    json_decref(st);
    snprintf(wait, sizeof wait, "/api/games/%s?after=%ld", h.id, v);
    int watcher = send_from(&S, "127.0.0.70", "GET", wait, NULL, NULL);
    m = call(&S, "POST", path, h.tok[1], "{}", 202);
    assert_int_equal(num(m, "offered_by"), 2);
    json_decref(m);
    char *out;
    assert_int_equal(read_answer(watcher, &out, 10000), 200);
    assert_non_null(strstr(out, "\"offered_by\":2"));
    free(out);
    json_decref(call(&S, "POST", path, h.tok[1], "{}", 202));
    st = state(&S, &h, NULL);
    assert_int_equal(num(st, "version"), v + 1); /* offered once */
    json_decref(st);
    m = call(&S, "POST", path, h.tok[0], "{}", 200);
    assert_int_equal(num(m, "you"), 1);
    char hid[32], tok1[40];
    snprintf(hid, sizeof hid, "%s", str(m, "id"));
    snprintf(tok1, sizeof tok1, "%s", str(m, "token"));
    json_decref(m);
    m = call(&S, "POST", path, h.tok[1], "{}", 200);
    assert_string_equal(str(m, "id"), hid);
    assert_int_equal(num(m, "you"), 2);
    assert_string_not_equal(str(m, "token"), tok1);
    json_decref(m);
    stop(&S, SIGKILL);
    start(&S);
    st = state(&S, &h, NULL);
    assert_string_equal(str(json_object_get(st, "rematch"), "id"), hid);
    assert_int_equal(num(st, "version"), v + 2);
    json_decref(st);
    game n = {0};
    snprintf(n.id, sizeof n.id, "%s", hid);
    st = state(&S, &n, tok1);
    assert_int_equal(num(st, "you"), 1);
    assert_string_equal(str(st, "ruleset"), "hounds-jackals-skiryuk");
    assert_string_equal(str(st, "status"), "playing");
    json_decref(st);
    m = call(&S, "POST", path, h.tok[0], "{}", 200);
    assert_string_equal(str(m, "id"), hid);
    assert_string_equal(str(m, "token"), tok1);
    json_decref(m);
    stop(&S, SIGTERM);
    remove_db(&S);
}

/* A ruleset file (--rules): offered with the built-in rulesets, its games
 * kept under its text's hash; a restart with the same text resumes them,
 * with another text the server refuses to start, naming the game and the
 * file, and the games stay in the database. */
static const char my_chien[] =
    "kemet-rules 1\nid my-chien\nfamily holes58\ntitle My Chien\n"
    "author a test\nabout lines both ways\nplayers Dogs D Jackals J\n"
    "gone taken off\npieces 5\nthrow sticks 4 blank=5\nfirst player-1\n"
    "enter must\npath own\nlines stay 6-20 8-10\npass free\n"
    "exit land-30\nrethrow 15 25\ntext Chien et Chacal, lines both ways.\n";

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void ruleset_file_games(void **state_) {
    (void)state_;
    srv S = {0};
    temp_db(&S);
    char rules[96];
    snprintf(rules, sizeof rules, "%s.rules", S.db);
    write_text(rules, my_chien);
    /* two files at once, each its own ruleset, on a server of their own */
    char rules2[112], second[sizeof my_chien + 16];
    snprintf(rules2, sizeof rules2, "%s.2.rules", S.db);
    snprintf(second, sizeof second, "%s", my_chien);
    memcpy(strstr(second, "id my-chien"), "id my-chian", 11);
    write_text(rules2, second);
    srv T = {0};
    temp_db(&T);
    T.extra[0] = "--rules";
    T.extra[1] = rules;
    T.extra[2] = "--rules";
    T.extra[3] = rules2;
    start(&T);
    json_t *all = call(&T, "GET", "/api/rulesets", NULL, NULL, 200);
    json_t *list = json_object_get(all, "rulesets");
    size_t n = json_array_size(list);
    assert_true(n > 2);
    assert_string_equal(str(json_array_get(list, n - 2), "id"), "my-chien");
    assert_string_equal(str(json_array_get(list, n - 1), "id"), "my-chian");
    json_decref(all);
    game g2 = create(&T, "{\"ruleset\":\"my-chian\",\"players\":"
                         "[\"human\",{\"computer\":2}]}");
    act(&T, &g2, 1);
    stop(&T, SIGTERM);
    remove_db(&T);
    unlink(rules2);
    S.extra[0] = "--rules";
    S.extra[1] = rules;
    start(&S);
    all = call(&S, "GET", "/api/rulesets", NULL, NULL, 200);
    list = json_object_get(all, "rulesets");
    n = json_array_size(list);
    assert_string_equal(str(json_array_get(list, n - 1), "id"), "my-chien");
    json_decref(all);
    game g = create(&S, "{\"ruleset\":\"my-chien\",\"players\":"
                        "[\"human\",\"human\"]}");
    unsigned pick = 3;
    for (int i = 0; i < 6; i++)
        act(&S, &g, pick = pick * 69069u + 1u);
    json_t *st = state(&S, &g, NULL);
    long v = num(st, "version");
    json_decref(st);
    stop(&S, SIGTERM);
    start(&S); /* the same text: resumed */
    st = state(&S, &g, NULL);
    assert_int_equal(num(st, "version"), v);
    json_decref(st);
    stop(&S, SIGTERM);
    /* another text of the same id */
    char other[sizeof my_chien + 16];
    snprintf(other, sizeof other, "%s", my_chien);
    memcpy(strstr(other, "My Chien"), "My Chian", 8);
    write_text(rules, other);
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        execl(getenv("KEMET_BIN"), "kemet", "serve", "--port", "0", "--db",
              S.db, "--rules", rules, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    char err[512] = {0};
    size_t k = 0;
    ssize_t r;
    while (k < sizeof err - 1 && (r = read(fd[0], err + k, 1)) == 1 &&
           err[k] != '\n')
        k++;
    close(fd[0]);
    int status = -1;
    for (int i = 0; i < 100 && waitpid(pid, &status, WNOHANG) == 0; i++)
        nanosleep(&(struct timespec){0, 100000000}, NULL);
    if (!WIFEXITED(status)) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail_msg("the server started under another text: %s", err);
    }
    assert_int_equal(WEXITSTATUS(status), 2);
    assert_non_null(strstr(err, g.id));
    assert_non_null(strstr(err, "give that file's text with --rules"));
    write_text(rules, my_chien); /* the right text again: nothing lost */
    start(&S);
    st = state(&S, &g, NULL);
    assert_int_equal(num(st, "version"), v);
    json_decref(st);
    stop(&S, SIGTERM);
    remove_db(&S);
    unlink(rules);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(page_and_boards),
        cmocka_unit_test(full_games),
        cmocka_unit_test(bad_requests),
        cmocka_unit_test(restart),
        cmocka_unit_test(computer_and_updates),
        cmocka_unit_test(hints_and_steps),
        cmocka_unit_test(words_as_each_seat_reads),
        cmocka_unit_test(ways_to_finish_a_turn),
        cmocka_unit_test(bad_database),
        cmocka_unit_test(hostile_clients),
        cmocka_unit_test(resign_game),
        cmocka_unit_test(takeback_game),
        cmocka_unit_test(session_as_library),
        cmocka_unit_test(old_database),
        cmocka_unit_test(ruleset_file_games),
        cmocka_unit_test(one_review_for_all),
        cmocka_unit_test(players_first),
        cmocka_unit_test(bodies_and_answers),
        cmocka_unit_test(opening_seats),
        cmocka_unit_test(rematch),
        cmocka_unit_test(hints_in_turn),
        cmocka_unit_test(hints_shared),
        cmocka_unit_test(hints_of_gone_clients),
        cmocka_unit_test(computer_players),
        cmocka_unit_test(computer_same_moves),
        cmocka_unit_test(new_games_limited),
        cmocka_unit_test(games_expire),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
