/* load.h -- what the two files of the load generator share: the connection
 * and timer types, the state of the run, and what wire.c offers load.c.
 *
 * wire.c moves the bytes: sockets, the session cookie, the WebSocket
 * handshake and frames (tests/server/wsframe.c's, shared with the tests'
 * client), the timer heap and the small helpers. load.c plays: players,
 * pairs, spectators, churn, the report and main. Calls go one way only,
 * load.c to wire.c: wire.c reaches the player through the two functions
 * load.c gives it in `wire` (the port of a connection's server, and every
 * whole text message); load.c sends with send_json and send_game and
 * touches sockets only to close them all at the end.
 *
 * Every variable declared here is defined once, in wire.c, and lives for the
 * whole run; anything else a file keeps (load.c: the command line's options,
 * the pairs) stays static in it.
 */
#ifndef CITADEL_LOAD_H
#define CITADEL_LOAD_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "wsframe.h"   /* tests/server: the WebSocket framing the tests use too */

enum { WAIT, HTTP, SHAKE, OPEN, AWAY, DEAD };
enum { T_MOVE, T_BACK, T_LEAVE, T_LOBBY };      /* what a timer does */
enum { S_IDLE, S_LOBBY, S_WATCHING };           /* a spectator */

typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

typedef struct conn {
    int state;
    int fd;
    int spec;            /* a spectator, not a player */
    int pair;            /* a player's pair; player 2k is the seeker of pair k */
    int connecting;      /* socket connect() still in progress */
    int hello;           /* the server's `hello` came on this connection */
    int back;            /* this connection is a reconnect */
    buf in, out;
    char cookie[256];
    char accept[32];     /* the Sec-WebSocket-Accept we expect */
    unsigned gen;        /* bumped on every change that voids its timers */
    long long game;      /* a player's game, a spectator's watched game; 0: none */
    unsigned sides;      /* bit s set: this player plays side s */
    int to_move;
    long next_ply;       /* the ply the next `move` should carry; -1: not known */
    json_t *legal;       /* the legal moves now, or NULL */
    int phase;           /* a spectator's S_ state */
    double tokens;       /* messages it may send now (pacing, --rate) */
    long long tokens_ns;
    int shift;           /* servers it moved on by, its own having closed it */
} conn;

typedef struct timer {
    long long due_ns;
    int who;
    int kind;
    unsigned gen;
} timer;

struct timer_heap {
    timer *t;
    size_t len, cap;
};

struct stats {
    long games_started, games_finished, moves;
    long tl_moves, tl_slow;  /* this second (--timeline): moves, and those over 100 ms */
    uint32_t tl_max_us;
    int open, peak;
    long err_connect, err_http, err_shake, err_move, err_other, err_closed, err_proto;
    long stale, drops[2], reconnects[2], watches, watch_ended, unwatches;
    long moved;          /* connections a server closed, back on another (--port P1,P2) */
    char samples[5][200];
    int nsamples;
    long long start_ns, all_open_ns;
    uint32_t *lat_us;
    size_t nlat, caplat;
    /* the same for moves sent once the run is steady (STEADY_NS after all
     * connections were open): ramp-up excluded */
    uint32_t *steady_us;
    size_t nsteady, capsteady;
};

/* --- wire.c --- */

/* What wire.c needs of the run, set by load.c before the first connection. */
struct wire {
    const char *host;    /* the servers' loopback address */
    int rate;            /* messages a second a connection may send; 0: no pacing */
    int several;         /* more than one server: a closed connection moves on */
    /* The port of p's server (it may change with p->shift). */
    int (*port_of)(const conn *p);
    /* One whole text message from the server on p. */
    void (*on_message)(conn *p, const char *text, size_t len);
};

extern struct wire wire;
extern conn *conns;             /* players first (2k, 2k+1: pair k), then spectators */
extern int nconns;
extern int epfd;
extern struct timer_heap heap;  /* the pending timers, soonest at heap.t[0] */
extern int stopping;            /* the run is over: no new seeks, moves or connections */
extern uint64_t rng_state;
extern struct stats st;         /* what the report prints */

/* The monotonic clock in ns. */
long long now_ns(void);
/* The next xorshift64 number from rng_state. */
uint64_t rng(void);
/* Uniform in [0, 1). */
double unit(void);
/* A time lo..hi ms from now, uniform. */
long long after_ms(int lo, int hi);
/* Keeps the first few distinct error texts for the report. */
void sample(const char *what, const char *text);
/* realloc, or exit on no memory. */
void *xrealloc(void *p, size_t n);
/* A timer of this kind for p at due_ns, with p's generation now. */
void timer_add(conn *p, int kind, long long due_ns);
/* Removes the soonest timer, heap.t[0]. */
void timer_pop(void);
/* A JSON integer's value; 0 for anything else. */
long long id_of(const json_t *v);
/* Closes p's socket, if any, and empties its buffers. */
void close_socket(conn *p);
/* Writes what the out buffer holds; -1 if the socket failed. */
int flush(conn *p);
/* p has no game now: its legal moves go and its timers are voided. */
void forget_game(conn *p);
/* Adds a masked WebSocket frame to p's out buffer; flush sends it. */
void send_frame(conn *p, int op, const void *data, size_t len);
/* Brings p's pacing tokens up to now (--rate messages a second, BURST at once). */
void refill(conn *p);
/* Sends msg (and takes it) if p is open. */
void send_json(conn *p, json_t *msg);
/* Sends {type, game, ref: type}, e.g. a watch or an unwatch. */
void send_game(conn *p, const char *type, long long game);
/* Drops p on purpose, to come back later with the same cookie. */
void drop(conn *p);
/* A dropped connection comes back: the handshake again, same cookie. */
void reconnect(conn *p);
/* Starts connections that are still WAIT, while few enough are connecting. */
void start_next(void);
/* Handles what epoll reported for p's socket. */
void on_event(conn *p, uint32_t events);

#endif
