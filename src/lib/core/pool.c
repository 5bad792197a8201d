/* pool.c - the library's one way of using several threads: a fixed set of
 * units dealt out from a shared counter. Callers make the result of each
 * unit independent of the thread that ran it, so the output of a
 * parallel computation does not depend on the thread count.
 */
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct pool {
    kmt_unit_fn fn;
    void *ctx;
    long n;
    atomic_long next;
} pool;

typedef struct pool_arg {
    pool *p;
    int thread;
} pool_arg;

static void *pool_main(void *arg) {
    pool_arg *a = arg;
    for (;;) {
        long u = atomic_fetch_add(&a->p->next, 1);
        if (u >= a->p->n)
            break;
        a->p->fn(a->p->ctx, u, a->thread);
    }
    return NULL;
}

void kmt_run_units(int threads, long n, kmt_unit_fn fn, void *ctx) {
    pool p = {fn, ctx, n, 0};
    pool_arg arg[KMT_MAX_THREADS];
    pthread_t tid[KMT_MAX_THREADS];
    int started = 0;
    if (threads > KMT_MAX_THREADS)
        threads = KMT_MAX_THREADS;
    if (threads < 1)
        threads = 1;
    for (int i = 0; i < threads; i++)
        arg[i] = (pool_arg){&p, i};
    /* A thread that cannot be started leaves its share to the others. */
    for (int i = 1; i < threads && n > 1; i++)
        if (pthread_create(&tid[i], NULL, pool_main, &arg[i]) == 0)
            started = i;
        else
            break;
    pool_main(&arg[0]);
    for (int i = 1; i <= started; i++)
        pthread_join(tid[i], NULL);
}
