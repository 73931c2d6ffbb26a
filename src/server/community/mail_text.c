/* mail_text.c -- the text of a mail (mail.h: mail_format) and the check
 * of an address (mail_address_ok): pure functions, no server, no network,
 * so the tests can hold them to RFC 5322, 2045 and 2047 directly.
 *
 * The invariant: what mail_format returns is one well-formed message
 * whose headers are exactly the ones it writes. Header values lose every
 * CR, LF and other control character (so no value can start a header of
 * its own); every line ends CRLF; no header line passes 998 bytes (a
 * Subject that is not plain short ASCII goes as RFC 2047 encoded-words of
 * at most 75 characters, one per folded line); and the body is sent 8bit
 * unless one of its lines would pass 998 bytes, when the whole body is
 * quoted-printable, whose lines are at most 76.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "../core/sbuf.h"
#include "mail.h"

#define LINE_MAX_BYTES 998   /* RFC 5322 2.1.1, without the CRLF */
#define QP_LINE 76           /* RFC 2045 6.7 */
#define WORD_BYTES 45        /* raw bytes per encoded-word: 60 base64, 72 with its frame */


/* A header value: CR, LF and the other control characters dropped (a tab
 * becomes a space). */
static void put_value(sbuf *b, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\t')
            sb_putc(b, ' ');
        else if (c >= 0x20 && c != 0x7f)
            sb_putc(b, (char)c);
    }
}

static void header(sbuf *b, const char *name, const char *value)
{
    sb_puts(b, name);
    sb_puts(b, ": ");
    put_value(b, value);
    sb_puts(b, "\r\n");
}

/* --- Date ---------------------------------------------------------------------- */

/* RFC 5322 3.3, in UTC: "Tue, 03 Jun 2025 10:00:00 +0000" (names written
 * here, not by the locale). */
static void put_date(sbuf *b, int64_t now_ms)
{
    static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    int64_t secs = now_ms / 1000 - (now_ms % 1000 < 0);
    time_t t = (time_t)secs;
    struct tm tm;
    if (!gmtime_r(&t, &tm)) {
        t = 0;
        gmtime_r(&t, &tm);
    }
    char text[96];
    snprintf(text, sizeof text, "%s, %02d %s %04d %02d:%02d:%02d +0000",
             days[(unsigned)tm.tm_wday % 7], tm.tm_mday, months[(unsigned)tm.tm_mon % 12],
             tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
    header(b, "Date", text);
}

/* --- Subject --------------------------------------------------------------------- */

/* The n bytes at s in standard base64 (libsodium's), n at most WORD_BYTES. */
static void put_base64(sbuf *b, const unsigned char *s, size_t n)
{
    char q[WORD_BYTES / 3 * 4 + 5];
    sodium_bin2base64(q, sizeof q, s, n, sodium_base64_VARIANT_ORIGINAL);
    sb_puts(b, q);
}

/* Whether the (cleaned) subject must be encoded: not ASCII, or looking
 * like an encoded-word itself ("=?"), or too long for one line. */
static int needs_words(const char *s, size_t n)
{
    if (n > 900)
        return 1;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80 || (s[i] == '=' && i + 1 < n && s[i + 1] == '?'))
            return 1;
    return 0;
}

/* RFC 2047 B encoded-words, each whole characters (a word never splits a
 * UTF-8 sequence), folded one to a line. */
static void put_subject(sbuf *b, const char *subject)
{
    sbuf clean = {0};
    put_value(&clean, subject);
    if (clean.oom) {
        b->oom = 1;
        return;
    }
    const char *s = clean.p ? clean.p : "";
    size_t n = clean.n;
    sb_puts(b, "Subject: ");
    if (!needs_words(s, n)) {
        sb_put(b, s, n);
    } else {
        size_t i = 0;
        while (i < n) {
            size_t k = n - i < WORD_BYTES ? n - i : WORD_BYTES;
            if (i + k < n) {
                size_t back = k;
                while (back > 0 && ((unsigned char)s[i + back] & 0xC0) == 0x80)
                    back--;
                if (back > 0)
                    k = back;  /* else not UTF-8 at all: cut anywhere */
            }
            if (i > 0)
                sb_puts(b, "\r\n ");
            sb_puts(b, "=?UTF-8?B?");
            put_base64(b, (const unsigned char *)s + i, k);
            sb_puts(b, "?=");
            i += k;
        }
    }
    sb_puts(b, "\r\n");
    free(clean.p);
}

