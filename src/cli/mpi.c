/* mpi.c - the heavy commands over Open MPI (docs/cluster.md).
 *
 * Built with KEMET_MPI (CMake finds Open MPI), `mpirun -n N kemet ...`
 * starts N copies; each is a rank. A run of games is dealt to the ranks
 * by index (rank r plays games r, r + N, r + 2N, ...; each seeded from the
 * run's seed and its index as always), then every rank receives every
 * game's outcome in game order, so what is computed from them is the same
 * for any number of ranks and threads. Only rank 0 prints: the others'
 * standard output goes to /dev/null.
 *
 * Without KEMET_MPI, or when the program was not started by mpirun, there
 * is one rank and nothing here does anything.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#ifdef KEMET_MPI
#include <mpi.h>
#endif

/* The program's place in the job (one process: rank 0 of 1). */
static int the_rank = 0, the_size = 1;
#ifdef KEMET_MPI
static bool started = false;
/* Progress of a dealt run: the other ranks' counts reach rank 0 on a
 * communicator of their own, so they never meet the results' exchanges. */
static MPI_Comm progress_comm = MPI_COMM_NULL;
enum { TAG_NOW = 1, TAG_END = 2 };
static long *heard; /* rank 0: each rank's count last heard */
static long told;   /* the others: the count in flight */
static MPI_Request telling = MPI_REQUEST_NULL;
#endif

void cli_mpi_start(int *argc, char ***argv) {
#ifdef KEMET_MPI
    /* Only under a launcher: a plain run of the program stays a plain
       process, with no MPI start-up at all. */
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") &&
        !getenv("PMI_SIZE"))
        return;
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS)
        return;
    started = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &the_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &the_size);
    MPI_Comm_dup(MPI_COMM_WORLD, &progress_comm);
    heard = calloc((size_t)the_size, sizeof *heard);
    if (the_rank != 0 && !freopen("/dev/null", "w", stdout))
        fclose(stdout);
#else
    (void)argc;
    (void)argv;
#endif
}

void cli_mpi_end(void) {
#ifdef KEMET_MPI
    if (started) {
        fflush(stdout);
        if (telling != MPI_REQUEST_NULL)
            MPI_Wait(&telling, MPI_STATUS_IGNORE);
        MPI_Comm_free(&progress_comm);
        free(heard);
        heard = NULL;
        MPI_Finalize();
        started = false;
    }
#endif
}

bool cli_mpi_alone(const char *command) {
    if (the_size == 1)
        return true;
    if (the_rank != 0)
        return false;
    fprintf(stderr,
            "kemet: %s runs on rank 0 alone under mpirun (match, ladder, "
            "sim, analyze, tune, train and solve share their work among the "
            "ranks)\n",
            command);
    the_size = 1;
    return true;
}

int cli_mpi_join(const void *mine, long nmine, size_t each, void *all,
                 long total) {
#ifdef KEMET_MPI
    if (!started || the_size == 1)
        return 0;
    long *n = malloc((size_t)the_size * sizeof *n);
    int *counts = malloc((size_t)the_size * 2 * sizeof *counts);
    int failed = !n || !counts ||
                 (double)total * (double)each > 2147483647.0; /* int counts */
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (failed) {
        free(n);
        free(counts);
        return KEMET_ENOMEM;
    }
    MPI_Allgather(&nmine, 1, MPI_LONG, n, 1, MPI_LONG, MPI_COMM_WORLD);
    int *displs = counts + the_size, at = 0;
    for (int r = 0; r < the_size; r++) {
        counts[r] = (int)(n[r] * (long)each);
        displs[r] = at;
        at += counts[r];
    }
    int rc = (long)at == total * (long)each ? 0 : KEMET_EMISUSE;
    if (!rc)
        MPI_Allgatherv(mine, counts[the_rank], MPI_BYTE, all, counts, displs,
                       MPI_BYTE, MPI_COMM_WORLD);
    free(n);
    free(counts);
    return rc;
#else
    (void)mine;
    (void)nmine;
    (void)each;
    (void)all;
    (void)total;
    return 0;
#endif
}

