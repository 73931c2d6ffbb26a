/* clock.c -- a live game's Fischer clocks (clock.h); pure arithmetic on
 * times the caller gives. */
#include "clock.h"

void gclock_init(gclock *c, int64_t base_ms, int64_t inc_ms, int64_t lag_ms, int64_t now)
{
    c->base_ms = base_ms > 0 ? base_ms : 0;
    c->inc_ms = c->base_ms > 0 && inc_ms > 0 ? inc_ms : 0;
    c->lag_ms = lag_ms > 0 ? lag_ms : 0;
    for (int i = 0; i < GAME_MAX_SIDES; i++)
        c->left[i] = c->base_ms;
    c->began = now;
    c->held = 0;
    c->held_at = 0;
}

int gclock_timed(const gclock *c)
{
    return c->base_ms > 0;
}

/* Time side, to move, has used at now beyond the allowance. */
static int64_t used(const gclock *c, int64_t now)
{
    if (c->held)
        return 0;
    int64_t u = now - c->began - c->lag_ms;
    return u > 0 ? u : 0;
}

int64_t gclock_show(const gclock *c, int side, int running, int64_t now)
{
    int64_t t = c->left[side];
    if (running && gclock_timed(c))
        t -= used(c, now);
    return t > 0 ? t : 0;
}

int64_t gclock_charge(const gclock *c, int side, int64_t now, int inc)
{
    if (!gclock_timed(c))
        return c->left[side];
    int64_t t = c->left[side] - used(c, now);
    if (t <= 0)
        return 0;
    return inc ? t + c->inc_ms : t;
}

int64_t gclock_flag_at(const gclock *c, int side)
{
    if (!gclock_timed(c) || c->held)
        return -1;
    return c->began + c->lag_ms + c->left[side];
}

int gclock_fallen(const gclock *c, int side, int64_t now)
{
    int64_t at = gclock_flag_at(c, side);
    return at >= 0 && now >= at;
}

void gclock_set(gclock *c, int side, int64_t ms)
{
    c->left[side] = ms;
}

void gclock_turn(gclock *c, int64_t now)
{
    c->began = now;
}

void gclock_hold(gclock *c, int64_t now)
{
    c->held = 1;
    c->held_at = now;
}

void gclock_release(gclock *c, int64_t now)
{
    if (c->held)
        c->began = now;
    c->held = 0;
}

int64_t gclock_think(const gclock *c, int side, int64_t max_ms)
{
    int64_t think = 1000;
    if (gclock_timed(c)) {
        think = c->left[side] / 30 + c->inc_ms * 3 / 4;
        if (think < 50)
            think = 50;
    }
    if (max_ms > 0 && think > max_ms)
        think = max_ms;
    return think > 0 ? think : 1;
}
