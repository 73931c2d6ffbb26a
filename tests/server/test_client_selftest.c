/* test_client_selftest.c -- the test client checked against a tiny server.
 *
 * The server here runs in threads of this process: one accepts, one serves
 * each connection. It answers canned HTTP responses by path and, at /ws,
 * makes a WebSocket handshake and then obeys the text it receives:
 *
 *   "frag:T"   sends T back in three fragments with a ping "mid" between the
 *              first two, then waits for the pong and sends "pong:mid"
 *   "ping:P"   sends a ping P, waits for the pong, sends "pong:P"
 *   "close"    sends a close frame with code 4000
 *   "binary"   sends a binary message, then the text "after-binary"
 *   anything else is echoed in one frame (7-, 16- or 64-bit length as the
 *   size needs).
 *
 * It is strict about what the client sends: unmasked frames and lengths not
 * in their shortest form get a close with code 1002, so an echo proves the
 * client's framing right.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <sodium.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "fixture.h"

#define HOST "127.0.0.1"

/* --- the test server -------------------------------------------------------- */

static int srv_fd = -1;
static int srv_port;
static pthread_t srv_thread;
static pthread_t conn_threads[256];
static int conn_count;

static int read_exact(int fd, void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t r = recv(fd, c, n, 0);
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

static void write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t r = send(fd, c, n, MSG_NOSIGNAL);
        if (r <= 0)
            return;
        c += r;
        n -= (size_t)r;
    }
}

static void write_str(int fd, const char *s)
{
    write_all(fd, s, strlen(s));
}

