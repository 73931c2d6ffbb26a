/* timer.h -- monotonic time for measurements and clocks. */
#ifndef CITADEL_TIMER_H
#define CITADEL_TIMER_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds on the monotonic clock; only differences mean anything. */
static inline uint64_t timer_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif
