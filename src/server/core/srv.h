/* srv.h -- the server object, its settings and its clients: what every
 * layer of `citadel serve` shares.
 *
 * src/server is in layers, each calling only the ones below it:
 *
 *   server.c, serve.c  the top: the server object made, started, swept and
 *   dispatch.c, api.c  freed; `citadel serve`; every WebSocket message and
 *                      HTTP route sent to the layer that answers it
 *   cluster/   several servers on one database (cluster.c), their bus (bus.c)
 *   botapi/    the Bot API: streams, outside bots' requests (botapi.c), tokens
 *   community/ the message board, support, moderation, notifications, mail,
 *              Markdown
 *   play/      lobby and seeks, live games (live*.c, turn.c), clocks, private
 *              setups, chat, records, reviews, PGN import, bots kept warm
 *   core/      this header: the server object and its clients (clients.c),
 *              settings (config.c), who a visitor is (identity.c, account.c),
 *              a credential revoked ending what it opened (revoke.c),
 *              quotas, the typed parse of messages (msg.c), HTTP answers
 *              and checks (reply.c, request.c), worker threads
 *   net/       HTTP and WebSocket (libwebsockets stays inside it)
 *
 * and below them src/store (the store, and its writer thread), src/games,
 * src/ai and src/base. A layer that must reach one above it -- to replay a
 * request, to tell the other servers -- does so through srv_hooks, which
 * the layers above fill in.
 *
 * Everything here runs on the event-loop thread; only job `run` functions
 * run elsewhere, on copies. See docs/api.md for the protocol.
 *
 * The one invariant about who points at whom: nothing keeps a client's
 * address but the server's own table of clients (and its connection).
 * Games, seeks and tables name clients by id, a number never reused, and
 * look them up when they need them; a client gone is simply not found.
 * So a client can be freed at any moment without leaving a dangling
 * pointer behind. Games are named by id in clients and jobs likewise.
 */
#ifndef CITADEL_SERVER_H
#define CITADEL_SERVER_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "../../base/rng.h"
#include "../../games/game.h"
#include "../../store/community.h"
#include "../../store/store.h"
#include "identity.h"
#include "msg.h"
#include "../net/net.h"
#include "quota.h"
#include "revoke.h"
#include "workers.h"
#include "../../store/writer.h"

#define SRV_GAME_BUCKETS 4096
#define SRV_LOBBY_MS 250    /* lobby changes are sent at most this often */
#define SRV_LOBBY_SEEKS 100 /* open seeks a lobby message lists, newest first */
#define SRV_CLIENT_BUCKETS 4096
#define SRV_LAG_MS 100             /* lag allowance per move */
#define SRV_DEFERRED_MAX 16        /* requests for one game waiting on its write */
#define SRV_EARLY_MESSAGES 16      /* a new connection's messages before it is known */
#define SRV_LAG_PROBE_MS 20        /* how often the loop's lag is probed */
#define SRV_TRIM_GAMES 256         /* finished games freed before the heap is trimmed */
#define SRV_ABANDON_MS 60000       /* default: a player gone this long on its turn loses */
#define SRV_KEEP_OVER_MS 120000    /* default: finished games stay in memory this long */
#define SRV_RETRY_MS 1000          /* a store write that failed is tried again after this */
#define SRV_SESSION_MS (30LL * 24 * 3600 * 1000)
#define SRV_GUEST_SESSION_MS (7LL * 24 * 3600 * 1000)
#define SRV_PURGE_MS (3600LL * 1000)  /* guests nobody can use are removed this often */
#define SRV_MAX_BOTS 64
#define SRV_MAX_ORIGINS 8

typedef struct srv srv;
typedef struct client client;
typedef struct live live;
typedef struct seek seek;       /* lobby.h */
typedef struct deferred deferred;  /* play/turn.c */

/* What the layers above core give the ones below, so that no layer calls
 * up: set once, by srv_new (the top; the Bot API's revoke_api among
 * them) and cluster_start. */
typedef struct srv_hooks {
    /* ../dispatch.c: runs one message of client c as if it had just
     * arrived (a request that waited for its game's write, or came from
     * the Bot API or another server). Called through client_dispatch. */
    void (*dispatch)(srv *s, client *c, json_t *msg);
    /* ../dispatch.c: what a client leaves when it goes (its games
     * unwatched, its seeks withdrawn, its player maybe gone from its
     * games). Called through client_close. */
    void (*client_gone)(srv *s, client *c);
    /* play/check.c: the invariant below made executable (srv_check). */
    void (*check)(srv *s);
    /* cluster/cluster.c, with several servers (NULL alone): what the
     * others must hear. */
    void (*lobby_add)(srv *s, json_t *seeks, json_t *games);  /* their seeks and games */
    void (*lobby_changed)(srv *s);                 /* this server's lobby changed */
    void (*note)(srv *s, int64_t player, json_t *msg);  /* to a player's connections */
    void (*chat_changed)(srv *s, int64_t line);    /* a chat line hidden or shown */
    void (*revoke_others)(srv *s, const revoked *r);  /* a credential revoked */
    /* botapi/botapi.c: the Bot API streams a revoked credential opened end
     * (revoke.c). */
    void (*revoke_api)(srv *s, const revoked *r);
} srv_hooks;


