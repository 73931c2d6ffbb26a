/* net_stream.h -- net.c's side of streams (net.h's net_stream): made when
 * an answer becomes a stream, written to on each writeable turn, and told
 * when its connection closes. Used by net.c alone. */
#ifndef CITADEL_NET_STREAM_H
#define CITADEL_NET_STREAM_H

#include "net.h"

struct lws;

net_stream *net_stream_new(struct lws *wsi, int status, const char *content_type,
                           net_stream_gone gone, void *arg);
/* The connection may be written: the headers, then one queued chunk at a
 * time; -1 to close it (the stream has ended or was cut off). */
int net_stream_writeable(net_stream *st);
/* The connection has closed: gone() unless the app ended the stream, and
 * the stream is freed. */
void net_stream_closed(net_stream *st);

#endif
