/* km_bots.h -- the Keeps & Moats bots and their four-seat matches.
 *
 * A bot is made from a spec:
 *   "random"            a uniformly random legal move
 *   "capture"           the most valuable capture (a King first; a Pawn's
 *                       release or assassination counts), else random
 *   "<style>=<level>"   the multi-player search (multi.h) with the
 *                       evaluation of the style: aggressive, balanced or
 *                       defensive; level 1 (one ply, blurred) to 5
 * A search spec may add "/paranoid" or "/maxn" (the default is paranoid,
 * the stronger in the measurements of docs/keeps-moats.md) and
 * "/nodes=N" or "/depth=N" limits of its own.
 *
 * km_match_main is `citadel match` for Keeps & Moats: bot A in one seat and
 * three copies of bot B in the others, A's seat rotating game by game.
 */
#ifndef CITADEL_KM_BOTS_H
#define CITADEL_KM_BOTS_H

#include <stddef.h>
#include <stdint.h>

#include "../games/game.h"

typedef struct kmbot kmbot;

/* NULL with a reason in err for a bad spec. */
kmbot *kmbot_new(const char *spec, uint64_t seed, char *err, size_t errlen);
void kmbot_free(kmbot *b);
const char *kmbot_name(const kmbot *b);
/* Starts the bot's random choices afresh. */
void kmbot_seed(kmbot *b, uint64_t seed);
/* A legal move of the side to move in pos (a keeps-moats position), or
 * GAME_MOVE_NONE when the game is over. */
game_move kmbot_move(kmbot *b, const void *pos);

/* `citadel match A B --variant keeps-moats [options]`; returns the exit
 * status (0 done, 2 bad arguments). */
int km_match_main(int argc, char **argv);

#endif
