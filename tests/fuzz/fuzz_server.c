/* fuzz_server.c - the server's request handling, in process: each input
 * becomes one HTTP request on a socket pair handed to a server running in
 * this process (serve.h's srv_open without a listening socket), so that
 * libmicrohttpd's parsing, the routing, the handlers, the games and their
 * storage all see it.
 *
 * Input: a byte of flags, then "METHOD\nPATH\nBODY" ("$G" in the path is
 * replaced by a game's id). Flags: bit 0 the seat's token is sent, bit 1
 * which of two games (one against the computer), bit 2 the body is
 * declared JSON, bit 3 a second header line from the body's first line,
 * bit 4 the input after the flags is sent as it is (raw HTTP), bit 6 lets
 * a hint or a review be asked for (their searches, instrumented, take a
 * second or more: only inputs that ask for them pay for them).
 * Invariants, for every request the harness forms: an answer comes; to
 * /api/ it is JSON (the record: text), gzipped only when asked for (a
 * header line "Accept-Encoding: gzip", bit 3) and then inflating to JSON,
 * and every error (a refused Host or Origin, a busy analysis's 429 or
 * 503) is a JSON object with "error" and its status; the connection is
 * never dropped unanswered.
 */
#include "fuzz.h"
#include "serve.h"

#include <stdint.h>

#include <jansson.h>
#include <poll.h>
#include <zlib.h>
#include <sys/socket.h>
#include <unistd.h>

static server *S;
static kemet_rules *rules[64];
static kemet_judge *judges[64]; /* judges[i] judges rules[i] */
static int nrules;
static char dir[64], db[96];
static char id[2][40], token[2][80];

/* Sends `req` on a new connection and reads the answer (all of it, or up
 * to the first event of a stream) into buf; returns its length, -1 when
 * none came within 10 s. */
static long exchange(const char *req, size_t len, char *buf, size_t cap,
                     bool half_close) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        abort();
    if (srv_connection(S, sv[0]) != 0) {
        close(sv[1]);
        return -2;
    }
    size_t sent = 0;
    while (sent < len) {
        ssize_t k = write(sv[1], req + sent, len - sent);
        if (k <= 0)
            break;
        sent += (size_t)k;
    }
    if (half_close)
        shutdown(sv[1], SHUT_WR);
    size_t got = 0;
    for (;;) {
        struct pollfd p = {sv[1], POLLIN, 0};
        if (poll(&p, 1, 10000) <= 0) {
            close(sv[1]);
            return -1;
        }
        ssize_t k = read(sv[1], buf + got, cap - 1 - got);
        if (k <= 0)
            break;
        got += (size_t)k;
        buf[got] = '\0';
        if (got + 1 == cap || strstr(buf, "text/event-stream"))
            break;
    }
    buf[got] = '\0';
    close(sv[1]);
    return (long)got;
}

static char *answer(const char *req, long *len) {
    static char buf[1 << 20];
    *len = exchange(req, strlen(req), buf, sizeof buf, false);
    return buf;
}

/* A game made through the API: its id and the first seat's token. */
static void make_game(int k, const char *body) {
    char req[512];
    snprintf(req, sizeof req,
             "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: "
             "close\r\nContent-Type: application/json\r\nContent-Length: "
             "%zu\r\n\r\n%s",
             strlen(body), body);
    long len;
    char *out = answer(req, &len);
    char *b = len > 0 ? strstr(out, "\r\n\r\n") : NULL;
    json_t *o = b ? json_loads(b + 4, 0, NULL) : NULL;
    const char *i = json_string_value(json_object_get(o, "id"));
    const char *t =
        json_string_value(json_object_get(json_object_get(o, "tokens"), "1"));
    FZ_CHECK(i && t);
    snprintf(id[k], sizeof id[k], "%s", i);
    snprintf(token[k], sizeof token[k], "%s", t);
    json_decref(o);
}

static void done(void) {
    srv_close(S);
    for (int i = 0; i < nrules; i++) {
        kemet_judge_free(judges[i]);
        kemet_rules_close(rules[i]);
    }
    char path[128];
    const char *ext[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s%s", db, ext[i]);
        unlink(path);
    }
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    nrules = fz_open_all(rules, 64);
    for (int i = 0; i < nrules; i++)
        FZ_CHECK(kemet_judge_new(rules[i], NULL, &judges[i], NULL) == 0);
    snprintf(dir, sizeof dir, "/tmp/kemet-fuzz-XXXXXX");
    FZ_CHECK(mkdtemp(dir));
    snprintf(db, sizeof db, "%s/fuzz.db", dir);
    char why[512];
    srv_opts o = {.rules = rules,
                  .judges = judges,
                  .nrules = nrules,
                  .db = db,
                  .host = "127.0.0.1",
                  .max_games = 300,
                  .wait_seconds = 1};
    if (srv_open(&o, false, &S, why, sizeof why)) {
        fprintf(stderr, "fuzz_server: %s\n", why);
        abort();
    }
    atexit(done);
    make_game(0, "{\"ruleset\":\"senet-kendall\",\"players\":[\"human\","
                 "\"human\"]}");
    make_game(1, "{\"ruleset\":\"dogs-jackals\",\"players\":[\"human\","
                 "{\"computer\":1}]}");
    return 0;
}

