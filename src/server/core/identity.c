/* identity.c -- who a visitor is, for every other file: the address its
 * quotas count, whether its Origin may act for it, its session (the
 * cookie, the player it names), the guests made for newcomers, and the
 * `ident` the server keeps of a player.
 *
 * The invariant: a visitor is a player only through a session the store
 * holds and has not expired (ident_session_player, ident_request_me), read at the
 * moment of asking, so a sign-out or a closed account takes effect on the
 * next request; no other file reads a cookie.
 */
#include <arpa/inet.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "identity.h"
#include "srv.h"

#define COOKIE "citadel_session"
#define HOUR_MS 3600000LL

/* --- origins and addresses ------------------------------------------------------- */

int ident_addr_parse(const char *text, unsigned char out[16])
{
    unsigned char v4[4];
    if (inet_pton(AF_INET6, text, out) == 1)
        return 0;
    if (inet_pton(AF_INET, text, v4) != 1)
        return -1;
    memset(out, 0, 10);  /* as ::ffff:a.b.c.d */
    out[10] = out[11] = 0xff;
    memcpy(out + 12, v4, 4);
    return 0;
}

/* a and b name the same address, however each is spelled ("::ffff:10.0.0.1"
 * is 10.0.0.1, "::1" is "0:0::1"); neither an address: 0. */
static int addr_same(const char *a, const char *b)
{
    unsigned char x[16], y[16];
    return ident_addr_parse(a, x) == 0 && ident_addr_parse(b, y) == 0 && memcmp(x, y, 16) == 0;
}

void ident_request_addr(srv *s, const net_request *req, char *out, size_t size)
{
    const char *peer = req->peer;
    char last[64] = "";
    if (s->cfg.proxy[0] && addr_same(req->peer, s->cfg.proxy)) {
        /* the proxy appends the address it saw: the last entry, and only
         * an address (anything else is not the proxy's doing, and counts
         * as the proxy itself) */
        const char *comma = strrchr(req->forwarded_for, ',');
        const char *p = comma ? comma + 1 : req->forwarded_for;
        p += strspn(p, " \t");
        size_t n = strcspn(p, " \t");
        unsigned char a[16];
        if (n < sizeof last && p[n + strspn(p + n, " \t")] == 0) {
            memcpy(last, p, n);
            last[n] = 0;
            if (ident_addr_parse(last, a) == 0)
                peer = last;
        }
    }
    quota_addr(peer, out, size);
}

int ident_origin_ok(srv *s, const net_request *req)
{
    const char *o = req->origin;
    if (!o[0])
        return 1;  /* not sent by a browser on another site's behalf */
    const char *scheme = s->cfg.behind_tls ? "https://" : "http://";
    size_t n = strlen(scheme);
    if (req->host[0] && strncmp(o, scheme, n) == 0 && strcasecmp(o + n, req->host) == 0)
        return 1;
    for (int i = 0; i < s->cfg.norigins; i++)
        if (strcasecmp(o, s->cfg.origins[i]) == 0)
            return 1;
    return 0;
}

void ident_site(srv *s, const net_request *req, char *out, size_t size)
{
    const char *host = req->host;
    size_t n = strlen(host);
    if (s->cfg.site[0])
        snprintf(out, size, "%s", s->cfg.site);
    else if (n > 0 && n < 128 && strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                             "0123456789.-:[]") == n)
        snprintf(out, size, "%s%s", s->cfg.behind_tls ? "https://" : "http://", host);
    else
        snprintf(out, size, "?");
}

/* --- sessions and guests ---------------------------------------------------------- */

void ident_cookie_header(srv *s, char *buf, size_t size, const char *token, int64_t max_ms)
{
    const char *secure = s->cfg.behind_tls ? "; Secure" : "";
    if (token)
        snprintf(buf, size,
                 "Set-Cookie: " COOKIE "=%s; Path=/; HttpOnly; SameSite=Lax%s; Max-Age=%lld\r\n",
                 token, secure, (long long)(max_ms / 1000));
    else
        snprintf(buf, size,
                 "Set-Cookie: " COOKIE "=; Path=/; HttpOnly; SameSite=Lax%s; Max-Age=0\r\n",
                 secure);
}

void ident_cookie_token(const char *cookie, char *token)
{
    token[0] = 0;
    for (const char *p = cookie; p && *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        if (strncmp(p, COOKIE "=", sizeof COOKIE) == 0) {
            p += sizeof COOKIE;
            size_t n = strcspn(p, "; ");
            if (n == 64) {
                memcpy(token, p, 64);
                token[64] = 0;
            }
            return;
        }
        p = strchr(p, ';');
    }
}

