/* test_transport.c -- what the server answers when a request is refused
 * before any route sees it, over raw TCP: every refusal is a whole HTTP/1.1
 * answer a common client can parse (a status line with its reason phrase,
 * Content-Length, a body), never a silent close.
 *
 * Each test is one way the server answered badly before (issue 45, item
 * 4): a WebSocket handshake of the wrong version or with a bad key taken
 * as good; a %00 in the path or a 100 KB header met by a dropped
 * connection; a foreign Origin refused with "HTTP/1.0 403"; 429s without
 * a reason phrase or Retry-After. Tests that need limits of their own
 * start their own server; addresses of their own come from client_source.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wire.h"

#define OPEN_LIMITS                                                                      \
    "--limit signups-per-hour=0 --limit guests-per-hour=0 --limit new-games-per-hour=0"

static const fixture_spec fixture = { .args = OPEN_LIMITS };

/* A raw request's whole answer (the server closes, or 3 s pass). */
static char *raw(const void *req, size_t len)
{
    /* static: GCC 12 at -O3 takes a local here for one the answer may
     * point into (-Wdangling-pointer) */
    static char *resp;
    size_t n;
    int r = http_raw(HOST, server.port, req, len, &resp, &n, 3000);
    assert_true(r >= 0);
    char *out = resp;
    resp = NULL;
    return out;
}

/* resp starts with this status line, and is a whole answer: headers, a
 * Content-Length and as many body bytes as it says. */
static void assert_answer(const char *resp, const char *status_line)
{
    if (strncmp(resp, status_line, strlen(status_line)) != 0)
        fail_msg("expected \"%s\", got \"%.80s\"", status_line, resp);
    http_resp r;
    assert_int_equal(http_parse(resp, strlen(resp), &r), 0);
    assert_non_null(strstr(resp, "\r\n\r\n"));
    http_resp_free(&r);
}

