/* bus.c -- messages between the servers of one PostgreSQL database over
 * LISTEN/NOTIFY (bus.h), on a libpq connection of their own that the loop
 * watches without ever waiting on it.
 *
 * Sending: each message becomes one or more NOTIFY statements appended to
 * `pending`; when no query is out, pending goes as one query (one round
 * trip for everything queued meanwhile, as the store's writer batches).
 * A notification's payload is "SEQ FLAG TEXT": SEQ counts this bus's
 * pieces (PostgreSQL folds identical notifications of one transaction
 * into one, and no two of ours are identical), FLAG is '+' for a piece
 * with more to come or '=' for a message's last (or only) piece. Pieces
 * are cut between characters, never inside one.
 *
 * Receiving: a notification counts only if its backend (its pid) is the
 * bus connection of a server (the lock each holds, STORE_BUS_LOCK; the
 * cluster's sender_fn says which): anything else -- a stranger with the
 * database's credentials NOTIFYing our channels -- is dropped before it
 * is read or kept. A server's pieces arrive in the order sent, numbered
 * one after another, so the pieces of each sender are joined in a buffer
 * of their own until the last; a piece out of turn (one lost, or a
 * backend's pid given to another connection) drops what was joined.
 * Notifications of our own connection (a message to every server) are
 * dropped: the sender acts on its own at once.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus.h"
#include "../core/sbuf.h"
#include "../../store/store.h"

#define PIECE_MAX 7800  /* bytes of text in one notification (the limit is 8000) */
#define SENDERS_MAX 64  /* senders whose pieces may be half joined at once */

typedef struct partial {
    int pid;
    unsigned long long seq;  /* the last piece's */
    sbuf text;
} partial;

struct bus {
    PGconn *conn;
    net_fd *watch;
    int own_pid;
    int64_t me;
    bus_deliver_fn deliver;
    bus_sender_fn sender;
    void *app;
    sbuf pending;        /* NOTIFY statements not yet sent */
    int busy;            /* a query is out, its results not all read */
    int lost;
    unsigned long long seq;
    partial partials[SENDERS_MAX];
    char *escaped;       /* room for escaping one piece */
};

static void set_lost(bus *b, const char *why)
{
    if (!b->lost)
        fprintf(stderr, "citadel serve: the servers' bus is lost: %s\n", why);
    b->lost = 1;
}

/* Sends pending as one query, if none is out. */
static void dispatch(bus *b)
{
    if (b->busy || b->lost || !b->pending.n)
        return;
    if (!PQsendQuery(b->conn, b->pending.p)) {
        set_lost(b, PQerrorMessage(b->conn));
        return;
    }
    b->pending.n = 0;
    b->pending.p[0] = '\0';
    b->busy = 1;
    int f = PQflush(b->conn);
    if (f < 0)
        set_lost(b, PQerrorMessage(b->conn));
    net_fd_want_write(b->watch, f == 1);
}

static partial *partial_of(bus *b, int pid)
{
    partial *free_one = NULL;
    for (int i = 0; i < SENDERS_MAX; i++) {
        if (b->partials[i].pid == pid)
            return &b->partials[i];
        if (!b->partials[i].pid && !free_one)
            free_one = &b->partials[i];
    }
    if (free_one)
        free_one->pid = pid;
    return free_one;
}

static void arrived(bus *b, const PGnotify *n)
{
    if (n->be_pid == b->own_pid)
        return;
    /* "SEQ FLAG TEXT" */
    char *end;
    unsigned long long seq = strtoull(n->extra, &end, 10);
    if (end == n->extra || end[0] != ' ' || (end[1] != '+' && end[1] != '='))
        return;  /* not ours */
    int64_t from = b->sender(b->app, n->be_pid);
    if (from <= 0)
        return;  /* not a server's bus */
    const char *text = end + 2;
    size_t len = strlen(text);
    partial *p = partial_of(b, n->be_pid);
    if (!p)
        return;  /* more senders than ever expected: dropped */
    if (p->text.n && seq != p->seq + 1) {  /* out of turn: what was joined is void */
        free(p->text.p);
        memset(&p->text, 0, sizeof p->text);
    }
    p->seq = seq;
    if (end[1] == '=' && !p->text.n) {  /* the common case: a message in one piece */
        p->pid = 0;
        b->deliver(b->app, from, text, len);
        return;
    }
    if (p->text.n + len > BUS_MESSAGE_MAX) {  /* no sender of ours sends this */
        p->text.oom = 1;
    }
    sb_put(&p->text, text, len);
    if (end[1] == '+')
        return;
    if (!p->text.oom)
        b->deliver(b->app, from, p->text.p, p->text.n);
    free(p->text.p);
    memset(p, 0, sizeof *p);
}

