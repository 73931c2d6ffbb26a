/* workers.c -- see workers.h: a mutex-guarded queue in, another out. */
#include <pthread.h>
#include <stdlib.h>

#include "workers.h"

struct workers {
    pthread_mutex_t lock;
    pthread_cond_t more;
    job *todo, *todo_tail;
    job *done;           /* finished, newest first; drained in order */
    int pending;
    int stopping;
    int nthreads;
    pthread_t *threads;
    net *wake;
};

static void *worker_main(void *arg)
{
    workers *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->todo && !w->stopping)
            pthread_cond_wait(&w->more, &w->lock);
        if (w->stopping)
            break;
        job *j = w->todo;
        w->todo = j->next;
        if (!w->todo)
            w->todo_tail = NULL;
        pthread_mutex_unlock(&w->lock);
        j->run(j);
        pthread_mutex_lock(&w->lock);
        j->next = w->done;
        w->done = j;
        net_wake(w->wake);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

workers *workers_new(int n, net *wake)
{
    workers *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->threads = calloc((size_t)n, sizeof *w->threads);
    if (!w->threads) {
        free(w);
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->more, NULL);
    w->wake = wake;
    for (int i = 0; i < n; i++) {
        if (pthread_create(&w->threads[i], NULL, worker_main, w) != 0)
            break;
        w->nthreads++;
    }
    if (!w->nthreads) {
        workers_free(w);
        return NULL;
    }
    return w;
}

static void free_list(job *j)
{
    while (j) {
        job *next = j->next;
        free(j);
        j = next;
    }
}

void workers_free(workers *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stopping = 1;
    pthread_cond_broadcast(&w->more);
    pthread_mutex_unlock(&w->lock);
    for (int i = 0; i < w->nthreads; i++)
        pthread_join(w->threads[i], NULL);
    free_list(w->todo);
    free_list(w->done);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->more);
    free(w->threads);
    free(w);
}

void workers_submit(workers *w, job *j)
{
    j->next = NULL;
    pthread_mutex_lock(&w->lock);
    if (w->todo_tail)
        w->todo_tail->next = j;
    else
        w->todo = j;
    w->todo_tail = j;
    w->pending++;
    pthread_cond_signal(&w->more);
    pthread_mutex_unlock(&w->lock);
}

void workers_drain(workers *w, void *app)
{
    pthread_mutex_lock(&w->lock);
    job *list = w->done;
    w->done = NULL;
    pthread_mutex_unlock(&w->lock);
    /* reverse into the order they finished */
    job *ordered = NULL;
    int n = 0;
    while (list) {
        job *next = list->next;
        list->next = ordered;
        ordered = list;
        list = next;
        n++;
    }
    pthread_mutex_lock(&w->lock);
    w->pending -= n;
    pthread_mutex_unlock(&w->lock);
    while (ordered) {
        job *next = ordered->next;
        ordered->done(app, ordered);
        ordered = next;
    }
}

int workers_backlog(workers *w)
{
    pthread_mutex_lock(&w->lock);
    int n = w->pending;
    pthread_mutex_unlock(&w->lock);
    return n;
}
