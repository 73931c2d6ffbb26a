/* writer.c -- see writer.h: a queue in, one thread that commits what is
 * waiting as one batch, a queue out.
 *
 * Invariant: a job is on exactly one of todo (submitted, not yet run),
 * the thread's batch, or done (run, its batch settled, `done` not yet
 * called); j->ok is set before it reaches done, and only from the batch's
 * commit.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "writer.h"

#define BATCH_MAX 4096  /* writes in one transaction at most */

struct writer {
    pthread_mutex_t lock;
    pthread_cond_t more;
    wjob *todo, *todo_tail;
    wjob *done, *done_tail;
    int stopping;
    int threaded;
    pthread_t thread;
    store *st;           /* the writer's own connection (threaded), or the loop's */
    void (*wake)(void *arg);  /* tells the loop writes are done (writer_new) */
    void *wake_arg;
    void *app;
    writer_stats stats;
    long delay_ms;       /* test builds: each batch waits this long first */
};

/* Every job of list fails with why (unless it has a reason of its own). */
static void fail_all(wjob *list, wjob *upto, const char *why)
{
    for (wjob *j = list; j && j != upto; j = j->next) {
        if (j->ok)
            snprintf(j->err.msg, sizeof j->err.msg, "%s", why);
        j->ok = 0;
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Runs and commits one batch (a list linked by next, n long). */
static void run_batch(writer *w, wjob *list, int n)
{
    store_err e;
    if (w->delay_ms > 0) {
        struct timespec ts = {w->delay_ms / 1000, (w->delay_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    int reads = 1;
    for (wjob *j = list; j && reads; j = j->next)
        reads = j->read_only;
    if (reads) {  /* nothing to commit: no transaction */
        for (wjob *j = list; j; j = j->next) {
            memset(&j->err, 0, sizeof j->err);
            j->ok = j->run(w->st, j) == 0;
        }
        return;
    }
    double t0 = now_ms(), t1 = t0;
    wjob *first = list;  /* the first job of the open transaction */
    if (store_batch_begin(w->st, &e) != 0) {
        for (wjob *j = list; j; j = j->next) {
            j->ok = 0;
            j->err = e;
        }
        return;
    }
    for (wjob *j = list; j; j = j->next) {
        memset(&j->err, 0, sizeof j->err);
        j->ok = j->run(w->st, j) == 0;
        if (store_batch_intact(w->st))
            continue;
        /* an error took the whole transaction, and the writes before it
         * (PostgreSQL's stays open, failed, until rolled back) */
        store_batch_abandon(w->st);
        fail_all(first, j->next, "the write was undone by another's error; try again");
        if (j->next && store_batch_begin(w->st, &e) != 0) {
            for (wjob *k = j->next; k; k = k->next) {
                k->ok = 0;
                k->err = e;
            }
            return;
        }
        first = j->next;
        if (!first)
            return;
    }
    t1 = now_ms();
    if (store_batch_commit(w->st, &e) != 0)
        fail_all(first, NULL, e.msg);
    double t2 = now_ms();
    pthread_mutex_lock(&w->lock);
    w->stats.busy_ms += t2 - t0;
    w->stats.commit_ms += t2 - t1;
    w->stats.batches++;
    w->stats.writes += n;
    if (n > w->stats.largest)
        w->stats.largest = n;
    if (t2 - t0 > w->stats.slowest_ms)
        w->stats.slowest_ms = t2 - t0;
    if (t2 - t0 > 100)
        w->stats.over_100ms++;
    pthread_mutex_unlock(&w->lock);
}

/* Moves a settled batch to done and wakes the loop. */
static void finish(writer *w, wjob *list, wjob *tail)
{
    pthread_mutex_lock(&w->lock);
    if (w->done_tail)
        w->done_tail->next = list;
    else
        w->done = list;
    w->done_tail = tail;
    pthread_mutex_unlock(&w->lock);
    if (w->wake)
        w->wake(w->wake_arg);
}

static void *writer_main(void *arg)
{
    writer *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->todo && !w->stopping)
            pthread_cond_wait(&w->more, &w->lock);
        if (!w->todo)
            break;  /* stopping, and nothing is left to write */
        wjob *list = w->todo, *tail = list;
        int n = 1;
        while (tail->next && n < BATCH_MAX) {
            tail = tail->next;
            n++;
        }
        w->todo = tail->next;
        if (!w->todo)
            w->todo_tail = NULL;
        tail->next = NULL;
        pthread_mutex_unlock(&w->lock);
        run_batch(w, list, n);
        if (store_lost(w->st))
            writer_lost_database();
        finish(w, list, tail);
        pthread_mutex_lock(&w->lock);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

writer *writer_new(store *loop, const char *path, int sync_full, void (*wake)(void *arg),
                   void *wake_arg, void *app, store_err *err)
{
    writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->more, NULL);
    w->wake = wake;
    w->wake_arg = wake_arg;
    w->app = app;
#ifdef CITADEL_FAULTS
    const char *delay = getenv("CITADEL_WRITER_DELAY_MS");
    w->delay_ms = delay ? strtol(delay, NULL, 10) : 0;
    if (w->delay_ms > 0)
        fprintf(stderr, "citadel serve: test build: each batch of writes waits %ld ms\n",
                w->delay_ms);
#endif
    if (!path || !path[0] || strcmp(path, ":memory:") == 0) {
        w->st = loop;
        return w;
    }
    w->st = store_open(path, sync_full, err);
    if (!w->st) {
        writer_free(w);
        return NULL;
    }
    store_leave_checkpoints(w->st);  /* the loop's store checkpoints */
    if (pthread_create(&w->thread, NULL, writer_main, w) != 0) {
        snprintf(err->msg, sizeof err->msg, "cannot start the store's writer thread");
        store_close(w->st);
        writer_free(w);
        return NULL;
    }
    w->threaded = 1;
    return w;
}

static void free_list(wjob *j)
{
    while (j) {
        wjob *next = j->next;
        if (j->drop)
            j->drop(j);
        else
            free(j);
        j = next;
    }
}

int writer_threaded(const writer *w)
{
    return w->threaded;
}

void writer_set_server(writer *w, int64_t server)
{
    store_set_server(w->st, server);
}

_Noreturn void writer_lost_database(void)
{
    fprintf(stderr, "citadel serve: the connection to the database, or this server's lease "
                    "on its games, is lost; stopping, so that another server can take over\n");
    fflush(stdout);
    fflush(stderr);
    _exit(3);
}

void writer_free(writer *w)
{
    if (!w)
        return;
    if (w->threaded) {
        pthread_mutex_lock(&w->lock);
        w->stopping = 1;
        pthread_cond_broadcast(&w->more);
        pthread_mutex_unlock(&w->lock);
        pthread_join(w->thread, NULL);
    }
    free_list(w->todo);
    free_list(w->done);
    if (w->threaded)
        store_close(w->st);  /* its own connection; the loop's is the loop's */
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->more);
    free(w);
}

void writer_submit(writer *w, wjob *j)
{
    j->next = NULL;
    j->ok = 0;
    if (!w->threaded) {
        /* no second connection: a batch of one, now, on the loop's store */
        pthread_mutex_lock(&w->lock);
        w->stats.backlog++;
        pthread_mutex_unlock(&w->lock);
        run_batch(w, j, 1);
        pthread_mutex_lock(&w->lock);
        w->stats.backlog--;
        pthread_mutex_unlock(&w->lock);
        j->done(w->app, j);
        return;
    }
    pthread_mutex_lock(&w->lock);
    if (w->todo_tail)
        w->todo_tail->next = j;
    else
        w->todo = j;
    w->todo_tail = j;
    w->stats.backlog++;
    pthread_cond_signal(&w->more);
    pthread_mutex_unlock(&w->lock);
}

void writer_drain(writer *w, void *app)
{
    pthread_mutex_lock(&w->lock);
    wjob *list = w->done;
    w->done = w->done_tail = NULL;
    for (wjob *j = list; j; j = j->next)
        w->stats.backlog--;
    pthread_mutex_unlock(&w->lock);
    while (list) {
        wjob *next = list->next;
        list->done(app, list);
        list = next;
    }
}

void writer_get_stats(writer *w, writer_stats *out)
{
    pthread_mutex_lock(&w->lock);
    *out = w->stats;
    pthread_mutex_unlock(&w->lock);
}