int cli_mpi_join_known(const void *mine, void *all, size_t each,
                       const long *counts) {
#ifdef KEMET_MPI
    if (!started || the_size == 1)
        return 0;
    int *c = malloc((size_t)the_size * 2 * sizeof *c);
    if (!c)
        return KEMET_ENOMEM; /* (every rank alike, short of memory) */
    int *displs = c + the_size;
    double at = 0;
    for (int r = 0; r < the_size; r++) {
        c[r] = (int)(counts[r] * (long)each);
        displs[r] = (int)at;
        at += (double)counts[r] * (double)each;
    }
    /* the same sum on every rank: all fail together */
    if (at > 2147483647.0) {
        free(c);
        return KEMET_ERANGE;
    }
    MPI_Allgatherv(mine, c[the_rank], MPI_BYTE, all, c, displs, MPI_BYTE,
                   MPI_COMM_WORLD);
    free(c);
    return 0;
#else
    (void)mine;
    (void)all;
    (void)each;
    (void)counts;
    return 0;
#endif
}

long cli_mpi_share_of(long n, int r) {
    return n > r ? (n - r + the_size - 1) / the_size : 0;
}

long cli_mpi_share(long n) {
    return cli_mpi_share_of(n, the_rank);
}

int cli_mpi_rank(void) {
    return the_rank;
}

int cli_mpi_size(void) {
    return the_size;
}

int cli_mpi_deal(long n, size_t each, void *mine, void *all, int rc) {
#ifdef KEMET_MPI
    if (!started || the_size == 1)
        return rc;
    /* one rank's failure is every rank's */
    int worst;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (worst)
        return worst;
    int *counts = malloc((size_t)the_size * 2 * sizeof *counts);
    char *packed = malloc((size_t)n * each + 1);
    int failed = !counts || !packed ||
                 (double)n * (double)each > 2147483647.0; /* int counts */
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (failed) {
        free(counts);
        free(packed);
        return KEMET_ENOMEM;
    }
    int *displs = counts + the_size, at = 0;
    for (int r = 0; r < the_size; r++) {
        long k = cli_mpi_share_of(n, r);
        counts[r] = (int)(k * (long)each);
        displs[r] = at;
        at += counts[r];
    }
    MPI_Allgatherv(mine, counts[the_rank], MPI_BYTE, packed, counts, displs,
                   MPI_BYTE, MPI_COMM_WORLD);
    /* rank r's k-th item is item r + k * size */
    for (int r = 0; r < the_size; r++)
        for (long k = 0; (long)k * (long)each < counts[r]; k++)
            memcpy((char *)all + (size_t)(r + k * the_size) * each,
                   packed + displs[r] + (size_t)k * each, each);
    free(counts);
    free(packed);
    return 0;
#else
    (void)n;
    (void)each;
    (void)mine;
    (void)all;
    return rc;
#endif
}

long cli_mpi_progress(long done) {
#ifdef KEMET_MPI
    if (!started || the_size == 1)
        return done;
    if (the_rank != 0) {
        /* one count in flight at a time */
        int sent = 1;
        if (telling != MPI_REQUEST_NULL)
            MPI_Test(&telling, &sent, MPI_STATUS_IGNORE);
        if (sent) {
            told = done;
            MPI_Isend(&told, 1, MPI_LONG, 0, TAG_NOW, progress_comm, &telling);
        }
        return done;
    }
    for (;;) {
        int flag;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_NOW, progress_comm, &flag, &st);
        if (!flag)
            break;
        long v;
        MPI_Recv(&v, 1, MPI_LONG, st.MPI_SOURCE, TAG_NOW, progress_comm,
                 MPI_STATUS_IGNORE);
        if (heard)
            heard[st.MPI_SOURCE] = v;
    }
    long all = done;
    for (int r = 1; heard && r < the_size; r++)
        all += heard[r];
    return all;
#else
    return done;
#endif
}

long cli_mpi_progress_end(long done) {
#ifdef KEMET_MPI
    if (!started || the_size == 1)
        return done;
    if (the_rank != 0) {
        if (telling != MPI_REQUEST_NULL)
            MPI_Wait(&telling, MPI_STATUS_IGNORE);
        told = done;
        MPI_Send(&told, 1, MPI_LONG, 0, TAG_END, progress_comm);
        return done;
    }
    /* a rank's messages arrive in order: after its last, none is left */
    long all = done;
    for (int ended = 1; ended < the_size;) {
        long v;
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, progress_comm,
                 &st);
        if (st.MPI_TAG == TAG_END) {
            ended++;
            all += v;
        }
    }
    for (int r = 0; heard && r < the_size; r++)
        heard[r] = 0;
    return all;
#else
    return done;
#endif
}
