/* ab_material.h -- `ab-material`, a reference opponent for Rampart: plain
 * iterative-deepening alpha-beta (negamax) on the engine's own position
 * type, with an evaluation that counts material and nothing else.
 *
 * It is kept to measure the real bots against (game_bot_info.offered is 0):
 * a player that sees every capture and enclosure within its horizon, plays
 * every game end exactly by the rules (R7), and knows nothing else about
 * the game. No transposition table, no quiescence, no pruning beyond
 * alpha-beta; captures (and enclosures) are tried first, the previous
 * iteration's line before them. So its strength is bought with speed
 * alone (docs/bots.md quotes the figure `citadel bench ab-material`
 * measures).
 *
 * Invariant: for a given seed and sequence of positions the moves are the
 * same in every run (the seed only shuffles the root moves, so that among
 * equally good moves the two seats of a match choose differently); a
 * finished fixed-depth search returns the negamax value of rp_ab_evaluate
 * over the legal move tree, game ends scored as the rules decide them.
 * A bot is used by one thread at a time.
 */
#ifndef CITADEL_RAMPART_AB_MATERIAL_H
#define CITADEL_RAMPART_AB_MATERIAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "rampart.h"

#define RP_AB_MAX_PLY 128
/* A game won p plies from the root scores RP_AB_WIN - p, lost the
 * negative, drawn 0; any score beyond RP_AB_WIN_MIN is a game end. */
#define RP_AB_WIN 30000
#define RP_AB_WIN_MIN (RP_AB_WIN - RP_AB_MAX_PLY)

/* What one piece is worth, by type (Q N K B), and what a Queen gains on
 * boards RP_AB_WIDE files wide or more; ab_material.c says why. */
extern const int rp_ab_value[RP_NTYPES];
#define RP_AB_QUEEN_WIDE 4
#define RP_AB_WIDE 7

typedef struct rp_ab rp_ab;

typedef struct rp_ab_report {
    int depth;          /* the last finished iteration, 0 if none */
    int score;          /* its score, for the side to move */
    uint64_t nodes;     /* positions visited, all iterations */
    uint64_t ms;
    int pvlen;
    game_move pv[RP_AB_MAX_PLY];
} rp_ab_report;

/* A bot whose ties follow seed; NULL if memory is short. */
rp_ab *rp_ab_new(uint64_t seed);
void rp_ab_free(rp_ab *ab);
/* A new game begins (nothing is carried over from the last one). */
void rp_ab_new_game(rp_ab *ab);

/* Searches pos (not changed) within lim (game.h; NULL for none) and
 * returns the move to play, or GAME_MOVE_NONE if the game is over. *stop
 * (may be NULL) becoming nonzero ends the search at once. The depth and
 * node limits are exact: no iteration deeper than lim->depth, no more
 * than lim->nodes positions. Once stopped, the last finished iteration's
 * move is played, or a root move the unfinished one searched to the end
 * and found better. The report, if last is not NULL, describes the last
 * finished iteration. */
game_move rp_ab_move(rp_ab *ab, const rp_pos *pos, const game_limits *lim, atomic_int *stop,
                     rp_ab_report *last);

/* The static score of pos for the side to move: rp_ab_value summed over
 * its pieces less the opponent's. */
int rp_ab_evaluate(const rp_pos *pos);

#endif
