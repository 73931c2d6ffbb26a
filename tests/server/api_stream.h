/* api_stream.h -- Bot API tokens and event streams for the tests over
 * the wire (test_revoke.c, test_cluster.c): a token made, a stream read on
 * a plain socket of its own (not client.h's http_request, which reads an
 * answer to its end) with a deadline, its end seen (the last chunk, or the
 * connection's close), and a challenge sent with a token.
 *
 * Static inline; include after <cmocka.h> and "community_wire.h".
 */
#ifndef CITADEL_TEST_API_STREAM_H
#define CITADEL_TEST_API_STREAM_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "community_wire.h"

#define PROMPT_MS 2000   /* "at once": what a revoked stream or socket may take to end */

/* A new token of the session's account with one scope: its id, the token
 * into tok (64 bytes). */
static inline json_int_t token_new(const char *cookie, const char *scope, char *tok)
{
    json_t *j = ok_call("POST", "/api/account/tokens", cookie,
                        json_pack("{s:[s], s:s}", "scopes", scope, "description", "revoke"));
    snprintf(tok, 64, "%s", json_string_value(json_object_get(j, "token")));
    json_int_t id = jint(j, "id");
    json_decref(j);
    return id;
}

typedef struct stream {
    int fd;
    char *buf;           /* everything read, NUL-terminated */
    size_t len, cap;
    int closed;          /* the server closed the connection */
} stream;

/* GET /api/stream/event with the token, on a socket of its own; fails the
 * test unless the answer's head (200) comes. */
static inline void stream_open(stream *s, const char *tok)
{
    memset(s, 0, sizeof *s);
    s->cap = 1 << 16;
    s->buf = calloc(1, s->cap);
    assert_non_null(s->buf);
    s->fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(s->fd >= 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)server.port) };
    inet_pton(AF_INET, HOST, &a.sin_addr);
    assert_int_equal(connect(s->fd, (struct sockaddr *)&a, sizeof a), 0);
    char req[400];
    int n = snprintf(req, sizeof req,
                     "GET /api/stream/event HTTP/1.1\r\nHost: %s:%d\r\n"
                     "Authorization: Bearer %s\r\n\r\n", HOST, server.port, tok);
    assert_int_equal(write(s->fd, req, (size_t)n), n);
    long long deadline = wall_ms() + WAIT;
    while (!strstr(s->buf, "\r\n\r\n") && !s->closed && wall_ms() < deadline) {
        struct pollfd p = { .fd = s->fd, .events = POLLIN };
        if (poll(&p, 1, 100) > 0) {
            ssize_t r = read(s->fd, s->buf + s->len, s->cap - 1 - s->len);
            if (r <= 0)
                s->closed = 1;
            else
                s->len += (size_t)r;
            s->buf[s->len] = 0;
        }
    }
    if (strncmp(s->buf, "HTTP/1.1 200", 12) != 0)
        fail_msg("the event stream did not open: %.200s", s->buf);
}

/* 1 once the stream has ended: its last chunk came, or the connection
 * closed. */
static inline int stream_ended(const stream *s)
{
    const char *body = strstr(s->buf, "\r\n\r\n");
    return s->closed || (body && strstr(body + 2, "\r\n0\r\n\r\n"));
}

/* Reads what comes for at most ms, or until the stream ends: 1 if it
 * ended. */
static inline int stream_wait_end(stream *s, int ms)
{
    long long deadline = wall_ms() + ms;
    while (!stream_ended(s) && wall_ms() < deadline && s->len + 1 < s->cap) {
        struct pollfd p = { .fd = s->fd, .events = POLLIN };
        if (poll(&p, 1, 50) > 0) {
            ssize_t r = read(s->fd, s->buf + s->len, s->cap - 1 - s->len);
            if (r <= 0)
                s->closed = 1;
            else
                s->len += (size_t)r;
            s->buf[s->len] = 0;
        }
    }
    return stream_ended(s);
}

static inline void stream_close(stream *s)
{
    close(s->fd);
    free(s->buf);
}

/* POST /api/challenge/{to} with a token: the status. */
static inline int challenge(const char *tok, const char *to)
{
    char hdr[128], path[96];
    snprintf(hdr, sizeof hdr, "Authorization: Bearer %s\r\n", tok);
    client_headers(hdr);
    int st = call("POST", path_fmt(path, sizeof path, "/api/challenge/%s", to), NULL,
                  json_pack("{s:s}", "variant", "rampart"), NULL);
    client_headers(NULL);
    return st;
}

#endif
