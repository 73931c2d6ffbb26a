/* game.c -- the helpers game.h gives every game: the shared way of
 * reporting an error (game_fail) and the time plan every player reads its
 * limits by (game_plan_time).
 *
 * The bottom of src/games: it knows no game and calls nothing of them, so
 * that every game may call it without a circle (registry.c, which lists
 * the games, sits on top of them instead).
 */
#include <stdarg.h>
#include <stdio.h>

#include "game.h"

void game_plan_time(const game_limits *lim, int side, int64_t *soft_ms, int64_t *hard_ms)
{
    *soft_ms = *hard_ms = 0;
    if (lim->movetime > 0) {
        /* The time is the move's alone: nothing is saved by stopping early,
         * and an unfinished iteration still improves the move. */
        *hard_ms = lim->movetime;
        return;
    }
    if (lim->infinite || lim->time[side] < 0)
        return;
    int64_t left = lim->time[side], inc = lim->inc[side] > 0 ? lim->inc[side] : 0;
    int64_t margin = left / 20 < 50 ? left / 20 : 50;  /* lag allowance */
    int64_t usable = left - margin;
    if (usable < 1)
        usable = 1;
    int64_t soft = usable / 30 + inc * 3 / 4, hard = soft * 4;
    if (hard > usable / 3 + inc)
        hard = usable / 3 + inc;
    if (hard > usable)
        hard = usable;
    if (soft > hard)
        soft = hard;
    if (hard < 1)
        hard = soft = 1;
    *soft_ms = soft;
    *hard_ms = hard;
}

int game_fail(game_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}
