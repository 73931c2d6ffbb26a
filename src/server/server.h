/* server.h -- the top of `citadel serve` (server.c): the server object
 * made, given its net and pools, started, swept, stopped and freed; and
 * the HTTP API's router (api.c). serve.c runs one for `citadel serve`;
 * the fuzz targets run one on a net of their own.
 *
 * srv_new fills in the hooks (core/srv.h) through which the layers below
 * reach the top: dispatch.c's handling of messages and of clients gone,
 * and play/check.c's invariant.
 */
#ifndef CITADEL_SERVER_SERVER_H
#define CITADEL_SERVER_SERVER_H

#include "core/srv.h"

/* srv_new opens nothing but the bots' accounts in st; the caller gives it
 * a net (made with srv_callbacks and the server as app) and worker pools,
 * then calls srv_start. */
srv *srv_new(const srv_config *cfg, store *st, char *err, size_t errlen);
extern const net_callbacks srv_callbacks;
/* Resumes the stored live games and starts the sweep; the number resumed,
 * or -1. */
int srv_start(srv *s);
/* Frees what srv_new and srv_start made (not the net, pools or store). */
void srv_free(srv *s);
/* Once a sweep's work, also callable by tests: finished games dropped from
 * memory, guests nobody can use removed from the store. */
void srv_sweep(srv *s);
/* Stopping: s->stopping set, and every timer the server holds freed, so
 * the net (where timers live) can go first; connections closed after
 * this are only freed. srv_free calls it too. */
void srv_stop(srv *s);

/* api.c: everything under /api/ */
void api_http(srv *s, net_http *h, const net_request *req);

#endif
