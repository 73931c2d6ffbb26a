/* test_revoke.c -- a credential revoked ends what it opened, over the wire
 * (docs/api.md "Identity", docs/bot-api.md "Tokens"):
 * a Bot API event stream ends at once when its token is deleted, or when
 * an admin closes its account, and tells nothing after (not even the
 * challenge made right after); a stream of another token of the same
 * player stays; a WebSocket of a session signed out is closed, while one of
 * another session of the same player stays; a challenge to a closed
 * account is refused (404, as a name nobody holds).
 *
 * The streams are read here on a plain socket (not client.h's
 * http_request, which reads an answer to its end): the test reads what
 * arrives, with a deadline, and looks for the end of the chunked answer
 * or the connection's close.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "community_wire.h"
#include "wire.h"

#define PROMPT_MS 2000   /* "at once": what a revoked stream or socket may take to end */

static char ada[80];   /* an admin */

static const fixture_spec fixture = { .args = NO_LIMITS };

/* --- tokens and streams ------------------------------------------------------ */

/* A new token of the session's account with one scope: its id, the token
 * into tok (64 bytes). */
static json_int_t token_new(const char *cookie, const char *scope, char *tok)
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
static void stream_open(stream *s, const char *tok)
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
static int stream_ended(const stream *s)
{
    const char *body = strstr(s->buf, "\r\n\r\n");
    return s->closed || (body && strstr(body + 2, "\r\n0\r\n\r\n"));
}

/* Reads what comes for at most ms, or until the stream ends: 1 if it
 * ended. */
static int stream_wait_end(stream *s, int ms)
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

static void stream_close(stream *s)
{
    close(s->fd);
    free(s->buf);
}

/* POST /api/challenge/{to} with a token: the status. */
static int challenge(const char *tok, const char *to)
{
    char hdr[128], path[96];
    snprintf(hdr, sizeof hdr, "Authorization: Bearer %s\r\n", tok);
    client_headers(hdr);
    int st = call("POST", path_fmt(path, sizeof path, "/api/challenge/%s", to), NULL,
                  json_pack("{s:s}", "variant", "rampart"), NULL);
    client_headers(NULL);
    return st;
}

/* --- the tests ----------------------------------------------------------------- */

static void test_a_deleted_token_ends_its_streams(void **state)
{
    (void)state;
    char tia[80], cal[80], tok[64], other[64], ctok[64], path[96];
    signup("tia", tia);
    signup("cal", cal);
    json_int_t id = token_new(tia, "board:play", tok);
    token_new(tia, "board:play", other);
    token_new(cal, "challenge:write", ctok);
    stream s, keep;
    stream_open(&s, tok);
    stream_open(&keep, other);
    json_decref(ok_call("DELETE", path_fmt(path, sizeof path, "/api/account/tokens/%lld",
                                           (long long)id), tia, NULL));
    size_t at = s.len;   /* what the stream had told before the token went */
    assert_int_equal(challenge(ctok, "tia"), 200);   /* tia's account is open */
    if (!stream_wait_end(&s, PROMPT_MS))
        fail_msg("the deleted token's stream is still open %d ms later", PROMPT_MS);
    if (strstr(s.buf + at, "\"challenge\""))
        fail_msg("the deleted token's stream told a challenge: %s", s.buf + at);
    /* the other token's stream stays, and hears of the challenge */
    assert_false(stream_wait_end(&keep, 500));
    assert_non_null(strstr(keep.buf, "\"challenge\""));
    stream_close(&s);
    stream_close(&keep);
}

static void test_a_closed_account_ends_its_streams(void **state)
{
    (void)state;
    char kit[80], dan[80], tok[64], dtok[64];
    if (!ada[0])
        make_staff("ada", "admin", ada);
    signup("kit", kit);
    signup("dan", dan);
    token_new(kit, "board:play", tok);
    token_new(dan, "challenge:write", dtok);
    stream s;
    stream_open(&s, tok);
    ws_conn *w = connect_as(kit, NULL);
    json_decref(ok_call("POST", "/api/admin/players/kit/close", ada,
                        json_pack("{s:s}", "reason", "revoked")));
    size_t at = s.len;
    /* a challenge to the closed account is refused: it names no one now */
    char err[256];
    char hdr[128];
    snprintf(hdr, sizeof hdr, "Authorization: Bearer %s\r\n", dtok);
    client_headers(hdr);
    refused(404, "POST", "/api/challenge/kit", NULL, json_pack("{s:s}", "variant", "rampart"),
            err);
    client_headers(NULL);
    assert_non_null(strstr(err, "no such player"));
    if (!stream_wait_end(&s, PROMPT_MS))
        fail_msg("the closed account's stream is still open %d ms later", PROMPT_MS);
    assert_null(strstr(s.buf + at, "\"challenge\""));
    /* and its WebSocket is closed as well */
    long long deadline = wall_ms() + PROMPT_MS;
    while (!ws_is_closed(w) && wall_ms() < deadline)
        free(ws_recv_text(w, 100));
    assert_true(ws_is_closed(w));
    ws_close(w);
    stream_close(&s);
}

static void test_a_signed_out_session_loses_its_sockets(void **state)
{
    (void)state;
    char one[80], two[256];
    signup("sol", one);
    http_resp r;   /* a second session of sol's, from a sign-in */
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/signin", NULL,
                                  "{\"name\":\"sol\",\"password\":\"password-sol\"}", &r), 0);
    assert_int_equal(r.status, 200);
    snprintf(two, sizeof two, "%s", r.cookie);
    http_resp_free(&r);
    assert_string_not_equal(one, two);
    ws_conn *a = connect_as(one, NULL), *b = connect_as(two, NULL);
    json_decref(ok_call("POST", "/api/signout", one, NULL));
    long long deadline = wall_ms() + PROMPT_MS;
    while (!ws_is_closed(a) && wall_ms() < deadline)
        free(ws_recv_text(a, 100));
    if (!ws_is_closed(a))
        fail_msg("the signed-out session's WebSocket is still open %d ms later", PROMPT_MS);
    /* the other session's stays, and still answers */
    free(ws_recv_text(b, 300));
    assert_false(ws_is_closed(b));
    json_t *me = get_json("/api/me", two, 200);
    assert_string_equal(name_of(json_object_get(me, "player")), "sol");
    json_decref(me);
    ws_close(a);
    ws_close(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_deleted_token_ends_its_streams),
        cmocka_unit_test(test_a_closed_account_ends_its_streams),
        cmocka_unit_test(test_a_signed_out_session_loses_its_sockets),
    };
    return fixture_run_group(tests, &fixture);
}
