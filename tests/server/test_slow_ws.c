/* test_slow_ws.c -- a WebSocket whose reader stops reading, over the wire
 * (docs/api.md, "WebSocket /ws": a connection that falls NET_QUEUE_MAX,
 * 4 MiB, behind is closed at once).
 *
 * What it holds: a WebSocket opened on a socket with a small receive
 * buffer, then never read, is closed by the server once more than 4 MiB
 * waits for it -- its end of the connection leaves ESTABLISHED
 * (/proc/net/tcp) while the reader still reads nothing, and the reader,
 * when it finally reads, gets far less than what was made for it and then
 * the connection's end. A hundred such sockets at once are all closed and
 * leave the server's resident memory (VmRSS) within a bound far under the
 * 400 MiB their queues would hold; the server keeps serving.
 *
 * The idle check is off (ws-idle-seconds 0), so that nothing but the
 * queue's bound can close them. What fills a socket is the cheapest output
 * per request the server has: the reader itself asks for the lobby again
 * and again (22 bytes on the wire), and each answer lists the 100 open
 * seeks another player made, some 18 KiB. The flood waits until the
 * kernel takes nothing more for the reader before it pushes the queue
 * past its bound, as for a reader that stopped long ago: the server then
 * has no writeable turn to close it in.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sys/time.h>

#include "community_wire.h"
#include "slow_reader.h"
#include "wire.h"

#define CUTOFF (4 * MiB)      /* NET_QUEUE_MAX, as docs/api.md says */
#define FLOOD_MS 240000       /* a flood gives up after this (ASan, a loaded machine) */
#define SEEKS 100             /* the lobby lists this many */
#define BURST 16              /* lobby requests sent to one socket at a time */
/* What 100 closed sockets may leave in the server's resident memory: an
 * eighth of the 400 MiB that their queues would hold were they kept, room
 * enough for the allocator keeping pages it got back. */
#define RSS_GROWTH_MAX (50 * MiB)
/* Under ASan the bound is not checked (its quarantine keeps freed memory),
 * so fewer sockets prove the cut-off there, in a quarter of the time */
#define SLOW_ASAN 20

static const fixture_spec fixture = {
    .args = NO_LIMITS " --limit ws-per-address=0 --limit ws-idle-seconds=0 "
                      "--limit seeks-at-once=0"
};

/* The player whose seeks fill the lobby: its connection stays open for
 * the whole run (its seeks go with it), and the bytes one lobby message
 * takes on the wire. */
static ws_conn *filler;
static size_t lobby_frame;

/* The bytes a server's text frame of len takes (RFC 6455 5.2). */
static size_t frame_bytes(size_t len)
{
    return len + (len < 126 ? 2 : len < 65536 ? 4 : 10);
}

/* SEEKS open seeks, once, and what a lobby message then takes. */
static void lobby_filled(void)
{
    if (filler)
        return;
    char cookie[80];
    signup("filler", cookie);
    filler = connect_as(cookie, NULL);
    assert_non_null(filler);
    for (int i = 0; i < SEEKS; i++) {
        send_fmt(filler, "{\"type\":\"seek\",\"variant\":\"rampart\",\"ref\":%d}", i);
        json_t *m = ws_expect(filler, "seek_created", WAIT);
        if (!m)
            fail_msg("seek %d not made: %s", i, ws_last_error(filler));
        json_decref(m);
    }
    ws_conn *look = connect_as(cookie, NULL);
    assert_non_null(look);
    send_fmt(look, "{\"type\":\"lobby\"}");
    char *text = NULL;
    long long deadline = wall_ms() + WAIT;
    while (!lobby_frame && wall_ms() < deadline && (text = ws_recv_text(look, WAIT)) != NULL) {
        json_t *m = json_loads(text, 0, NULL);
        const char *type = json_string_value(json_object_get(m, "type"));
        if (type && strcmp(type, "lobby") == 0) {
            assert_int_equal(json_array_size(json_object_get(m, "seeks")), SEEKS);
            lobby_frame = frame_bytes(strlen(text));
        }
        json_decref(m);
        free(text);
    }
    ws_close(look);
    assert_true(lobby_frame > 0);
    print_message("# a lobby message of %d seeks takes %zu bytes\n", SEEKS, lobby_frame);
}

