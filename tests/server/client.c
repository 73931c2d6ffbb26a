/* client.c -- the blocking HTTP/WebSocket test client (see client.h).
 *
 * Every socket is blocking in principle but is only ever read or written
 * after poll() says it is ready, against a deadline fixed when the call
 * began: a call's timeout bounds the whole call, not each read.
 *
 * A ws_conn keeps the bytes received but not yet consumed in `in`; a frame
 * is taken out of it only once it is whole, so a timeout in the middle of a
 * frame loses nothing. Fragments of a message gather in `msg` until FIN.
 */
#include "client.h"
#include "wirelog.h"
#include "wsframe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* --- time, sockets, buffers ---------------------------------------------- */

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int left_ms(long long deadline)
{
    long long d = deadline - now_ms();
    return d < 0 ? 0 : (int)d;
}

/* Waits for fd to be ready for `events` until deadline: 1 ready, 0 timeout,
 * -1 error. */
static int wait_fd(int fd, short events, long long deadline)
{
    for (;;) {
        struct pollfd p = { .fd = fd, .events = events };
        int n = poll(&p, 1, left_ms(deadline));
        if (n > 0)
            return 1;
        if (n == 0)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}

static char source_addr[64];    /* client_source */
static char extra_headers[1024]; /* client_headers */

void client_source(const char *addr)
{
    snprintf(source_addr, sizeof source_addr, "%s", addr ? addr : "");
}

void client_headers(const char *lines)
{
    snprintf(extra_headers, sizeof extra_headers, "%s", lines ? lines : "");
}

/* Binds fd to the source address, if one is set (IPv4 only). 0 or -1. */
static int bind_source(int fd, int family)
{
    if (!source_addr[0] || family != AF_INET)
        return 0;
    struct sockaddr_in a = { .sin_family = AF_INET };
    if (inet_pton(AF_INET, source_addr, &a.sin_addr) != 1)
        return -1;
    return bind(fd, (struct sockaddr *)&a, sizeof a);
}

/* A connected TCP socket to host:port, or -1. */
static int tcp_connect(const char *host, int port, long long deadline)
{
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
    struct addrinfo *res = NULL;
    if (getaddrinfo(host, service, &hints, &res) != 0)
        return -1;
    int fd = -1;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0)
            continue;
        int rc = bind_source(fd, a->ai_family);
        if (rc == 0)
            rc = connect(fd, a->ai_addr, a->ai_addrlen);
        if (rc < 0 && errno == EINPROGRESS) {
            int err = 0;
            socklen_t el = sizeof err;
            if (wait_fd(fd, POLLOUT, deadline) == 1 &&
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err == 0)
                rc = 0;
        }
        if (rc < 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd >= 0) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    return fd;
}

/* Writes all len bytes before deadline: 0 or -1. */
static int send_all(int fd, const void *data, size_t len, long long deadline)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n > 0) {
            p += n;
            len -= (size_t)n;
        } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            if (wait_fd(fd, POLLOUT, deadline) != 1)
                return -1;
        } else {
            return -1;
        }
    }
    return 0;
}

typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static int buf_reserve(buf *b, size_t more)
{
    if (b->len + more + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

static int buf_add(buf *b, const void *data, size_t len)
{
    if (buf_reserve(b, len) < 0)
        return -1;
    memcpy(b->p + b->len, data, len);
    b->len += len;
    b->p[b->len] = '\0';
    return 0;
}

/* Reads what is available into b, waiting until deadline for something.
 * 1 got bytes, 0 the peer closed, -2 timeout, -1 error. */
static int recv_some(int fd, buf *b, long long deadline)
{
    for (;;) {
        if (buf_reserve(b, 16384) < 0)
            return -1;
        ssize_t n = recv(fd, b->p + b->len, b->cap - b->len - 1, 0);
        if (n > 0) {
            b->len += (size_t)n;
            b->p[b->len] = '\0';
            return 1;
        }
        if (n == 0)
            return 0;
        if (errno == ECONNRESET)
            return 0;
        if (errno != EAGAIN && errno != EINTR)
            return -1;
        int w = wait_fd(fd, POLLIN, deadline);
        if (w == 0)
            return -2;
        if (w < 0)
            return -1;
    }
}

static void random_bytes(void *out, size_t len)
{
    unsigned char *p = out;
    while (len > 0) {
        size_t n = len > 256 ? 256 : len;
        if (getentropy(p, n) != 0) {   /* never on Linux; still, fill something */
            for (size_t i = 0; i < n; i++)
                p[i] = (unsigned char)rand();
        }
        p += n;
        len -= n;
    }
}

/* --- HTTP responses ---------------------------------------------------------- */

/* The end of the header block in buf (offset past the blank line), or 0. */
static size_t head_end(const char *p, size_t len)
{
    for (size_t i = 3; i < len; i++)
        if (p[i - 3] == '\r' && p[i - 2] == '\n' && p[i - 1] == '\r' && p[i] == '\n')
            return i + 1;
    return 0;
}

/* Finds header `name` in the head [p, p+hlen) starting after line `from`;
 * copies its value (trimmed) into out. Returns the offset after the line,
 * or 0 if there is no further such header. */
static size_t header_next(const char *p, size_t hlen, const char *name, size_t from, char *out,
                          size_t outsz)
{
    size_t nlen = strlen(name);
    size_t i = from;
    while (i < hlen) {
        const char *eol = memchr(p + i, '\n', hlen - i);
        size_t e = eol ? (size_t)(eol - p) : hlen;
        const char *line = p + i;
        size_t ll = e - i;
        if (ll > nlen && line[nlen] == ':' && strncasecmp(line, name, nlen) == 0) {
            size_t a = nlen + 1, b = ll;
            while (a < b && (line[a] == ' ' || line[a] == '\t'))
                a++;
            while (b > a && (line[b - 1] == '\r' || line[b - 1] == ' ' || line[b - 1] == '\t'))
                b--;
            size_t n = b - a < outsz - 1 ? b - a : outsz - 1;
            memcpy(out, line + a, n);
            out[n] = '\0';
            return e + 1;
        }
        i = e + 1;
    }
    return 0;
}

static int header_get(const char *p, size_t hlen, const char *name, char *out, size_t outsz)
{
    out[0] = '\0';
    return header_next(p, hlen, name, 0, out, outsz) ? 0 : -1;
}

/* Does the comma-separated header value contain token (case-insensitive)? */
static int has_token(const char *value, const char *token)
{
    size_t tl = strlen(token);
    for (const char *s = value; *s;) {
        while (*s == ' ' || *s == ',' || *s == '\t')
            s++;
        size_t n = strcspn(s, ", \t");
        if (n == tl && strncasecmp(s, token, tl) == 0)
            return 1;
        s += n;
    }
    return 0;
}

/* Decodes a chunked body starting at p. 1 and the body added to out with
 * *used set, 0 if incomplete, -1 if malformed. */
static int dechunk(const char *p, size_t len, buf *out, size_t *used)
{
    size_t i = 0;
    for (;;) {
        const char *eol = memchr(p + i, '\n', len - i);
        if (!eol)
            return 0;
        char *end;
        errno = 0;
        unsigned long long n = strtoull(p + i, &end, 16);
        if (end == p + i || errno || (*end != '\r' && *end != ';' && *end != '\n'))
            return -1;
        i = (size_t)(eol - p) + 1;
        if (n == 0) {
            /* trailers until a blank line */
            for (;;) {
                const char *e2 = memchr(p + i, '\n', len - i);
                if (!e2)
                    return 0;
                size_t ll = (size_t)(e2 - (p + i));
                i += ll + 1;
                if (ll == 0 || (ll == 1 && p[i - 2] == '\r')) {
                    *used = i;
                    return 1;
                }
            }
        }
        if (n > len || len - i < n + 2)
            return 0;
        if (buf_add(out, p + i, (size_t)n) < 0)
            return -1;
        i += (size_t)n;
        if (p[i] == '\r')
            i++;
        if (p[i] != '\n')
            return -1;
        i++;
    }
}

/* Parses a response from buf: 1 complete (*out filled), 0 incomplete, -1
 * malformed. `closed`: the peer has closed, so a body without length ends
 * here. */
static int parse_response(const char *p, size_t len, int closed, http_resp *out)
{
    size_t hl = head_end(p, len);
    if (!hl)
        return closed ? -1 : 0;
    int major, minor, status;
    if (sscanf(p, "HTTP/%d.%d %d", &major, &minor, &status) != 3 || status < 100 || status > 999)
        return -1;
    char v[512];
    buf body = { 0 };
    int rc;
    size_t used = 0;
    if (header_get(p, hl, "Transfer-Encoding", v, sizeof v) == 0 && has_token(v, "chunked")) {
        rc = dechunk(p + hl, len - hl, &body, &used);
    } else if (header_get(p, hl, "Content-Length", v, sizeof v) == 0) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 10);
        if (end == v || *end || errno)
            return -1;
        if (len - hl < n) {
            rc = closed ? -1 : 0;
        } else {
            rc = buf_add(&body, p + hl, (size_t)n) < 0 ? -1 : 1;
        }
    } else if (status == 204 || status == 304 || status < 200) {
        rc = 1;
    } else {
        rc = closed ? (buf_add(&body, p + hl, len - hl) < 0 ? -1 : 1) : 0;
    }
    if (rc == 1 && !body.p)
        rc = buf_add(&body, "", 0) < 0 ? -1 : 1;
    if (rc != 1) {
        free(body.p);
        return rc;
    }
    memset(out, 0, sizeof *out);
    out->status = status;
    out->body = body.p;
    out->len = body.len;
    header_get(p, hl, "Content-Type", out->content_type, sizeof out->content_type);
    size_t at = 0;
    while ((at = header_next(p, hl, "Set-Cookie", at, v, sizeof v)) != 0) {
        if (strncmp(v, "citadel_session=", 16) == 0) {
            size_t n = strcspn(v + 16, ";");
            if (n >= sizeof out->cookie)
                n = sizeof out->cookie - 1;
            memcpy(out->cookie, v + 16, n);
            out->cookie[n] = '\0';
            out->cookie_set = 1;
        }
    }
    return 1;
}

