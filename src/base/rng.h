/* rng.h -- small, fast, seedable pseudo-random numbers (xoshiro256**).
 *
 * Not for secrets. Every generator is a value the caller owns; there is no
 * hidden global state, so threads never share one by accident.
 */
#ifndef CITADEL_RNG_H
#define CITADEL_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng;

/* Seeds g from one 64-bit number (any value, 0 included). */
void rng_seed(rng *g, uint64_t seed);

/* Next 64 uniformly distributed bits. */
uint64_t rng_next(rng *g);

/* A uniform integer in [0, n). n must be at least 1. */
uint64_t rng_below(rng *g, uint64_t n);

/* The splitmix64 step: a good 64-bit mix of x, useful for hashing seeds. */
uint64_t rng_mix(uint64_t x);

#endif
