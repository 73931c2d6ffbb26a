/* tune.h -- `citadel tune`: fits the Rampart evaluation to self-play. */
#ifndef CITADEL_TUNE_H
#define CITADEL_TUNE_H

#include <stdint.h>

typedef struct tune_options {
    int games;          /* self-play games, half Classic, half XL */
    int level, depth;   /* who plays them, and how deep */
    int move_limit;     /* R7.3 limit for those games */
    int opening_plies;  /* random plies before the searcher takes over */
    int concurrency;    /* threads */
    int passes;         /* at most this many passes over the weights */
    uint64_t seed;
} tune_options;

/* Plays, fits and prints the weights; returns the exit status. */
int tune_main(const tune_options *o);

#endif