/* --- settings ------------------------------------------------------------------ */

/* What an operator may limit (`--limit NAME=N`, config.c lists them with
 * their defaults and meanings); 0 means no limit. */
enum {
    LIM_WS_PER_ADDR,       /* open WebSockets per address */
    LIM_WS_IDLE_S,         /* seconds a WebSocket may stay silent */
    LIM_MSG_RATE,          /* WebSocket messages a second, per connection */
    LIM_MSG_BURST,
    LIM_GUESTS,            /* new guests per address an hour */
    LIM_SIGNUPS,           /* new accounts per address an hour */
    LIM_SIGNIN_FAILS,      /* failed sign-ins a minute, per address and per name */
    LIM_GAMES,             /* live games per player */
    LIM_BOT_GAMES,         /* live games against bots per player */
    LIM_BOT_GAMES_ALL,     /* live games with a bot, server-wide */
    LIM_NEW_GAMES,         /* games, seeks, challenges and tables per address an hour */
    LIM_SEEKS,             /* open seeks, challenges and tables per player */
    LIM_HASH_QUEUE,        /* password hashings waiting, server-wide */
    LIM_POSTS,             /* board posts an hour, per account */
    LIM_NEW_POSTS,         /* board posts an hour, per account younger than a day */
    LIM_CHAT,              /* chat lines a minute, per player */
    LIM_TICKETS,           /* support messages an hour, per address */
    LIM_TICKET_REPLIES,    /* ticket follow-ups an hour, per account and per address */
    LIM_REPORTS,           /* reports an hour, per account */
    LIM_SEARCHES,          /* board searches a minute, per address */
    LIM_REVIEWS,           /* server reviews a day, per account */
    LIM_REVIEW_QUEUE,      /* server reviews waiting, server-wide */
    LIM_API_STREAMS,       /* open Bot API streams per token */
    LIM_API_REQUESTS,      /* Bot API requests a second, per token */
    LIM_API_TOKENS,        /* API tokens made an hour, per account */
    LIM_IMPORTS,           /* games imported from PGN an hour, per account */
    LIM_WRITES,            /* HTTP writes a minute, per account */
    LIM_ADDR_WRITES,       /* HTTP writes a minute, per address */
    LIM_POSITIONS,         /* POST /api/position a minute, per address */
    LIM_COUNT
};

typedef struct srv_config {
    int limits[LIM_COUNT];
    int64_t abandon_ms;        /* --abandon-ms */
    int64_t api_idle_ms;       /* --api-idle-ms: a Bot API account with nothing open */
    int64_t keep_over_ms;      /* finished games kept in memory */
    int64_t bot_think_max_ms;  /* the longest a bot thinks about one move */
    unsigned long long pw_ops; /* Argon2id cost (libsodium crypto_pwhash_str) */
    size_t pw_mem;
    int behind_tls;            /* --behind-tls: cookies are Secure, origins https */
    char origins[SRV_MAX_ORIGINS][128];  /* --allow-origin, besides the server's own */
    int norigins;
    char proxy[64];            /* --trust-proxy: its X-Forwarded-For names the client */
    int extra_bots;            /* --bot NAME=SPEC accounts */
    char bot_names[SRV_MAX_BOTS][STORE_NAME_MAX + 1];
    char bot_specs[SRV_MAX_BOTS][64];
    char smtp[256];            /* --smtp URL ("" : no mail is sent) */
    char mail_from[256];       /* --mail-from ADDRESS */
    char support_to[256];      /* --support-to ADDRESS */
    char site[128];            /* --site URL: the site's address, for links in mail */
} srv_config;

/* config.c */
void srv_config_default(srv_config *cfg);
/* "NAME=N" of --limit; -1 with why in err. */
int srv_config_limit(srv_config *cfg, const char *text, char *err, size_t errlen);
/* The limits, one line each, for --help and docs. */
void srv_config_print_limits(FILE *out);