/* Checks an answer to a request the harness formed. */
static void check_answer(const char *path, const char *out, long len) {
    FZ_CHECK(len > 0); /* answered, not dropped */
    int status = 0;
    FZ_CHECK(sscanf(out, "HTTP/1.%*d %d", &status) == 1);
    FZ_CHECK(status >= 100 && status < 600);
    const char *body = strstr(out, "\r\n\r\n");
    FZ_CHECK(body);
    body += 4;
    if (strncmp(path, "/api/", 5) != 0 || strstr(out, "text/event-stream") ||
        strstr(out, "text/plain"))
        return;
    if (!strstr(out, "Content-Security-Policy")) {
        /* libmicrohttpd's own answer to a request it cannot take */
        FZ_CHECK(status == 400 || status == 413 || status == 414 ||
                 status == 431 || status == 501 || status == 505);
        return;
    }
    FZ_CHECK(strstr(out, "Content-Type: application/json"));
    static char plain[1 << 20];
    if (strstr(out, "Content-Encoding: gzip")) {
        /* asked for: the body inflates whole */
        FZ_CHECK(strstr(out, "Vary: Accept-Encoding"));
        z_stream z = {0};
        FZ_CHECK(inflateInit2(&z, 15 + 16) == Z_OK);
        z.next_in = (Bytef *)(uintptr_t)body;
        z.avail_in = (uInt)(len - (body - out));
        z.next_out = (Bytef *)plain;
        z.avail_out = sizeof plain - 1;
        FZ_CHECK(inflate(&z, Z_FINISH) == Z_STREAM_END);
        plain[z.total_out] = '\0';
        inflateEnd(&z);
        body = plain;
    }
    json_error_t e;
    json_t *o = json_loads(body, 0, &e);
    FZ_CHECK(o && json_is_object(o));
    if (status >= 400) {
        FZ_CHECK(json_is_string(json_object_get(o, "error")));
        FZ_CHECK(json_integer_value(json_object_get(o, "status")) == status);
    }
    json_decref(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 20000)
        return 0;
    unsigned flags = data[0];
    static char buf[1 << 20];
    if (flags & 16) {
        /* raw: anything at all; the server must neither crash nor hang */
        exchange((const char *)data + 1, size - 1, buf, sizeof buf, true);
        return 0;
    }
    char *text = fz_text(data + 1, size - 1);
    char *method = text, *path = strchr(text, '\n'), *body = NULL;
    if (path) {
        *path++ = '\0';
        body = strchr(path, '\n');
        if (body)
            *body++ = '\0';
    }
    if (!path || !*method || !*path || strlen(method) > 16 ||
        strpbrk(method, " \r\n\t") || strpbrk(path, " \r\n\t") ||
        strstr(path, "after=") ||
        (!(flags & 64) && (strstr(path, "hint") || strstr(path, "review")))) {
        free(text);
        return 0;
    }
    int g = (flags >> 1) & 1;
    char url[4096];
    size_t n = 0;
    for (const char *p = path; *p && n + 40 < sizeof url; p++) {
        if (p[0] == '$' && p[1] == 'G') {
            n += (size_t)snprintf(url + n, sizeof url - n, "%s", id[g]);
            p++;
        } else
            url[n++] = *p;
    }
    url[n] = '\0';
    size_t blen = body ? strlen(body) : 0;
    char *req = malloc(blen + 8192);
    FZ_CHECK(req);
    int k = snprintf(req, 8192,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: "
                     "close\r\nContent-Length: %zu\r\n",
                     method, url, blen);
    if (flags & 1)
        k += snprintf(req + k, 200, "Authorization: Bearer %s\r\n", token[g]);
    if (flags & 4)
        k += snprintf(req + k, 64, "Content-Type: application/json\r\n");
    if ((flags & 8) && body) {
        size_t h = strcspn(body, "\r\n");
        if (h < 2000 && memchr(body, ':', h))
            k += snprintf(req + k, 2100, "%.*s\r\n", (int)h, body);
    }
    k += snprintf(req + k, 8, "\r\n");
    if (blen)
        memcpy(req + k, body, blen);
    req[(size_t)k + blen] = '\0';
    long len = exchange(req, (size_t)k + blen, buf, sizeof buf, false);
    if (strcmp(method, "HEAD") != 0)
        check_answer(url, buf, len);
    else
        FZ_CHECK(len > 0);
    free(req);
    free(text);
    return 0;
}
