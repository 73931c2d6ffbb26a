/* net_frames.c -- see net_frames.h: the client-frame checks lws 4.1 does
 * not make, on the bytes lws reads.
 *
 * The invariant: for every socket lws accepted (and not yet forgotten),
 * fds[fd] describes exactly the bytes lws has read from it so far (for a
 * socket read through TLS, the bytes OpenSSL deciphered, which net_tls.c
 * hands over; recv's ciphertext is not looked at): while
 * HTTP, how much of a header's end ("\r\n\r\n") the last bytes matched and
 * whether the last read went on past a header's end; once a WebSocket,
 * where in the current frame the next byte falls (header bytes gathered,
 * or payload bytes still to come). A state is reset when lws accepts its
 * socket and when the connection closes, so a descriptor number used
 * again starts clean. While a head is open (from the connection's start
 * or net_frames_next to the head's blank line), `head` counts its bytes,
 * `line` says whether the request line is still being read and `pct` how
 * much of "%00" its last bytes matched.
 *
 * This file defines recv() for the whole program: it calls recvfrom() (the
 * same system call, with no address asked for) and then looks at what came,
 * only on the loop's thread and only for sockets lws accepted.
 * net_frames_look is the same look for what came through TLS.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "net_frames.h"
#include "net_status.h"

#define MAX_FDS (1 << 21)

typedef struct fdstate {
    unsigned char watched;  /* lws accepted it */
    unsigned char tls;      /* ... and reads it through TLS (net_tls.c looks, not recv) */
    unsigned char ws;       /* its bytes are frames now */
    unsigned char matched;  /* HTTP: bytes of "\r\n\r\n" the last bytes matched */
    unsigned char after;    /* HTTP: the last read went on past a header's end */
    unsigned char open;     /* HTTP: a head is being read (its bytes counted) */
    unsigned char line;     /* HTTP: ... and its request line */
    unsigned char pct;      /* HTTP: bytes of "%00" the request line's last bytes matched */
    uint32_t head;          /* HTTP: bytes of the open head so far */
    unsigned char hlen;     /* frames: header bytes gathered of the current frame */
    unsigned char need;     /* ... and how many it has (2 until its length is known) */
    unsigned char hdr[14];
    uint64_t left;          /* frames: payload bytes of the current frame to come */
} fdstate;

static fdstate *fds;
static int nfds;
static int ready;
static pthread_t loop_thread;

void net_frames_init(void)
{
    loop_thread = pthread_self();
    ready = 1;
}

static fdstate *state_of(int fd, int grow)
{
    if (fd < 0 || fd >= MAX_FDS)
        return NULL;
    if (fd >= nfds) {
        if (!grow)
            return NULL;
        int n = nfds ? nfds : 1024;
        while (n <= fd)
            n *= 2;
        fdstate *f = realloc(fds, (size_t)n * sizeof *f);
        if (!f)
            return NULL;
        memset(f + nfds, 0, (size_t)(n - nfds) * sizeof *f);
        fds = f;
        nfds = n;
    }
    return &fds[fd];
}

void net_frames_accept(int fd)
{
    fdstate *f = state_of(fd, 1);
    if (f) {
        memset(f, 0, sizeof *f);
        f->watched = 1;
        f->open = f->line = 1;
    }
}

void net_frames_tls(int fd)
{
    fdstate *f = state_of(fd, 0);
    if (f && f->watched)
        f->tls = 1;
}

void net_frames_next(int fd)
{
    fdstate *f = state_of(fd, 0);
    if (f && f->watched && !f->ws && !f->open) {
        f->open = f->line = 1;
        f->pct = 0;
        f->head = 0;
    }
}

int net_frames_upgrade(int fd)
{
    fdstate *f = state_of(fd, 0);
    if (!f || !f->watched)
        return 0;
    if (f->after)
        return -1;  /* frames sent before the answer to the handshake */
    f->ws = 1;
    f->hlen = 0;
    f->need = 2;
    f->left = 0;
    return 0;
}

