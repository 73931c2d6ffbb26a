/* tokens.c -- the Bot API's personal tokens (docs/bot-api.md): made,
 * listed and revoked by their account's owner (a session, never a token),
 * and read back from a request's Authorization header.
 *
 * The invariant: a token leaves the server once, in the answer that made
 * it; the store keeps its SHA-256 alone, and a request is let through only
 * if that hash names a token of an open account holding a scope asked for,
 * within the token's request rate.
 */
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "botapi.h"
#include "../core/http.h"
#include "../core/srv.h"

#define API_TOKEN_BYTES 20

static const char *const scope_names[] = {"bot:play", "board:play", "challenge:write"};

static void token_hash(const char *token, char hex[65])
{
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, (const unsigned char *)token, strlen(token));
    sodium_bin2hex(hex, 65, h, sizeof h);
}

static int scopes_parse(const char *text)
{
    int m = 0;
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(scope_names[i]);
        for (const char *p = text; (p = strstr(p, scope_names[i])); p += n)
            if ((p == text || p[-1] == ' ') && (p[n] == 0 || p[n] == ' '))
                m |= 1 << i;
    }
    return m;
}

static json_t *scopes_json(int m)
{
    json_t *a = json_array();
    for (int i = 0; i < 3; i++)
        if (m & (1 << i))
            json_array_append_new(a, json_string(scope_names[i]));
    return a;
}

/* The stored token whose text is tok: 0, STORE_NOT_FOUND, or the store's
 * error. */
