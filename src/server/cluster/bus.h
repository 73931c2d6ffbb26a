/* bus.h -- messages between the servers of one PostgreSQL database, over
 * its LISTEN/NOTIFY: each server listens on a channel of its own and on
 * one that every server hears.
 *
 * A message is a text without newlines (compact JSON); messages from one
 * server to another arrive whole, once, in the order sent, or not at all
 * (a server that stops loses what was on its way to it). A message longer
 * than a notification may carry (8,000 bytes) goes in pieces and is put
 * together on arrival. Sending never waits: messages are queued and go in
 * one round trip with whatever else queued meanwhile.
 */
#ifndef CITADEL_BUS_H
#define CITADEL_BUS_H

#include <stddef.h>
#include <stdint.h>

#include "../net/net.h"

#define BUS_ALL 0                     /* bus_send to every server (this one too) */
#define BUS_MESSAGE_MAX (1024 * 1024) /* a longer message is refused */
#define BUS_QUEUE_MAX (64 * 1024 * 1024) /* bytes queued before the bus counts as lost */

typedef struct bus bus;

/* A message arrived from server `from` (text is NUL-terminated, len bytes). */
typedef void (*bus_deliver_fn)(void *app, int64_t from, const char *text, size_t len);
/* The server whose bus connection is the database backend `pid`, or 0 if
 * none is (store.h, STORE_BUS_LOCK): a notification of anyone else is
 * dropped before it is read, so a stranger who may NOTIFY on the database
 * can neither speak for a server nor make one keep anything. */
typedef int64_t (*bus_sender_fn)(void *app, int pid);

/* Connects to the database at uri for server `me`, takes the lock that
 * names its connection as server me's (STORE_BUS_LOCK) and listens,
 * watching the connection on the loop of n. NULL with why in err. */
bus *bus_open(const char *uri, int64_t me, net *n, bus_deliver_fn deliver,
              bus_sender_fn sender, void *app, char *err, size_t errlen);
/* Queues text (no newlines, at most BUS_MESSAGE_MAX bytes) for server `to`
 * (BUS_ALL: every server, this one included): 0, or -1 if refused or the
 * bus is lost. */
int bus_send(bus *b, int64_t to, const char *text);
/* Has the connection broken (or too much waited to be sent)? */
int bus_lost(const bus *b);
/* Sends what is queued, waiting for it (a server stopping). */
void bus_drain(bus *b);
void bus_free(bus *b);

#endif
