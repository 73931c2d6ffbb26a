/* pgn_cmd.h -- `citadel pgn check FILE`: every game of a PGN file read and
 * replayed through the engine (docs/pgn.md). */
#ifndef CITADEL_PGN_CMD_H
#define CITADEL_PGN_CMD_H

#include <stddef.h>

/* Runs the subcommand on its arguments (after "pgn"). Returns the exit
 * status: 0 when every game is sound, 1 when one is not (or the file has
 * none, or cannot be read), 2 on bad arguments. */
int pgn_main(int argc, char **argv);

#endif
