/* test_net_frames.c -- the fence around net_frames.c's recv(), which
 * replaces libc's for the whole process (src/server/net/net_frames.h):
 * it refuses a client's unmasked WebSocket frame (RFC 6455 5.1) on the
 * sockets libwebsockets accepted, and must leave every other read alone --
 * libpq's and libcurl's above all, which read through the same recv().
 *
 * Checked here on real sockets, with this file's recv() being net_frames.c's:
 * an accepted socket that became a WebSocket refuses an unmasked frame and
 * takes masked ones; a socket never accepted, a read off the loop's thread,
 * a MSG_PEEK, and a socket whose descriptor number was accepted, forgotten
 * and given again all pass the same bytes through untouched; and libcurl,
 * on the loop's thread, on a descriptor that had been a watched WebSocket,
 * reads an HTTP answer whose body is nothing but unmasked frames, whole.
 */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "server/net/net_frames.h"

/* An unmasked text frame "hello", as a server sends and a client must not. */
static const unsigned char unmasked[] = {0x81, 0x05, 'h', 'e', 'l', 'l', 'o'};
/* The same frame masked (key 1 2 3 4), as a client sends it. */
static const unsigned char masked[] = {0x81, 0x85, 1, 2, 3, 4,
                                       'h' ^ 1, 'e' ^ 2, 'l' ^ 3, 'l' ^ 4, 'o' ^ 1};
static const char handshake[] = "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\n";

static int setup(void **state)
{
    (void)state;
    net_frames_init();  /* this thread is the loop's */
    return 0;
}

/* A connected pair: sv[0] the server's end (the one read), sv[1] the peer. */
static void pair(int sv[2])
{
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
}

static void put(int fd, const void *p, size_t n)
{
    assert_int_equal(write(fd, p, n), (ssize_t)n);
}

/* One read through recv() (net_frames.c's): what recv gave. */
static ssize_t take(int fd, void *buf, size_t n, int flags)
{
    return recv(fd, buf, n, flags);
}

/* A WebSocket of lws's: accepted, its handshake read, upgraded. */
static void websocket(int sv[2])
{
    char buf[128];
    pair(sv);
    net_frames_accept(sv[0]);
    put(sv[1], handshake, strlen(handshake));
    assert_int_equal(take(sv[0], buf, sizeof buf, 0), (ssize_t)strlen(handshake));
    assert_int_equal(net_frames_upgrade(sv[0]), 0);
}

static void test_watched_socket_refuses_an_unmasked_frame(void **state)
{
    (void)state;
    int sv[2];
    unsigned char buf[64];
    websocket(sv);
    put(sv[1], masked, sizeof masked);
    assert_int_equal(take(sv[0], buf, sizeof buf, 0), (ssize_t)sizeof masked);
    put(sv[1], unmasked, sizeof unmasked);
    errno = 0;
    assert_int_equal(take(sv[0], buf, sizeof buf, 0), -1);
    assert_int_equal(errno, ECONNRESET);
    net_frames_forget(sv[0]);
    close(sv[0]);
    close(sv[1]);
}

static void test_socket_never_accepted_is_untouched(void **state)
{
    (void)state;
    int sv[2];
    unsigned char buf[64];
    pair(sv);  /* like libpq's or the bus's socket: lws never saw it */
    put(sv[1], unmasked, sizeof unmasked);
    assert_int_equal(take(sv[0], buf, sizeof buf, 0), (ssize_t)sizeof unmasked);
    assert_memory_equal(buf, unmasked, sizeof unmasked);
    close(sv[0]);
    close(sv[1]);
}

static void test_peek_is_untouched(void **state)
{
    (void)state;
    int sv[2];
    unsigned char buf[64];
    websocket(sv);
    put(sv[1], unmasked, sizeof unmasked);
    assert_int_equal(take(sv[0], buf, sizeof buf, MSG_PEEK), (ssize_t)sizeof unmasked);
    assert_memory_equal(buf, unmasked, sizeof unmasked);
    net_frames_forget(sv[0]);
    close(sv[0]);
    close(sv[1]);
}

typedef struct reader {
    int fd;
    ssize_t got;
    unsigned char buf[64];
} reader;

static void *read_elsewhere(void *arg)
{
    reader *r = arg;
    r->got = recv(r->fd, r->buf, sizeof r->buf, 0);
    return NULL;
}