char *http_header(const char *resp, const char *name, char *out, size_t size)
{
    out[0] = 0;
    size_t n = strlen(name);
    for (const char *p = resp; (p = strstr(p, "\r\n")); p += 2) {
        if (p[2] == '\r')
            break;  /* the end of the head */
        if (strncasecmp(p + 2, name, n) == 0 && p[2 + n] == ':') {
            const char *v = p + 3 + n;
            while (*v == ' ')
                v++;
            snprintf(out, size, "%.*s", (int)strcspn(v, "\r"), v);
            break;
        }
    }
    return out;
}

int http_parse(const char *p, size_t len, http_resp *out)
{
    memset(out, 0, sizeof *out);
    return parse_response(p, len, 1, out) == 1 ? 0 : -1;
}

void http_resp_free(http_resp *r)
{
    if (!r)
        return;
    free(r->body);
    r->body = NULL;
    r->len = 0;
}

int http_begin(const char *host, int port, const char *method, const char *path,
               const char *cookie, const char *body)
{
    long long deadline = now_ms() + CLIENT_IO_MS;
    int fd = tcp_connect(host, port, deadline);
    if (fd < 0)
        return -1;
    buf req = { 0 };
    char line[600];
    snprintf(line, sizeof line, "%s %s HTTP/1.1\r\nHost: %s:%d\r\nConnection: close\r\n", method,
             path, host, port);
    int bad = buf_add(&req, line, strlen(line));
    bad |= buf_add(&req, extra_headers, strlen(extra_headers));
    if (cookie) {
        snprintf(line, sizeof line, "Cookie: citadel_session=%s\r\n", cookie);
        bad |= buf_add(&req, line, strlen(line));
    }
    size_t blen = body ? strlen(body) : 0;
    if (body || strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0) {
        snprintf(line, sizeof line, "Content-Type: application/json\r\nContent-Length: %zu\r\n",
                 blen);
        bad |= buf_add(&req, line, strlen(line));
    }
    bad |= buf_add(&req, "\r\n", 2);
    if (body)
        bad |= buf_add(&req, body, blen);
    if (bad || send_all(fd, req.p, req.len, deadline) < 0) {
        free(req.p);
        close(fd);
        return -1;
    }
    free(req.p);
    wirelog_http_begin(fd, method, path, body);
    return fd;
}

