/* botpool.c -- see botpool.h. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botpool.h"

typedef struct pooled {
    char spec[64];
    bot *b;
    int busy;
    int64_t game;        /* the game it last played: a new one starts afresh */
    struct pooled *next;
} pooled;

struct botpool {
    pthread_mutex_t lock;
    pooled *all;
};

botpool *botpool_new(void)
{
    botpool *p = calloc(1, sizeof *p);
    if (p)
        pthread_mutex_init(&p->lock, NULL);
    return p;
}

void botpool_free(botpool *p)
{
    if (!p)
        return;
    while (p->all) {
        pooled *b = p->all;
        p->all = b->next;
        bot_free(b->b);
        free(b);
    }
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static pooled *pool_take(botpool *p, const char *spec, uint64_t seed)
{
    pthread_mutex_lock(&p->lock);
    for (pooled *b = p->all; b; b = b->next)
        if (!b->busy && strcmp(b->spec, spec) == 0) {
            b->busy = 1;
            pthread_mutex_unlock(&p->lock);
            return b;
        }
    pthread_mutex_unlock(&p->lock);
    pooled *b = calloc(1, sizeof *b);
    char err[160];
    if (!b || !(b->b = bot_new(spec, seed, err, sizeof err))) {
        free(b);
        return NULL;
    }
    snprintf(b->spec, sizeof b->spec, "%s", spec);
    b->busy = 1;
    pthread_mutex_lock(&p->lock);
    b->next = p->all;
    p->all = b;
    pthread_mutex_unlock(&p->lock);
    return b;
}

static void pool_give(botpool *p, pooled *b)
{
    pthread_mutex_lock(&p->lock);
    b->busy = 0;
    pthread_mutex_unlock(&p->lock);
}

void botpool_job_run(job *j)
{
    bot_job *bj = (bot_job *)j;
    bj->move[0] = 0;
    pooled *b = pool_take(bj->pool, bj->spec, bj->seed);
    if (!b)
        return;
    if (b->game != bj->game) {
        if (bot_new_game(b->b, bj->v, bj->move_limit) != 0) {
            pool_give(bj->pool, b);
            return;
        }
        b->game = bj->game;
    }
    game_move m = bot_move(b->b, bj->v, bj->view, &bj->lim, NULL);
    if (m != GAME_MOVE_NONE)
        bj->v->ops->format_move(bj->view, m, bj->move, sizeof bj->move);
    pool_give(bj->pool, b);
}
