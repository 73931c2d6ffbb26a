/* botapi_inside.h -- what the Bot API's files share (not for the rest of
 * the server, which sees botapi.h): the player who uses the API and its
 * streams (streams.c), lichess's shapes of games, challenges and players
 * (shapes.c), and the routes (play.c, challenges.c, accounts.c), which
 * botapi.c calls by path.
 *
 * The layers, each looking only down: botapi.c routes; play.c,
 * challenges.c and accounts.c answer; streams.c holds the apibots and
 * their streams; shapes.c turns a game, a challenge or a player into
 * lichess's JSON and knows nothing of streams.
 */
#ifndef CITADEL_SERVER_BOTAPI_INSIDE_H
#define CITADEL_SERVER_BOTAPI_INSIDE_H

#include <jansson.h>

#include "botapi.h"
#include "../core/http.h"
#include "../play/live_inside.h"
#include "../play/lobby.h"
#include "../core/srv.h"

typedef struct api_stream {
    struct apibot *bot;
    net_stream *st;
    int64_t game;        /* 0: the event stream */
    int64_t token;       /* the token it was opened with */
    char said[64];       /* the game's state its last line told */
    struct api_stream *next;
} api_stream;

typedef struct api_wait {
    net_http *h;
    char ref[24];
    int64_t deadline;    /* monotonic ms */
    struct api_wait *next;
} api_wait;

typedef struct apibot {
    srv *s;
    int64_t player;
    uint64_t client;
    api_stream *streams;
    api_wait *waits;
    int64_t quiet_since; /* monotonic ms since nothing is open; 0 while something is */
    int64_t told[64];    /* games whose start the event stream told, not yet their end */
    int ntold;
    struct apibot *next;
} apibot;

struct botapi {
    apibot *bots;
    net_timer *timer;
    int64_t keepalive;   /* monotonic ms of the last keep-alive */
    uint64_t refs;
};

/* --- streams.c ----------------------------------------------------------- */
/* The apibot of a player, made with its client if there is none (NULL if
 * out of memory); its client's identity refreshed from *me. */
apibot *api_bot_of(srv *s, const ident *me, const net_request *req);
/* Every apibot of the server (NULL if none yet). */
apibot *api_bots(srv *s);
client *api_bot_client(const apibot *b);
/* The Bot API's client of a request's token (with one of the scopes in
 * `want`), made if need be: the client, with its apibot in *b; NULL after
 * answering. */
client *api_client(srv *s, net_http *h, const net_request *req, int want, ident *me,
                   int64_t *token, apibot **b);
/* Opens an NDJSON stream on h for b (game 0: the event stream); NULL after
 * answering 429 (the token's streams are at their limit) or 500. */
api_stream *api_stream_open(srv *s, net_http *h, apibot *b, int64_t token, int64_t game);
/* One line on a stream (j taken). */
void api_line(api_stream *st, json_t *j);
void api_stream_end(api_stream *st);
/* j on every event stream of b / of `player` if they use the API here (j
 * taken). */
void api_event_all(apibot *b, json_t *j);
void api_tell_player(srv *s, int64_t player, json_t *j);
/* The event stream told b's player of g's start (so its end is told too). */
void api_told(apibot *b, int64_t game);
/* Sends msg as b's client's request (msg taken); answers h {"ok": true}
 * when its ref comes back (wait), or at once unless it was refused at
 * once; an error message is answered 400 with its reason. */
void api_request(srv *s, net_http *h, apibot *b, json_t *msg, int wait);

/* --- shapes.c: lichess's words and shapes, Citadel's own fields beside -- */
/* lichess's status word of a game ("started", "resign", "outoftime",
 * "draw", "variantEnd", ...) and its number (GameStatus.id). */
const char *shape_status(const live *g);
int shape_status_id(const char *status);
/* lichess's speed of a clock ("blitz", ...; "correspondence" for none). */
const char *shape_speed(int64_t base_ms, int64_t inc_ms);
/* "white" for the side that moves first, "black" for the other. */
const char *shape_color(int side);
/* A player as lichess shows one in a game or challenge: {id (the name in
 * lower case), name, title ("BOT" for bots, else null), rating,
 * provisional}, with Citadel's bot and guest. */
json_t *shape_player(srv *s, const ident *p, const game_variant *v);
json_t *shape_variant(const game_variant *v);
/* A player's id as lichess gives one: the name in lower case. */
void shape_user_id(const char *name, char *out, size_t size);
json_t *shape_game_full(srv *s, live *g, const client *c);
json_t *shape_game_state(live *g, const client *c);
/* GameEventInfo: what gameStart, gameFinish and /api/account/playing tell
 * of a game of c's. */
json_t *shape_game_info(srv *s, live *g, const client *c);
/* The brief of a game's state, for telling whether a stream has had it. */
void shape_state_said(const live *g, char *out, size_t size);
/* A challenge (ChallengeJson) of seek k: status "created", "accepted",
 * ...; g the game it became, or NULL; its url on `site` (ident_site). */
json_t *shape_challenge(srv *s, const seek *k, const char *status, const live *g,
                        const char *site);
/* The account a token acts for (lichess's UserExtended), its url on site. */
json_t *shape_account(srv *s, const ident *me, const char *site);

/* --- the routes (path: after "/api") ------------------------------------- */
/* play.c: /bot/game/..., /board/game/..., /stream/event, /account/playing */
void play_game_http(srv *s, net_http *h, const net_request *req, const char *rest, int board);
void play_events_http(srv *s, net_http *h, const net_request *req);
void play_playing_http(srv *s, net_http *h, const net_request *req);
/* challenges.c: /challenge[...], /bot/seek[...], /board/seek */
void challenges_http(srv *s, net_http *h, const net_request *req, const char *rest);
void seeks_http(srv *s, net_http *h, const net_request *req, const char *rest);
/* accounts.c: /account, /bot/account/upgrade, /bot/online, /token/test */
void accounts_http(srv *s, net_http *h, const net_request *req, const char *path);

#endif
