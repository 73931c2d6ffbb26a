/* net.c -- net.h on libwebsockets.
 *
 * The loop is a libuv loop of ours that lws joins; net_run runs it until
 * net_stop stops it. One lws protocol serves both HTTP and the WebSocket. Per connection lws
 * keeps a `pss` (per-session state, zeroed when the connection opens); an
 * HTTP connection reuses it for each request it carries (keep-alive), so a
 * request resets it first.
 *
 * Answers are written in two turns of the writeable callback: headers,
 * then the body, so that a partial write never has a second write behind
 * it (lws buffers what the kernel did not take and asks again).
 */
#include <errno.h>
#include <uv.h>  /* before libwebsockets.h: it then declares its libuv helpers */
#include <libwebsockets.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "net.h"
#include "net_fd.h"
#include "net_frames.h"
#include "net_queue.h"
#include "net_static.h"
#include "net_status.h"
#include "net_stream.h"

struct net {
    uv_loop_t loop;
    struct lws_context *ctx;
    net_callbacks cb;
    void *app;
    char webroot[512];
    char *static_headers;    /* lower-case "name: value\r\n" lines */
    /* Silent WebSockets: pinged after a third of idle_ms without a word
     * from them, hung up on after all of it. Our own sweep over the list
     * of connections, a few times a second: lws's own (its validity
     * policy) puts each connection's deadline back in a sorted list at
     * every message, a walk of the list each time, which with 10,000
     * connections took a quarter of the server's time. */
    int idle_ms;
    uv_timer_t idle_timer;
    net_conn *conns;         /* every open WebSocket */
    int port;
    int tls;                 /* served over TLS (net_tls.c shows net_frames.c the bytes) */
    atomic_int stop;
};

struct net_http {
    struct lws *wsi;     /* NULL once the client has gone */
    int answered;
};

struct net_conn {
    struct lws *wsi;
    net *n;
    net_conn *prev, *next;   /* n->conns */
    uint64_t heard;          /* loop ms anything (a pong too) last came from it */
    uint64_t pinged;         /* loop ms it was last pinged */
    int ping_due;            /* a ping waits for the next writeable turn */
    int killed;              /* hung up on for its silence */
    void *data;
    net_queue q;             /* messages to send, each as text */
    int closing;
    char *rx;            /* a message being reassembled from fragments */
    size_t rx_len;
};

struct net_timer {
    lws_sorted_usec_list_t sul;  /* first: the callback gets its address */
    net *n;
    net_timer_fn fn;
    void *arg;
};

enum { RESP_NONE, RESP_HEADERS, RESP_BODY };

/* The headers of a request that the app sees (net_request). */
typedef struct headers {
    char cookie[2048];
    char peer[64];
    char origin[256];
    char host[256];
    char content_type[128];
    char forwarded_for[256];
    char authorization[256];
    char accept[256];
} headers;

typedef struct pss {
    int is_ws;
    net_conn *conn;
    headers *upgrade;    /* a WebSocket's request, from its filter to its opening */
    int fd;              /* its socket, once it asked to upgrade (net_frames.c); 0 before */
    /* the HTTP request being read */
    char method[8];
    char path[1024];
    char query[1024];
    char *body;
    size_t body_len, body_cap;
    long content_length;
    int dispatched;      /* the request went to the app (once only: a POST with
                          * Content-Length 0 is dispatched at once, and lws
                          * then reports its empty body complete too) */
    net_http *pending;
    net_stream *stream;  /* the answer is a stream (net_stream.c) */
    /* the answer being written */
    int resp_state;
    int status;
    char ctype[64];
    char *extra;
    char *resp;
    size_t resp_len;
} pss;

int64_t net_mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t net_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static net *net_of(struct lws *wsi)
{
    return lws_context_user(lws_get_context(wsi));
}

static void request_reset(pss *p)
{
    free(p->body);
    free(p->resp);
    free(p->extra);
    p->body = p->resp = p->extra = NULL;
    p->body_len = p->body_cap = p->resp_len = 0;
    p->resp_state = RESP_NONE;
    p->content_length = 0;
    p->method[0] = p->path[0] = p->query[0] = 0;
    if (p->pending)
        p->pending->wsi = NULL;  /* an answer still to come is dropped */
    p->pending = NULL;
}

