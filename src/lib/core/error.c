/* error.c - status codes in words, the messages of kemet_error, the
 * library's version, and kemet_free for what it allocates for a caller.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

const char *kemet_version(void) {
    return KEMET_VERSION;
}

const char *kemet_strerror(int code) {
    switch (code) {
    case KEMET_OK: return "no error";
    case KEMET_EMISUSE: return "library misuse";
    case KEMET_ESYNTAX: return "malformed input";
    case KEMET_ERULESET: return "unknown ruleset or option";
    case KEMET_ETHROW: return "impossible throw";
    case KEMET_EILLEGAL: return "illegal move";
    case KEMET_EOVER: return "the game is over";
    case KEMET_ENOMEM: return "out of memory";
    case KEMET_ERANGE: return "buffer too small";
    case KEMET_EIO: return "input/output error";
    default: return "unknown error";
    }
}

int kmt_fail(kemet_error *err, int code, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

void kemet_free(void *p) {
    free(p);
}
