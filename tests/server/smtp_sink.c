/* smtp_sink.c -- the tests' SMTP server (see smtp_sink.h).
 *
 * One thread polls the listening socket, a wake-up pipe and every open
 * connection (up to SINK_CONNS at once, so a mail client that keeps one
 * connection idle while it opens another is served too). Each connection
 * gathers bytes until a whole line has come, answers it, and in DATA mode
 * collects lines until the lone dot. Every descriptor is close-on-exec: a
 * server started by the test (fork and exec) must not keep the listening
 * socket open, or "the mail server is down" would not be down.
 *
 * Mails are kept in an array of pointers that never moves a mail, behind a
 * mutex, with a condition variable for smtp_sink_wait.
 */
#include "smtp_sink.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SINK_CONNS 16
#define SINK_MAILS 1024
#define SINK_LINE_MAX (4u << 20)   /* a connection sending more without a line end is dropped */
#define SINK_IDLE_MS 60000         /* a silent connection is closed after this */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t arrived = PTHREAD_COND_INITIALIZER;
static smtp_mail *mails[SINK_MAILS];
static int nmails;

static pthread_t thread;
static int running;
static int listen_fd = -1;
static int wake[2] = { -1, -1 };

typedef struct conn {
    int fd;
    char *in;             /* received, not yet a whole line */
    size_t len, cap;
    int data_mode;        /* 1 after DATA's 354, until the lone dot */
    char *data;           /* the mail's text so far */
    size_t dlen, dcap;
    smtp_mail cur;        /* the transaction: from and recipients */
    int have_from;
    long long last;       /* ms of the last byte from the client */
} conn;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Grows *p (cap *cap) to hold need bytes: 0 or -1. */
static int grow(char **p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    char *n = realloc(*p, c);
    if (!n)
        return -1;
    *p = n;
    *cap = c;
    return 0;
}

/* Writes all of text; -1 if the peer is gone. */
static int say(conn *c, const char *text)
{
    size_t len = strlen(text);
    const char *p = text;
    long long deadline = now_ms() + 5000;
    while (len > 0) {
        ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL);
        if (n > 0) {
            p += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            struct pollfd pf = { .fd = c->fd, .events = POLLOUT };
            long long left = deadline - now_ms();
            if (left <= 0 || poll(&pf, 1, (int)left) < 0)
                return -1;
            continue;
        }
        return -1;
    }
    return 0;
}

static void reset_transaction(conn *c)
{
    memset(&c->cur, 0, sizeof c->cur);
    c->have_from = 0;
    c->dlen = 0;
    c->data_mode = 0;
}

static void conn_free(conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->in);
    free(c->data);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

/* The address between < and > after the command's colon, into out: 0 or -1. */
static int path_of(const char *line, size_t skip, char *out, size_t size)
{
    const char *p = line + skip;
    while (*p == ' ')
        p++;
    const char *lt = strchr(p, '<'), *gt = lt ? strchr(lt, '>') : NULL;
    if (!lt || !gt || (size_t)(gt - lt - 1) >= size)
        return -1;
    memcpy(out, lt + 1, (size_t)(gt - lt - 1));
    out[gt - lt - 1] = '\0';
    return 0;
}

/* The mail of the transaction is complete: keep it. */
static void keep_mail(conn *c)
{
    smtp_mail *m = calloc(1, sizeof *m);
    if (!m)
        return;
    *m = c->cur;
    m->data = malloc(c->dlen + 1);
    if (!m->data) {
        free(m);
        return;
    }
    if (c->dlen)
        memcpy(m->data, c->data, c->dlen);
    m->data[c->dlen] = '\0';
    m->len = c->dlen;
    pthread_mutex_lock(&lock);
    if (nmails < SINK_MAILS) {
        mails[nmails++] = m;
        m = NULL;
    }
    pthread_cond_broadcast(&arrived);
    pthread_mutex_unlock(&lock);
    if (m) {
        free(m->data);
        free(m);
    }
}

