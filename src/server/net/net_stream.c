/* net_stream.c -- answers written over time (net.h's streams): NDJSON
 * lines of the Bot API, sent as HTTP/1.1 chunks as they come.
 *
 * The invariant: a stream belongs to its connection. The app holds it
 * from net_http_stream until it ends it or is told it is gone, never
 * after; the stream is freed only when its connection closes
 * (net_stream_closed), so neither side ever sees the other freed under it.
 * At most NET_STREAM_QUEUE_MAX bytes wait to be written; past that the
 * stream is cut off: its queue freed and its connection closed at once,
 * not at a writeable turn, which a reader that has stopped never gives.
 *
 * The queue lives in pages of its own (mmap), blocks of chunks one after
 * another, each block given back to the system once its last chunk is
 * written or the queue is dropped: memory freed on the heap stays the
 * process's wherever anything lives above it, so a hundred readers cut
 * off at 1 MiB each would have left the server 100 MiB larger for good.
 */
#define _DEFAULT_SOURCE  /* MAP_ANONYMOUS */
#include <uv.h>  /* before libwebsockets.h, as in net.c */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "net_stream.h"

#define BLOCK_BYTES (64 * 1024)  /* a block, unless one chunk needs more */
#define ALIGN 16

typedef struct chunk {
    size_t len;
    unsigned char data[];  /* LWS_PRE bytes of room, then the chunk as sent */
} chunk;

/* A block of the queue: its header, then chunks from `rd` (the next to
 * write) to `wr` (the free room). A block in a queue holds at least one
 * chunk not yet written. */
typedef struct block {
    struct block *next;
    size_t size;  /* bytes mapped, this header included */
    size_t rd, wr;
} block;

struct net_stream {
    struct lws *wsi;
    int status;
    char ctype[64];
    int headers_sent;
    int ending;          /* the app ended it: the last chunk follows the queue */
    int cut;             /* too much queued: close */
    int done;            /* the last chunk was written: close */
    block *head, *tail;
    size_t queued;       /* bytes of the chunks in the blocks */
    net_stream_gone gone;
    void *arg;
};

net_stream *net_stream_new(struct lws *wsi, int status, const char *content_type,
                           net_stream_gone gone, void *arg)
{
    net_stream *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->wsi = wsi;
    st->status = status;
    snprintf(st->ctype, sizeof st->ctype, "%s", content_type);
    st->gone = gone;
    st->arg = arg;
    return st;
}

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* The bytes a chunk of len takes in a block. */
static size_t chunk_bytes(size_t len)
{
    return round_up(sizeof(chunk) + LWS_PRE + len, ALIGN);
}

static size_t block_head(void)
{
    return round_up(sizeof(block), ALIGN);
}

/* A new block with room for `need` bytes of chunks, or NULL. */
static block *block_new(size_t need)
{
    size_t size = block_head() + need;
    size = round_up(size > BLOCK_BYTES ? size : BLOCK_BYTES, (size_t)sysconf(_SC_PAGESIZE));
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    block *b = p;
    b->next = NULL;
    b->size = size;
    b->rd = b->wr = block_head();
    return b;
}

static chunk *chunk_at(block *b, size_t off)
{
    return (chunk *)(void *)((unsigned char *)b + off);
}

/* Queues `len` bytes as one HTTP/1.1 chunk (RFC 9112 7.1): its length in
 * hex, CRLF, the bytes, CRLF. len 0 is the last chunk. */
static int queue_chunk(net_stream *st, const char *data, size_t len)
{
    char head[24];
    int hl = snprintf(head, sizeof head, "%zx\r\n", len);
    size_t total = (size_t)hl + len + 2, need = chunk_bytes(total);
    block *b = st->tail;
    if (!b || b->size - b->wr < need) {
        b = block_new(need);
        if (!b)
            return -1;
        if (st->tail)
            st->tail->next = b;
        else
            st->head = b;
        st->tail = b;
    }
    chunk *c = chunk_at(b, b->wr);
    b->wr += need;
    c->len = total;
    unsigned char *q = c->data + LWS_PRE;
    memcpy(q, head, (size_t)hl);
    if (len)
        memcpy(q + hl, data, len);
    memcpy(q + (size_t)hl + len, "\r\n", 2);
    st->queued += total;
    lws_callback_on_writable(st->wsi);
    return 0;
}

