/* test_slow_stream.c -- a Bot API stream whose reader stops reading, over
 * the wire (docs/bot-api.md "Limits": a stream's reader that falls 1 MiB
 * behind is cut off).
 *
 * What it holds: a stream opened on a socket with a small receive buffer,
 * then never read, is closed by the server once more than 1 MiB waits for
 * it -- its end of the connection leaves ESTABLISHED (/proc/net/tcp) while
 * the reader still reads nothing, the token's stream slot comes back, and
 * the reader, when it finally reads, gets far less than what was made for
 * it and then the connection's end. A hundred such streams at once are all
 * closed and leave the server's resident memory (VmRSS) within a bound well
 * under the 100 MiB their queues would hold; the server keeps serving.
 *
 * The output that fills a stream is the cheapest the server makes per
 * request: a challenge to the stream's player and its withdrawal, two event
 * lines of about 370 bytes each, fanned out to every event stream of that
 * player, so one flood fills a hundred streams as fast as one.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api_stream.h"
#include "community_wire.h"
#include "slow_reader.h"
#include "wire.h"

#define CUTOFF MiB            /* docs/bot-api.md: the reader's allowance */
#define FLOOD_MS 240000       /* a flood gives up after this (ASan, a loaded machine) */
#define STREAMS SLOW_MAX      /* the most streams a test holds at once */
/* What 100 closed streams may leave in the server's resident memory: a
 * quarter of the 100 MiB that their queues would hold were they kept,
 * room enough for the allocator keeping pages it got back. */
#define RSS_GROWTH_MAX (25 * MiB)

/* The challenge routes go at the pace of a flood; streams per token stay
 * at their default (8), which test_a_reader_that_stops_is_cut_off relies on. */
static const fixture_spec fixture = {
    .args = NO_LIMITS " --limit api-requests=0 --limit seeks-at-once=0 "
                      "--limit api-tokens-per-hour=0"
};

/* --- a reader that stops reading ------------------------------------------- */

/* GET path with the token on a socket whose receive buffer is small; reads
 * the answer's head and nothing after. The socket, or a failed test. */
static int slow_open(const char *tok, const char *path)
{
    int fd = slow_connect();
    char req[400], head[1024];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\n\r\n", path,
                     HOST, server.port, tok);
    assert_int_equal(write(fd, req, (size_t)n), n);
    slow_read_head(fd, head, sizeof head);
    if (strncmp(head, "HTTP/1.1 200", 12) != 0)
        fail_msg("%s did not open: %.200s", path, head);
    return fd;
}

/* --- what fills a stream ---------------------------------------------------- */

/* The bytes an event line of `type` about challenge ch takes on a stream:
 * the line as the server writes it, in its HTTP/1.1 chunk. */
static size_t event_bytes(const char *type, json_t *ch)
{
    json_t *l = json_pack("{s:s, s:O}", "type", type, "challenge", ch);
    char *text = json_dumps(l, JSON_COMPACT);
    json_decref(l);
    assert_non_null(text);
    size_t n = strlen(text) + 1;   /* and its newline */
    free(text);
    char hex[24];
    return (size_t)snprintf(hex, sizeof hex, "%zx", n) + 2 + n + 2;
}

/* POST path with the token and a JSON body on a kept-alive connection
 * (*fd; -1: none yet, and again once the server closes it), as a flood
 * needs: a new connection a request costs the server more than the
 * request. The status, and the answer's body parsed into *out. */
