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
 * every other read of the process passes through untouched. Under TLS
 * what recv sees is ciphertext: net_tls.c hands over what OpenSSL
 * deciphered instead (net_frames_look), and writes the answer through TLS.
 */
#ifndef CITADEL_NET_FRAMES_H
#define CITADEL_NET_FRAMES_H

#include <stddef.h>

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
/* fd (accepted) is read through TLS: recv leaves its bytes alone, and
 * net_tls.c hands over the deciphered ones. */
void net_frames_tls(int fd);
/* Looks at n bytes just read from fd (tls: deciphered ones, for a socket
 * read through TLS; 0: as recv read them): 0, fine; -1, an unmasked
 * frame: close at once; or the status (400, 431) to answer before closing
 * (net_frames_refusal). fd is forgotten after anything but 0. */
int net_frames_look(int fd, int tls, const void *buf, size_t n);
/* The whole answer (closing the connection) for such a status, as
 * net_closing_answer gives it. */
int net_frames_refusal(char *buf, size_t size, int status);
/* After the answer: no more writes, and what the client sent drained (so
 * the close is a FIN, not a reset that could destroy the answer). */
void net_frames_drain(int fd);
/* fd's request is answered: what it sends next is a new request's head. */
void net_frames_next(int fd);
/* fd is closing: nothing more to look at. */
void net_frames_forget(int fd);

#endif
