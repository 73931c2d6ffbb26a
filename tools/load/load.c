/* load.c -- a load generator for `citadel serve`.
 *
 *   load --port P --games N --duration S [--move-delay-ms D] [--host 127.0.0.1]
 *        [--variant rampart] [--move-limit 100] [--spectators N] [--churn P]
 *        [--games-total N] [--rate R]
 *
 * Holds 2N players, each a guest with its own session (GET /api/me) and its
 * own WebSocket, and keeps N Rampart games going between fixed pairs: the
 * first of a pair seeks, the second accepts that seek, both play random legal
 * moves D ms after their turn comes, and the pair seeks again when a game
 * ends. Spectators (guests too) pick live games from the lobby and watch them
 * for a while. With churn, players drop their connections at random and come
 * back with the same cookie, the way a phone on a bad network would. After S
 * seconds, or once --games-total games have ended, it prints what it saw
 * (see README.md).
 *
 * One thread, one epoll loop, non-blocking sockets. A connection goes through
 * these states:
 *
 *   WAIT   not connected yet (at most MAX_CONNECTING start at once)
 *   HTTP   GET /api/me on its own connection, for the session cookie
 *   SHAKE  the WebSocket handshake on a second connection
 *   OPEN   framing and JSON messages
 *   AWAY   dropped on purpose; a timer brings it back to SHAKE, same cookie
 *   DEAD   closed by the server or failed; counted, never reconnected
 *
 * Timers (moves, reconnects, a spectator's stay) sit in one binary heap; a
 * timer carries its connection's generation number and is ignored if the
 * connection's state moved on since.
 *
 * A pair goes IDLE -> SEEKING -> PLAYING -> IDLE. Its seeker seeks only when
 * both players are OPEN and have had the server's `hello`; a player comes
 * back from a drop by watching the games its `hello` lists. Churn picks only
 * players whose pair is PLAYING, so a seek never waits on a player who is
 * away.
 *
 * Latency: when a player sends a move, its pair remembers the time; when the
 * OTHER player's socket delivers the server's `move` message, the difference
 * is one sample. It covers the server's work, its storage and both network
 * legs (loopback), and the load tool's own queueing, which stays small while
 * the tool's CPU is not saturated.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/sha.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_GAMES 20000
#define MAX_SPECTATORS 20000
#define MAX_SECONDS 86400
#define MAX_CONNECTING 64
#define MAX_FRAME (1u << 24)
#define BURST 50.0           /* messages a connection may send at once (the server allows 60) */
#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

enum { WAIT, HTTP, SHAKE, OPEN, AWAY, DEAD };
enum { OP_CONT = 0, OP_TEXT = 1, OP_CLOSE = 8, OP_PING = 9, OP_PONG = 10 };
enum { T_MOVE, T_BACK, T_LEAVE, T_LOBBY };      /* what a timer does */
enum { P_IDLE, P_SEEKING, P_PLAYING };          /* a pair */
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
} conn;

typedef struct pair {
    int phase;
    long long game;      /* the game it plays, 0 if none */
    long long last_ended;/* its last game that ended; any game up to it is old */
    int pending;         /* a move sent, its `move` not yet seen by the opponent */
    int sender;          /* who sent it */
    long long sent_ns;
} pair;

typedef struct timer {
    long long due_ns;
    int who;
    int kind;
    unsigned gen;
} timer;

static struct {
    const char *host;
    int port, games, seconds, delay_ms, move_limit, spectators, rate;
    long games_total;
    double churn;
    const char *variant;
} opt = { "127.0.0.1", 0, 0, 0, 1000, 100, 0, 18, 0, 0.0, "rampart" };

static conn *conns;
static pair *pairs;
static int nplayers, nconns;
static int epfd;
static struct {
    timer *t;
    size_t len, cap;
} heap;
static int connecting, next_to_start;
static volatile sig_atomic_t stop_now;
static int stopping;
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static struct {
    long games_started, games_finished, moves;
    int open, peak;
    long err_connect, err_http, err_shake, err_move, err_other, err_closed, err_proto;
    long stale, drops[2], reconnects[2], watches, watch_ended, unwatches;
    char samples[5][200];
    int nsamples;
    long long start_ns, all_open_ns;
    uint32_t *lat_us;
    size_t nlat, caplat;
} st;

/* --- small things ------------------------------------------------------------ */

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

/* Uniform in [0, 1). */
static double unit(void)
{
    return (double)(rng() >> 11) * 0x1.0p-53;
}

/* A time lo..hi ms from now, uniform. */
static long long after_ms(int lo, int hi)
{
    long long ms = lo + (long long)(rng() % (uint64_t)(hi - lo + 1));
    return now_ns() + ms * 1000000LL;
}

/* Keeps the first few distinct error texts for the report. */
static void sample(const char *what, const char *text)
{
    char line[sizeof st.samples[0]];
    snprintf(line, sizeof line, "%s%s%.120s", what, text[0] ? ": " : "", text);
    for (int i = 0; i < st.nsamples; i++)
        if (strcmp(st.samples[i], line) == 0)
            return;
    if (st.nsamples < 5)
        memcpy(st.samples[st.nsamples++], line, sizeof line);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "load: out of memory\n");
        exit(1);
    }
    return q;
}

