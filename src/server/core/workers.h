/* workers.h -- a pool of threads for work too slow for the event loop
 * (bot moves, password hashing).
 *
 * A job's `run` runs on a worker thread and must touch nothing but the job
 * itself; its `done` then runs on the loop thread, from workers_drain,
 * which the loop calls when net wakes it. `done` owns the job (frees it).
 */
#ifndef CITADEL_WORKERS_H
#define CITADEL_WORKERS_H

#include "../net/net.h"

typedef struct job job;
struct job {
    job *next;
    void (*run)(job *j);
    void (*done)(void *app, job *j);
};

typedef struct workers workers;

/* n threads; they wake `net` when a job is done. NULL on failure. */
workers *workers_new(int n, net *wake);
/* Stops the threads once the jobs they are running are done; jobs not yet
 * run, and finished jobs not yet drained, are freed with free(). */
void workers_free(workers *w);
void workers_submit(workers *w, job *j);
/* Calls `done` of every finished job, on the calling (loop) thread. */
void workers_drain(workers *w, void *app);
/* Jobs waiting or running (for load reports). */
int workers_backlog(workers *w);

#endif