int ident_session_player(srv *s, const char *cookie, ident *out)
{
    char token[65];
    ident_cookie_token(cookie, token);
    if (!token[0])
        return -1;
    int64_t id;
    store_err e;
    if (store_session_player(s->st, token, net_wall_ms(), &id, &e) != 0)
        return -1;
    return ident_load(s, id, out);
}

int ident_session_new(srv *s, int64_t player, int64_t life_ms, char *token)
{
    ident_random_token(token, 32);
    store_err e;
    int64_t now = net_wall_ms();
    return store_session_add(s->st, token, player, now, now + life_ms, &e);
}

int ident_guest_new(srv *s, const char *addr, ident *out, char *token)
{
    /* 0, 1 if the address has made its guests for the hour, -1 if the store
     * refused */
    char key[96];
    snprintf(key, sizeof key, "guest:%s", addr);
    int burst = s->cfg.limits[LIM_GUESTS];
    int64_t now = net_mono_ms();
    if (!quota_take(s->quota, key, burst, HOUR_MS, now))
        return 1;
    store_err e;
    for (int tries = 0; tries < 5; tries++) {
        char hex[7], name[STORE_NAME_MAX + 1];
        ident_random_token(hex, 3);
        snprintf(name, sizeof name, "guest-%s", hex);
        int64_t id;
        int r = store_player_add(s->st, name, "", 0, 1, "", net_wall_ms(), &id, &e);
        if (r == STORE_TAKEN)
            continue;
        if (r != 0 || ident_session_new(s, id, SRV_GUEST_SESSION_MS, token) != 0)
            break;
        return ident_load(s, id, out);
    }
    quota_refund(s->quota, key, burst, HOUR_MS, now);  /* nothing was made */
    return -1;
}

int ident_guest_allowed(srv *s, const char *addr)
{
    char key[96];
    snprintf(key, sizeof key, "guest:%s", addr);
    int burst = s->cfg.limits[LIM_GUESTS];
    return burst <= 0 || quota_tokens(s->quota, key, burst, HOUR_MS, net_mono_ms()) >= 1.0;
}

void ident_guests_purge(srv *s)
{
    /* a guest still connected keeps its row (and so its id) however old its
     * session: it goes at the first purge after it leaves */
    size_t n_keep = 0, cap = 0;
    int64_t *keep = NULL;
    for (client *c = s->clients; c; c = c->next) {
        if (!c->me.guest)
            continue;
        if (n_keep == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            int64_t *k = realloc(keep, ncap * sizeof *k);
            if (!k) {
                free(keep);
                return;          /* no purge this time rather than a wrong one */
            }
            keep = k, cap = ncap;
        }
        keep[n_keep++] = c->me.id;
    }
    store_err e;
    int n = store_guests_purge(s->st, net_wall_ms(), keep, n_keep, &e);
    free(keep);
    if (n < 0)
        fprintf(stderr, "citadel serve: purging guests: %s\n", e.msg);
}

/* --- players ------------------------------------------------------------------------ */

void ident_random_token(char *out, size_t bytes)
{
    unsigned char raw[64];
    if (bytes > sizeof raw)
        bytes = sizeof raw;
    randombytes_buf(raw, bytes);
    sodium_bin2hex(out, bytes * 2 + 1, raw, bytes);
}

json_t *ident_json(const ident *p)
{
    return json_pack("{s:I, s:s, s:b, s:b}", "id", (json_int_t)p->id, "name", p->name, "bot",
                     p->bot || p->api_bot, "guest", p->guest);
}

void ident_of(const store_player *p, ident *out)
{
    memset(out, 0, sizeof *out);
    out->id = p->id;
    snprintf(out->name, sizeof out->name, "%s", p->name);
    out->bot = p->is_bot;
    out->guest = p->is_guest;
    out->api_bot = p->is_api_bot;
    snprintf(out->spec, sizeof out->spec, "%s", p->bot_spec);
}

int ident_load(srv *s, int64_t id, ident *out)
{
    store_player p;
    store_err e;
    if (store_player_by_id(s->st, id, &p, &e) != 0)
        return -1;
    ident_of(&p, out);
    return 0;
}

int ident_request_me(srv *s, const net_request *req, ident *me, store_standing *standing)
{
    if (ident_session_player(s, req->cookie, me) != 0)
        return -1;
    store_standing st;
    store_err e;
    if (store_standing_get(s->st, me->id, &st, &e) != 0 || st.closed)
        return -1;
    if (standing)
        *standing = st;
    return 0;
}
