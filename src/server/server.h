/* server.h -- `citadel serve`: the pieces of the server and how they meet.
 *
 *   net.c       HTTP and WebSocket (libwebsockets stays inside it)
 *   workers.c   threads for bot moves and password hashing
 *   botpool.c   bots kept from move to move, and the job asking one to move
 *   quota.c     rate limits and counts per address and per player
 *   config.c    the server's settings and the limits an operator may set
 *   server.c    the server object: made, started, swept, freed
 *   serve.c     `citadel serve`: options, signals, the loop
 *   clients.c   WebSocket connections: identity, messages, who watches what
 *   lobby.c     seeks, challenges, tables, games against bots or on one device
 *   account.c   sessions, guests, sign-up and sign-in, cross-origin checks
 *   api.c       the HTTP JSON API
 *   live.c      live games: moves, clocks, bots, results, ratings
 *   live_requests.c  what clients ask of a live game: move, resign, draw, rematch
 *   live_setup.c  private setups (games whose sides set up in secret)
 *   live_json.c what a game looks like to each client (views), sending
 *   records.c   stored games read back: records, positions for review
 *   community.c what the community's pages share: who asks, text checks,
 *               player references, notifications sent live
 *   forum.c     the message board: categories, threads, posts, search
 *   markdown.c  posts in Markdown made into safe HTML (cmark)
 *   support.c   support tickets, their answers, notifications read
 *   mail.c      the mail queue, sent over SMTP (libcurl)
 *   chat.c      chat in live games, players and spectators apart
 *   moderation.c  reports, hiding, locking, mutes, roles, the audit log
 *   cluster.c   several servers on one database: leases, adoption, requests
 *               passed to a game's server, stand-in clients, the lobby of all
 *   bus.c       messages between those servers (PostgreSQL LISTEN/NOTIFY)
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
 * A live game is in two places, both kept by live.c alone: its id's hash
 * chain (lookups) and the list of every game (walks).
 */
#ifndef CITADEL_SERVER_H
#define CITADEL_SERVER_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/rng.h"
#include "../games/game.h"
#include "../store/community.h"
#include "../store/store.h"
#include "clock.h"
#include "msg.h"
#include "net.h"
#include "quota.h"
#include "workers.h"
#include "writer.h"

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
typedef struct deferred deferred;  /* live_store.c */

/* Every live game of s, as g (newest first); g may not be removed inside. */
#define LIVE_EACH(s, g) for (live *g = (s)->all_games; g; g = g->all_next)

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
    LIM_REPORTS,           /* reports an hour, per account */
    LIM_SEARCHES,          /* board searches a minute, per address */
    LIM_COUNT
};