int http_finish(int fd, http_resp *out)
{
    memset(out, 0, sizeof *out);
    if (fd < 0)
        return -1;
    long long deadline = now_ms() + CLIENT_IO_MS;
    buf in = { 0 };
    int rc = 0;
    while (rc == 0) {
        int r = recv_some(fd, &in, deadline);
        if (r < 0) {
            rc = -1;
            break;
        }
        rc = parse_response(in.p ? in.p : "", in.len, r == 0, out);
        if (rc == 0 && r == 0)
            rc = -1;   /* closed before the body was whole */
    }
    free(in.p);
    wirelog_http_end(fd, rc == 1 ? out : NULL);
    close(fd);
    return rc == 1 ? 0 : -1;
}

int http_request(const char *host, int port, const char *method, const char *path,
                 const char *cookie, const char *body, http_resp *out)
{
    memset(out, 0, sizeof *out);
    int fd = http_begin(host, port, method, path, cookie, body);
    return fd < 0 ? -1 : http_finish(fd, out);
}

int http_raw(const char *host, int port, const void *req, size_t len, char **resp,
             size_t *resp_len, int timeout_ms)
{
    *resp = NULL;
    *resp_len = 0;
    long long deadline = now_ms() + timeout_ms;
    int fd = tcp_connect(host, port, deadline);
    if (fd < 0)
        return -1;
    send_all(fd, req, len, deadline); /* the server may hang up midway: read what it said */
    buf in = { 0 };
    buf_add(&in, "", 0);
    int r;
    while ((r = recv_some(fd, &in, deadline)) == 1)
        ;
    close(fd);
    *resp = in.p;
    *resp_len = in.len;
    return r == -2 ? 1 : 0;
}

/* --- WebSocket ------------------------------------------------------------ */

struct ws_conn {
    int fd;
    buf in;            /* received, not yet consumed */
    buf msg;           /* fragments of the message being reassembled */
    int msg_op;        /* its opcode, 0 if none in progress */
    int closed;        /* 1: close frame received, socket ended or protocol broken */
    int close_code;
    int close_sent;
    char last_error[512];
};

static int ws_write_frame(ws_conn *c, int opcode, int fin, const void *data, size_t len)
{
    unsigned char mask[4];
    random_bytes(mask, 4);
    unsigned char *frame = malloc(WSFRAME_HEAD_MAX + len);
    if (!frame)
        return -1;
    size_t h = wsframe_head(frame, opcode, fin, len, mask);
    memcpy(frame + h, data, len);
    wsframe_mask(frame + h, len, mask);
    int rc = send_all(c->fd, frame, h + len, now_ms() + CLIENT_IO_MS);
    free(frame);
    return rc;
}

int ws_send_frame(ws_conn *c, int opcode, int fin, const void *data, size_t len)
{
    return ws_write_frame(c, opcode, fin, data, len);
}

int ws_send_hostile(ws_conn *c, const char *text)
{
    return ws_write_frame(c, WS_TEXT, 1, text, strlen(text));
}

int ws_send_text(ws_conn *c, const char *text)
{
    wirelog_ws("ws-send", text, strlen(text));
    return ws_write_frame(c, WS_TEXT, 1, text, strlen(text));
}

