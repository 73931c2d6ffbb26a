/* root_rules.h -- the rules that keep moves from the strongest search's
 * root (expect.c): moves strong players do not make, whatever a short
 * search thinks of them.
 *
 * Invariant: a rule never leaves the root without a move; where it would
 * keep none, it keeps every move it was given.
 */
#ifndef CITADEL_STRATEGO_ROOT_RULES_H
#define CITADEL_STRATEGO_ROOT_RULES_H

#include "../game.h"
#include "expect.h"
#include "stratego.h"

/* Keeps, of the count legal moves in list for the side to move of view,
 * those the rules of `features` (STX_F_*) allow, in their order; returns
 * how many. */
int stx_root_rules(const st_pos *view, const st_belief *bl, unsigned features, game_move *list,
                   int count);

#endif