static void buf_add(buf *b, const void *data, size_t len)
{
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len + 1)
            cap *= 2;
        b->p = xrealloc(b->p, cap);
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    b->p[b->len] = '\0';
}

static void buf_drop(buf *b, size_t n)
{
    memmove(b->p, b->p + n, b->len - n);
    b->len -= n;
    if (b->p)
        b->p[b->len] = '\0';
}

/* --- timers: a binary min-heap on due_ns ------------------------------------------ */

static void timer_add(conn *p, int kind, long long due_ns)
{
    if (heap.len == heap.cap) {
        heap.cap = heap.cap ? heap.cap * 2 : 1024;
        heap.t = xrealloc(heap.t, heap.cap * sizeof *heap.t);
    }
    timer t = { due_ns, (int)(p - conns), kind, p->gen };
    size_t i = heap.len++;
    while (i > 0 && heap.t[(i - 1) / 2].due_ns > due_ns) {
        heap.t[i] = heap.t[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap.t[i] = t;
}

static void timer_pop(void)
{
    timer last = heap.t[--heap.len];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= heap.len)
            break;
        if (c + 1 < heap.len && heap.t[c + 1].due_ns < heap.t[c].due_ns)
            c++;
        if (heap.t[c].due_ns >= last.due_ns)
            break;
        heap.t[i] = heap.t[c];
        i = c;
    }
    if (heap.len)
        heap.t[i] = last;
}

static void base64(const unsigned char *in, size_t len, char *out)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)in[i] << 16;
        if (i + 1 < len)
            v |= (unsigned)in[i + 1] << 8;
        if (i + 2 < len)
            v |= in[i + 2];
        out[o++] = tab[(v >> 18) & 63];
        out[o++] = tab[(v >> 12) & 63];
        out[o++] = i + 1 < len ? tab[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? tab[v & 63] : '=';
    }
    out[o] = '\0';
}

/* The value of header `name` in the head of length hlen into out; 0 or -1. */
static int header(const char *head, size_t hlen, const char *name, char *out, size_t outsz)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i + nl + 3 < hlen; i++) {
        if (head[i] != '\n' || strncasecmp(head + i + 1, name, nl) != 0 || head[i + 1 + nl] != ':')
            continue;
        const char *s = head + i + 2 + nl;
        while (*s == ' ' || *s == '\t')
            s++;
        size_t n = strcspn(s, "\r\n");
        if (n >= outsz)
            n = outsz - 1;
        memcpy(out, s, n);
        out[n] = '\0';
        return 0;
    }
    return -1;
}

static size_t head_end(const buf *b)
{
    const char *e = b->p ? strstr(b->p, "\r\n\r\n") : NULL;
    return e ? (size_t)(e - b->p) + 4 : 0;
}

static long long id_of(const json_t *v)
{
    return json_is_integer(v) ? (long long)json_integer_value(v) : 0;
}

/* --- sockets -------------------------------------------------------------------- */

static void watch(conn *p, int add)
{
    struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)(p - conns) };
    if (p->connecting || p->out.len)
        ev.events |= EPOLLOUT;
    epoll_ctl(epfd, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, p->fd, &ev);
}

/* Starts a connection to the server: 0, or -1 at once. */
static int open_socket(conn *p)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)opt.port) };
    inet_pton(AF_INET, opt.host, &a.sin_addr);
    p->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (p->fd < 0)
        return -1;
    int one = 1;
    setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(p->fd, (struct sockaddr *)&a, sizeof a) < 0 && errno != EINPROGRESS) {
        close(p->fd);
        p->fd = -1;
        return -1;
    }
    p->connecting = 1;
    p->in.len = 0;
    watch(p, 1);
    return 0;
}

static void close_socket(conn *p)
{
    if (p->fd >= 0) {
        epoll_ctl(epfd, EPOLL_CTL_DEL, p->fd, NULL);
        close(p->fd);
    }
    p->fd = -1;
    p->connecting = 0;
    p->in.len = 0;
    p->out.len = 0;
}

/* Writes what the out buffer holds; -1 if the socket failed. */
static int flush(conn *p)
{
    while (p->out.len) {
        ssize_t n = send(p->fd, p->out.p, p->out.len, MSG_NOSIGNAL);
        if (n > 0) {
            buf_drop(&p->out, (size_t)n);
        } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            break;
        } else {
            return -1;
        }
    }
    watch(p, 0);
    return 0;
}

static void start_next(void);

static void forget_game(conn *p)
{
    json_decref(p->legal);
    p->legal = NULL;
    p->game = 0;
    p->gen++;
}