static void header_copy(struct lws *wsi, enum lws_token_indexes t, char *buf, int size)
{
    buf[0] = 0;
    if (lws_hdr_total_length(wsi, t) < size && lws_hdr_copy(wsi, buf, size, t) < 0)
        buf[0] = 0;
}

/* The query, as libwebsockets gives it: each `name=value` piece already
 * URL-decoded ("+" a space), joined again by "&". 0, or -1 if it does not
 * fit in buf (the request is then refused, never served with a part). */
static int query_copy(struct lws *wsi, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0;; i++) {
        char frag[1024];
        int flen = lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, i);
        if (flen <= 0)
            return 0;  /* no more pieces */
        if ((size_t)flen >= sizeof frag)
            return -1;
        int len = lws_hdr_copy_fragment(wsi, frag, sizeof frag, WSI_TOKEN_HTTP_URI_ARGS, i);
        if (len < 0)
            return -1;
        if (used + (size_t)len + 2 > size)
            return -1;
        if (used)
            buf[used++] = '&';
        memcpy(buf + used, frag, (size_t)len);
        used += (size_t)len;
        buf[used] = 0;
    }
}

/* X-Forwarded-For, or its last size - 1 bytes when longer: the entries a
 * proxy appends are at its end, and a client that sends a long one of its
 * own must not push them out (nor, by the whole being dropped, be counted
 * as the proxy). */
static void forwarded_copy(struct lws *wsi, char *buf, int size)
{
    int total = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR);
    buf[0] = 0;
    if (total < size) {
        header_copy(wsi, WSI_TOKEN_X_FORWARDED_FOR, buf, size);
        return;
    }
    char *all = malloc((size_t)total + 1);
    if (all && lws_hdr_copy(wsi, all, total + 1, WSI_TOKEN_X_FORWARDED_FOR) >= 0) {
        size_t len = strlen(all);
        size_t from = len >= (size_t)size ? len - (size_t)size + 1 : 0;
        memcpy(buf, all + from, len - from + 1);
    }
    free(all);
}

static void read_headers(struct lws *wsi, headers *hd)
{
    header_copy(wsi, WSI_TOKEN_HTTP_COOKIE, hd->cookie, sizeof hd->cookie);
    header_copy(wsi, WSI_TOKEN_ORIGIN, hd->origin, sizeof hd->origin);
    header_copy(wsi, WSI_TOKEN_HOST, hd->host, sizeof hd->host);
    header_copy(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, hd->content_type, sizeof hd->content_type);
    forwarded_copy(wsi, hd->forwarded_for, sizeof hd->forwarded_for);
    header_copy(wsi, WSI_TOKEN_HTTP_AUTHORIZATION, hd->authorization, sizeof hd->authorization);
    header_copy(wsi, WSI_TOKEN_HTTP_ACCEPT, hd->accept, sizeof hd->accept);
    lws_get_peer_simple(wsi, hd->peer, sizeof hd->peer);
}

static net_request request_of(const pss *p, const headers *hd)
{
    net_request req = {
        .method = p->method, .path = p->path, .query = p->query, .cookie = hd->cookie,
        .peer = hd->peer, .origin = hd->origin, .host = hd->host,
        .content_type = hd->content_type, .forwarded_for = hd->forwarded_for,
        .authorization = hd->authorization, .accept = hd->accept,
        .body = p->body ? p->body : "", .body_len = p->body_len,
    };
    return req;
}

/* Hands a complete request to the app. */
static void dispatch(net *n, struct lws *wsi, pss *p)
{
    headers hd;
    read_headers(wsi, &hd);
    net_http *h = calloc(1, sizeof *h);
    if (!h) {
        lws_return_http_status(wsi, HTTP_STATUS_INTERNAL_SERVER_ERROR, NULL);
        return;
    }
    h->wsi = wsi;
    p->pending = h;
    p->dispatched = 1;
    net_request req = request_of(p, &hd);
    n->cb.http(n->app, h, &req);
}

