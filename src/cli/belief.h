/* belief.h -- `citadel belief`: a report of how good Stratego's belief
 * about unknown pieces is, over recorded games (belief.c). */
#ifndef CITADEL_CLI_BELIEF_H
#define CITADEL_CLI_BELIEF_H

/* argv: the records file; returns the exit status. */
int belief_main(int argc, char **argv);

#endif