/* Closed for good: by the server, or after a failure. */
static void die(conn *p, long *counter, const char *why)
{
    if (counter) {
        ++*counter;
        sample(why, "");
    }
    if (p->state == HTTP || p->state == SHAKE)
        connecting--;
    if (p->state == OPEN)
        st.open--;
    p->state = DEAD;
    forget_game(p);
    close_socket(p);
    start_next();
}

/* --- WebSocket frames ------------------------------------------------------------ */

static void send_frame(conn *p, int op, const void *data, size_t len)
{
    unsigned char h[14];
    size_t n = 0;
    h[n++] = (unsigned char)(0x80 | op);
    if (len < 126) {
        h[n++] = (unsigned char)(0x80 | len);
    } else if (len < 65536) {
        h[n++] = 0x80 | 126;
        h[n++] = (unsigned char)(len >> 8);
        h[n++] = (unsigned char)len;
    } else {
        h[n++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            h[n++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    uint32_t m = (uint32_t)rng();
    unsigned char mask[4] = { (unsigned char)m, (unsigned char)(m >> 8),
                              (unsigned char)(m >> 16), (unsigned char)(m >> 24) };
    memcpy(h + n, mask, 4);
    n += 4;
    buf_add(&p->out, h, n);
    unsigned char *d = (unsigned char *)p->out.p + p->out.len;
    buf_add(&p->out, data, len);
    for (size_t i = 0; i < len; i++)
        d[i] ^= mask[i & 3];
}

/* Brings p's pacing tokens up to now (--rate messages a second, BURST at once). */
static void refill(conn *p)
{
    long long now = now_ns();
    p->tokens += (double)(now - p->tokens_ns) * opt.rate / 1e9;
    if (p->tokens > BURST)
        p->tokens = BURST;
    p->tokens_ns = now;
}

/* Sends msg (and takes it) if p is open. */
static void send_json(conn *p, json_t *msg)
{
    char *text = p->state == OPEN ? json_dumps(msg, JSON_COMPACT) : NULL;
    json_decref(msg);
    if (!text)
        return;
    if (opt.rate) {
        refill(p);
        p->tokens -= 1;
    }
    send_frame(p, OP_TEXT, text, strlen(text));
    free(text);
    if (flush(p) < 0)
        die(p, &st.err_closed, "write failed");
}

static void send_game(conn *p, const char *type, long long game)
{
    send_json(p, json_pack("{s:s, s:I, s:s}", "type", type, "game", (json_int_t)game, "ref", type));
}

/* Drops p on purpose: the socket closed (for players, half the time after a
 * close frame), and a timer to come back with the same cookie. */
static void drop(conn *p)
{
    if (!p->spec && rng() % 2) {
        unsigned char code[2] = { 1001 >> 8, 1001 & 0xff };
        send_frame(p, OP_CLOSE, code, 2);
        flush(p);
    }
    st.drops[p->spec]++;
    st.open--;
    close_socket(p);
    p->state = AWAY;
    p->hello = 0;
    p->phase = S_IDLE;
    forget_game(p);
    timer_add(p, T_BACK, after_ms(200, p->spec ? 2000 : 3000));
}

/* --- players ---------------------------------------------------------------------- */

static void progress(pair *pr)
{
    int k = (int)(pr - pairs);
    conn *a = &conns[2 * k], *b = &conns[2 * k + 1];
    if (stopping || pr->phase != P_IDLE || a->state != OPEN || b->state != OPEN || !a->hello ||
        !b->hello)
        return;
    pr->phase = P_SEEKING;
    send_json(a, json_pack("{s:s, s:s, s:i, s:i, s:i, s:b, s:s}", "type", "seek", "variant",
                           opt.variant, "base_ms", 0, "inc_ms", 0, "move_limit", opt.move_limit,
                           "rated", 0, "ref", "seek"));
}

/* The pair's game `id` is over; counted once. */
static void pair_ended(pair *pr, long long id)
{
    if (!id || id != pr->game)
        return;
    st.games_finished++;
    pr->last_ended = id;
    pr->game = 0;
    pr->phase = P_IDLE;
    pr->pending = 0;
}

static int my_turn(const conn *p)
{
    return p->game && p->legal && json_array_size(p->legal) > 0 && p->to_move >= 0 &&
           p->to_move < 32 && (p->sides >> p->to_move & 1);
}

static void maybe_schedule(conn *p)
{
    if (my_turn(p) && !stopping)
        timer_add(p, T_MOVE, now_ns() + (long long)opt.delay_ms * 1000000LL);
}

static void play(conn *p)
{
    if (!my_turn(p) || p->state != OPEN)
        return;
    if (opt.rate) {
        refill(p);
        if (p->tokens < 1) {   /* keep under the server's message rate: a little later */
            timer_add(p, T_MOVE, now_ns() + (long long)((1 - p->tokens) * 1e9 / opt.rate) + 1000);
            return;
        }
    }
    size_t n = json_array_size(p->legal);
    json_t *mv = json_array_get(p->legal, (size_t)(rng() % n));
    pair *pr = &pairs[p->pair];
    pr->pending = 1;
    pr->sender = (int)(p - conns);
    pr->sent_ns = now_ns();
    p->gen++;   /* no second move until the server answers */
    send_json(p, json_pack("{s:s, s:I, s:I, s:O, s:s}", "type", "move", "game",
                           (json_int_t)p->game, "ply", (json_int_t)p->next_ply, "move", mv,
                           "ref", "move"));
}

static void set_legal(conn *p, json_t *msg)
{
    json_t *legal = json_object_get(msg, "legal");
    json_decref(p->legal);
    p->legal = json_is_array(legal) ? json_incref(legal) : NULL;
    json_t *tm = json_object_get(msg, "to_move");
    p->to_move = json_is_integer(tm) ? (int)json_integer_value(tm) : -1;
    p->gen++;
}

static long ply_of(json_t *msg, long otherwise)
{
    json_t *ply = json_object_get(msg, "ply");
    return json_is_integer(ply) ? (long)json_integer_value(ply) : otherwise;
}

static int is_live(json_t *g)
{
    const char *status = json_string_value(json_object_get(g, "status"));
    return !status || strcmp(status, "live") == 0;
}

static void on_game(conn *p, json_t *g)
{
    long long id = id_of(json_object_get(g, "id"));
    pair *pr = &pairs[p->pair];
    if (!id)
        return;
    if (!is_live(g) || id <= pr->last_ended || (pr->game && id < pr->game)) {
        /* over, or a game of this pair that ended already */
        if (id == p->game)
            forget_game(p);
        if (!is_live(g))
            pair_ended(pr, id);
        progress(pr);
        return;
    }
    p->game = id;
    p->sides = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(g, "you"), i, v) {
        json_int_t s = json_integer_value(v);
        if (s >= 0 && s < 32)
            p->sides |= 1u << s;
    }
    p->next_ply = ply_of(g, (long)json_array_size(json_object_get(g, "moves")));
    set_legal(p, g);
    if (id != pr->game) {
        pr->game = id;
        pr->phase = P_PLAYING;
        pr->pending = 0;
        st.games_started++;
    }
    maybe_schedule(p);
}

static void on_move(conn *p, json_t *m)
{
    if (!p->game || id_of(json_object_get(m, "game")) != p->game)
        return;
    pair *pr = &pairs[p->pair];
    if (pr->pending && pr->sender != (int)(p - conns)) {
        long long us = (now_ns() - pr->sent_ns) / 1000;
        if (st.nlat == st.caplat) {
            st.caplat = st.caplat ? st.caplat * 2 : 65536;
            st.lat_us = xrealloc(st.lat_us, st.caplat * sizeof *st.lat_us);
        }
        st.lat_us[st.nlat++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
        pr->pending = 0;
        st.moves++;
    }
    long ply = ply_of(m, p->next_ply);
    if (p->next_ply >= 0 && ply != p->next_ply) {
        st.err_proto++;
        sample("a player got a move out of order", "");
    }
    p->next_ply = ply + 1;
    set_legal(p, m);
    maybe_schedule(p);
}

static void on_end(conn *p, json_t *m)
{
    long long id = id_of(json_object_get(m, "game"));
    pair *pr = &pairs[p->pair];
    if (id == p->game)
        forget_game(p);
    pair_ended(pr, id);
    progress(pr);
}

/* `hello` on a player's connection: comes back to the games it lists. */
static void player_hello(conn *p, json_t *m)
{
    pair *pr = &pairs[p->pair];
    int listed = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(m, "games"), i, v) {
        listed |= pr->game && id_of(v) == pr->game;
        send_game(p, "watch", id_of(v));
    }
    if (p->state != OPEN)
        return;
    if (pr->game && !listed)
        pair_ended(pr, pr->game);   /* it ended while this player was away */
    progress(pr);
}

static void player_message(conn *p, const char *type, json_t *m)
{
    if (strcmp(type, "seek_created") == 0) {
        json_t *s = json_object_get(m, "seek");
        json_t *id = json_is_object(s) ? json_object_get(s, "id") : s;
        int me = (int)(p - conns);
        conn *partner = &conns[me | 1];
        if (id && me % 2 == 0 && pairs[p->pair].phase == P_SEEKING && partner->hello)
            send_json(partner, json_pack("{s:s, s:O, s:s}", "type", "accept", "seek", id, "ref",
                                         "accept"));
    } else if (strcmp(type, "game") == 0) {
        json_t *g = json_object_get(m, "game");
        on_game(p, json_is_object(g) ? g : m);
    } else if (strcmp(type, "move") == 0) {
        on_move(p, m);
    } else if (strcmp(type, "end") == 0) {
        on_end(p, m);
    }
}

/* --- spectators ------------------------------------------------------------------- */

/* Asks for the lobby, to pick a game from it. */
static void spec_next(conn *p)
{
    if (p->state != OPEN || stopping)
        return;
    p->phase = S_LOBBY;
    p->game = 0;
    p->gen++;
    send_json(p, json_pack("{s:s, s:s}", "type", "lobby", "ref", "lobby"));
}

static void spec_lobby(conn *p, json_t *m)
{
    if (p->phase != S_LOBBY)
        return;   /* a lobby change sent before our `unlobby` arrived */
    /* The lobby answered; changes of it would only flood us. */
    send_json(p, json_pack("{s:s}", "type", "unlobby"));
    json_t *games = json_object_get(m, "games"), *v;
    size_t i, n = 0;
    long long ids[128];
    json_array_foreach(games, i, v) {
        if (n < 128 && is_live(v) && id_of(json_object_get(v, "id")))
            ids[n++] = id_of(json_object_get(v, "id"));
    }
    p->gen++;
    if (!n) {
        p->phase = S_IDLE;
        timer_add(p, T_LOBBY, after_ms(1000, 1000));
        return;
    }
    p->game = ids[rng() % n];
    p->next_ply = -1;
    p->phase = S_WATCHING;
    send_game(p, "watch", p->game);
    timer_add(p, T_LEAVE, after_ms(2000, 20000));
}

static void spec_message(conn *p, const char *type, json_t *m)
{
    if (strcmp(type, "lobby") == 0) {
        spec_lobby(p, m);
        return;
    }
    json_t *g = json_object_get(m, "game");
    int state = strcmp(type, "game") == 0;
    long long id = state ? id_of(json_object_get(g, "id")) : id_of(g);
    if (p->phase != S_WATCHING || !id || id != p->game)
        return;
    if (state && !is_live(g)) {
        spec_next(p);   /* it ended before we came: another */
    } else if (state) {
        st.watches++;
        p->next_ply = ply_of(g, -1);
    } else if (strcmp(type, "move") == 0 && p->next_ply >= 0) {
        long ply = ply_of(m, p->next_ply);
        if (ply != p->next_ply) {
            st.err_proto++;
            sample("a spectator got a move out of order", "");
        }
        p->next_ply = ply + 1;
    } else if (strcmp(type, "end") == 0) {
        st.watch_ended++;
        spec_next(p);
    }
}

/* --- messages ---------------------------------------------------------------------- */

static void on_error(conn *p, json_t *m)
{
    const char *e = json_string_value(json_object_get(m, "error"));
    const char *ref = json_string_value(json_object_get(m, "ref"));
    if (!e)
        e = "?";
    if (ref && strcmp(ref, "move") == 0) {
        /* the server had a newer state than ours (a reconnect's race) */
        if (strncmp(e, "stale move", 10) == 0 || strncmp(e, "not your turn", 13) == 0) {
            st.stale++;
        } else {
            st.err_move++;
            sample("server error answering a move", e);
        }
        if (p->game)
            send_game(p, "watch", p->game);   /* the whole state again */
        return;
    }
    char what[64];
    snprintf(what, sizeof what, "server error%s%s%s", ref ? " (" : "", ref ? ref : "",
             ref ? ")" : "");
    st.err_other++;
    sample(what, e);
}

static void on_message(conn *p, const char *text, size_t len)
{
    json_t *m = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(m, "type"));
    if (!type) {
        st.err_proto++;
        sample("not a message", text);
    } else if (strcmp(type, "error") == 0) {
        on_error(p, m);
    } else if (strcmp(type, "hello") == 0) {
        p->hello = 1;
        if (p->spec)
            spec_next(p);
        else
            player_hello(p, m);
    } else if (p->spec) {
        spec_message(p, type, m);
    } else {
        player_message(p, type, m);
    }
    json_decref(m);
}

/* Takes whole frames out of p->in. -1 if the connection closed. */
static int read_frames(conn *p)
{
    for (;;) {
        const unsigned char *b = (const unsigned char *)p->in.p;
        size_t have = p->in.len;
        if (have < 2)
            return 0;
        if ((b[0] & 0x70) || (b[1] & 0x80)) {
            die(p, &st.err_proto, "bad frame from server");
            return -1;
        }
        uint64_t n = b[1] & 127;
        size_t h = 2;
        if (n == 126) {
            if (have < 4)
                return 0;
            n = (uint64_t)b[2] << 8 | b[3];
            h = 4;
        } else if (n == 127) {
            if (have < 10)
                return 0;
            n = 0;
            for (int i = 0; i < 8; i++)
                n = n << 8 | b[2 + i];
            h = 10;
        }
        if (n > MAX_FRAME) {
            die(p, &st.err_proto, "frame too long");
            return -1;
        }
        if (have - h < n)
            return 0;
        int op = b[0] & 15, fin = b[0] >> 7;
        const char *data = p->in.p + h;
        size_t len = (size_t)n;
        if (op == OP_PING) {
            send_frame(p, OP_PONG, data, len);
            if (flush(p) < 0) {
                die(p, &st.err_closed, "write failed");
                return -1;
            }
        } else if (op == OP_CLOSE) {
            if (!stopping)
                die(p, &st.err_closed, "server closed the WebSocket");
            else
                die(p, NULL, NULL);
            return -1;
        } else if (op == OP_TEXT && fin) {
            on_message(p, data, len);
            if (p->state != OPEN)
                return -1;
        } else if (op == OP_TEXT || op == OP_CONT) {
            /* The server sends whole messages; fragments would be a surprise. */
            die(p, &st.err_proto, "fragmented message");
            return -1;
        }
        buf_drop(&p->in, h + len);
    }
}

/* --- connection phases ------------------------------------------------------------- */

static void begin_http(conn *p)
{
    char req[256];
    snprintf(req, sizeof req, "GET /api/me HTTP/1.1\r\nHost: %s:%d\r\nConnection: close\r\n\r\n",
             opt.host, opt.port);
    buf_add(&p->out, req, strlen(req));
}

static void begin_shake(conn *p)
{
    unsigned char nonce[16];
    for (int i = 0; i < 16; i++)
        nonce[i] = (unsigned char)rng();
    char key[32], cat[96];
    base64(nonce, 16, key);
    snprintf(cat, sizeof cat, "%s%s", key, WS_GUID);
    unsigned char d[SHA_DIGEST_LENGTH];
    SHA1((const unsigned char *)cat, strlen(cat), d);
    base64(d, sizeof d, p->accept);
    char req[700];
    snprintf(req, sizeof req,
             "GET /ws HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n"
             "Cookie: citadel_session=%s\r\n\r\n",
             opt.host, opt.port, key, p->cookie);
    buf_add(&p->out, req, strlen(req));
}

/* The HTTP response to GET /api/me, complete or not. */
static void http_input(conn *p, int eof)
{
    size_t hl = head_end(&p->in);
    if (!hl) {
        if (eof)
            die(p, &st.err_http, "no HTTP response");
        return;
    }
    char v[512];
    int complete = eof;
    if (header(p->in.p, hl, "Content-Length", v, sizeof v) == 0)
        complete |= p->in.len - hl >= strtoul(v, NULL, 10);
    else if (header(p->in.p, hl, "Transfer-Encoding", v, sizeof v) == 0)
        complete |= p->in.len >= 5 && memcmp(p->in.p + p->in.len - 5, "0\r\n\r\n", 5) == 0;
    if (!complete)
        return;
    int status = 0;
    sscanf(p->in.p, "HTTP/%*d.%*d %d", &status);
    p->cookie[0] = '\0';
    /* Set-Cookie may come more than once: look for ours. */
    for (size_t i = 0; i < hl; i++) {
        const char *line = p->in.p + i;
        if (line[0] != '\n' || strncasecmp(line + 1, "Set-Cookie:", 11) != 0)
            continue;
        const char *c = line + 12;
        while (*c == ' ')
            c++;
        if (strncmp(c, "citadel_session=", 16) != 0)
            continue;
        c += 16;
        size_t n = strcspn(c, ";\r\n");
        if (n < sizeof p->cookie) {
            memcpy(p->cookie, c, n);
            p->cookie[n] = '\0';
        }
    }
    if (status != 200 || !p->cookie[0]) {
        char why[64];
        snprintf(why, sizeof why, "GET /api/me: status %d%s", status,
                 p->cookie[0] ? "" : ", no session cookie");
        sample(why, "");
        st.err_http++;
        die(p, NULL, NULL);
        return;
    }
    close_socket(p);
    p->state = SHAKE;
    if (open_socket(p) < 0) {
        die(p, &st.err_connect, "connect failed");
        return;
    }
    begin_shake(p);
}

static void shake_input(conn *p, int eof)
{
    size_t hl = head_end(&p->in);
    if (!hl) {
        if (eof)
            die(p, &st.err_shake, "no handshake answer");
        return;
    }
    int status = 0;
    char v[128];
    sscanf(p->in.p, "HTTP/%*d.%*d %d", &status);
    if (status != 101 || header(p->in.p, hl, "Sec-WebSocket-Accept", v, sizeof v) < 0 ||
        strcmp(v, p->accept) != 0) {
        char why[64];
        snprintf(why, sizeof why, "WebSocket handshake: status %d", status);
        die(p, &st.err_shake, why);
        return;
    }
    buf_drop(&p->in, hl);
    p->state = OPEN;
    p->tokens = BURST;
    p->tokens_ns = now_ns();
    connecting--;
    if (p->back)
        st.reconnects[p->spec]++;
    if (++st.open > st.peak)
        st.peak = st.open;
    if (st.open == nconns && !st.all_open_ns)
        st.all_open_ns = now_ns();
    start_next();
    if (p->state == OPEN)
        read_frames(p);
}

/* A dropped connection comes back: the handshake again, same cookie. */
static void reconnect(conn *p)
{
    p->state = SHAKE;
    p->back = 1;
    connecting++;
    if (open_socket(p) < 0) {
        die(p, &st.err_connect, "connect failed");
        return;
    }
    begin_shake(p);
}

static void start_next(void)
{
    while (!stopping && connecting < MAX_CONNECTING && next_to_start < nconns) {
        conn *p = &conns[next_to_start++];
        p->state = HTTP;
        connecting++;
        if (open_socket(p) < 0) {
            die(p, &st.err_connect, "connect failed");
            continue;
        }
        begin_http(p);
    }
}

static void on_event(conn *p, uint32_t events)
{
    if (p->state == DEAD || p->state == AWAY || p->fd < 0)
        return;
    if (p->connecting && (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
        int err = 0;
        socklen_t el = sizeof err;
        getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &err, &el);
        if (err) {
            die(p, &st.err_connect, strerror(err));
            return;
        }
        p->connecting = 0;
    }
    if (!p->connecting && p->out.len && flush(p) < 0) {
        die(p, &st.err_closed, "write failed");
        return;
    }
    if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR)) || p->connecting)
        return;
    int eof = 0;
    for (int reads = 0; reads < 4; reads++) {   /* bounded work per event */
        char tmp[16384];
        ssize_t n = recv(p->fd, tmp, sizeof tmp, 0);
        if (n > 0) {
            buf_add(&p->in, tmp, (size_t)n);
            continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EINTR))
            eof = 1;
        break;
    }
    if (p->state == HTTP)
        http_input(p, eof);
    else if (p->state == SHAKE)
        shake_input(p, eof);
    else if (p->state == OPEN && read_frames(p) == 0 && eof)
        die(p, stopping ? NULL : &st.err_closed, "server closed the connection");
}

