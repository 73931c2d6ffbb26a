/* registry.c -- every variant of every game, perft through game.h, and
 * the time plan every player reads its limits by. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "keeps-moats/keeps_moats.h"
#include "rampart/rampart.h"
#include "stratego/stratego.h"

static const game_variant *const variants[] = {
    &rp_variant_classic, &rp_variant_xl,      &rp_variant_six,
    &rp_variant_narrow,  &rp_variant_mini,    &rp_variant_shuffle,
    &st_variant,         &km_variant,         NULL,
};

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

const game_variant *const *game_variants(void)
{
    return variants;
}

const game_variant *game_variant_find(const char *name)
{
    for (int i = 0; variants[i]; i++)
        if (strcmp(variants[i]->name, name) == 0)
            return variants[i];
    return NULL;
}

uint64_t game_perft(const game_variant *v, void *pos, int depth)
{
    if (depth <= 0)
        return 1;
    game_move moves[GAME_MAX_MOVES];
    int n = v->ops->moves(pos, moves);
    if (depth == 1)
        return (uint64_t)n;
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        v->ops->make(pos, moves[i], undo);
        nodes += game_perft(v, pos, depth - 1);
        v->ops->unmake(pos, moves[i], undo);
    }
    return nodes;
}

uint64_t game_perft_fast(const game_variant *v, void *pos, int depth)
{
    return v->ops->perft ? v->ops->perft(pos, depth) : game_perft(v, pos, depth);
}