/* The connection's state of a request being answered, h used up; NULL
 * if the client went away (nobody waits for this answer). */
static pss *http_take(net_http *h)
{
    struct lws *wsi = h->wsi;
    int gone = !wsi || h->answered;
    free(h);
    if (gone)
        return NULL;
    pss *p = lws_wsi_user(wsi);
    p->pending = NULL;
    return p;
}

void net_http_reply(net_http *h, int status, const char *content_type,
                    const char *extra_headers, const char *body, size_t len)
{
    struct lws *wsi = h->wsi;
    pss *p = http_take(h);
    if (!p)
        return;
    p->status = status;
    snprintf(p->ctype, sizeof p->ctype, "%s", content_type ? content_type : "text/plain");
    p->extra = extra_headers ? strdup(extra_headers) : NULL;
    p->resp = malloc(LWS_PRE + len + 1);
    if (p->resp) {
        if (len)
            memcpy(p->resp + LWS_PRE, body, len);
        p->resp_len = len;
    }
    p->resp_state = RESP_HEADERS;
    lws_callback_on_writable(wsi);
}

net_stream *net_http_stream(net_http *h, int status, const char *content_type,
                            net_stream_gone gone, void *arg)
{
    struct lws *wsi = h->wsi;
    pss *p = http_take(h);
    if (!p)
        return NULL;
    p->stream = net_stream_new(wsi, status, content_type, gone, arg);
    if (!p->stream) {
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        return NULL;
    }
    lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0);  /* it lives as long as it is read */
    lws_callback_on_writable(wsi);
    return p->stream;
}

/* A request is answered whole: the next bytes on the connection begin a
 * new request's head (net_frames.c measures it). Nonzero to close. */
static int transaction_done(struct lws *wsi)
{
    net_frames_next(lws_get_socket_fd(wsi));
    return lws_http_transaction_completed(wsi);
}

/* Answers and ends a connection lws has not answered yet (an upgrade
 * refused): a whole HTTP/1.1 answer, whatever the request's version lws
 * has seen. Returns -1, for the callback to close with. */
static int refuse(struct lws *wsi, int status, const char *extra, const char *why)
{
    unsigned char buf[LWS_PRE + 1024];
    int len = net_closing_answer((char *)buf + LWS_PRE, sizeof buf - LWS_PRE, status, extra, why);
    if (len > 0)
        lws_write(wsi, buf + LWS_PRE, (size_t)len, LWS_WRITE_HTTP);
    return -1;
}

/* RFC 6455 4.1: the key is the base64 of 16 random bytes, 24 characters
 * ending "==" whose last data character carries no stray bits. */
static int ws_key_ok(const char *key)
{
    static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (strlen(key) != 24 || strcmp(key + 22, "==") != 0)
        return 0;
    for (int i = 0; i < 22; i++)
        if (!key[i] || !strchr(b64, key[i]))
            return 0;
    return ((strchr(b64, key[21]) - b64) & 15) == 0;
}

