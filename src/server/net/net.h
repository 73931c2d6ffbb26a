/* net.h -- HTTP and WebSocket on one port: the server's only door to the
 * network. Everything about libwebsockets stays inside net.c.
 *
 * One thread runs the loop (net_run); every callback below runs on it.
 * Other threads may only call net_wake, which makes the loop call
 * `wake` soon after.
 *
 * HTTP.  Each request (its body read in full, at most NET_BODY_MAX bytes;
 * larger ones are refused with 413 before the app sees them) reaches the
 * app as a net_http. The app answers it exactly once with net_http_reply,
 * at once or later (after work on another thread, say); if the client has
 * gone meanwhile the answer is dropped. A request that says its body's
 * length twice (Transfer-Encoding beside Content-Length, or any
 * Transfer-Encoding: bodies come with a Content-Length here) is answered
 * 400 and its connection closed, before the app sees it (RFC 9112 6.3: a
 * reader that cannot tell where a request ends must not guess). Paths not
 * under /api/ and not /ws are served from the web root, if one is set,
 * with the app's static_headers; a file whose name carries a content hash
 * ("app.3f9a61c0.js") may be cached for good, any other must be checked
 * again each time (Cache-Control no-cache). Source maps and dot-files are
 * never served.
 *
 * A request head (request line and headers) longer than NET_HEAD_MAX
 * bytes is answered 431, and a request line with a NUL in it (raw or
 * "%00") 400, then the connection closes (net_frames.c: lws 4.1 would drop
 * both unanswered; under TLS it still does). Every status line is
 * "HTTP/1.1 CODE REASON" (net_status.c).
 *
 * WebSocket.  An upgrade to /ws must say Sec-WebSocket-Version 13 (426
 * otherwise, naming 13) and carry a key of 16 bytes in base64 (400
 * otherwise); it is then shown to the app (`ws_filter`: its headers),
 * which may refuse it (a 429 then says Retry-After: NET_RETRY_AFTER_S);
 * every refusal is a whole HTTP/1.1 answer with Connection: close. An
 * accepted one reaches the app as a net_conn. Messages are text, at most NET_MSG_MAX bytes (a longer
 * message closes the connection with code 1009). net_ws_send queues a
 * message (net_queue.c: in pages given back to the system once sent); a
 * connection whose queue would pass NET_QUEUE_MAX is cut off at once: its
 * queue dropped and the connection closed on the loop's next turn, not at
 * a writeable turn, which a reader that has stopped never gives, so a
 * slow reader cannot hold the server's memory; ws_close follows as for any
 * close. net_ws_close drops the queue too. A connection from which
 * nothing has come for `ws_idle_s` seconds is closed; it is pinged after a
 * third of that, so a live peer always answers in time.
 *
 * recv().  A client's unmasked frame must close its connection (RFC 6455
 * 5.1), which Debian 12's libwebsockets 4.1 does not check and gives the
 * app no bytes to check it on; so net_frames.c replaces recv() for the
 * whole process and follows what lws reads. It is fenced: it looks only at
 * the plain sockets lws accepted (net_frames_accept when lws accepts one,
 * net_frames_forget when it closes, so a descriptor number given again to
 * anyone else starts unwatched), only on the loop's thread, and never at a
 * MSG_PEEK. Every other read of the process -- libpq's, libcurl's, the
 * cluster's bus, a worker's -- is recvfrom() and nothing more.
 * tests/server/test_net_frames.c holds both halves, libcurl's reads
 * included; the server's tests on PostgreSQL and with a mail server hold
 * libpq's and libcurl's in the running server.
 */
#ifndef CITADEL_NET_H
#define CITADEL_NET_H

#include <stddef.h>
#include <stdint.h>

#define NET_BODY_MAX (64 * 1024)
#define NET_MSG_MAX (16 * 1024)
#define NET_QUEUE_MAX (4 * 1024 * 1024)

typedef struct net net;
typedef struct net_conn net_conn;
typedef struct net_http net_http;
typedef struct net_timer net_timer;

/* A request as the app sees it; every string is "" when the header is
 * absent, never NULL. */
typedef struct net_request {
    const char *method;   /* "GET", "POST" or "DELETE" */
    const char *path;     /* "/api/me", without the query */
    const char *query;    /* "offset=50", or "": each name=value already URL-decoded
                           * ("%2B" is "+", "+" a space), rejoined by "&" */
    const char *cookie;   /* the Cookie header */
    const char *peer;     /* the client's address (the socket's) */
    const char *origin;   /* the Origin header */
    const char *host;     /* the Host header */
    const char *content_type;
    const char *forwarded_for;  /* X-Forwarded-For (its last 255 bytes if longer) */
    const char *authorization;  /* the Authorization header */
    const char *accept;   /* the Accept header; NULL or "" if none */
    const char *body;     /* NUL-terminated; "" if none */
    size_t body_len;
} net_request;

