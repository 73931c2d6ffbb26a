/* net_status.h -- the status lines and the whole closing answers this
 * server writes itself, so that every answer a client gets is one it can
 * parse: "HTTP/1.1 <code> <reason>" always (lws 4.1 writes "HTTP/1.0"
 * before it knows the request's version, and no reason phrase past 417).
 */
#ifndef CITADEL_NET_STATUS_H
#define CITADEL_NET_STATUS_H

#include <stddef.h>

/* Seconds a refused client is told to wait (Retry-After) when the refusal
 * knows no better figure. */
#define NET_RETRY_AFTER_S 60

/* The reason phrase of an HTTP status ("Too Many Requests"); "Unknown"
 * for one this server never sends. */
const char *net_reason(int status);
/* "HTTP/1.1 429 Too Many Requests" into buf; its length. */
int net_status_line(char *buf, size_t size, int status);
/* A whole answer that ends its connection: status line, extra ("Name:
 * value\r\n" lines, or NULL), Content-Type text/plain, Content-Length,
 * Connection: close, then `why` and a newline as the body. Its length, or
 * -1 if it does not fit in buf. */
int net_closing_answer(char *buf, size_t size, int status, const char *extra,
                       const char *why);

#endif
