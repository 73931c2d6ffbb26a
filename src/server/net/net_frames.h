/* net_frames.h -- the frame check libwebsockets 4.1 leaves out: a client's
 * WebSocket frames must be masked (RFC 6455 5.1: a server MUST close the
 * connection on an unmasked frame), and a client must not send frames
 * before it has the server's answer to its handshake (4.1). lws from 4.3
 * on refuses unmasked frames itself; Debian 12's 4.1.6 takes them.
 *
 * net_frames.c follows, byte by byte, what lws reads from each of its
 * plain sockets (it wraps recv(), through which lws reads them): the end of
 * each read while the connection is still HTTP, and every frame header
 * once it is a WebSocket. A read that brings an unmasked frame fails as a
 * reset connection, so lws closes it before the frame reaches anyone.
 *
 * It also answers two requests lws 4.1 would drop without a word (it
 * closes the connection from inside its parser, where no callback of ours
 * runs): a request head longer than NET_HEAD_MAX bytes gets 431, and a
 * request line holding a NUL (raw, or "%00") gets 400. The answer is
 * written to the socket here, what is waiting to be read is drained (so
 * the close is a FIN, not a reset that could destroy the answer), and the
 * read fails as a reset connection, so lws closes. A head is measured from
 * the connection's start, and after each answer (net_frames_next), up to
 * its blank line; the body after it is not a head.
 *
 * Only sockets lws accepted, and only on the loop's thread, are looked at;
 * every other read of the process passes through untouched. Off under TLS
 * (lws then reads through OpenSSL, and what recv sees is ciphertext).
 */
#ifndef CITADEL_NET_FRAMES_H
#define CITADEL_NET_FRAMES_H

/* The longest request head (request line and headers) answered other
 * than 431. */
#define NET_HEAD_MAX (16 * 1024)

/* Starts looking after reads on this thread (the loop's). */
void net_frames_init(void);
/* lws accepted fd: its reads are HTTP until net_frames_upgrade. */
void net_frames_accept(int fd);
/* fd's request asks to become a WebSocket: 0, or -1 if the client sent
 * more than its handshake before the answer. Its reads are frames from
 * now on. */
int net_frames_upgrade(int fd);
/* fd's request is answered: what it sends next is a new request's head. */
void net_frames_next(int fd);
/* fd is closing: nothing more to look at. */
void net_frames_forget(int fd);

#endif
