/* fuzz_record.c - game records (kemet_replay): a record either replays,
 * and its final position is a valid position line, or is refused with a
 * one-line message naming the line.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 16384)
        return 0;
    char *text = fz_text(data, size);
    kemet_pos final;
    char line[512];
    long turns = -1;
    kemet_error err;
    int rc = kemet_replay(text, &final, line, sizeof line, &turns, &err);
    if (rc == 0) {
        FZ_CHECK(turns >= 0);
        kemet_rules *r = NULL;
        kemet_pos back;
        FZ_CHECK(kemet_pos_parse(line, &r, &back, &err) == 0);
        FZ_CHECK(memcmp(&back, &final, sizeof back) == 0);
        kemet_rules_close(r);
    } else {
        FZ_CHECK(rc == err.code && err.msg[0] && !strchr(err.msg, '\n'));
    }
    free(text);
    return 0;
}