static void on_ready(void *arg, int readable, int writable)
{
    bus *b = arg;
    if (b->lost)
        return;
    if (writable) {
        int f = PQflush(b->conn);
        if (f < 0) {
            set_lost(b, PQerrorMessage(b->conn));
            return;
        }
        net_fd_want_write(b->watch, f == 1);
    }
    if (!readable)
        return;
    if (!PQconsumeInput(b->conn)) {
        set_lost(b, PQerrorMessage(b->conn));
        return;
    }
    while (b->busy && !PQisBusy(b->conn)) {
        PGresult *r = PQgetResult(b->conn);
        if (!r) {
            b->busy = 0;
            break;
        }
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            fprintf(stderr, "citadel serve: a notification was refused: %s",
                    PQresultErrorMessage(r));
        PQclear(r);
    }
    PGnotify *n;
    while ((n = PQnotifies(b->conn))) {
        arrived(b, n);
        PQfreemem(n);
    }
    if (PQstatus(b->conn) != CONNECTION_OK)
        set_lost(b, "the connection broke");
    dispatch(b);
}

bus *bus_open(const char *uri, int64_t me, net *n, bus_deliver_fn deliver,
              bus_sender_fn sender, void *app, char *err, size_t errlen)
{
    bus *b = calloc(1, sizeof *b);
    if (!b || !(b->escaped = malloc(2 * PIECE_MAX + 1))) {
        free(b);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    b->me = me;
    b->deliver = deliver;
    b->sender = sender;
    b->app = app;
    b->conn = PQconnectdb(uri);
    if (PQstatus(b->conn) != CONNECTION_OK) {
        snprintf(err, errlen, "the servers' bus: %s", PQerrorMessage(b->conn));
        bus_free(b);
        return NULL;
    }
    /* the lock first: a connection that cannot be named server me's hears nothing */
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT pg_try_advisory_lock((%d::bigint << 32) | %lld)",
             STORE_BUS_LOCK, (long long)me);
    PGresult *r = PQexec(b->conn, sql);
    int ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
             strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    if (!ok) {
        snprintf(err, errlen, "the servers' bus: server %lld's bus lock is held elsewhere%s%s",
                 (long long)me, PQerrorMessage(b->conn)[0] ? ": " : "",
                 PQerrorMessage(b->conn));
        bus_free(b);
        return NULL;
    }
    snprintf(sql, sizeof sql, "LISTEN citadel_all; LISTEN citadel_%lld", (long long)me);
    r = PQexec(b->conn, sql);
    ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok || PQsetnonblocking(b->conn, 1) != 0 ||
        !(b->watch = net_fd_watch(n, PQsocket(b->conn), on_ready, b))) {
        snprintf(err, errlen, "the servers' bus: %s", PQerrorMessage(b->conn));
        bus_free(b);
        return NULL;
    }
    b->own_pid = PQbackendPID(b->conn);
    return b;
}

/* Appends one NOTIFY of the piece text[0..len) to pending. */
static void notify_piece(bus *b, const char *channel, const char *text, size_t len, int last)
{
    char head[48];
    snprintf(head, sizeof head, "%llu %c", ++b->seq, last ? '=' : '+');
    int e = 0;
    PQescapeStringConn(b->conn, b->escaped, text, len, &e);
    if (e) {
        set_lost(b, "a message that is not text");
        return;
    }
    sb_puts(&b->pending, "NOTIFY ");
    sb_puts(&b->pending, channel);
    sb_puts(&b->pending, ", '");
    sb_puts(&b->pending, head);
    sb_puts(&b->pending, b->escaped);
    sb_puts(&b->pending, "';");
}

int bus_send(bus *b, int64_t to, const char *text)
{
    size_t len = strlen(text);
    if (b->lost || len > BUS_MESSAGE_MAX || memchr(text, '\n', len))
        return -1;
    char channel[40];
    if (to == BUS_ALL)
        snprintf(channel, sizeof channel, "citadel_all");
    else
        snprintf(channel, sizeof channel, "citadel_%lld", (long long)to);
    do {
        size_t n = len;
        if (n > PIECE_MAX) {
            n = PIECE_MAX;
            while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
                n--;  /* cut before a character, not inside it */
        }
        notify_piece(b, channel, text, n, n == len);
        text += n;
        len -= n;
    } while (len > 0);
    if (b->pending.oom || b->pending.n > BUS_QUEUE_MAX) {
        set_lost(b, "too much waits to be sent");
        return -1;
    }
    dispatch(b);
    return b->lost ? -1 : 0;
}

int bus_lost(const bus *b)
{
    return b->lost;
}

void bus_drain(bus *b)
{
    if (!b || b->lost || PQsetnonblocking(b->conn, 0) != 0)
        return;
    for (int round = 0; round < 2; round++) {  /* what is out, then what is pending */
        PGresult *r;
        while ((r = PQgetResult(b->conn)))
            PQclear(r);
        b->busy = 0;
        if (b->pending.n && PQsendQuery(b->conn, b->pending.p))
            b->busy = 1;
        b->pending.n = 0;
    }
}

void bus_free(bus *b)
{
    if (!b)
        return;
    net_fd_free(b->watch);
    PQfinish(b->conn);
    for (int i = 0; i < SENDERS_MAX; i++)
        free(b->partials[i].text.p);
    free(b->pending.p);
    free(b->escaped);
    free(b);
}
