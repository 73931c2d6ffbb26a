/* botapi.h -- the Bot API (botapi.c, docs/bot-api.md): tokens, the event
 * and game streams, and the requests of outside bots, each made the
 * server's own request of a client that stands for the token's player. */
#ifndef CITADEL_SERVER_BOTAPI_H
#define CITADEL_SERVER_BOTAPI_H

#include <jansson.h>

#include "lobby.h"
#include "server.h"

/* Answers a request under /api (path after "/api") if it is the Bot
 * API's: 1; 0 if it is not one of its routes. */
int botapi_http(srv *s, net_http *h, const net_request *req, const char *path);
/* A message the server sends to a Bot API client (client_send). */
void botapi_deliver(srv *s, client *c, json_t *msg);
/* A challenge as the API shows it (status "created", "accepted", ...;
 * game 0 if none). */
json_t *botapi_challenge_json(const seek *k, const char *status, int64_t game);
/* The server stops: streams ended, requests waiting answered, its
 * timer freed (srv_stop). */
void botapi_stop(srv *s);
void botapi_free(srv *s);

#endif
