/* replay.c - a fuzz target as a plain program: runs LLVMFuzzerTestOneInput
 * on every file named, and on every file of every folder named (in name
 * order), so that the ordinary test run replays the committed corpus and
 * every past reproducer without libFuzzer.
 */
#include "fuzz.h"

#include <dirent.h>
#include <sys/stat.h>

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    return 0;
}

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        return -1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *b = realloc(buf, cap);
            if (!b)
                abort();
            buf = b;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        if (got == 0)
            break;
        len += got;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    long files = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file or folder: %s\n", argv[i]);
            return 2;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]))
                return 2;
            files++;
            continue;
        }
        struct dirent **list;
        int n = scandir(argv[i], &list, NULL, by_name);
        if (n < 0) {
            fprintf(stderr, "replay: cannot list %s\n", argv[i]);
            return 2;
        }
        for (int k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], list[k]->d_name);
            if (list[k]->d_name[0] != '.' && stat(path, &st) == 0 &&
                S_ISREG(st.st_mode)) {
                if (run_file(path))
                    return 2;
                files++;
            }
            free(list[k]);
        }
        free(list);
    }
    printf("replay: %ld inputs, no fault\n", files);
    return files > 0 ? 0 : 2;
}