/* Answers one line (without its line end). 0 to go on, -1 to close. */
static int on_line(conn *c, char *line, size_t len)
{
    if (c->data_mode) {
        if (len == 1 && line[0] == '.') {
            keep_mail(c);
            reset_transaction(c);
            return say(c, "250 2.0.0 OK queued\r\n");
        }
        const char *p = line;
        if (len > 0 && line[0] == '.') {   /* dot-unstuffing (RFC 5321 4.5.2) */
            p++;
            len--;
        }
        if (grow(&c->data, &c->dcap, c->dlen + len + 3) < 0)
            return -1;
        memcpy(c->data + c->dlen, p, len);
        c->dlen += len;
        c->data[c->dlen++] = '\r';
        c->data[c->dlen++] = '\n';
        return 0;
    }
    if (strncasecmp(line, "EHLO", 4) == 0)
        return say(c, "250-sink.test\r\n250-8BITMIME\r\n250 SIZE 10485760\r\n");
    if (strncasecmp(line, "HELO", 4) == 0)
        return say(c, "250 sink.test\r\n");
    if (strncasecmp(line, "MAIL FROM:", 10) == 0) {
        reset_transaction(c);
        if (path_of(line, 10, c->cur.from, sizeof c->cur.from) < 0)
            return say(c, "501 5.5.4 syntax: MAIL FROM:<address>\r\n");
        c->have_from = 1;
        return say(c, "250 2.1.0 OK\r\n");
    }
    if (strncasecmp(line, "RCPT TO:", 8) == 0) {
        if (!c->have_from)
            return say(c, "503 5.5.1 MAIL first\r\n");
        if (c->cur.nrcpt >= SMTP_SINK_RCPT_MAX)
            return say(c, "452 4.5.3 too many recipients\r\n");
        if (path_of(line, 8, c->cur.rcpt[c->cur.nrcpt], sizeof c->cur.rcpt[0]) < 0)
            return say(c, "501 5.5.4 syntax: RCPT TO:<address>\r\n");
        c->cur.nrcpt++;
        return say(c, "250 2.1.5 OK\r\n");
    }
    if (strncasecmp(line, "DATA", 4) == 0 && len == 4) {
        if (!c->have_from || c->cur.nrcpt == 0)
            return say(c, "503 5.5.1 RCPT first\r\n");
        c->data_mode = 1;
        c->dlen = 0;
        return say(c, "354 end with <CRLF>.<CRLF>\r\n");
    }
    if (strncasecmp(line, "RSET", 4) == 0) {
        reset_transaction(c);
        return say(c, "250 2.0.0 OK\r\n");
    }
    if (strncasecmp(line, "NOOP", 4) == 0)
        return say(c, "250 2.0.0 OK\r\n");
    if (strncasecmp(line, "VRFY", 4) == 0)
        return say(c, "252 2.1.5 cannot verify\r\n");
    if (strncasecmp(line, "QUIT", 4) == 0) {
        say(c, "221 2.0.0 bye\r\n");
        return -1;
    }
    return say(c, "502 5.5.2 not implemented\r\n");
}

/* Reads what came on c and answers every whole line: 0, or -1 to close. */
static int on_readable(conn *c)
{
    if (grow(&c->in, &c->cap, c->len + 16384) < 0)
        return -1;
    ssize_t n = recv(c->fd, c->in + c->len, c->cap - c->len, 0);
    if (n == 0)
        return -1;
    if (n < 0)
        return errno == EAGAIN || errno == EINTR ? 0 : -1;
    c->len += (size_t)n;
    c->last = now_ms();
    size_t start = 0;
    for (;;) {
        char *nl = memchr(c->in + start, '\n', c->len - start);
        if (!nl)
            break;
        size_t end = (size_t)(nl - c->in), l = end - start;
        if (l > 0 && c->in[end - 1] == '\r')
            l--;
        c->in[start + l] = '\0';
        if (on_line(c, c->in + start, l) < 0)
            return -1;
        start = end + 1;
    }
    memmove(c->in, c->in + start, c->len - start);
    c->len -= start;
    return c->len > SINK_LINE_MAX ? -1 : 0;
}

static void *sink_main(void *arg)
{
    (void)arg;
    conn conns[SINK_CONNS];
    for (int i = 0; i < SINK_CONNS; i++) {
        memset(&conns[i], 0, sizeof conns[i]);
        conns[i].fd = -1;
    }
    for (;;) {
        struct pollfd pf[SINK_CONNS + 2];
        int map[SINK_CONNS + 2];
        int n = 0;
        pf[n] = (struct pollfd){ .fd = wake[0], .events = POLLIN };
        map[n++] = -1;
        pf[n] = (struct pollfd){ .fd = listen_fd, .events = POLLIN };
        map[n++] = -2;
        for (int i = 0; i < SINK_CONNS; i++)
            if (conns[i].fd >= 0) {
                pf[n] = (struct pollfd){ .fd = conns[i].fd, .events = POLLIN };
                map[n++] = i;
            }
        int r = poll(pf, (nfds_t)n, 200);
        if (r < 0 && errno != EINTR)
            break;
        if (pf[0].revents)
            break;   /* smtp_sink_stop */
        if (pf[1].revents & POLLIN) {
            int fd = accept(listen_fd, NULL, NULL);
            if (fd >= 0 && (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 ||
                            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0)) {
                close(fd);
                fd = -1;
            }
            int slot = -1;
            for (int i = 0; fd >= 0 && i < SINK_CONNS && slot < 0; i++)
                if (conns[i].fd < 0)
                    slot = i;
            if (fd >= 0 && slot < 0) {
                close(fd);   /* too many at once */
            } else if (fd >= 0) {
                conns[slot].fd = fd;
                conns[slot].last = now_ms();
                if (say(&conns[slot], "220 sink.test ESMTP test sink\r\n") < 0)
                    conn_free(&conns[slot]);
            }
        }
        for (int k = 2; k < n; k++) {
            conn *c = &conns[map[k]];
            if (c->fd < 0)
                continue;
            if (pf[k].revents & (POLLIN | POLLHUP | POLLERR)) {
                if (on_readable(c) < 0)
                    conn_free(c);
            } else if (now_ms() - c->last > SINK_IDLE_MS) {
                say(c, "421 4.4.2 idle too long\r\n");
                conn_free(c);
            }
        }
    }
    for (int i = 0; i < SINK_CONNS; i++)
        if (conns[i].fd >= 0)
            conn_free(&conns[i]);
    return NULL;
}