/* resp carries this header (name in lower case, compared so). */
static int has_header(const char *resp, const char *name)
{
    char *low = strdup(resp);
    assert_non_null(low);
    for (char *c = low; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    char want[80];
    snprintf(want, sizeof want, "\r\n%s: ", name);
    int found = strstr(low, want) != NULL;
    free(low);
    return found;
}

/* The number a header of resp says (name in lower case), or -1. */
static long header_number(const char *resp, const char *name)
{
    char *low = strdup(resp);
    assert_non_null(low);
    for (char *c = low; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    char want[80];
    snprintf(want, sizeof want, "\r\n%s: ", name);
    const char *at = strstr(low, want);
    long v = at ? strtol(at + strlen(want), NULL, 10) : -1;
    free(low);
    return v;
}

/* A request whose head is a 100 KB header. */
static char *huge_head(const char *first_line)
{
    size_t big = 100 * 1024;
    char *req = malloc(big + 256);
    assert_non_null(req);
    int head = snprintf(req, 256, "%s\r\nHost: x\r\nX-Big: ", first_line);
    memset(req + head, 'a', big);
    memcpy(req + (size_t)head + big, "\r\n\r\n", 5);
    char *resp = raw(req, strlen(req));
    free(req);
    return resp;
}

static char *upgrade(const char *version, const char *key, const char *more)
{
    char req[1024];
    snprintf(req, sizeof req,
             "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: %s\r\n%s\r\n",
             key, version, more ? more : "");
    return raw(req, strlen(req));
}

/* RFC 6455 4.2.1-4.2.2: version 13 only (else 426 naming 13), and a key
 * that is the base64 of 16 bytes (else 400). */
static void test_websocket_handshake_is_checked(void **state)
{
    (void)state;
    client_source("127.0.45.1");
    char *resp = upgrade("99", "dGhlIHNhbXBsZSBub25jZQ==", NULL);
    assert_answer(resp, "HTTP/1.1 426 Upgrade Required\r\n");
    assert_true(has_header(resp, "sec-websocket-version"));
    assert_non_null(strstr(resp, ": 13\r\n"));
    free(resp);
    static const char *const bad_keys[] = {
        "x", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25jZQ=x", "dGhlIHNhbXBsZSBub25j!Q==",
        "dGhlIHNhbXBsZSBub25jZR==", "dGhlIHNhbXBsZSBub25jZQ==dGhl",
    };
    for (size_t i = 0; i < sizeof bad_keys / sizeof *bad_keys; i++) {
        resp = upgrade("13", bad_keys[i], NULL);
        assert_answer(resp, "HTTP/1.1 400 Bad Request\r\n");
        free(resp);
    }
    resp = upgrade("13", "dGhlIHNhbXBsZSBub25jZQ==", NULL);
    assert_non_null(strstr(resp, " 101 "));
    free(resp);
    client_source(NULL);
}

/* A %00 in the path or its query is answered 400, a head past the limit
 * 431, then the connection closes; before, lws dropped both unanswered. */
static void test_bad_paths_and_huge_heads_are_answered(void **state)
{
    (void)state;
    static const char *const nul_paths[] = {
        "GET /api/health%00 HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /api/forum%00/x HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /api/health?a=%00 HTTP/1.1\r\nHost: x\r\n\r\n",
        /* lws cut the path at the NUL: this was /api/forum/threads/ */
        "GET /api/forum/threads/%00 HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /api/forum/posts/%00/edit HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
    };
    for (size_t i = 0; i < sizeof nul_paths / sizeof *nul_paths; i++) {
        char *r = raw(nul_paths[i], strlen(nul_paths[i]));
        assert_answer(r, "HTTP/1.1 400 Bad Request\r\n");
        free(r);
    }
    char *resp = huge_head("GET /api/health HTTP/1.1");
    assert_answer(resp, "HTTP/1.1 431 Request Header Fields Too Large\r\n");
    free(resp);
    resp = huge_head("GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade");
    assert_answer(resp, "HTTP/1.1 431 Request Header Fields Too Large\r\n");
    free(resp);
    /* a large but lawful head still passes, twice on one connection */
    char ok[8192];
    int n = snprintf(ok, sizeof ok, "GET /api/health HTTP/1.1\r\nHost: x\r\nX-Pad: ");
    memset(ok + n, 'b', 3000);
    n += 3000;
    n += snprintf(ok + n, sizeof ok - (size_t)n, "\r\n\r\n");
    memcpy(ok + n, ok, (size_t)n);
    resp = raw(ok, 2 * (size_t)n);
    const char *first = strstr(resp, "HTTP/1.1 200 OK\r\n");
    assert_non_null(first);
    assert_non_null(strstr(first + 4, "HTTP/1.1 200 OK\r\n"));
    free(resp);
}

/* Another site's page is refused with an answer WebSocket clients parse. */
static void test_foreign_origin_gets_a_whole_403(void **state)
{
    (void)state;
    char *resp = upgrade("13", "dGhlIHNhbXBsZSBub25jZQ==", "Origin: http://evil.example\r\n");
    assert_answer(resp, "HTTP/1.1 403 Forbidden\r\n");
    assert_true(has_header(resp, "connection"));
    assert_null(strstr(resp, " 101 "));
    free(resp);
}

/* Every 429 says so in words and says when to come back: when the quota
 * that refused gives a token back, where the server knows it. */
static void test_429_says_when_to_retry(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, "--limit guests-per-hour=1 --limit ws-per-address=1");
    client_source("127.0.45.2");
    char cookie[80];
    guest(cookie);
    static const char me[] = "GET /api/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    char *resp = raw(me, sizeof me - 1);
    assert_answer(resp, "HTTP/1.1 429 Too Many Requests\r\n");
    /* one guest an hour: the next in an hour, not a made-up minute */
    long retry = header_number(resp, "retry-after");
    assert_true(retry > 3000 && retry <= 3600);
    free(resp);
    ws_conn *w = connect_as(cookie, NULL);
    char more[160];
    snprintf(more, sizeof more, "Cookie: citadel_session=%s\r\n", cookie);
    resp = upgrade("13", "dGhlIHNhbXBsZSBub25jZQ==", more);
    assert_answer(resp, "HTTP/1.1 429 Too Many Requests\r\n");
    assert_true(has_header(resp, "retry-after"));
    free(resp);
    ws_close(w);
    client_source(NULL);
    fixture_own_end(&saved);
}

/* POST the JSON body to path from the current client source; the answer. */
static char *post(const char *path, const char *body)
{
    char req[512];
    int n = snprintf(req, sizeof req,
                     "POST %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                     path, strlen(body), body);
    assert_true(n > 0 && (size_t)n < sizeof req);
    return raw(req, (size_t)n);
}

/* POST /api/position computes and writes nothing: it is counted by its
 * own quota (positions-per-minute), not under the writes ceiling, so a
 * teaching page may ask hundreds at once; past either, the 429's
 * Retry-After is when that bucket has room again, not a made-up minute. */
static void test_positions_have_their_own_quota(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, "--limit address-writes-per-minute=2 "
                               "--limit positions-per-minute=5");
    client_source("127.0.45.3");
    static const char ask[] = "{\"variant\": \"rampart\"}";
    for (int i = 0; i < 5; i++) {
        char *resp = post("/api/position", ask);
        assert_answer(resp, "HTTP/1.1 200 OK\r\n");
        free(resp);
    }
    char *resp = post("/api/position", ask);
    assert_answer(resp, "HTTP/1.1 429 Too Many Requests\r\n");
    long retry = header_number(resp, "retry-after");   /* 5 a minute: one each 12 s */
    assert_true(retry >= 1 && retry <= 12);
    free(resp);
    /* the writes ceiling is untouched by them, and says when too */
    for (int i = 0; i < 2; i++) {
        resp = post("/api/notifications/read", "{}");
        assert_null(strstr(resp, " 429 "));
        free(resp);
    }
    resp = post("/api/notifications/read", "{}");
    assert_answer(resp, "HTTP/1.1 429 Too Many Requests\r\n");
    retry = header_number(resp, "retry-after");         /* 2 a minute: one each 30 s */
    assert_true(retry >= 1 && retry <= 30);
    free(resp);
    client_source(NULL);
    fixture_own_end(&saved);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_websocket_handshake_is_checked),
        cmocka_unit_test(test_bad_paths_and_huge_heads_are_answered),
        cmocka_unit_test(test_foreign_origin_gets_a_whole_403),
        cmocka_unit_test(test_positions_have_their_own_quota),
        cmocka_unit_test(test_429_says_when_to_retry),
    };
    return fixture_run_group(tests, &fixture);
}
