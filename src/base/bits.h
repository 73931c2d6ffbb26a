/* bits.h -- bit tricks on 64-bit boards.
 *
 * Every board of every game that fits 64 squares is a uint64_t with bit i set
 * for square i. These helpers compile to single instructions where the CPU
 * has them (popcnt, tzcnt, lzcnt).
 */
#ifndef CITADEL_BITS_H
#define CITADEL_BITS_H

#include <stdint.h>

static inline int bits_count(uint64_t b) { return __builtin_popcountll(b); }

/* Index of the lowest set bit. b must not be 0. */
static inline int bits_lsb(uint64_t b) { return __builtin_ctzll(b); }

/* Index of the highest set bit. b must not be 0. */
static inline int bits_msb(uint64_t b) { return 63 - __builtin_clzll(b); }

/* Removes the lowest set bit of *b and returns its index. *b must not be 0. */
static inline int bits_pop(uint64_t *b)
{
    int i = __builtin_ctzll(*b);
    *b &= *b - 1;
    return i;
}

static inline uint64_t bits_sq(int sq) { return (uint64_t)1 << sq; }

#endif