int smtp_sink_start(int port)
{
    if (running || port < 0 || port > 65535)
        return -1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t al = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 16) < 0 ||
        getsockname(fd, (struct sockaddr *)&a, &al) < 0) {
        close(fd);
        return -1;
    }
    if (pipe(wake) < 0) {
        close(fd);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(wake[i], F_SETFD, FD_CLOEXEC);
        fcntl(wake[i], F_SETFL, fcntl(wake[i], F_GETFL) | O_NONBLOCK);
    }
    listen_fd = fd;
    if (pthread_create(&thread, NULL, sink_main, NULL) != 0) {
        close(fd);
        close(wake[0]);
        close(wake[1]);
        listen_fd = wake[0] = wake[1] = -1;
        return -1;
    }
    running = 1;
    return ntohs(a.sin_port);
}

void smtp_sink_stop(void)
{
    if (!running)
        return;
    ssize_t w = write(wake[1], "x", 1);
    (void)w;
    pthread_join(thread, NULL);
    close(listen_fd);
    close(wake[0]);
    close(wake[1]);
    listen_fd = wake[0] = wake[1] = -1;
    running = 0;
}

int smtp_sink_count(void)
{
    pthread_mutex_lock(&lock);
    int n = nmails;
    pthread_mutex_unlock(&lock);
    return n;
}

int smtp_sink_wait(int n, int timeout_ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&lock);
    int rc = 0;
    while (nmails < n && rc == 0)
        rc = pthread_cond_timedwait(&arrived, &lock, &until);
    int ok = nmails >= n;
    pthread_mutex_unlock(&lock);
    return ok;
}

const smtp_mail *smtp_sink_get(int i)
{
    pthread_mutex_lock(&lock);
    const smtp_mail *m = i >= 0 && i < nmails ? mails[i] : NULL;
    pthread_mutex_unlock(&lock);
    return m;
}

void smtp_sink_clear(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nmails; i++) {
        free(mails[i]->data);
        free(mails[i]);
        mails[i] = NULL;
    }
    nmails = 0;
    pthread_mutex_unlock(&lock);
}

int smtp_mail_header(const smtp_mail *m, const char *name, char *out, size_t size)
{
    size_t nlen = strlen(name), o = 0;
    int found = 0;
    const char *p = m->data;
    out[0] = '\0';
    while (*p && !(p[0] == '\r' && p[1] == '\n') && p[0] != '\n') {
        const char *eol = strchr(p, '\n');
        size_t ll = eol ? (size_t)(eol - p) : strlen(p);
        if (ll && p[ll - 1] == '\r')
            ll--;
        if (found && (p[0] == ' ' || p[0] == '\t')) {   /* a folded continuation */
            for (size_t i = 0; i < ll && o + 1 < size; i++)
                out[o++] = p[i];
        } else if (found) {
            break;
        } else if (ll > nlen && p[nlen] == ':' && strncasecmp(p, name, nlen) == 0) {
            found = 1;
            size_t i = nlen + 1;
            while (i < ll && (p[i] == ' ' || p[i] == '\t'))
                i++;
            for (; i < ll && o + 1 < size; i++)
                out[o++] = p[i];
        }
        if (!eol)
            break;
        p = eol + 1;
    }
    out[o] = '\0';
    return found;
}

const char *smtp_mail_body(const smtp_mail *m)
{
    const char *b = strstr(m->data, "\r\n\r\n");
    if (b)
        return b + 4;
    b = strstr(m->data, "\n\n");
    return b ? b + 2 : "";
}