static void on_timer(const timer *t)
{
    conn *p = &conns[t->who];
    if (p->gen != t->gen)
        return;
    if (t->kind == T_BACK && p->state == AWAY && !stopping)
        reconnect(p);
    else if (p->state != OPEN)
        return;
    else if (t->kind == T_MOVE)
        play(p);
    else if (t->kind == T_LOBBY)
        spec_next(p);
    else if (t->kind == T_LEAVE && p->phase == S_WATCHING && rng() % 2)
        drop(p);
    else if (t->kind == T_LEAVE && p->phase == S_WATCHING) {
        st.unwatches++;
        send_game(p, "unwatch", p->game);
        spec_next(p);
    }
}

/* Once a second: each player in a game drops with probability --churn. */
static void churn(void)
{
    for (int i = 0; i < nplayers; i++) {
        conn *p = &conns[i];
        const pair *pr = &pairs[p->pair];
        if (p->state == OPEN && p->hello && pr->phase == P_PLAYING && p->game == pr->game &&
            unit() < opt.churn)
            drop(p);
    }
}

/* --- main ----------------------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static double pct(double q)
{
    if (!st.nlat)
        return 0;
    size_t i = (size_t)(q * (double)(st.nlat - 1) + 0.5);
    return st.lat_us[i] / 1000.0;
}

/* Prints the summary; returns the number of errors. */
static long report(void)
{
    double secs = (double)(now_ns() - st.start_ns) / 1e9;
    if (st.nlat)
        qsort(st.lat_us, st.nlat, sizeof *st.lat_us, cmp_u32);
    printf("load: %d games on %s:%d for %.1f s, move delay %d ms, %d spectators, churn %g\n",
           opt.games, opt.host, opt.port, secs, opt.delay_ms, opt.spectators, opt.churn);
    printf("connections: peak %d, at end %d of %d", st.peak, st.open, nconns);
    if (st.all_open_ns)
        printf(" (all open after %.2f s)", (double)(st.all_open_ns - st.start_ns) / 1e9);
    printf("\ngames: started %ld, finished %ld\n", st.games_started, st.games_finished);
    printf("moves: %ld (%.1f per second)\n", st.moves, secs > 0 ? (double)st.moves / secs : 0);
    printf("latency ms (move sent -> opponent gets it): p50 %.2f  p90 %.2f  p99 %.2f  max %.2f"
           "  (n=%zu)\n",
           pct(0.50), pct(0.90), pct(0.99), pct(1.0), st.nlat);
    printf("reconnects: players %ld (of %ld drops), spectators %ld (of %ld drops)\n",
           st.reconnects[0], st.drops[0], st.reconnects[1], st.drops[1]);
    printf("spectator watches: %ld (%ld games ended while watched, %ld left with unwatch)\n",
           st.watches, st.watch_ended, st.unwatches);
    printf("server error messages: answering a move %ld (and %ld stale, not errors), others %ld\n",
           st.err_move, st.stale, st.err_other);
    long errors = st.err_connect + st.err_http + st.err_shake + st.err_move + st.err_other +
                  st.err_closed + st.err_proto;
    printf("errors: %ld (connect %ld, http %ld, handshake %ld, server error messages %ld, "
           "closed %ld, protocol %ld)\n",
           errors, st.err_connect, st.err_http, st.err_shake, st.err_move + st.err_other,
           st.err_closed, st.err_proto);
    for (int i = 0; i < st.nsamples; i++)
        printf("  %s\n", st.samples[i]);
    fflush(stdout);
    return errors;
}

