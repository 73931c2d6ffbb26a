/* net_fd.c -- sockets of the app's own watched on the net's loop (net.h:
 * net_fd_watch), such as the servers' bus's database connection (bus.c).
 *
 * The invariant: a watch is freed only through uv_close, whose callback
 * frees it once the loop is done with the handle (net_free runs the loop
 * to the end of every close).
 */
#include <stdlib.h>
#include <uv.h>

#include "net_fd.h"

struct net_fd {
    uv_poll_t poll;   /* first: the callbacks get its address */
    net_fd_fn fn;
    void *arg;
    int write;
};

static void fd_ready(uv_poll_t *p, int status, int events)
{
    net_fd *w = (net_fd *)p;
    if (status < 0)  /* an error on the socket: let the app's read find it */
        events = UV_READABLE;
    w->fn(w->arg, (events & UV_READABLE) != 0, (events & UV_WRITABLE) != 0);
}

net_fd *net_fd_watch(net *n, int fd, net_fd_fn fn, void *arg)
{
    net_fd *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->fn = fn;
    w->arg = arg;
    if (uv_poll_init_socket(net_uv_loop(n), &w->poll, fd) != 0) {
        free(w);
        return NULL;
    }
    uv_poll_start(&w->poll, UV_READABLE, fd_ready);
    return w;
}

void net_fd_want_write(net_fd *w, int on)
{
    if (w->write == on)
        return;
    w->write = on;
    uv_poll_start(&w->poll, UV_READABLE | (on ? UV_WRITABLE : 0), fd_ready);
}

static void fd_closed(uv_handle_t *h)
{
    free(h);
}

void net_fd_free(net_fd *w)
{
    if (w)
        uv_close((uv_handle_t *)&w->poll, fd_closed);
}