/* --- a reader that stops reading ------------------------------------------- */

/* A WebSocket with the session on a socket whose receive buffer is small;
 * reads the handshake's answer and nothing after. */
static int slow_ws(const char *cookie)
{
    int fd = slow_connect();
    char req[512], head[1024];
    int n = snprintf(req, sizeof req,
                     "GET /ws HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\nCookie: citadel_session=%s\r\n\r\n",
                     HOST, server.port, cookie);
    assert_true(n > 0 && (size_t)n < sizeof req);
    assert_int_equal(write(fd, req, (size_t)n), n);
    slow_read_head(fd, head, sizeof head);
    if (strncmp(head, "HTTP/1.1 101", 12) != 0)
        fail_msg("the WebSocket did not open: %.200s", head);
    /* writes never wait long: a server that stops reading fails the
     * write, not the test's clock */
    struct timeval tv = { .tv_sec = 2 };
    assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv), 0);
    return fd;
}

/* BURST lobby requests on fd, as masked frames: 1 if all were sent (the
 * server then owes BURST lobby messages), 0 if the connection is gone. */
static int ask_lobby(int fd)
{
    static const char req[] = "{\"type\":\"lobby\"}";
    static const unsigned char mask[4] = { 0x5a, 0x13, 0xc7, 0x81 };
    unsigned char out[BURST * (WSFRAME_HEAD_MAX + sizeof req)];
    size_t len = 0;
    for (int i = 0; i < BURST; i++) {
        len += wsframe_head(out + len, WS_TEXT, 1, sizeof req - 1, mask);
        memcpy(out + len, req, sizeof req - 1);
        wsframe_mask(out + len, sizeof req - 1, mask);
        len += sizeof req - 1;
    }
    return send(fd, out, len, MSG_NOSIGNAL) == (ssize_t)len;
}

/* Lobby requests on each of the n sockets at fds: a burst, a wait until
 * the kernel takes no more for them (until_stuck), then more on each that
 * the server still holds, until it holds none, or made_max() bytes were made for each, or
 * FLOOD_MS passed: the fewest bytes made for one of them. *close_ms (if
 * not NULL) gets the ms from when more than CUTOFF had been made for every
 * socket to when the server held none (-1 if it still holds one). */
static size_t flood_until_closed(const int *fds, int n, long long *close_ms)
{
    size_t made[SLOW_MAX] = {0}, most = made_max(CUTOFF), least = 0;
    long long start = wall_ms(), deadline = start + FLOOD_MS, crossed = -1;
    assert_true(n <= SLOW_MAX);
    /* a reader that has stopped: what the kernel takes for it is taken,
     * before the flood (else the old fault hides: a queue that passes
     * its bound while the socket still takes bytes is closed at the
     * writeable turn that follows) */
    for (int i = 0; i < n; i++)
        if (ask_lobby(fds[i]))
            made[i] += BURST * lobby_frame;
    until_stuck(fds, n);
    while (held_count(fds, n) > 0 && least < most && wall_ms() < deadline) {
        least = SIZE_MAX;
        for (int i = 0; i < n; i++) {
            if (server_holds(fds[i]) && ask_lobby(fds[i]))
                made[i] += BURST * lobby_frame;
            least = made[i] < least ? made[i] : least;
        }
        if (crossed < 0 && least > CUTOFF)
            crossed = wall_ms();
        /* the server has read what was asked (so `made` says what was made
         * when it closed, give or take a burst) */
        long long read_by = wall_ms() + WAIT;
        for (int i = 0; i < n && wall_ms() < read_by; i++)
            while (server_queue(fds[i], 1) > 0 && wall_ms() < read_by)
                sleep_ms(5);
    }
    /* what was asked may still be on its way to a queue: a while to close */
    long long wait_end = wall_ms() + WAIT;
    while (held_count(fds, n) > 0 && wall_ms() < wait_end)
        sleep_ms(20);
    long long closed = held_count(fds, n) ? -1 : wall_ms();
    if (close_ms)
        *close_ms = closed < 0 || crossed < 0 ? -1 : closed - crossed;
    print_message("# at least %zu bytes made for each of %d sockets in %lld ms; %d still held\n",
                  least, n, wall_ms() - start, held_count(fds, n));
    return least;
}

