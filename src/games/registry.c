/* registry.c -- every variant of every game, and perft through game.h.
 *
 * The top of src/games: it lists each game's variants (their headers are
 * its only private includes) and nothing in a game calls it; the helpers
 * every game calls (game_fail, game_plan_time) are game.c's.
 */
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