/* Writes the next part of an answer; returns -1 to close. */
static int write_answer(struct lws *wsi, pss *p)
{
    if (p->resp_state == RESP_HEADERS) {
        unsigned char buf[LWS_PRE + 4096];
        unsigned char *start = buf + LWS_PRE, *q = start, *end = buf + sizeof buf - 1;
        if (!p->resp) {
            p->status = HTTP_STATUS_INTERNAL_SERVER_ERROR;
            p->resp_len = 0;
        }
        /* our own status line: lws's lacks the reason phrase of 429 */
        char sline[64];
        int slen = net_status_line(sline, sizeof sline, p->status);
        if (slen < 0 ||
            lws_add_http_header_by_name(wsi, NULL, (const unsigned char *)sline, slen, &q, end) ||
            lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE,
                                         (const unsigned char *)p->ctype, (int)strlen(p->ctype),
                                         &q, end) ||
            lws_add_http_header_content_length(wsi, (lws_filepos_t)p->resp_len, &q, end))
            return -1;
        static const char nosniff[] = "nosniff";
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)"x-content-type-options:",
                                        (const unsigned char *)nosniff, sizeof nosniff - 1,
                                        &q, end))
            return -1;
        static const char nocache[] = "no-store";
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                        (const unsigned char *)nocache, sizeof nocache - 1,
                                        &q, end))
            return -1;
        /* extra headers: "Name: value\r\n" lines */
        for (char *line = p->extra; line && *line;) {
            char *eol = strstr(line, "\r\n");
            size_t llen = eol ? (size_t)(eol - line) : strlen(line);
            char *colon = memchr(line, ':', llen);
            if (colon) {
                char name[64];
                size_t nlen = (size_t)(colon - line) + 1;
                if (nlen < sizeof name) {
                    memcpy(name, line, nlen);
                    name[nlen] = 0;
                    for (char *c = name; *c; c++)
                        if (*c >= 'A' && *c <= 'Z')
                            *c = (char)(*c - 'A' + 'a');
                    const char *val = colon + 1;
                    while (*val == ' ')
                        val++;
                    if (lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                                    (const unsigned char *)val,
                                                    (int)(line + llen - val), &q, end))
                        return -1;
                }
            }
            line = eol ? eol + 2 : line + llen;
        }
        if (lws_finalize_write_http_header(wsi, start, &q, end))
            return -1;
        p->resp_state = RESP_BODY;
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (p->resp_state == RESP_BODY) {
        p->resp_state = RESP_NONE;
        if (p->resp_len &&
            lws_write(wsi, (unsigned char *)p->resp + LWS_PRE, p->resp_len,
                      LWS_WRITE_HTTP_FINAL) < (int)p->resp_len)
            return -1;
        request_reset(p);
        if (transaction_done(wsi))
            return -1;
    }
    return 0;
}

static void conn_free(net_conn *c)
{
    net_queue_drop(&c->q);
    free(c->rx);
    free(c);
}

static int on_http(net *n, struct lws *wsi, pss *p)
{
    request_reset(p);
    p->dispatched = 0;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0) {
        strcpy(p->method, "GET");
        header_copy(wsi, WSI_TOKEN_GET_URI, p->path, sizeof p->path);
    } else if (lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0) {
        strcpy(p->method, "POST");
        header_copy(wsi, WSI_TOKEN_POST_URI, p->path, sizeof p->path);
    } else if (lws_hdr_total_length(wsi, WSI_TOKEN_DELETE_URI) > 0) {
        strcpy(p->method, "DELETE");
        header_copy(wsi, WSI_TOKEN_DELETE_URI, p->path, sizeof p->path);
    } else {
        lws_return_http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, NULL);
        return transaction_done(wsi) ? -1 : 0;
    }
    if (!p->path[0]) {
        lws_return_http_status(wsi, HTTP_STATUS_REQ_URI_TOO_LONG, NULL);
        return -1;
    }
    /* Two ways of saying where the body ends (or one this server does not
     * take): answered once, then the connection goes, so no byte of it is
     * ever read as a request of its own. */
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0) {
        lws_return_http_status(wsi, HTTP_STATUS_BAD_REQUEST,
                               "Transfer-Encoding is not accepted; send Content-Length");
        return -1;
    }
    if (query_copy(wsi, p->query, sizeof p->query) != 0) {
        lws_return_http_status(wsi, HTTP_STATUS_REQ_URI_TOO_LONG, NULL);
        return -1;
    }
    /* the app's: /api/, and a game's record where lichess's clients ask
     * for it (GET only); every other path is a file of the page's */
    int api = strncmp(p->path, "/api/", 5) == 0;
    if (!api) {
        if (strcmp(p->method, "GET") != 0) {
            lws_return_http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, NULL);
            return transaction_done(wsi) ? -1 : 0;
        }
        if (strncmp(p->path, "/game/export/", 13) != 0)
            return net_static_serve(wsi, n->webroot, n->static_headers, p->path);
    }
    if (strcmp(p->method, "POST") == 0) {
        char len[32];
        header_copy(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, len, sizeof len);
        char *end;
        errno = 0;
        long cl = len[0] ? strtol(len, &end, 10) : 0;
        if (len[0] && (errno || *end || cl < 0)) {
            lws_return_http_status(wsi, HTTP_STATUS_BAD_REQUEST, NULL);
            return -1;
        }
        if (cl > NET_BODY_MAX) {
            lws_return_http_status(wsi, HTTP_STATUS_REQ_ENTITY_TOO_LARGE, NULL);
            return -1;
        }
        p->content_length = cl;
        if (cl > 0)
            return 0;  /* the body follows */
    }
    dispatch(n, wsi, p);
    return 0;
}

