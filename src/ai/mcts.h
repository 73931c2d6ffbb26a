/* mcts.h -- plain UCT Monte Carlo tree search over game.h (the "mcts" bot).
 *
 * UCT with C = sqrt(2), no heuristics, uniformly random playouts. Works for
 * any number of sides and teams. The tree is rebuilt for every move in a
 * node pool the searcher owns; see mcts.c for the design and the scoring.
 */
#ifndef CITADEL_MCTS_H
#define CITADEL_MCTS_H

#include <stdatomic.h>
#include <stdint.h>

#include "../games/game.h"
#include "search.h"

#define MCTS_PLAYOUT_PLIES 200        /* a playout stops here and material decides */
#define MCTS_MAX_NODES (2u << 20)     /* the pool never grows past this */
#define MCTS_DEFAULT_PLAYOUTS 10000   /* when lim sets neither time nor nodes */

typedef struct mcts mcts;

typedef struct mcts_stats {
    uint64_t playouts;
    uint64_t nodes;     /* tree nodes in use at the end */
    uint64_t ms;
    int full;           /* 1 if the pool ran out (it grows before the next move) */
} mcts_stats;

/* A searcher whose random choices follow seed; NULL if memory is short. */
mcts *mcts_new(uint64_t seed);
void mcts_free(mcts *m);

/* Searches pos (not changed) within lim: movetime, nodes (= playouts), the
 * side to move's clock and inc, infinite; depth is ignored. *stop (may be
 * NULL) ends it early. Returns the most visited move, GAME_MOVE_NONE if
 * the game is over. Fills *st if not NULL. */
game_move mcts_run(mcts *m, const game_variant *v, const void *pos, const search_limits *lim,
                   atomic_int *stop, mcts_stats *st);

#endif
