/* wirelog.h -- the test client's record of the wire for the schema check
 * (wirelog.c); inert unless $CITADEL_WIRE_LOG names a file. */
#ifndef CITADEL_TEST_WIRELOG_H
#define CITADEL_TEST_WIRELOG_H

#include <stddef.h>

#include "client.h"

int wirelog_on(void);
/* One HTTP exchange: the request's method, path (with its query) and body
 * (NULL if none), and the answer. */
void wirelog_http(const char *method, const char *path, const char *body, const http_resp *r);
/* A request sent on fd (http_begin), and its answer read (http_finish;
 * r NULL when none came): the pair becomes one wirelog_http line. */
void wirelog_http_begin(int fd, const char *method, const char *path, const char *body);
void wirelog_http_end(int fd, const http_resp *r);
/* One WebSocket text message; kind is "ws-send" or "ws-recv". */
void wirelog_ws(const char *kind, const char *text, size_t len);

#endif
