/* fuzz_report.c - the analysis report's data read back (`kemet analyze
 * --from FILE.json`, src/cli/report_json.c). Input: the file. A file that
 * is refused says why in one line; a file that is read writes back as a
 * document that reads again to itself.
 */
#include "fuzz.h"
#include "report.h"

#include <stdarg.h>

/* The program's one-line message, here checked and kept quiet. */
int cli_fail(const char *fmt, ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    FZ_CHECK(n > 0 && !strchr(line, '\n'));
    return EXIT_BAD;
}

/* P written as JSON (malloc'd), its length in *len. */
static char *written(const rep_report *P, size_t *len) {
    char *text = NULL;
    FILE *m = open_memstream(&text, len);
    FZ_CHECK(m);
    rep_json_write(m, P);
    FZ_CHECK(fclose(m) == 0 && text);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1 << 20))
        return 0;
    rep_report P;
    int rc = rep_json_read((const char *)data, size, "fuzz", &P);
    FZ_CHECK(rc == 0 || rc == EXIT_BAD);
    if (rc != 0) {
        FZ_CHECK(P.R == NULL && P.own == NULL);
        return 0;
    }
    FZ_CHECK(P.n >= 1 && P.R);
    size_t len, len2;
    char *text = written(&P, &len);
    rep_report Q;
    FZ_CHECK(rep_json_read(text, len, "fuzz", &Q) == 0);
    char *again = written(&Q, &len2);
    FZ_CHECK(len == len2 && memcmp(text, again, len) == 0);
    free(text);
    free(again);
    rep_report_free(&P);
    rep_report_free(&Q);
    return 0;
}