static void free_queue(net_stream *st)
{
    while (st->head) {
        block *b = st->head;
        st->head = b->next;
        munmap(b, b->size);
    }
    st->tail = NULL;
    st->queued = 0;
}

/* A reader this slow is gone in all but name: what waits for it is
 * dropped now, and its connection closed on the loop's next turn (through
 * lws, which then tells net.c, and the app's `gone`, as for any close). */
static void cut_off(net_stream *st)
{
    st->cut = 1;
    free_queue(st);
    lws_set_timeout(st->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

int net_stream_write(net_stream *st, const char *data, size_t len)
{
    if (st->ending || st->cut || len == 0)
        return st->ending || st->cut ? -1 : 0;
    if (st->queued + len > NET_STREAM_QUEUE_MAX) {
        cut_off(st);
        return -1;
    }
    return queue_chunk(st, data, len);
}

void net_stream_end(net_stream *st)
{
    st->gone = NULL;  /* the app has let go of it */
    if (st->ending)
        return;
    st->ending = 1;
    if (st->cut)
        return;  /* closing already */
    if (queue_chunk(st, "", 0) != 0)
        cut_off(st);
}

int net_stream_writeable(net_stream *st)
{
    if (st->cut || st->done)
        return -1;
    if (!st->headers_sent) {
        unsigned char buf[LWS_PRE + 1024];
        unsigned char *start = buf + LWS_PRE, *q = start, *end = buf + sizeof buf - 1;
        static const char chunked[] = "chunked", nosniff[] = "nosniff", nocache[] = "no-store";
        if (lws_add_http_common_headers(st->wsi, (unsigned)st->status, st->ctype,
                                        LWS_ILLEGAL_HTTP_CONTENT_LEN, &q, end) ||
            lws_add_http_header_by_name(st->wsi, (const unsigned char *)"transfer-encoding:",
                                        (const unsigned char *)chunked, sizeof chunked - 1,
                                        &q, end) ||
            lws_add_http_header_by_name(st->wsi,
                                        (const unsigned char *)"x-content-type-options:",
                                        (const unsigned char *)nosniff, sizeof nosniff - 1,
                                        &q, end) ||
            lws_add_http_header_by_name(st->wsi, (const unsigned char *)"cache-control:",
                                        (const unsigned char *)nocache, sizeof nocache - 1,
                                        &q, end) ||
            lws_finalize_write_http_header(st->wsi, start, &q, end))
            return -1;
        st->headers_sent = 1;
        if (st->head)
            lws_callback_on_writable(st->wsi);
        return 0;
    }
    block *b = st->head;
    if (!b)
        return 0;
    chunk *c = chunk_at(b, b->rd);
    size_t len = c->len;
    b->rd += chunk_bytes(len);
    st->queued -= len;
    int drained = b->rd == b->wr;  /* the block's last chunk: it goes after */
    int last = st->ending && drained && !b->next;
    int w = lws_write(st->wsi, c->data + LWS_PRE, len, LWS_WRITE_HTTP);
    if (drained) {  /* lws has sent the chunk or kept what it could not */
        st->head = b->next;
        if (!st->head)
            st->tail = NULL;
        munmap(b, b->size);
    }
    if (w < (int)len)
        return -1;
    if (last) {
        /* The last chunk is out; the connection goes at the next turn,
         * which lws gives only once all it buffered has been sent. */
        st->done = 1;
        lws_callback_on_writable(st->wsi);
        return 0;
    }
    if (st->head)
        lws_callback_on_writable(st->wsi);
    return 0;
}

void net_stream_closed(net_stream *st)
{
    if (st->gone)
        st->gone(st->arg);
    free_queue(st);
    free(st);
}
