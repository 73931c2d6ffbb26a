/* file.c -- file_read_all (file.h).
 *
 * Invariant: the buffer grows by doubling from 64 KiB and never past the
 * caller's bound; what is returned is always NUL-terminated.
 */
#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *file_read_all(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    if (errlen)
        err[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *more = cap < max ? realloc(buf, cap * 2) : NULL;
            if (!more) {
                if (cap < max)
                    snprintf(err, errlen, "%s: out of memory", path);
                else
                    snprintf(err, errlen, "%s: larger than %zu MiB", path, max >> 20);
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        if (got == 0) {
            if (ferror(f)) {
                snprintf(err, errlen, "cannot read %s", path);
                free(buf);
                buf = NULL;
            }
            break;
        }
        n += got;
    }
    if (!buf && n == 0 && !err[0])
        snprintf(err, errlen, "out of memory");
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}