/* --- the body -------------------------------------------------------------------- */

/* The body with every line ending (CRLF, CR, LF) made CRLF, ending with
 * one; *longest gets the longest line's length. */
static void normalise(sbuf *out, const char *body, size_t *longest)
{
    size_t line = 0;
    *longest = 0;
    for (const char *p = body ? body : ""; *p; p++) {
        if (*p == '\r' || *p == '\n') {
            if (*p == '\r' && p[1] == '\n')
                p++;
            sb_puts(out, "\r\n");
            line = 0;
            continue;
        }
        sb_putc(out, *p);
        if (++line > *longest)
            *longest = line;
    }
    if (out->n < 2 || out->p[out->n - 2] != '\r' || out->p[out->n - 1] != '\n')
        sb_puts(out, "\r\n");
}

/* Quoted-printable (RFC 2045 6.7) of CRLF-ended text: lines of at most 76
 * characters with soft breaks, '=' and all but printable ASCII encoded,
 * and a space or tab before a line end encoded. */
static void put_qp(sbuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t col = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\r' && i + 1 < n && s[i + 1] == '\n') {
            sb_puts(b, "\r\n");
            col = 0;
            i++;
            continue;
        }
        int at_end = i + 1 >= n || s[i + 1] == '\r';
        int encode = c == '=' || c > 126 || (c < 32 && c != '\t') ||
                     ((c == ' ' || c == '\t') && at_end);
        size_t width = encode ? 3 : 1;
        if (col + width > QP_LINE - 1) {
            sb_puts(b, "=\r\n");
            col = 0;
        }
        if (encode) {
            char e[3] = {'=', hex[c >> 4], hex[c & 15]};
            sb_put(b, e, 3);
        } else {
            sb_putc(b, (char)c);
        }
        col += width;
    }
}

/* --- the message ----------------------------------------------------------------- */

char *mail_format(const char *from, const char *to, const char *reply_to,
                  const char *subject, const char *body, int64_t now, const char *msgid)
{
    sbuf b = {0};
    put_date(&b, now);
    header(&b, "From", from);
    header(&b, "To", to);
    if (reply_to && *reply_to)
        header(&b, "Reply-To", reply_to);
    put_subject(&b, subject ? subject : "");
    if (msgid && *msgid) {
        sb_puts(&b, "Message-ID: ");
        if (msgid[0] != '<')
            sb_putc(&b, '<');
        put_value(&b, msgid);
        if (msgid[strlen(msgid) - 1] != '>')
            sb_putc(&b, '>');
        sb_puts(&b, "\r\n");
    }
    sb_puts(&b, "MIME-Version: 1.0\r\n");
    sb_puts(&b, "Content-Type: text/plain; charset=UTF-8\r\n");
    sbuf text = {0};
    size_t longest;
    normalise(&text, body, &longest);
    if (text.oom)
        b.oom = 1;
    if (longest > LINE_MAX_BYTES) {
        sb_puts(&b, "Content-Transfer-Encoding: quoted-printable\r\n\r\n");
        put_qp(&b, text.p ? text.p : "", text.n);
    } else {
        sb_puts(&b, "Content-Transfer-Encoding: 8bit\r\n\r\n");
        sb_put(&b, text.p ? text.p : "", text.n);
    }
    free(text.p);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* --- addresses ------------------------------------------------------------------- */

int mail_address_ok(const char *text)
{
    if (!text)
        return 0;
    size_t n = strlen(text);
    if (n < 3 || n > 254)
        return 0;
    const char *at = NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        /* printable ASCII, none of the characters that mean something in
         * a header's address list or an SMTP command */
        if (c <= 0x20 || c >= 0x7f || strchr("\"\\<>,;:()[]", c))
            return 0;
        if (c == '@') {
            if (at)
                return 0;
            at = text + i;
        }
    }
    if (!at || at == text || (size_t)(at - text) > 64)
        return 0;
    if (text[0] == '.' || at[-1] == '.')
        return 0;
    const char *domain = at + 1;
    size_t dn = strlen(domain);
    if (dn < 3 || !strchr(domain, '.') || domain[0] == '.' || domain[dn - 1] == '.' ||
        domain[0] == '-' || strstr(domain, ".."))
        return 0;
    return 1;
}