static void on_signal(int sig)
{
    (void)sig;
    stop_now = 1;
}

static void usage(void)
{
    fprintf(stderr, "usage: load --port P --games N --duration S [--move-delay-ms D]\n"
                    "            [--host 127.0.0.1] [--variant rampart] [--move-limit 100]\n"
                    "            [--spectators N] [--churn P] [--games-total N] [--rate R]\n");
    exit(2);
}

static long arg_long(const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || end == s || v < lo || v > hi)
        usage();
    return v;
}

static int arg_int(const char *s, int lo, int hi)
{
    return (int)arg_long(s, lo, hi);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            usage();
        if (strcmp(a, "--port") == 0)
            opt.port = arg_int(v, 1, 65535);
        else if (strcmp(a, "--games") == 0)
            opt.games = arg_int(v, 1, MAX_GAMES);
        else if (strcmp(a, "--duration") == 0)
            opt.seconds = arg_int(v, 1, MAX_SECONDS);
        else if (strcmp(a, "--move-delay-ms") == 0)
            opt.delay_ms = arg_int(v, 0, 600000);
        else if (strcmp(a, "--move-limit") == 0)
            opt.move_limit = arg_int(v, 0, 100000);
        else if (strcmp(a, "--spectators") == 0)
            opt.spectators = arg_int(v, 0, MAX_SPECTATORS);
        else if (strcmp(a, "--games-total") == 0)
            opt.games_total = arg_long(v, 1, 1000000000L);
        else if (strcmp(a, "--rate") == 0)
            opt.rate = arg_int(v, 0, 100000);
        else if (strcmp(a, "--churn") == 0) {
            char *end;
            opt.churn = strtod(v, &end);
            if (*end || end == v || !(opt.churn >= 0 && opt.churn <= 1))
                usage();
        } else if (strcmp(a, "--host") == 0)
            opt.host = v;
        else if (strcmp(a, "--variant") == 0)
            opt.variant = v;
        else
            usage();
        i++;
    }
    struct in_addr addr;
    if (!opt.port || !opt.games || !opt.seconds)
        usage();
    if (inet_pton(AF_INET, opt.host, &addr) != 1 || (ntohl(addr.s_addr) >> 24) != 127) {
        fprintf(stderr, "load: --host must be a loopback IPv4 address (127.x.x.x)\n");
        return 2;
    }

    nplayers = 2 * opt.games;
    nconns = nplayers + opt.spectators;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)nconns + 32) {
        fprintf(stderr, "load: %d connections need more open files than the limit (%llu)\n",
                nconns, (unsigned long long)rl.rlim_cur);
        return 1;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    rng_state ^= (uint64_t)now_ns() ^ (uint64_t)getpid() << 32;

    conns = calloc((size_t)nconns, sizeof *conns);
    pairs = calloc((size_t)opt.games, sizeof *pairs);
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (!conns || !pairs || epfd < 0) {
        fprintf(stderr, "load: cannot start\n");
        return 1;
    }
    for (int i = 0; i < nconns; i++) {
        conns[i].fd = -1;
        conns[i].spec = i >= nplayers;
        conns[i].pair = i < nplayers ? i / 2 : 0;
        conns[i].to_move = -1;
        conns[i].next_ply = -1;
    }
    st.start_ns = now_ns();
    long long end_ns = st.start_ns + (long long)opt.seconds * 1000000000LL;
    long long churn_ns = st.start_ns + 1000000000LL;
    start_next();

    struct epoll_event evs[256];
    while (!stop_now && now_ns() < end_ns &&
           !(opt.games_total && st.games_finished >= opt.games_total)) {
        long long now = now_ns(), wake = end_ns;
        if (heap.len && heap.t[0].due_ns < wake)
            wake = heap.t[0].due_ns;
        if (opt.churn > 0 && churn_ns < wake)
            wake = churn_ns;
        int wait_ms = (int)((wake - now + 999999) / 1000000);
        if (wait_ms < 0)
            wait_ms = 0;
        if (wait_ms > 100)
            wait_ms = 100;
        int n = epoll_wait(epfd, evs, 256, wait_ms);
        for (int i = 0; i < n; i++)
            on_event(&conns[evs[i].data.u32], evs[i].events);
        now = now_ns();
        while (heap.len && heap.t[0].due_ns <= now) {
            timer due = heap.t[0];
            timer_pop();
            on_timer(&due);
        }
        if (opt.churn > 0 && now >= churn_ns) {
            churn();
            churn_ns += 1000000000LL;
        }
    }
    stopping = 1;
    long errors = report();
    for (int i = 0; i < nconns; i++) {
        conn *p = &conns[i];
        if (p->state == OPEN) {
            unsigned char code[2] = { 1000 >> 8, 1000 & 0xff };
            send_frame(p, OP_CLOSE, code, 2);
            flush(p);
        }
        close_socket(p);
        free(p->in.p);
        free(p->out.p);
        json_decref(p->legal);
    }
    free(conns);
    free(pairs);
    free(heap.t);
    free(st.lat_us);
    close(epfd);
    return errors ? 1 : 0;
}
