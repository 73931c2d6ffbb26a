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
 * The queue is a net_queue (net_queue.c), whose pages go back to the
 * system once written or dropped.
 */
#include <uv.h>  /* before libwebsockets.h, as in net.c */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_queue.h"
#include "net_stream.h"

struct net_stream {
    struct lws *wsi;
    int status;
    char ctype[64];
    int headers_sent;
    int ending;          /* the app ended it: the last chunk follows the queue */
    int cut;             /* too much queued: close */
    int done;            /* the last chunk was written: close */
    net_queue q;         /* the chunks, each as sent */
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

/* Queues `len` bytes as one HTTP/1.1 chunk (RFC 9112 7.1): its length in
 * hex, CRLF, the bytes, CRLF. len 0 is the last chunk. */
static int queue_chunk(net_stream *st, const char *data, size_t len)
{
    char head[24];
    int hl = snprintf(head, sizeof head, "%zx\r\n", len);
    size_t total = (size_t)hl + len + 2;
    unsigned char *q = net_queue_push(&st->q, total);
    if (!q)
        return -1;
    memcpy(q, head, (size_t)hl);
    if (len)
        memcpy(q + hl, data, len);
    memcpy(q + (size_t)hl + len, "\r\n", 2);
    lws_callback_on_writable(st->wsi);
    return 0;
}

/* A reader this slow is gone in all but name: what waits for it is
 * dropped now, and its connection closed on the loop's next turn (through
 * lws, which then tells net.c, and the app's `gone`, as for any close). */
static void cut_off(net_stream *st)
{
    st->cut = 1;
    net_queue_drop(&st->q);
    lws_set_timeout(st->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

int net_stream_write(net_stream *st, const char *data, size_t len)
{
    if (st->ending || st->cut || len == 0)
        return st->ending || st->cut ? -1 : 0;
    if (st->q.bytes + len > NET_STREAM_QUEUE_MAX) {
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
        if (st->q.head)
            lws_callback_on_writable(st->wsi);
        return 0;
    }
    size_t len;
    unsigned char *c = net_queue_first(&st->q, &len);
    if (!c)
        return 0;
    int w = lws_write(st->wsi, c, len, LWS_WRITE_HTTP);
    net_queue_pop(&st->q);  /* lws has sent the chunk or kept what it could not */
    int last = st->ending && !st->q.head;
    if (w < (int)len)
        return -1;
    if (last) {
        /* The last chunk is out; the connection goes at the next turn,
         * which lws gives only once all it buffered has been sent. */
        st->done = 1;
        lws_callback_on_writable(st->wsi);
        return 0;
    }
    if (st->q.head)
        lws_callback_on_writable(st->wsi);
    return 0;
}

void net_stream_closed(net_stream *st)
{
    if (st->gone)
        st->gone(st->arg);
    net_queue_drop(&st->q);
    free(st);
}
