/* bots.c -- Rampart's own bots, offered through game.h's factory
 * (game_ops.bots, rp_bots).
 *
 *   ab-material    ab_material.h's reference opponent: plain alpha-beta,
 *                  material only, kept to measure the levels against (not
 *                  offered on the page)
 * The levels themselves ("level=N") are src/ai's generic searcher, which
 * plays Rampart through game.h; nothing here changes them.
 *
 * Invariant: rp_owns accepts exactly the specs rp_create makes, for every
 * Rampart variant (the engine plays any board size); this file only
 * dispatches to ab_material.h.
 */
#include <string.h>

#include "ab_material.h"
#include "rampart.h"

static const game_bot_info rp_list[] = {
    { "ab-material", "plain alpha-beta that counts material only (Queen 104, Knight 102, "
                     "King 100, Blocker 10), kept to measure the levels against", 0 },
    { NULL, NULL, 0 },
};

static int rp_owns(const game_variant *v, const char *spec)
{
    (void)v;
    return strcmp(spec, "ab-material") == 0;
}

static void *rp_create(const game_variant *v, const char *spec, uint64_t seed)
{
    return rp_owns(v, spec) ? rp_ab_new(seed) : NULL;
}

static void rp_destroy(void *bot)
{
    rp_ab_free(bot);
}

static void rp_new_game(void *bot)
{
    rp_ab_new_game(bot);
}

static game_move rp_move(void *bot, const void *view, const game_limits *lim, atomic_int *stop)
{
    return rp_ab_move(bot, view, lim, stop, NULL);
}

const game_bot_ops rp_bots = {
    .list = rp_list,
    .owns = rp_owns,
    .create = rp_create,
    .destroy = rp_destroy,
    .new_game = rp_new_game,
    .move = rp_move,
};
