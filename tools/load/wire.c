/* wire.c -- what moves bytes for the load generator (load.c): sockets, the
 * GET /api/me that gets a session cookie, the WebSocket handshake, frames
 * both ways, the timer heap, and the small helpers both files use.
 *
 * One thread, one epoll loop, non-blocking sockets. A connection goes through
 * these states, and only this file moves it from one to another:
 *
 *   WAIT   not connected yet (at most MAX_CONNECTING start at once)
 *   HTTP   GET /api/me on its own connection, for the session cookie
 *   SHAKE  the WebSocket handshake on a second connection
 *   OPEN   framing and JSON messages
 *   AWAY   dropped on purpose; a timer brings it back to SHAKE, same cookie
 *   DEAD   closed by the server or failed; counted, never reconnected
 *
 * `connecting` is the number of connections in HTTP or SHAKE, st.open the
 * number in OPEN; each change of state keeps both right.
 *
 * Timers (moves, reconnects, a spectator's stay) sit in one binary heap,
 * soonest first; a timer carries its connection's generation number, and
 * on_timer (load.c) ignores it if the connection's state moved on since.
 *
 * Every whole text frame from the server goes to wire.on_message (load.c's);
 * pings are answered and close frames handled here. The frames themselves
 * are made and read by tests/server/wsframe.c, as the tests' client does.
 *
 * This file owns the run's shared state (load.h) and calls nothing in
 * load.c but the two functions load.c put in `wire`.
 */
#include "load.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNECTING 64
#define MAX_FRAME (1u << 24)
#define BURST 50.0           /* messages a connection may send at once (the server allows 60) */

struct wire wire;
conn *conns;
int nconns;
int epfd;
struct timer_heap heap;
int stopping;
uint64_t rng_state = 0x9e3779b97f4a7c15u;
struct stats st;

static int connecting, next_to_start;

/* --- small things ------------------------------------------------------------ */

long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

/* Uniform in [0, 1). */
double unit(void)
{
    return (double)(rng() >> 11) * 0x1.0p-53;
}

/* A time lo..hi ms from now, uniform. */
long long after_ms(int lo, int hi)
{
    long long ms = lo + (long long)(rng() % (uint64_t)(hi - lo + 1));
    return now_ns() + ms * 1000000LL;
}

/* Keeps the first few distinct error texts for the report. */
void sample(const char *what, const char *text)
{
    char line[sizeof st.samples[0]];
    snprintf(line, sizeof line, "%s%s%.120s", what, text[0] ? ": " : "", text);
    for (int i = 0; i < st.nsamples; i++)
        if (strcmp(st.samples[i], line) == 0)
            return;
    if (st.nsamples < 5)
        memcpy(st.samples[st.nsamples++], line, sizeof line);
}

void *xrealloc(void *p, size_t n)
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

void timer_add(conn *p, int kind, long long due_ns)
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

void timer_pop(void)
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

long long id_of(const json_t *v)
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
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)wire.port_of(p)) };
    inet_pton(AF_INET, wire.host, &a.sin_addr);
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

void close_socket(conn *p)
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
int flush(conn *p)
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

void forget_game(conn *p)
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

void send_frame(conn *p, int op, const void *data, size_t len)
{
    uint32_t m = (uint32_t)rng();
    unsigned char mask[4] = { (unsigned char)m, (unsigned char)(m >> 8),
                              (unsigned char)(m >> 16), (unsigned char)(m >> 24) };
    unsigned char h[WSFRAME_HEAD_MAX];
    buf_add(&p->out, h, wsframe_head(h, op, 1, len, mask));
    size_t at = p->out.len;   /* buf_add may move the buffer: mask after it */
    buf_add(&p->out, data, len);
    wsframe_mask((unsigned char *)p->out.p + at, len, mask);
}

