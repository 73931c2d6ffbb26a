/* botpool.h -- bots kept from move to move, and the worker job that asks
 * one of them for a move.
 *
 * Making a bot can be slow (a searcher clears a hash table), so the server
 * keeps every bot it has made and lends each to one job at a time; a bot
 * lent to a game it did not play last starts that game afresh.
 */
#ifndef CITADEL_BOTPOOL_H
#define CITADEL_BOTPOOL_H

#include <stdint.h>

#include "../../ai/bots.h"
#include "../core/workers.h"

typedef struct botpool botpool;

/* A move wanted from the bot `spec` in `view` (what its side may see). */
typedef struct bot_job {
    job base;
    botpool *pool;
    const game_variant *v;
    int64_t game;
    int ply;
    int side;
    int move_limit;
    char spec[64];
    uint64_t seed;
    search_limits lim;
    _Alignas(16) unsigned char view[GAME_POS_MAX];
    char move[32];       /* the answer; "" if the bot found none */
} bot_job;

botpool *botpool_new(void);
void botpool_free(botpool *p);

/* A job's run function (on a worker thread): fills bj->move. */
void botpool_job_run(job *j);

#endif