/* The server still serves: a new connection is answered, and the lobby
 * is still all there. */
static void still_serves(void)
{
    json_decref(get_json("/api/health", NULL, 200));
    char cookie[80];
    guest(cookie);
    ws_conn *c = connect_as(cookie, NULL);
    assert_non_null(c);
    send_fmt(c, "{\"type\":\"lobby\"}");
    json_t *m = ws_expect(c, "lobby", WAIT);
    assert_non_null(m);
    assert_int_equal(json_array_size(json_object_get(m, "seeks")), SEEKS);
    json_decref(m);
    ws_close(c);
    send_fmt(filler, "{\"type\":\"ping\"}");
    json_t *p = ws_expect(filler, "pong", WAIT);
    assert_non_null(p);
    json_decref(p);
}

/* --- the tests ----------------------------------------------------------------- */

static void test_a_reader_that_stops_is_cut_off(void **state)
{
    (void)state;
    lobby_filled();
    char una[80];
    signup("una", una);
    int fd = slow_ws(una);
    assert_true(server_holds(fd));
    long long close_ms;
    size_t made = flood_until_closed(&fd, 1, &close_ms);
    if (server_holds(fd))
        fail_msg("%zu bytes made for a WebSocket never read, and the server still holds it "
                 "(its reader may fall %d bytes behind)", made, CUTOFF);
    /* cut off for being behind, not before: more than the allowance was made */
    assert_true(made > CUTOFF);
    /* the reader reads at last: what the buffers held, then the end */
    int ended;
    size_t got = drain(fd, &ended);
    close(fd);
    print_message("# %zu bytes made for the socket (the last burst %zu) when it was cut "
                  "off, %lld ms after %d had been made; its reader got %zu\n",
                  made, (size_t)BURST * lobby_frame, close_ms, CUTOFF, got);
    if (!ended)
        fail_msg("the cut-off WebSocket did not end (%zu bytes read)", got);
    assert_true(got < made - CUTOFF);
    still_serves();
}

static void test_a_hundred_stopped_readers_leave_memory_flat(void **state)
{
    (void)state;
    lobby_filled();
    char vic[80];
    signup("vic", vic);
    /* one flood first, so that what any flood grows once (the allocator's
     * arenas, lws's buffers) is in the figure before */
    int warm = slow_ws(vic);
    flood_until_closed(&warm, 1, NULL);
    if (server_holds(warm))
        fail_msg("a WebSocket never read is not cut off");
    close(warm);
    size_t before = server_rss();
    int fds[SLOW_MAX];
    int n = server_is_asan() ? SLOW_ASAN : SLOW_MAX;
    for (int i = 0; i < n; i++)
        fds[i] = slow_ws(vic);
    assert_int_equal(held_count(fds, n), n);
    size_t made = flood_until_closed(fds, n, NULL);
    int held = held_count(fds, n);
    size_t after = server_rss();
    long long growth = (long long)after - (long long)before;
    print_message("# %d sockets never read, at least %zu bytes made for each, %d still held; "
                  "server RSS %zu KiB before, %zu KiB after (%+lld KiB)\n", n, made,
                  held, before / 1024, after / 1024, growth / 1024);
    if (held)
        fail_msg("%zu bytes made for each of %d WebSockets never read; the server still holds "
                 "%d of them", made, n, held);
    /* ASan's quarantine keeps freed memory: its RSS says nothing here */
    if (server_is_asan())
        print_message("# (ASan's quarantine keeps freed memory: RSS bound not checked)\n");
    else if (growth > RSS_GROWTH_MAX)
        fail_msg("server RSS grew by %lld KiB over %d cut-off WebSockets (bound %d KiB)",
                 growth / 1024, n, RSS_GROWTH_MAX / 1024);
    for (int i = 0; i < n; i++) {
        int ended;
        drain(fds[i], &ended);
        close(fds[i]);
        if (!ended)
            fail_msg("cut-off WebSocket %d did not end when read", i);
    }
    still_serves();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_reader_that_stops_is_cut_off),
        cmocka_unit_test(test_a_hundred_stopped_readers_leave_memory_flat),
    };
    return fixture_run_group(tests, &fixture);
}
