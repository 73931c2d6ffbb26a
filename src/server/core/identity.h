/* identity.h -- who a visitor is (identity.c): addresses, Origins,
 * sessions, guests, and the `ident` the server keeps of a player.
 *
 * An ident is a copy, taken when it was read: games, seeks and clients
 * hold their own, and a player's name or standing is read again from the
 * store where it matters (identity.c's invariant).
 */
#ifndef CITADEL_SERVER_IDENTITY_H
#define CITADEL_SERVER_IDENTITY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "../../store/community.h"
#include "../../store/store.h"
#include "../net/net.h"

typedef struct srv srv;

/* Who someone is, as the server knows it. */
typedef struct ident {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    int bot, guest;      /* bot: a bot the server plays (spec) */
    int api_bot;         /* a bot account that plays through the Bot API */
    char spec[64];       /* bots: the bot spec */
} ident;

/* The site's address for what the server writes for a reader (a game
 * record's Site): --site if given, else the scheme and the request's Host
 * when the Host is a plain name or address (letters, digits and . - : [ ]),
 * else "?". */
void ident_site(srv *s, const net_request *req, char *out, size_t size);

/* The address text names (IPv4, IPv6), as 16 bytes (IPv4 as
 * ::ffff:a.b.c.d): 0, or -1 if text is not an address. */
int ident_addr_parse(const char *text, unsigned char out[16]);
/* The address a request comes from, as quotas count it: the socket's, or,
 * from the --trust-proxy address (however spelled), the last entry of its
 * X-Forwarded-For when that is an address. */
void ident_request_addr(srv *s, const net_request *req, char *out, size_t size);
/* 1 if a request may act for the visitor: no Origin, or the server's own,
 * or one of --allow-origin. */
int ident_origin_ok(srv *s, const net_request *req);

/* The session token of a Cookie header into token (65 bytes; "" if none). */
void ident_cookie_token(const char *cookie, char *token);
/* The Set-Cookie header line of a session (token NULL: the cookie goes),
 * living max_ms. */
void ident_cookie_header(srv *s, char *buf, size_t size, const char *token, int64_t max_ms);
/* The player of a Cookie header's session: 0, or -1 if none is valid. */
int ident_session_player(srv *s, const char *cookie, ident *out);
/* A new session of player for life_ms, its token (65 bytes): 0, or -1. */
int ident_session_new(srv *s, int64_t player, int64_t life_ms, char *token);
/* The signed-in visitor of a request (a guest's session counts): 0, or -1
 * if the request has no valid session or the account is closed. standing
 * may be NULL. */
int ident_request_me(srv *s, const net_request *req, ident *me, struct store_standing *standing);

/* A new guest made by a visitor at addr, with its session token (65
 * bytes): 0; 1 if the address has made all its guests for the hour
 * (guests-per-hour); -1 if the store refused. */
int ident_guest_new(srv *s, const char *addr, ident *out, char *token);
/* 1 if a visitor at addr may make a guest now. */
int ident_guest_allowed(srv *s, const char *addr);
/* Removes guests without a game whose every session has expired. */
void ident_guests_purge(srv *s);

json_t *ident_json(const ident *p);
void ident_of(const store_player *p, ident *out);
/* A stored player's ident: 0, or -1 if the store does not know it. */
int ident_load(srv *s, int64_t id, ident *out);
/* bytes random bytes as bytes*2 hex characters and a NUL. */
void ident_random_token(char *out, size_t bytes);

#endif
