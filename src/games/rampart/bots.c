/* bots.c -- Rampart's own bots, offered through game.h's factory
 * (game_ops.bots, rp_bots).
 *
 *   ab-material    ab_material.h's reference opponent: plain alpha-beta,
 *                  material only, kept to measure the levels against (not
 *                  offered on the page)
 * The levels themselves ("level=N") are src/ai's generic searcher, which
 * plays Rampart through game.h; nothing here changes them.
 *
 * Each bot keeps its last move's report (game_bot_ops.report: `citadel
 * bench ab-material` prints it); it has no analyst.
 *
 * Invariant: rp_owns accepts exactly the specs rp_create makes, for every
 * Rampart variant (the engine plays any board size); this file only
 * dispatches to ab_material.h.
 */
#include <stdlib.h>
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

/* A bot: the searcher and the report of its last move. */
typedef struct rp_bot {
    rp_ab *ab;
    int moved;               /* 1 once it has a report */
    rp_ab_report last;
} rp_bot;

static void *rp_create(const game_variant *v, const char *spec, uint64_t seed)
{
    if (!rp_owns(v, spec))
        return NULL;
    rp_bot *b = calloc(1, sizeof *b);
    if (b && !(b->ab = rp_ab_new(seed))) {
        free(b);
        b = NULL;
    }
    return b;
}

static void rp_destroy(void *bot)
{
    rp_bot *b = bot;
    if (b)
        rp_ab_free(b->ab);
    free(b);
}

static void rp_new_game(void *bot)
{
    rp_ab_new_game(((rp_bot *)bot)->ab);
}

static game_move rp_move(void *bot, const void *view, const game_limits *lim, atomic_int *stop)
{
    rp_bot *b = bot;
    b->moved = 1;
    return rp_ab_move(b->ab, view, lim, stop, &b->last);
}

static int rp_report(const void *bot, int *depth, int *score, uint64_t *nodes)
{
    const rp_bot *b = bot;
    if (!b->moved)
        return -1;
    *depth = b->last.depth;
    *score = b->last.score;
    *nodes = b->last.nodes;
    return 0;
}

const game_bot_ops rp_bots = {
    .list = rp_list,
    .owns = rp_owns,
    .create = rp_create,
    .destroy = rp_destroy,
    .new_game = rp_new_game,
    .move = rp_move,
    .report = rp_report,
};