/* Brings p's pacing tokens up to now (--rate messages a second, BURST at once). */
void refill(conn *p)
{
    long long now = now_ns();
    p->tokens += (double)(now - p->tokens_ns) * wire.rate / 1e9;
    if (p->tokens > BURST)
        p->tokens = BURST;
    p->tokens_ns = now;
}

/* Sends msg (and takes it) if p is open. */
void send_json(conn *p, json_t *msg)
{
    char *text = p->state == OPEN ? json_dumps(msg, JSON_COMPACT) : NULL;
    json_decref(msg);
    if (!text)
        return;
    if (wire.rate) {
        refill(p);
        p->tokens -= 1;
    }
    send_frame(p, WS_TEXT, text, strlen(text));
    free(text);
    if (flush(p) < 0)
        die(p, &st.err_closed, "write failed");
}

void send_game(conn *p, const char *type, long long game)
{
    send_json(p, json_pack("{s:s, s:I, s:s}", "type", type, "game", (json_int_t)game, "ref", type));
}

/* Drops p on purpose: the socket closed (for players, half the time after a
 * close frame), and a timer to come back with the same cookie. */
void drop(conn *p)
{
    if (!p->spec && rng() % 2) {
        unsigned char code[2] = { 1001 >> 8, 1001 & 0xff };
        send_frame(p, WS_CLOSE, code, 2);
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

/* --- reading frames ------------------------------------------------------------ */

/* Takes whole frames out of p->in. -1 if the connection closed. */
static int read_frames(conn *p)
{
    for (;;) {
        wsframe f;
        int rc = wsframe_read((const unsigned char *)p->in.p, p->in.len, MAX_FRAME, &f);
        if (rc == 0)
            return 0;
        if (rc < 0) {
            die(p, &st.err_proto, rc == -2 ? "frame too long" : "bad frame from server");
            return -1;
        }
        int op = f.opcode, fin = f.fin;
        size_t h = f.head, len = f.len;
        const char *data = p->in.p + h;
        if (op == WS_PING) {
            send_frame(p, WS_PONG, data, len);
            if (flush(p) < 0) {
                die(p, &st.err_closed, "write failed");
                return -1;
            }
        } else if (op == WS_CLOSE) {
            if (!stopping)
                die(p, &st.err_closed, "server closed the WebSocket");
            else
                die(p, NULL, NULL);
            return -1;
        } else if (op == WS_TEXT && fin) {
            wire.on_message(p, data, len);
            if (p->state != OPEN)
                return -1;
        } else if (op == WS_TEXT || op == WS_CONT) {
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
             wire.host, wire.port_of(p));
    buf_add(&p->out, req, strlen(req));
}

static void begin_shake(conn *p)
{
    unsigned char nonce[16];
    for (int i = 0; i < 16; i++)
        nonce[i] = (unsigned char)rng();
    char key[WSFRAME_KEY];
    wsframe_key(nonce, key);
    wsframe_accept(key, p->accept);
    char req[700];
    snprintf(req, sizeof req,
             "GET /ws HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n"
             "Cookie: citadel_session=%s\r\n\r\n",
             wire.host, wire.port_of(p), key, p->cookie);
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
void reconnect(conn *p)
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

void start_next(void)
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

static void closed_by_server(conn *p);

void on_event(conn *p, uint32_t events)
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
        closed_by_server(p);
}

/* The server closed p: with several servers (and the run going on) it
 * comes back on another, as a page behind one address would, and watches
 * its games again; else it is dead. */
static void closed_by_server(conn *p)
{
    if (wire.several && !stopping) {
        /* its server stopped: as a page behind one address would, it comes
         * back on another server and watches its games again */
        st.moved++;
        st.open--;
        close_socket(p);
        p->state = AWAY;
        p->hello = 0;
        p->phase = S_IDLE;
        p->shift++;
        forget_game(p);
        timer_add(p, T_BACK, after_ms(500, 2000));
    } else {
        die(p, stopping ? NULL : &st.err_closed, "server closed the connection");
    }
}