static int on_body(struct lws *wsi, pss *p, const void *in, size_t len)
{
    if (p->body_len + len > NET_BODY_MAX) {
        lws_return_http_status(wsi, HTTP_STATUS_REQ_ENTITY_TOO_LARGE, NULL);
        return -1;
    }
    if (p->body_len + len + 1 > p->body_cap) {
        size_t cap = p->body_cap ? p->body_cap : 1024;
        while (cap < p->body_len + len + 1)
            cap *= 2;
        char *b = realloc(p->body, cap);
        if (!b)
            return -1;
        p->body = b;
        p->body_cap = cap;
    }
    if (len)
        memcpy(p->body + p->body_len, in, len);
    p->body_len += len;
    p->body[p->body_len] = 0;
    return 0;
}

/* An upgrade: the app sees its headers first and may refuse it. */
static int on_ws_filter(net *n, struct lws *wsi, pss *p)
{
    char path[256];
    header_copy(wsi, WSI_TOKEN_GET_URI, path, sizeof path);
    free(p->upgrade);
    p->upgrade = NULL;
    if (strcmp(path, "/ws") != 0)
        return refuse(wsi, 404, NULL, "no WebSocket here; it is /ws");
    /* RFC 6455 4.2.1: version 13, else 426 naming it; a key of 16 bytes */
    char version[16], key[64];
    header_copy(wsi, WSI_TOKEN_VERSION, version, sizeof version);
    header_copy(wsi, WSI_TOKEN_KEY, key, sizeof key);
    if (strcmp(version, "13") != 0)
        return refuse(wsi, 426, "Sec-WebSocket-Version: 13\r\n",
                      "this server speaks WebSocket version 13 only");
    if (!ws_key_ok(key))
        return refuse(wsi, 400, NULL, "Sec-WebSocket-Key must be the base64 of 16 bytes");
    p->fd = lws_get_socket_fd(wsi) + 1;
    if (net_frames_upgrade(p->fd - 1) != 0)  /* RFC 6455 4.1: a client waits */
        return refuse(wsi, 400, NULL, "frames came before the answer to the handshake");
    headers *hd = calloc(1, sizeof *hd);
    if (!hd)
        return -1;
    read_headers(wsi, hd);
    pss q;
    memset(&q, 0, sizeof q);
    strcpy(q.method, "GET");
    strcpy(q.path, "/ws");
    net_request req = request_of(&q, hd);
    int status = n->cb.ws_filter ? n->cb.ws_filter(n->app, &req) : 0;
    if (status) {
        free(hd);
        char extra[64] = "";
        if (status == 429)
            snprintf(extra, sizeof extra, "Retry-After: %d\r\n", NET_RETRY_AFTER_S);
        return refuse(wsi, status, extra,
                      status == 403 ? "this origin may not open a WebSocket here"
                      : status == 429 ? "too many WebSockets from here; try again later"
                                      : "the WebSocket was refused");
    }
    p->upgrade = hd;
    return 0;
}

static int on_ws_open(net *n, struct lws *wsi, pss *p)
{
    headers *hd = p->upgrade;
    p->upgrade = NULL;
    if (!hd)
        return -1;
    net_conn *c = calloc(1, sizeof *c);
    if (!c) {
        free(hd);
        return -1;
    }
    c->wsi = wsi;
    c->n = n;
    p->is_ws = 1;
    p->conn = c;
    pss q;
    memset(&q, 0, sizeof q);
    strcpy(q.method, "GET");
    strcpy(q.path, "/ws");
    net_request req = request_of(&q, hd);
    int refused = n->cb.ws_open(n->app, c, &req);
    free(hd);
    if (refused) {
        p->conn = NULL;
        conn_free(c);
        return -1;
    }
    c->heard = uv_now(&n->loop);
    c->next = n->conns;
    if (n->conns)
        n->conns->prev = c;
    n->conns = c;
    return 0;
}