int ws_send_raw(ws_conn *c, const void *bytes, size_t len)
{
    return send_all(c->fd, bytes, len, now_ms() + CLIENT_IO_MS);
}

static void ws_mark_closed(ws_conn *c, int code)
{
    if (!c->closed) {
        c->closed = 1;
        c->close_code = code;
    }
}

/* Takes one whole frame out of c->in: 1 (fields set, *data malloc'd), 0 if
 * not yet whole, -1 if it breaks the protocol (a masked server frame, RSV
 * bits, a bad length). */
static int take_frame(ws_conn *c, int *opcode, int *fin, unsigned char **data, size_t *len)
{
    const unsigned char *p = (const unsigned char *)c->in.p;
    size_t have = c->in.len;
    wsframe f;
    int rc = wsframe_read(p, have, 1u << 30, &f);
    if (rc <= 0)
        return rc < 0 ? -1 : 0;
    *opcode = f.opcode;
    *fin = f.fin;
    *len = f.len;
    *data = malloc(f.len + 1);
    if (!*data)
        return -1;
    memcpy(*data, p + f.head, f.len);
    (*data)[f.len] = '\0';
    memmove(c->in.p, c->in.p + f.head + f.len, have - f.head - f.len);
    c->in.len = have - f.head - f.len;
    return 1;
}

/* Handles one frame. Returns a finished text message (malloc'd) or NULL. */
static char *handle_frame(ws_conn *c, int op, int fin, unsigned char *data, size_t len)
{
    switch (op) {
    case WS_PING:
        ws_write_frame(c, WS_PONG, 1, data, len);
        break;
    case WS_PONG:
        break;
    case WS_CLOSE:
        ws_mark_closed(c, len >= 2 ? (data[0] << 8 | data[1]) : 1005);
        if (!c->close_sent) {
            c->close_sent = 1;
            ws_write_frame(c, WS_CLOSE, 1, data, len >= 2 ? 2 : 0);
        }
        break;
    case WS_TEXT:
    case WS_BINARY:
    case WS_CONT:
        if ((op == WS_CONT) != (c->msg_op != 0)) {
            ws_mark_closed(c, 1002);     /* continuation without start, or start in the middle */
            break;
        }
        if (op != WS_CONT)
            c->msg_op = op;
        if (buf_add(&c->msg, data, len) < 0) {
            ws_mark_closed(c, 1009);
            break;
        }
        if (fin) {
            int was = c->msg_op;
            c->msg_op = 0;
            char *text = c->msg.p ? c->msg.p : strdup("");
            c->msg = (buf){ 0 };
            if (was == WS_TEXT)
                return text;
            free(text);
        }
        break;
    default:
        ws_mark_closed(c, 1002);
    }
    return NULL;
}

char *ws_recv_text(ws_conn *c, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    while (!c->closed) {
        int op, fin;
        unsigned char *data;
        size_t len;
        int t = take_frame(c, &op, &fin, &data, &len);
        if (t < 0) {
            ws_mark_closed(c, 1002);
            break;
        }
        if (t == 1) {
            char *text = handle_frame(c, op, fin, data, len);
            free(data);
            if (text) {
                wirelog_ws("ws-recv", text, strlen(text));
                return text;
            }
            continue;
        }
        int r = recv_some(c->fd, &c->in, deadline);
        if (r == -2)
            return NULL;
        if (r <= 0)
            ws_mark_closed(c, 1006);
    }
    return NULL;
}

int ws_is_closed(const ws_conn *c)
{
    return c->closed;
}

int ws_close_code(const ws_conn *c)
{
    return c->closed ? c->close_code : 0;
}