struct client {
    srv *s;
    uint64_t id;         /* never reused; what games and seeks hold */
    net_conn *conn;
    ident me;
    char addr[64];       /* the address quotas count (quota_addr) */
    /* The session its connection was opened with (revoke_session_id; ""
     * for none, a guest made for it, or a client without a connection):
     * signing it out closes the connection (revoke.c). */
    char session[REVOKE_SESSION_ID];
    /* A client of another server whose requests for games of this one come
     * over the bus (cluster.c): conn is NULL, origin that server, rid its
     * id there. 0 for the clients of this server's own connections. */
    int64_t origin;
    uint64_t rid;
    int forwarded;       /* it has sent requests to other servers */
    int64_t *rwatch;     /* games of other servers it watches */
    /* A client of the Bot API (botapi.c): conn NULL, origin 0; what it is
     * sent goes to its player's streams. NULL for every other client. */
    struct apibot *api;
    /* How a client with no connection of its own (a stand-in, the Bot
     * API's) is sent a message: given by whoever made it. */
    void (*deliver)(client *c, json_t *msg);
    int nrwatch, caprwatch;
    /* Who it is comes from the store's writer (clients.c): until then it
     * has no player, and its messages wait here, in order. */
    int ready;
    char *early[SRV_EARLY_MESSAGES];
    size_t early_len[SRV_EARLY_MESSAGES];
    int nearly;
    int lobby;           /* receives lobby changes */
    double tokens;       /* message rate bucket */
    int64_t refill_ms;
    int64_t *watch;      /* ids of games it receives */
    int nwatch, capwatch;
    client *prev, *next; /* every client */
    client *hnext;       /* chain of the id table */
};

struct srv {
    srv_config cfg;
    srv_hooks hooks;
    net *net;
    store *st;               /* the loop's connection: reads, and the rarer writes */
    writer *writer;          /* moves and ends, off the loop, in groups (writer.h) */
    writer *reader;          /* reads off the loop (a new connection's session), on a
                              * connection of its own; NULL: the writer does them */
    workers *pool;           /* bot moves */
    workers *hash_pool;      /* password hashing, apart so bots cannot starve sign-in */
    rng rng;
    live *games[SRV_GAME_BUCKETS]; /* by id, for lookups */
    live *all_games;         /* every live game, newest first: walks cost O(games) */
    int nlive;
    client *clients;         /* every client, newest first */
    client *client_ids[SRV_CLIENT_BUCKETS];
    uint64_t last_client;
    int nclients;
    seek *seeks;
    int64_t next_seek;
    net_timer *sweep;
    net_timer *lobby_timer;  /* sends the lobby's changes (lobby_changed) */
    int lobby_pending;       /* a change waits for lobby_timer */
    int lobby_mine;          /* and it is this server's own (lobby_changed) */
    int64_t purged;          /* monotonic ms guests were last purged */
    long freed_untrimmed;    /* finished games freed since the heap was last trimmed */
    quota *quota;
    int hashing;             /* password hashings submitted, not yet done */
    ident bots[SRV_MAX_BOTS];
    int nbots;
    int stopping;
    struct botpool *botpool;
    workers *mail_pool;      /* SMTP sends, one at a time (mail.c); NULL: none yet */
    int mail_busy;           /* a mail is being sent */
    net_timer *mail_timer;   /* with --smtp: looks for mail due once a second */
    /* The loop's lag: a timer due every SRV_LAG_PROBE_MS, and how late it
     * ran (a callback that held the loop delays everything behind it);
     * printed when the server stops. */
    net_timer *lag_timer;
    struct reviews *reviews; /* the server's computer reviews (review.c); NULL: none yet */
    struct botapi *botapi;   /* the Bot API's clients and streams (botapi.c); NULL: none yet */
    struct cluster *cl;      /* several servers on one database; NULL: one alone */
    int64_t server_id;       /* this server's id among them; 0 alone */
    int64_t lag_due, lag_max, lag_ticks, lag_over_50, lag_over_100;
};

/* Debug builds: aborts if the links between clients, games and seeks are
 * not as the invariant above says (through hooks.check). */
void srv_check(srv *s);

/* clients.c */
client *client_find(srv *s, uint64_t id);
/* Runs one message of client c (an object with a "type"), as if it had
 * just arrived (hooks.dispatch): a request that waited for its game's
 * write is replayed with it, and so are the Bot API's and other
 * servers'. */
void client_dispatch(srv *s, client *c, json_t *msg);
void client_send(client *c, json_t *msg);          /* does not steal msg */
void client_error(client *c, json_t *ref, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* 0, or -1 if out of memory (nothing changed). */
int client_watch(client *c, int64_t game);
void client_unwatch(client *c, int64_t game);
client *client_of_player(srv *s, int64_t player);  /* any connection, or NULL */
void clients_free_all(srv *s);
/* A client of connection conn (NULL: none: then `deliver` sends it
 * messages), for player me from address addr, in the table; NULL if out
 * of memory. */
client *client_new(srv *s, net_conn *conn, const ident *me, const char *addr,
                   void (*deliver)(client *c, json_t *msg));
/* A client goes: what it leaves is tidied (hooks.client_gone), then c is
 * freed. */
void client_close(srv *s, client *c);
/* A client that never became known (its opening failed) leaves the table
 * and is freed; it left nothing behind. */
void client_discard(srv *s, client *c);

#endif