static int token_find(srv *s, const char *tok, store_token *t)
{
    size_t n = strlen(tok);
    char hex[65];
    store_err e;
    if (n < 8 || n > 100 || strspn(tok, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
        return STORE_NOT_FOUND;
    token_hash(tok, hex);
    return store_token_by_hash(s->st, hex, t, &e);
}

/* 0 with who the player is if its account is open; -1 if not (or unread). */
static int account_open(srv *s, int64_t player, ident *me)
{
    store_standing st;
    store_err e;
    return ident_load(s, player, me) == 0 && store_standing_get(s->st, player, &st, &e) == 0 &&
                   !st.closed
               ? 0
               : -1;
}

int tokens_read(srv *s, const char *tok, ident *who, char *scopes, size_t size)
{
    store_token t;
    if (token_find(s, tok, &t) != 0 || account_open(s, t.player, who) != 0)
        return -1;
    int m = scopes_parse(t.scopes);
    scopes[0] = 0;
    for (int i = 0; i < 3; i++)
        if (m & (1 << i))
            snprintf(scopes + strlen(scopes), size - strlen(scopes), "%s%s",
                     scopes[0] ? "," : "", scope_names[i]);
    return 0;
}

/* The account a request's token acts for, if the token holds one of the
 * scopes in `want` (0: any): 0, or -1 after answering 401/429. */
int tokens_me(srv *s, net_http *h, const net_request *req, int want, ident *me,
                    int64_t *token_id)
{
    const char *a = req->authorization;
    if (strncasecmp(a, "Bearer ", 7) != 0) {
        reply_error(h, 401, "send a token: Authorization: Bearer <token> (docs/bot-api.md)");
        return -1;
    }
    store_token t;
    int rc = token_find(s, a + 7, &t);
    if (rc != 0) {
        reply_error(h, rc == STORE_NOT_FOUND ? 401 : 500,
                    rc == STORE_NOT_FOUND ? "no such token (revoked, or never made)"
                                          : "could not read the token; try again");
        return -1;
    }
    int has = scopes_parse(t.scopes);
    if (want && !(has & want)) {
        char need[96] = "";
        for (int i = 0; i < 3; i++)
            if (want & (1 << i))
                snprintf(need + strlen(need), sizeof need - strlen(need), "%s%s",
                         need[0] ? " or " : "", scope_names[i]);
        char msg[160];
        snprintf(msg, sizeof msg, "the token lacks the scope %s", need);
        reply_error(h, 401, msg);
        return -1;
    }
    if (account_open(s, t.player, me) != 0) {
        reply_error(h, 401, "the token's account is closed");
        return -1;
    }
    char key[48];
    snprintf(key, sizeof key, "api:%lld", (long long)t.id);
    int rate = s->cfg.limits[LIM_API_REQUESTS];
    if (rate > 0 && !quota_take(s->quota, key, 2 * rate, 2000, net_mono_ms())) {
        reply_limited(h, quota_retry_s(s->quota, key, 2 * rate, 2000, net_mono_ms()),
                      "too many requests with this token; slow down");
        return -1;
    }
    int64_t now = net_wall_ms();
    store_err e;
    if (now - t.used >= 60000)
        store_token_used(s->st, t.id, now, &e);  /* a note; its failure changes nothing */
    *token_id = t.id;
    return 0;
}

/* /api/account/tokens: the signed-in account's own (a session, not a token). */
void tokens_http(srv *s, net_http *h, const net_request *req, const char *rest)
{
    ident me;
    store_err e;
    if (ident_request_me(s, req, &me, NULL) != 0 || me.guest) {
        reply_error(h, 401, "sign in with an account to manage its tokens");
        return;
    }
    if (strcmp(req->method, "GET") == 0 && !rest[0]) {
        store_token t[STORE_TOKENS_PER_PLAYER];
        int n = store_tokens(s->st, me.id, t, STORE_TOKENS_PER_PLAYER, &e);
        if (n < 0) {
            reply_error(h, 500, "could not read the tokens; try again");
            return;
        }
        json_t *a = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(
                a, json_pack("{s:I, s:o, s:s, s:I, s:I}", "id", (json_int_t)t[i].id, "scopes",
                             scopes_json(scopes_parse(t[i].scopes)), "description",
                             t[i].description, "created", (json_int_t)t[i].created, "used",
                             (json_int_t)t[i].used));
        reply_json(h, 200, json_pack("{s:o}", "tokens", a), NULL);
        return;
    }
    if (strcmp(req->method, "DELETE") == 0 && rest[0] == '/') {
        const char *end;
        int64_t id = req_path_id(rest + 1, &end);
        if (id <= 0 || *end) {
            reply_error(h, 404, "no such token");
            return;
        }
        int rc = store_token_del(s->st, me.id, id, &e);
        if (rc != 0) {
            reply_error(h, rc == STORE_NOT_FOUND ? 404 : 500,
                        rc == STORE_NOT_FOUND ? "no such token" : "could not revoke; try again");
            return;
        }
        /* the streams it opened end with it, here and elsewhere */
        revoke_end(s, &(revoked){.kind = REVOKE_TOKEN, .player = me.id, .token = id});
        reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
        return;
    }
    if (strcmp(req->method, "POST") != 0 || rest[0]) {
        reply_error(h, 405, "GET or POST /api/account/tokens, DELETE /api/account/tokens/ID");
        return;
    }
    json_t *body = req_body_object(req, h);
    if (!body)
        return;
    json_t *scopes = json_object_get(body, "scopes"), *desc = json_object_get(body, "description");
    char text[STORE_TOKEN_SCOPES_MAX + 1] = "", err[160];
    int m = 0, bad = !json_is_array(scopes) || json_array_size(scopes) == 0 ||
                     json_array_size(scopes) > 3;
    for (size_t i = 0; !bad && i < json_array_size(scopes); i++) {
        const char *sc = json_string_value(json_array_get(scopes, i));
        int k = sc ? scopes_parse(sc) : 0;
        bad = !sc || !k || strlen(sc) != strlen(scope_names[__builtin_ctz((unsigned)k)]);
        m |= k;
    }
    const char *d = desc ? json_string_value(desc) : "";
    if (bad) {
        reply_error(h, 400, "scopes: a list of bot:play, board:play, challenge:write");
    } else if (!d || text_check(d, STORE_TOKEN_DESC_MAX, 0, 1, "description", err,
                                sizeof err) != 0) {
        reply_error(h, 400, d ? err : "description: a string");
    } else {
        char key[48];
        snprintf(key, sizeof key, "tokens:%lld", (long long)me.id);
        if (!quota_take(s->quota, key, s->cfg.limits[LIM_API_TOKENS], 3600 * 1000LL,
                        net_mono_ms())) {
            reply_limited(h,
                          quota_retry_s(s->quota, key, s->cfg.limits[LIM_API_TOKENS],
                                        3600 * 1000LL, net_mono_ms()),
                          "too many new tokens this hour");
            json_decref(body);
            return;
        }
        for (int i = 0; i < 3; i++)
            if (m & (1 << i))
                snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s",
                         text[0] ? " " : "", scope_names[i]);
        unsigned char raw[API_TOKEN_BYTES];
        char token[8 + 2 * API_TOKEN_BYTES + 1] = "cit_", hex[65];
        randombytes_buf(raw, sizeof raw);
        sodium_bin2hex(token + 4, sizeof token - 4, raw, sizeof raw);
        token_hash(token, hex);
        int64_t id;
        int rc = store_token_add(s->st, me.id, hex, text, d, net_wall_ms(), &id, &e);
        if (rc == STORE_TAKEN)
            reply_error(h, 400, e.msg);
        else if (rc != 0)
            reply_error(h, 500, "could not make the token; try again");
        else
            reply_json(h, 200, json_pack("{s:I, s:s}", "id", (json_int_t)id, "token", token),
                       NULL);
        sodium_memzero(token, sizeof token);
    }
    json_decref(body);
}
