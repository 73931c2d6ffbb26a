/* botapi.h -- the Bot API (botapi.c, docs/bot-api.md): tokens, the event
 * and game streams, and the requests of outside bots, each made the
 * server's own request of a client that stands for the token's player. */
#ifndef CITADEL_SERVER_BOTAPI_H
#define CITADEL_SERVER_BOTAPI_H

#include <jansson.h>

#include "../play/lobby.h"
#include "../core/srv.h"

/* Answers a request under /api (path after "/api") if it is the Bot
 * API's: 1; 0 if it is not one of its routes. */
int botapi_http(srv *s, net_http *h, const net_request *req, const char *path);
/* The server stops: streams ended, requests waiting answered, its
 * timer freed (srv_stop). */
void botapi_stop(srv *s);
void botapi_free(srv *s);
/* hooks.revoke_api (core/revoke.h): the streams a revoked token opened
 * end; a closed account's end, with its waiting requests and its client. */
void botapi_revoke(srv *s, const revoked *r);

/* tokens.c: scopes, as a mask */
enum { SC_BOT = 1, SC_BOARD = 2, SC_CHALLENGE = 4 };
/* The account a request's token acts for, if the token holds one of the
 * scopes in `want` (0: any), within its request rate: 0 with its id, or
 * -1 after answering 401, 429 or 500. */
int tokens_me(srv *s, net_http *h, const net_request *req, int want, ident *me,
              int64_t *token_id);
/* The open account a token's text acts for, and its scopes as lichess
 * writes them ("bot:play,challenge:write"): 0, or -1 if it is no token of
 * an open account. Counts against no quota. */
int tokens_read(srv *s, const char *tok, ident *who, char *scopes, size_t size);
/* /api/account/tokens[/ID] (rest: what follows "/api/account/tokens"). */
void tokens_http(srv *s, net_http *h, const net_request *req, const char *rest);

#endif
