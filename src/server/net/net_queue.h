/* net_queue.h -- what waits to be written on one connection (a WebSocket's
 * messages, a stream's chunks), first in, first out, in pages of its own.
 * Used by net.c and net_stream.c alone.
 *
 * Each entry has LWS_PRE bytes of room before its bytes, as lws_write
 * wants. The entries live in blocks mapped for the queue alone, given back
 * to the system once their last entry is gone: memory freed on the heap
 * stays the process's wherever anything lives above it, so queues of
 * megabytes held by readers that stopped would leave the server that much
 * larger for good.
 */
#ifndef CITADEL_NET_QUEUE_H
#define CITADEL_NET_QUEUE_H

#include <stddef.h>

typedef struct net_queue_block net_queue_block;

/* All zero is an empty queue. */
typedef struct net_queue {
    net_queue_block *head, *tail;
    size_t bytes;    /* of the entries queued, the room before each not counted */
} net_queue;

/* An entry of len bytes at the queue's end: where its bytes go (LWS_PRE
 * bytes of room before them), or NULL if memory ran out (nothing queued). */
unsigned char *net_queue_push(net_queue *q, size_t len);
/* The first entry: its bytes (LWS_PRE bytes of room before them) and its
 * length in *len; NULL if the queue is empty. */
unsigned char *net_queue_first(const net_queue *q, size_t *len);
/* Forgets the first entry; what net_queue_first gave is invalid after. */
void net_queue_pop(net_queue *q);
/* Forgets every entry, all its memory given back; the queue is empty. */
void net_queue_drop(net_queue *q);

#endif