typedef struct srv_config {
    int limits[LIM_COUNT];
    int64_t abandon_ms;        /* --abandon-ms */
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

/* --- who is who ------------------------------------------------------------------ */

/* Who someone is, as the server knows it. */
typedef struct ident {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    int bot, guest;
    char spec[64];       /* bots: the bot spec */
} ident;

struct client {
    srv *s;
    uint64_t id;         /* never reused; what games and seeks hold */
    net_conn *conn;
    ident me;
    char addr[64];       /* the address quotas count (quota_addr) */
    /* A client of another server whose requests for games of this one come
     * over the bus (cluster.c): conn is NULL, origin that server, rid its
     * id there. 0 for the clients of this server's own connections. */
    int64_t origin;
    uint64_t rid;
    int forwarded;       /* it has sent requests to other servers */
    int64_t *rwatch;     /* games of other servers it watches */
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

typedef struct seek {
    int64_t id;
    uint64_t owner;      /* the client that opened it */
    ident by;            /* its player */
    game_settings set;
    char token[33];      /* challenges: the link's token; "" for lobby seeks */
    /* Tables (games of more than two sides): each seat taken by a person
     * (seated[i] and who), a bot, or open. nseats 0 for two-sided seeks. */
    int nseats;
    int seated[GAME_MAX_SIDES];
    ident who[GAME_MAX_SIDES];
    uint64_t sitter[GAME_MAX_SIDES];  /* the client of a person's seat; 0 for bots */
    struct seek *next;
} seek;

/* A move made, and what every player learned from it (game.h describe;
 * NULL when it showed nothing more, or the game describes no move). */
typedef struct played {
    char text[32];
    char *event;
    json_t *combat;  /* its effects' combat (Stratego S5), or NULL */
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
    gclock clk;          /* clock.h; clk.began: the side to move's turn began */
    ident players[GAME_MAX_SIDES];
    uint64_t *watchers;  /* client ids */
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
    int64_t bot_failed;      /* monotonic ms the bot to move first failed to answer; 0 */
    int64_t retry_at;        /* monotonic ms to try a failed store write again; 0 */
    /* A write of the game is out (live_store.c): requests for it wait. */
    int writing;
    deferred *deferred, *deferred_tail;
    int ndeferred;
    /* An end the store has not taken yet: announced only once stored. */
    int ending;
    int end_status, end_winner;
    char end_reason[32];
    int over;
    int64_t over_mono;
    json_t *end_msg;         /* the `end` message, for late watchers */
    json_t *last;            /* what the last move did (game_ops.effects), or NULL */
    live *next;              /* hash chain */
    live *all_prev, *all_next; /* every live game (srv.all_games) */
};

struct srv {
    srv_config cfg;
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
    struct cluster *cl;      /* several servers on one database; NULL: one alone */
    int64_t server_id;       /* this server's id among them; 0 alone */
    int64_t lag_due, lag_max, lag_ticks, lag_over_50, lag_over_100;
};

/* server.c: the server object. srv_new opens nothing but the bots'
 * accounts in st; the caller gives it a net (made with srv_callbacks and
 * the server as app) and worker pools, then calls srv_start. */
srv *srv_new(const srv_config *cfg, store *st, char *err, size_t errlen);
extern const net_callbacks srv_callbacks;
/* Resumes the stored live games and starts the sweep; the number resumed,
 * or -1. */
int srv_start(srv *s);
/* Frees what srv_new and srv_start made (not the net, pools or store). */
void srv_free(srv *s);
/* Once a sweep's work, also callable by tests: finished games dropped from
 * memory, guests nobody can use removed from the store. */
void srv_sweep(srv *s);
/* Stopping: s->stopping set, and every timer the server holds freed, so
 * the net (where timers live) can go first; connections closed after
 * this are only freed. srv_free calls it too. */
void srv_stop(srv *s);
/* Debug builds: aborts if the links between clients, games and seeks are
 * not as the invariant above says. */
void srv_check(srv *s);

/* clients.c */
client *client_find(srv *s, uint64_t id);
/* Runs one message of client c (an object with a "type"), as if it had
 * just arrived: live_store.c replays with it the requests that waited. */
void client_dispatch(srv *s, client *c, json_t *msg);
void client_send(client *c, json_t *msg);          /* does not steal msg */
/* Makes s valid UTF-8 in place: each byte of a broken or cut sequence
 * becomes '?' (JSON strings must be UTF-8; an error quoting input may cut
 * a character in two). */
void text_utf8(char *s);
void client_error(client *c, json_t *ref, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* 0, or -1 if out of memory (nothing changed). */
int client_watch(client *c, int64_t game);
void client_unwatch(client *c, int64_t game);
client *client_of_player(srv *s, int64_t player);  /* any connection, or NULL */
void clients_free_all(srv *s);
/* A stand-in for client rid of server origin (cluster.c), with its
 * player and address; NULL if out of memory. */
client *client_stand_in(srv *s, int64_t origin, uint64_t rid, const ident *me,
                        const char *addr);
/* A client goes: its games unwatched, its seeks withdrawn, its player
 * maybe gone from its games; c is freed. */
void client_close(srv *s, client *c);
int srv_ws_filter(void *app, const net_request *req);
int srv_ws_open(void *app, net_conn *conn, const net_request *req);
void srv_ws_message(void *app, net_conn *conn, const char *text, size_t len);
void srv_ws_close(void *app, net_conn *conn);
json_t *ident_json(const ident *p);
int ident_load(srv *s, int64_t id, ident *out);
void random_token(char *out, size_t bytes);        /* bytes*2 hex chars + NUL */

/* lobby.c */
/* The lobby changed: its subscribers get the lobby within SRV_LOBBY_MS,
 * one message for any number of changes, serialized once for all. */
void lobby_changed(srv *s);
/* The lobby's lists changed on another server: only this server's
 * subscribers are told (lobby_changed tells the other servers too). */
void lobby_refresh(srv *s);
/* lobby_timer's callback: sends what lobby_changed held back. */
void lobby_flush(void *s);
/* This server's own open seeks (as the lobby lists them, at most
 * SRV_LOBBY_SEEKS), and in *tokens its challenges' tokens (cluster.c). */
json_t *lobby_mine(srv *s, json_t **tokens);
/* The lobby message: the newest SRV_LOBBY_SEEKS open seeks and the newest
 * 100 live games. */
json_t *lobby_now(srv *s);
json_t *bots_json(srv *s);
const ident *bot_by_name(srv *s, const char *name);
/* Requests of the lobby (seek .. unlobby); 1 if m was one of them. */
int lobby_message(srv *s, client *c, const cmsg *m);
/* A client is gone: its seeks and seats go with it. */
void lobby_client_gone(srv *s, client *c);
void seeks_free_all(srv *s);
/* 1 and a token taken if the client's address may make another game or
 * seek now; else 0 after telling it why not. */
int lobby_may_create(srv *s, client *c, json_t *ref);

/* account.c */
void account_http(srv *s, net_http *h, const net_request *req, const char *path);
int session_player(srv *s, const char *cookie, ident *out);
/* The session token of a Cookie header into token (65 bytes; "" if none). */
void cookie_token(const char *cookie, char *token);
/* A new guest made by a visitor at addr, with its session token (65
 * bytes): 0; 1 if the address has made all its guests for the hour
 * (guests-per-hour); -1 if the store refused. */
int guest_new(srv *s, const char *addr, ident *out, char *token);
/* 1 if a visitor at addr may make a guest now. */
int guest_allowed(srv *s, const char *addr);
/* The address a request comes from, as quotas count it. */
void request_addr(srv *s, const net_request *req, char *out, size_t size);
/* 1 if a request may act for the visitor: no Origin, or the server's own,
 * or one of --allow-origin. */
int origin_ok(srv *s, const net_request *req);
/* Removes guests without a game whose every session has expired. */
void guests_purge(srv *s);

/* community.c */
/* The signed-in visitor of a request (a guest's session counts): 0, or -1
 * if the request has no valid session. standing may be NULL. */
int request_me(srv *s, const net_request *req, ident *me, struct store_standing *standing);
/* 0 if text is valid UTF-8 of 1..max bytes (0..max if may_be_empty)
 * without control characters (multiline: newlines and tabs allowed);
 * else -1 with why in err ("the title is too long (at most 200 bytes)",
 * `what` naming the field). */
int text_check(const char *text, size_t max, int multiline, int may_be_empty,
               const char *what, char *err, size_t errlen);
/* {"id", "name", "bot", "guest"} of a stored player; name alone if the
 * store does not know it. */
json_t *player_ref(srv *s, int64_t id, const char *name);
/* A notification stored for n->player and sent live to every connection
 * of theirs (`notify`). */
void notify_player(srv *s, struct store_note *n);
/* 1 if the player may write now: not muted, not closed; else 0 with why. */
int may_write(srv *s, const ident *me, const struct store_standing *st, char *err,
              size_t errlen);
/* "player", "moderator", "admin" and back (-1: none of them). */
const char *role_name(int role);
int role_parse(const char *name);
/* ?page=N of a query (1 if none or bad). */
int query_page(const char *query);
/* The value of ?name= in a query (which the net has URL-decoded) into
 * out: 1 if there, 0 if not, -1 if it does not fit. */
int query_param(const char *query, const char *name, char *out, size_t size);
/* The id at the start of a path piece ("12/edit": 12, rest "/edit"): 1-18
 * digits, no sign, no leading zero; -1 if there is none. */
int64_t path_id(const char *s, const char **rest);
/* How many pages `total` rows make (at least 1). */
int pages_of(int total, int per_page);
/* 1 for moderators and admins. */
int is_staff(const struct store_standing *st);
/* The request's body as a JSON object ({} if empty); NULL after answering
 * 400 if it is not one. */
json_t *body_object(const net_request *req, net_http *h);
/* Notifications as the API shows them. */
json_t *notes_json(srv *s, const struct store_note *notes, int n);
/* forum.c: /api/forum/... (path after "/api/forum") */
void forum_http(srv *s, net_http *h, const net_request *req, const char *path);
/* Frees the posts kept rendered (srv_free). */
void forum_free_cache(void);
/* support.c: /api/support..., /api/staff/..., /api/notifications... */
void support_http(srv *s, net_http *h, const net_request *req, const char *path);
/* moderation.c: /api/reports, /api/mod/..., /api/admin/... */
void moderation_http(srv *s, net_http *h, const net_request *req, const char *path);
/* chat.c */
/* A chat line sent (`chat`). */
void chat_message(srv *s, client *c, const cmsg *m);
/* The chat a client sees of a game ({room, lines}), or NULL if the game
 * has none for it. */
json_t *chat_json(srv *s, live *g, const client *to);
/* A moderator hid (or showed again) a chat line: the room is told. */
void chat_line_changed(srv *s, const struct store_chat *line);

/* api.c */
void api_http(srv *s, net_http *h, const net_request *req);
void reply_json(net_http *h, int status, json_t *body, const char *headers);
void reply_error(net_http *h, int status, const char *what);

/* live.c */
live *live_find(srv *s, int64_t id);
/* live_store.c: 1 if a write of g is out and msg, c's request for g, now
 * waits for it (or was refused: too many wait); 0 to run it now. */
int live_defer(live *g, client *c, json_t *msg);
/* Starts a game between players (one per side); NULL with err on failure. */
live *live_start(srv *s, const game_settings *set, const ident *players, char *err,
                 size_t errlen);
int live_resume_all(srv *s);
/* Loads one stored live game and runs it here (a game adopted from a
 * server that stopped): the game, or NULL if it is here already or could
 * not be loaded. */
live *live_resume(srv *s, int64_t id);
json_t *live_state(live *g, const client *to);
json_t *live_summary(const live *g);
void live_watch(srv *s, live *g, client *c);
void live_unwatch(live *g, client *c);
/* live_requests.c */
void live_on_move(srv *s, client *c, const cmsg *m);
void live_on_resign(srv *s, client *c, const cmsg *m);
void live_on_draw(srv *s, client *c, const cmsg *m);
void live_on_rematch(srv *s, client *c, const cmsg *m);
/* live_setup.c */
void live_on_setup(srv *s, client *c, const cmsg *m);
/* live.c */
void live_player_left(srv *s, int64_t player);
void live_player_back(srv *s, int64_t player);
int live_sweep(srv *s);  /* the number of finished games freed */
json_t *live_list(srv *s, int max);
/* Ids of the live games a player plays in (to resume after reconnecting). */
json_t *live_of_player(srv *s, int64_t player);
/* Live games a player plays in now; those with a bot on another side. */
int live_count_of_player(srv *s, int64_t player, int *with_bots);
/* Live games with a bot in them, server-wide. */
int live_count_with_bots(srv *s);
void live_free_all(srv *s);
/* The record of a stored game as text (malloc'd), or NULL. */
char *record_text(srv *s, int64_t id, char *err, size_t errlen);
/* A stored game as `to` sees it (NULL: a spectator), as live_state. */
json_t *game_json_stored(srv *s, int64_t id, const client *to, char *err, size_t errlen);
/* Every position of a game, the start first (for reviewing); a hidden
 * game's only once it is over. NULL with *status 404 or 403 and err. */
json_t *game_positions(srv *s, int64_t id, int *status, char *err, size_t errlen);

#endif
