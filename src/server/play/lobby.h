/* lobby.h -- seeks, challenges and tables, and the games made from them
 * (lobby.c): what a client may open and take, and the lobby message that
 * lists them with the live games.
 *
 * A seek belongs to the client that opened it (by id, server.h) and goes
 * when it is taken, withdrawn, or its client goes; a table's seats name
 * their sitters' clients likewise.
 */
#ifndef CITADEL_SERVER_LOBBY_H
#define CITADEL_SERVER_LOBBY_H

#include "../core/srv.h"

struct seek {
    int64_t id;
    uint64_t owner;      /* the client that opened it */
    ident by;            /* its player */
    game_settings set;
    int color;           /* the owner's side: 0 a random one, 1 the first mover's, 2 the other */
    int asked;           /* the side asked for (the same words), where color was settled */
    char token[33];      /* challenges: the link's token; "" for lobby seeks */
    /* Tables (games of more than two sides): each seat taken by a person
     * (seated[i] and who), a bot, or open. nseats 0 for two-sided seeks. */
    int nseats;
    int seated[GAME_MAX_SIDES];
    ident who[GAME_MAX_SIDES];
    uint64_t sitter[GAME_MAX_SIDES];  /* the client of a person's seat; 0 for bots */
    ident to;            /* a challenge to one player (the Bot API's); to.id 0: anyone */
    seek *next;
};

/* The lobby changed: its subscribers get the lobby within SRV_LOBBY_MS,
 * one message for any number of changes, serialized once for all. */
void lobby_changed(srv *s);
/* The lobby's lists changed on another server: only this server's
 * subscribers are told (lobby_changed tells the other servers too). */
void lobby_refresh(srv *s);
/* lobby_timer's callback: sends what lobby_changed held back. */
void lobby_flush(void *s);
/* This server's own open seeks (as the lobby lists them, at most
 * SRV_LOBBY_SEEKS), and in *tokens its challenges' tokens (cluster.c). */
json_t *lobby_mine(srv *s, json_t **tokens);
/* The lobby message: the newest SRV_LOBBY_SEEKS open seeks and the newest
 * 100 live games. */
json_t *lobby_now(srv *s);
json_t *lobby_bots_json(srv *s);
const ident *lobby_bot_by_name(srv *s, const char *name);
/* Requests of the lobby (seek .. unlobby); 1 if m was one of them. */
int lobby_request(srv *s, client *c, const cmsg *m);
/* A client is gone: its seeks and seats go with it. */
void lobby_client_gone(srv *s, client *c);
void lobby_free_all(srv *s);
/* 1 and a token taken if the client's address may make another game or
 * seek now; else 0 after telling it why not. */
int lobby_may_create(srv *s, client *c, json_t *ref);

/* The Bot API's requests (botapi.c), as the WebSocket's are answered but
 * with the reason in err (0 if done, -1 with err if not; nothing changes
 * then). */
/* A game of c's player against a built-in bot at once: c's player takes
 * `side` (-1: a random one), the bot every other side. */
live *lobby_play_bot(srv *s, client *c, const game_settings *set, const ident *robot, int side,
                     char *err, size_t errlen);
/* A challenge of c's player to `to` (a two-sided game), waiting for them. */
seek *lobby_challenge(srv *s, client *c, const game_settings *set, const ident *to, char *err,
                      size_t errlen);
/* A seek in the lobby, taken by whoever comes first. */
seek *lobby_seek(srv *s, client *c, const game_settings *set, char *err, size_t errlen);
/* The open challenge of a token, or NULL. */
seek *lobby_challenge_find(srv *s, const char *token);
/* c's player takes challenge k (it must be for them or for anyone): the
 * game, or NULL. */
live *lobby_take(srv *s, client *c, seek *k, char *err, size_t errlen);
/* Removes seek `id` of c's player: 0, or -1 if there is none such. */
int lobby_withdraw(srv *s, client *c, int64_t id);
/* Removes challenge k (declined, withdrawn). */
void lobby_drop(srv *s, seek *k);

#endif
