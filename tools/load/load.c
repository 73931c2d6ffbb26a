/* load.c -- a load generator for `citadel serve`.
 *
 *   load --port P --games N --duration S [--move-delay-ms D] [--host 127.0.0.1]
 *        [--variant rampart] [--move-limit 100]
 *
 * Holds 2N players, each a guest with its own session (GET /api/me) and its
 * own WebSocket, and keeps N Rampart games going between fixed pairs: the
 * first of a pair seeks, the second accepts that seek, both play random legal
 * moves D ms after their turn comes, and the pair seeks again when a game
 * ends. After S seconds it prints what it saw (see README.md).
 *
 * One thread, one epoll loop, non-blocking sockets. A player goes through
 * these states:
 *
 *   WAIT   not connected yet (at most MAX_CONNECTING players connect at once)
 *   HTTP   GET /api/me on its own connection, for the session cookie
 *   SHAKE  the WebSocket handshake on a second connection
 *   OPEN   framing and JSON messages
 *   DEAD   closed; counted, never reconnected
 *
 * Timers: every move waits the same delay, so move timers fall due in the
 * order they were set and a FIFO ring serves as the timer queue; a timer
 * carries the player's generation number and is ignored if the player's
 * game moved on since.
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
#define MAX_SECONDS 3600
#define MAX_CONNECTING 64
#define MAX_FRAME (1u << 24)
#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

enum { WAIT, HTTP, SHAKE, OPEN, DEAD };
enum { OP_CONT = 0, OP_TEXT = 1, OP_CLOSE = 8, OP_PING = 9, OP_PONG = 10 };

typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

typedef struct player {
    int state;
    int fd;
    int pair;            /* index of its pair; player 2k is the seeker of pair k */
    int connecting;      /* socket connect() still in progress */
    buf in, out;
    char cookie[256];
    char accept[32];     /* the Sec-WebSocket-Accept we expect */
    unsigned gen;        /* bumped on every change of game state */
    json_t *game;        /* the current game's id, or NULL */
    unsigned sides;      /* bit s set: this player plays side s */
    int to_move;
    long next_ply;
    json_t *legal;       /* the legal moves now, or NULL */
} player;

typedef struct pair {
    int pending;         /* a move sent, its `move` not yet seen by the opponent */
    int sender;          /* who sent it */
    long long sent_ns;
} pair;

typedef struct timer {
    int who;
    unsigned gen;
    long long due_ns;
} timer;

typedef struct fifo {    /* a ring of timers due in the order pushed */
    timer *t;
    size_t head, len, cap;
} fifo;

static struct {
    const char *host;
    int port, games, seconds, delay_ms, move_limit;
    const char *variant;
} opt = { "127.0.0.1", 0, 0, 0, 1000, 100, "rampart" };

static player *players;
static pair *pairs;
static int nplayers;
static int epfd;
static fifo moves_due;
static int connecting, next_to_start;
static volatile sig_atomic_t stop_now;
static int stopping;
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static struct {
    long games_started, games_finished, moves;
    int open, peak;
    long err_connect, err_http, err_shake, err_server, err_closed, err_proto;
    char samples[5][160];
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

static void fifo_push(fifo *f, timer t)
{
    if (f->len == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 1024;
        timer *n = xrealloc(NULL, cap * sizeof *n);
        for (size_t i = 0; i < f->len; i++)
            n[i] = f->t[(f->head + i) % f->cap];
        free(f->t);
        f->t = n;
        f->head = 0;
        f->cap = cap;
    }
    f->t[(f->head + f->len++) % f->cap] = t;
}

static const timer *fifo_peek(const fifo *f)
{
    return f->len ? &f->t[f->head] : NULL;
}

static void fifo_pop(fifo *f)
{
    f->head = (f->head + 1) % f->cap;
    f->len--;
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

/* --- sockets -------------------------------------------------------------------- */

static void watch(player *p, int add)
{
    struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)(p - players) };
    if (p->connecting || p->out.len)
        ev.events |= EPOLLOUT;
    epoll_ctl(epfd, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, p->fd, &ev);
}

/* Starts a connection to the server: 0, or -1 at once. */
static int open_socket(player *p)
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

static void close_socket(player *p)
{
    if (p->fd >= 0) {
        epoll_ctl(epfd, EPOLL_CTL_DEL, p->fd, NULL);
        close(p->fd);
    }
    p->fd = -1;
    p->in.len = 0;
    p->out.len = 0;
}

/* Writes what the out buffer holds; -1 if the socket failed. */
static int flush(player *p)
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

static void die(player *p, long *counter, const char *why)
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
    close_socket(p);
    start_next();
}

/* --- WebSocket frames ------------------------------------------------------------ */

static void send_frame(player *p, int op, const void *data, size_t len)
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

static void send_json(player *p, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text)
        return;
    send_frame(p, OP_TEXT, text, strlen(text));
    free(text);
    if (flush(p) < 0)
        die(p, &st.err_closed, "write failed");
}

/* --- the game ---------------------------------------------------------------------- */

