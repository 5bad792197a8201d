/* fuzz_position.c - position lines (kemet_pos_parse): whatever parses
 * must format and parse back to itself, and every throw and move from it
 * must keep the invariants of fz_check_position.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 2048)
        return 0;
    char *text = fz_text(data, size);
    kemet_rules *r = NULL;
    kemet_pos pos;
    kemet_error err;
    int rc = kemet_pos_parse(text, &r, &pos, &err);
    if (rc == 0) {
        fz_check_position(r, &pos, 1);
        kemet_rules_close(r);
    } else {
        FZ_CHECK(r == NULL);
        FZ_CHECK(rc == err.code && err.msg[0] != '\0');
        FZ_CHECK(memchr(err.msg, '\0', sizeof err.msg) != NULL);
        FZ_CHECK(strchr(err.msg, '\n') == NULL);
    }
    free(text);
    return 0;
}