static void test_other_threads_are_untouched(void **state)
{
    (void)state;
    int sv[2];
    websocket(sv);  /* even a watched socket, read by a worker (libcurl's mail) */
    put(sv[1], unmasked, sizeof unmasked);
    reader r = {.fd = sv[0]};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, read_elsewhere, &r), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(r.got, (ssize_t)sizeof unmasked);
    assert_memory_equal(r.buf, unmasked, sizeof unmasked);
    net_frames_forget(sv[0]);
    close(sv[0]);
    close(sv[1]);
}

static void test_descriptor_forgotten_then_reused_is_untouched(void **state)
{
    (void)state;
    int sv[2], again[2];
    unsigned char buf[64];
    websocket(sv);
    int number = sv[0];
    net_frames_forget(sv[0]);  /* what net.c does when lws closes it */
    close(sv[0]);
    close(sv[1]);
    pair(again);  /* the lowest free numbers: the old ones */
    int reused = again[0] == number ? again[0] : again[1] == number ? again[1] : -1;
    assert_int_not_equal(reused, -1);
    int peer = reused == again[0] ? again[1] : again[0];
    put(peer, unmasked, sizeof unmasked);
    assert_int_equal(take(reused, buf, sizeof buf, 0), (ssize_t)sizeof unmasked);
    assert_memory_equal(buf, unmasked, sizeof unmasked);
    close(again[0]);
    close(again[1]);
}

/* --- libcurl on the loop's thread ------------------------------------------------ */

#define FRAMES 2000

typedef struct web {
    int listener;
    int port;
} web;

/* Answers one HTTP request with a body of FRAMES unmasked frames. */
static void *serve_once(void *arg)
{
    web *w = arg;
    int c = accept(w->listener, NULL, NULL);
    if (c < 0)
        return NULL;
    char req[2048];
    size_t have = 0;
    while (have < sizeof req - 1) {
        ssize_t n = read(c, req + have, sizeof req - 1 - have);
        if (n <= 0)
            break;
        have += (size_t)n;
        req[have] = '\0';
        if (strstr(req, "\r\n\r\n"))
            break;
    }
    char head[160];
    int hn = snprintf(head, sizeof head,
                      "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
                      (size_t)FRAMES * sizeof unmasked);
    if (write(c, head, (size_t)hn) != hn) {
        close(c);
        return NULL;
    }
    for (int i = 0; i < FRAMES; i++)
        if (write(c, unmasked, sizeof unmasked) != (ssize_t)sizeof unmasked)
            break;
    close(c);
    return NULL;
}

typedef struct body {
    unsigned char *p;
    size_t n, cap;
} body;

static size_t keep(char *p, size_t size, size_t n, void *arg)
{
    body *b = arg;
    size_t k = size * n;
    if (b->n + k > b->cap) {
        size_t cap = (b->n + k) * 2;
        unsigned char *q = realloc(b->p, cap);
        if (!q)
            return 0;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, p, k);
    b->n += k;
    return k;
}

static void test_libcurl_reads_are_untouched(void **state)
{
    (void)state;
    web w = {0};
    w.listener = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(w.listener >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof a;
    assert_int_equal(bind(w.listener, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(w.listener, 1), 0);
    assert_int_equal(getsockname(w.listener, (struct sockaddr *)&a, &alen), 0);
    w.port = ntohs(a.sin_port);
    /* a WebSocket of lws's comes and goes first, so that libcurl's socket
     * likely takes a descriptor number the frame check once watched */
    int sv[2];
    websocket(sv);
    net_frames_forget(sv[0]);
    close(sv[0]);
    close(sv[1]);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, serve_once, &w), 0);
    CURL *curl = curl_easy_init();
    assert_non_null(curl);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", w.port);
    body b = {0};
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    CURLcode rc = curl_easy_perform(curl);
    curl_easy_cleanup(curl);
    assert_int_equal(pthread_join(t, NULL), 0);
    close(w.listener);
    assert_int_equal(rc, CURLE_OK);
    assert_int_equal(b.n, (size_t)FRAMES * sizeof unmasked);
    for (size_t i = 0; i < b.n; i += sizeof unmasked)
        assert_memory_equal(b.p + i, unmasked, sizeof unmasked);
    free(b.p);
}

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_watched_socket_refuses_an_unmasked_frame),
        cmocka_unit_test(test_socket_never_accepted_is_untouched),
        cmocka_unit_test(test_peek_is_untouched),
        cmocka_unit_test(test_other_threads_are_untouched),
        cmocka_unit_test(test_descriptor_forgotten_then_reused_is_untouched),
        cmocka_unit_test(test_libcurl_reads_are_untouched),
    };
    int r = cmocka_run_group_tests(tests, setup, NULL);
    curl_global_cleanup();
    return r;
}