static void seek(player *p)
{
    json_t *m = json_pack("{s:s, s:s, s:i, s:i, s:i, s:b}", "type", "seek", "variant", opt.variant,
                          "base_ms", 0, "inc_ms", 0, "move_limit", opt.move_limit, "rated", 0);
    send_json(p, m);
}

static int my_turn(const player *p)
{
    return p->game && p->legal && json_array_size(p->legal) > 0 && p->to_move >= 0 &&
           p->to_move < 32 && (p->sides >> p->to_move & 1);
}

static void maybe_schedule(player *p)
{
    if (my_turn(p) && !stopping)
        fifo_push(&moves_due, (timer){ (int)(p - players), p->gen,
                                       now_ns() + (long long)opt.delay_ms * 1000000LL });
}

static void play(player *p)
{
    if (!my_turn(p) || p->state != OPEN)
        return;
    size_t n = json_array_size(p->legal);
    json_t *mv = json_array_get(p->legal, (size_t)(rng() % n));
    pair *pr = &pairs[p->pair];
    pr->pending = 1;
    pr->sender = (int)(p - players);
    pr->sent_ns = now_ns();
    p->gen++;   /* no second move until the server answers */
    send_json(p, json_pack("{s:s, s:O, s:i, s:O}", "type", "move", "game", p->game, "ply",
                           (json_int_t)p->next_ply, "move", mv));
}

static void set_legal(player *p, json_t *msg)
{
    json_t *legal = json_object_get(msg, "legal");
    json_decref(p->legal);
    p->legal = json_is_array(legal) ? json_incref(legal) : NULL;
    json_t *tm = json_object_get(msg, "to_move");
    p->to_move = json_is_integer(tm) ? (int)json_integer_value(tm) : -1;
    p->gen++;
}

static void on_game(player *p, json_t *g)
{
    json_t *id = json_object_get(g, "id");
    if (!id)
        return;
    int fresh = !p->game || !json_equal(p->game, id);
    json_decref(p->game);
    p->game = json_incref(id);
    p->sides = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(g, "you"), i, v) {
        json_int_t s = json_integer_value(v);
        if (s >= 0 && s < 32)
            p->sides |= 1u << s;
    }
    json_t *moves = json_object_get(g, "moves");
    p->next_ply = (long)json_array_size(moves);
    const char *status = json_string_value(json_object_get(g, "status"));
    set_legal(p, g);
    if (status && strcmp(status, "live") != 0) {
        json_decref(p->legal);
        p->legal = NULL;
    }
    if (fresh && p->pair * 2 == (int)(p - players)) {
        st.games_started++;
        pairs[p->pair].pending = 0;
    }
    maybe_schedule(p);
}

static void on_move(player *p, json_t *m)
{
    if (!p->game || !json_equal(p->game, json_object_get(m, "game")))
        return;
    pair *pr = &pairs[p->pair];
    if (pr->pending && pr->sender != (int)(p - players)) {
        long long us = (now_ns() - pr->sent_ns) / 1000;
        if (st.nlat == st.caplat) {
            st.caplat = st.caplat ? st.caplat * 2 : 65536;
            st.lat_us = xrealloc(st.lat_us, st.caplat * sizeof *st.lat_us);
        }
        st.lat_us[st.nlat++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
        pr->pending = 0;
        st.moves++;
    }
    p->next_ply++;
    set_legal(p, m);
    maybe_schedule(p);
}

static void on_end(player *p, json_t *m)
{
    if (!p->game || !json_equal(p->game, json_object_get(m, "game")))
        return;
    json_decref(p->game);
    json_decref(p->legal);
    p->game = NULL;
    p->legal = NULL;
    p->gen++;
    if (p->pair * 2 == (int)(p - players)) {
        st.games_finished++;
        if (!stopping)
            seek(p);
    }
}

static void on_message(player *p, const char *text, size_t len)
{
    json_t *m = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(m, "type"));
    if (!type) {
        st.err_proto++;
        sample("not a message", text);
    } else if (strcmp(type, "seek_created") == 0) {
        json_t *s = json_object_get(m, "seek");
        json_t *id = json_is_object(s) ? json_object_get(s, "id") : s;
        int me = (int)(p - players);
        player *partner = &players[me | 1];
        if (id && me % 2 == 0 && partner->state == OPEN)
            send_json(partner, json_pack("{s:s, s:O}", "type", "accept", "seek", id));
    } else if (strcmp(type, "game") == 0) {
        json_t *g = json_object_get(m, "game");
        on_game(p, json_is_object(g) ? g : m);
    } else if (strcmp(type, "move") == 0) {
        on_move(p, m);
    } else if (strcmp(type, "end") == 0) {
        on_end(p, m);
    } else if (strcmp(type, "error") == 0) {
        st.err_server++;
        const char *e = json_string_value(json_object_get(m, "error"));
        sample("server error", e ? e : "?");
        p->gen++;
        maybe_schedule(p);   /* if it was our move that failed, try again later */
    }
    json_decref(m);
}

/* Takes whole frames out of p->in. -1 if the player died. */
static int read_frames(player *p)
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

