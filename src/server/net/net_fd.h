/* net_fd.h -- what net_fd.c needs of net.c: the libuv loop under the net.
 * Only the net's own files include it; the app sees net.h alone.
 */
#ifndef CITADEL_NET_FD_H
#define CITADEL_NET_FD_H

#include <uv.h>

#include "net.h"

uv_loop_t *net_uv_loop(net *n);

#endif