static int post_kept(int *fd, const char *path, const char *tok, const char *body, json_t **out)
{
    if (*fd < 0) {
        *fd = socket(AF_INET, SOCK_STREAM, 0);
        assert_true(*fd >= 0);
        struct sockaddr_in a = { .sin_family = AF_INET,
                                 .sin_port = htons((uint16_t)server.port) };
        inet_pton(AF_INET, HOST, &a.sin_addr);
        assert_int_equal(connect(*fd, (struct sockaddr *)&a, sizeof a), 0);
    }
    char req[1024], in[8192] = "";
    int n = snprintf(req, sizeof req,
                     "POST %s HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                     path, HOST, server.port, tok, strlen(body), body);
    assert_true(n > 0 && (size_t)n < sizeof req);
    assert_int_equal(write(*fd, req, (size_t)n), n);
    size_t len = 0;
    char *end = NULL;
    long clen = -1;
    long long deadline = wall_ms() + WAIT;
    for (;;) {
        if (!end && (end = strstr(in, "\r\n\r\n")) != NULL) {
            for (char *q = in; q < end; q++)  /* header names in any case */
                *q = (char)tolower((unsigned char)*q);
            const char *cl = strstr(in, "\r\ncontent-length:");
            assert_non_null(cl);
            clen = strtol(cl + 17, NULL, 10);
        }
        if (end && len >= (size_t)(end + 4 - in) + (size_t)clen)
            break;
        struct pollfd p = { .fd = *fd, .events = POLLIN };
        if (wall_ms() > deadline || len + 1 >= sizeof in)
            fail_msg("POST %s: no whole answer (%zu bytes)", path, len);
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t r = read(*fd, in + len, sizeof in - 1 - len);
        if (r <= 0)
            fail_msg("POST %s: the connection closed (%zu bytes)", path, len);
        len += (size_t)r;
        in[len] = 0;
        end = NULL;  /* looked for again: the buffer grew */
    }
    int status = atoi(in + 9);
    *out = json_loadb(end + 4, (size_t)clen, 0, NULL);
    if (strstr(in, "\r\nconnection: close")) {
        close(*fd);
        *fd = -1;
    }
    return status;
}

/* A challenge from ctok to `to` and its withdrawal, on *fd (post_kept):
 * two lines on each of to's event streams; what they take on one stream,
 * added to *made. */
static void challenge_and_cancel(int *fd, const char *ctok, const char *to, size_t *made)
{
    char path[96];
    json_t *j = NULL, *ok = NULL;
    int st = post_kept(fd, path_fmt(path, sizeof path, "/api/challenge/%s", to), ctok,
                       "{\"variant\":\"rampart\"}", &j);
    if (st != 200)
        fail_msg("a challenge to %s: %d", to, st);
    json_t *ch = j;  /* the answer is the challenge; the one told is "in", not "out" */
    const char *id = json_string_value(json_object_get(ch, "id"));
    assert_non_null(id);
    json_object_set_new(ch, "direction", json_string("in"));
    *made += event_bytes("challenge", ch);
    json_object_del(ch, "direction");
    st = post_kept(fd, path_fmt(path, sizeof path, "/api/challenge/%s/cancel", id), ctok, "{}",
                   &ok);
    json_decref(ok);
    if (st != 200)
        fail_msg("withdrawing a challenge to %s: %d", to, st);
    json_object_set_new(ch, "status", json_string("canceled"));
    *made += event_bytes("challengeCanceled", ch);
    json_decref(j);
}

/* Challenges from ctok to `to`, withdrawn at once, until none of the n
 * streams at fds is held by the server, or made_max() bytes were made for
 * each, or FLOOD_MS passed: the bytes made for each stream. */
static size_t flood_until_closed(const char *ctok, const char *to, const int *fds, int n)
{
    size_t made = 0, most = made_max(CUTOFF);
    long long start = wall_ms(), deadline = start + FLOOD_MS;
    int kept = -1;
    while (held_count(fds, n) > 0 && made < most && wall_ms() < deadline)
        for (int i = 0; i < 25; i++)
            challenge_and_cancel(&kept, ctok, to, &made);
    if (kept >= 0)
        close(kept);
    /* what was made may still be on its way to a queue: a while to close */
    deadline = wall_ms() + WAIT;
    while (held_count(fds, n) > 0 && wall_ms() < deadline)
        sleep_ms(50);
    print_message("# %zu bytes made for each of %d streams in %lld ms; %d still held\n", made,
                  n, wall_ms() - start, held_count(fds, n));
    return made;
}

/* The server still serves: its health, and a stream of `tok` that is read
 * hears of the next challenge from ctok. */
static void still_serves(const char *tok, const char *ctok, const char *to)
{
    json_decref(get_json("/api/health", NULL, 200));
    stream s;
    stream_open(&s, tok);
    size_t made = 0;
    int kept = -1;
    challenge_and_cancel(&kept, ctok, to, &made);
    if (kept >= 0)
        close(kept);
    long long deadline = wall_ms() + WAIT;
    while (!strstr(s.buf, "\"challengeCanceled\"") && wall_ms() < deadline)
        stream_wait_end(&s, 100);
    if (!strstr(s.buf, "\"challengeCanceled\""))
        fail_msg("a stream that is read heard nothing after the cut-off: %.300s", s.buf);
    stream_close(&s);
}

/* How many of `want` event streams tok may open at once (each refused
 * one answered 429): each opened, then all closed. */
static int free_slots(const char *tok, int want)
{
    int fds[16], n = 0;
    char req[400], head[64];
    for (; n < want && n < 16; n++) {
        fds[n] = socket(AF_INET, SOCK_STREAM, 0);
        assert_true(fds[n] >= 0);
        struct sockaddr_in a = { .sin_family = AF_INET,
                                 .sin_port = htons((uint16_t)server.port) };
        inet_pton(AF_INET, HOST, &a.sin_addr);
        assert_int_equal(connect(fds[n], (struct sockaddr *)&a, sizeof a), 0);
        int len = snprintf(req, sizeof req,
                           "GET /api/stream/event HTTP/1.1\r\nHost: %s:%d\r\n"
                           "Authorization: Bearer %s\r\n\r\n", HOST, server.port, tok);
        assert_int_equal(write(fds[n], req, (size_t)len), len);
        struct pollfd p = { .fd = fds[n], .events = POLLIN };
        ssize_t r = poll(&p, 1, WAIT) > 0 ? read(fds[n], head, 12) : -1;
        if (r != 12 || memcmp(head, "HTTP/1.1 200", 12) != 0) {
            close(fds[n]);
            break;
        }
    }
    for (int i = 0; i < n; i++)
        close(fds[i]);
    return n;
}

/* A challenger's token (into ctok) and a stream of its player's, read,
 * which keeps its Bot API client (and so its challenges) for as long as the
 * test runs: a player with nothing open there goes after a while, and its
 * challenges with it. */
static void challenger(const char *cookie, char *ctok, stream *keep)
{
    char tok[64];
    token_new(cookie, "challenge:write", ctok);
    token_new(cookie, "board:play", tok);
    stream_open(keep, tok);
}

/* --- the tests ----------------------------------------------------------------- */

static void test_a_reader_that_stops_is_cut_off(void **state)
{
    (void)state;
    char una[80], cid[80], tok[64], ctok[64];
    signup("una", una);
    signup("cid", cid);
    token_new(una, "board:play", tok);
    stream keep;
    challenger(cid, ctok, &keep);
    int fd = slow_open(tok, "/api/stream/event");
    assert_true(server_holds(fd));
    size_t made = flood_until_closed(ctok, "una", &fd, 1);
    if (server_holds(fd))
        fail_msg("%zu bytes made for a stream never read, and the server still holds it "
                 "(its reader may fall %d bytes behind)", made, CUTOFF);
    /* cut off for being behind, not before: more than the allowance was made */
    assert_true(made > CUTOFF);
    /* the token's streams no longer count it: all 8 of its slots come back */
    int slots = 0;
    long long deadline = wall_ms() + WAIT;
    do {
        slots = free_slots(tok, 8);
    } while (slots < 8 && wall_ms() < deadline && (sleep_ms(100), 1));
    if (slots < 8)
        fail_msg("the cut-off stream still takes one of its token's 8 slots");
    /* the reader reads at last: what the buffers held, then the end */
    int ended;
    size_t got = drain(fd, &ended);
    close(fd);
    print_message("# made %zu bytes for the stream; its reader got %zu, so about %zu "
                  "were queued when it was cut off\n", made, got, made - got);
    if (!ended)
        fail_msg("the cut-off stream did not end (%zu bytes read)", got);
    assert_true(got < made - CUTOFF);
    still_serves(tok, ctok, "una");
    stream_close(&keep);
}

static void test_a_hundred_stopped_readers_leave_memory_flat(void **state)
{
    (void)state;
    char vic[80], dov[80], toks[(STREAMS + 7) / 8][64], ctok[64];
    signup("vic", vic);
    signup("dov", dov);
    for (int t = 0; t < (STREAMS + 7) / 8; t++)
        token_new(vic, "board:play", toks[t]);   /* 8 streams a token */
    stream keep;
    challenger(dov, ctok, &keep);
    /* one flood first, so that what any flood grows once (the allocator's
     * arenas, the store's cache) is in the figure before */
    int warm = slow_open(toks[0], "/api/stream/event");
    flood_until_closed(ctok, "vic", &warm, 1);
    if (server_holds(warm))
        fail_msg("a stream never read is not cut off");
    close(warm);
    size_t before = server_rss();
    int fds[STREAMS];
    for (int i = 0; i < STREAMS; i++)
        fds[i] = slow_open(toks[i / 8], "/api/stream/event");
    assert_int_equal(held_count(fds, STREAMS), STREAMS);
    size_t made = flood_until_closed(ctok, "vic", fds, STREAMS);
    int held = held_count(fds, STREAMS);
    if (held)
        fail_msg("%zu bytes made for each of %d streams never read; the server still holds "
                 "%d of them", made, STREAMS, held);
    size_t after = server_rss();
    long long growth = (long long)after - (long long)before;
    print_message("# %d streams cut off after %zu bytes made for each; server RSS %zu KiB "
                  "before, %zu KiB after (%+lld KiB)\n", STREAMS, made, before / 1024,
                  after / 1024, growth / 1024);
    if (server_is_asan())
        print_message("# (ASan's quarantine keeps freed memory: RSS bound not checked)\n");
    else if (growth > RSS_GROWTH_MAX)
        fail_msg("server RSS grew by %lld KiB over %d cut-off streams (bound %d KiB)",
                 growth / 1024, STREAMS, RSS_GROWTH_MAX / 1024);
    for (int i = 0; i < STREAMS; i++) {
        int ended;
        drain(fds[i], &ended);
        close(fds[i]);
        if (!ended)
            fail_msg("cut-off stream %d did not end when read", i);
    }
    still_serves(toks[0], ctok, "vic");
    stream_close(&keep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_reader_that_stops_is_cut_off),
        cmocka_unit_test(test_a_hundred_stopped_readers_leave_memory_flat),
    };
    return fixture_run_group(tests, &fixture);
}
