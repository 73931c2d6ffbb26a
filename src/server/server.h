/* server.h -- `citadel serve`: the pieces of the server and how they meet.
 *
 *   net.c      HTTP and WebSocket (libwebsockets stays inside it)
 *   workers.c  threads for bot moves and password hashing
 *   botpool.c  bots kept from move to move, and the job asking one to move
 *   server.c   start-up, connections, identity, seeks, tables and the lobby
 *   api.c      the HTTP JSON API
 *   live.c     live games: moves, clocks, bots, results, ratings, setups
 *   live_json.c  what a game looks like to each client (views), sending
 *   records.c  stored games read back: records, positions for review
 *
 * Everything here runs on the event-loop thread; only job `run` functions
 * run elsewhere, on copies. See docs/api.md for the protocol.
 */
#ifndef CITADEL_SERVER_H
#define CITADEL_SERVER_H

#include <jansson.h>
#include <stdint.h>

#include "../base/rng.h"
#include "../games/game.h"
#include "../store/store.h"
#include "net.h"
#include "workers.h"

#define SRV_GAME_BUCKETS 4096
#define SRV_LAG_MS 100             /* lag allowance per move */
#define SRV_ABANDON_MS 60000       /* default: a player gone this long on its turn loses */
#define SRV_KEEP_OVER_MS 600000    /* finished games stay in memory this long */
#define SRV_SESSION_MS (30LL * 24 * 3600 * 1000)
#define SRV_MAX_BASE_MS (3LL * 3600 * 1000)
#define SRV_MAX_INC_MS (60LL * 1000)
#define SRV_MSG_RATE 20.0          /* WebSocket messages a second, sustained */
#define SRV_MSG_BURST 60.0
#define SRV_SIGNIN_FAILS 5         /* failed sign-ins a minute, per name or address */

typedef struct srv srv;
typedef struct client client;
typedef struct live live;

/* Who someone is, as the server knows it. */
typedef struct ident {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    int bot, guest;
    char spec[64];       /* bots: the bot spec */
} ident;

struct client {
    srv *s;
    net_conn *conn;
    ident me;
    int lobby;           /* receives lobby changes */
    double tokens;       /* message rate bucket */
    int64_t refill_ms;
    int64_t *watch;      /* ids of games it receives */
    int nwatch, capwatch;
    client *prev, *next; /* every client */
};

/* Settings of a new game. */
#define SRV_MAX_OPTIONS 4

typedef struct game_settings {
    const game_variant *v;
    int64_t base_ms, inc_ms;
    int move_limit;
    int rated;
    int nopts;           /* the variant's other settings ("GameType": 2) */
    struct {
        const char *name;  /* the variant's option name (static) */
        int value;
    } opts[SRV_MAX_OPTIONS];
} game_settings;

typedef struct seek {
    int64_t id;
    client *owner;
    game_settings set;
    char token[33];      /* challenges: the link's token; "" for lobby seeks */
    /* Tables (games of more than two sides): each seat taken by a person
     * (seated[i] and who), a bot, or open. nseats 0 for two-sided seeks. */
    int nseats;
    int seated[GAME_MAX_SIDES];
    ident who[GAME_MAX_SIDES];
    client *sitter[GAME_MAX_SIDES];  /* the connection of a person's seat */
    struct seek *next;
} seek;

/* A move made, and what every player learned from it (game.h describe). */
typedef struct played {
    char text[32];
    char event[120];
} played;

struct live {
    srv *s;
    int64_t id;
    game_settings set;       /* as created (a rematch repeats them) */
    const game_variant *v;
    store_game g;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    _Alignas(16) unsigned char start[GAME_POS_MAX];
    played *moves;
    int nmoves, capmoves;
    int64_t clock[GAME_MAX_SIDES];
    int64_t turn_began;  /* monotonic ms the side to move began thinking */
    ident players[GAME_MAX_SIDES];
    client **watchers;
    int nwatch, capwatch;
    unsigned draw_offer;     /* sides offering a draw */
    unsigned rematch_offer;  /* sides asking for a rematch */
    int64_t rematch_id;
    int64_t gone[GAME_MAX_SIDES];  /* monotonic ms a side's player left; 0 if here */
    int setting_up;          /* private setups still coming (game_setup_ops) */
    unsigned ready;          /* sides whose setup is in */
    char setups[GAME_MAX_SIDES][128];
    net_timer *timer;
    int bot_busy;            /* a bot job is out for the current ply */
    int over;
    int64_t over_mono;
    json_t *end_msg;         /* the `end` message, for late watchers */
    live *next;              /* hash chain */
};

typedef struct fail_entry {
    char key[80];
    int count;
    int64_t since;
} fail_entry;

struct srv {
    net *net;
    store *st;
    workers *pool;
    rng rng;
    live *games[SRV_GAME_BUCKETS];
    int nlive;
    client *clients;
    seek *seeks;
    int64_t next_seek;
    net_timer *sweep;
    fail_entry fails[256];
    ident bots[32];
    int nbots;
    char webroot[512];
    int stopping;
    int64_t abandon_ms;      /* --abandon-ms */
    struct botpool *botpool;
};

/* server.c */
void client_send(client *c, json_t *msg);          /* does not steal msg */
void client_error(client *c, json_t *ref, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void client_watch(client *c, int64_t game);
void client_unwatch(client *c, int64_t game);
client *client_of_player(srv *s, int64_t player);  /* any connection, or NULL */
void lobby_changed(srv *s);
json_t *ident_json(const ident *p);
int ident_load(srv *s, int64_t id, ident *out);
void random_token(char *out, size_t bytes);        /* bytes*2 hex chars + NUL */
int settings_parse(srv *s, json_t *msg, game_settings *set, char *err, size_t errlen);
json_t *lobby_now(srv *s);
json_t *bots_json(srv *s);

/* api.c */
void api_http(srv *s, net_http *h, const net_request *req);
int session_player(srv *s, const char *cookie, ident *out);
int guest_new(srv *s, ident *out, char *token);

/* live.c */
live *live_find(srv *s, int64_t id);
/* Starts a game between players (one per side); NULL with err on failure. */
live *live_start(srv *s, const game_settings *set, const ident *players, char *err,
                 size_t errlen);
int live_resume_all(srv *s);
json_t *live_state(live *g, const client *to);
json_t *live_summary(const live *g);
void live_watch(srv *s, live *g, client *c);
void live_unwatch(live *g, client *c);
void live_on_move(srv *s, client *c, json_t *msg);
void live_on_resign(srv *s, client *c, json_t *msg);
void live_on_draw(srv *s, client *c, json_t *msg);
void live_on_rematch(srv *s, client *c, json_t *msg);
void live_on_setup(srv *s, client *c, json_t *msg);
void live_player_left(srv *s, int64_t player);
void live_player_back(srv *s, int64_t player);
void live_sweep(srv *s);
json_t *live_list(srv *s, int max);
/* Ids of the live games a player plays in (to resume after reconnecting). */
json_t *live_of_player(srv *s, int64_t player);
void live_free_all(srv *s);
/* The record of a stored game as text (malloc'd), or NULL. */
char *record_text(srv *s, int64_t id, char *err, size_t errlen);
json_t *game_json_stored(srv *s, int64_t id, char *err, size_t errlen);
/* Every position of a game, the start first (for reviewing); a hidden
 * game's only once it is over. NULL with *status 404 or 403 and err. */
json_t *game_positions(srv *s, int64_t id, int *status, char *err, size_t errlen);

#endif
