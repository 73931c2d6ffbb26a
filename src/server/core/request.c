/* request.c -- what the HTTP API's routes and the chat share: who is
 * asking, the checks every text a person writes passes, references to
 * players, roles, and the pieces of a request (query, path, body).
 *
 * The invariant: text a person wrote is stored only after req_text_check has
 * passed it (valid UTF-8, within its length, no control characters but
 * newlines and tabs in bodies), and only for someone req_may_write lets write
 * (not muted, not closed) -- both read from the store at the moment of
 * asking, so a mute or a closing takes effect on the next request.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "srv.h"
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

int req_text_check(const char *text, size_t max, int multiline, int may_be_empty,
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

json_t *req_player_ref(srv *s, int64_t id, const char *name)
{
    ident p;
    if (id > 0 && ident_load(s, id, &p) == 0)
        return ident_json(&p);
    return json_pack("{s:I, s:s, s:b, s:b}", "id", (json_int_t)(id > 0 ? id : 0), "name",
                     name ? name : "", "bot", 0, "guest", 0);
}

int req_may_write(srv *s, const ident *me, const store_standing *st, char *err, size_t errlen)
{
    store_standing now_st;
    store_err e;
    if (!st) {
        if (store_standing_get(s->st, me->id, &now_st, &e) != 0) {
            snprintf(err, errlen, "no such player");
            return 0;
        }
        st = &now_st;
    }
    if (st->closed) {
        snprintf(err, errlen, "this account is closed");
        return 0;
    }
    int64_t now = net_wall_ms();
    if (now < st->muted_until) {
        long long minutes = (st->muted_until - now + 59999) / 60000;
        snprintf(err, errlen, "you are muted for %lld more minute%s", minutes,
                 minutes == 1 ? "" : "s");
        return 0;
    }
    return 1;
}

const char *req_role_name(int role)
{
    switch (role) {
    case STORE_ROLE_MODERATOR:
        return "moderator";
    case STORE_ROLE_ADMIN:
        return "admin";
    default:
        return "player";
    }
}

int req_role_parse(const char *name)
{
    if (!name)
        return -1;
    if (strcmp(name, "player") == 0)
        return STORE_ROLE_PLAYER;
    if (strcmp(name, "moderator") == 0)
        return STORE_ROLE_MODERATOR;
    if (strcmp(name, "admin") == 0)
        return STORE_ROLE_ADMIN;
    return -1;
}

int req_query_page(const char *query)
{
    for (const char *p = query; p && *p;) {
        if (strncmp(p, "page=", 5) == 0) {
            char *end;
            long v = strtol(p + 5, &end, 10);
            if (end != p + 5 && (*end == 0 || *end == '&') && v >= 1 && v <= 100000)
                return (int)v;
            return 1;
        }
        p = strchr(p, '&');
        if (p)
            p++;
    }
    return 1;
}

int req_query_param(const char *query, const char *name, char *out, size_t size)
{
    /* the net gives the query decoded already (net.h) */
    size_t n = strlen(name);
    out[0] = 0;
    for (const char *p = query; p && *p;) {
        if (strncmp(p, name, n) == 0 && p[n] == '=') {
            const char *v = p + n + 1;
            size_t len = strcspn(v, "&");
            if (len >= size)
                return -1;
            memcpy(out, v, len);
            out[len] = 0;
            return 1;
        }
        p = strchr(p, '&');
        if (p)
            p++;
    }
    return 0;
}

int64_t req_path_id(const char *s, const char **rest)
{
    if (*s < '1' || *s > '9')
        return -1;
    int64_t id = 0;
    int n = 0;
    while (s[n] >= '0' && s[n] <= '9') {
        if (n == 18)
            return -1;  /* more digits than any id has; id * 10 would overflow */
        id = id * 10 + (s[n] - '0');
        n++;
    }
    *rest = s + n;
    return id;
}

int req_pages_of(int total, int per_page)
{
    return total <= 0 ? 1 : (total + per_page - 1) / per_page;
}

int req_is_staff(const store_standing *st)
{
    return st->role >= STORE_ROLE_MODERATOR;
}

json_t *req_body_object(const net_request *req, net_http *h)
{
    if (req->body_len == 0)
        return json_object();
    json_error_t je;
    json_t *body = json_loadb(req->body, req->body_len, 0, &je);
    if (!json_is_object(body)) {
        json_decref(body);
        reply_error(h, 400, "want a JSON object");
        return NULL;
    }
    return body;
}

void req_text_utf8(char *s)
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
