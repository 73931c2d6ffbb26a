/* multi_bot.h -- the style bots: the multi-player search (multi.h) built
 * from what a game offers through game.h (game_bot_ops: its evaluation
 * styles, its levels and a move hint), for any game that offers styles.
 *
 * A spec is "<style>=<level>" with a style the game names and a level 1 ..
 * nlevels, optionally followed by "/paranoid" or "/maxn" (the algorithm;
 * paranoid by default, the stronger in the measurements of
 * docs/keeps-moats.md), "/nodes=N" (0 = no budget) and "/depth=N", which
 * replace the level's. The bot thinks by these alone: the caller's limits
 * and stop flag do not reach the search, which has no clock.
 *
 * Nothing here knows a game: it reads game.h only. A bot is used by one
 * thread at a time.
 */
#ifndef CITADEL_MULTI_BOT_H
#define CITADEL_MULTI_BOT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../games/game.h"

/* The suffixes a style bot reads, for help texts. */
#define MULTIBOT_OPTIONS "/paranoid, /maxn, /nodes=N, /depth=N"

typedef struct multibot multibot;

/* Whether spec is a style bot of v's game: 1 if it is; 0 if it names none
 * of the game's styles (or the game has none); -1 if it names one but its
 * level or suffixes are wrong, with why in err (if not NULL). */
int multibot_check(const game_variant *v, const char *spec, char *err, size_t errlen);

/* A style bot for v whose random choices follow seed; NULL if
 * multibot_check(v, spec) is not 1 or memory is short. */
multibot *multibot_new(const game_variant *v, const char *spec, uint64_t seed);
void multibot_free(multibot *b);

/* The bot's move for the side to move of pos, a position of the bot's
 * variant; GAME_MOVE_NONE once the game is over. *stop (may be NULL)
 * becoming nonzero asks for a move at once. */
game_move multibot_move(multibot *b, const void *pos, atomic_int *stop);

#endif
