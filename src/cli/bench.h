/* bench.h -- the engine's fingerprints: fixed searches and perft speed. */
#ifndef CITADEL_BENCH_H
#define CITADEL_BENCH_H

#define BENCH_DEPTH 9

/* Searches the bench positions to `depth`; prints each and the totals. */
int bench_search(int depth);

/* Searches the bench positions to `depth` with Rampart's reference
 * opponent ab-material; prints each and its speed. */
#define BENCH_AB_DEPTH 7
#define BENCH_AB_MAX_DEPTH 127  /* RP_AB_MAX_PLY - 1 */
int bench_ab_material(int depth);

/* Times bulk-counted perft from the Classic start. */
int bench_perft(int depth);

#endif