static void conn_unlink(net_conn *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else if (c->n->conns == c)
        c->n->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
}

/* The sweep of silent WebSockets (struct net). */
static void idle_sweep(uv_timer_t *t)
{
    net *n = t->data;
    uint64_t now = uv_now(&n->loop), ping_after = (uint64_t)n->idle_ms / 3;
    for (net_conn *c = n->conns; c; c = c->next) {
        uint64_t silent = now - c->heard;
        if (silent >= (uint64_t)n->idle_ms) {
            if (!c->killed) {
                c->killed = c->closing = 1;
                lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
            }
        } else if (silent >= ping_after && now - c->pinged >= ping_after && !c->closing) {
            c->pinged = now;
            c->ping_due = 1;
            lws_callback_on_writable(c->wsi);
        }
    }
}

static int on_ws_receive(net *n, struct lws *wsi, pss *p, const void *in, size_t len)
{
    net_conn *c = p->conn;
    if (!c || c->closing)
        return 0;
    c->heard = uv_now(&n->loop);
    if (lws_frame_is_binary(wsi)) {
        static const char why[] = "text messages only";
        lws_close_reason(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE,
                         (unsigned char *)why, sizeof why - 1);
        return -1;
    }
    if (c->rx_len + len > NET_MSG_MAX) {
        static const char why[] = "message too big";
        lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE,
                         (unsigned char *)why, sizeof why - 1);
        return -1;
    }
    char *rx = realloc(c->rx, c->rx_len + len + 1);
    if (!rx)
        return -1;
    c->rx = rx;
    if (len)
        memcpy(c->rx + c->rx_len, in, len);
    c->rx_len += len;
    c->rx[c->rx_len] = 0;
    if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
        char *text = c->rx;
        size_t tlen = c->rx_len;
        c->rx = NULL;
        c->rx_len = 0;
        n->cb.ws_message(n->app, c, text, tlen);
        free(text);
    }
    return 0;
}