static void begin_http(player *p)
{
    char req[256];
    snprintf(req, sizeof req, "GET /api/me HTTP/1.1\r\nHost: %s:%d\r\nConnection: close\r\n\r\n",
             opt.host, opt.port);
    buf_add(&p->out, req, strlen(req));
}

static void begin_shake(player *p)
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
static void http_input(player *p, int eof)
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

static void shake_input(player *p, int eof)
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
    connecting--;
    if (++st.open > st.peak)
        st.peak = st.open;
    if (st.open == nplayers)
        st.all_open_ns = now_ns();
    int me = (int)(p - players), other = me ^ 1;
    if (players[other].state == OPEN)
        seek(&players[me & ~1]);
    start_next();
    if (p->state == OPEN)
        read_frames(p);
}

static void start_next(void)
{
    while (!stopping && connecting < MAX_CONNECTING && next_to_start < nplayers) {
        player *p = &players[next_to_start++];
        p->state = HTTP;
        connecting++;
        if (open_socket(p) < 0) {
            die(p, &st.err_connect, "connect failed");
            continue;
        }
        begin_http(p);
    }
}

static void on_event(player *p, uint32_t events)
{
    if (p->state == DEAD || p->fd < 0)
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
    printf("load: %d games on %s:%d for %.1f s, move delay %d ms\n", opt.games, opt.host, opt.port,
           secs, opt.delay_ms);
    printf("connections: peak %d, at end %d of %d", st.peak, st.open, nplayers);
    if (st.all_open_ns)
        printf(" (all open after %.2f s)", (double)(st.all_open_ns - st.start_ns) / 1e9);
    printf("\ngames: started %ld, finished %ld\n", st.games_started, st.games_finished);
    printf("moves: %ld (%.1f per second)\n", st.moves, secs > 0 ? (double)st.moves / secs : 0);
    printf("latency ms (move sent -> opponent gets it): p50 %.2f  p90 %.2f  p99 %.2f  max %.2f"
           "  (n=%zu)\n",
           pct(0.50), pct(0.90), pct(0.99), pct(1.0), st.nlat);
    long errors = st.err_connect + st.err_http + st.err_shake + st.err_server + st.err_closed +
                  st.err_proto;
    printf("errors: %ld (connect %ld, http %ld, handshake %ld, server error messages %ld, "
           "closed %ld, protocol %ld)\n",
           errors, st.err_connect, st.err_http, st.err_shake, st.err_server, st.err_closed,
           st.err_proto);
    for (int i = 0; i < st.nsamples; i++)
        printf("  %s\n", st.samples[i]);
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
                    "            [--host 127.0.0.1] [--variant rampart] [--move-limit 100]\n");
    exit(2);
}

static int arg_int(const char *s, int lo, int hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || end == s || v < lo || v > hi)
        usage();
    return (int)v;
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
        else if (strcmp(a, "--host") == 0)
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
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)nplayers + 32) {
        fprintf(stderr, "load: %d connections need more open files than the limit (%llu)\n",
                nplayers, (unsigned long long)rl.rlim_cur);
        return 1;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    rng_state ^= (uint64_t)now_ns() ^ (uint64_t)getpid() << 32;

    players = calloc((size_t)nplayers, sizeof *players);
    pairs = calloc((size_t)opt.games, sizeof *pairs);
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (!players || !pairs || epfd < 0) {
        fprintf(stderr, "load: cannot start\n");
        return 1;
    }
    for (int i = 0; i < nplayers; i++) {
        players[i].fd = -1;
        players[i].pair = i / 2;
        players[i].to_move = -1;
    }
    st.start_ns = now_ns();
    long long end_ns = st.start_ns + (long long)opt.seconds * 1000000000LL;
    start_next();

    struct epoll_event evs[256];
    while (!stop_now && now_ns() < end_ns) {
        long long now = now_ns(), wake = end_ns;
        const timer *t = fifo_peek(&moves_due);
        if (t && t->due_ns < wake)
            wake = t->due_ns;
        int wait_ms = (int)((wake - now + 999999) / 1000000);
        if (wait_ms < 0)
            wait_ms = 0;
        if (wait_ms > 100)
            wait_ms = 100;
        int n = epoll_wait(epfd, evs, 256, wait_ms);
        for (int i = 0; i < n; i++)
            on_event(&players[evs[i].data.u32], evs[i].events);
        now = now_ns();
        while ((t = fifo_peek(&moves_due)) && t->due_ns <= now) {
            timer due = *t;
            fifo_pop(&moves_due);
            player *p = &players[due.who];
            if (p->state == OPEN && p->gen == due.gen)
                play(p);
        }
    }
    stopping = 1;
    long errors = report();
    for (int i = 0; i < nplayers; i++) {
        player *p = &players[i];
        if (p->state == OPEN) {
            unsigned char code[2] = { 1000 >> 8, 1000 & 0xff };
            send_frame(p, OP_CLOSE, code, 2);
            flush(p);
        }
        close_socket(p);
        free(p->in.p);
        free(p->out.p);
        json_decref(p->game);
        json_decref(p->legal);
    }
    free(players);
    free(pairs);
    free(moves_due.t);
    free(st.lat_us);
    close(epfd);
    return errors ? 1 : 0;
}
