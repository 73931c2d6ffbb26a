/* search_tool.c -- the alpha-beta searcher (search.h) as game.h's
 * game_searcher, the table the command line lends to a game's tools
 * (Rampart's `tune` and `train gen` play their games with it).
 *
 * The games stand below src/ai and never call it; a tool reaches this
 * searcher only through the table its caller passes down. Each entry is
 * the searcher's own call, nothing more: new_game is search_clear,
 * search_set_level and search_set_contempt, in that order.
 */
#include "search.h"

static void *tool_create(size_t hash_mb)
{
    return search_new(hash_mb);
}

static void tool_destroy(void *s)
{
    search_free(s);
}

static void tool_new_game(void *s, int level, uint64_t seed, int contempt)
{
    search_clear(s);
    search_set_level(s, level, seed);
    search_set_contempt(s, contempt);
}

static game_move tool_run(void *s, const game_variant *v, const void *pos,
                          const game_limits *lim, int *score)
{
    search_report rep;
    game_move m = search_run(s, v, pos, lim, NULL, NULL, NULL, score ? &rep : NULL);
    if (score)
        *score = rep.score;
    return m;
}

const game_searcher search_tool = {
    .levels = SEARCH_LEVELS,
    .create = tool_create,
    .destroy = tool_destroy,
    .new_game = tool_new_game,
    .run = tool_run,
};
