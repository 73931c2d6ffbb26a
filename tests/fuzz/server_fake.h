/* server_fake.h -- a fake net (net.h) and fake workers (workers.h) for the
 * server's fuzz targets, and what those targets share.
 *
 * The fake net has no sockets and no loop: the harness calls the server's
 * callbacks itself (fake_http, fake_ws_connect, fake_ws_message,
 * fake_ws_close) and moves a virtual clock (fake_advance), which fires the
 * timers due on the way, one at a time, in time order. Answers to HTTP
 * requests are kept in the request's record, so the harness can check that
 * every request is answered exactly once; WebSocket sends go to the
 * connection's outbox. The fake workers run nothing until the harness asks
 * (fake_drain, fake_run_one): then, on the calling thread, a job's `run`,
 * and its `done` by way of the server's `wake` callback, as the real loop
 * does.
 */
#ifndef CITADEL_SERVER_FAKE_H
#define CITADEL_SERVER_FAKE_H

#include <stddef.h>
#include <stdint.h>

#include "../../src/server/net/net.h"
#include "../../src/server/core/srv.h"
#include "../../src/server/server.h"
#include "../../src/server/core/workers.h"

/* --- the fake net ---------------------------------------------------------------- */

/* One HTTP request and what it was answered (answers counts the calls of
 * net_http_reply; the first answer is kept). */
struct net_http {
    struct net_http *next;
    net *n;
    int answers;
    int status;
    char ctype[64];
    char *headers;
    char *body;
    size_t len;
    int seen;            /* the harness has looked at the answer */
    char path[256];      /* the request's path, for the harness's checks */
    int tag;             /* the harness's own */
};

/* A WebSocket connection: the server's data, and what it was sent. */
#define FAKE_OUTBOX_MAX 256
struct net_conn {
    struct net_conn *next;
    void *data;
    int closing;         /* net_ws_close was called: the harness delivers ws_close */
    char *out[FAKE_OUTBOX_MAX];
    size_t outlen[FAKE_OUTBOX_MAX];
    int nout;
    int dropped;         /* messages beyond FAKE_OUTBOX_MAX not kept */
    size_t queued;       /* bytes in the outbox (NET_QUEUE_MAX closes, as net.c) */
    uint64_t sent;       /* messages ever sent */
};

/* Called for every net_http_reply (also for a second, wrong one). */
typedef void (*fake_reply_fn)(net_http *h, void *ctx);

/* Resets the virtual clocks: monotonic and wall milliseconds. */
void fake_clock_reset(int64_t mono, int64_t wall);
/* The wall clock jumps (forward) without the monotonic one. */
void fake_wall_jump(int64_t ms);

/* A fake net with the server's callbacks (net_new works too, cfg ignored). */
net *fake_net_new(const net_callbacks *cb, void *app);
/* Frees the connections and the requests' records; aborts if a timer made
 * on this net was never freed (the real net would leak it). */
void fake_net_free(net *n);
void fake_on_reply(net *n, fake_reply_fn fn, void *ctx);

/* A request passed to the app's http callback; its record (tagged with
 * `tag`, the harness's own number) stays valid until fake_net_free.
 * req->path is copied into the record. */
net_http *fake_http(net *n, const net_request *req, int tag);
/* Every request made so far, newest first. */
net_http *fake_requests(net *n);

/* An upgrade to /ws: ws_filter, then ws_open. The connection, or NULL with
 * *status the filter's refusal (or -1 if ws_open refused it). */
net_conn *fake_ws_connect(net *n, const net_request *req, int *status);
/* The client of a stream still open leaves (the `which`-th of those open,
 * modulo their count): its gone callback, after which a write or an end
 * of that stream fails the harness. 1 if there was one. */
int fake_stream_leave(net *n, int which);
/* A text message from the peer (dropped, as net.c does, once closing). */
void fake_ws_message(net *n, net_conn *c, const char *text, size_t len);
/* The connection is gone (the peer left, or net_ws_close's close was
 * carried out): ws_close, then the connection is freed. */
void fake_ws_close(net *n, net_conn *c);
/* Forgets the outbox's messages. */
void fake_outbox_clear(net_conn *c);

/* Moves the clocks ms forward, firing each timer due on the way at its
 * time, earliest first (timers set by a timer fire too if due). Aborts on
 * a timer storm: more than FAKE_STORM fires at one instant. */
#define FAKE_STORM 20000
void fake_advance(net *n, int64_t ms);
/* Moves the clocks without firing anything, as when the loop is busy:
 * what comes next (a message, say) is handled before the timers now
 * overdue, which fire, late, at the next fake_advance. */
void fake_advance_late(int64_t ms);
/* Timers armed now. */
int fake_timers_armed(net *n);

/* --- the fake workers ------------------------------------------------------------- */

/* Bot jobs play as the random mover (outside engines excepted), without
 * a clock, so a bot's move depends on nothing but its input and costs
 * little: on by default. */
extern int fake_bot_fast;

/* Runs every queued job of every pool of n, then delivers the finished
 * ones (the app's wake callback, which drains the pools); again while
 * `done` functions queue more, at most `rounds` times. Returns the jobs
 * still queued. */
