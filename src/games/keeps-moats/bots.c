/* bots.c -- Keeps & Moats's own bots, offered through game.h's factory
 * (game_ops.bots, km_bots).
 *
 *   capture             the most valuable capture (a King first; a Pawn's
 *                       release or assassination counts), ties and quiet
 *                       positions at random
 *   "<style>=<level>"   src/ai's multi-player search (multi.h) valuing
 *                       positions by the style's weights (eval.c):
 *                       aggressive, balanced or defensive, level 1-5
 * The game plays "capture" itself; for the styles it gives src/ai only
 * what is its own: the evaluations, the levels below and km_move_gain as
 * the move hint. The generic "random" and "attacker" play it too.
 *
 * Levels: the depth in plies (one kingdom's move each), a node budget per
 * move and a blur of the evaluation that makes weaker levels err and every
 * level vary from game to game.
 *
 *   level  depth  nodes    blur
 *   1      1      -        60
 *   2      2      4000     30
 *   3      3      12000    15
 *   4      4      40000    8
 *   5      5      150000   4
 *
 * Invariant: a bot here answers a legal move of the position it is given,
 * or GAME_MOVE_NONE once the game is over; its choices follow its seed.
 */
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "keeps_moats.h"

static const game_bot_info km_list[] = {
    { "capture", "takes the most valuable piece it can (a King first), else a random move", 1 },
    { "aggressive=N", "multi-player search that hunts Kings and Keeps, N 1 (one ply) to 5", 1 },
    { "balanced=N", "multi-player search weighing attack and defence evenly, N 1 to 5", 1 },
    { "defensive=N", "multi-player search that guards its King and Keep first, N 1 to 5", 1 },
    { NULL, NULL, 0 },
};

static void eval_aggressive(const void *pos, int out[GAME_MAX_SIDES])
{
    km_eval(pos, &km_styles[KM_AGGRESSIVE], out);
}

static void eval_balanced(const void *pos, int out[GAME_MAX_SIDES])
{
    km_eval(pos, &km_styles[KM_BALANCED], out);
}

static void eval_defensive(const void *pos, int out[GAME_MAX_SIDES])
{
    km_eval(pos, &km_styles[KM_DEFENSIVE], out);
}

static const game_bot_style km_style_list[] = {
    { "aggressive", eval_aggressive },
    { "balanced", eval_balanced },
    { "defensive", eval_defensive },
    { NULL, NULL },
};

static const game_bot_level km_levels[] = {
    { 1, 0, 60 }, { 2, 4000, 30 }, { 3, 12000, 15 }, { 4, 40000, 8 }, { 5, 150000, 4 },
};

static int hint(const void *pos, game_move m)
{
    return km_move_gain(pos, m);
}

/* --- capture ------------------------------------------------------------ */

static int km_owns(const game_variant *v, const char *spec)
{
    (void)v;
    return strcmp(spec, "capture") == 0;
}

static void *km_create(const game_variant *v, const char *spec, uint64_t seed)
{
    (void)v;
    (void)spec;
    rng *g = malloc(sizeof *g);
    if (g)
        rng_seed(g, seed);
    return g;
}

static void km_destroy(void *bot)
{
    free(bot);
}

static void km_new_game(void *bot)
{
    (void)bot;
}

static game_move km_move(void *bot, const void *vpos, const game_limits *lim, atomic_int *stop)
{
    (void)lim;
    (void)stop;
    rng *g = bot;
    const km_pos *pos = vpos;
    game_move list[KM_MAX_MOVES];
    int n = km_legal(pos, list);
    if (n == 0)
        return GAME_MOVE_NONE;
    int best = 0, ties = 0;
    game_move pick = list[rng_below(g, (uint64_t)n)];
    for (int i = 0; i < n; i++) {
        int gain = km_move_gain(pos, list[i]);
        if (gain <= 0 || gain < best)
            continue;
        if (gain > best) {
            best = gain;
            ties = 0;
        }
        if (rng_below(g, (uint64_t)++ties) == 0)
            pick = list[i];
    }
    return pick;
}

const game_bot_ops km_bots = {
    .list = km_list,
    .owns = km_owns,
    .create = km_create,
    .destroy = km_destroy,
    .new_game = km_new_game,
    .move = km_move,
    .styles = km_style_list,
    .levels = km_levels,
    .nlevels = (int)(sizeof km_levels / sizeof km_levels[0]),
    .hint = hint,
};
