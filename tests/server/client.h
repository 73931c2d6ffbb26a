/* client.h -- a small blocking HTTP/1.1 and WebSocket client for testing
 * `citadel serve` over the wire.
 *
 * An independent implementation of the protocol (RFC 7230 framing of
 * responses, RFC 6455 WebSocket), written on plain POSIX sockets so that the
 * tests do not share code with the server they check. Every call is bounded
 * in time: nothing here waits longer than its timeout, or CLIENT_IO_MS where
 * a call takes none, so a broken server fails a test instead of hanging it.
 *
 * The WebSocket framing is wsframe.c's, shared with the load generator; the
 * server under test is fixture.h's.
 *
 * Link with wsframe.c, -ljansson, -lsodium and -lcrypto.
 */
#ifndef CITADEL_TEST_CLIENT_H
#define CITADEL_TEST_CLIENT_H

#include <jansson.h>
#include <stddef.h>

#include "wsframe.h"

#define CLIENT_IO_MS 10000   /* bound on any call that takes no timeout */

/* --- every connection ------------------------------------------------------ */

/* Later connections come from this local address ("127.0.0.5": any
 * 127.x.y.z works on Linux loopback), or from any if addr is NULL or "". */
void client_source(const char *addr);
/* Later requests and WebSocket handshakes carry these header lines
 * ("Origin: http://evil.example\r\n"), or none if lines is NULL or "". */
void client_headers(const char *lines);

/* --- HTTP ---------------------------------------------------------------- */

typedef struct http_resp {
    int status;
    char *body;              /* NUL-terminated (len excludes the NUL); never NULL after success */
    size_t len;
    char cookie[256];        /* citadel_session from Set-Cookie; "" if none was set */
    int cookie_set;          /* 1 if a Set-Cookie for citadel_session came (even an empty one) */
    char content_type[128];  /* "" if none */
} http_resp;

/* Sends `method path` with Connection: close, the cookie citadel_session=
 * `cookie` if cookie is not NULL, and body (as application/json) if body is
 * not NULL. Reads the response, Content-Length, chunked or until close.
 * Returns 0 with *out filled (free with http_resp_free), or -1 if there was
 * no well-formed response (connection refused, reset, timeout, bad framing);
 * *out is then empty and needs no freeing. */
int http_request(const char *host, int port, const char *method, const char *path,
                 const char *cookie, const char *body, http_resp *out);
void http_resp_free(http_resp *r);
/* http_request in two halves, for requests in flight at once: the first
 * sends the request and returns its socket (or -1), the second reads the
 * answer and closes the socket (0, or -1 as above). */
int http_begin(const char *host, int port, const char *method, const char *path,
               const char *cookie, const char *body);
int http_finish(int fd, http_resp *out);

/* Sends exactly the len bytes at req, then reads until the server closes or
 * timeout_ms passes. *resp (malloc'd, NUL-terminated, caller frees) and
 * *resp_len hold whatever arrived. Returns 0 if the server closed, 1 if the
 * time ran out first, -1 if it could not connect (nothing allocated). */
int http_raw(const char *host, int port, const void *req, size_t len, char **resp,
             size_t *resp_len, int timeout_ms);

/* The value of header `name` (any case) in a response's head (what http_raw
 * returns), leading spaces dropped, into out; "" if absent. Returns out. */
char *http_header(const char *resp, const char *name, char *out, size_t size);

/* Parses a whole HTTP response held in memory (what http_raw returns).
 * 0 and *out filled, or -1 if it is not a complete response. */
int http_parse(const char *buf, size_t len, http_resp *out);

/* --- WebSocket ------------------------------------------------------------ */

typedef struct ws_conn ws_conn;

/* Opens a WebSocket at path with a real handshake (random Sec-WebSocket-Key,
 * Sec-WebSocket-Accept checked). *http_status (if not NULL) gets the
 * handshake's status, or 0 if none came. NULL on any failure. */
ws_conn *ws_connect(const char *host, int port, const char *path, const char *cookie,
                    int *http_status);

/* A text message as one masked frame. 0, or -1 if the write failed. */
int ws_send_text(ws_conn *c, const char *text);
/* The same, for a message the schema does not allow (malformed JSON, an
 * unknown type, a field it does not have), sent on purpose: it is left out
 * of the wire log that the schema check reads (wirelog.h). */
int ws_send_hostile(ws_conn *c, const char *text);
/* Any frame, masked, with the given opcode and FIN bit: for fragments and
 * bad input. 0 or -1. */
int ws_send_frame(ws_conn *c, int opcode, int fin, const void *data, size_t len);
/* Exact bytes, no framing (unmasked frames, reserved bits, ...). 0 or -1. */
int ws_send_raw(ws_conn *c, const void *bytes, size_t len);

/* The next text message (malloc'd, NUL-terminated; caller frees),
 * reassembled from fragments. Answers pings and close frames on the way and
 * skips binary messages. NULL on timeout or once the connection is closed. */
char *ws_recv_text(ws_conn *c, int timeout_ms);

/* 1 once the server sent a close frame, closed the socket or broke the
 * protocol; the close code it sent (1000, 1002, ...), 1005 if none, 1006 if
 * the connection ended without a close frame, or 0 while open. */
int ws_is_closed(const ws_conn *c);
int ws_close_code(const ws_conn *c);

/* Sends a close frame (if still open), waits briefly for the server's, and
 * frees c. c may be NULL. */
void ws_close(ws_conn *c);
/* Closes the socket at once, without a close frame (a peer that vanished),
 * and frees c. c may be NULL. */
void ws_drop(ws_conn *c);

/* JSON over the socket. ws_send_json takes ownership of msg (also on
 * failure). ws_recv_json: the next message parsed (caller decrefs); NULL on
 * timeout, close, or a message that is not a JSON object. */
int ws_send_json(ws_conn *c, json_t *msg);
json_t *ws_recv_json(ws_conn *c, int timeout_ms);

/* Reads messages until one whose "type" is `type` arrives within timeout_ms
 * and returns it (caller decrefs); skips the others, remembering the text of
 * the last "error" message seen. NULL on timeout or close. */
json_t *ws_expect(ws_conn *c, const char *type, int timeout_ms);
/* The "error" text of the last error message ws_expect skipped or returned;
 * "" if none. Valid until the next call on c. */
const char *ws_last_error(const ws_conn *c);

#endif