int fake_drain(net *n, int rounds);
/* Runs the oldest queued job of pool `which` (0: the first made, 1: the
 * second) without delivering it; 1 if there was one. */
int fake_run_one(net *n, int which);
/* Delivers finished jobs (the wake callback). */
void fake_wake(net *n);
/* Jobs queued, not yet run; jobs run, not yet delivered. */
int fake_jobs_queued(net *n);
int fake_jobs_done(net *n);

/* --- shared by the targets ----------------------------------------------------------- */

/* "citadel_session=TOKEN" from an answer's Set-Cookie into out (size
 * bytes); 1 if it set a session, 0 if none, -1 if it cleared it. */
int fake_session_cookie(const net_http *h, char *out, size_t size);
/* Aborts with a report if an answer is not as docs/api.md says: a status
 * of 200-599, and for /api/ paths a JSON body (text for .../record), an
 * object with an "error" string when the status is 4xx or 5xx. */
void fake_check_answer(const net_http *h);
/* Aborts if some request has no answer, or more than one. */
void fake_check_all_answered(net *n);
/* 1 if text[0..len) is valid UTF-8 (what the real net lets through). */
int fake_utf8_ok(const char *text, size_t len);
/* Replaces bytes that are not valid UTF-8 with '?' (in place). */
void fake_utf8_fix(char *text, size_t len);

/* Builds the server for one input: srv_config_default, the fuzzers' fast
 * settings, then `tune` (may be NULL) on the settings; an empty in-memory
 * store (one kept for every input and emptied: as a new one to the
 * server), the server, the fake net and pools, srv_start. NULL on failure
 * (aborts: a harness that cannot start tests nothing). */
typedef struct fake_world {
    store *st;
    srv *s;
    net *n;
    workers *pool, *hash_pool;
} fake_world;
void fake_world_new(fake_world *w, void (*tune)(srv_config *cfg, void *ctx), void *ctx,
                    unsigned populate);

/* What fake_world_new puts in the store before srv_start (which resumes
 * the live games): FAKE_POP_PLAYERS is the accounts "alice" (an admin) and
 * "bob" (a moderator), each with a session (FAKE_COOKIE_*), with the
 * password FAKE_PASSWORD; and if fake_every_role is set, "carol" (a
 * player, a session, the password), "dave" (a Bot API bot, the password),
 * a guest with a session (FAKE_COOKIE_GUEST), and Bot API tokens,
 * FAKE_TOKEN_ALICE (board:play challenge:write) and FAKE_TOKEN_DAVE
 * (bot:play challenge:write). The others are games between alice and bob
 * (they imply the accounts). */
extern int fake_every_role;
enum {
    FAKE_POP_PLAYERS = 1,
    FAKE_POP_RAMPART = 2,   /* live Rampart, a few moves in, 60+1 s; and Rampart Mini
                             * over on the board (move limit 1) but not ended */
    FAKE_POP_OVER = 4,      /* a finished rated Rampart game, with ratings */
    FAKE_POP_SETUP = 8,     /* Stratego in its setup phase, alice's setup in */
    FAKE_POP_STRATEGO = 16, /* Stratego in play, a few moves in */
    FAKE_POP_KM = 32,       /* Keeps & Moats: alice, bob, two bots */
    FAKE_POP_BOT = 64,      /* Rampart against bot-random, the bot to move */
    FAKE_POP_ALL = 127
};
#define FAKE_PASSWORD "password1"
#define FAKE_COOKIE_ALICE                                                                   \
    "citadel_session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define FAKE_COOKIE_BOB                                                                     \
    "citadel_session=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define FAKE_COOKIE_CAROL                                                                   \
    "citadel_session=cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
#define FAKE_COOKIE_GUEST                                                                   \
    "citadel_session=9999999999999999999999999999999999999999999999999999999999999999"
#define FAKE_TOKEN_ALICE "cit_a11ce0a11ce0a11ce0a11ce0a11ce0a11ce0a11c"
#define FAKE_TOKEN_DAVE "cit_da7eda7eda7eda7eda7eda7eda7eda7eda7eda7e"

/* fake_store.c, for fake_world_new: the password hash of the accounts
 * made (once, after libsodium starts); the store emptied for an input;
 * the bots' accounts kept from the first input's srv_new on; the store
 * filled as `what` (FAKE_POP_*) says. */
void fake_store_init(void);
store *fake_fresh_store(void);
void fake_keep_bots(store *st);
void fake_populate(store *st, unsigned what);

/* If positive, the size of the server's quota table (quota_new's
 * max_keys) in the next fake_world_new, instead of srv_new's 65536: small
 * enough for an input to fill it. */
extern int fake_quota_keys;

/* Drains what is left (so every request is answered), checks, and frees
 * everything, in the order serve.c does. */
void fake_world_free(fake_world *w);

/* 1 if the environment's CITADEL_FUZZ_ALLOW (a comma-separated list) names
 * `what`: a known fault the harness should not stop at (see the targets). */
int fake_allowed(const char *what);

/* Set (by fake_world_new) if CITADEL_FUZZ_TRACE is: answers and messages
 * are printed on stderr as they are sent. */
extern int fake_trace;

/* Aborts with a message: for the harness's own checks. */
void fake_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
