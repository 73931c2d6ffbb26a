/* net_static.h -- net.c's files of the web root: a GET that is not under
 * /api/ and not /ws is served from it. Used by net.c alone. */
#ifndef CITADEL_NET_STATIC_H
#define CITADEL_NET_STATIC_H

struct lws;

/* Serves path from webroot ("": no web root, 404) with the extra headers
 * ("name: value\r\n" lines, or NULL); returns what the lws callback
 * should return. */
int net_static_serve(struct lws *wsi, const char *webroot, const char *headers, const char *path);

#endif
