/* belief_net.h -- a learned belief: the chance of each rank for an enemy
 * piece that moved, from what it has done (dossier.h).
 *
 * A small network, the inputs of st_dossier_inputs, one hidden layer of
 * ST_NET_HIDDEN rectified units, and a score for each kind that moves
 * (Spy to Marshal); the chance of kind k is proportional to how many
 * pieces of kind k the enemy may still have unknown, times e to the score.
 * The weights the bots use (st_net_trained, belief_net_data.c) are fitted
 * to recorded games by `citadel belief-fit` (tool_belief_fit.c).
 */
#ifndef CITADEL_STRATEGO_BELIEF_NET_H
#define CITADEL_STRATEGO_BELIEF_NET_H

#include "dossier.h"

#define ST_NET_HIDDEN 32
#define ST_NET_KINDS 10  /* ST_SPY .. ST_MARSHAL */

typedef struct st_net {
    float w1[ST_DEED_INPUTS][ST_NET_HIDDEN];
    float b1[ST_NET_HIDDEN];
    float w2[ST_NET_HIDDEN][ST_NET_KINDS];
    float b2[ST_NET_KINDS];
} st_net;

extern const st_net st_net_trained;

/* The scores of kinds ST_SPY..ST_MARSHAL (z[k - ST_SPY]); hidden, if not
 * NULL, receives the hidden layer. */
void st_net_scores(const st_net *n, const float in[ST_DEED_INPUTS], float z[ST_NET_KINDS],
                   float hidden[ST_NET_HIDDEN]);

#endif
