/* bench.h -- the engine's fingerprints: fixed searches and perft speed. */
#ifndef CITADEL_BENCH_H
#define CITADEL_BENCH_H

#define BENCH_DEPTH 9

/* Searches the bench positions to `depth`; prints each and the totals. */
int bench_search(int depth);

/* Times bulk-counted perft from the Classic start. */
int bench_perft(int depth);

#endif
