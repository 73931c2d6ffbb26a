/* match_cmd.h -- `citadel match A B [options]`: bot against bot. */
#ifndef CITADEL_MATCH_CMD_H
#define CITADEL_MATCH_CMD_H

/* Runs the subcommand on its arguments (after "match"). Returns the exit
 * status: 0 after a completed match, 1 if it could not be played to the
 * end, 2 on bad arguments (after printing what is wrong and the usage). */
int match_main(int argc, char **argv);

#endif
