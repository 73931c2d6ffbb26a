/* rating.c -- R8 Elo: start 1500, K 40 for a player's first 30 rated games in
 * a variant and 20 after; a sterile draw changes nothing. */
#include <math.h>

#include "rampart.h"

int rp_elo_k(int games)
{
    return games < 30 ? 40 : 20;
}

double rp_elo_update(double r, int games, double opp, double score, int sterile)
{
    if (sterile && score == 0.5)
        return r;
    double expected = 1.0 / (1.0 + pow(10.0, (opp - r) / 400.0));
    return r + rp_elo_k(games) * (score - expected);
}
