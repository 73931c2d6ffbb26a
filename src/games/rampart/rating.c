/* rating.c -- R8 Elo: start 1500, K 40 for a player's first 30 rated games in
 * a variant and 20 after; a sterile draw changes nothing. */
#include "../../base/elo.h"
#include "rampart.h"

int rp_elo_k(int games)
{
    return elo_k(games);
}

double rp_elo_update(double r, int games, double opp, double score, int sterile)
{
    if (sterile && score == 0.5)
        return r;
    return elo_update(r, games, opp, score);
}