typedef struct net_callbacks {
    void (*http)(void *app, net_http *h, const net_request *req);
    /* An upgrade to /ws (method, path, body empty): 0 to let it through,
     * or an HTTP status (403, 429, ...) to refuse it with. */
    int (*ws_filter)(void *app, const net_request *req);
    /* A WebSocket opened; return nonzero to close it at once. */
    int (*ws_open)(void *app, net_conn *c, const net_request *req);
    void (*ws_message)(void *app, net_conn *c, const char *text, size_t len);
    /* The connection is gone; c is invalid after this returns. */
    void (*ws_close)(void *app, net_conn *c);
    /* Some thread called net_wake. */
    void (*wake)(void *app);
} net_callbacks;

typedef struct net_config {
    const char *addr;     /* "127.0.0.1", "0.0.0.0", "::" (IPv6 only if ipv6) */
    int port;
    int ipv6;             /* 0: IPv4 only */
    const char *webroot;  /* folder of static files, or NULL */
    int ws_idle_s;        /* 0: WebSockets never time out */
    const char *tls_cert; /* PEM files: serve HTTPS and WSS; NULL for plain */
    const char *tls_key;
    const char *static_headers;  /* "Name: value\r\n" lines for static files */
} net_config;

/* NULL on failure (port taken, say), with the reason in err. */
net *net_new(const net_config *cfg, const net_callbacks *cb, void *app, char *err,
             size_t errlen);
void net_free(net *n);
/* Runs the loop until net_stop; returns 0. */
int net_run(net *n);
/* Ends net_run soon; safe from any thread and from a signal handler. */
void net_stop(net *n);
void net_wake(net *n);
/* The port actually bound (useful with port 0). */
int net_port(const net *n);

/* Answers a request. extra_headers: "Name: value\r\n" lines, or NULL. */
void net_http_reply(net_http *h, int status, const char *content_type,
                    const char *extra_headers, const char *body, size_t len);

/* Streams (net_stream.c): an answer whose body is written over time, in
 * HTTP/1.1 chunks (NDJSON, say). net_http_stream answers h with status
 * and content_type and no length, and gives the stream (NULL if the
 * client has gone or memory ran out; h is used up either way). Writes are
 * queued (net_queue.c, as a WebSocket's); a stream whose queue passes
 * NET_STREAM_QUEUE_MAX is cut off at once (its queue dropped, its
 * connection closed), its reader being
 * gone in all but name. When the client goes, gone(arg) is called once and
 * the stream is invalid after it returns; after net_stream_end (the last
 * chunk goes after what is queued, then the connection closes) gone is
 * never called and the caller must forget the stream at once. */
#define NET_STREAM_QUEUE_MAX (1024 * 1024)
typedef struct net_stream net_stream;
typedef void (*net_stream_gone)(void *arg);
net_stream *net_http_stream(net_http *h, int status, const char *content_type,
                            net_stream_gone gone, void *arg);
/* 0, or -1 if the stream is ending or was cut off (too much queued). */
int net_stream_write(net_stream *st, const char *data, size_t len);
void net_stream_end(net_stream *st);

int net_ws_send(net_conn *c, const char *text, size_t len);
void net_ws_close(net_conn *c);
void net_conn_set_data(net_conn *c, void *data);
void *net_conn_data(const net_conn *c);

/* One-shot timers on the loop. */
typedef void (*net_timer_fn)(void *arg);
net_timer *net_timer_new(net *n, net_timer_fn fn, void *arg);
void net_timer_free(net_timer *t);
/* Fires fn(arg) after ms milliseconds, replacing any earlier setting. */
void net_timer_set(net_timer *t, int64_t ms);
void net_timer_cancel(net_timer *t);

/* A socket of the app's own (a database connection's, say) watched on the
 * loop: fn(arg, readable, writable) whenever it is readable, and writable
 * too while net_fd_want_write asks for it. */
typedef struct net_fd net_fd;
typedef void (*net_fd_fn)(void *arg, int readable, int writable);
net_fd *net_fd_watch(net *n, int fd, net_fd_fn fn, void *arg);
void net_fd_want_write(net_fd *w, int on);
void net_fd_free(net_fd *w);  /* stops watching; the socket stays open */

/* Milliseconds of a monotonic clock, and of the wall clock. */
int64_t net_mono_ms(void);
int64_t net_wall_ms(void);

#endif
