/* botapi.c -- the Bot API's routes (docs/bot-api.md): a superset of
 * lichess's Bot and Board APIs for two-sided games, so that a lichess bot
 * client plays here unchanged, with Citadel's own routes beside them
 * (tokens, seeks, Stratego's setups).
 *
 * Only the routing is here: accounts.c answers who a token is,
 * challenges.c challenges and seeks, play.c the streams and the games;
 * streams.c keeps the players who use the API, shapes.c says what a game
 * looks like. The invariant: a path this file claims is answered by
 * exactly one route, once.
 */
#include <string.h>

#include "botapi_inside.h"

int botapi_http(srv *s, net_http *h, const net_request *req, const char *path)
{
    int get = strcmp(req->method, "GET") == 0;
    char trimmed[256];  /* a path's last slash is no part of it (some clients add one) */
    size_t n = strlen(path);
    if (n > 1 && n < sizeof trimmed && path[n - 1] == '/') {
        memcpy(trimmed, path, n - 1);
        trimmed[n - 1] = 0;
        path = trimmed;
    }
    if (strcmp(path, "/account/tokens") == 0 || strncmp(path, "/account/tokens/", 16) == 0)
        tokens_http(s, h, req, path + 15);
    else if ((strcmp(path, "/account") == 0 && get) || strcmp(path, "/bot/account/upgrade") == 0 ||
             strcmp(path, "/token/test") == 0 || strcmp(path, "/bot/online") == 0)
        accounts_http(s, h, req, path);
    else if (strcmp(path, "/account/playing") == 0 && get)
        play_playing_http(s, h, req);
    else if (strcmp(path, "/stream/event") == 0 && get)
        play_events_http(s, h, req);
    else if (strncmp(path, "/bot/game/", 10) == 0)
        play_game_http(s, h, req, path + 10, 0);
    else if (strncmp(path, "/board/game/", 12) == 0)
        play_game_http(s, h, req, path + 12, 1);
    else if (strcmp(path, "/bot/seek") == 0 || strncmp(path, "/bot/seek/", 10) == 0)
        seeks_http(s, h, req, path + 9);
    else if (strcmp(path, "/challenge") == 0 || strncmp(path, "/challenge/", 11) == 0)
        challenges_http(s, h, req, path[10] ? path + 11 : "");
    else
        return 0;
    return 1;
}
