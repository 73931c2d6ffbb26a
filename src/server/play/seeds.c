/* seeds.c -- the seed ratings of the server's own bots, per rated variant
 * (seeds.h says what they are for and the invariant they keep).
 *
 * Measured with `bash tools/measure-bots seeds`: each Rampart bot against
 * its neighbours with `citadel match`, 100 ms a move, move limit 100, one
 * game at a time; the Elo differences chained, level 1 at 1500 (a
 * newcomer's start under R8, and the level that plays like one), rounded
 * to 10. The games, scores and intervals are in docs/bots.md, "Where bots
 * enter the ladder". Stratego's bots are not measured here: they start at
 * 1500 like everyone.
 */
#include <string.h>

#include "../../base/elo.h"
#include "seeds.h"

/* The rated variants the table covers, in the order of its columns. */
static const char *const variants[] = { "rampart", "rampart-xl" };
#define NVARIANTS (sizeof variants / sizeof variants[0])

static const struct {
    const char *name;
    double seed[NVARIANTS];
} seeds[] = {
    /*                   Classic  XL */
    { "bot-random",   { 400,   200 } },   /* the distance its losses prove */
    { "bot-greedy",   { 1100,  1030 } },
    { "bot-attacker", { 1110,  1050 } },
    { "bot-level1",   { 1500,  1500 } },  /* the anchor */
    { "bot-mcts",     { 1570,  1590 } },
    { "bot-level2",   { 2160,  2160 } },
    { "bot-level3",   { 2450,  2370 } },
    { "bot-level4",   { 2520,  2540 } },
    { "bot-level5",   { 2800,  2790 } },
    { "bot-level6",   { 2970,  3000 } },
};

double seed_rating(const ident *who, const char *variant)
{
    if (!who->bot || who->api_bot)
        return ELO_START;  /* people, and bots that play through the Bot API */
    for (size_t v = 0; v < NVARIANTS; v++) {
        if (strcmp(variant, variants[v]) != 0)
            continue;
        for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
            if (strcmp(who->name, seeds[i].name) == 0)
                return seeds[i].seed[v];
    }
    return ELO_START;
}
