/* elo.h -- the Elo ladder rule of the rated games (Rampart R8): a player
 * starts at 1500; K is 40 for the first 30 rated games in a variant and 20
 * after. */
#ifndef CITADEL_ELO_H
#define CITADEL_ELO_H

#define ELO_START 1500.0

int elo_k(int games);
/* The new rating of a player rated r with `games` rated games before this
 * one, after scoring `score` (1, 0.5, 0) against a player rated opp. */
double elo_update(double r, int games, double opp, double score);

#endif
