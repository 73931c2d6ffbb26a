/* belief_net.c -- the learned belief's network (belief_net.h).
 *
 * Invariant: a pure function of the weights and the inputs.
 */
#include "belief_net.h"

void st_net_scores(const st_net *n, const float in[ST_DEED_INPUTS], float z[ST_NET_KINDS],
                   float hidden[ST_NET_HIDDEN])
{
    float h[ST_NET_HIDDEN];
    for (int j = 0; j < ST_NET_HIDDEN; j++) {
        float s = n->b1[j];
        for (int i = 0; i < ST_DEED_INPUTS; i++)
            s += in[i] * n->w1[i][j];
        h[j] = s > 0 ? s : 0;
        if (hidden)
            hidden[j] = h[j];
    }
    for (int k = 0; k < ST_NET_KINDS; k++) {
        float s = n->b2[k];
        for (int j = 0; j < ST_NET_HIDDEN; j++)
            s += h[j] * n->w2[j][k];
        z[k] = s;
    }
}