void net_frames_forget(int fd)
{
    fdstate *f = state_of(fd, 0);
    if (f)
        memset(f, 0, sizeof *f);
}

/* HTTP: follows header ends through the read, and measures the open
 * head: 0, or the status to answer it with (431, 400). */
static int scan_http(fdstate *f, const unsigned char *p, size_t n)
{
    static const char end[] = "\r\n\r\n";
    for (size_t i = 0; i < n; i++) {
        if (f->open) {
            if (++f->head > NET_HEAD_MAX)
                return 431;
            if (f->line) {
                static const char nul[] = "%00";
                if (p[i] == 0)
                    return 400;
                if (p[i] == '\n')
                    f->line = 0;
                else if (p[i] == (unsigned char)nul[f->pct])
                    f->pct++;
                else
                    f->pct = p[i] == '%' ? 1 : 0;
                if (f->pct == 3)
                    return 400;
            }
        }
        if (p[i] == (unsigned char)end[f->matched])
            f->matched++;
        else
            f->matched = p[i] == '\r' ? 1 : 0;
        if (f->matched == 4) {
            f->matched = 0;
            f->after = i + 1 < n;
            f->open = 0;
        }
    }
    return 0;
}

int net_frames_refusal(char *buf, size_t size, int status)
{
    return net_closing_answer(buf, size, status, NULL,
                              status == 431 ? "the request's headers are too long"
                                            : "the request's path holds a NUL byte");
}

void net_frames_drain(int fd)
{
    shutdown(fd, SHUT_WR);
    char sink[4096];
    for (int k = 0; k < 64 && recvfrom(fd, sink, sizeof sink, MSG_DONTWAIT, NULL, NULL) > 0; k++)
        ;
}

/* Answers fd's request with status and readies its close (net_frames.h). */
static void refuse_head(int fd, int status)
{
    char answer[512];
    int len = net_frames_refusal(answer, sizeof answer, status);
    if (len > 0 && send(fd, answer, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
        return;
    net_frames_drain(fd);
}

/* Frames: -1 at the first frame whose MASK bit is clear. */
static int scan_frames(fdstate *f, const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (f->left) {
            size_t skip = f->left < n - i ? (size_t)f->left : n - i;
            f->left -= skip;
            i += skip;
            continue;
        }
        f->hdr[f->hlen++] = p[i++];
        if (f->hlen == 2) {
            if (!(f->hdr[1] & 0x80))
                return -1;
            unsigned len7 = f->hdr[1] & 0x7fu;
            f->need = (unsigned char)(2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + 4);
        }
        if (f->hlen >= 2 && f->hlen == f->need) {
            unsigned len7 = f->hdr[1] & 0x7fu;
            uint64_t len = len7;
            if (len7 == 126)
                len = (uint64_t)f->hdr[2] << 8 | f->hdr[3];
            else if (len7 == 127)
                for (int k = 0; k < 8; k++)
                    len = len << 8 | f->hdr[2 + k];
            f->left = len;
            f->hlen = 0;
            f->need = 2;
        }
    }
    return 0;
}

int net_frames_look(int fd, int tls, const void *buf, size_t n)
{
    if (!ready || !pthread_equal(pthread_self(), loop_thread))
        return 0;
    fdstate *f = state_of(fd, 0);
    if (!f || !f->watched || f->tls != tls)
        return 0;
    int status = f->ws ? scan_frames(f, buf, n) : scan_http(f, buf, n);
    if (status)
        memset(f, 0, sizeof *f);
    return status;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    ssize_t n = recvfrom(fd, buf, len, flags, NULL, NULL);
    if (n <= 0 || (flags & MSG_PEEK))
        return n;
    int status = net_frames_look(fd, 0, buf, (size_t)n);
    if (!status)
        return n;
    /* RFC 6455 5.1: close on an unmasked frame (-1). lws takes the failed
     * read for a reset and closes; the frame reaches nobody. */
    if (status > 0)
        refuse_head(fd, status);
    errno = ECONNRESET;
    return -1;
}
