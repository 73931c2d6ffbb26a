/* pgn_cmd.h -- `citadel pgn check FILE`: every game of a PGN file read and
 * replayed through the engine (docs/pgn.md). */
#ifndef CITADEL_PGN_CMD_H
#define CITADEL_PGN_CMD_H

#include <stddef.h>

/* The limit on a PGN file's size that the command line reads. */
#define PGN_FILE_MAX ((size_t)256 << 20)

/* Runs the subcommand on its arguments (after "pgn"). Returns the exit
 * status: 0 when every game is sound, 1 when one is not (or the file has
 * none, or cannot be read), 2 on bad arguments. */
int pgn_main(int argc, char **argv);

/* The whole of the file at path, NUL-terminated, its length in *len;
 * NULL with a reason in err if it cannot be read or is larger than
 * PGN_FILE_MAX. The caller frees it. */
char *pgn_file_read(const char *path, size_t *len, char *err, size_t errlen);

#endif
