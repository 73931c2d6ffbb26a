/* slow_reader.h -- a reader that stops reading, for the tests over the
 * wire that hold the server's queues bounded (test_slow_stream.c, a Bot
 * API stream; test_slow_ws.c, a WebSocket): a socket with a small receive
 * buffer, whether the server's end of it is still held (read from
 * /proc/net/tcp, so that the reader reads nothing to know it), its bytes
 * read to the connection's end, and the server's resident memory.
 *
 * Static inline; include after <cmocka.h> and "wire.h".
 */
#ifndef CITADEL_TEST_SLOW_READER_H
#define CITADEL_TEST_SLOW_READER_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#define MiB (1024 * 1024)
#define SLOW_RCVBUF 2048      /* the reader's receive buffer (the kernel doubles it) */
/* ... and the segment size it asks for: loopback's 64 KiB segments would
 * let the server's send buffer grow by megabytes before its queue grew at
 * all; small ones keep what the kernel holds to a few dozen KiB. */
#define SLOW_MSS 536
#define SLOW_MAX 100          /* the most slow readers a test holds at once */

/* A socket with the small receive buffer and segment size, connected to
 * the server; or a failed test. */
static inline int slow_connect(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    int small = SLOW_RCVBUF;
    assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small), 0);
    int mss = SLOW_MSS;
    assert_int_equal(setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof mss), 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)server.port) };
    inet_pton(AF_INET, HOST, &a.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* Reads fd byte by byte until a head's blank line (nothing past the head
 * is read) or WAIT passes: the head, NUL-terminated, in head. */
static inline void slow_read_head(int fd, char *head, size_t size)
{
    size_t len = 0;
    long long deadline = wall_ms() + WAIT;
    head[0] = 0;
    while (!strstr(head, "\r\n\r\n") && len + 1 < size && wall_ms() < deadline) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 100) > 0) {
            if (read(fd, head + len, 1) != 1)
                break;
            head[++len] = 0;
        }
    }
}

/* The local port of our end of fd. */
static inline unsigned port_of(int fd)
{
    struct sockaddr_in me;
    socklen_t sl = sizeof me;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&me, &sl), 0);
    return ntohs(me.sin_port);
}

/* How many of the n connections at fds the server's end still holds
 * ESTABLISHED: neither closed by the server nor known to be gone. */
static inline int held_count(const int *fds, int n)
{
    unsigned ports[SLOW_MAX];
    assert_true(n <= SLOW_MAX);
    for (int i = 0; i < n; i++)
        ports[i] = port_of(fds[i]);
    FILE *f = fopen("/proc/net/tcp", "r");
    assert_non_null(f);
    char line[512];
    int held = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned lport, rport, st;
        if (sscanf(line, " %*d: %*x:%x %*x:%x %x", &lport, &rport, &st) != 3 ||
            lport != (unsigned)server.port || st != 1)   /* 1: TCP_ESTABLISHED */
            continue;
        for (int i = 0; i < n; i++)
            held += rport == ports[i];
    }
    fclose(f);
    return held;
}

/* The bytes the server's end of fd has in its send queue, not yet taken
 * by the reader (rx 0: tx_queue of /proc/net/tcp), or in its receive
 * queue, not yet read by the server (rx 1: rx_queue); -1 if it is not
 * held. */
static inline long server_queue(int fd, int rx)
{
    unsigned port = port_of(fd);
    FILE *f = fopen("/proc/net/tcp", "r");
    assert_non_null(f);
    char line[512];
    long bytes = -1;
    while (bytes < 0 && fgets(line, sizeof line, f)) {
        unsigned lport, rport, st;
        unsigned long tx, rxq;
        if (sscanf(line, " %*d: %*x:%x %*x:%x %x %lx:%lx", &lport, &rport, &st, &tx, &rxq) == 5 &&
            lport == (unsigned)server.port && rport == port && st == 1)
            bytes = (long)(rx ? rxq : tx);
    }
    fclose(f);
    return bytes;
}

/* Waits (WAIT at most) until the server's send queue of each of the n
 * connections at fds is not empty and has stopped growing: the kernel
 * takes no more for them, so the server has no writeable turn of theirs
 * to act in until their readers read. */
static inline void until_stuck(const int *fds, int n)
{
    long long deadline = wall_ms() + WAIT;
    for (int i = 0; i < n && wall_ms() < deadline; i++) {
        long was = -1, now;
        while ((now = server_queue(fds[i], 0)) >= 0 && (now == 0 || now != was) &&
               wall_ms() < deadline) {
            was = now;
            struct timespec ts = { 0, 300 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        }
    }
}

static inline int server_holds(int fd)
{
    return held_count(&fd, 1);
}

/* Reads fd until the server's end of the connection comes (EOF or reset)
 * or WAIT passes: the bytes read, *ended 1 if it ended. */
static inline size_t drain(int fd, int *ended)
{
    char buf[65536];
    size_t got = 0;
    *ended = 0;
    long long deadline = wall_ms() + WAIT;
    while (wall_ms() < deadline) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t r = read(fd, buf, sizeof buf);
        if (r <= 0) {
            *ended = 1;
            break;
        }
        got += (size_t)r;
    }
    return got;
}

/* What a flood may make for a reader before it gives up: its allowance,
 * plus all that the server's socket may buffer (the largest send buffer
 * the kernel grows one to, tcp_wmem's third figure), plus 1 MiB for the
 * reader's small buffer and what is in flight. More and the server has
 * let the queue pass its allowance. */
static inline size_t made_max(size_t allowance)
{
    long wmem[3] = { 0, 0, 4 * MiB };
    FILE *f = fopen("/proc/sys/net/ipv4/tcp_wmem", "r");
    if (f) {
        if (fscanf(f, "%ld %ld %ld", &wmem[0], &wmem[1], &wmem[2]) != 3)
            wmem[2] = 4 * MiB;
        fclose(f);
    }
    return allowance + (size_t)wmem[2] + MiB;
}

/* The server's resident memory, in bytes (VmRSS of /proc/PID/status). */
static inline size_t server_rss(void)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)server.pid);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %zu kB", &kb) == 1)
            break;
    fclose(f);
    assert_true(kb > 0);
    return kb * 1024;
}

/* 1 if the server runs under AddressSanitizer: its freed memory then waits
 * in a quarantine of up to 256 MiB, so its RSS says nothing of leaks. */
static inline int server_is_asan(void)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)server.pid);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int asan = 0;
    while (!asan && fgets(line, sizeof line, f))
        asan = strstr(line, "libasan") != NULL;
    fclose(f);
    return asan;
}

#endif
