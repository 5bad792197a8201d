/* fuzz_weights.c - evaluation files: the weights file of kemet tune
 * (kemet_eval_load) and the network file of kemet train (kemet_net_parse).
 * Input: a byte choosing the ruleset and the kind, then the file. What is
 * accepted must give win chances between 0 and 1; a network must format
 * and parse back to the same text.
 */
#include "fuzz.h"

#include <math.h>

static kemet_rules *rules[64];
static kemet_judge *judges[64]; /* judges[i] judges rules[i], linear */
static int nrules;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    nrules = fz_open_all(rules, 64);
    for (int i = 0; i < nrules; i++)
        if (kemet_judge_new(rules[i], "linear", &judges[i], NULL))
            nrules = i;
    return 0;
}

static void check_chances(const kemet_judge *j) {
    kemet_pos pos;
    kemet_start(kemet_judge_rules(j), &pos);
    for (int p = 1; p <= 2; p++) {
        double c = kemet_win_chance(j, &pos, p);
        FZ_CHECK(isfinite(c) && c >= 0 && c <= 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 65536 || nrules == 0)
        return 0;
    int k = (data[0] >> 1) % nrules;
    kemet_rules *r = rules[k];
    kemet_judge *j = judges[k];
    char *text = fz_text(data + 1, size - 1);
    kemet_error err;
    if ((data[0] & 1) == 0) {
        if (kemet_eval_load(j, text, &err) == 0)
            check_chances(j);
        else
            FZ_CHECK(err.msg[0] && !strchr(err.msg, '\n'));
        kemet_eval_reset(j);
    } else {
        kemet_net *net = NULL;
        if (kemet_net_parse(r, text, &net, &err) == 0) {
            char *out = NULL, *again = NULL;
            FZ_CHECK(kemet_net_format(net, NULL, &out) == 0);
            kemet_net *back = NULL;
            FZ_CHECK(kemet_net_parse(r, out, &back, &err) == 0);
            FZ_CHECK(kemet_net_format(back, NULL, &again) == 0);
            FZ_CHECK(strcmp(out, again) == 0);
            FZ_CHECK(kemet_judge_use_net(j, net) == 0);
            check_chances(j);
            kemet_judge_use_net(j, NULL);
            free(out);
            free(again);
            kemet_net_free(back);
            kemet_net_free(net);
        } else {
            FZ_CHECK(net == NULL && err.msg[0] && !strchr(err.msg, '\n'));
        }
    }
    free(text);
    return 0;
}
