/* file.h -- a whole file read into memory, for the command line's tools.
 *
 * The one reader of files below the command line: games and their tools
 * read text through it (PGN records, a match's openings), bounded by a
 * size the caller names.
 */
#ifndef CITADEL_FILE_H
#define CITADEL_FILE_H

#include <stddef.h>

/* The whole of the file at path, NUL-terminated, its length in *len; NULL
 * with a reason in err (errlen bytes) if it cannot be read or is larger
 * than max bytes (a whole number of MiB). The caller frees it. */
char *file_read_all(const char *path, size_t max, size_t *len, char *err, size_t errlen);

#endif
