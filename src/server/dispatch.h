/* dispatch.h -- the WebSocket side of the top of the server (dispatch.c):
 * the net's callbacks for connections, and the two hooks the layers below
 * reach through srv_hooks.
 */
#ifndef CITADEL_SERVER_DISPATCH_H
#define CITADEL_SERVER_DISPATCH_H

#include "core/srv.h"

int srv_ws_filter(void *app, const net_request *req);
int srv_ws_open(void *app, net_conn *conn, const net_request *req);
void srv_ws_message(void *app, net_conn *conn, const char *text, size_t len);
void srv_ws_close(void *app, net_conn *conn);

/* hooks.dispatch: one message of c, as if it had just arrived. */
void dispatch_message(srv *s, client *c, json_t *msg);
/* hooks.client_gone: c's games unwatched, its seeks withdrawn, its player
 * maybe gone from its games, its stand-ins on other servers gone. */
void dispatch_client_gone(srv *s, client *c);

#endif
