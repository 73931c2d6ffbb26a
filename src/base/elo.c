/* elo.c -- see elo.h. */
#include <math.h>

#include "elo.h"

int elo_k(int games)
{
    return games < 30 ? 40 : 20;
}

double elo_update(double r, int games, double opp, double score)
{
    double expected = 1.0 / (1.0 + pow(10.0, (opp - r) / 400.0));
    return r + elo_k(games) * (score - expected);
}
