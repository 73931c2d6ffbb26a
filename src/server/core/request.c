/* request.c -- what the HTTP API's routes and the chat share: who is
 * asking, references to players, roles, and the pieces of a request
 * (query, path, body). Text's own checks are text.c.
 *
 * The invariant: text a person wrote is stored only for someone
 * req_may_write lets write
 * (not muted, not closed) -- both read from the store at the moment of
 * asking, so a mute or a closing takes effect on the next request.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http.h"
#include "srv.h"

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

json_t *req_body_strict(const net_request *req, net_http *h)
{
    json_error_t jerr;
    json_t *body = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!body || !json_is_object(body)) {
        char msg[240];
        snprintf(msg, sizeof msg, "malformed JSON: %s", body ? "not an object" : jerr.text);
        reply_error(h, 400, msg);
        json_decref(body);
        return NULL;
    }
    return body;
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

int req_type_is(const char *ct, const char *type)
{
    size_t n = strlen(type);
    return ct && strncasecmp(ct, type, n) == 0 && (ct[n] == 0 || ct[n] == ';' || ct[n] == ' ');
}

/* Decodes one form word (from..to: '+' a space, %XX a byte) into out
 * (size > to - from): 0, or -1 if a % is not followed by two hex digits. */
static int form_word(const char *from, const char *to, char *out)
{
    size_t n = 0;
    for (const char *p = from; p < to; p++) {
        if (*p == '+') {
            out[n++] = ' ';
        } else if (*p == '%') {
            if (to - p < 3 || !isxdigit((unsigned char)p[1]) || !isxdigit((unsigned char)p[2]))
                return -1;
            char hex[3] = {p[1], p[2], 0};
            out[n++] = (char)strtol(hex, NULL, 16);
            p += 2;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = 0;
    return 0;
}

json_t *req_body_fields(const net_request *req, net_http *h)
{
    if (!req_type_is(req->content_type, "application/x-www-form-urlencoded"))
        return req_body_object(req, h);
    json_t *body = json_object();
    char *buf = malloc(req->body_len + 2);  /* a key and its value, each ended */
    const char *at = req->body, *end = req->body + req->body_len;
    const char *why = buf ? NULL : "out of memory";
    while (!why && at < end) {
        const char *amp = memchr(at, '&', (size_t)(end - at));
        const char *stop = amp ? amp : end;
        const char *eq = memchr(at, '=', (size_t)(stop - at));
        if (stop > at) {
            char *key = buf;
            if (form_word(at, eq ? eq : stop, key) != 0) {
                why = "malformed form: a % not followed by two hex digits";
                break;
            }
            char *value = key + strlen(key) + 1;
            if (form_word(eq ? eq + 1 : stop, stop, value) != 0) {
                why = "malformed form: a % not followed by two hex digits";
                break;
            }
            json_t *v = json_string(value);
            if (!key[0])
                why = "malformed form: a field without a name";
            else if (json_object_get(body, key))
                why = "malformed form: a field given twice";
            else if (!v || json_object_set(body, key, v) != 0)
                why = "malformed form: a field that is not UTF-8";
            json_decref(v);
        }
        at = stop + 1;
    }
    free(buf);
    if (why) {
        json_decref(body);
        reply_error(h, 400, why);
        return NULL;
    }
    return body;
}
