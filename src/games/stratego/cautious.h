/* cautious.h -- "cautious", a reference Stratego opponent.
 *
 * A rule-based one-ply player for measuring the stronger bots against: it
 * plays sensibly, sees only its view (S8) and never attacks an unknown
 * piece with its three top ranks (cautious.c has the rules).
 * Deterministic for a seed; a bot is used by one thread at a time.
 */
#ifndef CITADEL_STRATEGO_CAUTIOUS_H
#define CITADEL_STRATEGO_CAUTIOUS_H

#include <stdint.h>

#include "../game.h"

typedef struct stcautious stcautious;

/* NULL if memory is short. */
stcautious *stcautious_new(uint64_t seed);
void stcautious_free(stcautious *b);
/* Forgets what it learnt in the last game (which enemy kinds died). */
void stcautious_new_game(stcautious *b);
/* A legal move for the side to move of `view` (a Stratego view of that
 * side), or GAME_MOVE_NONE if there is none. Allocates nothing. */
game_move stcautious_move(stcautious *b, const void *view);

#endif