ws_conn *ws_connect(const char *host, int port, const char *path, const char *cookie,
                    int *http_status)
{
    if (http_status)
        *http_status = 0;
    long long deadline = now_ms() + CLIENT_IO_MS;
    int fd = tcp_connect(host, port, deadline);
    if (fd < 0)
        return NULL;
    unsigned char nonce[16];
    random_bytes(nonce, sizeof nonce);
    char key[WSFRAME_KEY];
    wsframe_key(nonce, key);
    char req[1024];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                     "Sec-WebSocket-Version: 13\r\n%s%s%s%s\r\n",
                     path, host, port, key, extra_headers, cookie ? "Cookie: citadel_session=" : "",
                     cookie ? cookie : "", cookie ? "\r\n" : "");
    ws_conn *c = calloc(1, sizeof *c);
    if (!c || n < 0 || (size_t)n >= sizeof req || send_all(fd, req, (size_t)n, deadline) < 0)
        goto fail;
    c->fd = fd;
    size_t hl;
    while ((hl = head_end(c->in.p ? c->in.p : "", c->in.len)) == 0)
        if (recv_some(fd, &c->in, deadline) != 1)
            goto fail;
    int major, minor, status;
    if (sscanf(c->in.p, "HTTP/%d.%d %d", &major, &minor, &status) != 3)
        goto fail;
    if (http_status)
        *http_status = status;
    if (status != 101)
        goto fail;
    char want[WSFRAME_ACCEPT], got[128], v[128];
    wsframe_accept(key, want);
    if (header_get(c->in.p, hl, "Sec-WebSocket-Accept", got, sizeof got) < 0 ||
        strcmp(got, want) != 0)
        goto fail;
    if (header_get(c->in.p, hl, "Upgrade", v, sizeof v) < 0 || strcasecmp(v, "websocket") != 0)
        goto fail;
    if (header_get(c->in.p, hl, "Connection", v, sizeof v) < 0 || !has_token(v, "upgrade"))
        goto fail;
    memmove(c->in.p, c->in.p + hl, c->in.len - hl);   /* frames may follow the head */
    c->in.len -= hl;
    return c;
fail:
    close(fd);
    if (c)
        free(c->in.p);
    free(c);
    return NULL;
}

void ws_close(ws_conn *c)
{
    if (!c)
        return;
    if (!c->closed && !c->close_sent) {
        unsigned char code[2] = { 1000 >> 8, 1000 & 0xff };
        c->close_sent = 1;
        if (ws_write_frame(c, WS_CLOSE, 1, code, 2) == 0) {
            /* wait a little for the server's close, dropping messages */
            long long deadline = now_ms() + 1000;
            while (!c->closed && left_ms(deadline) > 0)
                free(ws_recv_text(c, left_ms(deadline)));
        }
    }
    close(c->fd);
    free(c->in.p);
    free(c->msg.p);
    free(c);
}

void ws_drop(ws_conn *c)
{
    if (!c)
        return;
    close(c->fd);
    free(c->in.p);
    free(c->msg.p);
    free(c);
}

int ws_send_json(ws_conn *c, json_t *msg)
{
    char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
    json_decref(msg);
    if (!text)
        return -1;
    int rc = ws_send_text(c, text);
    free(text);
    return rc;
}

json_t *ws_recv_json(ws_conn *c, int timeout_ms)
{
    char *text = ws_recv_text(c, timeout_ms);
    if (!text)
        return NULL;
    json_t *j = json_loads(text, 0, NULL);
    free(text);
    if (j && !json_is_object(j)) {
        json_decref(j);
        j = NULL;
    }
    return j;
}

json_t *ws_expect(ws_conn *c, const char *type, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    while (!c->closed) {
        int left = left_ms(deadline);
        json_t *j = ws_recv_json(c, left);
        if (!j) {
            if (left == 0 || left_ms(deadline) == 0)
                return NULL;
            continue;   /* a message that was not an object: skip it */
        }
        const char *t = json_string_value(json_object_get(j, "type"));
        if (t && strcmp(t, "error") == 0) {
            const char *e = json_string_value(json_object_get(j, "error"));
            snprintf(c->last_error, sizeof c->last_error, "%s", e ? e : "(no text)");
        }
        if (t && strcmp(t, type) == 0)
            return j;
        json_decref(j);
    }
    return NULL;
}

const char *ws_last_error(const ws_conn *c)
{
    return c->last_error;
}
