/* boards.h -- POST /api/read: position strings read by the games' own
 * code for a page whose engine has not arrived (boards.c). */
#ifndef CITADEL_SERVER_BOARDS_H
#define CITADEL_SERVER_BOARDS_H

#include "../core/srv.h"

/* Answers a POST /api/read request (docs/api.md); writes nothing. */
void boards_read_http(net_http *h, const net_request *req);

#endif
