/* writer.h -- the store's writes off the event loop, committed in groups.
 *
 * One thread with a store connection of its own takes the writes the loop
 * submits and commits every write waiting at once as one transaction
 * (store.h, group commit): under load one sync of the disk serves many
 * moves, and a slow disk or a lock held by another process stalls the
 * writes, never the loop.
 *
 * A write's `run` runs on the writer's thread with the writer's store,
 * inside the batch, and touches nothing but its job; it returns 0, or -1
 * with a reason in j->err (its changes are undone, the batch's others
 * stand). Its `done` then runs on the loop thread (writer_drain, which
 * the loop calls when net wakes it), with j->ok = 1 only if the batch that
 * held the write was committed: whatever the loop tells anyone after that
 * is on disk. `done` owns the job. Writes run, and are done, in the order
 * submitted.
 *
 * A store that has no file (":memory:": tests, the fuzzers) cannot be
 * opened twice: then each write runs at submission, on the loop's own
 * store in a batch of one, and `done` is called before writer_submit
 * returns.
 *
 * On PostgreSQL, with several servers on one database, the writer's
 * batches are fenced by its server's lease (store.h, store_set_server):
 * once another server has taken this one's games over, nothing more of
 * this one's is written.
 */
#ifndef CITADEL_WRITER_H
#define CITADEL_WRITER_H

#include "store.h"

typedef struct wjob wjob;
struct wjob {
    wjob *next;
    int (*run)(store *st, wjob *j);
    void (*done)(void *app, wjob *j);
    void (*drop)(wjob *j);  /* frees a job never done (writer_free); NULL: free() */
    int read_only;   /* it only reads: a batch of such jobs opens no transaction */
    int ok;
    store_err err;
};

typedef struct writer writer;

/* A writer for the database at path, which `loop` (the loop's store) has
 * open already; sync_full as store_open's. When writes are done it calls
 * wake(wake_arg) from its thread (the loop's own wake-up, which must be
 * safe to call from any thread; NULL: none), so that the loop calls
 * writer_drain. NULL with err on failure. */
writer *writer_new(store *loop, const char *path, int sync_full, void (*wake)(void *arg),
                   void *wake_arg, void *app, store_err *err);
/* Commits what is waiting, stops the thread; writes not yet done are
 * dropped (their `drop`, or free()) without their `done`. */
void writer_free(writer *w);
void writer_submit(writer *w, wjob *j);
/* 1 if jobs run on the writer's own thread, 0 if at submission (a store
 * with no file). */
int writer_threaded(const writer *w);
/* Calls `done` of every finished write, in order, on the calling (loop)
 * thread. */
void writer_drain(writer *w, void *app);

typedef struct writer_stats {
    long batches;    /* transactions committed or failed */
    long writes;     /* writes in them */
    long largest;    /* most writes in one batch */
    double busy_ms;  /* time spent running and committing batches */
    double commit_ms;  /* of which committing (the disk's flushes) */
    double slowest_ms; /* the longest batch, run and commit */
    long over_100ms;   /* batches that took longer than 100 ms */
    int backlog;     /* submitted and not yet done */
} writer_stats;
void writer_get_stats(writer *w, writer_stats *out);

/* The connection to the database is lost, or this server's lease on its
 * games (store_lost): another server may be taking its games over, so it
 * stops at once (exit status 3). Nothing is lost: everything told to
 * anyone was stored first. Called by the writer after a batch, and by the
 * server's sweep. */
_Noreturn void writer_lost_database(void);
/* The server whose games the writer's batches write (store_set_server);
 * before anything is submitted. */
void writer_set_server(writer *w, int64_t server);

#endif