static int on_ws_writeable(struct lws *wsi, pss *p)
{
    net_conn *c = p->conn;
    if (!c)
        return 0;
    if (c->closing)
        return -1;
    if (c->ping_due) {
        /* with a payload: lws 4.1 does not report a pong without one */
        unsigned char ping[LWS_PRE + 1] = {0};
        c->ping_due = 0;
        ping[LWS_PRE] = 'p';
        if (lws_write(wsi, ping + LWS_PRE, 1, LWS_WRITE_PING) < 1)
            return -1;
        if (c->q.head)
            lws_callback_on_writable(wsi);
        return 0;
    }
    size_t len;
    unsigned char *m = net_queue_first(&c->q, &len);
    if (!m)
        return 0;
    int w = lws_write(wsi, m, len, LWS_WRITE_TEXT);
    net_queue_pop(&c->q);  /* lws has sent it or kept what it could not */
    if (w < (int)len)
        return -1;
    if (c->q.head)
        lws_callback_on_writable(wsi);
    return 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    pss *p = user;
    net *n;
    switch (reason) {
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        /* user is lws's lws_filter_network_conn_args here, not a pss */
        n = net_of(wsi);
        if (n && user) {
            int fd = (int)((struct lws_filter_network_conn_args *)user)->accept_fd;
            net_frames_accept(fd);
            if (n->tls)
                net_frames_tls(fd);  /* its bytes come through net_tls.c */
        }
        return 0;
    case LWS_CALLBACK_HTTP:
        return on_http(net_of(wsi), wsi, p);
    case LWS_CALLBACK_HTTP_BODY:
        return on_body(wsi, p, in, len);
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        if (!p->dispatched)
            dispatch(net_of(wsi), wsi, p);
        return 0;
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return p->stream ? net_stream_writeable(p->stream) : write_answer(wsi, p);
    case LWS_CALLBACK_HTTP_FILE_COMPLETION:
        return transaction_done(wsi) ? -1 : 0;
    case LWS_CALLBACK_CLOSED_HTTP:
        if (p && p->stream) {
            net_stream_closed(p->stream);
            p->stream = NULL;
        }
        if (p && !p->is_ws)
            request_reset(p);
        return 0;
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return on_ws_filter(net_of(wsi), wsi, p);
    case LWS_CALLBACK_ESTABLISHED:
        return on_ws_open(net_of(wsi), wsi, p);
    case LWS_CALLBACK_RECEIVE:
        return on_ws_receive(net_of(wsi), wsi, p, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return on_ws_writeable(wsi, p);
    case LWS_CALLBACK_RECEIVE_PONG:
        if (p && p->conn)
            p->conn->heard = uv_now(&net_of(wsi)->loop);
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        if (p && p->stream) {  /* closed without CLOSED_HTTP */
            net_stream_closed(p->stream);
            p->stream = NULL;
        }
        if (p) {
            free(p->upgrade);
            p->upgrade = NULL;
            if (p->fd)
                net_frames_forget(p->fd - 1);
            p->fd = 0;
        }
        /* every socket lws accepted, a WebSocket or not (one whose TLS
         * never began has no pss): its number is free for others now */
        if (lws_get_socket_fd(wsi) >= 0)
            net_frames_forget((int)lws_get_socket_fd(wsi));
        return 0;
    case LWS_CALLBACK_CLOSED:
        if (p && p->fd) {
            net_frames_forget(p->fd - 1);
            p->fd = 0;
        }
        if (p && p->conn) {
            n = net_of(wsi);
            conn_unlink(p->conn);
            n->cb.ws_close(n->app, p->conn);
            conn_free(p->conn);
            p->conn = NULL;
        }
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        n = net_of(wsi);
        if (!n)
            return 0;
        if (atomic_load(&n->stop))
            uv_stop(&n->loop);
        else
            n->cb.wake(n->app);
        return 0;
    default:
        return 0;
    }
}

static const struct lws_protocols protocols[] = {
    {"citadel", callback, sizeof(pss), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

net *net_new(const net_config *cfg, const net_callbacks *cb, void *app, char *err,
             size_t errlen)
{
    net *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    n->cb = *cb;
    n->app = app;
    if (cfg->webroot)
        snprintf(n->webroot, sizeof n->webroot, "%s", cfg->webroot);
    if (cfg->static_headers && !(n->static_headers = strdup(cfg->static_headers))) {
        snprintf(err, errlen, "out of memory");
        free(n);
        return NULL;
    }

    /* Thousands of connections need as many descriptors. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }

    lws_set_log_level(LLL_ERR, NULL);
    if (uv_loop_init(&n->loop) != 0) {
        snprintf(err, errlen, "cannot make the event loop");
        free(n);
        return NULL;
    }
    void *loops[1] = {&n->loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = cfg->port;
    info.iface = cfg->addr;
    info.protocols = protocols;
    info.user = n;
    /* libuv's loop (epoll): poll() would walk every connection on every
     * turn of the loop, which thousands of connections make slow. */
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_LIBUV;
    if (!cfg->ipv6)
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    /* lws keeps a head's values in a table of this size and drops a
     * connection that overflows it, unanswered; net_frames.c answers 431
     * to any head past NET_HEAD_MAX bytes first (room for lws's own
     * bookkeeping of each header, up to 5 bytes a header, included) */
    info.max_http_header_data = 3 * NET_HEAD_MAX;
    info.timeout_secs = 20;
    info.ka_time = 0;
    info.foreign_loops = loops;
    n->idle_ms = cfg->ws_idle_s > 0 ? (cfg->ws_idle_s > 86400 ? 86400 : cfg->ws_idle_s) * 1000 : 0;
    n->tls = cfg->tls_cert && cfg->tls_key;
    net_frames_init();
    if (n->tls) {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = cfg->tls_cert;
        info.ssl_private_key_filepath = cfg->tls_key;
        info.alpn = "http/1.1";  /* the app speaks HTTP/1.1 semantics only */
    }
    n->ctx = lws_create_context(&info);
    if (!n->ctx) {
        snprintf(err, errlen, "cannot listen on %s:%d", cfg->addr, cfg->port);
        uv_run(&n->loop, UV_RUN_DEFAULT);
        uv_loop_close(&n->loop);
        free(n->static_headers);
        free(n);
        return NULL;
    }
    if (n->idle_ms > 0) {
        uint64_t every = (uint64_t)n->idle_ms / 6;
        every = every < 100 ? 100 : every > 1000 ? 1000 : every;
        uv_timer_init(&n->loop, &n->idle_timer);
        n->idle_timer.data = n;
        uv_timer_start(&n->idle_timer, idle_sweep, every, every);
    }
    n->port = cfg->port;
    struct lws_vhost *vh = lws_get_vhost_by_name(n->ctx, "default");
    if (vh && lws_get_vhost_listen_port(vh) > 0)
        n->port = lws_get_vhost_listen_port(vh);
    return n;
}

void net_free(net *n)
{
    if (!n)
        return;
    /* On a loop of ours, lws destroys in two steps: the first call closes
     * its handles, which the loop then runs to their end, and a second call
     * frees the context itself. */
    if (n->idle_ms > 0)
        uv_close((uv_handle_t *)&n->idle_timer, NULL);
    lws_context_destroy(n->ctx);
    uv_run(&n->loop, UV_RUN_DEFAULT);
    lws_context_destroy(n->ctx);
    uv_run(&n->loop, UV_RUN_DEFAULT);
    uv_loop_close(&n->loop);
    free(n->static_headers);
    free(n);
}

int net_run(net *n)
{
    if (!atomic_load(&n->stop))
        uv_run(&n->loop, UV_RUN_DEFAULT);
    return 0;
}

void net_stop(net *n)
{
    atomic_store(&n->stop, 1);
    lws_cancel_service(n->ctx);
}

void net_wake(net *n)
{
    lws_cancel_service(n->ctx);
}

int net_port(const net *n)
{
    return n->port;
}

uv_loop_t *net_uv_loop(net *n)
{
    return &n->loop;
}

int net_ws_send(net_conn *c, const char *text, size_t len)
{
    if (c->closing)
        return -1;
    if (c->q.bytes + len > NET_QUEUE_MAX) {
        /* A reader this slow is gone in all but name: what waits for it is
         * dropped now, and the connection closed on the loop's next turn,
         * not at a writeable turn, which a reader that has stopped never
         * gives (lws then calls ws_close, as for any close). */
        c->closing = 1;
        net_queue_drop(&c->q);
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        return -1;
    }
    unsigned char *m = net_queue_push(&c->q, len);
    if (!m)
        return -1;
    memcpy(m, text, len);
    lws_callback_on_writable(c->wsi);
    return 0;
}

void net_ws_close(net_conn *c)
{
    if (c->closing)
        return;
    c->closing = 1;
    net_queue_drop(&c->q);  /* a closing connection sends nothing more */
    lws_callback_on_writable(c->wsi);
}

void net_conn_set_data(net_conn *c, void *data)
{
    c->data = data;
}

void *net_conn_data(const net_conn *c)
{
    return c->data;
}

static void timer_fire(lws_sorted_usec_list_t *sul)
{
    net_timer *t = (net_timer *)sul;
    t->fn(t->arg);
}

net_timer *net_timer_new(net *n, net_timer_fn fn, void *arg)
{
    net_timer *t = calloc(1, sizeof *t);
    if (t) {
        t->n = n;
        t->fn = fn;
        t->arg = arg;
    }
    return t;
}

void net_timer_free(net_timer *t)
{
    if (t) {
        lws_sul_cancel(&t->sul);
        free(t);
    }
}

void net_timer_set(net_timer *t, int64_t ms)
{
    lws_sul_schedule(t->n->ctx, 0, &t->sul, timer_fire, (lws_usec_t)(ms < 0 ? 0 : ms) * 1000);
}

void net_timer_cancel(net_timer *t)
{
    lws_sul_cancel(&t->sul);
}
