/* testutil.c - helpers shared by the test programs. */
#include "testutil.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *tu_moves(const char *ptext, const char *ttext) {
    kemet_rules *r;
    kemet_pos p;
    kemet_throw t;
    kemet_move list[KEMET_MAX_MOVES];
    kemet_error e;
    if (kemet_pos_parse(ptext, &r, &p, &e))
        return strdup("ERR");
    int n;
    char *out = calloc(1, 8192);
    char *names[KEMET_MAX_MOVES + 1];
    int k = 0;
    if (kemet_throw_parse(r, ttext, &t, &e)) {
        kemet_rules_close(r);
        strcpy(out, "ERR");
        return out;
    }
    if (t.n == 0) {
        names[k++] = strdup("throw");
        n = kemet_prethrow(r, &p, list);
    } else {
        n = kemet_moves(r, &p, &t, list);
    }
    if (n < 0) {
        kemet_rules_close(r);
        strcpy(out, "ERR");
        for (int i = 0; i < k; i++)
            free(names[i]);
        return out;
    }
    for (int i = 0; i < n; i++) {
        char buf[128];
        kemet_move_format(&list[i], buf, sizeof buf);
        names[k++] = strdup(buf);
    }
    qsort(names, (size_t)k, sizeof names[0], cmp_str);
    for (int i = 0; i < k; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, names[i]);
        free(names[i]);
    }
    kemet_rules_close(r);
    return out;
}

char *tu_apply(const char *ptext, const char *ttext, const char *mtext) {
    kemet_rules *r;
    kemet_pos p, q;
    kemet_throw t;
    kemet_move m;
    kemet_error e;
    char *out = calloc(1, 1024);
    if (kemet_pos_parse(ptext, &r, &p, &e)) {
        snprintf(out, 1024, "ERR: %s", e.msg);
        return out;
    }
    if (kemet_throw_parse(r, ttext, &t, &e) ||
        kemet_move_parse(r, mtext, &m, &e)) {
        snprintf(out, 1024, "ERR: %s", e.msg);
    } else {
        int rc = kemet_apply(r, &p, &t, &m, &q, NULL);
        if (rc)
            snprintf(out, 1024, "ERR: %s", kemet_strerror(rc));
        else
            kemet_pos_format(r, &q, out, 1024);
    }
    kemet_rules_close(r);
    return out;
}

void tu_expect_moves(const char *pos, const char *thr, const char *want) {
    char *got = tu_moves(pos, thr);
    if (strcmp(got, want) != 0)
        fail_msg("moves '%s' %s: want '%s', got '%s'", pos, thr, want, got);
    free(got);
}

void tu_expect_apply(const char *pos, const char *thr, const char *move,
                     const char *want) {
    char *got = tu_apply(pos, thr, move);
    if (strncmp(want, "ERR", 3) == 0 ? strncmp(got, "ERR", 3) != 0
                                     : strcmp(got, want) != 0)
        fail_msg("apply '%s' %s %s: want '%s', got '%s'", pos, thr, move, want,
                 got);
    free(got);
}

kemet_rules *tu_pos(const char *text, kemet_pos *pos) {
    kemet_rules *r;
    kemet_error e;
    int rc = kemet_pos_parse(text, &r, pos, &e);
    if (rc)
        fail_msg("position '%s' rejected: %s", text, e.msg);
    return r;
}

static char *slurp(int fd) {
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (len + 1 >= cap)
            buf = realloc(buf, cap *= 2);
        ssize_t k = read(fd, buf + len, cap - len - 1);
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    buf[len] = '\0';
    return buf;
}

char *tu_read_file(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    char *text = slurp(fd);
    close(fd);
    return text;
}

int tu_run(const char *input, char **out, char **err, ...) {
    const char *bin = getenv("KEMET_BIN");
    if (!bin)
        fail_msg("KEMET_BIN is not set");
    const char *argv[64];
    int argc = 0;
    argv[argc++] = bin;
    va_list ap;
    va_start(ap, err);
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL && argc < 63)
        argv[argc++] = a;
    bool more = a != NULL; /* never run with some left out */
    va_end(ap);
    if (more)
        fail_msg("tu_run: more than 62 arguments");
    argv[argc] = NULL;

    char in_path[] = "/tmp/kemet-test-in-XXXXXX";
    char out_path[] = "/tmp/kemet-test-out-XXXXXX";
    char err_path[] = "/tmp/kemet-test-err-XXXXXX";
    int in_fd = mkstemp(in_path), out_fd = mkstemp(out_path),
        err_fd = mkstemp(err_path);
    if (input && write(in_fd, input, strlen(input)) < 0)
        fail_msg("cannot write test input");
    lseek(in_fd, 0, SEEK_SET);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in_fd, 0);
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    lseek(out_fd, 0, SEEK_SET);
    lseek(err_fd, 0, SEEK_SET);
    *out = slurp(out_fd);
    *err = slurp(err_fd);
    close(in_fd);
    close(out_fd);
    close(err_fd);
    unlink(in_path);
    unlink(out_path);
    unlink(err_path);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

kemet_measured tu_good_figures(void) {
    kemet_measured m = {0};
    m.c[KEMET_CRIT_LENGTH] = (kemet_stat){60, 55, 66};
    m.c[KEMET_CRIT_DECISIONS] = (kemet_stat){1.2, 1.1, 1.3};
    m.c[KEMET_CRIT_SKILL] = (kemet_stat){0.4, 0.35, 0.45};
    m.c[KEMET_CRIT_BALANCE] = (kemet_stat){0.5, 0.47, 0.53};
    m.c[KEMET_CRIT_TENSION] = (kemet_stat){0.1, 0.09, 0.11};
    m.c[KEMET_CRIT_STOPPED] = (kemet_stat){0, 0, 0.004};
    m.c[KEMET_CRIT_PROBES] = (kemet_stat){0.1, 0.05, 0.15};
    return m;
}
