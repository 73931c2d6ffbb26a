/* sbuf.h -- a string that grows as it is written to, for the text the
 * server composes (markdown.c's HTML, mail_text.c's messages).
 *
 * The invariant: p is NUL-terminated whenever it is not NULL; once an
 * allocation fails, oom is set and every later write does nothing, so a
 * writer checks once, at the end.
 */
#ifndef CITADEL_SBUF_H
#define CITADEL_SBUF_H

#include <stdlib.h>
#include <string.h>

typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static inline void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static inline void sb_puts(sbuf *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

static inline void sb_putc(sbuf *b, char c)
{
    sb_put(b, &c, 1);
}

#endif
