/* chat.h -- chat in live games (chat.c): players and spectators in rooms
 * apart, stored before anyone is told, hidden lines taken back live.
 */
#ifndef CITADEL_SERVER_CHAT_H
#define CITADEL_SERVER_CHAT_H

#include "../core/srv.h"

/* A chat line sent (`chat`). */
void chat_request(srv *s, client *c, const cmsg *m);
/* The chat a client sees of a game ({room, lines}), or NULL if the game
 * has none for it. */
json_t *chat_json(srv *s, live *g, const client *to);
/* A moderator hid (or showed again) a chat line: the room is told. */
void chat_line_changed(srv *s, const struct store_chat *line);

#endif
