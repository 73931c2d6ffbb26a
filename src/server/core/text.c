/* text.c -- text from outside, as the server takes it: checked before it
 * is stored (text_check), or made valid UTF-8 before it is sent back
 * quoted in an error (text_utf8).
 *
 * The invariant: text a person wrote is stored only after text_check has
 * passed it (valid UTF-8, within its length, no control characters but
 * newlines and tabs in bodies); every string the server puts in JSON is
 * valid UTF-8.
 */
#include <stdio.h>
#include <string.h>

#include "http.h"

/* The length of the UTF-8 character at p (at most n bytes there), or 0 if
 * it is not one (overlong forms, surrogates and beyond U+10FFFF too). */
static size_t utf8_char(const unsigned char *p, size_t n, unsigned *cp)
{
    if (p[0] < 0x80) {
        *cp = p[0];
        return 1;
    }
    size_t len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (len == 0 || p[0] > 0xf4 || len > n)
        return 0;
    unsigned c = p[0] & (0x7fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3fu);
    }
    if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
        (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return len;
}

int text_check(const char *text, size_t max, int multiline, int may_be_empty,
               const char *what, char *err, size_t errlen)
{
    if (!text) {
        snprintf(err, errlen, "want %s (text)", what);
        return -1;
    }
    size_t n = strlen(text);
    if (n == 0 && !may_be_empty) {
        snprintf(err, errlen, "the %s is empty", what);
        return -1;
    }
    if (n > max) {
        snprintf(err, errlen, "the %s is too long (at most %zu bytes)", what, max);
        return -1;
    }
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < n;) {
        unsigned cp;
        size_t len = utf8_char(p + i, n - i, &cp);
        if (len == 0) {
            snprintf(err, errlen, "the %s is not valid UTF-8", what);
            return -1;
        }
        int allowed = cp >= 0x20 || (multiline && (cp == '\n' || cp == '\t' || cp == '\r'));
        /* C1 controls, DEL, and the bidirectional overrides that make text
         * read differently from what it is */
        if (cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) ||
            (cp >= 0x2066 && cp <= 0x2069))
            allowed = 0;
        if (!allowed) {
            snprintf(err, errlen, "the %s holds a control character (U+%04X)", what, cp);
            return -1;
        }
        i += len;
    }
    /* whitespace alone is empty too */
    if (!may_be_empty && strspn(text, " \t\r\n") == n) {
        snprintf(err, errlen, "the %s is empty", what);
        return -1;
    }
    return 0;
}

void text_utf8(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3
              : (*p & 0xf8) == 0xf0 ? 4 : 0;
        int ok = n > 0;
        for (int i = 1; ok && i < n; i++)
            ok = (p[i] & 0xc0) == 0x80;
        if (ok && n > 1) {
            /* no overlong forms, no surrogates, nothing past U+10FFFF */
            unsigned cp = n == 2 ? (p[0] & 0x1fu) << 6 | (p[1] & 0x3fu)
                        : n == 3 ? (p[0] & 0x0fu) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu)
                                 : (p[0] & 0x07u) << 18 | (p[1] & 0x3fu) << 12 |
                                       (p[2] & 0x3fu) << 6 | (p[3] & 0x3fu);
            ok = cp >= (n == 2 ? 0x80u : n == 3 ? 0x800u : 0x10000u) &&
                 !(cp >= 0xd800 && cp <= 0xdfff) && cp <= 0x10ffff;
        }
        if (!ok) {
            *p++ = '?';
            continue;
        }
        p += n;
    }
}
