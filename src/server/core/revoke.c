/* revoke.c -- the one place where a credential revoked ends what it
 * opened (revoke.h): the token deletion of botapi/tokens.c, the sign-out
 * and the password change of account.c and the account closing of
 * community/moderation.c all come
 * here, and nothing else closes a connection for a credential's sake.
 *
 * What it ends is named by what opened it: a WebSocket's client keeps the
 * id of the session it was opened with (client.session: set by dispatch.c
 * as it opens, cleared if the cookie names no session) and its player; a
 * Bot API stream
 * keeps its token and player (botapi.c, reached through
 * hooks.revoke_api); the other servers are told through
 * hooks.revoke_others (cluster.c), and they run revoke_end_here.
 *
 * The invariant: once revoke_end returns, no WebSocket or Bot API stream of
 * this server that the credential opened will send another message; the
 * closes themselves finish on the loop's next turns. Running it twice for
 * one credential is harmless (the bus may bring a server its own).
 */
#include <sodium.h>
#include <string.h>

#include "revoke.h"
#include "srv.h"

void revoke_session_id(const char *token, char out[REVOKE_SESSION_ID])
{
    out[0] = 0;
    if (!token || !token[0])
        return;
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, (const unsigned char *)token, strlen(token));
    sodium_bin2hex(out, REVOKE_SESSION_ID, h, sizeof h);
}

/* 1 if client c's connection was opened with the credential. */
static int opened_with(const client *c, const revoked *r)
{
    switch (r->kind) {
    case REVOKE_PLAYER:
        return c->me.id == r->player;
    case REVOKE_SESSION:
        return c->session[0] && strcmp(c->session, r->session) == 0;
    case REVOKE_OTHERS:
        return c->me.id == r->player && strcmp(c->session, r->session) != 0;
    case REVOKE_TOKEN:   /* tokens open Bot API streams only */
        return 0;
    }
    return 0;
}

void revoke_end_here(srv *s, const revoked *r)
{
    /* stand-ins of other servers' connections (conn NULL) end with theirs,
     * there; the Bot API's clients (conn NULL) with their streams */
    for (client *c = s->clients, *next; c; c = next) {
        next = c->next;
        if (c->conn && opened_with(c, r))
            net_ws_close(c->conn);  /* nothing more is sent on it (net_ws_send) */
    }
    if (s->hooks.revoke_api)
        s->hooks.revoke_api(s, r);
}

void revoke_end(srv *s, const revoked *r)
{
    revoke_end_here(s, r);
    if (s->hooks.revoke_others)
        s->hooks.revoke_others(s, r);
}