static void pause_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Sec-WebSocket-Accept for key, computed apart from the client's code
 * (base64 is libsodium's, as everywhere in the project). */
static void accept_of(const char *key, char out[29])
{
    char cat[128];
    snprintf(cat, sizeof cat, "%.64s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
    unsigned char d[SHA_DIGEST_LENGTH];
    SHA1((const unsigned char *)cat, strlen(cat), d);
    sodium_bin2base64(out, 29, d, sizeof d, sodium_base64_VARIANT_ORIGINAL);
}

/* One server frame, unmasked. */
static void send_frame(int fd, int op, int fin, const void *data, size_t len)
{
    unsigned char h[10];
    size_t n = 0;
    h[n++] = (unsigned char)((fin ? 0x80 : 0) | op);
    if (len < 126) {
        h[n++] = (unsigned char)len;
    } else if (len < 65536) {
        h[n++] = 126;
        h[n++] = (unsigned char)(len >> 8);
        h[n++] = (unsigned char)len;
    } else {
        h[n++] = 127;
        for (int i = 7; i >= 0; i--)
            h[n++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    write_all(fd, h, n);
    write_all(fd, data, len);
}

static void send_close(int fd, int code)
{
    unsigned char c[2] = { (unsigned char)(code >> 8), (unsigned char)code };
    send_frame(fd, WS_CLOSE, 1, c, 2);
}

/* Reads one client frame: 0, or -1 on end of stream or a framing fault
 * (after a close 1002 was sent). *data is malloc'd. */
static int recv_frame(int fd, int *op, int *fin, unsigned char **data, size_t *len)
{
    unsigned char h[2];
    if (read_exact(fd, h, 2) < 0)
        return -1;
    *op = h[0] & 15;
    *fin = h[0] >> 7;
    uint64_t n = h[1] & 127;
    int strict_ok = (h[1] & 0x80) != 0 && (h[0] & 0x70) == 0;
    if (n == 126) {
        unsigned char e[2];
        if (read_exact(fd, e, 2) < 0)
            return -1;
        n = (uint64_t)e[0] << 8 | e[1];
        strict_ok &= n >= 126;
    } else if (n == 127) {
        unsigned char e[8];
        if (read_exact(fd, e, 8) < 0)
            return -1;
        n = 0;
        for (int i = 0; i < 8; i++)
            n = n << 8 | e[i];
        strict_ok &= n >= 65536 && n < (1u << 24);
    }
    if (!strict_ok) {
        send_close(fd, 1002);
        return -1;
    }
    unsigned char mask[4];
    unsigned char *p = malloc((size_t)n + 1);
    if (!p || read_exact(fd, mask, 4) < 0 || read_exact(fd, p, (size_t)n) < 0) {
        free(p);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        p[i] ^= mask[i & 3];
    p[n] = 0;
    *data = p;
    *len = (size_t)n;
    return 0;
}

/* Waits for a pong with payload want; answers "pong:<want>" if it came. */
static void await_pong(int fd, const char *want)
{
    int op, fin;
    unsigned char *d;
    size_t n;
    while (recv_frame(fd, &op, &fin, &d, &n) == 0) {
        int done = op == WS_PONG;
        if (done) {
            char reply[128];
            if (n == strlen(want) && memcmp(d, want, n) == 0)
                snprintf(reply, sizeof reply, "pong:%s", want);
            else
                snprintf(reply, sizeof reply, "bad pong");
            send_frame(fd, WS_TEXT, 1, reply, strlen(reply));
        }
        free(d);
        if (done)
            return;
    }
}

static void serve_ws(int fd, const char *key)
{
    char acc[29];
    accept_of(key, acc);
    char head[512];
    snprintf(head, sizeof head,
             "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
             "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n"
             "\x81\x10{\"type\":\"hello\"}",   /* a first frame in the same write */
             acc);
    write_str(fd, head);

    unsigned char *msg = NULL;
    size_t mlen = 0;
    int op, fin;
    unsigned char *d;
    size_t n;
    while (recv_frame(fd, &op, &fin, &d, &n) == 0) {
        if (op == WS_CLOSE) {
            send_frame(fd, WS_CLOSE, 1, d, n);
            free(d);
            break;
        }
        if (op == WS_PING) {
            send_frame(fd, WS_PONG, 1, d, n);
            free(d);
            continue;
        }
        if (op == WS_PONG) {
            free(d);
            continue;
        }
        unsigned char *m = realloc(msg, mlen + n + 1);
        if (!m) {
            free(d);
            break;
        }
        msg = m;
        memcpy(msg + mlen, d, n);
        mlen += n;
        msg[mlen] = 0;
        free(d);
        if (!fin)
            continue;
        const char *t = (const char *)msg;
        if (strncmp(t, "frag:", 5) == 0) {
            size_t k = mlen / 3;
            send_frame(fd, WS_TEXT, 0, t, k);
            send_frame(fd, WS_PING, 1, "mid", 3);
            send_frame(fd, WS_CONT, 0, t + k, k);
            send_frame(fd, WS_CONT, 1, t + 2 * k, mlen - 2 * k);
            await_pong(fd, "mid");
        } else if (strncmp(t, "ping:", 5) == 0) {
            send_frame(fd, WS_PING, 1, t + 5, mlen - 5);
            await_pong(fd, t + 5);
        } else if (strcmp(t, "close") == 0) {
            send_close(fd, 4000);
        } else if (strcmp(t, "binary") == 0) {
            send_frame(fd, WS_BINARY, 1, "\x00\x01\x02", 3);
            send_frame(fd, WS_TEXT, 1, "after-binary", 12);
        } else {
            send_frame(fd, WS_TEXT, 1, msg, mlen);
        }
        free(msg);
        msg = NULL;
        mlen = 0;
    }
    free(msg);
}

static const char *header_of(const char *head, const char *name, char *out, size_t outsz)
{
    out[0] = '\0';
    size_t nl = strlen(name);
    for (const char *l = strstr(head, "\r\n"); l && l[2]; l = strstr(l + 2, "\r\n")) {
        const char *s = l + 2;
        if (strncasecmp(s, name, nl) == 0 && s[nl] == ':') {
            s += nl + 1;
            while (*s == ' ')
                s++;
            size_t k = strcspn(s, "\r");
            if (k >= outsz)
                k = outsz - 1;
            memcpy(out, s, k);
            out[k] = '\0';
            return out;
        }
    }
    return NULL;
}

static void *serve_conn(void *arg)
{
    int fd = (int)(intptr_t)arg;
    struct timeval tv = { 2, 0 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char head[8192];
    size_t hl = 0;
    char *end = NULL;
    while (!end && hl < sizeof head - 1) {
        ssize_t r = recv(fd, head + hl, sizeof head - 1 - hl, 0);
        if (r <= 0)
            break;
        hl += (size_t)r;
        head[hl] = '\0';
        end = strstr(head, "\r\n\r\n");
    }
    char method[16], path[256], v[256];
    if (!end || sscanf(head, "%15s %255s HTTP/1.1", method, path) != 2) {
        write_str(fd, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        close(fd);
        return NULL;
    }
    if (strcmp(path, "/plain") == 0) {
        write_str(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                      "Set-Cookie: other=1\r\n"
                      "set-cookie: citadel_session=abc123; Path=/; HttpOnly; SameSite=Lax\r\n"
                      "Content-Length: 11\r\n\r\n{\"ok\":true}");
    } else if (strcmp(path, "/chunked") == 0) {
        const char *parts[] = { "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
                                "Content-Type: text/plain\r\n\r\n5\r\nhel",
                                "lo\r\n1;ext=1\r\n \r\nA\r\n0123456789\r\n",
                                "0\r\nX-Trailer: y\r\n", "\r\n" };
        for (size_t i = 0; i < 4; i++) {
            write_str(fd, parts[i]);
            pause_ms(20);
        }
    } else if (strcmp(path, "/eof") == 0) {
        write_str(fd, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil close");
    } else if (strcmp(path, "/echo") == 0) {
        size_t have = hl - (size_t)(end + 4 - head);
        size_t want = header_of(head, "Content-Length", v, sizeof v) ? strtoul(v, NULL, 10) : 0;
        char *body = calloc(1, want + 1);
        memcpy(body, end + 4, have < want ? have : want);
        if (have < want)
            read_exact(fd, body + have, want - have);
        json_t *j = json_pack("{s:s, s:s, s:s}", "method", method, "cookie",
                              header_of(head, "Cookie", v, sizeof v) ? v : "", "body", body);
        char *text = json_dumps(j, JSON_COMPACT);
        char h[128];
        snprintf(h, sizeof h, "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\n\r\n", strlen(text));
        write_str(fd, h);
        write_str(fd, text);
        free(text);
        json_decref(j);
        free(body);
    } else if (strcmp(path, "/ws") == 0 && header_of(head, "Sec-WebSocket-Key", v, sizeof v)) {
        char ver[16], up[64];
        if (!header_of(head, "Sec-WebSocket-Version", ver, sizeof ver) || strcmp(ver, "13") ||
            !header_of(head, "Upgrade", up, sizeof up) || strcasecmp(up, "websocket"))
            write_str(fd, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        else
            serve_ws(fd, v);
    } else if (strcmp(path, "/ws-badaccept") == 0) {
        write_str(fd, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\n"
                      "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n");
        pause_ms(100);
    } else {
        write_str(fd, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
    }
    /* Drain before closing: closing with unread input sends a reset, which
     * can destroy what the client has not read yet. */
    shutdown(fd, SHUT_WR);
    while (recv(fd, head, sizeof head, 0) > 0)
        ;
    close(fd);
    return NULL;
}

static void *serve_loop(void *arg)
{
    (void)arg;
    for (;;) {
        int fd = accept(srv_fd, NULL, NULL);
        if (fd < 0)
            break;
        if (conn_count == 256 ||
            pthread_create(&conn_threads[conn_count], NULL, serve_conn, (void *)(intptr_t)fd)) {
            close(fd);
            continue;
        }
        conn_count++;
    }
    for (int i = 0; i < conn_count; i++)
        pthread_join(conn_threads[i], NULL);
    return NULL;
}

static int start_server(void **state)
{
    (void)state;
    srv_fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t al = sizeof a;
    if (srv_fd < 0 || bind(srv_fd, (struct sockaddr *)&a, sizeof a) < 0 ||
        getsockname(srv_fd, (struct sockaddr *)&a, &al) < 0 || listen(srv_fd, 64) < 0)
        return -1;
    srv_port = ntohs(a.sin_port);
    return pthread_create(&srv_thread, NULL, serve_loop, NULL) ? -1 : 0;
}

static int stop_server(void **state)
{
    (void)state;
    shutdown(srv_fd, SHUT_RDWR);   /* wakes accept() */
    pthread_join(srv_thread, NULL);
    close(srv_fd);
    return 0;
}

static ws_conn *open_ws(void)
{
    int status = -1;
    ws_conn *c = ws_connect(HOST, srv_port, "/ws", NULL, &status);
    assert_non_null(c);
    assert_int_equal(status, 101);
    char *hello = ws_recv_text(c, 2000);
    assert_non_null(hello);
    assert_string_equal(hello, "{\"type\":\"hello\"}");
    free(hello);
    return c;
}

/* --- HTTP ------------------------------------------------------------------- */

static void test_accept_matches_rfc6455(void **state)
{
    (void)state;
    char acc[29];
    accept_of("dGhlIHNhbXBsZSBub25jZQ==", acc);   /* RFC 6455, section 1.3 */
    assert_string_equal(acc, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    char mine[WSFRAME_ACCEPT];                     /* and the client's own */
    wsframe_accept("dGhlIHNhbXBsZSBub25jZQ==", mine);
    assert_string_equal(mine, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

static void test_http_content_length_and_cookie(void **state)
{
    (void)state;
    http_resp r;
    assert_int_equal(http_request(HOST, srv_port, "GET", "/plain", NULL, NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.len, 11);
    assert_string_equal(r.body, "{\"ok\":true}");
    assert_string_equal(r.cookie, "abc123");
    assert_int_equal(r.cookie_set, 1);
    assert_string_equal(r.content_type, "application/json");
    http_resp_free(&r);
}

static void test_http_chunked(void **state)
{
    (void)state;
    http_resp r;
    assert_int_equal(http_request(HOST, srv_port, "GET", "/chunked", NULL, NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "hello 0123456789");
    assert_int_equal(r.len, 16);
    assert_string_equal(r.cookie, "");
    assert_int_equal(r.cookie_set, 0);
    assert_string_equal(r.content_type, "text/plain");
    http_resp_free(&r);
}

static void test_http_body_until_close(void **state)
{
    (void)state;
    http_resp r;
    assert_int_equal(http_request(HOST, srv_port, "GET", "/eof", NULL, NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "until close");
    http_resp_free(&r);
}

static void test_http_post_sends_cookie_and_body(void **state)
{
    (void)state;
    http_resp r;
    assert_int_equal(
        http_request(HOST, srv_port, "POST", "/echo", "s3cr3t", "{\"name\":\"ann\"}", &r), 0);
    assert_int_equal(r.status, 200);
    json_t *j = json_loads(r.body, 0, NULL);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "method")), "POST");
    assert_string_equal(json_string_value(json_object_get(j, "cookie")), "citadel_session=s3cr3t");
    assert_string_equal(json_string_value(json_object_get(j, "body")), "{\"name\":\"ann\"}");
    json_decref(j);
    http_resp_free(&r);
}

static void test_http_refused_is_an_error(void **state)
{
    (void)state;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t al = sizeof a;
    bind(fd, (struct sockaddr *)&a, sizeof a);
    getsockname(fd, (struct sockaddr *)&a, &al);
    int port = ntohs(a.sin_port);
    close(fd);   /* bound, never listened: nobody is there now */
    http_resp r;
    assert_int_equal(http_request(HOST, port, "GET", "/", NULL, NULL, &r), -1);
    assert_null(r.body);
    int status = 7;
    assert_null(ws_connect(HOST, port, "/ws", NULL, &status));
    assert_int_equal(status, 0);
}

static void test_http_raw_malformed(void **state)
{
    (void)state;
    const char req[] = "NONSENSE\r\n\r\n";
    char *resp;
    size_t len;
    assert_int_equal(http_raw(HOST, srv_port, req, sizeof req - 1, &resp, &len, 2000), 0);
    assert_true(len > 0);
    http_resp r;
    assert_int_equal(http_parse(resp, len, &r), 0);
    assert_int_equal(r.status, 400);
    assert_int_equal(r.len, 0);
    http_resp_free(&r);
    free(resp);
}

static void test_http_raw_times_out(void **state)
{
    (void)state;
    const char req[] = "GET / HTTP/1.1\r\n";   /* never finished: the server waits */
    char *resp;
    size_t len;
    assert_int_equal(http_raw(HOST, srv_port, req, sizeof req - 1, &resp, &len, 200), 1);
    assert_int_equal(len, 0);
    free(resp);
}

/* --- WebSocket ---------------------------------------------------------------- */

static void test_ws_handshake_and_first_frame(void **state)
{
    (void)state;
    ws_conn *c = open_ws();   /* the hello came in the same packet as the 101 */
    assert_int_equal(ws_is_closed(c), 0);
    assert_int_equal(ws_close_code(c), 0);
    ws_close(c);
}

static void test_ws_wrong_accept_is_refused(void **state)
{
    (void)state;
    int status = 0;
    assert_null(ws_connect(HOST, srv_port, "/ws-badaccept", NULL, &status));
    assert_int_equal(status, 101);
}

static void test_ws_http_error_is_reported(void **state)
{
    (void)state;
    int status = 0;
    assert_null(ws_connect(HOST, srv_port, "/nowhere", "abc", &status));
    assert_int_equal(status, 403);
}

static void test_ws_echo_every_length_form(void **state)
{
    (void)state;
    ws_conn *c = open_ws();
    const size_t sizes[] = { 1, 125, 126, 300, 65535, 65536, 70000 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *m = malloc(sizes[i] + 1);
        for (size_t k = 0; k < sizes[i]; k++)
            m[k] = (char)('a' + (k * 7 + i) % 26);
        m[sizes[i]] = '\0';
        assert_int_equal(ws_send_text(c, m), 0);
        char *back = ws_recv_text(c, 5000);
        assert_non_null(back);
        assert_int_equal(strlen(back), sizes[i]);
        assert_memory_equal(back, m, sizes[i]);
        free(back);
        free(m);
    }
    assert_int_equal(ws_is_closed(c), 0);
    ws_close(c);
}

static void test_ws_fragments_from_server_with_ping_between(void **state)
{
    (void)state;
    ws_conn *c = open_ws();
    char m[400];
    memset(m, 'x', sizeof m - 1);
    memcpy(m, "frag:", 5);
    m[sizeof m - 1] = '\0';   /* fragments of 133 bytes: 16-bit lengths */
    assert_int_equal(ws_send_text(c, m), 0);
    char *back = ws_recv_text(c, 2000);
    assert_non_null(back);
    assert_string_equal(back, m);
    free(back);
    back = ws_recv_text(c, 2000);   /* the server got our pong to its "mid" */
    assert_non_null(back);
    assert_string_equal(back, "pong:mid");
    free(back);
    ws_close(c);
}

static void test_ws_fragments_to_server(void **state)
{
    (void)state;
    ws_conn *c = open_ws();
    assert_int_equal(ws_send_frame(c, WS_TEXT, 0, "ab", 2), 0);
    assert_int_equal(ws_send_frame(c, WS_PING, 1, "p", 1), 0);   /* control between fragments */
    assert_int_equal(ws_send_frame(c, WS_CONT, 0, "cd", 2), 0);
    assert_int_equal(ws_send_frame(c, WS_CONT, 1, "ef", 2), 0);
    char *back = ws_recv_text(c, 2000);   /* the pong is skipped on the way */
    assert_non_null(back);
    assert_string_equal(back, "abcdef");
    free(back);
    ws_close(c);
}

static void test_ws_ping_is_answered(void **state)
{
    (void)state;
    ws_conn *c = open_ws();
    assert_int_equal(ws_send_text(c, "ping:xyz"), 0);
    char *back = ws_recv_text(c, 2000);
    assert_non_null(back);
    assert_string_equal(back, "pong:xyz");
    free(back);
    ws_close(c);
}

static void test_ws_timeout_leaves_it_open(void **state)
{
    (void)state;
    ws_conn *c = open_ws();
    assert_null(ws_recv_text(c, 100));
    assert_int_equal(ws_is_closed(c), 0);
    assert_int_equal(ws_send_text(c, "still here"), 0);
    char *back = ws_recv_text(c, 2000);
    assert_non_null(back);
    assert_string_equal(back, "still here");
    free(back);
    ws_close(c);
}

static void test_ws_server_close_code(void **state)
{
    (void)state;
    ws_conn *c = open_ws();
    assert_int_equal(ws_send_text(c, "close"), 0);
    assert_null(ws_recv_text(c, 2000));
    assert_int_equal(ws_is_closed(c), 1);
    assert_int_equal(ws_close_code(c), 4000);
    ws_close(c);
}

static void test_ws_binary_is_skipped(void **state)
{
    (void)state;
    ws_conn *c = open_ws();
    assert_int_equal(ws_send_text(c, "binary"), 0);
    char *back = ws_recv_text(c, 2000);
    assert_non_null(back);
    assert_string_equal(back, "after-binary");
    free(back);
    ws_close(c);
}

static void test_ws_raw_unmasked_frame_gets_1002(void **state)
{
    (void)state;
    ws_conn *c = open_ws();
    assert_int_equal(ws_send_raw(c, "\x81\x02hi", 4), 0);
    assert_null(ws_recv_text(c, 2000));
    assert_int_equal(ws_is_closed(c), 1);
    assert_int_equal(ws_close_code(c), 1002);
    ws_close(c);
}

static void test_ws_json_expect_skips_and_keeps_error(void **state)
{
    (void)state;
    ws_conn *c = open_ws();
    assert_string_equal(ws_last_error(c), "");
    assert_int_equal(ws_send_json(c, json_pack("{s:s}", "type", "a")), 0);
    assert_int_equal(ws_send_text(c, "[1, 2]"), 0);   /* not an object: skipped */
    assert_int_equal(ws_send_json(c, json_pack("{s:s, s:s}", "type", "error", "error", "bad")),
                     0);
    assert_int_equal(ws_send_json(c, json_pack("{s:s, s:i}", "type", "b", "n", 7)), 0);
    json_t *j = ws_expect(c, "b", 2000);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "n")), 7);
    json_decref(j);
    assert_string_equal(ws_last_error(c), "bad");
    assert_null(ws_expect(c, "never", 150));
    assert_int_equal(ws_is_closed(c), 0);

    assert_int_equal(ws_send_json(c, json_pack("{s:s, s:i}", "type", "pong", "ref", 3)), 0);
    j = ws_recv_json(c, 2000);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "ref")), 3);
    json_decref(j);
    ws_close(c);
}

static void test_ws_many_at_once(void **state)
{
    (void)state;
    ws_conn *c[8];
    for (int i = 0; i < 8; i++)
        c[i] = open_ws();
    for (int i = 0; i < 8; i++) {
        char m[16];
        snprintf(m, sizeof m, "n%d", i);
        assert_int_equal(ws_send_text(c[i], m), 0);
    }
    for (int i = 7; i >= 0; i--) {
        char m[16];
        snprintf(m, sizeof m, "n%d", i);
        char *back = ws_recv_text(c[i], 2000);
        assert_non_null(back);
        assert_string_equal(back, m);
        free(back);
        ws_close(c[i]);
    }
}

/* --- the server process helpers ------------------------------------------------ */

static void test_server_start_fails_fast_when_the_binary_exits(void **state)
{
    (void)state;
    server_proc s;
    time_t t0 = time(NULL);
    assert_int_equal(server_start(&s, "/bin/false", NULL, "--extra one"), -1);
    assert_true(time(NULL) - t0 < 10);
    assert_int_equal(s.pid, 0);
    assert_int_equal(server_kill(&s, SIGTERM), -1);
    assert_true(strncmp(s.db, "/tmp/citadel-test-", 18) == 0);
    unlink(s.log);
    rmdir(s.dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accept_matches_rfc6455),
        cmocka_unit_test(test_http_content_length_and_cookie),
        cmocka_unit_test(test_http_chunked),
        cmocka_unit_test(test_http_body_until_close),
        cmocka_unit_test(test_http_post_sends_cookie_and_body),
        cmocka_unit_test(test_http_refused_is_an_error),
        cmocka_unit_test(test_http_raw_malformed),
        cmocka_unit_test(test_http_raw_times_out),
        cmocka_unit_test(test_ws_handshake_and_first_frame),
        cmocka_unit_test(test_ws_wrong_accept_is_refused),
        cmocka_unit_test(test_ws_http_error_is_reported),
        cmocka_unit_test(test_ws_echo_every_length_form),
        cmocka_unit_test(test_ws_fragments_from_server_with_ping_between),
        cmocka_unit_test(test_ws_fragments_to_server),
        cmocka_unit_test(test_ws_ping_is_answered),
        cmocka_unit_test(test_ws_timeout_leaves_it_open),
        cmocka_unit_test(test_ws_server_close_code),
        cmocka_unit_test(test_ws_binary_is_skipped),
        cmocka_unit_test(test_ws_raw_unmasked_frame_gets_1002),
        cmocka_unit_test(test_ws_json_expect_skips_and_keeps_error),
        cmocka_unit_test(test_ws_many_at_once),
        cmocka_unit_test(test_server_start_fails_fast_when_the_binary_exits),
    };
    return cmocka_run_group_tests(tests, start_server, stop_server);
}
