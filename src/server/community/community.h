/* community.h -- the community's routes and notifications: the message
 * board (forum.c), support tickets (support.c), moderation
 * (moderation.c), notifications (notify.c). Mail is mail.h, Markdown
 * markdown.h.
 *
 * Every route here answers its request exactly once (core/http.h), and
 * changes nothing when it answers with an error.
 */
#ifndef CITADEL_SERVER_COMMUNITY_H
#define CITADEL_SERVER_COMMUNITY_H

#include <jansson.h>

#include "../core/srv.h"

/* notify.c */
/* A notification stored for n->player and sent live to every connection
 * of theirs (`notify`). */
void notify_player(srv *s, struct store_note *n);
/* Notifications as the API shows them. */
json_t *notes_json(srv *s, const struct store_note *notes, int n);
/* forum.c: /api/forum/... (path after "/api/forum") */
void forum_http(srv *s, net_http *h, const net_request *req, const char *path);
/* Frees the posts kept rendered (srv_free). */
void forum_free_cache(void);
/* support.c: /api/support..., /api/staff/..., /api/notifications... */
void support_http(srv *s, net_http *h, const net_request *req, const char *path);
/* moderation.c: /api/reports, /api/mod/..., /api/admin/... */
void moderation_http(srv *s, net_http *h, const net_request *req, const char *path);

#endif
