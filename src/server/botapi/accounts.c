/* accounts.c -- who a token acts for, at lichess's paths (docs/bot-api.md):
 * GET /api/account, POST /api/token/test, POST /api/bot/account/upgrade
 * and GET /api/bot/online.
 *
 * The invariant: a token is only ever read here (its account, its scopes),
 * never shown; the one write is the upgrade to a bot account, which is
 * for good and only for an account that has played no game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botapi_inside.h"

#define TOKENS_TESTED_MAX 100  /* tokens one /api/token/test may ask about */

/* POST /api/bot/account/upgrade */
static void upgrade_http(srv *s, net_http *h, const net_request *req)
{
    ident me;
    int64_t token;
    if (tokens_me(s, h, req, SC_BOT, &me, &token) != 0)
        return;
    store_err e;
    int rc = store_player_api_bot(s->st, me.id, &e);
    if (rc != 0) {
        reply_error(h, rc == STORE_NOT_FOUND ? 400 : 500,
                    rc == STORE_NOT_FOUND ? e.msg : "could not upgrade; try again");
        return;
    }
    for (apibot *b = api_bots(s); b; b = b->next) {
        client *c = b->player == me.id ? api_bot_client(b) : NULL;
        if (c)
            c->me.api_bot = 1;
    }
    reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
}

/* POST /api/token/test: for each token of the body (text, separated by
 * commas), {userId, scopes, expires} if it is a token of an open account,
 * else null. Nothing is written, and no token's request quota is taken. */
static void token_test_http(srv *s, net_http *h, const net_request *req)
{
    char *text = malloc(req->body_len + 1);
    if (!text) {
        reply_error(h, 500, "out of memory");
        return;
    }
    memcpy(text, req->body, req->body_len);
    text[req->body_len] = 0;
    json_t *out = json_object();
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(text, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        tok += strspn(tok, " \t\r\n");
        tok[strcspn(tok, " \t\r\n")] = 0;
        if (!tok[0])
            continue;
        if (++n > TOKENS_TESTED_MAX) {
            json_decref(out);
            free(text);
            reply_error(h, 400, "at most 100 tokens a request");
            return;
        }
        ident who;
        char scopes[96];
        if (json_object_get(out, tok) || json_object_set_new(out, tok, json_null()) != 0)
            continue;
        if (tokens_read(s, tok, &who, scopes, sizeof scopes) == 0) {
            char id[sizeof who.name];
            shape_user_id(who.name, id, sizeof id);
            json_object_set_new(out, tok, json_pack("{s:s, s:s, s:n}", "userId", id, "scopes",
                                                    scopes, "expires"));
        }
    }
    free(text);
    reply_json(h, 200, out, NULL);
}

/* GET /api/bot/online: the bots one may challenge now, one lichess User a
 * line: the server's own, then bot accounts using the API on this server. */
static void online_http(srv *s, net_http *h, const net_request *req)
{
    char nb[16];
    int max = req_query_param(req->query, "nb", nb, sizeof nb) == 1 ? atoi(nb) : 50;
    max = max < 1 ? 1 : max > 300 ? 300 : max;
    char site[200];
    ident_site(s, req, site, sizeof site);
    json_t *lines = json_array();
    for (int i = 0; i < s->nbots && (int)json_array_size(lines) < max; i++)
        json_array_append_new(lines, shape_account(s, &s->bots[i], site));
    for (apibot *b = api_bots(s); b && (int)json_array_size(lines) < max; b = b->next) {
        client *c = api_bot_client(b);
        if (c && c->me.api_bot && b->streams)
            json_array_append_new(lines, shape_account(s, &c->me, site));
    }
    size_t len = 0, cap = 256;
    char *body = malloc(cap);
    size_t i;
    json_t *u;
    json_array_foreach(lines, i, u) {
        char *l = json_dumps(u, JSON_COMPACT);
        size_t n = l ? strlen(l) : 0;
        if (body && len + n + 2 > cap) {
            char *more = realloc(body, cap = 2 * (len + n + 2));
            if (!more)
                free(body);
            body = more;
        }
        if (body && l) {
            memcpy(body + len, l, n);
            body[len + n] = '\n';
            len += n + 1;
        }
        free(l);
    }
    json_decref(lines);
    if (!body) {
        reply_error(h, 500, "out of memory");
        return;
    }
    net_http_reply(h, 200, "application/x-ndjson", NULL, body, len);
    free(body);
}

void accounts_http(srv *s, net_http *h, const net_request *req, const char *path)
{
    int get = strcmp(req->method, "GET") == 0, post = strcmp(req->method, "POST") == 0;
    ident me;
    int64_t token;
    char site[200];
    ident_site(s, req, site, sizeof site);
    if (strcmp(path, "/account") == 0 && get) {
        if (tokens_me(s, h, req, 0, &me, &token) == 0)
            reply_json(h, 200, shape_account(s, &me, site), NULL);
    } else if (strcmp(path, "/bot/account/upgrade") == 0 && post) {
        upgrade_http(s, h, req);
    } else if (strcmp(path, "/token/test") == 0 && post) {
        token_test_http(s, h, req);
    } else if (strcmp(path, "/bot/online") == 0 && get) {
        online_http(s, h, req);
    } else {
        reply_error(h, 405, "no such method here");
    }
}
