/* pgn_check.h -- a record the server wrote, read by the strict PGN reader
 * of the tests (tests/pgn/strict_pgn.py) and by `citadel pgn check` (the
 * binary in $CITADEL), each from a file of its own. */
#ifndef CITADEL_TEST_PGN_CHECK_H
#define CITADEL_TEST_PGN_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 0 when both readers take text, else -1 after printing what they said
 * and the record (always printed, on stderr, when PGN_SHOW is set). */
static inline int pgn_check_both(const char *text)
{
    char path[] = "/tmp/citadel-record-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    size_t n = strlen(text);
    int ok = write(fd, text, n) == (ssize_t)n;
    close(fd);
    const char *bin = getenv("CITADEL") ? getenv("CITADEL") : "build/release/citadel";
    char cmd[512];
    if (ok) {
        snprintf(cmd, sizeof cmd, "python3 tests/pgn/strict_pgn.py %s >/dev/null || "
                                  "python3 tests/pgn/strict_pgn.py %s", path, path);
        ok = system(cmd) == 0;
    }
    if (ok) {
        snprintf(cmd, sizeof cmd, "%s pgn check %s >/dev/null || %s pgn check %s", bin, path,
                 bin, path);
        ok = system(cmd) == 0;
    }
    if (getenv("PGN_SHOW"))
        fputs(text, stderr);
    if (!ok)
        fprintf(stderr, "the record:\n%s\n", text);
    unlink(path);
    return ok ? 0 : -1;
}

#endif
