/* wsframe.h -- the client's half of RFC 6455, written once for the tests'
 * blocking client (tests/server/client.c) and the load generator's epoll
 * loop (tools/load/wire.c): the handshake's key and expected accept, a
 * masked frame's bytes, and a server frame read from a buffer.
 *
 * No I/O and no allocation: the caller owns every buffer and every random
 * byte (a nonce, a mask), so that each side keeps its own sockets and its
 * own source of randomness. A frame is read only once it is whole; until
 * then wsframe_read says so and consumes nothing.
 *
 * Link with -lsodium (base64) and -lcrypto (OpenSSL's SHA-1).
 */
#ifndef CITADEL_TEST_WSFRAME_H
#define CITADEL_TEST_WSFRAME_H

#include <stddef.h>
#include <stdint.h>

enum { WS_CONT = 0, WS_TEXT = 1, WS_BINARY = 2, WS_CLOSE = 8, WS_PING = 9, WS_PONG = 10 };

#define WSFRAME_KEY 25       /* a Sec-WebSocket-Key with its NUL: base64 of 16 bytes */
#define WSFRAME_ACCEPT 29    /* a Sec-WebSocket-Accept with its NUL: base64 of SHA-1 */
#define WSFRAME_HEAD_MAX 14  /* the longest head of a masked frame */

/* Standard base64 (RFC 4648, padded) of the len bytes at in into out,
 * which holds 4 * ((len + 2) / 3) + 1 bytes. */
void wsframe_base64(const unsigned char *in, size_t len, char *out, size_t out_size);

/* The handshake: key from 16 random bytes, and the Sec-WebSocket-Accept a
 * server must answer to that key (base64 of SHA-1 of key and RFC 6455's
 * GUID). */
void wsframe_key(const unsigned char nonce[16], char key[WSFRAME_KEY]);
void wsframe_accept(const char *key, char accept[WSFRAME_ACCEPT]);

/* The head of a masked frame (FIN bit, opcode, payload length, mask) into
 * head; its length (at most WSFRAME_HEAD_MAX). */
size_t wsframe_head(unsigned char head[WSFRAME_HEAD_MAX], int opcode, int fin, size_t len,
                    const unsigned char mask[4]);
/* XORs the len bytes at data with mask (a client's payload: to mask it). */
void wsframe_mask(unsigned char *data, size_t len, const unsigned char mask[4]);

/* A frame from a server, read from the have bytes at p. */
typedef struct wsframe {
    int opcode;
    int fin;
    size_t head;             /* bytes before the payload */
    size_t len;              /* payload bytes, at p + head */
} wsframe;

/* 1 if a whole frame is at p (*f filled; it spans f->head + f->len bytes),
 * 0 if more bytes are needed, -1 if it breaks the protocol (reserved bits
 * set, or a masked frame: a server must not mask), -2 if its payload is
 * longer than max. */
int wsframe_read(const unsigned char *p, size_t have, uint64_t max, wsframe *f);

#endif
