/* cluster.h -- several `citadel serve` on one PostgreSQL database, each
 * serving its own live games and passing what its clients ask of the
 * others' to their owners (docs/api.md, "Several servers").
 *
 * Each live game is owned by one server (store.h: a lease per server,
 * renewed every SRV_BEAT_MS, and the games of a lapsed one adopted by the
 * next server to look). A client's request for a game of another server
 * goes to that server over the bus (bus.h) and runs there on a stand-in
 * client (a client with no connection, whose messages go back over the
 * bus to the real one); so does taking a seek or a table seat another
 * server lists. Each server sends the others its open seeks and its
 * newest games whenever its lobby changes, and every lobby shows them all.
 * Notifications reach a player's connections on every server, and so do
 * a moderator's hiding of a chat line and the closing of an account.
 */
#ifndef CITADEL_CLUSTER_H
#define CITADEL_CLUSTER_H

#include "../core/srv.h"

#define SRV_BEAT_MS 1000         /* how often a server renews its lease and looks */
#define SRV_ADOPT_PAUSE_MS 20    /* between slices of games adopted (cluster.c) */
#define SRV_FORWARD_WAIT_MS 15000 /* a request for a game whose server stopped waits this */
#define SRV_FORWARD_WAITING 10000 /* requests waiting so, server-wide */

/* Joins the servers of s's PostgreSQL database at uri: a lease, the bus,
 * the beat. Before srv_start, which then adopts the games nobody serves.
 * -1 with why in err. */
int cluster_start(srv *s, const char *uri, const char *label, char *err, size_t errlen);
/* Takes over every live game whose server is gone (srv_start, and every
 * beat): how many were resumed here. */
int cluster_adopt(srv *s);
/* The server's row goes, its games to the next server to adopt: after the
 * writer has committed everything. */
void cluster_leave(srv *s);
/* Stops the beat, sends what the bus holds, and frees (srv_stop). */
void cluster_free(srv *s);

/* 1 if this server's lease surely holds now, so that it may answer for
 * its games (always 1 with one server alone). After a gap since the last
 * renewal (the process paused, the loop stalled) the database is asked
 * first; a server whose games were taken over meanwhile stops there
 * (exit status 3), and 0 means the database could not say: refuse. */
int cluster_lease_holds(srv *s);
/* 1 if c's request m (read from msg) is for another server and went
 * there, or waits for its game's new server; 0 to run it here. */
int cluster_forward(srv *s, client *c, const cmsg *m, json_t *msg);
/* client_send for a stand-in client: msg to its connection on its server. */
void cluster_send(client *c, json_t *msg);
/* A client of this server closed: the stand-ins it had elsewhere go. */
void cluster_client_gone(srv *s, client *c);
/* msg for every connection of a player on the other servers. */
void cluster_note(srv *s, int64_t player, json_t *msg);
/* A moderator hid or showed chat line `line`: the server of its game
 * tells the room. */
void cluster_chat_changed(srv *s, int64_t line);
/* hooks.revoke_others (core/revoke.h): a credential revoked; the other
 * servers end what it opened there (revoke_end_here). */
void cluster_revoke(srv *s, const revoked *r);
/* This server's lobby changed: the others are told. */
void cluster_lobby_changed(srv *s);
/* The other servers' open seeks and newest live games, appended to the
 * lobby's lists. */
void cluster_lobby_add(srv *s, json_t *seeks, json_t *games);
/* Ids of the player's live games on every server. */
json_t *cluster_live_of_player(srv *s, int64_t player);

#endif
